"""The report as PDF (``report.pdf``): the pages, the bookmarks and the contents list.

The blocks (paragraphs, tables, charts) are typeset by
:mod:`kaiser_sim.report.pdf_blocks`; here they are laid out on A4 pages with
a 7.0 x 9.5 in content box (so that it prints on Letter too), a bookmark per
section and heading, a contents list that links, a footer, and charts that
let short tables move up into the room they leave.  Reproducible: reportlab's
invariant mode (no random document id) and the report's date
(``SOURCE_DATE_EPOCH``) as the creation date.
"""

from __future__ import annotations

import datetime as _dt
import os

from .. import __version__
from ..studies.blocks import Chart, Table, Text
from .content import Report, report_date
from .pdf_blocks import (BOX_H, BOX_W, FONT, LEFT, PAGE_H, PAGE_W, TOP, chart_class, escape, paragraph,
                         paragraph_styles, register_fonts, table_flowables)


def _mark(flowable, key: str, title: str, level: int, toc: bool = False):
    """Ask the document for a bookmark, an outline entry (and a contents
    line) where ``flowable`` lands."""
    flowable._ks_mark = (key, title, level, toc)
    return flowable


def _story(report: Report, st: dict, toc, chart_cls, box_w: float, box_h: float) -> list:
    from reportlab.lib.units import inch
    from reportlab.platypus import KeepInFrame, KeepTogether, PageBreak, Paragraph, Spacer

    story = []
    for si, sec in enumerate(report.sections):
        key = f"sec-{sec.key}"
        if si == 0:
            story.append(Spacer(1, 0.1 * inch))  # room for the preview/edition box and the contents
            story.append(_mark(Paragraph(escape(report.title), st["title"]), key, report.title, 0))
        else:
            story.append(PageBreak())
            story.append(_mark(Paragraph(escape(sec.title), st["section"]), key, sec.title, 0, toc=True))
        flow = []
        heads = 0
        last = len(sec.blocks) - 1
        # a section's closing note ("All tables of this study ...") goes with the table or chart before it,
        # never alone at the top of a page
        closing = (si > 0 and last > 0 and isinstance(sec.blocks[last], Text) and sec.blocks[last].style == "note"
                   and isinstance(sec.blocks[last - 1], (Table, Chart)))
        for i, b in enumerate(sec.blocks):
            if closing and i == last:
                continue
            tail = paragraph(sec.blocks[last], st) if closing and i == last - 1 else None
            if si == 0 and i == len(sec.blocks) - 1:  # the contents, before the title page's last note
                flow += [Paragraph("Contents", st["heading"]), toc]
            if isinstance(b, Text):
                if si == 0 and i == 0 and b.style == "heading":  # the subtitle
                    flow.append(Paragraph(escape(b.text), st["subtitle"]))
                    continue
                p = paragraph(b, st)
                if b.style == "heading" and si > 0 and not sec.one_page:
                    heads += 1
                    _mark(p, f"{key}-{heads}", b.text, 1)
                flow.append(p)
            elif isinstance(b, Table):
                flow += table_flowables(b, st, box_w, keep=not sec.one_page, tail=tail)
            elif isinstance(b, Chart):
                chart = chart_cls(report.out / f"{b.path}.svg", max_h=6.2 * inch)
                flow.append(KeepTogether([chart, tail]) if tail is not None else chart)
        if sec.one_page or si == 0:  # the whole section on its page: the type shrinks when it must (the title
            # page too: its box, questions and contents grow with the run and the studies, and a last line spilt
            # onto an otherwise empty page 2 is worse than type a few percent smaller)
            story.append(KeepInFrame(0, 0, flow, mode="shrink"))
        else:
            story += flow
    return story


def _unpostpone(flowables) -> None:
    """Clear platypus's mark on flowables it moved to the next page (a
    flowable marked twice is an error): each pass lays out the same ones."""
    for f in flowables:
        f.__dict__.pop("_postponed", None)
        _unpostpone(getattr(f, "_content", None) or [])


def render_pdf(report: Report, path) -> int:
    """Write the report as a PDF; returns the number of pages.

    One bookmark (outline entry) per section and one per heading, a
    contents list on the title page whose lines link to the sections,
    tables that fit the width (the header repeated on each page of a long
    one), the charts as vector graphics.  The same report gives the same
    bytes (the creation date is the report's ``inputs["date"]``, see
    :func:`report_date`)."""
    from reportlab.lib.colors import Color
    from reportlab.lib.units import inch
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, TableStyle
    from reportlab.platypus.flowables import _listWrapOn
    from reportlab.platypus.tableofcontents import TableOfContents

    register_fonts()
    inp = report.inputs
    footer = (f"kaiser-sim {inp['version']} · rules {inp['rules'].get('label', '?')} · {inp['deals']:,} deals · "
              f"seed {inp['seed']}")
    try:  # the report's own date (the same report, the same bytes)
        date = _dt.datetime.strptime(str(inp.get("date")), "%Y-%m-%d %H:%M UTC")
    except ValueError:
        date = report_date()
    stamp = date.strftime("D:%Y%m%d%H%M%S+00'00'")
    st = paragraph_styles()
    box_w, box_h = BOX_W * inch, BOX_H * inch

    class _Canvas(Canvas):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            self.setDateFormatter(lambda *_: stamp)

    class _Doc(BaseDocTemplate):
        def filterFlowables(self, flowables):
            """A chart that does not fit the rest of the page goes to the next
            one, as always; the short tables that follow it (past any other
            charts) and fit the room it leaves move up into it, so that no
            page ends half empty before a chart (a float, as in print)."""
            chart = flowables[0] if flowables else None
            frame = getattr(self, "frame", None)
            if not isinstance(chart, chart_cls) or frame is None or frame._atTop:
                return
            width = frame._getAvailableWidth()
            room = frame._y - frame._y1p - chart.getSpaceBefore()
            if room <= 0 or chart.wrap(width, room)[1] <= room + 0.01:
                return
            j = 1
            while j < len(flowables) and isinstance(flowables[j], chart_cls):
                j += 1
            moved = []
            while j < len(flowables) and getattr(flowables[j], "_ks_short_table", False):
                f = flowables[j]  # a KeepTogether (its own wrap() asks for a split): the height of its content
                h = _listWrapOn(f._content, width, self.canv)[1] + f.getSpaceBefore()
                if h > room:
                    break
                moved.append(j)
                room -= h
                j += 1
            if moved:
                ahead = [flowables[k] for k in moved]
                for k in reversed(moved):
                    del flowables[k]
                flowables[0:0] = ahead

        def afterFlowable(self, flowable):
            mark = getattr(flowable, "_ks_mark", None)
            if mark is None:
                return
            key, title, level, in_toc = mark
            c = self.canv
            if level == 0:
                c.bookmarkPage(key)
            else:
                c.bookmarkHorizontalAbsolute(key, self.frame._y + flowable.height + 14)
            c.addOutlineEntry(title, key, level=level)
            if in_toc:
                self.notify("TOCEntry", (0, escape(title), self.page, key))

    def decorate(canv, doc):
        canv.saveState()
        canv.setFont(FONT, 7)
        canv.setFillColor(Color(0.4, 0.4, 0.4))
        canv.drawRightString(doc.leftMargin + box_w, doc.bottomMargin - 0.3 * inch, f"{footer}    page {doc.page}")
        canv.restoreState()

    def document(target):
        doc = _Doc(target, pagesize=(PAGE_W * inch, PAGE_H * inch), leftMargin=LEFT * inch,
                   rightMargin=LEFT * inch, topMargin=TOP * inch, bottomMargin=TOP * inch, invariant=1,
                   title=report.title, author="kaiser-sim", subject=footer, creator=f"kaiser-sim {__version__}",
                   keywords="Kaiser, card game, double dummy, Monte Carlo")
        frame = Frame(doc.leftMargin, doc.bottomMargin, box_w, box_h, id="body", leftPadding=0, rightPadding=0,
                      topPadding=0, bottomPadding=0)
        doc.addPageTemplates([PageTemplate("page", [frame], onPage=decorate)])
        return doc

    toc = TableOfContents(dotsMinLevel=0)
    toc.levelStyles = [st["toc"]]
    # reportlab's rows pad 3 pt above and below: tighter, so that the title page holds its last note too
    toc.tableStyle = TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                 ("RIGHTPADDING", (0, 0), (-1, -1), 0), ("TOPPADDING", (0, 0), (-1, -1), 0),
                                 ("BOTTOMPADDING", (0, 0), (-1, -1), 0)])
    chart_cls = chart_class()
    story = _story(report, st, toc, chart_cls, box_w, box_h)
    # first pass: where each section starts (charts laid out, not drawn); then the pages, with the contents
    import io

    # reportlab seeds the document id with its time stamp, which is SOURCE_DATE_EPOCH when set: the report's date
    epoch = str(int(date.replace(tzinfo=_dt.timezone.utc).timestamp()))
    saved = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = epoch
    try:
        for final in (False, True, True):
            chart_cls.draw_charts = final
            _unpostpone(story)
            toc.beforeBuild()
            doc = document(str(path) if final else io.BytesIO())
            doc._indexingFlowables = [toc]
            doc.build(story[:], canvasmaker=_Canvas)
            toc.afterBuild()
            if final and toc.isSatisfied():
                break
    finally:
        if saved is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved
    return doc.page


__all__ = ["render_pdf"]

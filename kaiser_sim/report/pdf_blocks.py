"""The PDF's blocks: fonts, paragraph styles, paragraphs, tables that fit the page, charts.

Typeset with reportlab's platypus (flowing paragraphs, tables that split with
their header repeated); charts are the studies' SVG files drawn as vector
graphics through svglib.  DejaVu Sans (shipped with matplotlib, so also in the
charts) has every glyph the report uses (♥ ♠ − ½ ≤ ²).  The pages, bookmarks
and contents they are laid out in: :mod:`kaiser_sim.report.pdf`.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from ..studies.blocks import Table, Text
from .content import ReportError

#: page geometry (inches): A4 portrait with a content box that also fits Letter
PAGE_W, PAGE_H = 8.27, 11.69
BOX_W, BOX_H = 7.0, 9.5
LEFT = (PAGE_W - BOX_W) / 2
TOP = (PAGE_H - BOX_H) / 2
CHART_DPI = 150

FONT, BOLD, ITALIC = "KSans", "KSans-Bold", "KSans-Oblique"
_GREY = 0.35
_MIN_TABLE_SIZE = 5.5  # pt: below this a wide table wraps its cells instead of shrinking
_PAD = 4.0  # pt: cell padding left and right
_KEEP_WHOLE = 0.45  # a table up to this share of the page is never split
_END_ROWS = 4  # a table split across pages keeps at least this many rows on each side (no orphan rows)
_NUMBER = re.compile(r"^([-+−]?[\d,.]+\*?( \[[-−\d., ]+\])?%?|-|·|—)$")


def register_fonts() -> None:
    import matplotlib
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if FONT in pdfmetrics.getRegisteredFontNames():
        return
    ttf = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    files = {FONT: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf", ITALIC: "DejaVuSans-Oblique.ttf",
             FONT + "-BoldOblique": "DejaVuSans-BoldOblique.ttf"}
    for name, file in files.items():
        pdfmetrics.registerFont(TTFont(name, str(ttf / file)))
    for bold, italic, name in ((0, 0, FONT), (1, 0, BOLD), (0, 1, ITALIC), (1, 1, FONT + "-BoldOblique")):
        addMapping(FONT, bold, italic, name)


def paragraph_styles(scale: float = 1.0) -> dict:
    from reportlab.lib.colors import Color
    from reportlab.lib.styles import ParagraphStyle

    grey = Color(_GREY, _GREY, _GREY)

    def style(name, size, font=FONT, before=0.0, after=0.0, lead=1.3, **kw):
        s = size * scale
        return ParagraphStyle(name, fontName=font, fontSize=s, leading=s * lead, spaceBefore=before * scale,
                              spaceAfter=after * scale, **kw)

    return {
        "title": style("title", 24, BOLD, after=10, lead=1.2),
        "subtitle": style("subtitle", 13, FONT, after=14, textColor=grey),
        "section": style("section", 16, BOLD, after=8, lead=1.2, keepWithNext=1),
        "heading": style("heading", 11, BOLD, before=10, after=3, keepWithNext=1),
        "body": style("body", 9.5, before=5, lead=1.35),
        "bullet": style("bullet", 9.5, before=2, lead=1.35, leftIndent=14, bulletIndent=4, bulletFontName=FONT),
        "term": style("term", 9.5, before=4, lead=1.35, leftIndent=14, firstLineIndent=-14),
        "note": style("note", 8, before=4, textColor=grey),
        # the title page's words on what the report is (a preview or the edition): boxed, before the rest
        "callout": style("callout", 10, BOLD, before=2, after=12, lead=1.35, backColor=Color(0.96, 0.94, 0.86),
                         borderColor=Color(0.75, 0.68, 0.45), borderWidth=0.6, borderPadding=6),
        # the table card's boxes (the count, the rules of thumb): framed, plain type
        "box": style("box", 10, before=4, after=6, lead=1.35, backColor=Color(0.95, 0.96, 0.93),
                     borderColor=Color(0.55, 0.6, 0.5), borderWidth=0.6, borderPadding=5),
        "caption": style("caption", 8.5, BOLD, before=9, after=3, keepWithNext=1),
        "toc": style("toc", 10, lead=1.3, leftIndent=14, firstLineIndent=-14),
    }


def escape(text: str) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


#: lead-ins set in bold in the PDF (the study sections' paragraphs)
_LEAD_INS = ("Method. ", "What the numbers mean. ")


def paragraph(b: Text, st: dict):
    from reportlab.platypus import Paragraph

    if b.style == "term":
        return Paragraph(f"<b>{escape(b.term)}</b>: {escape(b.text)}", st["term"])
    text = escape(b.text)
    for lead in _LEAD_INS:
        if text.startswith(lead):
            text = f"<b>{lead.strip()}</b> {text[len(lead):]}"
    if b.style == "bullet":
        return Paragraph(text, st["bullet"], bulletText="•")
    if b.style == "box":  # a box of lines (the table card's rules of thumb): one line each
        text = text.replace("\n", "<br/>")
    return Paragraph(text, st.get(b.style, st["body"]))



def _lines(text: str, width: float, size: float) -> int:
    """Lines a bold header takes at ``width`` points (words kept whole)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    n, line = 1, ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if line and stringWidth(trial, BOLD, size) > width:
            n, line = n + 1, word
        else:
            line = trial
    return n


def table_flowables(b: Table, st: dict, width: float, keep: bool = True, tail=None) -> list:
    """A table's caption, the table (header repeated on every page it
    spans) and its note: the largest type up to ``b.size`` at which every
    column fits the width unbroken (headers break between words); below
    the smallest size, the widest cells wrap."""
    from reportlab.lib.colors import Color
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.platypus import CondPageBreak, KeepTogether, LongTable, Paragraph, TableStyle

    cols = [str(c) for c in b.df.columns]
    body = [[str(v) for v in row] for row in b.df.itertuples(index=False)]
    numeric = [bool(body) and all(_NUMBER.match(r[j]) for r in body) for j in range(len(cols))]

    def widths(size):
        # half a point over the longest word: a column exactly as wide as a header word broke it in two
        # ("1st, o / pens") where the width lost its last bit to rounding
        head_word = [max(stringWidth(w, BOLD, size) for w in (c.split() or [""])) + 0.5 for c in cols]
        cell = [max([stringWidth(r[j], FONT, size) for r in body] or [0.0]) for j in range(len(cols))]
        cell_word = [max([stringWidth(w, FONT, size) for r in body for w in (r[j].split() or [""])] or [0.0])
                     for j in range(len(cols))]
        return head_word, cell, cell_word

    size = b.size
    wrap_cells = False
    while True:
        head_word, cell, cell_word = widths(size)
        col = [max(h, c) + 2 * _PAD for h, c in zip(head_word, cell)]
        if sum(col) <= width or size <= _MIN_TABLE_SIZE:
            break
        size = max(_MIN_TABLE_SIZE, size - 0.25)
    if sum(col) > width:  # still too wide at the smallest type: the widest cells wrap
        wrap_cells = True
        least = [max(h, c) + 2 * _PAD for h, c in zip(head_word, cell_word)]
        give = sum(col) - width
        slack = [c - m for c, m in zip(col, least)]
        total = sum(slack) or 1.0
        col = [c - give * s / total for c, s in zip(col, slack)]
    elif sum(max(stringWidth(c, BOLD, size) + 2 * _PAD, w) for c, w in zip(cols, col)) <= width:
        col = [max(stringWidth(c, BOLD, size) + 2 * _PAD, w) for c, w in zip(cols, col)]  # headers on one line
    else:  # room to spare: a header on more than two lines gets wider, while there is room
        spare = width - sum(col)
        for j in range(len(cols)):
            while spare > 0 and _lines(cols[j], col[j] - 2 * _PAD, size) > 2:
                step = min(2.0, spare)
                col[j] += step
                spare -= step

    lead = size * 1.22
    hstyle = ParagraphStyle("th", fontName=BOLD, fontSize=size, leading=lead)
    cstyle = ParagraphStyle("td", fontName=FONT, fontSize=size, leading=lead)
    align = {True: 2, False: 0}  # TA_RIGHT, TA_LEFT
    header = [Paragraph(escape(c), ParagraphStyle(f"th{j}", hstyle, alignment=align[numeric[j]]))
              for j, c in enumerate(cols)]
    rows = [header]
    for r in body:
        if wrap_cells:
            rows.append([Paragraph(escape(v), ParagraphStyle("tdw", cstyle, alignment=align[numeric[j]]))
                         for j, v in enumerate(r)])
        else:
            rows.append(r)
    band = Color(0.94, 0.95, 0.97)
    cmds = [("FONT", (0, 0), (-1, -1), FONT, size, lead),
            ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
            ("LEFTPADDING", (0, 0), (-1, -1), _PAD), ("RIGHTPADDING", (0, 0), (-1, -1), _PAD),
            ("TOPPADDING", (0, 0), (-1, -1), 0.9), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.4),
            ("LINEABOVE", (0, 0), (-1, 0), 0.8, Color(0.2, 0.2, 0.2)),
            ("LINEBELOW", (0, 0), (-1, 0), 0.5, Color(0.2, 0.2, 0.2)),
            ("LINEBELOW", (0, -1), (-1, -1), 0.8, Color(0.2, 0.2, 0.2))]
    cmds += [("ALIGN", (j, 1), (j, -1), "RIGHT") for j in range(len(cols)) if numeric[j]]
    cmds += [("BACKGROUND", (0, i), (-1, i), band) for i in range(2, len(rows), 2)]
    table = LongTable(rows, colWidths=col, repeatRows=1, hAlign="LEFT", style=TableStyle(cmds))
    parts = []
    if b.title:
        parts.append(Paragraph(escape(b.title), st["caption"]))
    notes = ([Paragraph(escape(b.note), st["note"])] if b.note else []) + ([tail] if tail is not None else [])
    if not keep:
        return parts + [table] + notes
    block = _table_block_class()(table, notes)  # the notes stay whole, with the table's last rows
    parts.append(block)
    _, height = table.wrap(width, 1e6)
    if height <= _KEEP_WHOLE * BOX_H * 72:  # a short table moves to the next page whole
        whole = KeepTogether(parts)
        whole._ks_short_table = True  # it may fill the room a chart leaves at the foot of a page (render_pdf)
        return [whole]
    # a long one starts where it is if its caption, header and a few rows fit there
    first = sum(table._rowHeights[:1 + _END_ROWS]) + (
        parts[0].wrap(width, 1e6)[1] + st["caption"].spaceBefore if b.title else 0)
    if b.title:
        parts[0] = Paragraph(escape(b.title), ParagraphStyle("caption-split", st["caption"], keepWithNext=0))
    return [CondPageBreak(first + 6)] + parts


def _table_block_class():
    from reportlab.platypus import Flowable

    class TableBlock(Flowable):
        """A table and its notes as one flowable: split between rows only,
        never leaving fewer than :data:`_END_ROWS` rows on either side of a
        page break, the notes (never split) under the table's last rows."""

        def __init__(self, table, notes):
            super().__init__()
            self.table, self.notes = table, list(notes)
            self.hAlign = "LEFT"

        def _note_height(self, avail_w):
            self.note_heights = [n.wrap(avail_w, 1e6)[1] + n.style.spaceBefore for n in self.notes]
            return sum(self.note_heights)

        def wrap(self, avail_w, avail_h):
            self.tw, self.th = self.table.wrap(avail_w, avail_h)
            self.nh = self._note_height(avail_w)
            self.width, self.height = avail_w, self.th + self.nh
            return self.width, self.height

        def draw(self):
            self.table.drawOn(self.canv, 0, self.nh)
            y = self.nh
            for n, h in zip(self.notes, self.note_heights):
                y -= h
                n.drawOn(self.canv, 0, y)

        def split(self, avail_w, avail_h):
            self.wrap(avail_w, avail_h)
            if self.height <= avail_h:
                return [self]
            t, head = self.table, self.table.repeatRows
            heights = list(t._rowHeights)
            body = len(heights) - head
            # the rows that fit above the note, if it must come along, else the rows that fit
            room = avail_h if self.th > avail_h else avail_h - self.nh
            first = len([h for h in _cumsum(heights) if h <= room]) - head
            first = min(first, body - _END_ROWS)  # the last rows stay with the note
            if first < _END_ROWS:
                return []  # too few rows fit here: the table moves to the next page
            pieces = t.split(avail_w, sum(heights[:head + first]) + 0.01)
            if len(pieces) != 2:
                return []
            return [pieces[0], type(self)(pieces[1], self.notes)]

    return TableBlock


def _cumsum(values):
    total, out = 0.0, []
    for v in values:
        total += v
        out.append(total)
    return out


def chart_class():
    from reportlab.graphics import renderPDF
    from reportlab.platypus import Flowable

    class ChartFlowable(Flowable):
        """A study chart (its SVG) drawn as vector graphics, as wide as the
        text (at most ``max_h`` tall), a little smaller rather than moved
        to the next page when most of it fits."""

        draw_charts = True  # False in the measuring pass: the layout is the same, drawing is skipped

        def __init__(self, svg: Path, max_h: float):
            super().__init__()
            self.svg, self.max_h = svg, max_h
            self._drawing = None
            self.w0, self.h0 = _svg_size(svg)

        def wrap(self, avail_w, avail_h):
            w = avail_w
            h = w * self.h0 / self.w0
            if h > self.max_h:
                h = self.max_h
                w = h * self.w0 / self.h0
            if h > avail_h >= 0.78 * h:
                w, h = w * avail_h / h, avail_h
            self.dw, self.dh = w, h
            self.width, self.height = avail_w, h
            return avail_w, h

        def draw(self):
            if not type(self).draw_charts:
                return
            if self._drawing is None:
                from svglib.svglib import svg2rlg

                # the chart's bytes, not its path: svglib cannot open a path
                # that is not valid UTF-8 (an --out of arbitrary bytes)
                self._drawing = svg2rlg(io.BytesIO(Path(self.svg).read_bytes()))
                if self._drawing is None:
                    raise OSError(f"cannot read the chart {self.svg}")
            d = self._drawing
            s = self.dw / d.width
            c = self.canv
            c.addLiteral("/Figure BMC")  # marked content: a chart (a reader, or the tests, can find it)
            c.saveState()
            c.translate((self.width - self.dw) / 2, 0)
            c.scale(s, s)
            renderPDF.draw(d, c, 0, 0)
            c.restoreState()
            c.addLiteral("EMC")

    return ChartFlowable


def _svg_size(path: Path) -> tuple[float, float]:
    """(width, height) in points of an SVG written by matplotlib."""
    head = path.read_text(encoding="utf-8")[:2000]
    m = re.search(r'<svg[^>]*\bwidth="([\d.]+)pt"[^>]*\bheight="([\d.]+)pt"', head)
    if not m:
        raise ReportError(f"{path}: not an SVG chart written by matplotlib")
    return float(m.group(1)), float(m.group(2))


__all__ = ["PAGE_W", "PAGE_H", "BOX_W", "BOX_H", "LEFT", "TOP", "CHART_DPI", "FONT", "BOLD", "ITALIC",
           "register_fonts", "paragraph_styles", "escape", "paragraph", "table_flowables", "chart_class"]

"""The printed report's PDF, read back with a Python PDF reader (pypdf): its
pages, outline (bookmarks), contents links, text, and charts drawn as
vector graphics (no raster image anywhere).  One small report is built for
the module (about 15 s)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pypdf  # a test dependency (the test extra): the PDF is read in Python, no system tool
import pytest

from kaiser_sim.studies.heard import TITLE as HEARD_TITLE
from kaiser_sim.report import BOX_W, GLOSSARY_TITLE, Table, make_report, render_pdf
from kaiser_sim.runs.simulate import simulate
from kaiser_sim.studies import STUDIES, get_study

TITLES = {k: get_study(k).TITLE for k in STUDIES}
EPOCH = "1700000000"  # 2023-11-14


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """``(report, doc, reader)``: a report of 200 seeded deals and its PDF, read."""
    base = tmp_path_factory.mktemp("pdf")
    simulate(base / "runs", 200, 7, mode="points", workers=1)
    mp = pytest.MonkeyPatch()
    mp.setenv("SOURCE_DATE_EPOCH", EPOCH)
    try:
        rep, doc = make_report(base / "rep", from_path=base / "runs", max_resolve=8)
    finally:
        mp.undo()
    return rep, doc, pypdf.PdfReader(str(base / "rep" / "report.pdf"))


@pytest.fixture(scope="module")
def texts(report):
    """The text of every page."""
    return [p.extract_text() for p in report[2].pages]


def _outline(reader) -> list[tuple[int, str, int]]:
    """``[(level, title, page index)]`` of the PDF's outline, in order."""
    out = []

    def walk(items, level):
        for it in items:
            if isinstance(it, list):
                walk(it, level + 1)
            else:
                out.append((level, it.title, reader.get_destination_page_number(it)))

    walk(reader.outline, 0)
    return out


def _section_titles(rep) -> list[str]:
    return [s.title for s in rep.sections]


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_pages(report):
    rep, doc, reader = report
    assert len(reader.pages) == doc["pages"] > 2 + len(STUDIES)
    assert reader.metadata.title == rep.title
    assert reader.metadata["/CreationDate"].startswith("D:20231114")


def test_outline_lists_every_section(report, texts):
    rep, _, reader = report
    entries = _outline(reader)
    top = [(title, page) for level, title, page in entries if level == 0]
    assert [t for t, _ in top] == _section_titles(rep)
    assert _section_titles(rep)[1:8] == ["Cheat sheet: at the table", "Cheat sheet, continued", GLOSSARY_TITLE,
                                         "Worked hands", "The rule sheets' advice, tested", HEARD_TITLE,
                                         TITLES["bid-odds"]]
    pages = [p for _, p in top]
    assert pages == sorted(pages) and pages[0] == 0
    for title, page in top[1:]:  # each bookmark opens the page where its section starts
        assert title in texts[page].splitlines()[:3], (title, page)
    # the headings inside a section are its children
    assert any(level == 1 and title == "Table play" for level, title, _ in entries)


def test_contents_links(report, texts):
    """The title page lists every section with its page; each line links to it."""
    rep, _, reader = report
    first = reader.pages[0]
    assert "Contents" in texts[0]
    targets = []
    for annot in first.get("/Annots", []):
        a = annot.get_object()
        if a.get("/Subtype") != "/Link":
            continue
        dest = a.get("/Dest")
        if dest is None:
            dest = a["/A"]["/D"]
        if isinstance(dest, str):  # a named destination
            dest = reader.named_destinations[dest]
            targets.append(reader.get_destination_page_number(dest))
        else:
            targets.append(reader.get_page_number(dest[0].get_object()))
    starts = [page for level, _, page in _outline(reader) if level == 0][1:]
    assert sorted(set(targets)) == starts  # every section, nothing else
    lines = [ln.strip(" .") for ln in texts[0].splitlines()]
    for title, page in zip(_section_titles(rep)[1:], starts):
        assert title in lines, title
        assert any(re.fullmatch(rf"(\. )*\.? ?{page + 1}", ln.replace("  ", " ")) or ln.endswith(f" {page + 1}")
                   or ln == str(page + 1) for ln in lines), (title, page + 1)  # its page number, after dot leaders


def test_key_texts(texts):
    flat = _flat(" ".join(texts))
    order = [flat.index(t) for t in ["Cheat sheet: at the table", GLOSSARY_TITLE]
             + [TITLES[k] for k in STUDIES] + ["Appendix: method"]]
    assert order == sorted(order)
    for words in ("table play", "Table play", "Double dummy (DD)", "PIMC", "Perfect Information Monte Carlo",
                  "Kaiser count", "Settled, ?", "longest-strength", "Rule codes", "Method.", "What the numbers mean.",
                  "How high to bid", "When to bid no trump", "Rules of thumb", "Worked hands",
                  "The rule sheets' advice, tested"):
        assert words in flat, words
    card = _flat(texts[1])  # the table card: its count, its grid, its NT scoring, its rules of thumb
    assert "Count your hand" in card and "no trump scores double" in card and "Rules of thumb" in card
    assert "no trump scores double" in flat.split("When to bid no trump")[1]


def test_charts_are_vector(report):
    """Each chart is drawn as vector paths (marked /Figure); no page holds a
    raster image."""
    rep, _, reader = report

    def images(resources) -> int:
        n = 0
        xobjects = resources.get("/XObject") if resources else None
        for x in (xobjects or {}).values():
            x = x.get_object()
            if x.get("/Subtype") == "/Image":
                n += 1
            elif x.get("/Subtype") == "/Form":
                n += images(x.get("/Resources"))
        return n

    figures = 0
    for page in reader.pages:
        data = page.get_contents().get_data()
        marks = data.count(b"/Figure BMC")
        figures += marks
        assert images(page.get("/Resources")) == 0
        assert b"BI" not in re.findall(rb"\bBI\b", data)  # no inline image either
        if marks:
            body = data.split(b"/Figure BMC", 1)[1].split(b"EMC", 1)[0]
            assert len(re.findall(rb"\d [lc]\s", body)) > 50  # lines and curves: the chart itself
    assert figures == len(rep.charts()) >= 15


def test_same_report_same_bytes(report, tmp_path):
    rep, _, _ = report
    render_pdf(rep, tmp_path / "again.pdf")
    assert (tmp_path / "again.pdf").read_bytes() == (rep.out / "report.pdf").read_bytes()


def test_wide_tables_fit_the_page():
    """A table too wide for the page at the smallest type wraps its cells
    instead of running off the page; a long one repeats its header."""
    from reportlab.lib.units import inch

    from kaiser_sim.report.pdf_blocks import paragraph_styles, register_fonts, table_flowables

    register_fonts()
    wide = pd.DataFrame({f"a long column header {j}": [f"12.34 [10.00, 14.00] and more words {i}" for i in range(80)]
                         for j in range(9)})
    from reportlab.platypus import CondPageBreak, KeepTogether, LongTable

    def tables(flowables):
        out = []
        for f in flowables:
            if isinstance(f, KeepTogether):
                out += tables(f._content)
            elif isinstance(f, LongTable):
                out.append(f)
            elif isinstance(getattr(f, "table", None), LongTable):  # a table with its note (TableBlock)
                out.append(f.table)
        return out

    long = table_flowables(Table("wide", "A wide table", wide, "its note"), paragraph_styles(), BOX_W * inch)
    assert isinstance(long[0], CondPageBreak)  # a long table may split, once its caption and first rows fit
    table, = tables(long)
    assert sum(table._colWidths) <= BOX_W * inch + 0.01
    assert table.repeatRows == 1
    narrow = pd.DataFrame({"bid": ["6", "7"], "P(make) %": ["61.2 [59.6, 62.9]", "54.4 [52.7, 56.1]"]})
    short = table_flowables(Table("narrow", "", narrow), paragraph_styles(), BOX_W * inch)
    assert isinstance(short[0], KeepTogether)  # a short one is never split
    table, = tables(short)
    assert sum(table._colWidths) < BOX_W * inch / 2  # as wide as its contents, no wider


def test_report_json_pages(report):
    rep, doc, reader = report
    assert json.loads((rep.out / "report.json").read_text())["pages"] == len(reader.pages)


def test_charts_footers_legends_colours_axes(report):
    """Every chart names n, seed, rules and its measure; one that claims 95%
    intervals draws them; legends sit beside the axes, never over the data;
    a count band has one colour on every chart; bids, aces and points
    changes have whole-number ticks."""
    import matplotlib.collections as mcoll
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.container import ErrorbarContainer

    rep, _, _ = report
    colours: dict[str, set] = {}
    n = 0
    for key, out in rep.outputs.items():
        for name, fig in out.figures.items():
            n += 1
            where = f"{key}/{name}"
            ax = fig.axes[0]
            foot = " ".join(t.get_text() for t in fig.texts).replace("\n", " ")
            assert "n=" in foot and "seed=" in foot and "rules=" in foot, where
            # its measure, or that it solved nothing (the auction study's hand-only charts)
            assert "double dummy" in foot or "table play" in foot or "no solving (hands only)" in foot, where
            if "95% intervals" in foot:
                drawn = any(isinstance(c, ErrorbarContainer) for c in ax.containers) or any(
                    isinstance(c, mcoll.PolyCollection) for c in ax.collections) or any(
                    isinstance(p, mcoll.LineCollection) for p in ax.collections)
                assert drawn, f"{where} claims intervals it does not draw"
            else:
                assert "no intervals drawn" in foot, where
            legend = ax.get_legend()
            if legend is not None:
                renderer = FigureCanvasAgg(fig).get_renderer()  # the figure was closed after it was saved
                assert legend.get_window_extent(renderer).x0 >= ax.get_window_extent(renderer).x1, where
                for line in ax.get_lines():
                    if line.get_label() in ("<=4", "4.5-5", "5.5-6", "6.5-7", "7.5-8", "8.5-9", "9.5-10", "10.5+"):
                        colours.setdefault(line.get_label(), set()).add(tuple(line.get_color()))
            # type of 8 pt or more at print size (the chart scaled to the text width), text inside the axes aside
            # (the grid's cell labels are sized to their cells)
            scale = BOX_W / fig.get_figwidth()
            texts = [fig.texts, [ax.title, ax.xaxis.label, ax.yaxis.label], ax.get_xticklabels(), ax.get_yticklabels()]
            if legend is not None:
                texts += [legend.get_texts(), [legend.get_title()]]
            for t in (t for group in texts for t in group):
                if t.get_text().strip():
                    assert t.get_fontsize() * scale >= 8.0 - 1e-9, (where, t.get_text()[:40], t.get_fontsize())
            label = ax.get_xlabel()
            if label.startswith(("bid", "aces", "lead value", "points", "your side's points")) and name != "expected_by_bid":
                ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
                assert ticks and all(float(t).is_integer() for t in ticks), (where, ticks)
    assert n >= len(rep.charts())
    assert len(colours) >= 4 and all(len(c) == 1 for c in colours.values()), colours


def test_first_page_says_preview_and_names_the_edition(texts):
    from kaiser_sim.report import EDITION_PATH

    first = _flat(texts[0])
    assert "Preview: a quick run of 200 deals" in first and EDITION_PATH in first
    assert "The questions" in first and "Contents" in first  # the title page still holds it all


def test_the_editions_title_page_is_one_page(report, tmp_path):
    """The edition's title page (its box, the recipe, a million deals) is
    one page with its contents and its last line: the page after it is the
    first section's (the edition of 2026-12-03 spilt its last line onto an
    otherwise empty page 2)."""
    import dataclasses

    from kaiser_sim.report.sections import title_section

    rep = report[0]
    inputs = dict(rep.inputs, edition=True, deals=1_000_000, seed=1, max_resolve=100_000)
    keys = [k for k in STUDIES if k in rep.outputs]
    edition = dataclasses.replace(rep, inputs=inputs, sections=[title_section(inputs, keys)] + rep.sections[1:])
    path = tmp_path / "edition.pdf"
    mp = pytest.MonkeyPatch()
    mp.setenv("SOURCE_DATE_EPOCH", EPOCH)
    try:
        render_pdf(edition, path)
    finally:
        mp.undo()
    pages = [p.extract_text() for p in pypdf.PdfReader(str(path)).pages]
    first, second = _flat(pages[0]), _flat(pages[1])
    assert "This is the edition of the report: 1,000,000 deals" in first and "Contents" in first
    assert f"kaiser-sim {inputs['version']}, {inputs['date']}" in first
    body = re.sub(r"^kaiser-sim .*? page 2 ", "", second)  # the footer comes first in the page's text
    assert body.startswith(rep.sections[1].title), second[:120]


def test_a_header_breaks_between_words_only(tmp_path):
    """A column as wide as its header's longest word keeps the word whole
    (the edition's call chart printed "1st, o / pens": the width lost its
    last bit to rounding)."""
    from reportlab.lib.units import inch
    from reportlab.platypus import SimpleDocTemplate

    from kaiser_sim.report.pdf_blocks import paragraph_styles, register_fonts, table_flowables

    register_fonts()
    # the edition's grid: too wide for every header on one line, so headers break between their words
    df = pd.DataFrame({"count": ["<=4", "8.5-9"], "1st, opens": ["pass", "NT +1"], "2nd, opens": ["plain ?", "NT +1"],
                       "2nd, after an opponent's bid": ["pass", "pass"], "3rd, opens": ["pass", "NT"],
                       "3rd, after partner's bid": ["pass", "pass"], "3rd, after an opponent's bid": ["pass", "pass"],
                       "4th, opens": ["plain", "NT"], "4th, dealer facing a bid": ["pass", "match ?"]})
    doc = SimpleDocTemplate(str(tmp_path / "t.pdf"), pagesize=(8.5 * inch, 11 * inch))
    doc.build(table_flowables(Table("t", "a grid", df), paragraph_styles(), BOX_W * inch))
    words = pypdf.PdfReader(str(tmp_path / "t.pdf")).pages[0].extract_text().split()
    assert words.count("opens") == 4 and "pens" not in words and "opponent's" in words, words


def test_a_split_table_keeps_rows_with_its_note():
    """A long table split across pages leaves at least _END_ROWS rows on
    each side of the break, and its note, never split, under its last rows."""
    from reportlab.lib.units import inch

    from kaiser_sim.report.pdf_blocks import _END_ROWS, paragraph_styles, register_fonts, table_flowables

    register_fonts()
    df = pd.DataFrame({"row": [str(i) for i in range(40)], "value": ["1.0 [0.5, 1.5]"] * 40})
    note = "a note long enough to take two lines of small type under the table: " * 3
    parts = table_flowables(Table("t", "a long table", df, note), paragraph_styles(), BOX_W * inch)
    block = parts[-1]
    w = BOX_W * inch
    _, total = block.wrap(w, 1e6)
    body = lambda t: len(t._cellvalues) - t.repeatRows  # noqa: E731
    for room in range(20, int(total) + 40, 7):
        pieces = block.split(w, room)
        if not pieces or pieces == [block]:
            assert pieces == [block] or room < total  # whole, or moved whole to the next page
            continue
        first, rest = pieces
        assert body(first) >= _END_ROWS and body(rest.table) >= _END_ROWS, room
        assert first.wrap(w, 1e6)[1] <= room and rest.notes == block.notes
        assert body(first) + body(rest.table) == len(df)


def test_chart_footers_are_legible_in_print():
    """A chart's footer prints at 8 pt or more once the chart is scaled to
    the page's text width."""
    from kaiser_sim.studies.common import new_figure

    fig, _ = new_figure("t", "x", "y", "n=4,000 deals, seed=1, rules=standard; double dummy; 95% intervals, "
                        "clustered by deal")
    foot = [t for t in fig.texts if "n=4,000" in t.get_text()]
    assert len(foot) == 1
    printed = foot[0].get_fontsize() * BOX_W / fig.get_figwidth()
    assert printed >= 8.0
    assert fig.subplotpars.bottom * fig.get_figheight() >= 0.6 + len(foot[0].get_text().splitlines()) * 0.12


def test_no_page_holds_only_a_closing_note(texts):
    """A section's closing note ("All tables of this study ...") goes with the
    table or chart before it: no page starts with it (a near-empty page), and
    in the story it is one of the last table's notes, not a flowable of its own."""
    from reportlab.lib.units import inch
    from reportlab.platypus import KeepTogether, Paragraph
    from reportlab.platypus.tableofcontents import TableOfContents

    from kaiser_sim.report import Report, Section
    from kaiser_sim.report.pdf import _story
    from kaiser_sim.report.pdf_blocks import paragraph_styles, register_fonts
    from kaiser_sim.studies.blocks import Text

    for i, text in enumerate(texts):
        assert not text.lstrip().startswith("All tables of this study"), f"page {i + 1}: {text[:120]!r}"
    register_fonts()
    df = pd.DataFrame({"row": [str(i) for i in range(60)], "value": ["1.0 [0.5, 1.5]"] * 60})
    closing = "All tables of this study, with every column: x/*.csv."
    sections = [Section("title", "T", [Text("a", "note")]),
                Section("x", "X", [Text("words", "body"), Table("t", "a long table", df, "its note"),
                                   Text(closing, "note")])]
    story = _story(Report("T", {}, sections, {}, Path(".")), paragraph_styles(), TableOfContents(), None,
                   BOX_W * inch, 9.5)

    def flat(fs):
        for f in fs:
            yield f
            yield from flat(getattr(f, "_content", []) if isinstance(f, KeepTogether) else [])

    free = [f for f in flat(story) if isinstance(f, Paragraph) and closing in f.getPlainText()]
    assert not free, "the closing note is a flowable of its own"
    kept = [f for f in flat(story) if getattr(f, "notes", None)]
    assert kept and closing in kept[-1].notes[-1].getPlainText()


def test_the_table_card_fits_its_page_at_full_size(report):
    """The cheat sheet's first page (the table card) is laid out without shrinking: its grid and count at
    10 pt or more, every other line at 8 pt or more (issue 43)."""
    from reportlab.lib.units import inch
    from reportlab.platypus import KeepInFrame
    from reportlab.platypus.tableofcontents import TableOfContents

    from kaiser_sim.report import Report
    from kaiser_sim.report.pdf import _story
    from kaiser_sim.report.pdf_blocks import BOX_H, chart_class, paragraph_styles, register_fonts
    from kaiser_sim.studies.blocks import Text

    rep = report[0]
    card = next(s for s in rep.sections if s.title == "Cheat sheet: at the table")
    grid = next(b for b in card.blocks if isinstance(b, Table))
    assert grid.size >= 10 and next(b for b in card.blocks if isinstance(b, Text)).style == "box"
    st = paragraph_styles()
    assert min(st[b.style].fontSize for b in card.blocks if isinstance(b, Text)) >= 8 and st["box"].fontSize >= 10
    register_fonts()
    title = rep.sections[0]
    story = _story(Report(rep.title, rep.inputs, [title, card], {}, rep.out), st, TableOfContents(), chart_class(),
                   BOX_W * inch, BOX_H * inch)
    import io

    from reportlab.pdfgen.canvas import Canvas

    frame = next(f for f in story if isinstance(f, KeepInFrame))
    frame.canv = Canvas(io.BytesIO())
    frame.wrap(BOX_W * inch, BOX_H * inch - 30)  # less the section title
    assert getattr(frame, "_scale", 1.0) == 1.0

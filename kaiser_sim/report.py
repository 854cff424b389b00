"""The printed report: every study on one shared results set, as PDF and Markdown.

:func:`build_report` runs the chosen studies on one results frame (simulated
once, or read with ``--from``) and builds the content once, as a list of
:class:`Section` objects holding text, tables and charts.  The report knows
no study by name: each study module (:mod:`kaiser_sim.studies`) carries its
title, question, method and the section it contributes (``section(tables)``,
built from the blocks of :mod:`kaiser_sim.studies.blocks`), and those that
have lines for the cheat sheet a ``cheat_sheet(tables)``; the studies come in
the registry's order.  Two renderers
turn that list into files: :func:`render_markdown` (``report.md``, charts
linked as SVG, tables as Markdown) and :func:`render_pdf` (``report.pdf``,
pages laid out with matplotlib's ``PdfPages``, A4 with a 7.0 x 9.5 in
content box so that it prints on Letter too).  :func:`write_report` writes
both, each study's own outputs (CSV, Markdown, PNG, SVG, ``study.json``
under ``DIR/<study>/``), the report tables as CSV (``DIR/tables/``) and
``report.json`` with the inputs.

Report tables are the study tables cut down for reading: every estimate is
printed with its 95% interval as ``62.1 [58.3, 66.0]``.  They are written as
CSV exactly as printed; the full numeric tables are the study CSVs.
"""

from __future__ import annotations

import datetime as _dt
import inspect
import json
import os
import re
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from . import __version__
from .rules import Rules
from .studies import PLAY_STUDIES, STUDIES, StudyError, get_study
from .studies.blocks import Chart, Table, Text, ci, count, frame, num, pct, signed_ci  # noqa: F401 (re-exported)
from .studies.runner import definition_for, run_study, to_markdown

#: default size of ``kaiser-sim report`` (chosen to finish well within 10
#: minutes on a 2-core machine; see README)
DEFAULT_DEALS = 4000
DEFAULT_SEED = 1
#: deals re-solved by the studies that re-solve deals (a ``max_resolve``
#: parameter: the 5H and 3S) in the report (their own default is larger)
DEFAULT_MAX_RESOLVE = 1000
#: deals the opt-in play studies (``PLAY_STUDIES``) play out with PIMC players
#: (the first ones of the report's deals; about 2-4 minutes on 2 cores at K = 20)
DEFAULT_PLAY_DEALS = 1000
#: fewer deals leave the studies' breakdowns empty
MIN_DEALS = 100

#: page geometry (inches): A4 portrait with a content box that also fits Letter
PAGE_W, PAGE_H = 8.27, 11.69
BOX_W, BOX_H = 7.0, 9.5
LEFT = (PAGE_W - BOX_W) / 2
TOP = (PAGE_H - BOX_H) / 2
CHART_DPI = 150


class ReportError(StudyError):
    """Bad report input: an unknown study, unreadable results."""


# --- content ----------------------------------------------------------------------------------


@dataclass
class Section:
    key: str
    title: str
    blocks: list = field(default_factory=list)  # Text, Table, Chart (kaiser_sim.studies.blocks)
    one_page: bool = False  # the PDF fits it on one page (the largest type that fits)


@dataclass
class Report:
    title: str
    inputs: dict
    sections: list
    outputs: dict  # study -> StudyOutput
    out: Path

    def tables(self) -> list[Table]:
        return [b for s in self.sections for b in s.blocks if isinstance(b, Table)]

    def charts(self) -> list[Chart]:
        return [b for s in self.sections for b in s.blocks if isinstance(b, Chart)]


# --- study sections ---------------------------------------------------------------------------


def study_section(key: str, output) -> Section:
    """One study's section: its question, method, what the numbers mean,
    charts and tables (the study module's ``TITLE``, ``QUESTION``, ``METHOD``
    and ``section(tables)``)."""
    study = get_study(key)
    blocks, meaning, charts = study.section(output.tables)
    sec = Section(key, study.TITLE)
    sec.blocks.append(Text(study.QUESTION, "heading"))
    sec.blocks.append(Text("Method. " + study.METHOD))
    if meaning:
        sec.blocks.append(Text("What the numbers mean. " + " ".join(meaning)))
    n = output.inputs['n']  # the deals the study used (a play study: the first ones of the run)
    sample_note = getattr(study, "sample_note", None)  # a study that re-solves only the first deals
    resolved = sample_note(output.tables) if sample_note is not None else ""
    sec.blocks.append(Text(f"n = {n:,} deals, seed {output.inputs['seed']};{resolved} every estimate is "
                           "followed by its 95% interval in square brackets, clustered by deal.", "note"))
    for name in charts:
        if name in output.figures:
            sec.blocks.append(Chart(f"{key}/{name}", name.replace("_", " ")))
    sec.blocks += blocks
    sec.blocks.append(Text(f"All tables of this study, with every column: {key}/*.csv.", "note"))
    return sec


# --- the cheat sheet --------------------------------------------------------------------------


def cheat_sheet(outputs: dict) -> Section | None:
    """One page at the table: the lines the studies in ``outputs`` contribute
    (each study's ``cheat_sheet(tables)``, in the order of its
    ``CHEAT_SHEET_ORDER``); None when none contributes any."""
    studies = [(get_study(key), o) for key, o in outputs.items()]
    studies = sorted((s for s in studies if callable(getattr(s[0], "cheat_sheet", None))),
                     key=lambda s: getattr(s[0], "CHEAT_SHEET_ORDER", 0))
    blocks = [b for study, o in studies for b in study.cheat_sheet(o.tables)]
    if not blocks:
        return None
    sec = Section("cheat-sheet", "Cheat sheet: at the table", blocks, one_page=True)
    sec.blocks.append(Text("Double dummy (all cards visible, best play) from random deals; brackets: 95% intervals. "
                           "Scores count the declaring side only.", "note"))
    return sec


def title_section(inputs: dict, keys: list[str]) -> Section:
    sec = Section("title", "What the cards are worth in Kaiser")
    sec.blocks.append(Text("A Monte Carlo report by kaiser-sim", "heading"))
    sec.blocks.append(Text("The questions", "heading"))
    for k in keys:
        sec.blocks.append(Text(get_study(k).QUESTION, "bullet"))
    r = inputs["rules"]
    sec.blocks.append(Text("The run", "heading"))
    for line in (f"Rules: {r.get('label', '?')} (game to {r.get('target', '?')}, minimum bid {r.get('min_bid', '?')}, "
                 f"NT scoring {r.get('nt_scoring', '?')})",
                 f"Deals: {inputs['deals']:,}, each solved double dummy from every seat in every strain",
                 f"Seed: {inputs['seed']}",
                 f"Re-solved deals for the 5♥ and 3♠: up to {inputs['max_resolve']:,}",
                 f"Results: {inputs['results']}",
                 f"kaiser-sim {inputs['version']}, {inputs['date']}"):
        sec.blocks.append(Text(line, "bullet"))
    sec.blocks.append(Text("Files: report.md (the same content in Markdown), tables/*.csv (every table as printed), "
                           "<study>/ (each study's full tables as CSV and Markdown, charts as PNG and SVG), "
                           "report.json (the inputs).", "note"))
    return sec


def table_play_blocks(rules) -> list:
    """The appendix's account of the table-play model: what it is, where it
    comes from, its held-out check and its sensitivity (stored with the
    model when it was built)."""
    from .studies.common import table_play_model

    model, why = table_play_model(rules)
    blocks = [Text("Table play", "heading")]
    if model is None:
        blocks.append(Text(f"This report's numbers are double dummy only: {why}."))
        return blocks
    p = model.provenance
    blocks.append(Text(
        "Double dummy is not what a table scores. The headline numbers of this report are in table play: each "
        "hand's double-dummy points are turned into the distribution of points its side takes when the deal is "
        "played out by four PIMC players, who see only their own hand and the cards played. At each turn a PIMC "
        f"player deals the cards it cannot see {p.get('samples')} times, consistently with what it knows (its hand, "
        "the cards played, the suits others have shown out of), scores each of its cards double dummy on every "
        "layout and plays the best on average. The model gives, for trump and for no-trump contracts and each "
        "double-dummy value, the distribution of the played points; more double-dummy points never give fewer "
        "played points. It was fitted on "
        f"{p.get('deals', 0):,} deals played out (seed {p.get('seed')}; {p.get('contracts')}); kaiser-sim "
        f"{p.get('version')}; rebuild: {p.get('rebuild', 'kaiser-sim table-play-model')}. Intervals of table-play "
        "estimates count both the sampling of this report's deals and the model's own error (the model refitted on "
        "bootstrap resamples of the contracts it was fitted on), added in quadrature."))
    blocks.append(Text(
        "What PIMC is not: it cannot signal or read signals, does not plan to gather information, and once it has "
        "drawn a layout plays as if it knew it (it may count on a finesse in one layout and a drop in another). It "
        "is a model of competent play without conventions, not of people: strong partnerships may take more, weak "
        "tables less. Double dummy, shown beside it, is the upper reference."))
    rows = model.validation.get("heldout", [])
    if rows:
        ho = p.get("holdout", {})
        inside = [r for r in rows if r["n"] >= 100]
        k = sum(r["inside"] for r in inside)
        by_bid = [{"contracts": r["kind"], "bid": str(r["bid"]), "n": count(r["n"]),
                   "played (% or points)": (pct(r["observed"], r["lo"], r["hi"]) if r["bid"] != "mean points"
                                            else ci(r["observed"], r["lo"], r["hi"], 2)),
                   "model": num(100 * r["predicted"], 1) if r["bid"] != "mean points" else num(r["predicted"], 2),
                   "double dummy": num(100 * r["dd"], 1) if r["bid"] != "mean points" else num(r["dd"], 2),
                   "inside": "yes" if r["inside"] else "NO"}
                  for r in rows if r["count_band"] == "all" and r["kind"] in ("trump", "NT")]
        blocks.append(Table("table-play-check", f"The model against {ho.get('deals', 0):,} further deals played out "
                            f"(seed {ho.get('seed')}), by bid", frame(by_bid),
                            "played: share of contracts made (mean points) in the held-out play, Wilson / normal 95%; "
                            "model: its prediction from the contracts' double-dummy points; inside: the prediction "
                            f"lies in the played interval. Over every check with n >= 100 (also by count band): {k} "
                            f"of {len(inside)} inside"))
    sens = model.validation.get("sensitivity", [])
    if sens:
        srows = [{"players": r["players"], "n": count(r["n"]), "mean points": num(r["mean_points"], 2),
                  "minus the model's players": ci(r["minus_model_players"], r["lo"], r["hi"], 2),
                  "makes 8 %": num(100 * r["make_8"], 1), "makes 10 %": num(100 * r["make_10"], 1)} for r in sens]
        blocks.append(Table("table-play-sensitivity", "How the played points depend on K and on the players "
                            "(the same held-out deals)", frame(srows),
                            "paired on the same deals and contracts; one contract a deal"))
    return blocks


def appendix_section(inputs: dict, rules=None) -> Section:
    sec = Section("appendix", "Appendix: method")
    paras = [
        ("Double dummy", "Every deal is solved with all four hands visible and best play by both sides (an exact "
         "alpha-beta search in Kaiser points: 1 a trick, +5 for the trick with the 5♥, −3 for the trick with the "
         "3♠). The declarer leads the first trick."),
        ("Its known bias", "Real players cannot see the other hands. Double dummy favours the side that benefits "
         "from perfect guessing: finesses always work and the defence always finds the killing lead, so the "
         "numbers are what the cards are worth, not what a table will score. Declarer's contracts tend to be "
         "overestimated with split honours and underestimated when the defence has to guess. Compare hands and "
         "bids with each other rather than reading a single number as a promise."),
        ("Sample sizes and intervals", f"{inputs['deals']:,} random deals (seed {inputs['seed']}), each giving four "
         "declarer hands. The rows of one deal (its four declarer hands; the twenty leader and strain solves of a "
         "re-solved deal) are not independent, so every interval treats the deal as the unit: means carry a "
         "cluster-robust 95% interval (the spread of deal totals), proportions a Wilson 95% interval at the "
         "effective sample size this gives; R² a bootstrap over the deals it is scored on (never those the "
         "Kaiser count was fitted on, seed 1's first 100,000: a seed-1 report scores the counts on 2,000 deals "
         "of seed 2). The package's tests check that these "
         "intervals cover a known truth 93-97% of the time. The 5♥ and 3♠ studies re-solve up to "
         f"{inputs['max_resolve']:,} deals and report their own n. Cells with fewer than 30 hands are left out "
         "(the bidding chart needs 15 in each half). "
         "A difference is called one only when its interval excludes zero."),
        ("Reproducing", f"kaiser-sim report --deals {inputs['deals']} --seed {inputs['seed']} --rules "
         f"{inputs['rules_preset']} --max-resolve {inputs['max_resolve']} (with the same --rule options, if any) "
         "gives the same numbers on any machine. For a larger run: kaiser-sim simulate --deals 100000 --out "
         "runs/big, then kaiser-sim report --from runs/big."),
    ]
    for head, text in paras:
        sec.blocks.append(Text(head, "heading"))
        sec.blocks.append(Text(text))
    if rules is not None:
        sec.blocks += table_play_blocks(rules)
    return sec


# --- building ---------------------------------------------------------------------------------


def parse_studies(text) -> list[str]:
    """``"a,b"`` -> study keys in the report's order; :class:`ReportError` on an unknown name.

    The default is every study of ``STUDIES``; the play studies
    (``PLAY_STUDIES``) join only when named."""
    if text is None or (isinstance(text, str) and not text.strip()):
        return list(STUDIES)
    names = [t.strip().lower().replace("_", "-") for t in (text.split(",") if isinstance(text, str) else text)]
    names = [n for n in names if n]
    known = list(STUDIES) + list(PLAY_STUDIES)
    bad = [n for n in names if n not in known]
    if bad or not names:
        raise ReportError(f"unknown study {', '.join(repr(b) for b in bad) or '(none given)'}; "
                          f"studies: {', '.join(known)}")
    return [k for k in known if k in names]


def report_date() -> _dt.datetime:
    """``SOURCE_DATE_EPOCH`` if set (reproducible builds), else now (UTC)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.strip().isdigit():
        return _dt.datetime.fromtimestamp(int(epoch), tz=_dt.timezone.utc)
    return _dt.datetime.now(tz=_dt.timezone.utc).replace(microsecond=0)


def build_report(results: pd.DataFrame, rules: Rules, out, studies=None, max_resolve: int = DEFAULT_MAX_RESOLVE,
                 source: str = "", log=None, seconds_results: float = 0.0, rules_preset: str = "standard") -> Report:
    """Run ``studies`` (default all) on ``results`` and build the report's content.

    Each study writes its own outputs into ``out/<study>/``; ``log`` (a
    callable taking a line) reports progress.
    """
    log = log or (lambda line: None)
    keys = parse_studies(studies)
    if len(results) < MIN_DEALS:
        raise ReportError(f"the report needs at least {MIN_DEALS} deals; the results hold {len(results)}")
    out = Path(out)
    meta = results.attrs.get("kaiser_sim", {}) or {}
    outputs, seconds = {}, {"results": round(seconds_results, 1)}
    for i, key in enumerate(keys, 1):
        t0 = time.time()
        log(f"study {i}/{len(keys)}: {key} ...")
        d = definition_for(key)
        if "max_resolve" in inspect.signature(get_study(key).run).parameters:
            d.params["max_resolve"] = int(max_resolve)
        if key in PLAY_STUDIES:
            d.params["max_deals"] = min(len(results), DEFAULT_PLAY_DEALS)
        outputs[key] = run_study(d, out / key, results=results, rules=rules)
        seconds[key] = round(time.time() - t0, 1)
        log(f"study {i}/{len(keys)}: {key} done in {seconds[key]:.0f}s")
    date = report_date()
    inputs = {"schema": "kaiser-sim/report/1", "version": __version__, "date": date.strftime("%Y-%m-%d %H:%M UTC"),
              "deals": int(len(results)), "seed": meta.get("seed"), "rules": rules.to_dict(),
              "rules_preset": rules_preset, "studies": keys, "max_resolve": int(max_resolve),
              "results": source, "params": {k: o.inputs["params"] for k, o in outputs.items()}, "seconds": seconds}
    cheat = cheat_sheet(outputs)  # None when no study of the report has lines for it
    sections = [title_section(inputs, keys)] + ([cheat] if cheat is not None else [])
    sections += [study_section(k, outputs[k]) for k in keys]
    sections.append(appendix_section(inputs, rules))
    return Report("What the cards are worth in Kaiser", inputs, sections, outputs, out)


# --- Markdown ---------------------------------------------------------------------------------


def render_markdown(report: Report) -> str:
    lines = [f"# {report.title}", ""]
    for si, sec in enumerate(report.sections):
        if si > 0:
            lines += [f"## {sec.title}", ""]
        for b in sec.blocks:
            if isinstance(b, Text):
                if b.style == "heading":
                    lines += ["", f"### {b.text}", ""]
                elif b.style == "bullet":
                    lines += [f"- {b.text}"]
                elif b.style == "note":
                    lines += ["", f"_{b.text}_", ""]
                else:
                    lines += ["", b.text, ""]
            elif isinstance(b, Table):
                if b.title:
                    lines += ["", f"**{b.title}**", ""]
                lines += ["", to_markdown(b.df).rstrip("\n"), ""]
                note = b.note.rstrip(". ")
                lines += [f"_{note + ('; ' if note else '')}CSV: [tables/{b.name}.csv](tables/{b.name}.csv)_", ""]
            elif isinstance(b, Chart):
                lines += ["", f"![{b.title}]({b.path}.svg)", "", f"_PNG: [{b.path}.png]({b.path}.png)_", ""]
        if si == 0:
            lines += ["", "## Contents", ""] + [f"- {s.title}" for s in report.sections[1:]] + [""]
    text = "\n".join(lines)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.strip() + "\n"


# --- PDF --------------------------------------------------------------------------------------

_STYLE = {  # font size (pt), weight, space before (in)
    "title": (22, "bold", 0.0),
    "section": (15, "bold", 0.0),
    "heading": (11, "bold", 0.16),
    "body": (9.5, "normal", 0.08),
    "bullet": (9.5, "normal", 0.03),
    "note": (8, "normal", 0.06),
    "caption": (8.5, "bold", 0.12),
}
_SANS_EM = 0.56  # average advance of DejaVu Sans, in em (generous: lines never overrun)
_MONO_EM = 0.602  # DejaVu Sans Mono advance, in em
_NUMBER = re.compile(r"^(-?[\d,.]+\*?( \[[-\d., ]+\])?|-|·)$")


class _Pages:
    """Lay out text, monospaced tables and images top to bottom on A4 pages."""

    def __init__(self, pdf, footer: str, scale: float = 1.0):
        self.pdf, self.footer, self.scale = pdf, footer, scale  # pdf None: a dry run (measure only)
        self.fig = None
        self.page = 0
        self.y = 0.0  # inches below the top of the content box

    def new_page(self):
        import matplotlib.pyplot as plt

        self.close_page()
        self.fig = plt.figure(figsize=(PAGE_W, PAGE_H))
        self.page += 1
        self.y = 0.0

    def close_page(self):
        import matplotlib.pyplot as plt

        if self.fig is not None:
            self._text(BOX_W, BOX_H + 0.15, f"{self.footer}    page {self.page}", 7, ha="right",
                       color="0.4")
            if self.pdf is not None:
                self.pdf.savefig(self.fig)
            plt.close(self.fig)
            self.fig = None

    @property
    def left(self) -> float:
        return BOX_H - self.y

    def _text(self, x, y, s, size, ha="left", family="DejaVu Sans", weight="normal", color="black"):
        self.fig.text((LEFT + x) / PAGE_W, 1 - (TOP + y) / PAGE_H, s, fontsize=size, ha=ha, va="top",
                      family=family, weight=weight, color=color)

    def need(self, h: float):
        if self.fig is None or self.y + h > BOX_H:
            self.new_page()

    def para(self, text: str, style: str = "body"):
        size, weight, before = _STYLE[style]
        size *= self.scale
        before *= self.scale
        indent = 0.2 if style == "bullet" else 0.0
        width = int((BOX_W - indent) * 72 / (_SANS_EM * size))
        lines = textwrap.wrap(text, width) or [""]
        lh = size * 1.32 / 72
        self.need(before + lh * min(len(lines), 2))
        self.y += before if self.y > 0 else 0
        for i, line in enumerate(lines):
            self.need(lh)
            if style == "bullet" and i == 0:
                self._text(0.05, self.y, "•", size)
            self._text(indent, self.y, line, size, weight=weight,
                       color="0.3" if style == "note" else "black")
            self.y += lh

    def table(self, title: str, df: pd.DataFrame, note: str = "", max_size: float = 8.5):
        cols = [str(c) for c in df.columns]
        body = [[str(v) for v in row] for row in df.itertuples(index=False)]
        widths = [max([len(c)] + [len(r[j]) for r in body]) for j, c in enumerate(cols)]
        line_len = sum(widths) + 2 * (len(widths) - 1)
        size = min(max_size * self.scale, BOX_W * 72 / (_MONO_EM * max(line_len, 1)))
        size = max(size, 4.5)

        numeric = [all(_NUMBER.match(r[j]) for r in body) for j in range(len(cols))]

        def fmt(cells):  # numbers to the right, words to the left
            return "  ".join(c.rjust(w) if numeric[j] else c.ljust(w) for j, (c, w) in enumerate(zip(cells, widths)))

        header = fmt(cols)
        rule = "─" * len(header)
        lh = size * 1.3 / 72
        tsize = _STYLE["caption"][0] * self.scale
        head_h = (tsize * 1.4 / 72 if title else 0) + 2 * lh
        whole = 0.12 + head_h + (len(body) * 1.2 * size / 72 + 0.3 * lh) + 0.3
        # a table that fits on a page is not split; a longer one starts with at least 4 rows
        self.need(whole if whole <= BOX_H else 0.12 + head_h + lh * min(len(body), 4))
        self.y += 0.12 if self.y > 0 else 0
        if title:
            self._text(0, self.y, title, tsize, weight="bold")
            self.y += tsize * 1.4 / 72
        i = 0
        first = True
        while i < len(body) or first:
            if not first:
                self.new_page()
                if title:
                    self._text(0, self.y, f"{title} (continued)", tsize, weight="bold")
                    self.y += tsize * 1.4 / 72
            first = False
            self._text(0, self.y, header, size, family="DejaVu Sans Mono", weight="bold")
            self.y += lh
            self._text(0, self.y - 0.3 * lh, rule, size, family="DejaVu Sans Mono", color="0.5")
            self.y += 0.5 * lh
            rows = []
            while i < len(body) and self.y + lh * (len(rows) + 1) <= BOX_H:
                rows.append(fmt(body[i]))
                i += 1
            if rows:
                self._text(0, self.y, "\n".join(rows), size, family="DejaVu Sans Mono")
                # matplotlib's multi-line spacing is 1.2 x the font size
                self.y += len(rows) * size * 1.2 / 72 + 0.3 * lh
            if i >= len(body):
                break
        if note:
            self.para(note, "note")

    def image(self, path: Path, title: str, max_h: float = 6.2):
        import matplotlib.image as mpimg

        img = mpimg.imread(str(path))
        h_px, w_px = img.shape[:2]
        w = BOX_W
        h = w * h_px / w_px
        if h > max_h:
            h = max_h
            w = h * w_px / h_px
        room = BOX_H - self.y - 0.15
        if h > room >= 0.75 * h:  # a little smaller rather than a new page
            w, h = w * room / h, room
        self.need(h + 0.15)
        self.y += 0.1 if self.y > 0 else 0
        x0 = (BOX_W - w) / 2
        ax = self.fig.add_axes([(LEFT + x0) / PAGE_W, 1 - (TOP + self.y + h) / PAGE_H, w / PAGE_W, h / PAGE_H])
        ax.imshow(img, interpolation="antialiased")
        ax.set_axis_off()
        self.y += h + 0.05


def render_pdf(report: Report, path) -> int:
    """Write the report as a PDF; returns the number of pages."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.backends.backend_pdf import PdfPages

    inp = report.inputs
    footer = (f"kaiser-sim {inp['version']} · rules {inp['rules'].get('label', '?')} · {inp['deals']:,} deals · "
              f"seed {inp['seed']}")
    date = report_date()
    meta = {"Title": report.title, "Author": "kaiser-sim", "Subject": footer, "Creator": f"kaiser-sim {__version__}",
            "CreationDate": date, "ModDate": date}
    with PdfPages(str(path), metadata=meta) as pdf:
        dry = _Pages(None, footer)  # first pass: where each section starts
        starts = []
        for si, sec in enumerate(report.sections):
            if sec.one_page:
                dry.page += 1
                starts.append(dry.page)
                continue
            starts.append(dry.page + 1)
            _layout(dry, report, si, sec)
        contents = [Text("Contents", "heading")] + [Text(f"{s.title} ... page {p}", "bullet")
                                                    for s, p in zip(report.sections[1:], starts[1:])]
        pages = _Pages(pdf, footer)
        for si, sec in enumerate(report.sections):
            if si == 0:
                sec = Section(sec.key, sec.title, sec.blocks[:-1] + contents + sec.blocks[-1:], sec.one_page)
            if sec.one_page:  # the largest type that fits
                pages.scale = next((s for s in (1.0, 0.93, 0.86, 0.8, 0.74, 0.68)
                                    if _layout(_Pages(None, footer, s), report, si, sec) == 1), 0.62)
            _layout(pages, report, si, sec)
            pages.scale = 1.0
        pages.close_page()
        n = pages.page
    return n


def _layout(pages: _Pages, report: Report, si: int, sec: Section) -> int:
    """Lay out one section from a new page; returns the pages it took."""
    pages.new_page()
    start = pages.page
    if si == 0:
        pages.y = 1.2
        pages.para(report.title, "title")
        pages.y += 0.1
    else:
        pages.para(sec.title, "section")
        pages.y += 0.05
    for b in sec.blocks:
        if isinstance(b, Text):
            pages.para(b.text, b.style)
        elif isinstance(b, Table):
            pages.table(b.title, b.df, b.note, b.size)
        elif isinstance(b, Chart):
            pages.image(report.out / f"{b.path}.png", b.title)
    n = pages.page - start + 1
    if pages.pdf is None:
        pages.close_page()
    return n


# --- writing ----------------------------------------------------------------------------------


def write_report(report: Report) -> dict:
    """Write report.md, report.pdf, tables/*.csv and report.json into ``report.out``."""
    out = report.out
    (out / "tables").mkdir(parents=True, exist_ok=True)
    files = []
    for t in report.tables():
        t.df.to_csv(out / "tables" / f"{t.name}.csv", index=False)
        files.append(f"tables/{t.name}.csv")
    (out / "report.md").write_text(render_markdown(report), encoding="utf-8")
    pages = render_pdf(report, out / "report.pdf")
    files += ["report.md", "report.pdf", "report.json"]
    for key, o in report.outputs.items():
        files += [f"{key}/{f}" for f in o.files]
    doc = dict(report.inputs, pages=pages, files=files)
    (out / "report.json").write_text(json.dumps(doc, indent=2, default=str) + "\n", encoding="utf-8")
    return doc


def make_report(out=None, deals: int = DEFAULT_DEALS, seed: int = DEFAULT_SEED, rules: Rules | None = None,
                rules_preset: str = "standard", studies=None, from_path=None,
                max_resolve: int = DEFAULT_MAX_RESOLVE, workers: int | None = None, progress=None,
                log=None) -> tuple[Report, dict]:
    """``kaiser-sim report`` end to end: obtain results once (read ``from_path`` or
    simulate ``deals`` with ``seed`` into ``out/results``), run the studies,
    write everything.  Returns the report and the ``report.json`` document.

    ``out`` defaults to ``reports/<rules>-<deals>-<seed>``.

    Everything is checked before any work: the studies, the deal count, that
    ``from_path`` is a results dataset with points values, that ``out`` can be
    written.  The files are written into a hidden directory in ``out`` and
    moved into place at the end; a run that fails leaves nothing it created
    (:mod:`kaiser_sim.output_dir`).
    """
    from . import config
    from .output_dir import probe, removed_on_failure, staged
    from .rules import get_preset
    from .studies.runner import check_results_path, obtain_results, results_rules

    keys = parse_studies(studies)
    if from_path is None and deals < MIN_DEALS:
        raise ReportError(f"--deals {deals}: the report needs at least {MIN_DEALS} deals")
    if from_path is None and deals > config.STUDY_MAX_DEALS:
        raise ReportError(f"--deals {deals}: the report takes at most {config.STUDY_MAX_DEALS:,} deals")
    log = log or (lambda line: None)
    t0 = time.time()
    if from_path is not None:
        meta = check_results_path(from_path)  # readable, with points values: before anything is loaded
        if rules is None:
            rules = results_rules(meta, from_path) or get_preset(rules_preset)
        deals, seed = meta.get("deals", "x"), meta.get("seed", "x")
        if isinstance(deals, int) and deals < MIN_DEALS:
            raise ReportError(f"the report needs at least {MIN_DEALS} deals; {from_path} holds {deals}")
        source = str(from_path)
    else:
        rules = rules or get_preset(rules_preset)
    if out is None:
        label = re.sub(r"[^A-Za-z0-9_.=-]+", "_", rules.label).strip("_")[:80] or "rules"
        out = Path("reports") / f"{label}-{deals}-{seed}"
    out = Path(out)
    try:
        probe(out)
    except OSError as e:
        raise ReportError(f"--out {out}: cannot write there ({e.strerror or e})") from None
    with removed_on_failure(out, out / "results"):
        if from_path is not None:
            results = obtain_results(from_path)
        else:
            log(f"simulating {deals:,} deals (seed {seed}, rules {rules.label}) into {out / 'results'}")
            results = obtain_results(None, deals, seed, rules, out, progress, workers)
            source = str(out / "results")
        t1 = time.time()
        with staged(out, "the report") as stage:
            report = build_report(results, rules, stage, keys, max_resolve, source, log, t1 - t0, rules_preset)
            log("writing report.pdf and report.md ...")
            doc = write_report(report)
            doc["seconds"]["total"] = round(time.time() - t0, 1)
            doc["out"] = str(out)
            (stage / "report.json").write_text(json.dumps(doc, indent=2, default=str) + "\n", encoding="utf-8")
        report.out = out
    return report, doc


__all__ = ["make_report", "build_report", "write_report", "render_markdown", "render_pdf", "cheat_sheet",
           "parse_studies", "ReportError", "Report", "Section", "Table", "Chart", "Text",
           "DEFAULT_DEALS", "DEFAULT_SEED", "DEFAULT_MAX_RESOLVE", "MIN_DEALS"]

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
typeset with reportlab's platypus, the charts drawn from their SVG as
vector graphics, A4 with a 7.0 x 9.5 in content box so that it prints on
Letter too; a bookmark per section, a contents list that links).  :func:`write_report` writes
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
import io
import json
import os
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from . import __version__, config
from .output_dir import source_date_epoch
from .rules import Rules
from .studies import PLAY_STUDIES, STUDIES, StudyError, get_study
from .studies.blocks import Chart, Table, Text, ci, count, frame, num, pct, signed_ci  # noqa: F401 (re-exported)
from .studies.runner import definition_for, run_study, to_markdown

#: default size of ``kaiser-sim report`` (chosen to finish well within 10
#: minutes on a 2-core machine; see README)
DEFAULT_DEALS = 4000
DEFAULT_SEED = config.STUDY_SEED  # one home: kaiser_sim.config
#: deals re-solved by the studies that re-solve deals (a ``max_resolve``
#: parameter: the 5H and 3S) in the report (their own default is larger)
DEFAULT_MAX_RESOLVE = 1000
#: deals the opt-in play studies (``PLAY_STUDIES``) play out with PIMC players
#: (the first ones of the report's deals; about 2-4 minutes on 2 cores at K = 20)
DEFAULT_PLAY_DEALS = 1000
#: where the edition of the report lives in the repository (``make sample``, ``report --edition``);
#: a preview (``make report``, any run without ``--edition``) points to it on its first page
EDITION_PATH = "reports/sample/report.pdf"
#: fewer deals leave the studies' breakdowns empty
MIN_DEALS = config.REPORT_MIN_DEALS

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
    # the deals the study read (a play study: the first ones of the run); a study whose parts use fewer
    # (the 5H and 3S re-solve only the first deals) says which in its sample_note
    n = max([output.inputs['n']] + [int(t.attrs.get("run", {}).get("n", 0)) for t in output.tables.values()])
    sample_note = getattr(study, "sample_note", None)
    resolved = sample_note(output.tables) if sample_note is not None else ""
    unit = output.inputs.get("unit", "deals")  # a study that plays matches counts matches
    cluster = "deal" if unit == "deals" else "card set (the matches and hands played on the same cards)"
    sec.blocks.append(Text(f"n = {n:,} {unit}, seed {output.inputs['seed']};{resolved} every estimate is "
                           f"followed by its 95% interval in square brackets, clustered by {cluster}.", "note"))
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
    sec.blocks.append(Text("From random deals; each heading or line names its measure: table play (players who see "
                           "only their own hand) or double dummy (all cards visible, best play; about a bid higher). "
                           "Brackets: 95% intervals. Scores count the declaring side only. The words are defined in "
                           f"the next section, {GLOSSARY_TITLE}.", "note"))
    return sec


GLOSSARY_TITLE = "Words used in this report"


def glossary_section(inputs: dict) -> Section:
    """The terms of the report, defined once, in the order a reader meets
    them (after the cheat sheet, before the studies)."""
    from .studies.blocks import nt_scoring_words

    r = inputs.get("rules", {})
    nt = nt_scoring_words(r) or "NT scoring: as the rules say (see the title page)."
    made = "exactly the bid" if r.get("made_scores") == "bid" else "the points it took"
    terms = [
        ("Points", "each hand has 10 points to take: 1 for each of the 8 tricks, +5 for the trick that holds "
         "the 5♥ and −3 for the trick that holds the 3♠."),
        ("Declarer, declaring side", "the player who wins the auction names trump (or no trump) and leads to "
         "the first trick; the declaring side is the declarer and partner, the other two are the defenders. The "
         "studies take every seat of every deal in turn as the declarer, so a deal gives four declarer hands."),
        ("Partner, LHO, RHO", "your partner sits opposite you; your left-hand opponent (LHO) plays right after "
         "you, your right-hand opponent (RHO) right before you."),
        ("Bid, makes, hand score", f"a bid of b (from {r.get('min_bid', 6)} to 12) promises that the declaring "
         "side takes at least b points; it makes when it does. The hand score is what the declaring side scores "
         f"for the hand: {made} when the bid makes, minus the bid when it fails. The defenders' score is not "
         "counted in this report."),
        ("NT, no trump; strain", "a no-trump (NT) contract has no trump suit; a strain is a trump suit or no "
         f"trump. {nt}"),
        ("Trump by rule", "the trump suit the declarer names from its own hand alone, by a fixed rule. The rules "
         "compared: longest (the longest suit); strongest (the suit with the most high-card points, A 4 K 3 Q 2 "
         "J 1, ties by length); longest-strength (the longest suit, ties by high-card points: the rule of this "
         "report unless a table says otherwise). Suits still tied: the first of ♠ ♥ ♦ ♣."),
        ("Best in hindsight", "the strain chosen after seeing all four hands: an upper bound that no player can "
         "reach."),
        ("Kaiser count", "this report's measure of a hand's strength, counted with the trump named by rule: "
         "trump A 2, K 1, Q ½; side-suit A 1, K ½; 1 for each trump; 5♥ ½; 3♠ 1½; plus ½. It is fitted to "
         "the declaring side's points (see the hand evaluation section). A count band such as 6.5-7 groups the "
         "hands whose count lies in it; <=4: 4 or less; 10.5+: 10½ or more."),
        ("Double dummy (DD)", "the deal solved with all four hands visible and best play by both sides (an exact "
         "search). What the cards are worth, not what a table scores: the upper reference."),
        ("PIMC", "Perfect Information Monte Carlo: a computer player that sees only its own hand and the cards "
         "played. At each turn it deals the unseen cards many times, consistently with what it knows, solves "
         "each layout double dummy and plays the card that does best on average."),
        ("Table play", "what a table of players who see only their own hand takes: each hand's double-dummy "
         "points turned into the points four PIMC players take, by the table-play model (appendix). The "
         "headline numbers are in table play where the model holds for the rules; double dummy is shown "
         "beside them."),
        ("95% interval, clustered by deal", "the numbers in square brackets after an estimate: the range that "
         "covers the true value 95% of the time. The four declarer hands of a deal are not independent, so the "
         "intervals treat the deal as the unit. A difference counts only when its interval excludes 0."),
        ("Settled, ?, ≈, *", "in the what-to-bid chart and the cheat sheet, a limit is settled when, on a "
         "separate half of the deals, the 95% intervals show that bid paying and the next one up losing. An "
         "unsettled limit says why: '?' too few hands (a larger run may move it by a level); '≈' a bid on the "
         "boundary, scoring within ±0.05 points of 0 (no run settles it: either level is as good); '*' settled "
         "by the deals but not by the table-play model's own error. '·': too few hands for the cell; '-': no "
         "NT bid pays."),
        ("Like-for-like swap", "in the 5♥ and 3♠ studies, the special card exchanged with the next card up of "
         "its suit (the 8) in another hand, so that only its special status moves; worth = your side's points "
         "as dealt minus after the swap."),
        ("Kept, traded, depends on the play", "in part (c) of the 5♥ and 3♠ studies: the deal is solved again "
         "with the card counting 0, and the difference is the part of the card's own +5 or −3 that its side "
         "keeps. 'Whatever happens': the side ends with the card in every line of best play; 'the other side "
         "does': it never does; 'depends on the play': the card is traded against tricks, so the side keeps "
         "only part of its value."),
        ("Rule codes, §", "codes such as R1, B2, P1, S4, G1, K2 and marks such as §4 refer to the rules digest "
         "of kaiser-sim (docs/rules.md), written from five published rule descriptions of the game: each code "
         "names a rule that tables play differently and is an option of the rules (kaiser-sim rules PRESET "
         "prints them; for example S4 is the 45 rule, option bid_out), each § a section of the digest. The "
         "rules label in the footer names the preset; standard is what the sources agree on."),
    ]
    sec = Section("glossary", GLOSSARY_TITLE, one_page=True)
    sec.blocks += [Text(text, "term", term) for term, text in terms]
    return sec


def edition_words(inputs: dict) -> str:
    """The title page's first words on what this report is: the edition
    (``inputs["edition"]``, ``report --edition``) or a preview, which says
    where the edition is."""
    if inputs.get("edition"):
        return (f"This is the edition of the report: {inputs['deals']:,} deals, the run the repository keeps "
                f"({EDITION_PATH}), made by make sample (below).")
    return (f"Preview: a quick run of {inputs['deals']:,} deals. Its numbers, and the limits marked "
            f"'?' most of all, can move in a larger run. The edition, from a far larger run, is {EDITION_PATH} "
            "in the kaiser-sim repository (make sample).")


def made_by(inputs: dict) -> str:
    """The edition's recipe in words (its title page): the two commands, the
    Dask option and where each step's time is (not on the page: a page that
    printed the time of its own making could not be remade byte for byte)."""
    rules = inputs.get("rules", {}).get("label", "standard")
    rules_opt = "" if rules == "standard" else f" --rules {rules}"
    return (f"Made by: kaiser-sim simulate --deals {inputs['deals']} --seed {inputs['seed']} --mode points{rules_opt} "
            "--out runs/sample (add --scheduler tcp://HOST:8786 to spread it over machines with Dask), then "
            f"kaiser-sim report --from runs/sample --out reports/sample --max-resolve {inputs['max_resolve']} "
            "--edition; how long each step took on two cores: benchmarks/results/edition.md and the README")


def title_section(inputs: dict, keys: list[str]) -> Section:
    sec = Section("title", "What the cards are worth in Kaiser")
    sec.blocks.append(Text("A Monte Carlo report by kaiser-sim", "heading"))
    sec.blocks.append(Text(edition_words(inputs), "callout"))
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
                 made_by(inputs) if inputs.get("edition") else f"Results: {inputs['results']}",
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
    from .strategy.table_play import seeds_text
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
        f"{p.get('deals', 0):,} deals played out under {p.get('rules_label')} rules ({seeds_text(p)}; "
        f"{p.get('contracts')}"
        + ("; the declarer takes up the kitty and, seeing only its own cards, discards the cards with the best "
           f"mean double-dummy value over {p.get('discard_samples')} sampled layouts of the other hands"
           if p.get("discard_samples") else "")
        + "); kaiser-sim "
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
    epoch = source_date_epoch()
    if epoch is not None:
        return _dt.datetime.fromtimestamp(epoch, tz=_dt.timezone.utc)
    return _dt.datetime.now(tz=_dt.timezone.utc).replace(microsecond=0)


def build_report(results: pd.DataFrame, rules: Rules, out, studies=None, max_resolve: int = DEFAULT_MAX_RESOLVE,
                 source: str = "", log=None, seconds_results: float = 0.0, rules_preset: str = "standard",
                 edition: bool = False) -> Report:
    """Run ``studies`` (default all) on ``results`` and build the report's content.

    Each study writes its own outputs into ``out/<study>/``; ``log`` (a
    callable taking a line) reports progress.  ``edition``: the report is
    the edition (:data:`EDITION_PATH`); otherwise its title page says it is
    a preview and where the edition is.
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
        module = get_study(key)
        if getattr(module, "USES_RESULTS", True):
            outputs[key] = run_study(d, out / key, results=results, rules=rules)
        else:  # a study that plays matches: no results; the report's shorter run, sized by its deals
            if callable(getattr(module, "report_params", None)):
                d.params.update(module.report_params(len(results)))
            outputs[key] = run_study(d, out / key, rules=rules)
        seconds[key] = round(time.time() - t0, 1)
        log(f"study {i}/{len(keys)}: {key} done in {seconds[key]:.0f}s")
    date = report_date()
    inputs = {"schema": "kaiser-sim/report/1", "version": __version__, "date": date.strftime("%Y-%m-%d %H:%M UTC"),
              "deals": int(len(results)), "seed": meta.get("seed"), "rules": rules.to_dict(),
              "rules_preset": rules_preset, "studies": keys, "max_resolve": int(max_resolve),
              "results": source, "edition": bool(edition),
              "params": {k: o.inputs["params"] for k, o in outputs.items()}, "seconds": seconds}
    cheat = cheat_sheet(outputs)  # None when no study of the report has lines for it
    sections = [title_section(inputs, keys)] + ([cheat] if cheat is not None else []) + [glossary_section(inputs)]
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
                elif b.style == "term":
                    lines += [f"- **{b.term}**: {b.text}"]
                elif b.style == "note":
                    lines += ["", f"_{b.text}_", ""]
                elif b.style == "callout":
                    lines += ["", f"> **{b.text}**", ""]
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
#
# Typeset with reportlab's platypus (flowing paragraphs, tables that split with their header
# repeated, bookmarks, internal links); charts are the studies' SVG files drawn as vector
# graphics through svglib.  DejaVu Sans (shipped with matplotlib, so also in the charts) has
# every glyph the report uses (♥ ♠ − ½ ≤ ²).  Reproducible: reportlab's invariant mode (no random
# document id) and the report's date (SOURCE_DATE_EPOCH) as the creation date.

_FONT, _BOLD, _ITALIC = "KSans", "KSans-Bold", "KSans-Oblique"
_GREY = 0.35
_MIN_TABLE_SIZE = 5.5  # pt: below this a wide table wraps its cells instead of shrinking
_PAD = 4.0  # pt: cell padding left and right
_KEEP_WHOLE = 0.45  # a table up to this share of the page is never split
_END_ROWS = 4  # a table split across pages keeps at least this many rows on each side (no orphan rows)
_NUMBER = re.compile(r"^([-+−]?[\d,.]+\*?( \[[-−\d., ]+\])?%?|-|·|—)$")


def _register_fonts() -> None:
    import matplotlib
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if _FONT in pdfmetrics.getRegisteredFontNames():
        return
    ttf = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    files = {_FONT: "DejaVuSans.ttf", _BOLD: "DejaVuSans-Bold.ttf", _ITALIC: "DejaVuSans-Oblique.ttf",
             _FONT + "-BoldOblique": "DejaVuSans-BoldOblique.ttf"}
    for name, file in files.items():
        pdfmetrics.registerFont(TTFont(name, str(ttf / file)))
    for bold, italic, name in ((0, 0, _FONT), (1, 0, _BOLD), (0, 1, _ITALIC), (1, 1, _FONT + "-BoldOblique")):
        addMapping(_FONT, bold, italic, name)


def _styles(scale: float = 1.0) -> dict:
    from reportlab.lib.colors import Color
    from reportlab.lib.styles import ParagraphStyle

    grey = Color(_GREY, _GREY, _GREY)

    def style(name, size, font=_FONT, before=0.0, after=0.0, lead=1.3, **kw):
        s = size * scale
        return ParagraphStyle(name, fontName=font, fontSize=s, leading=s * lead, spaceBefore=before * scale,
                              spaceAfter=after * scale, **kw)

    return {
        "title": style("title", 24, _BOLD, after=10, lead=1.2),
        "subtitle": style("subtitle", 13, _FONT, after=14, textColor=grey),
        "section": style("section", 16, _BOLD, after=8, lead=1.2, keepWithNext=1),
        "heading": style("heading", 11, _BOLD, before=10, after=3, keepWithNext=1),
        "body": style("body", 9.5, before=5, lead=1.35),
        "bullet": style("bullet", 9.5, before=2, lead=1.35, leftIndent=14, bulletIndent=4, bulletFontName=_FONT),
        "term": style("term", 9.5, before=4, lead=1.35, leftIndent=14, firstLineIndent=-14),
        "note": style("note", 8, before=4, textColor=grey),
        # the title page's words on what the report is (a preview or the edition): boxed, before the rest
        "callout": style("callout", 10, _BOLD, before=2, after=12, lead=1.35, backColor=Color(0.96, 0.94, 0.86),
                         borderColor=Color(0.75, 0.68, 0.45), borderWidth=0.6, borderPadding=6),
        "caption": style("caption", 8.5, _BOLD, before=9, after=3, keepWithNext=1),
        "toc": style("toc", 10, lead=1.38, leftIndent=14, firstLineIndent=-14),
    }


def _esc(text: str) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


#: lead-ins set in bold in the PDF (the study sections' paragraphs)
_LEAD_INS = ("Method. ", "What the numbers mean. ")


def _paragraph(b: Text, st: dict):
    from reportlab.platypus import Paragraph

    if b.style == "term":
        return Paragraph(f"<b>{_esc(b.term)}</b>: {_esc(b.text)}", st["term"])
    text = _esc(b.text)
    for lead in _LEAD_INS:
        if text.startswith(lead):
            text = f"<b>{lead.strip()}</b> {text[len(lead):]}"
    if b.style == "bullet":
        return Paragraph(text, st["bullet"], bulletText="•")
    return Paragraph(text, st.get(b.style, st["body"]))


def _mark(flowable, key: str, title: str, level: int, toc: bool = False):
    """Ask the document for a bookmark, an outline entry (and a contents
    line) where ``flowable`` lands."""
    flowable._ks_mark = (key, title, level, toc)
    return flowable


def _lines(text: str, width: float, size: float) -> int:
    """Lines a bold header takes at ``width`` points (words kept whole)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    n, line = 1, ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if line and stringWidth(trial, _BOLD, size) > width:
            n, line = n + 1, word
        else:
            line = trial
    return n


def _table(b: Table, st: dict, width: float, keep: bool = True, tail=None) -> list:
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
        head_word = [max(stringWidth(w, _BOLD, size) for w in (c.split() or [""])) for c in cols]
        cell = [max([stringWidth(r[j], _FONT, size) for r in body] or [0.0]) for j in range(len(cols))]
        cell_word = [max([stringWidth(w, _FONT, size) for r in body for w in (r[j].split() or [""])] or [0.0])
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
    elif sum(max(stringWidth(c, _BOLD, size) + 2 * _PAD, w) for c, w in zip(cols, col)) <= width:
        col = [max(stringWidth(c, _BOLD, size) + 2 * _PAD, w) for c, w in zip(cols, col)]  # headers on one line
    else:  # room to spare: a header on more than two lines gets wider, while there is room
        spare = width - sum(col)
        for j in range(len(cols)):
            while spare > 0 and _lines(cols[j], col[j] - 2 * _PAD, size) > 2:
                step = min(2.0, spare)
                col[j] += step
                spare -= step

    lead = size * 1.22
    hstyle = ParagraphStyle("th", fontName=_BOLD, fontSize=size, leading=lead)
    cstyle = ParagraphStyle("td", fontName=_FONT, fontSize=size, leading=lead)
    align = {True: 2, False: 0}  # TA_RIGHT, TA_LEFT
    header = [Paragraph(_esc(c), ParagraphStyle(f"th{j}", hstyle, alignment=align[numeric[j]]))
              for j, c in enumerate(cols)]
    rows = [header]
    for r in body:
        if wrap_cells:
            rows.append([Paragraph(_esc(v), ParagraphStyle("tdw", cstyle, alignment=align[numeric[j]]))
                         for j, v in enumerate(r)])
        else:
            rows.append(r)
    band = Color(0.94, 0.95, 0.97)
    cmds = [("FONT", (0, 0), (-1, -1), _FONT, size, lead),
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
        parts.append(Paragraph(_esc(b.title), st["caption"]))
    notes = ([Paragraph(_esc(b.note), st["note"])] if b.note else []) + ([tail] if tail is not None else [])
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
        parts[0] = Paragraph(_esc(b.title), ParagraphStyle("caption-split", st["caption"], keepWithNext=0))
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


def _chart_class():
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


def _story(report: Report, st: dict, toc, chart_cls, box_w: float, box_h: float) -> list:
    from reportlab.lib.units import inch
    from reportlab.platypus import KeepInFrame, KeepTogether, PageBreak, Paragraph, Spacer

    story = []
    for si, sec in enumerate(report.sections):
        key = f"sec-{sec.key}"
        if si == 0:
            story.append(Spacer(1, 0.1 * inch))  # room for the preview/edition box and the contents
            story.append(_mark(Paragraph(_esc(report.title), st["title"]), key, report.title, 0))
        else:
            story.append(PageBreak())
            story.append(_mark(Paragraph(_esc(sec.title), st["section"]), key, sec.title, 0, toc=True))
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
            tail = _paragraph(sec.blocks[last], st) if closing and i == last - 1 else None
            if si == 0 and i == len(sec.blocks) - 1:  # the contents, before the title page's last note
                flow += [Paragraph("Contents", st["heading"]), toc]
            if isinstance(b, Text):
                if si == 0 and i == 0 and b.style == "heading":  # the subtitle
                    flow.append(Paragraph(_esc(b.text), st["subtitle"]))
                    continue
                p = _paragraph(b, st)
                if b.style == "heading" and si > 0 and not sec.one_page:
                    heads += 1
                    _mark(p, f"{key}-{heads}", b.text, 1)
                flow.append(p)
            elif isinstance(b, Table):
                flow += _table(b, st, box_w, keep=not sec.one_page, tail=tail)
            elif isinstance(b, Chart):
                chart = chart_cls(report.out / f"{b.path}.svg", max_h=6.2 * inch)
                flow.append(KeepTogether([chart, tail]) if tail is not None else chart)
        if sec.one_page:  # the whole section on its page: the type shrinks when it must
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

    _register_fonts()
    inp = report.inputs
    footer = (f"kaiser-sim {inp['version']} · rules {inp['rules'].get('label', '?')} · {inp['deals']:,} deals · "
              f"seed {inp['seed']}")
    try:  # the report's own date (the same report, the same bytes)
        date = _dt.datetime.strptime(str(inp.get("date")), "%Y-%m-%d %H:%M UTC")
    except ValueError:
        date = report_date()
    stamp = date.strftime("D:%Y%m%d%H%M%S+00'00'")
    st = _styles()
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
                self.notify("TOCEntry", (0, _esc(title), self.page, key))

    def decorate(canv, doc):
        canv.saveState()
        canv.setFont(_FONT, 7)
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
                                 ("RIGHTPADDING", (0, 0), (-1, -1), 0), ("TOPPADDING", (0, 0), (-1, -1), 1),
                                 ("BOTTOMPADDING", (0, 0), (-1, -1), 1)])
    chart_cls = _chart_class()
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
    _write_doc(out / "report.json", doc)
    return doc


def _write_doc(path: Path, doc: dict) -> None:
    """report.json: ``doc``, without its wall-clock times when the output is
    to be reproducible (``SOURCE_DATE_EPOCH`` set)."""
    if source_date_epoch() is not None:
        doc = {k: v for k, v in doc.items() if k != "seconds"}
    path.write_text(json.dumps(doc, indent=2, default=str) + "\n", encoding="utf-8")


def make_report(out=None, deals: int = DEFAULT_DEALS, seed: int = DEFAULT_SEED, rules: Rules | None = None,
                rules_preset: str = "standard", studies=None, from_path=None,
                max_resolve: int = DEFAULT_MAX_RESOLVE, workers: int | None = None, progress=None,
                log=None, force: bool = False, keep_results: bool = True,
                edition: bool = False) -> tuple[Report, dict]:
    """``kaiser-sim report`` end to end: obtain results once (read ``from_path`` or
    simulate ``deals`` with ``seed`` into ``out/results``, over again if
    ``force``), run the studies, write everything.  Returns the report and
    the ``report.json`` document.  Without ``keep_results`` the deals
    simulated into ``out/results`` are removed at the end, and the report
    says so where it would name them (``report --no-keep-results``; what
    ``make sample`` does for the committed sample).  ``edition``: the title
    page calls the report the edition (``report --edition``); without it, a
    preview that names where the edition is (:data:`EDITION_PATH`).

    ``out`` defaults to ``reports/<rules>-<deals>-<seed>``.

    Everything is checked before any work: the studies, the deal count, that
    ``from_path`` is a results dataset with points values, that ``out`` can be
    written.  The files are written into a hidden directory in ``out`` and
    moved into place at the end; a run that fails leaves nothing it created
    (:mod:`kaiser_sim.output_dir`).
    """
    from . import config
    from .output_dir import removed_on_failure, staged
    from .rules import get_preset
    from .runs.services import RunServiceError, check_output_dir, check_results_path, obtain_results, results_rules

    keys = parse_studies(studies)
    if from_path is None and deals < MIN_DEALS:
        raise ReportError(f"--deals {deals}: the report needs at least {MIN_DEALS} deals")
    if from_path is None and deals > config.STUDY_MAX_DEALS:
        raise ReportError(f"--deals {deals}: the report takes at most {config.STUDY_MAX_DEALS:,} deals")
    log = log or (lambda line: None)
    t0 = time.time()
    if from_path is not None:
        try:
            meta = check_results_path(from_path)  # readable, with points values: before anything is loaded
            if rules is None:
                rules = results_rules(meta, from_path) or get_preset(rules_preset)
        except RunServiceError as e:
            raise ReportError(str(e)) from None
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
        check_output_dir(out)
    except RunServiceError as e:
        raise ReportError(str(e)) from None
    with removed_on_failure(out, out / "results"):
        try:
            if from_path is not None:
                results = obtain_results(from_path)
            else:
                log(f"simulating {deals:,} deals (seed {seed}, rules {rules.label}) into {out / 'results'}")
                results = obtain_results(None, deals, seed, rules, out, progress, workers, force)
        except RunServiceError as e:
            raise ReportError(str(e)) from None
        if from_path is None:
            source = str(out / "results") if keep_results else (
                f"not kept (--no-keep-results); kaiser-sim simulate --deals {deals} --seed {seed} --mode points "
                "with these rules makes the same deals again")
        t1 = time.time()
        with staged(out, "the report") as stage:
            report = build_report(results, rules, stage, keys, max_resolve, source, log, t1 - t0, rules_preset,
                                  edition)
            log("writing report.pdf and report.md ...")
            doc = write_report(report)
            doc["seconds"]["total"] = round(time.time() - t0, 1)
            doc["out"] = str(out)
            _write_doc(stage / "report.json", doc)
        report.out = out
        if from_path is None and not keep_results:
            shutil.rmtree(out / "results")
    return report, doc


__all__ = ["make_report", "build_report", "write_report", "render_markdown", "render_pdf", "cheat_sheet",
           "parse_studies", "ReportError", "Report", "Section", "Table", "Chart", "Text",
           "DEFAULT_DEALS", "DEFAULT_SEED", "DEFAULT_MAX_RESOLVE", "MIN_DEALS", "EDITION_PATH"]

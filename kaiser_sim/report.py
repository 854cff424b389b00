"""The printed report: every study on one shared results set, as PDF and Markdown.

:func:`build_report` runs the chosen studies on one results frame (simulated
once, or read with ``--from``) and builds the content once, as a list of
:class:`Section` objects holding text, tables and charts.  Two renderers
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
import json
import math
import os
import re
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from . import __version__
from .rules import Rules
from .studies import PLAY_STUDIES, STUDIES, StudyError, get_study
from .studies.runner import definition_for, run_study, to_markdown

#: default size of ``kaiser-sim report`` (chosen to finish well within 10
#: minutes on a 2-core machine; see README)
DEFAULT_DEALS = 4000
DEFAULT_SEED = 1
#: re-solved deals of the 5H and 3S studies in the report (their own default is larger)
DEFAULT_MAX_RESOLVE = 1000
RESOLVING = ("five-hearts", "three-spades")
#: deals the opt-in dd-bias section plays out with PIMC players (the first ones
#: of the report's deals; about 2-4 minutes on 2 cores at K = 20)
DEFAULT_PLAY_DEALS = 1000
#: fewer deals leave the studies' breakdowns empty
MIN_DEALS = 100

#: page geometry (inches): A4 portrait with a content box that also fits Letter
PAGE_W, PAGE_H = 8.27, 11.69
BOX_W, BOX_H = 7.0, 9.5
LEFT = (PAGE_W - BOX_W) / 2
TOP = (PAGE_H - BOX_H) / 2
CHART_DPI = 150

QUESTIONS = {
    "bid-odds": "How often does each bid make, by hand strength, trump length and the 5♥?",
    "hand-eval": "Which count of your own hand predicts your side's points best?",
    "bidding-chart": "What should I bid, by strength and trump length?",
    "five-hearts": "What is being dealt the 5♥ worth to your side?",
    "three-spades": "What is being dealt the 3♠ worth to your side, and who ends up with its −3?",
    "trump-and-nt": "Which suit to name as trump, and when does no trump pay?",
    "lead": "What is it worth to be on lead?",
    "dd-bias": "How far is real play, where no one sees the other hands, from double dummy?",
}
TITLES = {
    "bid-odds": "Bid odds: how often a bid makes",
    "hand-eval": "Hand evaluation: which count predicts the points",
    "bidding-chart": "The bidding chart: what to bid",
    "five-hearts": "The 5♥: what holding it is worth",
    "three-spades": "The 3♠: what holding it is worth",
    "trump-and-nt": "Naming trump, and when no trump pays",
    "lead": "The value of the lead",
    "dd-bias": "Beyond double dummy: play without seeing the other hands",
}
METHOD = {
    "bid-odds": (
        "Every seat of every deal is taken in turn as the declarer (the declarer leads). For each bid b, we "
        "count how often the declaring side's double-dummy points reach b: with trump named from the "
        "declarer's own hand (longest suit, ties by strength), in no trump, and in the best strain chosen "
        "after seeing all the cards (an upper bound no player can reach). Strength is the Kaiser count of the "
        "declarer's hand, the best predictor of the hand-evaluation study rounded to half points: in trump "
        "A 2, K 1, Q ½; in side suits A 1, K ½; 1 for each trump; 5♥ ½; 3♠ 1½; plus ½. It ranks hands roughly "
        "in points but is not a promise of points: on average the declaring side takes about a third of a point "
        "more than the count (more for middling counts), and from 10½ up about 0.7 less (see the "
        "hand-evaluation section)."),
    "hand-eval": (
        "Each count of the declarer's hand is turned into a prediction of its side's points by a straight "
        "line fitted on 4 deals in 5, and tested on the 5th (held out). R² is the share of the spread of the "
        "points the count explains (1 = perfect, 0 = no better than the average); MAE is the average miss "
        "in points. The 'fitted Kaiser count' gives each card its own value by least squares. The printable "
        "Kaiser count was fitted on the first 100,000 deals of seed 1; when this report's deals are among them, "
        "every count is scored instead on 2,000 further deals (seed 2) solved for the purpose, so no count is "
        "tested on deals it was fitted on. The calibration table sets the Kaiser count against the points the "
        "declaring side actually takes in the trump it names."),
    "bidding-chart": (
        "For every declarer hand and every bid of the ladder, the declaring side's hand score under the "
        "rules: made, the points taken (NT doubled); failed, minus the bid (NT: twice). Averaged per cell of "
        "strength x trump length. 'Up to' is the highest bid whose average score is still positive. To avoid "
        "flattering the winner, the bids are chosen on half the deals (even-numbered) and their scores and "
        "intervals are measured on the other half; 'sure' means the chosen bid's 95% interval on that other "
        "half is above zero. n counts the hands of the measuring half. The defenders' score is not subtracted."),
    "five-hearts": (
        "Three questions, each on its own rows. (a) What being dealt the 5♥ is worth to your side: on a sample "
        "of deals solved again, the 5♥ is swapped like for like with the lowest heart of your partner, your "
        "left-hand opponent (LHO) or your right-hand opponent (RHO) when that heart is the 8♥, the next heart "
        "up: no card ranks between the two, so only the 5♥'s special status moves (swaps for a 9 or higher "
        "would also hand you a better card: they are reported apart). The declarer names trump again after the "
        "swap. Worth = "
        "your side's points as dealt minus after the swap, when you declare (you lead), when your partner "
        "declares, and when you defend. 'Any other hand' pools the three: the 5♥ is equally likely to be in "
        "each when it is not in yours. (b) The same, observed on every deal without any swap: your side's "
        "average points when you hold the 5♥ minus when another hand does. (c) How much of the 5♥'s own 5 "
        "points your side keeps: the deal solved with the 5♥ counting 0; 5 = your side takes it whatever "
        "the others do, 0 = the other side takes it."),
    "three-spades": (
        "The same three questions as for the 5♥. (a) The 3♠ swapped like for like with another hand's lowest "
        "spade when that spade is the 8♠, the next one up; the deal solved again: worth = your side's points as "
        "dealt minus after the swap; positive means holding the 3♠ is an asset. (b) Observed on every deal: your side's average "
        "points with the 3♠ in your hand minus in another hand. (c) How much of the 3♠'s own −3 ends with "
        "your side (the deal solved with the 3♠ counting 0): −3 = your side is stuck with it whatever it "
        "does, 0 = it always gets rid of it. (c) is not the card's worth: the holder decides when and where "
        "the 3♠ falls, which (a) and (b) measure."),
    "trump-and-nt": (
        "(1) How often a rule for naming trump from your own hand picks the suit that is best double dummy, "
        "and how many points it gives away. (2) How often no trump takes strictly more points than the best "
        "trump suit. (3) The expected score of an NT bid minus a plain bid at the same level (paired on the "
        "same hands), under the rules' NT scoring."),
    "lead": (
        "The same deal and strain solved twice: with the declarer on lead and with its left-hand opponent "
        "on lead. The difference is the value of the lead to the declaring side."),
    "dd-bias": (
        "Each deal gets one contract: the declarer rotates with the deal and names trump by the bid-odds rule "
        "(every 5th deal no trump). The deal is then played out by four PIMC players: at each turn a player "
        "deals the cards it cannot see 20 times, consistently with what it knows (its hand, the cards played, "
        "the suits others have shown out of), scores each of its cards double dummy on every layout and plays "
        "the best on average. The declaring side's points in that play are compared with the deal's double-"
        "dummy value. PIMC cannot signal or read the others' choices, so it is a model of good play, not of "
        "people."),
}


class ReportError(StudyError):
    """Bad report input: an unknown study, unreadable results."""


# --- content ----------------------------------------------------------------------------------


@dataclass
class Text:
    text: str
    style: str = "body"  # body | note | bullet | heading


@dataclass
class Table:
    name: str  # file stem under tables/
    title: str
    df: pd.DataFrame  # strings, printed as is
    note: str = ""
    size: float = 8.5  # largest font size in the PDF (pt)


@dataclass
class Chart:
    path: str  # relative to the report directory, without extension
    title: str


@dataclass
class Section:
    key: str
    title: str
    blocks: list = field(default_factory=list)


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


# --- formatting -------------------------------------------------------------------------------


def _ok(*xs) -> bool:
    return all(x is not None and not (isinstance(x, float) and math.isnan(x)) for x in xs)


def ci(x, lo, hi, digits: int = 2, scale: float = 1.0) -> str:
    """``1.23 [1.10, 1.36]``: an estimate with its 95% interval."""
    if not _ok(x):
        return "-"
    def f(v):
        t = f"{scale * v:.{digits}f}"
        return t[1:] if t.startswith("-") and not t.strip("-0.") else t  # no "-0.0"

    s = f(x)
    if _ok(lo, hi):
        s += f" [{f(lo)}, {f(hi)}]"
    return s


def signed_ci(x, lo, hi, digits: int = 2) -> str:
    """``+1.23 [1.10, 1.36]``: :func:`ci` with the estimate's sign always
    shown (a worth or a change)."""
    s = ci(x, lo, hi, digits)
    zero = not s.split(" ")[0].strip("-0.")  # rounds to 0: no sign
    return s if not _ok(x) or s.startswith("-") or zero else "+" + s


def pct(p, lo, hi, digits: int = 1) -> str:
    """A proportion as a percentage with its interval."""
    return ci(p, lo, hi, digits, 100.0)


def num(x, digits: int = 2) -> str:
    return "-" if not _ok(x) else f"{x:.{digits}f}"


def count(n) -> str:
    return "-" if not _ok(n) else f"{int(n):,}"


def _frame(rows: list[dict]) -> pd.DataFrame:
    df = pd.DataFrame(rows)
    return df.astype(str) if len(df) else pd.DataFrame({"(no rows)": []})


# --- study sections ---------------------------------------------------------------------------


def _bid_odds(t, key):
    make = t["make"]
    blocks = []
    rows = []
    for bid, g in make.groupby("bid", sort=True):
        row = {"bid": str(bid)}
        for _, r in g.iterrows():
            row[r["method"]] = pct(r["p"], r["lo"], r["hi"])
        rows.append(row)
    n = int(make["n"].iloc[0]) if len(make) else 0
    tp = bool(make["method"].astype(str).str.contains("table play").any()) if len(make) else False
    blocks.append(Table(f"{key}-make", "P(make), % of declarer hands, by method" + (": table play first, then double "
                                                                                    "dummy" if tp else ""), _frame(rows),
                        f"n = {n:,} declarer hands (4 per deal; intervals clustered by deal); "
                        + ("table play: the table-play model applied to each hand's double-dummy points (appendix); "
                           "the other columns are double dummy, the upper reference; " if tp else "")
                        + "best in hindsight is an upper bound"))

    def pivot(df, row_col, label, method=None):
        if method is not None:
            df = df[df["method"] == method]
        out = []
        for k, g in df.groupby(row_col, observed=True, sort=False):
            row = {label: str(k), "n": count(g["n"].iloc[0])}
            for _, r in g.iterrows():
                row[f"bid {r['bid']}"] = pct(r["p"], r["lo"], r["hi"], 0)
            out.append(row)
        return _frame(out)

    bs = t["by_strength"]
    play = ", table play" if tp else ""
    blocks.append(Table(f"{key}-by-strength", f"P(make) %, trump by rule{play}, by Kaiser count (trump A 2 K 1 Q ½, side A 1 K ½, 1 a trump, 5♥ ½, 3♠ 1½, +½)",
                        pivot(bs, "strength_bucket", "count", f"trump by rule{play}"), "P(make) in % with its 95% interval, by bid"))
    blocks.append(Table(f"{key}-by-strength-nt", f"P(make) %, no trump{play}, by Kaiser count",
                        pivot(bs, "strength_bucket", "count", f"NT{play}"), "P(make) in % with its 95% interval, by bid"))
    if tp:
        blocks.append(Table(f"{key}-by-strength-dd", "P(make) %, trump by rule, double dummy (the upper reference), "
                            "by Kaiser count", pivot(bs, "strength_bucket", "count", "trump by rule"),
                            "P(make) in % with its 95% interval, by bid; all four hands visible"))
    blocks.append(Table(f"{key}-by-trump-length", f"P(make) %, trump by rule{play}, by trump length",
                        pivot(t["by_trump_length"], "length_bucket", "trumps", f"trump by rule{play}"),
                        "P(make) in % with its 95% interval, by bid"))
    text = []
    for method, label in (("trump by rule, table play", "at the table (table play)"), ("trump by rule", "double dummy")):
        tr = make[make["method"] == method].set_index("bid")
        if not len(tr):
            continue
        b50 = [b for b in tr.index if tr.loc[b, "p"] >= 0.5]
        if b50:
            b = max(b50)
            r = tr.loc[b]
            text.append(f"Over all hands, trump named by rule makes {b} or more {pct(r['p'], r['lo'], r['hi'])}% of "
                        f"the time {label}.")
    if tp:
        text.append("Table play is what players who see only their own hand take; double dummy, with every card "
                    "visible, is about a bid higher and is shown as the upper reference.")
    text.append("Read a row across to see how fast the odds fall with the bid; compare rows to see what a few more "
                "count buys. Cells with fewer than 30 hands are left out.")
    return blocks, text, ["make_curves", "make_by_strength", "make_by_strength_nt", "make_by_trump_length"]


def _hand_eval(t, key):
    c = t["comparison"]
    rows = [{"target": r["target"], "measure": r["measure"], "R² on held-out deals": ci(r["r2"], r["r2_lo"], r["r2_hi"], 3),
             "mean abs. error, points": ci(r["mae"], r["mae_lo"], r["mae_hi"], 2), "n test": count(r["n_test"])}
            for _, r in c.iterrows()]
    k = t["kaiser_count"]
    k = k[k["target"] == "trump by rule"]
    krows = [{"feature": r["feature"], "points": ci(r["points"], r["lo"], r["hi"], 2), "rounded": num(r["printable"], 1)}
             for _, r in k.iterrows()]
    scored = "; ".join(c["scored_on"].unique()) if "scored_on" in c else "held-out deals"
    blocks = [Table(f"{key}-comparison", "How well each count predicts the declaring side's points", _frame(rows),
                    f"intervals: bootstrap over the scored deals; scored on: {scored}"),
              Table(f"{key}-kaiser-count", "The fitted Kaiser point count (trump by rule)", _frame(krows),
                    "expected points of the declaring side = sum over the hand; intervals: cluster-robust, the "
                    "four hands of a deal clustered")]
    cal = t.get("count_calibration")
    if cal is not None and len(cal):
        crows = [{"Kaiser count": r["count_band"], "n": count(r["n"]), "mean count": num(r["count_mean"], 2),
                  "side's points": ci(r["points_mean"], r["points_lo"], r["points_hi"], 2),
                  "points − count": ci(r["diff"], r["diff_lo"], r["diff_hi"], 2)} for _, r in cal.iterrows()]
        blocks.append(Table(f"{key}-calibration", "What the Kaiser count means: the declaring side's points by count",
                            _frame(crows), "trump by rule; 95% intervals clustered by deal; scored on: "
                            + "; ".join(cal["scored_on"].unique())))
    text = []
    if cal is not None and len(cal):
        a = cal[cal["count_band"] == "all"]
        h = cal[cal["count_band"] == "10.5+"]
        if len(a):
            a = a.iloc[0]
            line = (f"What the count means: on average the declaring side takes "
                    f"{ci(a['diff'], a['diff_lo'], a['diff_hi'], 2)} points more than its Kaiser count")
            if len(h) and h.iloc[0]["n"] > 0:
                h = h.iloc[0]
                line += f"; from 10½ up the count overstates them by {ci(-h['diff'], -h['diff_hi'], -h['diff_lo'], 2)}"
            text.append(line + ".")
    g = c[c["target"] == "trump by rule"]
    if len(g):
        best = g.loc[g["r2"].idxmax()]
        text.append(f"In a trump contract the best predictor is the {best['measure']} "
                    f"(R² {ci(best['r2'], best['r2_lo'], best['r2_hi'], 3)}). Even the best count leaves much of "
                    "the spread unexplained: your partner's hand matters as much as yours.")
    return blocks, text, ["measures_r2", "kaiser_count"]


def _chart_rows(ch) -> pd.DataFrame:
    return _frame([{"count": str(r["strength"]), "trumps": str(r["trump_len"]), "n": count(r["n"]),
                    "bid up to": r["bid_up_to"], "sure up to": r["bid_up_to_sure"], "NT up to": r["nt_up_to"],
                    "best bid": r["best_bid"], "its score": ci(r["expected"], r["lo"], r["hi"], 2),
                    "P(make) %": num(100 * r["p_make"], 0)} for _, r in ch.iterrows()])


def _bidding_chart(t, key):
    tp = "chart_table_play" in t
    ch = t["chart_table_play" if tp else "chart"]
    th = t["thresholds_table_play" if tp else "thresholds"]
    trows = [{"bid": r["bid"], "count for 50% makes": ci(r["strength_50pct"], r["strength_50pct_from"], r["strength_50pct_to"], 1),
              "count for break-even": ci(r["strength_break_even"], r["break_even_from"], r["break_even_to"], 1)}
             for _, r in th.iterrows()]
    blocks = [Table(f"{key}-chart", "How high to bid, by strength and trump length" + (" (table play)" if tp else ""),
                    _chart_rows(ch),
                    "bid/NT up to: highest bid with a positive expected score, chosen on the even-numbered deals; sure: "
                    "its 95% interval on the odd-numbered deals is above 0; best bid: highest expected score on the "
                    "even deals, with its score and interval measured on the odd deals (n = their hands)"
                    + ("; table play: each hand's double-dummy points through the table-play model (appendix)"
                       if tp else "")),
              Table(f"{key}-thresholds", "Strength needed for each bid (all trump lengths)" + (", table play" if tp else ""),
                    _frame(trows),
                    "interpolated between counts (steps of ½); in brackets where the 95% band crosses; - never in the data")]
    if tp:
        blocks.append(Table(f"{key}-chart-dd", "How high to bid, double dummy (the upper reference)",
                            _chart_rows(t["chart"]), "the same chart with every card visible and best play"))
    text = ["A made bid scores the points taken whatever the level, so the cheapest allowed bid is always at "
            "least as good as a higher one: the chart answers how high you can go when the auction pushes "
            "you. Bid up to the level shown; beyond it the average hand loses points."]
    if tp:
        text.append("The chart is in table play (players who see only their own hand); the double-dummy chart, "
                    "with every card visible, is the upper reference and reads about a bid higher.")
    return blocks, text, ["what_to_bid", "what_to_bid_dd", "expected_by_bid"]


_RECEIVER_WORDS = {"partner": "partner", "LHO": "left-hand opponent", "RHO": "right-hand opponent"}


def _by_receiver(df, roles=None, prefix: str = "") -> pd.DataFrame:
    """Rows role and strain, one column per receiver: ``x [lo, hi]`` (of the
    columns ``{prefix}mean``, ``{prefix}lo``, ``{prefix}hi``)."""
    out = []
    for (role, strain), g in df.groupby(["role", "strain"], sort=False):
        if roles is not None and role not in roles:
            continue
        row = {"your side": role, "strain": strain}
        for _, r in g.iterrows():
            lo, hi = r[f"{prefix}lo"], r[f"{prefix}hi"]
            same_side = role == "you defend" and r["receiver"] == "partner" and abs(hi - lo) < 1e-9
            row[f"vs {r['receiver']}"] = "0 (the same)" if same_side else ci(r[f"{prefix}mean"], lo, hi, 2)
        row["deals"] = count(g["deals"].max())
        out.append(row)
    return _frame(out)


def _by_swap(df) -> pd.DataFrame:
    """The 'you declare' rows of the swaps for a higher card, one row per
    kind of card given back and strain."""
    out = []
    for (swap, strain), g in df[df["role"] == "you declare"].groupby(["swap", "strain"], sort=False):
        row = {"swapped": swap.replace("for a higher spot card", "for a 9 or 10"), "strain": strain}
        for _, r in g.iterrows():
            row[f"vs {r['receiver']}"] = ci(r["mean"], r["lo"], r["hi"], 2)
        row["deals"] = count(g["deals"].max())
        out.append(row)
    return _frame(out)


def _specials(t, key, name, value):
    from .studies.specials import ANY_OTHER, LIKE

    cf = t["counterfactual"]
    like, other = cf[cf["swap"] == LIKE], cf[cf["swap"] != LIKE]
    obs = t["observed"]
    no_suit = {r["receiver"]: int(r["no_suit"]) for _, r in like.iterrows()}
    blocks = [Table(f"{key}-worth-swap", f"(a) What being dealt the {name} is worth to your side: points as dealt "
                    "minus after a like-for-like swap", _by_receiver(like),
                    f"vs X: the {name} swapped with X's lowest card of its suit when it is the next card up (the 8); "
                    "deals: re-solved deals "
                    f"behind the row; deals where X has no card of the suit are left out "
                    f"({', '.join(f'{k} {v:,}' for k, v in no_suit.items() if k != ANY_OTHER)})"),
              Table(f"{key}-worth-swap-honour", f"(a) The same, swaps for a higher card (you declare)",
                    _by_swap(other),
                    "the card given back is a 9 or 10 (spot) or a J or higher (honour): these also hand the holder a "
                    "better card, so they mix the card's worth with that card's: not the headline"),
              Table(f"{key}-worth-observed", f"(b) Observed on every deal: your side's points with the {name} in "
                    "your hand minus in another hand", _by_receiver(obs),
                    "no swap, all deals of the run; vs partner when you defend: the two defenders are pooled, so the "
                    "difference is 0 by construction")]
    tp = "tp_mean" in like and like["tp_mean"].notna().any()
    if tp:
        blocks.insert(1, Table(f"{key}-worth-swap-table-play", f"(a) in table play: what being dealt the {name} is "
                               "worth to your side at the table", _by_receiver(like, prefix="tp_"),
                               "the same swaps, each side's double-dummy points taken through the table-play model "
                               "(appendix): what players who see only their own hand take"))
    ov = t["worth_overall"]
    sign_word = "takes it" if value > 0 else "is stuck with it"
    rows = [{"n (deal, leader, strain)": count(r["n"]), "deals": count(r["deals"]),
             f"points of its {value:+d} kept": ci(r["mean"], r["lo"], r["hi"], 2),
             f"your side {sign_word} whatever happens %": pct(r["all_of_it"], r["all_of_it_lo"], r["all_of_it_hi"]),
             "the other side does %": pct(r["none_of_it"], r["none_of_it_lo"], r["none_of_it_hi"]),
             "depends on the play %": num(100 * r["partly"], 1)} for _, r in ov.iterrows()]
    role = t["worth_by_role"]
    rrows = [{"holder": r["role"], "strain": r["strain_kind"], "n": count(r["n"]),
              f"of its {value:+d} kept": ci(r["mean"], r["lo"], r["hi"], 2),
              f"{sign_word} %": pct(r["all_of_it"], r["all_of_it_lo"], r["all_of_it_hi"])} for _, r in role.iterrows()]
    blocks += [Table(f"{key}-kept", f"(c) How much of the {name}'s own {value:+d} points your side keeps", _frame(rows),
                     "the deal solved again with the card counting 0; all leaders and strains of the re-solved deals "
                     "(20 a deal); 'depends on the play': the card is traded against tricks"),
               Table(f"{key}-kept-by-role", f"(c) The {name}'s own points kept, by the holder's role and the strain",
                     _frame(rrows))]
    text = []
    head = like[(like["role"] == "you declare") & (like["strain"] == "trump by rule")]
    if len(head):
        any_r = head[head["receiver"] == ANY_OTHER]
        r = any_r.iloc[0] if len(any_r) else head.iloc[0]
        parts = [f"your {_RECEIVER_WORDS.get(x['receiver'], x['receiver'])} {ci(x['mean'], x['lo'], x['hi'], 2)}"
                 for _, x in head.iterrows() if x["receiver"] != ANY_OTHER]
        text.append(f"(a) Being dealt the {name} is worth {ci(r['mean'], r['lo'], r['hi'], 2)} points to your side "
                    f"when you declare with trump by rule (double dummy), against the card being in another hand; "
                    f"against it being with {', '.join(parts)}.")
        if "tp_mean" in r and _ok(r["tp_mean"]):
            text.append(f"At the table (table play) it is worth {ci(r['tp_mean'], r['tp_lo'], r['tp_hi'], 2)}.")
        dfd = like[(like["role"] == "you defend") & (like["strain"] == "trump by rule") & (like["receiver"] == ANY_OTHER)]
        if len(dfd):
            x = dfd.iloc[0]
            text.append(f"When you defend it is worth {ci(x['mean'], x['lo'], x['hi'], 2)}.")
    ob = obs[(obs["role"] == "you declare") & (obs["strain"] == "trump by rule") & (obs["receiver"] == ANY_OTHER)]
    if len(ob):
        x = ob.iloc[0]
        text.append(f"(b) Observed without a swap, the declaring side takes {ci(x['mean'], x['lo'], x['hi'], 2)} "
                    f"points more when the declarer holds the {name} than when another hand does.")
    if len(ov):
        r = ov.iloc[0]
        text.append(f"(c) Of the card's own {value:+d} points, the side dealt it keeps {ci(r['mean'], r['lo'], r['hi'], 2)} "
                    f"on average; it {sign_word} whatever happens {pct(r['all_of_it'], r['all_of_it_lo'], r['all_of_it_hi'])}% "
                    "of the time. This is not the card's worth: (a) is.")
    return blocks, text, ["mean_change", "swing", "worth_distribution"]


def _trump_and_nt(t, key):
    tr = t["trump_rules"]
    rows = [{"rule": r["rule"], "picks the best suit %": pct(r["picks_best"], r["picks_lo"], r["picks_hi"]),
             "points lost": ci(r["loss"], r["loss_lo"], r["loss_hi"], 2), "n": count(r["n"])} for _, r in tr.iterrows()]
    nb = t["nt_beats_trump"]
    nb = nb[nb["by"].isin(["all", "aces", "longest"])]
    nrows = [{"hands": ("all" if r["by"] == "all" else f"{r['value']} {'aces' if r['by'] == 'aces' else 'longest suit'}"),
              "n": count(r["n"]), "NT beats best trump %": pct(r["p"], r["lo"], r["hi"]),
              "NT - best trump, points": num(r["mean_nt_minus_best_trump"], 2)} for _, r in nb.iterrows()]
    c = t["nt_vs_trump"]
    crows = [{"level": str(r["level"]), "aces": r["aces"], "n": count(r["n"]),
              "NT - trump, expected score": ci(r["nt_minus_trump"], r["lo"], r["hi"], 2),
              "verdict": "NT" if r["nt_better"] else ("trump" if r["trump_better"] else "no clear difference")}
             for _, r in c.iterrows()]
    blocks = [Table(f"{key}-trump-rules", "Rules for naming trump against the double-dummy best suit", _frame(rows)),
              Table(f"{key}-nt-beats", "When no trump takes more points than the best trump suit", _frame(nrows)),
              Table(f"{key}-nt-vs-trump", "NT bid minus plain bid at the same level (expected hand score)", _frame(crows),
                    "verdict: the 95% interval of the difference excludes 0")]
    text = []
    if len(tr):
        b = tr.loc[tr["picks_best"].idxmax()]
        text.append(f"The rule '{b['rule']}' names the best suit most often "
                    f"({pct(b['picks_best'], b['picks_lo'], b['picks_hi'])}%).")
    return blocks, text, ["trump_rules", "nt_beats_by_aces", "nt_vs_trump"]


def _lead(t, key):
    s = t["summary"]
    rows = [{"strain": r["strain"], "n": count(r["n"]), "lead value, points": ci(r["mean"], r["lo"], r["hi"], 2),
             "gains %": num(100 * r["share_gain"], 1), "loses %": num(100 * r["share_loss"], 1)} for _, r in s.iterrows()]
    m = t["make_change"]
    mrows = [{"strain": r["strain"], "bid": str(r["bid"]), "P(make) on lead %": num(100 * r["p_on_lead"], 1),
              "LHO on lead %": num(100 * r["p_lho_leads"], 1),
              "change, % points": ci(r["change"], r["lo"], r["hi"], 1, 100)} for _, r in m.iterrows()]
    blocks = [Table(f"{key}-summary", "The value of the lead to the declaring side", _frame(rows)),
              Table(f"{key}-make-change", "Make probability with and without the lead", _frame(mrows))]
    text = []
    r = s[s["strain"] == "trump by rule"]
    if len(r):
        r = r.iloc[0]
        text.append(f"Having the lead is worth {ci(r['mean'], r['lo'], r['hi'], 2)} points to the declaring side in "
                    "the trump it names.")
    return blocks, text, ["lead_value", "lead_make_change"]


def _dd_bias(t, key):
    d = t["difference"]
    drows = [{"group": "all deals" if r["by"] == "all" else f"{'strain' if r['by'] == 'strain' else 'DD points'} "
              f"{r['group']}", "n": count(r["n"]), "PIMC - DD": ci(r["mean"], r["lo"], r["hi"], 2),
              "worse %": num(100 * r["worse"], 1), "same %": num(100 * r["same"], 1),
              "better %": num(100 * r["better"], 1)} for _, r in d.iterrows()]
    m = t["make"]
    mrows = [{"bid": str(int(r["bid"])), "double dummy %": pct(r["p_dd"], r["dd_lo"], r["dd_hi"]),
              "PIMC play %": pct(r["p_pimc"], r["pimc_lo"], r["pimc_hi"]),
              "change, % points": ci(r["difference"], r["diff_lo"], r["diff_hi"], 1, 100)} for _, r in m.iterrows()]
    sp = t["specials"]
    srows = [{"card": r["card"].replace("5H", "5♥").replace("3S", "3♠"),
              "worth, DD": ci(r["worth_dd"], r["worth_dd_lo"], r["worth_dd_hi"], 2),
              "worth, PIMC": ci(r["worth_pimc"], r["worth_pimc_lo"], r["worth_pimc_hi"], 2),
              "change": ci(r["change"], r["change_lo"], r["change_hi"], 2),
              "holder takes it, PIMC %": pct(r["holder_captures_pimc"], r["holder_captures_pimc_lo"],
                                             r["holder_captures_pimc_hi"]),
              "holder takes it, DD line %": pct(r.get("holder_captures_dd", np.nan),
                                                r.get("holder_captures_dd_lo", np.nan),
                                                r.get("holder_captures_dd_hi", np.nan))}
             for _, r in sp.iterrows()]
    blocks = [Table(f"{key}-difference", "PIMC play minus double dummy, declaring side's points", _frame(drows),
                    "DD points = the contract's double-dummy value; grouping by it is partly regression to the mean"),
              Table(f"{key}-make", "Make probability: double dummy and PIMC play", _frame(mrows),
                    "change: paired on the same deals"),
              Table(f"{key}-specials", "Worth of being dealt the 5♥ / 3♠ to the declaring side", _frame(srows),
                    "worth: mean points dealt it minus not (observational); change: PIMC minus DD")]
    text = []
    n = int(d.iloc[0]["n"]) if len(d) else 0
    if len(d):
        r = d.iloc[0]
        text.append(f"Played by four PIMC players ({n:,} deals), the declaring side takes "
                    f"{ci(-r['mean'], -r['hi'], -r['lo'], 2)} points fewer than double dummy on average; it does "
                    f"worse in {num(100 * r['worse'], 0)}% of deals and better in {num(100 * r['better'], 0)}%.")
    for _, r in m.iterrows():
        if r["bid"] == 8:
            text.append(f"A bid of 8 makes {pct(r['p_dd'], r['dd_lo'], r['dd_hi'])}% of the time double dummy "
                        f"but {pct(r['p_pimc'], r['pimc_lo'], r['pimc_hi'])}% in PIMC play: the double-dummy "
                        "make-probabilities of the other sections are optimistic for the declarer.")
    return blocks, text, ["make_dd_vs_pimc", "difference_by_level", "difference_histogram"]


_SECTION = {"bid-odds": _bid_odds, "hand-eval": _hand_eval, "bidding-chart": _bidding_chart,
            "five-hearts": lambda t, k: _specials(t, k, "5♥", 5),
            "three-spades": lambda t, k: _specials(t, k, "3♠", -3),
            "trump-and-nt": _trump_and_nt, "lead": _lead, "dd-bias": _dd_bias}


def study_section(key: str, output) -> Section:
    """One study's section: method, what the numbers mean, charts, tables."""
    blocks, meaning, charts = _SECTION[key](output.tables, key)
    sec = Section(key, TITLES[key])
    sec.blocks.append(Text(QUESTIONS[key], "heading"))
    sec.blocks.append(Text("Method. " + METHOD[key]))
    if meaning:
        sec.blocks.append(Text("What the numbers mean. " + " ".join(meaning)))
    n = output.inputs['n']
    if key in PLAY_STUDIES:  # it plays only the first deals of the run
        n = next(iter(output.tables.values())).attrs.get("run", {}).get("n", n)
    resolved = ""
    if key in RESOLVING:  # (a) and (c) re-solve only the first deals of the run
        m = output.tables["counterfactual"].attrs.get("run", {}).get("n")
        if m is not None:
            resolved = f" (a) and (c) re-solve the first {m:,} of them;"
    sec.blocks.append(Text(f"n = {n:,} deals, seed {output.inputs['seed']};{resolved} every estimate is "
                           "followed by its 95% interval in square brackets, clustered by deal.", "note"))
    for name in charts:
        if name in output.figures:
            sec.blocks.append(Chart(f"{key}/{name}", name.replace("_", " ")))
    sec.blocks += blocks
    sec.blocks.append(Text(f"All tables of this study, with every column: {key}/*.csv.", "note"))
    return sec


def _ranges(levels) -> str:
    """``[6, 7, 8, 10]`` -> ``"6-8, 10"``."""
    out, run = [], []
    for lv in sorted(levels):
        if run and lv != run[-1] + 1:
            out.append(run)
            run = []
        run.append(lv)
    if run:
        out.append(run)
    return ", ".join(f"{r[0]}" if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in out)


# --- the cheat sheet --------------------------------------------------------------------------


def cheat_sheet(outputs: dict) -> Section:
    """One page: what to bid, when to bid NT, what the 5H and 3S are worth."""
    from .studies.common import LENGTH_BUCKETS, STRENGTH_BUCKETS

    sec = Section("cheat-sheet", "Cheat sheet: at the table")
    if "bidding-chart" in outputs:
        bt = outputs["bidding-chart"].tables
        tp = "chart_table_play" in bt
        ch = bt["chart_table_play" if tp else "chart"]
        cells = {(str(r["strength"]), str(r["trump_len"])): r for _, r in ch.iterrows()}
        rows = []
        for label, _, _ in reversed(STRENGTH_BUCKETS):
            row = {"count": label}
            for lb, _, _ in LENGTH_BUCKETS:
                r = cells.get((label, lb))
                if r is None:
                    row[f"{lb} trumps"] = "·"
                else:
                    plain = "pass" if r["bid_up_to"] == "pass" else r["bid_up_to"]
                    nt = "-" if r["nt_up_to"] == "pass" else r["nt_up_to"].replace("NT", "")
                    row[f"{lb} trumps"] = f"{plain}{'*' if r['bid_up_to_sure'] == r['bid_up_to'] and plain != 'pass' else ''} / {nt}"
            rows.append(row)
        grid = _frame(rows)
        grid = grid[[c for c in grid.columns if c == "count" or (grid[c] != "·").any()]]
        sec.blocks.append(Text("What to bid: how high to go" + (" (table play)" if tp else " (double dummy)"),
                               "heading"))
        sec.blocks.append(Table("cheat-what-to-bid", "", grid, size=10.5, note=
                                ("Table play: what players who see only their own hand take (the table-play model; "
                                 "double dummy, every card visible, reads about a bid higher). " if tp else
                                 "Double dummy: every card visible, about a bid optimistic for a real table. ")
                                + "Cell: highest plain bid / highest NT bid whose average hand score is positive "
                                "(* = sure: confirmed on a separate half of the deals, its 95% interval there is above 0; - = no NT "
                                "bid pays; · = too few hands). "
                                "count: Kaiser count of your hand (trump A 2 K 1 Q ½, side A 1 K ½, 1 a trump, 5♥ ½, 3♠ 1½, +½); trumps: your longest suit. Only your side's score "
                                "counts (the defenders' is not subtracted): in a contested auction these are the "
                                "limits, not targets."))
    if "trump-and-nt" in outputs:
        tt = outputs["trump-and-nt"].tables
        c = tt["nt_vs_trump"]
        lines = []
        for label, g in (c.groupby("aces", sort=False) if len(c) else []):
            nt = [int(lv) for lv, b in zip(g["level"], g["nt_better"]) if b]
            tr = [int(lv) for lv, b in zip(g["level"], g["trump_better"]) if b]
            r8 = g.iloc[0]
            verdict = (f"bid NT at {_ranges(nt)}" if nt else "") + ("; " if nt and tr else "") + \
                      (f"name trump at {_ranges(tr)}" if tr else "")
            label = {"all": "Any hand", "1 aces": "1 ace"}.get(label, label)
            lines.append(f"{label}: {verdict or 'no clear difference'} (at {r8['level']}: NT minus trump "
                         f"{ci(r8['nt_minus_trump'], r8['lo'], r8['hi'], 1)} points)")
        nb = tt["nt_beats_trump"]
        allr = nb[nb["by"] == "all"]
        head = "When to bid no trump (double dummy)"
        sec.blocks.append(Text(head, "heading"))
        if len(allr):
            a = allr.iloc[0]
            sec.blocks.append(Text(f"NT takes more points than the best trump suit on {pct(a['p'], a['lo'], a['hi'])}% of "
                                   "hands. NT bid against a plain bid at the same level, by aces in your hand:"))
        for line in lines:
            sec.blocks.append(Text(line, "bullet"))
    for key, name, value in (("five-hearts", "5♥", 5), ("three-spades", "3♠", -3)):
        if key not in outputs:
            continue
        from .studies.specials import ANY_OTHER, LIKE

        t = outputs[key].tables
        cf = t["counterfactual"]
        like = cf[(cf["swap"] == LIKE) & (cf["strain"] == "trump by rule")]
        if not len(like):
            continue
        sec.blocks.append(Text(f"The {name}", "heading"))
        words = []
        for role, label in (("you declare", "when you declare"), ("you defend", "when you defend")):
            g = like[(like["role"] == role) & (like["receiver"] == ANY_OTHER)]
            if len(g):
                r = g.iloc[0]
                words.append(f"{signed_ci(r['mean'], r['lo'], r['hi'], 1)} {label}")
        if words:
            sec.blocks.append(Text(f"Holding the {name} is worth {' and '.join(words)} to your side, in points a "
                                   "hand, against it being in another hand (double dummy).", "bullet"))
        g = like[(like["role"] == "you declare") & (like["receiver"] == ANY_OTHER)]
        if len(g) and "tp_mean" in g and _ok(g.iloc[0]["tp_mean"]):
            r = g.iloc[0]
            sec.blocks.append(Text(f"At the table (table play): {signed_ci(r['tp_mean'], r['tp_lo'], r['tp_hi'], 1)} "
                                   "when you declare.", "bullet"))
        g = like[like["role"] == "you declare"]
        parts = [f"{_RECEIVER_WORDS.get(r['receiver'])} {signed_ci(r['mean'], r['lo'], r['hi'], 1)}"
                 for _, r in g.iterrows() if r["receiver"] != ANY_OTHER]
        if parts:
            sec.blocks.append(Text(f"When you declare, against it being with your {'; your '.join(parts)}.", "bullet"))
        ov = t["worth_overall"]
        if len(ov):
            r = ov.iloc[0]
            sec.blocks.append(Text(f"Who takes it in the end: of its own {value:+d} points, your side keeps "
                                   f"{signed_ci(r['mean'], r['lo'], r['hi'], 1)} on average.", "bullet"))
    if "lead" in outputs:
        s = outputs["lead"].tables["summary"]
        r = s[s["strain"] == "trump by rule"]
        if len(r):
            r = r.iloc[0]
            sec.blocks.append(Text("The lead", "heading"))
            sec.blocks.append(Text(f"Being on lead is worth {ci(r['mean'], r['lo'], r['hi'], 2)} points to the "
                                   "declaring side.", "bullet"))
    if len(sec.blocks) == 0:
        sec.blocks.append(Text("The studies behind the cheat sheet (bidding-chart, trump-and-nt, five-hearts, "
                               "three-spades) are not in this report."))
    sec.blocks.append(Text("Double dummy (all cards visible, best play) from random deals; brackets: 95% intervals. "
                           "Scores count the declaring side only.", "note"))
    return sec


def title_section(inputs: dict, keys: list[str]) -> Section:
    sec = Section("title", "What the cards are worth in Kaiser")
    sec.blocks.append(Text("A Monte Carlo report by kaiser-sim", "heading"))
    sec.blocks.append(Text("The questions", "heading"))
    for k in keys:
        sec.blocks.append(Text(QUESTIONS[k], "bullet"))
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
        "estimates count the sampling of this report's deals, not the model's own error (small: see the check)."))
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
                            f"(seed {ho.get('seed')}), by bid", _frame(by_bid),
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
                            "(the same held-out deals)", _frame(srows),
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

    The default is every study of ``STUDIES``; the play studies (``dd-bias``)
    join only when named."""
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
        if key in RESOLVING:
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
    sections = [title_section(inputs, keys), cheat_sheet(outputs)]
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
            if sec.key == "cheat-sheet":
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
                sec = Section(sec.key, sec.title, sec.blocks[:-1] + contents + sec.blocks[-1:])
            if sec.key == "cheat-sheet":  # one page: the largest type that fits
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

"""Study 1, bid odds: how often does a bid make?

For every declarer hand (each seat of each deal on lead, see
:mod:`~kaiser_sim.studies.common`), P(the declaring side's double-dummy
points >= b) for each bid level b of the rules (6..12 in the standard game):

- ``trump by rule``: trump named from the declarer's own hand by
  ``trump_rule`` (default: longest suit, ties by strength);
- ``NT``: no trump;
- ``best in hindsight``: the best of the five strains *after* seeing all
  hands -- an upper bound no declarer can reach, labelled as such.

Broken down by hand strength (:func:`~kaiser_sim.studies.common.strength`,
the printable Kaiser count: the best measure of the hand-eval study), by the
length of the chosen trump suit,
and by whether the declarer holds the 5H.  Probabilities carry Wilson 95%
intervals over the declarer hands of each cell (4 per deal), clustered by
deal: the four seats of a deal are not independent, so the deals are the
independent units (:func:`~kaiser_sim.studies.common.make_rows`,
:func:`kaiser_sim.stats.cluster_proportion_ci`).

Nothing is selected on the data and then reported from it: the bid levels,
methods and breakdown cells are fixed in advance ("best in hindsight" picks
the strain per hand after seeing all hands, and is reported as the upper
bound it is).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .blocks import Table, ci_column, count, frame, pct
from ..runs.results import RunResults
from .common import (definition, DEFAULT_TRUMP_RULE, MIN_CELL, TRUMP_RULE, LENGTH_LEVELS, MAKE_COLUMNS, STRENGTH_LEVELS, STRENGTH_NAME, declarer_frame,
                     integer_axis, levels_of, make_rows, legend, mean_row, new_figure, ordered_colors, rows_frame,
                     run_info, StudyTables, table_play_model, tag, with_model_error)

KEY = "bid-odds"
TITLE = "Bid odds: how often a bid makes"
QUESTION = "How often does each bid make, by hand strength, trump length and the 5♥?"
METHOD = (
    "Every seat of every deal is taken in turn as the declarer (the declarer leads). For each bid b, we "
    "count how often the declaring side's double-dummy points reach b: with trump named from the "
    "declarer's own hand (longest suit, ties by strength), in no trump, and in the best strain chosen "
    "after seeing all the cards (an upper bound no player can reach). Strength is the Kaiser count of the "
    "declarer's hand, the best predictor of the hand-evaluation study rounded to half points: in trump "
    "A 2, K 1, Q ½; in side suits A 1, K ½; 1 for each trump; 5♥ ½; 3♠ 1½; plus ½. It ranks hands roughly "
    "in points but is not a promise of points: on average the declaring side takes about a third of a point "
    "more than the count (more for middling counts), and from 10½ up about 0.7 less (see the "
    "hand-evaluation section).")
#: the parameters of run(), declared (kaiser_sim.studies.params)
PARAMETERS = (TRUMP_RULE, MIN_CELL)
#: the default definition (deals, seed, rules, parameters), which ``kaiser-sim study NAME`` runs;
#: analyses/bid-odds.toml is written from it and PARAMETERS (make analyses; a test keeps them equal)
DEFINITION = definition(KEY, "How often each bid makes, by strength, trump length and the 5H",
                        params={"trump_rule": "longest-strength", "min_cell": 30})

METHODS = {"trump by rule": "trump_pts", "NT": "nt_pts", "best in hindsight (upper bound)": "best_pts"}
#: table-play methods: the table-play model applied to each hand's DD points (column, no trump?)
TABLE_PLAY = {"trump by rule, table play": ("trump_pts", False), "NT, table play": ("nt_pts", True)}


def table_play_rows(model, dd, nt: bool, levels, cluster, band=None, **labels) -> list[dict]:
    """:func:`~kaiser_sim.studies.common.make_rows` under table play: per
    bid, the mean over hands of the model's P(table points >= b) given each
    hand's DD points and count band (``band``, :func:`~kaiser_sim.strategy.table_play.band_index`
    of the hand's count; None: the model's pooled rows), with its 95% interval clustered by deal and widened by
    the model's own error (:func:`~kaiser_sim.studies.common.with_model_error`;
    ``k``: NaN, no count of makes)."""
    from ..strategy.table_play import KEYS, band_key, key_parts, model_se

    dd = np.asarray(dd)
    band = None if band is None else np.asarray(band)
    probs = model.make_prob(dd, nt, levels, band)
    # a hand's value depends only on its (band, DD points): each replicate's mean is the hands' shares over
    # those keys times the replicate's table (not a pass over every hand per replicate)
    share = np.bincount(band_key(dd, band), minlength=KEYS) / max(dd.size, 1)
    grid_dd, grid_band = key_parts()
    se_model = model_se(model, lambda m: share @ m.make_prob(grid_dd, nt, levels, None if band is None else grid_band)
                        ) if len(dd) else []
    rows = []
    for j, b in enumerate(levels):
        m = with_model_error(mean_row(probs[:, j], cluster), se_model[j], cluster)
        rows.append({**labels, "bid": int(b), "k": np.nan, "n": m["n"], "p": m["mean"], "lo": m["lo"], "hi": m["hi"]})
    return rows


def run(run_results: RunResults, rules, trump_rule: str = DEFAULT_TRUMP_RULE, min_cell: int = 30) -> StudyTables:
    """Tables ``make`` (method x bid), ``by_strength``, ``by_trump_length``,
    ``by_five_hearts``; cells with fewer than ``min_cell`` hands are dropped
    from the breakdowns."""
    from ..strategy.table_play import band_index

    results = run_results.frame

    d = declarer_frame(results, rules, trump_rule)
    levels = levels_of(rules)
    rows = []
    deal = d["deal"].to_numpy()
    model, why = table_play_model(rules)
    if model is not None:
        d["band"] = band_index(d["strength"].to_numpy())  # the declaring hand's count band: the model's rows
        for method, (col, nt) in TABLE_PLAY.items():
            rows += table_play_rows(model, d[col], nt, levels, deal, d["band"], method=method)
    for method, col in METHODS.items():
        rows += make_rows(d[col], levels, cluster=deal, method=method)
    make = pd.DataFrame(rows)

    def breakdown(group_col, methods):
        out = []
        for key, g in d.groupby(group_col, observed=True):
            if len(g) < min_cell:
                continue
            for method in methods:
                if method in TABLE_PLAY:
                    col, nt = TABLE_PLAY[method]
                    out += table_play_rows(model, g[col], nt, levels, g["deal"].to_numpy(), g["band"],
                                           **{group_col: key, "method": method})
                else:
                    out += make_rows(g[METHODS[method]], levels, cluster=g["deal"].to_numpy(),
                                     **{group_col: key, "method": method})
        return rows_frame(out, [group_col, "method", *MAKE_COLUMNS])

    tp = list(TABLE_PLAY) if model is not None else []
    by_strength = breakdown("strength_bucket", [*tp, "trump by rule", "NT"])
    by_length = breakdown("length_bucket", [*tp[:1], "trump by rule"])
    d["five_hearts"] = np.where(d["has5h"], "holds 5H", "no 5H")
    by_five = breakdown("five_hearts", [*tp, *METHODS])
    tables = StudyTables({"make": make, "by_strength": by_strength, "by_trump_length": by_length,
                          "by_five_hearts": by_five})
    tables.meta("make").note = (
        f"P(declaring side's points >= bid): table play (the table-play model on each hand's DD "
        f"points; {why or model.describe()}) and double dummy (DD); trump by rule = {trump_rule}; "
        "best in hindsight is an upper bound (strain chosen after seeing all hands); "
        "n = declarer hands (4 per deal); 95% intervals clustered by deal (the 4 seats of a deal are "
        "not independent).")
    tables.meta("by_strength").note = f"strength = {STRENGTH_NAME} of the declarer's hand"
    tables.meta("by_trump_length").note = f"trump length = length of the suit named by rule {trump_rule}"
    tag(tables, run_info(run_results, rules), f"trump rule {trump_rule}")
    for name in tables:
        meta = tables.meta(name)
        meta.footer = meta.footer.replace("double dummy", "table play (PIMC model) and double dummy"
                                          if model is not None else "double dummy")
        meta.extra["table_play"] = why or model.describe()
    return tables


def _curves(ax, df, group_col, label_fmt="{}", colors=None):
    """One line (with its 95% band) per group; ``colors``: ``{group: colour}``
    for ordered groups (:func:`~kaiser_sim.studies.common.ordered_colors`)."""
    groups = list(df.groupby(group_col, observed=True, sort=False))
    if colors:  # ordered levels: the highest first, as the curves lie from top to bottom
        rank = {lv: i for i, lv in enumerate(colors)}
        groups.sort(key=lambda kv: -rank.get(str(kv[0]), -1))
    for key, g in groups:
        dashed = group_col == "method" and "table play" not in str(key) and (df["method"].str.contains("table play")).any()
        line, = ax.plot(g["bid"], 100 * g["p"], marker="o", label=label_fmt.format(key) + (", DD" if dashed else ""),
                        linestyle="--" if dashed else "-", color=(colors or {}).get(str(key)))
        ax.fill_between(g["bid"], 100 * g["lo"], 100 * g["hi"], color=line.get_color(), alpha=0.18, linewidth=0)
    integer_axis(ax.xaxis)


def plot(tables) -> dict:
    make = tables["make"]
    foot = tables.meta("make").footer
    figs = {}
    fig, ax = new_figure("Make probability by bid", "bid (points the declaring side must take)",
                         "P(make), % of declarer hands", foot)
    _curves(ax, make, "method")
    ax.set_ylim(-2, 102)
    legend(ax)
    figs["make_curves"] = fig

    bs = tables["by_strength"]
    tp = bool((bs["method"].astype(str).str.contains("table play")).any()) if len(bs) else False
    measure = "table play (PIMC model)" if tp else "double dummy"
    for method, name in (("trump by rule", "make_by_strength"), ("NT", "make_by_strength_nt")):
        method = f"{method}, table play" if tp else method
        g = bs[bs["method"] == method]
        fig, ax = new_figure(f"Make probability by declarer strength ({method})", "bid",
                        "P(make), %", tables.meta("by_strength").footer, measure=measure)
        _curves(ax, g, "strength_bucket", "{}", ordered_colors(STRENGTH_LEVELS))
        ax.set_ylim(-2, 102)
        legend(ax, title="Kaiser count")
        figs[name] = fig

    bl = tables["by_trump_length"]
    method = "trump by rule, table play" if tp else "trump by rule"
    fig, ax = new_figure(f"Make probability by trump length ({method})", "bid", "P(make), %",
                         tables.meta("by_trump_length").footer, measure=measure)
    g = bl[bl["method"] == method] if len(bl) else bl
    _curves(ax, g, "length_bucket", "{}", ordered_colors(LENGTH_LEVELS))
    ax.set_ylim(-2, 102)
    legend(ax, title="trump length")
    figs["make_by_trump_length"] = fig
    return figs


# --- the report -------------------------------------------------------------------------------


def section(tables) -> tuple[list, list[str], list[str]]:
    """This study's report section, as :mod:`~kaiser_sim.studies.blocks` describes."""
    t, key = tables, KEY
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
                                                                                    "dummy" if tp else ""), frame(rows),
                        f"n = {n:,} declarer hands (4 per deal; intervals clustered by deal); "
                        + ("table play: the table-play model applied to each hand's double-dummy points (appendix); "
                           "the other columns are double dummy, the upper reference; " if tp else "")
                        + "best in hindsight is an upper bound"))

    def pivot(df, row_col, label, method=None, parts=None):
        """P(make) by ``row_col`` and bid; ``parts`` (``[(leading cells, method), ...]``)
        stacks several methods' rows in one table, each column at one precision
        over all of them (a column must not change its decimals between its
        table-play and its double-dummy rows)."""
        out, cells = [], {}
        for lead, m in (parts if parts is not None else [({}, method)]):
            part = df if m is None else df[df["method"] == m]
            for k, g in part.groupby(row_col, observed=True, sort=False):
                row = {**lead, label: str(k), "n": count(g["n"].iloc[0])}
                for _, r in g.iterrows():
                    row[f"bid {r['bid']}"] = len(out)  # filled below, one precision a column
                    cells.setdefault(f"bid {r['bid']}", []).append((len(out), (r["p"], r["lo"], r["hi"])))
                out.append(row)
        for col, items in cells.items():
            for (i, _), text in zip(items, ci_column([c for _, c in items], 0, 100.0)):
                out[i][col] = text
        return frame(out)

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
    five = t.get("by_five_hearts")
    if five is not None and len(five):
        methods = [m for m in (f"trump by rule{play}", "trump by rule") if m in set(five["method"])]
        ftable = pivot(five, "five_hearts", "declarer",
                       parts=[({"measure": "table play" if "table play" in m else "double dummy"}, m) for m in methods])
        ftable["declarer"] = ftable["declarer"].map(lambda d: {"holds 5H": "holds the 5♥", "no 5H": "no 5♥"}.get(d, d))
        blocks.append(Table(f"{key}-by-five-hearts", "P(make) %, trump by rule, by whether the declarer holds the 5♥",
                            ftable, "P(make) in % with its 95% interval, by bid; table play first, then double "
                            "dummy (all four hands visible)" if tp else "P(make) in % with its 95% interval, by bid"))
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

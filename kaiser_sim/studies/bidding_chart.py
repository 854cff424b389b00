"""Study 3, the bidding chart: what to bid, by strength and trump length.

For every declarer hand (each seat of each deal on lead), the declaring
side's hand score of every bid of the rules' ladder, under the rules'
scoring (:func:`kaiser_sim.scoring.score_hands`): made, the raw points
(NT doubled per ``nt_scoring``); failed, minus the bid (NT: minus twice the
bid with ``nt_scoring = double``).  A plain bid is played in the suit the
declarer names by ``trump_rule`` from its own hand; an NT bid in no trump.
Low-NT bids (``low_nt``) are not scored (no low values in the results).

Per cell (strength bucket x trump length): the mean score of each bid with
its 95% interval (table ``expected``), and the chart: the highest plain and
NT bid with a positive mean (``bid_up_to``, ``nt_up_to``), the bid with the
highest mean and the paired difference to the runner-up (is the choice
clear?).  Per bid: the strength at which it makes half the time and where
its expected score crosses zero, with the range where the 95% band
straddles the line.

Intervals: the four declarer hands of a deal are not independent, so every
interval is clustered by deal (:func:`~kaiser_sim.studies.common.mean_row`,
:func:`~kaiser_sim.studies.common.share_row`).

The limits on every hand of the cell: ``bid_up_to`` / ``nt_up_to`` (and
``limit_level``) is the highest plain / NT bid whose mean score is above 0,
``up_to_expected``... its score, ``bid_up_to_sure`` / ``nt_up_to_sure`` the
highest bid up to it whose 95% interval is above 0, and a limit is
``settled`` when its bid's interval is above 0 and the next bid's below
(``why``: :func:`unsettled_reason`).  Each is a test of one bid's sign,
not the largest of several means, so there is no winner's curse to avoid
and no reason to halve the hands (``n`` = the cell's hands, the same as
the ``expected`` table's).

The best bid on different deals: picking the best of many bids and
reporting its mean from the same hands overstates it (the winner's
curse).  ``best_bid`` and ``runner_up`` are therefore chosen on one half
of the deals and measured on the other (:func:`split_halves`: even deal
ids select, odd ones report; all four seats of a deal fall on the same
side): ``expected``/``lo``/``hi`` and ``p_make`` of ``best_bid``, its
``margin`` over the runner-up (a paired per-hand difference) and
``clear`` come from the reporting half (``n_report`` hands; ``n_select``
the hands of the choice).  A cell needs ``min_cell`` hands, and half of
that in each half, to appear.  The tables ``expected``, ``expected_by_strength`` and
``thresholds`` report every bid (no choice) and use all hands.

Caveats: the score counts only the declaring side's own score (what the
defenders take is not subtracted, and passing is not valued); double dummy
is not table play; the declarer's partner is a random hand.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..auction import ladder
from .blocks import Table, Text, ci, count, frame, nt_scoring_words, num, scoring
from .common import (definition, DEFAULT_TRUMP_RULE, MIN_CELL, TRUMP_RULE, LENGTH_BUCKETS, LENGTH_LEVELS, STRENGTH_BUCKETS, STRENGTH_LEVELS,
                     STRENGTH_NAME, declarer_frame, hand_score, legend, new_figure, ordered_colors, rows_frame,
                     run_info, share_row, table_play_model, tag, with_model_error)
from .common import mean_row as _mean_row

KEY = "bidding-chart"
TITLE = "The bidding chart: what to bid"
QUESTION = "What should I bid, by strength and trump length?"
METHOD = (
    "For every declarer hand and every bid of the ladder, the declaring side's hand score under the "
    "rules: made, the points taken (NT doubled); failed, minus the bid (NT: twice). Averaged per cell of "
    "strength x trump length. 'Up to' is the highest bid whose average score is still positive, on all the "
    "cell's hands (n); 'sure' means its 95% interval is above zero. To avoid flattering the winner, the best "
    "bid (the highest average of all the bids) is chosen on half the deals (even-numbered) and its score and "
    "interval are measured on the other half. The defenders' score is not subtracted.")
#: the parameters of run(), declared (kaiser_sim.studies.params)
PARAMETERS = (TRUMP_RULE, MIN_CELL)
#: the default definition (deals, seed, rules, parameters), which ``kaiser-sim study NAME`` runs;
#: analyses/bidding-chart.toml is written from it and PARAMETERS (make analyses; a test keeps them equal)
DEFINITION = definition(KEY, "What to bid by strength and trump length, under the preset's scoring",
                        params={"trump_rule": "longest-strength", "min_cell": 30})


def _bids(rules):
    return [b for b in ladder(rules) if not b.low]


def scores_matrix(d: pd.DataFrame, rules) -> tuple[list[str], np.ndarray]:
    """``(bid texts, (rows, bids) scores)`` for every hand and bid."""
    bids = _bids(rules)
    cols = [hand_score(rules, b.level, b.nt, d["nt_pts" if b.nt else "trump_pts"].to_numpy()) for b in bids]
    return [str(b) for b in bids], np.stack(cols, axis=1)


def crossing(x, y, target: float) -> float:
    """First x where y reaches ``target`` (linear interpolation; NaN if never)."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    hit = np.nonzero(y >= target)[0]
    if hit.size == 0:
        return np.nan
    i = hit[0]
    if i == 0:
        return x[0]
    return x[i - 1] + (target - y[i - 1]) * (x[i] - x[i - 1]) / (y[i] - y[i - 1])


def split_halves(deal_ids) -> tuple[np.ndarray, np.ndarray]:
    """``(select, report)`` boolean masks of rows by deal id: even deals
    select, odd deals report.  Deterministic, and every row of a deal falls
    on the same side, so the two halves share no deal (module doc)."""
    deal = np.asarray(deal_ids, dtype=np.int64)
    select = deal % 2 == 0
    return select, ~select


def _bid_tables(rules, model) -> tuple[np.ndarray, np.ndarray]:
    """``(scores, makes)``, each (DD values, bids): the table-play expected
    hand score and P(make) of every bid for each double-dummy points value
    (:data:`kaiser_sim.strategy.table_play.POINTS`) of its strain."""
    from ..strategy.table_play import POINTS

    bids = _bids(rules)
    sc, made = np.empty((POINTS.size, len(bids))), np.empty((POINTS.size, len(bids)))
    for j, b in enumerate(bids):
        dist = model.dist(POINTS, b.nt)
        sc[:, j] = dist @ hand_score(rules, b.level, b.nt, POINTS).astype(np.float64)
        made[:, j] = dist[:, POINTS >= b.level].sum(axis=1)
    return sc, made


def dd_keys(d: pd.DataFrame, rules) -> np.ndarray:
    """(rows, bids) int8: each hand's double-dummy points in each bid's strain,
    as an index into :data:`kaiser_sim.strategy.table_play.POINTS`."""
    from ..strategy.table_play import POINTS

    trump = (d["trump_pts"].to_numpy(dtype=np.int64) - POINTS[0]).astype(np.int8)
    nt = (d["nt_pts"].to_numpy(dtype=np.int64) - POINTS[0]).astype(np.int8)
    return np.stack([nt if b.nt else trump for b in _bids(rules)], axis=1)


def table_play_scores(d: pd.DataFrame, rules, model) -> tuple[np.ndarray, np.ndarray]:
    """``(scores, make probabilities)``, each (rows, bids): the table-play
    expected hand score and P(make) of every bid for every hand, from its DD
    points through the table-play model (:mod:`kaiser_sim.strategy.table_play`)."""
    keys = dd_keys(d, rules).astype(np.int64)
    sc, made = _bid_tables(rules, model)
    cols = np.arange(keys.shape[1])[None, :]
    return sc[keys, cols], made[keys, cols]


class ModelReplicates:
    """The table-play model's bootstrap replicates (its own error) for the
    chart, held as tables over DD points rather than one value per hand: a
    hand's table-play value depends only on its DD points, so each
    replicate's mean over a group of hands is the group's histogram of DD
    points times the replicate's table.  Memory: (B, 15, bids), whatever
    the number of hands (one array per hand and replicate took 4 GB at
    50,000 deals)."""

    def __init__(self, d: pd.DataFrame, rules, model):
        reps = model.replicates()
        tabs = [_bid_tables(rules, r) for r in reps]
        self.scores = np.stack([t[0] for t in tabs]) if tabs else None  # (B, V, bids)
        self.makes = np.stack([t[1] for t in tabs]) if tabs else None
        self.keys = dd_keys(d, rules)

    def __bool__(self) -> bool:
        return self.scores is not None and self.scores.shape[0] > 1

    def means(self, rows, col: int, minus: int | None = None, of: str = "sc") -> np.ndarray:
        """(B,): each replicate's mean over ``rows`` of bid ``col``'s score
        (``of="sc"``) or P(make) (``"made"``), less bid ``minus``'s score."""
        rows = np.asarray(rows)
        tab = self.scores if of == "sc" else self.makes
        V = tab.shape[1]

        def share(c):
            k = self.keys[rows, c].astype(np.int64)
            return np.bincount(k, minlength=V) / max(k.size, 1)

        m = tab[:, :, col] @ share(col)
        if minus is not None:
            m = m - self.scores[:, :, minus] @ share(minus)
        return m


def run(results, rules, trump_rule: str = DEFAULT_TRUMP_RULE, min_cell: int = 30) -> dict[str, pd.DataFrame]:
    d = declarer_frame(results, trump_rule)
    names, sc = scores_matrix(d, rules)
    bids = _bids(rules)
    levels = np.array([b.level for b in bids])
    is_nt = np.array([b.nt for b in bids])
    raw = np.where(is_nt[None, :], d["nt_pts"].to_numpy()[:, None], d["trump_pts"].to_numpy()[:, None])
    made = raw >= levels[None, :]
    tables = _chart_tables(d, names, sc, made, is_nt, levels, min_cell, trump_rule)
    model, why = table_play_model(rules)
    if model is not None:
        sc_tp, made_tp = table_play_scores(d, rules, model)
        reps = ModelReplicates(d, rules, model) or None
        for key, df in _chart_tables(d, names, sc_tp, made_tp, is_nt, levels, min_cell, trump_rule, reps).items():
            df.attrs["note"] = "TABLE PLAY (the table-play model applied to each hand's DD points): " + df.attrs["note"]
            tables[f"{key}_table_play"] = df
    info = run_info(results, rules)
    tag(tables, info, f"trump rule {trump_rule}; score of the declaring side only")
    for key, df in tables.items():
        if key.endswith("_table_play"):
            df.attrs["footer"] = df.attrs["footer"].replace("double dummy", "table play (PIMC model)")
        df.attrs["table_play"] = why or model.describe()
        df.attrs["scoring"] = scoring(rules)  # the report states the NT scoring beside its NT advice
    return tables


#: the edition's size (``make sample``): a smaller run's cheat sheet points to it for its unsettled cells
EDITION_DEALS = 1_000_000

#: a bid whose expected score is within this of 0 (points) sits on the boundary: no run settles it
BOUNDARY = 0.05


def unsettled_reason(failing) -> str:
    """Why a limit is not settled, from its failing judgements ``[(row,
    deals_only_row), ...]`` (each a bid whose 95% interval should lie above or
    below 0 and reaches it; ``row`` may include the table-play model's own
    error, ``deals_only_row`` does not): ``""`` (settled: nothing fails);
    ``"boundary"`` when a failing bid's expected score is within
    :data:`BOUNDARY` of 0 (more deals would not settle it); ``"model"`` when
    every failing interval is decided by the deals alone and reaches 0 only
    with the table-play model's error added (a model fitted on more played
    deals would settle it); ``"few hands"`` otherwise (a larger run would)."""
    if not failing:
        return ""
    if any(abs(row["mean"]) <= BOUNDARY for row, _ in failing):
        return "boundary"
    if all(d["lo"] > 0 or d["hi"] < 0 for _, d in failing):
        return "model"
    return "few hands"


def _chart_tables(d, names, sc, made, is_nt, levels, min_cell, trump_rule, reps=None) -> dict[str, pd.DataFrame]:
    """The chart, expected, expected_by_strength and thresholds tables of
    one measure: ``sc`` (rows, bids) hand scores and ``made`` (rows, bids)
    make indicators (DD) or probabilities (table play).  ``reps``: for table
    play, the model's bootstrap replicates (:class:`ModelReplicates`): every
    interval then adds the model's own error."""
    deal = d["deal"].to_numpy()

    def mean_row(values, cluster, col=None, rows=None, minus=None, of="sc"):
        # the clustered mean of per-hand values; with replicates, widened by the model's error
        r = _mean_row(values, cluster)
        if reps is None or col is None:
            return r
        return with_model_error(r, float(reps.means(rows, col, minus, of).std(ddof=1)), cluster)

    def _p_row(values, cluster, col=None, rows=None):
        v = np.asarray(values)
        if v.dtype == bool:
            return share_row(v, cluster)
        m = mean_row(v, cluster, col, rows, of="made")
        return {"p": m["mean"], "lo": m["lo"], "hi": m["hi"]}
    selecting, reporting = split_halves(deal)
    half_min = max(1, (min_cell + 1) // 2)

    expected, chart = [], []
    for (sb, lb), idx in d.groupby(["strength_bucket", "length_bucket"], observed=True).indices.items():
        n = len(idx)
        if n < min_cell:
            continue
        # every bid of the cell, on all its rows (no selection); the chart's limits use the same rows
        cell_rows = {}
        for j, name in enumerate(names):
            m = cell_rows[j] = mean_row(sc[idx, j], deal[idx], j, idx)
            p = _p_row(made[idx, j], deal[idx], j, idx)
            expected.append({"strength": sb, "trump_len": lb, "bid": name, "n": n, "expected": m["mean"],
                        "lo": m["lo"], "hi": m["hi"], "p_make": p["p"], "p_lo": p["lo"], "p_hi": p["hi"]})
        # the chart.  The limits test each bid's sign on its own (is its mean above or below 0?), which
        # picks no maximum and so has no winner's curse: they use every hand of the cell.  The best bid is
        # the largest of many means: chosen on the selecting half, measured on the other.
        sel, rep = idx[selecting[idx]], idx[reporting[idx]]
        if len(sel) < half_min or len(rep) < half_min:
            continue
        means = sc[sel].mean(axis=0)
        order = np.argsort(-means, kind="stable")
        best, second = order[0], order[1]
        diff = mean_row(sc[rep, best] - sc[rep, second], deal[rep], best, rep, minus=second)
        m = mean_row(sc[rep, best], deal[rep], best, rep)
        limits = {}
        for nt in (False, True):
            cand = [j for j in range(len(names)) if is_nt[j] == nt]
            pos = [j for j in cand if cell_rows[j]["mean"] > 0]
            up_to = pos[-1] if pos else None
            # 'sure': the highest bid up to the limit whose 95% interval is above 0
            sure = [j for j in cand if up_to is not None and levels[j] <= levels[up_to] and cell_rows[j]["lo"] > 0]
            up = cell_rows[up_to] if up_to is not None else {"mean": np.nan, "lo": np.nan, "hi": np.nan}
            # settled: the limit pays (its interval above 0) and the next bid up loses (interval below 0);
            # for 'pass', the lowest bid loses
            above = [j for j in cand if up_to is None or levels[j] > levels[up_to]]
            pays = up_to is None or up["lo"] > 0
            nxt = cell_rows[above[0]] if above else None
            loses = nxt is None or nxt["hi"] < 0
            # why a limit is not settled: each failing judgement, with its interval from the deals alone
            failing = ([(up, _mean_row(sc[idx, up_to], deal[idx]))] if not pays else []) + \
                ([(nxt, _mean_row(sc[idx, above[0]], deal[idx]))] if not loses else [])
            limits[nt] = (names[up_to] if pos else "pass", names[sure[-1]] if sure else "pass",
                          int(levels[up_to]) if pos else 0, up, bool(pays and loses), unsettled_reason(failing))
        chart.append({"strength": sb, "trump_len": lb, "n": n, "n_select": len(sel), "n_report": len(rep),
                      "bid_up_to": limits[False][0], "bid_up_to_sure": limits[False][1], "limit_level": limits[False][2],
                      "up_to_expected": limits[False][3]["mean"], "up_to_lo": limits[False][3]["lo"],
                      "up_to_hi": limits[False][3]["hi"],
                      "nt_up_to": limits[True][0], "nt_up_to_sure": limits[True][1],
                      "settled": limits[False][4], "nt_settled": limits[True][4],
                      "why": limits[False][5], "nt_why": limits[True][5],
                      "best_bid": names[best], "expected": m["mean"],
                      "lo": m["lo"], "hi": m["hi"], "p_make": float(np.mean(made[rep, best])),
                      "runner_up": names[second], "margin": diff["mean"], "margin_lo": diff["lo"],
                      "margin_hi": diff["hi"], "clear": bool(diff["lo"] > 0)})
    expected = rows_frame(expected, ["strength", "trump_len", "bid", "n", "expected", "lo", "hi", "p_make", "p_lo",
                                "p_hi"])
    chart = rows_frame(chart, ["strength", "trump_len", "n", "n_select", "n_report", "bid_up_to", "bid_up_to_sure",
                               "limit_level", "up_to_expected", "up_to_lo", "up_to_hi", "nt_up_to", "nt_up_to_sure",
                               "settled", "nt_settled", "why", "nt_why",
                               "best_bid", "expected", "lo", "hi", "p_make", "runner_up", "margin", "margin_lo",
                               "margin_hi", "clear"])
    by_strength = []
    for sb, idx in d.groupby("strength_bucket", observed=True).indices.items():
        if len(idx) < min_cell:
            continue
        for j, name in enumerate(names):
            by_strength.append({"strength": sb, "bid": name, **mean_row(sc[idx, j], deal[idx], j, idx)})
    by_strength = rows_frame(by_strength, ["strength", "bid", "n", "mean", "lo", "hi", "sd"])

    # thresholds along the strength axis (steps of 1/2), all trump lengths together
    thr = []
    strength = d["strength"].to_numpy()
    xs = [x for x in np.unique(strength) if (strength == x).sum() >= min_cell]
    for j, name in enumerate(names):
        p, plo, phi, e, elo, ehi = [], [], [], [], [], []
        for x in xs:
            at = strength == x
            at_rows = np.nonzero(at)[0]
            share = _p_row(made[at, j], deal[at], j, at_rows)
            p.append(share["p"]), plo.append(share["lo"]), phi.append(share["hi"])
            m = mean_row(sc[at, j], deal[at], j, at_rows)
            e.append(m["mean"]), elo.append(m["lo"]), ehi.append(m["hi"])
        thr.append({"bid": name, "strength_50pct": crossing(xs, p, 0.5),
                    "strength_50pct_from": crossing(xs, phi, 0.5), "strength_50pct_to": crossing(xs, plo, 0.5),
                    "strength_break_even": crossing(xs, e, 0.0),
                    "break_even_from": crossing(xs, ehi, 0.0), "break_even_to": crossing(xs, elo, 0.0)})
    thresholds = rows_frame(thr, ["bid", "strength_50pct", "strength_50pct_from", "strength_50pct_to",
                                  "strength_break_even", "break_even_from", "break_even_to"])
    chart.attrs["note"] = (f"bid_up_to / nt_up_to = the highest plain / NT bid whose expected hand score is positive "
                           f"('_sure': its 95% interval is above 0; 'pass': none); trump by {trump_rule}; strength = "
                           f"{STRENGTH_NAME}.  best_bid = highest mean score: a made bid scores the raw points "
                           "whatever the level, so the lowest bid that is allowed is always at least as good, and the "
                           "useful answer in a contested auction is how high to go (bid_up_to).  clear = the 95% "
                           "interval of best_bid's margin over the runner-up excludes 0.  The limits (bid_up_to, nt_up_to, "
                           "limit_level, up_to_expected, the '_sure' judgements, settled) use all the cell's hands "
                           "(n): each tests one bid's sign, so no winner's curse.  The best bid is the largest of "
                           "many means, so it is chosen on one half and measured on the other (no winner's curse): "
                           "best_bid and runner_up are chosen on the even-numbered deals (n_select hands); "
                           "expected, lo, hi, p_make, margin and clear come from the odd-numbered deals (n_report "
                           "hands).  Intervals clustered by deal")
    expected.attrs["note"] = "every bid of each cell on all its hands; 95% intervals clustered by deal"
    thresholds.attrs["note"] = (f"strength ({STRENGTH_NAME}) at which the bid makes 50% of the time / its "
                                "expected score crosses 0, interpolated between count values (steps of 1/2); "
                                "from/to: where the upper / lower 95% band (clustered by deal) crosses (NaN: never "
                                "within the data); all hands")
    by_strength.attrs["note"] = "expected hand score of every bid by strength, all trump lengths; clustered by deal"
    return {"chart": chart, "expected": expected, "expected_by_strength": by_strength, "thresholds": thresholds}


#: the mark after an unsettled limit, by :func:`unsettled_reason`
UNSETTLED_MARKS = {"": "", "few hands": "?", "boundary": "≈", "model": "*"}
UNSETTLED_WORDS = ("? = not settled for want of hands: the 95% intervals do not show that bid paying and the "
                   "next one up losing, so a larger run may move it by a level; "
                   "≈ = on the boundary: a bid involved scores within ±0.05 points of 0 on average, so no run "
                   "settles it (either level is as good); * = settled by the deals but not by the table-play "
                   "model's own error (a model fitted on more played deals would settle it)")


def limit_mark(row, nt: bool = False) -> str:
    """The mark of a chart row's plain (or NT) limit: '' when settled, else
    by :data:`UNSETTLED_MARKS` (a chart without reasons: '?')."""
    if bool(row["nt_settled" if nt else "settled"]):
        return ""
    return UNSETTLED_MARKS.get(str(row.get("nt_why" if nt else "why", "few hands") or "few hands"), "?")


def settled_share(chart) -> tuple[int, int]:
    """``(settled, limits)``: the chart's settled limits, plain and NT, of its filled cells."""
    if chart is None or len(chart) == 0:
        return 0, 0
    return int(chart["settled"].astype(bool).sum() + chart["nt_settled"].astype(bool).sum()), 2 * len(chart)


def _grid_figure(chart, title: str, measure: str):
    """The chart as a grid of cells (count band x trump length), each cell
    coloured by its highest plain bid (one colour a level) and labelled
    with its plain and NT limits; vector patches (no image)."""
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib import colormaps

    foot = (chart.attrs.get("footer", "") + f". Cell: highest plain bid and highest NT bid whose expected hand score "
            f"(declaring side, {measure}) is positive, on the cell's n hands; ?, ≈, * = "
            "not settled (see the cheat sheet)")
    rows = list(STRENGTH_LEVELS)
    cols = list(LENGTH_LEVELS)
    grid = np.full((len(rows), len(cols)), np.nan)
    fig, ax = new_figure(title, "length of the trump suit (longest suit)", "Kaiser count (see the note)", foot,
                         figsize=(8, 6), intervals=False)
    ax.grid(False)
    levels = np.arange(5, 13)  # 5 = pass, 6..12 the bids
    cmap = ListedColormap(colormaps["YlGn"](np.linspace(0.08, 0.92, len(levels))))
    norm = BoundaryNorm(np.append(levels, 13) - 0.5, cmap.N)
    for _, r in chart.iterrows():
        i, j = rows.index(str(r["strength"])), cols.index(str(r["trump_len"]))
        grid[i, j] = r["limit_level"]
        plain = ("pass" if r["bid_up_to"] == "pass" else f"up to {r['bid_up_to']}")
        plain += f" {limit_mark(r)}".rstrip()
        nt = f"NT: {r['nt_up_to']} {limit_mark(r, True)}".rstrip()
        ax.text(j, i, f"{plain}\n{nt}\nn={r['n']:,}", ha="center",
                va="center", fontsize=8, color="white" if r["limit_level"] >= 10 else "black")
    mesh = ax.pcolormesh(np.arange(len(cols) + 1) - 0.5, np.arange(len(rows) + 1) - 0.5,
                         np.ma.masked_invalid(grid), cmap=cmap, norm=norm, edgecolors="white", linewidth=1.5)
    ax.set_xlim(-0.5, len(cols) - 0.5)
    ax.set_ylim(-0.5, len(rows) - 0.5)
    ax.set_xticks(range(len(cols)), cols)
    ax.set_yticks(range(len(rows)), rows)
    bar = fig.colorbar(mesh, ax=ax, ticks=levels, label="highest plain bid with positive expected score (5 = pass)")
    bar.solids.set_rasterized(False)
    return fig


def plot(tables) -> dict:
    chart = tables["chart"]
    foot = chart.attrs.get("footer", "")
    figs = {}
    if "chart_table_play" in tables:
        figs["what_to_bid"] = _grid_figure(tables["chart_table_play"], "What to bid at the table: the highest bid with "
                                           "a positive expected score", "table play")
        figs["what_to_bid_dd"] = _grid_figure(chart, "What to bid, double dummy (the upper reference)",
                                              "double dummy")
    else:
        figs["what_to_bid"] = _grid_figure(chart, "What to bid: the highest bid with a positive expected score",
                                           "double dummy")

    tp = "expected_by_strength_table_play" in tables
    ex = tables["expected_by_strength_table_play" if tp else "expected_by_strength"]
    fig, ax = new_figure(f"Expected hand score by bid and strength ({'table play' if tp else 'double dummy'})", "bid",
                         "expected score of the declaring side (points)", ex.attrs.get("footer", foot))
    order = list(dict.fromkeys(ex["bid"]))
    colors = ordered_colors(STRENGTH_LEVELS)
    rank = {lv: i for i, lv in enumerate(STRENGTH_LEVELS)}
    groups = sorted(ex.groupby("strength", observed=True), key=lambda kv: -rank.get(str(kv[0]), -1))
    for sb, g in groups:  # strongest first, as the lines lie from top to bottom
        g = g.set_index("bid").reindex(order)
        line, = ax.plot(range(len(order)), g["mean"], marker="o", markersize=3, label=str(sb), color=colors.get(str(sb)))
        ax.fill_between(range(len(order)), g["lo"], g["hi"], color=line.get_color(), alpha=0.15, linewidth=0)
    ax.set_xticks(range(len(order)), order, rotation=60, fontsize=8)
    ax.axhline(0, color="0.5", linewidth=0.8)
    legend(ax, title="Kaiser count")
    figs["expected_by_bid"] = fig
    return figs


# --- the report -------------------------------------------------------------------------------


def _nt_words(ch) -> str:
    """``"; NT scoring under these rules: ..."`` (the NT limits depend on it)."""
    words = nt_scoring_words(ch.attrs.get("scoring"))
    return f"; {words.rstrip('.')}" if words else ""


def _chart_rows(ch) -> pd.DataFrame:
    rows = []
    for _, r in ch.iterrows():
        # no bid pays (plain and NT limits both 'pass'): the best bid is to pass, whatever
        # the least-losing bid scored (the study's CSV keeps it as best_bid)
        passes = r["bid_up_to"] == "pass" and r["nt_up_to"] == "pass"
        rows.append({"count": str(r["strength"]), "trumps": str(r["trump_len"]), "n": count(r["n"]),
                     "bid up to": r["bid_up_to"], "sure up to": r["bid_up_to_sure"], "NT up to": r["nt_up_to"],
                     "best bid": "pass" if passes else r["best_bid"], "its n": count(r["n_report"]),
                     "its score": "-" if passes else ci(r["expected"], r["lo"], r["hi"], 2),
                     "P(make) %": "-" if passes else num(100 * r["p_make"], 0)})
    return frame(rows)


def section(tables) -> tuple[list, list[str], list[str]]:
    """This study's report section, as :mod:`~kaiser_sim.studies.blocks` describes."""
    t, key = tables, KEY
    tp = "chart_table_play" in t
    ch = t["chart_table_play" if tp else "chart"]
    th = t["thresholds_table_play" if tp else "thresholds"]
    trows = [{"bid": r["bid"], "count for 50% makes": ci(r["strength_50pct"], r["strength_50pct_from"], r["strength_50pct_to"], 1),
              "count for break-even": ci(r["strength_break_even"], r["break_even_from"], r["break_even_to"], 1)}
             for _, r in th.iterrows()]
    blocks = [Table(f"{key}-chart", "How high to bid, by strength and trump length" + (" (table play)" if tp else ""),
                    _chart_rows(ch),
                    "bid/NT up to: highest bid with a positive expected score on the cell's n hands; sure: the highest "
                    "bid up to it whose 95% interval is above 0; best bid: highest expected score on the "
                    "even-numbered deals, with its score, interval and P(make) measured on the odd-numbered deals "
                    "(its n: their hands), so that choosing the best of many does not flatter it; pass: no bid, "
                    "plain or NT, has a positive expected score"
                    + ("; table play: each hand's double-dummy points through the table-play model (appendix)"
                       if tp else "") + _nt_words(ch)),
              Table(f"{key}-thresholds", "Strength needed for each bid (all trump lengths)" + (", table play" if tp else ""),
                    frame(trows),
                    "interpolated between counts (steps of ½); in brackets where the 95% band crosses; - never in the data")]
    if tp:
        blocks.append(Table(f"{key}-chart-dd", "How high to bid, double dummy (the upper reference)",
                            _chart_rows(t["chart"]), "the same chart with every card visible and best play"
                            + _nt_words(t["chart"])))
    text = ["A made bid scores the points taken whatever the level, so the cheapest allowed bid is always at "
            "least as good as a higher one: the chart answers how high you can go when the auction pushes "
            "you. Bid up to the level shown; beyond it the average hand loses points."]
    if tp:
        text.append("The chart is in table play (players who see only their own hand); the double-dummy chart, "
                    "with every card visible, is the upper reference and reads about a bid higher.")
    return blocks, text, ["what_to_bid", "what_to_bid_dd", "expected_by_bid"]


#: place of this study's lines on the cheat sheet (smaller first)
CHEAT_SHEET_ORDER = 10


def cheat_sheet(tables) -> list:
    """The cheat sheet's 'what to bid' grid: the highest plain and NT bid by
    count and trump length."""
    bt = tables
    tp = "chart_table_play" in bt
    ch = bt["chart_table_play" if tp else "chart"]
    cells = {(str(r["strength"]), str(r["trump_len"])): r for _, r in ch.iterrows()}
    settled, limits = settled_share(ch)
    share = f"{100 * settled / limits:.0f}%" if limits else "none filled"
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
                row[f"{lb} trumps"] = f"{plain}{limit_mark(r)} / {nt}{limit_mark(r, True)}"
        rows.append(row)
    grid = frame(rows)
    grid = grid[[c for c in grid.columns if c == "count" or (grid[c] != "·").any()]]
    return [Text("What to bid: how high to go" + (" (table play)" if tp else " (double dummy)"), "heading"),
            Table("cheat-what-to-bid", "", grid, size=10.5, note=
                  ("Table play: what players who see only their own hand take (the table-play model; "
                   "double dummy, every card visible, reads about a bid higher). " if tp else
                   "Double dummy: every card visible, about a bid optimistic for a real table. ")
                  + "Cell: highest plain bid / highest NT bid whose average hand score is positive "
                  "(- = no NT bid pays; · = too few hands). " + (nt_scoring_words(ch.attrs.get("scoring")) + " ")
                  + f"Settled: {settled}/{limits} limits ({share}). " + UNSETTLED_WORDS
                  + (" (the edition, reports/sample/, is made from a million deals: make sample). "
                     if ch.attrs.get("run", {}).get("n", 0) < EDITION_DEALS else ". ")
                  + "count: Kaiser count of your hand (trump A 2 K 1 Q ½, side A 1 K ½, 1 a trump, 5♥ ½, 3♠ 1½, +½); trumps: your longest suit. Only your side's score "
                  "counts (the defenders' is not subtracted): in a contested auction these are the "
                  "limits, not targets.")]

"""Study 3, the bidding chart: what to bid, by strength and trump length.

For every declarer hand (each seat of each deal on lead), the declaring
side's hand score of every bid of the rules' ladder, under the rules'
scoring (:func:`kaiser_sim.scoring.score_hands`): made, the raw points
(NT doubled per ``nt_scoring``); failed, minus the bid (NT: minus twice the
bid with ``nt_scoring = double``).  A plain bid is played in the suit the
declarer names by ``trump_rule`` from its own hand; an NT bid in no trump.
Low-NT bids (``low_nt``) are not scored (no low values in the results).

Per cell (strength bucket x trump length): the mean score of each bid with
its 95% interval, the bid with the highest mean, and the paired difference
to the runner-up (is the choice clear?).  Per bid: the strength at which it
makes half the time and where its expected score crosses zero, with the
range where the 95% band straddles the line.

Caveats: the score counts only the declaring side's own score (what the
defenders take is not subtracted, and passing is not valued); double dummy
is not table play; the declarer's partner is a random hand.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..auction import ladder
from .common import (DEFAULT_TRUMP_RULE, LENGTH_BUCKETS, STRENGTH_BUCKETS, STRENGTH_NAME, declarer_frame,
                     hand_score, mean_row, legend, new_figure, rows_frame, run_info, tag)
from ..stats import wilson_interval


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


def run(results, rules, trump_rule: str = DEFAULT_TRUMP_RULE, min_cell: int = 30) -> dict[str, pd.DataFrame]:
    d = declarer_frame(results, trump_rule)
    names, sc = scores_matrix(d, rules)
    bids = _bids(rules)
    levels = np.array([b.level for b in bids])
    is_nt = np.array([b.nt for b in bids])
    raw = np.where(is_nt[None, :], d["nt_pts"].to_numpy()[:, None], d["trump_pts"].to_numpy()[:, None])
    made = raw >= levels[None, :]

    expected, chart = [], []
    for (sb, lb), idx in d.groupby(["strength_bucket", "length_bucket"], observed=True).indices.items():
        n = len(idx)
        if n < min_cell:
            continue
        means = sc[idx].mean(axis=0)
        for j, name in enumerate(names):
            m = mean_row(sc[idx, j])
            k = int(made[idx, j].sum())
            plo, phi = wilson_interval(k, n)
            expected.append({"strength": sb, "trump_len": lb, "bid": name, "n": n, "expected": m["mean"],
                             "lo": m["lo"], "hi": m["hi"], "p_make": k / n, "p_lo": plo, "p_hi": phi})
        order = np.argsort(-means, kind="stable")
        best, second = order[0], order[1]
        diff = mean_row(sc[idx, best] - sc[idx, second])
        m = mean_row(sc[idx, best])
        with np.errstate(invalid="ignore", divide="ignore"):
            se = sc[idx].std(axis=0, ddof=1) / np.sqrt(n) if n > 1 else np.full(len(names), np.nan)
        limits = {}
        for nt in (False, True):
            cand = [j for j in range(len(names)) if is_nt[j] == nt]
            pos = [j for j in cand if means[j] > 0]
            sure = [j for j in cand if means[j] - 1.96 * se[j] > 0]
            limits[nt] = (names[pos[-1]] if pos else "pass", names[sure[-1]] if sure else "pass",
                          int(levels[pos[-1]]) if pos else 0)
        chart.append({"strength": sb, "trump_len": lb, "n": n,
                      "bid_up_to": limits[False][0], "bid_up_to_sure": limits[False][1], "limit_level": limits[False][2],
                      "nt_up_to": limits[True][0], "nt_up_to_sure": limits[True][1],
                      "best_bid": names[best], "expected": m["mean"],
                      "lo": m["lo"], "hi": m["hi"], "p_make": made[idx, best].mean(),
                      "runner_up": names[second], "margin": diff["mean"], "margin_lo": diff["lo"],
                      "margin_hi": diff["hi"], "clear": bool(diff["lo"] > 0)})
    expected = rows_frame(expected, ["strength", "trump_len", "bid", "n", "expected", "lo", "hi", "p_make", "p_lo",
                                     "p_hi"])
    chart = rows_frame(chart, ["strength", "trump_len", "n", "bid_up_to", "bid_up_to_sure", "limit_level",
                               "nt_up_to", "nt_up_to_sure", "best_bid", "expected", "lo", "hi", "p_make",
                               "runner_up", "margin", "margin_lo", "margin_hi", "clear"])
    by_strength = []
    for sb, idx in d.groupby("strength_bucket", observed=True).indices.items():
        if len(idx) < min_cell:
            continue
        for j, name in enumerate(names):
            by_strength.append({"strength": sb, "bid": name, **mean_row(sc[idx, j])})
    by_strength = rows_frame(by_strength, ["strength", "bid", "n", "mean", "lo", "hi", "sd"])

    # thresholds along the strength axis (steps of 1/2), all trump lengths together
    thr = []
    strength = d["strength"].to_numpy()
    xs = [x for x in np.unique(strength) if (strength == x).sum() >= min_cell]
    for j, name in enumerate(names):
        p, plo, phi, e, elo, ehi = [], [], [], [], [], []
        for x in xs:
            sel = strength == x
            k, n = int(made[sel, j].sum()), int(sel.sum())
            lo, hi = wilson_interval(k, n)
            p.append(k / n), plo.append(lo), phi.append(hi)
            m = mean_row(sc[sel, j])
            e.append(m["mean"]), elo.append(m["lo"]), ehi.append(m["hi"])
        thr.append({"bid": name, "strength_50pct": crossing(xs, p, 0.5),
                    "strength_50pct_from": crossing(xs, phi, 0.5), "strength_50pct_to": crossing(xs, plo, 0.5),
                    "strength_break_even": crossing(xs, e, 0.0),
                    "break_even_from": crossing(xs, ehi, 0.0), "break_even_to": crossing(xs, elo, 0.0)})
    thresholds = pd.DataFrame(thr)
    chart.attrs["note"] = (f"bid_up_to / nt_up_to = the highest plain / NT bid whose expected hand score is positive "
                           f"('_sure': its 95% interval is above 0; 'pass': none); trump by {trump_rule}; strength = "
                           f"{STRENGTH_NAME}.  best_bid = highest mean score: a made bid scores the raw points "
                           "whatever the level, so the lowest bid that is allowed is always at least as good, and the "
                           "useful answer in a contested auction is how high to go (bid_up_to).  clear = the 95% "
                           "interval of best_bid's margin over the runner-up excludes 0")
    thresholds.attrs["note"] = (f"strength ({STRENGTH_NAME}) at which the bid makes 50% of the time / its "
                                "expected score crosses 0, interpolated between count values (steps of 1/2); "
                                "from/to: where the upper / lower 95% band crosses (NaN: never within the data)")
    tables = {"chart": chart, "expected": expected, "expected_by_strength": by_strength, "thresholds": thresholds}
    return tag(tables, run_info(results, rules), f"trump rule {trump_rule}; score of the declaring side only")


def plot(tables) -> dict:
    chart = tables["chart"]
    foot = chart.attrs.get("footer", "")
    rows = [b[0] for b in STRENGTH_BUCKETS]
    cols = [b[0] for b in LENGTH_BUCKETS]
    grid = np.full((len(rows), len(cols)), np.nan)
    fig, ax = new_figure("What to bid: the highest bid with a positive expected score",
                         "length of the trump suit (longest suit)", "Kaiser count (see the note)", foot,
                         figsize=(8, 7))
    ax.grid(False)
    for _, r in chart.iterrows():
        i, j = rows.index(str(r["strength"])), cols.index(str(r["trump_len"]))
        grid[i, j] = r["limit_level"]
        plain = "pass" if r["bid_up_to"] == "pass" else f"up to {r['bid_up_to']}"
        ax.text(j, i, f"{plain}\nNT: {r['nt_up_to']}\nn={r['n']:,}", ha="center", va="center", fontsize=8)
    im = ax.imshow(grid, origin="lower", cmap="YlGn", vmin=5, vmax=12, aspect="auto")
    ax.set_xticks(range(len(cols)), cols)
    ax.set_yticks(range(len(rows)), rows)
    fig.colorbar(im, ax=ax, label="highest plain bid with positive expected score (5 = pass)")
    fig.text(0.01, 0.04, "cell: highest plain bid and highest NT bid whose expected hand score (declaring side, "
             "double dummy) is positive; n = declarer hands", fontsize=7, color="0.35")
    figs = {"what_to_bid": fig}

    ex = tables["expected_by_strength"]
    fig, ax = new_figure("Expected hand score by bid and strength (all trump lengths)", "bid",
                         "expected score of the declaring side (points)", foot)
    order = list(dict.fromkeys(ex["bid"]))
    for sb, g in ex.groupby("strength", observed=True):
        g = g.set_index("bid").reindex(order)
        line, = ax.plot(range(len(order)), g["mean"], marker="o", markersize=3, label=f"count {sb}")
        ax.fill_between(range(len(order)), g["lo"], g["hi"], color=line.get_color(), alpha=0.18, linewidth=0)
    ax.set_xticks(range(len(order)), order, rotation=60, fontsize=8)
    ax.axhline(0, color="0.5", linewidth=0.8)
    legend(ax, fontsize=7, ncol=3)
    figs["expected_by_bid"] = fig
    return figs

"""Study 6, trump and no trump.

(1) How often each rule for naming trump from the declarer's own hand
(:data:`~kaiser_sim.studies.common.TRUMP_RULES`: longest; strongest;
longest with ties by strength) picks the double-dummy best trump suit (a
tie with the best counts as a pick) and how many points it loses against
that hindsight choice.  (2) When no trump beats the best trump suit
(strictly more points), by aces held, the longest suit and the shape.
(3) The expected hand score of an NT bid against a plain bid at the same
level played in the trump named by ``trump_rule``, under the rules' NT
scoring (paired difference per hand, by aces held).

Every row is a declarer hand, four per deal; the four seats of a deal are
not independent, so every interval is clustered by deal (shares:
:func:`~kaiser_sim.studies.common.share_row`, means and paired differences:
:func:`~kaiser_sim.studies.common.mean_row`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..auction import ladder
from .common import (DEFAULT_TRUMP_RULE, TRUMP_RULES, declarer_frame, hand_score, legend, mean_row, new_figure,
                     rows_frame, share_row, run_info, tag, trump_by_rule)


def _shape(d):
    lens = np.sort(d[["len_S", "len_H", "len_D", "len_C"]].to_numpy(), axis=1)[:, ::-1]
    return pd.Series(["-".join(map(str, r)) for r in lens], index=d.index)


def run(results, rules, trump_rule: str = DEFAULT_TRUMP_RULE, min_cell: int = 30) -> dict[str, pd.DataFrame]:
    d = declarer_frame(results, trump_rule)
    hands = d["hand"].to_numpy(dtype=np.uint64)
    pts4 = d[["pts_S", "pts_H", "pts_D", "pts_C"]].to_numpy()
    best = d["best_suit_pts"].to_numpy()
    idx = np.arange(len(d))
    deal = d["deal"].to_numpy()
    rows = []
    for rule in TRUMP_RULES:
        t = trump_by_rule(hands, rule)
        got = pts4[idx, t]
        pick = share_row(got == best, deal)
        loss = mean_row(best - got, deal)
        rows.append({"rule": rule, "n": len(d), "picks_best": pick["p"], "picks_lo": pick["lo"], "picks_hi": pick["hi"],
                     "loss": loss["mean"], "loss_lo": loss["lo"], "loss_hi": loss["hi"], "mean_points": got.mean()})
    rules_t = pd.DataFrame(rows)

    nt_better = d["nt_pts"].to_numpy() > best
    d["longest"] = d[["len_S", "len_H", "len_D", "len_C"]].max(axis=1)
    d["shape"] = _shape(d)
    parts = []
    for col in ("aces", "longest", "shape"):
        for key, g in d.groupby(col):
            if len(g) < min_cell:
                continue
            parts.append({"by": col, "value": str(key), **share_row(nt_better[g.index], deal[g.index]),
                          "mean_nt_minus_best_trump": (g["nt_pts"] - g["best_suit_pts"]).mean()})
    nt_beats = pd.DataFrame([{"by": "all", "value": "all", **share_row(nt_better, deal),
                              "mean_nt_minus_best_trump": (d["nt_pts"] - d["best_suit_pts"]).mean()}] + parts)

    comp = []
    levels = sorted({b.level for b in ladder(rules) if b.nt and not b.low})
    groups = [("all", np.ones(len(d), dtype=bool))] + [
        (f"{a} aces", (d["aces"] == a).to_numpy()) for a in range(5)]
    for level in levels:
        s_nt = hand_score(rules, level, True, d["nt_pts"].to_numpy())
        s_tr = hand_score(rules, level, False, d["trump_pts"].to_numpy())
        for label, sel in groups:
            if sel.sum() < min_cell:
                continue
            diff = mean_row(s_nt[sel] - s_tr[sel], deal[sel])
            comp.append({"level": level, "aces": label, "n": int(sel.sum()), "expected_nt": s_nt[sel].mean(),
                         "expected_trump": s_tr[sel].mean(), "nt_minus_trump": diff["mean"], "lo": diff["lo"],
                         "hi": diff["hi"], "nt_better": bool(diff["lo"] > 0), "trump_better": bool(diff["hi"] < 0)})
    comp = rows_frame(comp, ["level", "aces", "n", "expected_nt", "expected_trump", "nt_minus_trump", "lo", "hi",
                             "nt_better", "trump_better"])
    rules_t.attrs["note"] = ("picks_best: the rule's suit scores as many DD points as the best suit in hindsight; "
                             "loss: mean points given up against that best suit; 95% intervals clustered by deal")
    nt_beats.attrs["note"] = ("share of declarer hands where NT scores strictly more DD points than the best trump suit; "
                              "95% intervals clustered by deal")
    comp.attrs["note"] = (f"expected hand score of the declaring side, NT bid vs plain bid at the same level in the "
                          f"trump named by {trump_rule}; NT scoring '{rules.nt_scoring}'; paired difference per hand, 95% interval clustered by deal")
    tables = {"trump_rules": rules_t, "nt_beats_trump": nt_beats, "nt_vs_trump": comp}
    return tag(tables, run_info(results, rules), f"trump rule {trump_rule}")


def plot(tables) -> dict:
    figs = {}
    r = tables["trump_rules"]
    foot = r.attrs.get("footer", "")
    fig, ax = new_figure("How often a trump rule names the double-dummy best suit", "rule for naming trump",
                         "picks the best suit, % of declarer hands", foot)
    x = np.arange(len(r))
    ax.bar(x, 100 * r["picks_best"], yerr=[100 * (r["picks_best"] - r["picks_lo"]), 100 * (r["picks_hi"] - r["picks_best"])],
           capsize=5, color="tab:blue")
    for i, row in r.iterrows():
        ax.text(i, 3, f"loses {row['loss']:.2f} pts", ha="center", color="white", fontsize=9)
    ax.set_xticks(x, r["rule"])
    figs["trump_rules"] = fig

    nb = tables["nt_beats_trump"]
    fig, ax = new_figure("When no trump beats the best trump suit", "aces held by the declarer",
                         "NT takes more points, % of declarer hands", foot)
    a = nb[nb["by"] == "aces"]
    ax.errorbar(a["value"].astype(int), 100 * a["p"], yerr=[100 * (a["p"] - a["lo"]), 100 * (a["hi"] - a["p"])],
                fmt="o-", capsize=4)
    figs["nt_beats_by_aces"] = fig

    c = tables["nt_vs_trump"]
    fig, ax = new_figure("NT bid minus trump bid at the same level: expected score", "bid level",
                         "E[score NT] - E[score trump], points", foot)
    for label, g in c.groupby("aces", sort=False):
        ax.errorbar(g["level"], g["nt_minus_trump"], yerr=[g["nt_minus_trump"] - g["lo"], g["hi"] - g["nt_minus_trump"]],
                    fmt="o-", capsize=3, label=label, markersize=4)
    ax.axhline(0, color="0.5", linewidth=0.8)
    legend(ax, fontsize=8, ncol=2)
    figs["nt_vs_trump"] = fig
    return figs

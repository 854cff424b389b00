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
from .blocks import Table, Text, ci, count, frame, nt_scoring_words, num, pct, ranges, scoring
from ..runs.results import RunResults
from .common import (DEFAULT_TRUMP_RULE, MIN_CELL, TRUMP_RULE, TRUMP_RULES, definition, declarer_frame, hand_score, integer_axis, legend, mean_row,
                     new_figure, ordered_colors, rows_frame, share_row, run_info, StudyTables, TableMeta, table_play_model, tag, trump_by_rule,
                     with_model_error)

KEY = "trump-and-nt"
TITLE = "Naming trump, and when no trump pays"
QUESTION = "Which suit to name as trump, and when does no trump pay?"
METHOD = (
    "(1) How often a rule for naming trump from your own hand picks the suit that is best double dummy, "
    "and how many points it gives away. (2) How often no trump takes strictly more points than the best "
    "trump suit. (3) The expected score of an NT bid minus a plain bid at the same level (paired on the "
    "same hands), under the rules' NT scoring.")
#: the parameters of run(), declared (kaiser_sim.studies.params)
PARAMETERS = (TRUMP_RULE, MIN_CELL)
#: the default definition (deals, seed, rules, parameters), which ``kaiser-sim study NAME`` runs;
#: analyses/trump-and-nt.toml is written from it and PARAMETERS (make analyses; a test keeps them equal)
DEFINITION = definition(KEY, "Naming trump, and when no trump pays",
                        params={"trump_rule": "longest-strength", "min_cell": 30})


def _shape(d):
    lens = np.sort(d[["len_S", "len_H", "len_D", "len_C"]].to_numpy(), axis=1)[:, ::-1]
    return pd.Series(["-".join(map(str, r)) for r in lens], index=d.index)


def _value_scores(rules, level: int, keys, nt: bool, model) -> np.ndarray:
    """The table-play expected hand score of a bid of ``level`` (NT or not)
    for each (count band, double-dummy value) key of ``keys``
    (:func:`kaiser_sim.strategy.table_play.band_key`; ``model``: the
    table-play model or one of its replicates)."""
    from ..strategy.table_play import POINTS, key_parts

    dd, band = key_parts(keys)
    return model.dist(dd, nt, band) @ hand_score(rules, level, nt, POINTS).astype(np.float64)


def _nt_vs_trump(d, rules, levels, groups, min_cell: int, deal, model=None) -> pd.DataFrame:
    """NT bid minus plain bid at each level, by group of hands (paired per
    hand, clustered by deal): double dummy, or with ``model`` in table play
    (each hand's DD points through the table-play model), the intervals
    widened by the model's own error (its bootstrap replicates)."""
    groups = [(label, sel) for label, sel in groups if sel.sum() >= min_cell]
    nt_pts, tr_pts = d["nt_pts"].to_numpy(), d["trump_pts"].to_numpy()
    if model is not None:
        # a hand's table-play score depends only on its (count band, DD points) (a handful of values): scores are computed
        # per value and looked up; a replicate's group mean comes from the group's counts of (NT, trump)
        # value pairs, so a run of millions of hands costs no more than a small one per replicate
        from ..strategy.table_play import band_index, band_key

        band = band_index(d["strength"].to_numpy())  # the declaring hand's count band: the model's rows
        nt_vals, nt_at = np.unique(band_key(nt_pts, band), return_inverse=True)
        tr_vals, tr_at = np.unique(band_key(tr_pts, band), return_inverse=True)
        pairs = nt_at * len(tr_vals) + tr_at
        counts = [np.bincount(pairs[sel], minlength=len(nt_vals) * len(tr_vals)).reshape(len(nt_vals), -1)
                  for _, sel in groups]
        reps = model.replicates()
    comp = []
    for level in levels:
        if model is None:
            s_nt, s_tr = hand_score(rules, level, True, nt_pts), hand_score(rules, level, False, tr_pts)
            rep_means = np.zeros((0, len(groups)))
        else:
            e_nt, e_tr = _value_scores(rules, level, nt_vals, True, model), _value_scores(rules, level, tr_vals,
                                                                                          False, model)
            s_nt, s_tr = e_nt[nt_at], e_tr[tr_at]
            rep_means = np.array([[(c * (_value_scores(rules, level, nt_vals, True, r)[:, None]
                                         - _value_scores(rules, level, tr_vals, False, r)[None, :])).sum() / c.sum()
                                   for c in counts] for r in reps]).reshape(len(reps), len(groups))
        for g, (label, sel) in enumerate(groups):
            diff = mean_row(s_nt[sel] - s_tr[sel], deal[sel])
            se_model = float(np.std(rep_means[:, g], ddof=1)) if len(rep_means) > 1 else np.nan
            if len(rep_means) > 1:
                diff = with_model_error(diff, se_model, deal[sel])
            comp.append({"level": level, "aces": label, "n": int(sel.sum()), "expected_nt": s_nt[sel].mean(),
                         "expected_trump": s_tr[sel].mean(), "nt_minus_trump": diff["mean"], "lo": diff["lo"],
                         "hi": diff["hi"], "nt_better": bool(diff["lo"] > 0), "trump_better": bool(diff["hi"] < 0),
                         "se_model": se_model})
    # se_model: the table-play model's own standard error in the difference (NaN: double dummy, no model)
    return rows_frame(comp, ["level", "aces", "n", "expected_nt", "expected_trump", "nt_minus_trump", "lo", "hi",
                             "nt_better", "trump_better", "se_model"])


def run(run_results: RunResults, rules, trump_rule: str = DEFAULT_TRUMP_RULE, min_cell: int = 30) -> StudyTables:
    results = run_results.frame
    d = declarer_frame(results, rules, trump_rule)
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

    levels = sorted({b.level for b in ladder(rules) if b.nt and not b.low})
    groups = [("all", np.ones(len(d), dtype=bool))] + [
        (f"{a} aces", (d["aces"] == a).to_numpy()) for a in range(5)]
    comp = _nt_vs_trump(d, rules, levels, groups, min_cell, deal)
    model, why = table_play_model(rules)
    comp_tp = _nt_vs_trump(d, rules, levels, groups, min_cell, deal, model) if model is not None else None
    tables = StudyTables({"trump_rules": rules_t, "nt_beats_trump": nt_beats, "nt_vs_trump": comp})
    tables.meta("trump_rules").note = (
        "picks_best: the rule's suit scores as many DD points as the best suit in hindsight; "
        "loss: mean points given up against that best suit; 95% intervals clustered by deal")
    tables.meta("nt_beats_trump").note = (
        "share of declarer hands where NT scores strictly more DD points than the best trump suit; "
        "95% intervals clustered by deal")
    tables.meta("nt_vs_trump").note = (
        f"expected hand score of the declaring side, NT bid vs plain bid at the same level in the "
        f"trump named by {trump_rule}; NT scoring '{rules.nt_scoring}'; paired difference per hand, 95% interval clustered by deal")
    if comp_tp is not None:
        tables.add("nt_vs_trump_table_play", comp_tp, TableMeta(
            note="TABLE PLAY (the table-play model applied to each hand's DD points): " + tables.meta("nt_vs_trump").note))
    tag(tables, run_info(run_results, rules), f"trump rule {trump_rule}")
    if comp_tp is not None:
        meta = tables.meta("nt_vs_trump_table_play")
        meta.footer = meta.footer.replace("double dummy", "table play (PIMC model)")
    for name in tables:
        tables.meta(name).extra["scoring"] = scoring(rules)  # the report states the NT scoring beside its NT advice
    return tables


def plot(tables) -> dict:
    figs = {}
    r = tables["trump_rules"]
    foot = tables.meta("trump_rules").footer
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
    integer_axis(ax.xaxis)
    figs["nt_beats_by_aces"] = fig

    c = tables["nt_vs_trump"]
    fig, ax = new_figure("NT bid minus trump bid at the same level: expected score", "bid level",
                         "E[score NT] - E[score trump], points", foot)
    # aces are ordered: one sequential colour each (0 to 4), all hands in grey, dashed
    colors = {"all": "0.45", **ordered_colors([f"{a} aces" for a in range(5)])}
    groups = list(c.groupby("aces", sort=False))
    for i, (label, g) in enumerate(groups):
        ax.errorbar(g["level"] + 0.06 * (i - (len(groups) - 1) / 2), g["nt_minus_trump"],
                    yerr=[g["nt_minus_trump"] - g["lo"], g["hi"] - g["nt_minus_trump"]], fmt="o", capsize=3,
                    label=label.replace("1 aces", "1 ace"), markersize=4, color=colors.get(label),
                    linestyle="--" if label == "all" else "-")
    ax.axhline(0, color="0.5", linewidth=0.8)
    integer_axis(ax.xaxis)
    legend(ax, title="aces in the hand")
    figs["nt_vs_trump"] = fig
    return figs


# --- the report -------------------------------------------------------------------------------


def section(tables) -> tuple[list, list[str], list[str]]:
    """This study's report section, as :mod:`~kaiser_sim.studies.blocks` describes."""
    t, key = tables, KEY
    tr = t["trump_rules"]
    rows = [{"rule": r["rule"], "picks the best suit %": pct(r["picks_best"], r["picks_lo"], r["picks_hi"]),
             "points lost": ci(r["loss"], r["loss_lo"], r["loss_hi"], 2), "n": count(r["n"])} for _, r in tr.iterrows()]
    nb = t["nt_beats_trump"]
    nb = nb[nb["by"].isin(["all", "aces", "longest"])]
    nrows = [{"hands": ("all" if r["by"] == "all" else f"{r['value']} {'aces' if r['by'] == 'aces' else 'longest suit'}"),
              "n": count(r["n"]), "NT beats best trump %": pct(r["p"], r["lo"], r["hi"]),
              "NT - best trump, points": num(r["mean_nt_minus_best_trump"], 2)} for _, r in nb.iterrows()]
    c = t["nt_vs_trump"]

    def crows(c):
        return frame([{"level": str(r["level"]), "aces": r["aces"].replace("1 aces", "1 ace"), "n": count(r["n"]),
                       "NT - trump, expected score": ci(r["nt_minus_trump"], r["lo"], r["hi"], 2),
                       "verdict": "NT" if r["nt_better"] else ("trump" if r["trump_better"] else "no clear difference")}
                      for _, r in c.iterrows()])
    verdict = ("verdict: the 95% interval of the difference excludes 0; "
               + (nt_scoring_words(t.meta("nt_vs_trump").extra.get("scoring")) or "NT scored by the rules' NT scoring."))
    tp = t.get("nt_vs_trump_table_play")
    blocks = [Table(f"{key}-trump-rules", "Rules for naming trump against the double-dummy best suit", frame(rows)),
              Table(f"{key}-nt-beats", "When no trump takes more points than the best trump suit (double dummy)",
                    frame(nrows))]
    if tp is not None:
        blocks.append(Table(f"{key}-nt-vs-trump-table-play", "NT bid minus plain bid at the same level (expected hand "
                            "score), table play: the cheat sheet's measure", crows(tp),
                            verdict + " Table play: each hand's double-dummy points through the table-play model "
                            "(appendix); intervals include the model's own error."))
    blocks.append(Table(f"{key}-nt-vs-trump", "NT bid minus plain bid at the same level (expected hand score)"
                        + (", double dummy (the upper reference)" if tp is not None else ", double dummy"),
                        crows(c), verdict))
    scored = t.meta("nt_vs_trump").extra.get("scoring")
    text = [nt_scoring_words(scored)] if scored else []
    if len(tr):
        b = tr.loc[tr["picks_best"].idxmax()]
        text.append(f"The rule '{b['rule']}' names the best suit most often "
                    f"({pct(b['picks_best'], b['picks_lo'], b['picks_hi'])}%).")
    return blocks, text, ["trump_rules", "nt_beats_by_aces", "nt_vs_trump"]


def cheat_sheet(tables) -> list:
    """The cheat sheet's lines on no trump: NT against a plain bid at the
    same level, by aces, in the measure of the cheat sheet's grid (table
    play when the model holds, else double dummy), and how they sit with
    the grid's NT limits."""
    tt = tables
    tp = "nt_vs_trump_table_play" in tt
    name = "nt_vs_trump_table_play" if tp else "nt_vs_trump"
    c = tt[name]
    lines, halves = [], []
    for label, g in (c.groupby("aces", sort=False) if len(c) else []):
        nt = [int(lv) for lv, b in zip(g["level"], g["nt_better"]) if b]
        tr = [int(lv) for lv, b in zip(g["level"], g["trump_better"]) if b]
        r8 = g.iloc[0]
        verdict = (f"NT beats a plain bid at {ranges(nt)}" if nt else "") + ("; " if nt and tr else "") + \
                  (f"a plain bid beats NT at {ranges(tr)}" if tr else "")
        label = {"all": "All hands, on average", "1 aces": "1 ace"}.get(label, label)
        lines.append(f"{label}: {verdict or 'no clear difference'} (at {r8['level']}: NT minus plain "
                     f"{ci(r8['nt_minus_trump'], r8['lo'], r8['hi'], 1)} points)")
        halves.append(((r8["hi"] - r8["lo"]) / 2, r8.get("se_model", np.nan)))
    measure = "table play" if tp else "double dummy"
    blocks = [Text(f"When to bid no trump rather than a plain bid ({measure})", "heading")]
    words = nt_scoring_words(tt.meta(name).extra.get("scoring"))
    if words:
        blocks.append(Text(words, "note"))
    blocks.append(Text("When the auction is at a level where you would bid anyway, which scores more on average: "
                       "NT or a plain bid? By aces in your hand:"))
    for line in lines:
        blocks.append(Text(line, "bullet"))
    nb = tt["nt_beats_trump"]
    allr = nb[nb["by"] == "all"]
    beats = ""
    if len(allr):
        a = allr.iloc[0]
        beats = (f" NT seldom takes more points than the best trump suit ({pct(a['p'], a['lo'], a['hi'])}% of hands, "
                 "double dummy): where it wins, it is by its doubled score.")
    blocks.append(Text("These lines average over every hand with that many aces, weak ones and strong ones: they say "
                       "which of the two bids scores more, not that either pays. Whether an NT bid pays for your hand "
                       "is the second number of the what-to-bid grid (by your count and trump length, in the same "
                       "measure): where it shows '-', no NT bid pays, whatever these lines say." + beats
                       + (model_width_words(halves) if tp else ""), "note"))
    return blocks


def model_width_words(halves) -> str:
    """Why the table-play lines' intervals are wider than the page's other
    figures, when they are (a half-width over 0.1 points) and the table-play
    model's own error is most of the width (``halves``: each line's
    ``(half-width, se_model)``; the width's square is the deals' part's plus
    the model's, :func:`~kaiser_sim.studies.common.with_model_error`)."""
    from ..stats import Z95

    h = [(float(w), float(m)) for w, m in halves if np.isfinite(w) and np.isfinite(m)]
    if not h or max(w for w, _ in h) <= 0.1:
        return ""
    # the model's share of each interval's variance (its t quantile is Z95's near enough at these sizes)
    share = min(min(1.0, (Z95 * m / w) ** 2) if w > 0 else 0.0 for w, m in h)
    if share < 0.5:
        return ""
    lo, hi = min(w for w, _ in h), max(w for w, _ in h)
    span = f"±{lo:.1f}" + (f" to ±{hi:.1f}" if f"{hi:.1f}" != f"{lo:.1f}" else "")
    return (f" The intervals of these lines ({span} points) are wider than the page's other figures: at least "
            f"{100 * share:.0f}% of each one's variance is the table-play model's own error (the model was fitted "
            "on far fewer played deals than this report has), which more deals here would not reduce; NT's doubled "
            "score doubles it.")

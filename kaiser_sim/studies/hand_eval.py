"""Study 2, hand evaluation: which count of the declarer's own hand predicts
the declaring side's double-dummy points best?

Measures (each turned into a prediction by a straight-line fit on the
training deals, so only how well it *ranks* and *spaces* hands matters):

- ``high-card count``: A 4, K 3, Q 2, J 1;
- ``printable Kaiser count``: the fitted count of an earlier 100,000-deal
  run rounded to half points (``common.KAISER_COUNT``, the studies'
  strength axis; where it was fitted: ``common.KAISER_COUNT_FIT``);
- ``rank squared``: the sum of (card face value)^2 / 100 over the hand
  (A 14, K 13, Q 12, J 11, T 10, 9, 8, 7, 5H 5, 3S 3);
- ``trump heuristic``: 3 x trump length + 4 for the trump ace + 3 for the
  trump king + 3 for the 5H + 2 per other ace - 2 for the 3S;
- ``fitted Kaiser count``: least squares on the training deals, one value
  per rank A K Q J T in trump and in side suits, per trump (length), for
  the 5H and for the 3S, plus a constant.

The target is the declaring side's points in the trump named by
``trump_rule`` (and, separately, in no trump).  Deals are split by index
(``deal % holdout_every == 0`` held out), so the four hands of a deal stay
on one side.  R^2 and mean absolute error are measured on the held-out
hands; their 95% intervals come from a bootstrap over held-out deals.

The printable count was fitted on deals 0..99,999 of seed 1 (standard
dealing; ``common.KAISER_COUNT_FIT``): on a run of those deals (the
report's default seed) the held-out deals are deals it was fitted on, and
its score there is in sample.  So the study checks (:func:`fit_overlap`):
when some deal of the run is one of the count's fitting deals, *every*
measure (so the measures stay compared on the same deals) is scored
instead on the run's held-out deals beyond the count's fitting deals when
there are at least ``holdout_deals`` of them (a run of more than 100,000
deals of seed 1: the calibration then uses all the run's deals beyond the
fit), else on ``holdout_deals`` deals of the study's own, dealt with
``holdout_seed`` (default: the fitting seed + 1, deals
0..holdout_deals-1) and solved double dummy (about 140 deals a second a
core: the default 2,000 take about 7 seconds on 2 cores); the fits still
use the run's training deals.  Column ``scored_on`` of ``comparison``
says, per measure, which deals it was scored on (its metadata's ``extra["scored_deals"]``:
the seed and the first / last / number of deal indices).  With
``holdout_deals = 0`` the run's held-out deals are used and the printable
count's ``scored_on`` says "in sample".

Tables: ``comparison`` (the measures), ``kaiser_count`` (the fitted count
per feature; 95% intervals from cluster-robust standard errors, the hands
of a deal clustered), ``count_calibration`` (what the printable count
means: by count band, the declaring side's mean DD points in the trump by
rule and points - count, 95% intervals clustered by deal, on the deals the
printable count is scored on: all deals of a run disjoint from its fit,
else the independent deals).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import config
from ..stats import Z95, t_quantile
from .blocks import Table, ci, count, frame, num
from ..hands import FEATURES, features, heuristic, rank_squared  # noqa: F401  (hand features, below the studies)
from ..runs.results import RunResults
from .common import (definition, DEFAULT_TRUMP_RULE, KAISER_COUNT, KAISER_COUNT_FIT, STRENGTH_BUCKETS, bucket, declarer_frame, mean_row,
                     bottom_margin, legend, new_figure, rows_frame, run_info, StudyTables, tag)
from ..config import MAX_SEED
from .common import CHART_TYPE, TRUMP_RULE
from .params import Param

KEY = "hand-eval"
TITLE = "Hand evaluation: which count predicts the points"
QUESTION = "Which count of your own hand predicts your side's points best?"
METHOD = (
    "Each count of the declarer's hand is turned into a prediction of its side's points by a straight "
    "line fitted on 4 deals in 5, and tested on the 5th (held out). R² is the share of the spread of the "
    "points the count explains (1 = perfect, 0 = no better than the average); MAE is the average miss "
    "in points. The 'fitted Kaiser count' gives each card its own value by least squares. The printable "
    "Kaiser count was fitted on the first 100,000 deals of seed 1; when this report's deals are among them, "
    "every count is scored instead on this report's held-out deals beyond those 100,000 (when fewer than "
    "2,000 are, on 2,000 further deals, seed 2, solved for the purpose), so no count is tested on deals it "
    "was fitted on. The calibration table sets the Kaiser count against the points the "
    "declaring side actually takes in the trump it names.")
#: the parameters of run(), declared (kaiser_sim.studies.params)
PARAMETERS = (
    TRUMP_RULE,
    Param("holdout_every", int, 5, "deals with deal % holdout_every == 0 are held out to score the counts; the others "
          "fit them.", low=2, high=config.STUDY_MAX_DEALS),
    Param("n_boot", int, 200, "bootstrap resamples (over deals) of the intervals of R² and MAE (0: no intervals).",
          low=0, high=10_000),
    Param("seed", int, 0, "seeds the bootstrap.", low=0, high=MAX_SEED),
    Param("holdout_deals", int, 2000, "the printable Kaiser count was fitted on deals 0-99,999 of seed 1 "
          "(common.KAISER_COUNT_FIT): on a run of those deals every count is scored instead on the run's "
          "held-out deals beyond them when there are at least holdout_deals of them, else on deals "
          "0..holdout_deals-1 of holdout_seed, solved by the study (about 10 s); 0: none, the printable count is "
          "then scored in sample.", low=0, high=config.HAND_MAX_DEALS),
    Param("holdout_seed", int, KAISER_COUNT_FIT["seed"] + 1, "the seed of those deals (not the one the count was "
          "fitted on).", low=0, high=MAX_SEED),
)
#: the default definition (deals, seed, rules, parameters), which ``kaiser-sim study NAME`` runs;
#: analyses/hand-eval.toml is written from it and PARAMETERS (make analyses; a test keeps them equal)
DEFINITION = definition(KEY, "High-card count, rank squared, trump heuristic and a fitted Kaiser count, on held-out deals",
                        params={"trump_rule": "longest-strength",
                                "holdout_every": 5,
                                "n_boot": 200,
                                "seed": 0,
                                "holdout_deals": 2000,
                                "holdout_seed": 2})

DEFINITIONS = {
    "high-card count": "A4 K3 Q2 J1",
    "rank squared": "sum of face value^2 / 100 (A14 .. 3S 3)",
    "trump heuristic": "3/trump + trump A 4 + trump K 3 + 5H 3 + other A 2 - 3S 2",
    "printable Kaiser count": "trump A 2 K 1 Q 1/2, side A 1 K 1/2, 1/trump, 5H 1/2, 3S 1 1/2 (the strength axis)",
    "fitted Kaiser count": "least squares: ranks in trump and side suits, per trump, 5H, 3S (table kaiser_count)",
}


def _fit(X, y, cluster=None):
    """Least squares ``coef`` and their standard errors: cluster-robust
    (CR1 sandwich ``G/(G-1) (X'X)^-1 (sum_g X_g' e_g e_g' X_g) (X'X)^-1``
    over the ``G`` clusters) when ``cluster`` (the deal of each row) is
    given, else the plain OLS ones.  Returns ``(coef, se, G)``."""
    coef, *_ = np.linalg.lstsq(X, y, rcond=None)
    resid = y - X @ coef
    bread = np.linalg.pinv(X.T @ X)
    if cluster is None:
        dof = max(len(y) - X.shape[1], 1)
        cov = (resid @ resid / dof) * bread
        return coef, np.sqrt(np.diag(cov)), len(y)
    _, inv = np.unique(np.asarray(cluster), return_inverse=True)
    g = int(inv.max()) + 1 if len(y) else 0
    if g < 2:
        return coef, np.full(X.shape[1], np.nan), g
    score = np.zeros((g, X.shape[1]))
    np.add.at(score, inv.ravel(), X * resid[:, None])  # sum_g X_g' e_g, one row a cluster
    cov = g / (g - 1) * bread @ (score.T @ score) @ bread
    return coef, np.sqrt(np.clip(np.diag(cov), 0, None)), g


def fit_overlap(run_results: RunResults) -> np.ndarray:
    """True for each row of ``run_results`` whose deal is one the printable
    count was fitted on (:data:`~kaiser_sim.studies.common.KAISER_COUNT_FIT`):
    the same seed, the same dealing (8 cards a hand from the 32-card deck,
    no fixed cards) and a deal index below the fit's deal count.  A run
    whose seed is not recorded may be any deals: all True (cautious)."""
    fit = KAISER_COUNT_FIT
    meta = run_results.metadata
    idx = run_results.frame["deal"].to_numpy(dtype=np.int64)
    seed = meta.get("seed")
    if seed is None or seed == "?":
        return np.ones(len(idx), dtype=bool)
    if meta.get("rules"):
        from ..rules import Rules

        r = Rules.from_dict(meta["rules"])
        if (r.hand_size, r.deck34) != (fit["hand_size"], fit["deck34"]):
            return np.zeros(len(idx), dtype=bool)
    if meta.get("fixed"):
        return np.zeros(len(idx), dtype=bool)
    if int(seed) != fit["seed"]:
        return np.zeros(len(idx), dtype=bool)
    return (idx >= fit["first"]) & (idx < fit["first"] + fit["deals"])


def independent_deals(n: int, seed: int) -> RunResults:
    """The results of deals ``0..n-1`` of ``seed``, solved double dummy
    (standard dealing: only asked for when the run's deals are the fit's)."""
    from ..deal import deal_batch
    from .common import results_run

    return results_run(deal_batch(int(n), int(seed)), seed=int(seed))


def _scores(y, pred, groups, n_boot, rng):
    """R^2, MAE and bootstrap 95% intervals (resampling the scored deals, ``groups``)."""
    def stats(yy, pp):
        ss = ((yy - yy.mean()) ** 2).sum()
        return 1 - ((yy - pp) ** 2).sum() / ss, np.abs(yy - pp).mean()

    r2, mae = stats(y, pred)
    # a resample takes deal k w_k times, so each statistic is a w-weighted sum of per-deal sums: the same
    # samples as concatenating the picked deals' rows, in O(deals) a replicate (y centred first, so that
    # the sum of squares about the resample's mean loses no digits)
    uniq, inv = np.unique(groups, return_inverse=True)
    yc = y - y.mean()
    per_deal = np.stack([np.bincount(inv, weights=v, minlength=len(uniq))
                         for v in (np.ones_like(yc), yc, yc * yc, (y - pred) ** 2, np.abs(y - pred))], axis=1)
    boot = np.empty((n_boot, 2))
    for b in range(n_boot):
        w = np.bincount(rng.integers(0, len(uniq), len(uniq)), minlength=len(uniq)).astype(float)
        n, sy, syy, sres, sabs = w @ per_deal
        boot[b] = 1 - sres / (syy - sy * sy / n), sabs / n
    lo, hi = np.percentile(boot, [2.5, 97.5], axis=0) if n_boot else (np.full(2, np.nan), np.full(2, np.nan))
    return r2, lo[0], hi[0], mae, lo[1], hi[1]


#: ``scored_on`` labels (module doc)
RUN_HELD_OUT = "held-out deals of this run"


def _deal_range(seed, deals) -> dict:
    """``{seed, first, last, n}`` of the deal indices a measure was scored on."""
    u = np.unique(np.asarray(deals, dtype=np.int64))
    return {"seed": seed, "first": int(u[0]) if u.size else -1, "last": int(u[-1]) if u.size else -1,
            "n": int(u.size)}


def _calibration(d, scored_on: str) -> pd.DataFrame:
    """``count_calibration`` rows: by count band and overall, the mean count,
    the declaring side's mean DD points (trump by rule) and points - count,
    95% intervals clustered by deal."""
    rows = []
    cluster = d["deal"].to_numpy()
    count = d["strength"].to_numpy(dtype=float)
    pts = d["trump_pts"].to_numpy(dtype=float)
    band = np.asarray(bucket(count, STRENGTH_BUCKETS).astype(str))
    for label in [b[0] for b in STRENGTH_BUCKETS] + ["all"]:
        sel = np.ones(len(d), dtype=bool) if label == "all" else band == label
        if not sel.any():
            continue
        p = mean_row(pts[sel], cluster[sel])
        e = mean_row(pts[sel] - count[sel], cluster[sel])
        rows.append({"count_band": label, "n": int(sel.sum()), "deals": int(len(np.unique(cluster[sel]))),
                     "count_mean": float(count[sel].mean()), "points_mean": p["mean"], "points_lo": p["lo"],
                     "points_hi": p["hi"], "diff": e["mean"], "diff_lo": e["lo"], "diff_hi": e["hi"],
                     "scored_on": scored_on})
    return rows_frame(rows, ["count_band", "n", "deals", "count_mean", "points_mean", "points_lo", "points_hi",
                        "diff", "diff_lo", "diff_hi", "scored_on"])


def _measures(d) -> dict:
    """The compared measures of a declarer frame's hands (before their straight-line fit)."""
    hands = d["hand"].to_numpy(dtype=np.uint64)
    trump = d["trump"].to_numpy()
    return {"high-card count": d["hcp"].to_numpy(dtype=float),
            "rank squared": rank_squared(hands),
            "trump heuristic": heuristic(hands, trump),
            "printable Kaiser count": d["strength"].to_numpy(dtype=float)}


def run(run_results: RunResults, rules, trump_rule: str = DEFAULT_TRUMP_RULE, holdout_every: int = 5, n_boot: int = 200,
        seed: int = 0, holdout_deals: int = 2000, holdout_seed: int = KAISER_COUNT_FIT["seed"] + 1
        ) -> StudyTables:
    """Tables ``comparison``, ``kaiser_count`` and ``count_calibration``
    (module doc).  ``seed`` seeds the bootstrap; ``holdout_deals`` /
    ``holdout_seed``: the deals every measure is scored on when the run's
    held-out deals are ones the printable count was fitted on and fewer than
    ``holdout_deals`` of them lie beyond the fit (0: none; the printable
    count is then scored in sample and ``scored_on`` says so)."""
    from . import StudyError

    if holdout_deals < 0:
        raise StudyError(f"parameter holdout_deals must be a whole number >= 0, got {holdout_deals!r}")
    if holdout_seed == KAISER_COUNT_FIT["seed"]:
        raise StudyError(f"parameter holdout_seed must differ from the seed the count was fitted on "
                         f"({KAISER_COUNT_FIT['seed']})")
    results = run_results.frame
    d = declarer_frame(results, rules, trump_rule)
    deal = d["deal"].to_numpy()
    test = (deal % holdout_every) == 0
    train = ~test
    run_seed = run_results.metadata.get("seed", "?")

    # the scored deals: the run's held-out deals, unless the run holds deals the printable count was fitted on
    in_fit = np.repeat(fit_overlap(run_results), 4)
    fit = KAISER_COUNT_FIT
    fit_text = f"seed {fit['seed']}, deals {fit['first']:,}-{fit['first'] + fit['deals'] - 1:,}"
    ev = d[test]
    label = {name: RUN_HELD_OUT for name in DEFINITIONS}
    ev_seed, independent, beyond_text = run_seed, False, ""
    beyond = test & ~in_fit  # held-out deals of the run that the printable count was not fitted on
    if not in_fit.any():
        cal = (d, f"all deals of this run (seed {run_seed}; disjoint from the count's fit, {fit_text})")
    elif holdout_deals > 0 and np.unique(deal[beyond]).size >= holdout_deals:
        ev = d[beyond]
        first, last = int(deal[~in_fit].min()), int(deal[~in_fit].max())
        label = {name: f"{RUN_HELD_OUT} beyond the count's fitting deals ({fit_text})" for name in DEFINITIONS}
        cal = (d[~in_fit], f"the deals of this run beyond the count's fitting deals (seed {run_seed}, deals "
                           f"{first:,}-{last:,}; the count was fitted on {fit_text})")
        beyond_text = f"; scored on this run's deals {first:,}-{last:,} (not the count's fitting deals)"
    elif holdout_deals > 0:
        ev = declarer_frame(independent_deals(holdout_deals, holdout_seed).frame, rules, trump_rule)
        ev_seed, independent = holdout_seed, True
        text = f"seed {holdout_seed}, deals 0-{holdout_deals - 1:,} (independent of the count's fit, {fit_text})"
        label = {name: text for name in DEFINITIONS}
        cal = (ev, text)
    else:
        label["printable Kaiser count"] = RUN_HELD_OUT + f" (in the count's fitting deals, {fit_text}: in sample)"
        cal = (d, f"all deals of this run (in the count's fitting deals, {fit_text}: in sample)")
    ev_deal = ev["deal"].to_numpy()
    scored = {name: _deal_range(ev_seed, ev_deal) for name in DEFINITIONS}

    m_train, m_ev = _measures(d[train]), _measures(ev)
    X = features(d["hand"].to_numpy(dtype=np.uint64), d["trump"].to_numpy())
    X_ev = features(ev["hand"].to_numpy(dtype=np.uint64), ev["trump"].to_numpy())
    rng = np.random.default_rng(seed)
    rows, counts = [], []

    def score_row(target, name, y_ev, pred, slope, intercept):
        r2, rlo, rhi, mae, mlo, mhi = _scores(y_ev, pred, ev_deal, n_boot, rng)
        return {"target": target, "measure": name, "definition": DEFINITIONS[name], "n_train": int(train.sum()),
                "n_test": int(len(y_ev)), "scored_on": label[name], "r2": r2, "r2_lo": rlo, "r2_hi": rhi,
                "mae": mae, "mae_lo": mlo, "mae_hi": mhi, "slope": slope, "intercept": intercept}

    for target, col in (("trump by rule", "trump_pts"), ("NT", "nt_pts")):
        y = d[col].to_numpy(dtype=float)
        y_ev = ev[col].to_numpy(dtype=float)
        for name, m in m_train.items():
            coef, _, _ = _fit(np.stack([m, np.ones_like(m)], axis=1), y[train])
            pred = np.stack([m_ev[name], np.ones_like(m_ev[name])], axis=1) @ coef
            rows.append(score_row(target, name, y_ev, pred, coef[0], coef[1]))
        coef, se, g = _fit(X[train], y[train], deal[train])
        rows.append(score_row(target, "fitted Kaiser count", y_ev, X_ev @ coef, 1.0, 0.0))
        q = t_quantile(Z95, g - 1)
        for f, c, s in zip(FEATURES, coef, se):
            counts.append({"target": target, "feature": f, "points": c, "lo": c - q * s, "hi": c + q * s,
                           "printable": round(c * 2) / 2})
    comparison = pd.DataFrame(rows)
    count = pd.DataFrame(counts)
    calibration = _calibration(*cal)
    tables = StudyTables({"comparison": comparison, "kaiser_count": count, "count_calibration": calibration})
    tables.meta("comparison").extra["scored_deals"] = scored
    tables.meta("comparison").note = (
        f"prediction of the declaring side's DD points from the declarer's own hand; "
        f"fitted on the run's deals with index % {holdout_every} != 0, scored on the deals "
        f"of scored_on: the run's other deals, or, when those are deals the printable count "
        f"was fitted on ({fit_text}, {fit['rules']} rules, trump {fit['trump_rule']}), "
        f"independent deals; 95% intervals: bootstrap over the scored deals "
        f"({n_boot} resamples)")
    tables.meta("kaiser_count").note = (
        "the fitted Kaiser point count: expected DD points of the declaring side = sum of these "
        "values over the hand; 'printable' rounds to 0.5; intervals: cluster-robust standard "
        "errors, the four hands of a deal clustered")
    tables.meta("count_calibration").note = (
        "what the printable Kaiser count means: by count band, the declaring side's mean "
        "DD points in the trump by rule, and points - count (> 0: the count understates "
        "them); 95% intervals clustered by deal; scored_on: the deals used (never the "
        "count's fitting deals when avoidable)")
    extra = f"trump rule {trump_rule}" + beyond_text
    if independent:
        extra += f"; scored on seed {ev_seed}, deals 0-{holdout_deals - 1:,} (not the count's fitting deals)"
    return tag(tables, run_info(run_results, rules), extra)


def plot(tables) -> dict:
    c = tables["comparison"]
    foot = tables.meta("comparison").footer
    fig, ax = new_figure("Which hand count predicts the points? (held-out deals)",
                         "R² on held-out deals (declaring side's DD points)", "", foot, figsize=(8, 5))
    labels = []
    y = 0
    for target, g in c.groupby("target", sort=False):
        for _, r in g.iterrows():
            ax.errorbar(r["r2"], y, xerr=[[r["r2"] - r["r2_lo"]], [r["r2_hi"] - r["r2"]]], fmt="o", capsize=4,
                        color="tab:blue" if target == "trump by rule" else "tab:orange")
            labels.append(f"{target}: {r['measure']}")
            y += 1
    ax.set_yticks(range(len(labels)), labels, fontsize=CHART_TYPE)
    fig.subplots_adjust(left=0.33)
    figs = {"measures_r2": fig}
    k = tables["kaiser_count"]
    k = k[(k["target"] == "trump by rule") & (k["feature"] != "constant")]
    fig, ax = new_figure("Fitted Kaiser point count (trump by rule)", "feature of the declarer's hand",
                         "DD points of the declaring side per feature", foot)
    x = np.arange(len(k))
    ax.bar(x, k["points"], yerr=[k["points"] - k["lo"], k["hi"] - k["points"]], capsize=3,
           label="fitted on this run (95% interval)")
    # the count the report uses everywhere, beside this run's fit (the section's table says why they differ)
    ax.scatter(x, [KAISER_COUNT.get(f, 0.0) for f in k["feature"]], marker="_", s=400, linewidths=2.5,
               color="black", zorder=3, label="Kaiser count (used in this report)")
    ax.set_xticks(x, k["feature"], rotation=45, ha="right", fontsize=CHART_TYPE)
    legend(ax)
    fig.subplots_adjust(bottom=bottom_margin(fig, 1.1))  # the rotated feature names
    figs["kaiser_count"] = fig
    return figs


# --- the report -------------------------------------------------------------------------------


def sample_note(tables) -> str:
    """The report's note on the sample: the deals every count is scored on
    (not the run's own when it holds the count's fitting deals)."""
    c = tables["comparison"]
    return f" the counts are scored on: {'; '.join(c['scored_on'].unique())};" if "scored_on" in c and len(c) else ""


def section(tables) -> tuple[list, list[str], list[str]]:
    """This study's report section, as :mod:`~kaiser_sim.studies.blocks` describes."""
    t, key = tables, KEY
    c = t["comparison"]
    rows = [{"target": r["target"], "measure": r["measure"], "R² on held-out deals": ci(r["r2"], r["r2_lo"], r["r2_hi"], 3),
             "mean abs. error, points": ci(r["mae"], r["mae_lo"], r["mae_hi"], 2), "n test": count(r["n_test"])}
            for _, r in c.iterrows()]
    k = t["kaiser_count"]
    k = k[k["target"] == "trump by rule"]
    krows = [{"feature": r["feature"], "fitted on this run": ci(r["points"], r["lo"], r["hi"], 2),
              "Kaiser count": num(KAISER_COUNT.get(r["feature"], 0.0), 1)} for _, r in k.iterrows()]
    scored = "; ".join(c["scored_on"].unique()) if "scored_on" in c else "held-out deals"
    blocks = [Table(f"{key}-comparison", "How well each count predicts the declaring side's points", frame(rows),
                    f"intervals: bootstrap over the scored deals; scored on: {scored}"),
              Table(f"{key}-kaiser-count", "The fitted Kaiser point count (trump by rule) and the Kaiser count",
                    frame(krows),
                    "expected points of the declaring side = sum over the hand; intervals: cluster-robust, the "
                    "four hands of a deal clustered. Kaiser count: the one count this report uses everywhere (the "
                    f"strength axis), the same fit made once on {KAISER_COUNT_FIT['deals']:,} deals (seed "
                    f"{KAISER_COUNT_FIT['seed']}) and rounded to half points; it is not refitted on each run. The fit "
                    "on this run's deals has wider intervals and the hand's features overlap (a trump king is also "
                    "a trump), so its values, rounded, need not give the Kaiser count's")]
    cal = t.get("count_calibration")
    if cal is not None and len(cal):
        crows = [{"Kaiser count": r["count_band"], "n": count(r["n"]), "mean count": num(r["count_mean"], 2),
                  "side's points": ci(r["points_mean"], r["points_lo"], r["points_hi"], 2),
                  "points − count": ci(r["diff"], r["diff_lo"], r["diff_hi"], 2)} for _, r in cal.iterrows()]
        blocks.append(Table(f"{key}-calibration", "What the Kaiser count means: the declaring side's points by count",
                            frame(crows), "trump by rule; 95% intervals clustered by deal; scored on: "
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

"""Study 2, hand evaluation: which count of the declarer's own hand predicts
the declaring side's double-dummy points best?

Measures (each turned into a prediction by a straight-line fit on the
training deals, so only how well it *ranks* and *spaces* hands matters):

- ``high-card count``: A 4, K 3, Q 2, J 1;
- ``printable Kaiser count``: the fitted count of an earlier 100,000-deal
  run rounded to half points (``common.KAISER_COUNT``, the studies'
  strength axis);
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
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..cards import FIVE_HEARTS, THREE_SPADES
from .common import (DEFAULT_TRUMP_RULE, RANK_A, RANK_J, RANK_K, RANK_Q, RANK_T, declarer_frame, has_card,
                     new_figure, rank_held, run_info, suit_bits, tag)

_FACE = {1: 7, 2: 8, 3: 9, 4: 10, 5: 11, 6: 12, 7: 13, 8: 14}
_RANKS = (("A", RANK_A), ("K", RANK_K), ("Q", RANK_Q), ("J", RANK_J), ("T", RANK_T))
FEATURES = ([f"trump {r}" for r, _ in _RANKS] + [f"side {r}" for r, _ in _RANKS]
            + ["per trump", "5H", "3S", "constant"])


DEFINITIONS = {
    "high-card count": "A4 K3 Q2 J1",
    "rank squared": "sum of face value^2 / 100 (A14 .. 3S 3)",
    "trump heuristic": "3/trump + trump A 4 + trump K 3 + 5H 3 + other A 2 - 3S 2",
    "printable Kaiser count": "trump A 2 K 1 Q 1/2, side A 1 K 1/2, 1/trump, 5H 1/2, 3S 1 1/2 (the strength axis)",
    "fitted Kaiser count": "least squares: ranks in trump and side suits, per trump, 5H, 3S (table kaiser_count)",
}


def rank_squared(hands) -> np.ndarray:
    out = np.zeros(len(hands))
    for s in range(4):
        b = suit_bits(hands, s)
        for r, face in _FACE.items():
            out += ((b >> r) & 1) * face * face
        low = {0: 3, 1: 5}.get(s)
        if low:
            out += (b & 1) * low * low
    return out / 100.0


def features(hands, trump) -> np.ndarray:
    """``(n, len(FEATURES))`` design matrix of the fitted count."""
    n = len(hands)
    cols = []
    for _, r in _RANKS:
        cols.append(np.choose(trump, [rank_held(hands, s, r) for s in range(4)]))
    for _, r in _RANKS:
        tot = sum(rank_held(hands, s, r) for s in range(4))
        cols.append(tot - cols[[x for _, x in _RANKS].index(r)])
    length = np.choose(trump, [np.bitwise_count(suit_bits(hands, s)) for s in range(4)])
    cols += [length, has_card(hands, FIVE_HEARTS).astype(int), has_card(hands, THREE_SPADES).astype(int), np.ones(n)]
    return np.stack(cols, axis=1).astype(np.float64)


def heuristic(hands, trump) -> np.ndarray:
    X = features(hands, trump)
    f = {k: X[:, i] for i, k in enumerate(FEATURES)}
    return 3 * f["per trump"] + 4 * f["trump A"] + 3 * f["trump K"] + 3 * f["5H"] + 2 * f["side A"] - 2 * f["3S"]


def _fit(X, y):
    coef, *_ = np.linalg.lstsq(X, y, rcond=None)
    resid = y - X @ coef
    dof = max(len(y) - X.shape[1], 1)
    sigma2 = resid @ resid / dof
    cov = sigma2 * np.linalg.pinv(X.T @ X)
    return coef, np.sqrt(np.diag(cov))


def _scores(y, pred, groups, n_boot, rng):
    """R^2, MAE and bootstrap 95% intervals (resampling held-out deals)."""
    def stats(yy, pp):
        ss = ((yy - yy.mean()) ** 2).sum()
        return 1 - ((yy - pp) ** 2).sum() / ss, np.abs(yy - pp).mean()

    r2, mae = stats(y, pred)
    uniq, inv = np.unique(groups, return_inverse=True)
    order = np.argsort(inv, kind="stable")
    starts = np.searchsorted(inv[order], np.arange(len(uniq)))
    ends = np.append(starts[1:], len(inv))
    boot = []
    for _ in range(n_boot):
        pick = rng.integers(0, len(uniq), len(uniq))
        rows = np.concatenate([order[starts[k]:ends[k]] for k in pick])
        boot.append(stats(y[rows], pred[rows]))
    boot = np.array(boot)
    lo, hi = np.percentile(boot, [2.5, 97.5], axis=0) if n_boot else (np.full(2, np.nan), np.full(2, np.nan))
    return r2, lo[0], hi[0], mae, lo[1], hi[1]


def run(results, rules, trump_rule: str = DEFAULT_TRUMP_RULE, holdout_every: int = 5, n_boot: int = 200,
        seed: int = 0) -> dict[str, pd.DataFrame]:
    d = declarer_frame(results, trump_rule)
    hands = d["hand"].to_numpy(dtype=np.uint64)
    trump = d["trump"].to_numpy()
    X = features(hands, trump)
    measures = {"high-card count": d["hcp"].to_numpy(dtype=float),
                "rank squared": rank_squared(hands),
                "trump heuristic": heuristic(hands, trump),
                "printable Kaiser count": d["strength"].to_numpy(dtype=float)}
    test = (d["deal"].to_numpy() % holdout_every) == 0
    train = ~test
    rng = np.random.default_rng(seed)
    rows, counts = [], []
    for target, col in (("trump by rule", "trump_pts"), ("NT", "nt_pts")):
        y = d[col].to_numpy(dtype=float)
        for name, m in measures.items():
            A = np.stack([m, np.ones_like(m)], axis=1)
            coef, _ = _fit(A[train], y[train])
            pred = A[test] @ coef
            r2, rlo, rhi, mae, mlo, mhi = _scores(y[test], pred, d["deal"].to_numpy()[test], n_boot, rng)
            rows.append({"target": target, "measure": name, "definition": DEFINITIONS[name],
                         "n_train": int(train.sum()), "n_test": int(test.sum()),
                         "r2": r2, "r2_lo": rlo, "r2_hi": rhi, "mae": mae, "mae_lo": mlo, "mae_hi": mhi,
                         "slope": coef[0], "intercept": coef[1]})
        coef, se = _fit(X[train], y[train])
        pred = X[test] @ coef
        r2, rlo, rhi, mae, mlo, mhi = _scores(y[test], pred, d["deal"].to_numpy()[test], n_boot, rng)
        rows.append({"target": target, "measure": "fitted Kaiser count",
                     "definition": DEFINITIONS["fitted Kaiser count"], "n_train": int(train.sum()),
                     "n_test": int(test.sum()), "r2": r2, "r2_lo": rlo, "r2_hi": rhi, "mae": mae, "mae_lo": mlo,
                     "mae_hi": mhi, "slope": 1.0, "intercept": 0.0})
        for f, c, s in zip(FEATURES, coef, se):
            counts.append({"target": target, "feature": f, "points": c, "lo": c - 1.96 * s, "hi": c + 1.96 * s,
                           "printable": round(c * 2) / 2})
    comparison = pd.DataFrame(rows)
    count = pd.DataFrame(counts)
    comparison.attrs["note"] = (f"prediction of the declaring side's DD points from the declarer's own hand; "
                                f"held out: deals with index % {holdout_every} == 0; 95% intervals: bootstrap over "
                                f"held-out deals ({n_boot} resamples)")
    count.attrs["note"] = ("the fitted Kaiser point count: expected DD points of the declaring side = sum of these "
                           "values over the hand; 'printable' rounds to 0.5; intervals: OLS standard errors "
                           "(hands of a deal treated as independent)")
    tables = {"comparison": comparison, "kaiser_count": count}
    return tag(tables, run_info(results, rules), f"trump rule {trump_rule}")


def plot(tables) -> dict:
    c = tables["comparison"]
    foot = c.attrs.get("footer", "")
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
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    fig.subplots_adjust(left=0.33, bottom=0.16)
    figs = {"measures_r2": fig}
    k = tables["kaiser_count"]
    k = k[(k["target"] == "trump by rule") & (k["feature"] != "constant")]
    fig, ax = new_figure("Fitted Kaiser point count (trump by rule)", "feature of the declarer's hand",
                         "DD points of the declaring side per feature", foot)
    x = np.arange(len(k))
    ax.bar(x, k["points"], yerr=[k["points"] - k["lo"], k["hi"] - k["points"]], capsize=3)
    ax.set_xticks(x, k["feature"], rotation=45, ha="right", fontsize=8)
    fig.subplots_adjust(bottom=0.28)
    figs["kaiser_count"] = fig
    return figs

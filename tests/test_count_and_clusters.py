"""Honest numbers: the printable Kaiser count is scored on deals it was not
fitted on, its calibration table, and intervals clustered where rows share
a deal, a match or a card set (hand-eval, dd-bias, the match engine and
study).  Every expected number is recomputed here with plain loops."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from kaiser_sim.cards import FIVE_HEARTS, THREE_SPADES, card_rank, card_suit, cards_of
from kaiser_sim.deal import deal_batch
from kaiser_sim.rules import STANDARD, get_preset
from kaiser_sim.stats import cluster_mean_ci, cluster_proportion_ci, t_quantile, wilson_interval
from kaiser_sim.studies import hand_eval
from kaiser_sim.runs.results import RunResults
from kaiser_sim.studies.common import KAISER_COUNT_FIT, results_frame, results_run, share_row

RULES = get_preset("standard")
HCP = {8: 4, 7: 3, 6: 2, 5: 1}


def _naive_trump(mask):
    """Longest suit, ties by high-card points, then S H D C."""
    cards = [(card_suit(c), card_rank(c)) for c in cards_of(mask)]
    key = [(sum(1 for s, _ in cards if s == t), sum(HCP.get(r, 0) for s, r in cards if s == t)) for t in range(4)]
    return max(range(4), key=lambda t: (key[t], -t))


def _naive_count(mask, trump):
    count = 0.5
    for suit, rank in ((card_suit(c), card_rank(c)) for c in cards_of(mask)):
        count += (1 + {8: 2, 7: 1, 6: 0.5}.get(rank, 0)) if suit == trump else {8: 1, 7: 0.5}.get(rank, 0)
    return count + (0.5 if mask >> FIVE_HEARTS & 1 else 0) + (1.5 if mask >> THREE_SPADES & 1 else 0)


def _shifted(run_results, by: int) -> RunResults:
    """The same run with its deal indices moved up by ``by`` (the same metadata)."""
    frame = run_results.frame
    return RunResults(frame.assign(deal=frame["deal"] + by), run_results.metadata)


def _hands(results):
    """(deal, seat, count, points in the trump by rule) of every declarer hand, by plain loops."""
    out = []
    cols = {c: results[c].to_numpy() for c in results.columns}  # (iterrows would turn the uint64 hands to floats)
    for i in range(len(results)):
        for seat, key in enumerate("NESW"):
            h = int(cols[f"hand_{key}"][i])
            t = _naive_trump(h)
            out.append((int(cols["deal"][i]), seat, _naive_count(h, t), int(cols[f"pts_{key}_{'SHDC'[t]}"][i])))
    return out


def _clustered_mean(x, groups):
    """The CR1 interval written out: G/(G-1) sum_g (sum_i (x_i - mean))^2 / n^2, t at G-1."""
    x = np.asarray(x, dtype=float)
    m = x.mean()
    totals = {}
    for xi, g in zip(x, groups):
        totals[g] = totals.get(g, 0.0) + (xi - m)
    G = len(totals)
    se = np.sqrt(G / (G - 1) * sum(v * v for v in totals.values()) / len(x) ** 2)
    q = t_quantile(1.96, G - 1)
    return m, m - q * se, m + q * se


@pytest.fixture(scope="module")
def seed1():
    """A run of the count's own fitting deals (seed 1, deals 0..29)."""
    return results_run(deal_batch(30, 1), seed=1)


@pytest.fixture(scope="module")
def seed11():
    return results_run(deal_batch(40, 11), seed=11)


# --- the printable count is scored on deals disjoint from its fit --------------------------------------


def test_fit_overlap_knows_the_fitting_deals(seed1, seed11):
    assert KAISER_COUNT_FIT["seed"] == 1 and KAISER_COUNT_FIT["deals"] == 100_000
    assert hand_eval.fit_overlap(seed1).all() and not hand_eval.fit_overlap(seed11).any()
    far = _shifted(seed1, 99_990)  # deals 99,990 .. 100,019 of seed 1
    assert list(hand_eval.fit_overlap(far)) == [d < 100_000 for d in far.frame["deal"]]
    unknown = RunResults(seed11.frame)
    assert hand_eval.fit_overlap(unknown).all()  # no recorded seed: could be the fit's deals
    deck34 = RunResults(seed1.frame, {"seed": 1, "rules": get_preset("kitty-34").to_dict()})
    assert not hand_eval.fit_overlap(deck34).any()  # another deck: other deals


def test_printable_count_of_a_seed1_run_is_scored_on_independent_deals(seed1):
    t = hand_eval.run(seed1, RULES, n_boot=0, holdout_deals=20)
    c = t["comparison"]
    scored = t.meta("comparison").extra["scored_deals"]["printable Kaiser count"]
    assert scored == {"seed": 2, "first": 0, "last": 19, "n": 20}
    assert scored["seed"] != KAISER_COUNT_FIT["seed"]
    p = c[(c["measure"] == "printable Kaiser count") & (c["target"] == "trump by rule")].iloc[0]
    assert p["n_test"] == 80 and "seed 2, deals 0-19" in p["scored_on"] and "independent" in p["scored_on"]
    # the R^2 recomputed: straight line fitted on the run's training deals, scored on deals 0..19 of seed 2
    train = [h for h in _hands(seed1.frame) if h[0] % 5 != 0]
    slope, icept = np.polyfit([h[2] for h in train], [h[3] for h in train], 1)
    ind = _hands(results_frame(deal_batch(20, 2)))
    y = np.array([h[3] for h in ind], dtype=float)
    pred = slope * np.array([h[2] for h in ind]) + icept
    assert p["r2"] == pytest.approx(1 - ((y - pred) ** 2).sum() / ((y - y.mean()) ** 2).sum())
    cal = t["count_calibration"]
    assert (cal["scored_on"] == p["scored_on"]).all() and cal.set_index("count_band").loc["all", "deals"] == 20
    # without independent deals the in-sample score is labelled so
    t0 = hand_eval.run(seed1, RULES, n_boot=0, holdout_deals=0)
    s0 = t0["comparison"].set_index(["target", "measure"]).loc[("trump by rule", "printable Kaiser count")]
    assert "in sample" in s0["scored_on"]


def test_a_run_beyond_the_fit_is_scored_on_its_own_deals_past_it(seed1):
    """A seed-1 run that reaches past the count's 100,000 fitting deals is
    scored on its own held-out deals beyond them (when there are at least
    ``holdout_deals``), and calibrated on all its deals beyond them."""
    far = _shifted(seed1, 99_985)  # deals 99,985 .. 100,014: 15 of them past the fit
    t = hand_eval.run(far, RULES, n_boot=0, holdout_deals=3)
    c = t["comparison"]
    past = sorted(d for d in far.frame["deal"] if d >= 100_000 and d % 5 == 0)  # 100,000 100,005 100,010
    for name in hand_eval.DEFINITIONS:
        assert t.meta("comparison").extra["scored_deals"][name] == {"seed": 1, "first": past[0], "last": past[-1], "n": len(past)}
    assert c["scored_on"].str.contains("beyond the count's fitting deals").all()
    assert (c["n_test"] == 4 * len(past)).all()
    cal = t["count_calibration"]
    assert cal.set_index("count_band").loc["all", "deals"] == 15 and cal["scored_on"].str.contains("100,000-100,014").all()
    assert "scored on this run's deals 100,000-100,014" in t.meta("comparison").footer
    # fewer past the fit than holdout_deals: independent deals, as for a run inside the fit
    t4 = hand_eval.run(far, RULES, n_boot=0, holdout_deals=4)
    assert t4.meta("comparison").extra["scored_deals"]["printable Kaiser count"]["seed"] == 2


def test_a_run_disjoint_from_the_fit_is_scored_on_its_own_held_out_deals(seed11):
    t = hand_eval.run(seed11, RULES, n_boot=0)
    c = t["comparison"]
    assert (c["scored_on"] == hand_eval.RUN_HELD_OUT).all()
    held = sorted(d for d in seed11.frame["deal"] if d % 5 == 0)
    assert t.meta("comparison").extra["scored_deals"]["printable Kaiser count"] == {
        "seed": 11, "first": held[0], "last": held[-1], "n": len(held)}


# --- the count's calibration ------------------------------------------------------------------------


def test_calibration_overall_and_by_band_recomputed(seed11):
    cal = hand_eval.run(seed11, RULES, n_boot=0)["count_calibration"].set_index("count_band")
    hands = _hands(seed11.frame)
    deals = [h[0] for h in hands]
    diff = [h[3] - h[2] for h in hands]
    m, lo, hi = _clustered_mean(diff, deals)
    a = cal.loc["all"]
    assert a["n"] == 160 and a["deals"] == 40
    assert a["diff"] == pytest.approx(np.mean(diff)) and a["diff"] == pytest.approx(m)
    assert (a["diff_lo"], a["diff_hi"]) == pytest.approx((lo, hi))
    assert a["count_mean"] == pytest.approx(np.mean([h[2] for h in hands]))
    pm, plo, phi = _clustered_mean([h[3] for h in hands], deals)
    assert (a["points_mean"], a["points_lo"], a["points_hi"]) == pytest.approx((pm, plo, phi))
    band = [h for h in hands if 5.5 <= h[2] <= 6.0]
    if len({h[0] for h in band}) >= 2:
        bm, blo, bhi = _clustered_mean([h[3] - h[2] for h in band], [h[0] for h in band])
        assert (cal.loc["5.5-6", "diff"], cal.loc["5.5-6", "diff_lo"], cal.loc["5.5-6", "diff_hi"]) == \
            pytest.approx((bm, blo, bhi))
    assert cal.drop(index="all")["n"].sum() == 160


def test_fitted_count_intervals_are_cluster_robust_by_deal(seed11):
    t = hand_eval.run(seed11, RULES, n_boot=0)
    k = t["kaiser_count"]
    k = k[k["target"] == "trump by rule"].set_index("feature")
    from kaiser_sim.studies.common import declarer_frame

    d = declarer_frame(seed11.frame, STANDARD)
    train = (d["deal"] % 5 != 0).to_numpy()
    X = hand_eval.features(d["hand"].to_numpy(dtype=np.uint64), d["trump"].to_numpy())[train]
    y = d["trump_pts"].to_numpy(dtype=float)[train]
    g = d["deal"].to_numpy()[train]
    coef = np.linalg.lstsq(X, y, rcond=None)[0]
    e = y - X @ coef
    bread = np.linalg.pinv(X.T @ X)
    meat = np.zeros((X.shape[1], X.shape[1]))
    for deal in np.unique(g):
        s = X[g == deal].T @ e[g == deal]
        meat += np.outer(s, s)
    G = len(np.unique(g))
    se = np.sqrt(np.diag(G / (G - 1) * bread @ meat @ bread))
    q = t_quantile(1.96, G - 1)
    assert np.allclose(k["points"], coef)
    assert np.allclose(k["hi"] - k["points"], q * se)
    ols = np.sqrt(np.diag(e @ e / (len(y) - X.shape[1]) * bread))
    assert not np.allclose(k["hi"] - k["points"], 1.96 * ols)


# --- dd-bias: the footer gives the played n -----------------------------------------------------------


def test_dd_bias_footer_gives_the_played_n():
    from kaiser_sim.studies import get_study

    res = results_run(deal_batch(10, 75), seed=75)
    tables = get_study("dd-bias").run(res, RULES, samples=2, max_deals=4, min_cell=1)
    for name in tables:
        meta = tables.meta(name)
        assert meta.footer.startswith("n=4 deals played"), name
        assert "the first of the run's 10" in meta.footer, name
        assert meta.run["n"] == 4 and meta.run["deals_in_run"] == 10
    assert tables["difference"].iloc[0]["n"] == 4 and len(tables["deals"]) == 4


# --- the match engine and study: clustered by pair of matches / card set ------------------------------


def test_match_summary_is_clustered_by_pair_of_matches():
    from kaiser_sim.strategy.match import play_matches

    r = play_matches("ev", "aggressive", 20, seed=4)
    s = r.summary()
    m = r.matches
    pair = m["match"].to_numpy() // 2
    w = cluster_proportion_ci(m["a_won"].to_numpy(bool), pair)
    assert (s["a_win_lo"], s["a_win_hi"]) == pytest.approx((w.lo, w.hi))
    mg = cluster_mean_ci(m["margin"].to_numpy(float), pair)
    assert (s["margin_lo"], s["margin_hi"]) == pytest.approx((mg.lo, mg.hi))
    hd = cluster_mean_ci(m["hands"].to_numpy(float), pair)
    assert (s["hands_lo"], s["hands_hi"]) == pytest.approx((hd.lo, hd.hi))


def test_win_by_state_is_clustered_by_card_set():
    from kaiser_sim.strategy.match import play_matches
    from kaiser_sim.studies.match import SCORE_BUCKETS, _label, _win_by_state

    r = play_matches("ev", "cautious", 8, seed=3)
    mats = r.matches.assign(cards=r.matches["match"] // 2)
    w = _win_by_state(r.hands, mats, RULES).set_index(["ours", "theirs"])
    winner = mats.set_index("match")["winner"]
    rows = []
    for side in (0, 1):
        for _, h in r.hands.iterrows():
            ours, theirs = (h["ns_before"], h["ew_before"]) if side == 0 else (h["ew_before"], h["ns_before"])
            rows.append((str(_label([ours], SCORE_BUCKETS)[0]), str(_label([theirs], SCORE_BUCKETS)[0]),
                         winner[h["match"]] == side, h["match"] // 2))
    d = pd.DataFrame(rows, columns=["ours", "theirs", "won", "cards"])
    for (o, t), g in d.groupby(["ours", "theirs"]):
        want = share_row(g["won"].to_numpy(), g["cards"].to_numpy())
        got = w.loc[(o, t)]
        assert got["n"] == want["n"] and got["k"] == want["k"]
        assert (got["lo"], got["hi"]) == pytest.approx((want["lo"], want["hi"]), nan_ok=True)

    # a correlated case: every hand of a match shares its outcome -> wider than the iid Wilson interval
    n_matches, per = 40, 6
    rng = np.random.default_rng(0)
    won_ns = rng.random(n_matches) < 0.5
    log = pd.DataFrame({"match": np.repeat(np.arange(n_matches), per), "ns_before": 5, "ew_before": 25})
    mats = pd.DataFrame({"match": np.arange(n_matches), "winner": np.where(won_ns, 0, 1),
                         "cards": np.arange(n_matches)})
    cell = _win_by_state(log, mats, RULES).set_index(["ours", "theirs"]).loc[("0-9", "20-29")]
    assert cell["n"] == n_matches * per and cell["clusters"] == n_matches
    lo, hi = wilson_interval(int(cell["k"]), int(cell["n"]))
    assert cell["hi"] - cell["lo"] > 1.5 * (hi - lo)
    want = share_row(won_ns.repeat(per), np.arange(n_matches).repeat(per))
    assert (cell["lo"], cell["hi"]) == pytest.approx((want["lo"], want["hi"]))


def test_hand_eval_bootstrap_resamples_whole_deals():
    """The hand evaluation's bootstrap (weights by deal) gives the samples of
    the plain reference: concatenate the picked deals' rows and score them."""
    def reference(y, pred, groups, n_boot, rng):
        def stats(yy, pp):
            return 1 - ((yy - pp) ** 2).sum() / ((yy - yy.mean()) ** 2).sum(), np.abs(yy - pp).mean()
        uniq = np.unique(groups)
        rows_of = {g: np.nonzero(groups == g)[0] for g in uniq}
        boot = np.array([stats(y[r], pred[r]) for r in
                         (np.concatenate([rows_of[uniq[k]] for k in rng.integers(0, len(uniq), len(uniq))])
                          for _ in range(n_boot))])
        lo, hi = np.percentile(boot, [2.5, 97.5], axis=0)
        return (*stats(y, pred)[:1], lo[0], hi[0], stats(y, pred)[1], lo[1], hi[1])

    rng = np.random.default_rng(3)
    groups = np.repeat(np.arange(300) * 3 + 7, 4)[rng.permutation(1200)]  # deals' rows not adjacent
    y = rng.integers(-3, 30, groups.size).astype(float) + 40.0  # off-centre: the sums must not lose digits
    pred = y + rng.normal(0, 3, groups.size)
    got = hand_eval._scores(y, pred, groups, 60, np.random.default_rng(9))
    want = reference(y, pred, groups, 60, np.random.default_rng(9))
    assert got == pytest.approx(want, rel=1e-12, abs=1e-12)
    assert got[1] < got[0] < got[2] and got[4] < got[3] < got[5]

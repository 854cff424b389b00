"""Intervals of the declarer-frame studies are clustered by deal, and the
bidding chart chooses and reports on different deals.

The four declarer rows of a deal (one per seat) are not independent.  The
checks here recompute the cluster-robust (CR1) intervals with plain pandas
group sums over the deals (not through :mod:`kaiser_sim.stats`), and the
chart's choice and estimates from ``declarer_frame`` + ``scores_matrix``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from kaiser_sim.auction import ladder
from kaiser_sim.deal import deal_batch
from kaiser_sim.rules import STANDARD, get_preset
from kaiser_sim.stats import cluster_mean_ci, t_quantile, wilson_interval
from kaiser_sim.strategy.table_play import band_index, load_model
from kaiser_sim.studies import bid_odds, bidding_chart, lead, trump_and_nt
from kaiser_sim.runs.results import RunResults
from kaiser_sim.studies.common import (declarer_frame, hand_score, points_array, results_frame, results_run,
                                       share_row, trump_by_rule)

N_DEALS = 80
SEED = 11
RULES = get_preset("standard")


@pytest.fixture(scope="module")
def results():
    return results_frame(deal_batch(N_DEALS, SEED))


@pytest.fixture(scope="module")
def run_results(results):
    """The fixture's deals as a run's results (what a study reads): the frame and its seed."""
    return RunResults(results, {"seed": SEED, "deals": N_DEALS, "mode": "points"})


@pytest.fixture(scope="module")
def frame(results):
    return declarer_frame(results, STANDARD)


# --- independent cluster-robust computations --------------------------------------------------


def _cr1_var(x, deal):
    """CR1 variance of the mean of ``x`` over clusters ``deal``, and G."""
    x = np.asarray(x, dtype=float)
    s = pd.Series(x - x.mean()).groupby(np.asarray(deal)).sum().to_numpy()
    g = len(s)
    return g / (g - 1) * float((s ** 2).sum()) / x.size ** 2, g


def _cr1_mean(x, deal):
    """(mean, lo, hi): mean +- t(G-1) * cluster-robust se."""
    v, g = _cr1_var(x, deal)
    m, q = float(np.mean(x)), t_quantile(1.96, g - 1)
    return m, m - q * np.sqrt(v), m + q * np.sqrt(v)


def _cr1_share(flags, deal):
    """(p, lo, hi): Wilson at the effective n = p(1-p) / cluster-robust var."""
    f = np.asarray(flags, dtype=float)
    p = f.mean()
    v, g = _cr1_var(f, deal)
    n_eff = p * (1 - p) / v if v > 0 else g
    lo, hi = wilson_interval(p * n_eff, n_eff, t_quantile(1.96, g - 1))
    return p, lo, hi


# --- bid odds ---------------------------------------------------------------------------------


def test_bid_odds_intervals_are_clustered_by_deal(frame, run_results):
    t = bid_odds.run(run_results, RULES, min_cell=10)
    deal = frame["deal"].to_numpy()
    for _, r in t["make"].iterrows():
        if r["method"] in bid_odds.TABLE_PLAY:  # table play: a clustered mean of model probabilities
            col, nt = bid_odds.TABLE_PLAY[r["method"]]
            model = load_model()
            dd = frame[col].to_numpy()
            band = band_index(frame["strength"].to_numpy())  # the declaring hand's count band
            prob = model.make_prob(dd, nt, [r["bid"]], band)[:, 0]
            m = cluster_mean_ci(prob, deal)
            # the deals' error and the model's own (its bootstrap replicates) added in quadrature
            se_model = np.std([rep.make_prob(dd, nt, [r["bid"]], band)[:, 0].mean() for rep in model.replicates()],
                              ddof=1)
            half = m.hi - m.mean
            q = half / m.se
            want = np.hypot(m.se, se_model) * q
            assert (r["p"], r["lo"], r["hi"]) == pytest.approx((m.mean, m.mean - want, m.mean + want)), r["method"]
            assert r["hi"] - r["lo"] > 2 * half  # wider than the deals' error alone
            continue
        col = bid_odds.METHODS[r["method"]]
        p, lo, hi = _cr1_share(frame[col] >= r["bid"], deal)
        assert (r["p"], r["lo"], r["hi"]) == pytest.approx((p, lo, hi)), (r["method"], r["bid"])
        assert {k: r[k] for k in ("k", "n", "p", "lo", "hi")} == pytest.approx(share_row(frame[col] >= r["bid"], deal))
    # a breakdown cell: clustered over the rows of the cell only
    bs = t["by_strength"]
    r = bs[(bs["method"] == "NT") & (bs["bid"] == 8)].iloc[0]
    cell = frame[frame["strength_bucket"] == r["strength_bucket"]]
    assert r["n"] == len(cell)
    assert (r["lo"], r["hi"]) == pytest.approx(_cr1_share(cell["nt_pts"] >= 8, cell["deal"])[1:])


def test_bid_odds_intervals_differ_from_iid_wilson(run_results):
    """The old code took the 4 seats of a deal as independent (plain Wilson).
    In no trump a high bid is made by both seats of one side together, so the
    clustered interval is wider; at 6-7 the two sides' seats pull in opposite
    directions (the points of the sides add to 10), and it is narrower."""
    make = bid_odds.run(run_results, RULES)["make"]
    nt = make[make["method"] == "NT"].set_index("bid")
    width = nt["hi"] - nt["lo"]
    lo, hi = wilson_interval(nt["k"].to_numpy(), nt["n"].to_numpy())
    iid = pd.Series(hi - lo, index=nt.index)
    for b in (10, 11, 12):
        assert width[b] > 1.1 * iid[b], b
    for b in (6, 7):
        assert width[b] < 0.9 * iid[b], b


def test_duplicated_seats_count_as_one_deal(results):
    """Each deal's four seats made identical (same NT points whoever leads):
    the information is that of G = 80 deals, not of 320 hands, and the
    interval is the Wilson interval at n_eff = G - 1 (t quantile)."""
    pts = points_array(results, STANDARD).copy()
    pts[:, :, 4] = pts[:, :1, 4]  # every seat gets N's NT points
    dup = results_run(results[["hand_N", "hand_E", "hand_S", "hand_W"]].to_numpy(dtype=np.uint64),
                      points=pts, seed=SEED)
    make = bid_odds.run(dup, RULES)["make"]
    r = make[(make["method"] == "NT") & (make["bid"] == 8)].iloc[0]
    g = N_DEALS
    assert r["n"] == 4 * g and r["k"] % 4 == 0
    lo, hi = wilson_interval(r["p"] * (g - 1), g - 1, t_quantile(1.96, g - 1))
    assert (r["lo"], r["hi"]) == pytest.approx((lo, hi))
    iid_lo, iid_hi = wilson_interval(r["k"], r["n"])
    assert r["hi"] - r["lo"] > 1.8 * (iid_hi - iid_lo)  # about sqrt(4) wider
    # the lead: each deal's rows equal, so the interval is the t interval of the 80 deal values
    s = lead.run(dup, RULES)["summary"].set_index("strain")
    y = 2 * pts[:, 0, 4] - 10  # on lead minus LHO on lead, = v - (10 - v)
    q = t_quantile(1.96, g - 1) * y.std(ddof=1) / np.sqrt(g)
    assert (s.loc["NT", "mean"], s.loc["NT", "lo"], s.loc["NT", "hi"]) == pytest.approx((y.mean(), y.mean() - q,
                                                                                         y.mean() + q))


# --- lead -------------------------------------------------------------------------------------


def test_lead_intervals_are_clustered(results, frame, run_results):
    t = lead.run(run_results, RULES)
    on, lho = lead.lead_values(results, RULES)
    deal = frame["deal"].to_numpy()
    s = t["summary"].set_index("strain")
    trump = frame["trump"].to_numpy()
    idx = np.arange(len(frame))
    for view, diff in (("NT", on[:, 4] - lho[:, 4]), ("trump by rule", on[idx, trump] - lho[idx, trump]),
                       ("H trump (any hand)", on[:, 1] - lho[:, 1])):
        assert (s.loc[view, "mean"], s.loc[view, "lo"], s.loc[view, "hi"]) == pytest.approx(_cr1_mean(diff, deal))
    mc = t["make_change"]
    r = mc[(mc["strain"] == "NT") & (mc["bid"] == 9)].iloc[0]
    x = (on[:, 4] >= 9).astype(float) - (lho[:, 4] >= 9)
    assert (r["change"], r["lo"], r["hi"]) == pytest.approx(_cr1_mean(x, deal))


# --- trump and NT -----------------------------------------------------------------------------


def test_trump_and_nt_intervals_are_clustered(frame, run_results):
    t = trump_and_nt.run(run_results, RULES, min_cell=10)
    deal = frame["deal"].to_numpy()
    pts4 = frame[["pts_S", "pts_H", "pts_D", "pts_C"]].to_numpy()
    best = pts4.max(axis=1)
    hands = frame["hand"].to_numpy(dtype=np.uint64)
    tr = t["trump_rules"].set_index("rule")
    for rule in ("longest", "strongest"):
        got = pts4[np.arange(len(frame)), trump_by_rule(hands, rule)]
        assert (tr.loc[rule, "picks_best"], tr.loc[rule, "picks_lo"], tr.loc[rule, "picks_hi"]) == \
            pytest.approx(_cr1_share(got == best, deal))
        assert (tr.loc[rule, "loss"], tr.loc[rule, "loss_lo"], tr.loc[rule, "loss_hi"]) == \
            pytest.approx(_cr1_mean(best - got, deal))
    nb = t["nt_beats_trump"]
    nt_better = frame["nt_pts"].to_numpy() > best
    r = nb[nb["by"] == "all"].iloc[0]
    assert (r["p"], r["lo"], r["hi"]) == pytest.approx(_cr1_share(nt_better, deal))
    r = nb[(nb["by"] == "aces") & (nb["value"] == "1")].iloc[0]
    sel = (frame["aces"] == 1).to_numpy()
    assert (r["p"], r["lo"], r["hi"]) == pytest.approx(_cr1_share(nt_better[sel], deal[sel]))
    c = t["nt_vs_trump"]
    for level, aces in ((8, "all"), (9, "2 aces")):
        r = c[(c["level"] == level) & (c["aces"] == aces)].iloc[0]
        sel = np.ones(len(frame), bool) if aces == "all" else (frame["aces"] == int(aces[0])).to_numpy()
        diff = (hand_score(RULES, level, True, frame["nt_pts"].to_numpy())
                - hand_score(RULES, level, False, frame["trump_pts"].to_numpy()))[sel]
        assert (r["nt_minus_trump"], r["lo"], r["hi"]) == pytest.approx(_cr1_mean(diff, deal[sel]))


def test_trump_and_nt_table_play_agrees_with_the_bidding_charts_scores(frame, run_results):
    """The table-play NT-vs-plain table (the cheat sheet's NT lines) has the
    means of the bidding chart's table-play hand scores (computed there hand
    by hand), and intervals at least as wide as the deals' alone (the
    model's own error is added)."""
    from kaiser_sim.studies.common import table_play_model

    model, _ = table_play_model(RULES)
    t = trump_and_nt.run(run_results, RULES, min_cell=10)
    c = t["nt_vs_trump_table_play"]
    deal = frame["deal"].to_numpy()
    scores, _ = bidding_chart.table_play_scores(frame, RULES, model)
    names = [str(b) for b in bidding_chart._bids(RULES)]
    for level, aces in ((6, "all"), (7, "1 aces"), (8, "all")):
        r = c[(c["level"] == level) & (c["aces"] == aces)].iloc[0]
        sel = np.ones(len(frame), bool) if aces == "all" else (frame["aces"] == int(aces[0])).to_numpy()
        diff = (scores[:, names.index(f"{level}NT")] - scores[:, names.index(str(level))])[sel]
        mean, lo, hi = _cr1_mean(diff, deal[sel])
        assert r["nt_minus_trump"] == pytest.approx(mean)
        assert r["lo"] <= lo + 1e-9 and r["hi"] >= hi - 1e-9
    # the model's own error: the spread of the replicates' means, here computed hand by hand
    from kaiser_sim.studies.common import with_model_error

    reps = [bidding_chart.table_play_scores(frame, RULES, m)[0] for m in model.replicates()]
    means = [(x[:, names.index("6NT")] - x[:, names.index("6")]).mean() for x in reps]
    diff = scores[:, names.index("6NT")] - scores[:, names.index("6")]
    mean, lo, hi = _cr1_mean(diff, deal)
    want = with_model_error({"n": len(diff), "mean": mean, "lo": lo, "hi": hi}, float(np.std(means, ddof=1)), deal)
    r = c[(c["level"] == 6) & (c["aces"] == "all")].iloc[0]
    assert (r["lo"], r["hi"]) == pytest.approx((want["lo"], want["hi"]))
    assert r["se_model"] == pytest.approx(float(np.std(means, ddof=1)))
    assert np.isnan(t["nt_vs_trump"]["se_model"]).all()  # double dummy: no model


def test_the_nt_lines_say_when_the_models_error_makes_them_wide():
    """The cheat sheet's NT lines explain a wide interval (over ±0.1) only
    when the table-play model's own error is at least half its variance."""
    words = trump_and_nt.model_width_words
    assert "78%" in words([(0.2, 0.09)]) and "±0.2 points" in words([(0.2, 0.09)])
    assert "±0.2 to ±0.3" in words([(0.2, 0.09), (0.3, 0.14)])
    assert words([(0.05, 0.02)]) == ""  # narrow: nothing to explain
    assert words([(0.3, 0.05)]) == ""  # wide from too few deals, not the model: not said
    assert words([(0.2, float("nan"))]) == ""  # double dummy


# --- bidding chart: choose on one half, report from the other --------------------------------


def test_split_halves_are_disjoint(frame):
    deal = frame["deal"].to_numpy()
    select, report = bidding_chart.split_halves(deal)
    assert not (select & report).any() and (select | report).all()
    assert set(deal[select]).isdisjoint(set(deal[report]))
    assert set(deal[select]) and set(deal[report])
    # all four seats of a deal on one side
    assert (pd.Series(select).groupby(deal).nunique() == 1).all()


def test_bidding_chart_chooses_and_reports_on_different_deals(frame, run_results):
    min_cell = 8
    t = bidding_chart.run(run_results, RULES, min_cell=min_cell)
    chart = t["chart"]
    assert len(chart) >= 4
    names, sc = bidding_chart.scores_matrix(frame, RULES)
    bids = [b for b in ladder(RULES) if not b.low]
    deal = frame["deal"].to_numpy()
    select = deal % 2 == 0
    for _, r in chart.iterrows():
        cell = ((frame["strength_bucket"] == r["strength"]) & (frame["length_bucket"] == r["trump_len"])).to_numpy()
        sel, rep = np.nonzero(cell & select)[0], np.nonzero(cell & ~select)[0]
        assert set(deal[sel]).isdisjoint(deal[rep])
        assert (r["n_select"], r["n_report"], r["n"]) == (len(sel), len(rep), cell.sum())
        # the best bid (the largest of many means): chosen on the selecting half only
        means = sc[sel].mean(axis=0)
        order = sorted(range(len(names)), key=lambda j: -means[j])  # stable: ties to the lower bid
        best, second = order[0], order[1]
        assert (r["best_bid"], r["runner_up"]) == (names[best], names[second])
        # the limits (each bid's sign on its own): on every hand of the cell
        rows = {j: _cr1_mean(sc[cell, j], deal[cell]) for j in range(len(names))}
        plain = [j for j in range(len(names)) if not bids[j].nt and rows[j][0] > 0]
        nt = [j for j in range(len(names)) if bids[j].nt and rows[j][0] > 0]
        assert r["bid_up_to"] == (names[plain[-1]] if plain else "pass")
        assert r["nt_up_to"] == (names[nt[-1]] if nt else "pass")
        assert r["limit_level"] == (bids[plain[-1]].level if plain else 0)
        if plain:
            assert (r["up_to_expected"], r["up_to_lo"], r["up_to_hi"]) == pytest.approx(rows[plain[-1]])
        for settled, ups, is_nt in (("settled", plain, False), ("nt_settled", nt, True)):
            ladder_ = [j for j in range(len(names)) if bids[j].nt == is_nt]
            above = [j for j in ladder_ if not ups or bids[j].level > bids[ups[-1]].level]
            pays = not ups or rows[ups[-1]][1] > 0
            loses = not above or rows[above[0]][2] < 0
            assert r[settled] == (pays and loses), settled
        # the estimates: on the reporting half only, clustered by deal
        assert (r["expected"], r["lo"], r["hi"]) == pytest.approx(_cr1_mean(sc[rep, best], deal[rep]), nan_ok=True)
        margin = _cr1_mean(sc[rep, best] - sc[rep, second], deal[rep])
        assert (r["margin"], r["margin_lo"], r["margin_hi"]) == pytest.approx(margin, nan_ok=True)
        assert r["clear"] == bool(margin[1] > 0)
        raw = frame["nt_pts" if bids[best].nt else "trump_pts"].to_numpy()[rep]
        assert r["p_make"] == pytest.approx(np.mean(raw >= bids[best].level))
        # 'sure': the highest bid up to the limit whose interval (all the cell's hands) is above 0
        for col, ups in (("bid_up_to_sure", plain), ("nt_up_to_sure", nt)):
            sure = [j for j in range(len(names)) if ups and bids[j].nt == bids[ups[-1]].nt
                    and bids[j].level <= bids[ups[-1]].level and rows[j][1] > 0]
            assert r[col] == (names[sure[-1]] if sure else "pass"), col
    # the chart note says how it is done
    note = t.meta("chart").note
    assert "even-numbered deals" in note and "clustered by deal" in note


def test_bidding_chart_choice_ignores_the_reporting_half(results, run_results):
    """Scramble the points of the odd (reporting) deals: every best-bid
    choice stays, every reported estimate of a real cell moves."""
    min_cell = 8
    before = bidding_chart.run(run_results, RULES, min_cell=min_cell)["chart"]
    pts = points_array(results, STANDARD).copy()
    odd = results["deal"].to_numpy() % 2 == 1
    rng = np.random.default_rng(0)
    pts[odd] = rng.integers(-2, 13, size=pts[odd].shape)
    hands = results[["hand_N", "hand_E", "hand_S", "hand_W"]].to_numpy(dtype=np.uint64)
    after = bidding_chart.run(results_run(hands, points=pts, seed=SEED), RULES, min_cell=min_cell)["chart"]
    keys = ["strength", "trump_len", "n_select", "n_report", "best_bid", "runner_up"]
    assert before[keys].astype(str).equals(after[keys].astype(str))
    assert not np.allclose(before["expected"], after["expected"])


def test_bidding_chart_other_tables_use_every_hand(frame, run_results):
    t = bidding_chart.run(run_results, RULES, min_cell=8)
    names, sc = bidding_chart.scores_matrix(frame, RULES)
    deal = frame["deal"].to_numpy()
    ex = t["expected"]
    r = ex[(ex["bid"] == "8")].iloc[0]
    cell = ((frame["strength_bucket"] == r["strength"]) & (frame["length_bucket"] == r["trump_len"])).to_numpy()
    j = names.index("8")
    assert r["n"] == cell.sum()
    assert (r["expected"], r["lo"], r["hi"]) == pytest.approx(_cr1_mean(sc[cell, j], deal[cell]))
    made = frame["trump_pts"].to_numpy()[cell] >= 8
    assert (r["p_make"], r["p_lo"], r["p_hi"]) == pytest.approx(_cr1_share(made, deal[cell]))
    by = t["expected_by_strength"]
    r = by[by["bid"] == "7NT"].iloc[0]
    sel = (frame["strength_bucket"] == r["strength"]).to_numpy()
    assert (r["mean"], r["lo"], r["hi"]) == pytest.approx(_cr1_mean(sc[sel, names.index("7NT")], deal[sel]))

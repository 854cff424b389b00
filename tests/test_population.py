"""The bidding population (kaiser_sim.strategy.population): its probabilities
against a naive softmax, its draws, hand-worked calls a strong player would
not dispute, the forced dealer, the endgame, and a reproducible build."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from click.testing import CliRunner

from kaiser_sim.cards import parse_hand
from kaiser_sim.cli import main
from kaiser_sim.rules import Rules
from kaiser_sim.strategy.policies import (ACTIONS, FLOOR, FLOOR_MIN, FLOOR_SCALE, PASS, BidView, ScoreAwarePolicy, auction_limits, call_uniforms,
                                          draw_calls, get_policy, ladder_arrays, position_calls)
from kaiser_sim.strategy.population import (PopulationPolicy, build_models, quantal, read_population, save_models)

RULES = Rules()
LAD = ladder_arrays(RULES)


def view_of(hands, calls, scores=(0, 0), dealer=3):
    """A view of one call after ``calls`` (strings) for each hand in ``hands``."""
    n, k = len(hands), len(calls)
    ranks = [PASS if c == "pass" else LAD.rank(c) for c in calls]
    return BidView(np.array([parse_hand(h) for h in hands], dtype=np.uint64),
                   np.tile(np.array(ranks, dtype=np.int16), (n, 1)).reshape(n, k),
                   np.full(n, (dealer + 1 + k) % 4), np.full(n, dealer), np.tile(np.array(scores), (n, 1)),
                   np.full(n, RULES.target), RULES)


#: the most a call outside the actions gets: the floor's share (spread over at least one call)
FLOOR_SHARE = 0.0101


def probs(hand, calls, scores=(0, 0)):
    return PopulationPolicy().probs(view_of([hand], calls, scores))[0]


def col(call):
    return 0 if call == "pass" else 1 + LAD.rank(call)


def random_views(n, seed):
    """``n`` views of random legal auction prefixes (random calls, each legal when made)."""
    from kaiser_sim.deal import deal_batch

    rng = np.random.default_rng(seed)
    hands = deal_batch(n // 4 + 1, seed).reshape(-1)[:n]
    k = rng.integers(0, 4, n)
    out = []
    for kk in range(4):
        sel = np.flatnonzero(k == kk)
        calls = np.full((sel.size, kk), PASS, dtype=np.int16)
        for j in range(kk):
            high, lo, _ = auction_limits(calls[:, :j], RULES)
            bid = rng.random(sel.size) < 0.5
            r = np.minimum(lo + rng.integers(0, 3, sel.size), len(LAD) - 1)
            calls[:, j] = np.where(bid & (r > high), r, PASS)
        out.append(BidView(hands[sel], calls, (3 + 1 + kk) % 4 + np.zeros(sel.size, dtype=np.int64),
                           np.full(sel.size, 3), np.zeros((sel.size, 2), dtype=np.int64), np.full(sel.size, 52),
                           RULES))
    return out


def test_the_shipped_population_is_read_and_registered():
    models = read_population()
    assert "table" in models
    info = models["table"].info
    assert info["deals"] >= 16000 and len(info["rounds"]) >= 2 and info["temperature"] > 0
    assert get_policy("population").stochastic and not get_policy("ev").stochastic


def test_every_legal_call_has_a_probability_and_the_rows_sum_to_one():
    pol = PopulationPolicy()
    for view in random_views(800, 5):
        p = pol.probs(view)
        _, lo, can_pass = view.limits
        legal = np.concatenate([can_pass[:, None], np.arange(len(LAD))[None, :] >= lo[:, None]], axis=1)
        assert p.shape == (len(view), len(LAD) + 1)
        np.testing.assert_allclose(p.sum(axis=1), 1.0, atol=1e-12)
        assert (p[legal] > 0).all() and (p[~legal] == 0).all()


def test_quantal_against_a_naive_softmax():
    rng = np.random.default_rng(3)
    calls = np.array([[], []], dtype=np.int16).reshape(2, 0)
    acts = position_calls(calls, 0, RULES)
    q = rng.normal(0, 3, (2, len(ACTIONS)))
    legal = np.ones((2, len(LAD) + 1), dtype=bool)
    ev = rng.normal(-3, 4, (2, len(LAD)))
    ev[0, 8] = 5.0  # a call outside the actions (9 in a suit) the hand's best: the whole flat share
    for e_in in (None, ev):
        got = quantal(q, acts, legal, temperature=0.7, floor=0.02, action_floor=0.001, ev=e_in)
        for i in range(2):
            ok = [a for a in range(len(ACTIONS)) if acts[i, a] != -2]
            e = [math.exp(q[i, a] / 0.7) for a in ok]
            soft = np.zeros(len(LAD) + 1)
            for a, x in zip(ok, e):
                soft[acts[i, a] + 1] = 0.999 * x / sum(e) + 0.001 / len(ok)
            rest = [c for c in range(len(LAD) + 1) if soft[c] == 0]
            # naive floor: 0.02 / len(rest) to each other call, times e^-(points below the best call's
            # expected score, a pass 0), at least FLOOR_MIN
            best = max([0.0] + [ev[i, r] for r in range(len(LAD))]) if e_in is not None else 0.0
            f = np.zeros(len(LAD) + 1)
            for c in rest:
                gap = 0.0 if e_in is None else best - (0.0 if c == 0 else ev[i, c - 1])
                f[c] = max(0.02 / len(rest) * math.exp(-gap / FLOOR_SCALE), FLOOR_MIN)
            want = (1 - f.sum()) * soft + f
            np.testing.assert_allclose(got[i], want, rtol=1e-12)
            if e_in is not None and i == 0:
                assert got[0, 9] == pytest.approx(0.02 / len(rest))


def test_the_floor_gives_no_slip_to_a_call_that_throws_points_away():
    # A strong player never bids 11NT on nothing: T 9 of spades, no heart, 9 8 7 in the minors, second to
    # speak after a pass (the flat floor's 11NT that left exploitability's dealer a partner's 11NT to
    # rescue) -- one in a million; a call as good as the hand's best keeps the floor's full share.
    from kaiser_sim.strategy.policies import hand_values

    p = probs("T9.-.987.987", ["pass"])
    assert p[col("9"):].max() < 1e-5 and p[col("11NT")] == pytest.approx(FLOOR_MIN, rel=1e-3)
    # on random hands and auctions: no call outside the actions above the floor's share at its gap
    pol = PopulationPolicy()
    for view in random_views(800, 6):
        p = pol.probs(view)
        ev = hand_values(view.hands, RULES)[0]
        _, lo, can_pass = view.limits
        legal = np.concatenate([can_pass[:, None], np.arange(len(LAD))[None, :] >= lo[:, None]], axis=1)
        worth = np.concatenate([np.zeros((len(view), 1)), ev], axis=1)
        gap = np.where(legal, worth, -np.inf).max(axis=1, keepdims=True) - worth
        cap = np.maximum(FLOOR * np.exp(-gap / FLOOR_SCALE), FLOOR_MIN) * (1 + 1e-9)
        # the actions (pass, the cheapest bids, one step above them, the match) are the softmax's
        acts = np.zeros_like(legal)
        k = view.calls.shape[1]
        pa = position_calls(np.asarray(view.calls), k, RULES)
        for a in range(len(ACTIONS)):
            r = np.flatnonzero(pa[:, a] != -2)
            acts[r, pa[r, a] + 1] = True
        other = legal & ~acts & ~pol.late(view)[:, None]
        assert (p[other] <= cap[other]).all() and (p[legal] >= FLOOR_MIN * (1 - 1e-9)).all()


def test_draws_follow_the_probabilities_and_the_uniforms_are_a_hash():
    p = np.tile(np.array([0.5, 0.0, 0.3, 0.2]), (40000, 1))
    u = np.random.default_rng(1).random(40000)
    c = draw_calls(p, u)
    share = np.bincount(c + 1, minlength=4) / c.size
    np.testing.assert_allclose(share, [0.5, 0.0, 0.3, 0.2], atol=0.01)  # 4 SD of a share of 0.5 at n 40,000
    view = random_views(16000, 9)[2]  # about 4,000 rows
    u1 = call_uniforms(view, 7)
    order = np.random.default_rng(0).permutation(len(view))
    shuffled = BidView(view.hands[order], view.calls[order], view.seat[order], view.dealer[order],
                       view.scores[order], view.target[order], RULES)
    np.testing.assert_array_equal(call_uniforms(shuffled, 7), u1[order])
    assert ((u1 >= 0) & (u1 < 1)).all() and not np.array_equal(call_uniforms(view, 8), u1)
    counts = np.bincount((u1 * 10).astype(int), minlength=10)
    expect = len(view) / 10
    assert (np.abs(counts - expect) < 4 * math.sqrt(expect * 0.9)).all()  # each tenth within 4 SD


def test_hand_worked_calls():
    # A K Q J of spades, the ace of hearts, the ace and king of diamonds, the ace of clubs: eight
    # winners in no trump; any player opens it, and keeps bidding after the others' 6 and 7
    p = probs("AKQJ.A.AK.A", [])
    assert p[0] < 0.1
    assert p[1:].sum() > 0.9
    assert probs("AKQJ.A.AK.A", ["6", "7"])[0] < 0.2
    # T 9 of spades, no heart, 9 8 7 in the minors: not a trick; first to speak it passes
    assert probs("T9.-.987.987", [])[0] > 0.7
    # nothing in hand after an opponent's 6: pass, and never a jump to 9 (the straw man)
    p = probs("98.J9.T8.98", ["6"])
    assert p[0] > 0.8
    assert p[col("9"):].sum() < 0.02
    # the dealer after three passes must bid: passing has probability 0, the cheapest bid is likeliest
    p = probs("KQ.QJ.KQ.K8", ["pass", "pass", "pass"])
    assert p[0] == 0.0 and p.sum() == pytest.approx(1.0)
    assert np.argmax(p) == col("6")
    call = get_policy("population").call("KQ.QJ.KQ.K8", ["pass", "pass", "pass"], seat=3, dealer=3)
    assert call is not None


def test_from_45_the_score_aware_values_decide():
    from kaiser_sim.strategy.policies import ENDGAME_SCORE_WEIGHT, ENDGAME_TEMPERATURE, hand_values

    hands = ["98.J9.T8.98", "AKQJ.A.AK.A", "KQ.QJ.KQ.K8", "A98.K9.A8.98"]
    for calls in ([], ["6"], ["pass", "7"]):
        view = view_of(hands, calls, scores=(46, 30))
        p = PopulationPolicy().probs(view)
        values, _, pass_value = ScoreAwarePolicy().values(view)
        ev = hand_values(view.hands, RULES)[0]
        _, lo, can_pass = view.limits
        v = np.concatenate([np.where(can_pass, pass_value, -np.inf)[:, None],
                            np.where(np.arange(len(LAD))[None, :] >= lo[:, None], values, -np.inf)], axis=1)
        best = np.argmax(v, axis=1)
        clear = np.sort(v, axis=1)[:, -1] - np.sort(v, axis=1)[:, -2] > 0.05  # 5 points of P(win): e^5 the odds
        assert (np.argmax(p, axis=1)[clear] == best[clear]).all()
        # naive: each legal call's weight exp((P(win) + w x its expected hand score) / T), then the floor
        # (FLOOR / the legal calls, times e^-(points of expected hand score below the best legal call's))
        for i in range(len(hands)):
            legal = np.isfinite(v[i])
            z = [(v[i, c] + (ENDGAME_SCORE_WEIGHT * ev[i, c - 1] if c else 0.0)) / ENDGAME_TEMPERATURE
                 for c in range(len(LAD) + 1) if legal[c]]
            e = np.exp(np.array(z) - max(z))
            worth = np.array([0.0 if c == 0 else ev[i, c - 1] for c in range(len(LAD) + 1)])[legal]
            f = np.maximum(FLOOR / legal.sum() * np.exp(-(worth.max() - worth) / FLOOR_SCALE), FLOOR_MIN)
            want = np.zeros(len(LAD) + 1)
            want[legal] = (1 - f.sum()) * e / e.sum() + f
            np.testing.assert_allclose(p[i], want, rtol=1e-9, atol=1e-15)


@pytest.mark.parametrize("scores", [(-60, 46), (-52, 50), (51, 10)])
def test_from_45_no_endless_sacrifice(scores):
    # Below -52 the win table clips the score to -52, so a set looks free, and a match all but lost
    # (or won) leaves every call's P(win) alike: the hand's own expected score must decide there.  With
    # nothing in hand (T 9 of spades, 9 8 7 in the minors: no trick) a bid of 8 or more fails by at least
    # 8 points (16 in NT); a player does not throw those away, hand after hand (the matches of -1,594).
    p = probs("T9.-.987.987", [], scores=scores)
    assert p[col("8"):].sum() < 0.05
    p = probs("98.J9.T8.98", ["6"], scores=scores)
    assert p[col("8"):].sum() < 0.05


def test_the_dealer_leaves_its_partners_high_no_trump_alone():
    # A made bid scores the points taken, not the level bid: over its partner's 9NT or 10NT the
    # dealer's match only moves the declarer and an NT bid above only raises what the side must make.
    # The population weighs neither (they keep the floor's share); and a dealer with nothing passes.
    from kaiser_sim.deal import deal_batch

    hands = deal_batch(200, 5).reshape(-1)[:600]
    n = hands.size
    for bid in ("9NT", "10NT", "8NT"):
        calls = np.tile(np.array([PASS, LAD.rank(bid), PASS], dtype=np.int16), (n, 1))
        p = PopulationPolicy().probs(BidView(hands, calls, np.full(n, 3), np.full(n, 3), np.zeros((n, 2), dtype=np.int64),
                                             np.full(n, RULES.target), RULES))
        above = [c for c in range(col(bid), len(LAD) + 1) if c == col(bid) or LAD.nt[c - 1]]
        assert p[:, above].sum(axis=1).max() < FLOOR_SHARE
        assert p[:, 0].mean() > 0.85, bid
        assert probs("98.J9.T8.98", ["pass", bid, "pass"])[0] > 0.95


def test_the_third_seat_leaves_its_partners_high_no_trump_alone():
    # the same over a first seat's 9NT or 10NT: the third seat's suit bid of 10 or more trades a doubled
    # contract for one that needs nearly every point (it took A.AKQJT98.-.-'s 9NT out to 11 on 48% of deals)
    from kaiser_sim.deal import deal_batch

    hands = deal_batch(200, 6).reshape(-1)[:600]
    n = hands.size
    for bid in ("9NT", "10NT"):
        calls = np.tile(np.array([LAD.rank(bid), PASS], dtype=np.int16), (n, 1))
        p = PopulationPolicy().probs(BidView(hands, calls, np.full(n, 2), np.full(n, 3), np.zeros((n, 2), dtype=np.int64),
                                             np.full(n, RULES.target), RULES))
        assert p[:, 1:].sum(axis=1).max() < FLOOR_SHARE and p[:, 0].mean() > 0.99, bid


@pytest.fixture(scope="module")
def tiny_build(tmp_path_factory):
    d = tmp_path_factory.mktemp("pop")
    paths = []
    for name in ("a", "b"):
        models = build_models(deals=200, seed=11, plays=("table",), max_rounds=2)
        paths.append(d / f"{name}.npz")
        save_models(models, paths[-1])
    return paths, models


def test_a_build_is_reproducible_from_its_seed(tiny_build):
    (a, b), models = tiny_build
    ma, mb = read_population(a)["table"], read_population(b)["table"]
    np.testing.assert_array_equal(ma.coef, mb.coef)
    np.testing.assert_array_equal(ma.center, mb.center)
    untimed = [[{k: v for k, v in r.items() if k != "seconds"} for r in m.info["rounds"]] for m in (ma, mb)]
    assert untimed[0] == untimed[1] and ma.info["deals"] == 200 and ma.info["seed"] == 11
    # the tiny population is a policy like the shipped one: every legal call > 0
    p = PopulationPolicy(model=ma).probs(view_of(["KQ.QJ.KQ.K8", "T9.-.987.987"], ["pass", "pass", "pass"]))
    assert p[:, 0].max() == 0 and (p[:, 1:] > 0).all()


def test_the_built_population_calls_cooler_than_its_rounds(tiny_build):
    """The rounds call at TEMPERATURE (0.5), the file's population at PLAY_TEMPERATURE (0.3): the same values,
    the best action more likely; both recorded in its provenance and named where it is used."""
    from kaiser_sim.strategy.policies import PLAY_TEMPERATURE, TEMPERATURE, population_note

    (a, _), _ = tiny_build
    m = read_population(a)["table"]
    assert PLAY_TEMPERATURE < TEMPERATURE
    assert m.temperature == PLAY_TEMPERATURE and m.info["fit_temperature"] == TEMPERATURE
    warm = dataclasses.replace(m, temperature=TEMPERATURE)
    view = view_of(["AKQJ.A.AK.A", "AK93.5.AK.8", "KQ.QJ.KQ.K8"], ["pass", "pass", "pass"])
    cool_p, warm_p = PopulationPolicy(model=m).probs(view), PopulationPolicy(model=warm).probs(view)
    top = warm_p.argmax(axis=1)
    assert (cool_p.argmax(axis=1) == top).all()
    assert (cool_p[np.arange(3), top] > warm_p[np.arange(3), top]).all()
    assert "temperature 0.3" in population_note(Rules()) and "at 0.5" in population_note(Rules())


def test_the_build_command_refuses_bad_input(tmp_path):
    r = CliRunner().invoke(main, ["population-model", "--deals", "50", "--out", str(tmp_path / "p.npz")])
    assert r.exit_code == 2 and not (tmp_path / "p.npz").exists()
    r = CliRunner().invoke(main, ["population-model", "--rules", "low-nt", "--out", str(tmp_path / "p.npz")])
    assert r.exit_code == 2 and not (tmp_path / "p.npz").exists()


def test_the_advisor_names_the_population_and_what_it_assumes():
    from kaiser_sim import config
    from kaiser_sim.strategy.policies import population_note

    note = population_note(RULES)
    info = read_population()["table"].info
    assert f"{info['deals']:,} solved deals" in note and f"seed {info['seed']}" in note and "every legal call" in note
    if config.AUCTION_BIDDERS == "population":  # the default (a separate commit)
        r = CliRunner().invoke(main, ["hand", "AK93.5.AK.8", "-n", "4", "--no-specials"])
        assert r.exit_code == 0, r.output
        assert note in r.output

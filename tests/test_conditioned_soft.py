"""Soft conditioning on the calls heard: importance weights
(kaiser_sim.strategy.conditioned, ``method="weights"``) and the trembling
hand of a deterministic policy (``Policy.probs``).

The references are written apart from the library: the legal calls from
:func:`kaiser_sim.auction.legal_calls` (the rules' words, one auction at a
time), each candidate's call asked through the one-hand ``Policy.call``,
rejection's deals (the method the weights replace) for the same odds, and
the exact weighted sum that priority sampling estimates.
"""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from kaiser_sim.auction import Bid, legal_calls, ladder
from kaiser_sim.cards import FIVE_HEARTS_BIT, THREE_SPADES_BIT
from kaiser_sim.cli import main
from kaiser_sim.deal import deal_at, deal_batch
from kaiser_sim.deal import deal_for_rules
from kaiser_sim.hands import strength
from kaiser_sim.rules import PRESETS, Rules
from kaiser_sim.strategy.advisor import read_hand
from kaiser_sim.strategy.conditioned import (
    AuctionTooRare,
    conditioned_deals,
    priority_sample,
    priority_uniforms,
    what_the_calls_told,
)
from kaiser_sim.strategy.policies import PASS, TREMBLE, BidView, Policy, get_policy

STANDARD = Rules.preset("standard")
HAND = "AQ98.K5.A.T"
SOUTH, WEST = 2, 3


def weighted(x, w=None):
    """(mean, standard error) of ``x`` with weights ``w`` (each deal one draw)."""
    x = np.asarray(x, dtype=np.float64)
    w = np.ones_like(x) if w is None else np.asarray(w, dtype=np.float64)
    m = float((w * x).sum() / w.sum())
    return m, float(np.sqrt((w * w * (x - m) ** 2).sum()) / w.sum())


def random_auctions(rules: Rules, rng, count: int):
    """``count`` legal (dealer, calls) prefixes of 0..3 calls, drawn call by
    call from :func:`legal_calls`."""
    out = []
    for _ in range(count):
        dealer = int(rng.integers(4))
        calls = []
        for _ in range(int(rng.integers(4))):
            legal = legal_calls(rules, dealer, calls)
            calls.append(legal[int(rng.integers(len(legal)))] if rng.random() < 0.7 else legal[0])
        out.append((dealer, tuple(calls)))
    return out


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_tremble_gives_every_legal_call_and_only_those(preset):
    """Every row sums to 1, every legal call (the rules' list) has more than
    0, every other column 0; the policy's own call has 1 - TREMBLE and the
    others share TREMBLE equally."""
    rules = Rules.preset(preset)
    lad = ladder(rules)
    rng = np.random.default_rng(41)
    deals, _ = deal_for_rules(24, 3, rules)
    for name in ("ev", "rank-squared"):
        policy = get_policy(name)
        assert policy.stochastic is False
        for j, (dealer, calls) in enumerate(random_auctions(rules, rng, 24)):
            seat = (dealer + 1 + len(calls)) % 4
            hand = deals[j, seat]
            view = BidView(np.array([hand], dtype=np.uint64),
                           np.array([[PASS if c is None else lad.index(c) for c in calls]], dtype=np.int16)
                           .reshape(1, len(calls)), np.array([seat]), np.array([dealer]),
                           np.zeros((1, 2), dtype=np.int64), np.array([rules.target]), rules)
            p = policy.probs(view)[0]
            assert p.shape == (len(lad) + 1,) and p.sum() == pytest.approx(1.0, abs=1e-12)
            legal = np.zeros(len(lad) + 1, dtype=bool)
            for c in legal_calls(rules, dealer, calls):
                legal[0 if c is None else 1 + lad.index(c)] = True
            assert (p[legal] > 0).all() and (p[~legal] == 0).all()
            own = policy.call(int(hand), calls, seat=seat, dealer=dealer, rules=rules)
            col = 0 if own is None else 1 + lad.index(own)
            if legal.sum() > 1:
                assert p[col] == pytest.approx(1 - TREMBLE)
                assert np.allclose(np.delete(p, col)[np.delete(legal, col)], TREMBLE / (legal.sum() - 1))
            else:
                assert p[col] == 1.0


def test_weights_are_the_tremble_of_each_candidates_call():
    """One heard call: a candidate weighs 1 - TREMBLE where the model (asked
    hand by hand) makes it, TREMBLE / (legal calls - 1) elsewhere; the mean
    weight over the candidates is P(the call | the hand)."""
    hand = read_hand(HAND, STANDARD)
    cd = conditioned_deals(hand, SOUTH, "6", 40, 5, STANDARD, "ev")
    ev = get_policy("ev")
    dealer = cd.dealer
    east = (dealer + 1) % 4
    m = len(legal_calls(STANDARD, dealer, [])) - 1
    d, _ = deal_for_rules(cd.candidates, 5, STANDARD, fixed={SOUTH: hand}, redeal_weak=True, seats=[0, 1, 3])
    made = np.array([ev.call(int(x), (), seat=east, dealer=dealer, rules=STANDARD) == Bid(6) for x in d[:, east]])
    w = np.where(made, 1 - TREMBLE, TREMBLE / m)
    assert cd.acceptance == pytest.approx(w.mean(), rel=1e-12)
    assert cd.steps[0].rate == pytest.approx(w.mean(), rel=1e-12) and cd.steps[0].kept == made.sum()
    assert cd.candidate_ess == pytest.approx(w.sum() ** 2 / (w * w).sum(), rel=1e-9)
    # the kept deals are candidates, in stream order, each with its own weight or the threshold above it
    pos = [int(np.nonzero((d == row).all(axis=1))[0][0]) for row in cd.deals]
    assert pos == sorted(pos) and (cd.weights >= w[pos] - 1e-15).all()


@pytest.mark.parametrize("bidders", ["ev", "listening"])
@pytest.mark.parametrize("call", ["6", "pass"])
def test_weights_give_the_odds_of_rejection(bidders, call, monkeypatch):
    """A common auction (the opponent on South's right opens 6, or passes):
    that seat's mean count and the chance it holds the 3S are the same under
    both methods within error (independent seeds, so the intervals are
    those of two independent samples).  The weights condition on the
    trembling model, whose deals differ from rejection's by the tremble's
    share (~1% of the weight after an ev pass: +0.02 in the count); with a
    tremble of 1e-4 both methods have the same target."""
    import kaiser_sim.strategy.policies as policies

    monkeypatch.setattr(policies, "TREMBLE", 1e-4)
    hand = read_hand(HAND, STANDARD)
    n = 1500
    rej = conditioned_deals(hand, SOUTH, call, n, 11, STANDARD, bidders, method="reject")
    wts = conditioned_deals(hand, SOUTH, call, n, 12, STANDARD, bidders, method="weights")
    assert rej.weights is None and wts.weights.shape == (n,) and wts.weights.dtype == np.float64
    assert wts.ess > 0.8 * n and not wts.short
    opener = (wts.dealer + 1) % 4
    for stat in (lambda d: strength(d[:, opener]), lambda d: (d[:, opener] & THREE_SPADES_BIT) != 0):
        mr, sr = weighted(stat(rej.deals))
        mw, sw = weighted(stat(wts.deals), wts.weights)
        assert sr > 0 and sw > 0 and abs(mr - mw) < 3.5 * np.hypot(sr, sw), (mr, sr, mw, sw)
    if call == "pass":  # the count of a seat that passed is not a random hand's: the statistic tells calls apart
        base = deal_for_rules(n, 12, STANDARD, fixed={SOUTH: hand}, redeal_weak=True, seats=[0, 1, 3])[0]
        mb, sb = weighted(strength(base[:, opener]))
        assert abs(weighted(strength(wts.deals[:, opener]), wts.weights)[0] - mb) > 4 * sb
    assert abs(wts.acceptance - rej.acceptance) < 0.05  # P(6 | the hand), both ways


def test_the_forced_dealer_and_an_opening_7_get_deals():
    """Rejection refuses both under ev; weights give deals with a positive
    effective sample size, and say when it is below its floor."""
    dealer_hand = read_hand("KQ.QJ.KQ.K8", STANDARD)
    with pytest.raises(AuctionTooRare):
        conditioned_deals(dealer_hand, WEST, "pass pass pass", 60, 0, STANDARD, max_candidates=20_000,
                          method="reject")
    cd = conditioned_deals(dealer_hand, WEST, "pass pass pass", 60, 0, STANDARD, max_candidates=20_000)
    assert cd.kept == 60 and cd.ess > 1 and (cd.weights > 0).all() and 60 <= cd.candidates <= 20_000
    assert cd.short == (cd.candidate_ess < cd.ess_floor) and 0 < cd.acceptance < 1e-3
    hand = read_hand(HAND, STANDARD)
    with pytest.raises(AuctionTooRare):
        conditioned_deals(hand, SOUTH, "7", 60, 0, STANDARD, max_candidates=20_000, method="reject")
    cd = conditioned_deals(hand, SOUTH, "7", 60, 0, STANDARD, max_candidates=20_000)
    assert cd.kept == 60 and cd.ess > 30 and not cd.short
    r = CliRunner().invoke(main, ["hand", "KQ.QJ.KQ.K8", "--seat", "W", "--auction", "pass pass pass", "-n", 40,
                                  "--max-candidates", 20_000, "--no-specials", "--play", "dd"])
    assert r.exit_code == 0, r.output


def test_weights_are_reproducible_and_do_not_depend_on_the_block():
    hand = read_hand(HAND, STANDARD)
    a = conditioned_deals(hand, SOUTH, "6 7 pass", 30, 4, STANDARD, block=97)
    b = conditioned_deals(hand, SOUTH, "6 7 pass", 30, 4, STANDARD, block=65_536)
    c = conditioned_deals(hand, SOUTH, "6 7 pass", 30, 4, STANDARD)
    for x in (b, c):
        assert np.array_equal(a.deals, x.deals) and np.array_equal(a.kitties, x.kitties)
        assert np.array_equal(a.weights, x.weights) and a.candidates == x.candidates
        assert a.mass == x.mass and a.candidate_ess == x.candidate_ess
        assert [(s.tried, s.kept, s.instead) for s in a.steps] == [(s.tried, s.kept, s.instead) for s in x.steps]
        assert [s.p for s in a.steps] == pytest.approx([s.p for s in x.steps], rel=1e-12)
    d = conditioned_deals(hand, SOUTH, "6 7 pass", 30, 5, STANDARD)
    assert not np.array_equal(a.deals, d.deals)  # the seed matters


def test_priority_sampling_is_unbiased():
    """A known weighted sum over 300 items (weights spread over four orders
    of magnitude), estimated from 20 kept items over 3,000 seeds: the mean
    estimate is the sum within 4 standard errors, and kept weights sum to
    the total weight on average."""
    rng = np.random.default_rng(7)
    w = np.exp(rng.normal(0, 2.5, 300))
    x = rng.normal(3, 1, 300) + np.log(w)
    truth = float((w * x).sum())
    est, tot = [], []
    for seed in range(3000):
        keep, kw = priority_sample(w, priority_uniforms(seed, np.arange(300)), 20)
        assert keep.shape == (20,) and (np.diff(keep) > 0).all() and (kw >= w[keep]).all()
        est.append(float((kw * x[keep]).sum()))
        tot.append(float(kw.sum()))
    for e, t in ((np.array(est), truth), (np.array(tot), float(w.sum()))):
        assert abs(e.mean() - t) < 4 * e.std() / np.sqrt(e.size), (e.mean(), t)
    keep, kw = priority_sample(w[:10], np.ones(10), 20)  # no more items than kept: all, as they are
    assert np.array_equal(keep, np.arange(10)) and np.array_equal(kw, w[:10])
    u = priority_uniforms(3, np.arange(1000))
    assert (u > 0).all() and (u <= 1).all() and np.array_equal(u[500:], priority_uniforms(3, np.arange(500, 1000)))


def test_what_the_calls_told_is_weighted():
    hand = read_hand(HAND, STANDARD)
    cd = conditioned_deals(hand, SOUTH, "6 7 pass", 200, 2, STANDARD)
    told = what_the_calls_told(cd, STANDARD)
    for s, t in told.items():
        assert t["count"] == pytest.approx(np.average(strength(cd.deals[:, s]), weights=cd.weights))
        assert t["p_5h"] == pytest.approx(np.average((cd.deals[:, s] & FIVE_HEARTS_BIT) != 0, weights=cd.weights))


class Never(Policy):
    """A broken model: probability 0 on every call (breaks the ``probs`` contract)."""

    name = "never"

    def bid(self, view):
        return np.full(len(view), PASS, dtype=np.int16)

    def probs(self, view):
        return np.zeros((len(view), 2))


def test_an_impossible_auction_is_refused():
    with pytest.raises(AuctionTooRare, match="probability 0"):
        conditioned_deals(read_hand(HAND, STANDARD), SOUTH, "6", 10, 0, STANDARD, Never(), max_candidates=500)


def test_deal_at_is_deal_batch_at_each_index():
    idx = np.array([17, 3, 3, 1_000_003, 0])
    hand = read_hand(HAND, STANDARD)
    ref = np.stack([deal_batch(1, 9, start=int(i), fixed={SOUTH: hand})[0] for i in idx])
    assert np.array_equal(deal_at(idx, 9, fixed={SOUTH: hand}), ref)


def test_the_summary_says_how_the_deals_were_conditioned():
    hand = read_hand("KQ.QJ.KQ.K8", STANDARD)
    cd = conditioned_deals(hand, WEST, "pass pass pass", 200, 0, STANDARD, max_candidates=3000)
    d = cd.summary()
    assert d["method"] == "weights" and d["deals"] == 200 and d["candidates"] == 3000 and d["short"]
    assert d["ess"] == pytest.approx(cd.weights.sum() ** 2 / (cd.weights ** 2).sum(), abs=0.06)
    assert d["candidate_ess"] < d["ess_floor"] == 200
    assert "effective sample size" in cd.describe() and "ran out" in cd.describe()
    r = conditioned_deals(read_hand(HAND, STANDARD), SOUTH, "6", 50, 0, STANDARD, method="reject")
    assert r.summary()["ess"] == 50 and r.describe().startswith(f"50 of {r.candidates:,} candidate deals")

"""``kaiser_sim.dd.play_bounds``: the bounds hold the exact games between them.

On random endgames ``lo <= declarer alone against three <= DD <= all four
cooperating <= hi`` (the exact games from ``tests/naive.py``); on fixed
deals: a hand of sure winners has ``lo == hi == DD``, a hand with none the
widest bounds."""

from __future__ import annotations

import numpy as np
import pytest

from kaiser_sim.cards import parse_deal, parse_hand
from kaiser_sim.deal import deal_batch
from kaiser_sim.dd import dd_strains, solve
from kaiser_sim.dd.play_bounds import play_bounds, strain_bounds

import naive


def _endgame(rng, k: int) -> np.ndarray:
    """A random deal of ``k`` cards a hand from the 32-card deck (the 5H and 3S often in it)."""
    deck = [s * 16 + r for s in range(4) for r in range(9) if not (s in (2, 3) and r == 0)
            and not (s in (0, 1) and r == 1)]
    cards = rng.permutation(deck)[: 4 * k]
    hands = np.zeros(4, np.uint64)
    for i, c in enumerate(cards):
        hands[i % 4] |= np.uint64(1) << np.uint64(int(c))
    return hands


@pytest.mark.parametrize("mode", ["points", "tricks"])
def test_bounds_hold_the_exact_games_on_endgames(mode):
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(24):
        k = int(rng.integers(2, 4))
        h = _endgame(rng, k)
        for leader in range(4):
            for strain in (int(rng.integers(0, 4)), 4):
                lo, hi = play_bounds(h[None, :], leader, strain, mode)[0]
                alone = naive.coalition_value_py(h, leader, strain, {leader}, mode)
                coop = naive.coalition_value_py(h, leader, strain, {0, 1, 2, 3}, mode)
                dd = naive.solve_py(h, leader, strain, mode)
                assert naive.coalition_value_py(h, leader, strain, {leader, leader ^ 2}, mode) == dd
                assert lo <= alone <= dd <= coop <= hi, (h, leader, strain, lo, alone, dd, coop, hi)
                checked += 1
    assert checked == 24 * 8


def test_a_claim_is_the_sure_line_and_never_below_double_dummy():
    """The claim (``claims``: ``hi = lo`` where the declarer's sure cards are
    every trick) is what the declarer takes against the other three
    (``tests/naive.py``) wherever double dummy agrees; where the side can
    give the 3S away double dummy is above it, and :func:`strain_bounds`
    with the values keeps the bound of any play there.  Endgames dealt
    until 40 claims are met (in tricks the claim changes nothing: without
    the 3S no play beats every trick)."""
    mode = "points"
    rng = np.random.default_rng(11)
    claimed = given_away = 0
    for _ in range(200):
        h = _endgame(rng, int(rng.integers(2, 4)))
        for leader in range(4):
            for s in range(5):
                assert tuple(play_bounds(h[None, :], leader, s, "tricks", claims=True)[0]) == tuple(
                    play_bounds(h[None, :], leader, s, "tricks")[0])
    while claimed < 40:
        h = _endgame(rng, int(rng.integers(2, 4)))
        for leader in range(4):
            lo, hi = strain_bounds(h[None, :], leader, mode)
            dd = np.array([[naive.solve_py(h, leader, s, mode) for s in range(5)]])
            lo_v, hi_v = strain_bounds(h[None, :], leader, mode, values=dd)
            assert np.array_equal(lo_v, lo) and (lo_v <= dd).all() and (dd <= hi_v).all() and (hi_v <= hi).all()
            for s in range(5):
                lo_c, hi_c = play_bounds(h[None, :], leader, s, mode, claims=True)[0]
                assert lo_c == lo[0, s] and hi_c <= hi[0, s]
                if hi_c == hi[0, s]:
                    continue
                alone = naive.coalition_value_py(h, leader, s, {leader}, mode)
                if dd[0, s] == lo_c:
                    assert alone == lo_c == hi_v[0, s], (h, leader, s)
                    claimed += 1
                else:  # the side gives the 3S away: double dummy above the claim, the bound of any play kept
                    assert dd[0, s] > lo_c and hi_v[0, s] == hi[0, s], (h, leader, s)
                    given_away += 1
    assert given_away > 0


def test_a_claimed_hand_plays_to_its_claim():
    """PIMC players (the model's K, as table play) take exactly the claim
    on deals where the declarer's sure cards are every trick: eight top
    winners in spades, 12 deals."""
    from kaiser_sim.game import play_deals
    from kaiser_sim.rules import STANDARD

    deals = deal_batch(12, 5, fixed={"N": parse_hand("AKQJ.A.AK.A")})
    dd = np.asarray(dd_strains(deals, 0))
    lo, hi = strain_bounds(deals, 0, values=dd)
    assert (lo[:, 0] == 10).all() and (hi[:, 0] == 10).all()
    n = len(deals)
    played = play_deals(deals, np.zeros(n, np.int64), np.zeros(n, np.int64), rules=STANDARD, seed=3)
    assert (played.declarer_points == 10).all()


def test_sure_winners_fix_the_points():
    # North holds the eight top cards of its suits (AKQJ of spades, the ace of hearts, AK of diamonds, the
    # ace of clubs): in no trump it takes every trick whatever anyone does, on every deal of the others
    deals = deal_batch(200, 3, fixed={"N": parse_hand("AKQJ.A.AK.A")})
    lo, hi = strain_bounds(deals, 0)
    dd = np.asarray(dd_strains(deals, 0))
    assert (lo[:, 4] == 10).all() and (hi[:, 4] == 10).all() and (dd[:, 4] == 10).all()
    # in spades the top trumps draw every outside trump, then the side aces are sure: at least 10; but
    # before that a void defender could ruff an ace, and players who all help North could give the 3S away
    assert (lo[:, 0] == 10).all() and (hi[:, 0] == 12).all() and (dd[:, 0] == 10).all()
    assert ((lo <= dd) & (dd <= hi)).all()
    # a declarer who claims cashes them, top trumps first: exactly 10 in spades too (table play's bounds)
    lo_c, hi_c = strain_bounds(deals, 0, values=dd)
    assert np.array_equal(lo_c, lo) and (hi_c[:, 0] == 10).all() and (hi_c[:, 4] == 10).all()
    assert ((hi_c == hi) | (lo_c == hi_c)).all() and ((dd <= hi_c)).all()
    # a fixed deal: the same in words
    deal = parse_deal("N:AKQJ.A.AK.A T98.KQJ.QJ. 3.T98.T9.KQ .5.87.JT987")
    assert tuple(play_bounds(deal[None, :], 0, 4)[0]) == (10, 10) == (solve(deal, 0, 4),) * 2


def test_a_hand_with_no_sure_winner_has_the_widest_bounds():
    deal = parse_deal("N:83.9.T9.T98 AKQ.AKQ.A.A JT9.JT8.KQ. .5.J87.KQJ7")
    lo, hi = strain_bounds(deal[None, :], 0)
    assert (lo[0] == -2).all() and (hi[0] == 12).all()
    dd = np.asarray(dd_strains(deal[None, :], 0))
    assert ((lo <= dd) & (dd <= hi)).all()


def test_bounds_hold_dd_on_random_full_deals():
    deals = deal_batch(300, 5)
    for leader in (0, 1):
        lo, hi = strain_bounds(deals, leader)
        dd = np.asarray(dd_strains(deals, leader))
        assert ((lo <= dd) & (dd <= hi)).all()
    assert solve(deals[0], 0, 4) == dd_strains(deals[:1], 0)[0, 4]


def test_play_bounds_refuses_bad_input():
    with pytest.raises(ValueError):
        play_bounds(np.zeros((2, 3), np.uint64), 0, 0)
    with pytest.raises(ValueError):
        play_bounds(np.zeros((1, 4), np.uint64), 0, 5)

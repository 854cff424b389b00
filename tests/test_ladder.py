"""``dd_table(deals, mode="both")``: the points and tricks tables solved by the
ladder tricks -> 5H only -> points in one transposition table, where every
entry of an easier scoring bounds the harder one.  Exactness checks: equal to
the separate modes and to the naive reference (``tests/naive.py``), on full
deals, endgames, the kitty deck and low no trump's relabelled specials."""

from __future__ import annotations

import numpy as np
import pytest

import naive
from kaiser_sim import dd
from kaiser_sim.cards import (DECK_34, FIVE_HEARTS_BIT, THREE_SPADES_BIT, format_deal, reverse_ranks,
                              special_bits_after_reverse)
from kaiser_sim.dd.search import STATS_SIZE

COMBOS = [(leader, strain) for leader in range(4) for strain in range(5)]


def _bitno(bit) -> int:
    return int(bit).bit_length() - 1


def _mismatch_rows(deals, expected, got, what):
    rows = [f"  {what} {format_deal(deals[i])} leader={'NESW'[l]} strain={'SHDCN'[s]}: "
            f"expected {expected[i, l, s]}, got {got[i, l, s]}"
            for i, l, s in zip(*np.nonzero(expected != got))]
    return "\n".join(rows[:10]) + (f"\n  ... {len(rows)} in all" if len(rows) > 10 else "")


def _check_against_separate(deals, **specials):
    points, tricks = dd.dd_table(deals, "both", **specials)
    assert points.shape == tricks.shape == (len(deals), 4, 5)
    assert points.dtype == tricks.dtype == np.int8
    exp_p = dd.dd_table(deals, "points", **specials)
    exp_t = dd.dd_table(deals, "tricks")
    assert np.array_equal(tricks, exp_t), "both/tricks != tricks:\n" + _mismatch_rows(deals, exp_t, tricks, "tricks")
    assert np.array_equal(points, exp_p), "both/points != points:\n" + _mismatch_rows(deals, exp_p, points, "points")
    return points, tricks


def test_both_equals_the_separate_modes_on_full_deals(make_deals):
    _check_against_separate(make_deals(300, 3101))


@pytest.mark.parametrize("threads", [1, 2])
def test_both_is_independent_of_threads(make_deals, threads):
    deals = make_deals(40, 3102)
    p1, t1 = dd.dd_table(deals, "both", threads=1)
    p, t = dd.dd_table(deals, "both", threads=threads)
    assert np.array_equal(p, p1) and np.array_equal(t, t1)


def test_both_equals_the_separate_modes_on_endgames(make_endgames):
    _check_against_separate(make_endgames(280, (1, 2, 3, 4, 5, 6, 7), seed=3103))


def test_both_against_naive_on_endgames(make_endgames):
    """Every leader and strain of small endgames, both tables against the
    plain alpha-beta of the reference."""
    endgames = make_endgames(60, (2, 3, 4, 5), seed=3104)
    points, tricks = dd.dd_table(endgames, "both")
    bad = []
    for i, hands in enumerate(endgames):
        for leader, strain in COMBOS:
            for mode, table in (("points", points), ("tricks", tricks)):
                exp = naive.solve(hands, leader, strain, mode)
                if table[i, leader, strain] != exp:
                    bad.append(f"{mode} {format_deal(hands)} leader={leader} strain={strain}: "
                               f"expected {exp}, got {table[i, leader, strain]}")
    assert not bad, "\n".join(bad[:10])


def test_both_against_naive_on_full_deals(make_deals):
    """Full deals (docs/solver.md pitfall 5: some errors show only there)."""
    deals = make_deals(12, 3105)
    points, tricks = dd.dd_table(deals, "both")
    positions = [(deals[i], *COMBOS[(5 * i + j) % 20]) for i in range(len(deals)) for j in range(2)]
    exp = naive.solve_many(positions, "points")
    got = [points[k // 2, leader, strain] for k, (_, leader, strain) in enumerate(positions)]
    assert got == exp


@pytest.mark.parametrize("stay", [False, True])
def test_both_with_relabelled_specials(make_deals, make_endgames, stay):
    """Low no trump's view: ranks reversed, the specials' bits moved."""
    five, three = special_bits_after_reverse(stay)
    deals = reverse_ranks(make_deals(120, 3106 + stay), stay)
    _check_against_separate(deals, five=five, three=three)
    ends = reverse_ranks(make_endgames(40, (3, 4, 5), seed=3108 + stay), stay)
    points, tricks = dd.dd_table(ends, "both", five=five, three=three)
    for i, hands in enumerate(ends):
        for leader, strain in COMBOS[i % 4::4]:
            assert points[i, leader, strain] == naive.solve(hands, leader, strain, "points",
                                                            five=_bitno(five), three=_bitno(three))
            assert tricks[i, leader, strain] == naive.solve(hands, leader, strain, "tricks")


def _deck34_deals(n, per_hand, seed):
    rng = np.random.default_rng(seed)
    cards = [c for c in range(64) if int(DECK_34) >> c & 1]
    out = np.zeros((n, 4), dtype=np.uint64)
    for i in range(n):
        drawn = rng.permutation(cards)[: 4 * per_hand]
        for s in range(4):
            for c in drawn[s * per_hand:(s + 1) * per_hand]:
                out[i, s] |= np.uint64(1 << int(c))
    return out


def test_both_on_the_kitty_deck():
    """Hands from the 34-card deck (two cards left in the kitty), and its
    endgames against the naive reference."""
    _check_against_separate(_deck34_deals(150, 8, 3110))
    ends = _deck34_deals(30, 4, 3112)
    points, tricks = dd.dd_table(ends, "both")
    for i, hands in enumerate(ends):
        for leader, strain in COMBOS[i % 3::3]:
            assert points[i, leader, strain] == naive.solve(hands, leader, strain, "points")
            assert tricks[i, leader, strain] == naive.solve(hands, leader, strain, "tricks")


def test_both_without_special_cards_in_play(make_endgames):
    """Endgames where one or both specials are already played (the 5H-only
    and points passes collapse onto the easier ones)."""
    ends = make_endgames(200, (2, 3, 4), seed=3113)
    five, three = np.uint64(FIVE_HEARTS_BIT), np.uint64(THREE_SPADES_BIT)
    union = np.bitwise_or.reduce(ends, axis=1)
    assert ((union & five) == 0).any() and ((union & three) == 0).any()
    _check_against_separate(ends)


def test_both_returns_nodes_and_stats(make_deals):
    deals = make_deals(5, 3114)
    points, tricks, nodes, stats = dd.dd_table(deals, "both", return_nodes=True, return_stats=True)
    assert nodes.shape == (5, 3, 4, 5) and (nodes[:, 0] > 0).all()
    assert stats.shape == (STATS_SIZE,) and stats[0] == nodes.sum()


def test_unknown_mode_is_rejected(make_deals):
    with pytest.raises(ValueError):
        dd.dd_table(make_deals(1, 1), "tricks+points")

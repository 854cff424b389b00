"""The naive reference itself: its two twins against each other and against
plain minimax, its tricks mode against DDS, and the DDS bridge (``dds_ref``).

Everything the fast solver is judged by rests on these tests.
"""

from __future__ import annotations

import numpy as np
import pytest
from endplay.dds import solve_board

import dds_ref
import naive
from kaiser_sim.cards import (
    FIVE_HEARTS,
    THREE_SPADES,
    format_deal,
    format_hand,
    parse_deal,
    reverse_ranks,
    special_bits_after_reverse,
)

MODES = ("points", "tricks")
COMBOS = [(leader, strain) for leader in range(4) for strain in range(5)]  # every (leader, strain)


def _mismatches(pairs):
    """Format a list of (position description, expected, got) for an assert message."""
    return "\n".join(f"  {where}: expected {exp}, got {got}" for where, exp, got in pairs[:10])


def _combos_for(i: int, per: int):
    """``per`` (leader, strain) pairs for the ``i``-th position; consecutive
    positions cycle through all 20."""
    return [COMBOS[(i * per + j) % len(COMBOS)] for j in range(per)]


# --- the twins -----------------------------------------------------------------


def test_alpha_beta_equals_plain_minimax(make_endgames):
    """Pruning (alpha-beta and the range cut-off) changes no value: 1-3 card endgames."""
    bad = []
    for i, hands in enumerate(make_endgames(45, (1, 2, 3), seed=101)):
        for leader, strain in _combos_for(i, 4):
            for mode in MODES:
                for side in (leader, leader + 1):
                    a = naive.solve_py(hands, leader, strain, mode, side=side)
                    b = naive.solve_py(hands, leader, strain, mode, side=side, prune=False)
                    if a != b:
                        bad.append((f"{format_deal(hands)} {leader=} {strain=} {mode} {side=}", b, a))
    assert not bad, "alpha-beta != minimax:\n" + _mismatches(bad)


def test_jit_twin_equals_python(make_endgames):
    """The jitted search gives the Python definition's value: 1-4 card endgames,
    both modes, both sides' points of view."""
    bad = []
    for i, hands in enumerate(make_endgames(80, (1, 2, 3, 4), seed=102)):
        for j, (leader, strain) in enumerate(_combos_for(i, 5)):
            side = leader + (i + j) % 2
            for mode in MODES:
                a = naive.solve_py(hands, leader, strain, mode, side=side)
                b = naive.solve(hands, leader, strain, mode, side=side)
                if a != b:
                    bad.append((f"{format_deal(hands)} {leader=} {strain=} {mode} {side=}", a, b))
    assert not bad, "jit != python:\n" + _mismatches(bad)


@pytest.mark.parametrize("stay_lowest", [False, True])
def test_jit_twin_equals_python_reversed_ranks(make_endgames, stay_lowest):
    """Same on reversed-rank (low no-trump) relabellings, where the special
    cards sit on other bits and are passed as ``five``/``three``."""
    five_bit, three_bit = special_bits_after_reverse(stay_lowest)
    five, three = int(five_bit).bit_length() - 1, int(three_bit).bit_length() - 1
    bad = []
    for i, hands in enumerate(make_endgames(40, (1, 2, 3, 4), seed=103 + stay_lowest)):
        rev = reverse_ranks(hands, stay_lowest)
        for leader, strain in _combos_for(i, 3):
            a = naive.solve_py(rev, leader, strain, "points", five, three)
            b = naive.solve(rev, leader, strain, "points", five, three)
            if a != b:
                bad.append((f"{format_deal(hands)} reversed {leader=} {strain=}", a, b))
    assert not bad, "jit != python on reversed ranks:\n" + _mismatches(bad)


@pytest.mark.parametrize(
    "stay_lowest, expected",
    [
        (None, 6),  # ordinary ranks: N's ace wins the 5H
        (False, 0),  # low: E's 5H is now the best heart and wins its own trick
        (True, 6),  # low, specials stay lowest: S's 8H is the best heart
    ],
)
@pytest.mark.parametrize("solver", [naive.solve_py, naive.solve], ids=["py", "jit"])
def test_special_card_bits_are_honoured(solver, stay_lowest, expected):
    """One trick N AH, E 5H, S 8H, W KH in no trump, under the three rank orders."""
    hands = parse_deal("N:-.A.-.- -.5.-.- -.8.-.- -.K.-.-")
    if stay_lowest is None:
        assert solver(hands, 0, 4) == expected
        return
    five_bit, three_bit = special_bits_after_reverse(stay_lowest)
    five, three = int(five_bit).bit_length() - 1, int(three_bit).bit_length() - 1
    assert solver(reverse_ranks(hands, stay_lowest), 0, 4, "points", five, three) == expected


# --- game properties of the reference --------------------------------------------------


def test_the_two_sides_share_the_total(make_endgames):
    """Value for the leader's side + value for the other side (each maximising
    its own) = everything in play, at the same position."""
    bad = []
    for i, hands in enumerate(make_endgames(120, (1, 2, 3, 4, 5), seed=104)):
        for leader, strain in _combos_for(i, 5):
            for mode in MODES:
                mine = naive.solve(hands, leader, strain, mode)
                theirs = naive.solve(hands, leader, strain, mode, side=leader + 1)
                total = naive.total_in_play(hands, mode)
                if mine + theirs != total:
                    bad.append((f"{format_deal(hands)} {leader=} {strain=} {mode}", total, mine + theirs))
    assert not bad, "sides do not add up:\n" + _mismatches(bad)


def test_total_in_play():
    hands = parse_deal("N:3.A.-.- A.K.-.- -.-.87.- -.-.-.87")
    assert naive.total_in_play(hands, "tricks") == 2
    assert naive.total_in_play(hands, "points") == 2 - 3
    hands = parse_deal("N:-.A.-.- -.5.-.- -.-.7.- -.-.-.7")
    assert naive.total_in_play(hands, "points") == 1 + 5


def test_reaches_agrees_with_solve(make_endgames, make_deals):
    """The null-window search answers ``solve >= target`` for every target."""
    positions = [(h, i % 4, i % 5) for i, h in enumerate(make_endgames(30, (2, 3, 4, 5, 6), seed=105))]
    positions += [(h, 3, 2) for h in make_deals(2, seed=105)]
    bad = []
    for hands, leader, strain in positions:
        for mode in MODES:
            value = naive.solve(hands, leader, strain, mode)
            for target in range(-4, 15):
                got = naive.reaches(hands, leader, strain, target, mode)
                if got != (value >= target):
                    bad.append((f"{format_deal(hands)} {leader=} {strain=} {mode} {target=}", value >= target, got))
    assert not bad, _mismatches(bad)


def test_dd_table_helper_layout_and_strings(make_endgames):
    """``naive.dd_table`` (which test_solver can be pointed at) is laid out
    leader x strain and reads deal strings."""
    deals = make_endgames(3, (2, 3), seed=106)
    table = naive.dd_table(deals, "points")
    assert table.shape == (3, 4, 5) and table.dtype == np.int8
    for i, hands in enumerate(deals):
        for leader, strain in COMBOS:
            assert table[i, leader, strain] == naive.solve(hands, leader, strain)
    strings = [format_deal(h, first=i % 4) for i, h in enumerate(deals)]
    assert np.array_equal(naive.dd_table(strings, "points"), table)


def test_rejects_bad_positions():
    hands = parse_deal("N:3.A.-.- A.K.-.- -.-.87.- -.-.-.87")
    bad_lengths = hands.copy()
    bad_lengths[0] = np.uint64(int(hands[0]) & (int(hands[0]) - 1))  # N drops a card
    with pytest.raises(ValueError, match="equal length"):
        naive.solve(bad_lengths, 0, 4)
    overlap = hands.copy()
    overlap[1] = hands[0]
    with pytest.raises(ValueError, match="two hands"):
        naive.solve_py(overlap, 0, 4)
    with pytest.raises(ValueError, match="mode"):
        naive.solve(hands, 0, 4, "bridge")


def test_rules_examples(rules_example_naive):
    """docs/rules.md §8 examples (hand-checked values in conftest)."""
    ex = rules_example_naive
    hands, leader, strain = ex["hands"], ex["leader"], ex["strain"]
    assert naive.solve(hands, leader, strain, "points") == ex["points"]
    assert naive.solve(hands, leader, strain, "tricks") == ex["tricks"]
    assert naive.solve(hands, leader, strain, "points", side=leader + 1) == ex["other_points"]
    assert ex["points"] + ex["other_points"] == naive.total_in_play(hands, "points")
    if int(hands[0]).bit_count() <= 2:
        assert naive.solve_py(hands, leader, strain, "points") == ex["points"]
        assert naive.solve_py(hands, leader, strain, "points", side=leader + 1) == ex["other_points"]


# --- against DDS (validates the reference's tricks mode, and dds_ref) ----------------------


def test_tricks_equal_dds_on_endgames(make_endgames):
    deals = make_endgames(120, (1, 2, 3, 4, 5, 6), seed=107)
    expected = dds_ref.dds_table(deals)
    got = naive.dd_table(deals, "tricks")
    bad = [
        (f"{format_deal(deals[i])} leader={l} strain={s}", expected[i, l, s], got[i, l, s])
        for i, l, s in zip(*np.nonzero(expected != got))
    ]
    assert not bad, "naive tricks != DDS:\n" + _mismatches(bad)


def _compare_full_deals_with_dds(n, per, seed, make_deals):
    deals = make_deals(n, seed)
    positions = [(deals[i], l, s) for i in range(n) for l, s in _combos_for(i, per)]
    got = naive.solve_many(positions, "tricks")
    table = dds_ref.dds_table(deals)
    bad = [
        (f"{format_deal(h)} leader={l} strain={s}", table[k // per, l, s], g)
        for k, ((h, l, s), g) in enumerate(zip(positions, got))
        if table[k // per, l, s] != g
    ]
    assert not bad, "naive tricks != DDS on full deals:\n" + _mismatches(bad)


def test_tricks_equal_dds_on_full_deals(make_deals):
    _compare_full_deals_with_dds(10, 1, 108, make_deals)


@pytest.mark.slow
def test_tricks_equal_dds_on_full_deals_many(make_deals):
    _compare_full_deals_with_dds(100, 4, 109, make_deals)


def test_dds_ref_conventions(make_deals, make_endgames):
    """dds_ref's single-board, batch, endplay and CalcDDtable routes agree, with
    the conventions its docstring states."""
    deals = make_deals(3, seed=110)
    table = dds_ref.dds_table(deals)
    for i, hands in enumerate(deals):
        # the card mapping: endplay prints the same deal as our notation
        ours = format_deal(hands).replace("-", "")
        assert dds_ref.to_endplay_deal(hands).to_pbn() == ours
        raw = dds_ref.calc_dd_table_raw(hands)
        for leader, strain in COMBOS:
            tricks = dds_ref.dds_tricks(hands, leader, strain)
            assert tricks == table[i, leader, strain]
            # endplay's solve_board scores each card for the side on lead
            best = max(score for _, score in solve_board(dds_ref.to_endplay_deal(hands, leader, strain)))
            assert best == tricks
            # CalcDDtable: per declarer = the leader's right-hand opponent, out of 13
            assert raw[strain, (leader + 3) % 4] == 13 - tricks
    # an endgame: fewer cards are fine for SolveBoard
    hands = make_endgames(1, (3,), seed=110)[0]
    assert dds_ref.dds_tricks(hands, 0, 4) == naive.solve(hands, 0, 4, "tricks")


def test_dds_ref_maps_special_ranks():
    """The 3S and 5H become bridge's 3 and 5 of their suits."""
    hands = parse_deal("N:3.A.-.- A.5.-.- -.-.87.- -.-.-.87")
    rc = dds_ref.remain_cards(hands)
    assert rc[0][0] == 1 << 3 and rc[1][1] == 1 << 5 and rc[0][1] == 1 << 14
    assert format_hand(hands[1]) == "A.5.-.-"
    assert FIVE_HEARTS == 16 and THREE_SPADES == 0  # the layout these tests assume

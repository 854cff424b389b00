"""The fast double-dummy solver (``kaiser_sim.dd``, ``kaiser_sim.dd_table``).

Checked against DDS in tricks mode, against the naive reference
(``tests/naive.py``) in points mode, on game invariants and symmetries, and
on the worked examples of docs/rules.md §8.

To check these tests themselves, point them at the naive reference:
``KAISER_SIM_SOLVER_UNDER_TEST=naive pytest tests/test_solver.py``
(then the DDS comparison on hundreds of full deals takes many minutes).
"""

from __future__ import annotations

import os
from types import SimpleNamespace

import numpy as np
import pytest

import dds_ref
import naive
from kaiser_sim.cards import FIVE_HEARTS_BIT, SUIT_BITS, THREE_SPADES_BIT, format_deal, parse_deal, popcount

MODES = ("points", "tricks")
COMBOS = [(leader, strain) for leader in range(4) for strain in range(5)]  # every (leader, strain)
S, H, D, C, NT = 0, 1, 2, 3, 4


@pytest.fixture(scope="module")
def fast():
    """The solver under test: ``solve``, ``can_reach`` and ``dd_table``."""
    if os.environ.get("KAISER_SIM_SOLVER_UNDER_TEST") == "naive":
        return SimpleNamespace(solve=naive.solve, can_reach=naive.can_reach, dd_table=naive.dd_table)
    import kaiser_sim
    from kaiser_sim import dd

    return SimpleNamespace(solve=dd.solve, can_reach=dd.can_reach, dd_table=kaiser_sim.dd_table)


def _mismatches(rows):
    return "\n".join(f"  {where}: expected {exp}, got {got}" for where, exp, got in rows[:10]) + (
        f"\n  ... {len(rows)} in all" if len(rows) > 10 else ""
    )


def _where(hands, leader, strain) -> str:
    """A position as a mismatch row names it: the deal, the leader and the strain."""
    return f"{format_deal(hands)} leader={'NESW'[leader]} strain={'SHDCN'[strain]}"


def _combos_for(i: int, per: int):
    """``per`` (leader, strain) pairs for the ``i``-th position; consecutive
    positions cycle through all 20."""
    return [COMBOS[(i * per + j) % len(COMBOS)] for j in range(per)]


def _table_mismatches(deals, expected, got):
    return [
        (f"{format_deal(deals[i])} leader={'NESW'[l]} strain={'SHDCN'[s]}", int(expected[i, l, s]), int(got[i, l, s]))
        for i, l, s in zip(*np.nonzero(expected != got))
    ]


# --- tricks mode against DDS ----------------------------------------------------------------


def _check_tricks_against_dds(fast, deals):
    got = fast.dd_table(deals, "tricks")
    assert got.shape == (len(deals), 4, 5) and got.dtype == np.int8
    bad = _table_mismatches(deals, dds_ref.dds_table(deals), got)
    assert not bad, "tricks != DDS:\n" + _mismatches(bad)


def test_tricks_match_dds(fast, make_deals):
    _check_tricks_against_dds(fast, make_deals(300, 2001))


@pytest.mark.slow
def test_tricks_match_dds_many(fast, make_deals):
    _check_tricks_against_dds(fast, make_deals(5000, 2002))


def test_tricks_match_dds_on_endgames(fast, make_endgames):
    _check_tricks_against_dds(fast, make_endgames(200, (1, 2, 3, 4, 5, 6, 7), seed=2003))


# --- points mode against the naive reference -----------------------------------------------


def test_points_match_naive_on_endgames(fast, make_endgames):
    """200 endgames of 3-5 cards a hand, every leader and strain."""
    endgames = make_endgames(200, (3, 4, 5), seed=2004)
    bad = []
    for hands in endgames:
        for leader, strain in COMBOS:
            exp = naive.solve(hands, leader, strain, "points")
            got = fast.solve(hands, leader, strain, "points")
            if got != exp:
                bad.append((f"{format_deal(hands)} leader={leader} strain={strain}", exp, got))
    assert not bad, "points != naive:\n" + _mismatches(bad)


@pytest.mark.parametrize("k", [1, 2, 6, 7])
def test_points_match_naive_every_endgame_size(fast, make_endgames, k):
    """Endgames of 1, 2, 6 and 7 cards (3-5 above, 8 below): solve and dd_table."""
    n, per = {1: (30, 20), 2: (30, 20), 6: (40, 5), 7: (20, 2)}[k]
    endgames = make_endgames(n, (k,), seed=2005 + k)
    table = fast.dd_table(endgames, "points")
    bad = []
    for i, hands in enumerate(endgames):
        for leader, strain in _combos_for(i, per):
            exp = naive.solve(hands, leader, strain, "points")
            for how, got in (("solve", fast.solve(hands, leader, strain, "points")), ("dd_table", table[i, leader, strain])):
                if got != exp:
                    bad.append((f"{how} {format_deal(hands)} leader={leader} strain={strain}", exp, got))
    assert not bad, f"points != naive on {k}-card endgames:\n" + _mismatches(bad)


def test_dd_table_on_endgames_of_mixed_sizes(fast, make_endgames):
    """One dd_table call on endgames of 1..8 cards agrees with solve on each."""
    endgames = make_endgames(16, (1, 2, 3, 4, 5, 6, 7, 8), seed=2013)
    for mode in MODES:
        table = fast.dd_table(endgames, mode)
        bad = []
        for i, hands in enumerate(endgames):
            for leader, strain in _combos_for(i, 3):
                exp = fast.solve(hands, leader, strain, mode)
                if table[i, leader, strain] != exp:
                    bad.append((f"{format_deal(hands)} leader={leader} strain={strain} {mode}", exp, table[i, leader, strain]))
        assert not bad, "dd_table != solve:\n" + _mismatches(bad)


def _check_points_on_full_deals(fast, deals, per):
    """Points of full deals against the naive solver (docs/solver.md pitfall 5:
    some errors show only on full deals)."""
    table = fast.dd_table(deals, "points")
    positions = [(deals[i], l, s) for i in range(len(deals)) for l, s in _combos_for(i, per)]
    expected = naive.solve_many(positions, "points")
    bad = []
    for k, ((hands, leader, strain), exp) in enumerate(zip(positions, expected)):
        got = table[k // per, leader, strain]
        if got != exp:
            bad.append((f"{format_deal(hands)} leader={leader} strain={strain}", exp, got))
    # solve() must agree with dd_table(): check it on the first few
    for k, (hands, leader, strain) in enumerate(positions[:5]):
        assert fast.solve(hands, leader, strain, "points") == table[k // per, leader, strain]
    assert not bad, "points != naive on full deals:\n" + _mismatches(bad)


def test_points_match_naive_on_full_deals(fast, make_deals):
    _check_points_on_full_deals(fast, make_deals(20, 2014), per=1)


@pytest.mark.slow
def test_points_match_naive_on_full_deals_many(fast, make_deals):
    _check_points_on_full_deals(fast, make_deals(200, 2015), per=4)


# --- can_reach ---------------------------------------------------------------------------------


def _check_can_reach(fast, hands, leader, strain, mode, value):
    n = popcount(hands[0])
    lo, hi = (-4, n + 6) if mode == "points" else (-1, n + 1)
    bad = []
    for target in range(lo, hi + 1):
        got = bool(fast.can_reach(hands, leader, strain, target, mode))
        if got != (value >= target):
            bad.append((f"{format_deal(hands)} leader={leader} strain={strain} {mode} target={target}", value >= target, got))
    return bad


def test_can_reach_matches_value(fast, make_endgames, make_deals):
    """can_reach(t) == (value >= t) for every t from below the lowest value to
    above the highest: endgames against the naive value, full deals against solve."""
    bad = []
    for i, hands in enumerate(make_endgames(40, (1, 2, 3, 4, 5, 6), seed=2016)):
        for leader, strain in _combos_for(i, 3):
            for mode in MODES:
                bad += _check_can_reach(fast, hands, leader, strain, mode, naive.solve(hands, leader, strain, mode))
    for i, hands in enumerate(make_deals(4, 2017)):
        for leader, strain in _combos_for(i, 2):
            for mode in MODES:
                bad += _check_can_reach(fast, hands, leader, strain, mode, fast.solve(hands, leader, strain, mode))
    assert not bad, "can_reach disagrees:\n" + _mismatches(bad)


# --- invariants ----------------------------------------------------------------------------------


def test_the_two_sides_share_the_total(fast, make_endgames, make_deals):
    """At one position, the leader's side's value (fast solver) plus the other
    side's own optimum (naive, that side maximising) is everything in play:
    the tricks left, and in points mode +5 / -3 for the special cards still out."""
    positions = [(h, l, s) for i, h in enumerate(make_endgames(60, (2, 3, 4, 5), seed=2018)) for l, s in _combos_for(i, 4)]
    positions += [(h, l, s) for i, h in enumerate(make_deals(2, 2019)) for l, s in _combos_for(i, 1)]
    bad = []
    for hands, leader, strain in positions:
        for mode in MODES:
            mine = fast.solve(hands, leader, strain, mode)
            theirs = naive.solve(hands, leader, strain, mode, side=leader + 1)
            total = naive.total_in_play(hands, mode)
            if mine + theirs != total:
                bad.append((f"{format_deal(hands)} leader={leader} strain={strain} {mode}", total - theirs, mine))
    assert not bad, "the sides do not add up:\n" + _mismatches(bad)


def test_full_deal_values_in_range(fast, make_deals):
    deals = make_deals(100, 2020)
    tricks = fast.dd_table(deals, "tricks")
    points = fast.dd_table(deals, "points")
    assert tricks.min() >= 0 and tricks.max() <= 8
    assert points.min() >= -2 and points.max() <= 12
    # points and tricks are different games: they must differ somewhere
    assert (points != tricks).any()


def _rotate(deals, k):
    """Seat i's hand moves to seat i + k."""
    return np.roll(deals, k, axis=1)


def _swap_suits(deals, a, b):
    """Exchange suits a and b in every hand (a bit-field swap)."""
    deals = np.asarray(deals, dtype=np.uint64)
    mask = np.uint64(0xFFFF)
    sa, sb = np.uint64(SUIT_BITS * a), np.uint64(SUIT_BITS * b)
    part_a = (deals >> sa) & mask
    part_b = (deals >> sb) & mask
    keep = deals & ~((mask << sa) | (mask << sb))
    return keep | (part_a << sb) | (part_b << sa)


@pytest.mark.parametrize("mode", MODES)
def test_rotating_the_seats_rotates_the_table(fast, make_deals, mode):
    deals = make_deals(30, 2021)
    table = fast.dd_table(deals, mode)
    for k in (1, 2, 3):
        rotated = fast.dd_table(_rotate(deals, k), mode)
        # leader L of the original deal is seat L + k of the rotated one
        assert np.array_equal(rotated, np.roll(table, k, axis=1)), f"rotation by {k} seats"


@pytest.mark.parametrize("mode", MODES)
def test_exchanging_clubs_and_diamonds_exchanges_the_strains(fast, make_deals, mode):
    # both suits run 7..A at rank indices 1..8, so the swap gives a valid deal
    deals = make_deals(30, 2022)
    swapped = _swap_suits(deals, D, C)
    assert (swapped != deals).any()
    table = fast.dd_table(deals, mode)
    expected = table[:, :, [S, H, C, D, NT]]
    assert np.array_equal(fast.dd_table(swapped, mode), expected)


def test_exchanging_spades_and_hearts_exchanges_the_strains_in_tricks_mode(fast, make_deals):
    # the 3S and 5H sit at the same rank index: a valid deal, but in points
    # mode the swap also exchanges the +5 and -3 cards, so tricks mode only
    deals = make_deals(30, 2023)
    table = fast.dd_table(deals, "tricks")
    expected = table[:, :, [H, S, D, C, NT]]
    assert np.array_equal(fast.dd_table(_swap_suits(deals, S, H), "tricks"), expected)


# --- golden cases ----------------------------------------------------------------------------------


def test_rules_examples(fast, rules_example):
    """docs/rules.md §8 examples (hand-checked values in conftest)."""
    ex = rules_example
    hands, leader, strain = ex["hands"], ex["leader"], ex["strain"]
    assert fast.solve(hands, leader, strain, "points") == ex["points"]
    assert fast.solve(hands, leader, strain, "tricks") == ex["tricks"]
    assert fast.can_reach(hands, leader, strain, ex["points"], "points")
    assert not fast.can_reach(hands, leader, strain, ex["points"] + 1, "points")
    table = fast.dd_table([ex["deal"]], "points")
    assert table[0, leader, strain] == ex["points"]
    # the other side's value at the same position is the rest of what is in play
    assert ex["points"] + ex["other_points"] == naive.total_in_play(hands, "points")


KNOWN_DEALS = [
    # deal, points table, tricks table (leader N E S W x strain S H D C N);
    # tricks from DDS, points from the naive solver
    (
        "N:AQ.Q.7.AQJT KJ.AT.AJ.K9 83.K95.Q98.- T9.J8.KT.87",
        [[8, 9, 9, 9, 9], [3, 1, 1, 1, 2], [7, 9, 9, 9, 8], [3, 1, 1, 1, 2]],
        [[5, 5, 5, 4, 4], [3, 4, 4, 4, 4], [5, 5, 4, 4, 4], [4, 4, 4, 4, 5]],
    ),
    (
        "N:A.9.KJ98.87 KJ8.AJ85.Q.- 3.T.AT7.AKQ QT9.KQ.-.JT9",
        [[-2, -2, 10, 10, 10], [12, 12, 7, 7, 6], [-2, -2, 10, 10, 10], [12, 12, 7, 6, 6]],
        [[1, 1, 8, 8, 8], [7, 7, 2, 2, 4], [1, 1, 8, 8, 8], [7, 7, 2, 2, 4]],
    ),
]


@pytest.mark.parametrize("deal, points, tricks", KNOWN_DEALS, ids=["mixed", "extremes"])
def test_known_deal_tables(fast, deal, points, tricks):
    """Literal deals with their literal tables (a change in the card layout,
    the notation or the table's axes shows here)."""
    assert fast.dd_table([deal], "points")[0].tolist() == points
    assert fast.dd_table([deal], "tricks")[0].tolist() == tricks
    assert dds_ref.dds_table(parse_deal(deal)[None])[0].tolist() == tricks


def test_dd_table_accepts_deal_strings(fast, make_deals, make_endgames):
    """Deal strings (any first seat, endgames too) give the same table as the arrays."""
    deals = np.concatenate([make_deals(4, 2024), make_endgames(4, (2, 5), seed=2024)])
    strings = [format_deal(h, first=i % 4) for i, h in enumerate(deals)]
    for mode in MODES:
        assert np.array_equal(fast.dd_table(strings, mode), fast.dd_table(deals, mode))


def test_dd_contracts_picks_the_table_entries(make_deals, make_endgames):
    """One contract a row equals the matching entry of the full table, in both
    modes, on full deals and endgames, whatever the thread count; bad rows are
    refused."""
    from kaiser_sim.dd import dd_contracts, dd_table

    deals = np.concatenate([make_deals(40, 77), make_endgames(20, (1, 6), seed=77)])
    rng = np.random.default_rng(77)
    leaders = rng.integers(0, 4, len(deals))
    strains = rng.integers(0, 5, len(deals))
    for mode in MODES:
        table = dd_table(deals, mode)
        expected = table[np.arange(len(deals)), leaders, strains]
        for threads in (1, 2):
            got = dd_contracts(deals, leaders, strains, mode, threads=threads)
            assert got.dtype == np.int8 and np.array_equal(got, expected)
        # a start for each search moves the nodes only: near values, wild ones
        for guess in (expected.astype(np.int64) + rng.integers(-2, 3, len(deals)), rng.integers(-500, 500, len(deals))):
            assert np.array_equal(dd_contracts(deals, leaders, strains, mode, guess=guess), expected)
    assert dd_contracts(deals[:0], [], []).shape == (0,)
    with pytest.raises(ValueError, match="one guess per deal"):
        dd_contracts(deals, leaders, strains, guess=leaders[:-1])
    with pytest.raises(ValueError, match="one leader and one strain"):
        dd_contracts(deals, leaders[:-1], strains)
    with pytest.raises(ValueError, match="seats"):
        dd_contracts(deals[:1], [4], [0])
    with pytest.raises(ValueError, match="strains"):
        dd_contracts(deals[:1], [0], [5])


def test_without_specials_equals_the_solves_without_each_card(make_deals, make_endgames):
    """The points with the 5H, and with the 3S, counted as an ordinary card,
    searched inside the bounds the points with both give (v - 5..v and
    v..v + 3), equal the unbounded solves of those games on every row: full
    deals and endgames (some without a special), any leader and strain,
    whatever the thread count, and on the rank-reversed deals of low no
    trump (relabelled special cards)."""
    from kaiser_sim.dd import dd_contracts, without_specials
    from kaiser_sim.game import play_view
    from kaiser_sim.rules import get_preset

    deals = np.concatenate([make_deals(60, 5), make_endgames(30, (1, 6), seed=5)])
    rng = np.random.default_rng(5)
    leaders = rng.integers(0, 4, len(deals))
    strains = rng.integers(0, 5, len(deals))
    low, f_low, t_low = play_view(deals, get_preset("low-nt"), True)
    zero = np.uint64(0)
    for hands, five, three in ((deals, None, None), (low, f_low, t_low)):
        f = np.uint64(FIVE_HEARTS_BIT if five is None else five)
        t = np.uint64(THREE_SPADES_BIT if three is None else three)
        v = dd_contracts(hands, leaders, strains, five=f, three=t)
        expected5 = dd_contracts(hands, leaders, strains, five=zero, three=t)
        expected3 = dd_contracts(hands, leaders, strains, five=f, three=zero)
        assert (expected5 != v).any() and (expected3 != v).any()  # the specials matter on some rows
        for threads in (1, 2):
            no5, no3 = without_specials(hands, leaders, strains, v, threads=threads, five=f, three=t)
            assert no5.dtype == np.int8 and np.array_equal(no5, expected5)
            assert no3.dtype == np.int8 and np.array_equal(no3, expected3)
    empty = without_specials(deals[:0], [], [], [])
    assert len(empty) == 2 and empty[0].shape == (0,)
    with pytest.raises(ValueError, match="one value per deal"):
        without_specials(deals, leaders, strains, v[:-1])


def _pext_py(x: int, m: int) -> int:
    """pext by its definition: the bits of x under m, packed at the bottom."""
    out, k = 0, 0
    for i in range(64):
        if m >> i & 1:
            out |= (x >> i & 1) << k
            k += 1
    return out


def _pdep_py(x: int, m: int) -> int:
    """pdep by its definition: the low bits of x, in order, onto the bits of m."""
    out, k = 0, 0
    for i in range(64):
        if m >> i & 1:
            out |= (x >> k & 1) << i
            k += 1
    return out


def test_pext_pdep_match_their_definitions():
    """The solver's bit gather/scatter (BMI2 instructions where the CPU has
    them, loops elsewhere) against plain Python; both the loops, jitted and
    not, and whatever ``pext``/``pdep`` the kernels use on this CPU."""
    from numba import njit

    from kaiser_sim.dd import bits

    @njit
    def kernel_pext(x, m):
        return bits.pext(x, m)

    @njit
    def kernel_pdep(x, m):
        return bits.pdep(x, m)

    rng = np.random.default_rng(5)
    words = rng.integers(0, 2**64, size=(300, 2), dtype=np.uint64)
    words[:10, 1] = np.uint64(0)  # an empty mask
    words[10:20, 1] = np.uint64(2**64 - 1)  # the full word
    for x, m in words:
        ux, um = np.uint64(x), np.uint64(m)
        want_ext, want_dep = _pext_py(int(x), int(m)), _pdep_py(int(x), int(m))
        assert int(bits.pext_soft(ux, um)) == want_ext
        assert int(bits.pext_soft.py_func(ux, um)) == want_ext
        assert int(kernel_pext(ux, um)) == want_ext
        assert int(bits.pdep_soft(ux, um)) == want_dep
        assert int(bits.pdep_soft.py_func(ux, um)) == want_dep
        assert int(kernel_pdep(ux, um)) == want_dep


@pytest.mark.slow
def test_portable_build_gives_the_same_tables(make_deals, tmp_path):
    """Compiled for a generic x86-64 CPU (no BMI2: the pext/pdep loops), the
    solver gives the same tables as the build for this CPU."""
    import subprocess
    import sys

    import kaiser_sim

    deals = make_deals(12, seed=31)
    np.save(tmp_path / "deals.npy", deals)
    script = (
        "import sys, numpy as np; from kaiser_sim import dd; from kaiser_sim.dd import bits; "
        "assert not bits.HAS_BMI2; d = np.load(sys.argv[1]); "
        "np.save(sys.argv[2], np.stack([dd.dd_table(d, m, threads=1) for m in ('points', 'tricks')]))"
    )
    env = dict(os.environ, NUMBA_CPU_NAME="generic", NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"))
    subprocess.run([sys.executable, "-c", script, str(tmp_path / "deals.npy"), str(tmp_path / "out.npy")],
                   env=env, check=True, timeout=1200)
    got = np.load(tmp_path / "out.npy")
    want = np.stack([kaiser_sim.dd_table(deals, m, threads=1) for m in ("points", "tricks")])
    assert np.array_equal(got, want)


def test_cash_plan_special_card_rules_are_sound(make_endgames):
    """The points bounds' special-card rules against the naive value: when
    ``cash_takes_5h`` says the 5H falls in the lead's cash plan, and
    ``cash_spares_3s`` that the 3S falls in none of its tricks, the side on
    lead gets at least the floor the search counts on (docs/solver.md pitfall
    6: the 3S may still come later, -2).  Both rules must fire, often."""
    from kaiser_sim.cards import FIVE_HEARTS_BIT, THREE_SPADES_BIT
    from kaiser_sim.dd import bounds

    five, three = np.uint64(FIVE_HEARTS_BIT), np.uint64(THREE_SPADES_BIT)
    endgames = make_endgames(400, [3, 4, 5, 6], 808)
    bad, raised, took, spared_n = [], 0, 0, 0
    for i, hands in enumerate(endgames):
        union = hands[0] | hands[1] | hands[2] | hands[3]
        r = popcount(hands[0])
        for leader, strain in _combos_for(i, 5):
            x = [hands[(leader + k) % 4] for k in range(4)]
            qt, used, one_hand = bounds.quick_tricks(x[0], x[1], x[2], x[3], strain, three)
            if qt < 1:
                continue
            f_in, t_in = bool(union & five), bool(union & three)
            # (the search applies them only to a plan of one hand's winners)
            takes = one_hand and f_in and bounds.cash_takes_5h(used, x[0], x[1], x[2], x[3], five, r)
            spared = one_hand and t_in and bounds.cash_spares_3s(used, x[0], x[1], x[2], x[3], three, r)
            floor = qt + (5 if takes else 0) - ((2 if spared else 3) if t_in else 0)
            old = qt + (5 if used & five else 0) - (3 if t_in else 0)
            took += bool(takes and not used & five)
            spared_n += bool(spared)
            raised += floor > old
            value = naive.solve(hands, leader, strain, "points")
            if value < floor:
                bad.append((_where(hands, leader, strain), f">= {floor}", value))
    assert not bad, "a cash plan's floor above the value:\n" + _mismatches(bad)
    assert took >= 100 and spared_n >= 200 and raised >= 300, (took, spared_n, raised)


# the sure-trick counts behind the trick-boundary bounds: hand-made positions
# for each rule (hands N E S W as S.H.D.C), with the count and the value
_CASH_RULES = [
    # top trumps drawn first: East's one trump falls to the AS, so the hearts
    # run twice though East (holding a trump) has one heart
    ("draw trumps", "A.AK.-.-", "Q.Q.9.-", "-.-.-.AKQ", "-.-.AKQ.-", 0, 0, 3),
    # partner (North) is out of hearts with a trump, but has two non-trumps to
    # play first; it ruffs only the last round, which the side wins anyway
    ("partner ruffs last", "Q9.-.-.9", "T8.-.K.-", "K.AK.-.-", "J3.8.-.-", 2, 3, 3),
    # no trump: the leader's AS, then the 8H to partner's hearts, partner
    # discarding its QD on the AS
    ("cash then entry", "A.8.-.8", "-.-.KJ.9", "-.AK.Q.-", "-.-.-.KQJ", 0, 4, 3),
]


@pytest.mark.parametrize("name,north,east,south,west,leader,strain,count", _CASH_RULES,
                         ids=[r[0] for r in _CASH_RULES])
def test_cash_plan_rules_on_hand_made_positions(name, north, east, south, west, leader, strain, count):
    from kaiser_sim.cards import parse_hand
    from kaiser_sim.dd import bounds

    hands = np.array([parse_hand(t) for t in (north, east, south, west)], dtype=np.uint64)
    x = [hands[(leader + k) % 4] for k in range(4)]
    qt, used, _ = bounds.quick_tricks(x[0], x[1], x[2], x[3], strain, np.uint64(0))
    assert qt == count
    assert naive.solve(hands, leader, strain, "tricks") >= count


def test_sure_trick_counts_are_sound(make_endgames):
    """The trick counts the bounds rest on, against the naive value on random
    endgames: the lead's cash plan (``quick_tricks``) never above its side's
    tricks, each side's top trumps (``sure_trump_tricks``) never above its
    tricks whoever leads; and the newer rules fire (a plan through an entry
    after the leader's own cash; top trumps of both hands counted past the
    larger share)."""
    from kaiser_sim.dd import bounds

    endgames = make_endgames(300, [2, 3, 4, 5, 6], 909)
    bad, both_hands, past_share = [], 0, 0
    for i, hands in enumerate(endgames):
        union = hands[0] | hands[1] | hands[2] | hands[3]
        r = popcount(hands[0])
        values = {}

        def tricks(leader, strain):
            if (leader, strain) not in values:
                values[leader, strain] = naive.solve(hands, leader, strain, "tricks")
            return values[leader, strain]

        for leader, strain in _combos_for(i, 6):
            x = [hands[(leader + k) % 4] for k in range(4)]
            qt, used, one_hand = bounds.quick_tricks(x[0], x[1], x[2], x[3], strain, np.uint64(0))
            both_hands += qt > 0 and not one_hand
            if tricks(leader, strain) < qt:
                bad.append((_where(hands, leader, strain), f"cash >= {qt}", tricks(leader, strain)))
            if strain == 4:
                continue
            for side in (0, 1):
                st, run = bounds.sure_trump_tricks(hands[side], hands[side + 2], union, strain)
                past_share += st > max(popcount(run & hands[side]), popcount(run & hands[side + 2]))
                got = tricks(leader, strain) if (leader & 1) == side else r - tricks(leader, strain)
                if got < st:
                    bad.append((_where(hands, leader, strain), f"side {'NE'[side]}{'SW'[side]} trumps >= {st}", got))
    assert not bad, "a sure-trick count above the value:\n" + _mismatches(bad)
    assert both_hands >= 30 and past_share >= 30, (both_hands, past_share)

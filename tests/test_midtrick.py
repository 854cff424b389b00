"""Mid-trick solving and per-card scores (``kaiser_sim.dd.midtrick``) against the
plain reference (``tests/naive.py``: its searches entered with cards on the
table) and the trick-boundary solver."""

from __future__ import annotations

import numpy as np
import pytest

import naive
from conftest import random_endgame
from kaiser_sim import dd
from kaiser_sim.cards import NotationError, format_deal, parse_deal
from kaiser_sim.dd import midtrick

MODES = ("points", "tricks")


def _legal(hand: int, trick) -> list[int]:
    if trick:
        follow = hand & (0xFFFF << (16 * (trick[0] >> 4)))
        hand = follow or hand
    return [c for c in range(64) if hand >> c & 1]


def random_position(rng, hands, leader, ncards):
    """Play ``ncards`` random legal cards of the trick led by ``leader``
    out of ``hands`` (a copy); returns (hands, trick)."""
    h = np.array(hands, dtype=np.uint64)
    trick = []
    for i in range(ncards):
        s = (leader + i) % 4
        c = int(rng.choice(_legal(int(h[s]), trick)))
        trick.append(c)
        h[s] ^= np.uint64(1 << c)
    return h, trick


def _positions(seed, n, sizes, full=False):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        k = 8 if full else sizes[i % len(sizes)]
        hands = random_endgame(rng, k)
        leader, strain = int(rng.integers(4)), int(rng.integers(5))
        h, trick = random_position(rng, hands, leader, int(rng.integers(0, 4)))
        out.append((h, leader, strain, trick, MODES[i % 2]))
    return out


def _where(h, leader, strain, trick, mode):
    return f"{format_deal_partial(h)} leader={'NESW'[leader]} strain={'SHDCN'[strain]} trick={trick} {mode}"


def format_deal_partial(h):
    from kaiser_sim.cards import format_hand

    return "N:" + " ".join(format_hand(x) for x in h)


def _score_reference(h, leader, strain, trick, mode):
    """Per legal card: the naive value after it, for the mover's side."""
    p = (leader + len(trick)) % 4
    out = {}
    for c in _legal(int(h[p]), trick):
        h2 = h.copy()
        h2[p] ^= np.uint64(1 << c)
        out[c] = naive.solve_mid(h2, leader, strain, trick + [c], mode, side=p)
    return out


# --- empty table = the boundary solver --------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_empty_trick_equals_solve(mode, make_endgames, make_deals):
    deals = np.concatenate([make_endgames(40, (1, 2, 3, 4, 5, 6, 7), seed=51), make_deals(8, 52)])
    for i, h in enumerate(deals):
        leader, strain = i % 4, (i * 3) % 5
        assert midtrick.solve_mid(h, leader, strain, (), mode) == dd.solve(h, leader, strain, mode), format_deal(h)


# --- against the naive reference ----------------------------------------------------------------


def test_naive_mid_twins_agree():
    for h, leader, strain, trick, mode in _positions(53, 40, (1, 2, 3)):
        assert naive.solve_mid(h, leader, strain, trick, mode) == naive.solve_mid_py(h, leader, strain, trick, mode)


def test_mid_trick_matches_naive_on_endgames():
    bad = []
    for h, leader, strain, trick, mode in _positions(54, 300, (1, 2, 3, 4, 5)):
        exp = naive.solve_mid(h, leader, strain, trick, mode)
        got = midtrick.solve_mid(h, leader, strain, trick, mode)
        if exp != got:
            bad.append((_where(h, leader, strain, trick, mode), exp, got))
    assert not bad, bad[:5]


def test_score_cards_match_naive_on_endgames():
    bad = []
    for h, leader, strain, trick, mode in _positions(55, 150, (1, 2, 3, 4)):
        exp = _score_reference(h, leader, strain, trick, mode)
        got = midtrick.score_cards(h, leader, strain, trick, mode)
        if exp != got:
            bad.append((_where(h, leader, strain, trick, mode), exp, got))
        assert max(got.values()) == midtrick.solve_mid(h, leader, strain, trick, mode)
    assert not bad, bad[:5]


def _check_full(seed, n):
    bad = []
    for h, leader, strain, trick, mode in _positions(seed, n, (8,), full=True):
        exp = naive.solve_mid(h, leader, strain, trick, mode)
        got = midtrick.solve_mid(h, leader, strain, trick, mode)
        if exp != got:
            bad.append((_where(h, leader, strain, trick, mode), exp, got))
    assert not bad, bad[:5]


def test_mid_trick_matches_naive_on_full_deals():
    _check_full(56, 6)


@pytest.mark.slow
def test_mid_trick_matches_naive_on_many_full_deals():
    _check_full(57, 120)


@pytest.mark.slow
def test_score_cards_match_naive_on_full_deals():
    bad = []
    for h, leader, strain, trick, mode in _positions(58, 12, (8,), full=True):
        exp = _score_reference(h, leader, strain, trick, mode)
        got = midtrick.score_cards(h, leader, strain, trick, mode)
        if exp != got:
            bad.append((_where(h, leader, strain, trick, mode), exp, got))
    assert not bad, bad[:5]


# --- golden cases and input checks --------------------------------------------------------------


def test_rules_example_mid_trick():
    # "Diamonds trump, A leads AH, B 8H, C 5H, D KH: A wins; the trick is worth 6."
    # With AH, 8H, 5H on the table, West's only card is the KH: N-S get 6.
    h = np.array([0, 0, 0, 1 << (16 + 7)], dtype=np.uint64)
    assert midtrick.solve_mid(h, 0, 2, ["AH", "8H", "5H"]) == 0  # West's side gets nothing
    assert midtrick.score_cards(h, 0, 2, ["AH", "8H", "5H"]) == {16 + 7: 0}
    assert naive.solve_mid(h, 0, 2, [16 + 8, 16 + 2, 16 + 0], side=0) == 6


def test_score_every_legal_card_reported():
    # North leads; equivalent cards (AKQ of spades) each get a score
    h = parse_deal("N:AKQ.-.-.- JT9.-.-.- -.AKQ.-.- -.-.AKQ.-")
    got = midtrick.score_cards(h, 0, 4, ())
    assert sorted(got) == [6, 7, 8]
    assert len(set(got.values())) == 1


def test_bad_positions_refused():
    h = parse_deal("N:AK.-.-.- QJ.-.-.- T9.-.-.- 83.-.-.-")
    with pytest.raises(NotationError):
        midtrick.solve_mid(h, 0, 4, ["AS"])  # on the table and still in North's hand
    h2 = h.copy()
    h2[0] ^= np.uint64(1 << 8)
    with pytest.raises(NotationError):
        midtrick.solve_mid(h2, 1, 4, ["AS"])  # East led but North is one card short
    revoke = midtrick._parse_partial_deal("N:-.-.7.- A.-.-.- Q.-.9.- J.-.T.-")
    with pytest.raises(NotationError):
        midtrick.solve_mid(revoke, 0, 4, ["KS", "8D"])  # East shows out of spades holding the AS


def test_seats_and_strains_in_any_spelling():
    """solve_mid and score_cards take a seat and a strain the way DDTable does."""
    from kaiser_sim.deal import deal_batch
    from kaiser_sim.dd.midtrick import score_cards, solve_mid

    d = deal_batch(1, 3)[0]
    assert solve_mid(d, "N", "NT") == solve_mid(d, "north", "no trump") == solve_mid(d, 0, 4)
    assert solve_mid(d, "e", "S") == solve_mid(d, 1, 0)
    assert score_cards(d, "W", "hearts") == score_cards(d, 3, 1)
    import pytest

    with pytest.raises(ValueError):
        solve_mid(d, "X", 4)
    with pytest.raises(ValueError):
        solve_mid(d, 0, "LNT")

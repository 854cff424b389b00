"""Naive double-dummy reference for the Kaiser solver (tests only).

Plain minimax with alpha-beta pruning over single card plays, from a trick
boundary: no transposition table, no equivalent-card tricks, no quick-trick
or other clever bounds.  The one cut-off besides alpha-beta is the value's
trivial range at a trick boundary (from -3 to every trick left + 5), which
makes full deals 4x faster.  Alpha-beta returns the exact minimax value at
the root for any move order, so this is the definition the fast solver
(``kaiser_sim.dd``) is checked against.

Two twins of one algorithm:

- :func:`solve_py` -- pure Python, the obviously-correct definition (slow:
  use it on endgames of up to 4 or 5 cards a hand).
- :func:`solve` -- the same search jitted with numba, fast enough for full
  8-card deals.  The tests check the twins agree on random endgames.

Value semantics (both twins): the points (or tricks) captured from this
trick boundary on by ``side`` -- by default the leader's side -- when that
side maximises them and the other side minimises them.  Points = tricks +
5 for the trick holding the 5H - 3 for the trick holding the 3S, counting
only special cards still in the hands.  The bits of the two special cards
are parameters so that reversed-rank hands (``cards.reverse_ranks``) can be
solved with ``cards.special_bits_after_reverse``; tricks mode ignores them.

Card order: inside a suit a higher bit is a higher card (the ``cards``
layout); a card of suit ``s`` occupies bits ``16*s .. 16*s+15``.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from kaiser_sim.cards import (
    FIVE_HEARTS,
    NO_TRUMP,
    THREE_SPADES,
    bit_count,
    highest_bit_index,
    lowest_bit_index,
    parse_deal,
)

MODES = ("points", "tricks")
_INF = 1000


# --- shared input handling ------------------------------------------------------


def _prepare(hands, leader, strain, mode, side):
    if mode not in MODES:
        raise ValueError(f"mode must be 'points' or 'tricks', got {mode!r}")
    hs = [int(h) for h in hands]
    if len(hs) != 4:
        raise ValueError("need 4 hands")
    lengths = {bin(h).count("1") for h in hs}
    if len(lengths) != 1 or 0 in lengths:
        raise ValueError(f"hands must be non-empty and of equal length: {[bin(h).count('1') for h in hs]}")
    if hs[0] & hs[1] or hs[0] & hs[2] or hs[0] & hs[3] or hs[1] & hs[2] or hs[1] & hs[3] or hs[2] & hs[3]:
        raise ValueError("a card is in two hands")
    if not 0 <= leader <= 3 or not 0 <= strain <= 4:
        raise ValueError("leader must be 0..3 and strain 0..4")
    max_side = (leader if side is None else side) & 1
    return hs, max_side


def total_in_play(hands, mode="points", five=FIVE_HEARTS, three=THREE_SPADES) -> int:
    """Everything the two sides share from here: the tricks left, plus 5 if
    the 5H and minus 3 if the 3S is still in a hand (points mode)."""
    all_cards = int(hands[0]) | int(hands[1]) | int(hands[2]) | int(hands[3])
    total = bin(int(hands[0])).count("1")
    if mode == "points":
        total += 5 * (all_cards >> five & 1) - 3 * (all_cards >> three & 1)
    return total


# --- pure Python: the definition ---------------------------------------------------


def _beats_py(card, winning, trump):
    """Does ``card`` beat the card currently winning the trick?"""
    if card >> 4 == winning >> 4:
        return card > winning
    return card >> 4 == trump


def _search_py(hands, leader, trick, ctx, alpha, beta):
    """Minimax value for ``ctx['max_side']`` of the rest of the deal.

    ``trick`` holds the cards already played to the current trick, in play
    order starting with ``leader``'s card.
    """
    if len(trick) == 4:
        best = 0
        for i in range(1, 4):
            if _beats_py(trick[i], trick[best], ctx["trump"]):
                best = i
        winner = (leader + best) % 4
        value = 1
        if ctx["points"]:
            value += 5 * (ctx["five"] in trick) - 3 * (ctx["three"] in trick)
        won = value if winner & 1 == ctx["max_side"] else 0
        return won + _search_py(hands, winner, (), ctx, alpha - won, beta - won)
    seat = (leader + len(trick)) % 4
    hand = hands[seat]
    if not trick:
        if hand == 0:
            return 0
        if ctx["prune"]:
            # The value's trivial range: between -3 (if the 3S is still out)
            # and every trick left plus 5 (if the 5H is still out).  If the
            # window lies outside it, no move can matter.
            in_play = hands[0] | hands[1] | hands[2] | hands[3]
            hi = bin(hand).count("1") + (5 if ctx["points"] and in_play >> ctx["five"] & 1 else 0)
            lo = -3 if ctx["points"] and in_play >> ctx["three"] & 1 else 0
            if hi <= alpha:
                return hi
            if lo >= beta:
                return lo
    else:
        follow = hand & (0xFFFF << (16 * (trick[0] >> 4)))
        if follow:
            hand = follow
    maximising = seat & 1 == ctx["max_side"]
    best = -_INF if maximising else _INF
    for card in range(64):
        if not hand >> card & 1:
            continue
        hands[seat] ^= 1 << card
        v = _search_py(hands, leader, trick + (card,), ctx, alpha, beta)
        hands[seat] ^= 1 << card
        if maximising:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if ctx["prune"] and alpha >= beta:
            break
    return best


def solve_py(hands, leader, strain, mode="points", five=FIVE_HEARTS, three=THREE_SPADES, side=None, prune=True) -> int:
    """Exact value, pure Python.  See the module docstring for the semantics.

    ``side`` (a seat; only its parity matters) is the side whose value is
    returned and which maximises it; default the leader's side.
    ``prune=False`` turns alpha-beta into plain minimax, without the range
    cut-off either (for testing the pruning itself on tiny endgames).
    """
    hs, max_side = _prepare(hands, leader, strain, mode, side)
    ctx = {
        "trump": int(strain),  # 4 = no trump never equals a suit number 0..3
        "points": mode == "points",
        "five": int(five),
        "three": int(three),
        "max_side": max_side,
        "prune": prune,
    }
    return _search_py(hs, int(leader), (), ctx, -_INF, _INF)


# --- numba twin -----------------------------------------------------------------------
#
# No cache=True on _search_jit: a self-recursive jitted function loaded from
# numba's on-disk cache segfaults (numba issue #6061), so it compiles once per
# process (a few seconds).  nogil=True lets solve_many run solves on several
# threads.


@njit
def _beats(card, win_card, trump):
    """Jitted twin of :func:`_beats_py`."""
    if card >> 4 == win_card >> 4:
        return card > win_card
    return card >> 4 == trump


@njit
def _top_rank_card(mask):
    """The card of ``mask`` with the highest rank (ties: the highest suit)."""
    best = -1
    best_rank = -1
    for suit in range(4):
        part = (mask >> np.uint64(16 * suit)) & np.uint64(0xFFFF)
        if part:
            r = np.int64(highest_bit_index(part))
            if r >= best_rank:
                best_rank = r
                best = 16 * suit + r
    return best


@njit
def _low_rank_card(mask):
    """The card of ``mask`` with the lowest rank (ties: the lowest suit)."""
    best = -1
    best_rank = 99
    for suit in range(4):
        part = (mask >> np.uint64(16 * suit)) & np.uint64(0xFFFF)
        if part:
            r = np.int64(lowest_bit_index(part))  # (lowest_bit_index gives a uint64)
            if r < best_rank:
                best_rank = r
                best = 16 * suit + r
    return best


@njit
def _minus(hands, seat, bit):
    """``hands`` (a 4-tuple of uint64) with ``bit`` taken out of ``seat``'s hand."""
    return (
        hands[0] ^ bit if seat == 0 else hands[0],
        hands[1] ^ bit if seat == 1 else hands[1],
        hands[2] ^ bit if seat == 2 else hands[2],
        hands[3] ^ bit if seat == 3 else hands[3],
    )


@njit(nogil=True)
def _search_jit(hands, trump, max_side, five_bit, three_bit, leader, nplayed, led, winner, win_card, trick_bits, alpha, beta):
    """Jitted twin of :func:`_search_py` (same value, same pruning, same bound).

    ``hands`` is a 4-tuple of uint64.  The current trick is carried as:
    ``nplayed`` cards so far, the suit ``led`` of the first one, the seat
    ``winner`` and card number ``win_card`` winning it so far, and the mask
    ``trick_bits`` of its cards (for the special cards).  The only other
    difference from the Python twin is the order in which moves are tried.
    """
    if nplayed == 4:
        value = 1
        if trick_bits & five_bit:
            value += 5
        if trick_bits & three_bit:
            value -= 3
        won = value if winner & 1 == max_side else 0
        return won + _search_jit(
            hands, trump, max_side, five_bit, three_bit, winner, 0, 0, winner, 0, np.uint64(0), alpha - won, beta - won
        )
    seat = (leader + nplayed) & 3
    hand = hands[0] if seat == 0 else (hands[1] if seat == 1 else (hands[2] if seat == 2 else hands[3]))
    if nplayed == 0:
        if hand == 0:
            return 0
        # the value's trivial range (see _search_py)
        in_play = hands[0] | hands[1] | hands[2] | hands[3]
        hi = np.int64(bit_count(hand))
        lo = 0
        if in_play & five_bit:
            hi += 5
        if in_play & three_bit:
            lo = -3
        if hi <= alpha:
            return hi
        if lo >= beta:
            return lo
    else:
        follow = hand & (np.uint64(0xFFFF) << np.uint64(16 * led))
        if follow:
            hand = follow
    maximising = seat & 1 == max_side
    best = -_INF if maximising else _INF
    # Move order: any order gives the same alpha-beta value; this one only
    # makes cut-offs come sooner.  Leader: high ranks first.  Follower: if the
    # opponents are winning, cards that beat the winning card first (cheapest
    # first), then the rest lowest rank first; if partner is winning, the
    # cards that do not overtake first (lowest rank first), then the rest.
    if nplayed == 0:
        first, second = hand, np.uint64(0)
    else:
        beaters = np.uint64(0)
        rest = hand
        while rest:
            card = np.int64(lowest_bit_index(rest))
            bit = np.uint64(1) << np.uint64(card)
            rest ^= bit
            if _beats(card, win_card, trump):
                beaters |= bit
        if winner & 1 == seat & 1:
            first, second = hand & ~beaters, beaters
        else:
            first, second = beaters, hand & ~beaters
    for phase in range(2):
        moves = first if phase == 0 else second
        while moves:
            if nplayed == 0:
                card = _top_rank_card(moves)
            elif phase == 0 and winner & 1 != seat & 1:
                card = np.int64(lowest_bit_index(moves))  # cheapest beater: all in one suit
            else:
                card = _low_rank_card(moves)
            bit = np.uint64(1) << np.uint64(card)
            moves ^= bit
            if nplayed == 0:
                w, wc, ld = seat, card, card >> 4
            elif _beats(card, win_card, trump):
                w, wc, ld = seat, card, led
            else:
                w, wc, ld = winner, win_card, led
            v = _search_jit(
                _minus(hands, seat, bit),
                trump,
                max_side,
                five_bit,
                three_bit,
                leader,
                nplayed + 1,
                ld,
                w,
                wc,
                trick_bits | bit,
                alpha,
                beta,
            )
            if maximising:
                if v > best:
                    best = v
                if v > alpha:
                    alpha = v
            else:
                if v < best:
                    best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if alpha >= beta:
            break
    return best


def _jit_args(hands, leader, strain, mode, five, three, side):
    hs, max_side = _prepare(hands, leader, strain, mode, side)
    points = mode == "points"
    five_bit = np.uint64(1 << int(five)) if points else np.uint64(0)
    three_bit = np.uint64(1 << int(three)) if points else np.uint64(0)
    work = tuple(np.uint64(h) for h in hs)
    return (work, int(strain), max_side, five_bit, three_bit, int(leader), 0, 0, int(leader), 0, np.uint64(0))


def solve(hands, leader, strain, mode="points", five=FIVE_HEARTS, three=THREE_SPADES, side=None) -> int:
    """Exact value, the jitted twin of :func:`solve_py` (same arguments but ``prune``).

    About 0.5 s for a full 8-card deal; endgames of 5 cards or fewer take
    milliseconds.
    """
    return int(_search_jit(*_jit_args(hands, leader, strain, mode, five, three, side), -_INF, _INF))


def reaches(hands, leader, strain, target, mode="points", five=FIVE_HEARTS, three=THREE_SPADES, side=None) -> bool:
    """Is the value at least ``target``?  One null-window alpha-beta search
    (window ``(target - 1, target)``): cheaper than :func:`solve`, same answer
    as ``solve(...) >= target``."""
    args = _jit_args(hands, leader, strain, mode, five, three, side)
    return bool(_search_jit(*args, int(target) - 1, int(target)) >= target)


def solve_many(positions, mode="points", threads=None) -> list[int]:
    """:func:`solve` for many ``(hands, leader, strain)`` positions, on
    ``threads`` threads (default: one per CPU); results in input order."""
    positions = list(positions)
    if threads is None:
        threads = os.cpu_count() or 1
    solve(*positions[0], mode)  # compile outside the threads
    with ThreadPoolExecutor(max_workers=threads) as pool:
        return list(pool.map(lambda p: solve(*p, mode), positions))


def dd_table(deals, mode="points", threads=None) -> np.ndarray:
    """``(n, 4, 5)`` int8 table computed with :func:`solve`, laid out like
    ``kaiser_sim.dd_table`` (axis 1 leader N E S W, axis 2 strain S H D C N).
    ``deals`` is an ``(n, 4)`` array or a list of deal strings."""
    if len(deals) and isinstance(deals[0], str):
        deals = [parse_deal(d) for d in deals]
    positions = [(hands, leader, strain) for hands in deals for leader in range(4) for strain in range(NO_TRUMP + 1)]
    values = solve_many(positions, mode, threads) if positions else []
    return np.array(values, dtype=np.int8).reshape(len(deals), 4, NO_TRUMP + 1)


#: ``kaiser_sim.dd.can_reach``'s reference: the null-window search.
can_reach = reaches


# --- mid-trick reference ------------------------------------------------------------------
#
# Both searches above already carry the current trick, so the plain reference
# for a position in the middle of a trick is the same search entered with the
# cards on the table.


def _mid_args(hands, leader, trick, side):
    hs = [int(h) for h in hands]
    trick = [int(c) for c in trick]
    if not 0 <= len(trick) <= 4:
        raise ValueError("0..4 cards on the table")
    if side is None:
        side = (leader + len(trick)) % 4
    return hs, trick, side & 1


def solve_mid_py(hands, leader, strain, trick=(), mode="points", five=FIVE_HEARTS, three=THREE_SPADES, side=None) -> int:
    """Pure-Python value of a mid-trick position: ``hands`` without the
    ``trick`` cards (played in order from ``leader``), points from the start
    of the current trick for ``side`` (default: the player to move's side)."""
    hs, trick, max_side = _mid_args(hands, leader, trick, side)
    ctx = {"trump": int(strain), "points": mode == "points", "five": int(five), "three": int(three),
           "max_side": max_side, "prune": True}
    return _search_py(hs, int(leader), tuple(trick), ctx, -_INF, _INF)


def solve_mid(hands, leader, strain, trick=(), mode="points", five=FIVE_HEARTS, three=THREE_SPADES, side=None) -> int:
    """Jitted twin of :func:`solve_mid_py` (the current trick as the state
    variables of :func:`_search_jit`)."""
    hs, trick, max_side = _mid_args(hands, leader, trick, side)
    points = mode == "points"
    five_bit = np.uint64(1 << int(five)) if points else np.uint64(0)
    three_bit = np.uint64(1 << int(three)) if points else np.uint64(0)
    led, winner, win_card, bits = 0, int(leader), 0, np.uint64(0)
    for i, c in enumerate(trick):
        bits |= np.uint64(1 << c)
        if i == 0:
            led, win_card = c >> 4, c
        elif _beats(c, win_card, int(strain)):
            winner, win_card = (leader + i) % 4, c
    work = tuple(np.uint64(h) for h in hs)
    return int(_search_jit(work, int(strain), max_side, five_bit, three_bit, int(leader), len(trick), led, winner,
                           win_card, bits, -_INF, _INF))


# --- coalition games: the exact versions of kaiser_sim.dd.play_bounds ----------------------------


def coalition_value_py(hands, leader, strain, maximisers, mode="points", five=FIVE_HEARTS, three=THREE_SPADES,
                       side=None) -> int:
    """The points (or tricks) ``side``'s partnership (default the leader's)
    takes from this trick boundary when the seats in ``maximisers`` play to
    maximise them and the others to minimise them: plain memoised minimax,
    pure Python (endgames of up to 4 or 5 cards a hand).

    ``maximisers = {0, 1, 2, 3}``: every player cooperates (the upper bound
    of :mod:`kaiser_sim.dd.play_bounds`); ``{leader}``: the declarer alone
    against the other three, its partner included (the lower bound);
    ``{leader, leader ^ 2}``: double dummy (:func:`solve_py`).
    """
    hs, max_side = _prepare(hands, leader, strain, mode, side)
    maxi = frozenset(int(s) for s in maximisers)
    points = mode == "points"
    memo = {}

    def value(hs, leader, trick):
        key = (tuple(hs), leader, trick)
        if key in memo:
            return memo[key]
        if len(trick) == 4:
            best = 0
            for i in range(1, 4):
                if _beats_py(trick[i], trick[best], int(strain)):
                    best = i
            winner = (leader + best) % 4
            won = 1 + (5 * (int(five) in trick) - 3 * (int(three) in trick) if points else 0)
            out = (won if winner & 1 == max_side else 0) + value(hs, winner, ())
            memo[key] = out
            return out
        seat = (leader + len(trick)) % 4
        hand = hs[seat]
        if not trick and hand == 0:
            return 0
        if trick:
            follow = hand & (0xFFFF << (16 * (trick[0] >> 4)))
            hand = follow or hand
        vals = []
        for card in range(64):
            if hand >> card & 1:
                nxt = list(hs)
                nxt[seat] ^= 1 << card
                vals.append(value(nxt, leader, trick + (card,)))
        out = max(vals) if seat in maxi else min(vals)
        memo[key] = out
        return out

    return value(hs, int(leader), ())

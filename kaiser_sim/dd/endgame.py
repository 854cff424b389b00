"""Exact two-trick endings, solved directly (:func:`solve_two`).

Positions with two tricks left make up a large share of the search's nodes;
a small dedicated alpha-beta over the first trick (at most 2 x 2 x 2 x 2
lines) with the last trick read off is far cheaper there than the general
search loop (docs/solver.md §2).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import SUIT_MASK
from . import _jit_cache
from .bits import INF, beats, card_bit, highest_bit_index, ix, lowest_bit_index, rank_win, trick_points

# the kernels below carry compiled copies of these files' kernels: recompile them when those change
_jit_cache.depends_on(__file__, *_jit_cache.package_files("cards.py", "dd/bits.py"))

_SUIT_MASKS = SUIT_MASK  # read-only module-level table, frozen into the kernels


@njit(cache=True, inline="always")
def _legal(hand, led_card):
    """Cards of ``hand`` that may be played to a trick led by ``led_card``."""
    follow = hand & _SUIT_MASKS[ix(led_card >> 4)]
    return follow if follow else hand


@njit(cache=True, inline="always")
def _last_trick(l0, l1, l2, l3, t, trump):
    """The last trick: ``lq`` the bit of the one card left to the hand ``q``
    places after the leader of the first trick, ``t`` (same numbering) leads
    it.  Returns (winner's number, the winner's bit if its rank mattered,
    all four cards).  No tuple or array look-up by a variable seat (numba
    compiles those to branches).

    Only the winning *side* counts in the last trick, so the winner's rank
    matters only when an opponent played a card of its suit."""
    allc = l0 | l1 | l2 | l3
    led = l0 if t == 0 else (l1 if t == 1 else (l2 if t == 2 else l3))
    wm = allc & _SUIT_MASKS[ix(lowest_bit_index(led) >> 4)]
    if trump != 4:
        tm = allc & _SUIT_MASKS[ix(trump)]
        if tm:
            wm = tm
    wb = card_bit(highest_bit_index(wm))
    ws = (1 if l1 == wb else 0) + (2 if l2 == wb else 0) + (3 if l3 == wb else 0)
    opp = (l0 | l2) if ws & 1 else (l1 | l3)
    wr = wb if (opp & wm) else np.uint64(0)
    return ws, wr, allc


@njit(cache=True, inline="always")
def _fold(maxer, v, w, best, wb, wall, lo, hi):
    """Fold one child's result (value ``v``, winning ranks ``w``) into a
    node of ``solve_two`` (fail-soft alpha-beta, window (lo, hi)): returns
    the node's new best, best child's ranks, union of ranks, window, and
    whether it is cut off."""
    wall |= w
    if maxer:
        if v > best:
            best = v
            wb = w
            if v > lo:
                lo = v
    else:
        if v < best:
            best = v
            wb = w
            if v < hi:
                hi = v
    return best, wb, wall, lo, hi, lo >= hi


@njit(cache=True)
def solve_two(x0, x1, x2, x3, p, trump, five, three, a, b):
    """N-S points of a two-trick ending with ``p`` on lead, ``x0..x3`` the
    hands in playing order from ``p`` (exact inside the window (a, b),
    fail-soft outside it), and its winning ranks: the cards whose rank the
    proof of that result relies on (for a value >= b one best move of N-S
    and every move of E-W; for a value <= a the converse; inside the window
    both).

    Alpha-beta over the first trick (at most 2 x 2 x 2 x 2 lines), the last
    trick evaluated directly; a node cut off passes on the ranks of the one
    move that proved it, a node where every move counts the union of all
    (as ``search``).  Far cheaper than the general search for the positions
    that make up a large share of its nodes.  A line whose first trick
    already closes the window whoever wins the last one returns that bound
    without the last trick's ranks (more general table entries above:
    measured, fewer nodes).
    """
    # inside, seats are counted from the leader (no look-up by a variable seat)
    max0 = (p & 1) == 0  # does the player at this position maximise N-S?
    max1 = not max0
    best0 = -INF if max0 else INF
    wb0 = np.uint64(0)
    wall0 = np.uint64(0)
    lo0 = a
    hi0 = b
    cut0 = False
    c0s = x0
    while c0s and not cut0:
        c0 = highest_bit_index(c0s)
        b0 = card_bit(c0)
        c0s ^= b0
        best1 = -INF if max1 else INF
        wb1 = np.uint64(0)
        wall1 = np.uint64(0)
        lo1 = lo0
        hi1 = hi0
        cut1 = False
        c1s = _legal(x1, c0)
        while c1s and not cut1:
            c1 = highest_bit_index(c1s)
            b1 = card_bit(c1)
            c1s ^= b1
            w1, s1 = c0, 0
            if beats(c1, c0, trump):
                w1, s1 = c1, 1
            best2 = -INF if max0 else INF
            wb2 = np.uint64(0)
            wall2 = np.uint64(0)
            lo2 = lo1
            hi2 = hi1
            cut2 = False
            c2s = _legal(x2, c0)
            while c2s and not cut2:
                c2 = highest_bit_index(c2s)
                b2 = card_bit(c2)
                c2s ^= b2
                w2, s2 = w1, s1
                if beats(c2, w1, trump):
                    w2, s2 = c2, 2
                best3 = -INF if max1 else INF
                wb3 = np.uint64(0)
                wall3 = np.uint64(0)
                lo3 = lo2
                hi3 = hi2
                cut3 = False
                c3s = _legal(x3, c0)
                while c3s and not cut3:
                    c3 = highest_bit_index(c3s)
                    b3 = card_bit(c3)
                    c3s ^= b3
                    w3, s3 = w2, s2
                    if beats(c3, w2, trump):
                        w3, s3 = c3, 3
                    first = b0 | b1 | b2 | b3
                    # N-S won it when p + s3 is N or S
                    v = trick_points(first, five, three) if ((s3 + p) & 1) == 0 else 0
                    # the last trick brings N-S 0 or its points: when either
                    # way closes the window, who wins it does not matter (nor
                    # its cards' ranks)
                    pl = trick_points((x0 | x1 | x2 | x3) & ~first, five, three)
                    vl = v + min(pl, 0)
                    vh = v + max(pl, 0)
                    if vl >= hi3 or vh <= lo3:
                        v = vl if vl >= hi3 else vh
                        wl = np.uint64(0)
                    else:
                        ls, wl, last = _last_trick(x0 ^ b0, x1 ^ b1, x2 ^ b2, x3 ^ b3, s3, trump)
                        if ((ls + p) & 1) == 0:
                            v += trick_points(last, five, three)
                    best3, wb3, wall3, lo3, hi3, cut3 = _fold(max1, v, rank_win(first, w3) | wl,
                                                              best3, wb3, wall3, lo3, hi3)
                best2, wb2, wall2, lo2, hi2, cut2 = _fold(max0, best3, wb3 if cut3 else wall3,
                                                          best2, wb2, wall2, lo2, hi2)
            best1, wb1, wall1, lo1, hi1, cut1 = _fold(max1, best2, wb2 if cut2 else wall2,
                                                      best1, wb1, wall1, lo1, hi1)
        best0, wb0, wall0, lo0, hi0, cut0 = _fold(max0, best1, wb1 if cut1 else wall1,
                                                  best0, wb0, wall0, lo0, hi0)
    return best0, (wb0 if cut0 else wall0)

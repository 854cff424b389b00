"""Bounds on what a deal lets the declaring side take, whoever plays it.

Table play (:mod:`kaiser_sim.strategy.table_play`) spreads each deal's double-dummy
(DD) value into a distribution of the points players who see only their own
hand take.  Some of that spread is impossible for the deal in front of them:
a declarer holding eight top winners in no trump takes every trick however
anyone plays.  This module gives, for each deal and strain, a pair of
points ``lo <= DD <= hi`` the table-play points are kept within:

* ``lo`` is a lower bound on the declaring side's points when the declarer
  alone plays to maximise them and the other three -- its partner included
  -- play to minimise them (so it does not depend on how well the partner
  or the defenders play);
* ``hi`` is an upper bound on the declaring side's points when all four
  players cooperate to maximise them (so no play, however bad the defence,
  gets more).

Both are the cheap, provable kind, computed from the cards alone in a few
bit operations a deal (no search):

**Sure tricks** ``T`` of the declarer on lead (``_sure_tricks``).  A card
the declarer holds that ranks above every card of its suit held by the
other three wins when it is led in no trump; leading it keeps the lead, so
the declarer can cash all of them, suit by suit, whatever the others do
(a higher card never appears; the partner cannot overtake).  In a trump
contract the declarer first cashes its *top trumps* (those above every
outside trump); each round takes at least one trump from every other hand
that still has one, so when no other hand holds more trumps than the top
trumps cashed, every outside trump is gone: then all the declarer's trumps
and every top card of a side suit are sure too (nobody can ruff).
Otherwise only the top trumps are counted.

**Points from tricks**.  With ``T`` sure tricks the side takes at least
``T`` tricks; it captures the 5H for sure when the 5H is one of the
declarer's sure cards (it is led and wins), and it may capture the 3S
whenever the 3S is in play.  So ``lo = T + 5 [5H sure] - 3 [3S in play]``,
and never below the least any side can take: 0 tricks (0 points) or one
trick holding the 3S (-2).  When ``T`` is every trick, the side takes
every card it chooses to: ``lo`` = all the points in play (10 in the
standard game).  ``hi`` is the most a side can take while losing a trick:
every trick but one, the 5H among them and the 3S in the lost one
(``tricks - 1 + 5``: 12 in the standard game; without the 3S in play,
every trick) -- players who all help the side may give the 3S away
(``tests/test_play_bounds.py`` met such an endgame).  Only when the side
*cannot* lose a trick is ``hi`` all the points in play too: every card the
declarer holds is above every other card of its suit and nobody else can
ruff (no trump, or no other hand holds a trump); then ``lo = hi``.

**A declarer who claims** (``claims``).  When the sure cards are every
trick, the sure line (top trumps first, then the rest) leaves no one else a
trick: the side takes exactly ``lo``, all the points in play.  More needs
the 3S lost on purpose: a defender ruffing in with it (which only costs the
defenders), or the side giving it away -- the declarer underleading a
trump that is sure only once the outside trumps are gone, or the partner,
on lead after a ruff, leading it into a suit the declarer is void in.  The
last two are double-dummy play, so the double-dummy value can be above
``lo`` there: a claim holds only where it is not (:func:`strain_bounds`
with the deals' values).  Table play (the hand advisor's bounds) takes it:
a declarer who can claim every trick does, and played out by PIMC players
such hands take exactly ``lo`` (``tests/test_play_bounds.py``).

The exact values of the two games (all four cooperating; one against
three) need a search each; they would be tighter (the cooperative maximum
is below 12 on some deals, the one-against-three minimum above these
bounds on many), but the bounds above already do what table play needs:
a hand that takes every trick whatever anyone does reads the same in table
play as double dummy, and no deal is given points no play can reach.
``tests/naive.py`` holds the exact games in pure Python and
``tests/test_play_bounds.py`` checks ``lo <= exact one-against-three <= DD
<= exact cooperative <= hi`` on small endgames.

Kernel: ``_bounds_kernel`` (serial: a few hundred nanoseconds a deal and
strain); public wrapper :func:`play_bounds`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import SUIT_MASK
from . import _jit_cache
from .api import special_bits
from .bits import bit_count, highest_bit_index

# the kernels below inline the bit helpers of bits.py and the constants of cards.py
_jit_cache.depends_on(__file__, *_jit_cache.package_files("cards.py", "dd/bits.py"))

_SUIT_MASKS = SUIT_MASK
_ONE = np.uint64(1)
NT = 4


@njit(cache=True, inline="always")
def _tops(mine, others):
    """The cards of ``mine`` (one suit) above every card of ``others`` (the
    same suit), as a mask."""
    if others == 0:
        return mine
    h = highest_bit_index(others)
    return mine & ~((_ONE << np.uint64(h + 1)) - _ONE)


@njit(cache=True)
def _sure_cards(hands, declarer, strain):
    """The declarer's sure winners on lead (module doc): a mask of its cards."""
    mine = hands[declarer]
    others = np.uint64(0)
    for q in range(4):
        if q != declarer:
            others |= hands[q]
    if strain == NT:
        out = np.uint64(0)
        for s in range(4):
            out |= _tops(mine & _SUIT_MASKS[s], others & _SUIT_MASKS[s])
        return out
    tm = _SUIT_MASKS[strain]
    top_t = _tops(mine & tm, others & tm)
    k = bit_count(top_t)
    most = 0
    for q in range(4):
        if q != declarer:
            c = bit_count(hands[q] & tm)
            if c > most:
                most = c
    if most > k:
        return top_t
    out = mine & tm  # every outside trump drawn by the top trumps: all the declarer's trumps win
    for s in range(4):
        if s != strain:
            out |= _tops(mine & _SUIT_MASKS[s], others & _SUIT_MASKS[s])
    return out


@njit(cache=True)
def _cannot_lose(hands, declarer, strain):
    """Does every card the declarer holds win whenever it is led, in any
    order?  Each is above every other card of its suit, and nobody else can
    ruff (no trump, or no other hand holds a trump)."""
    mine = hands[declarer]
    others = np.uint64(0)
    for q in range(4):
        if q != declarer:
            others |= hands[q]
    if strain != NT and (others & _SUIT_MASKS[strain]) != 0:
        return False
    for s in range(4):
        m = mine & _SUIT_MASKS[s]
        if _tops(m, others & _SUIT_MASKS[s]) != m:
            return False
    return True


@njit(cache=True)
def _bounds_kernel(deals, declarers, strains, five, three, claims):
    """``(n, 2)`` int64: ``lo``, ``hi`` of every (deal, declarer, strain);
    ``claims``: the declarer whose sure cards are every trick cashes them
    (``hi = lo``; module doc)."""
    n = deals.shape[0]
    out = np.zeros((n, 2), np.int64)
    for i in range(n):
        h = deals[i]
        d = declarers[i]
        tricks = bit_count(h[d])
        union = h[0] | h[1] | h[2] | h[3]
        has5 = (union & five) != 0
        has3 = (union & three) != 0
        total = tricks + (5 if has5 else 0) - (3 if has3 else 0)
        sure = _sure_cards(h, d, strains[i])
        t = bit_count(sure)
        # the most a side takes while losing a trick: the 3S in the lost one, the 5H kept
        most = tricks - 1 + (5 if has5 else 0) if has3 else tricks + (5 if has5 else 0)
        if t >= tricks:
            out[i, 0] = total
            out[i, 1] = total if claims or _cannot_lose(h, d, strains[i]) else max(total, most)
            continue
        lo = t + (5 if (sure & five) != 0 else 0) - (3 if has3 else 0)
        floor = -2 if has3 else 0  # the least a side takes: one trick holding the 3S (or nothing)
        if t == 0:
            lo = floor
        out[i, 0] = max(lo, floor)
        out[i, 1] = most
    return out


def play_bounds(deals, declarers, strains, mode: str = "points", claims: bool = False) -> np.ndarray:
    """``(n, 2)`` int64: for each deal the bounds ``lo``, ``hi`` of the
    declaring side's points (module doc), the declarer on lead.  With
    ``claims``, where the declarer's sure cards are every trick ``hi`` is
    ``lo`` (the declarer claims: module doc), else the bound of any play; a
    claim is no bound on the double-dummy value, which can be above it
    (:func:`strain_bounds` with the values applies it only where it is not).

    Parameters
    ----------
    deals : (n, 4) uint64 deals (equal hands).
    declarers, strains : scalars or (n,): the declarer's seat and the strain
        (0..3 the trump suit, 4 no trump).
    mode : ``"points"`` (the 5H and 3S count) or ``"tricks"``.

    Kernel: ``_bounds_kernel``.
    """
    arr = np.ascontiguousarray(deals, dtype=np.uint64)
    if arr.ndim != 2 or arr.shape[1] != 4:
        raise ValueError("deals must have shape (n, 4)")
    n = arr.shape[0]
    dec = np.ascontiguousarray(np.broadcast_to(np.asarray(declarers, dtype=np.int64), (n,)))
    strn = np.ascontiguousarray(np.broadcast_to(np.asarray(strains, dtype=np.int64), (n,)))
    if n and (dec.min() < 0 or dec.max() > 3 or strn.min() < 0 or strn.max() > 4):
        raise ValueError("declarers are seats 0..3 and strains 0..4")
    f, t = special_bits(mode)
    return _bounds_kernel(arr, dec, strn, f, t, bool(claims))


def strain_bounds(deals, declarer: int, mode: str = "points", values=None) -> tuple[np.ndarray, np.ndarray]:
    """``(lo, hi)``, each ``(n, 5)`` int64: :func:`play_bounds` in the five
    strains S H D C N with ``declarer`` on lead (the columns of
    :func:`kaiser_sim.dd.dd_strains`).  With ``values`` (those columns'
    double-dummy values, ``(n, 5)``) a declarer whose sure cards are every
    trick claims them wherever its double-dummy value is what they take
    (``hi = lo``; module doc), so ``lo <= values <= hi`` still holds."""
    arr = np.ascontiguousarray(deals, dtype=np.uint64)
    n = arr.shape[0]
    lo = np.empty((n, 5), np.int64)
    hi = np.empty((n, 5), np.int64)
    for s in range(5):
        b = play_bounds(arr, declarer, s, mode)
        lo[:, s], hi[:, s] = b[:, 0], b[:, 1]
    if values is not None:
        v = np.asarray(values)
        if v.shape != (n, 5):
            raise ValueError("values must have shape (n, 5): the deals' values in the five strains")
        claim = np.empty((n, 5), np.int64)
        for s in range(5):
            claim[:, s] = play_bounds(arr, declarer, s, mode, claims=True)[:, 1]
        hi = np.where((claim == lo) & (v == lo), lo, hi)
    return lo, hi


__all__ = ["play_bounds", "strain_bounds"]

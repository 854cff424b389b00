"""Exact double-dummy solver for Kaiser (points and tricks modes).

Public API (stable):

- ``solve(hands, leader, strain, mode="points") -> int``: exact value for the
  leader's side from a trick boundary (equal hand lengths 1..8).
- ``can_reach(hands, leader, strain, target, mode="points") -> bool``: can the
  leader's side get at least ``target``?  A null-window search, cheaper than
  ``solve``.
- ``dd_table(deals, mode="points") -> (n, 4, 5) int8``: leader N E S W x strain
  S H D C N, value for the leader's side, parallel over deals;
  ``mode="both"`` returns the pair ``(points, tricks)`` of such tables,
  solved by the ladder below for little more than the points table alone.

``hands`` is a (4,) uint64 array indexed by seat (see ``cards``).  Points mode:
tricks + 5 for the trick holding the 5H - 3 for the trick holding the 3S, only
counting special cards still in play.  Tricks mode is the same search with no
special cards, so it equals bridge double-dummy on the same cards.

How the search works
--------------------
One jitted, *iterative* alpha-beta (an explicit stack of plies instead of
recursion: self-recursive numba functions cannot be cached, see
docs/solver.md pitfall 1, and the explicit stack avoids per-call argument
overhead).  Values inside the search are North-South's points from the start
of the current trick onward; N-S maximise, E-W minimise.  ``_search`` starts
at a trick boundary; ``_search_mid``, the same kernel, also inside a trick
(the cards on the table fill the first rows of the stack: ``play``'s
mid-trick positions and the PIMC players' scores).  Cards adjacent in
rank in one hand are equivalent and tried once, except the 5H and the 3S,
which are never interchangeable with a neighbour in points mode.  Sound
bounds cut the search: quick tricks of the hand on lead (top trumps drawn
first; or partner's after an entry, or with no trump in play both) and top
trumps of each side (``_cashable``, ``_quick_tricks``,
``_sure_trump_tricks``), checked before the transposition
table is probed; in points each count is worth its tricks, +5 where the 5H
is sure to fall in them (a special's suit trump and no opponent holding
it, or a cash the 5H must or may join: ``_cash_takes_5h``) and -3 where
the 3S may (-2 where it cannot: ``_cash_spares_3s``; the side may still
be forced to win it later, docs/solver.md pitfall 6); two-trick endings are
solved directly by a small alpha-beta (``_solve_two``).  Leads try first
the ply's "killer" (the card that last refuted a sibling line after the
first move failed); then all moves follow
rules of play (cash winners, lead to partner's winner, a suit an opponent
ruffs last, second hand plays low -- and drops the 5H -- when its partner
takes the trick anyway, else wins only what the third hand cannot beat,
...), the killer breaking near ties after the lead.

Transposition table with "winning ranks" (as DDS)
-------------------------------------------------
Every search result also carries its *winning ranks* W: the cards whose rank
the proof relies on -- a card that beat another card of its suit in a trick
(in the last trick only when an opponent followed suit, as only the side
then counts), the top cards a bound counted, the cards a TT entry fixed.  A
cut-off passes on the W of the one move that proved it; a node where every
move counts passes on the union, and a move that stood for a run of
equivalent cards adds the whole run whenever any card of the run is in W
(the skipped cards' lines are the same line with the run permuted;
docs/solver.md pitfall 5).  At a trick boundary the result is stored in a
bucket found by hashing the leader, trump, every hand's length in every suit
and the owners of the special cards still in play; the entry fixes, per
suit, the owners of the remaining cards from the top down to the lowest
card of W, and matches any position that agrees on those (whatever the lower
cards and the cards played before): the proof carries over card for card,
lower cards only ever winning by suit.  A lookup takes the tightest bounds
of all matching entries of the bucket; a bound is only stored into the entry
of its own W.  The key also carries the table's generation (``dd_table``: one
a deal): another deal's entries, almost never of use, never match and count
as free slots, so they no longer evict the current deal's (clearing the
table per deal would cost a 3 MiB write each time).

Relaxed scorings (the ladder of ``dd_table(mode="both")``)
-----------------------------------------------------------
Tricks, "5H only" (the 3S an ordinary card) and points are one game tree
with different payoffs: at every leaf N-S's points are their tricks -3..+5
(-3 only while the 3S is in play, +5 only while the 5H is) and their
5H-only points -3..0, so minimax keeps T - 3[3S] <= P <= T + 5[5H] and
F - 3[3S] <= P <= F at every position, and a winning-ranks entry's bounds
carry over to every position it matches.  A bucket is therefore hashed
without the specials' fields of the flags (``_CORE_FLAGS``): all scorings of
a position share it, and the scan takes an entry whose specials are a subset
of the node's (same owners) with its bounds widened by those offsets.  An
entry stored after a special fell is such a relaxed entry too, so plain
points searches gain from it as well (-9% nodes).  ``_dd_table_both``
solves each strain's tricks, then 5H-only, then points values in one table,
each root starting inside the bounds of the one before (measured on 200
deals, seed 2024: points 2,834 -> 1,475 nodes a solve, for a 5H-only pass
of 680; with the tricks table 3,308 nodes against 3,987 for the two
separate tables).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from . import config
from .cards import FIVE_HEARTS_BIT, NO_TRUMP, SUIT_MASK, THREE_SPADES_BIT, Seat, check_hands, parse_deal
from numba import types
from numba.core import cgutils
from numba.core.extending import intrinsic
from llvmlite import ir as _ir

MODES = ("points", "tricks")
_INF = 100
_MAXPLY = 40  # 4 cards x 9 tricks + 1 (room for the 34-card deck's 9-card hands during a kitty exchange)
_ONE = np.uint64(1)
_SUIT_MASKS = SUIT_MASK  # read-only module-level table, frozen into the kernels

# Search counters, ``stats`` array of every kernel (diagnostics for benchmarks):
# [0] nodes; [1+pos] cut-offs by the first move tried, [5+pos] by a later one
# (pos = place in the trick 0..3); [9+pos] nodes by place in the trick;
# [16+r] nodes by tricks remaining r; [25] TT probes, [26] TT hits,
# [27] TT hits that cut, [28] trick-boundary nodes cut by TT or bounds;
# [29] null-window passes; [30] moves skipped by "lowest win".
STATS_SIZE = 32
#: count everything but [0] and [29] too (a compile-time constant: off, the
#: counters cost nothing; set True and clear numba's cache to profile)
_DIAGNOSTICS = False

# transposition table: buckets of _BUCKET entries, stored bucket-major so a
# bucket's scan reads contiguous rows (flat arrays, row r's entry e at
# r * _BUCKET + e): keys (uint64) rows 4b + 0..3 of bucket
# b hold its entries' lens, flags, code & mask, mask (see _pos_desc), one
# entry per column; data (int64) rows 2b + these (the bounds).  No best move
# is kept: tried first at a lead it saved no nodes over the killer and the
# rules of play (measured, both modes).
_TT_LO, _TT_HI = 0, 1
_BUCKET_LOG2 = 4
_BUCKET = 1 << _BUCKET_LOG2
# the flags' special-card fields (see _pos_desc): the 5H in play and its
# owner, the 3S in play and its owner.  A bucket is hashed without them, so
# the entries of a position under every scoring (tricks, 5H only, points)
# share one bucket, and an entry of a relaxed scoring bounds the position
# (see "Relaxed scorings" in the module notes)
_F5_FLAGS = np.uint64(32 | (3 << 7))
_F3_FLAGS = np.uint64(64 | (3 << 9))
_SPEC_FLAGS = np.uint64(32 | (3 << 7) | 64 | (3 << 9))
_CORE_FLAGS = ~_SPEC_FLAGS


# Bit scans as single machine instructions (LLVM intrinsics; the portable
# versions in ``cards`` are loops of shifts).  Same results as
# cards.bit_count / lowest_bit_index / highest_bit_index.


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


@intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], _ir.Constant(_ir.IntType(1), 1))
    return types.uint64(types.uint64), codegen


@intrinsic
def _ctlz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], _ir.Constant(_ir.IntType(1), 1))
    return types.uint64(types.uint64), codegen


def _bmi2_intrinsic(name):
    """A numba intrinsic ``f(x, m) -> uint64`` calling the LLVM x86 BMI2
    intrinsic ``llvm.x86.bmi.<name>.64`` (one machine instruction)."""
    @intrinsic
    def call(typingctx, x, m):
        def codegen(context, builder, signature, args):
            fnty = _ir.FunctionType(_ir.IntType(64), [_ir.IntType(64), _ir.IntType(64)])
            fn = cgutils.get_or_insert_function(builder.module, fnty, f"llvm.x86.bmi.{name}.64")
            return builder.call(fn, args)
        return types.uint64(types.uint64, types.uint64), codegen
    return call


@njit(cache=True, inline="always")
def _pext_soft(x, m):
    """pext as a loop: the bits of ``x`` under ``m``, packed at the bottom."""
    r = np.uint64(0)
    k = np.uint64(0)
    while m:
        b = m & (~m + _ONE)
        if x & b:
            r |= _ONE << k
        k += _ONE
        m ^= b
    return r


@njit(cache=True, inline="always")
def _pdep_soft(x, m):
    """pdep as a loop: the low bits of ``x`` spread onto the bits of ``m``."""
    r = np.uint64(0)
    k = np.uint64(0)
    while m:
        b = m & (~m + _ONE)
        if (x >> k) & _ONE:
            r |= b
        k += _ONE
        m ^= b
    return r


def _has_bmi2() -> bool:
    """Will numba's code run on a CPU with BMI2 (one-instruction pext, pdep)?"""
    try:
        if numba.config.CPU_NAME and numba.config.CPU_NAME != "host":
            return "+bmi2" in (numba.config.CPU_FEATURES or "")
        import llvmlite.binding as llvm
        return bool(llvm.get_host_cpu_features().get("bmi2", False))
    except Exception:  # unknown CPU: the portable loops are always right
        return False


_BMI2 = _has_bmi2()
#: the bits of ``x`` under mask ``m``, packed at the bottom in order (x86
#: ``pext``; a loop where the CPU lacks it).  Numba's cache is per CPU, so a
#: cache built here is never loaded on a CPU without BMI2.
_pext = _bmi2_intrinsic("pext") if _BMI2 else _pext_soft
#: the low bits of ``x`` spread in order onto the bits of ``m`` (x86 ``pdep``)
_pdep = _bmi2_intrinsic("pdep") if _BMI2 else _pdep_soft


@njit(cache=True, inline="always")
def _ix(i):
    """An array index as unsigned: numba then skips its negative-index
    wrap-around test at every access (measured: the search ran 9-12% faster
    with its indices cast)."""
    return np.uint64(i)


@njit(cache=True, inline="always")
def bit_count(x):
    """Number of set bits of a uint64."""
    return np.int64(_ctpop(np.uint64(x)))


@njit(cache=True, inline="always")
def lowest_bit_index(x):
    """Index of the lowest set bit of a non-zero uint64."""
    return np.int64(_cttz(np.uint64(x)))


@njit(cache=True, inline="always")
def highest_bit_index(x):
    """Index of the highest set bit of a non-zero uint64."""
    return 63 - np.int64(_ctlz(np.uint64(x)))


@njit(cache=True, inline="always")
def _bit(c):
    return np.uint64(1) << np.uint64(c)


@njit(cache=True, inline="always")
def _suit_of(c):
    return c >> 4


@njit(cache=True, inline="always")
def _beats(c, w, trump):
    """Does card c beat the card w currently winning the trick?"""
    sc = c >> 4
    sw = w >> 4
    if sc == sw:
        return c > w
    return sc == trump


@njit(cache=True, inline="always")
def _trick_points(mask, five, three):
    p = 1
    if mask & five:
        p += 5
    if mask & three:
        p -= 3
    return p


@njit(cache=True, inline="always")
def _owner(h0, h1, h2, b):
    """Seat (as uint64) holding card bit ``b`` (one of the four hands)."""
    if h0 & b:
        return np.uint64(0)
    if h1 & b:
        return np.uint64(1)
    if h2 & b:
        return np.uint64(2)
    return np.uint64(3)


@njit(cache=True)
def _pos_desc(h0, h1, h2, h3, leader, trump, five, three, gen):
    """Describe a trick-boundary position for the transposition table.

    Returns (lens, flags, code): ``lens`` the length of every hand in every
    suit (4 bits each, suit s hand q at bit 16s + 4q); ``flags`` the leader,
    the trump, which special cards are in play and who holds them, and the
    table's generation ``gen`` from bit 12 (never 0); ``code`` per suit the
    owners of the remaining cards from the top:
    owner bit 0 of the suit's i-th card from the top at bit 16s + 7 - i,
    owner bit 1 at bit 16s + 15 - i (at most 8 cards: the owner of a 9th
    follows from the lengths).  The top k cards' owners are the code under
    the mask ``(fm | fm << 8) << 16s`` with ``fm = 0xFF << (8 - k) & 0xFF``
    (see ``_wr_mask``).
    """
    union = h0 | h1 | h2 | h3
    x = h1 | h3  # owner bit 0
    y = h2 | h3  # owner bit 1
    lens = np.uint64(0)
    code = np.uint64(0)
    for s in range(4):
        m = _SUIT_MASKS[_ix(s)]
        sh = np.uint64(16 * s)
        lens |= (np.uint64(bit_count(h0 & m)) | (np.uint64(bit_count(h1 & m)) << np.uint64(4))
                 | (np.uint64(bit_count(h2 & m)) << np.uint64(8))
                 | (np.uint64(bit_count(h3 & m)) << np.uint64(12))) << sh
        u = union & m
        n = bit_count(u)
        fx = _pext(x, u)  # the owners' bits, lowest card at bit 0
        fy = _pext(y, u)
        if n <= 8:  # top card to bit 7
            fx <<= np.uint64(8 - n)
            fy <<= np.uint64(8 - n)
        else:
            fx >>= np.uint64(n - 8)
            fy >>= np.uint64(n - 8)
        code |= (fx | (fy << np.uint64(8))) << sh
    # with no trump left the position plays as at no trump: one key for all
    # strains, so the strains' searches share their trumpless endings
    et = trump
    if trump != 4 and (union & _SUIT_MASKS[_ix(trump)]) == 0:
        et = 4
    flags = np.uint64(leader) | (np.uint64(et) << np.uint64(2)) | np.uint64(2048) | (np.uint64(gen) << np.uint64(12))
    if union & five:
        flags |= np.uint64(32) | (_owner(h0, h1, h2, five) << np.uint64(7))
    if union & three:
        flags |= np.uint64(64) | (_owner(h0, h1, h2, three) << np.uint64(9))
    return lens, flags, code


@njit(cache=True)
def _wr_mask(union, w, special):
    """Code mask of a TT entry for the winning ranks ``w`` (cards whose rank
    mattered) in a position with remaining cards ``union``: per suit, the
    owners of every card from the top down to the lowest card of ``w``.
    A special card that is neither the lowest nor the highest of its suit is
    always included (the entry fixes only its owner, not its place)."""
    sp = special & union
    while sp:
        b = sp & (~sp + _ONE)
        sp ^= b
        u = union & _SUIT_MASKS[_ix(lowest_bit_index(b) >> 4)]
        if b != (u & (~u + _ONE)) and b != _bit(highest_bit_index(u)):
            w |= b
    mask = np.uint64(0)
    for s in range(4):
        m = _SUIT_MASKS[_ix(s)]
        wm = w & m
        if wm:
            u = union & m
            low = wm & (~wm + _ONE)
            k = bit_count(u & ~(low - _ONE))
            n = bit_count(u)
            if k >= n:
                k = n - 1  # the lowest card's owner follows from the lengths
            if k > 0:
                fm = (np.uint64(0xFF) << np.uint64(8 - k)) & np.uint64(0xFF)
                mask |= (fm | (fm << np.uint64(8))) << np.uint64(16 * s)
    return mask


@njit(cache=True)
def _mask_region(union, mask):
    """The cards a TT entry with code mask ``mask`` fixes in a position with
    remaining cards ``union`` (its winning ranks, as seen from here)."""
    w = np.uint64(0)
    for s in range(4):
        km = (mask >> np.uint64(16 * s)) & np.uint64(0xFFFF)
        if km:
            k = bit_count(km) >> 1
            u = union & _SUIT_MASKS[_ix(s)]
            n = bit_count(u)
            if k >= n - 1:
                w |= u
            else:  # the top k cards: all but the lowest n - k
                w |= u ^ _pdep((_ONE << np.uint64(n - k)) - _ONE, u)
    return w


@njit(cache=True, inline="always")
def _tt_slot(k0, k1, log2):
    z = k0 * np.uint64(0x9E3779B97F4A7C15) ^ (k1 + np.uint64(0x632BE59BD9B4E019)) * np.uint64(0xBF58476D1CE4E5B9)
    z ^= z >> np.uint64(29)
    z *= np.uint64(0x94D049BB133111EB)
    return int(z >> np.uint64(64 - log2))


@njit(cache=True)
def _cashable(mine, part, o1, o2, trump, keep):
    """Tricks the hand ``mine`` (partner ``part``, opponents ``o1``, ``o2``),
    if it were on lead, could cash at once whatever the others do, and the
    cards that count relies on (for winning-ranks TT entries: any position
    where that hand holds those same top cards, with the same suit lengths,
    cashes at least as many).

    Its top cards (the highest remaining cards of a suit, in an unbroken run)
    each win a trick.  In a trump contract a side-suit winner is counted only
    for as many rounds as every opponent holding trumps must follow suit, and
    only while partner must follow too or holds no trump (so partner is never
    forced to ruff and take the lead away) -- or, when partner does not
    hold ``keep`` (the 3S in points: the plan must not make partner play
    it), while partner has a non-trump left to play to the round.
    """
    union = mine | part | o1 | o2
    tmask = np.uint64(0)
    # the hand leads its top trumps first: each round draws a trump from
    # every other hand holding one, so a hand with no more trumps than the
    # run is out of them before any side suit is led, and cannot ruff it
    o1_ruffs = False
    o2_ruffs = False
    part_ruffs = False
    if trump != 4:
        tmask = _SUIT_MASKS[_ix(trump)]
        ut = union & tmask
        kt = 0
        if mine & ut:
            ot = ut & ~mine
            trun = ut
            if ot:
                trun = ut & ~((_bit(highest_bit_index(ot)) << _ONE) - _ONE)
            kt = bit_count(trun)
        o1_ruffs = bit_count(o1 & tmask) > kt
        o2_ruffs = bit_count(o2 & tmask) > kt
        part_ruffs = bit_count(part & tmask) > kt
    # the count with partner following in every side round (qt, used), and
    # with partner free to discard (qt_free, used_free; see the end)
    qt = 0
    used = np.uint64(0)
    qt_free = 0
    used_free = np.uint64(0)
    side = 0  # side-suit rounds the opponents allow
    for s in range(4):
        m = _SUIT_MASKS[_ix(s)]
        u = union & m
        if (mine & u) == 0:
            continue
        other = u & ~mine
        run = u
        if other:
            run = u & ~((_bit(highest_bit_index(other)) << _ONE) - _ONE)
        k = bit_count(run)
        if k == 0:
            continue
        kf = k
        run_free = run
        if trump != 4 and s != trump:
            k0 = k
            if o1_ruffs:
                k = min(k, bit_count(o1 & m))
            if o2_ruffs:
                k = min(k, bit_count(o2 & m))
            side += k
            kf = k
            if part_ruffs:
                k = min(k, bit_count(part & m))
            # only the top k cards of the run are used
            if kf < k0:
                run_free ^= _pdep((_ONE << np.uint64(k0 - kf)) - _ONE, run)
            if k < k0:
                run ^= _pdep((_ONE << np.uint64(k0 - k)) - _ONE, run)
        qt += k
        used |= run
        qt_free += kf
        used_free |= run_free
    # partner keeps trumps after the trump rounds, but plays a non-trump to
    # every round of a side suit (following or discarding) as long as it has
    # one: it can be made to ruff only once out of them, and that ruff still
    # wins the round (the opponents follow suit in every round counted).  So
    # if the side rounds are at most its non-trumps + 1, it never takes the
    # lead away before the last of them.  (Not when it holds the 3S: it may
    # have to play it to one of them.)
    if part_ruffs and side <= bit_count(part & ~tmask) + 1 and (part & keep) == 0:
        return qt_free, used_free
    return qt, used


@njit(cache=True)
def _quick_tricks(x0, x1, x2, x3, trump, keep):
    """Tricks the side on lead is sure to take (the hands in playing order
    from the leader: ``x0`` leads, ``x2`` is its partner): the leader's own
    cashable winners, or partner's after an entry (a suit where the leader
    has a card and partner the top card, which no opponent can ruff), or with
    no trump in play both: the leader's, then partner's after the entry; the
    cards that count relies on; and whether the plan's winners are all one
    hand's (the special-card rules of the caller assume so).  ``keep``: a
    card partner must not be made to play (see ``_cashable``)."""
    own, used = _cashable(x0, x2, x1, x3, trump, keep)
    union = x0 | x1 | x2 | x3
    no_trump = trump == 4 or (union & _SUIT_MASKS[_ix(trump)]) == 0
    for s in range(4):
        m = _SUIT_MASKS[_ix(s)]
        if (x0 & m) == 0:
            continue
        top = _bit(highest_bit_index(union & m))
        if (x2 & top) == 0:
            continue
        if trump != 4 and s != trump:
            tm = _SUIT_MASKS[_ix(trump)]
            if ((x1 & tm) and (x1 & m) == 0) or ((x3 & tm) and (x3 & m) == 0):
                continue
        pq, usedq = _cashable(x2, x0, x3, x1, trump, keep)
        # with no trump nothing can be ruffed and the top cards stay on top:
        # the leader cashes first, partner following or discarding cards it
        # does not count on (it has enough of them), then the leader's card
        # of this suit (never played so far: partner holds its top) reaches
        # partner, who cashes its own
        if no_trump and own > 0 and bit_count(x2 & ~usedq) >= own:
            return own + pq, used | usedq | top, False
        if pq > own:
            return pq, usedq | top, True
        return own, used, True
    return own, used, True


@njit(cache=True, inline="always")
def _sure_trump_tricks(a, b, union, trump):
    """Tricks a side must win with top trumps: each card of the side's unbroken
    run of highest trumps wins its trick but where partner's higher one is in
    it too (see below).  Also returns the run (the cards the count relies on,
    with the hands' trump lengths, which the TT key fixes)."""
    if trump == 4:
        return 0, np.uint64(0)
    m = _SUIT_MASKS[_ix(trump)]
    u = union & m
    a &= m
    b &= m
    other = u & ~(a | b)
    run = u
    if other:
        run = u & ~((_bit(highest_bit_index(other)) << _ONE) - _ONE)
    ra = bit_count(run & a)
    rb = bit_count(run & b)
    # each card of the run wins the trick it is played to, unless partner's
    # higher one is in it too.  That needs a trick where both hands play a
    # trump (at most as many as the shorter hand has trumps), and then only
    # when neither has a lower trump left to play instead: the side keeps its
    # low trumps for those tricks (elsewhere a run card wins)
    la = bit_count(a & u) - ra
    lb = bit_count(b & u) - rb
    meet = min(ra + la, rb + lb) - la - lb
    if meet < 0:
        meet = 0
    return ra + rb - meet, run


@njit(cache=True, inline="always")
def _special_captor(h0, h1, h2, h3, card, trump):
    """The side (0 N-S, 1 E-W) sure to capture special ``card`` (in play) in
    every line of play, or -1: when its suit is trump and the holder's
    opponents hold none of it, the best trump of every trick holding the card
    is the holder's side's."""
    suit = lowest_bit_index(card) >> 4
    if trump != suit:
        return -1
    side = np.int64(_owner(h0, h1, h2, card)) & 1
    opp = (h0 | h2) if side else (h1 | h3)
    if opp & _SUIT_MASKS[_ix(suit)]:
        return -1
    return side


@njit(cache=True)
def _cash_spares_3s(used, x0, x1, x2, x3, three, r):
    """Can the side of ``x0`` and ``x2`` (partners; ``x1``, ``x3`` the
    opponents) take the tricks of the cash plan ``used`` (its winners, one
    trick a card, as ``_quick_tricks`` gives them) with the 3S (in play) in
    none of them, whatever the others do?  ``r`` tricks are left.

    An opponent holding the 3S can drop it on a round of spades, or on any
    round of a suit it has run out of; our side plays it only when forced:
    as the last spade of a hand that must follow to a round of spades, or as
    a hand's last card (the plan takes every trick left).  All of this rests
    on suit lengths and the 3S's owner, which the TT key fixes, and on the
    plan's cards, which its winning ranks carry."""
    if used & three:
        return False
    sp = _SUIT_MASKS[_ix(lowest_bit_index(three) >> 4)]
    ks = bit_count(used & sp)
    if (x1 | x3) & three:
        if ks:
            return False
        hh = x1 if x1 & three else x3
        for s in range(4):
            m = _SUIT_MASKS[_ix(s)]
            if bit_count(hh & m) < bit_count(used & m):
                return False
        return True
    if bit_count(used) >= r:
        return False
    hh = x0 if x0 & three else x2
    return bit_count(hh & sp) > ks


@njit(cache=True)
def _cash_takes_5h(used, x0, x1, x2, x3, five, r):
    """Does the 5H (in play) fall in one of the tricks of the cash plan
    ``used`` of the side of ``x0`` and ``x2`` (its winners, all in one of
    these two hands, one trick a card), whatever the others do?

    It does when it is one of the winners, or the plan takes all ``r``
    tricks left; when the hand that does not cash holds it and can play it
    to a round: a round of its suit, or one of a suit it has run out of (it
    discards; the plan never makes it ruff); and
    when an opponent holds it and the plan has at least as many rounds of
    its suit as that opponent has cards there (the plan never lets an
    opponent ruff).  This rests on suit lengths and the 5H's owner, which
    the TT key fixes, and on the plan's cards, which its winning ranks
    carry."""
    if used & five:
        return True
    if used == 0:
        return False
    if bit_count(used) >= r:
        return True
    hm = _SUIT_MASKS[_ix(lowest_bit_index(five) >> 4)]
    if (x0 | x2) & five:
        mate = x2 if used & x0 else x0
        if (mate & five) == 0:
            return False  # the cashing hand holds it: it leads its winners
        if used & hm:
            return True
        for s in range(4):
            m = _SUIT_MASKS[_ix(s)]
            if bit_count(used & m) > bit_count(mate & m):
                return True
        return False
    holder = x1 if x1 & five else x3
    return bit_count(used & hm) >= bit_count(holder & hm)


@njit(cache=True, inline="always")
def _side_floor(tricks, five_sure, three_sure, three_risk, three_spared):
    """Fewest points a side can end with: at least ``tricks`` tricks, the 5H's
    trick if ``five_sure``, the 3S's trick if ``three_sure``; with
    ``three_risk`` the 3S may fall in one of its tricks: a sure one (-3), or
    one more (+1 - 3 = -2: from a side with no sure trick, or when
    ``three_spared``, the sure tricks are taken with the 3S in none of them;
    docs/solver.md pitfall 6: it may still be forced to win the 3S later)."""
    t = tricks
    if (five_sure or three_sure) and t < 1:
        t = 1
    pts = t
    if five_sure:
        pts += 5
    if three_sure:
        pts -= 3
    elif three_risk:
        pts -= 2 if (t < 1 or three_spared) else 3
    return pts


@njit(cache=True, inline="always")
def _legal(hand, led_card):
    """Cards of ``hand`` that may be played to a trick led by ``led_card``."""
    follow = hand & _SUIT_MASKS[_ix(led_card >> 4)]
    return follow if follow else hand


@njit(cache=True, inline="always")
def _rank_win(trick, wc):
    """The winning card's bit if it beat another card of its suit in the
    trick (its rank mattered), else 0."""
    wb = _bit(wc)
    if (trick ^ wb) & _SUIT_MASKS[_ix(wc >> 4)]:
        return wb
    return np.uint64(0)


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
    wm = allc & _SUIT_MASKS[_ix(lowest_bit_index(led) >> 4)]
    if trump != 4:
        tm = allc & _SUIT_MASKS[_ix(trump)]
        if tm:
            wm = tm
    wb = _bit(highest_bit_index(wm))
    ws = (1 if l1 == wb else 0) + (2 if l2 == wb else 0) + (3 if l3 == wb else 0)
    opp = (l0 | l2) if ws & 1 else (l1 | l3)
    wr = wb if (opp & wm) else np.uint64(0)
    return ws, wr, allc


@njit(cache=True, inline="always")
def _fold(maxer, v, w, best, wb, wall, lo, hi):
    """Fold one child's result (value ``v``, winning ranks ``w``) into a
    node of ``_solve_two`` (fail-soft alpha-beta, window (lo, hi)): returns
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
def _solve_two(x0, x1, x2, x3, p, trump, five, three, a, b):
    """N-S points of a two-trick ending with ``p`` on lead, ``x0..x3`` the
    hands in playing order from ``p`` (exact inside the window (a, b),
    fail-soft outside it), and its winning ranks: the cards whose rank the
    proof of that result relies on (for a value >= b one best move of N-S
    and every move of E-W; for a value <= a the converse; inside the window
    both).

    Alpha-beta over the first trick (at most 2 x 2 x 2 x 2 lines), the last
    trick evaluated directly; a node cut off passes on the ranks of the one
    move that proved it, a node where every move counts the union of all
    (as ``_search``).  Far cheaper than the general search for the positions
    that make up a large share of its nodes.
    """
    # inside, seats are counted from the leader (no look-up by a variable seat)
    max0 = (p & 1) == 0  # does the player at this position maximise N-S?
    max1 = not max0
    best0 = -_INF if max0 else _INF
    wb0 = np.uint64(0)
    wall0 = np.uint64(0)
    lo0 = a
    hi0 = b
    cut0 = False
    c0s = x0
    while c0s and not cut0:
        c0 = highest_bit_index(c0s)
        b0 = _bit(c0)
        c0s ^= b0
        best1 = -_INF if max1 else _INF
        wb1 = np.uint64(0)
        wall1 = np.uint64(0)
        lo1 = lo0
        hi1 = hi0
        cut1 = False
        c1s = _legal(x1, c0)
        while c1s and not cut1:
            c1 = highest_bit_index(c1s)
            b1 = _bit(c1)
            c1s ^= b1
            w1, s1 = c0, 0
            if _beats(c1, c0, trump):
                w1, s1 = c1, 1
            best2 = -_INF if max0 else _INF
            wb2 = np.uint64(0)
            wall2 = np.uint64(0)
            lo2 = lo1
            hi2 = hi1
            cut2 = False
            c2s = _legal(x2, c0)
            while c2s and not cut2:
                c2 = highest_bit_index(c2s)
                b2 = _bit(c2)
                c2s ^= b2
                w2, s2 = w1, s1
                if _beats(c2, w1, trump):
                    w2, s2 = c2, 2
                best3 = -_INF if max1 else _INF
                wb3 = np.uint64(0)
                wall3 = np.uint64(0)
                lo3 = lo2
                hi3 = hi2
                cut3 = False
                c3s = _legal(x3, c0)
                while c3s and not cut3:
                    c3 = highest_bit_index(c3s)
                    b3 = _bit(c3)
                    c3s ^= b3
                    w3, s3 = w2, s2
                    if _beats(c3, w2, trump):
                        w3, s3 = c3, 3
                    first = b0 | b1 | b2 | b3
                    # N-S won it when p + s3 is N or S
                    v = _trick_points(first, five, three) if ((s3 + p) & 1) == 0 else 0
                    ls, wl, last = _last_trick(x0 ^ b0, x1 ^ b1, x2 ^ b2, x3 ^ b3, s3, trump)
                    if ((ls + p) & 1) == 0:
                        v += _trick_points(last, five, three)
                    best3, wb3, wall3, lo3, hi3, cut3 = _fold(max1, v, _rank_win(first, w3) | wl,
                                                             best3, wb3, wall3, lo3, hi3)
                best2, wb2, wall2, lo2, hi2, cut2 = _fold(max0, best3, wb3 if cut3 else wall3,
                                                         best2, wb2, wall2, lo2, hi2)
            best1, wb1, wall1, lo1, hi1, cut1 = _fold(max1, best2, wb2 if cut2 else wall2,
                                                     best1, wb1, wall1, lo1, hi1)
        best0, wb0, wall0, lo0, hi0, cut0 = _fold(max0, best1, wb1 if cut1 else wall1,
                                                 best0, wb0, wall0, lo0, hi0)
    return best0, (wb0 if cut0 else wall0)


@njit(cache=True, inline="always")
def _best_reply(hand, ls, trump):
    """The best card ``hand`` can play to a trick led in suit ``ls`` (its
    highest card of the suit, else its highest trump), -1 if it holds
    neither."""
    f = hand & _SUIT_MASKS[_ix(ls)]
    if f:
        return highest_bit_index(f)
    if trump != 4 and (hand & _SUIT_MASKS[_ix(trump)]):
        return highest_bit_index(hand & _SUIT_MASKS[_ix(trump)])
    return -1


_ENTER, _NEXT, _RETURN = 0, 1, 2

# Per-ply state of _search, fields of one row of its int64 array PLY: the
# window (A, B) as narrowed and (A0, B0) as entered; the best value so far;
# number of moves and index of the next; the card played at this ply, its
# player, the trick's winner and winning card after it, N-S points of the
# trick it completed; the node's TT bucket (-1: none); the ply's killer
# move; per suit the "lowest win" limit (4); the ordered moves (12).
(_A, _B, _A0, _B0, _BEST, _NM, _MI, _CARD, _PL, _WIN, _WCARD, _TPNS, _SLOT, _KILLER) = range(14)
_LW = 16
_MV = 20
_PLY = 32
# ... and of its uint64 array PLYU: the TT key of the node (lens, flags,
# code; see _pos_desc) and the winning ranks of its children so far
_LENS, _FLAGS, _CODE, _WR = range(4)
_PLYU = 4


@njit(cache=True, inline="always")
def _search(hands_in, leader, trump, five, three, alpha0, beta0, tt_keys, tt_data, log2, stats, gen):
    """Fail-soft alpha-beta over N-S points with the window (alpha0, beta0),
    from a trick boundary with ``leader`` on lead: ``_search_mid`` with no
    card on the table."""
    return _search_mid(hands_in, leader, trump, five, three, alpha0, beta0, tt_keys, tt_data, log2, stats, gen,
                       0, np.uint64(0), 0, 0, 0)


@njit(cache=True)
def _search_mid(hands_in, leader, trump, five, three, alpha0, beta0, tt_keys, tt_data, log2, stats, gen,
                n0, tmask, led, winner, wcard):
    """Fail-soft alpha-beta over N-S points with the window (alpha0, beta0).

    The position: ``hands_in`` the cards still in the hands, ``leader`` the
    seat that led the current trick and ``n0`` (0..3) cards already played
    to it (``tmask``; ``led`` their suit, ``winner`` / ``wcard`` the seat
    and card winning it so far; all unused when ``n0`` is 0).  Values count
    the current trick in full, as from its start (``play``'s mid-trick
    positions: the rest of the trick is searched with the same move
    ordering, killers and "lowest win" as every other trick).

    Returns N-S's points from this trick boundary on when that value lies
    strictly inside the window, else a bound on the correct side of it.
    ``stats[0]`` counts the nodes visited.  The recursion is an explicit
    stack of plies, so this kernel can be cached (docs/solver.md pitfall 1).
    ``gen`` is the table's generation: entries stored under another one are
    never matched and are overwritten first (0 for a table whose entries all
    stay of use, as in ``play``).
    """
    h = hands_in.copy()
    genu = np.uint64(gen)
    ntricks = bit_count(h[_ix((leader + n0) & 3)])  # (the current trick included)
    nply = 4 * ntricks
    # the per-ply state in two flat arrays (fields at the offsets below, one
    # row of _PLY / _PLYU a ply): a few base pointers instead of twenty keep
    # the loop's registers for its own values
    PLY = np.full((nply + 1) * _PLY, -1, np.int64)
    PLYU = np.zeros((nply + 1) * _PLYU, np.uint64)
    SC = np.empty(12, np.int64)
    special = five | three
    rw = np.uint64(0)  # winning ranks of the value v being returned

    d = n0
    table = tmask  # cards on the table in the current trick
    if n0 > 0:
        # started in the middle of a trick: rows 0..n0-1 hold its cards, in
        # any order but for row 0 (a card of the led suit) and the last row
        # (the trick's winner so far): only these fields are read back
        rest = tmask
        for j in range(n0):
            cj = lowest_bit_index(tmask & _SUIT_MASKS[_ix(led)]) if j == 0 else lowest_bit_index(rest)
            rest &= ~_bit(cj)
            PLY[_ix(j * _PLY + _CARD)] = cj
            PLY[_ix(j * _PLY + _PL)] = (leader + j) & 3
        PLY[_ix((n0 - 1) * _PLY + _WIN)] = winner
        PLY[_ix((n0 - 1) * _PLY + _WCARD)] = wcard
    PLY[_ix(d * _PLY + _PL)] = (leader + n0) & 3
    PLY[_ix(d * _PLY + _A)] = alpha0
    PLY[_ix(d * _PLY + _B)] = beta0
    state = _ENTER
    finished = False  # the node being returned from is done: store it
    v = 0
    # (array indices go through _ix: unsigned, so numba skips its wrap-around
    # test at each of the many accesses per node)
    while True:
        if state == _ENTER:
            stats[0] += 1
            if _DIAGNOSTICS:
                stats[_ix(9 + (d & 3))] += 1
                stats[_ix(16 + ntricks - (d >> 2))] += 1
            p = PLY[_ix(d * _PLY + _PL)]
            pos = d & 3
            a = PLY[_ix(d * _PLY + _A)]
            b = PLY[_ix(d * _PLY + _B)]
            PLY[_ix(d * _PLY + _SLOT)] = -1
            PLYU[_ix(d * _PLYU + _WR)] = np.uint64(0)
            state = _NEXT
            if pos == 0:
                r = ntricks - (d >> 2)
                if r == 2:
                    v, rw = _solve_two(h[_ix(p)], h[_ix((p + 1) & 3)], h[_ix((p + 2) & 3)], h[_ix((p + 3) & 3)],
                                       p, trump, five, three, a, b)
                    state = _RETURN
                    continue
                if r <= 1:
                    if r == 0:  # (after the last trick, from a search started inside it)
                        v = 0
                        rw = np.uint64(0)
                        state = _RETURN
                        continue
                    # last trick: no choice is left, evaluate it directly
                    wc = lowest_bit_index(h[_ix(p)])
                    ws = p
                    allc = h[_ix(p)]
                    for i in range(1, 4):
                        q = (p + i) & 3
                        c = lowest_bit_index(h[_ix(q)])
                        allc |= h[_ix(q)]
                        if _beats(c, wc, trump):
                            wc = c
                            ws = q
                    v = _trick_points(allc, five, three) if (ws & 1) == 0 else 0
                    rw = np.uint64(0)
                    if (h[_ix((ws + 1) & 3)] | h[_ix((ws + 3) & 3)]) & _SUIT_MASKS[_ix(wc >> 4)]:
                        rw = _bit(wc)
                    state = _RETURN
                    continue
                union = h[0] | h[1] | h[2] | h[3]
                f_in = (union & five) != 0
                t_in = (union & three) != 0
                total = r
                lo = 0
                if f_in:
                    total += 5
                if t_in:
                    total -= 3
                    lo = -2  # one trick holding the 3S, nothing else
                hi = total - lo  # likewise for the other side
                # the cards each bound relies on (its winning ranks)
                wlo = np.uint64(0)
                whi = np.uint64(0)
                # sure tricks: quick tricks of the hand on lead, top trumps of
                # each side.  Each is a count of tricks; in points it is worth
                # at least that many points less 3 if the 3S may fall in one
                # (see _side_floor), more when a special's fate is certain.
                # (the helpers take the hands one by one: an array argument
                # costs reference counting on every call, a tuple looked up
                # by a variable seat compiles to branches)
                h0 = h[0]
                h1 = h[1]
                h2 = h[2]
                h3 = h[3]
                # the hands in playing order from the leader
                x0 = h[_ix(p)]
                x1 = h[_ix((p + 1) & 3)]
                x2 = h[_ix((p + 2) & 3)]
                x3 = h[_ix((p + 3) & 3)]
                qt, wqt, one_hand = _quick_tricks(x0, x1, x2, x3, trump, three)
                st_ns, wns = _sure_trump_tricks(h0, h2, union, trump)
                st_ew, wew = _sure_trump_tricks(h1, h3, union, trump)
                # is the lead's cash plan its side's sure count (the fate of
                # the specials below is that of the plan's tricks)?
                by_cash = one_hand and qt > 0 and qt >= (st_ns if (p & 1) == 0 else st_ew)
                spared = t_in and by_cash and _cash_spares_3s(wqt, x0, x1, x2, x3, three, r)
                if (p & 1) == 0:
                    if qt >= st_ns:
                        ns_sure = qt
                        w_ns = wqt
                    else:
                        ns_sure = st_ns
                        w_ns = wns
                    ew_sure = st_ew
                    w_ew = wew
                else:
                    ns_sure = st_ns
                    w_ns = wns
                    if qt >= st_ew:
                        ew_sure = qt
                        w_ew = wqt
                    else:
                        ew_sure = st_ew
                        w_ew = wew
                # the specials' fate, where it is certain in every line of play
                # (from lengths and owners alone, which the TT key fixes)
                fdet = _special_captor(h0, h1, h2, h3, five, trump) if f_in else -1
                tdet = _special_captor(h0, h1, h2, h3, three, trump) if t_in else -1
                f_lead = fdet == (p & 1)
                if f_in and by_cash and _cash_takes_5h(wqt, x0, x1, x2, x3, five, r):
                    f_lead = True  # the lead's cash plan wins the 5H's trick
                f_ns = fdet == 0 or (f_lead and (p & 1) == 0)
                f_ew = fdet == 1 or (f_lead and (p & 1) == 1)
                ns_floor = _side_floor(ns_sure, f_ns, tdet == 0, t_in and tdet != 1, spared and (p & 1) == 0)
                ew_floor = _side_floor(ew_sure, f_ew, tdet == 1, t_in and tdet != 0, spared and (p & 1) == 1)
                if ns_floor > lo:
                    lo = ns_floor
                    wlo = w_ns if ns_sure > 0 else np.uint64(0)
                if total - ew_floor < hi:
                    hi = total - ew_floor
                    whi = w_ew if ew_sure > 0 else np.uint64(0)
                # (bounds first: when they settle the node, the position need
                # not be described nor the table probed)
                if _DIAGNOSTICS and (lo >= b or hi <= a or lo == hi):
                    stats[28] += 1
                if lo >= b:
                    v = lo
                    rw = wlo
                    state = _RETURN
                    continue
                if hi <= a:
                    v = hi
                    rw = whi
                    state = _RETURN
                    continue
                if lo == hi:
                    v = lo
                    rw = wlo | whi
                    state = _RETURN
                    continue
                lens, flags, code = _pos_desc(h0, h1, h2, h3, p, trump, five, three, genu)
                base = _tt_slot(lens, flags & _CORE_FLAGS, log2 - _BUCKET_LOG2)
                PLY[_ix(d * _PLY + _SLOT)] = base
                PLYU[_ix(d * _PLYU + _LENS)] = lens
                PLYU[_ix(d * _PLYU + _FLAGS)] = flags
                PLYU[_ix(d * _PLYU + _CODE)] = code
                if _DIAGNOSTICS:
                    stats[25] += 1
                hit = False
                mlo = np.uint64(0)
                mhi = np.uint64(0)
                kr = 4 * base
                dr = 2 * base
                # the bucket's entries of these very lengths and flags but for
                # the special cards, as a bit set (branch-free over the
                # bucket's contiguous rows)
                same = 0
                for e in range(_BUCKET):
                    x = (tt_keys[_ix(kr * _BUCKET + e)] ^ lens) | ((tt_keys[_ix((kr + 1) * _BUCKET + e)] ^ flags)
                                                                   & _CORE_FLAGS)
                    same |= (1 if x == 0 else 0) << e
                while same:
                    e = lowest_bit_index(same)
                    same &= same - 1
                    # an entry of the same specials (in play, owners) bounds
                    # this node as it is; one where a special of ours is
                    # absent is of a relaxed scoring (that card ordinary):
                    # N-S's points differ from its value by -3..0 where the
                    # 3S is missing, 0..+5 where the 5H is (in every line of
                    # play, so also under minimax)
                    ef = tt_keys[_ix((kr + 1) * _BUCKET + e)]
                    dlo = 0
                    dhi = 0
                    if ef != flags:
                        if (ef ^ flags) & _F5_FLAGS:
                            if ef & _F5_FLAGS:
                                continue  # another owner, or not ours
                            dhi = 5
                        if (ef ^ flags) & _F3_FLAGS:
                            if ef & _F3_FLAGS:
                                continue
                            dlo = -3
                    if ((tt_keys[_ix((kr + 2) * _BUCKET + e)] ^ code) & tt_keys[_ix((kr + 3) * _BUCKET + e)]) == 0:
                        hit = True
                        if tt_data[_ix((dr + _TT_LO) * _BUCKET + e)] + dlo > lo:
                            lo = tt_data[_ix((dr + _TT_LO) * _BUCKET + e)] + dlo
                            mlo = tt_keys[_ix((kr + 3) * _BUCKET + e)]
                            wlo = np.uint64(0)
                        if tt_data[_ix((dr + _TT_HI) * _BUCKET + e)] + dhi < hi:
                            hi = tt_data[_ix((dr + _TT_HI) * _BUCKET + e)] + dhi
                            mhi = tt_keys[_ix((kr + 3) * _BUCKET + e)]
                            whi = np.uint64(0)
                if _DIAGNOSTICS and hit:
                    stats[26] += 1
                    if lo >= b or hi <= a or lo == hi:
                        stats[27] += 1
                if lo >= b or hi <= a or lo == hi:
                    if _DIAGNOSTICS:
                        stats[28] += 1
                    if lo >= b:
                        v = lo
                        rw = wlo | _mask_region(union, mlo)
                    elif hi <= a:
                        v = hi
                        rw = whi | _mask_region(union, mhi)
                    else:
                        v = lo
                        rw = wlo | whi | _mask_region(union, mlo | mhi)
                    state = _RETURN
                    continue
                # narrow the window to what is still unknown (pitfall 4: an
                # empty window has returned above)
                if lo > a:
                    a = lo
                if hi < b:
                    b = hi
                PLY[_ix(d * _PLY + _A)] = a
                PLY[_ix(d * _PLY + _B)] = b
            PLY[_ix(d * _PLY + _A0)] = a
            PLY[_ix(d * _PLY + _B0)] = b
            # ---- generate the moves, one per run of equivalent cards, ordered ----
            mine = h[_ix(p)]
            if pos == 0:
                cand = mine
                ws = -1
                wc = -1
            else:
                ls = PLY[_ix((d - pos) * _PLY + _CARD)] >> 4
                ws = PLY[_ix((d - 1) * _PLY + _WIN)]
                wc = PLY[_ix((d - 1) * _PLY + _WCARD)]
                follow = mine & _SUIT_MASKS[_ix(ls)]
                cand = follow if follow else mine
            present = h[0] | h[1] | h[2] | h[3] | table
            partner_wins = ws >= 0 and ((ws ^ p) & 1) == 0
            lho = h[_ix((p + 1) & 3)]
            partner = h[_ix((p + 2) & 3)]
            rho = h[_ix((p + 3) & 3)]
            next_top = -1  # the best card the next hand can play to this trick
            if pos == 2 or pos == 1:
                next_top = _best_reply(lho, ls, trump)
            # second hand: will our partner (last to play) take the trick
            # whatever the third hand does?  Then we play low, and the 5H
            partner_takes = False
            if pos == 1:
                last_top = _best_reply(partner, ls, trump)
                partner_takes = (last_top >= 0 and _beats(last_top, wc, trump)
                                 and (next_top < 0 or _beats(last_top, next_top, trump)))
            n = 0
            # keep only the lowest card of each run of our cards with no other
            # remaining card between them; the 5H and 3S stand alone.  In the
            # remaining cards packed in order (pext), a card is dropped when
            # the card below it is ours too, in its suit, and neither special.
            if cand & (cand - _ONE):  # (a forced card has nothing to drop)
                lows = np.uint64(0)
                for s in range(4):
                    u = present & _SUIT_MASKS[_ix(s)]
                    lows |= u & (~u + _ONE)
                km = _pext(mine, present)
                ks = _pext(special, present)
                drop = km & (km << _ONE) & ~ks & ~(ks << _ONE) & ~_pext(lows, present)
                cand &= ~_pdep(drop, present)
            while cand:
                c = lowest_bit_index(cand)
                cb = _bit(c)
                cand ^= cb
                sm = _SUIT_MASKS[_ix(c >> 4)]
                rank = c & 15
                s = c >> 4
                if pos == 0:
                    top = highest_bit_index(present & sm)
                    if (present & sm & ~((cb << _ONE) - _ONE) & ~mine) == 0:
                        sc = 60 + rank  # cash a winner (every card above it is ours)
                    elif partner & _bit(top):
                        sc = 40 - rank  # lead low to partner's winner
                        if cb & three:
                            sc = -20  # not the 3S: partner would take it
                    else:
                        sc = 20 - rank
                        # will partner take the trick whatever the opponents
                        # play (follow or ruff)?  Then lead low, or the 5H
                        ob = _best_reply(lho, s, trump)
                        o2 = _best_reply(rho, s, trump)
                        if ob < 0 or (o2 >= 0 and _beats(o2, ob, trump)):
                            ob = o2
                        pb = _best_reply(partner, s, trump)
                        if pb >= 0 and _beats(pb, c, trump) and (ob < 0 or _beats(pb, ob, trump)):
                            sc = 40 - rank
                            if cb & three:
                                sc = -20
                            elif cb & five:
                                sc = 90
                        elif cb & five and ob >= 0:
                            sc = -40  # not the 5H where an opponent may take it
                    if trump != 4 and s != trump:
                        tm = _SUIT_MASKS[_ix(trump)]
                        if ((lho & sm) == 0 and (lho & tm)) or ((rho & sm) == 0 and (rho & tm)):
                            sc -= 60  # an opponent ruffs
                        elif (partner & sm) == 0 and (partner & tm):
                            sc += 45  # partner ruffs
                    elif trump != 4 and ((lho | rho) & _SUIT_MASKS[_ix(trump)]) == 0:
                        sc -= 80  # a trump lead that draws no opponent's trump
                elif pos == 2:
                    # third hand: is the trick safe from the last hand?
                    wins = _beats(c, wc, trump)
                    ours = wins or partner_wins
                    cur = c if wins else wc
                    safe = ours and (next_top < 0 or not _beats(next_top, cur, trump))
                    if safe:
                        if cb & five:
                            sc = 95
                        elif cb & three:
                            sc = -50
                        elif (table & three) and not (table & five):
                            sc = -20 - rank  # a sure capture of the 3S
                        else:
                            sc = 70 - rank
                    elif ours:
                        sc = 40 - rank
                        if cb & five:
                            sc = -50
                    else:
                        sc = 30 - rank
                        if cb & three:
                            sc = 80
                        elif cb & five:
                            sc = -50
                        elif (table & three) and not (table & five):
                            sc = 60 - rank  # the opponents take the 3S
                elif pos == 3:
                    # last hand: the trick's fate is known; rank by what it
                    # brings our side, then the cheapest card
                    wins = _beats(c, wc, trump)
                    tp = _trick_points(table | cb, five, three)
                    if wins or partner_wins:
                        sc = 20 * tp - rank
                        if wins and partner_wins:
                            sc -= 10  # no need to overtake partner
                    else:
                        sc = -20 * tp - rank
                else:
                    # second hand: the leader's partner plays next, ours last
                    wins = _beats(c, wc, trump)
                    if partner_takes and not wins:
                        if cb & five:
                            sc = 100  # 5H onto partner's trick
                        elif cb & three:
                            sc = -50
                        else:
                            sc = 90 - rank
                    elif (cb & three) and not wins:
                        sc = 80  # 3S onto the opponents' trick
                    elif (cb & five) and not wins:
                        sc = -50
                    elif wins and partner_takes:
                        sc = 10 - rank  # no need: partner takes it
                    elif wins:
                        if next_top < 0 or not _beats(next_top, c, trump):
                            sc = 60 - rank  # a win the third hand cannot beat
                        else:
                            sc = 45 - rank
                    else:
                        sc = 30 - rank
                if c == PLY[_ix(d * _PLY + _KILLER)]:
                    # a refutation found at this ply in a sibling line is
                    # likely to refute here too ("killer" move); a lead goes
                    # first, elsewhere it only breaks near ties of the rules
                    # above (measured)
                    sc += 1500 if pos == 0 else 20
                j = n
                while j > 0 and SC[_ix(j - 1)] < sc:
                    SC[_ix(j)] = SC[_ix(j - 1)]
                    PLY[_ix(d * _PLY + _MV + j)] = PLY[_ix(d * _PLY + _MV + j - 1)]
                    j -= 1
                SC[_ix(j)] = sc
                PLY[_ix(d * _PLY + _MV + j)] = c
                n += 1
            PLY[_ix(d * _PLY + _NM)] = n
            PLY[_ix(d * _PLY + _MI)] = 0
            PLY[_ix(d * _PLY + _LW + 0)] = 0
            PLY[_ix(d * _PLY + _LW + 1)] = 0
            PLY[_ix(d * _PLY + _LW + 2)] = 0
            PLY[_ix(d * _PLY + _LW + 3)] = 0
            PLY[_ix(d * _PLY + _BEST)] = -_INF if (p & 1) == 0 else _INF

        elif state == _NEXT:
            i = PLY[_ix(d * _PLY + _MI)]
            # "lowest win" (as DDS): a card below every card whose rank an
            # earlier refuted move of its suit relied on is refuted the same way
            while i < PLY[_ix(d * _PLY + _NM)]:
                c = PLY[_ix(d * _PLY + _MV + i)]
                if c < PLY[_ix(d * _PLY + _LW + (c >> 4))] and (_bit(c) & special) == 0:
                    i += 1
                    if _DIAGNOSTICS:
                        stats[30] += 1
                else:
                    break
            PLY[_ix(d * _PLY + _MI)] = i
            if i < PLY[_ix(d * _PLY + _NM)]:
                PLY[_ix(d * _PLY + _MI)] = i + 1
                c = PLY[_ix(d * _PLY + _MV + i)]
                cb = _bit(c)
                p = PLY[_ix(d * _PLY + _PL)]
                pos = d & 3
                h[_ix(p)] ^= cb
                PLY[_ix(d * _PLY + _CARD)] = c
                if pos == 0 or _beats(c, PLY[_ix((d - 1) * _PLY + _WCARD)], trump):
                    PLY[_ix(d * _PLY + _WIN)] = p
                    PLY[_ix(d * _PLY + _WCARD)] = c
                else:
                    PLY[_ix(d * _PLY + _WIN)] = PLY[_ix((d - 1) * _PLY + _WIN)]
                    PLY[_ix(d * _PLY + _WCARD)] = PLY[_ix((d - 1) * _PLY + _WCARD)]
                if pos == 3:
                    trick = table | cb
                    ws = PLY[_ix(d * _PLY + _WIN)]
                    tp = _trick_points(trick, five, three) if (ws & 1) == 0 else 0
                    PLY[_ix(d * _PLY + _TPNS)] = tp
                    table = np.uint64(0)
                    PLY[_ix((d + 1) * _PLY + _PL)] = ws
                    PLY[_ix((d + 1) * _PLY + _A)] = PLY[_ix(d * _PLY + _A)] - tp
                    PLY[_ix((d + 1) * _PLY + _B)] = PLY[_ix(d * _PLY + _B)] - tp
                else:
                    table |= cb
                    PLY[_ix(d * _PLY + _TPNS)] = 0
                    PLY[_ix((d + 1) * _PLY + _PL)] = (p + 1) & 3
                    PLY[_ix((d + 1) * _PLY + _A)] = PLY[_ix(d * _PLY + _A)]
                    PLY[_ix((d + 1) * _PLY + _B)] = PLY[_ix(d * _PLY + _B)]
                d += 1
                state = _ENTER
            else:
                v = PLY[_ix(d * _PLY + _BEST)]
                rw = PLYU[_ix(d * _PLYU + _WR)]
                state = _RETURN
                finished = True

        else:  # _RETURN: node d has value v
            if finished:
                # node d is done: record what its search proved, in the
                # bucket of its _SLOT field, in the entry of the same lengths,
                # flags and owners of the cards under its winning ranks' mask.
                # Only bounds proved with that very mask go into an entry.
                # (Inline rather than a helper: passing the table's arrays
                # to a function costs reference counting on every call.)
                finished = False
                base = PLY[_ix(d * _PLY + _SLOT)]
                if base >= 0:
                    union = h[0] | h[1] | h[2] | h[3]
                    mask = _wr_mask(union, rw, special)
                    ecode = PLYU[_ix(d * _PLYU + _CODE)] & mask
                    lens = PLYU[_ix(d * _PLYU + _LENS)]
                    flags = PLYU[_ix(d * _PLYU + _FLAGS)]
                    kr = 4 * base
                    dr = 2 * base
                    same = 0
                    empty = 0
                    for i in range(_BUCKET):
                        x = ((tt_keys[_ix(kr * _BUCKET + i)] ^ lens) | (tt_keys[_ix((kr + 1) * _BUCKET + i)] ^ flags)
                             | (tt_keys[_ix((kr + 2) * _BUCKET + i)] ^ ecode) | (tt_keys[_ix((kr + 3) * _BUCKET + i)] ^ mask))
                        same |= (1 if x == 0 else 0) << i
                        # free: never used, or used by another generation
                        empty |= (1 if (tt_keys[_ix((kr + 1) * _BUCKET + i)] >> np.uint64(12)) != genu
                                  or tt_keys[_ix((kr + 1) * _BUCKET + i)] == 0 else 0) << i
                    if same:
                        e = lowest_bit_index(same)
                    else:
                        if empty:
                            e = lowest_bit_index(empty)
                        else:
                            e = stats[0] & (_BUCKET - 1)
                        tt_keys[_ix(kr * _BUCKET + e)] = lens
                        tt_keys[_ix((kr + 1) * _BUCKET + e)] = flags
                        tt_keys[_ix((kr + 2) * _BUCKET + e)] = ecode
                        tt_keys[_ix((kr + 3) * _BUCKET + e)] = mask
                        tt_data[_ix((dr + _TT_LO) * _BUCKET + e)] = -_INF
                        tt_data[_ix((dr + _TT_HI) * _BUCKET + e)] = _INF
                    if v <= PLY[_ix(d * _PLY + _A0)]:
                        if v < tt_data[_ix((dr + _TT_HI) * _BUCKET + e)]:
                            tt_data[_ix((dr + _TT_HI) * _BUCKET + e)] = v
                    elif v >= PLY[_ix(d * _PLY + _B0)]:
                        if v > tt_data[_ix((dr + _TT_LO) * _BUCKET + e)]:
                            tt_data[_ix((dr + _TT_LO) * _BUCKET + e)] = v
                    else:
                        tt_data[_ix((dr + _TT_LO) * _BUCKET + e)] = v
                        tt_data[_ix((dr + _TT_HI) * _BUCKET + e)] = v
            if d == n0:
                return v
            d -= 1
            p = PLY[_ix(d * _PLY + _PL)]
            pos = d & 3
            c = PLY[_ix(d * _PLY + _CARD)]
            cb = _bit(c)
            h[_ix(p)] ^= cb
            if pos == 3:
                table = _bit(PLY[_ix((d - 3) * _PLY + _CARD)]) | _bit(PLY[_ix((d - 2) * _PLY + _CARD)]) | _bit(PLY[_ix((d - 1) * _PLY + _CARD)])
                v += PLY[_ix(d * _PLY + _TPNS)]
                rw |= _rank_win(table | cb, PLY[_ix(d * _PLY + _WCARD)])
            else:
                table ^= cb
            cut = False
            if (p & 1) == 0:
                if v > PLY[_ix(d * _PLY + _BEST)]:
                    PLY[_ix(d * _PLY + _BEST)] = v
                    if v > PLY[_ix(d * _PLY + _A)]:
                        PLY[_ix(d * _PLY + _A)] = v
                        cut = v >= PLY[_ix(d * _PLY + _B)]
            else:
                if v < PLY[_ix(d * _PLY + _BEST)]:
                    PLY[_ix(d * _PLY + _BEST)] = v
                    if v < PLY[_ix(d * _PLY + _B)]:
                        PLY[_ix(d * _PLY + _B)] = v
                        cut = v <= PLY[_ix(d * _PLY + _A)]
            if cut:
                if PLY[_ix(d * _PLY + _MI)] != 1:
                    PLY[_ix(d * _PLY + _KILLER)] = c
                if _DIAGNOSTICS:
                    stats[_ix((1 if PLY[_ix(d * _PLY + _MI)] == 1 else 5) + pos)] += 1
                v = PLY[_ix(d * _PLY + _BEST)]
                # a cut-off is proved by this one move: its winning ranks;
                # stay in _RETURN: node d is done
                finished = True
            else:
                # every move counts: collect its winning ranks.  A move that
                # stood for a run of equivalent cards also stands for the
                # lines where another card of the run is played, whose winning
                # ranks are these with the run's cards permuted: if any card
                # of the run mattered, the whole run does (docs/solver.md
                # pitfall 5).
                if (cb & special) == 0:
                    sm = _SUIT_MASKS[_ix(c >> 4)]
                    above = h[_ix(p)] & sm & ~((cb << _ONE) - _ONE)
                    if above and (rw & (above | cb)):
                        present = h[0] | h[1] | h[2] | h[3] | table
                        run = cb
                        x = cb
                        while True:
                            up = present & sm & ~((x << _ONE) - _ONE)
                            if up == 0:
                                break
                            y = up & (~up + _ONE)
                            if (h[_ix(p)] & y) and (y & special) == 0:
                                run |= y
                                x = y
                            else:
                                break
                        if rw & run:
                            rw |= run
                PLYU[_ix(d * _PLYU + _WR)] |= rw
                # lowest win: this move was refuted by lines that never relied
                # on the rank of a card of its suit below ``low``; if the move's
                # card is below it, so are the mover's other cards there, and
                # the same lines (those cards' names swapped) refute them too
                if (cb & special) == 0:
                    s = c >> 4
                    if PLY[_ix(d * _PLY + _LW + (s))] == 0:
                        wsuit = PLYU[_ix(d * _PLYU + _WR)] & _SUIT_MASKS[_ix(s)]
                        low = lowest_bit_index(wsuit) if wsuit else 16 * s + 16
                        if c < low:
                            PLY[_ix(d * _PLY + _LW + (s))] = low
                state = _NEXT


@njit(cache=True, inline="always")
def _points_left(hands, table, to_move, five, three):
    """Both sides' points from the start of the current trick: ``table`` the
    cards already played to it, ``to_move`` a seat that has not played to it
    yet (its hand counts the tricks left)."""
    union = hands[0] | hands[1] | hands[2] | hands[3] | table
    t = bit_count(hands[to_move])
    if union & five:
        t += 5
    if union & three:
        t -= 3
    return t


@njit(cache=True, inline="always")
def _ns_total(hands, five, three):
    """N-S points + E-W points for the rest of the play (at a trick boundary)."""
    return _points_left(hands, np.uint64(0), 0, five, three)


@njit(cache=True)
def _solve_value(hands, leader, trump, five, three, tt_keys, tt_data, log2, stats, gen, guess=-_INF,
                 lo0=-_INF, hi0=_INF):
    """Exact points of the leader's side.

    MTD(f): a sequence of null-window searches that close in on the value
    from ``guess`` (N-S points, or -_INF for a low first guess); with the
    transposition table carrying bounds between them this visits fewer nodes
    than one full-window search (docs/solver.md §7: about 15% in points mode).
    With no guess the passes start low and climb: the passes that fail high
    are the cheap ones (measured: 1.8% fewer points nodes than from the
    middle, total // 2; a guess closer to the value did no better).
    ``lo0 <= value <= hi0``: bounds on N-S's points known beforehand (the
    ladder of ``_dd_table_both``).
    """
    total = _ns_total(hands, five, three)
    lo = max(-3, lo0)
    hi = min(total + 3, hi0)
    if lo == hi:
        g = lo
    else:
        g = guess if guess > -_INF else max(lo, total // 2 - 4)
        if g < lo:
            g = lo
        if g > hi:
            g = hi
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = _search(hands, leader, trump, five, three, beta - 1, beta, tt_keys, tt_data, log2, stats, gen)
        stats[29] += 1
        if g < beta:
            hi = g
        else:
            lo = g
    if leader & 1:
        return total - g
    return g


@njit(cache=True)
def _can_reach(hands, leader, trump, five, three, target, tt_keys, tt_data, log2, stats):
    """Null-window test: can the leader's side get at least ``target``?"""
    if leader & 1:
        # E-W >= t  <=>  N-S <= total - t  <=>  not (N-S >= total - t + 1)
        t_ns = _ns_total(hands, five, three) - target + 1
        ns = _search(hands, leader, trump, five, three, t_ns - 1, t_ns, tt_keys, tt_data, log2, stats, 0)
        return ns < t_ns
    ns = _search(hands, leader, trump, five, three, target - 1, target, tt_keys, tt_data, log2, stats, 0)
    return ns >= target


@njit(cache=True)
def _new_tt(log2):
    nb = 1 << (log2 - _BUCKET_LOG2)
    # flat (row r, entry e at r * _BUCKET + e): a constant row stride
    keys = np.zeros(4 * nb * _BUCKET, dtype=np.uint64)
    data = np.empty(2 * nb * _BUCKET, dtype=np.int64)
    return keys, data


@njit(cache=True, parallel=True)
def _dd_table(deals, five, three, log2, leaders, nchunks):
    """Kernel of ``dd_table``: (n, 4, 5) values and node counts.

    Solves every strain for each seat in ``leaders`` (rows of other seats
    stay 0).  The deals are split into ``nchunks`` contiguous blocks; the
    caller makes several blocks per thread and asks numba to hand them out
    dynamically, so no thread idles while another finishes a slow block.
    Each block has its own transposition table (fixed size, so memory is
    bounded); entries hold exact facts about relative-rank positions, so a
    table stays valid from one deal to the next.
    """
    n = deals.shape[0]
    out = np.zeros((n, 4, 5), dtype=np.int8)
    nodes = np.zeros((n, 4, 5), dtype=np.int64)
    allst = np.zeros((nchunks, STATS_SIZE), dtype=np.int64)
    for k in prange(nchunks):
        lo = n * k // nchunks
        hi = n * (k + 1) // nchunks
        tt_keys, tt_data = _new_tt(log2)
        stats = np.zeros(STATS_SIZE, dtype=np.int64)
        for i in range(lo, hi):
            hands = deals[i]
            total = _ns_total(hands, five, three)
            for strain in range(5):
                guess = -_INF
                for leader in leaders:
                    before = stats[0]
                    v = _solve_value(hands, leader, strain, five, three, tt_keys, tt_data, log2, stats, i + 1,
                                     guess)
                    out[i, leader, strain] = v
                    nodes[i, leader, strain] = stats[0] - before
                    # the next leader's N-S value is usually close to this one
                    guess = total - v if leader & 1 else v
        allst[k] = stats
    return out, nodes, allst


@njit(cache=True, parallel=True)
def _dd_table_both(deals, five, three, log2, leaders, nchunks, order):
    """Kernel of ``dd_table(mode="both")``: the points and the tricks
    tables, (n, 2, 4, 5) (axis 1: points, tricks), by the ladder tricks ->
    5H only -> points, and the nodes of each pass (n, 3, 4, 5): tricks, 5H
    only, points.

    The three scorings are one game tree with different payoffs: at every
    leaf N-S's points are their tricks -3..+5 (-3 if the 3S is in play, +5
    if the 5H is), and their 5H-only points (the 3S an ordinary card) -3..0.
    Solved in that order in one transposition table, every entry of an
    easier scoring bounds the harder searches at each position it matches
    (the bucket scan of ``_search``), and each root value bounds the next
    one's (MTD(f) starts inside them).  ``order`` (bits; measured in
    nodes on 200 deals, seed 2024): 0 a strain's three passes one after the
    other (+1: the deal's whole tricks table first, then 5H only, then
    points: same nodes; +8: leader-major within the strain: +2%); +2 the
    points search starts at F - 3 rather than F (-2%); +4 the 5H-only one
    at T + 5 rather than T + 1 (+1%); +16 no 5H-only pass (points bounded by
    the tricks alone: +1% nodes, a heavier tail).  ``dd_table`` uses 2.
    """
    n = deals.shape[0]
    out = np.zeros((n, 2, 4, 5), dtype=np.int8)
    nodes = np.zeros((n, 3, 4, 5), dtype=np.int64)
    allst = np.zeros((nchunks, STATS_SIZE), dtype=np.int64)
    zero = np.uint64(0)
    for k in prange(nchunks):
        lo = n * k // nchunks
        hi = n * (k + 1) // nchunks
        tt_keys, tt_data = _new_tt(log2)
        stats = np.zeros(STATS_SIZE, dtype=np.int64)
        tns = np.zeros((4, 5), dtype=np.int64)  # N-S values of the passes
        fns = np.zeros((4, 5), dtype=np.int64)
        fls = np.zeros((4, 5), dtype=np.int64)  # (lower bound on F when it is not solved)
        for i in range(lo, hi):
            hands = deals[i]
            union = hands[0] | hands[1] | hands[2] | hands[3]
            f_in = (union & five) != 0
            t_in = (union & three) != 0
            five_ = five if f_in else zero
            three_ = three if t_in else zero
            ttot = _ns_total(hands, zero, zero)
            ftot = _ns_total(hands, five_, zero)
            ptot = _ns_total(hands, five_, three_)
            nl = leaders.shape[0]
            guess = -_INF
            for st in range(5 * 3 * nl):
                if order & 8:  # strain, leader, rung
                    strain = st // (3 * nl)
                    li = (st // 3) % nl
                    rung = st % 3
                elif order & 1:  # rung, strain, leader
                    rung = st // (5 * nl)
                    strain = (st // nl) % 5
                    li = st % nl
                else:  # strain, rung, leader
                    strain = st // (3 * nl)
                    rung = (st // nl) % 3
                    li = st % nl
                leader = leaders[li]
                if li == 0 and rung == 0:
                    guess = -_INF
                before = stats[0]
                if rung == 0:
                    v = _solve_value(hands, leader, strain, zero, zero, tt_keys, tt_data, log2, stats, i + 1,
                                     guess)
                    vns = ttot - v if leader & 1 else v
                    tns[leader, strain] = vns
                    out[i, 1, leader, strain] = v
                    guess = vns  # the next leader's is usually close
                elif rung == 1:
                    t = tns[leader, strain]
                    if f_in and not (order & 16):
                        v = _solve_value(hands, leader, strain, five_, zero, tt_keys, tt_data, log2, stats,
                                         i + 1, t + 5 if order & 4 else t + 1, t, t + 5)
                        vns = ftot - v if leader & 1 else v
                        fns[leader, strain] = vns
                        fls[leader, strain] = vns
                    else:
                        fns[leader, strain] = t + 5 if f_in else t
                        fls[leader, strain] = t
                else:
                    t = tns[leader, strain]
                    f = fns[leader, strain]
                    fl = fls[leader, strain]
                    if t_in or f != fl:
                        # F - 3 <= P <= F, T - 3 <= P <= T + 5
                        v = _solve_value(hands, leader, strain, five_, three_, tt_keys, tt_data, log2, stats,
                                         i + 1, f - 3 if order & 2 else f, fl - 3 if t_in else fl, f)
                    else:
                        v = ptot - f if leader & 1 else f
                    out[i, 0, leader, strain] = v
                nodes[i, rung, leader, strain] = stats[0] - before
        allst[k] = stats
    return out, nodes, allst


@njit(cache=True, parallel=True)
def _dd_contracts(deals, leaders, strains, five, three, log2, nchunks):
    """Kernel of ``dd_contracts``: one value per (deal, leader, strain) row,
    for the leader's side; blocks of rows handed out as in ``_dd_table``."""
    n = deals.shape[0]
    out = np.zeros(n, dtype=np.int8)
    for k in prange(nchunks):
        lo = n * k // nchunks
        hi = n * (k + 1) // nchunks
        tt_keys, tt_data = _new_tt(log2)
        stats = np.zeros(STATS_SIZE, dtype=np.int64)
        for i in range(lo, hi):
            # one generation for all rows: with one solve a deal the table
            # never fills with one deal, and other deals' entries are worth
            # keeping (measured: 7% faster than a generation a row)
            out[i] = _solve_value(deals[i], leaders[i], strains[i], five, three, tt_keys, tt_data, log2, stats, 0)
    return out


#: solving order of the leaders in a full table: partners one after the other,
#: so each solve's value is a good first guess for the next (MTD(f))
_ALL_LEADERS = np.array([0, 2, 1, 3], dtype=np.int64)


# ---------------------------------------------------------------------------
# public wrappers


def _specials(mode: str, five=None, three=None) -> tuple[np.uint64, np.uint64]:
    if mode == "tricks":
        return np.uint64(0), np.uint64(0)
    if mode != "points":
        raise ValueError(f"unknown mode '{mode}' (use points or tricks)")
    return (np.uint64(FIVE_HEARTS_BIT if five is None else five),
            np.uint64(THREE_SPADES_BIT if three is None else three))


def _as_hands(hands) -> np.ndarray:
    if isinstance(hands, str):
        return parse_deal(hands)
    h = np.ascontiguousarray(hands, dtype=np.uint64)
    if h.shape != (4,):
        raise ValueError("hands must be 4 bitboards (N, E, S, W)")
    check_hands(h, max_cards=9)
    return h


def _as_deals(deals) -> np.ndarray:
    if isinstance(deals, np.ndarray) and deals.dtype == np.uint64:
        arr = np.ascontiguousarray(deals)
        if arr.ndim != 2 or arr.shape[1] != 4:
            raise ValueError("deals must have shape (n, 4)")
        return arr
    if isinstance(deals, str):
        deals = [deals]
    arr = np.zeros((len(deals), 4), dtype=np.uint64)
    for i, d in enumerate(deals):
        arr[i] = parse_deal(d) if isinstance(d, str) else _as_hands(d)
    return arr


def _tt():
    return _new_tt(config.TT_LOG2_ENTRIES)


def solve(hands, leader, strain, mode: str = "points", *, five=None, three=None) -> int:
    """Exact double-dummy value for the leader's side.

    Parameters
    ----------
    hands : (4,) uint64 bitboards indexed by seat, or a deal string.
        Equal lengths 1..8 (a trick boundary).
    leader : Seat (or 0..3) on lead.
    strain : Strain (0..3 trump suit, 4 no trump).
    mode : ``"points"`` (tricks + 5 for the 5H trick - 3 for the 3S trick) or
        ``"tricks"``.
    five, three : bits of the special cards when ranks are relabelled (low
        no-trump); default the 5H and 3S.  Kernel: ``_search``.
    """
    h = _as_hands(hands)
    f, t = _specials(mode, five, three)
    keys, data = _tt()
    stats = np.zeros(STATS_SIZE, dtype=np.int64)
    return int(_solve_value(h, int(leader), int(strain), f, t, keys, data, config.TT_LOG2_ENTRIES, stats, 0))


def can_reach(hands, leader, strain, target: int, mode: str = "points", *, five=None, three=None) -> bool:
    """True if the leader's side can make at least ``target`` against best
    defence (one null-window search; cheaper than :func:`solve`)."""
    h = _as_hands(hands)
    f, t = _specials(mode, five, three)
    keys, data = _tt()
    stats = np.zeros(STATS_SIZE, dtype=np.int64)
    return bool(_can_reach(h, int(leader), int(strain), f, t, int(target), keys, data,
                           config.TT_LOG2_ENTRIES, stats))


def _on_threads(kernel, n, threads, *args):
    """Run a block-parallel kernel (``_dd_table``, ``_dd_contracts``) over
    ``n`` rows on all (or ``threads``) numba threads: ``kernel(*args, nchunks)``.

    Several blocks per thread, handed out one at a time; a block is at least
    config.DD_MIN_BLOCK rows so its table has time to pay for itself."""
    nthreads = numba.get_num_threads() if threads is None else int(threads)
    nthreads = max(1, min(nthreads, numba.config.NUMBA_NUM_THREADS))
    nchunks = max(1, min(nthreads * config.DD_BLOCKS_PER_THREAD, n // config.DD_MIN_BLOCK))
    if nthreads == 1:
        nchunks = 1
    prev = numba.get_num_threads()
    numba.set_num_threads(nthreads)
    prev_chunk = numba.set_parallel_chunksize(1)
    try:
        return kernel(*args, nchunks)
    finally:
        numba.set_parallel_chunksize(prev_chunk)
        numba.set_num_threads(prev)


def _run_table(arr, f, t, threads, leaders):
    """Run the ``_dd_table`` kernel on all (or ``threads``) numba threads."""
    n = arr.shape[0]
    if n == 0:
        return (np.zeros((0, 4, 5), dtype=np.int8), np.zeros((0, 4, 5), dtype=np.int64),
                np.zeros((1, STATS_SIZE), dtype=np.int64))
    return _on_threads(_dd_table, n, threads, arr, f, t, config.TT_LOG2_ENTRIES, leaders)


def _run_both(arr, f, t, threads, leaders, order=2):
    """Run the ``_dd_table_both`` kernel on all (or ``threads``) numba threads."""
    n = arr.shape[0]
    if n == 0:
        return (np.zeros((0, 2, 4, 5), dtype=np.int8), np.zeros((0, 3, 4, 5), dtype=np.int64),
                np.zeros((1, STATS_SIZE), dtype=np.int64))
    return _on_threads(lambda *a: _dd_table_both(*a[:-1], a[-1], order), n, threads, arr, f, t,
                       config.TT_LOG2_ENTRIES, leaders)


def dd_contracts(deals, leaders, strains, mode: str = "points", *, threads: int | None = None,
                 five=None, three=None) -> np.ndarray:
    """Exact values of many single contracts, parallel over rows: row ``i`` is
    deal ``deals[i]`` played in strain ``strains[i]`` (0..3 trump suit, 4 no
    trump) with ``leaders[i]`` (seat 0..3) on lead.  Returns ``(n,)`` int8,
    each value for the leader's side (the match engine's case: one contract
    a deal).  Kernel: ``_dd_contracts``."""
    arr = _as_deals(deals)
    n = arr.shape[0]
    lead = np.ascontiguousarray(leaders, dtype=np.int64).reshape(-1)
    strn = np.ascontiguousarray(strains, dtype=np.int64).reshape(-1)
    if lead.shape[0] != n or strn.shape[0] != n:
        raise ValueError(f"need one leader and one strain per deal: {n} deals, "
                         f"{lead.shape[0]} leaders, {strn.shape[0]} strains")
    if n and (lead.min() < 0 or lead.max() > 3):
        raise ValueError("leaders must be seats 0..3 (N E S W)")
    if n and (strn.min() < 0 or strn.max() > 4):
        raise ValueError("strains must be 0..4 (S H D C N)")
    f, t = _specials(mode, five, three)
    if n == 0:
        return np.zeros(0, dtype=np.int8)
    return _on_threads(_dd_contracts, n, threads, arr, lead, strn, f, t, config.TT_LOG2_ENTRIES)


def dd_strains(deals, leader, mode: str = "points", *, threads: int | None = None, five=None, three=None):
    """Values of the five strains with ``leader`` on lead: ``(n, 5)`` int8,
    strains S H D C N, for the leader's side (a quarter of :func:`dd_table`'s
    work; the hand advisor's case).  Kernel: ``_dd_table``."""
    arr = _as_deals(deals)
    f, t = _specials(mode, five, three)
    lead = int(leader)
    if not 0 <= lead <= 3:
        raise ValueError(f"leader must be a seat 0..3 (N E S W), got {leader}")
    out, _, _ = _run_table(arr, f, t, threads, np.array([lead], dtype=np.int64))
    return out[:, lead, :]


def dd_table(deals, mode: str = "points", *, threads: int | None = None, return_nodes: bool = False,
             return_stats: bool = False, five=None, three=None):
    """Double-dummy table of many deals, parallel over deals on all cores.

    Parameters
    ----------
    deals : (n, 4) uint64 array (``deal.deal_batch``), or a list of deal strings.
    mode : ``"points"``, ``"tricks"`` or ``"both"`` (both tables, solved by
        the ladder tricks -> 5H only -> points in one transposition table,
        each bounding the next; kernel ``_dd_table_both``).
    threads : numba threads to use (default: all).
    return_nodes : also return the (n, 4, 5) int64 search-node counts
        (``"both"``: (n, 3, 4, 5), axis 1 the tricks, 5H-only and points
        passes).
    return_stats : also return the search counters summed over all solves
        (int64 array, layout in ``STATS_SIZE``'s comment).
    five, three : bits of the special cards after a rank relabelling.

    Returns
    -------
    (n, 4, 5) int8: axis 1 the leader N E S W, axis 2 the strain S H D C N,
    each value for the leader's side (``"both"``: two of them, points then
    tricks); then the node counts and counters when asked for.  Kernel:
    ``_dd_table``.
    """
    arr = _as_deals(deals)
    if mode == "both":
        f, t = _specials("points", five, three)
        both, nodes, stats = _run_both(arr, f, t, threads, _ALL_LEADERS)
        result = (both[:, 0].copy(), both[:, 1].copy())
        if return_nodes:
            result += (nodes,)
        if return_stats:
            result += (stats.sum(axis=0),)
        return result
    f, t = _specials(mode, five, three)
    out, nodes, stats = _run_table(arr, f, t, threads, _ALL_LEADERS)
    result = (out,)
    if return_nodes:
        result += (nodes,)
    if return_stats:
        result += (stats.sum(axis=0),)
    return result if len(result) > 1 else out


__all__ = ["MODES", "solve", "can_reach", "dd_table", "dd_strains", "dd_contracts", "Seat"]

"""The transposition table with winning ranks (as DDS), and the position keys.

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
and the owners of the special cards still in play (:func:`pos_desc`,
:func:`tt_slot`); the entry fixes, per suit, the owners of the remaining
cards from the top down to the lowest card of W (:func:`wr_mask`), and
matches any position that agrees on those (whatever the lower cards and the
cards played before): the proof carries over card for card, lower cards only
ever winning by suit.  A lookup takes the tightest bounds of all matching
entries of the bucket; a bound is only stored into the entry of its own W.
The key also carries the table's generation (``dd_table``: one a deal):
another deal's entries, almost never of use, never match and count as free
slots, so they no longer evict the current deal's (clearing the table per
deal would cost a 3 MiB write each time).

A bucket is hashed without the special cards' fields of the flags
(:data:`CORE_FLAGS`): all scorings of a position (tricks, 5H only, points)
share it, and an entry of a relaxed scoring bounds the position (see
"Relaxed scorings" in :mod:`kaiser_sim.dd.search`).

The lookup and the store are written inline in the search
(:func:`kaiser_sim.dd.search.search_mid`): passing the table's arrays to a
helper costs reference counting on every call (docs/solver.md pitfall 2).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import SUIT_MASK
from . import _jit_cache
from .bits import bit_count, card_bit, highest_bit_index, ix, low_bits, lowest_bit_index, owner, pext_suit

# the kernels below carry compiled copies of these files' kernels: recompile them when those change
_jit_cache.depends_on(__file__, *_jit_cache.package_files("cards.py", "dd/bits.py"))

_ONE = np.uint64(1)
_SUIT_MASKS = SUIT_MASK  # read-only module-level table, frozen into the kernels

# transposition table: buckets of BUCKET entries, stored bucket-major so a
# bucket's scan reads contiguous rows (flat arrays, row r's entry e at
# r * BUCKET + e): keys (uint64) rows 4b + 0..3 of bucket
# b hold its entries' lens, flags, code & mask, mask (see pos_desc), one
# entry per column; data (int64) rows 2b + these (the bounds).  No best move
# is kept: tried first at a lead it saved no nodes over the killer and the
# rules of play (measured, both modes).
TT_LO, TT_HI = 0, 1
BUCKET_LOG2 = 4
BUCKET = 1 << BUCKET_LOG2
# the flags' special-card fields (see pos_desc): the 5H in play and its
# owner, the 3S in play and its owner.  A bucket is hashed without them, so
# the entries of a position under every scoring (tricks, 5H only, points)
# share one bucket, and an entry of a relaxed scoring bounds the position
# (see "Relaxed scorings" in kaiser_sim.dd.search)
F5_FLAGS = np.uint64(32 | (3 << 7))
F3_FLAGS = np.uint64(64 | (3 << 9))
SPEC_FLAGS = np.uint64(32 | (3 << 7) | 64 | (3 << 9))
CORE_FLAGS = ~SPEC_FLAGS


@njit(cache=True)
def pos_desc(h0, h1, h2, h3, leader, trump, five, three, gen):
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
    (see ``wr_mask``).
    """
    union = h0 | h1 | h2 | h3
    x = h1 | h3  # owner bit 0
    y = h2 | h3  # owner bit 1
    lens = np.uint64(0)
    code = np.uint64(0)
    for s in range(4):
        m = _SUIT_MASKS[ix(s)]
        sh = np.uint64(16 * s)
        lens |= (np.uint64(bit_count(h0 & m)) | (np.uint64(bit_count(h1 & m)) << np.uint64(4))
                 | (np.uint64(bit_count(h2 & m)) << np.uint64(8))
                 | (np.uint64(bit_count(h3 & m)) << np.uint64(12))) << sh
        u = union & m
        n = bit_count(u)
        us = u >> sh
        fx = pext_suit(x >> sh, us)  # the owners' bits, lowest card at bit 0
        fy = pext_suit(y >> sh, us)
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
    if trump != 4 and (union & _SUIT_MASKS[ix(trump)]) == 0:
        et = 4
    flags = np.uint64(leader) | (np.uint64(et) << np.uint64(2)) | np.uint64(2048) | (np.uint64(gen) << np.uint64(12))
    if union & five:
        flags |= np.uint64(32) | (owner(h0, h1, h2, five) << np.uint64(7))
    if union & three:
        flags |= np.uint64(64) | (owner(h0, h1, h2, three) << np.uint64(9))
    return lens, flags, code


@njit(cache=True)
def wr_mask(union, w, special):
    """Code mask of a TT entry for the winning ranks ``w`` (cards whose rank
    mattered) in a position with remaining cards ``union``: per suit, the
    owners of every card from the top down to the lowest card of ``w``.
    A special card that is neither the lowest nor the highest of its suit is
    always included (the entry fixes only its owner, not its place)."""
    sp = special & union
    while sp:
        b = sp & (~sp + _ONE)
        sp ^= b
        u = union & _SUIT_MASKS[ix(lowest_bit_index(b) >> 4)]
        if b != (u & (~u + _ONE)) and b != card_bit(highest_bit_index(u)):
            w |= b
    mask = np.uint64(0)
    for s in range(4):
        m = _SUIT_MASKS[ix(s)]
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
def mask_region(union, mask):
    """The cards a TT entry with code mask ``mask`` fixes in a position with
    remaining cards ``union`` (its winning ranks, as seen from here)."""
    w = np.uint64(0)
    for s in range(4):
        km = (mask >> np.uint64(16 * s)) & np.uint64(0xFFFF)
        if km:
            k = bit_count(km) >> 1
            u = union & _SUIT_MASKS[ix(s)]
            n = bit_count(u)
            if k >= n - 1:
                w |= u
            else:  # the top k cards: all but the lowest n - k
                w |= u ^ low_bits(u, n - k)
    return w


@njit(cache=True, inline="always")
def tt_slot(k0, k1, log2):
    """The bucket (0 .. 2 ** log2 - 1) of a position keyed by ``k0``, ``k1``
    (its lengths and its flags without the special cards'): a hash."""
    z = k0 * np.uint64(0x9E3779B97F4A7C15) ^ (k1 + np.uint64(0x632BE59BD9B4E019)) * np.uint64(0xBF58476D1CE4E5B9)
    z ^= z >> np.uint64(29)
    z *= np.uint64(0x94D049BB133111EB)
    return int(z >> np.uint64(64 - log2))


@njit(cache=True)
def new_tt(log2):
    """An empty transposition table of ``2 ** log2`` entries: its ``(keys,
    data)`` arrays, as every search kernel takes them."""
    nb = 1 << (log2 - BUCKET_LOG2)
    # flat (row r, entry e at r * BUCKET + e): a constant row stride
    keys = np.zeros(4 * nb * BUCKET, dtype=np.uint64)
    data = np.empty(2 * nb * BUCKET, dtype=np.int64)
    return keys, data

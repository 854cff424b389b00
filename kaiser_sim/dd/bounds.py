"""Sound bounds on a trick-boundary position's value, from sure tricks.

The search checks these before it probes the transposition table
(:func:`kaiser_sim.dd.search.search_mid`; docs/solver.md §3): the quick
tricks of the hand on lead, top trumps drawn first, or its partner's after
an entry, or with no trump in play both (:func:`quick_tricks`); the top
trumps each side must win (:func:`sure_trump_tricks`).  In points each
count is worth its tricks, +5 where the 5H is sure to fall in them (a
special's suit trump and no opponent holding it, :func:`special_captor`; or
a cash the 5H must or may join, :func:`cash_takes_5h`) and -3 where the 3S
may (-2 where it cannot, :func:`cash_spares_3s`; the side may still be
forced to win it later, docs/solver.md pitfall 6): :func:`side_floor`.
Each count also returns the cards it relies on (its winning ranks, for the
transposition table's entries).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import SUIT_MASK
from . import _jit_cache
from .bits import bit_count, card_bit, highest_bit_index, ix, low_bits, lowest_bit_index, owner

# the kernels below carry compiled copies of these files' kernels: recompile them when those change
_jit_cache.depends_on(__file__, *_jit_cache.package_files("cards.py", "dd/bits.py"))

_ONE = np.uint64(1)
_SUIT_MASKS = SUIT_MASK  # read-only module-level table, frozen into the kernels


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
        tmask = _SUIT_MASKS[ix(trump)]
        ut = union & tmask
        kt = 0
        if mine & ut:
            ot = ut & ~mine
            trun = ut
            if ot:
                trun = ut & ~((card_bit(highest_bit_index(ot)) << _ONE) - _ONE)
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
        m = _SUIT_MASKS[ix(s)]
        u = union & m
        if (mine & u) == 0:
            continue
        other = u & ~mine
        run = u
        if other:
            run = u & ~((card_bit(highest_bit_index(other)) << _ONE) - _ONE)
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
                run_free ^= low_bits(run, k0 - kf)
            if k < k0:
                run ^= low_bits(run, k0 - k)
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
def quick_tricks(x0, x1, x2, x3, trump, keep):
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
    no_trump = trump == 4 or (union & _SUIT_MASKS[ix(trump)]) == 0
    for s in range(4):
        m = _SUIT_MASKS[ix(s)]
        if (x0 & m) == 0:
            continue
        top = card_bit(highest_bit_index(union & m))
        if (x2 & top) == 0:
            continue
        if trump != 4 and s != trump:
            tm = _SUIT_MASKS[ix(trump)]
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
def sure_trump_tricks(a, b, union, trump):
    """Tricks a side must win with top trumps: each card of the side's unbroken
    run of highest trumps wins its trick but where partner's higher one is in
    it too (see below).  Also returns the run (the cards the count relies on,
    with the hands' trump lengths, which the TT key fixes)."""
    if trump == 4:
        return 0, np.uint64(0)
    m = _SUIT_MASKS[ix(trump)]
    u = union & m
    a &= m
    b &= m
    other = u & ~(a | b)
    run = u
    if other:
        run = u & ~((card_bit(highest_bit_index(other)) << _ONE) - _ONE)
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
def special_captor(h0, h1, h2, h3, card, trump):
    """The side (0 N-S, 1 E-W) sure to capture special ``card`` (in play) in
    every line of play, or -1: when its suit is trump and the holder's
    opponents hold none of it, the best trump of every trick holding the card
    is the holder's side's."""
    suit = lowest_bit_index(card) >> 4
    if trump != suit:
        return -1
    side = np.int64(owner(h0, h1, h2, card)) & 1
    opp = (h0 | h2) if side else (h1 | h3)
    if opp & _SUIT_MASKS[ix(suit)]:
        return -1
    return side


@njit(cache=True)
def cash_spares_3s(used, x0, x1, x2, x3, three, r):
    """Can the side of ``x0`` and ``x2`` (partners; ``x1``, ``x3`` the
    opponents) take the tricks of the cash plan ``used`` (its winners, one
    trick a card, as ``quick_tricks`` gives them) with the 3S (in play) in
    none of them, whatever the others do?  ``r`` tricks are left.

    An opponent holding the 3S can drop it on a round of spades, or on any
    round of a suit it has run out of; our side plays it only when forced:
    as the last spade of a hand that must follow to a round of spades, or as
    a hand's last card (the plan takes every trick left).  All of this rests
    on suit lengths and the 3S's owner, which the TT key fixes, and on the
    plan's cards, which its winning ranks carry."""
    if used & three:
        return False
    sp = _SUIT_MASKS[ix(lowest_bit_index(three) >> 4)]
    ks = bit_count(used & sp)
    if (x1 | x3) & three:
        if ks:
            return False
        hh = x1 if x1 & three else x3
        for s in range(4):
            m = _SUIT_MASKS[ix(s)]
            if bit_count(hh & m) < bit_count(used & m):
                return False
        return True
    if bit_count(used) >= r:
        return False
    hh = x0 if x0 & three else x2
    return bit_count(hh & sp) > ks


@njit(cache=True)
def cash_takes_5h(used, x0, x1, x2, x3, five, r):
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
    hm = _SUIT_MASKS[ix(lowest_bit_index(five) >> 4)]
    if (x0 | x2) & five:
        mate = x2 if used & x0 else x0
        if (mate & five) == 0:
            return False  # the cashing hand holds it: it leads its winners
        if used & hm:
            return True
        for s in range(4):
            m = _SUIT_MASKS[ix(s)]
            if bit_count(used & m) > bit_count(mate & m):
                return True
        return False
    holder = x1 if x1 & five else x3
    return bit_count(used & hm) >= bit_count(holder & hm)


@njit(cache=True, inline="always")
def side_floor(tricks, five_sure, three_sure, three_risk, three_spared):
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

"""A perfect-information Monte Carlo (PIMC) card player, and playing deals out.

Double dummy assumes everyone sees all 32 cards.  A PIMC player sees only
what its seat knows, and at each turn:

1. samples ``K`` layouts of the cards it cannot see that agree with
   everything it knows (:func:`sample_hands`);
2. scores each of its legal cards double dummy on every sample
   (:func:`kaiser_sim.dd.midtrick.score_cards`' kernel: exact points of its side
   from the start of the current trick after that card);
3. plays the card with the best average; ties go to the lowest card number
   (:mod:`kaiser_sim.cards`: the lowest suit S H D C, then the lowest rank).

In play only that argmax is needed, so :func:`_decide_pimc` does not score
every card exactly on every layout: a layout drawn again counts once more
without a search; on the first layout every card is scored exactly, on each
later one only the card leading so far (a null-window test of every other
card against it bounds the others' scores); then the card with the best
upper-bound total, if any of its bounds is open, gets one layout made exact
(widest bounds first) and the leader is looked for again.  The card
returned is exactly the argmax (ties included) of the exact totals
(measured, 60 deals, K = 20: 34.1M -> 25.4M nodes, about 1.5x faster).
:func:`pimc_scores`, which returns every card's mean, still scores all.

A double-dummy (DD) player does step 2 on the real hands: it always plays a
card that keeps the double-dummy value (ties the same way), so four DD
players realise exactly the double-dummy value of the deal.

What a seat knows
-----------------
Its own hand; every card played so far (including the current trick); how
many cards each other seat holds; which suits each seat has shown out of
(it did not follow the suit led); and the contract (trump, declarer).  No
inference from the bidding or from how the others chose their cards.

Sampling (exact, constructive, no rejection)
--------------------------------------------
The unseen cards go to the three other seats uniformly at random among all
layouts that give each seat its number of cards and no card of a suit it has
shown out of.  A layout is drawn suit by suit: how many cards of the suit
each seat gets is drawn with probability proportional to the number of
complete layouts that start that way (multinomial counts times a table of
the ways to deal the remaining suits into the remaining room, computed once
per turn: 4 suits x at most 10 x 10 states), then the suit's cards are
shuffled into those counts.  Every consistent layout therefore has the same
probability, however constrained the voids are, and no draw is ever wasted.

Randomness
----------
The generator of a turn is SplitMix64 seeded from (the run's key, the deal's
index in the run, the turn number 0..31): a deal's play does not depend on
which thread, chunk or process plays it, nor on the other deals (unless
:func:`play_views` is asked to share an opening lead within groups of deals,
``lead_group``: then on its group's first deal).

Parallelism
-----------
:func:`play_deals` plays deals in parallel (numba ``prange`` over blocks of
deals, blocks handed out one at a time); each block has its own
transposition table, shared by every search of every turn of its deals
(entries are exact facts about positions).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from .. import config
from ..cards import SUIT_MASK, Seat, Strain
from ..deal import bounded, seed_key, splitmix64
from . import _jit_cache
from .api import special_bits
from .bits import beats, bit_count, highest_bit_index, lowest_bit_index, trick_points
from .midtrick import (legal_cards, node, node_value, play_into_trick, read_position, representatives, score_moves,
                       trick_state)
from .search import STATS_SIZE, points_left
from .tt import new_tt

# the kernels below carry compiled copies of these files' kernels (and of their callees'): recompile them when
# those change
_jit_cache.depends_on(__file__, *_jit_cache.package_files("cards.py", "deal.py", "dd/bits.py", "dd/tt.py",
                                                          "dd/bounds.py", "dd/endgame.py", "dd/search.py",
                                                          "dd/midtrick.py"))

#: player kinds (kernel encoding)
DD, PIMC = 0, 1
PLAYER_KINDS = {"dd": DD, "pimc": PIMC}
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_TURN_MIX = np.uint64(0xD1B54A32D192ED03)
_ONE = np.uint64(1)
_SUIT_MASKS = SUIT_MASK
_MAXH = 10  # room per seat in the sampling table (hands of up to 9 cards)
_FACT = np.array([float(np.prod(np.arange(1, k + 1, dtype=np.float64))) for k in range(40)], dtype=np.float64)


# --- sampling --------------------------------------------------------------------------------


@njit(cache=True)
def _layout_counts(unknown, others, sizes, voids, W, hidden):
    """Fill ``W[s, a, b, c]``: the number of ways to deal the ``unknown``
    cards of suits s..3 when seat ``others[0]`` still has room for ``a`` of
    them, ``others[1]`` for ``b``, ``others[2]`` for ``c`` and the cards out
    of play that the seat cannot see (a kitty's discard, ``hidden`` cards in
    all) for the rest, no seat getting a suit it is void in (``voids[seat]``
    bit s; the discard is never void).  Returns the number of consistent
    layouts (0.0: none).  With ``hidden == 0`` the discard gets nothing and
    ``c`` is forced: the three-seat count, term for term."""
    u = np.zeros(4, np.int64)
    R = np.zeros(5, np.int64)
    for s in range(4):
        u[s] = bit_count(unknown & _SUIT_MASKS[s])
    for s in range(3, -1, -1):
        R[s] = R[s + 1] + u[s]
    oa, ob, oc = others[0], others[1], others[2]
    sa, sb, sc = sizes[oa], sizes[ob], sizes[oc]
    W[:, :, :, :] = 0.0
    W[4, 0, 0, 0] = 1.0
    for s in range(3, -1, -1):
        va = (voids[oa] >> s) & 1
        vb = (voids[ob] >> s) & 1
        vc = (voids[oc] >> s) & 1
        us = u[s]
        for a in range(sa + 1):
            for b in range(sb + 1):
                rest = R[s] - a - b
                for c in range(max(0, rest - hidden), min(sc, rest) + 1):
                    d = rest - c
                    tot = 0.0
                    for ka in range(min(a, us) + 1):
                        if ka > 0 and va:
                            break
                        for kb in range(min(b, us - ka) + 1):
                            if kb > 0 and vb:
                                break
                            for kd in range(min(d, us - ka - kb) + 1):
                                kc = us - ka - kb - kd
                                if kc > c or (kc > 0 and vc):
                                    continue
                                w = W[s + 1, a - ka, b - kb, c - kc]
                                if w > 0.0:
                                    tot += w * _FACT[us] / (_FACT[ka] * _FACT[kb] * _FACT[kc] * _FACT[kd])
                    W[s, a, b, c] = tot
    return W[0, sa, sb, sc]


@njit(cache=True)
def _turn_layouts(h, p, voids, discard, declarer):
    """What seat ``p`` knows of the unseen cards at its turn: ``(others,
    sizes, unknown, W, hidden)`` for :func:`_draw_layout` (the other seats,
    every hand's size, the unseen cards, the layout counts, how many unseen
    cards are out of play).  ``discard``: the declarer's kitty discard (0:
    none); the declarer knows it, every other seat counts it among the
    unseen cards.  Voids that contradict each other (cannot happen in play)
    are forgotten."""
    others = np.array([(p + 1) & 3, (p + 2) & 3, (p + 3) & 3], np.int64)
    sizes = np.zeros(4, np.int64)
    for q in range(4):
        sizes[q] = bit_count(h[q])
    unknown = (h[0] | h[1] | h[2] | h[3]) & ~h[p]
    hidden = 0
    if discard != 0 and p != declarer:
        unknown |= discard
        hidden = bit_count(discard)
    W = np.zeros((5, _MAXH, _MAXH, _MAXH), np.float64)
    if _layout_counts(unknown, others, sizes, voids, W, hidden) <= 0.0:
        for q in range(4):
            voids[q] = 0
        _layout_counts(unknown, others, sizes, voids, W, hidden)
    return others, sizes, unknown, W, hidden


@njit(cache=True)
def _draw_layout(state, unknown, others, sizes, voids, W, out, hidden):
    """Deal the ``unknown`` cards to the seats ``others`` (into ``out``, which
    is overwritten for those seats) and ``hidden`` of them out of play,
    uniformly among the layouts counted in ``W`` (from
    :func:`_layout_counts`).  Returns the generator state."""
    oa, ob, oc = others[0], others[1], others[2]
    out[oa] = 0
    out[ob] = 0
    out[oc] = 0
    a = sizes[oa]
    b = sizes[ob]
    c = sizes[oc]
    cards = np.empty(16, np.int64)
    for s in range(4):
        m = unknown & _SUIT_MASKS[s]
        us = bit_count(m)
        rest = 0
        for s2 in range(s, 4):
            rest += bit_count(unknown & _SUIT_MASKS[s2])
        rest -= a + b
        if hidden == 0:
            c = rest
        d = rest - c
        va = (voids[oa] >> s) & 1
        vb = (voids[ob] >> s) & 1
        vc = (voids[oc] >> s) & 1
        state, r = splitmix64(state)
        x = np.float64(r >> np.uint64(11)) * (1.0 / 9007199254740992.0) * W[s, a, b, c]
        pick_a = -1
        pick_b = -1
        pick_c = -1
        acc = 0.0
        done = False
        for ka in range(min(a, us) + 1):
            if ka > 0 and va:
                break
            for kb in range(min(b, us - ka) + 1):
                if kb > 0 and vb:
                    break
                for kd in range(min(d, us - ka - kb) + 1):
                    kc = us - ka - kb - kd
                    if kc > c or (kc > 0 and vc):
                        continue
                    w = W[s + 1, a - ka, b - kb, c - kc]
                    if w > 0.0:
                        pick_a = ka
                        pick_b = kb
                        pick_c = kc
                        acc += w * _FACT[us] / (_FACT[ka] * _FACT[kb] * _FACT[kc] * _FACT[kd])
                        if acc > x:
                            done = True
                            break
                if done:
                    break
            if done:
                break
        # (rounding: without a pick past x the last feasible one stands)
        n = 0
        while m:
            bb = m & (~m + _ONE)
            m ^= bb
            cards[n] = lowest_bit_index(bb)
            n += 1
        for j in range(n - 1, 0, -1):
            state, k = bounded(state, j + 1)
            t = cards[j]
            cards[j] = cards[k]
            cards[k] = t
        for j in range(n):
            bit = _ONE << np.uint64(cards[j])
            if j < pick_a:
                out[oa] |= bit
            elif j < pick_a + pick_b:
                out[ob] |= bit
            elif j < pick_a + pick_b + pick_c:
                out[oc] |= bit
            # else: out of play (the discard)
        a -= pick_a
        b -= pick_b
        c -= pick_c
    return state


@njit(cache=True, inline="always")
def _turn_state(key, deal_index, turn):
    state = key ^ (np.uint64(deal_index) * _GOLDEN) ^ (np.uint64(turn + 1) * _TURN_MIX)
    state, _ = splitmix64(state)
    return state


@njit(cache=True)
def _sample_kernel(key, index, seat, own, unknown, sizes, voids, n, hidden, turn):
    """``n`` layouts seen from ``seat`` (tests, :func:`sample_hands` and the
    kitty discard, whose draws use ``turn`` -1)."""
    others = np.array([(seat + 1) & 3, (seat + 2) & 3, (seat + 3) & 3], np.int64)
    W = np.zeros((5, _MAXH, _MAXH, _MAXH), np.float64)
    out = np.zeros((n, 4), np.uint64)
    if _layout_counts(unknown, others, sizes, voids, W, hidden) <= 0.0:
        return out, False
    state = _turn_state(key, index, turn)
    h = np.zeros(4, np.uint64)
    for i in range(n):
        state = _draw_layout(state, unknown, others, sizes, voids, W, h, hidden)
        h[seat] = own
        out[i] = h
    return out, True


# --- deciding a card -----------------------------------------------------------------------


@njit(cache=True)
def _card_search(hs, leader, n, led, winner, wcard, tmask, trump, five, three, p, c, total, exact, target, tt_keys,
                 tt_data, log2, stats):
    """Seat ``p`` (to move) plays ``c`` in layout ``hs``.  ``exact``: returns
    (v, v), p's side's exact points from the start of the trick (MTD(f) from
    the guess ``target``).  Else one null-window search testing whether the
    value is at least ``target``: returns (lower, upper) bounds in p's terms."""
    b = _ONE << np.uint64(c)
    ld, w, wc = play_into_trick(n, p, c, led, winner, wcard, trump)
    hs[p] ^= b
    odd = (p & 1) != 0
    if exact:
        g = target if not odd else total - target
        v = node_value(hs, leader, n + 1, ld, w, wc, tmask | b, trump, five, three, total, g, tt_keys, tt_data,
                        log2, stats)
        hs[p] ^= b
        if odd:
            v = total - v
        return v, v
    lo = -3
    hi = total + 3
    if not odd:  # N-S value >= target?
        beta = target
        g = node(hs, leader, n + 1, ld, w, wc, tmask | b, trump, five, three, beta - 1, beta, tt_keys, tt_data,
                  log2, stats)
        if g >= beta:
            lo = g
        else:
            hi = g
    else:  # p's value >= target  <=>  N-S value < total - target + 1
        beta = total - target + 1
        g = node(hs, leader, n + 1, ld, w, wc, tmask | b, trump, five, three, beta - 1, beta, tt_keys, tt_data,
                  log2, stats)
        if g < beta:
            lo = total - g
        else:
            hi = total - g
    hs[p] ^= b
    return lo, hi


@njit(cache=True)
def _decide_pimc(h, leader, n, led, winner, wcard, tmask, trump, five, three, K, state, voids, legal, reps, tt_keys,
                 tt_data, log2, stats, discard, declarer):
    """A PIMC player's card without every exact score: the argmax (ties to
    the lowest card) of the cards' total scores over the ``K`` layouts, from
    exact scores of one reference card a layout and null-window bounds on the
    others, made exact only where the argmax needs it.  Same card as exact
    sums would give."""
    p = (leader + n) & 3
    # representatives in search order (suits down, cards down); run_low: the lowest card each stands for
    rep_cards = np.empty(16, np.int64)
    run_low = np.empty(16, np.int64)
    nr = 0
    for s in range(3, -1, -1):
        m = legal & _SUIT_MASKS[s]
        while m:
            c = highest_bit_index(m)
            b = _ONE << np.uint64(c)
            m ^= b
            if reps & b:
                rep_cards[nr] = c
                nr += 1
            run_low[nr - 1] = c
    others, sizes, unknown, W, hidden = _turn_layouts(h, p, voids, discard, declarer)
    # the distinct layouts drawn and how often
    lay = np.empty((K, 4), np.uint64)
    mult = np.zeros(K, np.int64)
    nl = 0
    hs = np.zeros(4, np.uint64)
    oa, ob = others[0], others[1]
    for _ in range(K):
        state = _draw_layout(state, unknown, others, sizes, voids, W, hs, hidden)
        hs[p] = h[p]
        j = 0
        while j < nl:
            if lay[j, oa] == hs[oa] and lay[j, ob] == hs[ob] and lay[j, others[2]] == hs[others[2]]:
                break
            j += 1
        if j == nl:
            for q in range(4):
                lay[nl, q] = hs[q]
            nl += 1
        mult[j] += 1
    # both sides' points from the start of the trick, per layout (a layout may put a special card in the discard)
    ltot = np.empty(nl, np.int64)
    for j in range(nl):
        for q in range(4):
            hs[q] = lay[j, q]
        ltot[j] = points_left(hs, tmask, p, five, three)
    lo = np.empty((nl, nr), np.int64)
    hi = np.empty((nl, nr), np.int64)
    slo = np.zeros(nr, np.int64)
    for j in range(nl):
        for q in range(4):
            hs[q] = lay[j, q]
        total = ltot[j]
        if j == 0:
            g = total // 2
            for i in range(nr):
                v, _ = _card_search(hs, leader, n, led, winner, wcard, tmask, trump, five, three, p, rep_cards[i],
                                    total, True, g, tt_keys, tt_data, log2, stats)
                lo[j, i] = v
                hi[j, i] = v
                g = v
        else:
            # the reference: the card leading on lower bounds so far, exactly; the others tested against it
            ref = 0
            for i in range(1, nr):
                if slo[i] > slo[ref] or (slo[i] == slo[ref] and run_low[i] < run_low[ref]):
                    ref = i
            vr, _ = _card_search(hs, leader, n, led, winner, wcard, tmask, trump, five, three, p, rep_cards[ref],
                                 total, True, total // 2, tt_keys, tt_data, log2, stats)
            lo[j, ref] = vr
            hi[j, ref] = vr
            for i in range(nr):
                if i != ref:
                    a, z = _card_search(hs, leader, n, led, winner, wcard, tmask, trump, five, three, p,
                                        rep_cards[i], total, False, vr + 1, tt_keys, tt_data, log2, stats)
                    lo[j, i] = a
                    hi[j, i] = z
        for i in range(nr):
            slo[i] += mult[j] * lo[j, i]
    while True:
        best = -1
        bu = 0
        for i in range(nr):
            u = 0
            for j in range(nl):
                u += mult[j] * hi[j, i]
            if best < 0 or u > bu or (u == bu and run_low[i] < run_low[best]):
                best = i
                bu = u
        # make one layout of the leader exact (the widest bounds first), then look again
        jm = -1
        gap = 0
        for j in range(nl):
            d = mult[j] * (hi[j, best] - lo[j, best])
            if d > gap:
                gap = d
                jm = j
        if jm < 0:
            return run_low[best]
        for q in range(4):
            hs[q] = lay[jm, q]
        total = ltot[jm]
        g = hi[jm, best] if hi[jm, best] <= total else lo[jm, best]
        v, _ = _card_search(hs, leader, n, led, winner, wcard, tmask, trump, five, three, p,
                            rep_cards[best], total, True, g, tt_keys, tt_data, log2, stats)
        lo[jm, best] = v
        hi[jm, best] = v


@njit(cache=True)
def _decide(h, leader, n, led, winner, wcard, tmask, trump, five, three, kind, K, state, voids, sums, scores,
            tt_keys, tt_data, log2, stats, discard, declarer, always=False):
    """The card the player to move plays.  ``h``: the real remaining hands;
    a PIMC player reads only its own hand from it, the other hands' sizes
    and the union of the unseen cards.  With ``always`` (:func:`pimc_scores`)
    ``sums[c]`` gets the card's total score over the samples; a DD player
    fills it too (its one score); a PIMC player in play (``always`` false)
    leaves it alone (:func:`_decide_pimc` finds the argmax from bounds).  All
    legal cards equivalent and ``always`` false: the lowest is played unscored.
    Returns the card."""
    p = (leader + n) & 3
    legal = legal_cards(h[p], led)
    present = h[0] | h[1] | h[2] | h[3] | tmask
    reps = representatives(legal, h[p], present, five | three)
    if bit_count(reps) == 1 and not always:
        return lowest_bit_index(legal)  # every legal card is the same card: the lowest
    if kind != DD and not always:
        return _decide_pimc(h, leader, n, led, winner, wcard, tmask, trump, five, three, K, state, voids, legal,
                            reps, tt_keys, tt_data, log2, stats, discard, declarer)
    for c in range(64):
        sums[c] = 0
    if kind == DD:
        score_moves(h, leader, n, led, winner, wcard, tmask, trump, five, three, scores, tt_keys, tt_data, log2,
                    stats)
        m = legal
        while m:
            b = m & (~m + _ONE)
            m ^= b
            c = lowest_bit_index(b)
            sums[c] = scores[c]
    else:
        # every card's exact score on every layout (pimc_scores wants all means; play goes to _decide_pimc)
        others, sizes, unknown, W, hidden = _turn_layouts(h, p, voids, discard, declarer)
        hs = np.zeros(4, np.uint64)
        for _ in range(K):
            state = _draw_layout(state, unknown, others, sizes, voids, W, hs, hidden)
            hs[p] = h[p]
            score_moves(hs, leader, n, led, winner, wcard, tmask, trump, five, three, scores, tt_keys, tt_data,
                        log2, stats)
            m = legal
            while m:
                b = m & (~m + _ONE)
                m ^= b
                c = lowest_bit_index(b)
                sums[c] += scores[c]
    best = -(1 << 40)
    card = -1
    m = legal
    while m:  # ascending card numbers: ties go to the lowest
        b = m & (~m + _ONE)
        m ^= b
        c = lowest_bit_index(b)
        if sums[c] > best:
            best = sums[c]
            card = c
    return card


@njit(cache=True)
def _play_one(deal, declarer, trump, five, three, kinds, K, key, index, plays, trick_ns, tt_keys, tt_data, log2,
              stats, discard, lead):
    """Play one deal out; ``plays`` gets the cards in play order and
    ``trick_ns`` N-S's points of each trick.  ``discard``: the declarer's
    kitty discard (0: none), known to the declarer only.  ``lead``: the
    opening lead, decided already (:func:`_opening_lead`), or -1: the
    declarer decides it here.  Returns N-S's points."""
    h = deal.copy()
    voids = np.zeros(4, np.int64)
    sums = np.zeros(64, np.int64)
    scores = np.zeros(64, np.int64)
    leader = declarer
    ns = 0
    turn = 0
    t = 0
    while h[leader] != 0:
        led = -1
        winner = leader
        wcard = -1
        tmask = np.uint64(0)
        for n in range(4):
            p = (leader + n) & 3
            if turn == 0 and lead >= 0:
                c = lead
            else:
                state = _turn_state(key, index, turn)
                c = _decide(h, leader, n, led, winner, wcard, tmask, trump, five, three, kinds[p], K, state, voids,
                            sums, scores, tt_keys, tt_data, log2, stats, discard, declarer)
            b = _ONE << np.uint64(c)
            if n == 0:
                led = c >> 4
                wcard = c
            else:
                if (c >> 4) != led:
                    voids[p] |= 1 << led
                if beats(c, wcard, trump):
                    wcard = c
                    winner = p
            h[p] ^= b
            tmask |= b
            plays[turn] = c
            turn += 1
        pts = trick_points(tmask, five, three)
        if (winner & 1) == 0:
            ns += pts
            trick_ns[t] = pts
        else:
            trick_ns[t] = 0
        t += 1
        leader = winner
    return ns


@njit(cache=True)
def _opening_lead(deal, declarer, trump, five, three, kind, K, key, index, discard, log2):
    """The declarer's opening lead in deal ``index`` of a run, as
    :func:`_play_one` decides it (the same layouts, the same card), and its
    search nodes.  At that turn the declarer knows only its own hand (and
    its discard), so the card is the same for every deal that gives it the
    same hand: :func:`play_views` with ``lead_group`` decides it once."""
    h = deal.copy()
    voids = np.zeros(4, np.int64)
    sums = np.zeros(64, np.int64)
    scores = np.zeros(64, np.int64)
    tt_keys, tt_data = new_tt(log2)
    stats = np.zeros(STATS_SIZE, np.int64)
    state = _turn_state(key, index, 0)
    c = _decide(h, declarer, 0, -1, declarer, -1, np.uint64(0), trump, five, three, kind, K, state, voids, sums,
                scores, tt_keys, tt_data, log2, stats, discard, declarer)
    return c, stats[0]


@njit(cache=True, parallel=True)
def _opening_leads(deals, declarers, trumps, kinds, K, key, first_index, fives, threes, discards, log2, starts):
    """:func:`_opening_lead` of the deals ``starts`` (rows), in parallel:
    (cards, nodes)."""
    m = starts.shape[0]
    cards = np.zeros(m, np.int64)
    nodes = np.zeros(m, np.int64)
    for j in prange(m):
        i = starts[j]
        d = declarers[i]
        cards[j], nodes[j] = _opening_lead(deals[i], d, trumps[i], fives[i], threes[i], kinds[i, d], K, key,
                                           first_index + i, discards[i], log2)
    return cards, nodes


@njit(cache=True, parallel=True)
def _play_batch(deals, declarers, trumps, kinds, K, key, first_index, fives, threes, discards, log2, nchunks, lead):
    """Kernel of :func:`play_deals`: every deal played out, blocks of deals
    in parallel.  ``lead``: (n,) each deal's opening lead, decided already
    (-1: the deal's declarer decides its own)."""
    n = deals.shape[0]
    ncards = 0
    for q in range(4):
        ncards += bit_count(deals[0, q]) if n else 0
    plays = np.full((n, max(ncards, 1)), -1, np.int8)
    trick_ns = np.zeros((n, max(ncards // 4, 1)), np.int8)
    ns = np.zeros(n, np.int64)
    nodes = np.zeros(nchunks, np.int64)
    for k in prange(nchunks):
        lo = n * k // nchunks
        hi = n * (k + 1) // nchunks
        tt_keys, tt_data = new_tt(log2)
        stats = np.zeros(STATS_SIZE, np.int64)
        pl = np.zeros(64, np.int64)
        tn = np.zeros(16, np.int64)
        for i in range(lo, hi):
            ns[i] = _play_one(deals[i], declarers[i], trumps[i], fives[i], threes[i], kinds[i], K, key, first_index + i,
                              pl, tn, tt_keys, tt_data, log2, stats, discards[i], lead[i])
            for j in range(ncards):
                plays[i, j] = pl[j]
            for j in range(ncards // 4):
                trick_ns[i, j] = tn[j]
        nodes[k] = stats[0]
    return plays, trick_ns, ns, nodes


@njit(cache=True)
def _pimc_scores_kernel(h, leader, trick, ntrick, trump, five, three, voids, K, key, index, turn, tt_keys, tt_data,
                        log2, stats):
    led, winner, wcard, tmask = trick_state(leader, trick, ntrick, trump)
    sums = np.zeros(64, np.int64)
    scores = np.zeros(64, np.int64)
    state = _turn_state(key, index, turn)
    v = voids.copy()
    card = _decide(h, leader, ntrick, led, winner, wcard, tmask, trump, five, three, PIMC, K, state, v, sums, scores,
                   tt_keys, tt_data, log2, stats, np.uint64(0), -1, True)
    return card, sums


# --- public wrappers ---------------------------------------------------------------------------


def _voids_array(voids) -> np.ndarray:
    """``{seat: "SH"}`` / ``{seat: [0, 1]}`` / a (4,) array of suit bitmasks -> (4,) int64."""
    out = np.zeros(4, dtype=np.int64)
    if voids is None:
        return out
    if isinstance(voids, dict):
        for seat, suits in voids.items():
            s = Seat[seat.upper()] if isinstance(seat, str) else Seat(int(seat))
            for x in suits:
                out[s] |= 1 << (int(Strain[x.upper()]) if isinstance(x, str) else int(x))
        return out
    arr = np.asarray(voids, dtype=np.int64)
    if arr.shape != (4,):
        raise ValueError("voids must be 4 suit bitmasks (N, E, S, W)")
    return arr.copy()


def sample_hands(seat, own, unknown, sizes, voids=None, n: int = 1, seed: int = 0, index: int = 0,
                 hidden: int = 0) -> np.ndarray:
    """``n`` layouts of the unseen cards as seat ``seat`` would sample them.

    Parameters
    ----------
    seat : the seat that samples (0..3).
    own : its hand (bitboard); it keeps it in every layout.
    unknown : bitboard of the cards it cannot see (not its own, not played).
    sizes : (4,) number of cards each seat holds (``sizes[seat]`` unused).
    voids : suits each seat has shown out of (:func:`_voids_array` forms).
    n, seed, index : how many layouts; the run's seed and the draw's index.
    hidden : how many of the unseen cards are out of play (a kitty's
        discard, which only the declarer has seen); they go to no seat.

    Returns
    -------
    ``(n, 4)`` uint64 hands.  Every layout of the unseen cards that fits the
    sizes and voids is equally likely (exact constructive sampling, module
    doc).  Raises ``ValueError`` if no layout fits.  Kernel: ``_sample_kernel``.
    """
    sz = np.asarray(sizes, dtype=np.int64)
    others = [(int(seat) + i) % 4 for i in (1, 2, 3)]
    if sum(int(sz[q]) for q in others) + int(hidden) != bin(int(unknown)).count("1"):
        raise ValueError("the other seats' sizes do not add up to the unseen cards")
    if max(int(sz[q]) for q in others) >= _MAXH:
        raise ValueError(f"hands of at most {_MAXH - 1} cards")
    out, ok = _sample_kernel(seed_key(seed), int(index), int(seat), np.uint64(int(own)), np.uint64(int(unknown)), sz,
                             _voids_array(voids), int(n), int(hidden), 0)
    if not ok:
        raise ValueError("no layout of the unseen cards fits the sizes and voids")
    return out


def pimc_scores(hands, leader, strain, trick=(), voids=None, samples: int = config.PIMC_SAMPLES, seed: int = 0, index: int = 0,
                turn: int = 0, mode: str = "points"):
    """A PIMC player's decision at one position.

    ``hands``, ``leader``, ``strain``, ``trick`` as in
    :func:`kaiser_sim.dd.midtrick.solve_mid` (the real hands: the player reads only
    its own, the others' sizes and the unseen cards); ``voids`` the suits each
    seat has shown out of.  Returns ``(card, {card: mean score})``: the card
    played and, for each legal card, its mean double-dummy score over the
    ``samples`` layouts (points for the mover's side from the start of the
    trick).  Kernel: ``_pimc_scores_kernel``.
    """
    if not 1 <= samples <= config.PIMC_MAX_SAMPLES:
        raise ValueError(f"samples must be from 1 to {config.PIMC_MAX_SAMPLES} (got {samples})")
    h, lead, cards, n = read_position(hands, leader, trick)
    f, t = special_bits(mode)
    keys, data = new_tt(config.TT_LOG2_ENTRIES)
    stats = np.zeros(STATS_SIZE, dtype=np.int64)
    card, sums = _pimc_scores_kernel(h, lead, cards, n, int(strain), f, t, _voids_array(voids), int(samples),
                                     seed_key(seed), int(index), int(turn), keys, data, config.TT_LOG2_ENTRIES, stats)
    p = (lead + n) % 4
    legal = _legal_mask_py(int(h[p]), cards[0] >> 4 if n else -1)
    return int(card), {c: sums[c] / samples for c in legal}


def _legal_mask_py(hand: int, led: int) -> list[int]:
    follow = hand & (0xFFFF << (16 * led)) if led >= 0 else 0
    m = follow or hand
    return [c for c in range(64) if m >> c & 1]


def _kinds(declarers, declarer: str, defenders: str) -> np.ndarray:
    for name, v in (("declarer", declarer), ("defenders", defenders)):
        if v not in PLAYER_KINDS:
            raise ValueError(f"{name} must be one of {', '.join(PLAYER_KINDS)}, got {v!r}")
    d, f = PLAYER_KINDS[declarer], PLAYER_KINDS[defenders]
    side = (np.asarray(declarers, dtype=np.int64) & 1)[:, None]
    seats = np.arange(4, dtype=np.int64)[None, :]
    return np.where((seats & 1) == side, d, f).astype(np.int64)


# --- the kitty: the declarer's discard ------------------------------------------------------------


def discard_candidates(hand: int, k: int, five: int, three: int, specials_allowed: bool) -> list[int]:
    """The discards a PIMC declarer considers: ``k`` cards of ``hand`` (bits
    as the solver sees them: a higher bit wins) that are, in each suit, the
    lowest cards of the suit other than the 5H and 3S, plus either special
    card where the rules let it be discarded.  Each discard is a card mask;
    they come ordered by the ranks thrown (lowest first), so a tie goes to
    the cheaper-looking discard."""
    hand = int(hand)
    special = int(five) | int(three)
    suits = []
    for s in range(4):
        cards = [c for c in range(16 * s, 16 * s + 16) if hand >> c & 1 and not (special >> c) & 1]
        suits.append(cards)  # ascending: weakest first
    specials = [c for c in range(64) if hand >> c & 1 and (special >> c) & 1] if specials_allowed else []
    out = []

    def rec(s: int, left: int, mask: int):
        if s == 4:
            if left == 0:
                out.append(mask)
            return
        for j in range(min(left, len(suits[s])) + 1):
            rec(s + 1, left - j, mask | sum(1 << c for c in suits[s][:j]))

    for pick in range(1 << len(specials)):
        chosen = [c for i, c in enumerate(specials) if pick >> i & 1]
        if len(chosen) <= k:
            rec(0, k - len(chosen), sum(1 << c for c in chosen))
    out = sorted(set(out), key=lambda m: (sum(c & 15 for c in range(64) if m >> c & 1), m))
    return out


def discard_by_samples(view, declarer: int, k: int, trump: int, five: int, three: int, specials_allowed: bool,
                       counts: bool, *, samples: int = config.PIMC_DISCARD_SAMPLES, seed: int = 0,
                       index: int = 0) -> int:
    """The kitty discard of a PIMC declarer, on the hands as the solver sees
    them (``view``: the declarer holds its hand and the kitty; a higher bit
    wins; ``five`` / ``three`` the special cards' bits).

    The declarer sees only its own cards.  It deals the cards it cannot see
    to the other three hands ``samples`` times (uniformly: no voids are
    known yet), scores every discard of ``k`` cards of
    :func:`discard_candidates` double dummy on every layout (its side's
    points with the declarer on lead in ``trump``, plus a discarded special
    card's points when ``counts``), and keeps the discard with the best
    total (ties: the first candidate).  Returns the discard (a card mask in
    the view's layout).  The draws are seeded from (``seed``, ``index``)."""
    from . import api

    view = np.asarray(view, dtype=np.uint64)
    decl = int(declarer)
    five, three = int(five), int(three)
    own = int(view[decl])
    unknown = 0
    for q in range(4):
        if q != decl:
            unknown |= int(view[q])
    sizes = np.array([bin(int(x)).count("1") for x in view], dtype=np.int64)
    lay, ok = _sample_kernel(seed_key(seed), int(index), decl, np.uint64(own), np.uint64(unknown), sizes,
                             np.zeros(4, np.int64), int(samples), 0, -1)
    if not ok:
        raise ValueError("no layout of the unseen cards")
    cands = discard_candidates(own, int(k), five, three, specials_allowed)
    if not cands:
        raise ValueError("no legal discard (too many cards the declarer may not discard)")
    offset = np.array([((5 if d & five else 0) - (3 if d & three else 0)) if counts else 0 for d in cands])
    pos = np.repeat(lay, len(cands), axis=0)
    pos[:, decl] = np.tile(np.array([own & ~d for d in cands], dtype=np.uint64), len(lay))
    v = api.dd_contracts(pos, np.full(len(pos), decl), np.full(len(pos), int(trump)), "points", threads=1, five=five,
                         three=three).astype(np.int64).reshape(len(lay), len(cands))
    total = v.sum(axis=0) + len(lay) * offset
    return int(cands[int(np.argmax(total))])


def play_views(view, declarers, trumps, fives, threes, discards, *, declarer: str = "pimc", defenders: str = "pimc",
               samples: int = config.PIMC_SAMPLES, seed: int = 0, start: int = 0, threads: int | None = None,
               lead_group: int = 1):
    """Play deals out as the solver sees them, declarer leading, each side
    PIMC or double dummy (the standard game's play: no rules object).

    ``view`` (n, 4) uint64 hands (a kitty already taken up and discarded; a
    higher bit wins), ``declarers`` (n,) seats on lead, ``trumps`` (n,)
    0..3 trump suit or 4 no trump, ``fives`` / ``threes`` (n,) the special
    cards' bits (0: the card counts nothing), ``discards`` (n,) the cards
    the declarer put away (only it knows them; 0 for none).  Deal
    ``start + i`` of a run plays the same whatever the batch.

    ``lead_group``: deals ``g * lead_group`` .. ``(g + 1) * lead_group - 1``
    of the batch share one opening lead when they give a PIMC declarer the
    same seat, cards, discard, trump and special cards (the hand advisor's
    own play: one hand, many deals of the others): the declarer then knows
    the same at that turn in each of them, so the lead is decided once, on
    the group's first deal's layouts (:func:`_opening_lead`), and played in
    all of them.  The first deal of a group plays exactly as with 1 (the
    default: every deal its own lead); the others lead that card instead of
    one drawn on their own layouts (still a PIMC lead on K uniform layouts,
    but one draw for the group: their results are no longer independent).
    Groups that differ play as with 1.  The opening lead was about a third
    of a 48-deal play check's nodes (docs/solver.md §6).

    Returns ``(plays, trick_ns, ns, nodes)``: the cards in play order
    (n, 4 x tricks) int8 in the view's card numbers, N-S's points from each
    trick, N-S's trick points, search nodes a deal.  Kernel: ``_play_batch``.
    """
    view = np.ascontiguousarray(view, dtype=np.uint64)
    dec = np.ascontiguousarray(declarers, dtype=np.int64).reshape(-1)
    if not 1 <= samples <= config.PIMC_MAX_SAMPLES:
        raise ValueError(f"samples must be from 1 to {config.PIMC_MAX_SAMPLES} (got {samples})")
    kinds = _kinds(dec, declarer, defenders)
    n = view.shape[0]
    nthreads = numba.get_num_threads() if threads is None else int(threads)
    nthreads = max(1, min(nthreads, numba.config.NUMBA_NUM_THREADS))
    nchunks = n if nthreads > 1 else 1
    trumps = np.ascontiguousarray(trumps, dtype=np.int64)
    fives = np.ascontiguousarray(fives, dtype=np.uint64)
    threes = np.ascontiguousarray(threes, dtype=np.uint64)
    discards = np.ascontiguousarray(discards, dtype=np.uint64)
    lead = np.full(n, -1, dtype=np.int64)
    group = max(1, int(lead_group))
    starts = [a for a in range(0, n if group > 1 else 0, group)
              if min(n, a + group) - a > 1 and _same_opening(*(x[a:a + group] for x in (view, dec, trumps, fives, threes,
                                                                                         discards, kinds)))]
    lead_nodes = 0
    prev = numba.get_num_threads()
    numba.set_num_threads(nthreads)
    prev_chunk = numba.set_parallel_chunksize(1)
    try:
        if starts:
            cards, knodes = _opening_leads(view, dec, trumps, kinds, int(samples), seed_key(seed), int(start), fives,
                                           threes, discards, config.TT_LOG2_ENTRIES, np.array(starts, dtype=np.int64))
            for a, c in zip(starts, cards):
                lead[a:a + group] = c
            lead_nodes = int(knodes.sum())
        plays, trick_ns, ns, nodes = _play_batch(view, dec, trumps, kinds, int(samples), seed_key(seed), int(start),
                                                 fives, threes, discards, config.TT_LOG2_ENTRIES, nchunks, lead)
    finally:
        numba.set_parallel_chunksize(prev_chunk)
        numba.set_num_threads(prev)
    nodes[0] += lead_nodes
    return plays, trick_ns, ns, nodes


def _same_opening(view, dec, trumps, fives, threes, discards, kinds) -> bool:
    """Whether a PIMC declarer knows the same at every deal's opening lead:
    the same seat, cards, discard, trump and special cards."""
    d = int(dec[0])
    return bool((dec == d).all() and (view[:, d] == view[0, d]).all() and (trumps == trumps[0]).all()
                and (fives == fives[0]).all() and (threes == threes[0]).all() and (discards == discards[0]).all()
                and bool((kinds[:, d] == PIMC).all()))


__all__ = ["DD", "PIMC", "PLAYER_KINDS", "play_views", "discard_by_samples", "discard_candidates", "pimc_scores",
           "sample_hands"]

"""The alpha-beta search and its drivers: one solve, and tables in parallel.

How the search works
--------------------
One jitted, *iterative* alpha-beta (an explicit stack of plies instead of
recursion: self-recursive numba functions cannot be cached, see
docs/solver.md pitfall 1, and the explicit stack avoids per-call argument
overhead).  Values inside the search are North-South's points from the start
of the current trick onward; N-S maximise, E-W minimise.  :func:`search`
starts at a trick boundary; :func:`search_mid`, the same kernel, also inside
a trick (the cards on the table fill the first rows of the stack:
:mod:`kaiser_sim.dd.midtrick`'s positions and the PIMC players' scores).
Cards adjacent in rank in one hand are equivalent and tried once, except the
5H and the 3S, which are never interchangeable with a neighbour in points
mode.  The sound bounds of :mod:`kaiser_sim.dd.bounds` are checked before
the transposition table (:mod:`kaiser_sim.dd.tt`) is probed; two-trick
endings are solved directly (:func:`kaiser_sim.dd.endgame.solve_two`).
Leads try first the ply's "killer" (the card that last refuted a sibling
line after the first move failed); then all moves follow rules of play
(cash winners, lead to partner's winner, a suit an opponent ruffs last,
second hand plays low -- and drops the 5H -- when its partner takes the
trick anyway, else wins only what the third hand cannot beat, ...), the
killer breaking near ties after the lead.

Drivers: :func:`solve_value` (MTD(f), null-window searches closing in on the
value), :func:`can_reach_kernel` (one null-window search), and the parallel
table kernels :func:`dd_table_kernel`, :func:`dd_table_both_kernel`,
:func:`dd_contracts_kernel` (blocks of deals, a transposition table each;
the public wrappers in :mod:`kaiser_sim.dd.api` call them).

Relaxed scorings (the ladder of ``dd_table(mode="both")``)
-----------------------------------------------------------
Tricks, "5H only" (the 3S an ordinary card) and points are one game tree
with different payoffs: at every leaf N-S's points are their tricks -3..+5
(-3 only while the 3S is in play, +5 only while the 5H is) and their
5H-only points -3..0, so minimax keeps T - 3[3S] <= P <= T + 5[5H] and
F - 3[3S] <= P <= F at every position, and a winning-ranks entry's bounds
carry over to every position it matches.  A bucket is therefore hashed
without the specials' fields of the flags (``tt.CORE_FLAGS``): all scorings
of a position share it, and the scan takes an entry whose specials are a
subset of the node's (same owners) with its bounds widened by those
offsets.  An entry stored after a special fell is such a relaxed entry too,
so plain points searches gain from it as well (-9% nodes).
:func:`dd_table_both_kernel` solves each strain's tricks, then 5H-only, then
points values in one table, each root starting inside the bounds of the one
before (measured on 200 deals, seed 2024: points 2,834 -> 1,475 nodes a
solve, for a 5H-only pass of 680; with the tricks table 3,308 nodes against
3,987 for the two separate tables).
"""

from __future__ import annotations

import os

import numpy as np
from numba import njit, prange

from ..cards import SUIT_MASK
from . import _jit_cache
from .bits import (INF, above_in_suit, beats, bit_count, card_bit, highest_bit_index, ix, lowest_bit_index, prefetch,
                   rank_win, trick_points)
from .bounds import (cash_spares_3s, cash_takes_5h, quick_tricks, side_floor, special_captor,
                     sure_trump_tricks)
from .endgame import solve_two
from .tt import (BUCKET, BUCKET_LOG2, CORE_FLAGS, F3_FLAGS, F5_FLAGS, TT_HI, TT_LO, mask_region, new_tt, pos_desc,
                 tt_slot, wr_mask)

# the kernels below carry compiled copies of these files' kernels: recompile them when those change
_jit_cache.depends_on(__file__, *_jit_cache.package_files("cards.py", "dd/bits.py", "dd/tt.py", "dd/bounds.py",
                                                          "dd/endgame.py"))

_ONE = np.uint64(1)
_SUIT_MASKS = SUIT_MASK  # read-only module-level table, frozen into the kernels


# Search counters, ``stats`` array of every kernel (diagnostics for benchmarks):
# [0] nodes; [1+pos] cut-offs by the first move tried, [5+pos] by a later one
# (pos = place in the trick 0..3); [9+pos] nodes by place in the trick;
# [16+r] nodes by tricks remaining r; [25] TT probes, [26] TT hits,
# [27] TT hits that cut, [28] trick-boundary nodes cut by TT or bounds;
# [29] null-window passes; [30] moves skipped by "lowest win"; [31] TT
# stores; [32] two-trick endings solved (solve_two); [33] trick-start bounds
# computed.
STATS_SIZE = 40
#: count everything but [0] and [29] too: a compile-time constant (off, the
#: counters cost nothing), on with the environment variable
#: KAISER_SIM_DD_DIAGNOSTICS=1, which needs a NUMBA_CACHE_DIR of its own
#: (numba's cache does not know the setting; ``benchmarks/solver_phases.py
#: --counts`` runs it so)
_DIAGNOSTICS = os.environ.get("KAISER_SIM_DD_DIAGNOSTICS") == "1"
if _DIAGNOSTICS and not os.environ.get("NUMBA_CACHE_DIR"):
    raise RuntimeError("KAISER_SIM_DD_DIAGNOSTICS=1 needs its own NUMBA_CACHE_DIR: the counting kernels "
                       "must not replace the cached fast ones")


@njit(cache=True, inline="always")
def _best_reply(hand, ls, trump):
    """The best card ``hand`` can play to a trick led in suit ``ls`` (its
    highest card of the suit, else its highest trump), -1 if it holds
    neither."""
    f = hand & _SUIT_MASKS[ix(ls)]
    if f:
        return highest_bit_index(f)
    if trump != 4 and (hand & _SUIT_MASKS[ix(trump)]):
        return highest_bit_index(hand & _SUIT_MASKS[ix(trump)])
    return -1


_ENTER, _NEXT, _RETURN = 0, 1, 2

# Per-ply state of search, fields of one row of its int64 array PLY: the
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
# code; see pos_desc) and the winning ranks of its children so far
_LENS, _FLAGS, _CODE, _WR = range(4)
_PLYU = 4


@njit(cache=True, inline="always")
def search(hands_in, leader, trump, five, three, alpha0, beta0, tt_keys, tt_data, log2, stats, gen):
    """Fail-soft alpha-beta over N-S points with the window (alpha0, beta0),
    from a trick boundary with ``leader`` on lead: ``search_mid`` with no
    card on the table."""
    return search_mid(hands_in, leader, trump, five, three, alpha0, beta0, tt_keys, tt_data, log2, stats, gen,
                      0, np.uint64(0), 0, 0, 0)


@njit(cache=True)
def search_mid(hands_in, leader, trump, five, three, alpha0, beta0, tt_keys, tt_data, log2, stats, gen,
               n0, tmask, led, winner, wcard):
    """Fail-soft alpha-beta over N-S points with the window (alpha0, beta0).

    The position: ``hands_in`` the cards still in the hands, ``leader`` the
    seat that led the current trick and ``n0`` (0..3) cards already played
    to it (``tmask``; ``led`` their suit, ``winner`` / ``wcard`` the seat
    and card winning it so far; all unused when ``n0`` is 0).  Values count
    the current trick in full, as from its start (``midtrick``'s
    positions: the rest of the trick is searched with the same move
    ordering, killers and "lowest win" as every other trick).

    Returns N-S's points from this trick boundary on when that value lies
    strictly inside the window, else a bound on the correct side of it.
    ``stats[0]`` counts the nodes visited.  The recursion is an explicit
    stack of plies, so this kernel can be cached (docs/solver.md pitfall 1).
    ``gen`` is the table's generation: entries stored under another one are
    never matched and are overwritten first (0 for a table whose entries all
    stay of use, as in ``midtrick``).
    """
    h = hands_in.copy()
    genu = np.uint64(gen)
    ntricks = bit_count(h[ix((leader + n0) & 3)])  # (the current trick included)
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
            cj = lowest_bit_index(tmask & _SUIT_MASKS[ix(led)]) if j == 0 else lowest_bit_index(rest)
            rest &= ~card_bit(cj)
            PLY[ix(j * _PLY + _CARD)] = cj
            PLY[ix(j * _PLY + _PL)] = (leader + j) & 3
        PLY[ix((n0 - 1) * _PLY + _WIN)] = winner
        PLY[ix((n0 - 1) * _PLY + _WCARD)] = wcard
    PLY[ix(d * _PLY + _PL)] = (leader + n0) & 3
    PLY[ix(d * _PLY + _A)] = alpha0
    PLY[ix(d * _PLY + _B)] = beta0
    state = _ENTER
    finished = False  # the node being returned from is done: store it
    v = 0
    # (array indices go through ix: unsigned, so numba skips its wrap-around
    # test at each of the many accesses per node)
    while True:
        if state == _ENTER:
            stats[0] += 1
            if _DIAGNOSTICS:
                stats[ix(9 + (d & 3))] += 1
                stats[ix(16 + ntricks - (d >> 2))] += 1
            p = PLY[ix(d * _PLY + _PL)]
            pos = d & 3
            a = PLY[ix(d * _PLY + _A)]
            b = PLY[ix(d * _PLY + _B)]
            PLY[ix(d * _PLY + _SLOT)] = -1
            PLYU[ix(d * _PLYU + _WR)] = np.uint64(0)
            state = _NEXT
            if pos == 0:
                r = ntricks - (d >> 2)
                if r == 2:
                    # a window the points two tricks can bring either side
                    # already close (a trick just taken decided it): the
                    # bound holds in every position, so no card's rank
                    # matters -- a more general table entry above than the
                    # exact result with its ranks (measured: fewer nodes)
                    un2 = h[0] | h[1] | h[2] | h[3]
                    lo2 = 0
                    hi2 = 2
                    if un2 & five:
                        hi2 += 5
                    if un2 & three:
                        lo2 = -2
                        hi2 -= 1
                    if lo2 >= b or hi2 <= a:
                        v = lo2 if lo2 >= b else hi2
                        rw = np.uint64(0)
                        state = _RETURN
                        continue
                    if _DIAGNOSTICS:
                        stats[32] += 1
                    v, rw = solve_two(h[ix(p)], h[ix((p + 1) & 3)], h[ix((p + 2) & 3)], h[ix((p + 3) & 3)],
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
                    wc = lowest_bit_index(h[ix(p)])
                    ws = p
                    allc = h[ix(p)]
                    for i in range(1, 4):
                        q = (p + i) & 3
                        c = lowest_bit_index(h[ix(q)])
                        allc |= h[ix(q)]
                        if beats(c, wc, trump):
                            wc = c
                            ws = q
                    v = trick_points(allc, five, three) if (ws & 1) == 0 else 0
                    rw = np.uint64(0)
                    if (h[ix((ws + 1) & 3)] | h[ix((ws + 3) & 3)]) & _SUIT_MASKS[ix(wc >> 4)]:
                        rw = card_bit(wc)
                    state = _RETURN
                    continue
                if _DIAGNOSTICS:
                    stats[33] += 1
                union = h[0] | h[1] | h[2] | h[3]
                # the position's key and table bucket first, and the bucket's
                # keys prefetched: the bounds below then hide the memory's
                # latency (measured: the probe's first load of the bucket
                # was the search's costliest instruction)
                lens, flags, code = pos_desc(h[0], h[1], h[2], h[3], p, trump, five, three, genu)
                base = tt_slot(lens, flags & CORE_FLAGS, log2 - BUCKET_LOG2)
                kb = np.uint64(4 * BUCKET) * np.uint64(base)
                prefetch(tt_keys, kb)
                prefetch(tt_keys, kb + np.uint64(8))
                prefetch(tt_keys, kb + np.uint64(16))
                prefetch(tt_keys, kb + np.uint64(24))
                prefetch(tt_keys, kb + np.uint64(31))
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
                # (see side_floor), more when a special's fate is certain.
                # (the helpers take the hands one by one: an array argument
                # costs reference counting on every call, a tuple looked up
                # by a variable seat compiles to branches)
                h0 = h[0]
                h1 = h[1]
                h2 = h[2]
                h3 = h[3]
                # the hands in playing order from the leader
                x0 = h[ix(p)]
                x1 = h[ix((p + 1) & 3)]
                x2 = h[ix((p + 2) & 3)]
                x3 = h[ix((p + 3) & 3)]
                qt, wqt, one_hand = quick_tricks(x0, x1, x2, x3, trump, three)
                st_ns, wns = sure_trump_tricks(h0, h2, union, trump)
                st_ew, wew = sure_trump_tricks(h1, h3, union, trump)
                # is the lead's cash plan its side's sure count (the fate of
                # the specials below is that of the plan's tricks)?
                by_cash = one_hand and qt > 0 and qt >= (st_ns if (p & 1) == 0 else st_ew)
                spared = t_in and by_cash and cash_spares_3s(wqt, x0, x1, x2, x3, three, r)
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
                fdet = special_captor(h0, h1, h2, h3, five, trump) if f_in else -1
                tdet = special_captor(h0, h1, h2, h3, three, trump) if t_in else -1
                f_lead = fdet == (p & 1)
                if f_in and by_cash and cash_takes_5h(wqt, x0, x1, x2, x3, five, r):
                    f_lead = True  # the lead's cash plan wins the 5H's trick
                f_ns = fdet == 0 or (f_lead and (p & 1) == 0)
                f_ew = fdet == 1 or (f_lead and (p & 1) == 1)
                ns_floor = side_floor(ns_sure, f_ns, tdet == 0, t_in and tdet != 1, spared and (p & 1) == 0)
                ew_floor = side_floor(ew_sure, f_ew, tdet == 1, t_in and tdet != 0, spared and (p & 1) == 1)
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
                PLY[ix(d * _PLY + _SLOT)] = base
                PLYU[ix(d * _PLYU + _LENS)] = lens
                PLYU[ix(d * _PLYU + _FLAGS)] = flags
                PLYU[ix(d * _PLYU + _CODE)] = code
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
                for e in range(BUCKET):
                    x = (tt_keys[ix(kr * BUCKET + e)] ^ lens) | ((tt_keys[ix((kr + 1) * BUCKET + e)] ^ flags)
                                                                 & CORE_FLAGS)
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
                    ef = tt_keys[ix((kr + 1) * BUCKET + e)]
                    dlo = 0
                    dhi = 0
                    if ef != flags:
                        if (ef ^ flags) & F5_FLAGS:
                            if ef & F5_FLAGS:
                                continue  # another owner, or not ours
                            dhi = 5
                        if (ef ^ flags) & F3_FLAGS:
                            if ef & F3_FLAGS:
                                continue
                            dlo = -3
                    if ((tt_keys[ix((kr + 2) * BUCKET + e)] ^ code) & tt_keys[ix((kr + 3) * BUCKET + e)]) == 0:
                        hit = True
                        if tt_data[ix((dr + TT_LO) * BUCKET + e)] + dlo > lo:
                            lo = tt_data[ix((dr + TT_LO) * BUCKET + e)] + dlo
                            mlo = tt_keys[ix((kr + 3) * BUCKET + e)]
                            wlo = np.uint64(0)
                        if tt_data[ix((dr + TT_HI) * BUCKET + e)] + dhi < hi:
                            hi = tt_data[ix((dr + TT_HI) * BUCKET + e)] + dhi
                            mhi = tt_keys[ix((kr + 3) * BUCKET + e)]
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
                        rw = wlo | mask_region(union, mlo)
                    elif hi <= a:
                        v = hi
                        rw = whi | mask_region(union, mhi)
                    else:
                        v = lo
                        rw = wlo | whi | mask_region(union, mlo | mhi)
                    state = _RETURN
                    continue
                # narrow the window to what is still unknown (pitfall 4: an
                # empty window has returned above)
                if lo > a:
                    a = lo
                if hi < b:
                    b = hi
                PLY[ix(d * _PLY + _A)] = a
                PLY[ix(d * _PLY + _B)] = b
            PLY[ix(d * _PLY + _A0)] = a
            PLY[ix(d * _PLY + _B0)] = b
            # ---- generate the moves, one per run of equivalent cards, ordered ----
            mine = h[ix(p)]
            if pos == 0:
                cand = mine
                ws = -1
                wc = -1
            else:
                ls = PLY[ix((d - pos) * _PLY + _CARD)] >> 4
                ws = PLY[ix((d - 1) * _PLY + _WIN)]
                wc = PLY[ix((d - 1) * _PLY + _WCARD)]
                follow = mine & _SUIT_MASKS[ix(ls)]
                cand = follow if follow else mine
            present = h[0] | h[1] | h[2] | h[3] | table
            partner_wins = ws >= 0 and ((ws ^ p) & 1) == 0
            lho = h[ix((p + 1) & 3)]
            partner = h[ix((p + 2) & 3)]
            rho = h[ix((p + 3) & 3)]
            next_top = -1  # the best card the next hand can play to this trick
            if pos == 2 or pos == 1:
                next_top = _best_reply(lho, ls, trump)
            # second hand: will our partner (last to play) take the trick
            # whatever the third hand does?  Then we play low, and the 5H
            partner_takes = False
            if pos == 1:
                last_top = _best_reply(partner, ls, trump)
                partner_takes = (last_top >= 0 and beats(last_top, wc, trump)
                                 and (next_top < 0 or beats(last_top, next_top, trump)))
            n = 0
            # keep only the lowest card of each run of our cards with no other
            # remaining card between them; the 5H and 3S stand alone: a card
            # is dropped when the remaining card just below it in its suit is
            # ours too, and neither is special (no pext: see above_in_suit)
            if cand & (cand - _ONE):  # (a forced card has nothing to drop)
                plain = mine & ~special
                cand &= ~(plain & above_in_suit(plain, present))
            while cand:
                c = lowest_bit_index(cand)
                cb = card_bit(c)
                cand ^= cb
                sm = _SUIT_MASKS[ix(c >> 4)]
                rank = c & 15
                s = c >> 4
                if pos == 0:
                    top = highest_bit_index(present & sm)
                    if (present & sm & ~((cb << _ONE) - _ONE) & ~mine) == 0:
                        sc = 60 + rank  # cash a winner (every card above it is ours)
                    elif partner & card_bit(top):
                        sc = 40 - rank  # lead low to partner's winner
                        if cb & three:
                            sc = -20  # not the 3S: partner would take it
                    else:
                        sc = 20 - rank
                        # will partner take the trick whatever the opponents
                        # play (follow or ruff)?  Then lead low, or the 5H
                        ob = _best_reply(lho, s, trump)
                        o2 = _best_reply(rho, s, trump)
                        if ob < 0 or (o2 >= 0 and beats(o2, ob, trump)):
                            ob = o2
                        pb = _best_reply(partner, s, trump)
                        if pb >= 0 and beats(pb, c, trump) and (ob < 0 or beats(pb, ob, trump)):
                            sc = 40 - rank
                            if cb & three:
                                sc = -20
                            elif cb & five:
                                sc = 90
                        elif cb & five and ob >= 0:
                            sc = -40  # not the 5H where an opponent may take it
                    if trump != 4 and s != trump:
                        tm = _SUIT_MASKS[ix(trump)]
                        if ((lho & sm) == 0 and (lho & tm)) or ((rho & sm) == 0 and (rho & tm)):
                            sc -= 60  # an opponent ruffs
                        elif (partner & sm) == 0 and (partner & tm):
                            sc += 45  # partner ruffs
                    elif trump != 4 and ((lho | rho) & _SUIT_MASKS[ix(trump)]) == 0:
                        sc -= 80  # a trump lead that draws no opponent's trump
                elif pos == 2:
                    # third hand: is the trick safe from the last hand?
                    wins = beats(c, wc, trump)
                    ours = wins or partner_wins
                    cur = c if wins else wc
                    safe = ours and (next_top < 0 or not beats(next_top, cur, trump))
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
                    wins = beats(c, wc, trump)
                    tp = trick_points(table | cb, five, three)
                    if wins or partner_wins:
                        sc = 20 * tp - rank
                        if wins and partner_wins:
                            sc -= 10  # no need to overtake partner
                    else:
                        sc = -20 * tp - rank
                else:
                    # second hand: the leader's partner plays next, ours last
                    wins = beats(c, wc, trump)
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
                        if next_top < 0 or not beats(next_top, c, trump):
                            sc = 60 - rank  # a win the third hand cannot beat
                        else:
                            sc = 45 - rank
                    else:
                        sc = 30 - rank
                if c == PLY[ix(d * _PLY + _KILLER)]:
                    # a refutation found at this ply in a sibling line is
                    # likely to refute here too ("killer" move); a lead goes
                    # first, elsewhere it only breaks near ties of the rules
                    # above (measured)
                    sc += 1500 if pos == 0 else 20
                j = n
                while j > 0 and SC[ix(j - 1)] < sc:
                    SC[ix(j)] = SC[ix(j - 1)]
                    PLY[ix(d * _PLY + _MV + j)] = PLY[ix(d * _PLY + _MV + j - 1)]
                    j -= 1
                SC[ix(j)] = sc
                PLY[ix(d * _PLY + _MV + j)] = c
                n += 1
            PLY[ix(d * _PLY + _NM)] = n
            PLY[ix(d * _PLY + _MI)] = 0
            PLY[ix(d * _PLY + _LW + 0)] = 0
            PLY[ix(d * _PLY + _LW + 1)] = 0
            PLY[ix(d * _PLY + _LW + 2)] = 0
            PLY[ix(d * _PLY + _LW + 3)] = 0
            PLY[ix(d * _PLY + _BEST)] = -INF if (p & 1) == 0 else INF

        elif state == _NEXT:
            i = PLY[ix(d * _PLY + _MI)]
            # "lowest win" (as DDS): a card below every card whose rank an
            # earlier refuted move of its suit relied on is refuted the same way
            while i < PLY[ix(d * _PLY + _NM)]:
                c = PLY[ix(d * _PLY + _MV + i)]
                if c < PLY[ix(d * _PLY + _LW + (c >> 4))] and (card_bit(c) & special) == 0:
                    i += 1
                    if _DIAGNOSTICS:
                        stats[30] += 1
                else:
                    break
            PLY[ix(d * _PLY + _MI)] = i
            if i < PLY[ix(d * _PLY + _NM)]:
                PLY[ix(d * _PLY + _MI)] = i + 1
                c = PLY[ix(d * _PLY + _MV + i)]
                cb = card_bit(c)
                p = PLY[ix(d * _PLY + _PL)]
                pos = d & 3
                h[ix(p)] ^= cb
                PLY[ix(d * _PLY + _CARD)] = c
                if pos == 0 or beats(c, PLY[ix((d - 1) * _PLY + _WCARD)], trump):
                    PLY[ix(d * _PLY + _WIN)] = p
                    PLY[ix(d * _PLY + _WCARD)] = c
                else:
                    PLY[ix(d * _PLY + _WIN)] = PLY[ix((d - 1) * _PLY + _WIN)]
                    PLY[ix(d * _PLY + _WCARD)] = PLY[ix((d - 1) * _PLY + _WCARD)]
                if pos == 3:
                    trick = table | cb
                    ws = PLY[ix(d * _PLY + _WIN)]
                    tp = trick_points(trick, five, three) if (ws & 1) == 0 else 0
                    PLY[ix(d * _PLY + _TPNS)] = tp
                    table = np.uint64(0)
                    PLY[ix((d + 1) * _PLY + _PL)] = ws
                    PLY[ix((d + 1) * _PLY + _A)] = PLY[ix(d * _PLY + _A)] - tp
                    PLY[ix((d + 1) * _PLY + _B)] = PLY[ix(d * _PLY + _B)] - tp
                else:
                    table |= cb
                    PLY[ix(d * _PLY + _TPNS)] = 0
                    PLY[ix((d + 1) * _PLY + _PL)] = (p + 1) & 3
                    PLY[ix((d + 1) * _PLY + _A)] = PLY[ix(d * _PLY + _A)]
                    PLY[ix((d + 1) * _PLY + _B)] = PLY[ix(d * _PLY + _B)]
                d += 1
                state = _ENTER
            else:
                v = PLY[ix(d * _PLY + _BEST)]
                rw = PLYU[ix(d * _PLYU + _WR)]
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
                base = PLY[ix(d * _PLY + _SLOT)]
                if base >= 0:
                    if _DIAGNOSTICS:
                        stats[31] += 1
                    union = h[0] | h[1] | h[2] | h[3]
                    mask = wr_mask(union, rw, special)
                    ecode = PLYU[ix(d * _PLYU + _CODE)] & mask
                    lens = PLYU[ix(d * _PLYU + _LENS)]
                    flags = PLYU[ix(d * _PLYU + _FLAGS)]
                    kr = 4 * base
                    dr = 2 * base
                    same = 0
                    empty = 0
                    for i in range(BUCKET):
                        x = ((tt_keys[ix(kr * BUCKET + i)] ^ lens) | (tt_keys[ix((kr + 1) * BUCKET + i)] ^ flags)
                             | (tt_keys[ix((kr + 2) * BUCKET + i)] ^ ecode) | (tt_keys[ix((kr + 3) * BUCKET + i)] ^ mask))
                        same |= (1 if x == 0 else 0) << i
                        # free: never used, or used by another generation
                        empty |= (1 if (tt_keys[ix((kr + 1) * BUCKET + i)] >> np.uint64(12)) != genu
                                  or tt_keys[ix((kr + 1) * BUCKET + i)] == 0 else 0) << i
                    if same:
                        e = lowest_bit_index(same)
                    else:
                        if empty:
                            e = lowest_bit_index(empty)
                        else:
                            e = stats[0] & (BUCKET - 1)
                        tt_keys[ix(kr * BUCKET + e)] = lens
                        tt_keys[ix((kr + 1) * BUCKET + e)] = flags
                        tt_keys[ix((kr + 2) * BUCKET + e)] = ecode
                        tt_keys[ix((kr + 3) * BUCKET + e)] = mask
                        tt_data[ix((dr + TT_LO) * BUCKET + e)] = -INF
                        tt_data[ix((dr + TT_HI) * BUCKET + e)] = INF
                    if v <= PLY[ix(d * _PLY + _A0)]:
                        if v < tt_data[ix((dr + TT_HI) * BUCKET + e)]:
                            tt_data[ix((dr + TT_HI) * BUCKET + e)] = v
                    elif v >= PLY[ix(d * _PLY + _B0)]:
                        if v > tt_data[ix((dr + TT_LO) * BUCKET + e)]:
                            tt_data[ix((dr + TT_LO) * BUCKET + e)] = v
                    else:
                        tt_data[ix((dr + TT_LO) * BUCKET + e)] = v
                        tt_data[ix((dr + TT_HI) * BUCKET + e)] = v
            if d == n0:
                return v
            d -= 1
            p = PLY[ix(d * _PLY + _PL)]
            pos = d & 3
            c = PLY[ix(d * _PLY + _CARD)]
            cb = card_bit(c)
            h[ix(p)] ^= cb
            if pos == 3:
                table = card_bit(PLY[ix((d - 3) * _PLY + _CARD)]) | card_bit(PLY[ix((d - 2) * _PLY + _CARD)]) | card_bit(PLY[ix((d - 1) * _PLY + _CARD)])
                v += PLY[ix(d * _PLY + _TPNS)]
                rw |= rank_win(table | cb, PLY[ix(d * _PLY + _WCARD)])
            else:
                table ^= cb
            cut = False
            if (p & 1) == 0:
                if v > PLY[ix(d * _PLY + _BEST)]:
                    PLY[ix(d * _PLY + _BEST)] = v
                    if v > PLY[ix(d * _PLY + _A)]:
                        PLY[ix(d * _PLY + _A)] = v
                        cut = v >= PLY[ix(d * _PLY + _B)]
            else:
                if v < PLY[ix(d * _PLY + _BEST)]:
                    PLY[ix(d * _PLY + _BEST)] = v
                    if v < PLY[ix(d * _PLY + _B)]:
                        PLY[ix(d * _PLY + _B)] = v
                        cut = v <= PLY[ix(d * _PLY + _A)]
            if cut:
                if PLY[ix(d * _PLY + _MI)] != 1:
                    PLY[ix(d * _PLY + _KILLER)] = c
                if _DIAGNOSTICS:
                    stats[ix((1 if PLY[ix(d * _PLY + _MI)] == 1 else 5) + pos)] += 1
                v = PLY[ix(d * _PLY + _BEST)]
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
                    sm = _SUIT_MASKS[ix(c >> 4)]
                    above = h[ix(p)] & sm & ~((cb << _ONE) - _ONE)
                    if above and (rw & (above | cb)):
                        present = h[0] | h[1] | h[2] | h[3] | table
                        run = cb
                        x = cb
                        while True:
                            up = present & sm & ~((x << _ONE) - _ONE)
                            if up == 0:
                                break
                            y = up & (~up + _ONE)
                            if (h[ix(p)] & y) and (y & special) == 0:
                                run |= y
                                x = y
                            else:
                                break
                        if rw & run:
                            rw |= run
                PLYU[ix(d * _PLYU + _WR)] |= rw
                # lowest win: this move was refuted by lines that never relied
                # on the rank of a card of its suit below ``low``; if the move's
                # card is below it, so are the mover's other cards there, and
                # the same lines (those cards' names swapped) refute them too
                if (cb & special) == 0:
                    s = c >> 4
                    if PLY[ix(d * _PLY + _LW + (s))] == 0:
                        wsuit = PLYU[ix(d * _PLYU + _WR)] & _SUIT_MASKS[ix(s)]
                        low = lowest_bit_index(wsuit) if wsuit else 16 * s + 16
                        if c < low:
                            PLY[ix(d * _PLY + _LW + (s))] = low
                state = _NEXT


@njit(cache=True, inline="always")
def points_left(hands, table, to_move, five, three):
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
    return points_left(hands, np.uint64(0), 0, five, three)


@njit(cache=True)
def solve_value(hands, leader, trump, five, three, tt_keys, tt_data, log2, stats, gen, guess=-INF,
                lo0=-INF, hi0=INF, jump=False):
    """Exact points of the leader's side.

    MTD(f): a sequence of null-window searches that close in on the value
    from ``guess`` (N-S points, or -INF for a low first guess); with the
    transposition table carrying bounds between them this visits fewer nodes
    than one full-window search (docs/solver.md §7: about 15% in points mode).
    With no guess the passes start low and climb: the passes that fail high
    are the cheap ones (measured: 1.8% fewer points nodes than from the
    middle, total // 2; a guess closer to the value did no better).
    ``lo0 <= value <= hi0``: bounds on N-S's points known beforehand (the
    ladder of ``dd_table_both_kernel``).  ``jump``: when the first pass fails
    high, the next one tests the upper bound ``hi0`` (the 5H-only value is the
    tricks or the tricks + 5 in about 9 solves of 10).
    """
    total = _ns_total(hands, five, three)
    lo = max(-3, lo0)
    hi = min(total + 3, hi0)
    if lo == hi:
        g = lo
    else:
        g = guess if guess > -INF else max(lo, total // 2 - 4)
        if g < lo:
            g = lo
        if g > hi:
            g = hi
    first = True
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = search(hands, leader, trump, five, three, beta - 1, beta, tt_keys, tt_data, log2, stats, gen)
        stats[29] += 1
        if g < beta:
            hi = g
        else:
            lo = g
            if jump and first and lo < hi:
                g = hi
        first = False
    if leader & 1:
        return total - g
    return g


@njit(cache=True)
def can_reach_kernel(hands, leader, trump, five, three, target, tt_keys, tt_data, log2, stats):
    """Null-window test: can the leader's side get at least ``target``?"""
    if leader & 1:
        # E-W >= t  <=>  N-S <= total - t  <=>  not (N-S >= total - t + 1)
        t_ns = _ns_total(hands, five, three) - target + 1
        ns = search(hands, leader, trump, five, three, t_ns - 1, t_ns, tt_keys, tt_data, log2, stats, 0)
        return ns < t_ns
    ns = search(hands, leader, trump, five, three, target - 1, target, tt_keys, tt_data, log2, stats, 0)
    return ns >= target


@njit(cache=True, parallel=True)
def dd_table_kernel(deals, five, three, log2, leaders, nchunks):
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
        tt_keys, tt_data = new_tt(log2)
        stats = np.zeros(STATS_SIZE, dtype=np.int64)
        for i in range(lo, hi):
            hands = deals[i]
            total = _ns_total(hands, five, three)
            for strain in range(5):
                guess = -INF
                for leader in leaders:
                    before = stats[0]
                    v = solve_value(hands, leader, strain, five, three, tt_keys, tt_data, log2, stats, i + 1,
                                    guess)
                    out[i, leader, strain] = v
                    nodes[i, leader, strain] = stats[0] - before
                    # the next leader's N-S value is usually close to this one
                    guess = total - v if leader & 1 else v
        allst[k] = stats
    return out, nodes, allst


@njit(cache=True, parallel=True)
def dd_table_both_kernel(deals, five, three, log2, leaders, nchunks, order):
    """Kernel of ``dd_table(mode="both")``: the points and the tricks
    tables, (n, 2, 4, 5) (axis 1: points, tricks), by the ladder tricks ->
    5H only -> points, and the nodes of each pass (n, 3, 4, 5): tricks, 5H
    only, points.

    The three scorings are one game tree with different payoffs: at every
    leaf N-S's points are their tricks -3..+5 (-3 if the 3S is in play, +5
    if the 5H is), and their 5H-only points (the 3S an ordinary card) -3..0.
    Solved in that order in one transposition table, every entry of an
    easier scoring bounds the harder searches at each position it matches
    (the bucket scan of ``search``), and each root value bounds the next
    one's (MTD(f) starts inside them).  ``order`` (bits; measured in
    nodes on 200 deals, seed 2024): 0 a strain's three passes one after the
    other (+1: the deal's whole tricks table first, then 5H only, then
    points: same nodes; +8: leader-major within the strain: +2%); +2 the
    points search starts at F - 3 rather than F (-2%); +4 the 5H-only one
    at T + 5 rather than T + 1 (+1%); +16 no 5H-only pass (points bounded by
    the tricks alone: +1% nodes, a heavier tail); +32 the points search
    starts at F where N-S hold the 3S and at F - 3 where E-W do (the side
    holding it mostly sheds it: 500 deals, seed 2024, points pass 1,575 ->
    1,398 nodes a solve, the whole table 3,452 -> 3,276; a guess of F + 5
    or T where N-S hold the 5H did not help the 5H-only pass); +64 the
    5H-only search, after a first pass that fails high, tests T + 5 next
    (F - T is 0 or 5 in about 9 solves of 10: that pass 759 -> 696 nodes a
    solve, the table 3,276 -> 3,217; the same jump in the points pass cost
    +3%).  ``dd_table`` uses 2 + 32 + 64.
    """
    n = deals.shape[0]
    out = np.zeros((n, 2, 4, 5), dtype=np.int8)
    nodes = np.zeros((n, 3, 4, 5), dtype=np.int64)
    allst = np.zeros((nchunks, STATS_SIZE), dtype=np.int64)
    zero = np.uint64(0)
    for k in prange(nchunks):
        lo = n * k // nchunks
        hi = n * (k + 1) // nchunks
        tt_keys, tt_data = new_tt(log2)
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
            guess = -INF
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
                    guess = -INF
                before = stats[0]
                if rung == 0:
                    v = solve_value(hands, leader, strain, zero, zero, tt_keys, tt_data, log2, stats, i + 1,
                                    guess)
                    vns = ttot - v if leader & 1 else v
                    tns[leader, strain] = vns
                    out[i, 1, leader, strain] = v
                    guess = vns  # the next leader's is usually close
                elif rung == 1:
                    t = tns[leader, strain]
                    if f_in and not (order & 16):
                        v = solve_value(hands, leader, strain, five_, zero, tt_keys, tt_data, log2, stats,
                                        i + 1, t + 5 if order & 4 else t + 1, t, t + 5, (order & 64) != 0)
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
                        # F - 3 <= P <= F, T - 3 <= P <= T + 5.  The side
                        # holding the 3S mostly sheds it (P = F for N-S in
                        # 2/3 of the solves where they hold it) and the other
                        # side mostly takes it (P = F - 3 in 2/3): MTD(f)
                        # starts there (order & 32)
                        g = f - 3 if order & 2 else f
                        if order & 32:
                            g = f if (hands[0] | hands[2]) & three_ else f - 3
                        v = solve_value(hands, leader, strain, five_, three_, tt_keys, tt_data, log2, stats,
                                        i + 1, g, fl - 3 if t_in else fl, f)
                    else:
                        v = ptot - f if leader & 1 else f
                    out[i, 0, leader, strain] = v
                nodes[i, rung, leader, strain] = stats[0] - before
        allst[k] = stats
    return out, nodes, allst


@njit(cache=True, parallel=True)
def dd_contracts_kernel(deals, leaders, strains, five, three, lower, upper, guess, jump, log2, nchunks):
    """Kernel of ``dd_contracts`` and ``without_specials``: one value per
    (deal, leader, strain) row, for the leader's side, and the search nodes
    of each block; blocks of rows handed out as in ``dd_table_kernel``.

    ``lower[i] <= value <= upper[i]`` (the leader's side's points): bounds
    known beforehand (-INF, INF: none); they must be sound, the value is
    exact only if it lies in them; MTD(f) then searches only inside them.
    ``guess[i]`` (the leader's side's points; -INF: none, as
    ``solve_value``): where MTD(f) starts, any value (it moves the node
    count only).  ``jump``: a first pass that fails high tests the upper
    bound next (``solve_value``)."""
    n = deals.shape[0]
    out = np.zeros(n, dtype=np.int8)
    nodes = np.zeros(nchunks, dtype=np.int64)
    for k in prange(nchunks):
        lo = n * k // nchunks
        hi = n * (k + 1) // nchunks
        tt_keys, tt_data = new_tt(log2)
        stats = np.zeros(STATS_SIZE, dtype=np.int64)
        for i in range(lo, hi):
            hands = deals[i]
            leader = leaders[i]
            # the bounds and the guess in N-S's points, as solve_value takes them
            a = -INF
            b = INF
            g = -INF
            odd = (leader & 1) != 0
            total = _ns_total(hands, five, three)
            if lower[i] > -INF:
                if odd:
                    b = total - lower[i]
                else:
                    a = lower[i]
            if upper[i] < INF:
                if odd:
                    a = total - upper[i]
                else:
                    b = upper[i]
            if guess[i] > -INF:
                g = total - guess[i] if odd else guess[i]
            # one generation for all rows: with one solve a deal the table
            # never fills with one deal, and other deals' entries are worth
            # keeping (measured: 7% faster than a generation a row)
            out[i] = solve_value(hands, leader, strains[i], five, three, tt_keys, tt_data, log2, stats, 0, g, a, b,
                                 jump)
        nodes[k] = stats[0]
    return out, nodes

"""The double-dummy engine's public functions (stable API).

- ``solve(hands, leader, strain, mode="points") -> int``: exact value for the
  leader's side from a trick boundary (equal hand lengths 1..8).
- ``can_reach(hands, leader, strain, target, mode="points") -> bool``: can the
  leader's side get at least ``target``?  A null-window search, cheaper than
  ``solve``.
- ``dd_table(deals, mode="points") -> (n, 4, 5) int8``: leader N E S W x strain
  S H D C N, value for the leader's side, parallel over deals;
  ``mode="both"`` returns the pair ``(points, tricks)`` of such tables,
  solved by the ladder of :mod:`kaiser_sim.dd.search` for little more than
  the points table alone.
- ``dd_strains`` (one leader) and ``dd_contracts`` (one contract a deal), the
  smaller cases; ``without_specials``: single contracts with the 5H, and with
  the 3S, counted as ordinary cards, bounded by their points with both.

``hands`` is a (4,) uint64 array indexed by seat (see ``cards``).  Points mode:
tricks + 5 for the trick holding the 5H - 3 for the trick holding the 3S, only
counting special cards still in play.  Tricks mode is the same search with no
special cards, so it equals bridge double-dummy on the same cards.

These wrappers check and convert their inputs, choose the special cards of
the mode (:func:`special_bits`), make the transposition tables and the
threads, and call the kernels of :mod:`kaiser_sim.dd.search`.
"""

from __future__ import annotations

import numba
import numpy as np

from .. import config
from ..cards import FIVE_HEARTS_BIT, THREE_SPADES_BIT, check_hands, parse_deal
from .search import (INF, STATS_SIZE, can_reach_kernel, dd_contracts_kernel, dd_table_both_kernel, dd_table_kernel,
                     solve_value)
from .tt import new_tt

MODES = ("points", "tricks")

#: solving order of the leaders in a full table: partners one after the other,
#: so each solve's value is a good first guess for the next (MTD(f))
_ALL_LEADERS = np.array([0, 2, 1, 3], dtype=np.int64)


# ---------------------------------------------------------------------------
# public wrappers


def special_bits(mode: str, five=None, three=None) -> tuple[np.uint64, np.uint64]:
    """The special cards' bits ``(five, three)`` the kernels take for ``mode``:
    none in tricks mode; in points the 5H and the 3S, or ``five`` / ``three``
    after a rank relabelling (low no trump)."""
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
    return new_tt(config.TT_LOG2_ENTRIES)


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
        no-trump); default the 5H and 3S.  Kernel: ``search.solve_value``.
    """
    h = _as_hands(hands)
    f, t = special_bits(mode, five, three)
    keys, data = _tt()
    stats = np.zeros(STATS_SIZE, dtype=np.int64)
    return int(solve_value(h, int(leader), int(strain), f, t, keys, data, config.TT_LOG2_ENTRIES, stats, 0))


def can_reach(hands, leader, strain, target: int, mode: str = "points", *, five=None, three=None) -> bool:
    """True if the leader's side can make at least ``target`` against best
    defence (one null-window search; cheaper than :func:`solve`)."""
    h = _as_hands(hands)
    f, t = special_bits(mode, five, three)
    keys, data = _tt()
    stats = np.zeros(STATS_SIZE, dtype=np.int64)
    return bool(can_reach_kernel(h, int(leader), int(strain), f, t, int(target), keys, data,
                                 config.TT_LOG2_ENTRIES, stats))


def _on_threads(kernel, n, threads, *args):
    """Run a block-parallel kernel (``dd_table_kernel``, ``dd_contracts_kernel``) over
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
    """Run the ``dd_table_kernel`` kernel on all (or ``threads``) numba threads."""
    n = arr.shape[0]
    if n == 0:
        return (np.zeros((0, 4, 5), dtype=np.int8), np.zeros((0, 4, 5), dtype=np.int64),
                np.zeros((1, STATS_SIZE), dtype=np.int64))
    return _on_threads(dd_table_kernel, n, threads, arr, f, t, config.TT_LOG2_ENTRIES, leaders)


def _run_both(arr, f, t, threads, leaders, order=98):
    """Run the ``dd_table_both_kernel`` kernel on all (or ``threads``) numba threads."""
    n = arr.shape[0]
    if n == 0:
        return (np.zeros((0, 2, 4, 5), dtype=np.int8), np.zeros((0, 3, 4, 5), dtype=np.int64),
                np.zeros((1, STATS_SIZE), dtype=np.int64))
    return _on_threads(lambda *a: dd_table_both_kernel(*a[:-1], a[-1], order), n, threads, arr, f, t,
                       config.TT_LOG2_ENTRIES, leaders)


def _contract_rows(deals, leaders, strains):
    """``(deals, leaders, strains)`` of single contracts as the kernel takes
    them, one leader (0..3) and one strain (0..4) a deal, or ValueError."""
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
    return arr, lead, strn


def dd_contracts(deals, leaders, strains, mode: str = "points", *, threads: int | None = None,
                 five=None, three=None, guess=None) -> np.ndarray:
    """Exact values of many single contracts, parallel over rows: row ``i`` is
    deal ``deals[i]`` played in strain ``strains[i]`` (0..3 trump suit, 4 no
    trump) with ``leaders[i]`` (seat 0..3) on lead.  Returns ``(n,)`` int8,
    each value for the leader's side (the match engine's case: one contract
    a deal).  ``guess``: (n,) a value each row is likely near (the leader's
    side's points; say, the same deal and strain solved with another seat on
    lead), where the search starts; any numbers (they move the node count
    only, never a value).  Kernel: ``search.dd_contracts_kernel``."""
    arr, lead, strn = _contract_rows(deals, leaders, strains)
    n = arr.shape[0]
    f, t = special_bits(mode, five, three)
    if n == 0:
        return np.zeros(0, dtype=np.int8)
    none = np.zeros(n, dtype=np.int64)
    g = none - INF
    if guess is not None:
        g = np.ascontiguousarray(guess, dtype=np.int64).reshape(-1)
        if g.shape[0] != n:
            raise ValueError(f"need one guess per deal: {n} deals, {g.shape[0]} guesses")
        g = np.clip(g, -INF + 1, INF - 1)
    out, _ = _on_threads(dd_contracts_kernel, n, threads, arr, lead, strn, f, t, none - INF, none + INF, g, False,
                         config.TT_LOG2_ENTRIES)
    return out


def without_specials(deals, leaders, strains, values, *, threads: int | None = None, five=None, three=None,
                     return_nodes: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """What each special card is worth in single contracts: the exact points
    of each row of :func:`dd_contracts` (deal, leader, strain) with the 5H
    counted as an ordinary card, and with the 3S counted as one, given
    ``values`` (n,), the row's points with both (the leader's side's).
    Returns ``(no5, no3)``, two (n,) int8 arrays, equal to
    ``dd_contracts(..., five=0, three=three)`` and
    ``dd_contracts(..., five=five, three=0)``; with ``return_nodes`` also
    the two solves' search nodes.

    Faster than those two calls because ``values`` bounds each search:
    in any one line of play the side's points with the 5H are its points
    without it plus 5 or 0, and with the 3S its points without it minus 3
    or 0; best play against best play keeps such an order (a minimax of
    payoffs that differ by 0 to 5 differs by 0 to 5), so
    ``values - 5 <= no5 <= values`` and ``values <= no3 <= values + 3``.
    MTD(f) starts at N-S's lower end for the 5H (with a jump to the upper end when the first pass
    fails high) and, for the 3S, at the lower end where N-S hold it (it is
    mostly shed), else at the upper end.  Measured, 2,000 random deals,
    leader N or E, strain S or NT: 3,169-5,861 -> 1,955-3,139 nodes a
    5H solve, 3,234-3,911 -> 1,974-2,079 a 3S solve (-36% to -50%); on the
    advisor's deals of AQ98.K5.A.T after "6 pass 7": -45% (S) and -33% (NT)
    for the 5H, -57% and -54% for the 3S.  ``five`` / ``three``: the special
    cards' bits (after a rank relabelling).  Kernel:
    ``search.dd_contracts_kernel``.
    """
    arr, lead, strn = _contract_rows(deals, leaders, strains)
    n = arr.shape[0]
    v = np.ascontiguousarray(values, dtype=np.int64).reshape(-1)
    if v.shape[0] != n:
        raise ValueError(f"need one value per deal: {n} deals, {v.shape[0]} values")
    f, t = special_bits("points", five, three)
    zero = np.uint64(0)
    if n == 0:
        empty = np.zeros(0, dtype=np.int8)
        return (empty, empty.copy()) + ((np.zeros(0, np.int64), np.zeros(0, np.int64)) if return_nodes else ())
    # the starting ends are N-S's whoever leads (measured with N and with E on lead): N-S's lower end is the
    # leader's lower bound when N or S leads, its upper bound when E or W does
    ns_lead = (lead & 1) == 0
    no5, nodes5 = _on_threads(dd_contracts_kernel, n, threads, arr, lead, strn, zero, t, v - 5, v,
                              np.where(ns_lead, v - 5, v), True, config.TT_LOG2_ENTRIES)
    ns_low = ((arr[:, 0] | arr[:, 2]) & t) != 0
    no3, nodes3 = _on_threads(dd_contracts_kernel, n, threads, arr, lead, strn, f, zero, v, v + 3,
                              np.where(ns_low == ns_lead, v, v + 3), False, config.TT_LOG2_ENTRIES)
    return (no5, no3) + ((nodes5, nodes3) if return_nodes else ())


def dd_strains(deals, leader, mode: str = "points", *, threads: int | None = None, five=None, three=None):
    """Values of the five strains with ``leader`` on lead: ``(n, 5)`` int8,
    strains S H D C N, for the leader's side (a quarter of :func:`dd_table`'s
    work; the hand advisor's case).  Kernel: ``search.dd_table_kernel``."""
    arr = _as_deals(deals)
    f, t = special_bits(mode, five, three)
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
        each bounding the next; kernel ``dd_table_both_kernel``).
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
    ``dd_table_kernel``.
    """
    arr = _as_deals(deals)
    if mode == "both":
        f, t = special_bits("points", five, three)
        both, nodes, stats = _run_both(arr, f, t, threads, _ALL_LEADERS)
        result = (both[:, 0].copy(), both[:, 1].copy())
        if return_nodes:
            result += (nodes,)
        if return_stats:
            result += (stats.sum(axis=0),)
        return result
    f, t = special_bits(mode, five, three)
    out, nodes, stats = _run_table(arr, f, t, threads, _ALL_LEADERS)
    result = (out,)
    if return_nodes:
        result += (nodes,)
    if return_stats:
        result += (stats.sum(axis=0),)
    return result if len(result) > 1 else out


__all__ = ["MODES", "solve", "can_reach", "dd_table", "dd_strains", "dd_contracts", "without_specials", "special_bits"]

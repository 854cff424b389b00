"""Random deals: uniform, reproducible, optionally with predealt cards.

Deal ``i`` of a run depends only on ``(seed, i)``: the kernel derives a
counter-based generator (SplitMix64 of a key and the deal index) for every
deal, so any split of the indices over threads, processes or Dask workers
gives the same deals.  The key comes from ``numpy.random.SeedSequence(seed)``.

The dealing rules live here too: the kitty (the cards no hand holds,
:func:`kitty_of`) and the weak-hand redeal (:func:`deal_for_rules`,
:func:`weak_hands`), so a deal under any rules is made in one place and the
solver (``kaiser_sim.dd``) never sees a rules object.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .cards import (DECK_32, DECK_34, FIVE_HEARTS_BIT, SUIT_BITS, THREE_SPADES_BIT, NotationError, Seat, card_name,
                    cards_of, popcount)
from .rules import Rules

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def splitmix64(state):
    """One SplitMix64 step: returns (new_state, output)."""
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def bounded(state, n):
    """Uniform integer in [0, n) by rejection (no modulo bias)."""
    un = np.uint64(n)
    limit = np.uint64(0xFFFFFFFFFFFFFFFF) - (np.uint64(0xFFFFFFFFFFFFFFFF) % un)
    while True:
        state, r = splitmix64(state)
        if r < limit:
            return state, int(r % un)


@njit(cache=True)
def _deal_batch(key, first_index, n, free_cards, fixed, need):
    """Deal ``n`` deals with indices ``first_index .. first_index+n-1`` (:func:`_deal_at`)."""
    return _deal_at(key, np.arange(first_index, first_index + n), free_cards, fixed, need)


@njit(cache=True, parallel=True)
def _deal_at(key, indices, free_cards, fixed, need):
    """Deal the deals with the given indices (int64 array), in that order.

    free_cards : int64 array of the card numbers still to deal (sorted)
    fixed      : (4,) uint64, cards every deal gives to each seat
    need       : (4,) int64, how many free cards each seat receives
    Each deal is a Fisher-Yates shuffle of ``free_cards`` driven by a
    generator seeded from (key, deal index) only.
    """
    n = indices.shape[0]
    out = np.empty((n, 4), dtype=np.uint64)
    m = free_cards.shape[0]
    for i in prange(n):
        state = key ^ (np.uint64(indices[i]) * _GOLDEN)
        state, _ = splitmix64(state)
        perm = free_cards.copy()
        for j in range(m - 1, 0, -1):
            state, k = bounded(state, j + 1)
            t = perm[j]
            perm[j] = perm[k]
            perm[k] = t
        pos = 0
        for seat in range(4):
            h = fixed[seat]
            for _ in range(need[seat]):
                h |= np.uint64(1) << np.uint64(perm[pos])
                pos += 1
            out[i, seat] = h
    return out


def seed_key(seed: int) -> np.uint64:
    """The 64-bit key of a run, derived from the user's seed by SeedSequence."""
    if seed < 0:
        raise ValueError("seed must be >= 0")
    return np.random.SeedSequence(int(seed)).generate_state(1, dtype=np.uint64)[0]


def normalize_fixed(fixed=None) -> np.ndarray:
    """Turn ``{seat: mask}`` (seat as Seat, int or 'N') or a (4,) array into a
    (4,) uint64 array; a card fixed for two seats is refused."""
    out = np.zeros(4, dtype=np.uint64)
    if fixed is None:
        return out
    items = fixed.items() if isinstance(fixed, dict) else enumerate(fixed)
    for seat, mask in items:
        s = Seat[seat.upper()] if isinstance(seat, str) else Seat(int(seat))
        out[s] |= np.uint64(int(mask))
    seen = 0
    for s in Seat:
        clash = seen & int(out[s])
        if clash:
            c = cards_of(clash)[0]
            other = next(t.name for t in Seat if t != s and int(out[t]) >> c & 1)
            raise NotationError(f"{card_name(c)} is fixed twice: {other} and {s.name}")
        seen |= int(out[s])
    return out


def deal_batch(n: int, seed: int, start: int = 0, fixed=None, hand_size: int = 8, deck34: bool = False) -> np.ndarray:
    """Deals ``start .. start+n-1`` of the run with this ``seed``.

    Parameters
    ----------
    n : number of deals.
    seed : the run's seed (any non-negative int).
    start : index of the first deal; ``deal_batch(n, s)[k] == deal_batch(1, s, start=k)[0]``.
    fixed : cards given to seats in every deal (``{"N": mask}`` or a (4,) array);
        the rest are dealt uniformly at random.
    hand_size : cards per hand (8; 7 for the 4-card kitty variant).
    deck34 : deal from the 34-card deck (rules K2); cards left over form the kitty.

    Returns
    -------
    ``(n, 4)`` uint64 array, hands indexed by seat N E S W.  Kernel: ``_deal_batch``.
    """
    if n < 0:
        raise ValueError("n must be >= 0")
    key, free, fixed, need = _deal_args(seed, fixed, hand_size, deck34)
    return _deal_batch(key, int(start), int(n), free, fixed, need)


def deal_at(indices, seed: int, fixed=None, hand_size: int = 8, deck34: bool = False) -> np.ndarray:
    """The deals with these indices of the run ``seed`` (arguments as
    :func:`deal_batch`): ``deal_at(idx, s)[j] == deal_batch(1, s, start=idx[j])[0]``,
    in one kernel call (a redeal of scattered deals, :func:`deal_for_rules`)."""
    idx = np.asarray(indices, dtype=np.int64).reshape(-1)
    if idx.size and idx.min() < 0:
        raise ValueError("deal indices must be >= 0")
    key, free, fixed, need = _deal_args(seed, fixed, hand_size, deck34)
    return _deal_at(key, idx, free, fixed, need)


def _deal_args(seed: int, fixed, hand_size: int, deck34: bool):
    """``(key, free cards, fixed, need)`` for the kernels, the fixed cards checked."""
    fixed = normalize_fixed(fixed)
    deck = int(DECK_34 if deck34 else DECK_32)
    for s in Seat:
        if int(fixed[s]) & ~deck:
            bad = cards_of(int(fixed[s]) & ~deck)[0]
            raise NotationError(f"{card_name(bad)} is not in the deck")
        if popcount(fixed[s]) > hand_size:
            raise NotationError(f"{s.name} is fixed {popcount(fixed[s])} cards, a hand has {hand_size}")
    fixed_all = int(fixed[0] | fixed[1] | fixed[2] | fixed[3])
    free = np.array(sorted(cards_of(deck & ~fixed_all)), dtype=np.int64)
    need = np.array([hand_size - popcount(fixed[s]) for s in Seat], dtype=np.int64)
    if need.sum() > free.shape[0]:
        raise NotationError("not enough cards left to complete the hands")
    return seed_key(seed), free, fixed, need


def kitty_of(deals: np.ndarray, deck34: bool = False) -> np.ndarray:
    """The undealt cards (the kitty) of each deal, as a bitboard."""
    deck = DECK_34 if deck34 else DECK_32
    return deck & ~(deals[:, 0] | deals[:, 1] | deals[:, 2] | deals[:, 3])


# --- dealing under the rules: the weak-hand redeal and the kitty ---------------------------


def deal_for_rules(n: int, seed: int, rules: Rules, start: int = 0, fixed=None,
                   redeal_weak: bool = False, *, return_redeals: bool = False, seats=None):
    """Deals ``start .. start+n-1`` of the run ``seed`` under ``rules``.

    Returns ``(deals, kitties)``: ``(n, 4)`` uint64 hands (7 cards each with
    K1, 8 otherwise; from the 34-card deck with K2) and ``(n,)`` uint64
    kitties (0 without a kitty).  Same (seed, index) -> same deal, as
    :func:`kaiser_sim.deal.deal_batch`.

    ``redeal_weak``: a deal in which some player may demand a redeal
    (:func:`weak_hands`; never with ``weak_redeal="off"``) is replaced by a
    redeal, as if the player always demanded it.  Redeal ``a`` of deal ``i``
    is deal ``i`` of a run whose seed is derived from ``(seed, a)``
    (:func:`redeal_seed`), so deal ``i`` is the first acceptable one of
    attempts 0, 1, 2, ... and still depends only on (seed, index); a deal
    without a weak hand is the plain ``deal_batch`` deal.  ``seats``: only
    these seats' hands are checked (default all four; the hand advisor
    checks the other three).  ``return_redeals``: also return ``(n,)``
    int64, how many times each deal was redealt.  :class:`RedealError` after
    :data:`MAX_REDEALS` attempts (fixed cards that are always weak).
    """
    deals = deal_batch(n, seed, start=start, fixed=fixed, hand_size=rules.hand_size, deck34=rules.deck34)
    redeals = np.zeros(deals.shape[0], dtype=np.int64)
    if redeal_weak and rules.weak_redeal != "off":
        cols = list(range(4)) if seats is None else [int(s) for s in seats]

        def weak(d):
            return weak_hands(rules, d)[:, cols].any(axis=1)

        attempt = 0
        todo = np.flatnonzero(weak(deals))
        while todo.size:
            attempt += 1
            if attempt > MAX_REDEALS:
                raise RedealError(f"no deal without a weak hand after {MAX_REDEALS} redeals (rules "
                                  f"weak_redeal={rules.weak_redeal}): are the fixed cards always weak?")
            sub_seed = redeal_seed(seed, attempt)
            deals[todo] = deal_at(start + todo, sub_seed, fixed=fixed, hand_size=rules.hand_size,
                                  deck34=rules.deck34)  # one kernel call, not one per deal (~30 ms each)
            redeals[todo] += 1
            todo = todo[weak(deals[todo])]
    kitties = (np.zeros(deals.shape[0], dtype=np.uint64) if rules.kitty == "none"
               else kitty_of(deals, deck34=rules.deck34))
    if return_redeals:
        return deals, kitties, redeals
    return deals, kitties


#: the most redeals of one deal before :func:`deal_for_rules` gives up
MAX_REDEALS = 1000


class RedealError(RuntimeError):
    """No acceptable deal after :data:`MAX_REDEALS` redeals."""


def redeal_seed(seed: int, attempt: int) -> int:
    """The ``deal_batch`` seed of redeal ``attempt`` (1, 2, ...) of the run ``seed``."""
    return int(np.random.SeedSequence([int(seed), int(attempt)]).generate_state(1, dtype=np.uint64)[0] >> 1)


def certainly_weak(rules: Rules, fixed) -> list[int]:
    """The seats whose fixed cards (four bitboards, or None) make a hand the
    rules always redeal: a whole hand with no A, K, Q, J, 5H or 3S, or (with
    ``weak+quads``) all four 10s, 9s or 8s.  Empty with ``weak_redeal="off"``."""
    if rules.weak_redeal == "off" or fixed is None:
        return []
    out = []
    for seat, m in enumerate(np.asarray(fixed, dtype=np.uint64).reshape(-1)[:4]):
        m = np.uint64(m)
        full = popcount(m) == rules.hand_size
        weak = full and (m & _HONOURS) == 0
        if rules.weak_redeal == "weak+quads":
            weak = weak or any((m & q) == q for q in _QUADS)
        if weak:
            out.append(seat)
    return out


def _rank_mask(ranks) -> np.uint64:
    return np.uint64(sum(1 << (s * SUIT_BITS + r) for s in range(4) for r in ranks))


_HONOURS = _rank_mask((5, 6, 7, 8)) | FIVE_HEARTS_BIT | THREE_SPADES_BIT  # J Q K A, 5H, 3S
_QUADS = tuple(_rank_mask((r,)) for r in (2, 3, 4))  # all four 8s, 9s, 10s


def weak_hands(rules: Rules, deals) -> np.ndarray:
    """``(n, 4)`` bool: which players may demand a redeal (rules
    ``weak_redeal``): no A, K, Q, J, 5H or 3S ('weak'), or also all four
    10s, 9s or 8s ('weak+quads').  All False with ``weak_redeal="off"``."""
    d = np.asarray(deals, dtype=np.uint64)
    if rules.weak_redeal == "off":
        return np.zeros(d.shape, dtype=bool)
    weak = (d & _HONOURS) == 0
    if rules.weak_redeal == "weak+quads":
        for q in _QUADS:
            weak |= (d & q) == q
    return weak


# --- deals dealt to a hand: the conditioned deals of a rare cell -------------------------------


@njit(cache=True, parallel=True)
def _complete_deals(key, first_index, hands, deck_cards):
    """Deal ``i``: seat 0 holds ``hands[i]``; the other cards of ``deck_cards``
    (int64 card numbers) are shuffled (Fisher-Yates, a generator seeded from
    (key, first_index + i) only) and dealt in equal hands to seats 1, 2, 3."""
    n = hands.shape[0]
    out = np.empty((n, 4), dtype=np.uint64)
    for i in prange(n):
        h0 = hands[i]
        free = np.empty(deck_cards.shape[0], dtype=np.int64)
        m = 0
        for c in deck_cards:
            if not (h0 >> np.uint64(c)) & np.uint64(1):
                free[m] = c
                m += 1
        state = key ^ (np.uint64(first_index + i) * _GOLDEN)
        state, _ = splitmix64(state)
        for j in range(m - 1, 0, -1):
            state, k = bounded(state, j + 1)
            t = free[j]
            free[j] = free[k]
            free[k] = t
        out[i, 0] = h0
        size = m // 3
        pos = 0
        for seat in range(1, 4):
            h = np.uint64(0)
            for _ in range(size):
                h |= np.uint64(1) << np.uint64(free[pos])
                pos += 1
            out[i, seat] = h
    return out


def deals_with_hands(pool, n: int, seed: int, rules: Rules, redeal_weak: bool = False) -> np.ndarray:
    """``(n, 4)`` uint64 deals (8-card hands of the 32-card deck, no kitty)
    whose seat 0 (N) holds a hand drawn uniformly from ``pool`` (bitboards of
    8-card hands) and whose other 24 cards are dealt at random to E, S, W.

    So the deals are the run's deals *conditioned* on N's hand lying in the
    pool: drawn this way, a cell of hands (a count band x trump length) that
    one deal in ten thousand reaches is filled at the cost of solving its own
    deals.  ``redeal_weak`` (a run dealt with the weak-hand redeal,
    :func:`deal_for_rules`): a deal in which any hand may demand a redeal
    (:func:`weak_hands`) is drawn again whole, its hand from the pool too, so
    the deals keep the run's distribution (every deal without a weak hand
    equally likely) and not that of a fixed hand redealt around.
    Reproducible: the same (pool, n, seed) give the same deals."""
    pool = np.asarray(pool, dtype=np.uint64).reshape(-1)
    if rules.kitty != "none" or rules.hand_size != 8 or rules.deck34:
        raise ValueError(f"rules {rules.label}: deals are dealt to a hand only for 8-card hands of the 32-card "
                         "deck without a kitty")
    if n < 0:
        raise ValueError("n must be >= 0")
    if pool.size == 0 and n:
        raise ValueError("no hand to deal to (the pool is empty)")
    deck_cards = np.array(cards_of(int(DECK_32)), dtype=np.int64)
    if pool.size and (np.bitwise_count(pool) != 8).any() | ((pool & ~DECK_32) != 0).any():
        raise ValueError("the pool holds a hand that is not 8 cards of the 32-card deck")
    ss = np.random.SeedSequence([int(seed), 0x6B616973])  # the stream of the conditioned deals ("kais")
    pick_seed, deal_seed = ss.spawn(2)
    rng = np.random.default_rng(pick_seed)
    key = np.uint64(deal_seed.generate_state(1, dtype=np.uint64)[0])
    deals = _complete_deals(key, 0, pool[rng.integers(0, pool.size, size=n)] if n else pool[:0], deck_cards)
    drawn = n
    todo = np.flatnonzero(weak_hands(rules, deals).any(axis=1)) if redeal_weak else np.array([], dtype=np.int64)
    attempts = 0
    while todo.size:
        attempts += 1
        if attempts > MAX_REDEALS:
            raise RedealError(f"no deal without a weak hand after {MAX_REDEALS} draws: does the pool hold only "
                              "weak hands?")
        again = _complete_deals(key, drawn, pool[rng.integers(0, pool.size, size=todo.size)], deck_cards)
        drawn += todo.size
        deals[todo] = again
        todo = todo[weak_hands(rules, again).any(axis=1)]
    return deals

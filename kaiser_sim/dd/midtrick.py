"""Double-dummy values in the middle of a trick, and a score for every card.

The solver (:mod:`kaiser_sim.dd.api`) works from trick boundaries.  This
module adds what a card-playing program needs (as DDS's ``SolveBoard`` does
for bridge):

- :func:`solve_mid`: the exact value of a position with cards already played
  to the current trick;
- :func:`score_cards`: the exact value after each legal card of the player
  to move.

Position state
--------------
``hands`` are the cards still in the hands (the cards of the current trick
already taken out), ``leader`` is the seat that led the current trick and
``trick`` the cards played to it so far, in play order (0..3 cards; the
player to move is ``(leader + len(trick)) % 4``).  Values are points (or
tricks) *from the start of the current trick*: the current trick counts in
full, whoever played its first cards.  With an empty trick this is exactly
:func:`kaiser_sim.dd.solve`.

How it works
------------
The solver's search starts in the middle of a trick as well
(:func:`kaiser_sim.dd.search.search_mid`: the cards on the table fill the first rows of its
stack), so the rest of the current trick is searched with the solver's own
move ordering, killers and "lowest win" (measured against the small
fixed-depth alpha-beta over the rest of the trick used before, which
ordered only "beat the winning card or not": PIMC play at K = 20, 100
deals, 6% fewer nodes counting the trick's own, 9% less CPU time).  A
completed trick (``_finish``) adds its points and searches on from the next
trick boundary with the window shifted by them.  Exact values come from an
MTD(f) driver (:func:`node_value`, null-window searches closing in on a
guess) and one transposition table is shared by every search of a turn --
its entries are exact facts about positions, so it may also be shared across
different cards, samples and deals of one thread.  Cards adjacent in rank in
one hand (no card between them still in play or on the table) are
equivalent and searched once; the 5H and the 3S never stand for a
neighbour in points mode.  Every legal card still gets its score.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import config
from ..cards import SUIT_MASK, NotationError, Seat, card_name, parse_hand
from . import _jit_cache
from .api import special_bits
from .bits import INF, beats, highest_bit_index, lowest_bit_index, trick_points
from .search import STATS_SIZE, points_left, search, search_mid
from .tt import new_tt

# the kernels below carry compiled copies of these files' kernels (the search's whole call tree): recompile them
# when those change
_jit_cache.depends_on(__file__, *_jit_cache.package_files("cards.py", "dd/bits.py", "dd/tt.py", "dd/bounds.py",
                                                          "dd/endgame.py", "dd/search.py"))

_ONE = np.uint64(1)
_SUIT_MASKS = SUIT_MASK


@njit(cache=True, inline="always")
def legal_cards(hand, led):
    """Cards of ``hand`` that may be played when suit ``led`` was led (-1: on lead)."""
    if led < 0:
        return hand
    follow = hand & _SUIT_MASKS[led]
    return follow if follow else hand


@njit(cache=True)
def representatives(legal, hand, present, special):
    """The legal cards to search: of each run of cards of ``hand`` adjacent
    among the ``present`` cards (every card still in a hand or on the table),
    only the highest; a special card is always its own run."""
    reps = legal
    m = legal
    while m:
        b = m & (~m + _ONE)
        m ^= b
        if b & special:
            continue
        c = lowest_bit_index(b)
        above = present & _SUIT_MASKS[c >> 4] & ~((b << _ONE) - _ONE)
        if above:
            nb = above & (~above + _ONE)  # next present card up the suit
            if (hand & nb) and (legal & nb) and (nb & special) == 0:
                reps ^= b
    return reps


@njit(cache=True)
def _finish(h, winner, tmask, trump, five, three, alpha, beta, tt_keys, tt_data, log2, stats):
    """N-S points of a completed trick (cards ``tmask``, won by ``winner``)
    plus the rest of the play from the next boundary; fail-soft in (alpha, beta)."""
    won = 0
    if (winner & 1) == 0:
        won = trick_points(tmask, five, three)
    if h[0] == 0 and h[1] == 0 and h[2] == 0 and h[3] == 0:
        return won
    return won + search(h, winner, trump, five, three, alpha - won, beta - won, tt_keys, tt_data, log2, stats, 0)


@njit(cache=True)
def node(h, leader, n, led, winner, wcard, tmask, trump, five, three, alpha, beta, tt_keys, tt_data, log2, stats):
    """Fail-soft N-S points from the start of the current trick, ``n`` cards
    (``tmask``) already played to it; ``n == 0`` is a trick boundary and
    ``n == 4`` a completed trick (``winner`` took it)."""
    if n == 0:
        if h[0] == 0 and h[1] == 0 and h[2] == 0 and h[3] == 0:
            return 0
        return search(h, leader, trump, five, three, alpha, beta, tt_keys, tt_data, log2, stats, 0)
    if n < 4:
        return search_mid(h, leader, trump, five, three, alpha, beta, tt_keys, tt_data, log2, stats, 0, n, tmask, led,
                          winner, wcard)
    return _finish(h, winner, tmask, trump, five, three, alpha, beta, tt_keys, tt_data, log2, stats)


@njit(cache=True)
def node_value(h, leader, n, led, winner, wcard, tmask, trump, five, three, total, guess, tt_keys, tt_data, log2,
                stats):
    """Exact N-S points of a ``node`` position, by MTD(f) from ``guess``
    (null-window searches; ``total`` = both sides' points from the trick's start)."""
    lo = -3
    hi = total + 3
    g = guess
    if g <= lo or g >= hi:
        g = total // 2
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = node(h, leader, n, led, winner, wcard, tmask, trump, five, three, beta - 1, beta, tt_keys, tt_data, log2,
                  stats)
        if g < beta:
            hi = g
        else:
            lo = g
    return g


@njit(cache=True)
def trick_state(leader, trick, ntrick, trump):
    """(led suit, winning seat, winning card, card mask) of a partial trick."""
    if ntrick == 0:
        return -1, leader, -1, np.uint64(0)
    led = trick[0] >> 4
    winner = leader
    wcard = trick[0]
    tmask = _ONE << np.uint64(trick[0])
    for i in range(1, ntrick):
        c = trick[i]
        tmask |= _ONE << np.uint64(c)
        if beats(c, wcard, trump):
            wcard = c
            winner = (leader + i) & 3
    return led, winner, wcard, tmask


@njit(cache=True, inline="always")
def play_into_trick(n, p, c, led, winner, wcard, trump):
    """(led suit, winning seat, winning card) after seat ``p`` plays ``c`` as
    the trick's card ``n`` (0: it leads)."""
    if n == 0:
        return c >> 4, p, c
    if beats(c, wcard, trump):
        return led, p, c
    return led, winner, wcard


@njit(cache=True)
def score_moves(h, leader, n, led, winner, wcard, tmask, trump, five, three, scores, tt_keys, tt_data, log2, stats):
    """Score every legal card of the player to move ``p = leader + n``:
    ``scores[c]`` = p's side's exact points from the start of the trick if
    ``p`` plays ``c`` (other entries untouched).  Returns the legal mask.

    Equivalent cards (a run in p's hand) are searched once and share the
    score.  The previous card's value is the next one's MTD(f) guess.
    """
    p = (leader + n) & 3
    legal = legal_cards(h[p], led)
    total = points_left(h, tmask, p, five, three)
    present = h[0] | h[1] | h[2] | h[3] | tmask
    special = five | three
    reps = representatives(legal, h[p], present, special)
    guess = -INF
    # highest card of every suit first, so a run's representative (its top)
    # is scored before the cards it stands for
    for s in range(3, -1, -1):
        m = legal & _SUIT_MASKS[s]
        run_value = 0
        while m:
            c = highest_bit_index(m)
            b = _ONE << np.uint64(c)
            m ^= b
            if reps & b:
                ld, w, wc = play_into_trick(n, p, c, led, winner, wcard, trump)
                h[p] ^= b
                g = guess if guess > -INF else total // 2
                v = node_value(h, leader, n + 1, ld, w, wc, tmask | b, trump, five, three, total, g, tt_keys,
                                tt_data, log2, stats)
                h[p] ^= b
                guess = v
                run_value = v if (p & 1) == 0 else total - v
            scores[c] = run_value
    return legal


@njit(cache=True)
def _solve_mid_kernel(h, leader, trick, ntrick, trump, five, three, tt_keys, tt_data, log2, stats):
    led, winner, wcard, tmask = trick_state(leader, trick, ntrick, trump)
    p = (leader + ntrick) & 3
    total = points_left(h, tmask, p, five, three)
    v = node_value(h, leader, ntrick, led, winner, wcard, tmask, trump, five, three, total, total // 2, tt_keys,
                    tt_data, log2, stats)
    return v if (p & 1) == 0 else total - v


@njit(cache=True)
def _score_kernel(h, leader, trick, ntrick, trump, five, three, tt_keys, tt_data, log2, stats):
    led, winner, wcard, tmask = trick_state(leader, trick, ntrick, trump)
    scores = np.full(64, -INF, np.int64)
    score_moves(h, leader, ntrick, led, winner, wcard, tmask, trump, five, three, scores, tt_keys, tt_data, log2,
                stats)
    return scores


# ---------------------------------------------------------------------------
# public wrappers


def strain_index(strain) -> int:
    """0..3 a trump suit, 4 no trump, from an index or any spelling
    :meth:`kaiser_sim.cards.Strain.parse` reads (``"S"``, ``"NT"``,
    ``"spades"``; low no trump is refused here: the position is played high)."""
    if isinstance(strain, str):
        from ..cards import Strain

        strain = Strain.parse(strain, low=False)
    s = int(strain)
    if not 0 <= s <= 4:
        raise ValueError(f"strain must be 0..3 (a suit) or 4 (no trump), got {strain}")
    return s


def read_position(hands, leader, trick):
    """Check a mid-trick position; returns (hands (4,) uint64, leader, trick int64 array)."""
    if isinstance(hands, str):
        h = _parse_partial_deal(hands)
    else:
        h = np.ascontiguousarray(hands, dtype=np.uint64).copy()
        if h.shape != (4,):
            raise ValueError("hands must be 4 bitboards (N, E, S, W)")
    if isinstance(leader, str):  # any spelling DDTable takes: N, n, north, ...
        lead = int(Seat.parse(leader))
    else:
        lead = int(leader)
    if not 0 <= lead <= 3:
        raise ValueError(f"leader must be a seat 0..3 (N E S W), got {leader}")
    cards = [_card_number(c) for c in trick]
    if len(cards) > 3:
        raise NotationError("at most 3 cards can be on the table before the player to move plays")
    union = int(h[0]) | int(h[1]) | int(h[2]) | int(h[3])
    for i in range(4):
        for j in range(i + 1, 4):
            if int(h[i]) & int(h[j]):
                raise NotationError("a card is in two hands")
    seen = 0
    for c in cards:
        if union >> c & 1 or seen >> c & 1:
            raise NotationError(f"{card_name(c)} is on the table and in a hand")
        seen |= 1 << c
    # lengths: seats that played to the trick hold one card fewer
    sizes = [bin(int(x)).count("1") for x in h]
    played = {(lead + i) % 4 for i in range(len(cards))}
    full = [sizes[s] + (1 if s in played else 0) for s in range(4)]
    if len(set(full)) != 1 or full[0] == 0:
        raise NotationError(f"hand lengths {sizes} do not fit {len(cards)} card(s) on the table "
                            f"led by {Seat(lead).name}")
    # the cards on the table must follow suit when they could
    if cards:
        led = cards[0] >> 4
        for i, c in enumerate(cards[1:], start=1):
            s = (lead + i) % 4
            if c >> 4 != led and int(h[s]) & int(SUIT_MASK[led]):
                raise NotationError(f"{Seat(s).name} played {card_name(c)} but still holds the led suit")
    return h, lead, np.array(cards + [0] * (3 - len(cards)), dtype=np.int64), len(cards)


def _card_number(c) -> int:
    """A card number from a number or a name (``AS``, ``5H``, ``A♠``)."""
    if isinstance(c, str):
        m = int(parse_hand(c, who="the trick"))
        if bin(m).count("1") != 1:
            raise NotationError(f"'{c}' is not one card")
        return m.bit_length() - 1
    return int(c)


def _parse_partial_deal(text):
    """A deal string whose hands may have unequal lengths (mid-trick)."""
    text = text.strip()
    start = Seat.N
    if ":" in text:
        first, text = text.split(":", 1)
        start = Seat[first.strip().upper()]
    parts = text.split()
    if len(parts) != 4:
        raise NotationError(f"a deal needs 4 hands, got {len(parts)}")
    h = np.zeros(4, dtype=np.uint64)
    for i, part in enumerate(parts):
        h[(start + i) % 4] = parse_hand(part, who=Seat((start + i) % 4).name)
    return h


def _tables():
    keys, data = new_tt(config.TT_LOG2_ENTRIES)
    return keys, data, np.zeros(STATS_SIZE, dtype=np.int64)


def solve_mid(hands, leader, strain, trick=(), mode: str = "points") -> int:
    """Exact double-dummy value of a position in the middle of a trick.

    Parameters
    ----------
    hands : (4,) uint64 bitboards of the cards still in the hands (the cards
        of ``trick`` already taken out), or a deal string with those hands.
    leader : seat that led the current trick.
    strain : 0..3 trump suit, 4 no trump.
    trick : cards played to the current trick, in order from ``leader``
        (card numbers of :mod:`kaiser_sim.cards` or names like ``"AS"``).
    mode : ``"points"`` or ``"tricks"``.

    Returns
    -------
    The points (tricks) from the start of the current trick on -- the
    current trick counted in full -- for the side of the player to move,
    under best play by both sides.  With ``trick=()`` this is
    :func:`kaiser_sim.dd.solve`.  Kernel: ``_solve_mid_kernel``.
    """
    h, lead, cards, n = read_position(hands, leader, trick)
    f, t = special_bits(mode)
    keys, data, stats = _tables()
    return int(_solve_mid_kernel(h, lead, cards, n, strain_index(strain), f, t, keys, data, config.TT_LOG2_ENTRIES, stats))


def score_cards(hands, leader, strain, trick=(), mode: str = "points") -> dict[int, int]:
    """Double-dummy value of every legal card of the player to move.

    Same position arguments as :func:`solve_mid`.  Returns ``{card: value}``
    for each legal card, the value for the side of the player to move, from
    the start of the current trick, if it plays that card and everyone plays
    best afterwards; the best card's value equals :func:`solve_mid`.
    Kernel: ``_score_kernel``.
    """
    h, lead, cards, n = read_position(hands, leader, trick)
    f, t = special_bits(mode)
    keys, data, stats = _tables()
    scores = _score_kernel(h, lead, cards, n, strain_index(strain), f, t, keys, data, config.TT_LOG2_ENTRIES, stats)
    return {int(c): int(scores[c]) for c in np.nonzero(scores > -INF)[0]}


__all__ = ["solve_mid", "score_cards"]

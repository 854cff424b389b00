"""Features of one hand: suit lengths, high cards, the trump rules, the Kaiser count.

Below the studies, the runs and the models (it needs only :mod:`kaiser_sim.cards`'
bit layout), so every layer names trump and counts a hand the same way.
Every function takes hands as an array of bitboards (any shape) and works
element-wise.

The strength measure
--------------------
:func:`strength` is the *Kaiser count* of the declarer's own hand: the best
predictor of the declaring side's points found by the hand-eval study,
rounded to half points so a player can count it at the table
(:data:`KAISER_COUNT`): in the trump suit (named by the trump rule) A 2,
K 1, Q 1/2; in side suits A 1, K 1/2; 1 a trump; 5H 1/2; 3S 1 1/2; plus
1/2.  The constants come from hand-eval on 100,000 deals (seed 1, deals
0-99,999, standard rules, trump longest-strength: :data:`KAISER_COUNT_FIT`);
rerun that study to refit them for other rules.  On deals independent of
that fit (the held-out fifth of 20,000 deals of seed 2) it explains
R^2 0.177 [0.166, 0.186] of the declaring side's points in the trump by
rule, against 0.065 for the plain high-card count and 0.184 for the
unrounded fitted count.

What the count means, as measured (hand-eval's ``count_calibration`` on
20,000 deals of seed 2, 80,000 declarer hands, 95% intervals clustered by
deal): on average the declaring side takes about the count + 1/3 points
in the trump by rule (mean count 6.74, mean points 7.07; points - count
+0.34 [0.32, 0.35]).  The count understates middling hands by 0.3 to 0.45
points (counts 4.5 to 9), is about right at 4 or less (+0.03
[-0.09, 0.15]) and at 9.5-10 (-0.10 [-0.18, -0.02]), and overstates
strong hands: from 10.5 up the side takes 0.70 [0.57, 0.83] points less
than the count (963 hands).  Read it as a ranking of hands roughly in
points, not as a promise of points.

The plain high-card count (A4 K3 Q2 J1) stays available as :func:`hcp` and
the ``hcp`` column of :func:`declarer_frame`.  The Kaiser count is the
strength axis of the bid-odds, bidding-chart and dd-bias studies.

Trump rules
-----------
The declarer names trump from its own hand (:func:`trump_by_rule`):

- ``longest``: the longest suit; ties to the first in S H D C order;
- ``strongest``: the suit with the most high-card points (A4 K3 Q2 J1);
  ties to the longer, then S H D C order;
- ``longest-strength`` (the default, "longest suit, ties by strength"): the
  longest suit; ties to the one with more high-card points, then S H D C.
"""

from __future__ import annotations

import numpy as np

from .cards import FIVE_HEARTS, THREE_SPADES

#: rank indices inside a suit (see kaiser_sim.cards)
RANK_A, RANK_K, RANK_Q, RANK_J, RANK_T = 8, 7, 6, 5, 4
#: plain high-card count A4 K3 Q2 J1
HCP_VALUES = {RANK_A: 4, RANK_K: 3, RANK_Q: 2, RANK_J: 1}
TRUMP_RULES = ("longest", "strongest", "longest-strength")
DEFAULT_TRUMP_RULE = "longest-strength"
#: the printable Kaiser count (module doc): points per feature of the hand,
#: relative to the trump suit named from it; "constant" is added once
KAISER_COUNT = {"trump A": 2.0, "trump K": 1.0, "trump Q": 0.5, "side A": 1.0, "side K": 0.5,
                "per trump": 1.0, "5H": 0.5, "3S": 1.5, "constant": 0.5}
#: where :data:`KAISER_COUNT` was fitted (module doc): hand-eval on deals
#: ``first .. first+deals-1`` of ``seed`` (8-card hands from the 32-card deck, no
#: fixed cards), ``rules`` and ``trump_rule``; a study scoring the count keeps
#: off these deals (hand-eval's ``scored_on``)
KAISER_COUNT_FIT = {"seed": 1, "first": 0, "deals": 100_000, "rules": "standard", "trump_rule": "longest-strength",
                    "hand_size": 8, "deck34": False}
#: strength buckets: (label, lowest, highest) of the Kaiser count (steps of 1/2)
STRENGTH_BUCKETS = (("<=4", 0, 4.0), ("4.5-5", 4.5, 5.0), ("5.5-6", 5.5, 6.0), ("6.5-7", 6.5, 7.0),
                    ("7.5-8", 7.5, 8.0), ("8.5-9", 8.5, 9.0), ("9.5-10", 9.5, 10.0), ("10.5+", 10.5, 99.0))
_M16 = np.uint64(0xFFFF)
def suit_bits(hands, suit: int) -> np.ndarray:
    """The 16 bits of ``suit`` of each hand (int64), rank index = bit."""
    h = np.asarray(hands, dtype=np.uint64)
    return ((h >> np.uint64(16 * suit)) & _M16).astype(np.int64)


def suit_lengths(hands) -> np.ndarray:
    """``(..., 4)`` int64 suit lengths S H D C of each hand."""
    return np.stack([np.bitwise_count(suit_bits(hands, s)).astype(np.int64) for s in range(4)], axis=-1)


def rank_held(hands, suit: int, rank: int) -> np.ndarray:
    """1 where the hand holds ``rank`` (index 0..8) of ``suit``, else 0."""
    return (suit_bits(hands, suit) >> rank) & 1


def suit_hcp(hands) -> np.ndarray:
    """``(..., 4)`` high-card points A4 K3 Q2 J1 in each suit."""
    out = []
    for s in range(4):
        b = suit_bits(hands, s)
        out.append(sum(v * ((b >> r) & 1) for r, v in HCP_VALUES.items()))
    return np.stack(out, axis=-1).astype(np.int64)


def hcp(hands) -> np.ndarray:
    """Plain high-card count A4 K3 Q2 J1 of each hand."""
    return suit_hcp(hands).sum(axis=-1)


def has_card(hands, card: int) -> np.ndarray:
    """True where the hand holds ``card`` (a card number of kaiser_sim.cards)."""
    return (np.asarray(hands, dtype=np.uint64) >> np.uint64(card)) & np.uint64(1) == np.uint64(1)


def aces(hands) -> np.ndarray:
    return sum(rank_held(hands, s, RANK_A) for s in range(4))


def kaiser_count(hands, trump) -> np.ndarray:
    """The printable Kaiser count (:data:`KAISER_COUNT`, module doc) of each
    hand with ``trump`` (0..3, one per hand) as its trump suit; float64,
    multiples of 1/2."""
    h = np.asarray(hands, dtype=np.uint64)
    t = np.asarray(trump, dtype=np.int64)
    k = KAISER_COUNT
    in_trump = lambda rank: np.choose(t, [rank_held(h, s, rank) for s in range(4)])  # noqa: E731
    all_suits = lambda rank: sum(rank_held(h, s, rank) for s in range(4))  # noqa: E731
    ta, tk = in_trump(RANK_A), in_trump(RANK_K)
    length = np.choose(t, [np.bitwise_count(suit_bits(h, s)).astype(np.int64) for s in range(4)])
    return (k["trump A"] * ta + k["trump K"] * tk + k["trump Q"] * in_trump(RANK_Q)
            + k["side A"] * (all_suits(RANK_A) - ta) + k["side K"] * (all_suits(RANK_K) - tk)
            + k["per trump"] * length + k["5H"] * has_card(h, FIVE_HEARTS) + k["3S"] * has_card(h, THREE_SPADES)
            + k["constant"]).astype(np.float64)


def strength(hands, trump=None) -> np.ndarray:
    """The shared strength measure of the studies: the Kaiser count with
    ``trump`` (default: the suit the default trump rule names from each
    hand; module doc).  One function, so the axis changes in one place."""
    if trump is None:
        trump = trump_by_rule(hands)
    return kaiser_count(hands, trump)


def trump_by_rule(hands, rule: str = DEFAULT_TRUMP_RULE) -> np.ndarray:
    """Trump suit (0..3) the declarer names from its own hand by ``rule``
    (one of :data:`TRUMP_RULES`, module doc)."""
    length = suit_lengths(hands)
    points = suit_hcp(hands)
    if rule == "longest":
        key = length
    elif rule == "strongest":
        key = points * 100 + length
    elif rule == "longest-strength":
        key = length * 100 + points
    else:
        raise ValueError(f"unknown trump rule '{rule}' (use {', '.join(TRUMP_RULES)})")
    return np.argmax(key, axis=-1)  # first maximum: S H D C order on full ties

# --- the hand-eval study's features (also the make model's) -------------------------------------

#: face value of each rank index (kaiser_sim.cards), for the rank-squared count
_FACE = {1: 7, 2: 8, 3: 9, 4: 10, 5: 11, 6: 12, 7: 13, 8: 14}
_RANKS = (("A", RANK_A), ("K", RANK_K), ("Q", RANK_Q), ("J", RANK_J), ("T", RANK_T))
#: the columns of :func:`features`: one per rank A K Q J T in trump and in side suits, per trump, 5H, 3S, constant
FEATURES = ([f"trump {r}" for r, _ in _RANKS] + [f"side {r}" for r, _ in _RANKS]
            + ["per trump", "5H", "3S", "constant"])


def rank_squared(hands) -> np.ndarray:
    """Sum of (card face value)^2 / 100 over the hand (A 14 .. 5H 5, 3S 3)."""
    out = np.zeros(len(hands))
    for s in range(4):
        b = suit_bits(hands, s)
        for r, face in _FACE.items():
            out += ((b >> r) & 1) * face * face
        low = {0: 3, 1: 5}.get(s)
        if low:
            out += (b & 1) * low * low
    return out / 100.0


def features(hands, trump) -> np.ndarray:
    """``(n, len(FEATURES))`` design matrix of the fitted count."""
    h = np.asarray(hands, dtype=np.uint64).reshape(-1)
    n = h.shape[0]
    bits = np.stack([suit_bits(h, s) for s in range(4)])  # (4, n): each suit's bits, read once
    tb = bits[np.broadcast_to(np.asarray(trump, dtype=np.int64), (n,)), np.arange(n)]  # the trump suit's
    X = np.empty((n, len(FEATURES)), dtype=np.float64)
    for j, (_, r) in enumerate(_RANKS):
        in_trump = (tb >> r) & 1
        X[:, j] = in_trump
        X[:, len(_RANKS) + j] = ((bits >> r) & 1).sum(axis=0) - in_trump
    X[:, 2 * len(_RANKS)] = np.bitwise_count(tb)
    X[:, 2 * len(_RANKS) + 1] = has_card(h, FIVE_HEARTS)
    X[:, 2 * len(_RANKS) + 2] = has_card(h, THREE_SPADES)
    X[:, 2 * len(_RANKS) + 3] = 1.0
    return X


def heuristic(hands, trump) -> np.ndarray:
    """3 a trump + 4 trump A + 3 trump K + 3 for the 5H + 2 per other ace - 2 for the 3S."""
    X = features(hands, trump)
    f = {k: X[:, i] for i, k in enumerate(FEATURES)}
    return 3 * f["per trump"] + 4 * f["trump A"] + 3 * f["trump K"] + 3 * f["5H"] + 2 * f["side A"] - 2 * f["3S"]


__all__ = ["RANK_A", "RANK_K", "RANK_Q", "RANK_J", "RANK_T", "HCP_VALUES", "TRUMP_RULES", "DEFAULT_TRUMP_RULE",
           "KAISER_COUNT", "KAISER_COUNT_FIT", "STRENGTH_BUCKETS", "suit_bits", "suit_lengths", "rank_held", "suit_hcp", "hcp", "has_card",
           "aces", "kaiser_count", "strength", "trump_by_rule", "FEATURES", "features", "rank_squared", "heuristic"]


# --- every hand of the deck: the pools of the conditioned deals ------------------------------


def every_hand() -> np.ndarray:
    """All C(32, 8) = 10,518,300 eight-card hands of the 32-card deck, as
    bitboards (uint64, no order promised; made suit by suit).  What a cell of
    hands (a count band x trump length) holds is read from it exactly, so
    deals can be dealt to a cell (:func:`kaiser_sim.deal.deals_with_hands`)
    however rare the cell."""
    from itertools import combinations, product

    from .cards import DECK_32, SUIT_BITS

    deck = int(DECK_32)
    suits = [[b for b in range(64) if deck >> b & 1 and b // SUIT_BITS == s] for s in range(4)]
    subsets = [[np.array([sum(1 << b for b in c) for c in combinations(suits[s], k)], dtype=np.uint64)
                for k in range(9)] for s in range(4)]
    parts = []
    for a, b, c in product(range(9), repeat=3):
        d = 8 - a - b - c
        if 0 <= d <= 8:
            parts.append((subsets[0][a][:, None, None, None] | subsets[1][b][None, :, None, None]
                          | subsets[2][c][None, None, :, None] | subsets[3][d][None, None, None, :]).ravel())
    return np.concatenate(parts)

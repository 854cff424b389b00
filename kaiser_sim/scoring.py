"""Scoring: the points of a trick, a side's raw points, a hand's score and
the end of the match, for any :class:`~kaiser_sim.rules.Rules`.

Two twins that must agree (the tests check it with hypothesis):

- :func:`score_hand` -- one hand, plain Python, returns a :class:`HandResult`;
- :func:`score_hands` -- many hands at once over numpy arrays (for
  simulations), returns a :class:`HandResults` of arrays.

Raw points of a side = tricks + 5 if it captured the 5H - 3 if it captured
the 3S (:func:`raw_points`; ``cover3`` changes this).  Scoring a hand (docs/rules.md
§4): the declaring side scores its raw points if they reach the bid (exactly
the bid with ``made_scores="bid"``), else loses the bid; no trump doubles
per ``nt_scoring``; the defenders score their raw points, except that a side
whose total before the hand is at least ``bid_out`` adds no positive points
(negative ones always count).  The match (§5) ends when a side reaches the
target (``tie_rule`` if both do; ``only_bidders_win``), on a Kaiser with
``kaiser_outright``, or when a side falls to ``lose_at``.

Sides are 0 (N-S) and 1 (E-W); ``scores`` are ``(N-S, E-W)``.

Example
-------
>>> from kaiser_sim.rules import Rules
>>> from kaiser_sim.auction import make_contract
>>> r = Rules()
>>> score_hand(r, make_contract(r, "8", "N"), 7, (10, 20)).scores   # failed: -8; E-W take 3
(2, 23)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .auction import Contract
from .cards import FIVE_HEARTS, THREE_SPADES, Seat
from .rules import MAX_BID, Rules

NO_WINNER = -1


# --- tricks and raw points -------------------------------------------------------------


def _card_number(card) -> int:
    if isinstance(card, str):
        from .cards import parse_hand

        mask = int(parse_hand(card))
        if mask == 0 or mask & (mask - 1):
            raise ValueError(f"'{card}' is not one card")
        return mask.bit_length() - 1
    return int(card)


def trick_winner(cards, leader: int, strain: int) -> int:
    """Seat winning a trick: ``cards`` in play order from ``leader`` (card
    numbers or names like ``"AH"``); the highest trump, else the highest card
    of the led suit (a higher bit is a higher card; relabel for low NT)."""
    cs = [_card_number(c) for c in cards]
    best = 0
    for i in range(1, len(cs)):
        c, w = cs[i], cs[best]
        if (c >> 4) == (w >> 4):
            if c > w:
                best = i
        elif (c >> 4) == strain:
            best = i
    return (int(leader) + best) % 4


def trick_points(cards, five: int = FIVE_HEARTS, three: int = THREE_SPADES) -> int:
    """Raw points of one trick: 1, +5 with the 5H, -3 with the 3S."""
    cs = {_card_number(c) for c in cards}
    return 1 + 5 * (five in cs) - 3 * (three in cs)


def raw_points(rules: Rules, tricks, five, three):
    """A side's raw points from its tricks and whether it captured the 5H /
    the 3S.  Works on scalars (returns int) and on numpy arrays.

    Standard: tricks + 5*five - 3*three.  With ``cover3``, a side with fewer
    than 3 tricks scores neither its tricks nor the 5H, and -3 if it took the
    3S ("1 or 2 tricks with the 3S = -3, 3 tricks = 0").
    """
    t = np.asarray(tricks, dtype=np.int64)
    f = np.asarray(five, dtype=bool)
    s = np.asarray(three, dtype=bool)
    raw = t + 5 * f - 3 * s
    if rules.cover3:
        raw = np.where(t >= 3, raw, np.where(s, -3, t))
    return int(raw) if raw.ndim == 0 else raw


# --- one hand ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HandResult:
    """What one hand did to the match.

    scores : (N-S, E-W) totals after the hand.
    delta : what each side added.
    made : did the declaring side make its bid?
    winner : side that won the match on this hand (0 N-S, 1 E-W) or None.
    reason : why the match ended: ``"target"``, ``"kaiser"`` (a Kaiser made or
        failed with ``kaiser_outright``), ``"lose_at"``; None if it goes on.
    target : the target from now on (raised by ``target_after_nt``).
    skunk : the match ended with the loser at 0 or below ("52-0").
    pot : paid into the pot by the declaring side (``failed_bid_pot``).
    """

    scores: tuple[int, int]
    delta: tuple[int, int]
    made: bool
    winner: int | None
    reason: str | None
    target: int
    skunk: bool
    pot: int


def declarer_gain(rules: Rules, level: int, nt: bool, raw: int) -> tuple[bool, int]:
    """(made, points the declaring side adds) for a bid of ``level``."""
    if raw >= level:
        base = level if rules.made_scores == "bid" else raw
        return True, base * (2 if nt and rules.nt_scoring != "single" else 1)
    return False, -level * (2 if nt and rules.nt_scoring == "double" else 1)


def defender_gain(rules: Rules, raw: int, total_before: int) -> int:
    """Points the defending side adds: its raw points, except no positive
    points from a total of ``bid_out`` or more."""
    thr = rules.bid_out_threshold
    if thr is not None and total_before >= thr and raw > 0:
        return 0
    return raw


def score_hand(
    rules: Rules,
    contract: Contract,
    declarer_side_raw: int,
    scores_before=(0, 0),
    *,
    defender_raw: int | None = None,
    target: int | None = None,
) -> HandResult:
    """Score one hand and tell whether it ends the match.

    Parameters
    ----------
    rules : the rules played.
    contract : the contract (its bid and declarer matter here).
    declarer_side_raw : the declaring side's raw points.  For a solo Kaiser
        (``kaiser_outright="solo"``) the bidder's own raw points.
    scores_before : (N-S, E-W) totals before the hand.
    defender_raw : the defenders' raw points; default ``rules.raw_total -
        declarer_side_raw`` (pass it when a special card was discarded to
        the kitty or with ``cover3``, where the sides need not add up).
    target : the match target before this hand (default ``rules.target``;
        pass the previous :attr:`HandResult.target` in a match).
    """
    side = int(contract.declarer) & 1
    other = 1 - side
    level, nt = contract.bid.level, contract.bid.nt
    target = rules.target if target is None else int(target)
    if defender_raw is None:
        defender_raw = rules.raw_total - declarer_side_raw
    before = (int(scores_before[0]), int(scores_before[1]))

    made, gain = declarer_gain(rules, level, nt, int(declarer_side_raw))
    dgain = defender_gain(rules, int(defender_raw), before[other])
    delta = [0, 0]
    delta[side] = gain
    delta[other] = dgain
    after = (before[0] + delta[0], before[1] + delta[1])

    if rules.target_after_nt is not None and made and nt:
        target = max(target, rules.target_after_nt)

    winner, reason = None, None
    kaiser = level == MAX_BID and nt
    if kaiser and rules.kaiser_outright == "solo":
        winner, reason = (side if made else other), "kaiser"
    elif kaiser and rules.kaiser_outright == "team" and made:
        winner, reason = side, "kaiser"
    else:
        decl_out = after[side] >= target and (made or not rules.only_bidders_win)
        def_out = after[other] >= target and not rules.only_bidders_win
        if decl_out and def_out:
            if rules.tie_rule == "higher" and after[other] > after[side]:
                winner = other
            else:
                winner = side
            reason = "target"
        elif decl_out or def_out:
            winner, reason = (side if decl_out else other), "target"
        elif rules.lose_at is not None:
            down = [after[0] <= rules.lose_at, after[1] <= rules.lose_at]
            if down[0] or down[1]:
                if down[0] and down[1]:
                    loser = side if after[side] <= after[other] else other
                else:
                    loser = 0 if down[0] else 1
                winner, reason = 1 - loser, "lose_at"
    skunk = winner is not None and after[1 - winner] <= 0
    pot = rules.failed_bid_pot if not made else 0
    return HandResult(after, (delta[0], delta[1]), made, winner, reason, target, skunk, pot)


# --- many hands -------------------------------------------------------------------------


@dataclass(frozen=True)
class HandResults:
    """:class:`HandResult` for many hands, as arrays (``winner`` is -1 when the
    match goes on; ``reason`` codes: 0 none, 1 target, 2 kaiser, 3 lose_at)."""

    scores: np.ndarray  # (n, 2) int64
    delta: np.ndarray  # (n, 2) int64
    made: np.ndarray  # (n,) bool
    winner: np.ndarray  # (n,) int8
    reason: np.ndarray  # (n,) int8
    target: np.ndarray  # (n,) int64
    skunk: np.ndarray  # (n,) bool
    pot: np.ndarray  # (n,) int64

    def __len__(self) -> int:
        return self.made.shape[0]

    def to_frame(self):
        """A pandas DataFrame, one row per hand."""
        import pandas as pd

        return pd.DataFrame(
            {
                "ns": self.scores[:, 0],
                "ew": self.scores[:, 1],
                "ns_delta": self.delta[:, 0],
                "ew_delta": self.delta[:, 1],
                "made": self.made,
                "winner": self.winner,
                "reason": pd.Categorical([REASONS[r] for r in self.reason], categories=list(REASONS[1:])),
                "target": self.target,
                "skunk": self.skunk,
                "pot": self.pot,
            }
        )

    def __getitem__(self, i) -> HandResult:
        w = int(self.winner[i])
        return HandResult(
            (int(self.scores[i, 0]), int(self.scores[i, 1])),
            (int(self.delta[i, 0]), int(self.delta[i, 1])),
            bool(self.made[i]),
            None if w < 0 else w,
            REASONS[int(self.reason[i])],
            int(self.target[i]),
            bool(self.skunk[i]),
            int(self.pot[i]),
        )


REASONS = (None, "target", "kaiser", "lose_at")


def score_hands(
    rules: Rules,
    level,
    nt,
    declarer,
    declarer_raw,
    scores_before,
    *,
    defender_raw=None,
    target=None,
) -> HandResults:
    """Vectorised :func:`score_hand` over n hands.

    Parameters
    ----------
    level, nt, declarer : (n,) bid levels, no-trump flags and declarer seats
        (only ``seat & 1``, the side, matters) -- or scalars, broadcast.
    declarer_raw : (n,) raw points of the declaring side.
    scores_before : (n, 2) or (2,) totals (N-S, E-W) before the hands.
    defender_raw : (n,) defenders' raw points; default ``rules.raw_total -
        declarer_raw``.
    target : (n,) or scalar current targets; default ``rules.target``.
    """
    raw = np.asarray(declarer_raw, dtype=np.int64)
    n = raw.shape[0] if raw.ndim else 1
    raw = np.broadcast_to(raw, (n,))
    level = np.broadcast_to(np.asarray(level, dtype=np.int64), (n,))
    nt = np.broadcast_to(np.asarray(nt, dtype=bool), (n,))
    side = np.broadcast_to(np.asarray(declarer, dtype=np.int64) & 1, (n,))
    before = np.broadcast_to(np.asarray(scores_before, dtype=np.int64), (n, 2))
    draw = (rules.raw_total - raw) if defender_raw is None else np.asarray(defender_raw, dtype=np.int64)
    draw = np.broadcast_to(draw, (n,))
    tgt = np.broadcast_to(np.asarray(rules.target if target is None else target, dtype=np.int64), (n,))
    idx = np.arange(n)
    other = 1 - side

    made = raw >= level
    made_mult = np.where(nt & (rules.nt_scoring != "single"), 2, 1)
    fail_mult = np.where(nt & (rules.nt_scoring == "double"), 2, 1)
    base = level if rules.made_scores == "bid" else raw
    gain = np.where(made, base * made_mult, -level * fail_mult)

    thr = rules.bid_out_threshold
    def_before = before[idx, other]
    dgain = draw.copy()
    if thr is not None:
        dgain = np.where((def_before >= thr) & (draw > 0), 0, draw)

    delta = np.zeros((n, 2), dtype=np.int64)
    delta[idx, side] = gain
    delta[idx, other] = dgain
    after = before + delta

    if rules.target_after_nt is not None:
        tgt = np.where(made & nt, np.maximum(tgt, rules.target_after_nt), tgt)

    decl_after = after[idx, side]
    def_after = after[idx, other]
    winner = np.full(n, NO_WINNER, dtype=np.int64)
    reason = np.zeros(n, dtype=np.int64)

    decl_out = decl_after >= tgt
    if rules.only_bidders_win:
        decl_out &= made
        def_out = np.zeros(n, dtype=bool)
    else:
        def_out = def_after >= tgt
    both = decl_out & def_out
    if rules.tie_rule == "higher":
        tie_winner = np.where(def_after > decl_after, other, side)
    else:
        tie_winner = side
    winner = np.where(both, tie_winner, np.where(decl_out, side, np.where(def_out, other, winner)))
    reason = np.where(decl_out | def_out, 1, reason)

    if rules.lose_at is not None:
        down0 = after[:, 0] <= rules.lose_at
        down1 = after[:, 1] <= rules.lose_at
        both_down = down0 & down1
        loser = np.where(both_down, np.where(decl_after <= def_after, side, other), np.where(down0, 0, 1))
        fire = (winner < 0) & (down0 | down1)
        winner = np.where(fire, 1 - loser, winner)
        reason = np.where(fire, 3, reason)

    kaiser = (level == MAX_BID) & nt
    if rules.kaiser_outright == "solo":
        winner = np.where(kaiser, np.where(made, side, other), winner)
        reason = np.where(kaiser, 2, reason)
    elif rules.kaiser_outright == "team":
        k = kaiser & made
        winner = np.where(k, side, winner)
        reason = np.where(k, 2, reason)

    has = winner >= 0
    loser_score = after[idx, np.where(has, 1 - winner, 0)]
    skunk = has & (loser_score <= 0)
    pot = np.where(made, 0, rules.failed_bid_pot).astype(np.int64)
    return HandResults(after, delta, made, winner.astype(np.int8), reason.astype(np.int8),
                       tgt.astype(np.int64), skunk, pot)


def side_of(seat) -> int:
    """0 for N-S, 1 for E-W."""
    if isinstance(seat, str):
        seat = Seat[seat.upper()]
    return int(seat) & 1

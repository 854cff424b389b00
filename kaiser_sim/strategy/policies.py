"""Bidding policies for the match engine, and the vectorised auction.

A policy maps what one seat knows -- its own hand and public information
(the auction so far, its seat, the dealer, the scores, the target, the
rules) -- to a call.  That input is a :class:`BidView`, built by the
engine: it has no field that could hold another player's cards, so a
policy cannot peek.  Policies work on batches (one row per match being
played), so :meth:`Policy.bid` takes a ``BidView`` of ``n`` rows and
returns ``n`` calls: a rank on the rules' ladder (:func:`ladder_arrays`,
0 = lowest bid) or :data:`PASS`.  :meth:`Policy.call` is the one-hand
convenience form.

Policies (:data:`POLICIES`, :func:`get_policy`):

- ``ev``: the bid with the highest expected hand score (from the hand's
  make-probabilities, :mod:`kaiser_sim.strategy.make_model`; made: the raw points,
  NT doubled per the rules; failed: minus the bid) among the legal ones;
  pass if none is positive.  A made bid scores its raw points whatever its
  level, so ``ev`` bids the lowest legal bid while that is worth it:
  it overcalls up to the highest level with a positive expected score.
- ``cautious`` / ``aggressive``: ``ev`` with a margin: bid only if the
  expected score is above +2 / above -2 points.
- ``score-aware``: maximises the probability of winning the match, by a
  one-step lookahead on the score (the win-probability model at the end of this module): each legal
  bid is valued as P(win the match) after this hand if it becomes the
  contract (the hand's raw-points distribution times the value of every
  resulting score), passing as P(win) after a hand the opponents declare;
  the value of a score comes from a dynamic programme over (our, their)
  scores with a per-hand outcome model.  Approximations: the bid is valued
  as if it ends the auction, and passing as if the opponents declare.
- ``rank-squared`` and ``trump-heuristic``: the hand counts of existing
  Kaiser programs (:mod:`kaiser_sim.studies.hand_eval`: sum of face
  value squared / 100; 3 x trump length + 4 trump A + 3 trump K + 3 for
  the 5H + 2 per other ace - 2 for the 3S), turned into the points the
  hand expects to take by a straight line fitted on the model's dataset;
  they bid (plain, never NT) while the bid is at most those points, and
  name trump by rule (longest suit, ties by strength).
- ``listening``: the action of :data:`ACTIONS` (pass, the cheapest plain
  and NT bids, one step above each, the dealer's match) with the highest
  mean net value (its side's hand score minus the opponents', at 0-0)
  given what was heard: its position, who holds the highest bid and its
  rank, and its hand's feature (:func:`listen_features`), read from a
  :class:`ListeningTable` built by simulation (:mod:`kaiser_sim.strategy.listening`,
  shipped as package data); ``ev``'s call where the table is thin or its
  best action does not beat ``ev``'s call by a standard error, and
  ``score-aware``'s from 7 points below the target on (the 45 rule).
- ``population``: stochastic (:mod:`kaiser_sim.strategy.population`):
  a probability for every legal call, a softmax of each action's net value
  given the hand's features and what was heard (fitted by self-play, both
  partners improved together, shipped as package data) with a floor on
  every other legal call; :meth:`Policy.bid` draws from them with a
  uniform hashed from what the seat knows (:func:`call_uniforms`,
  :func:`draw_calls`); ``score-aware``'s P(win) from 45 on.

All make-probabilities come from the shipped model, never from the deal
being played.

Table play or double dummy (``play``)
-------------------------------------
The make model (:mod:`kaiser_sim.strategy.make_model`) gives the side's
*double-dummy* points, about one bid too optimistic for a real table.  By
default (``play="table"``) every policy expects table play instead: each
double-dummy distribution ``d`` (over -2..12) is composed with the
table-play model (:mod:`kaiser_sim.strategy.table_play`), ``d @ M`` with ``M`` the
matrix of the strain kind (trump / NT), and the expected scores, the
score-aware policy's win-probability model (the win-probability model at the end of this module) and
the heuristics' expected points (their straight line read as a DD value,
mapped through the expected table points of each DD value, interpolated)
all use that distribution.  ``play="dd"`` keeps the double-dummy
distributions (the behaviour before the table-play model).  Every rules
set reads the model shipped for its game (a kitty, low no trump, cover 3:
:func:`kaiser_sim.strategy.table_play.load_model` with the rules); only a model
that cannot be read, or one fitted on other rules, makes the policies
fall back to double dummy: :func:`play_used` says which was used and
:func:`play_note` why.

This is only what a bidder *expects*; how the match engine scores the
contracts is its own option (:mod:`kaiser_sim.strategy.match`, ``engine``).

Rules beyond the make model's game (:func:`rules_note`): with a kitty the
bidders value the cards they hold (the kitty is unseen, as at the table)
with the 8-card game's model; low no trump is valued by the NT model on the
rank-reversed hand (:func:`low_nt_dist`); cover 3 is not in the model; under
the solo Kaiser no policy bids 12NT (``LadderArrays.playable``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ..errors import KaiserSimError
from ..auction import Bid, as_call, ladder
from ..rules import Rules
from ..scoring import declarer_gain, score_hands
from .measure import MEASURES

#: the code of a pass in call arrays
PASS = -1
#: expected-score margins of the cautious and aggressive policies (points)
CAUTIOUS_MARGIN = 2.0
AGGRESSIVE_MARGIN = -2.0
#: the trembling hand of a deterministic policy's :meth:`Policy.probs`: the probability that it
#: makes another legal call than its own (shared equally by the other legal calls), so that every
#: legal auction has a likelihood > 0 under every model (the soft conditioning of the calls heard,
#: :mod:`kaiser_sim.strategy.conditioned`): about one call in a hundred that a real player's
#: judgement, a misread hand or a slip makes differently from the model
TREMBLE = 0.01
#: what the policies' make-probabilities model (module doc): table play, or double dummy
PLAYS = MEASURES
DEFAULT_PLAY = "table"


class PolicyError(KaiserSimError):
    """An unknown policy name, or a policy that made an illegal call."""


# --- the ladder as arrays ----------------------------------------------------------------


@dataclass(frozen=True)
class LadderArrays:
    """The rules' ladder as arrays: ``bids[i]`` is rank ``i``; ``levels``,
    ``nt``; ``gain[i, r]`` the declaring side's hand score of bid ``i`` with
    raw points ``r - 2`` (:func:`kaiser_sim.scoring.declarer_gain`)."""

    bids: tuple
    levels: np.ndarray
    nt: np.ndarray
    gain: np.ndarray
    #: low no-trump bids (rules ``low_nt="bid"``)
    low: np.ndarray | None = None
    #: bids a policy may make: all but 12NT under the solo Kaiser (:func:`rules_note`)
    playable: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.bids)

    def rank(self, bid) -> int:
        return PASS if bid is None else self.bids.index(as_call(bid))


@functools.lru_cache(maxsize=32)
def ladder_arrays(rules: Rules) -> LadderArrays:
    from .make_model import RAW_VALUES

    bids = tuple(ladder(rules))
    levels = np.array([b.level for b in bids], dtype=np.int64)
    nt = np.array([b.nt for b in bids], dtype=bool)
    gain = np.array([[declarer_gain(rules, b.level, b.nt, int(r))[1] for r in RAW_VALUES] for b in bids],
                    dtype=np.float64)
    low = np.array([b.low for b in bids], dtype=bool)
    playable = np.array([not (b.is_kaiser and rules.kaiser_outright == "solo") for b in bids], dtype=bool)
    return LadderArrays(bids, levels, nt, gain, low, playable)


def auction_limits(calls: np.ndarray, rules: Rules):
    """``(highest, min_rank, can_pass)`` for the next call after ``calls``
    (``(n, k)`` ranks, PASS = -1): the highest bid so far (-1: none), the
    lowest legal rank (a dealer may match with ``dealer_match``) and whether
    passing is legal (not for a dealer forced to bid)."""
    calls = np.asarray(calls)
    n, k = calls.shape
    highest = calls.max(axis=1).astype(np.int64) if k else np.full(n, -1, dtype=np.int64)
    dealer = k == 3
    match = dealer and rules.dealer_match
    min_rank = np.where(match & (highest >= 0), highest, highest + 1)
    can_pass = ~(dealer & (highest < 0) & rules.forced_dealer_bid)
    return highest, min_rank, np.broadcast_to(can_pass, (n,)).copy()


@dataclass(frozen=True)
class BidView:
    """What ``n`` seats know when they speak (one row per match).

    hands : (n,) uint64, the seat's own hand (its only cards).
    calls : (n, k) int16, the calls so far from the dealer's left (ladder
        ranks, PASS = -1); this seat makes call number ``k``.
    seat, dealer : (n,) seats 0..3.
    scores : (n, 2) the totals before the hand, (ours, theirs).
    target : (n,) the score that wins the match now.
    rules : the rules played.
    """

    hands: np.ndarray
    calls: np.ndarray
    seat: np.ndarray
    dealer: np.ndarray
    scores: np.ndarray
    target: np.ndarray
    rules: Rules

    def __len__(self) -> int:
        return self.hands.shape[0]

    @property
    def limits(self):
        """:func:`auction_limits` of this view."""
        return auction_limits(self.calls, self.rules)


def legal_columns(view: BidView) -> np.ndarray:
    """``(n, L + 1)`` bool: the legal next calls of each row of ``view`` under
    its rules (:func:`kaiser_sim.auction.legal_calls`; column 0 pass, column
    ``1 + r`` ladder rank ``r``), every bid the rules allow, also one no policy
    makes (12NT under the solo Kaiser): :func:`legal_calls` with ``playable=False``."""
    return legal_calls(view.calls, view.rules, playable=False)


def choose(values: np.ndarray, pass_value, view: BidView) -> np.ndarray:
    """Calls from values: the legal bid with the highest value (ties: the
    lowest), or pass where passing is legal and worth at least as much
    (``pass_value``, scalar or (n,))."""
    _, min_rank, can_pass = view.limits
    n, L = values.shape
    legal = (np.arange(L)[None, :] >= min_rank[:, None]) & ladder_arrays(view.rules).playable[None, :]
    v = np.where(legal, values, -np.inf)
    best = np.argmax(v, axis=1)
    bestv = v[np.arange(n), best]
    out = best.astype(np.int16)
    pv = np.broadcast_to(np.asarray(pass_value, dtype=np.float64), (n,))
    out[can_pass & ((bestv <= pv) | ~legal.any(axis=1))] = PASS
    return out


def legal_calls(calls: np.ndarray, rules: Rules, playable: bool = True) -> np.ndarray:
    """``(n, L + 1)`` bool: the legal next calls after ``calls`` (``(n, k)``),
    in the columns of :meth:`Policy.probs` (0 pass, 1 + rank): pass where
    :func:`auction_limits` allows it, every rank from its lowest; with
    ``playable`` only the ranks a policy may bid (``LadderArrays.playable``:
    not 12NT under the solo Kaiser)."""
    _, min_rank, can_pass = auction_limits(calls, rules)
    lad = ladder_arrays(rules)
    ranks = np.arange(len(lad))[None, :] >= min_rank[:, None]
    if playable:
        ranks = ranks & lad.playable[None, :]
    return np.concatenate([can_pass[:, None], ranks], axis=1)


def draw_calls(probs: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
    """``(n,)`` int16 calls drawn from ``probs`` (``(n, L + 1)``, column 0
    pass, 1 + rank) with ``uniforms`` (``(n,)`` in [0, 1)): the first column
    whose cumulative probability exceeds ``u`` times the row's total (a
    column of probability 0 is never drawn)."""
    cum = np.cumsum(np.asarray(probs, dtype=np.float64), axis=1)
    u = np.asarray(uniforms, dtype=np.float64) * cum[:, -1]
    col = np.argmax(cum > u[:, None], axis=1)
    return (col - 1).astype(np.int16)


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _mix64(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser on uint64 arrays (wrapping arithmetic)."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def call_uniforms(view: BidView, salt: int = 0) -> np.ndarray:
    """``(n,)`` uniforms in [0, 1) for a stochastic policy's draw: a hash
    (splitmix64) of the seat's hand, seat, dealer, the calls so far and
    ``salt``; so a call is reproducible and does not depend on the batch's
    size or order."""
    with np.errstate(over="ignore"):
        h = _mix64(np.asarray(view.hands, dtype=np.uint64) ^ (np.uint64(salt & 0xFFFFFFFF) * _GOLDEN))
        calls = np.asarray(view.calls, dtype=np.int64)
        parts = [np.asarray(view.seat, dtype=np.int64), np.asarray(view.dealer, dtype=np.int64),
                 np.full(len(view), calls.shape[1], dtype=np.int64)] + [calls[:, j] + 2 for j in range(calls.shape[1])]
        for p in parts:
            h = _mix64(h ^ (np.broadcast_to(p, h.shape).astype(np.uint64) + _GOLDEN))
    return (h >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)


# --- the actions of an auction position --------------------------------------------------------

#: the calls compared in each auction position (:func:`position_calls`; the auction study, the
#: listening policy): passing, the
#: cheapest legal plain and NT bids, one step above each, and the dealer's match
ACTIONS = ("pass", "plain", "NT", "plain +1", "NT +1", "match")


def position_calls(calls: np.ndarray, k: int, rules: Rules) -> np.ndarray:
    """``(n, len(ACTIONS))`` ladder ranks of :data:`ACTIONS` for the seat
    making call ``k`` after ``calls[:, :k]`` (``PASS`` for a pass, -2 where
    the action is not legal there: a forced dealer's pass, no bid left, a
    match by anyone but a dealer facing a bid)."""
    lad = ladder_arrays(rules)
    n = calls.shape[0]
    highest, min_rank, can_pass = auction_limits(np.asarray(calls)[:, :k], rules)
    L = len(lad)
    out = np.full((n, len(ACTIONS)), -2, dtype=np.int64)
    out[can_pass, 0] = PASS
    ranks = np.arange(L)
    above = ranks[None, :] > highest[:, None]  # bids that beat the highest (a match is its own action)
    for col, nt, step in ((1, False, 0), (2, True, 0), (3, False, 1), (4, True, 1)):
        ok = above & (lad.nt[None, :] == nt) & ~lad.low[None, :] & lad.playable[None, :]
        order = np.cumsum(ok, axis=1)
        pick = ok & (order == step + 1)
        has = pick.any(axis=1)
        out[has, col] = np.argmax(pick[has], axis=1)
    match = (k == 3) & rules.dealer_match & (highest >= 0)
    out[np.broadcast_to(match, (n,)), 5] = highest[np.broadcast_to(match, (n,))]
    return out



# --- table play or double dummy -------------------------------------------------------------


def check_play(play) -> str:
    """``play`` normalised (:data:`PLAYS`); :class:`PolicyError` otherwise."""
    key = str(play).strip().lower()
    if key not in PLAYS:
        raise PolicyError(f"unknown play '{play}'; plays: {', '.join(PLAYS)}")
    return key


def _table_matrices(rules: Rules):
    """``((M_trump, M_nt) or None, note)``: the table-play matrices of the
    model shipped for ``rules`` (:func:`kaiser_sim.strategy.table_play.load_model`),
    or None and the reason the policies fall back to DD (the model cannot
    be read, or is not one for these rules)."""
    from .measure import measure_for

    measure = measure_for(rules)
    if not measure.table:
        return None, f"make-probabilities fall back to double dummy: {measure.reason}"
    return (measure.table_model.matrix(False), measure.table_model.matrix(True)), measure.note


def play_used(rules: Rules, play: str = DEFAULT_PLAY) -> str:
    """The play the make-probabilities actually model under ``rules``:
    ``"dd"`` if asked, or if table play does not apply (module doc)."""
    if check_play(play) == "dd":
        return "dd"
    return "table" if _table_matrices(rules)[0] is not None else "dd"


def play_note(rules: Rules, play: str = DEFAULT_PLAY) -> str:
    """Why table play was not used for ``rules``, or which game's model
    stands in for them when none is shipped for theirs ("" when their own
    model was used, or DD was asked)."""
    return "" if check_play(play) == "dd" else _table_matrices(rules)[1]


def compose_play(dist: np.ndarray, nt: bool, rules: Rules, play: str = DEFAULT_PLAY) -> np.ndarray:
    """A double-dummy points distribution (``(..., 15)`` over -2..12) as the
    policies see it: times the table-play matrix of its kind (``nt``) under
    table play, as is under ``"dd"`` or the fallback."""
    if play_used(rules, play) == "dd":
        return dist
    return dist @ _table_matrices(rules)[0][int(bool(nt))]


# --- the policies ------------------------------------------------------------------------


class Policy:
    """A bidding policy: :meth:`bid` (the auction) and :meth:`trump` (naming
    trump after winning a plain bid).  Subclasses implement both on batches."""

    name = "policy"
    #: what the make-probabilities model (:data:`PLAYS`); None: a policy without them
    play: str | None = None
    #: True for a policy whose :meth:`bid` draws from :meth:`probs` (False: a deterministic policy,
    #: whose :meth:`probs` is the trembling hand around its :meth:`bid`)
    stochastic = False

    def effective_play(self, rules: Rules) -> str | None:
        """The play this policy's make-probabilities model under ``rules``
        (:func:`play_used`: ``"dd"`` where table play does not apply), None
        for a policy without make-probabilities."""
        return None if self.play is None else play_used(rules, self.play)

    def bid(self, view: BidView) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def probs(self, view: BidView) -> np.ndarray:
        """``(n, L + 1)`` float64: the probability of each next call (column 0
        pass, column ``1 + r`` ladder rank ``r``, ``L = len(ladder_arrays(rules))``);
        each row sums to 1, an illegal call has 0 and every legal call more
        than 0 (:func:`legal_columns`).

        The default is a trembling hand around :meth:`bid`: ``1 - TREMBLE``
        on the call :meth:`bid` makes, :data:`TREMBLE` shared equally by the
        other legal calls (all of it on the one call when it is the only
        legal one).  A stochastic policy overrides it."""
        legal = legal_columns(view)
        n = legal.shape[0]
        col = np.asarray(self.bid(view), dtype=np.int64) + 1  # PASS (-1) -> column 0
        rows = np.arange(n)
        others = legal.sum(axis=1) - 1
        share = np.where(others > 0, TREMBLE / np.maximum(others, 1), 0.0)
        out = np.where(legal, share[:, None], 0.0)
        out[rows, col] = np.where(others > 0, 1.0 - TREMBLE, 1.0)
        return out

    def trump(self, view: BidView, rank: np.ndarray) -> np.ndarray:
        """(n,) trump suit 0..3 for the plain contract ``rank`` (default: by
        rule, the longest suit, ties by strength)."""
        from ..hands import trump_by_rule

        return trump_by_rule(view.hands, "longest-strength")

    def nt_low(self, view: BidView, rank: np.ndarray) -> np.ndarray:
        """(n,) bool: play the NT contract ``rank`` low (rules
        ``low_nt="choice"``; :func:`nt_low`: the make model's expected points)."""
        return nt_low(view.hands, view.rules, getattr(self, "make_model", None), self.play or DEFAULT_PLAY)

    def call(self, hand, calls=(), seat=0, dealer=3, scores=(0, 0), rules: Rules = Rules(),
             target: int | None = None) -> Bid | None:
        """One call for one hand: ``hand`` a bitboard or notation, ``calls``
        the calls so far (strings, Bids or None), ``scores`` (ours, theirs)."""
        from ..cards import parse_hand

        rules = rules or Rules()
        lad = ladder_arrays(rules)
        h = int(parse_hand(hand)) if isinstance(hand, str) else int(hand)
        view = BidView(np.array([h], dtype=np.uint64),
                       np.array([[lad.rank(as_call(c)) for c in calls]], dtype=np.int16).reshape(1, len(calls)),
                       np.array([seat]), np.array([dealer]), np.array([scores], dtype=np.int64),
                       np.array([rules.target if target is None else target]), rules)
        r = int(self.bid(view)[0])
        return None if r == PASS else lad.bids[r]

    def __repr__(self) -> str:
        return f"<policy {self.name}>" if self.play is None else f"<policy {self.name}, {self.play} play>"


def hand_values(hands, rules: Rules, make_model=None, play: str = DEFAULT_PLAY):
    """Per hand and bid of the ladder, from the make model: ``(ev, trump,
    dist_suits, dist_nt)``: ``ev`` (n, L) expected hand score (plain bids in
    the suit with the best expected score at that level), ``trump`` (n, L)
    that suit, ``dist_suits`` (4, n, 15) and ``dist_nt`` (n, 15) the raw
    points distributions: the make model's double-dummy ones composed with
    the table-play model under ``play="table"`` (module doc; double dummy
    under ``"dd"`` or where table play does not apply, :func:`play_used`)."""
    return _hand_values(hands, rules, make_model, play, True)


def bid_values(hands, rules: Rules, make_model=None, play: str = DEFAULT_PLAY) -> np.ndarray:
    """``ev`` of :func:`hand_values` alone (the same numbers, without the
    distributions and trumps it does not need): what ``ev``-type bidding reads."""
    return _hand_values(hands, rules, make_model, play, False)


def _hand_values(hands, rules: Rules, make_model, play: str, full: bool):
    from .make_model import load_make_model

    make_model = make_model or load_make_model()
    lad = ladder_arrays(rules)
    hands = np.asarray(hands, dtype=np.uint64)
    # a hand reaches its distributions only through its prediction bins, so the composed
    # distributions and expected scores are read from per-bin tables (computed once)
    (dist_t, ev_t), (dist_n, ev_n) = _bin_tables(make_model, rules, check_play(play))
    bins_s = np.stack([make_model.bin_index(hands, s) for s in range(4)])
    bins_n = make_model.bin_index(hands, None)
    ev_s, ev_nt = ev_t[bins_s], ev_n[bins_n]  # (4, n, L), (n, L)
    if full:
        ds, dn = dist_t[bins_s], dist_n[bins_n]  # (4, n, 15), (n, 15)
        trump = np.argmax(ev_s, axis=0)
    if rules.low_nt != "off":
        ev_low = low_nt_dist(hands, rules, make_model, play) @ lad.gain.T
        if rules.low_nt == "choice":  # an NT declarer plays it high or low, whichever it expects more of
            ev_nt = np.maximum(ev_nt, ev_low)
        ev_nt = np.where(lad.low[None, :], ev_low, ev_nt)
    ev = np.where(lad.nt[None, :], ev_nt, np.max(ev_s, axis=0))
    return (ev, trump, ds, dn) if full else ev


#: :func:`_bin_tables`' cache: key -> (the table-play matrices it was computed with, the tables)
_BIN_TABLES: dict = {}


def _bin_tables(make_model, rules: Rules, play: str):
    """``((dist, ev) trump, (dist, ev) nt)``: per prediction bin of the make
    model, the raw-points distribution as the policies see it
    (:func:`compose_play`) and the expected hand score of every bid of the
    ladder (``dist @ gain.T``).  Cached by the make model (by identity), the
    rules, the play and the table-play matrices in force (by identity: a
    model read anew, or none, computes them anew)."""
    used = play_used(rules, play)
    mats = _table_matrices(rules)[0] if used == "table" else None
    key = (make_model, rules, used, None if mats is None else (id(mats[0]), id(mats[1])))
    hit = _BIN_TABLES.get(key)
    if hit is not None and (mats is None or all(a is b for a, b in zip(hit[0], mats))):
        return hit[1]
    lad = ladder_arrays(rules)
    out = []
    for kind, nt in (("trump", False), ("nt", True)):
        dist = np.asarray(make_model.probs[kind], dtype=np.float64)
        if mats is not None:
            dist = dist @ mats[int(nt)]
        out.append((dist, dist @ lad.gain.T))
    if len(_BIN_TABLES) > 64:
        _BIN_TABLES.clear()
    _BIN_TABLES[key] = (mats, tuple(out))
    return tuple(out)


def low_nt_dist(hands, rules: Rules, make_model=None, play: str = DEFAULT_PLAY) -> np.ndarray:
    """``(n, 15)`` the raw points a hand expects in low no trump: the make
    model has no low NT, so its NT distribution of the rank-reversed hand
    (:func:`kaiser_sim.cards.reverse_ranks` with the 5H and 3S kept lowest,
    so the model still sees them as the special cards) stands for it: exact
    in kind when ``low_specials_lowest`` (low NT is then high NT of the
    reversed hand), an approximation otherwise (the 5H and 3S reverse with
    the rest and become their suits' top cards).  Composed like the others
    (:func:`compose_play`; table play never applies to low NT)."""
    from ..cards import reverse_ranks
    from .make_model import load_make_model

    make_model = make_model or load_make_model()
    rev = reverse_ranks(np.asarray(hands, dtype=np.uint64), True)
    return compose_play(make_model.dist(rev, None), True, rules, play)


def nt_low(hands, rules: Rules, make_model=None, play: str = DEFAULT_PLAY) -> np.ndarray:
    """``(n,)`` bool: with ``low_nt="choice"``, does the declarer of an NT
    bid play it low (its expected points higher in low NT)?  All False
    otherwise."""
    hands = np.asarray(hands, dtype=np.uint64)
    if rules.low_nt != "choice":
        return np.zeros(hands.shape[0], dtype=bool)
    from .make_model import RAW_VALUES, load_make_model

    make_model = make_model or load_make_model()
    dn = compose_play(make_model.dist(hands, None), True, rules, play)
    dl = low_nt_dist(hands, rules, make_model, play)
    return dl @ RAW_VALUES > dn @ RAW_VALUES


def rules_note(rules: Rules) -> str:
    """What the policies' make-probabilities do not know of ``rules`` ("" for
    rules of the game they were fitted on; the match results carry it)."""
    notes = []
    if rules.kitty != "none":
        notes.append(f"kitty={rules.kitty}: the make model is the 8-card game's without a kitty; the bidders value "
                     f"the {rules.hand_size} cards they hold (the kitty is unseen when bidding, as at the table), "
                     "not what the kitty adds")
    if rules.low_nt != "off":
        notes.append("low no trump: valued by the NT make model on the rank-reversed hand (the model has no low NT)")
    if rules.cover3:
        notes.append("cover3: the make model counts points without cover 3")
    if rules.kaiser_outright == "solo":
        notes.append("kaiser_outright=solo: no policy bids 12NT (the solo Kaiser is one player against three, a "
                     "game the double-dummy solver does not play)")
    return "; ".join(notes)


class EVPolicy(Policy):
    """Bid the legal bid with the highest expected hand score if it exceeds
    ``margin`` (0 for ``ev``), else pass (module doc)."""

    def __init__(self, margin: float = 0.0, name: str = "ev", make_model=None, play: str = DEFAULT_PLAY):
        self.margin, self.name, self.make_model, self.play = float(margin), name, make_model, check_play(play)

    def bid(self, view):
        return choose(bid_values(view.hands, view.rules, self.make_model, self.play), self.margin, view)

    def trump(self, view, rank):
        _, trump, _, _ = hand_values(view.hands, view.rules, self.make_model, self.play)
        return trump[np.arange(len(view)), rank]


class HeuristicPolicy(Policy):
    """A hand count of an existing Kaiser program (module doc): bid plain
    while the level is at most the points the count predicts."""

    def __init__(self, name: str, make_model=None, play: str = DEFAULT_PLAY):
        from .make_model import HEURISTICS

        if name not in HEURISTICS:
            raise PolicyError(f"unknown heuristic '{name}' ({', '.join(HEURISTICS)})")
        self.name, self.make_model, self.play = name, make_model, check_play(play)

    def expected_points(self, hands, rules: Rules) -> np.ndarray:
        """The points each hand expects to take in its trump by rule: the
        count's straight line (double-dummy points); under table play (and
        ``rules`` given, table play applying to them) that value read as a
        DD value and mapped to the expected table points, linearly
        interpolated between whole DD values (module doc)."""
        from .make_model import RAW_VALUES, heuristic_value, load_make_model
        from ..hands import trump_by_rule

        make_model = self.make_model or load_make_model()
        slope, intercept = make_model.lines[self.name]
        dd = slope * heuristic_value(self.name, hands, trump_by_rule(hands, "longest-strength")) + intercept
        if rules is None or play_used(rules, self.play) == "dd":
            return dd
        expected = _table_matrices(rules)[0][0] @ RAW_VALUES.astype(np.float64)
        # beyond the axis: the end values' shift (flat interpolation would cap every hand at the ends)
        lo, hi = RAW_VALUES[0], RAW_VALUES[-1]
        return np.where(dd < lo, dd + expected[0] - lo,
                        np.where(dd > hi, dd + expected[-1] - hi, np.interp(dd, RAW_VALUES, expected)))

    def bid(self, view):
        lad = ladder_arrays(view.rules)
        limit = np.floor(self.expected_points(view.hands, view.rules))
        rank = np.arange(len(lad))[None, :]
        ok = ~lad.nt[None, :] & (lad.levels[None, :] <= limit[:, None])
        values = np.where(ok, 1.0, -1.0) - 1e-3 * rank
        values = np.where(lad.nt[None, :], -10.0 - 1e-3 * rank, values)
        return choose(values, 0.0, view)


class ScoreAwarePolicy(Policy):
    """Maximise P(win the match) by a one-step lookahead (module doc;
    the win-probability model below for the value of a score)."""

    name = "score-aware"

    def __init__(self, make_model=None, play: str = DEFAULT_PLAY):
        self.make_model, self.play = make_model, check_play(play)

    def values(self, view):
        """``(values, per_suit, pass_value)``: P(win) of each bid of the
        ladder (n, L), of each plain bid in each suit (4, n, L), and of
        passing (n,)."""
        table = win_table(view.rules, self.make_model, self.play)
        idx = table.index(view.scores[:, 0], view.scores[:, 1])
        _, _, ds, dn = hand_values(view.hands, view.rules, self.make_model, self.play)
        after = table.after_declare[idx]  # (n, L, 15)
        vs = np.einsum("snr,nlr->snl", ds, after)
        vn = np.einsum("nr,nlr->nl", dn, after)
        lad = ladder_arrays(view.rules)
        if view.rules.low_nt != "off":
            vl = np.einsum("nr,nlr->nl", low_nt_dist(view.hands, view.rules, self.make_model, self.play), after)
            if view.rules.low_nt == "choice":
                vn = np.maximum(vn, vl)
            vn = np.where(lad.low[None, :], vl, vn)
        values = np.where(lad.nt[None, :], vn, vs.max(axis=0))
        return values, vs, table.after_pass[idx]

    def bid(self, view):
        values, _, pass_value = self.values(view)
        return choose(values, pass_value + 1e-9, view)

    def trump(self, view, rank):
        _, vs, _ = self.values(view)
        return np.argmax(vs[:, np.arange(len(view)), rank], axis=0)


# --- the listening policy: a call's net value given what was heard ---------------------------------
# The table it reads is built by simulation (kaiser_sim.strategy.listening, which imports this module) and
# ships as package data; here only reading it and looking it up.

#: the listening policy's hand feature: the hand's expected points in its best trump (the make
#: model, as the policies see it), cut at these values, crossed with its NT points minus those,
#: cut at these
LISTEN_PLAIN_EDGES = (4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0)
LISTEN_NT_EDGES = (-1.5, -0.75)
#: feature bins of the listening table
LISTEN_BINS = (len(LISTEN_PLAIN_EDGES) + 1) * (len(LISTEN_NT_EDGES) + 1)
#: the listening policy bids as score-aware once either side's score is within this many points of
#: the target (45 of 52: where the 45 rule starts)
LISTEN_ENDGAME = 7
#: who holds the highest bid when a seat speaks (axis 1 of the table)
HOLDERS = ("none", "partner", "opponent")
#: rules keys the listening table does not depend on: its values are one hand's net at 0-0, which
#: the match's end (target, ties, the 45 rule, lose_at, the series) does not change
LISTEN_IGNORED_RULES = ("label", "target", "target_after_nt", "tie_rule", "only_bidders_win", "lose_at", "series",
                        "bid_out")


def hand_rules(rules) -> dict:
    """The rules a hand at 0-0 is bid and played by: ``rules`` (a
    :class:`Rules` or its dict) without :data:`LISTEN_IGNORED_RULES` (the
    label and the match's end).  Two rule sets the fitted bidders treat as
    one compare equal here."""
    d = rules.to_dict() if isinstance(rules, Rules) else rules
    return {k: v for k, v in d.items() if k not in LISTEN_IGNORED_RULES}


def listen_features(hands, rules: Rules, make_model=None, play: str = DEFAULT_PLAY) -> np.ndarray:
    """``(n,)`` the listening table's feature bin of each hand (0 ..
    :data:`LISTEN_BINS` - 1): its expected raw points in its best trump
    suit (the make model's distribution as the policies see it,
    :func:`hand_values`) cut at :data:`LISTEN_PLAIN_EDGES`, crossed with its
    expected NT points minus those, cut at :data:`LISTEN_NT_EDGES`."""
    _, _, ds, dn = hand_values(hands, rules, make_model, play)
    return _feature_bins(ds, dn)


def _feature_bins(ds, dn) -> np.ndarray:
    """:func:`listen_features` from the distributions of :func:`hand_values`."""
    from .make_model import RAW_VALUES

    raw = RAW_VALUES.astype(np.float64)
    plain = (ds @ raw).max(axis=0)
    nt = dn @ raw
    return (np.digitize(plain, LISTEN_PLAIN_EDGES) * (len(LISTEN_NT_EDGES) + 1)
            + np.digitize(nt - plain, LISTEN_NT_EDGES)).astype(np.int64)


def auction_context(calls: np.ndarray):
    """``(holder, top)`` for the seat making call ``k`` after ``calls``
    (``(n, k)``): who holds the highest bid (index into :data:`HOLDERS`:
    0 none, 1 partner, 2 an opponent) and its rank (-1: none)."""
    calls = np.asarray(calls)
    n, k = calls.shape
    top = np.full(n, -1, dtype=np.int64)
    at = np.full(n, -1, dtype=np.int64)
    for j in range(k):
        c = calls[:, j].astype(np.int64)
        take = (c >= 0) & (c >= top)
        top = np.where(take, c, top)
        at = np.where(take, j, at)
    holder = np.where(top < 0, 0, np.where(at == k - 2, 1, 2))
    return holder, top


@dataclass(frozen=True, eq=False)
class ListeningTable:
    """The listening policy's table (:mod:`kaiser_sim.strategy.listening` builds it).

    mean, n : ``(4, 3, L + 1, LISTEN_BINS, len(ACTIONS))``: the mean net
        value (the caller's side's hand score minus the opponents', at 0-0)
        of each action of :data:`ACTIONS` and its number of deals, by the
        caller's position (0 = the dealer's left .. 3 = the dealer), who
        holds the highest bid (:data:`HOLDERS`), that bid's rank + 1 (0:
        none) and the caller's feature bin (:func:`listen_features`).
    sd : the same shape, the standard deviation of the net value.
    play : what the values measure (``"table"``, ``"dd"``) and what the hand
        features expect.
    rules : the rules dict it was built for; min_cell : the fewest deals a
        cell's actions need for the policy to read it (else it bids as ev);
        margin : how many standard errors the best action's mean must beat
        ``ev``'s call by for the policy to leave ``ev``'s call.
    info : provenance and the rounds of the iteration (:mod:`kaiser_sim.strategy.listening`).
    """

    mean: np.ndarray
    n: np.ndarray
    sd: np.ndarray
    play: str
    rules: dict
    min_cell: int
    info: dict
    margin: float = 1.0

    def applies_to(self, rules: Rules) -> bool:
        """Whether ``rules`` equal the table's but for :data:`LISTEN_IGNORED_RULES`."""
        mine, theirs = hand_rules(self.rules), hand_rules(rules)
        return mine == theirs and self.mean.shape[2] == len(ladder_arrays(rules)) + 1

    def choose(self, calls: np.ndarray, feature: np.ndarray, rules: Rules, default: np.ndarray):
        """``(calls (n,) int16, read (n,) bool)``: for the seats making call
        ``k`` after ``calls`` (``(n, k)``) with feature bins ``feature``, the
        action of :data:`ACTIONS` with the highest mean net value among the
        legal ones, as a ladder rank (PASS for a pass; ties: the first
        action), where every legal action of the cell has ``min_cell``
        deals (``read``) and that mean beats the mean of the call
        ``default`` (``ev``'s) by more than ``margin`` standard errors of
        the best's mean; ``default`` elsewhere (where it is not one of the
        actions, by the mean alone)."""
        calls = np.asarray(calls)
        n, k = calls.shape
        rows = np.arange(n)
        holder, top = auction_context(calls)
        acts = position_calls(calls, k, rules)
        legal = acts != -2
        cell_mean = self.mean[k, holder, top + 1, feature]  # (n, A)
        cell_n = self.n[k, holder, top + 1, feature]
        read = legal.any(axis=1) & np.all(~legal | (cell_n >= self.min_cell), axis=1)
        best = np.argmax(np.where(legal, cell_mean, -np.inf), axis=1)
        is_default = legal & (acts == np.asarray(default)[:, None])
        has_default = is_default.any(axis=1)
        d_mean = cell_mean[rows, np.argmax(is_default, axis=1)]
        se = self.sd[k, holder, top + 1, feature][rows, best] / np.sqrt(np.maximum(cell_n[rows, best], 1))
        beats = ~has_default | (cell_mean[rows, best] - d_mean > self.margin * se)
        out = np.where(read & beats, acts[rows, best], default).astype(np.int16)
        return out, read

    def nbytes(self) -> int:
        return int(self.mean.nbytes + self.n.nbytes + self.sd.nbytes)


#: the shipped listening tables (one per play: ``kaiser-sim listening-table`` writes it)
LISTEN_FILE = "listening_table.npz"


def listening_table_path():
    from pathlib import Path

    return Path(__file__).resolve().parents[1] / "data" / LISTEN_FILE


def read_listening_tables(path=None) -> dict:
    """``{play: ListeningTable}`` from the file at ``path`` (default the
    shipped one, read once); ``{}`` if it cannot be read."""
    return dict(_read_listening_tables(str(listening_table_path() if path is None else path)))


@functools.lru_cache(maxsize=4)
def _read_listening_tables(path: str) -> tuple:
    import json

    try:
        with np.load(path, allow_pickle=False) as f:
            doc = json.loads(str(f["info"]))
            out = []
            for play in doc["plays"]:
                meta = doc["tables"][play]
                out.append((play, ListeningTable(f[f"{play}_mean"], f[f"{play}_n"], f[f"{play}_sd"], play,
                                                 meta["rules"], int(meta["min_cell"]), meta, float(meta["margin"]))))
    except (OSError, KeyError, ValueError):
        return ()
    return tuple(out)


def listening_note(rules: Rules, play: str = DEFAULT_PLAY, table: ListeningTable | None = None) -> str:
    """Why the listening policy bids as ``ev`` under ``rules`` ("" when its
    table applies)."""
    used = play_used(rules, play)
    table = table or read_listening_tables().get(used)
    if table is None:
        return f"listening: no table for {used} play ({LISTEN_FILE} missing or unreadable): it bids as ev"
    if not table.applies_to(rules):
        return (f"listening: its table was built for rules {table.rules.get('label', '?')}, not these: it bids as ev "
                "(kaiser-sim listening-table builds one for other rules)")
    return ""


class ListeningPolicy(EVPolicy):
    """Bid the action of :data:`ACTIONS` with the highest net value given
    what was heard, from a precomputed :class:`ListeningTable` (module doc);
    ``ev`` where the table has too few deals, or does not apply to the rules.
    Names trump as ``ev``.  The table values a hand at 0-0; from
    ``endgame`` points below the target on (either side's score: 45 of 52,
    where the 45 rule starts), where the score changes what a hand is worth,
    it bids and names trump as ``score-aware`` (``endgame`` None: never)."""

    def __init__(self, table: ListeningTable | None = None, make_model=None, play: str = DEFAULT_PLAY,
                 name: str = "listening", endgame: int | None = LISTEN_ENDGAME):
        super().__init__(0.0, name, make_model, play)
        self.table, self.endgame = table, endgame
        self._late = ScoreAwarePolicy(make_model, play)

    def table_for(self, rules: Rules) -> ListeningTable | None:
        """The table this policy reads under ``rules`` (None: it bids as ev)."""
        t = self.table if self.table is not None else read_listening_tables().get(play_used(rules, self.play))
        return t if t is not None and t.applies_to(rules) else None

    def late(self, view) -> np.ndarray:
        """(n,) bool: the rows where it bids as ``score-aware`` (class doc)."""
        if self.endgame is None:
            return np.zeros(len(view), dtype=bool)
        return np.asarray(view.scores).max(axis=1) >= np.asarray(view.target) - self.endgame

    def bid(self, view):
        table = self.table_for(view.rules)
        if table is None:
            out = super().bid(view)
        else:  # one reading of the make model for ev's call and the hand's feature
            ev, _, ds, dn = hand_values(view.hands, view.rules, self.make_model, self.play)
            out = table.choose(view.calls, _feature_bins(ds, dn), view.rules, choose(ev, self.margin, view))[0]
        late = self.late(view)
        if late.any():
            out = out.copy()
            out[late] = self._late.bid(_rows(view, late))
        return out

    def trump(self, view, rank):
        out = np.asarray(super().trump(view, rank)).copy()
        late = self.late(view)
        if late.any():
            out[late] = self._late.trump(_rows(view, late), np.asarray(rank)[late])
        return out


def _rows(view: BidView, sel) -> BidView:
    """The rows ``sel`` of ``view``."""
    return BidView(view.hands[sel], view.calls[sel], np.asarray(view.seat)[sel], np.asarray(view.dealer)[sel],
                   np.asarray(view.scores)[sel], np.asarray(view.target)[sel], view.rules)

# --- the population: a stochastic policy (its build: kaiser_sim.strategy.population) ---------------------
# Reading its fit and giving its probabilities live here, beside the listening table's reader; the
# self-play that fits it lives in kaiser_sim.strategy.population (which imports this module).

#: the shipped population file (``kaiser-sim population-model``; :mod:`kaiser_sim.strategy.population`
#: builds it)
POPULATION_FILE = "population.npz"
#: the self-play's temperature (points of net value): the population the values are fitted against
#: calls a softmax of them at this temperature (an action worth 1 point more is e^2 times as likely)
TEMPERATURE = 0.5
#: the shipped population's own calls: a softmax of the same values at this lower temperature (an action
#: worth 1 point more is e^(1/0.3), about 28 times, as likely).  Fitting against the warmer population
#: explores more auctions (every cell sees more deals) and calling cooler wastes less on the calls
#: next to the best: measured (``benchmarks/results/exploitability.md``), the values of the 0.5
#: self-play called at 0.3 are the least exploitable of those tried (0.5 itself, and 0.3 in both the
#: self-play and the calls, are more)
PLAY_TEMPERATURE = 0.3
#: the floor: the most probability spread over the legal calls that are not actions (a jump of two
#: steps, an opening 9), ``FLOOR / m`` to each of the ``m`` such calls -- and only to a call whose
#: expected hand score (``ev``'s, the one value every call has) is as good as the hand's best legal call
#: (a pass: 0); a call ``g`` points worse keeps ``exp(-g / FLOOR_SCALE)`` of it, down to ``FLOOR_MIN``
#: (:func:`floor_shares`).  A flat floor gave a hand with nothing the same 0.1% for 11NT as for the
#: jump a strong hand nearly chooses: no strong player opens 11NT on nothing, and the auctions drawn
#: from such a population (exploitability's situations, the advisor's weighted deals) heard partners'
#: 11NT left to fail.  The decay keeps the policy mixed where calls are close (a jump to 9 within a
#: point of the best call keeps over a third of the flat share) and makes a call that throws away ten
#: points a slip of one in a million, never 0: any auction a player can hear keeps a likelihood.
FLOOR = 0.01
#: the floor's decay (points of ``ev``'s expected hand score below the best legal call's): e^-1 the share
#: a point worse, e^-3 three points worse (a slip between close calls, not a blunder)
FLOOR_SCALE = 1.0
#: the least any legal call gets (where the floor is on): one in a million
FLOOR_MIN = 1e-6
#: the share spread over the actions themselves (no action underflows to probability 0)
ACTION_FLOOR = 0.001
#: from this many points below the target on (45 of 52), softmax of score-aware's P(win) ...
ENDGAME = LISTEN_ENDGAME
#: ... scaled by this (P(win) one point of percentage higher: e times as likely) ...
ENDGAME_TEMPERATURE = 0.01
#: ... plus the call's expected hand score (``ev``'s, a pass 0) at this much P(win) a point (a point
#: of score as much as a point of percentage: at (-60, 46) a bid of 8 or more on nothing 1.6%, not 10%): where
#: the match's chances cannot tell the calls apart (the win table clips a score below -target to
#: -target, so going set there looks free; a match already won or lost) the hand's own chance of
#: making and the cost of going set decide, not a near-uniform draw over every call up to 12NT
ENDGAME_SCORE_WEIGHT = 0.01
#: the hand features (:func:`hand_features`), after a constant
FEATURES = ("trump points", "NT points", "trump points^2", "NT points^2", "trump length", "trump tops",
            "aces", "kings", "top winners", "5H", "3S")
#: rank buckets of the highest bid heard: none, ranks 0 .. 5 (6 .. 8NT) each, then 9 or more in a
#: suit, then 9NT or more (a partner's 9NT pooled with its 9 read a raise to NT as the doubling it is
#: over a 9)
TOP_BUCKETS = 9




def hand_features(hands, rules: Rules, make_model=None, play: str = DEFAULT_PLAY):
    """``(X, ev, trump)``: ``X`` (n, len(FEATURES)) the hand features of the
    module doc; ``ev`` and ``trump`` (n, L) ``ev``'s expected hand scores
    and trump suits (:func:`kaiser_sim.strategy.policies.hand_values`, read once)."""
    from ..cards import FIVE_HEARTS, THREE_SPADES
    from ..hands import RANK_A, RANK_K, RANK_Q, has_card, rank_held, suit_bits
    from .make_model import RAW_VALUES

    hands = np.asarray(hands, dtype=np.uint64)
    n = hands.shape[0]
    ev, trump, ds, dn = hand_values(hands, rules, make_model, play)
    raw = RAW_VALUES.astype(np.float64)
    per_suit = ds @ raw  # (4, n)
    best = np.argmax(per_suit, axis=0)
    xs, xn = per_suit[best, np.arange(n)], dn @ raw
    bits = np.stack([suit_bits(hands, s) for s in range(4)])[best, np.arange(n)]
    length = np.bitwise_count(bits).astype(np.float64)
    tops = sum((bits >> r) & 1 for r in (RANK_A, RANK_K, RANK_Q)).astype(np.float64)
    aces = sum(rank_held(hands, s, RANK_A) for s in range(4)).astype(np.float64)
    kings = sum(rank_held(hands, s, RANK_K) for s in range(4)).astype(np.float64)
    # winners from the top: A, A K, A K Q ... of each suit (the make model's bins flatten a hand
    # with eight of them into a merely good one)
    winners = np.zeros(n)
    for s in range(4):
        b = suit_bits(hands, s)
        run = np.ones(n, dtype=bool)
        for r in range(8, 0, -1):
            run &= ((b >> r) & 1).astype(bool)
            winners += run
    X = np.column_stack([xs, xn, xs * xs, xn * xn, length, tops, aces, kings, winners,
                         has_card(hands, FIVE_HEARTS).astype(np.float64),
                         has_card(hands, THREE_SPADES).astype(np.float64)])
    return X, ev, trump


def action_scores(ev: np.ndarray, acts: np.ndarray) -> np.ndarray:
    """``(n, A)``: each action's own expected hand score if it became the
    contract (``ev`` (n, L) at its rank: the made / failed step the linear
    features cannot draw), a pass the best of the bids' (how much it gives
    up); 0 where the action is illegal."""
    n = ev.shape[0]
    bid = acts >= 0
    v = np.where(bid, ev[np.arange(n)[:, None], np.maximum(acts, 0)], 0.0)
    best = np.where(bid, v, -np.inf).max(axis=1)
    v[:, 0] = np.where(np.isfinite(best), best, 0.0)
    return np.where(acts != -2, v, 0.0)


#: the action's own columns of the regression, after the hand's (:func:`action_extras`)
EXTRAS = ("action's expected score", "action's level", "heard level", "heard NT", "heard level x trump points",
          "heard level x NT points")


def action_extras(ev: np.ndarray, acts: np.ndarray, top: np.ndarray, rules: Rules, points=None) -> np.ndarray:
    """``(n, A, len(EXTRAS))``: each action's own columns: its expected hand
    score (:func:`action_scores`), its level and the highest bid's level
    (centred on 7, per 2 levels; 0 for a pass / no bid), whether that bid
    is NT, and the heard level times the hand's expected points in its best
    trump and in NT (``points`` (n, 2), the first two :data:`FEATURES`;
    centred on 5, per 2 points): the held bid's level against the hand's
    values.  The levels let a cell that pools ranks (9 and up) and the prior
    that pools a strain's cells tell a 7 from a 10; the products let them
    tell a partner's 10 facing a hand that helps it from one facing
    nothing."""
    lad = ladder_arrays(rules)
    n, A = acts.shape
    top = np.asarray(top, dtype=np.int64)
    t = np.maximum(top, 0)
    heard = np.where(top >= 0, (lad.levels[t] - 7) / 2.0, 0.0)
    lvl = np.where(acts >= 0, (lad.levels[np.maximum(acts, 0)] - 7) / 2.0, 0.0)
    out = np.empty((n, A, len(EXTRAS)))
    out[:, :, 0] = action_scores(ev, acts)
    out[:, :, 1] = lvl
    out[:, :, 2] = heard[:, None]
    out[:, :, 3] = ((top >= 0) & lad.nt[t]).astype(np.float64)[:, None]
    pts = np.zeros((n, 2)) + 5.0 if points is None else np.asarray(points, dtype=np.float64)
    out[:, :, 4] = (heard * (pts[:, 0] - 5.0) / 2.0)[:, None]
    out[:, :, 5] = (heard * (pts[:, 1] - 5.0) / 2.0)[:, None]
    return out


def population_actions(acts: np.ndarray, k: int, holder: np.ndarray, top: np.ndarray, rules: Rules) -> np.ndarray:
    """``acts`` (:func:`position_calls`, call ``k``) without the calls the
    population never weighs (-2 there; the floor still gives them a
    probability): over a partner's NT bid, an NT bid or the dealer's match;
    and over its partner's 9NT or higher, a seat (the third or the dealer)
    bids nothing.  Kaiser scores a made bid by the points taken, not by the
    level, and NT double: raising the side's own NT contract in NT only
    raises what it must make, matching it only moves the declarer, and a
    suit bid of 10 or more over a 9NT trades a doubled contract for one
    that needs nearly every point.  Fitted on the few deals where a
    partner's 9NT was heard, these calls read as noise worth a 12-25% share
    (the third seat took a first seat's 9NT out to 11 in a suit on 48% of
    the deals of A.AKQJT98.-.-, its 10NT to 12 on 40%)."""
    lad = ladder_arrays(rules)
    top = np.asarray(top, dtype=np.int64)
    t = np.maximum(top, 0)
    own_nt = (np.asarray(holder) == 1) & (top >= 0) & lad.nt[t]
    out = np.array(acts, copy=True)
    for a in (2, 4, 5):  # NT, NT +1, match (ACTIONS)
        out[own_nt, a] = -2
    out[own_nt & (lad.levels[t] >= 9), 1:] = -2
    return out


def cell_of(k: int, holder: np.ndarray, top: np.ndarray, rules: Rules) -> np.ndarray:
    """``(n,)`` the cell of position ``k`` with ``holder`` and ``top``
    (:func:`kaiser_sim.strategy.policies.auction_context`): ``(k * 3 + holder) *
    TOP_BUCKETS + bucket`` (bucket 0: no bid; ranks 0 .. 5 their own; from
    rank 6 on: 7 for a suit, 8 for NT)."""
    top = np.asarray(top, dtype=np.int64)
    nt = ladder_arrays(rules).nt[np.maximum(top, 0)]
    bucket = np.where(top < 6, top + 1, np.where(nt, 8, 7))
    return (k * 3 + np.asarray(holder, dtype=np.int64)) * TOP_BUCKETS + bucket


def bucket_groups(rules: Rules) -> np.ndarray:
    """``(TOP_BUCKETS,)`` the group of each bucket of :func:`cell_of` whose
    cells share a ridge prior: 0 no bid, 1 a suit bid heard, 2 an NT bid."""
    lad = ladder_arrays(rules)
    nt = np.r_[False, lad.nt[:6], False, True]
    return np.where(np.arange(TOP_BUCKETS) == 0, 0, np.where(nt, 2, 1))


N_CELLS = 4 * 3 * TOP_BUCKETS


def floor_shares(ev, legal: np.ndarray, mask: np.ndarray, floor: float = FLOOR, scale: float = FLOOR_SCALE,
                 least: float = FLOOR_MIN) -> np.ndarray:
    """``(n, L + 1)`` the floor's share of each call of ``mask`` ((n, L + 1)
    bool, within ``legal``): ``floor / m`` (``m`` the calls of ``mask`` in
    the row) times ``exp(-gap / scale)``, ``gap`` how many points the call's
    expected hand score (a pass 0, rank r ``ev[:, r]``; ``ev`` None: every
    gap 0, the flat floor) lies below the best ``legal`` call's, and at least
    ``least`` (:data:`FLOOR`); all 0 where ``floor`` is 0 (the self-play)."""
    mask = np.asarray(mask, dtype=bool)
    if floor <= 0:
        return np.zeros(mask.shape)
    n = mask.shape[0]
    if ev is None:
        gap = np.zeros(mask.shape)
    else:
        worth = np.concatenate([np.zeros((n, 1)), np.asarray(ev, dtype=np.float64)], axis=1)
        best = np.where(legal, worth, -np.inf).max(axis=1, keepdims=True)
        gap = np.maximum(np.where(legal, best - worth, 0.0), 0.0)
    m = mask.sum(axis=1, keepdims=True)
    f = np.maximum(floor / np.maximum(m, 1) * np.exp(-gap / scale), least)
    return np.where(mask, f, 0.0)


def quantal(q: np.ndarray, acts: np.ndarray, legal: np.ndarray, temperature: float = TEMPERATURE,
            floor: float = FLOOR, action_floor: float = ACTION_FLOOR, ev: np.ndarray | None = None) -> np.ndarray:
    """``(n, L + 1)`` call probabilities (column 0 pass, 1 + rank): softmax
    of ``q / temperature`` (``q`` (n, A) the actions' values, ``acts`` (n, A)
    their ranks from :func:`position_calls`, -2 where illegal) mixed with
    ``action_floor`` spread over the legal actions, then the floor on the
    other ``legal`` calls ((n, L + 1) bool): :func:`floor_shares` of
    ``floor`` by ``ev`` ((n, L), the hand's expected hand score at each
    rank; None: flat), the actions scaled down by what it takes (all of it
    to the actions where every legal call is one)."""
    n, A = q.shape
    ok = acts != -2
    z = np.where(ok, q / temperature, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    e = np.where(ok, np.exp(z), 0.0)
    pa = e / e.sum(axis=1, keepdims=True)
    na = ok.sum(axis=1, keepdims=True)
    pa = (1 - action_floor) * pa + action_floor * ok / na
    out = np.zeros(legal.shape)
    rows = np.repeat(np.arange(n), A)
    cols = (acts + 1).reshape(-1)
    keep = ok.reshape(-1)
    out[rows[keep], cols[keep]] = pa.reshape(-1)[keep]
    f = floor_shares(ev, legal, legal & (out == 0), floor)
    return (1 - f.sum(axis=1, keepdims=True)) * out + f


def softmax_calls(values: np.ndarray, pass_value: np.ndarray, legal: np.ndarray, temperature: float,
                  floor: float = FLOOR, ev: np.ndarray | None = None) -> np.ndarray:
    """``(n, L + 1)``: softmax of the calls' values (pass ``pass_value``,
    rank r ``values[:, r]``) over the ``legal`` calls at ``temperature``,
    mixed with the floor on them all (:func:`floor_shares` by ``ev``, the
    hand's expected hand score at each rank; None: flat)."""
    v = np.concatenate([np.asarray(pass_value, dtype=np.float64).reshape(-1, 1), values], axis=1) / temperature
    z = np.where(legal, v, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    e = np.where(legal, np.exp(z), 0.0)
    p = e / e.sum(axis=1, keepdims=True)
    f = floor_shares(ev, legal, legal, floor)
    return (1 - f.sum(axis=1, keepdims=True)) * p + f


@dataclass(frozen=True, eq=False)
class PopulationModel:
    """The population's fit (module doc): ``coef`` (N_CELLS, len(ACTIONS),
    1 + len(FEATURES)) of the standardised features (``center``, ``scale``),
    ``temperature``, ``floor``; ``play`` what its values and features
    measure; ``rules`` the rules dict it was built for; ``info`` provenance
    and rounds."""

    coef: np.ndarray
    center: np.ndarray
    scale: np.ndarray
    temperature: float
    floor: float
    play: str
    rules: dict
    info: dict

    def applies_to(self, rules: Rules) -> bool:
        """Whether ``rules`` equal the build's but for the match's end
        (:data:`kaiser_sim.strategy.policies.LISTEN_IGNORED_RULES`)."""
        mine, theirs = hand_rules(self.rules), hand_rules(rules)
        shape = (N_CELLS, len(ACTIONS), 1 + len(FEATURES) + len(EXTRAS))  # a file of an older layout: not this
        return (mine == theirs and len(self.info.get("calls", [])) == len(ladder_arrays(rules)) + 1
                and self.coef.shape == shape)

    def design(self, X: np.ndarray) -> np.ndarray:
        """``(n, 1 + F)``: a constant, then the standardised features."""
        return np.column_stack([np.ones(X.shape[0]), (X - self.center) / self.scale])

    def q(self, Z: np.ndarray, ev: np.ndarray, calls: np.ndarray, rules: Rules):
        """``(q (n, A), acts (n, A))``: the actions' values for design rows
        ``Z`` and ``ev``'s expected hand scores ``ev`` ((n, L)) making call
        ``k`` after ``calls`` ((n, k)), and the actions' ranks."""
        calls = np.asarray(calls)
        k = calls.shape[1]
        holder, top = auction_context(calls)
        acts = population_actions(position_calls(calls, k, rules), k, holder, top, rules)
        coef = self.coef[cell_of(k, holder, top, rules)]  # (n, A, F + E)
        f = Z.shape[1]
        points = Z[:, 1:3] * self.scale[:2] + self.center[:2]
        q = np.einsum("nf,naf->na", Z, coef[:, :, :f]) + np.einsum("nae,nae->na", coef[:, :, f:],
                                                                   action_extras(ev, acts, top, rules, points))
        return q, acts

    def probs_of(self, Z: np.ndarray, ev: np.ndarray, calls: np.ndarray, rules: Rules,
                 floor: float | None = None) -> np.ndarray:
        """``(n, L + 1)`` the call probabilities at 0-0 (module doc); ``floor``
        in place of the model's (the self-play that fits it uses 0)."""
        q, acts = self.q(Z, ev, calls, rules)
        return quantal(q, acts, legal_calls(calls, rules), self.temperature,
                       self.floor if floor is None else floor, ev=ev)


class PopulationPolicy(EVPolicy):
    """The bidding population (module doc): :meth:`probs` a probability for
    every legal call, :meth:`bid` a draw from them with a hashed uniform
    (``salt`` changes the draws); trump named as ``ev`` names it (as
    ``score-aware`` from the endgame on)."""

    stochastic = True

    def __init__(self, model: PopulationModel | None = None, make_model=None, play: str = DEFAULT_PLAY,
                 name: str = "population", endgame: int | None = ENDGAME, salt: int = 0):
        super().__init__(0.0, name, make_model, play)
        self.model, self.endgame, self.salt = model, endgame, int(salt)
        self._late = ScoreAwarePolicy(make_model, play)

    def model_for(self, rules: Rules) -> PopulationModel | None:
        """The fit this policy reads under ``rules`` (None: the quantal
        response on ``ev``'s expected scores, module doc)."""
        m = self.model if self.model is not None else read_population().get(play_used(rules, self.play))
        return m if m is not None and m.applies_to(rules) else None

    def late(self, view) -> np.ndarray:
        """(n,) bool: the rows where the match score decides (module doc)."""
        if self.endgame is None:
            return np.zeros(len(view), dtype=bool)
        return np.asarray(view.scores).max(axis=1) >= np.asarray(view.target) - self.endgame

    def probs(self, view) -> np.ndarray:
        legal = legal_calls(view.calls, view.rules)
        model = self.model_for(view.rules)
        X, ev, _ = hand_features(view.hands, view.rules, self.make_model, self.play)
        if model is None:
            out = softmax_calls(ev, np.zeros(len(view)), legal, TEMPERATURE, ev=ev)
        else:
            out = model.probs_of(model.design(X), ev, view.calls, view.rules)
        late = self.late(view)
        if late.any():
            values, _, pass_value = self._late.values(_rows(view, late))
            out[late] = softmax_calls(values + ENDGAME_SCORE_WEIGHT * ev[late], pass_value, legal[late],
                                      ENDGAME_TEMPERATURE, ev=ev[late])
        return out

    def bid(self, view):
        return draw_calls(self.probs(view), call_uniforms(view, self.salt))

    def trump(self, view, rank):
        out = np.asarray(super().trump(view, rank)).copy()
        late = self.late(view)
        if late.any():
            out[late] = self._late.trump(_rows(view, late), np.asarray(rank)[late])
        return out


def save_npz(path, doc: dict, arrays: dict) -> int:
    """Write ``arrays`` and ``doc`` (as JSON under ``"info"``) to ``path``
    (compressed ``.npz``, written to a temporary file and renamed, so a
    reader never sees half a file); its size in bytes.  The one writer of the
    shipped files the readers here read (the listening tables, the
    population)."""
    import json
    import os
    from pathlib import Path

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    with open(tmp, "wb") as f:
        np.savez_compressed(f, info=np.array(json.dumps(doc)), **arrays)
    os.replace(tmp, path)
    return path.stat().st_size


def population_path():
    from pathlib import Path

    return Path(__file__).resolve().parents[1] / "data" / POPULATION_FILE


def read_population(path=None) -> dict:
    """``{play: PopulationModel}`` from the file at ``path`` (default the
    shipped one, read once); ``{}`` if it cannot be read."""
    return dict(_read_population(str(population_path() if path is None else path)))


@functools.lru_cache(maxsize=4)
def _read_population(path: str) -> tuple:
    import json

    try:
        with np.load(path, allow_pickle=False) as f:
            doc = json.loads(str(f["info"]))
            out = []
            for play in doc["plays"]:
                meta = doc["models"][play]
                out.append((play, PopulationModel(f[f"{play}_coef"].astype(np.float64), f[f"{play}_center"],
                                                  f[f"{play}_scale"], float(meta["temperature"]),
                                                  float(meta["floor"]), play, meta["rules"], meta)))
    except (OSError, KeyError, ValueError):
        return ()
    return tuple(out)


def population_note(rules: Rules, play: str = DEFAULT_PLAY) -> str:
    """One line: what the population assumes under ``rules`` (its build and
    its domain), for the texts that bid by it."""
    used = play_used(rules, play)
    m = read_population().get(used)
    if m is None:
        return (f"population: no model for {used} play ({POPULATION_FILE} missing or unreadable): a quantal "
                "response on ev's expected scores")
    if not m.applies_to(rules):
        return (f"population: built for rules {m.rules.get('label', '?')}, not these: a quantal response on ev's "
                "expected scores")
    i = m.info
    return (f"population: every seat bids by a self-play population ({i['deals']:,} solved deals, seed {i['seed']}, "
            f"{len(i['rounds']) - 1} rounds, {'converged' if i['converged'] else 'not converged'}; {used} play): "
            f"each call's probability a softmax of its net value at temperature {m.temperature:g} (the values "
            f"fitted against calls at {i.get('fit_temperature', m.temperature):g}), every legal "
            f"call > 0; score-aware's P(win) from {rules.target - ENDGAME} on")


#: policy name -> (factory of ``play``, one-line summary)
POLICIES = {
    "ev": (lambda play: EVPolicy(0.0, "ev", play=play), "highest expected hand score; pass if none positive"),
    "cautious": (lambda play: EVPolicy(CAUTIOUS_MARGIN, "cautious", play=play),
                 f"ev, bidding only above {CAUTIOUS_MARGIN:+g} expected points"),
    "aggressive": (lambda play: EVPolicy(AGGRESSIVE_MARGIN, "aggressive", play=play),
                   f"ev, bidding down to {AGGRESSIVE_MARGIN:+g} expected points"),
    "score-aware": (lambda play: ScoreAwarePolicy(play=play),
                    "maximises P(win the match) from the score (one-step lookahead)"),
    "rank-squared": (lambda play: HeuristicPolicy("rank-squared", play=play),
                     "sum of face value squared / 100, as points"),
    "trump-heuristic": (lambda play: HeuristicPolicy("trump-heuristic", play=play),
                        "3/trump + trump A 4 + trump K 3 + 5H 3 + other A 2 - 3S 2, as points"),
    "listening": (lambda play: ListeningPolicy(play=play),
                  "the call with the highest net value given the calls heard (a simulated table)"),
    "population": (lambda play: PopulationPolicy(play=play),
                   "stochastic: softmax of each call's net value, fitted by self-play of both partners"),
}



def get_policy(name, play: str = DEFAULT_PLAY) -> Policy:
    """A policy by name (:data:`POLICIES`) whose make-probabilities model
    ``play`` (``"table"`` or ``"dd"``, module doc), or a :class:`Policy` as
    is (its own ``play``)."""
    if isinstance(name, Policy):
        return name
    play = check_play(play)
    key = str(name).strip().lower().replace("_", "-")
    if key not in POLICIES:
        raise PolicyError(f"unknown policy '{name}'; policies: {', '.join(POLICIES)}")
    return POLICIES[key][0](play)


# --- the auction ---------------------------------------------------------------------------


def run_auction(deals, dealers, scores, targets, rules: Rules, policies, side_policy) -> np.ndarray:
    """The calls of ``n`` auctions, vectorised: ``(n, 4)`` int16 ladder ranks
    (PASS = -1), call 0 by the dealer's left.

    deals : (n, 4) uint64; dealers : (n,); scores : (n, 2) (N-S, E-W);
    targets : (n,); policies : list of :class:`Policy`; side_policy : (n, 2)
    index into ``policies`` of the policy of N-S and of E-W in each row.
    Each seat's policy gets a :class:`BidView` holding only its own hand
    and public information.  A policy making an illegal call raises
    :class:`PolicyError`.
    """
    n = deals.shape[0]
    calls = np.full((n, 4), PASS, dtype=np.int16)
    rows = np.arange(n)
    L = len(ladder_arrays(rules))
    for k in range(4):
        seat = (dealers + 1 + k) % 4
        side = seat & 1
        pol = side_policy[rows, side]
        _, min_rank, can_pass = auction_limits(calls[:, :k], rules)
        for p in np.unique(pol):
            r = rows[pol == p]
            s = side[r]
            view = BidView(deals[r, seat[r]], calls[r, :k].copy(), seat[r], dealers[r],
                           np.stack([scores[r, s], scores[r, 1 - s]], axis=1), targets[r], rules)
            c = np.asarray(policies[p].bid(view), dtype=np.int16)
            playable = ladder_arrays(rules).playable[np.clip(c, 0, L - 1)]
            ok = np.where(c == PASS, can_pass[r], (c >= min_rank[r]) & (c < L) & playable)
            if not ok.all():
                i = int(np.nonzero(~ok)[0][0])
                raise PolicyError(f"policy {policies[p].name} made an illegal call (rank {int(c[i])}) as call "
                                  f"{k + 1} of an auction")
            calls[r, k] = c
    return calls


def contracts_of(calls: np.ndarray, dealers: np.ndarray):
    """``(rank, declarer)`` of each auction: the highest bid (a dealer's
    match takes it) and its bidder; rank -1 (declarer -1) if all passed."""
    n = calls.shape[0]
    best = np.full(n, PASS, dtype=np.int64)
    who = np.full(n, -1, dtype=np.int64)
    for k in range(4):
        c = calls[:, k].astype(np.int64)
        take = (c >= 0) & (c >= best)
        best = np.where(take, c, best)
        who = np.where(take, (dealers + 1 + k) % 4, who)
    return best, who


# --- the value of a score: the score-aware policy's win-probability model -------------------------
# It lives beside the ``ev`` auction its hand events are estimated from and the score-aware policy
# that reads it.
#
# The probability of winning the match from a score, for the score-aware
# policy and the match study.
#
# Model (approximate, stated plainly):
#
# - a hand is an *event*: a contract (a bid of the ladder) and the declaring
#   side's raw points.  Their distribution is estimated once per rules set:
#   ``PILOT_DEALS`` random deals (seed ``PILOT_SEED``, no solving) are bid by
#   the ``ev`` policy on both sides (:func:`kaiser_sim.strategy.policies.run_auction`),
#   and each contract contributes its declarer's distribution of raw points:
#   the make model's (:mod:`kaiser_sim.strategy.make_model`, double dummy) composed
#   with the table-play model under ``play="table"`` (the default), as is
#   under ``play="dd"`` -- the same distribution the policies bid on
#   (:func:`kaiser_sim.strategy.policies.hand_values`);
# - either side declares with probability 1/2, whatever the score, and the
#   events do not depend on the score (the policies in a real match do);
# - the score after a hand follows :func:`kaiser_sim.scoring.score_hands`
#   (the 45 rule, the target, ties, ``lose_at`` ...); the target is
#   ``rules.target`` throughout (``target_after_nt`` is not modelled);
# - scores below ``-target`` are treated as ``-target``.
#
# ``W(us, them)``, the chance that "us" wins from the start of a hand, solves
# ``W = sum_e p_e * value(e)`` (1 for a won match, 0 for a lost one, ``W`` of
# the next score otherwise); it is found by value iteration.  From it,
# :class:`WinTable` keeps what the policy needs: ``after_declare[state, bid,
# r]`` (P(win) after we declare ``bid`` and take ``r - 2`` raw points) and
# ``after_pass[state]`` (P(win) after a hand the opponents declare).

#: the pilot run of the hand events: ``ev`` bidding on this many random deals of this seed
PILOT_DEALS = 8000
PILOT_SEED = 20261129
#: the value iteration of ``W`` stops when no value moves by more than TOLERANCE, or after
#: MAX_ITERATIONS sweeps
TOLERANCE = 1e-7
MAX_ITERATIONS = 5000


@dataclass(frozen=True)
class WinTable:
    """Win probabilities over the score grid ``lo .. target-1`` for both
    sides (the win-probability model at the end of this module).  ``W`` is ``(m, m)``: ``W[us - lo, them - lo]``."""

    lo: int
    target: int
    W: np.ndarray
    after_declare: np.ndarray  # (m*m, L, 15)
    after_pass: np.ndarray  # (m*m,)
    events: np.ndarray  # (L, 15) P(contract, raw) given a contract
    p_none: float
    iterations: int

    @property
    def m(self) -> int:
        return self.target - self.lo

    def index(self, us, them) -> np.ndarray:
        """Flat state index of scores (clipped to the grid)."""
        a = np.clip(np.asarray(us, dtype=np.int64), self.lo, self.target - 1) - self.lo
        b = np.clip(np.asarray(them, dtype=np.int64), self.lo, self.target - 1) - self.lo
        return a * self.m + b

    def win(self, us, them) -> np.ndarray:
        return self.W.reshape(-1)[self.index(us, them)]


def hand_events(rules: Rules, deals: int = PILOT_DEALS, seed: int = PILOT_SEED, make_model=None, play: str = "table"):
    """``(events, p_none)``: P(contract = bid i, declarer's raw = r - 2)
    given that there is a contract, ``(L, 15)``, and the share of hands
    thrown in, from ``ev`` bidding on random deals (the model at the end of this module;
    ``play``: the policies' ``"table"`` or ``"dd"``)."""
    from ..deal import deal_for_rules

    d = deal_for_rules(deals, seed, rules)[0]  # the rules' hand size and deck (the 8-card game: deal_batch)
    dealers = np.arange(deals) % 4
    scores = np.zeros((deals, 2), dtype=np.int64)
    targets = np.full(deals, rules.target)
    calls = run_auction(d, dealers, scores, targets, rules, [EVPolicy(make_model=make_model, play=play)],
                        np.zeros((deals, 2), dtype=np.int64))
    rank, who = contracts_of(calls, dealers)
    ok = rank != PASS
    lad = ladder_arrays(rules)
    rows = np.nonzero(ok)[0]
    hands = d[rows, who[rows]]
    _, trump, ds, dn = hand_values(hands, rules, make_model, play)
    r = rank[rows]
    i = np.arange(rows.size)
    nt = dn
    if rules.low_nt != "off":  # a low bid is played low; with low_nt=choice the declarer picks per hand
        dl = low_nt_dist(hands, rules, make_model, play)
        low = lad.low[r] | nt_low(hands, rules, make_model, play)
        nt = np.where(low[:, None], dl, dn)
    dist = np.where(lad.nt[r][:, None], nt, ds[trump[i, r], i])
    events = np.zeros((len(lad), dist.shape[1]))
    np.add.at(events, r, dist)
    total = events.sum()
    return (events / total if total else events), float(1.0 - ok.mean())


def _transitions(rules: Rules, lo: int, level: int, nt: bool, raw: int, declarer: int):
    """Over every state of the grid: (terminal, won by side 0, next index)."""
    t = rules.target
    m = t - lo
    a, b = np.divmod(np.arange(m * m), m)
    before = np.stack([a + lo, b + lo], axis=1)
    res = score_hands(rules, level, nt, declarer, np.full(m * m, raw), before, target=t)
    term = res.winner >= 0
    won = res.winner == 0
    after = np.clip(res.scores, lo, t - 1) - lo
    return term, won, after[:, 0] * m + after[:, 1]


def win_table(rules: Rules, make_model=None, play: str = "table") -> WinTable:
    """The :class:`WinTable` of ``rules`` (cached; about a second), with the
    hand outcomes the policies expect under ``play`` (the model at the end of this module; table play
    falls back to DD where it does not apply, :func:`play_used`)."""
    return _win_table(rules, make_model, play_used(rules, play))


@functools.lru_cache(maxsize=8)
def _win_table(rules: Rules, make_model, play: str) -> WinTable:
    from .make_model import RAW_VALUES

    lad = ladder_arrays(rules)
    events, p_none = hand_events(rules, make_model=make_model, play=play)
    lo, t = -rules.target, rules.target
    m = t - lo
    S = m * m
    const = np.zeros(S)
    nexts, weights = [], []
    if p_none > 0:  # a thrown-in hand leaves the score as it is
        nexts.append(np.arange(S))
        weights.append(np.full(S, p_none))
    trans = {}
    for side in (0, 1):
        for i, bid in enumerate(lad.bids):
            for j, raw in enumerate(RAW_VALUES):
                term, won, nxt = trans[side, i, j] = _transitions(rules, lo, bid.level, bid.nt, int(raw), side)
                p = events[i, j]
                if p <= 0:
                    continue
                w = 0.5 * (1 - p_none) * p
                const += w * (term & won)
                nexts.append(nxt)
                weights.append(np.where(term, 0.0, w))
    nxt = np.stack(nexts)
    wts = np.stack(weights)
    W = np.full(S, 0.5)
    it = 0
    for it in range(1, MAX_ITERATIONS + 1):
        new = const + (wts * W[nxt]).sum(axis=0)
        diff = np.abs(new - W).max()
        W = new
        if diff < TOLERANCE:
            break
    values = {}
    for side in (0, 1):
        fill = np.empty((S, len(lad), RAW_VALUES.size))
        for i in range(len(lad)):
            for j in range(RAW_VALUES.size):
                term, won, nx = trans[side, i, j]
                fill[:, i, j] = np.where(term, won.astype(float), W[nx])
        values[side] = fill
    after_pass = (values[1] * events[None, :, :]).sum(axis=(1, 2))
    return WinTable(lo, t, W.reshape(m, m), values[0], after_pass, events, p_none, it)


__all__ = ["PASS", "Policy", "EVPolicy", "HeuristicPolicy", "ScoreAwarePolicy", "POLICIES", "PolicyError",
           "BidView", "get_policy", "run_auction", "contracts_of", "ladder_arrays", "auction_limits", "choose",
           "hand_values", "bid_values", "low_nt_dist", "nt_low", "rules_note", "PLAYS", "DEFAULT_PLAY", "check_play", "play_used", "play_note", "compose_play",
           "WinTable", "win_table", "hand_events", "PILOT_DEALS", "PILOT_SEED", "ACTIONS", "position_calls",
           "ListeningPolicy", "ListeningTable", "listen_features", "auction_context", "read_listening_tables",
           "listening_note", "HOLDERS", "LISTEN_BINS", "TREMBLE", "legal_columns", "legal_calls", "draw_calls", "call_uniforms",
           "PopulationPolicy", "PopulationModel", "read_population", "population_note", "population_path",
           "hand_features", "quantal", "softmax_calls", "action_scores", "action_extras", "cell_of", "FEATURES",
           "EXTRAS", "TEMPERATURE", "PLAY_TEMPERATURE", "FLOOR", "FLOOR_SCALE", "FLOOR_MIN", "floor_shares", "ACTION_FLOOR", "ENDGAME",
           "ENDGAME_TEMPERATURE", "ENDGAME_SCORE_WEIGHT",
           "population_actions", "bucket_groups", "TOP_BUCKETS", "hand_rules",
           "N_CELLS", "POPULATION_FILE"]

"""Deals consistent with the calls heard: the unseen cards, dealt so that
every seat that spoke would have made its call under a bidding model.

Kaiser is bid once around, and every call after the first is made knowing
the calls before it.  A player who has heard ``6, pass, 7`` holds the same
8 cards as one who heard nothing, but the other 24 are no longer dealt
uniformly: the player on the left had a hand that bids 6, partner one that
passes over it, and so on.  :func:`conditioned_deals` draws those deals.

Two methods (``method``, :data:`METHODS`; default
:data:`kaiser_sim.config.AUCTION_CONDITIONING`, ``"weights"``):

Method: importance weights (``"weights"``, the default)
-------------------------------------------------------
- The candidates are the advisor's deal stream (as below, deal ``i`` is the
  same deal under both methods).  Each candidate's **weight** is the
  product, over the heard calls, of the model's probability of that call
  given the speaker's hand and the calls before it
  (:meth:`kaiser_sim.strategy.policies.Policy.probs`): the likelihood of the
  calls on that deal.  A deterministic model gives every legal call a
  probability through its trembling hand
  (:data:`kaiser_sim.strategy.policies.TREMBLE`): deals on which it makes
  every heard call weigh about 1, the others about ``TREMBLE`` per call it
  would not make.  So every legal auction gets an answer: the forced dealer
  after three passes, an opening 7 no model makes, a call the model rarely
  makes; and no call need be the model's exact call to count.
- Candidates are drawn until their effective sample size,
  ``(sum w)**2 / sum w**2``, reaches ``ceil(AUCTION_ESS_FRACTION * n)``
  (:data:`kaiser_sim.config.AUCTION_ESS_FRACTION`) with at least ``n``
  drawn, or ``max_candidates`` are drawn (then :attr:`ConditionedDeals.short`:
  the analysis goes on with what there is and says so).  The mean weight
  over the candidates estimates P(the calls | the hand):
  :attr:`ConditionedDeals.acceptance` under this method.
- To keep the solving cost at ``n`` deals the candidates are thinned to
  ``n`` without bias by **priority sampling** (Duffield, Lund and Thorup
  2007): candidate ``i`` has the priority ``w_i / u_i``, ``u_i`` a uniform
  hashed from (the seed, ``i``); the ``n`` highest priorities are kept, each
  with the weight ``max(w_i, tau)``, ``tau`` the ``n + 1``-th highest
  priority.  Every weighted sum over the kept deals is then an unbiased
  estimate of the same sum over all the candidates.  The kept deals are
  in stream order, with their weights (:attr:`ConditionedDeals.weights`)
  and their effective sample size (:attr:`ConditionedDeals.ess`): every
  mean over them must be weighted (``sum w x / sum w``).
- The result depends on (hand, seat, calls, model, scores, rules, seed, n)
  only, never on the block size.  With no calls heard every weight is 1 and
  the deals are the advisor's own.  Only an auction the model gives
  probability 0 (a model breaking the ``probs`` contract) is refused.

Method: rejection from the seeded deal stream (``"reject"``)
-----------------------------------------------------------
- The candidates are the advisor's deal stream: deal ``i`` is deal ``i`` of
  ``deal_for_rules(seed, fixed={seat: hand})`` (the same deals as
  ``kaiser-sim hand`` and ``kaiser-sim simulate --fix SEAT=HAND`` with that
  seed; other hands that are weak under the weak-hand redeal are redealt).
- Each speaking seat, in turn from the dealer's left, is asked for its call
  by the *bidding model* (a match policy, :mod:`kaiser_sim.strategy.policies`),
  seeing only its own hand, the calls before it, its seat, the dealer, the
  scores (its side's first) and the target.  A candidate is kept when every
  seat's call is the one heard.  The calls are asked in blocks of
  :data:`kaiser_sim.config.AUCTION_BLOCK` candidates, vectorised, the later
  seats only on the candidates still in.
- The kept deals are the first ``n`` kept candidates in stream order, and
  ``candidates`` counts the stream up to and including the last of them:
  the result depends on (hand, seat, calls, model, scores, rules, seed, n)
  only, never on the block size or the number of workers.  With no calls
  heard every candidate is kept: the deals are the advisor's own.
- At most ``max_candidates`` candidates are tried
  (:data:`kaiser_sim.config.AUCTION_MAX_CANDIDATES` by default).  When the
  calls are so rare under the model that fewer than ``n`` deals are kept by
  then: with at least ``min(n, min_deals)`` kept deals
  (:data:`kaiser_sim.config.AUCTION_MIN_DEALS`) the analysis goes on with
  the deals it has and says so (:attr:`ConditionedDeals.short`); with fewer
  it stops with :class:`AuctionTooRare`, whose message names the call the
  model almost never makes with such hands and what it calls instead.
  Every kept deal weighs 1 (:attr:`ConditionedDeals.weights` is None).

The model is an assumption: real players bid differently from any policy.
Every number computed on these deals depends on it, and says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import KaiserSimError
from .. import config
from ..auction import AuctionError, Bid, bidder, call_text, check_auction
from ..cards import Seat
from ..rules import Rules


class AuctionInputError(KaiserSimError):
    """Calls that cannot be read or are illegal, or a dealer that does not
    agree with them; the message names the call and the rule it breaks."""


class AuctionTooRare(KaiserSimError):
    """The calls heard are too rare under the bidding model to deal enough
    deals consistent with them; the message names the rarest call."""


#: the relative rounding allowed when the effective sample size is compared with its floor
ESS_ROUNDING = 1e-9

#: the words read as "no calls heard" (the first seat to speak)
NO_CALLS = ("none",)


def parse_calls(text) -> tuple[Bid | None, ...]:
    """The calls heard, from text: calls separated by spaces or commas, each
    ``pass`` (also ``p``, ``-``) or a bid (``6``, ``7NT``, ``7NT-low``);
    ``none`` alone for no calls (the first seat to speak).  A sequence of
    calls (strings, :class:`~kaiser_sim.auction.Bid` or None) is taken as
    is.  :class:`AuctionInputError` for an empty text or a call that cannot
    be read."""
    if not isinstance(text, str):
        calls = []
        for c in text:
            try:
                calls.append(c if c is None or isinstance(c, Bid) else Bid.parse(str(c)))
            except AuctionError as e:
                raise AuctionInputError(f"--auction: {e}") from None
        return tuple(calls)
    words = [w for w in re.split(r"[\s,]+", text.strip()) if w]
    if not words:
        raise AuctionInputError("--auction is empty: give the calls heard from the dealer's left "
                                "('6 pass 7'), or 'none' when you speak first")
    if len(words) == 1 and words[0].lower() in NO_CALLS:
        return ()
    calls = []
    for w in words:
        try:
            calls.append(Bid.parse(w))
        except AuctionError as e:
            raise AuctionInputError(f"--auction: {e}") from None
    return tuple(calls)


def dealer_of(seat: int, ncalls: int) -> int:
    """The dealer when ``seat`` speaks after ``ncalls`` calls (call 0 is the
    dealer's left)."""
    return (int(seat) - int(ncalls) - 1) % 4


def heard_auction(rules: Rules, seat: int, calls, dealer=None) -> tuple[int, tuple]:
    """``(dealer, calls)`` of an auction heard by ``seat``: the dealer follows
    from the seat and the number of calls (at most 3: ``seat`` has still to
    speak); a ``dealer`` that disagrees, too many calls or an illegal call
    (a bid not above the last, a pass by a dealer who must bid, a bid the
    rules do not have) is refused with :class:`AuctionInputError` naming the
    rule it breaks."""
    calls = parse_calls(calls)
    seat = int(seat)
    if len(calls) > 3:
        raise AuctionInputError(f"--auction has {len(calls)} calls: the calls heard are those before your turn, "
                                "3 at most (you speak at the latest as the dealer, fourth)")
    d = dealer_of(seat, len(calls))
    if dealer is not None and int(dealer) != d:
        raise AuctionInputError(
            f"--dealer {Seat(int(dealer)).name} disagrees with --auction: {len(calls)} call"
            f"{'s' if len(calls) != 1 else ''} before {Seat(seat).name} means {Seat(d).name} deals "
            "(leave --dealer out)")
    try:
        check_auction(rules, d, list(calls))
    except AuctionError as e:
        raise AuctionInputError(f"illegal --auction: {e}") from None
    return d, calls


@dataclass(frozen=True)
class CallStep:
    """One heard call as a filter.  Under rejection: ``tried`` candidates were
    asked it (those that fit every call asked before it: the calls are asked
    rarest first, as observed, since a seat's call depends only on its own
    hand and the calls heard), ``kept`` of them had the model make it;
    ``instead``: what the model called with the others, ``{call: count}``.
    Under weights: every candidate is asked it (``tried``), ``kept`` counts
    those where it is the model's likeliest call, ``instead`` the likeliest
    call of the others, and ``p`` is the model's mean probability of the
    call given the calls before it (over the candidates, each weighted by
    the probability of those calls): :attr:`rate`."""

    seat: int
    call: str
    tried: int
    kept: int
    instead: dict
    p: float | None = None

    @property
    def rate(self) -> float:
        """How often the model makes the call with the hands that reach it."""
        if self.p is not None:
            return self.p
        return self.kept / self.tried if self.tried else float("nan")


@dataclass(frozen=True, eq=False)
class ConditionedDeals:
    """Deals consistent with the calls heard (module doc).

    deals : (kept, 4) uint64; kitties : (kept,) uint64 (0 without a kitty).
    calls : the calls heard, from the dealer's left; dealer, seat.
    bidders : the bidding model's name; scores : (ours, theirs) of ``seat``'s side.
    requested : the deals asked for; candidates : the candidates tried (the
        stream up to the last kept deal, or every candidate tried when short;
        under weights the stream up to where the effective sample size
        reached its floor).
    steps : one :class:`CallStep` per heard call, over those candidates.
    method : ``"weights"`` or ``"reject"`` (module doc).
    weights : (kept,) float64 importance weights of the kept deals, or None
        (rejection: every kept deal weighs 1).
    mass : the mean weight over the candidates, the estimated P(the calls |
        the hand) (weights; None under rejection).
    candidate_ess : the effective sample size of the candidates before
        thinning; ess_floor : the floor it was drawn to (weights).
    """

    deals: np.ndarray
    kitties: np.ndarray
    calls: tuple
    dealer: int
    seat: int
    bidders: str
    scores: tuple
    seed: int
    requested: int
    candidates: int
    max_candidates: int
    steps: tuple
    method: str = "reject"
    weights: np.ndarray | None = None
    mass: float | None = None
    candidate_ess: float | None = None
    ess_floor: int = 0

    @property
    def kept(self) -> int:
        return int(self.deals.shape[0])

    @property
    def ess(self) -> float:
        """The kept deals' effective sample size, ``(sum w)**2 / sum w**2``
        (the kept count under rejection)."""
        if self.weights is None:
            return float(self.kept)
        w = self.weights
        s2 = float(np.dot(w, w))
        return float(w.sum()) ** 2 / s2 if s2 > 0 else 0.0

    @property
    def acceptance(self) -> float:
        """The share of the candidates' probability that the calls hold: kept
        / candidates under rejection, the mean weight (the estimated P(the
        calls | the hand)) under weights."""
        if self.mass is not None:
            return float(self.mass)
        return self.kept / self.candidates if self.candidates else float("nan")

    @property
    def short(self) -> bool:
        """The candidates ran out: fewer deals than asked for (rejection), or
        an effective sample size below its floor (weights)."""
        if self.method == "weights":
            return bool(self.candidate_ess < self.ess_floor * (1 - ESS_ROUNDING)) or self.kept < self.requested
        return self.kept < self.requested

    def summary(self) -> dict:
        """How the deals were conditioned, for JSON: method, deals kept,
        candidates, the effective sample size (of the kept deals; of the
        candidates and its floor under weights), the acceptance (kept /
        candidates, or the estimated P(the calls | the hand)) and short."""
        out = {"method": self.method, "deals": self.kept, "requested": self.requested,
               "candidates": self.candidates, "ess": round(self.ess, 1), "acceptance": self.acceptance,
               "short": self.short}
        if self.method == "weights":
            out.update(candidate_ess=round(float(self.candidate_ess), 1), ess_floor=self.ess_floor)
        return out

    def describe(self) -> str:
        """One sentence: how the deals were conditioned and what they are worth."""
        if self.method != "weights":
            return (f"{self.kept:,} of {self.candidates:,} candidate deals ({100 * self.acceptance:.3g}%) are those "
                    f"on which the {self.bidders} model makes every call heard")
        text = (f"{self.candidates:,} candidate deals weighted by the {self.bidders} model's probability of the "
                f"calls heard (mean weight {self.acceptance:.3g}: the calls' probability with this hand), thinned "
                f"without bias to {self.kept:,} weighted deals worth {self.ess:,.0f} equally weighted ones "
                "(effective sample size)")
        if self.short:
            text += (f"; the candidates ran out (--max-candidates {self.max_candidates:,}) before their effective "
                     f"sample size reached {self.ess_floor:,} (it is {float(self.candidate_ess):,.0f}): the intervals "
                     "are wider for it")
        return text

    def mean(self, x) -> np.ndarray:
        """The (weighted) mean over the kept deals of ``x`` (first axis: the
        deals): ``sum w x / sum w``, the plain mean under rejection."""
        x = np.asarray(x, dtype=np.float64)
        if self.weights is None:
            return x.mean(axis=0)
        return np.tensordot(self.weights, x, axes=(0, 0)) / self.weights.sum()

    @property
    def calls_text(self) -> str:
        return " ".join(call_text(c) for c in self.calls) if self.calls else "none"


def _views_scores(scores, seats: np.ndarray, seat: int) -> np.ndarray:
    """(n, 2) each speaker's (ours, theirs) from ``scores`` of ``seat``'s side."""
    ours, theirs = int(scores[0]), int(scores[1])
    same = (seats & 1) == (int(seat) & 1)
    return np.stack([np.where(same, ours, theirs), np.where(same, theirs, ours)], axis=1).astype(np.int64)


def ask_calls(policy, hands: np.ndarray, calls: np.ndarray, seat: int, dealer: int, scores, advised: int,
              rules: Rules) -> np.ndarray:
    """The model's call (ladder rank, ``PASS`` = -1) of ``seat`` for each row:
    ``hands`` (n,) its hand, ``calls`` (n, k) the ranks before it; ``scores``
    (ours, theirs) of the ``advised`` seat's side."""
    from .policies import BidView

    n = hands.shape[0]
    seats = np.full(n, int(seat), dtype=np.int64)
    view = BidView(hands, calls, seats, np.full(n, int(dealer), dtype=np.int64),
                   _views_scores(scores, seats, advised), np.full(n, rules.target, dtype=np.int64), rules)
    return np.asarray(policy.bid(view), dtype=np.int16)


#: the ways of conditioning the deals on the calls (module doc)
METHODS = ("weights", "reject")
#: the salt of the priority-sampling uniforms (one per candidate index, hashed with the seed)
PRIORITY_SALT = 0x41A5_0F7C_50F7_0041


def ask_probs(policy, hands: np.ndarray, calls: np.ndarray, seat: int, dealer: int, scores, advised: int,
              rules: Rules) -> np.ndarray:
    """The model's ``(n, L + 1)`` call probabilities for ``seat`` on each row
    (:meth:`~kaiser_sim.strategy.policies.Policy.probs`; arguments as :func:`ask_calls`)."""
    from .policies import BidView

    n = hands.shape[0]
    seats = np.full(n, int(seat), dtype=np.int64)
    view = BidView(hands, calls, seats, np.full(n, int(dealer), dtype=np.int64),
                   _views_scores(scores, seats, advised), np.full(n, rules.target, dtype=np.int64), rules)
    return np.asarray(policy.probs(view), dtype=np.float64)


def priority_uniforms(seed: int, index: np.ndarray) -> np.ndarray:
    """A uniform in (0, 1] for each candidate ``index`` under ``seed``: a
    splitmix64 hash of both, so candidate ``i`` has the same uniform whatever
    the blocks it was drawn in."""
    with np.errstate(over="ignore"):
        z = (np.asarray(index, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
             + np.uint64((int(seed) ^ PRIORITY_SALT) & (2**64 - 1)))
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return ((z >> np.uint64(11)).astype(np.float64) + 1.0) * 2.0**-53


def priority_sample(weights: np.ndarray, uniforms: np.ndarray, n: int):
    """``(keep, kept_weights)``: priority sampling of ``n`` of the items
    (Duffield, Lund and Thorup): the ``n`` highest priorities ``w / u``
    (ties: the lower index), each weighing ``max(w, tau)``, ``tau`` the
    ``n + 1``-th highest priority; every item, with its own weight, when
    there are at most ``n``.  ``keep`` in index order.  The sum of
    ``kept_weights * x[keep]`` is an unbiased estimate of ``sum(weights * x)``."""
    w = np.asarray(weights, dtype=np.float64)
    return _thin(w / np.asarray(uniforms, dtype=np.float64), w, int(n))


def _thin(q: np.ndarray, w: np.ndarray, n: int):
    """:func:`priority_sample` from the priorities ``q`` of the weights ``w``."""
    if w.shape[0] <= n:
        return np.arange(w.shape[0]), w.copy()
    order = np.lexsort((np.arange(w.shape[0]), -q))
    tau = q[order[n]]
    keep = np.sort(order[:n])
    return keep, np.maximum(w[keep], tau)


def conditioned_deals(hand: int, seat: int, calls, n: int, seed: int, rules: Rules, bidders="ev",
                      scores=(0, 0), *, play: str = "table", max_candidates: int | None = None,
                      min_deals: int | None = None, block: int | None = None,
                      method: str | None = None) -> ConditionedDeals:
    """``n`` deals in which ``seat`` holds ``hand``, conditioned on the calls
    heard (``calls``, from the dealer's left) under the bidding model
    ``bidders`` (a policy name or a
    :class:`~kaiser_sim.strategy.policies.Policy`; its make-probabilities model
    ``play``), with ``scores`` (ours, theirs) before the hand: see the module
    doc.  ``method``: ``"weights"`` (default,
    :data:`kaiser_sim.config.AUCTION_CONDITIONING`: every candidate weighted
    by the model's probability of the calls, thinned to ``n`` weighted
    deals) or ``"reject"`` (the first ``n`` candidates on which the model
    makes every call; ``min_deals`` is its floor).  :class:`AuctionInputError`
    for illegal calls or an unknown method, :class:`AuctionTooRare` when too
    few deals are kept (rejection) or the model gives the calls probability 0."""
    from ..deal import deal_for_rules
    from .policies import PASS, get_policy, ladder_arrays

    method = str(config.AUCTION_CONDITIONING if method is None else method).strip().lower()
    if method not in METHODS:
        raise AuctionInputError(f"unknown conditioning '{method}' (use {' or '.join(METHODS)})")
    dealer, calls = heard_auction(rules, seat, calls)
    policy = get_policy(bidders, play)
    name = getattr(policy, "name", str(bidders))
    n = int(n)
    cap = int(config.AUCTION_MAX_CANDIDATES if max_candidates is None else max_candidates)
    floor = min(n, int(config.AUCTION_MIN_DEALS if min_deals is None else min_deals))
    block = int(config.AUCTION_BLOCK if block is None else block)
    if n < 1 or cap < 1 or block < 1:
        raise AuctionInputError("the deals, the candidates and the block must be at least 1")
    if method == "weights":
        return _weighted(hand, seat, dealer, calls, n, seed, rules, policy, name, scores, cap, block)
    lad = ladder_arrays(rules)
    ranks = np.array([lad.rank(c) for c in calls], dtype=np.int16)
    k = len(calls)
    others = [s for s in range(4) if s != int(seat)]
    fixed = {int(seat): int(hand)}
    kept_d, kept_k, kept_i = [], [], []
    # per candidate: the calls it was asked (bits), those the model made, and its call where it failed
    asked_parts, made_parts, instead_parts = [], [], []
    order = list(range(k))  # the calls are independent filters: the rarest is asked first (speed only)
    asked_n, made_n = np.zeros(k), np.zeros(k)
    got = tried = 0
    step = _first_step(n)
    while got < n and tried < cap:
        size = min(block, cap - tried, step)
        step *= 4
        d, kit = deal_for_rules(size, int(seed), rules, start=tried, fixed=fixed, redeal_weak=True, seats=others)
        rows = np.arange(size)
        asked = np.zeros(size, dtype=np.uint8)
        made = np.zeros(size, dtype=np.uint8)
        instead = np.full(size, PASS - 1, dtype=np.int16)  # PASS - 1: made every call
        heard = np.broadcast_to(ranks, (size, k))
        for i in order:
            if not rows.size:
                break
            s = bidder(dealer, i)
            c = ask_calls(policy, d[rows, s], np.ascontiguousarray(heard[rows, :i]), s, dealer, scores, seat, rules)
            hit = c == ranks[i]
            asked[rows] |= np.uint8(1 << i)
            instead[rows[~hit]] = c[~hit]
            asked_n[i] += rows.size
            rows = rows[hit]
            made[rows] |= np.uint8(1 << i)
            made_n[i] += rows.size
        order.sort(key=lambda i: made_n[i] / asked_n[i] if asked_n[i] else 1.0)
        kept_d.append(d[rows])
        kept_k.append(kit[rows])
        kept_i.append(rows + tried)
        asked_parts.append(asked)
        made_parts.append(made)
        instead_parts.append(instead)
        got += rows.size
        tried += size
    deals = np.concatenate(kept_d)[:n]
    kitties = np.concatenate(kept_k)[:n]
    index = np.concatenate(kept_i)[:n]
    candidates = int(index[-1]) + 1 if deals.shape[0] == n else tried
    asked = np.concatenate(asked_parts)[:candidates]
    made = np.concatenate(made_parts)[:candidates]
    instead = np.concatenate(instead_parts)[:candidates]
    steps = []
    for i in range(k):
        bit = np.uint8(1 << i)
        was_asked = (asked & bit) != 0
        hit = (made & bit) != 0
        miss = instead[was_asked & ~hit]
        counts = {call_text(None if r == PASS else lad.bids[r]): int(c)
                  for r, c in zip(*np.unique(miss, return_counts=True))}
        steps.append(CallStep(bidder(dealer, i), call_text(calls[i]), int(was_asked.sum()), int(hit.sum()),
                              dict(sorted(counts.items(), key=lambda x: -x[1]))))
    out = ConditionedDeals(np.ascontiguousarray(deals), np.ascontiguousarray(kitties), tuple(calls), dealer,
                           int(seat), name, (int(scores[0]), int(scores[1])), int(seed), n, candidates, cap,
                           tuple(steps))
    if out.kept < floor:
        raise AuctionTooRare(too_rare_message(out, floor))
    return out


def _first_step(n: int) -> int:
    """The first block's size: about what common calls need (a few times
    ``n``), growing fourfold up to the block size after it, so that a few
    deals asked for do not deal and ask a whole block (speed only: the
    result does not depend on the blocks)."""
    return max(1024, 4 * int(n))


def _running(total: float, x: np.ndarray) -> np.ndarray:
    """The running sums ``total + x[0], total + x[0] + x[1], ...``, added one
    by one (the same floats whatever blocks ``x`` is cut into)."""
    return np.cumsum(np.concatenate([[total], x]))[1:]


def _weighted(hand: int, seat: int, dealer: int, calls: tuple, n: int, seed: int, rules: Rules, policy, name: str,
              scores, cap: int, block: int) -> ConditionedDeals:
    """:func:`conditioned_deals` by importance weights (module doc)."""
    from ..deal import deal_for_rules
    from .policies import PASS, ladder_arrays

    lad = ladder_arrays(rules)
    ranks = np.array([lad.rank(c) for c in calls], dtype=np.int16)
    k = len(calls)
    others = [s for s in range(4) if s != int(seat)]
    fixed = {int(seat): int(hand)}
    ess_floor = int(np.ceil(config.AUCTION_ESS_FRACTION * n))
    s1 = s2 = 0.0  # running sum of the weights and of their squares
    before, after = np.zeros(k), np.zeros(k)  # per call: the weight of the calls before it, and with it
    likeliest = np.zeros(k, dtype=np.int64)
    instead: list[dict] = [{} for _ in range(k)]
    # the n + 1 highest priorities so far: (priority, weight, index, deal, kitty)
    top_q, top_w = np.empty(0), np.empty(0)
    top_i = np.empty(0, dtype=np.int64)
    top_d, top_k = np.empty((0, 4), dtype=np.uint64), np.empty(0, dtype=np.uint64)
    tried = 0
    step = _first_step(n)
    done = False
    while not done and tried < cap:
        size = min(block, cap - tried, step)
        step *= 4
        d, kit = deal_for_rules(size, int(seed), rules, start=tried, fixed=fixed, redeal_weak=True, seats=others)
        heard = np.broadcast_to(ranks, (size, k))
        p = np.empty((size, k))
        top = np.empty((size, k), dtype=np.int64)
        for i in range(k):
            s = bidder(dealer, i)
            pr = ask_probs(policy, d[:, s], np.ascontiguousarray(heard[:, :i]), s, dealer, scores, seat, rules)
            p[:, i] = pr[:, int(ranks[i]) + 1]
            top[:, i] = np.argmax(pr, axis=1) - 1
        w = np.prod(p, axis=1) if k else np.ones(size)
        c1, c2 = _running(s1, w), _running(s2, w * w)
        ess = np.divide(c1 * c1, c2, out=np.zeros(size), where=c2 > 0)
        # (equal weights reach the floor at n candidates, whatever their rounding)
        stop = np.nonzero((ess >= ess_floor * (1 - ESS_ROUNDING)) & (tried + np.arange(1, size + 1) >= n))[0]
        m = int(stop[0]) + 1 if stop.size else size
        done = bool(stop.size)
        w, p, top, d, kit = w[:m], p[:m], top[:m], d[:m], kit[:m]
        s1, s2 = float(c1[m - 1]), float(c2[m - 1])
        reach = np.ones(m)
        for i in range(k):
            before[i] = _running(before[i], reach)[-1]
            reach = reach * p[:, i]
            after[i] = _running(after[i], reach)[-1]
            hit = top[:, i] == ranks[i]
            likeliest[i] += int(hit.sum())
            for r, c in zip(*np.unique(top[~hit, i], return_counts=True)):
                key = call_text(None if r == PASS else lad.bids[r])
                instead[i][key] = instead[i].get(key, 0) + int(c)
        index = tried + np.arange(m, dtype=np.int64)
        q = w / priority_uniforms(seed, index)
        top_q, top_w = np.concatenate([top_q, q]), np.concatenate([top_w, w])
        top_i = np.concatenate([top_i, index])
        top_d, top_k = np.concatenate([top_d, d]), np.concatenate([top_k, kit])
        order = np.lexsort((top_i, -top_q))[: n + 1]
        top_q, top_w, top_i, top_d, top_k = top_q[order], top_w[order], top_i[order], top_d[order], top_k[order]
        tried += m
    if not s1 > 0:
        raise AuctionTooRare(f"the calls heard ({' '.join(call_text(c) for c in calls)}) are impossible under the "
                             f"{name} bidding model: it gives them probability 0 on all {tried:,} candidate deals")
    back = np.argsort(top_i)  # priority_sample wants the items in index order
    keep, weights = _thin(top_q[back], top_w[back], n)
    deals, kitties = top_d[back][keep], top_k[back][keep]
    steps = tuple(CallStep(bidder(dealer, i), call_text(calls[i]), tried, int(likeliest[i]),
                           dict(sorted(instead[i].items(), key=lambda x: -x[1])),
                           float(after[i] / before[i]) if before[i] > 0 else float("nan"))
                  for i in range(k))
    return ConditionedDeals(np.ascontiguousarray(deals), np.ascontiguousarray(kitties), tuple(calls), dealer,
                            int(seat), name, (int(scores[0]), int(scores[1])), int(seed), n, tried, cap, steps,
                            "weights", np.ascontiguousarray(weights, dtype=np.float64), s1 / tried,
                            s1 * s1 / s2, ess_floor)


def rarest_step(cd: ConditionedDeals) -> CallStep | None:
    """The heard call the model makes least often with the hands that reach it."""
    steps = [s for s in cd.steps if s.tried]
    return min(steps, key=lambda s: s.rate) if steps else None


def too_rare_message(cd: ConditionedDeals, floor: int) -> str:
    """Why the calls are too rare: the rarest call, how often the model makes
    it, what it calls instead, and what to try."""
    s = rarest_step(cd)
    where = ""
    if s is not None:
        before = cd.calls[: cd.steps.index(s)]
        after = f" after {' '.join(call_text(c) for c in before)}" if before else " as the first call"
        inst = ", ".join(f"{c} {100 * v / max(s.tried - s.kept, 1):.0f}%" for c, v in list(s.instead.items())[:3])
        where = (f"; the rarest is {Seat(s.seat).name}'s {s.call}{after}: the {cd.bidders} model makes it with "
                 f"{s.kept:,} of the {s.tried:,} hands it was asked about ({100 * s.rate:.3g}%)"
                 + (f" and calls {inst} instead" if inst else ""))
    return (f"the calls heard ({cd.calls_text}) are too rare under the {cd.bidders} bidding model: "
            f"{cd.kept:,} of {cd.candidates:,} candidate deals are consistent with them, fewer than the "
            f"{floor:,} needed{where}.  Use --conditioning weights (the default: every deal weighted by the "
            f"model's probability of the calls, so every legal auction gets an answer), or --max-candidates "
            f"above {cd.max_candidates:,}")


def what_the_calls_told(cd: ConditionedDeals, rules: Rules) -> dict:
    """For each seat that spoke: its mean Kaiser count (:func:`kaiser_sim.hands.strength`:
    the count with the trump the rule names from its hand) and where the 5H and 3S lie, on the kept deals
    (weighted by their importance weights, :meth:`ConditionedDeals.mean`) and on the
    first deals of the unconditioned stream (as many), for the one-line
    summary of what the calls told."""
    from ..cards import FIVE_HEARTS_BIT, THREE_SPADES_BIT
    from ..deal import deal_for_rules
    from ..hands import strength

    base, _ = deal_for_rules(cd.kept, cd.seed, rules, fixed={cd.seat: int(cd.deals[0, cd.seat])}, redeal_weak=True,
                             seats=[s for s in range(4) if s != cd.seat]) if cd.kept else (cd.deals, None)
    out = {}
    for i in range(len(cd.calls)):
        s = bidder(cd.dealer, i)
        if s in out:
            continue
        out[s] = {
            "call": call_text(cd.calls[i]),
            "count": float(cd.mean(strength(cd.deals[:, s]))),
            "count_unconditioned": float(strength(base[:, s]).mean()),
            "p_5h": float(cd.mean((cd.deals[:, s] & FIVE_HEARTS_BIT) != 0)),
            "p_5h_unconditioned": float(((base[:, s] & FIVE_HEARTS_BIT) != 0).mean()),
            "p_3s": float(cd.mean((cd.deals[:, s] & THREE_SPADES_BIT) != 0)),
            "p_3s_unconditioned": float(((base[:, s] & THREE_SPADES_BIT) != 0).mean()),
        }
    return out


__all__ = ["AuctionInputError", "AuctionTooRare", "CallStep", "ConditionedDeals", "METHODS", "ask_calls", "ask_probs",
           "priority_sample", "priority_uniforms",
           "conditioned_deals", "dealer_of", "heard_auction", "parse_calls", "rarest_step", "too_rare_message",
           "what_the_calls_told"]

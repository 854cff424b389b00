"""Deals consistent with the calls heard: the unseen cards, dealt so that
every seat that spoke would have made its call under a bidding model.

Kaiser is bid once around, and every call after the first is made knowing
the calls before it.  A player who has heard ``6, pass, 7`` holds the same
8 cards as one who heard nothing, but the other 24 are no longer dealt
uniformly: the player on the left had a hand that bids 6, partner one that
passes over it, and so on.  :func:`conditioned_deals` draws those deals.

Method: rejection from the seeded deal stream
---------------------------------------------
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
    """One heard call as a filter: ``tried`` candidates were asked it (those
    that fit every call asked before it: the calls are asked rarest first,
    as observed, since a seat's call depends only on its own hand and the
    calls heard), ``kept`` of them had the model make it; ``instead``: what
    the model called with the others, ``{call: count}``."""

    seat: int
    call: str
    tried: int
    kept: int
    instead: dict

    @property
    def rate(self) -> float:
        return self.kept / self.tried if self.tried else float("nan")


@dataclass(frozen=True, eq=False)
class ConditionedDeals:
    """Deals consistent with the calls heard (module doc).

    deals : (kept, 4) uint64; kitties : (kept,) uint64 (0 without a kitty).
    calls : the calls heard, from the dealer's left; dealer, seat.
    bidders : the bidding model's name; scores : (ours, theirs) of ``seat``'s side.
    requested : the deals asked for; candidates : the candidates tried (the
        stream up to the last kept deal, or every candidate tried when short).
    steps : one :class:`CallStep` per heard call, over those candidates.
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

    @property
    def kept(self) -> int:
        return int(self.deals.shape[0])

    @property
    def acceptance(self) -> float:
        return self.kept / self.candidates if self.candidates else float("nan")

    @property
    def short(self) -> bool:
        """Fewer deals than asked for: the candidates ran out."""
        return self.kept < self.requested

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


def conditioned_deals(hand: int, seat: int, calls, n: int, seed: int, rules: Rules, bidders="ev",
                      scores=(0, 0), *, play: str = "table", max_candidates: int | None = None,
                      min_deals: int | None = None, block: int | None = None) -> ConditionedDeals:
    """``n`` deals in which ``seat`` holds ``hand`` and every seat that spoke
    before it would have made its call (``calls``, from the dealer's left)
    under the bidding model ``bidders`` (a policy name or a
    :class:`~kaiser_sim.strategy.policies.Policy`; its make-probabilities model
    ``play``), with ``scores`` (ours, theirs) before the hand: see the module
    doc.  :class:`AuctionInputError` for illegal calls,
    :class:`AuctionTooRare` when too few deals are kept."""
    from ..dd.rule_variants import deal_for_rules
    from .policies import PASS, get_policy, ladder_arrays

    dealer, calls = heard_auction(rules, seat, calls)
    policy = get_policy(bidders, play)
    name = getattr(policy, "name", str(bidders))
    n = int(n)
    cap = int(config.AUCTION_MAX_CANDIDATES if max_candidates is None else max_candidates)
    floor = min(n, int(config.AUCTION_MIN_DEALS if min_deals is None else min_deals))
    block = int(config.AUCTION_BLOCK if block is None else block)
    if n < 1 or cap < 1 or block < 1:
        raise AuctionInputError("the deals, the candidates and the block must be at least 1")
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
    while got < n and tried < cap:
        size = min(block, cap - tried)
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
            f"{floor:,} needed{where}.  Try another --bidders model, or --max-candidates above "
            f"{cd.max_candidates:,}")


def what_the_calls_told(cd: ConditionedDeals, rules: Rules) -> dict:
    """For each seat that spoke: its mean Kaiser count (:func:`kaiser_sim.hands.strength`:
    the count with the trump the rule names from its hand) and where the 5H and 3S lie, on the kept deals and on the
    first deals of the unconditioned stream (as many), for the one-line
    summary of what the calls told."""
    from ..cards import FIVE_HEARTS_BIT, THREE_SPADES_BIT
    from ..dd.rule_variants import deal_for_rules
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
            "count": float(strength(cd.deals[:, s]).mean()),
            "count_unconditioned": float(strength(base[:, s]).mean()),
            "p_5h": float(((cd.deals[:, s] & FIVE_HEARTS_BIT) != 0).mean()),
            "p_5h_unconditioned": float(((base[:, s] & FIVE_HEARTS_BIT) != 0).mean()),
            "p_3s": float(((cd.deals[:, s] & THREE_SPADES_BIT) != 0).mean()),
            "p_3s_unconditioned": float(((base[:, s] & THREE_SPADES_BIT) != 0).mean()),
        }
    return out


__all__ = ["AuctionInputError", "AuctionTooRare", "CallStep", "ConditionedDeals", "ask_calls",
           "conditioned_deals", "dealer_of", "heard_auction", "parse_calls", "rarest_step", "too_rare_message",
           "what_the_calls_told"]

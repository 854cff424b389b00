"""Bids, the bid ladder of a rules set, and auction legality.

Kaiser has one round of bidding: starting left of the dealer, each player
bids once or passes; the dealer speaks last.  A bid must beat the highest
bid so far, except that the dealer may *match* it (rules ``dealer_match``)
and so take the contract at that bid.  If the first three pass, the dealer
must bid (``forced_dealer_bid``), at least the minimum; otherwise the hand
is thrown in.

The ladder (the order of bids) depends on the rules: ``min_bid``,
``nt_min``, ``nt_order`` and ``low_nt == "bid"`` (low no trump as its own
bid, just above high no trump of the same number).

A call is a :class:`Bid` or ``None`` (pass).  Calls are listed in the order
they were made, starting with the player left of the dealer.

Example
-------
>>> from kaiser_sim.rules import Rules
>>> r = Rules()
>>> [call_text(c) for c in legal_calls(r, dealer=3, calls=["7", "pass", "8NT"])][:4]
['pass', '8NT', '9', '9NT']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import KaiserSimError
from .cards import Seat, Strain
from .rules import MAX_BID, Rules


class AuctionError(KaiserSimError):
    """An illegal or unreadable call; the message names the call and why."""


@dataclass(frozen=True)
class Bid:
    """A bid: a number of points, plain (trump named after the auction) or
    no trump; ``low`` marks low (reversed-rank) no trump as its own bid."""

    level: int
    nt: bool = False
    low: bool = False

    def __post_init__(self):
        if self.low and not self.nt:
            raise AuctionError("only a no-trump bid can be low")

    def __str__(self) -> str:
        return f"{self.level}{'NT' if self.nt else ''}{'-low' if self.low else ''}"

    @property
    def is_kaiser(self) -> bool:
        """12 no trump, the top bid (high or low)."""
        return self.level == MAX_BID and self.nt

    @classmethod
    def parse(cls, text: str) -> Bid | None:
        """``"7"``, ``"7NT"`` (also ``7N``, ``7 no``, ``7nt``), ``"7NT-low"``
        (also ``7NTL``, ``7 low``); ``"pass"`` / ``"p"`` / ``"-"`` give None."""
        t = text.strip().lower()
        if t in ("pass", "p", "-", "passe", ""):
            return None
        m = _BID_RE.match(t)
        if not m:
            raise AuctionError(f"cannot read the bid '{text}' (write 7, 7NT, 7NT-low or pass)")
        level = int(m.group(1))
        nt = bool(m.group(2)) or bool(m.group(3))
        low = bool(m.group(3))
        return cls(level, nt, low)


_BID_RE = re.compile(r"^(\d{1,2})\s*(?:(nt|n|no\s*trumps?|no)?\s*-?\s*(low|l)?)$")

#: a call that is not a bid, as :class:`Bid` | None calls hold it (None).  Not the policies' rank code
#: for a pass in arrays, :data:`kaiser_sim.strategy.policies.PASS` (-1)
PASS_CALL = None


def call_text(call: Bid | None) -> str:
    """``"pass"`` or the bid's text."""
    return "pass" if call is None else str(call)


def as_call(call) -> Bid | None:
    """A call from a :class:`Bid`, None or a string."""
    if call is None or isinstance(call, Bid):
        return call
    if isinstance(call, str):
        return Bid.parse(call)
    raise AuctionError(f"cannot read the call {call!r}")


# --- the ladder -------------------------------------------------------------------------


def ladder(rules: Rules) -> list[Bid]:
    """Every bid of ``rules``, lowest first.

    ``same-number``: 6 < 6NT < 7 < 7NT ... < 12 < 12NT (NT only from
    ``nt_min``); ``above-suits``: every plain bid, then every NT bid.  With
    ``low_nt == "bid"`` low NT sits just above high NT of the same number.
    """
    levels = range(rules.min_bid, MAX_BID + 1)
    low = rules.low_nt == "bid"

    def nts(level):
        if level < rules.nt_min_bid:
            return []
        return [Bid(level, True)] + ([Bid(level, True, True)] if low else [])

    if rules.nt_order == "same-number":
        out = []
        for level in levels:
            out.append(Bid(level))
            out.extend(nts(level))
        return out
    return [Bid(level) for level in levels] + [b for level in levels for b in nts(level)]


def bid_rank(rules: Rules, bid: Bid) -> int:
    """Position of ``bid`` on the ladder (0 = lowest); AuctionError if the
    rules do not allow that bid."""
    lad = ladder(rules)
    try:
        return lad.index(bid)
    except ValueError:
        raise AuctionError(f"{bid} is not a bid under these rules ({_ladder_text(lad)})") from None


def _ladder_text(lad: list[Bid]) -> str:
    return f"bids {lad[0]} .. {lad[-1]}" if lad else "no bids"


# --- auctions -------------------------------------------------------------------------


def bidder(dealer: int, ncalls: int) -> int:
    """The seat making call number ``ncalls`` (0 = left of the dealer)."""
    return (int(dealer) + 1 + ncalls) % 4


def _highest(rules: Rules, calls: Sequence[Bid | None], dealer: int):
    """(rank, bid, seat) of the highest bid so far (the dealer's match wins
    the tie: it comes later), or (-1, None, None)."""
    best = (-1, None, None)
    for i, c in enumerate(calls):
        if c is not None:
            r = bid_rank(rules, c)
            if r >= best[0]:
                best = (r, c, bidder(dealer, i))
    return best


def legal_calls(rules: Rules, dealer: int, calls: Sequence) -> list[Bid | None]:
    """The legal next calls: ``None`` (pass) first if passing is allowed, then
    the legal bids lowest first.  Empty once all four have spoken.

    Raises :class:`AuctionError` if ``calls`` is itself illegal.
    """
    dealer = seat_of(dealer)
    calls = [as_call(c) for c in calls]
    check_auction(rules, dealer, calls)
    return _legal_after(rules, dealer, calls)


def _legal_after(rules: Rules, dealer: int, calls: list[Bid | None]) -> list[Bid | None]:
    n = len(calls)
    if n >= 4:
        return []
    lad = ladder(rules)
    rank, _, _ = _highest(rules, calls, dealer)
    is_dealer = n == 3
    if is_dealer and rank >= 0 and rules.dealer_match:
        bids = lad[rank:]
    else:
        bids = lad[rank + 1 :]
    must_bid = is_dealer and rank < 0 and rules.forced_dealer_bid
    return ([] if must_bid else [None]) + bids


def is_legal(rules: Rules, dealer: int, calls: Sequence, call) -> bool:
    """Is ``call`` a legal next call after ``calls``?"""
    return as_call(call) in legal_calls(rules, dealer, calls)


def check_auction(rules: Rules, dealer: int, calls: Sequence) -> None:
    """Raise :class:`AuctionError` naming the first illegal call, if any."""
    dealer = seat_of(dealer)
    calls = [as_call(c) for c in calls]
    if len(calls) > 4:
        raise AuctionError(f"{len(calls)} calls: each player speaks once, 4 calls at most")
    for i, c in enumerate(calls):
        legal = _legal_after(rules, dealer, calls[:i])
        if c not in legal:
            seat = Seat(bidder(dealer, i)).name
            raise AuctionError(f"call {i + 1} by {seat} ({call_text(c)}) is illegal: "
                               + _why(rules, dealer, calls[:i], c, legal))


def _why(rules, dealer, before, c, legal) -> str:
    if c is None:
        return f"the dealer must bid at least {rules.min_bid} when the others pass"
    lad = ladder(rules)
    if c not in lad:
        if c.nt and c.level < rules.nt_min_bid:
            return f"no-trump bids start at {rules.nt_min_bid}"
        if c.low:
            return "low no trump is not a bid of its own under these rules"
        return f"bids run from {lad[0]} to {lad[-1]}"
    _, top, _ = _highest(rules, before, dealer)
    if top == c and len(before) == 3:
        return "the dealer may not match under these rules (dealer_match=false)"
    if top == c:
        return f"only the dealer may match {top}"
    return f"it does not beat {top}"


@dataclass(frozen=True)
class Contract:
    """The outcome of an auction: the bid, the declarer (who leads first) and,
    once named, the strain (a suit, or NT; None while unnamed).  ``low``:
    the contract is played low (reversed ranks)."""

    bid: Bid
    declarer: int
    strain: int | None = None
    low: bool = False

    @property
    def side(self) -> int:
        """0 for N-S, 1 for E-W."""
        return int(self.declarer) & 1

    def __str__(self) -> str:
        s = "" if self.strain is None or self.bid.nt else f" {Strain(self.strain).name}"
        if self.strain == Strain.N and not self.bid.nt:
            s = " played NT"
        low = " low" if self.low and not self.bid.low else ""
        return f"{self.bid}{s}{low} by {Seat(self.declarer).name}"


def auction_result(rules: Rules, dealer: int, calls: Sequence) -> Contract | None:
    """The contract after four calls (the highest bid; a dealer's match takes
    it), or None if the hand is thrown in (all pass, no forced bid)."""
    dealer = seat_of(dealer)
    calls = [as_call(c) for c in calls]
    check_auction(rules, dealer, calls)
    if len(calls) != 4:
        raise AuctionError(f"the auction is not over: {len(calls)} of 4 calls made")
    _, top, seat = _highest(rules, calls, dealer)
    if top is None:
        return None
    return Contract(top, seat, Strain.N if top.nt else None, top.low)


def strain_choices(rules: Rules, bid: Bid) -> list[tuple[int, bool]]:
    """The ``(strain, low)`` pairs the declarer of ``bid`` may name.

    A plain bid names a trump suit (and no trump too with
    ``plain_bid_nt``); an NT bid is played high, or also low with
    ``low_nt == "choice"``; a low NT bid is played low.
    """
    if not bid.nt:
        out = [(int(s), False) for s in (Strain.S, Strain.H, Strain.D, Strain.C)]
        if rules.plain_bid_nt:
            out.append((int(Strain.N), False))
        return out
    if bid.low:
        return [(int(Strain.N), True)]
    if rules.low_nt == "choice":
        return [(int(Strain.N), False), (int(Strain.N), True)]
    return [(int(Strain.N), False)]


def make_contract(rules: Rules, bid, declarer: int, strain: int | None = None, low: bool = False) -> Contract:
    """A contract, checked against the rules (the bid on the ladder, the
    strain one the declarer may name)."""
    bid = as_call(bid)
    if bid is None:
        raise AuctionError("a contract needs a bid, not a pass")
    bid_rank(rules, bid)
    declarer = seat_of(declarer)
    if bid.nt and strain is None:
        strain = int(Strain.N)
    if bid.low:
        low = True
    if strain is not None and (int(strain), bool(low)) not in strain_choices(rules, bid):
        what = "low " if low else ""
        raise AuctionError(f"the declarer of {bid} cannot play {what}{Strain(strain).name} under these rules")
    return Contract(bid, declarer, strain, bool(low))


def seat_of(seat) -> int:
    """A seat number from a Seat, an int or a letter ``"N"``."""
    if isinstance(seat, str):
        try:
            return int(Seat[seat.strip().upper()])
        except KeyError:
            raise AuctionError(f"unknown seat '{seat}' (use N, E, S or W)") from None
    s = int(seat)
    if not 0 <= s <= 3:
        raise AuctionError(f"seat {seat} is not 0..3")
    return s

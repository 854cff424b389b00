"""The hand advisor's input: the hand, the seat, the rules and the auction, read and checked
(:func:`read_hand`, :func:`check_rules`, :func:`auction_context`, :func:`heard_context`), the
deals of the other hands (:func:`advisor_deals`) and the advisor's vocabulary (strain keys, deal counts).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...errors import KaiserSimError
from ... import config
from ...auction import AuctionError, Bid, bid_rank, legal_calls
from ...cards import ALL_STRAIN_KEYS, STRAIN_KEYS, NotationError, Seat, Strain, format_hand, parse_hand, popcount  # noqa: F401 (keys re-exported)
from ...rules import Rules
from ..measure import MEASURES


#: the measures the choices can be made on: table play (the model) or double dummy
PLAY_CHOICES = MEASURES

STRAIN_NAMES = {s.name: s.noun for s in Strain}
STRAIN_SHORT = {s.name: s.label for s in Strain}
#: the column of low no trump in the values (rules ``low_nt``)
LOW = 5
#: deals solved by default: the standard game, and rules with a kitty (each value is a search over
#: the declarer's discards, a Python loop: kaiser-sim hand -n 2000 took 63 s with kitty-4 and 32 s
#: with kitty-34 on the 2-core machine, against 4.6 s without a kitty; -n 500: 20 s and 8 s)
DEFAULT_DEALS = config.HAND_ADVISOR_DEALS
KITTY_DEALS = config.HAND_ADVISOR_KITTY_DEALS


def keys_of(values) -> tuple[str, ...]:
    """The strain keys of a values array's columns: S H D C N, and L when it has a sixth."""
    return ALL_STRAIN_KEYS[: np.asarray(values).shape[1]]

#: holders of a special card, as seen from the hand's seat
HOLDERS = ("declarer", "partner", "opponents")


class AdvisorInputError(KaiserSimError):
    """A hand, seat, bid or rules set the advisor cannot work with; the
    message names the problem.  Exit status 2 on the command line."""


# --- input -----------------------------------------------------------------------------


def check_rules(rules: Rules) -> None:
    """Every rules set is advised on (the capability table,
    :mod:`kaiser_sim.strategy.capabilities`; :func:`rules_notes` says how the
    variants are modelled and what is approximate); a value that is not a
    Rules is refused."""
    from ..capabilities import check

    if not isinstance(rules, Rules):
        raise AdvisorInputError(f"rules must be a kaiser_sim.rules.Rules, not {type(rules).__name__}")
    check("hand", rules, AdvisorInputError)


def rules_notes(rules: Rules, hand: int | None = None, n: int = 0) -> list[str]:
    """How the advice treats the rules' variants (the notes of the report)."""
    notes = []
    if rules.kitty != "none":
        notes.append(
            f"Kitty ({rules.kitty}): your {rules.hand_size} cards are the hand as dealt; the other hands and the "
            f"{rules.kitty_size}-card kitty are dealt at random, and each value is for your side when you take the "
            f"kitty and discard the best {rules.kitty_size} cards (chosen double dummy, every hand seen" + (
                ""  if rules.may_discard_specials else "; the 5H and 3S may not be discarded")
            + ").  A value is a search over the discards, so the advisor solves "
            f"{KITTY_DEALS:,} deals by default with a kitty (--deals to change it; about 30 ms a deal with the "
            "4-card kitty, 15 ms with the 2-card one, against 2 ms without).  In table play the declarer "
            "discards without seeing the other hands (PIMC: the discard with the best mean double-dummy value "
            "over sampled layouts).")
    if rules.low_nt == "bid":
        notes.append("Low no trump is its own bid (7NT-low, just above 7NT) and column (LNT): the ranks reversed, "
                     "the lowest card of the led suit wins" + ("; the 5H and 3S stay the lowest of their suits"
                                                                 if rules.low_specials_lowest else "") + ".")
    elif rules.low_nt == "choice":
        notes.append("Low no trump (LNT): an NT declarer may play the contract low; the advice plays every NT bid "
                     "high or low, whichever has the higher mean points on the selection deals.")
    if rules.cover3:
        notes.append("Cover 3: a side with fewer than 3 tricks scores its tricks only (-3 with the 3S).  The solver "
                     "plays for the standard count, so each deal is also solved in tricks: your side covers when "
                     "it can take 3 tricks double dummy, and its points are scored with cover 3 from the two "
                     "values.  Exact for every failed bid and for a made bid of 8 or more; a bid of 6 or 7 made "
                     "on the points line with 1 or 2 tricks and the 5H is counted made when your side could "
                     "take 3 tricks on another line.  The 5H/3S worth ignores cover 3.")
    if rules.kaiser_outright == "solo":
        notes.append("Solo Kaiser: 12NT is played by the bidder alone against three, which the double-dummy "
                     "solver (two partnerships) does not play: 12NT is left out of the bids.")
    if rules.pass_cards:
        notes.append(f"Passing cards ({rules.pass_cards} a partner) is not modelled: give the hand you hold after "
                     "the pass; the other hands are dealt at random as if no cards had been passed.")
    if rules.weak_redeal != "off":
        what = "no A, K, Q, J, 5H or 3S" + (", or all four 10s, 9s or 8s" if rules.weak_redeal == "weak+quads"
                                              else "")
        if hand is not None and _weak(rules, hand):
            notes.insert(0, f"This hand may demand a redeal under these rules (weak_redeal={rules.weak_redeal}: "
                            f"{what}); the advice below is for playing it anyway.")
        notes.append(f"Weak-hand redeal (weak_redeal={rules.weak_redeal}): a deal in which another player's hand "
                     f"has {what} is redealt (the player is taken to demand it), so the other hands are never weak.")
    return notes


def _weak(rules: Rules, hand: int) -> bool:
    from ...deal import weak_hands

    return bool(weak_hands(rules, np.array([[hand, 0, 0, 0]], dtype=np.uint64))[0, 0]) and popcount(hand) > 0


def read_hand(hand, rules: Rules) -> int:
    """The hand as a bitboard, from notation (``AKQ9.5.AK.7`` or ``AS KS 5H ...``)
    or a mask; :class:`AdvisorInputError` for a card twice, an unknown card
    or the wrong number of cards."""
    if isinstance(hand, str):
        try:
            mask = int(parse_hand(hand, deck34=rules.deck34, who="the hand"))
        except NotationError as e:
            raise AdvisorInputError(f"invalid hand: {e}") from None
    else:
        mask = int(hand)
    size = popcount(mask)
    if size != rules.hand_size:
        raise AdvisorInputError(
            f"the hand has {size} card{'s' if size != 1 else ''} ({format_hand(mask)}); "
            f"a Kaiser hand has {rules.hand_size}"
        )
    return mask


def _seat(value, what: str) -> int:
    if isinstance(value, str):
        key = value.strip().upper()
        if key not in Seat.__members__:
            raise AdvisorInputError(f"unknown {what} '{value}' (use N, E, S or W)")
        return int(Seat[key])
    s = int(value)
    if not 0 <= s <= 3:
        raise AdvisorInputError(f"{what} {value} is not 0..3")
    return s


def advisor_deals(hand: int, seat: int, n: int, seed: int, rules: Rules, *, kitties: bool = False):
    """The ``n`` deals the advisor solves: ``deal_batch(n, seed, fixed={seat:
    hand})``, so the same deals as ``kaiser-sim simulate --fix SEAT=HAND``
    with the same seed.  Under rules with the weak-hand redeal a deal in
    which another seat's hand is weak is redealt
    (:func:`kaiser_sim.deal.deal_for_rules`; this hand is not checked).
    ``kitties``: return ``(deals, kitties)`` (the cards no hand holds)."""
    from ...deal import deal_for_rules

    others = [s for s in range(4) if s != int(seat)]
    deals, kits = deal_for_rules(int(n), int(seed), rules, fixed={int(seat): int(hand)}, redeal_weak=True,
                                 seats=others)
    return (deals, kits) if kitties else deals


# --- the auction ------------------------------------------------------------------------


@dataclass(frozen=True)
class AuctionContext:
    """Where this seat stands in the auction.

    ``calls``: a stand-in for the calls before this seat (the current bid
    first, the rest passes) -- only the highest bid matters for what may
    follow.  ``legal``: the legal calls now (None = pass), per
    :func:`kaiser_sim.auction.legal_calls`.
    """

    seat: int
    dealer: int
    current: Bid | None
    calls: tuple
    legal: tuple

    @property
    def is_dealer(self) -> bool:
        return self.seat == self.dealer

    @property
    def legal_texts(self) -> list[str]:
        """The legal calls as text (``"pass"``, ``"8"``, ``"8NT"``)."""
        return ["pass" if c is None else str(c) for c in self.legal]

    @property
    def forced(self) -> bool:
        """The others passed and this dealer must bid."""
        return None not in self.legal


def auction_context(rules: Rules, seat, dealer=None, current_bid=None) -> AuctionContext:
    """The legal calls of ``seat`` when ``dealer`` deals and ``current_bid``
    is the highest bid so far (None: every earlier player passed).

    ``dealer`` defaults to the seat on ``seat``'s right: this seat speaks
    first.  :class:`AdvisorInputError` for an unreadable bid, a bid the rules
    do not have, or a bid before the first speaker.
    """
    seat = _seat(seat, "seat")
    dealer = (seat + 3) % 4 if dealer is None else _seat(dealer, "dealer")
    try:
        bid = current_bid if isinstance(current_bid, Bid) or current_bid is None else Bid.parse(str(current_bid))
        if bid is not None and bid.nt and bid.level < rules.nt_min_bid:
            raise AuctionError(f"{bid} is not a bid under these rules: no-trump bids start at {rules.nt_min_bid}")
        if bid is not None:
            bid_rank(rules, bid)
    except AuctionError as e:
        raise AdvisorInputError(f"impossible --current-bid: {e}") from None
    before = (seat - dealer - 1) % 4  # calls made before this seat speaks
    if bid is not None and before == 0:
        raise AdvisorInputError(
            f"impossible --current-bid {bid}: {Seat(seat).name} speaks first when {Seat(dealer).name} deals, "
            "so no bid can stand yet"
        )
    calls = ((bid,) + (None,) * (before - 1)) if bid is not None else (None,) * before
    try:
        legal = legal_calls(rules, dealer, list(calls))
    except AuctionError as e:  # not expected: the stand-in auction is legal
        raise AdvisorInputError(f"impossible --current-bid: {e}") from None
    return AuctionContext(seat, dealer, bid, calls, tuple(legal))


@dataclass(frozen=True)
class AuctionInfo:
    """The calls the advice heard and how its deals were dealt.

    heard : the calls are real (``--auction``: the deals are consistent with
        them, :mod:`kaiser_sim.strategy.conditioned`); False for the first seat with
        no calls, or a ``--current-bid`` stand-in (deals not conditioned).
    calls : the calls heard, from the dealer's left (text), as given.
    bidders : the bidding model of the other players (a policy name).
    requested, kept, candidates : deals asked for, kept, candidates tried.
    short : fewer deals kept than asked for (the candidates ran out).
    told : ``{seat: {...}}`` what each speaking seat's call told
        (:func:`kaiser_sim.strategy.conditioned.what_the_calls_told`).
    scores : (ours, theirs) before the hand, or None (not given).
    ess : the effective sample size of the deals' importance weights
        (``(sum w)^2 / sum w^2``), or None: no weights (every deal counts
        once; the effective size is ``kept``).
    conditioning : how the deals were conditioned
        (:meth:`kaiser_sim.strategy.conditioned.ConditionedDeals.summary`: the
        method, candidates, effective sample sizes, acceptance), or None.
    description : the same in one sentence
        (:meth:`~kaiser_sim.strategy.conditioned.ConditionedDeals.describe`), or None.
    """

    heard: bool
    calls: tuple
    bidders: str
    requested: int
    kept: int
    candidates: int
    short: bool = False
    told: dict = field(default_factory=dict)
    scores: tuple | None = None
    ess: float | None = None
    conditioning: dict | None = None
    description: str | None = None

    @property
    def acceptance(self) -> float:
        """Kept / candidates under rejection; under importance weights the
        mean weight of the candidates (the estimated chance of the calls
        heard with this hand), as the conditioning reported it."""
        if self.conditioning is not None and "acceptance" in self.conditioning:
            return float(self.conditioning["acceptance"])
        return self.kept / self.candidates if self.candidates else float("nan")


def heard_context(rules: Rules, seat, calls, dealer=None) -> AuctionContext:
    """The :class:`AuctionContext` of ``seat`` after the calls it heard
    (``calls``: text such as ``"6 pass 7"``, or a sequence; from the
    dealer's left): the dealer follows from the seat and the number of
    calls (a ``dealer`` that disagrees is refused), the current bid is the
    highest so far.  A bad seat or dealer is :class:`AdvisorInputError`; an
    illegal sequence is :class:`~kaiser_sim.strategy.conditioned.AuctionInputError`,
    as :func:`~kaiser_sim.strategy.conditioned.heard_auction` raises it,
    naming the rule it breaks."""
    from ..conditioned import heard_auction

    seat = _seat(seat, "seat")
    d = None if dealer is None else _seat(dealer, "dealer")
    d, heard = heard_auction(rules, seat, calls, d)
    bids = [c for c in heard if c is not None]
    current = max(bids, key=lambda b: bid_rank(rules, b)) if bids else None
    return AuctionContext(seat, d, current, tuple(heard), tuple(legal_calls(rules, d, list(heard))))

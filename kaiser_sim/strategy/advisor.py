"""The hand advisor: what one Kaiser hand is worth, bid by bid and strain by strain.

A player gives the 8 cards they hold and their seat.  :func:`advise` deals
the other 24 cards at random ``n`` times (:func:`advisor_deals`, the same
deals as ``deal_batch(n, seed, fixed={seat: hand})``), solves every deal
double dummy in all five strains with this hand on lead (in Kaiser the
declarer leads, so this seat declares and its side is the declaring side),
and turns the ``(n, 5)`` values into two measures side by side:

- **table play** (``play="table"``, the default): what the declaring side
  takes when nobody sees the other hands, from the table-play model
  (:mod:`kaiser_sim.table_play`: each deal's DD value ``v`` gives a
  distribution of table points; a deal's make probability of bid ``b`` is
  ``model.make_prob(v, nt, [b])``, its expected hand score
  ``model.expected_score(v, nt, score of the bid)``; an estimate is the mean
  of these per-deal values over the deals, with its iid 95% interval; each
  deal's distribution kept within the deal's bounds and the trump and NT
  corrected by PIMC play of some of the deals:
  :class:`~kaiser_sim.table_play.HandTablePlay`, :func:`played_check`);
- **double dummy** (DD): the solver's values themselves.

The choices (trump, call, limit, matching) are made on table play and the
DD values are shown beside every table-play number.  ``play="dd"`` makes
them on DD and leaves table play out (the advisor as it was, for
comparison).  Every rules set has its table-play model: the one built
for its game (a kitty, low no trump, cover 3: :func:`~kaiser_sim.table_play.model_for`),
its own PIMC play under those rules correcting it; only a model given by
the caller that was fitted on other rules, or cannot be read, makes the
advisor fall back to DD, saying why (:class:`PlayInfo`).  The numbers:

- per strain: P(the declaring side takes at least b points) for every bid
  level b (table play: mean of the per-deal probabilities, mean +- 1.96
  standard errors; DD: Wilson 95% intervals); the mean and spread of its
  points;
- one trump for the hand (:class:`TrumpChoice`): every plain bid is played
  in it, every NT bid in no trump (the declarer names trump without seeing
  the other hands, and names one suit whatever the level);
- per bid of the rules' ladder: the expected hand score (made: the raw
  points, NT doubled per ``nt_scoring``; failed: minus the bid, NT doubled
  per the rules; :func:`kaiser_sim.scoring.score_hands`) in that strain,
  and in every strain the bid may be played in (``by_strain``);
- the recommended call among the legal ones (:func:`auction_context`: the
  dealer, a bid already made, the forced dealer bid), the highest bid still
  worth making, and for a dealer facing ``current_bid`` whether to match;
- the 5H and 3S: where they are dealt, and what each is worth to the
  declaring side double dummy (:class:`Specials`, method below).

Rules variants
--------------
Every preset and option is advised on (:func:`rules_notes` writes how into
the notes): with a kitty the hand is the hand as dealt (7 cards, or 8 from
the 34-card deck), the other hands *and* the kitty are dealt at random and
each value is the declarer's after taking the kitty and discarding best
(:func:`kaiser_sim.dd.rule_variants.kitty_dd_value`; slow, so :data:`KITTY_DEALS`
deals by default); low no trump is a sixth column ``L`` and its bids are
played in it (with ``low_nt="choice"`` every NT bid is played in N or L,
:func:`choose_nt`); cover 3 is approximated from a second solve in tricks
(:func:`kaiser_sim.dd.rule_variants.cover3_points`); under the weak-hand redeal the
other hands are never weak (and a weak hand is told it may demand a
redeal); under the solo Kaiser 12NT is left out; passing cards is not
modelled (a note).  Table play applies under every rules set: each game
that plays differently (a kitty, low no trump, cover 3) has its own model
(:func:`kaiser_sim.table_play.model_for`), and the hand's own PIMC play is
under the rules.

One trump and one call, chosen on half the deals
-------------------------------------------------
Picking the best of several noisy means and reporting the winner's mean on
the same deals overstates it (the winner's curse), and picking a strain bid
by bid makes near ties look like answers.  So:

- **Selection deals**: the even rows 0, 2, 4, ... of the ``n`` deals.  On
  them the trump is the candidate suit (S H D C; no trump too with
  ``plain_bid_nt``) with the highest mean points of the declaring side in
  the measure the advice uses (table play: each deal's expected table
  points; DD: its DD points; exact ties: S H D C N order), and the
  runner-up the next one; then the call is the legal call with the best
  mean hand score (passing 0) with that trump, and its runner-up the best
  call in another strain or pass.
- **Clear**: a choice is clear when the 95% interval of the paired
  difference winner - runner-up on the selection deals lies above 0 (a call
  with no alternative is clear).
- **Reporting deals**: all ``n`` deals when both the trump and the call are
  clear (a choice the data make with near certainty is no selection);
  otherwise only the odd rows 1, 3, 5, ..., which played no part in the
  choices.  Every number that depends on a choice -- the bid table
  (``by_strain`` included), the recommendation and its comparison, matching,
  the 5H/3S worth -- is on the reporting deals
  (:attr:`TrumpChoice.n_report`).  The per-strain tables (make odds, mean
  points) and where the 5H and 3S are dealt involve no choice: all deals.
- **Ties**: the trump is a tie when the paired difference trump - runner-up
  on the reporting deals has a 95% interval reaching 0 (or lying below it);
  the call is a tie with its runner-up likewise
  (:attr:`Recommendation.tie`).  A tie is reported as a tie, with the
  difference and its interval, not as an answer.  Pass is the default: when
  no bid is clearly worth more than passing, the call is pass, the best bid
  its runner-up.

Everything is a pure function of (hand, seat, dealer, n, seed, rules,
current bid); :class:`HandAdvice` carries the results as DataFrames and
dataclasses, prints them (:meth:`HandAdvice.to_text`), serialises them
(:meth:`HandAdvice.to_dict`, schema :data:`SCHEMA`, documented in the
README) and draws them (:func:`plot_make_probability`).

The 5H and 3S
-------------
The solver returns values, not the play, so who *captures* the special
cards is not known; "points minus tricks" mixes two different optimal
lines and is not used.  Instead, on the strain of the recommendation (the
trump when it is to pass) and the reporting deals:

- ``worth_5h`` = DD points - DD points with the 5H counting 0.  Every line
  of play scores exactly 5 more with the 5H counted when the declaring
  side captures it and the same otherwise, so the difference lies in 0..5:
  5 means the declaring side gets the 5H against any defence, 0 that it
  cannot (or need not give anything for it).
- ``cost_3s`` = DD points with the 3S counting 0 - DD points; 0..3, 3 means
  the declaring side cannot avoid taking the 3S.

Example
-------
>>> from kaiser_sim.advisor import advise
>>> a = advise("AKQJ.A.AK.A", seat="N", n=50, seed=1)   # doctest: +SKIP
>>> print(a.to_text())                                    # doctest: +SKIP
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from ..errors import KaiserSimError
from .. import __version__, config
from ..auction import AuctionError, Bid, bid_rank, ladder, legal_calls, strain_choices
from ..cards import (
    FIVE_HEARTS_BIT,
    STRAINS,
    THREE_SPADES_BIT,
    NotationError,
    Seat,
    Strain,
    format_hand,
    parse_hand,
    popcount,
)
from ..dd import dd_contracts, dd_strains
from ..rules import MAX_BID, Rules, get_preset
from ..scoring import score_hands
from ..stats import MeanCI, mean_ci, wilson_interval

#: name and version of the JSON document written by :meth:`HandAdvice.to_dict` (2: every make
#: probability and expected score is ``{"table": ..., "dd": ...}``; the choices are on table play;
#: 3: schema 2 plus ``auction`` (the calls heard and how the deals were conditioned on them),
#: ``calls`` (each legal call's worth net of the opponents), ``verdict``, and the recommendation's
#: ``basis`` and ``value``)
SCHEMA = "kaiser-sim/hand-advice/3"

#: the measures the choices can be made on: table play (the model) or double dummy
PLAY_CHOICES = ("table", "dd")

#: strain keys, in the solver's column order (N is no trump)
STRAIN_KEYS = tuple(s.name for s in STRAINS)  # S H D C N
#: with the sixth column, low no trump (rules ``low_nt``), as in :func:`kaiser_sim.dd.rule_variants.strain_keys`
ALL_STRAIN_KEYS = tuple(s.name for s in Strain)  # and L, low no trump
STRAIN_NAMES = {s.name: s.noun for s in Strain}
_STRAIN_SHORT = {s.name: s.label for s in Strain}
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


# --- the solver call ---------------------------------------------------------------------


def _dd_strains(deals, leader: int, mode: str = "points", **special_bits) -> np.ndarray:
    """``(n, 5)`` int8: the five strains S H D C N with ``leader`` on lead
    (``dd.dd_strains``: a quarter of ``dd_table``'s work); ``special_bits``
    (``five=``, ``three=``) are passed through."""
    return np.asarray(dd_strains(deals, leader, mode, **special_bits))


# --- the two measures ------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayInfo:
    """Which measure the advice is made on.

    requested : ``"table"`` or ``"dd"`` (the ``play`` argument).
    used : the measure every choice is made on; ``"dd"`` when table play
        was requested but is not available.
    reason : why table play is not available (None when it is, or was not
        requested).
    model : :meth:`~kaiser_sim.table_play.TablePlayModel.describe` of the
        model used, else None; provenance : its provenance, else None.
    check : the PIMC play of a subsample of the deals that corrects the
        model for this hand (:meth:`~kaiser_sim.table_play.HandTablePlay.with_play`),
        else None.
    """

    requested: str
    used: str
    reason: str | None = None
    model: str | None = None
    provenance: dict | None = None
    #: the hand's own PIMC play that corrects the model (deals, samples, seed, strains), else None
    check: dict | None = None

    @property
    def table(self) -> bool:
        return self.used == "table"


def _is_table(model) -> bool:
    return model is not None


def _play_name(model) -> str:
    return "table" if _is_table(model) else "dd"


def table_play_for(play: str, rules: Rules, values: np.ndarray | None = None, model=None, deals=None, seat=None,
                   kitties=None):
    """``(PlayInfo, model or None)``: the table-play model to use, or None
    (DD) with the reason.  ``model``: a :class:`~kaiser_sim.table_play.TablePlayModel`
    (default the one shipped for ``rules``, :func:`~kaiser_sim.table_play.model_for`).
    With the ``deals`` behind ``values`` (and their ``kitties``) and the
    declarer's ``seat``, the model comes as the hand's
    :class:`~kaiser_sim.table_play.HandTablePlay` (its own play under
    ``rules``), each deal's distribution kept within its bounds
    (:func:`kaiser_sim.dd.play_bounds.strain_bounds`) in the standard count
    without a kitty (the bounds know neither the kitty nor cover 3).
    Falls back to DD, never raises, when a model given cannot be read or
    does not hold for ``rules``."""
    if play == "dd":
        return PlayInfo("dd", "dd"), None
    from .measure import measure_for

    measure = measure_for(rules, "table", model)
    if not measure.table:
        return PlayInfo("table", "dd", reason=measure.reason), None
    m, note = measure.model, measure.note
    if deals is not None and values is not None:
        from .table_play import HandTablePlay

        v = np.asarray(values)
        if v.shape[1] == len(STRAIN_KEYS) and rules.kitty == "none" and not rules.cover3:
            from ..dd.play_bounds import strain_bounds

            m = HandTablePlay(m, values, *strain_bounds(deals, int(seat)), rules=rules)
        else:
            m = HandTablePlay(m, values, rules=rules, kitties=kitties)
    text = m.describe() + (f" ({note})" if note else "")
    return PlayInfo("table", "table", None, text, dict(m.provenance)), m


def played_check(info: PlayInfo, tp, deals, seat: int, strains, seed: int, check: int | None = None):
    """``(info, tp)`` with the hand's table play corrected by PIMC play of
    ``check`` of its deals (default :data:`kaiser_sim.config.TABLE_PLAY_CHECK_DEALS`;
    0: none) in the strain columns ``strains``
    (:meth:`~kaiser_sim.table_play.HandTablePlay.with_play`, seeded by ``seed``).
    Unchanged without table play."""
    from .table_play import HandTablePlay

    check = config.TABLE_PLAY_CHECK_DEALS if check is None else int(check)
    if not isinstance(tp, HandTablePlay) or check <= 0:
        return info, tp
    tp = tp.with_play(deals, seat, strains, check, config.TABLE_PLAY_CHECK_SAMPLES, seed)
    return replace(info, model=tp.describe(), check=tp.check), tp


def point_values(values: np.ndarray, model=None) -> np.ndarray:
    """``(n, 5)`` float: each deal's points in each strain, in one measure:
    DD (``model`` None: the values) or table play (the model's expected
    table points given the DD value; column N is no trump)."""
    v = np.asarray(values, dtype=np.int64)
    if not _is_table(model):
        return v.astype(np.float64)
    from .table_play import hand_play

    hp = hand_play(model, v)
    return np.stack([hp.expected(s) for s in range(v.shape[1])], axis=1)


def _p_interval(per_deal: np.ndarray) -> tuple:
    """(p, lo, hi) of a table-play probability: the mean of the per-deal
    probabilities with its iid 95% interval, clipped to 0..1."""
    m = mean_ci(per_deal, axis=0)  # (a corrected per-deal value may leave 0..1: its mean is clipped too)
    return np.clip(m.mean, 0.0, 1.0), np.clip(m.lo, 0.0, 1.0), np.clip(m.hi, 0.0, 1.0)


# --- input -----------------------------------------------------------------------------


def check_rules(rules: Rules) -> None:
    """Every rules set is advised on (:func:`rules_notes` says how the
    variants are modelled and what is approximate); kept so that callers
    checking rules first still work."""
    if not isinstance(rules, Rules):
        raise AdvisorInputError(f"rules must be a kaiser_sim.rules.Rules, not {type(rules).__name__}")


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
    from ..dd.rule_variants import weak_hands

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
    (:func:`kaiser_sim.dd.rule_variants.deal_for_rules`; this hand is not checked).
    ``kitties``: return ``(deals, kitties)`` (the cards no hand holds)."""
    from ..dd.rule_variants import deal_for_rules

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
        them, :mod:`kaiser_sim.conditioned`); False for the first seat with
        no calls, or a ``--current-bid`` stand-in (deals not conditioned).
    calls : the calls heard, from the dealer's left (text), as given.
    bidders : the bidding model of the other players (a policy name).
    requested, kept, candidates : deals asked for, kept, candidates tried.
    short : fewer deals kept than asked for (the candidates ran out).
    told : ``{seat: {...}}`` what each speaking seat's call told
        (:func:`kaiser_sim.conditioned.what_the_calls_told`).
    scores : (ours, theirs) before the hand, or None (not given).
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

    @property
    def acceptance(self) -> float:
        return self.kept / self.candidates if self.candidates else float("nan")


def heard_context(rules: Rules, seat, calls, dealer=None) -> AuctionContext:
    """The :class:`AuctionContext` of ``seat`` after the calls it heard
    (``calls``: text such as ``"6 pass 7"``, or a sequence; from the
    dealer's left): the dealer follows from the seat and the number of
    calls (a ``dealer`` that disagrees is refused), the current bid is the
    highest so far.  :class:`AdvisorInputError` for an illegal sequence,
    naming the rule it breaks."""
    from .conditioned import AuctionInputError, heard_auction

    seat = _seat(seat, "seat")
    d = None if dealer is None else _seat(dealer, "dealer")
    try:
        d, heard = heard_auction(rules, seat, calls, d)
    except AuctionInputError as e:
        raise AdvisorInputError(str(e)) from None
    bids = [c for c in heard if c is not None]
    current = max(bids, key=lambda b: bid_rank(rules, b)) if bids else None
    return AuctionContext(seat, d, current, tuple(heard), tuple(legal_calls(rules, d, list(heard))))


# --- results ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Recommendation:
    """The call to make.

    Every number is in the measure the advice is made on (``play``:
    ``"table"`` or ``"dd"``); ``expected_dd`` and ``difference_dd`` are the
    same two numbers double dummy.

    call : ``"pass"`` or the bid (``"7"``, ``"7NT"``).
    strain : the strain to play (S H D C N), None for a pass.
    expected : the bid's expected hand score, None for a pass (counted 0).
    forced : this seat is the dealer, the others passed, it must bid.
    limit, limit_strain : the highest legal bid whose expected score is
        above 0 (how far to compete), or None.
    versus, difference : the runner-up, the best legal call in another
        strain (or pass) on the selection deals, and how much better the
        recommended call is on the reporting deals (a paired difference), or
        None.
    reason : one sentence saying why.
    clear : the call beat ``versus`` clearly on the selection deals (the
        95% interval of the paired difference lies above 0), or had no
        alternative.
    tie : ``difference``'s interval reaches 0 (or lies below it): the
        recommended call is not clearly better than ``versus``.
    basis : what the call was chosen on: ``"net"`` (its worth net of the
        opponents, :mod:`kaiser_sim.call_worth`), ``"win"`` (the chance of
        winning the match, with a score), or ``"score"`` (the bid's own hand
        score, passing 0: :func:`recommend`).
    value, value_dd : the call's worth on ``basis`` (None for ``"score"``).
    ties : every other call the recommended one is not clearly better than
        on the reporting deals (paired 95% interval reaching 0), best first.
    equivalent : the calls worth exactly the same as it on every reporting
        deal (the same choice: 10NT beside 9NT when both always make).
    """

    call: str
    strain: str | None
    expected: MeanCI | None
    forced: bool
    limit: str | None
    limit_strain: str | None
    versus: str | None
    difference: MeanCI | None
    reason: str
    clear: bool = True
    tie: bool = False
    expected_dd: MeanCI | None = None
    difference_dd: MeanCI | None = None
    play: str = "dd"
    basis: str = "score"
    value: MeanCI | None = None
    value_dd: MeanCI | None = None
    ties: tuple = ()
    equivalent: tuple = ()


#: the rows the choices are made on (rows 0, 2, 4, ...); the reporting rows are "all" or "odd"
CHOSEN_ON = "even"


@dataclass(frozen=True)
class TrumpChoice:
    """The one trump of the hand's plain bids (module doc: "One trump and
    one call, chosen on half the deals").

    play : the measure of the points the trump is chosen on: ``"table"``
        (each deal's expected table-play points) or ``"dd"``.
    strain : the trump (S H D C; N only with ``plain_bid_nt``).
    runner_up : the candidate with the next best mean points on the
        selection deals (None with a single candidate).
    chosen_on, n_select : ``"even"``: the rows 0, 2, 4, ...; how many.
    selection_difference : trump - runner-up in points (``play``) on the
        selection deals (paired), or None.
    clear : ``selection_difference``'s 95% interval lies above 0.
    reported_on, n_report : ``"all"`` or ``"odd"`` (rows 1, 3, 5, ...): the
        deals every estimate that depends on a choice is computed on (all
        only when both the trump and the call are clear); how many.
    difference : trump - runner-up in points (``play``) on the reporting
        deals (paired), or None; ``difference_dd`` the same in DD points.
    tie : ``difference``'s interval reaches 0 (or lies below it).
    """

    strain: str
    runner_up: str | None
    chosen_on: str
    n_select: int
    selection_difference: MeanCI | None
    clear: bool
    reported_on: str = "all"
    n_report: int = 0
    difference: MeanCI | None = None
    tie: bool = False
    difference_dd: MeanCI | None = None
    play: str = "dd"


@dataclass(frozen=True)
class MatchAdvice:
    """A dealer facing ``bid``: match it (take the contract at its level) or
    pass.  ``allowed`` is False when the rules forbid matching.  Passing is
    counted 0 (the opponents' score is not computed).  ``expected`` and
    ``p_make`` are in the measure the decision is made on (``play``),
    ``expected_dd`` and ``p_make_dd`` double dummy."""

    bid: str
    allowed: bool
    strain: str | None
    expected: MeanCI | None
    p_make: tuple[float, float, float] | None  # (p, lo, hi)
    decision: str  # "match" or "pass"
    reason: str
    expected_dd: MeanCI | None = None
    p_make_dd: tuple[float, float, float] | None = None
    play: str = "dd"


@dataclass(frozen=True)
class Specials:
    """The 5H and the 3S, in one strain (see the module doc for the method).

    dealt : ``{"5H": {holder: (k, p, lo, hi)}, "3S": {...}}``, holders
        declarer (this hand) / partner / opponents: where the card is *dealt*.
    worth_5h : DD points minus DD points with the 5H counting 0 (0..5).
    cost_3s : DD points with the 3S counting 0 minus DD points (0..3).
    """

    strain: str
    dealt: dict
    worth_5h: MeanCI
    cost_3s: MeanCI


@dataclass(frozen=True, eq=False)
class HandAdvice:
    """Everything :func:`advise` found (see the module doc).

    In the DataFrames the plain columns are DD and the ``table_`` ones
    table play (NaN when table play is not used: ``play.used == "dd"``).

    values : ``(n, 5)`` int8, DD points of the declaring side per deal and strain.
    points : one row per strain (index S H D C N): mean, lo, hi, sd, min,
        max; table_mean, table_lo, table_hi, table_sd.
    make : one row per (strain, bid level): k, n, p, lo, hi; table_p,
        table_lo, table_hi.
    bids : one row per bid of the ladder, on the reporting deals: bid, nt,
        legal, strain (the hand's trump, N for NT bids), p, p_lo, p_hi,
        expected, lo, hi, and ``exp_<strain>`` for every strain the bid may
        be played in; the same with ``table_`` in front.
    trump : the trump choice and the deals everything was reported on
        (None only for a HandAdvice built by hand).
    play : the measure the choices are made on (:class:`PlayInfo`; None
        only for a HandAdvice built by hand: DD).
    """

    hand: int
    seat: int
    dealer: int
    n: int
    seed: int
    rules: Rules
    auction: AuctionContext
    values: np.ndarray
    points: pd.DataFrame
    make: pd.DataFrame
    bids: pd.DataFrame
    recommendation: Recommendation
    match: MatchAdvice | None
    specials: Specials | None
    notes: tuple[str, ...] = field(default=())
    trump: TrumpChoice | None = None
    play: PlayInfo | None = None
    heard: AuctionInfo | None = None
    calls: pd.DataFrame | None = None
    verdict: str = ""

    @property
    def table(self) -> bool:
        """The choices are made on table play."""
        return self.play is not None and self.play.table

    @property
    def hand_text(self) -> str:
        return format_hand(self.hand)

    @property
    def levels(self) -> list[int]:
        return list(range(self.rules.min_bid, MAX_BID + 1))

    def to_dict(self) -> dict:
        """The JSON document (schema :data:`SCHEMA`, described in the README)."""
        return _to_dict(self)

    def to_json(self, indent: int = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False)

    def to_text(self) -> str:
        """The printed report."""
        return format_text(self)


# --- the analysis --------------------------------------------------------------------------


def _score(rules: Rules, bid: Bid, seat: int, raw: np.ndarray) -> np.ndarray:
    """(n,) hand scores of the declaring side for ``bid`` given its raw points."""
    res = score_hands(rules, bid.level, bid.nt, seat, raw, (0, 0))
    return res.delta[:, seat & 1]


def _strain_key(strain: int) -> str:
    return ALL_STRAIN_KEYS[int(strain)]


def make_table(values: np.ndarray, levels, model=None) -> pd.DataFrame:
    """One row per (strain, level): deals where the declaring side takes at
    least ``level`` points DD (k, n, p) with the Wilson 95% interval; with a
    table-play ``model`` also ``table_p``, the mean over deals of
    ``model.make_prob(v, nt, [level])``, and its iid 95% interval
    (``table_lo``, ``table_hi``; NaN without a model)."""
    v = np.asarray(values, dtype=np.int64)
    n = v.shape[0]
    lv = np.asarray(list(levels), dtype=np.int64)
    k = (v[:, :, None] >= lv[None, None, :]).sum(axis=0)  # (5, levels)
    lo, hi = wilson_interval(k, n)
    tp = np.full((3, v.shape[1], len(lv)), np.nan)
    if _is_table(model):
        from .table_play import hand_play

        hp = hand_play(model, v)
        for s in range(v.shape[1]):
            tp[:, s] = _p_interval(hp.make_prob(s, lv))
    rows = []
    for s, key in enumerate(keys_of(v)):
        for j, level in enumerate(lv):
            rows.append((key, int(level), int(k[s, j]), n, k[s, j] / n, float(lo[s, j]), float(hi[s, j]),
                         *(float(x) for x in tp[:, s, j])))
    return pd.DataFrame(rows, columns=["strain", "bid", "k", "n", "p", "lo", "hi", "table_p", "table_lo",
                                       "table_hi"])


def points_table(values: np.ndarray, model=None) -> pd.DataFrame:
    """One row per strain: mean DD points of the declaring side with its 95%
    interval, the standard deviation, the least and the most; with a
    table-play ``model`` the mean table points (mean over deals of the
    expected table points given the DD value, iid 95% interval) and their
    standard deviation over deals and play (NaN without a model)."""
    v = np.asarray(values, dtype=np.int64)
    m = mean_ci(v, axis=0)
    out = pd.DataFrame(
        {"mean": m.mean, "lo": m.lo, "hi": m.hi, "sd": m.sd, "min": v.min(axis=0), "max": v.max(axis=0)},
        index=pd.Index(keys_of(v), name="strain"),
    )
    t = np.full((4, v.shape[1]), np.nan)
    if _is_table(model):
        from .table_play import POINTS, hand_play

        e = point_values(v, model)
        tm = mean_ci(e, axis=0)
        hp = hand_play(model, v)
        sq = np.stack([hp.expected_score(s, POINTS.astype(np.float64) ** 2) for s in range(v.shape[1])], axis=1)
        sd = np.sqrt(np.maximum(sq.mean(axis=0) - e.mean(axis=0) ** 2, 0.0))
        t = np.stack([tm.mean, tm.lo, tm.hi, sd])
    for i, col in enumerate(("table_mean", "table_lo", "table_hi", "table_sd")):
        out[col] = t[i]
    return out


def selection_rows(n: int) -> np.ndarray:
    """The selection deals: rows 0, 2, 4, ... (the choices are made on them)."""
    return np.arange(0, int(n), 2)


def report_rows(n: int, clear: bool) -> tuple[str, np.ndarray]:
    """``("all", every row)`` when the choices are clear, else ``("odd",
    rows 1, 3, 5, ...)``: the deals the selection did not see."""
    return ("all", np.arange(int(n))) if clear else ("odd", np.arange(1, int(n), 2))


def _rows(rows, n: int) -> np.ndarray:
    return np.arange(n) if rows is None else np.asarray(rows, dtype=np.int64)


def trump_candidates(rules: Rules) -> list[int]:
    """The strains a plain bid may be played in (S H D C; N too with
    ``plain_bid_nt``), in order."""
    plain = next(b for b in ladder(rules) if not b.nt)
    return [s for s, low in strain_choices(rules, plain) if not low]


def _key(strain) -> int:
    return ALL_STRAIN_KEYS.index(strain) if isinstance(strain, str) else int(strain)


def choose_nt(values: np.ndarray, rules: Rules, rows=None, model=None) -> int:
    """The column NT bids are played in: N, or with ``low_nt="choice"`` N or
    L (low), whichever has the higher mean points on ``rows`` (the
    selection deals; ties: N).  Low NT bids (``low_nt="bid"``) are always L."""
    if rules.low_nt != "choice" or np.asarray(values).shape[1] <= LOW:
        return int(Strain.N)
    pts = point_values(values, model)
    rows = _rows(rows, pts.shape[0])
    return LOW if pts[rows, LOW].mean() > pts[rows, int(Strain.N)].mean() else int(Strain.N)


def choose_trump(values: np.ndarray, rules: Rules, rows=None, model=None) -> TrumpChoice:
    """The trump with the highest mean points on ``rows`` (default all;
    :func:`advise` passes :func:`selection_rows`), the runner-up, their paired
    difference there and whether it is clear (its 95% interval above 0).
    The points are DD, or with a table-play ``model`` each deal's expected
    table points (:func:`point_values`).  The reporting fields are filled
    by :func:`report_trump`."""
    pts = point_values(values, model)
    rows = _rows(rows, pts.shape[0])
    cands = trump_candidates(rules)
    means = pts[rows][:, cands].mean(axis=0)
    order = sorted(range(len(cands)), key=lambda i: -means[i])  # stable: exact ties keep S H D C N order
    best = cands[order[0]]
    play = _play_name(model)
    if len(cands) < 2:
        return TrumpChoice(_strain_key(best), None, CHOSEN_ON, len(rows), None, True, play=play)
    second = cands[order[1]]
    d = mean_ci(pts[rows, best] - pts[rows, second])
    return TrumpChoice(_strain_key(best), _strain_key(second), CHOSEN_ON, len(rows), d, bool(d.lo > 0),
                       play=play)


def report_trump(choice: TrumpChoice, values: np.ndarray, reported_on: str, rows, model=None) -> TrumpChoice:
    """``choice`` with the paired difference trump - runner-up on the
    reporting ``rows`` (in ``choice.play``'s points: pass the same ``model``
    as to :func:`choose_trump`; and DD), and the tie flag."""
    rows = np.asarray(rows, dtype=np.int64)
    if choice.runner_up is None:
        return replace(choice, reported_on=reported_on, n_report=len(rows))
    if choice.play != _play_name(model):
        raise ValueError(f"report_trump: the trump was chosen on {choice.play}, not {_play_name(model)}")
    a, b = _key(choice.strain), _key(choice.runner_up)
    v = np.asarray(values, dtype=np.int64)
    d_dd = mean_ci(v[rows, a] - v[rows, b])
    d = d_dd
    if _is_table(model):
        from .table_play import hand_play

        hp = hand_play(model, v)
        d = mean_ci(hp.expected(a, rows) - hp.expected(b, rows))
    return replace(choice, reported_on=reported_on, n_report=len(rows), difference=d, tie=not d.lo > 0,
                   difference_dd=d_dd)


class DealScores(dict):
    """``{bid text: (n,) per-deal hand scores}`` of the strain each bid is
    played in, in the measure the choices use (``play``: ``"table"``, each
    deal's expected table-play score, or ``"dd"``); ``dd`` holds the DD
    scores (itself when ``play`` is ``"dd"``)."""

    def __init__(self, play: str = "dd"):
        super().__init__()
        self.play = play
        self.dd = self if play == "dd" else {}


def bid_table(values: np.ndarray, rules: Rules, seat: int, legal, trump=None,
              rows=None, model=None, nt_strain=None) -> tuple[pd.DataFrame, DealScores]:
    """Expected hand score of every bid of the ladder, and the per-deal
    scores (:class:`DealScores`) of the strain each bid is played in.

    trump : the hand's trump (a strain key or index), in which every plain
        bid is played; default :func:`choose_trump` on all the rows (with
        ``model``).  NT bids are played in no trump.
    rows : the rows the table is computed on (default all; :func:`advise`
        passes the reporting deals).  ``per_deal`` always has every row.
    model : a table-play model: adds the ``table_`` columns (a deal's make
        probability ``model.make_prob(v, nt, [bid])``, its expected score
        ``model.expected_score(v, nt, score of the bid)``; means over the
        rows with iid 95% intervals) and the per-deal scores are table play.
        Without it the ``table_`` columns are NaN and the scores DD.
    nt_strain : the column NT bids are played in (:func:`choose_nt`; default
        N); low NT bids are played in L.  Under the solo Kaiser 12NT is left
        out (the solver does not play one against three).
    """
    v = np.asarray(values, dtype=np.int64)
    n = v.shape[0]
    rows = _rows(rows, n)
    nr = len(rows)
    table = _is_table(model)
    trump = _key(choose_trump(v, rules, model=model).strain if trump is None else trump)
    nt_played = int(Strain.N) if nt_strain is None else _key(nt_strain)
    keys = keys_of(v)
    rows_out, per_deal = [], DealScores(_play_name(model))
    if table:
        from .table_play import POINTS, hand_play

        hp = hand_play(model, v)
    nan = np.nan
    for bid in ladder(rules):
        if bid.is_kaiser and rules.kaiser_outright == "solo":
            continue
        choices = [LOW if low else s for s, low in strain_choices(rules, bid) if not low or v.shape[1] > LOW]
        played = LOW if bid.low else (nt_played if bid.nt else trump)
        if played not in choices:
            raise AdvisorInputError(f"{bid} cannot be played in {STRAIN_NAMES[_strain_key(played)]} "
                                    "under these rules")
        means = {s: float(_score(rules, bid, seat, v[rows, s]).mean()) if nr else nan for s in choices}
        sc = _score(rules, bid, seat, v[:, played])
        per_deal.dd[str(bid)] = sc
        if nr:
            m = mean_ci(sc[rows])
            k = int((v[rows, played] >= bid.level).sum())
            plo, phi = wilson_interval(k, nr)
            mean, lo, hi, p = m.mean, m.lo, m.hi, k / nr
        else:
            mean = lo = hi = p = plo = phi = nan
        row = {"bid": str(bid), "nt": bid.nt, "legal": bid in legal, "strain": _strain_key(played),
               "p": p, "p_lo": plo, "p_hi": phi, "expected": mean, "lo": lo, "hi": hi}
        for s in range(len(keys)):
            row[f"exp_{keys[s]}"] = means.get(s, nan)
        t = dict.fromkeys(("table_p", "table_p_lo", "table_p_hi", "table_expected", "table_lo", "table_hi"), nan)
        t_means = {}
        if table:
            score = _score(rules, bid, seat, POINTS).astype(np.float64)  # the bid's score of each raw total
            tsc = hp.expected_score(played, score)
            per_deal[str(bid)] = tsc
            if nr:
                tm = mean_ci(tsc[rows])
                tp = _p_interval(hp.make_prob(played, [bid.level], rows)[:, 0])
                t.update(table_p=float(tp[0]), table_p_lo=float(tp[1]), table_p_hi=float(tp[2]),
                         table_expected=tm.mean, table_lo=tm.lo, table_hi=tm.hi)
                t_means = {s: float(hp.expected_score(s, score, rows).mean()) for s in choices}
        row.update(t)
        for s in range(len(keys)):
            row[f"table_exp_{keys[s]}"] = t_means.get(s, nan)
        rows_out.append(row)
    return pd.DataFrame(rows_out), per_deal


def _signed(x: float, digits: int = 2) -> str:
    return f"{x:+.{digits}f}"


def _ci_text(m: MeanCI, digits: int = 2) -> str:
    return f"{_signed(m.mean, digits)} ({_signed(m.lo, digits)} to {_signed(m.hi, digits)})"


def _bid_label(bid: str, strain: str | None) -> str:
    if strain is None or bid.endswith("NT-low") or (bid.endswith("NT") and strain == "N"):
        return bid
    if bid.endswith("NT") and strain == "L":
        return f"{bid} played low"
    if strain == "N":
        return f"{bid} played in no trump"
    return f"{bid} in {STRAIN_NAMES[strain]}"


def _call_options(bids: pd.DataFrame, per_deal: dict, ctx: AuctionContext) -> list[tuple]:
    """``(call, strain, (n,) scores)`` of every legal call, pass (0) first."""
    n = len(next(iter(per_deal.values())))
    options = [("pass", None, np.zeros(n))] if not ctx.forced else []
    options += [(r.bid, r.strain, per_deal[r.bid]) for r in bids[bids["legal"]].itertuples()]
    if not options:  # nothing legal but pass is impossible; legal always holds pass or a bid
        raise AdvisorInputError("no legal call")
    return options


def choose_call(bids: pd.DataFrame, per_deal: dict, ctx: AuctionContext, rows=None):
    """The best legal call by mean hand score on ``rows`` (default all) and
    its runner-up: ``(options, best index, runner-up index or None, clear)``.

    The runner-up is the best call of another kind (another strain, or
    pass): with raw scoring a higher bid in the same strain never scores
    more, so the next bid on the ladder would say nothing.  ``clear``: the
    paired difference best - runner-up on ``rows`` has its 95% interval
    above 0, or there is no runner-up."""
    options = _call_options(bids, per_deal, ctx)
    rows = _rows(rows, len(options[0][2]))
    means = [o[2][rows].mean() for o in options]
    order = sorted(range(len(options)), key=lambda i: -means[i])  # stable: ties keep ladder order
    best = order[0]
    others = [i for i in order[1:] if options[i][1] != options[best][1]]
    if not others:
        return options, best, None, True
    other = others[0]
    d = mean_ci(options[best][2][rows] - options[other][2][rows])
    return options, best, other, bool(d.lo > 0)


def _play_words(play: str) -> str:
    return " in table play" if play == "table" else ""


def _dd_aside(play: str, m: MeanCI | None) -> str:
    """``"; double dummy +4.00 (+3.60 to +4.40)"`` beside a table-play number."""
    return "" if play != "table" or m is None else f"; double dummy {_ci_text(m)}"


def recommend(bids: pd.DataFrame, per_deal: dict, ctx: AuctionContext, rules: Rules, select=None,
              report=None) -> Recommendation:
    """The best legal call by expected hand score, passing counted 0: chosen
    on the ``select`` rows, its expected score and its difference from the
    runner-up measured on the ``report`` rows (both default all rows;
    :func:`advise` passes the selection and reporting deals).  The measure
    is ``per_deal``'s (:class:`DealScores`: table play or DD; a plain dict
    is DD); the DD numbers come along (``expected_dd``, ``difference_dd``).
    ``bids`` is the table on the reporting rows (the legal bids)."""
    options, b, o, clear = choose_call(bids, per_deal, ctx, select)
    play = getattr(per_deal, "play", "dd")
    dd = getattr(per_deal, "dd", per_deal)
    n = len(options[0][2])
    report = _rows(report, n)
    best = options[b]
    legal = [bid for bid in bids.loc[bids["legal"], "bid"]]
    positive = [bid for bid in legal if per_deal[bid][report].mean() > 0]
    limit = positive[-1] if positive else None
    limit_strain = None if limit is None else bids.loc[bids["bid"] == limit, "strain"].iloc[0]

    def dd_of(call):
        return np.zeros(n) if call == "pass" else dd[call]

    versus, diff, diff_dd = None, None, None
    if o is not None:
        other = options[o]
        versus = _bid_label(other[0], other[1]) if other[0] != "pass" else "pass"
        diff = mean_ci(best[2][report] - other[2][report])
        diff_dd = mean_ci(dd_of(best[0])[report] - dd_of(other[0])[report])
    expected = mean_ci(best[2][report]) if best[0] != "pass" else None
    expected_dd = mean_ci(dd[best[0]][report]) if best[0] != "pass" else None
    tie = diff is not None and not diff.lo > 0
    words = _play_words(play)

    if best[0] == "pass":
        if ctx.current is not None:
            reason = f"no legal bid over {ctx.current} has a positive expected score{words}"
        else:
            reason = f"no bid has a positive expected score{words}"
    else:
        reason = (f"the best expected hand score{words} of the legal calls: {_ci_text(expected)}"
                  + _dd_aside(play, expected_dd))
        if ctx.forced:
            reason = (f"{Seat(ctx.seat).name} deals and the others passed: a bid of at least "
                      f"{rules.min_bid} is forced; " + reason)
        elif expected.lo <= 0 and versus != "pass":
            reason += "; not clearly better than passing (the interval reaches 0)"
    if diff is not None:
        if not tie:
            reason += f"; better than {versus} by {_ci_text(diff)}"
        else:
            reason += f"; a tie with {versus}: not clearly better (difference {_ci_text(diff)})"
    return Recommendation(
        call=best[0],
        strain=best[1],
        expected=expected,
        forced=ctx.forced,
        limit=limit,
        limit_strain=limit_strain,
        versus=versus,
        difference=diff,
        reason=reason,
        clear=clear,
        tie=tie,
        expected_dd=expected_dd,
        difference_dd=diff_dd,
        play=play,
    )


def match_advice(bids: pd.DataFrame, per_deal: dict, ctx: AuctionContext, rules: Rules,
                 rec: Recommendation, rows=None) -> MatchAdvice | None:
    """For a dealer facing a bid: match it or pass (None otherwise); ``rec``
    (:func:`recommend`) tells whether an overbid scores more.  Measured on
    ``rows`` (default all; :func:`advise` passes the reporting deals), in
    ``per_deal``'s measure (:class:`DealScores`), DD beside it."""
    if not ctx.is_dealer or ctx.current is None:
        return None
    bid = str(ctx.current)
    play = getattr(per_deal, "play", "dd")
    if not rules.dealer_match:
        return MatchAdvice(bid, False, None, None, None, "pass",
                           "the rules do not let the dealer match (dealer_match=false): overbid or pass", play=play)
    row = bids[bids["bid"] == bid].iloc[0]
    rows = _rows(rows, len(per_deal[bid]))
    m = mean_ci(per_deal[bid][rows])
    m_dd = mean_ci(getattr(per_deal, "dd", per_deal)[bid][rows])
    p_dd = (row["p"], row["p_lo"], row["p_hi"])
    p_make = (row["table_p"], row["table_p_lo"], row["table_p_hi"]) if play == "table" else p_dd
    take = m.mean > 0
    how = "" if (m.lo > 0 or m.hi < 0) else ", but the interval reaches 0: a close call"
    what = _bid_label(bid, row["strain"])
    if rec.call not in ("pass", bid) and rec.expected.mean > m.mean:
        how += f"; overbidding with {_bid_label(rec.call, rec.strain)} scores more ({_ci_text(rec.expected)})"
    words = _play_words(play)
    if take:
        reason = f"matching ({what}) scores {_ci_text(m)}{words} on average{_dd_aside(play, m_dd)}{how}"
    else:
        reason = f"matching ({what}) scores {_ci_text(m)}{words} on average{_dd_aside(play, m_dd)}: pass{how}"
    return MatchAdvice(bid, True, row["strain"], m, p_make, "match" if take else "pass", reason,
                       expected_dd=m_dd, p_make_dd=p_dd, play=play)


# --- a call's worth, net of the opponents (kaiser_sim.call_worth) -------------------------------------


def _call_strain(call: str, trump: str, nt: int) -> str | None:
    """The strain key the advised hand plays ``call`` in (None for a pass)."""
    if call == "pass":
        return None
    bid = Bid.parse(call)
    if bid.low:
        return _strain_key(LOW)
    return _strain_key(nt) if bid.nt else trump


def call_table(cv, rows, trump: str, nt: int, seat: int) -> pd.DataFrame:
    """One row per legal call (:class:`kaiser_sim.call_worth.CallValues`) on
    ``rows``: the strain the hand plays it in, its net value (``net``,
    ``net_lo``, ``net_hi``, in ``cv.play``'s measure; ``net_dd_*`` double
    dummy), the chance of winning the match (``win_*``, NaN without a
    score), and who ends up declaring (shares of the deals: ``you``,
    ``partner``, ``opponents``, ``thrown_in``)."""
    rows = np.asarray(rows, dtype=np.int64)
    out = []
    for i, call in enumerate(cv.calls):
        row = {"call": call, "strain": _call_strain(call, trump, nt)}
        for name, dd in (("net", False), ("net_dd", True), ("win", False), ("win_dd", True)):
            basis = "win" if name.startswith("win") else "net"
            if basis == "win" and cv.win is None:
                row.update({name: np.nan, f"{name}_lo": np.nan, f"{name}_hi": np.nan})
                continue
            m = mean_ci(cv.values(basis, dd)[i, rows])
            row.update({name: m.mean, f"{name}_lo": m.lo, f"{name}_hi": m.hi})
        who = cv.declarer[i, rows]
        row.update(you=float((who == seat).mean()), partner=float((who == (seat + 2) % 4).mean()),
                   opponents=float(((who >= 0) & ((who & 1) != (seat & 1))).mean()),
                   thrown_in=float((who < 0).mean()))
        out.append(row)
    return pd.DataFrame(out)


def choose_on_values(cv, basis: str, rows) -> tuple[int, int | None, bool]:
    """``(best, runner-up or None, clear)``: the call with the highest mean
    value on ``rows`` (ties: the first in the ladder's order, pass first),
    the next best call, and whether the paired difference best - runner-up
    has its 95% interval above 0 there (or there is no other call).  Pass is
    the default: when no bid is clearly worth more than passing (the paired
    difference's interval reaches 0), the choice is pass, the best bid its
    runner-up, and the choice is not clear."""
    v = cv.values(basis)[:, np.asarray(rows, dtype=np.int64)]
    means = v.mean(axis=1)
    order = sorted(range(len(cv.calls)), key=lambda i: -means[i])
    # a call worth exactly the same on every deal (9NT and 10NT when both always make and keep the
    # opponents out) is the same choice, not a rival: the runner-up is the best call that differs
    others = [i for i in order[1:] if not np.array_equal(v[i], v[order[0]])]
    if not others:
        return order[0], None, True
    pass_i = cv.index("pass") if "pass" in cv.calls else None
    if pass_i is not None and pass_i in others and not mean_ci(v[order[0]] - v[pass_i]).lo > 0:
        # no bid is clearly worth more than passing: pass, the call that risks nothing; the best bid
        # is then the runner-up (and the choice is not clear)
        return pass_i, order[0], False
    d = mean_ci(v[order[0]] - v[others[0]])
    return order[0], others[0], bool(d.lo > 0)


def _value_words(basis: str, play: str) -> str:
    what = "chance of winning the match" if basis == "win" else "net score (yours minus the opponents')"
    return what + (" in table play" if play == "table" else " double dummy")


def _value_text(m: MeanCI, basis: str) -> str:
    if m.lo == m.hi == m.mean:  # the same on every deal: a certainty, no interval around it
        return (f"{_pct(m.mean)}%" if basis == "win" else _signed(m.mean)) + " on every deal"
    if basis == "win":
        return f"{_pct(m.mean)}% ({_pct(m.lo)} to {_pct(m.hi)})"
    return _ci_text(m)


def recommend_call(cv, basis: str, bids: pd.DataFrame, per_deal: dict, ctx: AuctionContext, rules: Rules,
                   trump: str, nt: int, select, report) -> Recommendation:
    """The legal call with the highest value on ``basis`` (``"net"``: the
    side's score minus the opponents', the rest of the auction played out;
    ``"win"``: the chance of winning the match), chosen on the ``select``
    rows; its value, its difference from the runner-up (the next best call)
    and the bid's own expected hand score on the ``report`` rows."""
    b, o, clear = choose_on_values(cv, basis, select)
    report = np.asarray(report, dtype=np.int64)
    play = cv.play
    vals, vals_dd = cv.values(basis), cv.values(basis, dd=True)
    call = cv.calls[b]
    strain = _call_strain(call, trump, nt)
    value, value_dd = mean_ci(vals[b, report]), mean_ci(vals_dd[b, report])
    expected = expected_dd = None
    if call != "pass":
        expected = mean_ci(per_deal[call][report])
        expected_dd = mean_ci(getattr(per_deal, "dd", per_deal)[call][report])
    versus = diff = diff_dd = None
    if o is not None:
        versus_call = cv.calls[o]
        versus = _bid_label(versus_call, _call_strain(versus_call, trump, nt))
        diff = mean_ci(vals[b, report] - vals[o, report])
        diff_dd = mean_ci(vals_dd[b, report] - vals_dd[o, report])
    tie = diff is not None and not diff.lo > 0
    means = vals[:, report].mean(axis=1)
    same = [i for i in range(len(cv.calls)) if i != b and np.array_equal(vals[i, report], vals[b, report])]
    ties = tuple(_bid_label(c, _call_strain(c, trump, nt))
                 for i, c in sorted(enumerate(cv.calls), key=lambda x: -means[x[0]])
                 if i != b and i not in same and not mean_ci(vals[b, report] - vals[i, report]).lo > 0)
    equivalent = tuple(_bid_label(cv.calls[i], _call_strain(cv.calls[i], trump, nt)) for i in same)
    # how far to compete: the highest legal bid worth at least passing (at least the call made)
    limit = limit_strain = None
    if call != "pass":
        floor = vals[cv.index("pass"), report].mean() if "pass" in cv.calls else -np.inf
        rank = bid_rank(rules, Bid.parse(call))
        ok = [c for i, c in enumerate(cv.calls) if c != "pass" and bid_rank(rules, Bid.parse(c)) >= rank
              and vals[i, report].mean() >= floor]
        limit = ok[-1] if ok else call
        limit_strain = _call_strain(limit, trump, nt)
    words = _value_words(basis, play)
    reason = f"the highest {words} of the legal calls: {_value_text(value, basis)}"
    if play == "table":
        reason += f"; double dummy {_value_text(value_dd, basis)}"
    if ctx.forced:
        reason = (f"{Seat(ctx.seat).name} deals and the others passed: a bid of at least {rules.min_bid} is "
                  "forced; " + reason)
    if diff is not None:
        dtext = _value_text(diff, basis) if basis == "net" else f"{_signed(100 * diff.mean, 1)} points of % " \
            f"({_signed(100 * diff.lo, 1)} to {_signed(100 * diff.hi, 1)})"
        if not tie:
            reason += f"; better than {versus} by {dtext}"
        elif call == "pass" and diff.mean < 0:
            reason += (f"; no bid is clearly worth more than passing, so pass: the best bid, {versus}, differs "
                       f"from passing by {dtext} (passing minus the bid)")
        else:
            reason += f"; a tie with {versus}: not clearly better (difference {dtext})"
    return Recommendation(call=call, strain=strain, expected=expected, forced=ctx.forced, limit=limit,
                          limit_strain=limit_strain, versus=versus, difference=diff, reason=reason, clear=clear,
                          tie=tie, expected_dd=expected_dd, difference_dd=diff_dd, play=play, basis=basis,
                          value=value, value_dd=value_dd, ties=ties, equivalent=equivalent)


def match_on_calls(cv, basis: str, bids: pd.DataFrame, ctx: AuctionContext, rules: Rules,
                   rec: Recommendation, report) -> MatchAdvice | None:
    """For a dealer facing a bid: matching against passing, on the same
    values as the recommendation (so it never contradicts it): the decision
    is the recommendation's (``"match"``, ``"pass"``, or ``"overcall"``
    when a higher bid is recommended).  None for any other seat."""
    if not ctx.is_dealer or ctx.current is None:
        return None
    bid = str(ctx.current)
    play = cv.play
    decision = "match" if rec.call == bid else ("pass" if rec.call == "pass" else "overcall")
    if not rules.dealer_match:
        return MatchAdvice(bid, False, None, None, None, decision,
                           "the rules do not let the dealer match (dealer_match=false)", play=play)
    report = np.asarray(report, dtype=np.int64)
    row = bids[bids["bid"] == bid].iloc[0]
    i = cv.index(bid)
    vals, vals_dd = cv.values(basis), cv.values(basis, dd=True)
    m, m_dd = mean_ci(vals[i, report]), mean_ci(vals_dd[i, report])
    p_dd = (row["p"], row["p_lo"], row["p_hi"])
    p_make = (row["table_p"], row["table_p_lo"], row["table_p_hi"]) if play == "table" else p_dd
    what = _bid_label(bid, row["strain"])
    reason = f"matching ({what}): {_value_words(basis, play)} {_value_text(m, basis)}"
    if "pass" in cv.calls:
        reason += f", passing {_value_text(mean_ci(vals[cv.index('pass'), report]), basis)}"
    if decision == "overcall":
        reason += f"; {_bid_label(rec.call, rec.strain)} is worth more"
    elif decision == "pass" and "pass" in cv.calls and m.mean > mean_ci(vals[cv.index("pass"), report]).mean:
        reason += "; no bid is clearly worth more than passing, so pass"
    return MatchAdvice(bid, True, row["strain"], m, p_make, decision, reason, expected_dd=m_dd, p_make_dd=p_dd,
                       play=play)


def _seat_word(seat: int, me: int) -> str:
    s = Seat(seat).name
    if seat == me:
        return f"{s} (you)"
    return f"{s} (partner)" if seat == (me + 2) % 4 else s


def heard_text(ctx: AuctionContext) -> str:
    """``W 6, N (partner) pass, E 7``: the calls heard, by seat."""
    return ", ".join(f"{_seat_word((ctx.dealer + 1 + i) % 4, ctx.seat)} {'pass' if c is None else c}"
                     for i, c in enumerate(ctx.calls))


def verdict_text(rec: Recommendation, ctx: AuctionContext, heard: AuctionInfo | None) -> str:
    """The advice in one line, before the tables: the call, what it is
    worth, and the calls it heard."""
    if rec.call == "pass":
        holder = None
        if ctx.current is not None:
            i = max(i for i, c in enumerate(ctx.calls) if c == ctx.current)
            holder = (ctx.dealer + 1 + i) % 4
        if holder is None:
            action = "pass"
        elif holder == (ctx.seat + 2) % 4:
            action = f"pass: partner's {ctx.current} stands"
        else:
            action = f"pass: let {Seat(holder).name} play {ctx.current}"
    else:
        verb = "match" if (ctx.is_dealer and ctx.current is not None and rec.call == str(ctx.current)) else "bid"
        action = f"{verb} {_bid_label(rec.call, rec.strain)}"
    if rec.value is not None:
        m = rec.value
        if rec.basis == "win":
            worth = f"P(win) {_pct(m.mean)}%"
            spread = f"{_pct(m.lo)} to {_pct(m.hi)}%"
        else:
            worth = f"net {_signed(m.mean)} points a hand"
            spread = f"{_signed(m.lo)} to {_signed(m.hi)}"
        action += f" ({worth}" + (" on every deal" if m.lo == m.hi == m.mean else f", {spread}")
        if rec.equivalent:
            action += f"; {' and '.join(rec.equivalent)} the same on every deal"
        if (rec.call == "pass" and rec.tie and rec.difference is not None and rec.basis == "net"
                and rec.difference.mean < 0):
            # pass by default: say by how little the best bid might beat it
            d = rec.difference
            gain = d._replace(mean=-d.mean, lo=-d.hi, hi=-d.lo)
            action += f"; no bid is clearly worth more: the best, {rec.versus}, by {_ci_text(gain)})"
        elif rec.ties:
            many = list(rec.ties)
            action += "; a tie with " + (", ".join(many[:-1]) + " and " + many[-1] if len(many) > 1 else many[0]) + ")"
        else:
            action += f"; next best {rec.versus})" if rec.versus else ")"
    after = ""
    if heard is not None and heard.heard and ctx.calls:
        after = f", having heard {heard_text(ctx)}"
    return f"Verdict: {action}{after}."


def told_text(heard: AuctionInfo) -> str:
    """One line: what the calls told, against no auction."""
    parts = []
    for seat, t in sorted(heard.told.items(), key=lambda x: x[0]):
        bits = [f"count {t['count']:.1f} (unheard {t['count_unconditioned']:.1f})"]
        for card, key in (("5H", "p_5h"), ("3S", "p_3s")):
            if t[f"{key}_unconditioned"] > 0:
                bits.append(f"{card} {_pct(t[key])}% ({_pct(t[f'{key}_unconditioned'])}%)")
        parts.append(f"{Seat(seat).name} {t['call']}: " + ", ".join(bits))
    return "What the calls told (mean Kaiser count and where the specials lie; in brackets with no auction): " \
        + "; ".join(parts) + "."


def specials_table(deals: np.ndarray, values: np.ndarray, seat: int, strain: int, rows=None,
                   rules: Rules | None = None) -> Specials:
    """Where the 5H and 3S are dealt (all deals), and their DD worth in
    ``strain`` on ``rows`` (default all; two extra single-strain solves of
    each of those deals; see the module doc).  ``strain`` :data:`LOW` (low
    no trump) is solved on the rank-reversed deals (``rules`` gives
    ``low_specials_lowest``)."""
    n = deals.shape[0]
    partner = (seat + 2) % 4
    dealt = {}
    for name, bit in (("5H", FIVE_HEARTS_BIT), ("3S", THREE_SPADES_BIT)):
        mine = (deals[:, seat] & bit) != 0
        part = (deals[:, partner] & bit) != 0
        counts = {"declarer": int(mine.sum()), "partner": int(part.sum())}
        counts["opponents"] = n - counts["declarer"] - counts["partner"]
        lo, hi = wilson_interval(np.array(list(counts.values())), n)
        # whether the advised hand holds it is no estimate: certain, so no interval around it
        lo[0] = hi[0] = float(mine.all())
        if mine.all():
            lo[1:] = hi[1:] = 0.0
        dealt[name] = {h: (counts[h], counts[h] / n, float(lo[i]), float(hi[i])) for i, h in enumerate(HOLDERS)}
    rows = _rows(rows, n)
    sub = np.ascontiguousarray(deals[rows])
    v = np.asarray(values[rows, strain], dtype=np.int64)
    # only the one strain is needed: one solve a deal for each special
    leaders = np.full(len(rows), seat, dtype=np.int64)
    five, three = FIVE_HEARTS_BIT, THREE_SPADES_BIT
    if int(strain) == LOW:
        from ..dd.rule_variants import play_view

        sub, five, three = play_view(sub, rules or get_preset("low-nt"), True)
    strains = np.full(len(rows), min(int(strain), int(Strain.N)), dtype=np.int64)
    no5 = dd_contracts(sub, leaders, strains, "points", five=np.uint64(0), three=three).astype(np.int64)
    no3 = dd_contracts(sub, leaders, strains, "points", five=five, three=np.uint64(0)).astype(np.int64)
    return Specials(_strain_key(strain), dealt, mean_ci(v - no5), mean_ci(no3 - v))


def _selection_note(trump: TrumpChoice, n: int) -> str:
    """The trump rule and the deals this report used, in one note."""
    pts = "expected table-play points" if trump.play == "table" else "DD points"
    if trump.chosen_on == "all":
        head = (f"One trump for the hand: every plain bid is played in the suit with the highest mean {pts} on "
                f"all {n:,} deals (the means of the per-strain table, so the trump never trails the figures printed "
                "beside it), every NT bid in no trump; a trump is a tie when the 95% interval of its paired "
                "difference from the next suit reaches 0.  The call is chosen on the "
                f"{len(range(0, n, 2)):,} even deals (rows 0, 2, 4, ...) and is clear when the 95% interval of its "
                "paired difference from the next best call lies above 0 there; ")
        used = (f"it was clear, so the estimates use all {n:,} deals" if trump.reported_on == "all"
                else f"it was not clear, so every estimate that depends on it (the bid table, the call's worth, "
                     f"the recommendation, matching, the 5H/3S worth) uses only the {trump.n_report:,} odd deals, "
                     "which played no part in the choice")
        return head + used + ".  A call whose difference from the next best on the reporting deals has an " \
            "interval reaching 0 is reported as a tie."
    used = (f"both were clear there, so the estimates use all {n:,} deals" if trump.reported_on == "all"
            else f"not both were clear there, so every estimate that depends on a choice (the bid table, the "
                 f"recommendation, matching, the 5H/3S worth) uses only the {trump.n_report:,} odd deals, "
                 "which played no part in the choices")
    return (
        f"One trump for the hand: every plain bid is played in the suit with the highest mean {pts} on "
        f"the {trump.n_select:,} even deals (rows 0, 2, 4, ...), every NT bid in no trump; the call is chosen "
        "on those deals too (on the same measure).  A choice is clear when the 95% interval of its paired "
        "difference from the runner-up (the next suit; the best call in another strain or pass) lies above 0 on them; "
        f"{used}.  The per-strain table uses all deals (no choice in it).  A trump or call whose difference "
        "from the runner-up on the reporting deals has an interval reaching 0 is reported as a tie."
    )


def table_play_note(model_description: str) -> str:
    """The paragraph that says what the table-play numbers are (printed
    with them)."""
    return (
        "Table play (the numbers the advice is chosen on; double dummy beside them): the points the declaring "
        "side takes when every player sees only their own hand and the cards played, from the table-play "
        "model.  For each deal it turns the DD value into a distribution of table points, fitted on deals "
        "played out by PIMC players: at each turn a player deals the unseen cards K times consistently with "
        "what it knows (the cards played, the suits shown out of), scores each of its legal cards double "
        "dummy on every layout and plays the one that does best on average.  PIMC players cannot signal, do "
        "not plan to gather information nor read anything into how the others play, and once a layout is "
        "drawn they play as if they saw it (strategy fusion): a model of competent play without conventions, "
        "not of people; a signalling partnership may take more, a weaker table less.  The same model for "
        "every hand: it knows the deal only through its DD value and the strain kind; so each deal's "
        "distribution is kept within what its cards allow (its sure tricks, the most the side can take), and "
        "the strains the provenance names are corrected for this hand by PIMC play of some of its own deals "
        "(a control variate: the model's mean plus the mean of played - model on the played deals).  "
        f"Provenance: {model_description}."
    )


def _deals_note(rules: Rules, ctx: AuctionContext, heard: AuctionInfo | None) -> str:
    """How the other cards were dealt: at random, or consistent with the calls heard."""
    others = 4 * rules.hand_size + rules.kitty_size - rules.hand_size
    kit = " (the other hands and the kitty)" if rules.kitty != "none" else ""
    if heard is not None and heard.heard:
        short = (f"  Only {heard.kept:,} of the {heard.requested:,} deals asked for were found before the "
                 f"candidates ran out (--max-candidates): the intervals are wider for it.") if heard.short else ""
        return (f"The other {others} cards{kit} are dealt consistently with the calls heard ({heard_text(ctx)}): "
                f"of the seeded deal stream, the first {heard.kept:,} deals in which every seat that spoke "
                f"would have made its call under the {heard.bidders} bidding model (a match policy: its own hand, "
                f"the calls before it, the scores); {heard.kept:,} of {heard.candidates:,} candidates "
                f"({100 * heard.acceptance:.3g}%) were kept.  Every number below assumes the others bid like that "
                f"model." + short)
    if ctx.current is not None:
        return (f"The other {others} cards{kit} are dealt uniformly at random: the deals are not conditioned on "
                f"the current bid (--current-bid; give --auction for that).  The calls before you are taken as "
                f"{heard_text(ctx)} for the rest of the auction.")
    if ctx.calls:
        return (f"The other {others} cards{kit} are dealt uniformly at random: the calls before you are taken as "
                f"{heard_text(ctx)}, and the deals are not conditioned on them (give --auction for that).")
    return f"The other {others} cards{kit} are dealt uniformly at random: you speak first, no call is heard."


def _notes(rules: Rules, ctx: AuctionContext, specials: bool, trump: TrumpChoice | None = None,
           n: int = 0, play: PlayInfo | None = None, heard: AuctionInfo | None = None) -> tuple[str, ...]:
    side = "N-S" if ctx.seat % 2 == 0 else "E-W"
    table = play is not None and play.table
    notes = []
    if table:
        notes.append(table_play_note(play.model))
    elif play is not None and play.requested == "table":
        notes.append(f"Table play is not available, so every number is double dummy and the choices are made "
                     f"on it: {play.reason}.")
    bidders = heard.bidders if heard is not None else config.AUCTION_BIDDERS
    notes += [
        _deals_note(rules, ctx, heard),
        f"Values are double dummy (all hands visible, best play by both sides) with {Seat(ctx.seat).name} "
        f"on lead, i.e. declaring"
        + (", and table play is estimated from them" if table else "")
        + f"; 'points' are {side}'s raw points (tricks, +5 for the 5H, -3 for the 3S).",
        "A plain bid's trump is chosen once for this hand, not bid by bid nor deal by deal."
        if trump is None else _selection_note(trump, n),
        "Expected hand score: made = the raw points (NT: "
        + {"double": "doubled; failed NT loses twice the bid",
           "double-made": "doubled; failed NT loses the bid once",
           "single": "not doubled"}[rules.nt_scoring]
        + ("" if rules.made_scores == "raw" else "; a made bid scores exactly the bid")
        + "), failed = minus the bid: the bid table's numbers, if the bid becomes the contract.",
        f"A call's worth: each legal call, pass included, is played out on every deal: the later seats call with "
        f"their own hands under the {bidders} bidding model, the highest bid (the dealer's match takes it) is "
        "played by its bidder (your trump when you declare, the model's otherwise), and the call is worth your "
        "side's hand score minus the opponents' "
        + ("(table play: expected over the table-play model's points; double dummy beside)" if play is not None
           and play.table else "(double dummy)")
        + "; a hand all pass is thrown in (0)."
        + ("  With the match score, the call is chosen on the chance of winning the match after the hand (the "
           "score-aware policy's win-probability model)." if heard is not None and heard.scores is not None
           else "  The recommended call has the highest worth.")
        + ("  Pass is the default: when no bid is clearly worth more than passing (the 95% interval of the "
           "difference reaches 0), the advice is to pass." if not ctx.forced else ""),
        "Intervals are 95%: Wilson for probabilities, mean +- 1.96 standard errors for means."
        + (("  A table-play probability or expected score is the mean over deals of each deal's predicted "
            "value (the model's probability or expected score given the deal's DD value), with mean +- 1.96 "
            "standard errors over deals: the model's own estimation error is not included, except in the strains "
            "corrected by the hand's own play, whose intervals hold the play's error.") if table else ""),
    ]
    if specials:
        notes.append(
            "5H/3S: 'dealt' is where the card starts, not who captures it (the solver returns values, "
            "not the play).  'Of the 5H's +5, kept' = DD points minus DD points with the 5H counting 0 "
            "(0..5; 5 = the declaring side takes it against any defence); 'of the 3S's -3, taken' = DD points "
            "with the 3S counting 0 minus DD points (0..3; 3 = it cannot be avoided).  These say who ends up "
            "with the card's own points, not what holding it is worth (see the five-hearts and three-spades "
            "studies: holding the 3S is an asset to its side)."
        )
    return tuple(notes)


def advise(hand, seat="N", dealer=None, n: int | None = None, seed: int = 0, rules: Rules | None = None,
           current_bid=None, specials: bool = True, play: str = "table", model=None, check: int | None = None,
           *, auction=None, bidders=None, scores=None, max_candidates: int | None = None) -> HandAdvice:
    """Analyse one hand: see the module doc.

    Parameters
    ----------
    hand : notation (``AKQ9.5.AK.7``, ``AS KS 5H ...``) or a bitboard.
    seat : the hand's seat (N E S W, default N); it leads, i.e. declares.
    dealer : the dealer's seat; default the seat on ``seat``'s right (this
        seat speaks first), or with ``auction`` the seat the calls imply
        (another is refused).
    n : deals of the other cards (kept deals with ``auction``; at least 2:
        the even ones choose the call, the odd ones report when a choice is
        not clear); default :data:`DEFAULT_DEALS`, :data:`KITTY_DEALS` under
        rules with a kitty (each value a search over the discards).
    seed : the run's seed; the deals are ``deal_batch(n, seed, fixed={seat: hand})``
        (with ``auction``, the first ``n`` of that stream consistent with the calls).
    rules : the rules (default ``standard``).  Every option is handled
        (:func:`rules_notes`): a kitty (``hand`` is the hand as dealt, the
        kitty is dealt at random with the other hands and taken up by this
        seat, discarding best), low no trump (its own column L and bids),
        cover 3 (approximate, see the note), the weak-hand redeal (the other
        hands are never weak), the solo Kaiser (12NT left out), passing
        cards (not modelled: a note).
    current_bid : the highest bid so far (``"8"``, ``"8NT"``), or None: a
        stand-in auction (the bid, then passes), the deals not conditioned
        on it.  Not with ``auction``.
    auction : the calls heard before this seat, from the dealer's left
        (``"6 pass 7"``, ``"none"``, or a sequence of calls): the deals are
        consistent with them under the ``bidders`` model
        (:mod:`kaiser_sim.conditioned`).
    bidders : the bidding model of the other players, a match policy name
        (default :data:`kaiser_sim.config.AUCTION_BIDDERS`): it conditions
        the deals and plays the rest of the auction out for each call's
        worth (:mod:`kaiser_sim.call_worth`).
    scores : (ours, theirs) before the hand: the calls are then chosen on
        the chance of winning the match (and scored from that score).
    max_candidates : the most candidate deals tried with ``auction``.
    specials : also measure the 5H and 3S (two more solves of each reporting deal).
    play : ``"table"`` (default): the choices on table play (the table-play
        model, DD beside it); ``"dd"``: everything double dummy.  Table play
        falls back to DD, with the reason in ``HandAdvice.play`` and the
        notes, only when a model given does not hold for the rules or cannot
        be read.
    model : the table-play model (default the one shipped for ``rules``,
        :func:`kaiser_sim.table_play.model_for`).
    check : deals of this hand's own that PIMC players play out, in the
        chosen trump and in no trump, to correct the table-play model for
        this hand (default :data:`kaiser_sim.config.TABLE_PLAY_CHECK_DEALS`;
        0: the model alone; :func:`played_check`).

    Raises
    ------
    AdvisorInputError for a bad hand, seat, bid, auction, score or unsupported
    rules (all input is checked before anything is dealt or solved), and
    when the calls heard are too rare under the model to deal enough deals.
    """
    from .conditioned import AuctionTooRare, conditioned_deals, what_the_calls_told
    from .policies import POLICIES, PolicyError, get_policy

    rules = get_preset("standard") if rules is None else rules
    check_rules(rules)
    if n is None:
        n = KITTY_DEALS if rules.kitty != "none" else DEFAULT_DEALS
    if play not in PLAY_CHOICES:
        raise AdvisorInputError(f"unknown play '{play}' (use " + " or ".join(PLAY_CHOICES) + ")")
    mask = read_hand(hand, rules)
    if int(n) < config.HAND_MIN_DEALS:
        raise AdvisorInputError(f"the number of deals must be at least {config.HAND_MIN_DEALS} (half of them choose the call, "
                                "the other half report when the choice is not clear)")
    if int(seed) < 0:
        raise AdvisorInputError("the seed must be >= 0")
    try:
        policy = get_policy(config.AUCTION_BIDDERS if bidders is None else bidders)
    except PolicyError:
        raise AdvisorInputError(f"unknown bidding model '{bidders}'; models: {', '.join(POLICIES)}") from None
    if scores is not None:
        scores = check_scores(scores, rules)
    if auction is not None and current_bid is not None:
        raise AdvisorInputError("give the calls heard (--auction) or the current bid (--current-bid), not both: "
                                "--auction already says which bid stands")
    if auction is not None:
        ctx = heard_context(rules, seat, auction, dealer)
    else:
        ctx = auction_context(rules, seat, dealer, current_bid)
    if max_candidates is not None and int(max_candidates) < 1:
        raise AdvisorInputError("--max-candidates must be at least 1")
    if auction is not None and ctx.calls:
        try:
            cd = conditioned_deals(mask, ctx.seat, ctx.calls, int(n), int(seed), rules, policy,
                                   scores or (0, 0), max_candidates=max_candidates)
        except AuctionTooRare as e:
            raise AdvisorInputError(str(e)) from None
        deals, kitties = cd.deals, cd.kitties
        heard = AuctionInfo(True, tuple(str(c) if c is not None else "pass" for c in ctx.calls), policy.name,
                            int(n), cd.kept, cd.candidates, cd.short, what_the_calls_told(cd, rules),
                            scores)
        n = cd.kept
    else:
        deals, kitties = advisor_deals(mask, ctx.seat, n, seed, rules, kitties=True)
        heard = AuctionInfo(False, () if current_bid is None else (str(ctx.current),), policy.name, int(n), int(n),
                            int(n), scores=scores)
    values = advisor_values(deals, kitties, ctx.seat, rules)
    return _analyse(mask, ctx, deals, values, int(n), int(seed), rules, specials, play, model, kitties=kitties,
                    policy=policy, heard=heard, check=check)


def check_scores(scores, rules: Rules) -> tuple[int, int]:
    """``(ours, theirs)`` from a pair or ``"US-THEM"`` text (``"30-12"``,
    negative scores too: ``"-8-20"``); each below the rules' target and not
    below minus the target."""
    import re

    if isinstance(scores, str):
        m = re.fullmatch(r"\s*(-?\d{1,4})\s*[-:/,]\s*(-?\d{1,4})\s*", scores)
        if not m:
            raise AdvisorInputError(f"cannot read the score '{scores}' (write US-THEM, e.g. 30-12)")
        scores = (int(m.group(1)), int(m.group(2)))
    try:
        us, them = (int(x) for x in scores)
    except (TypeError, ValueError):
        raise AdvisorInputError(f"cannot read the score {scores!r} (two whole numbers: ours, theirs)") from None
    t = rules.target
    for what, x in (("your", us), ("the opponents'", them)):
        if not -t <= x < t:
            raise AdvisorInputError(f"{what} score {x} is outside {-t}..{t - 1}: at {t} the match is over "
                                    f"(target {t} under these rules)")
    return us, them


def advisor_values(deals, kitties, seat: int, rules: Rules) -> np.ndarray:
    """``(n, k)`` int8: the declaring side's DD points in every strain with
    ``seat`` on lead, under ``rules`` (k = 5, or 6 with low no trump):
    :func:`_dd_strains` in the standard game; with a kitty the declarer's
    best discard, low NT on reversed ranks
    (:func:`kaiser_sim.dd.rule_variants.strain_values`); with cover 3 scored by
    :func:`kaiser_sim.dd.rule_variants.cover3_points` from a second solve in tricks."""
    from ..dd.rule_variants import cover3_points, strain_values

    if rules.kitty == "none" and rules.low_nt == "off":
        values = _dd_strains(deals, seat, "points")
    else:
        values = strain_values(deals, kitties, seat, rules, "points")
    if rules.cover3:
        tricks = strain_values(deals, kitties, seat, rules, "tricks")
        values = cover3_points(values, tricks).astype(np.int8)
    return values


def _analyse(mask: int, ctx: AuctionContext, deals: np.ndarray, values: np.ndarray, n: int, seed: int,
             rules: Rules, specials: bool, play: str, model, *, kitties=None, policy=None,
             heard: AuctionInfo | None = None, check: int | None = None) -> HandAdvice:
    """Everything :func:`advise` does once the deals are solved (the
    benchmark times it on its own)."""
    from .call_worth import call_values
    from .policies import get_policy

    info, tp = table_play_for(play, rules, values, model, deals, ctx.seat, kitties)  # tp: the model, or None for DD
    levels = range(rules.min_bid, MAX_BID + 1)
    policy = get_policy(config.AUCTION_BIDDERS) if policy is None else policy
    kitties = np.zeros(deals.shape[0], dtype=np.uint64) if kitties is None else kitties
    every = np.arange(n)
    # the trump and the NT column on every deal, the numbers the per-strain table prints
    trump = replace(choose_trump(values, rules, None, model=tp), chosen_on="all")
    nt = choose_nt(values, rules, None, model=tp)
    # the hand's own PIMC play in that trump and in NT corrects the model (table play only)
    info, tp = played_check(info, tp, deals, ctx.seat, (_key(trump.strain), nt), seed, check)
    trump = report_trump(trump, values, "all", every, model=tp)
    # each call's worth, the rest of the auction played out; chosen on the selection deals
    scores = heard.scores if heard is not None else None
    basis = "net" if scores is None else "win"
    cv = call_values(deals, kitties, ctx.seat, ctx.dealer, ctx.calls, rules, policy, trump=_key(trump.strain),
                     nt_strain=nt, values=values, model=tp, scores=scores or (0, 0), win=scores is not None)
    select = selection_rows(n)
    call_clear = choose_on_values(cv, basis, select)[2]
    reported_on, report = report_rows(n, call_clear)
    trump = replace(trump, reported_on=reported_on, n_report=len(report))
    bids, per_deal = bid_table(values, rules, ctx.seat, ctx.legal, trump.strain, report, model=tp, nt_strain=nt)
    rec = recommend_call(cv, basis, bids, per_deal, ctx, rules, trump.strain, nt, select, report)
    calls = call_table(cv, report, trump.strain, nt, ctx.seat)
    pts = points_table(values, model=tp)
    spec = None
    notes = list(_notes(rules, ctx, specials, trump, int(n), info, heard))
    if specials and rules.kitty != "none":
        notes.append("The 5H/3S worth is not measured with a kitty (each special card's count changes the "
                     "declarer's best discard: two more searches over the discards a deal); where they are dealt "
                     "is not shown either.")
    elif specials:
        strain = _key(rec.strain if rec.strain is not None else trump.strain)
        spec = specials_table(deals, values, ctx.seat, strain, report, rules)
    extra = rules_notes(rules, mask, n)
    weak = [t for t in extra if t.startswith("This hand may demand a redeal")]
    notes = notes[:1] + weak + notes[1:] + [t for t in extra if t not in weak]  # a weak hand: said early
    return HandAdvice(
        hand=mask, seat=ctx.seat, dealer=ctx.dealer, n=int(n), seed=int(seed), rules=rules, auction=ctx,
        values=values, points=pts, make=make_table(values, levels, model=tp), bids=bids, recommendation=rec,
        match=match_on_calls(cv, basis, bids, ctx, rules, rec, report), specials=spec,
        notes=tuple(notes), trump=trump, play=info, heard=heard, calls=calls,
        verdict=verdict_text(rec, ctx, heard),
    )


# --- output ---------------------------------------------------------------------------------


def _num(x, digits: int = 4):
    """A JSON number (None for NaN)."""
    x = float(x)
    return None if math.isnan(x) else round(x, digits)


def _mean_obj(m: MeanCI | None) -> dict | None:
    if m is None:
        return None
    return {"mean": _num(m.mean), "lo": _num(m.lo), "hi": _num(m.hi), "sd": _num(m.sd), "n": int(m.n)}


def _p_obj(p, lo, hi) -> dict:
    return {"p": _num(p), "lo": _num(lo), "hi": _num(hi)}


def _pair(table, dd) -> dict:
    """``{"table": ..., "dd": ...}``: one number in both measures (table null
    when table play is not used)."""
    return {"table": table, "dd": dd}


def _trump_obj(t: TrumpChoice | None) -> dict | None:
    if t is None:
        return None
    table = t.play == "table"
    dd_diff = t.difference_dd if table else t.difference
    return {"strain": t.strain, "runner_up": t.runner_up,
            "difference": None if t.difference is None else _pair(_mean_obj(t.difference) if table else None,
                                                                  _mean_obj(dd_diff)),
            "tie": t.tie, "chosen_on": t.chosen_on, "n_select": t.n_select,
            "selection_difference": _mean_obj(t.selection_difference), "clear": t.clear,
            "reported_on": t.reported_on, "n_report": t.n_report}


def _mean_pair(play: str, used: MeanCI | None, dd: MeanCI | None) -> dict | None:
    """A mean in both measures from a result's ``used`` and ``*_dd`` fields."""
    if used is None:
        return None
    if play != "table":
        return _pair(None, _mean_obj(used))
    return _pair(_mean_obj(used), _mean_obj(dd))


def _play_obj(a: HandAdvice) -> dict:
    p = a.play or PlayInfo("dd", "dd")
    return {"requested": p.requested, "used": p.used, "reason": p.reason, "model": p.model,
            "provenance": p.provenance, "check": p.check}


def _auction_obj(a: HandAdvice) -> dict:
    """The calls heard and how the deals were dealt (schema 3)."""
    h = a.heard
    if h is None:
        return None
    told = {Seat(s).name: {k: _num(v) if not isinstance(v, str) else v for k, v in t.items()}
            for s, t in sorted(h.told.items())}
    return {"calls": list(h.calls) if h.heard else None, "heard": h.heard,
            "current_bid": None if a.auction.current is None else str(a.auction.current),
            "bidders": h.bidders, "acceptance": _num(h.acceptance, 6), "candidates": h.candidates,
            "deals": h.kept, "requested": h.requested, "short": h.short, "told": told,
            "score": None if h.scores is None else {"us": h.scores[0], "them": h.scores[1],
                                                    "target": a.rules.target}}


def _calls_obj(a: HandAdvice) -> list | None:
    """Each legal call's worth (schema 3): ``net`` and ``win`` as ``{"table", "dd"}`` pairs."""
    if a.calls is None:
        return None
    out = []
    table = a.recommendation.play == "table"
    for r in a.calls.itertuples():
        def pair(name):
            m = {"mean": _num(getattr(r, name)), "lo": _num(getattr(r, f"{name}_lo")),
                 "hi": _num(getattr(r, f"{name}_hi"))}
            d = {"mean": _num(getattr(r, f"{name}_dd")), "lo": _num(getattr(r, f"{name}_dd_lo")),
                 "hi": _num(getattr(r, f"{name}_dd_hi"))}
            return _pair(m if table else None, d)

        win = None if math.isnan(r.win) else pair("win")
        out.append({"call": r.call, "strain": r.strain if isinstance(r.strain, str) else None, "net": pair("net"),
                    "win": win, "recommended": r.call == a.recommendation.call,
                    "declares": {"you": _num(r.you), "partner": _num(r.partner), "opponents": _num(r.opponents),
                                 "thrown_in": _num(r.thrown_in)}})
    return out


def _to_dict(a: HandAdvice) -> dict:
    table = a.table
    strains = {}
    for key in a.points.index:
        pr = a.points.loc[key]
        mk = a.make[a.make["strain"] == key]
        tp = ({"mean": _num(pr["table_mean"]), "lo": _num(pr["table_lo"]), "hi": _num(pr["table_hi"]),
               "sd": _num(pr["table_sd"])} if table else None)
        strains[key] = {
            "points": _pair(tp, {"mean": _num(pr["mean"]), "lo": _num(pr["lo"]), "hi": _num(pr["hi"]),
                                 "sd": _num(pr["sd"]), "min": int(pr["min"]), "max": int(pr["max"])}),
            "make": {str(r.bid): _pair(_p_obj(r.table_p, r.table_lo, r.table_hi) if table else None,
                                       _p_obj(r.p, r.lo, r.hi)) for r in mk.itertuples()},
        }
    bids = []
    for r in a.bids.itertuples():
        by = {k: _pair(_num(getattr(r, f"table_exp_{k}")) if table else None, _num(getattr(r, f"exp_{k}")))
              for k in a.points.index if not math.isnan(getattr(r, f"exp_{k}"))}
        bids.append({"bid": r.bid, "nt": bool(r.nt), "legal": bool(r.legal), "strain": r.strain,
                     "make": _pair(_p_obj(r.table_p, r.table_p_lo, r.table_p_hi) if table else None,
                                   _p_obj(r.p, r.p_lo, r.p_hi)),
                     "expected": _pair({"mean": _num(r.table_expected), "lo": _num(r.table_lo),
                                        "hi": _num(r.table_hi)} if table else None,
                                       {"mean": _num(r.expected), "lo": _num(r.lo), "hi": _num(r.hi)}),
                     "by_strain": by})
    rec = a.recommendation
    out = {
        "schema": SCHEMA,
        "version": __version__,
        "hand": a.hand_text,
        "seat": Seat(a.seat).name,
        "dealer": Seat(a.dealer).name,
        "deals": a.n,
        "seed": a.seed,
        "rules": a.rules.to_dict(),
        "play": _play_obj(a),
        "current_bid": None if a.auction.current is None else str(a.auction.current),
        "legal_calls": a.auction.legal_texts,
        "strains": strains,
        "bids": bids,
        "recommendation": {
            "call": rec.call, "strain": rec.strain, "expected": _mean_pair(rec.play, rec.expected, rec.expected_dd),
            "forced": rec.forced, "limit": rec.limit, "limit_strain": rec.limit_strain, "versus": rec.versus,
            "difference": _mean_pair(rec.play, rec.difference, rec.difference_dd), "clear": rec.clear,
            "tie": rec.tie, "reason": rec.reason, "basis": rec.basis,
            "value": _mean_pair(rec.play, rec.value, rec.value_dd),
        },
        "trump": _trump_obj(a.trump),
        "auction": _auction_obj(a),
        "calls": _calls_obj(a),
        "verdict": a.verdict,
        "match": None,
        "specials": None,
        "notes": list(a.notes),
    }
    if a.match is not None:
        m = a.match
        t = m.play == "table"
        make = None
        if m.p_make is not None:
            make = _pair(_p_obj(*m.p_make), _p_obj(*m.p_make_dd)) if t else _pair(None, _p_obj(*m.p_make))
        out["match"] = {"bid": m.bid, "allowed": m.allowed, "strain": m.strain,
                        "expected": _mean_pair(m.play, m.expected, m.expected_dd), "make": make,
                        "decision": m.decision, "reason": m.reason}
    if a.specials is not None:
        s = a.specials
        out["specials"] = {
            "strain": s.strain,
            "dealt": {card: {h: _p_obj(p, lo, hi) for h, (k, p, lo, hi) in d.items()} for card, d in s.dealt.items()},
            "worth_5h": _mean_obj(s.worth_5h),
            "cost_3s": _mean_obj(s.cost_3s),
        }
    return out


def _pct(p: float) -> str:
    return f"{100 * p:.1f}"


def _p_cell(p, lo, hi) -> str:
    return f"{_pct(p)} ({_pct(lo)}-{_pct(hi)})"


def _bracket(m: MeanCI, sign: float = 1.0) -> str:
    """``0.08 [-0.05, 0.21]`` (``sign`` -1 for the reversed difference)."""
    lo, hi = sorted((sign * m.lo, sign * m.hi))
    return f"{sign * m.mean:.2f} [{lo:.2f}, {hi:.2f}]"


def _trump_text(t: TrumpChoice) -> str:
    """``Trump: spades (diamonds within 0.08 [-0.05, 0.21] points: a tie).``: the
    paired difference trump - runner-up in mean points (table play, DD
    beside it; or DD) on the reporting deals."""
    name = STRAIN_NAMES[t.strain]
    if t.runner_up is None or t.difference is None:
        return f"Trump: {name} (the only strain a plain bid may be played in)."
    other = STRAIN_NAMES[t.runner_up]
    d = t.difference
    table = t.play == "table" and t.difference_dd is not None

    def pts(sign=1.0):
        if not table:
            return "points"
        return f"points in table play, {_bracket(t.difference_dd, sign)} double dummy"

    if not t.tie:
        how = f"better than {other} by {_bracket(d)} {pts()}"
    elif d.mean >= 0:
        how = f"{other} within {_bracket(d)} {pts()}: a tie"
    elif d.hi >= 0:
        how = f"{other} ahead by {_bracket(d, -1)} {pts(-1)} on the reporting deals: a tie"
    else:
        how = (f"{other} ahead by {_bracket(d, -1)} {pts(-1)} on the reporting deals, though {name} led on the "
               "selection deals: not a clear choice, a tie at best")
    return f"Trump: {name} ({how})."


def _rows_text(t: TrumpChoice, n: int, call_clear: bool) -> str:
    """Where the choices were made and the deals the estimates below use."""
    if t.chosen_on == "all":  # the trump on every deal, the call on the even ones
        head = f"Trump chosen on all {n:,} deals, the call on the {len(range(0, n, 2)):,} even deals"
        if t.reported_on == "all":
            return head + f"; the call was clear there, so the estimates below use all {n:,} deals."
        return (head + f"; the call was not clear there, so the estimates below use only the {t.n_report:,} odd "
                "deals (the per-strain table above: all deals).")
    head = f"Trump and call chosen on the {t.n_select:,} even deals"
    if t.reported_on == "all":
        return head + f"; both clear there, so the estimates below use all {n:,} deals."
    unclear = [w for w, ok in (("the trump", t.clear), ("the call", call_clear)) if not ok]
    verb = "was" if len(unclear) == 1 else "were"
    return (head + f"; {' and '.join(unclear)} {verb} not clear there, so the estimates below use only the "
            f"{t.n_report:,} odd deals (the per-strain table above: all deals).")


def _strain_lines(a: HandAdvice, title: str, prefix: str) -> list[str]:
    """The per-strain table of one measure (``prefix`` "" for DD, "table_")."""
    w = 20
    keys = list(a.points.index)
    lines = [title, "bid   " + "".join(f"{_STRAIN_SHORT[k]:<{w}}" for k in keys).rstrip()]
    mk = a.make.set_index(["strain", "bid"])
    cols = [f"{prefix}p", f"{prefix}lo", f"{prefix}hi"]
    for level in a.levels:
        cells = [_p_cell(*mk.loc[(k, level), cols]) for k in keys]
        lines.append(f"{level:<6}" + "".join(f"{c:<{w}}" for c in cells).rstrip())
    pts = a.points
    mean, lo, hi, sd = (pts[f"{prefix}mean"], pts[f"{prefix}lo"], pts[f"{prefix}hi"], pts[f"{prefix}sd"])
    lines.append("mean  " + "".join(f"{f'{m:.2f} ({x:.2f}-{y:.2f})':<{w}}" for m, x, y in zip(mean, lo, hi)).rstrip())
    lines.append("sd    " + "".join(f"{f'{v:.2f}':<{w}}" for v in sd).rstrip())
    return lines


def _calls_lines(a: HandAdvice) -> list[str]:
    """The table of each legal call's worth (:func:`call_table`)."""
    c = a.calls
    rec = a.recommendation
    t = a.trump
    on = "" if t is None else (f"all {a.n:,} deals" if t.reported_on == "all" else f"the {t.n_report:,} odd deals")
    table = rec.play == "table"
    win = not c["win"].isna().all()
    head = (f"Each call's worth, the rest of the auction played out by the {a.heard.bidders if a.heard else 'ev'} "
            f"model: your side's hand score minus the opponents'"
            + (" in table play (double dummy beside)" if table else " (double dummy)")
            + (", and the chance of winning the match" if win else "") + f" (95% interval, {on})")
    def strain_of(r):
        return r.strain if isinstance(r.strain, str) else None

    w = max([10] + [len(_bid_label(r.call, strain_of(r))) + 2 for r in c.itertuples()])
    cols = f"{'call':<{w}}{'net score':<26}" + (f"{'DD':<9}" if table else "") + \
        (f"{'P(win) %':<22}" if win else "") + "declares: you / partner / opp / none %"
    lines = [head, cols]
    for r in c.itertuples():
        label = _bid_label(r.call, strain_of(r))
        mark = " *" if r.call == rec.call else ""
        net = f"{_signed(r.net)} ({_signed(r.net_lo)} to {_signed(r.net_hi)})"
        line = f"{label + mark:<{w}}{net:<26}" + (f"{_signed(r.net_dd):<9}" if table else "")
        if win:
            line += f"{_p_cell(r.win, r.win_lo, r.win_hi):<22}"
        line += " / ".join(f"{100 * x:.0f}" for x in (r.you, r.partner, r.opponents, r.thrown_in))
        lines.append(line.rstrip())
    lines.append("(* the recommended call)")
    return lines


def format_text(a: HandAdvice) -> str:
    """The printed report of :class:`HandAdvice`."""
    seat, dealer = Seat(a.seat).name, Seat(a.dealer).name
    partner = Seat((a.seat + 2) % 4).name
    side = "N-S" if a.seat % 2 == 0 else "E-W"
    table = a.table
    play = a.play
    how = f"double dummy with {seat} on lead (declaring; partner {partner})"
    if table:
        second = (f"{a.n:,} random deals of the other cards (seed {a.seed}), rules {a.rules.label}, each solved "
                  f"{how};\ntable play (nobody sees the other hands) from the table-play model: see the first note.")
    else:
        second = f"{a.n:,} random deals of the other cards (seed {a.seed}), rules {a.rules.label}, {how}."
        if play is not None and play.requested == "table":
            second += "\nTable play is not available for these rules or this model (first note): double dummy only."
    heard = a.heard
    if heard is not None and heard.heard and a.auction.calls:
        second = second.replace(f"{a.n:,} random deals of the other cards",
                                f"{a.n:,} deals of the other cards consistent with the calls under the "
                                f"{heard.bidders} bidding model ({heard.kept:,} of {heard.candidates:,} candidates, "
                                f"{100 * heard.acceptance:.3g}%)")
    if heard is not None and heard.heard and a.auction.calls:
        said = f", calls heard {heard_text(a.auction)}"
    elif a.auction.current is not None:
        said = f", current bid {a.auction.current} (the deals not conditioned on it)"
    else:
        said = ""
    if heard is not None and heard.scores is not None:
        said += f", score {heard.scores[0]}-{heard.scores[1]} (you-them, target {a.rules.target})"
    lines = [
        *([a.verdict] if a.verdict else []),
        f"Hand advisor: {seat} holds {a.hand_text}, {dealer} deals{said}",
        second,
        *(["This hand may demand a redeal under these rules (see the notes)."]
          if any(t.startswith("This hand may demand a redeal") for t in a.notes) else []),
        *([told_text(heard)] if heard is not None and heard.heard and heard.told else []),
        *([f"Only {heard.kept:,} of the {heard.requested:,} deals asked for are consistent with the calls "
           f"within {heard.candidates:,} candidates: the advice uses those."] if heard is not None and heard.short
          else []),
        "",
    ]
    if table:
        lines += _strain_lines(a, f"Chance that {side} take at least the bid in table play, % (95% interval)",
                               "table_")
        lines += [""] + _strain_lines(a, "Double dummy (all four hands seen), % (95% interval)", "")
    else:
        lines += _strain_lines(a, f"Chance that {side} take at least the bid, % (95% interval)", "")
    t = a.trump
    if t is not None:
        lines += ["", _trump_text(t), _rows_text(t, a.n, a.recommendation.clear)]
    trump_name = STRAIN_NAMES[t.strain] if t is not None else "the hand's trump"
    bw = max([6] + [len(b) + 1 for b in a.bids["bid"]])  # "7NT-low" needs a wider column
    on = "" if t is None else (f", all {a.n:,} deals" if t.reported_on == "all" else f", the {t.n_report:,} odd deals")
    if table:
        lines += ["", f"Expected hand score of each bid in table play (double dummy beside it), plain bids in "
                  f"{trump_name}, NT bids in no trump (95% interval{on})",
                  f"{'bid':<{bw}}{'strain':<8}{'makes %':<20}{'DD %':<8}{'expected score':<28}{'DD':<9}legal"]
        for r in a.bids.itertuples():
            exp = f"{_signed(r.table_expected)} ({_signed(r.table_lo)} to {_signed(r.table_hi)})"
            lines.append(f"{r.bid:<{bw}}{_STRAIN_SHORT[r.strain]:<8}"
                         f"{_p_cell(r.table_p, r.table_p_lo, r.table_p_hi):<20}{_pct(r.p):<8}{exp:<28}"
                         f"{_signed(r.expected):<9}" + ("yes" if r.legal else "no"))
    else:
        lines += ["", f"Expected hand score of each bid, plain bids in {trump_name}, NT bids in no trump "
                  f"(95% interval{on})",
                  f"{'bid':<{bw}}{'strain':<8}{'makes %':<20}{'expected score':<28}legal"]
        for r in a.bids.itertuples():
            exp = f"{_signed(r.expected)} ({_signed(r.lo)} to {_signed(r.hi)})"
            lines.append(f"{r.bid:<{bw}}{_STRAIN_SHORT[r.strain]:<8}{_p_cell(r.p, r.p_lo, r.p_hi):<20}{exp:<28}"
                         + ("yes" if r.legal else "no"))
    rec = a.recommendation
    if a.calls is not None and len(a.calls):
        lines += [""] + _calls_lines(a)
    lines.append("")
    if rec.call == "pass":
        lines.append(f"Recommended: pass ({rec.reason}).")
    else:
        lines.append(f"Recommended: {_bid_label(rec.call, rec.strain)} ({rec.reason}).")
    if rec.limit is not None and rec.value is not None:
        if rec.limit != rec.call:
            row = a.calls.set_index("call").loc[rec.limit]
            lines.append(f"Worth bidding up to {_bid_label(rec.limit, rec.limit_strain)} "
                         f"({_value_text(MeanCI(row['win' if rec.basis == 'win' else 'net'], row[('win' if rec.basis == 'win' else 'net') + '_lo'], row[('win' if rec.basis == 'win' else 'net') + '_hi'], np.nan, np.nan, 0), rec.basis)}): "
                         "the highest bid still worth at least passing.")
    elif rec.limit is not None:
        row = a.bids[a.bids["bid"] == rec.limit].iloc[0]
        if table:
            lines.append(f"Worth bidding up to {_bid_label(rec.limit, rec.limit_strain)} "
                         f"({_signed(row['table_expected'])}, {_signed(row['table_lo'])} to "
                         f"{_signed(row['table_hi'])} in table play; double dummy {_signed(row['expected'])}): "
                         "the highest legal bid with a positive expected score.")
        else:
            lines.append(f"Worth bidding up to {_bid_label(rec.limit, rec.limit_strain)} "
                         f"({_signed(row['expected'])}, {_signed(row['lo'])} to {_signed(row['hi'])}): "
                         "the highest legal bid with a positive expected score.")
    if a.match is not None:
        m = a.match
        lines.append(f"As dealer facing {m.bid}: {m.decision} ({m.reason}).")
    if a.specials is not None:
        s = a.specials
        lines += ["", f"The 5H and the 3S (strain {_STRAIN_SHORT[s.strain]}, double dummy)"]
        for card in ("5H", "3S"):
            d = s.dealt[card]
            mine = d["declarer"][1] == 1.0
            lines.append(f"{card} dealt to: " + ("you (declarer), on every deal" if mine else ", ".join(
                f"{h} {_p_cell(p, lo, hi)}%" for h, (k, p, lo, hi) in d.items() if h != "declarer")))
        lines.append(f"Of the 5H's +5, {side} keep {_ci_text(s.worth_5h)} points (double dummy: who takes it).")
        lines.append(f"Of the 3S's -3, {side} take {_ci_text(s.cost_3s)} points (double dummy: who takes it).")
    lines += ["", "Notes:"] + [f"- {t}" for t in a.notes]
    return "\n".join(lines)


# --- the chart -------------------------------------------------------------------------------

PLOT_FORMATS = ("png", "svg", "pdf")


def plot_format(path) -> str:
    """The image format of ``path`` from its extension; :class:`AdvisorInputError`
    if it is not one of :data:`PLOT_FORMATS`."""
    ext = str(path).rsplit(".", 1)[-1].lower() if "." in str(path) else ""
    if ext not in PLOT_FORMATS:
        raise AdvisorInputError(f"--plot {path}: give a file ending in " + ", ".join(f".{e}" for e in PLOT_FORMATS))
    return ext


def plot_make_probability(a: HandAdvice, ax=None):
    """Make probability by bid, one line per strain with its 95% band: table
    play (solid, DD dashed beside it) when the advice is on table play, else
    DD (Wilson bands).  Returns the Figure."""
    import matplotlib.pyplot as plt

    if ax is None:
        fig, ax = plt.subplots(figsize=(7, 4.5))
    else:
        fig = ax.figure
    pre = "table_" if a.table else ""
    for key in a.points.index:
        d = a.make[a.make["strain"] == key]
        line, = ax.plot(d["bid"], 100 * d[f"{pre}p"], marker="o",
                        label=f"{_STRAIN_SHORT[key]} ({STRAIN_NAMES[key]})")
        ax.fill_between(d["bid"], 100 * d[f"{pre}lo"], 100 * d[f"{pre}hi"], color=line.get_color(), alpha=0.15,
                        linewidth=0)
        if a.table:
            ax.plot(d["bid"], 100 * d["p"], linestyle="--", linewidth=0.8, color=line.get_color())
    what = "table play (dashed: double dummy)" if a.table else "double dummy"
    ax.set_title(f"Make probability by bid, {what}: {Seat(a.seat).name} holds {a.hand_text}", fontsize="medium")
    ax.set_xlabel("bid (points the declaring side must take)")
    ax.set_ylabel("P(make), %")
    ax.set_xticks(a.levels)
    ax.set_ylim(-2, 102)
    ax.grid(alpha=0.3)
    ax.legend(title="strain", fontsize="small")
    band = ("table play: PIMC-player model over DD values, bands: mean +- 1.96 SE over deals" if a.table
            else "double dummy, bands: 95% Wilson intervals")
    import textwrap

    heard = a.heard
    deals = (f"{a.n:,} deals consistent with {heard_text(a.auction)} under the {heard.bidders} model"
             if heard is not None and heard.heard and a.auction.calls else f"{a.n:,} deals")
    footer = (f"{deals}, seed {a.seed}, rules {a.rules.label}; {Seat(a.seat).name} on lead; {band}; "
              f"kaiser-sim {__version__}")
    # wrapped to the figure's width (7 inches at 7 points: about 125 characters a line)
    fig.text(0.01, 0.01, "\n".join(textwrap.wrap(footer, 120)), fontsize=7, color="0.4", va="bottom")
    fig.subplots_adjust(bottom=0.2)
    return fig


def save_plot(a: HandAdvice, path) -> None:
    """Draw :func:`plot_make_probability` and save it to ``path`` (format from
    the extension: png, svg or pdf)."""
    import matplotlib.pyplot as plt

    fmt = plot_format(path)
    fig = plot_make_probability(a)
    try:
        from ..figures import save_figure

        save_figure(fig, path, fmt)
    finally:
        plt.close(fig)


__all__ = [
    "SCHEMA",
    "STRAIN_KEYS",
    "AdvisorInputError",
    "AuctionContext",
    "HandAdvice",
    "MatchAdvice",
    "Recommendation",
    "DealScores",
    "PLAY_CHOICES",
    "PlayInfo",
    "Specials",
    "TrumpChoice",
    "advise",
    "advisor_deals",
    "auction_context",
    "bid_table",
    "check_rules",
    "choose_call",
    "choose_trump",
    "make_table",
    "plot_make_probability",
    "point_values",
    "points_table",
    "read_hand",
    "recommend",
    "report_rows",
    "report_trump",
    "save_plot",
    "selection_rows",
    "table_play_for",
    "table_play_note",
    "trump_candidates",
]

"""The hand advisor: what one Kaiser hand is worth, bid by bid and strain by strain.

A player gives the 8 cards they hold and their seat.  :func:`advise` deals
the other 24 cards at random ``n`` times (:func:`advisor_deals`, the same
deals as ``deal_batch(n, seed, fixed={seat: hand})``), solves every deal
double dummy in all five strains with this hand on lead (in Kaiser the
declarer leads, so this seat declares and its side is the declaring side),
and turns the ``(n, 5)`` values into:

- per strain: P(the declaring side takes at least b points) for every bid
  level b, with Wilson 95% intervals; the mean and spread of its points;
- per bid of the rules' ladder: the expected hand score (made: the raw
  points, NT doubled per ``nt_scoring``; failed: minus the bid, NT doubled
  per the rules; :func:`kaiser_sim.scoring.score_hands`), the trump suit
  chosen once for the hand (the strain with the best expected score at
  that bid, not deal by deal: the declarer names trump without seeing the
  other hands);
- the recommended call among the legal ones (:func:`auction_context`: the
  dealer, a bid already made, the forced dealer bid), the highest bid still
  worth making, and for a dealer facing ``current_bid`` whether to match;
- the 5H and 3S: where they are dealt, and what each is worth to the
  declaring side double dummy (:class:`Specials`, method below).

Everything is a pure function of (hand, seat, dealer, n, seed, rules,
current bid); :class:`HandAdvice` carries the results as DataFrames and
dataclasses, prints them (:meth:`HandAdvice.to_text`), serialises them
(:meth:`HandAdvice.to_dict`, schema :data:`SCHEMA`, documented in the
README) and draws them (:func:`plot_make_probability`).

The 5H and 3S
-------------
The solver returns values, not the play, so who *captures* the special
cards is not known; "points minus tricks" mixes two different optimal
lines and is not used.  Instead, on the strain of the recommendation:

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
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from . import __version__, solver
from .auction import AuctionError, Bid, bid_rank, ladder, legal_calls, strain_choices
from .cards import (
    FIVE_HEARTS_BIT,
    THREE_SPADES_BIT,
    NotationError,
    Seat,
    format_hand,
    parse_hand,
    popcount,
)
from .deal import deal_batch
from .rules import MAX_BID, Rules, get_preset
from .scoring import score_hands
from .stats import MeanCI, mean_ci, wilson_interval

#: name and version of the JSON document written by :meth:`HandAdvice.to_dict`
SCHEMA = "kaiser-sim/hand-advice/1"

#: strain keys, in the solver's column order (N is no trump)
STRAIN_KEYS = ("S", "H", "D", "C", "N")
STRAIN_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "N": "no trump"}
_STRAIN_SHORT = {"S": "S", "H": "H", "D": "D", "C": "C", "N": "NT"}

#: holders of a special card, as seen from the hand's seat
HOLDERS = ("declarer", "partner", "opponents")


class AdvisorInputError(ValueError):
    """A hand, seat, bid or rules set the advisor cannot work with; the
    message names the problem.  Exit status 2 on the command line."""


# --- the solver call ---------------------------------------------------------------------


def _dd_strains(deals, leader: int, mode: str = "points", **special_bits) -> np.ndarray:
    """``(n, 5)`` int8: the five strains S H D C N with ``leader`` on lead
    (``solver.dd_strains``: a quarter of ``dd_table``'s work); ``special_bits``
    (``five=``, ``three=``) are passed through."""
    return np.asarray(solver.dd_strains(deals, leader, mode, **special_bits))


# --- input -----------------------------------------------------------------------------


def check_rules(rules: Rules) -> None:
    """Refuse rules whose play the advisor does not model yet
    (:class:`AdvisorInputError` naming the option)."""
    if rules.kitty != "none":
        raise AdvisorInputError(f"the hand advisor does not handle a kitty yet (rules kitty={rules.kitty})")
    if rules.low_nt != "off":
        raise AdvisorInputError(f"the hand advisor does not handle low no trump yet (rules low_nt={rules.low_nt})")
    if rules.cover3:
        raise AdvisorInputError("the hand advisor does not handle 'cover 3' (rules cover3=true): "
                                "its points are not the solver's")


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


def advisor_deals(hand: int, seat: int, n: int, seed: int, rules: Rules) -> np.ndarray:
    """The ``n`` deals the advisor solves: ``deal_batch(n, seed, fixed={seat:
    hand})``, so the same deals as ``kaiser-sim simulate --fix SEAT=HAND``
    with the same seed."""
    return deal_batch(int(n), int(seed), fixed={int(seat): int(hand)}, hand_size=rules.hand_size,
                      deck34=rules.deck34)


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


# --- results ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Recommendation:
    """The call to make.

    call : ``"pass"`` or the bid (``"7"``, ``"7NT"``).
    strain : the strain to play (S H D C N), None for a pass.
    expected : the bid's expected hand score, None for a pass (counted 0).
    forced : this seat is the dealer, the others passed, it must bid.
    limit, limit_strain : the highest legal bid whose expected score is
        above 0 (how far to compete), or None.
    versus, difference : the best legal call in another strain (or pass)
        and how much better the recommended call is on the same deals (a
        paired difference), or None.
    reason : one sentence saying why.
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


@dataclass(frozen=True)
class MatchAdvice:
    """A dealer facing ``bid``: match it (take the contract at its level) or
    pass.  ``allowed`` is False when the rules forbid matching.  Passing is
    counted 0 (the opponents' score is not computed)."""

    bid: str
    allowed: bool
    strain: str | None
    expected: MeanCI | None
    p_make: tuple[float, float, float] | None  # (p, lo, hi)
    decision: str  # "match" or "pass"
    reason: str


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

    values : ``(n, 5)`` int8, DD points of the declaring side per deal and strain.
    points : one row per strain (index S H D C N): mean, lo, hi, sd, min, max.
    make : one row per (strain, bid level): k, n, p, lo, hi.
    bids : one row per bid of the ladder: bid, nt, legal, strain (the best
        one for this hand), p, p_lo, p_hi, expected, lo, hi, and
        ``exp_<strain>`` for every strain the bid may be played in.
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
    return STRAIN_KEYS[int(strain)]


def make_table(values: np.ndarray, levels) -> pd.DataFrame:
    """One row per (strain, level): deals where the declaring side takes at
    least ``level`` points, with the Wilson 95% interval."""
    v = np.asarray(values, dtype=np.int64)
    n = v.shape[0]
    lv = np.asarray(list(levels), dtype=np.int64)
    k = (v[:, :, None] >= lv[None, None, :]).sum(axis=0)  # (5, levels)
    lo, hi = wilson_interval(k, n)
    rows = []
    for s, key in enumerate(STRAIN_KEYS):
        for j, level in enumerate(lv):
            rows.append((key, int(level), int(k[s, j]), n, k[s, j] / n, float(lo[s, j]), float(hi[s, j])))
    return pd.DataFrame(rows, columns=["strain", "bid", "k", "n", "p", "lo", "hi"])


def points_table(values: np.ndarray) -> pd.DataFrame:
    """One row per strain: mean points of the declaring side with its 95%
    interval, the standard deviation, the least and the most."""
    v = np.asarray(values, dtype=np.int64)
    m = mean_ci(v, axis=0)
    return pd.DataFrame(
        {"mean": m.mean, "lo": m.lo, "hi": m.hi, "sd": m.sd, "min": v.min(axis=0), "max": v.max(axis=0)},
        index=pd.Index(STRAIN_KEYS, name="strain"),
    )


def bid_table(values: np.ndarray, rules: Rules, seat: int, legal) -> tuple[pd.DataFrame, dict]:
    """Expected hand score of every bid of the ladder (best strain for this
    hand) and the per-deal scores ``{bid text: (n,) array}`` of that strain."""
    v = np.asarray(values, dtype=np.int64)
    n = v.shape[0]
    rows, per_deal = [], {}
    for bid in ladder(rules):
        choices = [s for s, low in strain_choices(rules, bid) if not low]
        means = {}
        scores = {}
        for s in choices:
            sc = _score(rules, bid, seat, v[:, s])
            scores[s] = sc
            means[s] = float(sc.mean())
        best = max(choices, key=lambda s: means[s])  # ties: first in S H D C N order
        m = mean_ci(scores[best])
        k = int((v[:, best] >= bid.level).sum())
        plo, phi = wilson_interval(k, n)
        row = {"bid": str(bid), "nt": bid.nt, "legal": bid in legal, "strain": _strain_key(best),
               "p": k / n, "p_lo": plo, "p_hi": phi, "expected": m.mean, "lo": m.lo, "hi": m.hi}
        for s in range(len(STRAIN_KEYS)):
            row[f"exp_{STRAIN_KEYS[s]}"] = means.get(s, np.nan)
        rows.append(row)
        per_deal[str(bid)] = scores[best]
    return pd.DataFrame(rows), per_deal


def _signed(x: float, digits: int = 2) -> str:
    return f"{x:+.{digits}f}"


def _ci_text(m: MeanCI, digits: int = 2) -> str:
    return f"{_signed(m.mean, digits)} ({_signed(m.lo, digits)} to {_signed(m.hi, digits)})"


def _bid_label(bid: str, strain: str | None) -> str:
    if strain is None or bid.endswith("NT"):
        return bid
    if strain == "N":
        return f"{bid} played in no trump"
    return f"{bid} in {STRAIN_NAMES[strain]}"


def recommend(bids: pd.DataFrame, per_deal: dict, ctx: AuctionContext, rules: Rules) -> Recommendation:
    """The best legal call by expected hand score, passing counted 0."""
    legal = bids[bids["legal"]]
    n = len(next(iter(per_deal.values())))
    zeros = np.zeros(n)
    options = [("pass", None, zeros)] if not ctx.forced else []
    options += [(r.bid, r.strain, per_deal[r.bid]) for r in legal.itertuples()]
    if not options:  # nothing legal but pass is impossible; legal always holds pass or a bid
        raise AdvisorInputError("no legal call")
    means = [o[2].mean() for o in options]
    order = sorted(range(len(options)), key=lambda i: -means[i])  # stable: ties keep ladder order
    best = options[order[0]]
    positive = legal[legal["expected"] > 0]
    limit = positive.iloc[-1] if len(positive) else None
    # compare with the best call of another kind (another strain, or pass):
    # with raw scoring a higher bid in the same strain never scores more, so
    # the runner-up on the ladder would say nothing
    versus, diff = None, None
    others = [i for i in order[1:] if options[i][1] != best[1]]
    if others:
        other = options[others[0]]
        versus = _bid_label(other[0], other[1]) if other[0] != "pass" else "pass"
        diff = mean_ci(best[2] - other[2])
    expected = mean_ci(best[2]) if best[0] != "pass" else None

    if best[0] == "pass":
        if ctx.current is not None:
            reason = f"no legal bid over {ctx.current} has a positive expected score"
        else:
            reason = "no bid has a positive expected score"
    else:
        reason = f"the best expected hand score of the legal calls: {_ci_text(expected)}"
        if ctx.forced:
            reason = (f"{Seat(ctx.seat).name} deals and the others passed: a bid of at least "
                      f"{rules.min_bid} is forced; " + reason)
        elif expected.lo <= 0 and versus != "pass":
            reason += "; not clearly better than passing (the interval reaches 0)"
    if diff is not None:
        if diff.lo > 0:
            reason += f"; better than {versus} by {_ci_text(diff)}"
        else:
            reason += f"; not clearly better than {versus} (difference {_ci_text(diff)})"
    return Recommendation(
        call=best[0],
        strain=best[1],
        expected=expected,
        forced=ctx.forced,
        limit=None if limit is None else limit["bid"],
        limit_strain=None if limit is None else limit["strain"],
        versus=versus,
        difference=diff,
        reason=reason,
    )


def match_advice(bids: pd.DataFrame, per_deal: dict, ctx: AuctionContext, rules: Rules,
                 rec: Recommendation) -> MatchAdvice | None:
    """For a dealer facing a bid: match it or pass (None otherwise); ``rec``
    (:func:`recommend`) tells whether an overbid scores more."""
    if not ctx.is_dealer or ctx.current is None:
        return None
    bid = str(ctx.current)
    if not rules.dealer_match:
        return MatchAdvice(bid, False, None, None, None, "pass",
                           "the rules do not let the dealer match (dealer_match=false): overbid or pass")
    row = bids[bids["bid"] == bid].iloc[0]
    m = mean_ci(per_deal[bid])
    take = m.mean > 0
    how = "" if (m.lo > 0 or m.hi < 0) else ", but the interval reaches 0: a close call"
    what = _bid_label(bid, row["strain"])
    if rec.call not in ("pass", bid) and rec.expected.mean > m.mean:
        how += f"; overbidding with {_bid_label(rec.call, rec.strain)} scores more ({_ci_text(rec.expected)})"
    if take:
        reason = f"matching ({what}) scores {_ci_text(m)} on average{how}"
    else:
        reason = f"matching ({what}) scores {_ci_text(m)} on average: pass{how}"
    return MatchAdvice(bid, True, row["strain"], m, (row["p"], row["p_lo"], row["p_hi"]),
                       "match" if take else "pass", reason)


def specials_table(deals: np.ndarray, values: np.ndarray, seat: int, strain: int) -> Specials:
    """Where the 5H and 3S are dealt, and their DD worth in ``strain`` (two
    extra single-strain solves of every deal; see the module doc)."""
    n = deals.shape[0]
    partner = (seat + 2) % 4
    dealt = {}
    for name, bit in (("5H", FIVE_HEARTS_BIT), ("3S", THREE_SPADES_BIT)):
        mine = (deals[:, seat] & bit) != 0
        part = (deals[:, partner] & bit) != 0
        counts = {"declarer": int(mine.sum()), "partner": int(part.sum())}
        counts["opponents"] = n - counts["declarer"] - counts["partner"]
        lo, hi = wilson_interval(np.array(list(counts.values())), n)
        dealt[name] = {h: (counts[h], counts[h] / n, float(lo[i]), float(hi[i])) for i, h in enumerate(HOLDERS)}
    v = np.asarray(values[:, strain], dtype=np.int64)
    # only the one strain is needed: one solve a deal for each special
    leaders = np.full(n, seat, dtype=np.int64)
    strains = np.full(n, strain, dtype=np.int64)
    no5 = solver.dd_contracts(deals, leaders, strains, "points", five=np.uint64(0)).astype(np.int64)
    no3 = solver.dd_contracts(deals, leaders, strains, "points", three=np.uint64(0)).astype(np.int64)
    return Specials(_strain_key(strain), dealt, mean_ci(v - no5), mean_ci(no3 - v))


def _notes(rules: Rules, ctx: AuctionContext, specials: bool) -> tuple[str, ...]:
    side = "N-S" if ctx.seat % 2 == 0 else "E-W"
    notes = [
        "The other 24 cards are dealt uniformly at random: the deals are not conditioned on "
        "the other players' calls.",
        f"Values are double dummy (all hands visible, best play by both sides) with {Seat(ctx.seat).name} "
        f"on lead, i.e. declaring; 'points' are {side}'s raw points (tricks, +5 for the 5H, -3 for the 3S).",
        "A plain bid's trump is chosen once for this hand (the strain with the best expected score at "
        "that bid), not deal by deal.",
        "Expected hand score: made = the raw points (NT: "
        + {"double": "doubled; failed NT loses twice the bid",
           "double-made": "doubled; failed NT loses the bid once",
           "single": "not doubled"}[rules.nt_scoring]
        + ("" if rules.made_scores == "raw" else "; a made bid scores exactly the bid")
        + "), failed = minus the bid.  Passing counts 0: what the opponents would score if they "
        "play is not computed (it depends on who declares in what).",
        "The dealer decides only what may be bid (matching, the forced bid), not the values.",
        "Intervals are 95%: Wilson for probabilities, mean +- 1.96 standard errors for means.",
    ]
    if specials:
        notes.append(
            "5H/3S: 'dealt' is where the card starts, not who captures it (the solver returns values, "
            "not the play).  'worth of the 5H' = DD points minus DD points with the 5H counting 0 "
            "(0..5; 5 = the declaring side takes it against any defence); 'cost of the 3S' = DD points "
            "with the 3S counting 0 minus DD points (0..3; 3 = it cannot be avoided)."
        )
    return tuple(notes)


def advise(hand, seat="N", dealer=None, n: int = 2000, seed: int = 0, rules: Rules | None = None,
           current_bid=None, specials: bool = True) -> HandAdvice:
    """Analyse one hand: see the module doc.

    Parameters
    ----------
    hand : notation (``AKQ9.5.AK.7``, ``AS KS 5H ...``) or a bitboard.
    seat : the hand's seat (N E S W, default N); it leads, i.e. declares.
    dealer : the dealer's seat; default the seat on ``seat``'s right (this
        seat speaks first).  Changes only the legal calls.
    n : random deals of the other cards (at least 1).
    seed : the run's seed; the deals are ``deal_batch(n, seed, fixed={seat: hand})``.
    rules : the rules (default ``standard``).
    current_bid : the highest bid so far (``"8"``, ``"8NT"``), or None.
    specials : also measure the 5H and 3S (two more solves of every deal).

    Raises
    ------
    AdvisorInputError for a bad hand, seat, bid or unsupported rules; all
    input is checked before anything is dealt or solved.
    """
    rules = get_preset("standard") if rules is None else rules
    check_rules(rules)
    mask = read_hand(hand, rules)
    if int(n) < 1:
        raise AdvisorInputError("the number of deals must be at least 1")
    if int(seed) < 0:
        raise AdvisorInputError("the seed must be >= 0")
    ctx = auction_context(rules, seat, dealer, current_bid)
    deals = advisor_deals(mask, ctx.seat, n, seed, rules)
    values = _dd_strains(deals, ctx.seat, "points")
    levels = range(rules.min_bid, MAX_BID + 1)
    bids, per_deal = bid_table(values, rules, ctx.seat, ctx.legal)
    rec = recommend(bids, per_deal, ctx, rules)
    pts = points_table(values)
    spec = None
    if specials:
        strain = STRAIN_KEYS.index(rec.strain) if rec.strain is not None else int(np.argmax(pts["mean"].to_numpy()))
        spec = specials_table(deals, values, ctx.seat, strain)
    return HandAdvice(
        hand=mask, seat=ctx.seat, dealer=ctx.dealer, n=int(n), seed=int(seed), rules=rules, auction=ctx,
        values=values, points=pts, make=make_table(values, levels), bids=bids, recommendation=rec,
        match=match_advice(bids, per_deal, ctx, rules, rec), specials=spec, notes=_notes(rules, ctx, specials),
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


def _to_dict(a: HandAdvice) -> dict:
    strains = {}
    for key in STRAIN_KEYS:
        pr = a.points.loc[key]
        mk = a.make[a.make["strain"] == key]
        strains[key] = {
            "points": {"mean": _num(pr["mean"]), "lo": _num(pr["lo"]), "hi": _num(pr["hi"]),
                       "sd": _num(pr["sd"]), "min": int(pr["min"]), "max": int(pr["max"])},
            "make": {str(r.bid): _p_obj(r.p, r.lo, r.hi) for r in mk.itertuples()},
        }
    bids = []
    for r in a.bids.itertuples():
        by = {k: _num(getattr(r, f"exp_{k}")) for k in STRAIN_KEYS if not math.isnan(getattr(r, f"exp_{k}"))}
        bids.append({"bid": r.bid, "nt": bool(r.nt), "legal": bool(r.legal), "strain": r.strain,
                     "make": _p_obj(r.p, r.p_lo, r.p_hi),
                     "expected": {"mean": _num(r.expected), "lo": _num(r.lo), "hi": _num(r.hi)},
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
        "current_bid": None if a.auction.current is None else str(a.auction.current),
        "legal_calls": a.auction.legal_texts,
        "strains": strains,
        "bids": bids,
        "recommendation": {
            "call": rec.call, "strain": rec.strain, "expected": _mean_obj(rec.expected), "forced": rec.forced,
            "limit": rec.limit, "limit_strain": rec.limit_strain, "versus": rec.versus,
            "difference": _mean_obj(rec.difference), "reason": rec.reason,
        },
        "match": None,
        "specials": None,
        "notes": list(a.notes),
    }
    if a.match is not None:
        m = a.match
        out["match"] = {"bid": m.bid, "allowed": m.allowed, "strain": m.strain, "expected": _mean_obj(m.expected),
                        "make": None if m.p_make is None else _p_obj(*m.p_make), "decision": m.decision,
                        "reason": m.reason}
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


def format_text(a: HandAdvice) -> str:
    """The printed report of :class:`HandAdvice`."""
    seat, dealer = Seat(a.seat).name, Seat(a.dealer).name
    partner = Seat((a.seat + 2) % 4).name
    side = "N-S" if a.seat % 2 == 0 else "E-W"
    lines = [
        f"Hand advisor: {seat} holds {a.hand_text}, {dealer} deals"
        + ("" if a.auction.current is None else f", current bid {a.auction.current}"),
        f"{a.n:,} random deals of the other cards (seed {a.seed}), rules {a.rules.label}, "
        f"double dummy with {seat} on lead (declaring; partner {partner}).",
        "",
        f"Chance that {side} take at least the bid, % (95% interval)",
    ]
    w = 20
    lines.append("bid   " + "".join(f"{_STRAIN_SHORT[k]:<{w}}" for k in STRAIN_KEYS).rstrip())
    mk = a.make.set_index(["strain", "bid"])
    for level in a.levels:
        cells = [_p_cell(*mk.loc[(k, level), ["p", "lo", "hi"]]) for k in STRAIN_KEYS]
        lines.append(f"{level:<6}" + "".join(f"{c:<{w}}" for c in cells).rstrip())
    lines.append("mean  " + "".join(
        f"{f'{r.mean:.2f} ({r.lo:.2f}-{r.hi:.2f})':<{w}}" for r in a.points.itertuples()).rstrip())
    lines.append("sd    " + "".join(f"{f'{r.sd:.2f}':<{w}}" for r in a.points.itertuples()).rstrip())
    lines += ["", "Expected hand score of each bid, best strain for this hand (95% interval)",
              f"{'bid':<6}{'strain':<8}{'makes %':<20}{'expected score':<28}legal"]
    for r in a.bids.itertuples():
        exp = f"{_signed(r.expected)} ({_signed(r.lo)} to {_signed(r.hi)})"
        lines.append(f"{r.bid:<6}{_STRAIN_SHORT[r.strain]:<8}{_p_cell(r.p, r.p_lo, r.p_hi):<20}{exp:<28}"
                     + ("yes" if r.legal else "no"))
    rec = a.recommendation
    lines.append("")
    if rec.call == "pass":
        lines.append(f"Recommended: pass ({rec.reason}).")
    else:
        lines.append(f"Recommended: {_bid_label(rec.call, rec.strain)} ({rec.reason}).")
    if rec.limit is not None:
        row = a.bids[a.bids["bid"] == rec.limit].iloc[0]
        lines.append(f"Worth bidding up to {_bid_label(rec.limit, rec.limit_strain)} "
                     f"({_signed(row['expected'])}, {_signed(row['lo'])} to {_signed(row['hi'])}): "
                     "the highest legal bid with a positive expected score.")
    if a.match is not None:
        m = a.match
        lines.append(f"As dealer facing {m.bid}: {m.decision} ({m.reason}).")
    if a.specials is not None:
        s = a.specials
        lines += ["", f"The 5H and the 3S (strain {_STRAIN_SHORT[s.strain]})"]
        for card in ("5H", "3S"):
            d = s.dealt[card]
            lines.append(f"{card} dealt to: " + ", ".join(
                f"{h} {_p_cell(p, lo, hi)}%" for h, (k, p, lo, hi) in d.items()))
        lines.append(f"Worth of the 5H to {side}: {_ci_text(s.worth_5h)} points of 5 (double dummy).")
        lines.append(f"Cost of the 3S to {side}: {_ci_text(s.cost_3s)} points of 3 (double dummy).")
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
    """Make probability by bid, one line per strain with its 95% Wilson band.
    Returns the Figure."""
    import matplotlib.pyplot as plt

    if ax is None:
        fig, ax = plt.subplots(figsize=(7, 4.5))
    else:
        fig = ax.figure
    for key in STRAIN_KEYS:
        d = a.make[a.make["strain"] == key]
        line, = ax.plot(d["bid"], 100 * d["p"], marker="o", label=f"{_STRAIN_SHORT[key]} ({STRAIN_NAMES[key]})")
        ax.fill_between(d["bid"], 100 * d["lo"], 100 * d["hi"], color=line.get_color(), alpha=0.15, linewidth=0)
    ax.set_title(f"Make probability by bid: {Seat(a.seat).name} holds {a.hand_text}")
    ax.set_xlabel("bid (points the declaring side must take)")
    ax.set_ylabel("P(make), %")
    ax.set_xticks(a.levels)
    ax.set_ylim(-2, 102)
    ax.grid(alpha=0.3)
    ax.legend(title="strain", fontsize="small")
    fig.text(0.01, 0.01, f"{a.n:,} deals, seed {a.seed}, rules {a.rules.label}; double dummy, "
             f"{Seat(a.seat).name} on lead; bands: 95% Wilson intervals; kaiser-sim {__version__}",
             fontsize=7, color="0.4")
    fig.subplots_adjust(bottom=0.18)
    return fig


def save_plot(a: HandAdvice, path) -> None:
    """Draw :func:`plot_make_probability` and save it to ``path`` (format from
    the extension: png, svg or pdf)."""
    import matplotlib.pyplot as plt

    fmt = plot_format(path)
    fig = plot_make_probability(a)
    try:
        from .studies.common import save_figure

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
    "Specials",
    "advise",
    "advisor_deals",
    "auction_context",
    "bid_table",
    "check_rules",
    "make_table",
    "plot_make_probability",
    "points_table",
    "read_hand",
    "save_plot",
]

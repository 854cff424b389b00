"""The hand advisor's results: :class:`HandAdvice` and the objects it carries (the recommendation,
the trump choice, the dealer's match advice, the 5H and 3S), with their JSON (:meth:`HandAdvice.to_dict`,
schema :data:`SCHEMA`) and their text (:meth:`HandAdvice.to_text`, :func:`format_text`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ... import __version__
from ...cards import Seat, format_hand
from ...rules import MAX_BID, Rules
from ...stats import MeanCI
from .inputs import AuctionContext, AuctionInfo, STRAIN_NAMES, STRAIN_SHORT
from .measures import PlayInfo


#: name and version of the JSON document written by :meth:`HandAdvice.to_dict` (2: every make
#: probability and expected score is ``{"table": ..., "dd": ...}``; the choices are on table play;
#: 3: schema 2 plus ``auction`` (the calls heard and how the deals were conditioned on them),
#: ``calls`` (each legal call's worth net of the opponents), ``verdict``, and the recommendation's
#: ``basis`` and ``value``)
SCHEMA = "kaiser-sim/hand-advice/3"


# --- results ------------------------------------------------------------------------------


@dataclass(frozen=True)
class AfterPass:
    """Why a pass holds its own against a bid it ties with: after it, the
    opponents declare ``opponents_declare`` of the deals (a share), and on
    those deals the side's net worth (its score minus theirs, in the advice's
    measure) is ``net_when_they_declare``: where it is positive, their
    contracts cost them on average.  Both on the recommendation's deals."""

    opponents_declare: float
    net_when_they_declare: MeanCI


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
    limit, limit_strain : how far to compete: on ``"net"``/``"win"``, the
        highest legal bid not below the call whose mean worth is at least
        passing's (the call itself for a forced bid, which nobody bids over;
        None for a pass); on ``"score"``, the highest legal bid whose
        expected score is above 0.
    versus, difference : the best-ranked call the recommended one is not
        clearly better than (a tie), else the next best call that differs on
        some deal; the paired difference recommended - versus on the same
        deals as everything else, or None.
    reason : one sentence saying why.
    clear : not ``tie`` (the recommended call is clearly better than every
        other call), or there is no alternative.
    tie : ``difference``'s 95% interval reaches 0 (or lies below it): the
        recommended call is not clearly better than ``versus``.
    basis : what the call was chosen on: ``"net"`` (its worth net of the
        opponents, :mod:`kaiser_sim.strategy.call_worth`), ``"win"`` (the chance of
        winning the match, with a score), or ``"score"`` (the bid's own hand
        score, passing 0: :func:`recommend`).
    value, value_dd : the call's worth on ``basis`` (None for ``"score"``).
    ties : every other call the recommended one is not clearly better than
        on the reporting deals (paired 95% interval reaching 0), best first.
    equivalent : the calls worth exactly the same as it on every reporting
        deal (the same choice: 10NT beside 9NT when both always make).
    fresh : the choice's worth on deals it did not see (chosen on the even
        deals and scored on the odd ones, and the other way round): the
        winner's curse taken out; a number of its own, never a reason to
        recommend another call.  None with fewer than 4 deals.
    over : the lower bid of the same strain the call was preferred to (it
        scores as much as ``over`` whenever it stands, on every deal in both
        measures, and is worth not clearly less: the later seats have fewer
        bids over it), or None; ``over`` is then the top of the calls table
        and a declared tie (``versus``).
    after_pass : why a pass with a positive worth holds its own against the
        bids it ties with (:class:`AfterPass`), or None.
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
    fresh: MeanCI | None = None
    over: str | None = None
    after_pass: AfterPass | None = None


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
        """The JSON document (schema :data:`SCHEMA`, described in docs/reference/schemas.md)."""
        return _to_dict(self)

    def to_json(self, indent: int = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False)

    def to_text(self) -> str:
        """The printed report."""
        return format_text(self)


def signed(x: float, digits: int = 2) -> str:
    return f"{x:+.{digits}f}"


def ci_text(m: MeanCI, digits: int = 2) -> str:
    return f"{signed(m.mean, digits)} ({signed(m.lo, digits)} to {signed(m.hi, digits)})"


def bid_label(bid: str, strain: str | None) -> str:
    if strain is None or bid.endswith("NT-low") or (bid.endswith("NT") and strain == "N"):
        return bid
    if bid.endswith("NT") and strain == "L":
        return f"{bid} played low"
    if strain == "N":
        return f"{bid} played in no trump"
    return f"{bid} in {STRAIN_NAMES[strain]}"


def value_words(basis: str, play: str) -> str:
    what = "chance of winning the match" if basis == "win" else "net score (yours minus the opponents')"
    return what + (" in table play" if play == "table" else " double dummy")


def point_text(x: float, basis: str) -> str:
    """One value on ``basis``: ``-7.20`` (net) or ``41.3%`` (win)."""
    return f"{pct(x)}%" if basis == "win" else signed(x)


def value_text(m: MeanCI, basis: str) -> str:
    if m.lo == m.hi == m.mean:  # the same on every deal: a certainty, no interval around it
        return (f"{pct(m.mean)}%" if basis == "win" else signed(m.mean)) + " on every deal"
    if basis == "win":
        return f"{pct(m.mean)}% ({pct(m.lo)} to {pct(m.hi)})"
    return ci_text(m)


def _seat_word(seat: int, me: int) -> str:
    s = Seat(seat).name
    if seat == me:
        return f"{s} (you)"
    return f"{s} (partner)" if seat == (me + 2) % 4 else s


def heard_text(ctx: AuctionContext) -> str:
    """``W 6, N (partner) pass, E 7``: the calls heard, by seat."""
    return ", ".join(f"{_seat_word((ctx.dealer + 1 + i) % 4, ctx.seat)} {'pass' if c is None else c}"
                     for i, c in enumerate(ctx.calls))


def told_text(heard: AuctionInfo) -> str:
    """One line: what the calls told, against no auction."""
    parts = []
    for seat, t in sorted(heard.told.items(), key=lambda x: x[0]):
        bits = [f"count {t['count']:.1f} (unheard {t['count_unconditioned']:.1f})"]
        for card, key in (("5H", "p_5h"), ("3S", "p_3s")):
            if t[f"{key}_unconditioned"] > 0:
                bits.append(f"{card} {pct(t[key])}% ({pct(t[f'{key}_unconditioned'])}%)")
        parts.append(f"{Seat(seat).name} {t['call']}: " + ", ".join(bits))
    return "What the calls told (mean Kaiser count and where the specials lie; in brackets with no auction): " \
        + "; ".join(parts) + "."


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
            "ess": _num(h.ess if h.ess is not None else h.kept, 2),
            "deals": h.kept, "requested": h.requested, "short": h.short, "told": told,
            "conditioning": h.conditioning,
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
                     "stands": _pair(_num(r.table_stands) if table else None, _num(r.stands)),
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
            "fresh": _mean_obj(rec.fresh),
            "after_pass": None if rec.after_pass is None else {
                "opponents_declare": _num(rec.after_pass.opponents_declare),
                "net_when_they_declare": _mean_obj(rec.after_pass.net_when_they_declare)},
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


def pct(p: float) -> str:
    return f"{100 * p:.1f}"


def _p_cell(p, lo, hi) -> str:
    return f"{pct(p)} ({pct(lo)}-{pct(hi)})"


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
    """The deals the choices and the estimates below use: all of them."""
    return (f"Trump and call chosen on all {n:,} deals, and every number below is on them (one set of "
            "figures); the call's worth on deals it did not see is printed apart (expected on fresh deals).")


def _strain_lines(a: HandAdvice, title: str, prefix: str) -> list[str]:
    """The per-strain table of one measure (``prefix`` "" for DD, "table_")."""
    w = 20
    keys = list(a.points.index)
    lines = [title, "bid   " + "".join(f"{STRAIN_SHORT[k]:<{w}}" for k in keys).rstrip()]
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


def _bidders_name(a: HandAdvice) -> str:
    """The bidding model the later seats called under (the advisor's default, ev, when none was named)."""
    from ... import config

    return a.heard.bidders if a.heard else config.AUCTION_BIDDERS


def _calls_lines(a: HandAdvice) -> list[str]:
    """The table of each legal call's worth (:func:`call_table`)."""
    c = a.calls
    rec = a.recommendation
    t = a.trump
    on = "" if t is None else (f"all {a.n:,} deals" if t.reported_on == "all" else f"the {t.n_report:,} odd deals")
    table = rec.play == "table"
    win = not c["win"].isna().all()
    head = (f"Each call's worth, the rest of the auction played out by the {_bidders_name(a)} "
            f"model: your side's hand score minus the opponents'"
            + (" in table play (double dummy beside)" if table else " (double dummy)")
            + (", and the chance of winning the match" if win else "") + f" (95% interval, {on})")
    def strain_of(r):
        return r.strain if isinstance(r.strain, str) else None

    w = max([10] + [len(bid_label(r.call, strain_of(r))) + 2 for r in c.itertuples()])
    cols = f"{'call':<{w}}{'net score':<26}" + (f"{'DD':<9}" if table else "") + \
        (f"{'P(win) %':<22}" if win else "") + "declares: you / partner / opp / none %"
    from ..policies import population_note  # the population's one line: its build and what it assumes
    lines = [head] + ([population_note(a.rules, rec.play)] if _bidders_name(a) == "population" else []) + [cols]
    for r in c.itertuples():
        label = bid_label(r.call, strain_of(r))
        mark = " *" if r.call == rec.call else ""
        net = f"{signed(r.net)} ({signed(r.net_lo)} to {signed(r.net_hi)})"
        line = f"{label + mark:<{w}}{net:<26}" + (f"{signed(r.net_dd):<9}" if table else "")
        if win:
            line += f"{_p_cell(r.win, r.win_lo, r.win_hi):<22}"
        line += " / ".join(f"{100 * x:.0f}" for x in (r.you, r.partner, r.opponents, r.thrown_in))
        lines.append(line.rstrip())
    lines.append("(* the recommended call)")
    return lines


def pre_emptive(rec: Recommendation, calls: pd.DataFrame | None, bids: pd.DataFrame | None = None
                ) -> tuple[float, float, float] | None:
    """``(the bid's net if left to stand, passing's net, the share of deals
    you declare it)`` when the recommended bid is worth more than passing
    only because the later seats bid over it: left to stand (everyone
    passing after it), its net score -- your side's hand score minus the
    opponents', the measure of the calls' worth -- is a loss (below 0, the
    net of a hand thrown in) and below passing's net.  The call's worth
    assumes the bidding model's later seats, who overcall on their own hands
    and do not weigh letting a failing contract stand; at a table that lets
    it stand, the bid loses.  None for a pass, a forced bid, no call or bid
    table, or a bid that pays on its own (a positive net left to stand: an
    opening on four aces is no pre-empt, whatever passing is worth against
    the model's overcalls)."""
    if (rec.call == "pass" or rec.forced or calls is None or bids is None or rec.basis != "net"
            or "pass" not in set(calls["call"]) or "stands" not in bids.columns):
        return None
    by_call = calls.set_index("call")
    passing = float(by_call.loc["pass", "net"])
    row = bids.set_index("bid").loc[rec.call]
    stands = float(row["table_stands"] if rec.play == "table" else row["stands"])
    return (stands, passing, float(by_call.loc[rec.call, "you"])) if stands < min(0.0, passing) else None


def _pre_emptive_text(a: HandAdvice) -> str | None:
    """The line under the recommendation for a :func:`pre_emptive` bid."""
    rec = a.recommendation
    pre = pre_emptive(rec, a.calls, a.bids)
    if pre is None:
        return None
    stands, passing, you = pre
    measure = "in table play" if rec.play == "table" else "double dummy"
    return (f"A pre-emptive call: you play {bid_label(rec.call, rec.strain)} on {pct(you)}% of these deals; "
            f"its worth comes from the later seats bidding over it under the {_bidders_name(a)} model. Left to "
            f"stand it nets {signed(stands)} (your side's hand score minus the opponents', {measure}), a loss "
            f"and below passing's net {signed(passing)}: against players who would let it stand, pass.")


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
        if heard.description:  # the conditioning says in its own words how (weights or rejection)
            second = second.replace(f"{a.n:,} random deals of the other cards",
                                    f"{a.n:,} deals of the other cards conditioned on the calls: "
                                    f"{heard.description}"
                                    + ("" if heard.ess is None or "effective sample size" in heard.description
                                       else f" (effective sample size {heard.ess:,.0f})"))
        else:
            second = second.replace(f"{a.n:,} random deals of the other cards",
                                    f"{a.n:,} deals of the other cards consistent with the calls under the "
                                    f"{heard.bidders} bidding model ({heard.kept:,} of {heard.candidates:,} "
                                    f"candidates, {100 * heard.acceptance:.3g}%"
                                    + ("" if heard.ess is None else f", effective sample size {heard.ess:,.0f}")
                                    + ")")
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
           f"within {heard.candidates:,} candidates: the advice uses those."] if heard is not None and heard.short and heard.ess is None
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
            exp = f"{signed(r.table_expected)} ({signed(r.table_lo)} to {signed(r.table_hi)})"
            lines.append(f"{r.bid:<{bw}}{STRAIN_SHORT[r.strain]:<8}"
                         f"{_p_cell(r.table_p, r.table_p_lo, r.table_p_hi):<20}{pct(r.p):<8}{exp:<28}"
                         f"{signed(r.expected):<9}" + ("yes" if r.legal else "no"))
    else:
        lines += ["", f"Expected hand score of each bid, plain bids in {trump_name}, NT bids in no trump "
                  f"(95% interval{on})",
                  f"{'bid':<{bw}}{'strain':<8}{'makes %':<20}{'expected score':<28}legal"]
        for r in a.bids.itertuples():
            exp = f"{signed(r.expected)} ({signed(r.lo)} to {signed(r.hi)})"
            lines.append(f"{r.bid:<{bw}}{STRAIN_SHORT[r.strain]:<8}{_p_cell(r.p, r.p_lo, r.p_hi):<20}{exp:<28}"
                         + ("yes" if r.legal else "no"))
    rec = a.recommendation
    if a.calls is not None and len(a.calls):
        lines += [""] + _calls_lines(a)
    lines.append("")
    if rec.call == "pass":
        lines.append(f"Recommended: pass ({rec.reason}).")
    else:
        lines.append(f"Recommended: {bid_label(rec.call, rec.strain)} ({rec.reason}).")
        stands = _pre_emptive_text(a)
        if stands:
            lines.append(stands)
    ncalls = 0 if a.calls is None else len(a.calls)
    if rec.fresh is not None and rec.basis == "net" and ncalls > 1:
        lines.append(f"Expected on fresh deals: {value_text(rec.fresh, rec.basis)} (the call chosen on half the "
                     "deals, scored on the other half, both ways: the best of several noisy means flatters itself; "
                     "this is what the choice is worth on deals it did not see).")
    elif rec.fresh is not None and ncalls > 1:
        lines.append(f"Expected on fresh deals: {value_text(rec.fresh, rec.basis)} (the call chosen on half the "
                     "deals, scored on the other half, both ways).")
    if rec.limit is not None and rec.value is not None:
        if rec.limit != rec.call:
            col = "win" if rec.basis == "win" else "net"
            row = a.calls.set_index("call").loc[rec.limit]
            passing = a.calls.set_index("call").loc["pass", col]
            worth = value_text(MeanCI(row[col], row[col + "_lo"], row[col + "_hi"], np.nan, np.nan, 0), rec.basis)
            lines.append(f"Worth bidding up to {bid_label(rec.limit, rec.limit_strain)} ({worth}, passing "
                         f"{point_text(passing, rec.basis)}): the highest bid still worth at least passing.")
    elif rec.limit is not None:
        row = a.bids[a.bids["bid"] == rec.limit].iloc[0]
        if table:
            lines.append(f"Worth bidding up to {bid_label(rec.limit, rec.limit_strain)} "
                         f"({signed(row['table_expected'])}, {signed(row['table_lo'])} to "
                         f"{signed(row['table_hi'])} in table play; double dummy {signed(row['expected'])}): "
                         "the highest legal bid with a positive expected score.")
        else:
            lines.append(f"Worth bidding up to {bid_label(rec.limit, rec.limit_strain)} "
                         f"({signed(row['expected'])}, {signed(row['lo'])} to {signed(row['hi'])}): "
                         "the highest legal bid with a positive expected score.")
    if a.match is not None:
        m = a.match
        lines.append(f"As dealer facing {m.bid}: {m.decision} ({m.reason}).")
    if a.specials is not None:
        s = a.specials
        on = "" if s.worth_5h.n == a.n else f"; what they are worth on the {s.worth_5h.n:,} odd deals"
        lines += ["", f"The 5H and the 3S (strain {STRAIN_SHORT[s.strain]}, double dummy{on})"]
        for card in ("5H", "3S"):
            d = s.dealt[card]
            mine = d["declarer"][1] == 1.0
            lines.append(f"{card} dealt to: " + ("you (declarer), on every deal" if mine else ", ".join(
                f"{h} {_p_cell(p, lo, hi)}%" for h, (k, p, lo, hi) in d.items() if h != "declarer")))
        lines.append(f"Of the 5H's +5, {side} keep {ci_text(s.worth_5h)} points (double dummy: who takes it).")
        lines.append(f"Of the 3S's -3, {side} take {ci_text(s.cost_3s)} points (double dummy: who takes it).")
    lines += ["", "Notes:"] + [f"- {t}" for t in a.notes]
    return "\n".join(lines)

"""The hand advisor's analysis: from the hand's deals to the advice (:func:`advise`): the make and
points tables, the trump choice, each bid's and each legal call's worth, the recommended call, the
dealer's match advice, the 5H and 3S, the notes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from ... import config
from ...auction import Bid, bid_rank, ladder, strain_choices
from ...cards import FIVE_HEARTS_BIT, THREE_SPADES_BIT, Seat, Strain
from ...game import dd_contracts, without_specials
from ...rules import MAX_BID, STANDARD, Rules
from ...scoring import score_hands
from ...stats import effective_size, MeanCI, mean_ci, weighted_share_ci
from .inputs import (
    advisor_deals, AdvisorInputError, ALL_STRAIN_KEYS, auction_context, AuctionContext, AuctionInfo, check_rules,
    DEFAULT_DEALS, heard_context, HOLDERS, keys_of, KITTY_DEALS, LOW, PLAY_CHOICES, read_hand, rules_notes,
    STRAIN_NAMES,
)
from .measures import (
    estimate, is_table, mean_of, monotone_survival, p_interval, play_name, played_check, PlayInfo, point_values,
    solve_strains, table_play_for,
)
from .results import (
    AfterPass, bid_label, CHOSEN_ON, ci_text, HandAdvice, heard_text, MatchAdvice, pct, pre_emptive, Recommendation, signed,
    Specials, TrumpChoice, value_text, value_words,
)


# --- the analysis --------------------------------------------------------------------------


def _score(rules: Rules, bid: Bid, seat: int, raw: np.ndarray) -> np.ndarray:
    """(n,) hand scores of the declaring side for ``bid`` given its raw points."""
    res = score_hands(rules, bid.level, bid.nt, seat, raw, (0, 0))
    return res.delta[:, seat & 1]


def _strain_key(strain: int) -> str:
    return ALL_STRAIN_KEYS[int(strain)]


def make_table(values: np.ndarray, levels, table_model=None, weights=None) -> pd.DataFrame:
    """One row per (strain, level): deals where the declaring side takes at
    least ``level`` points DD (k, n, p) with the Wilson 95% interval; with a
    table-play ``table_model`` also ``table_p``, the mean over deals of
    ``table_model.make_prob(v, nt, [level])``, and its 95% interval
    (``table_lo``, ``table_hi``; NaN without a model), made non-increasing in
    the level (:func:`monotone_survival`: the hand's own play can make the
    corrected means rise by a hair).  ``weights``: one a deal (None: equal),
    every share and mean weighted (:func:`estimate`; the Wilson interval at
    the effective sample size)."""
    v = np.asarray(values, dtype=np.int64)
    n = v.shape[0]
    lv = np.asarray(list(levels), dtype=np.int64)
    k = (v[:, :, None] >= lv[None, None, :]).sum(axis=0)  # (5, levels)
    p, lo, hi = weighted_share_ci(v[:, :, None] >= lv[None, None, :], weights, axis=0)
    tp = np.full((3, v.shape[1], len(lv)), np.nan)
    if is_table(table_model):
        from ..table_play import hand_play

        hp = hand_play(table_model, v)
        for s in range(v.shape[1]):
            tp[:, s] = monotone_survival(*p_interval(hp.make_prob(s, lv), weights))
    rows = []
    for s, key in enumerate(keys_of(v)):
        for j, level in enumerate(lv):
            rows.append((key, int(level), int(k[s, j]), n, float(p[s, j]), float(lo[s, j]), float(hi[s, j]),
                         *(float(x) for x in tp[:, s, j])))
    return pd.DataFrame(rows, columns=["strain", "bid", "k", "n", "p", "lo", "hi", "table_p", "table_lo",
                                       "table_hi"])


def points_table(values: np.ndarray, table_model=None, weights=None) -> pd.DataFrame:
    """One row per strain: mean DD points of the declaring side with its 95%
    interval, the standard deviation, the least and the most; with a
    table-play ``table_model`` the mean table points (mean over deals of the
    expected table points given the DD value, iid 95% interval) and their
    standard deviation over deals and play (NaN without a model)."""
    v = np.asarray(values, dtype=np.int64)
    m = estimate(v, weights, axis=0)
    out = pd.DataFrame(
        {"mean": m.mean, "lo": m.lo, "hi": m.hi, "sd": m.sd, "min": v.min(axis=0), "max": v.max(axis=0)},
        index=pd.Index(keys_of(v), name="strain"),
    )
    t = np.full((4, v.shape[1]), np.nan)
    if is_table(table_model):
        from ..table_play import POINTS, hand_play

        e = point_values(v, table_model)
        tm = estimate(e, weights, axis=0)
        hp = hand_play(table_model, v)
        sq = np.stack([hp.expected_score(s, POINTS.astype(np.float64) ** 2) for s in range(v.shape[1])], axis=1)
        sd = np.sqrt(np.maximum(mean_of(sq, weights) - mean_of(e, weights) ** 2, 0.0))
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


def _w(weights, rows):
    """The weights of ``rows`` (None stays None: equal weights)."""
    return None if weights is None else np.asarray(weights, dtype=np.float64)[np.asarray(rows, dtype=np.int64)]


def trump_candidates(rules: Rules) -> list[int]:
    """The strains a plain bid may be played in (S H D C; N too with
    ``plain_bid_nt``), in order."""
    plain = next(b for b in ladder(rules) if not b.nt)
    return [s for s, low in strain_choices(rules, plain) if not low]


def _key(strain) -> int:
    return ALL_STRAIN_KEYS.index(strain) if isinstance(strain, str) else int(strain)


def choose_nt(values: np.ndarray, rules: Rules, rows=None, table_model=None, weights=None) -> int:
    """The column NT bids are played in: N, or with ``low_nt="choice"`` N or
    L (low), whichever has the higher mean points on ``rows`` (the
    selection deals; ties: N).  Low NT bids (``low_nt="bid"``) are always L."""
    if rules.low_nt != "choice" or np.asarray(values).shape[1] <= LOW:
        return int(Strain.N)
    pts = point_values(values, table_model)
    rows = _rows(rows, pts.shape[0])
    w = _w(weights, rows)
    return LOW if mean_of(pts[rows, LOW], w) > mean_of(pts[rows, int(Strain.N)], w) else int(Strain.N)


def choose_trump(values: np.ndarray, rules: Rules, rows=None, table_model=None, weights=None) -> TrumpChoice:
    """The trump with the highest mean points on ``rows`` (default all;
    :func:`advise` passes :func:`selection_rows`), the runner-up, their paired
    difference there and whether it is clear (its 95% interval above 0).
    The points are DD, or with a table-play ``table_model`` each deal's expected
    table points (:func:`point_values`).  The reporting fields are filled
    by :func:`report_trump`."""
    pts = point_values(values, table_model)
    rows = _rows(rows, pts.shape[0])
    cands = trump_candidates(rules)
    means = mean_of(pts[rows][:, cands], _w(weights, rows))
    order = sorted(range(len(cands)), key=lambda i: -means[i])  # stable: exact ties keep S H D C N order
    best = cands[order[0]]
    play = play_name(table_model)
    if len(cands) < 2:
        return TrumpChoice(_strain_key(best), None, CHOSEN_ON, len(rows), None, True, play=play)
    second = cands[order[1]]
    d = estimate(pts[rows, best] - pts[rows, second], _w(weights, rows))
    return TrumpChoice(_strain_key(best), _strain_key(second), CHOSEN_ON, len(rows), d, bool(d.lo > 0),
                       play=play)


def report_trump(choice: TrumpChoice, values: np.ndarray, reported_on: str, rows, table_model=None,
                 weights=None) -> TrumpChoice:
    """``choice`` with the paired difference trump - runner-up on the
    reporting ``rows`` (in ``choice.play``'s points: pass the same ``table_model``
    as to :func:`choose_trump`; and DD), and the tie flag."""
    rows = np.asarray(rows, dtype=np.int64)
    if choice.runner_up is None:
        return replace(choice, reported_on=reported_on, n_report=len(rows))
    if choice.play != play_name(table_model):
        raise ValueError(f"report_trump: the trump was chosen on {choice.play}, not {play_name(table_model)}")
    a, b = _key(choice.strain), _key(choice.runner_up)
    v = np.asarray(values, dtype=np.int64)
    w = _w(weights, rows)
    d_dd = estimate(v[rows, a] - v[rows, b], w)
    d = d_dd
    if is_table(table_model):
        from ..table_play import hand_play

        hp = hand_play(table_model, v)
        d = estimate(hp.expected(a, rows) - hp.expected(b, rows), w)
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
              rows=None, table_model=None, nt_strain=None, weights=None) -> tuple[pd.DataFrame, DealScores]:
    """Expected hand score of every bid of the ladder, and the per-deal
    scores (:class:`DealScores`) of the strain each bid is played in.

    trump : the hand's trump (a strain key or index), in which every plain
        bid is played; default :func:`choose_trump` on all the rows (with
        ``table_model``).  NT bids are played in no trump.
    rows : the rows the table is computed on (default all; :func:`advise`
        passes the reporting deals).  ``per_deal`` always has every row.
    table_model : a table-play model: adds the ``table_`` columns (a deal's make
        probability ``table_model.make_prob(v, nt, [bid])``, its expected score
        ``table_model.expected_score(v, nt, score of the bid)``; means over the
        rows with iid 95% intervals) and the per-deal scores are table play.
        Without it the ``table_`` columns are NaN and the scores DD.
    nt_strain : the column NT bids are played in (:func:`choose_nt`; default
        N); low NT bids are played in L.  Under the solo Kaiser 12NT is left
        out (the solver does not play one against three).
    weights : one a deal (None: equal); every mean and share is weighted
        (:func:`estimate`).

    ``stands`` (``table_stands``): the bid's net score if it is left to stand
    (your side's hand score minus the opponents', the opponents scoring the
    points they take), the measure a call's worth is in.  The table-play
    make chances of the bids played in one strain never rise with the level
    (:func:`monotone_survival`).
    """
    v = np.asarray(values, dtype=np.int64)
    n = v.shape[0]
    rows = _rows(rows, n)
    nr = len(rows)
    table = is_table(table_model)
    trump = _key(choose_trump(v, rules, table_model=table_model).strain if trump is None else trump)
    nt_played = int(Strain.N) if nt_strain is None else _key(nt_strain)
    keys = keys_of(v)
    rows_out, per_deal = [], DealScores(play_name(table_model))
    if table:
        from ..table_play import POINTS, hand_play

        hp = hand_play(table_model, v)
    nan = np.nan
    for bid in ladder(rules):
        if bid.is_kaiser and rules.kaiser_outright == "solo":
            continue
        choices = [LOW if low else s for s, low in strain_choices(rules, bid) if not low or v.shape[1] > LOW]
        played = LOW if bid.low else (nt_played if bid.nt else trump)
        if played not in choices:
            raise AdvisorInputError(f"{bid} cannot be played in {STRAIN_NAMES[_strain_key(played)]} "
                                    "under these rules")
        w = _w(weights, rows)
        means = {s: float(mean_of(_score(rules, bid, seat, v[rows, s]), w)) if nr else nan for s in choices}
        sc = _score(rules, bid, seat, v[:, played])
        per_deal.dd[str(bid)] = sc
        if nr:
            m = estimate(sc[rows], w)
            p, plo, phi = (float(x) for x in weighted_share_ci(v[rows, played] >= bid.level, w))
            mean, lo, hi = m.mean, m.lo, m.hi
            stands = float(mean_of(_net_stands(rules, bid, seat, v[rows, played]), w))
        else:
            mean = lo = hi = p = plo = phi = stands = nan
        row = {"bid": str(bid), "nt": bid.nt, "legal": bid in legal, "strain": _strain_key(played),
               "p": p, "p_lo": plo, "p_hi": phi, "expected": mean, "lo": lo, "hi": hi, "stands": stands}
        for s in range(len(keys)):
            row[f"exp_{keys[s]}"] = means.get(s, nan)
        t = dict.fromkeys(("table_p", "table_p_lo", "table_p_hi", "table_expected", "table_lo", "table_hi",
                           "table_stands"), nan)
        t_means = {}
        if table:
            score = _score(rules, bid, seat, POINTS).astype(np.float64)  # the bid's score of each raw total
            tsc = hp.expected_score(played, score)
            per_deal[str(bid)] = tsc
            if nr:
                tm = estimate(tsc[rows], w)
                tp = p_interval(hp.make_prob(played, [bid.level], rows)[:, 0], w)
                net = _net_stands(rules, bid, seat, POINTS)
                t.update(table_p=float(tp[0]), table_p_lo=float(tp[1]), table_p_hi=float(tp[2]),
                         table_expected=tm.mean, table_lo=tm.lo, table_hi=tm.hi,
                         table_stands=float(mean_of(hp.expected_score(played, net, rows), w)))
                t_means = {s: float(mean_of(hp.expected_score(s, score, rows), w)) for s in choices}
        row.update(t)
        for s in range(len(keys)):
            row[f"table_exp_{keys[s]}"] = t_means.get(s, nan)
        rows_out.append(row)
    out = pd.DataFrame(rows_out)
    if table and nr:
        # each strain's bids in ladder order: P(make) never rises with the level
        for _, idx in out.groupby("strain", sort=False).groups.items():
            idx = list(idx)
            cols = ["table_p", "table_p_lo", "table_p_hi"]
            fixed = monotone_survival(*(out.loc[idx, c].to_numpy() for c in cols))
            for c, x in zip(cols, fixed):
                out.loc[idx, c] = x
    return out, per_deal


def _net_stands(rules: Rules, bid: Bid, seat: int, raw) -> np.ndarray:
    """Per raw total of the declaring side: ``bid``'s net score if it is left
    to stand, your side's hand score minus the opponents' (they score the
    points they take, per the rules)."""
    raw = np.asarray(raw, dtype=np.int64)
    res = score_hands(rules, bid.level, bid.nt, seat, raw, (0, 0))
    side = seat & 1
    return (res.delta[:, side] - res.delta[:, 1 - side]).astype(np.float64)


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
    return "" if play != "table" or m is None else f"; double dummy {ci_text(m)}"


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
        versus = bid_label(other[0], other[1]) if other[0] != "pass" else "pass"
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
        reason = (f"the best expected hand score{words} of the legal calls: {ci_text(expected)}"
                  + _dd_aside(play, expected_dd))
        if ctx.forced:
            reason = (f"{Seat(ctx.seat).name} deals and the others passed: a bid of at least "
                      f"{rules.min_bid} is forced; " + reason)
        elif expected.lo <= 0 and versus != "pass":
            reason += "; not clearly better than passing (the interval reaches 0)"
    if diff is not None:
        if not tie:
            reason += f"; better than {versus} by {ci_text(diff)}"
        else:
            reason += f"; a tie with {versus}: not clearly better (difference {ci_text(diff)})"
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
    what = bid_label(bid, row["strain"])
    if rec.call not in ("pass", bid) and rec.expected.mean > m.mean:
        how += f"; overbidding with {bid_label(rec.call, rec.strain)} scores more ({ci_text(rec.expected)})"
    words = _play_words(play)
    if take:
        reason = f"matching ({what}) scores {ci_text(m)}{words} on average{_dd_aside(play, m_dd)}{how}"
    else:
        reason = f"matching ({what}) scores {ci_text(m)}{words} on average{_dd_aside(play, m_dd)}: pass{how}"
    return MatchAdvice(bid, True, row["strain"], m, p_make, "match" if take else "pass", reason,
                       expected_dd=m_dd, p_make_dd=p_dd, play=play)


# --- a call's worth, net of the opponents (kaiser_sim.strategy.call_worth) -------------------------------------


def _call_strain(call: str, trump: str, nt: int) -> str | None:
    """The strain key the advised hand plays ``call`` in (None for a pass)."""
    if call == "pass":
        return None
    bid = Bid.parse(call)
    if bid.low:
        return _strain_key(LOW)
    return _strain_key(nt) if bid.nt else trump


def call_table(cv, rows, trump: str, nt: int, seat: int, weights=None) -> pd.DataFrame:
    """One row per legal call (:class:`kaiser_sim.strategy.call_worth.CallValues`) on
    ``rows``: the strain the hand plays it in, its net value (``net``,
    ``net_lo``, ``net_hi``, in ``cv.play``'s measure; ``net_dd_*`` double
    dummy), the chance of winning the match (``win_*``, NaN without a
    score), and who ends up declaring (shares of the deals: ``you``,
    ``partner``, ``opponents``, ``thrown_in``)."""
    rows = np.asarray(rows, dtype=np.int64)
    w = _w(weights, rows)
    out = []
    for i, call in enumerate(cv.calls):
        row = {"call": call, "strain": _call_strain(call, trump, nt)}
        for name, dd in (("net", False), ("net_dd", True), ("win", False), ("win_dd", True)):
            basis = "win" if name.startswith("win") else "net"
            if basis == "win" and cv.win is None:
                row.update({name: np.nan, f"{name}_lo": np.nan, f"{name}_hi": np.nan})
                continue
            m = estimate(cv.values(basis, dd)[i, rows], w)
            row.update({name: m.mean, f"{name}_lo": m.lo, f"{name}_hi": m.hi})
        who = cv.declarer[i, rows]
        row.update(you=float(mean_of(who == seat, w)), partner=float(mean_of(who == (seat + 2) % 4, w)),
                   opponents=float(mean_of((who >= 0) & ((who & 1) != (seat & 1)), w)),
                   thrown_in=float(mean_of(who < 0, w)))
        out.append(row)
    return pd.DataFrame(out)


@dataclass(frozen=True, eq=False)
class Standing:
    """Each legal call's hand score on each deal if it becomes the contract
    (the bid table's per-deal scores, :class:`DealScores`), for the tie-break
    between two bids of one strain (:meth:`dominates`).

    calls : the calls (``cv.calls``); strain : the strain key each is played
    in (None for a pass); scores, scores_dd : (C, n) the hand scores in the
    measure of the choice and double dummy (NaN for a pass)."""

    calls: tuple
    strain: tuple
    scores: np.ndarray
    scores_dd: np.ndarray

    @classmethod
    def of(cls, cv, per_deal: dict, trump: str, nt: int) -> Standing:
        """From the calls' values ``cv`` and the bid table's ``per_deal``."""
        dd = getattr(per_deal, "dd", per_deal)
        n = cv.values("net").shape[1]
        table = np.full((len(cv.calls), n), np.nan)
        table_dd = table.copy()
        for i, call in enumerate(cv.calls):
            if call != "pass" and call in per_deal:
                table[i], table_dd[i] = per_deal[call], dd[call]
        return cls(tuple(cv.calls), tuple(_call_strain(c, trump, nt) for c in cv.calls), table, table_dd)

    def dominates(self, rows) -> np.ndarray:
        """(C, C) bool: ``[i, j]`` when call ``i`` is a higher bid than call
        ``j`` in the same strain and scores at least as much as ``j`` on
        every one of ``rows``, in both measures, if it stands.  Under Kaiser
        scoring that is: it makes wherever ``j`` makes (the same points, so
        the same score), and ``j`` never fails there (a failure costs the
        higher bid more)."""
        rows = np.asarray(rows, dtype=np.int64)
        C = len(self.calls)
        out = np.zeros((C, C), dtype=bool)
        level = [0 if c == "pass" else Bid.parse(c).level for c in self.calls]
        a, a_dd = self.scores[:, rows], self.scores_dd[:, rows]
        for i in range(C):
            for j in range(C):
                if (self.strain[i] is None or self.strain[i] != self.strain[j] or level[i] <= level[j]
                        or np.isnan(a[i]).any() or np.isnan(a[j]).any()):
                    continue
                # 1e-9: the same per-deal score computed twice (the play's correction is the same float sum)
                out[i, j] = bool((a[i] >= a[j] - 1e-9).all() and (a_dd[i] >= a_dd[j] - 1e-9).all())
        return out


def _shuts_out(v, w, best: int, standing: Standing | None, rows, pass_i: int | None) -> int:
    """The tie-break of two bids of one strain: the highest bid that
    :meth:`Standing.dominates` ``best`` on ``rows`` and is not clearly worth
    less than it (the paired difference's 95% interval reaches 0), and, when
    passing is legal, stays clearly worth more than passing; else ``best``.

    Why: such a bid scores as much as ``best`` whenever it stands, and the
    later seats can only bid over it with fewer calls, so a difference in
    its worth inside the noise is the bidding model's noise, not a reason to
    stop lower (10NT, not 8NT, with every trick).  A hand that might fail the
    lower bid on any deal, in either measure, is never moved up."""
    if standing is None:
        return best
    dom = standing.dominates(rows)
    up = [i for i in range(len(standing.calls)) if dom[i, best]
          and estimate(v[i] - v[best], w).hi >= 0
          and (pass_i is None or estimate(v[i] - v[pass_i], w).lo > 0)]
    return max(up) if up else best  # the calls are in the ladder's order: the last is the highest


def choose_on_values(cv, basis: str, rows, weights=None, standing: Standing | None = None
                     ) -> tuple[int, int | None, bool]:
    """``(best, runner-up or None, clear)``: the call with the highest mean
    value on ``rows`` (ties: the first in the ladder's order, pass first),
    the next best call, and whether the paired difference best - runner-up
    has its 95% interval above 0 there (or there is no other call).  Pass is
    the default: when no bid is clearly worth more than passing (the paired
    difference's interval reaches 0), the choice is pass, the best bid its
    runner-up, and the choice is not clear.  ``weights``: all the deals'
    (None: equal), the means and intervals weighted (:func:`estimate`).

    ``standing`` (:class:`Standing`): a bid is then moved up to the highest
    bid of its strain that scores as much as it on every deal when it stands
    and is worth not clearly less (:func:`_shuts_out`); the runner-up is then
    the bid moved from, or the best call that differs."""
    rows = np.asarray(rows, dtype=np.int64)
    w = _w(weights, rows)
    v = cv.values(basis)[:, rows]
    means = mean_of(v, w, axis=1)
    order = sorted(range(len(cv.calls)), key=lambda i: -means[i])
    # a call worth exactly the same on every deal (9NT and 10NT when both always make and keep the
    # opponents out) is the same choice, not a rival: the runner-up is the best call that differs.  Of
    # such calls the choice is pass when pass is one of them (it risks nothing), else the highest bid
    # (the level the hand surely makes: 10NT, not 9NT, with every trick)
    pass_i = cv.index("pass") if "pass" in cv.calls else None
    same = [i for i in range(len(cv.calls)) if np.array_equal(v[i], v[order[0]])]
    best = pass_i if pass_i in same else max(same)
    order = [best] + [i for i in order if i != best]
    others = [i for i in order[1:] if not np.array_equal(v[i], v[order[0]])]
    if not others:
        return order[0], None, True
    if pass_i is not None and pass_i in others and not estimate(v[order[0]] - v[pass_i], w).lo > 0:
        # no bid is clearly worth more than passing: pass, the call that risks nothing; the best bid
        # is then the runner-up (and the choice is not clear)
        return pass_i, order[0], False
    lifted = _shuts_out(v, w, order[0], standing, rows, pass_i)
    if lifted != order[0]:
        order = [lifted] + [i for i in order if i != lifted]
        others = [i for i in order[1:] if not np.array_equal(v[i], v[lifted])]
    d = estimate(v[order[0]] - v[others[0]], w)
    return order[0], others[0], bool(d.lo > 0)


def fresh_value(cv, basis: str, weights=None, standing: Standing | None = None) -> MeanCI | None:
    """The worth of the advisor's choice on deals it did not see: the call
    chosen (:func:`choose_on_values`) on the even deals is scored on the odd
    ones and the call chosen on the odd deals on the even ones (cross-fitting),
    so the winner's curse -- the best of several noisy means flatters itself
    -- is out of it (the same rule, ``standing`` included).  One value a deal; its (weighted) mean and interval
    (:func:`estimate`).  None with fewer than 4 deals."""
    vals = cv.values(basis)
    n = vals.shape[1]
    if n < 4:
        return None
    even, odd = np.arange(0, n, 2), np.arange(1, n, 2)
    per_deal = np.empty(n)
    for chose_on, scored_on in ((even, odd), (odd, even)):
        c = choose_on_values(cv, basis, chose_on, weights, standing)[0]
        per_deal[scored_on] = vals[c, scored_on]
    return estimate(per_deal, weights)


def _measures_words(play: str) -> str:
    return "in table play and double dummy" if play == "table" else "double dummy"


def _listed(names) -> str:
    names = list(names)
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def recommend_call(cv, basis: str, bids: pd.DataFrame, per_deal: dict, ctx: AuctionContext, rules: Rules,
                   trump: str, nt: int, rows=None, weights=None, standing: Standing | None = None) -> Recommendation:
    """The legal call with the highest value on ``basis`` (``"net"``: the
    side's score minus the opponents', the rest of the auction played out;
    ``"win"``: the chance of winning the match) on ``rows`` (default all), or
    pass when no bid is clearly worth more than passing; every number of it
    on those same deals, so the call is the top of the calls table or a
    declared tie with it.

    ``versus`` and ``difference``: the best-ranked call the recommended one
    is not clearly better than (a tie: the paired difference's 95% interval
    reaches 0), else the next best call that differs on some deal;
    ``tie`` is exactly ``difference.lo <= 0``.  ``ties``: every call the
    paired interval does not separate from it, best first.  ``fresh``: the
    choice's worth on deals it did not see (:func:`fresh_value`).  ``limit``:
    the highest legal bid, not below the call, whose mean worth is at least
    passing's (None for a pass; the call itself for a forced bid, which
    nobody can bid over).

    ``standing`` (:class:`Standing`, :func:`_shuts_out`): between two bids of
    one strain, the higher one, when it scores as much as the lower whenever
    it stands (on every deal, both measures) and is worth not clearly less,
    is recommended; ``over`` is then the bid it was preferred to, the reason
    says so, and the call is a declared tie with the top of the table."""
    n = cv.values(basis).shape[1]
    rows = _rows(rows, n)
    w = _w(weights, rows)
    b, _, _ = choose_on_values(cv, basis, rows, weights, standing)
    b0 = b if standing is None else choose_on_values(cv, basis, rows, weights)[0]
    play = cv.play
    vals, vals_dd = cv.values(basis)[:, rows], cv.values(basis, dd=True)[:, rows]
    call = cv.calls[b]
    strain = _call_strain(call, trump, nt)
    value, value_dd = estimate(vals[b], w), estimate(vals_dd[b], w)
    expected = expected_dd = None
    if call != "pass":
        expected = estimate(per_deal[call][rows], w)
        expected_dd = estimate(getattr(per_deal, "dd", per_deal)[call][rows], w)
    means = mean_of(vals, w, axis=1)
    ranked = sorted(range(len(cv.calls)), key=lambda i: -means[i])
    same = [i for i in range(len(cv.calls)) if i != b and np.array_equal(vals[i], vals[b])]
    rivals = [i for i in ranked if i != b and i not in same]
    diffs = {i: estimate(vals[b] - vals[i], w) for i in rivals}
    tied = [i for i in rivals if not diffs[i].lo > 0]
    ties = tuple(bid_label(cv.calls[i], _call_strain(cv.calls[i], trump, nt)) for i in tied)
    equivalent = tuple(bid_label(cv.calls[i], _call_strain(cv.calls[i], trump, nt)) for i in same)
    o = tied[0] if tied else (rivals[0] if rivals else None)
    versus = diff = diff_dd = None
    if o is not None:
        versus = bid_label(cv.calls[o], _call_strain(cv.calls[o], trump, nt))
        diff = diffs[o]
        diff_dd = estimate(vals_dd[b] - vals_dd[o], w)
    tie = diff is not None and not diff.lo > 0
    top = ranked[0]
    by_default = call == "pass" and top != b and not np.array_equal(vals[top], vals[b])
    # how far to compete: the highest legal bid worth at least passing (not below the call made)
    limit = limit_strain = None
    if call != "pass":
        limit = call
        if "pass" in cv.calls and not ctx.forced:
            floor = means[cv.index("pass")]
            rank = bid_rank(rules, Bid.parse(call))
            ok = [c for i, c in enumerate(cv.calls) if c != "pass" and bid_rank(rules, Bid.parse(c)) >= rank
                  and means[i] >= floor]
            limit = ok[-1] if ok else call
        limit_strain = _call_strain(limit, trump, nt)
    words = value_words(basis, play)

    def dtext(d):
        return value_text(d, basis) if basis == "net" else (
            f"{signed(100 * d.mean, 1)} points of % ({signed(100 * d.lo, 1)} to {signed(100 * d.hi, 1)})")

    if by_default:
        gain = diffs[top]
        gain = gain._replace(mean=-gain.mean, lo=-gain.hi, hi=-gain.lo)
        reason = (f"no bid is clearly worth more than passing ({words}: passing {value_text(value, basis)}); "
                  f"the best bid, {bid_label(cv.calls[top], _call_strain(cv.calls[top], trump, nt))}, is worth "
                  f"{dtext(gain)} more (the bid minus passing; the interval reaches 0)")
    elif b != b0:
        low = bid_label(cv.calls[b0], _call_strain(cv.calls[b0], trump, nt))
        # the difference from the lower bid (inside the noise) follows as the declared tie
        reason = (f"makes wherever {low} does and shuts out more (if it stands it scores as much as {low} on "
                  f"every one of the {len(rows):,} deals, {_measures_words(play)}, and the later seats have fewer "
                  f"bids over it); its {words}: {value_text(value, basis)}")
    else:
        reason = f"the highest {words} of the legal calls: {value_text(value, basis)}"
    if play == "table":
        reason += f"; double dummy {value_text(value_dd, basis)}"
    if ctx.forced:
        reason = (f"{Seat(ctx.seat).name} deals and the others passed: a bid of at least {rules.min_bid} is "
                  "forced; " + reason)
    if diff is not None and not by_default:
        if not tie:
            reason += f"; better than {versus}, the next best, by {dtext(diff)}"
        else:
            reason += f"; a tie with {_listed(ties)}: not clearly better than {versus} (difference {dtext(diff)})"
    after_pass = _after_pass(cv, b, rows, w, ctx, vals[b]) if (
        call == "pass" and basis == "net" and not ctx.forced and (tie or by_default) and value.mean > 0) else None
    if after_pass is not None:
        # the question a player asks of a good hand told to pass: what happens instead
        theirs = after_pass.net_when_they_declare
        reason += (f"; why passing holds its own: after it the opponents declare "
                   f"{100 * after_pass.opponents_declare:.0f}% of the deals, and on those your side nets "
                   f"{value_text(theirs, basis)}"
                   + (": their contracts cost them, so defending pays as well as bidding" if theirs.lo > 0 else ""))
    return Recommendation(call=call, strain=strain, expected=expected, forced=ctx.forced, limit=limit,
                          limit_strain=limit_strain, versus=versus, difference=diff, reason=reason, clear=not tie,
                          tie=tie, expected_dd=expected_dd, difference_dd=diff_dd, play=play, basis=basis,
                          value=value, value_dd=value_dd, ties=ties, equivalent=equivalent,
                          fresh=fresh_value(cv, basis, weights, standing),
                          over=None if b == b0 else bid_label(cv.calls[b0], _call_strain(cv.calls[b0], trump, nt)),
                          after_pass=after_pass)


def _after_pass(cv, b: int, rows, w, ctx: AuctionContext, pass_values) -> AfterPass | None:
    """The opponents' share of the declaring after the pass (call ``b``) and
    the side's net on those deals (:class:`AfterPass`), or None when they
    never declare."""
    who = cv.declarer[b, rows]
    theirs = (who >= 0) & ((who & 1) != (ctx.seat & 1))
    if not theirs.any():
        return None
    return AfterPass(float(mean_of(theirs, w)), estimate(pass_values[theirs], None if w is None else w[theirs]))


def match_on_calls(cv, basis: str, bids: pd.DataFrame, ctx: AuctionContext, rules: Rules,
                   rec: Recommendation, report, weights=None) -> MatchAdvice | None:
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
    w = _w(weights, report)
    row = bids[bids["bid"] == bid].iloc[0]
    i = cv.index(bid)
    vals, vals_dd = cv.values(basis), cv.values(basis, dd=True)
    m, m_dd = estimate(vals[i, report], w), estimate(vals_dd[i, report], w)
    p_dd = (row["p"], row["p_lo"], row["p_hi"])
    p_make = (row["table_p"], row["table_p_lo"], row["table_p_hi"]) if play == "table" else p_dd
    what = bid_label(bid, row["strain"])
    reason = f"matching ({what}): {value_words(basis, play)} {value_text(m, basis)}"
    passing = estimate(vals[cv.index("pass"), report], w) if "pass" in cv.calls else None
    if passing is not None:
        reason += f", passing {value_text(passing, basis)}"
    if decision == "overcall":
        more = "worth more" if rec.value.mean > m.mean else "recommended"
        reason += f"; {bid_label(rec.call, rec.strain)} ({value_text(rec.value, basis)}) is {more}"
    elif decision == "pass" and passing is not None and m.mean > passing.mean:
        reason += "; matching is not clearly worth more than passing, so pass"
    return MatchAdvice(bid, True, row["strain"], m, p_make, decision, reason, expected_dd=m_dd, p_make_dd=p_dd,
                       play=play)


def verdict_text(rec: Recommendation, ctx: AuctionContext, heard: AuctionInfo | None,
                 pre_empts: bool = False) -> str:
    """The advice in one line, before the tables: the call, what it is
    worth, whether it is pre-emptive (:func:`~.results.pre_emptive`), and the
    calls it heard."""
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
        action = f"{verb} {bid_label(rec.call, rec.strain)}"
    if rec.value is not None:
        m = rec.value
        if rec.basis == "win":
            worth = f"P(win) {pct(m.mean)}%"
            spread = f"{pct(m.lo)} to {pct(m.hi)}%"
        else:
            worth = f"net {signed(m.mean)} points a hand"
            spread = f"{signed(m.lo)} to {signed(m.hi)}"
        action += f" ({worth}" + (" on every deal" if m.lo == m.hi == m.mean else f", {spread}")
        if rec.equivalent:
            action += f"; {' and '.join(rec.equivalent)} the same on every deal"
        if rec.over:
            action += f"; makes wherever {rec.over} does and shuts out more"
        if (rec.call == "pass" and rec.tie and rec.difference is not None and rec.basis == "net"
                and rec.difference.mean < 0):
            # pass by default: say by how little the best bid might beat it
            d = rec.difference
            gain = d._replace(mean=-d.mean, lo=-d.hi, hi=-d.lo)
            action += f"; no bid is clearly worth more: the best, {rec.versus}, by {ci_text(gain)})"
        elif rec.ties:
            many = list(rec.ties)
            action += "; a tie with " + (", ".join(many[:-1]) + " and " + many[-1] if len(many) > 1 else many[0]) + ")"
        else:
            action += f"; next best {rec.versus})" if rec.versus else ")"
    if pre_empts:
        action += ", pre-emptive: left to stand it loses, and nets less than passing"
    after = ""
    if heard is not None and heard.heard and ctx.calls:
        after = f", having heard {heard_text(ctx)}"
    return f"Verdict: {action}{after}."


def specials_table(deals: np.ndarray, values: np.ndarray, seat: int, strain: int, rules: Rules, rows=None,
                   weights=None) -> Specials:
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
        holders = np.stack([mine, part, ~(mine | part)], axis=1)
        p, lo, hi = weighted_share_ci(holders, weights, axis=0)
        # whether the advised hand holds it is no estimate: certain, so no interval around it
        lo[0] = hi[0] = float(mine.all())
        if mine.all():
            lo[1:] = hi[1:] = 0.0
        dealt[name] = {h: (counts[h], float(p[i]), float(lo[i]), float(hi[i])) for i, h in enumerate(HOLDERS)}
    rows = _rows(rows, n)
    sub = np.ascontiguousarray(deals[rows])
    v = np.asarray(values[rows, strain], dtype=np.int64)
    # only the one strain is needed: one solve a deal for each special
    leaders = np.full(len(rows), seat, dtype=np.int64)
    five, three = FIVE_HEARTS_BIT, THREE_SPADES_BIT
    if int(strain) == LOW:
        from ...game import play_view

        sub, five, three = play_view(sub, rules, True)
    strains = np.full(len(rows), min(int(strain), int(Strain.N)), dtype=np.int64)
    if rules.kitty == "none" and not rules.cover3:
        # v is these very contracts' value with both specials: it bounds each search (about half the nodes)
        no5, no3 = (x.astype(np.int64) for x in without_specials(sub, leaders, strains, v, five=five, three=three))
    else:
        no5 = dd_contracts(sub, leaders, strains, rules, "points", five=np.uint64(0), three=three).astype(np.int64)
        no3 = dd_contracts(sub, leaders, strains, rules, "points", five=five, three=np.uint64(0)).astype(np.int64)
    w = _w(weights, rows)
    return Specials(_strain_key(strain), dealt, estimate(v - no5, w), estimate(no3 - v, w))


def _selection_note(trump: TrumpChoice, n: int) -> str:
    """The trump rule, the call rule and the deals this report used, in one note."""
    pts = "expected table-play points" if trump.play == "table" else "DD points"
    return (
        f"One trump for the hand: every plain bid is played in the suit with the highest mean {pts} on all "
        f"{n:,} deals (the means of the per-strain table, the hand's own play included, so the trump is the top "
        "of the figures printed beside it; a suit that comes out on top without the play's correction is played "
        "on the same deals too and the choice made again), every NT bid in no trump; a trump is a tie when the 95% interval of "
        "its paired difference from the next suit reaches 0.  The call is the one with the highest worth on the "
        f"same {n:,} deals, the top of the calls table, except that pass is the default: when no bid is clearly "
        "worth more than passing, the advice is to pass; and of two bids of one strain, a higher bid that scores "
        "as much as the top one whenever it stands (on every deal, in both measures: both always make) and is "
        "not clearly worth less is recommended instead (it shuts out more: the later seats have fewer bids over "
        "it).  A call is a tie with another when the 95% interval of "
        "their paired difference reaches 0 (as printed).  Picking the best of several noisy means flatters it "
        "(the winner's curse): 'expected on fresh deals' is the choice made on the even deals scored on the odd "
        "ones and the other way round, the worth of the choice on deals it did not see; it is a number of its "
        "own and changes nothing in the choice."
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
            "corrected by the hand's own play, whose intervals hold the play's error.  A make chance corrected by "
            "the hand's own play is a difference of two survival functions and can rise by a hair from one bid "
            "to the next: each strain's chances are made non-increasing in the bid by isotonic regression (pool "
            "adjacent violators) of the corrected survival function, each interval moved with its point.") if table else ""),
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


def advise(hand, seat="N", dealer=None, n: int | None = None, seed: int = 0, rules: Rules = STANDARD,
           current_bid=None, specials: bool = True, play: str = "table", table_model=None, check: int | None = None,
           *, auction=None, bidders=None, scores=None, max_candidates: int | None = None,
           conditioning: str | None = None, progress=None) -> HandAdvice:
    """Analyse one hand: see the module doc.

    Parameters
    ----------
    hand : notation (``AKQ9.5.AK.7``, ``AS KS 5H ...``) or a bitboard.
    seat : the hand's seat (N E S W, default N); it leads, i.e. declares.
    dealer : the dealer's seat; default the seat on ``seat``'s right (this
        seat speaks first), or with ``auction`` the seat the calls imply
        (another is refused).
    n : deals of the other cards (kept deals with ``auction``; at least 2,
        and 4 for the worth on fresh deals: half of them choose, the other
        half score the choice); default :data:`DEFAULT_DEALS`, :data:`KITTY_DEALS` under
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
        (:mod:`kaiser_sim.strategy.conditioned`).
    bidders : the bidding model of the other players, a match policy name
        (default :data:`kaiser_sim.config.AUCTION_BIDDERS`): it conditions
        the deals and plays the rest of the auction out for each call's
        worth (:mod:`kaiser_sim.strategy.call_worth`).
    scores : (ours, theirs) before the hand: the calls are then chosen on
        the chance of winning the match (and scored from that score).
    max_candidates : the most candidate deals tried with ``auction``.
    conditioning : ``"weights"`` or ``"reject"``: how the deals are conditioned on ``auction``
        (:func:`kaiser_sim.strategy.conditioned.conditioned_deals`; default
        :data:`kaiser_sim.config.AUCTION_CONDITIONING`).
    specials : also measure the 5H and 3S (two more solves of each reporting deal).
    play : ``"table"`` (default): the choices on table play (the table-play
        model, DD beside it); ``"dd"``: everything double dummy.  Table play
        falls back to DD, with the reason in ``HandAdvice.play`` and the
        notes, only when a model given does not hold for the rules or cannot
        be read.
    table_model : the table-play model (default the one shipped for ``rules``,
        :func:`kaiser_sim.strategy.table_play.model_for`).
    check : deals of this hand's own that PIMC players play out, in the
        chosen trump and in no trump, to correct the table-play model for
        this hand (default :data:`kaiser_sim.config.TABLE_PLAY_CHECK_DEALS`;
        0: the model alone; :func:`played_check`).
    progress : a callable taking one line (the CLI writes it to stderr), or
        None: told of each step still running after :data:`SLOW_STEP`
        seconds (dealing, solving, the hand's own play, the auction played
        out, the 5H and 3S), and how long it took.

    Raises
    ------
    KaiserSimError for bad input, all of it checked before anything is dealt
    or solved: AdvisorInputError for a bad hand, seat, bid, score or
    unsupported rules, the auction's AuctionInputError
    (:mod:`kaiser_sim.strategy.conditioned`) for calls that cannot be read or
    break a rule; and AuctionTooRare when the calls heard are too rare under
    the model to deal enough deals.
    """
    from ..conditioned import conditioned_deals, what_the_calls_told
    from ..policies import POLICIES, PolicyError, get_policy

    check_rules(rules)
    if n is None:
        n = KITTY_DEALS if rules.kitty != "none" else DEFAULT_DEALS
    if play not in PLAY_CHOICES:
        raise AdvisorInputError(f"unknown play '{play}' (use " + " or ".join(PLAY_CHOICES) + ")")
    mask = read_hand(hand, rules)
    if int(n) < config.HAND_MIN_DEALS:
        raise AdvisorInputError(f"the number of deals must be at least {config.HAND_MIN_DEALS} (the call's worth on fresh deals "
                                "is chosen on half of them and scored on the other half)")
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
    steps = progress if isinstance(progress, Progress) else Progress(progress)
    weights = None
    if auction is not None and ctx.calls:
        with steps.step("dealing the other cards consistently with the calls heard"):
            cd = conditioned_deals(mask, ctx.seat, ctx.calls, int(n), int(seed), rules, policy,
                                   scores or (0, 0), max_candidates=max_candidates, method=conditioning)
        deals, kitties = cd.deals, cd.kitties
        # importance weights of the kept deals (ConditionedDeals.weights; None: rejection, all weight 1)
        weights = getattr(cd, "weights", None)
        ess = getattr(cd, "ess", None) if weights is not None else None
        heard = AuctionInfo(True, tuple(str(c) if c is not None else "pass" for c in ctx.calls), policy.name,
                            int(n), cd.kept, cd.candidates, cd.short, what_the_calls_told(cd, rules),
                            scores, None if weights is None else float(ess if ess is not None
                                                                           else effective_size(weights)),
                            cd.summary() if hasattr(cd, "summary") else None,
                            cd.describe() if hasattr(cd, "describe") else None)
        n = cd.kept
    else:
        deals, kitties = advisor_deals(mask, ctx.seat, n, seed, rules, kitties=True)
        heard = AuctionInfo(False, () if current_bid is None else (str(ctx.current),), policy.name, int(n), int(n),
                            int(n), scores=scores)
    with steps.step(f"solving {int(n):,} deals double dummy in every strain"):
        values = advisor_values(deals, kitties, ctx.seat, rules)
    return _analyse(mask, ctx, deals, values, int(n), int(seed), rules, specials, play, table_model, kitties=kitties,
                    policy=policy, heard=heard, check=check, weights=weights, progress=steps)


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
    :func:`solve_strains` in the standard game; with a kitty the declarer's
    best discard, low NT on reversed ranks
    (:func:`kaiser_sim.game.strain_values`); with cover 3 scored by
    :func:`kaiser_sim.game.cover3_points` from a second solve in tricks."""
    from ...game import cover3_points, strain_values

    if rules.kitty == "none" and rules.low_nt == "off":
        values = solve_strains(deals, seat, "points")
    else:
        values = strain_values(deals, kitties, seat, rules, "points")
    if rules.cover3:
        tricks = strain_values(deals, kitties, seat, rules, "tricks")
        values = cover3_points(values, tricks).astype(np.int8)
    return values


def _analyse(mask: int, ctx: AuctionContext, deals: np.ndarray, values: np.ndarray, n: int, seed: int,
             rules: Rules, specials: bool, play: str, table_model, *, kitties=None, policy=None,
             heard: AuctionInfo | None = None, check: int | None = None, weights=None,
             progress=None) -> HandAdvice:
    """Everything :func:`advise` does once the deals are solved (the
    benchmark times it on its own).  ``weights``: the deals' importance
    weights (None: equal), behind every mean and interval; ``progress``: a
    :class:`Progress` (or a callable taking one line) told of the slow steps."""
    from ..call_worth import call_values
    from ..policies import get_policy

    steps = progress if isinstance(progress, Progress) else Progress(progress)
    info, tp = table_play_for(play, rules, values, table_model, deals, ctx.seat, kitties)  # tp: the model, or None for DD
    levels = range(rules.min_bid, MAX_BID + 1)
    policy = get_policy(config.AUCTION_BIDDERS) if policy is None else policy
    kitties = np.zeros(deals.shape[0], dtype=np.uint64) if kitties is None else kitties
    every = np.arange(n)
    # one set of figures: every choice and every number on all the deals
    first = choose_trump(values, rules, None, table_model=tp, weights=weights)
    nt = choose_nt(values, rules, None, table_model=tp, weights=weights)
    # the hand's own PIMC play in that trump and in NT corrects the model (table play only)
    if is_table(tp) and (check is None or check > 0):
        with steps.step("playing some of the deals out (PIMC players) to correct the table-play model"):
            info, tp = played_check(info, tp, deals, ctx.seat, (_key(first.strain), nt), seed, check)
    # the trump is the top of the per-strain means printed beside it, the play's correction included
    trump = replace(choose_trump(values, rules, None, table_model=tp, weights=weights), chosen_on="all")
    nt = choose_nt(values, rules, None, table_model=tp, weights=weights)
    # ... and compared like with like: a strain the play did not correct can top the corrected ones on the
    # model's own error alone (the model errs on this hand the same way in every suit), so a trump or NT column
    # that comes out on top unplayed is played on the same deals too and the choice made again (at most once a
    # strain: the loop ends)
    while is_table(tp) and getattr(tp, "check", None) and not {_key(trump.strain), nt} <= tp.played_columns():
        with steps.step("playing the same deals out in the strain now on top"):
            more = tp.also_play(deals, ctx.seat, (_key(trump.strain), nt), config.TABLE_PLAY_CHECK_SAMPLES, seed)
        if more is tp:  # nothing left that could be played
            break
        tp = more
        info = replace(info, model=tp.describe(), check=tp.check)
        trump = replace(choose_trump(values, rules, None, table_model=tp, weights=weights), chosen_on="all")
        nt = choose_nt(values, rules, None, table_model=tp, weights=weights)
    trump = report_trump(trump, values, "all", every, table_model=tp, weights=weights)
    trump = replace(trump, clear=not trump.tie)
    # each call's worth, the rest of the auction played out
    scores = heard.scores if heard is not None else None
    basis = "net" if scores is None else "win"
    with steps.step("playing the rest of the auction out after each call"):
        cv = call_values(deals, kitties, ctx.seat, ctx.dealer, ctx.calls, rules, policy, trump=_key(trump.strain),
                         nt_strain=nt, values=values, table_model=tp, scores=scores or (0, 0),
                         win=scores is not None)
    bids, per_deal = bid_table(values, rules, ctx.seat, ctx.legal, trump.strain, every, table_model=tp, nt_strain=nt,
                               weights=weights)
    # each call's score when it stands, deal by deal: the tie-break between two bids of one strain
    standing = Standing.of(cv, per_deal, trump.strain, nt)
    rec = recommend_call(cv, basis, bids, per_deal, ctx, rules, trump.strain, nt, every, weights, standing)
    calls = call_table(cv, every, trump.strain, nt, ctx.seat, weights)
    pts = points_table(values, table_model=tp, weights=weights)
    spec = None
    notes = list(_notes(rules, ctx, specials, trump, int(n), info, heard))
    if first.strain != trump.strain:
        notes.append(f"The trump was first {STRAIN_NAMES[first.strain]} (the model alone); the hand's own play "
                     f"moved it below {STRAIN_NAMES[trump.strain]}, which now has the highest mean points, so "
                     f"{STRAIN_NAMES[trump.strain]} is the trump (its numbers are the model's, not corrected by play).")
    if specials and rules.kitty != "none":
        notes.append("The 5H/3S worth is not measured with a kitty (each special card's count changes the "
                     "declarer's best discard: two more searches over the discards a deal); where they are dealt "
                     "is not shown either.")
    elif specials:
        strain = _key(rec.strain if rec.strain is not None else trump.strain)
        # their worth on every other deal: two more solves each, so half the deals keep the cost to a
        # fifth of the hand's solving (it is no figure of the calls, and needs no more precision)
        with steps.step("the 5H and the 3S: two more solves of half the deals"):
            spec = specials_table(deals, values, ctx.seat, strain, rules, np.arange(1, n, 2) if n >= 4 else every,
                                  weights)
    extra = rules_notes(rules, mask, n)
    weak = [t for t in extra if t.startswith("This hand may demand a redeal")]
    notes = notes[:1] + weak + notes[1:] + [t for t in extra if t not in weak]  # a weak hand: said early
    return HandAdvice(
        hand=mask, seat=ctx.seat, dealer=ctx.dealer, n=int(n), seed=int(seed), rules=rules, auction=ctx,
        values=values, points=pts, make=make_table(values, levels, table_model=tp, weights=weights), bids=bids,
        recommendation=rec, match=match_on_calls(cv, basis, bids, ctx, rules, rec, every, weights), specials=spec,
        notes=tuple(notes), trump=trump, play=info, heard=heard, calls=calls,
        verdict=verdict_text(rec, ctx, heard, pre_empts=pre_emptive(rec, calls, bids) is not None),
    )


#: a step that runs longer than this (seconds) says what it is doing (and then how long it took)
SLOW_STEP = 2.0


class Progress:
    """Tells ``report`` (a callable taking one line; None: silent) about a
    step that is still running after :data:`SLOW_STEP` seconds, and how long
    it took once it ends: quick steps say nothing."""

    def __init__(self, report=None, slow: float = SLOW_STEP):
        self.report = report
        self.slow = slow

    def step(self, what: str):
        import contextlib
        import threading
        import time

        @contextlib.contextmanager
        def running():
            if self.report is None:
                yield
                return
            t0 = time.perf_counter()
            lock, state = threading.Lock(), {"over": False, "shown": False}

            def late():
                with lock:
                    if not state["over"]:
                        state["shown"] = True
                        self.report(f"{what} ...")

            timer = threading.Timer(self.slow, late)
            timer.daemon = True
            timer.start()
            try:
                yield
            finally:
                timer.cancel()
                with lock:
                    state["over"] = True
                if state["shown"]:
                    self.report(f"{what}: done in {time.perf_counter() - t0:.1f} s")

        return running()

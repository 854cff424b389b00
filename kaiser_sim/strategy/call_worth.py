"""What a call is worth, net of the opponents: each legal call, pass
included, valued by playing the rest of the auction out.

The hand score of a bid alone ("made: the raw points, failed: minus the
bid") leaves out what the opponents score, so it values passing at 0 and
cannot say when to compete, when to let partner play, or when a high bid
only pushes the opponents out.  Here a call is valued on a set of deals
(the advisor's, consistent with the calls heard when there are any:
:mod:`kaiser_sim.strategy.conditioned`), deal by deal:

1. the call is added to the calls before it; every later seat, up to the
   dealer, calls with its own hand under the bidding model (a match policy,
   :mod:`kaiser_sim.strategy.policies`; the same model the deals were conditioned on);
2. the highest bid takes the contract (the dealer's match takes it at the
   same level); its bidder declares and leads.  A plain contract is played
   in the declarer's trump: the advised hand's own trump (the advisor's
   choice) when it declares, the model's choice for any other declarer; NT
   in no trump (with ``low_nt="choice"`` high or low as the declarer
   prefers: the advised hand's choice, or the model's);
3. the contract is solved double dummy (every deal and declarer and strain
   once: :func:`kaiser_sim.game.contract_values`, the values the
   advisor already has reused for its own seat) and, under table play, the
   declaring side's points are the table-play model's distribution given
   that value (the defenders take the rest);
4. both sides' hand scores follow the rules from the scores before the hand
   (:func:`kaiser_sim.scoring.score_hands`: the 45 rule, NT doubling, ...),
   and the call's **net value** on the deal is the advised side's score
   minus the opponents' (expected over table play).  A hand all four pass
   is thrown in (net 0), unless the rules force the dealer to bid;
5. with the match score given, also the call's **chance of winning the
   match**: 1 or 0 where the hand ends the match, else the win-probability
   model's chance from the new score (:func:`kaiser_sim.strategy.policies.win_table`,
   the score-aware policy's model, with the rules' target).

A call's value is the mean over the deals, with its 95% interval; each deal
is one independent draw, so the interval is clustered by deal.  The values
here are per deal: when the deals carry importance weights (the default
conditioning, :attr:`kaiser_sim.strategy.conditioned.ConditionedDeals.weights`)
the caller weighs them (``sum w x / sum w``; the advisor does).  The later
seats call with the model's own call (:meth:`~kaiser_sim.strategy.policies.Policy.bid`:
for a deterministic policy its call, not its trembling hand, which serves only
to give every heard auction a likelihood).  The values are only as good as the
bidding model is a model of the other players.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..auction import Bid, bidder, call_text, legal_calls
# the actions a study compares in each auction position live with the policies (the listening
# policy chooses among them); this module re-exports them
from .policies import ACTIONS, position_calls
from ..rules import Rules

#: the two things a call can be chosen on
BASES = ("net", "win")


@dataclass(frozen=True, eq=False)
class CallValues:
    """Per legal call (``calls``: ``"pass"`` or the bid's text, in the order
    :func:`kaiser_sim.auction.legal_calls` gives), per deal:

    net : (C, n) the advised side's hand score minus the opponents', in the
        measure ``play`` (``"table"``: expected over table play; ``"dd"``).
    net_dd : (C, n) the same double dummy (``net`` itself when ``play`` is dd).
    win : (C, n) P(the advised side wins the match) after the hand, in
        ``play``'s measure, or None without a match score; ``win_dd`` likewise.
    strain : (C, n) the strain each contract is played in (0..5), -1 when
        thrown in; declarer : (C, n) its declarer's seat (-1: thrown in);
        level : (C, n) its level (0: thrown in).
    """

    calls: tuple
    play: str
    net: np.ndarray
    net_dd: np.ndarray
    win: np.ndarray | None
    win_dd: np.ndarray | None
    strain: np.ndarray
    declarer: np.ndarray
    level: np.ndarray

    def index(self, call: str) -> int:
        return self.calls.index(call)

    def values(self, basis: str = "net", dd: bool = False) -> np.ndarray:
        """(C, n): the per-deal values on ``basis`` (``"net"`` or ``"win"``)."""
        if basis == "win":
            if self.win is None:
                raise ValueError("no match score was given: no win chances")
            return self.win_dd if dd else self.win
        return self.net_dd if dd else self.net


def _before(scores, seat: int) -> np.ndarray:
    """(2,) the scores (N-S, E-W) from ``scores`` (ours, theirs) of ``seat``'s side."""
    ours, theirs = int(scores[0]), int(scores[1])
    return np.array([ours, theirs] if int(seat) % 2 == 0 else [theirs, ours], dtype=np.int64)


def _outcome(rules: Rules, level, nt, declarer, decl_raw, def_raw, before, side: int, table=None):
    """(net, win or None) per row from both sides' raw points: the advised
    ``side``'s hand score minus the other's, and P(win) from ``table``."""
    from ..scoring import score_hands

    res = score_hands(rules, level, nt, declarer, decl_raw, before, defender_raw=def_raw)
    net = (res.delta[:, side] - res.delta[:, 1 - side]).astype(np.float64)
    if table is None:
        return net, None
    after = res.scores
    go_on = table.win(after[:, side], after[:, 1 - side])
    win = np.where(res.winner >= 0, (res.winner == side).astype(np.float64), go_on)
    return net, win


def call_values(deals, kitties, seat: int, dealer: int, calls, rules: Rules, policy, *, trump: int,
                nt_strain: int, values, table_model=None, scores=(0, 0), win: bool = False) -> CallValues:
    """Every legal call of ``seat`` after ``calls`` valued on ``deals`` (module doc).

    trump : the advised hand's trump (0..3, or 4 with ``plain_bid_nt``) for
        its plain bids; nt_strain : the column its NT bids are played in (4,
        or 5 low); values : (n, k) its side's DD points with it on lead (the
        advisor's), reused for its own contracts in the game without a kitty
        or cover 3.
    table_model : the table-play model (None: double dummy only).
    scores : (ours, theirs) before the hand; win : also the chance of
        winning the match (the win-probability model of ``policy``'s play).
    """
    from .conditioned import ask_calls
    from ..game import LOW_NT, contract_values
    from .policies import PASS, BidView, contracts_of, ladder_arrays, win_table

    deals = np.asarray(deals, dtype=np.uint64)
    kitties = np.asarray(kitties, dtype=np.uint64)
    values = np.asarray(values, dtype=np.int64)
    n = deals.shape[0]
    lad = ladder_arrays(rules)
    heard = [c if c is None or isinstance(c, Bid) else Bid.parse(str(c)) for c in calls]
    legal = [c for c in legal_calls(rules, dealer, heard) if c is None or lad.playable[lad.rank(c)]]
    C = len(legal)
    k = len(heard)
    rows = np.tile(np.arange(n), C)  # row r: deal rows[r], call r // n
    m = rows.size
    auction = np.full((m, 4), PASS, dtype=np.int16)
    auction[:, :k] = [lad.rank(c) for c in heard] if k else np.zeros((m, 0))
    auction[:, k] = np.repeat([lad.rank(c) for c in legal], n)
    for j in range(k + 1, 4):
        s = bidder(dealer, j)
        auction[:, j] = ask_calls(policy, deals[rows, s], np.ascontiguousarray(auction[:, :j]), s, dealer, scores,
                                  seat, rules)
    dealers = np.full(m, int(dealer), dtype=np.int64)
    rank, who = contracts_of(auction, dealers)
    has = rank != PASS
    r_ = np.where(has, rank, 0)
    level = np.where(has, lad.levels[r_], 0)
    nt = lad.nt[r_] & has
    low = lad.low[r_] & has
    mine = who == int(seat)
    strain = np.full(m, -1, dtype=np.int64)
    strain[has & ~nt & mine] = int(trump)
    strain[has & nt & mine] = int(nt_strain)
    others = np.flatnonzero(has & ~mine)
    if others.size:  # other declarers name their strain by the model, seeing their own hand
        sv = np.asarray(scores)
        side_same = (who[others] & 1) == (int(seat) & 1)
        view = BidView(deals[rows[others], who[others]], np.ascontiguousarray(auction[others]), who[others],
                       dealers[others], np.where(side_same[:, None], sv[None, :], sv[None, ::-1]).astype(np.int64),
                       np.full(others.size, rules.target, dtype=np.int64), rules)
        plain_pick = policy.trump(view, r_[others])
        nt_low = policy.nt_low(view, r_[others]) if rules.low_nt == "choice" else np.zeros(others.size, bool)
        strain[others] = np.where(nt[others], np.where(nt_low, LOW_NT, 4), plain_pick)
    strain[low] = LOW_NT  # a low NT bid is played low whoever declares
    # double-dummy raw points of each distinct (deal, declarer, strain) once
    decl = np.zeros(m, dtype=np.int64)
    dfd = np.zeros(m, dtype=np.int64)
    reuse = has & mine & (rules.kitty == "none") & (not rules.cover3) & (strain < values.shape[1])
    decl[reuse] = values[rows[reuse], strain[reuse]]
    dfd[reuse] = rules.raw_total - decl[reuse]
    todo = np.flatnonzero(has & ~reuse)
    if todo.size:
        key = (rows[todo] * 4 + who[todo]) * 8 + strain[todo]
        uniq, first, inv = np.unique(key, return_index=True, return_inverse=True)
        t = todo[first]
        # where each search starts: the advised seat's value of the deal and strain with it on lead, for the
        # declaring side (the leader moves a value little; measured on the advisor's deals, E or W on lead
        # rather than S: 16-18% fewer nodes than starting low); a hint only, never a value
        col = np.minimum(strain[t], values.shape[1] - 1)
        near = values[rows[t], col]
        near = np.where((who[t] & 1) == (int(seat) & 1), near, rules.raw_total - near)
        a, b = contract_values(deals[rows[t]], kitties[rows[t]], who[t], strain[t], rules, guess=near)
        decl[todo], dfd[todo] = a[inv], b[inv]
    side = int(seat) & 1
    before = _before(scores, seat)
    table = win_table(rules, play=getattr(policy, "play", None) or "table") if win else None
    net_dd = np.zeros(m)
    win_dd = np.full(m, np.nan) if win else None
    if win:  # a thrown-in hand leaves the score as it is
        win_dd[:] = table.win(np.full(m, before[side]), np.full(m, before[1 - side]))
    h = np.flatnonzero(has)
    if h.size:
        nd, wd = _outcome(rules, level[h], nt[h], who[h], decl[h], dfd[h], before, side, table)
        net_dd[h] = nd
        if win:
            win_dd[h] = wd
    net, win_t = net_dd, win_dd
    play = "dd"
    if table_model is not None:
        from .table_play import POINTS, HandTablePlay, declarer_band

        play = "table"
        net = net_dd.copy()
        win_t = None if win_dd is None else win_dd.copy()
        hand = table_model if isinstance(table_model, HandTablePlay) else None
        base = table_model.model if hand is not None else table_model
        # the advised hand's own contracts read its table play deal by deal (kept within each deal's bounds
        # and corrected by its own play: HandTablePlay); every other contract the model alone
        own = reuse & (hand is not None)
        h = np.flatnonzero(has & ~own)
        if h.size:
            # (h, 15) the declaring side's table points, by the declarer's count band in its strain
            band = declarer_band(deals[rows[h], who[h]], strain[h]) if base.banded else None
            dist = base.dist(decl[h], strain[h] >= 4, band)
            ev_net = np.zeros(h.size)
            ev_win = np.zeros(h.size)
            for j, t in enumerate(POINTS):
                # what the declaring side's table play gains on its DD value the defenders lose: their DD points
                # less the gain (the rest of the total in the plain game, where the two add to it; under cover 3
                # or a kitty they need not: playout_net's rule)
                nt_, wt_ = _outcome(rules, level[h], nt[h], who[h], np.full(h.size, t), dfd[h] + decl[h] - t,
                                    before, side, table)
                ev_net += dist[:, j] * nt_
                if win:
                    ev_win += dist[:, j] * wt_
            net[h] = ev_net
            if win:
                win_t[h] = ev_win
        for c in range(C):  # one contract (level, strain) a call when it is the hand's own
            sel = np.flatnonzero(own[c * n:(c + 1) * n]) + c * n
            if not sel.size:
                continue
            i0 = sel[0]
            pts = POINTS.astype(np.int64)
            nv, wv = _outcome(rules, np.full(pts.size, level[i0]), np.full(pts.size, nt[i0]),
                              np.full(pts.size, int(seat)), pts, rules.raw_total - pts, before, side, table)
            net[sel] = hand.expected_score(int(strain[i0]), nv, rows[sel])
            if win:
                win_t[sel] = hand.expected_score(int(strain[i0]), wv, rows[sel])

    def shaped(x):
        return None if x is None else x.reshape(C, n)

    return CallValues(tuple(call_text(c) for c in legal), play, shaped(net), shaped(net_dd), shaped(win_t),
                      shaped(win_dd), shaped(strain), shaped(np.where(has, who, -1)), shaped(level))


def playout_net(deals, dealers, calls, k: int, call, rules: Rules, policy, points, table_model=None,
                other_points=None):
    """The net value (the caller's side's hand score minus the opponents')
    of making ``call`` (``(m,)`` ranks, ``PASS`` -1) as call ``k`` after
    ``calls[:, :k]`` on each row: the later seats call by ``policy``, the
    contract (the highest bid; the dealer's match takes it) is played by its
    bidder in the strain ``policy`` names for it (NT for an NT bid), and its
    value is read from ``points`` ``(m, 4, 5)`` (the declaring side's points
    with every leader and strain, double dummy: a results dataset's) and
    ``other_points`` (the same layout: the other side's; default
    ``rules.raw_total - points``), under table play when ``table_model``
    (a :class:`~kaiser_sim.strategy.table_play.TablePlayModel`) is given.  A hand all
    pass is thrown in (0); the scores are 0-0.  Returns ``(net (m,),
    declarer (m,), -1 thrown in)``.

    Under rules with low no trump a low NT bid is played low (with
    ``low_nt="choice"`` an NT bid is played low when the model's
    :meth:`~kaiser_sim.strategy.policies.Policy.nt_low` says so): ``points``
    (and ``other_points``) then need the sixth strain, low NT
    (``(m, 4, 6)``: :func:`kaiser_sim.studies.common.run_points` with
    ``low_nt``).  Under a kitty the run's points are the declaring side's
    with the kitty taken up and discarded best; where the declarer may
    discard the 5H or 3S to nobody the two sides need not add to the total:
    give the other side's (:func:`kaiser_sim.studies.common.playout_sides`).

    Under cover 3 the two sides' points do not add to ``rules.raw_total``
    when a side takes fewer than 3 tricks: give both
    (:func:`kaiser_sim.studies.common.run_points`), and double dummy values
    each side as :func:`kaiser_sim.game.contract_values` scores it.  Table play models the declaring side only (its
    points' distribution given its double-dummy value); the defenders then
    take their double-dummy points less what the declaring side's table play
    gains on its own double-dummy value (the rest of the total whenever the
    two double-dummy values add to it, as in the standard game: exact there
    when both sides take 3 tricks at the table; an approximation for a side
    under 3 tricks)."""
    from .policies import PASS, BidView, contracts_of, ladder_arrays

    deals = np.asarray(deals, dtype=np.uint64)
    m = deals.shape[0]
    lad = ladder_arrays(rules)
    dealers = np.asarray(dealers, dtype=np.int64)
    auction = np.full((m, 4), PASS, dtype=np.int16)
    auction[:, :k] = np.asarray(calls)[:, :k]
    auction[:, k] = np.asarray(call, dtype=np.int16)
    rows = np.arange(m)
    caller = (dealers + 1 + k) % 4

    def view(r, seats, upto=4):
        return BidView(deals[r, seats], np.ascontiguousarray(auction[r, :upto]), seats, dealers[r],
                       np.zeros((r.size, 2), dtype=np.int64), np.full(r.size, rules.target, dtype=np.int64), rules)

    for j in range(k + 1, 4):
        auction[:, j] = np.asarray(policy.bid(view(rows, (dealers + 1 + j) % 4, j)), dtype=np.int16)
    rank, who = contracts_of(auction, dealers)
    has = rank != PASS
    net = np.zeros(m)
    h = np.flatnonzero(has)
    if h.size:
        r_ = rank[h]
        trump = policy.trump(view(h, who[h]), r_)
        strain = np.where(lad.nt[r_], 4, trump)
        if rules.low_nt != "off":  # a low NT bid is played low; with the choice, the declarer's (the model's)
            from ..game import LOW_NT

            low = lad.low[r_] | (lad.nt[r_] & (policy.nt_low(view(h, who[h]), r_) if rules.low_nt == "choice"
                                               else False))
            strain = np.where(low, LOW_NT, strain)
            if low.any() and np.shape(points)[2] <= LOW_NT:
                raise ValueError("a low NT contract is played: points needs the low NT column (run_points "
                                 "with low_nt=True)")
        dd = np.asarray(points)[h, who[h], strain].astype(np.int64)
        # the defenders' double-dummy points (None: the rest of the total, as the scoring takes them); an array,
        # or an object read like one (kaiser_sim.studies.common.SolvedOther: solved when first read)
        dd_def = None if other_points is None else np.asarray(other_points[h, who[h], strain]).astype(np.int64)
        side = caller[h] & 1
        level, nt = lad.levels[r_], lad.nt[r_]
        if table_model is None:
            net[h] = _side_net(rules, level, nt, who[h], dd, side, dd_def)
        else:
            from .table_play import POINTS, declarer_band

            # the declarer's count band in the strain played: the model's rows for that hand
            dist = table_model.dist(dd, nt, declarer_band(deals[h, who[h]], strain))
            for j, t in enumerate(POINTS):
                # what the declaring side's table play gains on its DD value the defenders lose (module doc)
                def_t = None if dd_def is None else dd_def + dd - t
                net[h] += dist[:, j] * _side_net(rules, level, nt, who[h], np.full(h.size, t), side, def_t)
    return net, np.where(has, who, -1)


def cover3_words(rules: Rules, table: bool) -> str:
    """What a table valued by :func:`playout_net` says of cover 3 in its note
    ("" without cover 3); ``table``: valued in table play."""
    if not rules.cover3:
        return ""
    return ("; cover 3: each side's double-dummy points scored from its tricks" + (
        ", and in table play the defenders take theirs less what the declaring side's play gains on its own (the "
        "table-play model is the declaring side's: an approximation where a side takes under 3 tricks)"
        if table else ""))


def rules_words(rules: Rules, table: bool) -> str:
    """What a table valued by :func:`playout_net` says of the rules that
    change how a contract is valued ("" in the plain game): a kitty, low no
    trump, cover 3 (:func:`cover3_words`, last); ``table``: valued in table
    play."""
    words = ""
    if rules.kitty != "none":
        words += "; a kitty: its declarer takes it up and discards best (double dummy)"
        if rules.may_discard_specials and rules.kitty_discard_points != "declarer":
            words += (", a 5H or 3S discarded counting for nobody: the defenders' own points, solved as the "
                      "contracts are played out" + (", less in table play what the declaring side's play gains on "
                                                      "its own" if table else ""))
    if rules.low_nt == "bid":
        words += "; a low NT bid played in low no trump"
    elif rules.low_nt == "choice":
        words += "; an NT contract played low where the bidding model prefers it"
    return words + cover3_words(rules, table)


def _side_net(rules: Rules, level, nt, declarer, decl_raw, side, def_raw=None) -> np.ndarray:
    """Per row: ``side``'s hand score minus the other side's (scores 0-0);
    the defenders' raw points ``def_raw`` (None: the rest of the total)."""
    from ..scoring import score_hands

    res = score_hands(rules, level, nt, declarer, decl_raw, (0, 0), defender_raw=def_raw)
    rows = np.arange(res.delta.shape[0])
    return (res.delta[rows, side] - res.delta[rows, 1 - side]).astype(np.float64)


__all__ = ["ACTIONS", "BASES", "CallValues", "call_values", "cover3_words", "playout_net", "position_calls",
           "rules_words"]

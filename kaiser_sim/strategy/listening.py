"""The listening policy's table: the net value of each call given what was
heard, by simulation, iterated until the bidders' calls stop moving.

The ``listening`` bidding policy (:class:`kaiser_sim.strategy.policies.ListeningPolicy`)
makes, in each auction position, the call of
:data:`kaiser_sim.strategy.policies.ACTIONS` (pass, the cheapest plain or NT bid, one
step above each, the dealer's match) with the highest mean **net value**:
the caller's side's hand score minus the opponents', at 0-0, the rest of
the auction bid by the other players and the contract played.  The means
are read from a table (:class:`kaiser_sim.strategy.policies.ListeningTable`) indexed
by what the caller knows: its position (1st .. the dealer), who holds the
highest bid (nobody, partner, an opponent) and its rank, and a feature of
its hand (:func:`kaiser_sim.strategy.policies.listen_features`: its expected points
in its best trump and in NT, from the make model).  So its odds are
*conditioned* on the calls heard: a cell averages over the deals on which
those calls were made, by bidders with their own hands.

Building the table (:func:`build_tables`):

1. ``deals`` random deals of ``seed`` (:func:`kaiser_sim.deal.deal_batch`,
   the weak-hand redeal not applied) are solved double dummy from every
   seat in every strain once (:func:`kaiser_sim.dd.dd_table`, the dominant
   cost);
2. round ``r`` assumes every other seat bids like round ``r - 1``'s policy
   (round 0: the starting bidder, :data:`START`: the shipped bidding
   population, :class:`kaiser_sim.strategy.policies.PopulationPolicy`;
   ``ev`` where it has no fit for the rules or play): each deal is bid
   around by that policy; in each
   position every legal action is tried in turn, the later seats bid by
   that policy (each with its own hand), the highest bid takes the contract,
   its bidder names trump as ``ev`` does (NT for an NT bid) and declares on
   lead, and the contract is scored: double dummy under ``play="dd"``, or
   (``play="table"``) the expectation over the table-play model's
   distribution given the DD points and the declarer's count band (:mod:`kaiser_sim.strategy.table_play`); its
   net value at 0-0 (:func:`kaiser_sim.scoring.score_hands`) goes into the
   cell of the caller's position, what it heard and its hand's feature;
3. round ``r``'s policy reads round ``r``'s table (``ev`` in cells with
   fewer than ``min_cell`` deals); its call frequencies (each call's share
   in each position, self-play on the same deals) are compared with round
   ``r - 1``'s; the rounds stop when no share moves by ``tolerance`` or
   more (converged) or after ``max_rounds`` (not converged: the last
   round's table is kept, and the rounds say so).

Against the population the others do not move: the table is round 1's,
the best response to it (one round; ``info["start"]`` says so).  Iterated
from it, the pooled rounds drifted back towards the trap :data:`START`
describes (after 12 rounds the first seat opened 46% of hands counting
4.5-5 and 13% of those counting 5.5-6), so only ``ev``'s start (rules the
population has no fit for) iterates.

The rounds are kept with the table (``info["rounds"]``: each round's call
shares by position and its largest change) and printed by ``kaiser-sim
listening-table``.  The shipped file (``kaiser_sim/data/listening_table.npz``)
holds a table for each play (``"table"``, ``"dd"``), from the same deals.

What it is not: the values are one hand's at 0-0 (the policy ignores the
match score); the other players are modelled as bidding like the population
(from ``ev``: like the policy of the round before), and the partner's and opponents' hands are only as
informative as that model's calls.  Only the standard deck without a kitty,
low no trump or cover 3 (the DD table has no low-NT column; a kitty changes
the hands).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..errors import KaiserSimError
from .policies import (ACTIONS, LISTEN_BINS, PASS, BidView, ListeningTable, PopulationPolicy, auction_context, choose,
                       contracts_of, hand_values, ladder_arrays, listen_features, position_calls)
from .measure import MEASURES, measure_for
from .table_play import fit_seeds
from ..rules import Rules

#: the shipped table: this many random deals of this seed
LISTEN_DEALS = 16000
LISTEN_SEED = 20261202
#: the rounds stop when no call's share in any position moves by this much (2 points in 100), or
#: after MAX_ROUNDS
TOLERANCE = 0.02
MAX_ROUNDS = 20
#: the fewest deals a cell's actions need for the policy to read the cell (else it bids as ev): a
#: net value's standard deviation is about 6 points, so 40 deals put a mean within about +-2
MIN_CELL = 40
#: the policy leaves ev's call only for an action whose mean beats it by more than this many
#: standard errors (of the action's mean): the cells' means are noisy, and a pure argmax would
#: chase that noise from round to round
MARGIN = 1.0
#: the bidder the rounds start from (round 0's others): the shipped population, a credible bidder.
#: Started from ``ev`` (who opens 96% of hands and overcalls any positive expectation), every call of
#: a hand with nothing nets about the same (about -6: the opponents take the hand whatever it calls),
#: the cells' argmax picked an opening for the weakest hands, and the later rounds locked that in:
#: first seat opened 99% of hands counting 4 or less and 13% of those counting 6.5-8, a first-seat
#: pass came to show values, and the partner who heard one overcalled on it (issue 41).  The table is the
#: best response to it (one round: module doc)
START = "population"


class ListeningError(KaiserSimError):
    """Rules the table cannot be built for, or bad sizes."""


def check_rules(rules: Rules) -> None:
    """Refuse rules outside the table's domain (module doc; the capability
    table, :mod:`kaiser_sim.strategy.capabilities`)."""
    from .capabilities import check

    check("listening-table", rules, ListeningError)


@dataclass
class Seats:
    """What the bidders know of each (deal, seat), computed once: ``ev``
    (n, 4, L) expected hand scores, ``trump`` (n, 4, L) ``ev``'s trump for
    each bid, ``feature`` (n, 4) the listening table's bin, ``hands`` (n, 4)
    the hands (for a starting policy that reads them)."""

    ev: np.ndarray
    trump: np.ndarray
    feature: np.ndarray
    hands: np.ndarray | None = None

    @classmethod
    def of(cls, deals, rules: Rules, play: str, make_model=None) -> Seats:
        n = deals.shape[0]
        hands = deals.reshape(-1)
        ev, trump, _, _ = hand_values(hands, rules, make_model, play)
        L = ev.shape[1]
        feature = listen_features(hands, rules, make_model, play)
        return cls(ev.reshape(n, 4, L), trump.reshape(n, 4, L), feature.reshape(n, 4),
                   np.asarray(deals, dtype=np.uint64).reshape(n, 4))


def _bid(table: ListeningTable | None, calls: np.ndarray, ev: np.ndarray, feature: np.ndarray,
         rules: Rules) -> np.ndarray:
    """The calls of one position by ``ev`` (``table`` None) or by the
    listening policy reading ``table`` (``ev`` where it does not read):
    the same choices as the policies' ``bid`` on these seats' values."""
    m, k = calls.shape
    view = BidView(np.zeros(m, dtype=np.uint64), calls, np.zeros(m, dtype=np.int64), np.zeros(m, dtype=np.int64),
                   np.zeros((m, 2), dtype=np.int64), np.full(m, rules.target), rules)
    out = choose(ev, 0.0, view)
    if table is not None:
        out = table.choose(calls, feature, rules, out)[0]
    return out


def bid_around(table, seats: Seats, rows: np.ndarray, dealers: np.ndarray, calls: np.ndarray, start: int,
               rules: Rules) -> np.ndarray:
    """``calls`` (``(m, 4)`` for the deals ``rows``) with positions ``start``
    .. 3 bid by the policy of ``table`` (a :class:`ListeningTable`; None:
    ``ev``; or a :class:`kaiser_sim.strategy.policies.Policy`, the starting
    bidder, at 0-0), each seat its own hand."""
    calls = calls.copy()
    for j in range(start, 4):
        seat = (dealers[rows] + 1 + j) % 4
        prefix = np.ascontiguousarray(calls[:, :j])
        if table is None or isinstance(table, ListeningTable):
            calls[:, j] = _bid(table, prefix, seats.ev[rows, seat], seats.feature[rows, seat], rules)
        else:
            m = rows.size
            calls[:, j] = table.bid(BidView(seats.hands[rows, seat], prefix, seat, dealers[rows],
                                            np.zeros((m, 2), dtype=np.int64), np.full(m, rules.target), rules))
    return calls


def net_table(rules: Rules) -> np.ndarray:
    """``(L, 15)``: the declaring side's hand score minus the defenders' at
    0-0 for each bid of the ladder and declaring side's raw points -2..12."""
    from ..scoring import score_hands
    from .table_play import POINTS

    lad = ladder_arrays(rules)
    L = len(lad)
    r = np.repeat(np.arange(L), POINTS.size)
    raw = np.tile(POINTS, L)
    res = score_hands(rules, lad.levels[r], lad.nt[r], np.zeros(r.size, dtype=np.int64), raw, (0, 0))
    return (res.delta[:, 0] - res.delta[:, 1]).astype(np.float64).reshape(L, POINTS.size)


def contract_net(calls: np.ndarray, rows: np.ndarray, dealers: np.ndarray, caller: np.ndarray, seats: Seats,
                 points: np.ndarray, nets: np.ndarray, rules: Rules, table_model=None) -> np.ndarray:
    """``(m,)`` the net value, to the side of seat ``caller``, of the
    auctions ``calls`` on the deals ``rows``: the contract played by its
    bidder on lead in ``ev``'s trump (NT for an NT bid), double dummy, or
    the expectation over the table-play model given the DD points and the
    declaring hand's count band (the pooled rows where ``seats`` keeps no
    hands) when ``table_model`` is given; a hand all pass is thrown in (0)."""
    from .table_play import POINTS, declarer_band

    lad = ladder_arrays(rules)
    rank, who = contracts_of(calls, dealers[rows])
    out = np.zeros(rows.size)
    h = np.flatnonzero(rank != PASS)
    if not h.size:
        return out
    r_, w = rank[h], who[h]
    strain = np.where(lad.nt[r_], 4, seats.trump[rows[h], w, r_])
    dd = points[rows[h], w, strain].astype(np.int64)
    sign = np.where((w & 1) == (caller[h] & 1), 1.0, -1.0)
    if table_model is None:
        out[h] = sign * nets[r_, dd - POINTS[0]]
    else:
        nt = lad.nt[r_]
        # the declarer's band, as every study and the advisor read the model: a strong hand's contract
        # takes more at the table than an average one of the same DD value (the pooled rows alone left the
        # population valuing a strong hand's 7NT low, which the advisor's best response exploited)
        band = None if seats.hands is None else declarer_band(seats.hands[rows[h], w], strain)
        dist = np.empty((h.size, POINTS.size))
        for kind in (False, True):
            sel = np.flatnonzero(nt == kind)
            if sel.size:
                dist[sel] = table_model.dist(dd[sel], kind, None if band is None else band[sel])
        out[h] = sign * (dist * nets[r_]).sum(axis=1)
    return out


def call_shares(calls: np.ndarray, L: int) -> np.ndarray:
    """``(4, L + 1)``: each call's share in each position (column 0 pass, 1 + rank)."""
    return np.stack([np.bincount(calls[:, k].astype(np.int64) + 1, minlength=L + 1) / calls.shape[0]
                     for k in range(4)])


def round_sums(others, seats: Seats, points, dealers, rules: Rules, table_model=None):
    """One round's sums (module doc, step 2): ``(s1, s2, count)``, each of
    the table's shape, of the net values (and their squares) with every
    seat but the caller bidding by the policy of ``others`` (a
    :class:`ListeningTable`, None for ``ev``, or the starting policy)."""
    lad = ladder_arrays(rules)
    L, A, F = len(lad), len(ACTIONS), LISTEN_BINS
    n = dealers.size
    shape = (4, 3, L + 1, F, A)
    size = int(np.prod(shape))
    s1, s2, cnt = np.zeros(size), np.zeros(size), np.zeros(size)
    nets = net_table(rules)
    rows_all = np.arange(n)
    base = bid_around(others, seats, rows_all, dealers, np.full((n, 4), PASS, dtype=np.int16), 0, rules)
    for k in range(4):
        acts = position_calls(base, k, rules)
        holder, top = auction_context(base[:, :k])
        caller = (dealers + 1 + k) % 4
        f = seats.feature[rows_all, caller]
        for a in range(A):
            r = np.flatnonzero(acts[:, a] != -2)
            if not r.size:
                continue
            calls = base[r].copy()
            calls[:, k] = acts[r, a]
            calls[:, k + 1:] = PASS
            calls = bid_around(others, seats, r, dealers, calls, k + 1, rules)
            net = contract_net(calls, r, dealers, caller[r], seats, points, nets, rules, table_model)
            idx = np.ravel_multi_index((np.full(r.size, k), holder[r], top[r] + 1, f[r], np.full(r.size, a)), shape)
            s1 += np.bincount(idx, net, size)
            s2 += np.bincount(idx, net * net, size)
            cnt += np.bincount(idx, minlength=size)
    return s1.reshape(shape), s2.reshape(shape), cnt.reshape(shape)


def table_of(s1, s2, cnt, rounds: int, rules: Rules, play: str, min_cell: int = MIN_CELL, margin: float = MARGIN,
             info=None) -> ListeningTable:
    """The table of sums pooled over ``rounds`` rounds: the mean and the
    standard deviation of the pooled net values, and ``n`` the deals behind
    a cell in one round (the pooled count / ``rounds``: the same deals
    recur in every round)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(cnt > 0, s1 / np.maximum(cnt, 1), 0.0)
        var = np.where(cnt > 1, (s2 - cnt * mean ** 2) / np.maximum(cnt - 1, 1), 0.0)
    return ListeningTable(mean.astype(np.float32), np.round(cnt / rounds).astype(np.int32),
                          np.sqrt(np.maximum(var, 0)).astype(np.float32), play, rules.to_dict(), int(min_cell),
                          dict(info or {}), float(margin))


def iterate(seats: Seats, points, dealers, rules: Rules, play: str, table_model=None, tolerance: float = TOLERANCE,
            max_rounds: int = MAX_ROUNDS, min_cell: int = MIN_CELL, margin: float = MARGIN,
            log=None, start=None, fixed: bool = False) -> tuple[ListeningTable, list, bool]:
    """``(table, rounds, converged)``: the rounds of module doc step 3.
    Round ``r``'s table pools the net values of rounds 1 .. ``r`` (each
    round's others bidding by the policy of the pooled table before it:
    fictitious play, which damps the swings of a pure best response);
    round 1's others bid by ``start`` (a policy; None: ``ev``); ``fixed``:
    they keep bidding by it, so round 1's table is the best response to it
    and the rounds end there (converged: the others do not move).
    ``rounds[0]`` is ``start``'s call shares; each later one has its
    ``shares`` ((4, L + 1) lists), ``change`` (the largest move of a share
    from the round before) and ``read`` (the share of calls in cells the
    table has enough deals for)."""
    L = len(ladder_arrays(rules))
    n = dealers.size
    rows = np.arange(n)
    empty = np.full((n, 4), PASS, dtype=np.int16)

    def shares_of(table):
        return call_shares(bid_around(table, seats, rows, dealers, empty, 0, rules), L)

    first = "ev" if start is None else start.name
    prev = shares_of(start)
    rounds = [{"round": 0, "others": "-", "policy": first, "shares": prev.round(5).tolist(), "change": None}]
    others, table, converged = start, None, False
    sums = None
    for r in range(1, max_rounds + 1):
        t0 = time.perf_counter()
        new = round_sums(others, seats, points, dealers, rules, table_model)
        sums = new if sums is None else tuple(a + b for a, b in zip(sums, new))
        table = table_of(*sums, r, rules, play, min_cell, margin)
        shares = shares_of(table)
        change = float(np.abs(shares - prev).max())
        read = _read_share(table, seats, dealers, rules)
        rounds.append({"round": r, "others": first if r == 1 else f"round {r - 1}", "policy": f"round {r}",
                       "shares": shares.round(5).tolist(), "change": round(change, 5), "read": round(read, 4),
                       "seconds": round(time.perf_counter() - t0, 2)})
        if log:
            log(f"round {r} (others bid as {rounds[-1]['others']}): largest change of a call's share {change:.4f}, "
                f"table read on {100 * read:.1f}% of calls ({rounds[-1]['seconds']:.1f}s)")
        others, prev = (start if fixed else table), shares
        if fixed or change < tolerance:
            converged = True
            break
    return table, rounds, converged


def _read_share(table, seats, dealers, rules) -> float:
    """The share of the calls of a self-play auction that ``table`` made (not ``ev``)."""
    n = dealers.size
    rows = np.arange(n)
    calls = bid_around(table, seats, rows, dealers, np.full((n, 4), PASS, dtype=np.int16), 0, rules)
    read = 0
    for k in range(4):
        seat = (dealers + 1 + k) % 4
        prefix = np.ascontiguousarray(calls[:, :k])
        read += table.choose(prefix, seats.feature[rows, seat], rules, calls[:, k])[1].sum()
    return read / (4 * n)


def solve(deals_n: int, seed: int, threads=None):
    """``(deals (n, 4), points (n, 4, 5))``: the table's deals and their DD points."""
    from ..deal import deal_batch
    from ..game import dd_table
    from ..rules import STANDARD

    deals = deal_batch(deals_n, seed)
    return deals, np.asarray(dd_table(deals, STANDARD, threads=threads), dtype=np.int64)


def start_policy(start: str | None, rules: Rules, play: str):
    """``(policy, record)``: the bidder the rounds start from (module doc,
    :data:`START`) for ``play`` under ``rules``: the shipped population
    (``start="population"``) where it has a fit for them, else ``ev``
    (policy None; ``start`` None or ``"ev"``: ``ev``); ``record`` says which,
    with the population's provenance (or why not)."""
    if start in (None, "ev"):
        return None, {"policy": "ev"}
    if start != "population":
        raise ListeningError(f"start from 'population' or 'ev', not {start!r}")
    model = PopulationPolicy(play=play).model_for(rules)
    if model is None:
        return None, {"policy": "ev", "why": f"no population fit for {play} play under rules {rules.label}"}
    import hashlib

    from .policies import population_path

    info = model.info
    return PopulationPolicy(model, play=play), {
        "policy": "population", "deals": info.get("deals"), "seed": info.get("seed"),
        "rounds": max(len(info.get("rounds", [])) - 1, 0), "converged": info.get("converged"),
        "version": info.get("version"),
        # which population file: a rebuilt population (same deals and seed) is told apart by its bytes
        "sha256": hashlib.sha256(population_path().read_bytes()).hexdigest()}


def build_tables(rules: Rules = Rules.preset("standard"), deals: int = LISTEN_DEALS, seed: int = LISTEN_SEED,
                 plays=MEASURES, tolerance: float = TOLERANCE, max_rounds: int = MAX_ROUNDS,
                 min_cell: int = MIN_CELL, margin: float = MARGIN, points=None, threads=None, log=None,
                 start: str | None = START) -> dict:
    """``{play: ListeningTable}`` built as the module doc says, each with its
    provenance and rounds in ``info``.  ``points``: the deals' DD points if
    already solved (``(deals, 4, 5)``, from :func:`solve` with these deals
    and seed); ``start``: the bidder the rounds start from
    (:func:`start_policy`)."""
    from .. import __version__

    rules = rules or Rules.preset("standard")
    check_rules(rules)
    if deals < 100:
        raise ListeningError(f"at least 100 deals, not {deals}")
    log = log or (lambda line: None)
    t0 = time.perf_counter()
    if points is None:
        log(f"solving {deals:,} deals (seed {seed}) double dummy, every seat and strain ...")
        dl, points = solve(deals, seed, threads)
    else:
        from ..deal import deal_batch

        dl = deal_batch(deals, seed)
        points = np.asarray(points, dtype=np.int64)
        if points.shape != (deals, 4, 5):
            raise ListeningError(f"points of shape {points.shape}, not ({deals}, 4, 5)")
    solve_s = time.perf_counter() - t0
    log(f"solved in {solve_s:.1f}s")
    dealers = np.arange(deals, dtype=np.int64) % 4
    out = {}
    for play in plays:
        t1 = time.perf_counter()
        measure = measure_for(rules, play)  # the one place that decides table play or double dummy
        used, table_model = measure.used, measure.table_model
        log(f"{play} play: features of {4 * deals:,} hands, then the rounds")
        seats = Seats.of(dl, rules, used)
        first, start_info = start_policy(start, rules, used)
        log(f"{play} play: the rounds start from {start_info['policy']}" + (f" ({start_info['why']})"
                                                                          if "why" in start_info else ""))
        table, rounds, converged = iterate(seats, points, dealers, rules, used, table_model, tolerance, max_rounds,
                                           min_cell, margin, log, first, fixed=first is not None)
        info = {"play": used, "rules": rules.to_dict(), "rules_label": rules.label, "deals": int(deals),
                "seed": int(seed), "min_cell": int(min_cell), "margin": float(margin), "tolerance": float(tolerance),
                "max_rounds": int(max_rounds), "rounds": rounds, "converged": bool(converged), "start": start_info,
                "solve_seconds": round(solve_s, 1), "seconds": round(time.perf_counter() - t1, 1),
                "version": __version__, "actions": list(ACTIONS),
                "calls": ["pass"] + [str(b) for b in ladder_arrays(rules).bids]}
        if table_model is not None:  # which table-play model the table's scores went through (all of it:
            prov = table_model.provenance  # contract_net reads each declarer's band)
            info["table_model"] = {"deals": prov.get("deals"), "fit_seeds": fit_seeds(prov)}
        out[used] = ListeningTable(table.mean, table.n, table.sd, used, rules.to_dict(), int(min_cell), info,
                                   float(margin))
        if first is not None:  # the others bid by a fixed model: one best response, nothing to converge
            log(f"{play} play: the best response to {start_info['policy']}, one round ({info['seconds']:.1f}s)")
        else:
            log(f"{play} play: {'converged' if converged else 'NOT converged'} after {len(rounds) - 1} "
                f"round{'' if len(rounds) == 2 else 's'} ({info['seconds']:.1f}s)")
    return out


def save_tables(tables: dict, path) -> int:
    """Write ``tables`` (``{play: ListeningTable}``) to ``path`` (``.npz``;
    written to a temporary file and renamed); its size in bytes."""
    from .policies import save_npz

    doc = {"schema": "kaiser-sim/listening-table/1", "plays": list(tables),
           "tables": {p: t.info for p, t in tables.items()}}
    arrays = {}
    for p, t in tables.items():
        arrays[f"{p}_mean"], arrays[f"{p}_n"], arrays[f"{p}_sd"] = t.mean, t.n, t.sd
    return save_npz(path, doc, arrays)


def _start_text(start) -> str:
    """The starting bidder of a table's record, in words (tables built before the record: ``ev``)."""
    if not start or start.get("policy") != "population":
        return "ev" + (f" ({start['why']})" if start and start.get("why") else "")
    return (f"the population ({start.get('deals') or 0:,} deals, seed {start.get('seed')}, "
            f"{start.get('rounds')} rounds): its best response")


def rounds_text(table: ListeningTable) -> str:
    """The rounds of ``table`` as lines: per round the share of passes,
    plain bids and NT bids in each position, and the largest change."""
    info = table.info
    calls = info.get("calls", [])
    nt = np.array(["NT" in c for c in calls])
    lines = [f"{info.get('play')} play, {info.get('deals', 0):,} deals (seed {info.get('seed')}), rules "
             f"{info.get('rules_label')}: {'converged' if info.get('converged') else 'NOT converged'} after "
             f"{len(info.get('rounds', [])) - 1} round{'' if len(info.get('rounds', [])) == 2 else 's'} (tolerance {info.get('tolerance')}: the largest change of a "
             f"call's share in a position), started from {_start_text(info.get('start'))}",
             f"{'round':>5}  {'others bid as':>13}  " + "  ".join(f"{'pos ' + str(k + 1) + ' pass/bid/NT %':>20}"
                                                              for k in range(4)) + f"  {'change':>7}  {'read %':>6}"]
    for r in info.get("rounds", []):
        sh = np.asarray(r["shares"])
        cells = []
        for k in range(4):
            p, b, t = sh[k, 0], sh[k, 1:][~nt[1:]].sum(), sh[k, 1:][nt[1:]].sum()
            cells.append(f"{100 * p:>6.1f}/{100 * b:>5.1f}/{100 * t:>5.1f}")
        ch = "-" if r.get("change") is None else f"{r['change']:.4f}"
        rd = "-" if r.get("read") is None else f"{100 * r['read']:.1f}"
        lines.append(f"{r['round']:>5}  {r['others']:>13}  " + "  ".join(f"{c:>20}" for c in cells)
                     + f"  {ch:>7}  {rd:>6}")
    return "\n".join(lines)


__all__ = ["build_tables", "start_policy", "START", "round_sums", "table_of", "iterate", "save_tables", "rounds_text", "solve", "Seats", "bid_around",
           "contract_net", "net_table", "call_shares", "check_rules", "ListeningError", "LISTEN_DEALS", "LISTEN_SEED",
           "TOLERANCE", "MAX_ROUNDS", "MIN_CELL", "MARGIN"]

"""The bidding population: a stochastic bidder fitted by self-play on
solved deals, both partners improved together.

The ``population`` policy (:class:`kaiser_sim.strategy.policies.PopulationPolicy`;
it and its probabilities live in :mod:`kaiser_sim.strategy.policies`,
beside the listening table's reader; this module is the self-play that
fits it, and re-exports them) gives every legal
call a probability (:meth:`PopulationPolicy.probs`, the shared interface of
:class:`kaiser_sim.strategy.policies.Policy`) and draws its call from them
with a uniform hashed from what the seat knows
(:func:`kaiser_sim.strategy.policies.call_uniforms`), so an auction is
reproducible and any auction a player can hear has a likelihood > 0.

The probabilities (:func:`quantal`): a **quantal response** over the
actions of :data:`kaiser_sim.strategy.policies.ACTIONS` (pass, the cheapest
plain and NT bids, one step above each, the dealer's match; less the
calls no player weighs, :func:`kaiser_sim.strategy.policies.population_actions`:
over a partner's NT an NT bid or the match, and the dealer's bid over its
partner's 9NT or more), softmax of
``Q / temperature`` with ``Q`` each action's expected **net value** (the
caller's side's hand score minus the opponents', at 0-0, in table play),
mixed with a thousandth over the actions (no action's probability
underflows to 0) and a small floor on the other legal calls (a jump of two
steps or more, an opening 9): at most ``floor / m`` to each of the ``m``,
and that only to a call whose expected hand score (``ev``'s) is as good
as the hand's best legal call's, ``exp(-gap / FLOOR_SCALE)`` of it a call
``gap`` points worse, never below ``FLOOR_MIN``
(:func:`kaiser_sim.strategy.policies.floor_shares`): a slip between close
calls, not an 11NT on nothing (a flat floor gave that the share of a
jump a strong hand nearly chooses, and the auctions drawn from the
population heard partners' 11NT).

``Q`` comes from what the seat knows (:func:`hand_features`,
:func:`cell_of`): a ridge regression of the action's net value on the
hand's features -- its expected points in its best trump and in NT (the
make model as the policies see it, :func:`kaiser_sim.strategy.policies.hand_values`)
and their squares, that trump's length and top cards (A K Q), its aces and
kings, the 5H and the 3S -- and the action's own columns (its expected
score, its level, the heard level, whether it is NT, and the heard level
times the hand's trump and NT points: the held bid against the hand's
values) -- fitted separately in each cell of (position
0..3, who holds the highest bid: nobody / partner / an opponent, that
bid's rank bucketed: none, each of 6 .. 8NT, 9 or more in a suit, 9NT or
more) and action.  A
regression rather than a table on bins: 10 features cut even in 3 bins
each would leave most of 3^10 cells empty on 30,000 deals; a linear fit per
cell needs about as many deals as features, and is shrunk towards the fit
of its (position, holder, strain of the heard bid) pooled over the bid's
rank (ridge towards that prior, :data:`RIDGE` pseudo-deals), so a rare
cell (an opening 8NT heard) reads mostly the pooled fit of the NT bids
heard, not one dominated by the 6s and 7s, and a common one its own.

From :data:`ENDGAME` points below the target on (either side's score: 45
of 52, the 45 rule), where the score decides what a hand is worth, the
probabilities are a softmax over every legal call of ``score-aware``'s
win probabilities (:class:`kaiser_sim.strategy.policies.ScoreAwarePolicy`:
P(win the match) after the hand) scaled by :data:`ENDGAME_TEMPERATURE`
(one point of percentage), plus the call's expected hand score at
:data:`ENDGAME_SCORE_WEIGHT` a point (where the match's chances cannot tell
the calls apart: the win table clips a score below -52 to -52, so a set
looks free there, and endless sacrifices follow), with the same floor (on
every legal call): the
population bids for the match there, not for the hand.

Building it (:func:`build_models`), reusing the listening table's machinery
(:mod:`kaiser_sim.strategy.listening`):

1. ``deals`` random deals of ``seed`` are solved double dummy from every
   seat in every strain once (the dominant cost);
2. round ``r``: every deal is bid around by the current population (round 1:
   ``ev``), each seat with its own hand and a fresh seeded uniform, without
   the floor (a call the floor makes is a random hand's, not the
   population's: fitted on those, the cells where a partner's 10NT was
   heard learned that it is junk to be taken out); in each
   position every legal action is tried, the later seats -- partner
   included -- bid by the current population with the same uniforms after
   every action (common random numbers), the highest bid is played by
   its bidder (trump as ``ev`` names it) and scored net at 0-0 in table play
   (the table-play model's expectation given the DD points and the declarer's count band,
   :mod:`kaiser_sim.strategy.measure`); each (hand features, net value)
   pair is added to its cell's normal equations;
3. the fit of round ``r`` is the best response to the current population;
   the new population is a damped average of the two (the ``Q``
   coefficients, so the quantal response of the average), with step
   ``max(1 / r, DAMPING)``: fictitious play at first, a smoothed best
   response after.  Both partners move together, as one player with two
   hands, since every other seat bids by the population being improved;
4. the call shares by position of self-play (the same deals and uniforms
   every round) are compared with the round before; the rounds stop when
   none moves by ``tolerance`` (converged) or after ``max_rounds``;
5. the population shipped calls a softmax of the last round's values at
   :data:`kaiser_sim.strategy.policies.PLAY_TEMPERATURE` (0.3), cooler than
   the rounds' :data:`kaiser_sim.strategy.policies.TEMPERATURE` (0.5): the
   rounds explore (each cell sees more auctions), the table wastes less on
   the calls next to the best.  Measured
   (``benchmarks/results/exploitability.md``), this is the least
   exploitable of the forms tried: the same values called at 0.5 gain a
   best response more, and so does a self-play at 0.3 throughout.

The rounds and the provenance (deals, seed, measure and table-play model,
temperature, rounds, convergence, times) ship with the coefficients in
``kaiser_sim/data/population.npz`` (``kaiser-sim population-model``,
``make population-model``).

A hand with nothing takes its partner's opening 6NT out to 7 in a suit
(T9.-.987.987 after ``6NT pass``: 98%).  That is not a flaw of the fit but
the best response to the population's 6NT openers: the hand advisor
(1,000 deals consistent with the calls, the later seats bidding by the
population) values the pass at -11.0 (-11.6 to -10.4) net in table play
and 7 in diamonds at -3.8 (-6.8 to -0.7) (double dummy -14.4 and -4.7): a
6NT opposite no trick mostly fails and loses twice the bid; the 7, with
a void to ruff partner's losers, fails for the bid once.

What it is not: the values are at 0-0 below the endgame; the other seats
are modelled as this same population; the features are what a hand count
sees (no suit quality beyond the top three trumps); only the standard deck
without a kitty, low no trump or cover 3 (the file's domain: elsewhere the
policy is a quantal response on ``ev``'s expected hand scores).
"""

from __future__ import annotations

import time
from types import SimpleNamespace

import numpy as np

from ..errors import KaiserSimError
from ..rules import Rules
from .measure import MEASURES, measure_for
from .policies import (ACTION_FLOOR, ACTIONS, ENDGAME, ENDGAME_SCORE_WEIGHT, ENDGAME_TEMPERATURE, EXTRAS, FEATURES,
                       FLOOR, FLOOR_MIN, FLOOR_SCALE, N_CELLS, PASS, PLAY_TEMPERATURE, POPULATION_FILE, TEMPERATURE, TOP_BUCKETS, PopulationModel,
                       PopulationPolicy, action_extras, auction_context, bucket_groups, cell_of, draw_calls,
                       hand_features, ladder_arrays, population_actions, population_note, population_path,
                       position_calls, quantal, read_population, softmax_calls)

#: the shipped build: this many random deals of this seed
POPULATION_DEALS = 24000
POPULATION_SEED = 20261203
#: ridge: a cell's fit is shrunk towards its (position, holder) pooled fit with this many pseudo-deals
RIDGE = 30.0
#: the smallest step of the damped average (fictitious play's 1/r until it reaches this)
DAMPING = 0.3
#: the rounds stop when no call's share in any position moves by this much, or after MAX_ROUNDS
TOLERANCE = 0.01
MAX_ROUNDS = 30


class PopulationError(KaiserSimError):
    """Rules the population cannot be built for, or bad sizes."""


def check_rules(rules: Rules) -> None:
    """Refuse rules outside the build's domain (module doc): the listening
    table's (:mod:`kaiser_sim.strategy.capabilities`)."""
    from .capabilities import check

    check("listening-table", rules, PopulationError)


# --- the build -----------------------------------------------------------------------------------


def _fit(xtx, xty, cnt, groups, ridge: float = RIDGE):
    """``(N_CELLS, A, F)``: the cells' ridge fits (module doc): the pooled
    fit of each (position, holder, group of the heard bid's bucket, action)
    first (``groups`` (TOP_BUCKETS,) the group of each bucket,
    :func:`kaiser_sim.strategy.policies.bucket_groups`: no bid, a suit, NT;
    a tiny ridge towards 0), then each cell's, towards it with ``ridge``
    pseudo-deals."""
    C, A, F = xty.shape
    grp = C // TOP_BUCKETS
    eye = np.eye(F)
    x5 = xtx.reshape(grp, TOP_BUCKETS, A, F, F)
    y5 = xty.reshape(grp, TOP_BUCKETS, A, F)
    prior_c = np.empty((grp, TOP_BUCKETS, A, F))
    for g in np.unique(groups):
        b = groups == g
        gx, gy = x5[:, b].sum(axis=1), y5[:, b].sum(axis=1)
        prior = np.linalg.solve(gx + 1e-3 * eye, gy[..., None])[..., 0]  # (grp, A, F)
        prior_c[:, b] = prior[:, None]
    prior_c = prior_c.reshape(C, A, F)
    coef = np.linalg.solve(xtx + ridge * eye, (xty + ridge * prior_c)[..., None])[..., 0]
    return np.where(cnt[..., None] > 0, coef, prior_c)


class _Sim:
    """The build's deals: per (deal, seat) the design rows ``Z`` (n, 4, F),
    ``ev``'s scores and trumps, the hands (for the declarer's band), and the DD points."""

    def __init__(self, deals, points, rules: Rules, play: str):
        n = deals.shape[0]
        X, ev, trump = hand_features(deals.reshape(-1), rules, None, play)
        L = ev.shape[1]
        self.n, self.rules = n, rules
        self.center, self.scale = X.mean(axis=0), np.maximum(X.std(axis=0), 1e-9)
        self.points = X[:, :2].reshape(n, 4, 2)
        Z = np.column_stack([np.ones(X.shape[0]), (X - self.center) / self.scale])
        self.Z = Z.reshape(n, 4, -1)
        self.seats = SimpleNamespace(ev=ev.reshape(n, 4, L), trump=trump.reshape(n, 4, L),
                                     hands=np.asarray(deals, dtype=np.uint64).reshape(n, 4))
        self.points = points
        self.dealers = np.arange(n, dtype=np.int64) % 4

    def bid_around(self, model, rows, calls, start: int, uniforms) -> np.ndarray:
        """``calls`` with positions ``start`` .. 3 bid by ``model`` (None:
        ``ev``), drawn with ``uniforms`` ((m, 4))."""
        from .policies import BidView, choose

        calls = calls.copy()
        m = rows.size
        for j in range(start, 4):
            seat = (self.dealers[rows] + 1 + j) % 4
            prefix = np.ascontiguousarray(calls[:, :j])
            if model is None:
                view = BidView(np.zeros(m, dtype=np.uint64), prefix, seat, self.dealers[rows],
                               np.zeros((m, 2), dtype=np.int64), np.full(m, self.rules.target), self.rules)
                calls[:, j] = choose(self.seats.ev[rows, seat], 0.0, view)
            else:
                # without the floor: a call the floor makes is a random hand's, and a cell fitted on
                # such calls learns that a partner's 10NT is junk to be rescued
                calls[:, j] = draw_calls(model.probs_of(self.Z[rows, seat], self.seats.ev[rows, seat], prefix,
                                                        self.rules, floor=0.0), uniforms[:, j])
        return calls


def _round(sim: _Sim, model, rng, nets, table_model):
    """One round's normal equations (module doc, step 2): ``(xtx, xty, cnt)``."""
    from .listening import contract_net

    rules = sim.rules
    n, F, A = sim.n, sim.Z.shape[2] + len(EXTRAS), len(ACTIONS)
    xtx, xty, cnt = np.zeros((N_CELLS, A, F, F)), np.zeros((N_CELLS, A, F)), np.zeros((N_CELLS, A))
    rows = np.arange(n)
    base = sim.bid_around(model, rows, np.full((n, 4), PASS, dtype=np.int16), 0, rng.random((n, 4)))
    for k in range(4):
        holder, top = auction_context(base[:, :k])
        acts = population_actions(position_calls(base, k, rules), k, holder, top, rules)
        cell = cell_of(k, holder, top, rules)
        caller = (sim.dealers + 1 + k) % 4
        Zk = sim.Z[rows, caller]
        Ek = action_extras(sim.seats.ev[rows, caller], acts, top, rules, sim.points[rows, caller])
        # the later seats draw with the same uniforms after every action (common random numbers: the
        # actions' differences, which the softmax reads, carry no noise of the draws themselves)
        later = rng.random((n, 4))
        for a in range(A):
            r = np.flatnonzero(acts[:, a] != -2)
            if not r.size:
                continue
            calls = base[r].copy()
            calls[:, k] = acts[r, a]
            calls[:, k + 1:] = PASS
            calls = sim.bid_around(model, r, calls, k + 1, later[r])
            net = contract_net(calls, r, sim.dealers, caller[r], sim.seats, sim.points, nets, rules, table_model)
            z, c = np.column_stack([Zk[r], Ek[r, a]]), cell[r]
            order = np.argsort(c, kind="stable")
            c, z, net = c[order], z[order], net[order]
            starts = np.flatnonzero(np.r_[True, c[1:] != c[:-1]])
            ids = c[starts]
            xtx[ids, a] += np.add.reduceat(z[:, :, None] * z[:, None, :], starts, axis=0)
            xty[ids, a] += np.add.reduceat(z * net[:, None], starts, axis=0)
            cnt[ids, a] += np.diff(np.r_[starts, c.size])
    return xtx, xty, cnt


def _shares(sim: _Sim, model, uniforms) -> np.ndarray:
    from .listening import call_shares

    n = sim.n
    calls = sim.bid_around(model, np.arange(n), np.full((n, 4), PASS, dtype=np.int16), 0, uniforms)
    return call_shares(calls, len(ladder_arrays(sim.rules)))


def iterate(sim: _Sim, rules: Rules, play: str, seed: int, table_model=None, temperature: float = TEMPERATURE,
            floor: float = FLOOR, tolerance: float = TOLERANCE, max_rounds: int = MAX_ROUNDS, log=None):
    """``(model, rounds, converged)``: the rounds of module doc steps 2-4."""
    from .listening import net_table

    nets = net_table(rules)
    rng = np.random.default_rng([seed, 41])
    share_u = np.random.default_rng([seed, 42]).random((sim.n, 4))
    prev = _shares(sim, None, share_u)
    rounds = [{"round": 0, "others": "-", "policy": "ev", "shares": prev.round(5).tolist(), "change": None}]
    coef, model, converged = None, None, False

    def make(c):
        return PopulationModel(c, sim.center, sim.scale, float(temperature), float(floor), play, rules.to_dict(), {})

    for r in range(1, max_rounds + 1):
        t0 = time.perf_counter()
        xtx, xty, cnt = _round(sim, model, rng, nets, table_model)
        best = _fit(xtx, xty, cnt, bucket_groups(rules))
        step = max(1.0 / r, DAMPING)
        coef = best if coef is None else (1 - step) * coef + step * best
        model = make(coef)
        shares = _shares(sim, model, share_u)
        change = float(np.abs(shares - prev).max())
        rounds.append({"round": r, "others": "ev" if r == 1 else f"round {r - 1}", "policy": f"round {r}",
                       "step": round(step, 3), "shares": shares.round(5).tolist(), "change": round(change, 5),
                       "samples": int(cnt.sum()), "seconds": round(time.perf_counter() - t0, 2)})
        if log:
            log(f"round {r} (others bid as {rounds[-1]['others']}, step {step:.2f}): largest change of a call's "
                f"share {change:.4f} ({rounds[-1]['seconds']:.1f}s)")
        prev = shares
        if change < tolerance:
            converged = True
            break
    return model, rounds, converged


def build_models(rules: Rules = Rules.preset("standard"), deals: int = POPULATION_DEALS, seed: int = POPULATION_SEED,
                 plays=MEASURES, temperature: float = TEMPERATURE, floor: float = FLOOR,
                 tolerance: float = TOLERANCE, max_rounds: int = MAX_ROUNDS, points=None, threads=None,
                 log=None, play_temperature: float = PLAY_TEMPERATURE) -> dict:
    """``{play: PopulationModel}`` built as the module doc says, each with
    its provenance and rounds in ``info``.  ``points``: the deals' DD points
    if already solved (``(deals, 4, 5)``, :func:`kaiser_sim.strategy.listening.solve`
    with these deals and seed).  The rounds call at ``temperature``; the
    models returned call at ``play_temperature`` (module doc)."""
    from .. import __version__
    from ..deal import deal_batch
    from .listening import solve
    from .table_play import fit_seeds

    rules = rules or Rules.preset("standard")
    check_rules(rules)
    if deals < 100:
        raise PopulationError(f"at least 100 deals, not {deals}")
    log = log or (lambda line: None)
    t0 = time.perf_counter()
    if points is None:
        log(f"solving {deals:,} deals (seed {seed}) double dummy, every seat and strain ...")
        dl, points = solve(deals, seed, threads)
    else:
        dl = deal_batch(deals, seed)
        points = np.asarray(points, dtype=np.int64)
        if points.shape != (deals, 4, 5):
            raise PopulationError(f"points of shape {points.shape}, not ({deals}, 4, 5)")
    solve_s = time.perf_counter() - t0
    log(f"solved in {solve_s:.1f}s")
    out = {}
    for play in plays:
        t1 = time.perf_counter()
        measure = measure_for(rules, play)
        used, table_model = measure.used, measure.table_model
        log(f"{play} play: features of {4 * deals:,} hands, then the rounds")
        sim = _Sim(dl, points, rules, used)
        model, rounds, converged = iterate(sim, rules, used, seed, table_model, temperature, floor, tolerance,
                                           max_rounds, log)
        info = {"play": used, "rules": rules.to_dict(), "rules_label": rules.label, "deals": int(deals),
                "seed": int(seed), "temperature": float(play_temperature),
                "fit_temperature": float(temperature), "floor": float(floor),
                "floor_scale": FLOOR_SCALE, "floor_min": FLOOR_MIN,
                "action_floor": ACTION_FLOOR, "ridge": RIDGE, "damping": DAMPING, "tolerance": float(tolerance),
                "max_rounds": int(max_rounds), "rounds": rounds, "converged": bool(converged),
                "endgame": ENDGAME, "endgame_temperature": ENDGAME_TEMPERATURE,
                "endgame_score_weight": ENDGAME_SCORE_WEIGHT, "extras": list(EXTRAS),
                "solve_seconds": round(solve_s, 1), "seconds": round(time.perf_counter() - t1, 1),
                "version": __version__, "actions": list(ACTIONS), "features": list(FEATURES),
                "top_buckets": TOP_BUCKETS, "calls": ["pass"] + [str(b) for b in ladder_arrays(rules).bids],
                "measure": "net hand score at 0-0 (side minus opponents), " + (
                    "table play: the table-play model's expectation given the DD points and the declarer's "
                    "count band" if table_model is not None else "double dummy")}
        if table_model is not None:
            prov = table_model.provenance
            info["table_model"] = {"deals": prov.get("deals"), "fit_seeds": fit_seeds(prov)}
        out[used] = PopulationModel(model.coef, model.center, model.scale, float(play_temperature), float(floor), used,
                                    rules.to_dict(), info)
        log(f"{play} play: {'converged' if converged else 'NOT converged'} after {len(rounds) - 1} rounds "
            f"({info['seconds']:.1f}s)")
    return out


def save_models(models: dict, path) -> int:
    """Write ``models`` (``{play: PopulationModel}``) to ``path`` (``.npz``,
    written to a temporary file and renamed); its size in bytes.  The
    coefficients as float32; no time stamp inside, so one seed gives one
    file's arrays."""
    from .policies import save_npz

    doc = {"schema": "kaiser-sim/population/1", "plays": list(models), "models": {p: m.info for p, m in models.items()}}
    arrays = {}
    for p, m in models.items():
        arrays[f"{p}_coef"] = m.coef.astype(np.float32)
        arrays[f"{p}_center"], arrays[f"{p}_scale"] = m.center, m.scale
    return save_npz(path, doc, arrays)


def rounds_text(model: PopulationModel) -> str:
    """The rounds of ``model`` as lines: per round the share of passes,
    plain bids and NT bids in each position, and the largest change."""
    info = model.info
    calls = info.get("calls", [])
    nt = np.array(["NT" in c for c in calls])
    lines = [f"{info.get('play')} play, {info.get('deals', 0):,} deals (seed {info.get('seed')}), rules "
             f"{info.get('rules_label')}, temperature {info.get('temperature')} (fitted against calls at "
             f"{info.get('fit_temperature', info.get('temperature'))}): "
             f"{'converged' if info.get('converged') else 'NOT converged'} after {len(info.get('rounds', [])) - 1} "
             f"rounds (tolerance {info.get('tolerance')}: the largest change of a call's share in a position)",
             f"{'round':>5}  {'others bid as':>13}  " + "  ".join(f"{'pos ' + str(k + 1) + ' pass/bid/NT %':>20}"
                                                              for k in range(4)) + f"  {'change':>7}"]
    for r in info.get("rounds", []):
        sh = np.asarray(r["shares"])
        cells = []
        for k in range(4):
            p, b, t = sh[k, 0], sh[k, 1:][~nt[1:]].sum(), sh[k, 1:][nt[1:]].sum()
            cells.append(f"{100 * p:>6.1f}/{100 * b:>5.1f}/{100 * t:>5.1f}")
        ch = "-" if r.get("change") is None else f"{r['change']:.4f}"
        lines.append(f"{r['round']:>5}  {r['others']:>13}  " + "  ".join(f"{c:>20}" for c in cells) + f"  {ch:>7}")
    return "\n".join(lines)


__all__ = ["PopulationPolicy", "PopulationModel", "PopulationError", "build_models", "save_models", "read_population",
           "population_note", "population_path", "rounds_text", "hand_features", "quantal", "softmax_calls",
           "cell_of", "check_rules", "iterate", "FEATURES", "POPULATION_DEALS", "POPULATION_SEED", "TEMPERATURE",
           "PLAY_TEMPERATURE", "FLOOR", "ENDGAME", "ENDGAME_TEMPERATURE", "POPULATION_FILE"]

"""Time of the match engine: 10,000 whole matches (issue target: <= 10 minutes),
and what the policies' table-play make-probabilities change.

Run with ``.venv/bin/python benchmarks/match.py`` (``--help`` for the
options).  The result is printed as Markdown and, with ``--save``, written
to ``benchmarks/results/match.md``; with ``--play both`` (the default) also
``benchmarks/results/match_play.md`` (``--compare-out``), the comparison
of table play and double dummy below.

What is measured
----------------
``kaiser_sim.strategy.match.play_matches(A, B, --matches, --seed)`` end to end:
dealing, the vectorised auctions (policy A, default ``score-aware``, the
most expensive policy, against ``ev``), the double-dummy solve of every
contract (``kaiser_sim.dd.dd_contracts``, one call a round) and the scoring.  The
line "of which solver" is the time spent inside ``dd_contracts``; the rest
is Python and numpy overhead (policies, bookkeeping).

Before timing, a small run (``--check`` matches) is validated against the
reference: every contract's value must equal ``kaiser_sim.dd.dd_table``'s entry
for that deal, declarer and strain, and every match must have ended; this
also compiles the kernels and builds the score-aware policy's win table
(cached in the process), so neither is timed.  Each line reports the
median and range over the repeats and its CPU use (process CPU time /
(wall time x threads)); a machine shared with other work shows as CPU use
well below 1.  The timed run is the one with ``--play`` (``table`` for
``both``): what the policies' make-probabilities expect.

Table play against double dummy (``--play both``)
--------------------------------------------------
The policies bid from make-probabilities of table play by default
(:mod:`kaiser_sim.strategy.policies`: the double-dummy make model composed with the
table-play model) or of double dummy (``play="dd"``); the engine scores
every contract in table play (``--engine table``, the default: the
declaring side's points drawn from the table-play model given the DD
points) or double dummy (``--engine dd``) either way.  With ``--play both`` the script
plays, on the same seeds, under each play:

- the timed pair (A vs B, ``--matches``): A's win rate;
- a round robin of the six policies (``--round-robin`` matches per pair,
  0 to skip, one seed: every pair plays the same card sets): standings,
  each policy's win rate over its matches, Wilson 95% clustered by card
  set (match number // 2);
- how each policy bids, over its round-robin matches: the share of its
  calls that are bids, the mean level of those bids, the share of hands
  its side declares, the mean contract level, NT share, make rate and
  raw points (intervals clustered by card set); and on ``--hands`` random
  hands of the first speaker at 0-0: the share that would open and the
  highest level it would still bid (the highest rank ``i`` it does not
  pass over a bid just below ``i``);
- head to head, each of ``ev`` and ``score-aware`` expecting table play
  against itself expecting double dummy (``--head-to-head`` matches):
  which expectation does better, in each engine.
"""

from __future__ import annotations

import datetime
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

from kaiser_sim import __version__
from kaiser_sim.dd import api
from kaiser_sim.deal import deal_batch
from kaiser_sim.strategy.match import play_matches, round_seed
from kaiser_sim.rules import get_preset
import common
from machine import cpu_model, loadavg

DEFAULT_COMPARE_OUT = common.RESULTS / "match_play.md"
ROUND_ROBIN = ("ev", "cautious", "aggressive", "score-aware", "rank-squared", "trump-heuristic")
PLAY_NAMES = {"table": "table play", "dd": "double dummy"}
TARGET_S = 600.0
BUSY_CPU_USE = 0.9


def validate(policy_a, policy_b, n, seed, rules, play="table") -> None:
    from kaiser_sim.deal import deal_for_rules

    r = play_matches(policy_a, policy_b, n, seed, rules, play=play, engine="dd")
    if (r.matches["winner"] < 0).any():
        raise SystemExit("a match did not end")
    h = r.hands[r.hands["declarer"] >= 0]
    deals = np.array([deal_for_rules(1, round_seed(seed, row.hand), rules, start=row.match // 2,
                                     redeal_weak=True)[0][0] for row in h.itertuples()])
    ref = api.dd_table(deals, "points")
    got = ref[np.arange(len(h)), h["declarer"].to_numpy(), h["strain"].to_numpy()]
    if not np.array_equal(got, h["raw"].to_numpy()):
        bad = np.flatnonzero(got != h["raw"].to_numpy())
        raise SystemExit(f"{len(bad)} contract values differ from dd_table, first hand row {bad[0]}")


# --- table play against double dummy ---------------------------------------------------------------


def _pct(p, lo, hi) -> str:
    return f"{100 * p:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def _mean(m, digits=2) -> str:
    return f"{m['mean']:.{digits}f} [{m['lo']:.{digits}f}, {m['hi']:.{digits}f}]"


def side_rows(r, who: str) -> dict:
    """Per hand of the matches ``r``: the calls and contracts of the side of
    policy ``who`` ("a" or "b"), with the card set of each hand."""
    from kaiser_sim.strategy.policies import PASS, ladder_arrays

    lad = ladder_arrays(r.rules)
    h = r.hands
    a_side = r.matches.set_index("match")["a_side"].reindex(h["match"]).to_numpy()
    side = a_side if who == "a" else 1 - a_side
    cards = h["match"].to_numpy() // 2
    dealer = h["dealer"].to_numpy()
    calls, call_cards = [], []
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        mine = (seat & 1) == side
        calls.append(h[f"call_{k + 1}"].to_numpy()[mine])
        call_cards.append(cards[mine])
    calls, call_cards = np.concatenate(calls), np.concatenate(call_cards)
    bid = calls != PASS
    dec = h["declarer"].to_numpy()
    declared = (dec >= 0) & ((dec & 1) == side)
    return {"calls_bid": bid, "call_cards": call_cards, "bid_level": lad.levels[calls[bid]],
            "bid_cards": call_cards[bid], "declared": declared, "cards": cards,
            "level": h["level"].to_numpy()[declared], "nt": h["nt"].to_numpy()[declared],
            "made": h["made"].to_numpy()[declared], "raw": h["raw"].to_numpy()[declared],
            "dec_cards": cards[declared]}


def _concat(parts: list[dict]) -> dict:
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def opening_profile(policy, hands, rules) -> dict:
    """First speaker at 0-0 on random ``hands``: the share that opens and
    the level of the highest rank it would still bid (0: none)."""
    from kaiser_sim.strategy.policies import PASS, BidView, ladder_arrays

    lad = ladder_arrays(rules)
    n = len(hands)
    top = np.full(n, -1)
    for i in range(len(lad)):
        calls = np.zeros((n, 0), dtype=np.int16) if i == 0 else np.full((n, 1), i - 1, dtype=np.int16)
        seat, dealer = np.zeros(n, dtype=np.int64), np.full(n, 3 if i == 0 else 2)  # first / second speaker
        view = BidView(hands, calls, seat, dealer, np.zeros((n, 2), dtype=np.int64), np.full(n, rules.target), rules)
        c = policy.bid(view)
        top = np.where(c != PASS, np.maximum(top, c), top)
        if i == 0:
            opens = c != PASS
    level = np.where(top >= 0, lad.levels[np.maximum(top, 0)], 0)
    return {"opens": float(opens.mean()), "top_level": float(level.mean()),
            "top_nt": float((lad.nt[top] & (top >= 0)).mean())}


def compare(args, rules, timed: dict, log) -> str:
    """The table-play against double-dummy comparison (module doc) as markdown."""
    import itertools

    from kaiser_sim.strategy.policies import EVPolicy, ScoreAwarePolicy, get_policy
    from kaiser_sim.stats import cluster_mean_ci, cluster_proportion_ci
    from kaiser_sim.strategy.table_play import load_model

    plays = ("table", "dd")
    t0 = time.perf_counter()
    out = ["# Table play against double dummy in the match engine", "",
           "The policies bid from make-probabilities of **table play** (the default: the double-dummy make model "
           "composed with the table-play model, `kaiser_sim.strategy.policies`) or of **double dummy** (`--play dd`). "
           f"**The contracts are scored in {PLAY_NAMES[args.engine]} either way** (`--engine {args.engine}`: "
           + ("each declaring side's points drawn from the table-play model given the contract's DD points"
              if args.engine == "table" else "the contracts' double-dummy points") + ").", "",
           f"- {load_model().describe()}", f"- standard rules; kaiser-sim {__version__}", ""]
    # 1. the timed pair
    out += [f"## {args.policy} vs {args.vs}: {args.matches:,} matches, seed {args.seed}", "",
            f"| bidders expect | win rate of {args.policy} (95%) | hands a match (95%) | margin (95%) |",
            "|---|---:|---:|---:|"]
    for play in plays:
        s = timed[play].summary()
        out.append(f"| {PLAY_NAMES[play]} | {_pct(s['a_win_rate'], s['a_win_lo'], s['a_win_hi'])} | "
                   f"{s['hands_mean']:.2f} [{s['hands_lo']:.2f}, {s['hands_hi']:.2f}] | "
                   f"{s['margin_mean']:+.2f} [{s['margin_lo']:+.2f}, {s['margin_hi']:+.2f}] |")
    out += ["", "Intervals clustered by pair of matches (the same cards, sides swapped).", ""]
    bids = {}
    if args.round_robin:
        n = args.round_robin
        stand, pairs = {}, {}
        for play in plays:
            won = {p: [] for p in ROUND_ROBIN}
            rows = {p: [] for p in ROUND_ROBIN}
            for a, b in itertools.combinations(ROUND_ROBIN, 2):
                r = play_matches(a, b, n, args.seed, rules, play=play, engine=args.engine)
                m = r.matches
                cards = m["match"].to_numpy() // 2
                aw = m["a_won"].to_numpy(bool)
                bw = ~aw & (m["winner"].to_numpy() >= 0)
                won[a].append((aw, cards))
                won[b].append((bw, cards))
                rows[a].append(side_rows(r, "a"))
                rows[b].append(side_rows(r, "b"))
                s = r.summary()
                pairs[play, a, b] = s
            log(f"round robin, {PLAY_NAMES[play]}: {15 * n:,} matches")
            for p in ROUND_ROBIN:
                w = np.concatenate([x for x, _ in won[p]])
                c = np.concatenate([y for _, y in won[p]])
                stand[play, p] = cluster_proportion_ci(w, c)
                bids[play, p] = _concat(rows[p])
        out += [f"## Round robin: the six policies, {n:,} matches a pair (seed {args.seed})", "",
                "Each policy's share of its matches won (its 5 opponents, "
                f"{5 * n:,} matches), Wilson 95% clustered by card set (every pair plays the same card sets).", "",
                "| policy | table play: won (95%) | rank | double dummy: won (95%) | rank |",
                "|---|---:|---:|---:|---:|"]
        rank = {play: {p: i + 1 for i, p in enumerate(sorted(ROUND_ROBIN, key=lambda q: -stand[play, q].p))}
                for play in plays}
        for p in sorted(ROUND_ROBIN, key=lambda q: -stand["table", q].p):
            t, d = stand["table", p], stand["dd", p]
            out.append(f"| {p} | {_pct(t.p, t.lo, t.hi)} | {rank['table'][p]} | {_pct(d.p, d.lo, d.hi)} | "
                       f"{rank['dd'][p]} |")
        out += ["", "Every pair (A's win rate, Wilson 95% clustered by pair of matches):", "",
                "| A vs B | table play | double dummy |", "|---|---:|---:|"]
        for a, b in itertools.combinations(ROUND_ROBIN, 2):
            t, d = pairs["table", a, b], pairs["dd", a, b]
            out.append(f"| {a} vs {b} | {_pct(t['a_win_rate'], t['a_win_lo'], t['a_win_hi'])} | "
                       f"{_pct(d['a_win_rate'], d['a_win_lo'], d['a_win_hi'])} |")
        out.append("")
        out += ["## How they bid", "",
                "Over each policy's round-robin matches (every call of its seats; every hand). Means with 95% "
                "intervals clustered by card set.", "",
                "| policy | expects | calls that bid | mean level of its bids | hands its side declares | "
                "contract level | NT contracts | made | raw points declaring |",
                "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
        for p in ROUND_ROBIN:
            for play in plays:
                x = bids[play, p]
                cb = cluster_proportion_ci(x["calls_bid"], x["call_cards"])
                bl = cluster_mean_ci(x["bid_level"].astype(float), x["bid_cards"])
                dc = cluster_proportion_ci(x["declared"], x["cards"])
                lv = cluster_mean_ci(x["level"].astype(float), x["dec_cards"])
                nt = cluster_proportion_ci(x["nt"].astype(bool), x["dec_cards"])
                md = cluster_proportion_ci(x["made"].astype(bool), x["dec_cards"])
                rw = cluster_mean_ci(x["raw"].astype(float), x["dec_cards"])
                out.append(f"| {p} | {PLAY_NAMES[play]} | {_pct(cb.p, cb.lo, cb.hi)} | "
                           f"{bl.mean:.2f} [{bl.lo:.2f}, {bl.hi:.2f}] | {_pct(dc.p, dc.lo, dc.hi)} | "
                           f"{lv.mean:.2f} [{lv.lo:.2f}, {lv.hi:.2f}] | {_pct(nt.p, nt.lo, nt.hi)} | "
                           f"{_pct(md.p, md.lo, md.hi)} | {rw.mean:.2f} [{rw.lo:.2f}, {rw.hi:.2f}] |")
        out.append("")
    if args.hands:
        hands = deal_batch(args.hands, args.seed + 7)[:, 0]
        out += [f"## First speaker at 0-0: {args.hands:,} random hands (seed {args.seed + 7})", "",
                "opens: the share that bids as first speaker; highest level: the level of the highest bid it "
                "would still make over a bid just below it (0: none), averaged; NT: share whose highest bid is NT.",
                "", "| policy | table play: opens | highest level | NT | double dummy: opens | highest level | NT |",
                "|---|---:|---:|---:|---:|---:|---:|"]
        for p in ROUND_ROBIN:
            t = opening_profile(get_policy(p, "table"), hands, rules)
            d = opening_profile(get_policy(p, "dd"), hands, rules)
            out.append(f"| {p} | {100 * t['opens']:.1f}% | {t['top_level']:.2f} | {100 * t['top_nt']:.1f}% | "
                       f"{100 * d['opens']:.1f}% | {d['top_level']:.2f} | {100 * d['top_nt']:.1f}% |")
        out += ["", "(iid over the hands; with this many hands the shares' 95% intervals are within about "
                f"{100 * 1.96 * 0.5 / np.sqrt(args.hands):.1f} points.)", ""]
    if args.head_to_head:
        n = args.head_to_head
        out += [f"## Head to head: table play against double dummy, {n:,} matches each (seed {args.seed})", "",
                "The same policy expecting table play (A) against itself expecting double dummy (B), "
                "with the contracts scored by each engine (`--engine table`: table play drawn from the "
                "table-play model; `dd`: double dummy).", "",
                "| policy | engine | win rate of the table-play version (95%) | margin (95%) |",
                "|---|---|---:|---:|"]
        for name, make in (("ev", lambda play: EVPolicy(0.0, f"ev ({play})", play=play)),
                           ("score-aware",
                            lambda play: _renamed(ScoreAwarePolicy(play=play), f"score-aware ({play})"))):
            for engine in ("table", "dd"):
                s = play_matches(make("table"), make("dd"), n, args.seed, rules, engine=engine).summary()
                out.append(f"| {name} | {engine} | {_pct(s['a_win_rate'], s['a_win_lo'], s['a_win_hi'])} | "
                           f"{s['margin_mean']:+.2f} [{s['margin_lo']:+.2f}, {s['margin_hi']:+.2f}] |")
        out.append("")
    out += [f"Comparison run {time.perf_counter() - t0:.0f} s (beyond the timed runs); "
            f"{datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}; load average at end "
            f"{loadavg()}; command: `python benchmarks/match.py {' '.join(sys.argv[1:])}`", ""]
    return "\n".join(out)


def _renamed(policy, name):
    policy.name = name
    return policy


def main(argv=None) -> int:
    parser = common.parser(__doc__, "match", seed_help="seed of the matches")
    parser.add_argument("--policy", default="score-aware", help="policy A")
    parser.add_argument("--vs", default="ev", help="policy B")
    parser.add_argument("--matches", type=int, default=10_000, help="matches per timed run")
    parser.add_argument("--repeats", type=int, default=1, help="timed runs")
    parser.add_argument("--check", type=int, default=40, help="matches validated against dd_table before timing")
    parser.add_argument("--play", choices=("table", "dd", "both"), default="both",
                        help="what the policies' make-probabilities expect (the contracts are played double dummy "
                             "either way); both: time table play, play double dummy too and compare")
    parser.add_argument("--round-robin", type=int, default=1000,
                        help="with --play both: matches per pair of the six policies' round robin (0: none)")
    parser.add_argument("--hands", type=int, default=2000,
                        help="with --play both: random first-speaker hands for the bid profile (0: none)")
    parser.add_argument("--engine", choices=("table", "dd"), default="table",
                        help="how the contracts are scored (kaiser-sim match --engine): table play drawn from the "
                             "table-play model, or double dummy (the engine before it had table play)")
    parser.add_argument("--head-to-head", type=int, default=2000,
                        help="with --play both: matches of each policy expecting table play vs itself expecting "
                             "double dummy (0: none)")
    parser.add_argument("--compare-out", type=Path, default=None,
                        help="markdown file of the --play both comparison (default: none, unless --save: "
                             f"results/{DEFAULT_COMPARE_OUT.name})")
    parser.saved["compare_out"] = DEFAULT_COMPARE_OUT.name
    args = parser.parse_args(argv)
    if args.matches < 1 or args.repeats < 1:
        parser.error("--matches and --repeats must be at least 1")
    if min(args.round_robin, args.hands, args.head_to_head) < 0:
        parser.error("--round-robin, --hands and --head-to-head must be at least 0")
    timed_play = "table" if args.play == "both" else args.play
    wall0 = time.perf_counter()
    load_start = loadavg()

    log = common.logger(wall0)

    rules = get_preset("standard")
    log(f"validating {args.check} matches against dd_table (compiles the kernels)")
    validate(args.policy, args.vs, args.check, args.seed + 1, rules, timed_play)
    log("valid")
    threads = numba.get_num_threads()
    runs = []
    for i in range(args.repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        r = play_matches(args.policy, args.vs, args.matches, args.seed, rules, play=timed_play, engine=args.engine)
        wall = time.perf_counter() - t0
        use = (time.process_time() - c0) / (wall * threads)
        runs.append((wall, use, r))
        log(f"run {i + 1}: {wall:.1f} s, {len(r.hands):,} hands, CPU use {use:.2f}")
    walls = [w for w, _, _ in runs]
    med = statistics.median(walls)
    wall, use, r = sorted(runs, key=lambda x: x[0])[len(runs) // 2]
    s = r.summary()
    hands = len(r.hands)
    solver_s = r.extra["solver_seconds"]
    busy = use < BUSY_CPU_USE
    if args.matches == 10_000:
        verdict = f"target <= {TARGET_S / 60:.0f} min {'met' if med <= TARGET_S else 'NOT met'}"
    else:
        verdict = f"{args.matches:,} matches; projected to 10,000: {med * 10_000 / args.matches:.0f} s"
    ncpu = common.usable_cpus()
    out = [
        "# Match engine benchmark",
        "",
        f"{args.matches:,} matches of {args.policy} vs {args.vs}, standard rules, seed {args.seed}, the policies "
        f"expecting {PLAY_NAMES[timed_play]} (contracts scored in {PLAY_NAMES[args.engine]}, `--engine "
        f"{args.engine}`): **{med:.1f} s** median warm "
        f"({verdict}).",
        "",
        "| line | median s | min..max s | runs | per second |",
        "|---|---:|---:|---:|---:|",
        f"| whole run | {med:.1f} | {min(walls):.1f}..{max(walls):.1f} | {len(walls)} | "
        f"{args.matches / med:,.0f} matches, {hands / med:,.0f} hands |",
        f"| of which solver (`dd_contracts`) | {solver_s:.1f} | | 1 | {hands / solver_s:,.0f} contracts |",
        f"| of which the rest (deal, auctions, scoring) | {wall - solver_s:.1f} | | 1 | |",
        "",
        f"{hands:,} hands in {r.extra['rounds']} rounds (lockstep: one solver call a round); "
        f"{hands / args.matches:.2f} hands a match; win rate of {args.policy} "
        f"{100 * s['a_win_rate']:.1f}% [{100 * s['a_win_lo']:.1f}, {100 * s['a_win_hi']:.1f}].",
        "",
        f"CPU use of the median run: {use:.2f} (process CPU time / (wall x {threads} threads)).",
        "",
    ]
    if busy:
        out += [f"**The machine was busy** (CPU use below {BUSY_CPU_USE:.0%}, or part of the run is serial "
                "Python): the times are upper bounds.", ""]
    out += [
        "Machine and run:",
        "",
        f"- CPU: {cpu_model()}; {os.cpu_count()} logical CPUs, {ncpu} usable by this process",
        f"- load average at start {load_start}, at end {loadavg()}",
        f"- numba {numba.__version__} ({numba.threading_layer()} threading layer, {threads} threads), "
        f"numpy {np.__version__}, Python {platform.python_version()}, kaiser-sim {__version__}",
        f"- {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}; "
        f"whole run {time.perf_counter() - wall0:.0f} s",
        f"- command: `{common.command('match', argv)}`",
        "",
    ]
    if args.play == "both":
        log("the same matches with the policies expecting double dummy")
        t0 = time.perf_counter()
        dd = play_matches(args.policy, args.vs, args.matches, args.seed, rules, play="dd", engine=args.engine)
        sd = dd.summary()
        log(f"double dummy: {time.perf_counter() - t0:.1f} s")
        at = next(i for i, line in enumerate(out) if line.startswith("CPU use"))
        out[at:at] = [f"The same matches with the policies expecting double dummy (`--play dd`): "
                    f"{time.perf_counter() - t0:.1f} s, {len(dd.hands):,} hands; win rate of {args.policy} "
                    f"{100 * sd['a_win_rate']:.1f}% [{100 * sd['a_win_lo']:.1f}, {100 * sd['a_win_hi']:.1f}] "
                    + (f"(comparison: `{args.compare_out.name}`)." if args.compare_out else "(comparison: printed)."),
                    ""]
    text = "\n".join(out)
    common.write_result(args.out, text, log)
    if args.play == "both":
        comp = compare(args, rules, {"table": r, "dd": dd}, log)
        common.write_result(args.compare_out, comp, log)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The listening policy: the time and size of its table's precomputation,
and matches a second against score-aware.

Run with ``.venv/bin/python benchmarks/listening.py`` (``--help`` for the
options).  The result is printed as Markdown and, with ``--save``, written
to ``benchmarks/results/listening.md``.

What is measured
----------------
- the precomputation (:func:`kaiser_sim.strategy.listening.build_tables`) on
  ``--deals`` deals: the double-dummy solve of every seat and strain (the
  dominant cost, linear in the deals), then the rounds of each play (table
  play and double dummy) until the calls stop moving; the table's size in
  memory and on disk (``.npz``, compressed); beside it the shipped table's
  own record (its deals, rounds and times, kept in the file);
- ``kaiser_sim.strategy.match.play_matches("listening", "score-aware", --matches)``
  end to end, warm (a small run first compiles the kernels and reads the
  table and the win table), and the same matches of score-aware against
  ev for comparison: matches a second, of which the solver;
- the policy's own lookup: one call for ``--hands`` hands (the make-model
  features, the table's cell, ev's call as the default) against ev's
  call alone.
"""

from __future__ import annotations

import datetime
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

from kaiser_sim import __version__
from kaiser_sim.strategy.listening import build_tables, save_tables
from kaiser_sim.strategy.match import play_matches
from kaiser_sim.strategy.policies import BidView, EVPolicy, ListeningPolicy, read_listening_tables
from kaiser_sim.rules import get_preset
import common
from machine import cpu_model, loadavg


def main(argv=None) -> int:
    parser = common.parser(__doc__, "listening", seed_help="seed of the table's deals and of the matches")
    parser.add_argument("--deals", type=int, default=4000, help="deals of the timed precomputation")
    parser.add_argument("--matches", type=int, default=2000, help="matches of each timed pair")
    parser.add_argument("--hands", type=int, default=100_000, help="hands of the lookup timing")
    args = parser.parse_args(argv)
    if min(args.deals, args.matches, args.hands) < 100:
        parser.error("--deals, --matches and --hands must be at least 100")
    wall0 = time.perf_counter()
    load_start = loadavg()
    log = common.logger(wall0)
    rules = get_preset("standard")
    threads = numba.get_num_threads()

    log(f"precomputation on {args.deals:,} deals")
    lines = []
    t0, c0 = time.perf_counter(), time.process_time()
    tables = build_tables(rules, args.deals, args.seed, log=lambda m: (lines.append(m), log(m)))
    build_s = time.perf_counter() - t0
    build_use = (time.process_time() - c0) / (build_s * threads)
    with tempfile.TemporaryDirectory() as tmp:
        size = save_tables(tables, Path(tmp) / "t.npz")
    memory = sum(t.nbytes() for t in tables.values())
    solve_s = next(iter(tables.values())).info["solve_seconds"]

    log("warming up the matches (compiles, reads the tables)")
    play_matches("listening", "score-aware", 20, args.seed + 1, rules)
    play_matches("score-aware", "ev", 20, args.seed + 1, rules)
    pairs = {}
    for a, b in (("listening", "score-aware"), ("score-aware", "ev")):
        log(f"{args.matches:,} matches {a} vs {b}")
        t0, c0 = time.perf_counter(), time.process_time()
        r = play_matches(a, b, args.matches, args.seed, rules)
        wall = time.perf_counter() - t0
        pairs[(a, b)] = (r, wall, (time.process_time() - c0) / (wall * threads))

    log(f"lookup of {args.hands:,} hands")
    from kaiser_sim.deal import deal_batch

    hands = deal_batch(args.hands // 4 + 1, args.seed + 2).reshape(-1)[: args.hands]
    n = hands.size
    rng = np.random.default_rng(args.seed)
    calls = np.where(rng.random((n, 1)) < 0.5, -1, rng.integers(0, 4, (n, 1))).astype(np.int16)
    view = BidView(hands, calls, np.ones(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
                   np.zeros((n, 2), dtype=np.int64), np.full(n, rules.target), rules)
    lp, ev = ListeningPolicy(), EVPolicy()
    lp.bid(view)  # warm (the per-bin tables, the shipped table)
    look = {}
    for name, pol in (("listening", lp), ("ev", ev)):
        t0 = time.perf_counter()
        pol.bid(view)
        look[name] = time.perf_counter() - t0

    shipped = read_listening_tables()
    ship_path = Path(__file__).resolve().parents[1] / "kaiser_sim" / "data" / "listening_table.npz"
    ship_size = ship_path.stat().st_size if ship_path.exists() else 0

    out = ["# The listening policy: precomputation and matches a second", ""]
    out.append(f"## The precomputation ({args.deals:,} deals, seed {args.seed}, standard rules)")
    out.append("")
    out.append("| step | seconds | notes |")
    out.append("|---|---:|---|")
    out.append(f"| solve every seat and strain double dummy | {solve_s:.1f} | {args.deals / solve_s:,.0f} deals/s; "
               "linear in the deals |")
    for play, t in tables.items():
        info = t.info
        state = "converged" if info["converged"] else "NOT converged"
        out.append(f"| {play} play: the rounds | {info['seconds']:.1f} | {len(info['rounds']) - 1} rounds, {state} "
                   f"(tolerance {info['tolerance']}) |")
    out.append(f"| whole build | {build_s:.1f} | CPU use {build_use:.2f} |")
    out.append("")
    out.append(f"Size: {memory / 1024:,.0f} KiB in memory (mean, count and SD of {next(iter(tables.values())).mean.size:,} "
               f"cells a play, 2 plays), {size / 1024:,.0f} KiB on disk (compressed .npz).")
    out.append("")
    if shipped:
        t = next(iter(shipped.values()))
        rounds = ", ".join(f"{p} play {len(s.info['rounds']) - 1} rounds ({'converged' if s.info['converged'] else 'not converged'}, "
                           f"{s.info['seconds']:.0f} s)" for p, s in shipped.items())
        out.append(f"The shipped table (`kaiser_sim/data/listening_table.npz`, {ship_size / 1024:,.0f} KiB): "
                   f"{t.info['deals']:,} deals (seed {t.info['seed']}), solved in {t.info['solve_seconds']:.0f} s, "
                   f"then {rounds}, on the machine below while busy (`make listening-table`).")
        out.append("")
    out.append(f"## Matches a second ({args.matches:,} matches, seed {args.seed}, engine table, warm)")
    out.append("")
    out.append("| A vs B | seconds | matches/s | hands/s | of which solver s | CPU use | A's win rate (95%) |")
    out.append("|---|---:|---:|---:|---:|---:|---:|")
    for (a, b), (r, wall, use) in pairs.items():
        s = r.summary()
        hands_n = len(r.hands)
        out.append(f"| {a} vs {b} | {wall:.1f} | {args.matches / wall:,.0f} | {hands_n / wall:,.0f} | "
                   f"{r.extra['solver_seconds']:.1f} | {use:.2f} | {100 * s['a_win_rate']:.1f}% "
                   f"[{100 * s['a_win_lo']:.1f}, {100 * s['a_win_hi']:.1f}] |")
    out.append("")
    out.append(f"The policy's own call for {n:,} hands (one position, random heard calls): listening "
               f"{look['listening']:.2f} s ({n / look['listening']:,.0f} hands/s), ev {look['ev']:.2f} s "
               f"({n / look['ev']:,.0f} hands/s).")
    out.append("")
    use_note = ("**The machine was busy** (CPU use below 90%): the times are upper bounds."
                if min(u for _, _, u in pairs.values()) < 0.9 else "")
    if use_note:
        out.append(use_note)
        out.append("")
    out.append("Machine and run:")
    out.append("")
    out.append(f"- CPU: {cpu_model()}; {common.usable_cpus()} CPUs usable, numba {numba.__version__} "
               f"({numba.threading_layer()} threading, {threads} threads), numpy {np.__version__}, Python "
               f"{platform.python_version()}, kaiser-sim {__version__}")
    out.append(f"- load average at start {load_start}, at end {loadavg()}; nice {os.nice(0)}")
    out.append(f"- {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; whole run "
               f"{time.perf_counter() - wall0:.0f} s")
    out.append(f"- command: `{common.command('listening', argv)}`")
    common.write_result(args.out, "\n".join(out) + "\n", log)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Time of the match engine: 10,000 whole matches (issue target: <= 10 minutes).

Run with ``.venv/bin/python benchmarks/match.py`` (``--help`` for the
options).  The result is a markdown file, ``benchmarks/results/match.md``
by default.

What is measured
----------------
``kaiser_sim.match.play_matches(A, B, --matches, --seed)`` end to end:
dealing, the vectorised auctions (policy A, default ``score-aware``, the
most expensive policy, against ``ev``), the double-dummy solve of every
contract (``solver.dd_contracts``, one call a round) and the scoring.  The
line "of which solver" is the time spent inside ``dd_contracts``; the rest
is Python and numpy overhead (policies, bookkeeping).

Before timing, a small run (``--check`` matches) is validated against the
reference: every contract's value must equal ``solver.dd_table``'s entry
for that deal, declarer and strain, and every match must have ended; this
also compiles the kernels and builds the score-aware policy's win table
(cached in the process), so neither is timed.  Each line reports the
median and range over the repeats and its CPU use (process CPU time /
(wall time x threads)); a machine shared with other work shows as CPU use
well below 1.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

from kaiser_sim import __version__, solver
from kaiser_sim.deal import deal_batch
from kaiser_sim.match import play_matches, round_seed
from kaiser_sim.rules import get_preset
from machine import cpu_model, loadavg

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "match.md"
TARGET_S = 600.0
BUSY_CPU_USE = 0.9


def validate(policy_a, policy_b, n, seed, rules) -> None:
    r = play_matches(policy_a, policy_b, n, seed, rules)
    if (r.matches["winner"] < 0).any():
        raise SystemExit("a match did not end")
    h = r.hands[r.hands["declarer"] >= 0]
    deals = np.array([deal_batch(1, round_seed(seed, row.hand), start=row.match // 2)[0] for row in h.itertuples()])
    ref = solver.dd_table(deals, "points")
    got = ref[np.arange(len(h)), h["declarer"].to_numpy(), h["strain"].to_numpy()]
    if not np.array_equal(got, h["raw"].to_numpy()):
        bad = np.flatnonzero(got != h["raw"].to_numpy())
        raise SystemExit(f"{len(bad)} contract values differ from dd_table, first hand row {bad[0]}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--policy", default="score-aware", help="policy A")
    parser.add_argument("--vs", default="ev", help="policy B")
    parser.add_argument("--matches", type=int, default=10_000, help="matches per timed run")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the matches")
    parser.add_argument("--repeats", type=int, default=1, help="timed runs")
    parser.add_argument("--check", type=int, default=40, help="matches validated against dd_table before timing")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="markdown file to write")
    args = parser.parse_args(argv)
    if args.matches < 1 or args.repeats < 1:
        parser.error("--matches and --repeats must be at least 1")
    wall0 = time.perf_counter()
    load_start = loadavg()

    def log(msg):
        print(f"[{time.perf_counter() - wall0:6.1f}s] {msg}", file=sys.stderr, flush=True)

    rules = get_preset("standard")
    log(f"validating {args.check} matches against dd_table (compiles the kernels)")
    validate(args.policy, args.vs, args.check, args.seed + 1, rules)
    log("valid")
    threads = numba.get_num_threads()
    runs = []
    for i in range(args.repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        r = play_matches(args.policy, args.vs, args.matches, args.seed, rules)
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
    ncpu = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    out = [
        "# Match engine benchmark",
        "",
        f"{args.matches:,} matches of {args.policy} vs {args.vs}, standard rules, seed {args.seed}: "
        f"**{med:.1f} s** median warm ({verdict}).",
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
        f"- command: `python benchmarks/match.py {' '.join(sys.argv[1:] if argv is None else argv)}`",
        "",
    ]
    text = "\n".join(out)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(text)
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

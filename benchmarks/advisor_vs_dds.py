"""The advisor's whole answer against DDS solving the same deals, in one run.

Run with ``.venv/bin/python benchmarks/advisor_vs_dds.py`` (``--help`` for
the options).  The result is printed; with ``--save`` it is also written to
``benchmarks/results/advisor_vs_dds.md``.

What is measured (issue 46: the advice in about the time DDS needs just to
solve its deals; target: the answer within 2x)
-------------------------------------------------------------------------
One hand (``--hand``, default ``AQ98.K5.A.T`` at S) after the calls
``--auction`` (default ``6 pass 7``), ``--deals`` kept deals (default
2,000), default options (table play with its play check, the 5H/3S):

* **advisor, process** -- ``kaiser-sim hand HAND --seat S --auction ...
  -n 2000 --seed SEED`` as a new process (``python -m kaiser_sim``): what a
  player waits for, process start, imports and numba's cache loads
  included (one untimed run first fills numba's cache and Python's
  bytecode cache: PYTHONDONTWRITEBYTECODE is left out of its environment,
  as a player's installed package has its ``.pyc`` files);
* **advisor, warm** -- ``advisor.advise`` in this process, kernels compiled:
  the answer without the process start;
* **DDS** -- DDS (Bo Haglund's and Soren Hein's solver, through endplay's
  ctypes binding, ``SolveAllBoardsBin``, one best card a board) solving the
  same kept deals (``conditioned_deals``, the advisor's own stream) in five
  strains with the hand on lead: deals x 5 boards, on the same number of
  threads;
* **kaiser five strains** -- the advisor's own solve of those deals
  (``dd.dd_strains``, points), the step DDS stands in for.

The three are run interleaved, ``--repeats`` rounds of (advisor process,
advisor warm, DDS, kaiser five strains), so a machine shared with other work
slows each alike as far as possible.  Reported: medians [min, max], the
ratio of the medians to DDS's and the median of the per-round ratios, the
CPU model, the load average at the start and end, and the CPU use of the
lines (CPU time / (wall x threads), the advisor's process counted through
its CPU time as a child), and the ratios by CPU time; below 0.9 CPU use
of a solve line (DDS or kaiser's five strains, which keep every thread
busy; the advisor's lines have serial steps of their own) the machine was busy and the times are upper bounds (the ratios less so:
both sides slow; by CPU time hardly at all).

``--stages`` also profiles one warm answer after the rounds (cProfile) and
gives each stage's share of it (conditioning, the five-strain solve, the
play check, the 5H and 3S, the calls' worth, the rest): which part of the
answer the ratio to DDS is made of.
"""

from __future__ import annotations

import datetime
import os
import platform
import resource
import statistics
import subprocess
import sys
import time

import numba
import numpy as np

import common
import endplay
import endplay._dds as dds
from kaiser_sim import __version__, config
from kaiser_sim.dd import api
from kaiser_sim.rules import get_preset
from kaiser_sim.strategy import advisor as adv
from kaiser_sim.strategy.conditioned import conditioned_deals, heard_auction
from machine import cpu_summary, loadavg
from solver_vs_dds import dds_deal, dds_set_threads

TARGET_RATIO = 2.0
BUSY_CPU_USE = 0.9
N_STRAINS = 5


def dds_boards(deals: np.ndarray, leader: int) -> list[tuple]:
    """``boards`` structs of at most MAXNOOFBOARDS boards: every deal in the
    five strains with ``leader`` on lead, and their ``solvedBoards``."""
    boards = [(i, s) for i in range(len(deals)) for s in range(N_STRAINS)]
    chunks = []
    for a in range(0, len(boards), dds.MAXNOOFBOARDS):
        part = boards[a:a + dds.MAXNOOFBOARDS]
        bo = dds.boards()
        for k, (i, s) in enumerate(part):
            bo.deals[k] = dds_deal(deals[i], leader, s)
            bo.target[k] = -1
            bo.solutions[k] = 1
            bo.mode[k] = 1
        bo.noOfBoards = len(part)
        chunks.append((bo, dds.solvedBoards(), len(part)))
    return chunks


def run_dds(chunks) -> np.ndarray:
    """Solve every board; the tricks of the side on lead, (boards,)."""
    out = []
    for bo, solved, count in chunks:
        dds.SolveAllBoardsBin(bo, solved)
        if solved.noOfBoards != count:
            raise SystemExit(f"DDS solved {solved.noOfBoards} of {count} boards")
        out.extend(solved.solvedBoard[b].score[0] for b in range(count))
    return np.array(out)


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(fn, threads: int):
    """(wall s, CPU s, CPU use) of one call: the CPU time of this process and
    of the processes it waited for (the advisor's process)."""
    c0, k0, t0 = time.process_time(), _children_cpu(), time.perf_counter()
    fn()
    wall = time.perf_counter() - t0
    cpu = time.process_time() - c0 + _children_cpu() - k0
    return wall, cpu, cpu / (wall * threads)


def summary(xs) -> str:
    return f"{statistics.median(xs):.2f} [{min(xs):.2f}, {max(xs):.2f}]"


#: the advisor's stages for ``--stages``: (name, the functions whose cumulative time it is, as
#: (file name, function name) of the package; the first one found is taken)
STAGES = (
    ("dealing consistently with the calls (conditioning)", (("conditioned.py", "conditioned_deals"),)),
    ("the five-strain solve (the step DDS stands in for)", (("measures.py", "solve_strains"),)),
    ("the play bounds (no search)", (("values.py", "strain_bounds"),)),
    ("the play check (PIMC play of 48 deals, its strains)", (("measures.py", "played_check"),)),
    ("a strain played too (also_play)", (("table_play.py", "also_play"),)),
    ("the 5H and 3S (two solves of half the deals)", (("analysis.py", "specials_table"),)),
    ("the calls' worth (the rest of the auction, its contracts solved)", (("call_worth.py", "call_values"),)),
)


def stage_shares(fn) -> dict:
    """Seconds of each of :data:`STAGES` in one call of ``fn`` under
    cProfile, the rest as "other", and "the whole answer"."""
    import cProfile
    import pstats

    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.runcall(fn)
    whole = time.perf_counter() - t0
    stats = pstats.Stats(prof).stats
    out = {}
    for name, funcs in STAGES:
        sec = 0.0
        for file, func in funcs:
            hits = [v[3] for (path, _, f), v in stats.items()
                    if f == func and path.endswith(file) and "kaiser_sim" in path]
            if hits:
                sec = max(hits)
                break
        out[name] = sec
    out["other (Python between the stages: tables, intervals, the report)"] = max(0.0, whole - sum(out.values()))
    out["the whole answer"] = whole
    return out


def main(argv=None) -> int:
    parser = common.parser(__doc__, "advisor_vs_dds")
    parser.add_argument("--hand", default="AQ98.K5.A.T", help="the hand (8 cards)")
    parser.add_argument("--seat", default="S", choices=list("NESW"), help="its seat")
    parser.add_argument("--auction", default="6 pass 7", help="the calls heard before the seat")
    parser.add_argument("--deals", type=int, default=2000, help="deals kept (consistent with the calls)")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved rounds")
    parser.add_argument("--stages", action="store_true",
                        help="also profile one warm answer (cProfile, after the timed rounds) and give each stage's "
                             "share of it: where the advisor's time goes beside DDS's")
    parser.add_argument("--compare-lead-group", type=int, default=None, metavar="G",
                        help="also time the warm answer with the play check's opening lead shared by G deals "
                             "(config.TABLE_PLAY_CHECK_LEAD_GROUP; 1: every deal its own, as before issue 46)")
    args = parser.parse_args(argv)
    log = common.logger()
    load0 = loadavg()
    rules = get_preset("standard")
    seat = "NESW".index(args.seat)
    threads = numba.get_num_threads()
    dds_set_threads(threads)
    hand = adv.read_hand(args.hand, rules)
    _, calls = heard_auction(rules, seat, args.auction)
    cd = conditioned_deals(hand, seat, calls, args.deals, args.seed, rules)
    deals = cd.deals
    chunks = dds_boards(deals, seat)
    # the same deals, and DDS and ours agree on them in tricks (a check, untimed)
    tricks = api.dd_strains(deals, seat, "tricks")
    got = run_dds(chunks).reshape(len(deals), N_STRAINS)
    if not np.array_equal(got, tricks.astype(np.int64)):
        raise SystemExit("DDS and kaiser-sim disagree on the tricks of these deals")
    cmd = [sys.executable, "-m", "kaiser_sim", "hand", args.hand, "--seat", args.seat, "--auction", args.auction,
           "-n", str(args.deals), "--seed", str(args.seed)]
    env = dict(os.environ, NUMBA_NUM_THREADS=str(threads))
    # a player's Python keeps kaiser_sim's compiled bytecode (pip writes it for an installed package); with
    # PYTHONDONTWRITEBYTECODE set (some sandboxes and CI set it) every process would compile the sources again
    no_bytecode = bool(env.pop("PYTHONDONTWRITEBYTECODE", None))

    def process():
        done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode:
            raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stderr}")

    def warm():
        adv.advise(args.hand, seat=args.seat, auction=args.auction, n=args.deals, seed=args.seed)

    def warm_group():
        default = config.TABLE_PLAY_CHECK_LEAD_GROUP
        config.TABLE_PLAY_CHECK_LEAD_GROUP = args.compare_lead_group
        try:
            warm()
        finally:
            config.TABLE_PLAY_CHECK_LEAD_GROUP = default

    log("warming up: one advisor process (fills numba's cache) and one warm answer, untimed")
    process()
    warm()
    runs = {"advisor, process": process, "advisor, warm": warm, "DDS, five strains": lambda: run_dds(chunks),
            "kaiser, five strains": lambda: api.dd_strains(deals, seat, "points")}
    if args.compare_lead_group is not None:
        runs[f"advisor, warm, opening lead shared by {args.compare_lead_group} played deals "
             f"(default {config.TABLE_PLAY_CHECK_LEAD_GROUP})"] = warm_group
    lines = {k: [] for k in runs}
    uses = {k: [] for k in lines}
    cpus = {k: [] for k in lines}
    for r in range(args.repeats):
        for name, fn in runs.items():
            wall, cpu, use = timed(fn, threads)
            lines[name].append(wall)
            cpus[name].append(cpu)
            uses[name].append(use)
            log(f"round {r + 1}, {name}: {wall:.2f} s, CPU {cpu:.2f} s (CPU use {use:.2f})")
    stages = stage_shares(warm) if args.stages else None
    load1 = loadavg()
    dds_med = statistics.median(lines["DDS, five strains"])
    dds_cpu = statistics.median(cpus["DDS, five strains"])
    # judged on the two solves, which keep every thread busy from start to end: the advisor's lines have serial
    # steps (imports, the auction played out, Python between kernels), so their CPU use below 1 is their own
    busy = any(statistics.median(uses[k]) < BUSY_CPU_USE for k in ("DDS, five strains", "kaiser, five strains"))
    out = [
        "# The advisor's whole answer against DDS solving its deals",
        "",
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, kaiser-sim {__version__}, "
        f"{threads} threads (numba and DDS), Python {platform.python_version()}, endplay {endplay.__version__}.",
        f"CPU: {cpu_summary()}.",
        f"Load average at start {load0}, at end {load1}.",
        f"Hand {args.hand} at {args.seat}, calls heard `{args.auction}`, {cd.kept:,} kept deals of "
        f"{cd.candidates:,} candidates, seed {args.seed}, default options (table play with its play check, the "
        f"5H/3S); {args.repeats} interleaved rounds, seconds, median [min, max].",
        "",
        f"Command: `{common.command('advisor_vs_dds', argv)}`",
        "",
        "| line | seconds | x DDS (ratio of medians) | x DDS (median of the rounds' ratios) | CPU s | x DDS by CPU time "
        "| CPU use |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for name, xs in lines.items():
        ratios = [x / d for x, d in zip(xs, lines["DDS, five strains"])]
        cpu = statistics.median(cpus[name])
        out.append(f"| {name} | {summary(xs)} | {statistics.median(xs) / dds_med:.2f} | "
                   f"{statistics.median(ratios):.2f} | {cpu:.2f} | {cpu / dds_cpu:.2f} | "
                   f"{statistics.median(uses[name]):.2f} |")
    ratio = statistics.median(lines["advisor, process"]) / dds_med
    out += ["", f"DDS: {len(deals) * N_STRAINS:,} boards (the kept deals x 5 strains, {args.seat} on lead), "
            "SolveAllBoardsBin, one best card a board; its tricks equal kaiser-sim's tricks on every board.",
            f"Target: the advisor's answer (a process) within {TARGET_RATIO:g}x DDS: "
            f"{'met' if ratio <= TARGET_RATIO else 'missed'} ({ratio:.2f}x)."]
    out.append("The advisor's process keeps Python's bytecode cache (kaiser_sim's `.pyc` files, written by the "
               "untimed first run), as a player's installed package does"
               + (": PYTHONDONTWRITEBYTECODE was set here and is left out for it (with it every process compiles "
                  "kaiser_sim's sources again, about 0.1 s of CPU)." if no_bytecode else "."))
    out.append("CPU s: the process's CPU time, and its children's (the advisor's process: its start and imports "
               "included); by CPU time the ratio is one a busy machine hardly moves (it also counts the time a "
               "thread spends waiting for another, so the wall-time ratio is the one of the target).")
    if stages:
        out += ["", "Where one warm answer's time goes (one run under cProfile, after the timed rounds; each stage's "
                "wall time, its kernels' threads included, as a share of the answer's; the profiler's own overhead "
                "falls mostly on the Python steps, so they read a little high):", "",
                "| stage | seconds | share |", "|---|---:|---:|"]
        total = stages.pop("the whole answer")
        for name, sec in stages.items():
            out.append(f"| {name} | {sec:.2f} | {sec / total:.0%} |")
        out.append(f"| the whole answer | {total:.2f} | 100% |")
    if busy:
        out.insert(1, "")
        out.insert(2, "**The machine was busy** (a solve line got less than 90% of the CPU it asked for): the times "
                      "are upper bounds; the ratios are less affected (the rounds interleave), not unaffected.")
    common.write_result(args.out, "\n".join(out) + "\n", log)
    return 0


if __name__ == "__main__":
    sys.exit(main())

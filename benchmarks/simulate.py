"""End-to-end throughput of ``kaiser-sim simulate``: deal + the 20-entry
points table (``--mode points``) or both tables, points and tricks (``--mode
both``, the command's default) + Parquet write, on all cores, with peak
memory and the projected time for 1,000,000 deals in each mode.

Run with ``make bench-simulate`` or ``.venv/bin/python benchmarks/simulate.py``
(``--help`` for the options).  The result is printed as Markdown and, with
``--save``, written to ``benchmarks/results/simulate.md``.

What is measured
----------------
1. **Validation** (untimed; also loads the compiled kernels): a short run of
   the engine in each mode on ``--workers`` processes must equal the
   reference computed directly, ``dd_table(deal_batch(...))`` (and its
   tricks table), row for row.  A mismatch stops the benchmark with exit
   status 1.
2. **Reference**: the bare solver in this process, ``dd_table(deals,
   threads=workers)`` (``mode="both"`` for the both run) on ``--ref-deals``
   freshly dealt deals (dealing and writing not included): what the cores
   can solve without the engine; measured before the run and again after
   it, as the machine's speed drifts.
3. **The runs**: ``kaiser_sim.runs.simulate.simulate`` of ``--deals`` deals, mode
   points, then ``--both-deals`` deals (default ``--deals``) in mode both,
   each into a temporary directory (deleted afterwards), timed from the
   call to its return: worker start-up, dealing, solving, writing, fsyncs.
   While it runs a thread samples the resident memory (RSS) of this process
   and all its children every 0.25 s; the peak over the first 10% of the
   deals and over the whole run show whether memory grows with ``N``.

Projected time for 1,000,000 deals = 1,000,000 / (deals per second of the
run): every chunk costs the same on average and memory is flat, so the time
is linear in ``N``.  CPU use = CPU time of this process and its workers /
(wall time x workers); well below 100% means the machine was shared.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import resource
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import numba
import numpy as np
import pyarrow

import kaiser_sim
from kaiser_sim import config
from kaiser_sim.deal import deal_batch
from kaiser_sim.runs.progress import LineProgress, format_duration
from kaiser_sim.runs.results import dd_array, hands_array, load_results
from kaiser_sim.runs.simulate import default_workers, simulate
import common
from machine import cpu_model, loadavg

MILLION = 1_000_000
#: the projected minutes for 1,000,000 deals a mode must meet (target) and is aimed at (goal):
#: points alone 30 / 10 (the engine's first target); both tables 45 (the solver ladder's target)
TARGET_MIN = {"points": 30, "both": 45}
GOAL_MIN = {"points": 10, "both": None}


def cpu_seconds() -> float:
    """CPU time of this process and its finished children."""
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


class MemorySampler(threading.Thread):
    """Peak RSS (bytes) of this process plus its children, sampled; also the
    peak while fewer than ``early`` deals were written."""

    def __init__(self, progress: LineProgress, early: int, interval: float = 0.25):
        super().__init__(daemon=True)
        self.progress, self.early, self.interval = progress, early, interval
        self.peak = self.peak_early = self.peak_single = 0
        self.stop = threading.Event()
        try:
            import psutil

            self.me = psutil.Process()
        except ImportError:  # psutil comes with distributed; without it only ru_maxrss
            self.me = None

    def sample(self) -> None:
        procs = [self.me] + self.me.children(recursive=True)
        total = 0
        for p in procs:
            try:
                rss = p.memory_info().rss
            except Exception:  # a worker that just ended
                continue
            total += rss
            self.peak_single = max(self.peak_single, rss)
        self.peak = max(self.peak, total)
        if self.progress.done < self.early:
            self.peak_early = max(self.peak_early, total)

    def run(self) -> None:
        while self.me is not None and not self.stop.is_set():
            self.sample()
            self.stop.wait(self.interval)


def validate(workers: int, seed: int, n: int, chunk: int, tmp: Path, mode: str = "points") -> None:
    out = tmp / "validate"
    simulate(out, n, seed, chunk_size=chunk, workers=workers, mode=mode)
    df = load_results(out)
    deals = deal_batch(n, seed)
    ok = np.array_equal(hands_array(df), deals) and np.array_equal(dd_array(df), kaiser_sim.dd_table(deals))
    if mode == "both":
        ok = ok and np.array_equal(dd_array(df, "tricks"), kaiser_sim.dd_table(deals, mode="tricks"))
    shutil.rmtree(out)
    if not ok:
        print("VALIDATION FAILED: the engine's rows differ from dd_table(deal_batch(...))", file=sys.stderr)
        sys.exit(1)


def mb(x: float) -> str:
    return f"{x / 2**20:,.0f} MiB" if x >= 2**24 else f"{x / 2**20:,.2f} MiB"


def render(r: dict) -> str:
    runs = r["runs"]  # mode -> the timed run's measures
    modes = list(runs)
    busy = any(x["cpu_use"] < 0.9 for x in runs.values())

    def verdict(mode, proj):
        target, goal = TARGET_MIN[mode], GOAL_MIN[mode]
        aims = f"target {target} min" + (f", goal {goal} min" if goal else "")
        if proj > target * 60:
            return f"MISSES the target: {aims}"
        if goal is None:
            return f"meets the target: {aims}"
        return f"{'meets the goal' if proj <= goal * 60 else 'meets the target, not the goal'}: {aims}"

    def row(name, cell):
        return f"| {name} | " + " | ".join(cell(runs[m]) for m in modes) + " |"

    def proj(x):
        return MILLION / x["rate"]

    lines = [
        "# kaiser-sim simulate: end-to-end throughput",
        "",
        f"Generated by `benchmarks/simulate.py` on {r['date']}.",
        "",
        "| measure | " + " | ".join(f"`--mode {m}`" + (" (default)" if m == "both" else "") for m in modes) + " |",
        "|---|" + "---|" * len(modes),
        row("tables stored", lambda x: "points" if x["mode"] == "points" else "points + tricks (the ladder)"),
        row("deals (timed run)", lambda x: f"{x['deals']:,} (seed {r['seed']}, {x['chunks']:,} parts of "
                                           f"{r['chunk']:,})"),
        row("workers", lambda x: f"{r['workers']} processes"),
        row("wall time", lambda x: f"{format_duration(x['seconds'])} ({x['seconds']:,.1f} s)"),
        row("**deals per second, end to end**", lambda x: f"**{x['rate']:,.1f}**"),
        row(f"bare solver on the same cores (`dd_table`, {r['ref_deals']:,} deals, {r['workers']} threads)",
            lambda x: f"{x['ref_before']:,.1f} deals/s before the run, {x['ref_after']:,.1f} after"),
        row("engine / bare solver (mean of before and after)",
            lambda x: f"{2 * x['rate'] / (x['ref_before'] + x['ref_after']):.2f}"),
        row("**projected time for 1,000,000 deals**",
            lambda x: f"**{format_duration(proj(x))}** ({verdict(x['mode'], proj(x))})"),
        row("projected on a quiet machine (measured rate / CPU use)",
            lambda x: format_duration(MILLION * max(x["cpu_use"], 0.05) / x["rate"])),
        row("peak memory, this process + workers",
            lambda x: f"{mb(x['peak'])} (largest single process {mb(x['peak_single'])})"),
        row("peak memory during the first 10% of deals", lambda x: mb(x["peak_early"])),
        row("output on disk", lambda x: f"{mb(x['bytes'])} ({x['bytes'] / x['deals']:.1f} bytes a deal)"),
        row("CPU use (CPU time / (wall x workers))", lambda x: f"{x['cpu_use']:.0%}"),
        row("load average (1, 5, 15 min) at the run's start", lambda x: x["load_start"]),
        f"| this process's own peak RSS (`ru_maxrss`, whole benchmark) | {mb(r['maxrss_self'])} |"
        + " |" * (len(modes) - 1),
        "",
    ]
    if busy:
        lines += ["**The machine was busy** (CPU use below 90%): on a quiet machine expect about the measured "
                  "rate divided by the CPU use (the 'quiet machine' row).", ""]
    lines += [
        "What is timed: one `kaiser_sim.runs.simulate.simulate(out, deals, seed, mode=..., workers=..., chunk_size=...)` "
        "call a mode, from the call to its return: spawning the worker processes and loading the compiled kernels, "
        "dealing, the 20-entry points table of every deal (mode both: and its tricks table, solved together by "
        "`dd_table(mode=\"both\")`), the Parquet writes (each part fsynced and renamed) and the "
        "final directory fsync. Not timed: the validation run and the reference measurements before and after it "
        "(the machine's speed drifts by up to a quarter between runs, so one reference can mislead). "
        "The projection divides 1,000,000 by the measured rate (memory does not grow with N, so the time is "
        "linear in N).",
        "",
        "Memory: RSS of this process and its worker processes, summed, sampled every 0.25 s. The peak over "
        "the whole run equal to (or within noise of) the peak over the first 10% of the deals shows memory "
        "is flat in N: the engine keeps at most "
        f"{config.SIMULATE_CHUNKS_AHEAD} chunks a worker in flight and writes each part as it arrives.",
        "",
        "Machine:",
        f"- CPU: {r['cpu']}; CPUs this process may use: {r['cpus']}",
        f"- load average (1, 5, 15 min) at each run's start: in the table; at the end: {r['load_end']}",
        f"- Python {platform.python_version()}, numpy {np.__version__}, numba {numba.__version__} "
        f"(threading layer {r['layer']}), pyarrow {pyarrow.__version__}, kaiser-sim {kaiser_sim.__version__}",
        f"- command: `{r['command']}`",
        "",
    ]
    return "\n".join(lines)


def bare_rate(deals, threads: int, mode: str = "points") -> float:
    """Deals per second of one bare ``dd_table`` call (``mode``, ``threads`` numba threads)."""
    t = time.perf_counter()
    kaiser_sim.dd_table(deals, mode=mode, threads=threads)
    return len(deals) / (time.perf_counter() - t)


def timed_run(mode: str, deals: int, args, ref, tmp: Path, log) -> dict:
    """One timed ``simulate`` run of ``deals`` deals in ``mode``, bracketed by
    the bare solver's rate on ``ref`` (same mode)."""
    load_start = loadavg()
    ref_before = bare_rate(ref, args.workers, mode)
    log(f"  bare dd_table (mode {mode}): {ref_before:,.1f} deals/s")
    log(f"timed run: {deals:,} deals, mode {mode}, on {args.workers} workers ...")
    progress = LineProgress(sys.stderr, interval=60)
    sampler = MemorySampler(progress, early=deals // 10)
    out = tmp / f"run-{mode}"
    cpu0 = cpu_seconds()
    sampler.start()
    t = time.perf_counter()
    simulate(out, deals, args.seed, mode=mode, chunk_size=args.chunk_size, workers=args.workers, progress=progress)
    seconds = time.perf_counter() - t
    sampler.stop.set()
    sampler.join()
    cpu = cpu_seconds() - cpu0
    # the machine's speed drifts: the reference again after the run brackets it
    ref_after = bare_rate(ref, args.workers, mode)
    log(f"  {deals / seconds:,.1f} deals/s; bare dd_table after the run: {ref_after:,.1f} deals/s")
    size = sum(p.stat().st_size for p in out.iterdir())
    if args.keep is not None and mode == "both":
        args.keep.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(out), str(args.keep))
    else:
        shutil.rmtree(out, ignore_errors=True)
    return dict(mode=mode, deals=deals, chunks=-(-deals // args.chunk_size), seconds=seconds, rate=deals / seconds,
                ref_before=ref_before, ref_after=ref_after, peak=sampler.peak, peak_early=sampler.peak_early,
                peak_single=sampler.peak_single, bytes=size, cpu_use=cpu / (seconds * args.workers),
                load_start=load_start)


def main(argv=None) -> int:
    ap = common.parser(__doc__, "simulate", formatter=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=100_000, help="deals in the timed points run (default 100,000)")
    ap.add_argument("--both-deals", type=int, default=None,
                    help="deals in the timed run of mode both (default: --deals)")
    ap.add_argument("--modes", default="points,both", help="the modes to time, in order (points, both)")
    ap.add_argument("--workers", type=int, default=default_workers(), help="worker processes (default: all CPUs)")
    ap.add_argument("--chunk-size", type=int, default=config.SIMULATE_CHUNK_SIZE)
    ap.add_argument("--ref-deals", type=int, default=1000, help="deals for the bare-solver reference")
    ap.add_argument("--check-deals", type=int, default=40, help="deals in the validation run")
    ap.add_argument("--tmp", type=Path, default=None, help="directory for the temporary results (default: system temp)")
    ap.add_argument("--keep", type=Path, default=None,
                    help="keep the timed run's dataset of mode both here (a new directory; e.g. to run the "
                         "studies on it)")
    args = ap.parse_args(argv)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if not modes or any(m not in ("points", "both") for m in modes):
        ap.error("--modes: a comma-separated list of points, both")

    if args.keep is not None and args.keep.exists():
        ap.error(f"--keep {args.keep}: already exists (choose a new directory)")
    tmp = Path(tempfile.mkdtemp(prefix="kaiser-sim-bench-", dir=args.tmp))
    log = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    try:
        ref = deal_batch(args.ref_deals, args.seed + 1)
        for mode in modes:
            log(f"validating mode {mode} on {args.check_deals} deals ...")
            validate(args.workers, args.seed, args.check_deals, max(1, args.check_deals // (2 * args.workers)), tmp,
                     mode)
            kaiser_sim.dd_table(ref[:2], mode=mode, threads=args.workers)
        runs = {}
        for mode in modes:
            deals = args.deals if mode == "points" or args.both_deals is None else args.both_deals
            runs[mode] = timed_run(mode, deals, args, ref, tmp, log)
        r = dict(
            date=datetime.datetime.now().isoformat(timespec="seconds"), seed=args.seed, chunk=args.chunk_size,
            workers=args.workers, ref_deals=args.ref_deals, runs=runs,
            maxrss_self=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
            cpu=cpu_model(), cpus=default_workers(), load_end=loadavg(), layer=numba.threading_layer(),
            command=common.command("simulate", argv),
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    text = render(r)
    common.write_result(args.out, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

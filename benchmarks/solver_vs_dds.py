"""Throughput of kaiser-sim's double-dummy solver side by side with DDS.

Run with ``make bench`` or ``.venv/bin/python benchmarks/solver_vs_dds.py``
(``--help`` for the options).  The result is printed as Markdown and, with
``--save``, written to ``benchmarks/results/solver_vs_dds.md``.

What is measured
----------------
The same seeded random Kaiser deals (``deal.deal_batch``) are solved from
every leader in every strain: 20 solves per deal, the leader's side value.

* **kaiser-sim**: ``kaiser_sim.dd.dd_table(deals, mode, threads=k)``, in
  tricks mode, in points mode, and ``mode="both"`` (both tables, by the
  ladder tricks -> 5H only -> points in one transposition table; its rate
  counts a deal's 20 points + 20 tricks values as 20 solves, so its ratio
  compares a deal's two tables with DDS's one).  One timed run is one call on all deals;
  its time includes the wrapper's input checks.  The node counts come from
  the timed calls themselves (``return_nodes=True``; the kernel counts nodes
  whether or not they are returned).
* **DDS** (Bo Haglund's and Soren Hein's solver, through endplay's ctypes
  binding): ``SolveAllBoardsBin`` with target -1, solutions 1 (one best card
  with its score, i.e. the exact number of tricks), mode 1, after
  ``SetMaxThreads(k)``.  The ``boards`` structs are built once before timing
  (that is pure Python conversion work, not DDS's); a timed run is the
  sequence of ``SolveAllBoardsBin`` calls on all deals, at most
  ``MAXNOOFBOARDS`` boards per call, whole deals per call so that DDS can
  reuse work between the 20 boards of a deal.
* **DDS CalcAllTables**: ``CalcAllTables`` (no par) on the same deals, at
  most ``MAXNOOFTABLES`` deals a call, the ``ddTableDeals`` structs built
  before timing.  DDS's tables are its declarer's tricks, out of 13 (the
  absent cards count as tricks given away): the leader's side takes
  ``13 - resTable[strain][leader's right-hand opponent]`` of the 8.  The
  ratios are taken against the faster of the two DDS lines at each thread
  count.
* **kaiser-sim with one special card** (one thread): points mode with the
  5H only or the 3S only (the other one an ordinary card), to show what each
  special costs the search against tricks mode.
* **DDS single calls**, for context: ``SolveBoard`` once per board from a
  Python loop (one thread, thread index 0), including the ctypes call and
  reading the score, with the ``deal`` structs built before timing.

DDS plays bridge: Kaiser's 32 cards are given with their real ranks (the low
spade is the 3, the low heart the 5), so DDS tricks equal kaiser-sim's
tricks mode.  That is checked on every solve before anything is timed (the
check also compiles kaiser-sim's kernels); points mode is checked against the
bound ``tricks - 3 <= points <= tricks + 5``.  A mismatch stops the run.

Runs are repeated ``--repeats`` times, round robin over the engines at each
thread count, and the median is reported with the range.  "All cores" is the
number of CPUs this process may use.
"""

from __future__ import annotations

import ctypes
import datetime
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field

import numba
import numpy as np

import endplay
import endplay._dds as dds
from kaiser_sim.dd import api
from kaiser_sim.cards import Seat, Strain, format_deal
from kaiser_sim.deal import deal_batch
import common
from machine import cpu_summary, physical_cores, loadavg

N_LEADERS = 4
N_STRAINS = 5
SOLVES_PER_DEAL = N_LEADERS * N_STRAINS
DEALS_PER_DDS_CALL = dds.MAXNOOFBOARDS // SOLVES_PER_DEAL  # whole deals per SolveAllBoards call

# DDS rank (2..14, bit 1 << rank) of our rank indices 0..8 in each suit S H D C.
# Index 0 is the 3S / 5H; it does not occur in diamonds and clubs of the 32-card deck.
_DDS_RANK = [[low] + list(range(7, 15)) for low in (3, 5, 2, 2)]

#: a one-thread line whose CPU use (CPU time / wall time) is below this was starved by other programs
BUSY_CPU_USE = 0.9


# ---------------------------------------------------------------------------
# DDS input


def dds_holding(hand: int, suit: int) -> int:
    """DDS holding (bit ``1 << rank``, ranks 2..14) of one suit of a bitboard hand."""
    bits = (int(hand) >> (16 * suit)) & 0x1FF
    out = 0
    for r in range(9):
        if bits >> r & 1:
            out |= 1 << _DDS_RANK[suit][r]
    return out


def dds_deal(hands, leader: int, strain: int) -> dds.deal:
    """A DDS ``deal`` struct at the start of play: ``strain`` trumps (4 = no
    trump, as ours), ``leader`` on lead (N E S W = 0..3, as ours)."""
    dl = dds.deal()
    dl.trump = strain
    dl.first = leader
    for i in range(3):
        dl.currentTrickSuit[i] = 0
        dl.currentTrickRank[i] = 0
    for seat in range(4):
        for suit in range(4):
            dl.remainCards[seat][suit] = dds_holding(hands[seat], suit)
    return dl


def board_order(n_deals: int):
    """(deal, leader, strain) of each board, deal-major: the order boards are given to DDS."""
    return [(i, leader, strain) for i in range(n_deals) for leader in range(N_LEADERS) for strain in range(N_STRAINS)]


def build_dds_chunks(deals: np.ndarray) -> list[tuple[dds.boards, dds.solvedBoards, int]]:
    """``boards`` structs of at most MAXNOOFBOARDS boards (whole deals), each
    with a ``solvedBoards`` to receive the results, and the board count."""
    chunks = []
    for start in range(0, len(deals), DEALS_PER_DDS_CALL):
        part = deals[start:start + DEALS_PER_DDS_CALL]
        bo = dds.boards()
        k = 0
        for hands in part:
            for leader in range(N_LEADERS):
                for strain in range(N_STRAINS):
                    bo.deals[k] = dds_deal(hands, leader, strain)
                    bo.target[k] = -1  # find the exact value
                    bo.solutions[k] = 1  # one best card and its score
                    bo.mode[k] = 1  # always search, even with one legal card
                    k += 1
        bo.noOfBoards = k
        chunks.append((bo, dds.solvedBoards(), k))
    return chunks


class _DDSInfo(ctypes.Structure):
    """DDS 2.9's ``DDSInfo`` (dll.h).  endplay's own ``DDSInfo`` lacks fields
    added after 2.8 (numBits, numCores, threadSizes), so passing it to
    ``GetDDSInfo`` overruns the buffer; this one matches the library."""

    _fields_ = [
        ("major", ctypes.c_int), ("minor", ctypes.c_int), ("patch", ctypes.c_int),
        ("versionString", ctypes.c_char * 10),
        ("system", ctypes.c_int), ("numBits", ctypes.c_int), ("compiler", ctypes.c_int),
        ("constructor", ctypes.c_int), ("numCores", ctypes.c_int), ("threading", ctypes.c_int),
        ("noOfThreads", ctypes.c_int), ("threadSizes", ctypes.c_char * 128),
        ("systemString", ctypes.c_char * 1024),
    ]


_DDS_THREADING = {0: "none", 1: "Windows", 2: "OpenMP", 3: "GCD", 4: "Boost", 5: "STL", 6: "TBB",
                  7: "STLIMPL", 8: "PPLIMPL"}


def dds_info() -> _DDSInfo:
    info = _DDSInfo()
    dds._dll.GetDDSInfo(ctypes.byref(info))
    return info


def dds_set_threads(k: int) -> None:
    """``SetMaxThreads(k)`` and check that DDS took it."""
    dds.SetMaxThreads(k)
    got = dds_info().noOfThreads
    if got != k:
        raise SystemExit(f"DDS runs {got} threads after SetMaxThreads({k})")


# ---------------------------------------------------------------------------
# the timed runs: each returns (wall seconds, process CPU seconds, values (n, 4, 5), nodes (n, 4, 5))


def run_dds_all(chunks, n_deals: int):
    c0, t0 = time.process_time(), time.perf_counter()
    for bo, solved, _ in chunks:
        dds.SolveAllBoardsBin(bo, solved)
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    values = np.empty(n_deals * SOLVES_PER_DEAL, dtype=np.int64)
    nodes = np.empty(n_deals * SOLVES_PER_DEAL, dtype=np.int64)
    k = 0
    for _, solved, count in chunks:
        if solved.noOfBoards != count:
            raise SystemExit(f"DDS solved {solved.noOfBoards} of {count} boards")
        for b in range(count):
            fut = solved.solvedBoard[b]
            values[k] = fut.score[0]
            nodes[k] = fut.nodes
            k += 1
    shape = (n_deals, N_LEADERS, N_STRAINS)
    return elapsed, cpu, values.reshape(shape), nodes.reshape(shape)


def build_dds_tables(deals: np.ndarray) -> list[tuple[dds.ddTableDeals, int]]:
    """``ddTableDeals`` structs of at most MAXNOOFTABLES deals, and the deal count."""
    chunks = []
    for start in range(0, len(deals), dds.MAXNOOFTABLES):
        part = deals[start:start + dds.MAXNOOFTABLES]
        td = dds.ddTableDeals()
        td.noOfTables = len(part)
        for i, hands in enumerate(part):
            for seat in range(4):
                for suit in range(4):
                    td.ddTableDeal[i].cards[seat][suit] = dds_holding(hands[seat], suit)
        chunks.append((td, len(part)))
    return chunks


def run_dds_tables(tables, n_deals: int):
    results = [(dds.ddTablesRes(), dds.allParResults()) for _ in tables]
    c0, t0 = time.process_time(), time.perf_counter()
    for (td, _), (res, par) in zip(tables, results):
        dds.CalcAllTables(td, -1, [0] * 5, res, par)
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    values = np.empty((n_deals, N_LEADERS, N_STRAINS), dtype=np.int64)
    i = 0
    for (_, count), (res, _) in zip(tables, results):
        for b in range(count):
            rt = res.results[b].resTable
            for leader in range(N_LEADERS):
                for strain in range(N_STRAINS):
                    values[i, leader, strain] = 13 - rt[strain][(leader + 3) % 4]
            i += 1
    return elapsed, cpu, values, np.zeros_like(values)


def run_dds_single(deal_structs, n_deals: int):
    fut = dds.futureTricks()
    solve_board = dds.SolveBoard
    values = [0] * len(deal_structs)
    nodes = [0] * len(deal_structs)
    c0, t0 = time.process_time(), time.perf_counter()
    for k, dl in enumerate(deal_structs):
        solve_board(dl, -1, 1, 1, fut, 0)
        values[k] = fut.score[0]
        nodes[k] = fut.nodes
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    shape = (n_deals, N_LEADERS, N_STRAINS)
    return elapsed, cpu, np.array(values).reshape(shape), np.array(nodes).reshape(shape)


#: points mode with one special card left out (it counts as an ordinary card):
#: what each special costs the search, against "tricks" (neither) and "points" (both)
ONE_SPECIAL = {"points, 5H only": dict(three=0), "points, 3S only": dict(five=0)}


BOTH = "both (points + tricks tables)"


def run_kaiser(deals: np.ndarray, mode: str, threads: int):
    """(wall s, CPU s, values, nodes); for ``BOTH`` the values are the
    (points, tricks) pair and the nodes the three passes' sum per solve."""
    if mode == BOTH:
        c0, t0 = time.process_time(), time.perf_counter()
        points, tricks, nodes = api.dd_table(deals, "both", threads=threads, return_nodes=True)
        elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
        return elapsed, cpu, (points, tricks), nodes.sum(axis=1)
    specials = ONE_SPECIAL.get(mode)
    c0, t0 = time.process_time(), time.perf_counter()
    values, nodes = api.dd_table(deals, "points" if specials else mode, threads=threads, return_nodes=True,
                                 **(specials or {}))
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    return elapsed, cpu, values, nodes


# ---------------------------------------------------------------------------
# validation


def _where(deals, i, leader, strain) -> str:
    return f"deal {i} {format_deal(deals[i])}, {Seat(leader).name} leads, strain {Strain(strain).name}"


def validate(deals: np.ndarray, chunks, tables, threads: int) -> tuple[np.ndarray, np.ndarray]:
    """kaiser-sim tricks == DDS tricks (both DDS calls) on every solve;
    points within ``tricks - 3 .. tricks + 5``; ``mode="both"`` equal to
    the two separate tables.  Returns the DDS tricks and the points.
    Exits on a mismatch."""
    n = len(deals)
    dds_set_threads(threads)
    dds_tricks = run_dds_all(chunks, n)[2]
    ks_tricks = run_kaiser(deals, "tricks", threads)[2]
    ks_points = run_kaiser(deals, "points", threads)[2]
    both_points, both_tricks = run_kaiser(deals, BOTH, threads)[2]
    problems = []
    if not np.array_equal(run_dds_tables(tables, n)[2], dds_tricks):
        problems.append("DDS CalcAllTables differs from DDS SolveAllBoards")
    if not (np.array_equal(both_points, ks_points) and np.array_equal(both_tricks, ks_tricks)):
        problems.append("dd_table(mode='both') differs from the separate points and tricks tables")
    for i, leader, strain in zip(*np.nonzero(ks_tricks != dds_tricks)):
        problems.append(f"tricks: kaiser-sim {ks_tricks[i, leader, strain]}, DDS {dds_tricks[i, leader, strain]}; "
                        + _where(deals, i, leader, strain))
    bad = (ks_points < dds_tricks - 3) | (ks_points > dds_tricks + 5)
    for i, leader, strain in zip(*np.nonzero(bad)):
        problems.append(f"points {ks_points[i, leader, strain]} outside tricks {dds_tricks[i, leader, strain]} -3..+5; "
                        + _where(deals, i, leader, strain))
    if problems:
        print(f"VALIDATION FAILED on {len(problems)} of {2 * ks_tricks.size} checks; nothing timed:", file=sys.stderr)
        for p in problems[:20]:
            print("  " + p, file=sys.stderr)
        raise SystemExit(1)
    return dds_tricks, ks_points


# ---------------------------------------------------------------------------
# bookkeeping and report


@dataclass
class Row:
    engine: str
    mode: str
    threads: int
    solves: int
    times: list[float] = field(default_factory=list)
    cpu_use: list[float] = field(default_factory=list)  # process CPU time / (wall time x threads)
    nodes: list[float] = field(default_factory=list)

    @property
    def rates(self) -> list[float]:
        return [self.solves / t for t in self.times]

    @property
    def median(self) -> float:
        return statistics.median(self.rates)

    @property
    def cpu_median(self) -> float:
        """Median solves per second of the CPU time the process took (a busy
        machine stretches wall time, hardly CPU time)."""
        return statistics.median(self.solves / (t * u * self.threads) for t, u in zip(self.times, self.cpu_use))


DDS_ALL = "DDS SolveAllBoards"
DDS_TABLES = "DDS CalcAllTables"
DDS_ONE = "DDS SolveBoard, one call per board from Python"
KAISER = "kaiser-sim dd_table"


def _fmt_rate(x: float) -> str:
    return f"{x:,.0f}"


def _fmt_nodes(r: Row) -> str:
    return "-" if r.engine == DDS_TABLES else f"{statistics.mean(r.nodes):,.0f}"


def _specials_summary(rows: list[Row]) -> list[str]:
    """What each special card costs the search (one thread, against tricks
    mode), and what a 1,000,000-deal table takes at the all-cores rates."""
    one = {r.mode: r for r in rows if r.engine == KAISER and r.threads == 1}
    out = []
    if "tricks" in one and all(m in one for m in ("points", *ONE_SPECIAL)):
        base = one["tricks"]
        out += ["", "What the special cards cost the search (1 thread; a special left out counts as an "
                "ordinary card; against tricks mode, where neither counts):", ""]
        for mode in (*ONE_SPECIAL, "points"):
            r = one[mode]
            label = "points, both (the game)" if mode == "points" else mode
            out.append(f"- {label}: nodes ×{statistics.mean(r.nodes) / statistics.mean(base.nodes):.2f}, "
                       f"time ×{base.median / r.median:.2f}")
    top = max(r.threads for r in rows)
    deals = 1_000_000
    at_top = [r for r in rows if r.engine == KAISER and r.threads == top and r.mode in ("tricks", "points", BOTH)]
    if at_top:
        out += ["", f"A table of {deals:,} deals ({deals * SOLVES_PER_DEAL:,} solves) at the {top}-thread "
                "medians: " + ", ".join(f"{r.mode} {deals * SOLVES_PER_DEAL / r.median / 60:.0f} min"
                                        for r in at_top) + " (solver only; `make bench-simulate` times the "
                "whole engine)."]
    return out


def render(rows: list[Row], info: dict, speedups: list[tuple[str, float]]) -> str:
    ref = {}
    ref_cpu = {}
    for r in rows:
        if r.engine in (DDS_ALL, DDS_TABLES):
            ref[r.threads] = max(ref.get(r.threads, 0.0), r.median)
            ref_cpu[r.threads] = max(ref_cpu.get(r.threads, 0.0), r.cpu_median)
    lines = [
        "# kaiser-sim solver vs DDS",
        "",
        f"{info['deals']} random Kaiser deals (32 cards, 8 a hand; seed {info['seed']}), "
        "each solved from every leader in every strain: "
        f"{info['solves']:,} solves per run, {info['repeats']} timed run{'s' if info['repeats'] > 1 else ''} per line "
        "(median and range). "
        "Validated before timing: kaiser-sim tricks equal DDS tricks on all "
        f"{info['solves']:,} solves, and every points value lies within tricks -3..+5.",
        "",
        f"CPU: {info['cpu']}.",
        "",
        "| engine | mode | threads | solves/s (median) | min..max over repeats | ratio to the faster DDS, same threads "
        "| the faster DDS's solves/s in this run | ratio by CPU time | mean nodes/solve | CPU use |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        rates = r.rates
        ratio = r.median / ref[r.threads] if r.threads in ref else float("nan")
        lines.append(
            f"| {r.engine} | {r.mode} | {r.threads} | {_fmt_rate(r.median)} | "
            f"{_fmt_rate(min(rates))}..{_fmt_rate(max(rates))} | {ratio:.3f} | {_fmt_rate(ref.get(r.threads, 0.0))} "
            f"| {r.cpu_median / ref_cpu[r.threads] if r.threads in ref_cpu else float('nan'):.3f} | {_fmt_nodes(r)} "
            f"| {statistics.median(r.cpu_use):.0%} |"
        )
    # judged on the one-thread lines: with more threads, workers that run out of work also lower CPU use
    starved = [r for r in rows if r.threads == 1 and statistics.median(r.cpu_use) < BUSY_CPU_USE]
    if starved:
        lines += ["", f"**The machine was busy:** {len(starved)} of the one-thread lines got less than "
                  f"{BUSY_CPU_USE:.0%} of a CPU (load average at start {info['load_start']}). "
                  "The solves/s are below what this machine does when quiet; rerun on a quiet machine "
                  "before quoting them."]
    lines += ["", "Speed-up from 1 thread to all cores (ratio of medians):", ""]
    lines += [f"- {name}: ×{s:.2f}" for name, s in speedups] or ["- (only one thread count was measured)"]
    lines += _specials_summary(rows)
    lines += [
        "",
        "## What is timed",
        "",
        "- kaiser-sim: one `dd_table(deals, mode, threads=k, return_nodes=True)` call on all deals, "
        "input checks included; the kernels were compiled (and checked) before timing.",
        f"- {DDS_ALL}: the `SolveAllBoardsBin` calls only (target -1, solutions 1, mode 1; "
        f"{DEALS_PER_DDS_CALL} whole deals = {DEALS_PER_DDS_CALL * SOLVES_PER_DEAL} boards per call, "
        f"MAXNOOFBOARDS = {dds.MAXNOOFBOARDS}) after `SetMaxThreads(k)`; building the `boards` structs "
        "(Python conversion) is done once, before timing.",
        f"- {DDS_ONE}: a Python loop of `SolveBoard` calls (same parameters, thread index 0), "
        "including the ctypes call and reading the score; the `deal` structs are built before timing.",
        "- kaiser-sim, points with one special (1 thread): the same call with the other special "
        "passed as no card (`three=0` or `five=0`), to show what each special costs; not checked against "
        "anything, as no other engine plays these games.",
        f"- {DDS_TABLES}: the `CalcAllTables` calls only (no par, all five strains, "
        f"{dds.MAXNOOFTABLES} deals per call); the `ddTableDeals` structs are built before timing. "
        "The ratio column divides by the faster of the two DDS lines at the same thread count.",
        f"- kaiser-sim {BOTH}: one `dd_table(deals, \"both\", threads=k, return_nodes=True)` call; "
        "solves/s counts 20 per deal (a deal's 20 points and 20 tricks values as one table), so its "
        "ratio is the rate of both tables against DDS's rate for the tricks table alone; its nodes "
        "are the three passes' (tricks, 5H only, points) per solve.",
        "- Nodes: kaiser-sim counts its search nodes; DDS reports `futureTricks.nodes`. "
        "The two count different things, so compare them loosely. Values are means over the timed runs.",
        "- Ratio by CPU time: the same ratio from solves per second of the process's CPU time (medians), "
        "which a busy machine hardly moves; on one thread it is the fairer figure when the CPU use is low.",
        "- CPU use: the process's CPU time divided by wall time × threads, median over the runs; "
        "well below 100% means other programs took the cores (idle or spinning worker threads also move it).",
        "- Repeats run round robin over the lines of one thread count, so a slow spell of the machine "
        "spreads over all engines.",
        "",
        "## Machine",
        "",
        f"- CPU: {info['cpu']}",
        f"- cores: {info['cores']}",
        f"- load average (1, 5, 15 min) at start: {info['load_start']}; at end: {info['load_end']}",
        f"- Python {platform.python_version()}, numpy {np.__version__}, numba {numba.__version__} "
        f"(threading layer {info['threading_layer']}), endplay {endplay.__version__}, "
        f"DDS {info['dds_version']} ({info['dds_threading']} threads)",
        f"- date: {info['date']}",
        f"- deals: {info['deals']}, seed: {info['seed']}, repeats: {info['repeats']}, "
        f"benchmark wall time: {info['wall']:.0f} s",
        f"- command: `{info['command']}`",
        "",
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------------------


def main(argv=None) -> int:
    parser = common.parser(__doc__, "solver_vs_dds")
    parser.add_argument("--deals", type=int, default=500, help="random deals (20 solves each)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per engine, mode and thread count")
    parser.add_argument("--threads", type=int, default=None,
                        help="the 'all cores' thread count (default: the CPUs this process may use)")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.repeats < 1:
        parser.error("--deals and --repeats must be at least 1")

    wall0 = time.perf_counter()
    load_start = loadavg()
    ncpu = common.usable_cpus()
    all_threads = min(args.threads or ncpu, numba.config.NUMBA_NUM_THREADS)
    thread_counts = sorted({1, all_threads})

    log = common.logger(wall0)

    deals = deal_batch(args.deals, args.seed)
    n = len(deals)
    solves = n * SOLVES_PER_DEAL
    chunks = build_dds_chunks(deals)
    tables = build_dds_tables(deals)
    single = [dds_deal(deals[i], leader, strain) for i, leader, strain in board_order(n)]

    log(f"validating {solves:,} solves against DDS (compiles kaiser-sim's kernels)")
    dds_tricks, ks_points = validate(deals, chunks, tables, all_threads)
    log("valid")

    rows: list[Row] = []
    for k in thread_counts:
        dds_set_threads(k)
        at_k = [Row(DDS_ALL, "tricks", k, solves), Row(DDS_TABLES, "tricks", k, solves),
                Row(KAISER, "tricks", k, solves), Row(KAISER, "points", k, solves), Row(KAISER, BOTH, k, solves)]
        if k == 1:
            at_k.append(Row(DDS_ONE, "tricks", 1, solves))
            at_k += [Row(KAISER, mode, 1, solves) for mode in ONE_SPECIAL]

        warm = deals[:DEALS_PER_DDS_CALL]  # untimed: thread pools and DDS memory for this thread count
        warm_tables = build_dds_tables(warm)

        def run(row: Row, data=deals):
            m = len(data)
            if row.engine == DDS_ALL:
                return run_dds_all(chunks if m == n else chunks[:1], m)
            if row.engine == DDS_TABLES:
                return run_dds_tables(tables if m == n else warm_tables, m)
            if row.engine == DDS_ONE:
                return run_dds_single(single[:m * SOLVES_PER_DEAL], m)
            return run_kaiser(data, row.mode, k)

        for row in at_k:
            run(row, warm)
        for rep in range(args.repeats):
            for row in at_k:
                elapsed, cpu, values, nodes = run(row)
                if row.mode == "tricks" and not np.array_equal(values, dds_tricks):
                    raise SystemExit(f"{row.engine} gave different tricks on a timed run ({k} threads)")
                if row.mode == BOTH and not (np.array_equal(values[0], ks_points)
                                             and np.array_equal(values[1], dds_tricks)):
                    raise SystemExit(f"{row.engine} {BOTH} gave different values on a timed run ({k} threads)")
                row.times.append(elapsed)
                row.cpu_use.append(cpu / (elapsed * k))
                row.nodes.append(float(nodes.mean()))
                log(f"{row.engine}, {row.mode}, {k} thread(s), run {rep + 1}: {solves / elapsed:,.0f} solves/s")
        rows += at_k

    def med(engine, mode, k):
        return next(r.median for r in rows if (r.engine, r.mode, r.threads) == (engine, mode, k))

    speedups = []
    if all_threads > 1:
        for engine, mode in ((KAISER, "tricks"), (KAISER, "points"), (KAISER, BOTH), (DDS_ALL, "tricks"),
                             (DDS_TABLES, "tricks")):
            speedups.append((f"{engine}, {mode}, 1 → {all_threads} threads",
                             med(engine, mode, all_threads) / med(engine, mode, 1)))

    info = dict(
        deals=n, seed=args.seed, repeats=args.repeats, solves=solves,
        cpu=cpu_summary(),
        cores=f"{os.cpu_count()} logical CPUs ({physical_cores() or '?'} physical cores), "
              f"{ncpu} usable by this process; all cores = {all_threads} threads",
        load_start=load_start, load_end=loadavg(),
        threading_layer=numba.threading_layer(),
        dds_version=dds_info().versionString.decode(),
        dds_threading=_DDS_THREADING.get(dds_info().threading, "?"),
        date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        wall=time.perf_counter() - wall0,
        command=common.command("solver_vs_dds", argv),
    )
    text = render(rows, info, speedups)
    common.write_result(args.out, text, log)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What the benchmark scripts share: their options, their result files and
their timing helpers (each script is run as ``python benchmarks/NAME.py``,
so this folder is on the path; what machine they ran on is in
``machine.py``).

Every benchmark takes ``--seed`` (default 2024), prints its result as
Markdown and records the command that made it in it.  ``--save`` also
writes it to ``benchmarks/results/NAME.md`` (the committed record, so only
when asked: a run on a busy machine must not replace it by accident);
``--out FILE`` writes it elsewhere.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

#: where the benchmarks write their Markdown results
RESULTS = Path(__file__).resolve().parent / "results"
#: the seed of every benchmark's deals unless --seed is given
SEED = 2024


class _Parser(argparse.ArgumentParser):
    """Sets ``args.out`` to ``results/NAME.md`` when ``--save`` is given
    (and every ``saved`` option likewise: ``{dest: file name}``)."""

    saved: dict[str, str]

    def parse_args(self, *args, **kwargs):
        ns = super().parse_args(*args, **kwargs)
        for dest, file in self.saved.items():
            if getattr(ns, dest) is None and ns.save:
                setattr(ns, dest, RESULTS / file)
        return ns


def parser(doc: str | None, name: str, seed_help: str = "seed of the deals",
           formatter=argparse.ArgumentDefaultsHelpFormatter) -> argparse.ArgumentParser:
    """An option parser described by the first paragraph of ``doc``, with
    ``--seed``, ``--save`` (write ``results/NAME.md``) and ``--out`` (write
    another file); without either the result is only printed."""
    p = _Parser(description=(doc or "").split("\n\n")[0], formatter_class=formatter)
    p.saved = {"out": f"{name}.md"}
    p.add_argument("--seed", type=int, default=SEED, help=seed_help)
    p.add_argument("--save", action="store_true",
                   help=f"write the result to benchmarks/results/{name}.md, the committed record")
    p.add_argument("--out", type=Path, default=None, help="markdown file to write (another than --save's)")
    return p


def command(name: str, argv=None) -> str:
    """The command line that ran benchmark ``name`` (recorded in its result)."""
    return f"python benchmarks/{name}.py " + " ".join(sys.argv[1:] if argv is None else argv)


def write_result(path: Path | None, text: str, log=None) -> None:
    """Print the Markdown result; write it to ``path`` too (creating its
    folder) unless that is None; log where (or that it was not kept)."""
    print(text)
    log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
    if path is None:
        log("not saved (--save writes it to benchmarks/results/, --out FILE elsewhere)")
        return
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    log(f"wrote {path}")


def logger(t0: float | None = None):
    """A progress log on stderr, each line stamped with the seconds since ``t0``."""
    t0 = time.perf_counter() if t0 is None else t0

    def log(msg: str) -> None:
        print(f"[{time.perf_counter() - t0:6.1f}s] {msg}", file=sys.stderr, flush=True)

    return log


def usable_cpus() -> int:
    """The CPUs this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def _threads(threads: int | None) -> int:
    if threads:
        return threads
    import numba

    return numba.get_num_threads()


def timed(fn, threads: int | None = None):
    """``(result, wall seconds, CPU use)`` of one call of ``fn``; CPU use is the
    process's CPU time / (wall time x the ``threads`` it can use, default
    numba's)."""
    threads = _threads(threads)
    c0, t0 = time.process_time(), time.perf_counter()
    out = fn()
    wall = time.perf_counter() - t0
    cpu = time.process_time() - c0
    return out, wall, cpu / (wall * threads) if wall > 0 else 0.0


def record(walls, uses, threads: int) -> dict:
    """Median, range and CPU use of some timed runs, and the median CPU
    seconds they took (wall x CPU use x threads)."""
    return {"median": statistics.median(walls), "min": min(walls), "max": max(walls),
            "cpu_use": statistics.median(uses), "runs": len(walls), "threads": threads,
            "cpu_s": statistics.median(w * u * threads for w, u in zip(walls, uses))}


def repeat(fn, times: int, log, name: str, threads: int | None = None) -> dict:
    """Time ``fn`` ``times`` times (:func:`timed`), logging each run: :func:`record`."""
    threads = _threads(threads)
    walls, uses = [], []
    for i in range(times):
        _, wall, use = timed(fn, threads)
        walls.append(wall)
        uses.append(use)
        log(f"{name}, run {i + 1}: {wall:.2f} s (CPU use {use:.2f})")
    return record(walls, uses, threads)

"""How long each step of the edition (``make sample``) takes, and its peak memory.

``python benchmarks/edition_times.py --times FILE --step NAME -- COMMAND...``
runs one step of the recipe and records in the JSON ``FILE`` (steps already
there are kept) its wall time, the peak resident memory of its largest process
(``getrusage`` of the children, in MB), the command, the CPU and the load
average at its end.  Without ``--step`` it prints the recorded steps as
Markdown (``--save``: also to ``benchmarks/results/edition.md``).

The edition's own pages do not carry these times: a page that printed the time
of its own making could not be remade byte for byte.
"""

from __future__ import annotations

import json
import os
import resource
import shlex
import subprocess
import sys
import time
from pathlib import Path

import common
from machine import cpu_model, loadavg


def run_step(step: str, times: Path, command: list[str]) -> int:
    """Run ``command``; record its time and peak memory under ``step`` in
    ``times``; return its exit status."""
    start = time.monotonic()
    status = subprocess.call(command)
    seconds = time.monotonic() - start
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # Linux reports kB
    data = json.loads(times.read_text()) if times.exists() else {}
    data[step] = {"command": shlex.join(command), "seconds": round(seconds, 1), "peak_mb": round(peak_mb),
                  "status": status, "cpu": cpu_model(), "cores": os.cpu_count(), "load_at_end": loadavg()}
    times.parent.mkdir(parents=True, exist_ok=True)
    times.write_text(json.dumps(data, indent=1) + "\n")
    return status


def _took(seconds: float) -> str:
    m, s = divmod(int(round(seconds)), 60)
    h, m = divmod(m, 60)
    return f"{h} h {m:02d} min" if h else f"{m} min {s:02d} s"


def markdown(data: dict) -> str:
    """The steps recorded by :func:`run_step` as a Markdown page."""
    cpus = sorted({f"{v.get('cpu', '?')}, {v.get('cores', '?')} cores" for v in data.values()})
    lines = ["# The edition (`make sample`): time and peak memory of each step", "",
             f"- Machine: {'; '.join(cpus)}",
             "- Peak memory: the largest process of the step (the simulation's workers are separate processes)",
             "", "| step | wall time | peak memory | load average at its end | command |", "|---|---|---|---|---|"]
    for step, v in data.items():
        failed = "" if v.get("status", 0) == 0 else f" (exit status {v['status']})"
        lines.append(f"| {step} | {_took(v['seconds'])}{failed} | {v['peak_mb']:,} MB | {v.get('load_at_end', '')} "
                     f"| `{v['command']}` |")
    notes = [f"- {step}: {v['note']}" for step, v in data.items() if v.get("note")]
    return "\n".join(lines + ([""] + notes if notes else [])) + "\n"


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    cut = argv.index("--") if "--" in argv else len(argv)
    p = common.parser(__doc__, "edition")
    p.add_argument("--times", type=Path, required=True, help="the JSON record of the steps")
    p.add_argument("--step", default=None, help="run and time this step: the command follows --")
    args, command = p.parse_args(argv[:cut]), argv[cut + 1:]
    if args.step is not None:
        if not command:
            p.error("--step: give the step's command after --")
        return run_step(args.step, args.times, command)
    if not args.times.exists():
        p.error(f"{args.times} does not exist: no step was timed")
    common.write_result(args.out, markdown(json.loads(args.times.read_text())))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Where the start of a ``kaiser-sim hand`` process goes, step by step, in CPU time.

Run with ``.venv/bin/python benchmarks/hand_start.py`` (``--help`` for the
options).  The result is printed; with ``--save`` it is also written to
``benchmarks/results/hand_start.md``.

What is measured (issue 46: the advisor as a new process against the same
answer warm in-process, ``advisor_vs_dds.py``'s two advisor lines)
--------------------------------------------------------------------------
One hand (``--hand``, default ``AQ98.K5.A.T`` at S, ``--auction`` ``6 pass
7``, ``--deals`` 2,000), ``--repeats`` interleaved rounds of two new
processes, each timed by its CPU time (user + system, read with
``getrusage`` of the children: a busy machine stretches wall time, hardly
CPU time):

* **the process** -- ``python -m kaiser_sim hand ...``, as a player runs it;
* **the steps** -- the same command in a process that takes the start one
  step at a time and reads its own CPU time after each (``_STEPS``): the
  interpreter, each big import in the order the command makes it, numba's
  first use (its CPU target's typing and lowering registries) and numba's
  cache loads of the kernels the command calls (timed around each
  dispatcher's first compile: a load from the on-disk cache), the answer.

The start is every step but the answer.  coverage is a step of its own:
numba imports it when it is installed (kaiser-sim's ``test`` extra), so a
development environment pays it and a player's install does not.  One
untimed run first fills numba's cache and Python's bytecode cache
(PYTHONDONTWRITEBYTECODE is left out of the children's environment, as in
``advisor_vs_dds.py``).
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import common
from machine import cpu_summary, loadavg

#: the instrumented child: ``python -c _STEPS OUT.json hand ARGS...``; each step's name, and the CPU seconds
#: of this process when it ended, go to OUT.json
_STEPS = r'''
import resource, sys, json
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
marks = [("Python start (interpreter, site)", cpu())]
import numpy
marks.append(("import numpy", cpu()))
try:
    import coverage  # numba.misc.coverage_support imports it when installed (a test extra)
except ImportError:
    pass
marks.append(("import coverage (by numba, when installed: the test extra)", cpu()))
import numba
import numba.core.dispatcher as dispatcher
marks.append(("import numba (llvmlite, yaml, cloudpickle)", cpu()))
import kaiser_sim.cli
marks.append(("import kaiser_sim.cli (click, every command's module)", cpu()))
try:
    import pyarrow  # pandas imports it when installed
except ImportError:
    pass
marks.append(("import pyarrow (its package; pandas imports more of it: counted under pandas)", cpu()))
import pandas
marks.append(("import pandas (the rest: dateutil, ...)", cpu()))
import kaiser_sim.strategy.advisor
marks.append(("import kaiser_sim.strategy.advisor (the solver's modules, their @njit dispatchers)", cpu()))
import kaiser_sim.strategy.conditioned, kaiser_sim.strategy.call_worth, kaiser_sim.dd.play_bounds
import kaiser_sim.strategy.make_model, kaiser_sim.strategy.capabilities
marks.append(("kaiser_sim modules the command imports when it runs", cpu()))
from numba.core import entrypoints
from numba.core.registry import cpu_target
entrypoints.init_all()
cpu_target.target_context.refresh()
cpu_target.typing_context.refresh()
marks.append(("numba's first use: the CPU target's registries, entry points", cpu()))
loads = []
compile_ = dispatcher.Dispatcher.compile
def timed_compile(self, sig):
    t = cpu()
    try:
        return compile_(self, sig)
    finally:
        loads.append((f"{self.py_func.__module__}.{self.py_func.__qualname__}", cpu() - t))
dispatcher.Dispatcher.compile = timed_compile
kaiser_sim.cli.main(sys.argv[2:], prog_name="kaiser-sim", standalone_mode=False)
end = cpu()
load = sum(t for _, t in loads)
marks.append(("the answer (the command, less the cache loads)", end - load))
steps, prev = [], 0.0
for name, t in marks:
    steps.append((name, t - prev))
    prev = t
steps.insert(-1, (f"numba's cache loads of the kernels called ({len(loads)})", load))
with open(sys.argv[1], "w") as f:
    json.dump({"steps": steps, "loads": loads}, f)
'''

ANSWER = "the answer (the command, less the cache loads)"


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd: list[str], env: dict) -> tuple[float, float]:
    """(wall s, CPU s) of one child process (it must succeed)."""
    k0, t0 = _children_cpu(), time.perf_counter()
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall, cpu = time.perf_counter() - t0, _children_cpu() - k0
    if done.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stderr}")
    return wall, cpu


def main(argv=None) -> None:
    p = common.parser(__doc__, "hand_start")
    p.add_argument("--hand", default="AQ98.K5.A.T")
    p.add_argument("--seat", default="S")
    p.add_argument("--auction", default="6 pass 7")
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--repeats", type=int, default=7)
    p.add_argument("--threads", type=int, default=None, help="NUMBA_NUM_THREADS of the children [default: every CPU]")
    args = p.parse_args(argv)
    log = common.logger()
    threads = args.threads or common.usable_cpus()
    hand = ["hand", args.hand, "--seat", args.seat, "--auction", args.auction, "-n", str(args.deals),
            "--seed", str(args.seed)]
    env = dict(os.environ, NUMBA_NUM_THREADS=str(threads))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a player's installed package has its .pyc files
    started = datetime.datetime.now(datetime.timezone.utc)
    load_start = loadavg()
    process = [sys.executable, "-m", "kaiser_sim", *hand]
    log("untimed first run (fills numba's and Python's caches) ...")
    run(process, env)
    processes, rounds = [], []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "steps.json")
        for i in range(args.repeats):
            wall, cpu = run(process, env)
            processes.append((wall, cpu))
            run([sys.executable, "-c", _STEPS, out, *hand], env)
            with open(out) as f:
                rounds.append(json.load(f))
            start = sum(t for name, t in rounds[-1]["steps"] if name != ANSWER)
            log(f"round {i + 1}: the process {wall:.2f} s wall, {cpu:.2f} s CPU; the steps' start {start:.3f} s CPU")
    load_end = loadavg()

    names = [name for name, _ in rounds[0]["steps"]]
    by_step = {name: [dict(r["steps"])[name] for r in rounds] for name in names}
    starts = [sum(t for name, t in r["steps"] if name != ANSWER) for r in rounds]
    start_med = statistics.median(starts)
    proc_cpu = statistics.median(c for _, c in processes)
    lines = [
        "# Where the start of a `kaiser-sim hand` process goes",
        "",
        f"{started:%Y-%m-%d %H:%M} UTC, kaiser-sim {__import__('kaiser_sim').__version__}, {threads} numba "
        f"threads, Python {platform.python_version()}.",
        f"CPU: {cpu_summary()}.",
        f"Load average at start {load_start}, at end {load_end}.",
        f"`kaiser-sim hand {args.hand} --seat {args.seat} --auction \"{args.auction}\" -n {args.deals} "
        f"--seed {args.seed}`; {args.repeats} interleaved rounds; CPU milliseconds (user + system), "
        "median [min, max].",
        "",
        f"Command: `{common.command('hand_start', argv)}`",
        "",
        f"The process: {statistics.median(w for w, _ in processes):.2f} s wall, {proc_cpu:.2f} s CPU "
        f"[{min(c for _, c in processes):.2f}, {max(c for _, c in processes):.2f}].  Its start (every step but "
        f"the answer, from the steps' process): {start_med * 1000:.0f} ms CPU "
        f"[{min(starts) * 1000:.0f}, {max(starts) * 1000:.0f}], {start_med / proc_cpu:.0%} of the process's CPU.",
        "",
        "| step | CPU ms | share of the start |",
        "|---|---:|---:|",
    ]
    for name in names:
        ts = by_step[name]
        med = statistics.median(ts)
        share = "" if name == ANSWER else f"{med / start_med:.0%}"
        lines.append(f"| {name} | {med * 1000:.0f} [{min(ts) * 1000:.0f}, {max(ts) * 1000:.0f}] | {share} |")
    kernels = [name for name, _ in rounds[0]["loads"]]
    lines += ["", f"Kernels loaded from numba's cache ({len(kernels)}, each when first called): "
              + ", ".join(f"`{k}`" for k in kernels) + "."]
    common.write_result(args.out, "\n".join(lines) + "\n", log)


if __name__ == "__main__":
    main()

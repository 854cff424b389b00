"""How the printed report's studies grow with the deals: time and peak memory.

Run with ``.venv/bin/python benchmarks/report_scaling.py --runs RUN1,RUN2``
(results datasets of different sizes, ``kaiser-sim simulate --mode points``;
``--help`` for the options).  The result is printed as Markdown and, with
``--save``, written to ``benchmarks/results/report_scaling.md``.

What is measured
----------------
Each study of the report runs alone, in a fresh process, on each run, with
the parameters the report gives it (``--max-resolve`` re-solves for the 5♥
and 3♠): its wall time and the process's peak resident memory (the study
with its results loaded; a report holds the results once and runs the
studies one after another, so its peak is about the largest study's).  With
two sizes, each study's growth per 100,000 deals is the slope between them,
and the projection to ``--project`` deals (default a million) is linear from
the larger run: the check that nothing grows worse than linearly is the
slope itself, measured at more than one size.  The re-solves of the 5♥ and
3♠ do not grow with the deals but with ``--max-resolve``; their time is
projected separately (per re-solved deal).
"""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
from pathlib import Path

import common
from machine import cpu_model, loadavg

#: the child that runs one study and prints its seconds and peak memory
CHILD = r"""
import json, resource, sys, time, tempfile
from pathlib import Path
from kaiser_sim.runs.results import load_run
from kaiser_sim.studies.runner import definition_for, run_study
from kaiser_sim.runs.services import results_rules, check_results_path
from kaiser_sim.rules import Rules
key, path, max_resolve = sys.argv[1], sys.argv[2], int(sys.argv[3])
meta = check_results_path(path)
rules = results_rules(meta, path) or Rules()
t0 = time.perf_counter()
results = load_run(path)
t1 = time.perf_counter()
d = definition_for(key)
if "max_resolve" in d.params:
    d.params["max_resolve"] = max_resolve
with tempfile.TemporaryDirectory() as out:
    run_study(d, Path(out) / key, results=results, rules=rules)
t2 = time.perf_counter()
print(json.dumps({"load": t1 - t0, "study": t2 - t1, "rows": len(results.frame),
                  "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run_one(key: str, path: Path, max_resolve: int) -> dict:
    proc = subprocess.run([sys.executable, "-c", CHILD, key, str(path), str(max_resolve)],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{key} on {path} failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    from kaiser_sim.report import parse_studies

    p = common.parser(__doc__, "report_scaling")
    p.add_argument("--runs", required=True, help="results datasets, comma-separated, smallest first")
    p.add_argument("--max-resolve", type=int, default=1000, help="re-solves for the 5H and 3S studies")
    p.add_argument("--project", type=int, default=1_000_000, help="deals to project the time and memory to")
    p.add_argument("--project-resolve", type=int, default=100_000, help="re-solves to project to")
    p.add_argument("--studies", default=None, help="studies (default: the report's)")
    args = p.parse_args(argv)
    log = common.logger()
    runs = [Path(r) for r in args.runs.split(",")]
    keys = parse_studies(args.studies)
    rows = {}
    for key in keys:
        for path in runs:
            log(f"{key} on {path} ...")
            rows[(key, path)] = r = run_one(key, path, args.max_resolve)
            log(f"{key} on {path}: {r['study']:.1f}s, {r['maxrss_mb']:.0f} MB ({r['rows']:,} deals)")
    sizes = [rows[(keys[0], path)]["rows"] for path in runs]
    resolving = {"five-hearts", "three-spades"}
    lines = ["# The report's studies as the deals grow: time and peak memory", "",
             f"- Command: `{common.command('report_scaling', argv)}`",
             f"- Machine: {cpu_model()}; load average {loadavg()} at the end; "
             f"{datetime.date.today().isoformat()}",
             f"- Runs: {', '.join(f'{s:,} deals' for s in sizes)}; the 5♥ and 3♠ re-solve {args.max_resolve:,} "
             "deals at every size", "",
             "Each study alone in a fresh process (its results loaded): wall time and peak resident memory. "
             f"Growth: the slope between the two sizes, per 100,000 deals; projection: linear to "
             f"{args.project:,} deals from the larger run (the re-solves: {args.project_resolve:,}, per "
             "re-solved deal).", ""]
    head = "| study | " + " | ".join(f"s, {s:,}" for s in sizes) + " | " + \
        " | ".join(f"MB, {s:,}" for s in sizes) + " | s per 100k deals | MB per 100k deals | projected s | projected MB |"
    lines += [head, "|" + "---|" * (head.count("|") - 1)]
    worst_mb = 0.0
    for key in keys:
        t = [rows[(key, path)]["study"] for path in runs]
        m = [rows[(key, path)]["maxrss_mb"] for path in runs]
        if len(runs) > 1 and sizes[-1] > sizes[0]:
            dt = (t[-1] - t[0]) / (sizes[-1] - sizes[0]) * 1e5
            dm = (m[-1] - m[0]) / (sizes[-1] - sizes[0]) * 1e5
        else:
            dt = t[-1] / sizes[-1] * 1e5
            dm = m[-1] / sizes[-1] * 1e5
        grow = (args.project - sizes[-1]) / 1e5
        pt = t[-1] + max(dt, 0.0) * grow
        if key in resolving:
            pt += t[-1] * (args.project_resolve / args.max_resolve - 1)  # the re-solves dominate: per re-solve
        pm = m[-1] + max(dm, 0.0) * grow
        worst_mb = max(worst_mb, pm)
        lines.append(f"| {key} | " + " | ".join(f"{x:.0f}" for x in t) + " | " + " | ".join(f"{x:.0f}" for x in m)
                     + f" | {dt:.1f} | {dm:.0f} | {pt:,.0f} | {pm:,.0f} |")
    lines += ["", f"Projected peak of `report --from` on {args.project:,} deals: about {worst_mb / 1024:.1f} GB "
              "(the largest study's; the studies run one after another on the results loaded once).", ""]
    common.write_result(args.out, "\n".join(lines) + "\n", log)


if __name__ == "__main__":
    main()

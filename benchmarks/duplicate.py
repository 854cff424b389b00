"""Every bidding policy against score-aware in duplicate matches, with 95%
intervals, and how much narrower duplicate makes them than matches each on
their own cards.

Run with ``.venv/bin/python benchmarks/duplicate.py`` (``--help`` for the
options).  The result is printed as Markdown and, with ``--save``, written
to ``benchmarks/results/duplicate.md``.

What is measured
----------------
- ``kaiser_sim.strategy.match.play_matches(P, --vs, --matches)`` in
  duplicate (the default of the engine, ``kaiser-sim match`` and the match
  study: each deal sequence, with its dealers and table-play draws, played
  twice with the partnerships swapped) for every policy ``P`` of
  ``--policies`` (default every registered policy but ``--vs``; the
  population too where it is registered): P's win rate (Wilson 95%), its
  edge (mean pair score - 1/2, t 95%; a pair's score is P's wins in both
  seatings / 2), its net a board (its hand score minus the opponents' on
  each board played in both matches of a pair, both seatings / 2: the
  hands' measure of the edge, in points), the final score margin, and the
  pairs P won in both seatings, split, or lost in both.  Every interval is clustered by pair of
  matches (the independent unit).  One seed: every policy meets the same
  deal sequences;
- for ``--compare`` policies (default ``ev`` and ``listening``) the same
  number of matches not duplicate (``duplicate=False``: every match its own
  cards), on the same seed: the interval widths side by side, and the
  matches duplicate saves (the ratio of the variances: how many
  non-duplicate matches one duplicate match is worth).
"""

from __future__ import annotations

import datetime
import os
import platform
import sys
import time

import numba
import numpy as np

from kaiser_sim import __version__
from kaiser_sim.rules import get_preset
from kaiser_sim.strategy.match import play_matches
from kaiser_sim.strategy.policies import POLICIES
import common
from machine import cpu_model, loadavg


def _pct(p, lo, hi) -> str:
    return f"{100 * p:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def _pts(m, lo, hi) -> str:
    return f"{100 * m:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"


def main(argv=None) -> int:
    parser = common.parser(__doc__, "duplicate", seed_help="seed of the matches")
    parser.add_argument("--vs", default="score-aware", help="the opponent of every policy")
    parser.add_argument("--policies", default=None,
                        help="comma-separated policies (default: every registered policy but --vs)")
    parser.add_argument("--matches", type=int, default=4000, help="matches a policy (pairs of two in duplicate)")
    parser.add_argument("--compare", default="ev,listening",
                        help="policies also played not duplicate, for the interval widths ('' for none)")
    args = parser.parse_args(argv)
    if args.matches < 4:
        parser.error("--matches must be at least 4")
    if args.vs not in POLICIES:
        parser.error(f"--vs {args.vs} is not a registered policy ({', '.join(POLICIES)})")
    wanted = [p.strip() for p in (args.policies or ",".join(p for p in POLICIES if p != args.vs)).split(",")
              if p.strip()]
    missing = [p for p in wanted if p not in POLICIES]
    run = [p for p in wanted if p in POLICIES]
    compare = [p.strip() for p in args.compare.split(",") if p.strip() and p.strip() in POLICIES]
    wall0 = time.perf_counter()
    load_start = loadavg()
    log = common.logger(wall0)
    rules = get_preset("standard")
    log("warming up (compiles the kernels, reads the models and the win table)")
    play_matches(args.vs, "ev", 8, args.seed + 1, rules)
    dup, rnd = {}, {}
    for p in run:
        log(f"{p} vs {args.vs}: {args.matches:,} matches, duplicate")
        dup[p] = play_matches(p, args.vs, args.matches, args.seed, rules)
    for p in compare:
        log(f"{p} vs {args.vs}: {args.matches:,} matches, not duplicate")
        rnd[p] = play_matches(p, args.vs, args.matches, args.seed, rules, duplicate=False)

    out = ["# Duplicate matches: every policy against " + args.vs, "",
           f"{args.matches:,} matches a policy against {args.vs}, **duplicate** ({args.matches // 2:,} pairs: each deal "
           "sequence, with its dealers and table-play draws, played twice with the partnerships swapped), standard "
           f"rules, seed {args.seed} (every policy meets the same deal sequences), contracts scored in table play, "
           "the policies expecting table play. Win rate: Wilson 95%; edge: the mean pair score - 1/2 (a pair's "
           "score: the policy's wins in both seatings / 2), t 95%; net a board: the policy's hand score minus "
           f"{args.vs}'s on each board played in both matches of its pair, both seatings / 2 (points a hand, t 95%); "
           "every interval clustered by pair of matches.", "",
           f"| policy | win rate vs {args.vs} (95%) | edge, points of percentage (95%) | net a board (95%) | "
           "final margin (95%) | pairs won both / split / lost both | hands a match | seconds |",
           "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for p, r in sorted(dup.items(), key=lambda x: -x[1].summary()["a_win_rate"]):
        s = r.summary()
        out.append(f"| {p} | {_pct(s['a_win_rate'], s['a_win_lo'], s['a_win_hi'])} | "
                   f"{_pts(s['edge'], s['edge_lo'], s['edge_hi'])} | "
                   f"{s['board_net']:+.2f} [{s['board_net_lo']:+.2f}, {s['board_net_hi']:+.2f}] | "
                   f"{s['margin_mean']:+.2f} [{s['margin_lo']:+.2f}, {s['margin_hi']:+.2f}] | "
                   f"{s['pairs_both']:,} / {s['pairs_split']:,} / {s['pairs_none']:,} | {s['hands_mean']:.1f} | "
                   f"{r.seconds:.0f} |")
    out.append("")
    if missing:
        out += [f"Not played: {', '.join(missing)} (not a registered policy when this ran: {', '.join(POLICIES)}).", ""]
    if rnd:
        out += ["## Duplicate against matches on their own cards", "",
                f"The same {args.matches:,} matches not duplicate (`--no-duplicate`: every match its own cards; "
                "intervals over independent matches), seed as above. Widths of the 95% intervals; the variance "
                "ratio (not duplicate / duplicate, squared ratio of the edge's widths) is how many matches on their "
                "own cards one duplicate match is worth.", "",
                "| policy | duplicate: edge (95%) | width | not duplicate: edge (95%) | width | variance ratio | "
                "margin width: duplicate / not | net a board (a hand) width: duplicate / not | "
                "matches for a ±1-point edge, duplicate |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for p, r in rnd.items():
            s = r.summary()
            d = (dup[p] if p in dup else play_matches(p, args.vs, args.matches, args.seed, rules)).summary()
            wd, wr = d["edge_hi"] - d["edge_lo"], s["edge_hi"] - s["edge_lo"]
            # the interval's half-width scales as 1 / sqrt(matches): matches for a half-width of 1 point
            need = args.matches * (wd / 2 / 0.01) ** 2
            out.append(f"| {p} | {_pts(d['edge'], d['edge_lo'], d['edge_hi'])} | {100 * wd:.1f} | "
                       f"{_pts(s['edge'], s['edge_lo'], s['edge_hi'])} | {100 * wr:.1f} | {(wr / wd) ** 2:.2f} | "
                       f"{d['margin_hi'] - d['margin_lo']:.2f} / {s['margin_hi'] - s['margin_lo']:.2f} | "
                       f"{d['board_net_hi'] - d['board_net_lo']:.2f} / {s['board_net_hi'] - s['board_net_lo']:.2f} | "
                       f"{need:,.0f} |")
        out.append("")
    out += ["Machine and run:", "",
            f"- CPU: {cpu_model()}; {os.cpu_count()} logical CPUs, {common.usable_cpus()} usable by this process; "
            f"numba {numba.__version__} ({numba.get_num_threads()} threads)",
            f"- load average at start {load_start}, at end {loadavg()}",
            f"- numpy {np.__version__}, Python {platform.python_version()}, kaiser-sim {__version__}",
            f"- {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}; "
            f"whole run {time.perf_counter() - wall0:.0f} s",
            f"- command: `{common.command('duplicate', argv)}`", ""]
    common.write_result(args.out, "\n".join(out), log)
    return 0


if __name__ == "__main__":
    sys.exit(main())

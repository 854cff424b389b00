"""Time of ``kaiser-sim hand``: 2,000 deals x 5 strains, warm, with table play.

Run with ``.venv/bin/python benchmarks/hand_advisor.py`` (``--help`` for the
options).  The result is printed as Markdown and, with
``--save``, written to ``benchmarks/results/hand_advisor.md``.

What is measured
----------------
One hand (``--hand``, default ``AK93.5.AK.8`` at N) and ``--deals`` random
deals of the other cards (``advisor.advisor_deals``, seed ``--seed``):

* **five strains** -- the advisor's solver call, ``advisor.solve_strains(deals,
  seat, "points")``: the five strains with the hand on lead.  This is the
  line the issue's target is about (2,000 deals x 5 strains in <= 5 s warm,
  goal <= 3 s).  It is ``kaiser_sim.dd.dd_strains`` when the solver has it, else
  the ``seat`` row of ``kaiser_sim.dd.dd_table`` (all four leaders solved: about 4x
  the work); the result says which.
* **reference** -- ``kaiser_sim.dd.dd_table(deals)``, all four leaders, for the
  ratio; timed only when ``dd_strains`` exists (otherwise it *is* the line
  above).
* **analysis, table play** -- everything ``advise`` does after solving with
  ``play="table"`` (the default): the deals' bounds, the hand's own PIMC
  play of ``config.TABLE_PLAY_CHECK_DEALS`` deals in two strains (every
  thread), the table-play model's lookups, the points,
  make and bid tables in both measures, the choices, the text and the JSON
  (``advisor.analysis._analyse`` without the specials, then ``to_text``/``to_json``);
* **analysis, table play, model alone** -- the same with ``check=0``
  (``--play-check 0``: no play), for the cost of the play;
* **analysis, dd** -- the same with ``play="dd"`` (the advisor before table
  play), for the ratio;
* **specials** -- the two extra solves of the 5H / 3S measure (five, then
  three counting 0), ``--specials-repeats`` times (default 1: on the
  ``dd_table`` fallback they cost two full tables);
* **advise, table play (end to end)** -- ``advisor.advise(hand, n=deals,
  play="table")`` with the specials, i.e. ``kaiser-sim hand`` without the
  process start and imports, ``--e2e-repeats`` times.  This is the line the
  table-play target is about: the hand advisor with table play stays
  <= 5 s warm for 2,000 deals.

Before timing, the five-strain values are checked against ``dd_table`` on
the first ``--check`` deals and the special-card measures against their
ranges (0..5 and 0..3); this also compiles the kernels, so compilation is
never timed.  Each line reports the median and range over the repeats and
its CPU use (process CPU time / (wall time x threads it can use)); a machine
shared with other work shows as CPU use well below 1.
"""

from __future__ import annotations

import datetime
import os
import platform
import sys
import time

import numba
import numpy as np

from kaiser_sim import __version__, config
from kaiser_sim.cards import format_hand
from kaiser_sim.dd import api
from kaiser_sim.strategy import advisor as adv
from kaiser_sim.rules import get_preset
import common
from common import record, repeat, timed
from machine import cpu_model, loadavg

TARGET_S, GOAL_S = 5.0, 3.0
BUSY_CPU_USE = 0.9


def validate(deals, seat, check: int) -> None:
    sub = deals[:check]
    five = adv.solve_strains(sub, seat, "points")
    ref = api.dd_table(sub, "points")[:, seat, :]
    if not np.array_equal(five, ref):
        bad = np.flatnonzero((five != ref).any(axis=1))
        raise SystemExit(f"five-strain values differ from dd_table on {len(bad)} deals, first deal {bad[0]}")
    v = five.astype(int)
    no5 = adv.solve_strains(sub, seat, "points", five=np.uint64(0)).astype(int)
    no3 = adv.solve_strains(sub, seat, "points", three=np.uint64(0)).astype(int)
    if not (((v - no5) >= 0) & ((v - no5) <= 5)).all() or not (((no3 - v) >= 0) & ((no3 - v) <= 3)).all():
        raise SystemExit("a special-card measure is out of its range (5H: 0..5, 3S: 0..3)")


E2E = "advise, table play (end to end)"


def render(lines: dict, info: dict) -> str:
    five = lines["five strains"]["median"]
    idle = lines["five strains"]["cpu_s"] / lines["five strains"]["threads"]
    # lines too short to time CPU use meaningfully (dealing: ~0 s) are not judged
    busy = any(r["cpu_use"] < BUSY_CPU_USE for r in lines.values() if r["median"] >= 0.05)

    def verdict(t):
        return f"target <= {TARGET_S:.0f} s {'met' if t <= TARGET_S else 'NOT met'}, " \
               f"goal <= {GOAL_S:.0f} s {'met' if t <= GOAL_S else 'not met'}"

    if info["deals"] != 2000:
        judged = "the target is for 2,000 deals: not judged"
    elif busy:
        judged = f"machine busy: wall time {verdict(five)}; idle estimate {idle:.2f} s: {verdict(idle)}"
    else:
        judged = verdict(five)
    head = []
    if E2E in lines:
        e2e = lines[E2E]["median"]
        # idle estimate of the whole: the solver lines at full parallel speed, the analysis at its CPU time
        parts = [lines[k]["cpu_s"] / lines[k]["threads"] for k in ("deal", "five strains", "specials")]
        tpl = lines["analysis, table play"]  # the hand's own PIMC play runs on every thread
        e2e_idle = sum(parts) + tpl["cpu_s"] / tpl["threads"]
        ok = f"target <= {TARGET_S:.0f} s {'met' if e2e <= TARGET_S else 'NOT met'}"
        if info["deals"] != 2000:
            e2e_judged = "the target is for 2,000 deals: not judged"
        elif busy:
            e2e_judged = (f"machine busy: wall time, {ok}; idle estimate {e2e_idle:.2f} s: target <= "
                          f"{TARGET_S:.0f} s {'met' if e2e_idle <= TARGET_S else 'NOT met'}")
        else:
            e2e_judged = ok
        tp, dd = lines["analysis, table play"]["median"], lines["analysis, dd"]["median"]
        alone = lines["analysis, table play, model alone"]["median"]
        head = [f"**Hand advisor with table play** (the default, specials on), {info['deals']:,} deals: "
                f"**{e2e:.2f} s** median warm end to end ({e2e_judged}).  Table play adds "
                f"{tp - dd:+.3f} s to the analysis ({tp:.3f} s against {dd:.3f} s double dummy only), of which "
                f"{tp - alone:.3f} s is the hand's own PIMC play of {info['check']} deals in two strains "
                f"(K = {info['check_k']}; the model alone, --play-check 0: {alone:.3f} s).", ""]
    out = [
        "# Hand advisor benchmark",
        "",
        *head,
        f"{info['deals']:,} deals x 5 strains, hand {info['hand']} at {info['seat']}, seed {info['seed']}: "
        f"**{five:.2f} s** median warm for the five-strain solve ({judged}).",
        "",
        f"Solver path: {info['path']}.",
        "",
        "| line | median s | min..max s | runs | CPU use | CPU s | idle estimate s |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, r in lines.items():
        out.append(f"| {name} | {r['median']:.3f} | {r['min']:.3f}..{r['max']:.3f} | {r['runs']} | "
                   f"{r['cpu_use']:.2f} | {r['cpu_s']:.2f} | {r['cpu_s'] / r['threads']:.2f} |")
    out += ["", "CPU s: process CPU time of the median run's kind (wall x CPU use x threads).  Idle estimate: "
            "CPU s / threads, the wall time if every thread had a core to itself all along (an estimate: "
            "it assumes the threads finish together)."]
    if "reference dd_table (4 leaders)" in lines:
        ratio = lines["reference dd_table (4 leaders)"]["median"] / five
        out += ["", f"Five strains vs the full table: {ratio:.2f}x faster."]
    total = sum(lines[k]["median"] for k in ("deal", "five strains", "analysis, table play", "specials")
                if k in lines)
    out += ["", f"`kaiser-sim hand` end to end (deal + five strains + analysis + specials), warm: about {total:.1f} s; "
            f"with `--no-specials` about {total - lines['specials']['median']:.1f} s.", ""]
    if busy:
        out += ["**The machine was busy**: some line got less than "
                f"{BUSY_CPU_USE:.0%} of the CPU it asked for; the times are upper bounds.", ""]
    out += [
        "Machine and run:",
        "",
        f"- CPU: {info['cpu']}; {info['cores']}",
        f"- load average at start {info['load_start']}, at end {info['load_end']}",
        f"- numba {numba.__version__} ({info['threading_layer']} threading layer, {numba.get_num_threads()} threads), "
        f"numpy {np.__version__}, Python {platform.python_version()}, kaiser-sim {__version__}",
        f"- {info['date']}; whole run {info['wall']:.0f} s",
        f"- command: `{info['command']}`",
        "",
    ]
    return "\n".join(out)


def main(argv=None) -> int:
    parser = common.parser(__doc__, "hand_advisor")
    parser.add_argument("--hand", default="AK93.5.AK.8", help="the hand (8 cards)")
    parser.add_argument("--seat", default="N", choices=list("NESW"), help="its seat (on lead)")
    parser.add_argument("--deals", type=int, default=2000, help="random deals of the other cards")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs of the five-strain solve and analysis")
    parser.add_argument("--specials-repeats", type=int, default=1, help="timed runs of the 5H/3S solves (0: skip)")
    parser.add_argument("--e2e-repeats", type=int, default=3,
                        help="timed runs of advise(play='table') end to end (0: skip)")
    parser.add_argument("--no-reference", action="store_true", help="skip timing dd_table (the 4-leader reference)")
    parser.add_argument("--check", type=int, default=100, help="deals checked against dd_table before timing")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.repeats < 1:
        parser.error("--deals and --repeats must be at least 1")

    wall0 = time.perf_counter()
    load_start = loadavg()

    log = common.logger(wall0)

    rules = get_preset("standard")
    hand = adv.read_hand(args.hand, rules)
    ctx = adv.auction_context(rules, args.seat)
    seat = ctx.seat
    has_strains = getattr(api, "dd_strains", None) is not None
    path = ("dd.dd_strains (one leader)" if has_strains
            else "dd.dd_table fallback, leader row (dd_strains is not in the solver yet: 4x the work)")

    log(f"validating on {min(args.check, args.deals)} deals (compiles the kernels)")
    lines: dict = {}
    adv.advisor_deals(hand, seat, 10, args.seed, rules)  # load the compiled dealer (untimed)
    deals, wall, use = timed(lambda: adv.advisor_deals(hand, seat, args.deals, args.seed, rules))
    lines["deal"] = record([wall], [use], numba.get_num_threads())
    validate(deals, seat, min(args.check, args.deals))
    log("valid")

    values = adv.solve_strains(deals, seat, "points")  # warm at full size (untimed)
    lines["five strains"] = repeat(lambda: adv.solve_strains(deals, seat, "points"), args.repeats, log, "five strains")
    if has_strains and not args.no_reference:
        lines["reference dd_table (4 leaders)"] = repeat(lambda: api.dd_table(deals, "points"), args.repeats, log,
                                                         "dd_table")

    from kaiser_sim.strategy.table_play import load_model

    model = load_model()
    if not model.applies_to(rules):
        raise SystemExit("the shipped table-play model does not hold for the standard rules")
    log(model.describe())

    def analysis(play, check=None):
        a = adv.analysis._analyse(hand, ctx, deals, values, args.deals, args.seed, rules, False, play, None, check=check)
        if a.play.used != play:
            raise SystemExit(f"asked for {play}, got {a.play.used}: {a.play.reason}")
        return a.to_text(), a.to_json()

    analysis("table")  # the model's file is read once (untimed, like the kernels)
    # plain Python, but for the hand's own PIMC play (every thread) in the default table play
    for play, check, name, threads in (("table", None, "analysis, table play", None),
                                       ("table", 0, "analysis, table play, model alone", 1),
                                       ("dd", None, "analysis, dd", 1)):
        lines[name] = repeat(lambda: analysis(play, check), args.repeats, log, name, threads=threads)
    if args.specials_repeats > 0:
        strain = int(np.argmax(values.astype(float).mean(axis=0)))
        lines["specials"] = repeat(lambda: adv.specials_table(deals, values, seat, strain), args.specials_repeats,
                                   log, "specials")
    else:
        lines["specials"] = {"median": 0.0, "min": 0.0, "max": 0.0, "cpu_use": 1.0, "runs": 0, "threads": 1,
                             "cpu_s": 0.0}

    if args.e2e_repeats > 0:
        def e2e():
            a = adv.advise(hand, seat=seat, n=args.deals, seed=args.seed, rules=rules, play="table")
            return a.to_text(), a.to_json()

        lines[E2E] = repeat(e2e, args.e2e_repeats, log, "advise, table play")

    ncpu = common.usable_cpus()
    info = dict(
        deals=args.deals, hand=format_hand(hand), seat=args.seat, seed=args.seed, path=path,
        cpu=cpu_model(), cores=f"{os.cpu_count()} logical CPUs, {ncpu} usable by this process",
        load_start=load_start, load_end=loadavg(), threading_layer=numba.threading_layer(),
        date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        wall=time.perf_counter() - wall0, check=config.TABLE_PLAY_CHECK_DEALS, check_k=config.TABLE_PLAY_CHECK_SAMPLES,
        command=common.command("hand_advisor", argv),
    )
    text = render(lines, info)
    common.write_result(args.out, text, log)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Time of ``kaiser-sim hand --auction``: 2,000 deals consistent with the calls, warm, with table play.

Run with ``.venv/bin/python benchmarks/auction_advisor.py`` (``--help`` for
the options).  The result is printed; with ``--save`` it is also written to
``benchmarks/results/auction_advisor.md`` (``make bench-auction SAVE=1``).

What is measured
----------------
One hand (``--hand``, default ``AQ98.K5.A.T`` at S) and, for each auction
of ``--auctions`` (the calls heard before S, from the dealer's left;
``none``: S speaks first), ``--deals`` kept deals:

* **condition** -- ``conditioned.conditioned_deals``: the candidates dealt
  from the advisor's stream and every speaker asked by the ``ev`` model, until
  ``--deals`` are kept (the acceptance, kept / candidates, is reported: the
  target holds when it is 1% or more);
* **solve** -- ``advisor.advisor_values``: the five strains with S on lead;
* **analysis** -- everything ``advise`` does after solving: the table-play
  numbers, every legal call's worth with the rest of the auction played out
  (the other declarers' contracts solved), the choices, the text and JSON;
* **advise (end to end)** -- ``advisor.advise(hand, seat, auction=...)``
  with the 5H/3S measure, i.e. ``kaiser-sim hand --auction`` without the
  process start and imports.  The target: <= 5 s warm for 2,000 kept deals
  when 1% or more of the candidates are kept.

Before timing, each auction is run once on 200 deals (compiling every
kernel, never timed) and the kept deals are checked: every speaker's call,
asked again through the one-hand ``Policy.call``, is the call heard.  Each
line reports the median and range over ``--repeats`` runs and the CPU use
(process CPU time / (wall x threads)); a machine shared with other work
shows as CPU use well below 1.
"""

from __future__ import annotations

import datetime
import platform
import sys

import numba

import common
from common import repeat
from kaiser_sim import __version__
from kaiser_sim.strategy import advisor as adv
from kaiser_sim.strategy.conditioned import conditioned_deals, heard_auction
from kaiser_sim.strategy.policies import get_policy
from kaiser_sim.rules import get_preset
from machine import cpu_model, loadavg

TARGET_S = 5.0
AUCTIONS = ("none", "6 7 pass", "6 pass 7", "6NT 7")


def check(cd, rules) -> None:
    """Every kept deal's calls are the model's, asked one deal at a time."""
    ev = get_policy("ev")
    for deal in cd.deals[:200]:
        for i, call in enumerate(cd.calls):
            s = (cd.dealer + 1 + i) % 4
            said = ev.call(int(deal[s]), cd.calls[:i], seat=s, dealer=cd.dealer, rules=rules)
            if said != call:
                raise SystemExit(f"a kept deal does not fit the calls: seat {s} calls {said}, not {call}")


def main(argv=None) -> int:
    parser = common.parser(__doc__, "auction_advisor")
    parser.add_argument("--hand", default="AQ98.K5.A.T", help="the hand (8 cards)")
    parser.add_argument("--seat", default="S", choices=list("NESW"), help="its seat")
    parser.add_argument("--deals", type=int, default=2000, help="deals kept (consistent with the calls)")
    parser.add_argument("--auctions", nargs="+", default=list(AUCTIONS), help="the calls heard, one string each")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of each phase")
    args = parser.parse_args(argv)
    log = common.logger()
    rules = get_preset("standard")
    hand = adv.read_hand(args.hand, rules)
    seat = "NESW".index(args.seat)
    threads = numba.get_num_threads()
    rows = []
    for text in args.auctions:
        dealer, calls = heard_auction(rules, seat, text)
        log(f"{text}: warming up and checking on 200 deals")
        adv.advise(args.hand, seat=args.seat, auction=text, n=200, seed=args.seed)
        cd = conditioned_deals(hand, seat, calls, 200, args.seed, rules, min_deals=1)
        check(cd, rules)
        lines = {}
        log(f"{text}: timing")
        lines["condition"] = repeat(lambda: conditioned_deals(hand, seat, calls, args.deals, args.seed, rules),
                                    args.repeats, log, "condition", threads)
        cd = conditioned_deals(hand, seat, calls, args.deals, args.seed, rules)
        ctx = adv.heard_context(rules, seat, text) if calls else adv.auction_context(rules, seat)
        lines["solve"] = repeat(lambda: adv.advisor_values(cd.deals, cd.kitties, seat, rules), args.repeats, log,
                                "solve", threads)
        values = adv.advisor_values(cd.deals, cd.kitties, seat, rules)
        heard = adv.AuctionInfo(bool(calls), tuple(str(c) for c in calls), "ev", args.deals, cd.kept,
                                cd.candidates)

        def analyse():
            a = adv.analysis._analyse(hand, ctx, cd.deals, values, cd.kept, args.seed, rules, False, "table", None,
                             kitties=cd.kitties, heard=heard)
            a.to_text()
            a.to_json()

        lines["analysis"] = repeat(analyse, args.repeats, log, "analysis", threads)
        lines["advise (end to end)"] = repeat(
            lambda: adv.advise(args.hand, seat=args.seat, auction=text, n=args.deals, seed=args.seed),
            args.repeats, log, "advise", threads)
        rows.append((text, cd.kept, cd.candidates, lines))
        log(f"{text}: end to end {lines['advise (end to end)']['median']:.2f} s")
    out = [
        "# `kaiser-sim hand --auction`: 2,000 deals consistent with the calls, warm",
        "",
        f"{datetime.date.today()}, kaiser-sim {__version__}, {cpu_model()}, {threads} numba threads, "
        f"Python {platform.python_version()}, load average {loadavg()}.",
        f"Hand {args.hand} at {args.seat}, ev bidding model, table play, seed {args.seed}; "
        f"median of {args.repeats} runs [min, max], seconds; CPU use in brackets.",
        "",
        f"Command: `{common.command('auction_advisor', argv)}`",
        "",
        "| calls heard | kept / candidates | condition | solve | analysis | advise, end to end | target |",
        "|---|---|---|---|---|---|---|",
    ]
    for text, kept, cand, lines in rows:
        cells = [f"{lines[k]['median']:.2f} [{lines[k]['min']:.2f}, {lines[k]['max']:.2f}] "
                 f"({lines[k]['cpu_use']:.2f})" for k in ("condition", "solve", "analysis", "advise (end to end)")]
        acc = kept / cand
        e2e = lines["advise (end to end)"]["median"]
        verdict = ("met" if e2e <= TARGET_S else "missed") if acc >= 0.01 else "n/a (under 1% kept)"
        out.append(f"| {text} | {kept:,} / {cand:,} ({100 * acc:.3g}%) | " + " | ".join(cells) + f" | {verdict} |")
    out += ["", f"Target: advise end to end <= {TARGET_S:g} s warm for {args.deals:,} kept deals when 1% or more "
            "of the candidates are kept."]
    common.write_result(args.out, "\n".join(out) + "\n", log)
    return 0


if __name__ == "__main__":
    sys.exit(main())

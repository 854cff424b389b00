"""The bidding population's call frequencies, by position and by count band,
beside ev's and listening's, and its build's size and time.

Run with ``.venv/bin/python benchmarks/population.py`` (``--help`` for the
options).  The result is printed as Markdown and, with ``--save``, written
to ``benchmarks/results/population.md``.

What is measured
----------------
Self-play on ``--deals`` fresh random deals (seed ``--seed``, not the
build's; the dealer rotates; 0-0, so no endgame): every seat bids by the
same policy (:func:`kaiser_sim.strategy.policies.run_auction`), no play.
By position (1 = the dealer's left .. 4 = the dealer):

- opening rate: of the seats that speak with no bid before them, the share
  that bid (the dealer's is 100%: it is forced);
- overcall rate: of the seats that face a bid, the share that bid (for the
  dealer: the match rate, a bid at the highest bid's rank, the dealer's
  privilege, and the raise rate beyond it);
- jump rate: of the bids, the share above the cheapest legal bid of its
  kind (plain or NT) by a level or more (an opening 7 is a jump);
- NT share: of the bids, the share in no trump;

and per auction: passed to the dealer (the first three pass), the
contract's level (mean; share 8 or more), the share of NT contracts.
By count band (:func:`kaiser_sim.hands.strength`, the Kaiser count): the
first seat's opening rate and the rate at which a seat facing an
opponent's bid overcalls.  Every share with its n and a Wilson 95%
interval (one auction a deal: the seats of a position are independent).
The build: the shipped file's record (deals, rounds, times, size), and the
policy's own call for ``--hands`` hands timed warm against ev's.
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
from kaiser_sim.deal import deal_batch
from kaiser_sim.hands import STRENGTH_BUCKETS
from kaiser_sim.rules import get_preset
from kaiser_sim.stats import wilson_interval
from kaiser_sim.strategy.policies import BidView, get_policy
from kaiser_sim.strategy.population import population_path, read_population
from kaiser_sim.studies.call_frequencies import call_counts
import common
from machine import cpu_model, loadavg

POLICIES = ("population", "listening", "ev")


def share(k, n) -> str:
    """``k / n`` as a percentage with its Wilson 95% interval and n."""
    if n == 0:
        return "- (n 0)"
    lo, hi = wilson_interval(k, n)
    return f"{100 * k / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] (n {n:,})"


def frequencies(name: str, deals, rules) -> dict:
    """The self-play auction of ``deals`` by policy ``name`` and its counts
    (:func:`kaiser_sim.studies.call_frequencies.call_counts`, the report's
    section counts them the same way), timed."""
    t0 = time.perf_counter()
    out = call_counts(name, deals, rules)
    out["seconds"] = time.perf_counter() - t0
    return out


def main(argv=None) -> int:
    parser = common.parser(__doc__, "population", seed_help="seed of the fresh deals")
    parser.add_argument("--deals", type=int, default=20_000, help="fresh deals bid around by each policy")
    parser.add_argument("--hands", type=int, default=100_000, help="hands of the call timing")
    args = parser.parse_args(argv)
    if min(args.deals, args.hands) < 100:
        parser.error("--deals and --hands must be at least 100")
    wall0 = time.perf_counter()
    load_start = loadavg()
    log = common.logger(wall0)
    rules = get_preset("standard")
    deals = deal_batch(args.deals, args.seed)
    freq = {}
    for name in POLICIES:
        log(f"{name}: {args.deals:,} auctions")
        get_policy(name).bid(BidView(deals[:4, 0], np.zeros((4, 0), dtype=np.int16), np.zeros(4, dtype=np.int64),
                                     np.zeros(4, dtype=np.int64), np.zeros((4, 2), dtype=np.int64),
                                     np.full(4, rules.target), rules))  # warm
        freq[name] = frequencies(name, deals, rules)

    hands = deal_batch(args.hands // 4 + 1, args.seed + 1).reshape(-1)[: args.hands]
    m = hands.size
    view = BidView(hands, np.zeros((m, 0), dtype=np.int16), np.ones(m, dtype=np.int64), np.zeros(m, dtype=np.int64),
                   np.zeros((m, 2), dtype=np.int64), np.full(m, rules.target), rules)
    look = {}
    for name in ("population", "ev"):
        t0 = time.perf_counter()
        get_policy(name).bid(view)
        look[name] = time.perf_counter() - t0

    out = ["# The bidding population: its calls beside ev's and listening's", ""]
    models = read_population()
    path = population_path()
    if models:
        t = models.get("table") or next(iter(models.values()))
        i = t.info
        plays = "; ".join(f"{p} play {len(s.info['rounds']) - 1} rounds, "
                          f"{'converged' if s.info['converged'] else 'NOT converged'} (largest change of a call's "
                          f"share {s.info['rounds'][-1]['change']}), {s.info['seconds']:.0f} s"
                          for p, s in models.items())
        out.append(f"The shipped population (`kaiser_sim/data/population.npz`, {path.stat().st_size / 1024:,.0f} KiB): "
                   f"{i['deals']:,} deals (seed {i['seed']}) solved double dummy in {i['solve_seconds']:.0f} s, then "
                   f"{plays}; temperature {i['temperature']} points (its values fitted against calls at "
                   f"{i.get('fit_temperature', i['temperature'])}), floor {i['floor']}; built by `make "
                   "population-model` (`kaiser-sim population-model`) on the machine below while other work ran "
                   "(nice 10).")
        out.append("")
    out.append(f"Self-play on {args.deals:,} fresh deals (seed {args.seed}), every seat the same policy, 0-0, "
               "standard rules; shares with their Wilson 95% interval and n.")
    out.append("")
    out.append("## By position")
    out.append("")
    out.append("| policy | position | opening rate | overcall rate | jump rate (of bids) | NT share (of bids) |")
    out.append("|---|---|---:|---:|---:|---:|")
    for name, f in freq.items():
        for k, d in enumerate(f["pos"]):
            pos = ("1st (dealer's left)", "2nd", "3rd", "dealer")[k]
            opening = "100% (forced)" if k == 3 else share(*d["open"])
            out.append(f"| {name} | {pos} | {opening} | {share(*d['over'])} | {share(*d['jump'])} | "
                       f"{share(*d['nt'])} |")
    out.append("")
    out.append("| policy | passed to the dealer | the dealer facing a bid: matches | ... raises | contract's mean "
               "level | contracts of 8 or more | NT contracts |")
    out.append("|---|---:|---:|---:|---:|---:|---:|")
    for name, f in freq.items():
        d = f["pos"][3]
        out.append(f"| {name} | {share(*f['passed_to_dealer'])} | {share(*d['match'])} | {share(*d['raise'])} | "
                   f"{f['level']:.2f} | {share(*f['level8'])} | {share(*f['nt_contract'])} |")
    out.append("")
    out.append("## By count band (the Kaiser count, `kaiser_sim.hands.strength`)")
    out.append("")
    out.append("First seat's opening rate:")
    out.append("")
    out.append("| count | " + " | ".join(POLICIES) + " |")
    out.append("|---|" + "---:|" * len(POLICIES))
    for b in range(len(STRENGTH_BUCKETS)):
        label = STRENGTH_BUCKETS[b][0]
        out.append(f"| {label} | " + " | ".join(share(*freq[p]['pos'][0]['bands'][b][1]) for p in POLICIES) + " |")
    out.append("")
    out.append("Any seat but the dealer facing an opponent's bid (positions 2 and 3): the overcall rate:")
    out.append("")
    out.append("| count | " + " | ".join(POLICIES) + " |")
    out.append("|---|" + "---:|" * len(POLICIES))
    for b in range(len(STRENGTH_BUCKETS)):
        label = STRENGTH_BUCKETS[b][0]
        cells = []
        for p in POLICIES:
            k_ = sum(freq[p]["pos"][k]["bands"][b][2][0] for k in (1, 2))
            n_ = sum(freq[p]["pos"][k]["bands"][b][2][1] for k in (1, 2))
            cells.append(share(k_, n_))
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    out.append("")
    out.append("The NT share of the bids, by the aces the bidder holds (every position):")
    out.append("")
    out.append("| aces | " + " | ".join(POLICIES) + " |")
    out.append("|---|" + "---:|" * len(POLICIES))
    for x in range(5):
        cells = [share(sum(freq[p]["pos"][k]["nt_by_aces"][x][0] for k in range(4)),
                       sum(freq[p]["pos"][k]["nt_by_aces"][x][1] for k in range(4))) for p in POLICIES]
        out.append(f"| {x} | " + " | ".join(cells) + " |")
    out.append("")
    out.append("## Beside what the rule documents say")
    out.append("")
    out.extend(RULES_NOTE)
    out.append("")
    out.append(f"The policy's own call for {m:,} hands (first seat, warm): population {look['population']:.2f} s "
               f"({m / look['population']:,.0f} hands/s), ev {look['ev']:.2f} s ({m / look['ev']:,.0f} hands/s); "
               + "; ".join(f"{p}'s {args.deals:,} auctions {freq[p]['seconds']:.1f} s" for p in POLICIES) + ".")
    out.append("")
    out.append("Machine and run:")
    out.append("")
    out.append(f"- CPU: {cpu_model()}; {common.usable_cpus()} CPUs usable, numba {numba.__version__} "
               f"({numba.get_num_threads()} threads), numpy {np.__version__}, Python {platform.python_version()}, "
               f"kaiser-sim {__version__}")
    out.append(f"- load average at start {load_start}, at end {loadavg()}; nice {os.nice(0)}")
    out.append(f"- {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; whole run "
               f"{time.perf_counter() - wall0:.0f} s")
    out.append(f"- command: `{common.command('population', argv)}`")
    common.write_result(args.out, "\n".join(out) + "\n", log)
    return 0


#: the comparison with the rule documents (written after reading the numbers above; the numbers
#: are in the tables, this is what they mean to a player)
RULES_NOTE = [
    "The rule sheets (the Spanish one: \"apuesta con cuidado: hay 10 puntos en juego; 7 u 8 ya es mucho\", "
    "\"errores típicos: apostar demasiado alto\", \"sin triunfo solo con ases\"; all of them: the dealer may take "
    "the highest bid at its level, and must bid if the first three pass) describe players who pass a poor hand, "
    "rarely go past 7 or 8, and keep no trump for hands with aces.  Set beside the tables above (the population "
    "calling at its temperature of 0.3 points, its values fitted against calls at 0.5):",
    "",
    "- **A poor hand passes.**  `ev` opens 96% of first-seat hands and 97% of hands with a count of 4.5-5; the "
    "population opens 34% of first-seat hands, 7.5% of those counting 4 or less, 12% of those counting 4.5-5, "
    "43% of those counting 7.5-8, and 98-100% from 9.5 up.  What is left of a poor hand's bids is the quantal "
    "form: where passing and the cheapest bid are worth nearly the same, it still bids sometimes; no call is "
    "ever impossible.  The advisor's best response to it passes such a hand.",
    "- **Overcalls on nothing.**  A seat counting 4 or less facing an opponent's bid overcalls 14% of the time: "
    "most of it a sacrifice, 8 over an opponent's 7NT, a failed 8 costing less than a made 7NT, which scores "
    "double.",
    "- **7 or 8 is already a lot.**  The population's contracts average level 6.6 (ev 6.9, listening 6.5); one in "
    "eleven is 8 or more (9.2%; ev 6.2%, listening 4.3%).  It jumps more than the others (55% of its first-seat "
    "bids are jumps, mostly to 7), because an opening 7 shuts out the 6-level overcalls, the dealer's match "
    "included.  Whether a human would jump as often is the one place where it disagrees with the sheets; its "
    "jumps are valued in table play against itself, not against the sheets' players.",
    "- **The dealer's privilege.**  Facing a bid, `ev`'s dealer matches 57% of the time and bids on 70%; the "
    "population's dealer matches 14% and bids on 32% (listening 23% and 43%), and never over its partner's NT "
    "but for the floor's slips (one in a million where the bid throws points away): the privilege used on a hand "
    "that can make the contract, not on every hand.  The first three pass on one deal in seven (the forced "
    "dealer then bids, usually the cheapest bid).",
    "- **Positions.**  First seat passes two hands in three (66%), second seat opens nearly three in four (73%) "
    "after that pass: with the dealer its partner, the second seat's opening is protected by the match, while a "
    "first-seat opening faces three players who may all bid over it.  The sheets say nothing of position.  A "
    "strong first seat can exploit it: passing and letting the second seat or the forced dealer declare against "
    "its cards is worth about as much as opening (the advisor calls AK93.5.AK.8 first to speak a tie between "
    "passing and 6NT).",
    "- **No trump only with aces.**  27-41% of the population's bids are NT by position (ev's 36-54%), and 0.2% "
    "without an ace: the table by aces held shows its NT share climbing from 0.2% with no ace to 72% with two "
    "and 99-100% with three or four (the aces and the top winners are among its features).",
]

if __name__ == "__main__":
    sys.exit(main())

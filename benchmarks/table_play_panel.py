"""A panel of hands: the advisor's table play against direct PIMC play of each hand.

Run with ``.venv/bin/python benchmarks/table_play_panel.py`` (prints the
result); ``--save`` also writes ``benchmarks/results/table_play_panel.md``
(or ``--out``).

What is compared
----------------
For each hand of :data:`PANEL` (North, on lead, declares; standard rules):

* **the advisor** -- ``advise``'s steps on ``--deals`` deals (default the
  advisor's 2,000, seed ``--seed``): the DD values, then ``_analyse`` twice:
  with the hand's own PIMC play (the default ``check``, the control
  variate of ``kaiser_sim.strategy.table_play.HandTablePlay``) and with the model
  alone (``check=0``, the deals' bounds still applied).  Read: table-play
  mean points and P(make b) for b = 6..12, with their 95% intervals, in the
  advisor's chosen trump and in no trump (the strains it plays);
* **direct play** -- ``--direct`` other deals of the same hand (default 200,
  seed ``--seed + 1``, so independent of the advisor's) played out by PIMC
  players at the model's K (``kaiser_sim.game.play_deals``) in the same
  two strains: mean points (normal 95% interval) and P(make b) (Wilson).

A quantity *agrees* when the 95% interval of the difference advisor -
direct covers 0 (standard error: sqrt(se_advisor^2 + se_direct^2); a
probability's standard error from its interval's half-width / 1.96).  If
the advisor is unbiased for each hand, about 95% of the comparisons agree
(fewer disagree when the quantities of a hand move together).  The model
alone, for contrast, has narrow intervals that leave its per-hand bias
uncovered.  Also timed: the cost of the hand's own play (``_analyse`` with
and without it, warm).
"""

from __future__ import annotations

import datetime
import os
import sys
import time

import numba
import numpy as np

import common
from machine import cpu_model, loadavg

from kaiser_sim import __version__, config
from kaiser_sim.strategy import advisor as adv
from kaiser_sim.game import play_deals
from kaiser_sim.rules import STANDARD
from kaiser_sim.rules import get_preset
from kaiser_sim.stats import mean_ci, wilson_interval

#: (hand, what it is): sure winners, weak, long trumps, each special in or out, NT hands
PANEL = [
    ("AKQJ.A.AK.A", "eight top winners"),
    ("AKQJ.-.-.AKQJ", "two solid suits"),
    ("A.AKQJT98.-.-", "seven top hearts and an ace"),
    ("AKQJT98.A.-.-", "seven top spades (3S out) and an ace"),
    ("-.-.AKQJT98.A", "seven top diamonds and an ace"),
    ("AKQ3.AK5.A.-", "strong, both specials"),
    ("AKQ.AKQ.AK.-", "strong, void in clubs"),
    ("AK93.5.AK.8", "the benchmark hand"),
    ("KJ8.AQ9.T.J", "issue 30: DD 7.64, play 6.75"),
    ("AQ.AQ.AQ.AQ", "four ace-queens"),
    ("A3.A5.A7.A7", "four aces and both specials"),
    ("A9.A8.A8.A8", "four aces, no special"),
    ("K9.K9.K9.K9", "four kings"),
    ("KQJ.KQJ.KQ.-", "kings and queens, no ace"),
    ("AK3.Q5.K.T8", "medium, both specials"),
    ("AT8.KJ9.Q.J", "medium, no special"),
    ("J.J.AKQJT.A", "five top diamonds"),
    ("KQJT9.-.KQJ.-", "two-suiter without aces"),
    ("QJT98.K.Q.K", "long spades without top cards"),
    ("AKQJT3.5.A.-", "long spades, both specials"),
    ("8.AKQJT95.-.-", "seven hearts with the 5H"),
    ("-.5.KQJT9.KQ", "the 5H alone, long diamonds"),
    ("3.KQJ.KQJ.K", "the 3S alone"),
    ("983.QJ.QJ.Q", "the 3S in a short weak suit"),
    ("3.5.AKQ.AKQ", "both specials, minors"),
    ("9.5.AKQ.AKQ", "the 5H, minors (a tie)"),
    ("JT9.JT9.J.J", "middling, no special"),
    ("Q8.Q8.Q8.Q8", "four queens, weak"),
    ("T98.T98.T.T", "weak, no special"),
    ("83.9.T9.T98", "issue 30: weak with the 3S"),
    ("T9.-.987.987", "nothing"),
    ("98.5.T9.987", "weak with the 5H"),
]

LEVELS = list(range(6, 13))
Z = 1.96


def _agree(a, se_a, d, se_d) -> bool:
    return abs(a - d) <= Z * float(np.hypot(se_a, se_d)) + 1e-12


def _se_p(lo, hi) -> float:
    return (hi - lo) / (2 * Z)


def _advisor_reads(a, key: str) -> dict:
    pts = a.points.loc[key]
    mk = a.make[a.make["strain"] == key].set_index("bid")
    out = {"mean": (float(pts["table_mean"]), (float(pts["table_hi"]) - float(pts["table_lo"])) / (2 * Z))}
    for b in LEVELS:
        r = mk.loc[b]
        out[b] = (float(r["table_p"]), _se_p(float(r["table_lo"]), float(r["table_hi"])))
    out["dd"] = float(pts["mean"])
    return out


def _direct_reads(points: np.ndarray) -> dict:
    m = mean_ci(points)
    out = {"mean": (m.mean, m.se)}
    for b in LEVELS:
        k = int((points >= b).sum())
        lo, hi = wilson_interval(k, len(points))
        out[b] = (k / len(points), _se_p(lo, hi))
    return out


def main(argv=None) -> None:
    p = common.parser(__doc__, "table_play_panel")
    p.add_argument("--deals", type=int, default=config.HAND_ADVISOR_DEALS, help="the advisor's deals a hand")
    p.add_argument("--direct", type=int, default=200, help="deals a hand played directly, in each strain")
    p.add_argument("--hands", type=int, default=len(PANEL), help="the first HANDS hands of the panel")
    args = p.parse_args(argv)
    log = common.logger()
    rules = get_preset("standard")
    t_start = time.perf_counter()
    load0 = loadavg()
    K = config.PIMC_SAMPLES
    rows, timing = [], []
    counts = {"check": [0, 0], "model": [0, 0]}
    mean_counts = {"check": [0, 0], "model": [0, 0]}
    adv.advise(PANEL[0][0], n=50, seed=0, specials=False)  # compile
    for i, (hand, what) in enumerate(PANEL[: args.hands]):
        mask = adv.read_hand(hand, rules)
        ctx = adv.auction_context(rules, "N")
        deals = adv.advisor_deals(mask, 0, args.deals, args.seed + i, rules)
        values = adv.advisor_values(deals, None, 0, rules)
        t0 = time.perf_counter()
        base = adv.analysis._analyse(mask, ctx, deals, values, args.deals, args.seed + i, rules, False, "table", None, check=0)
        t1 = time.perf_counter()
        a = adv.analysis._analyse(mask, ctx, deals, values, args.deals, args.seed + i, rules, False, "table", None)
        t2 = time.perf_counter()
        timing.append((t1 - t0, t2 - t1))
        strains = [base_s for base_s in dict.fromkeys((a.trump.strain, "N"))]
        direct_deals = adv.advisor_deals(mask, 0, args.direct, args.seed + 1 + 1000 * (i + 1), rules)
        for key in strains:
            s = adv.STRAIN_KEYS.index(key)
            res = play_deals(direct_deals, np.zeros(args.direct, np.int64), np.full(args.direct, s), samples=K,
                             seed=args.seed + 1, rules=STANDARD)
            d = _direct_reads(res.declarer_points.astype(np.float64))
            reads = {"check": _advisor_reads(a, key), "model": _advisor_reads(base, key)}
            row = {"hand": hand, "what": what, "strain": "NT" if key == "N" else key, "dd": reads["check"]["dd"],
                   "direct": d}
            for name, r in reads.items():
                ok = [_agree(*r[q], *d[q]) for q in ["mean"] + LEVELS]
                counts[name][0] += sum(ok)
                counts[name][1] += len(ok)
                mean_counts[name][0] += ok[0]
                mean_counts[name][1] += 1
                row[name] = r
                row[name + "_ok"] = ok
            rows.append(row)
        log(f"{i + 1}/{args.hands} {hand}: {', '.join(r['strain'] for r in rows if r['hand'] == hand)}; "
            f"analysis {t1 - t0:.2f} s, with its play {t2 - t1:.2f} s")
    text = _report(rows, counts, mean_counts, timing, args, K, load0, time.perf_counter() - t_start)
    common.write_result(args.out, text, log)


def _cell(v, se, pct=False) -> str:
    if pct:
        return f"{100 * v:.0f} ± {100 * Z * se:.0f}"
    return f"{v:.2f} ± {Z * se:.2f}"


def _report(rows, counts, mean_counts, timing, args, K, load0, seconds) -> str:
    check = config.TABLE_PLAY_CHECK_DEALS
    t_base = float(np.median([t[0] for t in timing]))
    t_check = float(np.median([t[1] for t in timing]))
    lines = [
        "# Table play of each hand: the advisor against direct play",
        "",
        f"{len({r['hand'] for r in rows})} hands, {len(rows)} (hand, strain) pairs (the advisor's trump and no "
        f"trump); the advisor on {args.deals:,} deals with its own PIMC play of {check} of them (K = {K}) in "
        f"those two strains; direct play of {args.direct} other deals of each hand in each (K = {K}).",
        "",
        "| | comparisons | agree (95% interval of the difference covers 0) | share |",
        "|---|---:|---:|---:|",
    ]
    for name, label in (("check", "advisor (bounds + the hand's own play, the default)"),
                        ("model", "model alone (bounds, --play-check 0)")):
        k, n = counts[name]
        km, nm = mean_counts[name]
        lines.append(f"| {label}: mean points and P(make b), b = 6..12 | {n} | {k} | {100 * k / n:.1f}% |")
        lines.append(f"| {label}: mean points only | {nm} | {km} | {100 * km / nm:.1f}% |")
    lines += [
        "",
        f"Cost of the hand's own play: the analysis takes {t_base:.2f} s with the model alone and {t_check:.2f} s "
        f"with the play (medians over the hands, warm; +{t_check - t_base:.2f} s), on top of the five-strain solve.",
        "",
        "Per (hand, strain): mean points and P(make 6), P(make 8), P(make 10) in % with 95% half-widths; "
        "`*` marks a disagreement with direct play.",
        "",
        "| hand | what | strain | DD mean | direct: mean | P6 | P8 | P10 | advisor: mean | P6 | P8 | P10 | "
        "model alone: mean | P6 | P8 | P10 |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        cells = [f"`{r['hand']}`", r["what"], r["strain"], f"{r['dd']:.2f}"]
        d = r["direct"]
        cells += [_cell(*d["mean"])] + [_cell(*d[b], pct=True) for b in (6, 8, 10)]
        for name in ("check", "model"):
            x, ok = r[name], r[name + "_ok"]
            marks = ["" if ok[j] else " *" for j in (0, 1, 3, 5)]
            cells += [_cell(*x["mean"]) + marks[0]] + [_cell(*x[b], pct=True) + m for b, m in
                                                         zip((6, 8, 10), marks[1:])]
        lines.append("| " + " | ".join(cells) + " |")
    lines += [
        "",
        "Machine and run:",
        "",
        f"- CPU: {cpu_model()}; {os.cpu_count()} logical CPUs, shared with other work while this ran",
        f"- load average at start {load0}, at end {loadavg()}",
        f"- numba {numba.__version__} ({numba.config.THREADING_LAYER} threading layer, {numba.get_num_threads()} "
        f"threads), numpy {np.__version__}, Python {sys.version.split()[0]}, kaiser-sim {__version__}",
        f"- {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; whole run {seconds:.0f} s",
        f"- command: `{common.command('table_play_panel')}`",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()

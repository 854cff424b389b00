"""Where the search's time per node goes: each phase alone, beside DDS's rate.

Run with ``.venv/bin/python benchmarks/solver_phases.py`` (``--help`` for
the options; a few seconds once the kernels are compiled).  The result is a
markdown file, ``benchmarks/results/solver_phases.md`` by default.

What is measured
----------------
Positions are sampled from the seeded random deals by random play (every
trick boundary with 7 to 2 tricks left, random leader and strain; and every
card's turn for the move generation).  Each phase of a search node is then
timed alone, as its own jitted loop over those positions, in ns a call:

* **bounds at trick start**: ``bounds.quick_tricks``, both sides'
  ``sure_trump_tricks`` and the special cards' ``special_captor``;
* **position key**: ``tt.pos_desc`` and ``tt.tt_slot`` (the key packs each
  suit's owners in order: ``pext`` where it is fast, else tables), and the
  same packing with each of the three ways to do it, to show what a CPU
  with slow or no ``pext`` would pay;
* **TT bucket scan**: the probe's scan of a 16-entry bucket of a table
  filled by solving the deals (the same loop as ``search.search_mid``'s);
* **TT store mask**: ``tt.wr_mask`` of the entry stored;
* **move generation, equivalent cards**: the filter that keeps one card of
  each run of equivalent cards, as the search does it now (integer carries,
  ``bits.above_in_suit``) and as it did before (``pext`` / ``pdep``);
* **two-trick endings**: ``endgame.solve_two``.

Each phase's share of a solve is its cost times how often the search runs it
(``--counts``: the search's diagnostic counters, from a run in a subprocess
with ``KAISER_SIM_DD_DIAGNOSTICS=1`` and a numba cache of its own; compiling
it takes minutes the first time).  DDS (``SolveAllBoardsBin``, one thread)
and kaiser-sim's ``dd_table`` (points and tricks, one thread) are timed in
the same run, round robin with the phases, so every cost is also given as a
share of DDS's time for one solve.
"""

from __future__ import annotations

import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from numba import njit

import common
import solver_vs_dds as svd
from kaiser_sim.cards import FIVE_HEARTS_BIT, SUIT_MASK, THREE_SPADES_BIT
from kaiser_sim.deal import deal_batch
from kaiser_sim.dd import api, bits, bounds, endgame, tt
from kaiser_sim.dd.bits import card_bit, ix, lowest_bit_index
from kaiser_sim.dd.search import STATS_SIZE, solve_value
from machine import cpu_summary, loadavg

_SM = SUIT_MASK
_ONE = np.uint64(1)
FIVE = np.uint64(FIVE_HEARTS_BIT)
THREE = np.uint64(THREE_SPADES_BIT)
LOG2 = 16


# ---------------------------------------------------------------------------
# sample positions by random play


@njit(cache=True)
def _legal(hand, led):
    f = hand & _SM[ix(led)] if led >= 0 else np.uint64(0)
    return f if f else hand


@njit(cache=True)
def _pick(cards, r):
    """The r-th (mod count) set bit of ``cards``."""
    n = 0
    x = cards
    while x:
        x &= x - _ONE
        n += 1
    k = r % n
    x = cards
    for _ in range(k):
        x &= x - _ONE
    return lowest_bit_index(x)


@njit(cache=True)
def sample_positions(deals, seed):
    """Trick boundaries with 7..2 tricks left ``(hands (m, 4), leader, trump)``,
    and the move-generation inputs of every turn ``(cand, mine, present)``."""
    np.random.seed(seed)
    n = deals.shape[0]
    hb = np.zeros((n * 6, 4), np.uint64)
    lb = np.zeros(n * 6, np.int64)
    tb = np.zeros(n * 6, np.int64)
    mg = np.zeros((n * 32, 3), np.uint64)
    nb = 0
    nm = 0
    for i in range(n):
        h = deals[i].copy()
        leader = np.random.randint(0, 4)
        trump = np.random.randint(0, 5)
        for t in range(8):
            if 1 <= t <= 6:
                hb[nb] = h
                lb[nb] = leader
                tb[nb] = trump
                nb += 1
            led = -1
            wc = -1
            ws = leader
            table = np.uint64(0)
            for j in range(4):
                p = (leader + j) & 3
                cand = _legal(h[p], led)
                present = h[0] | h[1] | h[2] | h[3] | table
                mg[nm, 0] = cand
                mg[nm, 1] = h[p]
                mg[nm, 2] = present
                nm += 1
                c = _pick(cand, np.random.randint(0, 64))
                if j == 0:
                    led = c >> 4
                    wc = c
                elif bits.beats(c, wc, trump):
                    wc = c
                    ws = p
                h[p] ^= card_bit(c)
                table |= card_bit(c)
            leader = ws
    return hb[:nb], lb[:nb], tb[:nb], mg[:nm]


# ---------------------------------------------------------------------------
# the phases, each a loop over the sample (returns a checksum so nothing is optimised away)


@njit(cache=True)
def k_bounds(hb, lb, tb, loops):
    acc = 0
    for _ in range(loops):
        for i in range(hb.shape[0]):
            p = lb[i]
            trump = tb[i]
            h0, h1, h2, h3 = hb[i, 0], hb[i, 1], hb[i, 2], hb[i, 3]
            union = h0 | h1 | h2 | h3
            x0, x1, x2, x3 = hb[i, p], hb[i, (p + 1) & 3], hb[i, (p + 2) & 3], hb[i, (p + 3) & 3]
            qt, wqt, one = bounds.quick_tricks(x0, x1, x2, x3, trump, THREE)
            a, wa = bounds.sure_trump_tricks(h0, h2, union, trump)
            b, wb = bounds.sure_trump_tricks(h1, h3, union, trump)
            f = bounds.special_captor(h0, h1, h2, h3, FIVE, trump) if union & FIVE else -1
            t = bounds.special_captor(h0, h1, h2, h3, THREE, trump) if union & THREE else -1
            acc += qt + a + b + f + t + np.int64((wqt ^ wa ^ wb) & np.uint64(0xFF))
    return acc


@njit(cache=True)
def k_key(hb, lb, tb, loops):
    acc = np.uint64(0)
    for _ in range(loops):
        for i in range(hb.shape[0]):
            lens, flags, code = tt.pos_desc(hb[i, 0], hb[i, 1], hb[i, 2], hb[i, 3], lb[i], tb[i], FIVE, THREE,
                                            np.uint64(1))
            acc += code ^ np.uint64(tt.tt_slot(lens, flags & tt.CORE_FLAGS, LOG2 - tt.BUCKET_LOG2))
    return acc


def _make_pack(pext_fn):
    """The position key's owner packing (8 pexts over one suit each) with one way of doing pext."""
    @njit(cache=True)
    def k_pack(hb, loops):
        acc = np.uint64(0)
        for _ in range(loops):
            for i in range(hb.shape[0]):
                union = hb[i, 0] | hb[i, 1] | hb[i, 2] | hb[i, 3]
                x = hb[i, 1] | hb[i, 3]
                y = hb[i, 2] | hb[i, 3]
                for s in range(4):
                    sh = np.uint64(16 * s)
                    u = (union & _SM[ix(s)]) >> sh
                    acc += pext_fn(x >> sh, u) ^ (pext_fn(y >> sh, u) << np.uint64(8))
        return acc
    return k_pack


k_pack_native = _make_pack(bits.pext if bits.HAS_BMI2 else bits.pext_soft)
k_pack_table = _make_pack(bits.pext_suit_table)
k_pack_loops = _make_pack(bits.pext_soft)


@njit(cache=True)
def fill_table(deals, log2):
    """A transposition table after solving ``deals`` (points, every leader
    and strain): what the probes scan."""
    keys, data = tt.new_tt(log2)
    stats = np.zeros(STATS_SIZE, np.int64)
    for i in range(deals.shape[0]):
        for strain in range(5):
            for leader in range(4):
                solve_value(deals[i], leader, strain, FIVE, THREE, keys, data, log2, stats, 1)
    return keys, data


@njit(cache=True)
def probe_keys(hb, lb, tb, log2):
    m = hb.shape[0]
    out = np.zeros((m, 4), np.uint64)
    for i in range(m):
        lens, flags, code = tt.pos_desc(hb[i, 0], hb[i, 1], hb[i, 2], hb[i, 3], lb[i], tb[i], FIVE, THREE,
                                        np.uint64(1))
        out[i, 0] = lens
        out[i, 1] = flags
        out[i, 2] = code
        out[i, 3] = tt.tt_slot(lens, flags & tt.CORE_FLAGS, log2 - tt.BUCKET_LOG2)
    return out


@njit(cache=True)
def k_probe(keyset, tt_keys, tt_data, loops):
    """The bucket scan of ``search_mid``'s probe (a copy of its loop; keep in step)."""
    B = tt.BUCKET
    acc = 0
    for _ in range(loops):
        for i in range(keyset.shape[0]):
            lens, flags, code, base = keyset[i, 0], keyset[i, 1], keyset[i, 2], np.int64(keyset[i, 3])
            kr = 4 * base
            dr = 2 * base
            lo = -100
            hi = 100
            same = 0
            for e in range(B):
                x = (tt_keys[ix(kr * B + e)] ^ lens) | ((tt_keys[ix((kr + 1) * B + e)] ^ flags) & tt.CORE_FLAGS)
                same |= (1 if x == 0 else 0) << e
            while same:
                e = lowest_bit_index(same)
                same &= same - 1
                ef = tt_keys[ix((kr + 1) * B + e)]
                dlo = 0
                dhi = 0
                if ef != flags:
                    if (ef ^ flags) & tt.F5_FLAGS:
                        if ef & tt.F5_FLAGS:
                            continue
                        dhi = 5
                    if (ef ^ flags) & tt.F3_FLAGS:
                        if ef & tt.F3_FLAGS:
                            continue
                        dlo = -3
                if ((tt_keys[ix((kr + 2) * B + e)] ^ code) & tt_keys[ix((kr + 3) * B + e)]) == 0:
                    lo = max(lo, tt_data[ix((dr + tt.TT_LO) * B + e)] + dlo)
                    hi = min(hi, tt_data[ix((dr + tt.TT_HI) * B + e)] + dhi)
            acc += lo + hi
    return acc


@njit(cache=True)
def k_store_mask(hb, loops):
    acc = np.uint64(0)
    for _ in range(loops):
        for i in range(hb.shape[0]):
            union = hb[i, 0] | hb[i, 1] | hb[i, 2] | hb[i, 3]
            w = hb[i, 0] & union & (union >> np.uint64(1))  # some cards of the union
            acc ^= tt.wr_mask(union, w, FIVE | THREE)
    return acc


@njit(cache=True)
def k_equiv_carry(mg, loops):
    acc = np.uint64(0)
    special = FIVE | THREE
    for _ in range(loops):
        for i in range(mg.shape[0]):
            cand, mine, present = mg[i, 0], mg[i, 1], mg[i, 2]
            if cand & (cand - _ONE):
                plain = mine & ~special
                cand &= ~(plain & bits.above_in_suit(plain, present))
            acc += cand
    return acc


def _make_equiv_pext(pext_fn, pdep_fn):
    """The filter as it was before (packing the cards in order with pext)."""
    @njit(cache=True)
    def k_equiv(mg, loops):
        acc = np.uint64(0)
        special = FIVE | THREE
        for _ in range(loops):
            for i in range(mg.shape[0]):
                cand, mine, present = mg[i, 0], mg[i, 1], mg[i, 2]
                if cand & (cand - _ONE):
                    lows = np.uint64(0)
                    for s in range(4):
                        u = present & _SM[ix(s)]
                        lows |= u & (~u + _ONE)
                    km = pext_fn(mine, present)
                    ks = pext_fn(special, present)
                    drop = km & (km << _ONE) & ~ks & ~(ks << _ONE) & ~pext_fn(lows, present)
                    cand &= ~pdep_fn(drop, present)
                acc += cand
        return acc
    return k_equiv


k_equiv_pext = _make_equiv_pext(bits.pext, bits.pdep)
k_equiv_loops = _make_equiv_pext(bits.pext_soft, bits.pdep_soft)


@njit(cache=True)
def k_two(hb, lb, tb, loops):
    acc = 0
    for _ in range(loops):
        for i in range(hb.shape[0]):
            p = lb[i]
            v, w = endgame.solve_two(hb[i, p], hb[i, (p + 1) & 3], hb[i, (p + 2) & 3], hb[i, (p + 3) & 3], p, tb[i],
                                     FIVE, THREE, 0, 1)
            acc += v + np.int64(w & np.uint64(1))
    return acc


# ---------------------------------------------------------------------------
# counts: how often a solve runs each phase (diagnostic counters, in a subprocess)


def counts_child(n_deals: int, seed: int) -> None:
    deals = deal_batch(n_deals, seed)
    out = {}
    for mode in ("tricks", "points"):
        _, nodes, stats = api.dd_table(deals, mode, threads=1, return_nodes=True, return_stats=True)
        out[mode] = {"solves": int(nodes.size), "stats": [int(x) for x in stats]}
    print(json.dumps(out))


def run_counts(n_deals: int, seed: int, log) -> dict:
    env = dict(os.environ, KAISER_SIM_DD_DIAGNOSTICS="1",
               NUMBA_CACHE_DIR=os.path.join(tempfile.gettempdir(), "kaiser_sim_diagnostics_cache"))
    log("counting phases in a subprocess (KAISER_SIM_DD_DIAGNOSTICS=1; compiles for minutes the first time)")
    r = subprocess.run([sys.executable, __file__, "--counts-child", "--deals", str(n_deals), "--seed", str(seed)],
                       env=env, capture_output=True, text=True, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])


def per_solve(counts: dict, mode: str) -> dict:
    """Calls per solve of each phase, from the counters (layout in search.py)."""
    c = counts[mode]
    st, n = c["stats"], c["solves"]
    nodes = st[0]
    # nodes that generate moves: all but the trick-start nodes settled by bounds or the table and
    # those with two tricks or fewer left (solved directly)
    early = st[28] + st[16] + st[17] + st[18]
    return {
        "nodes": nodes / n,
        "bounds at trick start": st[33] / n,
        "position key": st[25] / n,
        "TT bucket scan": st[25] / n,
        "TT store mask": st[31] / n,
        "move generation, equivalent cards (carries)": max(nodes - early, 0) / n,
        "two-trick endings": st[32] / n,
    }


# ---------------------------------------------------------------------------


def main(argv=None) -> int:
    parser = common.parser(__doc__, "solver_phases")
    parser.add_argument("--deals", type=int, default=200, help="random deals (positions, and the timed solves)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs of each line, round robin")
    parser.add_argument("--counts", action="store_true",
                        help="also count how often a solve runs each phase (a subprocess; minutes the first time)")
    parser.add_argument("--counts-child", action="store_true", help=__import__("argparse").SUPPRESS)
    args = parser.parse_args(argv)
    if args.counts_child:
        counts_child(args.deals, args.seed)
        return 0
    wall0 = time.perf_counter()
    log = common.logger(wall0)
    load_start = loadavg()
    deals = deal_batch(args.deals, args.seed)
    n_solves = len(deals) * svd.SOLVES_PER_DEAL
    hb, lb, tb, mg = sample_positions(deals, args.seed)
    two = np.nonzero([bin(int(h)).count("1") == 2 for h in hb[:, 0]])[0]
    h2, l2, t2 = hb[two], lb[two], tb[two]
    tt_keys, tt_data = fill_table(deals[: min(len(deals), 50)], LOG2)
    keyset = probe_keys(hb, lb, tb, LOG2)
    chunks = svd.build_dds_chunks(deals)
    svd.dds_set_threads(1)
    dds_tricks = svd.run_dds_all(chunks, len(deals))[2]
    if not np.array_equal(api.dd_table(deals, "tricks", threads=1), dds_tricks):
        raise SystemExit("kaiser-sim tricks differ from DDS")
    # the carry filter must agree with the pext one on every sampled turn (also compiles)
    if k_equiv_carry(mg, 1) != k_equiv_pext(mg, 1) or k_equiv_pext(mg, 1) != k_equiv_loops(mg, 1):
        raise SystemExit("equivalent-card filters disagree")
    if not (k_pack_native(hb, 1) == k_pack_table(hb, 1) == k_pack_loops(hb, 1)):
        raise SystemExit("pext variants disagree")
    log(f"{len(hb):,} trick-boundary positions, {len(h2):,} with two tricks left, {len(mg):,} turns")

    loops = 20
    phases = [
        ("bounds at trick start", lambda: k_bounds(hb, lb, tb, loops), len(hb)),
        ("position key", lambda: k_key(hb, lb, tb, loops), len(hb)),
        ("  key packing, pext instruction", lambda: k_pack_native(hb, loops), len(hb)),
        ("  key packing, tables (no pext)", lambda: k_pack_table(hb, loops), len(hb)),
        ("  key packing, pext as loops", lambda: k_pack_loops(hb, loops), len(hb)),
        ("TT bucket scan", lambda: k_probe(keyset, tt_keys, tt_data, loops), len(hb)),
        ("TT store mask", lambda: k_store_mask(hb, loops), len(hb)),
        ("move generation, equivalent cards (carries)", lambda: k_equiv_carry(mg, loops), len(mg)),
        ("  the same filter by pext / pdep (before)", lambda: k_equiv_pext(mg, loops), len(mg)),
        ("  the same filter by pext / pdep as loops", lambda: k_equiv_loops(mg, loops), len(mg)),
        ("two-trick endings", lambda: k_two(h2, l2, t2, loops), len(h2)),
    ]
    for _, fn, _ in phases:
        fn()
    ns = {name: [] for name, _, _ in phases}
    rates = {"DDS SolveAllBoards, tricks": [], "kaiser-sim dd_table, tricks": [], "kaiser-sim dd_table, points": []}
    # CPU time, not wall time: on a shared machine the other programs' load
    # stretches wall time, hardly the CPU time each line takes
    for rep in range(args.repeats):
        rates["DDS SolveAllBoards, tricks"].append(n_solves / svd.run_dds_all(chunks, len(deals))[1])
        for mode in ("tricks", "points"):
            t0 = time.process_time()
            api.dd_table(deals, mode, threads=1)
            rates[f"kaiser-sim dd_table, {mode}"].append(n_solves / (time.process_time() - t0))
        for name, fn, m in phases:
            t0 = time.process_time()
            fn()
            ns[name].append((time.process_time() - t0) / (loops * m) * 1e9)
        log(f"run {rep + 1}: DDS {rates['DDS SolveAllBoards, tricks'][-1]:,.0f} solves/s")
    counts = run_counts(args.deals, args.seed, log) if args.counts else None

    dds_rate = statistics.median(rates["DDS SolveAllBoards, tricks"])
    dds_ns = 1e9 / dds_rate
    lines = [
        "# kaiser-sim search, phase by phase", "",
        f"CPU: {cpu_summary()}.", "",
        f"{args.deals} random deals (seed {args.seed}); {len(hb):,} trick-boundary positions and {len(mg):,} turns "
        f"sampled from them by random play; {args.repeats} runs, round robin, median. All times are the "
        "process's CPU time (one thread each), so other programs' load hardly moves them.", "",
        "| solver | solves per CPU second (median) | min..max | ratio to DDS |", "|---|---:|---:|---:|",
    ]
    for name, rs in rates.items():
        lines.append(f"| {name} | {statistics.median(rs):,.0f} | {min(rs):,.0f}..{max(rs):,.0f} | "
                     f"{statistics.median(rs) / dds_rate:.3f} |")
    lines += ["", f"DDS takes {dds_ns / 1000:.1f} µs of CPU a solve in this run. Each phase alone (ns a call; lines "
              "indented are variants for comparison, not what the search runs on this CPU):", ""]
    head = "| phase | ns a call (median) | min..max |"
    sep = "|---|---:|---:|"
    if counts:
        head += " calls a solve, points | µs a solve, points | share of DDS's time a solve | calls a solve, tricks |"
        sep += "---:|---:|---:|---:|"
        cp, ct = per_solve(counts, "points"), per_solve(counts, "tricks")
    lines += [head, sep]
    for name, _, _ in phases:
        v = ns[name]
        row = f"| {name} | {statistics.median(v):.1f} | {min(v):.1f}..{max(v):.1f} |"
        if counts:
            key = name.strip()
            if key in cp:
                us = cp[key] * statistics.median(v) / 1000
                row += f" {cp[key]:,.0f} | {us:.1f} | {us * 1000 / dds_ns:.0%} | {ct[key]:,.0f} |"
            else:
                row += " | | | |"
        lines.append(row)
    if counts:
        lines += ["", f"Nodes a solve: points {cp['nodes']:,.0f}, tricks {ct['nodes']:,.0f} (counted on the same deals "
                  "by the diagnostic build). The rest of a node's time is the search loop itself: the move "
                  "ordering rules, the plies' bookkeeping, the winning ranks."]
        med = {k: statistics.median(v) for k, v in ns.items()}
        filt = cp["move generation, equivalent cards (carries)"] * (
            med["  the same filter by pext / pdep as loops"] - med["move generation, equivalent cards (carries)"]) / 1000
        pack = cp["position key"] * (med["  key packing, pext as loops"] - med["  key packing, tables (no pext)"]) / 1000
        lines += ["", "Where `pext` is slow (microcode on AMD before Zen 3, by published figures up to about 300 "
                  "cycles an instruction; the loops above stand in for it, not measured on such a CPU here), the "
                  "search would pay "
                  f"with the old filter {filt:.1f} µs a points solve more ({filt * 1000 / dds_ns:.0%} of DDS's time a "
                  f"solve), and {pack:.1f} µs more ({pack * 1000 / dds_ns:.0%}) with `pext` in the key instead of the "
                  "tables it uses there now."]
    lines += ["", "## Machine", "",
              f"- load average at start: {load_start}; at end: {loadavg()}",
              f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
              f"- command: `{common.command('solver_phases', argv)}`", ""]
    common.write_result(args.out, "\n".join(lines), log)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The call-frequencies study (kaiser_sim.studies.call_frequencies): its counts
against a naive loop over the same auctions, its tables' intervals, and its
report section."""

from __future__ import annotations

import numpy as np

from kaiser_sim.deal import deal_batch
from kaiser_sim.rules import Rules
from kaiser_sim.stats import wilson_interval
from kaiser_sim.strategy.policies import ladder_arrays
from kaiser_sim.studies import get_study
from kaiser_sim.studies.call_frequencies import call_counts

RULES = Rules()


def test_counts_against_a_naive_loop():
    deals = deal_batch(300, 17)
    c = call_counts("population", deals, RULES)
    lad = ladder_arrays(RULES)
    calls = c["calls"]
    for k in range(4):
        opened = faced = opens = overs = bids = nts = jumps = matches = 0
        for row in calls:
            before = [int(x) for x in row[:k] if x >= 0]
            high = max(before) if before else -1
            x = int(row[k])
            if high < 0:
                opened += 1
                opens += x >= 0
            else:
                faced += 1
                overs += x >= 0
                matches += (k == 3) and x == high
            if x >= 0:
                bids += 1
                nts += bool(lad.nt[x])
                # the cheapest legal bid of its kind: at the highest's rank for the dealer, above it else
                lo = max(high, 0) if k == 3 else high + 1
                cheapest = min(lad.levels[i] for i in range(lo, len(lad)) if lad.nt[i] == lad.nt[x])
                jumps += lad.levels[x] > cheapest
        d = c["pos"][k]
        assert d["open"] == (opens, opened) and d["over"] == (overs, faced)
        assert d["nt"] == (nts, bids) and d["jump"] == (jumps, bids)
        if k == 3:
            assert d["match"] == (matches, faced)
    assert c["passed_to_dealer"] == (int((calls[:, :3] < 0).all(axis=1).sum()), 300)
    assert sum(b[1][1] for b in c["pos"][0]["bands"]) == c["pos"][0]["open"][1]  # every hand in one band


def test_tables_intervals_and_section():
    study = get_study("call-frequencies")
    t = study.run(None, RULES, deals=200, seed=3, policies=["population", "ev"])
    bp = t["by_position"]
    assert len(bp) == 8 and set(bp["policy"]) == {"population", "ev"}
    for _, r in bp.iterrows():
        if r["open_n"]:
            lo, hi = wilson_interval(round(r["open"] * r["open_n"]), r["open_n"])
            assert np.isclose(r["open_lo"], lo) and np.isclose(r["open_hi"], hi)
    assert (t["auctions"]["level"] >= 6).all() and len(t["documents"]) > 0
    blocks, meaning, charts = study.section(t)
    assert len(blocks) == 5 and meaning and charts == ["call_frequencies_opening"]
    assert study.report_params(1_000_000) == {"deals": 20000} and study.report_params(4000) == {"deals": 2000}


def test_the_published_exploitability_is_the_benchmarks_and_the_section_quotes_it():
    """The record the report quotes holds the figures of benchmarks/results/exploitability.md (each policy's
    gain and interval, as printed there), lowest first, the population the lowest; the section prints it as
    its last table and names the least exploitable model; under other rules there is no figure."""
    from pathlib import Path

    from kaiser_sim.strategy.exploitability import published_exploitability

    rows = published_exploitability()
    assert {r["policy"] for r in rows} >= {"population", "listening", "score-aware", "ev", "cautious", "aggressive"}
    assert [r["gain"] for r in rows] == sorted(r["gain"] for r in rows) and rows[0]["policy"] == "population"
    md = (Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "exploitability.md").read_text("utf-8")
    for r in rows:
        assert r["lo"] < r["gain"] < r["hi"]
        assert f"**+{r['gain']:.2f}** [+{r['lo']:.2f}, +{r['hi']:.2f}]" in md, r
    study = get_study("call-frequencies")
    t = study.run(None, RULES, deals=100, seed=3, policies=["population"])
    assert list(t["exploitability"]["policy"]) == [r["policy"] for r in rows]
    blocks, meaning, _ = study.section(t)
    assert "exploitab" in blocks[-1].title.lower() and len(blocks[-1].df) == len(rows)
    assert any("against population, the least of the models measured" in line for line in meaning)
    other = study.run(None, Rules.preset("kitty-4"), deals=100, seed=3, policies=["ev"])
    assert other["exploitability"].empty and len(study.section(other)[0]) == 4


"""Advice by the level heard (kaiser_sim/studies/heard.py): the hands kept, the split and the figures
against a plain loop over the same auctions and the same play-outs (issue 43, item 4)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from kaiser_sim import config
from kaiser_sim.auction import call_text
from kaiser_sim.deal import deal_batch
from kaiser_sim.hands import STRENGTH_BUCKETS, strength
from kaiser_sim.rules import Rules
from kaiser_sim.runs.results import HAND_COLUMNS, SEAT_KEYS, STRAIN_SUFFIXES
from kaiser_sim.strategy.call_worth import playout_net
from kaiser_sim.strategy.policies import ACTIONS, PASS, get_policy, ladder_arrays, position_calls, run_auction
from kaiser_sim.studies.common import card_band
from kaiser_sim.studies.common import table_play_model
from kaiser_sim.studies.heard import HEARD, heard_blocks, heard_chart

N = 3000


@pytest.fixture(scope="module")
def results():
    """Random deals with made-up double-dummy points (the study reads them, it does not check them: the play-outs
    are call_worth's, tested there); the run's dealer of deal i is i % 4."""
    hands = deal_batch(N, 31)
    rng = np.random.default_rng(31)
    df = pd.DataFrame({c: hands[:, i] for i, c in enumerate(HAND_COLUMNS)})
    df.insert(0, "deal", np.arange(N))
    df["dealer"] = np.arange(N) % 4
    for leader in SEAT_KEYS:
        for strain in STRAIN_SUFFIXES[:5]:
            df[f"pts_{leader}_{strain}"] = rng.integers(-3, 13, N)
    return df


def test_heard_chart_against_a_plain_loop(results):
    rules = Rules()
    min_cell = 5
    chart, meta = heard_chart(results, rules, min_cell=min_cell)
    assert len(chart) > 0
    policy = get_policy(config.AUCTION_BIDDERS)
    hands = results[list(HAND_COLUMNS)].to_numpy(dtype=np.uint64)
    dealers = results["dealer"].to_numpy().astype(np.int64)
    calls = run_auction(hands, dealers, np.zeros((N, 2), dtype=np.int64), np.full(N, rules.target), rules, [policy],
                        np.zeros((N, 2), dtype=np.int64))
    model, _ = table_play_model(rules)
    lad = ladder_arrays(rules)
    word = lambda c: "pass" if c == PASS else call_text(lad.bids[c])  # noqa: E731
    pts = results[[f"pts_{s}_{t}" for s in SEAT_KEYS for t in STRAIN_SUFFIXES[:5]]].to_numpy().reshape(N, 4, 5)
    for heard, position, before in HEARD:
        k = position - 1
        rows = [i for i in range(N) if tuple(word(int(c)) for c in calls[i, :k]) == before]
        assert meta.extra["heard_n"][heard] == len(rows)
        for _, r in chart[chart["heard"] == heard].iterrows():
            band = [i for i in rows if card_band(next(b[0] for b in STRENGTH_BUCKETS if b[1] <= strength(
                hands[i:i + 1, (dealers[i] + 1 + k) % 4])[0] <= b[2])) == r["count"]]
            odd = np.array([i for i in band if i % 2 == 1])
            assert r["n"] == odd.size and r["n_choose"] == len(band) - odd.size
            acts = position_calls(calls[odd], k, rules)
            nets = {}
            for j, name in enumerate(ACTIONS):
                if (acts[:, j] != -2).all():
                    nets[j], _ = playout_net(hands[odd], dealers[odd], calls[odd], k, acts[:, j], rules, policy,
                                             pts[odd], None if r["measure"] == "double dummy" else model)
            best = [j for j in nets if r["best"] in ("pass", word(int(acts[0, j])), f"take it at {word(int(acts[0, j]))}")
                    and (ACTIONS[j] == "pass") == (r["best"] == "pass")]
            assert best, r["best"]
            assert nets[best[0]].mean() == pytest.approx(r["best_net"], abs=1e-9)


def test_heard_blocks_print_every_auction_asked_about(results):
    chart, meta = heard_chart(results, Rules(), min_cell=5)
    blocks = heard_blocks(chart, meta)
    tables = {b.name: b for b in blocks if hasattr(b, "df")}
    assert list(tables["heard-grid"].df.columns)[1:] == [h for h, *_ in HEARD]
    assert [int(v.replace(",", "")) for v in tables["heard-how-often"].df["deals"]] == [
        meta.extra["heard_n"][h] for h, *_ in HEARD]
    assert len(tables["heard-figures"].df) == len(chart)

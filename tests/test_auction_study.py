"""The auction study (kaiser_sim.studies.auction) against a plain loop:
each deal bid once around through the one-hand ``Policy.call``."""

from __future__ import annotations

import numpy as np
import pytest

from kaiser_sim.auction import call_text
from kaiser_sim.deal import deal_batch
from kaiser_sim.hands import strength
from kaiser_sim.policies import get_policy
from kaiser_sim.rules import Rules
from kaiser_sim.studies import StudyError, get_study
from kaiser_sim.studies.common import results_frame
from kaiser_sim.studies.runner import check_params

STANDARD = Rules.preset("standard")


@pytest.fixture(scope="module")
def small():
    deals = deal_batch(160, 4)
    frame = results_frame(deals, points=np.zeros((160, 4, 5)), seed=4)  # the study reads only the hands
    return deals, get_study("auction").run(frame, STANDARD, min_cell=5)


def test_sequences_and_calls_are_those_of_a_plain_loop(small):
    deals, t = small
    ev = get_policy("ev")
    seqs, opens_6 = [], []
    for i, d in enumerate(deals):
        dealer, calls = i % 4, []
        for k in range(4):
            s = (dealer + 1 + k) % 4
            calls.append(ev.call(int(d[s]), tuple(calls), seat=s, dealer=dealer, rules=STANDARD))
        seqs.append(" ".join(call_text(c) for c in calls))
        if calls[0] is not None and str(calls[0]) == "6":
            opens_6.append(int(d[(dealer + 1) % 4]))
    s = t["sequences"]
    assert s["k"].sum() == 160 and s["p"].sum() == pytest.approx(1.0)
    top = s.iloc[0]
    assert top["k"] == max(seqs.count(x) for x in set(seqs)) and seqs.count(top["sequence"]) == top["k"]
    c = t["calls"]
    row = c[(c["position"] == "1") & (c["situation"] == "opens") & (c["call"] == "6")].iloc[0]
    assert row["n"] == len(opens_6)
    assert row["count_mean"] == pytest.approx(strength(np.array(opens_6, dtype=np.uint64)).mean())
    anyhand = c.iloc[0]
    assert anyhand["situation"] == "any hand" and anyhand["n"] == 640 and anyhand["5H_mean"] == 0.25
    assert t["positions"][["pass", "bid", "bid NT"]].sum(axis=1).to_numpy() == pytest.approx(np.ones(4))


def test_what_a_pass_says(small):
    """An opening pass shows a weaker hand than an opening bid."""
    c = small[1]["calls"]
    first = c[(c["position"] == "1") & (c["situation"] == "opens")].set_index("call")
    if "pass" in first.index:
        assert first.loc["pass", "count_mean"] < first.loc["6", "count_mean"]


def test_parameters_are_checked():
    module = get_study("auction")
    with pytest.raises(StudyError, match="bidders"):
        check_params(module, {"bidders": "nobody"})
    check_params(module, {"bidders": "cautious", "top_share": 0.5})
    with pytest.raises(ValueError, match="top_share"):
        module.run(results_frame(deal_batch(8, 1), points=np.zeros((8, 4, 5)), seed=1), STANDARD, top_share=1.5)

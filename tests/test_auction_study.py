"""The auction study (kaiser_sim.studies.auction) against a plain loop:
each deal bid once around through the one-hand ``Policy.call``."""

from __future__ import annotations

import numpy as np
import pytest

from kaiser_sim import config
from kaiser_sim.auction import call_text
from kaiser_sim.deal import deal_batch
from kaiser_sim.hands import strength
from kaiser_sim.strategy.policies import get_policy
from kaiser_sim.rules import Rules
from kaiser_sim.studies import StudyError, get_study
from kaiser_sim.studies.common import results_run
from kaiser_sim.studies.runner import check_params

STANDARD = Rules.preset("standard")


@pytest.fixture(scope="module")
def small():
    deals = deal_batch(160, 4)
    run_results = results_run(deals, points=np.zeros((160, 4, 5)), seed=4)  # the study reads only the hands
    return deals, get_study("auction").run(run_results, STANDARD, min_cell=5)


def test_sequences_and_calls_are_those_of_a_plain_loop(small):
    deals, t = small
    ev = get_policy(config.AUCTION_BIDDERS)  # the study's default bidding model
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
    """An opening pass shows a weaker hand than an opening bid (the bids'
    mean count weighted by how often each is made: the population opens 6
    on middling hands as well as on good ones, and jumps on the strongest)."""
    c = small[1]["calls"]
    first = c[(c["position"] == "1") & (c["situation"] == "opens")].set_index("call")
    bids = first.drop(index="pass", errors="ignore")
    assert "pass" in first.index and len(bids)
    assert first.loc["pass", "count_mean"] < np.average(bids["count_mean"], weights=bids["n"])


def test_parameters_are_checked():
    module = get_study("auction")
    with pytest.raises(StudyError, match="bidders"):
        check_params(module, {"bidders": "nobody"})
    check_params(module, {"bidders": "cautious", "top_share": 0.5})
    with pytest.raises(ValueError, match="top_share"):
        module.run(results_run(deal_batch(8, 1), points=np.zeros((8, 4, 5)), seed=1), STANDARD, top_share=1.5)


def test_a_dealers_pass_worked_by_hand():
    """W deals after N 6, E pass, S 7; a scripted model names hearts.  W
    passing lets S play 7 in hearts: N-S score r (>= 7) or -7, E-W 10 - r;
    W's net is E-W's minus N-S's, read from the double-dummy table."""
    from kaiser_sim.strategy.call_worth import ACTIONS, playout_net, position_calls
    from kaiser_sim.dd import dd_table
    from kaiser_sim.strategy.policies import PASS, Policy, ladder_arrays

    class Hearts(Policy):
        name = "hearts"

        def bid(self, view):
            return np.full(len(view), PASS, dtype=np.int16)

        def trump(self, view, rank):
            return np.full(len(view), 1)

    deals = deal_batch(6, 8)
    pts = np.asarray(dd_table(deals)).astype(int)
    lad = ladder_arrays(STANDARD)
    calls = np.tile(np.array([lad.rank("6"), PASS, lad.rank("7"), PASS], dtype=np.int16), (6, 1))
    acts = position_calls(calls, 3, STANDARD)
    assert list(acts[0]) == [PASS, lad.rank("8"), lad.rank("7NT"), lad.rank("9"), lad.rank("8NT"), lad.rank("7")]
    assert ACTIONS[5] == "match"
    net, who = playout_net(deals, np.full(6, 3), calls, 3, np.full(6, PASS), STANDARD, Hearts(), pts)
    r = pts[:, 2, 1]  # S on lead in hearts
    ns = np.where(r >= 7, r, -7)
    assert np.array_equal(net, (10 - r) - ns) and (who == 2).all()
    net, who = playout_net(deals, np.full(6, 3), calls, 3, np.full(6, lad.rank("7")), STANDARD, Hearts(), pts)
    w = pts[:, 3, 1]  # W matches 7, plays it in hearts
    assert np.array_equal(net, np.where(w >= 7, w, -7) - (10 - w)) and (who == 3).all()


def test_the_call_chart_reports_on_the_other_half(small):
    ch = small[1]["call_chart"]
    assert set(ch["situation"]) <= {"opens", "after partner's bid", "after an opponent's bid", "dealer facing a bid"}
    for _, r in ch.iterrows():
        assert r[f"net {r['best']}"] == pytest.approx(r["best_net"])
        assert r["settled"] == (r["runner_up"] is not None and r["diff_lo"] > 0)


def test_a_bid_heard_now_and_then_too_high_does_not_leave_pass_alone():
    """Partner opened 6 on 199 deals and 12NT on one (a soft bidding model
    makes every call now and then): third seat still compares its bids, on
    the 199 hands where they are legal, instead of reporting pass settled
    with nothing beside it."""
    from kaiser_sim.dd import dd_table
    from kaiser_sim.strategy.policies import PASS, ladder_arrays
    from kaiser_sim.studies.auction import call_chart

    n = 200
    deals = deal_batch(n, 11)
    pts = np.asarray(dd_table(deals)).astype(float)
    lad = ladder_arrays(STANDARD)
    calls = np.tile(np.array([lad.rank("6"), PASS, PASS, PASS], dtype=np.int16), (n, 1))
    calls[1, 0] = lad.rank("12NT")  # deal 1: an odd deal, on the reporting half
    count_ = np.full((n, 4), 9.0)  # one count band for every hand
    chart, _ = call_chart(results_run(deals, points=pts, seed=11).frame, STANDARD, get_policy("population"), calls,
                          np.zeros(n, dtype=np.int64), count_, min_cell=20)
    row = chart[(chart["position"] == 3) & (chart["situation"] == "after partner's bid")].iloc[0]
    assert row["runner_up"] is not None and not np.isnan(row["net NT"])
    assert row["n"] == n // 2 - 1  # the odd deals but the one where partner bid 12NT

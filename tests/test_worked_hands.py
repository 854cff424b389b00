"""Worked hands (issue 43, item 2): read from the advisor's JSON document and the card's net chart."""

from __future__ import annotations

import pandas as pd
import pytest

from kaiser_sim.rules import get_preset
from kaiser_sim.strategy.advisor import advise
from kaiser_sim.studies.worked_hands import WORKED_HANDS, WorkedHand, hand_words, work_hand, worked_blocks

RULES = get_preset("standard")
N = 24  # the advisor's deals: enough to read its document, kept small for speed


def test_hand_words():
    assert hand_words("AKQ8.5.T9.8") == "♠ A K Q 8  ♥ 5  ♦ 10 9  ♣ 8"
    assert hand_words("AKJ98.85.A.") == "♠ A K J 9 8  ♥ 8 5  ♦ A  ♣ —"


def test_at_least_eight_hands_and_the_rule_sheets_examples():
    assert len(WORKED_HANDS) >= 8
    assert sum(w.sheet_bid is not None for w in WORKED_HANDS) >= 2
    assert any(w.auction != "none" for w in WORKED_HANDS)


@pytest.fixture(scope="module")
def worked():
    w = WorkedHand("AKQ8.5.T9.8", "the test", sheet_bid="8")
    net = pd.DataFrame([{"strength": "8.5-9", "trump_len": "4", "limit": "9", "settled": True, "why": "",
                         "declare_limit": "7", "declare_settled": False, "declare_why": "few hands"}])
    return w, work_hand(w, net, RULES, N, 1), advise(w.hand, seat="N", n=N, seed=1, rules=RULES, check=0,
                                                      specials=False, auction="none").to_dict()


def test_count_and_cell_by_hand(worked):
    _, row, _ = worked
    # A K Q of spades (2 + 1 + 1/2), four trumps (4), the 5H (1/2), the constant (1/2): 8.5; on the card 2 x 8.5 - 1
    assert row["kaiser_count"] == 8.5 and row["count"] == 16 and row["row"] == "16-17"
    assert row["trump"] == "spades" and row["column"] == "4" and row["card"] == "7?"


def test_the_advisors_call_and_figures_come_from_its_document(worked):
    _, row, doc = worked
    rec = doc["recommendation"]
    assert row["advisor"].startswith(rec["call"])
    # the card's measure for this hand: expected hand score minus the opponents' expected points (10 less the
    # declaring side's mean points in the bid's strain), worked from the document by hand
    pts = {k: v["points"]["table"]["mean"] for k, v in doc["strains"].items()}
    positive = [b["bid"] for b in doc["bids"] if b["expected"]["table"]["mean"] - (10 - pts[b["strain"]]) > 0]
    want = max(positive, key=lambda c: float(c.replace("NT", "")) + 0.5 * c.endswith("NT")) if positive else "pass"
    assert row["advisor_highest"] == want
    eight = next(b for b in doc["bids"] if b["bid"] == "8")
    assert f"the rule sheet's bid, 8 in spades, makes {round(100 * eight['make']['table']['p'])}" in row["figures"]
    blocks = worked_blocks([row], N)
    text = " ".join(getattr(b, "text", "") for b in blocks)
    assert "Chosen for the test" in text and row["card"] in text


def test_a_good_hand_told_to_pass_says_why_from_the_advisors_figures():
    """AK93.5.AK.8 first to call, on 300 deals of seed 0: the advisor passes (a tie with its best bid) with a
    positive net; the worked hand says why with the advisor's own after-pass figures, in the text and in the
    figures table."""
    w = WorkedHand("AK93.5.AK.8", "the why")
    row = work_hand(w, None, RULES, 300, 0)
    doc = advise(w.hand, seat="N", n=300, seed=0, rules=RULES, check=0, specials=False, auction="none").to_dict()
    rec = doc["recommendation"]
    assert rec["call"] == "pass" and rec["tie"] and rec["value"]["table"]["mean"] > 0
    after = rec["after_pass"]
    share = f"{100 * after['opponents_declare']:.0f}%"
    assert row["why"].startswith(f"after the pass the opponents declare {share} of the deals")
    assert f"{after['net_when_they_declare']['mean']:+.2f}" in row["why"]
    blocks = worked_blocks([row], 300)
    text = " ".join(getattr(b, "text", "") for b in blocks)
    assert "Why pass: " + row["why"] in text
    figures = next(b for b in blocks if getattr(b, "name", "") == "example-hands-figures")
    assert figures.df["after a pass: they declare, your net"].iloc[0] == row["after_pass"]
    assert row["after_pass"].startswith(share)

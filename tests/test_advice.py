"""The rule sheets' advice, tested (issue 43, item 3): verdicts from intervals, figures from the tables."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from kaiser_sim.studies import advice
from kaiser_sim.studies.advice import ADVICE, advice_rows, rules_of_thumb, verdict


def test_verdict_from_the_interval():
    assert verdict(0.27, 0.29, 1.0) == "refuted"  # a claim that it lies above 1
    assert verdict(1.1, 1.3, 1.0) == "holds"
    assert verdict(0.9, 1.1, 1.0) == "unsettled"
    assert verdict(0.44, 0.46, 0.5, claim_above=False) == "holds"
    assert verdict(float("nan"), 1.0, 0.5) == "unsettled"


def _tables():
    cf = pd.DataFrame([{"receiver": "any other hand", "swap": "like for like", "role": "you declare",
                        "strain": "trump by rule", "n": 1000, "mean": 0.43, "lo": 0.41, "hi": 0.44,
                        "tp_mean": 0.28, "tp_lo": 0.27, "tp_hi": 0.29}])
    h5 = pd.DataFrame([{"n": 1000, "mean": 3.05, "lo": 3.04, "hi": 3.06, "all_of_it": 0.55, "all_of_it_lo": 0.54,
                        "all_of_it_hi": 0.56, "none_of_it": 0.33, "none_of_it_lo": 0.32, "none_of_it_hi": 0.34}])
    s3 = pd.DataFrame([{"n": 1000, "mean": -0.53, "lo": -0.5345, "hi": -0.5275, "all_of_it": 0.06,
                        "all_of_it_lo": 0.058, "all_of_it_hi": 0.061, "none_of_it": 0.66, "none_of_it_lo": 0.65,
                        "none_of_it_hi": 0.67}])
    make = pd.DataFrame([{"method": "trump by rule, table play", "bid": b, "n": 1000, "p": p, "lo": p - 0.01,
                          "hi": p + 0.01} for b, p in ((7, 0.557), (8, 0.453))])
    nt = pd.DataFrame([{"level": lv, "aces": a, "nt_minus_trump": m, "lo": m - 0.2, "hi": m + 0.2}
                       for lv in (6, 8) for a, m in (("all", -1.0), ("0 aces", -3.0), ("1 aces", -1.0),
                                                     ("3 aces", 2.0), ("4 aces", 3.0))])
    lead = pd.DataFrame([{"strain": "trump by rule", "n": 1000, "mean": 1.2014, "lo": 1.1992, "hi": 1.2037}])
    return {"five-hearts": {"counterfactual": cf, "worth_overall": h5}, "three-spades": {"worth_overall": s3},
            "bid-odds": {"make": make}, "trump-and-nt": {"nt_vs_trump_table_play": nt}, "lead": {"summary": lead}}


def test_each_piece_of_advice_gets_its_verdict_and_its_figure():
    rows = {r["key"]: r for r in advice_rows(_tables())}
    assert rows["five-hearts-level"]["verdict"] == "refuted" and "+0.28 [0.27, 0.29]" in rows["five-hearts-level"][
        "numbers"]
    assert rows["five-hearts-sure"]["verdict"] == "refuted" and "55.0 [54.0, 56.0]%" in rows["five-hearts-sure"][
        "numbers"]
    assert rows["three-spades-partner"]["verdict"] == "refuted" and "0.53 [0.53, 0.53]" not in rows[
        "three-spades-partner"]["numbers"]  # a narrow interval gets more decimals, never [x, x]
    assert rows["three-spades-opponents"]["verdict"] == "holds"
    assert rows["seven-eight"]["verdict"] == "holds" and "45.3 [44.3, 46.3]%" in rows["seven-eight"]["numbers"]
    assert rows["nt-aces"]["verdict"] == "holds"
    # advice whose study is not in the report is left out
    assert "dealer-privilege" not in rows and "trump-longest" not in rows


def test_a_reversed_table_reverses_the_verdict():
    t = _tables()
    t["five-hearts"]["counterfactual"].loc[0, ["tp_mean", "tp_lo", "tp_hi"]] = [1.3, 1.2, 1.4]
    t["bid-odds"]["make"].loc[1, ["p", "lo", "hi"]] = [0.6, 0.59, 0.61]
    rows = {r["key"]: r for r in advice_rows(t)}
    assert rows["five-hearts-level"]["verdict"] == "holds" and rows["seven-eight"]["verdict"] == "refuted"


def test_rules_of_thumb_are_at_most_five_and_carry_their_tables_figures():
    thumbs = rules_of_thumb(_tables())
    assert 1 <= len(thumbs) <= 5
    joined = " ".join(thumbs)
    for figure in ("+0.28 [0.27, 0.29]", "45.3 [44.3, 46.3]", "+1.2014"[:5]):
        assert figure in joined
    assert rules_of_thumb({}) == []


def test_the_advice_lives_in_the_repository():
    """The advice is kept in the package, in its own words, each with its source (docs/rules.md names them)."""
    src = Path(advice.__file__).read_text(encoding="utf-8")
    assert "/work/shared" not in src and "seeds" not in src
    rules_doc = (Path(advice.__file__).parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    for a in ADVICE:
        for source in a.source.split(", "):
            assert f"**{source}" in rules_doc or source in rules_doc

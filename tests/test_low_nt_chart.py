"""The bidding chart under low no trump (issue 44): low NT bids (``low_nt =
"bid"``, the ``low-nt`` preset) are scored in the chart's expected tables,
played in low no trump, and may be the best bid; the limits stay the plain
and high NT bids'.  The figures are recomputed hand by hand from a direct
solve through the door (:func:`kaiser_sim.game.contract_values` in
:data:`kaiser_sim.game.LOW_NT`), not from the run's columns, and scored by
:func:`kaiser_sim.scoring.score_hand`.  The code before this change left the
low bids out of every table."""

from __future__ import annotations

import numpy as np
import pytest

from kaiser_sim.auction import Contract, ladder
from kaiser_sim.game import LOW_NT, contract_values
from kaiser_sim.rules import get_preset
from kaiser_sim.runs.results import load_run
from kaiser_sim.scoring import score_hand
from kaiser_sim.studies import bidding_chart
from kaiser_sim.studies.common import declarer_frame, hands_array

RULES = get_preset("low-nt")


@pytest.fixture(scope="module")
def chart(tmp_path_factory):
    from kaiser_sim.runs.simulate import simulate

    path = tmp_path_factory.mktemp("lnt") / "run"
    simulate(path, 240, 6, mode="points", rules=RULES, workers=1)
    run = load_run(path)
    tables = bidding_chart.run(run, RULES, min_cell=20, net_deals=0, top_up=0)
    return run, tables


def test_low_nt_bids_are_in_the_expected_tables(chart):
    _, tables = chart
    lows = [str(b) for b in ladder(RULES) if b.low]
    assert lows and all(s.endswith("-low") for s in lows)
    for key in ("expected", "expected_table_play", "expected_by_strength", "expected_by_strength_table_play"):
        bids = set(tables[key]["bid"])
        assert set(lows) <= bids, key
    # "the count needed" reads a count that makes a bid pay from there up: low NT pays with weak hands
    for key in ("thresholds", "thresholds_table_play"):
        assert not set(lows) & set(tables[key]["bid"]), key
        assert "low NT bids are left out" in tables.meta(key).note
    # the limits are the plain and high NT bids'
    for key in ("chart", "chart_table_play"):
        for col in ("bid_up_to", "bid_up_to_sure", "nt_up_to", "nt_up_to_sure"):
            assert not tables[key][col].astype(str).str.endswith("-low").any(), (key, col)


def test_a_low_bids_expected_score_is_the_low_contracts_score_hand_by_hand(chart):
    run, tables = chart
    d = declarer_frame(run.frame, RULES)
    deals = hands_array(run.frame)
    n = len(deals)
    # each seat declaring in low NT, solved directly (not read from the run)
    seats = np.tile(np.arange(4), n)
    rows = np.repeat(np.arange(n), 4)
    side, _ = contract_values(deals[rows], None, seats, np.full(4 * n, LOW_NT), RULES)
    assert np.array_equal(d["lnt_pts"].to_numpy(), side)  # the frame's column is the low contract's value
    exp = tables["expected"].set_index(["strength", "trump_len", "bid"])
    checked = 0
    for (sb, lb), idx in d.groupby(["strength_bucket", "length_bucket"], observed=True).indices.items():
        if len(idx) < 20:
            continue
        for b in (b for b in ladder(RULES) if b.low and b.level in (6, 8)):
            want = np.mean([score_hand(RULES, Contract(b, 0, 4, low=True), int(side[i])).delta[0] for i in idx])
            assert exp.loc[(sb, lb, str(b)), "expected"] == pytest.approx(want)
            made = np.mean(side[idx] >= b.level)
            assert exp.loc[(sb, lb, str(b)), "p_make"] == pytest.approx(made)
            checked += 1
    assert checked >= 4
    # low NT is not high NT: some cell's low bid differs from its high NT bid
    e = tables["expected"]
    hi = e[e["bid"] == "6NT"].set_index(["strength", "trump_len"])["expected"]
    lo = e[e["bid"] == "6NT-low"].set_index(["strength", "trump_len"])["expected"]
    assert (hi - lo).abs().max() > 0.5


def test_worked_hands_read_low_nt_bids():
    """The report's worked hands under low NT: the advisor's bids include low
    NT ones (``8NT-low``), which the hand's own limit ranks just above high NT
    of their number (the code before failed reading them)."""
    from kaiser_sim.studies.worked_hands import WORKED_HANDS, _call_words, _level, worked_rows

    assert _level("pass") < _level("8") < _level("8NT") < _level("8NT-low") < _level("9")
    assert _call_words("8NT-low", "L") == "8NT-low"
    rows = worked_rows(None, RULES, deals=40, seed=1, hands=WORKED_HANDS[:2])
    assert all("error" not in r for r in rows)
    assert any(r["advisor_highest"].endswith("-low") for r in rows), [r["advisor_highest"] for r in rows]

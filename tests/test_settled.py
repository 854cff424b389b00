"""Why a what-to-bid limit is not settled (issue: the edition's cheat sheet says why a cell cannot settle)."""
import numpy as np
import pandas as pd

from kaiser_sim.studies.bidding_chart import BOUNDARY, limit_mark, settled_share, unsettled_reason
from kaiser_sim.studies.common import StudyTables, TableMeta, mean_row


def _row(mean, half):
    return {"mean": mean, "lo": mean - half, "hi": mean + half}


def test_settled_has_no_reason():
    assert unsettled_reason([]) == ""


def test_a_bid_scoring_near_zero_is_on_the_boundary():
    assert unsettled_reason([(_row(0.03, 0.2), _row(0.03, 0.1))]) == "boundary"
    assert unsettled_reason([(_row(-BOUNDARY, 0.2), _row(-BOUNDARY, 0.2))]) == "boundary"
    assert unsettled_reason([(_row(0.06, 0.2), _row(0.06, 0.2))]) == "few hands"


def test_model_error_alone_is_named():
    # the deals alone put the bid above 0; the model's error added makes the interval reach 0
    assert unsettled_reason([(_row(0.3, 0.4), _row(0.3, 0.1))]) == "model"
    # one judgement decided by the deals, the other not: more hands are still needed
    assert unsettled_reason([(_row(0.3, 0.4), _row(0.3, 0.1)), (_row(-0.2, 0.4), _row(-0.2, 0.3))]) == "few hands"


def test_reasons_on_sampled_values():
    # a bid worth +0.5 on average settles with enough hands; one worth 0 never does
    rng = np.random.default_rng(1)
    few = rng.normal(0.5, 3.0, 50)
    many = rng.normal(0.5, 3.0, 20000)
    zero = rng.normal(0.0, 3.0, 20000)
    r = mean_row(few, np.arange(few.size))
    assert r["lo"] < 0 and unsettled_reason([(r, r)]) == "few hands"
    r = mean_row(many, np.arange(many.size))
    assert r["lo"] > 0  # settled: nothing fails
    z = zero - zero.mean()  # exactly 0 on average
    r = mean_row(z, np.arange(z.size))
    assert unsettled_reason([(r, r)]) == "boundary"


def test_marks_and_share():
    chart = pd.DataFrame([
        {"settled": True, "nt_settled": False, "why": "", "nt_why": "boundary"},
        {"settled": False, "nt_settled": False, "why": "few hands", "nt_why": "model"},
    ])
    marks = [(limit_mark(r), limit_mark(r, True)) for _, r in chart.iterrows()]
    assert marks == [("", "≈"), ("?", "*")]
    assert settled_share(chart) == (1, 4)
    # a chart written before the reasons existed marks every unsettled limit '?'
    old = chart.drop(columns=["why", "nt_why"])
    assert [limit_mark(r, True) for _, r in old.iterrows()] == ["?", "?"]


def test_the_grids_note_points_to_the_edition_only_from_a_smaller_run():
    from kaiser_sim.studies.bidding_chart import EDITION_DEALS, cheat_sheet

    chart = pd.DataFrame([{"strength": "8-8.5", "trump_len": "4", "bid_up_to": "7", "nt_up_to": "pass",
                           "settled": False, "nt_settled": True, "why": "few hands", "nt_why": ""}])
    for n, points in ((4_000, True), (EDITION_DEALS, False)):
        tables = StudyTables({"chart": chart}, {"chart": TableMeta(run={"n": n})})
        note = " ".join(b.text for b in cheat_sheet(tables))
        assert ("make sample" in note) == points and "settled 1/2 limits (50%)" in note

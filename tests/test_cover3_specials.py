"""The 5H/3S table-play views under cover 3 (issue 44): the defenders' table points.

Under cover 3 the two sides' double-dummy points need not add to 10 (a side under 3 tricks scores neither its
5H nor, with the 3S, ... : kaiser_sim.game.cover3_points).  The table-play model is the declaring side's, so
the defenders take their own DD points less what the declaring side's play gains on its DD value.  A model
that plays exactly double dummy must then give back the DD worths; "the rest of the total" (the old rule)
does not.
"""

from __future__ import annotations

import numpy as np
import pytest

from kaiser_sim.cards import FIVE_HEARTS, THREE_SPADES
from kaiser_sim.rules import get_preset
from kaiser_sim.runs.results import load_run
from kaiser_sim.studies.common import run_points

COVER3 = get_preset("standard").with_overrides(["cover3=true"])


def _exact_model():
    from kaiser_sim.strategy.table_play import TablePlayModel

    eye = np.eye(15)
    return TablePlayModel(np.stack([eye, eye]), np.zeros((2, 15), dtype=np.int64), {})


@pytest.fixture(scope="module")
def cover3_run(tmp_path_factory):
    from kaiser_sim.runs.simulate import simulate

    path = tmp_path_factory.mktemp("c3s") / "r"
    simulate(path, 300, 8, mode="points", rules=COVER3, workers=1)
    return load_run(path)


@pytest.fixture
def exact_play(monkeypatch):
    import kaiser_sim.studies.specials as specials

    monkeypatch.setattr(specials, "table_play_model", lambda rules: (_exact_model(), ""))


@pytest.mark.parametrize("card", [FIVE_HEARTS, THREE_SPADES])
def test_observed_in_exact_table_play_is_the_double_dummy_view(cover3_run, exact_play, card):
    from kaiser_sim.studies.specials import observed

    frame = cover3_run.frame
    lead, other = run_points(frame, COVER3)
    inside = ((lead >= -2) & (other >= -2)).all(axis=(1, 2))  # the model's axis is -2..12: -3 would read as -2
    sub = frame[inside]
    lead, other = run_points(sub, COVER3)
    assert ((lead + other) != 10).any()  # cover 3 parts the sides on these deals
    out = observed(sub, COVER3, card)
    assert len(out) and out["tp_mean"].notna().all()
    assert np.allclose(out["tp_mean"], out["mean"]), out[["role", "strain", "receiver", "mean", "tp_mean"]]
    # (in this view an exact model cannot tell the defenders' rule from the old one: your own DD points mapped
    # through "the rest of the total" come back unchanged too; the swap below tells them apart)


def test_the_swap_in_exact_table_play_is_the_double_dummy_worth(cover3_run, exact_play):
    from kaiser_sim.studies.specials import counterfactual

    *_, rec = counterfactual(cover3_run.frame, COVER3, FIVE_HEARTS, max_resolve=120)
    inside = (rec["decl_with"] >= -2) & (rec["decl_without"] >= -2)
    assert inside.mean() > 0.8
    assert np.allclose(rec.loc[inside, "tp_worth"], rec.loc[inside, "worth"])

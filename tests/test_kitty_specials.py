"""The 5H/3S studies' observed view (b) under a 4-card kitty whose 5H or 3S
the declarer may discard to nobody (``kitty-4``, issue 44): the defenders'
points are solved through the door where the declarer holds a special after
taking up the kitty (:class:`kaiser_sim.studies.common.SolvedOther`), not
taken as the rest of the total.  Checked against both sides solved in full
through the door (:func:`kaiser_sim.game.side_tables`, the solve the
studies' re-solved views use); the rest-of-the-total arithmetic of the code
before gives another table."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from kaiser_sim.cards import FIVE_HEARTS, THREE_SPADES
from kaiser_sim.deal import kitty_of
from kaiser_sim.game import side_tables
from kaiser_sim.rules import get_preset
from kaiser_sim.runs.results import load_run
from kaiser_sim.studies import specials
from kaiser_sim.studies.common import hands_array

RULES = get_preset("kitty-4")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    from kaiser_sim.runs.simulate import simulate

    path = tmp_path_factory.mktemp("k4s") / "run"
    simulate(path, 40, 8, mode="points", rules=RULES, workers=1)
    return load_run(path)


@pytest.mark.parametrize("card", [FIVE_HEARTS, THREE_SPADES])
def test_the_observed_view_reads_the_defenders_points_solved(run, card, monkeypatch):
    results = run.frame
    got = specials.observed(results, RULES, card, trump_rule="longest-strength")
    deals = hands_array(results)
    lead, other = side_tables(deals, RULES, kitty_of(deals, deck34=RULES.deck34))
    assert not np.array_equal(other, RULES.raw_total - lead)  # a special discarded to nobody on some deal

    def solved(res, rules, **kw):
        return lead, other

    with monkeypatch.context() as m:  # both sides from the full solve
        m.setattr(specials, "run_points", solved)
        m.setattr(specials, "sides_from_run", lambda rules: True)
        want = specials.observed(results, RULES, card, trump_rule="longest-strength")
    pd.testing.assert_frame_equal(got, want)
    with monkeypatch.context() as m:  # the old arithmetic: the defenders at the rest of the total
        m.setattr(specials, "sides_from_run", lambda rules: True)
        old = specials.observed(results, RULES, card, trump_rule="longest-strength")
    assert not old[["mean_with", "mean_without"]].equals(want[["mean_with", "mean_without"]])

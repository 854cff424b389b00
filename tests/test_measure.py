"""One answer to "table play or double dummy under these rules, and why"
(kaiser_sim.strategy.measure.measure_for), read alike by the advisor, the
policies, the match engine and the studies."""

from __future__ import annotations

import pytest

from kaiser_sim.strategy import advisor, match, policies
from kaiser_sim.rules import PRESETS, Rules
from kaiser_sim.studies import common
from kaiser_sim.strategy.measure import measure_for
from kaiser_sim.strategy.table_play import load_model

GAMES = [Rules.preset(p) for p in PRESETS] + [Rules.preset("standard").with_overrides(["cover3=true"]),
                                              Rules.preset("kitty-4").with_overrides(["cover3=true"])]


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.label)
def test_every_caller_reads_the_same_measure(rules):
    m = measure_for(rules)
    assert m.requested == "table" and m.used == "table" and m.table_model is not None and not m.reason
    assert policies.play_used(rules) == m.used
    assert policies.play_note(rules) == m.note
    assert match.engine_for("table", rules)[0] == m.used
    assert (common.table_play_model(rules)[0] is not None) == m.table
    assert advisor.table_play_for("table", rules)[0].used == m.used


def test_double_dummy_when_asked():
    m = measure_for(Rules(), "dd")
    assert (m.used, m.table_model, m.reason) == ("dd", None, "")
    assert advisor.table_play_for("dd", Rules())[0].used == "dd"
    assert match.engine_for("dd", Rules())[0] == "dd"


def test_a_model_of_another_game_falls_back_with_its_reason():
    standard = load_model(rules=Rules())
    kitty = Rules.preset("kitty-4")
    m = measure_for(kitty, "table", standard)
    assert m.used == "dd" and m.table_model is None and m.reason
    info, model = advisor.table_play_for("table", kitty, table_model=standard)
    assert info.used == "dd" and model is None and info.reason == m.reason
    used, note, _ = match.engine_for("table", kitty, standard)
    assert used == "dd" and m.reason in note


def test_a_game_without_its_own_model_names_the_one_standing_in():
    m = measure_for(GAMES[-1])  # kitty-4 with cover 3: no model of its own is shipped
    assert m.table and "model is used" in m.note

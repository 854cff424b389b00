"""The capability table (kaiser_sim.strategy.capabilities) agrees with what the
commands and features do: under every rules set probed, a feature refuses (or
leaves its result empty) with exactly the table's message when the table says
it does not support the rules, and does not when the table says it does; and
no module but the table holds a copy of a refusal's message."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kaiser_sim.cli import main
from kaiser_sim.rules import get_preset, preset_names
from kaiser_sim.strategy.capabilities import CAPABILITIES, VARIANTS, refusal, supports, unsupported

ROOT = Path(__file__).resolve().parents[1]
STANDARD = get_preset("standard")

#: every preset, and the standard game with each variant on its own
RULES = {**{name: get_preset(name) for name in preset_names()},
         "cover3": STANDARD.replace(cover3=True), "pass_cards": STANDARD.replace(pass_cards=2),
         "low_nt=choice": STANDARD.replace(low_nt="choice"), "solo": STANDARD.replace(kaiser_outright="solo"),
         "weak_redeal": STANDARD.replace(weak_redeal="weak"),
         "kitty-34+cover3+pass": get_preset("kitty-34").replace(cover3=True, pass_cards=1)}

#: copies of a refusal's message still outside the table (module, feature): to be made to read it
KNOWN_COPIES: set = set()


def _match(rules) -> str:
    """"" or the refusal of play_matches (0 matches: refused after the rules check, before any play)."""
    from kaiser_sim.strategy.match import MatchError, play_matches

    with pytest.raises(MatchError) as e:
        play_matches("ev", "ev", 0, rules=rules)
    return "" if str(e.value) == "at least one match" else str(e.value)


def _listening_table(rules) -> str:
    """"" or the refusal of build_tables (too few deals: refused after the rules check)."""
    from kaiser_sim.strategy.listening import ListeningError, build_tables

    with pytest.raises(ListeningError) as e:
        build_tables(rules, deals=1)
    return "" if str(e.value) == "at least 100 deals, not 1" else str(e.value)


def _call_chart(rules) -> str:
    """The note of the auction study's call chart when it is left empty; "" when it goes on to read the results
    (none given here, so it fails on them)."""
    from kaiser_sim.studies.auction import call_chart

    try:
        out, meta = call_chart(None, rules, None, None, None, None, 1)
    except (TypeError, AttributeError, KeyError):
        return ""
    assert out.empty
    return meta.note


def _hand(rules) -> str:
    from kaiser_sim.strategy.advisor import AdvisorInputError, check_rules

    try:
        check_rules(rules)
    except AdvisorInputError as e:
        return str(e)
    return ""


def _table_play_model_runs(rules, tmp_path) -> str:
    """The command's message: its --runs refusal, or (supported) the next check's (--sensitivity above
    --holdout), before any deal is played."""
    args = ["table-play-model", "--runs", str(tmp_path / "runs"), "--out", str(tmp_path / "m.json"),
            "--holdout", "100", "--sensitivity", "200", "-q", "--rules", rules.label if rules.label in preset_names()
            else "standard"]
    args += [f"--rule={k}={v[0]}" for k, v in rules.differences(get_preset(args[-1])).items()]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2, res.output
    message = res.output.strip().removeprefix("Error: ")
    return "" if message.startswith("--sensitivity deals are taken") else message


PROBES = {"match": _match, "listening-table": _listening_table, "call-chart": _call_chart, "hand": _hand,
          "table-play-model --runs": _table_play_model_runs}


def test_every_feature_is_probed():
    assert set(PROBES) == set(CAPABILITIES)
    for cap in CAPABILITIES.values():
        assert set(cap.unsupported) <= set(VARIANTS), cap.feature
        assert cap.outcome in ("refused", "not computed")
        assert bool(cap.unsupported) == bool(cap.why), cap.feature


@pytest.mark.parametrize("feature", sorted(CAPABILITIES))
@pytest.mark.parametrize("name", sorted(RULES))
def test_table_agrees_with_behaviour(feature, name, tmp_path):
    rules = RULES[name]
    probe = PROBES[feature]
    got = probe(rules, tmp_path) if feature == "table-play-model --runs" else probe(rules)
    assert got == refusal(feature, rules)
    assert supports(feature, rules) == (got == "")


def test_refusals_name_the_rules_variants():
    """The listening table's message names every unsupported variant the rules play, and nothing is refused for
    a variant outside its list."""
    kitty34 = RULES["kitty-34+cover3+pass"]
    assert [v.key for v in unsupported("listening-table", kitty34)] == ["kitty", "cover3", "deck"]
    assert refusal("listening-table", kitty34).endswith("(rules kitty-34: a kitty, cover 3, "
                                                      "the 34-card deck or 7-card hands)")
    assert [v.key for v in unsupported("match", kitty34)] == ["pass_cards"]
    assert "pass_cards=1" in refusal("match", kitty34)
    assert refusal("match", STANDARD) == "" and refusal("hand", kitty34) == ""
    with pytest.raises(KeyError):
        refusal("no such feature", STANDARD)


def test_no_copies_of_the_refusals():
    """A refusal's message is written only in the table: every feature reads it, none keeps its own check."""
    copies = set()
    for path in sorted((ROOT / "kaiser_sim").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if path.name == "capabilities.py":
            continue
        text = path.read_text(encoding="utf-8")
        for cap in CAPABILITIES.values():
            if cap.why and cap.why.split("{")[0][:40] in text:
                copies.add((rel, cap.feature))
    assert copies == KNOWN_COPIES


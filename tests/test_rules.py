"""The Rules value, presets, overrides, serialisation and the ``rules`` CLI pieces."""

from __future__ import annotations

import dataclasses
import json

import click
import pytest
from click.testing import CliRunner

from kaiser_sim.cli.rules_options import RulesInputError, rules, rules_from_cli, rules_options
from kaiser_sim.rules import OPTIONS, PRESETS, Rules, RulesError, get_preset, options_markdown, preset_of

# --- the option table -------------------------------------------------------------


def test_option_table_and_dataclass_agree():
    fields = [f.name for f in dataclasses.fields(Rules) if f.name != "label"]
    assert fields == [o.name for o in OPTIONS]
    for o in OPTIONS:
        assert getattr(Rules(), o.name) == o.default, o.name
        assert o.help and "\n" not in o.help


def test_markdown_table_lists_every_option():
    md = options_markdown()
    for o in OPTIONS:
        assert f"`{o.name}`" in md
    # one row per option plus the header and the rule line, 4 columns each
    rows = md.splitlines()
    assert len(rows) == len(OPTIONS) + 2
    assert all(r.count("|") == 5 for r in rows)


# --- presets ------------------------------------------------------------------------

REQUIRED_PRESETS = ["standard", "tournament", "no-45", "short", "kitty-34", "kitty-4", "low-nt"]


def test_required_presets_exist():
    for name in REQUIRED_PRESETS:
        assert name in PRESETS
        assert get_preset(name).label == name
        assert preset_of(get_preset(name)) == name


def test_standard_is_the_consensus_of_the_sources():
    r = get_preset("standard")
    assert (r.min_bid, r.nt_min_bid, r.nt_order) == (6, 6, "same-number")
    assert r.dealer_match and r.forced_dealer_bid
    assert r.nt_scoring == "double"  # made doubles, failed loses double the bid
    assert r.made_scores == "raw"
    assert r.bid_out_threshold == 45
    assert r.target == 52 and r.tie_rule == "declarer"
    assert r.kaiser_outright == "off"  # the French source: no outright win
    assert r.weak_redeal == "weak"  # French and Norwegian sources; tournaments drop it
    assert r.kitty == "none" and r.hand_size == 8 and not r.deck34 and r.raw_total == 10
    assert r.low_nt == "off" and not r.only_bidders_win and not r.cover3


@pytest.mark.parametrize(
    "name, changed",
    [
        ("tournament", {"weak_redeal": "off", "nt_min": 7, "series": "cumulative"}),
        ("no-45", {"bid_out": None}),
        ("short", {"target": 32, "bid_out": 25}),
        ("kitty-34", {"kitty": "k2", "min_bid": 7}),
        ("kitty-4", {"kitty": "k1"}),
        ("low-nt", {"low_nt": "bid"}),
    ],
)
def test_presets_change_only_what_their_name_says(name, changed):
    diff = get_preset(name).differences(get_preset("standard"))
    assert {k: v[0] for k, v in diff.items()} == changed


def test_kitty_presets_derived_values():
    k1, k2 = get_preset("kitty-4"), get_preset("kitty-34")
    assert (k1.hand_size, k1.kitty_size, k1.deck34, k1.tricks, k1.raw_total) == (7, 4, False, 7, 9)
    assert (k2.hand_size, k2.kitty_size, k2.deck34, k2.tricks, k2.raw_total) == (8, 2, True, 8, 10)
    assert k1.may_discard_specials and not k2.may_discard_specials
    assert k2.replace(kitty_discard_specials="yes").may_discard_specials


def test_unknown_preset_names_the_presets():
    with pytest.raises(RulesError, match="unknown rules preset 'standrd'.*did you mean standard"):
        get_preset("standrd")


# --- value semantics, serialisation --------------------------------------------------


@pytest.mark.parametrize("name", list(PRESETS))
def test_round_trip_through_json(name):
    r = get_preset(name)
    text = json.dumps(r.to_dict())
    back = Rules.from_dict(json.loads(text))
    assert back == r and hash(back) == hash(r) and back.label == r.label
    assert Rules.from_json(r.to_json()) == r


def test_rules_are_hashable_values_label_aside():
    a = get_preset("standard").with_overrides(["target=62"])
    b = Rules(target=62, label="something else")
    assert a == b and hash(a) == hash(b)
    assert len({a, b, get_preset("standard")}) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.target = 10


def test_from_dict_fills_missing_options_and_refuses_unknown_keys():
    assert Rules.from_dict({"target": 32, "bid_out": 25}) == get_preset("short")
    with pytest.raises(RulesError, match="unknown rules option 'targte'.*did you mean target"):
        Rules.from_dict({"targte": 32})


# --- overrides ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, key, value",
    [
        ("min_bid=7", "min_bid", 7),
        ("nt_min=8", "nt_min", 8),
        ("nt_min=none", "nt_min", None),
        ("nt-order=above-suits", "nt_order", "above-suits"),
        ("dealer_match=false", "dealer_match", False),
        ("dealer_match=no", "dealer_match", False),
        ("cover3=yes", "cover3", True),
        ("bid_out=none", "bid_out", None),
        ("bid_out=auto", "bid_out", "auto"),
        ("bid_out=40", "bid_out", 40),
        ("target_after_nt=62", "target_after_nt", 62),
        ("kaiser_outright=solo", "kaiser_outright", "solo"),
        ("lose_at=-52", "lose_at", -52),
        ("kitty=K1", "kitty", "k1"),
    ],
)
def test_override_values_are_parsed(text, key, value):
    r = get_preset("standard").with_overrides([text])
    assert getattr(r, key) == value
    assert r.label.startswith("standard + ")


def test_auto_bid_out_is_target_minus_min_bid():
    r = Rules(bid_out="auto", min_bid=7)
    assert r.bid_out_threshold == 45
    assert Rules(bid_out="auto", min_bid=5).bid_out_threshold == 47


@pytest.mark.parametrize(
    "overrides, fragment",
    [
        (["colour=red"], "unknown rules option 'colour'"),
        (["min_bid"], "not key=value"),
        (["min_bid=seven"], "bad value 'seven' for min_bid"),
        (["dealer_match=maybe"], "bad value 'maybe' for dealer_match: expected true or false"),
        (["nt_order=upside"], "bad value 'upside' for nt_order: expected one of same-number, above-suits"),
        (["nt_min=13"], "nt_min=13 is above the top bid 12"),
        (["nt_min=5"], "nt_min=5 is below min_bid=6"),
        (["min_bid=13"], "min_bid=13 is outside 1..12"),
        (["min_bid=8"], None),  # nt_min none follows the minimum: fine
        (["target=40"], "bid_out=45 is not below target=40"),
        (["target_after_nt=50"], "target_after_nt=50 is not above target=52"),
        (["lose_at=10"], "lose_at=10 must be negative"),
        (["pass_cards=8"], "pass_cards=8 is outside 0..7"),
        (["target=0"], "target=0 must be at least 1"),
    ],
)
def test_bad_overrides_are_refused_naming_the_problem(overrides, fragment):
    if fragment is None:
        get_preset("standard").with_overrides(overrides)
        return
    with pytest.raises(RulesError) as e:
        get_preset("standard").with_overrides(overrides)
    assert fragment in str(e.value)


def test_tournament_min_bid_above_its_nt_minimum_is_a_contradiction():
    with pytest.raises(RulesError, match="nt_min=7 is below min_bid=8"):
        get_preset("tournament").with_overrides(["min_bid=8"])


def test_type_checks_on_direct_construction():
    with pytest.raises(RulesError, match="min_bid"):
        Rules(min_bid="6")
    with pytest.raises(RulesError, match="dealer_match"):
        Rules(dealer_match=1)
    with pytest.raises(RulesError, match="unknown rules option"):
        Rules().replace(colour=1)


# --- CLI pieces ---------------------------------------------------------------------


@pytest.fixture
def runner():
    return CliRunner()


def test_rules_lists_presets_one_line_each(runner):
    res = runner.invoke(rules, [])
    assert res.exit_code == 0
    lines = res.output.strip().splitlines()
    assert [ln.split()[0] for ln in lines] == list(PRESETS)


@pytest.mark.parametrize("name", REQUIRED_PRESETS)
def test_rules_preset_prints_every_option_with_value_and_explanation(runner, name):
    res = runner.invoke(rules, [name])
    assert res.exit_code == 0, res.output
    r = get_preset(name)
    body = {ln.split()[0]: ln for ln in res.output.splitlines()[2:] if ln and not ln.startswith("*")}
    for opt, value, help_ in r.describe():
        assert opt in body
        assert body[opt].split()[1].rstrip("*") == value
        assert help_ in body[opt]


def test_rules_marks_options_that_differ_from_standard(runner):
    res = runner.invoke(rules, ["tournament"])
    line = next(ln for ln in res.output.splitlines() if ln.startswith("nt_min"))
    assert "7*" in line


def test_rules_unknown_preset_exit_2(runner):
    res = runner.invoke(rules, ["bogus"])
    assert res.exit_code == 2
    assert "unknown rules preset 'bogus'" in res.output
    assert "standard" in res.output


def test_rules_with_override_and_json(runner):
    res = runner.invoke(rules, ["standard", "--rule", "target=62", "--format", "json"])
    assert res.exit_code == 0
    assert Rules.from_dict(json.loads(res.output)) == Rules(target=62)
    res = runner.invoke(rules, ["standard", "--rule", "nt_min=13"])
    assert res.exit_code == 2 and "nt_min=13" in res.output


def test_rules_markdown_is_the_option_table(runner):
    res = runner.invoke(rules, ["--format", "markdown"])
    assert res.exit_code == 0 and res.output.strip() == options_markdown()


@click.command()
@rules_options
def _probe(rules):
    click.echo(json.dumps(rules.to_dict()))


def test_rules_options_decorator_passes_resolved_rules(runner):
    res = runner.invoke(_probe, [])
    assert res.exit_code == 0
    assert Rules.from_dict(json.loads(res.output)) == get_preset("standard")
    res = runner.invoke(_probe, ["--rules", "tournament", "--rule", "target=62", "--rule", "bid_out=none"])
    assert res.exit_code == 0
    got = Rules.from_dict(json.loads(res.output))
    assert got == get_preset("tournament").replace(target=62, bid_out=None)
    assert got.label == "tournament + target=62 + bid_out=none"


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--rules", "nope"], "unknown rules preset 'nope'"),
        (["--rule", "colour=red"], "unknown rules option 'colour'"),
        (["--rule", "target=x"], "bad value 'x' for target"),
        (["--rule", "nt_min=13"], "nt_min=13 is above the top bid"),
    ],
)
def test_rules_options_refuse_bad_input_with_exit_2(runner, args, fragment):
    res = runner.invoke(_probe, args)
    assert res.exit_code == 2
    assert fragment in res.output
    assert "Traceback" not in res.output


def test_rules_from_cli_reads_a_json_file(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(get_preset("kitty-34").to_json())
    assert rules_from_cli(str(path), ["target=62"]) == get_preset("kitty-34").replace(target=62)
    with pytest.raises(RulesInputError) as e:
        rules_from_cli(str(tmp_path / "missing.json"), [])
    assert e.value.exit_code == 2


def test_rules_command_has_help_with_an_example(runner):
    res = runner.invoke(rules, ["--help"])
    assert res.exit_code == 0 and "Example" in res.output and "kaiser-sim rules" in res.output

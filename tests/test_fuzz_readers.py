"""Property-based tests: random bytes and random JSON / TOML fed to the deal,
rules and study-definition readers are either read or refused cleanly (their
own error, a message, exit status 2 on the command line), never a traceback."""

from __future__ import annotations

import io
import json
import math

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kaiser_sim.cli import main
from kaiser_sim.cli.rules_options import RulesInputError, rules_from_cli
from kaiser_sim.runs.deal_io import DealInputError, read_deals
from kaiser_sim.rules import OPTIONS, Rules, RulesError
from kaiser_sim.studies import StudyError, get_study
from kaiser_sim.studies.runner import check_params, load_definition, parse_param

FAST = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
CLI = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))

GOOD = "N:A.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K"

# JSON values of every kind, nested a little, with extreme numbers
json_scalars = (st.none() | st.booleans() | st.integers(-10**40, 10**40) | st.floats(allow_nan=False)
                | st.text(max_size=12))
json_values = st.recursive(json_scalars, lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c,
                                                                                              max_size=4),
                           max_leaves=12)
# pieces that look like deals, so that some inputs get deep into the parser
deal_text = st.text(st.sampled_from(list("NESWnesw:.- AKQJT98753♠♥0{}[]\"deal,#\n\t") + ["\x00", "\ufeff", "é"]),
                    max_size=120)


def _clean_cli(result):
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output and result.stderr.startswith(("Error", "Usage"))


# --- deals --------------------------------------------------------------------------------------


@FAST
@given(data=st.binary(max_size=400) | deal_text.map(lambda t: t.encode("utf-8")), deck34=st.booleans(),
       hand=st.sampled_from([7, 8]))
def test_deal_reader_random_bytes(data, deck34, hand):
    try:
        deals, lines = read_deals(io.BytesIO(data), deck34=deck34, max_cards=hand)
    except DealInputError as e:
        assert str(e)
    else:
        assert len(deals) == len(lines) > 0


@FAST
@given(objs=st.lists(json_values | st.dictionaries(st.just("deal"), json_values | deal_text, min_size=1),
                     min_size=1, max_size=4))
def test_deal_reader_random_json_lines(objs):
    lines = [json.dumps(o) for o in objs]
    try:
        read_deals(lines)
    except DealInputError as e:
        assert str(e)


@CLI
@given(data=st.binary(min_size=1, max_size=200))
def test_solve_random_bytes_on_stdin(data):
    data += b"\nnot a deal\n"  # at least one bad line, whatever the random part is
    _clean_cli(CliRunner().invoke(main, ["solve", "--input", "-", "--mode", "tricks"], input=data))


# --- rules --------------------------------------------------------------------------------------

option_names = st.sampled_from([o.name for o in OPTIONS] + ["label", "bogus"])
rule_objects = st.dictionaries(option_names, json_values | st.sampled_from(["none", "auto", "k1", "k2", "bid", "true"])
                               | st.integers(-200, 200), max_size=6)


@FAST
@given(obj=json_values | rule_objects)
def test_rules_reader_random_json(obj):
    try:
        r = Rules.from_json(json.dumps(obj))
    except RulesError as e:
        assert str(e)
    else:
        assert Rules.from_json(r.to_json()) == r


@FAST
@given(data=st.binary(max_size=300))
def test_rules_file_random_bytes(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("rules") / "r.json"
    path.write_bytes(data)
    try:
        rules_from_cli(str(path))
    except RulesInputError as e:
        assert e.exit_code == 2 and e.message


@FAST
@given(items=st.lists(st.text(max_size=30) | st.builds("{}={}".format, option_names, st.text(max_size=20)
                                                       | st.integers(-10**30, 10**30).map(str)), max_size=4))
def test_rule_overrides_random_text(items):
    try:
        rules_from_cli("standard", items)
    except RulesInputError as e:
        assert e.message


@CLI
@given(obj=rule_objects)
def test_rules_command_random_file(tmp_path_factory, obj):
    path = tmp_path_factory.mktemp("rules") / "r.json"
    path.write_text(json.dumps(obj))
    r = CliRunner().invoke(main, ["rules", str(path), "--format", "json"])
    if r.exit_code == 0:
        assert json.loads(r.stdout)
    else:
        _clean_cli(r)


# --- study definitions --------------------------------------------------------------------------


def toml_value(v) -> str:
    """A value as TOML (inline tables and arrays); None becomes a bare word (invalid TOML)."""
    if v is None:
        return "nothing"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()) + "}"


definition_keys = st.sampled_from(["study", "deals", "seed", "rules", "rule", "params", "description", "other"])
definition_values = json_values | st.sampled_from(["lead", "match", "dd-bias", "standard", "kitty-4"]) | st.lists(
    st.sampled_from(["target=62", "kitty=k1", "target=999", "x"]), max_size=2) | st.dictionaries(
    st.sampled_from(["max_resolve", "trump_rule", "n_boot", "matches", "samples"]), json_values, max_size=2)


@FAST
@given(obj=st.dictionaries(definition_keys, definition_values, max_size=7), junk=st.binary(max_size=40),
       prefix=st.booleans())
def test_definition_reader_random_toml(tmp_path_factory, obj, junk, prefix):
    text = "\n".join(f"{k} = {toml_value(v)}" for k, v in obj.items()).encode("utf-8")
    path = tmp_path_factory.mktemp("defs") / "d.toml"
    path.write_bytes(junk + text if prefix else text)
    try:
        d = load_definition(path)
    except StudyError as e:
        assert str(e)
    else:
        assert isinstance(d.deals, int) and d.deals >= 1 and isinstance(d.params, dict)


@FAST
@given(study=st.sampled_from(["bid-odds", "hand-eval", "bidding-chart", "five-hearts", "three-spades",
                              "trump-and-nt", "lead", "match", "dd-bias"]),
       params=st.dictionaries(st.sampled_from(["max_resolve", "trump_rule", "n_boot", "matches", "samples", "seed",
                                               "receivers", "policies", "min_cell", "hands", "holdout_deals", "zz"]),
                              json_values, max_size=3))
def test_study_parameters_random_values(study, params):
    try:
        check_params(get_study(study), params)
    except StudyError as e:
        assert str(e)


@FAST
@given(text=st.text(max_size=60))
def test_param_option_random_text(text):
    try:
        key, _ = parse_param(text)
    except StudyError as e:
        assert str(e)
    else:
        assert key


@CLI
@given(data=st.binary(max_size=200))
def test_study_command_random_definition_file(tmp_path_factory, data):
    base = tmp_path_factory.mktemp("study")
    path = base / "d.toml"
    path.write_bytes(data)
    r = CliRunner().invoke(main, ["study", str(path), "--out", str(base / "out"), "--quiet"])
    _clean_cli(r)
    assert not (base / "out").exists()


@pytest.mark.parametrize("text", ["", "# only a comment\n", "\n\n"])
def test_empty_inputs(text):
    _clean_cli(CliRunner().invoke(main, ["solve", "--input", "-"], input=text))

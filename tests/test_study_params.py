"""Each study declares its parameters (``PARAMETERS``, :mod:`kaiser_sim.studies.params`)
beside its definition, and the runner checks them through that declaration:
the declaration matches ``run``'s signature, the runner takes what it
declares (its default, its limits, its choices) and refuses the rest with a
message naming the parameter, no list of parameter names is left in the
runner, and ``kaiser-sim study --list`` shows every declared parameter."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
from click.testing import CliRunner

import kaiser_sim
from kaiser_sim.cli import main
from kaiser_sim.studies import MATCH_STUDIES, PLAY_STUDIES, STUDIES, StudyError, get_study
from kaiser_sim.studies.params import Param, check_params as check_declared
from kaiser_sim.studies.runner import _KEYS, check_params

PACKAGE = Path(kaiser_sim.__file__).resolve().parent
ALL = {**STUDIES, **PLAY_STUDIES, **MATCH_STUDIES}
#: (study, parameter) for every declared parameter
DECLARED = [(key, p) for key in ALL for p in get_study(key).PARAMETERS]


def _id(case) -> str:
    return f"{case[0]}:{case[1].name}"


@pytest.mark.parametrize("key", list(ALL))
def test_declaration_matches_run(key):
    """One declaration for each keyword argument of ``run``, in its order and
    with its default."""
    module = get_study(key)
    sig = list(inspect.signature(module.run).parameters.values())[2:]
    assert [p.name for p in module.PARAMETERS] == [p.name for p in sig]
    for declared, actual in zip(module.PARAMETERS, sig):
        assert isinstance(declared, Param)
        assert declared.default == actual.default, declared.name
        assert declared.help.strip(), declared.name


@pytest.mark.parametrize("key", list(ALL))
def test_definitions_take_declared_parameters(key):
    module = get_study(key)
    check_params(module, module.DEFINITION["params"])
    check_params(module, {})


@pytest.mark.parametrize("key, param", DECLARED, ids=[_id(c) for c in DECLARED])
def test_runner_takes_what_is_declared(key, param):
    module = get_study(key)
    if param.default is not None:
        check_params(module, {param.name: param.default})
    if param.low is not None and not param.above_low:
        check_params(module, {param.name: param.low})
    if param.high is not None:
        check_params(module, {param.name: param.high})
    if param.kind is float and param.high is not None:
        check_params(module, {param.name: int(param.high)})  # a whole number is a number
    for choice in param.choices or ():
        check_params(module, {param.name: choice if param.kind is str else [choice] * param.min_items})
    if param.kind is list and param.choices:
        check_params(module, {param.name: list(param.choices)})
        check_params(module, {param.name: tuple(param.choices)})
    if param.fold_case:
        check_params(module, {param.name: f" {param.choices[0].upper()} "})


def _refused(module, name, value, *words):
    with pytest.raises(StudyError) as e:
        check_params(module, {name: value})
    message = str(e.value)
    assert f"parameter {name}" in message
    for w in words:
        assert w in message, (message, w)
    return message


@pytest.mark.parametrize("key, param", DECLARED, ids=[_id(c) for c in DECLARED])
def test_runner_refuses_what_is_not_declared(key, param):
    module = get_study(key)
    if param.low is not None:
        below = param.low if param.above_low else param.low - 1
        _refused(module, param.name, below, param.takes())
    if param.high is not None:
        _refused(module, param.name, param.high + 1, param.takes())
    if param.kind in (int, float):
        _refused(module, param.name, "3")
        _refused(module, param.name, True)
        _refused(module, param.name, None)
        _refused(module, param.name, float("inf") if param.kind is float else 2.5)
    if param.kind is float:
        _refused(module, param.name, float("nan"), "finite")
    if param.kind is bool:
        _refused(module, param.name, 1, "true or false")
        _refused(module, param.name, "true", "true or false")
    if param.kind is str:
        _refused(module, param.name, 3, "a string")
        _refused(module, param.name, ["x"], "a string")
    if param.kind is list:
        _refused(module, param.name, "x", "a list")
        _refused(module, param.name, [3] * param.min_items, "not among")
        _refused(module, param.name, list(param.choices[:param.min_items - 1]), f"at least {param.min_items}")
    if param.choices:
        bad = "no-such-choice"
        message = _refused(module, param.name, bad if param.kind is str else [bad] * param.min_items, bad)
        assert all(c in message for c in param.choices)


@pytest.mark.parametrize("key", list(ALL))
def test_unknown_parameters_name_the_declared_ones(key):
    module = get_study(key)
    with pytest.raises(StudyError) as e:
        check_params(module, {"no_such_parameter": 1})
    message = str(e.value)
    assert "unknown parameter(s) no_such_parameter" in message and key in message
    assert message.endswith(f"; parameters: {', '.join(p.name for p in module.PARAMETERS)} "
                            f"(kaiser-sim study {key} --list)")


def test_a_declaration_is_checked_by_itself():
    """The check reads nothing but the declaration it is given."""
    decl = (Param("n", int, 5, "a count", low=2, high=9), Param("w", str, "a", "a word", choices=("a", "b")),
            Param("ws", list, ("a",), "words", choices=("a", "b"), min_items=2),
            Param("x", float, 0.5, "a share", low=0, high=1, above_low=True), Param("f", bool, False, "a flag"))
    check_declared(decl, {"n": 9, "w": "b", "ws": ["a", "b"], "x": 1, "f": True}, "toy")
    for params, message in [({"n": 1}, "parameter n must be a whole number from 2 to 9, got 1"),
                            ({"n": "5"}, "parameter n must be a whole number (default 5), got '5'"),
                            ({"w": "c"}, "parameter w: 'c' not among a, b"),
                            ({"ws": ["a"]}, "parameter ws needs at least 2 of a, b; got ['a']"),
                            ({"x": 0}, "parameter x must be a number above 0 and at most 1, got 0"),
                            ({"f": 0}, "parameter f must be true or false (default False), got 0"),
                            ({"z": 0}, "unknown parameter(s) z for study toy; parameters: n, w, ws, x, f "
                                       "(kaiser-sim study toy --list)")]:
        with pytest.raises(StudyError) as e:
            check_declared(decl, params, "toy")
        assert str(e.value) == message
    with pytest.raises(TypeError):
        Param("bad", str, "a", "limits on a string", low=1)


def _names_used(path: Path) -> set[str]:
    """The strings ``path`` uses as names: dict keys, subscripts, members of
    lists, tuples and sets, operands of comparisons (``in``, ``==``) and keys
    of ``.get`` / ``.setdefault`` / ``.pop`` (not text, not values)."""
    def strings(node):
        return {node.value} if isinstance(node, ast.Constant) and isinstance(node.value, str) else set()

    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Dict):
            found |= set().union(*(strings(k) for k in node.keys if k is not None))
        elif isinstance(node, ast.Subscript):
            found |= strings(node.slice)
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            found |= set().union(*(strings(e) for e in node.elts))
        elif isinstance(node, ast.Compare):
            found |= set().union(*(strings(e) for e in [node.left, *node.comparators]))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("get", "setdefault", "pop") and node.args):
            found |= strings(node.args[0])
    return found


def test_no_central_list_of_parameter_names():
    """The runner and the check name no parameter of any study (the keys of a
    definition file, like ``seed``, are the runner's own); what each study
    takes is in its declaration only."""
    import kaiser_sim.studies.runner as runner

    names = {p.name for _, p in DECLARED} - _KEYS
    for path in (PACKAGE / "studies" / "runner.py", PACKAGE / "studies" / "params.py", PACKAGE / "cli" / "runs.py"):
        assert not names & _names_used(path), (path.name, names & _names_used(path))
    for attr in ("PARAM_MIN", "PARAM_MAX", "_param_choices"):
        assert not hasattr(runner, attr), attr


def test_study_list_shows_every_declared_parameter():
    result = CliRunner().invoke(main, ["study", "--list"])
    assert result.exit_code == 0, result.output
    blocks = result.stdout.split("\n\n")
    assert [b.split(":", 1)[0] for b in blocks] == list(ALL)
    for block, key in zip(blocks, ALL):
        for param in get_study(key).PARAMETERS:
            assert f"\n  {param.name} ({param.takes()}" in block.replace("\n      ", " "), (key, param.name)
    one = CliRunner().invoke(main, ["study", "match", "--list"])
    assert one.exit_code == 0 and one.stdout.startswith("match: ") and "\n\n" not in one.stdout
    assert "matches = 400" in one.stdout
    bad = CliRunner().invoke(main, ["study", "nope", "--list"])
    assert bad.exit_code == 2 and "unknown study 'nope'" in bad.stderr


def test_name_is_required_without_list():
    result = CliRunner().invoke(main, ["study"], prog_name="kaiser-sim")
    assert result.exit_code == 2 and "Missing argument 'NAME|FILE.toml'" in result.stderr


def test_an_unknown_parameter_suggests_the_listing(tmp_path):
    """The refusal of an unknown parameter names the command that lists the
    study's parameters, and that command works."""
    result = CliRunner().invoke(main, ["study", "lead", "--param", "trump=longest", "--deals", "2",
                                       "--out", str(tmp_path / "o"), "-q"], prog_name="kaiser-sim")
    assert result.exit_code == 2 and result.stdout == ""
    suggested = result.stderr.rsplit("(kaiser-sim ", 1)[1].split(")")[0].split()
    assert suggested == ["study", "lead", "--list"]
    listing = CliRunner().invoke(main, suggested)
    assert listing.exit_code == 0 and "\n  trump_rule (" in listing.stdout
    assert not (tmp_path / "o").exists()

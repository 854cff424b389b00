"""One home per study: each registered study module carries its title,
question, method, default definition, parameters and report section; the
report knows no study by name; the studies never import the report; the
published definitions (``analyses/*.toml``) are the text written from the
modules (``make analyses``), and an installed package (no ``analyses/``
beside it) runs the same definitions."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pandas as pd
import pytest

import kaiser_sim
from kaiser_sim import report
from kaiser_sim.studies import (MATCH_STUDIES, PLAY_STUDIES, REGISTRY, REPORT_ATTRIBUTES, STUDIES, STUDY_ATTRIBUTES,
                                Study, get_study, study)
from kaiser_sim.studies.blocks import Chart, Table, Text
from kaiser_sim.studies.runner import ANALYSES_DIR, definition_for, definition_text, load_definition, write_definitions

PACKAGE = Path(kaiser_sim.__file__).resolve().parent
ALL = {**STUDIES, **PLAY_STUDIES, **MATCH_STUDIES}
IN_REPORT = {**STUDIES, **PLAY_STUDIES}


@pytest.mark.parametrize("key", list(ALL))
def test_module_provides_its_attributes(key):
    mod = get_study(key)
    for name in STUDY_ATTRIBUTES:
        assert hasattr(mod, name), f"{mod.__name__} has no {name}"
    assert mod.KEY == key and mod.DEFINITION["study"] == key
    assert callable(mod.run) and callable(mod.plot)
    if key in IN_REPORT:
        for name in REPORT_ATTRIBUTES:
            assert hasattr(mod, name), f"{mod.__name__} has no {name}"
        for name in ("TITLE", "QUESTION", "METHOD"):
            assert isinstance(getattr(mod, name), str) and getattr(mod, name).strip()
        assert callable(mod.section)
    declared = study(key)
    for hook in ("cheat_sheet", "table_card", "sample_note", "report_params"):  # what it declares, it provides
        assert (getattr(declared, hook) not in (None, False)) == callable(getattr(mod, hook, None)), (key, hook)


def test_titles_and_questions_distinct():
    titles = [get_study(k).TITLE for k in IN_REPORT]
    questions = [get_study(k).QUESTION for k in IN_REPORT]
    assert len(set(titles)) == len(titles) and len(set(questions)) == len(questions)


def test_cheat_sheet_contributors():
    """The studies the cheat sheet has always drawn on, in its order."""
    have = sorted((k for k in IN_REPORT if study(k).cheat_sheet is not None), key=lambda k: study(k).cheat_sheet)
    assert have == ["bidding-chart", "trump-and-nt", "auction", "five-hearts", "three-spades", "lead"]


# --- declarations (issue 44, item 5) ----------------------------------------------------------


def test_the_categories_agree_with_what_the_studies_do():
    """A study that plays matches is among the match studies, whether or
    not the report has it (listening was not); one that reads no results is
    run without them; the registry's views are its declarations'."""
    assert set(MATCH_STUDIES) == {"listening", "match"} and set(PLAY_STUDIES) == {"dd-bias"}
    assert list(STUDIES) == [s.key for s in REGISTRY if s.report == "default"]
    for s in REGISTRY:
        takes = {p.name for p in s.parameters}
        assert ("matches" in takes) == (s.category == "matches"), s.key
        assert ("re-solves" in s.needs) == ("max_resolve" in takes), s.key
        assert ("play" in s.needs) == ("max_deals" in takes), s.key
        assert s.uses_results == (s.category in ("deals", "play")), s.key
        assert s.uses_results or s.unit in takes, s.key  # the parameter that sets how many of its own it plays


def test_a_declaration_refuses_what_contradicts_itself():
    with pytest.raises(ValueError):
        Study("x", "x", "x", ("deals", "matches"), "default", ())  # reads the run's deals and plays its own
    with pytest.raises(ValueError):
        Study("x", "x", "x", ("deals", "fresh air"), "default", ())
    with pytest.raises(ValueError):
        Study("x", "x", "x", ("deals",), "sometimes", ())


def test_the_report_and_the_runner_read_declarations_not_modules():
    """No probing of a study's module: no signature read, no attribute
    looked up with a fallback (the declaration says what it has)."""
    for path in (PACKAGE / "report" / "build.py", PACKAGE / "report" / "sections.py",
                 PACKAGE / "studies" / "runner.py", PACKAGE / "cli" / "runs.py"):
        text = path.read_text(encoding="utf-8")
        assert "inspect." not in text and "getattr(" not in text and "hasattr(" not in text, path.name


# --- definitions ------------------------------------------------------------------------------


def test_analyses_files_equal_module_defaults():
    files = sorted(p.stem for p in ANALYSES_DIR.glob("*.toml"))
    assert files == sorted(ALL), "one analyses/NAME.toml per registered study"
    for key in ALL:
        with open(ANALYSES_DIR / f"{key}.toml", "rb") as f:
            data = tomllib.load(f)
        assert data == get_study(key).DEFINITION, f"analyses/{key}.toml differs from the module's DEFINITION"


@pytest.mark.parametrize("key", list(ALL))
def test_analyses_files_are_written_from_the_modules(key):
    """The module is the one home of a definition: each file is the text
    written from it, byte for byte (after a change: make analyses)."""
    text = (ANALYSES_DIR / f"{key}.toml").read_text(encoding="utf-8")
    assert text == definition_text(key), f"analyses/{key}.toml is not the module's text: run make analyses"
    assert tomllib.loads(definition_text(key)) == get_study(key).DEFINITION
    for param in get_study(key).PARAMETERS:  # every declared parameter is described in the file
        assert f"# {param.name} (" in text, param.name


def test_write_definitions(tmp_path):
    written = write_definitions(tmp_path)
    assert sorted(p.name for p in written) == sorted(f"{k}.toml" for k in ALL)
    for path in written:
        assert path.read_bytes() == (ANALYSES_DIR / path.name).read_bytes()


@pytest.mark.parametrize("key", list(ALL))
def test_definition_for_uses_module_defaults(key):
    d = definition_for(key)
    f = load_definition(ANALYSES_DIR / f"{key}.toml")
    for field in ("study", "deals", "seed", "rules", "rule", "params", "description"):
        assert getattr(d, field) == getattr(f, field), field
    assert d.source == f"{get_study(key).__name__}.DEFINITION"
    d.params["x"] = 1  # a copy: the module's default is not changed
    d.rule.append("target=62")
    assert "x" not in get_study(key).DEFINITION["params"] and definition_for(key).rule == f.rule


def test_explicit_toml_still_read(tmp_path):
    p = tmp_path / "mine.toml"
    p.write_text('study = "lead"\ndeals = 123\nseed = 9\n[params]\ntrump_rule = "longest"\n')
    d = definition_for(str(p))
    assert (d.study, d.deals, d.seed, d.params, d.source) == ("lead", 123, 9, {"trump_rule": "longest"}, str(p))


def test_installed_package_runs_the_same_definitions(tmp_path):
    """A copy of the package with no analyses/ beside it (as in a wheel)
    gives every study the definition of analyses/NAME.toml."""
    site = tmp_path / "site"
    shutil.copytree(PACKAGE, site / "kaiser_sim", ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    code = ("import json, kaiser_sim\n"
            "from kaiser_sim.studies import all_study_names\n"
            "from kaiser_sim.studies.runner import ANALYSES_DIR, definition_for\n"
            "out = {'file': kaiser_sim.__file__, 'analyses': ANALYSES_DIR.exists(), 'defs': {}}\n"
            "for k in all_study_names():\n"
            "    d = definition_for(k)\n"
            "    out['defs'][k] = [d.deals, d.seed, d.rules, d.rule, d.params, d.description]\n"
            "print(json.dumps(out))\n")
    env = dict(os.environ, PYTHONPATH=str(site), NUMBA_DISABLE_JIT="1")
    res = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["file"].startswith(str(site)) and not doc["analyses"]
    for key in ALL:
        f = load_definition(ANALYSES_DIR / f"{key}.toml")
        assert doc["defs"][key] == [f.deals, f.seed, f.rules, f.rule, f.params, f.description], key


# --- layers -----------------------------------------------------------------------------------


def _imports(path: Path) -> list[tuple[int, str, list[str]]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            out.append((node.level, node.module or "", [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            out += [(0, a.name, []) for a in node.names]
    return out


@pytest.mark.parametrize("path", sorted((PACKAGE / "report").glob("*.py")), ids=lambda p: p.name)
def test_report_knows_no_study_by_name(path):
    source = path.read_text(encoding="utf-8")
    modules = {module for module, _ in ALL.values()}
    for name in set(ALL) | modules:
        if "-" in name or "_" in name:  # unmistakable: nowhere in the source, not even a comment
            assert name not in source, f"report/{path.name} names the study {name!r}"
    words = set(ALL) | modules
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            assert node.value.strip().lower() not in words, f"report/{path.name} names the study {node.value!r}"
    for level, module, names in _imports(path):
        assert not (set(names) & modules), names
        if level == 2 and module.startswith("studies"):
            # advice and worked_hands are no studies: the modules that read several studies' tables by name
            assert module in ("studies", "studies.blocks", "studies.runner", "studies.common", "studies.advice",
                              "studies.worked_hands", "studies.heard"), module
        assert not any(module.endswith(f"studies.{m}") for m in modules), module
    assert not re.search(r"\b(QUESTIONS|TITLES|METHOD)\s*=", source)


def test_studies_do_not_import_the_report():
    for path in (PACKAGE / "studies").glob("*.py"):
        for level, module, names in _imports(path):
            assert not (level == 2 and module.split(".")[0] in ("report", "cli")), (path.name, module)
            assert not (level == 2 and not module and {"report", "cli"} & set(names)), (path.name, names)
            assert not module.startswith(("kaiser_sim.report", "kaiser_sim.cli")), (path.name, module)
    for level, module, _ in _imports(PACKAGE / "studies" / "blocks.py"):  # blocks import no study either
        assert level == 0, module


# --- the cheat sheet --------------------------------------------------------------------------


class _Out:
    def __init__(self, tables):
        self.tables = tables


def test_no_cheat_sheet_without_its_studies():
    """A report whose studies have no cheat-sheet lines has no cheat sheet."""
    assert report.cheat_sheet({}) is None
    assert report.cheat_sheet({"bid-odds": _Out({}), "hand-eval": _Out({})}) is None
    empty_lead = _Out({"summary": pd.DataFrame({"strain": ["NT"], "mean": [0.1], "lo": [0.0], "hi": [0.2]})})
    assert report.cheat_sheet({"lead": empty_lead}) is None  # no line for trump by rule: nothing to say


def test_cheat_sheet_from_a_contributing_study():
    lead = _Out({"summary": pd.DataFrame({"strain": ["trump by rule"], "mean": [0.5], "lo": [0.25], "hi": [0.75]})})
    sec = report.cheat_sheet({"bid-odds": _Out({}), "lead": lead})
    assert sec is not None and sec.one_page and sec.key == "cheat-sheet"
    assert [b.text for b in sec.blocks if isinstance(b, Text)][:2] == [
        "The lead", "Being on lead is worth 0.50 [0.25, 0.75] points to the declaring side, in the trump it names "
        "(double dummy)."]
    assert all(isinstance(b, (Text, Table, Chart)) for b in sec.blocks)

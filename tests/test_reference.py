"""The generated reference (``docs/reference/``, :mod:`kaiser_sim.cli.reference`)
is what the code gives now, and it covers the code.

- Each page, regenerated in memory, equals its file: a stale page fails
  here (``make docs`` regenerates them).
- Every option of every command, and every study parameter, appears in the
  pages; the counts the pages state are those of the registries.
- The JSON shapes are read from real documents: the hand advisor's page
  names every key of a fresh ``hand --format json`` of another hand, and
  the shape walker is checked on a hand-made document.
- The rule-variant table says "no" exactly where ``capabilities.supports``
  refuses a rules set that plays the variant.

No test here needs MkDocs (``make docs`` builds the site).
"""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from kaiser_sim.cli import main, reference

ROOT = Path(__file__).resolve().parents[1]
PAGES = ROOT / "docs" / "reference"


def _page(name: str) -> str:
    return (PAGES / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", [n for n in reference.PAGES if n != "schemas.md"])
def test_page_is_not_stale(name):
    assert reference.generate([name])[name] == _page(name), \
        f"docs/reference/{name} is stale: run make docs (python -m kaiser_sim.cli.reference)"


@pytest.fixture(scope="module")
def hand_doc():
    return reference.hand_advice_document()


def test_schemas_page_is_not_stale(hand_doc):
    """The JSON page, with the advisor's documents made once (a few seconds)."""
    assert reference.schemas_page(hand_doc) == _page("schemas.md"), \
        "docs/reference/schemas.md is stale: run make docs (python -m kaiser_sim.cli.reference)"


def test_the_check_command_names_a_stale_page(tmp_path, monkeypatch):
    (tmp_path / reference.REFERENCE_DIR).mkdir(parents=True)
    (tmp_path / reference.REFERENCE_DIR / "results.md").write_text("old\n", encoding="utf-8")
    assert reference.stale(tmp_path, only=["results.md"]) == ["results.md"]
    assert reference.stale(ROOT, only=["results.md"]) == []


def test_every_command_and_option_is_in_the_docs():
    text = _page("commands.md")
    missing = []
    for name, command in main.commands.items():
        assert f"## {name}\n" in text, name
        section = text.split(f"## {name}\n", 1)[1].split("\n## ", 1)[0]
        for p in command.params:
            for opt in (*p.opts, *p.secondary_opts) if isinstance(p, click.Option) else ():
                if f"`{opt}`" not in section:
                    missing.append(f"{name} {opt}")
    assert not missing, "options missing from docs/reference/commands.md: " + ", ".join(missing)
    assert f"({len(main.commands)} of them)" in text


def test_every_study_and_parameter_is_in_the_docs():
    from kaiser_sim.studies import all_study_names, get_study

    text = _page("studies.md")
    names = all_study_names()
    assert f"The {len(names)} studies" in text
    for name in names:
        section = text.split(f"\n## {name}\n", 1)[1].split("\n## ", 1)[0]
        for p in get_study(name).PARAMETERS:
            assert f"| `{p.name}` |" in section, (name, p.name)


def test_the_help_of_study_names_every_study():
    from kaiser_sim.studies import all_study_names

    text = re.sub(r"-\s+", "-", " ".join(reference.help_text("study").split()))  # unwrapped
    for name in all_study_names():
        assert name in text, name


def test_the_rule_variant_table_is_the_capabilities():
    """Each yes/no against ``supports`` on a rules set that plays only that variant."""
    from kaiser_sim.rules import get_preset
    from kaiser_sim.strategy.capabilities import CAPABILITIES, VARIANTS, supports

    plays = {"kitty": get_preset("kitty-4"), "low_nt": get_preset("low-nt"),
             "cover3": get_preset("standard").with_overrides(["cover3=true"]),
             "pass_cards": get_preset("standard").with_overrides(["pass_cards=1"])}
    rows = {}
    for line in _page("rule-variants.md").splitlines():
        m = re.match(r"\| `([^`]+)`: ", line)
        if m:
            rows[m.group(1)] = [c.strip() for c in re.split(r"(?<!\\)\|", line)[2:-1]]
    keys = list(VARIANTS)
    assert set(rows) == set(CAPABILITIES)
    for feature in CAPABILITIES:
        marks = rows[feature][:len(keys)]
        for key, mark in zip(keys, marks):
            if key in plays:
                assert plays[key] is not None and VARIANTS[key].on(plays[key])
                assert (mark == "yes") == supports(feature, plays[key]), (feature, key)


def test_shape_rows_on_a_known_document():
    doc = {"a": 1, "b": {"x": 0.5, "y": None}, "strains": {s: {"p": 0.1, "n": 3} for s in "SHDC"},
           "list": [{"k": "v"}], "rules": {"target": 52}}
    rows = reference.shape_rows(doc)
    assert rows == [("a", "integer", "1"), ("b", "object", ""), ("b.x", "number", ""), ("b.y", "null", "null"),
                    ("strains", "object", "keys: S, H, D, C"), ("strains.<key>", "object", ""),
                    ("strains.<key>.p", "number", ""), ("strains.<key>.n", "integer", "3"),
                    ("list", "array", ""), ("list[]", "object", ""), ("list[].k", "string", '"v"'),
                    ("rules", "object", "keys: the rules options (kaiser-sim rules PRESET --format json)")]
    assert reference.merged({"a": None, "b": [], "c": 1}, {"a": {"x": 1}, "b": [2], "c": 3}) == \
        {"a": {"x": 1}, "b": [2], "c": 1}


def test_the_schema_page_has_every_key_of_another_hands_document():
    """A document of another hand (no auction, a kitty) has no key the page
    does not show: the page is read from the code's documents, not typed."""
    from kaiser_sim.rules import get_preset
    from kaiser_sim.strategy.advisor import advise

    doc = advise("AK93.5.AK.8", n=10, seed=3, check=0, rules=get_preset("kitty-34"), specials=False).to_dict()
    page = _page("schemas.md").split("## `study.json`")[0]
    shown = set(re.findall(r"^\| `([^`]+)` \|", page, re.M))
    missing = [p for p, _, _ in reference.shape_rows(doc) if p not in shown and ".<key>" not in p]
    assert not missing, missing

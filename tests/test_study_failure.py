"""A study that fails loses nothing: the deals it simulated under its own
``--out`` stay (a rerun or ``--from`` reuses them), nothing it did not create
is removed, and bad input refused before any work still leaves nothing."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from kaiser_sim.cli import main
from kaiser_sim.runs.results import load_results
from kaiser_sim.studies import get_study

DEALS = 24


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _parts(path):
    """Every file of a results dataset with its modification time (a rerun that reuses them writes none)."""
    return {p.relative_to(path): p.stat().st_mtime_ns for p in path.rglob("*") if p.is_file()}


def _break_the_study(monkeypatch):
    study = get_study("lead")

    def boom(*args, **kwargs):
        raise RuntimeError("injected failure after the simulation")

    monkeypatch.setattr(study, "run", boom)


def test_a_failure_after_the_simulation_keeps_the_deals(tmp_path, monkeypatch):
    out = tmp_path / "new" / "lead"  # two directories this run creates
    with monkeypatch.context() as m:
        _break_the_study(m)
        r = cli("study", "lead", "--deals", DEALS, "--out", out, "-q", "-w", "1")
    assert r.exit_code != 0 and isinstance(r.exception, RuntimeError)
    results = out / "results"
    assert len(load_results(results)) == DEALS  # the simulated deals are there
    assert not any(p.name.startswith(".partial-") for p in out.iterdir())  # no half-written outputs
    assert not (out / "study.json").exists()
    before = _parts(results)

    r = cli("study", "lead", "--deals", DEALS, "--out", out, "-q", "-w", "1")  # the rerun resumes: no deal solved again
    assert r.exit_code == 0, r.output
    assert _parts(results) == before and (out / "study.json").is_file()

    r = cli("study", "lead", "--from", results, "--out", tmp_path / "again", "-q")
    assert r.exit_code == 0, r.output


def test_a_failure_removes_nothing_it_did_not_create(tmp_path, monkeypatch):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("kept")
    r = cli("study", "lead", "--deals", DEALS, "--out", out, "-q", "-w", "1")
    assert r.exit_code == 0, r.output
    with monkeypatch.context() as m:
        _break_the_study(m)
        r = cli("study", "lead", "--from", out / "results", "--out", tmp_path / "from", "-q")  # new out: removed
        assert r.exit_code != 0
        assert not (tmp_path / "from").exists()
        r = cli("study", "lead", "--from", out / "results", "--out", out, "-q")  # existing out: left as it was
        assert r.exit_code != 0
    assert (out / "notes.txt").read_text() == "kept" and len(load_results(out / "results")) == DEALS
    assert (out / "study.json").is_file()  # the earlier study's outputs stay too


@pytest.mark.parametrize("args", [
    ("--param", "bogus=1"),  # a parameter the study does not declare
    ("--rules", "nope"),  # an unknown preset
])
def test_bad_input_refused_before_any_work_leaves_nothing(tmp_path, args):
    out = tmp_path / "a" / "b"
    r = cli("study", "lead", "--deals", DEALS, "--out", out, "-q", "-w", "1", *args)
    assert r.exit_code == 2, r.output
    assert not (tmp_path / "a").exists()
    assert os.listdir(tmp_path) == []

"""The outputs of ``kaiser-sim table-play-model`` and ``kaiser-sim make-model``:
checked before any work (exit 2, one ``Error:`` line, nothing left behind),
written whole or not at all, and never renamed over a device or other
non-regular file.  No deal is played here: ``simulate`` is replaced by a
stand-in that fails the test if called, so every refusal must come first.
The make-model tests always give --csv and --json (never the shipped files)."""

from __future__ import annotations

import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import kaiser_sim.strategy.make_model as make_model
import kaiser_sim.runs.simulate as simulate_module
from kaiser_sim.cli import main
from kaiser_sim.strategy.make_model import read_make_model
from kaiser_sim.runs.simulate import simulate
from kaiser_sim.strategy.table_play import TablePlayError, TablePlayModel
from kaiser_sim.strategy.table_play_build import check_build_paths, fit_model

TPM = ["table-play-model", "--deals", "100", "--holdout", "100", "-k", "1", "--sensitivity", "0", "-w", "1", "-q"]
LONG = "x" * 305  # longer than any file name the file system takes


@pytest.fixture(scope="module")
def points_run(tmp_path_factory):
    """A finished points-mode results dataset: 120 deals of seed 3."""
    out = tmp_path_factory.mktemp("points") / "run"
    simulate(out, 120, 3, mode="points", workers=1)
    return out


@pytest.fixture
def runner():
    return CliRunner()


@pytest.fixture
def no_play(monkeypatch):
    """Playing a deal (``simulate``) fails the test: refusals come first."""

    def played(*args, **kwargs):
        raise AssertionError("a play run was started")

    monkeypatch.setattr(simulate_module, "simulate", played)


@pytest.fixture
def no_fit(monkeypatch):
    """Fitting the make model fails the test: refusals come first."""

    def fitted(*args, **kwargs):
        raise AssertionError("the make model was fitted")

    monkeypatch.setattr(make_model, "build_make_model", fitted)


@pytest.fixture
def device(tmp_path):
    """A character device standing in for /dev/null (mknod; root only)."""
    dev = tmp_path / "nulldev"
    try:
        os.mknod(dev, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (OSError, AttributeError) as e:
        pytest.skip(f"cannot make a device node here: {e}")
    return dev


def assert_refused(result, *fragments):
    """Exit 2, one ``Error:`` line on stderr naming the problem, no traceback."""
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.stdout == ""
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1, result.stderr  # (click's own refusals add a usage line before it)
    for fragment in fragments:
        assert fragment in result.stderr


def listing(path: Path) -> set[str]:
    return {str(p.relative_to(path)) for p in path.rglob("*")}


def tiny_model() -> TablePlayModel:
    dd = [p for p in range(-2, 13) for _ in range(3)]
    return fit_model(dd * 2, dd * 2, [False] * len(dd) + [True] * len(dd), {"seed": 0}, min_rows=5)


# --- table-play-model --out -------------------------------------------------------------


@pytest.mark.parametrize("out", ["", " ", "afile/x.json", LONG, "adir", "missing/"])
def test_table_play_model_refuses_a_bad_out_before_playing(runner, tmp_path, monkeypatch, no_play, out):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("keep\n")
    (tmp_path / "adir").mkdir()
    before = listing(tmp_path)
    t0 = time.perf_counter()
    result = runner.invoke(main, [*TPM, "--out", out])
    assert time.perf_counter() - t0 < 5
    assert result.exit_code == 2, (result.output, result.exception)
    assert "Traceback" not in result.output
    assert "Error:" in result.stderr
    assert listing(tmp_path) == before
    assert (tmp_path / "afile").read_text() == "keep\n"


@pytest.mark.parametrize("out", ["/proc/x.json", "/sys/x.json"])
def test_table_play_model_refuses_an_unwritable_system_directory(runner, no_play, out):
    if not os.path.isdir(os.path.dirname(out)):
        pytest.skip(f"no {os.path.dirname(out)} here")
    assert_refused(runner.invoke(main, [*TPM, "--out", out]), "--out")
    assert not os.path.exists(out)


def test_table_play_model_never_replaces_a_device(runner, device, no_play):
    result = runner.invoke(main, [*TPM, "--out", str(device)])
    assert_refused(result, "--out", "not a regular file")
    assert stat.S_ISCHR(os.lstat(device).st_mode)


def test_table_play_model_refuses_an_out_inside_a_results_dataset(runner, points_run, no_play):
    result = runner.invoke(main, [*TPM, "--out", str(points_run / "m.json")])
    assert_refused(result, "holds simulation results")
    assert not (points_run / "m.json").exists()


def test_table_play_model_save_refuses_a_device(device):
    with pytest.raises(OSError, match="not a regular file"):
        tiny_model().save(device)
    assert stat.S_ISCHR(os.lstat(device).st_mode)
    assert listing(device.parent) == {"nulldev"}


def test_table_play_model_save_refuses_a_directory_and_leaves_nothing(tmp_path):
    (tmp_path / "d").mkdir()
    with pytest.raises(OSError):
        tiny_model().save(tmp_path / "d")
    with pytest.raises(OSError):
        tiny_model().save(tmp_path / "new" / "dirs" / LONG)
    assert listing(tmp_path) == {"d"}


def test_table_play_model_save_writes_a_long_name_whole(tmp_path):
    """The hidden file beside the target has a short name: a 252-character
    name (the limit is 255) is written, and nothing else is left."""
    m = tiny_model()
    target = tmp_path / ("m" * 247 + ".json")
    m.save(target)
    assert listing(tmp_path) == {target.name}
    assert TablePlayModel.load(target).provenance == m.provenance


# --- table-play-model --runs ------------------------------------------------------------


@pytest.mark.parametrize("runs", ["", " "])
def test_table_play_model_refuses_an_empty_runs(runner, tmp_path, monkeypatch, no_play, runs):
    monkeypatch.chdir(tmp_path)
    assert_refused(runner.invoke(main, [*TPM, "--out", "m.json", "--runs", runs]), "--runs", "empty")
    assert listing(tmp_path) == set()


def test_table_play_model_names_runs_when_its_name_is_too_long(runner, tmp_path, monkeypatch, no_play):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(main, [*TPM, "--out", "m.json", "--runs", "r" * 300])
    assert_refused(result, "--runs", "too long")
    assert "m.json" not in result.stderr
    assert listing(tmp_path) == set()


@pytest.mark.parametrize("where", [".", "sub"])
def test_table_play_model_refuses_runs_inside_a_results_dataset(runner, points_run, tmp_path, no_play, where):
    result = runner.invoke(main, [*TPM, "--out", str(tmp_path / "m.json"), "--runs", str(points_run / where)])
    assert_refused(result, "--runs", "holds simulation results")
    assert not (points_run / "sub").exists()


@pytest.mark.parametrize("out, runs", [("R/fit/m.json", "R"), ("R/holdout", "R"), ("M", "M/runs"), ("R", "R")])
def test_table_play_model_refuses_paths_inside_each_other(runner, tmp_path, monkeypatch, no_play, out, runs):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(main, [*TPM, "--out", out, "--runs", runs])
    assert result.exit_code == 2, (result.output, result.exception)
    assert "Traceback" not in result.output
    assert listing(tmp_path) == set()


def test_runs_holding_the_play_runs_is_allowed_and_checked_before_playing(runner, points_run, tmp_path, no_play):
    """--runs R may hold the runs R/fit and R/holdout (results datasets: they
    are resumed); one that cannot be resumed with these options is refused
    before anything is played."""
    runs = tmp_path / "R"
    shutil.copytree(points_run, runs / "fit")  # 120 points deals of seed 3, no play
    check_build_paths(tmp_path / "m.json", runs, deals=120, holdout=100, seed=3, samples=0)  # resumable: fine
    with pytest.raises(TablePlayError, match="cannot resume"):
        check_build_paths(tmp_path / "m.json", runs, deals=120, holdout=100, seed=3, samples=1)
    result = runner.invoke(main, [*TPM, "--out", str(tmp_path / "m.json"), "--runs", str(runs)])
    assert_refused(result, "cannot resume", "fit")
    assert "holds simulation results" not in result.stderr
    (runs / "holdout").write_text("not a directory\n")
    with pytest.raises(TablePlayError, match="is a file"):
        check_build_paths(tmp_path / "m.json", runs, deals=120, holdout=100, seed=3, samples=0)


# --- make-model ---------------------------------------------------------------------------


def _shipped_model() -> tuple[bytes, bytes]:
    return make_model.MODEL_CSV.read_bytes(), make_model.MODEL_JSON.read_bytes()


@pytest.mark.parametrize("args, fragment", [
    ([], "give --out DIR"),
    (["--csv", "m.csv"], "give --out DIR"),  # the other file is never the shipped one
    (["--json", "m.json"], "give --out DIR"),
    (["--replace-shipped", "--out", "d"], "--replace-shipped writes the shipped files"),
])
def test_make_model_writes_the_shipped_model_only_when_told(runner, points_run, tmp_path, monkeypatch, no_fit, args,
                                                            fragment):
    monkeypatch.chdir(tmp_path)
    shipped = _shipped_model()
    assert_refused(runner.invoke(main, ["make-model", str(points_run), *args]), fragment)
    assert listing(tmp_path) == set() and _shipped_model() == shipped


def test_make_model_out_writes_both_files_there(runner, points_run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shipped = _shipped_model()
    result = runner.invoke(main, ["make-model", str(points_run), "--out", "fit"])
    assert result.exit_code == 0, result.output
    assert read_make_model("fit/make_model.csv", "fit/make_model.json").meta["deals"] == 120
    assert _shipped_model() == shipped


def test_make_model_replace_shipped_names_the_package_files(runner, points_run, monkeypatch):
    seen = {}

    def rebuild(results_path, csv_path, json_path, labels):
        seen.update(csv=csv_path, json=json_path)
        return "done"

    monkeypatch.setattr(make_model, "rebuild", rebuild)
    result = runner.invoke(main, ["make-model", str(points_run), "--replace-shipped"])
    assert result.exit_code == 0, result.output
    assert seen == {"csv": make_model.MODEL_CSV, "json": make_model.MODEL_JSON}


@pytest.mark.parametrize("bad", ["afile/x", LONG, "adir", "nodir/"])
@pytest.mark.parametrize("which", ["--csv", "--json"])
def test_make_model_refuses_a_bad_output_before_fitting(runner, points_run, tmp_path, monkeypatch, no_fit, bad,
                                                        which):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("keep\n")
    (tmp_path / "adir").mkdir()
    before = listing(tmp_path)
    paths = {"--csv": "m.csv", "--json": "m.json", which: bad}
    result = runner.invoke(main, ["make-model", str(points_run), "--csv", paths["--csv"], "--json", paths["--json"]])
    assert_refused(result, which)
    assert listing(tmp_path) == before


@pytest.mark.parametrize("bad", ["/proc/x.json", "/sys/x.json", "/dev/full"])
def test_make_model_refuses_system_paths(runner, points_run, tmp_path, monkeypatch, no_fit, bad):
    if not os.path.exists(os.path.dirname(bad)):
        pytest.skip(f"no {os.path.dirname(bad)} here")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(main, ["make-model", str(points_run), "--csv", "m.csv", "--json", bad])
    assert_refused(result, "--json")
    assert listing(tmp_path) == set()


def test_make_model_never_replaces_a_device(runner, points_run, device, no_fit):
    result = runner.invoke(main, ["make-model", str(points_run), "--csv", str(device.parent / "m.csv"),
                                  "--json", str(device)])
    assert_refused(result, "--json", "not a regular file")
    assert stat.S_ISCHR(os.lstat(device).st_mode)
    assert listing(device.parent) == {"nulldev"}


def test_make_model_refuses_the_same_file_twice(runner, points_run, tmp_path, monkeypatch, no_fit):
    monkeypatch.chdir(tmp_path)
    assert_refused(runner.invoke(main, ["make-model", str(points_run), "--csv", "same", "--json", "same"]),
                   "same file")
    assert_refused(runner.invoke(main, ["make-model", str(points_run), "--csv", "same", "--json", "./d/../same"]),
                   "same file")
    (tmp_path / "m.csv").write_text("old\n")
    os.symlink("m.csv", tmp_path / "link.csv")
    assert_refused(runner.invoke(main, ["make-model", str(points_run), "--csv", "m.csv", "--json", "link.csv"]),
                   "same file")
    assert (tmp_path / "m.csv").read_text() == "old\n"
    assert listing(tmp_path) == {"m.csv", "link.csv"}


def test_make_model_refuses_an_output_inside_the_results(runner, points_run, tmp_path, no_fit):
    result = runner.invoke(main, ["make-model", str(points_run), "--csv", str(tmp_path / "m.csv"),
                                  "--json", str(points_run / "m.json")])
    assert_refused(result, "holds simulation results")
    assert not (points_run / "m.json").exists()


def test_make_model_writes_both_files_into_new_directories(runner, points_run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(main, ["make-model", str(points_run), "--csv", "a/b/m.csv", "--json", "c/m.json"])
    assert result.exit_code == 0, (result.output, result.exception)
    assert listing(tmp_path) == {"a", "a/b", "a/b/m.csv", "c", "c/m.json"}  # no hidden files left
    assert read_make_model("a/b/m.csv", "c/m.json").meta["deals"] == 120


def test_make_model_leaves_no_pair_half_written_when_a_rename_fails(runner, points_run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    real = os.replace
    calls = []

    def replace_once(src, dst, *args, **kwargs):
        calls.append(dst)
        if len(calls) == 2:
            raise OSError(28, "No space left on device", str(dst))
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace_once)
    result = runner.invoke(main, ["make-model", str(points_run), "--csv", "new/m.csv", "--json", "m.json"])
    monkeypatch.setattr(os, "replace", real)
    assert result.exit_code == 1, (result.output, result.exception)
    assert "Traceback" not in result.output
    assert "No space left" in result.stderr
    assert listing(tmp_path) == set()


def test_make_model_leaves_nothing_when_the_disk_fills(points_run, tmp_path):
    """A file-size limit (EFBIG) stands in for a full disk: the command fails
    cleanly (exit 1) and neither file, whole or partial, is left."""

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))

    p = subprocess.run([sys.executable, "-m", "kaiser_sim", "make-model", str(points_run), "--csv", "m.csv",
                        "--json", "m.json"], cwd=tmp_path, capture_output=True, text=True, preexec_fn=limit,
                       timeout=120)
    assert p.returncode == 1, p.stderr
    assert "Traceback" not in p.stderr
    assert p.stderr.startswith("Error: ")
    assert listing(tmp_path) == set()

"""Outputs checked before any work, and never where they would do harm.

Cases a fuzzer of the command line found: a file name too long for the file
system, a device (a stand-in for /dev/null, made with mknod), a path inside a
results dataset (the run could no longer be resumed), a path that is not
UTF-8, and option values out of range (a PIMC sample count that overflowed
a shift, seeds beyond 2**64 - 1, an empty bid).  Each must be refused with
exit status 2 before any work, leaving nothing behind.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest
from click.testing import CliRunner

import kaiser_sim
from kaiser_sim import config
from kaiser_sim.runs import results as res
from kaiser_sim.cli import main
from kaiser_sim.runs.output_dir import OutputError, check_replaceable, probe_file, write_file_atomic
from kaiser_sim.runs.simulate import SimulateError, simulate

DEAL = "N:AQJ.KT.9.A8 9.AJ.KJ7.Q9 KT.Q5.8.KT7 83.98.AQT.J"
LONG = "x" * 300  # longer than any file system's 255-byte name limit


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def refused(result, *fragments):
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    for f in fragments:
        assert f in result.output, result.output


def listing(root) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    path = tmp_path_factory.mktemp("runs") / "run"
    simulate(path, 120, seed=3, mode="points", workers=1)
    return path


@pytest.fixture
def device(tmp_path):
    """A character device like /dev/null, in tmp_path (mknod needs root)."""
    node = tmp_path / "nulldev"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, AttributeError, OSError):
        pytest.skip("mknod needs root")
    return node


def _must_not_run(*args, **kwargs):
    raise AssertionError("the work started before the output was checked")


# --- option values ---------------------------------------------------------------------------


@pytest.mark.parametrize("k", [config.PIMC_MAX_SAMPLES + 1, 2**31, 2**63, 2**64])
def test_play_samples_beyond_the_limit_are_refused(k):
    refused(cli("play", DEAL, "--strain", "S", "--leader", "N", "-k", k), "--samples", "1<=x<=1000")


def test_the_library_refuses_such_sample_counts_too():
    from kaiser_sim.dd.pimc import pimc_scores
    from kaiser_sim.game.play import play_deal
    from kaiser_sim.rules import STANDARD
    from kaiser_sim.cards import parse_deal

    with pytest.raises(ValueError, match="samples must be from 1 to"):
        play_deal(DEAL, 0, 0, samples=2**31, rules=STANDARD)
    with pytest.raises(ValueError, match="samples must be from 1 to"):
        pimc_scores(parse_deal(DEAL), 0, 0, samples=0)


@pytest.mark.parametrize("command", [
    ["deal"], ["hand", "AK93.5.AK.8", "-n", "20"], ["match", "-a", "ev", "-b", "ev", "-n", "2"],
    ["play", DEAL, "--strain", "S", "--leader", "N"],
])
@pytest.mark.parametrize("seed", [config.MAX_SEED + 1, 2**200])
def test_every_command_takes_the_same_seeds(command, seed):
    refused(cli(*command, "--seed", seed), "--seed", str(config.MAX_SEED))


def test_the_largest_seed_is_taken():
    assert cli("deal", "--seed", config.MAX_SEED).exit_code == 0


def test_an_empty_current_bid_is_refused():
    refused(cli("hand", "AK93.5.AK.8", "-n", "20", "--current-bid", " "), "--current-bid", "empty")


# --- names the file system refuses, devices ------------------------------------------------------


def test_a_match_output_name_too_long(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    refused(cli("match", "-a", "ev", "-b", "ev", "-n", "2", "-q", "--out", LONG), "File name too long")
    refused(cli("match", "-a", "ev", "-b", "ev", "-n", "2", "-q", "--out", f"a/{LONG}/b"), "File name too long")
    assert listing(tmp_path) == []


def test_a_plot_name_too_long_is_refused_before_the_deals(tmp_path, monkeypatch):
    import kaiser_sim.strategy.advisor

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(kaiser_sim.strategy.advisor, "advise", _must_not_run)
    refused(cli("hand", "AK93.5.AK.8", "-n", "20", "--plot", f"{LONG}.png"), "--plot", "File name too long")
    refused(cli("hand", "AK93.5.AK.8", "-n", "20", "--plot", f"d/{LONG}/x.png"), "File name too long")
    assert listing(tmp_path) == []


def test_a_plot_is_never_written_over_a_device(tmp_path, monkeypatch, device):
    import kaiser_sim.strategy.advisor

    monkeypatch.setattr(kaiser_sim.strategy.advisor, "advise", _must_not_run)
    os.rename(device, tmp_path / "nulldev.png")
    refused(cli("hand", "AK93.5.AK.8", "-n", "20", "--plot", tmp_path / "nulldev.png"), "not a regular file")
    assert stat.S_ISCHR(os.stat(tmp_path / "nulldev.png").st_mode)


def test_write_file_atomic_never_replaces_a_device(device):
    with pytest.raises(OutputError, match="not a regular file"):
        write_file_atomic(device, lambda tmp: tmp.write_bytes(b"x"))
    assert stat.S_ISCHR(os.stat(device).st_mode)
    with pytest.raises(OSError, match="not a regular file"):
        check_replaceable(device)


def test_probe_file(tmp_path):
    probe_file(tmp_path / "new" / "deeper" / "f.json")  # can be made: nothing is left
    assert listing(tmp_path) == []
    (tmp_path / "kept.json").write_text("old")
    probe_file(tmp_path / "kept.json")
    assert (tmp_path / "kept.json").read_text() == "old"
    for bad in (tmp_path / LONG, tmp_path / "kept.json" / "x", tmp_path):
        with pytest.raises(OSError):
            probe_file(bad)
    assert listing(tmp_path) == ["kept.json"]


def test_simulate_leaves_no_parent_behind_when_the_name_is_too_long(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    refused(cli("simulate", "-n", "5", "-q", "--out", f"ok/deeper/{LONG}"), "File name too long")
    assert listing(tmp_path) == []


# --- never into a results dataset ---------------------------------------------------------------


def test_outputs_inside_a_results_dataset_are_refused(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    before = listing(run)
    cases = [
        (["study", "bid-odds", "--from", run, "--out", run, "-q", "-w", "1"], "holds simulation results"),
        (["study", "bid-odds", "--from", run, "--out", run / "sub", "-q", "-w", "1"], "holds simulation results"),
        (["report", "--from", run, "--studies", "lead", "--out", run, "-q", "-w", "1"], "holds simulation results"),
        (["report", "--from", run, "--studies", "lead", "--out", run / "rep", "-q", "-w", "1"],
         "holds simulation results"),
        (["match", "-a", "ev", "-b", "ev", "-n", "2", "-q", "--out", run], "holds simulation results"),
        (["hand", "AK93.5.AK.8", "-n", "20", "--plot", run / "x.png"], "holds simulation results"),
        (["simulate", "-n", "5", "-q", "--out", run / "sub"], "lies inside the results directory"),
    ]
    for args, fragment in cases:
        refused(cli(*args), fragment)
    assert listing(run) == before
    assert listing(tmp_path) == []
    assert res.scan(run, deep=True).complete
    with pytest.raises(SimulateError, match="inside the results directory"):
        simulate(run / "a" / "b", 5, workers=1)


def test_a_study_beside_a_results_dataset_is_fine(run, tmp_path):
    """A study's own out/results is a dataset below --out, not around it."""
    out = tmp_path / "study"
    assert cli("study", "bid-odds", "--deals", "40", "--out", out, "-q", "-w", "1").exit_code == 0
    assert res.holds_dataset(out / "results") and not res.holds_dataset(out)
    assert res.enclosing_dataset(out) is None and res.enclosing_dataset(out / "results" / "x") == out / "results"


# --- other paths -----------------------------------------------------------------------------------


def test_a_report_out_that_is_not_utf8(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name = b"\xff\xfe\x80bad"  # (a subprocess: its stderr escapes what is not UTF-8, as a terminal's does)
    result = subprocess.run([sys.executable, "-m", "kaiser_sim", "report", "--from", str(run), "--studies", "lead",
                             "--out", name, "-q", "-w", "1"], capture_output=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert b"Traceback" not in result.stderr
    assert (tmp_path / os.fsdecode(name) / "report.pdf").stat().st_size > 10_000


def test_a_study_definition_that_is_a_fifo(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.mkfifo("f.toml")
    refused(cli("study", "f.toml", "--out", "o", "-q"), "not a regular file")
    assert listing(tmp_path) == ["f.toml"]


def test_a_study_refused_for_its_seed_gives_no_stale_hint(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("study", "bid-odds", "--seed", config.MAX_SEED + 1, "--out", "o", "-q")
    refused(result, "--seed")
    assert "delete" not in result.output and listing(tmp_path) == []
    assert kaiser_sim.__version__


def test_a_plot_name_near_the_limit_is_written(tmp_path, monkeypatch):
    """The hidden file written first has a short name of its own."""
    monkeypatch.chdir(tmp_path)
    name = "x" * 251 + ".png"
    result = cli("hand", "AK93.5.AK.8", "-n", "20", "--no-specials", "--plot", name)
    assert result.exit_code == 0, result.output
    assert listing(tmp_path) == [name] and (tmp_path / name).stat().st_size > 1000

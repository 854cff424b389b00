"""Malformed, extreme and hostile input to every command: refused before any
work with a message naming the problem, exit status 2, nothing on stdout and
nothing left behind; a fault during the work (a full disk, a closed stdout)
leaves no partial output and says what failed."""

from __future__ import annotations

import errno
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kaiser_sim import config
from kaiser_sim.cli import main

GOOD = "N:A.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K"
README = Path(__file__).resolve().parents[1] / "README.md"


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def refused(result, *fragments):
    """Exit 2, nothing on stdout, the fragments on stderr, no traceback."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in result.stderr, result.stderr
    return result


def failed(result, *fragments):
    """A fault during the work: a non-zero exit with a message, no traceback."""
    assert result.exit_code not in (0, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    for fragment in fragments:
        assert fragment in result.stderr, result.stderr
    return result


def tree(path: Path) -> dict:
    """Every file under ``path`` with its bytes (to see that nothing changed)."""
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def datasets(tmp_path_factory):
    """A small points dataset and a tricks-only one."""
    from kaiser_sim.runs.simulate import simulate

    base = tmp_path_factory.mktemp("runs")
    simulate(base / "pts", 12, 5, mode="points", workers=1)
    simulate(base / "trk", 12, 5, mode="tricks", workers=1)
    return {"points": base / "pts", "tricks": base / "trk"}


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


# --- 1. files that are not UTF-8 text; huge numbers; deep nesting ----------------------------


BAD_DEAL_FILES = [
    ("latin-1", GOOD.encode() + b"\n\xe9t\xe9\n", "line 2: not UTF-8 text"),
    ("binary", b"\xff\xfe\x00\x01\x02", "line 1: not UTF-8 text"),
    ("deep JSON", b'{"deal": ' + b"[" * 30000 + b"]" * 30000 + b"}\n", "nested too deeply"),
    ("huge number", b'{"deal": ' + b"9" * 5000 + b"}\n", "more than 4300 digits"),
    ("endless line", b"N" * (200_000), "longer than 100,000 characters"),
    ("NUL bytes", b"\x00" * 50 + b"\n", "line 1:"),
]


@pytest.mark.parametrize("data, message", [b[1:] for b in BAD_DEAL_FILES], ids=[b[0] for b in BAD_DEAL_FILES])
def test_solve_refuses_files_that_are_not_deal_text(tmp_path, data, message):
    path = tmp_path / "deals.txt"
    path.write_bytes(data)
    refused(run("solve", "--input", path), message)
    refused(run("solve", "--input", "-", input=data), message)


def test_solve_reads_a_utf8_file_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "deals.txt"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.encode() + b"\r\n")
    r = run("solve", "--input", path, "--mode", "tricks")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["deal"] == GOOD


def test_solve_stops_reading_at_the_first_line_that_is_not_text(tmp_path):
    """An endless non-text input (/dev/urandom) must not be read to its end."""

    class Endless:
        name = "endless"
        lines = 0

        def readline(self, limit=-1):
            self.lines += 1
            return b"\x80\x81\x82\n"

    from kaiser_sim.runs.deal_io import DealInputError, read_deals

    stream = Endless()
    with pytest.raises(DealInputError, match="not UTF-8"):
        read_deals(stream)
    assert stream.lines == 1


RULES_FILES = [
    ("latin-1", b'{"label": "r\xe8gles"}', "not UTF-8 text"),
    ("deep", b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    ("huge number", b'{"target": ' + b"9" * 5000 + b"}", "more than 4300 digits"),
    ("300 digits", b'{"target": ' + b"9" * 300 + b"}", "target="),
    ("infinity", b'{"target": 1e999}', "target"),
    ("NaN", b'{"target": NaN}', "target"),
    ("a list", b"[1, 2]", "must be an object"),
    ("not JSON", b"target = 62", "cannot be read"),
    ("label not text", b'{"label": {"a": [1, 2]}}', "label"),
    ("bool for int", b'{"target": true}', "target"),
]


@pytest.mark.parametrize("data, message", [b[1:] for b in RULES_FILES], ids=[b[0] for b in RULES_FILES])
def test_rules_files_that_cannot_be_rules_are_refused(tmp_path, data, message):
    path = tmp_path / "r.json"
    path.write_bytes(data)
    refused(run("rules", path), message)
    refused(run("solve", GOOD, "--rules", path), message)


def test_rules_file_too_large_or_a_directory(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (config.MAX_DEFINITION_BYTES + 1) + b"{}")
    refused(run("rules", big), "larger than")
    folder = tmp_path / "dir.json"
    folder.mkdir()
    refused(run("rules", folder), "directory")


DEFINITION_FILES = [
    ("latin-1", b'study = "lead"\ndescription = "\xe9t\xe9"\n', "not UTF-8 text"),
    ("binary", b"\xff\xfe\x00", "not UTF-8 text"),
    ("huge number", b'study = "lead"\ndeals = ' + b"9" * 5000 + b"\n", "more than 4300 digits"),
    ("deep", b'study = "lead"\nx = ' + b"[" * 5000 + b"]" * 5000 + b"\n", "study"),
    ("not TOML", b"study: lead", "not valid TOML"),
]


@pytest.mark.parametrize("data, message", [b[1:] for b in DEFINITION_FILES], ids=[b[0] for b in DEFINITION_FILES])
def test_study_definition_files_that_cannot_be_read_are_refused(tmp_path, data, message):
    path = tmp_path / "s.toml"
    path.write_bytes(data)
    out = tmp_path / "out"
    refused(run("study", path, "--out", out), message)
    assert not out.exists()


# --- 2. study definitions with wrong types ------------------------------------------------------


WRONG_TYPES = [
    ('deals = "lots"', "deals must be a whole number"),
    ("deals = 0", "deals must be a whole number"),
    ("deals = true", "deals must be a whole number"),
    ("deals = 2.5", "deals must be a whole number"),
    (f"deals = {10**15}", "deals must be a whole number"),
    ("params = 5", "params must be a table"),
    ('params = "x"', "params must be a table"),
    ("seed = -1", "seed must be a whole number >= 0"),
    ('seed = "one"', "seed must be a whole number >= 0"),
    ("rule = 3", 'rule must be a list of "key=value" strings'),
    ('rule = "target=62"', 'rule must be a list of "key=value" strings'),
    ("rule = [1, 2]", 'rule must be a list of "key=value" strings'),
    ('rule = ["target=999"]', "target=999 is above"),
    ('rule = ["bogus=1"]', "unknown rules option 'bogus'"),
    ("rules = 5", "rules must be a string"),
    ('rules = "nope"', "unknown rules preset 'nope'"),
    ("description = [1]", "description must be a string"),
    ("bogus = 1", "unknown key(s) bogus"),
]


@pytest.mark.parametrize("line, message", WRONG_TYPES)
def test_study_definition_with_wrong_types(tmp_path, line, message):
    path = tmp_path / "s.toml"
    path.write_text(f'study = "lead"\n{line}\n')
    out = tmp_path / "out"
    r = refused(run("study", path, "--out", out), message)
    assert "s.toml" in r.stderr
    assert not out.exists()


@pytest.mark.parametrize("line, message", [("study = 3", "study must be a string"), ("deals = 5", "no 'study' key"),
                                           ('study = "nope"', "unknown study 'nope'")])
def test_study_definition_study_key(tmp_path, line, message):
    path = tmp_path / "s.toml"
    path.write_text(line + "\n")
    refused(run("study", path), message)


@pytest.mark.parametrize("param, message", [
    (f"n_boot={10**12}", "n_boot must be a whole number from 0 to"),
    ("max_resolve=1e999", "max_resolve"),
    ("max_resolve=" + "9" * 5000, "out of range"),
    ("trump_rule=" + "[" * 3000, "trump_rule"),
    ("=3", "no KEY"),
])
def test_bad_parameters_are_refused(datasets, tmp_path, param, message):
    study = "hand-eval" if param.startswith("n_boot") else "five-hearts"
    out = tmp_path / "out"
    refused(run("study", study, "--from", datasets["points"], "--out", out, "--param", param), message)
    assert not out.exists()


# --- 3. a dataset of another mode ---------------------------------------------------------------

TRICKS_ONLY = "this dataset has tricks values only; the studies need points (simulate --mode points or both)"


@pytest.mark.parametrize("study", ["lead", "bid-odds", "five-hearts", "hand-eval", "dd-bias"])
def test_studies_refuse_a_tricks_dataset(datasets, tmp_path, study):
    out = tmp_path / "out"
    refused(run("study", study, "--from", datasets["tricks"], "--out", out), TRICKS_ONLY)
    assert not out.exists()


def test_report_refuses_a_tricks_dataset_up_front(datasets, tmp_path, monkeypatch):
    import kaiser_sim.runs.results

    def no_loading(*a, **k):
        raise AssertionError("the dataset was loaded before it was checked")

    monkeypatch.setattr(kaiser_sim.runs.results, "load_results", no_loading)
    monkeypatch.setattr(kaiser_sim.runs.results, "load_run", no_loading)
    out = tmp_path / "out"
    refused(run("report", "--from", datasets["tricks"], "--out", out), TRICKS_ONLY)
    assert not out.exists()


def test_run_study_refuses_a_tricks_frame(datasets, tmp_path):
    from kaiser_sim.runs.results import load_run
    from kaiser_sim.runs.services import RunServiceError
    from kaiser_sim.studies.runner import definition_for, run_study

    with pytest.raises(RunServiceError, match="tricks values only"):  # the run services' refusal, as it is
        run_study(definition_for("lead"), tmp_path / "o", results=load_run(datasets["tricks"]))
    assert not (tmp_path / "o").exists()


# --- 4. unwritable or full outputs ---------------------------------------------------------------


def test_study_refuses_an_unwritable_out_before_any_work(datasets, tmp_path, monkeypatch):
    import kaiser_sim.studies.runner as runner

    monkeypatch.setattr(runner, "_finish_study", lambda *a, **k: pytest.fail("the study ran"))
    monkeypatch.setattr(runner, "obtain_results", lambda *a, **k: pytest.fail("results were read or simulated"))
    blocker = tmp_path / "file"
    blocker.write_text("x")
    refused(run("study", "lead", "--from", datasets["points"], "--out", blocker / "sub"), "cannot write there")
    refused(run("study", "lead", "--deals", "5", "--out", blocker / "sub"), "cannot write there")


def _full_disk_after(n: int):
    """A ``save_figure`` that writes ``n`` files, then finds the disk full."""
    from kaiser_sim.studies.common import save_figure

    calls = []

    def save(fig, path, fmt):
        calls.append(path)
        if len(calls) > n:
            Path(path).write_bytes(b"partial")
            raise OSError(errno.ENOSPC, "No space left on device")
        save_figure(fig, path, fmt)

    return save


@pytest.mark.parametrize("existing", [False, True], ids=["new out", "existing out"])
def test_full_disk_during_study_leaves_no_partial_output(datasets, tmp_path, monkeypatch, existing):
    import kaiser_sim.studies.runner as runner

    out = tmp_path / "out"
    if existing:
        out.mkdir()
        (out / "keep.txt").write_text("mine")
    before = tree(out) if existing else None
    monkeypatch.setattr(runner, "save_figure", _full_disk_after(1))
    r = failed(run("study", "lead", "--from", datasets["points"], "--out", out), "No space left on device")
    assert "nothing was written" in r.stderr
    if existing:
        assert tree(out) == before and sorted(p.name for p in out.iterdir()) == ["keep.txt"]
    else:
        assert not out.exists()


def test_full_disk_during_a_simulating_study_keeps_only_the_deals(tmp_path, monkeypatch):
    """The disk fills while the study writes its charts, after the simulation: the deals it simulated stay
    (issue 44: a failure never deletes them; a rerun resumes them), and nothing of the study's own outputs
    is left half-written beside them."""
    import kaiser_sim.studies.runner as runner

    out = tmp_path / "new" / "out"
    monkeypatch.setattr(runner, "save_figure", _full_disk_after(0))
    failed(run("study", "lead", "--deals", "8", "--out", out, "--quiet"), "No space left on device")
    assert sorted(p.name for p in out.iterdir()) == ["results"]
    monkeypatch.undo()
    r = run("study", "lead", "--deals", "8", "--out", out, "--quiet")
    assert r.exit_code == 0, r.output


def test_full_disk_during_report_leaves_no_partial_output(tmp_path, monkeypatch):
    from kaiser_sim.runs.simulate import simulate

    from kaiser_sim.report import make

    dataset = tmp_path / "runs"
    simulate(dataset, 100, 3, mode="points", workers=1)

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(make, "render_pdf", full)  # where write_report finds it
    out = tmp_path / "report"
    failed(run("report", "--from", dataset, "--studies", "lead", "--out", out, "--quiet"), "No space left on device")
    assert not out.exists()
    out.mkdir()
    failed(run("report", "--from", dataset, "--studies", "lead", "--out", out, "--quiet"), "No space left on device")
    assert list(out.iterdir()) == []


def test_full_disk_during_match_out_leaves_nothing(tmp_path, monkeypatch):
    from kaiser_sim.strategy.match import MatchResults

    def write(self, out):
        (Path(out) / "summary.csv").write_text("partial")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(MatchResults, "write", write)
    out = tmp_path / "m"
    failed(run("match", "-a", "ev", "-b", "ev", "-n", "2", "--out", out, "--quiet"), "No space left on device")
    assert not out.exists()


def test_full_disk_during_hand_plot_leaves_nothing(tmp_path, monkeypatch):
    import kaiser_sim.studies.common as common

    def full(fig, path, fmt):
        Path(path).write_bytes(b"partial")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(common, "save_figure", full)
    plot = tmp_path / "new" / "odds.png"
    failed(run("hand", "AK93.5.AK.8", "-n", "10", "--no-specials", "--plot", plot), "No space left on device")
    assert not (tmp_path / "new").exists()


def test_outputs_are_written_whole_and_without_staging_leftovers(datasets, tmp_path):
    out = tmp_path / "a" / "b"
    r = run("study", "lead", "--from", datasets["points"], "--out", out)
    assert r.exit_code == 0, r.output
    names = {p.name for p in out.iterdir()}
    assert "study.json" in names and not any(n.startswith(".") for n in names)
    doc = json.loads((out / "study.json").read_text())
    assert sorted(doc["files"] + ["study.json"]) == sorted(names)
    plot = tmp_path / "p" / "odds.svg"
    r = run("hand", "AK93.5.AK.8", "-n", "10", "--no-specials", "--plot", plot)
    assert r.exit_code == 0, r.output
    assert [p.name for p in plot.parent.iterdir()] == ["odds.svg"]
    assert plot.read_text().lstrip().startswith("<?xml")


def _python():
    return [sys.executable, "-m", "kaiser_sim"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["rules", "standard"], ["deal", "-n", "3000"],
                                  ["solve", "--mode", "tricks", GOOD]], ids=["rules", "deal", "solve"])
def test_a_full_stdout_is_an_error(args):
    with open("/dev/full", "w") as full:
        proc = subprocess.run([*_python(), *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=300)
    assert proc.returncode == 1
    assert "cannot write to standard output: No space left on device" in proc.stderr
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr


def test_a_closed_stdout_is_an_error():
    proc = subprocess.run(["bash", "-c", f"{shlex.join(_python())} rules standard >&-"], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 1
    assert "standard output is closed" in proc.stderr and "Traceback" not in proc.stderr


def test_a_reader_that_goes_away_ends_quietly():
    proc = subprocess.Popen([*_python(), "deal", "-n", "200000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.read(1) == b"N"
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 1
    assert "Traceback" not in err and "Exception ignored" not in err


# --- 5. huge counts ------------------------------------------------------------------------------


@pytest.mark.parametrize("args, fragment", [
    (["hand", "AK93.5.AK.8", "-n", str(10**12)], "--deals"),
    (["match", "-a", "ev", "-b", "ev", "-n", str(10**12)], "--matches"),
    (["study", "lead", "--deals", str(10**12)], "--deals"),
    (["report", "--deals", str(10**12)], "--deals"),
    (["report", "--max-resolve", str(10**12)], "--max-resolve"),
    (["solve", GOOD, "--rule", "target=" + "9" * 300], "target"),
    (["match", "-a", "ev", "-b", "ev", "--rule", "target=" + "9" * 300], "target"),
    (["match", "-a", "ev", "-b", "ev", "--rule", f"target={config.RULES_MAX_TARGET + 1}"], "is above"),
    (["rules", "standard", "--rule", f"lose_at=-{config.RULES_MAX_TARGET + 1}"], "lose_at"),
    (["rules", "standard", "--rule", "only_bidders_win=true", "--rule", "bid_out=999999"], "bid_out"),
    (["rules", "standard", "--rule", "failed_bid_pot=" + "9" * 20], "failed_bid_pot"),
    (["rules", "standard", "--rule", "target=" + "9" * 5000], "target"),
])
def test_huge_counts_are_refused(args, fragment):
    r = refused(run(*args), fragment)
    assert len(r.stderr) < 2000


def test_the_limits_are_documented_in_the_help():
    assert f"{config.HAND_MAX_DEALS:,}" in run("hand", "--help").stdout
    assert f"{config.MATCH_MAX_COUNT:,}" in run("match", "--help").stdout.replace("\n", " ")
    assert f"{config.STUDY_MAX_DEALS:,}" in run("study", "--help").stdout


# --- 6. nothing left behind after a refusal --------------------------------------------------------


def test_refusals_leave_no_new_directories(datasets, tmp_path):
    new = tmp_path / "new"
    cases = [
        ["report", "--out", new / "r", "--studies", "nope"],
        ["report", "--out", new / "r" / "deep", "--from", datasets["tricks"]],
        ["report", "--out", new / "r", "--deals", "5"],
        ["match", "-a", "ev", "-b", "ev", "--out", new / "m", "--rule", "pass_cards=2"],
        ["hand", "AK93.5.AK.8", "--plot", new / "h" / "x.png", "--current-bid", "99"],
        ["hand", "ZZ", "--plot", new / "h" / "x.png"],
        ["study", "lead", "--out", new / "s", "--from", datasets["points"], "--param", "bogus=1"],
        ["study", "lead", "--out", new / "s", "--from", datasets["tricks"]],
        ["study", "lead", "--out", new / "s", "--rules", "nope"],
        ["study", "match", "--out", new / "s", "--param", "matches=0"],
    ]
    for args in cases:
        refused(run(*args))
        assert not new.exists(), args


def test_the_write_check_leaves_nothing(tmp_path):
    from kaiser_sim.runs.output_dir import probe

    probe(tmp_path / "a" / "b" / "c")
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "f").write_text("x")
    with pytest.raises(OSError):
        probe(tmp_path / "f" / "sub")
    assert [p.name for p in tmp_path.iterdir()] == ["f"]


# --- 7. surprises --------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["", ",", " , "])
def test_report_refuses_an_empty_study_list(value):
    refused(run("report", "--studies", value), "--studies is empty")


def test_study_from_results_refuses_deals_and_seed(datasets, tmp_path):
    out = tmp_path / "o"
    refused(run("study", "lead", "--from", datasets["points"], "--deals", "50", "--out", out), "--deals", "--from")
    refused(run("study", "lead", "--from", datasets["points"], "--seed", "3", "--out", out), "--seed", "--from")
    refused(run("report", "--from", datasets["points"], "--deals", "200", "--out", out), "--deals", "--from")
    refused(run("report", "--from", datasets["points"], "--seed", "2", "--out", out), "--seed", "--from")
    assert not out.exists()


def test_match_study_refuses_deals(tmp_path):
    refused(run("study", "match", "--deals", "50", "--out", tmp_path / "o"), "--deals does not apply")


@pytest.mark.parametrize("args", [
    ["study", "lead", "--out", ""], ["study", "lead", "--from", ""], ["report", "--out", ""],
    ["report", "--from", ""], ["match", "-a", "ev", "-b", "ev", "--out", ""], ["hand", "AK93.5.AK.8", "--plot", ""],
])
def test_empty_paths_are_refused(args):
    refused(run(*args), "is empty")


def test_a_study_name_too_long_for_a_path():
    r = refused(run("study", "x" * 100_000), "unknown study")
    assert len(r.stderr) < 2000


# --- 8. the documented examples --------------------------------------------------------------------


def _examples():
    """Every ``kaiser-sim ...`` example line of the README, of the hand-written pages of docs/ and of every
    --help."""
    docs = [README, *sorted((README.parent / "docs").glob("*.md"))]
    lines = [m.group(0) for path in docs for m in re.finditer(r"kaiser-sim [^\n`]*", path.read_text(encoding="utf-8"))]
    for name in main.commands:
        text = run(name, "--help").stdout
        lines += [m.group(0) for m in re.finditer(r"kaiser-sim [^\n]*", text.split("Example")[-1])]
    return sorted(set(lines))


def test_every_documented_rules_choice_is_valid():
    """The rules of each example (--rules, --rule) resolve: no example exits 2
    on its rules (the match example once combined target=32 with bid_out=45)."""
    from kaiser_sim.cli.rules_options import RulesInputError, rules_from_cli

    checked = 0
    for line in _examples():
        try:
            words = shlex.split(line.split("#")[0].split("|")[0])
        except ValueError:
            continue
        if "--rule" not in words and "--rules" not in words:
            continue
        preset, overrides = "standard", []
        if words[1] == "rules" and len(words) > 2 and not words[2].startswith("-"):
            preset = words[2]
        for flag, value in zip(words, words[1:]):
            if flag == "--rules":
                preset = value
            elif flag == "--rule":
                overrides.append(value)
        if preset.endswith(".json"):
            continue
        try:
            rules_from_cli(preset, overrides)
        except RulesInputError as e:
            pytest.fail(f"{line}: {e.message}")
        checked += 1
    assert checked >= 3


def test_match_example_with_a_short_target_runs():
    r = run("match", "-a", "ev", "-b", "rank-squared", "--rule", "target=32", "--rule", "bid_out=25",
            "--format", "json", "-n", "2", "--quiet")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["rules"]["target"] == 32

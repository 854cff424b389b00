"""Adversarial inputs to ``simulate`` and the readers of its results: every one
refused before any work (exit 2, a message naming the problem, nothing on
stdout, nothing left on disk), and faults during a run (the main process
killed, a worker killed) leaving whole parts, no orphaned worker and a
resumable run.

Classes: orphaned workers; edited or corrupt run metadata (``info``,
``simulate --resume``, ``study --from``, ``report --from``); paths built from
metadata; huge counts; an empty ``--out``; a Dask address that never
answers.  Runs are a few dozen deals, except the signal tests (a few seconds
of two worker processes each)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from dispositions import DEFAULTS, defaults_in_child, ignored_in_child

import kaiser_sim
from kaiser_sim import config
from kaiser_sim.runs import results as res
from kaiser_sim.cli import main
from kaiser_sim.runs.executors import _end_with_parent
from kaiser_sim.runs.simulate import SimulateError, make_spec, simulate

SEED = 3


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """100 deals (the fewest a report takes) in 2 parts of 50 (read only: copy
    it before changing it)."""
    out = tmp_path_factory.mktemp("tiny") / "run"
    simulate(out, 100, SEED, chunk_size=50, workers=1)
    return out


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def tree(root: Path) -> dict:
    """Every directory under ``root``, and every file with its size and mtime."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames:
            out[str((Path(dirpath) / name).relative_to(root))] = "dir"
        for name in filenames:
            p = Path(dirpath) / name
            st = p.lstat()
            out[str(p.relative_to(root))] = (st.st_size, st.st_mtime_ns)
    return out


def assert_refused(result, *fragments):
    """Exit 2, the fragments in the message, no traceback, nothing on stdout."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output
    assert result.stdout == ""
    for fragment in fragments:
        assert fragment in result.output, result.output


def copy_run(tiny, dest: Path) -> Path:
    shutil.copytree(tiny, dest)
    return dest


def rewrite_common(path: Path, meta=None, raw: bytes | None = None) -> None:
    """Replace the run metadata of ``_common_metadata`` (a JSON value, or raw bytes)."""
    common = path / res.COMMON_METADATA
    schema = pq.read_schema(common)
    raw = json.dumps(meta).encode() if raw is None else raw
    pq.write_metadata(schema.with_metadata({res.META_KEY: raw}), common)


def rewrite_part(path: Path, chunk: int, run=None, part=None, raw_run: bytes | None = None) -> None:
    """Replace a part's run metadata and/or its ``kaiser_sim.part`` metadata."""
    file = path / res.part_name(chunk)
    table = pq.read_table(file)
    meta = dict(table.schema.metadata)
    if run is not None or raw_run is not None:
        meta[res.META_KEY] = json.dumps(run).encode() if raw_run is None else raw_run
    if part is not None:
        meta[res.PART_KEY] = json.dumps(part).encode()
    pq.write_table(table.replace_schema_metadata(meta), file)


def edited(key, value):
    def change(m):
        if value is KeyError:
            del m[key]
        else:
            m[key] = value
    return change


# --- 2, 3: run metadata edited or corrupted -------------------------------------------------------------

_FMT = {"format": res.FORMAT_NAME, "format_version": res.FORMAT_VERSION}

COMMON_CASES = [
    # (id, change of the metadata dict or raw bytes, fragment of the message)
    ("no-seed", edited("seed", KeyError), "no 'seed' field"),
    ("seed-path", edited("seed", "1/../../x"), "'seed' must be an integer"),
    ("seed-negative", edited("seed", -1), "'seed' must be an integer"),
    ("seed-float", edited("seed", 3.0), "'seed' must be an integer"),
    ("seed-bool", edited("seed", True), "'seed' must be an integer"),
    ("seed-huge", edited("seed", 2**70), "'seed' must be an integer"),
    ("deals-negative", edited("deals", -40), "'deals' must be an integer from 1"),
    ("deals-string", edited("deals", "40"), "'deals' must be an integer from 1"),
    ("deals-huge", lambda m: m.update(deals=10**15, chunks=10**13, chunk_size=100), "'deals' must be an integer"),
    ("chunks-huge", edited("chunks", 10**15), "'chunks' must be 2"),
    ("chunks-missing", edited("chunks", KeyError), "no 'chunks' field"),
    ("chunk-size-zero", edited("chunk_size", 0), "'chunk_size' must be an integer from 1"),
    ("chunk-size-huge", lambda m: m.update(chunk_size=10**12, chunks=1), "'chunk_size' must be an integer from 1"),
    ("too-many-parts", lambda m: m.update(deals=10**9, chunk_size=1, chunks=10**9), "parts, more than"),
    ("mode", edited("mode", "everything"), "'mode' must be one of"),
    ("mode-list", edited("mode", ["points"]), "'mode' must be one of"),
    ("rules-list", edited("rules", [1, 2]), "'rules' must be an object"),
    ("rules-unknown-option", lambda m: m["rules"].update(colour="red"), "'rules' cannot be used"),
    ("rules-bad-value", lambda m: m["rules"].update(target="many"), "'rules' cannot be used"),
    ("rules-label-control", lambda m: m["rules"].update(label="std\x1b[2J"), "label must be"),
    ("rules-label-long", lambda m: m["rules"].update(label="x" * 5000), "label must be"),
    ("strains", edited("strains", ["S"]), "'strains' must be"),
    ("hand-size", edited("hand_size", "8"), "'hand_size' must be 8"),
    ("deck", edited("deck", 52), "'deck' must be 32"),
    ("dealer", edited("dealer", {"x": 1}), "'dealer' must be"),
    ("columns", edited("columns", ["deal"]), "'columns' must be"),
    ("columns-missing", edited("columns", KeyError), "no 'columns' field"),
    ("version", edited("version", 7), "'version' must be"),
    ("fixed-list", edited("fixed", ["N=A.-.-.-"]), "'fixed' must be an object"),
    ("fixed-seat", edited("fixed", {"X": "A.-.-.-"}), "'fixed' must map seats"),
    ("fixed-hand", edited("fixed", {"N": "AKZ.-.-.-"}), "'fixed'"),
    ("fixed-twice", edited("fixed", {"N": "A.-.-.-", "S": "A.-.-.-"}), "fixed twice"),
    ("fixed-too-many", edited("fixed", {"N": "AKQJT98.5.A.-"}), "fixed 9 cards"),
    ("format-version", edited("format_version", "1"), "results format '1' is not supported"),
    ("format", edited("format", "other"), "is not kaiser-sim run metadata"),
    ("list", b"[1, 2, 3]", "is not kaiser-sim run metadata"),
    ("null", b"null", "is not kaiser-sim run metadata"),
    ("number", b"42", "is not kaiser-sim run metadata"),
    ("not-json", b"{\"seed\": ", "is not valid JSON"),
    ("not-utf8", b"\xff\xfe\x00{\x9c}", "is not UTF-8"),
    ("deep", b"[" * 100_000, "nested too deeply"),
    ("huge-int", b"{\"seed\": " + b"9" * 5000 + b"}", "is not valid JSON"),
    ("huge", json.dumps({**_FMT, "pad": "x" * (2 << 20)}).encode(), "bytes, more than any run writes"),
]


def _corrupt(tiny, dest: Path, change) -> Path:
    out = copy_run(tiny, dest)
    if isinstance(change, bytes):
        rewrite_common(out, raw=change)
    else:
        meta = json.loads(pq.read_schema(out / res.COMMON_METADATA).metadata[res.META_KEY])
        change(meta)
        rewrite_common(out, meta)
    return out


@pytest.mark.parametrize("case, change, fragment", COMMON_CASES, ids=[c[0] for c in COMMON_CASES])
def test_corrupt_run_metadata_is_refused_by_every_reader(tiny, tmp_path, monkeypatch, case, change, fragment):
    out = _corrupt(tiny, tmp_path / "run", change)
    monkeypatch.chdir(tmp_path)  # report and study would write under ./reports
    before = tree(tmp_path)
    with pytest.raises(res.ResultsError, match="_common_metadata"):
        kaiser_sim.load_results(out)
    for args in (["info", out], ["info", out, "--format", "json"], ["simulate", "--resume", "--out", out, "-q"],
                 ["study", "bid-odds", "--from", out, "-q"], ["report", "--from", out, "-q"]):
        result = cli(*args)
        assert_refused(result, str(out / res.COMMON_METADATA), fragment)
    assert tree(tmp_path) == before  # nothing new, nothing changed: not even a lock file


def test_a_refused_resume_of_a_dataset_without_its_lock_file_leaves_none(tiny, tmp_path):
    out = copy_run(tiny, tmp_path / "run")
    (out / res.LOCK_FILE).unlink(missing_ok=True)
    (out / "part-000001.parquet").write_bytes(b"PAR1 not a part")
    before = tree(tmp_path)
    assert_refused(cli("simulate", "--resume", "--out", out), "part-000001.parquet", "cannot be read")
    assert tree(tmp_path) == before


PART_CASES = [
    ("run-not-utf8", dict(raw_run=b"\xff\xfe\xfd"), "is not UTF-8"),
    ("run-list", dict(run=[1, 2]), "is not a JSON object"),
    ("run-seed-path", dict(run="seed"), "is not a JSON object"),
    ("part-list", dict(part=[0, 0, 20]), "is not a JSON object"),
    ("part-values", dict(part={"chunk": "x" * 1000, "first": None, "count": -1}), "its metadata says chunk"),
]


@pytest.mark.parametrize("case, change, fragment", PART_CASES, ids=[c[0] for c in PART_CASES])
def test_corrupt_part_metadata(tiny, tmp_path, monkeypatch, case, change, fragment):
    """A part whose metadata was changed is a bad part: named by ``info`` (as
    it does for any bad part), refused by the readers and by ``--resume``."""
    out = copy_run(tiny, tmp_path / "run")
    rewrite_part(out, 1, **change)
    monkeypatch.chdir(tmp_path)
    before = tree(tmp_path)
    result = cli("info", out)
    assert result.exit_code == 0 and "BAD PART  part-000001.parquet" in result.output and fragment in result.output
    assert len(result.output) < 2000
    for args in (["simulate", "--resume", "--out", out, "-q"], ["study", "bid-odds", "--from", out, "-q"],
                 ["report", "--from", out, "-q"]):
        assert_refused(cli(*args), "part-000001.parquet", fragment)
    assert tree(tmp_path) == before


def test_part_of_another_seed(tiny, tmp_path):
    out = copy_run(tiny, tmp_path / "run")
    run = json.loads(pq.read_schema(out / "part-000000.parquet").metadata[res.META_KEY])
    rewrite_part(out, 0, run=dict(run, seed="1/../../x"))
    assert_refused(cli("simulate", "--resume", "--out", out, "-q"), "part-000000.parquet", "another run", "seed")


def test_a_part_that_is_a_fifo_or_a_directory(tiny, tmp_path):
    """Neither is opened (reading a FIFO would wait for ever)."""
    out = copy_run(tiny, tmp_path / "run")
    (out / "part-000001.parquet").unlink()
    os.mkfifo(out / "part-000001.parquet")
    (out / "part-000000.parquet").unlink()
    (out / "part-000000.parquet").mkdir()
    result = cli("info", out)
    assert result.exit_code == 0 and result.output.count("is not a regular file") == 2
    assert_refused(cli("simulate", "--resume", "--out", out, "-q"), "is not a regular file")


def test_report_default_out_is_built_from_checked_metadata(tiny, tmp_path, monkeypatch):
    """A seed that is a path is refused (above); a rules label of any printable
    text still stays one file name under reports/."""
    out = _corrupt(tiny, tmp_path / "run", lambda m: m["rules"].update(label="../../../../escape"))
    meta = res.read_metadata(out)
    for chunk in (0, 1):  # the parts carry the same run metadata
        rewrite_part(out, chunk, run=meta)
    assert meta["rules"]["label"] == "../../../../escape"  # a printable label is accepted ...
    from kaiser_sim import report
    from kaiser_sim.report import make

    seen = {}

    def fake_build(data, out, *a, **k):
        seen["out"] = Path(out)
        raise report.ReportError("stop here")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(make, "build_report", fake_build)  # where make_report finds it
    with pytest.raises(report.ReportError):
        report.make_report(from_path=out)
    # ... and the directory made from it stays under reports/
    assert ".." not in seen["out"].parts and seen["out"].parts[0] == "reports"
    assert seen["out"].resolve().is_relative_to((tmp_path / "reports").resolve())


def test_a_valid_dataset_still_reads(tiny):
    meta = res.read_metadata(tiny)
    assert res.validate_metadata(meta) is meta
    assert res.info(tiny)["complete"]
    assert len(kaiser_sim.load_results(tiny)) == 100


def test_unreadable_paths(tmp_path):
    long = tmp_path / ("a" * 300)
    assert_refused(cli("info", long), "cannot be read")
    assert_refused(cli("simulate", "-n", 3, "--out", long), "cannot use --out")
    assert not any(tmp_path.iterdir())


# --- 4: huge counts ------------------------------------------------------------------------------------


@pytest.mark.parametrize("args, fragment", [
    (["-n", 10**12], "--deals must be at most 1,000,000,000"),
    (["-n", 10**40], "--deals must be at most"),
    (["-n", 100, "--chunk-size", 10**7], "--chunk-size must be at most 100,000"),
    (["-n", 10**12, "--chunk-size", 10**12], "--deals must be at most"),
    (["-n", config.SIMULATE_MAX_CHUNKS + 1, "--chunk-size", 1], "parts, more than 1,000,000: give --chunk-size 2"),
    (["-n", 100, "--workers", 10**6], "--workers 1,000,000 is more than"),
    (["-n", 100, "--workers", 10**6, "--scheduler", "local"], "--workers 1,000,000 is more than"),
    (["-n", 100, "--seed", 2**64], "0<=x<=18446744073709551615"),
])
def test_huge_counts_are_refused_up_front(tmp_path, args, fragment):
    out = tmp_path / "a" / "b"
    t0 = time.monotonic()
    assert_refused(cli("simulate", *args, "--out", out), fragment)
    assert time.monotonic() - t0 < 10
    assert not any(tmp_path.iterdir())


def test_library_limits(tmp_path):
    with pytest.raises(SimulateError, match="--deals must be at most"):
        make_spec(10**5000)  # too many digits to print: still a message
    with pytest.raises(SimulateError, match="--deals must be an integer"):
        make_spec(True)
    with pytest.raises(SimulateError, match="--workers"):
        simulate(tmp_path / "x", 10, workers=10**9)
    assert not any(tmp_path.iterdir())
    spec = make_spec(config.SIMULATE_MAX_DEALS, chunk_size=config.SIMULATE_MAX_DEALS // config.SIMULATE_MAX_CHUNKS)
    assert spec.chunks == config.SIMULATE_MAX_CHUNKS  # the limits themselves are allowed


def test_deal_count_limit():
    result = cli("deal", "-n", 10**12)
    assert result.exit_code == 2 and result.stdout == "" and "1<=x<=1000000000" in result.output
    assert cli("deal", "-n", 2).output.count("\n") == 2


# --- 5: surprises ------------------------------------------------------------------------------------


def test_empty_out_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for out in ("", "  "):
        assert_refused(cli("simulate", "-n", 3, "--out", out), "--out is empty")
    with pytest.raises(SimulateError, match="NUL"):  # (a command line cannot hold one)
        simulate("a\0b", 3)
    with pytest.raises(SimulateError, match="--out is empty"):
        simulate("", 3)
    assert_refused(cli("simulate", "-n", 3, "--out", "x", "--scheduler", ""), "--scheduler is empty")
    assert not any(tmp_path.iterdir())


def test_unlockable_directory(tiny, tmp_path):
    out = copy_run(tiny, tmp_path / "run")
    (out / res.LOCK_FILE).unlink(missing_ok=True)
    (out / res.LOCK_FILE).mkdir()
    (out / "part-000001.parquet").unlink()
    assert_refused(cli("simulate", "--resume", "--out", out), "cannot lock")


# --- 6: a Dask address that accepts and never answers -------------------------------------------------------


@pytest.fixture
def silent_server():
    """A TCP server on 127.0.0.1 that accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    held, stop = [], threading.Event()

    def accept():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join(5)
    for conn in held:
        conn.close()
    server.close()


def test_a_scheduler_that_never_answers(tmp_path, monkeypatch, silent_server):
    pytest.importorskip("distributed")
    monkeypatch.setattr(config, "DASK_CONNECT_TIMEOUT", "2s")
    (tmp_path / "empty").mkdir()
    for out in (tmp_path / "a" / "b", tmp_path / "empty"):
        t0 = time.monotonic()
        result = cli("simulate", "-n", 3, "--out", out, "--scheduler", silent_server)
        assert time.monotonic() - t0 < 20
        assert_refused(result, "cannot reach the Dask scheduler", "no answer within 2 s")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty"] and not any((tmp_path / "empty").iterdir())


# --- 1: the main process killed: no orphaned workers ---------------------------------------------------


def _children(pid: int) -> list[int]:
    kids = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            kids += [int(x) for x in f.read().split()]
    return kids


def _running(pid: int) -> bool:
    """Is ``pid`` a live process (not gone, not a zombie waiting to be reaped)?"""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def _start_run(out: Path, deals: int, *extra) -> tuple[subprocess.Popen, list[int]]:
    """``simulate`` on 2 worker processes in a subprocess, once it has
    written a part; returns it and its worker processes."""
    cmd = [sys.executable, "-m", "kaiser_sim", "simulate", "-n", str(deals), "--seed", str(SEED), "--chunk-size", "20",
           "--workers", "2", "--out", str(out), "--quiet", *extra]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=defaults_in_child)  # the test signals it: not what the suite inherited
    deadline = time.monotonic() + 60
    while not (out.is_dir() and res.part_files(out)):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    workers = [k for k in _children(proc.pid) if "spawn_main" in Path(f"/proc/{k}/cmdline").read_text()]
    assert len(workers) == 2, workers
    return proc, workers


def _assert_gone(pids, seconds=5.0):
    deadline = time.monotonic() + seconds
    while any(_running(p) for p in pids):
        assert time.monotonic() < deadline, f"still running: {[p for p in pids if _running(p)]}"
        time.sleep(0.05)


linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@linux_only
def test_workers_end_when_the_main_process_is_killed(tmp_path):
    out = tmp_path / "killed"
    proc, workers = _start_run(out, 20_000)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)  # the pipes close when every process holding them has ended
    try:
        _assert_gone(workers)
    finally:
        for pid in workers:
            if _running(pid):
                os.kill(pid, signal.SIGKILL)
    state = res.scan(out, deep=True)
    assert not state.bad and not state.complete


@linux_only
def test_sigterm_stops_the_workers_and_leaves_a_resumable_run(tmp_path):
    out = tmp_path / "stopped"
    deals = 500
    proc, workers = _start_run(out, deals)
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=30)
    try:
        _assert_gone(workers)
    finally:
        for pid in workers:
            if _running(pid):
                os.kill(pid, signal.SIGKILL)
    assert proc.returncode == 128 + signal.SIGTERM, stderr
    assert stdout == "" and "Traceback" not in stderr
    assert "stopped by SIGTERM" in stderr and f"--resume --out {out}" in stderr
    state = res.scan(out, deep=True)
    assert not state.bad and not state.complete and not state.temp
    assert all(res.is_dataset_file(n) for n in os.listdir(out))
    resumed = subprocess.run([sys.executable, "-m", "kaiser_sim", "simulate", "--resume", "--out", str(out),
                              "--workers", "2", "--quiet"], capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    df = kaiser_sim.load_results(out)
    assert df["deal"].tolist() == list(range(deals))


@pytest.mark.parametrize("signum, stop", [(signal.SIGTERM, "RunStopped"), (signal.SIGINT, "KeyboardInterrupt")])
def test_a_stop_during_a_write_waits_for_the_whole_part(tmp_path, monkeypatch, default_signals, signum, stop):
    """The signal arrives inside pyarrow's writer (where the CI run once saw
    it leave the writer open on a closed file): the part is finished, then
    the run stops, and it resumes to the same rows.  (``default_signals``:
    as started from a terminal, whatever the suite inherited.)"""
    write_table, calls = pq.write_table, []

    def write_with_a_signal(*args, **kwargs):
        calls.append(1)
        os.kill(os.getpid(), signum)  # the handler runs here, in the main thread, before the write
        time.sleep(0.01)
        return write_table(*args, **kwargs)

    monkeypatch.setattr(pq, "write_table", write_with_a_signal)
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt) as stopped:
        simulate(out, 60, seed=SEED, chunk_size=20, workers=1, mode="tricks")
    assert type(stopped.value).__name__ == stop and calls == [1]
    assert {s: signal.getsignal(s) for s in DEFAULTS} == DEFAULTS  # the handlers put back
    state = res.scan(out, deep=True)
    assert not state.bad and not state.temp and sorted(state.parts) == [0]
    monkeypatch.setattr(pq, "write_table", write_table)
    simulate(out, None, resume=True, workers=1)
    fresh = tmp_path / "fresh"
    simulate(fresh, 60, seed=SEED, chunk_size=20, workers=1, mode="tricks")
    assert kaiser_sim.load_results(out).equals(kaiser_sim.load_results(fresh))


def test_ignored_signals_stay_ignored(tmp_path, monkeypatch, default_signals):
    """A run started with SIGHUP and SIGINT ignored (``nohup``, a script's
    background job) is not stopped by them, and leaves them ignored."""
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    write_table, calls = pq.write_table, []

    def write_with_signals(*args, **kwargs):
        calls.append(1)
        os.kill(os.getpid(), signal.SIGHUP)
        os.kill(os.getpid(), signal.SIGINT)
        return write_table(*args, **kwargs)

    monkeypatch.setattr(pq, "write_table", write_with_signals)
    out = tmp_path / "run"
    simulate(out, 40, seed=SEED, chunk_size=20, workers=1, mode="tricks")
    assert len(calls) == 2 and res.info(out)["complete"]
    assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN and signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


#: The tests that depend on this process's signal dispositions (the others
#: signal child processes, started with their defaults).
IN_PROCESS_SIGNAL_TESTS = ("test_a_stop_during_a_write_waits_for_the_whole_part", "test_ignored_signals_stay_ignored")


def test_the_signal_tests_pass_started_with_signals_ignored(tmp_path):
    """Run the signal tests in a pytest started as a script's background job
    under ``nohup`` starts (SIGINT and SIGHUP ignored), with no standard
    input: they set what they need themselves (issue 34)."""
    here = Path(__file__)
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--basetemp={tmp_path / 'inner'}",
           *(f"tests/{here.name}::{name}" for name in IN_PROCESS_SIGNAL_TESTS)]
    p = subprocess.run(cmd, cwd=here.parents[1], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       preexec_fn=ignored_in_child, timeout=600)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    assert re.search(r"^3 passed", p.stdout, re.M), p.stdout[-3000:]


@linux_only
def test_a_killed_worker_is_a_clear_error(tmp_path):
    out = tmp_path / "broken"
    proc, workers = _start_run(out, 20_000)
    os.kill(workers[0], signal.SIGKILL)
    stdout, stderr = proc.communicate(timeout=30)
    _assert_gone(workers)
    assert proc.returncode == 2 and stdout == "" and "Traceback" not in stderr, stderr
    assert "a worker process ended unexpectedly" in stderr
    assert not res.scan(out, deep=True).bad


def test_a_worker_whose_parent_is_gone_ends_at_once():
    """The race of ``PR_SET_PDEATHSIG``: a parent that died before the call."""
    code = ("import os; from kaiser_sim.runs.executors import _end_with_parent; "
            "_end_with_parent(os.getppid() + 1000000); print('still running')")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and result.stdout == ""
    code = ("import os, time; from kaiser_sim.runs.executors import _end_with_parent; "
            "_end_with_parent(os.getppid()); time.sleep(0.2); print('still running')")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout == "still running\n"

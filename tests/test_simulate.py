"""``kaiser-sim simulate`` / :mod:`kaiser_sim.runs.simulate`: reproducibility across
workers, chunk sizes and Dask; resume after a real SIGKILL; schema and
metadata; refusals.  Runs are a few dozen deals: the solver dominates."""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import kaiser_sim
from kaiser_sim import __version__, config
from kaiser_sim.runs import results as res
from kaiser_sim.cards import DECK_34, parse_hand, popcount
from kaiser_sim.cli import main
from kaiser_sim.deal import deal_batch
from kaiser_sim.runs.progress import BarProgress, LineProgress, make_progress
from kaiser_sim.rules import Rules
from kaiser_sim.runs.simulate import SimulateError, compute_chunk, make_spec, simulate

SEED = 1
N = 24
GOOD = "N:A.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K"  # deal 0 of seed 1


@pytest.fixture(scope="module")
def reference():
    """The rows of seed 1, deals 0..N-1, computed directly (not by the engine)."""
    deals = deal_batch(N, SEED)
    return deals, kaiser_sim.dd_table(deals, mode="points")


@pytest.fixture(scope="module")
def run_one(tmp_path_factory, reference):
    """Seed 1, N deals, chunks of 5, in this process (module-wide, read only)."""
    out = tmp_path_factory.mktemp("runs") / "one"
    simulate(out, N, SEED, chunk_size=5, workers=1)
    return out


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def part_bytes(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.iterdir()) if not p.name.startswith(".")}


def assert_refused(result, *fragments):
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in result.output, result.output


# --- the rows ------------------------------------------------------------------------


def test_rows_are_the_deals_and_their_tables(run_one, reference):
    deals, points = reference
    df = kaiser_sim.load_results(run_one)
    assert len(df) == N
    assert df["deal"].tolist() == list(range(N))
    assert df["dealer"].tolist() == [i % 4 for i in range(N)]
    assert np.array_equal(res.hands_array(df), deals)
    assert np.array_equal(res.dd_array(df), points)
    assert res.deal_texts(df)[0] == GOOD
    assert df.loc[3, "pts_E_NT"] == points[3, 1, 4]


def test_rows_independent_of_workers_and_chunk_size(run_one, tmp_path):
    """Same seed: 1 worker / chunks of 5 == 2 worker processes / chunks of 7 ==
    one chunk; and with equal chunk sizes the parts are byte-identical."""
    simulate(tmp_path / "two", N, SEED, chunk_size=7, workers=2)
    simulate(tmp_path / "big", N, SEED, chunk_size=100, workers=2)
    simulate(tmp_path / "same", N, SEED, chunk_size=5, workers=2)
    one = kaiser_sim.load_results(run_one)
    for name in ("two", "big", "same"):
        assert kaiser_sim.load_results(tmp_path / name).equals(one), name
    assert part_bytes(tmp_path / "same") == part_bytes(run_one)


def test_compute_chunk_is_a_pure_function_of_the_chunk(reference):
    deals, points = reference
    spec = make_spec(N, SEED, chunk_size=10)
    a = compute_chunk(spec, 1, threads=1)
    b = compute_chunk(spec, 1, threads=2)
    assert a["deal"].tolist() == list(range(10, 20))
    assert np.array_equal(a["hands"], deals[10:20]) and np.array_equal(a["points"], points[10:20])
    assert np.array_equal(a["points"], b["points"])


def test_mode_both_and_tricks(tmp_path, reference):
    deals, points = reference
    simulate(tmp_path / "both", 6, SEED, mode="both", workers=1)
    simulate(tmp_path / "tricks", 6, SEED, mode="tricks", workers=1)
    both = kaiser_sim.load_results(tmp_path / "both")
    tricks = kaiser_sim.load_results(tmp_path / "tricks")
    assert list(both.columns) == res.columns_for("both")
    assert list(tricks.columns) == ["deal", "dealer", *res.HAND_COLUMNS, *res.value_columns("tricks")]
    assert np.array_equal(res.dd_array(both), points[:6])
    assert np.array_equal(res.dd_array(both, "tricks"), kaiser_sim.dd_table(deals[:6], mode="tricks"))
    assert res.dd_array(tricks, "tricks").tolist() == res.dd_array(both, "tricks").tolist()


def test_fixed_cards(tmp_path):
    simulate(tmp_path / "fix", 8, 3, fixed=["N=AK.5.-.-", "s=QS AC"], workers=1)
    run_results = res.load_run(tmp_path / "fix")
    df = run_results.frame
    n_cards, s_cards = int(parse_hand("AK.5.-.-")), int(parse_hand("Q.-.-.A"))
    assert all(int(h) & n_cards == n_cards for h in df["hand_N"])
    assert all(int(h) & s_cards == s_cards for h in df["hand_S"])
    assert run_results.metadata["fixed"] == {"N": "AK.5.-.-", "S": "Q.-.-.A"}
    assert run_results.metadata == res.read_metadata(tmp_path / "fix")  # the run metadata, beside the frame
    assert kaiser_sim.load_results(tmp_path / "fix").equals(df)
    assert np.array_equal(res.hands_array(df), deal_batch(8, 3, fixed={"N": n_cards, "S": s_cards}))


def test_rules_that_change_the_deal_and_the_play(tmp_path):
    """kitty-4: 7-card hands, values with the kitty exchange; low-nt: an LNT
    strain.  The values are those of game.dd_table (= solve --rules)."""
    from kaiser_sim.deal import deal_for_rules
    from kaiser_sim.game import dd_table

    for preset, n, strains in (("kitty-4", 1, 5), ("low-nt", 3, 6)):
        rules = Rules.preset(preset)
        simulate(tmp_path / preset, n, 3, rules=rules, workers=1)
        run_results = res.load_run(tmp_path / preset)
        df, meta = run_results.frame, run_results.metadata
        deals, kitties = deal_for_rules(n, 3, rules)
        assert np.array_equal(res.hands_array(df), deals)
        assert np.array_equal(res.dd_array(df), dd_table(deals, rules, "points", kitties=kitties))
        assert res.dd_array(df).shape == (n, 4, strains) and len(meta["strains"]) == strains
        assert Rules.from_dict(meta["rules"]) == rules
    assert {popcount(h) for h in res.hands_array(kaiser_sim.load_results(tmp_path / "kitty-4")).ravel()} == {7}
    assert res.read_metadata(tmp_path / "kitty-4")["hand_size"] == 7
    assert "pts_W_LNT" in kaiser_sim.load_results(tmp_path / "low-nt").columns


@pytest.mark.slow
def test_kitty_34_deck(tmp_path):
    simulate(tmp_path / "k34", 2, 3, rules=Rules.preset("kitty-34"), workers=1)
    df = kaiser_sim.load_results(tmp_path / "k34")
    assert res.read_metadata(tmp_path / "k34")["deck"] == 34
    assert np.array_equal(res.hands_array(df), deal_batch(2, 3, deck34=True))
    assert all(int(h) & ~int(DECK_34) == 0 for h in res.hands_array(df).ravel())


# --- schema, metadata, loading -------------------------------------------------------------


def test_schema_and_metadata(run_one):
    meta = res.read_metadata(run_one)
    assert {k: meta[k] for k in ("seed", "deals", "chunk_size", "chunks", "mode", "version")} == {
        "seed": SEED, "deals": N, "chunk_size": 5, "chunks": 5, "mode": "both", "version": __version__}
    assert Rules.from_dict(meta["rules"]) == Rules.preset("standard") and meta["rules"]["label"] == "standard"
    assert meta["columns"] == res.columns_for("both")  # the default: points and tricks, solved by the ladder
    assert sorted(p.name for p in run_one.iterdir() if not p.name.startswith(".")) == [
        "_common_metadata"] + [f"part-{i:06d}.parquet" for i in range(5)]
    # any Parquet reader: the directory is one dataset, the metadata in the schema
    table = pq.read_table(run_one)
    assert table.num_rows == N
    schema = table.schema
    assert [schema.field(c).type for c in ("deal", "dealer", "hand_N", "pts_N_S", "pts_W_NT")] == [
        "int64", "int8", "uint64", "int8", "int8"]
    assert json.loads(pq.read_schema(run_one / "_common_metadata").metadata[b"kaiser_sim"])["seed"] == SEED
    part = pq.read_schema(run_one / "part-000004.parquet").metadata
    assert json.loads(part[b"kaiser_sim.part"]) == {"chunk": 4, "first": 20, "count": 4}
    assert res.value_column("points", "E", "N") == "pts_E_NT"
    assert res.value_columns("tricks")[:6] == ["trk_N_S", "trk_N_H", "trk_N_D", "trk_N_C", "trk_N_NT", "trk_E_S"]


def test_load_some_columns(run_one):
    df = kaiser_sim.load_results(run_one, columns=["deal", "pts_S_H"])
    assert list(df.columns) == ["deal", "pts_S_H"] and len(df) == N
    with pytest.raises(res.ResultsError, match="no column pts_X"):
        kaiser_sim.load_results(run_one, columns=["pts_X"])


def test_incomplete_run_is_refused_unless_asked(run_one, tmp_path):
    out = tmp_path / "partial"
    shutil.copytree(run_one, out)
    (out / "part-000002.parquet").unlink()
    with pytest.raises(res.ResultsError, match="incomplete: 4 of 5 parts"):
        kaiser_sim.load_results(out)
    assert kaiser_sim.load_results(out, allow_incomplete=True)["deal"].tolist() == [
        i for i in range(N) if not 10 <= i < 15]


def test_info_command(run_one, tmp_path):
    result = cli("info", run_one)
    assert result.exit_code == 0
    for text in ("complete: 5 of 5 parts", "24 of 24 deals", "seed      1", "standard", "trk_W_NT", __version__):
        assert text in result.output
    d = json.loads(cli("info", run_one, "--format", "json").output)
    assert d["rows"] == N and d["complete"] and d["metadata"]["seed"] == SEED
    out = tmp_path / "partial"
    shutil.copytree(run_one, out)
    (out / "part-000000.parquet").unlink()
    assert "INCOMPLETE: 4 of 5 parts" in cli("info", out).output
    assert_refused(cli("info", tmp_path / "nothing"), "not a results directory")


# --- crash safety and resume -----------------------------------------------------------------


def test_resume_after_sigkill(tmp_path, run_one):
    """Kill a running simulate with SIGKILL twice, at different moments; only
    whole parts remain; --resume finishes it, equal to an uninterrupted run."""
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "kaiser_sim", "simulate", "-n", str(N), "--seed", str(SEED),
           "--chunk-size", "2", "--workers", "1", "--out", str(out), "--quiet"]
    for parts_before_kill in (2, 6):
        proc = subprocess.Popen(cmd + (["--resume"] if out.exists() else []))
        deadline = time.monotonic() + 60
        while len(res.part_files(out) if out.exists() else {}) < parts_before_kill:
            assert proc.poll() is None, "simulate ended before it could be killed"
            assert time.monotonic() < deadline
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        state = res.scan(out, deep=True)  # every part present is whole and valid
        assert not state.bad and not state.complete, (state.bad, len(state.parts))
        assert all(n.startswith((".", "_", "part-")) for n in os.listdir(out))
    result = cli("simulate", "--resume", "--out", out, "--quiet")
    assert result.exit_code == 0, result.output
    assert not any(res.is_temp_file(n) for n in os.listdir(out))
    assert kaiser_sim.load_results(out).equals(kaiser_sim.load_results(run_one))


def test_a_part_is_whole_or_absent(tmp_path, monkeypatch, run_one):
    """A write that fails half way leaves neither the part nor its temporary file."""
    table = pq.read_table(run_one / "part-000002.parquet")

    def half_then_fail(table, f, **kw):
        f.write(b"PAR1 half a part")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pq, "write_table", half_then_fail)
    with pytest.raises(OSError):
        res.write_part(tmp_path, table)
    assert list(tmp_path.iterdir()) == []


def test_a_directory_being_written_is_refused(run_one, tmp_path):
    fcntl = pytest.importorskip("fcntl")
    out = tmp_path / "busy"
    shutil.copytree(run_one, out)
    (out / "part-000004.parquet").unlink()
    with open(out / res.LOCK_FILE, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert_refused(cli("simulate", "--resume", "--out", out), "being written by another")
    assert cli("simulate", "--resume", "--out", out, "-q").exit_code == 0


def test_resume_reports_a_corrupt_or_foreign_part(run_one, tmp_path):
    out = tmp_path / "bad"
    shutil.copytree(run_one, out)
    (out / "part-000001.parquet").write_bytes(b"PAR1 this is not parquet")
    other = tmp_path / "other"
    simulate(other, 5, SEED + 1, chunk_size=5, workers=1)
    shutil.copy(other / "part-000000.parquet", out / "part-000003.parquet")
    result = cli("simulate", "--resume", "--out", out)
    assert_refused(result, "part-000001.parquet", "cannot be read", "part-000003.parquet", "another run")
    (out / "part-000001.parquet").unlink()
    (out / "part-000003.parquet").unlink()
    (out / "part-000009.parquet").write_bytes((run_one / "part-000000.parquet").read_bytes())
    assert_refused(cli("simulate", "--resume", "--out", out), "part-000009.parquet", "outside this run")


def test_resume_keeps_the_run_options(run_one, tmp_path):
    out = tmp_path / "r"
    shutil.copytree(run_one, out)
    for i in (1, 3):
        (out / f"part-{i:06d}.parquet").unlink()
    (out / ".part-000001.parquet.tmp-123").write_bytes(b"half a part")
    assert_refused(cli("simulate", "--resume", "--out", out, "--seed", 2, "--chunk-size", 6),
                   "--seed 2 (the run has 1)", "--chunk-size 6 (the run has 5)")
    assert_refused(cli("simulate", "--resume", "--out", out, "--rules", "short"), "--rules")
    result = cli("simulate", "--resume", "--out", out, "--seed", 1, "--workers", 1)
    assert result.exit_code == 0, result.output
    assert "resuming" in result.output and "2 to go" in result.output
    assert part_bytes(out) == part_bytes(run_one)
    assert not (out / ".part-000001.parquet.tmp-123").exists()


# --- refusals ---------------------------------------------------------------------------------


def test_existing_output_is_never_overwritten_without_force(run_one, tmp_path):
    out = tmp_path / "exists"
    shutil.copytree(run_one, out)
    before = part_bytes(out)
    assert_refused(cli("simulate", "-n", 5, "--out", out), "already holds simulation results", "--resume", "--force")
    assert part_bytes(out) == before
    assert_refused(cli("simulate", "-n", 5, "--out", out, "--resume", "--force"), "not both")
    result = cli("simulate", "-n", 3, "--seed", 4, "--out", out, "--force", "--quiet")
    assert result.exit_code == 0 and result.output == ""
    assert kaiser_sim.load_results(out)["deal"].tolist() == [0, 1, 2]
    assert res.read_metadata(out)["seed"] == 4


@pytest.mark.parametrize("fix, fragment", [
    (["X=AK.-.-.-"], "unknown seat 'X'"),
    (["N"], "give SEAT=HAND"),
    (["N=AKZ.-.-.-"], "'--fix': 'N=AKZ.-.-.-'"),
    (["N=A.-.-.-", "S=A.-.-.-"], "AS is fixed twice: N and S"),
    (["N=AKQJT98.5.A.-"], "N is fixed 9 cards, a hand has 8"),
    (["N=A.-.-.-", "n=K.-.-.-"], "seat N is given twice"),
    (["N=7.-.-.-"], "--fix"),  # the 7S is not in the 32-card deck
])
def test_bad_fix_is_refused(tmp_path, fix, fragment):
    out = tmp_path / "o"
    args = ["simulate", "-n", 5, "--out", out]
    for f in fix:
        args += ["--fix", f]
    assert_refused(cli(*args), fragment)
    assert not out.exists()


def test_fix_reads_any_seat_spelling_and_the_rules_deck(tmp_path):
    """--fix's SEAT=HAND type: the seat by any spelling Seat.parse reads, the
    cards as dots or a list, in the deck of the run's rules (the 7S only in
    the 34-card deck), the same rows as the letters."""
    a, b = tmp_path / "a", tmp_path / "b"
    assert cli("simulate", "-n", 3, "-q", "--out", a, "--fix", "N=AK.5.-.-", "--fix", "S=Q3.-.-.-").exit_code == 0
    assert cli("simulate", "-n", 3, "-q", "--out", b, "--fix", "north=AS KS 5H", "--fix", "South=QS 3S").exit_code == 0
    assert res.read_metadata(a)["fixed"] == res.read_metadata(b)["fixed"]
    assert kaiser_sim.load_results(a).equals(kaiser_sim.load_results(b))
    c = tmp_path / "c"
    r = cli("simulate", "-n", 2, "-q", "--rules", "kitty-34", "--mode", "tricks", "--out", c, "--fix", "W=7S")
    assert r.exit_code == 0, r.output


def test_other_refusals(tmp_path):
    assert_refused(cli("simulate", "-n", 0, "--out", tmp_path / "a"), "--deals")
    assert_refused(cli("simulate", "-n", -3, "--out", tmp_path / "a"), "--deals")
    assert_refused(cli("simulate", "--out", tmp_path / "a"), "--deals N")
    assert_refused(cli("simulate", "--resume", "--out", tmp_path / "a"), "nothing to resume")
    assert_refused(cli("simulate", "-n", 3, "--out", tmp_path / "a", "--chunk-size", 0), "--chunk-size")
    assert_refused(cli("simulate", "-n", 3, "--out", tmp_path / "a", "--rules", "nonsense"), "unknown rules preset")
    afile = tmp_path / "file.txt"
    afile.write_text("x")
    assert_refused(cli("simulate", "-n", 3, "--out", afile), "is a file")
    assert_refused(cli("simulate", "-n", 3, "--out", afile / "sub"), "cannot create", "Not a directory")
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    assert_refused(cli("simulate", "-n", 3, "--out", tmp_path / "mine", "--force"), "notes.txt", "not kaiser-sim")
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"
    assert not (tmp_path / "a").exists()
    with pytest.raises(SimulateError, match="--deals must be"):
        simulate(tmp_path / "b", 0)


# --- Dask -------------------------------------------------------------------------------------


def test_dask_cluster_gives_identical_parts(run_one, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                  dashboard_address=None) as cluster:
        assert cluster.scheduler_address.startswith("tcp://")
        result = cli("simulate", "-n", N, "--seed", SEED, "--chunk-size", 5, "--out", tmp_path / "d",
                     "--scheduler", cluster.scheduler_address)
    assert result.exit_code == 0, result.output
    assert part_bytes(tmp_path / "d") == part_bytes(run_one)


def test_unreachable_scheduler(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(config, "DASK_CONNECT_TIMEOUT", "1s")
    result = cli("simulate", "-n", 3, "--out", tmp_path / "a", "--scheduler", "tcp://127.0.0.1:1")
    assert_refused(result, "cannot reach the Dask scheduler")
    assert not (tmp_path / "a").exists()  # nothing left behind, not even the directory
    result = cli("simulate", "-n", 3, "--out", tmp_path / "b" / "c", "--scheduler", "tcp://127.0.0.1:1")
    assert_refused(result, "cannot reach the Dask scheduler")
    assert not (tmp_path / "b").exists()
    (tmp_path / "empty").mkdir()  # a directory that was there stays, as it was
    result = cli("simulate", "-n", 3, "--out", tmp_path / "empty", "--scheduler", "tcp://127.0.0.1:1")
    assert_refused(result, "cannot reach the Dask scheduler")
    assert os.listdir(tmp_path / "empty") == []


@pytest.mark.slow
def test_dask_local_cluster(run_one, tmp_path):
    pytest.importorskip("distributed")
    simulate(tmp_path / "d", N, SEED, chunk_size=5, workers=2, scheduler="local")
    assert part_bytes(tmp_path / "d") == part_bytes(run_one)


# --- progress ----------------------------------------------------------------------------------


class FakeClock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_line_progress_prints_periodic_lines():
    """The first line after config.PROGRESS_FIRST_LINE_SECONDS (5 s): before
    the first part it says the run is starting, not 0 deals/s and no ETA."""
    clock, out = FakeClock(), io.StringIO()
    p = LineProgress(out, interval=10, clock=clock)
    p.start(1000, done=100)
    clock.t = 4
    p.tick()
    assert out.getvalue() == ""
    clock.t = 5
    p.tick()
    assert out.getvalue().startswith("progress: 100/1,000 deals (10.0%), first part under way (workers starting; ")
    assert out.getvalue().endswith("elapsed 5s\n") and "deals/s" not in out.getvalue()
    start = len(out.getvalue())
    clock.t = 10
    p.advance(100)  # within the interval: nothing
    assert out.getvalue()[start:] == ""
    clock.t = 20
    p.advance(100)
    assert out.getvalue()[start:] == "progress: 300/1,000 deals (30.0%), 10.0 deals/s, elapsed 20s, ETA 1m10s\n"
    p.finish("done")
    assert out.getvalue().endswith("done\n")


def test_bar_progress_on_a_terminal():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    clock, out = FakeClock(), Tty()
    p = make_progress(stream=out)
    assert isinstance(p, BarProgress)
    p.clock = clock
    p.start(400)
    clock.t = 2
    p.advance(100)
    p.finish()
    text = out.getvalue()
    assert "\r[#######" in text and "50.0 deals/s" in text and "ETA 6s" in text and text.endswith("\n")
    assert isinstance(make_progress(stream=io.StringIO()), LineProgress)
    quiet = io.StringIO()
    q = make_progress(quiet=True, stream=quiet)
    q.start(10)
    q.advance(10)
    q.message("x")
    q.finish("y")
    assert quiet.getvalue() == ""


def test_cli_output_quiet_and_plain(tmp_path):
    result = cli("simulate", "-n", 2, "--out", tmp_path / "a", "--workers", 1)
    assert result.exit_code == 0
    assert "simulating 2 deals" in result.output and "done: 2 deals in 1 parts" in result.output
    result = cli("simulate", "-n", 2, "--out", tmp_path / "b", "--quiet")
    assert result.exit_code == 0 and result.output == ""

"""Monte Carlo runs at scale: deal, solve and store results chunk by chunk.

:func:`simulate` is the engine behind ``kaiser-sim simulate``.  A run of
``N`` deals is cut into chunks of ``C`` deals; chunk ``i`` covers deal
indices ``[i*C, (i+1)*C)`` and becomes one Parquet part (format:
:mod:`kaiser_sim.runs.results`).  A chunk is computed by
:func:`~kaiser_sim.runs.chunks.compute_chunk`, a pure function of (run,
chunk index): it deals with :func:`kaiser_sim.deal.deal_batch` (deal ``i``
depends only on the seed, the rules' deck and hand size, the fixed cards
and ``i``) and solves with :func:`kaiser_sim.game.dd_table` (exact, so
independent of threads).  Hence the rows never depend on the number of
workers, the chunk size or the engine that ran them.  Under rules with the
weak-hand redeal (``weak_redeal`` ``weak`` or ``weak+quads``) a deal in
which some hand is weak is redealt, as if the player always demanded it
(:func:`kaiser_sim.deal.deal_for_rules`): deal ``i`` is the first
acceptable one of attempt 0 (the plain deal ``i``), attempt 1, 2, ... (deal
``i`` of a run seeded from (seed, attempt)), so it still depends only on
(seed, i); the metadata records the rule (``redeal``) and each part the
number of redeals it took (when not 0).  Rules without the redeal deal
exactly as before.  Under rules that change the play (a kitty, low no
trump) a chunk is solved with
:func:`kaiser_sim.game.dd_table`, so the values are those
``kaiser-sim solve --rules`` prints.

The run engine, one module a job (this module runs a run and keeps its
output directory; the others it uses):

- :mod:`~kaiser_sim.runs.spec`: the run spec (:class:`RunSpec`, checked by
  :func:`make_spec`), the contract design of ``--play`` runs, the errors;
- :mod:`~kaiser_sim.runs.chunks`: one chunk dealt, solved (and played);
- :mod:`~kaiser_sim.runs.executors`: the engines (this process, local worker
  processes, a Dask cluster), which hand chunks out a few at a time while
  this process writes each part as soon as it arrives, so memory does not
  grow with ``N``;
- :mod:`~kaiser_sim.runs.locking`: the lock on the output directory and the
  signals that stop a run cleanly.

Crash safety: parts are written under a temporary name and renamed when
complete (:func:`kaiser_sim.runs.results.write_part`); only this process writes.
A run killed at any moment leaves whole parts only; ``resume=True`` checks
every part found (a corrupt or foreign one is an error naming it) and
computes the missing chunks.  Worker processes end with this process, even
when it is killed with SIGKILL; SIGTERM and SIGHUP stop a run cleanly
(:class:`RunStopped`: workers ended, parts kept), unless the process was
started with them ignored (``nohup``'s SIGHUP).

Limits, refused up front (``config``): at most ``SIMULATE_MAX_DEALS`` deals,
``SIMULATE_MAX_CHUNK_SIZE`` deals a part, ``SIMULATE_MAX_CHUNKS`` parts and
``SIMULATE_MAX_WORKERS_PER_CORE`` local workers a core; seeds up to ``MAX_SEED``.

The run engine's public names are importable from here (those defined in
the modules above too), as ``from kaiser_sim.runs.simulate import simulate,
SimulateError``.
"""

from __future__ import annotations

import os
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from .. import config
from . import results as res
from ..cards import NotationError
from .chunks import compute_chunk
from .executors import dask_connect, dask_executor, default_workers, in_process, schedule, worker_pool
from .locking import RunStopped, locked, stop_on_signals, whole_write
from .progress import Progress, format_duration
from ..rules import STANDARD, Rules, RulesError
from .spec import RunSpec, SimulateError, auto_chunk_size, make_spec, parse_fixed, resume_spec, shown


@dataclass
class RunSummary:
    """What :func:`simulate` did."""

    path: Path
    spec: RunSpec
    chunks_written: int
    chunks_found: int
    deals_written: int
    seconds: float
    #: deals redealt for a weak hand by this call (rules with the weak-hand redeal)
    redeals: int = 0

    @property
    def rate(self) -> float:
        """Deals per second solved and written by this call."""
        return self.deals_written / self.seconds if self.seconds > 0 else 0.0


def simulate(out, deals: int | None = None, seed: int | None = None, *, mode: str | None = None,
             rules: Rules | None = None, fixed=None, chunk_size: int | None = None, workers: int | None = None,
             scheduler=None, resume: bool = False, force: bool = False,
             progress: Progress | None = None, samples: int | None = None) -> RunSummary:
    """Deal, solve and store ``deals`` deals as a Parquet results dataset in ``out``.

    Parameters
    ----------
    out : results directory (created; see :mod:`kaiser_sim.runs.results`).
    deals : number of deals (required for a new run; at most ``config.SIMULATE_MAX_DEALS``).
    seed : seed of the run (default ``config.DEFAULT_SEED``, 0).
    mode : ``"both"`` (default: the points and the tricks tables, solved
        together by the ladder at about 1.2x the points table's cost),
        ``"points"`` or ``"tricks"``: which tables to store.
    rules : a :class:`~kaiser_sim.rules.Rules`; its hand size and deck decide
        the dealing, the whole value is recorded.  Like every option here,
        ``None`` is "not given": a resumed run's own rules, a new run's
        :data:`kaiser_sim.rules.STANDARD`; from here on the run holds a
        ``Rules`` (:class:`~kaiser_sim.runs.spec.RunSpec`).
    fixed : cards every deal gives a seat: ``["N=AKQ.5.-.-"]`` or ``{"N": "AKQ.5.-.-"}``.
    chunk_size : deals per part (default ``config.SIMULATE_CHUNK_SIZE``; at most
        ``config.SIMULATE_MAX_CHUNK_SIZE``, and ``config.SIMULATE_MAX_CHUNKS`` parts).
    workers : local worker processes (default: every core; at most
        ``config.SIMULATE_MAX_WORKERS_PER_CORE`` a core); with
        ``scheduler="local"`` the number of Dask workers.
    scheduler : ``None`` (local), ``"local"`` (a Dask ``LocalCluster``), a Dask
        scheduler address ``"tcp://host:8786"`` or a ``distributed.Client``.
    resume : finish the run found in ``out``; options left as ``None`` are
        taken from it, options given must agree with it.
    force : replace results found in ``out``.
    progress : a :class:`~kaiser_sim.runs.progress.Progress` (default silent).
    samples : K (``--play K``): also play each deal's contract out with four PIMC players
        sampling K layouts a turn (:data:`~kaiser_sim.runs.spec.CONTRACTS`; the columns
        :data:`kaiser_sim.runs.results.PLAY_COLUMNS`); default 0, no play.  Parts
        default to ``config.PLAY_CHUNK_SIZE`` deals then.

    The rows depend only on (seed, rules, fixed cards) and the deal index,
    never on ``workers``, ``chunk_size`` or ``scheduler``.  Raises
    :class:`SimulateError` for bad arguments, an existing output without
    ``resume``/``force``, a corrupt or foreign part found when resuming, or a
    worker process that died; :class:`RunStopped` (a KeyboardInterrupt) when
    SIGTERM or SIGHUP stopped the run (called from the main thread).

    With ``workers > 1`` the worker processes are *spawned*: a script that
    calls this must guard its entry point with ``if __name__ == "__main__":``
    (as with any ``multiprocessing`` code).

    Example
    -------
    >>> simulate("runs/s1", 100_000, seed=1)                 # doctest: +SKIP
    >>> df = kaiser_sim.load_results("runs/s1", columns=["deal", "pts_N_NT"])  # doctest: +SKIP
    """
    progress = progress or Progress()
    if isinstance(out, (str, os.PathLike)) and not os.fspath(out).strip():
        raise SimulateError("--out is empty: give the results directory (it would be the current directory)")
    if "\0" in str(out):
        raise SimulateError(f"--out {out!r}: a path cannot hold a NUL character")
    path = Path(out)
    if resume and force:
        raise SimulateError("give --resume or --force, not both")
    if isinstance(scheduler, str) and not scheduler.strip():
        raise SimulateError("--scheduler is empty: give tcp://HOST:PORT, or local")
    workers = default_workers() if workers is None else int(workers)
    if workers < 1:
        raise SimulateError(f"--workers must be at least 1 (got {workers})")
    cores = os.cpu_count() or 1
    most = config.SIMULATE_MAX_WORKERS_PER_CORE * cores
    if workers > most and (scheduler is None or scheduler == "local"):
        raise SimulateError(f"--workers {shown(workers)} is more than {most} ({config.SIMULATE_MAX_WORKERS_PER_CORE} "
                            f"a core on this machine's {cores}); each worker process takes ~260 MB, and more "
                            "workers than cores are no faster")
    given = {"seed": seed, "deals": deals, "chunk_size": chunk_size, "mode": mode, "rules": rules, "fixed": fixed,
             "samples": samples}
    existing = _inspect(path)
    if existing and not (resume or force):
        raise SimulateError(f"{path} already holds simulation results",
                            hint="; --resume finishes that run, --force replaces it")
    if resume and not existing and deals is None:
        raise SimulateError(f"nothing to resume in {path} (no results there); give --deals N to start a run")
    if existing and resume:
        try:
            meta = res.read_metadata(path)
        except res.ResultsError as e:
            raise SimulateError(f"cannot resume: {e}") from None
        try:
            spec = resume_spec(meta, given, path)
        except (RulesError, NotationError, KeyError, TypeError) as e:
            raise SimulateError(f"cannot resume {path}: its run metadata cannot be used ({e})") from None
    else:
        if chunk_size is None and samples:
            chunk_size = config.PLAY_CHUNK_SIZE
        elif chunk_size is None:
            chunk_size = auto_chunk_size(deals, workers)
        spec = make_spec(deals, config.DEFAULT_SEED if seed is None else seed, mode or "both",
                         STANDARD if rules is None else rules, fixed, chunk_size, samples or 0)
    run = res.enclosing_dataset(path.parent)
    if run is not None:
        raise SimulateError(f"--out {path} lies inside the results directory {run}; choose a directory "
                            "outside it (a run holding other files could no longer be resumed)")
    created = None  # the outermost directory this run creates, if any
    if not path.exists():
        created = path
        while created.parent != created and not created.parent.exists():
            created = created.parent
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        if created is not None:  # the parents made before the error (a name too long at the end)
            _remove_empty_dirs(path, created)
        raise SimulateError(f"cannot create {path}: {e.strerror or e}") from None
    had_lock = (path / res.LOCK_FILE).exists()
    with locked(path), stop_on_signals():
        try:
            return _run(path, spec, existing and resume, workers, scheduler, progress)
        except BaseException:
            _tidy_unused(path, created, had_lock)
            raise


def _inspect(path: Path) -> bool:
    """Does ``path`` hold a results dataset?  Refuses a file and a directory
    holding anything else."""
    try:
        exists, is_dir = path.exists(), path.is_dir()
    except OSError as e:  # a name too long, a directory that cannot be searched
        raise SimulateError(f"cannot use --out {path}: {e.strerror or e}") from None
    if exists and not is_dir:
        raise SimulateError(f"{path} is a file; --out must be a directory (new, empty, or earlier results)")
    if not exists:
        return False
    try:
        names = sorted(os.listdir(path))
    except OSError as e:
        raise SimulateError(f"cannot read {path}: {e.strerror or e}") from None
    foreign = [n for n in names if not res.is_dataset_file(n)]
    if foreign:
        shown = ", ".join(foreign[:5]) + (", ..." if len(foreign) > 5 else "")
        raise SimulateError(f"{path} holds files that are not kaiser-sim results ({shown}); "
                            "choose a new or empty --out directory (nothing was changed)")
    return any(n == res.COMMON_METADATA or res.is_part_file(n) for n in names)


def _remove_dataset(path: Path) -> None:
    """Delete the dataset files of ``path`` (``--force``); nothing else is there."""
    for entry in os.scandir(path):
        if res.is_dataset_file(entry.name) and entry.name != res.LOCK_FILE:
            os.unlink(entry.path)


def _remove_empty_dirs(path: Path, created: Path) -> None:
    """Remove the empty directories from ``path`` up to ``created`` (those that exist)."""
    d = path
    while True:
        try:
            d.rmdir()
        except OSError:
            pass
        if d == created or d.parent == d:
            break
        d = d.parent


def _tidy_unused(path: Path, created: Path | None, had_lock: bool = True) -> None:
    """After a run that stopped before writing anything (a Dask scheduler out
    of reach, say): take away the lock file, and the directories this run
    created (``path`` up to ``created``), so that a refused run leaves nothing
    behind.  A directory holding anything else (metadata, parts: a run to
    resume) is kept, without the lock file if this run made it."""
    try:
        if os.listdir(path) != [res.LOCK_FILE]:
            if not had_lock:
                (path / res.LOCK_FILE).unlink(missing_ok=True)
            return
        (path / res.LOCK_FILE).unlink()
        if created is None:
            return
        d = path
        while True:
            d.rmdir()
            if d == created:
                break
            d = d.parent
    except OSError:  # best effort: the error being raised is the one to report
        pass


def _run(path: Path, spec: RunSpec, resuming: bool, workers: int, scheduler, progress: Progress) -> RunSummary:
    with ExitStack() as stack:
        found: dict[int, Path] = {}
        if resuming:
            state = res.scan(path, deep=True)
            if state.bad:
                raise SimulateError(f"cannot resume {path}: " + "; ".join(f"{f.name} {why}" for f, why in state.bad),
                                    hint=". Move the bad parts away and resume, or give --force instead of --resume "
                                         "to start over")
            found = state.parts
        todo = [c for c in range(spec.chunks) if c not in found]
        if scheduler is not None:  # connect before writing anything
            client, threads = dask_connect(scheduler, workers, stack)
            slots = max(2, sum(client.nthreads().values()) * config.SIMULATE_CHUNKS_AHEAD)
            stream = schedule(dask_executor(client), spec, todo, threads, slots, progress.tick)
            engine = f"Dask scheduler {scheduler if isinstance(scheduler, str) else client.scheduler.address}"
        elif workers == 1 or len(todo) <= 1:  # one chunk: solve it here on every numba thread
            stream, engine = in_process(spec, todo, workers), "this process"
        else:
            k = min(workers, len(todo))
            stream = schedule(worker_pool(k), spec, todo, 1, k * config.SIMULATE_CHUNKS_AHEAD, progress.tick)
            engine = f"{k} worker processes"
        stack.callback(stream.close)
        meta = spec.metadata()
        try:
            if resuming:
                for tmp in state.temp:
                    tmp.unlink(missing_ok=True)
            else:
                _remove_dataset(path)
                with whole_write():
                    res.write_common_metadata(path, meta)
        except OSError as e:
            raise SimulateError(f"cannot write to {path}: {e.strerror or e}") from None
        return _write_parts(path, spec, meta, stream, found, todo, resuming, engine, progress)


def _write_parts(path, spec, meta, stream, found, todo, resuming, engine, progress) -> RunSummary:
    """Write each chunk as it arrives; progress as parts land."""
    progress.message(
        (f"resuming {path}: {len(found)} of {spec.chunks} parts present, {len(todo)} to go" if resuming else
         f"simulating {spec.deals:,} deals (seed {spec.seed}, rules {spec.rules.label}, mode {spec.mode}) "
         f"in {spec.chunks} parts of {spec.chunk_size:,} -> {path}") + f"; on {engine}")
    progress.start(spec.deals, sum(spec.bounds(c)[1] for c in found))
    t0 = time.perf_counter()
    written = deals_written = redeals = 0
    try:
        for chunk, arrays in stream:
            redeals += int(arrays.get("redeals", 0))
            try:
                with whole_write():
                    res.write_part(path, res.chunk_table(meta, chunk, arrays))
                    written += 1
                    deals_written += len(arrays["deal"])
            except OSError as e:
                raise SimulateError(f"cannot write to {path}: {e.strerror or e}") from None
            progress.advance(len(arrays["deal"]))
    except BaseException:
        stream.close()
        progress.finish(f"stopped: {len(found) + written} of {spec.chunks} parts in {path}; "
                        f"finish with: kaiser-sim simulate --resume --out {path}")
        raise
    res.fsync_dir(path)
    seconds = time.perf_counter() - t0
    summary = RunSummary(path, spec, written, len(found), deals_written, seconds, redeals)
    progress.finish(f"done: {spec.deals:,} deals in {spec.chunks} parts in {path}"
                    + (f" ({deals_written:,} this run in {format_duration(seconds)}, {summary.rate:,.1f} deals/s)"
                       if written else " (nothing left to do)")
                    + (f"; weak-hand redeal ({spec.rules.weak_redeal}): {redeals:,} redeals this run"
                       if spec.redeal and written else ""))
    return summary


__all__ = ["SimulateError", "RunStopped", "RunSpec", "RunSummary", "simulate", "compute_chunk", "make_spec", "parse_fixed",
           "default_workers"]

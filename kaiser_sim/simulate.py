"""Monte Carlo runs at scale: deal, solve and store results chunk by chunk.

:func:`simulate` is the engine behind ``kaiser-sim simulate``.  A run of
``N`` deals is cut into chunks of ``C`` deals; chunk ``i`` covers deal
indices ``[i*C, (i+1)*C)`` and becomes one Parquet part (format:
:mod:`kaiser_sim.runs.results`).  A chunk is computed by :func:`compute_chunk`, a
pure function of (run, chunk index): it deals with
:func:`kaiser_sim.deal.deal_batch` (deal ``i`` depends only on the seed,
the rules' deck and hand size, the fixed cards and ``i``) and solves with
:func:`kaiser_sim.dd.dd_table` (exact, so independent of threads).
Hence the rows never depend on the number of workers, the chunk size or
the engine that ran them.  Under rules with the weak-hand redeal
(``weak_redeal`` ``weak`` or ``weak+quads``) a deal in which some hand is
weak is redealt, as if the player always demanded it
(:func:`kaiser_sim.dd.rule_variants.deal_for_rules`): deal ``i`` is the first
acceptable one of attempt 0 (the plain deal ``i``), attempt 1, 2, ... (deal
``i`` of a run seeded from (seed, attempt)), so it still depends only on
(seed, i); the metadata records the rule (``redeal``) and each part the
number of redeals it took (when not 0).  Rules without the redeal deal
exactly as before.  Under rules that change the play (a kitty, low no
trump) a chunk is solved with
:func:`kaiser_sim.dd.rule_variants.dd_table_for_rules`, so the values are those
``kaiser-sim solve --rules`` prints.

Engines (all hand chunks out a few at a time and write each part in this
process as soon as it arrives, so memory does not grow with ``N``; the
worker processes and Dask share one scheduler loop, :func:`_schedule`, over
a ``concurrent.futures`` executor):

- ``workers=1`` (or a single chunk): in this process, on ``workers`` numba threads.
- ``workers=K>1`` (default: every core): ``K`` worker processes (spawned),
  each solving whole chunks on one numba thread.  Chosen over one process
  solving each chunk on all numba threads: ``dd_table`` gives each thread
  one contiguous block of the chunk, and solve times vary a lot (search
  nodes per deal: coefficient of variation 0.86, the hardest deal 9x the
  mean), so the thread with the harder block finishes last while the other
  core idles (about 2% of the time with 1000-deal chunks on two cores, 6%
  with 100-deal chunks, estimated from node counts), and dealing and
  writing would stop the solver.  With a process per core nothing waits and
  writing overlaps solving; the cost is ~3 s of start-up (spawning, loading
  the cached kernels) and ~185 MiB per worker.
- ``scheduler=ADDRESS`` (``tcp://host:8786``) or a ``distributed.Client``:
  chunks are Dask tasks on that cluster; each task uses every numba thread
  of its worker process (start workers with ``--nthreads 1``, see the
  README).  ``scheduler="local"`` starts a ``LocalCluster`` of ``K``
  single-threaded worker processes for a try-out.  Results come back to
  this process, which writes the parts: the cluster needs no shared disk.

Crash safety: parts are written under a temporary name and renamed when
complete (:func:`kaiser_sim.runs.results.write_part`); only this process writes.
A run killed at any moment leaves whole parts only; ``resume=True`` checks
every part found (a corrupt or foreign one is an error naming it) and
computes the missing chunks.  Worker processes end with this process, even
when it is killed with SIGKILL (:func:`_end_with_parent`); SIGTERM and
SIGHUP stop a run cleanly (:class:`RunStopped`: workers ended, parts kept),
unless the process was started with them ignored (``nohup``'s SIGHUP).

Limits, refused up front (``config``): at most ``SIMULATE_MAX_DEALS`` deals,
``SIMULATE_MAX_CHUNK_SIZE`` deals a part, ``SIMULATE_MAX_CHUNKS`` parts and
``SIMULATE_MAX_WORKERS_PER_CORE`` local workers a core; seeds up to ``MAX_SEED``.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

import numpy as np

from .errors import KaiserSimError
from . import __version__, config
from .runs import results as res
from .cards import NotationError, Seat, format_hand, parse_hand
from .deal import deal_batch, kitty_of, normalize_fixed
from .runs.progress import Progress, format_duration
from .rules import Rules, RulesError


#: how the contracts of a play run are chosen (also stored in the run's metadata)
CONTRACTS = ("declarer: seat deal % 4 (rotating with the deal); strain: the declarer's trump by rule "
             "(longest suit, ties by high cards) from its own hand, no trump on every third deal "
             "(deal % 3 == 2)")
#: what changes under rules that play low no trump (appended to :data:`CONTRACTS` in their runs)
CONTRACTS_LOW_NT = "; under rules with low no trump every other no-trump deal is played low (deal % 6 == 5)"
NT_EVERY = 3


def contracts_text(rules=None) -> str:
    """:data:`CONTRACTS`, and what changes under ``rules``."""
    return CONTRACTS + (CONTRACTS_LOW_NT if rules is not None and rules.low_nt != "off" else "")


#: how the weak-hand redeal is applied (stored in the run's metadata, ``redeal``)
REDEAL_METHOD = ("a deal in which some hand may demand a redeal under the rules' weak_redeal is redealt, as if the "
                 "player always demanded it: deal i is the first acceptable deal of attempt 0 (deal i of the seed), "
                 "1, 2, ... (deal i of a seed derived from (seed, attempt)); a part whose deals took redeals records "
                 "how many ('redeals' in its part metadata)")


def play_contracts(hands, deal_ids, rules=None) -> tuple[np.ndarray, np.ndarray]:
    """``(declarer seat, strain 0..4, 5 low NT)`` of each deal of a ``--play``
    run (:data:`CONTRACTS`): ``hands`` (n, 4) bitboards (before any kitty
    is taken), ``deal_ids`` the deals' indices in the run; under ``rules``
    with low no trump every other NT deal is low (:data:`CONTRACTS_LOW_NT`)."""
    from .hands import trump_by_rule

    idx = np.asarray(deal_ids, dtype=np.int64)
    hands = np.asarray(hands, dtype=np.uint64)
    dec = idx % 4
    strains = trump_by_rule(hands[np.arange(len(idx)), dec]).astype(np.int64)
    strains = np.where(idx % NT_EVERY == NT_EVERY - 1, 4, strains)
    if rules is not None and rules.low_nt != "off":
        strains = np.where(idx % (2 * NT_EVERY) == 2 * NT_EVERY - 1, 5, strains)
    return dec, strains


def _shown(value) -> str:
    """A value for a message: its repr, cut short (an absurd value is named, not printed whole)."""
    try:
        text = f"{value:,}" if isinstance(value, (int, np.integer)) and not isinstance(value, bool) else repr(value)
    except ValueError:  # an integer of more digits than Python prints
        text = "a huge number"
    return text if len(text) <= 40 else text[:37] + "..."


class SimulateError(KaiserSimError):
    """A run that cannot start or resume (bad arguments, an existing or foreign
    output, a corrupt part); the message says why.  Exit status 2 on the
    command line.  ``hint``: what to do next in ``kaiser-sim simulate``'s own
    options (``--resume``, ``--force``), appended as it is to the message by
    that command only: a command that simulates for itself (``study``,
    ``report``, ``table-play-model``) has other options and says its own."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.hint = hint


class ResumeMismatch(SimulateError):
    """A resume given options that differ from those the run in ``path`` was
    started with; ``clashes``: one text per option (what was given, what the
    run has), for callers whose hint differs (``study``, ``report``)."""

    def __init__(self, path, clashes: list[str]):
        self.path, self.clashes = path, clashes
        super().__init__(f"cannot resume {path} with different options: " + "; ".join(clashes),
                         hint=". Leave them out to finish the run as started, or give --force instead of --resume "
                              "to start over")


class RunStopped(KeyboardInterrupt):
    """The run was stopped by SIGTERM or SIGHUP (a KeyboardInterrupt, as for
    Ctrl-C): the worker processes were ended, the parts written are kept and
    ``resume=True`` finishes the run.  ``signum``: the signal."""

    def __init__(self, signum: int):
        self.signum = int(signum)
        super().__init__(f"stopped by {signal.Signals(signum).name}")


# --- the run ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RunSpec:
    """Everything that determines a run's rows, plus its chunking.

    ``fixed``: cards given to each seat (N E S W) in every deal, as four
    bitboards.  The rows depend on ``seed``, ``rules`` (its hand size and
    deck), ``fixed`` and the deal index only.
    """

    seed: int
    deals: int
    chunk_size: int
    mode: str = "points"
    rules: Rules = Rules(label="standard")
    fixed: tuple[int, int, int, int] = (0, 0, 0, 0)
    #: K of a ``--play`` run (each deal's contract also played out by PIMC players); 0: no play
    play: int = 0
    #: redeal deals with a weak hand (the rules' ``weak_redeal``; False for runs made before it was applied)
    redeal: bool = False

    @property
    def chunks(self) -> int:
        return -(-self.deals // self.chunk_size)

    def bounds(self, chunk: int) -> tuple[int, int]:
        """``(first deal, count)`` of a chunk."""
        first = chunk * self.chunk_size
        return first, min(self.chunk_size, self.deals - first)

    @property
    def strains(self) -> tuple[str, ...]:
        """Strain suffixes of the value columns: S H D C NT, plus LNT (low no
        trump) under rules that play it."""
        return res.STRAIN_SUFFIXES + ((res.LOW_NT_SUFFIX,) if self.rules.low_nt != "off" else ())

    @property
    def plain(self) -> bool:
        """Do the rules leave the play alone (no kitty, no low no trump)?
        Then the table is ``dd.dd_table``'s; otherwise
        ``rule_variants.dd_table_for_rules``'s."""
        return self.rules.kitty == "none" and self.rules.low_nt == "off"

    @property
    def fixed_array(self) -> np.ndarray:
        return np.array(self.fixed, dtype=np.uint64)

    def metadata(self) -> dict:
        """The run metadata stored with the results (see :mod:`kaiser_sim.runs.results`)."""
        return {
            "format": res.FORMAT_NAME,
            "format_version": res.FORMAT_VERSION,
            "seed": self.seed,
            "deals": self.deals,
            "chunk_size": self.chunk_size,
            "chunks": self.chunks,
            "mode": self.mode,
            "strains": list(self.strains),
            "rules": self.rules.to_dict(),
            "fixed": {s.name: format_hand(self.fixed[s]) for s in Seat if self.fixed[s]},
            "hand_size": self.rules.hand_size,
            "deck": 34 if self.rules.deck34 else 32,
            "dealer": res.DEALER_RULE,
            "columns": res.columns_for(self.mode, self.strains, bool(self.play)),
            "version": __version__,
            **({"play": {"samples": self.play, "players": "pimc", "contracts": contracts_text(self.rules)}}
               if self.play else {}),
            **({"redeal": {"rule": self.rules.weak_redeal, "method": REDEAL_METHOD}} if self.redeal else {}),
        }

    @classmethod
    def from_metadata(cls, meta: Mapping) -> RunSpec:
        rules = Rules.from_dict(meta["rules"])
        fixed = [0, 0, 0, 0]
        for seat, text in meta.get("fixed", {}).items():
            fixed[Seat[seat]] = int(parse_hand(text, deck34=rules.deck34))
        play = int(meta["play"]["samples"]) if meta.get("play") else 0
        return cls(int(meta["seed"]), int(meta["deals"]), int(meta["chunk_size"]), meta["mode"], rules, tuple(fixed),
                   play, bool(meta.get("redeal")))


def parse_fixed(fixed, deck34: bool = False) -> tuple[int, int, int, int]:
    """Fixed cards as four bitboards, from ``["N=AKQ.5.-.-", "S=AS KS"]``,
    ``{"N": "AKQ.5.-.-"}`` / ``{Seat.N: mask}`` or ``[(Seat.N, mask), ...]``
    (``--fix``, read by the command line's ``SEAT=HAND`` type).

    A card given to two seats, a seat given twice, an unknown seat or a hand
    that cannot be read is a :class:`SimulateError`.
    """
    if not fixed:
        return (0, 0, 0, 0)
    if isinstance(fixed, Mapping):
        items = [(str(Seat(k).name) if not isinstance(k, str) else k, v, f"{k}") for k, v in fixed.items()]
    else:
        items = []
        for text in fixed:
            if isinstance(text, tuple):  # (seat, hand) read already
                items.append((Seat(text[0]).name, text[1], f"{Seat(text[0]).name}={text[1]!r}"))
                continue
            seat, sep, hand = str(text).partition("=")
            if not sep:
                raise SimulateError(f"--fix {text!r}: give SEAT=HAND, e.g. N=AKQ.5.-.- or 'N=AS KS 5H'")
            items.append((seat, hand, f"{text!r}"))
    masks = {}
    for seat, hand, label in items:
        key = seat.strip().upper()
        if key not in Seat.__members__:
            raise SimulateError(f"--fix {label}: unknown seat '{seat.strip()}' (use N, E, S or W)")
        if key in masks:
            raise SimulateError(f"--fix: seat {key} is given twice; put all of its cards in one --fix")
        if isinstance(hand, (int, np.integer)):
            masks[key] = int(hand)
            continue
        try:
            masks[key] = int(parse_hand(str(hand), deck34=deck34, who=f"{key}'s fixed cards"))
        except NotationError as e:
            raise SimulateError(f"--fix {label}: {e}") from None
    try:
        arr = normalize_fixed(masks)
    except NotationError as e:
        raise SimulateError(f"impossible fixed cards: {e}") from None
    return tuple(int(m) for m in arr)


def auto_chunk_size(deals, workers: int) -> int:
    """Deals per part when none is given: ``config.SIMULATE_CHUNK_SIZE``,
    or fewer for a small run, so that each worker gets at least
    ``config.SIMULATE_CHUNKS_PER_WORKER`` parts and the progress moves early
    (rows never depend on the chunking)."""
    if not isinstance(deals, (int, np.integer)) or deals < 1:
        return config.SIMULATE_CHUNK_SIZE  # make_spec refuses it with the right message
    per = -(-int(deals) // (max(1, workers) * config.SIMULATE_CHUNKS_PER_WORKER))
    per = -(-per // 50) * 50  # a round number
    return int(min(config.SIMULATE_CHUNK_SIZE, max(config.SIMULATE_MIN_AUTO_CHUNK_SIZE, per)))


def make_spec(deals: int, seed: int = config.DEFAULT_SEED, mode: str = "points", rules: Rules | None = None,
              fixed=None, chunk_size: int | None = None, play: int = 0) -> RunSpec:
    """A checked :class:`RunSpec`; :class:`SimulateError` names a bad argument."""
    rules = Rules.preset("standard") if rules is None else rules
    if not isinstance(rules, Rules):
        raise SimulateError(f"rules must be a kaiser_sim.rules.Rules, not {type(rules).__name__}")
    chunk_size = config.SIMULATE_CHUNK_SIZE if chunk_size is None else chunk_size
    if deals is None:
        raise SimulateError("give the number of deals (--deals N) for a new run")
    for name, value, least, most in (("--deals", deals, 1, config.SIMULATE_MAX_DEALS),
                                     ("--seed", seed, 0, config.MAX_SEED),
                                     ("--chunk-size", chunk_size, 1, config.SIMULATE_MAX_CHUNK_SIZE)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < least:
            raise SimulateError(f"{name} must be an integer >= {least} (got {_shown(value)})")
        if value > most:
            raise SimulateError(f"{name} must be at most {most:,} (got {_shown(value)})")
    chunks = -(-int(deals) // int(chunk_size))
    if chunks > config.SIMULATE_MAX_CHUNKS:
        raise SimulateError(f"--deals {deals:,} in chunks of {chunk_size:,} make {chunks:,} parts, more than "
                            f"{config.SIMULATE_MAX_CHUNKS:,}: give --chunk-size "
                            f"{-(-int(deals) // config.SIMULATE_MAX_CHUNKS):,} or more")
    if mode not in res.RUN_MODES:
        raise SimulateError(f"unknown mode '{mode}' (use {', '.join(res.RUN_MODES)})")
    if not isinstance(play, (int, np.integer)) or isinstance(play, bool) or not 0 <= play <= config.PIMC_MAX_SAMPLES:
        raise SimulateError(f"--play must be a whole number of layouts 1..{config.PIMC_MAX_SAMPLES} (got {play!r})")
    if play:
        if mode not in ("points", "both"):
            raise SimulateError("--play needs the points table (--mode points or both): the played contract's "
                                "double-dummy value is stored beside its played result")
    masks = parse_fixed(fixed, deck34=rules.deck34)
    from .dd.rule_variants import certainly_weak

    always = certainly_weak(rules, masks)
    if always:
        raise SimulateError(f"the fixed cards of {', '.join(Seat(s).name for s in always)} make a hand the rules "
                            f"redeal (weak_redeal={rules.weak_redeal}: no A, K, Q, J, 5H or 3S"
                            + (", or all four 10s, 9s or 8s" if rules.weak_redeal == "weak+quads" else "")
                            + "), so no deal would be played; add --rule weak_redeal=off to study it")
    try:  # the deck and hand-size checks of the generator, without dealing
        deal_batch(0, int(seed), fixed=np.array(masks, dtype=np.uint64), hand_size=rules.hand_size,
                   deck34=rules.deck34)
    except NotationError as e:
        raise SimulateError(f"impossible fixed cards: {e}") from None
    return RunSpec(int(seed), int(deals), int(chunk_size), mode, rules, masks, int(play), rules.weak_redeal != "off")


# --- one chunk (runs on a worker) ---------------------------------------------------------


@contextmanager
def _numba_threads(threads: int | None):
    import numba

    if threads is None:
        yield
        return
    prev = numba.get_num_threads()
    numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
    try:
        yield
    finally:
        numba.set_num_threads(prev)


def compute_chunk(spec: RunSpec, chunk: int, threads: int | None = None) -> dict:
    """Deal and solve one chunk: the unit of work of every engine.

    Returns ``{"chunk", "deal": (n,) int64, "hands": (n, 4) uint64,
    "points"/"tricks": (n, 4, k) int8 (the run's modes; k strains), "version"}``.
    A pure function of ``(spec, chunk)``; ``threads`` (numba threads, default
    all) changes only the speed.  Under rules that change the play (a kitty,
    low no trump) the tables are :func:`kaiser_sim.dd.rule_variants.dd_table_for_rules`'s,
    as ``kaiser-sim solve --rules`` prints them (with a kitty: much slower,
    a Python loop over discards).
    """
    from .dd import dd_table  # compiles (or loads from cache) on first use

    first, count = spec.bounds(chunk)
    out = {"chunk": chunk, "deal": np.arange(first, first + count, dtype=np.int64), "version": __version__}
    with _numba_threads(threads):
        if spec.redeal:
            from .dd.rule_variants import RedealError, deal_for_rules

            try:
                hands, _, redeals = deal_for_rules(count, spec.seed, spec.rules, start=first, fixed=spec.fixed_array,
                                                   redeal_weak=True, return_redeals=True)
            except RedealError as e:
                raise SimulateError(str(e)) from None
            out["redeals"] = int(redeals.sum())
        else:
            hands = deal_batch(count, spec.seed, start=first, fixed=spec.fixed_array,
                               hand_size=spec.rules.hand_size, deck34=spec.rules.deck34)
        out["hands"] = hands
        if spec.plain and spec.mode == "both":  # one ladder solve: the tricks table bounds the points search
            out["points"], out["tricks"] = dd_table(hands, mode="both", threads=threads)
        for mode in (() if spec.plain and spec.mode == "both" else res.RUN_MODES[spec.mode]):
            if spec.plain:
                out[mode] = dd_table(hands, mode=mode, threads=threads)
            else:
                from .dd.rule_variants import dd_table_for_rules

                kitties = kitty_of(hands, deck34=spec.rules.deck34) if spec.rules.kitty != "none" else None
                out[mode] = dd_table_for_rules(hands, spec.rules, mode, kitties=kitties)
        if spec.play:
            out.update(play_chunk(hands, out["deal"], out["points"], spec.play, spec.seed, threads, spec.rules))
    return out


def play_chunk(hands, deal_ids, points, samples: int, seed: int, threads: int | None = None, rules=None) -> dict:
    """The played-contract columns of a ``--play`` run's chunk
    (:data:`kaiser_sim.runs.results.PLAY_COLUMNS`): each deal's contract
    (:func:`kaiser_sim.table_play.play_contracts`), its DD points from
    ``points`` and the declaring side's points when four PIMC players with
    ``samples`` layouts a turn play it out under ``rules`` (default
    standard; :func:`kaiser_sim.dd.pimc.play_deals`: with a kitty the PIMC
    declarer takes it up and discards, low NT is played on reversed ranks,
    cover 3 scores the played line).  Under cover 3 the DD points are the
    contract's under cover 3 (:func:`kaiser_sim.dd.rule_variants.contract_values`;
    the table holds the standard count).  Deal ``i`` plays the same in any
    chunk: its generator is seeded from the run's seed and ``i``."""
    from .dd.pimc import play_deals

    ids = np.asarray(deal_ids, dtype=np.int64)
    dec, strains = play_contracts(hands, ids, rules)
    rows = np.arange(len(ids))
    played = np.zeros(len(ids), dtype=np.int64)
    kitties = None
    if rules is not None and rules.kitty != "none":
        kitties = kitty_of(hands, deck34=rules.deck34)
    dd = np.asarray(points)[rows, dec, strains]
    if len(ids):
        played = play_deals(hands, dec, strains, samples=samples, seed=seed, start=int(ids[0]),
                            threads=threads, rules=rules, kitties=kitties).declarer_points
        if rules is not None and rules.cover3:
            from .dd.rule_variants import contract_values

            dd = contract_values(hands, kitties, dec, strains, rules, threads=threads)[0]
    return {"play_declarer": dec.astype(np.int8), "play_strain": strains.astype(np.int8),
            "play_dd": np.asarray(dd).astype(np.int8), "play_pts": played.astype(np.int8)}


# --- engines: each yields (chunk, arrays) as chunks complete --------------------------------


def default_workers() -> int:
    """Cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _in_process(spec: RunSpec, todo: list[int], threads: int) -> Iterator[tuple[int, dict]]:
    for chunk in todo:
        yield chunk, compute_chunk(spec, chunk, threads=threads)


def _schedule(executor: AbstractContextManager[Executor], spec: RunSpec, todo: list[int], threads: int | None,
              slots: int, tick) -> Iterator[tuple[int, dict]]:
    """The scheduler loop of the worker processes and of Dask: on the
    executor that ``executor`` opens (:func:`_worker_pool`,
    :func:`_dask_executor`), keep up to ``slots`` chunks in flight, each a
    :func:`compute_chunk` on ``threads`` numba threads, and yield
    ``(chunk, arrays)`` as they complete (the lower chunk first when several
    do at once).  ``tick`` is called whenever a chunk completes and at least
    every ``config.SIMULATE_TICK_SECONDS`` between.  Leaving early (an error,
    a stop, the generator closed) leaves the ``with``: the executor's context
    ends the work still running."""
    with executor as pool:
        pending: dict[Future, int] = {}
        chunks = iter(todo)
        while True:
            for chunk in islice(chunks, slots - len(pending)):
                pending[pool.submit(compute_chunk, spec, chunk, threads)] = chunk
            if not pending:
                return
            done, _ = wait(pending, timeout=config.SIMULATE_TICK_SECONDS, return_when=FIRST_COMPLETED)
            tick()
            for future in sorted(done, key=pending.get):
                chunk = pending.pop(future)
                arrays = future.result()
                if arrays.get("version") != __version__:
                    raise SimulateError(f"a worker runs kaiser-sim {arrays.get('version')}, this process "
                                        f"{__version__}: install the same version on the workers")
                yield chunk, arrays


# --- local worker processes ----------------------------------------------------------------------------


class _WorkerPids:
    """The pids of a pool's worker processes, each recorded by the worker as it
    starts (:func:`_init_worker`), so that a stopped run can end them at once
    (:meth:`end`).  Shared memory, handed to the workers in the pool's
    ``initargs``."""

    def __init__(self, context, size: int):
        self._pids = context.Array("q", size)  # 0: a free slot; its lock also guards _ended
        self._ended = context.RawValue("b", 0)

    def add(self, pid: int) -> None:
        """In a worker, as it starts: record ``pid``.  A worker starting after
        :meth:`end` ends at once instead."""
        with self._pids.get_lock():
            ended = bool(self._ended.value)
            slots = self._pids.get_obj()
            free = next((i for i, p in enumerate(slots) if p == 0), None)
            if not ended and free is not None:  # a free slot always: a pool does not replace its workers
                slots[free] = pid
        if ended:
            os._exit(1)

    def end(self) -> None:
        """In the parent: SIGTERM every worker recorded; a worker still starting ends by itself."""
        with self._pids.get_lock():
            self._ended.value = 1
            pids = [p for p in self._pids.get_obj() if p]
        for pid in pids:
            try:
                os.kill(pid, signal.SIGTERM)
            except OSError:  # already gone
                pass


def _init_worker(parent: int | None = None, pids: _WorkerPids | None = None) -> None:
    """Initializer of a worker process: record its pid in ``pids``, end with
    ``parent`` (:func:`_end_with_parent`), solve on one numba thread."""
    if pids is not None:
        pids.add(os.getpid())
    if parent is not None:
        _end_with_parent(parent)
    import numba

    numba.set_num_threads(1)


def _end_with_parent(parent: int) -> None:
    """Make this worker process end when its parent ``parent`` does, however
    the parent ends (SIGKILL included): on Linux the kernel sends SIGTERM
    when the parent dies (``PR_SET_PDEATHSIG``); everywhere a watchdog
    thread polls the parent pid every ``config.WORKER_WATCHDOG_SECONDS``."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            pr_set_pdeathsig = 1
            ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, int(signal.SIGTERM), 0, 0, 0)
        except (OSError, AttributeError):  # no libc prctl: the watchdog alone
            pass
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)

    def watch():
        while os.getppid() == parent:
            time.sleep(config.WORKER_WATCHDOG_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="kaiser-sim parent watchdog", daemon=True).start()


@contextmanager
def _worker_pool(workers: int) -> Iterator[Executor]:
    """A pool of ``workers`` spawned worker processes, each solving on one
    numba thread and ending with this process.  Left normally, it waits for
    them to exit; left by an exception (a stop, an error, the loop closed
    early), it ends them at once, so that nobody computes chunks that will not
    be written.  A worker that died makes the pool broken: a
    :class:`SimulateError`.  Either way it waits until the pool has reaped
    its workers (quick: they are killed; one still starting ends in
    :func:`_init_worker`), which also keeps ``pids`` alive for them."""
    # spawn, not fork: the parent may already run OpenMP threads (numba), which fork does not survive
    context = multiprocessing.get_context("spawn")
    pids = _WorkerPids(context, workers)
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker, initargs=(os.getpid(), pids))
    try:
        yield pool
    except BrokenProcessPool:  # the pool has already ended the other workers
        pool.shutdown(wait=True, cancel_futures=True)
        raise SimulateError("a worker process ended unexpectedly (killed, or out of memory?)",
                            hint="; the parts written are kept, --resume finishes the run") from None
    except BaseException:
        pids.end()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


# --- Dask ------------------------------------------------------------------------------------------


def _dask_connect(scheduler, workers: int, stack: ExitStack):

    """``(client, numba threads per task)`` for ``scheduler``; what is opened
    here is closed by ``stack``."""
    try:
        import distributed
    except ImportError:
        raise SimulateError("--scheduler needs the 'distributed' package: pip install 'kaiser-sim[dask]'") from None
    if isinstance(scheduler, distributed.Client):
        return scheduler, None
    if scheduler == "local":  # single-threaded worker processes: one chunk per core, like the local engine
        cluster = stack.enter_context(distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None))
        return stack.enter_context(distributed.Client(cluster)), 1
    _probe_scheduler(scheduler)
    try:
        client = stack.enter_context(distributed.Client(scheduler, timeout=config.DASK_CONNECT_TIMEOUT))
    except (OSError, TimeoutError, ValueError, TypeError) as e:
        raise SimulateError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
    try:
        client.wait_for_workers(1, timeout=config.DASK_CONNECT_TIMEOUT)
    except TimeoutError:
        raise SimulateError(f"the Dask cluster at {scheduler} has no workers") from None
    return client, None  # a task uses every numba thread of its worker process


def _probe_scheduler(address) -> None:
    """Connect to the Dask scheduler at ``address`` and complete distributed's
    handshake, all within ``config.DASK_CONNECT_TIMEOUT``, or
    :class:`SimulateError`.  (``distributed.Client``'s timeout covers only the
    connection: a server that accepts it and never answers would hang it.)
    Runs on its own thread and event loop, so it cannot hang this one."""
    import asyncio

    from dask.utils import parse_timedelta
    from distributed.comm import connect

    seconds = parse_timedelta(config.DASK_CONNECT_TIMEOUT, default="s")
    outcome: list = []

    async def attempt():
        comm = await connect(address, timeout=seconds)
        await comm.close()

    def run():
        try:
            asyncio.run(asyncio.wait_for(attempt(), seconds))
            outcome.append(None)
        except Exception as e:  # reported below, in the caller's thread
            outcome.append(e)

    thread = threading.Thread(target=run, name="kaiser-sim scheduler probe", daemon=True)
    thread.start()
    thread.join(seconds + 5)
    error = outcome[0] if outcome else TimeoutError()
    if isinstance(error, TimeoutError):
        raise SimulateError(f"cannot reach the Dask scheduler at {address}: no answer within {seconds:g} s "
                            "(is it a Dask scheduler?)")
    if error is not None:
        raise SimulateError(f"cannot reach the Dask scheduler at {address}: {error}")


@contextmanager
def _dask_executor(client) -> Iterator[Executor]:
    """``client``'s ``concurrent.futures`` executor (each chunk a Dask task,
    ``pure=False``).  Left by an exception, it cancels the tasks still
    pending on the cluster."""
    executor = client.get_executor(pure=False)
    ok = False
    try:
        yield executor
        ok = True
    finally:
        executor.shutdown(wait=ok)  # wait=False: cancel what is left


# --- the output directory ---------------------------------------------------------------------


@contextmanager
def _locked(path: Path):
    """Hold an exclusive lock on ``path`` for the run (released by the OS even
    on SIGKILL); a second run on the same directory is refused."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        yield
        return
    try:
        fd = os.open(path / res.LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise SimulateError(f"cannot lock {path / res.LOCK_FILE}: {e.strerror or e}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise SimulateError(f"{path} is being written by another kaiser-sim simulate") from None
        yield
    finally:
        os.close(fd)


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


def _merge(meta: dict, given: dict, path: Path) -> RunSpec:
    """The spec of the run in ``path``; an option given for the resume must agree."""
    spec = RunSpec.from_metadata(meta)
    clashes = []
    for name, flag in (("seed", "--seed"), ("deals", "--deals"), ("chunk_size", "--chunk-size"), ("mode", "--mode"),
                       ("play", "--play")):
        if given.get(name) is not None and given[name] != getattr(spec, name):
            clashes.append(f"{flag} {given[name]} (the run has {getattr(spec, name)})")
    if given.get("rules") is not None and given["rules"] != spec.rules:
        diff = ", ".join(f"{k}={v[0]}" for k, v in given["rules"].differences(spec.rules).items())
        clashes.append(f"--rules/--rule ({diff}; the run has {spec.rules.label})")
    if given.get("fixed") and parse_fixed(given["fixed"], spec.rules.deck34) != spec.fixed:
        clashes.append("--fix (the run has " + (", ".join(f"{k}={v}" for k, v in meta.get("fixed", {}).items())
                                                or "no fixed cards") + ")")
    if clashes:
        raise ResumeMismatch(path, clashes)
    return spec


# --- the engine -----------------------------------------------------------------------------------


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
             progress: Progress | None = None, play: int | None = None) -> RunSummary:
    """Deal, solve and store ``deals`` deals as a Parquet results dataset in ``out``.

    Parameters
    ----------
    out : results directory (created; see :mod:`kaiser_sim.runs.results`).
    deals : number of deals (required for a new run; at most ``config.SIMULATE_MAX_DEALS``).
    seed : seed of the run (default ``config.DEFAULT_SEED``, 0).
    mode : ``"both"`` (default: the points and the tricks tables, solved
        together by the ladder at about 1.2x the points table's cost),
        ``"points"`` or ``"tricks"``: which tables to store.
    rules : a :class:`~kaiser_sim.rules.Rules` (default ``standard``); its hand
        size and deck decide the dealing, the whole value is recorded.
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
    play : K: also play each deal's contract out with four PIMC players
        sampling K layouts a turn (:data:`CONTRACTS`; the columns
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
        raise SimulateError(f"--workers {_shown(workers)} is more than {most} ({config.SIMULATE_MAX_WORKERS_PER_CORE} "
                            f"a core on this machine's {cores}); each worker process takes ~260 MB, and more "
                            "workers than cores are no faster")
    given = {"seed": seed, "deals": deals, "chunk_size": chunk_size, "mode": mode, "rules": rules, "fixed": fixed,
             "play": play}
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
            spec = _merge(meta, given, path)
        except (RulesError, NotationError, KeyError, TypeError) as e:
            raise SimulateError(f"cannot resume {path}: its run metadata cannot be used ({e})") from None
    else:
        if chunk_size is None and play:
            chunk_size = config.PLAY_CHUNK_SIZE
        elif chunk_size is None:
            chunk_size = auto_chunk_size(deals, workers)
        spec = make_spec(deals, config.DEFAULT_SEED if seed is None else seed, mode or "both", rules, fixed,
                         chunk_size, play or 0)
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
    with _locked(path), _stop_on_signals():
        try:
            return _run(path, spec, existing and resume, workers, scheduler, progress)
        except BaseException:
            _tidy_unused(path, created, had_lock)
            raise


class _StopState:
    """What :func:`_stop_on_signals` and :func:`_whole_write` share (signals
    reach the main thread only, so one module-level state serves)."""
    writing = 0            # how deep in _whole_write blocks the main thread is
    pending: BaseException | None = None   # a stop that came during a write


@contextmanager
def _stop_on_signals():
    """While a run writes: SIGTERM and SIGHUP raise :class:`RunStopped` in
    this (main) thread instead of killing the process at once, so that the
    engines end their worker processes and the parts written are kept.  (The
    in-process engine notices between chunks.)  A second signal during
    that clean-up is ignored.  A stop (Ctrl-C too) that comes while a file
    is being written waits until the write is whole (:func:`_whole_write`).
    A signal that is ignored (SIGHUP under ``nohup``, SIGINT in a
    background job started from a script) stays ignored: whoever started
    the run asked for that.  Elsewhere than in the main thread, nothing
    changes (Python delivers signals to the main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signums = [s for s in (signal.SIGTERM, getattr(signal, "SIGHUP", None))
               if s is not None and signal.getsignal(s) is not signal.SIG_IGN]

    def raise_or_defer(stop: BaseException):
        if _StopState.writing:
            if _StopState.pending is None:
                _StopState.pending = stop
            return
        raise stop

    def stop(signum, frame):
        for s in signums:
            signal.signal(s, signal.SIG_IGN)
        raise_or_defer(RunStopped(signum))

    def interrupt(signum, frame):
        raise_or_defer(KeyboardInterrupt())

    previous = {s: signal.signal(s, stop) for s in signums}
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, interrupt)
    _StopState.writing, _StopState.pending = 0, None
    try:
        yield
    finally:
        _StopState.writing, _StopState.pending = 0, None
        for s, handler in previous.items():
            signal.signal(s, signal.SIG_DFL if handler is None else handler)


@contextmanager
def _whole_write():
    """A file written under this is written whole before a stop takes
    effect: a signal raised inside pyarrow's writer would leave the writer
    open on a closed file (and its finaliser printing a traceback at exit).
    The stop is raised when the block ends; writes take milliseconds."""
    _StopState.writing += 1
    try:
        yield
    finally:
        _StopState.writing -= 1
    if not _StopState.writing and _StopState.pending is not None:
        stop, _StopState.pending = _StopState.pending, None
        raise stop


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
            client, threads = _dask_connect(scheduler, workers, stack)
            slots = max(2, sum(client.nthreads().values()) * config.SIMULATE_CHUNKS_AHEAD)
            stream = _schedule(_dask_executor(client), spec, todo, threads, slots, progress.tick)
            engine = f"Dask scheduler {scheduler if isinstance(scheduler, str) else client.scheduler.address}"
        elif workers == 1 or len(todo) <= 1:  # one chunk: solve it here on every numba thread
            stream, engine = _in_process(spec, todo, workers), "this process"
        else:
            k = min(workers, len(todo))
            stream = _schedule(_worker_pool(k), spec, todo, 1, k * config.SIMULATE_CHUNKS_AHEAD, progress.tick)
            engine = f"{k} worker processes"
        stack.callback(stream.close)
        meta = spec.metadata()
        try:
            if resuming:
                for tmp in state.temp:
                    tmp.unlink(missing_ok=True)
            else:
                _remove_dataset(path)
                with _whole_write():
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
                with _whole_write():
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

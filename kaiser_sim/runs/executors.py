"""The engines that run a run's chunks: this process, local worker processes, a Dask cluster.

Each engine yields ``(chunk, arrays)`` as chunks complete
(:func:`~kaiser_sim.runs.chunks.compute_chunk`); all hand chunks out a few
at a time, and the caller (:func:`kaiser_sim.runs.simulate.simulate`)
writes each part as soon as it arrives, so memory does not grow with ``N``.
The worker processes and Dask share one scheduler loop, :func:`schedule`,
over a ``concurrent.futures`` executor:

- ``workers=1`` (or a single chunk): in this process, on ``workers`` numba
  threads (:func:`in_process`).
- ``workers=K>1`` (default: every core): ``K`` worker processes (spawned),
  each solving whole chunks on one numba thread (:func:`worker_pool`).
  Chosen over one process solving each chunk on all numba threads:
  ``dd_table`` gives each thread one contiguous block of the chunk, and
  solve times vary a lot (search nodes per deal: coefficient of variation
  0.86, the hardest deal 9x the mean), so the thread with the harder block
  finishes last while the other core idles (about 2% of the time with
  1000-deal chunks on two cores, 6% with 100-deal chunks, estimated from
  node counts), and dealing and writing would stop the solver.  With a
  process per core nothing waits and writing overlaps solving; the cost is
  ~3 s of start-up (spawning, loading the cached kernels) and ~185 MiB per
  worker.  Worker processes end with this process, even when it is killed
  with SIGKILL (:func:`_end_with_parent`).
- ``scheduler=ADDRESS`` (``tcp://host:8786``) or a ``distributed.Client``:
  chunks are Dask tasks on that cluster (:func:`dask_connect`,
  :func:`dask_executor`); each task uses every numba thread of its worker
  process (start workers with ``--nthreads 1``, see docs/power-user.md).
  ``scheduler="local"`` starts a ``LocalCluster`` of ``K`` single-threaded
  worker processes for a try-out.  Results come back to this process,
  which writes the parts: the cluster needs no shared disk.

What is sent to a worker (:func:`~kaiser_sim.runs.chunks.compute_chunk`,
:class:`~kaiser_sim.runs.spec.RunSpec`, :func:`_init_worker`) is pickled
by reference: module-level names the workers import from this package.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import AbstractContextManager, ExitStack, contextmanager
from itertools import islice

from .. import __version__, config
from .chunks import compute_chunk
from .spec import RunSpec, SimulateError


def default_workers() -> int:
    """Cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def in_process(spec: RunSpec, todo: list[int], threads: int) -> Iterator[tuple[int, dict]]:
    for chunk in todo:
        yield chunk, compute_chunk(spec, chunk, threads=threads)


def schedule(executor: AbstractContextManager[Executor], spec: RunSpec, todo: list[int], threads: int | None,
              slots: int, tick) -> Iterator[tuple[int, dict]]:
    """The scheduler loop of the worker processes and of Dask: on the
    executor that ``executor`` opens (:func:`worker_pool`,
    :func:`dask_executor`), keep up to ``slots`` chunks in flight, each a
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
def worker_pool(workers: int) -> Iterator[Executor]:
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


def dask_connect(scheduler, workers: int, stack: ExitStack):

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
def dask_executor(client) -> Iterator[Executor]:
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


__all__ = ["default_workers", "in_process", "schedule", "worker_pool", "dask_connect", "dask_executor"]

"""A run's hold on its output directory: an exclusive lock, and signals that stop the run cleanly.

:func:`locked` holds a lock on the results directory for the run (a second
run on it is refused; the OS releases the lock even on SIGKILL).
:func:`stop_on_signals` makes SIGTERM and SIGHUP stop a run cleanly
(:class:`RunStopped`: workers ended, parts kept), unless the process was
started with them ignored (``nohup``'s SIGHUP), and :func:`whole_write`
lets a file being written finish before a stop takes effect, so that a run
killed at any moment leaves whole parts only.
"""

from __future__ import annotations

import os
import signal
import threading
from contextlib import contextmanager
from pathlib import Path

from . import results as res
from .spec import SimulateError


class RunStopped(KeyboardInterrupt):
    """The run was stopped by SIGTERM or SIGHUP (a KeyboardInterrupt, as for
    Ctrl-C): the worker processes were ended, the parts written are kept and
    ``resume=True`` finishes the run.  ``signum``: the signal."""

    def __init__(self, signum: int):
        self.signum = int(signum)
        super().__init__(f"stopped by {signal.Signals(signum).name}")


class _StopState:
    """What :func:`stop_on_signals` and :func:`whole_write` share (signals
    reach the main thread only, so one module-level state serves)."""
    writing = 0            # how deep in whole_write blocks the main thread is
    pending: BaseException | None = None   # a stop that came during a write


@contextmanager
def stop_on_signals():
    """While a run writes: SIGTERM and SIGHUP raise :class:`RunStopped` in
    this (main) thread instead of killing the process at once, so that the
    engines end their worker processes and the parts written are kept.  (The
    in-process engine notices between chunks.)  A second signal during
    that clean-up is ignored.  A stop (Ctrl-C too) that comes while a file
    is being written waits until the write is whole (:func:`whole_write`).
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
def whole_write():
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


@contextmanager
def locked(path: Path):
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


__all__ = ["RunStopped", "stop_on_signals", "whole_write", "locked"]

"""Signal dispositions for the tests that send signals.

A test must not depend on the dispositions the suite was started with: a
shell script's background job starts with SIGINT ignored, ``nohup`` with
SIGHUP ignored, and a child process keeps an ignored signal ignored across
``exec`` (``subprocess``'s ``restore_signals`` does not undo that).  Tests
that send a stop signal set the defaults themselves: in this process with
the ``default_signals`` fixture (``conftest.py``), in a child process with
``preexec_fn=defaults_in_child``.
"""

from __future__ import annotations

import signal

#: What a process started from a terminal has: Ctrl-C raises KeyboardInterrupt,
#: SIGTERM and SIGHUP end the process.
DEFAULTS = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: signal.SIG_DFL, signal.SIGHUP: signal.SIG_DFL}


def set_defaults() -> dict:
    """Set :data:`DEFAULTS` in this process (main thread); return the handlers they replaced."""
    return {s: signal.signal(s, handler) for s, handler in DEFAULTS.items()}


def restore(previous: dict) -> None:
    """Put back the handlers :func:`set_defaults` returned."""
    for s, handler in previous.items():
        signal.signal(s, signal.SIG_DFL if handler is None else handler)


def defaults_in_child() -> None:
    """``preexec_fn`` of a child process the test will signal: SIGINT, SIGTERM
    and SIGHUP at SIG_DFL before ``exec`` (a Python child then installs its
    KeyboardInterrupt handler for SIGINT, as it does when started from a
    terminal)."""
    for s in DEFAULTS:
        signal.signal(s, signal.SIG_DFL)


def ignored_in_child() -> None:
    """``preexec_fn`` starting a child as a script's background job under
    ``nohup`` is started: SIGINT and SIGHUP ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)

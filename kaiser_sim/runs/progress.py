"""Progress of long runs on stderr: a live bar on a terminal, plain lines in a log.

The run engines report through a small interface (``start``, ``advance``,
``tick``, ``message``, ``finish``) and never print themselves;
:func:`make_progress` picks the reporter:

- a terminal: one line redrawn in place, at most every
  ``config.PROGRESS_BAR_SECONDS``: bar, percentage, deals done, deals per
  second and ETA;
- not a terminal (a log file, a pipe, CI): one plain line after
  ``config.PROGRESS_FIRST_LINE_SECONDS``, then every
  ``config.PROGRESS_LINE_SECONDS``, and one at the end;
- ``quiet``: nothing.

Until the first unit of work is done the status says so (the first part
under way, the workers starting, the solver compiling on a first run)
rather than showing a rate of 0 and no ETA, which reads like a hang.

Rates and ETAs count only the work done by this process (a resumed run
does not count the parts it found).
"""

from __future__ import annotations

import sys
import time

from .. import config


def format_duration(seconds: float) -> str:
    """``42s``, ``3m05s``, ``2h07m``."""
    s = int(round(max(0.0, seconds)))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


class Progress:
    """Silent reporter: the interface, doing nothing (``--quiet``)."""

    def __init__(self, stream=None, clock=time.monotonic):
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.total = 0
        self.done = 0
        self.skipped = 0
        self.t0 = clock()

    def start(self, total: int, done: int = 0, unit: str = "deals") -> None:
        """``total`` units to do, ``done`` of them already done before this run."""
        self.total, self.done, self.skipped, self.unit = total, done, done, unit
        self.t0 = self.clock()

    def advance(self, n: int) -> None:
        self.done += n

    def tick(self) -> None:
        """Called while waiting: lets a live display refresh elapsed time."""

    def message(self, text: str) -> None:
        pass

    def finish(self, text: str | None = None) -> None:
        pass

    # -- numbers shared by the visible reporters --

    @property
    def elapsed(self) -> float:
        return self.clock() - self.t0

    @property
    def rate(self) -> float:
        """Units per second done by this run."""
        e = self.elapsed
        return (self.done - self.skipped) / e if e > 0 else 0.0

    @property
    def eta(self) -> float | None:
        r = self.rate
        return (self.total - self.done) / r if r > 0 else None

    def status(self) -> str:
        pct = 100.0 * self.done / self.total if self.total else 100.0
        if self.done == self.skipped and self.done < self.total:
            return (f"{self.done:,}/{self.total:,} {self.unit} ({pct:.1f}%), first part under way (workers "
                    f"starting; a first run after an install also compiles the solver, a minute or two), "
                    f"elapsed {format_duration(self.elapsed)}")
        eta = self.eta
        eta_text = format_duration(eta) if eta is not None else "?"
        return (f"{self.done:,}/{self.total:,} {self.unit} ({pct:.1f}%), {self.rate:,.1f} {self.unit}/s, "
                f"elapsed {format_duration(self.elapsed)}, ETA {eta_text}")

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()


class LineProgress(Progress):
    """Plain lines, one every ``interval`` seconds (logs, pipes)."""

    def __init__(self, stream=None, interval: float | None = None, clock=time.monotonic,
                 first: float | None = None):
        super().__init__(stream, clock)
        self.interval = config.PROGRESS_LINE_SECONDS if interval is None else interval
        self.first = min(self.interval, config.PROGRESS_FIRST_LINE_SECONDS if first is None else first)
        self._last, self._wait = self.t0, self.first

    def start(self, total, done=0, unit="deals"):
        super().start(total, done, unit)
        self._last, self._wait = self.t0, self.first

    def advance(self, n):
        super().advance(n)
        self.tick()

    def tick(self):
        now = self.clock()
        if now - self._last >= self._wait and self.done < self.total:
            self._last, self._wait = now, self.interval
            self._write(f"progress: {self.status()}\n")

    def message(self, text):
        self._write(text + "\n")

    def finish(self, text=None):
        if text:
            self._write(text + "\n")


class BarProgress(Progress):
    """A bar redrawn in place on a terminal."""

    WIDTH = 30

    def __init__(self, stream=None, interval: float | None = None, clock=time.monotonic):
        super().__init__(stream, clock)
        self.interval = config.PROGRESS_BAR_SECONDS if interval is None else interval
        self._last = -1e9
        self._shown = False

    def _draw(self, force=False):
        now = self.clock()
        if not force and now - self._last < self.interval:
            return
        self._last = now
        filled = int(self.WIDTH * self.done / self.total) if self.total else self.WIDTH
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self._write(f"\r[{bar}] {self.status()}\x1b[K")
        self._shown = True

    def start(self, total, done=0, unit="deals"):
        super().start(total, done, unit)
        self._draw(force=True)

    def advance(self, n):
        super().advance(n)
        self._draw(force=self.done >= self.total)

    def tick(self):
        self._draw()

    def message(self, text):
        self._write(("\r\x1b[K" if self._shown else "") + text + "\n")
        self._shown = False
        if self.total:
            self._draw(force=True)

    def finish(self, text=None):
        if self._shown:
            if self.done < self.total:  # stopped early: show where
                self._draw(force=True)
            self._write("\n")
            self._shown = False
        if text:
            self._write(text + "\n")


def make_progress(quiet: bool = False, stream=None) -> Progress:
    """The reporter for ``stream`` (default stderr): silent when ``quiet``, a
    live bar on a terminal, plain periodic lines otherwise."""
    stream = stream if stream is not None else sys.stderr
    if quiet:
        return Progress(stream)
    isatty = getattr(stream, "isatty", lambda: False)
    return BarProgress(stream) if isatty() else LineProgress(stream)


__all__ = ["Progress", "LineProgress", "BarProgress", "make_progress", "format_duration"]

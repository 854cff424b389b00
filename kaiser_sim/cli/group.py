"""The ``kaiser-sim`` group: an output that cannot be written ends the command
cleanly, and a command-line mistake is one line (:class:`MainGroup`)."""

from __future__ import annotations

import errno
import io
import os
import sys

import click

from ..errors import KaiserSimError
from .common import InputError, OutputFailed


class _ClosedStdout(io.TextIOBase):
    """Stands in for ``sys.stdout`` when the process started with it closed:
    writing is an error (not a silent success)."""

    encoding = "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, s):
        raise OSError(errno.EBADF, "standard output is closed")


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so that the exit does not try again to write
    what could not be written."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(fd, sys.stdout.fileno())
        finally:
            os.close(fd)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


class OneLineUsageError(click.UsageError):
    """A click usage error (an unknown option, a bad value; exit status 2)
    shown as one line, like every other refusal of the CLI, with the
    ``--help`` pointer on it: ``Error: ... (see kaiser-sim CMD --help)``
    rather than click's usage, hint, blank line and error."""

    def __init__(self, original: click.UsageError):
        super().__init__(original.format_message(), original.ctx)
        self.exit_code = original.exit_code

    def show(self, file=None) -> None:
        ctx = self.ctx
        pointer = ""
        if ctx is not None and ctx.command.get_help_option(ctx) is not None:
            names = ctx.help_option_names
            pointer = f" (see {ctx.command_path} {next((n for n in names if n.startswith('--')), names[0])})"
        click.echo(f"Error: {self.format_message()}{pointer}", file=file, err=True,
                   color=ctx.color if ctx is not None else None)


class MainGroup(click.Group):
    """The ``kaiser-sim`` group: an output that cannot be written is a clear
    error with a non-zero exit, never a traceback or a silent success.  A
    reader that went away (a closed pipe, ``| head``) ends the command
    quietly with exit status 1; a full disk or a closed stdout is named on
    stderr (exit 1); files already checked are named by the command.  A
    usage error is one line (:class:`OneLineUsageError`)."""

    def main(self, *args, **kwargs):
        if sys.stdout is None:  # started with stdout closed (>&-)
            sys.stdout = _ClosedStdout()
        return super().main(*args, **kwargs)

    def make_context(self, *args, **kwargs):
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as e:  # the group's own arguments
            raise OneLineUsageError(e) from None

    def invoke(self, ctx):
        try:
            rv = super().invoke(ctx)
        except OneLineUsageError:
            raise
        except click.UsageError as e:  # a command's arguments, or raised by the command
            if e.ctx is None and ctx.invoked_subcommand:  # click's parser leaves some without (an option's
                # missing value): the pointer names the command being parsed
                cmd = self.get_command(ctx, ctx.invoked_subcommand)
                if cmd is not None:
                    e.ctx = click.Context(cmd, info_name=ctx.invoked_subcommand, parent=ctx)
            raise OneLineUsageError(e) from None
        except KaiserSimError as e:  # any refusal of the library a command did not translate: exit 2
            raise InputError(str(e)) from None
        except OSError as e:
            _output_error(e, stdout=None)
        try:
            if sys.stdout is not None:
                sys.stdout.flush()
        except OSError as e:
            _output_error(e, stdout=True)
        return rv


def _output_error(e: OSError, stdout: bool | None):
    """Raise the clean exit for an output that failed: quiet exit 1 for a
    reader that went away, else :class:`OutputFailed` naming what failed.
    ``stdout``: True if stdout failed, None to find out from the traceback."""
    from ..runs.output_dir import OutputError

    if isinstance(e, OutputError):
        raise OutputFailed(str(e)) from None
    if stdout is None:
        stdout = not e.filename and _stdout_failed(e)
    if stdout:
        _quiet_stdout()  # the exit must not try again to write what is buffered
    if isinstance(e, BrokenPipeError):
        raise click.exceptions.Exit(1) from None
    if stdout:
        raise OutputFailed(f"cannot write to standard output: {e.strerror or e}") from None
    raise OutputFailed(f"{e.filename}: {e.strerror or e}" if e.filename else f"{e.strerror or e}") from None


def _stdout_failed(e: OSError) -> bool:
    """Did ``e`` come from writing stdout (``click.echo`` without ``err``)?"""
    import traceback

    if isinstance(sys.stdout, _ClosedStdout):
        return True
    return any(frame.f_code.co_name == "echo" and frame.f_globals.get("__name__") == "click.utils"
               and not frame.f_locals.get("err", False) for frame, _ in traceback.walk_tb(e.__traceback__))

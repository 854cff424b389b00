"""What the commands share: the errors, the common options and small helpers.

Bad input is :class:`InputError`: a one-paragraph message on stderr, exit
status 2, nothing on stdout; an output that cannot be written is
:class:`OutputFailed` (exit 1).
"""

from __future__ import annotations

from collections.abc import Iterable

import click

from .. import config

#: lines handed to one ``click.echo`` call (one flush per chunk, not per line)
_ECHO_CHUNK = 1000


class InputError(click.ClickException):
    """Bad user input (a deal that cannot be read, an empty file): exit 2.
    A very long line of the message (a huge argument echoed) is shortened."""

    exit_code = 2

    def __init__(self, message: str):
        super().__init__("\n".join(line if len(line) <= 500 else f"{line[:480]}... ({len(line):,} chars)"
                                   for line in str(message).split("\n")))


class OutputFailed(click.ClickException):
    """An output that could not be written (a full disk, a closed stdout): exit 1."""

    exit_code = 1


def output_dir(path, label: str):
    """Make sure the output directory ``path`` can be created and written
    before any work starts (:class:`InputError`, exit 2, ``label`` naming the
    option and its value).  Nothing is left behind: a directory created for
    the check is removed again (the command creates it when it writes).  A
    results dataset, or a directory inside one, is refused
    (:func:`kaiser_sim.runs.results.check_output`)."""
    from pathlib import Path

    from ..runs.results import check_output

    p = Path(path)
    try:
        if p.exists() and not p.is_dir():
            raise InputError(f"{label}: is a file; give a directory")
        check_output(p)
    except OSError as e:
        raise InputError(f"{label}: cannot write there ({e.strerror or e})") from None
    return p


def output_file(path, label: str):
    """Make sure the file ``path`` can be written before any work starts
    (:class:`InputError`, exit 2): its directory can be created and written,
    its name is one the file system takes, an existing ``path`` is a
    regular file (never a directory or a device such as /dev/null), and it
    does not lie in a results dataset.  Nothing is left behind."""
    from pathlib import Path

    from ..runs.results import check_output

    if not str(path).strip():
        raise InputError(f"{label}: is empty; give a file name")
    try:
        check_output(path, file=True)
    except OSError as e:
        raise InputError(f"{label}: cannot write there ({e.strerror or e})") from None
    return Path(path)


def not_empty(**options) -> None:
    """:class:`InputError` for a path option given as an empty string
    (``--out ""`` would otherwise mean the current directory, or nothing)."""
    for name, value in options.items():
        if value is not None and not str(value).strip():
            raise InputError(f"--{name.replace('_', '-')} is empty: give a path")


def given(ctx, *names) -> bool:
    """Was any of these options typed on the command line (not left at its default)?"""
    return any(ctx.get_parameter_source(n) not in (None, click.core.ParameterSource.DEFAULT) for n in names)


def echo_lines(lines: Iterable[str]) -> None:
    """Write lines to stdout, flushing once per chunk rather than per line."""
    chunk: list[str] = []
    for line in lines:
        chunk.append(line)
        if len(chunk) == _ECHO_CHUNK:
            click.echo("\n".join(chunk))
            chunk = []
    if chunk:
        click.echo("\n".join(chunk))


# --- shared options -------------------------------------------------------------

seed_option = click.option(
    "--seed",
    type=click.IntRange(min=0, max=config.MAX_SEED),
    default=config.DEFAULT_SEED,
    show_default=True,
    help="Seed of the run (an integer from 0 to 2**64 - 1). The same seed gives the same deals.",
)


def count_option(what: str = "deals"):
    return click.option(
        "--count",
        "-n",
        type=click.IntRange(min=1, max=config.SIMULATE_MAX_DEALS),
        default=config.DEFAULT_DEAL_COUNT,
        show_default=True,
        help=f"Number of {what} (1 to {config.SIMULATE_MAX_DEALS:,}).",
    )


mode_option = click.option(
    "--mode",
    type=click.Choice(["points", "tricks", "both"]),
    default="both",
    show_default=True,
    help="points: raw Kaiser points (5H +5, 3S -3); tricks: plain tricks (equals bridge double dummy); both.",
)


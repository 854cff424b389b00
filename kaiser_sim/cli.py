"""The ``kaiser-sim`` command line: a thin click layer over the library.

Commands stay short; the work lives in library modules (``deal`` generates,
``deal_io`` reads and writes deal lists, ``solver`` solves, ``dd_format``
formats).  Bad input is reported as :class:`InputError`: a one-paragraph
message on stderr, exit status 2, nothing on stdout.
"""

from __future__ import annotations

import errno
import io
import os

import json
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

# Only light modules at the top: ``kaiser-sim --help`` and every command's
# ``--help`` import neither numpy nor numba, pyarrow, pandas, matplotlib or
# distributed (tests/test_layers.py checks).  Each command imports what it uses.
from . import config
from .cli_rules import rules as rules_command
from .cli_rules import rules_options

#: the formats of ``kaiser-sim deal`` (= ``kaiser_sim.deal_io.FORMATS``, checked by
#: tests/test_layers.py; deal_io imports numba)
DEAL_FORMATS = ("pbn", "jsonl")

if TYPE_CHECKING:
    import numpy as np

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


def _output_dir(path, label: str):
    """Make sure the output directory ``path`` can be created and written
    before any work starts (:class:`InputError`, exit 2, ``label`` naming the
    option and its value).  Nothing is left behind: a directory created for
    the check is removed again (the command creates it when it writes)."""
    from pathlib import Path

    from .output_dir import probe

    p = Path(path)
    if p.exists() and not p.is_dir():
        raise InputError(f"{label}: is a file; give a directory")
    try:
        probe(p)
    except OSError as e:
        raise InputError(f"{label}: cannot write there ({e.strerror or e})") from None
    return p


def _not_empty(**options) -> None:
    """:class:`InputError` for a path option given as an empty string
    (``--out ""`` would otherwise mean the current directory, or nothing)."""
    for name, value in options.items():
        if value is not None and not str(value).strip():
            raise InputError(f"--{name.replace('_', '-')} is empty: give a path")


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


class _Main(click.Group):
    """The ``kaiser-sim`` group: an output that cannot be written is a clear
    error with a non-zero exit, never a traceback or a silent success.  A
    reader that went away (a closed pipe, ``| head``) ends the command
    quietly with exit status 1; a full disk or a closed stdout is named on
    stderr (exit 1); files already checked are named by the command."""

    def main(self, *args, **kwargs):
        if sys.stdout is None:  # started with stdout closed (>&-)
            sys.stdout = _ClosedStdout()
        return super().main(*args, **kwargs)

    def invoke(self, ctx):
        try:
            rv = super().invoke(ctx)
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
    from .output_dir import OutputError

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


# --- shared options -------------------------------------------------------------

seed_option = click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=config.DEFAULT_SEED,
    show_default=True,
    help="Seed of the run (any integer >= 0). The same seed gives the same deals.",
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


# --- helpers --------------------------------------------------------------------


def _echo_lines(lines: Iterable[str]) -> None:
    """Write lines to stdout, flushing once per chunk rather than per line."""
    chunk: list[str] = []
    for line in lines:
        chunk.append(line)
        if len(chunk) == _ECHO_CHUNK:
            click.echo("\n".join(chunk))
            chunk = []
    if chunk:
        click.echo("\n".join(chunk))


def _stderr_is_tty() -> bool:
    return sys.stderr.isatty()


def _solve(deals: np.ndarray, modes: tuple[str, ...], rules) -> dict[str, np.ndarray]:
    """``{mode: table}``: one batched solver call per mode under ``rules``
    (a 6th column, low no trump, when the rules play it; with a kitty the
    kitty is the cards of the deck no hand holds, and the declarer's best
    discard is chosen).

    On a terminal, for more than ``config.PROGRESS_MIN_DEALS`` deals, the
    deals go in chunks of ``config.DD_TABLE_BATCH`` (still batched) so a
    progress bar on stderr can move; the results are the same either way.
    """
    # imported here: the solver compiles on first use, --help stays fast
    import numpy as np

    from .deal import kitty_of
    from .variants import dd_table_for_rules, strain_keys

    n = len(deals)
    show = n > config.PROGRESS_MIN_DEALS and _stderr_is_tty()
    step = config.DD_TABLE_BATCH if show else max(n, 1)
    kitties = kitty_of(deals, deck34=rules.deck34) if rules.kitty != "none" else None
    ncols = len(strain_keys(rules))
    tables = {mode: np.empty((n, 4, ncols), dtype=np.int8) for mode in modes}
    with click.progressbar(length=n * len(modes), label="solving", file=sys.stderr, hidden=not show) as bar:
        for mode in modes:
            for lo in range(0, n, step):
                kit = None if kitties is None else kitties[lo : lo + step]
                tables[mode][lo : lo + step] = dd_table_for_rules(deals[lo : lo + step], rules, mode, kitties=kit)
                bar.update(min(step, n - lo))
    return tables


def _check_rules_deals(deals: np.ndarray, rules, line_numbers) -> None:
    """With a kitty the hands must be whole (7 or 8 cards): the kitty is what
    the deck has left over."""
    from .cards import popcount

    if rules.kitty == "none":
        return
    for hands, line in zip(deals, line_numbers):
        if popcount(hands[0]) != rules.hand_size:
            where = f"line {line}: " if len(deals) > 1 else ""
            raise InputError(f"{where}rules kitty={rules.kitty} need hands of {rules.hand_size} cards "
                             f"(the kitty is the cards left over), got {popcount(hands[0])}")


def _read_input(stream, rules) -> tuple[np.ndarray, np.ndarray]:
    """All deals of ``--input``, or :class:`InputError` naming every bad line."""
    from .deal_io import DealInputError, read_deals

    name = getattr(stream, "name", "input")
    try:
        return read_deals(stream, source=name, deck34=rules.deck34, max_cards=rules.hand_size)
    except DealInputError as e:
        if len(e.errors) > 1:
            raise InputError(f"{len(e.errors)} bad deals in {name}:\n{e}") from None
        raise InputError(str(e)) from None


def _solve_output(deals, line_numbers, tables, fmt: str, single: bool) -> Iterable[str]:
    """The lines ``solve`` prints, in format ``fmt``."""
    from .cards import format_deal
    from .dd_format import deal_record, format_deal_text

    texts = [format_deal(hands) for hands in deals]
    per_deal = [{mode: t[i] for mode, t in tables.items()} for i in range(len(texts))]
    if fmt == "jsonl":
        return (json.dumps(deal_record(d, t)) for d, t in zip(texts, per_deal))
    if fmt == "json":
        records = [deal_record(d, t) for d, t in zip(texts, per_deal)]
        return [json.dumps(records[0] if single else records, indent=2)]
    if single:
        return [format_deal_text(texts[0], per_deal[0])]
    return (
        ("\n" if i else "") + format_deal_text(d, t, title=f"Deal {i + 1} (line {line_numbers[i]})")
        for i, (d, t) in enumerate(zip(texts, per_deal))
    )


# --- commands -------------------------------------------------------------------


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kaiser-sim")
def main():
    """kaiser-sim: deal and solve Kaiser hands double dummy.

    Deals are written PBN-style, N:<north> <east> <south> <west>, hands
    clockwise from the named seat, each hand spades.hearts.diamonds.clubs
    with ranks A K Q J T 9 8 7 5 3 (the 3 is the 3S, the 5 is the 5H; no
    7S or 7H in the 32-card deck) and - for a void.

    \b
    Example:
        kaiser-sim deal --count 3 --seed 7 | kaiser-sim solve --input - --format jsonl
    """


@main.command()
@count_option("deals")
@seed_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(DEAL_FORMATS),
    default="pbn",
    show_default=True,
    help='pbn: one "N:..." deal a line; jsonl: one {"deal": "N:..."} object a line.',
)
@rules_options
def deal(count, seed, fmt, rules):
    """Print random deals, reproducibly.

    Deal i of a run depends only on (seed, i): the same --seed and --count
    print the same deals on any machine, and --count 10 starts with the deals
    of --count 5. Without --seed the seed is 0. The output (either format)
    can be piped into "kaiser-sim solve --input -".

    The rules decide the deck and the hand size: with --rules kitty-4 each
    hand has 7 cards, with --rules kitty-34 the deck has 34 cards (the 7S
    and 7H too); the kitty is the cards no hand holds.  Weak hands are not
    redealt here: these are the deals as they fall.

    \b
    Examples:
        kaiser-sim deal --count 2 --seed 1
        kaiser-sim deal -n 1000 --seed 42 --format jsonl > deals.jsonl
        kaiser-sim deal -n 3 --rules kitty-34
    """
    from .deal import deal_batch
    from .deal_io import deal_lines

    for lo in range(0, count, config.DEAL_PRINT_CHUNK):
        deals = deal_batch(min(config.DEAL_PRINT_CHUNK, count - lo), seed, start=lo,
                           hand_size=rules.hand_size, deck34=rules.deck34)
        _echo_lines(deal_lines(deals, fmt))


@main.command()
@click.argument("deal_text", metavar="[DEAL]", required=False)
@click.option(
    "--input",
    "-i",
    "stream",
    type=click.File("rb"),
    help="File of deals, one a line (- for stdin), UTF-8 text; pbn or jsonl lines. Blank lines and lines starting "
    "with # are skipped.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json", "jsonl"]),
    help="table: readable leader x strain tables; json: one document (an object for DEAL, "
    "a list for --input); jsonl: one object a line.  [default: table for DEAL, jsonl for --input]",
)
@mode_option
@rules_options
def solve(deal_text, stream, fmt, mode, rules):
    """Solve deals double dummy: every leader and every strain.

    Give one DEAL (quoted) or --input FILE, not both. For each deal it prints
    the value for the leader's side with each seat leading (rows N E S W)
    and each strain (S H D C and NT, written N in JSON). In Kaiser the
    declarer leads, so the row is the declarer. Points run -2..12 (the two
    sides add to 10); tricks are plain trick counts. Deals with fewer than 8
    cards a hand (equal lengths) are endgames and solve the same way.

    An --input file is checked completely before anything is solved: a bad
    line stops the run with its line number, and nothing is printed.

    Rules that change the play change the table: --rules low-nt adds a
    column for low no trump (L in JSON, LNT in the table); with a kitty
    (--rules kitty-4, kitty-34) the kitty is the cards no hand holds and the
    declarer (the leader) takes it up and makes the best discard.

    \b
    Examples:
        kaiser-sim solve "N:A.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K"
        kaiser-sim solve --mode points --format json "N:A.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K"
        kaiser-sim deal -n 100 --seed 1 | kaiser-sim solve --input - > solved.jsonl
        kaiser-sim deal -n 2 --rules kitty-4 | kaiser-sim solve --input - --rules kitty-4 --mode points
    """
    import numpy as np

    from .cards import NotationError, parse_deal
    from .dd_format import MODES

    if deal_text is not None and stream is not None:
        raise click.UsageError("give a DEAL or --input FILE, not both")
    if deal_text is None and stream is None:
        raise click.UsageError("give a DEAL to solve, or --input FILE (- for stdin)")
    if stream is None:
        try:
            deals = parse_deal(deal_text, deck34=rules.deck34, max_cards=rules.hand_size)[None, :]
            line_numbers = np.array([1])
        except NotationError as e:
            raise InputError(f"invalid deal: {e}") from None
    else:
        deals, line_numbers = _read_input(stream, rules)
    _check_rules_deals(deals, rules, line_numbers)
    tables = _solve(deals, MODES if mode == "both" else (mode,), rules)
    fmt = fmt or ("jsonl" if stream is not None else "table")
    _echo_lines(_solve_output(deals, line_numbers, tables, fmt, single=stream is None))


main.add_command(rules_command)


# --- simulate and info (library: kaiser_sim.simulate, kaiser_sim.results) -----------------------


def _given(ctx, *names) -> bool:
    """Was any of these options typed on the command line (not left at its default)?"""
    return any(ctx.get_parameter_source(n) not in (None, click.core.ParameterSource.DEFAULT) for n in names)


@main.command()
@click.option("--deals", "-n", type=click.IntRange(min=1),
              help=f"Number of deals (1 to {config.SIMULATE_MAX_DEALS:,}; not needed with --resume).")
@seed_option
@click.option("--out", "-o", required=True, type=click.Path(), help="Results directory (a Parquet dataset, one part a chunk).")
@rules_options
@click.option("--mode", type=click.Choice(["points", "tricks", "both"]), default="both", show_default=True,
              help="Tables to store: points (pts_* columns), tricks (trk_*) or both (solved together: the tricks "
                   "values bound the points search, about 1.2x the cost of points alone).")
@click.option("--workers", "-w", type=click.IntRange(min=1),
              help=f"Worker processes, one core each (with --scheduler local: Dask workers; at most "
              f"{config.SIMULATE_MAX_WORKERS_PER_CORE} a core).  [default: all cores]")
@click.option("--chunk-size", type=click.IntRange(min=1),
              help=f"Deals per chunk (one Parquet part each; at most {config.SIMULATE_MAX_CHUNK_SIZE:,}, "
              f"and at most {config.SIMULATE_MAX_CHUNKS:,} parts).  [default: {config.SIMULATE_CHUNK_SIZE:,}; "
              f"fewer for a small run, at least {config.SIMULATE_CHUNKS_PER_WORKER} parts a worker, so that the "
              f"progress moves early; {config.PLAY_CHUNK_SIZE} with --play]")
@click.option("--fix", multiple=True, metavar="SEAT=HAND",
              help="Give SEAT these cards in every deal (repeatable), e.g. --fix N=AKQ.5.-.- or --fix 'S=AS KS'.")
@click.option("--play", type=click.IntRange(min=1, max=config.PIMC_MAX_SAMPLES), metavar="K",
              help="Also play each deal's contract out with four PIMC players sampling K layouts a turn "
                   "(20 is the usual K): the table-play data of the table-play model. About 10x slower.")
@click.option("--resume", is_flag=True, help="Finish the interrupted run in --out (with the options it was started with).")
@click.option("--force", is_flag=True, help="Replace the results already in --out.")
@click.option("--scheduler", metavar="ADDRESS", help="Run the chunks on a Dask cluster: tcp://HOST:PORT, or local.")
@click.option("--quiet", "-q", is_flag=True, help="No progress output.")
@click.pass_context
def simulate(ctx, deals, seed, out, rules, mode, workers, chunk_size, fix, play, resume, force, scheduler, quiet):
    """Deal and solve many deals double dummy, one stored row per deal.

    Writes a Parquet dataset to --out: per deal its index, dealer, four hands
    and the 20 leader x strain values (columns pts_N_S .. pts_W_NT). The rows
    depend only on --seed, --rules, --fix and the deal index, never on
    --workers, --chunk-size or --scheduler. A killed run keeps its whole
    parts (SIGTERM stops it cleanly, exit status 143; its worker processes
    end with it however it ends); --resume finishes it. Read the results with
    kaiser_sim.load_results(PATH); kaiser-sim info PATH summarises them.

    Solving takes nearly all the time: about 140 deals a second a core in
    points mode (the 2-core benchmark machine: 100,000 deals in 6 minutes,
    benchmarks/results/simulate.md); --mode tricks is about 2.4 times faster.

    Under rules with the weak-hand redeal (weak_redeal weak or weak+quads:
    standard) a deal with a weak hand is redealt, as if its player always
    demanded it; deal i stays a function of (seed, rules, i), the metadata
    records the rule and the parts the number of redeals (kaiser-sim info
    shows them).  With weak_redeal=off the deals are exactly as before.

    --play K also plays one contract a deal out with four PIMC players (each
    sees only its own hand and the cards played): the declarer rotates with
    the deal and names trump by rule, no trump on every third deal; columns
    play_declarer, play_strain, play_dd (its double-dummy points) and
    play_pts (the points the declaring side takes in play). About 14 deals a
    second a core at K = 20; parts of 100 deals unless --chunk-size.

    \b
    Examples:
        kaiser-sim simulate --deals 100000 --seed 1 --out runs/s1
        kaiser-sim simulate --resume --out runs/s1
        kaiser-sim simulate --deals 2000 --seed 7 --play 20 --out runs/played
        kaiser-sim simulate -n 1000000 --seed 2 --out runs/s2 --scheduler tcp://10.0.0.5:8786
    """
    from .progress import make_progress
    from .simulate import RunStopped, SimulateError, simulate as run

    def typed(name, value):  # with --resume, options left out come from the run being resumed
        return value if _given(ctx, name) else None

    try:
        run(out, deals, typed("seed", seed), mode=typed("mode", mode), fixed=fix, chunk_size=typed("chunk_size", chunk_size),
            rules=rules if _given(ctx, "rules_preset", "rule_overrides") else None, workers=workers,
            scheduler=scheduler, resume=resume, force=force, progress=make_progress(quiet), play=play)
    except SimulateError as e:
        raise InputError(str(e)) from None
    except RunStopped as e:  # SIGTERM, SIGHUP: the parts written are kept
        click.echo(f"Error: {e}; the parts written are kept, finish with: kaiser-sim simulate --resume --out {out}",
                   err=True)
        ctx.exit(128 + e.signum)


@main.command()
@click.argument("path", type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: readable lines; json: one object (metadata, rows, parts).")
def info(path, fmt):
    """Show what a simulate results directory holds: run metadata, rows, parts.

    \b
    Example:
        kaiser-sim info runs/s1
    """
    from .results import ResultsError, info as read_info, info_text

    try:
        d = read_info(path)
    except ResultsError as e:
        raise InputError(str(e)) from None
    click.echo(json.dumps(d, indent=2) if fmt == "json" else info_text(d))


_SEATS = click.Choice(["N", "E", "S", "W"], case_sensitive=False)


@main.command()
@click.argument("hand_words", metavar="HAND", nargs=-1, required=True)
@click.option("--seat", type=_SEATS, default="N", show_default=True,
              help="Your seat.  It leads, i.e. declares: the values are for its side.")
@click.option("--dealer", type=_SEATS,
              help="The dealer; decides only the legal calls (matching, the forced bid).  "
              "[default: the seat on your right, so you speak first]")
@click.option("--deals", "-n", type=click.IntRange(1, config.HAND_MAX_DEALS), default=None,
              help=f"Random deals of the other cards to solve (at most {config.HAND_MAX_DEALS:,}).  [default: "
              f"{config.HAND_ADVISOR_DEALS:,}; 500 with a kitty, where each deal is a search over the discards: "
              "about 30 ms a deal with kitty-4, 15 ms with kitty-34, against 2 ms without]")
@seed_option
@click.option("--current-bid", metavar="BID", help="The highest bid so far (8, 8NT): only calls after it are "
              "considered, and a dealer is told whether to match it.")
@click.option("--play", type=click.Choice(["table", "dd"], case_sensitive=False), default="table",
              show_default=True, help="table: choose the trump, the call and the limit on table play, what your side takes when "
              "nobody sees the other hands (the table-play model of PIMC players; README: Hand advisor), with "
              "the double-dummy numbers beside them; dd: everything double dummy (all four hands seen), for "
              "comparison.  Rules the model does not hold for fall back to dd with a note.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True,
              help="table: the report; json: one object, schema kaiser-sim/hand-advice/2 (README: Hand advisor).")
@click.option("--plot", type=click.Path(dir_okay=False), metavar="FILE",
              help="Also draw make probability by bid for each strain to FILE (.png, .svg or .pdf).")
@click.option("--specials/--no-specials", default=True, show_default=True,
              help="Measure the 5H and 3S: where they are dealt, their double-dummy worth (two more solves a deal).")
@rules_options
def hand(hand_words, seat, dealer, deals, seed, current_bid, play, fmt, plot, specials, rules):
    """Advise on one hand: make odds, expected score of each bid, the call.

    HAND is your 8 cards, spades.hearts.diamonds.clubs (AK93.5.AK.8) or a
    list (AS KS 9S 3S 5H AD KD 8C, or A♠ K♠ ...).  The other cards are
    dealt at random --deals times and each deal is solved double dummy in
    every strain with your hand on lead; the table-play model turns each
    value into what players who see only their own hand take (--play).

    Every rules preset and option works (README: Rule variants): with a
    kitty HAND is the hand as dealt (7 cards with kitty-4, 8 from the
    34-card deck with kitty-34), the kitty is dealt at random and you take
    it and discard best; low no trump is its own column (LNT) and bid;
    cover 3 is approximate and the solo Kaiser's 12NT is left out (the
    notes say how); under the weak-hand redeal the other hands are never
    weak.  Table play applies to the standard game only (else dd, noted).
    Printed: per strain the chance of taking at least each bid and the
    mean points; per bid the expected hand score under the rules (trump
    chosen once for the hand); the recommended call; with --current-bid
    and --dealer = --seat, whether to match; where the 5H and 3S are dealt
    and what they are worth (double dummy).  Bad input (wrong card count,
    a card twice, an impossible bid): exit 2.

    \b
    Examples:
        kaiser-sim hand AK93.5.AK.8
        kaiser-sim hand "AS KS 9S 3S 5H AD KD 8C" --seat S --dealer S --current-bid 8
        kaiser-sim hand AKQJ.A.AK.A --format json --plot odds.png
        kaiser-sim hand AK93.5.AK.8 --play dd
        kaiser-sim hand AK93.5.AK.- --rules kitty-4
        kaiser-sim hand 98.5.T9.987 --rules low-nt
    """
    from .advisor import AdvisorInputError, advise, plot_format

    _not_empty(plot=plot)
    try:
        if plot:
            plot_format(plot)
            if os.path.isdir(plot):
                raise InputError(f"--plot {plot}: is a directory; give a file name")
            _output_dir(os.path.dirname(os.path.abspath(plot)), f"--plot {plot}")
        advice = advise(" ".join(hand_words), seat=seat, dealer=dealer, n=deals, seed=seed, rules=rules,
                        current_bid=current_bid, specials=specials, play=play.lower())
    except AdvisorInputError as e:
        raise InputError(str(e)) from None
    if plot:
        import matplotlib

        from .output_dir import OutputError, removed_on_failure, write_file_atomic

        matplotlib.use("Agg")  # a file, no window
        folder = os.path.dirname(os.path.abspath(plot))

        def draw(tmp):  # the format comes from --plot, not from the temporary name
            import matplotlib.pyplot as plt

            from .advisor import plot_make_probability
            from .studies.common import save_figure

            fig = plot_make_probability(advice)
            try:
                save_figure(fig, tmp, plot_format(plot))
            finally:
                plt.close(fig)

        try:
            with removed_on_failure(folder):
                os.makedirs(folder, exist_ok=True)
                write_file_atomic(plot, draw)
        except OutputError as e:
            raise OutputFailed(f"--plot {plot}: {e}") from None
        except OSError as e:
            raise OutputFailed(f"--plot {plot}: cannot write it ({e.strerror or e})") from None
    click.echo(advice.to_json() if fmt == "json" else advice.to_text())


@main.command()
@click.argument("study_name", metavar="NAME|FILE.toml")
@click.option("--from", "from_path", type=click.Path(file_okay=False),
              help="Read this results dataset (kaiser-sim simulate --out) instead of simulating.")
@click.option("--deals", "-n", type=click.IntRange(1, config.STUDY_MAX_DEALS),
              help=f"Deals to simulate (at most {config.STUDY_MAX_DEALS:,}; not with --from).  [default: the definition's]")
@click.option("--seed", type=click.IntRange(min=0), help="Seed of the simulation (not with --from).  "
              "[default: the definition's]")
@click.option("--out", "-o", type=click.Path(file_okay=False), help="Output directory.  [default: reports/studies/NAME]")
@click.option("--param", "params", multiple=True, metavar="KEY=VALUE",
              help="Set a parameter of the study (repeatable), e.g. --param max_resolve=500.")
@click.option("--workers", "-w", type=click.IntRange(min=1), help="Worker processes when simulating.  [default: all cores]")
@click.option("--quiet", "-q", is_flag=True, help="No progress output.")
@rules_options
@click.pass_context
def study(ctx, study_name, from_path, deals, seed, out, params, workers, quiet, rules):
    """Run a study and write its tables (CSV, Markdown), charts (PNG, SVG) and study.json.

    NAME is a study (bid-odds, hand-eval, bidding-chart, five-hearts,
    three-spades, trump-and-nt, lead, match) or a definition file FILE.toml
    (analyses/ holds one per study).  The deals come from --from RESULTS or
    are simulated (into OUT/results) with the definition's deal count and
    seed, which --deals and --seed override.  --rules/--rule set the scoring
    rules (default: those of the results or the definition).  The match
    study plays whole matches instead (kaiser-sim match): it reads no deals,
    --seed seeds the matches and --from is refused.

    \b
    Examples:
        kaiser-sim study bid-odds --deals 2000 --seed 1 --out out/bid-odds
        kaiser-sim study analyses/five-hearts.toml --from runs/s1 --param max_resolve=500
    """
    from pathlib import Path

    from .progress import make_progress
    from .studies import StudyError
    from .studies.runner import definition_for, parse_param, run_study

    from .studies import get_study

    _not_empty(out=out, **{"from": from_path})
    try:
        definition = definition_for(study_name)
        plays_matches = not getattr(get_study(definition.study), "USES_RESULTS", True)
        if from_path is not None and not plays_matches and (deals is not None or seed is not None):
            raise InputError(f"{'--deals' if deals is not None else '--seed'} describes a new simulation; "
                             "with --from the results decide the deals and the seed")
        if plays_matches and deals is not None:
            raise InputError(f"study {definition.study} plays matches and reads no deals: --deals does not apply "
                             "(set the number of matches with --param matches=N)")
        definition.params.update(dict(parse_param(p) for p in params))
        definition.deals = deals or definition.deals
        definition.seed = definition.seed if seed is None else seed
        out = Path(out or Path("reports") / "studies" / definition.study)
        result = run_study(definition, out, from_path=from_path, workers=workers, progress=make_progress(quiet),
                           rules=rules if _given(ctx, "rules_preset", "rule_overrides") else None)
    except StudyError as e:
        raise InputError(str(e)) from None
    click.echo(f"{definition.study}: n={result.inputs['n']:,} {result.inputs.get('unit', 'deals')}, "
               f"seed {result.inputs['seed']}, "
               f"{len(result.files)} files in {out}")


@main.command()
@click.option("--deals", "-n", type=click.IntRange(1, config.STUDY_MAX_DEALS), default=None,
              help=f"Deals to simulate (at most {config.STUDY_MAX_DEALS:,}; not with --from).  [default: 4000]")
@click.option("--seed", type=click.IntRange(min=0), default=None, help="Seed of the simulation.  [default: 1]")
@click.option("--studies", metavar="A,B,...", help="Studies to include, comma-separated; dd-bias (PIMC play of "
              "the first 1,000 deals) joins only when named.  [default: all but dd-bias]")
@click.option("--from", "from_path", type=click.Path(file_okay=False),
              help="Read this results dataset (kaiser-sim simulate --out) instead of simulating.")
@click.option("--out", "-o", type=click.Path(file_okay=False),
              help="Output directory.  [default: reports/<rules>-<deals>-<seed>]")
@click.option("--max-resolve", type=click.IntRange(1, config.STUDY_MAX_DEALS), default=None,
              help="Deals re-solved by the 5H and 3S studies.  [default: 1000]")
@click.option("--workers", "-w", type=click.IntRange(min=1), help="Worker processes when simulating.  [default: all cores]")
@click.option("--quiet", "-q", is_flag=True, help="No progress output.")
@rules_options
@click.pass_context
def report(ctx, deals, seed, studies, from_path, out, max_resolve, workers, quiet, rules):
    """Write the printed report: report.pdf, report.md, every table and chart.

    Deals are simulated once (or read with --from) and shared by every
    study.  --out gets report.pdf (A4/Letter), report.md (charts as SVG),
    tables/*.csv, one folder per study (CSV, PNG, SVG) and report.json.
    Unknown --studies or unreadable --from: exit 2.

    \b
    Examples:
        kaiser-sim report
        kaiser-sim report --deals 20000 --seed 2 --studies bid-odds,bidding-chart
        kaiser-sim report --from runs/big --out reports/big
    """
    from .progress import make_progress
    from .report import DEFAULT_DEALS, DEFAULT_MAX_RESOLVE, DEFAULT_SEED, make_report
    from .studies import StudyError

    _not_empty(out=out, **{"from": from_path})
    if from_path is not None and (deals is not None or seed is not None):
        raise InputError("--deals and --seed describe a new run; with --from the results decide them")
    if studies is not None and not studies.replace(",", "").strip():
        raise InputError("--studies is empty: name at least one study (leave the option out for all of them)")
    log = (lambda line: None) if quiet else (lambda line: click.echo(line, err=True))
    if out and os.path.exists(out) and not os.path.isdir(out):
        raise InputError(f"--out {out}: is a file; give a directory")
    try:
        preset = ctx.params.get("rules_preset") or "standard"
        _, doc = make_report(out, deals or DEFAULT_DEALS, DEFAULT_SEED if seed is None else seed,
                             rules if (from_path is None or _given(ctx, "rules_preset", "rule_overrides")) else None,
                             preset, studies, from_path, max_resolve or DEFAULT_MAX_RESOLVE, workers,
                             make_progress(quiet), log)
    except StudyError as e:
        raise InputError(str(e)) from None
    click.echo(f"report: {doc['pages']} pages, {doc['deals']:,} deals, seed {doc['seed']}, "
               f"{doc['seconds']['total']:.0f}s -> {doc['out']}")


# --- match (library: kaiser_sim.match, kaiser_sim.policies) ---------------------------------------

class _PolicyChoice(click.Choice):
    """The policy names (``kaiser_sim.policies.POLICIES``), read when a value is
    checked or completed, not for ``--help`` (the policies import numba)."""

    def __init__(self):
        super().__init__((), case_sensitive=False)

    @property
    def choices(self):
        from .policies import POLICIES

        return tuple(POLICIES)

    @choices.setter
    def choices(self, value):  # click.Choice.__init__ sets it
        pass

    def get_metavar(self, *args, **kwargs) -> str:
        return "POLICY"


_POLICY_CHOICE = _PolicyChoice()


@main.command()
@click.option("--policy", "-a", "policy_a", required=True, type=_POLICY_CHOICE, help="Policy A (the one measured).")
@click.option("--vs", "-b", "policy_b", required=True, type=_POLICY_CHOICE, help="Policy B, the opponents.")
@click.option("--matches", "-n", type=click.IntRange(1, config.MATCH_MAX_COUNT), default=config.MATCH_DEFAULT_COUNT,
              show_default=True, help="Matches to play (in pairs on the same cards, A on each side once; "
              f"at most {config.MATCH_MAX_COUNT:,}).")
@seed_option
@click.option("--play", type=click.Choice(["table", "dd"], case_sensitive=False), default="table", show_default=True,
              help="What the policies' make-probabilities expect: table play (the double-dummy make model "
                   "through the table-play model: about a bid lower) or dd (double dummy). How the contracts are "
                   "scored is --engine. Rules table play does not cover fall back to dd, with a warning.")
@click.option("--engine", type=click.Choice(["table", "dd"], case_sensitive=False), default=None,
              help="How each contract is scored: table (the declaring side's points drawn from the table-play "
                   "model given the contract's double-dummy points, so bidders are judged by table play) or dd "
                   "(the double-dummy points).  [default: table where the table-play model holds for the "
                   "rules (the standard game), else dd with a note]")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True,
              help="What to print: a readable table, one CSV summary row, or a JSON document.")
@click.option("--out", "-o", type=click.Path(file_okay=False),
              help="Also write summary.csv, summary.json, matches.csv and hands.csv into this directory.")
@click.option("--quiet", "-q", is_flag=True, help="No progress output.")
@rules_options
def match(policy_a, policy_b, matches, seed, play, engine, fmt, out, quiet, rules):
    """Play whole matches of policy A against policy B; A's win rate.

    Each hand is dealt (redealt when a hand is weak, under rules with the
    weak-hand redeal), bid by the two policies (each seat sees only its
    own hand and the public auction and scores), played in the contract
    (--engine: table play drawn from the table-play model, or double
    dummy) and scored by the rules, until a side wins.  The policies bid
    expecting table play (--play table, the default) or double dummy
    (--play dd); the output records both.  Printed: A's win rate with its
    95% interval, hands per match, the score margin, how each side went
    out (bidding or defending) and skunks.  Policies: ev, cautious,
    aggressive, score-aware, rank-squared, trump-heuristic (README:
    Matches).  Every preset works: a kitty (the declarer takes it and
    discards best, double dummy; slower), low no trump (its own bid),
    cover 3 (approximate), the solo Kaiser (no policy bids 12NT); the
    output notes what the policies' make model does not know of the
    rules.  Passing cards (pass_cards) is not modelled: exit 2.

    \b
    Examples:
        kaiser-sim match --policy score-aware --vs ev --matches 2000 --seed 1
        kaiser-sim match -a ev -b rank-squared --rule target=32 --rule bid_out=25 --format json
        kaiser-sim match -a ev -b cautious --rules low-nt --matches 200
    """
    from .match import MatchError, play_matches
    from .progress import make_progress

    _not_empty(out=out)
    if out:
        _output_dir(out, f"--out {out}")
    try:
        result = play_matches(policy_a, policy_b, matches, seed, rules, play=play.lower(),
                              engine="auto" if engine is None else engine.lower(), progress=make_progress(quiet))
    except MatchError as e:
        raise InputError(str(e)) from None
    if result.play.get("play_note"):
        click.echo(f"warning: {result.play['play_note']}", err=True)
    if result.play.get("engine_note"):  # table play asked for, or the default falling back to dd
        click.echo(f"{'warning' if engine else 'note'}: {result.play['engine_note']}", err=True)
    if out:
        from .output_dir import removed_on_failure, staged

        with removed_on_failure(out), staged(out, "the match tables") as stage:
            result.write(stage)
    if fmt == "json":
        click.echo(result.to_json())
    elif fmt == "csv":
        click.echo(result.summary_frame().to_csv(index=False), nl=False)
    else:
        click.echo(result.to_text())


# --- play (library: kaiser_sim.pimc, kaiser_sim.play) ------------------------------------------------


@main.command("play")
@click.argument("deal_text", metavar="DEAL")
@click.option("--strain", required=True, type=click.Choice(["S", "H", "D", "C", "N", "NT"], case_sensitive=False),
              help="Trump suit, or N (NT) for no trump.")
@click.option("--leader", required=True, type=click.Choice(["N", "E", "S", "W"], case_sensitive=False),
              help="The declarer, who leads the first trick.")
@click.option("--samples", "-k", type=click.IntRange(min=1), default=config.PIMC_SAMPLES, show_default=True,
              help="Layouts of the unseen cards a PIMC player samples at each turn.")
@seed_option
@click.option("--declarer", "declarer_player", type=click.Choice(["pimc", "dd"]), default="pimc", show_default=True,
              help="How the declaring side plays: pimc (sees its own cards) or dd (sees all four hands).")
@click.option("--defenders", type=click.Choice(["pimc", "dd"]), default="pimc", show_default=True,
              help="How the defenders play.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def play_command(deal_text, strain, leader, samples, seed, declarer_player, defenders, fmt):
    """Play a deal out with PIMC players, next to its double-dummy value.

    Each PIMC player sees only its own hand and the cards played; at each
    turn it deals the unseen cards --samples times consistently with what
    it knows (hand sizes, suits shown out of), scores its legal cards
    double dummy on every layout and plays the best on average.  Printed:
    the play trick by trick, each side's running points, and the declaring
    side's points so far plus the double-dummy value of the rest.

    \b
    Examples:
        kaiser-sim play "N:AQJ.KT.9.A8 9.AJ.KJ7.Q9 KT.Q5.8.KT7 83.98.AQT.J" --strain H --leader N
        kaiser-sim play "N:AQJ.KT.9.A8 9.AJ.KJ7.Q9 KT.Q5.8.KT7 83.98.AQT.J" --strain N --leader E -k 40 --seed 3
    """
    from .cards import NotationError, Seat, Strain, parse_deal
    from .pimc import play_deal

    try:
        hands = parse_deal(deal_text)
    except NotationError as e:
        raise InputError(f"invalid deal: {e}") from None
    if bin(int(hands[0])).count("1") != 8:
        raise InputError("play needs a full deal: 8 cards a hand")
    strain_value = int(Strain.N) if strain.upper() in ("N", "NT") else int(Strain[strain.upper()])
    result = play_deal(hands, strain_value, int(Seat[leader.upper()]), samples=samples, seed=seed,
                       declarer_player=declarer_player, defenders=defenders)
    click.echo(json.dumps(result.to_dict(), indent=2) if fmt == "json" else result.to_text())


@main.command("table-play-model")
@click.option("--deals", "-n", type=click.IntRange(min=100, max=10_000_000), default=8000, show_default=True,
              help="Deals played out to fit the model (one contract a deal).")
@click.option("--holdout", type=click.IntRange(min=100, max=10_000_000), default=2000, show_default=True,
              help="Further deals (seed + 1) played out to check the fitted model on.")
@click.option("--seed", type=click.IntRange(min=0, max=2**63 - 2), default=101, show_default=True,
              help="Seed of the fitting deals (the held-out deals use seed + 1).")
@click.option("--samples", "-k", type=click.IntRange(min=1, max=config.PIMC_MAX_SAMPLES), default=config.PIMC_SAMPLES,
              show_default=True, help="K: layouts a PIMC player samples at each turn.")
@click.option("--sensitivity", type=click.IntRange(min=0), default=400, show_default=True,
              help="Held-out deals replayed with 2K layouts and with double-dummy defenders / declarer.")
@click.option("--out", "-o", type=click.Path(dir_okay=False), required=True,
              help="Model file to write (JSON); the shipped one is kaiser_sim/data/table_play_model.json.")
@click.option("--runs", type=click.Path(file_okay=False),
              help="Keep the two play runs here (fit/, holdout/; resumed if present). Default: a temporary directory.")
@click.option("--workers", "-w", type=click.IntRange(min=1), help="Worker processes.  [default: all cores]")
@click.option("--quiet", "-q", is_flag=True, help="No progress output.")
def table_play_model(deals, holdout, seed, samples, sensitivity, out, runs, workers, quiet):
    """Build the table-play model: what double-dummy points become at a table.

    Plays --deals deals out with four PIMC players (simulate --play), fits
    P(table points | double-dummy points, trump or no trump), checks it on
    --holdout further deals and measures its sensitivity to K and to the
    players; writes the model with its provenance and checks to --out.
    Standard rules (the play of kitty or low no trump games is not modelled).
    The shipped model took about 8 minutes on 2 cores with the defaults.

    \b
    Example:
        kaiser-sim table-play-model --out kaiser_sim/data/table_play_model.json
    """
    from .progress import make_progress
    from .simulate import SimulateError
    from .table_play import TablePlayError, build_model

    if sensitivity > holdout:
        raise InputError("--sensitivity deals are taken from the held-out deals: at most --holdout")
    try:
        model = build_model(out, deals, holdout, seed, samples, sensitivity, runs, workers, make_progress(quiet))
    except (TablePlayError, SimulateError) as e:
        raise InputError(str(e)) from None
    except OSError as e:
        raise InputError(f"cannot write {out}: {e.strerror or e}") from None
    if not quiet:
        click.echo(f"{model.describe()} -> {out}", err=True)


# --- make-model (library: kaiser_sim.make_model) --------------------------------------------------


@main.command("make-model")
@click.argument("results_path", metavar="RESULTS", type=click.Path(file_okay=False))
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False),
              help="Counts table to write.  [default: the shipped kaiser_sim/data/make_model.csv]")
@click.option("--json", "json_path", type=click.Path(dir_okay=False),
              help="Coefficients and provenance to write.  [default: the shipped kaiser_sim/data/make_model.json]")
def make_model_command(results_path, csv_path, json_path):
    """Rebuild the make-probability model of the bidding policies.

    Fits, on a points-mode results dataset of the standard deck (kaiser-sim
    simulate --out RESULTS, at least 100 deals), a linear hand count per
    strain kind (trump, no trump) and the distribution of the declaring
    side's double-dummy points in equal-count bins of that count; writes the
    counts (CSV) and the coefficients with their provenance (JSON).  The
    shipped model was fitted on 20,000 deals of seed 1.

    \b
    Example:
        kaiser-sim simulate --deals 20000 --seed 1 --out runs/model
        kaiser-sim make-model runs/model
    """
    from .make_model import MakeModelError, rebuild
    from .results import ResultsError

    _not_empty(csv=csv_path, json=json_path)
    try:
        line = rebuild(results_path, csv_path, json_path)
    except (MakeModelError, ResultsError) as e:
        raise InputError(str(e)) from None
    except KeyError as e:
        raise InputError(f"{results_path}: not a points-mode results dataset (no column {e})") from None
    click.echo(line)

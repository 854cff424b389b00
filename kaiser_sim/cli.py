"""The ``kaiser-sim`` command line: a thin click layer over the library.

Commands stay short; the work lives in library modules (``deal`` generates,
``deal_io`` reads and writes deal lists, ``solver`` solves, ``dd_format``
formats).  Bad input is reported as :class:`InputError`: a one-paragraph
message on stderr, exit status 2, nothing on stdout.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable

import click
import numpy as np

from . import config
from .cards import NotationError, format_deal, parse_deal
from .dd_format import MODES, deal_record, format_deal_text
from .deal import deal_batch
from .deal_io import FORMATS as DEAL_FORMATS
from .deal_io import DealInputError, deal_lines, read_deals
from .cli_rules import rules as rules_command
from .cli_rules import rules_options

#: lines handed to one ``click.echo`` call (one flush per chunk, not per line)
_ECHO_CHUNK = 1000


class InputError(click.ClickException):
    """Bad user input (a deal that cannot be read, an empty file): exit 2."""

    exit_code = 2


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
        type=click.IntRange(min=1),
        default=config.DEFAULT_DEAL_COUNT,
        show_default=True,
        help=f"Number of {what} (at least 1).",
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
    name = getattr(stream, "name", "input")
    try:
        return read_deals(stream, source=name, deck34=rules.deck34, max_cards=rules.hand_size)
    except DealInputError as e:
        if len(e.errors) > 1:
            raise InputError(f"{len(e.errors)} bad deals in {name}:\n{e}") from None
        raise InputError(str(e)) from None


def _solve_output(deals, line_numbers, tables, fmt: str, single: bool) -> Iterable[str]:
    """The lines ``solve`` prints, in format ``fmt``."""
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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
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
    type=click.File("r", encoding="utf-8-sig"),
    help="File of deals, one a line (- for stdin); pbn or jsonl lines. Blank lines and lines starting with # are skipped.",
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
    column for low no trump (L in JSON, NTlo in the table); with a kitty
    (--rules kitty-4, kitty-34) the kitty is the cards no hand holds and the
    declarer (the leader) takes it up and makes the best discard.

    \b
    Examples:
        kaiser-sim solve "N:A.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K"
        kaiser-sim solve --mode points --format json "N:A.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K"
        kaiser-sim deal -n 100 --seed 1 | kaiser-sim solve --input - > solved.jsonl
        kaiser-sim deal -n 2 --rules kitty-4 | kaiser-sim solve --input - --rules kitty-4 --mode points
    """
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

"""One deal at a time: ``deal`` (random deals), ``solve`` (double-dummy tables
of a deal or a list of deals), ``play`` (a deal played out by PIMC players).

Library: ``deal`` generates, ``runs.deal_io`` reads and writes deal lists,
``game`` solves under the rules (``game.values``), formats (``game.table``) and plays (``game.play``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

from .. import config
from .common import InputError, count_option, echo_lines, mode_option, seed_option
from .rules_options import rules_options
from .types import DEAL, SEAT, StrainType

if TYPE_CHECKING:
    import numpy as np

#: the formats of ``kaiser-sim deal`` (= ``kaiser_sim.runs.deal_io.FORMATS``, checked by
#: tests/test_layers.py; deal_io imports numba)
DEAL_FORMATS = ("pbn", "jsonl")


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

    from ..deal import kitty_of
    from ..game import dd_table, strain_keys

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
                tables[mode][lo : lo + step] = dd_table(deals[lo : lo + step], rules, mode, kitties=kit)
                bar.update(min(step, n - lo))
    return tables


def _check_rules_deals(deals: np.ndarray, rules, line_numbers) -> None:
    """With a kitty the hands must be whole (7 or 8 cards): the kitty is what
    the deck has left over."""
    from ..cards import popcount

    if rules.kitty == "none":
        return
    for hands, line in zip(deals, line_numbers):
        if popcount(hands[0]) != rules.hand_size:
            where = f"line {line}: " if len(deals) > 1 else ""
            raise InputError(f"{where}rules kitty={rules.kitty} need hands of {rules.hand_size} cards "
                             f"(the kitty is the cards left over), got {popcount(hands[0])}")


def _read_input(stream, rules) -> tuple[np.ndarray, np.ndarray]:
    """All deals of ``--input``, or :class:`InputError` naming every bad line."""
    from ..runs.deal_io import DealInputError, read_deals

    name = getattr(stream, "name", "input")
    try:
        return read_deals(stream, source=name, deck34=rules.deck34, max_cards=rules.hand_size)
    except DealInputError as e:
        if len(e.errors) == 1:
            raise  # its message says it all: the group shows it (exit 2)
        raise InputError(f"{len(e.errors)} bad deals in {name}:\n{e}") from None


def _solve_output(deals, line_numbers, tables, fmt: str, single: bool) -> Iterable[str]:
    """The lines ``solve`` prints, in format ``fmt``."""
    from ..cards import format_deal
    from ..game.table import deal_record, format_deal_text

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


@click.command()
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
        mkdir -p runs
        kaiser-sim deal -n 1000 --seed 42 --format jsonl > runs/deals.jsonl
        kaiser-sim deal -n 3 --rules kitty-34
    """
    from ..deal import deal_batch
    from ..runs.deal_io import deal_lines

    for lo in range(0, count, config.DEAL_PRINT_CHUNK):
        deals = deal_batch(min(config.DEAL_PRINT_CHUNK, count - lo), seed, start=lo,
                           hand_size=rules.hand_size, deck34=rules.deck34)
        echo_lines(deal_lines(deals, fmt))


@click.command()
@click.argument("deal", required=False, type=DEAL)
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
def solve(deal, stream, fmt, mode, rules):
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
        mkdir -p runs
        kaiser-sim deal -n 100 --seed 1 | kaiser-sim solve --input - > runs/solved.jsonl
        kaiser-sim deal -n 2 --rules kitty-4 | kaiser-sim solve --input - --rules kitty-4 --mode points
    """
    import numpy as np

    from ..game.table import MODES

    if deal is not None and stream is not None:
        raise click.UsageError("give a DEAL or --input FILE, not both")
    if deal is None and stream is None:
        raise click.UsageError("give a DEAL to solve, or --input FILE (- for stdin)")
    if stream is None:
        deals, line_numbers = deal[None, :], np.array([1])
    else:
        deals, line_numbers = _read_input(stream, rules)
    _check_rules_deals(deals, rules, line_numbers)
    tables = _solve(deals, MODES if mode == "both" else (mode,), rules)
    fmt = fmt or ("jsonl" if stream is not None else "table")
    echo_lines(_solve_output(deals, line_numbers, tables, fmt, single=stream is None))


@click.command("play")
@click.argument("deal", type=DEAL)
@click.option("--strain", required=True, type=StrainType(),
              help="Trump suit, N (NT) for no trump, or L for low no trump (rules that play it).")
@click.option("--leader", required=True, type=SEAT, help="The declarer, who leads the first trick.")
@click.option("--samples", "-k", type=click.IntRange(min=1, max=config.PIMC_MAX_SAMPLES), default=config.PIMC_SAMPLES,
              show_default=True,
              help="Layouts of the unseen cards a PIMC player samples at each turn.")
@seed_option
@click.option("--declarer", "declarer_player", type=click.Choice(["pimc", "dd"]), default="pimc", show_default=True,
              help="How the declaring side plays: pimc (sees its own cards) or dd (sees all four hands).")
@click.option("--defenders", type=click.Choice(["pimc", "dd"]), default="pimc", show_default=True,
              help="How the defenders play.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@rules_options
def play_command(deal, strain, leader, samples, seed, declarer_player, defenders, fmt, rules):
    """Play a deal out with PIMC players, next to its double-dummy value.

    Each PIMC player sees only its own hand and the cards played; at each
    turn it deals the unseen cards --samples times consistently with what
    it knows (hand sizes, suits shown out of), scores its legal cards
    double dummy on every layout and plays the best on average.  Printed:
    the play trick by trick, each side's running points, and the declaring
    side's points so far plus the double-dummy value of the rest.

    Every preset plays: with a kitty (--rules kitty-4, kitty-34) the kitty
    is the cards no hand holds; the declarer takes it up and discards
    (PIMC: the discard with the best mean double-dummy value over sampled
    layouts of the other hands), and nobody else sees the discard.  Low no
    trump (--strain L, --rules low-nt) is played with the ranks reversed;
    under cover 3 the players play for the standard count and the result
    is scored with cover 3.

    \b
    Examples:
        kaiser-sim play "N:AQJ.KT.9.A8 9.AJ.KJ7.Q9 KT.Q5.8.KT7 83.98.AQT.J" --strain H --leader N
        kaiser-sim play "N:AQJ.KT.9.A8 9.AJ.KJ7.Q9 KT.Q5.8.KT7 83.98.AQT.J" --strain N --leader E -k 40 --seed 3
        kaiser-sim play "N:T.AKT.8.QT Q3.-.AT97.J 9.J5.KQ.AK K.98.J.987" --rules kitty-4 --strain S --leader N
    """
    from ..game import play_deal

    if bin(int(deal[0])).count("1") != rules.hand_size:
        raise InputError(f"play needs a full deal: {rules.hand_size} cards a hand")
    if int(strain) == 5 and rules.low_nt == "off":
        raise InputError("low no trump (--strain L) is played only under rules with low_nt (e.g. --rules low-nt)")
    result = play_deal(deal, int(strain), int(leader), samples=samples, seed=seed,
                       declarer_player=declarer_player, defenders=defenders, rules=rules)
    click.echo(json.dumps(result.to_dict(), indent=2) if fmt == "json" else result.to_text())

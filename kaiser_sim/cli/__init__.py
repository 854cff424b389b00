"""The ``kaiser-sim`` command line: a thin click layer over the library.

Each command parses its input, calls the library and prints; the work lives
in library modules.  The commands, by theme:

- :mod:`.deals`: ``deal``, ``solve``, ``play`` (one deal at a time);
- :mod:`.runs`: ``simulate``, ``info``, ``study``, ``report`` (runs of many deals);
- :mod:`.hand`: ``hand`` (the hand advisor);
- :mod:`.match`: ``match`` (bidding policies against each other);
- :mod:`.models`: ``table-play-model``, ``make-model``, ``listening-table``, ``population-model`` (the shipped models);
- :mod:`.rules_options`: ``rules``, and ``--rules`` / ``--rule`` on every command
  that depends on the rules.

What they share: :mod:`.types` (the parameter types SEAT, STRAIN, HAND, DEAL
and BID, read through the library's vocabulary), :mod:`.common` (errors,
shared options, helpers) and :mod:`.group` (the group: outputs that cannot be
written).  Bad input is click's usage error, :class:`~.common.InputError`, or
a refusal of the library (:class:`~kaiser_sim.errors.KaiserSimError`, which
the commands let pass and the group shows): a message on stderr, exit
status 2, nothing on stdout.

Only light modules at the top of every module here: ``kaiser-sim --help`` and
every command's ``--help`` import neither numpy nor numba, pyarrow, pandas,
matplotlib or distributed (tests/test_layers.py checks).  Each command
imports what it uses when it runs.
"""

from __future__ import annotations

import click

from . import deals, hand, match, models, rules_options, runs
from .deals import DEAL_FORMATS
from .group import MainGroup


@click.group(cls=MainGroup, context_settings={"help_option_names": ["-h", "--help"]})
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


for _command in (deals.deal, deals.solve, deals.play_command, rules_options.rules, runs.simulate, runs.info,
                 runs.study, runs.report, hand.hand, match.match, models.table_play_model,
                 models.make_model_command, models.listening_table, models.population_model):
    main.add_command(_command)

__all__ = ["main", "DEAL_FORMATS"]

"""The one door from the rules to the engine.

Everything above this package (runs, strategy, studies, the report, the
command line) reaches the double-dummy engine through it, always with the
rules given (``kaiser_sim.rules.STANDARD`` for the standard game):

- :mod:`~kaiser_sim.game.values`: (deals, rules, measure) -> double-dummy
  values: the table of every declarer and strain (:func:`dd_table`), one
  leader's strains (:func:`dd_strains`), single contracts
  (:func:`dd_contracts`, :func:`contract_values` with the kitty taken up and
  cover 3 scored), both sides' points (:func:`side_tables`, the 5H/3S
  re-solves), one position (:func:`solve`); the kitty's best discard and
  low no trump's relabelling are reductions to the solver's game here;
- :mod:`~kaiser_sim.game.play`: (deals, rules) -> played results (PIMC or
  double-dummy players, :func:`play_deals`, :func:`play_deal`);
- :mod:`~kaiser_sim.game.table`: one deal's table as a result object
  (:class:`DDTable`), JSON-ready dicts and text.

The dealing rules (the weak-hand redeal, the kitty) live with dealing, in
:mod:`kaiser_sim.deal`.  Below this package :mod:`kaiser_sim.dd` knows only
the standard game's kernels and no rules object.  Importing this package
compiles nothing (numba compiles a kernel on its first call).
"""

from .play import PlayedDeal, PlayResult, discard_candidates, pimc_discard, play_deal, play_deals
from .table import MODES, DDTable
from .values import (LOW_NT, can_reach, contract_values, cover3_points, dd_contracts, dd_strains, dd_table, dd_value,
                     discard_classes, format_kitty, kitty_dd_value, kitty_dd_values, plain, play_view, side_tables,
                     solve, solver_kernels, strain_bounds, strain_keys, strain_values, without_specials)

__all__ = ["LOW_NT", "MODES", "DDTable", "PlayResult", "PlayedDeal", "can_reach", "contract_values", "cover3_points",
           "dd_contracts", "dd_strains", "dd_table", "dd_value", "discard_candidates", "discard_classes", "format_kitty",
           "kitty_dd_value", "kitty_dd_values", "pimc_discard", "plain", "play_deal", "play_deals", "play_view",
           "side_tables", "solve", "solver_kernels", "strain_bounds", "strain_keys", "strain_values", "without_specials"]

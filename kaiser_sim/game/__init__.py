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
the standard game's kernels and no rules object.  The names below are
imported on first use (PEP 562): ``import kaiser_sim.game`` loads no kernel.
"""

#: public name -> the module of this package that defines it
_LAZY = {
    **{name: "values" for name in (
        "LOW_NT", "dd_table", "dd_strains", "dd_contracts", "solve", "can_reach", "plain", "strain_keys",
        "contract_values", "strain_values", "side_tables", "cover3_points", "kitty_dd_value", "kitty_dd_values",
        "dd_value", "play_view", "discard_classes", "strain_bounds", "solver_kernels", "format_kitty")},
    **{name: "play" for name in ("play_deals", "play_deal", "pimc_discard", "discard_candidates", "PlayResult",
                                        "PlayedDeal")},
    **{name: "table" for name in ("DDTable", "MODES")},
}

__all__ = list(_LAZY)


def __getattr__(name):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))

"""The double-dummy engine: exact solving of Kaiser deals, mid-trick values, PIMC players.

The standard game's kernels only: this package knows no rules object.  The
rules (a kitty, low no trump, cover 3) are applied around these kernels by
:mod:`kaiser_sim.game`, the one way to them from above (a test enforces it).

Modules, lowest first (each imports only those above it in this list):

- :mod:`~kaiser_sim.dd._jit_cache`: numba's on-disk cache made aware of
  kernels that call kernels of another file (every module with cached
  kernels registers its call tree);
- :mod:`~kaiser_sim.dd.bits`: bit scans as machine instructions, pext/pdep,
  the rules of a trick on bitboards;
- :mod:`~kaiser_sim.dd.tt`: position keys and the transposition table with
  winning ranks;
- :mod:`~kaiser_sim.dd.bounds`: sound bounds from sure tricks;
- :mod:`~kaiser_sim.dd.endgame`: two-trick endings solved directly;
- :mod:`~kaiser_sim.dd.search`: the alpha-beta search, MTD(f), the parallel
  table kernels;
- :mod:`~kaiser_sim.dd.api`: the public functions (``solve``, ``can_reach``,
  ``dd_table``, ``dd_strains``, ``dd_contracts``, ``without_specials``);
- :mod:`~kaiser_sim.dd.midtrick`: values in the middle of a trick and a
  score for every card;
- :mod:`~kaiser_sim.dd.play_bounds`: sound bounds on a contract's value
  from the cards alone;
- :mod:`~kaiser_sim.dd.pimc`: the PIMC card player and its kernels, deals
  played out as the solver sees them.

docs/solver.md explains the search and its pitfalls.  The names below are
imported on first use (PEP 562).
"""

#: public name -> the module of this package that defines it
_LAZY = {
    "MODES": "api", "solve": "api", "can_reach": "api", "dd_table": "api", "dd_strains": "api", "dd_contracts": "api",
    "without_specials": "api",
    "solve_mid": "midtrick", "score_cards": "midtrick",
    "play_views": "pimc", "pimc_scores": "pimc", "sample_hands": "pimc",
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

"""One chunk of a run dealt, solved (and under ``--play`` played out): the unit of work of every engine.

:func:`compute_chunk` is a pure function of (run, chunk index): it deals
with :func:`kaiser_sim.deal.deal_batch` (deal ``i`` depends only on the
seed, the rules' deck and hand size, the fixed cards and ``i``; under the
weak-hand redeal, :func:`kaiser_sim.deal.deal_for_rules`) and
solves with :func:`kaiser_sim.game.dd_table` (exact, so independent of
threads), so the rows never depend on the number of workers, the chunk
size or the engine that ran them.  It runs in worker processes and on Dask
workers, which import it by its module path (this module).
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np

from .. import __version__
from . import results as res
from ..deal import RedealError, deal_batch, deal_for_rules, kitty_of
from .spec import RunSpec, SimulateError, play_contracts


@contextmanager
def _numba_threads(threads: int | None):
    import numba

    if threads is None:
        yield
        return
    prev = numba.get_num_threads()
    numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
    try:
        yield
    finally:
        numba.set_num_threads(prev)


def compute_chunk(spec: RunSpec, chunk: int, threads: int | None = None) -> dict:
    """Deal and solve one chunk: the unit of work of every engine.

    Returns ``{"chunk", "deal": (n,) int64, "hands": (n, 4) uint64,
    "points"/"tricks": (n, 4, k) int8 (the run's modes; k strains), "version"}``.
    A pure function of ``(spec, chunk)``; ``threads`` (numba threads, default
    all) changes only the speed.  Under rules that change the play (a kitty,
    low no trump) the tables are :func:`kaiser_sim.game.dd_table`'s under the rules,
    as ``kaiser-sim solve --rules`` prints them (with a kitty: much slower,
    a Python loop over discards).
    """
    from ..game import dd_table  # compiles (or loads from cache) on first use

    first, count = spec.bounds(chunk)
    out = {"chunk": chunk, "deal": np.arange(first, first + count, dtype=np.int64), "version": __version__}
    with _numba_threads(threads):
        if spec.redeal:
            try:
                hands, _, redeals = deal_for_rules(count, spec.seed, spec.rules, start=first, fixed=spec.fixed_array,
                                                   redeal_weak=True, return_redeals=True)
            except RedealError as e:
                raise SimulateError(str(e)) from None
            out["redeals"] = int(redeals.sum())
        else:
            hands = deal_batch(count, spec.seed, start=first, fixed=spec.fixed_array,
                               hand_size=spec.rules.hand_size, deck34=spec.rules.deck34)
        out["hands"] = hands
        if spec.plain and spec.mode == "both":  # one ladder solve: the tricks table bounds the points search
            out["points"], out["tricks"] = dd_table(hands, spec.rules, mode="both", threads=threads)
        for mode in (() if spec.plain and spec.mode == "both" else res.RUN_MODES[spec.mode]):
            kitties = kitty_of(hands, deck34=spec.rules.deck34) if spec.rules.kitty != "none" else None
            out[mode] = dd_table(hands, spec.rules, mode, kitties=kitties, threads=threads)
        if spec.samples:
            out.update(play_chunk(hands, out["deal"], out["points"], spec.samples, spec.seed, threads, spec.rules))
    return out


def play_chunk(hands, deal_ids, points, samples: int, seed: int, threads: int | None, rules) -> dict:
    """The played-contract columns of a ``--play`` run's chunk
    (:data:`kaiser_sim.runs.results.PLAY_COLUMNS`): each deal's contract
    (:func:`kaiser_sim.runs.spec.play_contracts`), its DD points from
    ``points`` and the declaring side's points when four PIMC players with
    ``samples`` layouts a turn play it out under ``rules``
    (:func:`kaiser_sim.game.play_deals`: with a kitty the PIMC
    declarer takes it up and discards, low NT is played on reversed ranks,
    cover 3 scores the played line).  Under cover 3 the DD points are the
    contract's under cover 3 (:func:`kaiser_sim.game.contract_values`;
    the table holds the standard count).  Deal ``i`` plays the same in any
    chunk: its generator is seeded from the run's seed and ``i``."""
    from ..game import contract_values, play_deals

    ids = np.asarray(deal_ids, dtype=np.int64)
    dec, strains = play_contracts(hands, ids, rules)
    rows = np.arange(len(ids))
    played = np.zeros(len(ids), dtype=np.int64)
    kitties = None
    if rules.kitty != "none":
        kitties = kitty_of(hands, deck34=rules.deck34)
    dd = np.asarray(points)[rows, dec, strains]
    if len(ids):
        played = play_deals(hands, dec, strains, samples=samples, seed=seed, start=int(ids[0]),
                            threads=threads, rules=rules, kitties=kitties).declarer_points
        if rules.cover3:
            dd = contract_values(hands, kitties, dec, strains, rules, threads=threads)[0]
    return {"play_declarer": dec.astype(np.int8), "play_strain": strains.astype(np.int8),
            "play_dd": np.asarray(dd).astype(np.int8), "play_pts": played.astype(np.int8)}


__all__ = ["compute_chunk", "play_chunk"]

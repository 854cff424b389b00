"""The hand advisor's two measures: the solver call (double dummy, :func:`solve_strains`) and table
play (:func:`table_play_for`, :class:`PlayInfo`: the table-play model on the hand's deals, bounded and
corrected by the hand's own played deals), and the points each deal is worth under them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ... import config
from ...game import dd_strains
from ...rules import STANDARD, Rules
from ...stats import MeanCI, weighted_mean_ci
from .inputs import STRAIN_KEYS


# --- the solver call ---------------------------------------------------------------------


def solve_strains(deals, leader: int, mode: str = "points", **special_bits) -> np.ndarray:
    """``(n, 5)`` int8: the five strains S H D C N with ``leader`` on lead
    (``dd.dd_strains``: a quarter of ``dd_table``'s work); ``special_bits``
    (``five=``, ``three=``) are passed through."""
    return np.asarray(dd_strains(deals, leader, STANDARD, mode, **special_bits))


def solver_compiles() -> bool:
    """True when a kernel the advisor runs (the solver's table and contract
    kernels, the dealer, the play bounds, the PIMC player) has no usable
    entry in numba's on-disk cache: the run will first compile it, about a
    minute.  False when every one is cached or already compiled in this
    process, and when it cannot tell (numba's cache internals moved)."""
    try:
        from ... import deal
        from ...game import solver_kernels

        for kernel in (*solver_kernels(), deal._deal_batch):
            if kernel.signatures:  # compiled in this process
                continue
            if not kernel._cache._cache_file._load_index():  # no index, or one stamped for other sources
                return True
    except Exception:  # noqa: BLE001 - numba internals: when in doubt, say nothing
        return False
    return False


# --- the two measures ------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayInfo:
    """Which measure the advice is made on.

    requested : ``"table"`` or ``"dd"`` (the ``play`` argument).
    used : the measure every choice is made on; ``"dd"`` when table play
        was requested but is not available.
    reason : why table play is not available (None when it is, or was not
        requested).
    model : :meth:`~kaiser_sim.strategy.table_play.TablePlayModel.describe` of the
        model used, else None; provenance : its provenance, else None.
    check : the PIMC play of a subsample of the deals that corrects the
        model for this hand (:meth:`~kaiser_sim.strategy.table_play.HandTablePlay.with_play`),
        else None.
    """

    requested: str
    used: str
    reason: str | None = None
    model: str | None = None
    provenance: dict | None = None
    #: the hand's own PIMC play that corrects the model (deals, samples, seed, strains), else None
    check: dict | None = None

    @property
    def table(self) -> bool:
        return self.used == "table"


def is_table(table_model) -> bool:
    return table_model is not None


def play_name(table_model) -> str:
    return "table" if is_table(table_model) else "dd"


def table_play_for(play: str, rules: Rules, values: np.ndarray | None = None, table_model=None, deals=None, seat=None,
                   kitties=None):
    """``(PlayInfo, model or None)``: the table-play model to use, or None
    (DD) with the reason.  ``table_model``: a :class:`~kaiser_sim.strategy.table_play.TablePlayModel`
    (default the one shipped for ``rules``, :func:`~kaiser_sim.strategy.table_play.model_for`).
    With the ``deals`` behind ``values`` (and their ``kitties``) and the
    declarer's ``seat``, the model comes as the hand's
    :class:`~kaiser_sim.strategy.table_play.HandTablePlay` (its own play under
    ``rules``), each deal's distribution kept within its bounds
    (:func:`kaiser_sim.game.strain_bounds`, a declarer who can claim every
    trick, and whose value that is, taking it) in the standard count
    without a kitty (the bounds know neither the kitty nor cover 3).
    Falls back to DD, never raises, when a model given cannot be read or
    does not hold for ``rules``."""
    if play == "dd":
        return PlayInfo("dd", "dd"), None
    from ..measure import measure_for

    measure = measure_for(rules, "table", table_model)
    if not measure.table:
        return PlayInfo("table", "dd", reason=measure.reason), None
    m, note = measure.table_model, measure.note
    if deals is not None and values is not None:
        from ..table_play import HandTablePlay, hand_bands

        v = np.asarray(values)
        # the hand's count band in each strain (the same hand in every deal), for a model that knows bands
        bands = hand_bands(np.asarray(deals)[0, int(seat)], v.shape[1]) if m.banded and len(v) else None
        if v.shape[1] == len(STRAIN_KEYS) and rules.kitty == "none" and not rules.cover3:
            from ...game import strain_bounds

            m = HandTablePlay(m, values, *strain_bounds(deals, int(seat), rules, values=values), rules=rules, bands=bands)
        else:
            m = HandTablePlay(m, values, rules=rules, kitties=kitties, bands=bands)
    text = m.describe() + (f" ({note})" if note else "")
    return PlayInfo("table", "table", None, text, dict(m.provenance)), m


def played_check(info: PlayInfo, tp, deals, seat: int, strains, seed: int, check: int | None = None):
    """``(info, tp)`` with the hand's table play corrected by PIMC play of
    ``check`` of its deals (default :data:`kaiser_sim.config.TABLE_PLAY_CHECK_DEALS`;
    0: none) in the strain columns ``strains``
    (:meth:`~kaiser_sim.strategy.table_play.HandTablePlay.with_play`, seeded by ``seed``).
    Unchanged without table play."""
    from ..table_play import HandTablePlay

    check = config.TABLE_PLAY_CHECK_DEALS if check is None else int(check)
    if not isinstance(tp, HandTablePlay) or check <= 0:
        return info, tp
    tp = tp.with_play(deals, seat, strains, check, config.TABLE_PLAY_CHECK_SAMPLES, seed)
    return replace(info, model=tp.describe(), check=tp.check), tp


def point_values(values: np.ndarray, table_model=None) -> np.ndarray:
    """``(n, 5)`` float: each deal's points in each strain, in one measure:
    DD (``table_model`` None: the values) or table play (the model's expected
    table points given the DD value; column N is no trump)."""
    v = np.asarray(values, dtype=np.int64)
    if not is_table(table_model):
        return v.astype(np.float64)
    from ..table_play import hand_play

    hp = hand_play(table_model, v)
    return np.stack([hp.expected(s) for s in range(v.shape[1])], axis=1)


def estimate(x, weights=None, rows=None, axis=None) -> MeanCI:
    """The advisor's one estimator: the weighted mean of ``x`` (over its
    ``rows``, default all) with its 95% interval
    (:func:`kaiser_sim.stats.weighted_mean_ci`; ``weights`` one a deal, None:
    every deal weight 1, the plain mean and interval).  ``weights`` covers
    every deal; ``rows`` picks both the values and their weights."""
    a = np.asarray(x, dtype=np.float64)
    if rows is not None:
        r = np.asarray(rows, dtype=np.int64)
        a = a[r] if axis in (None, 0) else np.take(a, r, axis=axis)
        weights = None if weights is None else np.asarray(weights, dtype=np.float64)[r]
    return weighted_mean_ci(a, weights, axis=axis)


def mean_of(x, weights=None, axis: int = 0):
    """The weighted mean alone (the point of :func:`estimate`), for choices."""
    a = np.asarray(x, dtype=np.float64)
    if weights is None:
        return a.mean(axis=axis)
    w = np.asarray(weights, dtype=np.float64)
    shape = [1] * a.ndim
    shape[axis] = -1
    return (a * w.reshape(shape)).sum(axis=axis) / w.sum()


def p_interval(per_deal: np.ndarray, weights=None) -> tuple:
    """(p, lo, hi) of a table-play probability: the (weighted) mean of the
    per-deal probabilities with its 95% interval (:func:`estimate`), clipped
    to 0..1."""
    m = estimate(per_deal, weights, axis=0)  # (a corrected per-deal value may leave 0..1: its mean is clipped too)
    return np.clip(m.mean, 0.0, 1.0), np.clip(m.lo, 0.0, 1.0), np.clip(m.hi, 0.0, 1.0)


def _pava_down(y: np.ndarray) -> np.ndarray:
    """The least-squares non-increasing fit of ``y`` (pool adjacent violators, equal weights)."""
    vals, sizes = [], []
    for yi in np.asarray(y, dtype=np.float64).tolist():
        vals.append(yi)
        sizes.append(1)
        while len(vals) > 1 and vals[-2] < vals[-1]:
            k = sizes[-2] + sizes[-1]
            vals[-2:], sizes[-2:] = [(vals[-2] * sizes[-2] + vals[-1] * sizes[-1]) / k], [k]
    return np.repeat(vals, sizes)


def monotone_survival(p, lo, hi) -> tuple:
    """``(p, lo, hi)`` of P(at least b) over increasing bids b made a
    survival function: ``p`` replaced by its isotonic (non-increasing)
    least-squares fit (pool adjacent violators), each interval moved with its
    point and then made non-increasing too and kept around the point, all
    within 0..1.  A sequence that already never rises is returned as it is.

    Why: a probability corrected by the hand's own play (the model's per-deal
    probability plus the played deals' residual, a control variate) is the
    difference of two survival functions, and can rise by a hair from one bid
    to the next; P(at least 8) above P(at least 7) is no distribution."""
    p, lo, hi = (np.asarray(x, dtype=np.float64) for x in (p, lo, hi))
    if len(p) < 2 or not (np.diff(p) > 0).any():
        return p, lo, hi
    q = np.clip(_pava_down(p), 0.0, 1.0)
    shift = q - p
    lo2 = np.minimum(np.clip(_pava_down(lo + shift), 0.0, 1.0), q)
    hi2 = np.maximum(np.clip(_pava_down(hi + shift), 0.0, 1.0), q)
    return q, lo2, hi2

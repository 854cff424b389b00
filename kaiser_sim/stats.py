"""Monte Carlo statistics: every estimate with its n and a 95% interval.

- :func:`wilson_interval` -- the Wilson score interval of a proportion
  ``k / n`` (vectorised).  Unlike the normal ("Wald") interval it stays inside
  [0, 1] and keeps its coverage near 0 and 1, where make probabilities of
  hopeless or cold bids live.
- :func:`mean_ci` -- a mean with the normal interval ``mean +- z * sd / sqrt(n)``
  (sample standard deviation, ``ddof=1``); fine for the bounded values of
  Kaiser (points lie in -2..12, hand scores in -24..24) at the deal counts
  used.

Example
-------
>>> lo, hi = wilson_interval(81, 263)
>>> round(float(lo), 4), round(float(hi), 4)
(0.2553, 0.3662)
>>> m = mean_ci([1, 2, 3, 4, 5])
>>> m.mean, round(m.lo, 4), round(m.hi, 4)
(3.0, 1.6141, 4.3859)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

#: two-sided 95% normal quantile
Z95 = 1.96


def wilson_interval(k, n, z: float = Z95):
    """Wilson score interval of the proportion ``k / n``.

    Parameters
    ----------
    k : successes (scalar or array).
    n : trials (scalar or array, broadcast against ``k``); ``0 <= k <= n``.
    z : normal quantile (1.96 for 95%).

    Returns
    -------
    ``(lo, hi)``: floats for scalar input, else float arrays of the broadcast
    shape.  ``n == 0`` gives NaN (no information).

    Raises
    ------
    ValueError if some ``k`` is outside ``0..n``.
    """
    k_arr = np.asarray(k, dtype=np.float64)
    n_arr = np.asarray(n, dtype=np.float64)
    if np.any(k_arr < 0) or np.any(k_arr > n_arr):
        raise ValueError("wilson_interval needs 0 <= k <= n")
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k_arr / n_arr
        z2 = z * z
        denom = 1.0 + z2 / n_arr
        centre = (p + z2 / (2.0 * n_arr)) / denom
        half = z * np.sqrt(p * (1.0 - p) / n_arr + z2 / (4.0 * n_arr * n_arr)) / denom
        lo = np.where(n_arr > 0, np.clip(centre - half, 0.0, 1.0), np.nan)
        hi = np.where(n_arr > 0, np.clip(centre + half, 0.0, 1.0), np.nan)
    # exact ends: the interval of 0 successes starts at 0, of n successes ends at 1
    lo = np.where(k_arr == 0, np.where(n_arr > 0, 0.0, np.nan), lo)
    hi = np.where((k_arr == n_arr) & (n_arr > 0), 1.0, hi)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


class MeanCI(NamedTuple):
    """A sample mean with its normal 95% interval (``z * se`` either side).
    Fields are floats, or arrays when :func:`mean_ci` reduces one axis of
    a larger array."""

    mean: float
    lo: float
    hi: float
    sd: float  #: sample standard deviation (ddof=1); NaN for n < 2
    se: float  #: standard error sd / sqrt(n)
    n: int


def mean_ci(x, z: float = Z95, axis: int | None = None) -> MeanCI:
    """Mean of ``x`` with the interval ``mean +- z * sd / sqrt(n)``.

    Parameters
    ----------
    x : array-like of numbers.
    z : normal quantile (1.96 for 95%).
    axis : the axis to reduce (e.g. ``axis=0`` of an ``(n, k)`` array gives
        ``k`` means); None reduces all values to one mean.

    With one value the spread is unknown: ``sd``, ``se``, ``lo`` and ``hi``
    are NaN.  No values at all is refused (ValueError).
    """
    a = np.asarray(x, dtype=np.float64)
    if axis is None:
        a, axis = a.ravel(), 0
    n = a.shape[axis]
    if n == 0:
        raise ValueError("mean_ci of no values")
    m = a.mean(axis=axis)
    sd = a.std(axis=axis, ddof=1) if n > 1 else np.full_like(m, np.nan)
    se = sd / np.sqrt(n)
    lo, hi = m - z * se, m + z * se
    if np.ndim(m) == 0:
        return MeanCI(float(m), float(lo), float(hi), float(sd), float(se), int(n))
    return MeanCI(m, lo, hi, sd, se, int(n))


__all__ = ["Z95", "wilson_interval", "MeanCI", "mean_ci"]

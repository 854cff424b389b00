"""Statistics helpers against published values and simple identities."""

import math

import numpy as np
import pytest

from kaiser_sim.stats import mean_ci, wilson_interval

# Newcombe (1998), "Two-sided confidence intervals for the single proportion",
# Statistics in Medicine 17:857-872, Table I, method 3 (Wilson score, no
# continuity correction), 95%.
NEWCOMBE = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
]


@pytest.mark.parametrize("k, n, lo, hi", NEWCOMBE)
def test_wilson_published_values(k, n, lo, hi):
    got = wilson_interval(k, n)
    assert isinstance(got[0], float)
    assert got == pytest.approx((lo, hi), abs=6e-5)


def test_wilson_is_vectorised_and_matches_scalars():
    k = np.array([81, 15, 0, 1])
    n = np.array([263, 148, 20, 29])
    lo, hi = wilson_interval(k, n)
    assert lo.shape == hi.shape == (4,)
    for i, (kk, nn, elo, ehi) in enumerate(NEWCOMBE):
        assert (lo[i], hi[i]) == pytest.approx((elo, ehi), abs=6e-5)
    # broadcasting: a (2, 3) k against one n
    lo2, hi2 = wilson_interval(np.arange(6).reshape(2, 3), 10)
    assert lo2.shape == (2, 3)
    assert (lo2[1, 2], hi2[1, 2]) == pytest.approx(wilson_interval(5, 10))


def test_wilson_symmetry_ends_and_z():
    for k in range(0, 31):
        lo, hi = wilson_interval(k, 30)
        lo_c, hi_c = wilson_interval(30 - k, 30)
        assert lo == pytest.approx(1 - hi_c) and hi == pytest.approx(1 - lo_c)
        assert 0 <= lo <= k / 30 <= hi <= 1
    assert wilson_interval(0, 50)[0] == 0.0 and wilson_interval(50, 50)[1] == 1.0
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=6e-5)
    # a larger z widens the interval
    lo90, hi90 = wilson_interval(5, 10, z=1.645)
    assert 0.2366 < lo90 and hi90 < 0.7634


def test_wilson_bad_and_empty():
    with pytest.raises(ValueError):
        wilson_interval(11, 10)
    with pytest.raises(ValueError):
        wilson_interval(-1, 10)
    lo, hi = wilson_interval(0, 0)
    assert math.isnan(lo) and math.isnan(hi)


def test_mean_ci_known_values():
    m = mean_ci([1, 2, 3, 4, 5])
    assert m.mean == 3.0 and m.n == 5
    assert m.sd == pytest.approx(math.sqrt(2.5))
    assert m.se == pytest.approx(math.sqrt(0.5))
    assert (m.lo, m.hi) == pytest.approx((3 - 1.96 * math.sqrt(0.5), 3 + 1.96 * math.sqrt(0.5)))
    assert (m.lo, m.hi) == pytest.approx((1.6141, 4.3859), abs=1e-4)
    assert mean_ci([2, 2, 2]).lo == mean_ci([2, 2, 2]).hi == 2.0


def test_mean_ci_axis_single_and_empty():
    x = np.array([[1, 10], [2, 20], [3, 30], [4, 40], [5, 50]])
    m = mean_ci(x, axis=0)
    assert np.allclose(m.mean, [3, 30]) and m.n == 5
    assert m.hi[1] - m.mean[1] == pytest.approx(10 * (m.hi[0] - m.mean[0]))
    assert mean_ci(x).mean == pytest.approx(16.5)  # axis None: every value
    one = mean_ci([7])
    assert one.mean == 7 and math.isnan(one.sd) and math.isnan(one.lo)
    with pytest.raises(ValueError):
        mean_ci([])


def test_mean_ci_coverage_fixed_seed():
    """About 95% of intervals from normal samples cover the true mean."""
    rng = np.random.default_rng(7)
    samples = rng.normal(1.0, 2.0, size=(2000, 100))
    m = mean_ci(samples, axis=1)
    cover = np.mean((m.lo <= 1.0) & (1.0 <= m.hi))
    assert 0.93 < cover < 0.97

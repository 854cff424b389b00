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


# --- clustered rows: coverage on known populations ----------------------------------------
#
# Each sample has G clusters (deals) of 1..6 rows (seats, strains) that share
# a cluster effect, as the rows of one deal do.  The truth is known in
# closed form; over many seeded samples the 95% intervals must cover it
# 93-97% of the time (the standard error of a coverage over 2,000 samples
# is 0.5 percentage points), and the iid intervals, which ignore the
# clusters, must not (else the test could not tell the two apart).

from kaiser_sim.stats import (cluster_diff_ci, cluster_mean_ci,  # noqa: E402
                              cluster_proportion_ci, mean_ci as _iid_mean)

REPS, G = 2000, 120


def _normal_cdf(x):
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def _clustered_sample(rng, rho=0.6):
    sizes = rng.integers(1, 7, G)
    cluster = np.repeat(np.arange(G), sizes)
    u = rng.normal(0, math.sqrt(rho), G)[cluster]
    e = rng.normal(0, math.sqrt(1 - rho), cluster.size)
    return cluster, u + e  # each row N(0, 1), correlation rho within a cluster


def _coverage(intervals, truth):
    lo = np.array([i[0] for i in intervals])
    hi = np.array([i[1] for i in intervals])
    return float(np.mean((lo <= truth) & (truth <= hi)))


def test_cluster_proportion_coverage():
    rng = np.random.default_rng(20261201)
    cut = 0.8  # P(row > cut) = 1 - Phi(0.8), about 0.21
    truth = 1 - _normal_cdf(cut)
    robust, iid = [], []
    for _ in range(REPS):
        cluster, z = _clustered_sample(rng)
        s = cluster_proportion_ci(z > cut, cluster)
        robust.append((s.lo, s.hi))
        iid.append(wilson_interval(s.k, s.n))
    assert 0.93 <= _coverage(robust, truth) <= 0.97
    assert _coverage(iid, truth) < 0.91


@pytest.mark.parametrize("design", ["whole clusters", "one row of a cluster"])
def test_cluster_mean_difference_coverage(design):
    # two groups drawn inside the same clusters, group A shifted by delta:
    # the difference of means is delta.  "whole clusters": a cluster's rows
    # are all in A or all in B (the cluster effect does not cancel: iid
    # intervals are too narrow); "one row of a cluster": one row of each
    # cluster in A, as one seat holds the 5H (it cancels: iid intervals are
    # too wide).  The robust interval is right in both.
    rng = np.random.default_rng(7)
    delta = 0.3
    robust, iid = [], []
    for _ in range(REPS):
        cluster, z = _clustered_sample(rng, rho=0.7)
        if design == "whole clusters":
            in_a = (rng.random(G) < 0.4)[cluster]
        else:
            first = np.r_[True, cluster[1:] != cluster[:-1]]
            in_a = first & (np.bincount(cluster)[cluster] > 1)
        x = z + delta * in_a
        d = cluster_diff_ci(x, in_a, ~in_a, cluster)
        robust.append((d.lo, d.hi))
        a, b = x[in_a], x[~in_a]
        se = math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
        iid.append((d.mean - 1.96 * se, d.mean + 1.96 * se))
    assert 0.93 <= _coverage(robust, delta) <= 0.97
    if design == "whole clusters":
        assert _coverage(iid, delta) < 0.90
    else:
        assert _coverage(iid, delta) > 0.985


def test_cluster_mean_coverage_and_iid_gap():
    rng = np.random.default_rng(11)
    robust, iid = [], []
    for _ in range(REPS):
        cluster, z = _clustered_sample(rng)
        m = cluster_mean_ci(z + 2.0, cluster)
        robust.append((m.lo, m.hi))
        plain = _iid_mean(z + 2.0)
        iid.append((plain.lo, plain.hi))
    assert 0.93 <= _coverage(robust, 2.0) <= 0.97
    assert _coverage(iid, 2.0) < 0.85


def test_cluster_estimators_reduce_to_iid_with_singleton_clusters():
    x = np.array([1.0, 4, 2, 8, 5, 7, 3])
    plain, robust = mean_ci(x), cluster_mean_ci(x)
    assert robust.mean == plain.mean and robust.se == pytest.approx(plain.se)
    assert cluster_mean_ci(x, np.arange(x.size)).se == pytest.approx(plain.se)
    flags = x > 3
    s = cluster_proportion_ci(flags)
    assert (s.lo, s.hi) == pytest.approx(wilson_interval(int(flags.sum()), flags.size))
    assert s.n_eff == flags.size and s.clusters == flags.size
    # identical rows in one cluster carry one row's information
    dup = cluster_proportion_ci(np.repeat(flags, 4), np.repeat(np.arange(x.size), 4))
    assert dup.n_eff == pytest.approx(x.size - 1)  # one row a cluster, less the G/(G-1) small-sample factor
    assert dup.p == s.p


def test_cluster_estimators_edge_cases():
    with pytest.raises(ValueError):
        cluster_mean_ci([])
    with pytest.raises(ValueError):
        cluster_mean_ci([1, 2, 3], [0, 1])
    with pytest.raises(ValueError):
        cluster_diff_ci([1, 2], [True, True], [False, False])
    one = cluster_mean_ci([1, 2, 3], [5, 5, 5])  # one cluster: no spread to measure
    assert math.isnan(one.lo) and one.clusters == 1
    allk = cluster_proportion_ci([True] * 8, np.repeat([0, 1], 4))  # p = 1: n_eff = clusters
    assert allk.p == 1 and allk.n_eff == 2 and allk.hi == 1.0 and allk.lo < 0.5
    empty = cluster_proportion_ci([], [])
    assert empty.n == 0 and math.isnan(empty.p)


@pytest.mark.parametrize("df, exact", [(10, 2.228139), (20, 2.085963), (50, 2.008559), (119, 1.980100),
                                       (1000, 1.962339)])
def test_t_quantile_against_tables(df, exact):
    from kaiser_sim.stats import t_quantile

    # two-sided 95% t quantiles from standard tables
    assert t_quantile(1.959964, df) == pytest.approx(exact, abs=2e-3)

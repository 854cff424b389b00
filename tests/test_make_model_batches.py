"""The make model's count and bins: a hand's bin does not depend on the
batch it is asked in (the population's calls read these bins, so a study's
tables must not move with its block size)."""

from __future__ import annotations

import numpy as np
import pytest

from kaiser_sim.deal import deal_batch
from kaiser_sim.hands import features, trump_by_rule
from kaiser_sim.strategy.make_model import EDGE_TOLERANCE, linear_count, load_make_model, prediction_bins


@pytest.fixture(scope="module")
def hands():
    return deal_batch(750, 5).reshape(-1)  # 3,000 hands


@pytest.mark.parametrize("kind", ["trump", "nt"])
def test_a_hands_bin_is_the_same_in_any_batch(hands, kind):
    m = load_make_model()
    trump = None if kind == "nt" else np.zeros(hands.size, np.int64)
    whole = m.bin_index(hands, trump, kind)
    for size in (1, 3, 17, 1000):
        parts = np.concatenate([m.bin_index(hands[i:i + size], None if trump is None else trump[i:i + size], kind)
                                for i in range(0, hands.size, size)])
        assert np.array_equal(parts, whole), (kind, size, int((parts != whole).sum()))
    # the many hands exactly on an edge (the features take few values) are in the bin above it
    pred = m.predict(hands, trump_by_rule(hands, "longest-strength") if trump is None else trump, kind)
    edges = m.edges[kind]
    on = np.isclose(pred[:, None], edges[None, :], rtol=0, atol=1e-12)
    assert on.any()
    rows, cols = np.nonzero(on)
    assert (whole[rows] == cols + 1).all()


def test_the_linear_count_is_the_plain_sum(hands):
    """Against a pure-Python sum over the features (exact rational arithmetic
    would agree to rounding: within 1e-12)."""
    m = load_make_model()
    t = np.arange(hands.size) % 4
    X = features(hands, t)
    c = m.coef["trump"]
    got = linear_count(X, c)
    ref = np.array([sum(float(x) * float(cj) for x, cj in zip(row, c)) for row in X[:300]])
    assert np.allclose(got[:300], ref, rtol=0, atol=1e-12)
    assert np.allclose(got, X @ c, rtol=0, atol=1e-12)
    assert np.array_equal(prediction_bins(np.array([1.0, 2.0]), np.array([1.0 - EDGE_TOLERANCE / 2, 0.99, 2.0])),
                          [1, 0, 2])

"""The dice generator: uniform d6, independent streams per (seed, chunk)."""

from __future__ import annotations

import numpy as np

from mathhammer._kernels.rng import FILL_SLACK, RNG_WORDS, fill_dice, rng_seed

N = 600_000


def _dice(seed, stream, n=N):
    rs = np.empty(RNG_WORDS, dtype=np.uint64)
    rng_seed(rs, seed, stream)
    buf = np.empty(n + FILL_SLACK, dtype=np.uint8)
    fill_dice(rs, buf, n)
    return buf[:n]


def _chi2_uniform(counts):
    exp = counts.sum() / counts.size
    return float(((counts - exp) ** 2 / exp).sum())


def test_faces_are_one_to_six_and_uniform():
    d = _dice(1, 0)
    assert d.min() == 1 and d.max() == 6
    counts = np.bincount(d, minlength=7)[1:]
    # chi-square with 5 degrees of freedom: 25.7 is the 0.9999 quantile
    assert _chi2_uniform(counts) < 25.7


def test_consecutive_pairs_are_uniform_over_36():
    """Dice taken from one 64-bit word must not be correlated: 2d6 pairs are uniform."""
    d = _dice(2, 0).astype(np.int64)
    pairs = (d[0::2] - 1) * 6 + (d[1::2] - 1)
    counts = np.bincount(pairs, minlength=36)
    # 35 degrees of freedom: 73.4 is the 0.9999 quantile
    assert _chi2_uniform(counts) < 73.4


def test_every_position_within_a_fill_block_is_uniform():
    """fill_dice writes 24 dice from two words at a time: each position must be uniform."""
    d = _dice(3, 0, 24 * 25_000).reshape(-1, 24)
    for k in range(24):
        counts = np.bincount(d[:, k], minlength=7)[1:]
        assert _chi2_uniform(counts) < 25.7, k


def test_streams_differ_and_are_reproducible():
    a = _dice(1, 0, 1000)
    assert np.array_equal(a, _dice(1, 0, 1000))
    assert not np.array_equal(a, _dice(1, 1, 1000))
    assert not np.array_equal(a, _dice(2, 0, 1000))


def test_neighbouring_streams_are_uncorrelated():
    a = _dice(9, 0).astype(float)
    b = _dice(9, 1).astype(float)
    r = np.corrcoef(a, b)[0, 1]
    assert abs(r) < 5 / np.sqrt(N)

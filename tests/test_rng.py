"""The dice generator: uniform pairs of d6, independent streams per (seed, chunk)."""

from __future__ import annotations

import numpy as np

from mathhammer._core.pairs import FIRST, PAIR_SUM, SECOND, pair_entry
from mathhammer._core.rng import FILL_SLACK, RNG_WORDS, fill_pairs, rng_seed

N = 600_000
# 0.9999 quantiles of chi-square with 5 and 35 degrees of freedom
CHI2_5 = 25.7
CHI2_35 = 73.4


def _pairs(seed, stream, n=N):
    rs = np.empty(RNG_WORDS, dtype=np.uint64)
    rng_seed(rs, seed, stream)
    buf = np.empty(n + FILL_SLACK, dtype=np.uint8)
    fill_pairs(rs, buf, n)
    return buf[:n].astype(np.int64)


def _chi2_uniform(counts):
    exp = counts.sum() / counts.size
    return float(((counts - exp) ** 2 / exp).sum())


def test_pair_tables_spell_out_two_dice():
    for a in range(1, 7):
        for b in range(1, 7):
            p = pair_entry(a, b)
            assert (FIRST[p], SECOND[p], PAIR_SUM[p]) == (a, b, a + b)


def test_pairs_are_uniform_over_36():
    p = _pairs(1, 0)
    assert p.min() == 0 and p.max() == 35
    assert _chi2_uniform(np.bincount(p, minlength=36)) < CHI2_35


def test_each_die_of_a_pair_is_uniform():
    p = _pairs(2, 0)
    assert _chi2_uniform(np.bincount(FIRST[p], minlength=7)[1:]) < CHI2_5
    assert _chi2_uniform(np.bincount(SECOND[p], minlength=7)[1:]) < CHI2_5


def test_consecutive_entries_are_independent():
    """Entries come from interleaved base-36 digits of two words: neighbours must not be
    correlated (uniform over the 36 x 36 joint outcomes, tested on the first dice)."""
    p = _pairs(4, 0)
    joint = (FIRST[p[0::2]] - 1) * 6 + (FIRST[p[1::2]] - 1)
    assert _chi2_uniform(np.bincount(joint, minlength=36)) < CHI2_35


def test_every_position_within_a_fill_block_is_uniform():
    """fill_pairs writes 12 entries from two words at a time: each position must be uniform."""
    p = _pairs(3, 0, 12 * 40_000).reshape(-1, 12)
    for k in range(12):
        counts = np.bincount(FIRST[p[:, k]], minlength=7)[1:]
        assert _chi2_uniform(counts) < CHI2_5, k


def test_streams_differ_and_are_reproducible():
    a = _pairs(1, 0, 1000)
    assert np.array_equal(a, _pairs(1, 0, 1000))
    assert not np.array_equal(a, _pairs(1, 1, 1000))
    assert not np.array_equal(a, _pairs(2, 0, 1000))


def test_neighbouring_streams_are_uncorrelated():
    a = _pairs(9, 0).astype(float)
    b = _pairs(9, 1).astype(float)
    r = np.corrcoef(a, b)[0, 1]
    assert abs(r) < 5 / np.sqrt(N)

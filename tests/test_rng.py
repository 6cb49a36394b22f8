"""The dice generator: uniform pairs of d6, independent streams per (seed, chunk)."""

from __future__ import annotations

import numpy as np

from mathhammer._core.pairs import FIRST, PAIR_SUM, SECOND, pair_entry
from mathhammer._core.jit import jit
from mathhammer._core.rng import FILL_SLACK, RNG_WORDS, fill_pairs, stream_state, take_entry

N = 600_000
# 0.9999 quantiles of chi-square with 5 and 35 degrees of freedom
CHI2_5 = 25.7
CHI2_35 = 73.4


@jit()
def fill(rs, buf, n):
    """:func:`fill_pairs` called from Python (it is a helper: no wrapper of its own)."""
    fill_pairs(rs, buf, n)


def _pairs(seed, stream, n=N):
    rs = np.array(stream_state(seed, stream), dtype=np.uint64)
    buf = np.empty(n + FILL_SLACK, dtype=np.uint8)
    fill(rs, buf, n)
    return buf[:n].astype(np.int64)


def _chi2_uniform(counts):
    exp = counts.sum() / counts.size
    return float(((counts - exp) ** 2 / exp).sum())


_M64 = (1 << 64) - 1


def _splitmix64(x):
    """SplitMix64 (Vigna, splitmix64.c), written out again for the test: (state, output)."""
    x = (x + 0x9E3779B97F4A7C15) & _M64
    z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return x, z ^ (z >> 31)


def test_stream_state_is_the_documented_splitmix_derivation():
    """What a seed means: stream ``s`` of seed ``k`` starts from ``k ^ (s * 0x94D0...)``; two
    SplitMix64 outputs a, b, the state xored with a, then four outputs xored with b are the
    xoshiro256** words. The reference SplitMix64 gives its published first outputs from 0."""
    x, outs = 0, []
    for _ in range(3):
        x, z = _splitmix64(x)
        outs.append(z)
    assert outs == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    for seed, stream in [(0, 0), (1, 0), (1, 1), (7, 3), (20261201, 63), (2**63 - 1, 2**20 + 5)]:
        x = (seed ^ (stream * 0x94D049BB133111EB)) & _M64
        x, a = _splitmix64(x)
        x, b = _splitmix64(x)
        x ^= a
        words = []
        for _ in range(RNG_WORDS):
            x, z = _splitmix64(x)
            words.append(z ^ b)
        assert stream_state(seed, stream) == tuple(words)


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


@jit()
def _read_entries(rs, n):
    """``n`` entries read with :func:`take_entry` (the plain kernel's reader), and the words
    it drew."""
    out = np.empty(n, dtype=np.int64)
    a = np.uint64(0)
    b = np.uint64(0)
    left = 0
    drawn = 0
    for i in range(n):
        e, a, b, left, drawn = take_entry(rs, a, b, left, drawn)
        out[i] = e
    return out, drawn


def test_the_register_reader_meets_the_buffer_entry_for_entry():
    """The plain kernel decodes in registers the very entries fill_pairs writes, in order,
    drawing the same words."""
    for n in (1, 11, 12, 13, 4096, 5003):
        rs = np.array(stream_state(9, 4), dtype=np.uint64)
        got, drawn = _read_entries(rs.copy(), n)
        want = np.empty(n + FILL_SLACK, dtype=np.uint8)
        fill(rs, want, n)
        np.testing.assert_array_equal(got, want[:n])
        assert drawn == 2 * -(-n // 12)  # two words for every 12 entries, as fill_pairs draws

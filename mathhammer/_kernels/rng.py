"""Counter-keyed random streams: xoshiro256** seeded by SplitMix64 from (seed, chunk).

Every chunk of trials owns a stream derived only from the user's seed and the chunk index,
so results do not depend on how chunks are spread over threads.

State ``rs`` is a ``uint64[RNG_WORDS]`` array: four xoshiro words, then (for :func:`d6`, the
one-die-at-a-time form kept for tests and tools) a buffered 64-bit word consumed as a base-6
fraction and the number of dice left in it.

The hot loop does not call the generator per die: :func:`fill_dice` writes a block of d6
into a ``uint8`` buffer, and the trial reads dice from it by position. A trial never draws
more than the encoder's ``max_dice`` bound, so the driver refills the buffer between trials
whenever fewer than that many dice are left (the unread rest is discarded, deterministically).
"""

from __future__ import annotations

import numpy as np

from ._jit import jit

RNG_WORDS = 6
_BUF = 4
_LEFT = 5

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_M32 = np.uint64(0xFFFFFFFF)
_U6 = np.uint64(6)
_U1 = np.uint64(1)
_U0 = np.uint64(0)
_U10 = np.uint64(10)
_S17 = np.uint64(17)
_S45 = np.uint64(45)
_S7 = np.uint64(7)
_S9 = np.uint64(9)
_U5 = np.uint64(5)
_S32 = np.uint64(32)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)


@jit()
def _splitmix(x):
    """One SplitMix64 step: returns (new state, output)."""
    x = x + _GOLDEN
    z = x
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return x, z ^ (z >> _S31)


@jit()
def rng_seed(rs, seed, stream):
    """Seed ``rs`` for stream number ``stream`` of ``seed``."""
    x = np.uint64(seed) ^ (np.uint64(stream) * _MIX2)
    x, a = _splitmix(x)
    x, b = _splitmix(x)
    x = x ^ a
    for i in range(4):
        x, z = _splitmix(x)
        rs[i] = z ^ b
    if rs[0] == _U0 and rs[1] == _U0 and rs[2] == _U0 and rs[3] == _U0:
        rs[0] = _GOLDEN
    rs[_BUF] = _U0
    rs[_LEFT] = _U0


@jit()
def _rotl(x, k):
    return (x << k) | (x >> (np.uint64(64) - k))


@jit()
def next64(rs):
    """Next 64-bit word of the xoshiro256** stream."""
    s0 = rs[0]
    s1 = rs[1]
    s2 = rs[2]
    s3 = rs[3]
    result = _rotl(s1 * _U5, _S7) * np.uint64(9)
    t = s1 << _S17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, _S45)
    rs[0] = s0
    rs[1] = s1
    rs[2] = s2
    rs[3] = s3
    return result


@jit()
def d6(rs):
    """One d6 (1..6): the top base-6 digit of the buffered word."""
    if rs[_LEFT] == _U0:
        rs[_BUF] = next64(rs)
        rs[_LEFT] = _U10
    w = rs[_BUF]
    hi = ((w >> _S32) * _U6 + (((w & _M32) * _U6) >> _S32)) >> _S32
    rs[_BUF] = w * _U6
    rs[_LEFT] = rs[_LEFT] - _U1
    return np.int64(hi) + 1


@jit()
def fill_dice(rs, buf):
    """Fill ``buf`` (uint8) with d6 results.

    Two 64-bit words are consumed side by side as base-6 fractions, five dice from each
    (the two multiply chains run in parallel on the CPU); after five digits a word still has
    over 50 bits of precision, so the bias per face is below 2**-50.
    """
    n = buf.shape[0]
    i = 0
    while i + 10 <= n:
        a = next64(rs)
        b = next64(rs)
        for _ in range(5):
            buf[i] = np.uint8((((a >> _S32) * _U6 + (((a & _M32) * _U6) >> _S32)) >> _S32) + _U1)
            buf[i + 1] = np.uint8((((b >> _S32) * _U6 + (((b & _M32) * _U6) >> _S32)) >> _S32) + _U1)
            a = a * _U6
            b = b * _U6
            i += 2
    while i < n:
        w = next64(rs)
        buf[i] = np.uint8((((w >> _S32) * _U6 + (((w & _M32) * _U6) >> _S32)) >> _S32) + _U1)
        i += 1

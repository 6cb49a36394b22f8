"""Counter-keyed random streams: xoshiro256** seeded by SplitMix64 from (seed, chunk).

Every chunk of trials owns a stream derived only from the user's seed and the chunk index,
so results do not depend on how chunks are spread over threads.

State ``rs`` is a ``uint64[RNG_WORDS]`` array holding the four xoshiro words (of
:func:`stream_state`, worked out in Python when a chunk opens).

The hot loop does not call the generator per die: :func:`fill_pairs` writes a block of
*pairs* of d6 (one byte each, a base-36 digit) into a ``uint8`` buffer, and the trials read
them by position: a roll of n dice reads ``(n + 1) // 2`` entries (an odd die is the first
die of its pair). A trial never reads more than the encoder's ``max_draws`` bound, so the
buffer is refilled between trials whenever fewer are left (the unread rest is discarded,
deterministically).

What the kernels read from the stream, in order, is what a seed means. One rule of it matters
for speed: a damaging attack's damage roll is drawn whether the attack hits or not (on a
miss, its dice as they would be unboosted are drawn and dropped), so the places of a trial's
rolls depend on its state, never on its dice (issue 20; before 2026-12-04 a miss drew no
damage dice). The plain kernel reads its entries straight from the words in registers
(:func:`take_pair`), replaying the buffer's refills, and so meets the same dice as the
buffer kernels.
"""

from __future__ import annotations

import numpy as np

from .jit import jit

RNG_WORDS = 4

# SplitMix64's constants (Python integers: the seeding runs in Python)
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_M64 = (1 << 64) - 1
_S17 = np.uint64(17)
_S45 = np.uint64(45)
_S7 = np.uint64(7)
_U5 = np.uint64(5)
_U9 = np.uint64(9)


def _mix(z: int) -> int:
    """SplitMix64's output for its state ``z`` (the state itself steps by ``_GOLDEN``)."""
    z = ((z ^ (z >> 30)) * _MIX1) & _M64
    z = ((z ^ (z >> 27)) * _MIX2) & _M64
    return z ^ (z >> 31)


def stream_state(seed: int, stream: int) -> tuple[int, int, int, int]:
    """The four xoshiro256** words that start stream number ``stream`` of ``seed``.

    Worked out in Python integers, not in a jitted function: a chunk is seeded once, and a
    jitted seeding function (with the chunk opener around it) cost about half a second of
    every first run's compile (the seeding 0.18 s, the opener and NumPy's ``empty`` in it
    0.29 s).

    >>> stream_state(1, 0) == stream_state(1, 0) != stream_state(1, 1)
    True
    """
    # SplitMix64 from seed ^ (stream * _MIX2): two outputs a, b; the state xored with a;
    # four more outputs xored with b (3 us a stream: a few per point of a balance matrix)
    x = (seed ^ (stream * _MIX2)) & _M64
    a = _mix((x + _GOLDEN) & _M64)
    x = (x + 2 * _GOLDEN) & _M64
    b = _mix(x)
    x ^= a
    words = (_mix((x + _GOLDEN) & _M64) ^ b, _mix((x + 2 * _GOLDEN) & _M64) ^ b,
             _mix((x + 3 * _GOLDEN) & _M64) ^ b, _mix((x + 4 * _GOLDEN) & _M64) ^ b)
    return words if any(words) else (_GOLDEN,) + words[1:]  # xoshiro's one forbidden state


@jit(helper=True)
def _rotl(x, k):
    return (x << k) | (x >> (np.uint64(64) - k))


@jit(helper=True)
def next64(rs):
    """Next 64-bit word of the xoshiro256** stream."""
    s0 = rs[0]
    s1 = rs[1]
    s2 = rs[2]
    s3 = rs[3]
    result = _rotl(s1 * _U5, _S7) * _U9
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


#: Entries a dice buffer needs past the pairs asked of :func:`fill_pairs`.
FILL_SLACK = 12
_S2 = np.uint64(2)
_S5 = np.uint64(5)
_S59 = np.uint64(59)
_S62 = np.uint64(62)


@jit(inline=True)
def _pair(w):
    """Top base-36 digit of the fraction ``w / 2**64`` and the rest: ``(digit, w * 36 mod 2**64)``.

    Shifts and adds only: ``36 w = 32 w + 4 w``, the digit being what overflows 64 bits.
    """
    lo5 = w << _S5
    lo2 = w << _S2
    rest = lo5 + lo2
    digit = (w >> _S59) + (w >> _S62) + np.uint64(rest < lo5)
    return np.int64(digit), rest


@jit(helper=True)
def fill_pairs(rs, buf, n):
    """Write at least ``n`` pairs of dice into ``buf`` (uint8, ``n + FILL_SLACK`` entries).

    Each entry is a base-36 digit ``p`` standing for two d6, ``p // 6 + 1`` and ``p % 6 + 1``
    (see :mod:`.dice`). Two 64-bit words are read side by side as base-36 fractions, six digits
    from each; after six digits a word still holds 52 random bits, so the bias of any pair is
    below ``36**6 / 2**64`` (2e-10).

    Called from the kernels only: a helper, without the wrapper for Python that a first run
    would compile for nothing (a test calls it through a jitted function of its own).
    """
    i = 0
    while i < n:
        a = next64(rs)
        b = next64(rs)
        for _ in range(6):
            pa, a = _pair(a)
            pb, b = _pair(b)
            buf[i] = np.uint8(pa)
            buf[i + 1] = np.uint8(pb)
            i += 2


@jit(helper=True)
def fill_words(n):
    """Words of the stream :func:`fill_pairs` draws to write ``n`` entries (two for every 12)."""
    return 2 * ((n + 11) // 12)


@jit(helper=True)
def take_pair(a, b, left):
    """The next entry :func:`fill_pairs` would write, read from its two words in registers.

    ``a`` and ``b`` are the two words being read (what is left of them), ``left`` the entries
    they still hold (12 when freshly drawn). Returns ``(entry, a, b, left - 1)``: the entry is
    ``a``'s top digit, and ``(a, b)`` become ``(b, rest of a)``, so that entries alternate
    between the words as in the buffer. The caller draws two new words when ``left`` is 0.
    """
    entry, rest = _pair(a)
    return entry, b, rest, left - 1


@jit(helper=True)
def draw_words(rs, drawn):
    """The next two words :func:`fill_pairs` would read, as :func:`take_pair` holds them:
    ``(a, b, 12, drawn + 2)`` (``drawn`` counts the words drawn)."""
    a = next64(rs)
    b = next64(rs)
    return a, b, 12, drawn + 2


@jit(helper=True)
def take_entry(rs, a, b, left, drawn):
    """:func:`take_pair`, drawing two new words first when none is left (``drawn`` counts the
    words drawn): ``(entry, a, b, left, drawn)``."""
    if left == 0:
        a, b, left, drawn = draw_words(rs, drawn)
    entry, a, b, left = take_pair(a, b, left)
    return entry, a, b, left, drawn

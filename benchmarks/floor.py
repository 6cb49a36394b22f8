"""The floor: a kernel written by hand for the benchmark's single attack only (issue 20).

The yardstick of ``bench_kernel.py``: how fast a Numba loop can run the single-attack workload
when everything about it is known in advance (MAT 7 POW 16 against DEF 12 ARM 18, a track of
30 boxes, one attack, nothing spent). Same rules and figures as the project's kernel (2d6 +
MAT against DEF, two ones always miss, two sixes always hit, a double that hits is critical;
damage 2d6 + POW - ARM, at least 0, capped at the boxes left), same counters (the damage
histogram, per attack made / hit / critical / damage, the kill), checked against the exact
engine like every method of the benchmark.

What makes it the floor: one 1,296-entry table gives, for an attack pair and a damage pair of
dice (a base-1,296 digit), whether the attack hits, is critical, and the damage it deals; each
64-bit word of a xoshiro256** stream is read as three such digits (three trials a word, by
division by constants: its bias, about 1e-10, is far below any figure the benchmark prints).
Chunks of trials have streams of their own and rows of counters of their own, as the
project's kernel does, so it runs on one thread or on all cores.

It is not the project's kernel and never will be: it knows one scenario, reads dice as no
rule of the game needs, and cannot be extended. It answers "how much of the time per trial is
the project's generality?".
"""

from __future__ import annotations

import numba
import numpy as np

#: Trials per chunk (each chunk its own stream and counter row).
CHUNK = 1 << 15
_MIX = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def outcome_table(skill: int, defense: int, pow_: int, arm: int, boxes: int) -> np.ndarray:
    """``int64[1296]``: for attack pair ``a`` and damage pair ``b`` (each 0..35, dice
    ``p // 6 + 1`` and ``p % 6 + 1``), entry ``36 * a + b`` is ``hit | crit << 1 | damage << 2``.

    >>> t = outcome_table(7, 12, 16, 18, 30)
    >>> int(t[0]) & 1, int(t[35 * 36 + 35]) & 3, int(t[35 * 36 + 35]) >> 2  # 1-1 misses; 6-6 crits for 10
    (0, 3, 10)
    """
    table = np.zeros(1296, dtype=np.int64)
    for a in range(36):
        d1, d2 = a // 6 + 1, a % 6 + 1
        total = d1 + d2
        hit = total == 12 or (total != 2 and total + skill >= defense)
        crit = hit and d1 == d2
        for b in range(36):
            dmg = min(boxes, max(0, b // 6 + b % 6 + 2 + pow_ - arm)) if hit else 0
            table[36 * a + b] = int(hit) | int(crit) << 1 | dmg << 2
    return table


@numba.njit(cache=True, nogil=True)
def _splitmix(x):
    x = x + _MIX
    z = (x ^ (x >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return x, z ^ (z >> np.uint64(31))


@numba.njit(cache=True, nogil=True)
def _chunk(seed, c, n, table, hist, counts):
    """Chunk ``c``: ``n`` trials into its row of ``hist`` (damage) and ``counts`` (hit,
    crit, damage)."""
    x = np.uint64(seed) ^ (np.uint64(c) * _M2)
    x, s0 = _splitmix(x)
    x, s1 = _splitmix(x)
    x, s2 = _splitmix(x)
    x, s3 = _splitmix(x)
    hits = 0
    crits = 0
    damage = 0
    done = 0
    while done < n:
        # xoshiro256**
        r = s1 * np.uint64(5)
        word = ((r << np.uint64(7)) | (r >> np.uint64(57))) * np.uint64(9)
        t = s1 << np.uint64(17)
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
        for _ in range(min(3, n - done)):
            e = table[word % np.uint64(1296)]
            word //= np.uint64(1296)
            hits += e & 1
            crits += (e >> 1) & 1
            d = e >> 2
            damage += d
            hist[d] += 1
        done += 3
    counts[0] += hits
    counts[1] += crits
    counts[2] += damage


@numba.njit(cache=True, nogil=True, parallel=True)
def _run(seed, trials, table, boxes):
    k = (trials + CHUNK - 1) // CHUNK
    hist = np.zeros((k, boxes + 1 + 8), dtype=np.int64)  # a cache line of padding per row
    counts = np.zeros((k, 16), dtype=np.int64)
    for c in numba.prange(k):
        n = min(CHUNK, trials - c * CHUNK)
        _chunk(seed, np.int64(c), n, table, hist[c], counts[c])
    return hist[:, : boxes + 1].sum(axis=0), counts[:, :3].sum(axis=0)


def floor_run(trials: int, seed: int, skill=7, defense=12, pow_=16, arm=18, boxes=30):
    """The floor kernel's counters for ``trials`` single attacks, as ``bench_kernel`` reads a
    method's: ``(damage_hist, attack_counts, kill_at)`` (attack_counts: made, hit, critical,
    damage; nobody dies: 30 boxes, at most 10 damage)."""
    table = outcome_table(skill, defense, pow_, arm, boxes)
    if int((table >> 2).max()) >= boxes:
        raise ValueError("the floor kernel's workload never kills")
    hist, c = _run(np.int64(seed), np.int64(trials), table, np.int64(boxes))
    counts = np.array([[trials, c[0], c[1], c[2]]], dtype=np.int64)
    return hist, counts, np.zeros(1, dtype=np.int64)

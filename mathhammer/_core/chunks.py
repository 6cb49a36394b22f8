"""The chunk scheme: what a seed means, for every Monte Carlo kernel of the package.

Trials are split into chunks of :data:`CHUNK` trials. Chunk k of seed s draws its dice from
its own stream, keyed on (s, k) (:func:`mathhammer._core.rng.rng_seed`), into a buffer of
pairs of dice (:mod:`.pairs`) refilled :data:`DRAW_BLOCK` pairs or more at a time. Each chunk
writes only its own counter row (padded by :data:`PAD` entries, a cache line, so threads never
share one), and rows are summed after the parallel loop: integer sums are exact, so the same
seed gives the same counts on any number of threads. Kernels open a chunk with
:func:`open_chunk`; drivers walk the chunks in batches of :data:`BATCH` (:func:`batches`),
which bounds memory and never changes results.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from .jit import jit
from .rng import FILL_SLACK, RNG_WORDS, rng_seed

__all__ = ["CHUNK", "BATCH", "DRAW_BLOCK", "PAD", "n_chunks", "batches", "open_chunk"]

#: Trials per chunk. It fixes which random numbers each trial sees, so it is part of what a
#: seed means: changing it changes results (never their distribution).
CHUNK = 1 << 15
#: Chunks per kernel call (bounds memory; never changes results).
BATCH = 64
#: Pairs of dice drawn at a time into a chunk's buffer (at least; more when a trial may read
#: more than a quarter of them).
DRAW_BLOCK = 4096
#: Padding (int64 entries: one 64-byte cache line) after each chunk's counter row.
PAD = 8


def n_chunks(trials: int, chunk: int = CHUNK) -> int:
    """Chunks of ``trials`` trials (the last one may be short).

    >>> n_chunks(CHUNK), n_chunks(CHUNK + 1)
    (1, 2)
    """
    return -(-trials // chunk)


def batches(trials: int, chunk: int = CHUNK, batch: int = BATCH) -> Iterator[tuple[int, int]]:
    """``(first, k)``: the first chunk index and the number of chunks of each kernel call.

    >>> list(batches(5 * CHUNK, batch=2))
    [(0, 2), (2, 2), (4, 1)]
    """
    total = n_chunks(trials, chunk)
    for first in range(0, total, batch):
        yield first, min(batch, total - first)


@jit()
def open_chunk(c, first, seed, trials, chunk, max_draws):
    """The stream and empty dice buffer of chunk ``first + c``, and its number of trials.

    Returns ``(rs, dice, size, n)``: the xoshiro state seeded for (``seed``, ``first + c``),
    a buffer of ``size + FILL_SLACK`` entries (``size`` at least four times ``max_draws``, the
    most entries one trial reads) and the trials of the chunk. A kernel starts reading at
    ``pos = size``: the buffer is empty, the first trial fills it.
    """
    rs = np.empty(RNG_WORDS, dtype=np.uint64)
    rng_seed(rs, seed, first + c)
    size = max(DRAW_BLOCK, 4 * max_draws)
    dice = np.empty(size + FILL_SLACK, dtype=np.uint8)
    n = min(chunk, trials - (first + c) * chunk)
    return rs, dice, size, n

"""The chunk scheme: what a seed means, for every Monte Carlo kernel of the package.

Trials are split into chunks of :data:`CHUNK` trials. Chunk k of seed s draws its dice from
its own stream, keyed on (s, k) (:func:`mathhammer._core.rng.stream_state`), into a buffer of
pairs of dice (:mod:`.pairs`) refilled :data:`DRAW_BLOCK` pairs or more at a time. Each chunk
writes only its own counter row (padded by :data:`PAD` entries, a cache line, so threads never
share one), and rows are summed after the parallel loop: integer sums are exact, so the same
seed gives the same counts on any number of threads. Drivers open a batch's chunks with
:func:`open_batch`, and walk the chunks in batches of :data:`BATCH` (:func:`batches`),
which bounds memory and never changes results.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from .rng import FILL_SLACK, stream_state

__all__ = ["CHUNK", "BATCH", "PLAIN_BATCH", "DRAW_BLOCK", "PAD", "n_chunks", "batches", "open_batch"]

#: Trials per chunk. It fixes which random numbers each trial sees, so it is part of what a
#: seed means: changing it changes results (never their distribution).
CHUNK = 1 << 15
#: Chunks per kernel call (bounds memory; never changes results).
BATCH = 64
#: Chunks per call of the plain kernel, whose chunks are short (32,768 single attacks take
#: about 0.13 ms): a batch's end waits for the chunks a helper thread has claimed, and on a
#: busy machine that helper may be off its core for a time slice, a cost per batch that 64
#: such chunks did not cover (beside a busy core, two threads ran a single attack 16 % slower
#: than one with batches of 64, 12 % faster with 1,024). Its counters are small.
PLAIN_BATCH = 1024
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


def open_batch(seed: int, first: int, k: int, trials: int, chunk: int,
               max_draws: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The streams, empty dice buffers and trials of chunks ``first .. first + k - 1``.

    Returns ``(streams, dice, n, size)``: ``streams[c]`` the xoshiro state seeded for
    (``seed``, ``first + c``), ``dice[c]`` its buffer of ``size + FILL_SLACK`` entries
    (``size`` at least four times ``max_draws``, the most entries one trial reads), ``n[c]``
    its number of trials. Each chunk's kernel reads and writes only its own rows (views); it
    starts reading at ``pos = size``: the buffer is empty, the first trial fills it.

    Built in Python, not in a jitted function: what it costs per batch is microseconds, and a
    jitted opener cost every first run half a second of compile (its seeding 0.18 s, itself
    0.13 s, NumPy's ``empty`` 0.16 s).

    >>> streams, dice, n, size = open_batch(1, 0, 3, 3 * CHUNK - 5, CHUNK, 10)
    >>> streams.shape, dice.shape, n.tolist()
    ((3, 4), (3, 4108), [32768, 32768, 32763])
    """
    size = max(DRAW_BLOCK, 4 * max_draws)
    streams = np.array([stream_state(seed, first + c) for c in range(k)], dtype=np.uint64)
    dice = np.empty((k, size + FILL_SLACK), dtype=np.uint8)
    n = np.array([min(chunk, trials - (first + c) * chunk) for c in range(k)], dtype=np.int64)
    return streams, dice, n, size

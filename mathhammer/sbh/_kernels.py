"""Song of Blades and Heroes: Monte Carlo of a whole turn (activation rolls until a turnover).

The chunk scheme of :mod:`mathhammer._core.chunks`, as for Warmachine: trials are split into
fixed-size chunks, each chunk draws from its own stream keyed on (seed, chunk index), writes
only its own counter row, and rows are summed after the parallel loop, so a seed gives the
same counts on any number of threads. Dice are read off the pair buffer
(:mod:`mathhammer._core.pairs`): a roll of n dice reads ``(n + 1) // 2`` entries, die k being
the first die of entry ``k // 2`` for even k and the second for odd k.

The plan and the counter row are laid out as :mod:`.layout` says.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._core.chunks import BATCH, CHUNK, PAD, batches, open_batch
from .._core.compiling import compile_for
from .._core.jit import jit
from .._core.pairs import die_of
from .._core.rng import fill_pairs
from .layout import (
    O_ACTED,
    O_ACTIONS,
    O_END,
    O_MODEL_ACTED,
    O_MODEL_ACTIONS,
    O_ORDER,
    O_WIDTH,
    S_COUNT,
    S_DICE,
    S_FIRST,
    S_KIND,
    S_LEADER_DICE,
    S_LEADER_MODEL,
    S_LEADER_THR,
    S_THR,
    STEP_SOLO,
    counter_offsets,
    max_draws_of,
)

__all__ = ["run_turns", "run_turn_trials"]


@jit(inline=True)
def _successes(dice, pos, n, thr):
    """Successes of a roll of ``n`` dice starting at buffer entry ``pos``."""
    k = 0
    for j in range(n):
        k += np.int64(die_of(np.int64(dice[pos + (j >> 1)]), j) >= thr)
    return k


@jit()
def run_turn_trials(n_trials, rs, dice, size, max_draws, steps, offs, row):
    """Simulate ``n_trials`` turns of the plan ``steps``; add the counts to ``row``."""
    n_steps = steps.shape[0]
    a0 = offs[O_ACTIONS]
    c0 = offs[O_ACTED]
    e0 = offs[O_END]
    r0 = offs[O_ORDER]
    ma0 = offs[O_MODEL_ACTED]
    mn0 = offs[O_MODEL_ACTIONS]
    pos = size  # empty buffer: the first trial fills it
    for _ in range(n_trials):
        if pos > size - max_draws:
            fill_pairs(rs, dice, size)
            pos = 0
        total = 0
        acted = 0
        end = n_steps
        for s in range(n_steps):
            n = steps[s, S_DICE]
            first = steps[s, S_FIRST]
            if steps[s, S_KIND] == STEP_SOLO:
                k = _successes(dice, pos, n, steps[s, S_THR])
                pos += (n + 1) >> 1
                row[mn0 + first] += k
                row[ma0 + first] += np.int64(k > 0)
                total += k
                acted += np.int64(k > 0)
                if n - k >= 2:
                    end = s
                    break
            else:
                nl = steps[s, S_LEADER_DICE]
                lead = steps[s, S_LEADER_MODEL]
                kl = _successes(dice, pos, nl, steps[s, S_LEADER_THR])
                pos += (nl + 1) >> 1
                leader_turnover = nl - kl >= 2
                if kl >= 1 and not leader_turnover:
                    # the order costs the Leader one action; the group rolls once
                    row[r0 + s] += 1
                    g = _successes(dice, pos, n, steps[s, S_THR])
                    pos += (n + 1) >> 1
                    count = steps[s, S_COUNT]
                    row[mn0 + lead] += kl - 1
                    row[ma0 + lead] += 1
                    yes = np.int64(g > 0)
                    for j in range(first, first + count):
                        row[mn0 + j] += g
                        row[ma0 + j] += yes
                    total += kl - 1 + g * count
                    acted += 1 + yes * count
                    if n - g >= 2:
                        end = s
                        break
                else:
                    row[mn0 + lead] += kl
                    row[ma0 + lead] += np.int64(kl > 0)
                    total += kl
                    acted += np.int64(kl > 0)
                    if leader_turnover:
                        end = s
                        break
        row[a0 + total] += 1
        row[c0 + acted] += 1
        row[e0 + end] += 1


@jit()
def _run_chunk(c, streams, dice, n, size, max_draws, steps, offs, counts):
    """Chunk ``c`` of the batch (opened by :func:`~mathhammer._core.chunks.open_batch`)."""
    run_turn_trials(n[c], streams[c], dice[c], size, max_draws, steps, offs, counts[c])


@jit(parallel=True)
def _run_parallel(streams, dice, n, size, max_draws, steps, offs, counts):
    for c in prange(counts.shape[0]):  # a uint64 index: made int64, one signature of _run_chunk
        _run_chunk(np.int64(c), streams, dice, n, size, max_draws, steps, offs, counts)


@jit()
def _run_serial(streams, dice, n, size, max_draws, steps, offs, counts):
    for c in range(counts.shape[0]):
        _run_chunk(np.int64(c), streams, dice, n, size, max_draws, steps, offs, counts)


#: A cold compile of the kernel with its serial or parallel driver, measured on two cores:
#: the compile notice says it.
_COLD = "about 3 s on two cores"


def run_turns(steps: np.ndarray, n_models: int, max_actions: int, trials: int, seed: int,
              chunk: int = CHUNK, batch: int = BATCH) -> np.ndarray:
    """Run ``trials`` turns of the encoded plan; return the merged counter row.

    Slice it with :func:`~.layout.counter_offsets`. Chunk ``i`` always draws from stream
    ``(seed, i)``, whatever the batch size or thread count.
    """
    steps = np.ascontiguousarray(steps, dtype=np.int64)
    offs = counter_offsets(steps.shape[0], n_models, max_actions)
    width = int(offs[O_WIDTH])
    max_draws = max_draws_of(steps)
    total = np.zeros(width, dtype=np.int64)
    for first, k in batches(trials, chunk, batch):
        counts = np.zeros((k, width + PAD), dtype=np.int64)
        run = _run_serial if k == 1 else _run_parallel
        streams, dice, n, size = open_batch(seed, first, k, trials, chunk, max_draws)
        args = (streams, dice, n, np.int64(size), np.int64(max_draws), steps, offs, counts)
        compile_for(run, args, "the Song of Blades and Heroes kernel", _COLD)
        run(*args)
        total += counts[:, :width].sum(axis=0)
    return total

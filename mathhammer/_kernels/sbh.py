"""Song of Blades and Heroes: Monte Carlo of a whole turn (activation rolls until a turnover).

Same scheme as :mod:`.driver`: trials are split into fixed-size chunks, each chunk draws from
its own stream keyed on (seed, chunk index) (:mod:`.rng`), writes only its own counter row,
and rows are summed after the parallel loop, so a seed gives the same counts on any number of
threads. Dice are read off the pair buffer as in :mod:`.dice`: a roll of n dice reads
``(n + 1) // 2`` entries, die k being the first die of entry ``k // 2`` for even k and the
second for odd k.

The plan arrives as an int64 table, one row per step (fields ``S_*`` below); success of a
die is ``die >= threshold`` (the encoder folds Quality, bonus and the natural 1 / natural 6
settings into the threshold; 7 means no face succeeds). Counters of a chunk live in one int64
row, sections at the offsets ``offs[O_*]``:

- ``O_ACTIONS``: trials by total actions (0..max_actions);
- ``O_ACTED``: trials by number of models with at least one action (0..n_models);
- ``O_END``: trials by the step that rolled the turnover (n_steps: none);
- ``O_ORDER``: per step, trials where the Leader gave the group order;
- ``O_MODEL_ACTED``, ``O_MODEL_ACTIONS``: per model, trials where it acted, actions summed.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ._jit import jit
from .dice import die_of
from .rng import FILL_SLACK, RNG_WORDS, fill_pairs, rng_seed

# --- fields of a step row
S_KIND = 0          # STEP_SOLO or STEP_GROUP
S_LEADER_THR = 1    # group: lowest die face that succeeds for the Leader's own roll
S_LEADER_DICE = 2   # group: dice of the Leader's roll
S_LEADER_MODEL = 3  # group: the Leader's model index
S_THR = 4           # lowest die face that succeeds for the step's roll (solo model or group)
S_DICE = 5          # dice of that roll
S_FIRST = 6         # first model index the roll activates (solo: the model)
S_COUNT = 7         # models the roll activates (solo: 1)
S_NFIELDS = 8

STEP_SOLO = 0
STEP_GROUP = 1

# --- counter sections (indices into ``offs``)
O_ACTIONS = 0
O_ACTED = 1
O_END = 2
O_ORDER = 3
O_MODEL_ACTED = 4
O_MODEL_ACTIONS = 5
O_WIDTH = 6
N_OFFS = 7

#: Trials per chunk: part of what a seed means (changing it changes results, never their
#: distribution).
CHUNK = 1 << 15
#: Chunks per kernel call (bounds memory; never changes results).
BATCH = 64
#: Pairs of dice drawn at a time into a chunk's buffer.
DRAW_BLOCK = 4096
#: Padding after each chunk's counter row (one cache line of int64).
_PAD = 8


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
def _run_chunk(c, first, seed, trials, chunk, max_draws, steps, offs, counts):
    c = np.int64(c)  # prange hands a uint64 index: one type, one compiled specialisation
    rs = np.empty(RNG_WORDS, dtype=np.uint64)
    rng_seed(rs, seed, first + c)
    size = max(DRAW_BLOCK, 4 * max_draws)
    dice = np.empty(size + FILL_SLACK, dtype=np.uint8)
    n = min(chunk, trials - (first + c) * chunk)
    run_turn_trials(n, rs, dice, size, max_draws, steps, offs, counts[c])


@jit(parallel=True)
def _run_parallel(first, seed, trials, chunk, max_draws, steps, offs, counts):
    for c in prange(counts.shape[0]):
        _run_chunk(c, first, seed, trials, chunk, max_draws, steps, offs, counts)


@jit()
def _run_serial(first, seed, trials, chunk, max_draws, steps, offs, counts):
    for c in range(counts.shape[0]):
        _run_chunk(c, first, seed, trials, chunk, max_draws, steps, offs, counts)


def layout(n_steps: int, n_models: int, max_actions: int) -> np.ndarray:
    """Offsets of the counter sections (``offs[O_*]``) and the row width ``offs[O_WIDTH]``."""
    sizes = [max_actions + 1, n_models + 1, n_steps + 1, n_steps, n_models, n_models]
    offs = np.zeros(N_OFFS, dtype=np.int64)
    offs[1:] = np.cumsum(sizes)
    return offs


def max_draws_of(steps: np.ndarray) -> int:
    """Most buffer entries one trial can read: every roll of every step."""
    group = steps[:, S_KIND] == STEP_GROUP
    return int(((steps[:, S_DICE] + 1) // 2).sum() + ((steps[group, S_LEADER_DICE] + 1) // 2).sum())


def run_turns(steps: np.ndarray, n_models: int, max_actions: int, trials: int, seed: int,
              chunk: int = CHUNK, batch: int = BATCH) -> np.ndarray:
    """Run ``trials`` turns of the encoded plan; return the merged counter row.

    Slice it with :func:`layout`'s offsets. Chunk ``i`` always draws from stream ``(seed,
    i)``, whatever the batch size or thread count.
    """
    steps = np.ascontiguousarray(steps, dtype=np.int64)
    offs = layout(steps.shape[0], n_models, max_actions)
    width = int(offs[O_WIDTH])
    max_draws = max_draws_of(steps)
    total = np.zeros(width, dtype=np.int64)
    n_chunks = -(-trials // chunk)
    for first in range(0, n_chunks, batch):
        k = min(batch, n_chunks - first)
        counts = np.zeros((k, width + _PAD), dtype=np.int64)
        run = _run_serial if k == 1 else _run_parallel
        run(np.int64(first), np.int64(seed), np.int64(trials), np.int64(chunk),
            np.int64(max_draws), steps, offs, counts)
        total += counts[:, :width].sum(axis=0)
    return total

"""Chunked drivers: the trials of an encoded scenario over the chunks of
:mod:`mathhammer._core.chunks` (one random stream per chunk), counters merged after the
batch.

Chunks are independent of the thread count, each chunk writes only its own row of the
counters, and rows are summed after the batch: integer sums are exact, so the same seed gives
the same counts on 1 or 32 threads, however the chunks were shared out. A batch's chunks go
to threads that claim them as they go (:func:`mathhammer._core.threads.run_chunks`: no thread
for little work, and none waited for that a busy machine keeps off a core). Counters are
allocated per batch of chunks and folded into the totals, so memory stays flat however many
trials are asked for.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate

import numba
import numpy as np

from ..._core.chunks import BATCH, CHUNK, PAD, PLAIN_BATCH, batches, n_chunks, open_batch
from ..._core.compiling import arg_layout, compile_for, machine_code
from ..._core.jit import jit
from ..._core.threads import run_chunks
from .layout import (
    A_FLAGS,
    A_ORIGIN,
    C_DESTROYED,
    CAP_TRACK,
    C_MADE,
    C_NFIELDS,
    CE_CORROSION,
    CE_FIRE,
    E_DESTROYED,
    E_KILL,
    E_NFIELDS,
    F_ROF,
    P_BEST,
    MAX_ROWS,
    N_EFFECTS,
    ORIGIN_INITIAL,
    T_ATTACK_ROUNDS,
    T_BOXES,
    T_CAPACITY,
    T_MODELS,
    T_NLETTERS,
    T_TURNS,
    Counters,
)
from .plain import N_ROLLS, N_STATES, outcome_tables, run_plain_trials
from .many_trials import many_args, many_trials
from .single_trials import single_args, single_trials
from .spend import run_spend_trials
from .spend_tables import R_NFIELDS, spend_tables
from .variant import variant_of

#: Rows of padding after each chunk's attack counters: a cache line (false sharing between
#: threads writing neighbouring chunks costs a factor of 2).
_PAD_ROWS = -(-PAD // C_NFIELDS)


@jit()
def _row(counters, c):
    """Chunk ``c``'s row of the batch's counters (views)."""
    return Counters(counters.damage_hist[c], counters.attack_counts[c], counters.kill_at[c],
                    counters.cripple_delta[c], counters.mask_hist[c], counters.effect_counts[c],
                    counters.destroyed_hist[c], counters.target_damage[c],
                    counters.target_destroyed[c], counters.target_kills[c],
                    counters.target_made[c])


# Both kernels run a batch's chunks through :func:`mathhammer._core.threads.run_chunks`: the
# calling thread runs the first chunk, then the rest alone when it is little work, else with
# helper threads that claim ranges of chunks as they go (a thread a busy machine starves of a
# core then holds up nothing it has not claimed). The plain kernel runs a range in one jitted
# call (its chunks are short: a Python call per chunk would cost a tenth of a single-attack
# run); the general kernel is driven from Python chunk by chunk (:func:`_general_range`),
# handing on ``rare``, ``extra`` and ``lasting`` (:mod:`.variant`): ``None`` prunes their
# paths from the compiled kernel.

@jit()
def _plain_range(lo, hi, streams, dice, n, size, max_draws, stride, tables, counters):
    """The plain kernel over chunks ``lo .. hi - 1`` of the batch (opened by
    :func:`~mathhammer._core.chunks.open_batch`: each chunk's stream and trials; ``dice`` is
    unread, the plain kernel decoding its entries in registers)."""
    attacks = tables.attacks
    # the outcome tables, built for each range claimed (microseconds: a range is at least
    # a chunk) so that no two threads ever write one
    outcomes = np.empty((attacks.shape[0], N_STATES, N_ROLLS), dtype=np.uint16)
    takes = np.zeros((attacks.shape[0], N_STATES), dtype=np.int64)
    outcome_tables(attacks, tables.target, outcomes, takes)
    for c in range(lo, hi):
        run_plain_trials(n[c], streams[c], size, max_draws, stride, tables, _row(counters, c),
                         outcomes, takes)


@jit()
def _spend_range(lo, hi, streams, dice, n, size, max_draws, stride, tables, counters,
                 best_play):
    """The spending kernel (:mod:`.spend`) over chunks ``lo .. hi - 1`` of the batch, as
    :func:`_plain_range` runs the plain one (its tables built for each range claimed);
    ``best_play``: ``None`` or ``True``, see :func:`.spend.run_spend_trials`."""
    attacks = tables.attacks
    rows = attacks.shape[0]
    att_codes = np.empty((rows, N_STATES, 2, N_ROLLS), dtype=np.uint8)
    att_takes = np.zeros((rows, N_STATES, 2), dtype=np.int64)
    dmg_codes = np.empty((rows, 2, N_ROLLS), dtype=np.uint16)
    dmg_takes = np.zeros((rows, 2), dtype=np.int64)
    info = np.zeros((rows, R_NFIELDS), dtype=np.int64)
    key_base = np.zeros(N_STATES, dtype=np.int64)
    tally = np.zeros((rows, 2), dtype=np.int64)
    spend_tables(attacks, tables.attackers, tables.target, tables.play_keys, att_codes,
                 att_takes, dmg_codes, dmg_takes, info, key_base)
    for c in range(lo, hi):
        run_spend_trials(n[c], streams[c], dice[c], size, max_draws, stride, tables,
                         _row(counters, c),
                         att_codes, att_takes, dmg_codes, dmg_takes, info, key_base, tally,
                         best_play)


def _general_range(lo, hi, streams, dice, n, size, max_draws, stride, tables, counters, rare,
                   extra, lasting, code):
    """The general kernel over chunks ``lo .. hi - 1`` of the batch.

    A Python loop over jitted calls (``code``: the kernel's machine code, which releases the
    GIL, and how it takes a chunk's arguments: :data:`_KERNELS`), so the kernel is the
    outermost compiled function: a jitted function calling it would link its code into its
    own module and generate it again (jitted drivers made 6 s of a 24 s CPU cold demo)."""
    kernel, make_args = code
    for c in range(lo, hi):
        kernel(*make_args(n[c], streams[c], dice[c], size, size, max_draws, stride, tables,
                          _chunk_row(counters, c), rare, extra, lasting))


def _chunk_row(counters, c: int) -> Counters:
    """Chunk ``c``'s row of each counter (what :func:`_row` gives jitted code), in Python."""
    return Counters(*(a[c] for a in counters))


def _run_batch(fast: bool, args: tuple, code) -> int:
    """Run a batch of chunks (``args``: the chunks' streams, dice buffers and trials, the
    buffers' size, max_draws, stride, tables, counters and, for the general kernel, its
    variant) on up to Numba's thread count (``numba.get_num_threads``), ``code`` being the
    kernel's machine code (a fast path's range driver, ``_plain_range``'s or
    ``_spend_range``'s, when ``fast``; else the general kernel's and how it takes a chunk's
    arguments, :func:`_general_range`); returns the helper threads started
    (:func:`run_chunks`)."""
    k = args[7].damage_hist.shape[0]
    if fast:
        def job(lo, hi):
            code(np.int64(lo), np.int64(hi), *args)
    else:
        def job(lo, hi):
            _general_range(lo, hi, *args, code)
    if k == 1:  # one chunk runs on the calling thread (run_chunks would: no call to it)
        job(0, 1)
        return 0
    return run_chunks(job, k, numba.get_num_threads())


#: What a cold compile of each kernel (plain, spend, or a variant of the general kernel)
#: costs on two cores, by benchmarks/bench_cold.py (a quiet hour to a slow one): the notice.
_COLD = {"plain": ("the Monte Carlo kernel", "about 4-5 s on two cores"),
         "spend": ("the Monte Carlo kernel with focus and fury", "about 5-6 s on two cores"),
         "basic": ("the general Monte Carlo kernel (best play, focus, cards)",
                   "about 5 s on two cores"),
         "lean": ("the general Monte Carlo kernel with more rules (best play, focus, cards, "
                  "rerolls, effects, Tough, power fields)", "about 10 s on two cores"),
         "units": ("the general Monte Carlo kernel with units, blasts and several targets",
                   "about 14-16 s on two cores"),
         "units_basic": ("the general Monte Carlo kernel with units, blasts and several targets "
                         "(damage tracks, the core rules)", "about 10-11 s on two cores"),
         "lasting": ("the general Monte Carlo kernel with continuous effects and hazards",
                     "about 13-16 s on two cores"),
         "full": ("the general Monte Carlo kernel with units, blasts, several targets and "
                  "continuous effects", "about 17-19 s on two cores")}


#: Each variant's general kernel (one model, or units and several targets), and its arguments.
_KERNELS = {"basic": (single_trials, single_args), "lean": (single_trials, single_args),
            "lasting": (single_trials, single_args), "units_basic": (many_trials, many_args),
            "units": (many_trials, many_args), "full": (many_trials, many_args)}


#: The (kernel, tables' layout, variant) keys made ready by :func:`compile_for` in this
#: process, and the kernel's machine code for each (:func:`machine_code`): typing every
#: argument of a kernel call to look it up cost more than the call itself.
_READY: dict = {}


def run_chunk(n_trials, rs, dice, pos, size, max_draws, stride, tables, counters) -> int:
    """Run one chunk's ``n_trials`` trials with the general kernel of the scenario's variant
    (:func:`.variant.variant_of`) on the dice buffer ``dice`` from ``pos``, adding to
    ``counters`` (one chunk's :class:`.layout.Counters`); returns the read position after the
    last trial. What :func:`run_sequences` does chunk by chunk, for a caller that writes the
    dice itself (the scripted worked examples of the tests)."""
    name, variant = variant_of(tables)
    kernel, make_args = _KERNELS[name]
    return kernel(*make_args(n_trials, rs, dice, np.int64(pos), np.int64(size), np.int64(max_draws),
                             np.int64(stride), tables, counters, *variant))


@dataclass(frozen=True)
class Counts:
    """Merged counters of a run (no per-trial data)."""

    damage_hist: np.ndarray    # int64[boxes + 1] (a unit: over the damage on the whole unit)
    attack_counts: np.ndarray  # int64[n_attacks, C_NFIELDS]
    kill_at: np.ndarray        # int64[n_attacks]
    cripple_hist: np.ndarray   # int64[n_rows + 1, 2 ** n_letters]: trials with each crippled
    #                            set once each slot row is resolved, and at the end
    #                            (grids, spirals; else empty)
    mask_hist: np.ndarray      # int64[columns, 2 ** MAX_ROWS] (grids, spirals: 6 columns, a colossal 12)
    effect_counts: np.ndarray  # int64[turns, N_EFFECTS, E_NFIELDS]
    chunk_damage: np.ndarray   # int64[n_chunks, boxes + 1]: damage_hist per chunk (chunks are
    #                            independent batches: paired comparisons use them)
    destroyed_hist: np.ndarray  # int64[models + 1]: trials ending with k models destroyed
    chunk_destroyed: np.ndarray  # int64[n_chunks, models + 1]: destroyed_hist per chunk (a unit
    #                              target's; a single model: [trials - kills, kills] per chunk)
    target_damage: np.ndarray  # int64[n_targets, boxes + 1]: several targets, each one's damage
    target_destroyed: np.ndarray  # int64[n_targets, models + 1]: ... its models destroyed
    target_kills: np.ndarray   # int64[n_targets, turns]: ... destroyed in each round
    target_made: np.ndarray    # int64[n_attacks, n_targets]: ... each attack made against each


def run_sequences(enc, trials: int, seed: int, chunk: int = CHUNK, batch: int | None = None,
                  general: bool = False, stride: int = 0, on_batch=None) -> Counts:
    """Run ``trials`` sequences of the encoded scenario ``enc`` and merge the counters.

    ``stride`` > 0 aligns the random streams for common random numbers: trial j of every
    chunk starts its dice at the same place in the chunk's stream whatever the earlier
    trials read, so scenarios run with the same seed and stride (at least each one's
    ``max_draws``) see the same dice in the same trial. 0 (the default) reads the stream
    packed, which is faster when trials read few of the dice they might.

    ``on_batch(n)``, when given, is called after each batch of chunks with the number of
    trials it ran (progress bars).

    Plain scenarios (``enc.plain``) take the fast kernel of :mod:`.plain`, plain ones with
    points (``enc.spend``) that of :mod:`.spend`, unless ``general`` asks for the general kernel
    (:mod:`.single_trials`, :mod:`.many_trials`: they give identical counts; tests compare
    them)."""
    # the kernel: a fast path's range driver (``fast``) or the general kernel (None); its
    # variant (the general kernel's, .variant; the spending kernel's, whether any attacker
    # plays best); cold: the compile notice's key
    if general or not (enc.plain or enc.spend):
        fast = None
        cold, variant = variant_of(enc.tables)
    elif enc.plain:
        fast, cold, variant = _plain_range, "plain", ()
    else:
        fast, cold = _spend_range, "spend"
        variant = (True if any(a[P_BEST] for a in enc.tables.attackers.tolist()) else None,)
    if batch is None:  # the chunks of a kernel call: more of the fast kernels' short ones
        batch = PLAIN_BATCH if fast is not None else BATCH
    if stride and stride < enc.max_draws:
        raise ValueError(f"stride {stride} is below the scenario's max_draws {enc.max_draws}")
    draws = stride if stride else enc.max_draws
    n_slots = enc.n_slots  # the attacks table's first rows (alternative weapons follow)
    # the few figures read off the tables as Python numbers (NumPy's cost per call on arrays
    # this small was most of the driver's fixed cost per run)
    groups = enc.tables.groups.tolist()
    turns = groups[0][T_TURNS]
    rounds = groups[0][T_ATTACK_ROUNDS]
    n_attacks = rounds * n_slots  # counter rows: each slot of each round with attacks
    n_targets = len(groups)
    # the several-target variant of the kernel (a routes matrix: several targets, or Shred)
    # counts per target and every attack made
    multi = enc.tables.routes.ndim > 1
    # a unit: the damage on the whole unit; several targets: on all of them
    models = sum(g[T_MODELS] for g in groups)
    boxes = sum(g[T_BOXES] * g[T_MODELS] for g in groups)
    t_boxes = max(g[T_BOXES] * g[T_MODELS] for g in groups) if multi else 0
    t_models = max(g[T_MODELS] for g in groups) if multi else 0
    t_shape = (n_targets, t_boxes + 1) if multi else (1, 1)
    td_shape = (n_targets, t_models + 1) if multi else (1, 1)
    tk_shape = (n_targets, turns) if multi else (1, 1)
    tm_shape = (n_attacks, n_targets) if multi else (1, 1)
    n_letters = max(g[T_NLETTERS] for g in groups)  # the one target with a card
    on_card = any(enc.col_full.tolist())
    cripple_shape = (n_attacks + 1, 1 << n_letters) if on_card else (1, 1)
    mask_shape = (enc.col_full.size, 1 << MAX_ROWS) if on_card else (1, 1)  # 6 or 12 columns
    # what the kernel's argument types depend on: the tables' arrays and the variant (the
    # counters and numbers are laid out by this function, always alike)
    ready = (cold, arg_layout(enc.tables), variant)
    total_chunks = n_chunks(trials, chunk)
    chunk_damage = np.empty((total_chunks, boxes + 1), dtype=np.int64)
    chunk_destroyed = np.empty((total_chunks, models + 1), dtype=np.int64)
    totals = None
    for first, k in batches(trials, chunk, batch):
        # each chunk's row ends with a cache line of padding, so threads writing the rows of
        # neighbouring chunks never share a cache line (false sharing costs a factor of 2);
        # effect counters get one round more than needed for the same reason
        counters = Counters(
            damage_hist=np.zeros((k, boxes + 1 + PAD), dtype=np.int64),
            attack_counts=np.zeros((k, n_attacks + _PAD_ROWS, C_NFIELDS), dtype=np.int64),
            kill_at=np.zeros((k, n_attacks + PAD), dtype=np.int64),
            cripple_delta=np.zeros((k,) + cripple_shape, dtype=np.int64),
            mask_hist=np.zeros((k,) + mask_shape, dtype=np.int64),
            effect_counts=np.zeros((k, turns + 1, N_EFFECTS, E_NFIELDS), dtype=np.int64),
            destroyed_hist=np.zeros((k, models + 1 + PAD), dtype=np.int64),
            target_damage=np.zeros((k,) + t_shape, dtype=np.int64),
            target_destroyed=np.zeros((k,) + td_shape, dtype=np.int64),
            target_kills=np.zeros((k,) + tk_shape, dtype=np.int64),
            target_made=np.zeros((k, tm_shape[0] + _PAD_ROWS, tm_shape[1]), dtype=np.int64),
        )
        streams, dice, n, size = open_batch(seed, first, k, trials, chunk, draws)
        args = (streams, dice, n, np.int64(size), np.int64(draws), np.int64(stride), enc.tables,
                counters, *variant)
        code = _READY.get(ready)
        if code is None:  # the kernel compiled or loaded for this layout of tables
            if fast is not None:
                call = (np.int64(0), np.int64(1)) + args
                compile_for(fast, call, *_COLD[cold])
                code = _READY[ready] = machine_code(fast, call)
            else:  # the kernel itself, for one chunk or many (threads)
                kernel, make_args = _KERNELS[cold]
                call = make_args(n[0], streams[0], dice[0], args[3], args[3], args[4],
                                 args[5], enc.tables, _chunk_row(counters, 0), *variant)
                compile_for(kernel, call, *_COLD[cold])
                code = _READY[ready] = (machine_code(kernel, call), make_args)
        _run_batch(fast is not None, args, code)
        chunk_damage[first:first + k] = counters.damage_hist[:, : boxes + 1]
        chunk_destroyed[first:first + k] = counters.destroyed_hist[:, : models + 1]
        # the chunks' rows summed (one chunk: its row), without the padding
        rows = (counters.damage_hist[:, : boxes + 1], counters.attack_counts[:, :n_attacks],
                counters.kill_at[:, :n_attacks], counters.cripple_delta, counters.mask_hist,
                counters.effect_counts[:, :turns], counters.destroyed_hist[:, : models + 1],
                counters.target_damage, counters.target_destroyed, counters.target_kills,
                counters.target_made[:, : tm_shape[0]])
        sums = [r[0] for r in rows] if k == 1 else [r.sum(axis=0) for r in rows]
        totals = sums if totals is None else [t + s for t, s in zip(totals, sums)]
        if on_batch is not None:
            on_batch(min(trials, (first + k) * chunk) - first * chunk)
    (damage_total, attack_total, kill_total, cripple_total, mask_total, effect_total,
     destroyed_total, target_damage, target_destroyed, target_kills, target_made) = totals
    # the kernels count the models destroyed but the last (the kill): add it
    attack_total[:, C_DESTROYED] += kill_total
    if fast is None:  # the fast kernels have no continuous effects: their counts stay 0
        effect_total[:, :, E_DESTROYED] += effect_total[:, :, E_KILL]
        maintenance = (effect_total[:, CE_FIRE, E_KILL]
                       + effect_total[:, CE_CORROSION, E_KILL]).tolist()
    else:
        maintenance = [0] * turns
    # Python numbers: NumPy's cost per call on a few rows was most of the work
    kills = kill_total.tolist()
    if models == 1:  # a single model (the plain kernel keeps no such counter)
        killed = sum(kills) + sum(maintenance)
        destroyed_total[:] = (trials - killed, killed)
        last = chunk_damage[:, -1]
        chunk_destroyed[:, 1] = last
        chunk_destroyed[:, 0] = chunk_damage.sum(axis=1) - last
    if not multi:  # the several-target variant counts every attack made
        made = made_counts(kills, trials, maintenance, n_slots)
        counted = attack_total[:, C_MADE].tolist()
        attack_total[:, C_MADE] = [m if derived else c for m, c, derived in
                                   zip(made, counted, derived_rows(enc.attacks, n_slots, rounds))]
    if on_card:  # every trial starts with nothing crippled; slots change that (every model's
        # of a unit of models with a card)
        cards = [g for g in groups if g[T_CAPACITY] != CAP_TRACK]
        cripple_total[0, 0] += trials * cards[0][T_MODELS]
        cripple_total = np.cumsum(cripple_total, axis=0)
    return Counts(damage_total, attack_total, kill_total, cripple_total, mask_total,
                  effect_total, chunk_damage, destroyed_total, chunk_destroyed, target_damage,
                  target_destroyed, target_kills, target_made)


def derived_rows(attacks: np.ndarray, n_slots: int, rounds: int) -> list[bool]:
    """Counter rows (each slot of each round) whose attacks made :func:`made_counts` derives
    from the kills: the initial attacks, but a random rate of fire's (the kernel counts those,
    as it counts bought ones). A Shred attack counts in ``C_SHRED``, not here. Python
    numbers, as in :func:`made_counts`."""
    origins, flags = attacks[:n_slots, A_ORIGIN].tolist(), attacks[:n_slots, A_FLAGS].tolist()
    return [o == ORIGIN_INITIAL and not f & F_ROF for o, f in zip(origins, flags)] * rounds


def made_counts(kill_at, trials: int, maintenance=None, n_slots: int = 0) -> list[int]:
    """How often each initial attack was made: in every trial but those an earlier attack
    ended (bought attacks, made only while points remain, are counted by the kernel).

    With several rounds, ``kill_at`` has ``n_slots`` rows per round and ``maintenance[t]``
    the kills of round t's maintenance phase, which come before the next round's attacks.

    ``kill_at`` and ``maintenance``: sequences of counts (Python numbers: NumPy's cost per
    call on a few rows was most of the work).

    >>> made_counts([0, 3, 2], 10)
    [10, 10, 7]
    >>> made_counts([1, 0, 2, 0], 10, [3, 0], 2)
    [10, 9, 6, 4]
    """
    by_round = maintenance is not None and n_slots
    # the maintenance kills before each round
    earlier = [0, *accumulate(maintenance)] if by_round else [0]
    made, before = [], 0
    for i, k in enumerate(kill_at):
        made.append(trials - before - (earlier[i // n_slots] if by_round else 0))
        before += int(k)
    return made

"""Trials of one chunk against one model (the basic, lean and lasting variants of
:mod:`.variant`), built from the steps of :mod:`.attack_steps`, :mod:`.extra_steps`,
:mod:`.suffering`, :mod:`.defences` and :mod:`.round_end` over the state arrays of
:mod:`.model_state`.

The trial loop reads no figure of the state itself: each step reads and writes the rows it
is given, so the same steps serve a unit's models and several targets (:mod:`.many_trials`)
and, later, a model that is both an attacker and a target. ``extra`` and ``lasting`` (None
or True) are known when compiling: with None, the loop compiles without the steps of the
rules beyond the core of an attack (the basic variant), or without the round's end (no
continuous effect or hazard).
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from .attack_steps import (V_FIELDS, V_POINTS, V_SHOTS, after_hit, attack_roll, damage_roll, decision,
                           knocks_and_still, pay_for_attack, start_activation)
from .dice import trial_dice
from .extra_steps import (after_damage_roll, effect_lands, hit_at_once, rate_of_fire)
from .layout import (A_ATTACKER, A_FLAGS, A_ORIGIN, C_CRIT, C_HIT, C_MADE, C_SPENT, CAP_GRID,
                     CAP_TRACK, CRIT, F_AFTER_ROLL, F_AT_ONCE, F_FIRST, F_GUARDABLE, F_KD_STOPS_TOUGH,
                     F_ROF, HZ_EARTH, HZ_QUICKSAND, MISS, ORIGIN_BOUGHT, PF_BEST,
                     ST_MOVE_CRIPPLED, ST_PRONE, ST_SUSTAINED, T_ATTACK_ROUNDS, T_BOXES, T_CAPACITY, T_EFFECTS,
                     T_GUARD_BLOCKS, T_HAZARDS, T_NLETTERS, T_POINTS, T_POWER_POLICY, T_SHIELD_ARM, T_SLOTS,
                     T_STATE, T_TURNS)
from .defences import guard_blocks
from .model_state import (G_BLOCKS, G_CORTEX_LOST, G_EARTH, G_POINTS, M_ARM_MINUS, M_CONT, M_DEF_MINUS,
                          M_EFFECTS, M_MARKED, M_SHIELD, M_STATE, clear, new_models, new_targets)
from .play_lookup import field_key, key_is_points, target_digit
from .round_end import (can_last, continuous_effects, effects_of_hit, end_of_turn, flames, hazards_give,
                        quicksand)
from .suffering import SRC_ATTACK, letters_present, suffer, suffer_points
from .variant import basic_gate

__all__ = ["single_trials", "single_args"]


def single_args(n_trials, rs, dice, pos, size, max_draws, stride, tables, counters, rare=None,
                extra=None, lasting=None):
    """The arguments of :func:`single_trials` for a chunk (``rare`` is None for one model and
    one target): its state arrays made here (a NumPy allocation compiled into the kernel
    costs every first run time), and ``basic`` (:func:`.variant.basic_gate`)."""
    boxes = max(1, int(tables.target[T_BOXES]))
    return (n_trials, rs, dice, pos, size, max_draws, stride, tables, counters,
            np.zeros(tables.col_full.shape[0], dtype=np.int64), np.zeros(boxes, dtype=np.int64),
            new_models(1), new_targets(1),
            np.zeros(V_FIELDS, dtype=np.int64), extra, basic_gate(extra), lasting)


@jit(nrt=False)
def single_trials(n_trials, rs, dice, pos, size, max_draws, stride, tables, counters, colmask,
                  order, models, targets, act, extra, basic, lasting):
    """Simulate ``n_trials`` attack sequences and add their outcomes to ``counters``
    (:class:`.layout.Counters`).

    ``rs``: the chunk's random stream, refilling ``dice``, its buffer of pairs of dice read
    from ``pos`` (refilled before a trial with fewer than ``max_draws`` entries left, so a
    buffer a test writes is read as written). ``stride`` > 0 starts each trial ``stride``
    entries after the last one started, whatever it read (common random numbers: two
    scenarios run with the same seed and stride see the same dice in the same trial).
    ``tables``: :class:`.layout.Tables`. ``colmask``, ``order``: a
    card's marked boxes per column and the order they were marked in; ``models``,
    ``targets``, ``act``: the state arrays; ``extra``: None (the basic variant) or True;
    ``basic``: True where ``extra`` is None, else None (:func:`.variant.basic_gate`);
    ``lasting``: None, or True (the lasting variant: continuous effects and hazards). Returns
    the read position after the last trial.

    The loops over trials, rounds and attacks call the steps in order; the tables and
    counters are unpacked here once, and each step is handed the few arrays it reads.
    """
    attacks, attackers, target = tables.attacks, tables.attackers, tables.target
    play_keys, play_attack = tables.play_keys, tables.play_attack
    play_columns, play_index = tables.play_columns, tables.play_index
    attack_counts, kill_at, cripple_delta = counters.attack_counts, counters.kill_at, counters.cripple_delta
    counts = (attack_counts, kill_at, cripple_delta, counters.effect_counts)
    card = (tables.col_full, tables.letters_done, tables.letter_mask)
    play = (play_keys, play_columns, play_index, tables.play_field)
    on_card = target[T_CAPACITY] != CAP_TRACK
    boxes, n_attacks = target[T_BOXES], target[T_SLOTS]
    n_rows = target[T_ATTACK_ROUNDS] * n_attacks
    present = letters_present(tables.letter_mask, target[T_NLETTERS])
    points_only = key_is_points(play_keys)
    field_best = target[T_POWER_POLICY] == PF_BEST
    continuous = can_last(attacks, tables.groups, target)  # else no maintenance phase to resolve
    quick_ground = (target[T_HAZARDS] & HZ_QUICKSAND) != 0
    ms, ts = models[0], targets[0]
    start = pos
    for _ in range(n_trials):
        pos, start = trial_dice(rs, dice, pos, start, size, max_draws, stride)
        start_trial(ms, ts, act, target, colmask, on_card)
        destroyed = False
        for t in range(target[T_TURNS]):
            new_round(ms, ts, target)
            for i in range(n_attacks if t < target[T_ATTACK_ROUNDS] else 0):
                # --- attack slot i of round t (docs/activation.md, "One attack, step by step")
                row = t * n_attacks + i
                flags = attacks[i, A_FLAGS]
                if flags & F_FIRST:
                    start_activation(act, attackers, attacks[i, A_ATTACKER])
                    ms[M_STATE] &= ~ST_SUSTAINED  # a new activation
                shots = np.int64(0)
                if extra is not None and (flags & F_ROF) != 0:
                    made, act[V_SHOTS], pos = rate_of_fire(dice, pos, attacks, i, act[V_SHOTS])
                    if not made:
                        continue
                    attack_counts[row, C_MADE] += 1
                    shots = act[V_SHOTS]
                dec, key, m = decision(play_keys, play_columns, play_index, play_attack, act, ms, ts,
                                       colmask, row, points_only, 0, shots)
                w, prow, spent = i, row, np.int64(0)
                if attacks[i, A_ORIGIN] == ORIGIN_BOUGHT:
                    made, w, prow, dec, spent = pay_for_attack(
                        attacks, play_attack, act, i, row, row, dec, key, m, t, n_rows,
                        attacks.shape[0] - n_attacks, n_attacks, attack_counts)
                    if not made:
                        continue
                outcome, pos, paid = attack_roll(attacks, act, ms, dice, pos, w, row, dec, attack_counts,
                                                 extra)
                hit, crit = np.int64(outcome != MISS), np.int64(outcome == CRIT)
                attack_counts[row, C_HIT] += hit
                attack_counts[row, C_CRIT] += crit
                flags = attacks[w, A_FLAGS]
                if (extra is not None and hit == 1 and ts[G_BLOCKS] > 0 and (flags & F_GUARDABLE) != 0
                        and guard_blocks(target, ts, ms, play, colmask, points_only, act[V_POINTS] + spent + paid,
                                         shots, prow, paid, crit)):
                    hit, crit, outcome = np.int64(0), np.int64(0), np.int64(MISS)  # blocked: a hit, no more
                if extra is not None and (flags & F_AT_ONCE) != 0 and hit == 1:
                    hit_at_once(ms, flags, crit)
                points, pos, boost = damage_roll(attacks, act, ms, dice, pos, w, row, dec, hit, crit,
                                                 boxes, attack_counts, extra)
                if extra is not None and (flags & F_AFTER_ROLL) != 0 and hit == 1:
                    after_damage_roll(attacks, w, ms, flags, crit, outcome)
                spent += paid + boost
                if spent:  # points paid for the attack: buying it and its boosts
                    attack_counts[row, C_SPENT] += spent
                if extra is None:  # the basic variant: what follows is compiled out
                    if basic is not None:  # the others: this is compiled out
                        pos, destroyed = suffer_points((card[0], card[1]), counts[:3], target, ms, ts, colmask,
                                                       dice, pos, points, row, boxes, on_card, present,
                                                       target[T_CAPACITY] == CAP_GRID, target[T_SHIELD_ARM])
                        if destroyed:
                            break
                        after_hit(attacks, w, ms, hit, crit)
                    continue
                knocks, still = knocks_and_still(flags, hit, crit)
                fkey = np.int64(0)
                if field_best and ts[G_POINTS] > 0 and points > 0:
                    fkey = field_key(play_keys, points_only, act[V_POINTS], target_digit(play_keys, ts),
                                     ts[G_CORTEX_LOST] != 0, ts[G_EARTH] != 0, ms[M_STATE], ms[M_EFFECTS],
                                     ms[M_CONT], attacks, w, flags, hit, crit, outcome, knocks, still, shots)
                pos, destroyed = suffer(target, card, counts, play, ms, ts, colmask, order, dice, pos, attacks,
                                        w, points, row, t, SRC_ATTACK, fkey, prow,
                                        (flags & F_KD_STOPS_TOUGH) != 0 and knocks == 1, present)
                if destroyed:
                    break
                quick = False
                if lasting is not None and continuous:
                    effects_of_hit(ms, flags, hit, crit)
                    quick = quick_ground and knocks == 1 and (ms[M_STATE] & ST_PRONE) == 0
                after_hit(attacks, w, ms, hit, crit)
                effect_lands(attacks, w, ms, outcome)
                if lasting is not None and quick:
                    pos, destroyed = quicksand(target, card, counts, play, ms, ts, colmask, order, dice, pos,
                                               attacks, row, t, prow, points_only, field_best, act[V_POINTS],
                                               shots, present, np.int64(0), np.int64(0), np.bool_(True))
                    if destroyed:
                        break
            if destroyed:
                break
            if lasting is not None and continuous:  # the round's end: maintenance, the target's activation
                next_row = (t + 1) * n_attacks if t + 1 < target[T_ATTACK_ROUNDS] else n_rows
                pos = flames(ts, dice, pos)
                pos, destroyed = continuous_effects(target, card, counts, play, ms, ts, colmask, order, dice,
                                                    pos, attacks, next_row, t, points_only, field_best, present,
                                                    np.int64(0), np.bool_(True))
                if destroyed:
                    break
                gives, pos = hazards_give(target, ts, dice, pos)
                end_of_turn(ms, gives, counters.effect_counts, t)
        end_trial(counters.damage_hist, counters.mask_hist, ms, colmask, on_card)
    return pos


@jit(inline=True)
def start_trial(ms, ts, act, target, colmask, on_card):
    """The model, its target and the attacker as a trial starts: nothing marked, the
    target's starting situation, Shield ARM and continuous effects."""
    clear(ms)
    ms[M_STATE] = target[T_STATE]
    ms[M_SHIELD] = target[T_SHIELD_ARM]
    ms[M_CONT] = target[T_EFFECTS]
    clear(ts)
    ts[G_EARTH] = (target[T_HAZARDS] & HZ_EARTH) != 0
    ts[G_BLOCKS] = target[T_GUARD_BLOCKS]
    clear(act)
    if on_card:
        clear(colmask)


@jit(inline=True)
def new_round(ms, ts, target):
    """A new round: the target stood up, its upkeep spells are back, -DEF / -ARM effects
    have ended; it has its focus or fury again unless its Cortex was crippled."""
    ms[M_STATE] = target[T_STATE] | (ms[M_STATE] & ST_MOVE_CRIPPLED)
    ms[M_EFFECTS] = 0
    ms[M_DEF_MINUS] = 0
    ms[M_ARM_MINUS] = 0
    ts[G_POINTS] = 0 if ts[G_CORTEX_LOST] else target[T_POINTS]


@jit(inline=True)
def end_trial(damage_hist, mask_hist, ms, colmask, on_card):
    """Count the trial's end: the damage marked and, on a card, each column's marked boxes."""
    damage_hist[ms[M_MARKED]] += 1
    if on_card:
        for c in range(colmask.shape[0]):
            mask_hist[c, colmask[c]] += 1

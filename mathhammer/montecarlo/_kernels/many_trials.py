"""Trials of one chunk against a unit or several targets (the units_basic, units and full
variants of :mod:`.variant`), built from the steps :mod:`.single_trials` takes, over a row per
model and a row per target (:mod:`.model_state`) and where the trial stands
(:mod:`.spill_over`).

Each attack is :func:`.unit_attacks.open_attack`, then :func:`.unit_attacks.attack_rolls` and
:func:`.unit_attacks.attack_lands` (the units_basic variant:
:func:`.unit_attacks.one_basic_attack`). The
maintenance phase and the target's activation visit every model standing, target by target.
The sequence goes on until every target is destroyed.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from ..._core.limits import MAX_SHRED
from .attack_steps import V_FIELDS
from .dice import trial_dice
from .layout import (CAP_TRACK, HZ_EARTH, PF_BEST, ST_DISPELLED, ST_MOVE_CRIPPLED, T_ATTACK_ROUNDS,
                     T_BOXES, T_CAPACITY, T_EFFECTS, T_FIRST_MODEL, T_HAZARDS, T_MODELS, T_NLETTERS, T_POINTS,
                     T_POWER_POLICY, T_SHIELD_ARM, T_SLOTS, T_STATE, T_TURNS)
from .model_state import (G_CORTEX_LOST, G_DEAD, G_DESTROYED, G_DISPELLED, G_EARTH, G_POINTS, M_ARM_MINUS,
                          M_CONT, M_DEF_MINUS, M_EFFECTS, M_GONE, M_MARKED, M_SHIELD, M_STATE, clear,
                          new_models, new_targets)
from .play_lookup import key_is_points
from .round_end import can_last, continuous_effects, end_of_turn, flames, hazards_give
from .spill_over import ENDS, GOES_ON, KILL, R_ALIVE, R_CUR, R_FIELDS, R_G, enter, first_standing, target_falls
from .suffering import letters_present
from .unit_attacks import attack_lands, attack_rolls, one_basic_attack, open_attack, open_attack_inline
from .variant import basic_gate

__all__ = ["many_trials", "many_args"]


def many_args(n_trials, rs, dice, pos, size, max_draws, stride, tables, counters, rare=True, extra=True,
              lasting=True):
    """The arguments of :func:`many_trials` for a chunk (those :func:`.single_trials.single_args`
    takes; ``rare`` is always set here): its state arrays made here, and ``basic``
    (:func:`.variant.basic_gate`)."""
    groups = tables.groups
    models = int(groups[:, T_MODELS].sum())
    boxes = max(1, int(groups[:, T_BOXES].max()))
    return (n_trials, rs, dice, pos, size, max_draws, stride, tables, counters, new_models(models),
            new_targets(groups.shape[0]), np.zeros((models, tables.col_full.shape[0]), dtype=np.int64),
            np.zeros((models, boxes), dtype=np.int64), np.zeros(V_FIELDS, dtype=np.int64),
            np.zeros(R_FIELDS, dtype=np.int64), extra, basic_gate(extra), lasting)


@jit(nrt=False)
def many_trials(n_trials, rs, dice, pos, size, max_draws, stride, tables, counters, models, targets, cols,
                orders, act, run, extra, basic, lasting):
    """Simulate ``n_trials`` attack sequences against a unit or several targets and add their
    outcomes to ``counters`` (as :func:`.single_trials.single_trials` does); ``models``,
    ``targets``, ``cols``, ``orders``: a row per model and per target (a card's marked boxes
    per column and their order, a row per model); ``act``, ``run``: the acting attacker and
    where the trial stands; ``extra``: None (the units_basic variant: a unit model's attack
    is :func:`.unit_attacks.one_basic_attack`) or True; ``basic``: True where ``extra`` is
    None, else None (:func:`.variant.basic_gate`); ``lasting``: None, or True (continuous
    effects and hazards).
    Returns the read position after the last trial."""
    groups, target = tables.groups, tables.target
    n_targets, n_attacks = groups.shape[0], target[T_SLOTS]
    n_rows = target[T_ATTACK_ROUNDS] * n_attacks
    present = np.int64(0)
    for g in range(n_targets):  # at most one target has a card: the tables are its
        if groups[g, T_CAPACITY] != CAP_TRACK:
            present = letters_present(tables.letter_mask, groups[g, T_NLETTERS])
    points_only = key_is_points(tables.play_keys)
    continuous = can_last(tables.attacks, groups, target)
    block = tables.attacks.shape[0] // n_targets  # the attacks table's rows per target
    start = pos
    for _ in range(n_trials):
        pos, start = trial_dice(rs, dice, pos, start, size, max_draws, stride)
        start_trial(models, targets, cols, groups, act, run, target[T_HAZARDS])
        kill = False
        for t in range(target[T_TURNS]):
            new_round(models, targets, groups)
            for i in range(n_attacks if t < target[T_ATTACK_ROUNDS] else 0):
                # attack slot i, then the Shred attacks its critical hits owe (several targets
                # only: the encoder sends Shred there)
                again = True
                for shred in range(MAX_SHRED + 1 if tables.routes.ndim > 1 else 1):
                    if not again:
                        break
                    # the units_basic variant's steps (basic) or the others' (extra): each
                    # compiled out of the other variants
                    made, w = False, np.int64(i)
                    if basic is not None:
                        made, pos, w = open_attack_inline(
                            tables.attacks, tables.attackers, target, groups, tables.routes, counters.attack_counts,
                            counters.target_made, models, targets, act, run, dice, pos, i, t, shred, block, None)
                    if extra is not None:
                        made, pos, w = open_attack(
                            tables.attacks, tables.attackers, target, groups, tables.routes, counters.attack_counts,
                            counters.target_made, models, targets, act, run, dice, pos, i, t, shred, block, True)
                    if not made:
                        break
                    status, again = GOES_ON, False
                    if basic is not None:
                        pos, status, again = one_basic_attack(tables, counters, models, targets, cols, orders, act,
                                                              run, dice, pos, i, t, w, shred, block, present,
                                                              points_only)
                    if extra is not None:
                        made, pos, w, outcome, points, again = attack_rolls(
                            tables, counters, models, targets, cols, act, run, dice, pos, i, t, w, shred, block,
                            points_only)
                        status = ENDS
                        if made:
                            pos, status = attack_lands(tables, counters, models, targets, cols, orders, act, run,
                                                       dice, pos, i, t, w, shred, present, points_only, continuous,
                                                       lasting, outcome, points, again)
                    kill = status == KILL
                    if kill:
                        break
                if kill:
                    break
            if kill:
                break
            if lasting is not None and continuous:
                next_row = (t + 1) * n_attacks if t + 1 < target[T_ATTACK_ROUNDS] else n_rows
                pos, kill = round_end(tables, counters, models, targets, cols, orders, run, dice, pos, t,
                                      next_row, points_only, present)
                if kill:
                    break
        if basic is not None:
            end_trial_inline(groups, tables.col_full, tables.routes, counters.damage_hist, counters.destroyed_hist,
                             counters.mask_hist, counters.target_damage, counters.target_destroyed, models, targets,
                             cols)
        if extra is not None:
            end_trial(groups, tables.col_full, tables.routes, counters.damage_hist, counters.destroyed_hist,
                      counters.mask_hist, counters.target_damage, counters.target_destroyed, models, targets, cols)
    return pos


@jit(inline=True)
def start_trial(models, targets, cols, groups, act, run, hazards):
    """Every model and target as the trial starts: nothing marked, each target's starting
    situation, Shield ARM and continuous effects; the first target's first model under
    attack."""
    clear(act)
    clear(run)
    run[R_ALIVE] = groups.shape[0]
    for g in range(groups.shape[0]):
        clear(targets[g])
        targets[g, G_EARTH] = (hazards & HZ_EARTH) != 0
        lo = groups[g, T_FIRST_MODEL]
        for j in range(lo, lo + groups[g, T_MODELS]):
            clear(models[j])
            models[j, M_STATE] = groups[g, T_STATE]
            models[j, M_SHIELD] = groups[g, T_SHIELD_ARM]
            models[j, M_CONT] = groups[g, T_EFFECTS]
            if groups[g, T_CAPACITY] != CAP_TRACK:
                clear(cols[j])


@jit(inline=True)
def new_round(models, targets, groups):
    """A new round for every target: its models stood up, their upkeep spells back, their
    -DEF / -ARM effects ended; its focus or fury back unless its Cortex was crippled."""
    for g in range(groups.shape[0]):
        targets[g, G_POINTS] = 0 if targets[g, G_CORTEX_LOST] else groups[g, T_POINTS]
        targets[g, G_DISPELLED] = 0
        lo = groups[g, T_FIRST_MODEL]
        for j in range(lo, lo + groups[g, T_MODELS]):
            models[j, M_STATE] = groups[g, T_STATE] | (models[j, M_STATE] & ST_MOVE_CRIPPLED)
            models[j, M_EFFECTS] = 0
            models[j, M_DEF_MINUS] = 0
            models[j, M_ARM_MINUS] = 0


@jit(inline=True)
def share_earth(targets):
    """One burning earth under every target: each takes the first target's (lit or not)."""
    for g in range(1, targets.shape[0]):
        targets[g, G_EARTH] = targets[0, G_EARTH]


@jit(nrt=False, helper=True)
def round_end(tables, counters, models, targets, cols, orders, run, dice, pos, t, row, points_only,
              present):
    """The end of round ``t`` (docs/activation.md, "A round, in order"): the burning earth's
    flames, the maintenance phase of every model standing, target by target (``row``: the
    counter row a crippled set changed here counts at), then the targets' activation in
    their hazards. Returns ``(pos, kill)``."""
    groups, multi = tables.groups, tables.routes.ndim > 1
    card = (tables.col_full, tables.letters_done, tables.letter_mask)
    counts = (counters.attack_counts, counters.kill_at, counters.cripple_delta, counters.effect_counts)
    play = (tables.play_keys, tables.play_columns, tables.play_index, tables.play_field)
    pos = flames(targets[0], dice, pos)
    share_earth(targets)
    if multi and run[R_G] >= 0:  # the target left keeps its Dispel
        targets[run[R_G], G_DISPELLED] |= models[run[R_CUR], M_STATE] & ST_DISPELLED
    for g in range(targets.shape[0] if multi else 1):
        ts, tg = targets[g], groups[g]
        if ts[G_DEAD] != 0:
            continue
        if multi:
            run[R_G] = g
            run[R_CUR] = first_standing(models, tg)
            models[run[R_CUR], M_STATE] |= ts[G_DISPELLED]
        before, dead = run[R_CUR], False
        for j in range(run[R_CUR], tg[T_FIRST_MODEL] + tg[T_MODELS]):
            if models[j, M_GONE] != 0:
                continue
            enter(models, ts, before, j)
            before = j
            pos, dead = continuous_effects(tg, card, counts, play, models[j], ts, cols[j], orders[j], dice, pos,
                                           tables.attacks, row, t, points_only, tg[T_POWER_POLICY] == PF_BEST,
                                           present, tg[T_FIRST_MODEL] + ts[G_DESTROYED],
                                           ts[G_DESTROYED] + 1 >= tg[T_MODELS] and run[R_ALIVE] == 1)
            if dead:
                ts[G_DESTROYED] += 1
                models[j, M_GONE] = 1
                dead = ts[G_DESTROYED] >= tg[T_MODELS]
                if dead:
                    break
        ts[G_DISPELLED] |= models[before, M_STATE] & ST_DISPELLED
        if dead and target_falls(targets, run, counters.target_kills, t, multi) == KILL:
            return pos, True
    if multi:
        run[R_G] = -1  # every target waits: the next attack's route picks one
    gives, pos = hazards_give(tables.target, targets[0], dice, pos)
    share_earth(targets)
    for j in range(models.shape[0]):
        if models[j, M_GONE] == 0:
            end_of_turn(models[j], gives, counters.effect_counts, t)
    if not multi:
        run[R_CUR] = first_standing(models, groups[0])
        models[run[R_CUR], M_STATE] |= targets[0, G_DISPELLED]
    return pos, False


@jit(nrt=False, helper=True)
def end_trial(groups, col_full, routes, damage_hist, destroyed_hist, mask_hist, target_damage, target_destroyed,
              models, targets, cols):
    """Count the trial's end: the damage on every target (a destroyed model counts all its
    boxes) and the models destroyed, each target's with several; on a card, each column's
    marked boxes of every model with one (a destroyed one's all)."""
    multi = routes.ndim > 1
    total, down = 0, 0
    for g in range(groups.shape[0]):
        lo, n = groups[g, T_FIRST_MODEL], groups[g, T_MODELS]
        dd = targets[g, G_DESTROYED]
        damage = dd * groups[g, T_BOXES]
        j, standing = lo, n - dd  # the models standing' damage: a loop ended by them, not
        while standing > 0:       # by the rows (a loop over the rows ran as vector gathers)
            if models[j, M_GONE] == 0:
                damage += models[j, M_MARKED]
                standing -= 1
            j += 1
        if multi:
            target_damage[g, damage] += 1
            target_destroyed[g, dd] += 1
        total += damage
        down += dd
        if groups[g, T_CAPACITY] != CAP_TRACK:
            for j in range(lo, lo + n):
                for c in range(col_full.shape[0]):
                    mask = col_full[c] if models[j, M_GONE] != 0 else cols[j, c]
                    mask_hist[c, mask] += 1
    damage_hist[total] += 1
    if multi or models.shape[0] > 1:
        destroyed_hist[down] += 1


#: :func:`end_trial` inlined, for the units_basic variant's trials (one call fewer a trial).
end_trial_inline = jit(inline=True)(end_trial.py_func)

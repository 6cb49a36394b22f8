"""The end of a round for one model (docs/activation.md, "A round, in order"; docs/rules.md 4):
the burning earth's flames, the maintenance phase (each continuous effect on the model, fire
then corrosion: a d6 of 1-2 ends it, else it deals its points), then the target's activation
in its hazards (an acid bath gives corrosion, a lit burning earth fire), and a knockdown in
quicksand during the attacks (1 damage point at once).
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from ..._core.pairs import PAIR_SUM, die_of
from .dice import at_least
from .layout import (A_FLAGS, CE_CORROSION, CE_FIRE, CE_QUICKSAND, E_AFTER, E_APPLIED, E_PRESENT, F_CORROSION,
                     F_CRIT_CORROSION, F_CRIT_FIRE, F_FIRE, FIRE_POW, HZ_ACID, K_ROWS, ST_DISPELLED,
                     ST_PRONE, T_ARM_BASE, T_EFFECTS, T_HAZARDS, T_SUFFERS, T_UPKEEP_ARM)
from .model_state import G_CORTEX_LOST, G_EARTH, G_POINTS, M_ARM_MINUS, M_CONT, M_EFFECTS, M_SHIELD, M_STATE
from .play_lookup import FIELD_FIRE, FIELD_QUICKSAND, field_row, play_key, target_digit
from .suffering import suffer
from .variant import SETS_EFFECT

__all__ = ["can_last", "suffer_apart", "effects_of_hit", "quicksand", "flames", "continuous_effects", "hazards_give",
           "end_of_turn"]


@jit(inline=True)
def can_last(attacks, groups, target):
    """Whether a continuous effect or hazard can happen: a target starts with one or stands
    in one, or an attack puts one on (else no maintenance phase is resolved)."""
    for j in range(attacks.shape[0]):
        if (attacks[j, A_FLAGS] & SETS_EFFECT) != 0:
            return True
    for g in range(groups.shape[0]):
        if groups[g, T_EFFECTS] != 0:
            return True
    return target[T_HAZARDS] != 0


@jit(nrt=False, helper=True)
def suffer_apart(target, card, counts, play, ms, ts, colmask, order, dice, pos, attacks, w, points,
                 row, t, source, fkey, frow, felled, present, last):
    """:func:`.suffering.suffer`, compiled apart and called (not inlined) by the rare paths
    below: the trial loop then holds one copy of it, the attack's (a copy inlined at each of
    the three places cost the lasting variant's first run 27 s). Its callers hand it
    ``int64`` and ``bool`` values, never constants: Numba compiles a function again for each
    constant it is handed (its literal type), and a second copy cost a first run 1.6 s."""
    return suffer(target, card, counts, play, ms, ts, colmask, order, dice, pos, attacks, w, points,
                  row, t, source, fkey, frow, felled, present, last)


@jit(inline=True)
def effects_of_hit(ms, flags, hit, crit):
    """The continuous effects a hit puts on the model (fire, corrosion; on a critical hit
    with the critical rules)."""
    if hit == 1:
        if (flags & F_FIRE) != 0 or (crit == 1 and (flags & F_CRIT_FIRE) != 0):
            ms[M_CONT] |= 1 << CE_FIRE
        if (flags & F_CORROSION) != 0 or (crit == 1 and (flags & F_CRIT_CORROSION) != 0):
            ms[M_CONT] |= 1 << CE_CORROSION


@jit(inline=True)
def quicksand(target, card, counts, play, ms, ts, colmask, order, dice, pos, attacks, row, t, prow,
              points_only, field_best, points, shots, present, destroyed, shred, last):
    """Knocked down in quicksand: 1 damage point, suffered at once (its power field decided
    in the state after the knockdown, at best play's quicksand row of the attack;
    ``destroyed``, ``shred``: as :func:`.play_lookup.play_key` takes them; ``last``: as
    :func:`.suffering.suffer` does). Returns ``(pos, destroyed)``."""
    fkey = np.int64(0)
    if field_best and ts[G_POINTS] > 0:
        fkey = play_key(play[0], points_only, points, target_digit(play[0], ts), ms[M_STATE], ms[M_EFFECTS],
                        ms[M_CONT],
                        ts[G_EARTH] != 0, ts[G_CORTEX_LOST] != 0, (ms[M_STATE] & ST_PRONE) != 0, destroyed,
                        shots, shred)
    return suffer_apart(target, card, counts, play, ms, ts, colmask, order, dice, pos, attacks,
                        np.int64(-1), np.int64(1), row, t, np.int64(CE_QUICKSAND), fkey,
                        field_row(play[0][K_ROWS], FIELD_QUICKSAND, prow, 1), np.bool_(False), present, last)


@jit(inline=True)
def flames(ts, dice, pos):
    """The end of the attackers' turn: a lit burning earth's flames go out on a d6 of 1-2.
    Returns ``pos``."""
    if ts[G_EARTH]:
        ts[G_EARTH] = die_of(np.int64(dice[pos]), 0) > 2
        pos += 1
    return pos


@jit(inline=True)
def continuous_effects(target, card, counts, play, ms, ts, colmask, order, dice, pos, attacks, row, t,
                       points_only, field_best, present, destroyed, last):
    """The maintenance phase of round ``t`` for one model (``row``: the counter row a
    crippled set changed here counts at, the next round's first): each continuous effect on
    it in turn, fire then corrosion; ``destroyed``, ``last``: as :func:`quicksand` takes
    them. Returns ``(pos, destroyed)``."""
    effect_counts = counts[3]
    for k in range(2):
        if ((ms[M_CONT] >> k) & 1) == 0:
            continue
        effect_counts[t, k, E_PRESENT] += 1
        expires = die_of(np.int64(dice[pos]), 0) <= 2
        pos += 1
        if expires:
            ms[M_CONT] &= ~(1 << k)
            continue
        effect_counts[t, k, E_APPLIED] += 1
        points = np.int64(1)
        if k == CE_FIRE:
            arm = target[T_ARM_BASE] + ms[M_SHIELD] - ms[M_ARM_MINUS]
            if (ms[M_STATE] & ST_DISPELLED) == 0:
                arm += target[T_UPKEEP_ARM]
            points = at_least(PAIR_SUM[np.int64(dice[pos])] + FIRE_POW - arm, 0)
            pos += 1
        fkey = np.int64(0)
        if field_best and ts[G_POINTS] > 0:  # no attacker acts: its points are not in the state
            fkey = play_key(play[0], points_only, 0, target_digit(play[0], ts), ms[M_STATE], ms[M_EFFECTS],
                            ms[M_CONT],
                            ts[G_EARTH] != 0, ts[G_CORTEX_LOST] != 0, (ms[M_STATE] & ST_PRONE) != 0,
                            destroyed, 0, 0)
        pos, down = suffer_apart(target, card, counts, play, ms, ts, colmask, order, dice, pos, attacks,
                                 np.int64(-1), points, row, t, np.int64(k), fkey,
                                 field_row(play[0][K_ROWS], FIELD_FIRE + k, t, 1), np.bool_(False), present,
                                 last)
        if down:
            return pos, True
    return pos, False


@jit(inline=True)
def hazards_give(target, ts, dice, pos):
    """The target's activation in its hazards: the continuous effects they give (an acid
    bath corrosion, a lit burning earth fire, as far as it can get them), and the earth's
    flames rolled again. Returns ``(gives, pos)``."""
    gives = 0
    if (target[T_HAZARDS] & HZ_ACID) != 0:
        gives |= target[T_SUFFERS] & (1 << CE_CORROSION)
    if ts[G_EARTH]:
        gives |= target[T_SUFFERS] & (1 << CE_FIRE)
        ts[G_EARTH] = die_of(np.int64(dice[pos]), 0) > 2
        pos += 1
    return gives, pos


@jit(inline=True)
def end_of_turn(ms, gives, effect_counts, t):
    """The end of the target's turn for one model: the effects its hazards give put on, and
    the continuous effects on it at the end of round ``t`` counted."""
    ms[M_CONT] |= gives
    effect_counts[t, CE_FIRE, E_AFTER] += ms[M_CONT] & 1
    effect_counts[t, CE_CORROSION, E_AFTER] += (ms[M_CONT] >> 1) & 1

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
from .layout import (CE_CORROSION, CE_FIRE, CE_QUICKSAND, E_AFTER, E_APPLIED, E_PRESENT, F_CORROSION,
                     F_CRIT_CORROSION, F_CRIT_FIRE, F_FIRE, FIRE_POW, HZ_ACID, K_ROWS, ST_DISPELLED,
                     ST_PRONE, T_ARM_BASE, T_HAZARDS, T_SUFFERS, T_UPKEEP_ARM)
from .model_state import G_CORTEX_LOST, G_EARTH, G_POINTS, M_ARM_MINUS, M_CONT, M_EFFECTS, M_SHIELD, M_STATE
from .play_lookup import play_key
from .suffering import suffer

__all__ = ["effects_of_hit", "quicksand", "maintenance", "target_activation"]


@jit(nrt=False)
def suffer_apart(target, card, counts, play, ms, ts, colmask, order, dice, pos, attacks, w, points,
                 row, t, source, fkey, frow, felled, present):
    """:func:`.suffering.suffer`, compiled apart and called (not inlined) by the rare paths
    below: the trial loop then holds one copy of it, the attack's (a copy inlined at each of
    the three places cost the lasting variant's first run 27 s on Numba's own analyses)."""
    return suffer(target, card, counts, play, ms, ts, colmask, order, dice, pos, attacks, w, points,
                  row, t, source, fkey, frow, felled, present)


@jit(inline=True)
def effects_of_hit(ms, flags, hit, crit):
    """The continuous effects a hit puts on the model (fire, corrosion; on a critical hit
    with the critical rules)."""
    if hit == 1:
        if (flags & F_FIRE) != 0 or (crit == 1 and (flags & F_CRIT_FIRE) != 0):
            ms[M_CONT] |= 1 << CE_FIRE
        if (flags & F_CORROSION) != 0 or (crit == 1 and (flags & F_CRIT_CORROSION) != 0):
            ms[M_CONT] |= 1 << CE_CORROSION


@jit(nrt=False)
def quicksand(target, card, counts, play, ms, ts, colmask, order, dice, pos, attacks, row, t, prow,
              points_only, field_best, points, shots, present):
    """Knocked down in quicksand: 1 damage point, suffered at once (its power field decided
    in the state after the knockdown, at best play's quicksand row of the attack).
    Returns ``(pos, destroyed)``."""
    fkey = np.int64(0)
    if field_best and ts[G_POINTS] > 0:
        fkey = play_key(play[0], points_only, points, ts[G_POINTS], ms[M_STATE], ms[M_EFFECTS], ms[M_CONT],
                        ts[G_EARTH] != 0, ts[G_CORTEX_LOST] != 0, (ms[M_STATE] & ST_PRONE) != 0, 0, shots, 0)
    return suffer_apart(target, card, counts, play, ms, ts, colmask, order, dice, pos, attacks, -1, 1,
                        row, t, CE_QUICKSAND, fkey, play[0][K_ROWS] + prow, False, present)


@jit(nrt=False)
def maintenance(target, card, counts, play, ms, ts, colmask, order, dice, pos, attacks, row, t,
                points_only, field_best, present):
    """The end of the attackers' turn and the maintenance phase of round ``t`` (``row``: the
    counter row a crippled set changed here counts at, the next round's first): the burning
    earth's flames, then each continuous effect on the model in turn. Returns ``(pos,
    destroyed)``."""
    effect_counts = counts[3]
    if ts[G_EARTH]:
        ts[G_EARTH] = die_of(np.int64(dice[pos]), 0) > 2
        pos += 1
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
            points = max(0, PAIR_SUM[np.int64(dice[pos])] + FIRE_POW - arm)
            pos += 1
        fkey = np.int64(0)
        if field_best and ts[G_POINTS] > 0:  # no attacker acts: its points are not in the state
            fkey = play_key(play[0], points_only, 0, ts[G_POINTS], ms[M_STATE], ms[M_EFFECTS], ms[M_CONT],
                            ts[G_EARTH] != 0, ts[G_CORTEX_LOST] != 0, (ms[M_STATE] & ST_PRONE) != 0, 0, 0, 0)
        pos, destroyed = suffer_apart(target, card, counts, play, ms, ts, colmask, order, dice, pos, attacks,
                                      -1, points, row, t, k, fkey, 2 * play[0][K_ROWS] + 2 * t + k, False,
                                      present)
        if destroyed:
            return pos, True
    return pos, False


@jit(nrt=False)
def target_activation(target, ms, ts, dice, pos, effect_counts, t):
    """The target's activation in its hazards, then the end of its turn: an acid bath gives
    corrosion, a lit burning earth fire (then its flames are rolled again); the continuous
    effects on the model at the end of the round are counted. Returns ``pos``."""
    gives = 0
    if (target[T_HAZARDS] & HZ_ACID) != 0:
        gives |= target[T_SUFFERS] & (1 << CE_CORROSION)
    if ts[G_EARTH]:
        gives |= target[T_SUFFERS] & (1 << CE_FIRE)
        ts[G_EARTH] = die_of(np.int64(dice[pos]), 0) > 2
        pos += 1
    ms[M_CONT] |= gives
    effect_counts[t, CE_FIRE, E_AFTER] += ms[M_CONT] & 1
    effect_counts[t, CE_CORROSION, E_AFTER] += (ms[M_CONT] >> 1) & 1
    return pos

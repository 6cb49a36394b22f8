"""Where a trial reads best play's decisions: the state key and the damage index of the
decision tables (:mod:`mathhammer.play.codes` builds them; the trial follows them).

The key is a mixed-radix number of the figures that can change in the scenario (the
attacker's points left, the target's, its situation, the effects on it ...); a radix of 1
is a figure the scenario cannot change, whose digit is always 0.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from ...play import codes
from .layout import (A_EFFECT_BIT, A_EFFECT_ON, CE_CORROSION, CE_FIRE, F_CORROSION, F_CRIT_CORROSION,
                     F_CRIT_FIRE, F_FIRE, F_ROF, K_ARM_EXTRA, K_CARD, K_CONT, K_DESTROYED, K_EARTH,
                     K_EFFECTS, K_ICE, K_LOST, K_POINTS, K_SHOTS, K_SHRED, K_SITUATION_INDEX,
                     K_SITUATIONS, K_TPOINTS, K_TSTRIDE, MAX_ARM_EXTRA, MAX_ICE, ST_ARM_SHIFT, ST_ICE_SHIFT,
                     ST_KNOCKED_DOWN, ST_PRONE, ST_STATIONARY)
from .model_state import G_BLOCKS, G_POINTS
from .situation import situation_bits

__all__ = ["key_is_points", "target_digit", "play_key", "damage_index", "field_key", "field_row", "block_index",
           "FIELD_BLOCK", "FIELD_FIRE", "FIELD_QUICKSAND"]

#: The field table's rows and a block's damage index, as the table is written: its layout's
#: one definition (:mod:`mathhammer.play.codes`), compiled.
field_row = jit(inline=True)(codes.field_row)
block_index = jit(inline=True)(codes.block_index)
FIELD_BLOCK, FIELD_FIRE, FIELD_QUICKSAND = codes.FIELD_BLOCK, codes.FIELD_FIRE, codes.FIELD_QUICKSAND


@jit(inline=True)
def target_digit(play_keys, ts):
    """The key's digit of the target ``ts``: its points left, and with Shield Guard blocks
    (``K_TSTRIDE`` > 0) that stride times its blocks left."""
    return ts[G_POINTS] + play_keys[K_TSTRIDE] * ts[G_BLOCKS]


@jit(inline=True)
def key_is_points(play_keys):
    """Whether the key is the attacker's points left alone: nothing else the key holds can
    change in the scenario (the lookup then skips the other digits)."""
    return (play_keys[K_TPOINTS] == 1 and play_keys[K_SITUATIONS] == 1 and play_keys[K_EFFECTS] == 0
            and play_keys[K_CONT] == 1 and play_keys[K_EARTH] == 1 and play_keys[K_LOST] == 1
            and play_keys[K_DESTROYED] == 1 and play_keys[K_ICE] == 1 and play_keys[K_SHOTS] == 1
            and play_keys[K_ARM_EXTRA] == 1 and play_keys[K_SHRED] == 1)


@jit(inline=True)
def play_key(play_keys, points_only, points, tpoints, state, effects, cont, earth, lost,
             down_before, destroyed, shots, shred):
    """The state key of best play (:meth:`mathhammer.play.codes.KeySpace.key`).

    ``destroyed``: models destroyed so far, of every target; ``shots``: a random rate of
    fire's roll within its volley (else 0); ``shred``: the Shred attacks made so far in the
    attack's chain; ``points_only``: :func:`key_is_points` of the tables.
    """
    if points_only:
        return np.int64(points)
    raw = situation_bits(state, down_before)
    # digits that are 0 whenever their radix is 1 (the scenario has no such rule): no test
    key = shred * play_keys[K_ARM_EXTRA] + ((state >> ST_ARM_SHIFT) & MAX_ARM_EXTRA)
    key = key * play_keys[K_SHOTS] + shots
    key = key * play_keys[K_ICE] + ((state >> ST_ICE_SHIFT) & MAX_ICE)
    key = key * play_keys[K_DESTROYED] + destroyed
    key = key * play_keys[K_LOST] + (np.int64(lost) if play_keys[K_LOST] > 1 else 0)
    key = key * play_keys[K_EARTH] + (np.int64(earth) if play_keys[K_EARTH] > 1 else 0)
    key = key * play_keys[K_CONT] + (cont if play_keys[K_CONT] > 1 else 0)
    key = (key << play_keys[K_EFFECTS]) + effects
    key = key * play_keys[K_SITUATIONS] + play_keys[K_SITUATION_INDEX + raw]
    key = key * play_keys[K_TPOINTS] + tpoints
    return key * play_keys[K_POINTS] + points


@jit(inline=True)
def damage_index(play_keys, play_columns, play_index, colmask, marked):
    """The damage index of the tables: the boxes marked, or on a card solved exactly the
    index of its configuration (-1: one the solve never met)."""
    if play_keys[K_CARD] == 0:
        return marked
    code = 0
    for c in range(colmask.shape[0]):
        share = play_columns[c, colmask[c]]
        if share < 0:
            return np.int64(-1)
        code += share
    return np.int64(play_index[code])


@jit(nrt=False, helper=True)
def field_key(play_keys, points_only, points, tpoints, lost, earth, state, effects, cont, attacks, w,
              flags, hit, crit, outcome, knocks, still, shots, destroyed=0, shred=0):
    """The state key the target's power field is decided in: the state after the hit
    (knocked down, stationary, the weapon's effect and its continuous effects landed),
    ``state`` the one before it (whether it was knocked down already counts); ``destroyed``,
    ``shred``: as :func:`play_key` takes them (the Shred attacks the hit leaves owed)."""
    bit = attacks[w, A_EFFECT_BIT]
    lands = bit != 0 and outcome >= attacks[w, A_EFFECT_ON]
    sets = 0
    if hit == 1:
        if (flags & F_FIRE) != 0 or (crit == 1 and (flags & F_CRIT_FIRE) != 0):
            sets |= 1 << CE_FIRE
        if (flags & F_CORROSION) != 0 or (crit == 1 and (flags & F_CRIT_CORROSION) != 0):
            sets |= 1 << CE_CORROSION
    return play_key(play_keys, points_only, points, tpoints,
                    state | ST_KNOCKED_DOWN * knocks | ST_STATIONARY * still,
                    effects | (bit if lands else 0), cont | sets, earth, lost,
                    (state & ST_PRONE) != 0, destroyed, shots * ((flags & F_ROF) != 0), shred)

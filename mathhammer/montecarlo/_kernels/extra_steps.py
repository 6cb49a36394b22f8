"""The steps of the rules beyond the core of an attack (the lean variant, :mod:`.variant`):
a random rate of fire, rerolls, what a hit does at once (Dispel, Grievous Wounds, Sustained
Attack), the damage roll's extra dice and ARM cut (Trash, Shatter, Armor-Piercing on a
critical hit), Decapitation, what a hit leaves once its damage is rolled (Ice Cage,
Paralysis, a late Dispel, -ARM landing again) and the -DEF / -ARM effects landing
(docs/activation.md, steps 2 to 6; docs/rules.md 1, 2 and 5).

Each takes the attacks table, the weapon row and the model's row ``ms`` (:mod:`.model_state`)
or the few numbers it reads, and is inlined into the trial loop.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from ..._core.pairs import die_of
from .dice import at_least, attack_from_stats, read_word, roll_stats
from .layout import (A_ARM_MINUS, A_ATT_MODE, A_CRIT_ARM_CUT, A_DEF_MINUS, A_EFFECT_BIT, A_EFFECT_ON,
                     A_NUMBER, A_ROF, F_ARM_STACKS, F_CRIT_AP, F_CRIT_ICE, F_CRIT_PARALYSIS,
                     F_CRIT_DISPEL, F_CRIT_GRIEVOUS, F_CRIT_SUSTAIN, F_DECAP, F_DECAP_HIT, F_DISPEL,
                     F_DISPEL_LATE, F_GRIEVOUS, F_ICE, F_LASTING,
                     F_PARALYSIS, F_SHATTER, F_SUSTAIN, F_TRASH, MAX_ARM_EXTRA, MAX_ICE, R_SANGUINE,
                     ROF_D3, ROF_D6, ST_ARM_SHIFT, ST_DISPELLED, ST_GRIEVOUS, ST_ICE_ONE, ST_ICE_SHIFT,
                     ST_PARALYZED, ST_PRONE, ST_STATIONARY, ST_STILL, ST_SUSTAINED)
from .model_state import M_ARM_MINUS, M_DEF_MINUS, M_EFFECTS, M_STATE

__all__ = ["rate_of_fire", "reroll_attack", "hit_at_once", "damage_modifiers", "reroll_damage",
           "decapitation", "after_damage_roll", "effect_lands"]


@jit(nrt=False, helper=True)
def rate_of_fire(dice, pos, attacks, i, shots):
    """A random rate of fire (docs/rules.md 5): rolled before its first attack, which is
    always made; the later ones while their number is below the roll. Returns ``(made,
    shots, pos)``."""
    if attacks[i, A_NUMBER] == 0:
        e = np.int64(dice[pos])
        pos += 1
        r = attacks[i, A_ROF]
        if r == ROF_D3:
            shots = np.int64((die_of(e, 0) + 1) >> 1)
        elif r == ROF_D6:
            shots = np.int64(die_of(e, 0))
        else:
            shots = np.int64(((die_of(e, 0) + 1) >> 1) + ((die_of(e, 1) + 1) >> 1))
    return attacks[i, A_NUMBER] < shots, shots, pos


@jit(nrt=False, helper=True)
def reroll_attack(dice, pos, attacks, w, n, skill, defense):
    """A missed attack roll rolled once more, the same dice, no new boost: ``(outcome,
    pos)``; always read as a word (Sanguine Fate's die last)."""
    mode = attacks[w, A_ATT_MODE]
    nd = n + ((mode & R_SANGUINE) != 0)
    word = read_word(dice, pos, nd)
    total, kept, counts, judged = roll_stats(word, n, mode)
    return attack_from_stats(total, kept, counts, judged, skill, defense, mode), pos + ((nd + 1) >> 1)


@jit(nrt=False, helper=True)
def hit_at_once(ms, flags, crit):
    """What a hit (``crit``: critical) does at once (docs/activation.md, step 3): Dispel ends
    the target's upkeep spells (this attack's damage roll goes without them), Grievous Wounds
    stops Tough and healing, a Sustained Attack weapon's later attacks on it hit
    automatically; each on any hit, or, in its critical form, on a critical hit only."""
    dispels = ((flags & F_DISPEL) != 0) | (crit & ((flags & F_CRIT_DISPEL) != 0))
    if dispels and (flags & F_DISPEL_LATE) == 0:
        ms[M_STATE] |= ST_DISPELLED
    if ((flags & F_GRIEVOUS) != 0) | (crit & ((flags & F_CRIT_GRIEVOUS) != 0)):
        ms[M_STATE] |= ST_GRIEVOUS
    if ((flags & F_SUSTAIN) != 0) | (crit & ((flags & F_CRIT_SUSTAIN) != 0)):
        ms[M_STATE] |= ST_SUSTAINED


@jit(inline=True)
def damage_modifiers(attacks, w, flags, state, crit):
    """The damage roll's extra dice and ARM cut: Trash (a die more against a target knocked
    down at the time), Shatter (stationary), Armor-Piercing on a critical hit only. Returns
    ``(dice, arm_cut)``."""
    more = (((flags & F_TRASH) != 0) & ((state & ST_PRONE) != 0)) + (
        ((flags & F_SHATTER) != 0) & ((state & ST_STILL) != 0))
    cut = crit * attacks[w, A_CRIT_ARM_CUT] if (flags & F_CRIT_AP) != 0 else np.int64(0)
    return np.int64(more), cut


@jit(nrt=False, helper=True)
def reroll_damage(dice, pos, n, drop, pow_, arm, total, kept, points, remaining):
    """A damage roll that would not disable the target, its kept dice below their average,
    rolled once more (the same dice): ``(points, pos)``."""
    if points < remaining and 2 * total < 7 * kept:
        word = read_word(dice, pos, n)
        total, kept, counts, judged = roll_stats(word, n, drop)
        return at_least(total + pow_ - arm, 0), pos + ((n + 1) >> 1)
    return points, pos


@jit(inline=True)
def decapitation(flags, points, crit):
    """Decapitation: the damage points doubled on a critical hit (or on any hit)."""
    if (flags & (F_DECAP | F_DECAP_HIT)) != 0:
        return points * (1 + (crit | np.int64((flags & F_DECAP_HIT) != 0)))
    return points


@jit(nrt=False, helper=True)
def after_damage_roll(attacks, w, ms, flags, crit, outcome):
    """What a hit leaves once its damage is rolled, from the next attack on: a Dispel read so
    (setting), Ice Cage (-2 DEF a stack, stationary from the second) and Paralysis (base DEF
    5), its -ARM landing again (setting)."""
    if (flags & F_DISPEL_LATE) != 0 and (((flags & F_DISPEL) != 0) | crit):
        ms[M_STATE] |= ST_DISPELLED  # Dispel on any hit, or its critical form on a critical hit
    if flags & F_LASTING:
        state = ms[M_STATE]
        if (flags & F_ICE) != 0 or (crit == 1 and (flags & F_CRIT_ICE) != 0):
            if ((state >> ST_ICE_SHIFT) & MAX_ICE) < MAX_ICE:  # MAX_ICE stacks at most
                state += ST_ICE_ONE
                ms[M_DEF_MINUS] += 2
            if ((state >> ST_ICE_SHIFT) & MAX_ICE) >= 2:
                state |= ST_STATIONARY
        if (flags & F_PARALYSIS) != 0 or (crit == 1 and (flags & F_CRIT_PARALYSIS) != 0):
            state |= ST_PARALYZED
        ms[M_STATE] = state
    if ((flags & F_ARM_STACKS) != 0 and (ms[M_EFFECTS] & attacks[w, A_EFFECT_BIT]) != 0
            and outcome >= attacks[w, A_EFFECT_ON]):
        stacked = (ms[M_STATE] >> ST_ARM_SHIFT) & MAX_ARM_EXTRA
        more = min(attacks[w, A_ARM_MINUS], MAX_ARM_EXTRA - stacked)
        ms[M_ARM_MINUS] += more
        ms[M_STATE] += more << ST_ARM_SHIFT


@jit(inline=True)
def effect_lands(attacks, w, ms, outcome):
    """The weapon's -DEF / -ARM effect lands on a hit (or a critical hit) from the next attack
    on, once: an effect already on the target does not stack (docs/activation.md, step 6)."""
    bit = attacks[w, A_EFFECT_BIT]
    if bit != 0 and (ms[M_EFFECTS] & bit) == 0 and outcome >= attacks[w, A_EFFECT_ON]:
        ms[M_EFFECTS] |= bit
        ms[M_DEF_MINUS] += attacks[w, A_DEF_MINUS]
        ms[M_ARM_MINUS] += attacks[w, A_ARM_MINUS]

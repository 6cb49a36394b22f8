"""One attack against the model under attack, step by step (docs/activation.md, "One attack,
step by step"): the attacker's activation starting, best play's decisions read, a bought
attack paid for, the attack roll, the damage roll, the points suffered, and what a hit
leaves for the next attacks.

Every step reads and writes the trial's state arrays (:mod:`.model_state`: the model's row
``ms``, the target's row ``ts``; the acting attacker's figures ``act``, ``V_*`` below) and
the tables and counters of the chunk; the dice buffer's read position goes in and comes out.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from .dice import at_least
from .extra_steps import decapitation, damage_modifiers, reroll_attack, reroll_damage
from .layout import (A_ATT_DICE, A_AUTOHIT_ON, A_CHOICE_ROW, A_CHOICES, A_COST, A_DMG_MODE,
                     A_FLAGS, A_POW, A_SKILL, C_BOOST_ATT, C_BOOST_DMG, C_MADE, D_BUY, D_KNOWN_BUY,
                     F_CRIT_AP, F_CRIT_KNOCKDOWN, F_CRIT_STATIONARY, F_DAMAGE, F_DECLINE_SKIPS,
                     F_FREE_ATT_BOOST, F_FREE_DMG_BOOST, F_KNOCKDOWN, F_REROLL_ATT, F_REROLL_DMG,
                     F_SHATTER, F_STATIONARY, F_TRASH, GL_C, GL_F, GL_G, GL_H, GL_L, GL_M,
                     GL_R, HIT, MISS, P_BEST, P_BOOST_ATT, P_BOOST_ATT_AT, P_BOOST_DMG, P_POINTS, P_RESERVE,
                     ST_KNOCKED_DOWN, ST_MOVE_CRIPPLED, ST_STATIONARY, T_SHIELD_LOC)
from .model_state import (G_BLOCKED, G_CORTEX_LOST, G_EARTH, G_POINTS, M_ARM_MINUS, M_CONT, M_CRIPPLED,
                          M_DEF_MINUS, M_EFFECTS, M_MARKED, M_SHIELD, M_STATE)
from .play_lookup import damage_index, play_key, target_digit
from .rolls import (armor_of, damage_dice, defense_of, roll_attack, roll_damage, wants_attack_boost,
                    wants_damage_boost)

__all__ = ["V_POINTS", "V_RESERVE", "V_BOOST_ATT", "V_BOOST_ATT_AT", "V_BOOST_DMG", "V_BEST",
           "V_SHOTS", "V_FIELDS", "knocks_and_still", "start_activation", "best_play_decides", "decision",
           "pay_for_attack", "attack_roll", "damage_roll", "after_hit", "cripple_feedback"]

# --- the acting attacker: act[V_*]
V_POINTS = 0       # focus, fury or forcing left in its activation
V_RESERVE = 1      # boosts are paid only while more than this is left
V_BOOST_ATT = 2    # its fixed policy's attack boosts (MODE_*) ...
V_BOOST_ATT_AT = 3  # ... from this need on two dice (MODE_AUTO)
V_BOOST_DMG = 4    # its fixed policy's damage boosts (MODE_*)
V_BEST = 5         # 1: best play decides where its tables have the state
V_SHOTS = 6        # a random rate of fire's roll, for its volley
V_FIELDS = 7


@jit(inline=True)
def start_activation(act, attackers, a):
    """Attacker ``a`` starts its activation: its points and policy (the caller ends the
    Sustained Attack of the activation before on the model under attack: ``ST_SUSTAINED``)."""
    act[V_POINTS] = attackers[a, P_POINTS]
    act[V_RESERVE] = attackers[a, P_RESERVE]
    act[V_BOOST_ATT] = attackers[a, P_BOOST_ATT]
    act[V_BOOST_ATT_AT] = attackers[a, P_BOOST_ATT_AT]
    act[V_BOOST_DMG] = attackers[a, P_BOOST_DMG]
    act[V_BEST] = attackers[a, P_BEST]


@jit(inline=True)
def best_play_decides(act):
    """Whether best play decides the acting attacker's attacks now: it plays best and has
    points left to spend (else its fixed policy decides, and :func:`decision` is 0)."""
    return act[V_BEST] != 0 and act[V_POINTS] > 0


@jit(inline=True)
def decision(play_keys, play_columns, play_index, play_attack, act, ms, ts, colmask, prow,
             points_only, destroyed, shots, shred=0):
    """Best play's decision bits for the attack of decision row ``prow`` in this state, and
    the state's key and damage index (``(dec, key, m)``; ``dec`` 0 where best play does not
    decide or its tables do not hold the state: the fixed policy then decides). ``shots``: a
    random rate of fire's roll within its volley, else 0; ``destroyed``: the models destroyed
    so far; ``shred``: the Shred attacks made so far in the attack's chain."""
    if not best_play_decides(act):
        return np.int64(0), np.int64(0), np.int64(-1)
    m = damage_index(play_keys, play_columns, play_index, colmask, ms[M_MARKED])
    if m < 0:
        return np.int64(0), np.int64(0), m
    key = play_key(play_keys, points_only, act[V_POINTS], target_digit(play_keys, ts), ms[M_STATE],
                   ms[M_EFFECTS], ms[M_CONT], ts[G_EARTH] != 0, ts[G_CORTEX_LOST] != 0, np.bool_(False), destroyed,
                   shots, shred)
    return np.int64(play_attack[prow, key, m]), key, m


@jit(nrt=False, helper=True)
def pay_for_attack(attacks, play_attack, act, w, row, prow, dec, key, m, t, n_rows, n_alt,
                   n_attacks, attack_counts, base=0):
    """A bought attack (docs/activation.md, step 1) pays its cost, or is not made: best play
    declining it stops the buying (a spell's cast declined is skipped), too few points stop
    it. Best play may make it with another melee weapon. Returns ``(made, w, prow, dec,
    spent)``: the weapon row and decision row it is made with. ``base``: the first row of
    the target's block of the attacks table (several targets: a block each)."""
    if (dec & (D_KNOWN_BUY | D_BUY)) == D_KNOWN_BUY:
        if attacks[w, A_FLAGS] & F_DECLINE_SKIPS:
            return False, w, prow, dec, np.int64(0)
        act[V_POINTS] = 0  # best play stops buying here
    cost = attacks[w, A_COST]
    if act[V_POINTS] < cost:
        return False, w, prow, dec, np.int64(0)
    act[V_POINTS] -= cost
    # only bought attacks count C_MADE: an initial attack is made whenever no earlier attack
    # killed, which the driver works out from kill_at
    attack_counts[row, C_MADE] += 1
    if (dec & D_BUY) != 0 and attacks[w, A_CHOICES] > 0:
        for j in range(attacks[w, A_CHOICES]):
            r = attacks[w, A_CHOICE_ROW] + j
            pr = n_rows + t * n_alt + r - base - n_attacks
            alt = play_attack[pr, key, m]
            if (alt & D_BUY) != 0:
                return True, r, pr, np.int64(alt), cost
    return True, w, prow, dec, cost


@jit(inline=True)
def attack_roll(attacks, act, ms, dice, pos, w, row, dec, attack_counts, extra=None):
    """The attack roll (docs/activation.md, step 2): an automatic hit, or the roll against
    the DEF, with a point paid for a boost where the policy or best play says so and it adds
    a die; with ``extra`` (the lean variant), a miss rerolled where the weapon says so.
    Returns ``(outcome, pos, paid)``."""
    state = ms[M_STATE]
    if (state & attacks[w, A_AUTOHIT_ON]) != 0:
        return np.int64(HIT), pos, np.int64(0)  # no roll, so never critical
    skill = attacks[w, A_SKILL]
    defense = defense_of(attacks, w, state, ms[M_DEF_MINUS])
    n = attacks[w, A_ATT_DICE]
    paid = np.int64(0)
    # a boost is bought only when it adds a die (not lost in the floor of one)
    if ((attacks[w, A_FLAGS] & F_FREE_ATT_BOOST) == 0 and act[V_POINTS] > act[V_RESERVE] and n >= 1
            and wants_attack_boost(dec, act[V_BOOST_ATT], act[V_BOOST_ATT_AT], defense, skill)):
        act[V_POINTS] -= 1
        paid = np.int64(1)
        n += 1
        attack_counts[row, C_BOOST_ATT] += 1
    n = at_least(n, 1)
    outcome, pos = roll_attack(dice, pos, attacks, w, n, skill, defense)
    if extra is not None and (attacks[w, A_FLAGS] & F_REROLL_ATT) != 0 and outcome == MISS:
        outcome, pos = reroll_attack(dice, pos, attacks, w, n, skill, defense)
    return outcome, pos, paid


@jit(inline=True)
def damage_roll(attacks, act, ms, dice, pos, w, row, dec, hit, crit, boxes, attack_counts,
                extra=None):
    """The damage roll (docs/activation.md, step 4): rolled and read whether the attack hit
    or missed (a miss's dice are drawn and dropped: branch-free on the common path), with a
    boost paid only on a hit. Returns ``(points, pos, paid)``: the points it deals (0 on a
    miss or without a POW)."""
    flags = attacks[w, A_FLAGS]
    if (flags & F_DAMAGE) == 0:
        return np.int64(0), pos, np.int64(0)
    arm = armor_of(attacks, w, flags, ms[M_STATE], ms[M_ARM_MINUS], ms[M_SHIELD])
    pow_ = attacks[w, A_POW]
    n = damage_dice(attacks, w, flags, crit)
    if extra is not None and (flags & (F_TRASH | F_SHATTER | F_CRIT_AP)) != 0:
        more, cut = damage_modifiers(attacks, w, flags, ms[M_STATE], crit)
        n += more
        arm -= cut
    drop = attacks[w, A_DMG_MODE]
    remaining = boxes - ms[M_MARKED]
    boost = np.int64(0)
    if ((flags & F_FREE_DMG_BOOST) == 0 and act[V_POINTS] > act[V_RESERVE] and n >= 1
            and wants_damage_boost(dec, crit, act[V_BOOST_DMG], n, drop, pow_, arm, remaining)):
        boost = hit
    act[V_POINTS] -= boost
    attack_counts[row, C_BOOST_DMG] += boost
    n = at_least(n + boost, 1)
    total, kept, pos = roll_damage(dice, pos, n, drop)
    points = hit * at_least(total + pow_ - arm, 0)
    if extra is not None:
        if (flags & F_REROLL_DMG) != 0 and hit == 1:
            points, pos = reroll_damage(dice, pos, n, drop, pow_, arm, total, kept, points, remaining)
        points = decapitation(flags, points, crit)
    return points, pos, boost


@jit(inline=True)
def knocks_and_still(flags, hit, crit):
    """Whether the attack knocks the target down, and whether it makes it stationary (a
    hit, or a critical hit, with the rule): ``(knocks, still)``, 0 or 1."""
    knocks = hit & np.int64((flags & F_KNOCKDOWN) != 0) | (crit & np.int64((flags & F_CRIT_KNOCKDOWN) != 0))
    still = hit & np.int64((flags & F_STATIONARY) != 0) | (crit & np.int64((flags & F_CRIT_STATIONARY) != 0))
    return knocks, still


@jit(inline=True)
def after_hit(attacks, w, ms, hit, crit):
    """What the attack leaves for the next attacks (docs/activation.md, step 6): a
    knockdown, or the target made stationary."""
    knocks, still = knocks_and_still(attacks[w, A_FLAGS], hit, crit)
    ms[M_STATE] |= ST_KNOCKED_DOWN * knocks | ST_STATIONARY * still


@jit(nrt=False, helper=True)
def cripple_feedback(ms, ts, target, shield):
    """What the target's crippled systems change from the next attack on (a grid's): a
    crippled arm's Shield or Buckler ARM is lost, a crippled Movement makes its base DEF 5,
    a crippled Cortex takes its focus, a crippled G its power field."""
    crippled = ms[M_CRIPPLED]
    now = shield
    for k, letter in enumerate((GL_L, GL_R, GL_H, GL_F)):  # the T_SHIELD_LOC order
        if (crippled >> letter) & 1:
            now -= target[T_SHIELD_LOC + k]
    ms[M_SHIELD] = now
    if (crippled >> GL_M) & 1:
        ms[M_STATE] |= ST_MOVE_CRIPPLED
    else:
        ms[M_STATE] &= ~ST_MOVE_CRIPPLED
    if (crippled >> GL_C) & 1:
        ts[G_POINTS] = 0
        ts[G_CORTEX_LOST] = 1
    ts[G_BLOCKED] = np.int64(((crippled >> GL_G) & 1) != 0)


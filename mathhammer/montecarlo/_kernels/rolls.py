"""The attack roll and the damage roll of one attack (docs/activation.md, steps 2 and 4), as
steps a trial calls in order: the number to beat, whether a point buys a boost, the roll.

Each step takes the attacks table and the row of the weapon the attack is made with, the
few state figures it reads, and returns numbers; the dice buffer's read position goes in and
comes out (``pos``). Small enough that LLVM inlines them into the trial loop: a step costs
no call.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from ..._core.pairs import PAIR_SUM
from .dice import (at_least, attack_from_stats, kept_of, read_word, roll_stats, sum_of_three_or_four,
                   two_dice_attack)
from .layout import (A_ARM, A_ATT_MODE, A_DEF, A_DEF5, A_DMG_DICE, A_SPELL_DEF, A_UPKEEP_ARM,
                     A_UPKEEP_DEF, D_BOOST_ATTACK, D_BOOST_DAMAGE_CRIT, D_BOOST_DAMAGE_HIT,
                     D_KNOWN_ATTACK, D_KNOWN_DAMAGE_CRIT, D_KNOWN_DAMAGE_HIT, F_BRUTAL, F_BRUTAL_HIT,
                     F_IGNORE_SHIELD, MODE_ALWAYS, MODE_AUTO, R_SANGUINE, ST_BASE_DEF_5,
                     ST_DISPELLED, ST_MOVE_CRIPPLED, ST_PARALYZED)

__all__ = ["defense_of", "wants_attack_boost", "roll_attack", "armor_of", "damage_dice",
           "wants_damage_boost", "roll_damage"]


@jit(inline=True)
def defense_of(attacks, w, state, def_minus):
    """The DEF the attack made with weapon row ``w`` must reach: base DEF 5 while the target
    is knocked down, stationary, paralyzed or its Movement is crippled, its spells (the
    upkeep ones until dispelled), less the -DEF effects on it.

    >>> import numpy as np
    >>> from mathhammer.montecarlo._kernels.layout import A_NFIELDS, A_DEF, A_DEF5, ST_BASE_DEF_5
    >>> row = np.zeros((1, A_NFIELDS), dtype=np.int64); row[0, A_DEF], row[0, A_DEF5] = 14, 7
    >>> int(defense_of(row, 0, 0, 2)), int(defense_of(row, 0, ST_BASE_DEF_5, 0))
    (12, 7)
    """
    if (state & (ST_BASE_DEF_5 | ST_MOVE_CRIPPLED | ST_PARALYZED)) != 0:
        defense = attacks[w, A_DEF5]
    else:
        defense = attacks[w, A_DEF]
    defense += attacks[w, A_SPELL_DEF] - def_minus
    if (state & ST_DISPELLED) == 0:
        defense += attacks[w, A_UPKEEP_DEF]
    return defense


@jit(inline=True)
def wants_attack_boost(dec, mode, at, defense, skill):
    """Whether the attacker would boost this attack roll: best play's decision where it has
    one (``dec``), else its fixed policy (``mode``: never, always, or auto from a need of
    ``at`` on two dice)."""
    if (dec & D_KNOWN_ATTACK) != 0:
        return (dec & D_BOOST_ATTACK) != 0
    return mode == MODE_ALWAYS or (mode == MODE_AUTO and defense - skill >= at)


@jit(inline=True)
def roll_attack(dice, pos, attacks, w, n, skill, defense):
    """Roll an attack of ``n`` dice (at least one) with weapon row ``w`` against
    ``defense``: ``(outcome, pos)``, the outcome MISS, HIT or CRIT (layout).

    Two dice and no rule changing the roll read one pair entry; any other roll reads its
    entries as a word (:func:`.dice.read_word`), Sanguine Fate's die last.
    """
    mode = attacks[w, A_ATT_MODE]
    if n == 2 and mode == 0:
        return two_dice_attack(np.int64(dice[pos]), skill, defense), pos + 1
    nd = n + ((mode & R_SANGUINE) != 0)
    word = read_word(dice, pos, nd)
    total, kept, counts, judged = roll_stats(word, n, mode)
    return attack_from_stats(total, kept, counts, judged, skill, defense, mode), pos + ((nd + 1) >> 1)


@jit(inline=True)
def armor_of(attacks, w, flags, state, arm_minus, shield):
    """The ARM the damage roll of weapon row ``w`` must beat: the table's (Armor-Piercing,
    Unyielding, Carapace and spells in it), the upkeep spells' until dispelled, the Shield
    and Buckler ARM the target has now (``shield``; not against a Chain Weapon), less the
    -ARM effects on it."""
    arm = attacks[w, A_ARM] - arm_minus
    if (state & ST_DISPELLED) == 0:
        arm += attacks[w, A_UPKEEP_ARM]
    if (flags & F_IGNORE_SHIELD) == 0:
        arm += shield
    return arm


@jit(inline=True)
def damage_dice(attacks, w, flags, crit):
    """Damage dice before a paid boost, not floored: the table's, Brutal Damage's die on a
    critical hit (or on any hit with the setting)."""
    return (attacks[w, A_DMG_DICE] + (((flags & F_BRUTAL) != 0) & crit)
            + ((flags & F_BRUTAL_HIT) != 0))


@jit(inline=True)
def wants_damage_boost(dec, crit, mode, n, drop, pow_, arm, remaining):
    """Whether the attacker would boost this damage roll: best play's decision for a hit or a
    critical hit where it has one, else its fixed policy (auto: the smallest unboosted roll
    could leave the target standing and the largest boosted one would deal damage)."""
    known = D_KNOWN_DAMAGE_CRIT if crit == 1 else D_KNOWN_DAMAGE_HIT
    if (dec & known) != 0:
        return (dec & (D_BOOST_DAMAGE_CRIT if crit == 1 else D_BOOST_DAMAGE_HIT)) != 0
    return mode == MODE_ALWAYS or (
        mode == MODE_AUTO and kept_of(at_least(n, 1), drop) + pow_ - arm < remaining
        and 6 * kept_of(at_least(n + 1, 1), drop) + pow_ - arm > 0)


@jit(inline=True)
def roll_damage(dice, pos, n, drop):
    """Roll ``n`` damage dice (at least one) with the discards ``drop``: ``(total, kept,
    pos)``. Two dice read one pair entry, three or four two entries with no loop, any other
    roll a word."""
    if n == 2 and drop == 0:
        return PAIR_SUM[np.int64(dice[pos])], np.int64(2), pos + 1
    if 3 <= n <= 4 and drop == 0:
        return sum_of_three_or_four(dice, pos, n), np.int64(n), pos + 2
    word = read_word(dice, pos, n)
    total, kept, counts, judged = roll_stats(word, n, drop)
    return total, kept, pos + ((n + 1) >> 1)

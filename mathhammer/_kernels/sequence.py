"""One trial: every attack of the sequence in order against one target (RULES.md 5).

Each attack is fully resolved before the next and sees the state the earlier attacks left:
the damage marked (the sequence stops once the target is disabled) and the target's
situation bits (a knockdown makes later melee attacks hit automatically and later ranged or
arcane attacks face base DEF 5).
"""

from __future__ import annotations

from ._jit import jit
from .damage import mark_track
from .dice import roll_attack, roll_sum
from .layout import (
    A_ATT_DICE,
    A_DEF,
    A_DEF5,
    A_DMG_DICE,
    A_FLAGS,
    A_KIND,
    A_POW,
    A_SKILL,
    C_CRIT,
    C_DAMAGE,
    C_HIT,
    C_MADE,
    CRIT,
    F_CRIPPLED,
    F_CRIT_KNOCKDOWN,
    F_DAMAGE,
    F_KNOCKDOWN,
    K_MELEE,
    MISS,
    ST_BASE_DEF_5,
    ST_KNOCKED_DOWN,
    ST_MELEE_AUTOHIT,
    T_ARM,
    T_BOXES,
    T_STATE,
)


@jit(inline=True)
def run_trial(dice, pos, attacks, target, damage_hist, attack_counts, kill_at):
    """Simulate one attack sequence and add its outcome to the chunk's counters.

    Parameters
    ----------
    dice, pos : uint8[:], int
        The chunk's dice buffer and read position; the new position is returned.
    attacks, target : int64 tables of :mod:`.layout`.
    damage_hist : int64[boxes + 1]
        Incremented at the final damage marked.
    attack_counts : int64[n_attacks, C_NFIELDS]
        Per attack: made, hit, critical, damage marked.
    kill_at : int64[n_attacks]
        Incremented at the attack that disabled the target.
    """
    boxes = target[T_BOXES]
    arm = target[T_ARM]
    state = target[T_STATE]
    marked = 0
    for i in range(attacks.shape[0]):
        flags = attacks[i, A_FLAGS]
        cripple = 1 if flags & F_CRIPPLED else 0
        attack_counts[i, C_MADE] += 1

        if attacks[i, A_KIND] == K_MELEE and (state & ST_MELEE_AUTOHIT) != 0:
            outcome = 1  # automatic hit: no roll, so never critical
        else:
            n = max(1, attacks[i, A_ATT_DICE] - cripple)
            defense = attacks[i, A_DEF5] if (state & ST_BASE_DEF_5) != 0 else attacks[i, A_DEF]
            outcome, pos = roll_attack(dice, pos, n, attacks[i, A_SKILL], defense)
        if outcome == MISS:
            continue
        attack_counts[i, C_HIT] += 1
        if outcome == CRIT:
            attack_counts[i, C_CRIT] += 1
            if flags & F_CRIT_KNOCKDOWN:
                state |= ST_KNOCKED_DOWN
        if flags & F_KNOCKDOWN:
            state |= ST_KNOCKED_DOWN

        if flags & F_DAMAGE:
            n = max(1, attacks[i, A_DMG_DICE] - cripple)
            total, pos = roll_sum(dice, pos, n)
            points = max(0, total + attacks[i, A_POW] - arm)
            points = mark_track(marked, boxes, points)
            marked += points
            attack_counts[i, C_DAMAGE] += points
            if marked >= boxes:
                kill_at[i] += 1
                break
    damage_hist[marked] += 1
    return pos

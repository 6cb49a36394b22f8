"""What the target does against the points it suffers (docs/activation.md, step 4): its power
field or fury before they are marked, a Tough roll when every box is marked, Rapid Healing
after an attack that damaged it without disabling it.

Each reads the target's vector (``target``, layout ``T_*``) and the model's and target's rows
(:mod:`.model_state`), and is inlined into the trial loop.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from ..._core.pairs import die_of
from .dice import at_least
from .layout import (K_DAMAGE, K_ROWS, PF_BEST, PF_LETHAL, PK_FOCUS, ST_DISPELLED,
                     ST_GRIEVOUS, ST_KNOCKED_DOWN, ST_PRONE, T_FIELD_LIMIT, T_POWER_KIND, T_POWER_POLICY,
                     T_RAPID_HEAL, T_TOUGH, T_TOUGH_ON, T_TOUGH_UPKEEP, T_TURNS, TOUGH_NONE, TOUGH_STEADY)
from .model_state import (G_BLOCKED, G_BLOCKS, G_CORTEX_LOST, G_EARTH, G_POINTS, M_CONT, M_EFFECTS, M_MARKED,
                          M_STATE)
from .play_lookup import FIELD_BLOCK, block_index, damage_index, field_row, play_key, target_digit

__all__ = ["power_field", "tough_roll", "rapid_healing", "guard_blocks"]


@jit(nrt=False, helper=True)
def guard_blocks(target, ts, ms, play, colmask, points_only, points, shots, prow, paid, crit):
    """Shield Guard as blocks (docs/rules.md 9): whether the target's side blocks this hit of
    a ranged attack, as best play's table says at the state before the attack (``points``:
    the attacker's then; ``paid``: the attack boost paid; ``crit``: a critical hit), or, where
    the table holds no entry, always. A block is spent."""
    play_keys, play_columns, play_index, play_field = play
    block = np.int64(-1)
    m = damage_index(play_keys, play_columns, play_index, colmask, ms[M_MARKED])
    if m >= 0:
        key = play_key(play_keys, points_only, points, target_digit(play_keys, ts), ms[M_STATE], ms[M_EFFECTS],
                       ms[M_CONT], ts[G_EARTH] != 0, ts[G_CORTEX_LOST] != 0, np.bool_(False), np.int64(0),
                       shots, np.int64(0))
        frow = field_row(play_keys[K_ROWS], FIELD_BLOCK, prow, target[T_TURNS])
        at = block_index(paid, crit)
        if (frow < play_field.shape[0] and key < play_field.shape[1] and m < play_field.shape[2]
                and at < play_field.shape[3]):
            block = np.int64(play_field[frow, key, m, at])
    if block == 0:
        return False
    ts[G_BLOCKS] -= 1
    return True


@jit(nrt=False, helper=True)
def power_field(target, ts, play_field, play_keys, fkey, frow, m, points, remaining, attack,
                tally, spent_col):
    """The target's focus or fury spent against ``points`` (``remaining``: its boxes
    unmarked): best play's decision where its table holds the state (key ``fkey``, row
    ``frow``, damage index ``m``), else the lethal rule (only when the points would disable
    it: with focus, 5 points a focus; with fury, only against an ``attack``, 1 fury and no
    damage; no more than ``T_FIELD_LIMIT`` points on one roll, a setting). Returns the points
    left to mark; the points spent are counted in ``tally[spent_col]``."""
    focus = target[T_POWER_KIND] == PK_FOCUS
    lethal = target[T_POWER_POLICY] == PF_LETHAL
    if target[T_POWER_POLICY] == PF_BEST and ts[G_POINTS] > 0 and points > 0 and not ts[G_BLOCKED]:
        k = np.int64(-1)
        if points < play_keys[K_DAMAGE] and m >= 0:
            k = np.int64(play_field[frow, fkey, m, points])
        if k < 0:
            lethal = True  # unsolved here: the "lethal" rule
        elif k > 0:
            ts[G_POINTS] -= k
            points = at_least(points - 5 * k, 0) if focus else 0
            tally[spent_col] += k
    if lethal and ts[G_POINTS] > 0 and points >= remaining and not ts[G_BLOCKED] and (focus or attack):
        if focus:
            need = (points - remaining + 5) // 5
            limit = target[T_FIELD_LIMIT]  # setting power_field_per_attack (0: none)
            if need <= ts[G_POINTS] and (limit == 0 or need <= limit):
                ts[G_POINTS] -= need
                points = at_least(points - 5 * need, 0)
                tally[spent_col] += need
        else:
            ts[G_POINTS] -= 1
            points = 0
            tally[spent_col] += 1
    return points


@jit(nrt=False, helper=True)
def tough_roll(target, ms, dice, pos, felled, tally, tough_col):
    """A Tough target with every box marked rolls a d6 (docs/rules.md 6): on ``T_TOUGH_ON``
    or more it removes a point and is knocked down. No roll under Grievous Wounds, knocked
    down (unless Tough Steady; ``felled``: this attack's knockdown already landed, a
    setting) or with its upkeep Tough dispelled. A save is counted in ``tally[tough_col]``.
    Returns ``(saved, pos)``."""
    tough = target[T_TOUGH]
    state = ms[M_STATE]
    if (tough != TOUGH_NONE and (state & ST_GRIEVOUS) == 0
            and (((state & ST_PRONE) == 0 and not felled) or tough == TOUGH_STEADY)
            and ((state & ST_DISPELLED) == 0 or target[T_TOUGH_UPKEEP] == 0)):
        saved = die_of(np.int64(dice[pos]), 0) >= target[T_TOUGH_ON]
        pos += 1
        if saved:
            ms[M_STATE] |= ST_KNOCKED_DOWN
            tally[tough_col] += 1
        return saved, pos
    return False, pos


@jit(nrt=False, helper=True)
def rapid_healing(target, ms, dice, pos, marked):
    """Rapid Healing after an attack that damaged the target without disabling it (a
    setting): its points removed, never below 0 marked (d3: a d6 halved, rounding up), none
    under Grievous Wounds. Returns ``(heal, pos)``."""
    rapid = target[T_RAPID_HEAL]
    if rapid == 0 or (ms[M_STATE] & ST_GRIEVOUS) != 0:
        return np.int64(0), pos
    if rapid > 0:
        return min(rapid, marked), pos
    return min((die_of(np.int64(dice[pos]), 0) + 1) >> 1, marked), pos + 1

"""The target suffers the points of an attack (docs/activation.md, step 4 and "Suffering
points"): they are marked on its damage track, grid or spiral, a system whose last box is
marked is crippled (and on a grid changes the next attacks: :func:`.attack_steps.cripple_feedback`),
and a model with every box marked is destroyed.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from ..._core.pairs import die_of
from .attack_steps import cripple_feedback
from .damage import mark_track
from .defences import power_field, rapid_healing, tough_roll
from .dice import at_most
from .layout import (A_DAMAGE_TO, A_SIDE, C_DAMAGE, C_DESTROYED, C_TARGET_SPENT, C_TOUGH, CAP_GRID, CAP_TRACK,
                     CE_QUICKSAND, E_DAMAGE, E_DESTROYED, E_KILL, E_TARGET_SPENT, E_TOUGH, N_COLUMNS, SIDE_RANDOM,
                     T_BOXES, T_CAPACITY, T_HEAL_WHEN_HIT, T_RAPID_HEAL, T_SHIELD_ARM, T_TOUGH, TOUGH_NONE)
from .marking import crippled_set, first_box, first_column, heal_card, mark_card, mark_columns
from .model_state import G_POINTS, M_CRIPPLED, M_MARKED, M_MARKS
from .play_lookup import damage_index

__all__ = ["SRC_ATTACK", "letters_present", "suffer_points", "mark_points", "suffer", "count_destroyed",
           "only_marks", "suffer_marks"]

#: ``source`` of points an attack deals (a continuous effect's is its CE_* index, 0..).
SRC_ATTACK = -1


@jit(inline=True)
def letters_present(letter_mask, n_letters):
    """The letters (a bit each) with a box on the card: a crippled set is always among them."""
    present = np.int64(0)  # not the constant 0: callers compiled apart would compile again for it
    for x in range(n_letters):
        for c in range(letter_mask.shape[1]):
            if letter_mask[x, c] != 0:
                present |= 1 << x
    return present


@jit(inline=True)
def suffer_points(card, counts, target, ms, ts, colmask, dice, pos, points, row, boxes, on_card,
                  present, feedback, shield):
    """Model ``ms`` of target ``ts`` suffers ``points`` from the attack of counter row
    ``row``: marked (a card's from a column a d6 picks, read whenever points are dealt),
    counted, its crippled set updated; returns ``(pos, destroyed)``. ``card``: the card's
    tables ``(col_full, letters_done)``; ``counts``: the counters it adds to, ``(attack_counts,
    kill_at, cripple_delta)``."""
    col_full, letters_done = card
    attack_counts, kill_at, cripple_delta = counts
    was = ms[M_CRIPPLED]
    if not on_card:
        taken = mark_track(ms[M_MARKED], boxes, points)
    else:
        taken = 0
        if points > 0:
            taken = at_most(points, boxes - ms[M_MARKED])
            c, pos = first_column(dice, pos)
            if mark_columns(colmask, col_full, letters_done, c, taken):
                ms[M_CRIPPLED] = crippled_set(colmask, letters_done, present)
    ms[M_MARKED] += taken
    attack_counts[row, C_DAMAGE] += taken
    destroyed = ms[M_MARKED] >= boxes
    if destroyed:
        kill_at[row] += 1
    if ms[M_CRIPPLED] != was:
        cripple_delta[row, was] -= 1
        cripple_delta[row, ms[M_CRIPPLED]] += 1
        if feedback:
            cripple_feedback(ms, ts, target, shield)
    return pos, destroyed


@jit(inline=True)
def mark_points(attacks, w, card, ms, colmask, order, dice, pos, points, boxes, on_card,
                colossal, heals):
    """Mark ``points`` from the attack made with weapon row ``w`` (-1: no attack's): on a
    track, as many as are left; on a card, "damage to" its letter's first unmarked box first,
    else from a column a d6 picks (a colossal's side: where the attacker stands, else the
    pair's other die). Returns ``(taken, newly_done, pos)``; the model's boxes in ``order`` are kept."""
    if not on_card:
        return mark_track(ms[M_MARKED], boxes, points), False, pos
    if points <= 0:
        return np.int64(0), False, pos
    col_full, letters_done, letter_mask = card
    want = at_most(points, boxes - ms[M_MARKED])
    c, first = np.int64(-1), np.int64(0)
    x = attacks[w, A_DAMAGE_TO] if w >= 0 else -1
    if x >= 0 and ((ms[M_CRIPPLED] >> x) & 1) == 0:
        c, first = first_box(letter_mask, colmask, x)
    side_lo = np.int64(0)
    if c < 0:
        e = np.int64(dice[pos])
        c = die_of(e, 0) - 1
        pos += 1
        if colossal:
            side = attacks[w, A_SIDE] if w >= 0 else SIDE_RANDOM
            if side == SIDE_RANDOM:
                side = np.int64(die_of(e, 1) > 3)
            side_lo = side * N_COLUMNS
            c += side_lo
    elif colossal:
        side_lo = (c // N_COLUMNS) * N_COLUMNS
    newly_done, ms[M_MARKS], pos = mark_card(colmask, order, ms[M_MARKS], col_full, letters_done, dice,
                                             pos, c, first, side_lo, colossal, heals, want)
    return want, newly_done, pos


@jit(inline=True)
def count_destroyed(attack_counts, kill_at, row, last):
    """A model destroyed by the attack of counter row ``row``: the kill when it was the last
    standing of every target (``last``), else one model destroyed."""
    if last:
        kill_at[row] += 1
    else:
        attack_counts[row, C_DESTROYED] += 1


@jit(inline=True)
def only_marks(target, ts):
    """Whether an attack's points on a model of ``target`` (its row ``ts``) are only marked on
    its damage track: no power field (no focus or fury left), no Tough roll, no Rapid
    Healing, no card to cripple. :func:`suffer_marks` is then all of :func:`suffer`."""
    return (target[T_CAPACITY] == CAP_TRACK and ts[G_POINTS] <= 0 and target[T_TOUGH] == TOUGH_NONE
            and target[T_RAPID_HEAL] == 0)


@jit(inline=True)
def suffer_marks(attack_counts, kill_at, boxes, ms, points, row, last):
    """Model ``ms`` suffers an attack's ``points`` where :func:`only_marks` holds: as many as
    its track has room for, counted at counter row ``row`` (``last``: its destruction is the
    kill). What :func:`suffer` does there, in a few lines a trial loop inlines: the units
    variant calls :func:`suffer` compiled apart, and that call (seventeen arrays, and every
    rule's checks) cost a unit model's attack more than the marking. Returns whether the
    model is destroyed."""
    taken = mark_track(ms[M_MARKED], boxes, points)
    ms[M_MARKED] += taken
    attack_counts[row, C_DAMAGE] += taken
    destroyed = ms[M_MARKED] >= boxes
    if destroyed:
        count_destroyed(attack_counts, kill_at, row, last)
    return destroyed


@jit(inline=True)
def suffer(target, card, counts, play, ms, ts, colmask, order, dice, pos, attacks, w, points,
           row, t, source, fkey, frow, felled, present, last=True):
    """Model ``ms`` of target ``ts`` suffers ``points`` (docs/activation.md, "Suffering
    points"), from the attack of weapon row ``w`` (``source`` :data:`SRC_ATTACK`) or from a
    continuous effect or quicksand in round ``t`` (``source`` its CE_* index, ``w`` -1):
    its power field (best play's key ``fkey`` and row ``frow``; fury only against an attack),
    marking, a Tough roll, Rapid Healing (after an attack; with the setting
    rapid_healing_when_hit after a Tough save and after points the power field took), the crippled set and its
    feedback, counted at counter row ``row`` or the effect's. Returns ``(pos, destroyed)``.
    ``last``: the model is the last standing of every target, so its destruction is the kill
    (``kill_at``, ``E_KILL``); else one model destroyed (``C_DESTROYED``, ``E_DESTROYED``).

    ``card``: the card's tables ``(col_full, letters_done, letter_mask)``; ``counts``:
    ``(attack_counts, kill_at, cripple_delta, effect_counts)``; ``play``: best play's
    ``(play_keys, play_columns, play_index, play_field)``.
    """
    attack_counts, kill_at, cripple_delta, effect_counts = counts
    play_keys, play_columns, play_index, play_field = play
    attack = source == SRC_ATTACK
    tally = attack_counts[row] if attack else effect_counts[t, source]
    spent_col, damage_col, tough_col = ((C_TARGET_SPENT, C_DAMAGE, C_TOUGH) if attack
                                        else (E_TARGET_SPENT, E_DAMAGE, E_TOUGH))
    boxes = target[T_BOXES]
    on_card = target[T_CAPACITY] != CAP_TRACK
    heals = target[T_TOUGH] != TOUGH_NONE or target[T_RAPID_HEAL] != 0
    rolled = points  # before the power field (setting rapid_healing_when_hit)
    if ts[G_POINTS] > 0:
        m = damage_index(play_keys, play_columns, play_index, colmask, ms[M_MARKED])
        points = power_field(target, ts, play_field, play_keys, fkey, frow, m, points,
                             boxes - ms[M_MARKED], np.bool_(attack), tally, np.int64(spent_col))
    was = ms[M_CRIPPLED]
    taken, newly_done, pos = mark_points(attacks, w, card, ms, colmask, order, dice, pos, points, boxes,
                                         on_card, colmask.shape[0] > N_COLUMNS, heals)
    if newly_done:
        ms[M_CRIPPLED] = crippled_set(colmask, card[1], present)
    ms[M_MARKED] += taken
    tally[damage_col] += taken
    heal = np.int64(0)
    destroyed = False
    if ms[M_MARKED] >= boxes:
        saved, pos = tough_roll(target, ms, dice, pos, felled, tally, np.int64(tough_col))
        if saved:
            heal = np.int64(1)
            if attack and target[T_HEAL_WHEN_HIT] != 0:  # and Rapid Healing after the save
                more, pos = rapid_healing(target, ms, dice, pos, ms[M_MARKED] - 1)
                heal += more
        else:
            destroyed = True
            if attack or source == CE_QUICKSAND:
                count_destroyed(attack_counts, kill_at, row, last)
            if source >= 0:
                effect_counts[t, source, E_KILL if last else E_DESTROYED] += 1
    elif attack and (taken > 0 or (rolled > 0 and target[T_HEAL_WHEN_HIT] != 0)):
        heal, pos = rapid_healing(target, ms, dice, pos, ms[M_MARKED])
    if heal > 0:
        ms[M_MARKED] -= heal
        if on_card:
            ms[M_MARKS] = heal_card(colmask, order, ms[M_MARKS], heal)
            ms[M_CRIPPLED] = crippled_set(colmask, card[1], present)
    if ms[M_CRIPPLED] != was:
        cripple_delta[row, was] -= 1
        cripple_delta[row, ms[M_CRIPPLED]] += 1
        if target[T_CAPACITY] == CAP_GRID:
            cripple_feedback(ms, ts, target, target[T_SHIELD_ARM])
    return pos, destroyed

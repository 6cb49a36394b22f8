"""The Monte Carlo trade kernel: two sides taking turns, each model an attacker and a target
(docs/trades.md).

A trade lists *entries* (``x``, ``y``): single models or units. A trial holds one row of
:mod:`.model_state` per model (``j``: a unit has one per model, in order; ``ms``: damage
marked, situation, crippled letters, Shield ARM, destroyed) and, on a grid or spiral, its
columns' marked boxes. Each round, each side's turn: its entries standing activate in order,
each of their models standing in turn; a model stands up, works out which of its letters are
crippled, and makes its combat action as the attack *program* encoded for that set of
crippled letters, against the first standing model of the first entry of its ``attacks``
still standing (attacks spill over a unit's models in order, :class:`.trade_data.TradeTables`). Each attack is the general kernel's own steps
(:mod:`.attack_steps`: the attack roll and the damage roll with boosts by the fixed policy),
then the target's suffering: marking (a track; a grid or spiral through :mod:`.marking`),
crippling (the card's boxes, or a track's ``cripple_at`` thresholds) and what it changes of
its defence (:func:`.attack_steps.cripple_feedback`), Tough, knockdown. After each side's turn
the chunk's counters take the state of every model.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from .attack_steps import (V_POINTS, attack_roll, best_play_decides, cripple_feedback, damage_roll,
                           knocks_and_still, start_activation)
from .damage import mark_track
from .defences import tough_roll
from .dice import trial_dice
from ..._core.pairs import PAIR_SUM, die_of
from .dice import at_least
from .layout import (A_COST, A_FLAGS, A_ORIGIN, CAP_TRACK, CE_FIRE, CRIT, D_BUY, D_KNOWN_BUY, F_KD_STOPS_TOUGH,
                     FIRE_POW, MISS,
                     ORIGIN_BOUGHT, ST_KNOCKED_DOWN, ST_PRONE, T_ARM_BASE, T_BOXES, T_CAPACITY, T_EFFECTS,
                     T_SHIELD_ARM, T_STATE, T_UPKEEP_ARM)
from .marking import crippled_set, first_column, mark_columns
from .model_state import M_CONT, M_CRIPPLED, M_GONE, M_MARKED, M_SHIELD, M_STATE, clear
from .round_end import effects_of_hit

__all__ = ["trade_trials"]


@jit(inline=True)
def start_trial(t, ms, cols, standing, alive):
    """Every model as the trial starts: nothing marked, its entry's starting situation and
    Shield ARM; every entry and side standing."""
    alive[0] = 0
    alive[1] = 0
    for x in range(t.tvec.shape[0]):
        standing[x] = t.n_models[x]
        alive[t.side_of[x]] += 1
        for j in range(t.first_row[x], t.first_row[x] + t.n_models[x]):
            clear(ms[j])
            ms[j, M_STATE] = t.tvec[x, T_STATE]
            ms[j, M_SHIELD] = t.tvec[x, T_SHIELD_ARM]
            ms[j, M_CONT] = t.tvec[x, T_EFFECTS]
            clear(cols[j])


@jit(inline=True)
def first_standing(t, ms, y):
    """The row of entry ``y``'s first model standing (attacks spill over a unit in order)."""
    for j in range(t.first_row[y], t.first_row[y] + t.n_models[y]):
        if ms[j, M_GONE] == 0:
            return j
    return -1


@jit(inline=True)
def target_of(t, standing, x):
    """``(k, y)``: the first entry of entry ``x``'s ``attacks`` still standing and its place
    in the list; ``(-1, -1)`` when none is."""
    for k in range(t.targets_of.shape[1]):
        y = t.targets_of[x, k]
        if y < 0:
            break
        if standing[y] > 0:
            return k, y
    return -1, -1


@jit(inline=True)
def standing_mask(t, standing, x):
    """The enemies of entry ``x``'s ``attacks`` standing, a bit each in the list's order."""
    mask = 0
    for k in range(t.targets_of.shape[1]):
        y = t.targets_of[x, k]
        if y < 0:
            break
        mask |= np.int64(standing[y] > 0) << k
    return mask


@jit(inline=True)
def combination(t, ms, x, j):
    """Which of entry ``x``'s attack programs the crippled letters of its model ``j`` call for."""
    crippled = ms[j, M_CRIPPLED]
    c = 0
    for i in range(t.rel.shape[1]):
        bit = t.rel[x, i]
        if bit < 0:
            break
        c |= ((crippled >> bit) & 1) << i
    return c


@jit(inline=True)
def crippled_now(t, ms, ts, y, j, crippled):
    """Model ``j`` (of entry ``y``) has ``crippled`` letters now: what they change of its
    defence (a crippled arm's Shield ARM, Movement's base DEF 5)."""
    if crippled != ms[j, M_CRIPPLED]:
        ms[j, M_CRIPPLED] = crippled
        cripple_feedback(ms[j], ts, t.tvec[y], t.tvec[y, T_SHIELD_ARM])


@jit(inline=True)
def track_crippled(t, ms, y, j):
    """The letters model ``j``'s damage track cripples at its damage marked (its entry ``y``'s
    ``cripple_at``)."""
    crippled = 0
    for k in range(t.thresholds.shape[1]):
        crippled |= np.int64(ms[j, M_MARKED] >= t.thresholds[y, k]) << k
    return crippled


@jit(inline=True)
def suffer(t, ms, cols, ts, dice, pos, y, j, points, felled, tally):
    """Model ``j`` of entry ``y`` suffers ``points`` damage points: marked (a card from a
    rolled column), crippling, and a Tough roll once every box is marked. Returns ``(pos,
    destroyed)``."""
    boxes = t.tvec[y, T_BOXES]
    want = mark_track(ms[j, M_MARKED], boxes, points)
    newly = False
    if t.tvec[y, T_CAPACITY] != CAP_TRACK:
        c, pos = first_column(dice, pos)
        newly = mark_columns(cols[j], t.col_full[y], t.letters_done[y], c, want)
    ms[j, M_MARKED] += want
    if t.tvec[y, T_CAPACITY] == CAP_TRACK:
        crippled_now(t, ms, ts, y, j, track_crippled(t, ms, y, j))
    elif newly:
        crippled_now(t, ms, ts, y, j, crippled_set(cols[j], t.letters_done[y], t.present[y]))
    if ms[j, M_MARKED] < boxes:
        return pos, False
    saved, pos = tough_roll(t.tvec[y], ms[j], dice, pos, felled, tally, 0)
    if saved:  # a track (Tough on a card is refused): one point removed
        ms[j, M_MARKED] = boxes - 1
        crippled_now(t, ms, ts, y, j, track_crippled(t, ms, y, j))
        return pos, False
    return pos, True


@jit(inline=True)
def falls(t, ms, standing, alive, y, j):
    """Model ``j`` of entry ``y`` is destroyed: its entry has a model fewer standing, and
    its side an entry fewer once none is left."""
    ms[j, M_GONE] = 1
    standing[y] -= 1
    if standing[y] == 0:
        alive[t.side_of[y]] -= 1


#: :func:`suffer` compiled apart, for the maintenance phase (trades with continuous effects):
#: a second copy inlined there made the kernel's first run 20 s against 13. The attack keeps
#: its copy inlined: called apart there, a trial took twice as long (the call hands over
#: every table), measured on the heavy duel on 2026-12-05.
_suffer_apart = jit(nrt=False, helper=True)(suffer.py_func)


@jit(inline=True)
def decision(t, act, model, tb, w):
    """Best play's decision bits for row ``w`` of table ``tb`` on the model whose row is
    ``model``, in its state now (its damage marked, knocked down or not, its continuous
    effects; the acting model's points left): 0 where the table does not hold the state (the
    fixed policy decides). A trade's key is ``key0`` of the situation plus the points (no
    other digit varies in a trade): two reads, no call (the general lookup, compiled apart,
    made the kernel's first run 2 s longer and a trial 9 % slower)."""
    marked = model[M_MARKED]
    if marked >= t.play_attack.shape[2]:
        return np.int64(0)
    key = t.key0[tb, np.int64((model[M_STATE] & ST_PRONE) != 0), model[M_CONT]] + act[V_POINTS]
    return np.int64(t.play_attack[w, key, marked])


@jit(inline=True)
def attack(t, ms, cols, ts, act, dice, pos, w, y, j, dec, counters, tally, lasting):
    """One attack with row ``w`` on model ``j`` of entry ``y``, decided by ``dec`` (best
    play's bits, or 0): the rolls, suffering, knockdown, and with ``lasting`` (not None) the
    continuous effects it puts on. Returns ``(pos, destroyed)``."""
    rows = t.rows
    outcome, pos, _ = attack_roll(rows, act, ms[j], dice, pos, w, w, dec, counters.attack_counts)
    hit = np.int64(outcome != MISS)
    crit = np.int64(outcome == CRIT)
    points, pos, _ = damage_roll(rows, act, ms[j], dice, pos, w, w, dec, hit, crit, t.tvec[y, T_BOXES],
                                 counters.attack_counts)
    knocks, _ = knocks_and_still(rows[w, A_FLAGS], hit, crit)
    down = False
    if points > 0:
        felled = knocks == 1 and (rows[w, A_FLAGS] & F_KD_STOPS_TOUGH) != 0
        pos, down = suffer(t, ms, cols, ts, dice, pos, y, j, points, felled, tally)
    if not down:
        ms[j, M_STATE] |= ST_KNOCKED_DOWN * knocks
        if lasting is not None:
            effects_of_hit(ms[j], rows[w, A_FLAGS], hit, crit)
    return pos, down


@jit(inline=True)
def combat_action(t, ms, cols, ts, act, standing, alive, dice, pos, x, me, r, counters, tally, lasting):
    """Model ``me`` of entry ``x`` in round ``r``: it stands up (no charge then), and makes
    its combat action with the program of its crippled letters. Returns ``pos``."""
    was_down = (ms[me, M_STATE] & ST_PRONE) != 0
    ms[me, M_STATE] &= ~ST_KNOCKED_DOWN
    c = combination(t, ms, x, me)
    charge = 1 if (t.charges[x] == 1 and r == 0 and not was_down
                   and (ms[me, M_CRIPPLED] & t.stops_charge[x]) == 0) else 0
    k, y = target_of(t, standing, x)
    if y < 0:
        return pos
    p = t.prog_index[x, c, k, charge]
    start_activation(act, t.prog_att, p)
    for i in range(t.prog_len[p]):
        k, y = target_of(t, standing, x)
        if y < 0:
            break
        p = t.prog_index[x, c, k, charge]
        w = t.prog_start[p] + i
        j = first_standing(t, ms, y)
        dec = np.int64(0)
        if best_play_decides(act):
            tb = t.table_of[x, c, standing_mask(t, standing, x), charge]
            if tb >= 0:
                dec = decision(t, act, ms[j], tb, t.table_start[tb] + i)
        if t.rows[w, A_ORIGIN] == ORIGIN_BOUGHT:
            if act[V_POINTS] < t.rows[w, A_COST] or (dec & (D_KNOWN_BUY | D_BUY)) == D_KNOWN_BUY:
                break  # too few points, or best play stops buying here
            act[V_POINTS] -= t.rows[w, A_COST]
        pos, down = attack(t, ms, cols, ts, act, dice, pos, w, y, j, dec, counters, tally, lasting)
        if down:
            falls(t, ms, standing, alive, y, j)
    return pos


@jit(inline=True)
def activation(t, ms, cols, ts, act, standing, alive, dice, pos, x, r, counters, tally, lasting):
    """Entry ``x``'s activation in round ``r``: each of its models standing makes its combat
    action in turn, each with its own points. Returns ``pos``."""
    for me in range(t.first_row[x], t.first_row[x] + t.n_models[x]):
        if ms[me, M_GONE] == 0 and alive[0] > 0 and alive[1] > 0:
            pos = combat_action(t, ms, cols, ts, act, standing, alive, dice, pos, x, me, r, counters, tally,
                                lasting)
    return pos


@jit(nrt=False, helper=True)
def maintenance(t, ms, cols, ts, standing, alive, dice, pos, side, tally):
    """Side ``side``'s maintenance phase: each continuous effect on each of its models
    standing, fire then corrosion: a d6 of 1-2 ends it, else fire deals a POW 12 damage roll
    against the model's ARM (its Shields while their location stands), corrosion 1 point,
    suffered as an attack's are. Returns ``pos``. Compiled apart (called once a side's turn):
    inlined, the trades without continuous effects paid for inlining it before Numba left it
    out of their kernel (1.4 s of their first run)."""
    for i in range(t.order.shape[1]):
        x = t.order[side, i]
        if x < 0:
            break
        for j in range(t.first_row[x], t.first_row[x] + t.n_models[x]):
            for k in range(2):  # CE_FIRE, then CE_CORROSION
                if ms[j, M_GONE] != 0 or ((ms[j, M_CONT] >> k) & 1) == 0:
                    continue
                expires = die_of(np.int64(dice[pos]), 0) <= 2
                pos += 1
                if expires:
                    ms[j, M_CONT] &= ~(1 << k)
                    continue
                points = np.int64(1)
                if k == CE_FIRE:
                    arm = t.tvec[x, T_ARM_BASE] + t.tvec[x, T_UPKEEP_ARM] + ms[j, M_SHIELD]
                    points = at_least(PAIR_SUM[np.int64(dice[pos])] + FIRE_POW - arm, 0)
                    pos += 1
                if points > 0:
                    pos, down = _suffer_apart(t, ms, cols, ts, dice, pos, x, j, points, False, tally)
                    if down:
                        falls(t, ms, standing, alive, x, j)
    return pos


@jit(inline=True)
def record_turn(t, ms, standing, alive, counters, k):
    """The state of every entry after turn ``k``, into the counters."""
    for s in range(2):
        counters.side_out[k, s] += alive[s] == 0
    for x in range(t.tvec.shape[0]):
        counters.destroyed[k, x] += standing[x] == 0
        counters.lost[k, x] += t.n_models[x] - standing[x]
        damage = 0
        for j in range(t.first_row[x], t.first_row[x] + t.n_models[x]):
            gone = ms[j, M_GONE]
            damage += t.tvec[x, T_BOXES] if gone else ms[j, M_MARKED]
            letters = t.present[x] if gone else ms[j, M_CRIPPLED]
            for b in range(t.thresholds.shape[1]):
                counters.crippled[k, x, b] += (letters >> b) & 1
        counters.damage[k, x] += damage
        counters.damage_sq[k, x] += damage * damage


@jit(nrt=False)
def trade_trials(n_trials, rs, dice, pos, size, max_draws, t, counters, state, lasting):
    """``n_trials`` trades on the dice buffer ``dice`` (refilled from the stream ``rs``),
    adding to one chunk's ``counters``, on the caller's ``state`` (:func:`.trade_data.new_state`).
    ``lasting``: None where no continuous effect can happen (Numba then leaves the
    maintenance phase and the effects of hits out of the kernel), else True. Returns the
    read position after the last trial."""
    ms, cols, ts, act, standing, alive, tally = state
    start = pos
    for _ in range(n_trials):
        pos, start = trial_dice(rs, dice, pos, start, size, max_draws, 0)
        start_trial(t, ms, cols, standing, alive)
        for r in range(t.rounds[0]):
            for half in range(2):
                side = t.first[0] ^ half
                if lasting is not None and alive[0] > 0 and alive[1] > 0:
                    pos = maintenance(t, ms, cols, ts, standing, alive, dice, pos, side, tally)
                for i in range(t.order.shape[1]):
                    x = t.order[side, i]
                    if x < 0:
                        break
                    if standing[x] > 0 and alive[0] > 0 and alive[1] > 0:
                        pos = activation(t, ms, cols, ts, act, standing, alive, dice, pos, x, r, counters, tally,
                                         lasting)
                record_turn(t, ms, standing, alive, counters, 2 * r + half)
    return pos

"""The Monte Carlo trade kernel: two sides taking turns, each model an attacker and a target
(docs/trades.md).

A trade lists *entries* (``x``, ``y``): single models or units. A trial holds one row of
:mod:`.model_state` per model (``j``: a unit has one per model, in order; ``ms``: damage
marked, situation, crippled letters, Shield ARM, destroyed) and, on a grid or spiral, its
columns' marked boxes. Each round, each side's turn: its entries standing activate in order,
each of their models standing in turn; a model stands up, works out which of its letters are
crippled, and makes its combat action as the attack *program* encoded for that set of
crippled letters, against the first standing model of the first entry of its ``attacks``
still standing (attacks spill over a unit's models in order, :class:`TradeTables`). Each attack is the general kernel's own steps
(:mod:`.attack_steps`: the attack roll and the damage roll with boosts by the fixed policy),
then the target's suffering: marking (a track; a grid or spiral through :mod:`.marking`),
crippling (the card's boxes, or a track's ``cripple_at`` thresholds) and what it changes of
its defence (:func:`.attack_steps.cripple_feedback`), Tough, knockdown. After each side's turn
the chunk's counters take the state of every model.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..._core.jit import jit
from .attack_steps import (V_FIELDS, V_POINTS, attack_roll, cripple_feedback, damage_roll, knocks_and_still,
                           start_activation)
from .damage import mark_track
from .defences import tough_roll
from .dice import trial_dice
from ..._core.pairs import PAIR_SUM, die_of
from .dice import at_least
from .layout import (A_COST, A_FLAGS, A_ORIGIN, CAP_TRACK, CE_FIRE, CRIT, F_KD_STOPS_TOUGH, FIRE_POW, MISS,
                     ORIGIN_BOUGHT, ST_KNOCKED_DOWN, ST_PRONE, T_ARM_BASE, T_BOXES, T_CAPACITY, T_EFFECTS,
                     T_SHIELD_ARM, T_STATE, T_UPKEEP_ARM)
from .marking import crippled_set, first_column, mark_columns
from .model_state import G_FIELDS, M_CONT, M_CRIPPLED, M_FIELDS, M_GONE, M_MARKED, M_SHIELD, M_STATE, clear
from .round_end import effects_of_hit

__all__ = ["TradeTables", "TradeCounters", "TradeState", "new_state", "trade_trials", "NO_THRESHOLD"]

#: A ``thresholds`` entry of a letter no track damage cripples.
NO_THRESHOLD = 1 << 30


class TradeTables(NamedTuple):
    """A trade, encoded (:func:`mathhammer.montecarlo.trades.encode_trade` builds it): ``M``
    entries, both sides', the first side's first, each of ``n_models`` models (a unit's
    rows of the trial's state from ``first_row``)."""

    rows: np.ndarray         # int64[rows, A_NFIELDS]: every program's attack rows
    prog_start: np.ndarray   # int64[programs]: a program's first row
    prog_len: np.ndarray     # int64[programs]: its attack slots (initial, then bought)
    prog_att: np.ndarray     # int64[programs, P_NFIELDS]: its attacker's points and policy
    prog_index: np.ndarray   # int64[M, combos, targets, 2]: the program of model x with crippled
    #                          combination c attacking its k-th target, charging or not (-1: none)
    rel: np.ndarray          # int64[M, MAX_REL]: the letter bits whose crippling changes its
    #                          attacks, in combination order (-1 past the last)
    stops_charge: np.ndarray  # int64[M]: letter bits a crippling of which stops its charge
    charges: np.ndarray      # int64[M]: 1 where its first activation opens with a charge
    targets_of: np.ndarray   # int64[M, targets]: the models it attacks, in order (-1 past the last)
    side_of: np.ndarray      # int64[M]: 0 or 1
    order: np.ndarray        # int64[2, M]: each side's models in activation order (-1 past the last)
    tvec: np.ndarray         # int64[M, T_NFIELDS]: each model's target vector
    col_full: np.ndarray     # int64[M, N_COLUMNS]: a grid's or spiral's boxes (0 for a track)
    letters_done: np.ndarray  # int64[M, N_COLUMNS, 2 ** MAX_ROWS]
    present: np.ndarray      # int64[M]: the letters on its card, a bit each (a track's cripple_at letters)
    thresholds: np.ndarray   # int64[M, MAX_LETTERS]: a track: damage marked crippling each letter
    first_row: np.ndarray    # int64[M]: its first model's row of the trial's state
    n_models: np.ndarray     # int64[M]: its models (1, or a unit's)
    first: np.ndarray        # int64[1]: the side whose turn comes first
    rounds: np.ndarray       # int64[1]


class TradeCounters(NamedTuple):
    """One chunk's counters: after each turn ``k`` (a side's turn of a round, in order), per
    entry ``x`` (a unit's figures summed over its models)."""

    side_out: np.ndarray     # int64[turns, 2]: trials with no entry of the side standing
    destroyed: np.ndarray    # int64[turns, M]: trials with every model of the entry destroyed
    damage: np.ndarray       # int64[turns, M]: damage marked (a destroyed model: every box)
    damage_sq: np.ndarray    # int64[turns, M]: its square (the entry's damage, squared), summed
    lost: np.ndarray         # int64[turns, M]: models destroyed
    crippled: np.ndarray     # int64[turns, M, MAX_LETTERS]: models with the letter crippled
    #                          (a destroyed model: every letter of its card or thresholds)
    attack_counts: np.ndarray  # int64[rows, C_NFIELDS]: boosts per row (the attack steps' tally)


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
def attack(t, ms, cols, ts, act, dice, pos, w, y, j, counters, tally, lasting):
    """One attack with row ``w`` on model ``j`` of entry ``y``: the rolls, suffering,
    knockdown, and with ``lasting`` (not None) the continuous effects it puts on. Returns
    ``(pos, destroyed)``."""
    rows = t.rows
    outcome, pos, _ = attack_roll(rows, act, ms[j], dice, pos, w, w, 0, counters.attack_counts)
    hit = np.int64(outcome != MISS)
    crit = np.int64(outcome == CRIT)
    points, pos, _ = damage_roll(rows, act, ms[j], dice, pos, w, w, 0, hit, crit, t.tvec[y, T_BOXES],
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
        w = t.prog_start[t.prog_index[x, c, k, charge]] + i
        if t.rows[w, A_ORIGIN] == ORIGIN_BOUGHT:
            if act[V_POINTS] < t.rows[w, A_COST]:
                break
            act[V_POINTS] -= t.rows[w, A_COST]
        j = first_standing(t, ms, y)
        pos, down = attack(t, ms, cols, ts, act, dice, pos, w, y, j, counters, tally, lasting)
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


class TradeState(NamedTuple):
    """A trial's state, allocated by the caller (:func:`new_state`) so that the kernel
    allocates nothing and runs without reference counting."""

    ms: np.ndarray        # int64[models, M_FIELDS]: every model's row (:mod:`.model_state`)
    cols: np.ndarray      # int64[models, columns]: a card's marked boxes, column by column
    ts: np.ndarray        # int64[G_FIELDS]: the target row the cripple step writes (unread)
    act: np.ndarray       # int64[V_FIELDS]: the acting model's points and policy
    standing: np.ndarray  # int64[M]: each entry's models standing
    alive: np.ndarray     # int64[2]: each side's entries standing
    tally: np.ndarray     # int64[1]: Tough saves (the Tough step's tally)


def new_state(t: TradeTables) -> TradeState:
    """A fresh :class:`TradeState` for the trade ``t`` (one per chunk run at a time)."""
    entries = t.tvec.shape[0]
    rows = int(t.first_row[-1] + t.n_models[-1])
    return TradeState(np.zeros((rows, M_FIELDS), dtype=np.int64),
                      np.zeros((rows, t.col_full.shape[1]), dtype=np.int64),
                      np.zeros(G_FIELDS, dtype=np.int64), np.zeros(V_FIELDS, dtype=np.int64),
                      np.zeros(entries, dtype=np.int64), np.zeros(2, dtype=np.int64),
                      np.zeros(1, dtype=np.int64))


@jit(nrt=False)
def trade_trials(n_trials, rs, dice, pos, size, max_draws, t, counters, state, lasting):
    """``n_trials`` trades on the dice buffer ``dice`` (refilled from the stream ``rs``),
    adding to one chunk's ``counters``, on the caller's ``state`` (:func:`new_state`).
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

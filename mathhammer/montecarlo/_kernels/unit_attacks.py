"""One attack slot against a unit or several targets, step by step (docs/activation.md, "One
attack, step by step"): the attack opened (its attacker's activation, a random rate of fire,
a slam's collateral damage roll, the target its route picks), then the steps of
:mod:`.attack_steps` against the model under attack (:mod:`.spill_over`), with Shield Guard,
a blast's other models and Shred's attacks again.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from ..._core.limits import MAX_SHRED
from ..._core.pairs import PAIR_SUM
from .attack_steps import (V_POINTS, V_SHOTS, after_hit, attack_roll, best_play_decides, damage_roll, decision,
                           knocks_and_still, pay_for_attack, start_activation)
from .dice import at_least, read_word, roll_stats
from .extra_steps import after_damage_roll, effect_lands, hit_at_once, rate_of_fire
from .layout import (A_ATTACKER, A_BLAST_DICE, A_BLAST_MISS, A_BLAST_MODELS, A_BLAST_POW, A_FLAGS, A_ORIGIN,
                     C_CRIT, C_HIT, C_MADE, C_SHRED, C_SPENT, CRIT, F_AFTER_ROLL, F_AT_ONCE, F_BLAST, F_COLLATERAL,
                     F_FIRST, F_GUARDABLE, F_KD_STOPS_TOUGH, F_ROF, F_SHRED, F_SLAMS,
                     HIT, HZ_QUICKSAND, MISS, ORIGIN_BOUGHT, PF_BEST, ST_PRONE, ST_SUSTAINED,
                     T_ATTACK_ROUNDS, T_BOXES, T_FIRST_MODEL, T_GUARDED_BY, T_HAZARDS, T_MODELS,
                     T_POWER_POLICY, T_SLOTS)
from .model_state import (G_CORTEX_LOST, G_DEAD, G_DESTROYED, G_EARTH, G_POINTS, M_ARM_MINUS, M_CONT,
                          M_EFFECTS, M_GONE, M_SHIELD, M_STATE)
from .play_lookup import field_key, target_digit
from .rolls import armor_of
from .round_end import effects_of_hit, quicksand, suffer_apart
from .spill_over import (ENDS, GOES_ON, R_G, R_CUR, R_PROW, R_SLAM, R_WOFF, R_ALIVE, enter,
                         first_standing, is_last, model_falls, shield_guard, switch_target, target_falls)
from .suffering import SRC_ATTACK, only_marks, suffer_marks

__all__ = ["open_attack", "open_attack_inline", "attack_rolls", "attack_lands", "one_basic_attack"]

# The steps one model's loop inlines (its hot path), compiled apart here and called: each
# inlined copy is typed and analysed again with its caller, which cost the units variant's
# first run more than these calls cost its trials. A knockdown in quicksand, rare, is called
# too: inlined, it cost the full variant's first run 0.7 s.
_decision = jit(nrt=False, helper=True)(decision.py_func)
_attack_roll = jit(nrt=False, helper=True)(attack_roll.py_func)
_damage_roll = jit(nrt=False, helper=True)(damage_roll.py_func)
_quicksand = jit(nrt=False, helper=True)(quicksand.py_func)


@jit(nrt=False, helper=True)
def open_attack(attacks, attackers, target, groups, routes, attack_counts, target_made, models, targets, act, run,
                dice, pos, i, t, shred, block, extra):
    """The attack about to be made in slot ``i`` of round ``t`` (``shred``: the Shred attacks
    made before it in its chain): its attacker's activation starting, a random rate of fire,
    a slam's collateral damage roll (only after the slam hit), and with several targets the
    first target of its route still standing (``block``: the attacks table's rows per
    target; ``extra``: None where no weapon has a random rate of fire). Returns ``(made,
    pos, w)``: the row of the weapon it is made with. It takes the few tables and counters it
    reads, not all of them: each array handed to a step compiled apart is a dozen values to
    pass at each call."""
    multi = routes.ndim > 1
    row = t * target[T_SLOTS] + i
    flags = attacks[i, A_FLAGS]
    if shred == 0 and (flags & (F_FIRST | F_ROF | F_SLAMS | F_COLLATERAL)) != 0:
        if flags & F_FIRST:
            start_activation(act, attackers, attacks[i, A_ATTACKER])
            if run[R_G] >= 0:  # the model under attack ends the activation's Sustained Attack
                models[run[R_CUR], M_STATE] &= ~ST_SUSTAINED
        if extra is not None and (flags & F_ROF) != 0:
            made, act[V_SHOTS], pos = rate_of_fire(dice, pos, attacks, i, act[V_SHOTS])
            if not made:
                return False, pos, np.int64(i)
            if not multi:  # made (several targets: counted below)
                attack_counts[row, C_MADE] += 1
        if multi and (flags & F_SLAMS) != 0:
            run[R_SLAM] = 0  # until it hits: it may not be made at all
        if multi and (flags & F_COLLATERAL) != 0:
            if run[R_SLAM] == 0:
                return False, pos, np.int64(i)
            run[R_SLAM] = 0
    w = np.int64(i) if shred == 0 else run[R_WOFF]
    if multi:
        routes = routes.reshape(routes.size)  # a view: no allocation
        n_targets = targets.shape[0]
        to = -1
        for k in range(n_targets):
            gg = routes[i * n_targets + k]
            if gg < 0:
                break
            if targets[gg, G_DEAD] == 0:
                to = gg
                break
        if to < 0:
            return False, pos, w  # none left: the attack is not made
        if to != run[R_G]:
            switch_target(models, targets, groups, run, to)
        w += run[R_G] * block
        if shred == 0 and attacks[w, A_ORIGIN] != ORIGIN_BOUGHT:
            attack_counts[row, C_MADE] += 1  # several targets: counted here
            target_made[row, run[R_G]] += 1
    if shred > 0:  # a Shred attack: made with the weapon of the last, at once
        attack_counts[row, C_SHRED] += 1
    else:
        run[R_PROW] = row
    return True, pos, w


@jit(nrt=False, helper=True)
def blast(tables, counters, models, targets, cols, orders, run, dice, pos, w, hit, dead, row, t, present, extra):
    """An AOE's other models (docs/units.md): after the damage roll on the model aimed at
    (``dead``: it was destroyed), each model of the unit it catches in order, a blast damage
    roll each; a miss catches the one aimed at too. Returns ``(status, pos)``: ``GOES_ON`` when
    the model hit stands for what the hit leaves."""
    attacks, groups, multi = tables.attacks, tables.groups, tables.routes.ndim > 1
    card = (tables.col_full, tables.letters_done, tables.letter_mask)
    counts = (counters.attack_counts, counters.kill_at, counters.cripple_delta, counters.effect_counts)
    play = (tables.play_keys, tables.play_columns, tables.play_index, tables.play_field)
    g, hit_model = run[R_G], run[R_CUR]
    ts, tg = targets[g], groups[g]
    flags = attacks[w, A_FLAGS]
    n_caught = attacks[w, A_BLAST_MODELS] if hit == 1 else attacks[w, A_BLAST_MISS]
    if dead:
        ts[G_DESTROYED] += 1
        models[hit_model, M_GONE] = 1
        dead = ts[G_DESTROYED] >= tg[T_MODELS]
    before = hit_model
    for j in range(hit_model, tg[T_FIRST_MODEL] + tg[T_MODELS]):
        if n_caught == 0 or dead:
            break
        if models[j, M_GONE] != 0 or (hit == 1 and j == hit_model):
            continue
        n_caught -= 1
        enter(models, ts, before, j)
        before = j
        ms = models[j]
        arm = armor_of(attacks, w, flags, ms[M_STATE], ms[M_ARM_MINUS], ms[M_SHIELD])
        n = attacks[w, A_BLAST_DICE]
        if n == 2:
            total = np.int64(PAIR_SUM[np.int64(dice[pos])])
            pos += 1
        else:
            total = roll_stats(read_word(dice, pos, n), n, np.int64(0))[0]
            pos += (n + 1) >> 1
        points = at_least(total + attacks[w, A_BLAST_POW] - arm, 0)
        last = ts[G_DESTROYED] + 1 >= tg[T_MODELS] and run[R_ALIVE] == 1
        if extra is None or only_marks(tg, ts):
            dead = suffer_marks(counters.attack_counts, counters.kill_at, tg[T_BOXES], ms, points, row, last)
        else:
            pos, dead = suffer_apart(tg, card, counts, play, ms, ts, cols[j], orders[j], dice, pos, attacks, w,
                                     points, row, t, np.int64(SRC_ATTACK), np.int64(0), run[R_PROW],
                                     np.bool_(False), present, last)
        if dead:
            ts[G_DESTROYED] += 1
            models[j, M_GONE] = 1
            dead = ts[G_DESTROYED] >= tg[T_MODELS]
    if dead:
        return target_falls(targets, run, counters.target_kills, t, multi), pos
    cur = first_standing(models, tg)  # the model hit, or when it is gone the next one
    enter(models, ts, before, cur)
    run[R_CUR] = cur
    return (GOES_ON if cur == hit_model else ENDS), pos


@jit(inline=True)
def decide_and_buy(tables, counters, models, targets, cols, act, run, i, t, w, shred, block, points_only, shots):
    """Best play's decisions for the attack of slot ``i`` with weapon row ``w`` against the
    model under attack, then a bought attack paid for (``block``: the attacks table's rows
    per target; ``shots``: a random rate of fire's roll, else 0). Returns ``(made, w, dec,
    key, m, spent)``: ``made`` False where the attack is not bought; the weapon row it is
    made with."""
    attacks, groups = tables.attacks, tables.groups
    multi = tables.routes.ndim > 1
    n_attacks = tables.target[T_SLOTS]
    row = t * n_attacks + i
    g, cur = run[R_G], run[R_CUR]
    dec, key, m = np.int64(0), np.int64(0), np.int64(-1)
    if best_play_decides(act):  # else no call: handing the tables over costs more than the rest
        dec, key, m = _decision(tables.play_keys, tables.play_columns, tables.play_index, tables.play_attack, act,
                                models[cur], targets[g], cols[cur], run[R_PROW], points_only,
                                groups[g, T_FIRST_MODEL] + targets[g, G_DESTROYED], shots, shred)
    spent = np.int64(0)
    if shred == 0 and attacks[w, A_ORIGIN] == ORIGIN_BOUGHT:
        made, w, prow, dec, spent = pay_for_attack(
            attacks, tables.play_attack, act, w, row, run[R_PROW], dec, key, m, t,
            tables.target[T_ATTACK_ROUNDS] * n_attacks, block - n_attacks, n_attacks, counters.attack_counts,
            g * block if multi else 0)
        if not made:
            return False, w, dec, key, m, spent
        run[R_PROW] = prow
        if multi:
            counters.target_made[row, g] += 1
    run[R_WOFF] = w - g * block if multi else w
    return True, w, dec, key, m, spent


@jit(inline=True)
def guarded(attacks, models, targets, groups, run, w, block, outcome, t):
    """With several targets, the attack roll's ``outcome`` read by the next slot (a slam's
    collateral damage roll is made only after a hit), and a hit a Shield Guard takes instead
    (it is then under attack: hit automatically, never critically). Returns ``(w,
    outcome)``: the weapon row against the model now under attack."""
    hit = np.int64(outcome != MISS)
    run[R_SLAM] = hit
    if (hit == 1 and (attacks[w, A_FLAGS] & F_GUARDABLE) != 0 and groups[run[R_G], T_GUARDED_BY] >= 0
            and shield_guard(models, targets, groups, run, t)):
        return run[R_G] * block + run[R_WOFF], np.int64(HIT)
    return w, outcome


@jit(inline=True)
def hit_counted(attack_counts, row, flags, hit, crit, shred, spent):
    """The attack's hit and critical hit counted at counter row ``row`` (a Shred attack's as
    a Shred attack, not again), and the points ``spent`` on it (bought, boosted). Returns
    whether its critical hit owes a Shred attack."""
    first = np.int64(shred == 0)
    attack_counts[row, C_HIT] += hit & first
    attack_counts[row, C_CRIT] += crit & first
    if spent:
        attack_counts[row, C_SPENT] += spent
    return crit == 1 and (flags & F_SHRED) != 0 and shred < MAX_SHRED


@jit(inline=True)
def attack_rolls(tables, counters, models, targets, cols, act, run, dice, pos, i, t, w, shred, block, points_only):
    """The first half of one attack of slot ``i`` with weapon row ``w`` against the model
    under attack (docs/activation.md, "One attack, step by step"): best play's decisions, a
    bought attack paid for, the attack roll, Shield Guard, the damage roll (``block``: the
    attacks table's rows per target). Returns ``(made, pos, w, outcome, points, again)``:
    ``made`` False where a bought attack is not made; ``again``, a Shred attack owed.

    The loop inlines it and :func:`attack_lands` side by side, not one step holding both:
    Numba copies an inlined step block by block with all its variables, so one large step
    costs a first run more than two halves."""
    attacks, groups, attack_counts = tables.attacks, tables.groups, counters.attack_counts
    row = t * tables.target[T_SLOTS] + i
    ms = models[run[R_CUR]]
    shots = act[V_SHOTS] * ((attacks[w, A_FLAGS] & F_ROF) != 0)
    made, w, dec, key, m, spent = decide_and_buy(tables, counters, models, targets, cols, act, run, i, t, w, shred,
                                                 block, points_only, shots)
    if not made:
        return False, pos, w, np.int64(MISS), np.int64(0), False
    outcome, pos, paid = _attack_roll(attacks, act, ms, dice, pos, w, row, dec, attack_counts, True)
    hit = np.int64(outcome != MISS)
    if tables.routes.ndim > 1:
        w, outcome = guarded(attacks, models, targets, groups, run, w, block, outcome, t)
        ms = models[run[R_CUR]]
    crit = np.int64(outcome == CRIT)
    flags = attacks[w, A_FLAGS]
    if (flags & F_AT_ONCE) != 0 and hit == 1:
        hit_at_once(ms, flags, crit)
    points, pos, boost = _damage_roll(attacks, act, ms, dice, pos, w, row, dec, hit, crit,
                                     groups[run[R_G], T_BOXES], attack_counts, True)
    if (flags & F_AFTER_ROLL) != 0 and hit == 1:
        after_damage_roll(attacks, w, ms, flags, crit, outcome)
    again = hit_counted(attack_counts, row, flags, hit, crit, shred, spent + paid + boost)
    return True, pos, w, outcome, points, again


@jit(inline=True)
def attack_lands(tables, counters, models, targets, cols, orders, act, run, dice, pos, i, t, w, shred, present,
                 points_only, continuous, lasting, outcome, points, again):
    """The second half of the attack :func:`attack_rolls` made (its ``outcome``, the
    ``points`` of its damage roll, ``again``: a Shred attack owed): the points suffered (a
    blast's other models after), what the hit leaves. Returns ``(pos, status)``."""
    attacks, groups, attack_counts = tables.attacks, tables.groups, counters.attack_counts
    multi = tables.routes.ndim > 1
    row = t * tables.target[T_SLOTS] + i
    g, cur = run[R_G], run[R_CUR]
    ms, ts, tg = models[cur], targets[g], groups[g]
    hit, crit = np.int64(outcome != MISS), np.int64(outcome == CRIT)
    flags = attacks[w, A_FLAGS]
    shred_after = shred + 1 if again else 0
    knocks, still = knocks_and_still(flags, hit, crit)
    destroyed = tg[T_FIRST_MODEL] + ts[G_DESTROYED]
    field_best = tg[T_POWER_POLICY] == PF_BEST
    fkey = np.int64(0)
    if field_best and ts[G_POINTS] > 0 and points > 0:
        fkey = field_key(tables.play_keys, points_only, act[V_POINTS], target_digit(tables.play_keys, ts),
                         ts[G_CORTEX_LOST] != 0,
                         ts[G_EARTH] != 0, ms[M_STATE], ms[M_EFFECTS], ms[M_CONT], attacks, w, flags, hit,
                         crit, outcome, knocks, still, act[V_SHOTS], destroyed, shred_after)
    card = (tables.col_full, tables.letters_done, tables.letter_mask)
    counts = (attack_counts, counters.kill_at, counters.cripple_delta, counters.effect_counts)
    play = (tables.play_keys, tables.play_columns, tables.play_index, tables.play_field)
    if only_marks(tg, ts):
        dead = suffer_marks(attack_counts, counters.kill_at, tg[T_BOXES], ms, points, row,
                            is_last(targets, groups, run))
    else:
        pos, dead = suffer_apart(tg, card, counts, play, ms, ts, cols[cur], orders[cur], dice, pos, attacks, w,
                                 points, row, t, np.int64(SRC_ATTACK), fkey, run[R_PROW],
                                 (flags & F_KD_STOPS_TOUGH) != 0 and knocks == 1,
                                 present, is_last(targets, groups, run))
    if (flags & F_BLAST) != 0 and (attacks[w, A_BLAST_MODELS] if hit == 1 else attacks[w, A_BLAST_MISS]) > 0:
        status, pos = blast(tables, counters, models, targets, cols, orders, run, dice, pos, w, hit, dead,
                            row, t, present, True)
        if status != GOES_ON:
            return pos, status
    elif dead:
        return pos, model_falls(models, targets, groups, run, counters.target_kills, t, multi)
    # what the hit leaves for the next attacks (docs/rules.md 4, 5, 9)
    quick = False
    if lasting is not None and continuous:
        effects_of_hit(ms, flags, hit, crit)
        quick = ((tables.target[T_HAZARDS] & HZ_QUICKSAND) != 0 and knocks == 1
                 and (ms[M_STATE] & ST_PRONE) == 0)
    after_hit(attacks, w, ms, hit, crit)
    effect_lands(attacks, w, ms, outcome)
    if lasting is not None and quick:
        pos, dead = _quicksand(tg, card, counts, play, ms, ts, cols[cur], orders[cur], dice, pos, attacks, row,
                               t, run[R_PROW], points_only, field_best, act[V_POINTS],
                               act[V_SHOTS] * ((flags & F_ROF) != 0), present, destroyed, np.int64(shred_after),
                               is_last(targets, groups, run))
        if dead:
            return pos, model_falls(models, targets, groups, run, counters.target_kills, t, multi)
    return pos, GOES_ON


#: :func:`open_attack` inlined, for the units_basic variant (``extra`` None: no rate of fire).
open_attack_inline = jit(inline=True)(open_attack.py_func)
_model_falls = jit(inline=True)(model_falls.py_func)


@jit(inline=True)
def one_basic_attack(tables, counters, models, targets, cols, orders, act, run, dice, pos, i, t, w, shred, block,
                     present, points_only):
    """One attack (:func:`attack_rolls` then :func:`attack_lands`) where the scenario has none
    of the rules the basic variant leaves out (:data:`.variant.EXTRA_FLAGS`, a target's
    power field, Tough, Rapid Healing, a card): the same steps with the rolls, the marking and
    a model's fall inlined, no call on a model's attack but best play's decision and a bought
    attack's payment. The units loop's time went to those calls (each array handed over is
    many values passed, and the loop's own values go to the stack and back around each
    call). Returns ``(pos, status, again)``."""
    attacks, groups, attack_counts = tables.attacks, tables.groups, counters.attack_counts
    multi = tables.routes.ndim > 1
    row = t * tables.target[T_SLOTS] + i
    made, w, dec, key, m, spent = decide_and_buy(tables, counters, models, targets, cols, act, run, i, t, w, shred,
                                                 block, points_only, np.int64(0))
    if not made:
        return pos, ENDS, False
    ms = models[run[R_CUR]]
    outcome, pos, paid = attack_roll(attacks, act, ms, dice, pos, w, row, dec, attack_counts)
    hit = np.int64(outcome != MISS)
    if multi:
        w, outcome = guarded(attacks, models, targets, groups, run, w, block, outcome, t)
        ms = models[run[R_CUR]]
    crit = np.int64(outcome == CRIT)
    flags, tg = attacks[w, A_FLAGS], groups[run[R_G]]
    points, pos, boost = damage_roll(attacks, act, ms, dice, pos, w, row, dec, hit, crit, tg[T_BOXES],
                                     attack_counts)
    again = hit_counted(attack_counts, row, flags, hit, crit, shred, spent + paid + boost)
    dead = suffer_marks(attack_counts, counters.kill_at, tg[T_BOXES], ms, points, row,
                        is_last(targets, groups, run))
    if (flags & F_BLAST) != 0 and (attacks[w, A_BLAST_MODELS] if hit == 1 else attacks[w, A_BLAST_MISS]) > 0:
        status, pos = blast(tables, counters, models, targets, cols, orders, run, dice, pos, w, hit, dead,
                            row, t, present, None)
        if status != GOES_ON:
            return pos, status, again
    elif dead:
        return pos, _model_falls(models, targets, groups, run, counters.target_kills, t, multi), again
    after_hit(attacks, w, ms, hit, crit)
    return pos, GOES_ON, again

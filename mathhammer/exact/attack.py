"""One attack, step by step (docs/activation.md "One attack, step by step"), as a set of edges.

Given a :class:`~mathhammer.exact.state.State` before attack ``i``, :func:`attack_edges`
lists every way the attack can end, vectorised over the damage already marked ``m``: a
:class:`~mathhammer.exact.edges.Piece` holds, for many ``m`` at once, the probability of
one outcome, the damage marked after it, the state after it (or ``None``: the target was
killed) and what the attack counted (the ``SLOT_*`` columns of
:class:`~mathhammer.result.Result`). On a grid or spiral ``m`` is the index of a
configuration of the card (see :mod:`~mathhammer.exact.card`), and the column roll,
crippling and its feedback on the target are more branches of the same tree.

This module reads steps 1 to 3 and 6 (buying, the attack roll, the hit and its effects);
the damage roll and what follows it are :class:`~mathhammer.exact.damage.DamageRoll`'s, and
a knockdown in quicksand is :func:`~mathhammer.exact.suffering.quicksand`'s.

The same edges serve forward propagation (push probability along them) and backward
induction (pull values back along them), so both follow one reading of the rules.

Decisions
---------
Four things are decided during an attack: buying it (bought attacks, and with which melee
weapon when best play may choose: :attr:`Setup.alternatives`), a paid attack boost,
a paid damage boost (after the attack roll) and the target's power field (after the damage
roll). :class:`~mathhammer.exact.choices.Decisions` says who decides how: the attackers' fixed
``spend`` policies or their best play, and the target's ``power_field`` policy. A decision
made by looking ahead (:func:`~mathhammer.exact.choices.choose`) compares the value of each
option's edges under ``Decisions.value`` (the value of the states after this attack, compared
figure by figure as :mod:`~mathhammer.exact.chain` says) and keeps, per ``m`` (or per ``m``
and damage roll for the target), the edges of the preferred option; on a tie the first
option listed (the cheaper one) is kept.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .._core.limits import MAX_ARM_STACK, MAX_ICE_STACKS, MAX_SHRED
from ..rules.weapon import rof_odds
from . import rolls
from .blast import blast
from .damage import DamageRoll
from .choices import Decisions, choose
from .edges import BySource, Piece, slot_counts
from .setup import Setup
from .state import SlotInfo, State
from .suffering import in_quicksand, quicksand

__all__ = ["attack_edges", "shared_volley", "critical_counts_as_hit"]


# --------------------------------------------------------------------------------- the attack
def attack_edges(setup: Setup, i: int, state: State, dec: Decisions, m: np.ndarray | None = None) -> list[Piece]:
    """Every outcome of attack ``i`` from ``state``, for every damage marked (step 1: buying).

    Parameters
    ----------
    m : ndarray, optional
        Sorted, distinct damage marked (card configurations) to start from; every damage
        marked of a track by default.

    Returns pieces whose probabilities sum to 1 for each ``m``.
    """
    info = setup.slots[i]
    if m is None:
        m = setup.marks
    if state.shred:
        # a Shred attack (docs/rules.md 5): the same weapon's attack again, at once, neither
        # bought nor counted in a volley; its boosts on the row of that weapon
        info = setup.shred_info(i, state)
        dec = dec if info.row == i else dataclasses.replace(dec, row=info.row)
        return [pc.as_shred() for pc in _attack(setup, info, state, m, 0, dec, BySource(m))]
    if info.rof is not None:
        # a random rate of fire (docs/rules.md 5): rolled before its first attack, which is
        # always made; a later one is made while its number is below the roll
        if info.slot.number == 0:
            if dec.looks_ahead:  # the attacker decides knowing how many shots it has
                return [pc.scaled(q) for k, q in rof_odds(info.rof)
                        for pc in _made(setup, info, state._replace(shots=k), dec, m)]
            made = _made(setup, info, state._replace(shots=1), dec, m)  # alike for every roll
            return [pc.scaled(q).with_shots(k) for k, q in rof_odds(info.rof) for pc in made]
        if info.slot.number >= state.shots:
            return [Piece(state, m, m, np.ones(m.size), slot_counts({}))]
    return _made(setup, info, state, dec, m)


def shared_volley(setup: Setup, i: int, state: State) -> State | None:
    """The state whose edges attack ``i`` shares from ``state``, or None: a later attack of
    a random rate of fire, made (the roll allowed it), has the same edges whatever the roll
    allowed beyond it, but for the number carried on (:attr:`State.shots`); the state with
    the fewest shots that makes it stands for them all. Not with look-ahead: a player who
    knows how many shots are left decides otherwise."""
    info = setup.slots[i]
    if info.rof is None or info.slot.number == 0 or state.shred or state.shots <= info.slot.number:
        return None
    return state._replace(shots=info.slot.number + 1)


def _made(setup: Setup, info: SlotInfo, state: State, dec: Decisions, m: np.ndarray) -> list[Piece]:
    """Attack ``info`` as made (or, a bought one, as bought or not)."""
    by_src = BySource(m)
    if not info.slot.bought:
        return _attack(setup, info, state, m, 0, dec, by_src)
    idle = [Piece(state, m, m, np.ones(m.size), slot_counts({}))]
    cost = info.slot.cost
    if state.points < cost:  # not enough left to pay with: not made
        return idle
    bought = _attack(setup, info, state, m, cost, dec, by_src)
    if not dec.plays_best(info.slot.attacker_index):
        return bought
    # not buying this one ends the attacker's buying (its bought attacks are its last and
    # alike: stopping now and buying later would be the same attacks counted elsewhere); not
    # casting a spell skips that cast only
    stop = [Piece(state._replace(points=0), m, m, np.ones(m.size), slot_counts({}))] if info.slot.stops else idle
    # with which weapon: the slot's, or another melee weapon (recorded on its own row)
    others = [_attack(setup, alt, state, m, cost, dataclasses.replace(dec, row=alt.row), by_src)
              for alt in setup.alternatives[info.index]]
    by = dec.attacker(info.slot.attacker_index)
    return choose([stop, bought, *others], by_src, m.size, dec, by, what="buy", context=(state,), groups=m)


def _attack(setup: Setup, info: SlotInfo, state: State, m: np.ndarray, buy: int,
            dec: Decisions, by_src: BySource) -> list[Piece]:
    """Step 2, the attack roll (with its paid boost and reroll), then the hit."""
    w = info.weapon
    points = state.points - buy
    sustained = state.sustained and w.has_rule("sustained_attack")
    if w.auto_hit or sustained or (w.type == "melee" and (state.down or state.still)):
        # Automatic hit (the weapon's, its Sustained Attack's, or melee on a still target):
        # no roll, no boost, never critical.
        return _hit(setup, info, state, m, False, points, buy, 0, dec, by_src)
    need = setup.defense(info, state) - info.skill
    # a paid boost must add a die: not with a free boost, nor when the floor of one die
    # would swallow it (docs/activation.md step 2)
    can_pay = not info.slot.free_attack_boost and info.slot.attack_dice >= 1
    spend = info.attacker.spend
    if dec.plays_best(info.slot.attacker_index):
        options = [0, 1] if can_pay and points > 0 else [0]
    else:
        options = [int(can_pay and points > spend.reserve and spend.boosts_attack(need))]
    trees = []
    sc = setup.scenario
    modifiers = ("jump_the_shark" in w.rules, "sanguine_fate" in w.rules, sc.crit_counts_discarded,
                 sc.single_die_one_misses)
    for paid in options:
        n = setup.attack_dice(info, paid)
        miss, plain, crit = rolls.attack_roll(n, w.attack_discard, need, "reroll_attack" in w.rules, *modifiers)
        left = points - paid
        pieces = []
        if miss:  # a Shred chain ends here
            wide = [Piece(state._replace(points=left, shred=0, shred_alt=0), m, m, np.full(m.size, miss),
                          slot_counts({"made": 1, "boost_attack": paid, "spent": buy + paid}))]
            pieces += blast(setup, info, wide, missed=True)  # an AOE that deviates
        made = {}  # a plain hit's edges, by what they depend on, its chance and where they lie
        guarded = state.blocks > 0 and w.type == "ranged"  # Shield Guard may block the hit
        for q, critical in ((plain, False), (crit, True)):
            if not q:
                continue
            hit = _hit_of(setup, info, state, critical, left, buy + paid, paid, dec)
            key = None if guarded else _alike(setup, info, state, critical, left, dec, hit)
            if key is not None and key in made:
                # a critical hit that only counts as one: the plain hit's edges stand for
                # both, counting the share of critical hits among them
                edges, q_plain, at = made[key]
                both = q_plain + q
                pieces[at: at + len(edges)] = [pc.scaled(both).as_critical(q / both) for pc in edges]
                continue
            edges = _hit(setup, info, state, m, critical, left, buy + paid, paid, dec, by_src, hit)
            if guarded:
                edges = _block(state, m, critical, left, buy, paid, edges, dec, by_src)
            if key is not None:
                made[key] = (edges, q, len(pieces))
            pieces += [pc.scaled(q) for pc in edges]
        trees.append(pieces)
    by = dec.attacker(info.slot.attacker_index) if len(trees) > 1 else None
    return choose(trees, by_src, m.size, dec, by, what="boost_attack", context=(state, buy), groups=m)


def _block(state: State, m: np.ndarray, critical: bool, points: int, buy: int, paid: int, edges: list[Piece],
           dec: Decisions, by_src: BySource) -> list[Piece]:
    """Shield Guard as blocks (docs/rules.md 9): the target's side blocks the hit or not, as
    it prefers by looking ahead, knowing the attack roll (a critical hit or not) and before
    the damage roll. A blocked hit counts as a hit (a critical one too) and leaves the
    target as it was: no damage roll, no effect of the hit, no Shred attack; one block fewer."""
    counts = slot_counts({"made": 1, "hit": 1, "crit": int(critical), "boost_attack": paid, "spent": buy + paid})
    left = state._replace(points=points, shred=0, shred_alt=0, blocks=state.blocks - 1)
    blocked = [Piece(left, m, m, np.ones(m.size), counts, np.zeros(m.size, dtype=np.int64))]
    return choose([edges, blocked], by_src, m.size, dec, dec.target, what="block",
                  context=(state, buy, paid, critical), groups=m)


def _alike(setup: Setup, info: SlotInfo, state: State, critical: bool, points: int, dec: Decisions, hit: tuple):
    """What the edges of a hit depend on besides its being counted critical, or None where
    they are not to be shared: the attacker's damage boost decided by looking ahead is
    recorded per hit, plain or critical.

    A critical hit whose key is an ordinary hit's has the same edges (the same state after
    it, the same damage roll), only counted as critical: built once, as the plain hit's
    edges with the share of critical hits among them counted. The target's power field
    decides on the state after the hit and the damage rolled, which such a critical hit
    shares: its decisions are the plain hit's. ``hit``: its :func:`_hit_of`."""
    if dec.looks_ahead and _decides_damage_boost(setup, info, points, dec.plays_best(info.slot.attacker_index)):
        return None
    return _hit_key(setup, info, state, critical, hit)


def _hit_key(setup: Setup, info: SlotInfo, state: State, critical: bool, hit: tuple) -> tuple:
    """What the edges of a hit (``hit``: its :func:`_hit_of`) depend on besides its being
    counted critical: the state after it and its damage roll."""
    after, _, roll = hit
    if roll is None:
        return after, in_quicksand(setup, info, state, critical)
    return after, roll.shift, roll.dice, roll.tough, roll.heals, roll.quick, roll.table_args


def _hit_of(setup: Setup, info: SlotInfo, state: State, critical: bool, points: int, spent: int,
            paid_attack: int, dec: Decisions | None) -> tuple:
    """A hit before its edges: the state after it (:func:`_after`), what it counts, and its
    damage roll (None: the weapon deals no damage)."""
    after = _after(setup, info, state, critical, points)
    base = {"made": 1, "hit": 1, "crit": int(critical), "boost_attack": paid_attack, "spent": spent}
    roll = None if info.pow is None else DamageRoll(setup, info, state, after, critical, base, dec)
    return after, base, roll


def critical_counts_as_hit(setup: Setup, info: SlotInfo, state: State, points: int, plays_best: bool) -> bool:
    """Whether backward induction builds a critical hit of attack ``info`` from ``state``
    (``points`` left after its attack boost) as the plain hit's edges, none of its own: the
    same state after it and the same damage roll, and no damage boost that best play
    (``plays_best``: the attacker's) decides looking ahead. What the estimate of its work
    (:mod:`.induction_work`) counts once."""
    if _decides_damage_boost(setup, info, points, plays_best):
        return False
    keys = [_hit_key(setup, info, state, critical, _hit_of(setup, info, state, critical, points, 0, 0, None))
            for critical in (False, True)]
    return keys[0] == keys[1]


def _decides_damage_boost(setup: Setup, info: SlotInfo, points: int, plays_best: bool) -> bool:
    """Whether the attacker decides whether to boost this hit's damage roll (where it plays
    best, ``plays_best``): a point left, no free boost, and a die the boost adds (as
    :func:`_hit` asks)."""
    return (info.pow is not None and plays_best and points > 0
            and not info.slot.free_damage_boost and setup.damage_dice(info, True) >= 1)


def _after(setup: Setup, info: SlotInfo, state: State, critical: bool, points: int) -> State:
    """The state after a hit (critical or not): Dispel and Grievous Wounds at once, then
    knockdown, stationary and the weapon's -DEF / -ARM effect for the next attacks."""
    w = info.weapon
    effects, arm_extra = state.effects, state.arm_extra
    if w.has_effect and (w.effect_on == "hit" or critical):
        if info.ident in effects and w.arm_minus and setup.scenario.arm_minus_stacks_same_weapon:
            arm_extra = min(MAX_ARM_STACK, arm_extra + w.arm_minus)  # its -ARM landing again
        effects = effects | {info.ident}
    ice = min(MAX_ICE_STACKS, state.ice + int(w.triggers("ice_cage", critical)))  # Ice Cage: stationary from two
    # Shred: a critical hit owes one more attack with the weapon (none past the chain's last)
    shred = state.shred + 1 if critical and "shred" in w.rules and state.shred < MAX_SHRED else 0
    return state._replace(
        down=state.down or w.triggers("knockdown", critical),
        still=state.still or w.triggers("stationary", critical) or ice >= 2,
        ice=ice,
        paralyzed=state.paralyzed or w.triggers("paralysis", critical),
        sustained=state.sustained or w.triggers("sustained_attack", critical),
        dispelled=state.dispelled or (w.triggers("dispel", critical) and setup.dispellable),
        grievous=state.grievous or (w.triggers("grievous_wounds", critical) and setup.woundable),
        effects=effects,
        arm_extra=arm_extra,
        shred=shred,
        shred_alt=setup.shred_number(info) if shred else 0,
        points=points,
        cont=state.cont | setup.sets_bits(w, critical),  # continuous effects (docs/rules.md 4)
    )


def _hit(setup: Setup, info: SlotInfo, state: State, m: np.ndarray, critical: bool, points: int,
         spent: int, paid_attack: int, dec: Decisions, by_src: BySource, hit: tuple | None = None) -> list[Piece]:
    """Steps 3, 4 and 6 for a hit: the state after it (:func:`_after`), then the damage roll
    (``hit``: its :func:`_hit_of`, when already made)."""
    w = info.weapon
    after, base, roll = hit or _hit_of(setup, info, state, critical, points, spent, paid_attack, dec)
    if info.pow is None:
        pieces = [Piece(after, m, m, np.ones(m.size), slot_counts(base))]
        if in_quicksand(setup, info, state, critical):
            pieces = quicksand(setup, info, pieces, dec)
        return blast(setup, info, pieces, missed=False)
    spend = info.attacker.spend
    free = info.slot.free_damage_boost
    adds_die = setup.damage_dice(info, critical, state) >= 1
    best = dec.plays_best(info.slot.attacker_index)
    if free or not adds_die or not (points > (0 if best else spend.reserve)):
        return roll.edges(m, 0)
    if best:
        # the state before the attack, bought or not, the attack boost paid, critical or not
        context = (state, spent - paid_attack, paid_attack, critical)
        by = dec.attacker(info.slot.attacker_index)
        return choose([roll.edges(m, 0), roll.edges(m, 1)], by_src, m.size, dec, by, what="boost_damage",
                      context=context, groups=m)
    if spend.boost_damage == "never":
        return roll.edges(m, 0)
    if spend.boost_damage == "always":
        return roll.edges(m, 1)
    # auto: the smallest unboosted roll could leave the target standing, and the largest
    # boosted roll deals damage.
    dice = setup.damage_dice(info, critical, state)
    discard = w.damage_discard
    kept_plain = rolls.kept_count(max(1, dice), discard)
    kept_boosted = rolls.kept_count(max(1, dice + 1), discard)
    remaining = setup.remaining(m)
    boost = (kept_plain + roll.shift < remaining) & (6 * kept_boosted + roll.shift > 0)
    return roll.edges(m[~boost], 0) + roll.edges(m[boost], 1)

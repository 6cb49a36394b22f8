"""The state an attack sequence carries from attack to attack, and the figures that never change.

docs/activation.md "State carried from attack to attack": damage marked, knocked down,
stationary, upkeep spells dispelled, Grievous Wounds, the active -DEF / -ARM effects, the
target's focus or fury left and the current attacker's points left. The engine keeps the
damage marked as the index of a vector (``0 .. boxes - 1`` while the target stands) and
everything else in a hashable :class:`State`, so that one NumPy operation moves every
amount of damage at once.

:class:`Setup` reads a :class:`~mathhammer.rules.Scenario` once: per attack, the numbers
its rolls use (skill and POW with the combined-attack bonus, the charge, the weapon), and
for the target, its DEF and ARM against each attack given a :class:`State`.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import NamedTuple

import numpy as np

from ..errors import ExactNotApplicable, InputError
from ..rules import Attacker, AttackSlot, Scenario, Weapon
from . import rolls

__all__ = ["State", "SlotInfo", "Setup", "optimal_slots", "prepare", "check_exact_applicable",
           "needs_induction", "MAX_STATES", "MAX_WORK", "MAX_INDUCTION_SLOTS"]

#: Most states (damage marked x every other part of :class:`State` it may reach) the engine
#: accepts: beyond it a run would take minutes and gigabytes.
MAX_STATES = 2_000_000

#: Most states x attacks: the work of one forward pass is about proportional to it (the
#: bound is loose: most scenarios reach far fewer states than it counts).
MAX_WORK = 200_000_000

#: Most attacks in one sequence when a decision is found by backward induction (the values
#: are computed recursively, one level per attack).
MAX_INDUCTION_SLOTS = 200

#: Target states that make its base DEF 5 and melee attacks against it hit automatically,
#: other than being knocked down (which also stops Tough).
_STILL = frozenset({"stationary", "inert", "wild", "building"})


class State(NamedTuple):
    """Everything but the damage marked that the rest of the sequence depends on."""

    down: bool  #: knocked down (base DEF 5, melee auto-hit, no Tough roll unless Steady)
    still: bool  #: stationary, inert, wild or a building (base DEF 5, melee auto-hit)
    dispelled: bool  #: upkeep spells ended by Dispel
    grievous: bool  #: Grievous Wounds: no Tough, no healing
    effects: frozenset  #: (attacker index, weapon index) of each active -DEF / -ARM effect
    target_points: int  #: focus or fury the target has left for its power field
    points: int  #: focus, fury or forcing the current attacker has left


@dataclass(frozen=True)
class SlotInfo:
    """One attack of the sequence with the numbers its rolls use."""

    slot: AttackSlot
    first: bool  #: the first attack of its attacker: its points are reset to full here
    skill: int  #: MAT / RAT + combined-attack bonus
    pow: int | None  #: POW + combined-attack bonus, None for POW "-"

    @property
    def weapon(self) -> Weapon:
        return self.slot.weapon

    @property
    def attacker(self) -> Attacker:
        return self.slot.attacker

    @property
    def ident(self) -> tuple[str, int, int]:
        """Which -DEF / -ARM effect this is: (weapon name, -DEF, -ARM). Same-named effects do
        not stack, so like weapons of different attackers share it (docs/activation.md 6)."""
        w = self.slot.weapon
        return (w.name, w.def_minus, w.arm_minus)

    @property
    def signature(self) -> tuple:
        """Everything one attack's outcome tree depends on besides the state: attacks with
        equal signatures (the same weapon of like attackers) share their cached tree."""
        a = self.attacker
        ident = self.ident if self.weapon.has_effect else None
        return (self.weapon, a.spend, a.combined_bonus, self.slot.bought, self.slot.charge, ident)


def optimal_slots(scenario: Scenario) -> tuple[AttackSlot, ...]:
    """The attacks of :func:`~mathhammer.exact.optimal_value`: each attacker's initial attacks,
    then one bought attack per point with its bought weapon whatever its ``spend`` says
    (it decides at each one whether to buy it)."""
    out = []
    for ai, a in enumerate(scenario.attackers):
        charge = a.charge_weapon_index
        for wi, w in enumerate(a.weapons):
            out.extend(AttackSlot(ai, wi, k, a, w, charge=(wi == charge and k == 0)) for k in range(w.attacks))
        bought = a.bought_weapon
        if bought is not None:
            wi = a.weapons.index(bought)
            out.extend(AttackSlot(ai, wi, k, a, bought, bought=True) for k in range(a.points))
    return tuple(out)


class Setup:
    """What the engine reads from a scenario once.

    Parameters
    ----------
    scenario : Scenario
    slots : sequence of AttackSlot, optional
        The attacks; :meth:`Scenario.attack_sequence` by default.
    """

    def __init__(self, scenario: Scenario, slots=None):
        self.scenario = scenario
        self.target = t = scenario.target
        slots = tuple(scenario.attack_sequence() if slots is None else slots)
        infos = []
        for i, s in enumerate(slots):
            bonus = s.attacker.combined_bonus
            first = i == 0 or slots[i - 1].attacker_index != s.attacker_index
            infos.append(SlotInfo(s, first, s.weapon.skill + bonus,
                                  None if s.weapon.pow is None else s.weapon.pow + bonus))
        self.slots: tuple[SlotInfo, ...] = tuple(infos)
        self.boxes = int(t.boxes)
        self.marks = np.arange(self.boxes)
        self.tough = bool(t.rules & {"tough", "tough_steady"})
        self.steady = "tough_steady" in t.rules
        self.rapid_healing = int(t.rapid_healing)
        #: Whether Dispel / Grievous Wounds can change anything (if not, the state ignores them).
        self.dispellable = bool(t.upkeep_def or t.upkeep_arm)
        self.woundable = self.tough or self.rapid_healing > 0
        self.power_kind = t.power_kind  # "focus", "fury" or None (none, or inert / wild)
        self.field = t.power_field if self.power_kind else "never"
        #: -DEF / -ARM of each weapon that has an effect, by identity.
        self.minus = {info.ident: (info.weapon.def_minus, info.weapon.arm_minus)
                      for info in self.slots if info.weapon.has_effect}
        first_points = slots[0].attacker.points if slots else 0
        self.start = State(
            down="knocked_down" in t.state,
            still=bool(t.state & _STILL),
            dispelled=False,
            grievous=False,
            effects=frozenset(),
            target_points=t.power_points,
            points=first_points,
        )

    @property
    def n(self) -> int:
        return len(self.slots)

    def enter(self, i: int, state: State) -> State:
        """``state`` as attack ``i`` finds it: an attacker starts with all of its points,
        and what the previous one left is lost. Past the last attack, points are dropped."""
        if i >= self.n:
            return state._replace(points=0) if state.points else state
        info = self.slots[i]
        if info.first and state.points != info.attacker.points:
            return state._replace(points=info.attacker.points)
        return state

    def defense(self, info: SlotInfo, state: State) -> int:
        """``DEF = base + terrain + spells - effects`` against this attack (step 2)."""
        t, w = self.target, info.weapon
        d = t.defense_against(w.type, base_def_5=state.down or state.still)
        if "blessed" not in w.rules:
            d += t.spell_def + (0 if state.dispelled else t.upkeep_def)
        return d - sum(self.minus[e][0] for e in state.effects)

    def armor(self, info: SlotInfo, dispelled: bool, effects: frozenset) -> int:
        """ARM against this attack's damage roll (step 4); not floored at 0."""
        t, w = self.target, info.weapon
        arm = t.base_arm("armor_piercing" in w.rules) + t.arm_modifier(w.type)
        if "blessed" not in w.rules:
            arm += t.spell_arm + (0 if dispelled else t.upkeep_arm)
        if "chain_weapon" not in w.rules:
            arm += t.shield_arm
        return arm - sum(self.minus[e][1] for e in effects)

    def damage_dice(self, info: SlotInfo, critical: bool) -> int:
        """Damage dice before a paid boost (may be below one; the roll has at least one)."""
        w, t = info.weapon, self.target
        brutal = "brutal_damage" in w.rules and (critical or self.scenario.brutal_damage == "hit")
        return (2 + int(w.boosted_damage or info.slot.charge) + int("weapon_master" in w.rules)
                + w.extra_damage_dice - int(w.crippled) - int(bool(w.damage_types & t.resist))
                + int(brutal))

    def attack_dice(self, info: SlotInfo, paid: int) -> int:
        """Attack dice with ``paid`` paid boosts (0 or 1)."""
        w = info.weapon
        return max(1, 2 + int(w.boosted_attack) + paid + w.extra_attack_dice - int(w.crippled))

    def state_bound(self) -> int:
        """Upper bound on the states the sequence may reach (damage marked included)."""
        weapons = [info.weapon for info in self.slots]
        t = self.target

        def any_rule(*names):
            return any(w.rules & set(names) for w in weapons)

        down = 2 if (any_rule("knockdown", "critical_knockdown") or self.tough) else 1
        still = 2 if any_rule("stationary", "critical_stationary") else 1
        dispelled = 2 if any_rule("dispel") and self.dispellable else 1
        grievous = 2 if any_rule("grievous_wounds") and self.woundable else 1
        effects = 2 ** len(self.minus)
        target_points = t.power_points + 1
        points = max((info.attacker.points for info in self.slots), default=0) + 1
        return prod((down, still, dispelled, grievous, effects, target_points, points, self.boxes))


def prepare(scenario: Scenario, slots=None, induction: bool = False) -> Setup:
    """The :class:`Setup` of ``scenario``, once :func:`check_exact_applicable` passes.

    ``slots`` replaces the scenario's attack sequence (:func:`optimal_slots`);
    ``induction``: decisions will be found by backward induction.
    """
    if not isinstance(scenario, Scenario):
        raise InputError("scenario", type(scenario).__name__, "must be a mathhammer.Scenario")
    setup = Setup(scenario, slots)
    for info in setup.slots:
        points = info.attacker.points > 0
        w = info.weapon
        attack = setup.attack_dice(info, int(points and not w.boosted_attack))
        damage = 0
        if w.deals_damage:
            free = w.boosted_damage or info.slot.charge
            damage = setup.damage_dice(info, True) + int(points and not free)
        if max(attack, damage) > rolls.MAX_DICE:
            raise ExactNotApplicable(
                f"{info.slot.label}: more than {rolls.MAX_DICE} dice in one roll is not supported "
                "by the exact engine")
    states = setup.state_bound()
    if states > MAX_STATES:
        raise ExactNotApplicable(
            f"up to {states:,} states (damage marked x situation x effects x points) exceed the "
            f"exact engine's limit of {MAX_STATES:,}: use the Monte Carlo method")
    if states * setup.n > MAX_WORK:
        raise ExactNotApplicable(
            f"up to {states:,} states over {setup.n} attacks exceed the exact engine's limit of "
            f"{MAX_WORK:,} state-attacks: use the Monte Carlo method")
    if induction and setup.n > MAX_INDUCTION_SLOTS:
        raise ExactNotApplicable(
            f"{setup.n} attacks exceed the {MAX_INDUCTION_SLOTS} that the exact engine's backward "
            "induction handles")
    return setup


def check_exact_applicable(scenario: Scenario) -> None:
    """Raise :class:`~mathhammer.errors.ExactNotApplicable` if :func:`exact_result
    <mathhammer.exact.exact_result>` cannot compute ``scenario``.

    Every rule of docs/activation.md on a damage track is computed. Refused: a roll of more
    than :data:`~mathhammer.exact.rolls.MAX_DICE` dice (never, within the rules model's
    bounds), more than :data:`MAX_STATES` states (damage marked times every situation,
    set of effects and points the sequence may reach) or :data:`MAX_WORK` states times
    attacks, and, for a target whose power field
    is ``"optimal"`` (backward induction), more than :data:`MAX_INDUCTION_SLOTS` attacks.

    Raises
    ------
    InputError
        ``scenario`` is not a :class:`~mathhammer.rules.Scenario`.
    ExactNotApplicable
        The scenario is beyond the engine; the message says why, in one line.

    Examples
    --------
    >>> check_exact_applicable("not a scenario")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: scenario: must be a mathhammer.Scenario (got 'str')
    """
    if not isinstance(scenario, Scenario):
        raise InputError("scenario", type(scenario).__name__, "must be a mathhammer.Scenario")
    prepare(scenario, induction=needs_induction(scenario))


def needs_induction(scenario: Scenario) -> bool:
    """Whether :func:`exact_result <mathhammer.exact.exact_result>` finds the target's
    spending by backward induction (``power_field = "optimal"`` with points to spend)."""
    t = scenario.target
    return t.power_field == "optimal" and t.power_points > 0

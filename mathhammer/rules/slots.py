"""One attack of a scenario's sequence (:class:`AttackSlot`), the attacks of an attacker's combat
actions (:func:`combat_actions`) and the labels of its rounds."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

from .attacker import Attacker
from .weapon import Weapon

__all__ = ["AttackSlot", "round_label", "round_labels", "kept_actions", "combat_actions", "SLOTS_CACHE_SIZE"]

#: Attackers whose attack slots are kept (:func:`kept_actions`): a balance matrix pairs
#: each attacker card with every target card, each pair building an equal Attacker.
SLOTS_CACHE_SIZE = 256


def round_label(label: str, round_: int, attack_rounds: int) -> str:
    """The label of an attack slot of round ``round_`` (0-based): unchanged with a single
    attack round, else prefixed ``"R<round + 1> · "``.

    >>> round_label("A / Sword #1", 1, 3)
    'R2 · A / Sword #1'
    >>> round_label("A / Sword #1", 0, 1)
    'A / Sword #1'
    """
    return label if attack_rounds <= 1 else f"R{round_ + 1} · {label}"


def round_labels(labels, attack_rounds: int) -> tuple[str, ...]:
    """Labels of every slot of every attack round, round-major, from the labels of one
    round (:meth:`Scenario.attack_sequence`).

    >>> round_labels(["A #1", "B #1"], 2)
    ('R1 · A #1', 'R1 · B #1', 'R2 · A #1', 'R2 · B #1')
    """
    if attack_rounds <= 1:
        return tuple(labels)
    return tuple(round_label(lb, r, attack_rounds) for r in range(attack_rounds) for lb in labels)


@dataclass(frozen=True)
class AttackSlot:
    """One attack of the sequence: who makes it, with which weapon, its number for that weapon.

    ``bought`` slots are the attacks an attacker pays for: the additional melee attacks or
    reloads it may buy after its initial attacks, one point each, and the casts of a spell,
    ``cost`` points each; they are made only while it has the points to pay. Not buying one
    ends the attacker's buying (``stops``); not casting a spell skips that cast only.
    ``charge`` marks the first melee attack of a charging attacker. ``choices``: the other
    melee weapons (indices) best play may make a bought attack with instead of ``weapon``
    (:attr:`Attacker.buy_choices`); ``weapon`` is the default, kept on a tie.
    """

    attacker_index: int
    weapon_index: int
    number: int
    attacker: Attacker
    weapon: Weapon
    bought: bool = False
    charge: bool = False
    cost: int = 1
    stops: bool = True
    choices: tuple[int, ...] = ()
    model: int = 0
    group: int = 1
    #: Several targets: the indices of the targets it goes to, in order (the first of them
    #: still standing; docs/units.md); empty: every target, in the scenario's order.
    route: tuple[int, ...] = ()
    #: Added to its attack roll alone (a slam at a larger base: -2; docs/rules.md 5).
    attack_mod: int = 0
    #: A slam's collateral damage roll (``weapon`` is :attr:`Weapon.collateral_roll`): made
    #: only when the slot before it, the slam, hit; no point boosts it.
    collateral: bool = False
    #: Points paid for it with no decision, before the sequence: a power attack's
    #: (:attr:`Attacker.power_cost`); reported in its ``spent`` when it is made.
    paid: int = 0

    @property
    def free_attack_boost(self) -> bool:
        """Its attack roll is boosted at no cost: the weapon's ``boosted_attack``, or the charge
        attack of a cavalry model."""
        return self.weapon.boosted_attack or (self.charge and self.attacker.cavalry)

    @property
    def free_damage_boost(self) -> bool:
        """Its damage roll is boosted at no cost: the weapon's ``boosted_damage``, or a charge
        attack (if it hits)."""
        return self.weapon.boosted_damage or self.charge

    @property
    def attack_dice(self) -> int:
        """Attack dice before a paid boost, not floored: the attacker's for the weapon
        (:meth:`Attacker.attack_dice`), one more for a cavalry charge attack."""
        cavalry = self.charge and self.attacker.cavalry and not self.weapon.boosted_attack
        return self.attacker.attack_dice(self.weapon) + int(cavalry)

    @property
    def combined_bonus(self) -> int:
        """+1 to attack and damage rolls per model of its combined attack (``group``, the
        models making it; docs/rules.md 9), 0 for a single model's attack."""
        return self.group if self.group >= 2 else 0

    @property
    def actor(self) -> tuple[int, int]:
        """Who makes it: (attacker index, ``model``: its model or combined attack within a
        unit). An actor's first attack resets the points to its own (each model's points)."""
        return (self.attacker_index, self.model)

    def of_model(self, model: int) -> "AttackSlot":
        """The same attack made by model (or combined attack) ``model`` of its unit.

        A unit's models make alike attacks (:meth:`Scenario.attack_sequence`), so the slots
        of the others are copies of the first's. The copy is made field for field from this
        frozen slot's own (valid) fields, not through ``__init__``, which sets its 18 fields
        one by one: 3 us a slot, most of building a unit's sequence in a balance matrix.

        >>> from mathhammer import Attacker, Weapon
        >>> a = Attacker("Riflemen", [Weapon("Rifle", "ranged", 5, 10)], models=3)
        >>> s = AttackSlot(0, 0, 0, a, a.weapons[0])
        >>> s.of_model(2) == dataclasses.replace(s, model=2), s.of_model(2).label
        (True, 'Riflemen 3 / Rifle #1')
        """
        twin = object.__new__(AttackSlot)
        twin.__dict__.update(self.__dict__)
        twin.__dict__["model"] = model
        return twin

    def with_weapon(self, weapon_index: int) -> "AttackSlot":
        """This bought attack made with weapon ``weapon_index`` of its attacker (one of
        :attr:`choices`): a slot without choices."""
        return dataclasses.replace(self, weapon_index=weapon_index,
                                   weapon=self.attacker.weapons[weapon_index], choices=())

    @property
    def who(self) -> str:
        """The attacker's name, and within a unit the number of its model (or combined
        attack): ``"Riflemen 3"``."""
        a = self.attacker
        # one combat action (a single ``groups`` entry): a model, or a unit all in one
        # combined attack (``combined`` is at most ``models``)
        return a.name if a.models == 1 or a.combined >= a.models else f"{a.name} {self.model + 1}"

    @property
    def label(self) -> str:
        who = self.who
        if self.collateral:
            return f"{who} / {self.weapon.name} ({self.weapon.targets[0]})"
        if self.bought and self.weapon.cost:
            return f"{who} / {self.weapon.name} cast #{self.number + 1}"
        if self.bought and self.weapon.type == "ranged":
            return f"{who} / {self.weapon.name} reload #{self.number + 1}"
        if self.bought and self.choices:  # the weapon is best play's choice
            return f"{who} / bought #{self.number + 1}"
        if self.bought:
            return f"{who} / {self.weapon.name} bought #{self.number + 1}"
        return f"{who} / {self.weapon.name} #{self.number + 1}"


@functools.lru_cache(maxsize=SLOTS_CACHE_SIZE)
def kept_actions(ai: int, a: Attacker) -> tuple[AttackSlot, ...]:
    """:func:`combat_actions` kept for the last :data:`SLOTS_CACHE_SIZE` attackers, by value
    (slots are frozen; an equal attacker makes the same attacks; a validated Attacker's
    fields are all hashable, tuples and frozensets): the attacker's derived
    figures and the slots' frozen ``__init__`` were 23 us of a matrix point, the key's hash
    and comparison cost about 3 us (1.1 us the hash, 1.6 us comparing two equal attackers)."""
    return tuple(combat_actions(ai, a))


def combat_actions(ai: int, a: Attacker) -> list[AttackSlot]:
    """The attacks of the combat actions of attacker ``ai``, one per model or combined attack
    of :attr:`Attacker.groups` in turn (a unit: each model): each action's weapons' initial
    attacks in order (a spell's casts in its place), then the attacks it may buy
    (docs/rules.md 5): additional melee attacks, or its ranged weapons' reloads, weapon by
    weapon. The attacker's derived figures are read once, not once per model, and the
    slots of a unit's other models are copies of the first's (:meth:`AttackSlot.of_model`)."""
    out = []
    charge = a.charge_weapon_index
    casts = dict(a.casts)
    power = a.power_weapon
    power_cost = a.power_cost
    bought = a.bought_weapon
    max_bought = a.max_bought
    choices = a.buy_choices if max_bought else ()
    reloads = a.reloads
    first: dict[int, list[AttackSlot]] = {}  # the first action's slots, by its number of models
    for g, size in enumerate(a.groups):
        if size in first:  # another model's (or combined attack's) action: the same attacks
            out.extend(s.of_model(g) for s in first[size])
            continue
        start = len(out)
        who = {"model": g, "group": size}
        for wi, w in enumerate(a.weapons):
            if power is not None and w is not power:  # a power attack is the combat action
                continue
            if w.cost:  # a spell: every cast is paid for, the first too
                out.extend(AttackSlot(ai, wi, k, a, w, bought=True, cost=w.cost, stops=False, **who)
                           for k in range(casts.get(wi, 0)))
                continue
            paid = power_cost if w is power else 0
            for k in range(w.initial_attacks):  # a random rate of fire: the most it gives
                out.append(AttackSlot(ai, wi, k, a, w, charge=(wi == charge and k == 0), paid=paid, **who))
            if w.collateral is not None:  # the slam's collateral damage roll, after it
                out.append(AttackSlot(ai, wi, 0, a, w.collateral_roll, collateral=True, **who))
        if max_bought:
            wi = a.weapons.index(bought)
            for k in range(max_bought):
                out.append(AttackSlot(ai, wi, k, a, bought, bought=True, choices=choices, **who))
        for wi, n in reloads:  # Reload [N]: additional ranged attacks, one point each
            out.extend(AttackSlot(ai, wi, k, a, a.weapons[wi], bought=True, **who) for k in range(n))
        first[size] = out[start:]
    return out

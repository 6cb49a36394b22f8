"""One attack of a scenario's sequence (:class:`AttackSlot`) and the labels of its rounds."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .attacker import Attacker
from .weapon import Weapon

__all__ = ["AttackSlot", "round_label", "round_labels"]


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

"""Attackers: a model and the weapons it uses in one combat action."""

from __future__ import annotations

from dataclasses import dataclass

from ._validate import check_str
from ..errors import InputError
from .vocabulary import RANGED_TYPES
from .weapon import Weapon

__all__ = ["Attacker"]


@dataclass(frozen=True)
class Attacker:
    """A model making one combat action against the target.

    Each melee weapon makes its initial attacks, each ranged weapon (or spell) its ROF
    attacks, in the order listed (RULES.md 5). A combat action never mixes melee with
    ranged or arcane attacks, so such an attacker is rejected.

    Examples
    --------
    >>> a = Attacker("Heavy warjack", [Weapon("Fist", "melee", 7, 16, attacks=2)])
    >>> a.attack_count
    2
    >>> Attacker("Mixed", [Weapon("Fist", "melee", 7, 16), Weapon("Gun", "ranged", 5, 12)])
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: weapons: a combat action never mixes melee and ranged weapons (got ['melee', 'ranged'])
    """

    name: str
    weapons: tuple[Weapon, ...]

    def __post_init__(self):
        if isinstance(self.weapons, (list, tuple)):
            object.__setattr__(self, "weapons", tuple(self.weapons))
        check_str("name", self.name)
        if not isinstance(self.weapons, tuple) or not self.weapons:
            raise InputError("weapons", list(self.weapons) if isinstance(self.weapons, tuple) else self.weapons,
                             "an attacker needs at least one weapon")
        for i, w in enumerate(self.weapons):
            if not isinstance(w, Weapon):
                raise InputError(f"weapons[{i}]", w, "must be a Weapon")
        types = [w.type for w in self.weapons]
        if "melee" in types and any(t in RANGED_TYPES for t in types):
            raise InputError("weapons", types, "a combat action never mixes melee and ranged weapons")

    @property
    def attack_count(self) -> int:
        """Initial attacks of its combat action."""
        return sum(w.attacks for w in self.weapons)

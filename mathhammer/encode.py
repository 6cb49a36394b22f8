"""The only bridge from rules objects to the kernels' flat NumPy tables.

Everything that does not change during a sequence is worked out here, once, in Python, from
the rules model (DEF against each weapon at normal and at base DEF 5, dice counts with
resistances, flags); the kernel only handles what changes from attack to attack.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._kernels import layout as L
from .rules import Scenario, Target, Weapon

__all__ = ["Encoded", "encode"]

_KIND = {"melee": L.K_MELEE, "ranged": L.K_RANGED, "arcane": L.K_ARCANE}
_LOCATION = {"L": 0, "R": 1, "H": 2, "F": 3}


@dataclass(frozen=True, eq=False)
class Encoded:
    """Int64 tables of a scenario, laid out as :mod:`mathhammer._kernels.layout` says.

    ``attacks`` has one row per attack of the sequence (weapon figures copied in),
    ``target`` the target's figures and starting situation bits, ``max_draws`` the most
    entries (pairs of dice) one trial can read from the dice buffer.
    """

    attacks: np.ndarray
    target: np.ndarray
    slot_labels: tuple[str, ...]
    max_draws: int


def _attack_row(weapon: Weapon, target: Target) -> np.ndarray:
    """The figures of one attack with ``weapon`` against ``target`` (its starting state)."""
    row = np.zeros(L.A_NFIELDS, dtype=np.int64)
    flags = 0
    if weapon.deals_damage:
        flags |= L.F_DAMAGE
    if "knockdown" in weapon.rules:
        flags |= L.F_KNOCKDOWN
    if "critical_knockdown" in weapon.rules:
        flags |= L.F_CRIT_KNOCKDOWN
    row[L.A_KIND] = _KIND[weapon.type]
    row[L.A_SKILL] = weapon.skill
    row[L.A_POW] = weapon.pow if weapon.pow is not None else 0
    row[L.A_ATT_DICE] = weapon.attack_dice
    row[L.A_DMG_DICE] = weapon.damage_dice_against(target.resist)
    row[L.A_FLAGS] = flags
    row[L.A_DEF] = target.defense_against(weapon.type, base_def_5=target.starts_base_def_5)
    row[L.A_DEF5] = target.defense_against(weapon.type, base_def_5=True)
    row[L.A_LOCATION] = _LOCATION.get(weapon.location, -1)
    row[L.A_AUTOHIT_ON] = L.ST_MELEE_AUTOHIT if weapon.type == "melee" else 0
    return row


def encode(scenario: Scenario) -> Encoded:
    """Flatten ``scenario`` into the kernel's tables.

    Examples
    --------
    >>> from mathhammer.rules import Attacker, Scenario, Target, Weapon
    >>> s = Scenario(Target(defense=12, arm=18, boxes=30, state={"cover"}),
    ...              [Attacker("A", [Weapon("Gun", "ranged", 5, 12, attacks=2)])])
    >>> enc = encode(s)
    >>> len(enc.attacks), int(enc.attacks[0, L.A_DEF]), int(enc.attacks[0, L.A_DEF5])
    (2, 16, 9)
    """
    target = scenario.target
    sequence = scenario.attack_sequence()
    weapon_index = {}
    for slot in sequence:
        weapon_index.setdefault((slot.attacker_index, slot.weapon_index), len(weapon_index))
    rows = {}
    attacks = np.zeros((len(sequence), L.A_NFIELDS), dtype=np.int64)
    for i, slot in enumerate(sequence):
        key = (slot.attacker_index, slot.weapon_index)
        if key not in rows:
            rows[key] = _attack_row(slot.weapon, target)
        attacks[i] = rows[key]
        attacks[i, L.A_ATTACKER] = slot.attacker_index
        attacks[i, L.A_WEAPON] = weapon_index[key]
        attacks[i, L.A_ORIGIN] = L.ORIGIN_INITIAL

    tvec = np.zeros(L.T_NFIELDS, dtype=np.int64)
    tvec[L.T_ARM] = target.arm
    tvec[L.T_BOXES] = target.boxes
    state = 0
    if target.starts_base_def_5:
        state |= L.ST_BASE_DEF_5
    if target.starts_melee_auto_hit:
        state |= L.ST_MELEE_AUTOHIT
    tvec[L.T_STATE] = state
    tvec[L.T_CAPACITY] = L.CAP_TRACK
    return Encoded(attacks, tvec, tuple(s.label for s in sequence), _max_draws(attacks))


def _max_draws(attacks: np.ndarray) -> int:
    """Most buffer entries one trial can read: every attack rolled and every damage roll made,
    a roll of n dice reading ``(n + 1) // 2`` pairs.

    The kernel refills its dice buffer between trials whenever fewer than this are left.
    """
    attack = attacks[:, L.A_ATT_DICE]
    damage = attacks[:, L.A_DMG_DICE]
    return int(((attack + 1) // 2).sum() + ((damage + 1) // 2).sum())

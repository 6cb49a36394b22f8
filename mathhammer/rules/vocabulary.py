"""The names a scenario may use: attack types, base sizes, target states, damage types, rules.

Kept in one place so that validation messages, the README and the encoder agree.
"""

from __future__ import annotations

ATTACK_TYPES = ("melee", "ranged", "arcane")
RANGED_TYPES = frozenset({"ranged", "arcane"})

BASE_SIZES = ("small", "medium", "large", "extra_large", "huge")

#: Target states of RULES.md section 1 (``building``: the target *is* a building).
TARGET_STATES = (
    "knocked_down",
    "stationary",
    "inert",
    "wild",
    "building",
    "in_melee",
    "cover",
    "concealment",
    "elevated",
    "obstacle",
)

#: States that make the target's base DEF 5 and melee attacks against it hit automatically.
BASE_DEF_5_STATES = frozenset({"knocked_down", "stationary", "inert", "wild", "building"})
MELEE_AUTO_HIT_STATES = BASE_DEF_5_STATES

#: Damage types a weapon may deal and a target may resist. Arcane attacks always add "magical".
DAMAGE_TYPES = ("fire", "cold", "corrosion", "electrical", "magical")

#: Weapon special rules the engine implements.
WEAPON_RULES = ("knockdown", "critical_knockdown")

#: Weapon locations (damage-grid systems that may carry weapons).
WEAPON_LOCATIONS = ("L", "R", "H", "F")

"""A weapon's rules as the kernels read them: the ``F_*`` flags of its attack rows and the
``R_*`` modes of its attack and damage rolls (:mod:`._kernels.layout`), with the scenario's
settings for the open readings (docs/rules.md, "Readings")."""

from __future__ import annotations

from ..rules import Scenario, Target, Weapon
from ._kernels import layout as L

__all__ = ["rule_flags", "roll_modes"]

_RULE_FLAGS = {
    "knockdown": L.F_KNOCKDOWN,
    "critical_knockdown": L.F_CRIT_KNOCKDOWN,
    "stationary": L.F_STATIONARY,
    "critical_stationary": L.F_CRIT_STATIONARY,
    "reroll_attack": L.F_REROLL_ATT,
    "reroll_damage": L.F_REROLL_DMG,
    "dispel": L.F_DISPEL,
    "grievous_wounds": L.F_GRIEVOUS,
    "chain_weapon": L.F_IGNORE_SHIELD,
    "decapitation": L.F_DECAP,
    "decapitation_on_hit": L.F_DECAP_HIT,
    "trash": L.F_TRASH,
    "shatter": L.F_SHATTER,
    "critical_armor_piercing": L.F_CRIT_AP,
    "fire": L.F_FIRE,
    "corrosion": L.F_CORROSION,
    "critical_fire": L.F_CRIT_FIRE,
    "critical_corrosion": L.F_CRIT_CORROSION,
    "ice_cage": L.F_ICE,
    "critical_ice_cage": L.F_CRIT_ICE,
    "paralysis": L.F_PARALYSIS,
    "critical_paralysis": L.F_CRIT_PARALYSIS,
    "sustained_attack": L.F_SUSTAIN,
    "critical_dispel": L.F_CRIT_DISPEL,
    "critical_grievous_wounds": L.F_CRIT_GRIEVOUS,
    "critical_sustained_attack": L.F_CRIT_SUSTAIN,
    "shred": L.F_SHRED,
}
#: Flags of each continuous effect: cleared on rows against a target resistant to it.
_EFFECT_FLAGS = {"fire": L.F_FIRE | L.F_CRIT_FIRE, "corrosion": L.F_CORROSION | L.F_CRIT_CORROSION}
#: R_* bits of each discard (a roll's mode).
_DROP = {"none": 0, "lowest": L.R_DROP_LOW, "highest": L.R_DROP_HIGH, "both": L.R_DROP_LOW | L.R_DROP_HIGH}


def rule_flags(weapon: Weapon, target: Target, scenario: Scenario) -> int:
    """``F_*`` bits of the weapon's rules against ``target`` (no continuous effect of a type
    it resists), Brutal Damage as the setting says, and the readings set on the scenario.

    >>> from mathhammer.rules import Attacker
    >>> w = Weapon("Maul", "melee", 6, 12, rules={"knockdown", "trash"})
    >>> s = Scenario(Target(12, 16), [Attacker("A", [w])], knockdown_before_tough=True)
    >>> flags = rule_flags(w, s.target, s)
    >>> bool(flags & L.F_TRASH), bool(flags & L.F_KD_STOPS_TOUGH), bool(flags & L.F_DAMAGE)
    (True, True, True)
    """
    rules = weapon.rules
    flags = 0
    for rule in rules:  # a weapon has a few rules: the table's lookups, not its length
        flags |= _RULE_FLAGS.get(rule, 0)
    for effect, bits in _EFFECT_FLAGS.items():
        if not target.suffers(effect):
            flags &= ~bits
    if weapon.deals_damage:
        flags |= L.F_DAMAGE
    if "brutal_damage" in rules:
        flags |= L.F_BRUTAL_HIT if scenario.brutal_damage == "hit" else L.F_BRUTAL
    if scenario.dispel_from_next_attack and weapon.has_rule("dispel"):
        flags |= L.F_DISPEL_LATE
    if scenario.knockdown_first(weapon) and rules & {"knockdown", "critical_knockdown"}:
        flags |= L.F_KD_STOPS_TOUGH
    if scenario.arm_minus_stacks_same_weapon and weapon.arm_minus:
        flags |= L.F_ARM_STACKS
    return flags


def roll_modes(weapon: Weapon, attack_dice: int, scenario: Scenario) -> tuple[int, int]:
    """``R_*`` bits of the weapon's attack and damage rolls: its discards, Jump the Shark,
    Sanguine Fate, and the readings that change the attack roll where they can (a discard,
    for crit_counts_discarded; a single kept die, for single_die_one_misses). Zero for a
    plain roll: the kernel's fast path of two dice read as one pair."""
    shark = L.R_SHARK if "jump_the_shark" in weapon.rules else 0
    attack = _DROP[weapon.attack_discard] | shark
    if "sanguine_fate" in weapon.rules:
        attack |= L.R_SANGUINE
    if scenario.crit_counts_discarded and weapon.attack_discard != "none":
        attack |= L.R_CRIT_ALL
    if scenario.single_die_one_misses and (attack_dice <= 1 or weapon.attack_discard != "none"):
        attack |= L.R_ONE_MISSES
    return attack, _DROP[weapon.damage_discard] | shark

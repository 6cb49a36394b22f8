"""Power attacks against the scenario's targets (docs/rules.md 5, "Power attacks"): what the
base sizes allow and change.

A weapon entry and its attacker check themselves (:class:`~mathhammer.rules.weapon.Weapon`,
:class:`~mathhammer.rules.attacker.Attacker`); what needs the targets is here: a head-butt
never goes to a larger base, a slam at a larger base is at -2 to hit, and a slam's
collateral target is another target with a base no larger than the slammed one's.
"""

from __future__ import annotations

from ..errors import InputError
from .attacker import Attacker
from .target import Target
from .vocabulary import BASE_SIZES
from .weapon import Weapon

__all__ = ["check_power_attacks", "slam_mod"]


def _targets_of(scenario, attacker: Attacker, weapon: Weapon) -> list[Target]:
    """The targets a power attack may go to (its route, else every target)."""
    route = scenario.route_of(attacker, weapon) or range(len(scenario.targets))
    return [scenario.targets[g] for g in route]


def _larger(target: Target, base: str) -> bool:
    return BASE_SIZES.index(target.base) > BASE_SIZES.index(base)


def slam_mod(scenario, attacker: Attacker, weapon: Weapon) -> int:
    """-2 to a slam's attack roll against a model with a larger base than its attacker's,
    else 0 (its targets are all larger or none is: :func:`check_power_attacks`)."""
    return -2 if _larger(_targets_of(scenario, attacker, weapon)[0], attacker.base) else 0


def check_power_attacks(scenario) -> None:
    """Each attacker's power attack against the targets of ``scenario`` (a
    :class:`~mathhammer.rules.scenario.Scenario` being built). Raises InputError naming
    the weapon's key."""
    for i, a in enumerate(scenario.attackers):
        w = a.power_weapon
        if w is None:
            continue
        targets = _targets_of(scenario, a, w)
        larger = [_larger(t, a.base) for t in targets]
        key = f"attackers[{i}].weapons[{a.weapons.index(w)}]."
        if w.collateral is not None:
            _check_collateral(scenario, a, w, key + "collateral")
        if w.power_attack == "headbutt" and any(larger):
            t = targets[larger.index(True)]
            raise InputError(key + "power_attack", w.power_attack, f"a model cannot head-butt a larger base "
                             f"({t.name!r} is {t.base}, the attacker {a.base})")
        if any(larger) and not all(larger):
            raise InputError(key + "power_attack", w.power_attack, "a slam's targets are all larger than the "
                             "attacker or none is (give the slam one target: its weapon's targets)")


def _check_collateral(scenario, a: Attacker, w: Weapon, key: str) -> None:
    """A slam's collateral target: another of the targets, with a base no larger than the
    slammed one's (an equal base also stops the slam: ``slam_contact``); the slam goes to
    one target."""
    names = [t.name for t in scenario.targets]
    if w.collateral not in names:
        raise InputError(key, w.collateral, "names no target: the targets are " + ", ".join(map(repr, names)))
    route = scenario.route_of(a, w)
    if len(route) != 1:
        raise InputError(key, w.collateral, "a slam with collateral damage goes to one target: give the "
                         "slam's target (target = \"Name\")")
    slammed, hit = scenario.targets[route[0]], scenario.targets[names.index(w.collateral)]
    if hit is slammed:
        raise InputError(key, w.collateral, "is the slammed target itself")
    if _larger(hit, slammed.base):
        raise InputError(key, w.collateral, f"has a larger base than {slammed.name!r}: it suffers no "
                         "collateral damage (the slam stops there: slam_contact = true)")
    if hit.base == slammed.base and not w.slam_contact:
        raise InputError(key, w.collateral, f"has the base of {slammed.name!r}: the slam stops against it, "
                         "give slam_contact = true")

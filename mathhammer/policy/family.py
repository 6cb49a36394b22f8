"""The family of spending policies the search tries (README "Spending policies").

A policy of the family is a :class:`~mathhammer.rules.Spend`: attack boosts never, always or
from a threshold; damage boosts never, always or when they can matter; bought attacks with a
reserve. :func:`policy_family` lists those that can behave differently on a scenario.
"""

from __future__ import annotations

import dataclasses

from ..rules import Attacker, Scenario, Spend
from ..rules.spend import MAX_THRESHOLD

__all__ = ["policy_family", "with_spends"]


def _needs(attacker: Attacker, scenario: Scenario) -> list[int]:
    """Every roll on two dice (``DEF - skill``) its attacks can need: at normal and base DEF 5,
    with and without upkeep spells, less every sum of the scenario's distinct -DEF effects;
    clamped to the thresholds a policy can name (2..13: needing 13 or more boosts the same)."""
    t = scenario.target
    minus = sorted({(w.name, w.def_minus) for a in scenario.attackers for w in a.weapons
                    if w.def_minus})
    sums = {0}
    for _name, x in minus:
        sums |= {s + x for s in sums}
    out = set()
    for w in attacker.weapons:
        spells = 0 if "blessed" in w.rules else t.spell_def
        upkeep = 0 if "blessed" in w.rules else t.upkeep_def
        for bonus in {g if g >= 2 else 0 for g in attacker.groups}:
            skill = w.skill + bonus
            for base5 in (False, True):
                for up in (0, upkeep):
                    for s in sums:
                        need = t.defense_against(w.type, base_def_5=base5) + spells + up - s - skill
                        out.add(min(max(need, 2), MAX_THRESHOLD))
    return sorted(out)


def policy_family(attacker: Attacker, scenario: Scenario) -> list[Spend]:
    """The spending policies of ``attacker`` that may behave differently on ``scenario``.

    ``boost_attack``: never, always, and auto at each threshold that splits the rolls it can
    need; ``boost_damage``: never, always, auto; ``buy_attacks`` (only with a melee weapon)
    with each ``reserve`` from 0 to its points. An attacker without points has one policy.

    Examples
    --------
    >>> from mathhammer.rules import Target, Weapon
    >>> jack = Attacker("Jack", [Weapon("Fist", "melee", 7, 16, attacks=2)], focus=1)
    >>> s = Scenario(Target(defense=13, arm=18, boxes=10), [jack])
    >>> len(policy_family(jack, s))  # (never, always, auto 6+) x 3 x (no buy, reserve 0, 1)
    27
    """
    if attacker.points == 0:
        return [attacker.spend]
    needs = _needs(attacker, scenario)
    attack = [("never", attacker.spend.boost_attack_at), ("always", attacker.spend.boost_attack_at)]
    attack += [("auto", t) for t in needs[1:]]
    buys = [(False, 0)]
    if attacker.bought_weapon is not None or any(w.reload for w in attacker.weapons):
        buys += [(True, r) for r in range(attacker.points + 1)]
    return [
        Spend(boost_attack=a, boost_attack_at=at, boost_damage=d, buy_attacks=b, reserve=r)
        for a, at in attack
        for d in ("never", "always", "auto")
        for b, r in buys
    ]


def with_spends(scenario: Scenario, spends: dict[int, Spend]) -> Scenario:
    """``scenario`` with attacker i spending as ``spends[i]`` says, every attacker's policy
    ``"fixed"``."""
    attackers = tuple(
        dataclasses.replace(a, spend=spends.get(i, a.spend), policy="fixed")
        for i, a in enumerate(scenario.attackers)
    )
    return dataclasses.replace(scenario, attackers=attackers)

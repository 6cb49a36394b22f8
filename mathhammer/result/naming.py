"""What a :class:`~mathhammer.result.Result` says about who fought whom: the target's name
and card, the attackers' names and the effects the scenario makes possible (both engines
fill these the same way; the slots' attackers each engine reads off its own slot list)."""

from __future__ import annotations

from ..rules import Scenario

__all__ = ["scenario_names"]


def scenario_names(scenario: Scenario) -> dict:
    """The naming fields of a Result of ``scenario``: ``card``, ``card_kind``,
    ``target_name``, ``effect_names``, ``attacker_names`` and, with several targets,
    ``target_names`` (the card is that of the target with one)."""
    target = scenario.card_target
    return {
        "card": tuple(target.card) if target.card is not None else (),
        "card_kind": "" if target.card is None else ("grid" if target.grid is not None
                                                     else "spiral"),
        "target_name": ", ".join(t.name for t in scenario.targets),
        "effect_names": scenario.possible_effects,
        "attacker_names": tuple(a.name for a in scenario.attackers),
        "target_names": tuple(t.name for t in scenario.targets) if scenario.several else (),
    }

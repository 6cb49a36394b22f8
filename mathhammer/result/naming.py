"""What a :class:`~mathhammer.result.Result` says about who fought whom: the target's name,
the attackers' names, the card's columns and kind, the names of several targets (both engines
fill these the same way; the slots' attackers each engine reads off its own slot list)."""

from __future__ import annotations

from ..rules import Scenario

__all__ = ["scenario_names", "card_names"]


def scenario_names(scenario: Scenario) -> dict:
    """The naming fields of a Result of ``scenario``: ``target_name`` and
    ``attacker_names``."""
    return {
        "target_name": ", ".join(t.name for t in scenario.targets),
        "attacker_names": tuple(a.name for a in scenario.attackers),
    }


def card_names(scenario: Scenario) -> dict:
    """The naming fields of the :class:`~mathhammer.result.CardPart` of a result of
    ``scenario`` (whose target with a grid or spiral has one): ``columns`` and ``kind``."""
    target = scenario.card_target
    return {"columns": tuple(target.card),
            "kind": "grid" if target.grid is not None else "spiral"}

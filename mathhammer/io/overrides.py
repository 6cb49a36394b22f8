"""A card's tables with a scenario's overrides applied, and an attacker's action.

A key given beside ``card = ...`` replaces the card's; keys of a group (the damage capacity
``boxes``/``grid``/``spiral``, the power ``focus``/``fury``, an attacker's
``focus``/``fury``/``force``) replace the whole group. A combat action never mixes weapon
types, so an attacker made from a card uses the weapons of one type, its *action*:
``melee``, ``ranged`` or ``arcane``, by default the type of the card's first weapon; or one of
its power attacks, ``headbutt`` or ``slam``, with its melee weapons for the attacks bought
after it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..errors import InputError
from ..rules.vocabulary import ATTACK_TYPES, CARD_ACTIONS, POWER_ATTACKS

if TYPE_CHECKING:  # pragma: no cover
    from .cards import Card

__all__ = ["ATTACKER_POINTS", "TARGET_POINTS", "merge_attacker", "merge_target",
           "weapon_actions", "with_action"]

#: The points an attacker has (one of them) and a target spends (one of them).
ATTACKER_POINTS = ("focus", "fury", "force")
TARGET_POINTS = ("focus", "fury")
#: Attacker keys whose overrides replace the card's other keys of the group.
_ATTACKER_GROUPS = (ATTACKER_POINTS,)
_TARGET_GROUPS = (("boxes", "grid", "spiral"), TARGET_POINTS)


def weapon_actions(weapons: list) -> list[str]:
    """Weapon types of a (raw) weapons list, in order of first appearance, then its power
    attacks: the actions an attacker made from it can take, the default first.

    >>> weapon_actions([{"type": "ranged"}, {"type": "melee"}, {"type": "melee", "power_attack": "slam"}])
    ['ranged', 'melee', 'slam']
    """
    out, power = [], []
    for w in weapons:
        if not isinstance(w, Mapping):
            continue
        if w.get("power_attack") in POWER_ATTACKS:
            power += [w["power_attack"]] if w["power_attack"] not in power else []
        elif w.get("type") in ATTACK_TYPES and w["type"] not in out:
            out.append(w["type"])
    return out + power


def _is_power(w: object) -> bool:
    return isinstance(w, Mapping) and w.get("power_attack") is not None


def _merge(table: Mapping, overrides: Mapping, groups: tuple[tuple[str, ...], ...]) -> dict:
    out = copy.deepcopy(dict(table))
    for group in groups:
        if any(k in overrides for k in group):
            for k in group:
                out.pop(k, None)
    for key, value in overrides.items():
        out[key] = copy.deepcopy(value)
    return out


def merge_target(card: Card, overrides: Mapping) -> dict:
    """The card's ``[target]`` table with ``overrides`` applied (a new dict).

    A key given replaces the card's; giving one of ``boxes``, ``grid``, ``spiral`` replaces
    the card's damage capacity (all three), and one of ``focus``, ``fury`` both. Lists
    (``rules``, ``state``, ...) are replaced, not extended. ``card`` itself is dropped.

    Examples
    --------
    >>> from mathhammer.io.cards import load_card
    >>> t = merge_target(load_card("heavy_warjack"), {"boxes": 20, "arm": 20})
    >>> t["boxes"], t["arm"], "grid" in t
    (20, 20, False)
    """
    _check_card(card, overrides)
    return _merge(card.target_table, {k: v for k, v in overrides.items() if k != "card"},
                  _TARGET_GROUPS)


def merge_attacker(card: Card, overrides: Mapping, action: str | None = None) -> dict:
    """The card's ``[attacker]`` table with ``overrides`` applied, for one action.

    A key given replaces the card's (one of ``focus``, ``fury``, ``force`` replaces all
    three), except ``spend``, merged key by key; ``weapons`` replaces the card's list.
    ``action`` (``melee``, ``ranged`` or ``arcane``) keeps the weapons of that type; without
    it the card's own weapons are those of its first weapon's type (given ``weapons`` are
    kept as they are). When the action is not melee, the card's ``charge`` and
    ``buy_weapon`` are dropped.

    Raises
    ------
    InputError
        Key ``card`` (a target-only card) or ``action``.

    Examples
    --------
    >>> from mathhammer.io.cards import load_card
    >>> a = merge_attacker(load_card("infantry"), {"name": "Squad"}, "melee")
    >>> a["name"], [w["name"] for w in a["weapons"]]
    ('Squad', ['Hand weapon'])
    """
    _check_card(card, overrides)
    if card.attacker_table is None:
        raise InputError("card", card.name, "is a target-only card: it has no [attacker] table")
    return with_action(card.attacker_table, overrides, action)


def _check_card(card, overrides) -> None:
    """``card`` must be a loaded card (:func:`~mathhammer.io.cards.load_card`) and
    ``overrides`` a table of keys."""
    if not hasattr(card, "target_table") or not hasattr(card, "attacker_table"):
        raise InputError("card", card, "must be a card (what load_card returns)")
    if not isinstance(overrides, Mapping):
        raise InputError("overrides", overrides, "must be a table of keys (a dict)")


def with_action(table: Mapping, overrides: Mapping, action: str | None) -> dict:
    """:func:`merge_attacker` on an ``[attacker]`` table (a card's, or one being checked)."""
    over = {k: v for k, v in overrides.items() if k not in ("card", "action")}
    out = _merge(table, {k: v for k, v in over.items() if k != "spend"}, _ATTACKER_GROUPS)
    if "spend" in over:
        spend = table.get("spend")
        if isinstance(spend, Mapping) and isinstance(over["spend"], Mapping):
            out["spend"] = {**copy.deepcopy(dict(spend)), **copy.deepcopy(dict(over["spend"]))}
        else:
            out["spend"] = copy.deepcopy(over["spend"])
    weapons = out.get("weapons")
    if not isinstance(weapons, list):
        return out  # the reader says what is wrong with it
    if action is None:
        if "weapons" in over:
            return out
        kinds = weapon_actions(weapons)
        action = kinds[0] if kinds else None
        if action is None:
            return out
    if not isinstance(action, str) or action not in CARD_ACTIONS:
        raise InputError("action", action, "must be one of " + ", ".join(CARD_ACTIONS))
    have = ", ".join(weapon_actions(weapons)) or "none"
    melee = [w for w in weapons if isinstance(w, Mapping) and w.get("type") == "melee" and not _is_power(w)]
    if action in POWER_ATTACKS:  # the power attack, then the weapons of the attacks bought after it
        power = [w for w in weapons if _is_power(w) and w.get("power_attack") == action]
        if not power:
            raise InputError("action", action, f"the attacker has no {action} power attack (its actions: {have})")
        out["weapons"] = power[:1] + melee
        if "charge" not in over:
            out.pop("charge", None)
        return out
    kept = [w for w in weapons if isinstance(w, Mapping) and w.get("type") == action and not _is_power(w)]
    if not kept:
        raise InputError("action", action, f"the attacker has no {action} weapon (its actions: {have})")
    out["weapons"] = kept
    if action != "melee":
        for key in ("charge", "buy_weapon"):
            if key not in over:
                out.pop(key, None)
    return out

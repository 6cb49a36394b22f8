"""Figures of each attack of the sequence: made, hit, critical, damage, points spent.

Functions of a :class:`~mathhammer.result.Result`, which binds them as its properties: each
reads the result's ``slot_weights`` (one row per attack, the ``SLOT_*`` columns of
:mod:`.fields`) and ``total``, and returns an array over the attacks, in sequence order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .fields import (
    SLOT_BOOST_ATTACK,
    SLOT_BOOST_DAMAGE,
    SLOT_CRIT,
    SLOT_DAMAGE,
    SLOT_HIT,
    SLOT_MADE,
    SLOT_SHRED,
    SLOT_SPENT,
    SLOT_TARGET_SPENT,
    SLOT_TOUGH,
)

if TYPE_CHECKING:  # pragma: no cover
    from .core import Result

__all__ = ["made", "hit", "crit", "attack_damage_mean", "boost_attack_rate",
           "boost_damage_rate", "spent_mean", "target_spent_mean", "tough_saves", "shred_mean",
           "spent_by_attacker", "target_spent_total", "tough_saves_total", "attacks"]


def _slot(result: Result, col: int) -> np.ndarray:
    return result.slot_weights[:, col] / result.total


def made(result: Result) -> np.ndarray:
    """Probability each attack is made (the target was still standing)."""
    return _slot(result, SLOT_MADE)


def hit(result: Result) -> np.ndarray:
    """Probability each attack is made and hits."""
    return _slot(result, SLOT_HIT)


def crit(result: Result) -> np.ndarray:
    """Probability each attack is made and is a critical hit."""
    return _slot(result, SLOT_CRIT)


def attack_damage_mean(result: Result) -> np.ndarray:
    """Expected damage points each attack marks (0 when not made)."""
    return _slot(result, SLOT_DAMAGE)


def boost_attack_rate(result: Result) -> np.ndarray:
    """Probability each attack's roll was boosted with a paid point."""
    return _slot(result, SLOT_BOOST_ATTACK)


def boost_damage_rate(result: Result) -> np.ndarray:
    """Probability each attack's damage roll was boosted with a paid point."""
    return _slot(result, SLOT_BOOST_DAMAGE)


def spent_mean(result: Result) -> np.ndarray:
    """Expected attacker points paid for each attack (buying it and its boosts, or making
    it: a power attack's point, ``slot_paid``, paid whenever it is made)."""
    spent = _slot(result, SLOT_SPENT)
    if any(result.slot_paid):
        spent = spent + np.asarray(result.slot_paid, dtype=np.float64) * made(result)
    return spent


def target_spent_mean(result: Result) -> np.ndarray:
    """Expected focus or fury the target spent against each attack."""
    return _slot(result, SLOT_TARGET_SPENT)


def tough_saves(result: Result) -> np.ndarray:
    """Probability each attack caused a successful Tough roll."""
    return _slot(result, SLOT_TOUGH)


def shred_mean(result: Result) -> np.ndarray:
    """Expected Shred attacks each attack led to (docs/rules.md 5). Their damage, boosts,
    points and Tough saves count in the attack's figures; its ``made``, ``hit`` and ``crit``
    are its own roll's."""
    return _slot(result, SLOT_SHRED)


def spent_by_attacker(result: Result) -> dict[str, float]:
    """Expected points (focus, fury or forcing) each attacker spent."""
    spent = spent_mean(result).tolist()  # Python floats, the same values
    out = {name: 0.0 for name in result.attacker_names}
    for a, x in zip(result.slot_attacker, spent):
        out[result.attacker_names[a]] += x
    return out


def target_spent_total(result: Result) -> float:
    """Expected focus or fury the target spent (attacks, then ``effects``)."""
    return float(target_spent_mean(result).sum()) + result.effects_target_spent


def tough_saves_total(result: Result) -> float:
    """Expected successful Tough rolls (from attacks, then ``effects``)."""
    return float(tough_saves(result).sum()) + result.effects_tough_saves


def attacks(result: Result) -> list[dict]:
    """One dict per attack, in sequence order."""
    made_, hit_, crit_ = made(result), hit(result), crit(result)
    damage, kill_after = attack_damage_mean(result), result.kill_after
    boost_attack, boost_damage = boost_attack_rate(result), boost_damage_rate(result)
    spent, target_spent, tough = spent_mean(result), target_spent_mean(result), tough_saves(result)
    destroyed, destroyed_after = result.destroyed_by_attack, result.destroyed_mean_after
    shred = shred_mean(result)
    card, per_target = result.card, result.per_target
    letters = card.letters if card is not None else ()
    cripple_after = result.cripple_after if letters else None
    return [
        {
            "attack": i + 1,
            "label": label,
            "made": float(made_[i]),
            "hit": float(hit_[i]),
            "crit": float(crit_[i]),
            "damage_mean": float(damage[i]),
            "kill_after": float(kill_after[i]),
            "boost_attack": float(boost_attack[i]),
            "boost_damage": float(boost_damage[i]),
            "spent_mean": float(spent[i]),
            "target_spent_mean": float(target_spent[i]),
            "tough_saves": float(tough[i]),
            "destroyed_mean": float(destroyed[i]),
            "destroyed_mean_after": float(destroyed_after[i]),
            "shred_mean": float(shred[i]),
            **({"cripple_after": {x: float(cripple_after[i, j]) for j, x in enumerate(letters)}}
               if letters else {}),
            **({"made_against": {name: float(per_target.made_weights[i, g] / result.total)
                                 for g, name in enumerate(per_target.names)}}
               if per_target is not None else {}),
        }
        for i, label in enumerate(result.slot_labels)
    ]

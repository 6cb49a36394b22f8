"""Figures of each attack of the sequence: made, hit, critical, damage, points spent.

A mixin of :class:`~mathhammer.result.Result`, reading its ``slot_weights`` (one row per
attack, the ``SLOT_*`` columns of :mod:`.fields`), ``total``, ``slot_labels``,
``slot_attacker`` and ``slot_paid``.
"""

from __future__ import annotations

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

__all__ = ["SlotFigures"]


class SlotFigures:
    """Per attack: each figure an array over the attacks, in sequence order."""

    @property
    def n_attacks(self) -> int:
        return len(self.slot_labels)

    def _slot(self, col: int) -> np.ndarray:
        return self.slot_weights[:, col] / self.total

    @property
    def made(self) -> np.ndarray:
        """Probability each attack is made (the target was still standing)."""
        return self._slot(SLOT_MADE)

    @property
    def hit(self) -> np.ndarray:
        """Probability each attack is made and hits."""
        return self._slot(SLOT_HIT)

    @property
    def crit(self) -> np.ndarray:
        """Probability each attack is made and is a critical hit."""
        return self._slot(SLOT_CRIT)

    @property
    def attack_damage_mean(self) -> np.ndarray:
        """Expected damage points each attack marks (0 when not made)."""
        return self._slot(SLOT_DAMAGE)

    @property
    def boost_attack_rate(self) -> np.ndarray:
        """Probability each attack's roll was boosted with a paid point."""
        return self._slot(SLOT_BOOST_ATTACK)

    @property
    def boost_damage_rate(self) -> np.ndarray:
        """Probability each attack's damage roll was boosted with a paid point."""
        return self._slot(SLOT_BOOST_DAMAGE)

    @property
    def spent_mean(self) -> np.ndarray:
        """Expected attacker points paid for each attack (buying it and its boosts, or
        making it: a power attack's point, ``slot_paid``, paid whenever it is made)."""
        spent = self._slot(SLOT_SPENT)
        if any(self.slot_paid):
            spent = spent + np.asarray(self.slot_paid, dtype=np.float64) * self.made
        return spent

    @property
    def target_spent_mean(self) -> np.ndarray:
        """Expected focus or fury the target spent against each attack."""
        return self._slot(SLOT_TARGET_SPENT)

    @property
    def tough_saves(self) -> np.ndarray:
        """Probability each attack caused a successful Tough roll."""
        return self._slot(SLOT_TOUGH)

    @property
    def shred_mean(self) -> np.ndarray:
        """Expected Shred attacks each attack led to (docs/rules.md 5). Their damage, boosts,
        points and Tough saves count in the attack's figures; its ``made``, ``hit`` and
        ``crit`` are its own roll's."""
        return self._slot(SLOT_SHRED)

    @property
    def spent_by_attacker(self) -> dict[str, float]:
        """Expected points (focus, fury or forcing) each attacker spent."""
        spent = self.spent_mean.tolist()  # Python floats, the same values
        out = {name: 0.0 for name in self.attacker_names}
        for a, x in zip(self.slot_attacker, spent):
            out[self.attacker_names[a]] += x
        return out

    @property
    def target_spent_total(self) -> float:
        """Expected focus or fury the target spent (attacks, then ``effects``)."""
        return float(self.target_spent_mean.sum()) + self.effects_target_spent

    @property
    def tough_saves_total(self) -> float:
        """Expected successful Tough rolls (from attacks, then ``effects``)."""
        return float(self.tough_saves.sum()) + self.effects_tough_saves

    @property
    def attacks(self) -> list[dict]:
        """One dict per attack, in sequence order."""
        destroyed_after = self.destroyed_mean_after
        return [
            {
                "attack": i + 1,
                "label": label,
                "made": float(self.made[i]),
                "hit": float(self.hit[i]),
                "crit": float(self.crit[i]),
                "damage_mean": float(self.attack_damage_mean[i]),
                "kill_after": float(self.kill_after[i]),
                "boost_attack": float(self.boost_attack_rate[i]),
                "boost_damage": float(self.boost_damage_rate[i]),
                "spent_mean": float(self.spent_mean[i]),
                "target_spent_mean": float(self.target_spent_mean[i]),
                "tough_saves": float(self.tough_saves[i]),
                "destroyed_mean": float(self.destroyed_by_attack[i]),
                "destroyed_mean_after": float(destroyed_after[i]),
                "shred_mean": float(self.shred_mean[i]),
                **({"cripple_after": {x: float(self.cripple_after[i, j])
                                      for j, x in enumerate(self.letters)}}
                   if self.letters else {}),
                **({"made_against": {name: float(self.slot_target_weights[i, g] / self.total)
                                     for g, name in enumerate(self.target_names)}}
                   if self.slot_target_weights is not None else {}),
            }
            for i, label in enumerate(self.slot_labels)
        ]

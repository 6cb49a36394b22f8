"""Figures over rounds: kills by attack and by round (functions of a result), and the
continuous effects and hazards of a result (:class:`RoundsPart`, ``Result.rounds``).

Each round ends with a maintenance phase, where fire and corrosion mark damage and may
destroy the target. Where no continuous effect or hazard can happen, nothing happens there:
the result has no rounds view (``Result.rounds`` is None) and its kills are those of the
attacks alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .._core.intervals import wilson_interval
from .fields import (
    EFFECT_AFTER,
    EFFECT_APPLIED,
    EFFECT_DAMAGE,
    EFFECT_KILL,
    EFFECT_NAMES,
    EFFECT_PRESENT,
    EFFECT_TARGET_SPENT,
    EFFECT_TOUGH,
)

if TYPE_CHECKING:  # pragma: no cover
    from .core import Result

__all__ = ["RoundsPart", "kill_after", "kill_by_turn", "turn_rows"]


@dataclass(frozen=True, eq=False)
class RoundsPart:
    """What the continuous effects and hazards did, round by round.

    Parameters
    ----------
    maintenance_kill_weights : ndarray, shape (turns,)
        Weight of the target being killed in each round's maintenance phase.
    effect_weights : ndarray, shape (turns, 3, EFFECT_FIELDS)
        Per round and :data:`~mathhammer.result.fields.EFFECT_NAMES` entry (fire, corrosion,
        quicksand), the ``EFFECT_*`` columns.
    effect_names : tuple of str
        The continuous effects and hazards that can happen in the scenario
        (:attr:`Scenario.possible_effects <mathhammer.rules.Scenario.possible_effects>`): the
        ones :meth:`effects` and the reports list.
    """

    maintenance_kill_weights: np.ndarray
    effect_weights: np.ndarray
    effect_names: tuple[str, ...] = EFFECT_NAMES

    def effect_figure(self, effect: str, column: int, total: float) -> np.ndarray:
        """Per round, the ``EFFECT_*`` ``column`` of ``effect`` divided by ``total``."""
        return self.effect_weights[:, EFFECT_NAMES.index(effect), column] / total

    def effect_total(self, column: int, total: float) -> float:
        """The ``EFFECT_*`` ``column`` summed over effects and rounds, divided by ``total``."""
        return float(self.effect_weights[:, :, column].sum() / total)

    def effects(self, total: float) -> dict:
        """Per continuous effect and hazard of :attr:`effect_names`: expected damage points
        it marked over all rounds, and per round the probability it is on the target at the
        end of the round (``burning_after``), was applied, and killed; over all rounds, the
        focus the target's power field spent against it (``target_spent_mean``) and the Tough
        saves it caused (``tough_saves``)."""
        columns = {"damage_by_turn": EFFECT_DAMAGE, "present_by_turn": EFFECT_PRESENT,
                   "applied_by_turn": EFFECT_APPLIED, "kill_by_turn": EFFECT_KILL,
                   "burning_after": EFFECT_AFTER}
        out = {}
        for e in self.effect_names:
            out[e] = {"damage_mean": float(self.effect_figure(e, EFFECT_DAMAGE, total).sum())}
            for key, column in columns.items():
                out[e][key] = self.effect_figure(e, column, total).tolist()
            out[e]["target_spent_mean"] = float(self.effect_figure(e, EFFECT_TARGET_SPENT, total).sum())
            out[e]["tough_saves"] = float(self.effect_figure(e, EFFECT_TOUGH, total).sum())
        return out


def kill_after(result: Result) -> np.ndarray:
    """Probability the target is disabled once each attack slot is resolved (kills in the
    maintenance phases of earlier rounds included)."""
    out = np.cumsum(result.kill_weights)
    if result.rounds is not None and result.slot_round:
        before = np.concatenate([[0.0], np.cumsum(result.rounds.maintenance_kill_weights)])
        out = out + before[np.asarray(result.slot_round)]
    return out / result.total


def kill_by_turn(result: Result) -> np.ndarray:
    """``p[t]``: probability the target is killed by the end of round t + 1."""
    per = np.zeros(result.turns)
    rounds = (np.asarray(result.slot_round) if result.slot_round
              else np.zeros(result.n_attacks, int))
    np.add.at(per, rounds, result.kill_weights)
    if result.rounds is not None:
        per += result.rounds.maintenance_kill_weights
    return np.cumsum(per) / result.total


def turn_rows(result: Result) -> list[dict]:
    """Per round: ``turn`` (1-based), ``kill`` by its end and ``kill_ci95`` (the ``by_turn``
    entry of :meth:`Result.to_dict`; :meth:`Result.by_turn` gives the same as a frame)."""
    out = []
    for t, p in enumerate(kill_by_turn(result)):
        if result.exact:
            ci = (float(p), float(p))
        else:
            ci = wilson_interval(float(p) * result.trials, int(result.trials))
        out.append({"turn": t + 1, "kill": float(p), "kill_ci95": [ci[0], ci[1]]})
    return out

"""What the spending-policy optimizer reports with its result: :class:`OptimizerReport`
(``Result.optimizer``) and the :class:`PolicyChoice` of each policy it names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Spend

__all__ = ["OptimizerReport", "PolicyChoice"]


@dataclass(frozen=True)
class PolicyChoice:
    """A spending policy the optimizer evaluated, with its figures.

    Parameters
    ----------
    spends : tuple of Spend
        The policy of each optimised attacker, in the order of
        :attr:`OptimizerReport.attackers`.
    label : str
        The policies in words, ``" | "`` between attackers.
    score, score_ci95 : float, (float, float)
        The objective's figure and its 95% interval.
    kill, kill_ci95 : float, (float, float)
        The kill probability and its 95% interval.
    damage_mean : float
        The expected damage.
    """

    spends: tuple[Spend, ...]
    label: str
    score: float
    score_ci95: tuple[float, float]
    kill: float
    kill_ci95: tuple[float, float]
    damage_mean: float


@dataclass(frozen=True)
class OptimizerReport:
    """The policy the optimizer chose for the attackers with ``policy = "optimize"``.

    Parameters
    ----------
    objective : str
        ``"kill"``, ``"damage"``, ``"destroyed"`` or ``"cripple:X"``.
    attackers : tuple of str
        Names of the optimised attackers.
    policies_tried : int
        Policies evaluated over the whole search, alike ones included.
    distinct_policies : int
        Those of the last round of the search that behave differently.
    chosen : PolicyChoice
        The best policy.
    runner_up : PolicyChoice or None
        The second best (None when only one behaves differently).
    adaptive_best : float or None
        With the exact method, when every attacker with points is optimised: the value of
        the best adaptive play (backward induction), a ceiling for any policy.
    """

    objective: str
    attackers: tuple[str, ...]
    policies_tried: int
    distinct_policies: int
    chosen: PolicyChoice
    runner_up: PolicyChoice | None = None
    adaptive_best: float | None = None

    def _choice(self, c: PolicyChoice | None) -> dict | None:
        if c is None:
            return None
        return {
            "policy": {name: s.to_dict() for name, s in zip(self.attackers, c.spends)},
            "label": c.label,
            "score": c.score,
            "score_ci95": list(c.score_ci95),
            "kill": c.kill,
            "kill_ci95": list(c.kill_ci95),
            "damage_mean": c.damage_mean,
        }

    def to_dict(self) -> dict:
        """The chosen policy and the runner-up with their figures (the ``--json`` key
        ``optimizer``)."""
        return {
            "objective": self.objective,
            "attackers": list(self.attackers),
            "policies_tried": self.policies_tried,
            "distinct_policies": self.distinct_policies,
            "chosen": self._choice(self.chosen),
            "runner_up": self._choice(self.runner_up),
            "adaptive_best": self.adaptive_best,
        }

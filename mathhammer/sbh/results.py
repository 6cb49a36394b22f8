"""What the SBH engines return: exact odds of one roll, and the distribution of a whole turn.

Odds of one activation roll or one shot are exact fractions (:class:`fractions.Fraction`);
``to_dict`` gives floats. A turn's figures (:class:`TurnResult`) are NumPy arrays of floats,
computed exactly (Markov chain over the steps) or estimated by Monte Carlo, with the same
fields either way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .._core.intervals import Z95, wilson_interval

__all__ = ["SHOOT_OUTCOMES", "ActivationOdds", "BestDice", "ShootOdds", "TurnResult"]

#: The outcomes of a shot, in order of severity (they partition the 36 rolls).
SHOOT_OUTCOMES = ("nothing", "beaten", "killed", "gruesome")


@dataclass(frozen=True)
class ActivationOdds:
    """Exact odds of one activation roll.

    Attributes
    ----------
    quality, dice, bonus : int
        What was rolled: ``dice`` d6 against ``quality``, ``bonus`` added to each die.
    actions : tuple of Fraction
        ``actions[k]``: probability of exactly ``k`` successes (``k`` actions), k = 0..dice.
    turnover : Fraction
        Probability of two or more failures.
    """

    quality: int
    dice: int
    bonus: int
    actions: tuple[Fraction, ...]
    turnover: Fraction

    @property
    def expected_actions(self) -> Fraction:
        return sum((k * p for k, p in enumerate(self.actions)), Fraction(0))

    @property
    def at_least_one(self) -> Fraction:
        """Probability that the model gets at least one action."""
        return 1 - self.actions[0]

    def to_dict(self) -> dict:
        """The CLI's JSON object: ``{"actions": [p0, ..., pD], "turnover": p}`` (floats)."""
        return {"actions": [float(p) for p in self.actions], "turnover": float(self.turnover)}


@dataclass(frozen=True)
class ShootOdds:
    """Exact odds of one (concentrated) shot.

    Attributes
    ----------
    shooters, combat, target_combat, modifier : int
        The inputs: the shooters roll 1d6 + ``combat`` + ``modifier``, the target 1d6 +
        ``target_combat`` - (``shooters`` - 1).
    nothing, beaten, killed, gruesome : Fraction
        The four outcomes; they sum to 1.
    lose_shooter : Fraction
        Probability that the shooters' die shows 1 and a second d6 shows 1 too: one shooter
        loses its ability to shoot (1/36 in concentrated shooting, 0 for an ordinary shot).
        Independent of the outcome.
    """

    shooters: int
    combat: int
    target_combat: int
    modifier: int
    nothing: Fraction
    beaten: Fraction
    killed: Fraction
    gruesome: Fraction
    lose_shooter: Fraction

    @property
    def kill_or_better(self) -> Fraction:
        """Killed or gruesome kill."""
        return self.killed + self.gruesome

    @property
    def harmed(self) -> Fraction:
        """Beaten, killed or gruesome kill: the shooters' total is higher."""
        return self.beaten + self.killed + self.gruesome

    def to_dict(self) -> dict:
        """The CLI's JSON object: the four outcomes and ``lose_shooter`` (floats)."""
        return {k: float(getattr(self, k)) for k in SHOOT_OUTCOMES + ("lose_shooter",)}


@dataclass(frozen=True)
class BestDice:
    """Dice per model maximising an objective of a turn of one-at-a-time activations.

    Attributes
    ----------
    dice : tuple of int
        Dice each model rolls, in activation order.
    value : float
        The objective reached: expected actions, or expected models that act.
    objective : str
    """

    dice: tuple[int, ...]
    value: float
    objective: str


@dataclass(frozen=True)
class TurnResult:
    """Distribution of one turn: how many actions, who acts, where the turnover falls.

    Attributes
    ----------
    method : {"exact", "monte_carlo"}
    trials, seed : int or None
        Monte Carlo sample size and seed (``None`` when exact).
    model_labels : tuple of str
        The plan's models in activation order (a group's Leader before its members).
    step_labels : tuple of str
    actions_pmf : ndarray
        ``actions_pmf[a]``: probability that the turn gives ``a`` actions in all (a Leader's
        order costs it one action, not counted).
    acted_pmf : ndarray
        ``acted_pmf[m]``: probability that exactly ``m`` models get at least one action.
    end_pmf : ndarray
        ``end_pmf[s]``: probability that step ``s`` rolls the turnover; the last entry is the
        probability of no turnover at all.
    order : ndarray
        Per step, probability that the Leader's group order is given (NaN for a solo step).
    model_acted, model_actions : ndarray
        Per model, probability of at least one action, and expected actions.
    """

    method: str
    trials: int | None
    seed: int | None
    model_labels: tuple[str, ...]
    step_labels: tuple[str, ...]
    actions_pmf: np.ndarray
    acted_pmf: np.ndarray
    end_pmf: np.ndarray
    order: np.ndarray
    model_acted: np.ndarray
    model_actions: np.ndarray

    @property
    def exact(self) -> bool:
        return self.method == "exact"

    @property
    def n_models(self) -> int:
        return len(self.model_labels)

    @property
    def expected_actions(self) -> float:
        return float(np.dot(np.arange(len(self.actions_pmf)), self.actions_pmf))

    @property
    def actions_sd(self) -> float:
        k = np.arange(len(self.actions_pmf))
        m = self.expected_actions
        return math.sqrt(max(0.0, float(np.dot((k - m) ** 2, self.actions_pmf))))

    @property
    def turnover(self) -> float:
        """Probability that the turn ends on a turnover (before or at its last step)."""
        return float(self.end_pmf[:-1].sum())

    @property
    def all_act(self) -> float:
        """Probability that every model of the plan gets at least one action."""
        return float(self.acted_pmf[-1])

    @property
    def expected_acted(self) -> float:
        """Expected number of models that get at least one action."""
        return float(np.dot(np.arange(len(self.acted_pmf)), self.acted_pmf))

    @property
    def reached(self) -> np.ndarray:
        """Per step, probability that the turn is still going when it starts."""
        return 1.0 - np.concatenate([[0.0], np.cumsum(self.end_pmf[:-1])])[: len(self.step_labels)]

    def _ci(self, p: float) -> tuple[float, float]:
        if self.trials is None:
            return (p, p)
        return wilson_interval(p * self.trials, self.trials)

    @property
    def turnover_ci95(self) -> tuple[float, float]:
        return self._ci(self.turnover)

    @property
    def all_act_ci95(self) -> tuple[float, float]:
        return self._ci(self.all_act)

    @property
    def expected_actions_ci95(self) -> tuple[float, float]:
        m = self.expected_actions
        if self.trials is None:
            return (m, m)
        half = Z95 * self.actions_sd / math.sqrt(self.trials)
        return (m - half, m + half)

    def to_dict(self) -> dict:
        """Plain-JSON figures (floats and lists)."""
        out = {
            "method": self.method,
            "trials": self.trials,
            "seed": self.seed,
            "expected_actions": self.expected_actions,
            "turnover": self.turnover,
            "all_act": self.all_act,
            "expected_acted": self.expected_acted,
            "actions": [float(p) for p in self.actions_pmf],
            "acted": [float(p) for p in self.acted_pmf],
            "end": [float(p) for p in self.end_pmf],
            "steps": [
                {"step": label, "reached": float(r),
                 "order": None if math.isnan(o) else float(o)}
                for label, r, o in zip(self.step_labels, self.reached, self.order)
            ],
            "models": [
                {"model": label, "acted": float(a), "expected_actions": float(e)}
                for label, a, e in zip(self.model_labels, self.model_acted, self.model_actions)
            ],
        }
        if self.trials is not None:
            out["expected_actions_ci95"] = list(self.expected_actions_ci95)
            out["turnover_ci95"] = list(self.turnover_ci95)
            out["all_act_ci95"] = list(self.all_act_ci95)
        return out

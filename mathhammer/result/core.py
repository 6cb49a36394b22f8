"""Result of a simulation: counters and histograms turned into probabilities.

A :class:`Result` never holds per-trial samples: Monte Carlo runs keep counts (weights that
sum to ``trials``), the exact engine keeps probabilities (weights that sum to 1). Every
figure is derived from those weights, so both methods report through the same code: the
headline figures here, those of each attack (:mod:`.slots`), of grids and spirals
(:mod:`.card`) and of rounds and continuous effects (:mod:`.rounds`) in mixins, and the
pandas tables and files (:mod:`.tables`) as thin methods over :mod:`.frames` and
:mod:`.export`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .._core.intervals import normal_interval, pmf_moments, pmf_sd, wilson_interval
from .card import CardFigures
from .rounds import RoundFigures
from .slots import SlotFigures
from .tables import TableMethods
from .targets import TargetFigures
from .units import UnitFigures

__all__ = ["Result"]


def _pmf_mean(pmf: np.ndarray) -> float:
    """Mean of a distribution over 0, 1, 2, ... (``pmf[k]``: probability of k)."""
    return float(np.arange(pmf.size) @ pmf)


@dataclass(frozen=True, eq=False)
class Result(SlotFigures, CardFigures, RoundFigures, UnitFigures, TargetFigures, TableMethods):
    """Figures of one scenario.

    Parameters
    ----------
    method : {"monte_carlo", "exact"}
    trials : int or None
        Monte Carlo sample size; ``None`` for exact results.
    seed : int or None
    slot_labels : tuple of str
        One label per attack of the sequence, in order.
    total : float
        What the weights sum to: ``trials`` (counts) or 1.0 (probabilities).
    damage_weights : ndarray, shape (boxes + 1,)
        Weight of ending with exactly k damage points marked.
    slot_weights : ndarray, shape (n_attacks, SLOT_FIELDS)
        Per attack, the ``SLOT_*`` columns: made, hit, critical hit, damage points marked,
        paid attack boosts, paid damage boosts, attacker points spent, target points spent,
        Tough saves (each summed over trials, or a probability-weighted sum).
    kill_weights : ndarray, shape (n_attacks,)
        Weight of the target being disabled by exactly that attack.
    boxes : int
        Damage capacity of the target.
    extra : dict
        Method-specific extras (``slot_damage_sq`` from the exact engine, ``optimizer``).
    attacker_names : tuple of str
        Names of the attackers, in order.
    slot_attacker : tuple of int
        Index into ``attacker_names`` of the attacker making each attack slot.
    letters : tuple of str
        Systems (grid) or aspects (spiral) on the target's card; empty for damage tracks.
    cripple_weights : ndarray, shape (n_attacks, len(letters))
        Weight of each letter being crippled once each attack slot is resolved (a slot not
        made leaves the state as it was; after a kill, the final state).
    box_weights : tuple of six ndarrays
        Per column (branch), the weight of each box being marked at the end.
    turns : int
        Rounds simulated. With attacks in several rounds, ``slot_labels`` (and every per-slot
        array) has one row per attack slot per round, round-major, labels prefixed ``R2 · ``.
    slot_round : tuple of int
        Round (0-based) of each slot row.
    maintenance_kill_weights : ndarray, shape (turns,)
        Weight of the target being killed in each round's maintenance phase.
    cripple_end_weights : ndarray, shape (len(letters),) or None
        Weight of each letter being crippled at the end (after the last round's maintenance
        phase); None: the last slot row's.
    card : tuple of str
        The target's damage grid or life spiral as six strings (a letter per box, ``.`` for
        hull), as in the scenario; empty for a damage track. ``box_weights[c][r]`` is the
        weight of ``card[c][r]`` being marked.
    card_kind : {"grid", "spiral", ""}
        What ``card`` is.
    target_name : str
        The target's name (for reports and plot titles).
    chunk_damage_weights : ndarray, shape (n_chunks, boxes + 1), or None
        Monte Carlo: ``damage_weights`` per chunk of trials. Chunks are independent batches
        with their own random streams, so two results run with the same seed and ``stride``
        can be compared chunk by chunk (:func:`mathhammer.result.paired.paired_difference`).
    effect_names : tuple of str or None
        The continuous effects and hazards that can happen in the scenario
        (:attr:`Scenario.possible_effects`): :attr:`effects` and the reports list those;
        None: every :data:`EFFECT_NAMES` entry.
    stride : int
        The common-random-numbers stride the run used (0: packed dice, see
        :func:`mathhammer.simulate`).
    effect_weights : ndarray, shape (turns, 3, EFFECT_FIELDS) or None
        Per round and :data:`EFFECT_NAMES` entry, the ``EFFECT_*`` columns; None when no
        continuous effect or hazard can happen.
    models : int
        Models of the target (a unit; 1 for a single model). For a unit, ``boxes`` is the
        whole unit's (models x each model's boxes) and ``damage_weights`` is over the damage
        marked on the unit (a destroyed model counts all its boxes); a kill is every model
        destroyed.
    destroyed_weights : ndarray, shape (models + 1,), or None
        Weight of exactly k models destroyed at the end (None: a single model, read from the
        kill weight).
    chunk_destroyed_weights : ndarray, shape (n_chunks, models + 1), or None
        Monte Carlo: the models destroyed per chunk of trials (paired comparisons of
        ``destroyed``, as ``chunk_damage_weights`` for the others).
    target_names : tuple of str
        Several targets (docs/units.md): their names in order; empty for one target. The
        headline figures are then the whole scenario's: ``kill`` is every target destroyed,
        ``boxes``, ``models``, ``damage_weights`` and ``destroyed_weights`` are summed over
        the targets; a card's figures are those of the one target with a grid or spiral.
    target_damage_weights : tuple of ndarray
        Several targets: per target, the weight of exactly k damage points marked on it at
        the end (k = 0 .. its models x boxes; a destroyed model counts all its boxes).
    target_destroyed_weights : tuple of ndarray
        Several targets: per target, the weight of exactly k of its models destroyed.
    target_kill_weights : ndarray, shape (n_targets, turns), or None
        Several targets: the weight of each target being destroyed in each round.
    slot_target_weights : ndarray, shape (n_attacks, n_targets), or None
        Several targets: the weight of each attack being made against each target.
    card_models : int
        Models with the card (1; a unit of models with a grid or spiral: its models). For a
        unit, the card figures (``cripple_weights``, ``box_weights``, ``cripple_end_weights``)
        are the share of its models with the system crippled or the box marked, a destroyed
        model counting as all marked (Monte Carlo only).
    slot_paid : tuple of int
        Points each slot row pays with no decision when made (a power attack's), in ``spent``.
    """

    method: str
    trials: int | None
    seed: int | None
    slot_labels: tuple[str, ...]
    total: float
    damage_weights: np.ndarray
    slot_weights: np.ndarray
    kill_weights: np.ndarray
    boxes: int
    extra: dict = field(default_factory=dict)
    attacker_names: tuple[str, ...] = ()
    slot_attacker: tuple[int, ...] = ()
    letters: tuple[str, ...] = ()
    cripple_weights: np.ndarray | None = None
    box_weights: tuple[np.ndarray, ...] = ()
    turns: int = 1
    slot_round: tuple[int, ...] = ()
    maintenance_kill_weights: np.ndarray | None = None
    effect_weights: np.ndarray | None = None
    cripple_end_weights: np.ndarray | None = None
    card: tuple[str, ...] = ()
    card_kind: str = ""
    target_name: str = ""
    chunk_damage_weights: np.ndarray | None = None
    stride: int = 0
    effect_names: tuple[str, ...] | None = None
    models: int = 1
    destroyed_weights: np.ndarray | None = None
    chunk_destroyed_weights: np.ndarray | None = None
    target_names: tuple[str, ...] = ()
    target_damage_weights: tuple[np.ndarray, ...] = ()
    target_destroyed_weights: tuple[np.ndarray, ...] = ()
    target_kill_weights: np.ndarray | None = None
    slot_target_weights: np.ndarray | None = None
    card_models: int = 1
    slot_paid: tuple[int, ...] = ()

    # ------------------------------------------------------------ headline
    @property
    def exact(self) -> bool:
        return self.method == "exact"

    def _kill_weight(self) -> float:
        maintenance = 0.0 if self.maintenance_kill_weights is None else self.maintenance_kill_weights.sum()
        return float(self.kill_weights.sum() + maintenance)

    def _kill_figures(self) -> tuple[float, tuple[float, float]]:
        """:attr:`kill` and its 95% interval from one kill weight."""
        weight = self._kill_weight()
        kill = weight / self.total
        return kill, (kill, kill) if self.exact else wilson_interval(weight, int(self.trials))

    @property
    def kill(self) -> float:
        """Probability the target ends disabled (by attacks or, over several rounds, by
        continuous effects)."""
        return self._kill_weight() / self.total

    @property
    def kill_ci95(self) -> tuple[float, float]:
        """95% Wilson interval of :attr:`kill` (a point for exact results)."""
        return self._kill_figures()[1]

    @property
    def kill_se(self) -> float:
        """Standard error of :attr:`kill` (0 for exact results)."""
        if self.exact:
            return 0.0
        p = self.kill
        return math.sqrt(p * (1 - p) / self.trials)

    @property
    def damage_pmf(self) -> np.ndarray:
        """``pmf[k]``: probability exactly k damage points were marked, k = 0..boxes."""
        return self.damage_weights / self.total

    def _damage_figures(self) -> tuple[float, tuple[float, float], float]:
        """:attr:`damage_mean`, its 95% normal interval and :attr:`damage_sd` from one pmf."""
        mean, sd = pmf_moments(self.damage_pmf)
        return mean, normal_interval(mean, sd, None if self.exact else self.trials), sd

    @property
    def damage_mean(self) -> float:
        """Expected damage points marked on the target."""
        return _pmf_mean(self.damage_pmf)

    @property
    def damage_sd(self) -> float:
        return pmf_sd(self.damage_pmf)

    @property
    def damage_mean_ci95(self) -> tuple[float, float]:
        return self._damage_figures()[1]

    def headline(self) -> tuple[float, tuple[float, float], float, tuple[float, float], float]:
        """``(kill, kill_ci95, damage_mean, damage_mean_ci95, damage_sd)``, each worked out
        once: the same figures as those properties, read one by one (a summary of many points
        asks for all five).

        Examples
        --------
        >>> from mathhammer import Attacker, Scenario, Target, Weapon, simulate
        >>> jack = Attacker("Jack", [Weapon("Fist", "melee", skill=7, pow=16, attacks=2)])
        >>> res = simulate(Scenario(Target(defense=12, arm=18, boxes=30), [jack]), method="exact")
        >>> res.headline() == (res.kill, res.kill_ci95, res.damage_mean, res.damage_mean_ci95,
        ...                    res.damage_sd)
        True
        """
        return (*self._kill_figures(), *self._damage_figures())

    @property
    def damage_at_least(self) -> np.ndarray:
        """``p[k]``: probability at least k damage points were marked."""
        return np.cumsum(self.damage_pmf[::-1])[::-1]

    def objective_value(self, objective: str) -> tuple[float, tuple[float, float]]:
        """The figure an optimizer objective names and its 95% interval: ``kill``,
        ``damage`` (expected damage), ``destroyed`` (expected models destroyed) or
        ``cripple:X``."""
        if objective == "kill":
            return self.kill, self.kill_ci95
        if objective == "damage":
            return self.damage_mean, self.damage_mean_ci95
        if objective == "destroyed":
            return self.models_destroyed_mean, self.models_destroyed_ci95
        letter = objective.split(":", 1)[1]
        return self.cripple[letter], self.cripple_ci95[letter]

    # ------------------------------------------------------------ export
    def to_dict(self) -> dict:
        """Plain-Python figures (the CLI's ``--json`` object)."""
        lo, hi = self.kill_ci95
        dlo, dhi = self.damage_mean_ci95
        return {
            "method": self.method,
            "trials": self.trials,
            "seed": self.seed,
            "kill": self.kill,
            "kill_ci95": [lo, hi],
            "damage_mean": self.damage_mean,
            "damage_mean_ci95": [dlo, dhi],
            "damage_pmf": [float(p) for p in self.damage_pmf],
            "attacks": self.attacks,
            "spent": self.spent_by_attacker,
            "target_spent": self.target_spent_total,
            "tough_saves": self.tough_saves_total,
            "cripple": self.cripple,
            "cripple_ci95": {x: list(v) for x, v in self.cripple_ci95.items()},
            "box_marked": [[float(p) for p in col] for col in self.box_marked],
            "turns": self.turns,
            "by_turn": self.turn_rows,
            "effects": self.effects,
            **self.unit_dict(),
            "all_destroyed": self.all_destroyed,
            "targets": self.targets,
            **({"optimizer": self.extra["optimizer"]} if "optimizer" in self.extra else {}),
            **({"best_play": self.best_play_dict()} if "best_play" in self.extra else {}),
        }

    def best_play_dict(self) -> dict:
        """``extra["best_play"]`` with the decisions as :meth:`play_table` rows (the
        ``--json`` key ``best_play``)."""
        from .play import play_rows

        info = dict(self.extra["best_play"])
        if "decisions" in info:
            info["decisions"] = play_rows(self)
        return info

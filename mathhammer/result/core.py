"""Result of a simulation: counters and histograms turned into probabilities.

A :class:`Result` never holds per-trial samples: Monte Carlo runs keep counts (weights that
sum to ``trials``), the exact engine keeps probabilities (weights that sum to 1). Every
figure is derived from those weights, so both methods report through the same code.

The result holds the headline weights (damage, kills, each attack's counters) and small
typed views, each None where it does not apply: the target's grid or spiral
(:class:`~.card.CardPart`), a unit's models (:class:`~.units.UnitPart`), the continuous
effects of the rounds (:class:`~.rounds.RoundsPart`), several targets
(:class:`~.targets.TargetsPart`), best play (:class:`~.bestplay.BestPlay`) and the
optimizer's report (:class:`~.optimizer.OptimizerReport`). Its figures are worked out here
(the headline), by the views, or by the functions of :mod:`.slots`, :mod:`.rounds`,
:mod:`.units`, :mod:`.targets` and :mod:`.tables`, which the class binds as its properties
and methods.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._core.intervals import normal_interval, pmf_moments, pmf_sd, wilson_interval
from .._core.validate import check_choice, check_int
from . import metrics
from . import rounds as by_round
from . import slots as by_slot
from . import tables as table_methods
from . import targets as by_target
from . import units as by_unit
from .bestplay import BestPlay
from .card import CardPart
from .fields import EFFECT_FIELDS, EFFECT_NAMES, EFFECT_TARGET_SPENT, EFFECT_TOUGH
from .optimizer import OptimizerReport
from .rounds import RoundsPart
from .targets import TargetsPart
from .units import UnitPart

__all__ = ["Result"]


def _pmf_mean(pmf: np.ndarray) -> float:
    """Mean of a distribution over 0, 1, 2, ... (``pmf[k]``: probability of k)."""
    return float(np.arange(pmf.size) @ pmf)


@dataclass(frozen=True, eq=False)
class Result:
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
        Weight of ending with exactly k damage points marked (a unit, several targets: on
        all of their models, a destroyed model counting all its boxes).
    slot_weights : ndarray, shape (n_attacks, SLOT_FIELDS)
        Per attack, the ``SLOT_*`` columns: made, hit, critical hit, damage points marked,
        paid attack boosts, paid damage boosts, attacker points spent, target points spent,
        Tough saves (each summed over trials, or a probability-weighted sum).
    kill_weights : ndarray, shape (n_attacks,)
        Weight of the target being disabled by exactly that attack (several targets: the
        last of them destroyed).
    boxes : int
        Damage capacity of the target (a unit, several targets: all of their models').
    attacker_names : tuple of str
        Names of the attackers, in order.
    slot_attacker : tuple of int
        Index into ``attacker_names`` of the attacker making each attack slot.
    slot_round : tuple of int
        Round (0-based) of each slot row.
    slot_paid : tuple of int
        Points each slot row pays with no decision when made (a power attack's), in ``spent``.
    turns : int
        Rounds simulated. With attacks in several rounds, ``slot_labels`` (and every per-slot
        array) has one row per attack slot per round, round-major, labels prefixed ``R2 · ``.
    target_name : str
        The target's name (several: their names joined), for reports and plot titles.
    stride : int
        The common-random-numbers stride the run used (0: packed dice, see
        :func:`mathhammer.simulate`).
    chunk_damage_weights : ndarray, shape (n_chunks, boxes + 1), or None
        Monte Carlo: ``damage_weights`` per chunk of trials. Chunks are independent batches
        with their own random streams, so two results run with the same seed and ``stride``
        can be compared chunk by chunk (:func:`mathhammer.result.paired.paired_difference`).
    chunk_destroyed_weights : ndarray, shape (n_chunks, models + 1), or None
        Monte Carlo: the models destroyed per chunk of trials (paired comparisons of
        ``destroyed``, as ``chunk_damage_weights`` for the others).
    slot_damage_sq : ndarray, shape (n_attacks,), or None
        Exact: per attack, ``E[(boxes it marked)**2]`` (to size Monte Carlo tolerances).
    card : CardPart or None
        The target's damage grid or life spiral and its weights; None for a damage track.
    units : UnitPart or None
        A target of several models (a unit, or several targets): the models destroyed; None
        for a single model, read from the kill.
    rounds : RoundsPart or None
        The continuous effects and hazards and the kills of the maintenance phases; None
        when none can happen.
    per_target : TargetsPart or None
        Several targets (docs/units.md): each one's weights; None for one target. The
        headline figures are then the whole scenario's: ``kill`` is every target destroyed,
        ``boxes``, ``models`` and the damage and models destroyed are summed over the
        targets; a card's figures are those of the one target with a grid or spiral.
    play : BestPlay or None
        How best play was solved and its decisions; None without best play.
    optimizer : OptimizerReport or None
        The policy chosen for the attackers with ``policy = "optimize"``.
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
    attacker_names: tuple[str, ...] = ()
    slot_attacker: tuple[int, ...] = ()
    slot_round: tuple[int, ...] = ()
    slot_paid: tuple[int, ...] = ()
    turns: int = 1
    target_name: str = ""
    stride: int = 0
    chunk_damage_weights: np.ndarray | None = None
    chunk_destroyed_weights: np.ndarray | None = None
    slot_damage_sq: np.ndarray | None = None
    card: CardPart | None = None
    units: UnitPart | None = None
    rounds: RoundsPart | None = None
    per_target: TargetsPart | None = None
    play: BestPlay | None = None
    optimizer: OptimizerReport | None = None

    # ------------------------------------------------------------ headline
    @property
    def exact(self) -> bool:
        return self.method == "exact"

    @property
    def models(self) -> int:
        """Models of the target (a unit, several targets: all of them; 1 for a single model)."""
        return 1 if self.units is None else self.units.models

    @property
    def n_attacks(self) -> int:
        return len(self.slot_labels)

    def kill_weight(self) -> float:
        """Weight of the kill: by the attacks and, over several rounds, in the maintenance
        phases (:attr:`kill` times :attr:`total`)."""
        maintenance = 0.0 if self.rounds is None else self.rounds.maintenance_kill_weights.sum()
        return float(self.kill_weights.sum() + maintenance)

    def _kill_figures(self) -> tuple[float, tuple[float, float]]:
        """:attr:`kill` and its 95% interval from one kill weight."""
        weight = self.kill_weight()
        kill = weight / self.total
        return kill, (kill, kill) if self.exact else wilson_interval(weight, int(self.trials))

    @property
    def kill(self) -> float:
        """Probability the target ends disabled (by attacks or, over several rounds, by
        continuous effects)."""
        return self.kill_weight() / self.total

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

    objective_value = metrics.objective_value

    # ------------------------------------------------------------ each attack (.slots)
    made = property(by_slot.made)
    hit = property(by_slot.hit)
    crit = property(by_slot.crit)
    attack_damage_mean = property(by_slot.attack_damage_mean)
    boost_attack_rate = property(by_slot.boost_attack_rate)
    boost_damage_rate = property(by_slot.boost_damage_rate)
    spent_mean = property(by_slot.spent_mean)
    target_spent_mean = property(by_slot.target_spent_mean)
    tough_saves = property(by_slot.tough_saves)
    shred_mean = property(by_slot.shred_mean)
    spent_by_attacker = property(by_slot.spent_by_attacker)
    target_spent_total = property(by_slot.target_spent_total)
    tough_saves_total = property(by_slot.tough_saves_total)
    attacks = property(by_slot.attacks)

    # ------------------------------------------------------------ rounds (.rounds)
    kill_after = property(by_round.kill_after)
    kill_by_turn = property(by_round.kill_by_turn)
    turn_rows = property(by_round.turn_rows)

    def effect_figure(self, effect: str, column: int) -> np.ndarray:
        """Per round, an ``EFFECT_*`` figure of ``effect`` divided by the total
        (:meth:`RoundsPart.effect_figure`; zeros when no continuous effect can happen)."""
        check_choice("effect", effect, EFFECT_NAMES)
        check_int("column", column, 0, EFFECT_FIELDS - 1)
        if self.rounds is None:
            return np.zeros(self.turns)
        return self.rounds.effect_figure(effect, column, self.total)

    def effect_total(self, column: int) -> float:
        """An ``EFFECT_*`` figure summed over effects and rounds, divided by the total (0.0
        when no continuous effect can happen)."""
        check_int("column", column, 0, EFFECT_FIELDS - 1)
        return 0.0 if self.rounds is None else self.rounds.effect_total(column, self.total)

    @property
    def effects_target_spent(self) -> float:
        """Expected focus the target's power field spent against fire, corrosion and
        quicksand (not against an attack: ``target_spent_mean``)."""
        return self.effect_total(EFFECT_TARGET_SPENT)

    @property
    def effects_tough_saves(self) -> float:
        """Expected Tough saves caused by fire, corrosion and quicksand (not by an attack:
        ``tough_saves``)."""
        return self.effect_total(EFFECT_TOUGH)

    @property
    def effects(self) -> dict:
        """Per continuous effect and hazard, what it did (:meth:`RoundsPart.effects`; empty
        when none can happen)."""
        return {} if self.rounds is None else self.rounds.effects(self.total)

    # ------------------------------------------------------------ grid or spiral (.card)
    @property
    def cripple_after(self) -> np.ndarray:
        """``p[i, j]``: probability letter j of the card is crippled once attack slot i is
        resolved (:meth:`CardPart.cripple_after`; no columns without a card)."""
        if self.card is None:
            return np.zeros((self.n_attacks, 0))
        return self.card.cripple_after(self.total)

    @property
    def cripple(self) -> dict[str, float]:
        """Probability each system or aspect on the card is crippled at the end
        (:meth:`CardPart.cripple`; empty for a damage track)."""
        return {} if self.card is None else self.card.cripple(self.total)

    @property
    def cripple_ci95(self) -> dict[str, tuple[float, float]]:
        """95% Wilson interval of each :attr:`cripple` figure (points for exact results)."""
        if self.card is None:
            return {}
        return self.card.cripple_ci95(self.total, None if self.exact else self.trials)

    @property
    def box_marked(self) -> list[np.ndarray]:
        """Per column (branch), the probability each box is marked at the end (empty for a
        damage track)."""
        return [] if self.card is None else self.card.box_marked(self.total)

    # ------------------------------------------------------------ models destroyed (.units)
    models_destroyed_pmf = property(by_unit.models_destroyed_pmf)
    models_destroyed_mean = property(by_unit.models_destroyed_mean)
    models_destroyed_sd = property(by_unit.models_destroyed_sd)
    models_destroyed_ci95 = property(by_unit.models_destroyed_ci95)
    models_destroyed_at_least = property(by_unit.models_destroyed_at_least)
    models_destroyed_at_least_ci95 = property(by_unit.models_destroyed_at_least_ci95)
    destroyed_by_attack = property(by_unit.destroyed_by_attack)
    destroyed_mean_after = property(by_unit.destroyed_mean_after)
    destroyed_summary = by_unit.destroyed_summary
    unit_dict = by_unit.unit_dict

    # ------------------------------------------------------------ each target (.targets)
    several = property(by_target.several)
    all_destroyed = property(by_target.all_destroyed)
    names = property(by_target.names)
    targets = property(by_target.targets)
    target_figures = by_target.target_figures

    # ------------------------------------------------------------ tables and files (.tables)
    summary = table_methods.summary
    damage_table = table_methods.damage_table
    destroyed_table = table_methods.destroyed_table
    attack_table = table_methods.attack_table
    play_table = table_methods.play_table
    cripple_table = table_methods.cripple_table
    cripple_after_table = table_methods.cripple_after_table
    by_turn = table_methods.by_turn
    effect_table = table_methods.effect_table
    box_table = table_methods.box_table
    targets_table = table_methods.targets_table
    tables = table_methods.tables
    to_csv = table_methods.to_csv
    to_json = table_methods.to_json

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
            **({"optimizer": self.optimizer.to_dict()} if self.optimizer is not None else {}),
            **({"best_play": self.best_play_dict()} if self.play is not None else {}),
        }

    def best_play_dict(self) -> dict:
        """:attr:`play` as plain Python, with the decisions as :meth:`play_table` rows (the
        ``--json`` key ``best_play``). Raises :class:`KeyError` without best play."""
        from .play import play_rows

        if self.play is None:
            raise KeyError("best_play")
        info = self.play.to_dict()
        if "decisions" in info:
            info["decisions"] = play_rows(self)
        return info

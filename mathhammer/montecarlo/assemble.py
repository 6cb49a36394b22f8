"""Counts of a Monte Carlo run -> :class:`~mathhammer.result.Result`.

The kernels count per chunk and the driver merges the chunks (:class:`Counts`); here those
integers become a Result's weights (which sum to the number of trials), with what each row
means read off the encoded scenario (slot labels, attackers and rounds, built once by the
encoder) and the target's card.
"""

from __future__ import annotations

from ..result import BestPlay, CardPart, Result, RoundsPart, TargetsPart, UnitPart
from ..result.naming import card_names, scenario_names
from ..rules import Scenario
from ._kernels.driver import Counts
from ._kernels.layout import CE_CORROSION, CE_FIRE, E_KILL
from .card_tables import box_counts, letter_counts
from .encode import Encoded

__all__ = ["assemble"]


def assemble(scenario: Scenario, enc: Encoded, counts: Counts, trials: int, seed: int,
             stride: int, play: BestPlay | None = None) -> Result:
    """The :class:`Result` of a run of ``trials`` trials of ``scenario`` (encoded as
    ``enc``) with ``seed`` and ``stride`` (0: packed dice); ``play``: what best play
    reports, when it decided."""
    models = scenario.total_models
    return Result(
        method="monte_carlo",
        trials=trials,
        seed=seed,
        slot_labels=enc.slot_labels,
        total=float(trials),
        damage_weights=counts.damage_hist.astype(float),
        slot_weights=counts.attack_counts.astype(float),
        kill_weights=counts.kill_at.astype(float),
        boxes=scenario.total_boxes,
        chunk_damage_weights=counts.chunk_damage.astype(float),
        chunk_destroyed_weights=counts.chunk_destroyed.astype(float),
        stride=stride,
        slot_attacker=enc.slot_attacker,
        slot_round=enc.slot_round,
        slot_paid=enc.slot_paid,
        turns=scenario.turns,
        **scenario_names(scenario),
        card=_card(scenario, enc, counts),
        units=UnitPart(models, counts.destroyed_hist.astype(float)) if models > 1 else None,
        rounds=_rounds(scenario, counts),
        per_target=_targets(scenario, counts),
        play=play,
    )


def _targets(scenario: Scenario, counts: Counts) -> TargetsPart | None:
    """Several targets: each one's damage, models destroyed and destruction by round."""
    if not scenario.several:
        return None
    return TargetsPart(
        names=tuple(t.name for t in scenario.targets),
        damage_weights=tuple(counts.target_damage[g, : t.boxes * t.models + 1].astype(float)
                             for g, t in enumerate(scenario.targets)),
        destroyed_weights=tuple(counts.target_destroyed[g, : t.models + 1].astype(float)
                                for g, t in enumerate(scenario.targets)),
        kill_weights=counts.target_kills.astype(float),
        made_weights=counts.target_made.astype(float),
    )


def _rounds(scenario: Scenario, counts: Counts) -> RoundsPart | None:
    """The maintenance phases' kills and the ``EFFECT_*`` counts, where a continuous effect
    or hazard can happen (elsewhere the maintenance phases kill nothing)."""
    if not scenario.continuous:
        return None
    effects = counts.effect_counts.astype(float)
    return RoundsPart(
        maintenance_kill_weights=effects[:, CE_FIRE, E_KILL] + effects[:, CE_CORROSION, E_KILL],
        effect_weights=effects, effect_names=scenario.possible_effects)


def _card(scenario: Scenario, enc: Encoded, counts: Counts) -> CardPart | None:
    """The grid or spiral: cripple and box weights from the kernel's histograms of crippled
    sets (per slot) and of marked rows (per column)."""
    target = scenario.card_target
    if target.card is None:
        return None
    # a unit of models with a card: counted over its models, each figure is their share
    share = 1.0 / target.models
    # exact integer sums over the sets holding each letter (each box), then the share
    cripple = share * letter_counts(counts.cripple_hist, "".join(enc.letters),
                                    target.letters).astype(float)
    cripple, end = cripple[:-1], cripple[-1]  # the last row: after the last round
    marked = share * box_counts(counts.mask_hist, target.card).astype(float)
    boxes = tuple(marked[c, : len(col)] for c, col in enumerate(target.card))
    return CardPart(**card_names(scenario), letters=target.letters, cripple_weights=cripple,
                    box_weights=boxes, cripple_end_weights=end, models=target.models)

"""Counts of a Monte Carlo run -> :class:`~mathhammer.result.Result`.

The kernels count per chunk and the driver merges the chunks (:class:`Counts`); here those
integers become a Result's weights (which sum to the number of trials), with what each row
means read off the encoded scenario (slot labels, attackers and rounds, built once by the
encoder) and the target's card.
"""

from __future__ import annotations

from ..result import Result
from ..result.naming import scenario_names
from ..rules import Scenario
from ._kernels.driver import Counts
from ._kernels.layout import CE_CORROSION, CE_FIRE, E_KILL
from .card_tables import box_counts, letter_counts
from .encode import Encoded

__all__ = ["assemble"]


def assemble(scenario: Scenario, enc: Encoded, counts: Counts, trials: int, seed: int,
             stride: int) -> Result:
    """The :class:`Result` of a run of ``trials`` trials of ``scenario`` (encoded as
    ``enc``) with ``seed`` and ``stride`` (0: packed dice)."""
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
        models=scenario.total_models,
        destroyed_weights=counts.destroyed_hist.astype(float) if scenario.total_models > 1 else None,
        chunk_damage_weights=counts.chunk_damage.astype(float),
        chunk_destroyed_weights=counts.chunk_destroyed.astype(float),
        stride=stride,
        slot_attacker=enc.slot_attacker,
        slot_paid=enc.slot_paid,
        **scenario_names(scenario),
        **_card_figures(scenario, enc, counts),
        **_round_figures(scenario, enc, counts),
        **_target_figures(scenario, counts),
    )


def _target_figures(scenario: Scenario, counts: Counts) -> dict:
    """Several targets: each one's damage, models destroyed and destruction by round."""
    if not scenario.several:
        return {}
    return {
        "target_damage_weights": tuple(counts.target_damage[g, : t.boxes * t.models + 1].astype(float)
                                       for g, t in enumerate(scenario.targets)),
        "target_destroyed_weights": tuple(counts.target_destroyed[g, : t.models + 1].astype(float)
                                          for g, t in enumerate(scenario.targets)),
        "target_kill_weights": counts.target_kills.astype(float),
        "slot_target_weights": counts.target_made.astype(float),
    }


def _round_figures(scenario: Scenario, enc: Encoded, counts: Counts) -> dict:
    """``turns``, ``slot_round``, ``maintenance_kill_weights`` and ``effect_weights``."""
    effects = counts.effect_counts.astype(float)
    return {
        "turns": scenario.turns,
        "slot_round": enc.slot_round,
        "maintenance_kill_weights": effects[:, CE_FIRE, E_KILL] + effects[:, CE_CORROSION, E_KILL],
        "effect_weights": effects if scenario.continuous else None,
    }


def _card_figures(scenario: Scenario, enc: Encoded, counts: Counts) -> dict:
    """``letters``, ``cripple_weights`` and ``box_weights`` of a grid or spiral from the
    kernel's histograms of crippled sets (per slot) and of marked rows (per column)."""
    target = scenario.card_target
    if target.card is None:
        return {}
    # a unit of models with a card: counted over its models, each figure is their share
    share = 1.0 / target.models
    # exact integer sums over the sets holding each letter (each box), then the share
    cripple = share * letter_counts(counts.cripple_hist, "".join(enc.letters),
                                    target.letters).astype(float)
    cripple, end = cripple[:-1], cripple[-1]  # the last row: after the last round
    marked = share * box_counts(counts.mask_hist, target.card).astype(float)
    boxes = tuple(marked[c, : len(col)] for c, col in enumerate(target.card))
    return {"letters": target.letters, "cripple_weights": cripple, "box_weights": boxes,
            "cripple_end_weights": end, "card_models": target.models}

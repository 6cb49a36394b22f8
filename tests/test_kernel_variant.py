"""The general kernel's lean variant (issue 18, "First run and waiting": compile only what the
scenario needs): which scenarios take it, and that it counts exactly as the full variant.

The lean variant is :func:`mathhammer.montecarlo._kernels.sequence.run_trials` compiled with
``rare=None``: Numba prunes the paths of units, blasts, continuous effects and hazards. A
scenario takes it only when none of those paths can run, so the full variant, forced here
through the driver's ``needs_rare``, must give the same counts bit for bit.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from mathhammer import Attacker, Scenario, Target, Weapon, load_scenario
from mathhammer.montecarlo._kernels import driver
from mathhammer.montecarlo._kernels.variant import needs_rare
from mathhammer.montecarlo.encode import encode

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

#: Example files whose scenario has a unit, a blast, several targets, a continuous effect or
#: a hazard (the full variant), and general-kernel ones with none of them (the lean variant).
FULL = ["fire_and_corrosion.toml", "hazards.toml", "several_targets.toml"]
LEAN = ["card_matchup.toml", "grid_feedback.toml", "heavy_warjack_focus.toml",
        "ice_cage_and_shatter.toml", "warcaster_power_field.toml", "warjack_duel.toml"]


def _focus_jack(**target) -> Scenario:
    """A warjack with 1 focus (the general kernel: it may boost) and two fist attacks."""
    fist = Weapon("Fist", "melee", 7, 16, attacks=2)
    return Scenario(Target(**{"defense": 12, "arm": 18, "boxes": 20, **target}),
                    [Attacker("Jack", [fist], focus=1)])


@pytest.mark.parametrize("name", FULL)
def test_scenarios_with_rare_paths_take_the_full_variant(name):
    assert needs_rare(encode(load_scenario(EXAMPLES / name)).tables)


@pytest.mark.parametrize("name", LEAN)
def test_scenarios_without_rare_paths_take_the_lean_variant(name):
    assert not needs_rare(encode(load_scenario(EXAMPLES / name)).tables)


def test_a_unit_takes_the_full_variant():
    # a unit of three models: spill-over and every model's effects are unit paths
    assert not needs_rare(encode(_focus_jack()).tables)
    assert needs_rare(encode(_focus_jack(models=3, boxes=5)).tables)


def _counts(scenario, monkeypatch, full: bool):
    enc = encode(scenario)
    if full:
        monkeypatch.setattr(driver, "needs_rare", lambda tables: True)
    counts = driver.run_sequences(enc, 30_000, 11, chunk=4096)
    monkeypatch.undo()
    return counts


@pytest.mark.parametrize("name", ["focus jack"] + LEAN)
def test_the_lean_variant_counts_as_the_full_one(name, monkeypatch):
    scenario = _focus_jack() if name == "focus jack" else load_scenario(EXAMPLES / name)
    lean = _counts(scenario, monkeypatch, full=False)
    full = _counts(scenario, monkeypatch, full=True)
    for field in dataclasses.fields(lean):
        assert np.array_equal(getattr(lean, field.name), getattr(full, field.name)), field.name
    assert lean.damage_hist.sum() == 30_000

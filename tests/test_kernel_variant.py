"""The general kernel's pruned variants (issue 18, "First run and waiting": compile only what
the scenario needs): which scenarios take each, and that each counts exactly as the full one.

:func:`mathhammer.montecarlo._kernels.sequence.run_trials` compiled with ``lasting=None``
prunes the paths of continuous effects and hazards (the units variant); with ``rare=None``,
those of units, blasts and several targets (the lasting variant); with both, the lean
variant; with ``extra=None`` too, the rules beyond the core of an attack (the basic
variant). A scenario takes a pruned variant only when none of its pruned paths can run, so
the full variant, forced here through the driver's ``variant_of``, must give the same counts
bit for bit.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from activation_cases import CASES as ACTIVATION_CASES
from turns_cases import CASES as TURNS_CASES
from unit_cases import CASES as UNIT_CASES

from mathhammer import Attacker, Scenario, Target, Weapon, load_scenario
from mathhammer.montecarlo._kernels import driver
from mathhammer.montecarlo._kernels.variant import (needs_extra, needs_lasting, needs_rare,
                                                    variant_of)
from mathhammer.montecarlo.encode import encode

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
DEMO = ROOT / "mathhammer" / "data" / "demo.toml"

#: Example files whose scenario has a continuous effect or a hazard on one model (the lasting
#: variant); several targets (the full variant, whatever else they need); general-kernel ones
#: with none of them but with a rule the basic variant prunes (the lean variant: a target's
#: power field, "damage to", Ice Cage and Shatter); and general-kernel ones with neither (the
#: basic variant).
LASTING = ["fire_and_corrosion.toml", "hazards.toml"]
FULL = ["several_targets.toml"]
#: The unit scenarios of tests/unit_cases.py that take the units variant (no continuous
#: effect or hazard): spill-over, Tough, combined attacks, blasts on a hit and on a miss,
#: best play and fixed spending against a unit.
UNIT_VARIANT_CASES = [(name, scen) for name, scen in UNIT_CASES
                      if not needs_lasting(encode(scen).tables)]
#: The one-model scenarios of tests/turns_cases.py (continuous effects and hazards over
#: rounds, on tracks, grids and spirals, with Tough, healing and power fields): the lasting
#: variant.
LASTING_VARIANT_CASES = [(name, scen) for name, scen in TURNS_CASES
                         if not needs_rare(encode(scen).tables)]
#: The unit scenarios with continuous effects or quicksand: the full variant.
FULL_CASES = [(name, scen) for name, scen in UNIT_CASES if needs_lasting(encode(scen).tables)]
LEAN = ["card_matchup.toml", "grid_feedback.toml", "ice_cage_and_shatter.toml",
        "warcaster_power_field.toml"]
BASIC = ["heavy_warjack_focus.toml", "warjack_duel.toml"]


def _path(name: str) -> Path:
    return DEMO if name == "demo" else EXAMPLES / name


def _focus_jack(weapon_rules=(), **target) -> Scenario:
    """A warjack with 1 focus (the general kernel: it may boost) and two fist attacks."""
    fist = Weapon("Fist", "melee", 7, 16, attacks=2, rules=list(weapon_rules))
    return Scenario(Target(**{"defense": 12, "arm": 18, "boxes": 20, **target}),
                    [Attacker("Jack", [fist], focus=1)])


@pytest.mark.parametrize("name", LASTING)
def test_scenarios_with_lasting_effects_take_the_lasting_variant(name):
    assert (variant_of(encode(load_scenario(EXAMPLES / name)).tables)
            == ("lasting", (None, True, True)))


@pytest.mark.parametrize("name, scenario", FULL_CASES, ids=[c[0] for c in FULL_CASES])
def test_lasting_effects_on_a_unit_take_the_full_variant(name, scenario):
    assert variant_of(encode(scenario).tables) == ("full", (True, True, True))


@pytest.mark.parametrize("name", FULL)
def test_several_targets_take_the_full_variant(name):
    assert (variant_of(encode(load_scenario(EXAMPLES / name)).tables)
            == ("full", (True, True, True)))


def test_shred_takes_the_full_variant():
    # Shred's attacks go down a routes matrix, as several targets' do
    shred = dict(ACTIVATION_CASES)["shred_with_focus"]
    assert variant_of(encode(shred).tables)[0] == "full"


@pytest.mark.parametrize("name", LEAN)
def test_scenarios_with_extra_rules_take_the_lean_variant(name):
    assert (variant_of(encode(load_scenario(EXAMPLES / name)).tables)
            == ("lean", (None, True, None)))


@pytest.mark.parametrize("name", BASIC + ["demo"])
def test_scenarios_of_the_core_rules_take_the_basic_variant(name):
    # the demo (a charging heavy warjack with a knockdown hammer and a light warjack, best
    # play, against a heavy warjack's grid) is the first run after installing
    assert (variant_of(encode(load_scenario(_path(name))).tables)
            == ("basic", (None, None, None)))


def test_a_unit_takes_the_units_variant_and_fire_on_it_the_full_one():
    # a unit of three models: spill-over and every model's effects are unit paths
    assert not needs_rare(encode(_focus_jack()).tables)
    unit = encode(_focus_jack(models=3, boxes=5)).tables
    assert needs_rare(unit) and not needs_lasting(unit) and variant_of(unit)[0] == "units"
    # a weapon setting fire, or a target standing in a hazard: the maintenance phase, on a
    # unit's models (full) or on one model (lasting)
    for scen, variant in ((_focus_jack(["fire"], models=3, boxes=5), "full"),
                          (_focus_jack(models=3, boxes=5, terrain={"acid_bath"}), "full"),
                          (_focus_jack(["fire"]), "lasting"),
                          (_focus_jack(terrain={"quicksand"}), "lasting")):
        tables = encode(scen).tables
        assert needs_lasting(tables) and variant_of(tables)[0] == variant


@pytest.mark.parametrize("target, weapon_rules", [
    ({"rules": ["tough"]}, ()),
    ({"focus": 2}, ()),
    ({}, ("reroll_attack",)),
    ({}, ("grievous_wounds",)),
])
def test_each_extra_rule_takes_the_lean_variant(target, weapon_rules):
    # a target's Tough and power field, a weapon's rule the basic variant prunes
    assert not needs_extra(encode(_focus_jack()).tables)
    tables = encode(_focus_jack(weapon_rules, **target)).tables
    assert needs_extra(tables) and variant_of(tables)[0] == "lean"


def _counts(scenario, monkeypatch, full: bool):
    enc = encode(scenario)
    if full:
        monkeypatch.setattr(driver, "variant_of", lambda tables: ("full", (True, True, True)))
    counts = driver.run_sequences(enc, 30_000, 11, chunk=4096)
    monkeypatch.undo()
    return counts


@pytest.mark.parametrize("name", ["focus jack", "tough jack", "demo"] + BASIC + LEAN + LASTING)
def test_a_pruned_variant_counts_as_the_full_one(name, monkeypatch):
    if name == "focus jack":
        scenario = _focus_jack()
    elif name == "tough jack":
        scenario = _focus_jack(rules=["tough"])
    else:
        scenario = load_scenario(_path(name))
    pruned = _counts(scenario, monkeypatch, full=False)
    full = _counts(scenario, monkeypatch, full=True)
    for field in dataclasses.fields(pruned):
        assert np.array_equal(getattr(pruned, field.name), getattr(full, field.name)), field.name
    assert pruned.damage_hist.sum() == 30_000


@pytest.mark.parametrize("name, scenario, variant",
                         [(n, s, "units") for n, s in UNIT_VARIANT_CASES]
                         + [(n, s, "lasting") for n, s in LASTING_VARIANT_CASES],
                         ids=[c[0] for c in UNIT_VARIANT_CASES + LASTING_VARIANT_CASES])
def test_the_units_and_lasting_variants_count_as_the_full_one(name, scenario, variant,
                                                               monkeypatch):
    assert variant_of(encode(scenario).tables)[0] == variant
    pruned = _counts(scenario, monkeypatch, full=False)
    full = _counts(scenario, monkeypatch, full=True)
    for field in dataclasses.fields(pruned):
        assert np.array_equal(getattr(pruned, field.name), getattr(full, field.name)), field.name

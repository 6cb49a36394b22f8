"""The general kernel's variants (issue 18, "First run and waiting": compile only what the
scenario needs): which scenarios take each, and that each counts exactly as the full one.

The basic variant compiles without the steps of the rules beyond the core of an attack, the
lean one with them; the lasting variant adds the round's end (continuous effects, hazards);
the units_basic, units and full variants (:mod:`mathhammer.montecarlo._kernels.many_trials`)
play a unit's models and several targets: units_basic on damage tracks with the basic
variant's rules, units with any rule, full with the round's end. A scenario takes a pruned
variant only when none of its pruned paths can run, so the full variant, forced here through
the driver's ``variant_of``, must give the same counts bit for bit; and every rule of the
vocabulary counts alike on the kernel the driver picks for it (a fast path too).
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
FULL = ["several_targets.toml"]  # several targets: units; with fire, full
#: The unit scenarios of tests/unit_cases.py that take the units or units_basic variant (no
#: continuous effect or hazard): spill-over, Tough, combined attacks, blasts on a hit and on
#: a miss, best play and fixed spending against a unit.
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
def test_several_targets_take_the_units_variant_and_with_fire_the_full_one(name):
    scenario = load_scenario(EXAMPLES / name)
    assert variant_of(encode(scenario).tables) == ("units", (True, True, None))
    fire = dataclasses.replace(scenario.targets[0], effects=frozenset({"fire"}))
    burning = dataclasses.replace(scenario, target=fire, targets=(fire,) + scenario.targets[1:])
    assert variant_of(encode(burning).tables) == ("full", (True, True, True))


def test_shred_takes_the_units_variant():
    # Shred's attacks go down a routes matrix, as several targets' do
    shred = dict(ACTIVATION_CASES)["shred_with_focus"]
    assert variant_of(encode(shred).tables)[0] == "units"


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


def test_a_unit_takes_a_units_variant_and_fire_on_it_the_full_one():
    # a unit of three models: spill-over and every model's effects are unit paths; on damage
    # tracks with the core rules, units_basic, else units
    assert not needs_rare(encode(_focus_jack()).tables)
    unit = encode(_focus_jack(models=3, boxes=5)).tables
    assert needs_rare(unit) and not needs_lasting(unit) and not needs_extra(unit)
    assert variant_of(unit) == ("units_basic", (True, None, None))
    tough = encode(_focus_jack(models=3, boxes=5, rules=["tough"])).tables
    assert variant_of(tough) == ("units", (True, True, None))
    assert variant_of(encode(_focus_jack(["grievous_wounds"], models=3, boxes=5)).tables)[0] == "units"
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


def test_the_unit_cases_take_both_units_variants():
    # the cases below run each: a unit with the core rules and one with more
    taken = {variant_of(encode(s).tables)[0] for _, s in UNIT_VARIANT_CASES}
    assert taken == {"units", "units_basic"}


@pytest.mark.parametrize("name, scenario, variant",
                         [(n, s, ("units", "units_basic")) for n, s in UNIT_VARIANT_CASES]
                         + [(n, s, ("lasting",)) for n, s in LASTING_VARIANT_CASES],
                         ids=[c[0] for c in UNIT_VARIANT_CASES + LASTING_VARIANT_CASES])
def test_the_units_and_lasting_variants_count_as_the_full_one(name, scenario, variant,
                                                               monkeypatch):
    assert variant_of(encode(scenario).tables)[0] in variant
    pruned = _counts(scenario, monkeypatch, full=False)
    full = _counts(scenario, monkeypatch, full=True)
    for field in dataclasses.fields(pruned):
        assert np.array_equal(getattr(pruned, field.name), getattr(full, field.name)), field.name


# ------------------------------------------------------------------ every rule on every kernel
def _rule_cases():
    """One scenario per rule of the vocabulary (a weapon's, a target's, a state, a hazard, a
    continuous effect, an upkeep rule, a power field, a reading), each with a plain attacker
    and with one spending focus: ``(id, scenario)``."""
    from mathhammer.rules import Spend
    from mathhammer.rules.vocabulary import (CONTINUOUS_EFFECTS, HAZARDS, READINGS, TARGET_RULES,
                                             TARGET_STATES, UPKEEP_RULES, WEAPON_RULES)
    base = {"defense": 12, "arm": 15, "boxes": 12, "upkeep_arm": 2, "spell_def": 1}
    targets = [("weapon " + r, base, {r}) for r in WEAPON_RULES]
    # the rules that need the target down or stationary (Trash, Shatter), by a ranged weapon
    down = {**base, "state": {"knocked_down", "stationary"}}
    targets += [("ranged weapon " + r + " on a target down", down, {r}) for r in WEAPON_RULES]
    targets += [("target " + r, {**base, "rules": {r}}, set()) for r in TARGET_RULES]
    targets += [("state " + s, {**base, "state": {s}}, set()) for s in TARGET_STATES]
    targets += [("hazard " + h, {**base, "terrain": {h}}, {"knockdown"}) for h in HAZARDS]
    targets += [("effect " + e, {**base, "effects": {e}}, set()) for e in CONTINUOUS_EFFECTS]
    targets += [("upkeep " + r, {**base, "upkeep_rules": {r}}, {"dispel"}) for r in UPKEEP_RULES]
    targets += [("power field " + p, {**base, "focus": 2, "power_field": p}, set()) for p in ("best", "lethal")]
    targets += [("fury", {**base, "fury": 2}, set()), ("rapid healing", {**base, "rapid_healing": 1}, set())]
    cases = []
    for name, target, rules in targets:
        weapon = Weapon("Axe", "ranged" if "ranged" in name else "melee", 6, 12, attacks=2,
                        rules=sorted(rules))
        for who, attacker in (("plain", Attacker("A", [weapon])),
                              ("spending", Attacker("A", [weapon], focus=2, policy="fixed",
                                                    spend=Spend(boost_attack="auto", boost_damage="auto")))):
            cases.append((f"{name}, {who}", Scenario(Target(**target), [attacker])))
    for reading in READINGS:
        weapon = Weapon("Axe", "melee", 6, 12, attacks=2, rules=["knockdown", "dispel"],
                        attack_discard="lowest", arm_minus=2)
        cases.append((f"reading {reading}", Scenario(Target(**{**base, "rules": {"tough"}}), [Attacker("A", [weapon])],
                                                      **{reading: True})))
    return cases


RULE_CASES = _rule_cases()


def _unit_rule_cases():
    """Each rule case of a plain attacker against a unit of three 4-box models instead (the
    units_basic, units and full variants), where the rule can be a unit's: ``(id,
    scenario)``."""
    cases = []
    for name, scenario in RULE_CASES:
        if not name.endswith(", plain"):
            continue
        try:
            target = dataclasses.replace(scenario.target, models=3, boxes=4)
        except ValueError:  # a rule no unit has
            continue
        cases.append((name.replace(", plain", ", a unit"), dataclasses.replace(scenario, target=target,
                                                                             targets=(target,))))
    return cases


UNIT_RULE_CASES = _unit_rule_cases()


@pytest.mark.parametrize("name, scenario", RULE_CASES, ids=[c[0] for c in RULE_CASES])
def test_every_rule_counts_alike_on_the_kernel_it_takes_and_the_full_one(name, scenario, monkeypatch):
    """Where the driver runs a scenario (the plain or spending fast path, or a pruned variant
    of the general kernel) must count as the full variant does, bit for bit: a rule left out
    of ``draws.is_plain`` or of ``variant`` (a fast path or a pruned variant that cannot play
    it) shows here as different counts."""
    enc = encode(scenario)
    taken = driver.run_sequences(enc, 20_000, 5, chunk=4096)
    monkeypatch.setattr(driver, "variant_of", lambda tables: ("full", (True, True, True)))
    full = driver.run_sequences(enc, 20_000, 5, chunk=4096, general=True)
    for field in dataclasses.fields(taken):
        assert np.array_equal(getattr(taken, field.name), getattr(full, field.name)), field.name


def test_most_rules_have_a_unit_case():
    assert len(UNIT_RULE_CASES) >= 0.8 * len(RULE_CASES) / 2


@pytest.mark.parametrize("name, scenario", UNIT_RULE_CASES, ids=[c[0] for c in UNIT_RULE_CASES])
def test_every_rule_on_a_unit_counts_alike_on_the_variant_it_takes_and_the_full_one(name, scenario, monkeypatch):
    """A rule left out of ``variant.needs_extra`` would send a unit to the units_basic
    variant, which cannot play it: its counts would differ from the full variant's here."""
    enc = encode(scenario)
    assert variant_of(enc.tables)[0] in ("units_basic", "units", "full")
    taken = driver.run_sequences(enc, 8_000, 5, chunk=4096)
    monkeypatch.setattr(driver, "variant_of", lambda tables: ("full", (True, True, True)))
    full = driver.run_sequences(enc, 8_000, 5, chunk=4096, general=True)
    for field in dataclasses.fields(taken):
        assert np.array_equal(getattr(taken, field.name), getattr(full, field.name)), field.name

"""Parameter paths (``mathhammer.studies.params`` and ``.grids``): resolving, command-line specs, applying values."""

from __future__ import annotations

import numpy as np
import pytest

from mathhammer import Attacker, InputError, Scenario, Spend, Target, Weapon
from mathhammer.studies.grids import apply, grid, parse_spec, parse_values, value_label
from mathhammer.studies.params import resolve

JACK = Attacker("Heavy jack", [Weapon("Fist", "melee", 7, 16, attacks=2),
                               Weapon("Claw.2", "melee", 6, 12)], focus=2)
GUN = Attacker("Gun", [Weapon("Cannon", "ranged", 6, 14)])
SCEN = Scenario(Target(defense=12, arm=18, boxes=20), [JACK, GUN], trials=1000, seed=3)


@pytest.mark.parametrize("path, keys", [
    ("target.arm", ("target", "arm")),
    ("target.def", ("target", "def")),
    ("target.boxes", ("target", "boxes")),
    ("simulation.turns", ("simulation", "turns")),
    ("settings.brutal_damage", ("settings", "brutal_damage")),
    ("attackers.0.focus", ("attackers", 0, "focus")),
    ("attackers.Gun.focus", ("attackers", 1, "focus")),
    ("attackers.Heavy jack.spend.boost_attack", ("attackers", 0, "spend", "boost_attack")),
    ("attackers.0.weapons.1.pow", ("attackers", 0, "weapons", 1, "pow")),
    ("attackers.0.weapons.Fist.pow", ("attackers", 0, "weapons", 0, "pow")),
    ("attackers.0.weapons.Claw.2.skill", ("attackers", 0, "weapons", 1, "skill")),  # a dot in a name
    ("attackers[1].weapons[0].attacks", ("attackers", 1, "weapons", 0, "attacks")),
])
def test_paths_resolve_by_index_or_name(path, keys):
    assert resolve(SCEN, path).keys == keys


@pytest.mark.parametrize("path, message", [
    ("target.armor", "target has no key 'armor'; did you mean 'target.arm'?"),
    ("target.defence", "did you mean 'target.def'?"),
    ("arm", "did you mean 'target.arm'?"),
    ("targt.arm", "unknown table 'targt'; did you mean 'target.arm'?"),
    ("attackers.focus", "did you mean 'attackers.0.focus'?"),
    ("attackers.0.boost_attack", "did you mean 'attackers.0.spend.boost_attack'?"),
    ("attackers.0.pow", "did you mean 'attackers.0.weapons.0.pow'?"),
    ("attackers.gun.focus", "did you mean 'attackers.Gun.focus'?"),
    ("attackers.0.weapons.Fst.pow", "did you mean 'attackers.0.weapons.Fist.pow'?"),
    ("attackers.5.focus", "index 5 is out of range (0..1"),
    ("attackers.0.weapon.0.pow", "did you mean 'attackers.0.weapons.0.pow'?"),
    ("settings.brutal", "did you mean 'settings.brutal_damage'?"),
    ("target", "target is a table: name one of its keys"),
    ("target.arm.x", "target.arm is a value, not a table"),
    ("simulation.seed", "cannot be varied"),
    ("simulation.trials", "cannot be varied"),
    ("target..arm", "dotted parameter path"),
])
def test_bad_paths_name_the_path_with_a_suggestion(path, message):
    with pytest.raises(InputError) as info:
        resolve(SCEN, path)
    text = str(info.value)
    assert info.value.key == "vary" and info.value.value == path
    assert message in text and "\n" not in text


def test_weapons_by_name_or_index():
    """Two weapons of an attacker never share a name (issue 18: refused), so a name is a path;
    an index is one too."""
    with pytest.raises(InputError, match="another weapon of this attacker has this name"):
        Attacker("Jack", [Weapon("Fist", "melee", 7, 16), Weapon("Fist", "melee", 7, 12)])
    pair = Scenario(SCEN.target, [Attacker("Jack", [Weapon("Fist", "melee", 7, 16),
                                                    Weapon("Kick", "melee", 7, 12)])])
    assert resolve(pair, "attackers.Jack.weapons.Kick.pow").keys[-2] == 1
    assert resolve(pair, "attackers.Jack.weapons.1.pow").keys[-2] == 1


@pytest.mark.parametrize("text, values", [
    ("14:22", list(range(14, 23))),
    ("14:22:2", [14, 16, 18, 20, 22]),
    ("14:22:3", [14, 17, 20]),
    ("18", [18]),
    ("10,12:13,20", [10, 12, 13, 20]),
    ("never,always,auto", ["never", "always", "auto"]),
    ("true,false", [True, False]),
    ("kill,cripple:L", ["kill", "cripple:L"]),
    ("-", ["-"]),
    ("none,knocked_down+stationary", ["none", "knocked_down+stationary"]),
])
def test_parse_values(text, values):
    assert parse_values(text) == values


@pytest.mark.parametrize("text, message", [
    ("22:14", "the range 22:14 is empty"),
    ("14:22:0", "step of 14:22:0 must be positive"),
    ("14,,15", "empty item"),
])
def test_parse_values_errors(text, message):
    with pytest.raises(InputError, match=message) as info:
        parse_values(text)
    assert info.value.key == "--vary" and info.value.value == text


def test_parse_spec():
    assert parse_spec("target.arm=14:16") == ("target.arm", [14, 15, 16])
    assert parse_spec(" attackers.0.spend.boost_attack = never,auto") == (
        "attackers.0.spend.boost_attack", ["never", "auto"])
    for bad, message in (("target.arm", "must be PATH=VALUES"), ("=14", "no parameter path"),
                         ("target.arm=", "no value")):
        with pytest.raises(InputError, match=message):
            parse_spec(bad)


def test_apply_sets_values_through_the_scenario_file_validator():
    s = apply(SCEN, {"target.arm": 20, "attackers.Heavy jack.spend.boost_attack": "always",
                     "attackers.0.weapons.Fist.pow": 14, "settings.brutal_damage": "hit",
                     "simulation.turns": 2, "attackers.Gun.weapons.0.pow": "-"})
    assert s.target.arm == 20 and s.turns == 2 and s.brutal_damage == "hit"
    assert s.attackers[0].spend == Spend(boost_attack="always")
    assert s.attackers[0].weapons[0].pow == 14 and s.attackers[1].weapons[0].pow is None
    assert s.trials == SCEN.trials and s.seed == SCEN.seed
    assert apply(SCEN, {}) == SCEN


def test_list_keys_take_names_joined_by_plus():
    assert apply(SCEN, {"target.state": "knocked_down+stationary"}).target.state == {
        "knocked_down", "stationary"}
    assert apply(SCEN, {"target.state": "none"}).target.state == frozenset()
    assert apply(SCEN, {"target.state": ["knocked_down"]}).target.state == {"knocked_down"}
    assert value_label(["knocked_down", "stationary"]) == "knocked_down+stationary"


@pytest.mark.parametrize("values, message", [
    ({"target.arm": 99}, "target.arm: must be between 0 and 50 (got 99)"),
    ({"target.arm": "high"}, "target.arm: must be an integer (got 'high')"),
    ({"attackers.0.spend.boost_attack": "sometimes"},
     "attackers.0.spend.boost_attack: must be one of never, always, auto"),
    ({"target.state": "kd"}, "target.state: must be one of"),
    ({"target.focus": 2, "target.fury": 2}, "a target spends focus or fury, not both"),
])
def test_bad_values_name_the_path_and_value(values, message):
    with pytest.raises(InputError) as info:
        apply(SCEN, values)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_grid_is_the_cartesian_product_last_fastest():
    params, points = grid(SCEN, {"target.arm": np.arange(16, 18), "target.def": [12, 13]})
    assert [p.path for p in params] == ["target.arm", "target.def"]
    assert [v for v, _ in points] == [(16, 12), (16, 13), (17, 12), (17, 13)]
    assert [type(v[0]) for v, _ in points] == [int] * 4  # numpy integers taken as ints
    assert [(s.target.arm, s.target.defense) for _, s in points] == [
        (16, 12), (16, 13), (17, 12), (17, 13)]
    _, points = grid(SCEN, {"target.state": ["none", "knocked_down"], "target.arm": 18})
    assert [v for v, _ in points] == [("none", 18), ("knocked_down", 18)]


def test_grid_refusals():
    with pytest.raises(InputError, match="at least one parameter"):
        grid(SCEN, {})
    with pytest.raises(InputError, match="lists no value"):
        grid(SCEN, {"target.arm": []})
    with pytest.raises(InputError, match="is listed twice"):
        grid(SCEN, {"target.arm": [16, 17, 16]})
    with pytest.raises(InputError, match="names the same key as 'attackers.0.focus'"):
        grid(SCEN, {"attackers.0.focus": [1], "attackers.Heavy jack.focus": [2]})
    # a bad value is reported before any point is built, naming it
    with pytest.raises(InputError, match=r"target.def: must be between .* \(got 45\)"):
        grid(SCEN, {"target.arm": [16, 17], "target.def": [12, 45]})

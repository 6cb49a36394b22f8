"""Python API: bad arguments raise InputError naming the field and the value, in one line."""

from __future__ import annotations

import pytest

import mathhammer as mh

TARGET = mh.Target(defense=12, arm=18, boxes=30)
JACK = mh.Attacker("Jack", [mh.Weapon("Fist", "melee", 7, 16)])
SCEN = mh.Scenario(TARGET, [JACK])


@pytest.mark.parametrize(
    "call, key, value",
    [
        (lambda: mh.simulate(SCEN, trials=0), "trials", 0),
        (lambda: mh.simulate(SCEN, trials=2.5), "trials", 2.5),
        (lambda: mh.simulate(SCEN, seed=-1), "seed", -1),
        (lambda: mh.simulate(SCEN, method="fast"), "method", "fast"),
        (lambda: mh.simulate("scenario.toml"), "scenario", "str"),
        (lambda: mh.Weapon("Fist", "melee", 7, 16, attacks=-1), "attacks", -1),
        (lambda: mh.Weapon("Fist", "sword", 7, 16), "type", "sword"),
        (lambda: mh.Weapon("Fist", "melee", "7", 16), "skill", "7"),
        (lambda: mh.Weapon("Fist", "melee", 7, 16, rules=["knockdwn"]), "rules[0]", "knockdwn"),
        (lambda: mh.Weapon("Fist", "melee", 7, 16, damage_type="fire"), "damage_type", "fire"),
        (lambda: mh.Target(defense=12, arm=18, base="gigantic"), "base", "gigantic"),
        (lambda: mh.Target(defense=12, arm=18, boxes=0), "boxes", 0),
        (lambda: mh.Target(defense=12, arm=18, state=["cover", "prone"]), "state[1]", "prone"),
        (lambda: mh.Attacker("Empty", []), "weapons", []),
        (lambda: mh.Scenario(TARGET, []), "attackers", ()),
        (lambda: mh.Scenario(TARGET, [JACK], trials=0), "simulation.trials", 0),
    ],
)
def test_bad_argument_names_field_and_value(call, key, value):
    with pytest.raises(mh.InputError) as info:
        call()
    err = info.value
    assert err.key == key
    assert "\n" not in str(err)
    assert str(err).startswith(f"{key}: ")
    if key != "scenario":
        assert err.value == value


def test_result_figures_are_consistent():
    r = mh.simulate(SCEN, trials=50_000, seed=3)
    assert r.trials == 50_000 and r.seed == 3 and not r.exact
    assert r.damage_pmf.sum() == pytest.approx(1.0)
    assert r.damage_at_least[0] == pytest.approx(1.0)
    lo, hi = r.kill_ci95
    assert lo <= r.kill <= hi
    assert r.made[0] == 1.0 and r.hit[0] >= r.crit[0]
    d = r.to_dict()
    assert set(d) >= {"trials", "seed", "kill", "kill_ci95", "damage_mean", "damage_pmf", "attacks"}
    assert {"hit", "crit"} <= set(d["attacks"][0])


def test_seed_drawn_when_absent_and_reported():
    r = mh.simulate(SCEN, trials=1000)
    assert isinstance(r.seed, int)
    again = mh.simulate(SCEN, trials=1000, seed=r.seed)
    assert again.to_dict() == r.to_dict()


def test_an_attacker_given_one_weapon_not_in_a_list_is_told_so():
    """mh.Attacker("A", mh.Weapon(...)): the weapons are a list, even of one; the line says
    how to write it."""
    with pytest.raises(mh.InputError, match=r"^weapons: must be a list of weapons, even of one: "
                                            r"\[Weapon\('Fist', \.\.\.\)\] \(got 'Fist'\)$"):
        mh.Attacker("A", mh.Weapon("Fist", "melee", 6, 12))

"""Shield Guard (issue 17; docs/rules.md 9): once a round, a ranged attack that hits a
guarded target hits the guard instead, automatically, while the guard stands and is neither
knocked down nor stationary.

Worked examples on chosen dice through the real kernel; Monte Carlo against closed forms
built from the brute-force rolls of tests/naive.py (the exact engine refuses Shield Guard: a
guard is damaged while another target is under attack); files and errors.
"""

from __future__ import annotations

import math

import pytest

from mathhammer import simulate
from mathhammer.errors import ExactNotApplicable, InputError
from mathhammer.io.dump import scenario_to_dict
from mathhammer.io.scenario_files import loads_scenario, scenario_from_dict
from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon
from naive import bf_attack, bf_damage
from scripted import play

FIXED = dict(policy="fixed", spend=Spend(boost_attack="never", boost_damage="never"))


def _pair(guard_state=frozenset(), weapon=None, turns=1):
    """A warcaster (DEF 14, ARM 14, 5 boxes) guarded by a bodyguard (DEF 12, ARM 16, 8
    boxes); two attacks of RAT 8, POW 12 at the warcaster only."""
    caster = Target(defense=14, arm=14, boxes=5, name="Caster")
    guard = Target(defense=12, arm=16, boxes=8, name="Guard", shield_guard=("Caster",), state=guard_state)
    gun = weapon or Weapon("Gun", "ranged", 8, 12, attacks=2)
    return Scenario([caster, guard], [Attacker("Gunner", [gun], targets=("Caster",), **FIXED)], turns=turns)


# ------------------------------------------------------------------ worked examples (rule: Shield Guard)
def test_worked_example_the_guard_takes_the_first_hit_only():
    """3 + 4 + 8 = 15 hits the caster's DEF 14: the guard is hit instead, 5 + 6 + 12 - 16 = 7
    points on it. 4 + 4 hits too, now the caster: 3 + 3 + 12 - 14 = 4 points (the double is a
    critical hit: the guard's hit never is)."""
    out = play(_pair(), [(3, 4), (5, 6), (4, 4), (3, 3)])
    assert out.target_marked == [4, 7]
    assert out.hit == [1, 1] and out.crit == [0, 1] and out.damage == [7, 4]


def test_worked_example_a_knocked_down_guard_cannot_guard():
    """The guard is knocked down: the first hit stays on the caster, 5 + 6 + 12 - 14 = 9
    points destroy it, and the second attack, at the caster only, is not made."""
    out = play(_pair(guard_state=frozenset({"knocked_down"})), [(3, 4), (5, 6)])
    assert out.target_marked == [5, 0] and out.made == [1, 0]


def test_worked_example_a_melee_attack_is_not_guarded():
    """MAT 8: 3 + 4 + 8 hits the caster, who takes 2 + 2 + 12 - 14 = 2 points itself."""
    axe = Weapon("Axe", "melee", 8, 12)
    out = play(_pair(weapon=axe), [(3, 4), (2, 2)])
    assert out.target_marked == [2, 0]


def test_worked_example_once_a_round():
    """Two rounds of one shot each: the guard takes the hit of each round (7 points in the
    first, 1 + 2 + 12 - 16 = 0 in the second)."""
    gun = Weapon("Gun", "ranged", 8, 12)
    out = play(_pair(weapon=gun, turns=2), [(3, 4), (5, 6), (4, 5), (1, 2)])
    assert out.target_marked == [0, 7]


# ------------------------------------------------------------------ Monte Carlo against closed forms
def _closed_form():
    """Both attacks roll against the caster's DEF 14; the first of them to hit goes to the
    guard, a second hit to the caster. The caster is destroyed iff both hit and the second
    deals 5 or more; the guard's damage is the first hit's (either attack's), capped at its 8
    boxes."""
    miss, plain, crit = bf_attack(2, 8, 14)
    h = float(plain + crit)
    on_caster = bf_damage(2, 12, 14)
    on_guard = bf_damage(2, 12, 16)
    kill = h * h * float(sum(p for x, p in on_caster.items() if x >= 5))
    some = 1 - (1 - h) ** 2
    guard_mean = some * float(sum(p * min(x, 8) for x, p in on_guard.items()))
    return kill, guard_mean, some


def test_monte_carlo_matches_the_closed_form():
    n = 400_000
    res = simulate(_pair(), trials=n, seed=11)
    kill, guard_mean, some = _closed_form()
    caster = res.target_figures("Caster")
    guard = res.target_figures("Guard")
    assert abs(caster["kill"] - kill) <= 5 * math.sqrt(kill * (1 - kill) / n)
    assert abs(guard["damage_mean"] - guard_mean) <= 5 * 8 / math.sqrt(n)  # 0 .. 8 points
    # the guard's 8 boxes fall only to a damage roll of 6 + 6 (12 + 12 - 16 = 8)
    want = some / 36
    assert abs(guard["kill"] - want) <= 5 * math.sqrt(want * (1 - want) / n)


def test_without_the_guard_the_caster_falls_more_often():
    caster = Target(defense=14, arm=14, boxes=5, name="Caster")
    alone = Scenario([caster, Target(defense=12, arm=16, boxes=8, name="Guard")],
                     [Attacker("Gunner", [Weapon("Gun", "ranged", 8, 12, attacks=2)], targets=("Caster",), **FIXED)])
    guarded = simulate(_pair(), trials=100_000, seed=2).target_figures("Caster")["kill"]
    assert simulate(alone, method="exact").target_figures("Caster")["kill"] > guarded + 0.1


def test_same_seed_same_figures_whatever_the_threads():
    from numba import get_num_threads, set_num_threads

    old = get_num_threads()
    try:
        set_num_threads(1)
        one = simulate(_pair(), trials=70_000, seed=4)
        set_num_threads(old)
        every = simulate(_pair(), trials=70_000, seed=4)
    finally:
        set_num_threads(old)
    assert one.target_figures("Guard") == every.target_figures("Guard")


# ------------------------------------------------------------------ files, errors, best play
GUARDED = """
[[targets]]
name = "Caster"
def = 14
arm = 14
boxes = 5

[[targets]]
name = "Guard"
def = 12
arm = 16
boxes = 8
shield_guard = ["Caster"]

[[attackers]]
name = "Gunner"
focus = 1
[[attackers.weapons]]
name = "Gun"
type = "ranged"
skill = 8
pow = 12
attacks = 2
"""


def test_scenario_file_round_trip_and_best_play_without_the_guard():
    scen = loads_scenario(GUARDED)
    assert scen.targets[1].shield_guard == ("Caster",)
    assert scenario_from_dict(scenario_to_dict(scen)) == scen
    res = simulate(scen, trials=20_000, seed=1)
    assert res.play.solved_on == "exact, as if without Shield Guard"


def test_the_exact_engine_refuses_it_in_one_line():
    with pytest.raises(ExactNotApplicable, match="target 'Guard' has Shield Guard"):
        simulate(_pair(), method="exact")


@pytest.mark.parametrize("text, key, message", [
    (GUARDED.replace('["Caster"]', '["Nobody"]'), "targets[1].shield_guard[0]", "names no target"),
    (GUARDED.replace('["Caster"]', '["Guard"]'), "targets[1].shield_guard", "not the guard itself"),
    (GUARDED.replace('["Caster"]', '"Caster"'), "targets[1].shield_guard", "must be a list of target names"),
    (GUARDED.replace('boxes = 5\n', 'boxes = 5\nshield_guard = ["Guard"]\n').replace(
        'shield_guard = ["Caster"]', 'shield_guard = []') + "", None, None),
])
def test_bad_shield_guard_is_one_line_naming_the_key(text, key, message):
    if key is None:  # the caster guarding the guard is fine
        assert loads_scenario(text).targets[0].shield_guard == ("Guard",)
        return
    with pytest.raises(InputError) as err:
        loads_scenario(text)
    assert key in str(err.value) and message in str(err.value) and "\n" not in str(err.value)


def test_a_single_target_has_nobody_to_guard():
    with pytest.raises(InputError, match="give several"):
        Scenario(Target(12, 14, shield_guard=("X",)), [Attacker("A", [Weapon("Gun", "ranged", 6, 12)])])


def test_one_guard_a_target():
    guards = [Target(12, 14, name=n, shield_guard=("C",)) for n in ("G1", "G2")]
    with pytest.raises(InputError, match="targets\\[2\\].shield_guard\\[0\\].*guarded by 'G1' already"):
        Scenario([Target(12, 14, name="C")] + guards, [Attacker("A", [Weapon("Gun", "ranged", 6, 12)])])

"""Plan the turn (mathhammer.play.turn): every allocation of a battlegroup's focus and every
order of the attackers, against an independent brute force (tests/naive.py: every outcome
enumerated, no code shared with the exact engine)."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from mathhammer.errors import InputError
from mathhammer.play.turn import even_allocation, plan_turn
from mathhammer.rules import Attacker, Scenario, Target, Weapon
from naive import bf_activation

TOL = 1e-12


def _random_battlegroup(rng: random.Random) -> Scenario:
    """A warcaster and one warjack with a pool of 1 to 3 focus against a damage track of 1 to 3
    boxes, or two warjacks with a pool of 1 or 2 against 1 or 2 boxes (the brute force walks
    every outcome: larger cases take minutes); Tough or not, knockdown weapons or not, the
    target's focus or not."""
    def weapon(name):
        rules = frozenset(rng.sample(["knockdown", "critical_knockdown"], int(rng.random() < 0.3)))
        return [Weapon(name, "melee", rng.randint(4, 8), rng.randint(9, 14), rules=rules)]

    n_jacks = 1 if rng.random() < 0.6 else 2
    names = [f"Jack {chr(65 + k)}" for k in range(n_jacks)]
    pool = rng.randint(1, 3 if n_jacks == 1 else 2)
    given = [rng.randint(0, min(pool, 3)) for _ in names]
    while sum(given) > pool:
        given[rng.randrange(n_jacks)] -= 1
        given = [max(0, g) for g in given]
    caster = Attacker("Caster", weapon("Staff"), focus=pool - sum(given), model="other", controls=names)
    jacks = [Attacker(n, weapon("Fist"), focus=g) for n, g in zip(names, given)]
    rules = frozenset({"tough"}) if rng.random() < 0.3 else frozenset()
    target = Target(rng.randint(10, 14), rng.randint(12, 16), boxes=rng.randint(1, 3 if n_jacks == 1 else 2),
                    rules=rules,
                    focus=1 if rng.random() < 0.2 else 0)
    return Scenario(target, [caster] + jacks, trials=1, seed=0)


def _brute_force(scen: Scenario) -> dict:
    """``{(focus per attacker, order): value}`` of every plan, each played by the brute force."""
    caster, jacks = scen.attackers[0], scen.attackers[1:]
    pool = caster.focus + sum(j.focus for j in jacks)
    out = {}
    for given in itertools.product(range(4), repeat=len(jacks)):
        if sum(given) > pool:
            continue
        focus = (pool - sum(given),) + given
        for order in itertools.permutations(range(len(scen.attackers))):
            attackers = [dataclasses.replace(a, focus=f) for a, f in zip(scen.attackers, focus)]
            variant = dataclasses.replace(scen, attackers=tuple(attackers[i] for i in order))
            names = tuple(scen.attackers[i].name for i in order)
            out[(focus, names)] = float(bf_activation(variant)["value"])
    return out


@pytest.mark.parametrize("batch", range(3))
def test_the_planner_equals_the_brute_force_on_random_battlegroups(batch):
    """Every plan's figure and the best plan equal the brute force's to 1e-12 (24 random
    battlegroups: the brute force's tree of outcomes keeps them small)."""
    rng = random.Random(4900 + batch)
    for case in range(8):
        scen = _random_battlegroup(rng)
        plans = plan_turn(scen)
        truth = _brute_force(scen)
        got = {(tuple(n for _, n in p.focus), p.order): p.value for p in plans.plans}
        assert got.keys() == truth.keys(), (batch, case)
        for key, value in truth.items():
            assert got[key] == pytest.approx(value, abs=TOL), (batch, case, key)
        assert plans.best.value == pytest.approx(max(truth.values()), abs=TOL)


def test_a_plan_in_a_player_s_words():
    fist = [Weapon("Fist", "melee", 6, 14)]
    caster = Attacker("Caster", [Weapon("Staff", "melee", 6, 12)], focus=1, model="other", controls=["Jack A", "Jack B"])
    scen = Scenario(Target(12, 14, boxes=8), [caster, Attacker("Jack A", fist, focus=1), Attacker("Jack B", fist, focus=1)])
    plans = plan_turn(scen)
    words = plans.best.words(scen)
    assert words.startswith("allocate Jack A ") and " keeps " in words and ", then " in words
    assert plans.frame().columns.tolist()[:2] == ["rank", "order"]
    assert even_allocation(scen) == {1: 1, 2: 1, 0: 1}
    assert "best plan:" in plans.summary() and "an even allocation" in plans.summary()


def test_no_battlegroup_or_a_cripple_objective_is_one_line():
    fist = [Weapon("Fist", "melee", 6, 14)]
    with pytest.raises(InputError, match=r"^attackers: plan the turn of a battlegroup"):
        plan_turn(Scenario(Target(12, 14, boxes=8), [Attacker("Jack", fist, focus=1)]))


BATTLEGROUP_FILE = """
[target]
name = "Heavy"
def = 12
arm = 18
boxes = 20

[[attackers]]
name = "Caster"
model = "other"
focus = 2
controls = ["Jack"]
[[attackers.weapons]]
name = "Staff"
type = "melee"
skill = 6
pow = 12

[[attackers]]
name = "Jack"
focus = 1
[[attackers.weapons]]
name = "Fist"
type = "melee"
skill = 6
pow = 16
attacks = 2
"""


def test_the_command_prints_the_best_plan_and_json(tmp_path, capsys):
    import json

    from mathhammer.cli import main

    path = tmp_path / "bg.toml"
    path.write_text(BATTLEGROUP_FILE, encoding="utf-8")
    assert main(["plan", str(path), "--top", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("best plan: allocate Jack ") and "against the file's plan" in out and " rank " in out
    assert main(["plan", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == 8 and data["best"]["value"] >= data["as_written"]["value"]  # 4 allocations x 2 orders
    assert data["plans"][0] == data["best"]


def test_the_command_refuses_a_scenario_without_a_battlegroup(tmp_path, capsys):
    from mathhammer.cli import main

    path = tmp_path / "none.toml"
    path.write_text(BATTLEGROUP_FILE.replace('controls = ["Jack"]\n', ""), encoding="utf-8")
    assert main(["plan", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "attackers: plan the turn of a battlegroup" in err


def test_warjacks_alike_share_their_solves():
    """Two warjacks of one card: the plans that swap them (with their focus) have the same
    figures, and are solved once."""
    fist = [Weapon("Fist", "melee", 6, 14)]
    caster = Attacker("Caster", [Weapon("Staff", "melee", 6, 12)], focus=1, model="other", controls=["Jack A", "Jack B"])
    scen = Scenario(Target(12, 14, boxes=6), [caster, Attacker("Jack A", fist, focus=1), Attacker("Jack B", fist, focus=1)])
    plans = plan_turn(scen)
    by_key = {(p.focus, p.order): p for p in plans.plans}
    swapped = {(tuple((("Jack B" if n == "Jack A" else "Jack A" if n == "Jack B" else n), f) for n, f in p.focus),
                tuple("Jack B" if n == "Jack A" else "Jack A" if n == "Jack B" else n for n in p.order)): p
               for p in plans.plans}
    for key, p in by_key.items():
        twin = swapped[key] if key in swapped else None
        assert twin is None or (twin.value, twin.damage_mean) == (p.value, p.damage_mean)
    assert plans.solves < len(plans.plans)


def test_a_warlock_s_plan_is_the_order_alone():
    """A warlock's battlegroup: nothing to allocate, every order played, each equal to the
    brute force's."""
    fist = [Weapon("Claw", "melee", 6, 12)]
    beasts = [Attacker("Beast A", fist, fury=1, model="warbeast"), Attacker("Beast B", fist, model="warbeast")]
    lock = Attacker("Warlock", [Weapon("Staff", "melee", 6, 11)], fury=1, model="other", controls=["Beast A", "Beast B"])
    scen = Scenario(Target(12, 14, boxes=2), [lock] + beasts, trials=1, seed=0)
    plans = plan_turn(scen)
    assert len(plans.plans) == 6 and all(dict(p.focus) == {"Warlock": 0, "Beast A": 0, "Beast B": 0}
                                         for p in plans.plans)  # focus: none allocated (fury their own)
    for p in plans.plans:
        order = tuple(["Warlock", "Beast A", "Beast B"].index(n) for n in p.order)
        variant = dataclasses.replace(scen, attackers=tuple(scen.attackers[i] for i in order))
        assert p.value == pytest.approx(float(bf_activation(variant)["value"]), abs=TOL)
    assert "allocate" not in plans.best.words(scen)

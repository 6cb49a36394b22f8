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


def random_battlegroup(rng: random.Random) -> Scenario:
    """A warcaster and one to three warjacks (2 to 4 attackers) against a damage track. The
    brute force walks every outcome of every plan and each focus point multiplies the
    outcomes, so the cases are small: one warjack, a pool of 1 or 2 and 2 to 4 boxes; two, a
    pool of 1 and 1 to 3 boxes; three, a pool of 1 and 1 or 2 boxes. Weapons from precise and
    light to clumsy and heavy, knockdown on half of them (who goes next then depends on what
    the last activation did); Tough or not, the target's focus or not; the objective the kill
    or the damage."""
    def weapon(name):
        rules = frozenset(rng.sample(["knockdown", "critical_knockdown"], int(rng.random() < 0.6)))
        skill = rng.randint(4, 8)
        return [Weapon(name, "melee", skill, rng.randint(17 - skill, 21 - skill), rules=rules)]

    n_jacks = rng.choice([1] * 14 + [2] * 5 + [3] * 1)
    names = [f"Jack {chr(65 + k)}" for k in range(n_jacks)]
    pool = rng.randint(1, 2) if n_jacks == 1 else 1
    given = [rng.randint(0, pool) for _ in names]
    while sum(given) > pool:
        given[rng.randrange(n_jacks)] -= 1
        given = [max(0, g) for g in given]
    caster = Attacker("Caster", weapon("Staff"), focus=pool - sum(given), model="other", controls=names)
    jacks = [Attacker(n, weapon("Fist"), focus=g) for n, g in zip(names, given)]
    rules = frozenset({"tough"}) if rng.random() < 0.3 else frozenset()
    boxes = rng.randint(*{1: (2, 4), 2: (2, 3), 3: (1, 2)}[n_jacks])
    target = Target(rng.randint(10, 14), rng.randint(12, 16), boxes=boxes, rules=rules,
                    focus=1 if rng.random() < 0.2 else 0)
    return Scenario(target, [caster] + jacks, trials=1, seed=0, objective=rng.choice(["kill", "kill", "damage"]))


def brute_force(scen: Scenario) -> dict:
    """``{(focus per attacker, order): value}`` of every plan, each played by the brute force:
    every allocation in every order, and in the adaptive order (``order`` ``("adaptive",)``)."""
    caster, jacks = scen.attackers[0], scen.attackers[1:]
    pool = caster.focus + sum(j.focus for j in jacks)
    out = {}
    for given in itertools.product(range(4), repeat=len(jacks)):
        if sum(given) > pool:
            continue
        focus = (pool - sum(given),) + given
        variant = dataclasses.replace(scen, attackers=tuple(dataclasses.replace(a, focus=f)
                                                            for a, f in zip(scen.attackers, focus)))
        for order, value in bf_activation(variant, order="every", figures="value")["values"].items():
            names = ("adaptive",) if order == "adaptive" else tuple(scen.attackers[i].name for i in order)
            out[(focus, names)] = float(value)
    return out


def planned(plans) -> dict:
    """The planner's plans keyed as :func:`brute_force`'s."""
    return {(tuple(n for _, n in p.focus), ("adaptive",) if p.adaptive else p.order): p.value for p in plans.plans}


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
    assert data["count"] == 12 and data["best"]["value"] >= data["as_written"]["value"]  # 4 allocations x 3 orders
    assert data["best"]["value"] >= data["best_fixed"]["value"] and data["adaptive_gain"] >= 0
    assert data["plans"][0] == data["best"]
    assert main(["plan", str(path), "--json", "--fixed-orders"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == 8 and not any(p["adaptive"] for p in data["plans"])  # 4 allocations x 2 orders


def test_the_command_refuses_a_scenario_without_a_battlegroup(tmp_path, capsys):
    from mathhammer.cli import main

    path = tmp_path / "none.toml"
    path.write_text(BATTLEGROUP_FILE.replace('controls = ["Jack"]\n', ""), encoding="utf-8")
    assert main(["plan", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "attackers: plan the turn of a battlegroup" in err


def test_warjacks_alike_share_their_activations():
    """Two warjacks of one card: the plans that swap them (with their focus) have the same
    figures; activations are solved once per what follows them (fewer than one per attacker
    of every fixed plan)."""
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
    fixed = [p for p in plans.plans if not p.adaptive]
    assert plans.activations < len(fixed) * len(scen.attackers)


def test_a_warlock_s_plan_is_the_order_alone():
    """A warlock's battlegroup: nothing to allocate, every order played, each equal to the
    brute force's."""
    fist = [Weapon("Claw", "melee", 6, 12)]
    beasts = [Attacker("Beast A", fist, fury=1, model="warbeast"), Attacker("Beast B", fist, model="warbeast")]
    lock = Attacker("Warlock", [Weapon("Staff", "melee", 6, 11)], fury=1, model="other", controls=["Beast A", "Beast B"])
    scen = Scenario(Target(12, 14, boxes=2), [lock] + beasts, trials=1, seed=0)
    plans = plan_turn(scen)
    assert len(plans.plans) == 7 and all(dict(p.focus) == {"Warlock": 0, "Beast A": 0, "Beast B": 0}
                                         for p in plans.plans)  # focus: none allocated (fury their own)
    for p in plans.plans:
        if p.adaptive:
            truth = bf_activation(scen, order="adaptive", figures="value")["value"]
            assert p.value == pytest.approx(float(truth), abs=TOL)
            continue
        order = tuple(["Warlock", "Beast A", "Beast B"].index(n) for n in p.order)
        variant = dataclasses.replace(scen, attackers=tuple(scen.attackers[i] for i in order))
        assert p.value == pytest.approx(float(bf_activation(variant, figures="value")["value"]), abs=TOL)
    assert "allocate" not in plans.best.words(scen)


def test_the_adaptive_order_beats_every_fixed_order_where_the_state_decides():
    """The adaptive order (the next attacker picked after seeing the last activation): here
    the second pick depends on whether the first knocked the target down and on the focus it
    has left, and the adaptive order does better than every fixed order (by 4.7e-5: the
    target's one focus point decides a few rare cases), equal to the brute force's to 1e-12."""
    crit = frozenset({"critical_knockdown"})
    caster = Attacker("Caster", [Weapon("Staff", "melee", 7, 12)], focus=0, model="other",
                      controls=["Jack A", "Jack B"])
    jacks = [Attacker("Jack A", [Weapon("Fist", "melee", 8, 12, rules=crit)], focus=0),
             Attacker("Jack B", [Weapon("Fist", "melee", 8, 11, rules=crit)], focus=1)]
    scen = Scenario(Target(14, 15, boxes=2, focus=1), [caster] + jacks, trials=1, seed=0)
    plans = plan_turn(scen)
    truth = brute_force(scen)
    got = planned(plans)
    for key, value in truth.items():
        assert got[key] == pytest.approx(value, abs=TOL), key
    assert plans.best.adaptive and plans.best.value - plans.best_fixed.value > 4e-5
    assert "first, then " in plans.best.words(scen)


def test_the_activations_chained_equal_the_whole_sequence_on_units_and_tough_targets():
    """Each fixed order's figures (kill, damage, models destroyed) equal the exact engine's
    solve of the whole sequence (a unit, Tough, the target's focus)."""
    from mathhammer.exact import exact_result
    from mathhammer.exact.activations import Activations

    rng = random.Random(4911)
    for case in range(6):
        def weapon():
            rules = frozenset(rng.sample(["knockdown", "critical_knockdown"], int(rng.random() < 0.5)))
            return [Weapon("W", "melee", rng.randint(5, 8), rng.randint(10, 14), attacks=rng.randint(1, 2),
                           rules=rules)]
        atts = [Attacker(f"A{k}", weapon(), focus=rng.randint(0, 2)) for k in range(3)]
        models = rng.choice([1, 1, 3])
        target = Target(rng.randint(11, 14), rng.randint(11, 15), boxes=rng.randint(1, 5), models=models,
                        rules=frozenset({"tough"}) if rng.random() < 0.4 else frozenset(),
                        focus=rng.choice([0, 0, 1]) if models == 1 else 0)
        objective = rng.choice(["kill", "damage", "destroyed"]) if target.models > 1 else "kill"
        scen = Scenario(target, atts, objective=objective)
        acts = Activations(scen, atts)
        for order in itertools.permutations(range(3)):
            values = acts.sequence(order)
            res = exact_result(dataclasses.replace(scen, attackers=tuple(atts[i] for i in order)))
            assert acts.figure(values, "kill") == pytest.approx(res.kill, abs=TOL), (case, order)
            assert acts.figure(values, "damage") == pytest.approx(res.damage_mean, abs=1e-9), (case, order)
            assert acts.figure(values, "destroyed") == pytest.approx(res.models_destroyed_mean, abs=1e-9)


def test_what_the_planner_cannot_plan_is_one_line():
    """Several targets, more than one turn, a cripple objective: refused in one line naming the
    key; too many plans: refused before any is played."""
    from mathhammer.errors import ExactNotApplicable
    from mathhammer.play.turn import MAX_PLANS

    fist = [Weapon("Fist", "melee", 6, 14)]
    caster = Attacker("Caster", [Weapon("Staff", "melee", 6, 12)], focus=1, model="other", controls=["Jack"])
    base = Scenario(Target(12, 14, boxes=8), [caster, Attacker("Jack", fist, focus=1)])
    first = Target(12, 14, boxes=8, name="A")
    two = dataclasses.replace(base, target=first, targets=(first, Target(12, 14, boxes=8, name="B")))
    with pytest.raises(InputError, match=r"^targets: the turn planner plans against one target"):
        plan_turn(two)
    with pytest.raises(InputError, match=r"^simulation.turns: the turn planner plans one turn"):
        plan_turn(dataclasses.replace(base, turns=2))
    many = [Attacker(f"Jack {k}", fist, focus=0) for k in range(5)]
    big = Scenario(Target(12, 14, boxes=8), [dataclasses.replace(caster, focus=9, controls=[j.name for j in many])]
                   + many)
    with pytest.raises(ExactNotApplicable, match=rf"plans exceed the exact planner's {MAX_PLANS:,}"):
        plan_turn(big)


def test_a_small_grid_is_planned_exactly():
    """A grid within TURN_CARD_WORK is planned on itself (not its relaxation): each fixed
    plan's figures equal the exact engine's solve of its whole sequence on the grid."""
    from mathhammer.exact import exact_result

    grid = Target(defense=12, arm=16, grid=["..", "..L", "LLC", "RRC", "..R", ".."])
    caster = Attacker("Caster", [Weapon("Staff", "melee", 7, 12)], focus=1, model="other", controls=["A", "B"])
    scen = Scenario(grid, [caster, Attacker("A", [Weapon("Fist", "melee", 6, 14, rules=frozenset({"critical_knockdown"}))]),
                           Attacker("B", [Weapon("Axe", "melee", 5, 15)])])
    plans = plan_turn(scen)
    assert plans.solved_on == "exact"
    for p in [q for q in plans.plans if not q.adaptive][:4] + [plans.as_written]:
        res = exact_result(plans.scenario_of(p))
        assert (p.kill, p.damage_mean) == pytest.approx((res.kill, res.damage_mean), abs=1e-9), p.order

"""The target's points spent as layers of the damage index (mathhammer/exact/layers.py) give
what one state per amount of points left gives: the same figures, the same best play's
decision tables (every entry, and how often each is met) and the same "how to play it".

Each scenario is evaluated twice by the exact engine, with layers and without
(``layers=False``: the target's points left in the state, as the engine kept them before
layers existed), on 160 random small scenarios where layers apply (a target with a power
field of focus or fury: best, lethal or never; Tough, Rapid Healing and its d3, Grievous
Wounds, knockdowns, the settings ``power_field_per_attack`` and
``rapid_healing_when_hit``; attackers with points and best play or fixed policies), and on
the six scenarios timed beside the web calculator. Scenarios layers do not apply to are
left as they are (checked too). The figures of both paths are checked against the
brute-force oracle of tests/naive.py by tests/test_exact.py and tests/test_best_play.py,
whose power-field scenarios now go through layers.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from mathhammer.errors import InputError
from mathhammer.exact import exact_result
from mathhammer.exact.bounds import prepare
from mathhammer.exact.attack import attack_edges
from mathhammer.exact.choices import Decisions
from mathhammer.exact.induction import Engine
from mathhammer.exact.layers import Layered, Unfolding, layered, met_layers, unfold
from mathhammer.exact.plan import Plan
from mathhammer.play import needs_play, report, solve_with_result
from mathhammer.result.fields import SLOT_TARGET_SPENT
from mathhammer.rules import Attacker, Scenario, Target, Weapon

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import bench_peer  # noqa: E402

TOL = 1e-12
N_RANDOM = 160


def _scenario(seed: int) -> Scenario:
    """A small scenario with a target whose power field layers apply to."""
    rnd = random.Random(seed)
    attackers = []
    for k in range(rnd.randint(1, 2)):
        kind = rnd.choice(["melee", "ranged"])
        rules = set(rnd.sample(["critical_knockdown", "grievous_wounds", "knockdown", "weapon_master"],
                               k=rnd.randint(0, 1)))
        w = Weapon(f"W{k}", kind, skill=rnd.randint(4, 8), pow=rnd.randint(8, 16),
                   attacks=rnd.randint(1, 2), rules=rules)
        resource = rnd.choice(["focus", "fury"])
        extra = {} if rnd.random() < 0.8 else {"policy": "fixed"}
        attackers.append(Attacker(f"A{k}", [w], **{resource: rnd.randint(0, 2)}, **extra,
                                  model="warbeast" if resource == "fury" else "warjack"))
    power = rnd.choice(["focus", "focus", "fury"])
    tough = rnd.random() < 0.3
    heal = rnd.choice([0, 0, 1, 2, "d3"])
    target = Target(defense=rnd.randint(8, 14), arm=rnd.randint(8, 15), boxes=rnd.randint(3, 12),
                    rules={"tough"} if tough else set(), rapid_healing=heal,
                    state={"knocked_down"} if rnd.random() < 0.1 else set(),
                    power_field=rnd.choice(["best", "best", "best", "lethal", "never"]),
                    **{power: rnd.randint(1, 3)})
    settings = {}
    if rnd.random() < 0.3:
        settings["power_field_per_attack"] = rnd.randint(1, 2)
    if heal and rnd.random() < 0.3:
        settings["rapid_healing_when_hit"] = True
    return Scenario(target, attackers, objective=rnd.choice(["kill", "kill", "damage"]), **settings)


def _same_result(a, b) -> None:
    for name in ("damage_weights", "slot_weights", "kill_weights", "slot_damage_sq"):
        np.testing.assert_allclose(getattr(a, name), getattr(b, name), rtol=0, atol=TOL, err_msg=name)


def _same_tables(a, b) -> None:
    """``a`` (with layers) records every entry ``b`` (without) records, alike, and no other:
    each attack records only the amounts spent a state per amount left meets."""
    assert a.value == pytest.approx(b.value, abs=TOL)
    np.testing.assert_allclose(a.reach, b.reach, rtol=0, atol=TOL)
    np.testing.assert_array_equal(a.attack, b.attack)
    np.testing.assert_array_equal(a.field, b.field)
    np.testing.assert_array_equal(a.boxes_left, b.boxes_left)
    assert a.summary() == b.summary()


def _check(scenario: Scenario) -> None:
    _same_result(exact_result(scenario), exact_result(scenario, layers=False))
    if not needs_play(scenario):  # no decision to make: no tables (mathhammer.simulate's path)
        return
    sequence = scenario.attack_sequence()
    (t1, r1), (t0, r0) = solve_with_result(scenario, sequence), solve_with_result(scenario, sequence, layers=False)
    _same_result(r1, r0)
    _same_tables(t1, t0)
    assert report(t1, scenario, r1.slot_labels, sequence) == report(t0, scenario, r0.slot_labels, sequence)


@pytest.mark.parametrize("batch", range(4))
def test_layers_give_what_a_state_per_amount_gives(batch):
    for seed in range(batch * N_RANDOM // 4, (batch + 1) * N_RANDOM // 4):
        scenario = _scenario(seed)
        # one target of one model on a track, one round: layers wherever the field is used
        assert isinstance(layered(prepare(scenario)), Layered) == (scenario.target.power_field != "never")
        _check(scenario)


@pytest.mark.parametrize("name", list(bench_peer.EXPECTED))
def test_the_peer_scenarios_alike(name):
    _check(bench_peer.scenarios()[name])


def test_where_layers_do_not_apply_the_setup_is_left_alone():
    fist = Weapon("Fist", "melee", skill=6, pow=12, attacks=2)
    plain = Target(defense=12, arm=14, boxes=10, focus=2)
    for scenario in (Scenario(plain, [Attacker("A", [fist])], turns=2),  # the points come back
                     Scenario(Target(defense=12, arm=14, boxes=10), [Attacker("A", [fist])]),  # no points
                     Scenario(Target(defense=12, arm=14, boxes=10, focus=2, power_field="never"),
                              [Attacker("A", [fist])]),
                     Scenario(Target(defense=12, arm=14, boxes=5, models=3), [Attacker("A", [fist])]),
                     Scenario(Target(defense=12, arm=14, grid=["....", "....", "..LL", "..RR", "....", "...."],
                                     focus=2), [Attacker("A", [fist])])):
        setup = prepare(scenario)
        assert layered(setup) is setup
        _check(scenario)


def test_power_field_worked_example_on_layers():
    """Power field (5 damage prevented per focus spent): a hit of POW 12 and one damage die
    (13 to 18 damage) on a target with 2 focus, 10 boxes and ARM 0. Spending nothing or 1
    focus may disable it (13 or 8 to 13 marked); 2 focus leaves 3 to 8 boxes marked: best
    play spends both on every hit. With layers the index holds the points spent: 3 boxes
    marked with 2 points spent is index ``2 * 10 + 3``."""
    t = Target(defense=5, arm=0, boxes=10, focus=2)
    club = Weapon("Club", "melee", skill=20, pow=12, extra_damage_dice=-1)
    scenario = Scenario(t, [Attacker("A", [club])])
    setup = layered(prepare(scenario))
    assert isinstance(setup, Layered) and setup.size == 30
    assert setup.count(np.array([23])).tolist() == [3] and setup.layer(np.array([23])).tolist() == [2]
    res = exact_result(scenario)
    hit = 35 / 36  # every roll but all ones
    assert res.kill == pytest.approx(0.0, abs=TOL)
    np.testing.assert_allclose(res.damage_weights, [1 - hit, 0, 0] + [hit / 6] * 6 + [0, 0], rtol=0, atol=TOL)
    assert res.slot_weights[0, SLOT_TARGET_SPENT] == pytest.approx(2 * hit, abs=TOL)


def test_unfold_names_the_points_left():
    t = Target(defense=12, arm=14, boxes=4, focus=2)
    setup = layered(prepare(Scenario(t, [Attacker("A", [Weapon("F", "melee", skill=6, pow=12)])])))
    v = np.arange(12, dtype=float)
    out = unfold(setup, {setup.start: v})
    assert {s.target_points: part.tolist() for s, part in out.items()} == {
        2: [0.0, 1.0, 2.0, 3.0], 1: [4.0, 5.0, 6.0, 7.0], 0: [8.0, 9.0, 10.0, 11.0]}


def test_the_attacks_decide_the_amounts_met_once_per_amount_spent():
    """3 attacks on a target with 3 focus: before the first attack it has spent nothing; any
    amount can be spent by one attack (a hit rolls up to 17 past ARM: 4 focus' worth), so
    the later attacks meet every amount. The records name the points left, the damage
    marked as groups, and the power field is not decided with no points left."""
    scenario = bench_peer.scenarios()["target_focus"]
    setup = layered(prepare(scenario, induction=True))
    engine = Engine(setup)

    def plan_of(e, state):
        slot = setup.events[e].slot
        return Plan(attack_edges(setup, slot, state, Decisions(engine.best, chain=engine.chain, planning=True)),
                    (setup.slots[slot].row,))

    met = met_layers(setup, plan_of)
    amounts = sorted((e, [0, 1, 2, 3] if mask is None else np.flatnonzero(mask.reshape(4, 30).any(axis=1)).tolist())
                     for (e, _), mask in met.items())
    assert amounts == [(0, [0]), (1, [0, 1, 2, 3]), (2, [0, 1, 2, 3])]
    records = []
    engine = Engine(setup, record=Unfolding(setup, lambda *args: records.append(args)))
    engine.value(0, setup.start, np.zeros(1, dtype=np.int64))
    seen = sorted((event, context[0].target_points) for _, event, _, context, *_ in records)
    assert seen == [(0, 3), (1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3)]
    for what, _, _, _, (src, x), best, values, _ in records:
        assert what == "field" and 0 <= src.min() and src.max() < setup.boxes
        assert src.size == x.size == best.size == values[0].shape[1]


def test_layers_must_be_true_or_false():
    scenario = bench_peer.scenarios()["target_focus"]
    for call in (lambda: exact_result(scenario, layers="no"), lambda: solve_with_result(scenario, layers=1)):
        with pytest.raises(InputError, match="layers: must be true or false"):
            call()

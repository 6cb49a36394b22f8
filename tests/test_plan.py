"""An attack's options planned once and decided at each event (mathhammer/exact/plan.py) give
the edges and the decision records that deciding while building them gives.

For every attack event and every state the forward pass meets, the attack's edges are built
twice from the same values of the events after it: deciding as they are built
(``choose`` with ``Decisions.value``), and planned (``Decisions.planning``) then decided by a
:class:`Plan`. The plan is built for the first attack of the same signature, so a plan that
serves a later attack (its decision-table rows renamed) is checked too, and, on a target
alike an earlier one or a unit's later model, on the earlier one and moved
(:meth:`Plan.reframed`). Compared: the
probability from each damage marked to each damage marked after, with the state and what
the attack counted, the boxes marked, the value of the attack from each damage marked, and
every decision record (what, event, row, where, the choice per group and each option's
value).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from mathhammer.exact.attack import attack_edges
from mathhammer.exact.bounds import prepare
from mathhammer.exact.choices import Decisions
from mathhammer.exact.edges import Piece, attack_cost, lead, merge, slot_counts, sums_by
from mathhammer.exact.forward import propagate_rounds
from mathhammer.exact.frames import plan_frame, reframe
from mathhammer.exact.induction import Engine, deep_recursion
from mathhammer.exact.plan import Decided, Plan
from mathhammer.exact.state import State
from mathhammer.exact.tally import Tally
from mathhammer.result.fields import SLOT_MADE
from mathhammer.rules import Attacker, Scenario, Target, Weapon
from test_best_play import random_scenario

TOL = 1e-12

FIST = Weapon("Fist", "melee", skill=6, pow=12, attacks=2)
CLAW = Weapon("Claw", "melee", skill=7, pow=10, attacks=1, rules={"shred"})
GUN = Weapon("Gun", "ranged", skill=6, pow=12, attacks=3)


def _named() -> list[Scenario]:
    """Scenarios with each kind of decision: bought attacks with another melee weapon, the
    boosts, the target's power field, Shield Guard's blocks, Shred, a random rate of fire,
    several targets, alike targets, units."""
    axe = Weapon("Axe", "melee", skill=5, pow=14, attacks=1, rules={"critical_knockdown"})
    rifle = Weapon("Rifle", "ranged", skill=6, pow=11, attacks="d3")
    return [
        Scenario(Target(defense=12, arm=14, boxes=12, focus=2),
                 [Attacker("Jack", [FIST, axe], focus=3, policy="best")]),
        Scenario(Target(defense=13, arm=13, boxes=10, rules={"tough"}, focus=1),
                 [Attacker("Beast", [CLAW], fury=2, model="warbeast", policy="best")]),
        Scenario(Target(defense=12, arm=12, boxes=8, guard_blocks=1),
                 [Attacker("Gunner", [GUN], focus=2, policy="best")]),
        Scenario(Target(defense=13, arm=14, boxes=9, focus=2),
                 [Attacker("Rifleman", [rifle], focus=2, policy="best")]),
        Scenario([Target(name="A", defense=13, arm=14, boxes=6), Target(name="B", defense=12, arm=13, boxes=7)],
                 [Attacker("Jack", [FIST], focus=3, policy="best")]),
        # alike targets (the options built on the first serve the others): with a power
        # field and Tough, and a third target between two alike ones
        Scenario([Target(name=x, defense=12, arm=13, boxes=4, focus=1, rules={"tough"}) for x in "AB"],
                 [Attacker("Jack", [FIST, axe], focus=3, policy="best")]),
        Scenario([Target(name="A", defense=13, arm=13, boxes=3), Target(name="X", defense=12, arm=13, boxes=3),
                  Target(name="C", defense=13, arm=13, boxes=3)],
                 [Attacker("Jack", [FIST], focus=2, policy="best"), Attacker("Gunner", [GUN], focus=1, policy="best")]),
        # a unit (each model's options built on the first and moved), alone with Tough, and
        # two alike units then an unlike model
        Scenario(Target(defense=13, arm=13, boxes=1, models=4, rules={"tough"}),
                 [Attacker("Jack", [FIST, axe], focus=3, policy="best")]),
        Scenario([Target(name="A", defense=12, arm=13, boxes=2, models=3), Target(name="B", defense=12, arm=13, boxes=2,
                                                                                  models=3),
                  Target(name="C", defense=13, arm=12, boxes=3)],
                 [Attacker("Jack", [FIST], focus=3, policy="best"), Attacker("Gunner", [GUN], focus=1, policy="best")]),
    ]


def _alike(seed: int) -> Scenario:
    """A random scenario's target twice (named A and B), a third unlike them between them
    for odd seeds, a unit of two or three models (no power field) for one seed in three: the
    plans on B are A's, and on a unit's later models the first one's, moved."""
    s = random_scenario(seed)
    a = dataclasses.replace(s.target, name="A", boxes=min(s.target.boxes, 2))
    if seed % 3 == 0:
        a = dataclasses.replace(a, models=2 + seed % 2, focus=0, fury=0)
    middle = [dataclasses.replace(a, name="X", arm=a.arm + 1)] if seed % 2 else []
    return dataclasses.replace(s, target=a, targets=(a, *middle, dataclasses.replace(a, name="B")))


def _cases() -> list[tuple[str, Scenario]]:
    out = [(f"named {k}", s) for k, s in enumerate(_named())]
    for seed in range(60):
        s = random_scenario(seed)
        if any(a.plays_best for a in s.attackers) or s.target.power_field == "best":
            out.append((f"random {seed}", s))
    out += [(f"alike {seed}", _alike(seed)) for seed in range(60, 84)]
    return out


def _met(scenario: Scenario):
    """The setup, an engine that knows the values, and every (event, state) of an attack the
    forward pass meets."""
    setup = prepare(scenario, induction=True)
    engine = Engine(setup)
    met = []
    with deep_recursion(setup.n_events):
        engine.value(0, setup.start, np.zeros(1, dtype=np.int64))
        propagate_rounds(engine, lambda e, todo: met.extend((e, s) for s in todo))
    attacks = [(e, s) for e, s in met if setup.events[e].kind == "attack"
               and not (setup.several and setup.skips(e, s))]
    return setup, engine, attacks


def _rows(setup, slot: int) -> tuple:
    return (setup.slots[slot].row, *(a.row for a in setup.alternatives[slot]))


def _first_alike(setup) -> dict:
    """Per attack, the first attack of its signature (with its alternatives')."""
    first: dict = {}
    out = {}
    for i, info in enumerate(setup.slots):
        sig = (info.signature, tuple(a.signature for a in setup.alternatives[i]))
        out[i] = first.setdefault(sig, i)
    return out


def _flow(pieces, boxes: int) -> dict:
    """Per (state, counts), the probability from each damage marked to each after, and the
    boxes marked weighed by it."""
    out: dict = {}
    for pc in pieces:
        key = (pc.state, pc.counts, pc.quick_kill, pc.quick_spent, pc.quick_tough)
        flow, marked = out.setdefault(key, (np.zeros((boxes, boxes + 1)), np.zeros(boxes)))
        np.add.at(flow, (pc.src, np.minimum(pc.dst, boxes)), pc.p)
        if pc.marked is not None:
            np.add.at(marked, pc.src, pc.p * pc.marked)
    return out


def _same_records(a: list, b: list) -> None:
    assert len(a) == len(b)
    for (what, event, row, context, groups, best, totals, by), other in zip(a, b):
        assert (what, event, row, context) == other[:4]
        for x, y in zip(np.atleast_1d(groups) if not isinstance(groups, tuple) else groups,
                        np.atleast_1d(other[4]) if not isinstance(other[4], tuple) else other[4]):
            np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(best, other[5])
        assert len(totals) == len(other[6])
        for t, u in zip(totals, other[6]):
            np.testing.assert_allclose(t, u, rtol=TOL, atol=TOL)
        assert by is other[7]


@pytest.mark.parametrize("name,scenario", _cases(), ids=[n for n, _ in _cases()])
def test_a_plan_decides_as_building_the_edges_does(name, scenario):
    setup, engine, met = _met(scenario)
    first = _first_alike(setup)
    assert met, name
    moved = 0
    for e, state in met:
        ev = setup.events[e]
        part = setup.part(state)
        eager_records, planned_records = [], []

        def decisions(record, **kw):
            return Decisions(engine.best, chain=engine.chain, keep_points=engine.keep_points, event=e,
                             row=ev.slot, record=lambda *r: record.append(r), **kw)

        value = lambda s, idx, e=e: engine.after(e, s, idx)  # noqa: E731
        eager = attack_edges(part, ev.slot, state, decisions(eager_records, value=value))
        alike = first[ev.slot]
        # on a target alike an earlier one, the plan is built there and moved
        frame = plan_frame(setup, state)
        at = state if frame is None else frame
        plan = Plan(attack_edges(setup.part(at), alike, at, decisions([], planning=True)), _rows(setup, alike))
        if at != state:
            plan = plan.reframed(reframe(setup, frame, state))
            moved += 1
        planned, planned_value = plan.decide(decisions(planned_records, value=value), _rows(setup, ev.slot), part.boxes)
        a, b = _flow(eager, part.boxes), _flow(planned, part.boxes)
        assert a.keys() == b.keys(), (name, e)
        for key in a:
            for x, y in zip(a[key], b[key]):
                np.testing.assert_allclose(x, y, rtol=0, atol=TOL, err_msg=f"{name} event {e}")
        _same_records(eager_records, planned_records)
        # the attack's value from each damage marked, as the sum over the edges decided; an
        # edge a decision kept holds the value of where it leads as that decision looked it up
        expected = np.zeros((engine.chain.width, part.boxes))
        for pc in eager:
            ahead = lead(engine.chain, value, pc.state, pc.dst, *attack_cost(pc))
            if pc.ahead is not None:
                np.testing.assert_array_equal(pc.ahead, ahead, err_msg=f"{name} event {e}")
            sums_by(pc.src, pc.p, ahead, part.boxes, expected)
        np.testing.assert_allclose(planned_value, expected, rtol=TOL, atol=TOL, err_msg=f"{name} event {e}")
        _same_tally(setup, ev, state, planned, f"{name} event {e}")
    # the alike targets' attacks were planned on the first and moved (on the random ones, where
    # the sequence meets the second alike target)
    if not name.startswith("alike"):
        assert (moved > 0) == (name in ("named 5", "named 6", "named 7", "named 8")), name


def test_the_random_alike_cases_move_plans():
    """The random cases of alike targets and units check moved plans: most meet an attack on
    the second alike target or on a unit's later model (14 of the 24)."""
    meets = 0
    for name, scenario in _cases():
        if name.startswith("alike"):
            setup, _, met = _met(scenario)
            meets += any(plan_frame(setup, state) is not None for _, state in met)
    assert meets >= 12


def _same_tally(setup, ev, state, decided: Decided, msg: str) -> None:
    """The forward pass counts a decided attack from its arrays (every edge at once) as it
    counts its pieces one by one: figures, kills, targets, and the states reached."""
    rng = np.random.default_rng(ev.slot)
    v = rng.random(setup.part(state).boxes)
    tallies, dists = [], []
    for edges in (decided, list(decided)):
        tally, dist, again = Tally(setup), {}, {}
        tally.attack(ev, state, v, edges, dist, again)
        tallies.append(tally)
        dists.append((dist, again))
    flat, pieces = tallies
    for field in ("slot_weights", "kill_weights", "slot_damage_sq", "effects", "target_kill", "slot_target"):
        np.testing.assert_allclose(getattr(flat, field), getattr(pieces, field), rtol=TOL, atol=TOL,
                                   err_msg=f"{msg}: {field}")
    for a, b in zip(*dists):
        assert a.keys() == b.keys(), msg
        for key in a:
            np.testing.assert_allclose(a[key], b[key], rtol=TOL, atol=TOL, err_msg=msg)


def test_a_random_rate_of_fire_shares_its_edges_whatever_the_roll_allowed_beyond():
    """docs/rules.md 5 (a random rate of fire): without look-ahead, attack k of a d6 volley has
    the same edges for every roll above k; the figures equal those of each roll taken alone."""
    import mathhammer as mh

    gun = Weapon("Gun", "ranged", skill=6, pow=12, attacks="d6")
    scen = Scenario(Target(defense=13, arm=14, boxes=10), [Attacker("A", [gun])])
    res = mh.simulate(scen, method="exact")
    fixed = [mh.simulate(Scenario(scen.target, [Attacker("A", [Weapon("Gun", "ranged", skill=6, pow=12,
                                                                   attacks=k)])]), method="exact")
             for k in range(1, 7)]
    assert res.kill == pytest.approx(sum(r.kill for r in fixed) / 6, abs=TOL)
    pmf = sum(np.pad(r.damage_pmf, (0, res.damage_pmf.size - r.damage_pmf.size)) for r in fixed) / 6
    np.testing.assert_allclose(res.damage_pmf, pmf, rtol=0, atol=TOL)
    made = np.array([sum(r.slot_weights[i, SLOT_MADE] if i < r.n_attacks else 0.0 for r in fixed) / 6 for i in range(6)])
    np.testing.assert_allclose(res.slot_weights[:, SLOT_MADE], made, rtol=0, atol=TOL)


def test_plans_and_edges_beyond_the_budget_are_built_again_with_the_same_figures(monkeypatch):
    """With no room to keep them (``EDGE_BUDGET`` 0), every plan is built again where an attack
    of its signature meets its state, and the forward pass builds its edges again: the
    figures and the "how to play it" are those of a run that kept them."""
    import mathhammer as mh
    import mathhammer.exact.induction as induction

    for scen in _named()[:4]:
        kept = mh.simulate(scen, method="exact")
        monkeypatch.setattr(induction, "EDGE_BUDGET", 0)
        again = mh.simulate(scen, method="exact")
        monkeypatch.undo()
        np.testing.assert_array_equal(again.damage_pmf, kept.damage_pmf)
        np.testing.assert_array_equal(again.slot_weights, kept.slot_weights)
        assert again.kill == kept.kill
        assert again.play.decisions == kept.play.decisions


def test_the_values_ahead_go_with_the_edges_while_their_state_stays():
    """A piece's values ahead (``Piece.ahead``, what a decision looked up) follow the changes
    that keep its state, edges and points spent (scaled, counted as a critical or a Shred
    hit, a subset of its edges), are dropped where the state changes (a random rate of
    fire's shots), and are joined with the pieces joined to it where each holds them."""
    state = State(False, False, False, False, frozenset(), 0, 0, frozenset())
    ahead = np.arange(8.0).reshape(2, 4)
    pc = Piece(state, np.arange(4), np.arange(4) + 1, np.full(4, 0.25), slot_counts({"made": 1}), ahead=ahead)
    for changed in (pc.scaled(0.5), pc.as_critical(0.1), pc.as_shred()):
        assert changed.ahead is ahead
    np.testing.assert_array_equal(pc.where(np.array([True, False, True, False])).ahead, ahead[:, [0, 2]])
    assert pc.with_shots(2).ahead is None
    other = Piece(state, np.arange(2), np.arange(2), np.full(2, 0.5), pc.counts, ahead=-np.ones((2, 2)))
    (joined,) = merge([pc, other])
    np.testing.assert_array_equal(joined.ahead, np.concatenate([ahead, -np.ones((2, 2))], axis=1))
    (unknown,) = merge([pc, Piece(state, np.arange(2), np.arange(2), np.full(2, 0.5), pc.counts)])
    assert unknown.ahead is None

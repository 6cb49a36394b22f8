"""Song of Blades and Heroes, exact engine: docs/rules.md section 8, rule by rule, the seed's claims,
and every figure against the brute-force oracle of tests/naive_sbh.py."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import naive_sbh as naive
import numpy as np
import pytest

from mathhammer.errors import InputError
from mathhammer.sbh import (
    Group,
    Model,
    Settings,
    Solo,
    Turn,
    Warband,
    activation,
    best_dice,
    classify_shot,
    group_vs_individual,
    shoot,
    step_outcomes,
    turn_odds,
    volley,
)
from mathhammer.sbh.rules import success_faces, threshold

F = Fraction
LEADER = Model(3, 3, "Chief", leader=True)


def close(a, b, tol=1e-12):
    return abs(float(a) - float(b)) <= tol


# ----------------------------------------------------------------------- activation
@pytest.mark.parametrize("one_fails, six_ok", [(True, True), (False, True), (True, False), (False, False)])
def test_activation_matches_enumeration_every_quality_dice_bonus(one_fails, six_ok):
    s = Settings(natural_one_fails=one_fails, natural_six_succeeds=six_ok)
    for q, d, b in itertools.product(range(2, 7), range(1, 4), range(-3, 4)):
        odds = activation(q, d, b, s)
        actions, turnover = naive.activation(q, d, b, one_fails, six_ok)
        assert list(odds.actions) == actions, (q, d, b)
        assert odds.turnover == turnover, (q, d, b)
        assert sum(odds.actions) == 1


def test_rule_quality_is_a_target_number():
    """RULES 8 "roll 1-3 d6 against the model's Quality (Q3+ means 3 or more succeeds)"."""
    assert [success_faces(q) for q in range(2, 7)] == [5, 4, 3, 2, 1]
    assert activation(3, 1).actions == (F(1, 3), F(2, 3))
    assert activation(6, 1).actions == (F(5, 6), F(1, 6))


def test_rule_each_success_is_one_action_two_failures_turnover():
    """RULES 8 "Each success is one action. Two or more failures end the player's turn"."""
    odds = activation(4, 3)
    assert odds.actions == (F(1, 8), F(3, 8), F(3, 8), F(1, 8))
    assert odds.turnover == F(1, 8) + F(3, 8)  # 0 or 1 success = 3 or 2 failures
    assert odds.expected_actions == F(3, 2)
    # one die is never a turnover; two dice only when both fail
    assert all(activation(q, 1).turnover == 0 for q in range(2, 7))
    assert activation(5, 2).turnover == F(4, 9)


def test_choice_bonus_and_natural_one_and_six():
    """docs/sbh.md choices: a bonus adds to each die; a 1 always fails, a 6 always succeeds."""
    assert success_faces(2, 1) == 5  # the 1 still fails
    assert success_faces(2, 1, Settings(natural_one_fails=False)) == 6
    assert success_faces(6, -2) == 1  # the 6 still succeeds
    assert success_faces(6, -2, Settings(natural_six_succeeds=False)) == 0
    assert threshold(4, 1) == 3 and threshold(6, -1, Settings(natural_six_succeeds=False)) == 7
    assert activation(3, 2, bonus=1).turnover == F(1, 36)


# ----------------------------------------------------------------------- shooting
def test_shoot_matches_enumeration():
    for n, c, t, m in itertools.product(range(1, 6), range(5), range(7), (-2, 0, 1, 3)):
        odds = shoot(n, c, t, m)
        ref = naive.shoot(n, c, t, m)
        for k, v in ref.items():
            assert getattr(odds, k) == v, (n, c, t, m, k)
        assert odds.nothing + odds.beaten + odds.killed + odds.gruesome == 1


@pytest.mark.parametrize("floor", [None, 0, 1, 2])
def test_shoot_total_floor_setting_matches_enumeration(floor):
    s = Settings(total_floor=floor)
    for n, c, t in itertools.product(range(1, 6), range(4), range(4)):
        odds = shoot(n, c, t, -1, s)
        ref = naive.shoot(n, c, t, -1, floor=floor)
        assert odds.to_dict() == {k: float(v) for k, v in ref.items()}, (n, c, t)


def test_rule_combat_resolution_tie_higher_double_triple():
    """RULES 8 combat resolution: tie nothing, higher beaten, double killed, triple gruesome;
    a defender who wins suffers nothing."""
    assert classify_shot(6, 6) == "nothing"
    assert classify_shot(5, 6) == "nothing"
    assert classify_shot(7, 6) == "beaten"
    assert classify_shot(11, 6) == "beaten"
    assert classify_shot(12, 6) == "killed"
    assert classify_shot(17, 6) == "killed"
    assert classify_shot(18, 6) == "gruesome"


def test_choice_target_total_floor():
    """docs/sbh.md: totals below 1 count as 1 (default); raw totals on request."""
    assert classify_shot(2, -1) == "killed" and classify_shot(3, 0) == "gruesome"
    assert classify_shot(1, -3) == "nothing"  # both floored to 1: a tie
    assert classify_shot(1, -3, floor=None) == "gruesome"
    # combat 0 target, 5 shooters: target total 1d6 - 4 is below 1 on 1-4
    raw = shoot(5, 0, 0, settings=Settings(total_floor=None))
    floored = shoot(5, 0, 0)
    assert floored.gruesome < raw.gruesome


def test_rule_target_takes_minus_one_per_extra_shooter():
    """RULES 8 "the target's combat score takes -1 for each shooter after the first (-4 with
    five)": n shooters against T are one shooter against T - (n - 1)."""
    for n, c, t in itertools.product(range(1, 6), range(5), range(4, 9)):
        a, b = shoot(n, c, t), shoot(1, c, t - (n - 1))
        assert (a.nothing, a.beaten, a.killed, a.gruesome) == (b.nothing, b.beaten, b.killed, b.gruesome)


def test_rule_lowest_combat_score_and_other_modifiers():
    """RULES 8 "One combat roll with the lowest combat score"; "every other modifier that
    applies to any shooter applies" (the modifier adds to the shooters' total)."""
    band = [Model(4, 3), Model(4, 1), Model(4, 2)]
    assert volley(band, Model(4, 3)) == shoot(3, 1, 3)
    assert volley(band, 3, modifier=1) == shoot(3, 1, 3, 1)
    assert shoot(2, 2, 3, modifier=1).to_dict() == {
        k: v for k, v in shoot(2, 3, 3).to_dict().items()}


def test_rule_one_then_one_loses_a_shooter():
    """RULES 8 "If the combat die shows 1, roll another d6: on a second 1 one shooter loses
    its ability to shoot": 1/36, whatever the outcome; an ordinary shot has no such check."""
    for n in range(1, 6):
        assert shoot(n, 2, 4).lose_shooter == F(1, 36)
    assert shoot(1, 2, 4, concentrated=False).lose_shooter == 0
    with pytest.raises(InputError, match="shooters"):
        shoot(2, 2, 4, concentrated=False)


def test_seed_kobolds_against_the_ogre():
    """The seed's example: combat-2 kobolds (+1: the ogre is Big) shoot a combat-4 ogre."""
    one = shoot(1, 2, 4, modifier=1)
    # at best 6 + 2 + 1 = 9, while the ogre's lowest total 1 + 4 = 5 needs 10 to be killed
    assert 6 + 2 + 1 < 2 * (1 + 4)
    assert one.killed == 0 and one.gruesome == 0
    assert one.beaten == F(10, 36) and one.nothing == F(26, 36)
    five = shoot(5, 2, 4, modifier=1)  # the ogre at -4: 1d6 + 0
    assert (five.nothing, five.beaten, five.killed, five.gruesome) == (F(6, 36), F(12, 36), F(7, 36), F(11, 36))
    assert five.kill_or_better == F(1, 2)
    assert five.lose_shooter == F(1, 36)
    kobolds = [Model(4, 2, "Kobold")] * 5
    assert volley(kobolds, Model(4, 4, "Ogre"), modifier=1) == five
    # the kill chance grows with every shooter added
    kills = [shoot(n, 2, 4, 1).kill_or_better for n in range(1, 6)]
    assert kills == sorted(kills) and kills[0] == 0 and kills[1] > 0


# ----------------------------------------------------------------------- group activation
def test_rule_group_rolls_once_at_lowest_quality():
    """RULES 8 / the seed: three Q3+ elves and a Q4+ halfling roll at 4+."""
    g = Group(LEADER, [Model(3), Model(3), Model(3), Model(4)], dice=2)
    assert g.quality == 4
    outs = step_outcomes(g, Settings(leader_bonus=0))
    given = [(p, a) for p, a, o, _ in outs if o]
    by_g = {}
    for p, a in given:
        assert len(set(a[1:])) == 1  # every member gets the same actions
        by_g[a[1]] = by_g.get(a[1], 0) + p
    lead = activation(3, 1).actions[1]
    assert {k: v / lead for k, v in by_g.items()} == dict(enumerate(activation(4, 2).actions))


def test_choice_leader_bonus_on_group_rolls():
    """docs/sbh.md: the group's roll gets the Leader's +1 on each die (settings.leader_bonus)."""
    g = Group(LEADER, [Model(4), Model(4)], dice=3)
    outs = step_outcomes(g)
    p_order = activation(3, 1).actions[1]
    p3 = sum(p for p, a, o, _ in outs if o and a[1] == 3)
    assert p3 == p_order * activation(4, 3, bonus=1).actions[3] == p_order * F(8, 27)


def test_rule_leader_turnover_with_one_action_gives_no_order():
    """RULES 8 "A Leader that rolled a turnover with only one action cannot give the order"."""
    g = Group(LEADER, [Model(4), Model(4), Model(4)], dice=2, leader_dice=3)
    outs = step_outcomes(g)
    lead = activation(3, 3)
    # 1 success 2 failures: the Leader keeps its one action, no order, the turn ends
    no_order = [(p, a, t) for p, a, o, t in outs if not o and a[0] == 1]
    assert len(no_order) == 1 and no_order[0][1] == (1, 0, 0, 0) and no_order[0][2]
    assert no_order[0][0] == lead.actions[1]
    order = sum(p for p, _, o, _ in outs if o)
    assert order == lead.actions[2] + lead.actions[3]
    # the order costs the Leader one of its 2 or 3 actions
    assert {a[0] for _, a, o, _ in outs if o} == {1, 2}


def test_rule_group_sizes():
    """RULES 8: 2-5 models, up to 10 by agreement (settings.large_groups)."""
    five = [Model(4)] * 5
    Turn([Group(LEADER, five, 2)])
    with pytest.raises(InputError, match="members"):
        Group(LEADER, [Model(4)], 2)
    with pytest.raises(InputError, match=r"steps\[0\]\.members: must hold 2 to 5"):
        Turn([Group(LEADER, five + [Model(4)], 2)])
    Turn([Group(LEADER, [Model(4)] * 10, 2)], Settings(large_groups=True))
    with pytest.raises(InputError, match="members"):
        Group(LEADER, [Model(4)] * 11, 2)
    with pytest.raises(InputError, match="leader=True"):
        Group(Model(3), five, 2)


def test_rule_regroup_one_die_lowest_quality():
    """RULES 8 Regroup: any models activate with 1 die at the lowest Quality: never a
    turnover from the group's roll."""
    g = Group(LEADER, [Model(3), Model(5), Model(4)] * 3, dice=1, regroup=True)
    res = turn_odds(Turn([g]))
    assert res.turnover == 0
    p = float(activation(3, 1).actions[1] * activation(5, 1, 1).actions[1])
    assert close(res.all_act, p)
    with pytest.raises(InputError, match="regroup rolls 1 die"):
        Group(LEADER, [Model(3)], dice=2, regroup=True)


# ----------------------------------------------------------------------- turns
def _plan_tuple(turn):
    out = []
    for s in turn.steps:
        if isinstance(s, Solo):
            out.append(("solo", s.model.quality, s.dice, s.bonus))
        else:
            out.append(("group", s.leader.quality, s.leader_dice, [m.quality for m in s.members],
                        s.dice, turn.settings.leader_bonus))
    return out


PLANS = {
    "solo-3": Turn([Solo(Model(3), 2), Solo(Model(4), 3), Solo(Model(5), 1)]),
    "solo-bonus": Turn([Solo(Model(2), 3, bonus=1), Solo(Model(6), 3, bonus=-1), Solo(Model(4), 2)]),
    "group-last": Turn([Solo(Model(4), 2), Group(LEADER, [Model(4), Model(5), Model(3)], 3, 2)]),
    "group-first": Turn([Group(LEADER, [Model(4), Model(4)], 2, 3), Solo(Model(3), 3)]),
    "two-groups": Turn([Group(LEADER, [Model(4)] * 2, 2, 1),
                        Group(Model(4, leader=True), [Model(5)] * 3, 3, 2)],
                       Settings(leader_bonus=0)),
    "regroup": Turn([Solo(Model(3), 3), Group(LEADER, [Model(4)] * 6, 1, 2, regroup=True)]),
    "no-naturals": Turn([Solo(Model(2), 3, bonus=1), Group(LEADER, [Model(2)] * 2, 3, 1)],
                        Settings(natural_one_fails=False, leader_bonus=1)),
}


@pytest.mark.parametrize("name", list(PLANS))
def test_turn_matches_path_enumeration(name):
    turn = PLANS[name]
    s = turn.settings
    ref = naive.turn(_plan_tuple(turn), s.natural_one_fails, s.natural_six_succeeds)
    res = turn_odds(turn)
    joint = np.zeros((turn.max_actions + 1, len(turn.models) + 1))
    for (t, a), p in ref["joint"].items():
        joint[t, a] += float(p)
    np.testing.assert_allclose(res.actions_pmf, joint.sum(axis=1), atol=1e-13)
    np.testing.assert_allclose(res.acted_pmf, joint.sum(axis=0), atol=1e-13)
    end = [float(ref["end"].get(i, 0)) for i in range(len(turn.steps) + 1)]
    np.testing.assert_allclose(res.end_pmf, end, atol=1e-13)
    np.testing.assert_allclose(res.model_acted, [float(x) for x in ref["acted"]], atol=1e-13)
    np.testing.assert_allclose(res.model_actions, [float(x) for x in ref["actions"]], atol=1e-13)
    for i, s in enumerate(turn.steps):
        if isinstance(s, Group):
            assert close(res.order[i], ref["order"].get(i, 0))
        else:
            assert math.isnan(res.order[i])
    assert close(res.actions_pmf.sum(), 1) and close(res.end_pmf.sum(), 1)
    assert close(res.expected_actions, res.model_actions.sum())


def test_rule_turnover_after_that_models_actions():
    """RULES 8 "Two or more failures end the player's turn (turnover) after that model's
    actions": a 1-success 2-failure roll still gives its action, and nobody after acts."""
    res = turn_odds(Turn([Solo(Model(4), 3), Solo(Model(4), 1)]))
    first = activation(4, 3)
    assert close(res.end_pmf[0], first.turnover)
    assert close(res.model_actions[0], first.expected_actions)
    # the second model acts only after no turnover
    assert close(res.model_acted[1], (1 - first.turnover) * F(1, 2))
    assert close(res.reached[1], 1 - first.turnover)


def test_warband_expected_actions_one_at_a_time():
    """Issue: expected actions per turn, one model at a time, stopping at the first turnover."""
    band = Warband([Model(3), Model(3), Model(4), Model(4), Model(5)])
    for dice in (1, 2, 3, [3, 2, 2, 1, 3]):
        turn = band.one_at_a_time(dice)
        ref = naive.turn(_plan_tuple(turn))
        expected = sum(t * p for (t, _), p in ref["joint"].items())
        assert close(turn_odds(turn).expected_actions, expected)
    # with one die there is no turnover: every model rolls
    res = turn_odds(band.one_at_a_time(1))
    assert res.turnover == 0 and close(res.expected_actions, (4 + 4 + 3 + 3 + 2) / 6)


def test_best_dice_matches_brute_force():
    for qualities in ([3, 3, 3, 3], [5, 5, 5], [2, 6, 4], [4, 3, 5, 2], [6]):
        for objective in ("actions", "acted"):
            best = best_dice(qualities, objective)
            value, _ = naive.best_dice_brute(qualities, objective)
            assert close(best.value, value), (qualities, objective)
            turn = Warband([Model(q) for q in qualities]).one_at_a_time(list(best.dice))
            got = turn_odds(turn)
            assert close(got.expected_actions if objective == "actions" else got.expected_acted, value)


# ----------------------------------------------------------------------- the seed's claims
@pytest.mark.parametrize("quality", [4, 5])
@pytest.mark.parametrize("dice", [1, 2, 3])
def test_seed_goblins_one_at_a_time_is_too_risky(quality, dice):
    """Seed: four weak goblins must all act to surround the orc; one at a time "is too risky"
    (1 or 2 may end up engaged alone); as a group they act together.

    Weak goblins: Q4+ or Q5+. (For Q3+ models on two dice without the Leader's bonus, the
    four alone, 0.624, beat the boss's 1-die roll times the group's, 0.593: the boss's own
    roll is a risk the goblins alone do not take. Counting the boss's roll in both, as
    :func:`test_seed_group_against_individual_everywhere` does, the group always wins.)"""
    goblins = [Model(quality, 1, "Goblin")] * 4
    alone = turn_odds(Warband(goblins).one_at_a_time(dice))
    for bonus in (0, 1):
        boss = Model(3, 2, "Goblin boss", leader=True)
        grouped = turn_odds(Turn([Group(boss, goblins, dice, 1)], Settings(leader_bonus=bonus)))
        assert grouped.all_act > alone.all_act
        # as a group, the goblins act all or none: the boss alone, or the boss and all four
        assert close(grouped.acted_pmf[[0, 1, 5]].sum(), 1)
    # one at a time, only one or two goblins acting is a real risk
    assert alone.acted_pmf[1] + alone.acted_pmf[2] > 0.05


def test_seed_group_against_individual_everywhere():
    """Seed: a group acts together whatever the roll. Over every Leader Quality and dice,
    member Quality and dice, and group size, with or without the Leader's bonus, the group
    order makes every model acting likelier and a turnover no likelier than activating the
    same models one at a time (the Leader's own roll included in both)."""
    for bonus in (0, 1):
        s = Settings(leader_bonus=bonus)
        for lq, ld, q, d, n in itertools.product(range(2, 7), (1, 2, 3), (3, 4, 5), (1, 2, 3), (2, 3, 5)):
            t = group_vs_individual(Model(lq, leader=True), [q] * n, d, ld, s).set_index("activation")
            assert t.at["group", "all_act"] >= t.at["individual", "all_act"] - 1e-12
            assert t.at["group", "turnover"] <= t.at["individual", "turnover"] + 1e-12


def test_seed_five_models_one_at_a_time_with_three_dice():
    """Seed: five models rolling three dice each, one at a time: the third may roll 1 success
    and 2 failures and end the turn; as a group they all move whatever the roll."""
    p = float(activation(4, 3).actions[3] * activation(4, 3).actions[2] * activation(4, 3).actions[1])
    assert p > 0  # the seed's sequence 3, 2, then 1 success 2 failures
    five = [Model(4)] * 5
    alone = turn_odds(Warband(five).one_at_a_time(3))
    assert alone.reached[3] < 0.3  # rarely does a fourth model get to roll
    grouped = turn_odds(Turn([Group(LEADER, five, 3, 1)]))
    assert grouped.all_act > 4 * alone.all_act


def test_seed_group_last_rolls_three_dice_at_no_risk():
    """Seed: keep the group activation for the turn's last action and roll three dice with no
    risk: a turnover then costs nothing, and three dice give the most actions to every
    member."""
    before = [Solo(Model(3), 2), Solo(Model(4), 2)]
    members = [Model(4)] * 4
    results = [turn_odds(Turn(before + [Group(LEADER, members, d, 1)])) for d in (1, 2, 3)]
    for r in results[1:]:
        np.testing.assert_allclose(r.model_actions[:2], results[0].model_actions[:2])
        np.testing.assert_allclose(r.reached, results[0].reached)
    means = [r.expected_actions for r in results]
    assert means[0] < means[1] < means[2]
    # the optimiser agrees: the last model always rolls three dice
    for q in range(2, 7):
        assert best_dice([3, 4, q]).dice[-1] == 3


def test_seed_surrounding_penalty_four_goblins():
    """Seed: four goblins around the orc give it -3."""
    assert shoot(4, 1, 3).to_dict() == shoot(1, 1, 0).to_dict()


# ----------------------------------------------------------------------- input errors
@pytest.mark.parametrize("call, key", [
    (lambda: activation(7, 2), "quality"),
    (lambda: activation(1, 2), "quality"),
    (lambda: activation(4, 0), "dice"),
    (lambda: activation(4, 4), "dice"),
    (lambda: activation(4, 2, bonus=5), "bonus"),
    (lambda: shoot(0, 2, 4), "shooters"),
    (lambda: shoot(6, 2, 4), "shooters"),
    (lambda: shoot(2, -1, 4), "combat"),
    (lambda: shoot(2, 2, 13), "target_combat"),
    (lambda: shoot(2, 2, 4, modifier=11), "modifier"),
    (lambda: Model(4, combat=True), "combat"),
    (lambda: Settings(total_floor="x"), "settings.total_floor"),
    (lambda: Turn([]), "steps"),
    (lambda: Turn([Solo(Model(4), 1), "x"]), "steps[1]"),
    (lambda: Warband([Model(4)]).one_at_a_time([1, 2]), "dice"),
    (lambda: Warband([Model(4), Model(3)]).one_at_a_time([1, 4]), "dice[1]"),
    (lambda: best_dice([3, 9]), "models[1]"),
    (lambda: best_dice([3], objective="kills"), "objective"),
])
def test_bad_input_names_field_and_value(call, key):
    with pytest.raises(InputError) as info:
        call()
    assert info.value.key == key
    assert "\n" not in str(info.value) and str(info.value).startswith(key + ":")


# ----------------------------------------------------------------------- tables and plots
def test_tables():
    from mathhammer.sbh import (
        activation_summary,
        activation_table,
        shoot_table,
        turn_table,
    )

    t = activation_table()
    assert len(t) == 5 * (2 + 3 + 4)
    assert np.allclose(t.groupby(["quality", "dice"])["probability"].sum(), 1)
    s = activation_summary()
    turn = t[t.turnover].groupby(["quality", "dice"])["probability"].sum()
    merged = s.set_index(["quality", "dice"])["turnover"]
    assert np.allclose(merged.loc[turn.index], turn)
    sh = shoot_table(2, 4, 1).set_index("shooters")
    assert sh.at[5, "gruesome"] == float(F(11, 36)) and sh.at[1, "kill_or_better"] == 0
    assert np.allclose(sh[["nothing", "beaten", "killed", "gruesome"]].sum(axis=1), 1)
    res = turn_odds(PLANS["group-last"])
    tt = turn_table(res)
    assert list(tt["model"])[:2] == ["Q4+", "Chief"] and np.isclose(tt["expected_actions"].sum(), res.expected_actions)


def test_plots_return_axes(monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.axes import Axes

    from mathhammer.sbh import plot_activation, plot_shoot, plot_turn

    _, axes = plt.subplots(1, 3)
    assert plot_activation(ax=axes[0]) is axes[0]
    assert plot_shoot(2, 4, 1, ax=axes[1]) is axes[1]
    assert plot_turn(turn_odds(PLANS["solo-3"]), ax=axes[2]) is axes[2]
    assert isinstance(plot_shoot(2, 4), Axes)
    plt.close("all")

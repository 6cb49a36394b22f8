"""Best play (docs/best-play.md): the default policies, exact best play against an independent
brute force, Monte Carlo best play against exact, the decision tables and "how to play it".

The brute force is ``tests/naive.py``'s ``bf_activation``: plain recursion over every roll
and decision, written from docs/activation.md and docs/best-play.md without the engine's
code. Its attackers with ``policy = "best"`` take every decision that maximises the
objective, and a target with ``power_field = "best"`` every one that minimises it.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.cards import scenario_from_cards
from mathhammer.cli import main
from mathhammer.result.play import play_lines
from mathhammer.result.text import format_report
from mathhammer.exact import exact_result, optimal_value
from mathhammer.play import solve
from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon
from agreement import exact_matches_oracle, monte_carlo_agrees
from naive import BF_COLUMNS, BF_FIELDS, bf_activation
from naive_lex import bf_lexicographic

TOL = 1e-12
N_RANDOM = 400


# ---------------------------------------------------------------- random small scenarios
def _weapon(rnd: random.Random, kind: str, k: int, attacks: int) -> Weapon:
    reload = rnd.choice([0, 0, 1, 2]) if kind == "ranged" else 0
    rules = set()
    if rnd.random() < 0.3:
        rules.add(rnd.choice(["knockdown", "critical_knockdown"]))
    if rnd.random() < 0.1:
        rules.add(rnd.choice(["brutal_damage", "weapon_master", "armor_piercing", "grievous_wounds"]))
    return Weapon(f"W{k}", kind, skill=rnd.randint(3, 8), pow=rnd.randint(6, 14), attacks=attacks,
                  boosted_damage=rnd.random() < 0.1, rules=rules,
                  def_minus=2 if rnd.random() < 0.1 else 0, reload=reload)


def random_scenario(seed: int) -> Scenario:
    """One small scenario: 1 to 3 attackers (focus, fury or forcing; best play or a fixed
    policy), melee with bought attacks, ranged (with Reload) or arcane, against a track of 1 to 5 boxes
    with focus or fury (best, lethal or never), Tough, knockdowns."""
    rnd = random.Random(seed)
    budget = 4  # attack slots, bought ones included, in all
    attackers = []
    while budget > 0 and len(attackers) < 3 and (not attackers or rnd.random() < 0.5):
        kind = rnd.choice(["melee", "melee", "ranged", "arcane"])
        n = rnd.randint(1, min(2, budget))
        weapons = [_weapon(rnd, kind, 0, n)]
        if kind == "arcane" and rnd.random() < 0.4:  # a spell: every cast paid for
            weapons = [dataclasses.replace(weapons[0], cost=rnd.randint(1, 2))]
        budget -= n
        if budget and rnd.random() < 0.3:
            weapons.append(_weapon(rnd, kind, 1, 1))
            budget -= 1
        reloads = sum(w.reload for w in weapons)
        points = rnd.randint(0, min(3, budget) if kind == "melee" or reloads else 3)
        if kind == "melee":
            budget -= points
        else:
            budget -= min(points, reloads) if reloads else 0
        if budget < 0:  # the reloads of two weapons: keep the sequence small
            points, budget = 1, 0
        if weapons[0].cost:  # enough points for one cast at least
            points = max(points, weapons[0].cost)
        resource = rnd.choice(["focus", "fury", "force"])
        extra = {}
        if rnd.random() < 0.2:
            extra["spend"] = Spend(buy_attacks=False)  # a fixed policy among best players
        attackers.append(Attacker(f"A{len(attackers)}", weapons, charge=kind == "melee" and rnd.random() < 0.2,
                                  **{resource: points}, **extra,
                                  model="warbeast" if resource == "force" else "warjack"))
    power = rnd.choice(["focus", "fury"])
    target = Target(defense=rnd.randint(8, 15), arm=rnd.randint(8, 15), boxes=rnd.randint(1, 5),
                    rules=set(rnd.sample(["tough", "tough_steady"], k=1)) if rnd.random() < 0.3 else set(),
                    state={"knocked_down"} if rnd.random() < 0.1 else set(),
                    power_field=rnd.choice(["best", "best", "lethal", "never"]),
                    **{power: rnd.randint(0, 2)})
    objective = rnd.choice(["kill", "kill", "damage"])
    return Scenario(target, attackers, objective=objective)


def batch_seeds(batch: int) -> range:
    """The seeds of one of the 8 batches the random scenarios are checked in."""
    per = N_RANDOM // 8
    return range(batch * per, (batch + 1) * per)


def _f(xs):
    return np.array([float(x) for x in xs])


@pytest.mark.parametrize("batch", range(8))
def test_exact_best_play_equals_brute_force_on_random_scenarios(batch):
    """docs/best-play.md: every figure of exact best play (attackers' and target's, mixed
    with fixed policies) equals the brute force's, to 1e-12, on 400 random scenarios."""
    played = 0
    for seed in batch_seeds(batch):
        scen = random_scenario(seed)
        res = exact_result(scen)
        bf = bf_activation(scen)
        assert res.n_attacks == len(bf["made"]), seed
        np.testing.assert_allclose(res.damage_pmf, _f(bf["damage"]), rtol=0, atol=TOL, err_msg=str(seed))
        np.testing.assert_allclose(res.kill_weights, _f(bf["kill_at"]), rtol=0, atol=TOL, err_msg=str(seed))
        for col, name in zip(BF_COLUMNS, BF_FIELDS):
            np.testing.assert_allclose(res.slot_weights[:, col], _f(bf[name]), rtol=TOL, atol=TOL,
                                       err_msg=f"{seed} {name}")
        value = res.kill if scen.objective == "kill" else res.damage_mean
        assert value == pytest.approx(float(bf["value"]), abs=TOL * scen.target.boxes), seed
        played += any(a.plays_best for a in scen.attackers) or (
            scen.target.power_field == "best" and scen.target.power_points > 0)
    assert played >= N_RANDOM // 16  # most scenarios have decisions to make


# ------------------------------------------------- lexicographic best play: units, targets
_LEX_RULES = ["knockdown", "critical_knockdown", "weapon_master", "armor_piercing", "grievous_wounds"]


def random_lex_scenario(seed: int) -> Scenario:
    """One small scenario for the lexicographic oracle (``tests/naive_lex.py``): 1 to 3
    attackers playing their best with focus, fury or forcing (some with ``keep_points``), or
    with no points; melee with bought attacks, ranged with Reload, or spells; against one
    model with focus or fury, a unit of 2 or 3 models, or 2 or 3 targets; the objective
    kill, damage or destroyed."""
    rnd = random.Random(10_000 + seed)
    budget = 5
    attackers = []
    while budget > 0 and len(attackers) < 3 and (not attackers or rnd.random() < 0.5):
        kind = rnd.choice(["melee", "melee", "ranged", "arcane"])
        n = rnd.randint(1, min(2, budget))
        budget -= n
        rules = {rnd.choice(_LEX_RULES)} if rnd.random() < 0.4 else set()
        weapons = [Weapon("W0", kind, skill=rnd.randint(4, 8), pow=rnd.randint(8, 14), attacks=n, rules=rules,
                          boosted_damage=rnd.random() < 0.1, reload=rnd.choice([0, 1]) if kind == "ranged" else 0)]
        if kind == "arcane" and rnd.random() < 0.5:
            weapons = [dataclasses.replace(weapons[0], cost=rnd.randint(1, 2))]
        if kind == "melee" and budget and rnd.random() < 0.3:
            weapons.append(Weapon("W1", "melee", skill=rnd.randint(4, 8), pow=rnd.randint(8, 14)))
            budget -= 1
        buys = kind == "melee" or any(w.reload for w in weapons)
        points = rnd.randint(0, max(0, min(3, budget))) if buys else rnd.randint(0, 3)
        if buys:
            budget -= points if kind == "melee" else min(points, 1)
        if weapons[0].cost:
            points = max(points, weapons[0].cost)
        resource = rnd.choice(["focus", "fury", "force"])
        attackers.append(Attacker(f"A{len(attackers)}", weapons, **{resource: points},
                                  charge=kind == "melee" and rnd.random() < 0.2,
                                  keep_points=points > 0 and rnd.random() < 0.25,
                                  model="warbeast" if resource == "force" else "warjack"))
    shape = rnd.choice(["one", "unit", "several", "several"])

    def model(name, points=True):
        power = rnd.choice(["focus", "fury"])
        extra = {power: rnd.randint(0, 2), "power_field": rnd.choice(["best", "best", "lethal", "never"])} if points else {}
        return Target(defense=rnd.randint(8, 14), arm=rnd.randint(9, 15), boxes=rnd.randint(1, 4), name=name,
                      rules={"tough"} if rnd.random() < 0.3 else set(),
                      state={"knocked_down"} if rnd.random() < 0.1 else set(), **extra)

    def unit(name):
        return Target(defense=rnd.randint(8, 14), arm=rnd.randint(9, 14), boxes=rnd.randint(1, 3), name=name,
                      models=rnd.randint(2, 3), rules={"tough"} if rnd.random() < 0.3 else set())

    if shape == "one":
        targets = [model("T0")]
    elif shape == "unit":
        targets = [unit("T0")]
    else:
        targets = [model(f"T{g}") if rnd.random() < 0.6 else unit(f"T{g}") for g in range(rnd.randint(2, 3))]
    objective = rnd.choice(["kill", "damage", "destroyed"])
    return Scenario(targets, attackers, objective=objective)


@pytest.mark.parametrize("batch", range(8))
def test_lexicographic_best_play_equals_brute_force_on_units_and_targets(batch):
    """docs/best-play.md, "Objectives": exact best play equals the lexicographic brute force
    of tests/naive_lex.py (which shares no code with the engine) to 1e-12 on the objective
    and on every secondary figure (the kill, the models destroyed, the damage marked, the
    points each side spent), on 400 random scenarios with units and several targets."""
    ties = 0
    for seed in batch_seeds(batch):
        scen = random_lex_scenario(seed)
        res = exact_result(scen)
        bf = bf_lexicographic(scen)
        got = {"kill": res.kill, "destroyed": res.models_destroyed_mean, "damage": res.damage_mean,
               "spent": float(res.spent_mean.sum()), "target_spent": res.target_spent_total}
        for name, value in got.items():
            assert value == pytest.approx(float(bf[name]), abs=TOL * max(1.0, float(bf["damage"]))), (seed, name)
        ties += bf["kill"] in (0, 1)  # the kill out of reach (or certain): the secondary figures decide
    assert ties >= N_RANDOM // 80


def test_random_lex_scenarios_cover_the_contract():
    seen = set()
    for seed in range(N_RANDOM):
        s = random_lex_scenario(seed)
        seen |= {f"targets:{min(len(s.targets), 2)}", f"objective:{s.objective}"}
        seen |= {"unit" for t in s.targets if t.models > 1}
        seen |= {f"target:{t.power_kind}:{t.power_field}" for t in s.targets if t.power_points}
        seen |= {"tough" for t in s.targets if "tough" in t.rules}
        for a in s.attackers:
            seen |= {f"resource:{a.resource}", f"attackers:{len(s.attackers)}"}
            seen |= {"keep_points"} if a.keep_points else set()
            seen |= {"spell" for w in a.weapons if w.cost} | {"reload" for w in a.weapons if w.reload}
            seen |= {"second melee weapon" for w in a.weapons[1:] if w.type == "melee"}
            seen |= {r for w in a.weapons for r in w.rules}
    wanted = {"targets:1", "targets:2", "objective:kill", "objective:damage", "objective:destroyed", "unit",
              "target:focus:best", "target:fury:best", "target:focus:lethal", "tough", "resource:focus",
              "resource:fury", "resource:force", "attackers:1", "attackers:2", "attackers:3", "keep_points",
              "spell", "reload", "second melee weapon", *_LEX_RULES}
    assert wanted <= seen, wanted - seen


def test_random_scenarios_cover_the_contract():
    seen = set()
    for seed in range(N_RANDOM):
        s = random_scenario(seed)
        t = s.target
        seen |= {f"attackers:{len(s.attackers)}", f"objective:{s.objective}"}
        for a in s.attackers:
            if a.points:
                seen.add(f"{a.resource}:{a.policy}")
            seen |= {f"rule:{r}" for w in a.weapons for r in w.rules}
            if a.max_bought and len([w for w in a.weapons if w.type == "melee"]) == 2:
                seen.add("bought with two weapons")
            if any(slot.choices for slot in s.attack_sequence()):
                seen.add("best play chooses the weapon")
            if a.reloads:
                seen.add("reload")
            if a.casts:
                seen.add("spell with a cost")
        if t.power_points:
            seen.add(f"target {t.power_kind}:{t.power_field}")
        seen |= {f"target:{r}" for r in t.rules}
    for want in ("attackers:1", "attackers:2", "attackers:3", "focus:best", "fury:best", "force:best",
                 "focus:fixed", "target focus:best", "target fury:best", "target focus:lethal",
                 "target:tough", "rule:knockdown", "rule:critical_knockdown", "objective:damage",
                 "bought with two weapons", "best play chooses the weapon", "reload", "spell with a cost"):
        assert want in seen, want


def test_optimal_value_is_best_play_of_every_attacker():
    for seed in range(40):
        scen = random_scenario(seed)
        everyone = tuple(dataclasses.replace(a, policy="best", spend=None) for a in scen.attackers)
        best = exact_result(dataclasses.replace(scen, attackers=everyone))
        value = best.kill if scen.objective == "kill" else best.damage_mean
        assert optimal_value(scen, scen.objective) == pytest.approx(value, abs=TOL * scen.target.boxes)


# ------------------------------------------------------------------------ defaults (rules)
FIST = Weapon("Fist", "melee", skill=6, pow=13, attacks=2)


def test_best_play_is_the_default_with_points():
    """docs/best-play.md: policy "best" and power_field "best" by default; a spend table
    without a policy is followed as given."""
    a = Attacker("Jack", [FIST], focus=2)
    assert a.policy == "best" and a.plays_best
    assert Attacker("Jack", [FIST], focus=2, spend=Spend()).policy == "fixed"
    assert not Attacker("Jack", [FIST]).plays_best  # no points: nothing to decide
    assert Target(12, 14, focus=2).power_field == "best"
    assert Target(12, 14, focus=2, power_field="optimal").power_field == "best"  # the older name


def test_issue_table_best_play_against_the_default_fixed_policy():
    """The issue's first row: focus 2, two MAT 6 POW 13 fists, DEF 14 ARM 16, 12 boxes."""
    scen = Scenario(Target(14, 16, boxes=12), [Attacker("Jack", [FIST], focus=2)])
    fixed = dataclasses.replace(scen, attackers=[dataclasses.replace(scen.attackers[0], policy="fixed")])
    assert round(exact_result(scen).kill, 3) == 0.288
    assert round(exact_result(fixed).kill, 3) == 0.220


def test_declining_a_bought_attack_ends_buying():
    """docs/best-play.md: bought attacks are made in order; none is made after one declined."""
    scen = Scenario(Target(13, 15, boxes=10, focus=3), [Attacker("Jack", [FIST], focus=3)])
    made = exact_result(scen).made[2:]
    assert np.all(np.diff(made) <= TOL)


def test_spend_table_with_best_policy_is_refused_in_files(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text('[target]\ndef = 12\narm = 14\n[[attackers]]\nfocus = 1\npolicy = "best"\n'
                 '[attackers.spend]\nreserve = 1\n[[attackers.weapons]]\nname = "F"\ntype = "melee"\n'
                 'skill = 6\npow = 12\n')
    with pytest.raises(mh.InputError, match=r"attackers\[0\]\.spend: .*best play decides"):
        mh.load_scenario(p)
    assert main(["run", str(p), "--trials", "100"]) == 2


def test_a_spend_table_without_policy_stays_fixed(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text('[target]\ndef = 12\narm = 14\n[[attackers]]\nfocus = 1\n'
                 '[attackers.spend]\nreserve = 1\n[[attackers.weapons]]\nname = "F"\ntype = "melee"\n'
                 'skill = 6\npow = 12\n')
    a = mh.load_scenario(p).attackers[0]
    assert a.policy == "fixed" and a.spend.reserve == 1


# ------------------------------------------------------------------ Monte Carlo best play
MC_CASES = {
    "focus vs fury target": Scenario(Target(13, 15, boxes=10, fury=1), [Attacker("Jack", [FIST], focus=2)]),
    "two attackers vs focus target, Tough": Scenario(
        Target(12, 14, boxes=8, focus=2, rules={"tough"}),
        [Attacker("A", [Weapon("Axe", "melee", 6, 12, rules={"critical_knockdown"})], fury=2),
         Attacker("B", [Weapon("Gun", "ranged", 5, 12, attacks=2)], focus=2)]),
    "small grid, shield, both sides": Scenario(
        Target(12, 15, grid=["..", ".L", "LM", "CR", "MR", ".."], shield=("L",), focus=1),
        [Attacker("Jack", [FIST], focus=2)]),
    "reloading gun vs a Tough target": Scenario(
        Target(13, 14, boxes=6, rules={"tough"}),
        [Attacker("Gunner", [Weapon("Rifle", "ranged", 6, 12, reload=2)], focus=3)]),
    "a spell with a cost vs a fury target": Scenario(
        Target(14, 14, boxes=5, fury=1),
        [Attacker("Caster", [Weapon("Bolt", "arcane", 7, 12, attacks=3, cost=2)], focus=5)]),
    "bought attacks with a choice of weapons": Scenario(
        Target(13, 14, boxes=9, focus=1, rules={"tough"}),
        [Attacker("Jack", [Weapon("Fist", "melee", 5, 16), Weapon("Claw", "melee", 8, 12, attacks=0,
                                                                  rules={"critical_knockdown"})],
                  focus=3)]),
    "weapon choice on a small grid (damage to C)": Scenario(
        Target(12, 15, grid=["..", ".L", "LM", "CR", "MR", ".."], shield=("L",)),
        [Attacker("Jack", [Weapon("Fist", "melee", 6, 14), Weapon("Spike", "melee", 6, 11, attacks=0,
                                                                  damage_to="C")], focus=2)]),
    "two rounds with fire": Scenario(
        Target(12, 14, boxes=10, focus=1),
        [Attacker("Burner", [Weapon("Flamer", "ranged", 6, 11, rules={"fire"})], focus=1)], turns=2),
}


@pytest.mark.parametrize("name", list(MC_CASES))
def test_monte_carlo_best_play_matches_exact(name):
    """The kernel follows the decision tables: every kill and damage figure within 5
    standard errors of exact best play."""
    scen = MC_CASES[name]
    exact = mh.simulate(scen, method="exact")
    n = 400_000
    mc = mh.simulate(scen, trials=n, seed=7)
    assert mc.play.solved_on == "exact"
    se = math.sqrt(exact.kill * (1 - exact.kill) / n)
    assert abs(mc.kill - exact.kill) <= 5 * se + 1e-12
    se_d = exact.damage_sd / math.sqrt(n)
    assert abs(mc.damage_mean - exact.damage_mean) <= 5 * se_d + 1e-12
    for i in range(exact.n_attacks):
        p = exact.boost_damage_rate[i]
        assert abs(mc.boost_damage_rate[i] - p) <= 5 * math.sqrt(p * (1 - p) / n) + 1e-9, i


def test_relaxation_on_a_big_grid_is_reported():
    heavy = Target(12, 18, grid=["......", ".....L", "....LL", "...MC.", "...MC.", "....RR"], shield=("L",))
    scen = Scenario(heavy, [Attacker("Jack", [FIST, Weapon("Head", "melee", 6, 14)], focus=3),
                            Attacker("Jack 2", [FIST], focus=3)])
    table = solve(scen)
    assert table.solved_on == "relaxed: the grid as a damage track of 36 boxes, L, M crippled at random as on the grid"
    res = mh.simulate(scen, trials=20_000, seed=1)
    assert res.play.solved_on == table.solved_on


def test_relaxation_cripples_the_grid_systems_as_the_boxes_fill():
    """docs/best-play.md, the relaxation: on the heavy grid with a Shield on L, Movement and
    the shield arm are crippled on the relaxed track with the chance they are on the grid at
    each number of boxes marked: never with none marked, surely with all, never less with
    more, the same every time (seeded). M's boxes sit higher in their columns (rows 4 and 5)
    than the shield arm's (rows 5 and 6, filled last), so with half the grid marked M is the
    likelier crippled."""
    from mathhammer.play.relax import cripple_marks

    heavy = Target(12, 18, grid=["......", ".....L", "....LL", "...MC.", "...MC.", "....RR"], shield=("L",))
    scen = Scenario(heavy, [Attacker("Jack", [FIST], focus=3)])
    share = cripple_marks(scen)
    assert set(share) == {"L", "M"}
    for x, p in share.items():
        assert p.shape == (37,) and p[0] == 0 and p[-1] == 1
        assert np.all(np.diff(p) >= 0), x
        np.testing.assert_array_equal(p, cripple_marks(scen)[x])
    assert 0 < share["L"][18] < share["M"][18] < 1
    # no system feeds back on a grid without Shields, M or points: nothing to cripple
    plain = Target(12, 18, grid=["......", "......", "......", "...CC.", "...CC.", "......"])
    assert cripple_marks(Scenario(plain, scen.attackers)) == {}


def test_same_seed_same_best_play_whatever_the_threads():
    import numba

    scen = MC_CASES["two attackers vs focus target, Tough"]
    runs = []
    for threads in (1, numba.config.NUMBA_NUM_THREADS):
        numba.set_num_threads(threads)
        try:
            runs.append(mh.simulate(scen, trials=300_000, seed=5).damage_weights)
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    np.testing.assert_array_equal(runs[0], runs[1])


# ---------------------------------------------------------------------- how to play it
def test_play_table_says_the_decisions():
    scen = Scenario(Target(14, 16, boxes=12), [Attacker("Jack", [FIST], focus=2)])
    res = mh.simulate(scen, method="exact")
    frame = res.play_table()
    assert list(frame.columns) == ["slot", "attack", "who", "decision", "condition", "agreement", "taken",
                                   "points"]
    first = frame[frame.slot == 1].set_index("decision")["condition"].to_dict()
    # first attack: the damage roll of any hit is boosted, the attack roll is not
    assert first["boost the attack roll"] == "never"
    assert first["boost the damage roll"] == "always"
    row = frame[(frame.slot == 1) & (frame.decision == "boost the damage roll")].iloc[0]
    assert row.taken == pytest.approx(res.boost_damage_rate[0], abs=TOL)
    assert row.taken == pytest.approx(res.hit[0], abs=TOL)  # every hit is boosted
    assert res.play.solved_on == "exact"


def test_report_and_json_carry_best_play(tmp_path, capsys):
    p = tmp_path / "s.toml"
    p.write_text('[simulation]\ntrials = 20000\nseed = 2\n[target]\ndef = 13\narm = 15\nboxes = 10\nfury = 1\n'
                 '[[attackers]]\nname = "Jack"\nfocus = 2\n[[attackers.weapons]]\nname = "Fist"\n'
                 'type = "melee"\nskill = 6\npow = 13\nattacks = 2\n')
    assert main(["run", str(p)]) == 0
    out = capsys.readouterr().out
    assert "How to play it" in out and "spend fury to prevent the damage" in out
    assert main(["run", str(p), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    bp = data["best_play"]
    assert bp["solved_on"] == "exact" and bp["objective"] == "kill"
    assert {d["who"] for d in bp["decisions"]} == {"Jack", "Target"}
    assert all(0.0 <= d["agreement"] <= 1.0 for d in bp["decisions"])


def test_no_best_play_section_for_fixed_policies():
    scen = Scenario(Target(14, 16, boxes=12, focus=1, power_field="lethal"),
                    [Attacker("Jack", [FIST], focus=2, policy="fixed")])
    res = mh.simulate(scen, method="exact")
    assert res.play is None and res.play_table().empty


def test_a_spend_with_best_play_is_refused_not_ignored():
    """A spend table is followed by a fixed policy only: with best play it is an error, not
    silently ignored."""
    jack = Attacker("Jack", [FIST], focus=2)
    with pytest.raises(mh.InputError, match=r'spend: is followed by policy = "fixed" only'):
        dataclasses.replace(jack, spend=Spend(reserve=1))
    fixed = dataclasses.replace(jack, spend=Spend(reserve=1), policy="fixed")
    assert fixed.spend.reserve == 1
    assert dataclasses.replace(fixed, policy="best", spend=None).plays_best


def test_best_play_buys_attacks_with_the_better_weapon():
    """Additional Attacks (docs/rules.md 5, seed 001): each is made with any melee weapon the
    model has, and best play chooses it (docs/best-play.md). Fist MAT 4 POW 20
    (the default bought weapon: the highest POW) hits DEF 14 on 10+ (6/36), Claw MAT 8 POW 13
    on 6+ (26/36); either hit kills the 1-box target (ARM 12). With 1 focus, boosting the
    Fist's roll (3d6 >= 10: 135/216) loses to keeping the point and, after a miss, buying an
    attack with the Claw: 6/36 + 30/36 * 26/36 = 83/108. With the Fist only (buy_weapon), the
    boost is best: 135/216."""
    fist = Weapon("Fist", "melee", skill=4, pow=20)
    claw = Weapon("Claw", "melee", skill=8, pow=13, attacks=0)
    target = Target(14, 12, boxes=1)
    jack = Attacker("Jack", [fist, claw], focus=1)
    res = exact_result(Scenario(target, [jack]))
    assert res.slot_labels == ("Jack / Fist #1", "Jack / bought #1")
    assert res.kill == pytest.approx(83 / 108, abs=TOL)
    assert res.boost_attack_rate[0] == pytest.approx(0.0, abs=TOL)
    assert res.made[1] == pytest.approx(30 / 36, abs=TOL)
    only_fist = exact_result(Scenario(target, [dataclasses.replace(jack, buy_weapon="Fist")]))
    assert only_fist.slot_labels[1] == "Jack / Fist bought #1"
    assert only_fist.kill == pytest.approx(135 / 216, abs=TOL)
    # the kernel makes the bought attack with the Claw, and the report says so
    mc = mh.simulate(Scenario(target, [jack]), trials=200_000, seed=3)
    se = math.sqrt(res.kill * (1 - res.kill) / 200_000)
    assert abs(mc.kill - res.kill) <= 5 * se
    rows = mc.play_table()
    made_with = rows[rows["decision"] == "make it with Claw"]
    assert list(made_with["condition"]) == ["always"]
    assert list(made_with["attack"]) == ["Jack / bought #1"]


def test_reload_buys_additional_ranged_attacks():
    """Reload [N] (docs/best-play.md): a gun whose rolls are boosted for free can only spend
    its point on one more shot, and best play takes it: two shots, each hitting (3d6 + 5 vs
    DEF 14: 160/216) and killing (3d6 + 10 vs ARM 19 on 1 box: 10 or more, 135/216)."""
    gun = Weapon("Gun", "ranged", skill=5, pow=10, boosted_attack=True, boosted_damage=True, reload=1)
    scen = Scenario(Target(14, 19, boxes=1), [Attacker("A", [gun], focus=1)])
    p = (160 / 216) * (135 / 216)
    res = exact_result(scen)
    assert res.slot_labels == ("A / Gun #1", "A / Gun reload #1")
    assert res.kill == pytest.approx(1 - (1 - p) ** 2, abs=TOL)
    assert res.made[1] == pytest.approx(1 - p, abs=TOL) and res.spent_mean[1] == pytest.approx(1 - p, abs=TOL)
    # a fixed policy reloads when it buys attacks, not otherwise
    no = Attacker("A", [gun], focus=1, spend=Spend(buy_attacks=False))
    assert exact_result(Scenario(scen.target, [no])).kill == pytest.approx(p, abs=TOL)
    with pytest.raises(mh.InputError, match="reload: is for ranged weapons"):
        Weapon("Fist", "melee", 6, 12, reload=1)


def test_unlimited_reload_is_a_reload_of_every_point():
    """Reload with no limit (``reload = "unlimited"``): as many reloads as the attacker's
    points pay for, each decided by best play. The gun of the example above with 3 focus
    and no other use for it: four shots, each killing with p = 160/216 * 135/216; the oracle
    agrees on every figure; Reload [1] stops after two."""
    gun = Weapon("Gun", "ranged", skill=5, pow=10, boosted_attack=True, boosted_damage=True,
                 reload="unlimited")
    scen = Scenario(Target(14, 19, boxes=1), [Attacker("A", [gun], focus=3)])
    p = (160 / 216) * (135 / 216)
    res = exact_result(scen)
    assert res.slot_labels == ("A / Gun #1", "A / Gun reload #1", "A / Gun reload #2", "A / Gun reload #3")
    assert res.kill == pytest.approx(1 - (1 - p) ** 4, abs=TOL)
    assert res.made[3] == pytest.approx((1 - p) ** 3, abs=TOL)
    one = Scenario(scen.target, [Attacker("A", [dataclasses.replace(gun, reload=1)], focus=3)])
    assert exact_result(one).kill == pytest.approx(1 - (1 - p) ** 2, abs=TOL)
    small = Scenario(Target(14, 19, boxes=3), [Attacker("A", [dataclasses.replace(gun, boosted_attack=False)],
                                                         focus=2)])
    exact_matches_oracle(small)
    monte_carlo_agrees(small, seed=5)
    with pytest.raises(mh.InputError, match=r'reload: must be an integer 0 \.\. 20 or "unlimited" \(got \'lots\'\)'):
        Weapon("Gun", "ranged", 6, 12, reload="lots")


def test_spell_casts_cost_their_cost_and_best_play_counts_them():
    """A spell with COST 2 (docs/best-play.md): every cast costs 2, the first too; best play
    weighs casts against boosts. Bolt RAT 5 POW 20 against DEF 13 ARM 10, one box: a hit kills
    (2d6: 15/36; boosted, 3d6 >= 8: 181/216). With 3 focus: one cast, boosted. With 4: still
    one boosted cast (two plain casts kill 1 - (21/36)**2, less). With 5: two casts, one
    boosted."""
    bolt = Weapon("Bolt", "arcane", skill=5, pow=20, attacks=2, cost=2)
    target = Target(13, 10, boxes=1)
    kill = {f: exact_result(Scenario(target, [Attacker("C", [bolt], focus=f)])).kill for f in (3, 4, 5)}
    boosted, plain = 181 / 216, 15 / 36
    assert kill[3] == pytest.approx(boosted, abs=TOL)
    assert kill[4] == pytest.approx(max(boosted, 1 - (1 - plain) ** 2), abs=TOL)
    assert kill[5] == pytest.approx(1 - (1 - boosted) * (1 - plain), abs=TOL)
    with pytest.raises(mh.InputError, match="no attacks"):
        Scenario(target, [Attacker("C", [bolt], focus=1)])  # cannot pay for a cast
    res = exact_result(Scenario(target, [Attacker("C", [bolt], focus=5)]))
    assert res.slot_labels == ("C / Bolt cast #1", "C / Bolt cast #2")
    # either cast may take the boost (the same kill, the same damage): the points decide. The
    # first boosted spends 3 + 2 * 35/216 on average, the second boosted 2 + 3 * 21/36: the
    # first is boosted, the second cast (made when the first missed) is not
    assert res.spent_mean[0] == pytest.approx(3.0, abs=TOL)
    assert res.spent_mean[1] == pytest.approx(2 * (1 - boosted), abs=TOL)
    with pytest.raises(mh.InputError, match="cost: is for spells"):
        Weapon("Gun", "ranged", 6, 12, cost=1)


def test_explain_false_gives_the_same_figures_without_words():
    """simulate(explain=False), as sweeps and matrices run: the same counters from the same
    seed, no "how to play it" (its pass over the solved game is skipped); a bad value is a
    one-line error."""
    scen = MC_CASES["focus vs fury target"]
    full = mh.simulate(scen, trials=50_000, seed=4)
    bare = mh.simulate(scen, trials=50_000, seed=4, explain=False)
    np.testing.assert_array_equal(full.damage_weights, bare.damage_weights)
    assert len(full.play_table()) > 0 and len(bare.play_table()) == 0
    assert bare.play.solved_on == "exact"
    exact = mh.simulate(scen, method="exact", explain=False)
    assert exact.play is None
    with pytest.raises(mh.InputError, match="explain: must be true or false"):
        mh.simulate(scen, explain="yes")


# ------------------------------------------- the chain at the table: the issue's scenarios
def test_a_light_warjack_spends_its_focus_on_a_heavy_it_cannot_destroy_on_both_methods():
    """docs/best-play.md, "Objectives": with the kill out of reach (a light warjack's axe
    against a 34-box heavy warjack), the damage decides: both methods buy and boost with all
    3 focus and deal the same damage (within 5 standard errors); keeping the focus would deal
    what one unboosted axe deals."""
    scen = scenario_from_cards(["light_warjack"], "heavy_warjack")
    ex = mh.simulate(scen, method="exact")
    mc = mh.simulate(scen, trials=400_000, seed=3)
    idle = exact_result(dataclasses.replace(scen, attackers=[dataclasses.replace(
        scen.attackers[0], policy="fixed", spend=Spend(boost_attack="never", boost_damage="never",
                                                       buy_attacks=False))]))
    assert ex.kill == 0.0 and mc.kill == 0.0
    assert ex.spent_mean.sum() == pytest.approx(3.0, abs=1e-9)
    assert mc.spent_mean.sum() == pytest.approx(3.0, abs=1e-9)
    assert abs(mc.damage_mean - ex.damage_mean) <= 5 * ex.damage_sd / math.sqrt(400_000)
    assert ex.damage_mean > 4 * idle.damage_mean
    for res in (ex, mc):
        text = format_report(scen, res)
        assert "focus 3 (best play)" in text and "attack auto 8+" not in text
        assert "The kill is out of reach: best play goes for the damage" in text


def test_more_focus_never_deals_less_damage_when_the_kill_is_out_of_reach():
    """A light warjack against a heavy warbeast (no kill with up to 2 focus, 7e-6 with 3): each
    focus point buys an attack or a boost, so the damage rises with the focus, and "how to
    play it" buys the attack."""
    base = scenario_from_cards(["light_warjack"], "heavy_warbeast")
    damage = []
    for focus in range(4):
        scen = dataclasses.replace(base, attackers=[dataclasses.replace(base.attackers[0], focus=focus)])
        res = mh.simulate(scen, method="exact")
        assert res.kill == 0.0 if focus < 3 else res.kill < 1e-5
        damage.append(res.damage_mean)
        if focus == 2:
            said = {(d.kind, d.condition) for d in res.play.decisions}
            assert ("buy", "always") in said
    assert damage == sorted(damage) and damage[2] > damage[0] + 5


def test_the_target_spends_its_focus_to_keep_boxes_when_it_cannot_be_destroyed():
    """Three attacks on a 30-box target with 3 focus: the kill is out of reach, so the target's
    power field takes off what it can (fewer boxes marked before points kept); its figures are
    the lexicographic brute force's (tests/naive_lex.py)."""
    target = Target(12, 16, boxes=30, focus=3)
    scen = Scenario(target, [Attacker("Jack", [Weapon("Hammer", "melee", 7, 19, attacks=3)])])
    best = exact_result(scen)
    never = exact_result(dataclasses.replace(scen, target=dataclasses.replace(target, power_field="never")))
    bf = bf_lexicographic(scen)
    assert best.kill == pytest.approx(float(bf["kill"]), abs=TOL) and best.kill < 0.01
    assert best.damage_mean == pytest.approx(float(bf["damage"]), abs=TOL)
    assert best.target_spent_total == pytest.approx(float(bf["target_spent"]), abs=TOL)
    assert best.target_spent_total > 2.5
    assert best.damage_mean < never.damage_mean - 10


def test_keep_points_spends_for_the_kill_only():
    """docs/best-play.md: ``keep_points`` puts the points kept ahead of the damage. A warcaster
    that cannot destroy the target keeps its focus; one that can spends it on the kill alone:
    its kill is best play's, its damage not above it."""
    staff = Weapon("Staff", "melee", 7, 14)
    # four attacks at most (one and three bought), 3d6 + 14 - 20 = 12 at most each: 48 < 50
    out_of_reach = Scenario(Target(12, 20, boxes=50), [Attacker("Caster", [staff], focus=3, keep_points=True)])
    res = exact_result(out_of_reach)
    assert res.kill == 0.0 and res.spent_mean.sum() == 0.0
    plain = exact_result(Scenario(out_of_reach.target, [Attacker("Caster", [staff], focus=3)]))
    assert plain.spent_mean.sum() == pytest.approx(3.0, abs=TOL)
    # 24 boxes: after a poor first hit the kill is out of reach, and only the focus kept is left
    # to decide (the damage comes after it)
    reach = Scenario(Target(12, 14, boxes=24), [Attacker("Caster", [staff], focus=3, keep_points=True)])
    kept, spent = exact_result(reach), exact_result(Scenario(reach.target, [Attacker("Caster", [staff], focus=3)]))
    assert kept.kill == pytest.approx(spent.kill, abs=TOL) and kept.kill > 0.2
    assert kept.spent_mean.sum() < spent.spent_mean.sum() - 0.1
    assert kept.damage_mean < spent.damage_mean - 0.5
    assert kept.kill == pytest.approx(float(bf_lexicographic(reach)["kill"]), abs=TOL)
    assert kept.spent_mean.sum() == pytest.approx(float(bf_lexicographic(reach)["spent"]), abs=TOL)
    text = format_report(reach, kept)
    assert "focus 3 (best play, keeping points before damage)" in text


def test_how_to_play_uses_the_verbs_of_the_game():
    """A warbeast is forced, a spell cast, a ranged weapon reloaded, a warjack's attack bought
    ("How to play it"), one line per attack."""
    beast = Scenario(Target(13, 15, boxes=20), [Attacker(
        "Beast", [Weapon("Claw", "melee", 6, 14), Weapon("Bite", "melee", 6, 16)], force=2, model="warbeast")])
    caster = Scenario(Target(14, 14, boxes=5), [Attacker("Caster", [Weapon("Bolt", "arcane", 7, 12, attacks=2,
                                                                          cost=2)], focus=5)])
    gunner = Scenario(Target(13, 14, boxes=12), [Attacker("Gunner", [Weapon("Rifle", "ranged", 6, 12, reload=2)],
                                                          focus=2)])
    jack = Scenario(Target(13, 15, boxes=20), [Attacker("Jack", [FIST], focus=2)])
    for scen, verb in ((beast, "force this additional attack"), (caster, "cast it"),
                       (gunner, "reload for this attack"), (jack, "buy this attack")):
        res = mh.simulate(scen, method="exact")
        lines = play_lines(res)
        assert any(verb in line for line in lines), (verb, lines)
        numbers = [line.split(".")[0].strip() for line in lines[1:] if line.strip()[:1].isdigit()]
        assert len(numbers) == len(set(numbers)), lines  # one line per attack
        assert "buy this attack" not in "\n".join(lines) or verb == "buy this attack"


def test_a_second_weapon_s_boosts_share_the_attack_s_line():
    """A bought attack best play may make with either weapon: its line says which weapon and
    the boosts of each, never a second line under the same number."""
    scen = MC_CASES["bought attacks with a choice of weapons"]
    res = mh.simulate(scen, method="exact")
    lines = [line for line in play_lines(res) if line.strip()[:1].isdigit()]
    numbers = [line.split(".")[0].strip() for line in lines]
    assert len(numbers) == len(set(numbers)), lines
    assert any("make it with" in line for line in lines), lines


def test_made_footnote_says_what_the_column_counts():
    """The "made" footnote names what keeps an attack from being made in this scenario: a
    bought attack not bought, a shot of a random rate of fire the roll did not give."""
    volley = Scenario(Target(13, 14, boxes=12), [Attacker("Gunner", [Weapon("Gun", "ranged", 6, 12, attacks="d3")])])
    text = format_report(volley, mh.simulate(volley, method="exact"))
    assert "a shot of a random rate of fire when the roll gave it" in text.replace("\n", " ")
    jack = Scenario(Target(13, 15, boxes=20), [Attacker("Jack", [FIST], focus=2)])
    text = format_report(jack, mh.simulate(jack, method="exact"))
    assert "a bought attack when it was bought" in text.replace("\n", " ")
    assert "random rate of fire" not in text

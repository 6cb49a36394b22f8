"""Shield Guard as blocks (``guard_blocks`` on a target; docs/rules.md 9): hits of ranged
attacks the target's guards may take instead, one each, chosen by best play after the attack
roll and before the damage roll. A blocked hit counts as a hit (a critical one too) and does
nothing else.

Worked examples on chosen dice through the real kernel; the exact engine against the
brute-force oracle (tests/naive.py) to 1e-12 on every per-attack figure; Monte Carlo within
5 standard errors of exact.
"""

from __future__ import annotations

import dataclasses

import pytest

import mathhammer as mh
from mathhammer.errors import InputError
from mathhammer.io.scenario_files import loads_scenario
from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon
from agreement import every_figure_matches_oracle, monte_carlo_agrees
from scripted import play

GUN = Weapon("Rifle", "ranged", 7, 12, attacks=2)
FIXED = dict(policy="fixed", spend=Spend(boost_attack="never", boost_damage="never", buy_attacks=False))


def test_worked_example_the_first_hit_is_blocked():
    """One box, one block: any hit kills (POW 12 against ARM 10). The first shot hits (3 + 4 +
    7 = 14 against DEF 12): best play blocks it (else the target is destroyed at once); its
    damage dice are drawn and dropped, as a miss's. The second hits too (2 + 3 + 7 = 12), no
    block is left: 2 + 2 + 12 - 10 = 6, destroyed."""
    target = Target(defense=12, arm=10, boxes=1, guard_blocks=1)
    out = play(Scenario(target, [Attacker("G", [GUN], **FIXED)]), [(3, 4), (1, 1), (2, 3), (2, 2)])
    assert out.hit == [1, 1] and out.damage == [0, 1] and out.killed_by == 1
    plain = play(Scenario(dataclasses.replace(target, guard_blocks=0), [Attacker("G", [GUN], **FIXED)]),
                 [(3, 4), (1, 1), (2, 3), (2, 2)])
    assert plain.killed_by == 0  # without a block the first hit destroys it


def test_worked_example_a_miss_keeps_the_block_for_the_next_hit():
    """The first shot misses (1 + 2 + 7 = 10): the block is kept, and the second shot's hit
    (3 + 4 + 7 = 14, a critical one counts as well) is blocked: the target stands."""
    target = Target(defense=12, arm=10, boxes=1, guard_blocks=1)
    out = play(Scenario(target, [Attacker("G", [GUN], **FIXED)]), [(1, 2), (1, 1), (3, 4), (1, 1)])
    assert out.hit == [0, 1] and out.killed_by is None and out.marked == 0


def test_melee_hits_are_not_blocked():
    fist = Weapon("Fist", "melee", 7, 14, attacks=2)
    guarded = Scenario(Target(13, 14, boxes=8, guard_blocks=2), [Attacker("J", [fist], focus=1)])
    plain = Scenario(Target(13, 14, boxes=8), [Attacker("J", [fist], focus=1)])
    assert mh.simulate(guarded, method="exact").kill == pytest.approx(mh.simulate(plain, method="exact").kill,
                                                                     abs=1e-15)


def _cases():
    yield "fixed_shooter", Scenario(Target(13, 14, boxes=8, guard_blocks=1), [Attacker("G", [GUN], **FIXED)])
    yield "best_play_shooter", Scenario(Target(13, 14, boxes=8, guard_blocks=1),
                                        [Attacker("G", [dataclasses.replace(GUN, attacks=3)], focus=1)])
    yield "two_blocks_tough_focus", Scenario(
        Target(12, 13, boxes=6, guard_blocks=2, rules={"tough"}, focus=1),
        [Attacker("G", [GUN], focus=1), Attacker("H", [Weapon("Cannon", "ranged", 6, 14, rules={"critical_knockdown"})])])
    yield "reload_and_blocks", Scenario(Target(12, 14, boxes=5, guard_blocks=1),
                                        [Attacker("G", [Weapon("Gun", "ranged", 6, 13, reload=2)], focus=2)])


CASES = dict(_cases())


@pytest.mark.parametrize("name", sorted(CASES))
def test_exact_equals_the_oracle(name):
    """Every per-attack figure and the damage distribution, to 1e-12."""
    every_figure_matches_oracle(CASES[name])


@pytest.mark.parametrize("name", sorted(CASES))
def test_monte_carlo_within_five_standard_errors(name):
    monte_carlo_agrees(CASES[name], seed=13, per_attack=("hit",))


def test_blocks_change_the_figures_and_more_block_more():
    kills = [mh.simulate(dataclasses.replace(CASES["best_play_shooter"],
                                             target=Target(13, 14, boxes=8, guard_blocks=b)), method="exact").kill
             for b in (0, 1, 2)]
    assert kills[0] > kills[1] > kills[2]


@pytest.mark.parametrize("change, words", [
    (dict(target=Target(13, 14, boxes=2, models=3, guard_blocks=1)), "one target of one model"),
    (dict(turns=2), "over one round"),
    (dict(target=[Target(13, 14, boxes=8, name="A", guard_blocks=1), Target(13, 14, boxes=8, name="B")]),
     "one target"),
    (dict(attackers=[Attacker("G", [Weapon("Claws", "ranged", 7, 12, rules={"shred"})])]), "without Shred"),
])
def test_beyond_the_model_is_refused_in_one_line(change, words):
    base = dict(target=Target(13, 14, boxes=8, guard_blocks=1), attackers=[Attacker("G", [GUN])])
    base.update(change)
    with pytest.raises(InputError, match=rf"^target\.guard_blocks: is modelled for .*{words}.* \(got 1\)$"):
        Scenario(**base)


def test_guard_blocks_from_a_file():
    scen = loads_scenario("""
[target]
def = 13
arm = 14
boxes = 8
guard_blocks = 2
[[attackers]]
name = "G"
[[attackers.weapons]]
name = "Rifle"
type = "ranged"
skill = 7
pow = 12
""")
    assert scen.target.guard_blocks == 2
    with pytest.raises(InputError, match=r"guard_blocks: must be between 0 and 10 \(got 11\)"):
        Target(13, 14, guard_blocks=11)


def test_how_to_play_it_says_when_the_target_blocks():
    """One box, one block, two shots that each destroy it: best play blocks the first hit,
    and the second's if the first missed; "how to play it" says so for both, from either
    method."""
    scen = Scenario(Target(defense=12, arm=10, boxes=1, guard_blocks=1), [Attacker("G", [GUN])])
    for res in (mh.simulate(scen, method="exact"), mh.simulate(scen, trials=20_000, seed=1)):
        rows = [(d.attack, d.who, d.decision, d.condition) for d in res.play.decisions if d.kind == "block"]
        assert rows == [("G / Rifle #1", "Target", "block the hit with Shield Guard", "always"),
                        ("G / Rifle #2", "Target", "block the hit with Shield Guard", "always")]

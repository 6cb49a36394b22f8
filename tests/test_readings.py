"""The ``[settings]`` for the open readings (issue 17; docs/rules.md, "Readings"): where this
project and the ChanceMachine calculator read a rule differently, both readings are here,
ours the default (all ``false``).

- ``knockdown_before_tough``: a knockdown landing with the disabling hit already stops that
  hit's Tough roll (ChanceMachine's technical documentation: the hit's persistent effects
  are applied before the damage branches, "the same one a Knockdown-and-lethal-damage-in-
  one-attack scenario already relies on");
- ``crit_counts_discarded``: a critical hit counts the dice discarded from the roll
  (``hasDouble``: "at least two rolled dice (before discard ...) show the same face");
- ``arm_minus_stacks_same_weapon``: a weapon's -X ARM lands again with each hit ("-X ARM
  ... stackable with other instances of this effect");
- ``dispel_from_next_attack``: Dispel ends upkeep spells from the next attack on ("never
  the attack that triggered it");
- ``single_die_one_misses``: one kept die showing 1 misses ("A to-hit roll where every die
  shows 1 is always a miss", where "every one showing 6 is always a hit (unless only one
  die is kept)").

Each: a worked example on chosen dice through the real kernel, both ways; cases written from
that documentation checked on the exact engine with the setting on; the exact engine against
the brute-force oracle and Monte Carlo against exact with the setting on.
"""

from __future__ import annotations

import dataclasses

import pytest

from mathhammer import simulate
from mathhammer.exact import rolls
from mathhammer.io.scenario_files import loads_scenario
from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon
from agreement import exact_matches_oracle, monte_carlo_agrees, small_file
from scripted import play

FIXED = dict(policy="fixed", spend=Spend(boost_attack="never", boost_damage="never"))


def _scen(weapon, target, **settings):
    return Scenario(target, [Attacker("A", [weapon], **FIXED)], **settings)


# ------------------------------------------------------------------ worked examples, both ways
def test_worked_example_knockdown_before_tough():
    """A Tough target is disabled by a hit that knocks it down: by default it makes its
    Tough roll (a 5 saves it, knocked down, one box left); with knockdown_before_tough the
    hit's knockdown already stops the roll and it is destroyed."""
    w = Weapon("Slam", "melee", 6, 14, rules={"knockdown"})
    t = Target(defense=10, arm=14, boxes=5, rules={"tough"})
    dice = [(4, 5), (3, 3), (5, 5)]  # hit; 6 + 14 - 14 = 6 points: disabled; the Tough d6: 5
    ours = play(_scen(w, t), dice)
    theirs = play(_scen(w, t, knockdown_before_tough=True), dice)
    assert ours.tough[:1] == [1] and ours.killed_by is None
    assert theirs.tough[:1] == [0] and theirs.killed_by == 0


def test_worked_example_crit_counts_discarded():
    """Three dice, the highest discarded: 6, 6, 2 keeps 6 + 2. By default the kept dice show
    no double: a plain hit; counting the discarded die, 6-6 is a double: a critical hit."""
    w = Weapon("Gun", "ranged", 6, 10, extra_attack_dice=1, attack_discard="highest")
    t = Target(defense=12, arm=20, boxes=5)
    dice = [(6, 6, 2, 1), (1, 1)]
    assert play(_scen(w, t), dice).crit[:1] == [0]
    assert play(_scen(w, t, crit_counts_discarded=True), dice).crit[:1] == [1]


def test_worked_example_dispel_from_next_attack():
    """The dispelling hit's own damage roll: by default against ARM 14 (the upkeep +3 is
    gone at once), with dispel_from_next_attack against 17; the next attack meets 14 either
    way."""
    w = Weapon("Null", "melee", 6, 12, attacks=2, rules={"dispel"})
    t = Target(defense=10, arm=14, boxes=30, upkeep_arm=3)
    dice = [(4, 4), (5, 5), (4, 4), (5, 5)]
    assert play(_scen(w, t), dice).damage[:2] == [10 + 12 - 14, 10 + 12 - 14]
    assert play(_scen(w, t, dispel_from_next_attack=True), dice).damage[:2] == [10 + 12 - 17, 10 + 12 - 14]


def test_worked_example_arm_minus_stacks_same_weapon():
    """A weapon with -2 ARM hits three times: by default its effect lands once (the second
    and third damage rolls face ARM 14 - 2 = 12); with arm_minus_stacks_same_weapon each hit
    lands it again (ARM 12, then 10)."""
    w = Weapon("Acid", "melee", 6, 10, attacks=3, arm_minus=2)
    t = Target(defense=10, arm=14, boxes=30)
    dice = [(4, 4), (5, 5), (4, 4), (5, 5), (4, 4), (5, 5)]
    assert play(_scen(w, t), dice).damage[:3] == [6, 8, 8]
    assert play(_scen(w, t, arm_minus_stacks_same_weapon=True), dice).damage[:3] == [6, 8, 10]


def test_worked_example_single_die_one_misses():
    """One attack die (a crippled system) showing 1, with RAT 10 against DEF 8: 1 + 10 = 11
    hits by default (an automatic miss needs two or more dice); with single_die_one_misses it
    misses."""
    w = Weapon("Gun", "ranged", 10, 10, crippled=True)
    t = Target(defense=8, arm=20, boxes=5)
    dice = [(1, 1), (1, 1)]
    assert play(_scen(w, t), dice).hit[:1] == [1]
    assert play(_scen(w, t, single_die_one_misses=True), dice).hit[:1] == [0]


# ------------------------------------------------------------------ the other calculator's cases
def test_their_documented_cases_hold_with_the_settings():
    """Written from the ChanceMachine documentation: with the readings set their way,
    (a) a lone die showing 1 always misses, but a lone 6 gets no bonus (need 8 on one die
    misses with a 6); (b) a double among dice discarded still makes a critical hit; (c)
    Jump the Shark: 2d6 sums 12 in 4 of 36 rolls, always a double; (d) Sanguine Fate raises
    the chance of a critical hit but not of a hit."""
    one_die_miss = rolls.attack_roll(1, "none", -5, False, one_misses=True)[0]
    assert one_die_miss == pytest.approx(1 / 6)  # (a): only the 1, whatever the need
    assert rolls.attack_roll(1, "none", 8, False, one_misses=True)[0] == pytest.approx(1.0)
    # (b): 3 dice, discard the highest: a crit wherever any two dice match, among those hitting
    _, _, crit_ours = rolls.attack_roll(3, "highest", 0, False)
    _, _, crit_theirs = rolls.attack_roll(3, "highest", 0, False, crit_all=True)
    assert crit_theirs > crit_ours
    # every roll with a pair (216 - 6*5*4 = 96) but those whose kept dice are 1-1, a miss (16:
    # two or three ones)
    assert crit_theirs == pytest.approx((216 - 120 - 16) / 216)
    # (c)
    kept, counts = rolls.kept_sum_counts(2, "none", True)
    assert counts[12] == 4 and sum(counts) == 36
    # (d): need 7 on 2d6
    plain = rolls.attack_roll(2, "none", 7, False)
    fate = rolls.attack_roll(2, "none", 7, False, sanguine=True)
    assert fate[0] == pytest.approx(plain[0])
    assert fate[2] > plain[2]


# ------------------------------------------------------------------ exact = oracle, MC = exact
def _cases():
    t = Target(defense=12, arm=14, boxes=3, rules={"tough"}, upkeep_arm=2)
    yield "knockdown_before_tough", Scenario(t, [Attacker("A", [Weapon("Slam", "melee", 6, 12, attacks=2,
                                                                       rules={"critical_knockdown"})], focus=1)],
                                             knockdown_before_tough=True)
    yield "crit_counts_discarded", Scenario(t, [Attacker("A", [Weapon("Gun", "ranged", 6, 12, attacks=2,
                                                                      attack_discard="lowest",
                                                                      extra_attack_dice=1,
                                                                      rules={"critical_knockdown"})])],
                                            crit_counts_discarded=True)
    yield "arm_minus_stacks_same_weapon", Scenario(t, [Attacker("A", [Weapon("Acid", "melee", 6, 11, attacks=3,
                                                                             arm_minus=2)], focus=1)],
                                                   arm_minus_stacks_same_weapon=True)
    yield "dispel_from_next_attack", Scenario(t, [Attacker("A", [Weapon("Null", "melee", 6, 12, attacks=2,
                                                                        rules={"dispel"})], focus=1)],
                                              dispel_from_next_attack=True)
    yield "single_die_one_misses", Scenario(t, [Attacker("A", [Weapon("Gun", "ranged", 8, 12, attacks=2,
                                                                      crippled=True)], focus=1)],
                                            single_die_one_misses=True)


CASES = dict(_cases())


@pytest.mark.parametrize("name", sorted(CASES))
def test_exact_equals_the_oracle_with_the_setting(name):
    exact_matches_oracle(CASES[name])


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_setting_changes_the_figures(name):
    scen = CASES[name]
    default = dataclasses.replace(scen, **{name: False})
    assert simulate(scen, method="exact").kill != pytest.approx(simulate(default, method="exact").kill, abs=1e-9)


@pytest.mark.parametrize("name", sorted(CASES))
def test_monte_carlo_within_five_standard_errors_with_the_setting(name):
    scen = CASES[name]
    monte_carlo_agrees(dataclasses.replace(scen, target=dataclasses.replace(scen.target, boxes=12)), seed=5)


def test_the_settings_read_from_a_file():
    text = small_file(settings="\n".join(f"{key} = true" for key in (
        "arm_minus_stacks_same_weapon", "knockdown_before_tough", "crit_counts_discarded",
        "dispel_from_next_attack", "single_die_one_misses")))
    s = loads_scenario(text)
    assert (s.knockdown_before_tough, s.crit_counts_discarded, s.dispel_from_next_attack,
            s.single_die_one_misses, s.arm_minus_stacks_same_weapon) == (True, True, True, True, True)

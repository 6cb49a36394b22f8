"""Power attacks (issue 17; docs/rules.md 5, "Power attacks"): a head-butt and a slam.

A hit knocks the target down, then the power attack damage roll follows (so a Tough roll
cannot save it from that roll); a slam at a larger base is at -2 to hit and rolls one more
damage die when the slammed model is stopped by contact; the power attack is the whole combat
action (the other weapons make no initial attacks), costs a warjack 1 focus, and additional
attacks may be bought after it.

Worked examples on chosen dice through the real kernel; the exact engine against the
brute-force oracle (tests/naive.py); Monte Carlo against exact within 5 standard errors.
"""

from __future__ import annotations

import pytest

from mathhammer import simulate
from mathhammer.errors import InputError
from mathhammer.io.dump import scenario_to_dict
from mathhammer.io.scenario_files import loads_scenario, scenario_from_dict
from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon
from agreement import monte_carlo_agrees
from naive import bf_activation
from scripted import play

NEVER = Spend(boost_attack="never", boost_damage="never", buy_attacks=False)


def _headbutt(skill=6, pow_=14, **kw):
    return Weapon("Head-butt", "melee", skill, pow_, power_attack="headbutt", **kw)


def _slam(skill=6, pow_=14, **kw):
    return Weapon("Slam", "melee", skill, pow_, power_attack="slam", **kw)


FIST = Weapon("Fist", "melee", 6, 17, attacks=2)


def _jack(power, focus=1, **kw):
    kw.setdefault("base", "large")
    return Attacker("Jack", [power, FIST], focus=focus, **kw)


# ------------------------------------------------------------------ worked examples
def test_worked_example_headbutt_knocks_down_before_its_damage_so_tough_cannot_save():
    """Head-butt: MAT 6, 4 + 4 = 14 hits DEF 12; the target is knocked down, then the POW 14
    damage roll 6 + 5 - 16 + 14 = 9 disables its 5 boxes. Knocked down, it makes no Tough
    roll: destroyed, with no die read for Tough. The same roll with a plain weapon that
    knocks down (the default reading) lets it roll for Tough, and a 5 saves it."""
    t = Target(defense=12, arm=16, boxes=5, rules={"tough"})
    dice = [(4, 4), (6, 5), (5, 5)]
    out = play(Scenario(t, [_jack(_headbutt(), policy="fixed", spend=NEVER)]), dice)
    assert out.hit == [1] and out.damage == [5] and out.tough == [0] and out.killed_by == 0
    assert out.rolls_read == 2
    plain = Weapon("Maul", "melee", 6, 14, rules={"knockdown"})
    other = play(Scenario(t, [Attacker("Jack", [plain], policy="fixed", spend=NEVER)]), dice)
    assert other.tough == [1] and other.killed_by is None


def test_worked_example_the_power_attack_is_the_combat_action_and_attacks_are_bought_after():
    """Focus 3: the head-butt costs 1, the fists make no initial attacks, and the two focus
    left buy two Fist attacks. The head-butt hits (4 + 4 + 6) and deals 1 + 2 + 14 - 16 = 1;
    the fists hit the knocked-down target automatically (no attack roll read: only their
    damage rolls, 3 + 3 + 17 - 16 = 7 and 2 + 1 + 17 - 16 = 4)."""
    t = Target(defense=12, arm=16, boxes=30)
    spend = Spend(boost_attack="never", boost_damage="never", buy_attacks=True)
    scen = Scenario(t, [_jack(_headbutt(), focus=3, policy="fixed", spend=spend)])
    assert [s.label for s in scen.attack_sequence()] == [
        "Jack / Head-butt #1", "Jack / Fist bought #1", "Jack / Fist bought #2"]
    out = play(scen, [(4, 4), (1, 2), (3, 3), (2, 1)])
    assert out.made == [1, 1, 1] and out.spent == [0, 1, 1]
    assert out.damage == [1, 7, 4] and out.rolls_read == 4


def test_worked_example_a_missed_headbutt_knocks_nothing_down():
    """2 + 1 + 6 = 9 misses DEF 12: no knockdown, no damage (the miss's damage dice are
    drawn and dropped); the bought Fist attack rolls to hit (3 + 3 + 6 = 12 hits) and
    damages as usual."""
    t = Target(defense=12, arm=16, boxes=30)
    spend = Spend(boost_attack="never", boost_damage="never", buy_attacks=True)
    out = play(Scenario(t, [_jack(_headbutt(), focus=2, policy="fixed", spend=spend)]),
               [(2, 1),
                (1, 1),  # the miss's damage roll, drawn and dropped
                (3, 3), (4, 4)])
    assert out.hit == [0, 1] and out.damage == [0, 4 + 4 + 17 - 16] and out.rolls_read == 4


def test_worked_example_slam_at_a_larger_base_is_at_minus_two():
    """A large-based jack slams a huge base: 3 + 4 + 6 - 2 = 11 misses DEF 12 (13 would
    have hit); against a large base the same roll hits."""
    dice = [(3, 4), (6, 6)]
    huge = play(Scenario(Target(defense=12, arm=16, boxes=30, base="huge"),
                         [_jack(_slam(), policy="fixed", spend=NEVER)]), dice)
    large = play(Scenario(Target(defense=12, arm=16, boxes=30, base="large"),
                          [_jack(_slam(), policy="fixed", spend=NEVER)]), dice)
    assert huge.hit == [0] and large.hit == [1] and large.damage == [6 + 6 + 14 - 16]
    assert huge.rolls_read == 2  # the miss draws its damage roll, the (6, 6), and drops it


def test_worked_example_slam_stopped_by_contact_rolls_an_additional_die():
    """slam_contact: the damage roll has three dice, 4 + 4 + 3 + 14 - 16 = 9."""
    out = play(Scenario(Target(defense=12, arm=16, boxes=30),
                        [_jack(_slam(slam_contact=True), policy="fixed", spend=NEVER)]),
               [(5, 5), (4, 4, 3)])
    assert out.damage == [9]


def test_worked_example_other_models_pay_nothing():
    """A model that is neither a warjack nor a warbeast (a special rule gives it the power
    attack) pays no point: its one focus stays for a boost."""
    a = Attacker("Ogrun", [_headbutt(), FIST], focus=1, model="other", base="medium")
    assert a.points == 1 and _jack(_headbutt()).points == 0


# ------------------------------------------------------------------ exact engine, oracle, Monte Carlo
SCENARIOS = {
    "head-butt, Tough, best play": Scenario(Target(defense=12, arm=17, boxes=12, rules={"tough"}),
                                            [_jack(_headbutt(), focus=3)]),
    "slam at a larger base, contact": Scenario(Target(defense=11, arm=16, boxes=10, base="huge"),
                                               [_jack(_slam(slam_contact=True), focus=2)]),
    "head-butt, fixed policy, a grid": Scenario(
        Target(defense=12, arm=16, grid=["L.", "..M", "HC", "C.", ".RM", "R."]),
        [_jack(_headbutt(pow_=15), focus=2, policy="fixed",
               spend=Spend(boost_attack="never", boost_damage="always", buy_attacks=True))]),
    "warbeast forced, two rounds": Scenario(Target(defense=13, arm=15, boxes=8, rules={"tough"}),
                                            [Attacker("Beast", [_slam(), FIST], force=2, model="warbeast",
                                                      base="large")], turns=2),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_exact_equals_brute_force(name):
    scen = SCENARIOS[name]
    want = bf_activation(scen)
    ex = simulate(scen, method="exact")
    assert ex.kill == pytest.approx(float(want["kill"]), abs=1e-12)
    for got, key in ((ex.made, "made"), (ex.hit, "hit"), (ex.attack_damage_mean, "dmg"),
                     (ex.spent_mean, "spent")):
        assert list(got) == pytest.approx([float(x) for x in want[key]], abs=1e-12), key
    assert list(ex.damage_pmf) == pytest.approx([float(p) for p in want["damage"]], abs=1e-12)


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_monte_carlo_agrees_with_exact(name):
    monte_carlo_agrees(SCENARIOS[name], seed=1700 + list(SCENARIOS).index(name), per_attack=("made", "hit"))


def test_monte_carlo_agrees_against_several_targets():
    """A slam into the first of two targets, the bought attacks going on down the list."""
    a = _jack(_slam(), focus=3)
    scen = Scenario([Target(defense=12, arm=15, boxes=6, name="A", base="large"),
                     Target(defense=13, arm=14, boxes=5, name="B", base="large")], [a])
    monte_carlo_agrees(scen, seed=1717, per_attack=("made", "hit"))


def test_headbutt_kill_is_the_disabling_chance_tough_never_saves():
    """Exact, closed form: one head-butt against a Tough model kills whenever it disables
    (knocked down first, no Tough roll); the same attack with a weapon that knocks down
    kills two times in three of those (Tough saves on 5 or 6, the default reading)."""
    t = Target(defense=13, arm=17, boxes=8, rules={"tough"})
    head = simulate(Scenario(t, [Attacker("Jack", [_headbutt(pow_=14)], focus=1, base="large")]),
                    method="exact")
    maul = Weapon("Maul", "melee", 6, 14, rules={"knockdown"})
    plain = simulate(Scenario(t, [Attacker("Jack", [maul], policy="fixed", spend=NEVER)]), method="exact")
    # P(hit) * P(2d6 + 14 - 17 >= 8), and with Tough two thirds of it
    hit = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b + 6 >= 13 and (a, b) != (1, 1)) / 36
    disable = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b - 3 >= 8) / 36
    assert head.kill == pytest.approx(hit * disable, abs=1e-12)
    assert plain.kill == pytest.approx(hit * disable * 2 / 3, abs=1e-12)


# ------------------------------------------------------------------ files and errors
def test_scenario_file_round_trip():
    text = """
[target]
def = 12
arm = 18
base = "huge"

[[attackers]]
name = "Jack"
focus = 2
base = "large"
[[attackers.weapons]]
name = "Slam"
type = "melee"
skill = 6
pow = 14
power_attack = "slam"
slam_contact = true
[[attackers.weapons]]
name = "Fist"
type = "melee"
skill = 6
pow = 17
"""
    scen = loads_scenario(text)
    w = scen.attackers[0].weapons[0]
    assert (w.power_attack, w.slam_contact, scen.attackers[0].base) == ("slam", True, "large")
    assert scen.attack_sequence()[0].attack_mod == -2
    assert scenario_from_dict(scenario_to_dict(scen)) == scen


@pytest.mark.parametrize("build, key", [
    (lambda: _headbutt(rules={"trash"}), "rules"),
    (lambda: _headbutt(attacks=2), "attacks"),
    (lambda: Weapon("Head-butt", "melee", 6, None, power_attack="headbutt"), "pow"),
    (lambda: Weapon("Kick", "ranged", 6, 12, power_attack="slam"), "power_attack"),
    (lambda: _headbutt(location="H"), "location"),
    (lambda: _headbutt(slam_contact=True), "slam_contact"),
    (lambda: Weapon("Fist", "melee", 6, 12, slam_contact=True), "slam_contact"),
    (lambda: Weapon("Fist", "melee", 6, 12, power_attack="throw"), "power_attack"),
    (lambda: Attacker("Jack", [_headbutt(), FIST], focus=1), "base"),
    (lambda: Attacker("Jack", [_headbutt(), FIST], focus=0, base="large"), "weapons"),
    (lambda: Attacker("Jack", [_headbutt(), _slam()], focus=2, base="large"), "weapons"),
    (lambda: Attacker("Jack", [_headbutt(), FIST], focus=2, base="large", charge=True), "charge"),
    (lambda: Attacker("Beast", [_headbutt(), FIST], force=2, base="large", model="warbeast",
                      crippled={"M"}), "crippled"),
    (lambda: Attacker("Jack", [_slam(), FIST], focus=2, base="large", crippled={"M"}), "crippled"),
    (lambda: Attacker("Jack", [_headbutt(), FIST], focus=2, base="large", buy_weapon="Head-butt"),
     "buy_weapon"),
    (lambda: Attacker("Jack", [_headbutt(), FIST], focus=2, base="giant"), "base"),
    (lambda: Scenario(Target(12, 16, base="huge"), [_jack(_headbutt())]),
     "attackers[0].weapons[0].power_attack"),
    (lambda: Scenario([Target(12, 16, name="A", base="huge"), Target(12, 16, name="B", base="small")],
                      [_jack(_slam())]), "attackers[0].weapons[0].power_attack"),
])
def test_what_a_power_attack_cannot_be_is_refused_in_one_line(build, key):
    with pytest.raises(InputError) as err:
        build()
    assert err.value.key == key
    assert "\n" not in str(err.value)


def test_the_format_doc_example_reads_and_runs():
    """docs/scenario-format.md, "Power attacks": the example file reads, and the slam with
    its bought fists runs (exact equals Monte Carlo within 5 standard errors)."""
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[1] / "docs" / "scenario-format.md").read_text()
    text = doc.split("### Power attacks", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    scen = loads_scenario(text)
    assert [s.label for s in scen.attack_sequence()][:2] == ["Slamming jack / Slam #1",
                                                             "Slamming jack / Fist bought #1"]
    assert scen.attack_sequence()[0].attack_mod == 0 and scen.attackers[0].points == 2


# ------------------------------------------------------------------ collateral damage (several targets)
def _pair(b_box=5, b_base="medium", b_rules=frozenset(), slam=None, focus=1, b_def=12, others=()):
    slam = slam or _slam(collateral="B", targets=("A",))
    return Scenario([Target(defense=12, arm=16, boxes=30, name="A", base="large"),
                     Target(defense=b_def, arm=14, boxes=b_box, name="B", base=b_base, rules=set(b_rules))],
                    [Attacker("Jack", [slam], focus=focus, base="large"), *others])


def test_worked_example_collateral_damage_knocks_down_then_damages_the_contacted_model():
    """The slam hits A (5 + 5 + 6 = 16 against DEF 12) and deals 3 + 3 + 14 - 16 = 4; the
    medium-based B it is slammed into is knocked down and suffers a collateral damage roll,
    4 + 2 + 14 - 14 = 6: its 5 boxes are gone, and knocked down it makes no Tough roll."""
    scen = _pair(b_rules={"tough"})
    assert [s.label for s in scen.attack_sequence()] == ["Jack / Slam #1", "Jack / Slam collateral (B)"]
    out = play(scen, [(5, 5), (3, 3), (4, 2), (5, 5)])
    assert out.target_marked == [4, 5] and out.target_destroyed == [0, 1]
    assert out.made == [1, 1] and out.tough == [0, 0] and out.rolls_read == 3


def test_worked_example_a_missed_slam_has_no_collateral_damage():
    """1 + 2 + 6 = 9 misses: no damage (the miss's damage dice are drawn and dropped), and
    the collateral roll is not made."""
    out = play(_pair(), [(1, 2),
                         (1, 1),  # the miss's damage roll, drawn and dropped
                         (6, 6), (6, 6)])
    assert out.made == [1, 0] and out.target_marked == [0, 0] and out.rolls_read == 2


def _sum2(f):
    return sum(f(a + b) for a in range(1, 7) for b in range(1, 7)) / 36


def test_collateral_kill_is_the_slam_hit_times_the_collateral_roll():
    """Closed form: B (5 boxes, ARM 14, Tough) is destroyed when the slam hits (MAT 6 vs
    DEF 12: 2d6 >= 6, not 1-1) and the collateral roll 2d6 + 14 - 14 reaches 5; Tough never
    saves it (knocked down first). Monte Carlo within 5 standard errors."""
    p_hit = _sum2(lambda s: s >= 6)  # 1-1 (2) is below 6 anyway
    p = p_hit * _sum2(lambda s: s >= 5)
    n = 200_000
    got = simulate(_pair(b_rules={"tough"}), trials=n, seed=1718).target_figures("B")["kill"]
    assert abs(got - p) <= 5 * (p * (1 - p) / n) ** 0.5


def test_the_knocked_down_collateral_target_is_hit_automatically_in_melee():
    """Closed form: B has DEF 25 and boxes enough never to be destroyed; a second attacker's
    fist (POW 16 against ARM 14) hits it automatically when the slam knocked it down,
    otherwise only on 6-6. B's expected damage: P(slam hits) x E[collateral] +
    (P(hit) + P(miss) / 36) x E[fist]."""
    fist = Attacker("Brute", [Weapon("Fist", "melee", 6, 16, targets=("B",))], model="other")
    scen = _pair(b_box=60, b_def=25, others=(fist,))
    p_hit = _sum2(lambda s: s >= 6)
    coll = _sum2(lambda s: max(0, s + 14 - 14))
    punch = _sum2(lambda s: max(0, s + 16 - 14))
    want = p_hit * coll + (p_hit + (1 - p_hit) / 36) * punch
    n = 200_000
    fig = simulate(scen, trials=n, seed=1719).target_figures("B")
    sd = 6.0  # a bound on the standard deviation of B's damage (both rolls: at most 2d6 + 2 each)
    assert abs(fig["damage_mean"] - want) <= 5 * sd / n ** 0.5


def test_collateral_is_monte_carlo_only_and_best_play_falls_back():
    from mathhammer.errors import ExactNotApplicable
    scen = _pair(focus=3)
    with pytest.raises(ExactNotApplicable, match="collateral damage roll damages a target other"):
        simulate(scen, method="exact")
    res = simulate(scen, trials=5_000, seed=1)
    assert res.play.solved_on.startswith("not solved: Jack / Slam collateral (B)")


@pytest.mark.parametrize("build, key, words", [
    (lambda: _pair(slam=_slam(collateral="C", targets=("A",))), "collateral", "names no target"),
    (lambda: _pair(slam=_slam(collateral="B")), "collateral", "goes to one target"),
    (lambda: _pair(slam=_slam(collateral="A", targets=("A",))), "collateral", "slammed target itself"),
    (lambda: _pair(b_base="huge"), "collateral", "suffers no collateral damage"),
    (lambda: _pair(b_base="large"), "collateral", "give slam_contact = true"),
    (lambda: _headbutt(collateral="B"), "collateral", "is for a slam"),
    (lambda: Weapon("Fist", "melee", 6, 12, collateral="B"), "collateral", "is for a slam"),
])
def test_bad_collateral_is_refused_in_one_line(build, key, words):
    with pytest.raises(InputError) as err:
        build()
    assert err.value.key.endswith(key) and words in str(err.value) and "\n" not in str(err.value)


def test_an_equal_base_takes_collateral_damage_and_stops_the_slam():
    scen = _pair(b_base="large", slam=_slam(collateral="B", targets=("A",), slam_contact=True))
    assert [s.weapon.base_damage_dice for s in scen.attack_sequence()] == [3, 2]


def test_collateral_round_trips_through_a_scenario_file():
    scen = _pair()
    assert scen.attackers[0].weapons[0].collateral == "B"
    assert scenario_from_dict(scenario_to_dict(scen)) == scen


# ------------------------------------------------------------------ cards: a power attack as the action
def test_a_card_makes_its_power_attack_as_an_action():
    """heavy_warjack:slam: the slam, then the fists' bought attacks; the attacker has the
    card's large base. The default action leaves the power attacks out."""
    from mathhammer.cards import scenario_from_cards
    scen = scenario_from_cards(["heavy_warjack:slam"], "heavy_warbeast", trials=1000, seed=1)
    a = scen.attackers[0]
    assert a.base == "large" and a.power_weapon.name == "Slam" and a.points == 2
    # best play chooses the fist of each bought attack
    assert [s.label for s in scen.attack_sequence()][:2] == ["Heavy warjack / Slam #1",
                                                             "Heavy warjack / bought #1"]
    plain = scenario_from_cards(["heavy_warjack"], "heavy_warbeast").attackers[0]
    assert [w.name for w in plain.weapons] == ["Left fist", "Right fist"] and plain.power_weapon is None


def test_a_card_without_that_power_attack_is_refused_in_one_line():
    from mathhammer.cards import scenario_from_cards
    with pytest.raises(InputError) as err:
        scenario_from_cards(["solo:slam"], "heavy_warjack")
    assert "has no slam power attack" in str(err.value) and "\n" not in str(err.value)


def test_the_point_paid_for_the_power_attack_is_reported_as_spent():
    """Exact and Monte Carlo: a warjack with 1 focus head-butts: the point it paid shows in
    the power attack's spent (it is always made), and in the attacker's total; a second
    warjack making it only while the target stands pays only then."""
    t = Target(defense=12, arm=14, boxes=3)
    first = Attacker("Jack", [_headbutt(pow_=16)], focus=1, base="large")
    second = Attacker("Jack 2", [_headbutt(pow_=16)], focus=1, base="large")
    scen = Scenario(t, [first, second])
    ex = simulate(scen, method="exact")
    assert ex.spent_mean[0] == pytest.approx(1.0, abs=1e-12)
    assert ex.spent_mean[1] == pytest.approx(ex.made[1], abs=1e-12) and ex.made[1] < 1
    assert ex.spent_by_attacker == pytest.approx({"Jack": 1.0, "Jack 2": ex.made[1]}, abs=1e-12)
    mc = simulate(scen, trials=50_000, seed=3)
    assert mc.spent_mean[0] == 1.0 and mc.spent_mean[1] == pytest.approx(mc.made[1], abs=1e-12)

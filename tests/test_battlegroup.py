"""Battlegroups in a scenario (docs/rules.md 9, "Focus allocation"; docs/scenario-format.md,
"Battlegroups"): the controller's pool, the checks that name the key, the file round trip."""

from __future__ import annotations

import pytest

from mathhammer.errors import InputError
from mathhammer.io.dump import scenario_to_dict
from mathhammer.io.scenario_files import loads_scenario, scenario_from_dict
from mathhammer.rules import Attacker, Scenario, Target, Weapon
from mathhammer.rules.battlegroup import ALLOCATION_LIMIT, battlegroups
from mathhammer.rules.trade import TradeModel

FIST = [Weapon("Fist", "melee", 6, 16, attacks=2)]
STAFF = [Weapon("Staff", "melee", 7, 14)]


def _group(caster_focus=1, jacks=(3, 3), **caster):
    names = [f"Jack {chr(65 + k)}" for k in range(len(jacks))]
    kwargs = {"focus": caster_focus, "model": "other", "controls": names, **caster}
    return [Attacker("Caster", STAFF, **kwargs)] + [Attacker(n, FIST, focus=f) for n, f in zip(names, jacks)]


def test_the_pool_is_what_the_controller_keeps_and_what_it_allocates():
    """Allocation: the controller keeps what it does not allocate, so the pool of the file's
    own plan is the controller's focus plus its warjacks' (1 + 3 + 2 = 6)."""
    group, = battlegroups(_group(1, (3, 2)))
    assert (group.controller, group.jacks, group.pool) == (0, (1, 2), 6)
    scen = Scenario(Target(12, 18, boxes=34), _group(1, (3, 2)))
    assert [a.focus for a in scen.attackers] == [1, 3, 2]  # each spends its own, as written


@pytest.mark.parametrize("attackers, key, value", [
    (_group(1, (4, 2)), "attackers[1].focus", 4),
    (_group(0, (0, 0)), "attackers[0].focus", 0),
    (_group(1, (3,), controls=["Jack A", "Nobody"]), "attackers[0].controls[1]", "Nobody"),
    (_group(1, (3,), controls=["Caster"]), "attackers[0].controls[0]", "Caster"),
    (_group(1, (3,), model="warjack"), "attackers[0].controls", ["Jack A"]),
    (_group(0, (3,), fury=3), "attackers[0].controls[0]", "Jack A"),  # a warlock's are warbeasts
])
def test_a_bad_battlegroup_is_one_line_naming_the_key(attackers, key, value):
    with pytest.raises(InputError) as info:
        Scenario(Target(12, 18, boxes=34), attackers)
    assert info.value.key == key and info.value.value == value
    assert "\n" not in str(info.value)


def test_a_warjack_with_focus_and_no_controller_is_refused():
    """With a warcaster's battlegroup in the scenario, a warjack outside it has no controller to
    allocate it focus: its focus is refused in one line naming the key (with none, it may
    keep 0)."""
    fist = [Weapon("Fist", "melee", 6, 16)]
    with pytest.raises(InputError) as info:
        Scenario(Target(12, 18, boxes=34), _group(1, (3,)) + [Attacker("Stray", fist, focus=2)])
    assert (info.value.key, info.value.value) == ("attackers[2].focus", 2) and "no controller" in str(info.value)
    Scenario(Target(12, 18, boxes=34), _group(1, (3,)) + [Attacker("Stray", fist, focus=0)])


def test_a_warbeast_or_a_warjack_in_two_battlegroups_is_refused():
    beast = Attacker("Beast", FIST, fury=3, model="warbeast")
    with pytest.raises(InputError, match=r"^attackers\[0\]\.controls\[0\]: .*warjacks; 'Beast' is model = 'warbeast'"):
        Scenario(Target(12, 18, boxes=34), [Attacker("Caster", STAFF, focus=2, model="other", controls=["Beast"]),
                                            beast])
    two = [Attacker("One", STAFF, focus=2, model="other", controls=["Jack"]),
           Attacker("Two", STAFF, focus=2, model="other", controls=["Jack"]), Attacker("Jack", FIST, focus=1)]
    with pytest.raises(InputError, match=r"^attackers\[1\]\.controls\[0\]: is in the battlegroup of 'One' already"):
        Scenario(Target(12, 18, boxes=34), two)
    assert ALLOCATION_LIMIT == 3


def test_a_battlegroup_round_trips_through_the_writer(tmp_path):
    scen = Scenario(Target(12, 18, boxes=34), _group(1, (3, 3)), trials=1000, seed=1)
    data = scenario_to_dict(scen)
    assert data["attackers"][0]["controls"] == ["Jack A", "Jack B"]
    assert scenario_from_dict(data) == scen


def test_a_bad_battlegroup_in_a_file_names_the_key():
    text = """
[target]
card = "heavy_warjack"

[[attackers]]
card = "warcaster"
controls = ["Jack A"]

[[attackers]]
card = "heavy_warjack"
name = "Jack A"
focus = 5
"""
    with pytest.raises(InputError, match=r"^bg\.toml: attackers\[1\]\.focus: .* at most 3 .*\(got 5\)$"):
        loads_scenario(text, "bg.toml")


def test_a_trade_model_has_no_battlegroup():
    with pytest.raises(InputError, match=r"^attacker\.controls: .*not in a trade"):
        TradeModel(Attacker("Caster", STAFF, focus=3, model="other", controls=["Jack"]), Target(15, 16, boxes=18),
                   ["X"])


def test_a_warlock_s_battlegroup_allocates_nothing():
    """Warlocks and warbeasts (docs/rules.md 9): a warbeast's fury is its own; the
    battlegroup has no pool to share."""
    beasts = [Attacker(n, FIST, fury=3, model="warbeast") for n in ("Beast A", "Beast B")]
    lock = Attacker("Warlock", STAFF, fury=2, model="other", controls=["Beast A", "Beast B"])
    group, = battlegroups([lock] + beasts)
    assert (group.jacks, group.pool, group.allocates) == ((1, 2), 0, False)

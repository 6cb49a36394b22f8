"""Inputs that used to be accepted and ignored (the second audit's silent acceptances), each
now refused where it enters with one line naming the key and the value, or, where a value
cannot act at one point of a sweep and is kept on purpose, documented (README, the closing
notes): no traceback, and no file of the user's replaced.
"""

from __future__ import annotations

import matplotlib
import pytest

import mathhammer as mh
from mathhammer import plots
from mathhammer.errors import InputError
from mathhammer.io.scenario_files import loads_scenario, scenario_from_cards, scenario_from_dict
from mathhammer.rules import Attacker, Scenario, Target, Weapon

matplotlib.use("Agg")

FIST = Weapon("Fist", "melee", 7, 16, attacks=2)
SCEN = Scenario(Target(defense=12, arm=18, boxes=30), [Attacker("Jack", [FIST], focus=1)])


def _one_line(info) -> str:
    msg = str(info.value)
    assert "\n" not in msg and len(msg) < 400, msg
    return msg


# ---------------------------------------------------------------- the exact method's arguments
@pytest.mark.parametrize("call", [
    lambda: mh.sweep(SCEN, {"target.arm": [16, 17]}, method="exact", trials=2000, progress=False),
    lambda: mh.sweep(SCEN, {"target.arm": [16, 17]}, method="exact", seed=5, progress=False),
    lambda: mh.compare([SCEN, Scenario(SCEN.target, [Attacker("Jack", [FIST], focus=2)])],
                       method="exact", trials=2000),
    lambda: mh.matrix(["solo"], ["solo"], method="exact", seed=3, progress=False),
    lambda: mh.optimize(SCEN, method="exact", trials=2000),
    lambda: mh.optimize(SCEN, method="exact", stride=64),
], ids=["sweep-trials", "sweep-seed", "compare-trials", "matrix-seed", "optimize-trials", "optimize-stride"])
def test_monte_carlo_arguments_with_the_exact_method_are_refused(call):
    with pytest.raises(InputError, match="is Monte Carlo's: the exact method computes without") as info:
        call()
    _one_line(info)


def test_loadouts_giving_different_trials_or_seeds_are_refused_unless_one_is_given():
    other = loads_scenario(_toml(trials=5000, seed=9))
    first = loads_scenario(_toml(trials=2000, seed=1))
    with pytest.raises(InputError, match="the scenarios give different trials") as info:
        mh.compare({"a": first, "b": other})
    assert "[2000, 5000]" in _one_line(info)
    with pytest.raises(InputError, match="the scenarios give different seed"):
        mh.compare({"a": first, "b": other}, trials=3000)
    cmp = mh.compare({"a": first, "b": other}, trials=40_000, seed=4)
    assert cmp.trials == 40_000 and cmp.seed == 4


def _toml(trials: int, seed: int) -> str:
    return f"""
[simulation]
trials = {trials}
seed = {seed}
[target]
def = 12
arm = 16
boxes = 10
[[attackers]]
name = "Jack"
[[attackers.weapons]]
name = "Fist"
type = "melee"
skill = 7
pow = 14
"""


def test_a_matrix_setting_also_varied_is_refused():
    with pytest.raises(InputError, match=r"turns: is also varied \(simulation.turns\)") as info:
        mh.matrix(["solo"], ["solo"], turns=2, vary={"simulation.turns": [1, 3]}, trials=1000,
                  seed=1, progress=False)
    _one_line(info)


# ---------------------------------------------------------------- scenario keys
def test_a_null_in_a_scenario_dict_is_refused_where_it_is():
    data = {"target": {"def": 12, "arm": 18, "boxes": 30},
            "attackers": [{"name": "J", "weapons": [{"name": "F", "type": "melee", "skill": 7,
                                                     "pow": None}]}]}
    with pytest.raises(mh.errors.MathhammerError, match=r"attackers\[0\].weapons\[0\].pow: has no value"):
        scenario_from_dict(data)


@pytest.mark.parametrize("kwargs, key", [
    (dict(extra_damage_dice=1), "extra_damage_dice"),
    (dict(damage_type={"fire"}), "damage_type"),
])
def test_damage_keys_on_a_weapon_with_no_damage_roll_are_refused(kwargs, key):
    """A weapon with POW "-" rolls no damage: its damage dice and damage types cannot act
    (as ``boosted_damage`` and ``damage_discard`` were already refused)."""
    with pytest.raises(InputError, match=f'^{key}: needs a damage roll: the weapon has POW "-"'):
        Weapon("Spray", "ranged", 5, None, **kwargs)


@pytest.mark.parametrize("key", ["boosted_attack", "boosted_damage"])
def test_a_free_boost_of_a_weapon_is_refused_on_a_power_attack(key):
    """Power attacks (docs/rules.md 5): no weapon rule or quality applies to them; their rolls
    are boosted by paying for it."""
    with pytest.raises(InputError, match=f"^{key}: is not for a power attack"):
        Weapon("Slam", "melee", 7, 14, power_attack="slam", **{key: True})


def test_points_a_model_kind_cannot_spend_are_refused():
    """A warbeast is forced (docs/rules.md 3): focus on one is refused, as force on a warjack
    was; fury on a warjack with a crippled Cortex (its focus system) is refused too, since
    the Cortex would take nothing from it."""
    with pytest.raises(InputError, match="^focus: a warbeast is forced"):
        Attacker("Beast", [FIST], focus=3, model="warbeast")
    with pytest.raises(InputError, match="^fury: a warjack spends focus: with a crippled Cortex"):
        Attacker("Jack", [FIST], fury=3, model="warjack", crippled={"C"})
    assert Attacker("Warlock", [FIST], fury=3).points == 3  # the default model reads fury so


# ---------------------------------------------------------------- figures and files
@pytest.fixture(scope="module")
def card_result():
    return mh.simulate(scenario_from_cards(["heavy_warjack"], "heavy_warjack"), trials=2000, seed=1)


@pytest.mark.parametrize("kwargs, key", [
    (dict(vmin=1, vmax=0), "vmax"), (dict(vmin="a"), "vmin"), (dict(vmax=float("nan")), "vmax"),
    (dict(cmap="no such map"), "cmap"),
])
def test_plot_card_refuses_a_colour_scale_it_cannot_draw(card_result, kwargs, key):
    with pytest.raises(InputError, match=f"^{key}: ") as info:
        plots.plot_card(card_result, **kwargs)
    _one_line(info)


@pytest.mark.parametrize("kwargs, key", [(dict(dpi=0), "dpi"), (dict(dpi="100"), "dpi"),
                                         (dict(overwrite="no"), "overwrite")])
def test_save_figure_refuses_bad_settings(card_result, tmp_path, kwargs, key):
    with pytest.raises(InputError, match=f"^{key}: "):
        plots.save_figure(plots.main_figure(card_result), tmp_path / "f.png", **kwargs)
    assert not (tmp_path / "f.png").exists()


@pytest.mark.parametrize("write", [
    lambda r, p, **kw: plots.save_figure(plots.main_figure(r), p, **kw),
    lambda r, p, **kw: plots.write_main_figure(r, p, **kw),
], ids=["save_figure", "write_main_figure"])
def test_a_figure_never_replaces_a_user_file_without_overwrite(card_result, tmp_path, write):
    path = tmp_path / "mine.png"
    path.write_bytes(b"the user's own")
    with pytest.raises(InputError, match="already exists: give overwrite=True"):
        write(card_result, path)
    assert path.read_bytes() == b"the user's own"
    write(card_result, path, overwrite=True)
    assert path.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("argv, flag", [
    (["sweep", "s.toml", "--objective", "damage", "--vary", "simulation.objective=kill", "--trials", "1000"],
     "--objective"),
    (["matrix", "--attackers", "solo", "--targets", "solo", "--turns", "2", "--vary", "simulation.turns=1",
      "--trials", "1000"], "--turns"),
])
def test_a_flag_also_varied_is_refused_in_one_line(argv, flag, tmp_path, monkeypatch, capsys):
    from mathhammer import cli

    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.toml").write_text(_toml(trials=1000, seed=1), encoding="utf-8")
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"mathhammer: error: {flag}: is also varied"), err


# ---------------------------------------------------------------- a result's own arguments
@pytest.fixture(scope="module")
def track_result():
    return mh.simulate(SCEN, trials=2000, seed=1)


@pytest.mark.parametrize("call, key", [
    (lambda r, d: r.to_json(d / "a.json", overwrite="no"), "overwrite"),
    (lambda r, d: r.to_csv(d, overwrite="false"), "overwrite"),
    (lambda r, d: r.objective_value("Kill"), "objective"),
    (lambda r, d: r.objective_value("cripple:M"), "objective"),
    (lambda r, d: r.effect_figure("bogus", 0), "effect"),
    (lambda r, d: r.effect_figure("fire", 99), "column"),
    (lambda r, d: r.effect_total(-1), "column"),
    (lambda r, d: plots.plot_damage(r, at_least="no"), "at_least"),
    (lambda r, d: plots.plot_models_destroyed(r, at_least="yes"), "at_least"),
    (lambda r, d: plots.plot_kill_by_turn(r, band="no"), "band"),
], ids=["to_json", "to_csv", "objective-case", "objective-letter", "effect", "column", "total-column",
        "plot_damage", "plot_models_destroyed", "plot_kill_by_turn"])
def test_a_result_refuses_arguments_it_cannot_use(track_result, tmp_path, call, key):
    (tmp_path / "a.json").write_text("the user's own")
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(InputError, match=f"^{key}: ") as info:
        call(track_result, tmp_path)
    _one_line(info)
    assert (tmp_path / "a.json").read_text() == "the user's own"
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_names_with_spaces_around_or_differing_only_in_case_are_refused():
    """A route names its target exactly: " Caster " would never be found by "Caster"; two
    targets "Guard" and "guard" read as one in a report."""
    with pytest.raises(InputError, match="^name: must not start or end with a space"):
        Attacker(" Caster ", [FIST])
    with pytest.raises(InputError, match=r"two targets have this name \(letter case aside\)"):
        Scenario([Target(defense=12, arm=14, boxes=5, name="Guard"),
                  Target(defense=12, arm=14, boxes=5, name="guard")], [Attacker("Jack", [FIST])])


def test_buying_attacks_with_a_power_attack_says_why_in_one_line():
    text = _toml(trials=1000, seed=1).replace('name = "Jack"\n', 'name = "Jack"\nfocus = 2\nbase = "large"\n'
                                              'buy_weapon = "Slam"\n') + (
        '[[attackers.weapons]]\nname = "Slam"\ntype = "melee"\nskill = 7\npow = 12\npower_attack = "slam"\n')
    with pytest.raises(mh.errors.MathhammerError, match="buy_weapon: is a power attack, the combat action") as info:
        loads_scenario(text)
    _one_line(info)

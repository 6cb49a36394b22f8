"""The card library (mathhammer.cards): bundled cards, search path, scenario references, CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from mathhammer import simulate
from mathhammer.cards import (
    BUNDLED_DIR,
    ENV_VAR,
    KINDS,
    card_dirs,
    find_card,
    list_cards,
    load_card,
    scenario_from_cards,
)
from mathhammer.cli import main
from mathhammer.errors import InputError
from mathhammer.rules import Target
from mathhammer.scenario import (
    ScenarioFileError,
    load_scenario,
    loads_scenario,
    scenario_from_dict,
    scenario_to_dict,
)

REPO = Path(__file__).resolve().parents[1]
BUNDLED = sorted(p.stem for p in BUNDLED_DIR.glob("*.toml"))
REQUIRED = {"infantry", "heavy_infantry", "solo", "warcaster", "warlock", "light_warjack",
            "heavy_warjack", "light_warbeast", "heavy_warbeast", "colossal"}
FIST = {"name": "Fist", "type": "melee", "skill": 6, "pow": 12}

CARD = """\
[card]
name = "Custom jack"
kind = "heavy warjack"
description = "A user card."

[target]
def = 11
arm = 19
boxes = 25

[attacker]
focus = 2

[[attacker.weapons]]
name = "Hammer"
type = "melee"
skill = 7
pow = 18
"""


@pytest.fixture(autouse=True)
def _no_user_cards(monkeypatch, tmp_path):
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no ~/.mathhammer/cards


def _card_file(folder: Path, name: str, text: str = CARD) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _one_line(err: Exception) -> str:
    text = str(err)
    assert "\n" not in text
    return text


# ---------------------------------------------------------------------------- bundled cards
def test_bundled_cards_present():
    assert REQUIRED <= set(BUNDLED)
    infos = {c.name: c for c in list_cards()}
    assert set(infos) == set(BUNDLED)
    assert all(c.bundled and c.description and c.kind in KINDS for c in infos.values())
    assert infos["infantry"].boxes == 1 and infos["infantry"].actions == ("ranged", "melee")
    assert 5 <= infos["heavy_infantry"].boxes <= 8 and 5 <= infos["solo"].boxes <= 8
    assert infos["light_warjack"].capacity == infos["heavy_warjack"].capacity == "grid"
    assert infos["light_warbeast"].capacity == infos["heavy_warbeast"].capacity == "spiral"
    caster = load_card("warcaster").to_target()
    assert 16 <= caster.boxes <= 20 and 6 <= caster.focus <= 7 and caster.power_field == "best"
    assert "arcane" in infos["warcaster"].actions and "melee" in infos["warcaster"].actions
    assert load_card("warlock").to_target().fury > 0 and infos["warlock"].points.startswith("fury")
    colossal = infos["colossal"]  # two grids of 30 (tests/test_colossal.py)
    assert colossal.capacity == "grid" and colossal.boxes == 60 and load_card("colossal").to_target().colossal


def test_bundled_grids_are_the_example_shapes():
    for name in ("light_warjack", "heavy_warjack", "light_warbeast", "heavy_warbeast"):
        example = load_scenario(REPO / "examples" / "cards" / f"{name}.toml").target
        assert load_card(name).to_target().card == example.card


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_card_simulates(name):
    card = load_card(name)
    assert card.info.attacks
    target = card.to_target()
    assert target.name == card.info.title
    for action in card.info.actions:
        attacker = card.to_attacker(action=action)
        if attacker.power_weapon is not None:  # a power attack: it and the melee weapons
            assert attacker.power_weapon.power_attack == action
            assert {w.type for w in attacker.weapons} == {"melee"}
        else:
            assert {w.type for w in attacker.weapons} == {action}
        scen = scenario_from_cards([f"{name}:{action}"], name, trials=2000, seed=1)
        res = simulate(scen)
        assert 0.0 <= res.kill <= 1.0 and res.damage_mean >= 0.0
        assert scenario_from_dict(scenario_to_dict(scen)) == scen


# ---------------------------------------------------------------------------- references
def test_target_card_with_overrides():
    scen = scenario_from_dict({
        "target": {"card": "heavy_warjack", "arm": 20, "name": "Big jack", "state": ["knocked_down"]},
        "attackers": [{"card": "solo"}],
    })
    t = scen.target
    assert (t.defense, t.arm, t.name, t.state, t.boxes) == (12, 20, "Big jack", {"knocked_down"}, 34)
    track = scenario_from_dict({"target": {"card": "heavy_warjack", "boxes": 20},
                                "attackers": [{"card": "solo"}]}).target
    assert track.capacity == "track" and track.boxes == 20  # boxes replaces the grid
    caster = scenario_from_dict({"target": {"card": "warcaster", "fury": 2},
                                 "attackers": [{"card": "solo"}]}).target
    assert caster.fury == 2 and caster.focus == 0  # fury replaces the card's focus


def test_attacker_card_with_overrides():
    scen = scenario_from_dict({
        "target": {"card": "heavy_warbeast"},
        "attackers": [
            {"card": "heavy_warjack", "name": "Jack", "focus": 1, "charge": True,
             "spend": {"reserve": 1}},
            {"card": "heavy_warbeast", "force": 2, "crippled": ["B"]},
            {"card": "heavy_warjack", "weapons": [FIST]},
        ],
    })
    jack, beast, fist = scen.attackers
    assert (jack.name, jack.focus, jack.charge, jack.spend.reserve) == ("Jack", 1, True, 1)
    assert jack.spend.boost_attack == "auto"  # the rest of the card's spend table
    assert (beast.fury, beast.force, beast.crippled) == (0, 2, {"B"})  # force replaces fury
    assert [w.name for w in fist.weapons] == ["Fist"] and fist.focus == 3
    assert fist.name == "Heavy warjack"


def test_actions_and_default_names():
    scen = scenario_from_cards(["infantry", "infantry:melee", "warcaster:arcane"], "solo")
    rifle, hand, bolt = scen.attackers
    assert [w.name for w in rifle.weapons] == ["Rifle"]  # the card's first weapon's type
    assert [w.name for w in hand.weapons] == ["Hand weapon"]
    assert [w.type for w in bolt.weapons] == ["arcane"] and bolt.focus == 6
    assert [a.name for a in scen.attackers] == ["Infantry trooper", "Infantry trooper 2", "Warcaster"]
    with pytest.raises(ScenarioFileError, match=r"attackers\[0\]\.action: .*no arcane weapon"):
        scenario_from_dict({"target": {"card": "solo"},
                            "attackers": [{"card": "heavy_warjack", "action": "arcane"}]})
    with pytest.raises(ScenarioFileError, match=r"attackers\[0\]\.action: .*only beside card"):
        scenario_from_dict({"target": {"card": "solo"},
                            "attackers": [{"weapons": [FIST], "action": "melee"}]})


def test_card_target_matches_written_out_target():
    written = {"name": "Heavy warjack", "def": 12, "arm": 18, "base": "large",
               "grid": ["..LLM", "...LLM", "...HCC", "...HCC", "...RRM", "..RRM"]}
    jack = {"name": "Jack", "focus": 3, "weapons": [{**FIST, "name": "Left fist", "pow": 17},
                                                    {**FIST, "name": "Right fist", "pow": 16}]}
    by_card = scenario_from_dict({"target": {"card": "heavy_warjack"}, "attackers": [jack]})
    by_hand = scenario_from_dict({"target": written, "attackers": [jack]})
    assert by_card == by_hand
    a = simulate(by_card, trials=5000, seed=7)
    b = simulate(by_hand, trials=5000, seed=7)
    assert a.kill == b.kill and a.damage_mean == b.damage_mean
    assert np.array_equal(a.damage_pmf, b.damage_pmf)
    assert np.array_equal(a.card.cripple_weights, b.card.cripple_weights)


def test_scenario_from_cards_settings():
    scen = scenario_from_cards(["heavy_warjack"], "heavy_warjack", trials=1000, seed=3, turns=2,
                               brutal_damage="hit", objective=None)
    assert (scen.trials, scen.seed, scen.turns, scen.brutal_damage) == (1000, 3, 2, "hit")
    with pytest.raises(TypeError, match="nonsense"):
        scenario_from_cards(["solo"], "solo", nonsense=1)


# ---------------------------------------------------------------------------- search path
def test_explicit_dir_shadows_bundled(tmp_path):
    user = tmp_path / "mine"
    _card_file(user, "heavy_warjack")
    assert find_card("heavy_warjack", [user]).parent == user
    assert find_card("heavy_warjack").parent == BUNDLED_DIR
    infos = {c.name: c for c in list_cards([user])}
    assert infos["heavy_warjack"].title == "Custom jack" and not infos["heavy_warjack"].bundled
    assert infos["solo"].bundled  # the others are still listed
    scen = scenario_from_cards(["heavy_warjack"], "heavy_warjack", dirs=[user])
    assert scen.target.arm == 19 and scen.attackers[0].weapons[0].name == "Hammer"
    scen = loads_scenario('target = { card = "heavy_warjack" }\n[[attackers]]\ncard = "solo"\n',
                          cards=[str(user)])
    assert scen.target.boxes == 25


def test_env_var_shadows_bundled_and_explicit_dirs_come_first(tmp_path, monkeypatch):
    env_a, env_b, explicit = tmp_path / "a", tmp_path / "b", tmp_path / "explicit"
    _card_file(env_a, "solo", CARD.replace("def = 11", "def = 9"))
    _card_file(env_b, "solo", CARD.replace("def = 11", "def = 8"))
    _card_file(env_b, "extra_card")
    _card_file(explicit, "solo", CARD.replace("def = 11", "def = 7"))
    monkeypatch.setenv(ENV_VAR, os.pathsep.join([str(env_a), "", str(env_b)]))
    assert card_dirs() == [env_a, env_b, BUNDLED_DIR]
    assert card_dirs([explicit])[0] == explicit
    assert load_card("solo").to_target().defense == 9  # the first directory wins
    assert load_card("solo", [explicit]).to_target().defense == 7
    assert load_card("Extra-Card").info.name == "extra_card"  # case, - and spaces ignored
    assert "extra_card" in {c.name for c in list_cards()}


def test_missing_dirs_are_errors(tmp_path, monkeypatch):
    with pytest.raises(InputError) as err:
        card_dirs([tmp_path / "nope"])
    assert err.value.key == "cards" and "no such directory" in _one_line(err.value)
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "gone"))
    with pytest.raises(InputError) as err:
        list_cards()
    assert err.value.key == ENV_VAR and "gone" in _one_line(err.value)
    with pytest.raises(InputError, match=ENV_VAR):
        scenario_from_dict({"target": {"card": "solo"}, "attackers": [{"card": "solo"}]})
    # ... but a scenario without card references does not look at the library
    plain = {"target": {"def": 12, "arm": 18}, "attackers": [{"weapons": [FIST]}]}
    assert scenario_from_dict(plain).target.arm == 18


def test_unknown_card_suggests():
    with pytest.raises(ScenarioFileError) as err:
        scenario_from_dict({"target": {"card": "heavy_warjak"}, "attackers": [{"card": "solo"}]},
                           source="x.toml")
    text = _one_line(err.value)
    assert text.startswith("x.toml: target.card: unknown card")
    assert "did you mean 'heavy_warjack'" in text and "(got 'heavy_warjak')" in text
    assert "solo" in text  # the known names
    with pytest.raises(ScenarioFileError, match=r"attackers\[1\]\.card: unknown card; did you mean 'solo'"):
        scenario_from_cards(["solo", "sollo"], "solo")
    with pytest.raises(InputError, match="card: unknown card") as err:
        load_card("wizard")
    assert err.value.key == "card" and err.value.value == "wizard"


def test_bad_card_content_names_file_and_key(tmp_path):
    user = tmp_path / "cards"
    bad_skill = _card_file(user, "bad_skill", CARD.replace("skill = 7", "skill = 45"))
    with pytest.raises(ScenarioFileError) as err:
        scenario_from_dict({"target": {"card": "solo"}, "attackers": [{"card": "bad_skill"}]},
                           cards=[user])
    assert _one_line(err.value) == (f"{bad_skill}: attacker.weapons[0].skill: "
                                    "must be between 0 and 30 (got 45)")
    cases = {
        "typo": (CARD.replace("arm = 19", "armour = 19"), "target.armour", "did you mean 'arm'"),
        "no_target": (CARD.split("[target]")[0], "target", "required key is missing"),
        "scenario": (CARD + "\n[simulation]\ntrials = 10\n", "simulation", "scenario file"),
        "meta": (CARD.replace('kind = "heavy warjack"', "kind = 3"), "card.kind", "must be a string"),
        "nested": (CARD.replace("def = 11", 'card = "solo"\ndef = 11'), "target.card", "another card"),
        "broken": ("[target\n", "", "invalid TOML"),
        "no_card_table": ("[target]" + CARD.split("[target]", 1)[1], "card", "needs its [card] table"),
    }
    for name, (text, key, reason) in cases.items():
        path = _card_file(user, name, text)
        with pytest.raises(ScenarioFileError) as err:
            load_card(name, [user])
        line = _one_line(err.value)
        assert line.startswith(f"{path}: {key}: " if key else f"{path}: "), line
        assert reason in line, line
    # a target-only card cannot attack
    _card_file(user, "wall", CARD.split("[attacker]")[0])
    assert not load_card("wall", [user]).info.attacks
    with pytest.raises(ScenarioFileError, match=r"attackers\[0\]\.card: is a target-only card"):
        scenario_from_dict({"target": {"card": "wall"}, "attackers": [{"card": "wall"}]},
                           cards=[user])


def test_relative_card_path_resolved_against_scenario_folder(tmp_path, monkeypatch):
    folder = tmp_path / "scenarios"
    _card_file(folder / "my_cards", "jack")
    scenario = folder / "fight.toml"
    scenario.write_text('[target]\ncard = "my_cards/jack.toml"\n\n'
                        '[[attackers]]\ncard = "my_cards/jack.toml"\nname = "Other jack"\n',
                        encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # not the scenario's folder
    scen = load_scenario("scenarios/fight.toml")
    assert scen.target.arm == 19 and scen.attackers[0].weapons[0].name == "Hammer"
    with pytest.raises(ScenarioFileError, match="target.card: no such card file"):
        loads_scenario('[target]\ncard = "my_cards/jack.toml"\n[[attackers]]\ncard = "solo"\n')
    with pytest.raises(ScenarioFileError, match="named without .toml: 'solo'"):
        loads_scenario('[target]\ncard = "solo.toml"\n[[attackers]]\ncard = "solo"\n')
    absolute = load_card(folder / "my_cards" / "jack.toml")
    assert absolute.info.title == "Custom jack"


def test_examples_use_cards():
    scen = load_scenario(REPO / "examples" / "card_matchup.toml")
    assert scen.target.name == "Warcaster" and scen.target.focus == 4
    assert len(scen.attackers) == 3 and scen.attackers[-1].charge
    assert simulate(scen, trials=2000, seed=1).trials == 2000


def test_top_level_key_after_a_table_is_explained():
    text = '[simulation]\ntrials = 10\ntarget = { card = "solo" }\n[[attackers]]\ncard = "solo"\n'
    with pytest.raises(ScenarioFileError, match="before the first header"):
        loads_scenario(text)


# ---------------------------------------------------------------------------- CLI
def test_cli_cards_table(capsys):
    assert main(["cards"]) == 0
    out = capsys.readouterr().out
    header = out.splitlines()[0].split()
    assert header[:2] == ["NAME", "KIND"] and "DEF/ARM" in header
    for name in REQUIRED:
        assert f"\n{name} " in out
    row = next(line for line in out.splitlines() if line.startswith("colossal "))
    assert "two grids 60" in row and "bundled" in row
    assert "grid 34" in out and "12/18" in out


def test_cli_cards_json(capsys, tmp_path):
    user = tmp_path / "mine"
    _card_file(user, "heavy_warjack")
    assert main(["cards", "--json", "--cards", str(user)]) == 0
    data = {c["name"]: c for c in json.loads(capsys.readouterr().out)}
    assert set(data) == set(BUNDLED)
    jack = data["heavy_warjack"]
    assert jack["bundled"] is False and jack["path"] == str(user / "heavy_warjack.toml")
    assert (jack["defense"], jack["arm"], jack["boxes"], jack["attacks"]) == (11, 19, 25, True)
    assert data["infantry"]["actions"] == ["ranged", "melee"]


def test_cli_cards_missing_dir(capsys, monkeypatch):
    assert main(["cards", "--cards", "/nonexistent"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("mathhammer: error: --cards: no such directory")
    monkeypatch.setenv(ENV_VAR, "/nonexistent-env")
    assert main(["cards"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "MATHHAMMER_CARDS" in err and "/nonexistent-env" in err


def test_target_dataclass_untouched_by_cards():
    """A card's tables are copied: overriding one reference leaves the card as it was."""
    card = load_card("heavy_warjack")
    card.to_target({"arm": 25})
    scenario_from_dict({"target": {"card": "heavy_warjack", "rules": ["tough"]},
                        "attackers": [{"card": "heavy_warjack", "spend": {"reserve": 2}}]})
    assert card.to_target() == Target(12, 18, name="Heavy warjack", base="large",
                                      grid=card.target_table["grid"])
    assert "spend" not in load_card("heavy_warjack").attacker_table

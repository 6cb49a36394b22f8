"""`mathhammer run --attacker CARD --target CARD [--cards DIR]` and a file's target or
attackers replaced by cards: the same scenario as the API builds, one-line errors."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from mathhammer import load_scenario, simulate
from mathhammer.cards import scenario_from_cards
from mathhammer.cli import main

REPO = Path(__file__).resolve().parents[1]
ARGS = ["--trials", "20000", "--seed", "3", "--json"]


def _json(capsys) -> dict:
    return json.loads(capsys.readouterr().out)


def test_cards_on_the_command_line_equal_the_api(capsys):
    assert main(["run", "--attacker", "heavy_warjack", "--attacker", "light_warjack",
                 "--target", "heavy_warbeast", *ARGS]) == 0
    got = _json(capsys)
    scen = scenario_from_cards(["heavy_warjack", "light_warjack"], "heavy_warbeast")
    assert got == simulate(scen, trials=20000, seed=3).to_dict()
    assert set(got["cripple"]) == {"B", "M", "S"}


def test_target_card_replaces_the_files_target(capsys):
    path = str(REPO / "examples" / "knockdown_then_melee.toml")
    assert main(["run", path, "--target", "solo", *ARGS]) == 0
    got = _json(capsys)
    file_scen = load_scenario(path)
    solo = scenario_from_cards(["infantry"], "solo").target
    expected = simulate(dataclasses.replace(file_scen, target=solo), trials=20000, seed=3)
    assert got == expected.to_dict()


def test_user_card_directory_shadows_a_bundled_card(tmp_path, capsys):
    (tmp_path / "solo.toml").write_text(
        '[card]\nname = "Tiny solo"\nkind = "solo"\n[target]\nname = "Tiny solo"\n'
        'def = 10\narm = 10\nboxes = 1\n', encoding="utf-8")
    assert main(["run", "--attacker", "heavy_warjack", "--target", "solo",
                 "--cards", str(tmp_path), *ARGS]) == 0
    assert len(_json(capsys)["damage_pmf"]) == 2


def test_card_errors_are_one_line(capsys):
    for argv in (["run", "--attacker", "heavy_warjack"],
                 ["run", "--attacker", "heavy_warjak", "--target", "solo"],
                 ["run", "--attacker", "heavy_warjack", "--target", "solo", "--cards", "/nope"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("mathhammer: error: ")
    assert main(["run", "--attacker", "heavy_warjak", "--target", "solo"]) == 2
    assert "did you mean 'heavy_warjack'" in capsys.readouterr().err


def test_sweep_and_compare_take_card_directories(tmp_path, capsys):
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "tiny.toml").write_text(
        '[card]\nname = "Tiny"\nkind = "solo"\n[target]\nname = "Tiny"\ndef = 10\narm = 10\n'
        'boxes = 3\n', encoding="utf-8")
    scen = tmp_path / "s.toml"
    scen.write_text('target = { card = "tiny" }\n[[attackers]]\ncard = "heavy_warjack"\n',
                    encoding="utf-8")
    assert main(["sweep", str(scen), "--vary", "target.arm=10:11", "--cards", str(cards),
                 "--trials", "2000", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)
    assert main(["compare", str(scen), str(scen), "--label", "a", "--label", "b",
                 "--cards", str(cards), "--trials", "2000", "--seed", "1"]) == 0
    assert main(["compare", str(scen), str(scen), "--label", "a", "--label", "b",
                 "--trials", "2000"]) == 2
    assert "unknown card" in capsys.readouterr().err

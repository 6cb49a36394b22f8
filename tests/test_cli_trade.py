"""``mathhammer trade FILE`` (docs/trades.md)."""

from __future__ import annotations

import json

from mathhammer.cli import main

DUEL = "examples/trades/heavy_duel.toml"


def test_the_duel_prints_who_wins_and_every_turn(capsys, monkeypatch):
    monkeypatch.chdir(__import__("pathlib").Path(__file__).resolve().parents[1])
    assert main(["trade", DUEL, "--trials", "4000", "--seed", "5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(("Red wins the trade", "Blue wins the trade"))
    assert sum(line.startswith("round ") for line in out) == 6  # 3 rounds, 2 turns each


def test_json_holds_the_wins_with_intervals_and_every_turn(capsys, monkeypatch):
    monkeypatch.chdir(__import__("pathlib").Path(__file__).resolve().parents[1])
    assert main(["trade", DUEL, "--trials", "4000", "--seed", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    red, blue = data["wins"]["Red"], data["wins"]["Blue"]
    assert abs(red["p"] + blue["p"] + data["both_standing"] - 1) < 1e-12
    assert red["ci95"][0] <= red["p"] <= red["ci95"][1]
    assert [t["round"] for t in data["turns"]] == [1, 1, 2, 2, 3, 3]
    assert set(data["turns"][0]["models"]["Blue heavy"]["crippled"]) == {"C", "H", "M", "L", "R"}
    assert (data["trials"], data["seed"], data["method"]) == (4000, 5, "monte_carlo")


def test_bad_input_is_one_line_and_status_2(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(__import__("pathlib").Path(__file__).resolve().parents[1])
    assert main(["trade", DUEL, "--method", "exact"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "sides[0].models[0].target.grid" in err
    bad = tmp_path / "bad.toml"
    bad.write_text('[trade]\nrounds = 0\n[[sides]]\nname = "A"\n[[sides.models]]\nname = "a"\nattacks = "b"\n'
                   '[sides.models.attacker]\nweapons = [{name = "F", type = "melee", skill = 6, pow = 12}]\n'
                   '[sides.models.target]\ndef = 12\narm = 14\n'
                   '[[sides]]\nname = "B"\n[[sides.models]]\nname = "b"\nattacks = "a"\n'
                   '[sides.models.attacker]\nweapons = [{name = "F", type = "melee", skill = 6, pow = 12}]\n'
                   '[sides.models.target]\ndef = 12\narm = 14\n')
    assert main(["trade", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "trade.rounds: must be between 1 and 20 (got 0)" in err
    assert main(["trade", DUEL, "--trials", "0"]) == 2
    assert "--trials" in capsys.readouterr().err

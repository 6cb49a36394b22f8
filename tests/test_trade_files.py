"""Trade files (docs/trades.md): reading, writing back, and one line for each bad key."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mathhammer.io.schema import ScenarioFileError
from mathhammer.io.toml_write import dumps
from mathhammer.io.trade_files import load_trade, loads_trade, trade_from_dict, trade_to_dict

DUEL = Path(__file__).resolve().parents[1] / "examples" / "trades" / "heavy_duel.toml"


def _model(name, attacks, **extra):
    return {"name": name, "card": "heavy_warjack", "attacks": attacks, **extra}


def _trade(**top):
    doc = {"trade": {"rounds": 2}, "sides": [
        {"name": "Red", "models": [_model("R", "B")]},
        {"name": "Blue", "models": [_model("B", "R")]}]}
    doc.update(top)
    return doc


def test_the_bundled_duel_reads_as_two_heavy_warjacks_with_a_charge():
    trade = load_trade(DUEL)
    red, blue = trade.sides
    assert (trade.rounds, trade.first, trade.seed) == (3, "Red", 48)
    assert red.models[0].attacker.charge and not blue.models[0].attacker.charge
    assert red.models[0].target.capacity == "grid" and red.models[0].attacks == ("Blue heavy",)


def test_every_bundled_trade_file_reads():
    root = Path(__file__).resolve().parents[1] / "examples" / "trades"
    files = sorted(root.glob("*.toml"))
    assert files
    for path in files:
        assert load_trade(path).rounds >= 1


def test_a_trade_written_and_read_back_is_the_same_trade():
    trade = load_trade(DUEL)
    text = dumps(trade_to_dict(trade))
    assert loads_trade(text) == trade
    assert loads_trade(dumps(trade_to_dict(loads_trade(text)))) == trade


def test_track_thresholds_and_settings_round_trip():
    doc = _trade(settings={"knockdown_before_tough": True})
    doc["sides"][0]["models"][0].update(target={"boxes": 24}, cripple_at={"L": 12, "C": 20})
    trade = trade_from_dict(doc)
    assert trade.sides[0].models[0].cripple_at == (("C", 20), ("L", 12))
    assert trade_from_dict(trade_to_dict(trade)) == trade


@pytest.mark.parametrize("change, message", [
    (lambda d: d["sides"][0]["models"].append(_model("R2", "R")),
     r"sides\[0\]\.models\[1\]\.attacks\[0\]: is on its own side .*\(got 'R'\)"),
    (lambda d: d["sides"][1].update(models=[]), r"sides\[1\]\.models: a side needs at least one model"),
    (lambda d: d["trade"].update(rounds=0), r"trade\.rounds: must be between 1 and 20 \(got 0\)"),
    (lambda d: d["trade"].update(first="Green"), r"trade\.first: .*\(got 'Green'\)"),
    (lambda d: d["sides"].pop(), r"sides: a trade has two sides"),
    (lambda d: d["sides"][0]["models"][0].pop("attacks"), r"sides\[0\]\.models\[0\]\.attacks: required key"),
    (lambda d: d["sides"][0]["models"][0].update(attacks="Nobody"),
     r"sides\[0\]\.models\[0\]\.attacks\[0\]: names no model of the trade.*\(got 'Nobody'\)"),
    (lambda d: d["sides"][0]["models"][0].update(cripple_at={"L": 3}),
     r"sides\[0\]\.models\[0\]\.cripple_at: is for a damage track"),
    (lambda d: d["sides"][0]["models"][0].update(target={"focus": 3}),
     r"sides\[0\]\.models\[0\]\.target\.focus: a power field in a trade"),
    (lambda d: d.update(simulation={"turns": 3}), r"simulation\.turns: a trade's rounds are trade\.rounds"),
    (lambda d: d["sides"][0]["models"][0].update(attacker={"name": "X"}),
     r"sides\[0\]\.models\[0\]\.attacker\.name: is the model's"),
    (lambda d: d["sides"][0]["models"][0].update(colour="red"), r"sides\[0\]\.models\[0\]\.colour: unknown key"),
    (lambda d: d["sides"][1]["models"][0].update(name="R"), r"sides\[1\]\.models\[0\]\.name: names another model"),
])
def test_bad_trade_files_get_one_line_naming_the_key(change, message):
    doc = _trade()
    change(doc)
    with pytest.raises(ScenarioFileError) as info:
        trade_from_dict(doc, source="t.toml")
    text = str(info.value)
    assert "\n" not in text and text.startswith("t.toml: ")
    assert re.search(message, text), text


def test_a_target_setting_is_refused_in_a_trade():
    """A trade models no power field or Rapid Healing: their settings are unknown keys there."""
    with pytest.raises(ScenarioFileError, match=r"settings\.power_field_per_attack: unknown key \(allowed: "
                                                r"brutal_damage, .*\) \(got 1\)"):
        loads_trade(dumps(_trade(settings={"power_field_per_attack": 1})))

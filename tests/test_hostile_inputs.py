"""Inputs found by issue 18's fuzz run that ended in a traceback or a silent default: each now
ends as a one-line error naming the key and the value (exit status 2 from the CLI), or is
accepted as it should be (a UTF-8 byte-order mark, NumPy integers)."""

from __future__ import annotations

import numpy as np
import pytest

from mathhammer import cli, simulate
from mathhammer.errors import InputError
from mathhammer.io.cards import load_card
from mathhammer.io.scenario_files import ScenarioFileError, load_scenario, loads_scenario
from mathhammer.rules import Attacker, Scenario, Target, Weapon

FILE = """\
[target]
def = 12
arm = 14
boxes = 5

[[attackers]]
name = "Jack"

[[attackers.weapons]]
name = "Fist"
type = "melee"
skill = 6
pow = 12
"""


def _cli_error(capsys, argv) -> str:
    """Run the CLI: exit status 2, nothing on stdout, one line on stderr; returns it."""
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("mathhammer: error: "), err
    return err


def test_no_command_lists_the_commands(capsys):
    assert cli.main([]) == 0
    out = capsys.readouterr().out
    for command in ("run", "demo", "cards", "sbh", "sweep", "compare", "matrix", "app"):
        assert f"\n    {command} " in out


def test_matrix_help_says_95_percent_and_no_file(capsys):
    assert cli.main(["matrix", "--help"]) == 0
    out = capsys.readouterr().out
    assert "95%%" not in out and "95% interval" in out and "overrides the file" not in out


def test_objective_flag_takes_cripple_x(tmp_path, capsys):
    path = tmp_path / "s.toml"
    path.write_text(FILE.replace("boxes = 5", 'grid = ["..L", "..L", "...", "...", "...", "..."]')
                    .replace('name = "Jack"', 'name = "Jack"\nfocus = 1'), encoding="utf-8")
    assert cli.main(["run", str(path), "--objective", "cripple:L", "--trials", "2000", "--seed", "1"]) == 0
    assert "best play for the objective cripple:L" in capsys.readouterr().out
    err = _cli_error(capsys, ["run", str(path), "--objective", "cripple:Q"])
    assert "--objective" in err and "'cripple:Q'" in err
    err = _cli_error(capsys, ["run", str(path), "--objective", "cripple:M"])
    assert "simulation.objective" in err and "'cripple:M'" in err  # not on this card


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + FILE.encode("utf-8"))
    assert load_scenario(path) == loads_scenario(FILE)


def test_toml_nested_too_deep_is_one_line(tmp_path, capsys):
    path = tmp_path / "deep.toml"
    path.write_text(FILE + "x = " + "[" * 5000 + "\n", encoding="utf-8")
    err = _cli_error(capsys, ["run", str(path)])
    assert "invalid TOML: nested too deep" in err


@pytest.mark.parametrize("build, key", [
    (lambda: Target(12, 14, name=""), "name"),
    (lambda: Target(12, 14, name="   "), "name"),
    (lambda: Weapon(" ", "melee", 6, 12), "name"),
    (lambda: Attacker("", [Weapon("Fist", "melee", 6, 12)]), "name"),
    (lambda: Attacker("Jack", [Weapon("Fist", "melee", 6, 12), Weapon("Fist", "melee", 7, 14)]),
     "weapons[1].name"),
    (lambda: Target(12, 14, spiral=["BB", "BB", "MM", "MM", "SS", "SS"], shield=("L",)), "shield"),
])
def test_blank_and_duplicate_names_and_a_spirals_shield_are_refused(build, key):
    with pytest.raises(InputError) as err:
        build()
    assert err.value.key == key and "\n" not in str(err.value)


def test_a_grid_of_hull_boxes_only_simulates(tmp_path, capsys):
    path = tmp_path / "hull.toml"
    path.write_text(FILE.replace("boxes = 5", 'grid = ["..", "..", "..", "..", "..", ".."]'), encoding="utf-8")
    assert cli.main(["run", str(path), "--trials", "2000", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "No system on the card: nothing to cripple." in out
    n = 20_000
    res = simulate(load_scenario(path), trials=n, seed=1)
    ex = simulate(load_scenario(path), method="exact")
    assert res.cripple == {} and ex.cripple == {}
    assert abs(res.kill - ex.kill) <= 5 * (ex.kill * (1 - ex.kill) / n) ** 0.5 + 1e-9


def test_a_card_file_needs_its_card_table(tmp_path):
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "wall.toml").write_text("[target]\ndef = 5\narm = 20\nboxes = 20\n", encoding="utf-8")
    with pytest.raises(ScenarioFileError) as err:
        load_card("wall", [folder])
    assert "card: a card file needs its [card] table" in str(err.value) and "\n" not in str(err.value)


def test_an_unknown_card_action_is_named_as_such(capsys):
    err = _cli_error(capsys, ["run", "--attacker", "heavy_warjack:flying", "--target", "solo"])
    assert "--attacker heavy_warjack:flying: the action must be one of" in err
    assert "(got 'flying')" in err and "unknown card" not in err


def test_numpy_integers_are_integers():
    t = Target(np.int64(12), np.int64(18), boxes=np.int32(10))
    w = Weapon("Fist", "melee", np.int64(6), np.int64(16), attacks=np.int64(2))
    scen = Scenario(t, [Attacker("Jack", [w], focus=np.int64(2))])
    plain = Scenario(Target(12, 18, boxes=10), [Attacker("Jack", [Weapon("Fist", "melee", 6, 16, attacks=2)], focus=2)])
    assert scen == plain and type(t.defense) is int and type(w.attacks) is int
    res = simulate(scen, trials=np.int64(1000), seed=np.int64(3))
    assert type(res.seed) is int and res.trials == 1000
    with pytest.raises(InputError, match="must be an integer"):
        Target(np.float64(12.0), 18)
    with pytest.raises(InputError, match="must be an integer"):
        Target(np.bool_(True), 18)


def test_sbh_total_floor_and_raw_totals_are_refused_together(capsys):
    err = _cli_error(capsys, ["sbh", "shoot", "--shooters", "3", "--combat", "2", "--target-combat", "3",
                              "--total-floor", "1", "--raw-totals"])
    assert "--raw-totals" in err and "--total-floor" in err


def test_matrix_empty_attackers_is_not_the_current_folder(capsys):
    err = _cli_error(capsys, ["matrix", "--attackers", "", "--targets", "solo"])
    assert "--attackers: an empty value" in err


def test_damage_to_a_system_no_target_has_is_refused():
    ram = Weapon("Ram", "melee", 6, 14, damage_to="L")
    with pytest.raises(InputError) as err:
        simulate(Scenario(Target(12, 16, boxes=20), [Attacker("Jack", [ram])]), trials=100)
    assert err.value.key == "attackers[0].weapons[0].damage_to" and "no grid or spiral" in str(err.value)
    with pytest.raises(InputError, match="no target of its attacks has it"):
        simulate(Scenario(Target(12, 16, grid=["..", "..", "MM", "..", "..", ".."]), [Attacker("Jack", [ram])]),
                 method="exact")
    with pytest.raises(ScenarioFileError, match="x.toml: attackers.0..weapons.0..damage_to: no target"):
        loads_scenario(FILE + 'damage_to = "L"\n', "x.toml")
    ok = Scenario(Target(12, 16, grid=["..", "..", "LL", "..", "..", ".."]), [Attacker("Jack", [ram])])
    assert ok.attackers[0].weapons[0].damage_to == "L"


def test_an_empty_scheduler_address_is_one_line(capsys):
    pytest.importorskip("distributed")
    err = _cli_error(capsys, ["matrix", "--attackers", "solo", "--targets", "solo", "--scheduler", "tcp://"])
    assert "scheduler" in err and "has no host" in err


def test_no_command_in_a_subprocess_lists_the_commands_too():
    import subprocess
    import sys
    proc = subprocess.run([sys.executable, "-m", "mathhammer"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "commands:" in proc.stdout and proc.stderr == ""

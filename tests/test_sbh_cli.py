"""``mathhammer sbh ...``: the JSON contract of ``activation`` and ``shoot``, the other
subcommands, and bad flags as one line on stderr with exit status 2."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mathhammer import cli
from mathhammer.sbh import (
    Group,
    Model,
    Settings,
    Solo,
    Turn,
    activation,
    best_dice,
    shoot,
    turn_odds,
)

REPO = Path(__file__).resolve().parents[1]


def main_json(capsys, *args):
    rc = cli.main(["sbh", *args, "--json"])
    out, err = capsys.readouterr()
    assert rc == 0 and err == "", err
    lines = out.strip().splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


def run(*args):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-m", "mathhammer", "sbh", *args], check=False, capture_output=True,
                          text=True, cwd=REPO, env=env, timeout=120)


@pytest.mark.parametrize("quality", range(2, 7))
@pytest.mark.parametrize("dice", [1, 2, 3])
@pytest.mark.parametrize("bonus", [None, -1, 1])
def test_activation_json_contract(capsys, quality, dice, bonus):
    args = ["activation", "--quality", str(quality), "--dice", str(dice)]
    if bonus is not None:
        args += ["--bonus", str(bonus)]
    data = main_json(capsys, *args)
    assert set(data) == {"actions", "turnover"}
    assert len(data["actions"]) == dice + 1
    assert all(isinstance(p, float) for p in data["actions"]) and isinstance(data["turnover"], float)
    assert math.isclose(sum(data["actions"]), 1.0)
    # turnover = two or more failures = fewer than dice - 1 successes
    assert math.isclose(data["turnover"], sum(data["actions"][: max(0, dice - 1)]), abs_tol=1e-15)
    odds = activation(quality, dice, bonus or 0)
    assert data["actions"] == [float(p) for p in odds.actions]
    assert data["turnover"] == float(odds.turnover)


@pytest.mark.parametrize("n", range(1, 6))
@pytest.mark.parametrize("combat, target, modifier", [(2, 4, 1), (2, 4, None), (0, 6, -2), (5, 1, 3)])
def test_shoot_json_contract(capsys, n, combat, target, modifier):
    args = ["shoot", "--shooters", str(n), "--combat", str(combat), "--target-combat", str(target)]
    if modifier is not None:
        args += ["--modifier", str(modifier)]
    data = main_json(capsys, *args)
    assert list(data) == ["nothing", "beaten", "killed", "gruesome", "lose_shooter"]
    assert all(isinstance(v, float) for v in data.values())
    assert math.isclose(data["nothing"] + data["beaten"] + data["killed"] + data["gruesome"], 1.0)
    assert data == shoot(n, combat, target, modifier or 0).to_dict()
    assert data["lose_shooter"] == 1 / 36


def test_shoot_kobolds_against_the_ogre(capsys):
    five = main_json(capsys, "shoot", "--shooters", "5", "--combat", "2", "--target-combat", "4",
                     "--modifier", "1")
    assert five == {"nothing": 6 / 36, "beaten": 12 / 36, "killed": 7 / 36, "gruesome": 11 / 36,
                    "lose_shooter": 1 / 36}
    one = main_json(capsys, "shoot", "--shooters", "1", "--combat", "2", "--target-combat", "4",
                    "--modifier", "1")
    assert one["killed"] == 0 and one["gruesome"] == 0


def test_shoot_settings_flags(capsys):
    ordinary = main_json(capsys, "shoot", "--shooters", "1", "--combat", "2", "--target-combat", "4",
                         "--ordinary")
    assert ordinary["lose_shooter"] == 0
    raw = main_json(capsys, "shoot", "--shooters", "5", "--combat", "0", "--target-combat", "0",
                    "--raw-totals")
    assert raw == shoot(5, 0, 0, settings=Settings(total_floor=None)).to_dict()


def test_group_json(capsys):
    data = main_json(capsys, "group", "--leader-quality", "3", "--qualities", "4,4,4,4", "--dice", "2")
    assert set(data) == {"individual", "group"}
    leader = Model(3, leader=True)
    members = [Model(4)] * 4
    g = turn_odds(Turn([Group(leader, members, 2, 1)]))
    i = turn_odds(Turn([Solo(leader, 1)] + [Solo(m, 2) for m in members]))
    assert math.isclose(data["group"]["all_act"], g.all_act)
    assert math.isclose(data["group"]["order"], 2 / 3)
    assert math.isclose(data["individual"]["expected_actions"], i.expected_actions)
    assert data["group"]["all_act"] > data["individual"]["all_act"]
    big = main_json(capsys, "group", "--leader-quality", "3", "--qualities", ",".join(["4"] * 8),
                    "--dice", "2", "--large-groups", "--leader-bonus", "0")
    assert 0 < big["group"]["all_act"] < 1


def test_turn_json_exact_and_monte_carlo(capsys):
    exact = main_json(capsys, "turn", "3:2", "4:2", "3:1>4,4,5:3")
    plan = Turn([Solo(Model(3), 2), Solo(Model(4), 2),
                 Group(Model(3, leader=True), [Model(4), Model(4), Model(5)], 3, 1)])
    ref = turn_odds(plan)
    assert exact["method"] == "exact" and math.isclose(exact["expected_actions"], ref.expected_actions)
    assert math.isclose(sum(exact["actions"]), 1.0) and len(exact["models"]) == 6
    mc = main_json(capsys, "turn", "3:2", "4:2", "3:1>4,4,5:3", "--method", "mc", "--trials",
                   "20000", "--seed", "3")
    assert mc["method"] == "monte_carlo" and mc["seed"] == 3 and mc["trials"] == 20000
    lo, hi = mc["expected_actions_ci95"]
    assert lo < mc["expected_actions"] < hi


def test_best_dice_json(capsys):
    data = main_json(capsys, "best-dice", "--qualities", "3,3,4,5")
    assert data["dice"] == list(best_dice([3, 3, 4, 5]).dice) and data["dice"][-1] == 3


def test_text_output(capsys):
    for args in (["activation", "--quality", "4", "--dice", "3"],
                 ["shoot", "--shooters", "5", "--combat", "2", "--target-combat", "4", "--modifier", "1"],
                 ["group", "--leader-quality", "3", "--qualities", "3,3,3,4", "--dice", "3"],
                 ["turn", "3:2", "4:3"],
                 ["best-dice", "--qualities", "4,4"]):
        rc = cli.main(["sbh", *args])
        out, err = capsys.readouterr()
        assert rc == 0 and err == "" and out.strip()
    rc = cli.main(["sbh", "shoot", "--shooters", "5", "--combat", "2", "--target-combat", "4", "--modifier", "1"])
    out, _ = capsys.readouterr()
    assert "30.56%" in out and "50.00%" in out


BAD = [
    (["activation", "--quality", "7", "--dice", "2"], "argument --quality: must be between 2 and 6 (got '7')"),
    (["activation", "--quality", "1", "--dice", "2"], "argument --quality: must be between 2 and 6 (got '1')"),
    (["activation", "--quality", "4", "--dice", "0"], "argument --dice: must be between 1 and 3 (got '0')"),
    (["activation", "--quality", "4", "--dice", "4"], "argument --dice: must be between 1 and 3 (got '4')"),
    (["activation", "--quality", "x", "--dice", "2"], "argument --quality: must be an integer (got 'x')"),
    (["activation", "--quality", "4", "--dice", "2", "--bonus", "9"], "argument --bonus: must be between -3 and 3 (got '9')"),
    (["activation", "--dice", "2"], "required: --quality"),
    (["shoot", "--shooters", "6", "--combat", "2", "--target-combat", "4"], "argument --shooters: must be between 1 and 5 (got '6')"),
    (["shoot", "--shooters", "0", "--combat", "2", "--target-combat", "4"], "argument --shooters: must be between 1 and 5 (got '0')"),
    (["shoot", "--shooters", "2", "--combat", "-1", "--target-combat", "4"], "argument --combat"),
    (["shoot", "--shooters", "2", "--combat", "2", "--target-combat", "40"], "argument --target-combat: must be between 0 and 12 (got '40')"),
    (["shoot", "--shooters", "2", "--combat", "2", "--target-combat", "4", "--modifier", "x"], "argument --modifier: must be an integer (got 'x')"),
    (["shoot", "--shooters", "2", "--combat", "2", "--target-combat", "4", "--ordinary"], "argument --ordinary"),
    (["group", "--leader-quality", "3", "--qualities", "4,9", "--dice", "2"], "argument --qualities: must be between 2 and 6 (got '9')"),
    (["group", "--leader-quality", "3", "--qualities", "4", "--dice", "2"], "--qualities: must give 2 to 5 members"),
    (["group", "--leader-quality", "3", "--qualities", "4,4,4,4,4,4", "--dice", "2"], "(got '4,4,4,4,4,4')"),
    (["turn", "3:4"], "STEP 1 (3:4): dice must be between 1 and 3 (got 4)"),
    (["turn", "3:2", "3-4"], "STEP 2: must look like Q:D or LQ:LD>Q,Q,...:D (got '3-4')"),
    (["turn", "3:1>4:2"], "STEP 1 (3:1>4:2): members must hold 2 to 5"),
    (["turn", "3:1>4,4,4,4,4,4:2"], "STEP 1 (3:1>4,4,4,4,4,4:2): members must hold 2 to 5 models"),
    (["turn", "3:2", "--trials", "100"], "only with --method monte_carlo"),
    (["best-dice", "--qualities", "3,,4"], "argument --qualities"),
    ([], "required: SBH_COMMAND"),
    (["roll"], "invalid choice: 'roll'"),
]


@pytest.mark.parametrize("args, expected", BAD, ids=[" ".join(b[0]) or "none" for b in BAD])
def test_bad_flags_one_line_exit_2(capsys, args, expected):
    rc = cli.main(["sbh", *args])
    out, err = capsys.readouterr()
    assert rc == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err
    assert lines[0].startswith("mathhammer: error: ")
    assert expected in lines[0], lines[0]


def test_subprocess_exit_status_and_import_light():
    proc = run("activation", "--quality", "9", "--dice", "2", "--json")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == "mathhammer: error: argument --quality: must be between 2 and 6 (got '9')\n"
    proc = run("shoot", "--shooters", "5", "--combat", "2", "--target-combat", "4", "--modifier", "1", "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["gruesome"] == 11 / 36
    code = ("import sys, mathhammer.cli as c;"
            "c.main(['sbh', 'activation', '--quality', '3', '--dice', '2', '--json']);"
            "c.main(['sbh', 'turn', '3:2', '3:1>4,4:2', '--json']);"
            "sys.stderr.write(','.join(m for m in ('pandas', 'matplotlib', 'numba') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr

"""The command line: `mathhammer run`, `mathhammer demo`, and one-line errors with status 2."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mathhammer import cli
from mathhammer.errors import ExactNotApplicable

REPO = Path(__file__).resolve().parents[1]
SCRIPT = Path(sys.executable).parent / "mathhammer"
TRIALS = "20000"

SCENARIO = """\
[simulation]
trials = 1000000
seed = 1

[target]
name = "Heavy warjack"
def = 12
arm = 18
boxes = 30
base = "large"

[[attackers]]
name = "Heavy warjack"

[[attackers.weapons]]
name = "Fist"
type = "melee"
skill = 7
pow = 16
attacks = 2
rules = ["critical_knockdown"]

[[attackers]]
name = "Light warjack"

[[attackers.weapons]]
name = "Blade"
type = "melee"
skill = 6
pow = 12
attacks = 2
"""


def run(*args: str, cwd: Path | None = None, script: bool = False) -> subprocess.CompletedProcess:
    cmd = [str(SCRIPT)] if script else [sys.executable, "-m", "mathhammer"]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run(cmd + list(args), capture_output=True, text=True, cwd=cwd or REPO, env=env,
                          timeout=300)


@pytest.fixture
def scenario_file(tmp_path) -> Path:
    path = tmp_path / "scenario.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    return path


def check_json(stdout: str) -> dict:
    lines = stdout.strip().splitlines()
    assert len(lines) == 1, "--json prints one JSON object on one line"
    data = json.loads(lines[0])
    assert isinstance(data, dict)
    for key in ("method", "trials", "seed", "kill", "kill_ci95", "damage_mean", "damage_mean_ci95",
                "damage_pmf", "attacks"):
        assert key in data, key
    assert isinstance(data["kill"], float) and 0.0 <= data["kill"] <= 1.0
    lo, hi = data["kill_ci95"]
    assert lo - 1e-12 <= data["kill"] <= hi + 1e-12
    assert isinstance(data["damage_mean"], float)
    assert isinstance(data["damage_pmf"], list) and all(isinstance(p, float) for p in data["damage_pmf"])
    assert math.isclose(sum(data["damage_pmf"]), 1.0, abs_tol=1e-9)
    assert isinstance(data["attacks"], list) and data["attacks"]
    for i, a in enumerate(data["attacks"]):
        assert a["attack"] == i + 1
        assert isinstance(a["label"], str)
        for key in ("made", "hit", "crit", "damage_mean", "kill_after"):
            assert isinstance(a[key], float), key
        assert 0.0 <= a["crit"] <= a["hit"] <= a["made"] <= 1.0
    return data


# ------------------------------------------------------------------------ success paths
def test_run_json(scenario_file):
    proc = run("run", str(scenario_file), "--json", "--trials", TRIALS)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    data = check_json(proc.stdout)
    assert data["method"] == "monte_carlo"
    assert data["trials"] == 20000
    assert data["seed"] == 1  # from the file
    assert len(data["damage_pmf"]) == 31
    assert [a["label"] for a in data["attacks"]] == [
        "Heavy warjack / Fist #1", "Heavy warjack / Fist #2", "Light warjack / Blade #1", "Light warjack / Blade #2",
    ]
    # MAT 7 vs DEF 12: the first attack hits on 5+ (30/36).
    assert abs(data["attacks"][0]["hit"] - 30 / 36) < 0.02


def test_trials_and_seed_override(scenario_file):
    a = run("run", str(scenario_file), "--json", "--trials", "5000", "--seed", "123")
    b = run("run", str(scenario_file), "--json", "--seed", "123", "--trials", "5_000")
    c = run("run", str(scenario_file), "--json", "--trials", "5000", "--seed", "124")
    for proc in (a, b, c):
        assert proc.returncode == 0, proc.stderr
    da, db, dc = (json.loads(p.stdout) for p in (a, b, c))
    assert da["trials"] == 5000 and da["seed"] == 123
    assert da == db, "the same seed gives the same result"
    assert dc["seed"] == 124 and dc["damage_pmf"] != da["damage_pmf"]


def test_seed_drawn_and_reported_when_absent(tmp_path):
    path = tmp_path / "noseed.toml"
    path.write_text(SCENARIO.replace("seed = 1\n", ""), encoding="utf-8")
    first = run("run", str(path), "--json", "--trials", "3000")
    assert first.returncode == 0, first.stderr
    d1 = json.loads(first.stdout)
    assert isinstance(d1["seed"], int) and d1["seed"] >= 0
    again = run("run", str(path), "--json", "--trials", "3000", "--seed", str(d1["seed"]))
    assert json.loads(again.stdout) == d1, "the reported seed reproduces the run"


def test_method_exact(scenario_file):
    proc = run("run", str(scenario_file), "--json", "--method", "exact")
    assert proc.returncode == 0, proc.stderr
    exact = check_json(proc.stdout)
    assert exact["method"] == "exact"
    assert exact["trials"] is None
    assert exact["kill_ci95"] == [exact["kill"], exact["kill"]]
    assert math.isclose(exact["attacks"][0]["hit"], 30 / 36, rel_tol=1e-12)
    mc = json.loads(run("run", str(scenario_file), "--json", "--trials", TRIALS).stdout)
    lo, hi = mc["damage_mean_ci95"]
    width = hi - lo
    assert lo - width < exact["damage_mean"] < hi + width


def test_text_report(scenario_file):
    proc = run("run", str(scenario_file), "--trials", TRIALS)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Kill probability" in out
    assert "95% CI" in out
    assert "Expected damage" in out
    assert "20,000 trials" in out and "seed 1" in out
    assert "P(>=k)" in out
    assert "Heavy warjack / Fist #1" in out and "Light warjack / Blade #2" in out


def test_text_report_exact(scenario_file):
    proc = run("run", str(scenario_file), "--method", "exact")
    assert proc.returncode == 0, proc.stderr
    assert "exact" in proc.stdout and "Kill probability" in proc.stdout


def test_demo_text():
    proc = run("demo", "--trials", TRIALS)
    assert proc.returncode == 0, proc.stderr
    assert "Kill probability" in proc.stdout
    assert "seed 1" in proc.stdout


def test_demo_json_and_console_script():
    if not SCRIPT.exists():
        pytest.skip(f"console script not installed at {SCRIPT}")
    proc = run("demo", "--json", "--trials", TRIALS, "--seed", "9", script=True)
    assert proc.returncode == 0, proc.stderr
    data = check_json(proc.stdout)
    assert data["trials"] == 20000 and data["seed"] == 9
    assert len(data["damage_pmf"]) == 35  # the heavy warjack card: 34 boxes, 0 .. 34 marked
    # the demo's answer: a grid's cripple odds and best play
    assert set(data["cripple"]) == {"C", "H", "M", "L", "R"} and data["best_play"]


def test_examples_run(capsys, monkeypatch):
    """Every scenario example runs (the trade files of examples/trades: tests/test_trade_files.py),
    through the command line's entry point in this process (the script itself: the tests
    above)."""
    monkeypatch.chdir(REPO)
    for path in sorted((REPO / "examples").rglob("*.toml")):
        if path.parent.name == "trades":
            continue
        status = cli.main(["run", str(path.relative_to(REPO)), "--json", "--trials", "2000"])
        out, err = capsys.readouterr()
        assert status == 0, (path, err)
        check_json(out)


def test_help_and_version():
    proc = run("--help")
    assert proc.returncode == 0 and "run" in proc.stdout and "demo" in proc.stdout
    proc = run("run", "--help")
    assert proc.returncode == 0 and "--trials" in proc.stdout
    proc = run("--version")
    assert proc.returncode == 0 and "mathhammer" in proc.stdout


def test_cli_module_is_import_light():
    code = (
        "import sys, mathhammer.cli, mathhammer.scenario, mathhammer.result.text;"
        "bad = [m for m in ('pandas', 'matplotlib', 'numba') if m in sys.modules];"
        "print(','.join(bad))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == ""


def test_run_path_does_not_import_pandas(scenario_file):
    code = (
        "import sys, mathhammer.cli as c;"
        f"rc = c.main(['run', {str(scenario_file)!r}, '--trials', '1000', '--json']);"
        "sys.stderr.write(','.join(m for m in ('pandas', 'matplotlib') if m in sys.modules))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip() == ""


# ------------------------------------------------------------------------ bad input
def bad_file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


BAD = [
    ("missing-file", lambda d, f: ["run", str(d / "nope.toml")], "nope.toml: no such file"),
    ("directory", lambda d, f: ["run", str(d)], "is a directory"),
    ("toml-syntax", lambda d, f: ["run", bad_file(d, "[target\ndef = 1\n")], "invalid TOML"),
    ("bad-value", lambda d, f: ["run", bad_file(d, SCENARIO.replace("skill = 6", "skill = 45"))],
     "attackers[1].weapons[0].skill: must be between 0 and 30 (got 45)"),
    ("unknown-key", lambda d, f: ["run", bad_file(d, SCENARIO.replace("arm = 18", "armor = 18"))],
     "target.armor: unknown key; did you mean 'arm'?"),
    ("trials-negative", lambda d, f: ["run", f, "--trials", "-5"], "--trials"),
    ("trials-abc", lambda d, f: ["run", f, "--trials", "abc"], "argument --trials: must be an integer (got 'abc')"),
    ("trials-zero", lambda d, f: ["run", f, "--trials", "0"], "argument --trials: must be between 1 and 1000000000"),
    ("trials-huge", lambda d, f: ["run", f, "--trials", "1" + "0" * 12], "argument --trials: must be between 1"),
    ("trials-fraction", lambda d, f: ["run", f, "--trials", "1.5"], "argument --trials: must be an integer"),
    ("seed-negative", lambda d, f: ["run", f, "--seed=-1"], "argument --seed: must be between 0"),
    ("seed-abc", lambda d, f: ["demo", "--seed", "x"], "argument --seed: must be an integer"),
    ("method-unknown", lambda d, f: ["run", f, "--method", "bogus"], "argument --method: invalid choice"),
    ("unknown-command", lambda d, f: ["simulate", f], "invalid choice: 'simulate'"),
    ("run-without-file", lambda d, f: ["run"], "run needs SCENARIO.toml, or --attacker CARD and --target CARD"),
    ("unknown-flag", lambda d, f: ["run", f, "--trails", "5"], "unrecognized arguments"),
    ("demo-extra-argument", lambda d, f: ["demo", f], "unrecognized arguments"),
]


def check_one_line_error(proc: subprocess.CompletedProcess, expected: str) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert proc.stderr.endswith("\n")
    assert lines[0].startswith("mathhammer: error: "), lines[0]
    assert expected in lines[0], lines[0]
    assert proc.stdout == ""
    return lines[0]


@pytest.mark.parametrize("make_args, expected", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_in_process(tmp_path, scenario_file, capsys, make_args, expected):
    rc = cli.main(make_args(tmp_path, str(scenario_file)))
    out, err = capsys.readouterr()
    check_one_line_error(subprocess.CompletedProcess([], rc, out, err), expected)


@pytest.mark.parametrize(
    "name", ["missing-file", "bad-value", "trials-negative", "trials-abc", "unknown-command"]
)
def test_bad_input_subprocess(tmp_path, scenario_file, name):
    make_args, expected = next(b[1:] for b in BAD if b[0] == name)
    proc = run(*make_args(tmp_path, str(scenario_file)))
    check_one_line_error(proc, expected)


def test_bad_input_console_script(tmp_path):
    if not SCRIPT.exists():
        pytest.skip(f"console script not installed at {SCRIPT}")
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "x.toml").write_text(SCENARIO.replace("skill = 7", "skill = 45"), encoding="utf-8")
    proc = run("run", "scenarios/x.toml", cwd=tmp_path, script=True)
    line = check_one_line_error(proc, "")
    assert line == "mathhammer: error: scenarios/x.toml: attackers[0].weapons[0].skill: must be between 0 and 30 (got 45)"


def test_exact_not_applicable_is_one_line(scenario_file, capsys, monkeypatch):
    import mathhammer.exact

    def refuse(scenario, slots=None):
        raise ExactNotApplicable("Heavy warjack / Fist #1: damage grids are not supported by the exact engine")

    monkeypatch.setattr(mathhammer.exact, "exact_result", refuse)
    rc = cli.main(["run", str(scenario_file), "--method", "exact"])
    out, err = capsys.readouterr()
    check_one_line_error(subprocess.CompletedProcess([], rc, out, err), "not supported by the exact engine")


def test_multiline_reason_is_flattened(capsys, monkeypatch, scenario_file):
    import mathhammer.exact

    def refuse(scenario, slots=None):
        raise ExactNotApplicable("first line\nsecond line")

    monkeypatch.setattr(mathhammer.exact, "exact_result", refuse)
    rc = cli.main(["run", str(scenario_file), "--method", "exact"])
    out, err = capsys.readouterr()
    line = check_one_line_error(subprocess.CompletedProcess([], rc, out, err), "first line second line")
    assert line == "mathhammer: error: first line second line"


def test_main_returns_zero(scenario_file, capsys):
    assert cli.main(["run", str(scenario_file), "--trials", "1000", "--json"]) == 0
    check_json(capsys.readouterr().out)


# ------------------------------------------------------------------------ text report
def _report(scenario, **kw):
    from mathhammer import simulate
    from mathhammer.result.text import format_report

    result = simulate(scenario, **kw)
    return result, format_report(scenario, result)


def test_report_lists_every_attack_and_the_distribution():
    from mathhammer.scenario import loads_scenario

    scen = loads_scenario(SCENARIO, "inline.toml")
    result, text = _report(scen, trials=5000, seed=2)
    assert text.endswith("\n")
    assert f"Kill probability: {100 * result.kill:.2f}%" in text
    assert f"Expected damage:  {result.damage_mean:.3f}" in text
    assert "5,000 trials, seed 2" in text
    for slot in scen.attack_sequence():
        assert slot.label in text
    assert "30 (disabled)" in text
    table = text.split("Damage marked")[1].split("Attacks, in order")[0]
    assert "damage k" in table and "P(=k)" in table and "P(>=k)" in table


def test_report_exact_has_no_interval():
    from mathhammer.scenario import loads_scenario

    scen = loads_scenario(SCENARIO, "inline.toml")
    _, text = _report(scen, method="exact")
    assert "exact" in text and "95% CI" not in text


def test_report_groups_long_distributions():
    from mathhammer import Attacker, Scenario, Target, Weapon

    scen = Scenario(Target(10, 12, 300, base="huge"),
                    [Attacker("Colossal", [Weapon("Gun", "ranged", 6, 20, attacks=12, boosted_damage=True)])])
    _, text = _report(scen, trials=5000, seed=1)
    table = text.split("Damage marked")[1].split("Attacks, in order")[0]
    rows = [line for line in table.splitlines()[3:] if line.strip()]
    assert len(rows) <= 34
    assert any("-" in r.split()[0] for r in rows), "damage values are grouped into ranges"
    assert rows[-1].split()[0:2] == ["300", "(disabled)"]


def test_report_pow_dash():
    from mathhammer import Attacker, Scenario, Target, Weapon

    scen = Scenario(Target(10, 12), [Attacker("Netter", [Weapon("Net", "ranged", 6, None, rules={"knockdown"})])])
    _, text = _report(scen, method="exact")
    assert "POW -" in text and "Kill probability: 0.00%" in text


def test_grid_json_reports_cripple_odds_and_box_marks():
    proc = run("run", "examples/cards/heavy_warjack.toml", "--json", "--trials", "20000",
               "--seed", "1")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    from mathhammer import load_scenario

    target = load_scenario(REPO / "examples/cards/heavy_warjack.toml").target
    assert list(data["cripple"]) == list(target.letters)
    assert all(0.0 <= p <= 1.0 for p in data["cripple"].values())
    assert all(lo <= data["cripple"][x] <= hi for x, (lo, hi) in data["cripple_ci95"].items())
    assert [len(col) for col in data["box_marked"]] == [len(col) for col in target.card]
    last = data["attacks"][-1]["cripple_after"]
    assert last == pytest.approx(data["cripple"])
    text = run("run", "examples/cards/heavy_warjack.toml", "--trials", "20000", "--seed", "1")
    assert "Crippled at the end" in text.stdout and "Probability each box is marked" in text.stdout

"""Tidy pandas tables of a Result (mathhammer.result.frames), CSV / JSON export and ``run --csv``.

Frames are checked against the Result's own arrays and, for one attack, against hit and
damage probabilities enumerated here from the dice.
"""

from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import mathhammer as mh
from mathhammer.result import export, frames
from mathhammer.cli import main
from mathhammer.rules.vocabulary import GRID_SYSTEM_NAMES

REPO = Path(__file__).resolve().parents[1]
GRID = REPO / "examples" / "grid_feedback.toml"
ROUNDS = REPO / "examples" / "fire_and_corrosion.toml"
TRIALS = 20_000

SUMMARY_COLUMNS = ["metric", "value", "ci_low", "ci_high"]
FLOAT = "float64"


def one_attack(skill: int = 7, defense: int = 12, pow_: int = 12, arm: int = 14,
               boxes: int = 30) -> mh.Scenario:
    jack = mh.Attacker("Jack", [mh.Weapon("Fist", "melee", skill, pow_)])
    return mh.Scenario(mh.Target(defense=defense, arm=arm, boxes=boxes), [jack])


def two_attackers() -> mh.Scenario:
    heavy = mh.Attacker("Heavy", [mh.Weapon("Fist", "melee", 7, 16, attacks=2)])
    light = mh.Attacker("Light", [mh.Weapon("Blade", "melee", 6, 12, attacks=2)])
    return mh.Scenario(mh.Target(defense=12, arm=16, boxes=20), [heavy, light])


def enumerate_one_attack(skill, defense, pow_, arm, boxes):
    """P(hit) and the damage pmf of one attack, from the 36 x 36 dice outcomes.

    Attack roll 2d6: all ones miss, all sixes hit, else hit when skill + roll >= DEF.
    Damage roll 2d6 + POW - ARM (at least 0), capped at the boxes.
    """
    faces = range(1, 7)
    hit = 0
    for a, b in itertools.product(faces, faces):
        if (a, b) == (6, 6) or ((a, b) != (1, 1) and skill + a + b >= defense):
            hit += 1
    p_hit = hit / 36
    pmf = np.zeros(boxes + 1)
    pmf[0] += 1 - p_hit
    for a, b in itertools.product(faces, faces):
        pmf[min(boxes, max(0, a + b + pow_ - arm))] += p_hit / 36
    return p_hit, pmf


@pytest.fixture(scope="module")
def mc():
    return mh.simulate(two_attackers(), trials=TRIALS, seed=5)


@pytest.fixture(scope="module")
def grid():
    return mh.simulate(mh.load_scenario(GRID), trials=TRIALS, seed=1)


@pytest.fixture(scope="module")
def rounds_mc():
    return mh.simulate(mh.load_scenario(ROUNDS), trials=TRIALS, seed=2)


@pytest.fixture(scope="module")
def rounds_exact():
    return mh.simulate(mh.load_scenario(ROUNDS), method="exact")


def as_dict(summary: pd.DataFrame) -> dict[str, tuple[float, float, float]]:
    return {m: (v, lo, hi) for m, v, lo, hi in summary.itertuples(index=False)}


# ------------------------------------------------------------------------ summary contract
def check_summary_contract(s: pd.DataFrame) -> None:
    assert list(s.columns) == SUMMARY_COLUMNS
    assert pd.api.types.is_string_dtype(s["metric"])
    assert all(isinstance(m, str) for m in s["metric"])
    for c in ("value", "ci_low", "ci_high"):
        assert s[c].dtype == FLOAT, c
    assert s["metric"].is_unique
    assert list(s.index) == list(range(len(s)))


def test_summary_contract_single_round(mc):
    s = mc.summary()
    check_summary_contract(s)
    assert list(s["metric"]) == ["kill", "damage_mean", "damage_sd", "damage_median",
                                 "spent:Heavy", "spent:Light"]
    d = as_dict(s)
    assert d["kill"] == (mc.kill, *mc.kill_ci95)
    assert d["damage_mean"] == (mc.damage_mean, *mc.damage_mean_ci95)
    assert d["damage_sd"][0] == mc.damage_sd
    for metric in ("damage_sd", "damage_median"):
        assert math.isnan(d[metric][1]) and math.isnan(d[metric][2])
    # spent: a mean with no Monte Carlo interval
    assert d["spent:Heavy"][0] == mc.spent_by_attacker["Heavy"]
    assert math.isnan(d["spent:Heavy"][1])
    # intervals hold their value
    with_ci = s.dropna()
    assert ((with_ci["ci_low"] <= with_ci["value"]) & (with_ci["value"] <= with_ci["ci_high"])).all()
    assert (with_ci["ci_low"] < with_ci["ci_high"]).all()


def test_summary_median_is_the_lower_median(mc):
    pmf = mc.damage_pmf
    acc, median = 0.0, None
    for k, p in enumerate(pmf):
        acc += p
        if acc >= 0.5 - 1e-12:
            median = k
            break
    assert as_dict(mc.summary())["damage_median"][0] == median


def test_summary_rounds_and_effects(rounds_mc):
    r = rounds_mc
    s = r.summary()
    check_summary_contract(s)
    expected = (["kill", "damage_mean", "damage_sd", "damage_median"]
                + [f"kill_by_turn:{t}" for t in (1, 2, 3)]
                + [f"effect_damage:{e}" for e in r.effects]
                + [f"spent:{n}" for n in r.attacker_names])
    assert list(s["metric"]) == expected
    d = as_dict(s)
    for row in r.turn_rows:
        assert d[f"kill_by_turn:{row['turn']}"] == (row["kill"], *row["kill_ci95"])
    assert d["kill_by_turn:3"][0] == pytest.approx(r.kill, abs=1e-12)
    for e, fig in r.effects.items():
        assert d[f"effect_damage:{e}"][0] == fig["damage_mean"]
    assert d["effect_damage:fire"][0] > 0 and d["effect_damage:corrosion"][0] > 0


def test_summary_cripple_rows(grid):
    d = as_dict(grid.summary())
    assert [m for m in d if m.startswith("cripple:")] == [f"cripple:{x}" for x in grid.card.letters]
    for x, p in grid.cripple.items():
        assert d[f"cripple:{x}"] == (p, *grid.cripple_ci95[x])
    assert not any(m.startswith("kill_by_turn") for m in d), "one round: no per-round rows"


def test_summary_target_spent_and_tough_only_when_used(mc):
    metrics = list(mc.summary()["metric"])
    assert "target_spent" not in metrics and "tough_saves" not in metrics
    tough = mh.Scenario(mh.Target(defense=12, arm=14, boxes=5, rules=["tough"]),
                        [mh.Attacker("Jack", [mh.Weapon("Fist", "melee", 7, 16, attacks=3)])])
    r = mh.simulate(tough, method="exact")
    d = as_dict(r.summary())
    assert d["tough_saves"] == (r.tough_saves_total,) * 3 and r.tough_saves_total > 0
    assert list(d)[-1] == "tough_saves"


def test_summary_exact_points(rounds_exact):
    s = rounds_exact.summary()
    check_summary_contract(s)
    point = ~s["metric"].isin(["damage_sd", "damage_median"])
    assert (s.loc[point, "ci_low"] == s.loc[point, "value"]).all()
    assert (s.loc[point, "ci_high"] == s.loc[point, "value"]).all()
    assert s.loc[~point, ["ci_low", "ci_high"]].isna().all().all()


def test_exact_one_attack_against_enumeration():
    for skill, defense, pow_, arm in [(7, 12, 12, 14), (4, 14, 10, 15), (3, 17, 14, 12)]:
        p_hit, pmf = enumerate_one_attack(skill, defense, pow_, arm, 30)
        r = mh.simulate(one_attack(skill, defense, pow_, arm), method="exact")
        a = r.attack_table()
        assert a.loc[0, "hit"] == pytest.approx(p_hit, rel=1e-12)
        assert a.loc[0, "made"] == pytest.approx(1.0, rel=0, abs=1e-12)  # every edge summed: float noise
        dmg = r.damage_table()
        np.testing.assert_allclose(dmg["probability"], pmf, rtol=0, atol=1e-12)
        mean = float(np.arange(31) @ pmf)
        d = as_dict(r.summary())
        assert d["damage_mean"] == pytest.approx((mean,) * 3, rel=1e-12)
        assert a.loc[0, "damage_mean"] == pytest.approx(mean, rel=1e-12)
        assert d["kill"] == (0.0, 0.0, 0.0)


def test_monte_carlo_one_attack_near_enumeration():
    p_hit, pmf = enumerate_one_attack(7, 12, 12, 14, 30)
    r = mh.simulate(one_attack(), trials=TRIALS, seed=3)
    hit = r.attack_table().loc[0, "hit"]
    assert abs(hit - p_hit) < 4 * math.sqrt(p_hit * (1 - p_hit) / TRIALS)
    _, lo, hi = as_dict(r.summary())["damage_mean"]
    width = hi - lo
    assert lo - width < float(np.arange(31) @ pmf) < hi + width


# ------------------------------------------------------------------------ other tables
def test_damage_table(mc):
    t = mc.damage_table()
    assert list(t.columns) == ["damage", "probability", "at_least"]
    assert t["damage"].dtype == "int64" and list(t["damage"]) == list(range(mc.boxes + 1))
    assert t["probability"].sum() == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_array_equal(t["probability"], mc.damage_weights / TRIALS)
    reversed_cumsum = t["probability"][::-1].cumsum()[::-1]
    np.testing.assert_allclose(t["at_least"], reversed_cumsum, atol=1e-12)
    assert t["at_least"].iloc[0] == pytest.approx(1.0)
    assert t["at_least"].iloc[-1] == pytest.approx(mc.kill), "every box marked = disabled"


def test_attack_table(mc):
    t = mc.attack_table()
    assert list(t.columns) == list(frames.COLUMNS["attacks"])
    assert list(t["attack"]) == [1, 2, 3, 4]
    assert list(t["attacker"]) == ["Heavy", "Heavy", "Light", "Light"]
    assert list(t["round"]) == [1, 1, 1, 1]
    assert list(t["label"]) == list(mc.slot_labels)
    for row, d in zip(t.to_dict("records"), mc.attacks):
        for key, value in d.items():
            assert row[key] == value, key
    np.testing.assert_array_equal(t["hit"], mc.slot_weights[:, 1] / TRIALS)
    assert (t["crit"] <= t["hit"]).all() and (t["hit"] <= t["made"]).all()
    assert t.groupby("attacker", sort=False)["spent_mean"].sum().to_dict() == pytest.approx(
        mc.spent_by_attacker)


def test_attack_table_rounds(rounds_mc):
    t = rounds_mc.attack_table()
    assert list(t["round"]) == [1, 1, 1], "attacks in the first round only"
    every_round = mh.simulate(mh.Scenario(mh.Target(12, 16, 20), [
        mh.Attacker("Jack", [mh.Weapon("Fist", "melee", 7, 12)])], turns=3), method="exact")
    t = every_round.attack_table()
    assert list(t["round"]) == [1, 2, 3] and list(t["attack"]) == [1, 2, 3]
    np.testing.assert_allclose(t["kill_after"], every_round.kill_after)


def test_cripple_tables(grid):
    c = grid.cripple_table()
    assert list(c.columns) == ["letter", "system", "probability", "ci_low", "ci_high"]
    assert list(c["letter"]) == list(grid.card.letters)
    assert list(c["system"]) == [GRID_SYSTEM_NAMES[x] for x in grid.card.letters]
    assert dict(zip(c["letter"], c["probability"])) == grid.cripple
    assert {x: (lo, hi) for x, lo, hi in zip(c["letter"], c["ci_low"], c["ci_high"])} == \
        grid.cripple_ci95
    after = grid.cripple_after_table()
    assert list(after.columns) == ["attack", "label", "letter", "probability"]
    assert len(after) == grid.n_attacks * len(grid.card.letters)
    wide = after.pivot(index="attack", columns="letter", values="probability")[list(grid.card.letters)]
    np.testing.assert_array_equal(wide.to_numpy(), grid.cripple_after)
    last = after[after["attack"] == grid.n_attacks]
    assert dict(zip(last["letter"], last["probability"])) == pytest.approx(grid.cripple)


def test_box_table(grid):
    b = grid.box_table()
    assert list(b.columns) == ["column", "row", "letter", "probability"]
    assert len(b) == sum(len(col) for col in grid.card.columns)
    for (c, r, letter, p) in b.itertuples(index=False):
        assert letter == grid.card.columns[c - 1][r - 1]
        assert p == grid.box_marked[c - 1][r - 1]
    # a letter is crippled only if each of its boxes is marked
    for x, p in grid.cripple.items():
        assert p <= b.loc[b["letter"] == x, "probability"].min() + 1e-12
    wide = b.pivot(index="row", columns="column", values="probability")
    assert wide.shape == (max(len(col) for col in grid.card.columns), 6)


def test_by_turn_and_effects(rounds_exact):
    r = rounds_exact
    t = r.by_turn()
    assert list(t.columns) == ["turn", "kill", "ci_low", "ci_high"]
    assert list(t["turn"]) == [1, 2, 3]
    np.testing.assert_array_equal(t["kill"], r.kill_by_turn)
    assert (t["ci_low"] == t["kill"]).all() and (t["ci_high"] == t["kill"]).all()
    assert t["kill"].is_monotonic_increasing and t["kill"].iloc[-1] == pytest.approx(r.kill)

    e = r.effect_table()
    assert list(e.columns) == ["effect", "turn", "present", "applied", "damage_mean", "kill",
                               "burning_after", "target_spent_mean", "tough_saves"]
    assert len(e) == 3 * len(r.effects)
    for name, fig in r.effects.items():
        rows = e[e["effect"] == name].sort_values("turn")
        assert list(rows["turn"]) == [1, 2, 3]
        assert list(rows["present"]) == fig["present_by_turn"]
        assert list(rows["applied"]) == fig["applied_by_turn"]
        assert list(rows["damage_mean"]) == fig["damage_by_turn"]
        assert list(rows["kill"]) == fig["kill_by_turn"]
        assert list(rows["burning_after"]) == fig["burning_after"]
        assert rows["target_spent_mean"].sum() == pytest.approx(fig["target_spent_mean"], abs=1e-12)
        assert rows["tough_saves"].sum() == pytest.approx(fig["tough_saves"], abs=1e-12)
    by_effect = e.groupby("effect")["damage_mean"].sum()
    d = as_dict(r.summary())
    for name in r.effects:
        assert d[f"effect_damage:{name}"][0] == pytest.approx(by_effect[name], abs=1e-12)
    # only the attacks and the effects mark damage
    assert r.damage_mean == pytest.approx(r.attack_table()["damage_mean"].sum() + by_effect.sum())
    assert (e["applied"] <= e["present"] + 1e-15).all()


def test_by_turn_monte_carlo_intervals(rounds_mc):
    t = rounds_mc.by_turn()
    assert ((t["ci_low"] <= t["kill"]) & (t["kill"] <= t["ci_high"])).all()
    assert [tuple(x) for x in t[["ci_low", "ci_high"]].to_numpy()] == \
        [tuple(r["kill_ci95"]) for r in rounds_mc.turn_rows]


def test_tables_that_do_not_apply_are_empty(mc):
    for method, name in [("cripple_table", "cripple"), ("cripple_after_table", "cripple_after"),
                         ("box_table", "boxes"), ("by_turn", "by_turn"),
                         ("effect_table", "effects")]:
        frame = getattr(mc, method)()
        assert frame.empty, method
        assert list(frame.columns) == list(frames.COLUMNS[name]), method
        assert [str(t) for t in frame.dtypes] == [str(pd.Series([], dtype=d).dtype)
                                                  for d in frames.COLUMNS[name].values()]
    assert list(mc.tables()) == ["summary", "damage", "attacks"]


def test_tables_keys_and_methods(grid, rounds_mc):
    assert list(grid.tables()) == ["summary", "damage", "attacks", "cripple", "cripple_after",
                                   "boxes"]
    assert list(rounds_mc.tables()) == ["summary", "damage", "attacks", "by_turn", "effects"]
    methods = {"summary": "summary", "damage": "damage_table", "attacks": "attack_table",
               "cripple": "cripple_table", "cripple_after": "cripple_after_table",
               "by_turn": "by_turn", "effects": "effect_table", "boxes": "box_table"}
    for r in (grid, rounds_mc):
        for name, frame in r.tables().items():
            pd.testing.assert_frame_equal(frame, getattr(r, methods[name])())


@pytest.mark.parametrize("name", ["grid_feedback", "fire_and_corrosion", "hazards",
                                  "ranged_cover_infantry"])
def test_table_names_known_before_simulating(name):
    scen = mh.load_scenario(REPO / "examples" / f"{name}.toml")
    r = mh.simulate(scen, trials=2000, seed=1)
    assert frames.table_names(scen) == list(r.tables())


# ------------------------------------------------------------------------ files
def read_back(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, keep_default_na=False, na_values=[""])


def check_files(result, directory: Path, paths) -> None:
    frames = result.tables()
    assert [Path(p) for p in paths] == [directory / f"{n}.csv" for n in frames]
    for name, frame in frames.items():
        back = read_back(directory / f"{name}.csv")
        # dtypes: str columns read back as str (pandas 3) or object (pandas 2)
        pd.testing.assert_frame_equal(back, frame, check_dtype=False, check_exact=False,
                                      rtol=1e-14, atol=0)
        assert list(back.columns) == list(frame.columns)


def test_to_csv_round_trip_and_no_overwrite(grid, tmp_path):
    out = tmp_path / "new" / "dir"
    paths = grid.to_csv(out)
    check_files(grid, out, paths)
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    before = (out / "summary.csv").read_bytes()
    with pytest.raises(mh.InputError) as info:
        grid.to_csv(out)
    msg = str(info.value)
    assert "\n" not in msg and "summary.csv" in msg and "overwrite=True" in msg
    assert out.name in msg
    assert (out / "summary.csv").read_bytes() == before
    assert grid.to_csv(out, overwrite=True) == paths
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_write_csv_checks_every_file_before_writing(rounds_mc, tmp_path):
    (tmp_path / "effects.csv").write_text("user data", encoding="utf-8")
    with pytest.raises(mh.InputError, match="effects.csv"):
        export.write_csv(rounds_mc, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["effects.csv"], "nothing written"
    assert (tmp_path / "effects.csv").read_text(encoding="utf-8") == "user data"
    # a non-empty directory without clashes is fine
    (tmp_path / "effects.csv").unlink()
    (tmp_path / "other.csv").write_text("x", encoding="utf-8")
    paths = export.write_csv(rounds_mc, tmp_path)
    check_files(rounds_mc, tmp_path, paths)


def test_write_csv_into_a_file_is_an_input_error(mc, tmp_path):
    f = tmp_path / "file"
    f.write_text("x", encoding="utf-8")
    with pytest.raises(mh.InputError, match="is not a directory"):
        mc.to_csv(f)
    with pytest.raises(mh.InputError, match="cannot create"):
        mc.to_csv(f / "sub")


def test_to_json(mc, tmp_path):
    text = mc.to_json()
    assert isinstance(text, str) and json.loads(text) == json.loads(json.dumps(mc.to_dict()))
    path = tmp_path / "result.json"
    assert mc.to_json(path) == path
    assert json.loads(path.read_text(encoding="utf-8")) == json.loads(text)
    with pytest.raises(mh.InputError, match="overwrite=True"):
        mc.to_json(path)
    with pytest.raises(mh.InputError, match="is a directory"):
        mc.to_json(tmp_path)
    mc.to_json(path, overwrite=True)


def test_result_module_does_not_import_pandas():
    code = ("import sys, mathhammer.result, mathhammer.simulation;"
            "print('pandas' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"


# ------------------------------------------------------------------------ command line
def cli(argv, capsys):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_run_csv_writes_every_table(tmp_path, capsys):
    out = tmp_path / "out"
    argv = ["run", ROUNDS, "--trials", TRIALS, "--seed", "1", "--csv", out]
    rc, stdout, stderr = cli(argv, capsys)
    assert rc == 0, stderr
    assert "Kill probability" in stdout
    expected = mh.simulate(mh.load_scenario(ROUNDS), trials=TRIALS, seed=1)
    names = ["summary", "damage", "attacks", "by_turn", "effects"]
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{n}.csv" for n in names)
    check_files(expected, out, [out / f"{n}.csv" for n in names])
    assert stderr.strip() == f"mathhammer: wrote 5 tables to {out}: " + \
        ", ".join(f"{n}.csv" for n in names)

    # again: refused, one line, nothing printed or written
    stamp = {p.name: p.stat().st_mtime_ns for p in out.iterdir()}
    rc, stdout, stderr = cli(argv, capsys)
    assert rc == 2 and stdout == ""
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mathhammer: error: --csv: ")
    assert "summary.csv" in lines[0] and "--force" in lines[0] and str(out) in lines[0]
    assert {p.name: p.stat().st_mtime_ns for p in out.iterdir()} == stamp

    # --force overwrites, with other settings
    rc, stdout, stderr = cli(argv[:-4] + ["--seed", "2", "--csv", out, "--force", "--json"],
                             capsys)
    assert rc == 0, stderr
    data = json.loads(stdout)
    assert data["seed"] == 2
    assert read_back(out / "summary.csv")["value"].iloc[0] == pytest.approx(data["kill"], rel=1e-14)


def test_run_csv_grid_exact_and_demo(tmp_path, capsys):
    out = tmp_path / "grid"
    rc, _, err = cli(["run", GRID, "--trials", TRIALS, "--seed", "1", "--csv", out], capsys)
    assert rc == 0, err
    grid = mh.simulate(mh.load_scenario(GRID), trials=TRIALS, seed=1)
    check_files(grid, out, [out / f"{n}.csv" for n in grid.tables()])

    rc, _, err = cli(["run", GRID, "--csv", out, "--trials", "1000"], capsys)
    assert rc == 2 and "boxes.csv" in err and len(err.splitlines()) == 1

    demo = tmp_path / "demo"
    rc, _, err = cli(["demo", "--trials", "2000", "--seed", "3", "--csv", demo], capsys)
    assert rc == 0, err
    assert (demo / "summary.csv").exists() and (demo / "attacks.csv").exists()


def test_run_csv_bad_directory(tmp_path, capsys):
    f = tmp_path / "file.txt"
    f.write_text("x", encoding="utf-8")
    rc, out, err = cli(["run", ROUNDS, "--trials", "1000", "--csv", f], capsys)
    assert rc == 2 and out == ""
    assert err.splitlines() == [f"mathhammer: error: --csv: is not a directory (got '{f}')"]
    rc, out, err = cli(["run", ROUNDS, "--trials", "1000", "--csv", ""], capsys)
    assert rc == 2 and "--csv: is empty: give the path of a folder" in err


def test_effects_list_only_what_can_happen_in_the_scenario():
    # docs/rules.md 4: a fire weapon against a target in an acid bath: fire (the weapon) and
    # corrosion (the hazard) can burn it, quicksand cannot; a target resisting fire loses it
    from mathhammer import Attacker, Scenario, Target, Weapon, simulate

    gun = Attacker("Gun", [Weapon("Flamer", "ranged", 6, 12, rules={"fire"})])
    scen = Scenario(Target(defense=12, arm=14, boxes=10, terrain={"acid_bath"}), [gun], turns=2)
    assert scen.possible_effects == ("fire", "corrosion")
    res = simulate(scen, trials=5000, seed=1)
    assert list(res.effects) == ["fire", "corrosion"]
    assert sorted(set(res.effect_table()["effect"])) == ["corrosion", "fire"]
    assert [m for m in res.summary()["metric"] if m.startswith("effect_damage:")] == [
        "effect_damage:fire", "effect_damage:corrosion"]
    resistant = Scenario(Target(defense=12, arm=14, boxes=10, terrain={"quicksand"},
                                resist={"fire"}), [gun], turns=2)
    assert resistant.possible_effects == ("quicksand",)

"""Loadout comparisons (``mathhammer.compare``) and the ``compare`` and ``sweep`` commands."""

from __future__ import annotations

import importlib
import json
import math

import pandas as pd
import pytest

from mathhammer import Attacker, Comparison, InputError, Scenario, Target, Weapon, compare, simulate
from mathhammer.montecarlo._kernels.driver import CHUNK
from mathhammer.cli import main
from mathhammer import common_stride

sweep_module = importlib.import_module("mathhammer.studies.sweeps")

TARGET = Target(defense=12, arm=18, boxes=10)


def loadout(pow_: int, focus: int = 0) -> Scenario:
    return Scenario(TARGET, [Attacker("Jack", [Weapon("Fist", "melee", 7, pow_, attacks=2)],
                                      focus=focus)])


TRIALS = 4 * CHUNK  # four paired chunks


# ---------------------------------------------------------------------------- API
def test_the_harder_hitter_wins_clearly():
    c = compare({"POW 16": loadout(16), "POW 12": loadout(12)}, trials=TRIALS, seed=1)
    assert isinstance(c, Comparison) and c.labels == ("POW 16", "POW 12")
    for metric in ("kill", "damage_mean"):
        b = c.best[metric]
        assert (b["best"], b["runner_up"], b["clear"], b["method"]) == (
            "POW 16", "POW 12", True, "paired chunks")
        assert b["ci95"][0] > 0
    assert c.best["kill"]["verdict"].startswith("POW 16 kills more often than POW 12: +")
    assert "95% CI +" in c.best["kill"]["verdict"]
    assert c.best["damage_mean"]["verdict"].startswith("POW 16 deals more damage on average")
    # the order given does not matter
    flipped = compare({"POW 12": loadout(12), "POW 16": loadout(16)}, trials=TRIALS, seed=1)
    assert flipped.best["kill"]["best"] == "POW 16"
    assert flipped.best["kill"]["difference"] == c.best["kill"]["difference"]


def test_every_loadout_runs_with_the_same_seed_and_stride():
    a, b = loadout(16), loadout(14, focus=2)
    c = compare({"A": a, "B": b}, trials=TRIALS, seed=5)
    st = common_stride([a, b])
    assert (c.seed, c.trials, c.stride) == (5, TRIALS, st)
    for label, s in (("A", a), ("B", b)):
        res = simulate(s, trials=TRIALS, seed=5, stride=st)
        assert c.results[label].kill == res.kill
        assert c.table.loc[c.table["metric"] == "kill", label].item() == res.kill


def test_the_difference_interval_covers_the_exact_difference():
    scen = {"POW 16": loadout(16), "POW 15": loadout(15), "POW 13": loadout(13)}
    exact = compare(scen, method="exact")
    mc = compare(scen, trials=TRIALS, seed=11)
    for metric in ("kill", "damage_mean"):
        e, m = exact.best[metric], mc.best[metric]
        assert (e["best"], e["runner_up"]) == (m["best"], m["runner_up"]) == ("POW 16", "POW 15")
        lo, hi = m["ci95"]
        assert lo <= e["difference"] <= hi
        # common random numbers: far narrower than the intervals of the two figures
        ra = mc.results["POW 16"]
        single = (ra.kill_ci95[1] - ra.kill_ci95[0]) if metric == "kill" else (
            ra.damage_mean_ci95[1] - ra.damage_mean_ci95[0])
        assert hi - lo < single


def test_every_loadout_gets_its_verdict_against_the_best():
    """Three loadouts: the best is compared with each of the other two (runner-up first),
    each pair with its own paired difference and interval, covering the exact one."""
    scen = {"POW 13": loadout(13), "POW 16": loadout(16), "POW 15": loadout(15)}
    exact = compare(scen, method="exact")
    mc = compare(scen, trials=TRIALS, seed=11)
    for metric in ("kill", "damage_mean"):
        e, m = exact.best[metric], mc.best[metric]
        assert [v["loadout"] for v in e["versus"]] == [v["loadout"] for v in m["versus"]] == [
            "POW 15", "POW 13"]
        for ev, mv in zip(e["versus"], m["versus"]):
            other = ev["loadout"]
            d = (getattr(exact.results["POW 16"], metric)
                 - getattr(exact.results[other], metric))
            assert ev["difference"] == pytest.approx(d, abs=1e-12)
            assert mv["ci95"][0] <= ev["difference"] <= mv["ci95"][1]
            assert mv["method"] == "paired chunks" and ev["method"] == "exact"
            assert mv["verdict"].startswith("POW 16 ") and f" {other}: +" in mv["verdict"]
        # the runner-up's figures are those of the first pair; the verdict joins both
        assert {k: m[k] for k in ("difference", "ci95", "clear")} == {
            k: m["versus"][0][k] for k in ("difference", "ci95", "clear")}
        assert m["verdict"] == "; ".join(v["verdict"] for v in m["versus"])
    assert mc.best["kill"]["versus"][1]["clear"] is True  # POW 16 against POW 13: clear
    assert mc.verdicts() == [v["verdict"] for b in mc.best.values() for v in b["versus"]]
    assert len(mc.verdicts()) == 4


def test_a_loadout_level_with_the_best_has_no_clear_difference_the_other_a_clear_one():
    """The same two attackers in either order (one distribution, other dice) and a weaker
    third: against the best, the first is "no clear difference" (its interval spans 0),
    the third clearly worse; the text says both."""
    jack = Attacker("Jack", [Weapon("Fist", "melee", 7, 16, attacks=2)])
    gun = Attacker("Gun", [Weapon("Cannon", "ranged", 6, 14, attacks=2)])
    weak = Attacker("Jack", [Weapon("Fist", "melee", 7, 10, attacks=2)])
    c = compare({"jack first": Scenario(TARGET, [jack, gun]),
                 "gun first": Scenario(TARGET, [gun, jack]),
                 "weak": Scenario(TARGET, [weak, gun])}, trials=TRIALS, seed=1)
    for metric, what in (("kill", "kill chance"), ("damage_mean", "mean damage")):
        level, worse = c.best[metric]["versus"]
        assert level["loadout"] in ("jack first", "gun first") and worse["loadout"] == "weak"
        assert level["ci95"][0] < 0 < level["ci95"][1] and level["clear"] is False
        assert level["verdict"].startswith(f"no clear difference in {what} between ")
        assert worse["ci95"][0] > 0 and worse["clear"] is True
        assert worse["verdict"].startswith(f"{c.best[metric]['best']} ")
        assert worse["verdict"].endswith(")") and " than weak: +" in worse["verdict"]
        assert level["verdict"] in str(c) and worse["verdict"] in str(c)


def test_exact_comparison_is_exact():
    c = compare({"POW 16": loadout(16), "POW 12": loadout(12)}, method="exact")
    d = simulate(loadout(16), method="exact").kill - simulate(loadout(12), method="exact").kill
    b = c.best["kill"]
    assert b["difference"] == pytest.approx(d, abs=1e-15) and b["ci95"] == (b["difference"],) * 2
    assert b["method"] == "exact" and b["clear"] is True
    assert b["verdict"] == f"POW 16 kills more often than POW 12: {100 * d:+.1f} percentage points (exact)"
    assert (c.trials, c.seed, c.stride) == (None, None, 0)
    same = compare({"A": loadout(16), "B": loadout(16)}, method="exact")
    assert same.best["kill"]["verdict"] == "no difference: A and B kill equally often (exact)"


def test_no_clear_difference_when_the_interval_straddles_zero():
    c = compare({"A": loadout(16), "B": loadout(16)}, trials=TRIALS, seed=2)
    assert c.best["kill"]["clear"] is False
    assert c.best["kill"]["verdict"] == "no difference: A and B kill equally often on the same dice"
    # The same two attackers in either order: the same distribution (the exact difference is
    # 0), but other dice for each attack, so the paired interval straddles 0.
    jack = Attacker("Jack", [Weapon("Fist", "melee", 7, 16, attacks=2)])
    gun = Attacker("Gun", [Weapon("Cannon", "ranged", 6, 14, attacks=2)])
    pair = {"jack first": Scenario(TARGET, [jack, gun]), "gun first": Scenario(TARGET, [gun, jack])}
    exact = compare(pair, method="exact")
    assert all(abs(b["difference"]) < 1e-12 and b["clear"] is False for b in exact.best.values())
    c = compare(pair, trials=TRIALS, seed=1)
    for metric, what in (("kill", "kill chance"), ("damage_mean", "mean damage")):
        b = c.best[metric]
        assert b["ci95"][0] < 0 < b["ci95"][1] and b["clear"] is False
        assert b["verdict"].startswith(f"no clear difference in {what} between ")
        assert "(95% CI -" in b["verdict"]


def test_tables_and_exports():
    c = compare({"POW 16": loadout(16), "POW 12": loadout(12)}, trials=TRIALS, seed=3)
    assert list(c.table.columns) == ["metric", "POW 16", "POW 12"]
    assert list(c.table["metric"])[:4] == ["kill", "damage_mean", "damage_sd", "damage_median"]
    assert list(c.long.columns) == ["loadout", "metric", "value", "ci_low", "ci_high"]
    wide = c.wide()
    assert list(wide.columns)[:4] == ["metric", "POW 16", "POW 16 ci_low", "POW 16 ci_high"]
    lo, hi = c.results["POW 16"].kill_ci95
    assert wide.loc[wide["metric"] == "kill", "POW 16 ci_low"].item() == lo
    d = json.loads(json.dumps(c.to_dict(), allow_nan=False))
    assert d["loadouts"] == ["POW 16", "POW 12"] and d["best"]["kill"]["best"] == "POW 16"
    assert d["figures"]["POW 12"]["damage_sd"]["ci95"] == [None, None]
    text = str(c)
    assert "POW 16" in text and c.best["kill"]["verdict"] in text and "seed 3" in text


def test_labels_of_a_sequence_and_attackers_that_differ():
    other = Scenario(TARGET, [Attacker("Brute", [Weapon("Axe", "melee", 6, 17)])])
    c = compare([loadout(16), other], trials=TRIALS, seed=4)
    assert c.labels == ("loadout 1", "loadout 2")
    row = c.table.set_index("metric")
    assert math.isnan(row.loc["spent:Brute", "loadout 1"])
    assert row.loc["spent:Jack", "loadout 1"] == 0.0


def test_an_optimised_loadout_is_still_paired():
    # policy = "optimize": the policy is chosen first, then run on the common dice
    opt = Scenario(TARGET, [Attacker("Jack", [Weapon("Fist", "melee", 7, 15, attacks=2)],
                                     focus=2, policy="optimize")])
    c = compare({"optimised": opt, "POW 16": loadout(16)}, trials=TRIALS, seed=6)
    res = c.results["optimised"]
    assert res.stride == c.stride > 0 and res.optimizer is not None
    assert c.best["kill"]["ci95"] is not None and c.best["kill"]["method"] == "paired chunks"


def test_compare_refusals():
    with pytest.raises(InputError, match="at least two loadouts"):
        compare({"A": loadout(16)})
    with pytest.raises(InputError, match="at least two loadouts"):
        compare([loadout(16)])
    with pytest.raises(InputError, match="label"):
        compare({"": loadout(16), "B": loadout(12)})
    with pytest.raises(InputError, match="must be a mathhammer.Scenario"):
        compare({"A": loadout(16), "B": "b.toml"})
    with pytest.raises(InputError, match="method"):
        compare({"A": loadout(16), "B": loadout(12)}, method="quick")


def test_a_single_chunk_gives_no_interval():
    c = compare({"POW 16": loadout(16), "POW 12": loadout(12)}, trials=20_000, seed=1)
    b = c.best["kill"]
    assert b["ci95"] is None and b["clear"] is None and "no interval" in b["verdict"]


# ---------------------------------------------------------------------------- CLI
SCENARIO = """\
[simulation]
trials = 40000
seed = 1

[target]
def = 12
arm = 18
boxes = 10

[[attackers]]
name = "Jack"

[[attackers.weapons]]
name = "Fist"
type = "melee"
skill = 7
pow = {pow}
attacks = 2
"""


@pytest.fixture()
def files(tmp_path):
    a, b = tmp_path / "fist16.toml", tmp_path / "fist12.toml"
    a.write_text(SCENARIO.format(pow=16))
    b.write_text(SCENARIO.format(pow=12))
    return a, b


def _one_line_error(capsys, code):
    out = capsys.readouterr()
    assert code == 2 and out.out == ""
    lines = out.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mathhammer: error: ")
    return lines[0]


def test_cli_compare(files, capsys):
    a, b = files
    assert main(["compare", str(a), str(b), "--trials", str(TRIALS)]) == 0
    out = capsys.readouterr().out
    assert "fist16 kills more often than fist12" in out and "95% CI" in out
    assert main(["compare", str(a), str(b), "--label", "A", "--label", "B", "--json",
                 "--method", "exact"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["loadouts"] == ["A", "B"] and d["best"]["kill"]["method"] == "exact"


def test_cli_compare_three_loadouts_text_json_and_figure(files, tmp_path, capsys):
    """``mathhammer compare`` of three files: a verdict for each loadout against the best in
    the text, the JSON and the --plot figure's panels (the title names the best; under each
    other loadout's name, its difference from the best and the interval, as the JSON has it)."""
    import matplotlib

    matplotlib.use("Agg")
    from mathhammer.plots import compare_figure

    a, b = files
    c = tmp_path / "fist14.toml"
    c.write_text(SCENARIO.format(pow=14))
    argv = ["compare", str(a), str(b), str(c), "--trials", str(TRIALS)]
    png = tmp_path / "three.png"
    assert main([*argv, "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    for other in ("fist14", "fist12"):
        assert f"fist16 kills more often than {other}: +" in out
        assert f"fist16 deals more damage on average than {other}: +" in out
    assert out.count("95% CI") == 4 and png.stat().st_size > 0
    assert main([*argv, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    for metric in ("kill", "damage_mean"):
        versus = d["best"][metric]["versus"]
        assert [v["loadout"] for v in versus] == ["fist14", "fist12"]
        assert all(v["clear"] is True and v["ci95"][0] > 0 for v in versus)
    cmp = compare({"fist16": loadout(16), "fist12": loadout(12), "fist14": loadout(14)}, trials=TRIALS, seed=1)
    figure = compare_figure(cmp)
    for ax, metric in zip(figure.axes, ("kill", "damage_mean")):
        assert "best: fist16" in ax.get_title()
        ticks = {t.get_text().split("\n")[0]: t.get_text() for t in ax.get_yticklabels()}
        assert ticks["fist16"] == "fist16"  # the best: no difference under it
        scale, digits = (100, 1) if metric == "kill" else (1, 2)
        for v in cmp.best[metric]["versus"]:
            lo, hi = v["ci95"]
            want = (f"{-v['difference'] * scale:+.{digits}f}" + (" pts" if metric == "kill" else "")
                    + f" ({-hi * scale:+.{digits}f} to {-lo * scale:+.{digits}f})")
            assert ticks[v["loadout"]] == f"{v['loadout']}\n{want}"


@pytest.mark.parametrize("extra, message", [
    (["--label", "A"], "--label: give one per scenario file"),
    (["--label", "A", "--label", "A"], "--label: 'A' is given twice"),
    (["--trials", "0"], "trials"),
])
def test_cli_compare_errors(files, capsys, extra, message):
    a, b = files
    line = _one_line_error(capsys, main(["compare", str(a), str(b), *extra]))
    assert message in line
    line = _one_line_error(capsys, main(["compare", str(a)]))
    assert "at least two" in line


def test_cli_sweep_table_json_and_csv(files, capsys):
    a, _ = files
    assert main(["sweep", str(a), "--vary", "target.arm=16:18", "--vary", "target.def=12,14"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("kill over target.arm x target.def (6 points; Monte Carlo, 40,000 "
                          "trials, seed 1")
    assert "target.arm \\ target.def" in out and "%" in out
    assert main(["sweep", str(a), "--vary", "target.arm=16:17", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["vary"] == {"target.arm": [16, 17]} and d["seed"] == 1
    assert d["rows"][0]["metric"] == "kill" and d["columns"][0] == "target.arm"
    assert main(["sweep", str(a), "--vary", "target.arm=16", "--csv", "--method", "exact"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "target.arm,metric,value,ci_low,ci_high" and lines[1].startswith("16,kill,")


def test_cli_sweep_loadouts(files, capsys):
    a, b = files
    assert main(["sweep", str(a), str(b), "--vary", "target.arm=16:17", "--metric",
                 "damage_mean"]) == 0
    out = capsys.readouterr().out
    assert "loadout = fist16" in out and "loadout = fist12" in out


@pytest.mark.parametrize("vary, message", [
    ("target.armr=16:18", "--vary: target has no key 'armr'; did you mean 'target.arm'?"),
    ("target.arm=16:60", "target.arm: must be between 0 and 50 (got 51)"),
    ("target.arm", "--vary: must be PATH=VALUES"),
    ("target.arm=18:16", "--vary: the range 18:16 is empty"),
    ("simulation.seed=1:3", "--vary: simulation.seed cannot be varied"),
])
def test_cli_sweep_errors(files, capsys, vary, message):
    a, _ = files
    line = _one_line_error(capsys, main(["sweep", str(a), "--vary", vary]))
    assert message in line


def test_cli_sweep_interrupted_then_resumed(files, capsys, tmp_path, monkeypatch):
    a, _ = files
    out = tmp_path / "arm.csv"
    args = ["sweep", str(a), "--vary", "target.arm=15:18", "--out", str(out)]
    real = sweep_module.evaluate_point
    calls = []

    def interrupt_third(*xs):
        if len(calls) == 2:
            raise KeyboardInterrupt
        calls.append(xs[0].target.arm)
        return real(*xs)

    monkeypatch.setattr(sweep_module, "evaluate_point", interrupt_third)
    assert main(args) == 130
    err = capsys.readouterr().err
    assert "interrupted after 2 of 4 points" in err and "--resume" in err
    monkeypatch.setattr(sweep_module, "evaluate_point", real)
    assert "exists" in _one_line_error(capsys, main(args))  # never overwritten
    assert main([*args, "--resume", "--csv"]) == 0
    resumed = capsys.readouterr().out
    assert main(["sweep", str(a), "--vary", "target.arm=15:18", "--csv"]) == 0
    assert capsys.readouterr().out == resumed
    assert pd.read_csv(out)["target.arm"].drop_duplicates().tolist() == [15, 16, 17, 18]
    line = _one_line_error(capsys, main([*args, "--resume", "--trials", "1000"]))
    assert "--resume: the file holds another sweep (trials 40000 there, 1000 now)" in line
    line = _one_line_error(capsys, main(["sweep", str(a), "--vary", "target.arm=15",
                                         "--resume"]))
    assert "--resume needs --out" in line
    line = _one_line_error(capsys, main(["sweep", str(a), "--vary", "target.arm=15",
                                         "--metric", "kil"]))
    assert "--metric: is not a figure of this sweep" in line


def test_the_figure_paints_a_winner_only_where_the_verdict_is_clear():
    """With no clear difference no bar is drawn as the best; a clear one is. Axis and title
    in a player's words, not the figure's key."""
    import matplotlib

    matplotlib.use("Agg")
    from mathhammer.plots import plot_compare
    from mathhammer.plots._common import KILL_COLOR

    jack = Attacker("Jack", [Weapon("Fist", "melee", 7, 16, attacks=2)])
    gun = Attacker("Gun", [Weapon("Cannon", "ranged", 6, 14, attacks=2)])
    pair = {"jack first": Scenario(TARGET, [jack, gun]), "gun first": Scenario(TARGET, [gun, jack])}
    unclear = compare(pair, trials=TRIALS, seed=1)
    strong = Attacker("Jack", [Weapon("Fist", "melee", 7, 16, attacks=2)])
    weak = Attacker("Jack", [Weapon("Fist", "melee", 7, 12, attacks=2)])
    clear = compare({"POW 16": Scenario(TARGET, [strong]), "POW 12": Scenario(TARGET, [weak])}, method="exact")
    red = matplotlib.colors.to_rgba(KILL_COLOR)
    for comparison, painted in ((unclear, 0), (clear, 1)):
        ax = plot_compare(comparison, "kill")
        assert sum(p.get_facecolor() == red for p in ax.patches) == painted
        other = [t.get_text() for t in ax.get_yticklabels() if "\n" in t.get_text()]
        assert len(other) == 1 and ("no clear difference" in other[0]) == (not painted)
        assert ("no clear best" in ax.get_title()) == (not painted)
        assert ax.get_xlabel() == "P(destroyed)" and ax.get_title().startswith("P(destroyed) by loadout")
        matplotlib.pyplot.close(ax.figure)

"""`mathhammer run --plot FILE`: the main figure, checked before simulating, never
overwriting a file without --force."""

from __future__ import annotations

from pathlib import Path

import pytest

from mathhammer.cli import main

REPO = Path(__file__).resolve().parents[1]
GRID = str(REPO / "examples" / "grid_feedback.toml")


def _err_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("mathhammer: error: ")
    return err


@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_plot_writes_the_figure(tmp_path, capsys, suffix):
    out = tmp_path / f"fig{suffix}"
    assert main(["run", GRID, "--trials", "5000", "--seed", "1", "--plot", str(out)]) == 0
    assert out.stat().st_size > 1000
    assert f"wrote the figure to {out}" in capsys.readouterr().err


def test_plot_refuses_to_overwrite_without_force(tmp_path, capsys):
    out = tmp_path / "fig.png"
    out.write_bytes(b"mine")
    assert main(["run", GRID, "--trials", "5000", "--plot", str(out)]) == 2
    assert "already exists" in _err_line(capsys) and out.read_bytes() == b"mine"
    assert main(["run", GRID, "--trials", "5000", "--plot", str(out), "--force"]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"


def test_plot_bad_suffix_is_one_line_before_simulating(tmp_path, capsys):
    assert main(["demo", "--trials", "5000", "--plot", str(tmp_path / "fig.txt")]) == 2
    assert "--plot: must end in .png, .svg or .pdf" in _err_line(capsys)
    assert not (tmp_path / "fig.txt").exists()


# ------------------------------------------------------------------ sweep and compare --plot
MATCHUP = str(REPO / "examples" / "card_matchup.toml")


def test_sweep_plot_draws_a_heatmap_over_two_parameters(tmp_path, capsys):
    out = tmp_path / "heat.png"
    assert main(["sweep", MATCHUP, "--vary", "target.arm=16:18", "--vary", "target.def=12:13",
                 "--trials", "2000", "--no-progress", "--plot", str(out)]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"
    assert f"wrote the heatmap to {out}" in capsys.readouterr().err


def test_sweep_figure_one_parameter_is_a_line_with_the_swept_values():
    import mathhammer as mh
    from mathhammer.plots import sweep_figure

    frame = mh.sweep(mh.load_scenario(MATCHUP), {"target.arm": [16, 17, 18]}, trials=2000,
                     seed=3)
    fig = sweep_figure(frame)
    (ax,) = [a for a in fig.axes]
    (line,) = ax.get_lines()
    assert list(line.get_xdata()) == [16, 17, 18]
    assert list(line.get_ydata()) == pytest.approx(list(frame.query("metric == 'kill'")["value"]))
    # in a player's words: who against whom, the key and the figure as a card reads them
    scen = mh.load_scenario(MATCHUP)
    who = " and ".join(a.name for a in scen.attackers) + " against " + scen.target.name
    assert fig._suptitle.get_text().splitlines()[0] == who
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("target ARM", "P(destroyed)")
    two = sweep_figure(mh.sweep(scen, {"target.arm": [16, 17], "attackers.0.focus": [0, 1]}, trials=2000, seed=3))
    assert (two.axes[0].get_xlabel(), two.axes[0].get_ylabel()) == ("attacker 1 focus", "target ARM")


def test_sweep_plot_over_three_parameters_is_refused_before_computing(tmp_path, capsys):
    out = tmp_path / "heat.png"
    assert main(["sweep", MATCHUP, "--vary", "target.arm=16:17", "--vary", "target.def=12:13",
                 "--vary", "attackers.0.focus=0:1", "--plot", str(out)]) == 2
    assert "--plot" in _err_line(capsys) and not out.exists()


def test_compare_plot_draws_one_bar_per_loadout(tmp_path, capsys):
    import mathhammer as mh
    from mathhammer.plots import compare_figure

    files = [str(REPO / "examples" / n) for n in ("card_matchup.toml", "grid_feedback.toml")]
    out = tmp_path / "cmp.svg"
    assert main(["compare", *files, "--trials", "2000", "--plot", str(out)]) == 0
    assert out.read_text().lstrip().startswith("<?xml")
    comparison = mh.compare([mh.load_scenario(f) for f in files], trials=2000, seed=5)
    fig = compare_figure(comparison)
    kill_ax = fig.axes[0]
    widths = sorted(p.get_width() for p in kill_ax.patches)
    kills = comparison.long.query("metric == 'kill'")["value"]
    assert widths == pytest.approx(sorted(kills))


@pytest.mark.parametrize("command", ["run", "sweep", "compare"])
def test_plot_into_a_missing_folder_is_refused_before_computing(tmp_path, capsys, command):
    out = tmp_path / "no_such_folder" / "fig.png"
    argv = {"run": ["run", GRID],
            "sweep": ["sweep", MATCHUP, "--vary", "target.arm=16:17"],
            "compare": ["compare", MATCHUP, GRID]}[command]
    assert main([*argv, "--trials", "1000", "--plot", str(out)]) == 2
    assert "its folder does not exist" in _err_line(capsys)
    assert not out.parent.exists()

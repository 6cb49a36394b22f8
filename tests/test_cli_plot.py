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

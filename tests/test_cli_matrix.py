"""`mathhammer matrix`: the API's frame as a table, JSON, CSV, Parquet and a heatmap; one-line
errors with exit status 2; resume; the Dask backend from the command line."""

from __future__ import annotations

import json
import math
import shutil

import pandas as pd
import pytest

from mathhammer.cards import BUNDLED_DIR
from mathhammer.cli import main
from mathhammer.studies.matrices import matrix, pivot_matrix

ARGS = ["matrix", "--attackers", "heavy_warjack,light_warjack", "--targets", "solo",
        "--targets", "heavy_warbeast", "--trials", "20000", "--seed", "4", "--no-progress"]


@pytest.fixture(scope="module")
def api():
    return matrix(["heavy_warjack", "light_warjack"], ["solo", "heavy_warbeast"],
                  trials=20_000, seed=4, progress=False)


def _rows(frame):
    return [[None if isinstance(v, float) and math.isnan(v) else v for v in row]
            for row in frame.itertuples(index=False)]


def test_table_shows_the_metric_attackers_down_targets_across(capsys, api):
    assert main(ARGS) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("kill: attacker vs target (4 points; Monte Carlo, 20,000 trials")
    assert out[2].split() == ["attacker", "\\", "target", "solo", "heavy_warbeast"]
    kill = pivot_matrix(api)
    for line, attacker in zip(out[3:5], ["heavy_warjack", "light_warjack"]):
        cells = line.split()
        assert cells[0] == attacker
        assert cells[1:] == [f"{100 * v:.1f}%" for v in kill.loc[attacker]]


def test_json_and_csv_equal_the_api(capsys, api):
    assert main([*ARGS, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["columns"] == list(api.columns)
    assert [list(r.values()) for r in got["rows"]] == _rows(api)
    assert (got["seed"], got["trials"], got["points"], got["backend"]) == (4, 20000, 4, "local")
    assert main([*ARGS, "--csv"]) == 0
    import io

    pd.testing.assert_frame_equal(pd.read_csv(io.StringIO(capsys.readouterr().out)), api,
                                  check_dtype=False)


def test_directories_vary_and_metric(tmp_path, capsys):
    deck = tmp_path / "deck"
    deck.mkdir()
    for name in ("heavy_warjack", "light_warjack"):
        shutil.copy(BUNDLED_DIR / f"{name}.toml", deck)
    assert main(["matrix", "--attackers", str(deck), "--targets", "solo", "--vary",
                 "attackers.0.focus=0,3", "--metric", "damage_mean", "--trials", "20000",
                 "--seed", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "attackers.0.focus = 0" in out and "attackers.0.focus = 3" in out
    assert "%" not in out.split("\n", 1)[1]  # damage is not a percentage


def test_parquet_out_resume_and_plot(tmp_path, capsys, api):
    out, png = tmp_path / "m.parquet", tmp_path / "m.png"
    assert main([*ARGS, "--out", str(out), "--plot", str(png)]) == 0
    err = capsys.readouterr().err
    assert f"wrote the heatmap to {png}" in err
    pd.testing.assert_frame_equal(pd.read_parquet(out), api)
    assert png.stat().st_size > 0
    # existing files are not overwritten without being asked
    assert main([*ARGS, "--out", str(out)]) == 2
    assert "--out: " in capsys.readouterr().err
    assert main([*ARGS, "--out", str(tmp_path / "n.parquet"), "--plot", str(png)]) == 2
    assert "--plot: already exists; pass --force" in capsys.readouterr().err
    # a finished Parquet run keeps no journal: resuming it is refused, the file untouched
    before = out.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.parquet", "m.png"]
    assert main([*ARGS, "--out", str(out), "--resume", "--json"]) == 2
    assert "a finished matrix keeps none" in capsys.readouterr().err
    assert out.read_bytes() == before
    # a CSV run keeps its record: resuming it when finished computes nothing, same figures
    csv = tmp_path / "m.csv"
    assert main([*ARGS, "--out", str(csv)]) == 0
    capsys.readouterr()
    assert main([*ARGS, "--out", str(csv), "--resume", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["computed"] == 0 and [list(r.values()) for r in got["rows"]] == _rows(api)


def test_local_cluster_from_the_command_line(capsys, api):
    assert main([*ARGS, "--scheduler", "local-cluster", "--workers", "2", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["backend"] == "dask" and got["workers"] == 2
    assert [list(r.values()) for r in got["rows"]] == _rows(api)


@pytest.mark.parametrize("argv, message", [
    (["--attackers", "nosuch", "--targets", "solo"], "--attackers: unknown card"),
    (["--attackers", "solo,", "--targets", "solo"], "--attackers: an empty card name"),
    (["--attackers", "solo", "--targets", "solo", "--scheduler", "mars"],
     "--scheduler: must be 'local', 'local-cluster'"),
    (["--attackers", "solo", "--targets", "solo", "--workers", "2"],
     "--workers: applies to scheduler='local-cluster' only"),
    (["--attackers", "solo", "--targets", "solo", "--workers", "0"], "workers"),
    (["--attackers", "solo", "--targets", "solo", "--out", "m.txt"],
     "--out: must be a .csv or .parquet file"),
    (["--attackers", "solo", "--targets", "solo", "--resume"], "--resume needs --out"),
    (["--attackers", "solo", "--targets", "solo", "--vary", "target.nope=1"], "--vary"),
    (["--attackers", "solo", "--targets", "solo", "--metric", "nope"],
     "--metric: is not a figure of this matrix"),
    (["--attackers", "solo", "--targets", "solo", "--plot", "m.gif"],
     "--plot: must end in .png, .svg or .pdf"),
    (["--attackers", "solo", "--targets", "solo", "--trials", "0"], "trials"),
    (["--targets", "solo"], "the following arguments are required: --attackers"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys):
    assert main(["matrix", *argv, "--trials" if "--trials" not in argv else "--seed", "2000",
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("mathhammer: error: ")
    assert message in err


def test_a_directory_among_names_is_refused(tmp_path, capsys):
    assert main(["matrix", "--attackers", str(tmp_path), "--attackers", "solo",
                 "--targets", "solo"]) == 2
    assert "--attackers: give one directory, or card names" in capsys.readouterr().err


def test_ctrl_c_keeps_the_finished_points_and_exits_130(tmp_path, capsys, monkeypatch, api):
    import importlib

    module = importlib.import_module("mathhammer.studies.matrices")
    real = module.matrix

    def interrupted_after_two(*args, **kw):
        def progress(done, total):
            if done == 2:
                raise KeyboardInterrupt
        return real(*args, **{**kw, "progress": progress})

    monkeypatch.setattr(module, "matrix", interrupted_after_two)
    out = tmp_path / "m.csv"
    assert main([*ARGS, "--out", str(out)]) == 130
    err = capsys.readouterr().err
    assert f"interrupted after 2 of 4 points; the finished points are kept in {out}" in err
    monkeypatch.setattr(module, "matrix", real)
    assert main([*ARGS, "--out", str(out), "--resume", "--csv"]) == 0
    import io

    got = pd.read_csv(io.StringIO(capsys.readouterr().out))
    pd.testing.assert_frame_equal(got, api, check_dtype=False)

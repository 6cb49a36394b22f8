"""The files of a long run (sweep, matrix; issue 18, "no traceback, no silent default"):
``--out`` into a folder no file can be written to is refused before anything is computed;
``--resume`` of a binary file is one line, of an empty file a fresh start with its header;
an interrupted Parquet run names the file that holds its points; a completed Parquet run
leaves only its Parquet file."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import pandas as pd
import pytest

from mathhammer import Attacker, InputError, Scenario, Target, Weapon, cli, sweep
from mathhammer.studies.matrices import matrix
from mathhammer.studies.points import RunInterrupted

sweep_module = importlib.import_module("mathhammer.studies.sweeps")
matrix_module = importlib.import_module("mathhammer.studies.matrices")

PLAIN = Scenario(Target(defense=13, arm=16, boxes=10),
                 [Attacker("Jack", [Weapon("Axe", "melee", 7, 16, attacks=2)])])
GRID = {"target.arm": [15, 16, 17]}
SCENARIO = """\
[target]
def = 13
arm = 16
boxes = 10

[[attackers]]
name = "Jack"

[[attackers.weapons]]
name = "Axe"
type = "melee"
skill = 7
pow = 16
attacks = 2

[simulation]
trials = 2000
seed = 1
"""
MATRIX = ["matrix", "--attackers", "heavy_warjack", "--targets", "solo,light_warjack",
          "--trials", "2000", "--seed", "3", "--no-progress"]


@pytest.fixture()
def points(monkeypatch):
    """The points a sweep computes (a test can stop it after ``stop["n"]`` of them)."""
    calls, stop = [], {"n": None}
    real = sweep_module.evaluate_point

    def counted(scenario, *args):
        if stop["n"] is not None and len(calls) == stop["n"]:
            raise KeyboardInterrupt
        calls.append(scenario.target.arm)
        return real(scenario, *args)

    monkeypatch.setattr(sweep_module, "evaluate_point", counted)
    return calls, stop


def _cli_error(capsys, argv) -> str:
    """Run the CLI: exit status 2, nothing on stdout, one line on stderr; returns it."""
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("mathhammer: error: "), err
    return err


def _listing(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


# ---------------------------------------------------------------------------- --out checked first
def test_out_into_a_missing_folder_is_refused_before_any_point(tmp_path, points, capsys):
    calls, _ = points
    out = tmp_path / "no" / "such" / "arm.csv"
    with pytest.raises(InputError, match="its folder does not exist") as info:
        sweep(PLAIN, GRID, trials=1000, seed=1, out=out, progress=False)
    assert info.value.key == "out" and out.name in str(info.value) and calls == []
    scen = tmp_path / "s.toml"
    scen.write_text(SCENARIO, encoding="utf-8")
    err = _cli_error(capsys, ["sweep", str(scen), "--vary", "target.arm=15:17", "--out",
                              str(out), "--no-progress"])
    assert err.startswith("mathhammer: error: --out: its folder does not exist") and out.name in err
    err = _cli_error(capsys, [*MATRIX, "--out", str(tmp_path / "nope" / "m.parquet")])
    assert "--out: its folder does not exist" in err
    assert calls == [] and _listing(tmp_path) == {"s.toml": SCENARIO.encode()}


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="chmod does not stop root (nor Windows) from writing")
def test_out_into_a_read_only_folder_is_refused_before_any_point(tmp_path, points, capsys):
    calls, _ = points
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(InputError, match="cannot write there") as info:
            sweep(PLAIN, GRID, trials=1000, seed=1, out=folder / "arm.csv", progress=False)
        assert info.value.key == "out" and calls == []
        err = _cli_error(capsys, [*MATRIX, "--out", str(folder / "m.parquet")])
        assert "--out: cannot write there" in err and str(folder / "m.parquet") in err
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


@pytest.mark.skipif(not sys.platform.startswith("linux") or not Path("/proc/self").is_dir(),
                    reason="needs Linux's /proc, where no file can be created (even by root)")
def test_out_into_a_folder_where_no_file_can_be_created(points, capsys):
    calls, _ = points
    with pytest.raises(InputError, match="cannot write there") as info:
        sweep(PLAIN, GRID, trials=1000, seed=1, out="/proc/arm.csv", progress=False)
    assert info.value.key == "out" and calls == [] and "\n" not in str(info.value)
    err = _cli_error(capsys, [*MATRIX, "--out", "/proc/m.parquet"])
    assert "--out: cannot write there" in err and "'/proc/m.parquet'" in err


def test_out_naming_a_folder_or_no_path_is_refused(tmp_path, points):
    calls, _ = points
    (tmp_path / "a.csv").mkdir()
    for resume in (False, True):
        with pytest.raises(InputError, match="is a directory"):
            sweep(PLAIN, GRID, trials=1000, seed=1, out=tmp_path / "a.csv", resume=resume,
                  progress=False)
    with pytest.raises(InputError, match="out: must be a path") as info:
        sweep(PLAIN, GRID, trials=1000, seed=1, out=5, progress=False)
    assert "(got 5)" in str(info.value) and calls == []


# ---------------------------------------------------------------------------- --resume
def _interrupted_sweep(out, points, n=1):
    calls, stop = points
    calls.clear()
    stop["n"] = n
    with pytest.raises(RunInterrupted):
        sweep(PLAIN, GRID, trials=1000, seed=1, out=out, progress=False)
    stop["n"] = None


def test_resume_of_a_binary_file_is_one_line_and_leaves_it(tmp_path, points, capsys):
    calls, stop = points
    out = tmp_path / "arm.csv"
    _interrupted_sweep(out, points)
    junk = bytes(range(256)) * 4  # not UTF-8: the file was overwritten by something else
    out.write_bytes(junk)
    calls.clear()
    with pytest.raises(InputError, match="is not a CSV file of a sweep") as info:
        sweep(PLAIN, GRID, trials=1000, seed=1, out=out, resume=True, progress=False)
    assert info.value.key == "resume" and "\n" not in str(info.value) and calls == []
    assert out.read_bytes() == junk
    scen = tmp_path / "s.toml"
    scen.write_text(SCENARIO.replace("trials = 2000", "trials = 1000"), encoding="utf-8")
    out.write_bytes(junk)
    err = _cli_error(capsys, ["sweep", str(scen), "--vary", "target.arm=15:17", "--out",
                              str(out), "--resume", "--no-progress"])
    assert err.startswith("mathhammer: error: --resume: ") and out.name in err
    assert out.read_bytes() == junk and calls == []
    # the record beside it binary too: one line naming the record
    meta = tmp_path / "arm.csv.meta.json"
    meta.write_bytes(junk)
    with pytest.raises(InputError, match="is not a sweep record mathhammer can read") as info:
        sweep(PLAIN, GRID, trials=1000, seed=1, out=out, resume=True, progress=False)
    assert meta.name in str(info.value) and meta.read_bytes() == junk and calls == []


def test_resume_of_an_empty_file_starts_afresh_with_its_header(tmp_path, points):
    calls, stop = points
    whole = sweep(PLAIN, GRID, trials=1000, seed=1, progress=False)
    # an empty file made by hand (no record beside it): nothing to keep, a fresh start
    out = tmp_path / "new.csv"
    out.touch()
    frame = sweep(PLAIN, GRID, trials=1000, seed=1, out=out, resume=True, progress=False)
    assert frame.attrs["computed"] == 3
    assert out.read_text().splitlines()[0] == "target.arm,metric,value,ci_low,ci_high"
    pd.testing.assert_frame_equal(pd.read_csv(out), whole, check_dtype=False)
    # a run's file emptied after it was interrupted (its record still there): same
    out2 = tmp_path / "cut.csv"
    _interrupted_sweep(out2, points, n=2)
    out2.write_bytes(b"")
    calls.clear()
    frame = sweep(PLAIN, GRID, trials=1000, seed=1, out=out2, resume=True, progress=False)
    assert calls == [15, 16, 17]
    pd.testing.assert_frame_equal(pd.read_csv(out2), whole, check_dtype=False)
    # without --resume an empty file is still a file the user made: not overwritten
    out3 = tmp_path / "mine.csv"
    out3.touch()
    with pytest.raises(InputError, match="exists; resume it"):
        sweep(PLAIN, GRID, trials=1000, seed=1, out=out3, progress=False)


def test_an_interrupted_parquet_run_names_its_journal(tmp_path, capsys, monkeypatch):
    real = matrix_module.matrix

    def stopped_after_one(*args, **kw):
        def progress(done, total):
            if done == 1:
                raise KeyboardInterrupt
        return real(*args, **{**kw, "progress": progress})

    monkeypatch.setattr(matrix_module, "matrix", stopped_after_one)
    out = tmp_path / "m.parquet"
    assert cli.main([*MATRIX, "--out", str(out)]) == 130
    err = capsys.readouterr().err
    journal = tmp_path / "m.parquet.journal.csv"
    assert (f"interrupted after 1 of 2 points; the finished points are kept in {journal} "
            f"(run again with --out {out} --resume to finish)") in err
    assert journal.exists() and not out.exists()
    monkeypatch.setattr(matrix_module, "matrix", real)
    assert cli.main([*MATRIX, "--out", str(out), "--resume", "--csv"]) == 0
    capsys.readouterr()
    # complete: the Parquet file holds every point; its journal and record are gone
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.parquet"]
    fresh = matrix(["heavy_warjack"], ["solo", "light_warjack"], trials=2000, seed=3,
                   progress=False)
    pd.testing.assert_frame_equal(pd.read_parquet(out), fresh, check_dtype=False)


def test_a_completed_csv_run_keeps_its_record_for_resume(tmp_path):
    out = tmp_path / "m.csv"
    matrix(["heavy_warjack"], ["solo"], trials=2000, seed=3, out=out, progress=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.csv", "m.csv.meta.json"]
    again = matrix(["heavy_warjack"], ["solo"], trials=2000, seed=3, out=out, resume=True,
                   progress=False)
    assert again.attrs["computed"] == 0

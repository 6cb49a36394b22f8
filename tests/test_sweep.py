"""Sweeps: every figure over a grid, common random numbers, writing as it goes, resuming."""

from __future__ import annotations

import dataclasses
import importlib
import json
import math

import numpy as np
import pandas as pd
import pytest

from mathhammer import Attacker, InputError, Scenario, Target, Weapon, simulate, sweep
from mathhammer import RunInterrupted as SweepInterrupted
from mathhammer import common_stride
from mathhammer.studies.grids import apply

sweep_module = importlib.import_module("mathhammer.studies.sweeps")

#: A plain damage track (no points to spend, nothing changes during a sequence but damage).
PLAIN = Scenario(
    Target(defense=13, arm=16, boxes=10),
    [Attacker("Jack", [Weapon("Axe", "melee", 7, 16, attacks=2)]),
     Attacker("Gun", [Weapon("Cannon", "ranged", 6, 14, attacks=2)])],
)
#: An activation: focus, boosts decided on the boxes left, bought attacks.
FOCUS = Scenario(
    Target(defense=12, arm=17, boxes=14),
    [Attacker("Jack", [Weapon("Fist", "melee", 7, 15, attacks=2)], focus=3)],
)
TRIALS = 40_000
GRID = {"target.arm": range(15, 18), "target.def": [12, 14]}
COLUMNS = ["target.arm", "target.def", "metric", "value", "ci_low", "ci_high"]


def _value(frame, metric, **where):
    rows = frame[frame["metric"] == metric]
    for k, v in where.items():
        rows = rows[rows[k] == v]
    assert len(rows) == 1
    return float(rows["value"].iloc[0])


@pytest.fixture()
def counted(monkeypatch):
    """Count the points a sweep computes (and let a test interrupt it)."""
    calls = []
    real = sweep_module.evaluate_point
    stop_at = {"n": None}

    def run(scenario, *args):
        if stop_at["n"] is not None and len(calls) == stop_at["n"]:
            raise KeyboardInterrupt
        calls.append((scenario.target.arm, scenario.target.defense))
        return real(scenario, *args)

    monkeypatch.setattr(sweep_module, "evaluate_point", run)
    return calls, stop_at


# ---------------------------------------------------------------------------- the frame
def test_frame_shape_and_order():
    frame = sweep(PLAIN, GRID, trials=TRIALS, seed=1, progress=False)
    assert list(frame.columns) == COLUMNS
    assert str(frame["metric"].dtype) in ("str", "object", "string")
    assert frame["target.arm"].dtype == np.int64 and frame["value"].dtype == np.float64
    points = list(dict.fromkeys(zip(frame["target.arm"], frame["target.def"])))
    assert points == [(15, 12), (15, 14), (16, 12), (16, 14), (17, 12), (17, 14)]
    first = frame[(frame["target.arm"] == 15) & (frame["target.def"] == 12)]
    assert list(first["metric"])[:4] == ["kill", "damage_mean", "damage_sd", "damage_median"]
    a = frame.attrs
    assert (a["seed"], a["trials"], a["method"], a["points"], a["computed"]) == (
        1, TRIALS, "monte_carlo", 6, 6)
    assert a["vary"] == {"target.arm": [15, 16, 17], "target.def": [12, 14]}
    assert a["stride"] == common_stride([apply(PLAIN, {"target.arm": x, "target.def": d})
                                         for x in range(15, 18) for d in (12, 14)])


def test_values_equal_individual_simulations_with_the_same_seed_and_stride():
    frame = sweep(FOCUS, {"target.arm": [16, 18], "attackers.0.spend.boost_attack":
                          ["never", "always"]}, trials=TRIALS, seed=9, progress=False)
    st = frame.attrs["stride"]
    for arm in (16, 18):
        for boost in ("never", "always"):
            point = apply(FOCUS, {"target.arm": arm, "attackers.0.spend.boost_attack": boost})
            res = simulate(point, trials=TRIALS, seed=9, stride=st)
            where = {"target.arm": arm, "attackers.0.spend.boost_attack": boost}
            assert _value(frame, "kill", **where) == res.kill
            assert _value(frame, "damage_mean", **where) == res.damage_mean
            assert _value(frame, "spent:Jack", **where) == res.spent_by_attacker["Jack"]


def test_seed_is_drawn_once_and_reported():
    frame = sweep(PLAIN, {"target.arm": [16, 17]}, trials=TRIALS, progress=False)
    seed = frame.attrs["seed"]
    assert isinstance(seed, int)
    again = sweep(PLAIN, {"target.arm": [16, 17]}, trials=TRIALS, seed=seed, progress=False)
    pd.testing.assert_frame_equal(frame, again)
    # the scenario's own seed is the default
    seeded = dataclasses.replace(PLAIN, seed=4, trials=TRIALS)
    assert sweep(seeded, {"target.arm": [16]}, progress=False).attrs["seed"] == 4


def test_monte_carlo_agrees_with_the_exact_engine_at_five_sigma():
    vary = {"target.arm": [14, 16, 19], "attackers.Gun.weapons.Cannon.pow": [12, 15]}
    n = 60_000
    mc = sweep(PLAIN, vary, trials=n, seed=21, progress=False)
    ex = sweep(PLAIN, vary, method="exact", progress=False)
    assert ex.attrs["seed"] is None and ex.attrs["stride"] == 0
    key = list(vary)
    assert (mc[key + ["metric"]].values == ex[key + ["metric"]].values).all()
    for (_, m), (_, e) in zip(mc.iterrows(), ex.iterrows()):
        if m["metric"] == "kill":
            p = e["value"]
            assert abs(m["value"] - p) <= 5 * math.sqrt(max(p * (1 - p), 1 / n) / n)
        if m["metric"] == "damage_mean":
            sd = float(ex.loc[(ex["metric"] == "damage_sd") & (ex[key[0]] == e[key[0]])
                              & (ex[key[1]] == e[key[1]]), "value"].iloc[0])
            assert abs(m["value"] - e["value"]) <= 5 * sd / math.sqrt(n) + 1e-12


def test_common_random_numbers_make_neighbouring_points_smooth():
    arms = list(range(12, 22))
    frame = sweep(PLAIN, {"target.arm": arms}, trials=TRIALS, seed=7, progress=False)
    seed, st = frame.attrs["seed"], frame.attrs["stride"]
    # Each trial meets the same dice at every point, and on a plain track a trial's damage
    # can only fall as ARM rises: P(damage >= k) is exactly monotone for every k.
    tails = []
    for arm in arms:
        res = simulate(apply(PLAIN, {"target.arm": arm}), trials=TRIALS, seed=seed, stride=st)
        assert res.kill == _value(frame, "kill", **{"target.arm": arm})
        tails.append(np.cumsum(res.damage_weights[::-1])[::-1])
    tails = np.array(tails)
    assert (np.diff(tails, axis=0) <= 0).all()
    # Neighbouring differences stray far less from the exact ones than with a seed per point.
    exact = sweep(PLAIN, {"target.arm": arms}, method="exact", progress=False)
    crn = frame.loc[frame["metric"] == "damage_mean", "value"].to_numpy()
    ex = exact.loc[exact["metric"] == "damage_mean", "value"].to_numpy()
    indep = np.array([simulate(apply(PLAIN, {"target.arm": a}), trials=TRIALS,
                               seed=1000 + i).damage_mean for i, a in enumerate(arms)])
    err_crn = np.sum((np.diff(crn) - np.diff(ex)) ** 2)
    err_indep = np.sum((np.diff(indep) - np.diff(ex)) ** 2)
    assert err_crn < 0.1 * err_indep  # about 0.01 in practice


def test_several_loadouts_share_seed_and_stride():
    loadouts = {"plain": PLAIN, "focus": FOCUS}
    frame = sweep(loadouts, {"target.arm": [16, 17]}, trials=TRIALS, seed=5, progress=False)
    assert list(frame.columns) == ["loadout", "target.arm", "metric", "value", "ci_low", "ci_high"]
    assert list(dict.fromkeys(zip(frame["loadout"], frame["target.arm"]))) == [
        ("plain", 16), ("plain", 17), ("focus", 16), ("focus", 17)]
    st = frame.attrs["stride"]
    assert st == common_stride([apply(s, {"target.arm": a}) for s in (PLAIN, FOCUS)
                                for a in (16, 17)])
    for label, s in loadouts.items():
        res = simulate(apply(s, {"target.arm": 17}), trials=TRIALS, seed=5, stride=st)
        assert _value(frame, "kill", loadout=label, **{"target.arm": 17}) == res.kill


def test_argument_errors():
    with pytest.raises(InputError, match="vary: target has no key 'armr'; did you mean"):
        sweep(PLAIN, {"target.armr": [16]}, progress=False)
    with pytest.raises(InputError, match=r"target.arm: must be between 0 and 50 \(got 60\)"):
        sweep(PLAIN, {"target.arm": [16, 60]}, progress=False)
    with pytest.raises(InputError, match="method"):
        sweep(PLAIN, {"target.arm": [16]}, method="fast")
    with pytest.raises(InputError, match="resume: needs out="):
        sweep(PLAIN, {"target.arm": [16]}, resume=True)
    with pytest.raises(InputError, match="scenario"):
        sweep("plain.toml", {"target.arm": [16]})
    with pytest.raises(InputError, match="trials"):
        sweep(PLAIN, {"target.arm": [16]}, trials=0)


def test_progress_callback_and_bar(capsys, monkeypatch):
    seen = []
    sweep(PLAIN, {"target.arm": [16, 17, 18]}, trials=1000, seed=1,
          progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]
    sweep(PLAIN, {"target.arm": [16, 17]}, trials=1000, seed=1)
    assert capsys.readouterr().err == ""  # under a second: no bar
    monkeypatch.setattr("mathhammer._core.ticker.DELAY", 0.0)  # a bar at once, where shown
    sweep(PLAIN, {"target.arm": [16, 17]}, trials=1000, seed=1, progress=True)
    assert "sweep" in capsys.readouterr().err  # the tqdm bar, asked for: a pipe or not
    sweep(PLAIN, {"target.arm": [16, 17]}, trials=1000, seed=1)
    assert capsys.readouterr().err == ""  # stderr captured, not a terminal: no bar


# ---------------------------------------------------------------------------- the file
def test_rows_are_written_as_they_go(tmp_path):
    out = tmp_path / "arm.csv"
    frame = sweep(PLAIN, GRID, trials=TRIALS, seed=3, out=out, progress=False)
    written = pd.read_csv(out)
    assert list(written.columns) == COLUMNS
    pd.testing.assert_frame_equal(written, frame, check_dtype=False, check_like=False)
    assert (written["value"].to_numpy() == frame["value"].to_numpy()).all()  # floats exact
    meta = json.loads((tmp_path / "arm.csv.meta.json").read_text())
    ident = meta["identity"]
    assert (ident["seed"], ident["trials"], ident["method"], ident["stride"]) == (
        3, TRIALS, "monte_carlo", frame.attrs["stride"])
    assert ident["vary"] == {"target.arm": ["15", "16", "17"], "target.def": ["12", "14"]}
    assert meta["points_done"] == 6
    assert frame.attrs["out"] == str(out)


def test_an_existing_file_is_never_overwritten(tmp_path):
    out = tmp_path / "mine.csv"
    out.write_text("precious\n")
    with pytest.raises(InputError, match="exists; resume it") as info:
        sweep(PLAIN, GRID, trials=TRIALS, seed=3, out=out, progress=False)
    assert "\n" not in str(info.value) and out.name in str(info.value)  # a long path keeps its end
    assert out.read_text() == "precious\n"
    # resuming a file that is not a sweep is refused too
    with pytest.raises(InputError, match="has no sweep record"):
        sweep(PLAIN, GRID, trials=TRIALS, seed=3, out=out, resume=True, progress=False)
    assert out.read_text() == "precious\n"
    with pytest.raises(InputError, match="must be a .csv file"):
        sweep(PLAIN, GRID, out=tmp_path / "x.parquet")


def test_interrupted_sweep_keeps_its_points_and_resumes_the_rest(tmp_path, counted):
    calls, stop_at = counted
    out = tmp_path / "arm.csv"
    scen = dataclasses.replace(PLAIN, trials=TRIALS)  # no seed: drawn once, kept in the file
    stop_at["n"] = 2
    with pytest.raises(SweepInterrupted) as info:
        sweep(scen, GRID, out=out, progress=False)
    assert (info.value.done, info.value.total, info.value.out) == (2, 6, str(out))
    assert isinstance(info.value, KeyboardInterrupt)
    assert len(pd.read_csv(out).drop_duplicates(["target.arm", "target.def"])) == 2
    seed = json.loads((tmp_path / "arm.csv.meta.json").read_text())["identity"]["seed"]

    stop_at["n"] = None
    calls.clear()
    resumed = sweep(scen, GRID, out=out, resume=True, progress=False)
    assert calls == [(16, 12), (16, 14), (17, 12), (17, 14)]  # only the missing points
    assert resumed.attrs["computed"] == 4 and resumed.attrs["seed"] == seed
    whole = sweep(scen, GRID, seed=seed, progress=False)
    pd.testing.assert_frame_equal(resumed, whole)
    pd.testing.assert_frame_equal(pd.read_csv(out), whole, check_dtype=False)

    calls.clear()  # resuming a finished sweep computes nothing
    pd.testing.assert_frame_equal(sweep(scen, GRID, out=out, resume=True, progress=False),
                                  whole)
    assert calls == []


def test_a_point_cut_short_is_computed_again(tmp_path, counted):
    calls, _ = counted
    out = tmp_path / "arm.csv"
    whole = sweep(PLAIN, GRID, trials=TRIALS, seed=8, out=out, progress=False)
    text = out.read_text()
    lines = text.splitlines(keepends=True)
    per_point = (len(lines) - 1) // 6
    # cut the file in the middle of a row of the fourth point
    cut = "".join(lines[: 1 + 3 * per_point + 1]) + lines[1 + 3 * per_point + 1][:7]
    out.write_text(cut)
    calls.clear()
    resumed = sweep(PLAIN, GRID, trials=TRIALS, seed=8, out=out, resume=True, progress=False)
    assert calls == [(16, 14), (17, 12), (17, 14)]
    pd.testing.assert_frame_equal(resumed, whole)
    assert out.read_text() == text


def test_interrupted_between_the_first_rows_and_their_record_the_file_resumes(tmp_path, monkeypatch, counted):
    """Ctrl-C right after the first point's rows reach the file, before the record names it
    done: the record written before those rows lets the file be resumed, the point computed
    again (a test of the command line hit this window once)."""
    from mathhammer.studies.journal import Journal

    calls, _ = counted
    out = tmp_path / "arm.csv"
    real = Journal._write_meta

    def cut(self):
        if self.last is not None:  # the record after the first point's rows
            raise KeyboardInterrupt
        real(self)

    monkeypatch.setattr(Journal, "_write_meta", cut)
    with pytest.raises(KeyboardInterrupt):
        sweep(PLAIN, GRID, trials=TRIALS, seed=4, out=out, progress=False)
    assert out.stat().st_size > 0 and (tmp_path / "arm.csv.meta.json").exists()
    monkeypatch.setattr(Journal, "_write_meta", real)
    calls.clear()
    resumed = sweep(PLAIN, GRID, trials=TRIALS, seed=4, out=out, resume=True, progress=False)
    assert len(calls) == 6  # the first point too: the record did not name it done
    pd.testing.assert_frame_equal(resumed, sweep(PLAIN, GRID, trials=TRIALS, seed=4, progress=False))


def test_resume_refuses_another_sweep(tmp_path):
    out = tmp_path / "arm.csv"
    sweep(PLAIN, {"target.arm": [16, 17]}, trials=TRIALS, seed=3, out=out, progress=False)
    before = out.read_bytes()
    for kwargs, what in (
            ({"trials": 2 * TRIALS, "seed": 3}, "trials 40000 there, 80000 now"),
            ({"trials": TRIALS, "seed": 4}, "seed 3 there, 4 now"),
            ({"method": "exact"}, "method"),
    ):
        with pytest.raises(InputError, match="holds another sweep") as info:
            sweep(PLAIN, {"target.arm": [16, 17]}, out=out, resume=True, progress=False,
                  **kwargs)
        assert what in str(info.value)
    with pytest.raises(InputError, match="the varied parameters differ"):
        sweep(PLAIN, {"target.arm": [16, 18]}, trials=TRIALS, seed=3, out=out, resume=True)
    with pytest.raises(InputError, match="the scenario differs"):
        sweep(apply(PLAIN, {"target.boxes": 12}), {"target.arm": [16, 17]}, trials=TRIALS,
              seed=3, out=out, resume=True)
    assert out.read_bytes() == before


def test_resume_without_a_file_starts_it(tmp_path):
    out = tmp_path / "new.csv"
    frame = sweep(PLAIN, {"target.arm": [16]}, trials=TRIALS, seed=2, out=out, resume=True,
                  progress=False)
    assert frame.attrs["computed"] == 1 and out.exists()


def test_pivot():
    frame = sweep(PLAIN, GRID, method="exact", progress=False)
    wide = sweep_module.pivot(frame, "kill")
    assert list(wide.index) == [15, 16, 17] and list(wide.columns) == [12, 14]
    assert wide.loc[16, 14] == _value(frame, "kill", **{"target.arm": 16, "target.def": 14})

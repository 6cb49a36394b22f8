"""The balance matrix (mathhammer.matrix) on the local backend: what each point computes,
per-point seeds, the exact engine as an oracle, the file written point by point, resume."""

from __future__ import annotations

import math
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from mathhammer import simulate
from mathhammer.cards import BUNDLED_DIR, scenario_from_cards
from mathhammer.errors import InputError
from mathhammer.studies.matrices import (
    MatrixPointError,
    matrix,
    pivot_matrix,
    point_seed,
)
from mathhammer.studies.points import RunInterrupted

ATTACKERS = ["heavy_warjack", "light_warjack", "solo"]
TARGETS = ["solo", "infantry", "heavy_warbeast"]
TRIALS = 20_000


def run(attackers=ATTACKERS, targets=TARGETS, **kw):
    if kw.get("method") != "exact":  # the exact method refuses them
        kw.setdefault("trials", TRIALS)
        kw.setdefault("seed", 11)
    kw.setdefault("progress", False)
    return matrix(attackers, targets, **kw)


@pytest.fixture(scope="module")
def frame():
    return run()


# ---------------------------------------------------------------------------- the frame
def test_frame_is_tidy_in_point_order(frame):
    assert list(frame.columns) == ["attacker", "target", "metric", "value", "ci_low", "ci_high"]
    pairs = list(dict.fromkeys(zip(frame["attacker"], frame["target"])))
    assert pairs == [(a, t) for a in ATTACKERS for t in TARGETS]
    assert frame.attrs["points"] == 9 and frame.attrs["computed"] == 9
    assert frame.attrs["backend"] == "local" and frame.attrs["seed"] == 11
    for (a, t), part in frame.groupby(["attacker", "target"], sort=False):
        metrics = list(part["metric"])
        assert metrics[:4] == ["kill", "damage_mean", "damage_sd", "damage_median"]
        assert len(set(metrics)) == len(metrics)
        # one attacker per point: its spending is plain "spent"
        assert not any(m.startswith("spent:") for m in metrics)
        if t == "heavy_warbeast":  # a life spiral: the odds of each aspect crippled
            assert {"cripple:B", "cripple:M", "cripple:S"} <= set(metrics)
        kill = part[part.metric == "kill"].iloc[0]
        assert kill.ci_low <= kill.value <= kill.ci_high


def test_each_point_is_the_simulation_of_its_pair_with_its_own_seed(frame):
    """The matrix adds nothing of its own: a point's figures are simulate() of the pair's
    scenario at point_seed(seed, key)."""
    for a, t in [("heavy_warjack", "heavy_warbeast"), ("solo", "infantry")]:
        scen = scenario_from_cards([a], t)
        expect = simulate(scen, trials=TRIALS, seed=point_seed(11, (a, t))).summary()
        got = frame[(frame.attacker == a) & (frame.target == t)]
        assert list(got["metric"]) == [m.split(":")[0] if m.startswith("spent:") else m
                                       for m in expect["metric"]]
        for c in ("value", "ci_low", "ci_high"):
            assert got[c].to_numpy() == pytest.approx(expect[c].to_numpy(), rel=0, abs=0,
                                                      nan_ok=True)


def test_point_seeds_differ_between_points_and_seeds():
    keys = [(a, t) for a in ATTACKERS for t in TARGETS]
    seeds = {point_seed(11, k) for k in keys}
    assert len(seeds) == len(keys)
    assert point_seed(11, keys[0]) != point_seed(12, keys[0])
    assert all(0 <= s < 2**63 for s in seeds)


def test_a_point_does_not_depend_on_the_other_points(frame):
    alone = run(["light_warjack"], ["heavy_warbeast", "solo"])
    for t in ("solo", "heavy_warbeast"):
        a = frame[(frame.attacker == "light_warjack") & (frame.target == t)].reset_index(drop=True)
        b = alone[alone.target == t].reset_index(drop=True)
        pd.testing.assert_frame_equal(a, b)


def test_same_seed_same_frame_on_one_thread(frame):
    """Numba's thread count changes nothing (each point's chunks have their own streams)."""
    code = (
        "import numba, pickle, sys; numba.set_num_threads(1);"
        "from mathhammer.studies.matrices import matrix;"
        f"f = matrix({ATTACKERS!r}, {TARGETS!r}, trials={TRIALS}, seed=11, progress=False);"
        "sys.stdout.buffer.write(pickle.dumps(f))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True).stdout
    import pickle

    pd.testing.assert_frame_equal(pickle.loads(out), frame)


def test_local_run_needs_no_dask():
    code = ("import sys; from mathhammer.studies.matrices import matrix;"
            "matrix(['solo'], ['infantry'], trials=1000, seed=1, progress=False);"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


# ---------------------------------------------------------------------------- oracles
def test_monte_carlo_matches_the_exact_engine_within_5_sigma():
    """Independent oracle: the exact engine (enumeration / dynamic programming) on each
    pair; kill and mean damage of every point within 5 standard errors."""
    attackers, targets = ["heavy_warjack", "solo"], ["solo", "infantry", "heavy_infantry"]
    trials = 200_000
    mc = run(attackers, targets, trials=trials, seed=5)
    ex = run(attackers, targets, method="exact")
    kills = ex[ex.metric == "kill"]
    assert ex.attrs["method"] == "exact" and (kills["ci_low"] == kills["value"]).all()
    for (a, t), part in ex.groupby(["attacker", "target"], sort=False):
        exact = dict(zip(part.metric, part.value))
        got = mc[(mc.attacker == a) & (mc.target == t)]
        got = dict(zip(got.metric, got.value))
        p = exact["kill"]
        se = math.sqrt(max(p * (1 - p), 1e-12) / trials)
        assert abs(got["kill"] - p) <= 5 * se + 1e-12, (a, t)
        sd = exact["damage_sd"]
        assert abs(got["damage_mean"] - exact["damage_mean"]) <= 5 * sd / math.sqrt(trials) + 1e-12


def test_vary_gives_one_point_per_value_and_matches_a_single_scenario():
    f = run(["heavy_warjack"], ["solo", "heavy_warjack"], vary={"attackers.0.focus": [0, 3]})
    assert list(f.columns) == ["attacker", "target", "attackers.0.focus", "metric", "value",
                               "ci_low", "ci_high"]
    assert f.attrs["points"] == 4
    kill = pivot_matrix(f, "damage_mean", **{"attackers.0.focus": 3})
    assert list(kill.columns) == ["solo", "heavy_warjack"]
    zero = pivot_matrix(f, "damage_mean", **{"attackers.0.focus": 0})
    assert (kill.to_numpy() > zero.to_numpy()).all()  # focus buys attacks and boosts
    scen = scenario_from_cards([{"card": "heavy_warjack", "focus": 3}], "heavy_warjack")
    key = ("heavy_warjack", "heavy_warjack", "3")
    expect = simulate(scen, trials=TRIALS, seed=point_seed(11, key)).summary()
    got = f[(f.target == "heavy_warjack") & (f["attackers.0.focus"] == 3)]
    assert list(got["value"]) == list(expect["value"])


def test_pivot_matrix_errors(frame):
    with pytest.raises(InputError, match="metric: is not a figure"):
        pivot_matrix(frame, "nope")
    with pytest.raises(InputError, match="value"):
        pivot_matrix(frame, value="mean")
    f = run(["solo"], ["infantry"], vary={"target.arm": [12, 14]})
    with pytest.raises(InputError, match="target.arm: holds several values"):
        pivot_matrix(f)
    with pytest.raises(InputError, match="is not a varied parameter"):
        pivot_matrix(f, **{"target.def": 12})


# ---------------------------------------------------------------------------- decks
def test_directories_of_cards(tmp_path):
    deck = tmp_path / "deck"
    deck.mkdir()
    for name in ("solo", "colossal", "infantry"):
        shutil.copy(BUNDLED_DIR / f"{name}.toml", deck)
    (deck / "wall.toml").write_text('[card]\n\n[target]\ndef = 5\narm = 20\nboxes = 10\n')
    f = run(deck, deck, trials=2000)
    assert list(dict.fromkeys(f.attacker)) == ["colossal", "infantry", "solo"]
    assert list(dict.fromkeys(f.target)) == ["colossal", "infantry", "solo", "wall"]
    assert f.attrs["skipped"] == ["wall"]


def test_all_actions_splits_cards_with_several_weapon_types():
    f = run(["infantry", "solo"], ["solo"], all_actions=True, trials=2000)
    attackers = list(dict.fromkeys(f.attacker))
    assert "infantry:melee" in attackers and "infantry:ranged" in attackers
    g = run(["infantry:ranged"], ["solo"], trials=2000)
    assert list(g.attacker.unique()) == ["infantry:ranged"]
    a = f[f.attacker == "infantry:ranged"].reset_index(drop=True)
    pd.testing.assert_frame_equal(a, g.reset_index(drop=True))


@pytest.mark.parametrize("kw, match", [
    (dict(attackers=["nosuchcard"]), r"attackers\[0\]: unknown card"),
    (dict(attackers=[""]), r"attackers\[0\]: must be a card name"),
    (dict(attackers=["solo", "solo"]), "attackers: is listed twice"),
    (dict(attackers=["solo"], targets=[]), "targets: holds no card"),
    (dict(attackers=["solo:arcane"]), "solo"),
    (dict(vary={"target.nope": [1]}), "vary"),
    (dict(vary={"attackers.0.focus": [3]}, attackers=["heavy_warjack", "warlock"]),
     "for warlock vs solo"),
    (dict(method="bogus"), "method"),
    (dict(resume=True), "resume: needs out="),
    (dict(scheduler="nowhere"), "scheduler: must be 'local'"),
    (dict(workers=2), "workers: applies to scheduler='local-cluster'"),
    (dict(batch=4), "batch: applies to Dask schedulers only"),
    (dict(batch=0, scheduler="local-cluster"), "batch: must be a whole number"),
    (dict(workers=0, scheduler="local-cluster"), "workers: must be a whole number"),
    (dict(trials=0), "trials"),
    (dict(progress="yes"), "progress"),
])
def test_bad_arguments_fail_before_anything_runs(kw, match, tmp_path):
    args = dict(attackers=ATTACKERS, targets=TARGETS)
    args.update(kw)
    with pytest.raises(Exception, match=match) as info:
        run(args.pop("attackers"), args.pop("targets"), **args)
    assert isinstance(info.value, (InputError,)) or "ScenarioFileError" in type(info.value).__name__


def test_a_point_the_exact_engine_cannot_do_names_the_point():
    with pytest.raises(MatrixPointError, match="matrix point warcaster / heavy_warjack: up to"):
        run(["warcaster"], ["heavy_warjack"], method="exact", turns=5)


# ---------------------------------------------------------------------------- files, resume
class Stop(Exception):
    pass


def _interrupt_after(n):
    def progress(done, total):
        if done == n:
            raise KeyboardInterrupt
    return progress


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_interrupted_run_resumes_computing_only_missing_points(tmp_path, frame, suffix):
    out = tmp_path / f"m{suffix}"
    with pytest.raises(RunInterrupted) as info:
        run(out=out, progress=_interrupt_after(4))
    assert (info.value.done, info.value.total) == (4, 9)
    journal = out if suffix == ".csv" else Path(str(out) + ".journal.csv")
    assert journal.exists() and not (suffix == ".parquet" and out.exists())
    kept = pd.read_csv(journal)
    assert kept[["attacker", "target"]].drop_duplicates().shape[0] == 4
    with pytest.raises(InputError, match="exists; resume it"):
        run(out=out)
    calls = []
    resumed = run(out=out, resume=True, progress=lambda d, t: calls.append(d))
    assert resumed.attrs["computed"] == 5 and calls == [5, 6, 7, 8, 9]
    pd.testing.assert_frame_equal(resumed, frame)
    on_disk = pd.read_csv(out) if suffix == ".csv" else pd.read_parquet(out)
    pd.testing.assert_frame_equal(on_disk, frame, check_dtype=False)
    # an uninterrupted run writes the same bytes (points end in point order)
    other = tmp_path / f"fresh{suffix}"
    run(out=other)
    assert out.read_bytes() == other.read_bytes()
    if suffix == ".parquet":  # complete: the Parquet file alone stays, journal and record gone
        assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.parquet", "m.parquet"]
        with pytest.raises(InputError, match="a finished matrix keeps none"):
            run(out=out, resume=True)
        pd.testing.assert_frame_equal(pd.read_parquet(out), frame, check_dtype=False)
        return
    # resuming a finished CSV run (its record stays beside it) computes nothing
    again = run(out=out, resume=True)
    assert again.attrs["computed"] == 0
    pd.testing.assert_frame_equal(again, frame)


def test_a_point_cut_short_is_computed_again(tmp_path, frame):
    out = tmp_path / "m.csv"
    with pytest.raises(RunInterrupted):
        run(out=out, progress=_interrupt_after(3))
    text = out.read_text()
    out.write_text(text + "light_warjack,solo,kill,0.5")  # a crash in the middle of a write
    resumed = run(out=out, resume=True)
    assert resumed.attrs["computed"] == 6
    pd.testing.assert_frame_equal(resumed, frame)


def test_resume_refuses_another_run(tmp_path):
    out = tmp_path / "m.csv"
    run(["solo"], ["infantry"], out=out, trials=2000)
    with pytest.raises(InputError, match="trials 2000 there, 3000 now"):
        run(["solo"], ["infantry"], out=out, trials=3000, resume=True)
    with pytest.raises(InputError, match="the target cards differ"):
        run(["solo"], ["solo"], out=out, trials=2000, resume=True)
    # a card file edited between the two runs is another run too
    deck = tmp_path / "deck"
    deck.mkdir()
    shutil.copy(BUNDLED_DIR / "infantry.toml", deck)
    out2 = tmp_path / "m2.csv"
    run(["solo"], deck, out=out2, trials=2000)
    card = deck / "infantry.toml"
    card.write_text(card.read_text().replace("boxes = ", "boxes = 1", 1))
    with pytest.raises(InputError, match="the target cards differ"):
        run(["solo"], deck, out=out2, trials=2000, resume=True)


def test_resume_keeps_the_seed_it_started_with(tmp_path):
    out = tmp_path / "m.csv"
    with pytest.raises(RunInterrupted):
        run(out=out, seed=None, progress=_interrupt_after(2))
    resumed = run(out=out, seed=None, resume=True)
    assert resumed.attrs["computed"] == 7
    pd.testing.assert_frame_equal(resumed, run(seed=resumed.attrs["seed"]))


def test_bad_out_files(tmp_path):
    with pytest.raises(InputError, match="out: must be a .csv or .parquet file"):
        run(out=tmp_path / "m.txt")
    with pytest.raises(InputError, match="its folder does not exist"):
        run(out=tmp_path / "nope" / "m.csv")
    (tmp_path / "x.parquet").write_bytes(b"mine")
    with pytest.raises(InputError, match="exists"):
        run(out=tmp_path / "x.parquet")
    with pytest.raises(InputError, match="without its journal"):
        run(out=tmp_path / "x.parquet", resume=True)
    assert (tmp_path / "x.parquet").read_bytes() == b"mine"


def test_parquet_without_pyarrow_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(InputError, match=r"needs pyarrow: pip install 'mathhammer\[parquet\]'"):
        run(out=tmp_path / "m.parquet")


def test_dask_backend_without_dask_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(InputError, match=r"needs Dask.*mathhammer\[dask\]"):
        run(scheduler="local-cluster")

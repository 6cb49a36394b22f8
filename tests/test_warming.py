"""`mathhammer warm` (mathhammer.warming): every Monte Carlo kernel compiled ahead of a first
run (issue 18, "First run and waiting")."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.errors import InputError
from mathhammer.io.scenario_files import load_scenario
from mathhammer.montecarlo._kernels import driver
from mathhammer.warming import JOBS, MAX_PROCESSES, warm

ROOT = Path(__file__).resolve().parents[1]
COMPILE_FOR = driver.compile_for  # the driver's own, before any test replaces it


def _kernels_compiled(monkeypatch, scenarios) -> set:
    """The (kernel, argument types) pairs the Monte Carlo runs of ``scenarios`` make ready,
    each run as if first in its process (nothing of the driver's held)."""
    seen = set()

    def spy(dispatcher, args, what, about, **kw):
        seen.add((dispatcher.__name__, tuple(dispatcher.typeof_pyval(a) for a in args)))
        return COMPILE_FOR(dispatcher, args, what, about, **kw)

    monkeypatch.setattr(driver, "compile_for", spy)
    for scenario in scenarios:
        monkeypatch.setattr(driver, "_READY", {})
        mh.simulate(scenario, trials=1000, seed=1, progress=False)
    return seen


def test_the_jobs_compile_every_kernel_the_examples_need_each_its_own(monkeypatch):
    jobs = {name: _kernels_compiled(monkeypatch, make())
            for name, (_, make) in JOBS.items() if make is not None}
    # no job compiles what another one does (each is worth its process)
    names = sorted(jobs)
    for i, a in enumerate(names):
        assert jobs[a], a
        for b in names[i + 1:]:
            assert not jobs[a] & jobs[b], (a, b)
    # every bundled example and the demo finds its kernel warm
    examples = [load_scenario(p) for p in sorted((ROOT / "examples").glob("*.toml"))]
    examples.append(load_scenario(ROOT / "mathhammer" / "data" / "demo.toml"))
    missing = _kernels_compiled(monkeypatch, examples) - set().union(*jobs.values())
    assert not missing, sorted(k[0] for k in missing)


def test_warm_on_a_warm_cache_names_each_job_and_takes_seconds(capsys):
    # `make test` ran `mathhammer warm` before the suite: every job loads from the cache
    assert main(["warm", "--processes", "2"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == len(JOBS) + 1
    for what, _ in JOBS.values():
        assert sum(line.startswith(f"mathhammer: compiled or loaded {what}: ") for line in err) == 1
    assert err[-1].startswith(f"mathhammer: compiled or loaded every kernel ({len(JOBS)} jobs) in ")


@pytest.mark.parametrize("given", ["0", str(MAX_PROCESSES + 1), "two", "1.5"])
def test_processes_out_of_range_is_one_line_and_status_2(capsys, given):
    assert main(["warm", "--processes", given]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--processes" in err and repr(given) in err


@pytest.mark.parametrize("given", [0, MAX_PROCESSES + 1, True, 2.0, "2"])
def test_warm_refuses_a_bad_number_of_processes(given):
    with pytest.raises(InputError, match=r"^processes: "):
        warm(given)


def test_warm_takes_numpy_integers(monkeypatch):
    said = []
    monkeypatch.setattr("mathhammer.warming.JOBS", {"sbh": JOBS["sbh"]})
    took = warm(np.int64(1), say=said.append)
    assert list(took) == ["sbh"] and said == [f"{JOBS['sbh'][0]}: {took['sbh']:.0f} s"]

"""Chunks shared out over threads that claim them (mathhammer._core.threads, issue 20 "two
threads under load"): every chunk runs once, little work runs on the calling thread alone, a
helper that starts late holds up nothing, an error reaches the caller, and the Monte Carlo
counts are the same on one thread and on two whatever the schedule."""

from __future__ import annotations

import dataclasses
import threading
import time
from pathlib import Path

import numba
import numpy as np
import pytest

from mathhammer import Attacker, Scenario, Target, Weapon, load_scenario
from mathhammer._core import threads
from mathhammer._core.threads import run_chunks
from mathhammer.montecarlo._kernels import driver
from mathhammer.montecarlo.encode import encode


class _Log:
    """A job recording which chunks ran on which thread; ``pause`` seconds per chunk."""

    def __init__(self, pause: float = 0.0):
        self.pause = pause
        self.runs: list[tuple[int, int]] = []
        self.lock = threading.Lock()

    def __call__(self, lo: int, hi: int) -> None:
        for c in range(lo, hi):
            if self.pause:
                time.sleep(self.pause)
            with self.lock:
                self.runs.append((c, threading.get_ident()))

    def chunks(self) -> list[int]:
        return sorted(c for c, _ in self.runs)

    def threads(self) -> set[int]:
        return {t for _, t in self.runs}


class _Clock:
    """A stand-in for the ``time`` module whose clock advances ``step`` seconds a reading:
    how long a chunk "takes" without the machine's load in it."""

    def __init__(self, step: float):
        self.now, self.step = 0.0, step

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("k", [1, 2, 7, 64])
def test_little_work_runs_every_chunk_once_on_the_calling_thread(k, monkeypatch):
    # a chunk of 1 microsecond, as a busy machine cannot stretch it (a first chunk preempted
    # for a few milliseconds on a loaded machine once started helpers here)
    monkeypatch.setattr(threads, "time", _Clock(1e-6))
    log = _Log()
    assert run_chunks(log, k, threads=4) == 0
    assert log.chunks() == list(range(k))
    assert log.threads() == {threading.get_ident()}


@pytest.mark.parametrize("k, n", [(9, 2), (16, 3), (5, 8)])
def test_work_is_shared_and_every_chunk_runs_once(k, n):
    # 3 ms a chunk: well over what runs alone, so helpers start (at most k - 1 threads in all)
    log = _Log(pause=3e-3)
    helpers = run_chunks(log, k, threads=n)
    assert helpers == min(n, k - 1) - 1
    assert log.chunks() == list(range(k))


def test_a_late_helper_holds_up_nothing(monkeypatch):
    # a helper the machine starts only after the calling thread has claimed everything: the
    # run returns without waiting for it, and it then runs nothing
    gate = threading.Event()
    real = threading.Thread

    class Late(real):
        def run(self):
            gate.wait(5)
            super().run()

    monkeypatch.setattr(threads.threading, "Thread", Late)
    log = _Log(pause=3e-3)
    assert run_chunks(log, 8, threads=2) == 1
    assert log.chunks() == list(range(8))
    assert log.threads() == {threading.get_ident()}
    gate.set()
    time.sleep(0.05)
    assert log.chunks() == list(range(8))  # the late helper found nothing left


def test_an_error_in_a_chunk_reaches_the_caller():
    def job(lo, hi):
        time.sleep(3e-3)
        if lo <= 5 < hi:
            raise ValueError("chunk 5")

    with pytest.raises(ValueError, match="chunk 5"):
        run_chunks(job, 12, threads=2)


def _scenarios():
    fist = Weapon("Fist", "melee", 7, 16, attacks=1)
    yield "plain", Scenario(Target(defense=12, arm=18, boxes=20), [Attacker("Jack", [fist])])
    yield "general", load_scenario(Path(__file__).resolve().parents[1] / "mathhammer" / "data" / "demo.toml")


@pytest.mark.parametrize("name, scenario", list(_scenarios()))
def test_counts_are_the_same_on_one_and_two_threads(name, scenario):
    # same seed, same counts, whichever thread ran which chunk (the general kernel's chunks are
    # long enough that both threads take some)
    enc = encode(scenario)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = driver.run_sequences(enc, 200_000, 5, batch=4)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = driver.run_sequences(enc, 200_000, 5, batch=4)
    finally:
        numba.set_num_threads(before)
    for field in dataclasses.fields(one):
        assert np.array_equal(getattr(one, field.name), getattr(two, field.name)), field.name

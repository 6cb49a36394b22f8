"""One point of a matrix, computed where a backend runs it (this process or a Dask worker).

:func:`compute_point` is what a Dask worker executes: it is a module function (pickled by
reference), imports the kernels on its first call in a process (Numba then loads or compiles
them once; later calls in the same process reuse them), and returns plain data only, so that
nothing depends on unpickling mathhammer's exceptions on the client.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from dataclasses import dataclass

__all__ = ["Point", "PointDone", "PointFailed", "compute_point", "compute_points"]

#: One kernel call at a time per process: Numba's default threading layer may not be entered
#: from two threads at once (a Dask worker with several threads runs tasks concurrently).
_KERNEL_LOCK = threading.Lock()
_calls_in_process = 0


@dataclass(frozen=True)
class Point:
    """A point of the matrix: its key (attacker, target, parameter values, as text) and the
    scenario, with the trials, seed and method it runs with."""

    key: tuple[str, ...]
    scenario: object  # mathhammer.Scenario (kept untyped: this module imports nothing heavy)
    trials: int | None
    seed: int | None
    method: str


@dataclass(frozen=True)
class PointDone:
    """A finished point: its summary rows ``[metric, value, ci_low, ci_high]`` and where and
    how it ran (``pid`` of the process, ``first``: the first point of that process, ``seconds``
    spent in :func:`compute_point`)."""

    key: tuple[str, ...]
    rows: list
    pid: int
    first: bool
    seconds: float


@dataclass(frozen=True)
class PointFailed:
    """A point whose simulation raised a mathhammer error (e.g. the exact engine cannot do
    it): the message, kept as text."""

    key: tuple[str, ...]
    message: str


def _numba_threads() -> None:
    """Inside a Dask worker, use as many Numba threads as the worker has threads."""
    if "distributed" not in sys.modules:  # not in a worker (and Dask stays unimported)
        return
    try:
        from distributed import get_worker

        n = get_worker().state.nthreads
    except (ImportError, ValueError, AttributeError):
        return
    import numba

    numba.set_num_threads(max(1, min(int(n), numba.config.NUMBA_NUM_THREADS)))


#: ``(MathhammerError, simulate_point, summary_rows)``, imported by the first call (the
#: import statements cost a matrix point microseconds on every call).
_api: tuple | None = None


def _point_api() -> tuple:
    global _api
    if _api is None:
        from ...errors import MathhammerError
        from ..points import simulate_point, summary_rows

        _api = (MathhammerError, simulate_point, summary_rows)
    return _api


def compute_point(point: Point) -> PointDone | PointFailed:
    """Simulate ``point`` and return its summary rows (or the error it raised, as text)."""
    global _calls_in_process
    MathhammerError, simulate_point, summary_rows = _api or _point_api()
    start = time.perf_counter()
    with _KERNEL_LOCK:
        _numba_threads()
        first = _calls_in_process == 0
        _calls_in_process += 1
        try:
            result = simulate_point(point.scenario, point.trials, point.seed, point.method)
        except MathhammerError as exc:
            return PointFailed(point.key, str(exc))
        rows = summary_rows(result)
    return PointDone(point.key, rows, os.getpid(), first, time.perf_counter() - start)


def compute_points(points: tuple[Point, ...]) -> list[PointDone | PointFailed]:
    """Several points in one task (``batch``): their outcomes in order, stopping after the
    first that fails."""
    out = []
    for point in points:
        out.append(compute_point(point))
        if isinstance(out[-1], PointFailed):
            break
    return out

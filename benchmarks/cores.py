"""Effective cores, and a CPU burner: what a benchmark had of the machine (issue 20).

A shared 2-core machine can give a benchmark both cores, one, or anything between, and the
figures change with it. :func:`effective_cores` measures it: a fixed CPU-bound loop run on
one thread alone, then on two threads at once; effective cores = 2 x (time alone) / (time
together), about 2 when both cores are free and about 1 when another job holds one. Each
benchmark prints it at its start and at its end.

:class:`Burner` holds one core busy in a separate process (the "one core taken" case of the
issue), for a benchmark run beside it.
"""

from __future__ import annotations

import multiprocessing
import threading
import time

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def _spin(n):
    """A fixed amount of integer work (a xorshift chain), its result returned so it is kept."""
    x = np.uint64(88172645463325252)
    for _ in range(n):
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
    return x


def effective_cores(n: int = 20_000_000, repeats: int = 3) -> float:
    """Cores this process gets now (1 to 2 on a 2-core machine): two threads' spin against
    one's, best of ``repeats``."""
    _spin(1000)

    def alone() -> float:
        t = time.perf_counter()
        _spin(n)
        return time.perf_counter() - t

    def together() -> float:
        threads = [threading.Thread(target=_spin, args=(n,)) for _ in range(2)]
        t = time.perf_counter()
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        return time.perf_counter() - t

    one = min(alone() for _ in range(repeats))
    two = min(together() for _ in range(repeats))
    return 2.0 * one / two


def _burn(stop) -> None:
    while not stop.is_set():
        _spin(5_000_000)


class Burner:
    """A process that keeps one core busy until :meth:`stop` (or the end of a ``with``)."""

    def __init__(self):
        ctx = multiprocessing.get_context("spawn")
        self._stop = ctx.Event()
        self._proc = ctx.Process(target=_burn, args=(self._stop,), daemon=True)

    def start(self) -> "Burner":
        self._proc.start()
        time.sleep(0.5)  # let it compile or load _spin and take its core
        return self

    def stop(self) -> None:
        self._stop.set()
        self._proc.join(10)
        if self._proc.is_alive():
            self._proc.terminate()

    def __enter__(self) -> "Burner":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

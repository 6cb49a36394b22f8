"""Chunks of a batch shared out over threads that claim them as they go (issue 20, "two
threads under load").

A batch of chunks (:mod:`.chunks`) is independent work: each chunk writes only its own
counter row, so the counts never depend on which thread ran which chunk. :func:`run_chunks`
decides by the work whether threads are worth it, and shares the chunks out so that a thread
starved of a core by another program costs the run nothing but what it already claimed:

* the calling thread runs the first chunk alone and times it; when the rest would take under
  :data:`SERIAL_BELOW` seconds on one thread, it runs it too (no thread is started: a
  helper's start-up, and its wait for a core on a busy machine, cost more than the work);
* otherwise helper threads start, and every thread, the calling one included, claims the
  next range of chunks in turn until none is left. Ranges are sized so that a claim costs
  about :data:`CLAIM_SECONDS` (the Python call per claim is then a small part of it) while
  each thread still claims several (the balance). A helper that a busy machine starts late
  finds fewer chunks, or none, left: the run then goes on at the speed of the threads that
  have a core, and never waits for a helper that never got one. The calling thread waits
  only for the ranges already claimed.

The kernels release the GIL (``nogil``, :mod:`.jit`), so the threads run in parallel.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

__all__ = ["SERIAL_BELOW", "CLAIM_SECONDS", "run_chunks"]

#: Work left after the first chunk (seconds on one thread) under which no thread is started.
SERIAL_BELOW = 2e-3
#: Work per claim aimed at (seconds): the claims' Python cost is a few microseconds each.
CLAIM_SECONDS = 1e-3
#: Claims per thread at least (when there are enough chunks): a late or slow thread then
#: leaves the others work to take over.
CLAIMS_PER_THREAD = 4


class _Claims:
    """The chunks ``first .. k - 1`` handed out in ranges of ``grain``, and how many of the
    claimed ranges are still running (the calling thread waits for those only)."""

    def __init__(self, first: int, k: int, grain: int):
        self.next = first
        self.k = k
        self.grain = grain
        self.running = 0
        self.error: BaseException | None = None
        self.lock = threading.Condition()

    def claim(self) -> tuple[int, int] | None:
        with self.lock:
            if self.next >= self.k or self.error is not None:
                return None
            lo = self.next
            self.next = min(self.k, lo + self.grain)
            self.running += 1
            return lo, self.next

    def done(self, error: BaseException | None = None) -> None:
        with self.lock:
            self.running -= 1
            if error is not None and self.error is None:
                self.error = error
            self.lock.notify_all()

    def work(self, job: Callable[[int, int], None]) -> None:
        """Claim and run ranges until none is left (a helper's whole life)."""
        while (span := self.claim()) is not None:
            try:
                job(*span)
            except BaseException as exc:  # handed to the calling thread, which raises it
                self.done(exc)
                return
            self.done()

    def wait(self) -> None:
        with self.lock:
            while self.running:
                self.lock.wait()
            if self.error is not None:
                raise self.error


def run_chunks(job: Callable[[int, int], None], k: int, threads: int) -> int:
    """Run ``job(lo, hi)`` over ranges covering chunks ``0 .. k - 1`` once each, on up to
    ``threads`` threads (the calling one included); returns the number of threads started
    besides the calling one (0: the batch ran on the calling thread alone).

    ``job`` must run chunks ``lo .. hi - 1`` and write only their own results (any order,
    any thread gives the same results).

    >>> seen = []
    >>> run_chunks(lambda lo, hi: seen.extend(range(lo, hi)), 5, 1), sorted(seen)
    (0, [0, 1, 2, 3, 4])
    """
    if k <= 0:
        return 0
    began = time.perf_counter()
    job(0, 1)
    if k == 1:
        return 0
    per_chunk = max(time.perf_counter() - began, 1e-7)
    helpers = min(threads, k - 1) - 1
    if helpers <= 0 or per_chunk * (k - 1) < SERIAL_BELOW:
        job(1, k)
        return 0
    grain = max(1, min(int(CLAIM_SECONDS / per_chunk), (k - 1) // (CLAIMS_PER_THREAD * (helpers + 1))))
    claims = _Claims(1, k, grain)
    for _ in range(helpers):
        threading.Thread(target=claims.work, args=(job,), daemon=True).start()
    claims.work(job)
    claims.wait()
    return helpers

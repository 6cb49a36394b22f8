"""One computation at a time, the newest value winning: what keeps the explorer live while a
slider is dragged.

:meth:`Runner.submit` never waits: it records the request as the newest and wakes the worker
thread. The worker takes the newest request, runs its stages, and hands each stage's output
to ``publish`` (with the request's number, so the page can drop what a newer value has
already replaced). A request submitted while one is running stops the running one at its
next check (:func:`mathhammer._core.ticker.stopping`: the exact engine's transitions, each
batch of Monte Carlo trials), and the requests that came in between are never computed: at
most one computation runs and one waits, however fast the values change.

>>> seen = []
>>> def work(n, check):
...     yield n * 10
>>> r = Runner(work, lambda gen, out: seen.append((gen, out)))
>>> r.run_now(4)
>>> seen
[(1, 40)]
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

from .stages import Superseded

__all__ = ["Runner"]


class Runner:
    """Runs ``work(request, check)`` (a generator of outputs; ``check()`` raises
    :class:`~mathhammer.app.stages.Superseded` once a newer request is in) on a worker thread.

    Parameters
    ----------
    work : callable
        ``work(request, check) -> iterator of outputs``.
    publish : callable
        ``publish(number, output)``, called on the worker thread for each output, and with
        an exception as output when the work raised one (other than :class:`Superseded`).
    """

    def __init__(self, work: Callable[[object, Callable[[], None]], Iterator],
                 publish: Callable[[int, object], None]):
        self.work = work
        self.publish = publish
        self._cond = threading.Condition()
        self._number = 0       # of the newest request
        self._pending = None   # (number, request) waiting, or None
        self._running = False
        self._thread: threading.Thread | None = None
        self._closed = False
        self.computed = 0      # requests whose work started (the rest were skipped)

    @property
    def alive(self) -> bool:
        """Whether the worker thread runs (started by the first submit, ended by close)."""
        return self._thread is not None and self._thread.is_alive()

    @property
    def newest(self) -> int:
        """The number of the newest request."""
        return self._number

    def _check(self, number: int) -> Callable[[], None]:
        def check() -> None:
            if self._number != number:
                raise Superseded
        return check

    def _execute(self, number: int, request) -> None:
        self.computed += 1
        try:
            for out in self.work(request, self._check(number)):
                if self._number != number:
                    return
                self.publish(number, out)
        except Superseded:
            return
        except Exception as err:  # shown on the page as one line, never a traceback
            self.publish(number, err)

    def run_now(self, request) -> None:
        """Compute ``request`` on the calling thread, to the end (tests, benchmarks)."""
        with self._cond:
            self._number += 1
            number = self._number
        self._execute(number, request)

    def submit(self, request) -> int:
        """Make ``request`` the newest and have the worker compute it; returns its number."""
        with self._cond:
            self._number += 1
            if self._closed:
                return self._number
            self._pending = (self._number, request)
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="mathhammer-explorer",
                                                daemon=True)
                self._thread.start()
            self._cond.notify_all()
            return self._number

    def close(self) -> None:
        """Stop the worker (the page's session has ended): the running computation stops at
        its next check, and nothing more is computed."""
        with self._cond:
            self._closed = True
            self._number += 1
            self._pending = None
            self._cond.notify_all()

    def _loop(self) -> None:
        while True:
            with self._cond:
                while self._pending is None:
                    self._running = False
                    self._cond.notify_all()
                    if self._closed:
                        return
                    self._cond.wait()
                number, request = self._pending
                self._pending = None
                self._running = True
            self._execute(number, request)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until nothing runs or waits (True), or ``timeout`` seconds pass (False)."""
        with self._cond:
            return self._cond.wait_for(lambda: self._pending is None and not self._running, timeout)

"""The Dask backend: each point a task on a ``distributed`` cluster.

Points are submitted as they can be run (a window of about twice the cluster's threads is in
flight, so a matrix of a million points never holds a million futures), and each result is
gathered and released as soon as it finishes: a finished point lives only in the client's
file, so a worker that dies loses no finished point, only the point it was running, which
the scheduler runs again elsewhere.

Each task is one point by default. Dask costs the client and scheduler a few milliseconds of
CPU per task, which caps a run at a few hundred points a second however many workers there
are; ``batch=k`` puts k points in a task (k times fewer tasks), at the price that a worker
killed mid-task loses the whole batch it was running, not only one point.

The kernels are compiled (or loaded from Numba's on-disk cache) by a worker process on its
first point and reused for every later point that process runs. A worker with several threads
runs one point at a time on all of them (see :mod:`.task`).
"""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import Iterable, Iterator

from ...errors import InputError, MathhammerError
from .task import Point, PointDone, PointFailed, compute_point, compute_points

__all__ = ["SCHEMES", "DaskBackend"]

#: Address schemes passed to ``distributed.Client`` as they are.
SCHEMES = ("tcp://", "tls://", "ucx://", "inproc://", "ws://", "wss://")
_CONNECT_TIMEOUT = "20s"
_MUTE_TIMEOUT = 5  # seconds


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise InputError("scheduler", "dask", "needs Dask, which is not installed: "
                         "pip install 'mathhammer[dask]'") from None
    return distributed


class DaskBackend:
    """Points as tasks of a Dask ``distributed`` cluster.

    Parameters
    ----------
    scheduler : str or distributed.Client
        ``"local-cluster"``: start a LocalCluster of ``workers`` processes (default: one per
        core) of one thread each, closed at the end; an address (``tcp://host:port``): connect
        to that scheduler, whose workers must have the same mathhammer installed; a
        ``distributed.Client``: use it as it is (it is left open).
    workers : int, optional
        Worker processes of a ``"local-cluster"``.
    batch : int
        Points per task.
    """

    name = "dask"

    def __init__(self, scheduler, workers: int | None = None, batch: int = 1):
        distributed = _import_distributed()
        self.batch = batch
        self._own_client = self._cluster = None
        if isinstance(scheduler, distributed.Client):
            if workers is not None:
                raise InputError("workers", workers, "applies to scheduler='local-cluster' "
                                 "only (the given client has its own workers)")
            self.client = scheduler
        elif scheduler == "local-cluster":
            n = workers or os.cpu_count() or 1
            self._cluster = distributed.LocalCluster(
                n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
                silence_logs=logging.ERROR)
            self.client = self._own_client = distributed.Client(self._cluster)
        elif isinstance(scheduler, str) and scheduler.startswith(SCHEMES):
            host = scheduler.split("://", 1)[1]
            if not host.strip() or host.startswith(":"):  # distributed's own error is pages long
                raise InputError("scheduler", scheduler, "has no host: give an address such as "
                                 "tcp://host:8786")
            _check_address(distributed, scheduler)
            if workers is not None:
                raise InputError("workers", workers, "applies to scheduler='local-cluster' "
                                 "only (a cluster at an address has its own workers)")
            try:
                self.client = self._own_client = distributed.Client(
                    scheduler, timeout=_CONNECT_TIMEOUT)
            except (OSError, TimeoutError, ValueError, TypeError) as exc:
                reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                raise InputError("scheduler", scheduler,
                                 f"cannot reach the Dask scheduler ({reason})") from None
        else:
            raise InputError("scheduler", scheduler, "must be 'local', 'local-cluster', a "
                             "scheduler address such as tcp://host:8786, or a distributed.Client")
        info = self.client.scheduler_info()
        self.dashboard = (self.client.dashboard_link
                          if "dashboard" in info.get("services", {}) else None)
        self.workers = max(1, sum(self.client.nthreads().values()))
        self._futures: list = []

    def __enter__(self) -> DaskBackend:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Cancel what is still running; close the client and cluster this backend started."""
        if self._futures:
            try:
                self.client.cancel(self._futures)
            except Exception:  # noqa: BLE001 - best effort while closing
                pass
            self._futures = []
        if self._cluster is not None:
            # Workers closing at the same moment as the scheduler may log a lost heartbeat
            # (with its traceback) after a run that went well: a race inside ``distributed``.
            # What a worker logs from here on is shutdown noise, not something to show
            # (at most a few seconds' wait: a stuck worker must not hold up the closing).
            try:
                self.client.run(_mute_logs, on_error="ignore", callback_timeout=_MUTE_TIMEOUT)
            except Exception:  # noqa: BLE001 - best effort while closing
                pass
        if self._own_client is not None:
            self._own_client.close()
            self._own_client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None

    def run(self, points: Iterable[Point]) -> Iterator[PointDone | PointFailed]:
        """Yield each point's outcome as soon as its task finishes (in any order).

        Raises
        ------
        MathhammerError
            A point whose task killed workers again and again (Dask's ``KilledWorker``).
        """
        from distributed import as_completed
        from distributed.scheduler import KilledWorker

        run_id = uuid.uuid4().hex[:8]
        todo = iter(enumerate(_batches(points, self.batch)))
        window = max(4, 2 * self.workers)
        # results are fetched from the workers in the background as each task finishes, so
        # a finished point waits for the writer in this process, not in a worker's memory
        pending = as_completed(loop=self.client.loop, with_results=True, raise_errors=False)
        keys = {}

        def submit() -> bool:
            item = next(todo, None)
            if item is None:
                return False
            i, batch = item
            if len(batch) == 1:
                future = self.client.submit(compute_point, batch[0], pure=False,
                                            key=f"mathhammer-point-{run_id}-{i}")
            else:
                future = self.client.submit(compute_points, batch, pure=False,
                                            key=f"mathhammer-points-{run_id}-{i}")
            keys[future.key] = (batch[0].key, len(batch))
            self._futures.append(future)
            pending.add(future)
            return True

        for _ in range(window):
            if not submit():
                break
        for future, outcome in pending:
            if isinstance(outcome, BaseException):
                first, n = keys[future.key]
                where = (f"matrix point {' / '.join(first)}" if n == 1 else
                         f"the {n} matrix points from {' / '.join(first)}")
                if isinstance(outcome, KilledWorker):
                    raise MathhammerError(f"{where}: its task killed the Dask workers that ran "
                                          "it, again and again (out of memory?)") from None
                raise MathhammerError(f"{where}: the Dask task failed: "
                                      f"{type(outcome).__name__}: {outcome}") from None
            self._futures.remove(future)
            future.release()
            yield from outcome if isinstance(outcome, list) else (outcome,)
            submit()


def _mute_logs() -> None:
    """Run on each worker of a local cluster about to close: drop what ``distributed`` logs."""
    names = [name for name in logging.root.manager.loggerDict
             if name == "distributed" or name.startswith("distributed.")]
    for name in names:  # a child logger with a level of its own ignores its parent's
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _batches(points: Iterable[Point], size: int) -> Iterator[tuple[Point, ...]]:
    """``points`` in tuples of ``size`` (the last may be shorter)."""
    batch: list[Point] = []
    for point in points:
        batch.append(point)
        if len(batch) == size:
            yield tuple(batch)
            batch = []
    if batch:
        yield tuple(batch)


def _check_address(distributed, address: str) -> None:
    """Refuse, before connecting, an address Dask's own parser refuses (a bracket left open,
    a port that is not a number or not 1 to 65535): its errors are tracebacks."""
    try:
        _, location = distributed.comm.parse_address(address)
        _, port = distributed.comm.parse_host_port(location)
    except (ValueError, TypeError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise InputError("scheduler", address, f"is not an address Dask can read ({reason})") from None
    if not 1 <= int(port) <= 65535:
        raise InputError("scheduler", address, "has a port outside 1..65535")

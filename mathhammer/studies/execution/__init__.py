"""Where the points of a balance matrix are computed: this process, or a Dask cluster.

A backend takes the points still to do and yields each point's figures as it finishes, in any
order; :func:`mathhammer.studies.matrices.matrix` writes them down as they come. Every point carries
its own seed (derived from the run's seed and the point's key), so a point's figures do not
depend on which backend, worker or order computed it.

- :class:`~mathhammer.studies.execution.local.LocalBackend`: one point after another in this process,
  each on all cores through Numba's threads. The default; needs no Dask.
- :class:`~mathhammer.studies.execution.dask_backend.DaskBackend`: points as Dask tasks on a
  ``distributed`` cluster (``"local-cluster"`` or a scheduler address), installed with the
  ``mathhammer[dask]`` extra.
"""

from __future__ import annotations

from .protocol import Backend
from .task import Point, PointDone, PointFailed, compute_point, compute_points

__all__ = ["Backend", "Point", "PointDone", "PointFailed", "compute_point", "compute_points",
           "make_backend"]


def make_backend(scheduler=None, workers: int | None = None, batch: int | None = None) -> Backend:
    """The backend for ``scheduler``: None or ``"local"`` (this process), ``"local-cluster"``
    (a Dask LocalCluster of ``workers`` processes), a scheduler address
    (``tcp://host:port``, ``tls://...``) or a ``distributed.Client``; ``batch`` points per
    Dask task (default 1).

    Raises
    ------
    InputError
        An unknown ``scheduler`` or a bad ``workers`` or ``batch``; Dask asked for but not
        installed.
    """
    from ...errors import InputError

    for key, value in (("workers", workers), ("batch", batch)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < 1):
            raise InputError(key, value, "must be a whole number of at least 1")
    if scheduler is None or scheduler == "local":
        if workers is not None:
            raise InputError("workers", workers, "applies to scheduler='local-cluster' only "
                             "(the local backend uses every core)")
        if batch is not None:
            raise InputError("batch", batch, "applies to Dask schedulers only (the local "
                             "backend runs one point at a time)")
        from .local import LocalBackend

        return LocalBackend()
    from .dask_backend import DaskBackend

    return DaskBackend(scheduler, workers, batch or 1)

"""What a backend is: where the points of a balance matrix are computed.

A backend is a context manager (entered for the run, closed after it, also on Ctrl-C or an
error) whose :meth:`~Backend.run` takes the points still to do and yields each one's outcome
as soon as it is finished, in any order. Every point carries its own seed, so a backend
decides where and when a point is computed, never its figures. A new backend is a class with
these members, chosen in :func:`mathhammer.studies.execution.make_backend`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol, runtime_checkable

from .task import Point, PointDone, PointFailed

__all__ = ["Backend"]


@runtime_checkable
class Backend(Protocol):
    """The interface :func:`mathhammer.matrix` runs points through."""

    #: Short name reported in the frame's ``attrs["backend"]`` (``"local"``, ``"dask"``).
    name: str
    #: Threads computing points at once (reported; the local backend: 1 point at a time).
    workers: int
    #: Points per task (1 where points are not batched).
    batch: int
    #: Address of a dashboard to print beside the progress bar, or None.
    dashboard: str | None

    def __enter__(self) -> Backend: ...

    def __exit__(self, *exc) -> None: ...

    def run(self, points: Iterable[Point]) -> Iterator[PointDone | PointFailed]:
        """Yield each point's outcome as soon as it is computed."""
        ...

"""The default backend: the points one after another in this process, each on every core
(Numba's threads share the trials of a point). Needs no Dask."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .task import Point, PointDone, PointFailed, compute_point

__all__ = ["LocalBackend"]


class LocalBackend:
    """Compute points in this process, in order."""

    name = "local"
    dashboard: str | None = None
    workers = 1
    batch = 1

    def __enter__(self) -> LocalBackend:
        return self

    def __exit__(self, *exc) -> None:
        return None

    def run(self, points: Iterable[Point]) -> Iterator[PointDone | PointFailed]:
        """Yield each point's outcome as soon as it is computed."""
        for point in points:
            yield compute_point(point)

"""Progress of a run over points (sweeps, matrices): a tqdm bar or the caller's callable."""

from __future__ import annotations

import sys
from collections.abc import Callable

from ..errors import InputError

__all__ = ["PointProgress", "check_progress"]


def check_progress(progress) -> None:
    """``progress`` must be None, a bool or a callable (raises :class:`InputError`)."""
    if not (progress is None or isinstance(progress, bool) or callable(progress)):
        raise InputError("progress", progress, "must be true, false, none or a callable")


class PointProgress:
    """Counts finished points and shows them.

    ``progress``: None, a tqdm bar on stderr once the run has lasted a second; True, at once;
    False, nothing; a callable, called as ``progress(done, total)`` after each point.
    """

    def __init__(self, progress: bool | None | Callable[[int, int], object], total: int,
                 done: int, desc: str):
        self.total, self.done = total, done
        self._callback = progress if callable(progress) else None
        self._bar = None
        if self._callback is None:
            from tqdm import tqdm

            self._bar = tqdm(total=total, initial=done, unit="point", desc=desc, leave=False,
                             delay=0.0 if progress is True else 1.0, disable=progress is False)

    def note(self, text: str) -> None:
        """A line on stderr above the bar (nothing when there is no bar)."""
        if self._bar is not None and not self._bar.disable:
            self._bar.write(text, file=sys.stderr)

    def tick(self) -> None:
        """One more point finished."""
        self.done += 1
        if self._bar is not None:
            self._bar.update(1)
        else:
            self._callback(self.done, self.total)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()

"""Progress of a run over points (sweeps, matrices): a tqdm bar or the caller's callable.

Whether a bar is shown follows the rule of every run (:func:`mathhammer._core.ticker.show_progress`):
``None`` shows it only where stderr is a terminal, so that no bar redrawn with carriage
returns lands in a log, a pipe or a captured stream; ``True`` shows it wherever stderr goes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from .._core import ticker
from ..errors import InputError

__all__ = ["PointProgress", "check_progress"]


def check_progress(progress) -> None:
    """``progress`` must be None, a bool or a callable (raises :class:`InputError`)."""
    if not (progress is None or isinstance(progress, bool) or callable(progress)):
        raise InputError("progress", progress, "must be true, false, none or a callable")


class PointProgress:
    """Counts finished points and shows them.

    ``progress``: None, a tqdm bar on stderr once the run has lasted a second
    (:data:`~mathhammer._core.ticker.DELAY`), where stderr is a terminal; True, that bar
    wherever stderr goes; False, nothing; a callable, called as ``progress(done, total)``
    after each point.
    """

    def __init__(self, progress: bool | None | Callable[[int, int], object], total: int,
                 done: int, desc: str):
        self.total, self.done = total, done
        self._callback = progress if callable(progress) else None
        self._bar = None
        if self._callback is None:
            from tqdm import tqdm

            self._bar = tqdm(total=total, initial=done, unit="point", desc=desc, leave=False,
                             delay=ticker.DELAY, disable=not ticker.show_progress(progress))

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

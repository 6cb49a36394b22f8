"""Progress shown on stderr: whether to show it, and a ticker for work that cannot count
ahead (the exact engine and best play, whose transitions are found as they are built).

The same ticks write a one-line notice once long work has lasted a while
(:func:`noticing`: the exact engine suggesting Monte Carlo). They also let a caller stop long
work: inside a :func:`stopping` block, every
:func:`tick` (and every batch of Monte Carlo trials) calls the block's check, which raises to
stop the work where it stands (the explorer stops a computation a newer value has made
stale, or an exact try that has overrun its budget).

A ``progress`` argument of the API is ``None`` (show it when stderr is a terminal: the
command line, not a captured test or a pipe), ``True`` or ``False``. :func:`ticking` opens a
tqdm counter that appears once the work has lasted a second; code deep in an engine calls
:func:`tick` with the transitions it built, which costs a lookup when nothing is shown.

>>> with ticking("exact", False):
...     tick(5)                      # nothing shown, nothing counted
>>> show_progress(False), show_progress(True)
(False, True)
>>> def stop():
...     raise TimeoutError("stopped")
>>> with stopping(stop):
...     tick(1)
Traceback (most recent call last):
...
TimeoutError: stopped
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from contextvars import ContextVar

from ..errors import InputError

__all__ = ["check_show", "noticing", "show_progress", "stopping", "tick", "ticking"]

#: Seconds a run lasts before its progress appears (quick runs show nothing).
DELAY = 1.0

_ACTIVE: ContextVar = ContextVar("mathhammer_ticker", default=None)
_STOP: ContextVar = ContextVar("mathhammer_stop", default=None)
_NOTICE: ContextVar = ContextVar("mathhammer_notice", default=None)


def check_show(progress) -> None:
    """``progress`` must be None, True or False (raises :class:`InputError`).

    >>> check_show("yes")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: progress: must be true, false or none (got 'yes')
    """
    if not (progress is None or isinstance(progress, bool)):
        raise InputError("progress", progress, "must be true, false or none")


def show_progress(progress: bool | None) -> bool:
    """Whether to show progress: ``progress`` itself, or for None whether stderr is a
    terminal."""
    check_show(progress)
    if progress is None:
        isatty = getattr(sys.stderr, "isatty", None)
        return bool(isatty and isatty())
    return progress


@contextmanager
def ticking(desc: str, show: bool, *, unit: str = "transition", total: int | None = None):
    """A tqdm bar named ``desc`` on stderr (shown once the block has lasted :data:`DELAY`,
    removed at its end) counting the :func:`tick` calls made inside the block, or, with a
    ``total``, the updates of the bar it yields; None and nothing shown when ``show`` is
    False."""
    if not show:
        yield None
        return
    from tqdm import tqdm

    with tqdm(desc=desc, unit=unit, unit_scale=True, delay=DELAY, leave=False,
              total=total) as bar:
        token = _ACTIVE.set(bar)
        try:
            yield bar
        finally:
            _ACTIVE.reset(token)


@contextmanager
def stopping(check):
    """Inside the block, every :func:`tick` calls ``check()`` (a callable taking nothing),
    which may raise to stop the work; blocks nest, the innermost check applies."""
    token = _STOP.set(check)
    try:
        yield
    finally:
        _STOP.reset(token)


@contextmanager
def noticing(after: float, text: str, stream=None):
    """Inside the block, the first :func:`tick` once it has lasted ``after`` seconds writes
    the line ``text`` on ``stream`` (stderr, read then, by default), once.

    >>> import io
    >>> out = io.StringIO()
    >>> with noticing(0.0, "still at work", out):
    ...     tick(1); tick(1)
    >>> out.getvalue()
    'still at work\\n'
    """
    note = [time.perf_counter() + after, text, stream]
    token = _NOTICE.set(note)
    try:
        yield
    finally:
        _NOTICE.reset(token)


def tick(n: int = 1) -> None:
    """Add ``n`` to the counter of the enclosing :func:`ticking` block, if one is shown,
    write the enclosing :func:`noticing` block's notice when it is due, then call the
    enclosing :func:`stopping` block's check, if any."""
    bar = _ACTIVE.get()
    if bar is not None:
        bar.update(n)
    note = _NOTICE.get()
    if note is not None and note[0] is not None and time.perf_counter() >= note[0]:
        note[0] = None  # once
        out = sys.stderr if note[2] is None else note[2]
        if bar is not None:
            bar.write(note[1], file=out)  # above the counter
        else:
            out.write(note[1] + "\n")
        out.flush()
    check = _STOP.get()
    if check is not None:
        check()

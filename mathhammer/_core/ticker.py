"""Progress shown on stderr: whether to show it, and a ticker for work that cannot count
ahead (the exact engine and best play, whose transitions are found as they are built).

The same ticks write a one-line notice once long work has lasted a while
(:func:`noticing`: the exact engine suggesting Monte Carlo). They also let a caller stop long
work: inside a :func:`stopping` block, every :func:`tick` (and every batch of Monte Carlo
trials) calls the block's check, which raises to stop the work where it stands (the explorer
stops a computation a newer value has made stale, or an exact try that has overrun its
budget). Work that cannot tick at all, a kernel's compile, runs inside :func:`waiting`: its
notice, then the bar's clock counting.

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
import threading
import time
from contextlib import contextmanager
from contextvars import ContextVar

from ..errors import InputError

__all__ = ["check_show", "noticing", "say", "show_progress", "stopping", "tick", "ticking",
           "waiting"]

#: Seconds a run lasts before its progress appears (quick runs show nothing).
DELAY = 1.0

#: Seconds between two redraws of a bar inside :func:`waiting` (its clock counting).
REDRAW = 1.0

#: Seconds between two looks of :func:`waiting` at whether its block has ended, while the
#: notice waits for its cause.
_POLL = 0.05

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
        _write(note[1], note[2], bar)
    check = _STOP.get()
    if check is not None:
        check()


@contextmanager
def waiting(desc: str, after: float, notice: str, stream=None, *, cause=None):
    """Work that cannot tick (a kernel's compile): once the block has lasted ``after``
    seconds, write the line ``notice`` on ``stream`` (stderr, read then, by default) and, where
    an enclosing :func:`ticking` bar is shown, name it ``desc`` and redraw it every
    :data:`REDRAW` seconds, so that its clock counts the wait instead of standing still; its
    name comes back at the end.

    ``cause``, a :class:`threading.Event`, holds the notice back until it is set: the caller
    sets it once the wait is known to be what the notice names (Numba compiling, not loading
    from its cache), so that a wait that is merely slow, on a busy machine, is not misnamed.
    None: the notice names any long wait.

    Yields a :class:`threading.Event`, set once the notice is written (the wait was long).
    The notice and the redrawing come from a thread, which the block's end stops and joins.

    >>> import io
    >>> out = io.StringIO()
    >>> with waiting("compiling", 0.0, "compiling the kernel...", out) as shown:
    ...     time.sleep(0.2)
    >>> shown.is_set(), out.getvalue()
    (True, 'compiling the kernel...\\n')
    """
    bar = _ACTIVE.get()  # here: a thread starts without this context
    name = None if bar is None else bar.desc
    shown, done = threading.Event(), threading.Event()

    def wait() -> None:
        if done.wait(after):
            return
        while cause is not None and not cause.wait(_POLL):
            if done.is_set():  # ended without its cause: no notice
                return
        if bar is not None:
            bar.set_description_str(desc, refresh=False)  # drawn so by the notice's writing
        _write(notice, stream, bar)
        shown.set()
        while bar is not None and not done.wait(REDRAW):
            bar.refresh()  # the elapsed time moves on

    thread = threading.Thread(target=wait, daemon=True)
    thread.start()
    try:
        yield shown
    finally:
        done.set()
        thread.join()  # a notice being written is finished before the caller reads ``shown``
        if bar is not None and shown.is_set():
            bar.set_description_str(name, refresh=False)


def say(text: str, stream=None) -> None:
    """Write the line ``text`` on ``stream`` (stderr, read then, by default), above the
    enclosing :func:`ticking` bar where one is shown, so that the two never overlap."""
    _write(text, stream, _ACTIVE.get())


def _write(text: str, stream, bar) -> None:
    out = sys.stderr if stream is None else stream
    if bar is not None:
        bar.write(text, file=out)  # above the counter
    else:
        out.write(text + "\n")
    out.flush()

"""Compile a kernel before its first call, and say so when that takes a while.

Numba compiles a kernel on its first call in a process, or loads it from its on-disk cache
(``cache=True``, :mod:`~mathhammer._core.jit`). A load takes well under a second; a cold
compile, at the first run of each kind (plain or general kernel, one target or several,
one chunk of trials or many) after installing or upgrading, takes seconds to minutes on two
cores. :func:`compile_for` compiles (or loads) the kernel for the argument types of the
call about to be made and, when Numba compiles and that has not finished after
:data:`NOTICE_AFTER` seconds, writes one line on stderr saying so (where a progress bar is
shown, its clock then counts the wait: :func:`~mathhammer._core.ticker.waiting`), so a
first run never waits in silence.

Whether Numba compiles is what Numba says, not a guess from the time taken: its event API
(``numba.core.event``) broadcasts a ``"numba:compile"`` event when a dispatcher compiles,
and none when it loads machine code from its cache. A load slowed down by a busy machine is
therefore never announced as a compile.
"""

from __future__ import annotations

import threading
import time
import weakref
from contextlib import contextmanager

import numpy as np

from .ticker import say, waiting

__all__ = ["NOTICE_AFTER", "arg_layout", "compile_for", "machine_code", "numba_compiling"]

#: Seconds a compile may take before the notice is written (a cold compile takes far more;
#: a load from the cache is never announced, however long it takes).
NOTICE_AFTER = 1.0


def compile_for(dispatcher, args: tuple, what: str, about: str, *, stream=None) -> bool:
    """Make ``dispatcher`` ready for ``args`` (its next call), with a notice on stderr
    when Numba compiles (rather than loads from its cache) and that takes over
    :data:`NOTICE_AFTER` seconds.

    Parameters
    ----------
    dispatcher : numba Dispatcher
        A kernel made by :func:`mathhammer._core.jit.jit`.
    args : tuple
        The arguments of the call about to be made (only their types are read).
    what : str
        What is compiled, in a user's words (``"the Monte Carlo kernel for this scenario"``).
    about : str
        How long a cold compile takes, measured (``"about 5 s on two cores"``).
    stream : file, optional
        Where the notice goes; ``sys.stderr`` (read at the call) when None.

    Returns
    -------
    bool
        True when the notice was written (Numba compiled, slowly: a cold cache).
    """
    # Numba's typing of the arguments costs ~0.7 ms for the general kernel's tables (a cost
    # per batch of every run, a matrix's points too): a key of what that typing reads, held
    # once the kernel is ready, answers the calls after the first at a fraction of it
    layout, ready = arg_layout(args), _READY.setdefault(dispatcher, set())
    if layout in ready:
        return False
    types = tuple(dispatcher.typeof_pyval(a) for a in args)
    if types in dispatcher.overloads:  # already compiled in this process
        ready.add(layout)
        return False
    notice = (f"mathhammer: compiling {what} (the first run of its kind after installing "
              f"only; {about})...")
    began = time.perf_counter()
    with numba_compiling() as compiling, waiting("compiling", NOTICE_AFTER, notice, stream,
                                                  cause=compiling) as shown:
        dispatcher.compile(types)
    ready.add(layout)
    if shown.is_set():
        say(f"mathhammer: compiled in {time.perf_counter() - began:.0f} s; later runs load it "
            "from the cache (`mathhammer warm` compiles every kernel ahead)", stream)
    return shown.is_set()


@contextmanager
def numba_compiling():
    """Inside the block, an :class:`threading.Event` set once Numba starts compiling a
    function in this thread (a ``"numba:compile"`` event of ``numba.core.event``: sent for
    a compile, never for a load from the cache; a kernel's compile sends one for it and one
    for each function it calls that is compiled with it).

    >>> import numba
    >>> @numba.njit
    ... def thrice(x):
    ...     return 3 * x
    >>> with numba_compiling() as compiled:
    ...     _ = thrice(1)
    >>> with numba_compiling() as again:
    ...     _ = thrice(2)  # compiled already
    >>> compiled.is_set(), again.is_set()
    (True, False)
    """
    from numba.core import event

    seen, here = threading.Event(), threading.get_ident()

    class Compiles(event.Listener):
        def on_start(self, ev):
            if threading.get_ident() == here:  # not another thread's compile
                seen.set()

        def on_end(self, ev):
            pass

    with event.install_listener("numba:compile", Compiles()):
        yield seen


def machine_code(dispatcher, args: tuple):
    """The compiled code of ``dispatcher`` for the types of ``args``, to call without Numba's
    dispatch; ``dispatcher`` itself where there is none yet (call :func:`compile_for` first).

    A dispatcher types every argument on every call to pick its machine code: about 12 us a
    call for the kernels' two dozen arrays, paid by every point of a balance matrix (whose
    fixed cost is a few tenths of a millisecond: called directly, ``run_sequences`` of 100
    trials took 98 us against 110 us). The code returned
    takes arguments of exactly these types, so a caller keeps it under the
    :func:`arg_layout` key it was made for.

    >>> import numba
    >>> @numba.njit
    ... def twice(x):
    ...     return 2 * x
    >>> code = machine_code(twice, (np.int64(3),))
    >>> code is twice  # not compiled yet
    True
    >>> _ = twice(np.int64(3)); code = machine_code(twice, (np.int64(3),))
    >>> code is twice, int(code(np.int64(21)))
    (False, 42)
    """
    types = tuple(dispatcher.typeof_pyval(a) for a in args)
    compiled = dispatcher.overloads.get(types)
    return getattr(compiled, "entry_point", None) or dispatcher


#: The argument layouts each kernel was compiled or loaded for in this process. Held by the
#: kernel weakly: a kernel made and freed (a test's) leaves no entry that a later kernel at
#: the same address would read as its own.
_READY: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def arg_layout(a):
    """What Numba's typing of ``a`` depends on, for the arguments the kernels take (arrays,
    NumPy and Python scalars, None, tuples and NamedTuples of them): equal keys, equal types.

    >>> arg_layout((np.zeros(2), np.int64(1))) == arg_layout((np.ones(5), np.int64(7)))
    True
    >>> arg_layout(np.zeros((2, 2))) == arg_layout(np.zeros(2))
    False
    """
    if isinstance(a, np.ndarray):  # the flags' bits: contiguity, writeable, aligned
        return (a.dtype, a.ndim, a.flags.num)
    if isinstance(a, tuple):  # map: a generator's frame per tuple cost as much as the arrays
        return (type(a), tuple(map(arg_layout, a)))
    return type(a)

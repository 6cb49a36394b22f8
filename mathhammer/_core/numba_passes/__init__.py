"""Faster equivalents of nine of Numba's (and llvmlite's) compile-time steps, used while the
kernels compile.

A cold compile of the general Monte Carlo kernel spent most of its time in pure-Python
analyses of Numba's front end whose cost grows with the square of the function's size
(of the lasting variant's 31 s cold compile, the live-variable maps took 10.8 s and the SSA
reconstruction 6-7 s): the variables live at each block (fixed points over Python sets
holding nearly every variable of the function), the SSA reconstruction (for each variable
assigned more than once, a pass over every statement), dead code removal (a copy of every
live variable before each statement) and the scope fix-up after closures are inlined (every
variable, once per block). Each is computed here as Numba does it, on less work:

* :func:`~.liveness.live_map` and :func:`~.liveness.live_variables`: the same fixed points,
  on bitsets (a Python int per block, a bit per variable) instead of sets;
* :func:`~.ssa.run_ssa`: Numba's own handlers, on the blocks where the variable appears
  (Numba's pass leaves the others as they are);
* :func:`~.deadcode.remove_dead_block`: the live variables with their aliases built only
  for the statements whose check reads them;
* :func:`~.ssa.define_in_scopes`: once per scope, not once per block (blocks share one);
* :func:`~.lifetime.post_processor`: the post-processing Numba runs after every pass that
  changes the IR, with the variables' lifetimes worked out when read (in a nopython
  compile, never) instead of at each run;
* :func:`~.calltypes.call_typer`: the signature of a call to a built-in function (an
  operator, ``getitem``...) searched once per argument types, not at each question of
  type inference;
* :func:`~.position.position_before`: llvmlite's builder put before the last instruction of
  a block without searching the block for it;
* :func:`~.arraycall.nested_array_fixer`: the nesting of arrays a list comprehension
  built, skipped (with its analyses of the whole function) where there is none.

Each gives what Numba's own gives, to the statement, the variable name and the order: the
kernels' machine code is the same (their LLVM IR compared, every variant). :func:`faster_passes`
installs them only while mathhammer compiles (:func:`~mathhammer._core.compiling.compile_for`),
and only on a Numba whose replaced functions are the ones they were checked against (a hash
of their source, :data:`VERIFIED`); any other Numba compiles with its own, and so does a
process with ``MATHHAMMER_NUMBA_PASSES=0`` in its environment. With
``MATHHAMMER_CHECK_NUMBA_PASSES=1`` in the environment every call also runs Numba's own on a
copy and raises :class:`AssertionError` on any difference (the test suite does so for a
cold compile of two kernels).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import inspect
import io
import os
import threading
from contextlib import contextmanager

from .arraycall import nested_array_fixer
from .calltypes import call_typer
from .deadcode import remove_dead_block
from .lifetime import post_processor
from .liveness import live_map, live_variables
from .position import position_before
from .ssa import define_in_scopes, run_ssa

__all__ = ["VERIFIED", "usable", "faster_passes", "live_map", "live_variables", "run_ssa",
           "remove_dead_block", "define_in_scopes", "post_processor", "call_typer",
           "position_before", "nested_array_fixer"]

#: SHA-256 of the source of the Numba functions replaced or mirrored here, as checked
#: (Numba 0.68.1): ``numba.core.analysis``'s ``compute_live_map`` and
#: ``compute_live_variables``; ``numba.core.ssa``'s ``_run_ssa``, ``_fresh_vars``,
#: ``_fix_ssa_vars``, ``_run_block_rewrite``, ``_run_ssa_block_pass``, ``_FreshVarHandler``
#: and ``_FixSSAVars``; ``numba.core.ir_utils``'s ``fixup_var_define_in_scope``,
#: ``remove_dead``, ``remove_dead_block`` and ``has_no_side_effect``; ``numba.core.postproc``'s
#: ``PostProcessor`` and ``VariableLifetime``; ``numba.core.ir.FunctionIR`` (which reads what
#: the post-processing works out); ``numba.core.types.functions.BaseFunction``;
#: ``numba.core.inline_closurecall``'s ``_fix_nested_array`` and
#: ``_find_unsafe_empty_inferred``; llvmlite's ``IRBuilder.position_before``.
VERIFIED = frozenset({"07617b9b2f1cce3566d68c7225c9a799b61fee61432e4af586f779d26996ee63"})

_LOCK = threading.Lock()
_depth = 0
_saved: list = []
_usable: bool | None = None


def _numba_sources() -> str:
    from llvmlite.ir import builder
    from numba.core import analysis, inline_closurecall, ir, ir_utils, postproc, ssa
    from numba.core.types import functions

    parts = [analysis.compute_live_map, analysis.compute_live_variables, ssa._run_ssa,
             ssa._fresh_vars, ssa._fix_ssa_vars, ssa._run_block_rewrite,
             ssa._run_ssa_block_pass, ssa._FreshVarHandler, ssa._FixSSAVars,
             ir_utils.fixup_var_define_in_scope, ir_utils.remove_dead,
             ir_utils.remove_dead_block, ir_utils.has_no_side_effect,
             postproc.PostProcessor, postproc.VariableLifetime, ir.FunctionIR,
             functions.BaseFunction, builder.IRBuilder.position_before,
             inline_closurecall._fix_nested_array, inline_closurecall._find_unsafe_empty_inferred]
    return "\n".join(inspect.getsource(p) for p in parts)


def numba_hash() -> str:
    """The hash of this Numba's sources that :data:`VERIFIED` lists when checked."""
    return hashlib.sha256(_numba_sources().encode()).hexdigest()


def usable() -> bool:
    """Whether the replacements are used: this Numba is one they were checked against, and
    ``MATHHAMMER_NUMBA_PASSES=0`` is not set (Numba's own analyses then run: the baseline
    of ``benchmarks/bench_cold.py``). Worked out once."""
    global _usable
    if _usable is None:
        try:
            _usable = (os.environ.get("MATHHAMMER_NUMBA_PASSES", "") != "0"
                       and numba_hash() in VERIFIED)
        except (ImportError, AttributeError, OSError, TypeError):
            _usable = False
    return _usable


def _checking() -> bool:
    return os.environ.get("MATHHAMMER_CHECK_NUMBA_PASSES", "") not in ("", "0")


# ------------------------------------------------------------------ checks
def _dump(blocks: dict) -> str:
    out = io.StringIO()
    for label, block in blocks.items():
        out.write(f"{label}:\n")
        for stmt in block.body:
            out.write(f"  {stmt}\n")
    return out.getvalue()


def _checked(mine, theirs, what: str):
    """``mine`` run beside Numba's ``theirs`` on copies of the IR, raising on a difference."""
    if what == "live":
        def both(cfg, blocks, first, second):
            got, want = mine(cfg, blocks, first, second), theirs(cfg, blocks, first, second)
            if got != want or list(got) != list(want) or type(got) is not type(want):
                raise AssertionError(f"mathhammer's {mine.__name__} differs from Numba's "
                                     f"{theirs.__name__}")
            return got
    elif what == "ssa":
        def both(blocks):
            want = theirs(copy.deepcopy(blocks))
            got = mine(blocks)
            if _dump(got) != _dump(want):
                raise AssertionError("mathhammer's run_ssa differs from Numba's _run_ssa")
            return got
    elif what == "dead":
        def both(block, lives, call_table, arg_aliases, alias_map, alias_set, func_ir, typemap):
            twin, twin_lives = copy.deepcopy(block), set(lives)
            want = theirs(twin, twin_lives, call_table, arg_aliases, alias_map, alias_set,
                          func_ir, typemap)
            got = mine(block, lives, call_table, arg_aliases, alias_map, alias_set, func_ir,
                       typemap)
            if (got, lives, _dump({0: block})) != (want, twin_lives, _dump({0: twin})):
                raise AssertionError("mathhammer's remove_dead_block differs from Numba's")
            return got
    elif what == "position":
        def both(builder, instr):
            mine(builder, instr)
            got = (builder._block, builder._anchor)
            theirs(builder, instr)
            if got != (builder._block, builder._anchor):
                raise AssertionError("mathhammer's position_before differs from llvmlite's")
    else:
        def both(blocks):
            twin = copy.deepcopy(blocks)
            mine(blocks)
            theirs(twin)
            for a, b in zip(blocks.values(), twin.values()):
                if list(a.scope.localvars._con) != list(b.scope.localvars._con):
                    raise AssertionError("mathhammer's define_in_scopes differs from Numba's "
                                         "fixup_var_define_in_scope")
    return both


def _install() -> None:
    """Put the replacements in Numba's modules (the first of nested installations only)."""
    global _depth
    from llvmlite.ir import builder
    from numba.core import (analysis, config, inline_closurecall, ir_utils, postproc, ssa,
                            untyped_passes)
    from numba.core.types import functions

    with _LOCK:
        if _depth == 0:
            check = _checking()
            slots = [(analysis, "compute_live_map", live_map, "live"),
                     (ir_utils, "compute_live_map", live_map, "live"),
                     (analysis, "compute_live_variables", live_variables, "live"),
                     (inline_closurecall, "compute_live_variables", live_variables, "live"),
                     (ssa, "_run_ssa", run_ssa, "ssa"),
                     (ir_utils, "fixup_var_define_in_scope", define_in_scopes, "scopes"),
                     (untyped_passes, "fixup_var_define_in_scope", define_in_scopes, "scopes"),
                     (builder.IRBuilder, "position_before", position_before, "position")]
            if not config.DEBUG_ARRAY_OPT:  # Numba's prints its steps when asked to
                slots.append((ir_utils, "remove_dead_block", remove_dead_block, "dead"))
            for module, name, mine, what in slots:
                theirs = getattr(module, name)
                _saved.append((module, name, theirs))
                setattr(module, name, _checked(mine, theirs, what) if check else mine)
            # made around Numba's own (which they call where they cannot answer), checking
            # in their own way
            wrapping = [(postproc.PostProcessor, "run", post_processor),
                        (functions.BaseFunction, "get_call_type", call_typer),
                        (inline_closurecall, "_fix_nested_array",
                         functools.partial(nested_array_fixer, dump=_dump))]
            for owner, name, make in wrapping:
                theirs = getattr(owner, name)
                _saved.append((owner, name, theirs))
                setattr(owner, name, make(theirs, checking=check))
        _depth += 1


def _uninstall() -> None:
    """Give Numba its own back once the last installation ends."""
    global _depth
    with _LOCK:
        _depth -= 1
        if _depth == 0:
            while _saved:
                module, name, theirs = _saved.pop()
                setattr(module, name, theirs)


@contextmanager
def faster_passes():
    """Numba compiles with the replacements inside the block (nested blocks and threads
    share one installation); nothing changes on a Numba not :func:`usable`.

    They are installed when a compile starts (Numba's ``numba:compile`` event), not when
    the block is entered: a kernel loaded from Numba's cache, what every run but the first
    does, pays nothing for them (checking this Numba's source and importing the compiler
    modules they go into cost about 50 ms). They return what Numba's own return, so a
    compile elsewhere in the process meanwhile is unaffected but for its speed."""
    from numba.core import event

    installed = []

    class _OnCompile(event.Listener):
        def on_start(self, event_):
            if not installed and usable():
                _install()
                installed.append(True)

        def on_end(self, event_):
            pass

    try:
        with event.install_listener("numba:compile", _OnCompile()):
            yield
    finally:
        if installed:
            _uninstall()

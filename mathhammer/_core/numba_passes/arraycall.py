"""Numba's nesting of arrays built in a loop, skipped where there is no such array
(:mod:`mathhammer._core.numba_passes`)."""

from __future__ import annotations

__all__ = ["nested_array_fixer"]


def _built_in_loop(func_ir, var) -> bool:
    """Whether ``var`` is defined (through a cast, if any) by a call of Numba's
    ``empty_inferred``: the array a list comprehension inlined as a loop builds."""
    from numba.core import ir
    from numba.core.inline_closurecall import _find_unsafe_empty_inferred
    from numba.core.ir_utils import get_definition, require

    value = get_definition(func_ir, var)
    require(isinstance(value, ir.Expr))
    if value.op == "cast":
        value = get_definition(func_ir, value.value)
        require(isinstance(value, ir.Expr))
    return _find_unsafe_empty_inferred(func_ir, value)


def nested_array_fixer(theirs, checking: bool = False, dump=None):
    """A replacement for ``numba.core.inline_closurecall._fix_nested_array`` (Numba's own:
    ``theirs``) that runs it only where it can change something.

    After closures are inlined, Numba looks for ``a[i] = b`` where ``b`` is an array a
    list comprehension built (``empty_inferred``), to make ``b`` a slice of ``a``. Before
    looking it works out the control flow graph, the use-defs and the live variables of
    the whole function (1 s of the general kernel's full variant's compile), though a
    statement is changed only if it is a ``SetItem`` of a variable defined by such a call
    (or a cast of one): where none is, its run changes nothing and returns nothing, and
    this one returns at once. ``checking``: Numba's own then also runs on a copy, which
    must come out unchanged (``dump`` prints the blocks compared).
    """
    from numba.core import ir
    from numba.core.ir_utils import guard

    def fix(func_ir):
        for block in func_ir.blocks.values():
            for stmt in block.body:
                if (isinstance(stmt, ir.SetItem) and isinstance(stmt.value, ir.Var)
                        and guard(_built_in_loop, func_ir, stmt.value)):
                    return theirs(func_ir)
        if checking:
            import copy

            twin = copy.deepcopy(func_ir)
            theirs(twin)
            if dump(twin.blocks) != dump(func_ir.blocks):
                raise AssertionError("Numba's _fix_nested_array changed what mathhammer's "
                                     "skipped")
        return None

    return fix

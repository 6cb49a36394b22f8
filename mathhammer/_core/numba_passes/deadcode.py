"""Numba's dead code removal in a block, building the live variables' aliases only where a
check reads them (:mod:`mathhammer._core.numba_passes`)."""

from __future__ import annotations

__all__ = ["remove_dead_block"]

#: What :func:`remove_dead_block` hands ``has_no_side_effect`` for a right-hand side it
#: does not read the live variables of (all but calls and in-place operators).
_NOTHING: frozenset = frozenset()


def _with_aliases(lives: set, alias_map: dict, alias_set: set, arg_aliases: set) -> set:
    """The live variables, their potential aliases and the arguments' (Numba's
    ``lives_n_aliases``)."""
    alias_lives: set = set()
    for v in lives & alias_set:
        alias_lives |= alias_map[v]
    return lives | alias_lives | arg_aliases


def remove_dead_block(block, lives, call_table, arg_aliases, alias_map, alias_set, func_ir,
                      typemap) -> bool:
    """What ``numba.core.ir_utils.remove_dead_block`` does (the same statements removed,
    ``lives`` updated the same way), building the live variables with their aliases only
    for the statements that read them.

    Numba builds that set, a copy of every live variable, before each statement of the
    block, though only a dead assignment of a call or in-place operator, a ``SetItem`` on
    a variable not live itself and an extension's statement read it: with several targets'
    kernel, 10 s of its compile."""
    from numba.core import analysis, ir, ir_utils

    removed = False
    new_body = [block.terminator]
    for stmt in reversed(block.body[:-1]):
        both = None  # lives | their aliases | arg_aliases, when a check reads it
        if type(stmt) in ir_utils.remove_dead_extensions:
            both = _with_aliases(lives, alias_map, alias_set, arg_aliases)
            f = ir_utils.remove_dead_extensions[type(stmt)]
            stmt = f(stmt, lives, both, arg_aliases, alias_map, func_ir, typemap)
            if stmt is None:
                removed = True
                continue
        if isinstance(stmt, ir.Assign):
            lhs = stmt.target
            rhs = stmt.value
            if lhs.name not in lives:
                reads = isinstance(rhs, ir.Expr) and rhs.op in ("call", "inplace_binop")
                if reads and both is None:
                    both = _with_aliases(lives, alias_map, alias_set, arg_aliases)
                if ir_utils.has_no_side_effect(rhs, both if reads else _NOTHING, call_table):
                    removed = True
                    continue
            if isinstance(rhs, ir.Var) and lhs.name == rhs.name:
                removed = True
                continue
        if isinstance(stmt, ir.Del):
            if stmt.value not in lives:
                removed = True
                continue
        if isinstance(stmt, ir.SetItem):
            name = stmt.target.name
            if name not in lives and name not in arg_aliases:
                if both is None:
                    both = _with_aliases(lives, alias_map, alias_set, arg_aliases)
                if name not in both:
                    continue
        if type(stmt) in analysis.ir_extension_usedefs:
            uses, defs = analysis.ir_extension_usedefs[type(stmt)](stmt)
            lives -= defs
            lives |= uses
        else:
            lives |= {v.name for v in stmt.list_vars()}
            if isinstance(stmt, ir.Assign):
                # make sure lhs is not used in rhs, e.g. a = g(a)
                if isinstance(stmt.value, ir.Expr):
                    rhs_vars = {v.name for v in stmt.value.list_vars()}
                    if lhs.name not in rhs_vars:
                        lives.remove(lhs.name)
                else:
                    lives.remove(lhs.name)
        new_body.append(stmt)
    new_body.reverse()
    block.body = new_body
    return removed

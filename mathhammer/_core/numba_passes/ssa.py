"""Numba's SSA reconstruction and scope fix-up on the blocks that need them
(:mod:`mathhammer._core.numba_passes`)."""

from __future__ import annotations

from collections import defaultdict

__all__ = ["run_ssa", "define_in_scopes"]


def _rewrite(blocks: dict, states: dict, handler, labels: set) -> dict:
    """Numba's ``_run_block_rewrite`` on the blocks of ``labels`` only, in block order: the
    others are kept as they are (Numba's handlers return a statement that does not mention
    the variable unchanged, so its pass would only copy them)."""
    from numba.core import ir

    out = dict(blocks)
    for label, block in blocks.items():
        if label not in labels:
            continue
        states["label"] = label
        states["block"] = block
        body = []
        for stmt in block.body:
            if isinstance(stmt, ir.Assign):
                new = handler.on_assign(states, stmt)
            else:
                new = handler.on_other(states, stmt)
            assert new is not None
            body.append(new)
        rewritten = ir.Block(scope=block.scope, loc=block.loc)
        rewritten.body = body
        out[label] = rewritten
    return out


def run_ssa(blocks: dict) -> dict:
    """The blocks in SSA form: what ``numba.core.ssa._run_ssa`` returns (the same
    statements, the same fresh names, the same phi nodes), each variable's passes run on
    the blocks where it appears.

    Numba renames the definitions of each variable assigned more than once, then rewrites
    its uses, each time passing over every statement of the function (for the general
    kernel: 500 such variables, 20,000 statements, 5 to 7 s of a compile). A variable's
    definitions and uses stay in the blocks that held them before (renaming another
    variable neither moves nor adds any; a phi node it adds holds its own versions), so
    those blocks are found once and only they are rewritten. A block gaining a phi node is
    a new block, as in Numba; no block handed in is changed.
    """
    from numba.core import errors, ir
    from numba.core import ssa as S
    from numba.core.analysis import compute_cfg_from_blocks

    if not blocks:
        return {}
    cfg = compute_cfg_from_blocks(blocks)
    df_plus = S._iterated_domfronts(cfg)
    violators = S._find_defs_violators(blocks, cfg)
    cache_list_vars = S._CacheListVars()
    where: dict = defaultdict(set)  # variable name -> labels of the blocks mentioning it
    for label, block in blocks.items():
        for stmt in block.body:
            for var in stmt.list_vars():
                where[var.name].add(label)
    for varname in violators:
        labels = where[varname]
        # the definitions renamed (Numba's _fresh_vars)
        states = S._make_states(blocks)
        states["varname"] = varname
        states["defmap"] = defmap = defaultdict(list)
        blocks = _rewrite(blocks, states, S._FreshVarHandler(), labels)
        # the uses pointed at their reaching definition (Numba's _fix_ssa_vars)
        states = S._make_states(blocks)
        states["varname"] = varname
        states["defmap"] = defmap
        states["phimap"] = phimap = defaultdict(list)
        states["cfg"] = cfg
        states["phi_locations"] = S._compute_phi_locations(df_plus, defmap)
        fixed = _rewrite(blocks, states, S._FixSSAVars(cache_list_vars), labels)
        for label, phis in phimap.items():
            block = fixed[label]
            with_phis = ir.Block(scope=block.scope, loc=block.loc)
            with_phis.body = phis + block.body
            fixed[label] = with_phis
        blocks = fixed
    if compute_cfg_from_blocks(blocks) != cfg:
        raise errors.CompilerError("CFG mutated in SSA pass")
    return blocks


def define_in_scopes(blocks: dict) -> None:
    """What ``numba.core.ir_utils.fixup_var_define_in_scope`` does: every variable the
    blocks use defined in every block's scope, in the same order; each distinct scope once
    (Numba goes over every variable for every block, and the blocks share one scope)."""
    used = {}
    for block in blocks.values():
        for inst in block.body:
            for var in inst.list_vars():
                used[var] = inst
    seen = set()
    for block in blocks.values():
        scope = block.scope
        if id(scope) in seen:
            continue
        seen.add(id(scope))
        for var in used:
            if var.name not in scope.localvars:
                scope.localvars.define(var.name, var)

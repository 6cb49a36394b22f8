"""Numba's post-processing of the IR with the variables' lifetimes worked out when read
(:mod:`mathhammer._core.numba_passes`)."""

from __future__ import annotations

__all__ = ["post_processor"]


class _OnRead(dict):
    """``FunctionIR.block_entry_vars`` left to its first read: the variables live at the
    start of each block, worked out then as Numba's ``PostProcessor.run`` works them out."""

    __slots__ = ("_func_ir",)

    def __missing__(self, block):
        from numba.core import analysis, postproc

        func_ir = self._func_ir
        lifetime = postproc.VariableLifetime(func_ir.blocks)
        entry = analysis.compute_live_variables(lifetime.cfg, func_ir.blocks,
                                                lifetime.usedefs.defmap,
                                                lifetime.deadmaps.combined)
        for label, each in func_ir.blocks.items():
            self[each] = entry[label]
        return dict.__getitem__(self, block)


class _Unread(dict):
    """The checking form of :class:`_OnRead`: a read raises (``MATHHAMMER_CHECK_NUMBA_PASSES``
    asserts that nothing reads what was not worked out)."""

    __slots__ = ()

    def __missing__(self, block):
        raise AssertionError("Numba read the variables live at a block's entry, which "
                             "mathhammer's post_processor left to their first read")


class _UnreadLifetime:
    """The checking form of the lazy ``VariableLifetime``: any read raises."""

    def __getattr__(self, name):
        raise AssertionError(f"Numba read the variables' lifetimes ({name}), which "
                             "mathhammer's post_processor left to their first read")


def post_processor(theirs, checking: bool = False):
    """A replacement for ``numba.core.postproc.PostProcessor.run`` (Numba's own: ``theirs``)
    that does what it does, with the variables' lifetimes (``func_ir.variable_lifetime``) and
    the variables live at each block's entry (``func_ir.block_entry_vars``) worked out when
    first read instead of at every call.

    Numba runs it after every pass that changes the IR (685 times in a cold compile of the
    general kernel's full variant, each a use-def analysis, two liveness fixed points and
    the dead variables of every block: 4 s of its 30). In a nopython compile nothing reads
    what it works out: ``block_entry_vars`` is read by the object mode's lowering and a
    generator's analysis (a generator, or ``emit_dels``, gets Numba's own), and
    ``variable_lifetime`` by loop lifting (object mode), ``with`` blocks and
    ``literal_unroll``, the first two after a run of their own. ``checking``: a read
    raises instead (``MATHHAMMER_CHECK_NUMBA_PASSES``: the suite asserts there is none).
    """
    from numba.core import postproc, transforms

    def run(self, emit_dels: bool = False, extend_lifetimes: bool = False) -> None:
        func_ir = self.func_ir
        if emit_dels or func_ir.is_generator:
            return theirs(self, emit_dels, extend_lifetimes)
        func_ir.blocks = transforms.canonicalize_cfg(func_ir.blocks)
        if checking:
            func_ir.variable_lifetime = _UnreadLifetime()
            func_ir.block_entry_vars = _Unread()
        else:
            func_ir.variable_lifetime = postproc.VariableLifetime(func_ir.blocks)
            entry = _OnRead()
            entry._func_ir = func_ir
            func_ir.block_entry_vars = entry
        func_ir.generator_info = None
        return None

    return run

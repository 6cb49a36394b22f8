"""llvmlite's positioning of its IR builder before an instruction, without a search when
that instruction ends its block (:mod:`mathhammer._core.numba_passes`)."""

from __future__ import annotations

__all__ = ["position_before"]


def position_before(self, instr) -> None:
    """What ``llvmlite.ir.builder.IRBuilder.position_before`` does: the builder's block is
    ``instr``'s, its anchor ``instr``'s index in it; without searching the block when
    ``instr`` is its last instruction.

    Numba puts every variable's stack slot in the function's entry block, each time by
    positioning the builder before that block's terminator: llvmlite finds it by a search
    of the block (``list.index``), which holds every slot put there so far (thousands in
    the general kernel: 0.6 s of its full variant's cold compile). An instruction is in its
    block once and compares by identity, so the last one's index is the block's length
    less one.
    """
    block = instr.parent
    self._block = block
    body = block.instructions
    self._anchor = len(body) - 1 if body and body[-1] is instr else body.index(instr)

"""A damage grid or life spiral drawn as a text table: one definition of its layout, shared by
the text report (each box's odds of being marked) and ``mathhammer cards show`` (the letters).

Columns (grid) or branches (spiral) 1 to 6 run left to right; their boxes run down from the
top of the table, the top (grid) or outermost (spiral) box first, so the columns are aligned
at the top as on the card (examples/cards/README.md); a shorter column leaves blank cells at
its foot. A colossal's two grids of six columns are drawn one under the other.
"""

from __future__ import annotations

from collections.abc import Callable

from .texttable import text_table

__all__ = ["card_table"]


def card_table(target, cell: Callable[[int, int, str], str], align: str = "r") -> list[str]:
    """The lines of ``target``'s grid or spiral as a table.

    Parameters
    ----------
    target : Target
        A target with a grid or a spiral (``target.card``: its columns or branches).
    cell : callable
        ``cell(column, row, letter)``: the text of box ``row`` (0: the top or outermost box)
        of ``column`` (0 to 5; 6 to 11: a colossal's right grid), whose letter is ``letter``
        (``.`` a hull box).
    align : {"r", "l"}
        Cells right-aligned (the report's percentages) or left-aligned (letters).

    Examples
    --------
    >>> from mathhammer.rules import Target
    >>> t = Target(12, 18, grid=["..", ".L", "L", "", "", "M"])
    >>> print("\\n".join(card_table(t, lambda c, r, x: x)))
      column 1  column 2  column 3  column 4  column 5  column 6
      --------  --------  --------  --------  --------  --------
             .         .         L                             M
             .         L
    """
    what = "column" if target.capacity == "grid" else "branch"
    lines: list[str] = []
    for off in (0, 6) if target.colossal else (0,):  # a colossal's two grids, one under the other
        cols = target.card[off: off + 6]
        depth = max((len(c) for c in cols), default=0)
        cells = [[cell(off + c, r, col[r]) if r < len(col) else "" for c, col in enumerate(cols)]
                 for r in range(depth)]
        heads = [(("left " if off == 0 else "right ") if target.colossal else what + " ") + str(c + 1)
                 for c in range(6)]
        lines += text_table(heads, cells, align * 6)
    return lines

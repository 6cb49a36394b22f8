"""Plain-text tables: columns padded to their widest cell (the text report, ``mathhammer
cards``). Pure Python, so the command line starts fast."""

from __future__ import annotations

__all__ = ["text_table"]


def text_table(headers: list[str], rows: list[list[str]], align: str) -> list[str]:
    """Lines of a table indented by two spaces, a rule under the headers.

    Parameters
    ----------
    headers : list of str
        One per column.
    rows : list of list of str
        The cells, one list per row.
    align : str
        One ``"l"`` (left) or ``"r"`` (right) per column.

    Examples
    --------
    >>> print("\\n".join(text_table(["k", "P"], [["1", "50%"], ["10", "5%"]], "rr")))
       k    P
      --  ---
       1  50%
      10   5%
    """
    widths = [len(h) for h in headers]
    for row in rows:
        widths = [max(w, len(c)) for w, c in zip(widths, row)]

    def line(cells):
        out = [c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(cells, widths, align)]
        return "  " + "  ".join(out).rstrip()

    sep = "  " + "  ".join("-" * w for w in widths)
    return [line(headers), sep] + [line(r) for r in rows]

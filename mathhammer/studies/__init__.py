"""Studies over many scenarios: sweeps over parameters, loadouts side by side, and balance
matrices of every attacker card against every target card.

- :mod:`.params` (parameter paths) and :mod:`.grids` (their values, the grid of points);
- :mod:`.points`: what every run over points shares (arguments, seed, journal, resume,
  progress, Ctrl-C as :class:`~mathhammer.studies.points.RunInterrupted`, the tidy frame),
  with :mod:`.journal` (the file points are appended to) and :mod:`.progress`;
- :mod:`.sweeps`, :mod:`.comparisons`, :mod:`.matrices` (with :mod:`.decks`, its cards);
- :mod:`.execution`: where matrix points run (this process or a Dask cluster).
"""

from .comparisons import COMPARED, Comparison, compare
from .matrices import KEY_COLUMNS, MatrixPointError, matrix, pivot_matrix, point_seed
from .points import RunInterrupted
from .sweeps import pivot, sweep

__all__ = [
    "COMPARED",
    "KEY_COLUMNS",
    "Comparison",
    "MatrixPointError",
    "RunInterrupted",
    "compare",
    "matrix",
    "pivot",
    "pivot_matrix",
    "point_seed",
    "sweep",
]

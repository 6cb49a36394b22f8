"""Trade matrix: every card of one deck trading with every card of another (docs/trades.md).

Each pairing is a trade of two sides of one model each (a card: a single model or a unit),
``row`` (the first deck's card) and ``column`` (the other's), each attacking the other, over
``rounds`` rounds, the row card's side going first, the column card's, or both (a point each).
The frame is a balance matrix's (:func:`~mathhammer.studies.matrices.matrix`): ``attacker``
(the row card), ``target`` (the column card), ``first``, then ``metric``, ``value``,
``ci_low``, ``ci_high``, the rows of :meth:`TradeResult.summary_records
<mathhammer.result.trade.TradeResult.summary_records>` (``win``: P(the row card wins)), so
:func:`~mathhammer.studies.matrices.pivot_matrix` and :func:`~mathhammer.plots.plot_matrix`
read it as they read a balance matrix (``where={"first": "row"}`` with both).

Points run on the balance matrix's backends (this process, or a Dask cluster: each point's
stream seeded from the run's seed and its key), written as they finish to ``out`` (CSV), and
resumed from it. Each card spends as it says: by best play where it plays best (each
activation's tables, :mod:`mathhammer.play.trades`, aiming at damage), else by its fixed
policy; the frame's ``attrs["policy"]`` says so.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from .._core.paths import file_to_write
from .._core.validate import check_bool, check_choice, check_int
from ..engine import check_method
from ..errors import InputError
from ..io.cardpath import card_dirs
from ..io.trade_files import trade_from_dict
from ..result.metrics import SUMMARY_COLUMNS
from ..rules.scenario import MAX_TURNS
from .decks import DeckEntry, deck
from .execution import Point, PointFailed, make_backend
from .matrices import KEY_COLUMNS, MatrixPointError
from .pairs import point_seed
from .points import digest, held, open_run, points_frame, run_points, run_settings, tally_point
from .progress import check_progress

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["FIRST_CHOICES", "trade_matrix", "trade_pair"]

#: Who goes first in each pairing: the row card's side, the column card's, or both (a point each).
FIRST_CHOICES = ("row", "column", "both")
_CHECKS = {"rows": "the row cards differ", "cols": "the column cards differ",
           "first": "who goes first differs", "rounds": "the rounds differ", "method": None,
           "trials": None, "seed": None, "columns": "its columns differ"}


def trade_pair(row: DeckEntry, column: DeckEntry, first: str, rounds: int, dirs=None):
    """The trade of card ``row`` (side ``row``) with card ``column`` (side ``column``), each
    attacking the other, ``first``'s side going first."""
    names = (row.label, column.label) if row.label != column.label else (f"{row.label} (row)",
                                                                          f"{column.label} (column)")

    def entry(ref, name, enemy):
        return {**ref, "name": name, "attacks": enemy}

    data = {"trade": {"rounds": rounds, "first": first}, "sides": [
        {"name": "row", "models": [entry(row.ref, names[0], names[1])]},
        {"name": "column", "models": [entry(column.ref, names[1], names[0])]}]}
    return trade_from_dict(data, source=f"trade matrix {row.label} vs {column.label}", cards=dirs)


def trade_matrix(rows, columns, *, rounds: int = 3, first: str = "row", trials: int | None = None,
                 seed: int | None = None, method: str = "monte_carlo",
                 cards: Iterable[str | os.PathLike] | None = None, scheduler=None,
                 workers: int | None = None, batch: int | None = None,
                 out: str | os.PathLike | None = None, resume: bool = False,
                 progress: bool | None | Callable[[int, int], object] = None) -> pd.DataFrame:
    """Trade every card of ``rows`` with every card of ``columns``; every figure per pairing.

    Parameters
    ----------
    rows, columns : path-like or iterable of str
        A directory of card files (every card with an ``[attacker]`` table) or card
        references, as :func:`~mathhammer.studies.matrices.matrix` takes them.
    rounds : int
        Rounds of each trade (1-20, default 3).
    first : {"row", "column", "both"}
        Whose side goes first: the row card's (default), the column card's, or both (two
        points a pairing).
    trials, seed, method, cards, scheduler, workers, batch, progress
        As for :func:`~mathhammer.studies.matrices.matrix` (default trials: 1,000,000).
    out : path-like, optional
        A ``.csv`` file the points are written to as they finish (never overwritten).
    resume : bool
        Continue the run ``out`` holds.

    Returns
    -------
    pandas.DataFrame
        ``attacker`` (the row card), ``target`` (the column card), ``first``, ``metric``,
        ``value``, ``ci_low``, ``ci_high``; ``attrs`` as a balance matrix's, with ``rounds``
        and ``policy``.

    Examples
    --------
    >>> frame = trade_matrix(["heavy_warjack", "light_warjack"], ["heavy_warjack", "light_warjack"],
    ...                      trials=5_000, seed=1, progress=False)
    >>> from mathhammer.studies.matrices import pivot_matrix
    >>> wins = pivot_matrix(frame, "win")
    >>> float(wins.loc["heavy_warjack", "light_warjack"]) > float(wins.loc["light_warjack", "heavy_warjack"])
    True
    """
    started = time.perf_counter()
    method = check_method(method)
    check_int("rounds", rounds, 1, MAX_TURNS)
    check_choice("first", first, FIRST_CHOICES)
    check_bool("resume", resume)
    check_progress(progress)
    if resume and out is None:
        raise InputError("resume", resume, "needs out=, the file of the matrix to resume")
    dirs = card_dirs(cards) if cards is not None else None
    row_deck, skipped = deck(rows, "attackers", dirs, False, key="rows")
    column_deck, skipped_columns = deck(columns, "attackers", dirs, False, key="columns")
    firsts = ("row", "column") if first == "both" else (first,)
    keys = [(r.label, c.label, f) for r in row_deck for c in column_deck for f in firsts]
    trades = {}  # each pairing's trades, built once (their errors before anything runs)
    for r in row_deck:
        for c in column_deck:
            for f in firsts:
                trades[(r.label, c.label, f)] = trade_pair(r, c, f, rounds, dirs)
    trials, seed = run_settings(trades.values(), trials, seed, method)  # the trades' own: 1,000,000
    columns_out = list(KEY_COLUMNS) + ["first"] + list(SUMMARY_COLUMNS)
    identity = {"rows": digest({e.label: e.digest for e in row_deck}),
                "cols": digest({e.label: e.digest for e in column_deck}), "first": first,
                "rounds": rounds, "points": len(keys), "method": method, "trials": trials,
                "seed": seed, "columns": columns_out}
    journal_path = None
    if out is not None:
        journal_path = file_to_write("out", out, "trade matrix file")
        if journal_path.suffix.lower() != ".csv":
            raise InputError("out", os.fspath(out), "must be a .csv file")
    journal, seed = open_run(out, identity, columns_out, resume, method, seed, keys,
                             tag="mathhammer_trade_matrix", checks=_CHECKS, what="trade matrix",
                             path=journal_path, name=None if out is None else os.fspath(out))
    stats = {"processes": {}, "first_points": 0, "compute_seconds": 0.0}

    def compute(todo, shown):
        if backend.dashboard:
            shown.note(f"Dask dashboard: {backend.dashboard}")
        points = (Point(key, trades[key], trials, None if seed is None else point_seed(seed, key), method)
                  for key in todo)
        for outcome in backend.run(points):
            if isinstance(outcome, PointFailed):
                raise MatrixPointError(f"trade matrix point {' / '.join(outcome.key)}: {outcome.message}")
            tally_point(stats, outcome)
            yield outcome.key, [list(outcome.key) + list(row) for row in outcome.rows]

    with held(journal):
        backend = make_backend(scheduler, workers, batch)
        with backend:
            done, todo = run_points(keys, compute, journal=journal, progress=progress,
                                    what="trade matrix", out=out)
        frame = points_frame(columns_out, keys, keys, done)
        if journal is not None:
            journal.reorder(keys)
    frame.attrs.update({
        "seed": seed, "trials": trials, "method": method, "rounds": rounds, "first": first,
        "policy": "each card's own: best play (each activation's tables, aiming at damage) where it "
                  "plays best, else its fixed policy",
        "backend": backend.name, "workers": backend.workers, "batch": backend.batch,
        "dashboard": backend.dashboard, "points": len(keys), "computed": len(todo),
        "wall_seconds": time.perf_counter() - started, **stats,
        "skipped": skipped + [s for s in skipped_columns if s not in skipped],
        "out": None if out is None else os.fspath(out),
    })
    return frame

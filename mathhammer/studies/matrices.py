"""Balance matrix: every attacker card against every target card, at every parameter value.

:func:`matrix` simulates each pair (attacker card, target card), optionally over a grid of
parameters (:mod:`~mathhammer.studies.params` paths such as ``attackers.0.focus``), and returns one
tidy frame: ``attacker``, ``target``, a column per varied parameter, then ``metric``,
``value``, ``ci_low``, ``ci_high`` -- the rows of :meth:`Result.summary` at that point (kill
probability with its 95% interval, mean/sd/median damage, ``cripple:X`` per system or aspect,
``kill_by_turn:T`` over several rounds, ``spent`` focus or fury).

Every point draws its dice from a stream of its own, seeded from the run's seed and the
point's key (:func:`point_seed`): a point's figures are the same whichever backend, worker or
order computed it, and whichever other points are in the matrix. Points run in this process
by default (all cores through Numba's threads, no Dask needed), or as tasks of a Dask cluster
(``scheduler="local-cluster"`` or ``"tcp://host:8786"``; :mod:`.execution`).

With ``out=`` (``.csv`` or ``.parquet``) each point's rows are written as soon as it finishes
(:mod:`.journal`; for Parquet into ``<out>.journal.csv``, the Parquet file written
at the end), so an interrupted run resumes (``resume=True``) computing only missing points.
A completed Parquet run leaves only ``out`` (its journal and record removed).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from .._core.paths import file_to_write, replace_with
from .._core.validate import check_bool, check_frame, check_str
from ..engine import check_method
from ..errors import InputError, MathhammerError
from ..io.cardpath import card_dirs
from ..result.metrics import SUMMARY_COLUMNS
from .decks import deck
from .execution import PointFailed, make_backend
from .grids import value_label
from .pairs import pair_scenario, parameters, point_rows, point_seed, points_to_compute
from .points import digest, held, open_run, points_frame, run_points, run_settings, tally_point
from .progress import check_progress

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "KEY_COLUMNS",
    "MatrixPointError",
    "matrix",
    "pivot_matrix",
    "point_seed",
]

#: The columns every matrix frame starts with (then one per varied parameter).
KEY_COLUMNS = ("attacker", "target")
_CHECKS = {"attackers": "the attacker cards differ", "targets": "the target cards differ",
           "vary": "the varied parameters differ",
           "simulation": "the simulation settings differ", "method": None, "trials": None,
           "seed": None, "columns": "its columns differ"}
_SIMULATION_KEYS = ("objective", "turns", "attack_turns", "brutal_damage")


class MatrixPointError(MathhammerError):
    """A point whose simulation failed (e.g. ``method="exact"`` on a pair the exact engine
    cannot do); the points finished before it are kept."""


def _checked(method, resume, all_actions, out, progress, simulation: dict):
    """The method's name and the simulation settings given (None dropped), once every
    argument but the cards and parameters is checked."""
    method = check_method(method)
    check_bool("resume", resume)
    check_bool("all_actions", all_actions)
    if resume and out is None:
        raise InputError("resume", resume, "needs out=, the file of the matrix to resume")
    check_progress(progress)
    unknown = sorted(set(simulation) - set(_SIMULATION_KEYS))
    if unknown:
        raise TypeError(f"matrix() got unexpected keyword arguments: {', '.join(unknown)}")
    return method, {k: v for k, v in simulation.items() if v is not None}


# ---------------------------------------------------------------------------- outputs
def _open(out, resume: bool, identity: dict, keys: list):
    """The run's journal (None without ``out``), the Parquet file written at the end (None
    for CSV or without ``out``) and the run's seed (a resumed run keeps its own).

    The journal's record holds ``identity``, rewritten after every point: long lists are
    kept there as digests."""
    journal_path = final = None
    if out is not None:
        journal_path, final = _outputs(out, resume)
    journal, seed = open_run(out, identity, identity["columns"], resume, identity["method"],
                             identity["seed"], keys, tag="mathhammer_matrix", checks=_CHECKS,
                             what="matrix", path=journal_path,
                             name=None if out is None else os.fspath(out))
    return journal, final, seed


def _outputs(out, resume: bool) -> tuple[Path, Path | None]:
    """The journal's path and the Parquet file written at the end (None for CSV)."""
    path = file_to_write("out", out, "matrix file")
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return path, None
    if suffix != ".parquet":
        raise InputError("out", os.fspath(out), "must be a .csv or .parquet file")
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise InputError("out", os.fspath(out), "a Parquet file needs pyarrow: pip install "
                         "'mathhammer[parquet]' (or write a .csv file)") from None
    journal = path.with_name(path.name + ".journal.csv")
    if path.exists() and not (resume and journal.exists()):
        raise InputError("out", os.fspath(out),
                         "exists; resume it (--resume, resume=True) or choose another path"
                         if not resume else f"exists without its journal {journal.name} "
                         "beside it, so it cannot be resumed (a finished matrix keeps none: "
                         "nothing is left to compute): choose another path")
    return journal, path


def _write_parquet(frame, path: Path) -> None:
    """The Parquet file whole, through a temporary file of its own (never a user's)."""
    replace_with(path, lambda tmp: frame.to_parquet(tmp, index=False))


# ---------------------------------------------------------------------------- matrix
def matrix(
    attackers, targets, *, vary: Mapping[str, Iterable] | None = None,
    trials: int | None = None, seed: int | None = None, method: str = "monte_carlo",
    cards: Iterable[str | os.PathLike] | None = None, all_actions: bool = False,
    scheduler=None, workers: int | None = None, batch: int | None = None,
    out: str | os.PathLike | None = None, resume: bool = False,
    progress: bool | None | Callable[[int, int], object] = None, **simulation,
) -> pd.DataFrame:
    """Simulate every attacker card against every target card; return every figure per pair.

    Parameters
    ----------
    attackers, targets : path-like or iterable of str
        A directory of card files (every card in it; for attackers, every card with an
        ``[attacker]`` table), or card references (names looked up as
        :func:`mathhammer.io.cards.load_card` does, paths; ``"name:action"`` picks an
        attacker's weapons).
    vary : mapping of str to iterable, optional
        Parameters varied at every pair (:mod:`~mathhammer.studies.params` paths), e.g.
        ``{"attackers.0.focus": range(0, 4)}``: one point per pair and combination.
    trials : int, optional
        Monte Carlo sample size of every point (default 1,000,000, the scenario default).
    seed : int, optional
        The run's seed; each point's is derived from it and the point's key
        (:func:`point_seed`). Drawn once when None (``frame.attrs["seed"]``; a resumed run
        keeps its own).
    method : {"monte_carlo", "mc", "exact"}
    cards : iterable of path-like, optional
        Directories searched first for card names (``--cards``).
    all_actions : bool
        An attacker card with weapons of several types (melee and ranged) becomes one
        attacker per type (``name:melee``, ``name:ranged``); by default its first type.
    scheduler : None, "local", "local-cluster", str or distributed.Client
        Where points run: this process (default), a Dask LocalCluster of ``workers``
        processes, the Dask scheduler at an address (``tcp://host:8786``), or a client.
        Dask is the optional extra ``mathhammer[dask]``.
    workers : int, optional
        Worker processes of ``"local-cluster"`` (default: one per core).
    batch : int, optional
        Points per Dask task (default 1). Dask spends a few milliseconds of client and
        scheduler CPU per task, which caps a run near 300 points a second however many
        workers there are; batches lift that cap, but a worker killed mid-task then loses
        its whole batch in flight, not one point. Dask schedulers only.
    out : path-like, optional
        ``.csv`` or ``.parquet`` file of the frame. Points are written as they finish (a CSV
        file directly; a Parquet run into ``<out>.journal.csv``, the Parquet file at the end),
        with the run's identity in ``<journal>.meta.json``. Never overwritten; see ``resume``.
    resume : bool
        Continue the run ``out`` holds: finished points are read back, only the missing ones
        computed. A file of another run (other cards, parameters, seed, trials, method) is
        refused.
    progress : bool or callable, optional
        ``None``: a tqdm bar on stderr once the run lasts a second (and the Dask dashboard's
        address when there is one), where stderr is a terminal (as for every run: never into
        a log or a pipe); ``True``: that bar wherever stderr goes; ``False``: nothing. A
        callable is called as ``progress(done, total)`` after each point instead.
    **simulation
        ``turns``, ``attack_turns``, ``objective``, ``brutal_damage`` of every scenario.

    Returns
    -------
    pandas.DataFrame
        Columns ``attacker``, ``target``, one per varied parameter, ``metric``, ``value``,
        ``ci_low``, ``ci_high``; points in order (attackers, then targets, then parameter
        values, the last varying fastest). ``attrs``: ``seed``, ``trials``, ``method``,
        ``backend``, ``workers`` (threads computing points), ``batch`` (points per task),
        ``dashboard``, ``points``, ``computed`` (by this call), ``wall_seconds``,
        ``compute_seconds`` (inside point tasks), ``processes`` (points computed per process
        id), ``first_points`` (points that were the first of their process: where the
        kernels were loaded or compiled), ``skipped`` (target-only cards of an attackers
        directory) and ``out``.

    Raises
    ------
    InputError
        Bad arguments, cards or parameter paths (before anything runs), an existing ``out``
        without ``resume``, or a resumed file of another run.
    MatrixPointError
        A point whose simulation failed (points finished before it are kept).
    RunInterrupted
        Ctrl-C (a :class:`KeyboardInterrupt`, :class:`~mathhammer.studies.points.RunInterrupted`),
        after keeping the finished points.

    Examples
    --------
    >>> frame = matrix(["heavy_warjack", "light_warjack"], ["solo", "heavy_warbeast"],
    ...                trials=20_000, seed=1, progress=False)
    >>> kill = pivot_matrix(frame, "kill")
    >>> list(kill.index), list(kill.columns)
    (['heavy_warjack', 'light_warjack'], ['solo', 'heavy_warbeast'])
    >>> bool((kill["solo"] > kill["heavy_warbeast"]).all())
    True
    """
    started = time.perf_counter()
    method, simulation = _checked(method, resume, all_actions, out, progress, simulation)
    dirs = card_dirs(cards) if cards is not None else None
    attack_deck, skipped = deck(attackers, "attackers", dirs, all_actions)
    target_deck, _ = deck(targets, "targets", dirs, False)

    first = pair_scenario(attack_deck[0], target_deck[0], simulation)
    params, combos = parameters(attack_deck, target_deck, first, vary, simulation)
    trials, seed = run_settings([first], trials, seed, method)
    columns = list(KEY_COLUMNS) + [p.path for p in params] + list(SUMMARY_COLUMNS)
    labels = [tuple(value_label(v) for v in values) for values in combos]
    keys = [(a.label, t.label) + lab for a in attack_deck for t in target_deck for lab in labels]
    frame_keys = [(a.label, t.label) + tuple(values)
                  for a in attack_deck for t in target_deck for values in combos]

    identity = {
        "attackers": digest({e.label: e.digest for e in attack_deck}),
        "targets": digest({e.label: e.digest for e in target_deck}),
        "vary": digest({p.path: [value_label(v[i]) for v in combos]
                       for i, p in enumerate(params)}),
        "points": len(keys), "simulation": {k: simulation[k] for k in sorted(simulation)},
        "method": method, "trials": trials, "seed": seed, "columns": columns,
    }
    journal, final, seed = _open(out, resume, identity, keys)
    stats = {"processes": {}, "first_points": 0, "compute_seconds": 0.0}

    def compute(todo, shown):
        if backend.dashboard:
            shown.note(f"Dask dashboard: {backend.dashboard}")
        points = points_to_compute(attack_deck, target_deck, labels, vary, simulation, todo,
                                   trials, seed, method, varied=bool(params))
        for outcome in backend.run(points):
            if isinstance(outcome, PointFailed):
                raise MatrixPointError(f"matrix point {' / '.join(outcome.key)}: "
                                       f"{outcome.message}")
            tally_point(stats, outcome)
            yield outcome.key, point_rows(outcome)

    with held(journal):
        backend = make_backend(scheduler, workers, batch)
        with backend:
            done, todo = run_points(keys, compute, journal=journal, progress=progress,
                                    what="matrix", out=out)
        frame = points_frame(columns, keys, frame_keys, done)
        if journal is not None:
            journal.reorder(keys)
            if final is not None:
                _write_parquet(frame, final)
                journal.discard()  # the Parquet file holds every point: only it stays
    frame.attrs.update({
        "seed": seed, "trials": trials, "method": method, "backend": backend.name,
        "workers": backend.workers, "batch": backend.batch,
        "dashboard": backend.dashboard, "points": len(keys),
        "computed": len(todo), "wall_seconds": time.perf_counter() - started,
        **stats, "skipped": skipped, "out": None if out is None else os.fspath(out),
    })
    return frame


def pivot_matrix(frame: pd.DataFrame, metric: str = "kill", *, value: str = "value",
                 **where) -> pd.DataFrame:
    """One figure of a matrix frame as a wide table: attackers down, targets across (in the
    frame's order).

    Parameters
    ----------
    frame : pandas.DataFrame
        A frame of :func:`matrix`.
    metric : str
        ``kill``, ``damage_mean``, ``cripple:C``, ...; a pair without it (a cripple figure of
        a card without that system) is blank.
    value : {"value", "ci_low", "ci_high"}
    **where
        The value of each varied parameter, e.g. ``**{"attackers.0.focus": 3}``; needed for
        every parameter holding several values.

    Raises
    ------
    InputError
        An unknown metric or parameter, or a parameter left with several values.
    """
    check_frame("frame", frame, "a matrix frame (what matrix returns)")
    check_str("metric", metric)
    if value not in SUMMARY_COLUMNS[1:]:
        raise InputError("value", value, "must be one of value, ci_low, ci_high")
    params = [c for c in frame.columns if c not in KEY_COLUMNS and c not in SUMMARY_COLUMNS]
    rows = frame
    for name, v in where.items():
        if name not in params:
            raise InputError(name, v, "is not a varied parameter of this matrix"
                             + (f" (they are {', '.join(params)})" if params else ""))
        rows = rows[rows[name] == v]
        if rows.empty:
            raise InputError(name, v, "is not a value of this matrix")
    for name in params:
        if name not in where and rows[name].nunique() > 1:
            raise InputError(name, sorted(rows[name].unique().tolist()),
                             "holds several values: choose one (e.g. "
                             f"pivot_matrix(frame, {metric!r}, **{{{name!r}: ...}}))")
    picked = rows[rows["metric"] == metric]
    if picked.empty:
        have = ", ".join(sorted(frame["metric"].unique()))
        raise InputError("metric", metric, f"is not a figure of this matrix (it has {have})")
    table = picked.pivot(index="attacker", columns="target", values=value)
    attackers = list(dict.fromkeys(rows["attacker"]))
    targets = list(dict.fromkeys(rows["target"]))
    table = table.reindex(index=attackers, columns=targets)
    table.index.name, table.columns.name = "attacker", "target"
    return table

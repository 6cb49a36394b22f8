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

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from .._core.limits import MAX_POINTS, MAX_SEED
from .._core.paths import file_to_write, replace_with
from .._core.validate import check_bool, check_frame, check_str
from ..engine import check_method
from ..errors import InputError, MathhammerError
from ..io.cardpath import card_dirs
from ..io.scenario_files import scenario_from_cards
from ..result.metrics import SUMMARY_COLUMNS
from .decks import DeckEntry, deck
from .execution import Point, PointFailed, make_backend
from .grids import grid, value_label
from .points import digest, held, open_run, points_frame, run_points, run_settings
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


# ---------------------------------------------------------------------------- the points
def point_seed(seed: int, key: Iterable[str]) -> int:
    """The seed of one point: a hash of the run's seed and the point's key.

    The key is the point's labels (attacker, target, parameter values as text), so a point
    draws the same dice whichever backend, worker or order computes it.

    >>> point_seed(1, ("heavy_warjack", "solo")) == point_seed(1, ("heavy_warjack", "solo"))
    True
    >>> point_seed(1, ("heavy_warjack", "solo")) != point_seed(2, ("heavy_warjack", "solo"))
    True
    """
    text = json.dumps([int(seed), [str(k) for k in key]], separators=(",", ":"))
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") & MAX_SEED


def _pair(a: DeckEntry, t: DeckEntry, simulation: Mapping):
    return scenario_from_cards([a.ref], t.ref, source=f"matrix {a.label} vs {t.label}",
                               **simulation)


def _grid(scenario, vary: Mapping, a: DeckEntry, t: DeckEntry):
    """:func:`~mathhammer.studies.grids.grid` of one pair; an error names the pair (key
    ``vary``)."""
    try:
        return grid(scenario, vary)
    except InputError as err:
        where = "" if err.key == "vary" else f"{err.key}: "
        raise InputError("vary", err.value, f"{where}{err.reason} (for {a.label} vs "
                         f"{t.label})") from None


def _metric(name: str) -> str:
    """``spent:<attacker name>`` is ``spent``: a point has one attacker."""
    return "spent" if name.startswith("spent:") else name


# ---------------------------------------------------------------------------- outputs
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
    attackers,
    targets,
    *,
    vary: Mapping[str, Iterable] | None = None,
    trials: int | None = None,
    seed: int | None = None,
    method: str = "monte_carlo",
    cards: Iterable[str | os.PathLike] | None = None,
    all_actions: bool = False,
    scheduler=None,
    workers: int | None = None,
    batch: int | None = None,
    out: str | os.PathLike | None = None,
    resume: bool = False,
    progress: bool | None | Callable[[int, int], object] = None,
    **simulation,
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
        address when there is one); ``True``: at once; ``False``: nothing. A callable is
        called as ``progress(done, total)`` after each point instead.
    **simulation
        ``turns``, ``attack_turns``, ``objective``, ``brutal_damage`` of every scenario.

    Returns
    -------
    pandas.DataFrame
        Columns ``attacker``, ``target``, one per varied parameter, ``metric``, ``value``,
        ``ci_low``, ``ci_high``; points in order (attackers, then targets, then parameter
        values, the last varying fastest). ``attrs``: ``seed``, ``trials``, ``method``,
        ``backend``, ``workers`` (threads computing points), ``batch`` (points per task),
        ``dashboard``, ``points``,
        ``computed`` (by this call), ``wall_seconds``, ``compute_seconds`` (inside point
        tasks), ``processes`` (points computed per process id), ``first_points`` (points that
        were the first of their process: where the kernels were loaded or compiled),
        ``skipped`` (target-only cards of an attackers directory) and ``out``.

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
    method = check_method(method)
    check_bool("resume", resume)
    check_bool("all_actions", all_actions)
    if resume and out is None:
        raise InputError("resume", resume, "needs out=, the file of the matrix to resume")
    check_progress(progress)
    unknown = sorted(set(simulation) - set(_SIMULATION_KEYS))
    if unknown:
        raise TypeError(f"matrix() got unexpected keyword arguments: {', '.join(unknown)}")
    simulation = {k: v for k, v in simulation.items() if v is not None}
    dirs = card_dirs(cards) if cards is not None else None
    attack_deck, skipped = deck(attackers, "attackers", dirs, all_actions)
    target_deck, _ = deck(targets, "targets", dirs, False)

    # the grid of parameters, checked on every attacker and every target before anything runs
    first = _pair(attack_deck[0], target_deck[0], simulation)
    params, combos = [], [()]
    if vary:
        params, pts = _grid(first, vary, attack_deck[0], target_deck[0])
        combos = [values for values, _ in pts]
        for a in attack_deck[1:]:
            _grid(_pair(a, target_deck[0], simulation), vary, a, target_deck[0])
        for t in target_deck[1:]:
            _grid(_pair(attack_deck[0], t, simulation), vary, attack_deck[0], t)
    elif vary is not None and not isinstance(vary, Mapping):
        raise InputError("vary", vary, "must map parameter paths to their values")
    total = len(attack_deck) * len(target_deck) * len(combos)
    if total > MAX_POINTS:
        raise InputError("vary", f"{len(attack_deck)} attackers x {len(target_deck)} targets x {len(combos)} values",
                         f"makes {total:,} points: at most {MAX_POINTS:,}")
    trials, seed = run_settings([first], trials, seed, method)
    columns = list(KEY_COLUMNS) + [p.path for p in params] + list(SUMMARY_COLUMNS)
    labels = [tuple(value_label(v) for v in values) for values in combos]
    keys = [(a.label, t.label) + lab for a in attack_deck for t in target_deck for lab in labels]
    frame_keys = [(a.label, t.label) + tuple(values)
                  for a in attack_deck for t in target_deck for values in combos]

    # the sidecar is rewritten after every point: long lists are kept as digests
    identity = {
        "attackers": digest({e.label: e.digest for e in attack_deck}),
        "targets": digest({e.label: e.digest for e in target_deck}),
        "vary": digest({p.path: [value_label(v[i]) for v in combos]
                       for i, p in enumerate(params)}),
        "points": len(keys),
        "simulation": {k: simulation[k] for k in sorted(simulation)},
        "method": method, "trials": trials, "seed": seed, "columns": columns,
    }
    journal_path = final = None
    if out is not None:
        journal_path, final = _outputs(out, resume)
    journal, seed = open_run(out, identity, columns, resume, method, seed, keys,
                             tag="mathhammer_matrix", checks=_CHECKS, what="matrix",
                             path=journal_path, name=None if out is None else os.fspath(out))
    stats = {"processes": {}, "first_points": 0, "compute_seconds": 0.0}

    def to_compute(todo: list[tuple]) -> Iterator[Point]:
        wanted = set(todo)
        for a in attack_deck:
            for t in target_deck:
                pair = [(a.label, t.label) + lab for lab in labels]
                if not any(k in wanted for k in pair):
                    continue
                scen = _pair(a, t, simulation)
                built = _grid(scen, vary, a, t)[1] if params else [((), scen)]
                for key, (_, s) in zip(pair, built):
                    if key in wanted:
                        yield Point(key, s, trials,
                                    None if method == "exact" else point_seed(seed, key), method)

    def compute(todo, shown):
        if backend.dashboard:
            shown.note(f"Dask dashboard: {backend.dashboard}")
        for outcome in backend.run(to_compute(todo)):
            if isinstance(outcome, PointFailed):
                raise MatrixPointError(f"matrix point {' / '.join(outcome.key)}: "
                                       f"{outcome.message}")
            procs = stats["processes"]
            procs[outcome.pid] = procs.get(outcome.pid, 0) + 1
            stats["first_points"] += outcome.first
            stats["compute_seconds"] += outcome.seconds
            yield outcome.key, [list(outcome.key) + [_metric(m), v, lo, hi]
                                for m, v, lo, hi in outcome.rows]

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

"""What every study over many points shares: its arguments, its seed, and running the points.

A sweep (:mod:`.sweeps`) or a balance matrix (:mod:`.matrices`) is a list of *points*, each
a scenario whose summary rows (``metric, value, ci_low, ci_high`` after the point's key
columns) are computed once. :func:`open_run` opens the run's journal (:mod:`.journal`: the
file the rows go to, with the run's identity beside it) and settles the seed (a resumed run
keeps its own; none given: one is drawn and reported); :func:`run_points` computes the points
not yet done, writes each as it finishes, shows progress, and turns Ctrl-C into
:class:`RunInterrupted` with every finished point kept; :func:`points_frame` is the tidy
frame of them all, in point order.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from .._core.limits import MAX_SEED, MAX_TRIALS, fresh_seed
from .._core.validate import check_int, check_name
from ..engine import check_method_arguments
from ..errors import InputError
from ..result import Result
from ..result.metrics import SUMMARY_COLUMNS
from ..result.summary import summary_records
from ..result.trade import TradeResult
from ..rules import Scenario, Trade
from ..simulation import simulate
from .journal import Journal
from .progress import PointProgress

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["RunInterrupted", "check_loadouts", "digest", "held", "open_run", "points_frame",
           "run_points", "run_settings", "simulate_point", "summary_rows", "tally_point"]

#: What a point computes: ``(key, rows)``, rows ``[*key, metric, value, ci_low, ci_high]``.
Outcome = tuple[tuple, list]


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run over points: ``done`` of ``total`` points are finished; ``what`` is
    ``"sweep"`` or ``"matrix"``. When the run writes a file, ``out`` is the file asked for
    and ``kept`` the one holding the finished points (``out`` itself for a CSV file, its
    ``.journal.csv`` for a Parquet matrix written at the end); resuming is asked with ``out``."""

    def __init__(self, what: str, done: int, total: int, out: str | None,
                 kept: str | None = None):
        self.what, self.done, self.total, self.out = what, done, total, out
        self.kept = out if kept is None else kept
        super().__init__(f"{what} interrupted after {done} of {total} points")


# ---------------------------------------------------------------------------- arguments
def check_loadouts(scenario: object, key: str = "scenario") -> dict[str | None, Scenario]:
    """``{None: scenario}`` for one scenario, else the labelled scenarios, checked."""
    if isinstance(scenario, Scenario):
        return {None: scenario}
    if not isinstance(scenario, Mapping):
        raise InputError(key, type(scenario).__name__,
                         "must be a mathhammer.Scenario or a mapping {label: Scenario}")
    if not scenario:
        raise InputError(key, {}, "names no loadout")
    out: dict[str | None, Scenario] = {}
    for label, s in scenario.items():
        if not isinstance(label, str) or not label.strip():
            raise InputError(f"{key} label", label, "must be a non-empty string")
        check_name(f"{key} label", label)
        if not isinstance(s, Scenario):
            raise InputError(f"{key}[{label!r}]", type(s).__name__, "must be a mathhammer.Scenario")
        out[label] = s
    return out


def run_settings(scenarios: Iterable[Scenario], trials, seed, method: str):
    """The trials and seed every point runs with (None, None for exact, which refuses them
    given): ``trials`` or the scenarios' own, ``seed`` or the one the scenarios name (None:
    drawn later); scenarios giving either differently are refused unless it is given."""
    scenarios = list(scenarios)
    check_method_arguments(method, trials=trials, seed=seed)
    if method == "exact":
        return None, None
    if trials is None:
        trials = _one_setting("trials", [s.trials for s in scenarios])
    else:
        trials = check_int("trials", trials, 1, MAX_TRIALS)
    if seed is None:
        seed = _one_setting("seed", [s.seed for s in scenarios if s.seed is not None])
    else:
        seed = check_int("seed", seed, 0, MAX_SEED)
    return trials, seed


def _one_setting(key: str, values: list):
    """The one value the scenarios give ``key`` (None: none gives one); scenarios that give
    it differently are refused, since every point runs with one value: the caller gives it."""
    if len(set(values)) > 1:
        raise InputError(key, sorted(set(values)), f"the scenarios give different {key}: give "
                         f"{key} to choose one for every point (--{key} on the command line)")
    return values[0] if values else None


def digest(data) -> str:
    """A short hash of JSON-ready ``data`` (key order ignored): how a run's identity keeps a
    scenario or a long list, compared when the run is resumed.

    >>> digest({"a": 1, "b": [2]}) == digest({"b": [2], "a": 1})
    True
    """
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# ---------------------------------------------------------------------------- a point
def simulate_point(scenario: Scenario | Trade, trials: int | None, seed: int | None, method: str,
                   stride: int | None = None, progress: bool | None = False) -> Result | TradeResult:
    """:func:`mathhammer.simulate` of one point: Monte Carlo with ``trials``, ``seed`` and
    the common-random-numbers ``stride``; the exact engine for ``method="exact"`` (no
    trials, seed or stride); a trade's point, :func:`mathhammer.simulate_trade`. Without "how to play it" (``explain=False``): a point's figures
    need no words, and the words cost a pass over the solved game. ``progress``: the
    point's own bars, none by default (a run over points shows its bar over the points:
    bars of its points would be drawn over it, on a terminal)."""
    if isinstance(scenario, Trade):  # a trade matrix's point (mathhammer.studies.trade_matrices)
        from ..trade import simulate_trade

        if method == "exact":
            return simulate_trade(scenario, method="exact")
        return simulate_trade(scenario, trials, seed)
    if method == "exact":
        return simulate(scenario, method="exact", explain=False, progress=progress)
    return simulate(scenario, trials=trials, seed=seed, method=method, stride=stride,
                    explain=False, progress=progress)


def summary_rows(result: Result | TradeResult, key: tuple = ()) -> list[list]:
    """The summary of ``result`` as rows ``[*key, metric, value, ci_low, ci_high]``: the rows
    of ``result.summary()`` (:func:`~mathhammer.result.summary.summary_records`; a trade's
    :meth:`~mathhammer.result.trade.TradeResult.summary_records`), without
    building its frame (a point's rows go into one frame of every point, built at the end)."""
    key = list(key)
    records = result.summary_records() if isinstance(result, TradeResult) else summary_records(result)
    return [key + list(row) for row in records]


# ---------------------------------------------------------------------------- the run
def open_run(out, identity: dict, columns: list[str], resume: bool, method: str, seed,
             keys: list[tuple], *, tag: str, checks: Mapping[str, str | None], what: str,
             path=None, name: str | None = None) -> tuple[Journal | None, int | None]:
    """The run's journal (None without ``out``) and its seed.

    The journal is ``path`` (default ``out``); a resumed Monte Carlo run given no seed takes
    the seed it was started with; a Monte Carlo run still without one draws one.
    ``identity["seed"]`` is set to the seed, then the journal's finished points of ``keys``
    are read back (a file of another run is refused).
    """
    journal = None
    if out is not None:
        journal = Journal(out if path is None else path, identity, columns, resume, tag=tag,
                          checks=checks, what=what, name=name)
        if resume and method != "exact" and seed is None:
            seed = (journal.stored_identity() or {}).get("seed")
    if method != "exact" and seed is None:
        seed = fresh_seed()
    identity["seed"] = seed
    if journal is not None:
        try:
            journal.load(keys)
        except BaseException:
            journal.finish()  # another run's file, say: its lock is not kept
            raise
    return journal, seed


def tally_point(stats: dict, outcome) -> None:
    """Count a computed point (a :class:`~mathhammer.studies.execution.PointDone`) in a run's
    ``stats``: its process, whether it was the first there, and its compute time."""
    procs = stats["processes"]
    procs[outcome.pid] = procs.get(outcome.pid, 0) + 1
    stats["first_points"] += outcome.first
    stats["compute_seconds"] += outcome.seconds


def held(journal: Journal | None):
    """The context a run writes its journal in (its lock released at the end, whatever
    happens); nothing without a journal."""
    return contextlib.nullcontext() if journal is None else journal


def run_points(keys: list[tuple], compute: Callable[[list[tuple], PointProgress], Iterator[Outcome]],
               *, journal: Journal | None, progress, what: str, out) -> tuple[dict, list]:
    """Compute every point of ``keys`` not finished yet (``journal``, from :func:`open_run`,
    holds those finished before); return ``(rows, todo)``.

    ``compute(todo, shown)`` yields ``(key, rows)`` for the keys of ``todo``, in any order
    (``shown.note(text)`` writes a line above the progress bar). Each point is written to
    the journal as it comes and counted on the progress bar (``progress`` as for
    :func:`mathhammer.sweep`). ``rows`` maps every key finished, read back or computed, to
    its rows; ``todo`` lists the keys this call computed.

    Raises
    ------
    RunInterrupted
        Ctrl-C, after the finished points are written (and the journal closed).
    """
    done: dict[tuple, list] = dict(journal.rows) if journal is not None else {}
    todo = [k for k in keys if k not in done]
    shown = PointProgress(progress, len(keys), len(keys) - len(todo), what)
    try:
        for key, rows in compute(todo, shown):
            if journal is not None:
                journal.add(key, rows)
            done[key] = rows
            shown.tick()
    except KeyboardInterrupt:
        kept = None  # the points are in out itself, unless the journal is another file
        if journal is not None and journal.path != Path(os.fspath(out)).expanduser():
            kept = os.fspath(journal.path)
        raise RunInterrupted(what, shown.done, len(keys),
                             None if out is None else os.fspath(out), kept) from None
    finally:
        shown.close()
        if journal is not None:
            journal.close()
    return done, todo


def points_frame(columns: list[str], keys: list[tuple], frame_keys: list[tuple],
                 done: Mapping[tuple, list]) -> pd.DataFrame:
    """The tidy frame of every point, in the order of ``keys``: each point's rows with its key
    columns as the frame holds them (``frame_keys``: values, not their labels)."""
    import pandas as pd

    n_key = len(columns) - len(SUMMARY_COLUMNS)
    table = [list(fk) + row[n_key:] for key, fk in zip(keys, frame_keys) for row in done[key]]
    frame = pd.DataFrame(table, columns=columns)
    for c in SUMMARY_COLUMNS[1:]:
        frame[c] = frame[c].astype("float64")
    return frame

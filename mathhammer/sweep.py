"""Parameter sweeps: every figure of a scenario over a grid of parameter values.

:func:`sweep` simulates the scenario at every point of the cartesian product of the values
of some parameters (:mod:`mathhammer.vary` paths such as ``target.arm``) and returns one
long ("tidy") frame: a column per varied parameter, named by its path, then ``metric``,
``value``, ``ci_low`` and ``ci_high`` (the rows of :meth:`Result.summary` at that point);
sweeping several loadouts adds a ``loadout`` column first.

Every point runs with the same seed and the same common-random-numbers stride
(:func:`mathhammer.simulate.common_stride` of all points), so trial j of every point meets
the same dice: neighbouring points differ smoothly (on a plain damage track, each trial's
damage can only fall as ARM rises, so P(damage >= k) is exactly monotone in ARM), and two
points compare far more precisely than independent runs would.

With ``out=`` the rows are appended to a CSV file point by point as they are computed, and
the sweep's identity (scenario content, parameters, seed, trials, method, stride) is kept
beside it in ``<out>.meta.json`` with the points finished. An interrupted sweep is resumed
with ``resume=True`` (``--resume``): the finished points are read back and only the missing
ones computed; a point whose rows were cut short is computed again. An existing file is never
overwritten, and resuming a file written by another sweep is refused.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from ._progress import PointProgress, check_progress
from .errors import InputError
from .journal import FIGURE_COLUMNS, Journal
from .result import Result
from .rules import Scenario
from .rules._validate import check_int
from .rules.scenario import MAX_SEED, MAX_TRIALS
from .scenario import scenario_to_dict
from .vary import Param, grid, value_label

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["sweep", "pivot", "SweepInterrupted", "SUMMARY_COLUMNS", "simulate_crn"]

#: The columns every sweep frame ends with.
SUMMARY_COLUMNS = FIGURE_COLUMNS
#: Identity fields a resumed sweep file must match, with the reason printed when one differs.
_CHECKS = {"scenario": "the scenario differs", "vary": "the varied parameters differ",
           "method": None, "trials": None, "seed": None, "stride": None,
           "columns": "its columns differ"}


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C during a sweep: ``done`` of ``total`` points are finished (and kept in ``out``
    when the sweep writes a file)."""

    def __init__(self, done: int, total: int, out: str | None):
        self.done, self.total, self.out = done, total, out
        super().__init__(f"sweep interrupted after {done} of {total} points")


# ---------------------------------------------------------------------------- running
def simulate_crn(scenario: Scenario, trials: int | None, seed: int | None, method: str,
                 stride: int) -> Result:
    """:func:`mathhammer.simulate` with common random numbers (``stride``) for Monte Carlo;
    the exact engine for ``method="exact"`` (no trials, seed or stride)."""
    from .simulate import simulate

    if method == "exact":
        return simulate(scenario, method="exact")
    return simulate(scenario, trials=trials, seed=seed, method=method, stride=stride)


def _run_point(scenario: Scenario, trials, seed, method: str, stride: int) -> pd.DataFrame:
    """The summary rows of one point (a module function: tests count its calls)."""
    return simulate_crn(scenario, trials, seed, method, stride).summary()


# ---------------------------------------------------------------------------- arguments
def _method(method: object) -> str:
    from .simulate import _ALIASES

    if not isinstance(method, str) or method not in _ALIASES:
        raise InputError("method", method, "must be one of monte_carlo, mc, exact")
    return _ALIASES[method]


def _loadouts(scenario: object, key: str = "scenario") -> dict[str | None, Scenario]:
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
        if not isinstance(s, Scenario):
            raise InputError(f"{key}[{label!r}]", type(s).__name__, "must be a mathhammer.Scenario")
        out[label] = s
    return out


def _trials_seed(scenarios: Iterable[Scenario], trials, seed, method: str):
    """The trials and seed every point runs with (None, None for exact)."""
    scenarios = list(scenarios)
    if method == "exact":
        return None, None
    if trials is None:
        trials = max(s.trials for s in scenarios)
    else:
        trials = check_int("trials", trials, 1, MAX_TRIALS)
    if seed is None:
        seed = next((s.seed for s in scenarios if s.seed is not None), None)
    else:
        seed = check_int("seed", seed, 0, MAX_SEED)
    return trials, seed


def scenario_hash(scenario: Scenario) -> str:
    """A short hash of the scenario's content (its file tables, the seed left out)."""
    data = scenario_to_dict(scenario)
    data["simulation"].pop("seed", None)
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# ---------------------------------------------------------------------------- sweep
def sweep(
    scenario: Scenario | Mapping[str, Scenario],
    vary: Mapping[str, Iterable],
    *,
    trials: int | None = None,
    seed: int | None = None,
    method: str = "monte_carlo",
    out: str | os.PathLike | None = None,
    resume: bool = False,
    progress: bool | None | Callable[[int, int], object] = None,
) -> pd.DataFrame:
    """Simulate ``scenario`` over the grid of ``vary`` and return every figure per point.

    Parameters
    ----------
    scenario : Scenario or mapping of str to Scenario
        One scenario, or loadouts ``{label: scenario}`` swept over the same grid (the frame
        then starts with a ``loadout`` column).
    vary : mapping of str to iterable
        Parameter paths (:mod:`mathhammer.vary`) and the values each takes, e.g.
        ``{"target.arm": range(14, 23), "target.def": range(10, 17)}``. Points are the
        cartesian product, the last parameter varying fastest (after the loadouts).
    trials : int, optional
        Monte Carlo sample size of every point; defaults to the scenario's (the largest of
        the loadouts').
    seed : int, optional
        The one seed of every point; defaults to the scenario's (the first loadout's that
        has one), else a seed is drawn once (reported in ``frame.attrs["seed"]``; a resumed
        sweep keeps the seed it was started with).
    method : {"monte_carlo", "mc", "exact"}
    out : str or os.PathLike, optional
        A ``.csv`` file the rows are appended to point by point, with the sweep's identity in
        ``<out>.meta.json``. It must not exist unless ``resume``.
    resume : bool
        Continue the sweep ``out`` holds: its finished points are read back, only the missing
        ones computed. A file holding another sweep (other scenario, parameters, seed, trials,
        method or stride) is refused. With no file yet, the sweep simply starts.
    progress : bool or callable, optional
        ``None`` (default): a tqdm progress bar on stderr once the sweep has run for a second;
        ``True``: at once; ``False``: none. A callable is called as ``progress(done, total)``
        after each point instead.

    Returns
    -------
    pandas.DataFrame
        Columns ``loadout`` (several loadouts only), one per parameter named by its path, then
        ``metric``, ``value``, ``ci_low``, ``ci_high``. ``attrs``: ``seed``, ``trials``,
        ``method``, ``stride``, ``vary`` (path -> values), ``points``, ``computed`` (points
        computed by this call) and ``out``.

    Raises
    ------
    InputError
        A bad parameter path or value (before anything is computed), bad arguments, an
        existing ``out`` without ``resume``, or a resumed file of another sweep.
    SweepInterrupted
        Ctrl-C: a :class:`KeyboardInterrupt` saying how many points were finished (they are
        kept in ``out``).

    Examples
    --------
    >>> from mathhammer import Attacker, Scenario, Target, Weapon
    >>> jack = Attacker("Jack", [Weapon("Fist", "melee", skill=7, pow=16, attacks=2)])
    >>> s = Scenario(Target(defense=12, arm=18, boxes=10), [jack])
    >>> frame = sweep(s, {"target.arm": [16, 18]}, method="exact")
    >>> kill = frame[frame.metric == "kill"]
    >>> [(a, round(p, 4)) for a, p in zip(kill["target.arm"], kill["value"])]
    [(16, 0.6732), (18, 0.3941)]
    >>> list(frame.columns)
    ['target.arm', 'metric', 'value', 'ci_low', 'ci_high']
    """
    import pandas as pd

    method = _method(method)
    if not isinstance(resume, bool):
        raise InputError("resume", resume, "must be true or false")
    if resume and out is None:
        raise InputError("resume", resume, "needs out=, the file of the sweep to resume")
    check_progress(progress)
    loadouts = _loadouts(scenario)
    multi = list(loadouts) != [None]

    # every point, validated before anything runs
    points: list[tuple[tuple, Scenario]] = []  # (key labels, scenario)
    frame_values: list[tuple] = []             # the key as the frame holds it
    params: list[Param] = []
    values_of: dict[str, list] = {}
    for label, scen in loadouts.items():
        params, pts = grid(scen, vary)
        for values, s in pts:
            key = ((label,) if multi else ()) + values
            points.append((tuple(value_label(v) for v in key), s))
            frame_values.append(key)
            for p, v in zip(params, values):
                values_of.setdefault(p.path, [])
                if v not in values_of[p.path]:
                    values_of[p.path].append(v)
    columns = (["loadout"] if multi else []) + [p.path for p in params] + list(SUMMARY_COLUMNS)
    trials, seed = _trials_seed(loadouts.values(), trials, seed, method)
    stride = 0
    if method != "exact":
        from .simulate import common_stride

        stride = common_stride([s for _, s in points])

    identity = {
        "scenario": {("" if k is None else k): scenario_hash(s) for k, s in loadouts.items()},
        "vary": {path: [value_label(v) for v in vs] for path, vs in values_of.items()},
        "seed": seed, "trials": trials, "method": method, "stride": stride,
        "columns": columns,
    }
    record = None
    if out is not None:
        record = Journal(out, identity, columns, resume, tag="mathhammer_sweep",
                         checks=_CHECKS, what="sweep")
        if resume and method != "exact" and seed is None:
            seed = (record.stored_identity() or {}).get("seed")
    if method != "exact" and seed is None:
        seed = secrets.randbits(62)
    identity["seed"] = seed
    if record is not None:
        record.load(k for k, _ in points)

    done_rows: dict[tuple, list] = dict(record.rows) if record is not None else {}
    todo = [(k, s) for k, s in points if k not in done_rows]
    total = len(points)
    shown = PointProgress(progress, total, total - len(todo), "sweep")
    try:
        for key, s in todo:
            summary = _run_point(s, trials, seed, method, stride)
            rows = [list(key) + [m, float(v), float(lo), float(hi)]
                    for m, v, lo, hi in summary[list(SUMMARY_COLUMNS)].itertuples(index=False)]
            if record is not None:
                record.add(key, rows)
            done_rows[key] = rows
            shown.tick()
    except KeyboardInterrupt:
        raise SweepInterrupted(shown.done, total, None if out is None else os.fspath(out)) from None
    finally:
        shown.close()
        if record is not None:
            record.close()

    table = []
    for (key, _s), fv in zip(points, frame_values):
        for row in done_rows[key]:
            table.append(list(fv) + [row[-4], *row[-3:]])
    frame = pd.DataFrame(table, columns=columns)
    for c in SUMMARY_COLUMNS[1:]:
        frame[c] = frame[c].astype("float64")
    frame.attrs.update({
        "seed": seed, "trials": trials, "method": method, "stride": stride,
        "vary": values_of, "points": total, "computed": len(todo),
        "out": None if out is None else os.fspath(out),
    })
    return frame


def pivot(frame: pd.DataFrame, metric: str = "kill", loadout: str | None = None) -> pd.DataFrame:
    """``metric`` of a sweep frame as a wide table: rows the first parameter's values,
    columns the second's (a one-parameter sweep: one column, the metric).

    Other parameters (and loadouts, unless ``loadout`` picks one) stay as outer row levels.
    """
    params = [c for c in frame.columns if c not in SUMMARY_COLUMNS]
    rows = frame[frame["metric"] == metric]
    if loadout is not None:
        rows = rows[rows["loadout"] == loadout]
        params = [c for c in params if c != "loadout"]
    if rows.empty:
        raise InputError("metric", metric, "is not a figure of this sweep")
    if len(params) == 1:
        return rows.set_index(params)[["value"]].rename(columns={"value": metric})
    swept = [c for c in params if c != "loadout"]
    col = swept[1] if len(swept) >= 2 else swept[0]
    index = [c for c in params if c != col]
    return rows.pivot_table(index=index, columns=col, values="value", aggfunc="first",
                            sort=False)

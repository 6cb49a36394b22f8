"""Parameter sweeps: every figure of a scenario over a grid of parameter values.

:func:`sweep` simulates the scenario at every point of the cartesian product of the values
of some parameters (:mod:`~mathhammer.studies.params` paths such as ``target.arm``) and returns one
long ("tidy") frame: a column per varied parameter, named by its path, then ``metric``,
``value``, ``ci_low`` and ``ci_high`` (the rows of :meth:`Result.summary` at that point);
sweeping several loadouts adds a ``loadout`` column first.

Every point runs with the same seed and the same common-random-numbers stride
(:func:`mathhammer.common_stride` of all points), so trial j of every point meets
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

import os
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from .._core.validate import check_bool, check_frame, check_str
from ..engine import check_method, common_stride
from ..errors import InputError
from ..io.dump import scenario_to_dict
from ..result import Result
from ..result.metrics import SUMMARY_COLUMNS
from ..rules import Scenario
from .grids import grid, value_label
from .params import Param
from .points import (
    check_loadouts,
    digest,
    held,
    open_run,
    points_frame,
    run_points,
    run_settings,
    simulate_point,
    summary_rows,
)
from .progress import check_progress

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["sweep", "pivot", "evaluate_point", "scenario_hash"]

#: Identity fields a resumed sweep file must match, with the reason printed when one differs.
_CHECKS = {"scenario": "the scenario differs", "vary": "the varied parameters differ",
           "method": None, "trials": None, "seed": None, "stride": None,
           "columns": "its columns differ"}


def evaluate_point(scenario: Scenario, trials, seed, method: str, stride: int) -> Result:
    """The result of one point (a module function: tests count its calls and interrupt it)."""
    return simulate_point(scenario, trials, seed, method, stride)


def scenario_hash(scenario: Scenario) -> str:
    """A short hash of the scenario's content (its file tables, the seed left out)."""
    data = scenario_to_dict(scenario)
    data["simulation"].pop("seed", None)
    return digest(data)


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
        Parameter paths (:mod:`~mathhammer.studies.params`) and the values each takes, e.g.
        ``{"target.arm": range(14, 23), "target.def": range(10, 17)}``. Points are the
        cartesian product, the last parameter varying fastest (after the loadouts).
    trials : int, optional
        Monte Carlo sample size of every point; defaults to the scenario's (loadouts giving
        different ones are refused: give it).
    seed : int, optional
        The one seed of every point; defaults to the scenario's (loadouts naming different
        ones are refused: give it), else a seed is drawn once (reported in ``frame.attrs["seed"]``; a resumed
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
        ``None`` (default): a tqdm progress bar on stderr once the sweep has run for a second,
        where stderr is a terminal (as for every run: never into a log or a pipe); ``True``:
        that bar wherever stderr goes; ``False``: none. A callable is called as
        ``progress(done, total)`` after each point instead.

    Returns
    -------
    pandas.DataFrame
        Columns ``loadout`` (several loadouts only), one per parameter named by its path, then
        ``metric``, ``value``, ``ci_low``, ``ci_high``. ``attrs``: ``seed``, ``trials``,
        ``method``, ``stride``, ``vary`` (path -> values), ``points``, ``computed`` (points
        computed by this call), ``out`` and ``matchup`` (who attacks whom, in words: the
        figures' title, :func:`matchup`).

    Raises
    ------
    InputError
        A bad parameter path or value (before anything is computed), bad arguments, an
        existing ``out`` without ``resume``, or a resumed file of another sweep.
    RunInterrupted
        Ctrl-C: a :class:`KeyboardInterrupt` saying how many points were finished (they are
        kept in ``out``; :class:`~mathhammer.studies.points.RunInterrupted`).

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
    method = check_method(method)
    check_bool("resume", resume)
    if resume and out is None:
        raise InputError("resume", resume, "needs out=, the file of the sweep to resume")
    check_progress(progress)
    loadouts = check_loadouts(scenario)
    multi = list(loadouts) != [None]

    # every point, validated before anything runs
    points: dict[tuple, Scenario] = {}  # key labels -> scenario
    frame_values: list[tuple] = []      # the key as the frame holds it
    params: list[Param] = []
    values_of: dict[str, list] = {}
    for label, scen in loadouts.items():
        params, pts = grid(scen, vary)
        for values, s in pts:
            key = ((label,) if multi else ()) + values
            points[tuple(value_label(v) for v in key)] = s
            frame_values.append(key)
            for p, v in zip(params, values):
                values_of.setdefault(p.path, [])
                if v not in values_of[p.path]:
                    values_of[p.path].append(v)
    keys = list(points)
    columns = (["loadout"] if multi else []) + [p.path for p in params] + list(SUMMARY_COLUMNS)
    trials, seed = run_settings(loadouts.values(), trials, seed, method)
    stride = 0 if method == "exact" else common_stride(points.values())

    identity = {
        "scenario": {("" if k is None else k): scenario_hash(s) for k, s in loadouts.items()},
        "vary": {path: [value_label(v) for v in vs] for path, vs in values_of.items()},
        "seed": seed, "trials": trials, "method": method, "stride": stride,
        "columns": columns,
    }
    journal, seed = open_run(out, identity, columns, resume, method, seed, keys,
                             tag="mathhammer_sweep", checks=_CHECKS, what="sweep")

    def compute(todo, shown):
        for key in todo:
            yield key, summary_rows(evaluate_point(points[key], trials, seed, method, stride),
                                    key)

    with held(journal):
        done, todo = run_points(keys, compute, journal=journal, progress=progress, what="sweep",
                                out=out)
    frame = points_frame(columns, keys, frame_values, done)
    frame.attrs.update({
        "matchup": matchup(loadouts), "seed": seed, "trials": trials, "method": method, "stride": stride,
        "vary": values_of, "points": len(keys), "computed": len(todo),
        "out": None if out is None else os.fspath(out),
    })
    return frame


def matchup(loadouts: Mapping) -> str:
    """Who attacks whom, in words, for a figure's title: the attackers of one loadout (or the
    loadouts' names) against the targets of the first.

    >>> from mathhammer import Attacker, Scenario, Target, Weapon
    >>> fist = Weapon("Fist", "melee", 7, 16)
    >>> s = Scenario(Target(12, 18, name="Heavy"), [Attacker("Jack", [fist]), Attacker("Hammer", [fist])])
    >>> matchup({None: s}), matchup({"two": s, "one": s})
    ('Jack and Hammer against Heavy', 'two or one against Heavy')
    """
    first = next(iter(loadouts.values()))
    if list(loadouts) == [None]:
        who = " and ".join(a.name for a in first.attackers)
    else:
        who = " or ".join(str(label) for label in loadouts)
    return f"{who} against {' and '.join(t.name for t in first.targets)}"


def pivot(frame: pd.DataFrame, metric: str = "kill", loadout: str | None = None) -> pd.DataFrame:
    """``metric`` of a sweep frame as a wide table: rows the first parameter's values,
    columns the second's (a one-parameter sweep: one column, the metric).

    Other parameters (and loadouts, unless ``loadout`` picks one) stay as outer row levels.
    """
    check_frame("frame", frame, "a sweep frame (what sweep returns)")
    check_str("metric", metric)
    if loadout is not None:
        check_str("loadout", loadout)
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

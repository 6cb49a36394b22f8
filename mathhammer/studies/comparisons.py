"""Side-by-side comparison of loadouts: which kills more often, which deals more damage.

:func:`compare` simulates every loadout with the same seed and common random numbers (the
same ``stride``, :func:`mathhammer.common_stride` of them all): trial j of every
loadout meets the same dice, so the difference between two loadouts is measured far more
precisely than their figures alone. The best loadout on each headline figure is compared
with every other loadout, the runner-up first, by
:func:`mathhammer.result.paired.paired_difference` (a batch-means 95% interval over paired
chunks of trials; exact with ``method="exact"``): each loadout gets its verdict against the
best, "no clear difference" where the interval spans 0.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .._core.limits import fresh_seed
from ..engine import check_method, common_stride
from ..errors import InputError
from ..result import Result
from ..result.metrics import SUMMARY_COLUMNS, is_probability
from ..result.paired import paired_difference
from ..rules import Scenario
from .points import check_loadouts, run_settings, simulate_point

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["Comparison", "compare", "COMPARED"]

#: The figures :attr:`Comparison.best` ranks the loadouts on.
COMPARED = ("kill", "damage_mean")
#: What "no difference" says of each compared figure (``destroyed``: with a unit as a target).
_SAME = {"kill": "kill equally often", "damage_mean": "deal the same damage on average",
         "destroyed": "destroy as many models on average"}


@dataclass(frozen=True, eq=False)
class Comparison:
    """What :func:`compare` found.

    Attributes
    ----------
    results : dict of str to Result
        Each loadout's result, in the order given.
    long : pandas.DataFrame
        Tidy figures: ``loadout``, ``metric``, ``value``, ``ci_low``, ``ci_high`` (every row
        of each result's summary).
    table : pandas.DataFrame
        Side by side: ``metric``, then one column per loadout holding the value (NaN where a
        figure does not apply to a loadout, e.g. ``spent:NAME`` of an attacker it lacks).
        :meth:`wide` adds the intervals.
    best : dict
        Per figure of :data:`COMPARED`: ``metric``, ``best``, ``runner_up`` (labels),
        ``difference`` (best minus runner-up), ``ci95`` (its 95% interval, or None with a
        single chunk of trials), ``clear`` (the interval excludes 0; None without one),
        ``method`` (``"paired chunks"`` or ``"exact"``), ``versus`` (the best against each
        other loadout, from the runner-up down: a dict each of ``loadout``, ``difference``
        (best minus it), ``ci95``, ``clear``, ``method`` and ``verdict``) and ``verdict``
        (their sentences joined by ``"; "``: with two loadouts, the one sentence).
    method : str
    trials, seed : int or None
        What every loadout ran with (None for exact results).
    stride : int
        The common-random-numbers stride (0 for exact results).
    """

    results: dict[str, Result]
    long: pd.DataFrame
    table: pd.DataFrame
    best: dict[str, dict]
    method: str
    trials: int | None
    seed: int | None
    stride: int = 0
    labels: tuple[str, ...] = field(default=())

    def wide(self, ci: bool = True) -> pd.DataFrame:
        """:attr:`table` with, when ``ci``, ``<label> ci_low`` and ``<label> ci_high`` after
        each loadout's column."""
        if not ci:
            return self.table.copy()
        out = self.table[["metric"]].copy()
        for label in self.labels:
            rows = self.long[self.long["loadout"] == label].set_index("metric")
            for col, src in ((label, "value"), (f"{label} ci_low", "ci_low"),
                             (f"{label} ci_high", "ci_high")):
                out[col] = out["metric"].map(rows[src]).astype("float64")
        return out

    def verdicts(self) -> list[str]:
        """The verdict sentences of each figure of :attr:`best`: the best loadout against
        each other one, from the runner-up down."""
        return [v["verdict"] for b in self.best.values() for v in b["versus"]]

    def to_dict(self) -> dict:
        """Plain-Python figures (the CLI's ``--json`` object); NaN written as None."""

        def num(x):
            return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)

        figures = {}
        for label in self.labels:
            rows = self.long[self.long["loadout"] == label]
            figures[label] = {m: {"value": num(v), "ci95": [num(lo), num(hi)]}
                              for m, v, lo, hi in rows[list(SUMMARY_COLUMNS)]
                              .itertuples(index=False)}
        def pair(b: dict) -> dict:
            return {**b, "difference": num(b["difference"]),
                    "ci95": None if b["ci95"] is None else [num(x) for x in b["ci95"]]}

        best = {m: {**pair(b), "versus": [pair(v) for v in b["versus"]]}
                for m, b in self.best.items()}
        return {"method": self.method, "trials": self.trials, "seed": self.seed,
                "stride": self.stride, "loadouts": list(self.labels), "figures": figures,
                "best": best}

    def __str__(self) -> str:
        head = ("exact" if self.method == "exact" else
                f"Monte Carlo, {self.trials:,} trials, seed {self.seed}, "
                "common random numbers")
        cells = [["metric", *self.labels]]
        for metric in self.table["metric"]:
            row = [metric]
            for label in self.labels:
                r = self.long[(self.long["loadout"] == label) & (self.long["metric"] == metric)]
                row.append("-" if r.empty else _cell(metric, *r.iloc[0][["value", "ci_low",
                                                                         "ci_high"]]))
            cells.append(row)
        widths = [max(len(r[i]) for r in cells) for i in range(len(cells[0]))]
        lines = [f"Comparison of {len(self.labels)} loadouts ({head})", ""]
        for r in cells:
            lines.append("  ".join([r[0].ljust(widths[0])]
                                   + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]).rstrip())
        lines.append("")
        lines += self.verdicts()
        return "\n".join(lines)


def _cell(metric: str, value: float, lo: float, hi: float) -> str:
    if is_probability(metric):
        text = f"{100 * value:.1f}%"
        if not math.isnan(lo) and lo != hi:
            text += f" ({100 * lo:.1f}-{100 * hi:.1f})"
        return text
    text = f"{value:g}" if metric == "damage_median" else f"{value:.2f}"
    if not math.isnan(lo) and lo != hi:
        text += f" ({lo:.2f}-{hi:.2f})"
    return text


def _digits(*xs: float) -> int:
    """Decimals that show the smallest non-zero magnitude of ``xs`` (1 to 3)."""
    small = min((abs(x) for x in xs if x and not math.isnan(x)), default=1.0)
    return 1 if small >= 0.1 else (2 if small >= 0.01 else 3)


def _signed(x: float, digits: int) -> str:
    """``x`` with its sign and ``digits`` decimals, more where it would round to zero (an
    interval's end just below or above zero says which side it is on): never -0.0.

    >>> _signed(-0.0001, 3), _signed(-0.0006, 3), _signed(0.0, 2)
    ('-0.0001', '-0.001', '+0.00')
    """
    while x != 0 and round(x, digits) == 0 and digits < 6:
        digits += 1
    x = round(x, digits)
    return f"{x if x != 0 else 0.0:+.{digits}f}"


def _verdict(metric: str, best: str, runner: str, diff: float, ci, method: str,
             trials: int | None) -> tuple[str, bool | None]:
    """The sentence saying which loadout is better on ``metric``, and whether clearly."""
    scale, unit = {"kill": (100.0, " percentage points"), "destroyed": (1.0, " models")}.get(
        metric, (1.0, " damage points"))
    better = {"kill": "kills more often", "destroyed": "destroys more models on average"}.get(
        metric, "deals more damage on average")
    d = diff * scale
    if method == "exact":
        if abs(d) < 1e-9:
            same = _SAME[metric]
            return f"no difference: {best} and {runner} {same} (exact)", False
        n = _digits(d)
        return f"{best} {better} than {runner}: {d:+.{n}f}{unit} (exact)", True
    if ci is None:
        n = _digits(d)
        return (f"{best} {better} than {runner}: {d:+.{n}f}{unit} (no interval: "
                f"{trials:,} trials make a single chunk; use more trials)"), None
    lo, hi = ci[0] * scale, ci[1] * scale
    if d == 0 and lo == hi == 0:
        same = _SAME[metric]
        return f"no difference: {best} and {runner} {same} on the same dice", False
    n = _digits(d, (hi - lo) / 2)
    interval = f"95% CI {_signed(lo, n)} to {_signed(hi, n)}"
    if lo > 0:
        return f"{best} {better} than {runner}: {d:+.{n}f}{unit} ({interval})", True
    what = {"kill": "kill chance", "destroyed": "models destroyed"}.get(metric, "mean damage")
    return (f"no clear difference in {what} between {best} and {runner}: "
            f"{d:+.{n}f}{unit} ({interval})"), False


def _versus(metric: str, results: dict[str, Result], top: str, other: str,
            trials: int | None) -> dict:
    """The best loadout ``top`` against ``other`` on ``metric``: the paired difference (top
    minus other), its interval and the verdict."""
    diff = paired_difference(results[top], results[other], metric)
    ci = None if diff["ci95"] is None else (float(diff["ci95"][0]), float(diff["ci95"][1]))
    verdict, clear = _verdict(metric, top, other, float(diff["difference"]), ci,
                              diff["method"], trials)
    return {"loadout": other, "difference": float(diff["difference"]), "ci95": ci,
            "clear": clear, "method": diff["method"], "verdict": verdict}


def compare(
    scenarios: Mapping[str, Scenario] | Sequence[Scenario],
    *,
    trials: int | None = None,
    seed: int | None = None,
    method: str = "monte_carlo",
) -> Comparison:
    """Simulate loadouts side by side and say which is better, with its confidence.

    Parameters
    ----------
    scenarios : mapping of str to Scenario
        At least two loadouts, by label (a sequence is labelled ``loadout 1``, ...).
    trials : int, optional
        Monte Carlo sample size of every loadout; defaults to theirs (loadouts giving
        different ones are refused: give it). The paired interval needs more than one chunk
        of 32,768 trials.
    seed : int, optional
        The one seed of every loadout; defaults to the one the loadouts name (different ones
        are refused: give it), else a seed is drawn (reported in :attr:`Comparison.seed`).
    method : {"monte_carlo", "mc", "exact"}
        ``"exact"`` gives exact figures and exact differences.

    Returns
    -------
    Comparison

    Raises
    ------
    InputError
        Fewer than two loadouts, a label that is not a non-empty string, or bad arguments.

    Examples
    --------
    >>> from mathhammer import Attacker, Scenario, Target, Weapon
    >>> def jack(pow_):
    ...     return Attacker("Jack", [Weapon("Fist", "melee", skill=7, pow=pow_, attacks=2)])
    >>> target = Target(defense=12, arm=18, boxes=10)
    >>> c = compare({"POW 16": Scenario(target, [jack(16)]),
    ...              "POW 12": Scenario(target, [jack(12)])}, method="exact")
    >>> c.best["kill"]["verdict"]
    'POW 16 kills more often than POW 12: +38.6 percentage points (exact)'

    With three loadouts or more, the best is compared with each of the others:

    >>> c = compare({"POW 16": Scenario(target, [jack(16)]),
    ...              "POW 12": Scenario(target, [jack(12)]),
    ...              "POW 14": Scenario(target, [jack(14)])}, method="exact")
    >>> for v in c.best["kill"]["versus"]:
    ...     print(v["verdict"])
    POW 16 kills more often than POW 14: +28.4 percentage points (exact)
    POW 16 kills more often than POW 12: +38.6 percentage points (exact)
    """
    import pandas as pd

    method = check_method(method)
    if isinstance(scenarios, Sequence) and not isinstance(scenarios, (str, bytes)):
        scenarios = {f"loadout {i + 1}": s for i, s in enumerate(scenarios)}
    if isinstance(scenarios, Scenario):
        raise InputError("scenarios", "Scenario", "compare needs at least two loadouts: "
                         "{label: Scenario, ...} or a list of scenarios")
    if isinstance(scenarios, Mapping) and len(scenarios) < 2:
        raise InputError("scenarios", len(scenarios),
                         "compare needs at least two loadouts")
    loadouts = check_loadouts(scenarios, "scenarios")
    trials, seed = run_settings(loadouts.values(), trials, seed, method)
    stride = 0
    if method != "exact":
        stride = common_stride(list(loadouts.values()))
        if seed is None:
            seed = fresh_seed()
    # each loadout's own bar where stderr is a terminal, as a run's (no bar over loadouts)
    results = {label: simulate_point(s, trials, seed, method, stride, progress=None)
               for label, s in loadouts.items()}
    labels = tuple(results)
    parts = []
    for label, res in results.items():
        part = res.summary()[list(SUMMARY_COLUMNS)].copy()
        part.insert(0, "loadout", label)
        parts.append(part)
    long = pd.concat(parts, ignore_index=True)
    long["loadout"] = long["loadout"].astype("str")
    metrics = list(dict.fromkeys(long["metric"]))
    table = pd.DataFrame({"metric": pd.Series(metrics, dtype="str")})
    for label in labels:
        rows = long[long["loadout"] == label].set_index("metric")["value"]
        table[label] = table["metric"].map(rows).astype("float64")
    best = {}
    units = any(r.models > 1 for r in results.values())
    for metric in COMPARED + (("destroyed",) if units else ()):  # a unit: models destroyed too
        value = {"kill": lambda r: r.kill, "damage_mean": lambda r: r.damage_mean,
                 "destroyed": lambda r: r.models_destroyed_mean}[metric]
        order = sorted(labels, key=lambda x: -value(results[x]))  # stable: ties keep order
        top = order[0]
        versus = [_versus(metric, results, top, other, trials) for other in order[1:]]
        runner = versus[0]
        best[metric] = {"metric": metric, "best": top, "runner_up": runner["loadout"],
                        **{k: runner[k] for k in ("difference", "ci95", "clear", "method")},
                        "verdict": "; ".join(v["verdict"] for v in versus), "versus": versus}
    return Comparison(results=results, long=long, table=table, best=best, method=method,
                      trials=trials, seed=seed, stride=stride, labels=labels)

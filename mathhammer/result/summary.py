"""The headline figures of a :class:`~mathhammer.result.Result` as plain rows, without pandas.

:func:`summary_records` is the one place the rows of a summary are worked out:
:func:`mathhammer.result.frames.summary_frame` (``Result.summary()``) lays them out as a
frame, and the studies over many points (a sweep, a balance matrix) keep them as they are.
A point of a matrix needs its figures, not a frame: building a small pandas frame per point
cost more than the simulation itself at small trial counts, so the studies build one frame
for all their points at the end (:func:`mathhammer.studies.points.points_frame`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from .core import Result

__all__ = ["SummaryRow", "summary_records"]

#: One row of a summary: ``(metric, value, ci_low, ci_high)``, the figures as Python floats.
SummaryRow = tuple[str, float, float, float]

_NAN = float("nan")


def _point(result: Result, value: float) -> tuple[float, float]:
    """The interval of a mean with no Monte Carlo interval: a point when exact, else NaN."""
    return (value, value) if result.exact else (_NAN, _NAN)


def _damage_median(result: Result) -> float:
    """Lower median of damage marked: the smallest k with P(damage <= k) >= 1/2."""
    cdf = np.cumsum(result.damage_weights)
    # a hair of slack for the exact engine's rounding (its weights sum to 1.0 +- ulps)
    k = int(np.searchsorted(cdf, 0.5 * result.total * (1.0 - 1e-12), side="left"))
    return float(min(k, cdf.size - 1))


def summary_records(result: Result) -> list[SummaryRow]:
    """Headline figures of ``result``, one ``(metric, value, ci_low, ci_high)`` row per
    metric (the figures as Python floats; the 95% interval, NaN where none applies).

    Rows, in order, where they apply:

    - ``kill`` (Wilson interval; a unit: every model destroyed), ``damage_mean`` (normal
      interval), ``damage_sd`` and ``damage_median`` (the lower median; no interval);
    - several targets: ``all_destroyed`` (the kill), then ``kill:NAME`` and ``destroyed:NAME``
      per target (its destruction, its models destroyed);
    - a unit as the target: ``destroyed`` (expected models destroyed, normal interval) and
      ``destroyed_at_least:K`` for K = 1 .. models (Wilson intervals);
    - ``kill_by_turn:T`` for each round T = 1 .. turns, when there are several rounds
      (Wilson intervals);
    - ``cripple:X`` for each letter X of the target's grid or spiral (Wilson intervals);
    - ``effect_damage:E`` for each continuous effect or hazard E of ``result.effects``
      (expected damage points over all rounds);
    - ``spent:NAME`` per attacker (expected points spent), then ``target_spent`` and
      ``tough_saves`` when above zero (means with no Monte Carlo interval).

    Exact results have no sampling error: probabilities and means get the point interval
    ``ci_low == ci_high == value``; ``damage_sd`` and ``damage_median`` have NaN either way.

    Examples
    --------
    >>> from mathhammer import Attacker, Scenario, Target, Weapon, simulate
    >>> jack = Attacker("Jack", [Weapon("Fist", "melee", skill=7, pow=16, attacks=2)])
    >>> res = simulate(Scenario(Target(defense=12, arm=18, boxes=30), [jack]), method="exact")
    >>> for metric, value, ci_low, ci_high in summary_records(res):
    ...     print(metric, round(value, 3), round(ci_low, 3))
    kill 0.0 0.0
    damage_mean 8.333 8.333
    damage_sd 4.082 nan
    damage_median 8.0 nan
    spent:Jack 0.0 0.0
    """
    rows: list[SummaryRow] = []

    def add(metric: str, value: float, ci: tuple[float, float]) -> None:
        rows.append((metric, float(value), float(ci[0]), float(ci[1])))

    kill, kill_ci, mean, mean_ci, sd = result.headline()
    add("kill", kill, kill_ci)
    add("damage_mean", mean, mean_ci)
    add("damage_sd", sd, (_NAN, _NAN))
    add("damage_median", _damage_median(result), (_NAN, _NAN))
    if result.several:
        add("all_destroyed", kill, kill_ci)
        for name, f in result.targets.items():
            add(f"kill:{name}", f["kill"], f["kill_ci95"])
            add(f"destroyed:{name}", f["models_destroyed_mean"], f["models_destroyed_ci95"])
    if result.models > 1:
        mean, mean_ci, at_least, cis = result.destroyed_summary()
        add("destroyed", mean, mean_ci)
        for k in range(1, len(at_least)):
            add(f"destroyed_at_least:{k}", at_least[k], cis[k])
    if result.turns > 1:
        for r in result.turn_rows:
            add(f"kill_by_turn:{r['turn']}", r["kill"], tuple(r["kill_ci95"]))
    ci = result.cripple_ci95
    for x, p in result.cripple.items():
        add(f"cripple:{x}", p, ci[x])
    for e, figures in result.effects.items():
        m = figures["damage_mean"]
        add(f"effect_damage:{e}", m, _point(result, m))
    for name, m in result.spent_by_attacker.items():
        add(f"spent:{name}", m, _point(result, m))
    for metric, m in (("target_spent", result.target_spent_total),
                      ("tough_saves", result.tough_saves_total)):
        if m > 0:
            add(metric, m, _point(result, m))
    return rows

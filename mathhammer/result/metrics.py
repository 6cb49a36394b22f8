"""The registry of summary metrics: what each figure of :meth:`Result.summary` is.

Every row of a summary frame (and so of a sweep, comparison or matrix frame) names its metric
here, exactly (``kill``) or by a prefix that ends in ``:`` (``cripple:L``, ``spent:Jack``).
Each has a *kind*, which decides how it is shown (a probability in percent, a mean or a
statistic as a number), the *interval* its ``ci_low`` / ``ci_high`` hold, and a label for
axes and tables. Frames, plots, the text output of sweeps and matrices and comparisons all
ask :func:`metric_info` or :func:`is_probability`.

>>> [is_probability(m) for m in ("kill", "cripple:L", "kill_by_turn:2", "damage_mean", "spent:Jack")]
[True, True, True, False, False]
>>> metric_label("cripple:L"), metric_info("cripple:L").kind
('P(L crippled)', 'probability')
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError

__all__ = ["objective_value", "Metric", "METRICS", "metric_info", "metric_label", "is_probability", "KINDS", "INTERVALS",
           "SUMMARY_COLUMNS"]

#: The columns of a summary frame, which every sweep, comparison and matrix frame ends with.
SUMMARY_COLUMNS = ("metric", "value", "ci_low", "ci_high")

#: What a metric's value is: a probability (shown in percent), the mean of a count per trial
#: (damage points, points spent, saves), or a statistic of the damage distribution.
KINDS = ("probability", "mean", "statistic")
#: What its ``ci_low`` / ``ci_high`` hold: a Wilson interval, a normal interval of a mean,
#: a point (``value``) for exact results and NaN for Monte Carlo, or always NaN.
INTERVALS = ("wilson", "normal", "exact only", "none")


@dataclass(frozen=True)
class Metric:
    """One metric (``name``) or family of metrics (a ``name`` ending in ``:``, followed by a
    round, a letter, an effect or an attacker's name)."""

    name: str
    kind: str
    interval: str
    label: str  # with "{}" where the part after the colon goes
    description: str



METRICS: tuple[Metric, ...] = (
    Metric("kill", "probability", "wilson", "P(destroyed)",
           "probability the target ends disabled"),
    Metric("damage_mean", "mean", "normal", "expected damage", "expected damage points marked"),
    Metric("damage_sd", "statistic", "none", "damage sd",
           "standard deviation of the damage points marked"),
    Metric("damage_median", "statistic", "none", "median damage",
           "lower median of the damage points marked"),
    Metric("destroyed", "mean", "normal", "models destroyed",
           "expected models of a unit target destroyed"),
    Metric("destroyed_at_least:", "probability", "wilson", "P({} or more models destroyed)",
           "probability at least K models of a unit target end destroyed"),
    Metric("all_destroyed", "probability", "wilson", "P(all destroyed)",
           "several targets: probability every target ends destroyed (the kill)"),
    Metric("kill:", "probability", "wilson", "P({} destroyed)",
           "several targets: probability target NAME ends destroyed"),
    Metric("destroyed:", "mean", "normal", "models of {} destroyed",
           "several targets: expected models of target NAME destroyed"),
    Metric("kill_by_turn:", "probability", "wilson", "P(destroyed by round {})",
           "probability the target is disabled by the end of round T"),
    Metric("cripple:", "probability", "wilson", "P({} crippled)",
           "probability system or aspect X ends crippled"),
    Metric("effect_damage:", "mean", "exact only", "expected {} damage",
           "expected damage points continuous effect or hazard E marked, all rounds"),
    Metric("spent:", "mean", "exact only", "points spent by {}",
           "expected focus, fury or forcing the attacker spent"),
    Metric("spent", "mean", "exact only", "points spent",
           "expected points the attacker spent (a balance matrix: one attacker a point)"),
    Metric("target_spent", "mean", "exact only", "target points spent",
           "expected focus or fury the target spent (against attacks, fire, corrosion and quicksand)"),
    Metric("tough_saves", "mean", "exact only", "Tough saves",
           "expected successful Tough rolls (from attacks, fire, corrosion and quicksand)"),
    # a trade's (TradeResult.summary_records), from the first side's view: a trade matrix's row card
    Metric("win", "probability", "wilson", "P(wins the trade)",
           "a trade: probability the first side (a trade matrix's row card) destroys the other"),
    Metric("lose", "probability", "wilson", "P(loses the trade)",
           "a trade: probability the other side destroys the first"),
    Metric("both_standing", "probability", "wilson", "P(both standing)",
           "a trade: probability both sides still stand after the last round"),
    Metric("damage_dealt", "mean", "normal", "damage dealt",
           "a trade: expected damage on the other side's models at the end"),
    Metric("damage_taken", "mean", "normal", "damage taken",
           "a trade: expected damage on the first side's models at the end"),
    Metric("models_killed", "mean", "normal", "models killed",
           "a trade: expected models of the other side destroyed"),
    Metric("models_lost", "mean", "normal", "models lost",
           "a trade: expected models of the first side destroyed"),
)

_EXACT = {m.name: m for m in METRICS if not m.name.endswith(":")}
_PREFIX = tuple(m for m in METRICS if m.name.endswith(":"))


def metric_info(metric: str) -> Metric:
    """The registry entry of ``metric``.

    Raises
    ------
    KeyError
        A name no entry has.
    """
    if metric in _EXACT:
        return _EXACT[metric]
    for m in _PREFIX:
        if metric.startswith(m.name) and len(metric) > len(m.name):
            return m
    raise KeyError(metric)


def metric_label(metric: str) -> str:
    """The label of ``metric`` for axes and tables (its name when it is unknown)."""
    try:
        m = metric_info(metric)
    except KeyError:
        return metric
    return m.label.format(metric.split(":", 1)[1]) if m.name.endswith(":") else m.label


def is_probability(metric: str) -> bool:
    """Whether ``metric`` is a probability (drawn on a 0-100 % scale, written in percent);
    an unknown name is not."""
    try:
        return metric_info(metric).kind == "probability"
    except KeyError:
        return False


def objective_value(result, objective: str) -> tuple[float, tuple[float, float]]:
    """The figure an optimizer objective names in ``result`` and its 95% interval: ``kill``,
    ``damage`` (expected damage), ``destroyed`` (expected models destroyed) or
    ``cripple:X``; another name, or a letter the target's card lacks, is refused."""
    if objective == "kill":
        return result.kill, result.kill_ci95
    if objective == "damage":
        return result.damage_mean, result.damage_mean_ci95
    if objective == "destroyed":
        return result.models_destroyed_mean, result.models_destroyed_ci95
    if not isinstance(objective, str) or not objective.startswith("cripple:"):
        raise InputError("objective", objective, "must be one of kill, damage, destroyed, cripple:X")
    letters = result.card.letters if result.card is not None else ()
    letter = objective.split(":", 1)[1]
    if letter not in letters:
        raise InputError("objective", objective, "the target's card has no system or aspect "
                         f"{letter!r} (it has {', '.join(letters) or 'none: a damage track'})")
    return result.cripple[letter], result.cripple_ci95[letter]

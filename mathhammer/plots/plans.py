"""The turn planner's best plans side by side (:func:`mathhammer.play.turn.plan_turn`): the
objective of each, exact (or on a grid's track relaxation), and, where they were run by Monte
Carlo (:func:`mathhammer.studies.plan_checks.check_plans`), its figure on the card with its
95 % interval."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from ..errors import InputError
from ..result.metrics import metric_label
from ..studies.plan_checks import METRIC_OF
from ._common import BAR_COLOR, KILL_COLOR, legend_below, percent_axis

__all__ = ["plans_figure", "PLANS_SHOWN"]

#: Plans drawn when nothing was run by Monte Carlo: the best allocations (each by its best
#: order), then the file's plan and an even allocation.
PLANS_SHOWN = 6


def _rows(plans, checked) -> list[tuple[str, object, object]]:
    """``(label, plan, result or None)`` of each row, top first."""
    if checked is not None:
        return [(label, plan, result) for label, plan, result in checked.checked]
    rows = [(f"plan {k + 1}", p, None) for k, p in enumerate(plans.leading(PLANS_SHOWN, adaptive=True))]
    compared = [("the file's plan", plans.as_written)] + ([("an even allocation", plans.even)] if plans.allocates else [])
    for label, p in compared:
        if all((q.focus, q.order, q.adaptive) != (p.focus, p.order, p.adaptive) for _, q, _ in rows):
            rows.append((label, p, None))
    return rows


def _label(label: str, plan, allocated) -> str:
    """The row's label: what it is, the focus allocated (where any is), the order."""
    focus = ", ".join(f"{n} {f}" for n, f in plan.focus if n in allocated)
    order = f"{plan.order[0]} first, then adaptive" if plan.adaptive else " > ".join(plan.order)
    return f"{label}: {focus}\n{order}" if focus else f"{label}\n{order}"


def plans_figure(plans, checked=None) -> Figure:
    """The best plans side by side, best on top, each row labelled with its allocation and
    order. Left: the objective of each plan, the planner's figure (exact, or on the track
    relaxation of a grid or spiral), and with ``checked`` the Monte Carlo figure on the card
    with its 95 % interval; the best plan in red. Right: what the best plan gains over each
    (with ``checked``: the paired difference and its 95 % interval, common random numbers).

    Parameters
    ----------
    plans : TurnPlans
    checked : PlanCheck, optional
        The plans run by Monte Carlo (their rows are drawn, in its order).
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from ..play.plans import TurnPlans

    if not isinstance(plans, TurnPlans):
        raise InputError("plans", type(plans).__name__, "must be what plan_turn returned")
    rows = _rows(plans, checked)
    objective = plans.scenario.objective
    probability = objective == "kill"
    scale = 100.0 if probability else 1.0
    unit = "%" if probability else ""  # in the value labels
    fig = Figure(figsize=(10.0, 1.6 + 0.62 * len(rows)), layout="constrained")
    ax, gain = fig.subplots(1, 2, sharey=True, width_ratios=(3, 2))
    y = np.arange(len(rows))[::-1]
    planned = np.array([p.value for _, p, _ in rows])
    relaxed = plans.solved_on != "exact"
    colors = [KILL_COLOR if k == 0 else BAR_COLOR for k in range(len(rows))]
    planner = "the planner's figure" + (" (track relaxation)" if relaxed else " (exact)")
    if checked is None:
        shown, lo, hi = planned, planned, planned
        diff = planned[0] - planned
        dlo = dhi = diff
        ax.barh(y, shown, height=0.6, color=colors)
        handles = [Patch(color=BAR_COLOR, label=planner)]
    else:
        figures = np.array([checked.value(r) for _, _, r in rows])
        shown, lo, hi = figures[:, 0], figures[:, 1], figures[:, 2]
        versus = dict(checked.versus)
        diff = np.array([versus[label]["difference"] if label in versus else 0.0 for label, _, _ in rows])
        cis = [(versus.get(label) or {}).get("ci95") or (d, d) for (label, _, _), d in zip(rows, diff)]
        dlo, dhi = np.array([c[0] for c in cis]), np.array([c[1] for c in cis])
        ax.barh(y, shown, height=0.6, color=colors, alpha=0.85,
                xerr=np.vstack([shown - lo, hi - shown]),
                error_kw={"elinewidth": 0.9, "capsize": 3, "ecolor": "0.2"})
        ax.scatter(planned, y, marker="D", s=22, facecolor="white", edgecolor="black", zorder=3)
        handles = [Patch(color=BAR_COLOR, alpha=0.85, label=f"Monte Carlo on the {plans.scenario.target.capacity} "
                         "(95 % interval)"),
                   Line2D([], [], marker="D", linestyle="", markerfacecolor="white", markeredgecolor="black",
                          label=planner)]
    for yy, v, h in zip(y, shown, hi):
        ax.annotate(f"{scale * v:.1f}{unit}" if probability else f"{v:.2f}", (max(h, v), yy),
                    xytext=(5, 0), textcoords="offset points", va="center", fontsize="small")
    ax.set_yticks(y, [_label(label, p, plans.allocated) for label, p, _ in rows], fontsize="small")
    top = float(max(hi.max(), planned.max()))
    ax.set_xlim(0, min(1.0, top * 1.2) if probability else top * 1.2)
    if probability:
        percent_axis(ax.xaxis)
    ax.set_xlabel(metric_label(METRIC_OF[objective]))
    legend_below(ax, handles)

    gain.axvline(0, color="0.5", linewidth=0.8)
    gain.errorbar(diff[1:] * scale, y[1:], xerr=np.vstack([diff[1:] - dlo[1:], dhi[1:] - diff[1:]]) * scale,
                  fmt="o", color="black", markersize=4, capsize=3, elinewidth=0.9)
    for yy, d, h in zip(y[1:], diff[1:], dhi[1:]):
        gain.annotate(f"{scale * d:+.1f}", (scale * h, yy), xytext=(5, 0), textcoords="offset points",
                      va="center", fontsize="small")
    gain.annotate("the best plan", (0, y[0]), xytext=(4, 0), textcoords="offset points", va="center",
                  fontsize="small", color=KILL_COLOR)
    span = float(max(np.abs(dhi).max(), np.abs(dlo).max(), 1e-9)) * scale
    gain.set_xlim(min(-0.1 * span, float(dlo.min()) * scale * 1.15), span * 1.3)
    gain.set_xlabel("the best plan's gain" + (" (points)" if probability else "")
                    + ("\npaired 95 % interval" if checked is not None else ""))
    gain.tick_params(axis="y", left=False)
    sc = plans.scenario
    how = ("exact" if not relaxed else "planned on the track relaxation") if checked is None else (
        f"Monte Carlo, {checked.trials:,} trials, seed {checked.seed}, common random numbers")
    names = ", ".join(a.name for a in sc.attackers)
    fig.suptitle(f"Plan the turn: {names} against {sc.target.name}\n{how}", fontsize="medium")
    return fig

"""Bar labels kept off the "k or more" curve, tidy percent ticks, room between panels and
several kill-vs lines told apart (mathhammer.plots): assertions on the artists as drawn
(Agg), never on pixels."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest

import mathhammer as mh
from mathhammer.plots import main_figure, plot_damage, plot_kill_vs, plot_models_destroyed
from mathhammer.plots._common import PANEL_WSPACE, TidyPercent
from mathhammer.plots._labels import OffLineLabel, bar_label, error_extents

pytestmark = pytest.mark.usefixtures("agg")  # tests/conftest.py

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _drawn(fig):
    """Draw ``fig`` (a bare Figure too, as main_figure makes) with Agg; its renderer."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    fig.canvas.draw()
    return fig.canvas.get_renderer()


def _crosses(label, line, renderer) -> bool:
    path = line.get_transform().transform_path(line.get_path())
    return path.intersects_bbox(label.get_window_extent(renderer), filled=False)


# ---------------------------------------------------------------- one label, each place
def _one_bar(line):
    """A bar of height 0.5 on 0..1, and a line through the points ``line`` (or none)."""
    fig, ax = plt.subplots(figsize=(4, 4))
    ax.bar([0], [0.5], width=0.8, color="tab:blue")
    ax.set_xlim(-1, 1)
    ax.set_ylim(0, 1)
    lines = [] if line is None else ax.plot(*zip(*line), color="black")
    label = bar_label(ax, "50%", 0.0, 0.5, 0.5, lines, fontsize="x-small")
    return fig, ax, label, lines


@pytest.mark.parametrize("line, place", [
    (None, "above"),                      # nothing to avoid
    ([(-1, 0.9), (1, 0.9)], "above"),     # the line far above the bar
    ([(-1, 0.51), (1, 0.51)], "inside"),  # just over the bar's top: the label goes inside
    ([(-0.1, 0.3), (0.1, 0.7)], "raised"),  # steeply through both: raised over the line
])
def test_a_label_takes_the_first_place_clear_of_the_line(line, place):
    fig, ax, label, lines = _one_bar(line)
    renderer = _drawn(fig)
    assert label in ax.texts and label.get_text() == "50%"
    assert label.placed == place
    for line in lines:
        assert not _crosses(label, line, renderer)
    box, bar_top = label.get_window_extent(renderer), ax.transData.transform((0, 0.5))[1]
    if place == "inside":  # under the bar's top, in white on the blue bar
        assert box.y1 <= bar_top and label.get_color() == "white"
    else:  # over it, black on a background of the Axes' colour (a mean line passes under)
        assert box.y0 >= bar_top and label.get_bbox_patch() is not None
        assert label.get_color() == "black"
    plt.close(fig)


def test_a_label_stays_just_above_when_no_place_is_clear():
    fig, ax = plt.subplots(figsize=(4, 4))
    ax.bar([0], [0.5])
    ax.set_ylim(0, 1)
    wall, = ax.plot([-0.05, 0.05], [0.0, 1.0])  # the whole height, under any label
    label = bar_label(ax, "50%", 0.0, 0.5, 0.5, [wall])
    _drawn(fig)
    assert label.placed == "above"
    plt.close(fig)


def test_error_extents_of_every_yerr_form():
    assert [list(a) for a in error_extents(None, 2)] == [[0, 0], [0, 0]]
    assert [list(a) for a in error_extents(0.1, 2)] == [[0.1, 0.1], [0.1, 0.1]]
    assert [list(a) for a in error_extents([[0.1, 0.2], [0.3, 0.4]], 2)] == [[0.1, 0.2], [0.3, 0.4]]


# ---------------------------------------------------------------- the unit and damage plots
UNITS = [(10, 6, True), (10, 10, True), (5, 6, False), (8, 8, True)]


def _volley(models, shooters, tough):
    target = mh.Target(name="Infantry", defense=13, arm=13, boxes=1, models=models,
                       rules={"tough"} if tough else set())
    rifles = mh.Attacker("Riflemen", [mh.Weapon("Rifle", "ranged", skill=5, pow=10)],
                         models=shooters)
    return mh.simulate(mh.Scenario(target, [rifles]), method="exact")


def test_models_destroyed_labels_never_struck_through_by_the_curve():
    """Issue: the "k or more" curve struck through the bars' percentages. Each label is
    clear of it once drawn, and at least one of these figures needed a label moved."""
    moved = []
    for models, shooters, tough in UNITS:
        res = _volley(models, shooters, tough)
        fig, ax = plt.subplots(figsize=(6.4, 4.8), layout="constrained")
        plot_models_destroyed(res, ax=ax)
        renderer = _drawn(fig)
        curve = next(a for a in fig.axes if a.get_label() == "models_destroyed_at_least").get_lines()[0]
        labels = [t for t in ax.texts if isinstance(t, OffLineLabel)]
        pmf = np.asarray(res.models_destroyed_pmf)
        assert [t.get_text() for t in labels] == [f"{100 * p:.0f}%" for p in pmf if p >= 0.005]
        for label in labels:
            assert not _crosses(label, curve, renderer), (models, shooters, label.get_text())
        moved += [label.placed for label in labels if label.placed != "above"]
        plt.close(fig)
    assert moved


def test_a_monte_carlo_label_starts_past_its_error_bar():
    res = mh.simulate(mh.Scenario(mh.Target(13, 13, boxes=1, models=5),
                                  [mh.Attacker("R", [mh.Weapon("Rifle", "ranged", 5, 10)], models=4)]),
                      trials=2_000, seed=3)
    ax = plot_models_destroyed(res, at_least=False)
    pmf = np.asarray(res.models_destroyed_pmf)
    se = np.sqrt(pmf * (1 - pmf) / res.trials)
    tops = [t.xy[1] for t in ax.texts]
    np.testing.assert_allclose(tops, (pmf + 1.959964 * se)[pmf >= 0.005], rtol=1e-4)
    plt.close(ax.figure)


def test_damage_label_is_the_disabled_share_clear_of_the_curve():
    res = mh.simulate(mh.load_scenario(EXAMPLES / "heavy_warjack_focus.toml"), method="exact")
    fig, ax = plt.subplots(layout="constrained")
    plot_damage(res, ax=ax)
    renderer = _drawn(fig)
    (label,) = [t for t in ax.texts if isinstance(t, OffLineLabel)]
    assert label.get_text() == f"{100 * res.damage_pmf[-1]:.1f}%"
    curve = next(a for a in fig.axes if a.get_label() == "damage_at_least").get_lines()[0]
    assert not _crosses(label, curve, renderer)
    plt.close(fig)


# ---------------------------------------------------------------- ticks and panels
@pytest.mark.parametrize("ticks, expected", [
    ([0, 0.05, 0.1, 0.15000000000000002], ["0%", "5%", "10%", "15%"]),
    ([0, 0.025, 0.05], ["0.0%", "2.5%", "5.0%"]),
    ([0.001, 0.002], ["0.1%", "0.2%"]),
])
def test_percent_ticks_have_as_few_decimals_as_they_need(ticks, expected):
    assert TidyPercent(xmax=1.0).format_ticks(ticks) == expected


def test_main_figure_leaves_room_between_a_colorbar_label_and_the_next_panel():
    """Issue: a spiral's colour bar label met the cripple panel's y label. The main figure
    spreads its panels: the two labels are a quarter inch apart at least."""
    res = mh.simulate(mh.load_scenario(EXAMPLES / "cards" / "heavy_warbeast.toml"),
                      trials=2_000, seed=1)
    fig = main_figure(res)
    assert fig.get_layout_engine().get()["wspace"] == PANEL_WSPACE
    renderer = _drawn(fig)
    cbar = next(a for a in fig.axes if a.get_label() == "<colorbar>")
    cripple = next(a for a in fig.axes if a.get_label() == "cripple")
    gap = (cripple.yaxis.label.get_window_extent(renderer).x0
           - cbar.yaxis.label.get_window_extent(renderer).x1)
    assert gap >= 0.25 * fig.dpi


# ---------------------------------------------------------------- lines that coincide
def _coinciding():
    import pandas as pd

    rows = [{"target.arm": arm, "metric": "kill", "value": v, "loadout": name}
            for name in ("A", "B", "C") for arm, v in ((14, 0.6), (15, 0.4), (16, 0.2))]
    return pd.DataFrame(rows)


def test_kill_vs_gives_each_line_its_own_marker_and_dash():
    fig, ax = plt.subplots()
    plot_kill_vs(_coinciding(), "target.arm", ax=ax)
    lines = ax.get_lines()
    assert len({ln.get_marker() for ln in lines}) == 3
    assert len({ln.get_linestyle() for ln in lines}) == 3
    assert all(ln.get_markerfacecolor() == "none" for ln in lines)  # the ones under show
    fig, ax = plt.subplots()
    plot_kill_vs(_coinciding(), "target.arm", ax=ax, marker="s")  # the caller's, for all
    assert {ln.get_marker() for ln in ax.get_lines()} == {"s"}
    assert {ln.get_linestyle() for ln in ax.get_lines()} == {"-"}
    fig, ax = plt.subplots()
    plot_kill_vs(_coinciding().query("loadout == 'A'"), "target.arm", ax=ax)  # one line
    assert ax.get_lines()[0].get_marker() == "o"


def test_a_twin_or_a_colorbar_spreads_the_callers_panels_never_narrows_them():
    """Issue: a twin axis's label crowded the next panel's, in figures the caller made too
    (the notebooks' ``plt.subplots(1, 2, layout="constrained")``)."""
    res = _volley(5, 6, False)
    fig, (left, right) = plt.subplots(1, 2, layout="constrained")
    plot_models_destroyed(res, ax=left)
    assert fig.get_layout_engine().get()["wspace"] == PANEL_WSPACE
    wide = plt.figure(layout="constrained")
    wide.get_layout_engine().set(wspace=0.2)  # the caller's wider choice is kept
    plot_models_destroyed(res, ax=wide.subplots(1, 2)[0])
    assert wide.get_layout_engine().get()["wspace"] == 0.2
    plain = plt.figure()  # no constrained layout: left alone
    plot_models_destroyed(res, ax=plain.subplots())
    assert plain.get_layout_engine() is None


def test_a_label_wider_than_the_last_bar_stays_inside_the_axes():
    """The disabled share over the last, narrow bar of a damage panel ran over the twin's
    spine: it is moved in from the side."""
    fig, ax = plt.subplots(figsize=(3, 3))
    ax.bar(np.arange(30), np.full(30, 0.5), width=0.8)
    ax.set_xlim(-0.6, 29.6)
    ax.set_ylim(0, 1)
    label = bar_label(ax, "84.2% of trials", 29.0, 0.5, 0.5, [])
    renderer = _drawn(fig)
    box = label.get_window_extent(renderer)
    assert box.x1 < ax.bbox.x1 and box.x0 > ax.bbox.x0
    assert label.xyann[0] < 0  # moved left, off the right side
    plt.close(fig)

"""The card "if still standing" (issue 18, figures): a destroyed target has every box
marked and every system crippled, so over the trials the target stands P(marked) is
(p - kill) / (1 - kill); the main figure shows that map and the cripple bars in pairs."""

from __future__ import annotations

import dataclasses

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.container import BarContainer
from matplotlib.patches import Rectangle

import mathhammer as mh
from mathhammer.cards import scenario_from_cards
from mathhammer.plots import main_figure, plot_card, plot_cripple
from mathhammer.plots.card import STANDING_COLOR, can_condition

pytestmark = pytest.mark.usefixtures("agg")  # tests/conftest.py


def _fixed(scen: mh.Scenario) -> mh.Scenario:
    """Fixed policies (best play on a heavy grid takes the exact engine seconds; these
    tests are about what is drawn)."""
    fixed = tuple(dataclasses.replace(a, policy="fixed") for a in scen.attackers)
    return dataclasses.replace(scen, attackers=fixed,
                               target=dataclasses.replace(scen.target, power_field="lethal"))


def _two_jacks(method: str) -> mh.Result:
    scen = _fixed(scenario_from_cards(["heavy_warjack", "heavy_warjack"], "heavy_warjack"))
    mc = {} if method == "exact" else {"trials": 40_000, "seed": 3}  # the exact method takes neither
    return mh.simulate(scen, method=method, **mc)


@pytest.fixture(scope="module", params=["monte_carlo", "exact"])
def result(request):
    return _two_jacks(request.param)


def test_a_kill_marks_every_box_and_cripples_every_system(result):
    """The rule the conditional view rests on (docs/rules.md: a destroyed warjack's grid is
    full): no box is marked, no system crippled, less often than the target dies."""
    assert 0.05 < result.kill < 0.95
    assert min(p for col in result.box_marked for p in col) >= result.kill - 1e-12
    assert min(result.cripple.values()) >= result.kill - 1e-12


def test_card_standing_shades_each_box_by_its_odds_on_a_survivor(result):
    fig, ax = plt.subplots()
    plot_card(result, ax=ax, standing=True)
    rects = [p for p in ax.patches if isinstance(p, Rectangle) and p.get_gid()]
    kill = result.kill
    expected = [(p - kill) / (1 - kill) for col in result.box_marked for p in col]
    written = [t.get_text() for t in ax.texts if t.get_text().endswith("%")]
    assert written == [f"{100 * v:.0f}%" for v in expected]
    assert len(rects) == len(expected)
    assert "still standing" in ax.get_title()
    plt.close(fig)


def test_cripple_both_puts_every_trial_beside_the_survivors(result):
    fig, ax = plt.subplots()
    plot_cripple(result, ax=ax, standing="both")
    every, standing = [c for c in ax.containers if isinstance(c, BarContainer)]
    letters = list(result.card.letters)
    np.testing.assert_allclose([b.get_height() for b in every],
                               [result.cripple[x] for x in letters])
    kill = result.kill
    np.testing.assert_allclose([b.get_height() for b in standing],
                               [(result.cripple[x] - kill) / (1 - kill) for x in letters])
    assert standing.patches[0].get_facecolor()[:3] == pytest.approx(
        plt.matplotlib.colors.to_rgb(STANDING_COLOR))
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["every trial",
                                                                   "if still standing"]
    plt.close(fig)


def test_main_figure_uses_the_survivor_view_where_the_target_may_die(result):
    fig = main_figure(result)
    (card,) = [a for a in fig.axes if a.get_label() == "card"]
    (cripple,) = [a for a in fig.axes if a.get_label() == "cripple"]
    assert "still standing" in card.get_title()
    assert len([c for c in cripple.containers if isinstance(c, BarContainer)]) == 2


def test_standing_is_refused_where_nothing_can_be_conditioned():
    scen = scenario_from_cards(["light_warjack"], "heavy_warjack")  # cannot destroy it
    res = mh.simulate(_fixed(scen), method="exact")
    assert res.kill == 0.0 and not can_condition(res)
    for draw in (plot_card, plot_cripple):
        with pytest.raises(ValueError, match=r"standing=True needs .*kill 0\)$"):
            draw(res, standing=True)
    with pytest.raises(ValueError, match="standing must be"):
        plot_cripple(res, standing="sometimes")
    # and the main figure keeps the plain view
    (card,) = [a for a in main_figure(res).axes if a.get_label() == "card"]
    assert "still standing" not in card.get_title()

"""The trade figure (mathhammer.plots.trade_figure): what it draws is the result's figures."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure

import mathhammer as mh
from mathhammer.errors import InputError
from mathhammer.plots import trade_figure

pytestmark = pytest.mark.usefixtures("agg")


@pytest.fixture(scope="module")
def duel():
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "trades" / "heavy_duel.toml"
    return mh.simulate_trade(mh.load_trade(path), trials=5_000, seed=9)


def test_the_survival_lines_are_each_side_standing_after_every_turn(duel):
    fig = trade_figure(duel, fig=Figure())
    left, right = fig.axes
    lines = [line for line in left.get_lines() if line.get_label() in duel.sides]
    assert [line.get_label() for line in lines] == ["Red", "Blue"]
    for s, line in enumerate(lines):
        np.testing.assert_allclose(line.get_ydata(), 1 - duel.figures.destroyed[:, s])
    assert len(left.collections) == 2  # a 95 % band for each side (Monte Carlo)
    assert fig.get_suptitle() == duel.headline


def test_the_bars_are_the_crippling_on_models_still_standing_after_round_one(duel):
    right = trade_figure(duel, fig=Figure()).axes[1]
    f = duel.figures
    widths = [bar.get_width() for bar in right.patches]
    labels = [t.get_text() for t in right.get_yticklabels()]
    expected = {f"{m}: {letter}": p[1] - f.model_destroyed[1, duel.models.index(m)]
                for (m, letter), p in f.crippled.items()}
    assert sorted(labels) == sorted(expected)
    for label, width in zip(labels, widths):
        assert width == pytest.approx(expected[label])


def test_an_exact_trade_has_no_band_and_tracks_without_letters_show_the_damage():
    fist = mh.Weapon("Fist", "melee", 6, 12)
    a = mh.TradeModel(mh.Attacker("A", [fist], spend=mh.Spend()), mh.Target(12, 15, boxes=3), ["B"])
    b = mh.TradeModel(mh.Attacker("B", [fist], spend=mh.Spend()), mh.Target(12, 15, boxes=3), ["A"])
    res = mh.simulate_trade(mh.Trade([mh.Side("Red", [a]), mh.Side("Blue", [b])], rounds=2), method="exact")
    left, right = trade_figure(res, fig=Figure()).axes
    assert not left.collections
    lines = right.get_lines()
    assert [line.get_label() for line in lines] == ["A", "B"]
    for x, line in enumerate(lines):
        np.testing.assert_allclose(line.get_ydata(), res.figures.damage[:, x] / 3)


def test_units_show_their_models_standing_after_every_turn():
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "trades" / "unit_clash.toml"
    res = mh.simulate_trade(mh.load_trade(path), trials=3_000, seed=2)
    right = trade_figure(res, fig=Figure()).axes[1]
    lines = right.get_lines()
    assert [line.get_label() for line in lines] == ["Rifle unit (10)", "Heavy unit (5)"]
    for x, (line, size) in enumerate(zip(lines, (10, 5))):
        np.testing.assert_allclose(line.get_ydata(), size - res.figures.lost[:, x])


def test_only_a_trade_result_is_drawn():
    with pytest.raises(InputError, match="trade_figure: draws a TradeResult"):
        trade_figure("not a result")

"""What a point of each stat is worth (mathhammer.studies.stat_worth): Monte Carlo with common
random numbers against the exact trade engine, the stats raised as documented, the command
and the figure."""

from __future__ import annotations

import json

import pytest
from matplotlib.figure import Figure

from mathhammer._core.intervals import t975
from mathhammer.cli import main
from mathhammer.errors import InputError
from mathhammer.plots import plot_stat_worth
from mathhammer.rules import Attacker, Target, Weapon
from mathhammer.rules.trade import TradeModel
from mathhammer.studies.stat_worth import CHUNKS, raise_stat, stat_worth

OPPONENTS = ["infantry", "heavy_infantry"]


@pytest.fixture(scope="module")
def exact():
    return stat_worth("solo", OPPONENTS, rounds=2, method="exact")


def test_monte_carlo_deltas_agree_with_exact_within_5_standard_errors(exact):
    """Every stat, each opponent and their mean: the paired interval's standard error (its
    half-width over Student's t) bounds the distance to the exact change."""
    mc = stat_worth("solo", OPPONENTS, rounds=2, trials=200_000, seed=5)
    assert list(mc["stat"].unique()) == list(exact["stat"].unique()) == ["MAT", "POW", "DEF", "ARM", "boxes"]
    for (_, e), (_, m) in zip(exact.iterrows(), mc.iterrows()):
        assert (e.stat, e.opponent) == (m.stat, m.opponent)
        se = (m.ci_high - m.ci_low) / 2 / t975(CHUNKS - 1)
        assert abs(m.delta - e.delta) <= 5 * se + 1e-9, (e.stat, e.opponent, m.delta, e.delta, se)
        assert m.base == pytest.approx(e.base, abs=0.01)
    assert exact.attrs["not_applicable"] == ["RAT", "focus"]


def test_more_armour_never_loses_a_trade_it_won(exact):
    """Exact: +1 ARM, DEF or boxes can only help the solo here (nothing it does depends on
    being hit), so each change is at least zero; and its own exact rows are points."""
    defensive = exact[exact["stat"].isin(["ARM", "DEF", "boxes"])]
    assert (defensive["delta"] >= -1e-12).all()
    assert (exact["ci_low"] == exact["delta"]).all() and (exact["ci_high"] == exact["delta"]).all()


def test_each_stat_raises_what_it_says():
    gun = Weapon("Gun", "ranged", 5, 10)
    m = TradeModel(Attacker("M", [gun], focus=2, model="warjack"), Target(12, 14, boxes=9), ["X"])
    assert raise_stat(m, "RAT").attacker.weapons[0].skill == 6
    assert raise_stat(m, "MAT") is None  # no melee weapon
    assert raise_stat(m, "POW").attacker.weapons[0].pow == 11
    assert raise_stat(m, "focus").attacker.focus == 3
    assert (raise_stat(m, "DEF").target.defense, raise_stat(m, "ARM").target.arm) == (13, 15)
    assert raise_stat(m, "boxes").target.boxes == 10
    with pytest.raises(InputError, match="stat"):
        raise_stat(m, "STR")


def test_the_command_and_the_figure(capsys, tmp_path):
    argv = ["worth", "solo", "--against", "infantry", "--rounds", "2", "--method", "exact"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("What +1 of each stat is worth to solo") and "+1 POW" in out
    assert main(argv + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["card"] == "solo" and {r["stat"] for r in data["rows"]} == {"MAT", "POW", "DEF", "ARM", "boxes"}
    assert main(["worth", "solo", "--against", "infantry", "--stats", "MAT,STR"]) == 2
    assert "stats" in capsys.readouterr().err
    frame = stat_worth("solo", ["infantry"], rounds=2, method="exact")
    ax = plot_stat_worth(frame, ax=Figure().subplots())
    widths = [bar.get_width() for bar in ax.patches]
    assert widths == pytest.approx(frame[frame.opponent == "all"]["delta"].tolist())

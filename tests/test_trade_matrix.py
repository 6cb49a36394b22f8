"""The trade matrix (mathhammer.studies.trade_matrices): every card trading with every card,
on the local backend and on Dask, resumed from its file, drawn, and from the command line."""

from __future__ import annotations

import json
import logging

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from mathhammer.cli import main
from mathhammer.errors import InputError
from mathhammer.plots import plot_trade_matrix
from mathhammer.studies.decks import deck
from mathhammer.studies.matrices import pivot_matrix
from mathhammer.studies.pairs import point_seed
from mathhammer.studies.trade_matrices import trade_matrix, trade_pair
from mathhammer.trade import simulate_trade

CARDS = ["heavy_warjack", "light_warjack", "heavy_infantry_unit"]


def run(**kw):
    kw.setdefault("trials", 5_000)
    kw.setdefault("seed", 4)
    kw.setdefault("progress", False)
    return trade_matrix(CARDS, CARDS, **kw)


@pytest.fixture(scope="module")
def both():
    return run(first="both")


def test_every_pairing_both_ways_with_its_own_stream(both):
    assert both.attrs["points"] == 18 and both.attrs["rounds"] == 3
    assert list(both.columns[:3]) == ["attacker", "target", "first"]
    wins = pivot_matrix(both, "win", first="row")
    assert list(wins.index) == CARDS and list(wins.columns) == CARDS
    # each point is the trade of trade_pair run with the point's own seed
    rows, _ = deck(CARDS, "attackers", None, False)
    pair = trade_pair(rows[0], rows[2], "column", 3)
    alone = simulate_trade(pair, 5_000, point_seed(4, ("heavy_warjack", "heavy_infantry_unit", "column")))
    point = both[(both.attacker == "heavy_warjack") & (both.target == "heavy_infantry_unit")
                 & (both["first"] == "column")].set_index("metric")
    assert point.loc["win", "value"] == alone.wins["row"]
    assert point.loc["models_killed", "value"] == pytest.approx(alone.figures.lost[-1, 1])
    for (a, t, f), p in both.groupby(["attacker", "target", "first"]):
        v = p.set_index("metric")["value"]
        assert v["win"] + v["lose"] + v["both_standing"] == pytest.approx(1.0)


def test_going_first_is_worth_something_between_equals(both):
    row = pivot_matrix(both, "win", first="row").loc["heavy_warjack", "heavy_warjack"]
    column = pivot_matrix(both, "win", first="column").loc["heavy_warjack", "heavy_warjack"]
    assert row > 0.6 > 0.3 > column


def test_a_matrix_file_is_written_point_by_point_and_resumed(tmp_path):
    out = tmp_path / "trades.csv"
    first = run(out=out)
    again = run(out=out, resume=True)
    assert again.attrs["computed"] == 0
    pd.testing.assert_frame_equal(first, again)
    pd.testing.assert_frame_equal(pd.read_csv(out), first, check_dtype=False)
    with pytest.raises(InputError, match="out"):
        run(out=out)


def test_a_card_a_trade_does_not_model_is_named_before_anything_runs():
    with pytest.raises(InputError, match=r"trade matrix warcaster vs heavy_warjack: "
                       r"sides\[0\]\.models\[0\]\.target\.focus"):
        trade_matrix(["warcaster"], ["heavy_warjack"], trials=100, seed=1, progress=False)


def test_the_heatmap_is_the_pivot(both):
    ax = plot_trade_matrix(both, "win", first="column", ax=Figure().subplots())
    image = ax.get_images()[0].get_array()
    np.testing.assert_allclose(np.asarray(image), pivot_matrix(both, "win", first="column").to_numpy())
    assert "column card's side first" in ax.get_title()


def test_the_command_prints_the_table_and_json(capsys):
    argv = ["trade-matrix", "--rows", ",".join(CARDS[:2]), "--columns", CARDS[2], "--trials", "3000",
            "--seed", "2"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("win: row card trading with column card, 3 rounds")
    assert "row card \\ column card" in out
    assert main(argv + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["points"] == 2 and {r["metric"] for r in data["rows"]} >= {"win", "lose", "models_killed"}
    assert main(["trade-matrix", "--rows", "nosuchcard", "--columns", "solo"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


distributed = pytest.importorskip("distributed")


def test_a_local_dask_cluster_gives_the_local_figures(both):
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=logging.ERROR) as c, \
            distributed.Client(c) as client:
        frame = run(first="both", scheduler=client)
    pd.testing.assert_frame_equal(frame, both)
    assert frame.attrs["backend"] == "dask" and sum(frame.attrs["processes"].values()) == 18

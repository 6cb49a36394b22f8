"""A summary's rows without its frame (mathhammer.result.summary, issue 20): the studies keep
each point's rows as plain rows and build one frame of every point at the end.

The rows must be those of ``Result.summary()`` to the bit (the frame the studies built per
point before), and a matrix's frame the per-point summary frames put end to end.
"""

from __future__ import annotations

import math

import pandas as pd
import pytest

from mathhammer import simulate
from mathhammer.cards import scenario_from_cards
from mathhammer.result.metrics import SUMMARY_COLUMNS
from mathhammer.result.summary import summary_records
from mathhammer.rules import Attacker, Scenario, Target, Weapon
from mathhammer.studies.matrices import matrix, point_seed
from mathhammer.studies.points import summary_rows


def several_targets() -> Scenario:
    gun = Weapon("Rifle", "ranged", 6, 12, attacks=3)
    return Scenario([Target(name="Squad", defense=12, arm=12, boxes=1, models=3),
                     Target(name="Solo", defense=13, arm=14, boxes=4)],
                    [Attacker("Gunner", [gun])])


CASES = {
    "track": lambda: scenario_from_cards(["heavy_warjack"], "solo"),
    "grid": lambda: scenario_from_cards(["heavy_warjack"], "light_warjack"),
    "spiral": lambda: scenario_from_cards(["light_warbeast"], "heavy_warbeast"),
    "colossal": lambda: scenario_from_cards(["heavy_warjack"], "colossal"),
    "unit": lambda: scenario_from_cards(["infantry"], "infantry_unit"),
    "two rounds": lambda: scenario_from_cards(["warcaster"], "heavy_warjack", turns=2),
    "several targets": several_targets,
}


def frame_rows(frame: pd.DataFrame, key: tuple = ()) -> list[list]:
    """The rows as the studies read them off each point's frame before issue 20."""
    return [list(key) + [m, float(v), float(lo), float(hi)]
            for m, v, lo, hi in frame[list(SUMMARY_COLUMNS)].itertuples(index=False)]


def same(a, b) -> bool:
    """Equal to the bit, NaN equal to NaN, and of the same types."""
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return type(a) is type(b) and a == b


@pytest.fixture(scope="module", params=sorted(CASES))
def result(request):
    scen = CASES[request.param]()
    if request.param == "several targets":
        return simulate(scen, trials=4_000, seed=3)
    return simulate(scen, trials=4_000, seed=3, explain=False)


def test_records_are_the_summary_frames_rows(result):
    records = summary_records(result)
    assert records and all(len(r) == 4 for r in records)
    want = frame_rows(result.summary())
    assert len(records) == len(want)
    for got, row in zip(records, want):
        assert isinstance(got[0], str) and all(type(x) is float for x in got[1:])
        assert all(same(x, y) for x, y in zip(got, row)), (got, row)


def test_summary_rows_are_the_old_rows_with_their_key(result):
    key = ("attacker", "target", 3)
    got = summary_rows(result, key)
    want = frame_rows(result.summary(), key)
    assert len(got) == len(want)
    for a, b in zip(got, want):
        assert len(a) == len(b) and all(same(x, y) for x, y in zip(a, b)), (a, b)


def test_headline_is_the_properties_to_the_bit(result):
    """``Result.headline()`` works each figure out once for the summary: the same numbers as
    the properties a user reads one by one (kill, its Wilson interval, the damage mean, its
    normal interval, the standard deviation)."""
    kill, kill_ci, mean, mean_ci, sd = result.headline()
    pairs = [(kill, result.kill), (mean, result.damage_mean), (sd, result.damage_sd),
             *zip(kill_ci, result.kill_ci95), *zip(mean_ci, result.damage_mean_ci95)]
    assert all(same(float(a), float(b)) for a, b in pairs), pairs
    rows = {m: (v, lo, hi) for m, v, lo, hi in summary_records(result)}
    assert rows["kill"] == (result.kill, *result.kill_ci95)
    assert rows["damage_mean"] == (result.damage_mean, *result.damage_mean_ci95)
    assert 0.0 <= kill_ci[0] <= kill <= kill_ci[1] <= 1.0 and mean_ci[0] <= mean <= mean_ci[1]


def test_exact_results_keep_their_point_intervals():
    res = simulate(scenario_from_cards(["solo"], "infantry"), method="exact")
    want = frame_rows(res.summary())
    got = summary_records(res)
    assert all(same(x, y) for a, b in zip(got, want) for x, y in zip(a, b))


def test_a_matrix_frame_is_its_points_summary_frames_end_to_end():
    """One frame built for every point equals the per-point frames concatenated (tracks,
    grids, spirals, a unit), exactly."""
    attackers, targets = ["heavy_warjack", "solo"], ["solo", "light_warjack", "heavy_warbeast",
                                                     "infantry_unit"]
    frame = matrix(attackers, targets, trials=3_000, seed=5, progress=False)
    parts = []
    for a in attackers:
        for t in targets:
            s = simulate(scenario_from_cards([a], t), trials=3_000, seed=point_seed(5, (a, t)),
                         explain=False).summary()
            s["metric"] = [("spent" if m.startswith("spent:") else m) for m in s["metric"]]
            s.insert(0, "target", t)
            s.insert(0, "attacker", a)
            parts.append(s)
    want = pd.concat(parts, ignore_index=True)
    frame.attrs = {}
    pd.testing.assert_frame_equal(frame, want, check_exact=True)

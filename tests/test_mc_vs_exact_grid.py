"""Monte Carlo kernel against the exact engine on damage grids and life spirals.

``tests/grid_cases.py`` holds the cases (marking and overflow, damage to a system, crippling
feedback on the target, crippled attackers, healing on a card, spirals). Every figure — kill,
damage distribution, per attack made / hit / critical / damage / resources, every system or
aspect crippled after every attack, every box marked at the end — must lie within 5 standard
errors of the exact value at a fixed seed (binomial tails for rare events; see
``test_mc_vs_exact``).
"""

from __future__ import annotations

import pytest

from grid_cases import CASES
from mathhammer import simulate
from test_mc_vs_exact import N, SEED, compare


@pytest.mark.parametrize("index", range(len(CASES)), ids=[name for name, _ in CASES])
def test_monte_carlo_matches_exact_on_grids(index):
    name, scen = CASES[index]
    ex = simulate(scen, method="exact")
    mc = simulate(scen, trials=N, seed=SEED + 104729 * index)
    bad = compare(mc, ex, N)
    assert not bad, f"{name}: {len(bad)} figure(s) disagree:\n  " + "\n  ".join(bad)


def test_enough_grid_cases():
    """The issue asks for at least 15 grid and spiral cases."""
    assert len(CASES) >= 15
    kinds = {s.target.capacity for _, s in CASES}
    assert kinds == {"grid", "spiral"}

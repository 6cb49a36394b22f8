"""Monte Carlo kernel against the exact engine over several rounds with continuous effects
and hazards (docs/activation.md, "Continuous effects, hazards and several turns").

``tests/turns_cases.py`` holds the cases (fire alone, corrosion alone, both, a resistant
target, critical-only fire, 1 to 5 rounds, attacks in every round or the first only, acid
bath, burning earth, quicksand, a power field and Tough against continuous damage). Every
figure — kill by the end of each round, per round and effect how often it was present,
applied, killed and stayed on, its damage points, and everything of a single round — must
lie within 5 standard errors of the exact Markov chain at a fixed seed.
"""

from __future__ import annotations

import pytest

from mathhammer import simulate
from test_mc_vs_exact import N, SEED, compare
from turns_cases import CASES


@pytest.mark.parametrize("index", range(len(CASES)), ids=[name for name, _ in CASES])
def test_monte_carlo_matches_exact_over_rounds(index):
    name, scen = CASES[index]
    ex = simulate(scen, method="exact")
    mc = simulate(scen, trials=N, seed=SEED + 7727 * index)
    bad = compare(mc, ex, N)
    assert not bad, f"{name}: {len(bad)} figure(s) disagree:\n  " + "\n  ".join(bad)


def test_enough_round_cases():
    """The issue asks for at least 10 cases, over 1 to 5 rounds."""
    assert len(CASES) >= 10
    assert {1, 5} <= {s.turns for _, s in CASES}

"""Monte Carlo kernel against the exact engine on every activation case (docs/activation.md).

``tests/activation_cases.py`` holds the cases: every spending policy, attack rule, target
defence and terrain feature of issue 3 on a damage track. Each runs 200,000 trials at a fixed
seed and every figure — kill, the damage distribution, per attack made / hit / critical /
kill / mean damage, paid boosts, points spent, target points spent, Tough saves — must lie
within 5 standard errors of the exact value (binomial tails for rare events; see
``test_mc_vs_exact``).
"""

from __future__ import annotations

import pytest

from activation_cases import CASES
from mathhammer import simulate
from test_mc_vs_exact import N, SEED, compare

NAMES = [name for name, _ in CASES]


@pytest.mark.parametrize("index", range(len(CASES)), ids=NAMES)
def test_monte_carlo_matches_exact_activation(index):
    name, scen = CASES[index]
    ex = simulate(scen, method="exact")
    mc = simulate(scen, trials=N, seed=SEED + 7919 * index)
    bad = compare(mc, ex, N)
    assert not bad, f"{name}: {len(bad)} figure(s) disagree:\n  " + "\n  ".join(bad)


def test_enough_activation_cases():
    """The issue asks for at least 30 Monte Carlo vs exact cases with focus and defences."""
    assert len(CASES) >= 30
    assert sum(any(a.points for a in s.attackers) for _, s in CASES) >= 15

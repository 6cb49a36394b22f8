"""Best play on the bundled cards, the first half of the attackers (tests/card_pairings.py says
what is checked): Monte Carlo against exact on every pairing the exact engine solves, and best
play against every fixed policy of the family."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from card_pairings import CARDS, SOLVED, check_attacker


@pytest.mark.parametrize("attacker", CARDS[:6])
def test_monte_carlo_best_play_agrees_with_exact_on_every_bundled_pairing(attacker):
    check_attacker(attacker)


def test_the_pairings_cover_the_cards():
    """Every card attacks and is attacked in some solved pairing (a colossal's two grids are
    beyond the exact engine)."""
    assert {a for a, _ in SOLVED} == set(CARDS)
    assert {t for _, t in SOLVED} == set(CARDS) - {"colossal"}
    assert len(SOLVED) == 132


# ------------------------------------------------------------ best play against fixed policies
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
family = pytest.importorskip("bench_best_vs_family")


@pytest.mark.parametrize("target", ["warcaster", "heavy_infantry_unit", "solo"])
def test_best_play_is_never_below_a_fixed_policy_on_kill_then_damage(target):
    """docs/best-play.md, "Objectives": against every fixed policy of the family, exact best
    play's kill is never lower, and where the kills are equal its models destroyed (a unit),
    then its expected damage, are at least the fixed policy's (benchmarks/bench_best_vs_family.py
    runs every pairing; here every attacker card with points against a focus target, a unit and
    a solo)."""
    ties = 0
    for name, scen in family.pairings((target,)):
        res = family.check_pairing(scen, "exact")
        assert res["lower_kill"] == [] and res["less_damage"] == [], name
        ties += res["ties"]
    if target == "warcaster":
        assert ties > 0  # the light cards cannot kill it: the damage decides

"""The two checks every rule of issue 17 makes: the exact engine against the brute-force
oracle (tests/naive.py, every die enumerated face by face), and Monte Carlo against the exact
engine within 5 standard errors at a fixed seed."""

from __future__ import annotations

import math

import pytest

from mathhammer import simulate
from naive import BF_COLUMNS, BF_FIELDS, bf_activation


def exact_matches_oracle(scen, per_attack=("hit", "crit"), damage=False):
    """The exact engine's kill probability, per-attack rates ``per_attack`` and (``damage``)
    its damage distribution equal the oracle's to 1e-12."""
    want = bf_activation(scen)
    ex = simulate(scen, method="exact")
    assert ex.kill == pytest.approx(float(want["kill"]), abs=1e-12)
    for key in per_attack:
        assert list(getattr(ex, key)) == pytest.approx([float(x) for x in want[key]], abs=1e-12), key
    if damage:
        assert list(ex.damage_pmf) == pytest.approx([float(p) for p in want["damage"]], abs=1e-12)


def every_figure_matches_oracle(scen):
    """The exact engine's kill, damage distribution and every per-attack figure of the
    oracle (made, hits, critical hits, damage, boosts, points spent by both sides, Tough
    saves, Shred attacks) equal the oracle's to 1e-12."""
    want = bf_activation(scen)
    ex = simulate(scen, method="exact")
    assert ex.kill == pytest.approx(float(want["kill"]), abs=1e-12)
    assert list(ex.damage_pmf) == pytest.approx([float(p) for p in want["damage"]], abs=1e-12)
    for col, field in zip(BF_COLUMNS, BF_FIELDS):
        assert list(ex.slot_weights[:, col]) == pytest.approx([float(x) for x in want[field]], abs=1e-12), field


def monte_carlo_agrees(scen, seed, n=200_000, per_attack=()):
    """Monte Carlo's kill probability, mean damage and per-attack rates ``per_attack`` lie
    within 5 standard errors of the exact engine's."""
    ex = simulate(scen, method="exact")
    mc = simulate(scen, method="monte_carlo", trials=n, seed=seed)
    assert abs(mc.kill - ex.kill) <= 5 * math.sqrt(ex.kill * (1 - ex.kill) / n) + 1e-9
    assert abs(mc.damage_mean - ex.damage_mean) <= 5 * ex.damage_sd / math.sqrt(n) + 1e-9
    for key in per_attack:
        for p_mc, p_ex in zip(getattr(mc, key), getattr(ex, key)):
            assert abs(p_mc - p_ex) <= 5 * math.sqrt(p_ex * (1 - p_ex) / n) + 1e-9, key


def small_file(settings: str = "", target: str = "", weapon: str = "", kind: str = "melee") -> str:
    """A scenario file of one DEF 12 ARM 14 target and one attacker with one POW 12 weapon,
    with the lines given added to ``[settings]``, ``[target]`` and the weapon."""
    head = f"[settings]\n{settings}\n" if settings else ""
    return (f'{head}[target]\ndef = 12\narm = 14\n{target}\n[[attackers]]\nname = "A"\n'
            f'[[attackers.weapons]]\nname = "W"\ntype = "{kind}"\nskill = 6\npow = 12\n{weapon}\n')

"""Best play's comparison of options (mathhammer/exact/chain.py ``Preference``): figure by
figure, the first that differs by more than float noise decides; an option not offered (NaN)
is never chosen; on a tie the first listed. Checked against a comparison written one group
and one figure at a time."""

from __future__ import annotations

import numpy as np
import pytest

from mathhammer.exact.chain import Chain


def _prefers(pref, a: np.ndarray, b: np.ndarray) -> bool:
    """Whether ``pref`` strictly prefers value ``a`` to ``b`` (one group's columns)."""
    if np.isnan(a[0]):
        return False
    if np.isnan(b[0]):
        return True
    for col, sign, tol in zip(pref.columns, pref.sign, pref.tol):
        d = sign * (a[col] - b[col])
        if abs(d) > tol:
            return d > 0
    return False


def _brute(pref, values: np.ndarray) -> list[int]:
    out = []
    for g in range(values.shape[2]):
        best = 0
        for j in range(1, values.shape[1]):
            if _prefers(pref, values[:, j, g], values[:, best, g]):
                best = j
        out.append(best)
    return out


@pytest.mark.parametrize("seed", range(40))
def test_choose_equals_a_comparison_one_group_at_a_time(seed):
    rng = np.random.default_rng(seed)
    chain = Chain.of(["kill", "damage", "destroyed"][seed % 3], models=1 + seed % 2, boxes=10, points=3)
    width, options, n = chain.width, int(rng.integers(2, 5)), 60
    # few distinct values, so that figures tie often; some within float noise of each other
    values = rng.integers(0, 3, (width, options, n)) / 2.0
    values += (rng.random((width, options, n)) < 0.2) * 1e-15
    values[:, rng.random((options, n)) < 0.15] = np.nan  # options not offered there
    for pref in (chain.attackers(), chain.attackers(True), chain.target):
        expected = _brute(pref, values)
        assert pref.choose_stacked(values).tolist() == expected
        assert pref.choose([values[:, j] for j in range(options)]).tolist() == expected
        better = [_prefers(pref, values[:, 1, g], values[:, 0, g]) for g in range(n)]
        assert pref.better(values[:, 1], values[:, 0]).tolist() == better


@pytest.mark.parametrize("seed", range(40))
def test_choose_with_the_first_option_offered_everywhere(seed):
    """Where the first option is offered in every group, the options' values are compared as
    they are (the caller may say so): the same choice as one group at a time."""
    rng = np.random.default_rng(100 + seed)
    chain = Chain.of(["kill", "damage", "destroyed"][seed % 3], models=1 + seed % 2, boxes=10, points=3,
                     attackers_spend=seed % 4 != 3, target_spends=seed % 5 != 4)
    width, options, n = chain.width, int(rng.integers(2, 5)), 60
    values = rng.integers(0, 3, (width, options, n)) / 2.0
    values += (rng.random((width, options, n)) < 0.2) * 1e-15
    values[:, 1:][:, rng.random((options - 1, n)) < 0.3] = np.nan  # later options not offered there
    for pref in (chain.attackers(), chain.attackers(True), chain.target):
        expected = _brute(pref, values)
        assert pref.choose_stacked(values).tolist() == expected
        assert pref.choose_stacked(values, first_offered=True).tolist() == expected

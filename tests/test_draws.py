"""What a trial needs from the kernels (mathhammer.montecarlo.draws), read row by row in Python
since issue 20: the same answers as the NumPy column arithmetic it replaced (written out here),
on the encoded tables of every case file's scenarios and on random tables."""

from __future__ import annotations

import numpy as np
import pytest

import activation_cases
import grid_cases
import turns_cases
import unit_cases
from mathhammer.cards import BUNDLED_DIR, scenario_from_cards
from mathhammer.errors import MathhammerError
from mathhammer.montecarlo._kernels import layout as L
from mathhammer.montecarlo.draws import is_plain, max_draws, most_made
from mathhammer.montecarlo.encode import encode
from test_shred import SCENARIOS as SHRED
from test_targets import CASES as TARGETS

MAX_SHRED = 20  # mathhammer._core.limits.MAX_SHRED, checked below

PLAIN_FLAGS = (L.F_DAMAGE | L.F_KNOCKDOWN | L.F_CRIT_KNOCKDOWN | L.F_STATIONARY
               | L.F_CRIT_STATIONARY | L.F_FREE_ATT_BOOST | L.F_FREE_DMG_BOOST
               | L.F_IGNORE_SHIELD | L.F_FIRST)


# ------------------------------------------------------------------ the former arithmetic
def numpy_is_plain(attacks, attackers, tvec):
    return bool(
        not (attacks[:, L.A_FLAGS] & ~PLAIN_FLAGS).any()
        and not attacks[:, [L.A_ATT_MODE, L.A_DMG_MODE]].any()
        and not attacks[:, L.A_EFFECT_BIT].any()
        and not attackers[:, L.P_POINTS].any()
        and tvec[L.T_POINTS] == 0
        and tvec[L.T_TOUGH] == L.TOUGH_NONE
        and tvec[L.T_RAPID_HEAL] == 0
        and tvec[L.T_CAPACITY] == L.CAP_TRACK
        and tvec[L.T_TURNS] == 1
        and tvec[L.T_EFFECTS] == 0
        and tvec[L.T_HAZARDS] == 0
        and tvec[L.T_MODELS] == 1
        and tvec[L.T_TARGETS] == 1
    )


def numpy_most_made(attacks, n_slots):
    if not len(attacks):
        return 0
    shred = bool(((attacks[:, L.A_FLAGS] & L.F_SHRED) != 0).any())
    return n_slots * (1 + MAX_SHRED) if shred else n_slots


def numpy_max_draws(attacks, n_slots, n_targets=1):
    pairs = lambda n: (np.maximum(1, n) + 1) // 2  # noqa: E731
    flags = attacks[:, L.A_FLAGS]
    attack_dice = attacks[:, L.A_ATT_DICE] + 1 + ((attacks[:, L.A_ATT_MODE] & L.R_SANGUINE) != 0)
    damage_dice = attacks[:, L.A_DMG_DICE] + 2 + ((flags & (L.F_TRASH | L.F_SHATTER)) != 0)
    if len(attacks) and max(attack_dice.max(), damage_dice.max()) > 10:
        raise MathhammerError("a roll of more than 10 dice: outside what the kernel reads")
    attack = (1 + ((flags & L.F_REROLL_ATT) != 0)) * pairs(attack_dice)
    damage = (1 + ((flags & L.F_REROLL_DMG) != 0)) * pairs(damage_dice)
    caught = np.where((flags & L.F_BLAST) != 0,
                      np.maximum(attacks[:, L.A_BLAST_MODELS], attacks[:, L.A_BLAST_MISS]), 0)
    rof = (flags & L.F_ROF) != 0
    repeats = np.where((flags & L.F_SHRED) != 0, 1 + MAX_SHRED, 1)
    per_row = (attack + damage + 1 + 2 * caught + rof) * repeats
    block = len(attacks) // n_targets
    per_slot = np.zeros(n_slots, dtype=np.int64)
    for g in range(n_targets):
        for i in range(n_slots):
            r = g * block + i
            need = per_row[r]
            first, k = attacks[r, L.A_CHOICE_ROW], attacks[r, L.A_CHOICES]
            if k:
                need = max(need, per_row[first: first + k].max())
            per_slot[i] = max(per_slot[i], need)
    return int(per_slot.sum())


# ------------------------------------------------------------------ scenarios
def scenarios():
    out = {}
    for module in (activation_cases, grid_cases, turns_cases, unit_cases):
        out.update({f"{module.__name__}:{name}": s for name, s in module.CASES})
    out.update({f"targets:{k}": s for k, s in TARGETS.items()})
    out.update({f"shred:{k}": s for k, s in SHRED.items()})
    cards = sorted(p.stem for p in BUNDLED_DIR.glob("*.toml"))
    for a in ("heavy_warjack", "infantry_unit", "warcaster"):
        out.update({f"cards:{a}/{t}": scenario_from_cards([a], t) for t in cards})
    return out


SCENARIOS = scenarios()


def test_max_shred_is_the_library_s():
    from mathhammer._core.limits import MAX_SHRED as LIMIT

    assert MAX_SHRED == LIMIT


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_encoded_scenarios_read_as_before(name):
    s = SCENARIOS[name]
    enc = encode(s)
    t = enc.tables
    n_slots, n_targets = enc.n_slots, len(s.targets)
    assert is_plain(t.attacks, t.attackers, t.target) == numpy_is_plain(t.attacks, t.attackers,
                                                                         t.target) == enc.plain
    assert most_made(t.attacks, n_slots) == numpy_most_made(t.attacks, n_slots)
    assert max_draws(t.attacks, n_slots, n_targets) == numpy_max_draws(t.attacks, n_slots,
                                                                       n_targets)


def test_random_tables_read_as_before():
    """Random flag bits, dice, modes and choices, including rolls of more than 10 dice (an
    error either way) and empty tables."""
    rng = np.random.default_rng(7)
    bits = [L.F_REROLL_ATT, L.F_REROLL_DMG, L.F_TRASH, L.F_SHATTER, L.F_BLAST, L.F_ROF,
            L.F_SHRED, L.F_KNOCKDOWN, L.F_FIRST, L.F_DAMAGE, 1 << 40]
    for _ in range(400):
        n_targets = int(rng.integers(1, 3))
        n_slots = int(rng.integers(0, 5))
        extra = int(rng.integers(0, 3)) if n_slots else 0
        block = n_slots + extra
        attacks = np.zeros((block * n_targets, L.A_NFIELDS), dtype=np.int64)
        for r in range(len(attacks)):
            attacks[r, L.A_FLAGS] = sum(b for b in bits if rng.random() < 0.2)
            attacks[r, L.A_ATT_DICE] = rng.integers(0, 9)
            attacks[r, L.A_DMG_DICE] = rng.integers(0, 9)
            attacks[r, L.A_ATT_MODE] = L.R_SANGUINE if rng.random() < 0.2 else 0
            attacks[r, L.A_DMG_MODE] = rng.integers(0, 2)
            attacks[r, L.A_EFFECT_BIT] = rng.integers(0, 2)
            attacks[r, L.A_BLAST_MODELS] = rng.integers(0, 4)
            attacks[r, L.A_BLAST_MISS] = rng.integers(0, 3)
            if r % block < n_slots and extra and rng.random() < 0.5:
                attacks[r, L.A_CHOICE_ROW] = (r // block) * block + n_slots
                attacks[r, L.A_CHOICES] = extra
        attackers = np.zeros((2, L.P_NFIELDS), dtype=np.int64)
        attackers[:, L.P_POINTS] = rng.integers(0, 2, size=2)
        tvec = np.zeros(L.T_NFIELDS, dtype=np.int64)
        tvec[L.T_TURNS] = tvec[L.T_MODELS] = tvec[L.T_TARGETS] = 1
        tvec[L.T_CAPACITY] = L.CAP_TRACK if rng.random() < 0.7 else L.CAP_GRID
        assert is_plain(attacks, attackers, tvec) == numpy_is_plain(attacks, attackers, tvec)
        assert most_made(attacks, n_slots) == numpy_most_made(attacks, n_slots)
        try:
            want = numpy_max_draws(attacks, n_slots, n_targets)
        except MathhammerError:
            with pytest.raises(MathhammerError, match="more than 10 dice"):
                max_draws(attacks, n_slots, n_targets)
        else:
            assert max_draws(attacks, n_slots, n_targets) == want

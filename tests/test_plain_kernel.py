"""The plain fast path (``mathhammer.montecarlo._kernels.plain``) against the general kernel.

On a plain scenario both kernels must read the dice buffer identically and so give the same
counts, bit for bit, for the same seed; a scenario using anything the plain kernel does not
handle must not be sent to it.
"""

from __future__ import annotations

import numpy as np
import pytest

from activation_cases import CASES
from mathhammer.montecarlo._kernels.driver import run_sequences
from mathhammer.montecarlo.encode import encode
from test_mc_vs_exact import SCENARIOS

PLAIN = {name: s for name, s in SCENARIOS.items()}
PLAIN.update({name: s for name, s in CASES if encode(s).plain})


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_plain_and_general_kernels_agree_bit_for_bit(name):
    enc = encode(PLAIN[name])
    assert enc.plain
    trials = 3 * 4096 + 77
    fast = run_sequences(enc, trials, 31, chunk=4096)
    slow = run_sequences(enc, trials, 31, chunk=4096, general=True)
    np.testing.assert_array_equal(fast.damage_hist, slow.damage_hist)
    np.testing.assert_array_equal(fast.attack_counts, slow.attack_counts)
    np.testing.assert_array_equal(fast.kill_at, slow.kill_at)


def test_what_makes_a_scenario_plain():
    names = {name for name, s in CASES if encode(s).plain}
    # terrain, shields and spells are static: plain
    assert {"terrain_forest", "shield_and_buckler", "chain_weapon_vs_shield",
            "stationary"} <= names
    # points, rerolls, effects, Tough, power fields, Dispel are not
    assert not names & {"boost_attack_always", "reroll_attack", "def_minus_on_hit_no_stack",
                        "tough", "power_field_focus_lethal", "dispel", "brutal_damage_critical",
                        "rapid_healing", "decapitation", "fury_attacker"}
    assert len(names) >= 5

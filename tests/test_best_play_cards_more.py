"""Best play on the bundled cards, the second half of the attackers (tests/card_pairings.py
says what is checked)."""

from __future__ import annotations

import pytest

from card_pairings import CARDS, check_attacker


@pytest.mark.parametrize("attacker", CARDS[6:])
def test_monte_carlo_best_play_agrees_with_exact_on_every_bundled_pairing(attacker):
    check_attacker(attacker)

"""The card library: the names scripts and notebooks import.

The code lives in :mod:`mathhammer.io` (:mod:`~mathhammer.io.cards`,
:mod:`~mathhammer.io.cardpath`, :mod:`~mathhammer.io.overrides`,
:func:`~mathhammer.io.scenario_files.scenario_from_cards`).
"""

from .io.cardpath import BUNDLED_DIR, ENV_VAR, card_dirs, find_card
from .io.cards import (
    CARD_KEYS,
    KINDS,
    Card,
    CardInfo,
    cards_frame,
    cards_in,
    list_cards,
    load_card,
)
from .io.overrides import merge_attacker, merge_target
from .io.scenario_files import scenario_from_cards

__all__ = [
    "BUNDLED_DIR",
    "CARD_KEYS",
    "ENV_VAR",
    "KINDS",
    "Card",
    "CardInfo",
    "card_dirs",
    "cards_frame",
    "cards_in",
    "find_card",
    "list_cards",
    "load_card",
    "merge_attacker",
    "merge_target",
    "scenario_from_cards",
]

"""The decks of a balance matrix: its attackers and its targets, as card references.

A deck is a directory of card files (for attackers, every card with an ``[attacker]`` table;
the others are listed as left out) or a list of card references (names, paths, and for
attackers ``"name:action"``). Each entry keeps the card's file, so other card directories
cannot shadow it, and a digest of its content (a resumed matrix must have the same cards).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .._core.paths import is_folder
from ..errors import InputError
from ..io.cards import attacker_ref, cards_in, load_card

__all__ = ["DeckEntry", "deck"]


@dataclass(frozen=True)
class DeckEntry:
    """An attacker or a target of the matrix: its label, the card reference a scenario uses
    (the card's file, so other directories cannot shadow it) and a digest of the card."""

    label: str
    ref: Mapping
    digest: str


def _digest(path: Path, action: str | None) -> str:
    h = hashlib.sha256(path.read_bytes())
    h.update(f"|{action or ''}".encode())
    return h.hexdigest()[:16]


def deck(value, role: str, dirs, all_actions: bool, key: str | None = None) -> tuple[list[DeckEntry], list[str]]:
    """The attackers (``role="attackers"``) or targets of the matrix, and the cards of a
    directory left out (no attacker table). ``key``: the argument the errors name (default
    ``role``; a trade matrix's ``rows``, say)."""
    attacking = role == "attackers"
    name = role if key is None else key
    skipped: list[str] = []
    picked: list[tuple] = []  # (card, action or None, label, (key, ref) or None)
    if isinstance(value, (str, os.PathLike)) and is_folder(value):
        for card in cards_in(value, role):
            if attacking and not card.info.attacks:
                skipped.append(card.name)
                continue
            picked.append((card, None, card.name, None))
    else:
        if isinstance(value, (str, os.PathLike)):
            value = [value]
        if not isinstance(value, Iterable):
            raise InputError(name, type(value).__name__,
                             "must be a directory of cards or a list of card names")
        for i, ref in enumerate(value):
            if not isinstance(ref, (str, os.PathLike)) or not os.fspath(ref).strip():
                raise InputError(f"{name}[{i}]", ref, "must be a card name or path")
            ref = os.fspath(ref).strip()
            entry = attacker_ref(ref) if attacking else {"card": ref}
            try:
                card = load_card(entry["card"], dirs)
            except InputError as err:
                raise InputError(f"{name}[{i}]", ref, err.reason) from None
            if attacking and not card.info.attacks:
                raise InputError(f"{name}[{i}]", ref, "is a target-only card (no [attacker] "
                                 "table)")
            action = entry.get("action")
            label = card.name if action is None else f"{card.name}:{action}"
            picked.append((card, action, label, (f"{name}[{i}]", ref)))
    entries: list[DeckEntry] = []
    for card, action, label, given in picked:
        actions = [action]
        if attacking:
            if action is None and all_actions and len(card.info.actions) > 1:
                actions = list(card.info.actions)
            for act in actions:
                try:
                    card.to_attacker(action=act)  # a bad action: one line naming the card file
                except InputError as err:
                    if given is None or not err.key.endswith("action"):
                        raise
                    raise InputError(given[0], given[1], f"the action {err.reason}"
                                     if err.reason.startswith("must") else err.reason) from None
        else:
            card.to_target()
        for act in actions:
            lab = label if act is None or act == action else f"{label}:{act}"
            ref = {"card": str(card.info.path)}
            if act is not None:
                ref["action"] = act
            entries.append(DeckEntry(lab, ref, _digest(card.info.path, act)))
    if not entries:
        raise InputError(name, os.fspath(value) if isinstance(value, (str, os.PathLike))
                         else value, "holds no attacking card" if attacking else "holds no card")
    labels = [e.label for e in entries]
    for lab in labels:
        if labels.count(lab) > 1:
            raise InputError(name, lab, "is listed twice")
    return entries, skipped

"""``mathhammer cards``: list the library cards (bundled, ``MATHHAMMER_CARDS``, ``--cards``)."""

from __future__ import annotations

import argparse
import json

from ._common import EXIT_OK, UsageError, write


def add_cards_flag(p: argparse.ArgumentParser) -> None:
    """``--cards DIR`` (repeatable): card directories searched before the others."""
    p.add_argument("--cards", action="append", default=None, metavar="DIR",
                   help="a directory of card files searched first (repeatable; also the "
                   "MATHHAMMER_CARDS environment variable)")


def card_dirs_for(args: argparse.Namespace):
    """The card search path of a command line; a missing ``--cards`` directory is a
    :class:`UsageError` naming the flag."""
    from ..io.cardpath import card_dirs
    from ..errors import InputError

    try:
        return card_dirs(args.cards or ())
    except InputError as err:
        if err.key == "cards":
            raise UsageError(f"--cards: {err.reason} (got {err.value!r})") from None
        raise


def add_parsers(sub) -> None:
    p = sub.add_parser("cards", help="list the library cards (model types)",
                       description="List the cards scenarios can refer to: target = { card = "
                       '"NAME" }, [[attackers]] card = "NAME". User cards (--cards DIR, '
                       "MATHHAMMER_CARDS) shadow bundled cards of the same name.")
    add_cards_flag(p)
    p.add_argument("--json", action="store_true", help="print the cards as a JSON array")
    p.set_defaults(handler=cards_command)


#: Kinds whose real cards have two grids or spirals: a damage track may stand in for them (a
#: colossal's two grids are modelled: twelve columns).
_TWO_CARDS = ("colossal", "gargantuan")


def _damage(c) -> str:
    if c.capacity == "track":
        text = "1 box" if c.boxes == 1 else f"{c.boxes} boxes"
        if c.models > 1:  # a unit card
            text = f"{c.models} x {text}"
        if c.kind.strip().lower() in _TWO_CARDS:
            text += " (systems not modelled)"
        return text
    if c.capacity == "grid" and c.kind.strip().lower() in _TWO_CARDS:
        return f"two grids {c.boxes}"
    return f"{c.capacity} {c.boxes}"


def _attacks(c) -> str:
    if not c.actions:
        return "- (target only)"
    text = ", ".join(c.actions)
    return f"{text} ({c.points})" if c.points else text


def format_cards(cards) -> str:
    """A table of :class:`~mathhammer.cards.CardInfo` (one row each), then each card's
    description."""
    head = ("NAME", "KIND", "DAMAGE", "DEF/ARM", "ATTACKS", "SOURCE")
    rows = [(c.name, c.kind or "-", _damage(c), f"{c.defense}/{c.arm}", _attacks(c),
             "bundled" if c.bundled else str(c.path)) for c in cards]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in [head, *rows]]
    lines.append("")
    lines.extend(f"{c.name}: {c.description}" for c in cards if c.description)
    lines.append("")
    lines.append('Use: target = { card = "NAME" } or [[attackers]] card = "NAME" (action = '
                 '"melee" | "ranged" | "arcane") in a scenario; bundled cards are '
                 "illustrative, not real models.")
    return "\n".join(lines)


def cards_command(args: argparse.Namespace) -> int:
    from ..io.cards import list_cards

    card_dirs_for(args)  # a missing --cards directory: one line naming the flag
    cards = list_cards(args.cards or ())
    if args.json:
        write(json.dumps([c.to_dict() for c in cards], indent=2))
    else:
        write(format_cards(cards))
    return EXIT_OK

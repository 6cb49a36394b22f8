"""``mathhammer cards``: list the library cards (bundled, the user's folder, ``MATHHAMMER_CARDS``,
``--cards``); ``cards show NAME`` prints one whole; ``cards new NAME --from CARD`` writes an
editable copy in the user's card folder."""

from __future__ import annotations

import argparse
import json
import shlex
import textwrap
from pathlib import Path

from ..errors import shown
from ._common import EXIT_OK, UsageError, write


def add_cards_flag(p: argparse.ArgumentParser, after: bool = False) -> None:
    """``--cards DIR`` (repeatable): card directories searched before the others. ``after``:
    the flag of an action of ``cards`` (``cards --cards A show NAME --cards B``), kept apart
    from the one before the action, which a subparser's own would silently replace."""
    p.add_argument("--cards", action="append", metavar="DIR",
                   dest="cards_after" if after else "cards",
                   default=argparse.SUPPRESS if after else None,
                   help="a directory of card files searched first (repeatable; also the "
                   "MATHHAMMER_CARDS environment variable)")


def _cards_of(args: argparse.Namespace) -> list:
    """Every ``--cards DIR`` of a command line, in its order (before and after an action)."""
    return list(getattr(args, "cards", None) or ()) + list(getattr(args, "cards_after", None) or ())


def card_dirs_for(args: argparse.Namespace):
    """The card search path of a command line; a missing ``--cards`` directory is a
    :class:`UsageError` naming the flag."""
    from ..io.cardpath import card_dirs

    return _flagged(card_dirs, args)


def _flagged(function, args: argparse.Namespace):
    """``function(args.cards)``, a missing ``--cards`` directory reported as the flag's."""
    from ..errors import InputError

    try:
        return function(_cards_of(args))
    except InputError as err:
        if err.key == "cards":
            raise UsageError(f"--cards: {err.reason} (got {shown(err.value)})") from None
        raise


def add_parsers(sub) -> None:
    p = sub.add_parser("cards", help="list, show and copy the library cards (model types)",
                       description="List the cards scenarios can refer to: target = { card = "
                       '"NAME" }, [[attackers]] card = "NAME". Cards are searched in --cards DIR, '
                       "MATHHAMMER_CARDS, your card folder (~/.mathhammer/cards), then the "
                       "bundled cards: the first of a name wins.")
    add_cards_flag(p)
    p.add_argument("--json", action="store_true", help="print the cards as a JSON array")
    p.set_defaults(handler=cards_command)
    actions = p.add_subparsers(dest="cards_action", metavar="ACTION", title="actions")
    show = actions.add_parser("show", help="print one card whole: stats, weapons, actions, its grid "
                              "or spiral", description="Print the card NAME whole.")
    show.add_argument("name", metavar="NAME", help="a card name (as `mathhammer cards` lists) or card file")
    add_cards_flag(show, after=True)
    show.set_defaults(handler=show_command)
    new = actions.add_parser("new", help="write an editable copy of a card in your card folder",
                             description="Write NAME.toml, a copy of the card --from, in the first "
                             "--cards DIR, else the first MATHHAMMER_CARDS folder, else "
                             "~/.mathhammer/cards (created); print its path. An existing file is "
                             "never replaced without --overwrite.")
    new.add_argument("name", metavar="NAME", help="the new card's name (its file is NAME.toml)")
    new.add_argument("--from", dest="source", required=True, metavar="CARD",
                     help="the card copied (a name or a card file), e.g. heavy_warjack")
    new.add_argument("--overwrite", action="store_true", help="replace a card file of that name in the folder")
    add_cards_flag(new, after=True)
    new.set_defaults(handler=new_command)


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


def _folder_labels(folders) -> dict:
    """Resolved folder -> its short label: ``bundled``, ``user``, ``MATHHAMMER_CARDS``,
    ``--cards`` (numbered when there are several of one kind)."""
    from collections import Counter

    counts, seen, out = Counter(label for label, _ in folders), Counter(), {}
    for label, path in folders:
        seen[label] += 1
        out[path.resolve()] = f"{label} {seen[label]}" if counts[label] > 1 else label
    return out


def format_cards(cards, folders) -> str:
    """A table of the cards (:class:`~mathhammer.io.cards.Card`), each with its weapons under
    it, then the folders searched with their paths."""
    from .cardsheet import WIDTH, weapons_line

    labels = _folder_labels(folders)
    head = ("NAME", "KIND", "DAMAGE", "DEF/ARM", "POINTS", "FOLDER")
    rows = [(c.info.name, c.info.kind or "-", _damage(c.info), f"{c.info.defense}/{c.info.arm}",
             c.info.points or ("-" if c.info.actions else "target only"),
             labels.get(c.info.path.resolve().parent, str(c.info.path.parent))) for c in cards]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = ["  ".join(v.ljust(w) for v, w in zip(head, widths)).rstrip()]
    for card, row in zip(cards, rows):
        lines.append("  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip())
        lines += weapons_line(card)
    lines += ["", "Folders, searched in this order (a card shadows one of the same name below it):"]
    count = {p: sum(c.info.path.resolve().parent == p.resolve() for c in cards) for _, p in folders}
    width = max(len(v) for v in labels.values())
    for label, path in folders:
        what = f"{count[path]} card{'s' if count[path] != 1 else ''}" if path.is_dir() else "none yet"
        lines.append(f"  {labels[path.resolve()]:<{width}}  {path}  ({what})")
    lines.append("")
    lines += textwrap.wrap(
        "`mathhammer cards show NAME` prints a card whole; `mathhammer cards new NAME --from CARD` "
        f"writes a copy to edit in {folders[0][1]}. In a "
        'scenario: target = { card = "NAME" } or [[attackers]] card = "NAME", action = "melee" | '
        '"ranged" | "arcane" | "headbutt" | "slam" (`--attacker NAME:ACTION`). The bundled cards are '
        "illustrative, not real models.", WIDTH, break_on_hyphens=False)
    return "\n".join(lines)


def cards_command(args: argparse.Namespace) -> int:
    from ..io.cardpath import card_folders
    from ..io.cards import list_cards, load_card

    folders = _flagged(card_folders, args)  # a missing --cards directory: one line naming the flag
    infos = list_cards(_cards_of(args))
    if args.json:
        write(json.dumps([c.to_dict() for c in infos], indent=2))
    else:
        write(format_cards([load_card(str(c.path)) for c in infos], folders))
    return EXIT_OK


def _no_json(args: argparse.Namespace) -> None:
    """``cards --json`` prints the list as JSON; ``show`` and ``new`` print text only, so a
    ``--json`` before them is refused rather than ignored."""
    if args.json:
        raise UsageError(f"--json: prints the card list as JSON; `cards {args.cards_action}` "
                         "prints text only (leave --json out)")


def show_command(args: argparse.Namespace) -> int:
    from ..io.cardpath import card_folders
    from ..io.cards import load_card
    from .cardsheet import format_card

    _no_json(args)
    labels = _folder_labels(_flagged(card_folders, args))
    card = load_card(args.name, _cards_of(args))
    write(format_card(card, labels.get(card.info.path.resolve().parent, "a card file")))
    return EXIT_OK


def new_command(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..io.cardcopy import copy_card

    _no_json(args)
    try:
        path = _flagged(lambda dirs: copy_card(args.name, args.source, dirs, overwrite=args.overwrite), args)
    except InputError as err:
        if err.key == "card":  # the card copied
            raise UsageError(f"--from: {err.reason} (got {shown(err.value)})") from None
        raise
    # the folder it was written to, where only --cards finds it: the commands that work
    folder = next((d for d in _cards_of(args) if Path(d).resolve() == path.resolve().parent), None)
    flag = f" --cards {shlex.quote(str(folder))}" if folder is not None else ""
    write(f"{path}\nEdit it to match your model; `mathhammer cards{flag} show {args.name}` prints it, and "
          f'scenarios use it as card = "{args.name}" (or --attacker {args.name}{flag}).')
    return EXIT_OK

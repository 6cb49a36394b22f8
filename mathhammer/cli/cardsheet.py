"""What ``mathhammer cards`` prints of a card: its weapons in one line (the list) and the
whole card (``mathhammer cards show NAME``), its grid or spiral drawn as the text report
draws it (:func:`mathhammer.result.cardgrid.card_table`)."""

from __future__ import annotations

import dataclasses
import textwrap

from ..io.toml_write import toml_value
from ..result.cardgrid import card_table
from ..result.texttable import text_table
from ..rules import Weapon
from ..rules.vocabulary import GRID_SYSTEM_NAMES, POWER_ATTACKS, SPIRAL_ASPECT_NAMES

__all__ = ["WIDTH", "action_weapons", "format_card", "weapon_brief", "weapons_line"]

#: Width the output of ``mathhammer cards`` keeps within.
WIDTH = 100
#: Weapon fields shown in their own columns (the others, when not their default, under "rules").
_SHOWN = ("name", "type", "skill", "pow", "attacks", "rules", "power_attack")


def action_weapons(card) -> list[tuple[str, list[Weapon]]]:
    """``(action, weapons)`` for each action of ``card`` (its default first): the weapons of
    that combat action; a power attack's entry holds the power attack alone (the melee
    weapons buying the attacks after it are the ``melee`` entry's)."""
    out = []
    for action in card.info.actions:
        attacker = card.to_attacker(action=action)
        out.append((action, [attacker.power_weapon] if action in POWER_ATTACKS else list(attacker.weapons)))
    return out


def _skill(w: Weapon) -> str:
    return f"{'MAT' if w.type == 'melee' else 'RAT'} {w.skill}"


def _pow(w: Weapon) -> str:
    label = "P+S" if w.type == "melee" and w.power_attack is None else "POW"
    return f"{label} {'-' if w.pow is None else w.pow}"


def weapon_brief(w: Weapon) -> str:
    """``"Claw (MAT 6, P+S 16, 2 attacks)"``: a weapon in a few words."""
    bits = [_skill(w), _pow(w)]
    if w.attacks != 1:
        bits.append(f"ROF {w.attacks}" if w.type != "melee" else f"{w.attacks} attacks")
    return f"{w.name} ({', '.join(bits)})"


def weapons_line(card, indent: str = "    ") -> list[str]:
    """The weapons of each action of ``card``, wrapped to :data:`WIDTH` between weapons (a
    weapon is never split); empty for a card without an ``[attacker]`` table."""
    pieces = []  # (text, separator after it)
    for action, weapons in action_weapons(card):
        for j, w in enumerate(weapons):
            pieces.append(((f"{action}: " if j == 0 else "") + weapon_brief(w),
                           "," if j < len(weapons) - 1 else ";"))
    lines, line = [], indent
    for k, (text, sep) in enumerate(pieces):
        text += sep if k < len(pieces) - 1 else ""
        if line.strip() and len(line) + 1 + len(text) > WIDTH:
            lines.append(line)
            line = indent + "  "
        line += ("" if not line.strip() else " ") + text
    return lines + [line] if pieces else []


def _other_fields(w: Weapon) -> str:
    """Its rules, then every other field that is not its default (``damage_to L`` ...)."""
    bits = [f"{w.power_attack} power attack"] if w.power_attack else []
    bits += sorted(w.rules)
    for f in dataclasses.fields(Weapon):
        value = getattr(w, f.name)
        default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
        if f.name in _SHOWN or value == default:
            continue
        if isinstance(value, (set, frozenset, tuple, list)):
            value = "/".join(sorted(map(str, value)))
        bits.append(f"{f.name} {value}" if not isinstance(value, bool) else f.name)
    return ", ".join(bits)


def _table_keys(table, skip) -> list[str]:
    """``key = value`` of a card's table, as written, but for the keys shown elsewhere."""
    return [f"  {k} = {toml_value(v)}" for k, v in table.items() if k not in skip]


def _damage_lines(target) -> list[str]:
    if target.capacity == "track":
        each = " each" if target.models > 1 else ""
        return [f"Damage: a track of {target.boxes} box{'es' if target.boxes != 1 else ''}{each}."]
    grid = target.capacity == "grid"
    names = GRID_SYSTEM_NAMES if grid else SPIRAL_ASPECT_NAMES
    letters = "".join(target.card)
    lines = [f"{'Damage grid' if grid else 'Life spiral'} ({target.boxes} boxes; "
             f"{'columns' if grid else 'branches'} 1-6 left to right, "
             f"{'top' if grid else 'outermost'} box first"
             + ("; the left grid, then the right):" if target.colossal else "):")]
    lines += card_table(target, lambda c, r, x: x, align="l")
    counts = [f"{x} {names[x]} {letters.count(x)}" for x in names if x in letters]
    hull = f"; {letters.count('.')} hull boxes" if grid else ""
    return lines + textwrap.wrap(("Systems: " if grid else "Aspects: ") + (", ".join(counts) or "none")
                                 + hull + ".", WIDTH, subsequent_indent="  ")


def format_card(card, folder: str) -> str:
    """The whole of ``card``: where its file is, its target (keys, damage card drawn), its
    attacker (keys, every weapon with its rules, its actions)."""
    info = card.info
    target = card.to_target()
    lines = [f"{info.name}: {info.title}" + (f" ({info.kind})" if info.kind else "")]
    lines += textwrap.wrap(info.description, WIDTH, initial_indent="  ", subsequent_indent="  ")
    lines += [f"File: {info.path} ({folder})", "",
              f"As a target: DEF {target.defense}, ARM {target.arm}, {target.base} base"
              + (f", a unit of {target.models} models" if target.models > 1 else "")]
    lines += _table_keys(card.target_table, {"def", "arm", "base", "grid", "spiral", "boxes", "name",
                                                   "models"})
    lines += _damage_lines(target)
    if card.attacker_table is None:
        lines += ["", "As an attacker: none (a target-only card)."]
        return "\n".join(lines)
    attacker = card.to_attacker()
    points = info.points or "no focus, fury or force"
    lines += ["", f"As an attacker: model {attacker.model}, {points}"]
    lines += _table_keys(card.attacker_table, {"weapons", "name", "base", "model", "focus", "fury", "force",
                                               "models"})
    rows = [[action, w.name, _skill(w), _pow(w), str(w.attacks), _other_fields(w)]
            for action, weapons in action_weapons(card) for w in weapons]
    lines += text_table(["action", "weapon", "skill", "power", "attacks", "rules"], rows, "lllrrl")
    first, *others = info.actions
    lines.append(f"Actions: {first} (the default)" + "".join(f", {a}" for a in others)
                 + f"; e.g. --attacker {info.name}:{others[0] if others else first}.")
    return "\n".join(lines)

"""The explorer's controls: one Panel widget per key of the scenario document, each with the
place beside it where the reader's message about that key is shown.

Numbers are typed as text and handed to the scenario reader as typed
(:func:`~mathhammer.app.document.parse_typed`): "abc" in ARM reads "target.arm: must be an
integer (got 'abc')", as in a file. A blank field removes its key, so the card's value (or
the default) applies again; the field then shows that value, greyed, as its placeholder.
Points (focus, fury, force) are sliders: dragging one sends a value at each step, and the
runner computes only the newest (:mod:`.runner`).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import panel as pn

from ..rules.vocabulary import TARGET_RULES, TARGET_STATES, TERRAIN, WEAPON_LOCATIONS, WEAPON_RULES
from .document import field_key, get, parse_typed

__all__ = ["Form", "TRACK", "AS_WRITTEN"]

#: The target card choice that means "a damage track typed in" (no card).
TRACK = "(damage track)"
#: The attacker card choice of an attacker not made from a card here (loaded or given).
AS_WRITTEN = "(as written)"
#: Most points a slider offers (the reader refuses more than its limits anyway).
MAX_POINTS = 10

Path = tuple
#: Most names a set of choices shows as check boxes (more are typed).
BOXES = 12
#: Widest a row of check boxes gets before it wraps (CSS pixels).
CHOICES_WIDTH = 460
#: Check boxes in a row wrap to the width they are given (Bokeh's keeps them on one line).
_WRAP_BOXES = ".bk-input-group.bk-inline { flex-wrap: wrap; row-gap: 2px; } " \
              ".bk-input-group.bk-inline > *:not(:first-child) { margin-left: 0; } " \
              ".bk-input-group.bk-inline > * { margin-right: 12px; }"


def _words(name: str) -> str:
    """A name of the vocabulary in words: ``knocked_down`` -> ``knocked down``."""
    return name.replace("_", " ")


def names_typed(text: str) -> list[str] | None:
    """Names typed comma-separated, as the file writes them: ``"Critical Knockdown, fire"`` ->
    ``["critical_knockdown", "fire"]``; None for none (the key removed).

    >>> names_typed(" critical knockdown,  Fire ,")
    ['critical_knockdown', 'fire']
    """
    out = ["_".join(part.replace("-", " ").lower().split()) for part in str(text).split(",")]
    return [x for x in out if x] or None


@dataclass
class Field:
    """A control, the error line under it, and its name as the page shows it ("ARM", "1.
    Heavy warjack, Left fist: POW") for the messages about it."""

    path: Path
    widget: object
    error: pn.pane.HTML
    label: str = ""


class Form:
    """Builds controls bound to keys of a document; ``on_change(path, value)`` is called with
    the document value each time a control changes (``None``: remove the key)."""

    def __init__(self, on_change: Callable[[Path, object], None],
                 on_typing: Callable[[Path, object], None] | None = None):
        self.on_change = on_change
        #: Called with each text typed, before Enter or leaving the field (the page reads an
        #: accepted value at once, a refused one once the typing pauses).
        self.on_typing = on_typing
        self.fields: dict[str, Field] = {}
        #: What the controls being built belong to, said before their labels in messages.
        self._where = ""

    # ------------------------------------------------------------------ errors
    def field_of(self, key: str | None) -> Field | None:
        """The control that stands for ``key``: the one of the longest key ``key`` starts
        with (a rule of a list is its list's control), or None."""
        if not key:
            return None
        best = None
        for k in self.fields:
            if key == k or key.startswith(k + ".") or key.startswith(k + "["):
                if best is None or len(k) > len(best):
                    best = k
        return None if best is None else self.fields[best]

    def show_error(self, key: str | None, message: str) -> bool:
        """Show ``message`` under the control of ``key`` (:meth:`field_of`); False when no
        control stands for it."""
        for f in self.fields.values():
            f.error.object = ""
            f.error.visible = False
        field = self.field_of(key)
        if field is None:
            return False
        field.error.object = (f'<div class="mh-error" data-key="{html.escape(key)}">'
                              f"{html.escape(message)}</div>")
        field.error.visible = True
        return True

    def _add(self, path: Path, widget, convert: Callable[[object], object]) -> pn.Column:
        key = field_key(path)
        # the message under a control wraps within the control's width: the row it sits in
        # keeps its place (only what comes below it moves down)
        error = pn.pane.HTML("", visible=False, margin=(0, 10), width=widget.width,
                             styles={"color": "#b00020"})
        label = getattr(widget, "label", None) or key
        self.fields[key] = Field(path, widget, error, f"{self._where}{label}")
        widget.param.watch(lambda event: self.on_change(path, convert(event.new)), "value")
        if self.on_typing is not None and "value_input" in widget.param:  # a text, as typed
            widget.param.watch(lambda event: self.on_typing(path, convert(event.new)), "value_input")
        return pn.Column(widget, error, margin=0)

    # ------------------------------------------------------------------ controls
    def number(self, path: Path, label: str, doc: dict, shown=None, width: int = 90) -> pn.Column:
        """A number typed as text; ``shown``: the value in force when the key is absent."""
        value = get(doc, path)
        w = pn.widgets.TextInput(label=label, value="" if value is None else str(value),
                                 placeholder="" if shown is None else str(shown), width=width,
                                 css_classes=[f"mh-field-{field_key(path)}"])
        return self._add(path, w, parse_typed)

    def text(self, path: Path, label: str, doc: dict, shown: str | None = None,
             width: int = 180) -> pn.Column:
        value = get(doc, path)
        w = pn.widgets.TextInput(label=label, value="" if value is None else str(value), width=width,
                                 placeholder=shown or "", css_classes=[f"mh-field-{field_key(path)}"])
        return self._add(path, w, lambda v: v if v.strip() else None)

    def choices(self, path: Path, label: str, options: Sequence[str], doc: dict,
                width: int = 280) -> pn.Column:
        """A set of names (states, rules ...): the key removed when none is chosen.

        Up to :data:`BOXES` names are check boxes. More are typed, comma-separated (a pasted
        list reads as typed): each name as written in a file, or in words ("critical
        knockdown"); one the reader does not know gets its message, the closest name
        suggested. A drop-down list of choices is not used: it picks its first choice for a
        pasted text it has not searched."""
        chosen = list(get(doc, path) or [])
        css = [f"mh-field-{field_key(path)}"]
        if len(options) <= BOXES:
            w = pn.widgets.CheckBoxGroup(label=label, options={_words(o): o for o in options},
                                         value=[v for v in chosen if v in options], inline=True,
                                         sizing_mode="stretch_width", max_width=CHOICES_WIDTH, css_classes=css,
                                         stylesheets=[_WRAP_BOXES])
            box = self._add(path, w, lambda v: list(v) or None)
            return pn.Column(pn.pane.HTML(html.escape(label), margin=(6, 10, 0, 10)), box, margin=0)
        w = pn.widgets.TextInput(label=label, value=", ".join(chosen), width=width, css_classes=css,
                                 placeholder="e.g. " + ", ".join(_words(o) for o in options[:2]),
                                 description="One or more of: " + ", ".join(_words(o) for o in options))
        return self._add(path, w, names_typed)

    def points(self, path: Path, label: str, doc: dict, shown: int = 0) -> pn.Column:
        value = get(doc, path)
        w = pn.widgets.IntSlider(label=label, start=0, end=MAX_POINTS,
                                 value=int(shown if value is None else value), width=200,
                                 css_classes=[f"mh-field-{field_key(path)}"])
        return self._add(path, w, int)

    def flag(self, path: Path, label: str, doc: dict) -> pn.Column:
        w = pn.widgets.Checkbox(label=label, value=bool(get(doc, path, False)),
                                css_classes=[f"mh-field-{field_key(path)}"])
        return self._add(path, w, lambda v: True if v else None)

    def pick(self, path: Path, label: str, options: Sequence[str], doc: dict, default: str,
             width: int = 150) -> pn.Column:
        value = get(doc, path, default)
        opts = list(options) if value in options else [value, *options]
        w = pn.widgets.Select(label=label, options=opts, value=value, width=width,
                              css_classes=[f"mh-field-{field_key(path)}"])
        return self._add(path, w, lambda v: None if v == default else v)

    # ------------------------------------------------------------------ sections
    def target(self, doc: dict, shown, cards: Sequence[str], on_card: Callable[[str], None]) -> pn.Column:
        """The target's controls; ``shown``: the Target in force (its values as placeholders),
        or None when the document does not read."""
        self._where = ""
        t = doc.get("target", {})
        card = t.get("card")
        choice = pn.widgets.Select(label="Target card", options=[TRACK, *cards],
                                   value=card if card in cards else TRACK, width=200,
                                   css_classes=["mh-target-card"])
        choice.param.watch(lambda e: on_card(e.new), "value")

        def s(attr):
            return None if shown is None else getattr(shown, attr)

        sizes = [self.number(("target", "def"), "DEF", doc, s("defense")),
                 self.number(("target", "arm"), "ARM", doc, s("arm"))]
        if card is None:
            sizes.append(self.number(("target", "boxes"), "Boxes", doc, s("boxes")))
        sizes.append(self.number(("target", "models"), "Models", doc, s("models"), width=70))
        points_key = "fury" if shown is not None and shown.capacity == "spiral" else "focus"
        return pn.Column(
            "### Target", choice, self.text(("target", "name"), "Name", doc, s("name")), pn.FlexBox(*sizes),
            self.points(("target", points_key), f"Target's {points_key} (power field)" if points_key == "focus"
                        else "Target's fury", doc, s(points_key) or 0),
            self.choices(("target", "state"), "State", TARGET_STATES, doc),
            self.choices(("target", "terrain"), "Terrain", tuple(TERRAIN), doc),
            self.choices(("target", "rules"), "Rules", TARGET_RULES, doc),
            self.choices(("target", "shield"), "Shield on", WEAPON_LOCATIONS, doc),
        )

    def attacker(self, doc: dict, i: int, shown, cards: dict, origin: str | None,
                 on_card: Callable[[int, str, str | None], None],
                 on_remove: Callable[[int], None], others: Sequence[str] = ()) -> pn.Card:
        """Attacker ``i``'s controls: its card and action, name, models, points, charge, for a
        warcaster or warlock (model "other") the battlegroup it controls among ``others``
        (the other attackers' names), and each weapon's MAT/RAT, POW, attacks and rules."""
        a = doc["attackers"][i]
        title = a.get("name") or f"Attacker {i + 1}"
        self._where = f"{i + 1}. {title}: "
        names = [AS_WRITTEN, *cards]
        pick = pn.widgets.Select(label="Card", options=names, value=origin if origin in cards else AS_WRITTEN,
                                 width=170, css_classes=[f"mh-attacker-card-{i}"])
        actions = list(cards.get(origin, ())) if origin in cards else []
        action = pn.widgets.Select(label="Action", options=actions or ["-"],
                                   value=(actions[0] if actions else "-"), width=100,
                                   disabled=not actions, css_classes=[f"mh-attacker-action-{i}"])
        if origin in cards and a.get("weapons"):
            kinds = {w.get("type") for w in a["weapons"]}
            action.value = next((x for x in actions if x in kinds), action.value)
        pick.param.watch(lambda e: on_card(i, e.new, None), "value")
        action.param.watch(lambda e: on_card(i, pick.value, e.new), "value")
        remove = pn.widgets.Button(label="Remove", width=80,
                                   css_classes=[f"mh-remove-{i}"])
        remove.on_click(lambda e: on_remove(i))
        key = next((k for k in ("force", "fury", "focus") if a.get(k)), None) or (
            "fury" if a.get("model") == "warbeast" else "focus")
        rows = [pn.FlexBox(pick, action, remove),
                pn.FlexBox(self.text(("attackers", i, "name"), "Name", doc, getattr(shown, "name", None)),
                           self.number(("attackers", i, "models"), "Models", doc, 1, width=70)),
                pn.FlexBox(self.points(("attackers", i, key), key.capitalize(), doc, 0),
                           self.flag(("attackers", i, "charge"), "Charge", doc),
                           self.flag(("attackers", i, "cavalry"), "Cavalry", doc))]
        model = getattr(shown, "model", None) or a.get("model")
        if model == "other" and others:  # its battlegroup: the turn is then planned
            rows.append(self.choices(("attackers", i, "controls"), "Battlegroup (controls)", others, doc,
                                     width=440))
        for j, w in enumerate(a.get("weapons", [])):
            base = ("attackers", i, "weapons", j)
            self._where = f"{i + 1}. {title}, {w.get('name', f'weapon {j + 1}')}: "
            skill = "RAT" if w.get("type") in ("ranged", "arcane") else "MAT"
            rows.append(pn.pane.HTML(f"<b>{w.get('name', f'weapon {j + 1}')}</b> ({w.get('type', '')})",
                                     margin=(8, 10, 0, 10)))
            rows.append(pn.FlexBox(self.number(base + ("skill",), skill, doc, width=60),
                                   self.number(base + ("pow",), "POW", doc, width=60),
                                   self.number(base + ("attacks",), "Attacks", doc, 1, width=60),
                                   self.choices(base + ("rules",), "Rules", WEAPON_RULES, doc, width=210)))
        self._where = ""
        return pn.Card(*rows, title=f"{i + 1}. {title}", collapsed=False, sizing_mode="stretch_width", max_width=470)

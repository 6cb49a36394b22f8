"""The explorer's state: a scenario document (the tables of a scenario file), edited key by key.

A control of the page stands for one key of the document, named by a path such as
``("attackers", 0, "weapons", 1, "skill")``; :func:`field_key` spells it as the scenario
reader names keys in its messages (``attackers[0].weapons[1].skill``), so that an error is
shown beside the control it is about. The document is checked by the reader every time
(:func:`to_scenario`): the page refuses what a file would refuse, with the same words.

The target keeps its card by name (``card = "heavy_warjack"``, the keys typed in the page over
the card's); attackers are written out in full (their card's table with its weapons), so that
each weapon's MAT/RAT and POW can be changed and the downloaded file says what was run.

>>> doc = new_document()
>>> doc["target"], [a["name"] for a in doc["attackers"]]
({'card': 'heavy_warjack'}, ['Heavy warjack'])
>>> doc = put(doc, ("target", "arm"), 17)
>>> to_scenario(doc).targets[0].arm
17
>>> field_key(("attackers", 0, "weapons", 1, "skill"))
'attackers[0].weapons[1].skill'
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence

from .._core.numbers import read_number
from ..errors import InputError
from ..io.cards import list_cards, load_card
from ..io.dump import scenario_to_dict
from ..io.overrides import merge_attacker
from ..io.scenario_files import scenario_from_dict
from ..io.schema import ScenarioFileError
from ..io.toml_text import parse_toml
from ..io.toml_write import dumps
from ..rules import Scenario

__all__ = ["EXPLORER_TRIALS", "SOURCE", "attacker_cards", "attacker_from_card", "field_key",
           "field_message", "from_scenario", "from_toml", "get", "new_document", "parse_typed",
           "put", "target_cards", "to_scenario", "to_toml"]

#: The name errors about the page's document carry (as a file's carry its name).
SOURCE = "explorer"
#: Monte Carlo sample size of a new document (the explorer shows a quick estimate first).
EXPLORER_TRIALS = 200_000

Path = Sequence["str | int"]


def field_key(path: Path) -> str:
    """The reader's name of the key at ``path``.

    >>> field_key(("target", "def")), field_key(("attackers", 1, "focus"))
    ('target.def', 'attackers[1].focus')
    """
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def field_message(err: InputError) -> str:
    """``err`` as one line without the source's name (the page shows it beside its field).

    >>> field_message(ScenarioFileError(SOURCE, "target.arm", 99, "must be between 0 and 50"))
    'target.arm: must be between 0 and 50 (got 99)'
    """
    text = str(err)
    source = getattr(err, "source", None)
    return text.removeprefix(f"{source}: ") if source else text


def get(doc: Mapping, path: Path, default=None):
    """The value at ``path``, or ``default`` where a table or key on the way is missing."""
    node = doc
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return default
    return node


def put(doc: Mapping, path: Path, value) -> dict:
    """A copy of ``doc`` with ``value`` at ``path``; ``None`` removes the key (the card's
    value, or the default, applies again). Tables on the way are made as needed."""
    out = copy.deepcopy(dict(doc))
    node = out
    for part in path[:-1]:
        node = node.setdefault(part, {}) if isinstance(part, str) else node[part]
    last = path[-1]
    if value is None:
        if isinstance(last, str):
            node.pop(last, None)
    else:
        node[last] = value
    return out


def parse_typed(text: str):
    """What a number field's text means: ``None`` when blank (the key is removed), an int or a
    float when it reads as one (``1e6`` too: :func:`mathhammer._core.numbers.read_number`),
    else the text itself, for the reader to refuse by name ("must be an integer (got
    'abc')"), as a file's reader refuses the same text (``1_0`` and digits other than 0-9
    included).

    >>> parse_typed(" 17 "), parse_typed(""), parse_typed("1e6"), parse_typed("1_000"), parse_typed("1_0_")
    (17, None, 1000000, 1000, '1_0_')
    """
    s = str(text).strip()
    if not s:
        return None
    try:
        return read_number("value", s)
    except InputError:  # not a number (or too long for one): the reader refuses it by name
        return s


def attacker_from_card(name: str, action: str | None = None) -> dict:
    """The ``[[attackers]]`` table of card ``name`` making ``action`` (its default action
    when None), written out in full: name, points, weapons."""
    return merge_attacker(load_card(name), {}, action)


def target_cards() -> list[str]:
    """Names of the cards a target can be (every card of the search path)."""
    return [c.name for c in list_cards()]


def attacker_cards() -> dict[str, tuple[str, ...]]:
    """Cards that can attack, each with its actions (the default first)."""
    return {c.name: c.actions for c in list_cards() if c.attacks}


def new_document() -> dict:
    """The explorer's first scenario: a heavy warjack attacking a heavy warjack's grid."""
    return {"simulation": {"trials": EXPLORER_TRIALS, "seed": 1},
            "target": {"card": "heavy_warjack"},
            "attackers": [attacker_from_card("heavy_warjack")]}


def to_scenario(doc: Mapping) -> Scenario:
    """The scenario of ``doc``, checked as a file is.

    Raises
    ------
    ScenarioFileError
        Its key names the control to mark (source :data:`SOURCE`).
    """
    return scenario_from_dict(copy.deepcopy(dict(doc)), source=SOURCE)


def from_scenario(scenario: Scenario) -> dict:
    """A document for ``scenario`` (its tables written out, as :func:`scenario_to_dict`)."""
    if not isinstance(scenario, Scenario):
        raise InputError("scenario", type(scenario).__name__, "must be a mathhammer.Scenario or None")
    return scenario_to_dict(scenario)


def from_toml(text: str, source: str) -> dict:
    """A document for the scenario file ``text`` (named ``source`` in messages): checked as
    ``mathhammer run`` checks it, attackers' cards written out, the target's card kept.

    Raises
    ------
    ScenarioFileError
        Anything ``mathhammer run`` would refuse, and a file with several targets (key
        ``targets``: the explorer edits one).
    """
    raw = parse_toml(text, source)
    if "targets" in raw:
        raise ScenarioFileError(source, "targets", len(raw["targets"]) if isinstance(raw["targets"], list)
                                else raw["targets"],
                                "the explorer edits scenarios of one target: run this file with "
                                "mathhammer run")
    scenario = scenario_from_dict(copy.deepcopy(raw), source=source)
    doc = scenario_to_dict(scenario)
    target = raw.get("target")
    if isinstance(target, Mapping) and "card" in target:
        doc["target"] = dict(target)
    return doc


def to_toml(doc: Mapping) -> str:
    """The TOML text of ``doc``, which ``mathhammer run`` reads; checked first.

    >>> text = to_toml(new_document())
    >>> text.splitlines()[0]
    '# A scenario saved by the mathhammer explorer: mathhammer run scenario.toml'
    >>> from mathhammer.io.scenario_files import loads_scenario
    >>> loads_scenario(text) == to_scenario(new_document())
    True
    """
    to_scenario(doc)
    header = ("A scenario saved by the mathhammer explorer: mathhammer run scenario.toml\n"
              "Keys: docs/scenario-format.md")
    return dumps(doc, header=header)

"""Rules objects -> the tables of a scenario file (the inverse of reading one)."""

from __future__ import annotations

import dataclasses

from .._core.validate import check_instance
from ..rules import Scenario
from .schema import (
    ATTACKER_PLAIN,
    SETTINGS_KEYS,
    SIMULATION_KEYS,
    SPEND_KEYS,
    TARGET_KEYS,
    WEAPON_KEYS,
)

__all__ = ["attacker_table", "scenario_to_dict", "target_table"]


def _changed(obj: object, names: tuple[str, ...]) -> dict:
    """The fields ``names`` of dataclass ``obj`` that differ from their defaults, as TOML
    values (sets sorted into lists, tuples as lists)."""
    out = {}
    fields = {f.name: f for f in dataclasses.fields(obj)}
    for name in names:
        f = fields.get(name)
        if f is None:  # a key the file spells apart (``target``: one of ``targets``)
            continue
        default = f.default if f.default_factory is dataclasses.MISSING else f.default_factory()
        value = getattr(obj, name)
        if value == default:
            continue
        if isinstance(value, (set, frozenset)):
            value = sorted(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
    return out


def scenario_to_dict(scenario: Scenario) -> dict:
    """The tables of a scenario file for ``scenario`` (inverse of :func:`scenario_from_dict`).

    The keys of the original format are always written (``seed`` and ``location`` only when
    set, ``boxes`` only for a damage track: with a grid or spiral it is the card's total); the
    later keys only when they differ from their defaults, and ``[settings]`` and
    ``[attackers.spend]`` only when one of their keys does.

    Parameters
    ----------
    scenario : Scenario

    Returns
    -------
    dict
        Plain ``dict`` / ``list`` / ``str`` / ``int`` / ``bool`` values, as
        :func:`tomllib.load` would return them.

    Examples
    --------
    >>> from mathhammer.io.scenario_files import scenario_from_dict
    >>> s = scenario_from_dict({
    ...     "simulation": {"trials": 1000, "seed": 3, "turns": 3, "attack_turns": "all"},
    ...     "target": {"def": 12, "arm": 18, "resist": ["fire"], "focus": 2, "effects": ["corrosion"]},
    ...     "attackers": [{"name": "Jack", "focus": 3, "spend": {"reserve": 1}, "weapons": [
    ...         {"name": "Fist", "type": "melee", "skill": 7, "pow": "-"}]}],
    ... })
    >>> scenario_from_dict(scenario_to_dict(s)) == s
    True
    >>> d = scenario_to_dict(s)
    >>> d["target"]["focus"], d["attackers"][0]["spend"], "settings" in d
    (2, {'reserve': 1}, False)
    >>> d["simulation"], d["target"]["effects"]
    ({'trials': 1000, 'seed': 3, 'turns': 3}, ['corrosion'])
    """
    check_instance("scenario", scenario, Scenario, "a mathhammer Scenario")
    sim: dict = {"trials": scenario.trials}
    if scenario.seed is not None:
        sim["seed"] = scenario.seed
    sim.update(_changed(scenario, SIMULATION_KEYS[SIMULATION_KEYS.index("objective"):]))
    out: dict = {"simulation": sim}
    settings = _changed(scenario, SETTINGS_KEYS)
    if settings:
        out["settings"] = settings
    tables = [target_table(t) for t in scenario.targets]
    if scenario.several:
        out["targets"] = tables
    else:
        out["target"] = tables[0]
    attackers = [attacker_table(a) for a in scenario.attackers]
    out["attackers"] = attackers
    return out


def attacker_table(a) -> dict:
    """One attacker's table (an entry of ``[[attackers]]``): its weapons in full, its other
    keys where they differ from their defaults."""
    weapons = []
    for w in a.weapons:
        wd = {
            "name": w.name,
            "type": w.type,
            "skill": w.skill,
            "pow": "-" if w.pow is None else w.pow,
            "attacks": w.attacks,
            "boosted_attack": w.boosted_attack,
            "boosted_damage": w.boosted_damage,
            "damage_type": sorted(w.damage_type),
            "rules": sorted(w.rules),
            "extra_attack_dice": w.extra_attack_dice,
            "extra_damage_dice": w.extra_damage_dice,
            "crippled": w.crippled,
        }
        wd.update(_changed(w, WEAPON_KEYS[WEAPON_KEYS.index("location"):]))
        weapons.append(wd)
    ad: dict = {"name": a.name}
    ad.update(_changed(a, ATTACKER_PLAIN))
    # the policy is written when reading the file back would not give it: "best" is the
    # default without a spend table, "fixed" with one
    spend = _changed(a.spend, SPEND_KEYS) if a.policy != "best" else {}
    if a.policy == "best" or (a.policy == "fixed" and spend):
        ad.pop("policy", None)
    if spend:
        ad["spend"] = spend
    ad["weapons"] = weapons
    return ad


def target_table(t) -> dict:
    """One target's table (``[target]`` or an entry of ``[[targets]]``)."""
    target = {
        "name": t.name,
        "def": t.defense,
        "arm": t.arm,
        "boxes": t.boxes,
        "base": t.base,
        "resist": sorted(t.resist),
        "state": sorted(t.state),
    }
    if t.card is not None:
        del target["boxes"]  # the card's total: a file leaves it out
    target.update(_changed(t, TARGET_KEYS[TARGET_KEYS.index("terrain"):]))
    return target

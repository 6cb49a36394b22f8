"""Trade files (TOML) <-> :class:`~mathhammer.rules.trade.Trade`.

The format is docs/trades.md: ``[trade]`` (rounds, the side going first), ``[simulation]``
(trials, seed), ``[settings]`` as a scenario's, and two ``[[sides]]``, each with its
``[[sides.models]]``: a model's ``name``, the enemy models it ``attacks``, ``card`` (a library
card: its attacker and target tables), ``cripple_at`` on a damage track, and
``[sides.models.attacker]`` / ``[sides.models.target]``: the keys of a scenario's
``[[attackers]]`` entry and ``[target]`` (over the card's, when one is given). Every
problem is one line naming the file, the dotted key and the value.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from .._core.limits import DEFAULT_TRIALS, MAX_SEED, MAX_TRIALS
from .._core.paths import read_file
from .._core.validate import check_int, check_instance
from ..errors import InputError
from ..rules.trade import Side, Trade, TradeModel
from .dump import attacker_table, target_table
from .schema import ACTION_KEY, CARD_KEY, MISSING, RUN_SETTINGS_KEYS, ScenarioFileError
from .scenario_files import ScenarioReader
from .toml_text import parse_toml

__all__ = ["TradeReader", "load_trade", "loads_trade", "trade_from_dict", "trade_to_dict", "TRADE_MODEL_KEYS",
           "TRADE_SIDE_KEYS", "TRADE_SIMULATION_KEYS", "TRADE_TABLE_KEYS", "TRADE_TOP_KEYS"]

#: Keys of a trade file: its top tables, ``[trade]``, ``[simulation]``, ``[[sides]]`` and
#: ``[[sides.models]]`` (a model's ``attacker`` and ``target`` tables take the keys of a
#: scenario's ``[[attackers]]`` entry and ``[target]``, :mod:`.schema`).
TRADE_TOP_KEYS = ("trade", "simulation", "settings", "sides")
TRADE_TABLE_KEYS = ("rounds", "first", "play")
TRADE_SIMULATION_KEYS = ("trials", "seed")
TRADE_SIDE_KEYS = ("name", "models")
TRADE_MODEL_KEYS = ("name", "card", "action", "attacks", "cripple_at", "attacker", "target")


class TradeReader(ScenarioReader):
    """Reads one trade document, library cards included."""

    def trade(self, data: object) -> Trade:
        """The trade ``data`` describes."""
        if not isinstance(data, Mapping):
            raise self.error("", data, "a trade must be a table of keys")
        self.check_nulls(data, "")
        self.check_keys(data, "", TRADE_TOP_KEYS, "")
        kwargs = self.trade_simulation(data)
        kwargs.update(self.settings(data, RUN_SETTINGS_KEYS))
        table = self.table(data.get("trade", {}), "trade", "[trade]")
        self.check_keys(table, "trade", TRADE_TABLE_KEYS, "trade")
        kwargs.update({k: table[k] for k in TRADE_TABLE_KEYS if k in table})
        raw = self.require(data, "", "sides")
        if not isinstance(raw, list) or len(raw) != 2:
            raise self.error("sides", raw if not isinstance(raw, list) else len(raw),
                             "a trade has two sides: two [[sides]] tables")
        sides = [self.side(item, f"sides[{s}]") for s, item in enumerate(raw)]
        try:
            return Trade(sides, **kwargs)
        except InputError as err:
            raise self.wrap(err) from None

    def trade_simulation(self, data: Mapping) -> dict:
        """``trials`` and ``seed`` of ``[simulation]``: a trade's rounds are ``trade.rounds``."""
        sim = self.table(data.get("simulation", {}), "simulation", "[simulation]")
        for key, value in sim.items():
            if key in ("turns", "attack_turns", "objective"):
                raise self.error(f"simulation.{key}", value, "a trade's rounds are trade.rounds, "
                                 "and its objective is docs/trades.md's")
        self.check_keys(sim, "simulation", TRADE_SIMULATION_KEYS, "simulation")
        try:
            out = {"trials": check_int("simulation.trials", sim.get("trials", DEFAULT_TRIALS), 1, MAX_TRIALS)}
            if "seed" in sim:
                out["seed"] = check_int("simulation.seed", sim["seed"], 0, MAX_SEED)
        except InputError as err:
            raise self.wrap(err) from None
        return out

    def side(self, raw: object, prefix: str) -> Side:
        """One ``[[sides]]`` table."""
        table = self.table(raw, prefix, "[[sides]]")
        self.check_keys(table, prefix, TRADE_SIDE_KEYS, "side")
        name = self.require(table, prefix, "name")
        models = table.get("models", [])
        if not isinstance(models, list) or not models:
            raise self.error(f"{prefix}.models", models, "a side needs at least one model: "
                             "[[sides.models]] tables")
        out = [self.model(m, f"{prefix}.models[{i}]") for i, m in enumerate(models)]
        try:
            return Side(name, out)
        except InputError as err:
            raise self.wrap(err, prefix) from None

    def model(self, raw: object, prefix: str) -> TradeModel:
        """One ``[[sides.models]]`` table: its attacker and target, from its card and tables."""
        table = self.table(raw, prefix, "[[sides.models]]")
        self.check_keys(table, prefix, TRADE_MODEL_KEYS, "trade model")
        attacker = dict(self.table(table.get("attacker", {}), f"{prefix}.attacker", "[sides.models.attacker]"))
        target = dict(self.table(table.get("target", {}), f"{prefix}.target", "[sides.models.target]"))
        for part, tbl in (("attacker", attacker), ("target", target)):
            for key in ("name", CARD_KEY, ACTION_KEY):
                if key in tbl:
                    raise self.error(f"{prefix}.{part}.{key}", tbl[key],
                                     f"is the model's: give it as {prefix}.{key}")
        if CARD_KEY in table:
            self.card(table[CARD_KEY], f"{prefix}.{CARD_KEY}")  # a bad reference named here
            attacker[CARD_KEY] = target[CARD_KEY] = table[CARD_KEY]
            if ACTION_KEY in table:
                attacker[ACTION_KEY] = table[ACTION_KEY]
        elif ACTION_KEY in table:
            raise self.error(f"{prefix}.{ACTION_KEY}", table[ACTION_KEY], "picks the weapons of a library "
                             "card: only beside card = \"...\"")
        if "name" in table:
            attacker["name"] = table["name"]
        elif CARD_KEY not in table:
            raise self.error(f"{prefix}.name", MISSING, "required key is missing (attacks name models)")
        try:
            made = self.attacker(attacker, 0, f"{prefix}.attacker")
        except ScenarioFileError as err:
            if err.key != f"{prefix}.attacker.{ACTION_KEY}":
                raise
            # the action is the model's key: named as the file gives it
            raise self.error(f"{prefix}.{ACTION_KEY}", err.value, err.reason) from None
        defends = self.target_table(target, f"{prefix}.target")
        attacks = self.require(table, prefix, "attacks")
        if isinstance(attacks, str):
            attacks = [attacks]
        cripple_at = table.get("cripple_at", {})
        if not isinstance(cripple_at, Mapping):
            raise self.error(f"{prefix}.cripple_at", cripple_at, "must be a table of letter = damage "
                             "marked, e.g. { L = 20 }")
        try:
            return TradeModel(made, defends, attacks, dict(cripple_at), name=made.name)
        except InputError as err:
            raise self.wrap(err, prefix) from None


def trade_from_dict(data: dict, source: str = "<dict>", cards=None,
                    base: str | os.PathLike | None = None) -> Trade:
    """Build a :class:`~mathhammer.rules.trade.Trade` from the tables of a trade file.

    Examples
    --------
    >>> t = trade_from_dict({"trade": {"rounds": 2}, "sides": [
    ...     {"name": "Red", "models": [{"card": "heavy_warjack", "name": "Red jack", "attacks": "Blue jack"}]},
    ...     {"name": "Blue", "models": [{"card": "heavy_warjack", "name": "Blue jack", "attacks": "Red jack"}]}]})
    >>> t.rounds, t.first, t.sides[1].models[0].attacker.weapons[0].name
    (2, 'Red', 'Left fist')
    >>> trade_from_dict({"trade": {"rounds": 0}, "sides": []}, source="x.toml")
    Traceback (most recent call last):
    ...
    mathhammer.io.schema.ScenarioFileError: x.toml: sides: a trade has two sides: two [[sides]] tables (got 0)
    """
    return TradeReader(source, cards, base).trade(data)


def loads_trade(text: str, source: str = "<string>", cards=None,
                base: str | os.PathLike | None = None) -> Trade:
    """Parse trade TOML text (see :func:`trade_from_dict`)."""
    if not isinstance(text, str):
        raise InputError("text", text, "must be the TOML text of a trade (a str)")
    return trade_from_dict(parse_toml(text, source), source, cards, base)


def load_trade(path: str | os.PathLike, cards=None) -> Trade:
    """Read a trade TOML file; card paths relative to its folder."""
    if not isinstance(path, (str, os.PathLike)):
        raise InputError("path", path, "must be the path of a trade file")
    source = os.fspath(path)
    try:
        raw = read_file("path", path, "trade file")
    except InputError as err:
        raise ScenarioFileError(source, "", MISSING, err.reason) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioFileError(source, "", MISSING, f"not UTF-8 text (bad byte at offset {exc.start})") from None
    return loads_trade(text, source, cards, os.path.dirname(os.path.abspath(os.path.expanduser(source))))


def trade_to_dict(trade: Trade) -> dict:
    """The tables of a trade file for ``trade`` (inverse of :func:`trade_from_dict`): each
    model's attacker and target written out in full (no card reference).

    >>> t = trade_from_dict({"sides": [
    ...     {"name": "Red", "models": [{"card": "light_warjack", "name": "R", "attacks": "B",
    ...                                 "cripple_at": {"L": 3}, "target": {"boxes": 20}}]},
    ...     {"name": "Blue", "models": [{"card": "heavy_warjack", "name": "B", "attacks": ["R"]}]}]})
    >>> trade_from_dict(trade_to_dict(t)) == t
    True
    """
    check_instance("trade", trade, Trade, "a mathhammer Trade")
    sim: dict = {"trials": trade.trials}
    if trade.seed is not None:
        sim["seed"] = trade.seed
    out: dict = {"trade": {"rounds": trade.rounds, "first": trade.first, "play": trade.play}, "simulation": sim}
    settings = {k: getattr(trade, k) for k in RUN_SETTINGS_KEYS
                if getattr(trade, k) != Trade.__dataclass_fields__[k].default}
    if settings:
        out["settings"] = settings
    sides = []
    for side in trade.sides:
        models = []
        for m in side.models:
            attacker = attacker_table(m.attacker)
            target = target_table(m.target)
            del attacker["name"], target["name"]
            entry = {"name": m.name, "attacks": list(m.attacks)}
            if m.cripple_at:
                entry["cripple_at"] = dict(m.cripple_at)
            entry.update(attacker=attacker, target=target)
            models.append(entry)
        sides.append({"name": side.name, "models": models})
    out["sides"] = sides
    return out

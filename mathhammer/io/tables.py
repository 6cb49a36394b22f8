"""Reading the tables of a scenario or card file into rules objects, one key at a time.

:class:`TableReader` checks every key of ``[simulation]``, ``[settings]``, ``[target]``,
``[[attackers]]``, ``[attackers.spend]`` and ``[[attackers.weapons]]`` against the schema
(:mod:`.schema`) and turns the rules model's own :class:`~mathhammer.errors.InputError` into
a one-line :class:`~mathhammer.io.schema.ScenarioFileError` naming the file, the key and the
value.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._core.limits import DEFAULT_TRIALS, MAX_SEED, MAX_TRIALS
from .._core.validate import check_bool, check_choice, check_int
from ..errors import InputError
from ..rules import Attacker, Scenario, Spend, Target, Weapon
from ..rules.scenario import MAX_TURNS, check_objective
from ..rules.target import MAX_BOXES, MAX_POINTS
from ..rules.vocabulary import ATTACK_TURNS, BRUTAL_DAMAGE_ON, DAMAGE_TYPES, READINGS, WEAPON_RULES
from .schema import (
    ACTION_KEY,
    buy_weapon_reason,
    ATTACKER_KEYS,
    ATTACKER_PLAIN,
    CARD_KEY,
    MISSING,
    SETTINGS_KEYS,
    SIMULATION_KEYS,
    SPEND_KEYS,
    TARGET_KEYS,
    TARGET_LIST_HINTS,
    TARGET_LISTS,
    TARGET_PLAIN,
    TOP_KEYS,
    WEAPON_KEYS,
    ScenarioFileError,
    unknown_key_reason,
)

__all__ = ["TableReader", "join_key"]


def join_key(prefix: str, key: str) -> str:
    """The dotted key of ``key`` in the table at ``prefix``.

    >>> join_key("target", "def"), join_key("", "target")
    ('target.def', 'target')
    """
    return f"{prefix}.{key}" if prefix else key


class TableReader:
    """Reads the tables of one document (a scenario file, a card file) into rules objects,
    remembering the source name for its errors. Every problem is a :class:`~mathhammer.io.schema.ScenarioFileError` naming the source,
    the dotted key and the value. Card references (``card = ...``) are refused here:
    :class:`~mathhammer.io.scenario_files.ScenarioReader` overrides :meth:`card_target` and
    :meth:`card_attacker` to resolve them.
    """

    def __init__(self, source: str):
        self.source = source
        #: attackers and weapons (their key prefixes) that named one target with ``target``
        self.one_target: set[str] = set()

    def error(self, key: str, value: object, reason: str) -> ScenarioFileError:
        return ScenarioFileError(self.source, key, value, reason)

    def wrap(self, err: InputError, prefix: str = "") -> ScenarioFileError:
        return ScenarioFileError.wrap(self.source, err, prefix)

    def table(self, value: object, key: str, hint: str) -> Mapping:
        if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            raise self.error(key, value, f"must be a table ({hint}), not an array of tables")
        if not isinstance(value, Mapping):
            raise self.error(key, value, f"must be a table ({hint})")
        return value

    def check_keys(self, table: Mapping, prefix: str, allowed: tuple[str, ...], kind: str = "") -> None:
        for k, v in table.items():
            if k not in allowed:
                raise self.error(join_key(prefix, str(k)), v, unknown_key_reason(str(k), allowed, kind))

    def require(self, table: Mapping, prefix: str, key: str) -> object:
        if key not in table:
            raise self.error(join_key(prefix, key), MISSING, "required key is missing")
        return table[key]

    def name_list(self, table: Mapping, prefix: str, key: str, choices: tuple[str, ...],
                  hints: Mapping[str, str] | None = None) -> list:
        """A list of names from ``choices``, checked here in file order (the dataclasses
        turn it into a set first, so their error would name an arbitrary index). ``hints``:
        for a name that belongs in another list, what to say instead of a close name."""
        value = table.get(key, [])
        full = join_key(prefix, key)
        if isinstance(value, str):
            raise self.error(full, value, f"must be a list of strings, e.g. [{value!r}]")
        if not isinstance(value, list):
            raise self.error(full, value, "must be a list of strings")
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise self.error(f"{full}[{i}]", item, "must be a string")
            try:
                check_choice(f"{full}[{i}]", item, choices)
            except InputError as err:
                if hints and item in hints:
                    raise self.error(err.key, item, f"{err.reason}; {hints[item]}") from None
                raise self.wrap(err) from None
        return value

    # ------------------------------------------------------------------ sections
    def simulation(self, data: Mapping) -> dict:
        """Keyword arguments of :class:`Scenario` from ``[simulation]``."""
        if "simulation" not in data:
            return {"trials": DEFAULT_TRIALS}
        sim = self.table(data["simulation"], "simulation", "[simulation]")
        self.check_keys(sim, "simulation", SIMULATION_KEYS, "simulation")
        out = {}
        try:
            out["trials"] = check_int("simulation.trials", sim.get("trials", DEFAULT_TRIALS), 1, MAX_TRIALS)
            if sim.get("seed") is not None:
                out["seed"] = check_int("simulation.seed", sim["seed"], 0, MAX_SEED)
            if "objective" in sim:
                objective = sim["objective"]
                if not _is_cripple(objective):
                    # kill | damage: checked now; cripple:X once the target's card is known
                    check_objective("simulation.objective", objective, _NO_CARD)
                out["objective"] = objective
            if "turns" in sim:
                out["turns"] = check_int("simulation.turns", sim["turns"], 1, MAX_TURNS)
            if "attack_turns" in sim:
                out["attack_turns"] = check_choice("simulation.attack_turns", sim["attack_turns"],
                                                   ATTACK_TURNS)
        except InputError as err:
            raise self.wrap(err) from None
        return out

    def objective(self, objective: object, target: Target) -> None:
        """Check ``cripple:X`` against the target's grid or spiral."""
        try:
            check_objective("simulation.objective", objective, target)
        except InputError as err:
            reason = err.reason
            letter = str(objective).split(":", 1)[1].strip()
            if not letter and target.letters:
                reason = ("names no system or aspect: write cripple:X with X one of "
                          + ", ".join(target.letters))
            for x in target.letters:
                if x.casefold() == letter.casefold() and f"cripple:{x}" != objective:
                    reason += f"; did you mean 'cripple:{x}'?"
            raise self.error(err.key, err.value, reason) from None

    def settings(self, data: Mapping, keys: tuple[str, ...] = SETTINGS_KEYS) -> dict:
        """Keyword arguments of :class:`Scenario` from ``[settings]`` (``keys``: those the
        document takes; a trade's, :data:`~.schema.RUN_SETTINGS_KEYS`)."""
        if "settings" not in data:
            return {}
        settings = self.table(data["settings"], "settings", "[settings]")
        self.check_keys(settings, "settings", keys, "settings")
        out = {}  # brutal_damage, and the open readings (docs/rules.md, "Readings")
        try:
            if "brutal_damage" in settings:
                out["brutal_damage"] = check_choice("settings.brutal_damage", settings["brutal_damage"],
                                                    BRUTAL_DAMAGE_ON)
            out.update({k: check_bool(f"settings.{k}", settings[k]) for k in READINGS if k in settings})
            if "power_field_per_attack" in settings:
                out["power_field_per_attack"] = check_int("settings.power_field_per_attack",
                                                          settings["power_field_per_attack"], 0, MAX_POINTS)
            if "rapid_healing_when_hit" in settings:
                out["rapid_healing_when_hit"] = check_bool("settings.rapid_healing_when_hit",
                                                           settings["rapid_healing_when_hit"])
        except InputError as err:
            raise self.wrap(err) from None
        return out

    # ------------------------------------------------------------------ card references
    def card_target(self, tgt: Mapping, prefix: str = "target") -> Mapping:
        """``[target]`` with ``card = ...``: refused here (a card file, or a table read on its
        own); :class:`~mathhammer.io.scenario_files.ScenarioReader` resolves references."""
        raise self.error(f"{prefix}.{CARD_KEY}", tgt[CARD_KEY], "a card cannot refer to another card")

    def card_attacker(self, att: Mapping, prefix: str, taken: set[str]) -> Mapping:
        """``[[attackers]]`` with ``card = ...``: refused here, as :meth:`card_target`."""
        raise self.error(f"{prefix}.{CARD_KEY}", att[CARD_KEY], "a card cannot refer to another card")

    def target(self, data: Mapping) -> Target:
        raw = self.require(data, "", "target")
        if isinstance(raw, list):
            raise self.error("target", raw, "must be a table ([target]), not an array "
                             "([[target]]); several targets are [[targets]]")
        return self.target_table(raw, "target")

    def targets(self, data: Mapping) -> list[Target]:
        """The targets: ``[target]``, or several as ``[[targets]]`` (each with a name)."""
        if "targets" not in data:
            return [self.target(data)]
        if "target" in data:
            raise self.error("targets", "[[targets]]", "give [target] (one target) or [[targets]] "
                             "(several), not both")
        raw = data["targets"]
        if not isinstance(raw, list) or not raw:
            raise self.error("targets", raw, "must be an array of tables ([[targets]]), at least "
                             "one; one target is [target]")
        out = []
        for g, item in enumerate(raw):
            prefix = f"targets[{g}]"
            tgt = self.table(item, prefix, "[[targets]]")
            if "name" not in tgt and CARD_KEY not in tgt:
                raise self.error(f"{prefix}.name", MISSING, "each of several targets needs a name "
                                 "(attacks and figures name them)")
            out.append(self.target_table(tgt, prefix))
        return out

    def target_table(self, raw: object, prefix: str) -> Target:
        """One target's table (``[target]`` or an entry of ``[[targets]]``)."""
        tgt = self.table(raw, prefix, "[target]")
        if CARD_KEY in tgt:
            tgt = self.card_target(tgt, prefix)
        self.check_keys(tgt, prefix, TARGET_KEYS, "target")
        kwargs = {
            "defense": self.require(tgt, prefix, "def"),
            "arm": self.require(tgt, prefix, "arm"),
        }
        for key, choices in TARGET_LISTS.items():
            kwargs[key] = self.name_list(tgt, prefix, key, choices, TARGET_LIST_HINTS.get(key))
        for key in TARGET_PLAIN:
            if key in tgt:
                kwargs[key] = tgt[key]
        card = tgt.get("grid") is not None or tgt.get("spiral") is not None
        if card:
            # With a card, boxes is its total: the file leaves it out or gives that number
            # (checked below; Target would also take 1, its default).
            kwargs.pop("boxes", None)
        try:
            target = Target(**kwargs)
            if card and "boxes" in tgt:
                check_int("boxes", tgt["boxes"], 1, MAX_BOXES)
        except InputError as err:
            raise self.wrap(err, prefix) from None
        if target.unit and "power_field" in tgt:
            raise self.error(f"{prefix}.power_field", tgt["power_field"],
                             f"a unit target ({target.models} models) has no focus or fury to "
                             "spend: power_field is for a single model")
        if card and "boxes" in tgt and tgt["boxes"] != target.boxes:
            raise self.error(f"{prefix}.boxes", tgt["boxes"],
                             f"with a {target.capacity}, boxes is its number of boxes "
                             f"({target.boxes}): leave it out or give {target.boxes}")
        return target

    def weapon(self, raw: object, prefix: str) -> Weapon:
        wpn = self.table(raw, prefix, "[[attackers.weapons]]")
        self.check_keys(wpn, prefix, WEAPON_KEYS, "weapon")
        kwargs = {key: self.require(wpn, prefix, key) for key in ("name", "type", "skill", "pow")}
        pow_ = kwargs["pow"]
        if isinstance(pow_, str):
            if pow_.strip() != "-":
                raise self.error(f"{prefix}.pow", pow_, 'must be an integer or "-"')
            kwargs["pow"] = None
        kwargs["damage_type"] = self.name_list(wpn, prefix, "damage_type", DAMAGE_TYPES)
        kwargs["rules"] = self.name_list(wpn, prefix, "rules", WEAPON_RULES)
        for key in WEAPON_KEYS:
            if key in wpn and key not in kwargs and key != "target":
                kwargs[key] = wpn[key]
        self.route(wpn, prefix, kwargs)
        try:
            return Weapon(**kwargs)
        except InputError as err:
            if err.key == "crippled" and isinstance(err.value, list):
                raise self.error(f"{prefix}.crippled", err.value,
                                 "must be true or false (a crippled weapon system); the attacker's "
                                 "crippled systems or aspects go in [[attackers]] as crippled = [...]"
                                 ) from None
            raise self.wrap(err, prefix) from None

    def route(self, table: Mapping, prefix: str, kwargs: dict) -> None:
        """``target = "Name"`` or ``targets = [...]`` of an attacker or weapon (several
        targets) into ``kwargs["targets"]``."""
        if "target" in table and "targets" in table:
            raise self.error(f"{prefix}.target", table["target"], "give target (one) or targets "
                             "(the first still standing), not both")
        if "target" in table:
            name = table["target"]
            if not isinstance(name, str) or not name:
                raise self.error(f"{prefix}.target", name, "must be the name of a target; "
                                 "several in order are targets = [...]")
            kwargs["targets"] = (name,)
            self.one_target.add(prefix)
        elif "targets" in table:
            kwargs["targets"] = table["targets"]

    def spend(self, att: Mapping, prefix: str) -> Spend:
        """The ``[attackers.spend]`` table; absent: the default policy."""
        if "spend" not in att:
            return Spend()
        key = f"{prefix}.spend"
        table = self.table(att["spend"], key, "[attackers.spend]")
        self.check_keys(table, key, SPEND_KEYS, "spend")
        try:
            return Spend(**{k: table[k] for k in SPEND_KEYS if k in table})
        except InputError as err:
            # Spend names its keys "spend.x"; put the attacker in front.
            raise self.wrap(err, prefix if err.key.startswith("spend.") else key) from None

    def weapon_list(self, att: Mapping, prefix: str) -> list:
        """The (required) ``weapons`` array of an attacker table, unchecked items."""
        raw_weapons = self.require(att, prefix, "weapons")
        if isinstance(raw_weapons, Mapping):
            raise self.error(f"{prefix}.weapons", raw_weapons,
                             "must be an array of tables ([[attackers.weapons]]), not a table")
        if not isinstance(raw_weapons, list):
            raise self.error(f"{prefix}.weapons", raw_weapons,
                             "must be an array of tables ([[attackers.weapons]])")
        return raw_weapons

    def attacker(self, raw: object, index: int, prefix: str | None = None,
                 taken: set[str] | None = None) -> Attacker:
        """One ``[[attackers]]`` entry; ``prefix`` names it in errors (default
        ``attackers[index]``); ``taken``: names of the attackers before it."""
        prefix = prefix or f"attackers[{index}]"
        att = self.table(raw, prefix, "[[attackers]]")
        if CARD_KEY in att:
            att = self.card_attacker(att, prefix, taken or set())
        elif ACTION_KEY in att:
            raise self.error(f"{prefix}.{ACTION_KEY}", att[ACTION_KEY],
                             "picks the weapons of a library card: only beside card = \"...\"")
        self.check_keys(att, prefix, ATTACKER_KEYS, "attacker")
        name = att.get("name", f"Attacker {index + 1}")
        raw_weapons = self.weapon_list(att, prefix)
        weapons = [self.weapon(w, f"{prefix}.weapons[{j}]") for j, w in enumerate(raw_weapons)]
        kwargs = {key: att[key] for key in ATTACKER_PLAIN if key in att}
        if "crippled" in att:
            crippled = att["crippled"]
            key = f"{prefix}.crippled"
            if isinstance(crippled, bool):
                raise self.error(key, crippled, "must be a list of system or aspect letters, e.g. "
                                 "['L']; a crippled weapon is crippled = true in [[attackers.weapons]]")
            if isinstance(crippled, str):
                example = list(crippled) if 0 < len(crippled) <= 3 and crippled.isupper() else ["L"]
                raise self.error(key, crippled, "must be a list of system or aspect letters, "
                                 f"e.g. {example!r}")
            if not isinstance(crippled, list):
                raise self.error(key, crippled, "must be a list of system or aspect letters")
        self.route(att, prefix, kwargs)
        if "spend" in att:
            # a spend table without a policy key is followed as given (policy "fixed")
            kwargs["spend"] = self.spend(att, prefix)
        try:
            return Attacker(name, weapons, **kwargs)
        except InputError as err:
            if err.key == "buy_weapon" and isinstance(err.value, str):
                raise self.error(f"{prefix}.buy_weapon", err.value,
                                 buy_weapon_reason(err.value, weapons)) from None
            raise self.wrap(err, prefix) from None

    def attackers(self, data: Mapping) -> list[Attacker]:
        raw = self.require(data, "", "attackers")
        if isinstance(raw, Mapping):
            raise self.error("attackers", raw, "must be an array of tables ([[attackers]]), not a table")
        if not isinstance(raw, list):
            raise self.error("attackers", raw, "must be an array of tables ([[attackers]])")
        if not raw:
            raise self.error("attackers", raw, "at least one attacker is needed")
        out: list[Attacker] = []
        for i, a in enumerate(raw):
            out.append(self.attacker(a, i, taken={x.name for x in out}))
        return out

    def scenario(self, data: object) -> Scenario:
        if not isinstance(data, Mapping):
            raise self.error("", data, "a scenario must be a table of keys")
        self.check_keys(data, "", TOP_KEYS, "")
        kwargs = self.simulation(data)
        kwargs.update(self.settings(data))
        targets = self.targets(data)
        if "objective" in kwargs and len(targets) == 1:  # several: Scenario says why not
            self.objective(kwargs["objective"], targets[0])
        attackers = self.attackers(data)
        try:
            (scenario := Scenario(targets, attackers, **kwargs)).check_damage_to()
            return scenario
        except InputError as err:
            # a route naming no target: the key the file wrote (``target``, or ``targets[k]``)
            where = err.key.rsplit(".targets[0]", 1)[0]
            if err.key.endswith(".targets[0]") and where in self.one_target:
                raise self.error(f"{where}.target", err.value, err.reason) from None
            raise self.wrap(err) from None


_NO_CARD = Target(defense=0, arm=0)


def _is_cripple(objective: object) -> bool:
    """``cripple:X`` in any case: checked against the target's card, not the fixed list."""
    return isinstance(objective, str) and objective.strip().casefold().startswith("cripple:")

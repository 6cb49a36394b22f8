"""A scenario: attackers acting in order against one target, and simulation settings."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .._core.limits import DEFAULT_TRIALS, MAX_SEED, MAX_TARGETS, MAX_TRIALS
from .._core.validate import check_bool, check_choice, check_int, plain_ints
from ..errors import InputError
from .vocabulary import ATTACK_TURNS, BRUTAL_DAMAGE_ON, OBJECTIVES, READINGS
from .attacker import Attacker
from .battlegroup import battlegroups
from .power import check_power_attacks, slam_mod
from .slots import AttackSlot, kept_actions
from .target import MAX_POINTS, Target
from .weapon import Weapon

__all__ = ["Scenario", "MAX_SLOTS", "MAX_TURNS", "check_objective", "check_run"]

MAX_SLOTS = 4096
MAX_TURNS = 20


def check_run(obj) -> None:
    """The run settings a scenario and a trade share: ``trials``, ``seed``, ``brutal_damage``
    and the open readings (:data:`~mathhammer.rules.vocabulary.READINGS`), named by their
    file keys."""
    check_int("simulation.trials", obj.trials, 1, MAX_TRIALS)
    if obj.seed is not None:
        check_int("simulation.seed", obj.seed, 0, MAX_SEED)
    check_choice("settings.brutal_damage", obj.brutal_damage, BRUTAL_DAMAGE_ON)
    for key in READINGS:
        check_bool(f"settings.{key}", getattr(obj, key))


def check_objective(key: str, objective: object, target: Target) -> str:
    """``kill``, ``damage`` or ``cripple:X`` with X a letter of the target's grid or spiral."""
    if isinstance(objective, str) and objective.startswith("cripple:"):
        letter = objective.split(":", 1)[1]
        if letter not in target.letters:
            have = ", ".join(target.letters) or "none: the target has no grid or spiral"
            raise InputError(key, objective, f"the target's card has no system or aspect "
                             f"{letter!r} (it has {have})")
        return objective
    if objective not in ("kill", "damage", "destroyed"):
        raise InputError(key, objective, "must be one of " + ", ".join(OBJECTIVES))
    return objective


@dataclass(frozen=True)
class Scenario:
    """Attackers, in the order they act, against one target (or several).

    Parameters
    ----------
    target : Target or sequence of Target
        The target; a list or tuple of them: several targets (``targets``), each named.
    attackers : sequence of Attacker
    trials : int
        Default Monte Carlo sample size (1,000,000).
    seed : int or None
        Default seed; ``None`` draws one at simulation time and reports it.
    brutal_damage : {"critical", "hit"}
        Setting: Brutal Damage adds its die on a critical hit (default) or on any hit.
    turns : int
        Rounds simulated (default 1): each, the attack sequence (every turn, or only the
        first: ``attack_turns``), then the target's maintenance phase (continuous effects)
        and activation (hazards). docs/activation.md, "Several turns".
    attack_turns : {"all", "first"}
    objective : {"kill", "damage", "destroyed", "cripple:X"}
        What best play (and ``policy = "optimize"``) maximises: kill probability (a unit:
        every model destroyed), expected damage, expected models destroyed (a unit's), or
        the probability system / aspect X of the target's grid or spiral ends crippled.
    targets : tuple of Target
        Several targets (docs/units.md), ``target`` first: an attack goes to the first target
        of its route (:attr:`AttackSlot.route`) still standing, and the kill is every target
        destroyed. Given through ``target`` as a list, or here with ``target`` their first.
    knockdown_before_tough, crit_counts_discarded, arm_minus_stacks_same_weapon, \
    dispel_from_next_attack, single_die_one_misses : bool
        Settings for the open readings (docs/rules.md, "Readings"; all False, today's): a
        knockdown landing with the disabling hit already stops that hit's Tough roll; a
        critical hit counts the dice discarded from the attack roll; a weapon's -X ARM stacks
        with itself; Dispel ends upkeep ARM from the next attack on, not on its own damage
        roll; one kept attack die showing 1 misses.
    power_field_per_attack : int
        Setting: the most focus or fury a target's power field spends on one damage roll
        (an attack's, fire's, corrosion's, quicksand's); 0 (the default): no limit.
    rapid_healing_when_hit : bool
        Setting: Rapid Healing heals after every damaging hit the target survives, judged on
        its damage roll: after a Tough save, and after damage its power field prevented, too
        (default False: after a hit that marked boxes and left the target standing). Damage
        tracks only (a grid's or spiral's healing order is not modelled for it).

    Examples
    --------
    >>> s = Scenario(Target(defense=12, arm=18, boxes=30),
    ...              [Attacker("Jack", [Weapon("Fist", "melee", 7, 16, attacks=2)])])
    >>> [slot.label for slot in s.attack_sequence()]
    ['Jack / Fist #1', 'Jack / Fist #2']
    """

    target: Target
    attackers: tuple[Attacker, ...]
    trials: int = DEFAULT_TRIALS
    seed: int | None = None
    brutal_damage: str = "critical"
    objective: str = "kill"
    turns: int = 1
    attack_turns: str = "all"
    targets: tuple[Target, ...] = ()
    knockdown_before_tough: bool = False
    crit_counts_discarded: bool = False
    arm_minus_stacks_same_weapon: bool = False
    dispel_from_next_attack: bool = False
    single_die_one_misses: bool = False
    power_field_per_attack: int = 0
    rapid_healing_when_hit: bool = False

    def __post_init__(self):
        plain_ints(self)  # NumPy's integers read as ints
        if isinstance(self.attackers, (list, tuple)):
            object.__setattr__(self, "attackers", tuple(self.attackers))
        self._check_targets()
        if not isinstance(self.attackers, tuple) or not self.attackers:
            raise InputError("attackers", self.attackers, "at least one attacker is needed")
        _distinct("attackers", self.attackers, Attacker, "figures are reported by name")
        if not any(t.colossal for t in self.targets):
            for i, a in enumerate(self.attackers):
                if a.side != "random":
                    raise InputError(f"attackers[{i}].side", a.side, "says which grid of a colossal its "
                                     "damage goes to, and no target is a colossal")
        check_run(self)
        self._check_target_settings()
        check_int("simulation.turns", self.turns, 1, MAX_TURNS)
        check_choice("simulation.attack_turns", self.attack_turns, ATTACK_TURNS)
        if self.several and isinstance(self.objective, str) and self.objective.startswith("cripple:"):
            raise InputError("simulation.objective", self.objective,
                             "cripple:X is for one target (with several, best play aims at "
                             "kill, damage or destroyed)")
        check_objective("simulation.objective", self.objective, self.target)
        if self.several:
            for i, a in enumerate(self.attackers):
                for j, w in enumerate(a.weapons):
                    for rule in sorted(w.rules & {"sustained_attack", "critical_sustained_attack"}):
                        raise InputError(f"attackers[{i}].weapons[{j}].rules", rule,
                                         "is modelled against one target (not yet with several)")
        self._check_routes()
        battlegroups(self.attackers)
        check_power_attacks(self)
        n = self.n_attacks
        if n == 0:
            raise InputError("attackers", n, "the attackers make no attacks")
        if n > MAX_SLOTS:
            raise InputError("attackers", n, f"at most {MAX_SLOTS} attacks in one sequence")

    def _check_target_settings(self) -> None:
        """``power_field_per_attack`` (0 .. the most points a target may have) and
        ``rapid_healing_when_hit`` (damage tracks only)."""
        check_int("settings.power_field_per_attack", self.power_field_per_attack, 0, MAX_POINTS)
        for t in self.targets:
            shred = any("shred" in w.rules for a in self.attackers for w in a.weapons)
            if t.guard_blocks and (self.several or t.models > 1 or self.turns > 1 or shred):
                raise InputError("target.guard_blocks", t.guard_blocks,
                                 "is modelled for one target of one model over one round, without Shred "
                                 "(several targets: shield_guard)")
        check_bool("settings.rapid_healing_when_hit", self.rapid_healing_when_hit)
        if self.rapid_healing_when_hit:
            for t in self.targets:
                if t.rapid_healing and t.card is not None:
                    raise InputError("settings.rapid_healing_when_hit", True,
                                     f"is modelled on damage tracks (target {t.name!r} has a {t.capacity} "
                                     "and Rapid Healing)")

    def _check_targets(self) -> None:
        """``target`` and ``targets``: a Target, or several with distinct names."""
        if isinstance(self.target, (list, tuple)):
            object.__setattr__(self, "targets", tuple(self.target))
            if not self.targets:
                raise InputError("targets", [], "at least one target is needed")
            object.__setattr__(self, "target", self.targets[0])
        if not isinstance(self.target, Target):
            raise InputError("target", self.target, "must be a Target")
        if isinstance(self.targets, list):
            object.__setattr__(self, "targets", tuple(self.targets))
        if not isinstance(self.targets, tuple):
            raise InputError("targets", self.targets, "must be a list of Target")
        if not self.targets:
            object.__setattr__(self, "targets", (self.target,))
        elif self.targets[0] != self.target:
            # the first target is ``target``: dataclasses.replace(scenario, target=...) gives a
            # new first target; of several, another one named would be dropped: refused
            first = self.targets[0]
            if len(self.targets) > 1 and isinstance(first, Target) and first.name != self.target.name:
                raise InputError("targets", [getattr(t, "name", t) for t in self.targets],
                                 f"lists every target, the first being target ({self.target.name!r}): "
                                 "give targets=(target, ...), or the list as target")
            object.__setattr__(self, "targets", (self.target,) + self.targets[1:])
        if len(self.targets) > MAX_TARGETS:
            raise InputError("targets", len(self.targets), f"at most {MAX_TARGETS} targets")
        _distinct("targets", self.targets, Target, "attacks and figures name them")
        cards = []
        for g, t in enumerate(self.targets):
            if t.card is not None:
                cards.append(g)
            if len(self.targets) > 1 and t.hazards:
                raise InputError(f"targets[{g}].terrain", sorted(t.hazards),
                                 "hazards are modelled for a single target (not yet with several)")
        self._check_guards()
        if len(cards) > 1:
            raise InputError(f"targets[{cards[1]}]", self.targets[cards[1]].name,
                             "at most one of several targets has a damage grid or life spiral "
                             f"(also {self.targets[cards[0]].name!r})")

    def _check_guards(self) -> None:
        """Shield Guard names other targets of the scenario, each guarded by one at most."""
        names = [t.name for t in self.targets]
        guarded: dict[str, str] = {}
        for g, t in enumerate(self.targets):
            for k, name in enumerate(t.shield_guard):
                key = (f"targets[{g}]" if len(self.targets) > 1 else "target") + f".shield_guard[{k}]"
                if len(self.targets) == 1:
                    raise InputError(key, name, "Shield Guard guards another target: give several [[targets]]")
                if name not in names:
                    raise InputError(key, name, "names no target: the targets are "
                                     + ", ".join(repr(x) for x in names))
                if name in guarded:
                    raise InputError(key, name, f"is guarded by {guarded[name]!r} already (one guard a target)")
                guarded[name] = t.name

    def _check_routes(self) -> None:
        """Every name in an attacker's or weapon's ``targets`` is one of the targets."""
        names = [t.name for t in self.targets]
        for i, a in enumerate(self.attackers):
            where = [(f"attackers[{i}].targets", a.targets)]
            where += [(f"attackers[{i}].weapons[{j}].targets", w.targets) for j, w in enumerate(a.weapons)]
            for key, route in where:
                for k, name in enumerate(route):
                    if name not in names:
                        raise InputError(f"{key}[{k}]", name, "names no target: the targets are "
                                         + ", ".join(repr(x) for x in names))

    def check_damage_to(self) -> None:
        """"Damage to system X" needs X on the card of a target its attacks can go to (else
        it would never change a thing: refused rather than silently ignored). Asked where a
        scenario comes in (a file, :func:`mathhammer.simulate`), not on construction: best
        play's relaxation puts the same attacks against a damage track."""
        for i, a in enumerate(self.attackers):
            for j, w in enumerate(a.weapons):
                if w.damage_to is None:
                    continue
                route = self.route_of(a, w) or range(len(self.targets))
                if not any(w.damage_to in self.targets[g].letters for g in route):
                    have = "; ".join(f"{self.targets[g].name!r}: " + (", ".join(self.targets[g].letters) or
                                     ("no grid or spiral" if self.targets[g].card is None else "no system"))
                                     for g in route)
                    raise InputError(f"attackers[{i}].weapons[{j}].damage_to", w.damage_to,
                                     f"no target of its attacks has it on its card ({have})")

    @property
    def several(self) -> bool:
        """Whether there are several targets."""
        return len(self.targets) > 1

    @property
    def card_target(self) -> Target:
        """The target whose damage grid or life spiral the card figures are about (at most
        one of several has one), else the first."""
        return next((t for t in self.targets if t.card is not None), self.target)

    @property
    def total_boxes(self) -> int:
        """Boxes of every model of every target (the whole scenario's damage capacity)."""
        return sum(t.boxes * t.models for t in self.targets)

    @property
    def total_models(self) -> int:
        """Models of every target."""
        return sum(t.models for t in self.targets)

    def route_of(self, attacker: Attacker, weapon: Weapon) -> tuple[int, ...]:
        """The targets (indices) an attack of ``weapon`` by ``attacker`` goes to, in order:
        the weapon's ``targets``, else the attacker's, else every target (empty: the
        scenario's order)."""
        names = weapon.targets or attacker.targets
        if not names:
            return ()
        index = {t.name: g for g, t in enumerate(self.targets)}
        route = tuple(index[x] for x in names)
        return () if route == tuple(range(len(self.targets))) else route

    def attack_sequence(self) -> tuple[AttackSlot, ...]:
        """Every attack that may be made, in order: attackers in order; for each, its weapons'
        initial attacks in order (a spell's casts in its place), then the attacks it may buy
        (docs/rules.md 5): additional melee attacks, or its ranged weapons' reloads, weapon by
        weapon."""
        out = []
        for ai, a in enumerate(self.attackers):
            out += kept_actions(ai, a)  # an attacker equal to one seen before: its slots
        if self.several:
            out = [dataclasses.replace(s, route=self.route_of(s.attacker, s.weapon)) for s in out]
        return tuple(dataclasses.replace(s, attack_mod=slam_mod(self, s.attacker, s.weapon))
                     if s.weapon.power_attack == "slam" and not s.collateral else s for s in out)

    def knockdown_first(self, weapon: Weapon) -> bool:
        """Whether ``weapon``'s knockdown lands before its own damage roll, so that it stops
        that roll's Tough: a power attack's always (docs/rules.md 5), any weapon's with the
        setting ``knockdown_before_tough``."""
        return self.knockdown_before_tough or weapon.knockdown_first

    @property
    def attack_rounds(self) -> int:
        """Turns in which the attackers attack: all of them, or the first only."""
        return self.turns if self.attack_turns == "all" else 1

    @property
    def continuous(self) -> bool:
        """Whether continuous effects or hazards can happen at all in this scenario (on any
        of its targets)."""
        put = self._effects_put()
        return any(t.effects or t.hazards or put - t.resist for t in self.targets)

    def _effects_put(self) -> frozenset[str]:
        """The continuous effects a hit of any attacker's weapon can put on (a critical
        one's included), before any target's resistances."""
        return frozenset().union(*[w.sets_effects(True) for a in self.attackers
                                   for w in a.weapons])

    @property
    def possible_effects(self) -> tuple[str, ...]:
        """Continuous effects and hazards that can put damage on the target, in the order
        ``fire``, ``corrosion``, ``quicksand``: one it starts with, one a weapon's hit can
        put on it (unless it resists), one a hazard gives it (burning earth: fire; an acid
        bath: corrosion), and quicksand; with several targets, on any of them."""
        out = []
        put = self._effects_put()
        for effect, hazard in (("fire", "burning_earth"), ("corrosion", "acid_bath")):
            if any(effect in t.effects or (t.suffers(effect) and (
                    hazard in t.hazards or effect in put)) for t in self.targets):
                out.append(effect)
        if any("quicksand" in t.hazards for t in self.targets):
            out.append("quicksand")
        return tuple(out)

    @property
    def n_attacks(self) -> int:
        """Slots of :meth:`attack_sequence` (initial attacks and attacks that may be bought)."""
        return sum((a.attack_count + a.paid_count + int(a.power_weapon is not None
                                                        and a.power_weapon.collateral is not None))
                   * len(a.groups) for a in self.attackers)


def _distinct(key: str, items: tuple, kind: type, why: str) -> None:
    """Each of ``items`` is a ``kind``, and no two have the same name (``why`` they must not)."""
    names: set[str] = set()
    for i, x in enumerate(items):
        if not isinstance(x, kind):
            article = "an" if kind.__name__[0] in "AEIOU" else "a"
            raise InputError(f"{key}[{i}]", x, f"must be {article} {kind.__name__}")
        if x.name.casefold() in names:  # "Guard" and "guard" read as one in a report
            case = "" if x.name in (y.name for y in items[:i]) else " (letter case aside)"
            raise InputError(f"{key}[{i}].name", x.name, f"two {key} have this name{case}: {why}")
        names.add(x.name.casefold())

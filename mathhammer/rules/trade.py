"""A trade: two sides taking turns over rounds, each model both an attacker and a target.

A round is the first side's turn, then the other's. In a side's turn its continuous effects
are resolved (the maintenance phase), its models' points refresh (the control phase), and
its models standing activate in the order listed: a knocked-down model stands up (it
forfeits its movement: no charge), then makes its combat action against the first model of
its ``attacks`` still standing, with what the damage it has taken leaves it (a crippled
weapon system rolls one die fewer, a crippled Cortex has no focus, ...: the model's crippled
systems, :attr:`Attacker.crippled`). The trade ends when every model of a side is destroyed,
or after ``rounds``. docs/trades.md is the reference.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .._core.limits import DEFAULT_TRIALS
from .._core.validate import check_choice, check_int, check_name, plain_ints
from ..errors import InputError
from .attacker import Attacker
from .scenario import MAX_TURNS, check_run
from .target import MAX_BOXES, Target
from .vocabulary import GRID_LETTERS, READINGS, SPIRAL_LETTERS

__all__ = ["Side", "Trade", "TradeModel", "MAX_SIDE_MODELS", "TRADE_PLAY", "TRADE_TARGET_RULES",
           "TRADE_WEAPON_RULES"]

#: Most models (single models or units) on one side of a trade.
MAX_SIDE_MODELS = 8
#: The target rules and the weapon rules a trade models (:meth:`TradeModel.unmodelled`).
TRADE_TARGET_RULES = frozenset({"tough", "tough_steady", "unyielding", "carapace"})
TRADE_WEAPON_RULES = frozenset({"knockdown", "critical_knockdown", "fire", "corrosion", "critical_fire",
                                "critical_corrosion"})


@dataclass(frozen=True)
class TradeModel:
    """One model (or unit) of a side: how it attacks, how it defends, whom it attacks.

    Parameters
    ----------
    attacker : Attacker
        Its combat action: weapons, focus / fury / forcing, spending policy, ``charge`` (its
        first activation's first melee attack is a charge attack), ``models`` (a unit).
    target : Target
        Its defence: DEF, ARM, damage track, grid or spiral, rules, ``models`` (a unit: the
        same number as its attacker's).
    attacks : tuple of str
        The enemy models it attacks, in order: each activation, the first still standing.
    cripple_at : tuple of (str, int)
        On a damage track: the damage marked from which each system (a warjack's letters) or
        aspect (a warbeast's) counts as crippled, e.g. ``(("L", 20), ("C", 26))``; a grid or
        spiral cripples by its own boxes. A mapping is accepted.
    name : str
        The model's name (default: its attacker's); its attacker and target take it.

    Examples
    --------
    >>> from mathhammer.rules import Weapon
    >>> fist = Weapon("Fist", "melee", 6, 16, attacks=2, location="L")
    >>> m = TradeModel(Attacker("Jack", [fist], focus=3), Target(12, 18, boxes=28),
    ...                attacks=["Beast"], cripple_at={"L": 20})
    >>> m.name, m.target.name, m.cripple_at
    ('Jack', 'Jack', (('L', 20),))
    """

    attacker: Attacker
    target: Target
    attacks: tuple[str, ...]
    cripple_at: tuple[tuple[str, int], ...] = ()
    name: str = ""

    def __post_init__(self):
        if not isinstance(self.attacker, Attacker):
            raise InputError("attacker", self.attacker, "must be an Attacker")
        if not isinstance(self.target, Target):
            raise InputError("target", self.target, "must be a Target")
        name = self.name or self.attacker.name
        check_name("name", name)
        object.__setattr__(self, "name", name)
        if self.attacker.name != name:
            object.__setattr__(self, "attacker", dataclasses.replace(self.attacker, name=name))
        if self.target.name != name:
            object.__setattr__(self, "target", dataclasses.replace(self.target, name=name))
        if isinstance(self.attacks, str):
            object.__setattr__(self, "attacks", (self.attacks,))
        if not isinstance(self.attacks, (list, tuple)) or not self.attacks:
            raise InputError("attacks", self.attacks, "names the enemy models it attacks (at least one)")
        for i, other in enumerate(self.attacks):
            check_name(f"attacks[{i}]", other)
        if len(set(self.attacks)) != len(self.attacks):
            raise InputError("attacks", list(self.attacks), "names a model twice")
        object.__setattr__(self, "attacks", tuple(self.attacks))
        self._check_own_state()
        object.__setattr__(self, "cripple_at", self._thresholds())

    def _check_own_state(self) -> None:
        """What a trade gives the model itself, refused where the file says it otherwise."""
        a, t = self.attacker, self.target
        if a.crippled:
            raise InputError("attacker.crippled", sorted(a.crippled),
                             "in a trade a model's crippled systems come from the damage it takes")
        if a.controls:
            raise InputError("attacker.controls", list(a.controls), "a battlegroup is planned for one "
                             "activation sequence (mathhammer.rules.battlegroup), not in a trade")
        if a.targets or any(w.targets for w in a.weapons):
            raise InputError("attacker.targets", list(a.targets) or "a weapon's targets",
                             "in a trade the model's `attacks` says whom it attacks")
        if a.models != t.models:
            raise InputError("target.models", t.models, f"a unit attacks and defends with its models: "
                             f"its attacker has models = {a.models}")
        if t.focus or t.fury:
            raise InputError("target.focus" if t.focus else "target.fury", t.focus or t.fury,
                             "a power field in a trade (the points a model keeps from its own "
                             "activation) is not modelled: give 0")
        if t.colossal:
            raise InputError("target.grid", "colossal", "a colossal is not modelled in a trade")
        if t.shield_guard:
            raise InputError("target.shield_guard", list(t.shield_guard), "is not modelled in a trade")

    def _thresholds(self) -> tuple[tuple[str, int], ...]:
        value = self.cripple_at
        if isinstance(value, dict):
            value = tuple(value.items())
        if not isinstance(value, (list, tuple)):
            raise InputError("cripple_at", value, "must be a table of letter = damage marked")
        if value and self.target.capacity != "track":
            raise InputError("cripple_at", dict(value), "is for a damage track: a grid or spiral "
                             "cripples by its own boxes")
        letters = SPIRAL_LETTERS if self.attacker.model == "warbeast" else GRID_LETTERS
        out = {}
        for pair in value:
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise InputError("cripple_at", value, "must be a table of letter = damage marked")
            letter, boxes = pair
            key = f"cripple_at.{letter}"
            if self.attacker.model not in ("warjack", "warbeast"):
                raise InputError(key, boxes, "a warjack's systems or a warbeast's aspects: the "
                                 f"attacker's model is {self.attacker.model!r}")
            check_choice("cripple_at", letter, tuple(letters))
            out[letter] = check_int(key, boxes, 1, min(self.target.boxes, MAX_BOXES))
        return tuple(sorted(out.items()))

    @property
    def letters(self) -> tuple[str, ...]:
        """The systems or aspects whose crippling is kept for it: its grid's or spiral's, or on
        a damage track its ``cripple_at`` letters, in its alphabet's order."""
        alphabet = SPIRAL_LETTERS if self.attacker.model == "warbeast" else GRID_LETTERS
        letters = set(self.target.letters) | {letter for letter, _ in self.cripple_at}
        return tuple(sorted(letters, key=alphabet.index))

    def unmodelled(self) -> tuple[str, object, str] | None:
        """The first thing this model holds that a trade does not model yet, as ``(key, value,
        reason)``, the key under the model's (both engines refuse it so, each adding its own
        limits); None when there is none.

        >>> from mathhammer.rules import Weapon
        >>> m = TradeModel(Attacker("J", [Weapon("F", "melee", 6, 16, rules=["trash"])]),
        ...                Target(12, 18, boxes=5), ["X"])
        >>> m.unmodelled()
        ('attacker.weapons[0].rules', ['trash'], 'a trade models Knockdown, Fire and Corrosion (critical ones too)')
        """
        a, t = self.attacker, self.target
        if set(t.rules) - TRADE_TARGET_RULES:
            return ("target.rules", sorted(set(t.rules) - TRADE_TARGET_RULES),
                    "a trade models Tough, Tough Steady, Unyielding and Carapace")
        if t.state - {"knocked_down"}:
            return "target.state", sorted(t.state), "a trade model starts knocked down or not"
        if t.terrain or t.resist or t.upkeep_rules or t.rapid_healing or t.guard_blocks:
            return ("target", "terrain, resist, upkeep rules, Rapid Healing or guard blocks",
                    "not modelled in a trade yet")
        if a.policy == "optimize":
            return ("attacker.policy", a.policy, "a trade plays best or a fixed spending policy: "
                    "give \"best\" or the model's [sides.models.attacker.spend] table")
        if a.combined != 1 or a.power_weapon is not None:
            return "attacker", "combined or power attack", "not modelled in a trade yet"
        for j, w in enumerate(a.weapons):
            key = f"attacker.weapons[{j}]"
            if w.type not in ("melee", "ranged"):
                return f"{key}.type", w.type, "a trade models melee and ranged weapons"
            if w.blasts:
                return f"{key}.blast_pow", w.blast_pow, "an area-of-effect attack is not modelled in a trade"
            if set(w.rules) - TRADE_WEAPON_RULES:
                return (f"{key}.rules", sorted(set(w.rules) - TRADE_WEAPON_RULES),
                        "a trade models Knockdown, Fire and Corrosion (critical ones too)")
            if (w.random_rof or w.attack_discard != "none" or w.damage_discard != "none" or w.def_minus
                    or w.arm_minus or w.damage_to or w.reload or w.cost or w.damage_type):
                return (key, w.name, "a trade models plain weapons: fixed attacks, no discard, "
                        "-DEF/-ARM effect, damage type, Reload or COST")
        return None

    def acting(self, crippled: frozenset, charge: bool) -> Attacker:
        """One of its models making its combat action with ``crippled`` letters, charging or
        not. Playing best, it makes bought attacks with its default weapon (``buy_weapon``):
        the decision tables of a trade are solved per activation without the choice of
        weapon, which keeps one table row per attack the kernel makes.

        >>> from mathhammer.rules import Weapon
        >>> m = TradeModel(Attacker("J", [Weapon("F", "melee", 6, 16, location="L")], focus=3),
        ...                Target(12, 18, boxes=28), ["X"])
        >>> a = m.acting(frozenset("L"), True)
        >>> sorted(a.crippled), a.charge, a.models, a.buy_weapon
        (['L'], True, 1, 'F')
        """
        a = self.attacker
        bought = a.bought_weapon
        weapon = a.buy_weapon if a.buy_weapon is not None or bought is None else bought.name
        return dataclasses.replace(a, crippled=frozenset(crippled), charge=bool(charge), models=1,
                                   buy_weapon=weapon)

    @property
    def one_model(self) -> Target:
        """One of its models, standing: what an attack on it is encoded and solved against
        (the kernel and the exact engine keep its damage and situation)."""
        return dataclasses.replace(self.target, models=1, state=frozenset())

    def crippled_by(self, marked: int) -> frozenset:
        """The systems crippled on its damage track with ``marked`` damage.

        >>> from mathhammer.rules import Weapon
        >>> m = TradeModel(Attacker("J", [Weapon("F", "melee", 6, 16)]), Target(12, 18, boxes=28),
        ...                ["X"], {"L": 20, "C": 26})
        >>> sorted(m.crippled_by(19)), sorted(m.crippled_by(26))
        ([], ['C', 'L'])
        """
        return frozenset(letter for letter, boxes in self.cripple_at if marked >= boxes)


@dataclass(frozen=True)
class Side:
    """One side of a trade: its name and its models, in the order they activate."""

    name: str
    models: tuple[TradeModel, ...]

    def __post_init__(self):
        check_name("name", self.name)
        if isinstance(self.models, list):
            object.__setattr__(self, "models", tuple(self.models))
        if not isinstance(self.models, tuple) or not self.models:
            raise InputError("models", self.models if isinstance(self.models, tuple) else [],
                             "a side needs at least one model")
        if len(self.models) > MAX_SIDE_MODELS:
            raise InputError("models", len(self.models), f"at most {MAX_SIDE_MODELS} models a side")
        for i, m in enumerate(self.models):
            if not isinstance(m, TradeModel):
                raise InputError(f"models[{i}]", m, "must be a TradeModel")


#: What best play's decisions in a trade's activations aim at (:attr:`Trade.play`).
TRADE_PLAY = ("damage", "kill")


@dataclass(frozen=True)
class Trade:
    """Two sides trading attacks over rounds (docs/trades.md).

    Parameters
    ----------
    sides : tuple of two Side
    first : str
        The side whose turn comes first each round (default: the first listed).
    rounds : int
        Rounds, 1-20: each, the first side's turn, then the other's.
    trials, seed
        Monte Carlo sample size and seed, as a scenario's.
    play : {"damage", "kill"}
        What best play's decisions in each activation aim at (models that play best): the
        most damage marked on the model attacked, then its destruction (``"damage"``, the
        default: measured closest to play that looks ahead over the whole trade,
        docs/trades.md), or its destruction first (``"kill"``, the objective of a single
        activation).
    brutal_damage, knockdown_before_tough, crit_counts_discarded, \
    arm_minus_stacks_same_weapon, dispel_from_next_attack, single_die_one_misses
        The settings of :class:`~mathhammer.rules.Scenario`.

    Examples
    --------
    >>> from mathhammer.rules import Weapon
    >>> fist = Weapon("Fist", "melee", 6, 16, attacks=2)
    >>> a = TradeModel(Attacker("A", [fist], focus=3), Target(12, 18, boxes=28), ["B"])
    >>> b = TradeModel(Attacker("B", [fist], focus=3), Target(12, 18, boxes=28), ["A"])
    >>> t = Trade([Side("Red", [a]), Side("Blue", [b])], rounds=2)
    >>> t.first, [s.name for s in t.order]
    ('Red', ['Red', 'Blue'])
    >>> Trade([Side("Red", [a]), Side("Blue", [b])], rounds=0)
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: trade.rounds: must be between 1 and 20 (got 0)
    """

    sides: tuple[Side, Side]
    first: str = ""
    rounds: int = 1
    trials: int = DEFAULT_TRIALS
    seed: int | None = None
    play: str = "damage"
    brutal_damage: str = "critical"
    knockdown_before_tough: bool = False
    crit_counts_discarded: bool = False
    arm_minus_stacks_same_weapon: bool = False
    dispel_from_next_attack: bool = False
    single_die_one_misses: bool = False

    def __post_init__(self):
        plain_ints(self)
        if isinstance(self.sides, list):
            object.__setattr__(self, "sides", tuple(self.sides))
        if not isinstance(self.sides, tuple) or len(self.sides) != 2:
            raise InputError("sides", len(self.sides) if isinstance(self.sides, tuple) else self.sides,
                             "a trade has two sides")
        for s, side in enumerate(self.sides):
            if not isinstance(side, Side):
                raise InputError(f"sides[{s}]", side, "must be a Side")
        if self.sides[0].name == self.sides[1].name:
            raise InputError("sides[1].name", self.sides[1].name, "the two sides need different names")
        first = self.first or self.sides[0].name
        check_choice("trade.first", first, tuple(s.name for s in self.sides))
        object.__setattr__(self, "first", first)
        check_int("trade.rounds", self.rounds, 1, MAX_TURNS)
        check_choice("trade.play", self.play, TRADE_PLAY)
        check_run(self)
        self._check_names()

    def _check_names(self) -> None:
        """Model names are distinct, and each model attacks models of the other side."""
        seen: dict[str, int] = {}
        for s, side in enumerate(self.sides):
            for i, m in enumerate(side.models):
                if m.name in seen:
                    raise InputError(f"sides[{s}].models[{i}].name", m.name,
                                     "names another model too (figures are reported by name)")
                seen[m.name] = s
        for s, side in enumerate(self.sides):
            for i, m in enumerate(side.models):
                for k, other in enumerate(m.attacks):
                    key = f"sides[{s}].models[{i}].attacks[{k}]"
                    if other not in seen:
                        raise InputError(key, other, "names no model of the trade: the other side has "
                                         + ", ".join(repr(x.name) for x in self.sides[1 - s].models))
                    if seen[other] == s:
                        raise InputError(key, other, f"is on its own side ({side.name!r}): a model "
                                         "attacks the other side's models")

    @property
    def settings(self) -> dict:
        """``brutal_damage`` and the open readings, as :class:`~mathhammer.rules.Scenario`
        takes them (each activation of the trade is one)."""
        return {key: getattr(self, key) for key in ("brutal_damage",) + READINGS}

    @property
    def order(self) -> tuple[Side, Side]:
        """The sides in the order of their turns in a round."""
        return self.sides if self.sides[0].name == self.first else (self.sides[1], self.sides[0])

    @property
    def models(self) -> tuple[TradeModel, ...]:
        """Every model, the first side's (as listed) first."""
        return self.sides[0].models + self.sides[1].models

    @property
    def spending(self) -> tuple[str, ...]:
        """How each model spends its points, in a player's words (the models' order).

        >>> from mathhammer.rules import Spend, Weapon
        >>> fist = Weapon("Fist", "melee", 6, 16)
        >>> a = TradeModel(Attacker("A", [fist], focus=3), Target(12, 18, boxes=28), ["B"])
        >>> b = TradeModel(Attacker("B", [fist], focus=3, spend=Spend()), Target(12, 18, boxes=28), ["A"])
        >>> Trade([Side("Red", [a]), Side("Blue", [b])]).spending
        ('best play, each activation aiming at damage', 'fixed policy')
        """
        def words(a: Attacker) -> str:
            if a.plays_best:
                return f"best play, each activation aiming at {self.play}"
            return "fixed policy" if a.points else "no points to spend"
        return tuple(words(m.attacker) for m in self.models)

    def side_of(self, name: str) -> int:
        """Index of the side model ``name`` is on."""
        for s, side in enumerate(self.sides):
            if any(m.name == name for m in side.models):
                return s
        raise InputError("model", name, "names no model of the trade")

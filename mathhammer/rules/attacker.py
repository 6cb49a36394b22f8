"""Attackers: a model and the weapons it uses in one combat action."""

from __future__ import annotations

from dataclasses import dataclass

from .._core.limits import MAX_MODELS
from .._core.validate import check_bool, check_choice, check_int, check_name, check_names, plain_ints
from ..errors import InputError
from .spend import Spend
from .vocabulary import (ATTACKER_MODELS, ATTACKER_POLICIES, BASE_SIZES, COLOSSAL_SIDES, GRID_LETTERS, RANGED_TYPES,
                         SPIRAL_LETTERS)
from .weapon import Weapon

MAX_POINTS = 10
MAX_COMBINED = 10

__all__ = ["Attacker"]


@dataclass(frozen=True)
class Attacker:
    """A model making one combat action against the target.

    Each melee weapon makes its initial attacks, each ranged weapon (or spell) its ROF
    attacks, in the order listed (docs/rules.md 5). A combat action never mixes melee with
    ranged or arcane attacks, so such an attacker is rejected.

    ``targets`` (several targets, docs/units.md): the names of the targets its attacks go to,
    the first of them still standing (a weapon's own ``targets`` come first); empty: the
    scenario's targets in order.

    ``base``: its base size, which a power attack needs (docs/rules.md 5, "Power attacks");
    a weapon entry with ``power_attack`` is its whole combat action: its other weapons make
    no initial attacks, it pays 1 point for it (a warjack's focus, a warbeast's forcing;
    other models none), and may buy additional attacks after it.

    ``side``: against a colossal, the grid its damage rolls go to (``left``, ``right``, or
    ``random``, the default: a d6 for each, where it stands not being modelled).

    ``policy``: ``"best"`` (the default) decides every boost and bought attack by best play
    (docs/best-play.md); ``"fixed"`` follows ``spend`` (the default when a ``spend`` is given
    without a policy); ``"optimize"`` searches the policy family for the best fixed ``spend``.

    ``controls``: the warjacks of its battlegroup, by name (other attackers of the scenario):
    its ``focus`` and theirs are one pool the turn planner allocates (docs/rules.md, "Focus
    allocation"); each attacker still spends its own as written.
    ``cavalry``: a cavalry model: its charge attack's attack roll is boosted too, free (as its
    damage roll is for any charging model; docs/rules.md 9).
    ``keep_points``: best play keeps points ahead of dealing more damage (a warcaster that
    keeps focus for its power field in the opponent's turn): after the objective and the
    models destroyed, it spends no point for damage alone.

    Examples
    --------
    >>> a = Attacker("Heavy warjack", [Weapon("Fist", "melee", 7, 16, attacks=2)], focus=3)
    >>> a.attack_count, a.policy
    (2, 'best')
    >>> Attacker("Jack", a.weapons, focus=3, spend=Spend(reserve=1)).policy
    'fixed'
    >>> Attacker("Mixed", [Weapon("Fist", "melee", 7, 16), Weapon("Gun", "ranged", 5, 12)])
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: weapons: a combat action never mixes melee and ranged weapons (got ['melee', 'ranged'])
    """

    name: str
    weapons: tuple[Weapon, ...]
    focus: int = 0
    fury: int = 0
    force: int = 0
    spend: Spend | None = None
    policy: str | None = None
    charge: bool = False
    combined: int = 1
    buy_weapon: str | None = None
    model: str = "warjack"
    crippled: frozenset[str] = frozenset()
    models: int = 1
    targets: tuple[str, ...] = ()
    base: str | None = None
    side: str = "random"
    keep_points: bool = False
    controls: tuple[str, ...] = ()
    cavalry: bool = False

    def __post_init__(self):
        plain_ints(self)  # NumPy's integers read as ints
        if isinstance(self.weapons, (list, tuple)):
            object.__setattr__(self, "weapons", tuple(self.weapons))
        check_name("name", self.name)
        object.__setattr__(self, "targets", check_names("targets", self.targets))
        object.__setattr__(self, "controls", check_names("controls", self.controls))
        if isinstance(self.weapons, Weapon):
            raise InputError("weapons", self.weapons.name, "must be a list of weapons, even of one: "
                             f"[Weapon({self.weapons.name!r}, ...)]")
        if not isinstance(self.weapons, tuple) or not self.weapons:
            raise InputError("weapons", list(self.weapons) if isinstance(self.weapons, tuple) else self.weapons,
                             "an attacker needs at least one weapon")
        for i, w in enumerate(self.weapons):
            if not isinstance(w, Weapon):
                raise InputError(f"weapons[{i}]", w, "must be a Weapon")
            if any(x.name == w.name for x in self.weapons[:i]):
                raise InputError(f"weapons[{i}].name", w.name, "another weapon of this attacker has this "
                                 "name: its attacks are labelled by it")
        types = [w.type for w in self.weapons]
        if "melee" in types and any(t in RANGED_TYPES for t in types):
            raise InputError("weapons", types, "a combat action never mixes melee and ranged weapons")
        sustained = [w.name for w in self.weapons if w.has_rule("sustained_attack")]
        if len(sustained) > 1:
            raise InputError("weapons", sustained, "at most one weapon of an attacker has sustained_attack "
                             "(the engines keep one Sustained Attack per activation)")
        for key in ("focus", "fury", "force"):
            check_int(key, getattr(self, key), 0, MAX_POINTS)
        kinds = [k for k in ("focus", "fury", "force") if getattr(self, k)]
        if len(kinds) > 1:
            raise InputError(kinds[1], getattr(self, kinds[1]),
                             f"an attacker has one of focus, fury or force (also has {kinds[0]})")
        # Best play is the default; a spend table given without a policy is followed as given.
        if self.policy is None:
            object.__setattr__(self, "policy", "best" if self.spend is None else "fixed")
        if self.spend is None:
            object.__setattr__(self, "spend", Spend())
        if not isinstance(self.spend, Spend):
            raise InputError("spend", self.spend, "must be a Spend")
        check_choice("policy", self.policy, ATTACKER_POLICIES)
        if self.policy == "best" and self.spend != Spend():
            raise InputError("spend", self.spend.label,
                             'is followed by policy = "fixed" only: best play decides every spend '
                             '(give policy="fixed", or no spend)')
        check_bool("charge", self.charge)
        check_bool("cavalry", self.cavalry)
        check_bool("keep_points", self.keep_points)
        if self.keep_points and self.policy != "best":
            raise InputError("keep_points", True, f'orders the choices of best play: it needs policy = "best" '
                             f'(policy = {self.policy!r})')
        check_int("combined", self.combined, 1, MAX_COMBINED)
        check_int("models", self.models, 1, MAX_MODELS)
        if self.models > 1 and self.combined > self.models:
            raise InputError("combined", self.combined,
                             f"a combined attack of the unit's models needs at most its {self.models} models")
        check_choice("model", self.model, ATTACKER_MODELS)
        if self.force and self.model != "warbeast":  # a warlock's fury is its own (rules.md 3)
            raise InputError("force", self.force, f"only a warbeast is forced (model = {self.model!r}); "
                             'a warjack spends focus, a warlock fury: give model = "warbeast" or focus')
        if self.fury and self.model == "warjack" and "C" in self.crippled:
            # fury is a warlock's (the default model reads it so); a crippled Cortex is a
            # warjack's, and takes its focus, which fury is not
            raise InputError("fury", self.fury, 'a warjack spends focus: with a crippled Cortex, give '
                             'focus (none usable), or model = "other" for a warlock')
        if self.focus and self.model == "warbeast":
            raise InputError("focus", self.focus, 'a warbeast is forced (model = "warbeast"): give force, '
                             'or model = "other" for a warcaster')
        check_choice("side", self.side, COLOSSAL_SIDES)
        allowed = {"warjack": GRID_LETTERS, "warbeast": SPIRAL_LETTERS, "other": ""}[self.model]
        if isinstance(self.crippled, str) or not isinstance(self.crippled, (list, tuple, set, frozenset)):
            raise InputError("crippled", self.crippled, "must be a list of letters")
        for i, x in enumerate(self.crippled):
            if not isinstance(x, str) or len(x) != 1 or x not in allowed:
                what = {"warjack": "a system letter of " + GRID_LETTERS,
                        "warbeast": "an aspect letter of " + SPIRAL_LETTERS,
                        "other": "nothing: only warjacks and warbeasts have systems or aspects"}
                raise InputError(f"crippled[{i}]", x, f"must be {what[self.model]} "
                                 f"(model = {self.model!r})")
        object.__setattr__(self, "crippled", frozenset(self.crippled))
        if self.charge and self.model == "warjack" and "M" in self.crippled:
            raise InputError("charge", True, "a warjack with crippled Movement cannot charge")
        melee = [w for w in self.weapons if w.type == "melee"]
        if self.charge and not melee:
            raise InputError("charge", True, "a charge needs a melee weapon")
        self._check_power_attack()
        melee = [w for w in melee if w.power_attack is None]
        if self.buy_weapon is not None:
            check_name("buy_weapon", self.buy_weapon)
            if self.buy_weapon not in [w.name for w in melee]:
                raise InputError("buy_weapon", self.buy_weapon,
                                 "must name one of its melee weapons: "
                                 + ", ".join(w.name for w in melee))

    def _check_power_attack(self) -> None:
        """One power attack at most; its base given; a warjack or warbeast able to pay for it
        and to make it (docs/rules.md 3 and 5)."""
        if self.base is not None:
            check_choice("base", self.base, BASE_SIZES)
        power = [w for w in self.weapons if w.power_attack is not None]
        if not power:
            return
        w = power[0]
        if len(power) > 1:
            raise InputError("weapons", [x.name for x in power], "one power attack in a combat action")
        if self.base is None:
            raise InputError("base", None, f"a power attack ({w.name!r}) needs the attacker's base size: "
                             + ", ".join(BASE_SIZES))
        if self.charge:
            raise InputError("charge", True, f"a charge and a power attack ({w.name!r}) are two combat actions")
        if self.model == "warbeast" and "M" in self.crippled:
            raise InputError("crippled", "M", "a warbeast with a crippled Mind makes no power attack")
        if self.model == "warjack" and w.power_attack == "slam" and "M" in self.crippled:
            raise InputError("crippled", "M", "a warjack with crippled Movement cannot slam")
        if self.power_cost and self._all_points < self.power_cost:
            what = {"warjack": "spends 1 focus", "warbeast": "is forced once"}[self.model]
            raise InputError("weapons", w.name, f"a {self.model} {what} to make a power attack: "
                             "it has no point to pay with")

    @property
    def power_weapon(self) -> Weapon | None:
        """Its power attack (a weapon entry with ``power_attack``), or None."""
        return next((w for w in self.weapons if w.power_attack is not None), None)

    @property
    def power_cost(self) -> int:
        """Points its power attack costs: 1 for a warjack or warbeast, else 0 (none)."""
        return int(self.power_weapon is not None and self.model in ("warjack", "warbeast"))

    @property
    def attack_count(self) -> int:
        """Initial attacks of its combat action (a spell's casts are paid: not counted; a
        power attack is the only one)."""
        if self.power_weapon is not None:
            return 1
        return sum(w.initial_attacks for w in self.weapons if not w.cost)

    @property
    def casts(self) -> tuple[tuple[int, int], ...]:
        """Casts of its spells (weapons with a ``cost``): ``(weapon index, count)``, at most
        ``attacks`` casts and as many as its points pay for.

        >>> bolt = Weapon("Bolt", "arcane", 7, 12, attacks=3, cost=2)
        >>> Attacker("Caster", [bolt], focus=5).casts, Attacker("Caster", [bolt], focus=1).casts
        (((0, 2),), ())
        """
        return tuple((i, min(w.attacks, self.points // w.cost)) for i, w in enumerate(self.weapons)
                     if w.cost and self.points >= w.cost)

    @property
    def points(self) -> int:
        """Focus, fury or forcing it may spend in its activation, once its power attack is
        paid for: none with a crippled Cortex (a warjack's focus) or a crippled Spirit (a
        warbeast cannot be forced), docs/rules.md 3."""
        return self._all_points - self.power_cost

    @property
    def _all_points(self) -> int:
        if self.model == "warjack" and "C" in self.crippled:
            return self.fury + self.force
        if self.model == "warbeast" and "S" in self.crippled:
            return self.focus + self.fury
        return self.focus + self.fury + self.force

    def weapon_crippled(self, weapon: Weapon) -> bool:
        """Whether ``weapon`` counts as in a crippled weapon system: its own ``crippled``
        flag, or a warjack's crippled location (a crippled Head cripples head weapons)."""
        if weapon.crippled:
            return True
        return self.model == "warjack" and weapon.location in self.crippled

    def attack_dice(self, weapon: Weapon) -> int:
        """Attack dice of ``weapon`` before paid boosts, not floored: 2, free boost, extra
        dice, one fewer for a crippled weapon system or a warbeast's crippled Mind."""
        mind = self.model == "warbeast" and "M" in self.crippled
        return weapon.base_attack_dice - int(self.weapon_crippled(weapon)) - int(mind)

    def damage_dice(self, weapon: Weapon) -> int:
        """Damage dice of ``weapon`` before paid boosts, charge, resistance and Brutal Damage,
        not floored: :attr:`Weapon.base_damage_dice`, one fewer for a crippled weapon system
        or a warbeast's crippled Body."""
        body = self.model == "warbeast" and "B" in self.crippled
        return weapon.base_damage_dice - int(self.weapon_crippled(weapon)) - int(body)

    @property
    def resource(self) -> str | None:
        """``"focus"``, ``"fury"``, ``"force"``, or None when it has no points."""
        for key in ("focus", "fury", "force"):
            if getattr(self, key):
                return key
        return None

    @property
    def combined_bonus(self) -> int:
        """Bonus to attack and damage rolls of a combined attack of ``combined`` models: +1
        per participating model, the primary attacker included (docs/rules.md 9); 0 for a
        single model. A unit's groups: :attr:`groups` (and ``AttackSlot.combined_bonus``)."""
        return self.combined if self.combined >= 2 else 0

    @property
    def groups(self) -> tuple[int, ...]:
        """Models in each combat action the entry makes, in order: one per model of a unit
        (``models``), or with ``combined = K`` its models in combined attacks of K (the last
        takes the rest); a single entry with ``combined = K`` is one combined attack of K.

        >>> gun = Weapon("Rifle", "ranged", 5, 10)
        >>> Attacker("Riflemen", [gun], models=10, combined=5).groups
        (5, 5)
        >>> Attacker("Riflemen", [gun], models=7, combined=5).groups, Attacker("R", [gun], models=3).groups
        ((5, 2), (1, 1, 1))
        """
        if self.models == 1:
            return (self.combined,)
        k = self.combined
        full, rest = divmod(self.models, k)
        return (k,) * full + ((rest,) if rest else ())

    @property
    def bought_weapon(self) -> Weapon | None:
        """The weapon of bought additional attacks: ``buy_weapon``, else the melee weapon
        with the highest POW (then skill, then first listed); None without melee weapons."""
        melee = [w for w in self.weapons if w.type == "melee" and w.power_attack is None]
        if not melee:
            return None
        if self.buy_weapon is not None:
            return next(w for w in melee if w.name == self.buy_weapon)
        return max(melee, key=lambda w: (w.pow if w.pow is not None else -1, w.skill,
                                         -melee.index(w)))

    @property
    def buy_choices(self) -> tuple[int, ...]:
        """Indices of the other melee weapons best play may make a bought attack with (the
        issue's "with which weapon"): every melee weapon but :attr:`bought_weapon`, in the
        order listed; none for a fixed policy or with ``buy_weapon`` given (then that weapon).

        >>> fist, head = Weapon("Fist", "melee", 6, 16), Weapon("Head", "melee", 7, 12)
        >>> Attacker("Jack", [fist, head], focus=2).buy_choices
        (1,)
        >>> Attacker("Jack", [fist, head], focus=2, buy_weapon="Head").buy_choices
        ()
        """
        if not self.plays_best or self.buy_weapon is not None or self.bought_weapon is None:
            return ()
        default = self.weapons.index(self.bought_weapon)
        return tuple(i for i, w in enumerate(self.weapons)
                     if w.type == "melee" and w.power_attack is None and i != default)

    @property
    def plays_best(self) -> bool:
        """Whether best play decides its spending: ``policy = "best"`` and points to spend."""
        return self.policy == "best" and self.points > 0

    @property
    def max_bought(self) -> int:
        """Most additional melee attacks it can buy: one per point, when ``spend.buy_attacks``
        or when best play decides (it buys each one or stops)."""
        if self.bought_weapon is None or not (self.spend.buy_attacks or self.plays_best):
            return 0
        return self.points

    @property
    def reloads(self) -> tuple[tuple[int, int], ...]:
        """Additional ranged attacks it may make (Reload [N]): ``(weapon index, count)`` per
        ranged weapon with ``reload``, up to N each and one per point, when
        ``spend.buy_attacks`` or when best play decides.

        >>> gun = Weapon("Gun", "ranged", 6, 12, reload=2)
        >>> Attacker("A", [gun], focus=3).reloads, Attacker("A", [gun], focus=1).reloads
        (((0, 2),), ((0, 1),))
        """
        if not self.points or not (self.spend.buy_attacks or self.plays_best):
            return ()
        return tuple((i, min(w.reload_limit, self.points)) for i, w in enumerate(self.weapons)
                     if w.type == "ranged" and w.reload)

    @property
    def paid_count(self) -> int:
        """Slots of attacks it may pay for: casts, bought melee attacks and reloads."""
        return self.max_bought + sum(n for _, n in self.reloads) + sum(n for _, n in self.casts)

    @property
    def charge_weapon_index(self) -> int | None:
        """Index of the weapon whose first attack is the charge attack (first melee weapon
        with attacks), or None without a charge."""
        if not self.charge:
            return None
        for i, w in enumerate(self.weapons):
            if w.type == "melee" and w.attacks > 0:
                return i
        return None

"""Weapons: what one attack rolls and what it does when it hits."""

from __future__ import annotations

from dataclasses import dataclass, field

from .._core.limits import MAX_MODELS
from .._core.validate import check_bool, check_choice, check_choices, check_int, check_name, check_names, plain_ints
from ..errors import InputError
from .vocabulary import (
    ATTACK_TYPES,
    DAMAGE_ROLL_RULES,
    DAMAGE_TYPES,
    DISCARDS,
    EFFECT_TRIGGERS,
    EXCLUSIVE_RULES,
    GRID_LETTERS,
    POWER_ATTACKS,
    RANDOM_ROF,
    SPIRAL_LETTERS,
    WEAPON_LOCATIONS,
    WEAPON_RULES,
)

__all__ = ["Weapon", "rof_odds"]

MAX_SKILL = 30
MAX_POW = 40
MAX_ATTACKS = 20
MAX_EXTRA_DICE = 3
MAX_MINUS = 10
MAX_COST = 10
#: Each rule that has a critical-hit-only form, and that form's name (no string built per hit).
_CRITICAL_FORM = {rule[len("critical_"):]: rule for rule in WEAPON_RULES if rule.startswith("critical_")}

#: ``reload = "unlimited"``: a Reload with no limit but the attacker's points.
UNLIMITED = "unlimited"




def rof_odds(rof: str) -> tuple[tuple[int, float], ...]:
    """The attacks a random rate of fire gives and their chances: d3 (a d6 halved, rounding
    up), d6, or 2d3.

    >>> [(k, round(p * 9)) for k, p in rof_odds("2d3")]
    [(2, 1), (3, 2), (4, 3), (5, 2), (6, 1)]
    """
    if rof == "d3":
        return tuple((k, 1 / 3) for k in (1, 2, 3))
    if rof == "d6":
        return tuple((k, 1 / 6) for k in range(1, 7))
    return tuple((k, (3 - abs(k - 4)) / 9) for k in range(2, 7))


@dataclass(frozen=True)
class Weapon:
    """One weapon of an attacker (or a spell, for ``type="arcane"``).

    Parameters
    ----------
    name : str
    type : {"melee", "ranged", "arcane"}
    skill : int
        MAT for melee weapons, RAT for ranged and arcane attacks.
    pow : int or None
        POW of the damage roll; ``None`` for a POW of "-" (the weapon deals no damage).
    attacks : int or {"d3", "d6", "2d3"}
        Initial attacks in one combat action (ROF for ranged weapons); a random rate of fire
        (ranged weapons): that many, rolled once before the first (docs/rules.md 5).
    boosted_attack, boosted_damage : bool
        Every attack (damage) roll of this weapon is boosted, at no cost.
    damage_type : set of str
        Damage types dealt; arcane attacks always deal magical damage as well.
    rules : set of str
        Special rules among :data:`~mathhammer.rules.vocabulary.WEAPON_RULES`.
    extra_attack_dice, extra_damage_dice : int
        Dice added (or, negative, removed) by other effects.
    crippled : bool
        The weapon's system starts crippled: one fewer attack and damage die.
    location : str or None
        Grid location of the weapon (L, R, H, F), used once damage grids cripple systems.
    attack_discard, damage_discard : {"none", "lowest", "highest", "both"}
        After rolling, discard that die (``both``: the lowest, then the highest; each only
        while two or more dice are left); the roll is the dice kept (automatic miss, hit and
        critical are judged on them; the setting ``crit_counts_discarded`` judges the
        critical on every die rolled).
    def_minus, arm_minus : int
        A target hit (``effect_on="hit"``) or critically hit (``"critical"``) by this weapon
        suffers -X DEF / -X ARM from the next attack on. The effect of one weapon applies
        once (hitting again does not stack it); effects of different weapons add up.
    effect_on : {"hit", "critical"}
    damage_to : str or None
        "Damage to system / aspect X" (docs/rules.md 3): against a grid or spiral with an unmarked
        X box, its damage starts at the topmost unmarked X box of the lowest-numbered column
        holding one (no column roll); with every X box marked the column is rolled. A scenario
        where no target of its attacks has X on its card is refused.
    reload : int or "unlimited"
        Reload [N] (ranged weapons): after its initial attacks, the attacker may make up to N
        additional ranged attacks with this weapon, one point each (docs/best-play.md);
        ``"unlimited"``: as many as its points pay for (:attr:`reload_limit`).
    cost : int
        A spell's COST (arcane weapons): every cast costs ``cost`` points, the first too, and
        ``attacks`` is the most casts; none is free (docs/best-play.md).
    blast_pow : int or None
        An area-of-effect (AOE) ranged or arcane attack: on a hit, the model hit takes the
        attack's damage roll and up to ``blast_models`` other living models of its unit each
        take a blast damage roll, 2d6 + ``blast_pow`` against their ARM (docs/units.md).
    blast_models : int
        Other models of the unit the AOE catches on a hit (default 1).
    blast_on_miss : int
        Models of the unit a missed AOE still catches where it deviates to (default 0: a
        setting, the deviation's geometry is not modelled; docs/units.md).
    auto_hit : bool
        Its attacks hit automatically (docs/rules.md 1, "Automatic hits"): no attack roll,
        so no attack boost and never a critical hit; the damage roll as usual.
    targets : tuple of str
        Several targets (docs/units.md): the names of the targets this weapon's attacks go
        to, the first of them still standing; empty (the default): the attacker's
        ``targets``, else the scenario's targets in order.
    power_attack : {"headbutt", "slam"} or None
        This entry is a power attack (docs/rules.md 5, "Power attacks"): ``skill`` is the
        attacker's MAT, ``pow`` the POW of the power attack damage roll. A hit knocks the
        target down, then the damage roll follows (so no Tough roll against it). It is the
        attacker's whole combat action: its other weapons make no initial attacks, and it
        may buy additional attacks after it. No weapon rule applies to it.
    slam_contact : bool
        A slam whose target is stopped by an obstacle, an obstruction or a model with an
        equal or larger base: one additional damage die.
    collateral : str or None
        Several targets: the name of the target the slammed model contacts (a base no
        larger than its own). When the slam hits, that target is knocked down and suffers a
        collateral damage roll of the slam's POW, which cannot be boosted (Monte Carlo).

    Examples
    --------
    >>> fist = Weapon("Fist", "melee", skill=7, pow=16)
    >>> fist.attack_dice, fist.base_damage_dice
    (2, 2)
    >>> Weapon("Blade", "melee", 6, 12, boosted_attack=True, crippled=True).attack_dice
    2
    """

    name: str
    type: str
    skill: int
    pow: int | None
    attacks: int | str = 1
    boosted_attack: bool = False
    boosted_damage: bool = False
    damage_type: frozenset[str] = field(default_factory=frozenset)
    rules: frozenset[str] = field(default_factory=frozenset)
    extra_attack_dice: int = 0
    extra_damage_dice: int = 0
    crippled: bool = False
    location: str | None = None
    attack_discard: str = "none"
    damage_discard: str = "none"
    def_minus: int = 0
    arm_minus: int = 0
    effect_on: str = "hit"
    damage_to: str | None = None
    reload: int | str = 0
    cost: int = 0
    blast_pow: int | None = None
    blast_models: int = 1
    blast_on_miss: int = 0
    targets: tuple[str, ...] = ()
    auto_hit: bool = False
    power_attack: str | None = None
    slam_contact: bool = False
    collateral: str | None = None

    def __post_init__(self):
        plain_ints(self)  # NumPy's integers read as ints
        check_name("name", self.name)
        object.__setattr__(self, "targets", check_names("targets", self.targets))
        check_choice("type", self.type, ATTACK_TYPES)
        check_int("skill", self.skill, 0, MAX_SKILL)
        if self.pow is not None:
            check_int("pow", self.pow, 0, MAX_POW)
        if isinstance(self.attacks, str):
            check_choice("attacks", self.attacks, tuple(RANDOM_ROF))
            if self.type != "ranged":
                raise InputError("attacks", self.attacks,
                                 f"a random rate of fire is for ranged weapons (type is {self.type!r})")
        else:
            check_int("attacks", self.attacks, 0, MAX_ATTACKS)
        check_bool("boosted_attack", self.boosted_attack)
        check_bool("boosted_damage", self.boosted_damage)
        check_bool("auto_hit", self.auto_hit)
        object.__setattr__(self, "damage_type", check_choices("damage_type", self.damage_type, DAMAGE_TYPES))
        object.__setattr__(self, "rules", check_choices("rules", self.rules, WEAPON_RULES))
        for one, other in EXCLUSIVE_RULES:
            if one in self.rules and other in self.rules:
                raise InputError("rules", other, f"cannot be given with {one!r} (the same rule on a "
                                 "critical hit only and on any hit)")
        for rule in ("sanguine_fate", "shred"):
            if self.auto_hit and rule in self.rules:
                raise InputError("rules", rule, "needs an attack roll: the weapon has auto_hit")
        check_int("extra_attack_dice", self.extra_attack_dice, -MAX_EXTRA_DICE, MAX_EXTRA_DICE)
        check_int("extra_damage_dice", self.extra_damage_dice, -MAX_EXTRA_DICE, MAX_EXTRA_DICE)
        check_bool("crippled", self.crippled)
        if self.location is not None:
            check_choice("location", self.location, WEAPON_LOCATIONS)
        check_choice("attack_discard", self.attack_discard, DISCARDS)
        check_choice("damage_discard", self.damage_discard, DISCARDS)
        check_int("def_minus", self.def_minus, 0, MAX_MINUS)
        check_int("arm_minus", self.arm_minus, 0, MAX_MINUS)
        check_choice("effect_on", self.effect_on, EFFECT_TRIGGERS)
        if self.damage_to is not None:
            check_choice("damage_to", self.damage_to, tuple(sorted(set(GRID_LETTERS + SPIRAL_LETTERS))))
            if self.pow is None:
                raise InputError("damage_to", self.damage_to,
                                 'needs a damage roll: the weapon has POW "-"')
        if isinstance(self.reload, str):
            if self.reload != UNLIMITED:
                raise InputError("reload", self.reload, f'must be an integer 0 .. {MAX_ATTACKS} or "{UNLIMITED}"')
        else:
            check_int("reload", self.reload, 0, MAX_ATTACKS)
        if self.reload and self.type != "ranged":
            raise InputError("reload", self.reload, f"is for ranged weapons (type is {self.type!r})")
        check_int("cost", self.cost, 0, MAX_COST)
        if self.cost and self.type != "arcane":
            raise InputError("cost", self.cost, f"is for spells, arcane weapons (type is {self.type!r})")
        if self.blast_pow is not None:
            check_int("blast_pow", self.blast_pow, 0, MAX_POW)
            if self.type == "melee":
                raise InputError("blast_pow", self.blast_pow,
                                 "is for area-of-effect ranged and arcane attacks (type is 'melee')")
        check_int("blast_models", self.blast_models, 0, MAX_MODELS - 1)
        check_int("blast_on_miss", self.blast_on_miss, 0, MAX_MODELS)
        if self.blast_pow is None:
            for key, default in (("blast_models", 1), ("blast_on_miss", 0)):
                if getattr(self, key) != default:
                    raise InputError(key, getattr(self, key), "needs blast_pow (an area-of-effect attack)")
        if self.pow is None and self.boosted_damage:
            raise InputError("boosted_damage", True, 'cannot be set on a weapon with POW "-"')
        if self.pow is None:
            for rule in sorted(DAMAGE_ROLL_RULES):
                if rule in self.rules:
                    raise InputError("rules", rule, 'needs a damage roll: the weapon has POW "-"')
            # a damage type also types a blast's damage rolls
            keys = (("damage_discard", "none"), ("extra_damage_dice", 0)) + (
                (("damage_type", frozenset()),) if self.blast_pow is None else ())
            for key, default in keys:
                value = getattr(self, key)
                if value != default:
                    raise InputError(key, sorted(value) if isinstance(value, frozenset) else value,
                                     'needs a damage roll: the weapon has POW "-"')
        self._check_power_attack()

    #: Keys of a weapon entry a power attack cannot have (no weapon rule applies to it, and
    #: it is made with no weapon system), with their defaults.
    _NOT_ON_POWER_ATTACKS = (("attack_discard", "none"), ("damage_discard", "none"), ("def_minus", 0),
                             ("arm_minus", 0), ("damage_to", None), ("reload", 0), ("cost", 0),
                             ("blast_pow", None), ("location", None), ("crippled", False),
                             ("damage_type", frozenset()), ("boosted_attack", False),
                             ("boosted_damage", False))

    def _check_power_attack(self) -> None:
        """A power attack: a melee entry of one attack with a POW and no weapon rules; it
        knocks down on a hit (``knockdown`` is added to its rules)."""
        check_bool("slam_contact", self.slam_contact)
        if self.collateral is not None:
            check_name("collateral", self.collateral)
        if self.power_attack is None:
            for key in ("slam_contact", "collateral"):
                if getattr(self, key):
                    raise InputError(key, getattr(self, key), 'is for a slam (power_attack = "slam")')
            return
        check_choice("power_attack", self.power_attack, POWER_ATTACKS)
        for key in ("slam_contact", "collateral"):
            if getattr(self, key) and self.power_attack != "slam":
                raise InputError(key, getattr(self, key), f'is for a slam (power_attack is {self.power_attack!r})')
        if self.type != "melee":
            raise InputError("power_attack", self.power_attack, f"is a melee attack (type is {self.type!r})")
        if self.attacks != 1:
            raise InputError("attacks", self.attacks, "a power attack is one attack (attacks = 1)")
        if self.pow is None:
            raise InputError("pow", "-", "a power attack makes a damage roll: give its POW")
        extra = sorted(self.rules - {"knockdown"})
        if extra:
            raise InputError("rules", extra[0], "no weapon rule applies to a power attack")
        for key, default in self._NOT_ON_POWER_ATTACKS:
            if getattr(self, key) != default:
                value = getattr(self, key)
                raise InputError(key, sorted(value) if isinstance(value, frozenset) else value,
                                 "is not for a power attack (no weapon rule or weapon system applies to it)")
        object.__setattr__(self, "rules", frozenset({"knockdown"}))

    @property
    def collateral_roll(self) -> Weapon:
        """The collateral damage roll of a slam with ``collateral`` as a weapon entry: it
        hits automatically (its slam did), knocks down first, with the slam's POW; its slot
        is made only after the slam hit, and no point boosts it (:class:`AttackSlot`)."""
        return Weapon(f"{self.name} collateral", "melee", self.skill, self.pow, power_attack="slam",
                      auto_hit=True, targets=(self.collateral,))

    @property
    def knockdown_first(self) -> bool:
        """Whether its knockdown lands before its own damage roll (a power attack: the
        target is knocked down, then suffers the damage roll; else the setting
        ``knockdown_before_tough`` decides)."""
        return self.power_attack is not None

    # ----------------------------------------------------------------- derived
    @property
    def initial_attacks(self) -> int:
        """Initial attacks it may make: ``attacks``, or the most a random rate of fire gives.

        >>> Weapon("Gun", "ranged", 5, 10, attacks="d3").initial_attacks
        3
        """
        return RANDOM_ROF[self.attacks] if isinstance(self.attacks, str) else self.attacks

    @property
    def random_rof(self) -> str | None:
        """The random rate of fire (``"d3"``, ``"d6"``, ``"2d3"``), or None."""
        return self.attacks if isinstance(self.attacks, str) else None

    @property
    def damage_types(self) -> frozenset[str]:
        """Damage types of its damage rolls: arcane attacks deal magical damage (docs/rules.md 2)."""
        if self.type == "arcane":
            return self.damage_type | {"magical"}
        return self.damage_type

    @property
    def deals_damage(self) -> bool:
        """False for POW "-": no damage roll at all (docs/rules.md 2)."""
        return self.pow is not None

    @property
    def base_attack_dice(self) -> int:
        """Attack dice before crippling: 2, +1 if boosted, + extra dice (may be < 1)."""
        return 2 + int(self.boosted_attack) + self.extra_attack_dice

    @property
    def base_damage_dice(self) -> int:
        """Damage dice before crippling and resistance: 2, +1 if boosted, +1 for Weapon
        Master, +1 for a slam stopped by contact, + extra dice."""
        return (2 + int(self.boosted_damage) + int("weapon_master" in self.rules)
                + int(self.slam_contact) + self.extra_damage_dice)

    @property
    def attack_dice(self) -> int:
        """Attack dice rolled in its starting state, never below one (docs/rules.md 1)."""
        return max(1, self.base_attack_dice - int(self.crippled))

    def damage_dice_against(self, resist: frozenset[str]) -> int:
        """Damage dice against a target resisting ``resist``: one die off, however many
        of its types are resisted (docs/rules.md 2); never below one."""
        resisted = bool(self.damage_types & resist)
        return max(1, self.base_damage_dice - int(self.crippled) - int(resisted))

    @property
    def reload_limit(self) -> int:
        """Most reloads of the weapon: its Reload [N], or for ``reload = "unlimited"`` as many
        as any attacker's points can pay for (:data:`MAX_ATTACKS`)."""
        return MAX_ATTACKS if self.reload == UNLIMITED else self.reload

    def triggers(self, rule: str, critical: bool) -> bool:
        """Whether a hit (critical or not) triggers ``rule``: the weapon has it, or has its
        critical-hit-only form (``critical_<rule>``) and the hit is critical.

        >>> w = Weapon("Hex", "melee", 6, 12, rules={"critical_dispel"})
        >>> w.triggers("dispel", False), w.triggers("dispel", True)
        (False, True)
        """
        return rule in self.rules or (critical and _CRITICAL_FORM[rule] in self.rules)

    def has_rule(self, rule: str) -> bool:
        """Whether the weapon has ``rule`` on any hit or on a critical hit only."""
        return rule in self.rules or _CRITICAL_FORM[rule] in self.rules

    def sets_effects(self, critical: bool) -> frozenset[str]:
        """Continuous effects a hit (critical or not) puts on the target (docs/rules.md 4)."""
        return frozenset(effect for effect in ("fire", "corrosion") if self.triggers(effect, critical))

    def blast_dice_against(self, resist: frozenset[str]) -> int:
        """Dice of its blast damage rolls against a target resisting ``resist``: two, one
        fewer where a type it deals is resisted (docs/units.md; never below one).

        >>> mortar = Weapon("Mortar", "ranged", 5, 12, blast_pow=6, damage_type={"fire"})
        >>> mortar.blast_dice_against(frozenset()), mortar.blast_dice_against(frozenset({"fire"}))
        (2, 1)
        """
        return max(1, 2 - int(bool(self.damage_types & resist)))

    @property
    def blasts(self) -> bool:
        """Whether it is an area-of-effect attack (blast damage on other models of a unit)."""
        return self.blast_pow is not None

    @property
    def has_effect(self) -> bool:
        """Whether its hits put a -DEF / -ARM effect on the target."""
        return self.def_minus > 0 or self.arm_minus > 0

"""The target of an attack sequence: its defences, damage capacity and situation."""

from __future__ import annotations

from dataclasses import dataclass, field

from .._core.limits import MAX_MODELS
from .._core.validate import check_choice, check_choices, check_int, check_name, plain_ints
from ..errors import InputError
from .vocabulary import (
    BASE_DEF_5_STATES,
    BASE_SIZES,
    CONTINUOUS_EFFECTS,
    DAMAGE_TYPES,
    GRID_LETTERS,
    HAZARDS,
    MAX_COLUMN_BOXES,
    MELEE_AUTO_HIT_STATES,
    SPIRAL_LETTERS,
    POWER_FIELD_ALIASES,
    POWER_FIELD_POLICIES,
    RANGED_TYPES,
    TARGET_RULES,
    UPKEEP_RULES,
    TARGET_STATES,
    TERRAIN,
    WEAPON_LOCATIONS,
)

__all__ = ["Target"]

MAX_DEF = 40
MAX_ARM = 50
MAX_BOXES = 500
MAX_BONUS = 10
MAX_POINTS = 10


@dataclass(frozen=True)
class Target:
    """The model being attacked.

    Parameters
    ----------
    defense : int
        DEF (``def`` in scenario files).
    arm : int
        ARM.
    boxes : int
        Damage boxes of a damage track; 1 for a model with no damage boxes (one damage point
        disables it).
    base : {"small", "medium", "large", "extra_large", "huge"}
    resist : set of str
        Damage types it resists.
    state : set of str
        Situation at the start of the sequence, from
        :data:`~mathhammer.rules.vocabulary.TARGET_STATES`.
    terrain : set of str
        Terrain it stands in or behind (docs/rules.md 7), mapped by
        :data:`~mathhammer.rules.vocabulary.TERRAIN` to cover, concealment, elevation or an
        obstacle; tall grass conceals small and medium bases only. Also the hazards of
        :data:`~mathhammer.rules.vocabulary.HAZARDS` (docs/rules.md 4): ``acid_bath``,
        ``burning_earth``, ``quicksand``.
    effects : set of str
        Continuous effects it starts with: ``fire``, ``corrosion`` (never one it resists).
    rules : set of str
        ``unyielding`` (+2 ARM vs melee), ``carapace`` (+4 ARM vs ranged), ``tough``,
        ``tough_steady`` (Tough that also works while knocked down).
    shield, buckler : list of str
        Weapon locations carrying a Shield (+2 ARM each) or a Buckler (+1 ARM each); lost
        while inert or wild (docs/rules.md 6) and, with damage grids, while that system is crippled.
    upkeep_def, upkeep_arm : int
        DEF / ARM from upkeep spells: Dispel ends them; Blessed weapons ignore them.
    spell_def, spell_arm : int
        DEF / ARM from spells that Dispel does not end; Blessed weapons ignore them too.
    feat_def, feat_arm : int
        DEF / ARM from a bonus that is no spell (a feat): neither Dispel nor Blessed removes
        it; feat ARM counts against fire too.
    focus, fury : int
        Points the target may spend against damage: focus reduces one attack's damage by 5
        per point (power field), fury prevents one attack's damage per point. Lost while
        inert or wild.
    power_field : {"best", "never", "lethal"}
        When it spends them: by best play (``"best"``, the default: after each damage roll,
        what minimises the attackers' objective, docs/best-play.md; ``"optimal"`` is read as
        ``"best"``); never; or only to survive a hit, the fewest points that do
        (``"lethal"``).
    tough_on : int
        The d6 roll Tough needs to save (default 5: 5 or 6; a setting for effects that
        change it, docs/rules.md 3).
    rapid_healing : int or "d3"
        After an attack that damages it without disabling it, the target removes this many
        damage points, or a d3 of them (a documented setting: docs/rules.md does not define
        Rapid Healing).
    upkeep_rules : set of str
        ``tough``, ``unyielding`` granted by an upkeep spell: as the rules of the same names,
        until a Dispel ends them (docs/rules.md 9).
    shield_guard : sequence of str
        Several targets: the names of the other targets this one guards with Shield Guard
        (docs/rules.md 9): once a round, a ranged attack that hits one of them hits this
        model instead, automatically, while it stands and is neither knocked down nor
        stationary (Monte Carlo only).
    guard_blocks : int
        Shield Guard as blocks (docs/rules.md 9): ranged hits its guards may take instead,
        one each; best play picks them after the attack roll. One model, one round.
    grid : sequence of six (or twelve) str, optional
        Warjack damage grid, one string per column 1..6, boxes top to bottom: ``.`` a hull
        box, a letter of ``ACGHMFLR`` a system box. Columns may differ in length (0 to 10).
        Twelve columns: a colossal's two grids, its left grid's columns 1..6 then its right
        grid's (docs/rules.md 3, "Colossals"; Monte Carlo only): a damage roll goes to the
        grid of the attacker's ``side``.
    spiral : sequence of six str, optional
        Warbeast life spiral, one string per branch 1..6, outermost box first, each box a
        letter of ``BMS`` (Body, Mind, Spirit).

    models : int
        A unit of this many identical models (default 1), each with its own damage track,
        Tough roll, knockdown, -DEF / -ARM effects and continuous effects; its ``state`` and
        terrain apply to every model. Attacks go to the model under attack until it is
        destroyed, then to the next (spill-over: the points left over are lost). A unit has
        no focus or fury to spend; a grid or spiral gives each model its own card
        (docs/units.md).

    With a grid or a spiral, ``boxes`` is their number of boxes (give it as 1, the default,
    or that number).

    Examples
    --------
    >>> t = Target(defense=12, arm=18, state={"cover", "concealment"})
    >>> t.defense_against("ranged"), t.defense_against("melee")
    (16, 12)
    >>> Target(defense=12, arm=18, base="huge", state={"cover"}).defense_against("ranged")
    12
    """

    defense: int
    arm: int
    boxes: int = 1
    name: str = "Target"
    base: str = "medium"
    resist: frozenset[str] = field(default_factory=frozenset)
    state: frozenset[str] = field(default_factory=frozenset)
    terrain: frozenset[str] = field(default_factory=frozenset)
    rules: frozenset[str] = field(default_factory=frozenset)
    shield: tuple[str, ...] = ()
    buckler: tuple[str, ...] = ()
    upkeep_def: int = 0
    upkeep_arm: int = 0
    spell_def: int = 0
    spell_arm: int = 0
    focus: int = 0
    fury: int = 0
    power_field: str = "best"
    rapid_healing: int = 0
    grid: tuple[str, ...] | None = None
    spiral: tuple[str, ...] | None = None
    effects: frozenset[str] = field(default_factory=frozenset)
    models: int = 1
    tough_on: int = 5
    feat_def: int = 0
    feat_arm: int = 0
    upkeep_rules: frozenset[str] = field(default_factory=frozenset)
    shield_guard: tuple[str, ...] = ()
    guard_blocks: int = 0

    def __post_init__(self):
        plain_ints(self)  # NumPy's integers read as ints
        check_name("name", self.name)
        if isinstance(self.shield_guard, str) or not isinstance(self.shield_guard, (list, tuple)):
            raise InputError("shield_guard", self.shield_guard, "must be a list of target names")
        for name in self.shield_guard:
            check_name("shield_guard", name)
        if len(set(self.shield_guard)) != len(self.shield_guard) or self.name in self.shield_guard:
            raise InputError("shield_guard", list(self.shield_guard),
                             "names other targets, each once (not the guard itself)")
        object.__setattr__(self, "shield_guard", tuple(self.shield_guard))
        check_int("def", self.defense, 0, MAX_DEF)
        check_int("arm", self.arm, 0, MAX_ARM)
        check_int("boxes", self.boxes, 1, MAX_BOXES)
        check_choice("base", self.base, BASE_SIZES)
        object.__setattr__(self, "resist", check_choices("resist", self.resist, DAMAGE_TYPES))
        object.__setattr__(self, "state", check_choices("state", self.state, TARGET_STATES))
        object.__setattr__(self, "terrain", check_choices("terrain", self.terrain,
                                                          tuple(TERRAIN) + HAZARDS))
        object.__setattr__(self, "effects", check_choices("effects", self.effects,
                                                          CONTINUOUS_EFFECTS))
        for effect in sorted(self.effects & self.resist):
            raise InputError("effects", effect, f"a {effect}-resistant target never suffers it")
        object.__setattr__(self, "rules", check_choices("rules", self.rules, TARGET_RULES))
        object.__setattr__(self, "upkeep_rules", check_choices("upkeep_rules", self.upkeep_rules, UPKEEP_RULES))
        for rule in sorted(self.upkeep_rules & (self.rules | ({"tough"} if "tough_steady" in self.rules else set()))):
            raise InputError("upkeep_rules", rule, "the target has it already (rules)")
        check_int("tough_on", self.tough_on, 2, 6)
        if self.tough_on != 5 and not self.tough_rules:
            raise InputError("tough_on", self.tough_on,
                             'is the roll Tough needs: give rules = ["tough"] (or "tough_steady")')
        for key in ("shield", "buckler"):
            value = getattr(self, key)
            check_choices(key, value, WEAPON_LOCATIONS)
            value = tuple(value)
            if len(set(value)) != len(value):
                raise InputError(key, list(value), "a location carries one of them at most")
            object.__setattr__(self, key, value)
        for key in ("upkeep_def", "upkeep_arm", "spell_def", "spell_arm", "feat_def", "feat_arm"):
            check_int(key, getattr(self, key), 0, MAX_BONUS)
        for key in ("focus", "fury", "guard_blocks"):
            check_int(key, getattr(self, key), 0, MAX_POINTS)
        if self.focus and self.fury:
            raise InputError("fury", self.fury, "a target spends focus or fury, not both")
        if isinstance(self.power_field, str) and self.power_field in POWER_FIELD_ALIASES:
            object.__setattr__(self, "power_field", POWER_FIELD_ALIASES[self.power_field])
        check_choice("power_field", self.power_field, POWER_FIELD_POLICIES)
        if isinstance(self.rapid_healing, str) and self.rapid_healing != "d3":
            raise InputError("rapid_healing", self.rapid_healing, 'must be an integer or "d3"')
        if self.rapid_healing != "d3":
            check_int("rapid_healing", self.rapid_healing, 0, MAX_POINTS)
        if self.grid is not None and self.spiral is not None:
            raise InputError("spiral", list(self.spiral), "a target has a grid or a spiral, not both")
        for key, letters, what in (("grid", GRID_LETTERS + ".", "system"),
                                   ("spiral", SPIRAL_LETTERS, "aspect")):
            card = getattr(self, key)
            if card is None:
                continue
            sizes = (6, 12) if key == "grid" else (6,)  # a colossal's grid: two of six columns
            if isinstance(card, str) or not isinstance(card, (list, tuple)) or len(card) not in sizes:
                raise InputError(key, card, "must be a list of six strings, one per column (a colossal: twelve, "
                                 "its left grid's then its right grid's)" if key == "grid" else
                                 "must be a list of six strings, one per branch (a gargantuan's two "
                                 "spirals are not modelled)")
            for i, col in enumerate(card):
                if not isinstance(col, str):
                    raise InputError(f"{key}[{i}]", col, "must be a string")
                for ch in col:
                    if ch not in letters:
                        raise InputError(f"{key}[{i}]", col,
                                         f"unknown {what} letter {ch!r} (letters: {letters})")
                if len(col) > MAX_COLUMN_BOXES:
                    raise InputError(f"{key}[{i}]", col, f"at most {MAX_COLUMN_BOXES} boxes")
            card = tuple(card)
            total = sum(len(c) for c in card)
            if total == 0:
                raise InputError(key, list(card), "needs at least one box")
            if self.boxes not in (1, total):
                raise InputError("boxes", self.boxes,
                                 f"with a {key}, boxes is its number of boxes ({total})")
            object.__setattr__(self, key, card)
            object.__setattr__(self, "boxes", total)
        for key in ("shield", "buckler") if self.spiral is not None else ():
            if getattr(self, key):
                raise InputError(key, sorted(getattr(self, key)), "is lost with its grid location's "
                                 "system: a life spiral has no locations (give the ARM as spell_arm)")
        check_int("models", self.models, 1, MAX_MODELS)
        if self.models > 1:
            for key in ("focus", "fury"):
                if getattr(self, key):
                    raise InputError(key, getattr(self, key), "a unit target has no focus or fury "
                                     "to spend against damage (power_field is for a single model)")

    @property
    def unit(self) -> bool:
        """Whether it is a unit of several models."""
        return self.models > 1

    # ----------------------------------------------------------------- derived
    @property
    def card(self) -> tuple[str, ...] | None:
        """Its grid or spiral (six strings), None for a damage track."""
        return self.grid if self.grid is not None else self.spiral

    @property
    def colossal(self) -> bool:
        """Whether its grid is a colossal's two grids (twelve columns: left, then right)."""
        return self.grid is not None and len(self.grid) == 12

    @property
    def capacity(self) -> str:
        """``"track"``, ``"grid"`` or ``"spiral"``."""
        if self.grid is not None:
            return "grid"
        return "spiral" if self.spiral is not None else "track"

    @property
    def letters(self) -> tuple[str, ...]:
        """System or aspect letters on its card, in card-alphabet order (none for tracks)."""
        card = self.card
        if card is None:
            return ()
        alphabet = GRID_LETTERS if self.grid is not None else SPIRAL_LETTERS
        present = set("".join(card))
        return tuple(x for x in alphabet if x in present)

    @property
    def starts_base_def_5(self) -> bool:
        """Knocked down, stationary, inert, wild or a building: base DEF 5 (docs/rules.md 1)."""
        return bool(self.state & BASE_DEF_5_STATES)

    @property
    def starts_melee_auto_hit(self) -> bool:
        """Melee attacks hit it automatically, with no roll (docs/rules.md 1)."""
        return bool(self.state & MELEE_AUTO_HIT_STATES)

    @property
    def situations(self) -> frozenset[str]:
        """Its states plus what its terrain gives (docs/rules.md 7)."""
        out = set(self.state)
        for name in self.terrain:
            if name in HAZARDS or (name == "tall_grass" and self.base not in ("small", "medium")):
                continue
            out.add(TERRAIN[name])
        return frozenset(out)

    @property
    def hazards(self) -> frozenset[str]:
        """The hazards among its terrain."""
        return frozenset(self.terrain) & frozenset(HAZARDS)

    def suffers(self, effect: str) -> bool:
        """Whether the continuous effect can be put on it (it does not resist its type)."""
        return effect not in self.resist

    @property
    def controller_destroyed(self) -> bool:
        """Inert or wild (docs/rules.md 6): no Shield or Buckler bonus, no focus or fury."""
        return bool(self.state & {"inert", "wild"})

    @property
    def shield_arm(self) -> int:
        """ARM from Shields (+2 each) and Bucklers (+1 each) in its starting state."""
        return 0 if self.controller_destroyed else 2 * len(self.shield) + len(self.buckler)

    @property
    def power_points(self) -> int:
        """Focus or fury it can spend against damage in its starting state."""
        return 0 if self.controller_destroyed else self.focus + self.fury

    @property
    def power_kind(self) -> str | None:
        """``"focus"`` (reduce by 5 a point), ``"fury"`` (prevent one attack's damage) or None."""
        if self.power_points == 0:
            return None
        return "focus" if self.focus else "fury"

    def base_arm(self, armor_piercing: bool = False) -> int:
        """Base ARM; halved, rounding up, against Armor-Piercing (docs/rules.md 9)."""
        return (self.arm + 1) // 2 if armor_piercing else self.arm

    @property
    def tough_rules(self) -> frozenset[str]:
        """Its Tough rules, its own and an upkeep spell's (``tough``, ``tough_steady``)."""
        return (self.rules | self.upkeep_rules) & {"tough", "tough_steady"}

    def upkeep_rule_arm(self, attack_type: str) -> int:
        """ARM from Unyielding granted by an upkeep spell (+2 vs melee; a Dispel ends it,
        Blessed does not ignore it: it is no spell bonus to ARM but a rule)."""
        return 2 if attack_type == "melee" and "unyielding" in self.upkeep_rules else 0

    def arm_modifier(self, attack_type: str) -> int:
        """ARM from Unyielding (+2 vs melee), Carapace (+4 vs ranged, not arcane: arcane
        attacks do not take rules that affect only ranged attacks, docs/rules.md 1) and a
        feat (``feat_arm``, against every attack)."""
        mod = self.feat_arm  # a feat's ARM, against every attack
        if attack_type == "melee" and "unyielding" in self.rules:
            mod += 2
        if attack_type == "ranged" and "carapace" in self.rules:
            mod += 4
        return mod

    def def_modifier(self, attack_type: str) -> int:
        """DEF modifier against ``attack_type`` from the table of docs/rules.md section 1.

        Cover (+4) and concealment (+2) do not stack and do not help huge bases; elevation
        (+2) helps large bases and smaller; in melee (+4) helps all but huge bases; all
        three apply to ranged and arcane attacks only. An obstacle (+2) applies to melee.
        Spell bonuses are not included (they depend on the weapon: see the encoder).
        """
        s = self.situations
        if attack_type in RANGED_TYPES:
            mod = 0
            if self.base != "huge":
                if "cover" in s:
                    mod += 4
                elif "concealment" in s:
                    mod += 2
                if "in_melee" in s:
                    mod += 4
            if "elevated" in s and self.base not in ("extra_large", "huge"):
                mod += 2
            return mod
        return 2 if "obstacle" in s else 0

    def defense_against(self, attack_type: str, base_def_5: bool | None = None) -> int:
        """DEF an attack of ``attack_type`` must reach.

        ``base_def_5`` overrides the starting state (a knockdown earlier in the sequence, a
        crippled Movement system): the base becomes 5 and the modifiers still apply.
        """
        if base_def_5 is None:
            base_def_5 = self.starts_base_def_5
        base = 5 if base_def_5 else self.defense
        return base + self.def_modifier(attack_type) + self.feat_def  # a feat: no spell

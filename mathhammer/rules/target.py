"""The target of an attack sequence: its defences, damage capacity and situation."""

from __future__ import annotations

from dataclasses import dataclass, field

from ._validate import check_choice, check_choices, check_int, check_str
from .vocabulary import (
    BASE_DEF_5_STATES,
    BASE_SIZES,
    DAMAGE_TYPES,
    MELEE_AUTO_HIT_STATES,
    RANGED_TYPES,
    TARGET_STATES,
)

__all__ = ["Target"]

MAX_DEF = 40
MAX_ARM = 50
MAX_BOXES = 500


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

    def __post_init__(self):
        check_str("name", self.name)
        check_int("def", self.defense, 0, MAX_DEF)
        check_int("arm", self.arm, 0, MAX_ARM)
        check_int("boxes", self.boxes, 1, MAX_BOXES)
        check_choice("base", self.base, BASE_SIZES)
        object.__setattr__(self, "resist", check_choices("resist", self.resist, DAMAGE_TYPES))
        object.__setattr__(self, "state", check_choices("state", self.state, TARGET_STATES))

    # ----------------------------------------------------------------- derived
    @property
    def starts_base_def_5(self) -> bool:
        """Knocked down, stationary, inert, wild or a building: base DEF 5 (RULES.md 1)."""
        return bool(self.state & BASE_DEF_5_STATES)

    @property
    def starts_melee_auto_hit(self) -> bool:
        """Melee attacks hit it automatically, with no roll (RULES.md 1)."""
        return bool(self.state & MELEE_AUTO_HIT_STATES)

    def def_modifier(self, attack_type: str) -> int:
        """DEF modifier against ``attack_type`` from the table of RULES.md section 1.

        Cover (+4) and concealment (+2) do not stack and do not help huge bases; elevation
        (+2) helps large bases and smaller; in melee (+4) helps all but huge bases; all
        three apply to ranged and arcane attacks only. An obstacle (+2) applies to melee.
        """
        s = self.state
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
        return base + self.def_modifier(attack_type)

"""DEF, ARM and dice of an attack against the target in a given state (docs/activation.md,
steps 2 and 4), and ARM against fire: a mixin of :class:`~mathhammer.exact.setup.Setup`,
which holds the target, the scenario and the -DEF / -ARM effects (``minus``)."""

from __future__ import annotations

from .state import SlotInfo, State

__all__ = ["AttackFigures"]


class AttackFigures:
    """The target's DEF and ARM against each attack, and the attack's dice."""

    def fire_armor(self, state: State) -> int:
        """ARM against fire's damage roll (not an attack): base ARM, Shield and Buckler
        (unless their location is crippled), spell and upkeep ARM (unless dispelled), less
        the active -ARM effects; no Unyielding, Carapace or Armor-Piercing."""
        t = self.target
        arm = t.arm + t.spell_arm + t.feat_arm + (0 if state.dispelled else t.upkeep_arm)
        if t.shield_arm:
            arm += (2 * sum(x not in state.crippled for x in t.shield)
                    + sum(x not in state.crippled for x in t.buckler))
        return arm - sum(self.minus[e][1] for e in state.effects) - state.arm_extra

    def defense(self, info: SlotInfo, state: State) -> int:
        """``DEF = base + terrain + spells - effects`` against this attack (step 2); a
        crippled Movement system makes the base 5."""
        t, w = self.target, info.weapon
        d = t.defense_against(w.type, base_def_5=state.down or state.still or state.paralyzed
                              or "M" in state.crippled)
        if "blessed" not in w.rules:
            d += t.spell_def + (0 if state.dispelled else t.upkeep_def)
        return d - sum(self.minus[e][0] for e in state.effects) - 2 * state.ice

    def armor(self, info: SlotInfo, dispelled: bool, effects: frozenset, crippled: frozenset = frozenset(),
              critical: bool = False, arm_extra: int = 0) -> int:
        """ARM against this attack's damage roll (step 4); not floored at 0. A Shield or
        Buckler in a ``crippled`` location gives nothing; Armor-Piercing halves the base ARM
        (``critical_armor_piercing``: on a ``critical`` hit only)."""
        t, w = self.target, info.weapon
        piercing = "armor_piercing" in w.rules or (critical and "critical_armor_piercing" in w.rules)
        arm = t.base_arm(piercing) + t.arm_modifier(w.type)
        if "blessed" not in w.rules:
            arm += t.spell_arm + (0 if dispelled else t.upkeep_arm)
        arm += 0 if dispelled else t.upkeep_rule_arm(w.type)  # upkeep Unyielding: a rule
        if "chain_weapon" not in w.rules and t.shield_arm:
            arm += 2 * sum(x not in crippled for x in t.shield) + sum(x not in crippled for x in t.buckler)
        return arm - sum(self.minus[e][1] for e in effects) - arm_extra

    def damage_dice(self, info: SlotInfo, critical: bool, state: State | None = None) -> int:
        """Damage dice before a paid boost (may be below one; the roll has at least one):
        the attacker's dice for the weapon (crippled systems and aspects included), the
        charge, resistance, Brutal Damage, and Trash / Shatter against a target knocked down /
        stationary in ``state`` (before the hit; None: the most dice, for bounds)."""
        w, t = info.weapon, self.target
        brutal = "brutal_damage" in w.rules and (critical or self.scenario.brutal_damage == "hit")
        trash = "trash" in w.rules and (state is None or state.down)
        shatter = "shatter" in w.rules and (state is None or state.still)
        return (info.attacker.damage_dice(w) + int(info.slot.charge and not w.boosted_damage)
                - int(bool(w.damage_types & t.resist)) + int(brutal) + int(trash) + int(shatter))

    def attack_dice(self, info: SlotInfo, paid: int) -> int:
        """Attack dice with ``paid`` paid boosts (0 or 1); a cavalry charge attack's free boost
        included."""
        return max(1, info.slot.attack_dice + paid)

"""Brute-force oracles written straight from /work/shared/rules/RULES.md (sections 1, 2, 3, 5).

Nothing here calls :mod:`mathhammer.exact` or the derived helpers of the rules model
(``Weapon.attack_dice``, ``Target.defense_against`` ...): dice counts and DEF are recomputed
from the raw fields, every roll is enumerated face by face with :func:`itertools.product`, and
probabilities are exact :class:`fractions.Fraction` values. The sequence oracle walks the whole
tree of outcomes of every attack, one branch per distinct (miss / hit / critical hit, damage)
outcome, carrying the probability of the branch and never merging branches with different
histories, so it shares no structure with the engine's dynamic programming.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "bf_attack",
    "bf_damage",
    "NaiveAttack",
    "NaiveTarget",
    "bf_sequence",
    "plain_from_scenario",
    "bf_scenario",
]

FACES = (1, 2, 3, 4, 5, 6)


def bf_attack(n_dice: int, skill: int, defense: int) -> tuple[Fraction, Fraction, Fraction]:
    """(miss, non-critical hit, critical hit) of ``n_dice`` d6 + ``skill`` vs ``defense``."""
    miss = plain = crit = 0
    for faces in itertools.product(FACES, repeat=n_dice):
        if n_dice >= 2 and all(f == 1 for f in faces):
            hits = False
        elif n_dice >= 2 and all(f == 6 for f in faces):
            hits = True
        else:
            hits = sum(faces) + skill >= defense
        if not hits:
            miss += 1
            continue
        doubles = any(faces[a] == faces[b] for a in range(n_dice) for b in range(a + 1, n_dice))
        if doubles:
            crit += 1
        else:
            plain += 1
    total = 6**n_dice
    return Fraction(miss, total), Fraction(plain, total), Fraction(crit, total)


def bf_damage(n_dice: int, pow: int, arm: int) -> dict[int, Fraction]:
    """Damage points of ``n_dice`` d6 + ``pow`` vs ``arm``: ``{points: probability}``."""
    out: dict[int, Fraction] = {}
    total = 6**n_dice
    for faces in itertools.product(FACES, repeat=n_dice):
        roll = sum(faces) + pow
        points = roll - arm if roll > arm else 0
        out[points] = out.get(points, 0) + Fraction(1, total)
    return out


@dataclass(frozen=True)
class NaiveAttack:
    """One attack in plain numbers."""

    kind: str  # "melee", "ranged" or "arcane"
    skill: int
    attack_dice: int
    pow: int | None  # None: POW "-"
    damage_dice: int
    knockdown: bool = False
    critical_knockdown: bool = False


@dataclass(frozen=True)
class NaiveTarget:
    """The target in plain numbers."""

    defense: int  # printed DEF
    arm: int
    boxes: int
    melee_mod: int = 0  # DEF modifier vs melee
    ranged_mod: int = 0  # DEF modifier vs ranged and arcane
    starts_down: bool = False  # base DEF 5 and melee auto-hit from the start


def bf_sequence(attacks: list[NaiveAttack], target: NaiveTarget) -> dict:
    """Walk the tree of every outcome of every attack; return exact figures.

    Returns
    -------
    dict with keys ``damage`` (list of Fraction, index = damage points marked, 0..boxes),
    ``made``, ``hit``, ``crit``, ``dmg`` (expected points marked), ``kill`` (disabled by
    exactly this attack), each a list over attacks.
    """
    n = len(attacks)
    boxes = target.boxes
    res = {
        "damage": [Fraction(0)] * (boxes + 1),
        "made": [Fraction(0)] * n,
        "hit": [Fraction(0)] * n,
        "crit": [Fraction(0)] * n,
        "dmg": [Fraction(0)] * n,
        "kill": [Fraction(0)] * n,
    }
    # Outcome tables per attack and per "knocked down" flag (pure functions of the dice).
    attack_tables = {}
    damage_tables = {}

    def attack_table(i, down):
        key = (i, down)
        if key not in attack_tables:
            a = attacks[i]
            if a.kind == "melee" and down:
                attack_tables[key] = (Fraction(0), Fraction(1), Fraction(0))  # no roll
            else:
                base = 5 if down else target.defense
                mod = target.melee_mod if a.kind == "melee" else target.ranged_mod
                attack_tables[key] = bf_attack(a.attack_dice, a.skill, base + mod)
        return attack_tables[key]

    def damage_table(i):
        if i not in damage_tables:
            a = attacks[i]
            damage_tables[i] = None if a.pow is None else sorted(bf_damage(a.damage_dice, a.pow, target.arm).items())
        return damage_tables[i]

    def walk(i, prob, marked, down):
        if marked >= boxes:  # disabled: no further attacks
            res["damage"][boxes] += prob
            return
        if i == n:
            res["damage"][marked] += prob
            return
        a = attacks[i]
        res["made"][i] += prob
        p_miss, p_plain, p_crit = attack_table(i, down)
        if p_miss:
            walk(i + 1, prob * p_miss, marked, down)
        for p_hit, critical in ((p_plain, False), (p_crit, True)):
            if not p_hit:
                continue
            q = prob * p_hit
            res["hit"][i] += q
            if critical:
                res["crit"][i] += q
            down_after = down or a.knockdown or (critical and a.critical_knockdown)
            table = damage_table(i)
            if table is None:
                walk(i + 1, q, marked, down_after)
                continue
            for points, p_dmg in table:
                r = q * p_dmg
                took = min(points, boxes - marked)
                res["dmg"][i] += r * took
                if marked + took >= boxes:
                    res["kill"][i] += r
                walk(i + 1, r, marked + took, down_after)

    walk(0, Fraction(1), 0, target.starts_down)
    return res


# ---------------------------------------------------------------------------------------------
# Rules model -> plain numbers, re-derived from RULES.md from the raw fields only.

_DOWN_STATES = {"knocked_down", "stationary", "inert", "wild", "building"}


def plain_from_scenario(scenario) -> tuple[list[NaiveAttack], NaiveTarget]:
    """Translate a :class:`mathhammer.Scenario` into plain numbers using only raw fields."""
    t = scenario.target
    state = set(t.state)
    ranged_mod = 0
    if t.base != "huge":
        if "cover" in state:
            ranged_mod += 4  # cover and concealment do not stack: cover wins
        elif "concealment" in state:
            ranged_mod += 2
        if "in_melee" in state:
            ranged_mod += 4
    if "elevated" in state and t.base in ("small", "medium", "large"):
        ranged_mod += 2
    melee_mod = 2 if "obstacle" in state else 0
    target = NaiveTarget(
        defense=t.defense,
        arm=t.arm,
        boxes=t.boxes,
        melee_mod=melee_mod,
        ranged_mod=ranged_mod,
        starts_down=bool(state & _DOWN_STATES),
    )
    attacks = []
    for attacker in scenario.attackers:
        for w in attacker.weapons:
            types = set(w.damage_type)
            if w.type == "arcane":
                types.add("magical")
            resisted = 1 if types & set(t.resist) else 0
            crippled = 1 if w.crippled else 0
            a_dice = max(1, 2 + (1 if w.boosted_attack else 0) + w.extra_attack_dice - crippled)
            d_dice = max(1, 2 + (1 if w.boosted_damage else 0) + w.extra_damage_dice - crippled - resisted)
            for _ in range(w.attacks):
                attacks.append(
                    NaiveAttack(
                        kind=w.type,
                        skill=w.skill,
                        attack_dice=a_dice,
                        pow=w.pow,
                        damage_dice=d_dice,
                        knockdown="knockdown" in w.rules,
                        critical_knockdown="critical_knockdown" in w.rules,
                    )
                )
    return attacks, target


def bf_scenario(scenario) -> dict:
    """:func:`bf_sequence` of a :class:`mathhammer.Scenario`."""
    attacks, target = plain_from_scenario(scenario)
    return bf_sequence(attacks, target)

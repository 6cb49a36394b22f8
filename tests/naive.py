"""Brute-force oracles written straight from /work/shared/rules/RULES.md (sections 1, 2, 3, 5).

Nothing here calls :mod:`mathhammer.exact` or the derived helpers of the rules model
(``Weapon.attack_dice``, ``Target.defense_against`` ...): dice counts and DEF are recomputed
from the raw fields, every roll is enumerated face by face with :func:`itertools.product`, and
probabilities are exact :class:`fractions.Fraction` values. The sequence oracle walks the whole
tree of outcomes of every attack, one branch per distinct (miss / hit / critical hit, damage)
outcome, carrying the probability of the branch and never merging branches with different
histories, so it shares no structure with the engine's dynamic programming.

:func:`bf_activation` is the oracle of the whole contract, docs/activation.md (boosts and
spending policies, bought attacks, weapon and target rules, power fields, Tough, Rapid
Healing, effects), for tiny cases: 2 or 3 attacks on a track of 1 to 3 boxes, or on a damage
grid or life spiral of a few boxes (every box marked one by one, the column d6 enumerated,
crippling and its feedback on the target, crippled attackers).
"""

from __future__ import annotations

import functools
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
    "bf_activation",
    "BF_FIELDS",
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


# ---------------------------------------------------------------------------------------------
# The whole activation (docs/activation.md), for tiny cases: every die of every roll.
#
# Written again from the contract and the raw fields of the rules objects (no Target or
# Weapon helper, nothing from mathhammer.exact): terrain, DEF, ARM, dice counts, policies.
# Each roll is enumerated as explicit tuples of faces (rerolls as pairs of tuples), the
# Tough roll as the six faces of a d6, and probabilities are Fractions. The recursion is
# memoised on the full state before each attack (damage marked included), which is the
# only thing it shares with a dynamic programme.

_TERRAIN_GIVES = {
    "forest": "concealment", "dense_fog": "concealment", "tall_grass": "concealment",
    "cloud": "concealment", "rubble": "cover", "trench": "cover", "crater": "cover",
    "building": "cover", "hill": "elevated", "obstacle": "obstacle", "obstruction": "obstacle",
}
_STILL_STATES = {"stationary", "inert", "wild", "building"}
#: Columns of the per-attack figures, in the order of mathhammer.result.SLOT_*.
BF_FIELDS = ("made", "hit", "crit", "dmg", "boost_attack", "boost_damage", "spent",
             "target_spent", "tough")


@dataclass(frozen=True)
class _Slot:
    attacker: int
    weapon_index: int
    attacker_obj: object
    weapon: object
    bought: bool
    charge: bool
    first: bool = False


def _bf_slots(scenario, every_bought: bool) -> list[_Slot]:
    """Attackers in order: initial attacks of each weapon (the first melee one is the charge
    attack of a charging attacker), then one bought attack per point (with ``buy_attacks``,
    or always when ``every_bought``) with the bought weapon."""
    out = []
    for ai, a in enumerate(scenario.attackers):
        charge_left = a.charge
        for wi, w in enumerate(a.weapons):
            for _ in range(w.attacks):
                charge = charge_left and w.type == "melee"
                charge_left = charge_left and not charge
                out.append(_Slot(ai, wi, a, w, False, charge))
        melee = [(wi, w) for wi, w in enumerate(a.weapons) if w.type == "melee"]
        if melee and (every_bought or a.spend.buy_attacks):
            if a.buy_weapon is not None:
                wi, w = next((wi, w) for wi, w in melee if w.name == a.buy_weapon)
            else:
                best = None
                for wi, w in melee:
                    key = (w.pow if w.pow is not None else -1, w.skill)
                    if best is None or key > best[0]:  # ties: the first listed
                        best = (key, wi, w)
                _, wi, w = best
            out += [_Slot(ai, wi, a, w, True, False) for _ in range(_bf_points(a))]
    return [_Slot(s.attacker, s.weapon_index, s.attacker_obj, s.weapon, s.bought, s.charge,
                  k == 0 or out[k - 1].attacker != s.attacker) for k, s in enumerate(out)]


def _bf_points(a) -> int:
    """Points of an attacker: a warjack with a crippled Cortex has no focus, a warbeast with
    a crippled Spirit cannot be forced (RULES.md 3)."""
    focus = 0 if (a.model == "warjack" and "C" in a.crippled) else a.focus
    force = 0 if (a.model == "warbeast" and "S" in a.crippled) else a.force
    return focus + a.fury + force


def _bf_less_dice(a, w) -> tuple[int, int]:
    """(attack dice, damage dice) an attacker's crippled systems or aspects take off ``w``:
    a crippled weapon system (its own flag, or a warjack's crippled location, H for head
    weapons) one of each; a warbeast's crippled Mind an attack die, Body a damage die."""
    system = 1 if (w.crippled or (a.model == "warjack" and w.location is not None
                                  and w.location in a.crippled)) else 0
    mind = 1 if (a.model == "warbeast" and "M" in a.crippled) else 0
    body = 1 if (a.model == "warbeast" and "B" in a.crippled) else 0
    return system + mind, system + body


# --------------------------------------------------------------------------- grids and spirals
_GRID_ALPHABET = "ACGHMFLR"
_SPIRAL_ALPHABET = "BMS"


class _BfCard:
    """A grid or spiral box by box: boxes are ``(column, row)`` pairs, row 0 on top."""

    def __init__(self, target):
        self.grid = target.grid is not None
        self.cols = list(target.grid if self.grid else target.spiral)
        alphabet = _GRID_ALPHABET if self.grid else _SPIRAL_ALPHABET
        present = {ch for col in self.cols for ch in col if ch != "."}
        self.letters = [x for x in alphabet if x in present]
        self.all = [(c, r) for c in range(6) for r in range(len(self.cols[c]))]

    def crippled(self, marked) -> set:
        """Letters all of whose boxes are marked."""
        marked = set(marked)
        return {x for x in self.letters
                if all((c, r) in marked for c, r in self.all if self.cols[c][r] == x)}

    def first_x(self, marked, x):
        """The topmost unmarked X box of the lowest-numbered column holding one, or None."""
        marked = set(marked)
        for c in range(6):
            for r, ch in enumerate(self.cols[c]):
                if ch == x and (c, r) not in marked:
                    return (c, r)
        return None

    def mark(self, order, column, points, first=None):
        """``order`` (boxes marked, oldest first) with ``points`` more boxes: ``first`` if
        given, then from ``column`` the topmost unmarked box, moving right (6 -> 1) when a
        column has none, one box at a time."""
        order = list(order)
        marked = set(order)
        left = points
        if first is not None and left > 0:
            order.append(first)
            marked.add(first)
            left -= 1
        c = column
        while left > 0 and len(marked) < len(self.all):
            box = next(((c, r) for r in range(len(self.cols[c])) if (c, r) not in marked), None)
            if box is None:
                c = (c + 1) % 6
                continue
            order.append(box)
            marked.add(box)
            left -= 1
        return tuple(order)


def _kept(faces, discard):
    kept = list(faces)
    if discard != "none" and len(kept) >= 2:
        kept.remove(min(kept) if discard == "lowest" else max(kept))
    return kept


def _judge(faces, discard, skill, defense):
    """"miss", "hit" or "crit" of one attack roll."""
    kept = _kept(faces, discard)
    if len(kept) >= 2 and all(f == 1 for f in kept):
        return "miss"
    if len(kept) >= 2 and all(f == 6 for f in kept):
        hit = True
    else:
        hit = sum(kept) + skill >= defense
    if not hit:
        return "miss"
    if len(kept) >= 2 and len(set(kept)) < len(kept):
        return "crit"
    return "hit"


@functools.cache
def _bf_attack_roll(n, discard, skill, defense, reroll):
    out = {"miss": Fraction(0), "hit": Fraction(0), "crit": Fraction(0)}
    w = Fraction(1, 6**n)
    for first in itertools.product(FACES, repeat=n):
        res = _judge(first, discard, skill, defense)
        if res == "miss" and reroll:
            for second in itertools.product(FACES, repeat=n):
                out[_judge(second, discard, skill, defense)] += w * w
        else:
            out[res] += w
    return out


@functools.cache
def _bf_damage_roll(n, discard, pow_minus_arm, remaining, reroll, double):
    """{points: probability} of a damage roll: discard, reroll, Decapitation."""
    out: dict[int, Fraction] = {}
    w = Fraction(1, 6**n)

    def points_of(faces):
        kept = _kept(faces, discard)
        return max(0, sum(kept) + pow_minus_arm), kept

    for first in itertools.product(FACES, repeat=n):
        points, kept = points_of(first)
        if reroll and points < remaining and 2 * sum(kept) < 7 * len(kept):
            for second in itertools.product(FACES, repeat=n):
                p2 = points_of(second)[0] * (2 if double else 1)
                out[p2] = out.get(p2, 0) + w * w
        else:
            p1 = points * (2 if double else 1)
            out[p1] = out.get(p1, 0) + w
    return out


class _Tally:
    """What happens from some point on: final damage distribution and per-attack sums; on a
    card, per attack the probability of each letter crippled once it is resolved
    (``cripple[i][x]``) and of each box marked at the end (``box[(c, r)]``)."""

    def __init__(self, n):
        self.damage: dict[int, Fraction] = {}
        self.slots = [[Fraction(0)] * len(BF_FIELDS) for _ in range(n)]
        self.kill = [Fraction(0)] * n
        self.sq = [Fraction(0)] * n
        self.cripple = [{} for _ in range(n)]
        self.box: dict = {}

    def add(self, p, other):
        """Add ``p`` times ``other`` (zeros skipped: Fractions are slow)."""
        for k, v in other.damage.items():
            self.damage[k] = self.damage.get(k, 0) + p * v
        for k, v in other.box.items():
            self.box[k] = self.box.get(k, 0) + p * v
        for mine, theirs in zip(self.cripple, other.cripple):
            for x, v in theirs.items():
                mine[x] = mine.get(x, 0) + p * v
        for i in range(len(self.kill)):
            if other.kill[i]:
                self.kill[i] += p * other.kill[i]
            if other.sq[i]:
                self.sq[i] += p * other.sq[i]
            mine, theirs = self.slots[i], other.slots[i]
            for j in range(len(BF_FIELDS)):
                if theirs[j]:
                    mine[j] += p * theirs[j]

    def value(self, objective, boxes):
        if objective == "kill":
            return sum(self.kill, Fraction(0))
        if objective.startswith("cripple:"):
            return self.cripple[-1].get(objective.split(":", 1)[1], Fraction(0))
        return sum((k * v for k, v in self.damage.items()), Fraction(0))


def bf_activation(scenario, attackers: str = "fixed", objective: str = "kill") -> dict:
    """Brute-force the whole attack sequence of docs/activation.md on a damage track.

    Parameters
    ----------
    attackers : {"fixed", "optimal"}
        "fixed": every attacker follows its ``spend`` policy (the slots of
        ``attack_sequence``). "optimal": each decision (buy, attack boost, damage boost)
        maximises ``objective``; one bought slot per point for attackers with a melee weapon.
    objective : {"kill", "damage", "cripple:X"}
        Only for ``attackers="optimal"`` (and a target with ``power_field="optimal"``, which
        minimises the kill probability, or the objective against optimal attackers).

    Returns
    -------
    dict
        ``kill`` (Fraction), ``damage`` (list over 0..boxes), per attack lists for each of
        :data:`BF_FIELDS` and ``kill_at``, ``sq`` (E[marked**2]), ``labels`` and ``value``.
        On a grid or spiral also ``letters`` (alphabet order), ``cripple`` (per attack, a
        list over the letters: crippled once it is resolved; after a kill every letter)
        and ``box`` (per column, a list over its rows: marked at the end).
    """
    t = scenario.target
    optimal = attackers == "optimal"
    slots = _bf_slots(scenario, every_bought=optimal)
    n = len(slots)
    boxes = t.boxes
    inert = bool(set(t.state) & {"inert", "wild"})
    situations = set(t.state)
    for name in t.terrain:
        if name == "tall_grass" and t.base not in ("small", "medium"):
            continue
        situations.add(_TERRAIN_GIVES[name])
    tough = "tough" in t.rules or "tough_steady" in t.rules
    steady = "tough_steady" in t.rules
    field_points = 0 if inert else t.focus + t.fury
    field_kind = "focus" if t.focus else "fury"
    field = t.power_field
    target_objective = objective if optimal else "kill"
    card = _BfCard(t) if (t.grid is not None or t.spiral is not None) else None
    on_grid = card is not None and card.grid
    heals_possible = tough or t.rapid_healing > 0

    def crippled_now(st):
        """Grid systems crippled in the state (the feedback on the target reads them)."""
        return card.crippled(st["card"]) if on_grid else set()

    def minus(effects, which):
        total = 0
        for _name, def_minus, arm_minus in effects:
            total += def_minus if which == "def" else arm_minus
        return total

    def defense(w, st):
        base = 5 if (st["down"] or st["still"] or "M" in crippled_now(st)) else t.defense
        mod = 0
        if w.type in ("ranged", "arcane"):
            if t.base != "huge":
                if "cover" in situations:
                    mod += 4
                elif "concealment" in situations:
                    mod += 2
                if "in_melee" in situations:
                    mod += 4
            if "elevated" in situations and t.base not in ("extra_large", "huge"):
                mod += 2
        elif "obstacle" in situations:
            mod += 2
        spells = 0
        if "blessed" not in w.rules:
            spells = t.spell_def + (0 if st["dispelled"] else t.upkeep_def)
        return base + mod + spells - minus(st["effects"], "def")

    def armor(w, dispelled, effects, crippled=frozenset()):
        arm = (t.arm + 1) // 2 if "armor_piercing" in w.rules else t.arm
        if w.type == "melee" and "unyielding" in t.rules:
            arm += 2
        if w.type == "ranged" and "carapace" in t.rules:
            arm += 4
        if "blessed" not in w.rules:
            arm += t.spell_arm + (0 if dispelled else t.upkeep_arm)
        if "chain_weapon" not in w.rules and not inert:
            arm += 2 * len([x for x in t.shield if x not in crippled])
            arm += len([x for x in t.buckler if x not in crippled])
        return arm - minus(effects, "arm")

    def freeze(st):
        return tuple(sorted(st.items()))

    def leaf(i, local, child):
        """``local`` counts of attack ``i`` added to ``child`` (None: killed here)."""
        out = _Tally(n)
        if child is None:
            out.damage[boxes] = Fraction(1)
            out.kill[i] = Fraction(1)
            if card is not None:  # every box marked: every letter crippled from here on
                for j in range(i, n):
                    out.cripple[j] = {x: Fraction(1) for x in card.letters}
                out.box = {b: Fraction(1) for b in card.all}
        else:
            out.add(Fraction(1), child)
        for j, name in enumerate(BF_FIELDS):
            out.slots[i][j] += local.get(name, 0)
        out.sq[i] += local.get("dmg", 0) ** 2
        return out

    def mix(branches):
        out = _Tally(n)
        for p, tally in branches:
            out.add(p, tally)
        return out

    def best(options, maximise, obj):
        chosen = options[0]
        for o in options[1:]:
            v, c = o.value(obj, boxes), chosen.value(obj, boxes)
            if (v > c) if maximise else (v < c):
                chosen = o
        return chosen

    def go_next(i, st):
        st = dict(st)
        if i + 1 < n and slots[i + 1].first:
            a = slots[i + 1].attacker_obj
            st["points"] = _bf_points(a)
        return resolve(i + 1, freeze(st))

    @functools.cache
    def resolve(i, frozen):
        st = dict(frozen)
        if i == n:
            out = _Tally(n)
            out.damage[st["marked"]] = Fraction(1)
            if card is not None:
                out.box = {b: Fraction(1) for b in st["card"]}
                out.cripple[n - 1] = {x: Fraction(1) for x in card.crippled(st["card"])}
            return out
        out = _resolve_attack(i, st)
        if card is not None and i > 0:  # what slot i - 1 left
            out = mix([(Fraction(1), out)])
            out.cripple[i - 1] = {x: Fraction(1) for x in card.crippled(st["card"])}
        return out

    def _resolve_attack(i, st):
        slot = slots[i]
        if slot.bought:
            skip = leaf(i, {}, go_next(i, st))
            if st["points"] < 1:
                return skip
            bought = attack(i, st, 1)
            return best([skip, bought], True, objective) if optimal else bought
        return attack(i, st, 0)

    def attack(i, st, buy):
        slot = slots[i]
        w, a = slot.weapon, slot.attacker_obj
        combined = a.combined if a.combined >= 2 else 0
        skill = w.skill + combined
        points = st["points"] - buy
        if w.type == "melee" and (st["down"] or st["still"]):
            return hit(i, st, False, points, {"made": 1, "hit": 1, "spent": buy})
        DEF = defense(w, st)
        need = DEF - skill
        raw = 2 + (1 if w.boosted_attack else 0) + w.extra_attack_dice - _bf_less_dice(a, w)[0]
        can = not w.boosted_attack and raw >= 1  # a paid boost must add a die
        if optimal:
            choices = [0, 1] if can and points > 0 else [0]
        else:
            s = a.spend
            wants = s.boost_attack == "always" or (s.boost_attack == "auto" and need >= s.boost_attack_at)
            choices = [1 if (can and points > s.reserve and wants) else 0]
        trees = []
        for paid in choices:
            n_dice = max(1, 2 + (1 if w.boosted_attack else 0) + paid + w.extra_attack_dice
                         - _bf_less_dice(a, w)[0])
            roll = _bf_attack_roll(n_dice, w.attack_discard, skill, DEF, "reroll_attack" in w.rules)
            local = {"made": 1, "boost_attack": paid, "spent": buy + paid}
            branches = []
            if roll["miss"]:
                branches.append((roll["miss"], leaf(i, local, go_next(i, dict(st, points=points - paid)))))
            for res in ("hit", "crit"):
                if roll[res]:
                    branches.append((roll[res], hit(i, st, res == "crit", points - paid,
                                                    dict(local, hit=1, crit=int(res == "crit")))))
            trees.append(mix(branches))
        return best(trees, True, objective) if len(trees) > 1 else trees[0]

    def hit(i, st, crit, points, local):
        slot = slots[i]
        w, a = slot.weapon, slot.attacker_obj
        rules = set(w.rules)
        dispelled = st["dispelled"] or "dispel" in rules
        grievous = st["grievous"] or "grievous_wounds" in rules
        effects = set(st["effects"])
        if (w.def_minus or w.arm_minus) and (w.effect_on == "hit" or crit):
            effects.add((w.name, w.def_minus, w.arm_minus))
        after = dict(st, dispelled=dispelled, grievous=grievous, effects=frozenset(effects),
                     down=st["down"] or "knockdown" in rules or (crit and "critical_knockdown" in rules),
                     still=st["still"] or "stationary" in rules or (crit and "critical_stationary" in rules))
        if w.pow is None:
            return leaf(i, local, go_next(i, dict(after, points=points)))
        combined = a.combined if a.combined >= 2 else 0
        POW = w.pow + combined
        ARM = armor(w, dispelled, st["effects"], crippled_now(st))
        types = set(w.damage_type) | ({"magical"} if w.type == "arcane" else set())
        brutal = "brutal_damage" in rules and (crit or scenario.brutal_damage == "hit")
        free = w.boosted_damage or slot.charge
        dice = (2 + (1 if free else 0) + ("weapon_master" in rules) + w.extra_damage_dice
                - _bf_less_dice(a, w)[1] - (1 if types & set(t.resist) else 0) + (1 if brutal else 0))
        remaining = boxes - st["marked"]
        s = a.spend

        def kept_n(n_dice):
            return n_dice - 1 if w.damage_discard != "none" and n_dice >= 2 else n_dice

        if free or dice < 1:  # free, or a paid die lost in the floor of one
            choices = [0]
        elif optimal:
            choices = [0, 1] if points > 0 else [0]
        elif points > s.reserve and (
            s.boost_damage == "always"
            or (s.boost_damage == "auto" and kept_n(max(1, dice)) + POW - ARM < remaining
                and 6 * kept_n(max(1, dice + 1)) + POW - ARM > 0)):
            choices = [1]
        else:
            choices = [0]
        trees = []
        for paid in choices:
            n_dice = max(1, dice + paid)
            roll = _bf_damage_roll(n_dice, w.damage_discard, POW - ARM, remaining,
                                   "reroll_damage" in rules, crit and "decapitation" in rules)
            local2 = dict(local, boost_damage=paid, spent=local["spent"] + paid)
            branches = [(p, field_step(i, st, after, grievous, x, points - paid, local2))
                        for x, p in roll.items()]
            trees.append(mix(branches))
        return best(trees, True, objective) if len(trees) > 1 else trees[0]

    def field_step(i, st, after, grievous, x, points, local):
        remaining = boxes - st["marked"]
        left = st["target_points"]
        if field_points == 0 or left == 0 or field == "never" or "G" in crippled_now(st):
            return mark(i, st, after, grievous, x, 0, points, local)
        if field == "lethal":
            if x < remaining:
                return mark(i, st, after, grievous, x, 0, points, local)
            if field_kind == "fury":
                return mark(i, st, after, grievous, 0, 1, points, local)
            k = -(-(x - remaining + 1) // 5)
            if k <= left:
                return mark(i, st, after, grievous, max(0, x - 5 * k), k, points, local)
            return mark(i, st, after, grievous, x, 0, points, local)
        # optimal
        options = [mark(i, st, after, grievous, x, 0, points, local)]
        if field_kind == "fury":
            if x > 0:
                options.append(mark(i, st, after, grievous, 0, 1, points, local))
        else:
            k = 1
            while k <= left and 5 * (k - 1) < x:
                options.append(mark(i, st, after, grievous, max(0, x - 5 * k), k, points, local))
                k += 1
        return best(options, False, target_objective)

    def mark(i, st, after, grievous, x, spent, points, local):
        remaining = boxes - st["marked"]
        d = min(x, remaining)
        local = dict(local, dmg=d, target_spent=spent)
        nxt = dict(after, points=points, target_points=st["target_points"] - spent)
        if card is not None:
            return card_mark(i, st, after, grievous, d, nxt, local)
        marked = st["marked"] + d
        if marked == boxes:
            can_save = tough and not grievous and (not st["down"] or steady)
            branches = []
            for face in FACES:
                if can_save and face >= 5:
                    saved = dict(nxt, marked=boxes - 1, down=True)
                    branches.append((Fraction(1, 6), leaf(i, dict(local, tough=1), go_next(i, saved))))
                else:
                    branches.append((Fraction(1, 6), leaf(i, local, None)))
            return mix(branches)
        if d > 0 and not grievous and t.rapid_healing:
            marked = max(0, marked - t.rapid_healing)
        return leaf(i, local, go_next(i, dict(nxt, marked=marked)))

    def card_mark(i, st, after, grievous, d, nxt, local):
        """Mark ``d`` points on the card box by box: the column d6 (or the first X box of
        "damage to X"), then Tough (last box off) or Rapid Healing (last boxes off), then
        a crippled Cortex takes the target's points."""
        if d == 0:  # nothing dealt: no column roll
            return leaf(i, local, go_next(i, dict(nxt)))
        w = slots[i].weapon
        first = card.first_x(st["card"], w.damage_to) if w.damage_to else None
        if first is not None:
            landings = [(Fraction(1), first[0], first)]
        else:
            landings = [(Fraction(1, 6), face - 1, None) for face in FACES]
        branches = []
        for q, column, first_box in landings:
            order = card.mark(st["card"], column, d, first_box)
            if len(order) == boxes:
                can_save = tough and not grievous and (not st["down"] or steady)
                for face in FACES:
                    if can_save and face >= 5:
                        saved = settle(dict(nxt, down=True), order[:-1])
                        branches.append((q / 6, leaf(i, dict(local, tough=1), go_next(i, saved))))
                    else:
                        branches.append((q / 6, leaf(i, local, None)))
                continue
            if not grievous and t.rapid_healing:
                order = order[: max(0, len(order) - t.rapid_healing)]
            branches.append((q, leaf(i, local, go_next(i, settle(dict(nxt), order)))))
        return mix(branches)

    def settle(st, order):
        """The state after the attack with ``order`` marked; a crippled Cortex (grid) loses
        the target's points for good."""
        st["card"] = order if heals_possible else tuple(sorted(order))
        st["marked"] = len(order)
        if on_grid and "C" in card.crippled(order):
            st["target_points"] = 0
        return st

    first_points = 0
    if slots:
        a = slots[0].attacker_obj
        first_points = _bf_points(a)
    start = {
        "marked": 0,
        "down": "knocked_down" in t.state,
        "still": bool(set(t.state) & _STILL_STATES),
        "dispelled": False,
        "grievous": False,
        "effects": frozenset(),
        "target_points": field_points,
        "points": first_points,
    }
    if card is not None:
        start["card"] = ()
    tally = resolve(0, freeze(start))
    res = {
        "labels": [(s.attacker, s.weapon_index, s.bought) for s in slots],
        "kill": sum(tally.kill, Fraction(0)),
        "kill_at": tally.kill,
        "damage": [tally.damage.get(k, Fraction(0)) for k in range(boxes + 1)],
        "sq": tally.sq,
        "value": tally.value(objective, boxes),
    }
    for j, name in enumerate(BF_FIELDS):
        res[name] = [row[j] for row in tally.slots]
    if card is not None:
        res["letters"] = list(card.letters)
        res["cripple"] = [[row.get(x, Fraction(0)) for x in card.letters] for row in tally.cripple]
        res["box"] = [[tally.box.get((c, r), Fraction(0)) for r in range(len(card.cols[c]))]
                      for c in range(6)]
    return res

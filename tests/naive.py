"""Brute-force oracles written straight from docs/rules.md (sections 1, 2, 3, 5).

Nothing here calls :mod:`mathhammer.exact` or the derived helpers of the rules model
(``Weapon.attack_dice``, ``Target.defense_against`` ...): dice counts and DEF are recomputed
from the raw fields, every roll is enumerated face by face with :func:`itertools.product`, and
probabilities are exact rationals (GMP's ``mpq``, named ``Fraction`` here: it behaves as
:class:`fractions.Fraction` does, 5x faster). The sequence oracle walks the whole
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
from gmpy2 import mpq as Fraction  # exact rationals in C: the suite's oracles, 5x faster

from mathhammer.result import fields as _slots

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
    "BF_COLUMNS",
    "lex_key",
    "bf_slots",
    "bf_points",
    "bf_attack_roll",
    "bf_damage_roll",
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
# Rules model -> plain numbers, re-derived from docs/rules.md from the raw fields only.

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
#: Columns of the per-attack figures, in the order of mathhammer.result.SLOT_* (without
#: SLOT_DESTROYED: a unit is not brute-forced); ``shred``: the Shred attacks each led to.
BF_FIELDS = ("made", "hit", "crit", "dmg", "boost_attack", "boost_damage", "spent",
             "target_spent", "tough", "shred")
#: The fields of :data:`BF_FIELDS` best play compares (a collapsed tally keeps these alone).
_SPENT_FIELDS = frozenset({BF_FIELDS.index("spent"), BF_FIELDS.index("target_spent")})
#: The column of ``Result.slot_weights`` each of :data:`BF_FIELDS` is (the layout only).
BF_COLUMNS = (_slots.SLOT_MADE, _slots.SLOT_HIT, _slots.SLOT_CRIT, _slots.SLOT_DAMAGE,
              _slots.SLOT_BOOST_ATTACK, _slots.SLOT_BOOST_DAMAGE, _slots.SLOT_SPENT,
              _slots.SLOT_TARGET_SPENT, _slots.SLOT_TOUGH, _slots.SLOT_SHRED)


@dataclass(frozen=True)
class _Slot:
    attacker: int
    weapon_index: int
    attacker_obj: object
    weapon: object
    bought: bool
    charge: bool
    first: bool = False
    cost: int = 1  #: points it costs (bought attacks, reloads: 1; a spell's cast: its cost)
    stops: bool = True  #: not buying it ends the attacker's buying (a cast: skipped only)
    number: int = 0  #: its number among its weapon's initial attacks


def _bf_slots(scenario, every_bought) -> list[_Slot]:
    """Attackers in order: initial attacks of each weapon (the first melee one is the charge
    attack of a charging attacker), then one bought attack per point (with ``buy_attacks``,
    or always when ``every_bought(attacker_index)``) with the bought weapon, or the reloads
    of its ranged weapons (up to ``reload`` each, one per point)."""
    out = []
    for ai, a in enumerate(scenario.attackers):
        charge_left = a.charge
        power = [w for w in a.weapons if getattr(w, "power_attack", None)]
        for wi, w in enumerate(a.weapons):
            if power and w is not power[0]:  # a power attack is the whole combat action
                continue
            if w.cost:  # a spell: each cast costs its cost, the first too, up to `attacks`
                n = min(w.attacks, _bf_points(a) // w.cost)
                out += [_Slot(ai, wi, a, w, True, False, cost=w.cost, stops=False) for _ in range(n)]
                continue
            # a random rate of fire: as many slots as it may give (the roll decides which are made)
            most = {"d3": 3, "d6": 6, "2d3": 6}.get(w.attacks, w.attacks)
            for k in range(most):
                charge = charge_left and w.type == "melee"
                charge_left = charge_left and not charge
                out.append(_Slot(ai, wi, a, w, False, charge, number=k))
        melee = [(wi, w) for wi, w in enumerate(a.weapons) if w.type == "melee" and not getattr(w, "power_attack", None)]
        if melee and (every_bought(ai) or a.spend.buy_attacks):
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
        if _bf_points(a) and (every_bought(ai) or a.spend.buy_attacks):
            # Reload [N]: up to N additional ranged attacks with the weapon, a point each
            for wi, w in enumerate(a.weapons):
                if w.type == "ranged" and w.reload:
                    limit = _bf_points(a) if w.reload == "unlimited" else w.reload  # no limit but the points
                    out += [_Slot(ai, wi, a, w, True, False) for _ in range(min(limit, _bf_points(a)))]
    return [_Slot(s.attacker, s.weapon_index, s.attacker_obj, s.weapon, s.bought, s.charge,
                  k == 0 or out[k - 1].attacker != s.attacker, s.cost, s.stops, s.number) for k, s in enumerate(out)]


def _bf_points(a) -> int:
    """Points of an attacker: a warjack with a crippled Cortex has no focus, a warbeast with
    a crippled Spirit cannot be forced (docs/rules.md 3)."""
    focus = 0 if (a.model == "warjack" and "C" in a.crippled) else a.focus
    force = 0 if (a.model == "warbeast" and "S" in a.crippled) else a.force
    # a warjack spends a focus, a warbeast is forced, to make a power attack
    paid = a.model in ("warjack", "warbeast") and any(getattr(w, "power_attack", None) for w in a.weapons)
    return focus + a.fury + force - int(paid)


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
    """The dice kept: "lowest" / "highest" drop one die of two or more; "both" drops the
    lowest, then the highest, each while two or more dice are left."""
    kept = list(faces)
    if discard in ("lowest", "both") and len(kept) >= 2:
        kept.remove(min(kept))
    if discard in ("highest", "both") and len(kept) >= 2:
        kept.remove(max(kept))
    return kept


def _faces(faces, shark):
    """Jump the Shark: a die showing 1 counts as a 6."""
    return [6 if (shark and f == 1) else f for f in faces]


def _judge(faces, discard, skill, defense, shark=False, extra=None, crit_all=False, one_misses=False):
    """"miss", "hit" or "crit" of one attack roll; ``extra``: Sanguine Fate's die (only for
    doubles); ``crit_all``: the double judged on every die rolled; ``one_misses``: one kept
    die showing 1 misses."""
    faces = _faces(faces, shark)
    kept = _kept(faces, discard)
    if (len(kept) >= 2 or one_misses) and all(f == 1 for f in kept):
        return "miss"
    if len(kept) >= 2 and all(f == 6 for f in kept):
        hit = True
    else:
        hit = sum(kept) + skill >= defense
    if not hit:
        return "miss"
    judged = list(faces if crit_all else kept) + _faces([] if extra is None else [extra], shark)
    if len(judged) >= 2 and len(set(judged)) < len(judged):
        return "crit"
    return "hit"


@functools.cache
def _bf_attack_roll(n, discard, skill, defense, reroll, shark=False, sanguine=False, crit_all=False,
                    one_misses=False):
    out = {"miss": Fraction(0), "hit": Fraction(0), "crit": Fraction(0)}
    m = n + (1 if sanguine else 0)
    w = Fraction(1, 6**m)

    def judge(dice):
        return _judge(dice[:n], discard, skill, defense, shark, dice[n] if sanguine else None,
                      crit_all, one_misses)

    for first in itertools.product(FACES, repeat=m):
        res = judge(first)
        if res == "miss" and reroll:
            for second in itertools.product(FACES, repeat=m):
                out[judge(second)] += w * w
        else:
            out[res] += w
    return out


@functools.cache
def _bf_damage_roll(n, discard, pow_minus_arm, remaining, reroll, double, shark=False):
    """{points: probability} of a damage roll: discard, reroll, Decapitation, Jump the Shark."""
    out: dict[int, Fraction] = {}
    w = Fraction(1, 6**n)

    def points_of(faces):
        kept = _kept(_faces(faces, shark), discard)
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
    (``cripple[i][x]``), at the very end (``cripple_end[x]``) and of each box marked at the
    end (``box[(c, r)]``); over rounds, kills in each maintenance phase (``mkill[t]``) and
    the continuous-effect figures ``eff[(t, effect, column)]`` (columns of
    ``mathhammer.result.EFFECT_*``).

    Stored sparsely in one dict keyed by a tag and the entry (most entries of a tally near a
    leaf are zero, and adding one tally to another is then one loop); the attributes above
    read as dense lists or plain dicts. ``collapse``: every attack's figures summed as
    attack 0's, and only what best play compares kept (the kill, the damage marked, the
    points spent): enough for the value, and a smaller walk."""

    def __init__(self, n, turns=1, collapse=False):
        self.n, self.turns, self.collapse = n, turns, collapse
        self.v: dict = {}

    def add(self, p, other):
        """Add ``p`` times ``other``."""
        v = self.v
        if p == 1:
            for k, x in other.v.items():
                v[k] = v.get(k, 0) + x
        else:
            for k, x in other.v.items():
                v[k] = v.get(k, 0) + p * x

    def _bump(self, key, x):
        if x:
            self.v[key] = self.v.get(key, 0) + x

    def add_slot(self, i, j, x):
        if self.collapse:
            if j in _SPENT_FIELDS:
                self._bump(("s", 0, j), x)
        else:
            self._bump(("s", i, j), x)

    def add_sq(self, i, x):
        if not self.collapse:
            self._bump(("q", i), x)

    def add_eff(self, key, x):
        self._bump(("e", key), x)

    def set_kill(self, i):
        self.v[("k", 0 if self.collapse else i)] = Fraction(1)

    def set_mkill(self, t):
        self.v[("m", t)] = Fraction(1)

    def set_damage(self, marked):
        self.v[("d", marked)] = Fraction(1)

    def set_cripple(self, i, letters):
        """Attack ``i``'s letters crippled once it is resolved: ``letters`` (certain), replacing
        what was there."""
        if self.collapse:
            return
        for k in [k for k in self.v if k[0] == "r" and k[1] == i]:
            del self.v[k]
        for x in letters:
            self.v[("r", i, x)] = Fraction(1)

    def set_end(self, letters, boxes):
        """Crippled at the very end: ``letters``; marked at the end: ``boxes`` (certain)."""
        for x in letters:
            self.v[("c", x)] = Fraction(1)
        for b in boxes:
            self.v[("b", b)] = Fraction(1)

    def _tagged(self, tag) -> dict:
        return {k[1]: x for k, x in self.v.items() if k[0] == tag}

    @property
    def damage(self):
        return self._tagged("d")

    @property
    def eff(self):
        return self._tagged("e")

    @property
    def box(self):
        return self._tagged("b")

    @property
    def cripple_end(self):
        return self._tagged("c")

    @property
    def slots(self):
        out = [[Fraction(0)] * len(BF_FIELDS) for _ in range(self.n)]
        for k, x in self.v.items():
            if k[0] == "s":
                out[k[1]][k[2]] = x
        return out

    @property
    def kill(self):
        got = self._tagged("k")
        return [got.get(i, Fraction(0)) for i in range(self.n)]

    @property
    def sq(self):
        got = self._tagged("q")
        return [got.get(i, Fraction(0)) for i in range(self.n)]

    @property
    def cripple(self):
        out = [{} for _ in range(self.n)]
        for k, x in self.v.items():
            if k[0] == "r":
                out[k[1]][k[2]] = x
        return out

    @property
    def mkill(self):
        got = self._tagged("m")
        return [got.get(t, Fraction(0)) for t in range(self.turns)]

    def spent(self):
        """Points the attackers spent, and the target (against attacks and other points)."""
        sp, tsp = BF_FIELDS.index("spent"), BF_FIELDS.index("target_spent")
        attackers, target = Fraction(0), Fraction(0)
        for k, x in self.v.items():
            if k[0] == "s":
                if k[2] == sp:
                    attackers += x
                elif k[2] == tsp:
                    target += x
            elif k[0] == "e" and k[1][2] == _TSPENT:
                target += x
        return attackers, target

    def value(self, objective, boxes):
        if objective == "kill":
            return sum((x for k, x in self.v.items() if k[0] in ("k", "m")), Fraction(0))
        if objective.startswith("cripple:"):
            return self.v.get(("c", objective.split(":", 1)[1]), Fraction(0))
        return sum((k[1] * x for k, x in self.v.items() if k[0] == "d"), Fraction(0))


def lex_key(tally, objective, boxes, side):
    """What best play compares, written from docs/best-play.md ("Objectives"): the objective,
    then its secondary figures (``kill``: the damage marked; ``damage``: the kill;
    ``cripple:X``: the kill, then the damage), then the points spent. Signed so that the
    greater tuple is preferred by ``side``: an attacker wants more of every figure and fewer
    of the attackers' points (with ``keep_points``, the points come before the damage), the
    target less of every figure and fewer of its own points."""
    kill, damage = tally.value("kill", boxes), tally.value("damage", boxes)
    chain = {"kill": [("f", kill), ("d", damage)], "damage": [("d", damage), ("f", kill)]}.get(objective)
    if chain is None:
        chain = [("f", tally.value(objective, boxes)), ("f", kill), ("d", damage)]
    attackers, target = tally.spent()
    if side == "target":
        return tuple(-v for _, v in chain) + (-target,)
    if getattr(side, "keep_points", False):
        at = next(j for j, (kind, _) in enumerate(chain) if kind == "d")
        at += 1 if at == 0 else 0
        return tuple(v for _, v in chain[:at]) + (-attackers,) + tuple(v for _, v in chain[at:])
    return tuple(v for _, v in chain) + (-attackers,)


#: Continuous effects and hazards, in the order of ``mathhammer.result.EFFECT_NAMES``, and
#: the columns of the per-round figures (``EFFECT_*``).
BF_EFFECTS = ("fire", "corrosion", "quicksand")
BF_EFFECT_FIELDS = ("present", "applied", "damage", "kill", "after", "destroyed", "target_spent", "tough")
_PRESENT, _APPLIED, _DAMAGE, _KILL, _AFTER, _DESTROYED, _TSPENT, _TOUGH = range(8)
_FIRE, _CORROSION, _QUICKSAND = range(3)


def bf_activation(scenario, attackers: str = "scenario", objective: str | None = None,
                  order: str = "listed", figures: str = "all") -> dict:
    """Brute-force the whole scenario of docs/activation.md: every attack of every round
    with an attack phase, and the end of every round (burning earth, the maintenance phase's
    fire and corrosion, hazards), on a damage track, grid or spiral.

    Parameters
    ----------
    attackers : {"scenario", "fixed", "optimal"}
        "fixed": every attacker follows its ``spend`` policy. "optimal": each decision
        (buy, attack boost, damage boost) maximises ``objective``; one bought slot per point
        for attackers with a melee weapon. "scenario" (the default): each attacker as its
        policy says (``"best"`` with points: optimal; else fixed).
    objective : {"kill", "damage", "cripple:X"}, optional
        What optimal attackers maximise and a target with ``power_field="best"`` minimises;
        the scenario's objective by default.
    order : {"listed", "adaptive", "every"}
        "listed": the attackers activate in the scenario's order. "adaptive" (one round of
        attacks): before each activation, the player picks the attacker still to activate
        whose activation (and best choices after it) it prefers, lexicographically as an
        attacker's decision (:func:`lex_key`), knowing everything so far. "every" (one
        round): every order of the attackers and the adaptive one, in one walk (orders that
        reach the same state with the same attackers to come share what follows); returns
        ``{"values": {order: value}}``, each order a tuple of attacker indices, the adaptive
        one ``"adaptive"``.
    figures : {"all", "value"}
        "value": only ``value``, ``kill`` and ``damage`` are returned (every attack's
        figures summed together as it walks: several times faster).

    Returns
    -------
    dict
        ``kill`` (Fraction: attacks and maintenance phases), ``damage`` (list over
        0..boxes), per attack slot of every round (round-major) lists for each of
        :data:`BF_FIELDS` and ``kill_at`` (attack kills, quicksand's included), ``sq``
        (E[marked**2]), ``labels`` and ``value``; ``turns``, ``mkill`` (per round, kills in
        its maintenance phase), ``kill_by_turn`` (killed by the end of each round) and
        ``effects`` (``[round][effect][column]``, :data:`BF_EFFECTS` by
        :data:`BF_EFFECT_FIELDS`). On a grid or spiral also ``letters`` (alphabet order),
        ``cripple`` (per attack, a list over the letters: crippled once it is resolved;
        after a kill every letter), ``cripple_end`` (crippled at the very end) and ``box``
        (per column, a list over its rows: marked at the end).

    Each round (docs/rules.md 4): the attack phase (the target as its starting state says again,
    its focus or fury back unless its Cortex was ever crippled, -DEF / -ARM effects, Dispel
    and Grievous Wounds gone, the attackers' points full); a burning earth goes out on a d6
    of 1-2; fire then corrosion: a d6, 1-2 expires, else fire rolls 2d6 + 12 against the
    target's ARM (base, spells, upkeep unless dispelled, Shield and Buckler unless crippled
    or inert, less -ARM effects) and corrosion deals 1; the target's activation gives
    Corrosion (acid bath) and Fire (burning earth still burning), never a resisted type; a
    burning earth goes out on a d6 of 1-2. Quicksand: a hit that knocks the target down (it
    was not down, and no Tough save knocked it down in that attack) deals it 1 point at once.
    Points outside attacks: the power field spends focus only (a crippled G stops it),
    marked (the column d6 on a card), Tough roll, no Rapid Healing.
    """
    t = scenario.target
    if objective is None:
        objective = scenario.objective
    plays = [attackers == "optimal" or (attackers == "scenario" and a.policy == "best" and _bf_points(a) > 0)
             for a in scenario.attackers]
    base_slots = _bf_slots(scenario, every_bought=lambda ai: plays[ai])
    n0 = len(base_slots)
    turns = scenario.turns
    rounds = turns if scenario.attack_turns == "all" else 1
    slots = base_slots * rounds
    n = len(slots)
    boxes = t.boxes
    inert = bool(set(t.state) & {"inert", "wild"})
    situations = set(t.state)
    hazards = set()
    for name in t.terrain:
        if name in ("acid_bath", "burning_earth", "quicksand"):
            hazards.add(name)
            continue
        if name == "tall_grass" and t.base not in ("small", "medium"):
            continue
        situations.add(_TERRAIN_GIVES[name])
    upkeep_rules = set(getattr(t, "upkeep_rules", ()))  # Tough / Unyielding from an upkeep spell
    tough = "tough" in t.rules or "tough_steady" in t.rules or "tough" in upkeep_rules
    steady = "tough_steady" in t.rules

    def has_tough(dispelled):
        """Tough, unless it came from an upkeep spell a Dispel has ended."""
        return tough and not (dispelled and "tough" in upkeep_rules and "tough" not in t.rules)
    tough_on = getattr(t, "tough_on", 5)  # the d6 Tough needs (a setting; 5: 5 or 6)
    field_points = 0 if inert else t.focus + t.fury
    # settings: the most points one damage roll takes; Rapid Healing after every damaging hit
    field_limit = getattr(scenario, "power_field_per_attack", 0) or 99
    when_hit = getattr(scenario, "rapid_healing_when_hit", False)
    field_kind = "focus" if t.focus else "fury"
    field = t.power_field
    target_objective = objective
    card = _BfCard(t) if (t.grid is not None or t.spiral is not None) else None
    on_grid = card is not None and card.grid
    heals_possible = tough or t.rapid_healing != 0
    resists = set(t.resist)

    def crippled_now(st):
        """Grid systems crippled in the state (the feedback on the target reads them)."""
        return card.crippled(st["card"]) if on_grid else set()

    def minus(effects, which):
        total = 0
        for _name, def_minus, arm_minus in effects:
            total += def_minus if which == "def" else arm_minus
        return total

    def defense(w, st):
        # knocked down, stationary (an Ice Cage from its second stack too), paralyzed, crippled M
        base = 5 if (st["down"] or st["still"] or st.get("paralyzed") or "M" in crippled_now(st)) else t.defense
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
        feat = getattr(t, "feat_def", 0)  # a feat: no spell, neither Dispel nor Blessed ends it
        return base + mod + spells + feat - minus(st["effects"], "def") - 2 * st.get("ice", 0)

    def shields(crippled):
        if inert:
            return 0
        return 2 * len([x for x in t.shield if x not in crippled]) + len([x for x in t.buckler if x not in crippled])

    def armor(w, dispelled, effects, crippled=frozenset(), crit=False):
        piercing = "armor_piercing" in w.rules or (crit and "critical_armor_piercing" in w.rules)
        arm = (t.arm + 1) // 2 if piercing else t.arm
        arm += getattr(t, "feat_arm", 0)  # a feat's ARM: no spell, against every attack
        if w.type == "melee" and "unyielding" in t.rules:
            arm += 2
        if w.type == "ranged" and "carapace" in t.rules:
            arm += 4
        if "blessed" not in w.rules:
            arm += t.spell_arm + (0 if dispelled else t.upkeep_arm)
        if w.type == "melee" and "unyielding" in upkeep_rules and not dispelled:
            arm += 2  # Unyielding from an upkeep spell: a rule, not ignored by Blessed
        if "chain_weapon" not in w.rules:
            arm += shields(crippled)
        return arm - minus(effects, "arm")

    def fire_armor(st):
        """ARM against fire (not an attack: no Unyielding, Carapace, Armor-Piercing)."""
        arm = t.arm + t.spell_arm + getattr(t, "feat_arm", 0) + (0 if st["dispelled"] else t.upkeep_arm)
        return arm + shields(crippled_now(st)) - minus(st["effects"], "arm") - st.get("arm_extra", 0)

    def freeze(st):
        return tuple(sorted(st.items()))

    def tally():
        return _Tally(n, turns, figures == "value")

    def killed(row=None, round_=None):
        """The trial ends: by attack slot ``row`` (its kill, quicksand's included) or in the
        maintenance phase of ``round_``."""
        out = tally()
        out.set_damage(boxes)
        first = row if row is not None else min(n, (round_ + 1) * n0)
        if row is not None:
            out.set_kill(row)
        else:
            out.set_mkill(round_)
        if card is not None:  # every box marked: every letter crippled from here on
            for j in range(first, n):
                out.set_cripple(j, {x: Fraction(1) for x in card.letters})
            out.set_end(card.letters, card.all)
        return out

    # a collapsed tally (the value alone) counts the points spent and no other field
    slot_fields = ([(j, BF_FIELDS[j]) for j in sorted(_SPENT_FIELDS)] if figures == "value"
                   else list(enumerate(BF_FIELDS)))

    def leaf(i, local, child):
        """``local`` counts of attack ``i`` added to ``child`` (None: killed here)."""
        out = tally()
        out.add(Fraction(1), killed(row=i) if child is None else child)
        for j, name in slot_fields:
            out.add_slot(i, j, local.get(name, 0))
        out.add_sq(i, local.get("dmg", 0) ** 2)
        return out

    def mix(branches):
        shares = {}  # a tally on several branches is added once, with their shares summed
        for p, tl in branches:
            shares[id(tl)] = (shares[id(tl)][0] + p, tl) if id(tl) in shares else (p, tl)
        out = tally()
        for p, tl in shares.values():
            out.add(p, tl)
        return out

    def with_eff(tl, key, amount):
        out = mix([(Fraction(1), tl)])
        if amount:
            out.add_eff(key, amount)
        return out

    def best(options, side, obj):
        """The option ``side`` (an attacker, or ``"target"``) prefers, lexicographically over
        its chain (:func:`lex_key`); the first listed on a tie."""
        keys = [lex_key(o, obj, boxes, side) for o in options]
        chosen = 0
        for j in range(1, len(options)):
            if keys[j] > keys[chosen]:
                chosen = j
        return options[chosen]

    def settle(st, order):
        """The state with ``order`` marked; a crippled Cortex (grid) loses the target's
        points for good."""
        st["card"] = order if heals_possible else tuple(sorted(order))
        st["marked"] = len(order)
        if on_grid and "C" in card.crippled(order):
            st["target_points"] = 0
            st["lost"] = True
        return st

    # ------------------------------------------------------------------ points outside attacks
    def suffer(st, x, then):
        """The target suffers ``x`` points that are not an attack's; ``then(st2, taken,
        spent, saved)`` is what follows (``st2`` None: killed; ``spent``: the focus the
        power field spent; ``saved``: 1 where a Tough roll saved the target)."""
        remaining = boxes - st["marked"]
        left = st["target_points"]
        if field_points == 0 or field_kind != "focus" or left == 0 or field == "never" or "G" in crippled_now(st):
            return suffer_mark(st, x, then)
        if field == "lethal":
            if x >= remaining:
                k = -(-(x - remaining + 1) // 5)
                if k <= min(left, field_limit):
                    return suffer_mark(dict(st, target_points=left - k), max(0, x - 5 * k), then, k)
            return suffer_mark(st, x, then)
        options = [suffer_mark(st, x, then)]
        k = 1
        while k <= min(left, field_limit) and 5 * (k - 1) < x:
            options.append(suffer_mark(dict(st, target_points=left - k), max(0, x - 5 * k), then, k))
            k += 1
        return best(options, "target", target_objective)

    def suffer_mark(st, x, then, spent=0):
        remaining = boxes - st["marked"]
        d = min(x, remaining)
        can_save = has_tough(st["dispelled"]) and not st["grievous"] and (not st["down"] or steady)
        if card is None:
            if st["marked"] + d < boxes:
                return then(dict(st, marked=st["marked"] + d), d, spent, 0)
            branches = []
            for face in FACES:
                if can_save and face >= tough_on:
                    branches.append((Fraction(1, 6), then(dict(st, marked=boxes - 1, down=True), d, spent, 1)))
                else:
                    branches.append((Fraction(1, 6), then(None, d, spent, 0)))
            return mix(branches)
        if d == 0:
            return then(dict(st), 0, spent, 0)
        branches = []
        for column in FACES:
            order = card.mark(st["card"], column - 1, d)
            if len(order) == boxes:
                for face in FACES:
                    if can_save and face >= tough_on:
                        saved = settle(dict(st, down=True), order[:-1])
                        branches.append((Fraction(1, 36), then(saved, d, spent, 1)))
                    else:
                        branches.append((Fraction(1, 36), then(None, d, spent, 0)))
            else:
                branches.append((Fraction(1, 6), then(settle(dict(st), order), d, spent, 0)))
        return mix(branches)

    def with_suffered(out, rnd, k, taken, killed_, spent, saved):
        """The figures of points suffered from effect ``k`` in round ``rnd``."""
        out = with_eff(out, (rnd, k, _DAMAGE), taken)
        if killed_:
            out = with_eff(with_eff(out, (rnd, k, _KILL), 1), (rnd, k, _DESTROYED), 1)
        return with_eff(with_eff(out, (rnd, k, _TSPENT), spent), (rnd, k, _TOUGH), saved)

    # ------------------------------------------------------------------ the attacks
    def go_next(i, st):
        """Attack slot ``i`` is resolved, the target standing in ``st`` (or, owing a Shred
        attack, made again with the same weapon)."""
        if st.get("chain", 0):
            return shred_again(i, freeze(st))
        return after_slot(i, freeze(st))

    @functools.cache
    def shred_again(i, frozen):
        st = dict(frozen)
        return attack(i, st, 0, st["chain_weapon"], again=True)

    first_of = {}
    for k, s_ in enumerate(base_slots):
        first_of.setdefault(s_.attacker, k)
    if order != "listed" and rounds > 1:
        raise ValueError("the adaptive order is one round's")

    def next_in_queue(st):
        """A fixed order: the next attacker of the state's ``queue`` (none left: the end of
        the round)."""
        queue = st["queue"]
        if not queue:
            return round_end(0, freeze(dict(st, points=0)))
        b = queue[0]
        return resolve(first_of[b], freeze(dict(st, points=_bf_points(slots[first_of[b]].attacker_obj),
                                                sustained=False, queue=queue[1:])))

    def next_activation(st, done):
        """The adaptive order: the player's pick among the attackers not yet ``done``
        (none left: the end of the round). With one attacker left after the pick, the order
        is fixed from there: the state takes the fixed orders' form (a ``queue``), so that
        the walk shares what follows with them."""
        base = {k: v for k, v in st.items() if k not in ("done", "queue")}
        left = [b for b in sorted(first_of) if b not in done]
        if not left:
            return round_end(0, freeze(dict(base, points=0, queue=())))
        options = []
        for b in left:
            rest = tuple(x for x in left if x != b)
            form = {"queue": rest} if len(rest) <= 1 else {"done": done}
            options.append(resolve(first_of[b], freeze(dict(base, points=_bf_points(slots[first_of[b]].attacker_obj),
                                                            sustained=False, **form))))
        return best(options, "player", objective)

    @functools.cache
    def after_slot(i, frozen):
        st = dict(frozen)
        if order != "listed" and (i + 1 == n or slots[i + 1].first):  # an activation has ended
            if "queue" in st:
                out = next_in_queue(st)
            else:
                out = next_activation(st, st["done"] | {slots[i].attacker})
        elif (i + 1) % n0 == 0:  # the last attack of its round
            out = round_end(i // n0, freeze(dict(st, points=0)))
        else:
            nxt = dict(st)
            if slots[i + 1].first:  # a new activation: its points, no Sustained Attack yet
                nxt["points"] = _bf_points(slots[i + 1].attacker_obj)
                nxt["sustained"] = False
            out = resolve(i + 1, freeze(nxt))
        out = mix([(Fraction(1), out)])
        if card is not None:
            out.set_cripple(i, {x: Fraction(1) for x in card.crippled(st["card"])})
        return out

    @functools.cache
    def resolve(i, frozen):
        st = dict(frozen)
        slot = slots[i]
        if slot.bought:
            skip = leaf(i, {}, go_next(i, st))
            if st["points"] < slot.cost:
                return skip
            bought = attack(i, st, slot.cost)
            if not plays[slot.attacker]:
                return bought
            # docs/best-play.md: not buying an attack ends the attacker's buying; not casting a
            # spell skips that cast
            stop = leaf(i, {}, go_next(i, dict(st, points=0))) if slot.stops else skip
            # an additional melee attack: with any melee weapon (unless buy_weapon names one)
            a = slot.attacker_obj
            others = []
            if slot.weapon.type == "melee" and a.buy_weapon is None:
                others = [attack(i, st, slot.cost, w) for w in a.weapons
                          if w.type == "melee" and w is not slot.weapon and not getattr(w, "power_attack", None)]
            return best([stop, bought, *others], slot.attacker_obj, objective)
        if isinstance(slot.weapon.attacks, str):  # a random rate of fire
            if slot.number == 0:  # rolled before its first attack
                odds = {"d3": {k: Fraction(1, 3) for k in (1, 2, 3)},
                        "d6": {k: Fraction(1, 6) for k in range(1, 7)},
                        "2d3": {a + b: 0 for a in (1, 2, 3) for b in (1, 2, 3)}}[slot.weapon.attacks]
                if slot.weapon.attacks == "2d3":
                    for a in (1, 2, 3):
                        for b in (1, 2, 3):
                            odds[a + b] += Fraction(1, 9)
                return mix([(q, attack(i, dict(st, shots=k), 0)) for k, q in odds.items()])
            if slot.number >= st["shots"]:
                return leaf(i, {}, go_next(i, st))  # not made
        return attack(i, st, 0)

    def attack(i, st, buy, weapon=None, again=False):
        """Slot ``i``'s attack (``again``: a Shred attack, counted as such, not as made, hit or
        critical)."""
        slot = slots[i]
        w, a = weapon or slot.weapon, slot.attacker_obj
        combined = a.combined if a.combined >= 2 else 0
        skill = w.skill + combined
        sizes = ("small", "medium", "large", "extra_large", "huge")
        if getattr(w, "power_attack", None) == "slam" and sizes.index(t.base) > sizes.index(a.base):
            skill -= 2  # slamming a larger base
        # the point a warjack or warbeast paid for its power attack, counted when it is made
        power_paid = int(bool(getattr(w, "power_attack", None)) and not again and slot.weapon is w
                         and a.model in ("warjack", "warbeast"))
        points = st["points"] - buy
        sustained = bool(w.rules & {"sustained_attack", "critical_sustained_attack"}) and st.get("sustained", False)
        if getattr(w, "auto_hit", False) or sustained or (w.type == "melee" and (st["down"] or st["still"])):
            counted = {"shred": 1} if again else {"made": 1, "hit": 1}
            return hit(i, st, False, points, dict(counted, spent=buy + power_paid, weapon=w))
        DEF = defense(w, st)
        need = DEF - skill
        # a cavalry model's charge attack: its attack roll boosted, free, as a weapon's can be
        free = w.boosted_attack or (slot.charge and getattr(a, "cavalry", False))
        raw = 2 + (1 if free else 0) + w.extra_attack_dice - _bf_less_dice(a, w)[0]
        can = not free and raw >= 1  # a paid boost must add a die
        if plays[slot.attacker]:
            choices = [0, 1] if can and points > 0 else [0]
        else:
            s = a.spend
            wants = s.boost_attack == "always" or (s.boost_attack == "auto" and need >= s.boost_attack_at)
            choices = [1 if (can and points > s.reserve and wants) else 0]
        trees = []
        for paid in choices:
            n_dice = max(1, 2 + (1 if free else 0) + paid + w.extra_attack_dice
                         - _bf_less_dice(a, w)[0])
            roll = _bf_attack_roll(n_dice, w.attack_discard, skill, DEF, "reroll_attack" in w.rules,
                                   "jump_the_shark" in w.rules, "sanguine_fate" in w.rules,
                                   getattr(scenario, "crit_counts_discarded", False),
                                   getattr(scenario, "single_die_one_misses", False))
            local = {"shred" if again else "made": 1, "boost_attack": paid, "spent": buy + paid + power_paid,
                     "weapon": w}
            branches = []
            if roll["miss"]:
                branches.append((roll["miss"], leaf(i, local, go_next(i, dict(st, points=points - paid, chain=0)))))
            for res in ("hit", "crit"):
                if roll[res]:
                    counted = {} if again else {"hit": 1, "crit": int(res == "crit")}
                    tree = hit(i, st, res == "crit", points - paid, dict(local, **counted))
                    if st.get("blocks", 0) and w.type == "ranged":
                        # Shield Guard: the target's side blocks the hit (it counts as a hit
                        # and does nothing else) or not, whichever it prefers
                        blocked = leaf(i, dict(local, **counted),
                                       go_next(i, dict(st, points=points - paid, chain=0, blocks=st["blocks"] - 1)))
                        tree = best([tree, blocked], "target", target_objective)
                    branches.append((roll[res], tree))
            trees.append(mix(branches))
        return best(trees, slots[i].attacker_obj, objective) if len(trees) > 1 else trees[0]

    def hit(i, st, crit, points, local):
        slot = slots[i]
        w, a = local["weapon"], slot.attacker_obj  # the weapon it is made with
        rules = set(w.rules)
        dispelled = st["dispelled"] or "dispel" in rules or (crit and "critical_dispel" in rules)
        grievous = st["grievous"] or "grievous_wounds" in rules or (crit and "critical_grievous_wounds" in rules)
        effects = set(st["effects"])
        arm_extra = st.get("arm_extra", 0)
        if (w.def_minus or w.arm_minus) and (w.effect_on == "hit" or crit):
            ident = (w.name, w.def_minus, w.arm_minus)
            if ident in effects and getattr(scenario, "arm_minus_stacks_same_weapon", False):
                arm_extra = min(63, arm_extra + w.arm_minus)  # its -ARM again (setting)
            effects.add(ident)
        knocks = "knockdown" in rules or (crit and "critical_knockdown" in rules)
        fire = st["fire"] or (("fire" in rules or (crit and "critical_fire" in rules)) and "fire" not in resists)
        corrosion = st["corrosion"] or (("corrosion" in rules or (crit and "critical_corrosion" in rules))
                                        and "corrosion" not in resists)
        # Ice Cage: a stack a hit (-2 DEF each, at most 15), stationary from the second
        ice = min(15, st.get("ice", 0) + int("ice_cage" in rules or (crit and "critical_ice_cage" in rules)))
        paralyzed = st.get("paralyzed", False) or "paralysis" in rules or (crit and "critical_paralysis" in rules)
        # Shred: a critical hit owes one more attack with this weapon, 20 at most in a chain
        chain = st.get("chain", 0) + 1 if crit and "shred" in rules and st.get("chain", 0) < 20 else 0
        after = dict(st, chain=chain, chain_weapon=w if chain else None, dispelled=dispelled, grievous=grievous, effects=frozenset(effects),
                     down=st["down"] or knocks, fire=fire, corrosion=corrosion, ice=ice, paralyzed=paralyzed,
                     sustained=st.get("sustained", False) or "sustained_attack" in rules
                     or (crit and "critical_sustained_attack" in rules), arm_extra=arm_extra,
                     still=st["still"] or "stationary" in rules or (crit and "critical_stationary" in rules)
                     or ice >= 2)
        quick = "quicksand" in hazards and knocks and not st["down"]
        if w.pow is None:
            return leaf(i, local, after_quicksand(i, dict(after, points=points), quick))
        combined = a.combined if a.combined >= 2 else 0
        POW = w.pow + combined
        late = getattr(scenario, "dispel_from_next_attack", False)  # Dispel from the next attack
        ARM = armor(w, st["dispelled"] if late else dispelled, st["effects"], crippled_now(st), crit) - st.get(
            "arm_extra", 0)
        types = set(w.damage_type) | ({"magical"} if w.type == "arcane" else set())
        brutal = "brutal_damage" in rules and (crit or scenario.brutal_damage == "hit")
        free = w.boosted_damage or slot.charge
        dice = (2 + (1 if free else 0) + ("weapon_master" in rules) + w.extra_damage_dice
                + (1 if getattr(w, "slam_contact", False) else 0)
                - _bf_less_dice(a, w)[1] - (1 if types & resists else 0) + (1 if brutal else 0)
                + (1 if "trash" in rules and st["down"] else 0) + (1 if "shatter" in rules and st["still"] else 0))
        remaining = boxes - st["marked"]
        s = a.spend

        def kept_n(n_dice):
            return len(_kept([1] * n_dice, w.damage_discard))

        if free or dice < 1:  # free, or a paid die lost in the floor of one
            choices = [0]
        elif plays[slot.attacker]:
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
                                   "reroll_damage" in rules,
                                   "decapitation_on_hit" in rules or (crit and "decapitation" in rules),
                                   "jump_the_shark" in rules)
            local2 = dict(local, boost_damage=paid, spent=local["spent"] + paid)
            branches = [(p, field_step(i, st, after, grievous, x, points - paid, local2, quick))
                        for x, p in roll.items()]
            trees.append(mix(branches))
        return best(trees, slots[i].attacker_obj, objective) if len(trees) > 1 else trees[0]

    def after_quicksand(i, st, quick):
        """Knocked down in quicksand by the hit of slot ``i``: 1 damage point at once."""
        if not quick:
            return go_next(i, st)
        rnd = i // n0

        def then(st2, taken, spent, saved):
            out = killed(row=i) if st2 is None else go_next(i, st2)
            return with_suffered(out, rnd, _QUICKSAND, taken, st2 is None, spent, saved)

        return suffer(st, 1, then)

    def field_step(i, st, after, grievous, x, points, local, quick):
        remaining = boxes - st["marked"]
        left = st["target_points"]
        args = (i, st, after, grievous)
        if field_points == 0 or left == 0 or field == "never" or "G" in crippled_now(st):
            return mark(*args, x, 0, points, local, quick, x)
        if field == "lethal":
            if x < remaining:
                return mark(*args, x, 0, points, local, quick, x)
            if field_kind == "fury":
                return mark(*args, 0, 1, points, local, quick, x)
            k = -(-(x - remaining + 1) // 5)
            if k <= min(left, field_limit):
                return mark(*args, max(0, x - 5 * k), k, points, local, quick, x)
            return mark(*args, x, 0, points, local, quick, x)
        # optimal
        options = [mark(*args, x, 0, points, local, quick, x)]
        if field_kind == "fury":
            if x > 0:
                options.append(mark(*args, 0, 1, points, local, quick, x))
        else:
            k = 1
            while k <= min(left, field_limit) and 5 * (k - 1) < x:
                options.append(mark(*args, max(0, x - 5 * k), k, points, local, quick, x))
                k += 1
        return best(options, "target", target_objective)

    def mark(i, st, after, grievous, x, spent, points, local, quick, rolled=0):
        remaining = boxes - st["marked"]
        d = min(x, remaining)
        local = dict(local, dmg=d, target_spent=spent)
        nxt = dict(after, points=points, target_points=st["target_points"] - spent)
        if card is not None:
            return card_mark(i, st, grievous, d, nxt, local, quick)
        marked = st["marked"] + d
        if marked == boxes:
            # knocked down (with knockdown_before_tough, or by a power attack: by this hit
            # too) stops a Tough roll
            first = getattr(scenario, "knockdown_before_tough", False) or getattr(local["weapon"], "power_attack", None)
            down = nxt["down"] if first else st["down"]
            can_save = has_tough(nxt["dispelled"]) and not grievous and (not down or steady)
            # with rapid_healing_when_hit, Rapid Healing after the save too
            heals = [(Fraction(1), 0)]
            if when_hit and t.rapid_healing == "d3":
                heals = [(Fraction(1, 3), h) for h in (1, 2, 3)]
            elif when_hit and t.rapid_healing:
                heals = [(Fraction(1), t.rapid_healing)]
            branches = []
            dead = leaf(i, local, None)  # the same leaf on every face not saved
            for face in FACES:
                if can_save and face >= tough_on:
                    for share, h in heals:
                        saved = dict(nxt, marked=max(0, boxes - 1 - h), down=True)
                        branches.append((Fraction(1, 6) * share, leaf(i, dict(local, tough=1), go_next(i, saved))))
                else:
                    branches.append((Fraction(1, 6), dead))
            return mix(branches)
        damaged = rolled > 0 if when_hit else d > 0  # the damage roll, or the boxes marked
        if damaged and not grievous and t.rapid_healing == "d3":  # a d3 of them: three branches
            return mix([(Fraction(1, 3), leaf(i, local, after_quicksand(i, dict(nxt, marked=max(0, marked - h)),
                                                                       quick))) for h in (1, 2, 3)])
        if damaged and not grievous and t.rapid_healing:
            marked = max(0, marked - t.rapid_healing)
        return leaf(i, local, after_quicksand(i, dict(nxt, marked=marked), quick))

    def card_mark(i, st, grievous, d, nxt, local, quick):
        """Mark ``d`` points on the card box by box: the column d6 (or the first X box of
        "damage to X"), then Tough (last box off) or Rapid Healing (last boxes off), then
        a crippled Cortex takes the target's points."""
        if d == 0:  # nothing dealt: no column roll
            return leaf(i, local, after_quicksand(i, dict(nxt), quick))
        w = local.get("weapon", slots[i].weapon)
        first = card.first_x(st["card"], w.damage_to) if w.damage_to else None
        if first is not None:
            landings = [(Fraction(1), first[0], first)]
        else:
            landings = [(Fraction(1, 6), face - 1, None) for face in FACES]
        branches = []
        for q, column, first_box in landings:
            order = card.mark(st["card"], column, d, first_box)
            if len(order) == boxes:
                first_ = getattr(scenario, "knockdown_before_tough", False) or getattr(local["weapon"], "power_attack", None)
                down = nxt["down"] if first_ else st["down"]
                can_save = has_tough(nxt["dispelled"]) and not grievous and (not down or steady)
                for face in FACES:
                    if can_save and face >= tough_on:
                        saved = settle(dict(nxt, down=True), order[:-1])
                        branches.append((q / 6, leaf(i, dict(local, tough=1), go_next(i, saved))))
                    else:
                        branches.append((q / 6, leaf(i, local, None)))
                continue
            if not grievous and t.rapid_healing:
                order = order[: max(0, len(order) - t.rapid_healing)]
            branches.append((q, leaf(i, local, after_quicksand(i, settle(dict(nxt), order), quick))))
        return mix(branches)

    # ------------------------------------------------------------------ the end of a round
    # Each step is memoised on the round and the full state (nothing else is shared).
    @functools.cache
    def round_end(rnd, frozen):
        """From the end of round ``rnd``'s attack phase (or its start, without one)."""
        st = dict(frozen)
        if not st["earth"]:
            return fire_step(rnd, frozen)
        branches = []
        for face in FACES:  # the end of the attackers' turn
            branches.append((Fraction(1, 6), fire_step(rnd, freeze(dict(st, earth=face > 2)))))
        return mix(branches)

    @functools.cache
    def fire_step(rnd, frozen):
        return effect_step(rnd, dict(frozen), "fire", _FIRE, corrosion_step)

    @functools.cache
    def corrosion_step(rnd, frozen):
        return effect_step(rnd, dict(frozen), "corrosion", _CORROSION, activation)

    @functools.cache
    def effect_applies(rnd, frozen, name, k, follow, x):
        """Effect ``name`` applies: the target suffers ``x`` points, then ``follow``."""

        def then(st2, taken, spent, saved):
            out = killed(round_=rnd) if st2 is None else follow(rnd, freeze(st2))
            out = with_suffered(out, rnd, k, taken, st2 is None, spent, saved)
            return with_eff(out, (rnd, k, _APPLIED), 1)

        return suffer(dict(frozen), x, then)

    def effect_step(rnd, st, name, k, follow):
        if not st[name]:
            return follow(rnd, freeze(st))
        branches = []
        frozen = freeze(st)
        for face in FACES:
            if face <= 2:  # expires with no effect
                branches.append((Fraction(1, 6), follow(rnd, freeze(dict(st, **{name: False})))))
            elif name == "fire":  # a POW 12 damage roll: every face of its two dice
                arm = fire_armor(st)
                for a_, b_ in itertools.product(FACES, repeat=2):
                    x = max(0, a_ + b_ + 12 - arm)
                    branches.append((Fraction(1, 216), effect_applies(rnd, frozen, name, k, follow, x)))
            else:  # corrosion: 1 damage point
                branches.append((Fraction(1, 6), effect_applies(rnd, frozen, name, k, follow, 1)))
        return with_eff(mix(branches), (rnd, k, _PRESENT), 1)

    @functools.cache
    def activation(rnd, frozen):
        st = dict(frozen)
        if "acid_bath" in hazards and "corrosion" not in resists:
            st["corrosion"] = True
        if st["earth"] and "fire" not in resists:
            st["fire"] = True
        if not st["earth"]:
            return next_round(rnd, st)
        branches = []
        for face in FACES:  # the end of the target's turn
            branches.append((Fraction(1, 6), next_round(rnd, dict(st, earth=face > 2))))
        return mix(branches)

    def next_round(rnd, st):
        out = tally()
        if rnd + 1 >= turns:  # the end
            out.set_damage(st["marked"])
            if card is not None:
                out.set_end(card.crippled(st["card"]), st["card"])
        else:
            new = dict(st, down="knocked_down" in t.state, still=bool(set(t.state) & _STILL_STATES),
                       dispelled=False, grievous=False, effects=frozenset(), ice=0, paralyzed=False,
                       sustained=False, arm_extra=0,
                       target_points=0 if st["lost"] else field_points, points=0)
            if rnd + 1 < rounds:
                new["points"] = _bf_points(slots[(rnd + 1) * n0].attacker_obj)
                out = mix([(Fraction(1), resolve((rnd + 1) * n0, freeze(new)))])
            else:
                out = mix([(Fraction(1), round_end(rnd + 1, freeze(new)))])
        if st["fire"]:
            out.add_eff((rnd, _FIRE, _AFTER), 1)
        if st["corrosion"]:
            out.add_eff((rnd, _CORROSION, _AFTER), 1)
        return out

    first_points = 0
    if slots:
        first_points = _bf_points(slots[0].attacker_obj)
    start = {
        "marked": 0,
        "down": "knocked_down" in t.state,
        "still": bool(set(t.state) & _STILL_STATES),
        "dispelled": False,
        "grievous": False,
        "effects": frozenset(),
        "target_points": field_points,
        "points": first_points,
        "fire": "fire" in t.effects,
        "corrosion": "corrosion" in t.effects,
        "earth": "burning_earth" in hazards,
        "lost": False,
    }
    if getattr(t, "guard_blocks", 0):
        start["blocks"] = t.guard_blocks  # Shield Guard's blocks left
    if card is not None:
        start["card"] = ()
    if order == "every":
        values = {}
        for o in itertools.permutations(sorted(first_of)):
            values[o] = next_in_queue(dict(start, queue=o)).value(objective, boxes)
        values["adaptive"] = next_activation(dict(start, done=frozenset()), frozenset()).value(objective, boxes)
        return {"values": values}
    if order == "adaptive":
        start["done"] = frozenset()
        result = mix([(Fraction(1), next_activation(start, frozenset()))])
    else:
        result = resolve(0, freeze(start))
    if figures == "value":
        return {"value": result.value(objective, boxes), "kill": result.value("kill", boxes),
                "damage": [result.damage.get(k, Fraction(0)) for k in range(boxes + 1)]}
    per_turn = [sum((result.kill[j] for j in range(n) if j // n0 == r), Fraction(0)) + result.mkill[r]
                for r in range(turns)]
    res = {
        "labels": [(s.attacker, s.weapon_index, s.bought) for s in slots],
        "kill": sum(result.kill, Fraction(0)) + sum(result.mkill, Fraction(0)),
        "kill_at": result.kill,
        "damage": [result.damage.get(k, Fraction(0)) for k in range(boxes + 1)],
        "sq": result.sq,
        "value": result.value(objective, boxes),
        "turns": turns,
        "mkill": result.mkill,
        "kill_by_turn": list(itertools.accumulate(per_turn)),
        "effects": [[[result.eff.get((r, k, c), Fraction(0)) for c in range(len(BF_EFFECT_FIELDS))]
                     for k in range(len(BF_EFFECTS))] for r in range(turns)],
    }
    for j, name in enumerate(BF_FIELDS):
        res[name] = [row[j] for row in result.slots]
    if card is not None:
        res["letters"] = list(card.letters)
        res["cripple"] = [[row.get(x, Fraction(0)) for x in card.letters] for row in result.cripple]
        res["cripple_end"] = [result.cripple_end.get(x, Fraction(0)) for x in card.letters]
        res["box"] = [[result.box.get((c, r), Fraction(0)) for r in range(len(card.cols[c]))]
                      for c in range(6)]
    return res


#: The dice and the attack sequence, for the other oracles of the suite.
bf_slots, bf_points, bf_attack_roll, bf_damage_roll = _bf_slots, _bf_points, _bf_attack_roll, _bf_damage_roll

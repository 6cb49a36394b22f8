"""Brute-force oracle of lexicographic best play, on units and several targets.

:func:`bf_lexicographic` computes, by plain recursion over every roll and decision, the
expected figures of the end of a sequence when every attacker with ``policy = "best"`` and a
target with ``power_field = "best"`` decide as docs/best-play.md ("Objectives") says: each
decision keeps the option whose expected figures are greatest in the order of the objective's
chain (for the target, least), then the one that spends fewer of the decider's points. It
is written from docs/best-play.md, docs/activation.md and docs/units.md, and shares nothing
with :mod:`mathhammer`: it reads plain attributes of the scenario it is given, and only the
dice helpers of ``tests/naive.py`` (themselves written from the rules, face by face).
Probabilities and expectations are exact rationals, so ties are exact.

What it covers (the random scenarios of ``tests/test_best_play.py`` stay within it):

- attackers: single models, ``policy = "best"`` with focus, fury or forcing, or no points;
  ``keep_points``; melee (bought attacks with any melee weapon), ranged (Reload) and arcane
  weapons (spells, each cast paid); ``boosted_damage``; a charge; the weapon rules
  ``knockdown``, ``critical_knockdown``, ``weapon_master``, ``armor_piercing`` and
  ``grievous_wounds``;
- targets: one or several (attacks go to the first with a living model), each a single
  model with focus or fury (``power_field`` ``best``, ``lethal`` or ``never``) or a unit
  of identical models; a damage track; ``tough``; knocked down at the start;
- one round of attacks; the objectives ``kill``, ``damage`` and ``destroyed``.

Rules read: an attack roll is 2d6 (+1 die boosted) + skill against DEF (base DEF 5 when
knocked down; a melee attack on a knocked-down model hits automatically, never critically,
with no roll to boost); a damage roll is 2d6 (+1 boosted, +1 free on a charge attack or a
boosted-damage weapon, +1 Weapon Master) + POW against ARM (halved, rounded up, with
Armor-Piercing); a focus power field takes 5 points off per focus spent, a fury point
prevents all the damage of the attack; a model whose boxes are all marked is destroyed unless
Tough saves it (not knocked down before the attack, no Grievous Wounds: on 5 or 6 it keeps
one box and is knocked down); points left over are lost (the next model is fresh); a hit
with Knockdown (Critical Knockdown: on a critical hit) knocks the model down after its damage.
"""

from __future__ import annotations

import functools

from gmpy2 import mpq as Fraction

from naive import bf_attack_roll, bf_damage_roll, bf_points, bf_slots

__all__ = ["bf_lexicographic", "FIGURES"]

#: The expected figures :func:`bf_lexicographic` returns, and the order of its vectors.
FIGURES = ("kill", "destroyed", "damage", "spent", "target_spent")
_KILL, _DESTROYED, _DAMAGE, _SPENT, _TSPENT = range(5)
_SUPPORTED_RULES = {"knockdown", "critical_knockdown", "weapon_master", "armor_piercing", "grievous_wounds"}


def _add(a, b):
    return tuple(x + y for x, y in zip(a, b))


def _scale(p, a):
    return tuple(p * x for x in a)


def _mix(branches):
    out = (Fraction(0),) * len(FIGURES)
    for p, v in branches:
        out = _add(out, _scale(p, v))
    return out


def _chain(objective: str) -> tuple[int, ...]:
    return {"kill": (_KILL, _DESTROYED, _DAMAGE), "damage": (_DAMAGE, _KILL, _DESTROYED),
            "destroyed": (_DESTROYED, _KILL, _DAMAGE)}[objective]


def _key(v, objective, side):
    """``v`` as ``side`` (an attacker, or ``"target"``) ranks it: the greater tuple is
    preferred."""
    chain = _chain(objective)
    if side == "target":
        return tuple(-v[c] for c in chain) + (-v[_TSPENT],)
    figures = [v[c] for c in chain]
    if getattr(side, "keep_points", False):
        at = chain.index(_DAMAGE)
        at += 1 if at == 0 else 0
        return tuple(figures[:at]) + (-v[_SPENT],) + tuple(figures[at:])
    return tuple(figures) + (-v[_SPENT],)


def _prefer(options, objective, side):
    """The value of the option ``side`` prefers (the first listed on a tie)."""
    best = options[0]
    for o in options[1:]:
        if _key(o, objective, side) > _key(best, objective, side):
            best = o
    return best


def _check(scenario):
    for t in scenario.targets:
        if t.grid is not None or t.spiral is not None or set(t.rules) - {"tough"} or set(t.state) - {"knocked_down"}:
            raise ValueError(f"target {t.name!r} is beyond this oracle")
        if t.shield or t.buckler or t.terrain or t.effects or t.resist or t.rapid_healing or t.tough_on != 5:
            raise ValueError(f"target {t.name!r} is beyond this oracle")
        if t.upkeep_def or t.upkeep_arm or t.spell_def or t.spell_arm or t.feat_def or t.feat_arm or t.upkeep_rules:
            raise ValueError(f"target {t.name!r} is beyond this oracle")
    for a in scenario.attackers:
        if a.models > 1 or a.combined > 1 or a.crippled or a.targets:
            raise ValueError(f"attacker {a.name!r} is beyond this oracle")
        if bf_points(a) and a.policy != "best":
            raise ValueError(f"attacker {a.name!r}: a fixed policy is beyond this oracle")
        for w in a.weapons:
            if set(w.rules) - _SUPPORTED_RULES or w.def_minus or w.arm_minus or w.boosted_attack:
                raise ValueError(f"weapon {w.name!r} is beyond this oracle")
            if w.extra_attack_dice or w.extra_damage_dice or w.targets or w.attack_discard != "none":
                raise ValueError(f"weapon {w.name!r} is beyond this oracle")
            if not isinstance(w.attacks, int) or w.blast_pow is not None or w.damage_discard != "none":
                raise ValueError(f"weapon {w.name!r} is beyond this oracle")
            if w.auto_hit or w.power_attack or w.damage_type or w.crippled or w.damage_to:
                raise ValueError(f"weapon {w.name!r} is beyond this oracle")
    if scenario.turns != 1 or scenario.objective not in ("kill", "damage", "destroyed"):
        raise ValueError("one round, and the kill, damage or destroyed objective only")


def bf_lexicographic(scenario) -> dict:
    """The expected figures of ``scenario`` under lexicographic best play (exact rationals).

    Returns
    -------
    dict
        :data:`FIGURES`: the kill (every model of every target destroyed), the models
        destroyed, the damage marked (over every target; a destroyed model counts all its
        boxes), the points the attackers spent and the points the targets spent.
    """
    _check(scenario)
    targets = tuple(scenario.targets)
    objective = scenario.objective
    plays = [a.policy == "best" and bf_points(a) > 0 for a in scenario.attackers]
    slots = bf_slots(scenario, every_bought=lambda ai: plays[ai])
    n = len(slots)
    models_before = [sum(t.models for t in targets[:g]) for g in range(len(targets) + 1)]
    boxes_before = [sum(t.models * t.boxes for t in targets[:g]) for g in range(len(targets) + 1)]
    total_models, total_boxes = models_before[-1], boxes_before[-1]

    def points_of(t):
        return t.focus + t.fury

    def fresh(g, k, points):
        """Model ``k`` of target ``g`` comes under attack, fresh: (target, model, marked,
        down, grievous, attacker points, target points)."""
        t = targets[g]
        return (g, k, 0, "knocked_down" in t.state, False, points, points_of(t) if k == 0 else 0)

    def destroyed_next(st):
        """The model under attack is destroyed: the next model, the next target, or the kill
        (None)."""
        g, k, _, _, _, points, tp = st
        if k + 1 < targets[g].models:
            nxt = fresh(g, k + 1, points)
            return nxt[:6] + (tp,)
        if g + 1 < len(targets):
            return fresh(g + 1, 0, points)
        return None

    killed = (Fraction(1), Fraction(total_models), Fraction(total_boxes), Fraction(0), Fraction(0))

    @functools.cache
    def resolve(i, st):
        """Expected figures from attack slot ``i`` on, in state ``st``."""
        if i == n:
            g, k, marked = st[0], st[1], st[2]
            return (Fraction(0), Fraction(models_before[g] + k),
                    Fraction(boxes_before[g] + k * targets[g].boxes + marked), Fraction(0), Fraction(0))
        slot = slots[i]
        if slot.first:
            st = st[:5] + (bf_points(slot.attacker_obj),) + st[6:]
        if not slot.bought:
            return attack(i, st, 0, slot.weapon)
        if st[5] < slot.cost:
            return resolve(i + 1, st)
        a = slot.attacker_obj
        skip = resolve(i + 1, st[:5] + (0,) + st[6:]) if slot.stops else resolve(i + 1, st)
        options = [skip, attack(i, st, slot.cost, slot.weapon)]
        if slot.weapon.type == "melee" and a.buy_weapon is None:
            options += [attack(i, st, slot.cost, w) for w in a.weapons
                        if w.type == "melee" and w is not slot.weapon]
        return _prefer(options, objective, a)

    def attack(i, st, buy, w):
        slot = slots[i]
        a = slot.attacker_obj
        t = targets[st[0]]
        points = st[5] - buy
        spent = (Fraction(0),) * 3 + (Fraction(buy), Fraction(0))
        if w.type == "melee" and st[3]:  # a knocked-down model: an automatic hit
            return _add(spent, hit(i, st, w, False, points))
        defense = 5 if st[3] else t.defense
        choices = [0, 1] if plays[slot.attacker] and points > 0 else [0]
        options = []
        for paid in choices:
            roll = bf_attack_roll(2 + paid, "none", w.skill, defense, False)
            branches = [(roll["miss"], resolve(i + 1, st[:5] + (points - paid,) + st[6:]))]
            for outcome in ("hit", "crit"):
                if roll[outcome]:
                    branches.append((roll[outcome], hit(i, st, w, outcome == "crit", points - paid)))
            options.append(_add((Fraction(0),) * 3 + (Fraction(paid), Fraction(0)), _mix(branches)))
        return _add(spent, _prefer(options, objective, a) if len(options) > 1 else options[0])

    def hit(i, st, w, crit, points):
        slot = slots[i]
        a = slot.attacker_obj
        t = targets[st[0]]
        rules = set(w.rules)
        knocks = "knockdown" in rules or (crit and "critical_knockdown" in rules)
        grievous = st[4] or "grievous_wounds" in rules
        if w.pow is None:
            after = st[:3] + (st[3] or knocks, grievous, points) + st[6:]
            return resolve(i + 1, after)
        arm = (t.arm + 1) // 2 if "armor_piercing" in rules else t.arm
        free = w.boosted_damage or slot.charge
        dice = 2 + int(free) + int("weapon_master" in rules)
        choices = [0, 1] if plays[slot.attacker] and points > 0 and not free else [0]
        remaining = t.boxes - st[2]
        options = []
        for paid in choices:
            roll = bf_damage_roll(dice + paid, "none", w.pow - arm, remaining, False, False)
            branches = [(q, field(i, st, x, knocks, grievous, points - paid)) for x, q in roll.items()]
            options.append(_add((Fraction(0),) * 3 + (Fraction(paid), Fraction(0)), _mix(branches)))
        return _prefer(options, objective, a) if len(options) > 1 else options[0]

    def field(i, st, x, knocks, grievous, points):
        """The target's power field against ``x`` damage points."""
        t = targets[st[0]]
        tp = st[6]
        remaining = t.boxes - st[2]
        kind = "focus" if t.focus else "fury"
        if tp == 0 or t.power_field == "never" or x == 0:
            return mark(i, st, x, knocks, grievous, points)
        if t.power_field == "lethal":
            if x < remaining:
                return mark(i, st, x, knocks, grievous, points)
            k = 1 if kind == "fury" else -(-(x - remaining + 1) // 5)
            if k > tp:
                return mark(i, st, x, knocks, grievous, points)
            return spend(i, st, x, k, kind, knocks, grievous, points)
        options = [mark(i, st, x, knocks, grievous, points)]
        if kind == "fury":
            options.append(spend(i, st, x, 1, kind, knocks, grievous, points))
        else:
            k = 1
            while k <= tp and 5 * (k - 1) < x:
                options.append(spend(i, st, x, k, kind, knocks, grievous, points))
                k += 1
        return _prefer(options, objective, "target")

    def spend(i, st, x, k, kind, knocks, grievous, points):
        left = 0 if kind == "fury" else max(0, x - 5 * k)
        after = st[:6] + (st[6] - k,)
        return _add((Fraction(0),) * 4 + (Fraction(k),), mark(i, after, left, knocks, grievous, points))

    def mark(i, st, x, knocks, grievous, points):
        t = targets[st[0]]
        g, k, marked, down = st[0], st[1], st[2], st[3]
        if marked + x < t.boxes:
            return resolve(i + 1, (g, k, marked + x, down or knocks, grievous, points, st[6]))
        after = (g, k, t.boxes, down, grievous, points, st[6])
        nxt = destroyed_next(after)
        gone = killed if nxt is None else resolve(i + 1, nxt)
        if "tough" in t.rules and not grievous and not down:
            saved = resolve(i + 1, (g, k, t.boxes - 1, True, grievous, points, st[6]))
            return _mix([(Fraction(1, 3), saved), (Fraction(2, 3), gone)])
        return gone

    start = fresh(0, 0, bf_points(slots[0].attacker_obj) if slots else 0)
    return dict(zip(FIGURES, resolve(0, start)))

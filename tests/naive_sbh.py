"""Brute-force oracle for the SBH engines, written from docs/rules.md section 8 without their code.

Every die face of every roll is enumerated (6**n tuples per roll, exact fractions), and a
turn is walked path by path: each roll's face tuples are turned into successes by the rule's
words (a die succeeds when die + bonus >= Quality, with the natural 1 / natural 6 settings),
and the path stops at the first roll with two or more failures. Slow and obvious on purpose:
small cases only.

Plans are plain tuples so nothing here depends on mathhammer.sbh's classes:
``("solo", quality, dice, bonus)`` and ``("group", leader_quality, leader_dice, [member
qualities], dice, leader_bonus)``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from gmpy2 import mpq as Fraction  # exact rationals in C: the suite's oracles, 5x faster


def die_ok(face, quality, bonus, one_fails=True, six_ok=True):
    if face == 1 and one_fails:
        return False
    if face == 6 and six_ok:
        return True
    return face + bonus >= quality


def roll(quality, dice, bonus=0, one_fails=True, six_ok=True):
    """{successes: probability} of ``dice`` d6 against ``quality``, by enumerating faces."""
    out = Counter()
    for faces in itertools.product(range(1, 7), repeat=dice):
        out[sum(die_ok(f, quality, bonus, one_fails, six_ok) for f in faces)] += 1
    return {k: Fraction(v, 6**dice) for k, v in sorted(out.items())}


def activation(quality, dice, bonus=0, one_fails=True, six_ok=True):
    """(list of P(k actions), P(turnover)) by enumeration."""
    r = roll(quality, dice, bonus, one_fails, six_ok)
    actions = [r.get(k, Fraction(0)) for k in range(dice + 1)]
    turnover = sum((p for k, p in r.items() if dice - k >= 2), Fraction(0))
    return actions, turnover


def shoot(shooters, combat, target_combat, modifier=0, floor=1, concentrated=True):
    """Outcome probabilities of a shot: enumerate the shooters' die, the target's die and the
    extra d6 rolled after a 1 (216 equally likely triples)."""
    out = Counter()
    lose = 0
    for a, b, extra in itertools.product(range(1, 7), repeat=3):
        mine = a + combat + modifier
        theirs = b + target_combat - (shooters - 1)
        if floor is not None:
            mine = max(mine, floor)
            theirs = max(theirs, floor)
        if mine <= theirs:
            out["nothing"] += 1
        elif mine >= theirs * 3:
            out["gruesome"] += 1
        elif mine >= theirs * 2:
            out["killed"] += 1
        else:
            out["beaten"] += 1
        if concentrated and a == 1 and extra == 1:
            lose += 1
    res = {k: Fraction(out[k], 216) for k in ("nothing", "beaten", "killed", "gruesome")}
    res["lose_shooter"] = Fraction(lose, 216)
    return res


def turn(plan, one_fails=True, six_ok=True):
    """Walk every path of the plan. Returns a dict:

    - ``joint``: {(total actions, models that acted): probability};
    - ``end``: {step index of the turnover, or len(plan): probability};
    - ``acted``, ``actions``: per model (activation order), P(acted), E[actions];
    - ``order``: {step index: P(group order given)}.
    """
    n_models = sum(1 if s[0] == "solo" else 1 + len(s[3]) for s in plan)
    res = {"joint": Counter(), "end": Counter(), "acted": [Fraction(0)] * n_models,
           "actions": [Fraction(0)] * n_models, "order": Counter()}

    def walk(i, first, p, total, acted):
        if i == len(plan):
            res["joint"][(total, acted)] += p
            res["end"][i] += p
            return
        step = plan[i]
        if step[0] == "solo":
            _, q, d, b = step
            for k, pk in roll(q, d, b, one_fails, six_ok).items():
                pp = p * pk
                res["actions"][first] += pp * k
                res["acted"][first] += pp * (k > 0)
                if d - k >= 2:  # turnover: the model still takes its actions
                    res["joint"][(total + k, acted + (k > 0))] += pp
                    res["end"][i] += pp
                else:
                    walk(i + 1, first + 1, pp, total + k, acted + (k > 0))
            return
        _, lq, ld, members, d, bonus = step
        n = len(members)
        worst = max(members)  # "lowest Quality" = the highest Q+ number
        for kl, pl in roll(lq, ld, 0, one_fails, six_ok).items():
            pp = p * pl
            leader_turnover = ld - kl >= 2
            if kl >= 1 and not leader_turnover:
                res["order"][i] += pp
                res["acted"][first] += pp
                res["actions"][first] += pp * (kl - 1)
                for g, pg in roll(worst, d, bonus, one_fails, six_ok).items():
                    q = pp * pg
                    for j in range(first + 1, first + 1 + n):
                        res["actions"][j] += q * g
                        res["acted"][j] += q * (g > 0)
                    t = total + kl - 1 + g * n
                    a = acted + 1 + n * (g > 0)
                    if d - g >= 2:
                        res["joint"][(t, a)] += q
                        res["end"][i] += q
                    else:
                        walk(i + 1, first + 1 + n, q, t, a)
            else:
                res["actions"][first] += pp * kl
                res["acted"][first] += pp * (kl > 0)
                if leader_turnover:
                    res["joint"][(total + kl, acted + (kl > 0))] += pp
                    res["end"][i] += pp
                else:
                    walk(i + 1, first + 1 + n, pp, total + kl, acted + (kl > 0))

    walk(0, 0, Fraction(1), 0, 0)
    return res


def best_dice_brute(qualities, objective="actions"):
    """Best dice per model by trying every combination (3**n turns)."""
    best = None
    for dice in itertools.product((1, 2, 3), repeat=len(qualities)):
        r = turn([("solo", q, d, 0) for q, d in zip(qualities, dice)])
        if objective == "actions":
            v = sum(t * p for (t, _), p in r["joint"].items())
        else:
            v = sum(a * p for (_, a), p in r["joint"].items())
        if best is None or v > best[0]:
            best = (v, dice)
    return best

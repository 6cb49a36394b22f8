"""The exact trade engine (mathhammer.exact.trade) against an independent brute force.

The brute force below shares no code with the package: it reads the raw fields of the
rules objects and plays each attack by enumerating every ordered roll of the dice
(itertools.product over the faces), written from docs/activation.md and docs/trades.md.
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from functools import cache

import numpy as np
import pytest

from mathhammer.errors import ExactNotApplicable, InputError
from mathhammer.exact.trade import exact_trade
from mathhammer.rules import Attacker, Spend, Target, Weapon
from mathhammer.rules.trade import Side, Trade, TradeModel
from trade_cases import random_trade

FACES = range(1, 7)


@cache
def _attack_roll(n: int, need: int) -> tuple[float, float, float]:
    """(miss, plain hit, critical hit) of ``n`` dice needing ``need`` (sum >= need)."""
    miss = plain = crit = 0
    for roll in itertools.product(FACES, repeat=n):
        if n >= 2 and all(d == 1 for d in roll):
            hit = False
        elif n >= 2 and all(d == 6 for d in roll):
            hit = True
        else:
            hit = sum(roll) >= need
        if not hit:
            miss += 1
        elif n >= 2 and len(set(roll)) < n:
            crit += 1
        else:
            plain += 1
    total = 6 ** n
    return miss / total, plain / total, crit / total


@cache
def _damage_roll(n: int, pow_minus_arm: int) -> dict:
    out: dict = defaultdict(float)
    for roll in itertools.product(FACES, repeat=n):
        out[max(0, sum(roll) + pow_minus_arm)] += 1 / 6 ** n
    return dict(out)


def _crippled(m, marked):
    return {letter for letter, at in m.cripple_at if marked >= at}


def brute_force(trade: Trade):
    """[(P(side 0 out), P(side 1 out), [E damage per model], [E damage squared])] after
    every turn."""
    models = list(trade.sides[0].models) + list(trade.sides[1].models)
    side = [0] * len(trade.sides[0].models) + [1] * len(trade.sides[1].models)
    where = {m.name: i for i, m in enumerate(models)}
    # a model: (damage marked, knocked down, its continuous effects as a sorted tuple of names)
    dist = {tuple((0, "knocked_down" in m.target.state, tuple(sorted(m.target.effects))) for m in models): 1.0}
    firsts = [s for s in trade.sides if s.name == trade.first] + [s for s in trade.sides if s.name != trade.first]

    def over(st):
        return any(all(st[i] is None for i in range(len(st)) if side[i] == s) for s in (0, 1))

    def attack(st, pts, att, w, charge, m):
        """{(state, points): p} of one attack of ``w`` (already paid for if bought)."""
        y = next((where[n] for n in m.attacks if st[where[n]] is not None), None)
        if y is None:
            return {(st, pts): 1.0}
        ym = models[y]
        marked, down, burning = st[y]
        crip = _crippled(ym, marked)
        t = ym.target
        lost = 1 if (w.location in att.crippled and att.model == "warjack") else 0
        out: dict = defaultdict(float)
        if w.auto_hit or (w.type == "melee" and down):
            rolls = {"plain": 1.0}
        else:
            base = 5 if (down or "M" in crip) else t.defense
            dfn = base + t.spell_def + t.upkeep_def + t.feat_def
            cavalry = charge and att.cavalry and not w.boosted_attack  # a charge attack roll boosted
            n = 2 + w.boosted_attack + cavalry + w.extra_attack_dice - lost
            sp = att.spend
            boost = (not (w.boosted_attack or cavalry) and n >= 1 and pts > sp.reserve
                     and (sp.boost_attack == "always" or (sp.boost_attack == "auto" and dfn - w.skill >= sp.boost_attack_at)))
            pts -= boost
            mi, pl, cr = _attack_roll(max(1, n + boost), dfn - w.skill)
            rolls = {"miss": mi, "plain": pl, "crit": cr}
        for what, q in rolls.items():
            if not q:
                continue
            if what == "miss":
                out[(st, pts)] += q
                continue
            crit = what == "crit"
            knocks = "knockdown" in w.rules or (crit and "critical_knockdown" in w.rules)
            put_on = {e for e in ("fire", "corrosion") if e in w.rules or (crit and f"critical_{e}" in w.rules)}
            on = tuple(sorted(set(burning) | put_on))
            if w.pow is None:
                out[(st[:y] + ((marked, down or knocks, on),) + st[y + 1:], pts)] += q
                continue
            arm = t.arm + t.spell_arm + t.upkeep_arm + t.feat_arm
            arm += 2 * (w.type == "melee" and "unyielding" in t.rules) + 4 * (w.type == "ranged" and "carapace" in t.rules)
            arm += sum(2 for loc in t.shield if loc not in crip) + sum(1 for loc in t.buckler if loc not in crip)
            n = 2 + w.boosted_damage + w.extra_damage_dice - lost
            free = w.boosted_damage or charge
            if charge and not w.boosted_damage:
                n += 1
            p2 = pts
            sp = att.spend
            if not free and n >= 1 and p2 > sp.reserve:
                if sp.boost_damage == "always" or (
                        sp.boost_damage == "auto" and max(1, n) + w.pow - arm < t.boxes - marked
                        and 6 * max(1, n + 1) + w.pow - arm > 0):
                    p2 -= 1
                    n += 1
            tough = {"tough", "tough_steady"} & set(t.rules)
            for dmg, r in _damage_roll(max(1, n), w.pow - arm).items():
                now = marked + dmg
                if now < t.boxes:
                    out[(st[:y] + ((now, down or knocks, on),) + st[y + 1:], p2)] += q * r
                    continue
                lying = down or (knocks and trade.knockdown_before_tough)
                save = (7 - t.tough_on) / 6 if tough and (not lying or "tough_steady" in tough) else 0.0
                if save:
                    out[(st[:y] + ((t.boxes - 1, True, on),) + st[y + 1:], p2)] += q * r * save
                out[(st[:y] + (None,) + st[y + 1:], p2)] += q * r * (1 - save)
        return out

    def upkeep(dist, s):
        """Side ``s``'s maintenance: each model's fire, then corrosion, die by die."""
        for m in s.models:
            x, t = where[m.name], m.target
            for effect in ("fire", "corrosion"):
                new: dict = defaultdict(float)
                for st, p in dist.items():
                    if st[x] is None or over(st) or effect not in st[x][2]:
                        new[st] += p
                        continue
                    marked, down, burning = st[x]
                    for die in FACES:
                        if die <= 2:  # it ends
                            rest = tuple(e for e in burning if e != effect)
                            new[st[:x] + ((marked, down, rest),) + st[x + 1:]] += p / 6
                            continue
                        if effect == "corrosion":
                            rolls = {1: 1.0}
                        else:
                            crip = _crippled(m, marked)
                            arm = (t.arm + t.spell_arm + t.upkeep_arm + t.feat_arm
                                   + sum(2 for loc in t.shield if loc not in crip)
                                   + sum(1 for loc in t.buckler if loc not in crip))
                            rolls = _damage_roll(2, 12 - arm)
                        for dmg, r in rolls.items():
                            now = marked + dmg
                            if now < t.boxes:
                                new[st[:x] + ((now, down, burning),) + st[x + 1:]] += p / 6 * r
                                continue
                            tough = {"tough", "tough_steady"} & set(t.rules)
                            save = (7 - t.tough_on) / 6 if tough and (not down or "tough_steady" in tough) else 0.0
                            if save:
                                new[st[:x] + ((t.boxes - 1, True, burning),) + st[x + 1:]] += p / 6 * r * save
                            new[st[:x] + (None,) + st[x + 1:]] += p / 6 * r * (1 - save)
                dist = dict(new)
        return dist

    rows = []
    for rnd in range(1, trade.rounds + 1):
        for s in firsts:
            dist = upkeep(dist, s)
            for m in s.models:
                x = where[m.name]
                new: dict = defaultdict(float)
                for st, p in dist.items():
                    if st[x] is None or over(st):
                        new[st] += p
                        continue
                    marked, was_down, burning = st[x]
                    st = st[:x] + ((marked, False, burning),) + st[x + 1:]
                    att = Attacker(m.name, m.attacker.weapons, focus=m.attacker.focus, spend=m.attacker.spend,
                                   model=m.attacker.model, crippled=frozenset(_crippled(m, marked)),
                                   cavalry=m.attacker.cavalry)
                    pts0 = 0 if "C" in att.crippled else att.focus
                    charge_left = m.attacker.charge and rnd == 1 and not was_down and "M" not in att.crippled
                    cur = {(st, pts0): p}
                    for w in att.weapons:
                        for _ in range(w.attacks):
                            charge = charge_left and w.type == "melee"
                            nxt: dict = defaultdict(float)
                            for (a, b), q in cur.items():
                                for k, v in attack(a, b, att, w, charge, m).items():
                                    nxt[k] += q * v
                            cur, charge_left = nxt, charge_left and not charge
                    melee = [w for w in att.weapons if w.type == "melee"]
                    if att.spend.buy_attacks and melee:
                        bw = max(melee, key=lambda w: (w.pow if w.pow is not None else -1, w.skill, -melee.index(w)))
                        for _ in range(pts0):
                            nxt = defaultdict(float)
                            for (a, b), q in cur.items():
                                alive = any(a[where[n]] is not None for n in m.attacks)
                                if b < 1 or not alive:
                                    nxt[(a, b)] += q
                                    continue
                                for k, v in attack(a, b - 1, att, bw, charge_left, m).items():
                                    nxt[k] += q * v
                            cur, charge_left = nxt, False
                    for (a, _), q in cur.items():
                        new[a] += q
                dist = dict(new)
            out = [0.0, 0.0, [0.0] * len(models), [0.0] * len(models)]
            for st, p in dist.items():
                for sd in (0, 1):
                    if all(st[i] is None for i in range(len(st)) if side[i] == sd):
                        out[sd] += p
                for i, m in enumerate(models):
                    marked = m.target.boxes if st[i] is None else st[i][0]
                    out[2][i] += p * marked
                    out[3][i] += p * marked * marked
            rows.append(out)
    return rows


def test_exact_trades_equal_an_independent_brute_force_on_200_random_trades():
    rng = random.Random(48)
    for case in range(200):
        trade = random_trade(rng)
        figures = exact_trade(trade)
        rows = brute_force(trade)
        assert len(rows) == len(figures.turns) == 2 * trade.rounds
        for k, (red, blue, damage, square) in enumerate(rows):
            assert figures.destroyed[k, 0] == pytest.approx(red, abs=1e-12), case
            assert figures.destroyed[k, 1] == pytest.approx(blue, abs=1e-12), case
            np.testing.assert_allclose(figures.damage[k], damage, atol=1e-12, err_msg=str(case))
            np.testing.assert_allclose(figures.damage_sd[k] ** 2, np.array(square) - np.array(damage) ** 2,
                                       atol=1e-9, err_msg=str(case))


def _duel(**kw):
    fist = Weapon("Fist", "melee", 6, 16, attacks=2, location="L", rules=kw.pop("rules", frozenset()))
    spend = Spend(boost_attack="never", boost_damage="never", buy_attacks=False)
    a = TradeModel(Attacker("A", [fist], spend=spend, charge=kw.pop("charge", False)),
                   Target(12, 18, boxes=kw.pop("boxes", 20), rules=kw.pop("rules_a", frozenset())), ["B"],
                   kw.pop("cripple_a", {}))
    b = TradeModel(Attacker("B", [fist], spend=spend), Target(12, 18, boxes=20), ["A"], kw.pop("cripple_b", {}))
    return Trade([Side("Red", [a]), Side("Blue", [b])], **kw)


def test_a_crippled_arm_swings_with_one_die_fewer_in_the_next_round():
    """Crippled weapon system (docs/rules.md 3): B's fist, crippled by A's first turn when the
    arm's threshold is 1 damage, attacks with one die fewer; with the threshold out of reach
    its attacks are the uncrippled ones."""
    crippled = exact_trade(_duel(cripple_b={"L": 1}))
    whole = exact_trade(_duel(cripple_b={"L": 20}))
    # A's first turn: the same for both (A is not crippled)
    assert crippled.damage[0, 1] == pytest.approx(whole.damage[0, 1], abs=1e-12)
    # B's turn: B's two fists hit on 2 dice when uncrippled; crippled, on one die (one
    # damage die fewer too) once A dealt it damage
    p_b_damaged = crippled.crippled[("B", "L")][0]
    assert 0 < p_b_damaged < 1
    assert crippled.damage[1, 0] < whole.damage[1, 0]


def test_a_charge_boosts_the_first_attack():
    """Charge (docs/rules.md 9): the first melee attack's damage roll is boosted."""
    charged = exact_trade(_duel(charge=True, rounds=2))
    plain = exact_trade(_duel(charge=False, rounds=2))
    assert charged.damage[0, 1] > plain.damage[0, 1]


def test_bad_trades_get_one_line_naming_the_key():
    fist = Weapon("Fist", "melee", 6, 16)
    a = TradeModel(Attacker("A", [fist]), Target(12, 18, boxes=5), ["B"])
    b = TradeModel(Attacker("B", [fist]), Target(12, 18, boxes=5), ["A"])
    own = TradeModel(Attacker("C", [fist]), Target(12, 18, boxes=5), ["A"])
    with pytest.raises(InputError, match=r"sides\[0\]\.models\[1\]\.attacks\[0\]: .*own side"):
        Trade([Side("Red", [a, own]), Side("Blue", [b])])
    with pytest.raises(InputError, match=r"^models: a side needs at least one model"):
        Side("Blue", [])
    with pytest.raises(InputError, match=r"trade\.rounds: must be between 1 and 20 \(got 0\)"):
        Trade([Side("Red", [a]), Side("Blue", [b])], rounds=0)
    searched = TradeModel(Attacker("A", [fist], focus=1, policy="optimize"), Target(12, 18, boxes=5), ["B"])
    with pytest.raises(ExactNotApplicable, match=r"attacker\.policy"):
        exact_trade(Trade([Side("Red", [searched]), Side("Blue", [b])]))

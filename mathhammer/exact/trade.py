"""Exact trades on damage tracks: the probability of every state, activation after activation.

A trade's state is, for every model, its damage marked and whether it is knocked down (a
destroyed model: ``None``). The engine carries a dict ``state -> probability`` through each
activation of each side's turn of each round (docs/trades.md), and within an activation
through each attack (docs/activation.md: the attack roll, the damage roll, marking, Tough,
knockdown), so every figure is an exact expectation. It covers single models on damage
tracks (with ``cripple_at`` thresholds for crippling) making melee or ranged attacks on fixed
spending policies; :func:`check_trade_exact` says, in one line, what else a trade holds that
it does not cover. The Monte Carlo trade kernel is checked against it.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from ..errors import ExactNotApplicable
from ..play.trades import ActivationPlay, boosts_attack, boosts_damage, stops_buying, table_decision
from ..result.trade import TradeFigures
from ..rules.trade import Trade
from .rolls import attack_outcome, damage_pmf
from .state import FIRE_POW

__all__ = ["check_trade_exact", "exact_trade", "start_state", "over", "stand_up", "slots_of", "target_of",
           "standing", "decider", "Decider", "attack_from", "maintenance", "DEAD"]

#: Continuous effects, a bit each, resolved in this order in a maintenance phase.
_FIRE, _CORROSION = 1, 2


def check_trade_exact(trade: Trade) -> None:
    """Raise :class:`ExactNotApplicable` (one line, naming the key) for a trade the exact
    engine does not cover: what a trade does not model (:meth:`TradeModel.unmodelled`), and
    beyond that grids, spirals, units and the open readings."""
    for s, side in enumerate(trade.sides):
        for i, m in enumerate(side.models):
            key = f"sides[{s}].models[{i}]"
            t = m.target
            why = m.unmodelled()
            if why is None and t.capacity != "track":
                why = ("target.grid", t.capacity, "exact trades are on damage tracks (cripple_at for "
                       "crippling); the Monte Carlo engine plays grids and spirals")
            if why is None and t.models != 1:
                why = "target.models", t.models, "exact trades are of single models"
            if why is not None:
                raise ExactNotApplicable(f"{key}.{why[0]}: {why[2]} (got {why[1]!r})")
    for key in ("crit_counts_discarded", "arm_minus_stacks_same_weapon", "dispel_from_next_attack",
                "single_die_one_misses"):
        if getattr(trade, key):
            raise ExactNotApplicable(f"settings.{key}: exact trades read the default (got True)")


# ---------------------------------------------------------------------------- the engine
#: A model's state: (damage marked, knocked down, continuous effects), or None once destroyed.
DEAD = None


def exact_trade(trade: Trade) -> TradeFigures:
    """Every turn's figures of ``trade``, exactly.

    Examples
    --------
    >>> from mathhammer.rules import Attacker, Spend, Target, Weapon
    >>> from mathhammer.rules.trade import Side, Trade, TradeModel
    >>> fist = Weapon("Fist", "melee", 6, 12)
    >>> a = TradeModel(Attacker("A", [fist], spend=Spend()), Target(12, 15, boxes=1), ["B"])
    >>> b = TradeModel(Attacker("B", [fist], spend=Spend()), Target(12, 15, boxes=1), ["A"])
    >>> f = exact_trade(Trade([Side("Red", [a]), Side("Blue", [b])]))
    >>> p = 26 / 36 * 33 / 36      # a hit (6+ on 2d6), then a damage point (2d6 + 12 > 15)
    >>> f.turns, bool(np.isclose(f.destroyed[0, 1], p)), bool(np.isclose(f.destroyed[1, 0], (1 - p) * p))
    (((1, 'Red'), (1, 'Blue')), True, True)
    """
    check_trade_exact(trade)
    models = trade.models
    side_of = [trade.side_of(m.name) for m in models]
    index = {m.name: i for i, m in enumerate(models)}
    play = ActivationPlay(trade.settings, trade.play)
    dist: dict = {start_state(trade): 1.0}
    turns, rows = [], []
    for r in range(1, trade.rounds + 1):
        for side in trade.order:
            dist = maintenance(models, [index[m.name] for m in side.models], side_of, dist)
            for m in side.models:
                dist = _activation(trade, models, index, side_of, index[m.name], r, dist, play)
            turns.append((r, side.name))
            rows.append(_figures(models, side_of, dist))
    destroyed = np.array([row[0] for row in rows])
    crippled = {}
    for i, m in enumerate(models):
        for k, (letter, _) in enumerate(m.cripple_at):
            crippled[(m.name, letter)] = np.array([row[3][i][k] for row in rows])
    dead = np.array([row[1] for row in rows])
    mean = np.array([row[2] for row in rows])
    sd = np.sqrt(np.maximum(np.array([row[4] for row in rows]) - mean * mean, 0.0))
    return TradeFigures(tuple(turns), destroyed, dead, mean, crippled, dead, sd)


def start_state(trade: Trade) -> tuple:
    """The trade's state as it starts: each model's ``(damage marked, knocked down,
    continuous effects)``."""
    return tuple((0, "knocked_down" in m.target.state, _bits(m.target.effects)) for m in trade.models)


def _figures(models, side_of, dist):
    """(P(side destroyed) x2, P(model destroyed), E[damage], P(crippled) per threshold,
    E[damage squared])."""
    n = len(models)
    side_dead = [0.0, 0.0]
    dead = [0.0] * n
    dmg = [0.0] * n
    sq = [0.0] * n
    crip = [[0.0] * len(m.cripple_at) for m in models]
    for state, p in dist.items():
        for s in (0, 1):
            if all(state[i] is DEAD for i in range(n) if side_of[i] == s):
                side_dead[s] += p
        for i, m in enumerate(models):
            marked = m.target.boxes if state[i] is DEAD else state[i][0]
            dead[i] += p * (state[i] is DEAD)
            dmg[i] += p * marked
            sq[i] += p * marked * marked
            for k, (_, at) in enumerate(m.cripple_at):
                crip[i][k] += p * (marked >= at)
    return side_dead, dead, dmg, crip, sq


def over(state, side_of) -> bool:
    """Whether a side has no model standing: the trade has ended."""
    return any(all(state[i] is DEAD for i in range(len(state)) if side_of[i] == s) for s in (0, 1))


def _activation(trade, models, index, side_of, x, r, dist, play):
    """The activation of model ``x`` in round ``r``, for every state of ``dist``."""
    out: dict = defaultdict(float)
    seen: dict = {}  # per attacker (crippling, charge): the outcomes of its attacks met so far
    for state, p in dist.items():
        if state[x] is DEAD or over(state, side_of):
            out[state] += p
            continue
        state, attacker = stand_up(models[x], x, r, state)
        memo = seen.setdefault((attacker.crippled, attacker.charge), {})
        for (st, _), q in _attacks(trade, models, index, attacker, models[x], state, p, play, memo).items():
            out[st] += q
    return dict(out)


def stand_up(m, x, r, state):
    """Model ``m`` (``x``) starts its activation in round ``r``: it stands up (forfeiting a
    charge) and acts with the crippling its damage gives it. Returns ``(state, attacker)``."""
    marked, down, cont = state[x]
    crippled = m.crippled_by(marked)
    charge = m.attacker.charge and r == 1 and not down and "M" not in crippled
    return _put(state, x, (marked, False, cont)), m.acting(crippled, charge)


def slots_of(attacker):
    """The attacks of ``attacker``'s combat action, in order, as ``(weapon, bought)``: its
    weapons' initial attacks, then one bought attack per point (the rows of its tables)."""
    out = [(w, False) for w in attacker.weapons for _ in range(w.attacks)]
    bought = attacker.bought_weapon if attacker.max_bought else None
    return out + [(bought, True)] * (attacker.points if bought is not None else 0)


def _attacks(trade, models, index, attacker, m, state, p, play, memo):
    """The combat action of ``attacker`` (model ``m``) from ``state``: its initial attacks,
    then one bought attack per point while it has one; ``{(state, points): probability}``.
    ``memo``: what each attack of this attacker did to the model it attacked, by the attack,
    the attacker's points, that model's state and the enemies standing (see :func:`_step`)."""
    dist = {(state, attacker.points): p}
    charge_left = attacker.charge
    for row, (w, bought) in enumerate(slots_of(attacker)):
        charge = charge_left and w.type == "melee"
        dist = _step(trade, models, index, attacker, m, w, dist, charge, bought, row, play, memo)
        charge_left = charge_left and not charge
    return dist


def target_of(models, index, m, state):
    """Index of the first model of ``m.attacks`` standing, or None."""
    for name in m.attacks:
        y = index[name]
        if state[y] is not DEAD:
            return y
    return None


def standing(models, index, m, state) -> list:
    """The models of ``m.attacks`` standing, in order (the first is the one it attacks)."""
    return [models[index[name]] for name in m.attacks if state[index[name]] is not DEAD]


def decider(play, attacker, enemies, model_state, points, row):
    """How the attack of ``row`` is decided, with ``points`` left, on the first of
    ``enemies`` (the models its ``attacks`` has standing), in ``model_state``: by best play's
    table where it holds the state, else the fixed policy."""
    table = play.table(attacker, enemies)
    dec = 0 if table is None else table_decision(table, row, points, *model_state)
    return Decider(dec)


class Decider:
    """A ``choose(kind, allowed, default, make)`` for the engine's decisions: ``kind`` is
    ``"buy"``, ``"attack"`` or ``("damage", critical)``; ``make(choice)`` builds the
    distribution after the choice. This one follows best play's bits ``dec`` where they say,
    else ``default`` (the fixed policy's choice)."""

    def __init__(self, dec: int):
        self.dec = dec

    def __call__(self, kind, allowed: bool, default: bool, make):
        if kind == "buy":
            return make(not stops_buying(self.dec))
        said = boosts_attack(self.dec) if kind == "attack" else boosts_damage(self.dec, kind[1])
        return make(allowed and (default if said is None else said))


def _step(trade, models, index, attacker, m, w, dist, charge, bought, row, play, memo):
    """One attack with ``w`` (row ``row`` of the combat action) from every ``(state,
    points)`` of ``dist``.

    An attack changes the model it attacks and nothing else, and what it does depends on
    that model's state, the attacker's points and which enemies stand (best play's table):
    ``memo`` keeps it by those, the model's states after it with their chances, for every
    other state that meets them again (the rest of the models elsewhere)."""
    out: dict = defaultdict(float)
    for (state, points), p in dist.items():
        y = target_of(models, index, m, state)
        if y is None or (bought and points < 1):
            out[(state, points)] += p
            continue
        key = (row, points, state[y], tuple(state[index[name]] is DEAD for name in m.attacks))
        after = memo.get(key)
        if after is None:
            choose = decider(play, attacker, standing(models, index, m, state), state[y], points, row)
            after = memo[key] = [(st[y], pts, q) for (st, pts), q in attack_from(
                trade, attacker, w, models[y], y, state, points, charge, bought, choose).items()]
        for model, pts, q in after:
            out[(_put(state, y, model), pts)] += p * q
    return dict(out)


def attack_from(trade, attacker, w, ym, y, state, points, charge, bought, choose):
    """``{(state, points): probability}`` after the attack of ``w`` on model ``y`` from
    ``state`` with ``points``: a bought attack is paid for, or declined (then no point is left
    to buy or boost with)."""
    if not bought:
        return _one_attack(trade, attacker, w, ym, y, state, points, charge, choose)

    def make(buy):
        if not buy:
            return {(state, 0): 1.0}
        return _one_attack(trade, attacker, w, ym, y, state, points - 1, charge, choose)
    return choose("buy", True, True, make)


def _one_attack(trade, attacker, w, ym, y, state, points, charge, choose):
    """``{(state, points): probability}`` after one attack of ``w`` on model ``y``."""
    marked, down, _ = state[y]
    crippled = ym.crippled_by(marked)
    t = ym.target
    spend = attacker.spend
    base5 = down or "M" in crippled
    if w.auto_hit or (w.type == "melee" and down):
        return _outcomes(trade, attacker, w, ym, y, state, points, charge, choose, 0.0, 1.0, 0.0)
    defense = t.defense_against(w.type, base5) + t.spell_def + t.upkeep_def
    cavalry = charge and attacker.cavalry and not w.boosted_attack  # a free boost, as a weapon's
    dice = attacker.attack_dice(w) + int(cavalry)
    allowed = not (w.boosted_attack or cavalry) and dice >= 1 and points > spend.reserve

    def make(paid):
        miss, hit, crit = attack_outcome(max(1, dice + paid), w.skill, defense)
        return _outcomes(trade, attacker, w, ym, y, state, points - paid, charge, choose, miss, hit, crit)
    return choose("attack", allowed, spend.boosts_attack(defense - w.skill), make)


def _outcomes(trade, attacker, w, ym, y, state, points, charge, choose, miss, hit, crit):
    """The attack roll's outcomes (a miss, a hit, a critical hit with their chances), each
    resolved."""
    out: dict = defaultdict(float)
    if miss:
        out[(state, points)] += miss
    for critical, q in ((False, hit), (True, crit)):
        if q:
            for (st, pts), r in _hit(trade, attacker, w, ym, y, state, points, charge, critical, choose).items():
                out[(st, pts)] += q * r
    return out


def _hit(trade, attacker, w, ym, y, state, points, charge, critical, choose):
    """A hit's damage roll, marking, Tough, knockdown and the continuous effects it puts on."""
    marked, down, cont = state[y]
    t = ym.target
    knocks = w.triggers("knockdown", critical)
    early = knocks and trade.knockdown_before_tough
    cont |= _bits(w.sets_effects(critical))
    if w.pow is None:
        return {(_put(state, y, (marked, down or knocks, cont)), points): 1.0}
    crippled = ym.crippled_by(marked)
    arm = (t.arm + t.arm_modifier(w.type) + t.spell_arm + t.upkeep_arm
           + 2 * sum(loc not in crippled for loc in t.shield) + sum(loc not in crippled for loc in t.buckler))
    free = w.boosted_damage or charge
    dice = attacker.damage_dice(w) + int(charge and not w.boosted_damage)
    spend = attacker.spend
    allowed = not free and dice >= 1 and points > spend.reserve
    default = spend.boost_damage == "always" or (
        spend.boost_damage == "auto" and max(1, dice) + w.pow - arm < t.boxes - marked
        and 6 * max(1, dice + 1) + w.pow - arm > 0)

    def make(paid):
        pmf = damage_pmf(max(1, dice + paid), w.pow, arm)
        out: dict = defaultdict(float)
        # every damage from the boxes left on fills them alike: one outcome, their chances summed
        left = t.boxes - marked
        rolls = [(int(d), float(pmf[d])) for d in np.flatnonzero(pmf[:left])]
        if pmf.size > left and pmf[left:].any():
            rolls.append((left, float(pmf[left:].sum())))
        for dmg, chance in rolls:
            for after, q in _suffer(t, marked, down, down or early, cont, dmg):
                if after is not DEAD:  # the knockdown lands after the hit
                    after = (after[0], after[1] or knocks, after[2])
                out[(_put(state, y, after), points - paid)] += chance * q
        return out
    return choose(("damage", critical), allowed, default, make)


def _suffer(t, marked, down, lying, cont, dmg):
    """``[(model state after, probability)]`` of ``dmg`` damage points marked on a model with
    ``marked`` of its boxes, knocked down (``down``; ``lying``: as far as its Tough roll goes),
    with continuous effects ``cont``: marked, and once every box is, a Tough roll (none lying
    down, but with Tough Steady)."""
    now = marked + dmg
    if now < t.boxes:
        return [((now, down, cont), 1.0)]
    tough = t.tough_rules
    if tough and (not lying or "tough_steady" in tough):
        save = (7 - t.tough_on) / 6
        return [((t.boxes - 1, True, cont), save), (DEAD, 1 - save)]
    return [(DEAD, 1.0)]


def maintenance(models, own, side_of, dist):
    """A side's maintenance phase: each continuous effect on each of its models (``own``)
    standing, fire then corrosion: a d6 of 1-2 ends it, else fire deals a POW 12 damage roll
    against its ARM (its Shields while their location stands), corrosion 1 point."""
    for x in own:
        t = models[x].target
        for effect in (_FIRE, _CORROSION):
            out: dict = defaultdict(float)
            for state, p in dist.items():
                if state[x] is DEAD or over(state, side_of) or not state[x][2] & effect:
                    out[state] += p
                    continue
                marked, down, cont = state[x]
                out[_put(state, x, (marked, down, cont & ~effect))] += p / 3
                if effect == _FIRE:
                    crippled = models[x].crippled_by(marked)
                    arm = (t.arm + t.spell_arm + t.feat_arm + t.upkeep_arm + 2 * sum(loc not in crippled for loc in t.shield)
                           + sum(loc not in crippled for loc in t.buckler))
                    pmf = damage_pmf(2, FIRE_POW, arm)
                    points = [(int(d), float(pmf[d])) for d in np.flatnonzero(pmf)]
                else:
                    points = [(1, 1.0)]
                for dmg, q in points:
                    for after, r in _suffer(t, marked, down, down, cont, dmg):
                        out[_put(state, x, after)] += p * 2 / 3 * q * r
            dist = dict(out)
    return dist


def _bits(effects) -> int:
    """The continuous effects ``effects`` (names) as bits."""
    return (_FIRE if "fire" in effects else 0) | (_CORROSION if "corrosion" in effects else 0)


def _put(state, y, value):
    return state[:y] + (value,) + state[y + 1:]

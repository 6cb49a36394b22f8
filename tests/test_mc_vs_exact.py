"""Monte Carlo kernel against the exact engine on many scenarios.

Each scenario runs ``simulate(scen, trials=N, seed=...)`` and ``simulate(scen,
method="exact")``. For every probability (kill, each damage_pmf entry, per attack made / hit /
critical / kill) the Monte Carlo value must lie within 5 standard errors of the exact one,
``se = sqrt(p (1 - p) / N)`` from the exact ``p``; for means (damage_mean, per-attack damage)
within ``5 sd / sqrt(N)`` with the exact sd. Where the exact value is 0 or 1 the Monte Carlo
value must equal it exactly.

Where ``N p (1 - p) < 100`` the normal approximation behind "5 standard errors" is poor (with
``N p`` around 0.03 a single stray count would be 5.6 "standard errors" away, yet happens 3%
of the time), so those figures use the exact binomial test at the same level: the count must
not fall in a tail of probability below ``ALPHA / 2``, ``ALPHA`` being the two-sided
probability of leaving +-5 sigma under a normal law (5.7e-7).
"""

from __future__ import annotations

import math

import pytest

from mathhammer import simulate
from mathhammer.result import (
    EFFECT_AFTER,
    EFFECT_APPLIED,
    EFFECT_DAMAGE,
    EFFECT_KILL,
    EFFECT_NAMES,
    EFFECT_PRESENT,
)
from mathhammer.rules import Attacker, Scenario, Target, Weapon

N = 200_000
SEED = 20240611
K = 5.0
ALPHA = math.erfc(K / math.sqrt(2))  # 5.73e-7, two-sided
NORMAL_MIN_VAR = 100.0  # N p (1 - p) below this: exact binomial test
EDGE = 1e-12  # exact values this close to 0 or 1 are treated as 0 or 1


# ----------------------------------------------------------------------------- statistics
def _log_binom_pmf(k: int, n: int, p: float) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * math.log(p) + (n - k) * math.log1p(-p)


def _binom_tails(c: int, n: int, p: float) -> tuple[float, float]:
    """(P(X <= c), P(X >= c)) for X ~ Binomial(n, p) with small n p (sums from the low end)."""
    lower = sum(math.exp(_log_binom_pmf(k, n, p)) for k in range(0, c + 1))
    below = lower - math.exp(_log_binom_pmf(c, n, p))
    return min(1.0, lower), max(0.0, 1.0 - below)


def prob_ok(mc: float, p: float, n: int) -> tuple[bool, str]:
    """Is the Monte Carlo proportion ``mc`` (count / n) consistent with the exact ``p``?"""
    if p < EDGE:
        return mc == 0.0, "exact 0: MC must be 0"
    if p > 1.0 - EDGE:
        return mc == 1.0, "exact 1: MC must be 1"
    var = n * p * (1.0 - p)
    se = math.sqrt(p * (1.0 - p) / n)
    if var >= NORMAL_MIN_VAR:
        return abs(mc - p) <= K * se, f"|diff|={abs(mc - p):.3g} > {K}*se={K * se:.3g}"
    count = round(mc * n)
    if p <= 0.5:
        lo, hi = _binom_tails(count, n, p)
    else:  # count the complement, whose probability is small
        hi, lo = _binom_tails(n - count, n, 1.0 - p)
    tail = min(lo, hi)
    return tail >= ALPHA / 2, f"binomial tail {tail:.3g} < {ALPHA / 2:.3g} (count {count}, N p = {n * p:.3g})"


def mean_ok(mc: float, mean: float, sd: float, n: int) -> tuple[bool, str]:
    if sd < 1e-9:
        return abs(mc - mean) <= 1e-9 * max(1.0, abs(mean)), "exact sd 0: MC must equal the mean"
    tol = K * sd / math.sqrt(n)
    return abs(mc - mean) <= tol, f"|diff|={abs(mc - mean):.3g} > {K}*sd/sqrt(N)={tol:.3g}"


def bounded_mean_ok(mc: float, mean: float, top: float, n: int) -> tuple[bool, str]:
    """Mean of a variable in ``[0, top]``: its variance is at most ``top * mean - mean**2``
    (as ``X**2 <= top * X``), so 5 of that bound's standard errors is a safe tolerance."""
    sd = math.sqrt(max(0.0, top * mean - mean * mean))
    return mean_ok(mc, mean, sd, n)


def compare(mc, ex, n: int) -> list[str]:
    """Every disagreement between a Monte Carlo and an exact Result, as readable lines."""
    bad = []

    def prob(name, a, b):
        ok, why = prob_ok(float(a), float(b), n)
        if not ok:
            bad.append(f"{name}: mc={float(a):.6g} exact={float(b):.6g} ({why})")

    def mean(name, a, b, sd):
        ok, why = mean_ok(float(a), float(b), float(sd), n)
        if not ok:
            bad.append(f"{name}: mc={float(a):.6g} exact={float(b):.6g} ({why})")

    assert mc.method == "monte_carlo" and mc.trials == n
    assert mc.slot_labels == ex.slot_labels and mc.boxes == ex.boxes
    assert mc.damage_weights.shape == ex.damage_weights.shape
    assert mc.slot_weights.shape == ex.slot_weights.shape
    assert mc.damage_weights.sum() == n

    prob("kill", mc.kill, ex.kill)
    for k, (a, b) in enumerate(zip(mc.damage_pmf, ex.damage_pmf)):
        prob(f"damage_pmf[{k}]", a, b)
    mean("damage_mean", mc.damage_mean, ex.damage_mean, ex.damage_sd)
    sq = ex.slot_damage_sq
    for i in range(ex.n_attacks):
        prob(f"attack {i} ({ex.slot_labels[i]}) made", mc.made[i], ex.made[i])
        prob(f"attack {i} ({ex.slot_labels[i]}) hit", mc.hit[i], ex.hit[i])
        prob(f"attack {i} ({ex.slot_labels[i]}) crit", mc.crit[i], ex.crit[i])
        prob(f"attack {i} ({ex.slot_labels[i]}) kill", mc.kill_weights[i] / n, ex.kill_weights[i])
        m = ex.attack_damage_mean[i]
        sd = math.sqrt(max(0.0, sq[i] - m * m))
        mean(f"attack {i} ({ex.slot_labels[i]}) damage mean", mc.attack_damage_mean[i], m, sd)
        # resources (docs/activation.md 5): paid boosts and Tough saves are 0/1 per attack;
        # points paid for one attack are 0..3 (buying it and two boosts); target points 0..10
        label = f"attack {i} ({ex.slot_labels[i]})"
        prob(f"{label} boost attack", mc.boost_attack_rate[i], ex.boost_attack_rate[i])
        prob(f"{label} boost damage", mc.boost_damage_rate[i], ex.boost_damage_rate[i])
        prob(f"{label} tough save", mc.tough_saves[i], ex.tough_saves[i])
        for name, a, b, top in ((f"{label} spent", mc.spent_mean[i], ex.spent_mean[i], 3.0),
                                (f"{label} target spent", mc.target_spent_mean[i],
                                 ex.target_spent_mean[i], 10.0)):
            ok, why = bounded_mean_ok(float(a), float(b), top, n)
            if not ok:
                bad.append(f"{name}: mc={float(a):.6g} exact={float(b):.6g} ({why})")
    # models destroyed (a unit target; a single model reads [1 - kill, kill]): at the end,
    # and by each attack (0 .. the unit's models)
    assert mc.models == ex.models
    for k, (a, b) in enumerate(zip(mc.models_destroyed_pmf, ex.models_destroyed_pmf)):
        prob(f"models_destroyed_pmf[{k}]", a, b)
    mean("models_destroyed_mean", mc.models_destroyed_mean, ex.models_destroyed_mean,
         ex.models_destroyed_sd)
    for i in range(ex.n_attacks):
        ok, why = bounded_mean_ok(float(mc.destroyed_by_attack[i]), float(ex.destroyed_by_attack[i]),
                                  float(ex.models), n)
        if not ok:
            bad.append(f"attack {i} ({ex.slot_labels[i]}) destroyed: mc={mc.destroyed_by_attack[i]:.6g} "
                       f"exact={ex.destroyed_by_attack[i]:.6g} ({why})")
    # several rounds, continuous effects and hazards: kill by round, per round and effect
    # how often it was present, applied, killed, stayed on; its damage points (at most the
    # target's boxes a round)
    assert mc.turns == ex.turns
    for t in range(ex.turns):
        prob(f"kill by the end of round {t + 1}", mc.kill_by_turn[t], ex.kill_by_turn[t])
    assert (mc.rounds is None) == (ex.rounds is None)
    if ex.rounds is not None:
        for name in EFFECT_NAMES:
            for t in range(ex.turns):
                for col, what in ((EFFECT_PRESENT, "present"), (EFFECT_APPLIED, "applied"),
                                  (EFFECT_KILL, "killed"), (EFFECT_AFTER, "on after")):
                    prob(f"{name} {what} in round {t + 1}", mc.effect_figure(name, col)[t],
                         ex.effect_figure(name, col)[t])
                a = mc.effect_figure(name, EFFECT_DAMAGE)[t]
                b = ex.effect_figure(name, EFFECT_DAMAGE)[t]
                ok, why = bounded_mean_ok(float(a), float(b), float(ex.boxes), n)
                if not ok:
                    bad.append(f"{name} damage in round {t + 1}: mc={a:.6g} exact={b:.6g} ({why})")
    # grids and spirals: cripple odds after every attack, box-marked odds at the end
    letters = ex.card.letters if ex.card is not None else ()
    assert (mc.card.letters if mc.card is not None else ()) == letters
    for j, x in enumerate(letters):
        for i in range(ex.n_attacks):
            prob(f"{x} crippled after attack {i}", mc.cripple_after[i, j], ex.cripple_after[i, j])
        prob(f"{x} crippled at the end", mc.cripple[x], ex.cripple[x])
    assert len(mc.box_marked) == len(ex.box_marked)
    for c, (a, b) in enumerate(zip(mc.box_marked, ex.box_marked)):
        assert a.shape == b.shape
        for r in range(b.size):
            prob(f"box {c + 1}.{r + 1} marked", a[r], b[r])
    return bad


# ----------------------------------------------------------------------------- scenarios
def W(*args, **kw):
    return Weapon(*args, **kw)


def one(target, *weapons, name="A"):
    return Scenario(target, [Attacker(name, list(weapons))])


SCENARIOS = {
    # single attacks of each type
    "melee_single_1box": one(Target(12, 16), W("Sword", "melee", 6, 12)),
    "ranged_rof2_5box": one(Target(14, 13, boxes=5), W("Gun", "ranged", 5, 10, attacks=2)),
    "arcane_single_10box": one(Target(13, 14, boxes=10), W("Bolt", "arcane", 7, 12)),
    # dice counts
    "boosted_attack_and_damage": one(
        Target(16, 17, boxes=10), W("Hammer", "melee", 6, 14, attacks=2, boosted_attack=True, boosted_damage=True)
    ),
    "extra_and_fewer_dice": one(
        Target(14, 16, boxes=10),
        W("Great", "melee", 5, 12, extra_attack_dice=1, extra_damage_dice=2),
        W("Feeble", "melee", 7, 15, extra_attack_dice=-1, extra_damage_dice=-1, attacks=2),
    ),
    "crippled_weapon": one(Target(13, 16, boxes=10), W("Arm", "melee", 7, 16, crippled=True, attacks=3)),
    "crippled_single_die": one(
        Target(11, 14, boxes=6), W("Stub", "ranged", 6, 12, crippled=True, extra_attack_dice=-1, attacks=3)
    ),
    # resistances
    "resist_fire": one(
        Target(12, 15, boxes=8, resist={"fire"}),
        W("Flamer", "ranged", 6, 14, attacks=2, damage_type={"fire", "corrosion"}),
    ),
    "arcane_vs_magical_resist": one(
        Target(13, 13, boxes=8, resist={"magical", "cold"}), W("Bolt", "arcane", 6, 13, attacks=2, boosted_damage=True)
    ),
    # DEF situations
    "cover_and_in_melee": one(Target(13, 12, boxes=5, state={"cover", "concealment", "in_melee"}),
                              W("Rifle", "ranged", 8, 12, attacks=3)),
    "concealment_elevated_small": one(
        Target(12, 13, boxes=5, base="small", state={"concealment", "elevated"}), W("Bow", "ranged", 6, 11, attacks=2)
    ),
    "huge_ignores_cover": one(
        Target(9, 19, boxes=30, base="huge", state={"cover", "in_melee", "elevated"}),
        W("Cannon", "ranged", 5, 16, attacks=3, boosted_damage=True),
    ),
    "extra_large_elevated": one(
        Target(10, 18, boxes=10, base="extra_large", state={"elevated", "concealment"}),
        W("Cannon", "ranged", 5, 15, attacks=2),
    ),
    "obstacle_melee": one(Target(13, 14, boxes=5, state={"obstacle", "cover"}), W("Spear", "melee", 6, 11, attacks=2)),
    # starting states
    "knocked_down_start": Scenario(
        Target(16, 15, boxes=10, state={"knocked_down", "cover"}),
        [Attacker("Gunner", [W("Gun", "ranged", 4, 12, attacks=2)]),
         Attacker("Brute", [W("Fist", "melee", 0, 13, attacks=2)])],
    ),
    "stationary_melee": one(Target(15, 16, boxes=10, state={"stationary"}), W("Axe", "melee", 5, 14, attacks=3)),
    "inert_wild": one(Target(14, 18, boxes=10, state={"inert", "wild"}), W("Claw", "melee", 4, 15, attacks=2)),
    "building_ranged_and_melee": Scenario(
        Target(5, 20, boxes=30, state={"building"}),
        [Attacker("Gunner", [W("Gun", "ranged", 3, 14, attacks=2)]),
         Attacker("Ram", [W("Ram", "melee", 0, 17, attacks=3)])],
    ),
    # knockdown mid-sequence
    "knockdown_then_melee_auto_hit": one(
        Target(17, 15, boxes=10),
        W("Slam", "melee", 6, 12, rules={"knockdown"}),
        W("Claw", "melee", 4, 13, attacks=2),
    ),
    "critical_knockdown_then_ranged_def5": Scenario(
        Target(16, 13, boxes=10, state={"concealment"}),
        [Attacker("Jack", [W("Hammer", "melee", 8, 13, rules={"critical_knockdown"}, attacks=2)]),
         Attacker("Gunner", [W("Rifle", "ranged", 3, 11, attacks=2)])],
    ),
    "pow_dash_net_then_axe": Scenario(
        Target(15, 14, boxes=5),
        [Attacker("Netter", [W("Net", "ranged", 6, None, rules={"knockdown"})]),
         Attacker("Axeman", [W("Axe", "melee", 2, 12, attacks=2)])],
    ),
    # several attackers, long tracks
    "four_attackers_30box": Scenario(
        Target(13, 16, boxes=30, resist={"electrical"}),
        [
            Attacker("Heavy", [W("Fist", "melee", 7, 16, attacks=2)]),
            Attacker("Light", [W("Blade", "melee", 6, 12, rules={"critical_knockdown"})]),
            Attacker("Zapper", [W("Arc", "melee", 6, 14, damage_type={"electrical"}, attacks=2)]),
            Attacker("Brick", [W("Maul", "melee", 5, 17, boosted_damage=True)]),
        ],
    ),
    "kill_very_likely_1box": one(Target(10, 12), W("Sword", "melee", 7, 10, attacks=3)),
    "kill_very_unlikely_30box": one(Target(15, 20, boxes=30), W("Pistol", "ranged", 5, 12, attacks=3)),
    "kill_rare_tail": one(Target(14, 18, boxes=10), W("Sabre", "melee", 6, 14, attacks=2)),
    "no_damage_possible": one(Target(12, 30, boxes=3), W("Pea", "ranged", 6, 8, attacks=2)),
    "sure_hit_dies_first": one(Target(0, 0, boxes=1), W("Big", "melee", 20, 20, attacks=3)),
    "three_dice_crits": one(Target(20, 15, boxes=10), W("Lance", "melee", 8, 13, boosted_attack=True,
                                                       extra_attack_dice=1, attacks=2)),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_monte_carlo_matches_exact(name):
    scen = SCENARIOS[name]
    ex = simulate(scen, method="exact")
    mc = simulate(scen, trials=N, seed=SEED + len(name))
    bad = compare(mc, ex, N)
    assert not bad, f"{name}: {len(bad)} figure(s) disagree:\n  " + "\n  ".join(bad)


def test_scenarios_cover_enough():
    assert len(SCENARIOS) >= 20
    boxes = {s.target.boxes for s in SCENARIOS.values()}
    assert {1, 10, 30} <= boxes


def test_statistics_helpers():
    # Normal regime.
    assert prob_ok(0.5 + 4.9 * math.sqrt(0.25 / N), 0.5, N)[0]
    assert not prob_ok(0.5 + 5.1 * math.sqrt(0.25 / N), 0.5, N)[0]
    # Exact edges.
    assert prob_ok(0.0, 0.0, N)[0] and not prob_ok(1 / N, 0.0, N)[0]
    assert prob_ok(1.0, 1.0, N)[0] and not prob_ok(1 - 1 / N, 1.0, N)[0]
    # Small counts: one stray count at N p = 0.03 is not a 5-sigma event, ten are.
    p = 0.03 / N
    assert prob_ok(1 / N, p, N)[0] and not prob_ok(10 / N, p, N)[0]
    assert prob_ok(1 - 1 / N, 1 - p, N)[0] and not prob_ok(1 - 10 / N, 1 - p, N)[0]
    # Around N p = 50 the exact test agrees roughly with 5 sigma (50 +- 35 counts).
    p = 50 / N
    assert prob_ok(50 / N, p, N)[0] and prob_ok(80 / N, p, N)[0] and not prob_ok(100 / N, p, N)[0]
    assert not prob_ok(10 / N, p, N)[0]
    assert mean_ok(3.0, 3.0, 0.0, N)[0] and not mean_ok(3.1, 3.0, 0.0, N)[0]

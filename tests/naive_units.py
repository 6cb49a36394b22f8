"""Brute-force oracle for units and several targets, written straight from the rules.

:func:`bf_units` is an independent test oracle (a checker, not an engine): it gives the exact
outcome of one round of attacks by units of models (combined attacks, spill-over from model to
model and from target to target, blast damage, Knockdown, Tough) on units of identical models
with a damage track. It shares nothing with the engines it checks: it imports nothing from
:mod:`mathhammer` and reads only plain attributes of the objects it is given (duck typing, so
:class:`types.SimpleNamespace` objects work as well as the package's rules objects). Every die
of every roll is enumerated face by face with :func:`itertools.product`; probabilities are
exact rationals (GMP's ``mpq``, named ``Fraction`` here: it behaves as
:class:`fractions.Fraction` does, 5x faster). The full state (per target, per model: damage
marked, knocked down, destroyed) is carried attack by attack as an exact distribution, each
distinct state once: that merging of identical states is the only thing it has in common with
a dynamic programme.

Rules read (docs/rules.md 1, 2, 5 and the unit features' brief):

- Attack roll: 2d6 + skill (+ the group's combined bonus) vs DEF; all 1s miss, all 6s hit;
  a hit with two equal dice is critical. A melee attack on a knocked-down model hits
  automatically (never critical), and so does every attack of a weapon with ``auto_hit``;
  other attacks on it have base DEF 5.
- Damage roll: 2d6 + POW (+ combined bonus) vs ARM, ``max(0, roll - ARM)`` points; POW None
  rolls none. A model is destroyed when its marked points reach its boxes; the excess is lost.
- Tough: a model that would be destroyed and is not knocked down (before the attack that
  destroys it) rolls a d6; on 5 or 6 it keeps ``boxes - 1`` marked and is knocked down.
- Knockdown / Critical Knockdown: after the attack's damage, the model hit (if still standing)
  is knocked down.
- Units: an attacker's ``models`` form groups of ``combined`` in order (the last takes what is
  left); each group makes one combat action (each weapon in order, its ``attacks`` attacks)
  with +g to skill and POW, g the group's size when at least 2.
- Routing: the attack's targets are ``weapon.targets``, else ``attacker.targets``, else every
  target in scenario order; it goes to the first of them with a living model, to its living
  model of lowest index; if none is left it is not made.
- Blast: after a hit and its damage, up to ``blast_models`` other living models of the same
  target (lowest index first) take a blast damage roll each, 2d6 + ``blast_pow`` vs ARM (each
  its own Tough roll; never knockdown). After a miss, up to ``blast_on_miss`` living models of
  the target aimed at (lowest index first, that model included) take one each.
"""

from __future__ import annotations

import itertools
from gmpy2 import mpq as Fraction  # exact rationals in C: the suite's oracles, 5x faster

__all__ = ["bf_units", "unit_groups", "attack_outcomes", "damage_points"]

FACES = (1, 2, 3, 4, 5, 6)

_TARGET_UNSUPPORTED = ("terrain", "focus", "fury", "effects", "resist", "shield", "buckler",
                       "upkeep_def", "upkeep_arm", "spell_def", "spell_arm", "rapid_healing",
                       "hazards", "feat_def", "feat_arm")
_WEAPON_UNSUPPORTED = ("boosted_attack", "boosted_damage", "extra_attack_dice",
                       "extra_damage_dice", "cost", "crippled", "def_minus", "arm_minus")
_ATTACKER_UNSUPPORTED = ("focus", "fury", "force", "charge", "crippled")
_WEAPON_RULES = {"knockdown", "critical_knockdown"}
_TARGET_RULES = {"tough"}
_TARGET_STATES = {"knocked_down"}


# ---------------------------------------------------------------------------------- the dice
def attack_outcomes(skill: int, defense: int) -> tuple[Fraction, Fraction, Fraction]:
    """(miss, non-critical hit, critical hit) of 2d6 + ``skill`` vs ``defense``."""
    counts = {"miss": 0, "hit": 0, "crit": 0}
    for faces in itertools.product(FACES, repeat=2):
        if all(f == 1 for f in faces):
            hits = False
        elif all(f == 6 for f in faces):
            hits = True
        else:
            hits = sum(faces) + skill >= defense
        if not hits:
            counts["miss"] += 1
        elif len(set(faces)) < len(faces):
            counts["crit"] += 1
        else:
            counts["hit"] += 1
    total = len(FACES) ** 2
    return (Fraction(counts["miss"], total), Fraction(counts["hit"], total),
            Fraction(counts["crit"], total))


def damage_points(pow_: int, arm: int) -> dict[int, Fraction]:
    """``{points: probability}`` of a damage roll 2d6 + ``pow_`` vs ``arm``."""
    out: dict[int, Fraction] = {}
    for faces in itertools.product(FACES, repeat=2):
        points = max(0, sum(faces) + pow_ - arm)
        out[points] = out.get(points, Fraction(0)) + Fraction(1, len(FACES) ** 2)
    return out


# ------------------------------------------------------------------------------- the inputs
def unit_groups(models: int, combined: int) -> list[int]:
    """Sizes of the combat actions of a unit of ``models`` models combining ``combined``:
    ``unit_groups(7, 5) == [5, 2]``, ``unit_groups(3, 1) == [1, 1, 1]``."""
    if combined <= 1:
        return [1] * models
    return [min(combined, models - start) for start in range(0, models, combined)]


def _attr(obj, name, default=None):
    return getattr(obj, name, default)


def _check_target(t):
    for name in _TARGET_UNSUPPORTED:
        if _attr(t, name):
            raise NotImplementedError(f"target {t.name!r}: {name} is not covered by bf_units")
    if _attr(t, "grid") is not None or _attr(t, "spiral") is not None:
        raise NotImplementedError(f"target {t.name!r}: only a damage track is covered")
    extra = set(_attr(t, "rules", ())) - _TARGET_RULES
    if extra:
        raise NotImplementedError(f"target {t.name!r}: rules {sorted(extra)} not covered")
    extra = set(_attr(t, "state", ())) - _TARGET_STATES
    if extra:
        raise NotImplementedError(f"target {t.name!r}: state {sorted(extra)} not covered")
    if _attr(t, "models", 1) < 1 or t.boxes < 1:
        raise ValueError(f"target {t.name!r}: needs at least one model and one box")


def _check_attacker(a):
    for name in _ATTACKER_UNSUPPORTED:
        if _attr(a, name):
            raise NotImplementedError(f"attacker {a.name!r}: {name} is not covered by bf_units")
    if _attr(a, "models", 1) < 1 or _attr(a, "combined", 1) < 1:
        raise ValueError(f"attacker {a.name!r}: models and combined must be at least 1")
    for w in a.weapons:
        for name in _WEAPON_UNSUPPORTED:
            if _attr(w, name):
                raise NotImplementedError(f"weapon {w.name!r}: {name} is not covered by bf_units")
        for name in ("attack_discard", "damage_discard"):
            if _attr(w, name, "none") not in (None, "none"):
                raise NotImplementedError(f"weapon {w.name!r}: {name} is not covered by bf_units")
        extra = set(_attr(w, "rules", ())) - _WEAPON_RULES
        if extra:
            raise NotImplementedError(f"weapon {w.name!r}: rules {sorted(extra)} not covered")
        if w.type not in ("melee", "ranged", "arcane"):
            raise ValueError(f"weapon {w.name!r}: unknown type {w.type!r}")


# ------------------------------------------------------------------------------- the oracle
def bf_units(scenario, *, combined_blast: bool = False) -> dict:
    """Exact outcome of ``scenario`` (one round; units, several targets, blasts).

    Parameters
    ----------
    scenario
        Any object with ``targets``, ``attackers`` and ``turns`` (1) as described in the
        module docstring.
    combined_blast
        Reading of an open rule: whether a combined attack's +g bonus is added to the blast
        damage rolls too (default ``False``: a blast roll is 2d6 + ``blast_pow``).

    Returns
    -------
    dict
        ``"targets"``: ``{name: {"pmf": [P(k models destroyed), k = 0..N], "kill": P(all N
        destroyed), "damage": [P(d points marked in total), d = 0..N*boxes]}}`` (a destroyed
        model counts all its boxes); ``"all_destroyed"``: P(every model of every target
        destroyed); and per attack slot, lists in attack order: ``"made"``, ``"hit"``,
        ``"crit"``, ``"destroyed"`` (expected models destroyed by the attack, blast included),
        ``"kill_after"`` (P everything destroyed once it is resolved),
        ``"destroyed_mean_after"`` (expected models destroyed in total once it is resolved),
        ``"target_of"`` (``{target name: P(made against it)}``); ``"slots"``: ``(attacker
        name, group index, group size, weapon name, attack number)`` of each slot.
    """
    if _attr(scenario, "turns", 1) != 1:
        raise NotImplementedError("bf_units covers one turn only")
    targets = tuple(scenario.targets)
    if not targets:
        raise ValueError("no target")
    names = [t.name for t in targets]
    if len(set(names)) != len(names):
        raise ValueError(f"target names must be distinct: {names}")
    index = {name: i for i, name in enumerate(names)}
    for t in targets:
        _check_target(t)
    for a in scenario.attackers:
        _check_attacker(a)

    counts = [_attr(t, "models", 1) for t in targets]
    tough = [("tough" in set(_attr(t, "rules", ()))) for t in targets]

    # Attack slots: attacker, group (its size), weapon, attack; and the target list of each.
    slots = []
    for a in scenario.attackers:
        for gi, size in enumerate(unit_groups(_attr(a, "models", 1), _attr(a, "combined", 1))):
            bonus = size if size >= 2 else 0
            for w in a.weapons:
                order = tuple(_attr(w, "targets", ())) or tuple(_attr(a, "targets", ())) or tuple(names)
                for name in order:
                    if name not in index:
                        raise ValueError(f"weapon {w.name!r} of {a.name!r}: no target {name!r}")
                for k in range(_attr(w, "attacks", 1)):
                    slots.append({"label": (a.name, gi, size, w.name, k), "weapon": w, "bonus": bonus,
                                  "order": tuple(index[name] for name in order)})

    # A model is (marked, knocked down, destroyed); a destroyed one is (boxes, False, True).
    def dead(ti):
        return (targets[ti].boxes, False, True)

    def suffer(ti, model, points):
        """[(probability, model after)] of ``points`` damage on a living ``model``."""
        marked, down, _ = model
        boxes = targets[ti].boxes
        if marked + points < boxes:
            return [(Fraction(1), (marked + points, down, False))]
        if tough[ti] and not down:
            save = Fraction(sum(1 for f in FACES if f >= _attr(targets[ti], "tough_on", 5)), len(FACES))
            return [(save, (boxes - 1, True, False)), (1 - save, dead(ti))]
        return [(Fraction(1), dead(ti))]

    def roll_on(ti, models, m, pow_):
        """[(probability, models after)] of one damage roll with ``pow_`` on model ``m``."""
        out = []
        for points, p in damage_points(pow_, targets[ti].arm).items():
            for q, after in suffer(ti, models[m], points):
                out.append((p * q, models[:m] + (after,) + models[m + 1:]))
        return out

    def rolls_on(ti, models, which, pow_):
        """[(probability, models after)] of one damage roll each on the models ``which``."""
        branches = [(Fraction(1), models)]
        for m in which:
            branches = [(p * q, after) for p, ms in branches for q, after in roll_on(ti, ms, m, pow_)]
        return branches

    def living(models):
        return [m for m, (_, _, gone) in enumerate(models) if not gone]

    start_down = ["knocked_down" in set(_attr(t, "state", ())) for t in targets]
    start = tuple(tuple((0, start_down[ti], False) for _ in range(counts[ti])) for ti in range(len(targets)))
    dist = {start: Fraction(1)}

    n = len(slots)
    res = {
        "slots": [s["label"] for s in slots],
        "made": [Fraction(0)] * n,
        "hit": [Fraction(0)] * n,
        "crit": [Fraction(0)] * n,
        "destroyed": [Fraction(0)] * n,
        "kill_after": [Fraction(0)] * n,
        "destroyed_mean_after": [Fraction(0)] * n,
        "target_of": [{name: Fraction(0) for name in names} for _ in range(n)],
    }

    def n_destroyed(state):
        return sum(1 for models in state for (_, _, gone) in models if gone)

    for i, slot in enumerate(slots):
        w, g = slot["weapon"], slot["bonus"]
        rules = set(_attr(w, "rules", ()))
        blast_pow = _attr(w, "blast_pow")
        blast_models = _attr(w, "blast_models", 0) or 0
        blast_on_miss = _attr(w, "blast_on_miss", 0) or 0
        blast_bonus = g if combined_blast else 0
        new: dict = {}

        def add(state, p, before):
            new[state] = new.get(state, Fraction(0)) + p
            res["destroyed"][i] += p * (n_destroyed(state) - before)

        for state, prob in dist.items():
            before = n_destroyed(state)
            ti = next((t for t in slot["order"] if living(state[t])), None)
            if ti is None:  # nothing left among its targets: not made
                add(state, prob, before)
                continue
            res["made"][i] += prob
            res["target_of"][i][names[ti]] += prob
            models = state[ti]
            m = living(models)[0]
            down = models[m][1]
            if _attr(w, "auto_hit", False) or (w.type == "melee" and down):
                p_miss, p_hit, p_crit = Fraction(0), Fraction(1), Fraction(0)
            else:
                p_miss, p_hit, p_crit = attack_outcomes(w.skill + g, 5 if down else targets[ti].defense)

            def put(ms, p):
                add(state[:ti] + (ms,) + state[ti + 1:], prob * p, before)

            if p_miss:
                if blast_pow is not None and blast_on_miss > 0:
                    which = living(models)[:blast_on_miss]
                    for q, ms in rolls_on(ti, models, which, blast_pow + blast_bonus):
                        put(ms, p_miss * q)
                else:
                    put(models, p_miss)
            for p_res, critical in ((p_hit, False), (p_crit, True)):
                if not p_res:
                    continue
                res["hit"][i] += prob * p_res
                if critical:
                    res["crit"][i] += prob * p_res
                knocks = "knockdown" in rules or (critical and "critical_knockdown" in rules)
                if w.pow is None:
                    mains = [(Fraction(1), models)]
                else:
                    mains = roll_on(ti, models, m, w.pow + g)
                for q, ms in mains:
                    if knocks and not ms[m][2]:
                        ms = ms[:m] + ((ms[m][0], True, False),) + ms[m + 1:]
                    if blast_pow is not None and blast_models > 0:
                        which = [x for x in living(ms) if x != m][:blast_models]
                        for r, ms2 in rolls_on(ti, ms, which, blast_pow + blast_bonus):
                            put(ms2, p_res * q * r)
                    else:
                        put(ms, p_res * q)
        dist = new
        for state, p in dist.items():
            k = n_destroyed(state)
            res["destroyed_mean_after"][i] += p * k
            if k == sum(counts):
                res["kill_after"][i] += p

    out_targets = {}
    for ti, t in enumerate(targets):
        pmf = [Fraction(0)] * (counts[ti] + 1)
        damage = [Fraction(0)] * (counts[ti] * t.boxes + 1)
        for state, p in dist.items():
            models = state[ti]
            pmf[sum(1 for (_, _, gone) in models if gone)] += p
            damage[sum(marked for (marked, _, _) in models)] += p
        out_targets[t.name] = {"pmf": pmf, "kill": pmf[-1], "damage": damage}
    res["targets"] = out_targets
    res["all_destroyed"] = sum((p for state, p in dist.items() if n_destroyed(state) == sum(counts)),
                               Fraction(0))
    return res

"""Exact engine: enumeration of dice and dynamic programming over the attack sequence.

Pure Python and NumPy, independent of the Monte Carlo kernel, so that each can check the
other. Three layers:

* :func:`attack_outcome` enumerates every face of an attack roll (RULES.md 1): miss, plain
  hit, critical hit.
* :func:`damage_pmf` convolves the dice of a damage roll (RULES.md 2): damage points before
  the cap of the damage track.
* :func:`exact_result` walks the attack sequence (RULES.md 5) keeping the probability of every
  state ``(damage points marked, knocked down)`` of the target, and fills a
  :class:`~mathhammer.result.Result` whose weights are probabilities (``total == 1``).

The cost is ``O(attacks * boxes * damage outcomes)`` with the damage convolution vectorised
over the damage state, so damage tracks of hundreds of boxes and sequences of hundreds of
attacks take milliseconds.

Examples
--------
>>> from mathhammer.rules import Attacker, Scenario, Target, Weapon
>>> sword = Weapon("Sword", "melee", skill=6, pow=10)
>>> res = exact_result(Scenario(Target(defense=12, arm=15, boxes=1), [Attacker("A", [sword])]))
>>> round(res.kill, 6)   # hit (2d6 >= 6: 26/36) times damage (2d6 + 10 > 15: 26/36)
0.521605
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from .errors import ExactNotApplicable, InputError
from .result import SLOT_CRIT, SLOT_DAMAGE, SLOT_FIELDS, SLOT_HIT, SLOT_MADE, Result
from .rules import Scenario

__all__ = [
    "attack_outcome",
    "damage_pmf",
    "exact_result",
    "check_exact_applicable",
    "ExactNotApplicable",
]

#: Most dice one roll may have in the exact engine: 2, +1 boosted, +3 extra dice.
MAX_DICE = 6


def _check_dice(n_dice: int, lo: int) -> int:
    if isinstance(n_dice, bool) or not isinstance(n_dice, (int, np.integer)):
        raise TypeError(f"n_dice must be an integer (got {n_dice!r})")
    n_dice = int(n_dice)
    if not lo <= n_dice <= MAX_DICE:
        raise ValueError(f"n_dice must be between {lo} and {MAX_DICE} (got {n_dice})")
    return n_dice


@lru_cache(maxsize=None)
def _attack_counts(n_dice: int, need: int) -> tuple[int, int, int]:
    """Counts (miss, plain hit, critical hit) of the ``6**n_dice`` faces whose sum must reach
    ``need`` (= DEF - skill)."""
    miss = plain = crit = 0
    for faces in itertools.product(range(1, 7), repeat=n_dice):
        if n_dice >= 2 and faces.count(1) == n_dice:
            hit = False  # automatic miss
        elif n_dice >= 2 and faces.count(6) == n_dice:
            hit = True  # automatic hit
        else:
            hit = sum(faces) >= need
        if not hit:
            miss += 1
        elif n_dice >= 2 and len(set(faces)) < n_dice:
            crit += 1
        else:
            plain += 1
    return miss, plain, crit


@lru_cache(maxsize=None)
def attack_outcome(n_dice: int, skill: int, defense: int) -> tuple[float, float, float]:
    """Probabilities of one attack roll of ``n_dice`` d6 + ``skill`` against ``defense``.

    The roll hits when the sum of the dice plus the skill reaches the DEF. With two or more
    dice, all ones is an automatic miss and all sixes an automatic hit, and a hit is
    critical when at least two dice show the same number (RULES.md 1). A single die can be
    neither an automatic result nor a critical hit.

    Parameters
    ----------
    n_dice : int
        Dice rolled, 1 to 6.
    skill : int
        MAT or RAT.
    defense : int
        DEF the roll must reach (modifiers included).

    Returns
    -------
    (miss, hit, critical) : tuple of float
        ``hit`` is a hit that is not critical; the three sum to 1.

    Examples
    --------
    >>> attack_outcome(2, 6, 12)        # 6+ on 2d6: 26/36, of which 4/36 doubles
    (0.2777777777777778, 0.6111111111111112, 0.1111111111111111)
    >>> attack_outcome(2, 20, 5)[0] * 36  # all ones still misses
    1.0
    >>> attack_outcome(2, 0, 25)[2] * 36  # all sixes still hits (and is a double)
    1.0
    >>> attack_outcome(1, 3, 6)
    (0.3333333333333333, 0.6666666666666666, 0.0)
    """
    n_dice = _check_dice(n_dice, 1)
    # Only the gap DEF - skill matters; clamp it to the range where it changes anything.
    need = max(n_dice, min(6 * n_dice + 1, int(defense) - int(skill)))
    miss, plain, crit = _attack_counts(n_dice, need)
    total = 6**n_dice
    return miss / total, plain / total, crit / total


@lru_cache(maxsize=None)
def _sum_counts(n_dice: int) -> tuple[int, ...]:
    """Number of ways each sum ``0..6 n`` comes up on ``n`` d6 (exact integers)."""
    counts = np.array([1], dtype=np.int64)
    die = np.ones(6, dtype=np.int64)
    for _ in range(n_dice):
        counts = np.convolve(counts, np.concatenate(([0], die)))
    return tuple(int(c) for c in counts)


@lru_cache(maxsize=None)
def _damage_pmf_cached(n_dice: int, pow: int, arm: int) -> np.ndarray:
    counts = _sum_counts(n_dice)  # index = sum of the dice
    shift = pow - arm
    top = max(0, len(counts) - 1 + shift)
    out = np.zeros(top + 1, dtype=np.float64)
    for s, c in enumerate(counts):
        if c:
            out[max(0, s + shift)] += c
    out /= 6**n_dice
    out.setflags(write=False)
    return out


def damage_pmf(n_dice: int, pow: int, arm: int) -> np.ndarray:
    """Distribution of the damage points of one damage roll, before the damage-track cap.

    A damage roll is ``n_dice`` d6 + POW; every point above ARM is one damage point
    (RULES.md 2): ``max(0, sum + pow - arm)``.

    Parameters
    ----------
    n_dice : int
        Dice rolled, 0 to 6.
    pow, arm : int

    Returns
    -------
    ndarray of float64
        ``pmf[k]`` is the probability of exactly ``k`` damage points; its last entry is the
        largest possible damage and is never zero. Read-only (it is cached).

    Examples
    --------
    >>> p = damage_pmf(2, 10, 15)           # 2d6 - 5
    >>> p.size, round(p[0] * 36), round(p[7] * 36)
    (8, 10, 1)
    >>> damage_pmf(2, 0, 20)                # can never reach ARM
    array([1.])
    >>> p = damage_pmf(3, 12, 14)           # 3d6 - 2, never below 1
    >>> round(float(p @ np.arange(p.size)), 12), float(p[0])
    (8.5, 0.0)
    """
    n_dice = _check_dice(n_dice, 0)
    return _damage_pmf_cached(n_dice, int(pow), int(arm))


def check_exact_applicable(scenario: Scenario) -> None:
    """Raise :class:`~mathhammer.errors.ExactNotApplicable` if the exact engine cannot
    compute ``scenario``.

    Every scenario the rules model expresses today (damage tracks, knockdown, critical
    knockdown, DEF situations, resistances, several attackers) is computed exactly, so this
    accepts them all. Features whose state does not fit ``(damage marked, knocked down)``,
    such as damage grids and life spirals, will add refusals here.

    Raises
    ------
    InputError
        ``scenario`` is not a :class:`~mathhammer.rules.Scenario`.
    ExactNotApplicable
        The scenario uses a feature the exact engine does not model.

    Examples
    --------
    >>> check_exact_applicable("not a scenario")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: scenario: must be a mathhammer.Scenario (got 'str')
    """
    if not isinstance(scenario, Scenario):
        raise InputError("scenario", type(scenario).__name__, "must be a mathhammer.Scenario")
    for slot in scenario.attack_sequence():
        w = slot.weapon
        dice = w.attack_dice
        if dice > MAX_DICE or (w.deals_damage and w.damage_dice_against(scenario.target.resist) > MAX_DICE):
            raise ExactNotApplicable(
                f"{slot.label}: more than {MAX_DICE} dice in one roll is not supported by the exact engine"
            )


def _at_most_one(w: np.ndarray) -> np.ndarray:
    """Clip ``w`` at 0 and take any excess of its sum over 1 (rounding) off its largest entry.

    Both summation orders used downstream are checked: ``sum`` (pairwise) and ``cumsum``
    (sequential, for running totals such as ``kill_after``).
    """
    w = np.clip(w, 0.0, None)
    for _ in range(8):
        excess = max(float(w.sum()), float(np.cumsum(w)[-1])) - 1.0
        if excess <= 0.0:
            break
        i = int(np.argmax(w))
        w[i] = max(0.0, w[i] - max(excess, np.spacing(w[i])))
    return w


def _tidy(damage_weights, slot_weights, kill_weights):
    """Remove floating-point noise (a few ulps) that would break the invariants reports rely
    on: probabilities in [0, 1], sums at most 1, critical <= hit <= made."""
    damage_weights = _at_most_one(damage_weights)
    kill_weights = _at_most_one(kill_weights)
    sw = slot_weights.copy()
    sw[:, SLOT_MADE] = np.clip(sw[:, SLOT_MADE], 0.0, 1.0)
    sw[:, SLOT_HIT] = np.clip(np.minimum(sw[:, SLOT_HIT], sw[:, SLOT_MADE]), 0.0, None)
    sw[:, SLOT_CRIT] = np.clip(np.minimum(sw[:, SLOT_CRIT], sw[:, SLOT_HIT]), 0.0, None)
    sw[:, SLOT_DAMAGE] = np.clip(sw[:, SLOT_DAMAGE], 0.0, None)
    return damage_weights, sw, kill_weights


def exact_result(scenario: Scenario) -> Result:
    """Exact distributions of one scenario, as a :class:`~mathhammer.result.Result`.

    Dynamic programming over :meth:`Scenario.attack_sequence
    <mathhammer.rules.Scenario.attack_sequence>`: the state of the target is the number of
    damage points marked (``0 .. boxes - 1`` while it stands) and whether it was knocked down
    earlier in the sequence. Each attack:

    * is made only if the target is not yet disabled;
    * hits automatically, with no roll (so never critically), if it is a melee attack and the
      target started knocked down, stationary, inert, wild or a building, or was knocked down
      earlier in the sequence; otherwise rolls its attack dice + skill against the target's
      DEF for that attack type, with base DEF 5 in those same situations;
    * on a hit, knocks the target down if the weapon has Knockdown (or Critical Knockdown and
      the hit is critical), and rolls damage (unless POW is "-") capped by the boxes left.

    Weights are probabilities (``total == 1.0``). ``extra["slot_damage_sq"]`` holds, per
    attack, ``E[(damage points it marked)**2]`` (to size Monte Carlo tolerances).

    Raises
    ------
    ExactNotApplicable
        See :func:`check_exact_applicable`.

    Examples
    --------
    >>> from mathhammer.rules import Attacker, Scenario, Target, Weapon
    >>> net = Weapon("Net", "ranged", skill=20, pow=None, rules={"knockdown"})
    >>> axe = Weapon("Axe", "melee", skill=0, pow=20)
    >>> scen = Scenario(Target(defense=15, arm=10, boxes=5),
    ...                 [Attacker("Netter", [net]), Attacker("Axeman", [axe])])
    >>> res = exact_result(scen)
    >>> res.hit.round(4).tolist()    # net: 35/36; axe: 35/36 + (1/36) * (1/36)
    [0.9722, 0.973]
    >>> # Automatic hits are never critical: the axe crits only on its own all-sixes roll,
    >>> # after the net missed.
    >>> round(float(res.crit[1]) * 36 * 36)
    1
    >>> round(res.kill, 4)           # any axe hit deals at least 12 damage
    0.973
    """
    check_exact_applicable(scenario)
    target = scenario.target
    sequence = scenario.attack_sequence()
    boxes = int(target.boxes)
    n = len(sequence)

    start_def5 = target.starts_base_def_5
    start_auto = target.starts_melee_auto_hit

    # alive[kd, d]: probability the target stands with d damage marked; kd = knocked down
    # by an earlier hit of this sequence.
    alive = np.zeros((2, boxes), dtype=np.float64)
    alive[0, 0] = 1.0
    dead = 0.0

    slot_weights = np.zeros((n, SLOT_FIELDS), dtype=np.float64)
    kill_weights = np.zeros(n, dtype=np.float64)
    slot_damage_sq = np.zeros(n, dtype=np.float64)
    marks = np.arange(boxes, dtype=np.float64)  # damage already marked, per alive state

    for i, slot in enumerate(sequence):
        w = slot.weapon
        pmf = damage_pmf(w.damage_dice_against(target.resist), w.pow, target.arm) if w.deals_damage else None
        new = np.zeros_like(alive)
        # Mass that hits, per knocked-down state after the hit (damage is the same).
        hit_into = [np.zeros(boxes), np.zeros(boxes)]
        made = hit = crit = 0.0
        for kd in (0, 1):
            v = alive[kd]
            mass = float(v.sum())
            if mass == 0.0:
                continue
            made += mass
            if w.type == "melee" and (start_auto or kd):
                p_miss, p_plain, p_crit = 0.0, 1.0, 0.0
            else:
                defense = target.defense_against(w.type, base_def_5=bool(start_def5 or kd))
                p_miss, p_plain, p_crit = attack_outcome(w.attack_dice, w.skill, defense)
            hit += mass * (p_plain + p_crit)
            crit += mass * p_crit
            if p_miss:
                new[kd] += p_miss * v
            if p_plain:
                hit_into[1 if (kd or w.knocks_down(False)) else 0] += p_plain * v
            if p_crit:
                hit_into[1 if (kd or w.knocks_down(True)) else 0] += p_crit * v

        killed = dmg = dmg_sq = 0.0
        for kd_after, v in enumerate(hit_into):
            if not v.any():
                continue
            if pmf is None:
                new[kd_after] += v
                continue
            r = np.convolve(v, pmf)  # r[j]: mass reaching j damage points (uncapped)
            if r.size < boxes:
                r = np.concatenate((r, np.zeros(boxes - r.size)))
            new[kd_after] += r[:boxes]
            killed += float(r[boxes:].sum())
            # Damage marked by this attack: min(d + x, boxes) - d.
            capped = np.minimum(np.arange(r.size, dtype=np.float64), boxes)
            e_end = float(r @ capped)
            e_start = float(v @ marks)
            dmg += e_end - e_start
            # E[(min(d+x,B) - d)^2] = E[min^2] - 2 E[d min] + E[d^2]
            rd = np.convolve(v * marks, pmf)
            e_cross = float(rd @ capped[: rd.size])
            dmg_sq += float(r @ (capped * capped)) - 2.0 * e_cross + float(v @ (marks * marks))

        slot_weights[i, SLOT_MADE] = made
        slot_weights[i, SLOT_HIT] = hit
        slot_weights[i, SLOT_CRIT] = crit
        slot_weights[i, SLOT_DAMAGE] = dmg
        slot_damage_sq[i] = dmg_sq
        kill_weights[i] = killed
        dead += killed
        alive = new

    damage_weights = np.empty(boxes + 1, dtype=np.float64)
    damage_weights[:boxes] = alive.sum(axis=0)
    damage_weights[boxes] = dead
    damage_weights, slot_weights, kill_weights = _tidy(damage_weights, slot_weights, kill_weights)
    return Result(
        method="exact",
        trials=None,
        seed=None,
        slot_labels=tuple(slot.label for slot in sequence),
        total=1.0,
        damage_weights=damage_weights,
        slot_weights=slot_weights,
        kill_weights=kill_weights,
        boxes=boxes,
        extra={"slot_damage_sq": slot_damage_sq},
    )

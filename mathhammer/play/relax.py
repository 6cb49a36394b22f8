"""The relaxation best play is solved on where the exact state is too large.

On a damage grid or life spiral the exact state is the set of boxes marked (and, with
healing, their order), and the crippling of systems and aspects feeds back into DEF, ARM,
dice and the power field: too many states to solve a whole sequence by backward induction.
There the decisions are solved on the same scenario against a *damage track* of the same
number of boxes (same DEF, ARM, Shields, points, Tough, situation, rounds and effects; no
column rolls), and the kernel follows them by the number of boxes marked. On a grid, the
systems whose crippling feeds back (a Shield or Buckler location: its ARM; Movement: base
DEF 5; the Power Field Generator: no field; the Cortex, with points: they are lost) are
crippled on the track at random as the boxes fill: :func:`cripple_marks` marks the grid at
random, as the sequence's damage rolls would, to find each system's chance ``p(m)`` of
being crippled with ``m`` boxes marked; marking ``m`` to ``m'`` on the track cripples it with
chance ``(p(m') - p(m)) / (1 - p(m))``, and it stays crippled with its feedback. The tables
are keyed by the boxes marked only, so each decision is the one whose value, averaged over
the systems crippled (weighted by their chance at those boxes marked), is preferred. The
track compares the same chain of figures as the card (the objective, then the models
destroyed and the damage marked, then the points), so decisions the track's kill leaves
tied go to more damage, which on the card cripples systems and opens kills the track cannot
see. ``cripple:X`` has no meaning on a track: there the relaxation's objective is the
expected damage (its chain: damage, kill). docs/best-play.md gives the loss this costs
against the exact optimum on small grids.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..exact import rolls
from ..exact.columns import N_COLUMNS
from ..exact.setup import Setup
from ..rules import Scenario

__all__ = ["relaxed", "unguarded", "cripple_marks", "Averaged", "CRIPPLE_RUNS"]

#: Random markings of the grid :func:`cripple_marks` draws (seeded: the same every time).
CRIPPLE_RUNS = 4000


def unguarded(scenario: Scenario) -> tuple[Scenario, str]:
    """Several targets: the scenario best play is solved on, and how. With Shield Guard
    (beyond the exact engine: a guard takes hits meant for another target) the same targets
    without it, so the decisions plan as if no hit were taken."""
    if not any(t.shield_guard for t in scenario.targets):
        return scenario, "exact"
    targets = [dataclasses.replace(t, shield_guard=()) for t in scenario.targets]
    return dataclasses.replace(scenario, target=targets[0], targets=tuple(targets)), "exact, as if without Shield Guard"


def relaxed(scenario: Scenario) -> tuple[Scenario, str, str]:
    """The scenario best play is solved on, its objective, and how it was relaxed.

    Returns ``(scenario, objective, "exact")`` for a damage track; for a grid or spiral,
    the scenario against a track of as many boxes, with ``objective`` ``"damage"`` for
    ``cripple:X``, and a one-line description.

    Examples
    --------
    >>> from mathhammer.rules import Attacker, Target, Weapon
    >>> grid = Target(defense=12, arm=18, grid=["..", "..", "LL", "RR", "..", ".."])
    >>> scen = Scenario(grid, [Attacker("A", [Weapon("Fist", "melee", 7, 16)], focus=1)])
    >>> solved, objective, how = relaxed(scen)
    >>> solved.target.capacity, solved.target.boxes, objective, how
    ('track', 12, 'kill', 'relaxed: the grid as a damage track of 12 boxes')
    """
    t = scenario.target
    if t.card is None:
        return scenario, scenario.objective, "exact"
    objective = "damage" if scenario.objective.startswith("cripple:") else scenario.objective
    track = dataclasses.replace(t, grid=None, spiral=None, boxes=t.boxes)
    # a track has no sides: an attacker's side of a colossal has nothing to say there
    attackers = tuple(dataclasses.replace(a, side="random") if a.side != "random" else a for a in scenario.attackers)
    solved = dataclasses.replace(scenario, target=track, objective=objective, attackers=attackers)
    what = "colossal's two grids" if t.colossal else t.capacity
    how = f"relaxed: the {what} as a damage track of {t.boxes} boxes"
    if objective != scenario.objective:
        how += f", expected damage for {scenario.objective}"
    return solved, objective, how


def cripple_marks(scenario: Scenario, slots=None, runs: int | None = None) -> dict:
    """Per grid system whose crippling feeds back, its chance of being crippled at each
    number of boxes marked: ``{letter: float64[boxes + 1]}`` (nondecreasing, 1 when every
    box is marked); empty for a track, a spiral or a grid with no such system.

    The systems are those whose crippling changes the target: a Shield or Buckler location
    (its ARM), Movement (base DEF 5), the Power Field Generator (no field) and, with points,
    the Cortex (they are lost). The grid is marked at random :data:`CRIPPLE_RUNS` times
    (seeded) as the attacks of the sequence would mark it, over and over until it is full:
    each damage roll unboosted (:func:`~mathhammer.exact.rolls.damage_table`: its discard and
    reroll), against its ARM before crippling, its column rolled (or "damage to X").
    """
    runs = CRIPPLE_RUNS if runs is None else runs
    t = scenario.target
    if t.grid is None or t.colossal:  # a colossal's grids: beyond the exact Setup, none drawn
        return {}
    setup = Setup(scenario, slots)
    card = setup.card
    letters = sorted(setup.feedback) + (["C"] if setup.cortex else [])
    if not letters:
        return {}
    hits = []  # per damage-dealing attack: the distribution of its points, where it lands
    for info in setup.slots:
        if info.pow is None:
            continue
        w = info.weapon
        shift = info.pow - setup.armor(info, False, frozenset())
        pmf = rolls.damage_table(max(1, setup.damage_dice(info, False, setup.start)), w.damage_discard, shift,
                                 "reroll_damage" in w.rules, "decapitation_on_hit" in w.rules,
                                 "jump_the_shark" in w.rules)[-1]
        if pmf.size > 1:
            hits.append((pmf, w.damage_to))
    if not hits:
        return {}
    rng = np.random.default_rng(12345)
    digits = np.zeros((runs, N_COLUMNS), dtype=np.int64)  # per run, the mask index of each column
    count = np.zeros(runs, dtype=np.int64)
    seen = np.zeros(card.boxes + 1)
    crippled = {x: np.zeros(card.boxes + 1) for x in letters}
    bits = {x: 1 << card.letters.index(x) for x in letters}
    step = 0
    while (count < card.boxes).any() and step < 64 * card.boxes:
        pmf, to = hits[step % len(hits)]
        step += 1
        x = np.minimum(rng.choice(pmf.size, size=runs, p=pmf), card.boxes - count)
        xi = card.dx.index(to) if to in card.dx else None
        start = rng.integers(0, N_COLUMNS, size=runs)
        first_x = None
        if xi is not None:
            cols = np.full(runs, -1)
            for c in reversed(range(N_COLUMNS)):
                cols = np.where(card.hasx[c, digits[:, c], xi], c, cols)
            first_x = cols >= 0
            start = np.where(first_x, cols, start)
        card.mark_digits(digits, start, first_x, xi if xi is not None else 0, x)
        count = count + x
        moved = x > 0
        crip = card.crippled_digits(digits[moved])
        at = count[moved]
        seen += np.bincount(at, minlength=seen.size)
        for k in letters:
            crippled[k] += np.bincount(at, weights=(crip & bits[k]) > 0, minlength=seen.size)
    out = {}
    for k in letters:
        share = crippled[k] / np.maximum(seen, 1)
        share[card.boxes] = 1.0
        out[k] = np.maximum.accumulate(share)
    return out


class Averaged:
    """The relaxation with crippling (:meth:`Setup.cripple_from
    <mathhammer.exact.setup.Setup.cripple_from>`): the tables are keyed by the boxes marked,
    not by the systems crippled, so each decision is the one of the best value averaged over
    the crippled systems, weighted by their chance at those boxes marked. Collects the
    options' values of every record and hands back records of the best."""

    def __init__(self, setup):
        self.setup = setup
        self.acc: dict = {}

    def add(self, where: tuple, state, cells: tuple, values, preference) -> None:
        """One record: the cells (damage marked, and damage rolled for the power field) of
        decision ``where`` met in ``state``, each option's value there (``values``, per
        option an array ``[columns, cells]``, NaN where it is not offered) and the
        :class:`~mathhammer.exact.chain.Preference` that decides it."""
        w = self.setup.part(state).track_weight(state.crippled, cells[0])
        keep = w > 0
        if keep.any():
            v = np.stack(values)[:, :, keep] * w[keep]
            self.acc.setdefault(where, []).append((np.stack([c[keep] for c in cells], axis=1), v, preference))

    def best(self) -> dict:
        """``{where: (cells as arrays, preferred option per cell)}``: per cell, the option
        whose weighted sum over the records is preferred (the first on a tie)."""
        out = {}
        for where, parts in self.acc.items():
            n_options = max(v.shape[0] for _, v, _ in parts)
            width = parts[0][1].shape[1]
            cells = np.concatenate([c for c, _, _ in parts])
            values = np.concatenate([v if v.shape[0] == n_options else
                                     np.pad(v, ((0, n_options - v.shape[0]), (0, 0), (0, 0)), constant_values=np.nan)
                                     for _, v, _ in parts], axis=2)
            uniq, inv = _unique_rows(cells)
            total = np.zeros((n_options, width, len(uniq)))
            for j in range(n_options):
                for k in range(width):  # NaN (not offered) stays NaN
                    total[j, k] = np.bincount(inv.ravel(), weights=values[j, k], minlength=len(uniq))
            out[where] = (tuple(uniq[:, k] for k in range(uniq.shape[1])), parts[0][2].choose(list(total)))
        return out


def _unique_rows(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(cells, axis=0, return_inverse=True)`` of rows of integers (the rows in
    the same order), by one integer key per row: NumPy's rows are unique by a sort of
    structured records, several times slower.

    >>> uniq, inv = _unique_rows(np.array([[2, 1], [0, 5], [2, 1]]))
    >>> uniq.tolist(), inv.tolist()
    ([[0, 5], [2, 1]], [1, 0, 1])
    >>> cells = np.random.default_rng(1).integers(-3, 9, size=(500, 2))
    >>> rows, back = np.unique(cells, axis=0, return_inverse=True)
    >>> uniq, inv = _unique_rows(cells)
    >>> np.array_equal(uniq, rows) and np.array_equal(inv, back.ravel())
    True
    """
    if cells.shape[0] == 0:
        return cells, np.zeros(0, dtype=np.int64)
    low = cells.min(axis=0).astype(np.int64)
    radix = cells.max(axis=0).astype(np.int64) - low + 1
    key = np.zeros(cells.shape[0], dtype=np.int64)
    for k in range(cells.shape[1]):  # lexicographic: the first column the most significant
        key = key * radix[k] + (cells[:, k] - low[k])
    _, first, inv = np.unique(key, return_index=True, return_inverse=True)
    return cells[first], inv


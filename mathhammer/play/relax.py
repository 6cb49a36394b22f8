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
the systems crippled (weighted by their chance at those boxes marked), is best. ``cripple:X`` has no meaning on a track: the relaxation maximises the
expected damage instead. Decisions the track leaves (nearly) tied go to the one that deals more
damage (a weight of :data:`~mathhammer.play.solve.RELAXED_TIEBREAK` on the fraction of boxes
marked): on the card, damage cripples systems and opens kills the track cannot see. docs/best-play.md gives the loss this costs against the exact
optimum on small grids.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..exact.edges import TIE
from ..exact.setup import Setup
from ..rules import Scenario

__all__ = ["relaxed", "cripple_marks", "Averaged", "CRIPPLE_RUNS"]

#: Random markings of the grid :func:`cripple_marks` draws (seeded: the same every time).
CRIPPLE_RUNS = 4000


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
    solved = dataclasses.replace(scenario, target=track, objective=objective)
    how = f"relaxed: the {t.capacity} as a damage track of {t.boxes} boxes"
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
    each damage roll unboosted, before crippling, its column rolled (or "damage to X").
    """
    runs = CRIPPLE_RUNS if runs is None else runs
    t = scenario.target
    if t.grid is None:
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
        arm = setup.armor(info, False, frozenset())
        dice = max(1, setup.damage_dice(info, False))
        faces = np.arange(1, 7)
        sums = np.zeros(1)
        for _ in range(dice):
            sums = (sums[:, None] + faces).ravel()
        points = np.maximum(0, sums + info.pow - arm).astype(np.int64)
        if points.max() > 0:
            hits.append((points, info.weapon.damage_to))
    if not hits:
        return {}
    rng = np.random.default_rng(12345)
    code = np.zeros(runs, dtype=np.int64)
    count = np.zeros(runs, dtype=np.int64)
    seen = np.zeros(card.boxes + 1)
    crippled = {x: np.zeros(card.boxes + 1) for x in letters}
    bits = {x: 1 << card.letters.index(x) for x in letters}
    step = 0
    while (count < card.boxes).any() and step < 64 * card.boxes:
        points, to = hits[step % len(hits)]
        step += 1
        x = np.minimum(rng.choice(points, size=runs), card.boxes - count)
        xi = card.dx.index(to) if to in card.dx else None
        start = rng.integers(0, 6, size=runs)
        first_x = None
        if xi is not None:
            cols = np.full(runs, -1)
            for c in reversed(range(6)):
                cols = np.where(card.hasx[c, card.digit(code, c), xi], c, cols)
            first_x = cols >= 0
            start = np.where(first_x, cols, start)
        code = card.mark_codes(code, start, first_x, xi if xi is not None else 0, x)
        count = count + x
        moved = x > 0
        crip = card.crippled_of(code[moved])
        np.add.at(seen, count[moved], 1)
        for k in letters:
            np.add.at(crippled[k], count[moved], (crip & bits[k]) > 0)
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

    def add(self, where: tuple, state, cells: tuple, values: np.ndarray):
        w = self.setup.track_weight(state.crippled, cells[0])
        keep = w > 0
        if not keep.any():
            return
        cells = tuple(c[keep] for c in cells)
        v = values[:, keep] * w[keep]
        d = self.acc.setdefault(where, {})
        for j, cell in enumerate(zip(*(c.tolist() for c in cells))):
            col = v[:, j]
            old = d.get(cell)
            if old is None:
                d[cell] = col.copy()
            else:
                n = max(old.size, col.size)
                grown = np.full(n, -np.inf)
                grown[: old.size] = old
                grown[: col.size] = np.where(np.isfinite(grown[: col.size]), grown[: col.size] + col, -np.inf)
                d[cell] = grown

    def best(self):
        """``{where: (cells as arrays, best option per cell)}``."""
        out = {}
        for where, d in self.acc.items():
            cells = list(d)
            best = np.zeros(len(cells), dtype=np.int64)
            for i, cell in enumerate(cells):
                tot = d[cell]
                b, bv = 0, tot[0]
                for j in range(1, tot.size):
                    if tot[j] > bv + TIE:
                        b, bv = j, tot[j]
                best[i] = b
            cols = tuple(np.array(c, dtype=np.int64) for c in zip(*cells))
            out[where] = (cols, best)
        return out

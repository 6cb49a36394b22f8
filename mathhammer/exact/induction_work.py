"""The work of best play on a grid or spiral, estimated before any of it is done.

Backward induction (:class:`~mathhammer.exact.induction.Engine`) builds, for every state it
visits before an event and every configuration of the card it is asked about there (a
*node*), the edges of the option best play keeps; the forward pass that follows builds them
again for the nodes its decisions reach. The engine gives up once it has built
:data:`~mathhammer.exact.bounds.MAX_CARD_INDUCTION_EDGES` of them, which on a heavy card can
take a minute. :func:`induction_work` says in a few tens of milliseconds about how many it
would build, so that a scenario far beyond the limit is refused at once.

Which configurations the nodes hold
-----------------------------------
The nodes are every configuration that some choice of every option (buy or not, boost or
not, with which weapon) can reach: they do not depend on the decisions, and are counted from
the card. A hit marks ``t`` boxes from a rolled column
down, on to the next column with an unmarked box (:class:`~mathhammer.exact.card.Card`):
a *run*. A configuration whose columns are filled ``f_1 .. f_6`` from the top splits into
*segments*: each column partly marked, and each full column followed by an empty one, ends
a run, and the columns before it (back to the previous end) hold the rest of that run or of
runs before it. ``j`` hits of ``a`` to ``T`` boxes each can leave a segment of ``s`` boxes
only if ``ceil(s / T) <= j <= floor(s / a)``; so a configuration is reachable by ``k`` hits
only if every segment allows some ``j`` and the least ``j`` sum to at most ``k``
(:class:`Runs`). Per state the engine can be in before an event, the walk of
:func:`induction_work` keeps, for the ways to get there, the hits that marked boxes, the most
boxes they can have marked and the least and most boxes of one of them; the configurations
that one of those allows are the state's nodes (an upper side: on the bundled pairings it
counts the nodes each state holds, or a few more).

The edges of a node
-------------------
From a node with ``r`` boxes left an attack builds one edge for a miss and, for a hit or a
critical hit, one per damage roll that marks nothing or disables the target and six (a
column each) per damage roll that marks boxes; the option kept is counted as the option of
most edges (best play boosts whenever it can, almost always).

Measured on the bundled pairings (benchmarks/bench_exact_cards.py, docs/performance.md),
the count of backward induction's edges lies within 1.0 to 1.25 times the edges it builds;
the forward pass builds another 2 % to 74 % of those, depending on the decisions, which no
count made before them can know: the estimate adds :data:`FORWARD_SHARE` of them. It is an
estimate, not a bound: a scenario near the limit may be let through and still stopped by the
engine's own count while it runs.

Scenarios whose state can change in ways the walk does not follow (a target spending focus
or fury, continuous effects, several rounds, units, Tough, Rapid Healing, Shred, effects of a
hit but knockdown, "damage to X" on the card, ...) get no estimate (:func:`followed`); the
engine's own count stops them while it runs.
"""

from __future__ import annotations

import weakref
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from . import rolls
from .attack import critical_counts_as_hit
from .columns import N_COLUMNS
from .setup import Setup
from .state import SlotInfo, State

__all__ = ["Work", "Runs", "followed", "induction_work", "FORWARD_SHARE", "MAX_CODES"]

#: The forward pass's edges, as a share of backward induction's: on the bundled pairings it
#: built 0.02 to 0.74 of them (0.50 to 0.57 on the heavy pairings that come near the limit).
#: With 0.3 every bundled pairing falls on its side of the limit (the nearest: a heavy
#: warbeast against a heavy warbeast, estimated at 70.1 million and built in 67.4 million,
#: solved; the README tour, 162 million, refused).
FORWARD_SHARE = 0.3

#: Most configurations a card may have for :class:`Runs` to lay them all out at once (a few
#: dozen bytes each): beyond it, no estimate.
MAX_CODES = 1 << 20

#: Rules of a weapon that change the state in ways the walk does not follow.
_UNFOLLOWED = frozenset({
    "stationary", "critical_stationary", "paralysis", "critical_paralysis", "dispel", "critical_dispel",
    "grievous_wounds", "critical_grievous_wounds", "sustained_attack", "shred", "ice_cage", "critical_ice_cage"})


class Work(NamedTuple):
    """Edges a best-play run on a card is estimated to build."""

    induction: int  #: backward induction's (an upper side of them)
    forward: int  #: the forward pass's (:data:`FORWARD_SHARE` of backward induction's)

    @property
    def total(self) -> int:
        """What the engine's count (and its limit) adds up: both passes."""
        return self.induction + self.forward


class Runs:
    """The live configurations of a card whose marks fill its columns from the top, with
    the segments each splits into (see the module docstring).

    Parameters
    ----------
    lengths : tuple of int
        The boxes of each of the six columns.

    Attributes
    ----------
    marks : ndarray of int64
        Boxes marked in each live configuration (one box at least unmarked).
    segments : ndarray of int16, shape (live, 6)
        Boxes of the segment ending at each column (0: no run ends there).
    """

    def __init__(self, lengths: tuple[int, ...]):
        self.boxes = sum(lengths)
        size = int(np.prod(np.array(lengths) + 1))
        radix = np.cumprod([1] + [n + 1 for n in lengths[:-1]])
        fill = ((np.arange(size, dtype=np.int64)[:, None] // radix) % (np.array(lengths) + 1)).astype(np.int16)
        full, empty = fill == np.array(lengths), fill == 0
        ends = (~full & ~empty) | (full & np.roll(empty, -1, axis=1))
        marks = fill.sum(axis=1, dtype=np.int64)
        live = marks < self.boxes
        # two laps round the columns: the first finds an end to start from, the second sums
        # each segment, wrapping past column 6
        acc = np.zeros(size, dtype=np.int16)
        segments = np.zeros((size, N_COLUMNS), dtype=np.int16)
        for lap in range(2):
            for c in range(N_COLUMNS):
                acc += fill[:, c]
                if lap:
                    segments[:, c] = np.where(ends[:, c], acc, 0)
                acc[ends[:, c]] = 0
        self.marks = marks[live]
        self.segments = segments[live]
        self._least: dict = {}

    def least_hits(self, low: int, high: int) -> np.ndarray:
        """Per live configuration, the fewest hits of ``low`` to ``high`` boxes that leave
        it (a large number where none can)."""
        key = (low, high)
        out = self._least.get(key)
        if out is None:
            high = max(1, high)
            low = max(1, min(low, high))
            hits = -(-self.segments // high)
            out = np.where((hits * low <= self.segments).all(axis=1), hits.sum(axis=1, dtype=np.int64), 1 << 30)
            self._least[key] = out
        return out

    def nodes(self, ways: list[tuple[int, int, int, int]]) -> np.ndarray:
        """Per boxes marked, the configurations one of ``ways`` allows: ``(hits, most boxes
        marked, least boxes of a hit (negated), most boxes of a hit)``."""
        seen = np.zeros(self.marks.size, dtype=bool)
        for hits, most, least, high in ways:
            if hits == 0:
                seen |= self.marks == 0
            else:
                seen |= (self.least_hits(-least, high) <= hits) & (self.marks <= most)
        return np.bincount(self.marks[seen], minlength=self.boxes)


@lru_cache(maxsize=16)
def _runs(lengths: tuple[int, ...]) -> Runs:
    """The :class:`Runs` of a card of these column lengths, laid out once per process."""
    return Runs(lengths)


def _pruned(ways: list) -> list:
    """``ways`` without those another one allows everything of."""
    out: list = []
    for r in sorted(set(ways), reverse=True):
        if not any(all(a >= b for a, b in zip(o, r)) for o in out):
            out.append(r)
    return out


def followed(setup: Setup) -> bool:
    """Whether :func:`induction_work` follows every way the state of ``setup`` can change:
    one target, a card marked from the top of its columns, a single round, no power field
    to spend, and no rule but knockdown that changes the state."""
    card, t = setup.card, setup.target
    if card is None or card.stack or card.dx or card.n_codes > MAX_CODES:
        return False
    if setup.round_end or setup.models > 1 or setup.tough or setup.rapid_healing or setup.quicksand:
        return False
    if t.power_points and setup.field != "never":
        return False  # its spending leaves the attacker's options of most edges unchosen
    if setup.minus or setup.most_shots or setup.most_shred or setup.ice_stacks or setup.most_arm_extra:
        return False
    return not any(info.weapon.rules & _UNFOLLOWED or info.weapon.blasts for info in setup.all_infos)


def induction_work(setup: Setup) -> Work | None:
    """The edges best play on ``setup``'s card would build (None: no estimate, see
    :func:`followed`).

    Walks the events once, keeping per state the engine can be in before each (the
    attacker's points, knocked down or not) the ways to it: the hits that may have marked
    boxes, the most boxes they may have marked, the least and the most boxes of one hit
    (:class:`Runs` counts the configurations those allow). Adds up each state's nodes times
    the edges of the option of most edges from each. Kept per setup while it lives: the
    limits check it (:func:`~mathhammer.exact.bounds.prepare`), and Monte Carlo's best play
    asks again of the same setup.
    """
    if setup in _WORK:
        return _WORK[setup]
    _WORK[setup] = work = _estimate(setup) if followed(setup) else None
    return work


#: :func:`induction_work` of each setup alive (held weakly: a setup's end drops its entry).
_WORK: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _estimate(setup: Setup) -> Work:
    runs = _runs(tuple(setup.card.lengths))
    boxes = runs.boxes
    left = boxes - np.arange(boxes)  # boxes left, by boxes marked
    best = frozenset(i for i, a in enumerate(setup.scenario.attackers) if a.plays_best)
    # (hits, most boxes marked, -(least boxes of a hit), most boxes of a hit): each the
    # larger, the more configurations a way allows
    states = {(setup.start.points, setup.start.down): [(0, 0, -(1 << 30), 0)]}
    total = 0.0
    for ev in setup.events:
        info = setup.slots[ev.slot]
        if info.first:  # a new activation: its points
            fresh: dict = {}
            for (_, down), ways in states.items():
                fresh.setdefault((info.attacker.points, down), []).extend(ways)
            states = fresh
        after: dict = {}
        for (points, down), ways in states.items():
            ways = _pruned(ways)
            edges = np.zeros(boxes)
            for most, goes in _options(setup, info, points, down, info.slot.attacker_index in best, left):
                edges = np.maximum(edges, most)
                for key, hit in goes:
                    grown = ways if hit is None else [
                        (k + 1, min(m + hit[1], boxes - 1), max(neg, -hit[0]), max(high, hit[1]))
                        for k, m, neg, high in ways]
                    after.setdefault(key, []).extend(grown)
            total += float(runs.nodes(ways) @ edges)
        states = after
    induction = int(total)
    return Work(induction, int(FORWARD_SHARE * induction))


def _options(setup: Setup, info: SlotInfo, points: int, down: bool, plays: bool, left: np.ndarray) -> list:
    """The options of attack ``info`` from a state: per option, its edges from a node (by
    boxes marked) and where it goes, ``[(state key, (least, most) boxes of a hit or None)]``."""
    slot = info.slot
    if slot.bought and points < slot.cost:  # not made
        return [(np.ones(left.size), [((points, down), None)])]
    out, cost, made = [], 0, [info]
    if slot.bought:
        cost = slot.cost
        if plays:  # not bought (its buying stops), or bought with another weapon
            out.append((np.ones(left.size), [((0 if slot.stops else points, down), None)]))
            made += list(setup.alternatives[info.index])
    state = setup.start._replace(points=points - cost, down=down)
    for inf in made:
        out += _made(setup, inf, state, plays, left)
    return out


def _made(setup: Setup, info: SlotInfo, state: State, plays: bool, left: np.ndarray) -> list:
    """:func:`_options` of an attack made: per attack boost, a miss and the hits."""
    w, sc = info.weapon, setup.scenario
    if w.auto_hit or (w.type == "melee" and (state.down or state.still)):
        pays = [(0, (0.0, 1.0, 0.0))]  # no roll: no boost, never critical
    else:
        need = setup.defense(info, state) - info.skill
        can_pay = not w.boosted_attack and info.attacker.attack_dice(w) >= 1
        if plays:
            paid = [0, 1] if can_pay and state.points > 0 else [0]
        else:
            spend = info.attacker.spend
            paid = [int(can_pay and state.points > spend.reserve and spend.boosts_attack(need))]
        mods = ("jump_the_shark" in w.rules, "sanguine_fate" in w.rules, sc.crit_counts_discarded,
                sc.single_die_one_misses)
        pays = [(p, rolls.attack_roll(setup.attack_dice(info, p), w.attack_discard, need,
                                      "reroll_attack" in w.rules, *mods)) for p in paid]
    out = []
    for paid, (miss, plain, crit) in pays:
        points = state.points - paid
        edges, goes = np.zeros(left.size), []
        if miss:
            edges += 1
            goes.append(((points, state.down), None))
        for q, critical in ((plain, False), (crit, True)):
            if critical and plain and critical_counts_as_hit(setup, info, state, points, plays):
                continue  # built as the plain hit's edges
            if q:
                most, hits = _hit(setup, info, state, critical, points, plays, left)
                edges += most
                goes += [((p, state.down or w.triggers("knockdown", critical)), hit) for p, hit in hits]
        out.append((edges, goes))
    return out


def _hit(setup: Setup, info: SlotInfo, state: State, critical: bool, points: int, plays: bool,
         left: np.ndarray) -> tuple[np.ndarray, list]:
    """A hit's edges from a node (its damage boost of most) and, per damage boost, the
    attacker's points after it and the least and most boxes it marks (None: none)."""
    w, t = info.weapon, setup.target
    if info.pow is None:
        return np.ones(left.size), [(points, None)]
    dice = setup.damage_dice(info, critical, state)
    spend = info.attacker.spend
    if w.boosted_damage or info.slot.charge or dice < 1 or not points > (0 if plays else spend.reserve):
        boosts = [0]
    else:
        boosts = [0, 1] if plays or spend.boost_damage == "auto" else [int(spend.boost_damage == "always")]
    # the most boxes at the lowest ARM (every Shield's location crippled), the least as it starts
    low = setup.armor(info, False, frozenset(), frozenset(t.shield) | frozenset(t.buckler), critical)
    high = setup.armor(info, False, frozenset(), frozenset(), critical)
    rules = ("reroll_damage" in w.rules, "decapitation_on_hit" in w.rules or (critical and "decapitation" in w.rules),
             "jump_the_shark" in w.rules)
    edges, hits = np.zeros(left.size), []
    for b in boosts:
        n = max(1, dice + b)
        table = rolls.damage_table(n, w.damage_discard, info.pow - low, *rules)
        rows = table[np.minimum(left, table.shape[0] - 1)] > 0  # [boxes marked, damage rolled]
        x = np.arange(table.shape[1])[None, :]
        # one edge for a roll that marks nothing or disables the target, one a column else
        edges = np.maximum(edges, (rows * np.where((x == 0) | (x >= left[:, None]), 1, N_COLUMNS)).sum(axis=1))
        most = int(np.flatnonzero(table[-1]).max())
        least = _least(rolls.damage_table(n, w.damage_discard, info.pow - high, *rules))
        hits.append((points - b, (least, most) if most else None))
    return edges, hits


def _least(table: np.ndarray) -> int:
    """Fewest boxes a damage roll of ``table`` marks when it marks any (1 if it never does)."""
    x = np.flatnonzero(table[-1])
    x = x[x > 0]
    return int(x.min()) if x.size else 1

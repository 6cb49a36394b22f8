"""One attack, step by step (docs/activation.md "One attack, step by step"), as a set of edges.

Given a :class:`~mathhammer.exact.state.State` before attack ``i``, :func:`attack_edges`
lists every way the attack can end, vectorised over the damage already marked ``m``: a
:class:`Piece` holds, for many ``m`` at once, the probability of one outcome, the damage
marked after it, the state after it (or ``None``: the target was killed) and what the
attack counted (the ``SLOT_*`` columns of :class:`~mathhammer.result.Result`). On a grid
or spiral ``m`` is the index of a configuration of the card (see
:mod:`~mathhammer.exact.card`), and the column roll, crippling and its feedback on the
target are more branches of the same tree.

The same edges serve forward propagation (push probability along them) and backward
induction (pull values back along them), so both follow one reading of the rules.

Decisions
---------
Four things are decided during an attack: buying it (bought attacks), a paid attack boost,
a paid damage boost (after the attack roll) and the target's power field (after the damage
roll). :class:`Decisions` says who decides how: the attackers' fixed ``spend`` policies or
their best play, and the target's ``power_field`` policy. A decision made by looking ahead
compares the value of each option's edges under ``Decisions.value`` (the value of the
states after this attack) and keeps, per ``m`` (or per ``m`` and damage roll for the
target), the edges of the best option; on a tie the first option listed (the cheaper one)
is kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..result.fields import (
    SLOT_BOOST_ATTACK,
    SLOT_BOOST_DAMAGE,
    SLOT_CRIT,
    SLOT_DAMAGE,
    SLOT_FIELDS,
    SLOT_HIT,
    SLOT_MADE,
    SLOT_SPENT,
    SLOT_TARGET_SPENT,
    SLOT_TOUGH,
)
from . import rolls
from .state import Setup, SlotInfo, State

__all__ = ["Piece", "Decisions", "Hurt", "attack_edges", "merge", "suffer", "quicksand"]

#: An option must beat the one before it by more than this to be preferred (floating-point
#: noise must not decide a tie).
TIE = 1e-13


@dataclass
class Piece:
    """Edges from damage marked ``src`` (before the attack) to ``dst`` marked after it, in
    state ``state`` (``None``: killed), with probabilities ``p``.

    What the attack counted is the same for every edge of a piece (``counts``, one value
    per ``SLOT_*`` column) except the boxes it marked, ``marked`` (per edge; ``None``: 0).
    """

    state: State | None
    src: np.ndarray
    dst: np.ndarray
    p: np.ndarray
    counts: tuple
    marked: np.ndarray | None = None
    tag: np.ndarray | None = None  #: which damage roll each edge came from (power field choice)
    #: Quicksand: the point a knockdown made the target suffer, per edge (None: none).
    quick: np.ndarray | None = None
    #: The target was killed by that quicksand point (``state`` is None).
    quick_kill: bool = False

    def scaled(self, q: float) -> Piece:
        return Piece(self.state, self.src, self.dst, self.p * q, self.counts, self.marked, self.tag,
                     self.quick, self.quick_kill)

    def where(self, keep: np.ndarray) -> Piece:
        return Piece(self.state, self.src[keep], self.dst[keep], self.p[keep], self.counts,
                     _sub(self.marked, keep), _sub(self.tag, keep), _sub(self.quick, keep), self.quick_kill)


def _sub(a, keep):
    return None if a is None else a[keep]


@dataclass
class Decisions:
    """Who decides what during an attack (the target's power field policy is the setup's).

    Parameters
    ----------
    attackers_optimal : bool
        False: each attacker follows its ``spend`` policy. True: at every decision point it
        does what maximises ``value`` (buying, attack boost, damage boost; reserves and
        thresholds are ignored).
    value : callable, optional
        ``value(state, idx)``: the value of the state after this attack at each damage
        marked (configuration) of ``idx``. Needed by optimal decisions: the attackers' and,
        with ``power_field = "optimal"``, the target's (which minimises it).
    kill_value : float
        Value of a kill (1 for the kill probability or a crippled system, ``boxes`` for
        expected damage).
    """

    attackers_optimal: bool = False
    value: Callable[[State, np.ndarray], np.ndarray] | None = None
    kill_value: float = 1.0


_COL = {"made": SLOT_MADE, "hit": SLOT_HIT, "crit": SLOT_CRIT, "dmg": SLOT_DAMAGE,
        "boost_attack": SLOT_BOOST_ATTACK, "boost_damage": SLOT_BOOST_DAMAGE, "spent": SLOT_SPENT,
        "target_spent": SLOT_TARGET_SPENT, "tough": SLOT_TOUGH}


def _counts(named: dict) -> tuple:
    """``SLOT_*`` counts of a piece: ``named`` maps fields of :data:`_COL` (not ``dmg``) to
    numbers."""
    out = [0.0] * SLOT_FIELDS
    for name, value in named.items():
        out[_COL[name]] = float(value)
    return tuple(out)


def piece_values(pieces: list[Piece], dec: Decisions) -> list[np.ndarray]:
    """Per edge, probability times the value of where it leads."""
    out = []
    for pc in pieces:
        if pc.state is None:
            out.append(pc.p * dec.kill_value)
        else:
            out.append(pc.p * dec.value(pc.state, pc.dst))
    return out


def _choose(options: list[list[Piece]], group: Callable[[Piece], np.ndarray], n_groups: int,
            dec: Decisions, maximise: bool) -> list[Piece]:
    """Keep, per group, the edges of the best option (the first on a tie); an option with no
    edge in a group is not available there."""
    if len(options) == 1:
        return options[0]
    totals = []
    for pieces in options:
        tot = np.zeros(n_groups)
        seen = np.zeros(n_groups, dtype=bool)
        for pc, v in zip(pieces, piece_values(pieces, dec)):
            g = group(pc)
            tot += np.bincount(g, weights=v, minlength=n_groups)
            seen[g] = True
        tot = tot if maximise else -tot
        tot[~seen] = -np.inf
        totals.append(tot)
    best = np.zeros(n_groups, dtype=np.int64)
    best_value = totals[0].copy()
    for j in range(1, len(options)):
        better = totals[j] > best_value + TIE
        best[better] = j
        best_value[better] = totals[j][better]
    out = []
    for j, pieces in enumerate(options):
        for pc in pieces:
            keep = best[group(pc)] == j
            if keep.any():
                out.append(pc.where(keep))
    return out


class _BySrc:
    """Decision groups of an attack from the sorted sources ``m``: one per source."""

    def __init__(self, m: np.ndarray):
        self.m = m
        self.identity = m.size == 0 or (m[0] == 0 and m[-1] == m.size - 1)

    def __call__(self, pc: Piece) -> np.ndarray:
        return pc.src if self.identity else np.searchsorted(self.m, pc.src)


# --------------------------------------------------------------------------------- the attack
def attack_edges(setup: Setup, i: int, state: State, dec: Decisions, m: np.ndarray | None = None) -> list[Piece]:
    """Every outcome of attack ``i`` from ``state``, for every damage marked (step 1: buying).

    Parameters
    ----------
    m : ndarray, optional
        Sorted, distinct damage marked (card configurations) to start from; every damage
        marked of a track by default.

    Returns pieces whose probabilities sum to 1 for each ``m``.
    """
    info = setup.slots[i]
    if m is None:
        m = setup.marks
    by_src = _BySrc(m)
    if not info.slot.bought:
        return _attack(setup, info, state, m, 0, dec, by_src)
    idle = [Piece(state, m, m, np.ones(m.size), _counts({}))]
    if state.points < 1:  # nothing left to pay with: this and later bought attacks are not made
        return idle
    bought = _attack(setup, info, state, m, 1, dec, by_src)
    if not dec.attackers_optimal:
        return bought
    return _choose([idle, bought], by_src, m.size, dec, maximise=True)


def _attack(setup: Setup, info: SlotInfo, state: State, m: np.ndarray, buy: int,
            dec: Decisions, by_src: _BySrc) -> list[Piece]:
    """Step 2, the attack roll (with its paid boost and reroll), then the hit."""
    w = info.weapon
    points = state.points - buy
    if w.type == "melee" and (state.down or state.still):
        # Automatic hit: no roll, no boost, never critical.
        return _hit(setup, info, state, m, False, points, buy, 0, dec, by_src)
    need = setup.defense(info, state) - info.skill
    # a paid boost must add a die: not with a free boost, nor when the floor of one die
    # would swallow it (docs/activation.md step 2)
    can_pay = not w.boosted_attack and info.attacker.attack_dice(w) >= 1
    spend = info.attacker.spend
    if dec.attackers_optimal:
        options = [0, 1] if can_pay and points > 0 else [0]
    else:
        options = [int(can_pay and points > spend.reserve and spend.boosts_attack(need))]
    trees = []
    for paid in options:
        n = setup.attack_dice(info, paid)
        miss, plain, crit = rolls.attack_roll(n, w.attack_discard, need, "reroll_attack" in w.rules)
        left = points - paid
        pieces = []
        if miss:
            pieces.append(Piece(state._replace(points=left), m, m, np.full(m.size, miss),
                                _counts({"made": 1, "boost_attack": paid, "spent": buy + paid})))
        for q, critical in ((plain, False), (crit, True)):
            if q:
                pieces += [pc.scaled(q) for pc in _hit(setup, info, state, m, critical, left, buy + paid, paid,
                                                       dec, by_src)]
        trees.append(pieces)
    return _choose(trees, by_src, m.size, dec, maximise=True)


def _hit(setup: Setup, info: SlotInfo, state: State, m: np.ndarray, critical: bool, points: int,
         spent: int, paid_attack: int, dec: Decisions, by_src: _BySrc) -> list[Piece]:
    """Steps 3, 4 and 6 for a hit: Dispel and Grievous Wounds at once, the damage roll, then
    knockdown, stationary and the weapon's -DEF / -ARM effect for the next attacks."""
    w = info.weapon
    effects = state.effects
    if w.has_effect and (w.effect_on == "hit" or critical):
        effects = effects | {info.ident}
    after = state._replace(
        down=state.down or w.knocks_down(critical),
        still=state.still or w.makes_stationary(critical),
        dispelled=state.dispelled or ("dispel" in w.rules and setup.dispellable),
        grievous=state.grievous or ("grievous_wounds" in w.rules and setup.woundable),
        effects=effects,
        points=points,
        cont=state.cont | setup.sets_bits(w, critical),  # continuous effects (docs/rules.md 4)
    )
    base = {"made": 1, "hit": 1, "crit": int(critical), "boost_attack": paid_attack, "spent": spent}
    if info.pow is None:
        pieces = [Piece(after, m, m, np.ones(m.size), _counts(base))]
        if _in_quicksand(setup, info, state, critical):
            pieces = quicksand(setup, info, pieces, dec)
        return pieces
    roll = _DamageRoll(setup, info, state, after, critical, base, dec)
    spend = info.attacker.spend
    free = w.boosted_damage or info.slot.charge
    adds_die = setup.damage_dice(info, critical) >= 1
    if free or not adds_die or not (points > (0 if dec.attackers_optimal else spend.reserve)):
        return roll.edges(m, 0)
    if dec.attackers_optimal:
        return _choose([roll.edges(m, 0), roll.edges(m, 1)], by_src, m.size, dec, maximise=True)
    if spend.boost_damage == "never":
        return roll.edges(m, 0)
    if spend.boost_damage == "always":
        return roll.edges(m, 1)
    # auto: the smallest unboosted roll could leave the target standing, and the largest
    # boosted roll deals damage.
    dice = setup.damage_dice(info, critical)
    discard = w.damage_discard
    kept_plain = rolls.kept_count(max(1, dice), discard)
    kept_boosted = rolls.kept_count(max(1, dice + 1), discard)
    remaining = setup.remaining(m)
    boost = (kept_plain + roll.shift < remaining) & (6 * kept_boosted + roll.shift > 0)
    return roll.edges(m[~boost], 0) + roll.edges(m[boost], 1)


class _DamageRoll:
    """Step 4 from the damage dice on: roll (discard, reroll), Decapitation, the target's
    power field, marking (on a card: the column roll, crippling and its feedback), Tough,
    Rapid Healing."""

    def __init__(self, setup, info, state, after, critical, base, dec):
        self.setup, self.info, self.state, self.after = setup, info, state, after
        self.critical, self.base, self.dec = critical, base, dec
        # this attack's effect, and what its damage cripples, count from the next attack on
        arm = setup.armor(info, after.dispelled, state.effects, state.crippled)
        self.shift = info.pow - arm
        self.dice = setup.damage_dice(info, critical)
        w = info.weapon
        self.tough = setup.tough and not after.grievous and (not state.down or setup.steady)
        self.heals = setup.rapid_healing if not after.grievous else 0
        self.quick = _in_quicksand(setup, info, state, critical)
        self.table_args = (w.damage_discard, self.shift, "reroll_damage" in w.rules,
                           critical and "decapitation" in w.rules)

    def edges(self, m: np.ndarray, paid: int) -> list[Piece]:
        """Edges from each damage marked in ``m``, with ``paid`` (0 or 1) damage boosts."""
        if m.size == 0:
            return []
        setup = self.setup
        table = rolls.damage_table(max(1, self.dice + paid), *self.table_args)
        remaining = setup.remaining(m)
        rows = table[np.minimum(remaining, table.shape[0] - 1)]
        cell, x = np.nonzero(rows)
        cells = _Cells(m[cell], remaining[cell], x, rows[cell, x])
        points = self.after.points - paid
        counts = dict(self.base, boost_damage=paid, spent=self.base["spent"] + paid)
        tp = self.after.target_points
        kind, policy = setup.power_kind, setup.field
        if tp == 0 or policy == "never" or "G" in self.state.crippled:  # crippled G: no field
            return self._leaves(cells, 0, points, counts)
        if policy == "lethal":
            lethal = cells.x >= cells.remaining
            if kind == "focus":
                need = -(-(cells.x - cells.remaining + 1) // 5)
                spend = np.where(lethal & (need <= tp), need, 0)
            else:
                spend = lethal.astype(np.int64)
            out = []
            for k in np.unique(spend):
                out += self._leaves(cells.where(spend == k), int(k), points, counts)
            return out
        # optimal: per damage roll, the spending that minimises the value ahead.
        top = min(tp, -(-int(cells.x.max()) // 5)) if kind == "focus" else min(tp, 1)
        options = []
        for k in range(top + 1):
            useful = (cells.x > 5 * (k - 1)) if kind == "focus" else (cells.x > 0)
            useful = useful | (k == 0)
            options.append(self._leaves(cells.where(useful), k, points, counts, tag=np.flatnonzero(useful)))
        return _choose(options, lambda pc: pc.tag, cells.x.size, self.dec, maximise=False)

    def _leaves(self, cells: _Cells, k: int, points: int, counts: dict, tag=None) -> list[Piece]:
        """The target spends ``k``; mark the damage, then Tough or Rapid Healing."""
        if cells.x.size == 0:
            return []
        setup = self.setup
        if k == 0:
            taken = cells.x
        elif setup.power_kind == "focus":
            taken = np.maximum(0, cells.x - 5 * k)
        else:
            taken = np.zeros_like(cells.x)
        marked = np.minimum(taken, cells.remaining)
        counts = dict(counts, target_spent=k)
        after = self.after._replace(target_points=self.after.target_points - k, points=points)
        if setup.card is not None:
            return self._card_leaves(cells, marked, after, counts, tag)
        end = cells.src + marked
        disabled = end >= setup.boxes
        out = []

        def add(state, keep, dst, p, **extra):
            if not keep.any():
                return
            dst = dst[keep] if isinstance(dst, np.ndarray) else np.full(int(keep.sum()), dst)
            out.append(Piece(state, cells.src[keep], dst, p[keep], _counts(dict(counts, **extra)),
                             marked[keep], None if tag is None else tag[keep]))

        standing = ~disabled
        healed = end
        if self.heals:
            healed = np.where(marked > 0, np.maximum(0, end - self.heals), end)
        add(after, standing, healed, cells.p)
        if self.tough:
            add(after._replace(down=True), disabled, setup.boxes - 1, cells.p / 3, tough=1)
            add(None, disabled, setup.boxes - 1, cells.p * (2 / 3))
        else:
            add(None, disabled, setup.boxes - 1, cells.p)
        if self.quick:
            out = quicksand(setup, self.info, out, self.dec)
        return out

    def _card_leaves(self, cells: _Cells, marked: np.ndarray, after: State, counts: dict, tag) -> list[Piece]:
        """Mark ``marked`` boxes on the card: the column roll (or the X box of "damage to
        X"), then Tough or Rapid Healing (last marked first); the state after takes the
        feedback of the systems crippled then. Then a knockdown in quicksand."""
        out = self._card_marks(cells, marked, after, counts, tag)
        if self.quick:
            out = quicksand(self.setup, self.info, out, self.dec)
        return out

    def _card_marks(self, cells: _Cells, marked: np.ndarray, after: State, counts: dict, tag) -> list[Piece]:
        setup, card = self.setup, self.setup.card
        out = []

        # No damage taken: nothing marked, no column roll.
        zero = marked == 0
        if zero.any():
            src = cells.src[zero]
            out.append(Piece(after, src, src, cells.p[zero], _counts(counts), marked[zero],
                             None if tag is None else tag[zero]))
        pos = np.flatnonzero(~zero)
        if pos.size == 0:
            return out
        src, rem, mk, p = cells.src[pos], cells.remaining[pos], marked[pos], cells.p[pos]
        tg = None if tag is None else tag[pos]
        disabled = mk >= rem
        # Killed: the column does not matter.
        kill_p = p * (2 / 3) if self.tough else p
        if disabled.any():
            out.append(Piece(None, src[disabled], src[disabled], kill_p[disabled],
                             _counts(counts), mk[disabled], None if tg is None else tg[disabled]))
        go = ~disabled | self.tough  # standing, or saved by Tough: where the boxes went matters
        if not go.any():
            return out
        sel, start, first_x, q, xi = card.landing(src[go], self.info.weapon.damage_to)
        rows = np.flatnonzero(go)[sel]
        s_src, s_mk, s_dis = src[rows], mk[rows], disabled[rows]
        s_p = np.where(s_dis, p[rows] / 3, p[rows]) * q
        # Healing, last marked first: a Tough save removes 1 (the disabling attack marked at
        # least one), Rapid Healing up to its points (never below none marked).
        heal = np.where(s_dis, 1, np.minimum(self.heals, setup.count(s_src) + s_mk))
        dst = card.move(s_src, start, first_x, xi, s_mk, heal, setup.windows[self.info.index + 1])
        bits = card.crip[dst]
        key = (bits & setup.feedback_mask) * 4 + ((bits & setup.cortex_bit) > 0) * 2 + s_dis
        for k in np.unique(key):
            keep = key == k
            b0 = int(bits[np.argmax(keep)])
            state = after._replace(crippled=setup.crippled_set(b0))
            if k & 2:
                state = _cortex_lost(setup, state)  # crippled Cortex: its points, for good
            extra = {}
            if k & 1:
                state = state._replace(down=True)
                extra = {"tough": 1}
            out.append(Piece(state, s_src[keep], dst[keep], s_p[keep], _counts(dict(counts, **extra)),
                             s_mk[keep], None if tg is None else tg[rows][keep]))
        return out


@dataclass
class _Cells:
    """Damage rolls of many ``m`` at once: marked before, boxes left, points, probability."""

    src: np.ndarray
    remaining: np.ndarray
    x: np.ndarray
    p: np.ndarray

    def where(self, keep: np.ndarray) -> _Cells:
        return _Cells(self.src[keep], self.remaining[keep], self.x[keep], self.p[keep])


def merge(pieces: list[Piece]) -> list[Piece]:
    """Join the pieces that lead to the same state with the same counts (fewer, larger
    array operations); drop the decision tags."""
    groups: dict = {}
    for pc in pieces:
        groups.setdefault((pc.state, pc.counts, pc.quick_kill), []).append(pc)
    out = []

    def joined(group, field):
        if all(getattr(pc, field) is None for pc in group):
            return None
        return np.concatenate([np.zeros(pc.p.size, dtype=np.int64) if getattr(pc, field) is None
                               else getattr(pc, field) for pc in group])

    for (state, counts, quick_kill), group in groups.items():
        src, dst, p = (np.concatenate([getattr(pc, f) for pc in group]) for f in ("src", "dst", "p"))
        out.append(Piece(state, src, dst, p, counts, joined(group, "marked"), None,
                         joined(group, "quick"), quick_kill))
    return out


# ------------------------------------------------------------------ suffering points
def _cortex_lost(setup: Setup, state: State) -> State:
    """A crippled Cortex takes the target's focus for good (kept over rounds)."""
    return state._replace(target_points=0, lost=state.lost or setup.track_lost)


def _in_quicksand(setup: Setup, info: SlotInfo, state: State, critical: bool) -> bool:
    """A hit of ``info`` knocks the target down in quicksand (it was not knocked down)."""
    return setup.quicksand and info.weapon.knocks_down(critical) and not state.down


@dataclass
class Hurt:
    """Suffering points: the edges of input ``rows`` lead to ``dst`` in ``state`` (None:
    killed) with probabilities ``p``, after marking ``taken`` boxes (before a Tough save);
    ``spent``: focus the power field spent; ``tough``: a Tough roll saved the target."""

    state: State | None
    rows: np.ndarray
    dst: np.ndarray
    p: np.ndarray
    taken: np.ndarray
    spent: int = 0
    tough: int = 0


def suffer(setup: Setup, state: State, cur: np.ndarray, x: np.ndarray, p: np.ndarray,
           dec: Decisions | None, window: int) -> list[Hurt]:
    """The target, in ``state``, suffers ``x`` damage points that are not an attack's
    (quicksand, fire, corrosion: docs/activation.md, "Suffering points"), at each damage
    marked (configuration) ``cur``, with probabilities ``p``.

    The power field spends focus by its policy (``lethal``: only when the points would
    disable, the fewest; ``optimal``: what minimises ``dec.value``; fury does not prevent
    them; a crippled Power Field Generator stops it); the points are marked (a column roll
    on a card); a disabled target may roll Tough; no Rapid Healing. ``window``: marks the
    card's stack keeps (the next attack's).
    """
    rows = np.arange(cur.size)
    tp = state.target_points
    if (cur.size == 0 or setup.power_kind != "focus" or setup.field == "never" or tp == 0
            or "G" in state.crippled):
        return _suffer_mark(setup, state, rows, cur, x, p, window, 0)
    remaining = setup.remaining(cur)
    if setup.field == "lethal":
        need = -(-(x - remaining + 1) // 5)
        spend = np.where((x >= remaining) & (need <= tp), need, 0)
        out = []
        for k in np.unique(spend):
            sel = np.flatnonzero(spend == k)
            k = int(k)
            out += _suffer_mark(setup, state._replace(target_points=tp - k), sel, cur[sel],
                                np.maximum(0, x[sel] - 5 * k), p[sel], window, k)
        return out
    # optimal: per edge, the spending that minimises the value ahead (the cheaper on a tie)
    top = min(tp, -(-int(x.max()) // 5))
    options = []
    for k in range(top + 1):
        sel = np.flatnonzero((x > 5 * (k - 1)) | (k == 0))
        options.append(_suffer_mark(setup, state._replace(target_points=tp - k), sel, cur[sel],
                                    np.maximum(0, x[sel] - 5 * k), p[sel], window, k))
    if len(options) == 1:
        return options[0]
    n = cur.size
    best = np.zeros(n, dtype=np.int64)
    best_value = None
    for j, hurts in enumerate(options):
        tot = np.zeros(n)
        seen = np.zeros(n, dtype=bool)
        for h in hurts:
            lead = dec.kill_value if h.state is None else dec.value(h.state, h.dst)
            tot += np.bincount(h.rows, weights=h.p * lead, minlength=n)
            seen[h.rows] = True
        tot = np.where(seen, -tot, -np.inf)  # maximise minus the value
        if best_value is None:
            best_value = tot
            continue
        better = tot > best_value + TIE
        best[better] = j
        best_value = np.where(better, tot, best_value)
    out = []
    for j, hurts in enumerate(options):
        for h in hurts:
            keep = best[h.rows] == j
            if keep.any():
                out.append(Hurt(h.state, h.rows[keep], h.dst[keep], h.p[keep], h.taken[keep], h.spent, h.tough))
    return out


def _suffer_mark(setup: Setup, state: State, rows: np.ndarray, cur: np.ndarray, x: np.ndarray,
                 p: np.ndarray, window: int, spent: int) -> list[Hurt]:
    """Mark ``x`` points (the power field done) from ``cur``; Tough; on a card, the column
    roll and what crippling changes."""
    if rows.size == 0:
        return []
    boxes = setup.boxes
    remaining = setup.remaining(cur)
    taken = np.minimum(x, remaining).astype(np.int64)
    tough = setup.tough and not state.grievous and (not state.down or setup.steady)
    out = []

    def add(st, keep, dst, q, saved=0):
        if keep.any():
            dst = dst[keep] if isinstance(dst, np.ndarray) else np.full(int(keep.sum()), dst)
            out.append(Hurt(st, rows[keep], dst, q[keep], taken[keep], spent, saved))

    disabled = taken >= remaining
    if setup.card is None:
        end = cur + taken
        add(state, ~disabled, end, p)
        if tough:
            add(state._replace(down=True), disabled, boxes - 1, p / 3, 1)
            add(None, disabled, boxes - 1, p * (2 / 3))
        else:
            add(None, disabled, boxes - 1, p)
        return out
    card = setup.card
    zero = taken == 0
    add(state, zero, cur, p)
    add(None, disabled, cur, p * (2 / 3) if tough else p)
    go = ~zero & (~disabled | tough)
    if not go.any():
        return out
    pos = np.flatnonzero(go)
    sel, start, _, q, _ = card.landing(cur[pos], None)
    at = pos[sel]
    dis = disabled[at]
    s_p = np.where(dis, p[at] / 3, p[at]) * q
    dst = card.move(cur[at], start, None, None, taken[at], dis.astype(np.int64), window)
    bits = card.crip[dst]
    key = (bits & setup.feedback_mask) * 4 + ((bits & setup.cortex_bit) > 0) * 2 + dis
    for k in np.unique(key):
        keep = key == k
        b0 = int(bits[np.argmax(keep)])
        st = state._replace(crippled=setup.crippled_set(b0))
        if k & 2:
            st = _cortex_lost(setup, st)
        if k & 1:
            st = st._replace(down=True)
        out.append(Hurt(st, rows[at][keep], dst[keep], s_p[keep], taken[at][keep], spent, int(k & 1)))
    return out


def quicksand(setup: Setup, info: SlotInfo, pieces: list[Piece], dec: Decisions) -> list[Piece]:
    """A hit knocked the target down in quicksand: where it stands after the attack (not
    killed, not saved by Tough: a Tough save's knockdown came first), it suffers 1 damage
    point at once. Counted apart (``quick``, ``quick_kill``), not in the attack's figures."""
    out = []
    window = setup.windows[info.index + 1]
    for pc in pieces:
        if pc.state is None or pc.counts[SLOT_TOUGH]:
            out.append(pc)
            continue
        ones = np.ones(pc.src.size, dtype=np.int64)
        for h in suffer(setup, pc.state, pc.dst, ones, pc.p, dec, window):
            r = h.rows
            out.append(Piece(h.state, pc.src[r], h.dst, h.p, pc.counts, _sub(pc.marked, r), _sub(pc.tag, r),
                             h.taken, h.state is None))
    return out

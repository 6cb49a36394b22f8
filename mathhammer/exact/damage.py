"""Step 4 of an attack from the damage dice on (docs/activation.md "One attack, step by step").

:class:`DamageRoll` turns a hit into edges: the damage roll (discard, reroll), Decapitation,
the target's power field (by its policy, or by looking ahead), marking the boxes (on a grid
or spiral: the column roll or the X box of "damage to X", crippling and its feedback on the
target), Tough, Rapid Healing, then a knockdown in quicksand
(:func:`~mathhammer.exact.suffering.quicksand`). The damage rolls of many damage marked at
once travel together (``_Cells``), so each step is one NumPy operation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import rolls
from .blast import blast
from .card import N_COLUMNS
from .choices import choose
from .edges import Piece, groups_by, slot_counts
from .state import State
from .suffering import cortex_lost, in_quicksand, quicksand

__all__ = ["DamageRoll"]


class DamageRoll:
    """Step 4 from the damage dice on: roll (discard, reroll), Decapitation, the target's
    power field, marking (on a card: the column roll, crippling and its feedback), Tough,
    Rapid Healing."""

    def __init__(self, setup, info, state, after, critical, base, dec):
        self.setup, self.info, self.state, self.after = setup, info, state, after
        self.critical, self.base, self.dec = critical, base, dec
        # this attack's effect, and what its damage cripples, count from the next attack on
        # (and its Dispel too, with the setting dispel_from_next_attack)
        sc, w = setup.scenario, info.weapon
        dispelled = state.dispelled if sc.dispel_from_next_attack else after.dispelled
        arm = setup.armor(info, dispelled, state.effects, state.crippled, critical, state.arm_extra)
        self.shift = info.pow - arm
        self.dice = setup.damage_dice(info, critical, state)
        # no Tough roll for a model knocked down (but Tough Steady); this hit's own knockdown
        # counts where it comes first (a power attack's, or the setting knockdown_before_tough)
        down = state.down or (sc.knockdown_first(w) and w.triggers("knockdown", critical))
        self.tough = (setup.tough and not after.grievous and (not down or setup.steady)
                      and not (setup.upkeep_tough and after.dispelled))
        self.heals = setup.rapid_healing if not after.grievous else 0
        self.quick = in_quicksand(setup, info, state, critical)
        double = "decapitation_on_hit" in w.rules or (critical and "decapitation" in w.rules)
        self.table_args = (w.damage_discard, self.shift, "reroll_damage" in w.rules, double,
                           "jump_the_shark" in w.rules)

    def _cells(self, m: np.ndarray, paid: int) -> _Cells:
        """The damage rolls from each damage marked in ``m`` with ``paid`` boosts (made once
        an evaluation for each roll and ``m``)."""
        setup = self.setup
        key = (self.dice + paid, self.table_args, m.tobytes())
        cells = setup.rolls.get(key)
        if cells is None:
            table = rolls.damage_table(max(1, self.dice + paid), *self.table_args)
            before = setup.count(m)
            remaining = setup.boxes - before
            rows = table[np.minimum(remaining, table.shape[0] - 1)]
            cell, x = np.nonzero(rows)
            cells = setup.rolls[key] = _Cells(m[cell], before[cell], remaining[cell], x, rows[cell, x], key)
        return cells

    def edges(self, m: np.ndarray, paid: int) -> list[Piece]:
        """Edges from each damage marked in ``m``, with ``paid`` (0 or 1) damage boosts; an
        AOE's blast on the other models of a unit after them (:mod:`.blast`)."""
        return blast(self.setup, self.info, self._edges(m, paid), missed=False)

    def _edges(self, m: np.ndarray, paid: int) -> list[Piece]:
        if m.size == 0:
            return []
        setup = self.setup
        cells = self._cells(m, paid)
        points = self.after.points - paid
        counts = dict(self.base, boost_damage=paid, spent=self.base["spent"] + paid)
        # the target's points left: the state's, less what the index says it spent (layers)
        tp = self.after.target_points
        left = tp - setup.layer(cells.src) if setup.layers > 1 else tp
        most = int(np.max(left)) if setup.layers > 1 else tp
        kind, policy = setup.power_kind, setup.field
        if most == 0 or policy == "never" or "G" in self.state.crippled:  # crippled G: no field
            return self._leaves(cells, 0, points, counts)
        if policy == "lethal":
            lethal = cells.x >= cells.remaining
            if kind == "focus":
                need = -(-(cells.x - cells.remaining + 1) // 5)
                spend = np.where(lethal & (need <= np.minimum(left, setup.field_limit)), need, 0)
            else:
                spend = (lethal & (left > 0)).astype(np.int64)
            out = []
            for k in np.unique(spend).tolist():
                out += self._leaves(cells.where(spend == k, ("lethal", tp, k)), k, points, counts)
            return out
        # best: per damage roll, the spending that minimises the value ahead. With layers, a
        # roll from where every point is spent has nothing to decide (and nothing to record):
        # the roll as it is
        out = []
        if setup.layers > 1:
            none = left == 0
            if none.any():
                out = self._leaves(cells.where(none, ("none", tp)), 0, points, counts)
                some = ~none
                cells, left = cells.where(some, ("some", tp)), left[some]
                if cells.x.size == 0:
                    return out
        top = min(most, setup.field_limit, -(-int(cells.x.max()) // 5)) if kind == "focus" else min(most, 1)
        # spending nothing is offered on every roll, k points where they can take damage off
        tags = [np.arange(cells.x.size)]
        for k in range(1, top + 1):
            useful = (cells.x > 5 * (k - 1)) if kind == "focus" else (cells.x > 0)
            useful &= left >= k
            tags.append(np.flatnonzero(useful))
        options = self._spending(cells, tags, tp, points, counts)
        # decided in the state after the hit (the attacker's points after its boosts) and
        # whether the target was down before it (Tough, quicksand)
        return out + choose(options, lambda pc: pc.tag, cells.x.size, self.dec, self.dec.target, what="field",
                            context=(self.after._replace(points=points), self.state.down),
                            groups=(cells.src, cells.x))

    def _spending(self, cells: _Cells, tags: list, tp: int, points: int, counts: dict) -> list[list[Piece]]:
        """The leaves of each amount ``k`` the power field may spend, on the rolls ``tags[k]``
        of ``cells`` (tagged with them). On a track without crippling, every amount's rolls
        end to end, marked and saved at once, then cut into one list per amount."""
        setup = self.setup
        if setup.card is not None or setup.track_cripple is not None:
            return [self._leaves(cells.where(t, ("best", tp, k)), k, points, counts, tag=t)
                    for k, t in enumerate(tags)]
        key = (cells.key, ("best", tp, len(tags)), self.tough, self.heals) if cells.key is not None else None
        split = setup.rolls.get(key) if key is not None else None
        if split is None:
            at = np.concatenate(tags)
            ends = np.cumsum([t.size for t in tags])
            spent = np.repeat(np.arange(len(tags)), [t.size for t in tags])
            rows = _Cells(cells.src[at], cells.m[at], cells.remaining[at], cells.x[at], cells.p[at])
            # each leaf tagged with its rows (in order): where each amount's rows end cuts it
            leaves = self._track_leaves(rows, spent, self._marked(rows, spent), self.after, np.arange(at.size))
            split = [[] for _ in tags]
            for state, src, dst, p, marks, kept, extra in leaves:
                cut = [0, *np.searchsorted(kept, ends).tolist()]
                tag = at[kept]
                for k, (lo, hi) in enumerate(zip(cut, cut[1:])):
                    if hi > lo:
                        split[k].append((state, src[lo:hi], dst[lo:hi], p[lo:hi], marks[lo:hi], tag[lo:hi], extra))
            if key is not None:
                setup.rolls[key] = split
        return [self._pieces(leaves, k, self._after(k, points), counts) if leaves else []
                for k, leaves in enumerate(split)]

    def _after(self, k: int, points: int) -> State:
        """The state after the hit on a track, ``k`` points spent (layers: the points spent are
        in the index, which starts a layer on per point spent on this roll; the state keeps
        the starting points)."""
        if self.setup.layers > 1:
            return self.after._replace(points=points)
        return self.after._replace(target_points=self.after.target_points - k, points=points)

    def _leaves(self, cells: _Cells, k: int, points: int, counts: dict, tag=None) -> list[Piece]:
        """The target spends ``k``; mark the damage, then Tough or Rapid Healing."""
        if cells.x.size == 0:
            return []
        setup = self.setup
        if setup.card is not None:
            after = self.after._replace(target_points=self.after.target_points - k, points=points)
            return self._card_leaves(cells, self._marked(cells, k), after, dict(counts, target_spent=k), tag)
        after = self._after(k, points)
        # the arrays depend on the cells, what is spent and how the roll heals or saves, not
        # on the state: built once an evaluation where the state after is all they need
        key = (cells.key, k, self.tough, self.heals) if cells.key is not None and setup.track_cripple is None else None
        leaves = setup.rolls.get(key) if key is not None else None
        if leaves is None:
            leaves = self._track_leaves(cells, k, self._marked(cells, k), after, tag)
            if key is not None:
                setup.rolls[key] = leaves
        return self._pieces(leaves, k, after, counts)

    def _pieces(self, leaves: list[tuple], k: int, after: State, counts: dict) -> list[Piece]:
        """The pieces of :meth:`_track_leaves`' leaves, ``k`` points spent, ``after`` the state
        after the hit: each leaf's state made (a kill: where it leaves the sequence)."""
        setup = self.setup
        counts = dict(counts, target_spent=k)
        out = []
        base = slot_counts(counts)
        for state, src, dst, p, marks, tags, extra in leaves:
            if state is _GONE:  # destroyed: the kill, or the unit's (or the next target's) next model
                gone = setup.rolls.get((_GONE, after))
                if gone is None:
                    gone = setup.rolls[(_GONE, after)] = setup.killed(after)
                state = gone[0]
                if gone[1]:  # the next model has boxes marked already (else dst, 0, stands)
                    dst = np.full(src.size, gone[1])
            elif state is _AFTER:
                state = after
            elif state is _DOWN:
                state = after._replace(down=True)
            out.append(Piece(state, src, dst, p, slot_counts(extra, base) if extra else base, marks, tags))
        if self.quick:
            out = quicksand(setup, self.info, out, self.dec)
        return out

    def _marked(self, cells: _Cells, k) -> np.ndarray:
        """Boxes each damage roll of ``cells`` marks, ``k`` points of the power field spent
        (one amount, or one per roll)."""
        if self.setup.power_kind == "focus":  # each point 5 damage off
            taken = np.maximum(0, cells.x - 5 * k)
        else:  # fury prevents the whole roll
            taken = np.where(k == 0, cells.x, 0)
        return np.minimum(taken, cells.remaining)

    def _track_leaves(self, cells: _Cells, k, marked: np.ndarray, after: State, tag) -> list[tuple]:
        """The pieces of :meth:`_leaves` on a track, ``k`` points spent (one amount, or one per
        roll), ``(state, src, dst, p, marked, tag, counted)``: the state :data:`_AFTER`
        (standing), :data:`_DOWN` (saved by Tough, knocked down) or :data:`_GONE` (destroyed:
        its ``dst`` 0, or where that leaves the sequence marks), or, on a relaxed grid, the
        state itself (crippling splits them)."""
        setup = self.setup
        begin = cells.src - cells.m + k * setup.boxes if setup.layers > 1 else 0
        end = cells.m + marked
        disabled = end >= setup.boxes
        out = []

        def add(state, keep, dst, p, **extra):  # dst None: 0 (destroyed)
            if not keep.any():
                return
            src = cells.src[keep]
            out.append((state, src, np.zeros_like(src) if dst is None else dst[keep], p[keep], marked[keep],
                        None if tag is None else tag[keep], extra))

        standing = ~disabled
        heals = [(self.heals, 1.0)]
        if self.heals and setup.rapid_d3:  # Rapid Healing d3: 1, 2 or 3
            heals = [(h, 1 / 3) for h in (1, 2, 3)]
        for heal, share in heals:
            healed = end
            if heal:
                # a damaging hit: boxes marked, or (setting rapid_healing_when_hit) damage rolled
                damaged = (cells.x > 0) if setup.heal_when_hit else (marked > 0)
                healed = np.where(damaged, np.maximum(0, end - heal), end)
            if setup.layers > 1:
                healed = healed + begin
            # every track but a relaxed grid's (the split's cost was 3 % of an exact run)
            if setup.track_cripple is None:
                add(_AFTER, standing, healed, cells.p if share == 1.0 else cells.p * share)
            else:  # the relaxation of a grid: systems crippled at random as the boxes fill
                for st, q in setup.track_split(after, cells.src, end):
                    add(st, standing, healed, cells.p * q * share)
        if self.tough:
            # saved with one box left; with the setting rapid_healing_when_hit, healed then too
            for heal, share in heals if setup.heal_when_hit else [(0, 1.0)]:
                left = max(0, setup.boxes - 1 - heal)
                for st, q in setup.track_split(after._replace(down=True), cells.src, left):
                    st = _DOWN if setup.track_cripple is None else st
                    add(st, disabled, np.full(cells.src.size, left) + begin, setup.saved(cells.p * q * share),
                        tough=1)
            add(_GONE, disabled, None, setup.failed(cells.p), destroyed=1)
        else:
            add(_GONE, disabled, None, cells.p, destroyed=1)
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
            out.append(Piece(after, src, src, cells.p[zero], slot_counts(counts), marked[zero],
                             None if tag is None else tag[zero]))
        pos = np.flatnonzero(~zero)
        if pos.size == 0:
            return out
        src, rem, mk, p = cells.src[pos], cells.remaining[pos], marked[pos], cells.p[pos]
        tg = None if tag is None else tag[pos]
        disabled = mk >= rem
        # Killed: the column does not matter.
        kill_p = self.setup.failed(p) if self.tough else p
        if disabled.any():
            out.append(Piece(None, src[disabled], src[disabled], kill_p[disabled],
                             slot_counts(dict(counts, destroyed=1)), mk[disabled],
                             None if tg is None else tg[disabled]))
        go = ~disabled | self.tough  # standing, or saved by Tough: where the boxes went matters
        if not go.any():
            return out
        at = np.flatnonzero(go)
        g_src, g_mk, g_dis = src[at], mk[at], disabled[at]
        g_p = np.where(g_dis, self.setup.saved(p[at]), p[at]) if self.tough else p[at]
        # Healing, last marked first: a Tough save removes 1 (the disabling attack marked at
        # least one), Rapid Healing up to its points (never below none marked).
        if self.heals:
            heal = np.where(g_dis, 1, np.minimum(self.heals, setup.count(g_src) + g_mk))
        else:
            heal = g_dis.astype(np.int64)
        direct, rolled, dst = card.land(g_src, g_mk, heal, self.info.weapon.damage_to,
                                        setup.windows[self.info.index + 1])

        def spread(a):  # per damage roll -> per edge
            return card.spread(a, direct, rolled)

        s_src, s_mk = spread(g_src), spread(g_mk)
        s_p = spread(g_p * (1.0 / N_COLUMNS))  # a column rolled: 1/6 each
        if direct.size:  # an X box: no roll
            s_p[: direct.size] = g_p[direct]
        s_tag = None if tg is None else spread(tg[at])
        # the state after: the feedback systems and the Cortex crippled, the Tough save
        bits = card.crip[dst] if setup.feedback_mask or setup.cortex_bit else None
        key = np.zeros(dst.size, dtype=np.int64) if bits is None else (bits & setup.feedback_mask) << 2
        if setup.cortex_bit:
            key |= ((bits & setup.cortex_bit) > 0) << 1
        if self.tough:
            key |= spread(g_dis)
        for k, keep in groups_by(key):
            b0 = 0 if bits is None else int(bits[keep][0])
            state = after._replace(crippled=setup.crippled_set(b0))
            if k & 2:
                state = cortex_lost(setup, state)  # crippled Cortex: its points, for good
            extra = {}
            if k & 1:
                state = state._replace(down=True)
                extra = {"tough": 1}
            out.append(Piece(state, s_src[keep], dst[keep], s_p[keep], slot_counts(dict(counts, **extra)),
                             s_mk[keep], None if s_tag is None else s_tag[keep]))
        return out


@dataclass
class _Cells:
    """Damage rolls of many indices at once: the index, boxes marked before, boxes left,
    points, probability; ``key``: what they are made from (None: not told), for the arrays
    built from them to be kept (:attr:`Setup.rolls <mathhammer.exact.setup.Setup.rolls>`)."""

    src: np.ndarray
    m: np.ndarray
    remaining: np.ndarray
    x: np.ndarray
    p: np.ndarray
    key: tuple | None = None

    def where(self, keep: np.ndarray, how: tuple | None = None) -> _Cells:
        """The cells of ``keep``; ``how``: how ``keep`` is made from these cells (keyed then)."""
        key = None if self.key is None or how is None else (self.key, how)
        return _Cells(self.src[keep], self.m[keep], self.remaining[keep], self.x[keep], self.p[keep], key)


#: The state of a piece of :meth:`DamageRoll._track_leaves` (before the state is known):
#: standing after the hit, saved by Tough (knocked down), destroyed.
_AFTER, _DOWN, _GONE = "after", "down", "gone"

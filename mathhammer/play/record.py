"""Best play's decisions as the exact engine's backward induction meets them: the state key of
a table (:func:`keyspace`) and the records of every decision (:class:`Recorder`), which
:mod:`.solve` lays into the dense tables of :mod:`.codes`."""

from __future__ import annotations

import numpy as np

from ..exact.bounds import situations_varying
from . import codes as K
from .codes import KeySpace
from .relax import Averaged

__all__ = ["keyspace", "Recorder"]


def keyspace(setup) -> KeySpace:
    """The digits of the state key; several targets (attacks down the list): what any of them
    can vary, and the models destroyed so far over all of them."""
    parts = getattr(setup, "parts", (setup,))
    slots = setup.slots
    varying = [False] * 7
    for part in parts:
        down, still, dispelled, grievous, paralyzed = situations_varying(part)
        sustained = any(info.weapon.has_rule("sustained_attack") for info in part.all_infos)
        for j, v in enumerate((down, still, dispelled, grievous,
                               down and (part.tough or part.quicksand), paralyzed, sustained)):
            varying[j] |= bool(v)
    # the effects in order of first appearance, as the encoder gives them their bits
    idents = tuple(parts[0].minus)
    points = max((info.attacker.points for info in slots), default=0) + 1
    stride = max(p.target.power_points for p in parts) + 1  # the target's points, then its blocks
    return KeySpace(points=points, target_points=stride * (setup.blocks + 1),
                    target_stride=stride if setup.blocks else 0,
                    varying=tuple(varying), effects=idents,
                    cont=4 if any(p.possible for p in parts) else 1,
                    earth=2 if any(p.earth_possible for p in parts) else 1,
                    lost=2 if any(p.track_lost for p in parts) else 1, destroyed=setup.models,
                    ice=max(p.ice_stacks for p in parts) + 1, shots=max(p.most_shots for p in parts) + 1,
                    arm_extra=max(p.most_arm_extra for p in parts) + 1, shred=max(p.most_shred for p in parts) + 1)


class Recorder:
    """Collects :class:`~mathhammer.exact.choices.Decisions` records (``record`` callback)."""

    def __init__(self, setup, keys: KeySpace):
        self.setup, self.keys = setup, keys
        # the relaxation's crippling (one target's damage track standing for its grid)
        parts = getattr(setup, "parts", (setup,))
        self.mixed = Averaged(setup) if any(part.track_cripple is not None for part in parts) else None
        self.bit = {ident: 1 << k for k, ident in enumerate(keys.effects)}
        self.plain: list = []   # (row, key, bit, known, m, best)
        self.damage: list = []  # (row, key, paid, critical, m, best)
        self.field: list = []   # (frow, key, m, x, best)
        self.block: list = []   # (row, key, paid, critical, m, best)
        self._keys: dict = {}

    def key(self, state, down_before: bool = False) -> int:
        out = self._keys.get((state, down_before))
        if out is None:
            ks = self.keys
            effects = sum(self.bit[e] for e in state.effects)
            # several targets: the models destroyed so far over every target (routes in
            # order: those before the one under attack are all destroyed), as the kernel keys them
            destroyed = self.setup.before(state)[1] + state.destroyed
            # the target's points and its Shield Guard blocks left share one digit
            target = state.target_points + ks.target_stride * state.blocks
            out = ks.key(state.points, target, state.down, state.still,
                         state.dispelled, state.grievous, effects, state.cont, state.earth, state.lost,
                         down_before, destroyed, state.paralyzed, state.ice, state.sustained, state.shots,
                         state.arm_extra, state.shred)
            self._keys[(state, down_before)] = out
        return out

    def __call__(self, what, event, row, context, groups, best, values, preference):
        ev = self.setup.events[event]
        state = context[0]
        if what == "buy":
            where, cells = ("buy", row, ev.slot, self.key(state)), (groups,)
        elif what == "boost_attack":
            where, cells = ("boost_attack", row, self.key(state)), (groups,)
        elif what == "boost_damage":
            _, _, paid, critical = context
            where, cells = ("boost_damage", row, self.key(state), paid, critical), (groups,)
        elif what == "block":
            _, _, paid, critical = context
            where, cells = ("block", row, self.key(state), paid, critical), (groups,)
        elif what in ("field", "suffer"):
            if ev.kind == "attack":
                kind = "attack" if what == "field" else "quicksand"
            else:
                kind, row = ev.kind, ev.round
            # knocked down before the damage: the attack's own (its state before), else now
            before = context[1] if what == "field" else state.down
            where, cells = ("field", kind, row, self.key(state, before)), groups
        else:
            raise ValueError(f"unknown decision {what!r}")
        if self.mixed is not None:
            self.mixed.add(where, state, cells, values, preference)
        else:
            self._put(where, cells, best)

    def _put(self, where: tuple, cells: tuple, best: np.ndarray) -> None:
        """One decision record into the lists the tables are laid from."""
        what = where[0]
        if what == "buy":
            # options: stop, buy with the slot's weapon, with each alternative (its own row's
            # BUY bit says best play buys with it)
            _, row, slot, key = where
            self.plain.append((row, key, K.BUY, K.KNOWN_BUY, cells[0], (best >= 1).astype(np.int64)))
            for k, alt in enumerate(self.setup.alternatives[slot]):
                self.plain.append((alt.row, key, K.BUY, 0, cells[0], (best == k + 2).astype(np.int64)))
        elif what == "boost_attack":
            _, row, key = where
            self.plain.append((row, key, K.BOOST_ATTACK, K.KNOWN_ATTACK, cells[0], best))
        elif what == "boost_damage":
            _, row, key, paid, critical = where
            self.damage.append((row, key, paid, critical, cells[0], best))
        elif what == "block":
            _, row, key, paid, critical = where
            self.block.append((row, key, paid, critical, cells[0], best))
        else:
            _, kind, row, key = where
            self.field.append((kind, row, key, cells[0], cells[1], best))

    def finish(self):
        """With the relaxation's crippling: the records of the best averaged decisions."""
        if self.mixed is None:
            return
        for where, (cols, best) in self.mixed.best().items():
            self._put(where, cols, best)

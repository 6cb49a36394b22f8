"""The relaxation of best play on a grid, as a damage track: systems crippled at random.

Best play on a grid too large to solve exactly is solved on a damage track standing for it
(:mod:`mathhammer.play.relax`): :meth:`TrackRelaxation.cripple_from` gives the track each grid
system's chance of being crippled at each number of boxes marked, and the attack and its
suffered points split their edges by :meth:`TrackRelaxation.track_split`. A mixin of
:class:`~mathhammer.exact.setup.Setup`.
"""

from __future__ import annotations

import numpy as np

from .state import State

__all__ = ["TrackRelaxation"]


class TrackRelaxation:
    """Crippling at random on a damage track (every track but a relaxed grid's has none:
    ``track_cripple`` is None)."""

    def cripple_from(self, share: dict) -> None:
        """A damage track standing for a grid (the relaxation of best play,
        :mod:`mathhammer.play.relax`): ``share[X][m]`` is the chance that grid system ``X``
        is crippled when ``m`` boxes are marked (nondecreasing); marking ``m`` to ``m'``
        cripples a system not yet crippled with chance ``(share[m'] - share[m]) / (1 -
        share[m])``, and a crippled system feeds back as on the grid (DEF, ARM, power field;
        the Cortex ``"C"`` takes the target's points) and stays crippled."""
        if self.card is not None:
            raise ValueError("cripple_from is for a damage track")
        share = {x: np.asarray(v, dtype=np.float64) for x, v in share.items()}
        self.feedback = frozenset(x for x in share if x != "C")
        self.cortex = "C" in share and self.target.power_points > 0
        self.track_lost = self.cortex and self.turns > 1
        self.track_cripple = {x: v for x, v in share.items() if x != "C" or self.cortex} or None

    def track_split(self, state: State, src: np.ndarray, dst: np.ndarray):
        """The relaxation's crippling when ``src`` boxes marked become ``dst``:
        ``[(state after, probability per entry)]`` (the probability 1.0 without crippling:
        every track but a relaxed grid's)."""
        out = [(state, 1.0)]
        if self.track_cripple is None:
            return out
        for x, share in self.track_cripple.items():
            if x == "C":
                if state.target_points == 0 and not (self.track_lost and not state.lost):
                    continue
            elif x in state.crippled:
                continue
            top = share.size - 1
            lo, hi = share[np.minimum(src, top)], share[np.minimum(dst, top)]
            q = np.where(lo < 1, np.clip((hi - lo) / np.maximum(1 - lo, 1e-12), 0, 1), 0.0)
            if not q.any():
                continue
            nxt = []
            for st, p in out:
                if x == "C":
                    hit = st._replace(target_points=0, lost=st.lost or self.track_lost)
                else:
                    hit = st._replace(crippled=st.crippled | {x})
                nxt += [(st, p * (1 - q)), (hit, p * q)]
            out = nxt
        return out

    def track_weight(self, crippled: frozenset, m: np.ndarray) -> np.ndarray:
        """Chance of the feedback systems ``crippled`` (and no other) at ``m`` boxes marked on
        the relaxation's track."""
        w = np.ones(np.shape(m))
        for x, share in (self.track_cripple or {}).items():
            if x == "C":
                continue
            p = share[np.minimum(m, share.size - 1)]
            w = w * (p if x in crippled else 1 - p)
        return w

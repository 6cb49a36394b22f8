"""Figures of a damage grid or life spiral: crippled systems and aspects, marked boxes.

A mixin of :class:`~mathhammer.result.Result`, reading its ``letters``, ``cripple_weights``,
``cripple_end_weights`` and ``box_weights`` (empty or None for a damage track).
"""

from __future__ import annotations

import numpy as np

from .._core.intervals import wilson_interval

__all__ = ["CardFigures"]


class CardFigures:
    """Cripple and box figures of a :class:`~mathhammer.result.Result`."""

    @property
    def cripple_after(self) -> np.ndarray:
        """``p[i, j]``: probability ``letters[j]`` is crippled once attack slot i is resolved."""
        if self.cripple_weights is None:
            return np.zeros((self.n_attacks, 0))
        return self.cripple_weights / self.total

    @property
    def cripple(self) -> dict[str, float]:
        """Probability each system or aspect on the card is crippled at the end (a unit of
        models with a card, ``card_models`` > 1: the share of its models, a destroyed one
        counting as crippled; its interval, Wilson's on the trials, is then conservative: a
        share in [0, 1] varies at most as a proportion)."""
        if not self.letters:
            return {}
        last = self._cripple_end() / self.total
        return {x: float(last[j]) for j, x in enumerate(self.letters)}

    def _cripple_end(self) -> np.ndarray:
        if self.cripple_end_weights is not None:
            return self.cripple_end_weights
        return self.cripple_weights[-1]

    @property
    def cripple_ci95(self) -> dict[str, tuple[float, float]]:
        """95% Wilson interval of each :attr:`cripple` figure (points for exact results)."""
        if self.exact:
            return {x: (p, p) for x, p in self.cripple.items()}
        last = self._cripple_end() if self.letters else []
        return {x: wilson_interval(float(last[j]), int(self.trials))
                for j, x in enumerate(self.letters)}

    @property
    def box_marked(self) -> list[np.ndarray]:
        """Per column (branch), the probability each box is marked at the end."""
        return [w / self.total for w in self.box_weights]

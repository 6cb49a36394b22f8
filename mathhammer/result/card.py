"""A damage grid or life spiral in a result: :class:`CardPart`, ``Result.card``.

The view holds the card (its six columns of boxes, grid or spiral) and what the run found on
it, as weights on the scale of the result's ``total`` (counts of trials, or probabilities):
per attack, each system or aspect crippled; at the end, each box marked. Its figures divide
those weights by the total they are given, so the view stands alone; a result with a damage
track has no card view (``Result.card`` is None) and reads as having no letters.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._core.intervals import wilson_interval

__all__ = ["CardPart"]


@dataclass(frozen=True, eq=False)
class CardPart:
    """The target's grid or spiral and the weights of its crippled letters and marked boxes.

    With several targets, the card is that of the one target with a grid or spiral.

    Parameters
    ----------
    columns : tuple of str
        The grid or spiral as six strings (a letter per box, ``.`` for hull), as in the
        scenario: ``box_weights[c][r]`` is the weight of ``columns[c][r]`` being marked.
    kind : {"grid", "spiral"}
        What ``columns`` are.
    letters : tuple of str
        Systems (grid) or aspects (spiral) on the card; empty for a card of hull boxes only.
    cripple_weights : ndarray, shape (n_attacks, len(letters))
        Weight of each letter being crippled once each attack slot is resolved (a slot not
        made leaves the state as it was; after a kill, the final state).
    box_weights : tuple of six ndarrays
        Per column (branch), the weight of each box being marked at the end.
    cripple_end_weights : ndarray, shape (len(letters),), or None
        Weight of each letter being crippled at the end (after the last round's maintenance
        phase); None: the last slot row's.
    models : int
        Models with the card (1; a unit of models with a grid or spiral: its models). For a
        unit the weights are the share of its models with the letter crippled or the box
        marked, a destroyed model counting as all marked (Monte Carlo only).
    """

    columns: tuple[str, ...]
    kind: str
    letters: tuple[str, ...]
    cripple_weights: np.ndarray
    box_weights: tuple[np.ndarray, ...]
    cripple_end_weights: np.ndarray | None = None
    models: int = 1

    def cripple_end(self) -> np.ndarray:
        """Weight of each letter being crippled at the end (:attr:`cripple_end_weights`, else
        the last slot row's)."""
        if self.cripple_end_weights is not None:
            return self.cripple_end_weights
        return self.cripple_weights[-1]

    def cripple_after(self, total: float) -> np.ndarray:
        """``p[i, j]``: probability ``letters[j]`` is crippled once attack slot i is resolved."""
        return self.cripple_weights / total

    def cripple(self, total: float) -> dict[str, float]:
        """Probability each letter is crippled at the end (a unit of models with the card:
        the share of its models, a destroyed one counting as crippled)."""
        if not self.letters:
            return {}
        last = self.cripple_end() / total
        return {x: float(last[j]) for j, x in enumerate(self.letters)}

    def cripple_ci95(self, total: float, trials: int | None) -> dict[str, tuple[float, float]]:
        """95% Wilson interval of each :meth:`cripple` figure over ``trials`` (None: an exact
        result, whose intervals are points). For a unit's share, Wilson's interval on the
        trials is conservative: a share in [0, 1] varies at most as a proportion."""
        if trials is None:
            return {x: (p, p) for x, p in self.cripple(total).items()}
        last = self.cripple_end() if self.letters else []
        return {x: wilson_interval(float(last[j]), int(trials)) for j, x in enumerate(self.letters)}

    def box_marked(self, total: float) -> list[np.ndarray]:
        """Per column (branch), the probability each box is marked at the end."""
        return [w / total for w in self.box_weights]

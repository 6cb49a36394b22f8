"""The points of a balance matrix: each pair's scenario and grid of parameters, each point's
seed, and the rows a computed point gives.

A point is a pair (attacker card, target card) at one combination of the varied parameters.
Its seed is a hash of the run's seed and the point's key, so a point draws the same dice
whichever backend, worker or order computes it, and whichever other points are in the
matrix.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping

from .._core.limits import MAX_POINTS, MAX_SEED
from ..errors import InputError
from ..io.scenario_files import scenario_from_cards
from .decks import DeckEntry
from .execution import Point, PointDone
from .grids import grid

__all__ = ["pair_scenario", "parameters", "point_rows", "point_seed", "points_to_compute"]


def point_seed(seed: int, key: Iterable[str]) -> int:
    """The seed of one point: a hash of the run's seed and the point's key.

    The key is the point's labels (attacker, target, parameter values as text), so a point
    draws the same dice whichever backend, worker or order computes it.

    >>> point_seed(1, ("heavy_warjack", "solo")) == point_seed(1, ("heavy_warjack", "solo"))
    True
    >>> point_seed(1, ("heavy_warjack", "solo")) != point_seed(2, ("heavy_warjack", "solo"))
    True
    """
    text = json.dumps([int(seed), [str(k) for k in key]], separators=(",", ":"))
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") & MAX_SEED


def pair_scenario(a: DeckEntry, t: DeckEntry, simulation: Mapping):
    """The scenario of attacker card ``a`` against target card ``t``, with the matrix's
    ``simulation`` settings."""
    return scenario_from_cards([a.ref], t.ref, source=f"matrix {a.label} vs {t.label}",
                               **simulation)


def _grid(scenario, vary: Mapping, a: DeckEntry, t: DeckEntry):
    """:func:`~mathhammer.studies.grids.grid` of one pair; an error names the pair (key
    ``vary``)."""
    try:
        return grid(scenario, vary)
    except InputError as err:
        where = "" if err.key == "vary" else f"{err.key}: "
        raise InputError("vary", err.value, f"{where}{err.reason} (for {a.label} vs "
                         f"{t.label})") from None


def parameters(attack_deck, target_deck, first, vary, simulation) -> tuple[list, list]:
    """The varied parameters and their combinations (``[()]`` when nothing varies), checked
    on every attacker and every target before anything runs (``first`` is the first pair's
    scenario); at most :data:`~mathhammer._core.limits.MAX_POINTS` points in all. A setting
    of ``simulation`` (``turns`` ...) may not be varied too."""
    params, combos = [], [()]
    if vary:
        params, pts = _grid(first, vary, attack_deck[0], target_deck[0])
        for p in params:  # a setting given and varied: the varied values would replace it
            if p.keys[0] == "simulation" and p.keys[-1] in simulation:
                raise InputError(p.keys[-1], simulation[p.keys[-1]], f"is also varied ({p.path}): "
                                 "give it once, as a setting or as a varied parameter")
        combos = [values for values, _ in pts]
        for a in attack_deck[1:]:
            _grid(pair_scenario(a, target_deck[0], simulation), vary, a, target_deck[0])
        for t in target_deck[1:]:
            _grid(pair_scenario(attack_deck[0], t, simulation), vary, attack_deck[0], t)
    elif vary is not None and not isinstance(vary, Mapping):
        raise InputError("vary", vary, "must map parameter paths to their values")
    total = len(attack_deck) * len(target_deck) * len(combos)
    if total > MAX_POINTS:
        raise InputError("vary", f"{len(attack_deck)} attackers x {len(target_deck)} targets x "
                         f"{len(combos)} values", f"makes {total:,} points: at most {MAX_POINTS:,}")
    return params, combos


def points_to_compute(attack_deck, target_deck, labels, vary, simulation, todo, trials, seed,
                      method, *, varied: bool) -> Iterator[Point]:
    """The points of ``todo`` (their keys) to compute, in the matrix's order; a pair's
    scenarios are built only when one of its points is wanted (a resumed run builds none of
    the pairs it finished). ``labels``: each combination of the varied parameters as text;
    ``varied``: whether any parameter varies."""
    wanted = set(todo)
    for a in attack_deck:
        for t in target_deck:
            pair = [(a.label, t.label) + lab for lab in labels]
            if not any(k in wanted for k in pair):
                continue
            scen = pair_scenario(a, t, simulation)
            built = _grid(scen, vary, a, t)[1] if varied else [((), scen)]
            for key, (_, s) in zip(pair, built):
                if key in wanted:
                    yield Point(key, s, trials,
                                None if method == "exact" else point_seed(seed, key), method)


def point_rows(outcome: PointDone) -> list[list]:
    """The matrix rows of a computed point: its key, then each figure's ``metric``, value and
    interval (``spent:<attacker name>`` is ``spent``: a point has one attacker)."""
    return [list(outcome.key) + ["spent" if m.startswith("spent:") else m, v, lo, hi]
            for m, v, lo, hi in outcome.rows]

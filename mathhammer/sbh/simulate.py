"""Monte Carlo of a whole SBH turn, through the Numba kernel of :mod:`mathhammer.sbh._kernels`.

The same questions as :func:`.exact.turn_odds` (which is exact and fast: use it to check),
answered by sampling: it is the reference implementation of the turn's rules in kernel form,
and the base for questions the Markov chain would not answer.
"""

from __future__ import annotations

import numpy as np

from .._core.limits import DEFAULT_TRIALS, MAX_SEED, MAX_TRIALS, fresh_seed
from .._core.numba_env import check_environment
from .._core.validate import check_choice, check_int
from ..errors import InputError
from .results import TurnResult
from . import layout as k
from .plans import Group, Solo, Turn
from .rules import threshold

__all__ = ["encode_turn", "simulate_turn"]


def encode_turn(turn: Turn) -> np.ndarray:
    """The plan as the kernel's int64 step table (fields ``S_*`` of :mod:`.layout`)."""
    settings = turn.settings
    rows = np.zeros((len(turn.steps), k.S_NFIELDS), dtype=np.int64)
    model = 0
    for i, step in enumerate(turn.steps):
        row = rows[i]
        if isinstance(step, Solo):
            row[k.S_KIND] = k.STEP_SOLO
            row[k.S_THR] = threshold(step.model.quality, step.bonus, settings)
            row[k.S_DICE] = step.dice
            row[k.S_FIRST] = model
            row[k.S_COUNT] = 1
            model += 1
        else:
            assert isinstance(step, Group)
            row[k.S_KIND] = k.STEP_GROUP
            row[k.S_LEADER_THR] = threshold(step.leader.quality, 0, settings)
            row[k.S_LEADER_DICE] = step.leader_dice
            row[k.S_LEADER_MODEL] = model
            row[k.S_THR] = threshold(step.quality, settings.leader_bonus, settings)
            row[k.S_DICE] = step.dice
            row[k.S_FIRST] = model + 1
            row[k.S_COUNT] = len(step.members)
            model += 1 + len(step.members)
    return rows


def simulate_turn(turn: Turn, trials: int | None = None, seed: int | None = None,
                  method: str = "monte_carlo") -> TurnResult:
    """Distribution of a turn by Monte Carlo (or exactly, ``method="exact"``).

    Parameters
    ----------
    turn : Turn
    trials : int, optional
        Sample size (default 1,000,000).
    seed : int, optional
        Seed of the random streams; a fresh one is drawn (and reported in
        ``TurnResult.seed``) when omitted. The same seed gives the same counts on any number
        of threads.
    method : {"monte_carlo", "mc", "exact"}

    Returns
    -------
    TurnResult

    Examples
    --------
    >>> from mathhammer.sbh import Model, Warband
    >>> plan = Warband([Model(3), Model(4)]).one_at_a_time(3)
    >>> mc = simulate_turn(plan, trials=20_000, seed=1)
    >>> ex = simulate_turn(plan, method="exact")
    >>> abs(mc.expected_actions - ex.expected_actions) < 0.05
    True
    """
    if not isinstance(turn, Turn):
        raise InputError("turn", turn, "must be a Turn")
    method = check_choice("method", method, ("monte_carlo", "mc", "exact"))
    if method == "exact":
        from .exact import turn_odds

        return turn_odds(turn)
    trials = DEFAULT_TRIALS if trials is None else check_int("trials", trials, 1, MAX_TRIALS)
    seed = fresh_seed() if seed is None else check_int("seed", seed, 0, MAX_SEED)

    check_environment()  # NUMBA_* values Numba would fail on, as one line
    from ._kernels import run_turns  # Numba is imported by the first Monte Carlo run only

    steps = encode_turn(turn)
    n_models = len(turn.models)
    n_steps = len(turn.steps)
    counts = run_turns(steps, n_models, turn.max_actions, trials, seed)
    offs = k.counter_offsets(n_steps, n_models, turn.max_actions)

    def section(o: int) -> np.ndarray:
        return counts[offs[o]:offs[o + 1]] / trials

    order = section(k.O_ORDER)
    order[steps[:, k.S_KIND] == k.STEP_SOLO] = np.nan
    return TurnResult(
        method="monte_carlo",
        trials=trials,
        seed=seed,
        model_labels=tuple(m.label for m in turn.models),
        step_labels=tuple(s.label for s in turn.steps),
        actions_pmf=section(k.O_ACTIONS),
        acted_pmf=section(k.O_ACTED),
        end_pmf=section(k.O_END),
        order=order,
        model_acted=section(k.O_MODEL_ACTED),
        model_actions=section(k.O_MODEL_ACTIONS),
    )

"""Public entry point: validate -> encode -> kernel -> Result (or the exact engine)."""

from __future__ import annotations

import dataclasses
import secrets

from .errors import InputError
from .result import Result
from .rules import Scenario
from .rules._validate import check_int
from .rules.scenario import MAX_SEED, MAX_TRIALS

__all__ = ["simulate", "common_stride", "METHODS"]

METHODS = ("monte_carlo", "exact")
_ALIASES = {"mc": "monte_carlo", "monte_carlo": "monte_carlo", "exact": "exact"}


def simulate(
    scenario: Scenario,
    trials: int | None = None,
    seed: int | None = None,
    method: str = "monte_carlo",
    *,
    stride: int | None = None,
    progress: bool = False,
) -> Result:
    """Simulate a scenario and return its :class:`~mathhammer.result.Result`.

    Parameters
    ----------
    scenario : Scenario
    trials : int, optional
        Monte Carlo sample size; defaults to ``scenario.trials``.
    seed : int, optional
        Seed of the random streams; defaults to ``scenario.seed``, and when that is ``None``
        too a fresh seed is drawn and reported in ``Result.seed``. The same seed gives the
        same result whatever the number of threads.
    method : {"monte_carlo", "mc", "exact"}
        ``"exact"`` computes the distributions by enumeration and dynamic programming
        (:mod:`mathhammer.exact`) and raises :class:`~mathhammer.errors.ExactNotApplicable`
        where that engine cannot.
    stride : int, optional
        Common random numbers: every trial starts its dice ``stride`` pairs after the last
        one started, whatever it read, so scenarios simulated with the same seed and stride
        see the same dice in the same trial (trial j of one loadout meets the dice of trial
        j of another; neighbouring sweep points differ smoothly). Use
        :func:`common_stride` of the scenarios compared. ``None`` (the default) reads the
        dice packed, the fastest; the two give different draws of the same distribution.
    progress : bool
        Show a tqdm progress bar on stderr for a Monte Carlo run that lasts over a second
        (the command line turns it on when stderr is a terminal).

    When an attacker has ``policy = "optimize"``, its spending policy is chosen first by
    :func:`mathhammer.optimize.optimize` (same method, trials and seed) and the result of the
    best policy is returned (run again with ``stride`` when one is given), with the
    optimizer's report in ``Result.extra["optimizer"]``.
    """
    if not isinstance(scenario, Scenario):
        raise InputError("scenario", type(scenario).__name__, "must be a mathhammer.Scenario")
    if not isinstance(method, str) or method not in _ALIASES:
        raise InputError("method", method, "must be one of monte_carlo, mc, exact")
    method = _ALIASES[method]
    if any(a.policy == "optimize" for a in scenario.attackers):
        from .optimize import optimize

        found = optimize(scenario, method=method, trials=trials, seed=seed)
        best = found.best.result
        if stride is not None and method == "monte_carlo":
            # the chosen policy again, on the common random numbers of the stride
            best = simulate(found.scenario, trials=best.trials, seed=best.seed, stride=stride)
        return dataclasses.replace(best, extra={**best.extra, "optimizer": found.to_dict()})
    if method == "exact":
        from .exact import exact_result

        return _name_slots(exact_result(scenario), scenario)

    trials = scenario.trials if trials is None else check_int("trials", trials, 1, MAX_TRIALS)
    if seed is None:
        seed = scenario.seed if scenario.seed is not None else secrets.randbits(62)
    else:
        check_int("seed", seed, 0, MAX_SEED)

    from ._kernels.driver import run_sequences
    from .encode import encode

    enc = encode(scenario)
    if stride is not None:
        check_int("stride", stride, enc.max_draws, 1 << 20)
    if progress:
        from tqdm import tqdm

        with tqdm(total=trials, unit="trial", unit_scale=True, delay=1.0, leave=False,
                  desc="simulate") as bar:
            counts = run_sequences(enc, trials, seed, stride=stride or 0, on_batch=bar.update)
    else:
        counts = run_sequences(enc, trials, seed, stride=stride or 0)
    result = Result(
        method="monte_carlo",
        trials=trials,
        seed=seed,
        slot_labels=enc.slot_labels,
        total=float(trials),
        damage_weights=counts.damage_hist.astype(float),
        slot_weights=counts.attack_counts.astype(float),
        kill_weights=counts.kill_at.astype(float),
        boxes=scenario.target.boxes,
        chunk_damage_weights=counts.chunk_damage.astype(float),
        stride=stride or 0,
        **_card_figures(scenario, enc, counts),
        **_round_figures(scenario, counts),
    )
    return _name_slots(result, scenario)


def common_stride(scenarios) -> int:
    """The ``stride`` that lets every scenario of ``scenarios`` share common random numbers:
    the most dice-buffer entries any of their trials may read.

    >>> from mathhammer import Attacker, Scenario, Target, Weapon
    >>> jack = Attacker("Jack", [Weapon("Fist", "melee", skill=7, pow=16, attacks=2)])
    >>> points = [Scenario(Target(defense=12, arm=a, boxes=30), [jack]) for a in (16, 20)]
    >>> common_stride(points) == max(common_stride([p]) for p in points)
    True
    """
    from .encode import encode

    return max(int(encode(s).max_draws) for s in scenarios)


def _round_figures(scenario: Scenario, counts) -> dict:
    """``turns``, ``slot_round``, ``maintenance_kill_weights`` and ``effect_weights``."""
    from ._kernels.layout import CE_CORROSION, CE_FIRE, E_KILL

    n_slots = len(scenario.attack_sequence())
    effects = counts.effect_counts.astype(float)
    return {
        "turns": scenario.turns,
        "slot_round": tuple(t for t in range(scenario.attack_rounds) for _ in range(n_slots)),
        "maintenance_kill_weights": effects[:, CE_FIRE, E_KILL] + effects[:, CE_CORROSION, E_KILL],
        "effect_weights": effects if scenario.continuous else None,
    }


def _card_figures(scenario: Scenario, enc, counts) -> dict:
    """``letters``, ``cripple_weights`` and ``box_weights`` of a grid or spiral from the
    kernel's histograms of crippled sets (per slot) and of marked rows (per column)."""
    import numpy as np

    target = scenario.target
    if target.card is None:
        return {}
    sets = np.arange(counts.cripple_hist.shape[1])
    cripple = np.stack(
        [counts.cripple_hist[:, (sets >> enc.letters.index(x)) & 1 == 1].sum(axis=1)
         for x in target.letters], axis=1).astype(float)
    cripple, end = cripple[:-1], cripple[-1]  # the last row: after the last round
    masks = np.arange(counts.mask_hist.shape[1])
    boxes = tuple(
        np.array([counts.mask_hist[c, (masks >> r) & 1 == 1].sum() for r in range(len(col))],
                 dtype=float)
        for c, col in enumerate(target.card))
    return {"letters": target.letters, "cripple_weights": cripple, "box_weights": boxes,
            "cripple_end_weights": end}


def _name_slots(result: Result, scenario: Scenario) -> Result:
    """Fill in who makes each attack slot (for per-attacker figures) and the target's card."""
    target = scenario.target
    return dataclasses.replace(
        result,
        card=tuple(target.card) if target.card is not None else (),
        card_kind="" if target.card is None else ("grid" if target.grid is not None else "spiral"),
        target_name=target.name,
        effect_names=scenario.possible_effects,
        attacker_names=tuple(a.name for a in scenario.attackers),
        slot_attacker=tuple(s.attacker_index for s in scenario.attack_sequence())
        * scenario.attack_rounds,
    )

"""Compile the Monte Carlo kernels into Numba's on-disk cache, two processes at once.

``make test`` runs this before the suite: the general kernel compiles apart for one target
(its variants, :mod:`mathhammer.montecarlo._kernels.variant`: basic, lean, units, lasting
and full) and for several targets (full), one compiled function each that runs one
chunk or, on threads, many (from about 5 s for the basic one to about 25-30 s for the full
one with several targets on one core, measured by benchmarks/bench_cold.py), so compiling
them two processes at once saves that much of a cold suite on two cores (about 50 s in all).
Each job runs a small scenario through :func:`mathhammer.simulate`, the same path as the
tests, so what it leaves in the cache is what they load; the basic job also compiles the
plain kernel, a last one the Song of Blades and Heroes kernels. Run again on a warm cache,
it takes seconds.

Usage: ``python scripts/warm_kernels.py``
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor

#: Trials of one chunk (the general kernel on the calling thread, the plain kernel's serial
#: driver) and of several (threads; the plain kernel's parallel driver).
SERIAL, PARALLEL = 1_000, 70_000


def _run(*scenarios) -> None:
    """Each scenario on one chunk and on several (the compiled code each loads)."""
    from mathhammer import simulate

    for scen in scenarios:
        for trials in (SERIAL, PARALLEL):
            simulate(scen, trials=trials, seed=1)


def _jack(weapon_rules=(), focus=1, **target):
    """A warjack's two fists (``weapon_rules`` on them) against one target (``target``: its
    fields over DEF 12, ARM 18, 20 boxes; a list of targets under ``targets``)."""
    from mathhammer import Attacker, Scenario, Target, Weapon

    fist = Weapon("Fist", "melee", 7, 16, attacks=2, rules=list(weapon_rules))
    targets = target.pop("targets", None) or Target(**{"defense": 12, "arm": 18, "boxes": 20,
                                                        **target})
    return Scenario(targets, [Attacker("Jack", [fist], focus=focus)])


def _one_target() -> str:
    _run(_jack(), _jack(focus=0))
    return "one target (basic), plain kernel"


def _one_target_lean() -> str:
    _run(_jack(rules=["tough"]))
    return "one target with more rules (lean)"


def _one_target_units() -> str:
    _run(_jack(arm=14, boxes=5, models=3))
    return "one target with units and blasts (units)"


def _one_target_lasting() -> str:
    _run(_jack(["fire"], boxes=10))
    return "one model with continuous effects (lasting)"


def _one_target_full() -> str:
    _run(_jack(["fire"], arm=14, boxes=5, models=3))
    return "one target with every path (fire on a unit: full)"


def _several_targets() -> str:
    from mathhammer import Target

    _run(_jack(targets=[Target(defense=12, arm=14, boxes=5, name="A"),
                        Target(defense=12, arm=18, boxes=20, name="B")]))
    return "several targets (full)"


def _sbh() -> str:
    from mathhammer import sbh

    turn = sbh.Turn([sbh.Solo(sbh.Model(3), 2), sbh.Solo(sbh.Model(4), 3)])
    for trials in (SERIAL, PARALLEL):
        sbh.simulate_turn(turn, trials=trials, seed=1)
    return "Song of Blades and Heroes"


def main() -> int:
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=2) as pool:
        # the longest first: each worker then takes the next job as it is free
        jobs = [pool.submit(job) for job in (_several_targets, _one_target_full,
                                             _one_target_lasting, _one_target_units,
                                             _one_target_lean, _one_target, _sbh)]
        done = [job.result() for job in jobs]
    print(f"kernels compiled or loaded ({'; '.join(done)}) in {time.perf_counter() - start:.0f} s",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

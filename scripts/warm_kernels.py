"""Compile the Monte Carlo kernels into Numba's on-disk cache, two processes at once.

``make test`` runs this before the suite: the general kernel compiles apart for one target
(its variants, :mod:`mathhammer.montecarlo._kernels.variant`: basic, lean, units, lasting
and full) and for several targets (full), one compiled function each that runs one
chunk or, on threads, many (from about 10 s for the basic one to minutes for the full one
with several targets on one core, measured in benchmarks/README.md), so compiling them two
processes at once saves that much of a cold suite on two cores. Each job runs a small scenario through :func:`mathhammer.simulate`, the
same path as the tests, so what it leaves in the cache is what they load; the basic job also
compiles the plain kernel, a last one the Song of Blades and Heroes kernels. Run again on a
warm cache, it takes seconds.

Usage: ``python scripts/warm_kernels.py``
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor

#: Trials of one chunk (the general kernel on the calling thread, the plain kernel's serial
#: driver) and of several (threads; the plain kernel's parallel driver).
SERIAL, PARALLEL = 1_000, 70_000


def _one_target() -> str:
    from mathhammer import Attacker, Scenario, Target, Weapon, simulate

    fist = Weapon("Fist", "melee", 7, 16, attacks=2)
    general = Scenario(Target(defense=12, arm=18, boxes=20), [Attacker("Jack", [fist], focus=1)])
    plain = Scenario(Target(defense=12, arm=18, boxes=20), [Attacker("Jack", [fist])])
    for scen in (general, plain):
        for trials in (SERIAL, PARALLEL):
            simulate(scen, trials=trials, seed=1)
    return "one target (basic), plain kernel"


def _one_target_lean() -> str:
    from mathhammer import Attacker, Scenario, Target, Weapon, simulate

    fist = Weapon("Fist", "melee", 7, 16, attacks=2)
    tough = Scenario(Target(defense=12, arm=18, boxes=20, rules=["tough"]),
                     [Attacker("Jack", [fist], focus=1)])
    for trials in (SERIAL, PARALLEL):
        simulate(tough, trials=trials, seed=1)
    return "one target with more rules (lean)"


def _one_target_units() -> str:
    from mathhammer import Attacker, Scenario, Target, Weapon, simulate

    fist = Weapon("Fist", "melee", 7, 16, attacks=2)
    unit = Scenario(Target(defense=12, arm=14, boxes=5, models=3), [Attacker("Jack", [fist], focus=1)])
    for trials in (SERIAL, PARALLEL):
        simulate(unit, trials=trials, seed=1)
    return "one target with units and blasts (units)"


def _one_target_lasting() -> str:
    from mathhammer import Attacker, Scenario, Target, Weapon, simulate

    torch = Weapon("Torch", "melee", 7, 12, attacks=2, rules=["fire"])
    burning = Scenario(Target(defense=12, arm=16, boxes=10), [Attacker("Jack", [torch], focus=1)])
    for trials in (SERIAL, PARALLEL):
        simulate(burning, trials=trials, seed=1)
    return "one model with continuous effects (lasting)"


def _one_target_full() -> str:
    from mathhammer import Attacker, Scenario, Target, Weapon, simulate

    torch = Weapon("Torch", "melee", 7, 12, attacks=2, rules=["fire"])
    unit = Scenario(Target(defense=12, arm=14, boxes=5, models=3), [Attacker("Jack", [torch], focus=1)])
    for trials in (SERIAL, PARALLEL):
        simulate(unit, trials=trials, seed=1)
    return "one target with every path (fire on a unit: full)"


def _several_targets() -> str:
    from mathhammer import Attacker, Scenario, Target, Weapon, simulate

    fist = Weapon("Fist", "melee", 7, 16, attacks=2)
    scen = Scenario([Target(defense=12, arm=14, boxes=5, name="A"), Target(defense=12, arm=18, boxes=20, name="B")],
                    [Attacker("Jack", [fist], focus=1)])
    for trials in (SERIAL, PARALLEL):
        simulate(scen, trials=trials, seed=1)
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

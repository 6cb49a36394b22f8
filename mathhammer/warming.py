"""Compile every Monte Carlo kernel into Numba's on-disk cache ahead of a first run.

A first run of each kind compiles the kernel its scenario needs (4 to 35 s on two cores:
the general kernel's variants, :mod:`mathhammer.montecarlo._kernels.variant`, the plain and
spending kernels, Song of Blades and Heroes); later runs load it from the cache. :func:`warm`
does all of it at once, some jobs at a time in processes of their own, so that no later first
run waits: before a game night, in a container image's build (``RUN mathhammer warm``), or
before a test suite (``make test`` runs it first). It compiles nothing twice: a kernel already
in the cache is loaded, in seconds.

Each job runs a small scenario through :func:`mathhammer.simulate` on one chunk of trials and
on several (the paths a run takes: the kernel on the calling thread, or on threads), so what
it leaves in the cache is what a run loads. The slowest jobs go first, each worker taking
the next as it is free.
"""

from __future__ import annotations

import contextlib
import io
import time

from ._core.numba_env import check_environment
from ._core.validate import check_int

__all__ = ["JOBS", "MAX_PROCESSES", "warm"]

#: Trials of one chunk and of several: the two ways a run goes (one chunk on the calling
#: thread; several shared out over threads, or Song of Blades and Heroes' parallel loop).
SERIAL, PARALLEL = 1_000, 70_000


def _jack(weapon_rules=(), focus=1, spend=None, **target):
    """A warjack's two fists (``weapon_rules`` on them; ``focus`` points, spent by best play or
    by the fixed policy ``spend``) against one target (``target``: its fields over DEF 12,
    ARM 18, 20 boxes; a list of targets under ``targets``)."""
    from . import Attacker, Scenario, Target, Weapon

    fist = Weapon("Fist", "melee", 7, 16, attacks=2, rules=list(weapon_rules))
    targets = target.pop("targets", None) or Target(**{"defense": 12, "arm": 18, "boxes": 20,
                                                        **target})
    return Scenario(targets, [Attacker("Jack", [fist], focus=focus, spend=spend)])


def _several_targets(effects=(), rules=()):
    from . import Target

    return [_jack(targets=[Target(defense=12, arm=14, boxes=5, name="A", effects=effects, rules=rules),
                           Target(defense=12, arm=18, boxes=20, name="B")])]


def _demo():
    from .io.scenario_files import demo_scenario

    return [demo_scenario()]


def _tracks():
    from . import Spend

    return [_jack(focus=0), _jack(), _jack(spend=Spend())]


#: Job name -> (what it compiles, the scenarios whose runs compile it), slowest first; each
#: scenario's run compiles a kernel (or a variant) no other job's does.
JOBS = {
    "several_fire": ("fire on several targets (the full variant)",
                     lambda: _several_targets(effects=("fire",))),
    "several": ("several targets (the units_basic and units variants)",
                lambda: _several_targets() + _several_targets(rules=("tough",))),
    "full": ("fire on a unit (the full variant, one target)",
             lambda: [_jack(["fire"], arm=14, boxes=5, models=3)]),
    "lasting": ("continuous effects (the lasting variant)", lambda: [_jack(["fire"], boxes=10)]),
    "units": ("units and blasts (the units_basic and units variants)",
              lambda: [_jack(arm=14, boxes=5, models=3), _jack(arm=14, boxes=5, models=3, rules=["tough"])]),
    "lean": ("more rules of an attack or a target (the lean variant)",
             lambda: [_jack(rules=["tough"])]),
    "basic": ("a damage grid, best play (the basic variant: `mathhammer demo`)", _demo),
    "tracks": ("damage tracks: the plain kernel, focus by best play and by a fixed policy",
               _tracks),
    "trade": ("trades (docs/trades.md), with and without continuous effects", None),
    "sbh": ("Song of Blades and Heroes", None),
}

#: The most jobs :func:`warm` runs at once: one per job.
MAX_PROCESSES = len(JOBS)


def _run(name: str) -> tuple[str, float]:
    """Job ``name`` in this process, its compile notices kept off the terminal (the caller
    says what was done); returns the name and the seconds it took."""
    from . import simulate

    began = time.perf_counter()
    with contextlib.redirect_stderr(io.StringIO()):
        if name == "sbh":
            from . import sbh

            turn = sbh.Turn([sbh.Solo(sbh.Model(3), 2), sbh.Solo(sbh.Model(4), 3)])
            for trials in (SERIAL, PARALLEL):
                sbh.simulate_turn(turn, trials=trials, seed=1)
        elif name == "trade":
            from .io.trade_files import trade_from_dict
            from .trade import simulate_trade

            spend = {"boost_attack": "auto"}
            trade = trade_from_dict({"sides": [
                {"name": "A", "models": [{"card": "heavy_warjack", "name": "a", "attacks": "b",
                                          "attacker": {"spend": spend}}]},
                {"name": "B", "models": [{"card": "heavy_warjack", "name": "b", "attacks": "a",
                                          "attacker": {"spend": spend}}]}]})
            burning = trade_from_dict({"sides": [
                {"name": "A", "models": [{"card": "heavy_warjack", "name": "a", "attacks": "b",
                                          "attacker": {"spend": spend}, "target": {"effects": ["fire"]}}]},
                {"name": "B", "models": [{"card": "heavy_warjack", "name": "b", "attacks": "a",
                                          "attacker": {"spend": spend}}]}]})
            for one in (trade, burning):  # without continuous effects, and with them
                for trials in (SERIAL, PARALLEL):
                    simulate_trade(one, trials=trials, seed=1)
        else:
            for scenario in JOBS[name][1]():
                for trials in (SERIAL, PARALLEL):
                    simulate(scenario, trials=trials, seed=1, progress=False)
    return name, time.perf_counter() - began


def warm(processes: int = 2, *, say=None) -> dict[str, float]:
    """Compile (or load) every kernel into Numba's on-disk cache, ``processes`` jobs at a
    time; returns the seconds each job (:data:`JOBS`) took, in the order they finished.

    Parameters
    ----------
    processes : int
        Jobs run at once, each in a process of its own (a compile runs on one core): 1 to
        :data:`MAX_PROCESSES`.
    say : callable, optional
        Called with a line of text as each job finishes (the command line prints it).

    Raises
    ------
    InputError
        ``processes`` is not an integer from 1 to :data:`MAX_PROCESSES`.

    Notes
    -----
    The jobs run in spawned processes, which import the calling script again: a script (not a
    notebook) calls this under ``if __name__ == "__main__":``, as for a local Dask cluster.
    """
    import multiprocessing  # here: the command line's start-up stays light
    from concurrent.futures import ProcessPoolExecutor, as_completed

    processes = check_int("processes", processes, 1, MAX_PROCESSES)
    check_environment()  # NUMBA_* values Numba would fail on, before any process starts
    took = {}
    # fresh processes (spawned): a fork of a process whose Numba threads have run (Song of
    # Blades and Heroes' parallel loop) may hang, with some threading layers
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=processes, mp_context=spawn) as pool:
        for job in as_completed([pool.submit(_run, name) for name in JOBS]):
            name, seconds = job.result()
            took[name] = seconds
            if say is not None:
                say(f"{JOBS[name][0]}: {seconds:.0f} s")
    return took

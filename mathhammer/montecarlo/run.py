"""One Monte Carlo run of a fixed-policy scenario: encode once, run the kernels, assemble."""

from __future__ import annotations

from .._core.ticker import tick, ticking
from .._core.validate import check_int
from ..errors import ExactNotApplicable
from ..result import BestPlay, Result
from ..rules import Scenario
from ._kernels.driver import run_sequences
from .assemble import assemble
from .encode import encode
from ..play import needs_play, report, solve

__all__ = ["monte_carlo", "max_draws", "MAX_STRIDE"]

#: Largest common-random-numbers stride accepted (pairs of dice a trial may start apart).
MAX_STRIDE = 1 << 20


def monte_carlo(scenario: Scenario, trials: int, seed: int, stride: int | None = None,
                progress: bool = False, explain: bool = True, table=None) -> Result:
    """Simulate ``trials`` sequences of ``scenario`` from ``seed`` (both already checked).

    ``stride`` (common random numbers, see :func:`mathhammer.simulate`) must be at least
    :func:`max_draws` of the scenario; ``progress`` (a bool) shows tqdm bars on stderr, for
    solving best play and for the trials, each once it has lasted a second; ``explain``: with
    best play, weigh its decisions for "how to play it" (else the result's ``play`` has the
    table's summary only); ``table``: best play's tables of ``scenario`` solved already
    (:func:`mathhammer.play.solve`: a benchmark times the trials alone).
    """
    play = None
    sequence = scenario.attack_sequence()
    if table is None and needs_play(scenario):
        try:
            with ticking("best play", progress):  # solved first, shown once it lasts a second
                table = solve(scenario, sequence, reach=explain)
        except ExactNotApplicable as err:
            # beyond what best play can be solved on: the default fixed policy and the
            # "lethal" power field decide, and the result says so
            play = BestPlay(solved_on="not solved: " + str(err).split(": use the Monte Carlo")[0],
                            fallback="default fixed policy, lethal power field")
    enc = encode(scenario, table, sequence)
    if stride is not None:
        check_int("stride", stride, enc.max_draws, MAX_STRIDE)
    with ticking("simulate", progress, unit="trial", total=trials):
        # each batch counts on the bar (when shown) and calls a stop check (when set)
        counts = run_sequences(enc, trials, seed, stride=stride or 0, on_batch=tick)
    if table is not None:
        play = report(table, scenario, enc.slot_labels, sequence)
    return assemble(scenario, enc, counts, trials, seed, stride or 0, play=play)


def max_draws(scenario: Scenario) -> int:
    """The most entries of the dice buffer one trial of ``scenario`` may read (the smallest
    stride it can run with)."""
    return int(encode(scenario).max_draws)

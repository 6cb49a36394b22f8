"""When the explorer shows what: a stage's numbers and its figure, one change of the page or
two, a quick Monte Carlo estimate first or the document's trials at once.

Every piece shown costs the page a moment (the figure a third of a second to draw, each change
a round trip to the browser), so the page shows what the player waits for and nothing that
would only delay it: the pace of the last value (seconds per trial, seconds to draw) says
what the next one will take. No Panel here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from .render import Page, render
from .stages import Answer, answers

__all__ = ["AT_ONCE", "DRAW_FIRST_AFTER", "QUICK_DRAW", "Pace"]

#: Seconds the last stage of Monte Carlo may be expected to take before the first estimate's
#: figure is drawn too.
DRAW_FIRST_AFTER = 2.0
#: Seconds a figure may take to draw for the final figures to be shown at once with it.
QUICK_DRAW = 0.25
#: Seconds the document's trials may be expected to take and be run at once, without a quick
#: estimate first.
AT_ONCE = 0.5


class Pace:
    """What the last value took, and the pages of the next one shown by it."""

    def __init__(self):
        #: Seconds per trial of the last Monte Carlo stage in full (None: none yet).
        self.per_trial: float | None = None
        #: Seconds the last figure took to draw.
        self.drawing = float("inf")

    def quick_first(self, trials: int) -> bool:
        """Whether Monte Carlo starts with a quick estimate: unless the last value's trials
        went fast enough that ``trials`` are expected within :data:`AT_ONCE` seconds."""
        return self.per_trial is None or self.per_trial * trials > AT_ONCE

    def pages(self, scenario, method: str, check: Callable[[], None]) -> Iterator[tuple[Answer, Page]]:
        """The stages of ``scenario`` (:func:`~.stages.answers`), each as the pages to show:
        its numbers and tables first, then its figure (at once where the figure is quick to
        draw); a first estimate's figure only where the last stage is seconds away."""
        for answer in answers(scenario, method, check, quick=self.quick_first(scenario.trials)):
            if answer.method == "monte_carlo" and answer.final:
                self.per_trial = answer.seconds / max(1, answer.result.trials)
            check()
            if not (answer.final and self.drawing < QUICK_DRAW):
                yield answer, render(answer.result, answer.note, figure=False)
                if not answer.final and not _long_to_final(answer, scenario.trials):
                    continue  # the final figure comes soon: drawing this one would only delay it
                check()
            began = time.perf_counter()
            page = render(answer.result, answer.note)
            self.drawing = time.perf_counter() - began
            yield answer, page


def _long_to_final(answer: Answer, trials: int) -> bool:
    """Whether the final stage of ``trials`` will take over :data:`DRAW_FIRST_AFTER` seconds,
    reckoned from this stage's time per trial."""
    return answer.seconds * trials / max(1, answer.result.trials or 1) > DRAW_FIRST_AFTER

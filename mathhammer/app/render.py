"""A result turned into what the explorer shows: the headline, the main figure as PNG, the
attacks one by one, and best play in words. No Panel here: the worker thread renders, the page
only swaps the new pieces in.

The headline carries the figures as data attributes (``data-kill`` holds the kill probability
as Python writes the float), so that a browser test reads exactly what was computed.

>>> from mathhammer.app.document import new_document, put, to_scenario
>>> from mathhammer.simulation import simulate
>>> doc = put(new_document(), ("target",), {"def": 12, "arm": 18, "boxes": 28})
>>> res = simulate(to_scenario(doc), method="exact")
>>> page = render(res, figure=False)
>>> f'data-kill="{res.kill!r}"' in page.headline, page.figure is None
(True, True)
"""

from __future__ import annotations

import html
import io
from dataclasses import dataclass

from ..plots.card import can_condition
from ..plots.figure import figure_title, main_figure
from ..result import Result
from ..result.play import play_lines

__all__ = ["DPI", "Page", "attacks_html", "figure_png", "headline_html", "render"]

#: The main figure's size on the page, as a share of its size in a file: smaller, so that its
#: text, shown at the page's width, reads as large as the page's (about 11 px at 780 px wide).
PAGE_SCALE = 0.75
#: Resolution of the figure's PNG: a two-panel figure comes out near the page's 780 px.
DPI = 81
#: Layouts kept (:func:`figure_png`): one per shape of figure met, the oldest dropped first.
MAX_LAYOUTS = 64
_layouts: dict[tuple, list] = {}


@dataclass(frozen=True)
class Page:
    """The pieces of the page for one result (HTML strings, PNG bytes)."""

    headline: str
    figure: bytes | None
    attacks: str
    play: str
    #: The "Plan the turn" section, once planned (None: this piece does not carry it).
    plan: str | None = None


def _pct(p: float) -> str:
    return f"{100 * p:.2f}%"


def headline_html(result: Result, note: str = "") -> str:
    """Kill (with its interval for Monte Carlo), expected damage, how it was computed."""
    kill = result.kill
    what = ("every target destroyed" if result.several else
            f"all {result.models} models destroyed" if result.models > 1 else "kill")
    if result.exact:
        how, ci = "exact (no sampling error)", ""
    else:
        lo, hi = result.kill_ci95
        how = f"Monte Carlo, {result.trials:,} trials, seed {result.seed}"
        ci = f' <span class="mh-ci">(95% interval {_pct(lo)} to {_pct(hi)})</span>'
    damage = (f"Expected damage: <b>{result.damage_mean:.2f}</b> points "
              f"(sd {result.damage_sd:.2f}) of {result.boxes}")
    rows = [f'<div class="mh-kill-row" style="font-size:1.5em">{html.escape(what.capitalize())}: '
            f'<b><span class="mh-kill" data-kill="{kill!r}" data-method="{result.method}">'
            f"{_pct(kill)}</span></b>{ci}</div>",
            f'<div class="mh-damage" data-damage="{result.damage_mean!r}">{damage}</div>',
            f'<div class="mh-how">{html.escape(how)}</div>']
    if note:
        rows.append(f'<div class="mh-note">{html.escape(note)}</div>')
    return '<div class="mh-headline">' + "".join(rows) + "</div>"


def attacks_html(result: Result) -> str:
    """One row per attack: made, hit, critical, damage it marks, kill by then."""
    head = ("<tr><th>#</th><th>attack</th><th>made</th><th>hit</th><th>critical</th>"
            "<th>damage</th><th>kill by then</th></tr>")
    rows = []
    for a in result.attacks:
        rows.append(f"<tr><td>{a['attack']}</td><td>{html.escape(a['label'])}</td>"
                    f"<td>{_pct(a['made'])}</td><td>{_pct(a['hit'])}</td><td>{_pct(a['crit'])}</td>"
                    f"<td>{a['damage_mean']:.2f}</td><td>{_pct(a['kill_after'])}</td></tr>")
    return '<table class="mh-attacks">' + head + "".join(rows) + "</table>"


def _play_html(result: Result) -> str:
    lines = [line for line in play_lines(result) if line.strip()]
    if not lines:
        return '<div class="mh-play">No points to spend: every attack is made as it stands.</div>'
    first, *rest = lines
    items = "".join(f'<div style="margin-left:1em">{html.escape(line.strip())}</div>' for line in rest)
    return f'<div class="mh-play"><h4>{html.escape(first)}</h4>{items}</div>'


def _shape(result: Result, fig) -> tuple:
    """What the main figure's layout depends on: its panels, size and title lines, the card,
    and whether the card shows a target still standing (other titles and a legend)."""
    return (tuple(ax.get_label() for ax in fig.axes), len(fig.texts), tuple(fig.get_size_inches()),
            figure_title(result, width=fig.get_figwidth()).count("\n"),
            () if result.card is None else (result.card.columns, result.card.letters),
            result.boxes, result.models, result.turns, result.exact, can_condition(result))


def figure_png(result: Result) -> bytes:
    """The main figure (:func:`mathhammer.plots.main_figure`) as PNG bytes.

    Its constrained layout, a quarter of the drawing time, is worked out the first time a
    figure of its shape is drawn and reused for the next ones (the same panels, card, size
    and title lines: the panels sit where they sat), so that a dragged value redraws faster.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = main_figure(result, scale=PAGE_SCALE)
    FigureCanvasAgg(fig)
    key = _shape(result, fig)
    known = _layouts.get(key)
    if known is not None:
        fig.set_layout_engine("none")
        axes, texts = known
        for ax, pos in zip(fig.axes, axes):
            ax.set_position(pos)
        for text, pos in zip(fig.texts, texts):  # the title, which the layout places too
            text.set_position(pos)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    if known is None:
        if len(_layouts) >= MAX_LAYOUTS:
            _layouts.pop(next(iter(_layouts)))
        _layouts[key] = ([ax.get_position() for ax in fig.axes], [t.get_position() for t in fig.texts])
    return buf.getvalue()


#: Plans listed in the explorer's "Plan the turn" table.
PLANS_LISTED = 5


def plan_html(plans, note: str = "") -> str:
    """The "Plan the turn" section: the best plan in a player's words with its figures, what
    it gains over the best fixed order, the file's plan and an even allocation, and the best
    :data:`PLANS_LISTED` plans; ``note``: why the turn is not planned (``plans`` None)."""
    if plans is None:
        return f'<div class="mh-plan"><h4>Plan the turn</h4><div class="mh-note">{html.escape(note)}</div></div>'
    lines = plans.summary().splitlines()
    best, *rest = lines
    words = best.removeprefix("best plan: ")
    head = (f'<div class="mh-plan-best" data-value="{plans.best.value!r}">Best plan: <b>'
            f"{html.escape(words[:1].upper() + words[1:])}</b></div>")
    items = "".join(f'<div style="margin-left:1em">{html.escape(line.strip())}</div>' for line in rest)
    frame = plans.frame().head(PLANS_LISTED)
    cols = [c for c in frame.columns if c not in ("rank", "value", "adaptive")]
    shown = {"damage_mean": "damage", "order": "order of activation"}
    header = "".join(f"<th>{html.escape(shown.get(c, c.removeprefix('focus:')))}</th>" for c in cols)
    body = "".join("<tr>" + "".join(
        f"<td>{_pct(v) if c == 'kill' else f'{v:.2f}' if isinstance(v, float) else html.escape(str(v))}</td>"
        for c, v in zip(cols, row)) + "</tr>" for row in frame[cols].itertuples(index=False))
    table = f'<table class="mh-plans"><tr>{header}</tr>{body}</table>'
    return f'<div class="mh-plan"><h4>Plan the turn</h4>{head}{items}{table}</div>'


def render(result: Result, note: str = "", *, figure: bool = True) -> Page:
    """The :class:`Page` of ``result`` (``figure=False``: no figure drawn, for quick tests)."""
    png = figure_png(result) if figure else None
    return Page(headline_html(result, note), png, attacks_html(result), _play_html(result))

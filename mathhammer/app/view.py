"""The explorer's page: controls on the left, the answer on the right (on a phone, the answer on
top and the controls below it), updated as values change.

One :class:`Explorer` is one page (a notebook cell, or one browser tab of ``mathhammer app``).
A change of a control edits the document; the document is read at once (a bad value is
marked beside its field and nothing is computed); a good one is handed to the
:class:`~mathhammer.app.runner.Runner`, whose worker computes it by stages
(:func:`~mathhammer.app.stages.answers`) and renders each (:func:`~mathhammer.app.render.render`);
the page swaps the new pieces in on its own event loop. While a value is being computed the
status line says "updating", and a Monte Carlo estimate says how many trials it rests on
until the last stage is in.
"""

from __future__ import annotations

import dataclasses
import html
import io
import threading
import time
from functools import partial

import panel as pn
from panel.io.state import set_curdoc

from .._core.limits import DEFAULT_TRIALS
from ..errors import InputError
from ..rules.battlegroup import battlegroups
from .controls import AS_WRITTEN, TRACK, Form
from .document import (attacker_cards, attacker_from_card, field_message, from_scenario, from_toml,
                       get, new_document, put, target_cards, to_scenario, to_toml)
from .pace import Pace
from .render import plan_html
from .runner import Runner
from .stages import METHODS, plan_stage

__all__ = ["Explorer"]

_METHOD_LABELS = {"Auto": "auto", "Exact": "exact", "Monte Carlo": "monte_carlo"}
#: The attacker "Add attacker" brings.
ADDED_CARD = "light_warjack"
#: Seconds a value being typed that the scenario does not accept waits for the next key before
#: its message is shown.
TYPING_PAUSE = 0.6
#: Widest the controls and the answer get (CSS pixels); narrower as the screen asks.
CONTROLS_WIDTH = 500
ANSWER_WIDTH = 820
FIGURE_WIDTH = 780


class Explorer:
    """The live explorer of a scenario (a new heavy warjack matchup when None).

    Attributes
    ----------
    layout : panel.layout.Row
        The page; display it in a notebook, or serve it (:mod:`.server`).
    doc : dict
        The scenario document being edited (what "Download" writes).
    """

    def __init__(self, scenario=None, method: str = "auto"):
        if method == "mc":  # the short name simulate and the command line take too
            method = "monte_carlo"
        if method not in METHODS:
            raise InputError("method", method, f"must be one of {', '.join(METHODS)} (or mc)")
        self.doc = new_document() if scenario is None else from_scenario(scenario)
        self.method = method
        self.origins: list[str | None] = (["heavy_warjack"] if scenario is None
                                          else [None] * len(self.doc.get("attackers", [])))
        self.scenario = None
        self.last_answer = None
        #: (method, "numbers" or "figure", seconds from the change) of each piece swapped in:
        #: a stage's numbers and tables come first, its figure when drawn
        self.timings: list[tuple[str, str, float]] = []
        self._t_submit = 0.0
        self._request = 0          # changes read so far (good or bad)
        self._cards = target_cards()
        self._attacker_cards = attacker_cards()
        self._bokeh_doc = None
        self._typing: threading.Timer | None = None
        self.pace = Pace()  # what the last value took: what to show of the next
        self.form = Form(self._on_change, self._on_typing)
        self.state = pn.pane.HTML(self._state_html("updating", "computing..."), margin=(0, 10))
        self.message = pn.pane.HTML("", margin=(0, 10))
        self.headline = pn.pane.HTML("", margin=(0, 10))
        self.figure = pn.pane.PNG(None, sizing_mode="scale_width", max_width=FIGURE_WIDTH, margin=(0, 10),
                                  css_classes=["mh-figure"])
        self.attacks = pn.pane.HTML("", margin=(0, 10))
        self.play = pn.pane.HTML("", margin=(0, 10))
        self.plan = pn.pane.HTML("", margin=(0, 10))
        self.method_choice = pn.widgets.RadioButtonGroup(
            label="Method", options=_METHOD_LABELS, value=method, css_classes=["mh-method"])
        self.method_choice.param.watch(lambda e: self._set_method(e.new), "value")
        self.download = pn.widgets.FileDownload(callback=self.toml_file, filename="scenario.toml",
                                                label="Download scenario.toml",
                                                css_classes=["mh-download"], width=220)
        self.upload = pn.widgets.FileInput(accept=".toml", css_classes=["mh-upload"], width=220)
        self.upload.param.watch(self._on_upload, "value")
        self.upload_message = pn.pane.HTML("", margin=(0, 10), css_classes=["mh-upload-message"])
        self.add_button = pn.widgets.Button(label="Add attacker", css_classes=["mh-add"], width=140)
        self.add_button.on_click(lambda e: self.add_attacker())
        self.form_box = pn.Column()
        self.runner = Runner(self._work, self._publish)
        controls = pn.Column(
            self.form_box, self.add_button, "### Method", self.method_choice,
            pn.FlexBox(self.form.number(("simulation", "trials"), "Trials", self.doc, DEFAULT_TRIALS),
                       self.form.number(("simulation", "seed"), "Seed", self.doc, 1)),
            "### Scenario file", self.download, self.upload, self.upload_message,
            sizing_mode="stretch_width", max_width=CONTROLS_WIDTH, css_classes=["mh-controls"],
            styles={"flex": f"1 1 {CONTROLS_WIDTH - 100}px"})
        # the figures of the last good value: greyed out while a value is not accepted
        self.shown = pn.Column(
            self.headline, self.plan, self.figure, "#### Attack by attack",
            pn.Column(self.attacks, styles={"overflow-x": "auto"}, sizing_mode="stretch_width"), self.play,
            sizing_mode="stretch_width", css_classes=["mh-shown"])
        answer = pn.Column(self.state, self.message, self.shown, sizing_mode="stretch_width",
                           max_width=ANSWER_WIDTH, css_classes=["mh-answer"],
                           styles={"flex": f"1 1 {ANSWER_WIDTH - 300}px"})
        # the answer first: on a narrow screen (a phone) it comes on top and the controls
        # below it; on a wide one the row is read right to left, the controls on the left
        self.layout = pn.FlexBox(answer, controls, flex_direction="row-reverse", flex_wrap="wrap",
                                 justify_content="flex-end", align_items="flex-start",
                                 sizing_mode="stretch_width", css_classes=["mh-page"])
        self._read()
        self._rebuild()

    # ------------------------------------------------------------------ the page
    def panel(self):
        """The page, bound to the document it is shown in (call once per session)."""
        self._bokeh_doc = pn.state.curdoc
        return self.layout

    def _repr_mimebundle_(self, include=None, exclude=None):
        """Shown as the page in a notebook."""
        return self.panel()._repr_mimebundle_(include, exclude)

    def _state_html(self, state: str, text: str, kind: str = "mh-status") -> str:
        """A line of the page's status (``kind`` mh-status) or a message (mh-msg) in the
        colour of ``state`` (done, updating, error); ``data-state`` says it and
        ``data-request`` the number of the newest value, for tests."""
        color = {"done": "#1b5e20", "updating": "#e65100", "error": "#b00020"}[state]
        return (f'<div class="{kind}" data-state="{state}" data-request="{self._request}" '
                f'style="color:{color}">{html.escape(text)}</div>')

    def _rebuild(self) -> None:
        """Controls made anew from the document (a card chosen, an attacker added, a file
        loaded): the ones for values only are never rebuilt while being typed in."""
        keep = {k: f for k, f in self.form.fields.items() if k.startswith("simulation")}
        self.form.fields = keep
        shown = self.scenario.targets[0] if self.scenario is not None else None
        attackers = self.scenario.attackers if self.scenario is not None else ()
        parts = [self.form.target(self.doc, shown, self._cards, self.pick_target), "### Attackers"]
        for i in range(len(self.doc.get("attackers", []))):
            names = [a.name for k, a in enumerate(attackers) if k != i]
            parts.append(self.form.attacker(self.doc, i, attackers[i] if i < len(attackers) else None,
                                            self._attacker_cards, self.origins[i],
                                            self.pick_attacker, self.remove_attacker, names))
        self.form_box.objects = parts

    # ------------------------------------------------------------------ changes
    def _on_change(self, path, value) -> None:
        doc = put(self.doc, path, value)
        if doc == self.doc:  # Enter or leaving a field once its typing was read: nothing new
            return
        self.doc = doc
        self._read()

    def _on_typing(self, path, value) -> None:
        """A text being typed: read at once when the scenario reads with it (typing "17"
        answers 1, then 17, the newest winning), else once no key has come for
        :data:`TYPING_PAUSE` seconds, so that a value half typed ("-", a field emptied to be
        typed again) is not marked wrong while the player is still typing."""
        if self._typing is not None:
            self._typing.cancel()
        doc = put(self.doc, path, value)
        if doc == self.doc:
            return
        try:
            scenario = to_scenario(doc)
        except InputError:
            self._typing = threading.Timer(TYPING_PAUSE, self._in_page, (partial(self._on_change, path, value),))
            self._typing.daemon = True
            self._typing.start()
            return
        self.doc = doc
        self._read(scenario)

    def _in_page(self, apply) -> None:
        """Run ``apply`` where the page's widgets may be changed: on the served page's event
        loop, or at once in a notebook or a script."""
        doc = self._bokeh_doc
        if doc is not None and doc.session_context is not None:
            with set_curdoc(doc):
                pn.state.execute(apply, schedule=True)
        else:
            apply()

    def _set_method(self, method: str) -> None:
        self.method = method
        self._read()

    def pick_target(self, card: str) -> None:
        """Make the target card ``card`` (or :data:`~.controls.TRACK`), its values the card's."""
        # a card brings its own name and values; a track starts from a heavy warjack's
        target = {"name": "Target", "def": 12, "arm": 18, "boxes": 28} if card == TRACK else {"card": card}
        self.doc = put(self.doc, ("target",), target)
        self._read()
        self._rebuild()

    def pick_attacker(self, i: int, card: str, action: str | None = None) -> None:
        """Make attacker ``i`` card ``card`` making ``action`` (its default when None)."""
        if card == AS_WRITTEN:
            return
        self.doc = put(self.doc, ("attackers", i), attacker_from_card(card, action))
        self.origins[i] = card
        self._read()
        self._rebuild()

    def add_attacker(self, card: str = ADDED_CARD) -> None:
        """One more attacker, card ``card``, acting after the others."""
        self.doc = put(self.doc, ("attackers",), [*self.doc.get("attackers", []),
                                                  attacker_from_card(card)])
        self.origins.append(card)
        self._read()
        self._rebuild()

    def remove_attacker(self, i: int) -> None:
        """Attacker ``i`` leaves (not the last one: a message says so), and the battlegroup
        that controlled it no longer names it."""
        attackers = list(self.doc.get("attackers", []))
        if len(attackers) <= 1:
            self.message.object = self._state_html("error", "attackers: a scenario needs one attacker at least",
                                                   "mh-msg")
            return
        shown = self.scenario.attackers if self.scenario is not None else ()
        gone = shown[i].name if i < len(shown) else None
        del attackers[i]
        del self.origins[i]
        for k, a in enumerate(attackers):  # a battlegroup loses the model that left, not its others
            if gone is not None and gone in (a.get("controls") or []):
                left = [n for n in a["controls"] if n != gone]
                attackers[k] = {x: v for x, v in a.items() if x != "controls"} | ({"controls": left} if left else {})
        self.doc = put(self.doc, ("attackers",), attackers)
        self._read()
        self._rebuild()

    def load_toml(self, text: str, source: str = "scenario.toml") -> bool:
        """Load a scenario file's text (what the upload field does); False, with the message
        beside the field, when ``mathhammer run`` would refuse it. The page is left as it
        was then."""
        try:
            doc = from_toml(text, source)
        except InputError as err:
            self.upload_message.object = self._state_html("error", str(err), "mh-msg")
            return False
        self.doc = doc
        self.origins = [None] * len(doc.get("attackers", []))
        for key in ("trials", "seed"):
            f = self.form.fields.get(f"simulation.{key}")
            if f is not None:
                value = get(doc, ("simulation", key))
                f.widget.value = "" if value is None else str(value)
        self.upload_message.object = self._state_html("done", f"loaded {source}", "mh-msg")
        self._read()
        self._rebuild()
        return True

    def _on_upload(self, event) -> None:
        if not event.new:
            return
        name = self.upload.filename or "scenario.toml"
        try:
            text = event.new.decode("utf-8")
        except UnicodeDecodeError:
            self.upload_message.object = self._state_html("error", f"{name}: not a text file (UTF-8)",
                                                          "mh-msg")
            return
        self.load_toml(text, name)

    def toml_file(self) -> io.StringIO:
        """What "Download" saves: the document as TOML (a comment line while a value is bad)."""
        try:
            return io.StringIO(to_toml(self.doc))
        except InputError as err:  # the button is pressed while a field is wrong
            return io.StringIO(f"# not saved: {field_message(err)}\n")

    # ------------------------------------------------------------------ computing
    def _read(self, scenario=None) -> None:
        """Check the document; mark the field of a bad value, or submit the good one
        (``scenario``: the document already read)."""
        self._request += 1
        try:
            scenario = to_scenario(self.doc) if scenario is None else scenario
        except InputError as err:
            message = self._named(err)
            beside = self.form.show_error(err.key, message)
            self.message.object = self._state_html("error", message if not beside else
                                                   "fix the value marked in red: " + message, "mh-msg")
            self.state.object = self._state_html(
                "error", "not computed: a value is not accepted (the figures below are for the last good values)")
            self._stale(True)
            return
        self.form.show_error(None, "")
        self.message.object = ""
        self._stale(False)
        self.scenario = scenario
        self.plan.object = '<div class="mh-plan"><i>planning the turn...</i></div>' if self._planning else ""
        self.state.object = self._state_html("updating", "updating...")
        self._t_submit = time.perf_counter()
        self.runner.submit((scenario, self.method))

    def _named(self, err: InputError) -> str:
        """The message of ``err`` with its field named as the page names it ("ARM: must be
        ..."), where a control stands for it."""
        text = field_message(err)
        field = self.form.field_of(err.key)
        if field is None or not text.startswith(f"{err.key}: "):
            return text
        return f"{field.label}: {text.removeprefix(f'{err.key}: ')}"

    def _stale(self, stale: bool) -> None:
        """Grey out the figures shown (they answer the last good values), or show them plain."""
        # both properties set either way: the browser keeps a style that is only left out
        self.shown.styles = {"opacity": "0.35", "filter": "grayscale(1)"} if stale else {"opacity": "1",
                                                                                         "filter": "none"}
        self.shown.css_classes = ["mh-shown", "mh-stale"] if stale else ["mh-shown"]

    def _work(self, request, check):
        scenario, method = request
        answer = page = None
        for answer, page in self.pace.pages(scenario, method, check):
            yield answer, page
        planned = plan_stage(scenario, check)
        if planned is not None:
            check()
            yield answer, dataclasses.replace(page, plan=plan_html(*planned))

    @property
    def _planning(self) -> bool:
        """The value being computed has a battlegroup: its turn is planned after the figures."""
        return self.scenario is not None and bool(battlegroups(self.scenario.attackers))

    def _how(self, answer) -> str:
        """How the answer was found and how long the player has waited for it since the value
        was read (computing, drawing and showing it)."""
        how = "exact" if answer.method == "exact" else f"Monte Carlo, {answer.result.trials:,} trials"
        return f"{how}; {time.perf_counter() - self._t_submit:.2f} s"

    def _publish(self, number: int, out) -> None:
        self._in_page(partial(self._apply, number, out))

    def _apply(self, number: int, out) -> None:
        if number != self.runner.newest:
            return  # a newer value is on its way
        if isinstance(out, Exception):
            text = field_message(out) if isinstance(out, InputError) else f"{type(out).__name__}: {out}"
            self.state.object = self._state_html("error", "not computed: " + text)
            return
        answer, page = out
        self.last_answer = answer
        if page.plan is not None:
            self.plan.object = page.plan
            self.timings.append((answer.method, "plan", time.perf_counter() - self._t_submit))
            self.state.object = self._state_html("done", f"up to date, the turn planned ({self._how(answer)})")
            return
        self.headline.object = page.headline
        self.attacks.object = page.attacks
        self.play.object = page.play
        drawn = page.figure is not None
        if drawn:
            self.figure.object = page.figure
        self.timings.append((answer.method, "figure" if drawn else "numbers",
                             time.perf_counter() - self._t_submit))
        if not drawn:
            what = "first estimate" if not answer.final else "figures"  # of the last stage
            self.state.object = self._state_html("updating", f"{what} in; drawing the figure...")
        elif answer.final and self._planning:
            self.state.object = self._state_html("updating", f"figures in ({self._how(answer)}); planning the "
                                                 "turn...")
        elif answer.final:
            self.state.object = self._state_html("done", f"up to date ({self._how(answer)})")
        else:
            self.state.object = self._state_html(
                "updating", f"first estimate ({answer.result.trials:,} trials); refining...")

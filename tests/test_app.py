"""The explorer in-process: its document, stages and runner, and the page's callbacks called
with changed values (what a notebook user does with the controls), figures checked against
``simulate`` on the same scenario."""

from __future__ import annotations

import html
import io
import subprocess
import sys
import threading
import time

import pytest

import mathhammer as mh
from mathhammer.app import document as D
from mathhammer.app.runner import Runner
from mathhammer.app.stages import QUICK_TRIALS, Superseded, answers
from mathhammer.io.scenario_files import loads_scenario
from mathhammer.io.schema import ScenarioFileError

TRACK = {"simulation": {"trials": 50_000, "seed": 3}, "target": {"name": "Dummy", "def": 12, "arm": 16, "boxes": 20},
         "attackers": [{"name": "Jack", "focus": 2, "weapons": [
             {"name": "Fist", "type": "melee", "skill": 7, "pow": 14, "attacks": 2}]}]}


# ---------------------------------------------------------------- document
def test_the_downloaded_file_reads_back_as_the_same_scenario():
    doc = D.put(D.new_document(), ("target", "arm"), 17)
    doc = D.put(doc, ("attackers", 0, "focus"), 2)
    text = D.to_toml(doc)
    assert loads_scenario(text) == D.to_scenario(doc)
    assert 'card = "heavy_warjack"' in text  # the target keeps its card by name
    again = D.from_toml(text, "back.toml")
    assert D.to_scenario(again) == D.to_scenario(doc)
    assert again["target"] == {"card": "heavy_warjack", "arm": 17}


def test_a_file_of_attacker_cards_is_written_out_and_keeps_its_names():
    text = ('target = { card = "light_warjack" }\n'
            '[[attackers]]\ncard = "heavy_warjack"\n[[attackers]]\ncard = "heavy_warjack"\n')
    doc = D.from_toml(text, "two.toml")
    assert [a["name"] for a in doc["attackers"]] == ["Heavy warjack", "Heavy warjack 2"]
    assert all(a["weapons"] for a in doc["attackers"])
    assert D.to_scenario(doc) == loads_scenario(text)


def test_what_run_refuses_the_explorer_refuses_in_the_same_words():
    with pytest.raises(ScenarioFileError) as err:
        D.from_toml("target = { def = 12, arm = 99, boxes = 5 }\n[[attackers]]\ncard = 'solo'\n", "bad.toml")
    assert str(err.value) == "bad.toml: target.arm: must be between 0 and 50 (got 99)"
    with pytest.raises(ScenarioFileError, match="targets: the explorer edits scenarios of one target"):
        D.from_toml('[[targets]]\ncard = "solo"\n[[targets]]\ncard = "solo"\n'
                    '[[attackers]]\ncard = "solo"\n', "two_targets.toml")
    with pytest.raises(ScenarioFileError, match="invalid TOML"):
        D.from_toml("target = [", "broken.toml")


@pytest.mark.parametrize("text, value", [("17", 17), (" -3 ", -3), ("", None), ("1e6", 1_000_000),
                                         ("2.5", 2.5), ("abc", "abc"), ("1_000", 1000)])
def test_typed_numbers(text, value):
    assert D.parse_typed(text) == value


# ---------------------------------------------------------------- stages
@pytest.fixture
def exact_in_time(monkeypatch):
    """The exact try of "auto" given all the time it needs: the tests using it are about
    what the stages answer, not about the wall clock (a busy machine, e.g. the suite's other
    workers, can hold a try past the 0.5 s budget; the budget has its own test below)."""
    import mathhammer.app.stages as stages

    monkeypatch.setattr(stages, "EXACT_BUDGET", 600.0)


def test_auto_answers_a_track_exactly_and_a_card_by_monte_carlo_in_stages(exact_in_time):
    track = D.to_scenario(TRACK)
    (only,) = list(answers(track, "auto"))
    assert only.method == "exact" and only.final
    assert only.result.kill == mh.simulate(track, method="exact").kill
    grid = D.to_scenario(D.put(D.new_document(), ("simulation", "trials"), 60_000))
    first, last = answers(grid, "auto")
    assert (first.method, first.final, first.result.trials) == ("monte_carlo", False, QUICK_TRIALS)
    assert (last.final, last.result.trials) == (True, 60_000)
    # the same seed-to-result contract as simulate
    assert first.result.kill == mh.simulate(grid, trials=QUICK_TRIALS, seed=1).kill
    assert last.result.kill == mh.simulate(grid, trials=60_000, seed=1).kill


def test_an_exact_try_past_its_budget_turns_to_monte_carlo(monkeypatch):
    import mathhammer.app.stages as stages

    monkeypatch.setattr(stages, "EXACT_BUDGET", -1.0)  # every check is past it
    scen = D.to_scenario(D.put(TRACK, ("target",), {"card": "infantry_unit"}))
    got = list(answers(scen, "auto"))
    assert [a.method for a in got] == ["monte_carlo", "monte_carlo"]
    assert "exact would take over" in got[-1].note


def test_a_stop_check_stops_a_stage_where_it_stands():
    calls = []

    def stop():
        calls.append(1)
        if len(calls) > 1:
            raise Superseded

    scen = D.to_scenario(D.put(D.new_document(), ("simulation", "trials"), 2_000_000))
    with pytest.raises(Superseded):
        list(answers(scen, "monte_carlo", stop))
    assert len(calls) == 2


# ---------------------------------------------------------------- runner
def test_the_runner_computes_the_newest_value_only():
    started, published = [], []
    gate = threading.Event()

    def work(n, check):
        started.append(n)
        if n == 0:
            gate.wait(5)  # the first value is slow: the others pile up meanwhile
        for _ in range(3):
            check()
            time.sleep(0.005)
        yield n

    runner = Runner(work, lambda number, out: published.append(out))
    runner.submit(0)
    time.sleep(0.05)
    for n in range(1, 40):  # a slider dragged over 39 steps while the first runs
        runner.submit(n)
    gate.set()
    assert runner.wait(10)
    assert published == [39]          # the first is stopped at its check, stale ones dropped
    assert started == [0, 39]         # 38 values were never computed


def test_a_closed_runner_stops_and_computes_nothing_more():
    started = []

    def work(n, check):
        started.append(n)
        while True:  # stopped only by its check
            check()
            time.sleep(0.001)
        yield

    r = Runner(work, lambda number, out: None)
    r.submit(1)
    time.sleep(0.05)
    r.close()
    r.submit(2)
    assert r.wait(5)
    assert started == [1]
    deadline = time.time() + 5
    while r.alive and time.time() < deadline:
        time.sleep(0.01)
    assert not r.alive


def test_the_runner_publishes_an_error_as_its_output():
    got = []

    def work(n, check):
        raise ValueError("boom")
        yield

    r = Runner(work, lambda number, out: got.append(out))
    r.run_now(1)
    assert isinstance(got[0], ValueError)


# ---------------------------------------------------------------- the page's callbacks
pn = pytest.importorskip("panel")


def _explorer(doc=TRACK, method="auto"):
    ex = mh.explore(D.to_scenario(doc), method=method)
    assert ex.runner.wait(120)
    return ex


def _value(ex, key, value):
    ex.form.fields[key].widget.value = value
    assert ex.runner.wait(120)


def _png_shape(data: bytes):
    import matplotlib.image as mpimg

    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return mpimg.imread(io.BytesIO(data)).shape


def test_changing_arm_and_focus_updates_the_figures(exact_in_time):
    ex = _explorer()
    assert ex.last_answer.method == "exact"
    _value(ex, "target.arm", "18")
    _value(ex, "attackers[0].focus", 3)
    scen = D.to_scenario(ex.doc)
    assert scen.targets[0].arm == 18 and scen.attackers[0].focus == 3
    want = mh.simulate(scen, method="exact")
    assert ex.last_answer.result.kill == want.kill
    assert f'data-kill="{want.kill!r}"' in ex.headline.object
    assert "data-state=\"done\"" in ex.state.object
    h, w, _ = _png_shape(ex.figure.object)
    assert w > 300 and h > 200
    assert ex.attacks.object.count("<tr>") == 1 + want.n_attacks


def test_a_card_target_gets_its_grid_and_cripple_panels_by_monte_carlo():
    ex = _explorer(D.put(D.new_document(), ("simulation", "trials"), 40_000))
    res = ex.last_answer.result
    assert res.card.kind == "grid" and ex.last_answer.final and res.trials == 40_000
    assert res.kill == mh.simulate(D.to_scenario(ex.doc), trials=40_000, seed=1).kill
    grid_h, grid_w, _ = _png_shape(ex.figure.object)
    track_h, track_w, _ = _png_shape(_explorer().figure.object)
    # the damage panel, and the card's grid and cripple odds in a row under it
    assert grid_h > 1.8 * track_h and grid_w > 1.8 * track_w
    assert "95% interval" in ex.headline.object


def test_a_bad_value_is_marked_beside_its_field_and_nothing_is_computed():
    """The message names the field as the page does ("ARM", the attacker and weapon before a
    weapon's POW), and the figures of the last good values are greyed out until it is fixed."""
    ex = _explorer()
    before = ex.runner.computed
    assert "mh-stale" not in ex.shown.css_classes
    _value(ex, "target.arm", "99")
    err = ex.form.fields["target.arm"].error
    assert err.visible and "ARM: must be between 0 and 50 (got 99)" in err.object
    assert "target.arm" not in ex.message.object.replace('data-key="target.arm"', "")
    assert 'data-state="error"' in ex.state.object
    assert "mh-stale" in ex.shown.css_classes and ex.shown.styles["opacity"] == "0.35"
    _value(ex, "target.arm", "16")
    assert "mh-stale" not in ex.shown.css_classes and ex.shown.styles["opacity"] == "1"
    _value(ex, "attackers[0].weapons[0].pow", "abc")
    assert """1. Jack, Fist: POW: must be an integer or "-" (got 'abc')""" in \
        html.unescape(ex.form.fields["attackers[0].weapons[0].pow"].error.object)
    assert not ex.form.fields["target.arm"].error.visible  # the message of the value now wrong
    assert ex.runner.computed == before + 1  # ARM 16 again was computed, the two bad values not
    _value(ex, "attackers[0].weapons[0].pow", "14")
    _value(ex, "target.arm", "")  # blank: the key goes, the track needs it
    assert "ARM: required key is missing" in ex.form.fields["target.arm"].error.object


def test_a_value_being_typed_is_read_as_it_is_typed():
    """Each key sends the text typed so far: one the scenario accepts is read at once (the
    newest winning), one it refuses ("", "-" on the way to a number) only once no key has
    come for TYPING_PAUSE seconds, and Enter after that changes nothing."""
    from mathhammer.app.view import TYPING_PAUSE

    ex = _explorer()
    widget = ex.form.fields["target.arm"].widget
    widget.value_input = ""
    assert not ex.form.fields["target.arm"].error.visible  # not yet: still typing
    for text in ("1", "17"):
        widget.value_input = text
    assert ex.runner.wait(120)
    assert D.to_scenario(ex.doc).targets[0].arm == 17
    assert ex.last_answer.result.kill == mh.simulate(D.to_scenario(ex.doc), method="exact").kill
    before = ex.runner.computed
    widget.value = "17"  # Enter, or leaving the field
    assert ex.runner.wait(120) and ex.runner.computed == before
    widget.value_input = "-"
    time.sleep(TYPING_PAUSE + 0.5)  # typing paused on a value the reader refuses: its message
    assert ex.form.fields["target.arm"].error.visible and "mh-stale" in ex.shown.css_classes


def test_rules_are_check_boxes_or_typed_names():
    """A short list of names is check boxes (nothing to paste into); a long one is typed,
    comma-separated, in words or as a file writes it, and a name the reader does not know is
    refused with the closest one suggested, never replaced by another."""
    from mathhammer.app.controls import names_typed

    ex = _explorer()
    boxes = ex.form.fields["target.rules"].widget
    assert isinstance(boxes, pn.widgets.CheckBoxGroup) and "tough" in boxes.options.values()
    _value(ex, "target.rules", ["tough"])
    assert D.to_scenario(ex.doc).targets[0].rules == frozenset({"tough"})
    _value(ex, "attackers[0].weapons[0].rules", "Critical Knockdown, fire")
    assert D.to_scenario(ex.doc).attackers[0].weapons[0].rules == frozenset({"critical_knockdown", "fire"})
    _value(ex, "attackers[0].weapons[0].rules", "tough")
    err = html.unescape(ex.form.fields["attackers[0].weapons[0].rules"].error.object)
    assert "1. Jack, Fist: Rules: must be one of" in err and "(got 'tough')" in err
    assert names_typed(" , ") is None and names_typed("ice-cage") == ["ice_cage"]


def test_dragging_a_slider_computes_far_fewer_values_than_it_sends():
    doc = D.put(D.new_document(), ("simulation", "trials"), 400_000)
    ex = _explorer(doc, method="monte_carlo")
    before = ex.runner.computed
    for v in [0, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5] * 2:
        ex.form.fields["attackers[0].focus"].widget.value = v
    assert ex.runner.wait(120)
    assert ex.runner.computed - before < 24
    assert D.to_scenario(ex.doc).attackers[0].focus == 5
    assert ex.last_answer.final
    assert ex.last_answer.result.kill == mh.simulate(D.to_scenario(ex.doc), trials=400_000, seed=1).kill


def test_picking_cards_adding_and_removing_attackers():
    ex = _explorer()
    ex.pick_target("light_warjack")
    assert ex.doc["target"] == {"card": "light_warjack"}
    ex.add_attacker()
    assert [a.name for a in D.to_scenario(ex.doc).attackers] == ["Jack", "Light warjack"]
    ex.pick_attacker(0, "heavy_warjack", None)
    assert ex.origins[:1] == ["heavy_warjack"]
    ex.remove_attacker(1)
    ex.remove_attacker(0)  # the last one stays, with a message
    assert len(ex.doc["attackers"]) == 1 and "one attacker at least" in ex.message.object
    assert ex.runner.wait(120)
    assert ex.last_answer.result.card.kind == "grid"


def test_download_and_load_back(exact_in_time):
    ex = _explorer()
    _value(ex, "target.arm", "17")
    text = ex.toml_file().getvalue()
    assert loads_scenario(text) == D.to_scenario(ex.doc)
    kill = ex.last_answer.result.kill
    _value(ex, "target.arm", "19")
    assert ex.last_answer.result.kill != kill
    assert ex.load_toml(text, "mine.toml")
    assert ex.runner.wait(120)
    assert ex.last_answer.result.kill == kill
    assert ex.form.fields["target.arm"].widget.value == "17"
    # a file run would refuse: its message beside the field, the page as it was
    assert not ex.load_toml("target = { def = 12 }\n", "bad.toml")
    assert "bad.toml: target.arm: required key is missing" in ex.upload_message.object
    assert D.to_scenario(ex.doc).targets[0].arm == 17
    ex.upload.filename = "binary.toml"
    ex.upload.value = b"\xff\xfe\x00"
    assert "binary.toml: not a text file" in ex.upload_message.object
    assert "not a text file" in ex.upload_message.object


def test_the_explorer_refuses_a_bad_method_or_scenario():
    with pytest.raises(mh.InputError, match="method: must be one of auto, exact, monte_carlo"):
        mh.explore(method="fast")
    with pytest.raises(mh.InputError, match="scenario: must be a mathhammer.Scenario"):
        mh.explore("x.toml")


def test_the_notebook_shows_the_page():
    ex = _explorer()
    bundle = ex._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert any("html" in k or "bokeh" in k for k in data)


# ---------------------------------------------------------------- the command
def test_importing_mathhammer_imports_no_panel():
    code = "import sys, mathhammer; print('panel' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("argv, message", [
    (["app", "--port", "abc"], "argument --port: must be an integer (got 'abc')"),
    (["app", "--port", "70000"], "argument --port: must be between 0 and 65535 (got '70000')"),
    (["app", "missing.toml"], "missing.toml"),
    (["app", "--host", "no..such..host", "--no-browser"], "--host: is not an address of this machine"),
])
def test_app_flags_are_checked(argv, message, tmp_path):
    out = subprocess.run([sys.executable, "-m", "mathhammer", *argv], capture_output=True, text=True,
                         cwd=tmp_path, timeout=120)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and message in out.stderr and "Traceback" not in out.stderr


def test_without_panel_the_explorer_says_how_to_get_it(monkeypatch):
    import importlib.util

    import mathhammer.explorer as gate

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "panel" else real(name, *a))
    with pytest.raises(mh.MathhammerError, match=r"pip install 'mathhammer\[app\]'"):
        gate.explore()


def test_a_reused_layout_draws_the_picture_a_fresh_layout_draws():
    """render.figure_png keeps the constrained layout of a figure's shape: the second figure
    of the same shape, drawn on it, is pixel for pixel the one a fresh layout gives."""
    import matplotlib.image as mpimg
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from mathhammer.app.render import DPI, PAGE_SCALE, figure_png
    from mathhammer.plots import main_figure

    first = mh.simulate(D.to_scenario(D.new_document()), trials=20_000, seed=1)
    second = mh.simulate(D.to_scenario(D.put(D.new_document(), ("target", "arm"), 16)), trials=20_000, seed=2)
    figure_png(first)  # the layout of this shape is worked out here
    reused = mpimg.imread(io.BytesIO(figure_png(second)))
    fig = main_figure(second, scale=PAGE_SCALE)
    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    fresh = mpimg.imread(io.BytesIO(buf.getvalue()))
    assert reused.shape == fresh.shape
    assert (reused == fresh).all()


# ---------------------------------------------------------------- typed values vs the command line
TYPED = [(key, text) for key in ("target.def", "target.arm", "target.boxes", "target.models",
                                 "attackers[0].weapons[0].skill", "attackers[0].weapons[0].pow",
                                 "attackers[0].weapons[0].attacks", "attackers[0].models",
                                 "simulation.trials", "simulation.seed")
         for text in ("abc", "-1", "99999", "2.5", "1e99", "12abc", "--3", "nan")]


@pytest.mark.parametrize("key, text", TYPED, ids=[f"{k}={t}" for k, t in TYPED])
def test_a_value_typed_in_gets_the_message_run_prints(key, text, tmp_path, capsys):
    """Whatever is typed into a number field, the page shows beside it the line `mathhammer
    run` prints for the same value in a file (without the file's name, the field named as the
    page names it), or computes it."""
    from mathhammer import cli

    ex = _explorer()
    ex.form.fields[key].widget.value = text
    assert ex.runner.wait(120)
    path = tmp_path / "typed.toml"
    path.write_text(_toml(ex.doc), encoding="utf-8")
    status = cli.main(["run", str(path), "--trials", "1000", "--no-progress"])
    out, err = capsys.readouterr()
    if status == 0:
        assert 'data-state="error"' not in ex.state.object
        return
    assert status == 2 and err.count("\n") == 1
    cli_line = err.removeprefix("mathhammer: error: ").strip().removeprefix(f"{path}: ")
    assert cli_line.startswith(f"{key}: ")
    cli_line = ex.form.fields[key].label + cli_line.removeprefix(key)
    page = html.unescape(ex.message.object)
    assert cli_line in page, (cli_line, page)
    assert "Traceback" not in page


def _toml(doc) -> str:
    from mathhammer.io.toml_write import dumps

    return dumps(doc)


def test_a_battlegroup_gets_its_turn_planned_on_the_page():
    """A warcaster's battlegroup (its controls chosen on the page): the answer gains "Plan the
    turn", the best plan and its figures as plan_turn gives them; dropping the battlegroup
    drops the section."""
    from mathhammer.play.turn import plan_turn

    doc = D.put(D.new_document(), ("target",), {"def": 13, "arm": 17, "boxes": 12})
    staff = {"name": "Staff", "type": "melee", "skill": 7, "pow": 14}
    fist = {"name": "Fist", "type": "melee", "skill": 6, "pow": 16}
    doc = D.put(doc, ("attackers",), [{"name": "Caster", "model": "other", "focus": 2, "weapons": [staff]},
                                      {"name": "Jack", "focus": 1, "weapons": [fist]}])
    ex = _explorer(doc)
    assert "attackers[0].controls" in ex.form.fields and "attackers[1].controls" not in ex.form.fields
    assert ex.plan.object == ""
    _value(ex, "attackers[0].controls", ["Jack"])
    want = plan_turn(D.to_scenario(ex.doc))
    assert "Plan the turn" in ex.plan.object and f'data-value="{want.best.value!r}"' in ex.plan.object
    assert "against the file&#x27;s plan" in ex.plan.object and 'data-state="done"' in ex.state.object
    assert "the turn planned" in ex.state.object
    _value(ex, "attackers[0].controls", [])
    assert ex.plan.object == ""
    _value(ex, "attackers[0].controls", ["Jack"])
    ex.add_attacker()
    assert ex.runner.wait(120)
    ex.remove_attacker(1)  # the warjack leaves: the battlegroup no longer names it
    assert ex.runner.wait(120)
    assert "controls" not in ex.doc["attackers"][0] and ex.plan.object == ""


def test_the_app_restarted_at_once_on_its_port_serves_again():
    """``mathhammer app --port N`` stopped and started again at once, four times in a row,
    serves every time: the connections of the page just served, still closing on port N, do
    not make the port "in use" (only another program listening there does)."""
    import os
    import socket
    import urllib.request

    pytest.importorskip("panel")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, BROWSER="true", MPLBACKEND="Agg")
    for run in range(4):
        proc = subprocess.Popen([sys.executable, "-m", "mathhammer", "app", "--port", str(port), "--no-browser"],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            page, began = None, time.monotonic()
            while page is None and proc.poll() is None and time.monotonic() - began < 120:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                        page = r.read().decode("utf-8", "replace")
                except OSError:
                    time.sleep(0.3)
            if page is None:
                proc.terminate()
                pytest.fail(f"run {run + 1}: nothing served on port {port}: {proc.communicate(timeout=20)[0][-500:]}")
            assert "<title>mathhammer explorer</title>" in page
        finally:
            proc.terminate()
            proc.wait(20)

"""The explorer's page (``mathhammer app``) driven in a real headless browser.

Chromium comes from the system packages (``.ci/run`` installs it when missing) and is driven
by Playwright (``playwright`` of the test extra, with the system's Chromium: no browser is
downloaded). Without Chromium the test is skipped, unless ``MATHHAMMER_REQUIRE_BROWSER`` is
set (as CI sets it), where a missing browser fails.

The test does what a player does: starts from a scenario file of a plain damage track, picks
a heavy warjack against a heavy warjack, changes ARM and the attacker's focus, asks for exact
figures, and reads the kill probability; downloads the scenario, runs ``mathhammer run
--method exact`` on the file, and finds the same figure; changes a value, loads the file
back, and sees the downloaded figures again. It saves a screenshot of the page.

At a phone's size (390 x 844), on a page served to the network (``mathhammer app --host``)
and opened at the address its warning gives: the kill probability within the first screen,
nothing wider than the screen, and every control within its width.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("panel")
playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    if os.environ.get("MATHHAMMER_REQUIRE_BROWSER"):
        raise RuntimeError("MATHHAMMER_REQUIRE_BROWSER is set but no chromium is on PATH")
    pytest.skip("no system Chromium (apt-get install chromium)", allow_module_level=True)

#: Chromium's flags on a machine with no network out and no sandbox for root.
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage"]
#: Seconds a step may take: the first Monte Carlo run of a fresh checkout compiles kernels.
SLOW = 240_000

START = """\
target = { name = "Practice dummy", def = 12, arm = 16, boxes = 20 }
[[attackers]]
name = "Trooper"
weapons = [{ name = "Sword", type = "melee", skill = 6, pow = 10 }]
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("app")
    start = folder / "start.toml"
    start.write_text(START, encoding="utf-8")
    port = _free_port()
    log = open(folder / "server.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "mathhammer", "app", str(start), "--port", str(port),
                             "--no-browser"], stdout=log, stderr=subprocess.STDOUT, cwd=folder)
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.3)
    else:
        proc.kill()
        pytest.fail("the app did not start: " + (folder / "server.log").read_text())
    assert proc.poll() is None, (folder / "server.log").read_text()
    yield f"http://127.0.0.1:{port}/", folder
    proc.terminate()
    proc.wait(10)
    log.close()


def _request(page) -> int:
    """The number of the newest change the page has read."""
    return int(page.locator(".mh-status").get_attribute("data-request"))


def _done(page, after: int, method: str = "exact") -> float:
    """Wait until the page has read a change after number ``after`` and is up to date by
    ``method``; return its kill probability."""
    deadline = time.time() + SLOW / 1000
    status = page.locator(".mh-status")
    while time.time() < deadline:
        if (status.get_attribute("data-state") == "done" and _request(page) > after
                and page.locator(".mh-kill").get_attribute("data-method") == method):
            return float(page.locator(".mh-kill").get_attribute("data-kill"))
        time.sleep(0.1)
    pytest.fail(f"the page did not settle: {status.inner_text()}")


def _settled(page, after: int, method: str = "exact") -> float:
    """:func:`_done`, then no newer change for a second and the page up to date by ``method``:
    a loaded file changes several fields at once, and an answer to the first of them may be
    up to date before the others are read (the last change read may still be at work: it is
    waited for, not a change after it)."""
    _done(page, after, method)
    deadline = time.time() + SLOW / 1000
    status = page.locator(".mh-status")
    while time.time() < deadline:
        seen = _request(page)
        time.sleep(1.0)
        if (_request(page) == seen and status.get_attribute("data-state") == "done"
                and page.locator(".mh-kill").get_attribute("data-method") == method):
            return float(page.locator(".mh-kill").get_attribute("data-kill"))
    pytest.fail(f"the page kept changing after the file was loaded: {status.inner_text()}")


def _type(page, css: str, text: str) -> None:
    field = page.locator(f"{css} input")
    field.fill(text)
    field.press("Enter")


def _run_exact(path: Path) -> dict:
    out = subprocess.run([sys.executable, "-m", "mathhammer", "run", str(path), "--method", "exact",
                          "--json", "--no-progress"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_page_matches_the_command_line(server):
    url, folder = server
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1400, "height": 1200}, accept_downloads=True)
        page.goto(url)
        # the start file's damage track: answered exactly at once ("auto")
        _done(page, 0)
        assert page.locator(".mh-target-card select").input_value() == "(damage track)"

        # a heavy warjack against a heavy warjack
        n = _request(page)
        page.locator(".mh-target-card select").select_option("heavy_warjack")
        page.wait_for_selector(".mh-field-target\\.arm input[placeholder='18']", timeout=SLOW)
        page.locator(".mh-attacker-card-0 select").select_option("heavy_warjack")
        page.wait_for_selector(".mh-field-attackers\\[0\\]\\.weapons\\[1\\]\\.pow", timeout=SLOW)
        _done(page, n + 1, "monte_carlo")  # a card's grid: Monte Carlo first
        # ARM 17, and the attacker's focus from its card's 3 down to 2 (the slider, by keyboard)
        _type(page, ".mh-field-target\\.arm", "17")
        handle = page.locator(".mh-field-attackers\\[0\\]\\.focus .noUi-handle")
        handle.focus()
        handle.press("ArrowLeft")
        n = _request(page)
        page.get_by_role("button", name="Exact").click()
        kill = _done(page, n)
        assert 0.0 < kill < 1.0

        # a bad value: the reader's message beside the field, nothing computed
        _type(page, ".mh-field-target\\.arm", "99")
        error = page.locator(".mh-error[data-key='target.arm']")
        error.wait_for(timeout=SLOW)
        assert error.inner_text().strip() == "ARM: must be between 0 and 50 (got 99)"
        # the old figures greyed out (a change of its own, which may land a frame after the message)
        playwright_api.expect(page.locator(".mh-shown.mh-stale")).to_have_count(1, timeout=SLOW)
        assert page.locator(".mh-status").get_attribute("data-state") == "error"
        assert "Traceback" not in page.content()
        n = _request(page)
        _type(page, ".mh-field-target\\.arm", "17")
        assert _done(page, n) == kill
        assert error.count() == 0 or not error.is_visible()
        playwright_api.expect(page.locator(".mh-shown.mh-stale")).to_have_count(0, timeout=SLOW)
        playwright_api.expect(page.locator(".mh-shown")).to_have_css("opacity", "1", timeout=SLOW)

        # the downloaded file, run on the command line, gives the same figures
        with page.expect_download() as info:
            page.locator(".mh-download button").click()
        saved = folder / "downloaded.toml"
        info.value.save_as(saved)
        text = saved.read_text(encoding="utf-8")
        assert 'card = "heavy_warjack"' in text and "arm = 17" in text and "focus = 2" in text
        cli = _run_exact(saved)
        assert cli["method"] == "exact"
        assert cli["kill"] == pytest.approx(kill, abs=1e-12)
        damage = float(page.locator(".mh-damage").get_attribute("data-damage"))
        assert damage == pytest.approx(cli["damage_mean"], abs=1e-9)

        # change a value (the figures move), then load the file back: the file's figures again
        n = _request(page)
        _type(page, ".mh-field-target\\.arm", "19")
        moved = _done(page, n)
        assert moved < kill
        n = _request(page)
        page.locator(".mh-upload input[type=file]").set_input_files(str(saved))
        page.locator(".mh-upload-message .mh-msg[data-state=done]").wait_for(timeout=SLOW)
        loaded = _settled(page, n)
        # the loaded file's controls: Bokeh builds a new form's views asynchronously, so on a
        # busy machine the figures (a small patch of the headline) can be drawn before it
        playwright_api.expect(page.locator(".mh-field-target\\.arm input")).to_have_value("17", timeout=SLOW)
        assert loaded == pytest.approx(cli["kill"], abs=1e-12)
        damage = float(page.locator(".mh-damage").get_attribute("data-damage"))
        assert damage == pytest.approx(cli["damage_mean"], abs=1e-9)
        page.screenshot(path=str(folder / "explorer.png"), full_page=True)
        shot = os.environ.get("MATHHAMMER_SCREENSHOT")
        if shot:
            shutil.copy(folder / "explorer.png", shot)
        browser.close()


@pytest.fixture(scope="module")
def on_the_network(tmp_path_factory):
    """``mathhammer app --host`` (every interface) on a free port; the URL its warning says to
    open from a phone."""
    folder = tmp_path_factory.mktemp("host")
    log_path = folder / "server.log"
    log = open(log_path, "w")
    proc = subprocess.Popen([sys.executable, "-m", "mathhammer", "app", "--host", "--port", "0", "--no-browser"],
                            stdout=log, stderr=subprocess.STDOUT, cwd=folder)
    url = None
    deadline = time.time() + 120
    while time.time() < deadline and url is None:
        found = re.search(r"from a phone: (http://\S+:(\d+)/)", log_path.read_text())
        if found and proc.poll() is None:
            try:
                with socket.create_connection(("127.0.0.1", int(found.group(2))), timeout=1):
                    url = found.group(1)
            except OSError:
                pass
        if proc.poll() is not None:
            break
        time.sleep(0.3)
    if url is None:
        proc.kill()
        pytest.fail("the app did not start on the network: " + log_path.read_text())
    text = log_path.read_text()
    assert "warning: serving on 0.0.0.0:" in text and "anyone on your network" in text
    yield url, folder
    proc.terminate()
    proc.wait(10)
    log.close()


PHONE = {"width": 390, "height": 844}


def test_on_a_phone_the_answer_comes_first_and_every_control_is_in_reach(on_the_network):
    url, folder = on_the_network
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        page.goto(url)
        _done(page, 0, "monte_carlo")  # the heavy warjack's grid
        kill = page.locator(".mh-kill").bounding_box()
        assert kill is not None and 0 <= kill["x"] and kill["x"] + kill["width"] <= PHONE["width"]
        assert kill["y"] + kill["height"] <= PHONE["height"], kill  # in the first screen
        figure = page.locator(".mh-figure img").bounding_box()
        assert figure is not None and figure["width"] <= PHONE["width"]
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=str(folder / "explorer_phone.png"))  # the first screen
        controls = page.locator(".mh-controls input, .mh-controls select, .mh-controls button")
        assert controls.count() > 30
        for k in range(controls.count()):
            box = controls.nth(k).bounding_box()
            if box is None:  # a control not shown (the file field's own input)
                continue
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, (k, box)
        # a control far down the page is usable: the Exact button, then the kill is exact
        n = _request(page)
        page.get_by_role("button", name="Exact").click()
        assert 0.0 < _done(page, n) < 1.0
        shot = os.environ.get("MATHHAMMER_PHONE_SCREENSHOT")
        if shot:
            shutil.copy(folder / "explorer_phone.png", shot)
        browser.close()

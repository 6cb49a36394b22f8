#!/usr/bin/env python
"""The explorer's page in a real browser: from a value entered to the final answer drawn.

Run from the repository root (needs the ``app`` and ``test`` extras and a system Chromium)::

    .venv/bin/python benchmarks/bench_app.py              # 9 changes on a grid, 9 on a track
    .venv/bin/python benchmarks/bench_app.py --changes 15

It serves ``mathhammer app`` on a free port, opens the page in headless Chromium at desktop
size, and on each of two scenarios, a heavy warjack against a heavy warjack's grid (Monte
Carlo, the page's default) and a damage track of 28 boxes (exact), types a new ARM key by key
(no Enter: the page reads a value as it is typed), then waits until the page says it is up to
date with that value, its figure drawn. Printed per scenario: the median and the slowest wait
(seconds, measured in this process from the last key to the page's final state), the median of
what the page's status line says the player waited, and the target (the median at most 1 s
on a grid, 0.3 s on a track). The first change of each scenario is a warm-up and is not
counted.
"""

from __future__ import annotations

import argparse
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The median wait each scenario must keep within, seconds.
TARGETS = {"grid": 1.0, "track": 0.3}
TRACK = """\
target = { name = "Heavy track", def = 12, arm = 18, boxes = 28 }
[[attackers]]
name = "Heavy warjack"
focus = 3
weapons = [{ name = "Fist", type = "melee", skill = 6, pow = 17, attacks = 2 }]
"""
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
        "--disable-background-networking"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(folder: Path, scenario: Path | None) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    cmd = [sys.executable, "-m", "mathhammer", "app", "--port", str(port), "--no-browser"]
    proc = subprocess.Popen(cmd + ([str(scenario)] if scenario else []), cwd=folder,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, f"http://127.0.0.1:{port}/"
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the app did not start")


def _settled(page, after: int, timeout: float = 300.0) -> str:
    """Wait until the page has read a change after number ``after`` and is up to date; return
    its status line."""
    status = page.locator(".mh-status")
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if (status.get_attribute("data-state") == "done"
                and int(status.get_attribute("data-request")) > after):
            return status.inner_text()
        time.sleep(0.005)
    raise SystemExit(f"the page did not settle: {status.inner_text()}")


def measure(browser, url: str, changes: int) -> tuple[list[float], list[float]]:
    """Waits and the status line's times of ``changes`` ARM values entered (the first not kept)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(url)
    _settled(page, 0)
    field = page.locator(".mh-field-target\\.arm input")
    waits, said = [], []
    for k in range(changes + 1):
        n = int(page.locator(".mh-status").get_attribute("data-request"))
        field.click()
        field.press("Control+a")
        field.press_sequentially(str(15 + k % 5))  # the page reads each key's text
        began = time.perf_counter()
        line = _settled(page, n)
        waited = time.perf_counter() - began
        if k:
            waits.append(waited)
            found = re.search(r"([0-9.]+) s\)", line)
            said.append(float(found.group(1)) if found else float("nan"))
        time.sleep(0.3)  # the next change starts from a quiet page
    page.close()
    return waits, said


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--changes", type=int, default=9, help="values entered per scenario (default 9)")
    args = p.parse_args(argv)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("no system Chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    missed = 0
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        folder = Path(tmp)
        track = folder / "track.toml"
        track.write_text(TRACK, encoding="utf-8")
        browser = pw.chromium.launch(executable_path=chromium, args=ARGS, headless=True)
        print(f"explorer page: a value entered to the final answer drawn  {time.strftime('%Y-%m-%d')}  "
              f"({args.changes} changes each, Chromium headless, 1400x1000)")
        print(f"  {'scenario':<8}{'median s':>10}{'slowest s':>11}{'status says':>13}{'target':>9}")
        for name, scenario in (("grid", None), ("track", track)):
            proc, url = _serve(folder, scenario)
            try:
                waits, said = measure(browser, url, args.changes)
            finally:
                proc.terminate()
                proc.wait(10)
            median = statistics.median(waits)
            met = median <= TARGETS[name]
            missed += not met
            print(f"  {name:<8}{median:10.2f}{max(waits):11.2f}{statistics.median(said):13.2f}"
                  f"{TARGETS[name]:8.1f}{'' if met else '  MISS'}")
        browser.close()
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

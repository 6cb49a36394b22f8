"""Every code block of README.md and docs/*.md runs as written (tests/doc_blocks.py says how
each fence language is read).

Each block runs in its own temporary folder holding a copy of ``examples/`` (the files the
blocks name), with this checkout first on ``PYTHONPATH`` and matplotlib on Agg: Python blocks
as scripts in a fresh interpreter, shell blocks command by command through bash, with
``mathhammer`` and ``python`` on ``PATH`` meaning this interpreter (``python -m mathhammer``).
``make`` targets are checked with ``make -n`` in the checkout (they install packages, and
``make test`` is this suite). TOML blocks are read by the scenario reader unless marked as
fragments; output blocks are not run. Failures name the block as ``DOC:LINE``.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import urllib.request
from collections import Counter

import pytest

from doc_blocks import NOT_RUN, ROOT, Block, DocBlockError, all_blocks, parse
from mathhammer.io.scenario_files import loads_scenario

BLOCKS = all_blocks()
#: Seconds one block may take (the whole module stays near two minutes on two cores).
TIMEOUT = 300


def _wrappers(folder) -> None:
    """``mathhammer``, ``python`` and ``make`` in ``folder``, as the documents mean them."""
    folder.mkdir()
    python = shlex.quote(sys.executable)
    make = shutil.which("make")                          # found before .bin is on PATH
    scripts = {
        "mathhammer": f'exec {python} -m mathhammer "$@"',
        "python": f'exec {python} "$@"',
        "make": (f'exec {shlex.quote(make)} --dry-run --directory {shlex.quote(str(ROOT))} "$@"'
                 if make else 'echo "make: not installed" >&2; exit 127'),
    }
    for name, body in scripts.items():
        path = folder / name
        path.write_text(f"#!/bin/sh\n{body}\n")
        path.chmod(0o755)


@pytest.fixture
def workdir(tmp_path):
    """A folder holding a copy of examples/, and the environment the blocks run in."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    _wrappers(tmp_path / ".bin")
    env = dict(os.environ)
    env.pop("MATHHAMMER_CARDS", None)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["PATH"] = os.pathsep.join([str(tmp_path / ".bin"), env.get("PATH", "")])
    env["MPLBACKEND"] = "Agg"
    return tmp_path, env


def _report(block: Block, what: str, proc: subprocess.CompletedProcess) -> str:
    tail = (proc.stdout[-2000:] + proc.stderr[-4000:]).rstrip()
    return f"{block.id}: {what} exited with status {proc.returncode}\n{tail}"


def _run_python(block: Block, folder, env) -> None:
    script = folder / "block.py"
    script.write_text(block.text, encoding="utf-8")
    proc = subprocess.run([sys.executable, str(script)], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, _report(block, "the script", proc)
    # a script that ends well but logs a traceback (a Dask worker failing to start) fails too
    assert "Traceback" not in proc.stderr, _report(block, "the script", proc)


def _run_shell(block: Block, folder, env) -> None:
    for command in block.commands():
        proc = subprocess.run(["bash", "-c", command], cwd=folder, env=env,
                              capture_output=True, text=True, timeout=TIMEOUT)
        assert proc.returncode == block.status, _report(block, repr(command), proc)
        if block.status:
            assert "Traceback" not in proc.stderr, _report(block, repr(command), proc)


def _read_scenario(block: Block, folder, env) -> None:
    loads_scenario(block.text, source=block.id, base=folder / "examples")


def _run_serving(block: Block, folder, env) -> None:
    """Each command serves a page on the ``--port`` it names: started (no browser opened),
    it must answer there with the page, then it is stopped."""
    for command in block.commands():
        port = re.search(r"--port[ =](\d+)", command)
        assert port, f"{block.id}: a serving command names its --port: {command!r}"
        url = f"http://127.0.0.1:{port.group(1)}/"
        proc = subprocess.Popen(["bash", "-c", "exec " + command], cwd=folder,
                                env={**env, "BROWSER": "true"}, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        try:
            deadline = time.time() + TIMEOUT
            page = None
            while page is None and time.time() < deadline and proc.poll() is None:
                try:
                    with urllib.request.urlopen(url, timeout=5) as r:
                        page = r.read().decode("utf-8", "replace")
                except OSError:
                    time.sleep(0.5)
            assert page is not None, f"{block.id}: {command!r} served nothing on {url}"
            assert "<title>mathhammer explorer</title>" in page, f"{block.id}: not the explorer"
        finally:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()


RUNNERS = {"python": _run_python, "shell": _run_shell, "scenario": _read_scenario,
           "serving": _run_serving}


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.kind not in NOT_RUN],
                         ids=lambda b: b.id)
def test_block_runs(block, workdir):
    """The block does what it says: it runs (or is read) without an error."""
    folder, env = workdir
    RUNNERS[block.kind](block, folder, env)


def test_every_block_is_run_or_a_listed_kind():
    """No block is left out unnoticed: each is run, or is output or a marked TOML fragment,
    and the documents hold blocks of each kind that is run."""
    kinds = Counter(b.kind for b in BLOCKS)
    assert set(kinds) <= set(RUNNERS) | set(NOT_RUN)
    assert all(kinds[k] for k in RUNNERS), kinds


# ---------------------------------------------------------------- how blocks are read

def test_a_fence_without_a_language_is_refused():
    with pytest.raises(DocBlockError, match=r"x.md:2: a fence without a language"):
        parse("text\n```\nmathhammer demo\n```\n", "x.md")


def test_an_unknown_fence_language_is_refused():
    with pytest.raises(DocBlockError, match=r"x.md:1: unknown fence language 'yaml'"):
        parse("```yaml\na: 1\n```\n", "x.md")


def test_a_marker_on_a_block_it_does_not_apply_to_is_refused():
    with pytest.raises(DocBlockError, match=r"x.md:3: marker 'fragment' does not apply"):
        parse("<!-- doc-test: fragment -->\n\n```python\nprint(1)\n```\n", "x.md")


def test_markers_name_fragments_and_error_statuses():
    doc = ("<!-- doc-test: fragment -->\n```toml\nfocus = 4\n```\n"
           "<!-- doc-test: exit 2 -->\n```console\n$ mathhammer run nothing.toml\n"
           "mathhammer: error: ...\n```\n```text\nsome output\n```\n")
    fragment, error, output = parse(doc, "x.md")
    assert (fragment.kind, fragment.line) == ("fragment", 2)
    assert (error.kind, error.status, error.commands()) == ("shell", 2,
                                                              ["mathhammer run nothing.toml"])
    assert output.kind == "output" and output.id == "x.md:10"


def test_commands_join_continuations_and_drop_output_and_comments():
    console = parse("```console\n$ mathhammer run a.toml \\\n      --seed 1\nKill: 50%\n"
                    "$ mathhammer demo\n```\n", "x.md")[0]
    assert console.commands() == ["mathhammer run a.toml \\\n      --seed 1", "mathhammer demo"]
    bash = parse("```bash\n# a comment\nmake demo   # install, then run\n\nmake test\n```\n",
                 "x.md")[0]
    assert bash.commands() == ["make demo   # install, then run", "make test"]


def test_an_error_block_fails_when_the_command_succeeds(workdir):
    """The status a marker documents is checked: a command that succeeds fails the block."""
    block = parse("<!-- doc-test: exit 2 -->\n```console\n$ mathhammer --version\n```\n",
                  "x.md")[0]
    folder, env = workdir
    with pytest.raises(AssertionError, match="x.md:2"):
        _run_shell(block, folder, env)

"""Every code block of README.md and docs/*.md runs as written (tests/doc_blocks.py says how
each fence language is read).

Each block runs first in its own temporary folder holding a copy of ``examples/`` (the files
the blocks name), so that it needs no other block's files, with this checkout first on
``PYTHONPATH`` and matplotlib on Agg: Python blocks as scripts in a fresh interpreter, shell
blocks command by command through bash, with ``mathhammer`` and ``python`` on ``PATH``
meaning this interpreter (``python -m mathhammer``). ``make`` targets are checked with
``make -n`` in the checkout (they install packages, and ``make test`` is this suite). TOML
blocks are read by the scenario reader unless marked as fragments; output blocks are not run.

Then every block of the document runs a second time, in order, in one folder holding what
all of them wrote the first time (each block's folder copied in, in document order): what a
reader who pastes the document's blocks twice in a row in one folder meets. A block that
refuses a file it or an earlier block wrote (an ``out=`` without ``resume=True``, a table or
a figure without ``overwrite=True`` / ``--force``) fails there. Failures name the block as
``DOC:LINE``, and the second run as such.
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

from doc_blocks import DOCUMENTS, NOT_RUN, ROOT, Block, DocBlockError, all_blocks, parse
from mathhammer.io.scenario_files import loads_scenario

BLOCKS = all_blocks()
#: Seconds one block may take (the whole module, every block run twice, takes about three
#: minutes on two cores: the first runs 110 s, the second, whose studies resume, 70 s).
TIMEOUT = 300
#: The blocks run, by document, in document order.
RUN = {doc: [b for b in BLOCKS if b.doc == doc and b.kind not in NOT_RUN] for doc in DOCUMENTS}
#: What the test writes into a block's folder itself (not the block's output).
_OWN = {".bin", "block.py"}


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


def _folder(folder):
    """``folder`` made to hold a copy of examples/; returns it and the environment the blocks
    run in there."""
    shutil.copytree(ROOT / "examples", folder / "examples")
    _wrappers(folder / ".bin")
    env = dict(os.environ)
    env.pop("MATHHAMMER_CARDS", None)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["PATH"] = os.pathsep.join([str(folder / ".bin"), env.get("PATH", "")])
    env["MPLBACKEND"] = "Agg"
    return folder, env


@pytest.fixture
def workdir(tmp_path):
    """A folder holding a copy of examples/, and the environment the blocks run in."""
    return _folder(tmp_path)


def _merge(done, shared) -> None:
    """Copy what a block wrote in its folder ``done`` into ``shared`` (a later block's file
    replacing an earlier one's, as when a reader runs them in order in one folder)."""
    for item in done.iterdir():
        if item.name in _OWN:
            continue
        if item.is_dir():
            shutil.copytree(item, shared / item.name, dirs_exist_ok=True)
        else:
            shutil.copy2(item, shared / item.name)


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
            if page is None:  # it stopped, or never answered: what it said
                proc.terminate()
                said = proc.communicate(timeout=20)[0]
                raise AssertionError(f"{block.id}: {command!r} served nothing on {url} (exit status "
                                     f"{proc.returncode}); it said:\n{said[-2000:]}")
            assert "<title>mathhammer explorer</title>" in page, f"{block.id}: not the explorer"
        finally:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()


RUNNERS = {"python": _run_python, "shell": _run_shell, "scenario": _read_scenario,
           "serving": _run_serving}


def _run_twice(blocks: list[Block], where) -> None:
    """Run ``blocks`` each alone in a fresh folder under ``where``, then all again, in order,
    in one folder holding what they wrote (AssertionError naming the block that failed)."""
    shared, shared_env = _folder(where / "again")
    for i, block in enumerate(blocks):
        folder, env = _folder(where / f"block{i}")
        RUNNERS[block.kind](block, folder, env)
        _merge(folder, shared)
    for block in blocks:
        try:
            RUNNERS[block.kind](block, shared, shared_env)
        except AssertionError as e:
            raise AssertionError(f"second run, in the folder of the first: {e}") from None


@pytest.mark.parametrize("doc", [doc for doc in DOCUMENTS if RUN[doc]])
def test_blocks_run_then_run_again(doc, tmp_path):
    """Each block of ``doc`` does what it says: it runs (or is read) without an error, alone
    in a fresh folder. Then, in one folder holding everything the blocks wrote, every block
    runs again in order and still does: a reader may paste them twice."""
    _run_twice(RUN[doc], tmp_path)


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


def test_a_block_that_refuses_its_own_file_fails_the_second_run(tmp_path):
    """A block that writes a file it refuses to replace passes alone and fails when run
    again; a block refusing an earlier block's file fails too, naming itself."""
    doc = "```python\nopen('a.txt', 'x').write('1')\n```\n```console\n$ mathhammer --version\n```\n"
    with pytest.raises(AssertionError, match=r"second run, in the folder of the first: x.md:1: "
                                             r"the script exited with status 1"):
        _run_twice(parse(doc, "x.md"), tmp_path / "own")
    later = parse("```bash\ntouch b.txt\n```\n```python\nopen('b.txt', 'x')\n```\n", "x.md")
    with pytest.raises(AssertionError, match=r"second run, in the folder of the first: x.md:4"):
        _run_twice(later, tmp_path / "earlier")


def test_a_block_that_needs_another_blocks_file_fails(tmp_path):
    """Each block runs alone first: one that reads a file only an earlier block writes fails,
    though in one folder, in order, it would pass."""
    doc = "```bash\ntouch c.txt\n```\n```python\nopen('c.txt')\n```\n"
    with pytest.raises(AssertionError, match=r"^x.md:4: the script exited with status 1"):
        _run_twice(parse(doc, "x.md"), tmp_path)

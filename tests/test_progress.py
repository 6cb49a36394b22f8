"""Progress on stderr (issue 18, "First run and waiting"): the compile notice of a cold
kernel, the Monte Carlo bar, the exact engine's counter, and the --progress flag."""

from __future__ import annotations

import gc
import io
import time

import numba
import numpy as np
import pytest

import mathhammer as mh
from mathhammer._core import compiling, ticker
from mathhammer._core.compiling import compile_for, machine_code
from mathhammer._core.ticker import show_progress, tick, ticking
from mathhammer.cli import main
from mathhammer.errors import InputError

JACK = mh.Attacker("Jack", [mh.Weapon("Fist", "melee", skill=7, pow=16, attacks=2)])
PLAIN = mh.Scenario(mh.Target(defense=12, arm=18, boxes=20), [JACK])


def _fresh_kernel():
    """A kernel this process has never compiled (no cache: compiled at every call)."""
    @numba.njit
    def total(a, n):
        return a.sum() + n
    return total


def test_a_slow_compile_says_so_and_how_long_it_took(monkeypatch):
    monkeypatch.setattr(compiling, "NOTICE_AFTER", 0.0)
    kernel, out = _fresh_kernel(), io.StringIO()
    args = (np.zeros(3), np.int64(2))
    assert compile_for(kernel, args, "the test kernel", "about 1 s", stream=out) is True
    first, second = out.getvalue().splitlines()
    assert first == ("mathhammer: compiling the test kernel (the first run of its kind after "
                     "installing only; about 1 s)...")
    assert second.startswith("mathhammer: compiled in ") and "cache" in second
    assert kernel(*args) == 2.0
    # compiled now: the next call says nothing, however low the threshold
    again = io.StringIO()
    assert compile_for(kernel, args, "the test kernel", "about 1 s", stream=again) is False
    assert again.getvalue() == ""


def test_a_compile_under_a_shown_bar_keeps_its_clock_counting(monkeypatch, capsys):
    """Issue 18, "First run and waiting": where the run's progress bar is shown, a slow
    compile renames it and redraws it (its elapsed time counting) until the trials start."""
    monkeypatch.setattr(compiling, "NOTICE_AFTER", 0.0)
    monkeypatch.setattr(ticker, "DELAY", 0.0)
    monkeypatch.setattr(ticker, "REDRAW", 0.01)
    kernel, args = _fresh_kernel(), (np.zeros(3), np.int64(2))
    compile_ = kernel.compile

    def slow_compile(sig):  # a compile lasting long enough for the notice's thread, on a busy machine too
        time.sleep(0.1)
        return compile_(sig)

    monkeypatch.setattr(kernel, "compile", slow_compile)
    with ticking("simulate", True, unit="trial", total=10) as bar:
        assert compile_for(kernel, args, "the test kernel", "about 1 s") is True
        assert bar.desc == "simulate"  # its own name back for the trials
    err = capsys.readouterr().err
    notice = err.index("mathhammer: compiling the test kernel (the first run of its kind")
    assert notice < err.index("compiling:") < err.index("mathhammer: compiled in ")
    # drawn with the notice, then redrawn at least once while the compile went on
    assert err.count("compiling:") >= 2
    assert kernel(*args) == 2.0


def test_a_new_kernel_at_a_freed_kernels_address_is_compiled():
    """The kernels made ready are remembered by the kernel itself, not by its address: a
    kernel freed and a new one made at the same address (CPython reuses them) used to be
    taken as compiled, so its notice never came and its first call compiled unannounced."""
    args = (np.zeros(3), np.int64(2))
    seen, reused = set(), 0
    for _ in range(40):  # the address came back within ~20 kernels when this was found
        kernel = _fresh_kernel()
        reused += id(kernel) in seen
        seen.add(id(kernel))
        compile_for(kernel, args, "k", "n", stream=io.StringIO())
        assert len(kernel.overloads) == 1
        del kernel
        gc.collect(1)  # the young generations: a whole collection a kernel cost the test 50 s
        if reused >= 3:
            break
    assert reused, "no kernel was made at a freed kernel's address: the case was not made"


def test_a_quick_compile_or_cache_load_says_nothing():
    kernel, out = _fresh_kernel(), io.StringIO()
    # a kernel this small compiles well under NOTICE_AFTER (1 s)
    assert compile_for(kernel, (np.zeros(2), np.int64(1)), "k", "n", stream=out) is False
    assert out.getvalue() == ""


def _cached_kernel(folder, name: str):
    """The kernel of ``folder/cached.py``, with Numba's on-disk cache beside it: each call
    makes a new dispatcher, as a new process would, which loads what an earlier one compiled."""
    import importlib.util

    path = folder / "cached.py"
    if not path.exists():
        path.write_text("import numba\n\n\n@numba.njit(cache=True)\ndef total(a, n):\n"
                        "    return a.sum() + n\n")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.total


def _slowed(monkeypatch, kernel, seconds: float) -> None:
    """``kernel``'s compile (or load) made to take ``seconds`` more: a busy machine."""
    compile_ = kernel.compile

    def slow(sig):
        time.sleep(seconds)
        return compile_(sig)

    monkeypatch.setattr(kernel, "compile", slow)


def test_the_notice_says_compiling_only_when_numba_compiles(monkeypatch, tmp_path):
    """A load from Numba's cache is never announced as a compile, however long it takes (a
    busy machine); a compile that takes long is. What Numba does decides, not the time."""
    monkeypatch.setattr(compiling, "NOTICE_AFTER", 0.0)  # any wait is long enough
    args = (np.zeros(3), np.int64(2))
    cold, out = _cached_kernel(tmp_path, "cold"), io.StringIO()
    _slowed(monkeypatch, cold, 0.3)
    assert compile_for(cold, args, "the test kernel", "about 1 s", stream=out) is True
    assert out.getvalue().startswith("mathhammer: compiling the test kernel")
    assert sum(cold.stats.cache_misses.values()) == 1  # compiled, and written to the cache
    warm, out = _cached_kernel(tmp_path, "warm"), io.StringIO()
    _slowed(monkeypatch, warm, 0.3)
    assert compile_for(warm, args, "the test kernel", "about 1 s", stream=out) is False
    assert out.getvalue() == ""
    assert sum(warm.stats.cache_hits.values()) == 1 and not warm.stats.cache_misses  # loaded
    assert warm(*args) == 2.0


def test_another_threads_compile_is_not_this_ones(tmp_path):
    """Numba's compile events are heard by every listener: a compile in another thread (the
    explorer's, a test's) does not make this thread's wait a compile."""
    import threading

    kernel = _fresh_kernel()
    with compiling.numba_compiling() as seen:
        other = threading.Thread(target=kernel, args=(np.zeros(2), np.int64(1)))
        other.start()
        other.join()
        assert len(kernel.overloads) == 1 and not seen.is_set()
        _fresh_kernel()(np.zeros(2), np.int64(1))
        assert seen.is_set()


def test_machine_code_is_the_compiled_kernel_for_those_types():
    """What the drivers call once a kernel is ready: the machine code for the arguments'
    types, skipping Numba's typing of every argument; the dispatcher itself before."""
    kernel = _fresh_kernel()
    ints, floats = (np.arange(4), np.int64(3)), (np.ones(4), np.int64(3))
    assert machine_code(kernel, ints) is kernel
    compile_for(kernel, ints, "k", "n", stream=io.StringIO())
    code = machine_code(kernel, ints)
    assert code is not kernel and code(*ints) == kernel(*ints) == 9
    # another layout of arguments has code of its own (or none yet)
    assert machine_code(kernel, floats) is kernel
    compile_for(kernel, floats, "k", "n", stream=io.StringIO())
    other = machine_code(kernel, floats)
    assert other is not code and other(*floats) == 7.0


def test_progress_must_be_a_bool_or_none():
    with pytest.raises(InputError, match=r"^progress: must be true, false or none \(got 'yes'\)$"):
        mh.simulate(PLAIN, trials=100, seed=1, progress="yes")
    with pytest.raises(InputError, match="progress"):
        show_progress(1)


def test_auto_progress_follows_whether_stderr_is_a_terminal(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True
    monkeypatch.setattr("sys.stderr", Tty())
    assert show_progress(None) is True and show_progress(False) is False
    monkeypatch.setattr("sys.stderr", io.StringIO())
    assert show_progress(None) is False and show_progress(True) is True


def test_ticks_count_on_the_enclosing_counter_only():
    tick(3)  # outside any block: nothing to count on
    with ticking("test", True, unit="step") as bar:
        tick(2)
        tick(5)
        assert bar.n == 7
    with ticking("test", False) as none:
        tick(4)
        assert none is None


def test_monte_carlo_bar_counts_the_trials(monkeypatch, capsys):
    mh.simulate(PLAIN, trials=200_000, seed=1)  # compiled and warm
    capsys.readouterr()
    monkeypatch.setattr(ticker, "DELAY", 0.0)
    mh.simulate(PLAIN, trials=200_000, seed=1, progress=True)
    err = capsys.readouterr().err
    assert "simulate" in err and "/200k" in err and "trial" in err
    mh.simulate(PLAIN, trials=200_000, seed=1, progress=False)
    assert capsys.readouterr().err == ""


def test_exact_engine_counts_its_transitions(monkeypatch, capsys):
    monkeypatch.setattr(ticker, "DELAY", 0.0)
    focus = mh.Scenario(mh.Target(defense=12, arm=18, boxes=20),
                        [mh.Attacker("Jack", JACK.weapons, focus=2)])
    res = mh.simulate(focus, method="exact", progress=True)
    err = capsys.readouterr().err
    assert "exact" in err and "transition" in err
    # the figures do not depend on whether progress is shown
    assert res.kill == mh.simulate(focus, method="exact", progress=False).kill
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("flag, shown", [("--progress", True), ("--no-progress", False)])
def test_run_progress_flag(monkeypatch, capsys, flag, shown):
    monkeypatch.setattr(ticker, "DELAY", 0.0)
    assert main(["demo", "--trials", "100000", "--seed", "1", flag]) == 0
    assert ("simulate" in capsys.readouterr().err) is shown


# ------------------------------------------------ runs over points: a bar on a terminal only
class _Tty(io.StringIO):
    def isatty(self):
        return True


_STUDIES = {
    "sweep": lambda progress: mh.sweep(PLAIN, {"target.arm": [16, 18]}, trials=1000, seed=1,
                                       progress=progress),
    "matrix": lambda progress: mh.matrix(["light_warjack"], ["solo", "heavy_warjack"],
                                         trials=1000, seed=1, progress=progress),
}


@pytest.mark.parametrize("study", sorted(_STUDIES))
@pytest.mark.parametrize("stream, progress, shown", [
    (io.StringIO, None, False), (_Tty, None, True), (io.StringIO, True, True), (_Tty, False, False)])
def test_a_study_shows_its_bar_by_the_rule_of_every_run(monkeypatch, study, stream, progress, shown):
    """``mh.sweep`` / ``mh.matrix`` from Python: by default a bar only where stderr is a
    terminal (the rule of ``simulate``), ``True`` wherever it goes, ``False`` never."""
    monkeypatch.setattr(ticker, "DELAY", 0.0)  # a bar at once, where there is one
    err = stream()
    monkeypatch.setattr("sys.stderr", err)
    _STUDIES[study](progress)
    assert ("point" in err.getvalue()) is shown, err.getvalue()
    if not shown:
        assert err.getvalue() == ""


#: Commands whose points last over the second after which a bar appears (two to three).
_COMMANDS = {
    "sweep": ["sweep", "examples/warjack_duel.toml", "--vary", "target.arm=14:22",
              "--trials", "1000000", "--seed", "1"],
    "matrix": ["matrix", "--attackers", "heavy_warjack,light_warjack", "--targets",
               "solo,heavy_warbeast", "--vary", "attackers.0.focus=0:3", "--trials", "2000000",
               "--seed", "1"],
}


def _stderr_of(argv: list[str], terminal: bool) -> str:
    """What ``mathhammer ARGV`` writes on stderr: a pipe, or a pseudo-terminal's."""
    import os
    import select
    import subprocess
    import sys
    from pathlib import Path

    cmd = [sys.executable, "-m", "mathhammer", *argv]
    root = Path(__file__).resolve().parents[1]
    if not terminal:
        proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        return proc.stderr
    import fcntl
    import struct
    import termios

    master, slave = os.openpty()
    # a terminal of 24 x 80 (a new one has 0 columns, into which tqdm draws nothing)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen(cmd, cwd=root, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    got = bytearray()
    try:
        while True:  # read as it comes: a full terminal buffer would stop the command
            ready, _, _ = select.select([master], [], [], 1.0)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # the command ended: its side of the terminal is closed
                    break
                if not chunk:
                    break
                got += chunk
            elif proc.poll() is not None:
                break
        assert proc.wait(timeout=300) == 0, bytes(got)
    finally:
        os.close(master)
    return got.decode("utf-8", "replace")


@pytest.mark.parametrize("command", sorted(_COMMANDS))
def test_the_commands_show_a_bar_on_a_terminal_never_into_a_pipe(command):
    """``mathhammer sweep`` and ``mathhammer matrix``, as ``run``: the same command writes
    nothing into a redirected stderr and draws its bar on a terminal (which shows that it
    lasted long enough for one)."""
    err = _stderr_of(_COMMANDS[command], terminal=False)
    assert err == "", err
    assert f"{command}:" in _stderr_of(_COMMANDS[command], terminal=True)

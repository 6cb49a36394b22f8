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

"""mathhammer._core.numba_passes: the faster analyses give Numba's own results.

The replacements apply on the Numba they were checked against; a function with what the
kernels have (closures inlined, variables assigned on several paths, loops, branches)
compiles to the same LLVM IR with and without them, each call compared with Numba's own on
a copy (``MATHHAMMER_CHECK_NUMBA_PASSES``); the post-processing, the record of call types
and the builder's positioning each give what Numba's (llvmlite's) give, a generator keeping
Numba's post-processing; and a cold run of the plain kernel and of the general kernel's
basic variant in a fresh process and cache, every call of the replacements compared with
Numba's own.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap

import numba
import numpy as np
import pytest

from mathhammer._core import numba_passes as P


def test_replacements_apply_on_the_checked_numba():
    if os.environ.get("MATHHAMMER_NUMBA_PASSES") == "0":
        pytest.skip("turned off by MATHHAMMER_NUMBA_PASSES=0")
    if numba.__version__ != "0.68.1":
        pytest.skip(f"checked on Numba 0.68.1, this is {numba.__version__}")
    assert P.usable()
    assert P.numba_hash() in P.VERIFIED


def _sample(xs, k):
    """Loops, branches, a closure called on two paths, variables assigned on several, a
    store through an alias."""
    total = 0.0
    best = -1
    state = 0

    def bump(v, s):
        return v * 2 + s if s & 1 else v - s

    for i in range(xs.shape[0]):
        v = xs[i]
        if v > k:
            state |= 1
            v = bump(v, state)
        elif v < -k:
            state = 0
            v = -v
        else:
            v = bump(v, i)
        total += v
        if v > best:
            best = v
    while state < 8:
        state += 3
    out = np.zeros(2)
    view = out  # a store through an alias the end still reads
    view[0] = total
    return total, best, state, out[0]


def _llvm(check: bool, faster: bool) -> str:
    """LLVM IR of a fresh compile of :func:`_sample`."""
    fn = numba.njit(cache=False)(_sample)
    env = os.environ.get("MATHHAMMER_CHECK_NUMBA_PASSES")
    os.environ["MATHHAMMER_CHECK_NUMBA_PASSES"] = "1" if check else "0"
    try:
        if faster:
            with P.faster_passes():
                fn.compile("(float64[:], float64)")
        else:
            fn.compile("(float64[:], float64)")
    finally:
        if env is None:
            os.environ.pop("MATHHAMMER_CHECK_NUMBA_PASSES")
        else:
            os.environ["MATHHAMMER_CHECK_NUMBA_PASSES"] = env
    ir = fn.inspect_llvm(fn.signatures[0])
    xs = np.array([3.0, -9.0, 0.5, 2.5])[::2]  # the compiled layout: any strides
    assert fn(xs, 2.0) == fn.py_func(xs, 2.0)
    # Numba numbers a dispatcher's versions (in its symbols, and so in the lengths of the
    # strings naming them) and the blocks of inlined closures process-wide: the versions
    # dropped, the blocks renumbered in the order they first appear
    ir = re.sub(r"B\d+v\d+B", "<v>", ir)
    ir = re.sub(r"\[\d+ x i8\] c\"missing Environment", "[# x i8] c\"missing Environment", ir)
    names: dict = {}
    return re.sub(r"\bB\d+\b", lambda m: names.setdefault(m.group(), f"<{len(names)}>"), ir)


def test_same_llvm_ir_with_and_without():
    if not P.usable():
        pytest.skip("not a Numba the replacements were checked against")
    assert _llvm(check=True, faster=True) == _llvm(check=False, faster=False)


def test_installed_only_while_compiling_inside_the_block():
    """Installed by a compile starting inside the block (not by entering it: a kernel loaded
    from the cache pays nothing), kept to its end, nested blocks sharing one installation."""
    from llvmlite.ir import builder
    from numba.core import analysis, postproc, ssa
    from numba.core.types import functions

    def now():
        return (analysis.compute_live_map, ssa._run_ssa, postproc.PostProcessor.run,
                functions.BaseFunction.get_call_type, builder.IRBuilder.position_before)

    before = now()
    with P.faster_passes():
        entered = now()
        with P.faster_passes():  # nested: one installation
            numba.njit(cache=False)(_sample).compile("(float64[:], float64)")
            compiled = now()
        still = now()
    assert now() == before == entered
    if P.usable():
        assert compiled[:2] == (P.live_map, P.run_ssa) and compiled == still
        assert compiled[4] is P.position_before
        assert compiled[2] is not before[2] and compiled[3] is not before[3]
    else:
        assert compiled == before


def _countdown(n):
    """A generator: its post-processing is Numba's own (its analysis reads what the
    replacement leaves to a read)."""
    while n > 0:
        yield n
        n -= 1


def test_a_generator_compiles_with_numba_own_post_processing(monkeypatch):
    gen = numba.njit(cache=False)(_countdown)
    monkeypatch.setenv("MATHHAMMER_CHECK_NUMBA_PASSES", "1")  # a read of what is left raises
    with P.faster_passes():
        gen.compile("(int64,)")
    assert list(gen(3)) == [3, 2, 1]


def test_post_processor_works_out_block_entry_vars_when_read():
    """``post_processor``: what Numba's run gives the blocks' entry, on the first read."""
    from numba.core import compiler, postproc

    def fresh():
        func_ir = compiler.run_frontend(_sample)
        for block in func_ir.blocks.values():  # as after a pass: nothing worked out yet
            func_ir.block_entry_vars.pop(block, None)
        return func_ir

    theirs = postproc.PostProcessor.run
    want, got = fresh(), fresh()
    theirs(postproc.PostProcessor(want))
    P.post_processor(theirs)(postproc.PostProcessor(got))
    assert dict.__len__(got.block_entry_vars) == 0  # nothing worked out before a read
    pairs = list(zip(want.blocks.values(), got.blocks.values()))
    assert [want.get_block_entry_vars(a) for a, _ in pairs] == \
        [got.get_block_entry_vars(b) for _, b in pairs]
    assert len(pairs) > 3
    checking = fresh()
    P.post_processor(theirs, checking=True)(postproc.PostProcessor(checking))
    with pytest.raises(AssertionError, match="read"):
        checking.get_block_entry_vars(next(iter(checking.blocks.values())))


def test_call_typer_searches_once_per_argument_types():
    """``call_typer``: a second question with the same types is answered from the record,
    with the implementation key the search set; other types are searched."""
    import operator

    from numba.core import types
    from numba.core.registry import cpu_target

    context = cpu_target.typing_context
    context.refresh()
    fnty = context.resolve_value_type(operator.add)
    searches = []

    def theirs(self, ctx, args, kws):
        searches.append(args)
        return type(self).get_call_type(self, ctx, args, kws)

    typer = P.call_typer(theirs)
    first = typer(fnty, context, (types.int64, types.int64), {})
    key = fnty._impl_keys[first.args]
    fnty._impl_keys.pop(first.args)
    again = typer(fnty, context, (types.int64, types.int64), {})
    assert again == first and fnty._impl_keys[again.args] == key
    other = typer(fnty, context, (types.float64, types.int64), {})
    assert other.return_type == types.float64
    assert searches == [(types.int64, types.int64), (types.float64, types.int64)]
    checked = P.call_typer(theirs, checking=True)
    checked(fnty, context, (types.int64, types.int64), {})
    checked(fnty, context, (types.int64, types.int64), {})  # answered, then searched again
    assert len(searches) == 4


def test_position_before_places_the_builder_as_llvmlite_does():
    from llvmlite import ir

    module = ir.Module()
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), []), "f")
    block = fn.append_basic_block()
    made = ir.IRBuilder(block)
    slots = [made.alloca(ir.IntType(64)) for _ in range(4)]
    end = made.ret_void()
    for instr in (end, slots[0], slots[2]):
        mine, theirs = ir.IRBuilder(), ir.IRBuilder()
        P.position_before(mine, instr)
        theirs.position_before(instr)
        assert (mine.block, mine._anchor) == (theirs.block, theirs._anchor)
    mine = ir.IRBuilder()
    P.position_before(mine, end)
    mine.alloca(ir.IntType(8))  # goes in before the terminator, as llvmlite's would
    assert block.instructions[-1] is end and len(block.instructions) == 6


@pytest.mark.slow
def test_cold_kernels_checked_against_numba(tmp_path):
    """Every call of the replacements in a cold compile of the plain kernel and of the
    general kernel (basic variant: closures inlined, 500 variables to put in SSA form)
    compared with Numba's own (an AssertionError would end the process)."""
    if not P.usable():
        pytest.skip("not a Numba the replacements were checked against")
    script = textwrap.dedent("""
        import mathhammer as mh
        jack = mh.Attacker("Jack", [mh.Weapon("Fist", "melee", skill=7, pow=16, attacks=2)],
                           focus=2)
        target = mh.Target(defense=12, arm=18, boxes=30)
        gun = mh.Attacker("Gun", [mh.Weapon("Gun", "ranged", 5, 12)])
        plain = mh.simulate(mh.Scenario(target, [gun]), trials=2000, seed=1)
        general = mh.simulate(mh.Scenario(target, [jack]), trials=2000, seed=1, method="mc")
        print("ok", plain.kill, general.kill)
    """)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), MATHHAMMER_CHECK_NUMBA_PASSES="1")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("ok")


def _nested(n):
    """A list comprehension of list comprehensions in ``np.array``: Numba builds each row in
    a loop (``empty_inferred``) and nests it in the outer array."""
    return np.array([[i * j for j in range(3)] for i in range(n)])


def test_nested_array_fixer_runs_numba_own_only_where_it_changes_something():
    from numba.core import inline_closurecall

    theirs = inline_closurecall._fix_nested_array
    runs = []

    def counted(func_ir):
        runs.append(sum(len(b.body) for b in func_ir.blocks.values()))
        return theirs(func_ir)

    dump = lambda blocks: str([[str(s) for s in b.body] for b in blocks.values()])  # noqa: E731
    try:
        inline_closurecall._fix_nested_array = P.nested_array_fixer(counted)
        numba.njit(cache=False)(_sample).compile("(float64[:], float64)")
        assert runs == []  # none to nest: Numba's own is not run
        nested = numba.njit(cache=False)(_nested)
        assert nested(3).tolist() == [[0, 0, 0], [0, 1, 2], [0, 2, 4]]
        assert runs  # a row to nest: Numba's own, on the function
        # checking: where it skips, Numba's own runs on a copy, which must come out unchanged
        runs.clear()
        inline_closurecall._fix_nested_array = P.nested_array_fixer(counted, True, dump)
        numba.njit(cache=False)(_sample).compile("(float64[:], float64)")
        assert runs
    finally:
        inline_closurecall._fix_nested_array = theirs
    plain = numba.njit(cache=False)(_nested)
    plain.compile("(int64,)")
    faster = numba.njit(cache=False)(_nested)
    with P.faster_passes():
        faster.compile("(int64,)")
    if P.usable():
        # function versions differ in number (and so in digits: LLVM pads its "; preds"
        # comments to a column, after the label that holds them)
        strip = re.compile(r"B\d+v\d+B|\bB\d+\b|(?<=:) +(?=; preds)")
        assert strip.sub("", faster.inspect_llvm(faster.signatures[0])) == \
            strip.sub("", plain.inspect_llvm(plain.signatures[0]))

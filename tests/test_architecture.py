"""The package's architecture, read from its source (ast): imports go one way, modules stay
small, private names stay private, each layout is defined once (docs/architecture.md).

Imports inside functions count (they are imports all the same); imports under
``if TYPE_CHECKING:`` do not (they never run).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import mathhammer as mh

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "mathhammer"
#: Lines a module may have.
MAX_LINES = 400
#: Kernel files allowed beyond it: their module docstring says why, with the measurement. The
#: set may only shrink.
LONG_KERNELS: set[str] = set()


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PKG.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _walk(tree: ast.AST):
    """Every node but those under ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _type_checking(node):
            stack.extend(node.orelse)
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def _base(name: str, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` names."""
    if node.level == 0:
        return node.module or ""
    package = name if _is_package(name) else name.rpartition(".")[0]
    parts = package.split(".")
    if node.level > 1:
        parts = parts[: len(parts) - node.level + 1]
    return ".".join(parts + ([node.module] if node.module else []))


def _imports(name: str) -> list[tuple[str, str, ast.AST]]:
    """``(imported module, name imported or "", node)`` for every import of module ``name``
    that reaches a module of the package."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    out = []
    for node in _walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = alias.name
                while target and target not in MODULES:
                    target = target.rpartition(".")[0]
                if target:
                    out.append((target, "", node))
        elif isinstance(node, ast.ImportFrom):
            base = _base(name, node)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in MODULES:
                    out.append((sub, alias.name, node))
                elif base in MODULES:
                    out.append((base, alias.name, node))
    return out


IMPORTS = {name: _imports(name) for name in MODULES}
GRAPH = {name: {t for t, _, _ in IMPORTS[name] if t != name} for name in MODULES}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on, stack, out = set(), [], []
    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_the_graph_sees_function_level_imports():
    """The graph is built from every import, those inside functions too (engine imports the
    Monte Carlo engine inside its functions, so that Numba loads only when needed)."""
    assert "mathhammer.montecarlo" in GRAPH["mathhammer.engine"]
    assert "mathhammer.simulation" in GRAPH["mathhammer.studies.points"]


def test_no_import_cycles():
    cycles = _cycles(GRAPH)
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_the_cycle_finder_finds_cycles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_modules_are_small():
    long = {}
    for name, path in MODULES.items():
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            long[name] = n
    assert set(long) <= LONG_KERNELS, f"modules over {MAX_LINES} lines: {long}"
    for name in LONG_KERNELS:
        head = "\n".join(MODULES[name].read_text(encoding="utf-8").splitlines()[:30])
        assert f"over {MAX_LINES} lines" in head and "measured" in head, name


def test_no_private_name_is_imported_from_another_module():
    bad = []
    for name, imports in IMPORTS.items():
        for target, imported, node in imports:
            if imported.startswith("_") and not imported.startswith("__"):
                bad.append(f"{name}: from {target} import {imported} (line {node.lineno})")
    assert not bad, "\n".join(bad)


def test_no_private_attribute_of_another_module_is_used():
    bad = []
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = set()
        for target, imported, node in IMPORTS[name]:
            if isinstance(node, ast.Import):
                aliases |= {(a.asname or a.name).split(".")[0] for a in node.names}
            elif f"{target}" in MODULES and imported and target.endswith("." + imported):
                aliases |= {a.asname or a.name for a in node.names if a.name == imported}
        for node in _walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                bad.append(f"{name}: {node.value.id}.{node.attr} (line {node.lineno})")
    assert not bad, "\n".join(bad)


def test_kernels_are_imported_by_their_own_room_only():
    for name, targets in GRAPH.items():
        for t in targets:
            if t.startswith("mathhammer.montecarlo._kernels"):
                assert name.startswith("mathhammer.montecarlo"), (name, t)
            if t.startswith("mathhammer.sbh._kernels"):
                assert name.startswith("mathhammer.sbh"), (name, t)


def test_outputs_are_leaves():
    """Plots, the explorer and the command line read results and frames; nothing below
    imports them (the explorer is reached through the light gate mathhammer.explorer)."""
    for name, targets in GRAPH.items():
        for t in targets:
            if t.startswith("mathhammer.cli"):
                assert name.startswith("mathhammer.cli") or name == "mathhammer.__main__", (name, t)
            if t.startswith("mathhammer.plots"):
                assert name.startswith(("mathhammer.plots", "mathhammer.cli", "mathhammer.app")), (name, t)
            if t.startswith("mathhammer.app"):
                assert name.startswith(("mathhammer.app", "mathhammer.cli")) or name == "mathhammer.explorer", \
                    (name, t)


def test_panel_is_imported_by_the_explorer_s_page_only():
    """``import mathhammer`` stays light: Panel is the ``app`` extra's, imported by the page
    modules only (the gate and the command import them inside the functions that serve)."""
    page = {"mathhammer.app.controls", "mathhammer.app.view", "mathhammer.app.server"}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:  # module-level imports
            mods = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                    [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
            if any(m == "panel" or m.startswith("panel.") for m in mods):
                assert name in page, name


def test_the_root_is_the_public_face():
    tree = ast.parse(MODULES["mathhammer"].read_text(encoding="utf-8"))
    for node in tree.body:
        ok = isinstance(node, (ast.ImportFrom, ast.Import)) or (
            isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)) or (
            isinstance(node, ast.Assign)
            and {t.id for t in node.targets if isinstance(t, ast.Name)} <= {"__all__", "__version__"})
        assert ok, f"mathhammer/__init__.py line {node.lineno}: re-exports only"
    for public in mh.__all__:
        assert hasattr(mh, public), public
        # no function or class shadows a module of the same name
        assert f"mathhammer.{public}" not in MODULES, public


def test_the_entry_point_assembles_no_result():
    """Monte Carlo results are assembled in mathhammer.montecarlo.assemble, not by the
    public entry point or the engine that routes to the methods."""
    for name in ("mathhammer.simulation", "mathhammer.engine"):
        tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Name) and n.func.id == "Result"]
        assert not calls, name


def _assigned(predicate) -> dict[str, list[str]]:
    """Module-level names assigned a literal number, by module, for names ``predicate`` keeps."""
    out: dict[str, list[str]] = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.Assign) and not isinstance(node.value, ast.Name):
                for t in node.targets:
                    if isinstance(t, ast.Name) and predicate(t.id):
                        out.setdefault(name, []).append(t.id)
    return out


def test_the_chunk_scheme_is_defined_once():
    where = _assigned(lambda n: n in ("CHUNK", "BATCH", "DRAW_BLOCK", "PAD", "_PAD"))
    assert where == {"mathhammer._core.chunks": ["CHUNK", "BATCH", "DRAW_BLOCK", "PAD"]}


def test_the_counter_columns_are_defined_once():
    """SLOT_* and EFFECT_* columns get their numbers in result.fields only; the kernels'
    C_* and E_* names are those constants (assigned a name, never a number)."""
    from mathhammer.montecarlo._kernels import layout
    from mathhammer.result import fields

    columns = set(fields.__all__) | {n for n in vars(layout)
                                     if n.startswith(("C_", "E_")) and n.isupper()}
    where = _assigned(lambda n: n in columns)
    assert set(where) == {"mathhammer.result.fields"}, where

    assert (layout.C_MADE, layout.C_TOUGH, layout.C_NFIELDS) == (
        fields.SLOT_MADE, fields.SLOT_TOUGH, fields.SLOT_FIELDS)
    assert layout.N_EFFECTS == len(fields.EFFECT_NAMES)


def test_the_metric_kinds_are_defined_once():
    """Whether a metric is a probability is decided by result.metrics alone."""
    defs = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and "probab" in node.name:
                defs.append(f"{name}.{node.name}")
    assert defs == ["mathhammer.result.metrics.is_probability"]


@pytest.mark.parametrize("method", ["monte_carlo", "exact"])
def test_one_simulate_call_builds_the_attack_sequence_once(monkeypatch, method):
    from mathhammer.rules import Attacker, Scenario, Target, Weapon

    calls = []
    build = Scenario.attack_sequence

    def counted(self):
        calls.append(1)
        return build(self)

    monkeypatch.setattr(Scenario, "attack_sequence", counted)
    scen = Scenario(Target(defense=12, arm=16, boxes=8, effects={"fire"}),
                    [Attacker("A", [Weapon("Fist", "melee", 6, 12, attacks=2)], focus=1),
                     Attacker("B", [Weapon("Gun", "ranged", 5, 10)])], turns=2)
    res = mh.simulate(scen, method=method, **({} if method == "exact" else {"trials": 2000, "seed": 1}))
    assert len(calls) == 1
    assert res.slot_attacker == (0, 0, 0, 1) * 2 and res.attacker_names == ("A", "B")


def test_backends_share_one_interface():
    from mathhammer.studies.execution import Backend, make_backend
    from mathhammer.studies.execution.dask_backend import DaskBackend

    assert isinstance(make_backend(), Backend)
    for member in ("run", "__enter__", "__exit__", "name"):
        assert hasattr(DaskBackend, member), member


#: Lines a function may have, from its ``def`` to its last line (docstring included).
MAX_FUNCTION_LINES = 150
#: Functions allowed over it, each named as ``module.function``: none. The set may only
#: shrink.
LONG_FUNCTIONS: set[str] = set()


def _functions():
    """``(module.function, lines)`` of every function of the package, nested ones too."""
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield f"{name}.{node.name}", node.end_lineno - node.lineno + 1


def test_functions_are_short():
    long = {f: n for f, n in _functions() if n > MAX_FUNCTION_LINES}
    assert set(long) <= LONG_FUNCTIONS, (
        f"functions over {MAX_FUNCTION_LINES} lines: "
        f"{ {f: n for f, n in long.items() if f not in LONG_FUNCTIONS} }")
    assert set(long) == LONG_FUNCTIONS, (
        f"no longer over {MAX_FUNCTION_LINES} lines, take them off LONG_FUNCTIONS: "
        f"{sorted(LONG_FUNCTIONS - set(long))}")


#: Numba's modules a kernel may import: its public face, and the documented extension API
#: (jit options, ``numba.extending``, a custom pipeline built from its public pass classes),
#: and its documented event API (``numba.core.event``: whether Numba compiles or loads).
NUMBA_PUBLIC = {"numba", "numba.extending", "numba.typed", "numba.core.compiler",
                "numba.core.compiler_machinery", "numba.core.untyped_passes",
                "numba.core.typed_passes", "numba.core.event"}
#: Modules allowed to reach Numba's and llvmlite's internals or to assign to another
#: package's attributes: none. The set may only shrink.
REACHES_INTO_NUMBA: set[str] = set()


def _foreign_imports(name: str):
    """``(absolute module, alias bound)`` of every import of ``name`` outside the package;
    ``from numba.core import ssa`` gives ``numba.core.ssa``."""
    for node in ast.walk(ast.parse(MODULES[name].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, (a.asname or a.name).split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for a in node.names:
                yield f"{node.module}.{a.name}", a.asname or a.name


def _private_numba(module: str) -> bool:
    if not module.startswith(("numba.", "llvmlite")) or module in NUMBA_PUBLIC:
        return False
    # ``from numba.core.compiler import CompilerBase`` names a class of a public module
    return module.rpartition(".")[0] not in NUMBA_PUBLIC or module.startswith("llvmlite")


def test_no_private_module_of_numba_or_llvmlite_is_imported():
    bad = {name: sorted(m for m, _ in _foreign_imports(name) if _private_numba(m))
           for name in MODULES}
    bad = {name: mods for name, mods in bad.items() if mods}
    assert set(bad) <= REACHES_INTO_NUMBA, {n: m for n, m in bad.items()
                                            if n not in REACHES_INTO_NUMBA}
    assert set(bad) == REACHES_INTO_NUMBA, (
        "no longer reaching into Numba, take off REACHES_INTO_NUMBA: "
        f"{sorted(REACHES_INTO_NUMBA - set(bad))}")


#: Names a ``setattr`` may set attributes on: the object itself, and the namespace an argparse
#: action fills (the action's documented job).
_OWN_OBJECTS = ("self", "cls", "namespace")


def _assigns_to_other_packages(name: str) -> list[str]:
    """Lines of ``name`` that may assign to another package's attributes: an assignment or
    ``del`` on an attribute of a module imported from outside the package (or of a name a
    ``from`` import of it bound), and any ``setattr`` or ``delattr`` on an object other than
    :data:`_OWN_OBJECTS` (where the object comes from cannot be read from the source)."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    foreign = {alias for module, alias in _foreign_imports(name)
               if not module.startswith("mathhammer")}
    bad = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for t in targets:
            while isinstance(t, ast.Attribute):
                if isinstance(t.value, ast.Name) and t.value.id in foreign:
                    bad.append(f"{name}: line {node.lineno}")
                t = t.value
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("setattr", "delattr") and node.args
                and not (isinstance(node.args[0], ast.Name) and node.args[0].id in _OWN_OBJECTS)):
            bad.append(f"{name}: line {node.lineno}")
    return bad


def test_no_module_assigns_to_another_package():
    bad = {name: _assigns_to_other_packages(name) for name in MODULES}
    bad = {name: lines for name, lines in bad.items() if lines}
    assert set(bad) <= REACHES_INTO_NUMBA, {n: b for n, b in bad.items()
                                            if n not in REACHES_INTO_NUMBA}


def test_the_checks_of_other_packages_catch_what_they_look_for(tmp_path):
    """The three checks above, on a module written to break each."""
    source = ("import numba\nfrom numba.core import ssa\nimport llvmlite.ir\n"
              "ssa._run_ssa = None\nsetattr(numba, 'x', 1)\nsetattr(self, 'y', 2)\n")
    MODULES["mathhammer._probe"] = tmp_path / "probe.py"
    (tmp_path / "probe.py").write_text(source + "def f():\n" + "    x = 1\n" * 160)
    try:
        assert sorted(m for m, _ in _foreign_imports("mathhammer._probe")
                      if _private_numba(m)) == ["llvmlite.ir", "numba.core.ssa"]
        assert _assigns_to_other_packages("mathhammer._probe") == [
            "mathhammer._probe: line 4", "mathhammer._probe: line 5"]
        assert dict(_functions())["mathhammer._probe.f"] == 161
        assert not _assigns_to_other_packages("mathhammer.errors")
        assert not _private_numba("numba.core.compiler.CompilerBase")
    finally:
        del MODULES["mathhammer._probe"]

"""Every notebook in notebooks/ runs top to bottom (small trial counts) and is saved clean."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_executes(path, monkeypatch, tmp_path):
    monkeypatch.setenv("MATHHAMMER_NB_TRIALS", "20000")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_saved_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None


def test_there_is_a_notebook():
    assert NOTEBOOKS


def test_make_notebook_starts_jupyterlab_as_root_too():
    """JupyterLab refuses to start as root without --allow-root: `make notebook` adds it then
    (a dry run, nothing installed or started)."""
    import shutil
    import subprocess

    if shutil.which("make") is None:
        pytest.skip("no make on this machine")
    out = subprocess.run(["make", "-n", "notebook"], cwd=Path(__file__).resolve().parents[1],
                         capture_output=True, text=True, check=True).stdout
    start = [line for line in out.splitlines() if "jupyter lab notebooks/" in line]
    assert len(start) == 1
    assert ("--allow-root" in start[0]) == (os.geteuid() == 0)

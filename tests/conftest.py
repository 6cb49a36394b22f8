"""Fixtures shared by the test modules."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import pytest


@pytest.fixture
def agg():
    """Draw with Agg and close every figure a test opened (plot tests use it for every test:
    ``pytestmark = pytest.mark.usefixtures("agg")``)."""
    backend = matplotlib.get_backend()
    plt.switch_backend("Agg")
    yield
    plt.close("all")
    if backend.lower() != "agg":
        plt.switch_backend(backend)


# ------------------------------------------------------------------ figure fingerprints
# With MATHHAMMER_FINGERPRINT=FILE.jsonl, every test appends the hashes of every Result it
# builds (scripts/fingerprint.py compare-suite checks two such files against each other).
_FINGERPRINT = os.environ.get("MATHHAMMER_FINGERPRINT")


@pytest.fixture(autouse=True)
def _fingerprint(request):
    if not _FINGERPRINT:
        yield
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    try:
        import fingerprint
    finally:
        sys.path.pop(0)
    from mathhammer import Result

    built = []
    init = Result.__init__

    def recording_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        built.append(self)

    Result.__init__ = recording_init
    try:
        yield
    finally:
        Result.__init__ = init
    with open(_FINGERPRINT, "a") as f:
        for res in built:
            f.write(json.dumps({"test": request.node.nodeid,
                                "figures": fingerprint.result_hash(res),
                                "full": fingerprint.full_hash(res)}) + "\n")

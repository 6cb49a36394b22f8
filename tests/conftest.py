"""Fixtures shared by the test modules."""

from __future__ import annotations

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

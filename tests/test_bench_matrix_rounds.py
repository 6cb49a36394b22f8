"""benchmarks/bench_matrix.py's per-round line of the fixed cost (issue 20): each process's
own figure, lowest to highest, and the ratio of two checkouts round by round, so that a run
shows how far apart runs of the same code land before its table is read as a gain."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
bench_matrix = pytest.importorskip("bench_matrix")


def test_round_spread_and_paired_ratio(capsys):
    fc = {"per_round_cpu": {
        "before": {"track": [4.0e-4, 5.0e-4, 4.4e-4], "grid": [6.0e-4, 6.0e-4, 6.0e-4]},
        "this": {"track": [3.6e-4, 5.5e-4, 4.4e-4], "grid": [5.4e-4, 5.7e-4, 6.6e-4]},
    }}
    bench_matrix.print_round_spread(fc)
    lines = capsys.readouterr().out.splitlines()
    # track ratios by round: 0.9, 1.1, 1.0 -> median 1.00, range 0.90-1.10
    assert lines[0] == ("  track: per round, ms: before 0.400-0.500, this 0.360-0.550; "
                        "this / before round by round: median 1.00 (0.90-1.10)")
    # grid ratios: 0.9, 0.95, 1.1
    assert lines[1] == ("  grid: per round, ms: before 0.600-0.600, this 0.540-0.660; "
                        "this / before round by round: median 0.95 (0.90-1.10)")
    assert len(lines) == 2  # no spiral measured: no line


def test_one_checkout_prints_its_spread_only(capsys):
    bench_matrix.print_round_spread({"per_round_cpu": {"this": {"spiral": [5e-4, 6e-4]}}})
    assert capsys.readouterr().out == "  spiral: per round, ms: this 0.500-0.600\n"

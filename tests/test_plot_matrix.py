"""plot_matrix (mathhammer.plots): the heatmap of a balance-matrix frame.

Assertions on the artists drawn, never on pixels (Agg backend): the image holds the table of
:func:`mathhammer.matrix.pivot_matrix`, the ticks name the cards in the frame's order, the
annotations write the values.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from mathhammer.studies.matrices import matrix, pivot_matrix
from mathhammer.plots import plot_matrix

TRIALS = 20_000
SEED = 1
ATTACKERS = ["heavy_warjack", "light_warjack", "solo"]
TARGETS = ["solo", "heavy_warbeast", "infantry"]
FOCUS = "attackers.0.focus"


pytestmark = pytest.mark.usefixtures("agg")  # tests/conftest.py


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    return matrix(ATTACKERS, TARGETS, trials=TRIALS, seed=SEED, progress=False)


@pytest.fixture(scope="module")
def varied() -> pd.DataFrame:
    return matrix(["heavy_warjack"], ["solo", "infantry"], vary={FOCUS: [0, 3]},
                  trials=TRIALS, seed=SEED, progress=False)


def _image(ax) -> np.ma.MaskedArray:
    assert len(ax.images) == 1
    return np.ma.asarray(ax.images[0].get_array())


def _assert_image_is(ax, table: pd.DataFrame) -> None:
    """The image is ``table``, its missing values masked."""
    image = _image(ax)
    expect = table.to_numpy(dtype=float)
    assert image.shape == expect.shape
    missing = ~np.isfinite(expect)
    np.testing.assert_array_equal(np.ma.getmaskarray(image), missing)
    np.testing.assert_allclose(image.filled(np.nan)[~missing], expect[~missing])


def _ticks(labels) -> list[str]:
    return [t.get_text() for t in labels]


def _has_colorbar(fig) -> bool:
    return any(a.get_label() == "<colorbar>" for a in fig.axes)


def test_kill_image_ticks_colorbar_and_percent_annotations(frame):
    fig, ax = plt.subplots()
    assert plot_matrix(frame, ax=ax) is ax
    table = pivot_matrix(frame, "kill")
    _assert_image_is(ax, table)
    # first attacker at the top: row 0 of the image is drawn at the top
    assert ax.images[0].origin == "upper"
    assert ax.get_ylim()[0] > ax.get_ylim()[1]
    assert _ticks(ax.get_yticklabels()) == ATTACKERS
    assert _ticks(ax.get_xticklabels()) == TARGETS
    assert all(t.get_rotation() == 45 for t in ax.get_xticklabels())
    assert ax.get_xlabel() == "target" and ax.get_ylabel() == "attacker"
    assert ax.get_title() == "kill: attacker vs target"
    assert _has_colorbar(fig)
    values = table.to_numpy(dtype=float)
    assert [t.get_text() for t in ax.texts] == [f"{100 * v:.0f}%" for v in values.flat]
    # each annotation sits on its cell: column j, row i
    assert [t.get_position() for t in ax.texts] == [
        (j, i) for i in range(values.shape[0]) for j in range(values.shape[1])]


def test_missing_pairs_are_masked_and_not_annotated(frame):
    # only the heavy warbeast has a spiral with aspect B: the other targets lack the figure
    # against every attacker, so their columns are left out (and named under the axis)
    _fig, ax = plt.subplots()
    plot_matrix(frame, "cripple:B", ax=ax)
    table = pivot_matrix(frame, "cripple:B")
    assert table.isna().any().any() and table.notna().any().any()
    kept = table.loc[:, table.notna().any()]
    assert list(kept.columns) == ["heavy_warbeast"]
    _assert_image_is(ax, kept)
    assert _ticks(ax.get_xticklabels()) == ["heavy_warbeast"]
    assert "left out, no cripple:B: solo, infantry" in ax.get_xlabel()
    present = kept.to_numpy(dtype=float)
    present = present[np.isfinite(present)]
    assert [t.get_text() for t in ax.texts] == [f"{100 * v:.0f}%" for v in present]


def test_a_figure_no_target_has_is_one_line():
    frame = matrix(["heavy_warjack"], ["solo", "infantry"], trials=2_000, seed=SEED,
                   progress=False)
    with pytest.raises(ValueError) as info:
        plot_matrix(frame, "cripple:B")
    assert "\n" not in str(info.value)


def test_without_axes_the_figure_is_sized_to_the_labels(frame):
    """Rule (issue 18): plot_matrix at its default size clips no tick label."""
    ax = plot_matrix(frame, "kill")
    fig = ax.figure
    fig.canvas.draw()
    page = fig.bbox
    for label in ax.get_xticklabels() + ax.get_yticklabels():
        box = label.get_window_extent()
        assert box.x0 >= page.x0 - 0.5 and box.y0 >= page.y0 - 0.5
        assert box.x1 <= page.x1 + 0.5 and box.y1 <= page.y1 + 0.5
    plt.close(fig)


def test_damage_annotations_are_numbers(frame):
    fig, ax = plt.subplots()
    plot_matrix(frame, "damage_mean", ax=ax)
    table = pivot_matrix(frame, "damage_mean")
    _assert_image_is(ax, table)
    texts = [t.get_text() for t in ax.texts]
    assert texts == [f"{v:.3g}" for v in table.to_numpy(dtype=float).flat]
    assert not any(t.endswith("%") for t in texts)
    assert _has_colorbar(fig)


def test_no_annotation_and_imshow_kwargs(frame):
    _fig, ax = plt.subplots()
    plot_matrix(frame, annotate=False, cmap="magma", vmin=0.2, ax=ax)
    assert len(ax.texts) == 0
    image = ax.images[0]
    assert image.get_cmap().name == "magma"
    assert image.norm.vmin == 0.2 and image.norm.vmax == 1.0


def test_where_picks_a_parameter_value(varied):
    for focus in (0, 3):
        _fig, ax = plt.subplots()
        plot_matrix(varied, where={FOCUS: focus}, ax=ax)
        _assert_image_is(ax, pivot_matrix(varied, "kill", **{FOCUS: focus}))
        assert f"{FOCUS}={focus}" in ax.get_title()
        assert _ticks(ax.get_yticklabels()) == ["heavy_warjack"]
        assert _ticks(ax.get_xticklabels()) == ["solo", "infantry"]
    low = pivot_matrix(varied, "kill", **{FOCUS: 0}).to_numpy()
    high = pivot_matrix(varied, "kill", **{FOCUS: 3}).to_numpy()
    assert not np.allclose(low, high)


def test_errors_are_one_line_value_errors(frame, varied):
    for bad, kwargs, match in [
        (varied, {}, FOCUS),                                   # several values, none chosen
        (varied, {"where": {FOCUS: 7}}, "not a value"),
        (varied, {"where": {"target.arm": 3}}, "target.arm"),  # not a varied parameter
        (frame, {"metric": "bogus"}, "bogus"),
        (frame.drop(columns="attacker"), {}, "lacks column"),
        ([1, 2], {}, "DataFrame"),
        (frame, {"where": [1]}, "where="),
    ]:
        with pytest.raises(ValueError, match=match) as info:
            plot_matrix(bad, **kwargs)
        assert "\n" not in str(info.value)
    with pytest.raises(ValueError, match="where=") as info:
        plot_matrix(varied)
    assert FOCUS in str(info.value)


def test_draws_on_the_given_axes_or_the_current_one(frame):
    _fig, (left, right) = plt.subplots(1, 2)
    assert plot_matrix(frame, ax=right) is right
    assert len(right.images) == 1 and len(left.images) == 0
    plt.figure()
    ax = plot_matrix(frame)
    assert ax is plt.gca()
    assert len(ax.images) == 1


def test_large_matrix_shrinks_then_drops_annotations():
    rng = np.random.default_rng(0)

    def square(n):
        names = [f"card_{i:02d}" for i in range(n)]
        return pd.DataFrame([{"attacker": a, "target": t, "metric": "kill",
                              "value": rng.uniform(), "ci_low": 0.0, "ci_high": 1.0}
                             for a in names for t in names])

    sizes = {}
    for n in (3, 30):
        _fig, ax = plt.subplots(figsize=(10, 9))
        plot_matrix(square(n), ax=ax)
        assert len(ax.texts) == n * n
        sizes[n] = ax.texts[0].get_fontsize()
    assert sizes[30] < sizes[3]
    _fig, ax = plt.subplots(figsize=(10, 9))
    plot_matrix(square(41), ax=ax)
    assert len(ax.texts) == 0
    assert _ticks(ax.get_yticklabels())[0] == "card_00"

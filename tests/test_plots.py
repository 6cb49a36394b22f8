"""Plots (mathhammer.plots): assertions on the artists drawn, never on pixels (Agg backend)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgba
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.patches import Rectangle

import mathhammer as mh
from mathhammer.plots import (main_figure, plot_card, plot_cripple, plot_damage,
                              plot_kill_by_turn, plot_kill_heatmap, plot_kill_vs, save_figure,
                              write_main_figure)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TRIALS = 20_000
SEED = 11


pytestmark = pytest.mark.usefixtures("agg")  # tests/conftest.py


_CACHE: dict = {}


def _result(name: str, method: str) -> mh.Result:
    key = (name, method)
    if key not in _CACHE:
        scen = mh.load_scenario(EXAMPLES / name)
        if method == "exact" and scen.target.card is not None:
            # best play on a heavy grid takes the exact engine seconds: these tests are
            # about drawing, so the exact figures follow fixed policies
            fixed = tuple(dataclasses.replace(a, policy="fixed") for a in scen.attackers)
            scen = dataclasses.replace(scen, attackers=fixed,
                                       target=dataclasses.replace(scen.target, power_field="lethal"))
        mc = {} if method == "exact" else {"trials": TRIALS, "seed": SEED}  # the exact method takes neither
        _CACHE[key] = mh.simulate(scen, method=method, **mc)
    return _CACHE[key]


GRID = "cards/heavy_warjack.toml"
SPIRAL = "cards/heavy_warbeast.toml"
TURNS = "fire_and_corrosion.toml"
TRACK = "heavy_warjack_focus.toml"
METHODS = ["monte_carlo", "exact"]


def _bars(ax) -> BarContainer:
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert len(bars) == 1
    return bars[0]


def _twin(ax):
    twins = [a for a in ax.figure.axes if a.get_label() == "damage_at_least"]
    assert len(twins) == 1
    return twins[0]


def _darkness(rgba) -> float:
    r, g, b = rgba[:3]
    return 1.0 - (0.299 * r + 0.587 * g + 0.114 * b)


# ---------------------------------------------------------------- damage distribution
@pytest.mark.parametrize("name", [GRID, TRACK, TURNS])
@pytest.mark.parametrize("method", METHODS)
def test_damage_bars_and_at_least_line(name, method):
    res = _result(name, method)
    fig, ax = plt.subplots()
    out = plot_damage(res, ax=ax)
    assert out is ax
    bars = _bars(ax)
    assert len(bars.patches) == res.boxes + 1
    heights = [p.get_height() for p in bars.patches]
    np.testing.assert_allclose(heights[:-1], res.damage_pmf[:-1])
    last, tallest = res.damage_pmf[-1], max(res.damage_pmf[:-1])
    if last > 2.5 * tallest:  # the disabled bar cut: the others' scale, its share written on it
        assert heights[-1] < last and ax.get_ylim()[1] == pytest.approx(1.6 * tallest)
    else:
        assert heights[-1] == pytest.approx(last)
    assert f"{100 * last:.1f}%" in [t.get_text() for t in ax.texts]
    np.testing.assert_allclose([p.get_x() + p.get_width() / 2 for p in bars.patches],
                               np.arange(res.boxes + 1))
    # the disabling value is highlighted
    faces = [p.get_facecolor() for p in bars.patches]
    assert faces[-1] != faces[0] and len(set(faces[:-1])) == 1
    lines = _twin(ax).get_lines()
    assert len(lines) == 1
    np.testing.assert_allclose(lines[0].get_ydata(), res.damage_at_least)
    np.testing.assert_allclose(lines[0].get_xdata(), np.arange(res.boxes + 1))
    assert lines[0].get_marker() not in (None, "", "None")
    assert res.target_name in ax.get_title()


def test_damage_without_at_least_and_on_current_axes():
    res = _result(TRACK, "exact")
    ax = plot_damage(res, at_least=False, color="green")
    assert ax is plt.gca()
    assert ax.figure.axes == [ax]
    faces = [p.get_facecolor() for p in _bars(ax).patches]
    assert faces[0] == to_rgba("green")


# ---------------------------------------------------------------- heatmap
def _sweep_frame(loadouts=("Fists",), exact=False) -> pd.DataFrame:
    rows = []
    rng = np.random.default_rng(3)
    for name in loadouts:
        for arm in (14, 16, 18, 20):
            for def_ in (11, 12, 13):
                for metric in ("kill", "damage_mean"):
                    v = float(rng.uniform(0.05, 0.95)) if metric == "kill" else float(
                        rng.uniform(2, 20))
                    h = 0 if exact else 0.02
                    rows.append({"loadout": name, "target.arm": arm, "target.def": def_,
                                 "metric": metric, "value": v, "ci_low": v - h,
                                 "ci_high": v + h})
    return pd.DataFrame(rows)


def test_heatmap_values_ticks_and_annotations():
    frame = _sweep_frame().drop(columns="loadout")
    fig, ax = plt.subplots()
    assert plot_kill_heatmap(frame, ax=ax) is ax
    expect = (frame[frame.metric == "kill"]
              .pivot(index="target.arm", columns="target.def", values="value")
              .sort_index().sort_index(axis=1))
    assert len(ax.images) == 1
    np.testing.assert_allclose(np.asarray(ax.images[0].get_array()), expect.to_numpy())
    assert [t.get_text() for t in ax.get_xticklabels()] == ["11", "12", "13"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["14", "16", "18", "20"]
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == expect.size
    assert texts[0] == f"{100 * expect.to_numpy()[0, 0]:.0f}%"
    assert any(a.get_label() == "<colorbar>" for a in fig.axes)


def test_heatmap_other_metric_and_no_annotation():
    frame = _sweep_frame()
    fig, ax = plt.subplots()
    plot_kill_heatmap(frame, metric="damage_mean", annotate=False, ax=ax)
    expect = (frame[frame.metric == "damage_mean"]
              .pivot(index="target.arm", columns="target.def", values="value")
              .sort_index().sort_index(axis=1))
    np.testing.assert_allclose(np.asarray(ax.images[0].get_array()), expect.to_numpy())
    assert len(ax.texts) == 0


def test_heatmap_loadout_choice_and_errors():
    frame = _sweep_frame(("Fists", "Cannon"))
    with pytest.raises(ValueError, match="loadout=") as info:
        plot_kill_heatmap(frame)
    assert "\n" not in str(info.value)
    fig, ax = plt.subplots()
    plot_kill_heatmap(frame, loadout="Cannon", ax=ax)
    sub = frame[(frame.loadout == "Cannon") & (frame.metric == "kill")]
    expect = sub.pivot(index="target.arm", columns="target.def", values="value").sort_index()
    np.testing.assert_allclose(np.asarray(ax.images[0].get_array()), expect.to_numpy())
    assert "Cannon" in ax.get_title()
    for bad, kwargs, match in [
        (frame.drop(columns="value"), {"loadout": "Fists"}, "lacks column"),
        (frame, {"x": "target.base", "loadout": "Fists"}, "target.base"),
        (frame, {"metric": "cripple:L", "loadout": "Fists"}, "no rows with metric"),
        (frame, {"loadout": "Axe"}, "not in the frame"),
        (frame.drop(columns="loadout"), {}, "several rows per"),
        ([1, 2], {}, "DataFrame"),
    ]:
        with pytest.raises(ValueError, match=match) as info:
            plot_kill_heatmap(bad, **kwargs)
        assert "\n" not in str(info.value)


# ---------------------------------------------------------------- kill vs a parameter
def _polys(ax):
    return [c for c in ax.collections if isinstance(c, PolyCollection)]


def test_kill_vs_one_line_and_band_per_loadout():
    frame = _sweep_frame(("Fists", "Cannon", "Axe"))
    frame = frame[frame["target.def"] == 12].drop(columns="target.def")
    fig, ax = plt.subplots()
    assert plot_kill_vs(frame, "target.arm", ax=ax) is ax
    lines = ax.get_lines()
    assert [ln.get_label() for ln in lines] == ["Fists", "Cannon", "Axe"]
    assert len(_polys(ax)) == 3
    for ln in lines:
        sub = frame[(frame.loadout == ln.get_label()) & (frame.metric == "kill")]
        sub = sub.sort_values("target.arm")
        np.testing.assert_allclose(ln.get_xdata(), sub["target.arm"])
        np.testing.assert_allclose(ln.get_ydata(), sub["value"])
    assert ax.get_legend() is not None


def test_kill_vs_dict_of_frames_exact_and_single_line():
    base = _sweep_frame(exact=True)
    base = base[base["target.def"] == 12].drop(columns=["target.def", "loadout"])
    fig, ax = plt.subplots()
    plot_kill_vs({"A": base, "B": base.assign(value=base.value / 2)}, "target.arm", ax=ax)
    assert [ln.get_label() for ln in ax.get_lines()] == ["A", "B"]
    assert _polys(ax) == []  # exact: the interval is a point, no band
    np.testing.assert_allclose(ax.get_lines()[1].get_ydata(),
                               base[base.metric == "kill"].value / 2)
    fig, ax = plt.subplots()
    mc = _sweep_frame()
    mc = mc[mc["target.def"] == 12].drop(columns=["target.def", "loadout"])
    plot_kill_vs(mc, "target.arm", ax=ax)
    assert len(ax.get_lines()) == 1 and len(_polys(ax)) == 1


def test_kill_vs_errors():
    frame = _sweep_frame(("Fists", "Cannon"))
    with pytest.raises(ValueError, match="several rows per target.arm"):
        plot_kill_vs(frame, "target.arm")  # target.def varies too
    with pytest.raises(ValueError, match="lacks column"):
        plot_kill_vs(frame, "target.base")
    with pytest.raises(ValueError, match="hue column"):
        plot_kill_vs(frame, "target.arm", hue="weapon")


# ---------------------------------------------------------------- card and cripple
def _card_rects(ax):
    rects = [p for p in ax.patches if isinstance(p, Rectangle)]
    return rects


@pytest.mark.parametrize("name", [GRID, SPIRAL])
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("polar", [False, True])
def test_card_one_shaded_rectangle_per_box(name, method, polar):
    res = _result(name, method)
    fig = plt.figure()
    ax = fig.add_subplot(projection="polar" if polar else None)
    if polar and res.card.kind == "grid":
        with pytest.raises(ValueError, match="rectilinear"):
            plot_card(res, ax=ax)
        return
    assert plot_card(res, ax=ax) is ax
    rects = _card_rects(ax)
    assert len(rects) == res.boxes == sum(len(c) for c in res.card.columns)
    probs = np.concatenate(res.box_marked)
    dark = np.array([_darkness(r.get_facecolor()) for r in rects])
    # patches follow box_marked's order: a more often marked box is never lighter
    order = np.argsort(probs, kind="stable")
    assert np.all(np.diff(dark[order]) >= -1e-12)
    assert dark[np.argmax(probs)] == pytest.approx(dark.max())
    assert [r.get_gid() for r in rects][:2] == ["1:1", "1:2"]
    # letters: one bold text per system or aspect box, none for hull boxes
    bold = [t.get_text() for t in ax.texts if t.get_fontweight() == "bold"]
    named = [x for col in res.card.columns for x in col if x != "."]
    if not (polar and res.card.kind == "spiral"):
        assert bold == named
    else:  # the ring writes letter and probability in one line per box ("M 80%")
        assert [t.get_text().split(" ")[0] for t in ax.texts] == named
    assert any(a.get_label() == "<colorbar>" for a in fig.axes)


def test_card_without_annotation_writes_letters_only():
    res = _result(GRID, "exact")
    fig, ax = plt.subplots()
    plot_card(res, ax=ax, annotate=False, cmap="Blues")
    assert [t.get_text() for t in ax.texts] == [x for col in res.card.columns for x in col if x != "."]


@pytest.mark.parametrize("name", [GRID, SPIRAL])
@pytest.mark.parametrize("method", METHODS)
def test_cripple_bars_with_interval(name, method):
    res = _result(name, method)
    fig, ax = plt.subplots()
    assert plot_cripple(res, ax=ax) is ax
    bars = _bars(ax)
    letters = res.card.letters
    assert len(bars.patches) == len(letters)
    np.testing.assert_allclose([p.get_height() for p in bars.patches],
                               [res.cripple[x] for x in letters])
    errs = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(errs) == 1
    segs = errs[0].lines[2][0].get_segments()
    lengths = np.array([s[1][1] - s[0][1] for s in segs])
    ci = res.cripple_ci95
    np.testing.assert_allclose(lengths, [ci[x][1] - ci[x][0] for x in letters], atol=1e-12)
    if res.exact:
        assert np.all(lengths == 0)
    else:
        assert np.all(lengths > 0)
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert [t.split("\n")[0] for t in ticks] == list(letters)


def test_card_and_cripple_need_a_card():
    res = _result(TRACK, "exact")
    for fn in (plot_card, plot_cripple):
        with pytest.raises(ValueError, match="no damage grid or life spiral") as info:
            fn(res)
        assert "\n" not in str(info.value)


# ---------------------------------------------------------------- kill by turn
@pytest.mark.parametrize("method", METHODS)
def test_kill_by_turn_line_and_band(method):
    res = _result(TURNS, method)
    fig, ax = plt.subplots()
    assert plot_kill_by_turn(res, ax=ax) is ax
    lines = ax.get_lines()
    assert len(lines) == 1
    np.testing.assert_allclose(lines[0].get_ydata(), res.kill_by_turn)
    np.testing.assert_allclose(lines[0].get_xdata(), np.arange(1, res.turns + 1))
    assert len(_polys(ax)) == (0 if res.exact else 1)
    if not res.exact:
        verts = _polys(ax)[0].get_paths()[0].vertices
        lo = [r["kill_ci95"][0] for r in res.turn_rows]
        hi = [r["kill_ci95"][1] for r in res.turn_rows]
        assert verts[:, 1].min() == pytest.approx(min(lo))
        assert verts[:, 1].max() == pytest.approx(max(hi))


def test_kill_by_turn_several_results():
    results = {"mc": _result(TURNS, "monte_carlo"), "exact": _result(TURNS, "exact")}
    ax = plot_kill_by_turn(results)
    assert ax is plt.gca()
    assert [ln.get_label() for ln in ax.get_lines()] == ["mc", "exact"]
    np.testing.assert_allclose(ax.get_lines()[1].get_ydata(), results["exact"].kill_by_turn)
    assert len(_polys(ax)) == 1
    assert ax.get_legend() is not None


# ---------------------------------------------------------------- main figure and files
@pytest.mark.parametrize("name, panels", [
    (TRACK, {"damage"}),
    (TURNS, {"damage", "kill_by_turn"}),
    (GRID, {"damage", "card", "cripple"}),
    (SPIRAL, {"damage", "card", "cripple"}),
])
@pytest.mark.parametrize("method", METHODS)
def test_main_figure_panels(name, panels, method):
    res = _result(name, method)
    fig = main_figure(res)
    labels = [a.get_label() for a in fig.axes]
    assert set(labels) - {"damage_at_least", "<colorbar>"} == panels
    assert labels.count("damage_at_least") == 1
    assert labels.count("<colorbar>") == (1 if "card" in panels else 0)
    assert len(fig.axes) == len(panels) + 1 + ("card" in panels)
    card = [a for a in fig.axes if a.get_label() == "card"]
    if card:
        assert card[0].name == ("polar" if res.card.kind == "spiral" else "rectilinear")
        assert len(_card_rects(card[0])) == res.boxes
    assert res.target_name in fig.get_suptitle()


def test_main_figure_with_turns_and_card():
    scen = mh.load_scenario(EXAMPLES / GRID)
    import dataclasses

    res = mh.simulate(dataclasses.replace(scen, turns=2), trials=TRIALS, seed=SEED)
    assert res.turns == 2
    labels = {a.get_label() for a in main_figure(res).axes}
    assert labels == {"damage", "kill_by_turn", "card", "cripple", "damage_at_least",
                      "<colorbar>"}


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".PDF", b"%PDF"),
                                           (".svg", b"<?xml")])
def test_save_figure_writes_file(tmp_path, suffix, magic):
    res = _result(GRID, "exact")
    path = tmp_path / f"out{suffix}"
    assert save_figure(main_figure(res), path) == path
    data = path.read_bytes()
    assert len(data) > 1000 and data.startswith(magic)


def test_save_figure_rejects_unknown_suffix_and_bad_dir(tmp_path):
    fig = main_figure(_result(TRACK, "exact"))
    with pytest.raises(mh.InputError) as info:
        save_figure(fig, tmp_path / "out.txt")
    err = info.value
    assert err.key == "--plot" and "must end in .png, .svg or .pdf" in str(err)
    assert "\n" not in str(err)
    assert not (tmp_path / "out.txt").exists()
    with pytest.raises(mh.InputError, match="cannot be written"):
        save_figure(fig, tmp_path / "missing" / "out.png")
    with pytest.raises(mh.InputError, match="must end in"):
        write_main_figure(_result(TRACK, "exact"), tmp_path / "out")


def test_write_main_figure(tmp_path):
    path = write_main_figure(_result(SPIRAL, "monte_carlo"), tmp_path / "spiral.png")
    assert path.stat().st_size > 1000


def test_kill_by_turn_axes_fit_the_curve_and_the_rounds():
    """Issue 18: a small kill curve is drawn on its own scale (not flattened on 0-100 %), at
    5 % at least, and each round has its tick (one round: just 1)."""
    from mathhammer import simulate
    from mathhammer.rules import Attacker, Scenario, Target, Weapon
    t = Target(14, 14, boxes=22)
    a = Attacker("Gun", [Weapon("Gun", "ranged", 6, 13, attacks=2, rules={"fire"})])
    three = simulate(Scenario(t, [a], turns=3, attack_turns="first"), method="exact")
    one = simulate(Scenario(t, [a]), method="exact")
    fig, (ax3, ax1) = plt.subplots(1, 2)
    plot_kill_by_turn(three, ax=ax3)
    plot_kill_by_turn(one, ax=ax1)
    top = float(max(three.kill_by_turn))
    assert ax3.get_ylim()[1] == pytest.approx(1.15 * top) and top < 0.5
    assert ax1.get_ylim()[1] == pytest.approx(0.05)
    assert list(ax3.get_xticks()) == [1, 2, 3] and list(ax1.get_xticks()) == [1]
    plt.close(fig)


def test_unit_and_targets_figures_say_what_a_thin_bar_hides():
    """The models-destroyed legend gives the all-destroyed share (a bar of 0.0 % shows
    nothing); each target's label starts past its error bar's cap."""
    from mathhammer import simulate
    from mathhammer.plots import plot_models_destroyed, plot_targets
    from mathhammer.rules import Attacker, Scenario, Target, Weapon

    rifle = Weapon("Rifle", "ranged", 5, 10)
    unit = simulate(Scenario(Target(13, 13, models=3), [Attacker("R", [rifle], models=2)]), method="exact")
    ax = plot_models_destroyed(unit)
    share = f"all 3 destroyed ({100 * unit.models_destroyed_pmf[-1]:.1f}%)"
    assert share in [t.get_text() for t in ax.get_legend().get_texts()]
    plt.close(ax.figure)
    several = simulate(Scenario([Target(13, 13, name="A"), Target(13, 13, name="B")],
                                [Attacker("R", [dataclasses.replace(rifle, attacks=3)])]),
                       trials=20_000, seed=1)
    ax = plot_targets(several)
    highs = [f["kill_ci95"][1] for f in several.targets.values()] + [several.kill_ci95[1]]
    assert [t.xy[0] for t in ax.texts] == pytest.approx(highs)
    plt.close(ax.figure)

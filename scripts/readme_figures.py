"""Draw the figures of the README tour into docs/img/ (committed PNGs).

Run from the repository root: ``.venv/bin/python scripts/readme_figures.py [--trials N]``.
Every figure comes from the public API (cards, simulate, sweep, plots), with a fixed seed,
so running it again redraws the same pictures.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from matplotlib.figure import Figure

import mathhammer as mh
from mathhammer.cards import scenario_from_cards
from mathhammer.play.turn import plan_turn
from mathhammer.plots import (
    main_figure,
    plot_kill_heatmap,
    plot_kill_vs,
    plot_models_destroyed,
    save_figure,
    trade_figure,
)
from mathhammer.plots.plans import plans_figure
from mathhammer.studies.plan_checks import check_plans

OUT = Path(__file__).resolve().parents[1] / "docs" / "img"
#: The example files the README's commands run: each figure beside a command draws that file.
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SEED = 2026


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=200_000)
    parser.add_argument("--force", action="store_true", help="replace the figures already drawn")
    args = parser.parse_args()

    def save(fig, path):
        save_figure(fig, path, overwrite=args.force)

    OUT.mkdir(parents=True, exist_ok=True)
    trials = args.trials

    # 1. the main figure of `mathhammer run --plot`: two heavy warjacks against a heavy grid
    matchup = scenario_from_cards(["heavy_warjack", "heavy_warjack"], "heavy_warjack")
    result = mh.simulate(matchup, trials=trials, seed=SEED)
    save(main_figure(result), OUT / "run_plot.png")

    # 2. a designer's sweep: one heavy warjack against every ARM x DEF (`mathhammer sweep
    # examples/warjack_duel.toml --vary target.arm=14:22 --vary target.def=10:16`)
    base = mh.load_scenario(EXAMPLES / "warjack_duel.toml")
    grid = mh.sweep(base, {"target.arm": range(14, 23), "target.def": range(10, 17)},
                    trials=trials, seed=SEED, progress=False)
    fig = Figure(figsize=(7, 5.5), layout="constrained")
    ax = plot_kill_heatmap(grid, x="target.def", y="target.arm", ax=fig.subplots())
    ax.set_title("One heavy warjack, 3 focus, best play")
    save(fig, OUT / "heatmap.png")

    # 3. list building: three loadouts against more and more armour (the files of
    # `mathhammer compare examples/compare/*.toml`)
    loadouts = {
        "2 heavy warjacks": mh.load_scenario(EXAMPLES / "compare" / "two_heavy_warjacks.toml"),
        "warcaster + heavy": mh.load_scenario(EXAMPLES / "compare" / "warcaster_and_heavy.toml"),
        "3 light warjacks": mh.load_scenario(EXAMPLES / "compare" / "three_light_warjacks.toml"),
    }
    frame = mh.sweep(loadouts, {"target.arm": range(16, 23)}, trials=trials, seed=SEED,
                     progress=False)
    fig = Figure(figsize=(7, 4), layout="constrained")
    ax = plot_kill_vs(frame, "target.arm", ax=fig.subplots())
    ax.set_title("Kill probability against a heavy warjack's ARM")
    save(fig, OUT / "loadouts.png")

    # 4. clearing a unit (docs/units.md): ten riflemen against ten infantry, and a heavy
    # warjack against five Tough heavy infantry
    fig = Figure(figsize=(12, 4.5), layout="constrained")
    left, right = fig.subplots(1, 2)
    volley = mh.simulate(scenario_from_cards(["infantry_unit"], "infantry_unit"), trials=trials,
                         seed=SEED)
    plot_models_destroyed(volley, ax=left)
    left.set_title("Ten riflemen shoot ten infantry")
    smash = mh.simulate(scenario_from_cards(["heavy_warjack"], "heavy_infantry_unit"),
                        trials=trials, seed=SEED)
    plot_models_destroyed(smash, ax=right)
    right.set_title("A heavy warjack (3 focus, best play) against five Tough heavy infantry")
    save(fig, OUT / "units.png")

    # 5. several targets (docs/units.md): a unit of six, then its officer
    several = mh.load_scenario(EXAMPLES / "several_targets.toml")
    save(main_figure(mh.simulate(several, trials=trials, seed=SEED)), OUT / "targets.png")

    # 6. a trade (docs/trades.md): two heavy warjacks over three rounds, Red charging first
    duel = mh.simulate_trade(mh.load_trade(EXAMPLES / "trades" / "heavy_duel.toml"), trials=trials,
                             seed=SEED)
    save(trade_figure(duel, fig=Figure(figsize=(10, 4.6), layout="constrained")),
                OUT / "trade_duel.png")
    # ... and two units over three rounds, the riflemen shooting first
    clash = mh.simulate_trade(mh.load_trade(EXAMPLES / "trades" / "unit_clash.toml"), trials=trials,
                              seed=SEED)
    save(trade_figure(clash, fig=Figure(figsize=(10, 4.6), layout="constrained")),
                OUT / "trade_units.png")
    # 7. plan the turn (docs/turn.md): a warcaster and two heavy warjacks against a heavy's grid,
    # planned on its track relaxation, the best plans run on the grid by Monte Carlo
    plans = plan_turn(mh.load_scenario(EXAMPLES / "turns" / "caster_and_two_heavies.toml"))
    save(plans_figure(plans, check_plans(plans, top=5, trials=trials, seed=SEED)), OUT / "turn_plans.png")
    print("wrote", ", ".join(p.name for p in sorted(OUT.glob("*.png"))))


if __name__ == "__main__":
    main()

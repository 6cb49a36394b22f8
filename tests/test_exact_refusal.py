"""Best play on a grid or spiral beyond the exact engine is refused at once, in one line that
says what answers instead; what the engine solves still solves.

The work is estimated before any of it is done (mathhammer.exact.induction_work): the README
tour (two heavy warjacks with 3 focus against a heavy warjack's grid) would need some 160
million edges against the limit of 82 million (MAX_CARD_INDUCTION_EDGES). The estimate of
backward induction's edges is checked against the engine's own count on small cases; how
long a refusal takes is benchmarks/bench_exact_cards.py's to time, not a test's.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.cards import scenario_from_cards
from mathhammer.cli import main
from mathhammer.errors import ExactNotApplicable
from mathhammer.exact import check_exact_applicable, optimal_value
from mathhammer.exact.bounds import MAX_CARD_INDUCTION_EDGES, prepare
from mathhammer.exact.induction import Engine
from mathhammer.exact.induction_work import induction_work
from mathhammer.exact.setup import Setup

from card_pairings import SOLVED

TOUR = (["heavy_warjack", "heavy_warjack"], "heavy_warjack")

#: Cards whose attacker spends points by best play, and cards with a grid or spiral (the
#: colossal's two grids are refused before any estimate).
PLAYERS = ("warcaster", "warlock", "light_warjack", "heavy_warjack", "colossal", "light_warbeast",
           "heavy_warbeast")
CARDS = ("light_warjack", "heavy_warjack", "light_warbeast", "heavy_warbeast")


def _refusal_line(message: str) -> None:
    """The refusal of the tour: one line, the estimate against the limit, what fits."""
    assert "\n" not in message
    assert message.startswith("best play on this damage grid would need about ")
    assert f"transitions of backward induction (the limit is {MAX_CARD_INDUCTION_EDGES:,})" in message
    about = int(message.split("about ")[1].split(" ")[0].replace(",", ""))
    assert about > MAX_CARD_INDUCTION_EDGES
    for fits in ("the Monte Carlo method", 'fixed policies (policy = "fixed")', "fewer attacks or points",
                 "a smaller card"):
        assert fits in message


def test_the_tour_is_refused_before_any_edge_is_built(monkeypatch):
    built = []
    monkeypatch.setattr(Engine, "_build", lambda self, *a: built.append(a))
    with pytest.raises(ExactNotApplicable) as err:
        mh.simulate(scenario_from_cards(*TOUR), method="exact")
    _refusal_line(str(err.value))
    assert built == []


def test_optimal_value_refuses_the_tour_in_the_same_line():
    """optimal_value makes no forward pass: its estimate is backward induction's edges alone,
    still beyond the limit on the tour."""
    scen = scenario_from_cards(*TOUR)
    with pytest.raises(ExactNotApplicable) as err:
        optimal_value(scen)
    _refusal_line(str(err.value))
    with pytest.raises(ExactNotApplicable) as again:
        check_exact_applicable(scen)
    _refusal_line(str(again.value))


def test_backward_induction_alone_is_estimated_without_the_forward_pass():
    """Two warcasters against a light warjack: refused with the forward pass the exact method
    makes (estimated at about 89 million edges), within the limit for backward induction alone
    (as optimal_value runs it: about 68 million)."""
    scen = scenario_from_cards(["warcaster", "warcaster"], "light_warjack")
    with pytest.raises(ExactNotApplicable, match="would need about"):
        prepare(scen, induction=True)
    prepare(scen, induction=True, forward=False)


def test_the_command_prints_the_line_and_exits_with_status_2(capsys):
    rc = main(["run", "--attacker", "heavy_warjack", "--attacker", "heavy_warjack", "--target",
               "heavy_warjack", "--method", "exact"])
    out, err = capsys.readouterr()
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("mathhammer: error: ")
    _refusal_line(err.removeprefix("mathhammer: error: ").rstrip("\n"))


def test_fixed_policies_are_not_estimated_and_run():
    scen = scenario_from_cards(["light_warjack"], "light_warjack")
    fixed = dataclasses.replace(scen, attackers=tuple(dataclasses.replace(a, policy="fixed")
                                                      for a in scen.attackers))
    assert mh.simulate(fixed, method="exact").kill >= 0


@pytest.mark.parametrize("pairing", [(["light_warjack"], "light_warjack"), (["heavy_warjack"], "light_warjack")])
def test_small_best_play_on_cards_still_solves(pairing):
    res = mh.simulate(scenario_from_cards(*pairing), method="exact")
    assert res.play is not None and res.play.solved_on == "exact"
    assert 0 < res.kill < 1


def test_every_solved_pairing_passes_the_estimate():
    """The estimate lets every bundled pairing of one attacker through: each is built within
    the limit (the largest, a heavy warbeast against a heavy warbeast: 67.4 million edges,
    estimated at 70.1 million; benchmarks/bench_exact_cards.py --estimates --beyond)."""
    for a in PLAYERS:
        for t in CARDS:
            assert (a, t) in SOLVED
            prepare(scenario_from_cards([a], t), induction=True)


@pytest.mark.parametrize("attackers, target", [
    (["light_warjack"], "light_warjack"),
    (["heavy_warjack"], "light_warbeast"),
    (["colossal"], "light_warbeast"),
    (["light_warjack:headbutt"], "light_warjack"),  # a knockdown: melee hits automatically after it
    (["light_warjack", "light_warjack"], "light_warbeast"),  # two activations, each its points
])
def test_the_estimate_is_at_least_backward_induction_s_edges(attackers, target):
    """Backward induction alone (as optimal_value runs it): the estimate of its edges is at
    least what the engine builds, and not far above (within 1.0 to 1.35 times on every case
    measured)."""
    setup = prepare(scenario_from_cards(attackers, target), induction=True)
    engine = Engine(setup, edge_budget=10**12)
    engine.value(0, setup.start, np.zeros(1, dtype=np.int64))
    work = induction_work(setup)
    assert engine.built <= work.induction <= 1.35 * engine.built
    assert work.total > work.induction


def test_a_target_spending_by_best_play_gets_no_estimate():
    """Its power field's choices are not the options of most edges: no estimate, the engine's
    own count stops what is beyond it (and says to fix the power field too)."""
    scen = scenario_from_cards(["light_warjack"], "light_warjack")
    scen = dataclasses.replace(scen, target=dataclasses.replace(scen.target, focus=3, power_field="best"))
    assert induction_work(Setup(scen)) is None
    setup = prepare(scen, induction=True)
    with pytest.raises(ExactNotApplicable) as err:
        Engine(setup, edge_budget=1000).value(0, setup.start, np.zeros(1, dtype=np.int64))
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith("best play on this damage grid needs more than 1,000 transitions of backward "
                              "induction: use the Monte Carlo method")
    assert 'fixed policies (policy = "fixed", power_field = "lethal")' in message


def test_a_spiral_is_named_as_such_while_the_engine_runs():
    setup = prepare(scenario_from_cards(["light_warbeast"], "light_warbeast"), induction=True)
    with pytest.raises(ExactNotApplicable, match=r"^best play on this life spiral needs more than 500 "):
        Engine(setup, edge_budget=500).value(0, setup.start, np.zeros(1, dtype=np.int64))

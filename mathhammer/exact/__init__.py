"""Exact engine: enumeration of dice and dynamic programming over the attack sequence.

Pure Python and NumPy, written from docs/activation.md independently of the Monte Carlo
kernel, so that each can check the other. Modules, in pipeline order:

* :mod:`~mathhammer.exact.rolls`: every face of a roll (discards, rerolls), counted exactly:
  :func:`attack_outcome`, :func:`damage_pmf` and the cached tables the engine uses;
* :mod:`~mathhammer.exact.card`: damage grids and life spirals: the configurations of marked
  boxes (and, where healing needs it, the order of the last marks) as an index, and the
  column roll, "damage to X", crippling and healing on them, vectorised, every move made kept
  for the attacks after (the masks each column reaches and marking on them:
  :mod:`~mathhammer.exact.columns`; numbering codes: :mod:`~mathhammer.exact.registry`);
* :mod:`~mathhammer.exact.state`: the :class:`~mathhammer.exact.state.State` carried from
  attack to attack, the events of the scenario and the numbers each attack's rolls use;
* :mod:`~mathhammer.exact.setup`: the :class:`~mathhammer.exact.setup.Setup`, what is read
  once from the scenario (the attacks of every round, the target's card, DEF and ARM);
* :mod:`~mathhammer.exact.relaxation`: the relaxation of best play on a grid as a track
  (systems crippled at random), a part of the setup;
* :mod:`~mathhammer.exact.targets`: several targets, one setup per target chained in order
  (docs/units.md, "Several targets: the exact engine");
* :mod:`~mathhammer.exact.bounds`: bounds on the states and card configurations a sequence
  may reach, the engine's limits, and :func:`check_exact_applicable`;
* :mod:`~mathhammer.exact.edges`: the :class:`~mathhammer.exact.edges.Piece` edges of a
  step, and sums of values over them;
* :mod:`~mathhammer.exact.choices`: who decides what (:class:`~mathhammer.exact.choices.Decisions`),
  choosing the best option by looking ahead, or keeping the choice for later
  (:class:`~mathhammer.exact.choices.Choice`);
* :mod:`~mathhammer.exact.plan`: an attack's options built once per signature and state,
  laid end to end and decided at each event that makes it (:class:`~mathhammer.exact.plan.Plan`);
* :mod:`~mathhammer.exact.suffering`: damage points that are not an attack's (quicksand,
  fire, corrosion) through the power field, the marking and Tough;
* :mod:`~mathhammer.exact.damage`: an attack's damage roll and what follows it (power
  field, marking, crippling, Tough, Rapid Healing);
* :mod:`~mathhammer.exact.attack`: one attack, step by step, as edges from the damage
  marked before it to the damage and state after it;
* :mod:`~mathhammer.exact.rounds`: the end of a round (burning earth, the maintenance
  phase's fire and corrosion, hazards, the next round's start) as edges like an attack's
  (:func:`round_labels`, the slot labels over several rounds, comes from the rules model);
* :mod:`~mathhammer.exact.induction`: backward induction: best play of attackers (``policy = "best"``)
  and targets (``power_field = "best"``), :func:`optimal_value`;
* :mod:`~mathhammer.exact.trade`: trades (docs/trades.md) of single models on damage
  tracks, every state carried activation after activation (:func:`exact_trade`);
* :mod:`~mathhammer.exact.forward`: forward propagation into a
  :class:`~mathhammer.result.Result` (:func:`exact_result`), on the vectors of
  :mod:`~mathhammer.exact.vectors`, what each edge counts on the way in
  :mod:`~mathhammer.exact.tally`, its weights tidied of rounding noise by
  :mod:`~mathhammer.exact.tidy`.

The state is a dict ``State -> vector over damage marked``, so one NumPy operation moves
every amount of damage at once: damage tracks of hundreds of boxes and sequences of
hundreds of attacks take well under a second. On a grid or spiral the vector is over the
configurations of the card met so far (a heavy warjack grid with a few attacks: well under
a second too; two heavy warjacks' ten attacks on fixed policies, some 40 million transitions
over 80,000 configurations: a second or two, 1.3 s measured on two cores).

Examples
--------
>>> from mathhammer.rules import Attacker, Scenario, Target, Weapon
>>> sword = Weapon("Sword", "melee", skill=6, pow=10)
>>> res = exact_result(Scenario(Target(defense=12, arm=15, boxes=1), [Attacker("A", [sword])]))
>>> round(res.kill, 6)   # hit (2d6 >= 6: 26/36) times damage (2d6 + 10 > 15: 26/36)
0.521605
"""

from __future__ import annotations

from ..errors import ExactNotApplicable
from .bounds import check_exact_applicable
from .forward import exact_result
from .optimal import optimal_value
from .rolls import MAX_DICE, attack_outcome, damage_pmf
from ..rules.slots import round_label, round_labels

__all__ = [
    "attack_outcome",
    "damage_pmf",
    "exact_result",
    "optimal_value",
    "check_exact_applicable",
    "round_label",
    "round_labels",
    "ExactNotApplicable",
    "MAX_DICE",
]

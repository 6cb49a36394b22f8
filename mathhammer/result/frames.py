"""Tidy pandas tables of a :class:`~mathhammer.result.Result` (files: :mod:`.export`).

Every table is a long ("tidy") frame: one row per observation (a metric, a damage value, an
attack slot, a letter, a round, a box), one column per variable; pivot it for display. Each
builder is a pure function of the result. A table that does not apply to the result (no
damage grid or life spiral, a single round, no continuous effect) is an empty frame with the
same columns and dtypes, and is left out of :func:`tables` and of the files
:func:`mathhammer.result.export.write_csv` writes.

=================  ==============================  ========================================
file name          builder                         one row per
=================  ==============================  ========================================
``summary``        :func:`summary_frame`           headline figure (metric, value, interval)
``damage``         :func:`damage_frame`            damage value k = 0 .. boxes
``destroyed``      :func:`destroyed_frame`         models destroyed k = 0 .. models (units)
``attacks``        :func:`attack_frame`            attack slot, in sequence order
``cripple``        :func:`cripple_frame`           system / aspect letter, at the end
``cripple_after``  :func:`cripple_after_frame`     attack slot and letter
``by_turn``        :func:`turn_frame`              round (kill by its end); several rounds
``effects``        :func:`effect_frame`            continuous effect / hazard and round
``boxes``          :func:`box_frame`               box of the damage grid or life spiral
``targets``        :func:`targets_frame`           target and metric; several targets
=================  ==============================  ========================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ..rules.vocabulary import GRID_SYSTEM_NAMES, SPIRAL_ASPECT_NAMES
from .fields import (
    EFFECT_AFTER,
    EFFECT_APPLIED,
    EFFECT_DAMAGE,
    EFFECT_KILL,
    EFFECT_PRESENT,
    EFFECT_TARGET_SPENT,
    EFFECT_TOUGH,
)
from .metrics import SUMMARY_COLUMNS
from .summary import summary_records

if TYPE_CHECKING:  # pragma: no cover
    from .core import Result

__all__ = ["COLUMNS", "summary_frame", "damage_frame", "destroyed_frame", "attack_frame",
           "cripple_frame", "cripple_after_frame", "turn_frame", "effect_frame", "box_frame",
           "targets_frame", "tables", "table_names"]

#: Columns and dtypes of every table, keyed by its file-friendly name (the order of
#: :func:`tables`).
COLUMNS: dict[str, dict[str, str]] = {
    "summary": dict(zip(SUMMARY_COLUMNS, ("str", "float64", "float64", "float64"))),
    "damage": {"damage": "int64", "probability": "float64", "at_least": "float64"},
    "destroyed": {"destroyed": "int64", "probability": "float64", "at_least": "float64",
                  "ci_low": "float64", "ci_high": "float64"},
    "attacks": {
        "attack": "int64", "label": "str", "attacker": "str", "round": "int64",
        "made": "float64", "hit": "float64", "crit": "float64", "damage_mean": "float64",
        "kill_after": "float64", "boost_attack": "float64", "boost_damage": "float64",
        "spent_mean": "float64", "target_spent_mean": "float64", "tough_saves": "float64",
        "destroyed_mean": "float64", "destroyed_mean_after": "float64", "shred_mean": "float64",
    },
    "cripple": {"letter": "str", "system": "str", "probability": "float64",
                "ci_low": "float64", "ci_high": "float64"},
    "cripple_after": {"attack": "int64", "label": "str", "letter": "str",
                      "probability": "float64"},
    "by_turn": {"turn": "int64", "kill": "float64", "ci_low": "float64", "ci_high": "float64"},
    "effects": {"effect": "str", "turn": "int64", "present": "float64", "applied": "float64",
                "damage_mean": "float64", "kill": "float64", "burning_after": "float64",
                "target_spent_mean": "float64", "tough_saves": "float64"},
    "boxes": {"column": "int64", "row": "int64", "letter": "str", "probability": "float64"},
    "targets": {"target": "str", **dict(zip(SUMMARY_COLUMNS, ("str", "float64", "float64", "float64")))},
}

_NAN = float("nan")


def _frame(name: str, data: dict | None = None) -> pd.DataFrame:
    """A frame with exactly the columns and dtypes of ``COLUMNS[name]`` (empty when
    ``data`` is None)."""
    schema = COLUMNS[name]
    data = data or {c: [] for c in schema}
    return pd.DataFrame({c: pd.Series(data[c], dtype=dtype) for c, dtype in schema.items()})


# ------------------------------------------------------------------------ tables
def summary_frame(result: Result) -> pd.DataFrame:
    """Headline figures of ``result``, one row per metric.

    Columns ``metric`` (str), ``value``, ``ci_low``, ``ci_high`` (float; the 95% interval,
    NaN where none applies): the rows of :func:`~mathhammer.result.summary.summary_records`,
    which says which metrics a result has and in what order (``kill``, ``damage_mean``,
    ``damage_sd``, ``damage_median``, then those of several targets, a unit, several rounds,
    a grid or spiral, continuous effects and points spent).

    Examples
    --------
    >>> from mathhammer import Attacker, Scenario, Target, Weapon, simulate
    >>> jack = Attacker("Jack", [Weapon("Fist", "melee", skill=7, pow=16, attacks=2)])
    >>> res = simulate(Scenario(Target(defense=12, arm=18, boxes=30), [jack]), method="exact")
    >>> summary_frame(res).round(3)
              metric  value  ci_low  ci_high
    0           kill  0.000   0.000    0.000
    1    damage_mean  8.333   8.333    8.333
    2      damage_sd  4.082     NaN      NaN
    3  damage_median  8.000     NaN      NaN
    4     spent:Jack  0.000   0.000    0.000
    """
    rows = summary_records(result)
    return _frame("summary", {c: [r[i] for r in rows] for i, c in enumerate(COLUMNS["summary"])})


def damage_frame(result: Result) -> pd.DataFrame:
    """Distribution of damage points marked: one row per value k = 0 .. boxes.

    Columns ``damage`` (k), ``probability`` (P(damage = k)) and ``at_least``
    (P(damage >= k), so ``at_least`` at k = 0 is 1 and at k = boxes is the chance every box
    is marked).
    """
    pmf = result.damage_pmf
    return _frame("damage", {"damage": np.arange(pmf.size), "probability": pmf,
                             "at_least": result.damage_at_least})


def destroyed_frame(result: Result) -> pd.DataFrame:
    """A unit as the target: models destroyed at the end, one row per k = 0 .. models.

    Columns ``destroyed`` (k), ``probability`` (exactly k), ``at_least`` (k or more) and the
    95% Wilson interval of ``at_least`` (``ci_low``, ``ci_high``; a point when exact). Empty
    for a single model (its kill says it all).
    """
    if result.models == 1:
        return _frame("destroyed")
    pmf = result.models_destroyed_pmf
    cis = result.models_destroyed_at_least_ci95
    return _frame("destroyed", {"destroyed": np.arange(pmf.size), "probability": pmf,
                                "at_least": result.models_destroyed_at_least,
                                "ci_low": [c[0] for c in cis], "ci_high": [c[1] for c in cis]})


def attack_frame(result: Result) -> pd.DataFrame:
    """One row per attack slot, in sequence order (rounds after one another).

    Columns ``attack`` (1-based), ``label``, ``attacker`` (name), ``round`` (1-based);
    probabilities ``made``, ``hit`` (made and hit), ``crit`` (made and a critical hit);
    ``damage_mean`` (expected damage points it marks, 0 when not made); ``kill_after``
    (target disabled once it is resolved); ``boost_attack`` / ``boost_damage`` (its attack /
    damage roll boosted with a paid point); ``spent_mean`` (expected attacker points paid for
    it), ``target_spent_mean`` (focus or fury the target spent against it),
    ``tough_saves`` (probability it caused a successful Tough roll), ``destroyed_mean``
    (expected models it destroyed, a unit target's; a single model's is its kill),
    ``destroyed_mean_after`` (expected models destroyed once it is resolved) and
    ``shred_mean`` (expected Shred attacks it led to, whose damage, boosts and points its
    other columns but ``made``, ``hit`` and ``crit`` include).
    """
    n = result.n_attacks
    names = result.attacker_names
    attacker = [names[a] if a < len(names) else "" for a in result.slot_attacker]
    attacker += [""] * (n - len(attacker))
    rounds = [r + 1 for r in result.slot_round] + [1] * (n - len(result.slot_round))
    return _frame("attacks", {
        "attack": np.arange(1, n + 1), "label": list(result.slot_labels),
        "attacker": attacker, "round": rounds[:n],
        "made": result.made, "hit": result.hit, "crit": result.crit,
        "damage_mean": result.attack_damage_mean, "kill_after": result.kill_after,
        "boost_attack": result.boost_attack_rate, "boost_damage": result.boost_damage_rate,
        "spent_mean": result.spent_mean, "target_spent_mean": result.target_spent_mean,
        "tough_saves": result.tough_saves, "destroyed_mean": result.destroyed_by_attack,
        "destroyed_mean_after": result.destroyed_mean_after, "shred_mean": result.shred_mean,
    })


def _letter_name(result: Result, letter: str) -> str:
    names = SPIRAL_ASPECT_NAMES if result.card.kind == "spiral" else GRID_SYSTEM_NAMES
    return names.get(letter, letter)


def cripple_frame(result: Result) -> pd.DataFrame:
    """Per system (damage grid) or aspect (life spiral) of the target's card: the
    probability it ends crippled, with its 95% Wilson interval.

    Columns ``letter``, ``system`` (its full name, e.g. ``Cortex`` or ``Mind``),
    ``probability``, ``ci_low``, ``ci_high``. Empty for a damage track.
    """
    if result.card is None or not result.card.letters:
        return _frame("cripple")
    ci = result.cripple_ci95
    cripple = result.cripple
    letters = list(result.card.letters)
    return _frame("cripple", {
        "letter": letters, "system": [_letter_name(result, x) for x in letters],
        "probability": [cripple[x] for x in letters],
        "ci_low": [ci[x][0] for x in letters], "ci_high": [ci[x][1] for x in letters],
    })


def cripple_after_frame(result: Result) -> pd.DataFrame:
    """Per attack slot and letter: the probability the letter is crippled once the attack
    is resolved. Columns ``attack`` (1-based), ``label``, ``letter``, ``probability``.
    Empty for a damage track.
    """
    if result.card is None or not result.card.letters:
        return _frame("cripple_after")
    after = result.cripple_after
    n, k = after.shape
    return _frame("cripple_after", {
        "attack": np.repeat(np.arange(1, n + 1), k),
        "label": np.repeat(np.asarray(result.slot_labels, dtype=object), k),
        "letter": list(result.card.letters) * n,
        "probability": after.reshape(-1),
    })


def turn_frame(result: Result) -> pd.DataFrame:
    """Probability the target is killed by the end of each round, with its 95% Wilson
    interval. Columns ``turn`` (1-based), ``kill``, ``ci_low``, ``ci_high``. Empty when a
    single round is simulated (``summary`` has ``kill`` then).
    """
    if result.turns <= 1:
        return _frame("by_turn")
    rows = result.turn_rows
    return _frame("by_turn", {
        "turn": [r["turn"] for r in rows], "kill": [r["kill"] for r in rows],
        "ci_low": [r["kill_ci95"][0] for r in rows], "ci_high": [r["kill_ci95"][1] for r in rows],
    })


def effect_frame(result: Result) -> pd.DataFrame:
    """Continuous effects and hazards, one row per effect and round.

    Columns ``effect`` (those of ``fire``, ``corrosion``, ``quicksand`` that can happen in the
    scenario), ``turn`` (1-based), then the probability it was ``present`` on the target at
    the maintenance phase, was ``applied`` (present and did not expire), the expected
    ``damage_mean`` points it marked in that round, the probability it ``kill``-ed the target
    in that round, the probability it is on the target at the end of the round
    (``burning_after``), the focus the target spent against it (``target_spent_mean``) and the
    Tough saves it caused (``tough_saves``). Empty when no continuous effect or hazard can happen.
    """
    if result.rounds is None:
        return _frame("effects")
    turns = result.turns
    columns = {"present": EFFECT_PRESENT, "applied": EFFECT_APPLIED, "damage_mean": EFFECT_DAMAGE,
               "kill": EFFECT_KILL, "burning_after": EFFECT_AFTER,
               "target_spent_mean": EFFECT_TARGET_SPENT, "tough_saves": EFFECT_TOUGH}
    names = list(result.effects)
    data: dict = {"effect": [e for e in names for _ in range(turns)],
                  "turn": list(range(1, turns + 1)) * len(names)}
    for name, col in columns.items():
        data[name] = np.concatenate([result.effect_figure(e, col) for e in names])
    return _frame("effects", data)


def box_frame(result: Result) -> pd.DataFrame:
    """Probability each box of the target's damage grid or life spiral ends marked.

    One row per box: ``column`` (grid column or spiral branch, 1-6 left to right), ``row``
    (1-based: top box of a grid column, outermost box of a spiral branch first), ``letter``
    (its system or aspect, ``.`` for a hull box) and ``probability``. Empty for a damage
    track. ``pivot(index="row", columns="column", values="probability")`` draws the card.
    """
    if result.card is None or not result.card.box_weights:
        return _frame("boxes")
    marked = result.box_marked
    card = result.card.columns
    data: dict = {"column": [], "row": [], "letter": [], "probability": []}
    for c, col in enumerate(marked):
        for r, p in enumerate(col):
            data["column"].append(c + 1)
            data["row"].append(r + 1)
            data["letter"].append(card[c][r] if c < len(card) and r < len(card[c]) else "")
            data["probability"].append(float(p))
    return _frame("boxes", data)


def targets_frame(result: Result) -> pd.DataFrame:
    """Several targets, one row per target and metric (``kill``, ``damage_mean``, ``destroyed``,
    ``kill_by_turn:T``): ``target``, ``metric``, ``value``, ``ci_low``, ``ci_high``."""
    if not result.several:
        return _frame("targets")
    rows = []
    for name, f in result.targets.items():
        rows += [(name, "kill", f["kill"], *f["kill_ci95"]),
                 (name, "damage_mean", f["damage_mean"], *f["damage_mean_ci95"]),
                 (name, "destroyed", f["models_destroyed_mean"], *f["models_destroyed_ci95"])]
        if result.turns > 1:
            rows += [(name, f"kill_by_turn:{t + 1}", p, _NAN, _NAN) for t, p in enumerate(f["kill_by_turn"])]
    return _frame("targets", {c: [r[i] for r in rows] for i, c in enumerate(COLUMNS["targets"])})


_BUILDERS = {
    "summary": summary_frame,
    "damage": damage_frame,
    "destroyed": destroyed_frame,
    "attacks": attack_frame,
    "cripple": cripple_frame,
    "cripple_after": cripple_after_frame,
    "by_turn": turn_frame,
    "effects": effect_frame,
    "boxes": box_frame,
    "targets": targets_frame,
}


def tables(result: Result) -> dict[str, pd.DataFrame]:
    """Every table that applies to ``result``, keyed by its file-friendly name, in the order
    ``summary``, ``damage``, ``destroyed`` (a unit as the target), ``attacks``, ``cripple``,
    ``cripple_after``, ``by_turn``, ``effects``, ``boxes``, ``targets`` (several targets;
    tables that do not apply are left out).

    Examples
    --------
    >>> from mathhammer import Attacker, Scenario, Target, Weapon, simulate
    >>> jack = Attacker("Jack", [Weapon("Fist", "melee", skill=7, pow=16)])
    >>> res = simulate(Scenario(Target(defense=12, arm=18, boxes=30), [jack]), method="exact")
    >>> list(tables(res))
    ['summary', 'damage', 'attacks']
    """
    out = {}
    for name, build in _BUILDERS.items():
        frame = build(result)
        if len(frame):
            out[name] = frame
    return out


def table_names(scenario) -> list[str]:
    """Names of the tables :func:`tables` gives for a result of ``scenario``, known before
    simulating it (the command line checks for files it would overwrite first)."""
    t = scenario.card_target
    card = t.card is not None
    letters = bool(card and t.letters)
    applies = {"summary": True, "damage": True, "destroyed": scenario.total_models > 1, "attacks": True,
               "cripple": letters, "cripple_after": letters, "by_turn": scenario.turns > 1,
               "effects": scenario.continuous, "boxes": card, "targets": scenario.several}
    return [name for name in COLUMNS if applies[name]]

"""Run one trial of the real kernel on dice we choose, for worked examples.

The kernel reads its dice from a buffer of pairs (mathhammer._core.pairs); handing it a
buffer we wrote lets a test replay an example from the rules roll by roll and check what the
kernel did with each attack.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mathhammer._core.pairs import pair_entry
from mathhammer.montecarlo._kernels.driver import derived_rows, made_counts
from mathhammer.montecarlo._kernels.layout import (
    E_KILL,
    E_NFIELDS,
    N_EFFECTS,
    C_BOOST_ATT,
    C_BOOST_DMG,
    C_CRIT,
    C_DAMAGE,
    C_HIT,
    C_MADE,
    C_NFIELDS,
    C_SPENT,
    C_TARGET_SPENT,
    C_TOUGH,
    C_DESTROYED,
    C_SHRED,
    Counters,
)
from mathhammer._core.rng import FILL_SLACK, RNG_WORDS
from mathhammer.montecarlo._kernels.driver import run_chunk
from mathhammer.montecarlo.encode import encode


@dataclass
class Played:
    made: list[int]
    hit: list[int]
    crit: list[int]
    damage: list[int]
    marked: int
    killed_by: int | None
    rolls_read: int
    boost_attack: list[int]
    boost_damage: list[int]
    spent: list[int]
    target_spent: list[int]
    tough: list[int]
    crippled: set[str]        # letters of the target's card crippled at the end
    crippled_after: list[set[str]]  # ... once each slot is resolved
    marks: list[list[int]]    # per column, 1 for each marked box (top / outermost first)
    effects: np.ndarray       # [round, effect (fire, corrosion, quicksand), E_*] counters
    destroyed: list[int]      # models each attack destroyed (a unit target; 1 at a kill)
    models_destroyed: int     # models of the target destroyed at the end (of every target)
    target_destroyed: list[int]  # several targets: each one's models destroyed at the end
    target_marked: list[int]  # ... each one's damage marked at the end
    mask_hist: np.ndarray     # per column, models with each set of marked rows at the end
    shred: list[int]          # Shred attacks each slot led to


def _entries(roll: tuple[int, ...]) -> list[int]:
    """Buffer entries of one roll: its dice two by two (an odd last die stands alone)."""
    assert roll and all(1 <= d <= 6 for d in roll), roll
    return [pair_entry(*roll[k : k + 2]) for k in range(0, len(roll), 2)]


def play(scenario, rolls) -> Played:
    """Resolve ``scenario`` once with the given rolls, in the order the kernel makes them.

    ``rolls`` is a list of tuples, one per roll (attack, damage, a grid's column d6, a Tough
    d6, a continuous effect's expiry d6 or a burning earth's d6 as a 1-tuple; fire's 2d6),
    in the order docs/activation.md gives, e.g. ``[(3, 4), (5, 6)]``; a flat list of ints is
    read as consecutive two-dice rolls. Rolls the kernel does not make (an automatic hit
    rolls no attack dice) must be left out; a miss's damage roll is drawn and dropped (the
    stream's rule, mathhammer/_core/rng.py), so it is given too. With several rounds the
    per-slot lists have a row per slot per round with attacks.
    """
    if all(isinstance(r, int) for r in rolls):
        assert len(rolls) % 2 == 0, "a flat list is read two dice a roll"
        rolls = [tuple(rolls[k : k + 2]) for k in range(0, len(rolls), 2)]
    ends = np.cumsum([len(_entries(r)) for r in rolls])
    entries = [e for r in rolls for e in _entries(r)]
    enc = encode(scenario)
    size = len(entries) + enc.max_draws  # room enough that the kernel never refills
    buf = np.zeros(size + FILL_SLACK, dtype=np.uint8)  # unscripted entries: double ones
    buf[: len(entries)] = entries
    rs = np.zeros(RNG_WORDS, dtype=np.uint64)  # unused: no refill happens
    n = enc.attacks.shape[0] // len(scenario.targets)  # a block of rows per target
    models = scenario.total_models
    hist = np.zeros(scenario.total_boxes + 1, dtype=np.int64)
    destroyed_hist = np.zeros(models + 1, dtype=np.int64)
    n_letters = max(1, len(enc.letters))
    mask_hist = np.zeros((enc.col_full.size, 1 << 10), dtype=np.int64)  # six columns, a colossal's 12
    rows = n * scenario.attack_rounds
    counts = np.zeros((max(1, rows), C_NFIELDS), dtype=np.int64)
    kill_at = np.zeros(max(1, rows), dtype=np.int64)
    cripple_hist = np.zeros((rows + 1, 1 << n_letters), dtype=np.int64)
    effect_counts = np.zeros((scenario.turns, N_EFFECTS, E_NFIELDS), dtype=np.int64)
    k = len(scenario.targets)
    t_damage = np.zeros((k, max(t.boxes * t.models for t in scenario.targets) + 1), dtype=np.int64)
    t_destroyed = np.zeros((k, max(t.models for t in scenario.targets) + 1), dtype=np.int64)
    t_kills = np.zeros((k, scenario.turns), dtype=np.int64)
    t_made = np.zeros((max(1, rows), k), dtype=np.int64)
    counters = Counters(hist, counts, kill_at, cripple_hist, mask_hist, effect_counts, destroyed_hist,
                        t_damage, t_destroyed, t_kills, t_made)
    pos = run_chunk(1, rs, buf, 0, size, enc.max_draws, 0, enc.tables, counters)
    assert pos <= len(entries), f"the kernel made more rolls than the {len(rolls)} scripted"
    assert pos == 0 or pos in ends, "the kernel stopped inside a scripted roll"
    killed = np.flatnonzero(kill_at)
    letters = enc.letters
    after, marks = [], []
    if scenario.target.card is not None:
        cripple_hist[0, 0] += 1  # the kernel records changes; the trial starts with none
        cripple_hist = np.cumsum(cripple_hist, axis=0)
        for i in range(rows + 1):
            bits = int(np.flatnonzero(cripple_hist[i])[0])
            after.append({x for k, x in enumerate(letters) if (bits >> k) & 1})
        for c, col in enumerate(scenario.target.card):
            m = int(np.flatnonzero(mask_hist[c])[0])
            marks.append([(m >> r) & 1 for r in range(len(col))])
    initial = derived_rows(enc.attacks, n, scenario.attack_rounds)
    maintenance = effect_counts[:, 0, E_KILL] + effect_counts[:, 1, E_KILL]
    made = counts[:, C_MADE] if scenario.several else np.where(
        initial, made_counts(kill_at, 1, maintenance, n), counts[:, C_MADE])
    return Played(
        made=made.tolist(),
        hit=counts[:, C_HIT].tolist(),
        crit=counts[:, C_CRIT].tolist(),
        damage=counts[:, C_DAMAGE].tolist(),
        marked=int(np.flatnonzero(hist)[0]),
        killed_by=int(killed[0]) if killed.size else None,
        rolls_read=int(np.searchsorted(ends, pos, side="right")),
        boost_attack=counts[:, C_BOOST_ATT].tolist(),
        boost_damage=counts[:, C_BOOST_DMG].tolist(),
        spent=counts[:, C_SPENT].tolist(),
        target_spent=counts[:, C_TARGET_SPENT].tolist(),
        tough=counts[:, C_TOUGH].tolist(),
        destroyed=(counts[:, C_DESTROYED] + kill_at).tolist(),
        models_destroyed=int(np.flatnonzero(destroyed_hist)[0]) if models > 1 else int(killed.size > 0),
        target_destroyed=[int(np.flatnonzero(row)[0]) for row in t_destroyed] if scenario.several else [],
        target_marked=[int(np.flatnonzero(row)[0]) for row in t_damage] if scenario.several else [],
        mask_hist=mask_hist.copy(),
        crippled_after=after[:-1],
        crippled=after[-1] if after else set(),
        marks=marks,
        effects=effect_counts,
        shred=counts[:, C_SHRED].tolist(),
    )

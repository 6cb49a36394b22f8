"""Where a trial against a unit or several targets stands, and how it moves on: the model
under attack is the first of its target's models still standing, and when it is destroyed the
next takes its place (spill-over, docs/units.md); with several targets, a target destroyed
leaves the next attack's route to pick another, and a guard may take a hit (Shield Guard).

``run[R_*]`` holds the target and model under attack and the few figures an attack hands to
the next; the models' and targets' rows are :mod:`.model_state`'s. A Dispel of a target's
upkeep spells holds for all its models: the target's row keeps the bit for the round
(``G_DISPELLED``), and each model takes it as it is attacked.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from .layout import ST_DISPELLED, ST_PRONE, ST_STILL, T_FIRST_MODEL, T_GUARDED_BY, T_MODELS
from .model_state import G_DEAD, G_DESTROYED, G_DISPELLED, G_GUARDED, M_GONE, M_STATE

__all__ = ["R_G", "R_CUR", "R_ALIVE", "R_PROW", "R_WOFF", "R_SLAM", "R_FIELDS", "GOES_ON", "ENDS", "KILL",
           "first_standing", "enter", "switch_target", "target_falls", "model_falls", "is_last",
           "shield_guard"]

# --- where the trial stands: run[R_*]
R_G = 0      # the target under attack (-1: none, until an attack's route picks one)
R_CUR = 1    # its model under attack: the first of its models still standing
R_ALIVE = 2  # targets standing
R_PROW = 3   # the decision row of the attack being made (a Shred attack's: the first one's)
R_WOFF = 4   # the row of its weapon within its target's block (a Shred attack's too)
R_SLAM = 5   # 1: the last attack hit (a slam's collateral damage roll is made only then)
R_FIELDS = 6

# --- what a model destroyed leaves the attack
GOES_ON = 0  # the attack goes on against the model it hit
ENDS = 1     # the attack ends (the next model or target takes the next one)
KILL = 2     # every target is destroyed: the trial ends


@jit(inline=True)
def first_standing(models, tg):
    """The first model of target ``tg`` (its vector of ``groups``) still standing (-1: none)."""
    lo = tg[T_FIRST_MODEL]
    for j in range(lo, lo + tg[T_MODELS]):
        if models[j, M_GONE] == 0:
            return np.int64(j)
    return np.int64(-1)


@jit(inline=True)
def enter(models, ts, before, j):
    """Model ``j`` of target ``ts`` is acted on next, after model ``before``: a Dispel on
    either holds for both (the target's round bit)."""
    ts[G_DISPELLED] |= models[before, M_STATE] & ST_DISPELLED
    models[j, M_STATE] |= ts[G_DISPELLED]


@jit(inline=True)
def switch_target(models, targets, groups, run, to):
    """Target ``to`` is attacked next: the target left keeps its Dispel, and the first model
    of ``to`` still standing takes ``to``'s."""
    g = run[R_G]
    if g >= 0:
        targets[g, G_DISPELLED] |= models[run[R_CUR], M_STATE] & ST_DISPELLED
    cur = first_standing(models, groups[to])
    models[cur, M_STATE] |= targets[to, G_DISPELLED]
    run[R_G] = to
    run[R_CUR] = cur


@jit(inline=True)
def target_falls(targets, run, target_kills, t, multi):
    """The target under attack is destroyed in round ``t``: with others standing, the next
    attack's route picks one (``ENDS``), else the kill (``KILL``)."""
    if not multi:
        return KILL
    g = run[R_G]
    targets[g, G_DEAD] = 1
    target_kills[g, t] += 1
    run[R_ALIVE] -= 1
    if run[R_ALIVE] > 0:
        run[R_G] = -1
        return ENDS
    return KILL


@jit(nrt=False, helper=True)
def model_falls(models, targets, groups, run, target_kills, t, multi):
    """The model under attack is destroyed: the next of its target's models takes its place
    from the next attack on, or the target falls (:func:`target_falls`)."""
    g, cur = run[R_G], run[R_CUR]
    targets[g, G_DESTROYED] += 1
    models[cur, M_GONE] = 1
    if targets[g, G_DESTROYED] < groups[g, T_MODELS]:
        nxt = cur + 1  # the model under attack is the first standing: the next is after it
        while models[nxt, M_GONE] != 0:
            nxt += 1
        enter(models, targets[g], cur, nxt)
        run[R_CUR] = nxt
        return ENDS
    return target_falls(targets, run, target_kills, t, multi)


@jit(inline=True)
def is_last(targets, groups, run):
    """Whether the model under attack is the last standing of every target (its
    destruction is the kill)."""
    g = run[R_G]
    return targets[g, G_DESTROYED] + 1 >= groups[g, T_MODELS] and run[R_ALIVE] == 1


@jit(nrt=False, helper=True)
def shield_guard(models, targets, groups, run, t):
    """A ranged hit on a target another guards (docs/rules.md 9): once a round the guard is
    hit instead, while it stands and is neither knocked down nor stationary. Returns whether
    it was (the guard is then under attack)."""
    gd = groups[run[R_G], T_GUARDED_BY]
    if targets[gd, G_DEAD] != 0 or targets[gd, G_GUARDED] == t + 1:
        return False
    if (models[first_standing(models, groups[gd]), M_STATE] & (ST_PRONE | ST_STILL)) != 0:
        return False
    targets[gd, G_GUARDED] = t + 1
    switch_target(models, targets, groups, run, gd)
    return True

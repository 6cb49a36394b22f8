"""Which variant of the general kernel a scenario takes.

Each variant compiles only the steps its scenarios can run: the basic, lean and lasting
variants run :func:`.single_trials.single_trials` (one model, one target), the units_basic,
units and full variants :func:`.many_trials.many_trials` (a unit, blasts, several targets,
Shred). Each is
compiled apart for the types of its arguments: ``extra`` set to ``None`` leaves out the
steps of the rules beyond the core of an attack (:data:`EXTRA_FLAGS`, -DEF/-ARM effects,
"damage to", the target's power field, Tough, Rapid Healing, colossals), ``lasting`` set to
``None`` those of continuous effects and hazards (the maintenance phase, a knockdown in
quicksand). Six variants:

===========  =====  =======  =====  ====================================================
name         rare   lasting  extra  scenarios
===========  =====  =======  =====  ====================================================
basic        None   None     None   one model, attacks with boosts, bought attacks, best
                                    play, knockdown, charge, damage tracks, grids, spirals
lean         None   None     True   one model, any rule of an attack or target
units_basic  True   None     None   a unit, blasts, several targets, Shred, on damage
                                    tracks, with the basic variant's rules
units        True   None     True   a unit, blasts, several targets, Shred; any rule
lasting      None   True     True   one model with continuous effects or hazards
full         True   True     True   anything: fire on a unit, on several targets ...
===========  =====  =======  =====  ====================================================

Numba leaves a branch out when compiling only where its test is on an argument that is
None (``extra is None`` with ``extra`` True is left to run time, its branch compiled in).
Where a variant has two alternatives, each compiled out of the other's variants, each is
behind an argument of its own: ``extra``, None in the basic variants, and ``basic``, None in
the others (the kernels' ``make_args`` set it from ``extra``).

``units_basic`` is the common unit scenario (infantry shooting infantry, a warjack's fists
into a unit) with a unit model's attack free of calls: :func:`.unit_attacks.one_basic_attack`.

A scenario takes a pruned variant only where none of the pruned paths can run: its counts
are then the same as the full variant's, bit for bit (tests/test_kernel_variant.py). The
first runs of each, measured, are in docs/performance.md.
"""

from __future__ import annotations

from .layout import (A_DAMAGE_TO, A_EFFECT_BIT, A_FLAGS, CAP_TRACK, F_AFTER_ROLL, F_BLAST, F_CORROSION,
                     F_AT_ONCE, F_CRIT_AP, F_CRIT_CORROSION, F_CRIT_FIRE, F_DECAP, F_DECAP_HIT,
                     F_FIRE, F_REROLL_ATT, F_REROLL_DMG, F_ROF, F_SHATTER,
                     F_TRASH, N_COLUMNS, T_CAPACITY, T_EFFECTS, T_GUARD_BLOCKS, T_HAZARDS, T_MODELS, T_POINTS,
                     T_RAPID_HEAL,
                     T_TOUGH, TOUGH_NONE)

__all__ = ["EXTRA_FLAGS", "SETS_EFFECT", "basic_gate", "needs_extra", "needs_lasting", "needs_rare", "variant_of"]

#: Row flags that put a continuous effect on the target.
SETS_EFFECT = F_FIRE | F_CORROSION | F_CRIT_FIRE | F_CRIT_CORROSION

#: Row flags of the rules whose paths the basic variant prunes: a random rate of fire,
#: rerolls, Dispel, Grievous Wounds, Sustained Attack (on any hit or a critical one), Trash, Shatter, Armor-Piercing on a
#: critical hit, Decapitation, and what a hit leaves after its damage roll (Ice Cage,
#: Paralysis, a late Dispel, -ARM stacking).
EXTRA_FLAGS = (F_ROF | F_REROLL_ATT | F_REROLL_DMG | F_AT_ONCE | F_TRASH
               | F_SHATTER | F_CRIT_AP | F_DECAP | F_DECAP_HIT | F_AFTER_ROLL)


def basic_gate(extra):
    """The kernels' ``basic`` argument for ``extra``: True in the basic variants (``extra``
    None), else None, so Numba compiles the basic variants' own steps out of the others.

    >>> basic_gate(None), basic_gate(True)
    (True, None)
    """
    return True if extra is None else None


def needs_rare(tables) -> bool:
    """Whether the encoded scenario ``tables`` (:class:`.layout.Tables`) needs the paths of
    units, blasts and several targets (the kernel of :mod:`.many_trials`): several targets
    (or Shred: a routes matrix), a unit, or a blast."""
    return _rare(tables, *_rows(tables))


def needs_lasting(tables) -> bool:
    """Whether the encoded scenario ``tables`` needs the paths of continuous effects and
    hazards (``lasting`` not None): a continuous effect or hazard a target starts with, or a
    weapon putting one on.

    The kernels' own test for the maintenance phase (:func:`.round_end.can_last`) reads
    the same fields, so a pruned variant is taken only where the full variant would skip
    every pruned path.
    """
    return _lasting(tables, *_rows(tables))


def needs_extra(tables) -> bool:
    """Whether the encoded scenario ``tables`` needs the paths the basic variant prunes
    (``extra`` not None): an attack row (alternative weapons included) with a flag of
    :data:`EXTRA_FLAGS`, a -DEF/-ARM effect or "damage to"; a target with focus or fury to
    spend against damage (its power field), Tough or Rapid Healing; or a colossal's grid
    (more than six columns).

    Each is the runtime test that guards its path in the kernel (a target's points only fall
    from its starting value), so where this is false the full variant never enters one.
    """
    return _extra(tables, *_rows(tables))


def variant_of(tables) -> tuple[str, tuple]:
    """The variant the scenario ``tables`` takes: its name (``"basic"``, ``"lean"``,
    ``"units_basic"``, ``"units"``, ``"lasting"`` or ``"full"``) and its ``(rare, extra, lasting)``, the last
    arguments the driver hands the kernel's ``make_args``. ``rare`` and ``lasting`` each
    imply ``extra``: the full variant keeps every path."""
    rows = _rows(tables)  # once: a balance matrix asks at every point
    rare, lasting = _rare(tables, *rows), _lasting(tables, *rows)
    if rare and lasting:
        return "full", (True, True, True)
    if lasting:
        return "lasting", (None, True, True)
    extra = _extra(tables, *rows)
    if rare and not extra and all(g[T_CAPACITY] == CAP_TRACK for g in rows[1]):
        return "units_basic", (True, None, None)  # no card: every model only marks its track
    if rare:
        return "units", (True, True, None)
    if extra:
        return "lean", (None, True, None)
    return "basic", (None, None, None)


def _rows(tables) -> tuple[list, list]:
    """The attack rows and target vectors of ``tables`` as Python lists: NumPy's cost per
    call on tables this small was most of the work."""
    return tables.attacks.tolist(), tables.groups.tolist()


def _rare(tables, attacks: list, groups: list) -> bool:
    return bool(tables.routes.ndim > 1 or sum(g[T_MODELS] for g in groups) > 1
                or any(a[A_FLAGS] & F_BLAST for a in attacks))


def _lasting(tables, attacks: list, groups: list) -> bool:
    return bool(any(a[A_FLAGS] & SETS_EFFECT for a in attacks)
                or any(g[T_EFFECTS] != 0 for g in groups) or tables.target[T_HAZARDS] != 0)


def _extra(tables, attacks: list, groups: list) -> bool:
    return bool(any(a[A_FLAGS] & EXTRA_FLAGS or a[A_EFFECT_BIT] != 0 or a[A_DAMAGE_TO] >= 0
                    for a in attacks)
                or any(g[T_POINTS] > 0 or g[T_TOUGH] != TOUGH_NONE or g[T_RAPID_HEAL] != 0
                       or g[T_GUARD_BLOCKS] > 0 for g in groups)
                or tables.col_full.shape[0] > N_COLUMNS)

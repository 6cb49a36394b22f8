"""Trials of one chunk: every attack slot of the sequence in order against the target (a
single model, a unit, or several targets).

This file is over 400 lines on purpose (the package's limit for a module, tests/
test_architecture.py): the trial loop, the attack loop and the suffering closure must stay
in one function for speed, measured when the package was reshaped: moving only the marking of
a damage grid out of the closure into a jitted helper in damage.py, with the same counts, made
the grid workload (3 attacks against a heavy grid, benchmarks/bench_kernel.py) 3.2x slower on
one thread (76 -> 244 ns per trial), and 1.8x slower inlined at Numba IR level (77 -> 139 ns).

The rules followed, step by step, are ``docs/activation.md`` (docs/rules.md 1, 2, 5, 6, 7, 9).
Each attack is fully resolved before the next and sees the state the earlier attacks left:
damage marked (the sequence stops at a kill), situation bits (knocked down, stationary,
dispelled, Grievous Wounds), active -DEF / -ARM effects, the target's focus or fury left,
and the current attacker's points left (reset at the first slot of each attacker).

The trial loop, the attack loop and the reading of the dice buffer live in this one function
on purpose: passing arrays into helpers on every trial costs reference-count calls that keep
table reads from being hoisted and double the time of a trial. Helpers take scalars only, but
for the closure ``suffer`` (power field, marking, Tough, healing, crippling), which Numba
inlines where it is called: after an attack, and on the rare paths (a knockdown in quicksand,
the maintenance phase), each a loop or branch of its own outside the attack path, so that an
attack pays for none of them. The closures' calls on branches the argument types prune (the
paths of units and several targets, ``rare is None``; of continuous effects and hazards,
``lasting is None``; the extra rules, ``extra is None``: the variants of :mod:`.variant`)
are pruned before they are inlined (``prune_first``,
:mod:`mathhammer._core.jit`): inlining them cost most of the cold compile. A gate is an
argument tested as ``rare is not None and ...`` (Numba prunes only a test of an argument
itself, and only where no local of the kernel shares its name).
The small scalar helpers (:mod:`.dice`, :mod:`.damage`) are called, not inlined at Numba IR
level (LLVM inlines them), and the kernel :func:`trials_kernel` is called from Python once a
chunk (:func:`run_trials`), never from another jitted function: each jitted caller would
generate its machine code again, about 1 s of a cold compile per level.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from ..._core.limits import MAX_SHRED
from ..._core.pairs import PAIR_SUM, die_of
from ..._core.rng import fill_pairs
from .damage import LOWEST, POPCOUNT, lowest_bits, mark_track
from .dice import (attack_from_stats, kept_of, read_word, roll_stats, sum_of_three_or_four,
                   two_dice_attack)
from .situation import situation_bits
from .variant import SETS_EFFECT
from .layout import (
    A_ARM,
    A_ARM_MINUS,
    A_ATT_DICE,
    A_ATT_MODE,
    A_NUMBER,
    A_ROF,
    A_CRIT_ARM_CUT,
    A_DMG_MODE,
    A_ATTACKER,
    A_BLAST_POW,
    A_BLAST_MODELS,
    A_BLAST_MISS,
    A_BLAST_DICE,
    A_AUTOHIT_ON,
    A_CHOICE_ROW,
    A_CHOICES,
    A_COST,
    A_DEF,
    A_DEF5,
    A_DAMAGE_TO,
    A_DEF_MINUS,
    A_DMG_DICE,
    A_EFFECT_BIT,
    A_EFFECT_ON,
    A_FLAGS,
    A_ORIGIN,
    A_POW,
    A_SKILL,
    A_SPELL_DEF,
    A_UPKEEP_ARM,
    A_UPKEEP_DEF,
    CAP_GRID,
    D_BOOST_ATTACK,
    D_BOOST_DAMAGE_CRIT,
    D_BOOST_DAMAGE_HIT,
    D_BUY,
    D_KNOWN_ATTACK,
    D_KNOWN_BUY,
    D_KNOWN_DAMAGE_CRIT,
    D_KNOWN_DAMAGE_HIT,
    CE_CORROSION,
    CE_FIRE,
    CE_QUICKSAND,
    CAP_TRACK,
    C_BOOST_ATT,
    C_BOOST_DMG,
    C_CRIT,
    C_DAMAGE,
    C_DESTROYED,
    C_HIT,
    C_MADE,
    C_SPENT,
    C_TARGET_SPENT,
    C_TOUGH,
    C_SHRED,
    CRIT,
    E_AFTER,
    E_APPLIED,
    E_DAMAGE,
    E_DESTROYED,
    E_KILL,
    E_PRESENT,
    E_TARGET_SPENT,
    E_TOUGH,
    F_BLAST,
    F_BRUTAL,
    F_BRUTAL_HIT,
    F_CORROSION,
    F_CRIT_CORROSION,
    F_CRIT_FIRE,
    F_CRIT_KNOCKDOWN,
    F_CRIT_STATIONARY,
    F_DAMAGE,
    F_CRIT_AP,
    F_DECAP,
    F_DECAP_HIT,
    F_DISPEL_LATE,
    F_KD_STOPS_TOUGH,
    F_CRIT_ICE,
    F_CRIT_PARALYSIS,
    F_ICE,
    F_LASTING,
    F_AFTER_ROLL,
    F_ARM_STACKS,
    F_ROF,
    F_SUSTAIN,
    F_SHRED,
    F_GUARDABLE,
    F_SLAMS,
    F_COLLATERAL,
    A_SIDE,
    SIDE_RANDOM,
    F_PARALYSIS,
    F_SHATTER,
    F_TRASH,
    F_DECLINE_SKIPS,
    F_DISPEL,
    F_FIRE,
    F_FIRST,
    FIRE_POW,
    F_FREE_ATT_BOOST,
    F_FREE_DMG_BOOST,
    F_GRIEVOUS,
    F_IGNORE_SHIELD,
    F_KNOCKDOWN,
    F_REROLL_ATT,
    F_REROLL_DMG,
    F_STATIONARY,
    GL_C,
    GL_F,
    GL_G,
    GL_H,
    GL_L,
    GL_M,
    GL_R,
    HIT,
    HZ_ACID,
    HZ_EARTH,
    HZ_QUICKSAND,
    K_CARD,
    K_CONT,
    K_DAMAGE,
    K_DESTROYED,
    K_ICE,
    K_SHOTS,
    K_ARM_EXTRA,
    K_SHRED,
    K_EARTH,
    K_EFFECTS,
    K_LOST,
    K_POINTS,
    K_ROWS,
    K_SITUATION_INDEX,
    K_SITUATIONS,
    K_TPOINTS,
    MISS,
    MODE_ALWAYS,
    MODE_AUTO,
    N_COLUMNS,
    ORIGIN_BOUGHT,
    P_BEST,
    P_BOOST_ATT,
    P_BOOST_ATT_AT,
    P_BOOST_DMG,
    P_POINTS,
    P_RESERVE,
    PF_BEST,
    PF_LETHAL,
    PK_FOCUS,
    R_SANGUINE,
    ST_BASE_DEF_5,
    ST_DISPELLED,
    ST_GRIEVOUS,
    ST_KNOCKED_DOWN,
    ST_MOVE_CRIPPLED,
    ST_PRONE,
    ST_STATIONARY,
    ST_STILL,
    ST_ICE_ONE,
    ST_ICE_SHIFT,
    ST_PARALYZED,
    ST_SUSTAINED,
    ST_ARM_SHIFT,
    MAX_ARM_EXTRA,
    ROF_D3,
    ROF_D6,
    MAX_ICE,
    T_ARM_BASE,
    T_ATTACK_ROUNDS,
    T_BOXES,
    T_CAPACITY,
    T_EFFECTS,
    T_HAZARDS,
    T_FIRST_MODEL,
    T_MODELS,
    T_NLETTERS,
    T_POINTS,
    T_POWER_KIND,
    T_POWER_POLICY,
    T_RAPID_HEAL,
    T_SHIELD_ARM,
    T_SHIELD_LOC,
    T_SLOTS,
    T_STATE,
    T_SUFFERS,
    T_TARGETS,
    T_TURNS,
    T_UPKEEP_ARM,
    T_TOUGH,
    T_TOUGH_ON,
    T_GUARDED_BY,
    T_TOUGH_UPKEEP,
    TOUGH_NONE,
    TOUGH_STEADY,
)

#: ``source`` of an event that is an attack (continuous effects are 0.., see CE_*).
SRC_ATTACK = -1

#: Grid letters of the Shield/Buckler locations L, R, H, F (order of T_SHIELD_LOC).
_SHIELD_LETTER = np.array([GL_L, GL_R, GL_H, GL_F], dtype=np.int64)


@jit(helper=True)
def _lasting(state, flags, crit):
    """The state bits after a hit of a weapon with Ice Cage or Paralysis (docs/rules.md 1),
    and the DEF it takes off: Ice Cage -2 DEF a hit, cumulative, stationary from the second;
    Paralysis makes the base DEF 5 (melee attacks still roll)."""
    minus = 0
    if (flags & F_ICE) != 0 or (crit == 1 and (flags & F_CRIT_ICE) != 0):
        if ((state >> ST_ICE_SHIFT) & MAX_ICE) < MAX_ICE:  # MAX_ICE stacks at most
            state += ST_ICE_ONE
            minus = 2
        if ((state >> ST_ICE_SHIFT) & MAX_ICE) >= 2:
            state |= ST_STATIONARY
    if (flags & F_PARALYSIS) != 0 or (crit == 1 and (flags & F_CRIT_PARALYSIS) != 0):
        state |= ST_PARALYZED
    return state, minus


def kernel_args(n_trials, rs, dice, pos, size, max_draws, stride, tables, counters, rare=True,
                extra=True, lasting=True):
    """The arguments of :func:`trials_kernel` for a chunk: ``tables`` (:class:`.layout.Tables`)
    and ``counters`` (:class:`.layout.Counters`, the chunk's row) unpacked.

    ``rare``: ``None`` compiles without the paths of units, blasts and several targets, and
    without the arrays and closures that hold the other models and targets
    (:func:`.variant.needs_rare`: where none can run); ``True`` keeps them.
    ``lasting``: ``None`` compiles without the paths of continuous effects and hazards (the
    maintenance phase, a knockdown in quicksand: :func:`.variant.needs_lasting`); ``True``
    keeps them (and with ``rare``, their visits to a unit's models and other targets).
    ``extra``: ``None`` compiles without the paths of the rules beyond the core of an attack
    (:func:`.variant.needs_extra`); ``True`` keeps them. The variants (:mod:`.variant`) are,
    as ``(rare, extra, lasting)``: ``(None, None, None)`` basic, ``(None, True, None)`` lean,
    ``(True, True, None)`` units, ``(None, True, True)`` lasting and
    ``(True, True, True)`` full (the driver runs the kernel built from steps,
    :mod:`.single_trials`, for the basic, lean and lasting ones: the counts are the same). The tables and counters go to the kernel as plain
    arguments: unpacked into locals the ``suffer`` closure captures, they cost the cold
    compile 0.7 s (6 %) more.
    """
    # the trial's scratch of a grid or spiral (below, ``colmask`` and ``order``): allocated
    # here, as NumPy's zeros compiled into the kernel cost every first run 0.2 s
    boxes = max(1, *tables.groups[:, T_BOXES].tolist())  # the target's row is the first
    return (n_trials, rs, dice, pos, size, max_draws, stride,
            np.zeros(tables.col_full.shape[0], dtype=np.int64), np.zeros(boxes, dtype=np.int64),
            tables.attacks,
            tables.attackers, tables.target, tables.col_full, tables.letter_mask,
            tables.letters_done, tables.play_keys, tables.play_attack, tables.play_field,
            tables.play_columns, tables.play_index, tables.groups, tables.routes,
            counters.damage_hist, counters.attack_counts, counters.kill_at,
            counters.cripple_delta, counters.mask_hist, counters.effect_counts,
            counters.destroyed_hist, counters.target_damage, counters.target_destroyed,
            counters.target_kills, counters.target_made, rare, extra, lasting)


def run_trials(n_trials, rs, dice, pos, size, max_draws, stride, tables, counters, rare=True,
               extra=True, lasting=True):
    """Simulate ``n_trials`` attack sequences (:func:`trials_kernel`, arguments as
    :func:`kernel_args` takes them); returns the read position after the last trial.

    A Python function, called once per chunk: the jitted kernel is the outermost compiled
    function, so Numba generates its machine code once. A jitted wrapper (or driver) calling
    it would link the kernel into its own module and generate that code again (about 1 s of
    a cold compile per level).
    """
    return trials_kernel(*kernel_args(n_trials, rs, dice, pos, size, max_draws, stride, tables,
                                      counters, rare, extra, lasting))


@jit(prune_first=True)
def trials_kernel(n_trials, rs, dice, pos, size, max_draws, stride, colmask, order, attacks,
                  attackers, target, col_full, letter_mask, letters_done, play_keys, play_attack,
                  play_field, play_columns, play_index, groups, routes, damage_hist,
                  attack_counts, kill_at, cripple_delta, mask_hist, effect_counts, destroyed_hist,
                  target_damage, target_destroyed, target_kills, target_made, rare, extra,
                  lasting):
    """Simulate ``n_trials`` attack sequences and add their outcomes to the counters.

    Parameters
    ----------
    n_trials : int
    rs : uint64[RNG_WORDS]
        The chunk's random stream, used to refill ``dice``.
    dice : uint8[size + FILL_SLACK]
        Buffer of pairs of dice (:mod:`.dice`); ``pos`` is the next entry to read. Before
        each trial, if fewer than ``max_draws`` entries are left it is refilled (so a buffer
        scripted by a test, with ``pos + max_draws <= size``, is read as written).
    stride : int
        0: each trial reads on where the last stopped. > 0 (aligned streams, for common
        random numbers): each trial starts ``stride`` entries after the last one started,
        whatever it read (``max_draws`` must then be ``stride``), so two scenarios run with
        the same seed and stride see the same dice in the same trial.
    colmask, order : int64 scratch of a grid or spiral, zeros: the marked rows of each column
        (as many as ``col_full``), the order boxes were marked in (at least the card's boxes;
        healing removes the last first); unread for damage tracks.
    attacks, attackers, target : int64 tables of :mod:`.layout` (of :class:`.layout.Tables`).
    rare, extra, lasting : None or bool, see :func:`kernel_args`.
    col_full, letter_mask, letters_done : int64 tables of the target's damage grid or
        life spiral (:mod:`.layout`); unread for damage tracks.
    play_keys, play_attack, play_field, play_columns, play_index : the decision tables of
        best play (:mod:`mathhammer.play.codes`), read for attackers with ``P_BEST`` and a
        target whose power policy is ``PF_BEST``; an unsolved entry falls back to the fixed
        rule. On a card solved exactly their damage index is the configuration's
        (``play_columns``, ``play_index``).
    damage_hist : int64[>= boxes + 1]
        Incremented at the final damage marked.
    attack_counts : int64[>= n_attacks, C_NFIELDS]
        Per attack slot, the ``C_*`` counters; ``C_MADE`` only for bought attacks (see
        :func:`.driver.made_counts` for initial ones).
    kill_at : int64[>= n_attacks]
        Incremented at the attack that killed the target.
    cripple_delta : int64[>= n_attacks, 2 ** n_letters]
        Grids and spirals: when slot i changes the set of crippled letters (a bit each) from
        A to B, ``[i, A]`` loses one and ``[i, B]`` gains one; every trial starts with none
        crippled, so the driver's running sum over slots gives, per slot, how many trials
        have each set once it is resolved (a change is rare: no count per slot and trial). A
        unit of models with a card counts every model's changes (the driver starts each
        trial with all of them at none).
    mask_hist : int64[columns, 2 ** MAX_ROWS] (six columns, a colossal's twelve)
        Grids and spirals: per column, incremented at the set of marked boxes at the end (of
        every model, for a unit of models with a card).
    effect_counts : int64[turns, N_EFFECTS, E_NFIELDS]
        Per round and continuous effect (fire, corrosion; quicksand's points), the ``E_*``
        counters.
    destroyed_hist : int64[>= models + 1]
        A unit target (``T_MODELS`` > 1): incremented at the models destroyed at the end.
        ``C_DESTROYED`` and ``E_DESTROYED`` count the models destroyed but the last, whose
        destruction is the kill (``kill_at``, ``E_KILL``): the driver adds those.
    groups, routes : several targets (``T_TARGETS`` > 1): every target's vector, and per
        slot the targets it goes to in order (:mod:`.layout`); the attacks table then has a
        block of rows per target.
    target_damage, target_destroyed, target_kills, target_made : several targets: per target,
        incremented at its damage and models destroyed at the end, at the round it was
        destroyed in, and per attack row at each attack made against it.
        ``damage_hist`` and ``destroyed_hist`` are then over every target's, ``kill_at`` and
        ``E_KILL`` count the destruction of the last target standing (every target
        destroyed), and every attack made counts ``C_MADE``.

    Against a unit the trial's target state is the model under attack's; the other models'
    (damage marked, situation, effects, continuous effects) wait in per-model arrays. When
    the model under attack is destroyed, the next living one takes its place (spill-over);
    the maintenance phase and the target's activation visit every living model in turn.

    Several targets are the models of every target one after the other in those arrays.
    The trial's locals hold the target under attack (its figures, read from ``groups`` when
    an attack's route leads to another: the locals of the one left wait in per-target
    arrays) and its model under attack. A target destroyed leaves the sequence going on
    until every target is. A ranged hit on a target another guards (``T_GUARDED_BY``) goes
    to the guard instead, once a round (Shield Guard).

    A critical hit with a weapon that has Shred makes the attack again at once, up to
    ``MAX_SHRED`` times in a chain (the attack loop's ``again`` / ``shred``); its counts go to
    the slot's row, a Shred attack itself to ``C_SHRED``.

    ``attack_counts``, ``kill_at`` and ``cripple_delta`` have a row per attack slot per round
    with attacks (round-major); ``cripple_delta`` has one more, the end of the last round.

    Returns
    -------
    pos : int
        Read position after the last trial.
    """
    boxes = target[T_BOXES]
    start_state = target[T_STATE]
    start_tpoints = target[T_POINTS]
    shield = target[T_SHIELD_ARM]
    power_focus = target[T_POWER_KIND] == PK_FOCUS
    power_lethal = target[T_POWER_POLICY] == PF_LETHAL
    power_best = target[T_POWER_POLICY] == PF_BEST
    # the state key of best play (mathhammer.play.codes.KeySpace.key)
    k_points = play_keys[K_POINTS]
    k_tpoints = play_keys[K_TPOINTS]
    k_situations = play_keys[K_SITUATIONS]
    k_effects = play_keys[K_EFFECTS]
    k_cont = play_keys[K_CONT]
    k_earth = play_keys[K_EARTH]
    k_damage = play_keys[K_DAMAGE]
    k_rows = play_keys[K_ROWS]
    k_lost = play_keys[K_LOST]
    k_card = play_keys[K_CARD] != 0
    k_destroyed = play_keys[K_DESTROYED]
    k_ice = play_keys[K_ICE]
    k_shots = play_keys[K_SHOTS]
    k_arm_extra = play_keys[K_ARM_EXTRA]
    k_shred = play_keys[K_SHRED]
    situation_index = play_keys[K_SITUATION_INDEX: K_SITUATION_INDEX + 128]
    # the key is the attacker's points left alone when nothing else can change
    key_is_points = (k_tpoints == 1 and k_situations == 1 and k_effects == 0 and k_cont == 1
                     and k_earth == 1 and k_lost == 1 and k_destroyed == 1 and k_ice == 1
                     and k_shots == 1 and k_arm_extra == 1 and k_shred == 1)
    tough = target[T_TOUGH]
    rapid = target[T_RAPID_HEAL]
    n_attacks = target[T_SLOTS]
    n_targets = target[T_TARGETS]
    # several targets: known when compiling (the encoder hands ``routes`` as a matrix then, and
    # with Shred, a vector for one target), so the single-target kernel compiles without their
    # paths, and without Shred's loop
    multi = routes.ndim > 1
    flat_routes = routes.ravel()
    block = attacks.shape[0] // n_targets  # rows per target: the slots', then the others
    n_alt = block - n_attacks  # other weapons of bought attacks (best play's choice)
    turns = target[T_TURNS]
    attack_rounds = target[T_ATTACK_ROUNDS]
    n_rows = attack_rounds * n_attacks
    start_effects = target[T_EFFECTS]
    suffers = target[T_SUFFERS]
    hazards = target[T_HAZARDS]
    # whether any continuous effect or hazard can happen (else no maintenance to resolve,
    # and no attack puts an effect on the target or knocks it down in quicksand)
    continuous = start_effects != 0 or hazards != 0
    for gg in range(n_targets):
        continuous |= groups[gg, T_EFFECTS] != 0
    for j in range(attacks.shape[0]):
        continuous |= (attacks[j, A_FLAGS] & SETS_EFFECT) != 0
    quicksand = (hazards & HZ_QUICKSAND) != 0
    on_card = target[T_CAPACITY] != CAP_TRACK
    feedback = target[T_CAPACITY] == CAP_GRID
    # several targets: at most one has a grid or spiral (its card tables are these)
    any_card = on_card
    n_letters = target[T_NLETTERS]
    card_boxes = boxes
    for gg in range(n_targets if multi else 0):
        if groups[gg, T_CAPACITY] != CAP_TRACK:
            any_card = True
            n_letters = groups[gg, T_NLETTERS]
            card_boxes = groups[gg, T_BOXES]
    # per-trial scratch of grids and spirals: marked rows per column and the order boxes
    # were marked in (healing removes the last first)
    # the card's columns: six, or a colossal's twelve (its left grid's, then its right's)
    n_cols = col_full.shape[0]
    colossal = n_cols > N_COLUMNS
    heals = tough != TOUGH_NONE or rapid != 0
    # letters on the card: the crippled set is the AND over columns of letters_done
    present = 0
    for x in range(n_letters):
        for c in range(n_cols):
            if letter_mask[x, c] != 0:
                present |= 1 << x

    # a unit's models (docs/units.md): damage marked, situation, -DEF / -ARM effects (bits and
    # sums) and continuous effects of each, and whether it stands; the model under attack's
    # live in the trial's locals, the arrays hold the others'
    n_models = target[T_MODELS]
    all_models = 0
    for gg in range(n_targets):
        all_models += groups[gg, T_MODELS]
    unit = all_models > 1
    # several targets: the target under attack (g, its first model m_lo), and the locals of
    # the others while they wait (stamped per trial as the models'), and when each fell
    g = 0
    m_lo = 0
    # the arrays of units and of several targets: the pruned variants (rare is None: one
    # model, one target) compile without them and without the closures that read them
    if rare is not None:
        m_marked = np.zeros(all_models, dtype=np.int64)
        m_state = np.zeros(all_models, dtype=np.int64)
        m_effects = np.zeros(all_models, dtype=np.int64)
        m_def_minus = np.zeros(all_models, dtype=np.int64)
        m_arm_minus = np.zeros(all_models, dtype=np.int64)
        m_cont = np.zeros(all_models, dtype=np.int64)
        # stamps, so that no array is reset per trial: the trial in which a model's state was
        # stored (else it is fresh, as the unit starts) and in which it was destroyed
        m_stamp = np.zeros(all_models, dtype=np.int64)
        m_gone = np.zeros(all_models, dtype=np.int64)
        # how each model starts (its target's starting situation and continuous effects)
        m_start_state = np.zeros(all_models, dtype=np.int64)
        m_start_effects = np.zeros(all_models, dtype=np.int64)
        m_start_shield = np.zeros(all_models, dtype=np.int64)
        # the models with a grid or spiral (a unit of them, or one of several targets): each
        # one's marked rows per column, mark order (healing), crippled set and Shield ARM wait
        # here while another model is under attack
        m_card = np.zeros(all_models, dtype=np.bool_)
        for gg in range(n_targets):
            lo = groups[gg, T_FIRST_MODEL]
            for j in range(lo, lo + groups[gg, T_MODELS]):
                m_start_state[j] = groups[gg, T_STATE]
                m_start_effects[j] = groups[gg, T_EFFECTS]
                m_start_shield[j] = groups[gg, T_SHIELD_ARM]
                m_card[j] = groups[gg, T_CAPACITY] != CAP_TRACK and all_models > 1
        n_card = 0
        for j in range(all_models):
            n_card += m_card[j]
        card_rows = all_models if n_card else 1
        m_col = np.zeros((card_rows, n_cols), dtype=np.int64)
        m_order = np.zeros((card_rows, max(1, card_boxes)), dtype=np.int64)
        m_crippled = np.zeros(all_models, dtype=np.int64)
        m_shield = np.zeros(all_models, dtype=np.int64)
        g_stamp = np.zeros(n_targets, dtype=np.int64)
        g_dead = np.zeros(n_targets, dtype=np.int64)
        g_tpoints = np.zeros(n_targets, dtype=np.int64)
        g_lost = np.zeros(n_targets, dtype=np.bool_)
        g_blocked = np.zeros(n_targets, dtype=np.bool_)
        g_destroyed = np.zeros(n_targets, dtype=np.int64)
        g_dispelled = np.zeros(n_targets, dtype=np.int64)
        g_guarded = np.zeros(n_targets, dtype=np.int64)  # Shield Guard used: the (trial, round) stamp
    else:
        n_card = 0
    slam_hit = np.int64(0)  # the last attack hit (a slam's, for its collateral damage roll)

    if rare is not None:  # the closures of units and several targets (and their arrays)
        def figures(gg):
            """What target ``gg`` is (its vector of ``groups``), as the trial's locals hold it."""
            kind = groups[gg, T_CAPACITY]
            tgh = groups[gg, T_TOUGH]
            rap = groups[gg, T_RAPID_HEAL]
            return (groups[gg, T_BOXES], groups[gg, T_STATE], groups[gg, T_POINTS],
                    groups[gg, T_SHIELD_ARM], groups[gg, T_POWER_KIND] == PK_FOCUS,
                    groups[gg, T_POWER_POLICY] == PF_LETHAL, groups[gg, T_POWER_POLICY] == PF_BEST,
                    tgh, rap, groups[gg, T_EFFECTS], kind != CAP_TRACK, kind == CAP_GRID,
                    tgh != TOUGH_NONE or rap != 0, groups[gg, T_MODELS], groups[gg, T_FIRST_MODEL])

        def park(gg, tr, tpoints, cortex_lost, power_blocked, destroyed, state):
            """Target ``gg`` leaves the trial's locals (trial ``tr``): what it keeps while others
            are attacked (a Dispel of its upkeep spells, in ``state``, holds for its models; a
            card's marks, crippled set and Shield ARM go with its model, :func:`store`)."""
            g_stamp[gg] = tr
            g_tpoints[gg] = tpoints
            g_lost[gg] = cortex_lost
            g_blocked[gg] = power_blocked
            g_destroyed[gg] = destroyed
            g_dispelled[gg] = state & ST_DISPELLED

        def unpark(gg, tr):
            """Target ``gg`` takes the trial's locals: as parked, or as it starts."""
            if g_stamp[gg] != tr:
                return groups[gg, T_POINTS], False, False, np.int64(0), np.int64(0)
            return g_tpoints[gg], g_lost[gg], g_blocked[gg], g_destroyed[gg], g_dispelled[gg]

        def fell(gg, t, tr, alive):
            """Several targets: target ``gg`` is destroyed in round ``t``. Returns the targets
            left, the target under attack (-1: none, until an attack's route picks one) and
            whether every target is destroyed (the kill)."""
            g_dead[gg] = tr
            target_kills[gg, t] += 1
            return alive - 1, (np.int64(-1) if alive > 1 else np.int64(gg)), alive <= 1

        def store(j, tr, marked, state, effects, def_minus, arm_minus, cont, crippled, shield_now):
            """Model ``j`` of a unit leaves the trial's locals (trial ``tr``); a model with a
            grid or spiral takes its card along (the scratch arrays, its crippled set and Shield
            ARM: it is the model under attack)."""
            m_stamp[j] = tr
            m_marked[j] = marked
            m_state[j] = state
            m_effects[j] = effects
            m_def_minus[j] = def_minus
            m_arm_minus[j] = arm_minus
            m_cont[j] = cont
            if m_card[j]:
                for c in range(n_cols):
                    m_col[j, c] = colmask[c]
                for k in range(marked if heals else 0):  # a card's marks are its boxes marked
                    m_order[j, k] = order[k]
                m_crippled[j] = crippled
                m_shield[j] = shield_now

        def load(j, tr, state, crippled, n_marks, shield_now):
            """Model ``j`` of a unit takes the trial's locals (a Dispel of the unit's upkeep
            spells, in ``state``, holds for every model): its damage marked, situation, effects
            and continuous effects, and its card's crippled set, marks and Shield ARM (a damage
            track's model: the locals' as they are)."""
            dispelled = state & ST_DISPELLED
            fresh = m_stamp[j] != tr  # untouched this trial: as the unit (its target) starts
            if not m_card[j]:  # a damage track: the card's locals are as they are
                cards = (crippled, n_marks, shield_now)
            elif fresh:
                for c in range(n_cols):
                    colmask[c] = 0
                cards = (np.int64(0), np.int64(0), m_start_shield[j])
            else:
                for c in range(n_cols):
                    colmask[c] = m_col[j, c]
                for k in range(m_marked[j] if heals else 0):
                    order[k] = m_order[j, k]
                cards = (m_crippled[j], m_marked[j], m_shield[j])
            if fresh:
                if multi:
                    return (np.int64(0), m_start_state[j] | dispelled, np.int64(0), np.int64(0),
                            np.int64(0), m_start_effects[j]) + cards
                return (np.int64(0), start_state | dispelled, np.int64(0), np.int64(0), np.int64(0),
                        start_effects) + cards
            return (m_marked[j], m_state[j] | dispelled, m_effects[j], m_def_minus[j],
                    m_arm_minus[j], m_cont[j]) + cards

        def first_alive(frm, tr):
            """The unit's model under attack: the first still standing from ``frm`` on (every
            model before the one under attack is destroyed; -1: none)."""
            for j in range(frm, m_lo + n_models if multi else n_models):
                if m_gone[j] != tr:
                    return j
            return -1

        def take_place(frm, tr, state, crippled, n_marks, shield_now):
            """Spill-over: the first living model from ``frm`` on becomes the one under attack;
            returns its index and its locals (:func:`load`)."""
            j = first_alive(frm, tr)
            out = load(j, tr, state, crippled, n_marks, shield_now)
            return (j,) + out

    def play_key(points, tpoints, state, effects, cont, earth, lost, down_before, destroyed, shots=0,
                 shred=0):
        """The state key of best play (:meth:`mathhammer.play.codes.KeySpace.key`);
        ``destroyed``: models destroyed so far, of every target (with several, they are
        solved when attacks go down the list: those of the targets before the one under
        attack are all destroyed); ``shots``: a random rate of fire's roll, within its
        volley (else 0); ``shred``: the Shred attacks made so far in the attack's chain (after
        a hit: those it leaves, one more owed or 0)."""
        if key_is_points:
            return np.int64(points)
        raw = situation_bits(state, down_before)
        # digits that are 0 whenever their radix is 1 (the scenario has no such rule): no test
        key = shred * k_arm_extra + ((state >> ST_ARM_SHIFT) & MAX_ARM_EXTRA)
        key = key * k_shots + shots
        key = key * k_ice + ((state >> ST_ICE_SHIFT) & MAX_ICE)
        key = key * k_destroyed + destroyed
        key = key * k_lost + (np.int64(lost) if k_lost > 1 else 0)
        key = key * k_earth + (np.int64(earth) if k_earth > 1 else 0)
        key = key * k_cont + (cont if k_cont > 1 else 0)
        key = (key << k_effects) + effects
        key = key * k_situations + situation_index[raw]
        key = key * k_tpoints + tpoints
        return key * k_points + points

    def play_m(marked):
        """The damage index of best play's tables: the boxes marked, or on a card solved
        exactly the index of its configuration (-1: one the solve never met)."""
        if not k_card:
            return marked
        code = 0
        for c in range(n_cols):
            share = play_columns[c, colmask[c]]
            if share < 0:
                return -1
            code += share
        return np.int64(play_index[code])

    def suffer(source, dealt, i, row, drow, t, marked, tpoints, crippled, n_marks, pos, state,
               shield_now, cortex_lost, power_blocked, fkey, frow, last, felled=False):
        """The target suffers ``dealt`` points (docs/activation.md, step 4 of an attack and
        "Suffering points"): power field, marking, Tough, healing, crippling and its feedback.

        ``source``: SRC_ATTACK (slot ``i``, counter row ``row``) or the continuous effect
        (CE_*) of round ``t`` dealing them; ``drow``: the row of ``cripple_delta`` a change of
        the crippled set counts at; ``fkey``, ``frow``: the state key and row of the field
        table of best play; ``last``: the model is the target's last standing (its
        destruction is the kill); ``felled``: the attack's knockdown already stops its Tough
        roll (setting knockdown_before_tough). Returns the state it leaves and whether the
        model was destroyed.

        A closure, inlined at each call (Numba inlines closures), so it reads the scenario's
        tables and constants without taking them as arguments.
        """
        remaining = boxes - marked
        lethal = power_lethal
        if extra is not None and power_best and tpoints > 0 and dealt > 0 and not power_blocked:
            k = np.int64(-1)
            m = play_m(marked)
            if dealt < k_damage and m >= 0:
                k = np.int64(play_field[frow, fkey, m, dealt])
            if k < 0:
                lethal = True  # unsolved here: the "lethal" rule
            elif k > 0:
                tpoints -= k
                dealt = max(0, dealt - 5 * k) if power_focus else 0
                if source == SRC_ATTACK:
                    attack_counts[row, C_TARGET_SPENT] += k
                else:
                    effect_counts[t, source, E_TARGET_SPENT] += k
        if (extra is not None and lethal and tpoints > 0 and dealt >= remaining and not power_blocked
                and (power_focus or source == SRC_ATTACK)):
            if power_focus:
                need = (dealt - remaining + 5) // 5
                if need <= tpoints:
                    tpoints -= need
                    dealt = max(0, dealt - 5 * need)
                    if source == SRC_ATTACK:
                        attack_counts[row, C_TARGET_SPENT] += need
                    else:
                        effect_counts[t, source, E_TARGET_SPENT] += need
            else:
                tpoints -= 1
                dealt = 0
                attack_counts[row, C_TARGET_SPENT] += 1
        was_crippled = crippled
        if not on_card:
            taken = mark_track(marked, boxes, dealt)
            marked += taken
        else:
            # --- damage grid / life spiral (docs/activation.md, docs/rules.md 3): a column's
            # boxes are marked in one step, topmost unmarked first
            taken = 0
            if dealt > 0:
                want = min(dealt, boxes - marked)
                c = -1
                first = 0  # the box "damage to X" marks before the others
                x = attacks[i, A_DAMAGE_TO] if source == SRC_ATTACK else -1
                if extra is not None and x >= 0 and ((crippled >> x) & 1) == 0:
                    for cc in range(n_cols):
                        free = letter_mask[x, cc] & ~colmask[cc]
                        if free != 0:
                            c = cc
                            first = free & -free
                            break
                side_lo = 0  # a colossal: the first column of the grid the damage is on
                if c < 0:
                    e = np.int64(dice[pos])
                    c = die_of(e, 0) - 1
                    pos += 1
                    if extra is not None and colossal:
                        # the side the attacker stands on, else a d6 (the pair's other die)
                        side = attacks[i, A_SIDE] if source == SRC_ATTACK else SIDE_RANDOM
                        if side == SIDE_RANDOM:
                            side = np.int64(die_of(e, 1) > 3)
                        side_lo = side * N_COLUMNS
                        c += side_lo
                elif extra is not None and colossal:
                    side_lo = (c // N_COLUMNS) * N_COLUMNS
                tried = 0  # a colossal: full columns of its side passed since the last marked
                # whether a letter's boxes in a marked column are all marked now (else the
                # crippled set, the AND over columns of letters_done, cannot change)
                newly_done = False
                while taken < want:
                    was = colmask[c]
                    free = col_full[c] & ~was
                    if free == 0:
                        if extra is None or not colossal:
                            c = c + 1 if c < N_COLUMNS - 1 else 0
                            continue
                        # a colossal: to the right within its side (6 wraps to 1); its side
                        # full, the rest to the other side's grid, at a rolled column
                        tried += 1
                        if tried < N_COLUMNS:
                            c = c + 1 if c < side_lo + N_COLUMNS - 1 else side_lo
                        else:
                            side_lo = N_COLUMNS - side_lo
                            c = side_lo + die_of(np.int64(dice[pos]), 0) - 1
                            pos += 1
                            tried = 0
                        continue
                    tried = 0
                    if first != 0:
                        take = first
                        first = 0
                        k = 1
                    else:
                        k = min(want - taken, POPCOUNT[free])
                        # the k topmost free boxes: one span when they are contiguous
                        # (always, but after "damage to" or healing)
                        low = free & -free
                        take = (low << k) - low
                        if (take & ~free) != 0:
                            take = lowest_bits(free, k)
                    colmask[c] = was | take
                    taken += k
                    newly_done |= letters_done[c, was | take] != letters_done[c, was]
                    if extra is not None and heals:
                        rest = take
                        while rest != 0:
                            order[n_marks] = c * 16 + LOWEST[rest]
                            n_marks += 1
                            rest &= rest - 1
                if newly_done:
                    crippled = present
                    for cc in range(N_COLUMNS):
                        crippled &= letters_done[cc, colmask[cc]]
                    for cc in range(N_COLUMNS, n_cols):
                        crippled &= letters_done[cc, colmask[cc]]
                marked += taken
        if source == SRC_ATTACK:
            attack_counts[row, C_DAMAGE] += taken
        else:
            effect_counts[t, source, E_DAMAGE] += taken
        heal = 0
        killed = False
        if marked >= boxes:
            saved = False
            if (extra is not None and tough != TOUGH_NONE and (state & ST_GRIEVOUS) == 0
                    and (((state & ST_PRONE) == 0 and not felled) or tough == TOUGH_STEADY)
                    and ((state & ST_DISPELLED) == 0 or (groups[g, T_TOUGH_UPKEEP] if multi
                                                         else target[T_TOUGH_UPKEEP]) == 0)):
                saved = die_of(np.int64(dice[pos]), 0) >= (groups[g, T_TOUGH_ON] if multi
                                                            else target[T_TOUGH_ON])
                pos += 1
            if saved:
                heal = 1
                state |= ST_KNOCKED_DOWN
                if source == SRC_ATTACK:
                    attack_counts[row, C_TOUGH] += 1
                else:
                    effect_counts[t, source, E_TOUGH] += 1
            else:
                killed = True
                if last:
                    if source == SRC_ATTACK or source == CE_QUICKSAND:
                        kill_at[row] += 1
                    if source >= 0:
                        effect_counts[t, source, E_KILL] += 1
                else:  # one model of a unit: the next takes its place
                    if source == SRC_ATTACK or source == CE_QUICKSAND:
                        attack_counts[row, C_DESTROYED] += 1
                    if source >= 0:
                        effect_counts[t, source, E_DESTROYED] += 1
        elif extra is not None and rapid != 0 and taken > 0 and (state & ST_GRIEVOUS) == 0 and source == SRC_ATTACK:
            if rapid > 0:
                heal = min(rapid, marked)
            else:  # Rapid Healing d3: a d6 halved, rounding up
                heal = min((die_of(np.int64(dice[pos]), 0) + 1) >> 1, marked)
                pos += 1
        if extra is not None and heal > 0:
            if not on_card:
                marked -= heal
            else:
                for _h in range(heal):
                    n_marks -= 1
                    colmask[order[n_marks] >> 4] &= ~(1 << (order[n_marks] & 15))
                    marked -= 1
                crippled = present
                for cc in range(n_cols):
                    crippled &= letters_done[cc, colmask[cc]]
        if crippled != was_crippled:
            cripple_delta[drow, was_crippled] -= 1
            cripple_delta[drow, crippled] += 1
            if feedback:
                # what the target's crippled systems change from the next attack on
                shield_now = shield
                for k in range(4):
                    if (crippled >> _SHIELD_LETTER[k]) & 1:
                        shield_now -= groups[g, T_SHIELD_LOC + k] if multi else target[T_SHIELD_LOC + k]
                if (crippled >> GL_M) & 1:
                    state |= ST_MOVE_CRIPPLED
                else:
                    state &= ~ST_MOVE_CRIPPLED
                if (crippled >> GL_C) & 1:
                    tpoints = 0
                    cortex_lost = True
                power_blocked = ((crippled >> GL_G) & 1) != 0
        return (marked, tpoints, crippled, n_marks, pos, state, shield_now, cortex_lost,
                power_blocked, killed)

    start = pos
    tr = 0  # the trial's stamp (1, 2, ...: the arrays above start at 0)
    for _ in range(n_trials):
        if stride > 0:
            pos = start
        if pos > size - max_draws:
            fill_pairs(rs, dice, size)
            pos = 0
        start = pos + stride
        if multi:  # the first target is under attack first
            g = 0
            (boxes, start_state, start_tpoints, shield, power_focus, power_lethal, power_best,
             tough, rapid, start_effects, on_card, feedback, heals, n_models, m_lo) = figures(g)
        alive = n_targets if multi else 1  # targets standing
        state = start_state
        marked = 0
        points = 0
        reserve = 0
        boost_att = 0
        boost_att_at = 0
        boost_dmg = 0
        best = 0
        crippled = 0
        n_marks = 0
        shield_now = shield
        power_blocked = False
        cortex_lost = False
        cont = start_effects
        earth_lit = (hazards & HZ_EARTH) != 0
        dead = False
        destroyed = 0
        cur = 0
        shots = 0  # a random rate of fire's roll, for its volley
        prow = 0  # the row of the decision tables of the attack being made
        w_off = 0  # the row of its weapon (in its target's block): a Shred attack's too
        tr += 1
        stored = False  # a unit: whether any model's state left the locals this trial
        if any_card:
            # six columns a constant trip count (the grid benchmark ran 5 % slower with a
            # runtime count in these per-trial loops), a colossal's other six after
            for c in range(N_COLUMNS):
                colmask[c] = 0
            for c in range(N_COLUMNS, n_cols):
                colmask[c] = 0
        for t in range(turns):
            # a new round: the target stood up in its activation, its upkeep spells are
            # back, -DEF/-ARM effects and Grievous Wounds have ended; it has its focus or
            # fury again unless its Cortex was crippled (docs/activation.md, "A round")
            state = start_state | (state & ST_MOVE_CRIPPLED)
            effects = 0
            def_minus = 0
            arm_minus = 0
            tpoints = 0 if cortex_lost else start_tpoints
            if rare is not None and stored:
                for j in range(all_models):
                    m_state[j] = m_start_state[j] | (m_state[j] & ST_MOVE_CRIPPLED)
                    m_effects[j] = 0
                    m_def_minus[j] = 0
                    m_arm_minus[j] = 0
                for gg in range(n_targets if multi else 0):  # the targets waiting: as the current one
                    g_dispelled[gg] = 0
                    g_tpoints[gg] = 0 if g_lost[gg] else groups[gg, T_POINTS]
            # the attacks of the round in order; Shred (docs/rules.md 5) makes attack i again
            # while a critical hit owes one (``again``; ``shred`` of them made so far). In the
            # inner loop a ``continue`` ends attack i (unless a Shred attack is owed) and every
            # ``break`` is a kill. Only the several-target variant loops (the encoder sends
            # Shred there): with one pass the single-target kernel compiles without a loop,
            # measured 15 % faster on the best-play activation benchmark
            for i in range(n_attacks if t < attack_rounds else 0):
                again = True
                for shred in range(MAX_SHRED + 1 if multi else 1):
                    if not again:
                        break
                    again = False
                    row = t * n_attacks + i
                    flags = attacks[i, A_FLAGS]
                    if shred == 0 and (flags & (F_FIRST | F_ROF | F_SLAMS | F_COLLATERAL)) != 0:  # rare: one test
                        if flags & F_FIRST:
                            a = attacks[i, A_ATTACKER]
                            points = attackers[a, P_POINTS]
                            reserve = attackers[a, P_RESERVE]
                            boost_att = attackers[a, P_BOOST_ATT]
                            boost_att_at = attackers[a, P_BOOST_ATT_AT]
                            boost_dmg = attackers[a, P_BOOST_DMG]
                            best = attackers[a, P_BEST]
                            state &= ~ST_SUSTAINED  # a new activation
                        if extra is not None and (flags & F_ROF) != 0:
                            # a random rate of fire (docs/rules.md 5): rolled before its first attack,
                            # which is always made; the later ones while their number is below the roll
                            if attacks[i, A_NUMBER] == 0:
                                e = np.int64(dice[pos])
                                pos += 1
                                r = attacks[i, A_ROF]
                                if r == ROF_D3:
                                    shots = (die_of(e, 0) + 1) >> 1
                                elif r == ROF_D6:
                                    shots = die_of(e, 0)
                                else:
                                    shots = ((die_of(e, 0) + 1) >> 1) + ((die_of(e, 1) + 1) >> 1)
                            if attacks[i, A_NUMBER] >= shots:
                                continue  # not made
                            if not multi:  # made (several targets: counted below)
                                attack_counts[row, C_MADE] += 1
                        if multi and (flags & F_SLAMS) != 0:
                            slam_hit = np.int64(0)  # until it hits: it may not be made at all
                        if multi and (flags & F_COLLATERAL) != 0:
                            # a slam's collateral damage roll (docs/rules.md 5): only after it hit
                            if slam_hit == 0:
                                continue  # not made
                            slam_hit = np.int64(0)
                    w = i if shred == 0 else w_off  # the row of the weapon it is made with
                    if multi:
                        # --- several targets: the first of its route still standing
                        to = -1
                        for k in range(n_targets):
                            gg = flat_routes[i * n_targets + k]
                            if gg < 0:
                                break
                            if g_dead[gg] != tr:
                                to = gg
                                break
                        if to < 0:
                            continue  # none left: the attack is not made
                        if to != g:
                            if g >= 0:
                                store(cur, tr, marked, state, effects, def_minus, arm_minus, cont, crippled, shield_now)
                                park(g, tr, tpoints, cortex_lost, power_blocked, destroyed, state)
                            g = to
                            (boxes, start_state, start_tpoints, shield, power_focus, power_lethal,
                             power_best, tough, rapid, start_effects, on_card, feedback, heals,
                             n_models, m_lo) = figures(g)
                            tpoints, cortex_lost, power_blocked, destroyed, disp = unpark(g, tr)
                            (cur, marked, state, effects, def_minus, arm_minus, cont, crippled, n_marks,
                             shield_now) = take_place(m_lo, tr, disp, np.int64(0), np.int64(0), shield)
                            stored = True
                        w = g * block + (i if shred == 0 else w_off)
                        flags = attacks[w, A_FLAGS]
                        if shred == 0 and attacks[w, A_ORIGIN] != ORIGIN_BOUGHT:
                            attack_counts[row, C_MADE] += 1  # several targets: counted here
                            target_made[row, g] += 1
                    if shred > 0:  # a Shred attack: made with the weapon of the last, at once
                        attack_counts[row, C_SHRED] += 1
                        flags = attacks[w, A_FLAGS]
                    else:
                        prow = row  # its row of the decision tables (a Shred attack: the last's)
                    spent = 0
                    # best play: the decisions of this state (mathhammer.play.codes)
                    dec = 0
                    m = -1
                    pkey = 0
                    if best != 0 and points > 0:
                        m = play_m(marked)
                        if m >= 0:
                            pkey = play_key(points, tpoints, state, effects, cont, earth_lit,
                                            cortex_lost, False, m_lo + destroyed, shots * ((flags & F_ROF) != 0),
                                            shred)
                            dec = play_attack[prow, pkey, m]
                    if shred == 0 and attacks[w, A_ORIGIN] == ORIGIN_BOUGHT:
                        if (dec & (D_KNOWN_BUY | D_BUY)) == D_KNOWN_BUY:
                            if flags & F_DECLINE_SKIPS:
                                continue  # best play does not cast the spell this time
                            points = 0  # best play stops buying here
                        cost = attacks[w, A_COST]
                        if points < cost:
                            continue
                        points -= cost
                        spent = cost
                        # only bought attacks count C_MADE: an initial attack is made whenever no
                        # earlier attack killed, which the driver works out from kill_at
                        attack_counts[row, C_MADE] += 1
                        if multi:
                            target_made[row, g] += 1
                        if (dec & D_BUY) != 0 and attacks[w, A_CHOICES] > 0:
                            # best play's weapon: another melee weapon where its row says so
                            for j in range(attacks[w, A_CHOICES]):
                                r = attacks[w, A_CHOICE_ROW] + j
                                pr = n_rows + t * n_alt + r - (w - i) - n_attacks
                                alt = play_attack[pr, pkey, m]
                                if (alt & D_BUY) != 0:
                                    w = r
                                    prow = pr
                                    dec = alt
                                    flags = attacks[w, A_FLAGS]
                                    break

                    w_off = w - g * block if multi else w  # its weapon's row, for a Shred attack
                    # --- attack roll (docs/rules.md 1)
                    skill = attacks[w, A_SKILL]
                    if (state & attacks[w, A_AUTOHIT_ON]) != 0:
                        outcome = HIT  # automatic hit: no roll, so never critical
                    else:
                        if (state & (ST_BASE_DEF_5 | ST_MOVE_CRIPPLED | ST_PARALYZED)) != 0:
                            defense = attacks[w, A_DEF5]
                        else:
                            defense = attacks[w, A_DEF]
                        defense += attacks[w, A_SPELL_DEF] - def_minus
                        if (state & ST_DISPELLED) == 0:
                            defense += attacks[w, A_UPKEEP_DEF]
                        n = attacks[w, A_ATT_DICE]
                        # a boost is bought only when it adds a die (not lost in the floor of one);
                        # best play's decision where solved, else the fixed rule
                        if (dec & D_KNOWN_ATTACK) != 0:
                            want = (dec & D_BOOST_ATTACK) != 0
                        else:
                            want = boost_att == MODE_ALWAYS or (boost_att == MODE_AUTO
                                                                and defense - skill >= boost_att_at)
                        if (flags & F_FREE_ATT_BOOST) == 0 and points > reserve and n >= 1 and want:
                            points -= 1
                            spent += 1
                            n += 1
                            attack_counts[row, C_BOOST_ATT] += 1
                        n = max(1, n)
                        mode = attacks[w, A_ATT_MODE]  # discards, Jump the Shark, Sanguine Fate
                        if n == 2 and mode == 0:
                            outcome = two_dice_attack(np.int64(dice[pos]), skill, defense)
                            pos += 1
                        else:
                            nd = n + ((mode & R_SANGUINE) != 0)  # Sanguine Fate's die read last
                            word = read_word(dice, pos, nd)
                            pos += (nd + 1) >> 1
                            total, kept, counts, judged = roll_stats(word, n, mode)
                            outcome = attack_from_stats(total, kept, counts, judged, skill, defense, mode)
                        if extra is not None and (flags & F_REROLL_ATT) != 0 and outcome == MISS:
                            nd = n + ((mode & R_SANGUINE) != 0)
                            word = read_word(dice, pos, nd)
                            pos += (nd + 1) >> 1
                            total, kept, counts, judged = roll_stats(word, n, mode)
                            outcome = attack_from_stats(total, kept, counts, judged, skill, defense, mode)

                    # branch-free from here on the common path: a miss is as likely as not to be
                    # mispredicted, so the damage roll is read and consumed either way (a miss's
                    # dice are drawn and dropped: the stream's rule, mathhammer/_core/rng.py) and
                    # counted only on a hit
                    hit = np.int64(outcome != MISS)
                    crit = np.int64(outcome == CRIT)
                    if multi:
                        slam_hit = hit  # read by the next slot when it is a slam's collateral roll
                    if multi and hit == 1 and (flags & F_GUARDABLE) != 0 and groups[g, T_GUARDED_BY] >= 0:
                        # --- Shield Guard (docs/rules.md 9): once a round, the guard is hit instead,
                        # automatically (never critically), while it stands and is neither knocked
                        # down nor stationary
                        gd = groups[g, T_GUARDED_BY]
                        if g_dead[gd] != tr and g_guarded[gd] != tr * (turns + 1) + t + 1:
                            jj = groups[gd, T_FIRST_MODEL]
                            while m_gone[jj] == tr:
                                jj += 1
                            gstate = m_state[jj] if m_stamp[jj] == tr else m_start_state[jj]
                            if (gstate & (ST_PRONE | ST_STILL)) == 0:
                                g_guarded[gd] = tr * (turns + 1) + t + 1
                                store(cur, tr, marked, state, effects, def_minus, arm_minus, cont, crippled, shield_now)
                                park(g, tr, tpoints, cortex_lost, power_blocked, destroyed, state)
                                g = gd
                                (boxes, start_state, start_tpoints, shield, power_focus, power_lethal,
                                 power_best, tough, rapid, start_effects, on_card, feedback, heals,
                                 n_models, m_lo) = figures(g)
                                tpoints, cortex_lost, power_blocked, destroyed, disp = unpark(g, tr)
                                (cur, marked, state, effects, def_minus, arm_minus, cont, crippled, n_marks,
                                 shield_now) = take_place(m_lo, tr, disp, np.int64(0), np.int64(0), shield)
                                stored = True
                                w = g * block + w_off
                                flags = attacks[w, A_FLAGS]
                                outcome = HIT
                                crit = np.int64(0)
                    # Shred: a critical hit owes one more attack with the weapon (the chain's last none)
                    again = (crit == 1) & ((flags & F_SHRED) != 0) & (shred < MAX_SHRED)
                    shred_after = shred + 1 if again else 0
                    first = np.int64(shred == 0)  # a Shred attack's hit counts as a Shred attack
                    attack_counts[row, C_HIT] += hit & first
                    attack_counts[row, C_CRIT] += crit & first
                    if extra is not None and (flags & (F_DISPEL | F_GRIEVOUS | F_SUSTAIN)) != 0 and hit == 1:
                        if (flags & F_DISPEL) != 0 and (flags & F_DISPEL_LATE) == 0:
                            state |= ST_DISPELLED
                        if flags & F_GRIEVOUS:
                            state |= ST_GRIEVOUS
                        if flags & F_SUSTAIN:  # its later attacks on this target hit automatically
                            state |= ST_SUSTAINED

                    # --- damage roll (docs/rules.md 2)
                    dealt = 0
                    if flags & F_DAMAGE:
                        arm = attacks[w, A_ARM] - arm_minus
                        if (state & ST_DISPELLED) == 0:
                            arm += attacks[w, A_UPKEEP_ARM]
                        if (flags & F_IGNORE_SHIELD) == 0:
                            arm += shield_now
                        pow_ = attacks[w, A_POW]
                        remaining = boxes - marked
                        n = attacks[w, A_DMG_DICE]
                        n += (((flags & F_BRUTAL) != 0) & crit) + ((flags & F_BRUTAL_HIT) != 0)
                        if extra is not None and (flags & (F_TRASH | F_SHATTER | F_CRIT_AP)) != 0:
                            # Trash / Shatter: one more die against a target knocked down /
                            # stationary at the time; Armor-Piercing on a critical hit only
                            n += (((flags & F_TRASH) != 0) & ((state & ST_PRONE) != 0)) + (
                                ((flags & F_SHATTER) != 0) & ((state & ST_STILL) != 0))
                            arm -= crit * attacks[w, A_CRIT_ARM_CUT]
                        drop = attacks[w, A_DMG_MODE]  # discards, Jump the Shark
                        boost = 0
                        # best play's decision where solved (for a hit or a critical hit), else
                        # the fixed rule
                        known = D_KNOWN_DAMAGE_CRIT if crit == 1 else D_KNOWN_DAMAGE_HIT
                        if (dec & known) != 0:
                            want = (dec & (D_BOOST_DAMAGE_CRIT if crit == 1 else D_BOOST_DAMAGE_HIT)) != 0
                        else:
                            want = boost_dmg == MODE_ALWAYS or (
                                boost_dmg == MODE_AUTO and kept_of(max(1, n), drop) + pow_ - arm < remaining
                                and 6 * kept_of(max(1, n + 1), drop) + pow_ - arm > 0)
                        if (flags & F_FREE_DMG_BOOST) == 0 and points > reserve and n >= 1 and want:
                            boost = hit
                        points -= boost
                        spent += boost
                        n += boost
                        attack_counts[row, C_BOOST_DMG] += boost
                        n = max(1, n)
                        # two dice: one pair entry; three or four (boosted rolls): two entries, no
                        # loop (the loop of roll_stats cost the 3-focus activation benchmark 15 %)
                        if n == 2 and drop == 0:
                            total = PAIR_SUM[np.int64(dice[pos])]
                            kept = 2
                            pos += 1
                        elif 3 <= n <= 4 and drop == 0:
                            total = sum_of_three_or_four(dice, pos, n)
                            kept = n
                            pos += 2
                        else:
                            word = read_word(dice, pos, n)
                            pos += (n + 1) >> 1
                            total, kept, counts, judged = roll_stats(word, n, drop)
                        dealt = hit * max(0, total + pow_ - arm)
                        if (extra is not None and (flags & F_REROLL_DMG) != 0 and hit == 1 and dealt < remaining
                                and 2 * total < 7 * kept):
                            word = read_word(dice, pos, n)
                            pos += (n + 1) >> 1
                            total, kept, counts, judged = roll_stats(word, n, drop)
                            dealt = max(0, total + pow_ - arm)
                        if extra is not None and (flags & (F_DECAP | F_DECAP_HIT)) != 0:  # on a critical hit / on any hit
                            dealt *= 1 + (crit | np.int64((flags & F_DECAP_HIT) != 0))
                    if extra is not None and (flags & F_AFTER_ROLL) != 0 and hit == 1:
                        # what the hit leaves once its damage is rolled (from the next attack on):
                        # a Dispel read so (setting), Ice Cage, Paralysis, a -ARM landing again
                        if flags & F_DISPEL_LATE:
                            state |= ST_DISPELLED
                        if flags & F_LASTING:
                            state, ice_def = _lasting(state, flags, crit)
                            def_minus += ice_def
                        if ((flags & F_ARM_STACKS) != 0 and (effects & attacks[w, A_EFFECT_BIT]) != 0
                                and outcome >= attacks[w, A_EFFECT_ON]):
                            # its -ARM landing again (setting; the first landing is below)
                            stacked = (state >> ST_ARM_SHIFT) & MAX_ARM_EXTRA
                            more = min(attacks[w, A_ARM_MINUS], MAX_ARM_EXTRA - stacked)
                            arm_minus += more
                            state += more << ST_ARM_SHIFT
                    if spent:  # points paid for the attack: buying it and its boosts
                        attack_counts[row, C_SPENT] += spent
                    knocks = hit & np.int64((flags & F_KNOCKDOWN) != 0) | (
                        crit & np.int64((flags & F_CRIT_KNOCKDOWN) != 0))
                    still = hit & np.int64((flags & F_STATIONARY) != 0) | (
                        crit & np.int64((flags & F_CRIT_STATIONARY) != 0))
                    bit = attacks[w, A_EFFECT_BIT]
                    fkey = 0
                    if extra is not None and power_best and tpoints > 0 and dealt > 0:
                        # the target's power field is decided in the state after the hit
                        lands = bit != 0 and outcome >= attacks[w, A_EFFECT_ON]
                        sets = 0
                        if hit == 1:
                            if (flags & F_FIRE) != 0 or (crit == 1 and (flags & F_CRIT_FIRE) != 0):
                                sets |= 1 << CE_FIRE
                            if (flags & F_CORROSION) != 0 or (
                                    crit == 1 and (flags & F_CRIT_CORROSION) != 0):
                                sets |= 1 << CE_CORROSION
                        fkey = play_key(points, tpoints, state | ST_KNOCKED_DOWN * knocks | ST_STATIONARY * still,
                                        effects | (bit if lands else 0), cont | sets, earth_lit,
                                        cortex_lost, (state & ST_PRONE) != 0, m_lo + destroyed,
                                        shots * ((flags & F_ROF) != 0), shred_after)
                    (marked, tpoints, crippled, n_marks, pos, state, shield_now, cortex_lost,
                     power_blocked, dead) = suffer(SRC_ATTACK, dealt, w, row, row, t, marked, tpoints,
                                                   crippled, n_marks, pos, state, shield_now,
                                                   cortex_lost, power_blocked, fkey, prow,
                                                   destroyed + 1 >= n_models and alive == 1,
                                                   (flags & F_KD_STOPS_TOUGH) != 0 and knocks == 1)
                    n_caught = 0
                    if (flags & F_BLAST) != 0:
                        n_caught = attacks[w, A_BLAST_MODELS] if hit == 1 else attacks[w, A_BLAST_MISS]
                    if rare is not None and n_caught > 0:
                        # --- an AOE: the other models of the unit it catches (docs/units.md),
                        # each a blast damage roll, in order; a miss catches the one aimed at too
                        hit_model = cur
                        if dead:
                            destroyed += 1
                            m_gone[cur] = tr
                            if destroyed < n_models:
                                dead = False
                        else:
                            store(cur, tr, marked, state, effects, def_minus, arm_minus, cont, crippled, shield_now)
                        stored = True
                        for j in range(cur, m_lo + n_models):
                            if n_caught == 0 or dead:
                                break
                            if m_gone[j] == tr or (hit == 1 and j == cur):
                                continue
                            n_caught -= 1
                            (marked, state, effects, def_minus, arm_minus, cont, crippled, n_marks,
                             shield_now) = load(j, tr, state, crippled, n_marks, shield_now)
                            arm = attacks[w, A_ARM] - arm_minus
                            if (state & ST_DISPELLED) == 0:
                                arm += attacks[w, A_UPKEEP_ARM]
                            if (flags & F_IGNORE_SHIELD) == 0:
                                arm += shield_now
                            n = attacks[w, A_BLAST_DICE]
                            if n == 2:
                                total = PAIR_SUM[np.int64(dice[pos])]
                                pos += 1
                            else:
                                word = read_word(dice, pos, n)
                                pos += (n + 1) >> 1
                                total, kept, counts, judged = roll_stats(word, n, 0)
                            dealt = max(0, total + attacks[w, A_BLAST_POW] - arm)
                            (marked, tpoints, crippled, n_marks, pos, state, shield_now, cortex_lost,
                             power_blocked, dead) = suffer(SRC_ATTACK, dealt, w, row, row, t, marked,
                                                           tpoints, crippled, n_marks, pos, state,
                                                           shield_now, cortex_lost, power_blocked, 0,
                                                           prow, destroyed + 1 >= n_models and alive == 1)
                            if dead:
                                destroyed += 1
                                m_gone[j] = tr
                                if destroyed >= n_models:
                                    break
                                dead = False
                            else:
                                store(j, tr, marked, state, effects, def_minus, arm_minus, cont, crippled, shield_now)
                        if dead and multi:  # the whole target destroyed: the others may stand
                            alive, g, dead = fell(g, t, tr, alive)
                            if not dead:
                                continue
                        if dead:
                            break
                        # the model hit, or when it is gone the next one, for the next attack
                        (cur, marked, state, effects, def_minus, arm_minus, cont, crippled, n_marks,
                         shield_now) = take_place(cur, tr, state, crippled, n_marks, shield_now)
                        if cur != hit_model:
                            continue
                    elif dead:
                        destroyed += 1
                        if rare is not None and destroyed < n_models:  # spill-over: the next model, from the next attack
                            m_gone[cur] = tr
                            (cur, marked, state, effects, def_minus, arm_minus, cont, crippled, n_marks,
                             shield_now) = take_place(cur, tr, state, crippled, n_marks, shield_now)
                            dead = False
                            continue
                        if multi:  # several targets: the next attack may go to another
                            m_gone[cur] = tr
                            alive, g, dead = fell(g, t, tr, alive)
                            if not dead:
                                continue
                        break

                    # --- what the hit leaves for the next attacks (docs/rules.md 4, 5, 9)
                    quick = False
                    if lasting is not None and continuous:
                        # the continuous effects the hit puts on; a knockdown in quicksand
                        if hit == 1:
                            if (flags & F_FIRE) != 0 or (crit == 1 and (flags & F_CRIT_FIRE) != 0):
                                cont |= 1 << CE_FIRE
                            if (flags & F_CORROSION) != 0 or (
                                    crit == 1 and (flags & F_CRIT_CORROSION) != 0):
                                cont |= 1 << CE_CORROSION
                        quick = quicksand and knocks == 1 and (state & ST_PRONE) == 0
                    state |= ST_KNOCKED_DOWN * knocks | ST_STATIONARY * still
                    if extra is not None and bit != 0 and (effects & bit) == 0 and outcome >= attacks[w, A_EFFECT_ON]:
                        effects |= bit
                        def_minus += attacks[w, A_DEF_MINUS]
                        arm_minus += attacks[w, A_ARM_MINUS]
                    if lasting is not None and quick:
                        # knocked down in quicksand: 1 damage point, suffered at once
                        fkey = 0
                        if power_best and tpoints > 0:
                            fkey = play_key(points, tpoints, state, effects, cont, earth_lit,
                                            cortex_lost, (state & ST_PRONE) != 0, m_lo + destroyed,
                                            shots * ((flags & F_ROF) != 0), shred_after)
                        (marked, tpoints, crippled, n_marks, pos, state, shield_now, cortex_lost,
                         power_blocked, dead) = suffer(CE_QUICKSAND, 1, w, row, row, t, marked,
                                                       tpoints, crippled, n_marks, pos, state,
                                                       shield_now, cortex_lost, power_blocked, fkey,
                                                       k_rows + prow, destroyed + 1 >= n_models and alive == 1)
                        if dead:
                            destroyed += 1
                            if rare is not None and destroyed < n_models:
                                m_gone[cur] = tr
                                (cur, marked, state, effects, def_minus, arm_minus, cont, crippled, n_marks,
                                 shield_now) = take_place(cur, tr, state, crippled, n_marks, shield_now)
                                dead = False
                                continue
                            if multi:
                                m_gone[cur] = tr
                                alive, g, dead = fell(g, t, tr, alive)
                                if not dead:
                                    continue
                            break
                if dead:
                    break
            if dead:
                break
            if lasting is None or not continuous:  # the pruned variants compile without what follows
                continue
            # --- end of the attackers' turn, then the maintenance phase: each continuous
            # effect on the target, in the order fire, corrosion
            if earth_lit:
                earth_lit = die_of(np.int64(dice[pos]), 0) > 2
                pos += 1
            next_row = (t + 1) * n_attacks if t + 1 < attack_rounds else n_rows
            if multi and g >= 0:  # several targets: each in turn, from what it kept
                store(cur, tr, marked, state, effects, def_minus, arm_minus, cont, crippled, shield_now)
                park(g, tr, tpoints, cortex_lost, power_blocked, destroyed, state)
            for gg in range(n_targets if multi else 1):
                if multi:
                    if g_dead[gg] == tr:
                        continue
                    g = gg
                    (boxes, start_state, start_tpoints, shield, power_focus, power_lethal,
                     power_best, tough, rapid, start_effects, on_card, feedback, heals, n_models,
                     m_lo) = figures(g)
                    tpoints, cortex_lost, power_blocked, destroyed, disp = unpark(g, tr)
                    (cur, marked, state, effects, def_minus, arm_minus, cont, crippled, n_marks,
                     shield_now) = take_place(m_lo, tr, disp, np.int64(0), np.int64(0), shield)
                # a unit: every living model in turn (the one under attack leaves the locals)
                if rare is not None and unit:
                    store(cur, tr, marked, state, effects, def_minus, arm_minus, cont, crippled, shield_now)
                    stored = True
                for mj in range(cur, m_lo + n_models):
                    if rare is not None and unit:
                        if m_gone[mj] == tr:
                            continue
                        (marked, state, effects, def_minus, arm_minus, cont, crippled, n_marks,
                         shield_now) = load(mj, tr, state, crippled, n_marks, shield_now)
                    for k in range(2):
                        if ((cont >> k) & 1) == 0:
                            continue
                        effect_counts[t, k, E_PRESENT] += 1
                        expires = die_of(np.int64(dice[pos]), 0) <= 2
                        pos += 1
                        if expires:
                            cont &= ~(1 << k)
                            continue
                        effect_counts[t, k, E_APPLIED] += 1
                        if k == CE_FIRE:
                            arm = (groups[g, T_ARM_BASE] if multi else target[T_ARM_BASE]) + shield_now - arm_minus
                            if (state & ST_DISPELLED) == 0:
                                arm += groups[g, T_UPKEEP_ARM] if multi else target[T_UPKEEP_ARM]
                            dealt = max(0, PAIR_SUM[np.int64(dice[pos])] + FIRE_POW - arm)
                            pos += 1
                        else:
                            dealt = 1
                        fkey = 0
                        if power_best and tpoints > 0:
                            # no attacker is acting: its points are not part of the state
                            fkey = play_key(0, tpoints, state, effects, cont, earth_lit, cortex_lost,
                                            (state & ST_PRONE) != 0, m_lo + destroyed)
                        (marked, tpoints, crippled, n_marks, pos, state, shield_now, cortex_lost,
                         power_blocked, dead) = suffer(k, dealt, 0, next_row, next_row, t, marked,
                                                       tpoints, crippled, n_marks, pos, state,
                                                       shield_now, cortex_lost, power_blocked, fkey,
                                                       2 * k_rows + 2 * t + k,
                                                       destroyed + 1 >= n_models and alive == 1)
                        if dead:
                            break
                    if dead:
                        destroyed += 1
                        if rare is not None:
                            m_gone[mj] = tr
                        if destroyed >= n_models:
                            break
                        dead = False  # one model of the unit: the others go on
                    elif rare is not None and unit:
                        store(mj, tr, marked, state, effects, def_minus, arm_minus, cont, crippled, shield_now)
                if dead and multi:  # the whole target destroyed: the others may stand
                    alive, g, dead = fell(g, t, tr, alive)
                    if not dead:
                        continue
                if dead:
                    break
                if multi:  # its models are stored: what the target keeps
                    park(g, tr, tpoints, cortex_lost, power_blocked, destroyed, state)
            if multi:
                g = -1  # every target waits: the next attack's route picks one
            if dead:
                break
            # --- the target's activation (hazards), then the end of its turn: every model
            # stands in them (a unit's living ones)
            gives = 0
            if (hazards & HZ_ACID) != 0:
                gives |= suffers & (1 << CE_CORROSION)
            if earth_lit:
                gives |= suffers & (1 << CE_FIRE)
                earth_lit = die_of(np.int64(dice[pos]), 0) > 2
                pos += 1
            if rare is not None and unit:  # every living model was stored by the maintenance phase
                for j in range(0 if multi else cur, all_models if multi else n_models):
                    if m_gone[j] != tr:
                        m_cont[j] |= gives
                        effect_counts[t, CE_FIRE, E_AFTER] += m_cont[j] & 1
                        effect_counts[t, CE_CORROSION, E_AFTER] += (m_cont[j] >> 1) & 1
                if not multi:
                    (cur, marked, state, effects, def_minus, arm_minus, cont, crippled, n_marks,
                     shield_now) = take_place(cur, tr, state, crippled, n_marks, shield_now)
            else:
                cont |= gives
                effect_counts[t, CE_FIRE, E_AFTER] += cont & 1
                effect_counts[t, CE_CORROSION, E_AFTER] += (cont >> 1) & 1
        if multi:
            # several targets: each one's damage and models destroyed, and their sums
            if g >= 0:
                store(cur, tr, marked, state, effects, def_minus, arm_minus, cont, crippled, shield_now)
                park(g, tr, tpoints, cortex_lost, power_blocked, destroyed, state)
            total = 0
            down = 0
            for gg in range(n_targets):
                bx = groups[gg, T_BOXES]
                nm = groups[gg, T_MODELS]
                if g_dead[gg] == tr:
                    dd = nm
                    dmg = nm * bx
                else:
                    dd = g_destroyed[gg] if g_stamp[gg] == tr else 0
                    dmg = dd * bx
                    lo = groups[gg, T_FIRST_MODEL]
                    for j in range(lo, lo + nm):
                        if m_gone[j] != tr and m_stamp[j] == tr:
                            dmg += m_marked[j]
                target_damage[gg, dmg] += 1
                target_destroyed[gg, dd] += 1
                total += dmg
                down += dd
            damage_hist[total] += 1
            destroyed_hist[down] += 1
        elif rare is not None and unit:
            # the damage on the whole unit: a destroyed model counts all its boxes
            total = destroyed * boxes
            if destroyed < n_models:
                total += marked
                if stored:  # the others' damage (a blast, continuous effects)
                    for j in range(cur + 1, n_models):
                        if m_gone[j] != tr and m_stamp[j] == tr:
                            total += m_marked[j]
            damage_hist[total] += 1
            destroyed_hist[destroyed] += 1
        else:
            damage_hist[marked] += 1
        if any_card and n_card == 0:
            for c in range(N_COLUMNS):
                mask_hist[c, colmask[c]] += 1
            for c in range(N_COLUMNS, n_cols):
                mask_hist[c, colmask[c]] += 1
        elif rare is not None and any_card:
            # a unit of models with a card: every model's marks (a destroyed one's all; the
            # one under attack's in the scratch arrays, with several targets stored above)
            for j in range(all_models):
                if not m_card[j]:
                    continue
                gone = m_gone[j] == tr or (not multi and destroyed >= n_models)
                for c in range(n_cols):
                    if gone:
                        mask = col_full[c]
                    elif not multi and j == cur:
                        mask = colmask[c]
                    elif m_stamp[j] == tr:
                        mask = m_col[j, c]
                    else:
                        mask = 0
                    mask_hist[c, mask] += 1
    return pos

"""The only bridge from rules objects to the kernels' flat NumPy tables.

Everything that does not change during a sequence is worked out here, once, in Python, from
the rules model (DEF against each weapon at normal and at base DEF 5, ARM against it, dice
counts with free boosts, resistances and Weapon Master, flags); the kernel only handles what
changes from attack to attack (``docs/activation.md``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..rules import Attacker, AttackSlot, Scenario, Spend, Target, Weapon
from ..rules.slots import round_labels
from ..rules.vocabulary import CONTINUOUS_EFFECTS, STILL_STATES
from ._kernels import layout as L
from .card_tables import alphabet, card_tables
from .draws import is_plain, max_draws, most_made
from .weapon_bits import roll_modes, rule_flags

__all__ = ["Encoded", "encode", "MAX_EFFECTS"]

_MODE = {"never": L.MODE_NEVER, "always": L.MODE_ALWAYS, "auto": L.MODE_AUTO}
#: Weapons with a -DEF / -ARM effect one scenario may hold (a bit each in an int64).
MAX_EFFECTS = 62


@dataclass(frozen=True, eq=False)
class Encoded:
    """A scenario as the kernels read it, built once per run by :func:`encode`.

    ``tables`` (:class:`~mathhammer.montecarlo._kernels.layout.Tables`, laid out as
    :mod:`~mathhammer.montecarlo._kernels.layout` says): ``attacks`` has one row per attack
    slot (initial and bought, weapon and target figures copied in), then one per other weapon
    best play may make a bought attack with (with several targets, a block of those rows per
    target), ``attackers`` one row per attacker (points and spending policy), ``target`` the
    (first) target's figures and starting situation bits, ``groups`` every target's and
    ``routes`` the targets of each slot; ``col_full``, ``letter_mask`` and ``letters_done``
    describe the grid or spiral of the target that has one. ``max_draws`` is the most entries (pairs of dice) one trial can read from
    the dice buffer (with a grid or spiral, one more per attack for the column roll);
    ``plain`` says the scenario can take the fast kernel
    (:mod:`mathhammer.montecarlo._kernels.plain`), ``spend`` that it is plain but for its
    attackers' points and can take :mod:`mathhammer.montecarlo._kernels.spend`; ``letters`` is the card's alphabet in
    kernel index order (empty for a damage track).

    What the counters' rows mean, read off the attack sequence once: ``n_slots`` attack slots
    a round; per counter row (each slot of each round with attacks, round-major) its label
    (``slot_labels``), the index of the attacker making it (``slot_attacker``), its round
    (``slot_round``) and the points it pays with no decision (``slot_paid``: a power
    attack's).
    """

    tables: L.Tables
    max_draws: int
    plain: bool
    letters: tuple[str, ...]
    n_slots: int
    slot_labels: tuple[str, ...]
    slot_attacker: tuple[int, ...]
    slot_round: tuple[int, ...]
    slot_paid: tuple[int, ...] = ()
    spend: bool = False

    @property
    def attacks(self) -> np.ndarray:
        return self.tables.attacks

    @property
    def attackers(self) -> np.ndarray:
        return self.tables.attackers

    @property
    def target(self) -> np.ndarray:
        return self.tables.target

    @property
    def col_full(self) -> np.ndarray:
        return self.tables.col_full


#: A_SIDE of each attacker ``side`` (a colossal's grid its damage goes to).
_SIDES = {"left": L.SIDE_LEFT, "right": L.SIDE_RIGHT, "random": L.SIDE_RANDOM}


def _attack_row(slot: AttackSlot, target: Target, scenario: Scenario) -> list[int]:
    """The figures of one attack slot against ``target`` (in its starting state), with the
    scenario's settings: a row of :data:`~._kernels.layout.A_NFIELDS` Python ints (the
    encoder makes one array of all rows: NumPy's cost per element set was most of the work)."""
    weapon: Weapon = slot.weapon
    attacker: Attacker = slot.attacker
    rules = weapon.rules
    blessed = "blessed" in rules
    row = [0] * L.A_NFIELDS
    flags = rule_flags(weapon, target, scenario)
    if slot.free_attack_boost:
        flags |= L.F_FREE_ATT_BOOST
    if slot.free_damage_boost:
        flags |= L.F_FREE_DMG_BOOST
    resisted = bool(weapon.damage_types & target.resist)
    bonus = slot.combined_bonus
    row[L.A_SKILL] = weapon.skill + bonus + slot.attack_mod
    row[L.A_POW] = (weapon.pow if weapon.pow is not None else 0) + bonus
    row[L.A_ATT_DICE] = slot.attack_dice
    row[L.A_DMG_DICE] = (attacker.damage_dice(weapon) + int(slot.charge and not weapon.boosted_damage)
                         - int(resisted))
    if slot.collateral:  # no point boosts it, no crippled system or aspect takes a die off
        flags |= L.F_COLLATERAL | L.F_FREE_DMG_BOOST
        row[L.A_DMG_DICE] = weapon.base_damage_dice
    elif weapon.collateral is not None:
        flags |= L.F_SLAMS
    row[L.A_FLAGS] = flags
    row[L.A_ATT_MODE], row[L.A_DMG_MODE] = roll_modes(weapon, row[L.A_ATT_DICE], scenario)
    row[L.A_DEF] = target.defense_against(weapon.type, base_def_5=target.starts_base_def_5)
    row[L.A_DEF5] = target.defense_against(weapon.type, base_def_5=True)
    row[L.A_AUTOHIT_ON] = L.ST_MELEE_AUTOHIT if weapon.type == "melee" else 0
    if weapon.auto_hit:  # docs/rules.md 1: an automatic hit, whatever the target's state
        row[L.A_AUTOHIT_ON] = L.ST_ALWAYS
    if weapon.has_rule("sustained_attack"):  # and once it has hit the target this activation
        row[L.A_AUTOHIT_ON] |= L.ST_SUSTAINED
    row[L.A_NUMBER] = slot.number
    row[L.A_SIDE] = _SIDES[attacker.side]
    if weapon.random_rof and not slot.bought:  # docs/rules.md 5: rolled before the first
        row[L.A_FLAGS] |= L.F_ROF
        row[L.A_ROF] = {"d3": L.ROF_D3, "d6": L.ROF_D6, "2d3": L.ROF_2D3}[weapon.random_rof]
    row[L.A_SPELL_DEF] = 0 if blessed else target.spell_def
    row[L.A_UPKEEP_DEF] = 0 if blessed else target.upkeep_def
    row[L.A_ARM] = (target.base_arm("armor_piercing" in rules) + target.arm_modifier(weapon.type)
                    + (0 if blessed else target.spell_arm))
    # upkeep spells' ARM (Blessed ignores it) and Unyielding (a rule: Blessed does not)
    row[L.A_UPKEEP_ARM] = (0 if blessed else target.upkeep_arm) + target.upkeep_rule_arm(weapon.type)
    if "critical_armor_piercing" in rules:  # what halving the base ARM takes off
        row[L.A_CRIT_ARM_CUT] = target.base_arm(False) - target.base_arm(True)
    row[L.A_DEF_MINUS] = weapon.def_minus
    row[L.A_ARM_MINUS] = weapon.arm_minus
    row[L.A_EFFECT_ON] = L.CRIT if weapon.effect_on == "critical" else L.HIT
    row[L.A_ORIGIN] = L.ORIGIN_BOUGHT if slot.bought else L.ORIGIN_INITIAL
    row[L.A_COST] = slot.cost if slot.bought else 0
    if weapon.blasts and (target.unit or weapon.blast_on_miss):
        # docs/units.md: blast damage on the unit's other models, and on a miss on the models
        # it still catches (a single model's too)
        flags |= L.F_BLAST
        row[L.A_FLAGS] = flags
        row[L.A_BLAST_POW] = weapon.blast_pow
        row[L.A_BLAST_DICE] = weapon.blast_dice_against(target.resist)
        row[L.A_BLAST_MODELS] = weapon.blast_models if target.unit else 0
        row[L.A_BLAST_MISS] = weapon.blast_on_miss
    if slot.bought and not slot.stops:
        row[L.A_FLAGS] |= L.F_DECLINE_SKIPS
    letters = alphabet(target)
    to = weapon.damage_to
    row[L.A_DAMAGE_TO] = letters.index(to) if to is not None and to in target.letters else -1
    return row


def _attacker_row(attacker: Attacker, table) -> list[int]:
    """Points and spending of one attacker; best play's unsolved entries fall back to the
    default :class:`~mathhammer.rules.Spend` (no reserve: best play keeps none)."""
    best = table is not None and attacker.plays_best
    spend = Spend() if best else attacker.spend
    row = [0] * L.P_NFIELDS
    row[L.P_BEST] = int(best)
    row[L.P_POINTS] = attacker.points
    row[L.P_BOOST_ATT] = _MODE[spend.boost_attack]
    row[L.P_BOOST_ATT_AT] = spend.boost_attack_at
    row[L.P_BOOST_DMG] = _MODE[spend.boost_damage]
    row[L.P_RESERVE] = spend.reserve
    return row


def _target_vector(target: Target, table, scenario: Scenario) -> list[int]:
    tvec = [0] * L.T_NFIELDS
    tvec[L.T_FIELD_LIMIT] = scenario.power_field_per_attack
    tvec[L.T_HEAL_WHEN_HIT] = int(scenario.rapid_healing_when_hit)
    tvec[L.T_GUARD_BLOCKS], tvec[L.T_BOXES] = target.guard_blocks, target.boxes
    state = L.ST_ALWAYS  # what a weapon with auto_hit hits on: every state
    if target.starts_base_def_5:
        state |= L.ST_BASE_DEF_5
    if target.starts_melee_auto_hit:
        state |= L.ST_MELEE_AUTOHIT
    if "knocked_down" in target.state:
        state |= L.ST_PRONE
    if target.state & STILL_STATES:
        state |= L.ST_STILL
    tvec[L.T_STATE] = state
    tvec[L.T_CAPACITY] = {"track": L.CAP_TRACK, "grid": L.CAP_GRID,
                          "spiral": L.CAP_SPIRAL}[target.capacity]
    tvec[L.T_SHIELD_ARM] = target.shield_arm
    if target.shield_arm:
        for k, loc in enumerate("LRHF"):
            tvec[L.T_SHIELD_LOC + k] = 2 * target.shield.count(loc) + target.buckler.count(loc)
    tvec[L.T_NLETTERS] = len(alphabet(target))
    tvec[L.T_EFFECTS] = sum(1 << k for k, e in enumerate(CONTINUOUS_EFFECTS) if e in target.effects)
    tvec[L.T_SUFFERS] = sum(1 << k for k, e in enumerate(CONTINUOUS_EFFECTS) if target.suffers(e))
    tvec[L.T_HAZARDS] = (L.HZ_ACID * ("acid_bath" in target.hazards)
                         | L.HZ_EARTH * ("burning_earth" in target.hazards)
                         | L.HZ_QUICKSAND * ("quicksand" in target.hazards))
    tvec[L.T_ARM_BASE] = target.arm + target.spell_arm + target.feat_arm
    tvec[L.T_UPKEEP_ARM] = target.upkeep_arm
    tvec[L.T_POINTS] = target.power_points
    kind = target.power_kind
    tvec[L.T_POWER_KIND] = {None: L.PK_NONE, "focus": L.PK_FOCUS, "fury": L.PK_FURY}[kind]
    tvec[L.T_POWER_POLICY] = {"lethal": L.PF_LETHAL, "never": L.PF_NEVER, "best": L.PF_LETHAL}[target.power_field]
    if target.power_field == "best" and table is not None:
        tvec[L.T_POWER_POLICY] = L.PF_BEST
    if "tough_steady" in target.rules:
        tvec[L.T_TOUGH] = L.TOUGH_STEADY
    elif target.tough_rules:  # its own or an upkeep spell's (T_TOUGH_UPKEEP)
        tvec[L.T_TOUGH] = L.TOUGH
    tvec[L.T_RAPID_HEAL] = L.RAPID_D3 if target.rapid_healing == "d3" else target.rapid_healing
    tvec[L.T_TOUGH_UPKEEP] = int("tough" in target.upkeep_rules)
    tvec[L.T_TOUGH_ON] = target.tough_on
    tvec[L.T_MODELS] = target.models
    return tvec


def _no_play_tables() -> tuple:
    """The tiny unread tables of :func:`_play_tables` without best play."""
    keys = np.zeros(L.K_NFIELDS, dtype=np.int64)
    keys[[L.K_POINTS, L.K_TPOINTS, L.K_SITUATIONS, L.K_CONT, L.K_EARTH, L.K_LOST, L.K_DESTROYED, L.K_ICE,
          L.K_SHOTS, L.K_ARM_EXTRA, L.K_SHRED]] = 1
    return (keys, np.zeros((1, 1, 1), dtype=np.uint8), np.full((1, 1, 1, 1), -1, dtype=np.int8),
            np.full((1, 1), -1, dtype=np.int64), np.full(1, -1, dtype=np.int32))


#: Built once and shared by every encoding without best play. No kernel writes a table; the
#: arrays stay writable because Numba types a read-only array apart, and a best-play table's
#: are writable: one compiled kernel serves both (a copy per run cost a matrix point microseconds).
_NO_PLAY = _no_play_tables()


def _play_tables(table) -> tuple:
    """``play_keys``, ``play_attack``, ``play_field``, ``play_columns`` and ``play_index`` of a
    :class:`~mathhammer.play.DecisionTable` (tiny unread ones without best play)."""
    if table is None:
        return _NO_PLAY
    keys = np.zeros(L.K_NFIELDS, dtype=np.int64)
    columns = np.full((1, 1), -1, dtype=np.int64)
    index = np.full(1, -1, dtype=np.int32)
    ks = table.keys
    keys[L.K_POINTS] = ks.points
    keys[L.K_TPOINTS] = ks.target_points
    keys[L.K_SITUATIONS] = ks.situation_count
    keys[L.K_EFFECTS] = len(ks.effects)
    keys[L.K_CONT] = ks.cont
    keys[L.K_EARTH] = ks.earth
    keys[L.K_LOST] = ks.lost
    keys[L.K_DESTROYED] = ks.destroyed
    keys[L.K_ICE] = ks.ice
    keys[L.K_SHOTS] = ks.shots
    keys[L.K_ARM_EXTRA] = ks.arm_extra
    keys[L.K_SHRED] = ks.shred
    keys[L.K_TSTRIDE] = ks.target_stride
    keys[L.K_DAMAGE] = table.field.shape[3]
    keys[L.K_ROWS] = table.rows
    keys[L.K_SITUATION_INDEX: L.K_SITUATION_INDEX + 128] = ks.situation_table()
    if table.card_index is not None:
        keys[L.K_CARD] = 1
        columns = np.full((L.N_COLUMNS, 1 << L.MAX_ROWS), -1, dtype=np.int64)
        columns[:, : table.card_columns.shape[1]] = table.card_columns
        index = table.card_index
    return keys, table.attack, table.field, columns, index


def encode(scenario: Scenario, table=None, sequence=None) -> Encoded:
    """Flatten ``scenario`` into the kernel's tables.

    ``table``: the :class:`~mathhammer.play.DecisionTable` of best play the kernel follows
    for attackers with ``policy = "best"`` and a target with ``power_field = "best"``;
    without one they spend by the default fixed policy and the "lethal" power field. The
    attack sequence is built here once (or handed in as ``sequence``, when the solve of best
    play built it); everything after reads the slots' labels, attackers and rounds from the
    result.

    Examples
    --------
    >>> from mathhammer.rules import Attacker, Scenario, Target, Weapon
    >>> s = Scenario(Target(defense=12, arm=18, boxes=30, state={"cover"}),
    ...              [Attacker("A", [Weapon("Gun", "ranged", 5, 12, attacks=2)])])
    >>> enc = encode(s)
    >>> len(enc.attacks), int(enc.attacks[0, L.A_DEF]), int(enc.attacks[0, L.A_DEF5])
    (2, 16, 9)
    """
    targets = scenario.targets
    card_target = scenario.card_target
    if sequence is None:
        sequence = scenario.attack_sequence()
    effect_bit: dict[tuple[str, int, int], int] = {}
    # the slots' rows, then the other weapons best play may make a bought attack with (read
    # only through a decision table, but always there: max_draws is the same with or without)
    rows = list(sequence)
    choice_row = {}
    for i, slot in enumerate(sequence):
        if slot.choices:
            choice_row[i] = len(rows)
            rows += [slot.with_weapon(wi) for wi in slot.choices]
    # several targets: a block of those rows per target, each against its target
    block = len(rows)
    # the tables are built as lists of Python ints and made arrays once: NumPy's cost per
    # element set, per row stacked, was most of the encoder's work
    arows: list = [None] * (block * len(targets))
    made_rows: dict = {}  # (what a row is made of, target) -> its row
    seen_attackers = set()
    for i, slot in enumerate(rows):
        w = slot.weapon
        bit = 0
        if w.has_effect:
            # same-named effects do not stack: the effect is known by its weapon's name and size
            ident = (w.name, w.def_minus, w.arm_minus)
            if ident not in effect_bit:
                if len(effect_bit) >= MAX_EFFECTS:
                    raise InputError("attackers", len(effect_bit) + 1,
                                     f"at most {MAX_EFFECTS} different -DEF/-ARM effects")
                effect_bit[ident] = 1 << len(effect_bit)
            bit = effect_bit[ident]
        first = i < len(sequence) and slot.actor not in seen_attackers
        if first:
            seen_attackers.add(slot.actor)
        # a unit's models make the same attacks: each distinct row is worked out once
        same = (id(slot.weapon), id(slot.attacker), slot.number, slot.bought, slot.charge,
                slot.cost, slot.stops, slot.group, slot.attack_mod, slot.collateral)
        for g, target in enumerate(targets):
            made = made_rows.get((same, g))
            if made is None:
                made = made_rows[same, g] = _attack_row(slot, target, scenario)
            row = made.copy()
            row[L.A_ATTACKER] = slot.attacker_index
            if i in choice_row:
                row[L.A_CHOICES] = len(slot.choices)
                row[L.A_CHOICE_ROW] = g * block + choice_row[i]
            row[L.A_EFFECT_BIT] = bit
            if first:
                row[L.A_FLAGS] |= L.F_FIRST
            arows[g * block + i] = row
    grows = [_target_vector(t, table, scenario) for t in targets]
    first_model = 0
    names = [t.name for t in targets]
    for g, t in enumerate(targets):
        grows[g][L.T_FIRST_MODEL] = first_model
        first_model += t.models
        grows[g][L.T_TARGETS] = len(targets)
        grows[g][L.T_TURNS] = scenario.turns
        grows[g][L.T_SLOTS] = len(sequence)
        grows[g][L.T_ATTACK_ROUNDS] = scenario.attack_rounds
        grows[g][L.T_GUARDED_BY] = -1
    # Shield Guard (docs/rules.md 9): who guards each target; its ranged attacks may be taken
    for g, t in enumerate(targets):
        for name in t.shield_guard:
            grows[names.index(name)][L.T_GUARDED_BY] = g
    if any(row[L.T_GUARDED_BY] >= 0 or row[L.T_GUARD_BLOCKS] for row in grows):
        for i, slot in enumerate(rows):
            if slot.weapon.type == "ranged":
                for g in range(len(targets)):
                    arows[g * block + i][L.A_FLAGS] |= L.F_GUARDABLE
    attacks = np.array(arows, dtype=np.int64).reshape(-1, L.A_NFIELDS)
    attackers = np.array([_attacker_row(a, table) for a in scenario.attackers], dtype=np.int64)
    groups = np.array(grows, dtype=np.int64)
    tvec = groups[0].copy()
    # a matrix with several targets (or Shred, below), a vector (unread) for one: the kernel
    # compiles each apart
    route_rows = [[-1] * len(targets) for _ in range(max(1, len(sequence)))]
    for i, slot in enumerate(sequence):
        route = slot.route or tuple(range(len(targets)))
        route_rows[i][: len(route)] = route
    # Shred's repeated attacks are in the several-target variant only (its attack loop), so
    # a Shred scenario takes it with one target too (most_made: whether any row has Shred)
    n = most_made(arows, len(sequence))  # attacks a round makes, Shred's included
    if len(targets) == 1 and n == len(sequence):
        routes = np.array([r[0] for r in route_rows], dtype=np.int64)
    else:
        routes = np.array(route_rows, dtype=np.int64)
    col_full, letter_mask, letters_done = card_tables(card_target)
    card = card_target.card is not None
    # per round: the attacks (a column d6 each on a card; a quicksand point's column and
    # Tough d6 after each), two burning-earth d6, fire (expiry, 2d6, column, Tough) and
    # corrosion (expiry, column, Tough)
    # a column d6 for each model a blast catches too (a unit of models with a card)
    # a colossal: one more d6 for each (the column on the other grid once one is full)
    caught = max((max(r[L.A_BLAST_MODELS], r[L.A_BLAST_MISS]) for r in arows), default=0) if card else 0
    more = int(card_target.colossal)
    per_attack_round = (max_draws(arows, len(sequence), len(targets))
                        + (n * (1 + caught) * (1 + more) if card else 0)
                        + ((2 + more) * n if "quicksand" in card_target.hazards else 0))
    upkeep = 2 + (4 + 3 + 2 * more) * scenario.total_models  # every model of a unit has its own effects
    draws = scenario.attack_rounds * per_attack_round + scenario.turns * upkeep
    rounds = scenario.attack_rounds
    tables = L.Tables(attacks, attackers, tvec, col_full, letter_mask, letters_done,
                      *_play_tables(table), groups, routes)
    plain = is_plain(arows, attackers, tvec)
    return Encoded(
        tables, draws, plain, tuple(alphabet(card_target)),
        n_slots=len(sequence),
        slot_labels=round_labels([slot.label for slot in sequence], rounds),
        slot_attacker=tuple(slot.attacker_index for slot in sequence) * rounds,
        slot_round=tuple(t for t in range(rounds) for _ in sequence),
        slot_paid=tuple(slot.paid for slot in sequence) * rounds,
        spend=not plain and is_plain(arows, attackers, tvec, spending=True),
    )

"""How a decision table of best play is laid out: the state key and the decision bits.

A decision of best play depends on the attack (a row per attack slot of every round with
attacks, round-major, as the kernels count them), on the damage marked and on the rest of
the state (:class:`~mathhammer.exact.state.State`): the attacker's points left, the
target's points left, its situation (knocked down, stationary, dispelled, Grievous Wounds),
the -DEF / -ARM effects on it, over rounds its continuous effects and a burning earth, and
the models of a unit target destroyed so far.
:class:`KeySpace` numbers that rest as one integer, a mixed-radix number whose digits run
only over what can change in the scenario; the Monte Carlo kernel computes the same number
from its own state (``montecarlo/_kernels/play_lookup.py``, ``play_key``).

Decision bits of the attack table (``uint8[rows, keys, boxes]``, indexed by the state before
the attack, bought or not): :data:`BUY`, :data:`BOOST_ATTACK`, :data:`BOOST_DAMAGE_HIT`,
:data:`BOOST_DAMAGE_CRIT`, each with a ``KNOWN_*`` bit saying it was solved there. The field
table (``int8[rows, keys, boxes, damage]``, indexed by the state after the hit) holds the
points the target spends against each damage roll, :data:`UNKNOWN` where unsolved.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BUY", "KNOWN_BUY", "BOOST_ATTACK", "KNOWN_ATTACK", "BOOST_DAMAGE_HIT",
           "BOOST_DAMAGE_CRIT", "KNOWN_DAMAGE_HIT", "KNOWN_DAMAGE_CRIT", "UNKNOWN", "SITUATIONS",
           "KeySpace", "FIELD_KINDS", "FIELD_ATTACK", "FIELD_QUICKSAND", "FIELD_FIRE", "FIELD_CORROSION",
           "FIELD_BLOCK", "field_row", "field_rows", "block_index"]

BUY = 1 << 0
KNOWN_BUY = 1 << 1
BOOST_ATTACK = 1 << 2
KNOWN_ATTACK = 1 << 3
BOOST_DAMAGE_HIT = 1 << 4
BOOST_DAMAGE_CRIT = 1 << 5
KNOWN_DAMAGE_HIT = 1 << 6
KNOWN_DAMAGE_CRIT = 1 << 7
#: Field table entry never solved (the kernel spends by the "lethal" rule there).
UNKNOWN = -1

#: Kinds of the field table's rows (:func:`field_row`): the damage roll of an attack, the
#: quicksand's after it, fire and corrosion at a round's end (fire, corrosion: the order of
#: their bits in the state), and Shield Guard's block of an attack's hit.
FIELD_ATTACK, FIELD_QUICKSAND, FIELD_FIRE, FIELD_CORROSION, FIELD_BLOCK = range(5)
#: The kinds by the names the decisions are recorded under.
FIELD_KINDS = {"attack": FIELD_ATTACK, "quicksand": FIELD_QUICKSAND, "fire": FIELD_FIRE,
               "corrosion": FIELD_CORROSION, "block": FIELD_BLOCK}


def field_row(rows: int, kind: int, row: int, turns: int = 1) -> int:
    """Row of the field table of a table with ``rows`` attack rows over ``turns`` rounds: an
    attack's damage roll (``row`` its attack row), the quicksand after attack row ``row``,
    fire or corrosion at the end of round ``row``, or the block of attack row ``row``'s hit.
    The one layout of the rows: the table is written by it and the Monte Carlo kernel reads
    by it (compiled from this function).

    >>> [field_row(3, k, 1, turns=2) for k in (FIELD_ATTACK, FIELD_QUICKSAND, FIELD_FIRE,
    ...                                        FIELD_CORROSION, FIELD_BLOCK)]
    [1, 4, 8, 9, 11]
    """
    if kind == FIELD_ATTACK:
        return row
    if kind == FIELD_QUICKSAND:
        return rows + row
    if kind == FIELD_BLOCK:
        return 2 * rows + 2 * turns + row
    return 2 * rows + 2 * row + (kind - FIELD_FIRE)


def field_rows(rows: int, turns: int, blocks: bool) -> int:
    """Rows of the field table: attacks, quicksand, two per round, and blocks where there are."""
    return 2 * rows + 2 * turns + (rows if blocks else 0)


def block_index(paid: int, critical: int) -> int:
    """Damage index of a block row: what the block is decided on, the attack boost paid and
    whether the hit is critical."""
    return 2 * paid + critical

#: Situation bits of a key, in order: knocked down, stationary (knocked down or not: Shatter
#: tells a stationary model that is knocked down from one that is not), dispelled, Grievous Wounds, and, for the power field's decisions only,
#: knocked down *before* the damage is resolved (then no Tough roll, no knockdown in
#: quicksand: two states alike after the hit may differ there).
SITUATIONS = ("down", "still", "dispelled", "grievous", "down_before", "paralyzed", "sustained")


@dataclass(frozen=True)
class KeySpace:
    """The digits of a state key.

    Attributes
    ----------
    points, target_points : int
        Radices of the attacker's and the target's points left (most points + 1).
    varying : tuple of bool
        Per :data:`SITUATIONS` bit, whether it can change in the scenario (else its digit is
        always 0).
    effects : tuple
        The -DEF / -ARM effect identities, a bit each in this order (the encoder's).
    cont : int
        Radix of the continuous effects (4 when any can be on the target, else 1).
    earth : int
        Radix of a burning earth still burning (2 or 1).
    lost : int
        Radix of "its Cortex was crippled in an earlier round" (2 or 1: grids over rounds).
    destroyed : int
        Radix of the models of a unit target destroyed so far (its models, or 1).
    ice : int
        Radix of the Ice Cage stacks on the target (most stacks + 1, or 1).
    shots : int
        Radix of a random rate of fire's roll, within its volley (most attacks + 1, or 1).
    arm_extra : int
        Radix of the -ARM effects landing again added (setting arm_minus_stacks_same_weapon).
    shred : int
        Radix of the Shred attacks made so far in an attack's chain (MAX_SHRED + 1, or 1).
    target_stride : int
        With Shield Guard blocks, the target's digit holds its points left plus this times
        its blocks left (``target_points`` is then their product's radix); 0: no blocks.

    Examples
    --------
    >>> ks = KeySpace(points=4, target_points=2, varying=(True, False, False, False, False),
    ...               effects=(), cont=1, earth=1, lost=1)
    >>> ks.size, ks.situation_index(0b0001), ks.situation_count
    (16, 1, 2)
    """

    points: int
    target_points: int
    varying: tuple
    effects: tuple
    cont: int
    earth: int
    lost: int
    destroyed: int = 1
    ice: int = 1
    shots: int = 1
    arm_extra: int = 1
    shred: int = 1
    target_stride: int = 0

    @property
    def situation_count(self) -> int:
        return 1 << sum(self.varying)

    def situation_index(self, bits: int) -> int:
        """Compact index of raw situation ``bits`` (a bit per :data:`SITUATIONS` entry)."""
        out, k = 0, 0
        for j, varies in enumerate(self.varying):
            if varies:
                out |= ((bits >> j) & 1) << k
                k += 1
        return out

    def situation_table(self) -> list[int]:
        """:meth:`situation_index` of each of the 128 raw bit patterns (the kernel's lookup)."""
        return [self.situation_index(b) for b in range(1 << len(SITUATIONS))]

    @property
    def size(self) -> int:
        return (self.points * self.target_points * self.situation_count * (1 << len(self.effects))
                * self.cont * self.earth * self.lost * self.destroyed * self.ice * self.shots * self.arm_extra
                * self.shred)

    def key(self, points: int, target_points: int, down: bool, still: bool, dispelled: bool,
            grievous: bool, effects: int, cont: int, earth: bool, lost: bool,
            down_before: bool = False, destroyed: int = 0, paralyzed: bool = False, ice: int = 0,
            sustained: bool = False, shots: int = 0, arm_extra: int = 0, shred: int = 0) -> int:
        """The key of a state (``effects``: the bits of :attr:`effects` active;
        ``down_before``: for the power field, knocked down before the damage;
        ``destroyed``: models of a unit target destroyed so far; ``paralyzed``, ``ice``:
        Paralysis and the Ice Cage stacks on it; ``sustained``: the attacker's Sustained
        Attack has hit it; ``shots``: a random rate of fire's roll, within its volley;
        ``arm_extra``: the -ARM effects landing again added; ``shred``: the Shred attacks
        made so far in the chain of the attack)."""
        raw = (int(down) | int(still) << 1 | int(dispelled) << 2 | int(grievous) << 3
               | int(down_before) << 4 | int(paralyzed) << 5 | int(sustained) << 6)
        key = shred if self.shred > 1 else 0
        key = key * self.arm_extra + (arm_extra if self.arm_extra > 1 else 0)
        key = key * self.shots + (shots if self.shots > 1 else 0)
        key = key * self.ice + (ice if self.ice > 1 else 0)
        key = key * self.destroyed + (destroyed if self.destroyed > 1 else 0)
        key = key * self.lost + (int(lost) if self.lost > 1 else 0)
        key = key * self.earth + (int(earth) if self.earth > 1 else 0)
        key = key * self.cont + (cont if self.cont > 1 else 0)
        key = (key << len(self.effects)) + effects
        key = key * self.situation_count + self.situation_index(raw)
        key = key * self.target_points + target_points
        return key * self.points + points

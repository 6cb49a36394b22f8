"""How an attacker spends its focus, fury or forcing: one policy of the family the optimizer
searches (README "Spending policies")."""

from __future__ import annotations

from dataclasses import dataclass

from .._core.validate import check_bool, check_choice, check_int, plain_ints
from .vocabulary import BOOST_MODES

__all__ = ["Spend", "DEFAULT_BOOST_ATTACK_AT"]

#: Default ``boost_attack_at``: boost an attack roll that needs 8 or more on two dice.
DEFAULT_BOOST_ATTACK_AT = 8
MAX_THRESHOLD = 13
MAX_RESERVE = 10


@dataclass(frozen=True)
class Spend:
    """A spending policy.

    Parameters
    ----------
    boost_attack : {"never", "always", "auto"}
        Boost an attack roll (decided before rolling) never, always, or ("auto") when the
        roll needed on two dice, ``DEF - skill``, is at least ``boost_attack_at``.
    boost_attack_at : int
        Threshold of ``auto`` attack boosts (default 8).
    boost_damage : {"never", "always", "auto"}
        Boost the damage roll of a hit (decided after the attack roll) never, always, or
        ("auto") only when it can matter: the unboosted roll could leave the target standing
        and the boosted roll could deal damage.
    buy_attacks : bool
        After its initial attacks, buy additional melee attacks with what is left.
    reserve : int
        A boost is paid only while more than ``reserve`` points remain: the reserve is kept
        for bought attacks.

    The defaults are what a good player picks: boost attacks needing 8+, boost damage when
    it can matter, buy attacks with the rest, no reserve.

    Examples
    --------
    >>> Spend().boosts_attack(need=9), Spend().boosts_attack(need=6)
    (True, False)
    >>> Spend(boost_attack="never").label
    'attack never, damage auto, buy, reserve 0'
    """

    boost_attack: str = "auto"
    boost_attack_at: int = DEFAULT_BOOST_ATTACK_AT
    boost_damage: str = "auto"
    buy_attacks: bool = True
    reserve: int = 0

    def __post_init__(self):
        plain_ints(self)  # NumPy's integers read as ints
        check_choice("spend.boost_attack", self.boost_attack, BOOST_MODES)
        check_int("spend.boost_attack_at", self.boost_attack_at, 2, MAX_THRESHOLD)
        check_choice("spend.boost_damage", self.boost_damage, BOOST_MODES)
        check_bool("spend.buy_attacks", self.buy_attacks)
        check_int("spend.reserve", self.reserve, 0, MAX_RESERVE)

    def boosts_attack(self, need: int) -> bool:
        """Whether it wants to boost an attack roll that needs ``need`` on two dice."""
        if self.boost_attack == "always":
            return True
        return self.boost_attack == "auto" and need >= self.boost_attack_at

    @property
    def label(self) -> str:
        """Short human-readable description (used in optimizer reports)."""
        att = self.boost_attack
        if att == "auto":
            att = f"auto {self.boost_attack_at}+"
        buy = "buy" if self.buy_attacks else "no buy"
        return f"attack {att}, damage {self.boost_damage}, {buy}, reserve {self.reserve}"

    def to_dict(self) -> dict:
        return {
            "boost_attack": self.boost_attack,
            "boost_attack_at": self.boost_attack_at,
            "boost_damage": self.boost_damage,
            "buy_attacks": self.buy_attacks,
            "reserve": self.reserve,
        }

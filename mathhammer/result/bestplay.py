"""What a result says about best play: :class:`BestPlay` (``Result.play``) and its
:class:`Decision` rows.

The engines fill it from the solved decision tables (:func:`mathhammer.play.report`), or say
why best play could not be solved and what decided instead; the "how to play it" frame and
report lines (:mod:`.play`) read it with the result's own counters.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

__all__ = ["BestPlay", "Decision"]


@dataclass(frozen=True)
class Decision:
    """One decision best play meets on one attack, in a player's words.

    Parameters
    ----------
    slot : int
        The attack row (0-based) it is met on.
    attack : str
        The attack's label.
    who : str
        Who decides: an attacker's name, or the target's.
    kind : str
        ``"buy"``, ``"weapon"``, ``"boost_attack"``, ``"boost_damage_hit"``,
        ``"boost_damage_crit"``, ``"boost_damage"`` (both alike) or ``"field"`` (the
        target's power field).
    decision : str
        What is done ("boost the attack roll", ...).
    weapon : str or None
        A bought attack's other weapon whose boosts these are; else None.
    condition : str
        When it is done ("always", "never", "3 or more boxes left", ...).
    agreement : float
        How often the condition says what the table does, weighted by how often it is met
        (0..1).
    """

    slot: int
    attack: str
    who: str
    kind: str
    decision: str
    weapon: str | None
    condition: str
    agreement: float

    def to_dict(self) -> dict:
        """The fields as a dict, in order."""
        return asdict(self)


@dataclass(frozen=True)
class BestPlay:
    """How best play was solved, its value and its decisions; or why it was not solved.

    Parameters
    ----------
    solved_on : str
        ``"exact"``, ``"exact, as if without Shield Guard"``, the relaxation solved instead
        (``"relaxed: ..."``, docs/best-play.md) or ``"not solved: ..."`` and why.
    objective : str or None
        The objective solved for (None when not solved).
    value : float or None
        The objective's value under best play on the game solved.
    table_bytes : int or None
        Size of the decision tables.
    states : int or None
        State keys of the tables.
    decisions : tuple of Decision
        One per attack and decision met (empty when not asked for, or not solved).
    fallback : str or None
        Not solved: what decided instead (the default fixed policy, the lethal power
        field); None when solved.
    """

    solved_on: str
    objective: str | None = None
    value: float | None = None
    table_bytes: int | None = None
    states: int | None = None
    decisions: tuple[Decision, ...] = ()
    fallback: str | None = None

    def to_dict(self) -> dict:
        """Plain-Python fields, those that apply (``solved_on`` and ``fallback`` when not
        solved): the ``--json`` key ``best_play``, with the decisions as dicts."""
        if self.fallback is not None:
            return {"solved_on": self.solved_on, "fallback": self.fallback}
        return {"solved_on": self.solved_on, "objective": self.objective, "value": self.value,
                "table_bytes": self.table_bytes, "states": self.states,
                "decisions": [d.to_dict() for d in self.decisions]}

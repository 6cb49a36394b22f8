"""Best play in a result: the "how to play it" frame and report lines.

The decisions come from ``Result.play.decisions`` (:func:`mathhammer.play.report`); how
often each is taken comes from the result's own counters (Monte Carlo or exact), so the frame
reads both the rule and what it did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .bestplay import Decision

__all__ = ["play_rows", "play_lines", "PLAY_COLUMNS"]

#: A kill less likely than this (and not 0) under best play is called "all but out of reach":
#: decisions that still turn on it may look odd to a player who would play for damage.
NEARLY_OUT_OF_REACH = 0.001

#: Columns of ``Result.play_table()``.
PLAY_COLUMNS = ("slot", "attack", "who", "decision", "condition", "agreement", "taken", "points")


def play_rows(result) -> list[dict]:
    """The rows of ``Result.play_table()``: ``slot`` (attack number, 1-based), ``attack``,
    ``who`` decides, ``decision``, ``condition`` (in a player's words), ``agreement`` (how
    often the condition says what the table does, weighted by how often it is met),
    ``taken`` (probability per sequence that the attack spends on it: a boost or buying it;
    empty for the target) and ``points`` (mean points it spends per sequence). A bought attack
    whose weapon best play chooses counts per slot, whatever the weapon: its boosts' figures
    are the slot's, and "make it with X" has none."""
    out = []
    for d in result.play.decisions if result.play is not None else ():
        i = d.slot
        kind = d.kind
        taken = None
        if kind == "boost_attack":
            taken = float(result.boost_attack_rate[i])
            points = taken
        elif kind.startswith("boost_damage"):
            taken = float(result.boost_damage_rate[i])
            points = taken
        elif kind == "buy":
            taken = float(result.made[i])
            # what buying it cost (a spell's cast: its cost), its boosts aside
            points = float(result.spent_mean[i] - result.boost_attack_rate[i] - result.boost_damage_rate[i])
        elif kind == "weapon":  # the weapon: not counted per weapon
            points = None
        else:  # the target's power field
            points = float(result.target_spent_mean[i])
        out.append({"slot": i + 1, "attack": d.attack, "who": d.who, "decision": decision_words(d),
                    "condition": d.condition, "agreement": d.agreement, "taken": taken,
                    "points": points})
    return out


def decision_words(d: Decision) -> str:
    """A decision as the report says it: the boosts of a bought attack made with another
    weapon say which ("with Claw, boost the damage roll")."""
    if d.weapon and d.kind not in ("weapon", "buy"):
        return f"with {d.weapon}, {d.decision}"
    return d.decision


def play_lines(result) -> list[str]:
    """The "How to play it" section of the text report (empty without best play)."""
    info = result.play
    if info is None:
        return []
    solved = info.solved_on
    if solved.startswith("not solved"):
        return [f"Best play: {solved}; {info.fallback or ''}.", ""]
    # "exact", "exact, as if without Shield Guard", "relaxed: the grid as a damage track ..."
    how = "exactly" + solved[5:] if solved.startswith("exact") else "with " + solved.removeprefix("relaxed: ")
    lines = [f"How to play it (best play for the objective {info.objective}; solved {how}):"]
    value = 1.0 if info.value is None else info.value
    then = "the models destroyed, then the damage" if result.models > 1 else "the damage"
    if info.objective == "kill" and value <= 0.0:
        lines.append(f"  The kill is out of reach: best play goes for {then} (then keeps its points).")
    elif info.objective == "kill" and value < NEARLY_OUT_OF_REACH:
        lines.append(f"  The kill is all but out of reach ({value:.4%}): best play still goes for it")
        lines.append(f"  first, and for {then} where it cannot.")
    by_slot: dict = {}
    for row in play_rows(result):
        by_slot.setdefault(row["slot"], []).append(row)
    for slot, rows in by_slot.items():
        said = []
        for row in rows:
            if row["condition"] == "never":
                continue
            who = "target: " if row["who"] == result.target_name and row["decision"].startswith("spend") else ""
            cond = "" if row["condition"] == "always" else " " + row["condition"]
            said.append(f"{who}{row['decision']}{cond}")
        lines.append(f"  {slot}. {rows[0]['attack']}: " + ("; ".join(said) if said else "spend nothing") + ".")
    lines.append("")
    return lines

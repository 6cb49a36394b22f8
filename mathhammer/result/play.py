"""Best play in a result: the "how to play it" frame and report lines.

The decisions come from ``Result.extra["best_play"]["decisions"]``
(:func:`mathhammer.play.report`); how often each is taken comes from the result's own
counters (Monte Carlo or exact), so the frame reads both the rule and what it did.
"""

from __future__ import annotations

__all__ = ["play_rows", "play_lines", "PLAY_COLUMNS"]

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
    info = result.extra.get("best_play") or {}
    out = []
    for d in info.get("decisions", []):
        i = d["slot"]
        decision = d["decision"]
        taken = None
        if decision == "boost the attack roll":
            taken = float(result.boost_attack_rate[i])
            points = taken
        elif decision.startswith("boost the damage roll"):
            taken = float(result.boost_damage_rate[i])
            points = taken
        elif decision == "buy this attack":
            taken = float(result.made[i])
            points = taken
        elif decision.startswith("make it with "):  # the weapon: not counted per weapon
            points = None
        else:  # the target's power field
            points = float(result.target_spent_mean[i])
        out.append({"slot": i + 1, "attack": d["attack"], "who": d["who"], "decision": decision,
                    "condition": d["condition"], "agreement": d["agreement"], "taken": taken,
                    "points": points})
    return out


def play_lines(result) -> list[str]:
    """The "How to play it" section of the text report (empty without best play)."""
    info = result.extra.get("best_play")
    if not info:
        return []
    solved = info.get("solved_on", "")
    if solved.startswith("not solved"):
        return [f"Best play: {solved}; {info.get('fallback', '')}.", ""]
    # "exact", "exact, as if without Shield Guard", "relaxed: the grid as a damage track ..."
    how = "exactly" + solved[5:] if solved.startswith("exact") else "with " + solved.removeprefix("relaxed: ")
    lines = [f"How to play it (best play for the objective {info['objective']}; solved {how}):"]
    by_slot: dict = {}
    for row in play_rows(result):
        by_slot.setdefault((row["slot"], row["attack"]), []).append(row)
    for (slot, attack), rows in by_slot.items():
        said = []
        for row in rows:
            if row["condition"] == "never":
                continue
            who = "target: " if row["who"] == result.target_name and row["decision"].startswith("spend") else ""
            cond = "" if row["condition"] == "always" else " " + row["condition"]
            said.append(f"{who}{row['decision']}{cond}")
        lines.append(f"  {slot}. {attack}: " + ("; ".join(said) if said else "spend nothing") + ".")
    lines.append("")
    return lines


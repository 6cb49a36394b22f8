"""Plain-text report of a scenario and its result (what ``mathhammer run`` prints).

Pure Python and NumPy only: no pandas or matplotlib, so the command line starts fast.
"""

from __future__ import annotations

import math

from .result import Result
from .rules import Scenario

__all__ = ["format_report"]

#: Distribution rows whose probability is below this are left out of the table.
_MIN_ROW_P = 5e-5
#: Longest distribution table before damage values are grouped into ranges.
_MAX_ROWS = 32


def _pct(p: float, digits: int = 2) -> str:
    return f"{100.0 * p:.{digits}f}%"


def _table(headers: list[str], rows: list[list[str]], align: str) -> list[str]:
    """Columns padded to their widest cell; ``align`` has one 'l' or 'r' per column."""
    widths = [len(h) for h in headers]
    for row in rows:
        widths = [max(w, len(c)) for w, c in zip(widths, row)]

    def line(cells):
        out = []
        for c, w, a in zip(cells, widths, align):
            out.append(c.ljust(w) if a == "l" else c.rjust(w))
        return "  " + "  ".join(out).rstrip()

    sep = "  " + "  ".join("-" * w for w in widths)
    return [line(headers), sep] + [line(r) for r in rows]


def _distribution_rows(result: Result) -> list[list[str]]:
    """Rows of the damage table: 0, the span of damage values that carry probability
    (grouped into ranges when long), and the disabling value ``boxes``."""
    pmf = result.damage_pmf
    at_least = result.damage_at_least
    boxes = pmf.size - 1

    def row(lo: int, hi: int) -> list[str]:
        label = str(lo) if lo == hi else f"{lo}-{hi}"
        if lo == boxes:
            label += " (disabled)"
        return [label, _pct(float(pmf[lo : hi + 1].sum())), _pct(float(at_least[lo]))]

    rows = [row(0, 0)]
    inner = [k for k in range(1, boxes) if pmf[k] >= _MIN_ROW_P]
    if inner:
        first, last = inner[0], inner[-1]
        width = max(1, math.ceil((last - first + 1) / (_MAX_ROWS - 2)))
        k = first
        while k <= last:
            end = min(k + width - 1, last)
            rows.append(row(k, end))
            k = end + 1
    if boxes > 0:
        rows.append(row(boxes, boxes))
    return rows


def _describe_scenario(scenario: Scenario) -> list[str]:
    t = scenario.target
    bits = [f"DEF {t.defense}", f"ARM {t.arm}", f"{t.boxes} box" + ("es" if t.boxes != 1 else ""),
            f"{t.base} base"]
    if t.resist:
        bits.append("resists " + ", ".join(sorted(t.resist)))
    if t.state:
        bits.append(", ".join(sorted(t.state)))
    lines = [f"Target:    {t.name} ({'; '.join(bits)})"]
    for i, a in enumerate(scenario.attackers):
        head = "Attackers: " if i == 0 else "           "
        weapons = []
        for w in a.weapons:
            skill = "MAT" if w.type == "melee" else "RAT"
            pow_ = "-" if w.pow is None else str(w.pow)
            desc = f"{w.name} x{w.attacks} ({w.type}, {skill} {w.skill}, POW {pow_}"
            extras = []
            if w.boosted_attack:
                extras.append("boosted attack")
            if w.boosted_damage:
                extras.append("boosted damage")
            if w.damage_type:
                extras.append("/".join(sorted(w.damage_type)))
            extras.extend(sorted(w.rules))
            if w.crippled:
                extras.append("crippled")
            if extras:
                desc += ", " + ", ".join(extras)
            weapons.append(desc + ")")
        lines.append(f"{head}{i + 1}. {a.name}: " + "; ".join(weapons))
    return lines


def format_report(scenario: Scenario, result: Result) -> str:
    """A readable plain-text report of ``result`` for ``scenario``.

    Shows the method, trials and seed; the kill probability and the expected damage with
    their 95% intervals; the distribution of damage marked (P(=k), P(>=k)); and one row per
    attack of the sequence (made, hit, critical hit, mean damage, kill probability after it).
    """
    lines = ["mathhammer report", "=================", ""]
    lines += _describe_scenario(scenario)
    lines.append("")
    if result.exact:
        lines.append("Method:    exact (enumeration; no sampling error)")
    else:
        lines.append(f"Method:    Monte Carlo, {result.trials:,} trials, seed {result.seed}")
    lines.append("")

    kill = result.kill
    lo, hi = result.kill_ci95
    dmean = result.damage_mean
    dlo, dhi = result.damage_mean_ci95
    if result.exact:
        lines.append(f"Kill probability: {_pct(kill)}")
        lines.append(f"Expected damage:  {dmean:.3f} points (sd {result.damage_sd:.3f})")
    else:
        lines.append(f"Kill probability: {_pct(kill)}  (95% CI {_pct(lo)} - {_pct(hi)})")
        lines.append(
            f"Expected damage:  {dmean:.3f} points  (95% CI {dlo:.3f} - {dhi:.3f}; sd {result.damage_sd:.3f})"
        )
    lines.append("")

    lines.append(f"Damage marked (target has {result.boxes} box{'es' if result.boxes != 1 else ''}):")
    lines += _table(["damage k", "P(=k)", "P(>=k)"], _distribution_rows(result), "lrr")
    lines.append("")

    lines.append("Attacks, in order:")
    rows = []
    for a in result.attacks:
        rows.append([
            str(a["attack"]),
            a["label"],
            _pct(a["made"], 1),
            _pct(a["hit"], 1),
            _pct(a["crit"], 1),
            f"{a['damage_mean']:.3f}",
            _pct(a["kill_after"], 1),
        ])
    lines += _table(["#", "attack", "made", "hit", "crit", "mean dmg", "kill after"], rows, "llrrrrr")
    lines.append("")
    lines.append("made: the target was still standing; hit and crit count attacks made and hitting;")
    lines.append("mean dmg: damage points the attack marked, averaged over all trials.")
    return "\n".join(lines) + "\n"

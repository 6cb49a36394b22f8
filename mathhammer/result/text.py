"""Plain-text report of a scenario and its result (what ``mathhammer run`` prints).

Pure Python and NumPy only: no pandas or matplotlib, so the command line starts fast.
"""

from __future__ import annotations

import math
import textwrap

from ..rules import Scenario
from ..rules.vocabulary import GRID_SYSTEM_NAMES, SPIRAL_ASPECT_NAMES
from .cardgrid import card_table
from .core import Result
from .optimizer import OptimizerReport
from .play import play_lines
from .texttable import text_table as _table

__all__ = ["format_report"]

#: Distribution rows whose probability is below this are left out of the table.
_MIN_ROW_P = 5e-5
#: Longest distribution table before damage values are grouped into ranges.
_MAX_ROWS = 32


def _pct(p: float, digits: int = 2) -> str:
    return f"{100.0 * p:.{digits}f}%"


def _distribution_rows(result: Result) -> list[list[str]]:
    """Rows of the damage table: 0, the span of damage values that carry probability
    (grouped into ranges when long), and the disabling value ``boxes``."""
    pmf = result.damage_pmf
    at_least = result.damage_at_least
    boxes = pmf.size - 1

    def row(lo: int, hi: int) -> list[str]:
        label = str(lo) if lo == hi else f"{lo}-{hi}"
        if lo == boxes:
            label += " (disabled)" if result.models == 1 else " (all destroyed)"
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
    if scenario.several:
        lines = [("Targets:   " if g == 0 else "           ") + f"{g + 1}. " + _describe_target(t)
                 for g, t in enumerate(scenario.targets)]
    else:
        lines = ["Target:    " + _describe_target(scenario.target)]
    return lines + _describe_attackers(scenario)


def _describe_target(t) -> str:
    """One target: its name, and its figures and rules in brackets."""
    size = f"{t.boxes} box" + ("es" if t.boxes != 1 else "")
    if t.capacity != "track":
        size = f"{'damage grid' if t.capacity == 'grid' else 'life spiral'} of {size}"
    if t.unit:
        size = f"unit of {t.models} models of {size} each"
    bits = [f"DEF {t.defense}", f"ARM {t.arm}", size, f"{t.base} base"]
    if t.resist:
        bits.append("resists " + ", ".join(sorted(t.resist)))
    if t.state:
        bits.append(", ".join(sorted(t.state)))
    if t.terrain:
        bits.append("in " + ", ".join(sorted(t.terrain)))
    if t.rules:
        bits.append(", ".join(sorted(t.rules)))
    if t.upkeep_rules:
        bits.append(", ".join(sorted(t.upkeep_rules)) + " (upkeep)")
    for key, bonus in (("shield", "Shield"), ("buckler", "Buckler")):
        if getattr(t, key):
            bits.append(f"{bonus} ({', '.join(getattr(t, key))})")
    for key, label in (("spell_def", "spell DEF"), ("upkeep_def", "upkeep DEF"),
                       ("spell_arm", "spell ARM"), ("upkeep_arm", "upkeep ARM"),
                       ("feat_def", "feat DEF"), ("feat_arm", "feat ARM")):
        if getattr(t, key):
            bits.append(f"+{getattr(t, key)} {label}")
    if t.focus or t.fury:
        kind = "focus" if t.focus else "fury"
        bits.append(f"{kind} {t.focus or t.fury} (power field: {t.power_field})")
    if t.rapid_healing:
        bits.append(f"Rapid Healing {t.rapid_healing}")
    return f"{t.name} ({'; '.join(bits)})"


def _describe_attackers(scenario: Scenario) -> list[str]:
    lines = []
    for i, a in enumerate(scenario.attackers):
        head = "Attackers: " if i == 0 else "           "
        weapons = []
        for w in a.weapons:
            skill = "MAT" if w.type == "melee" else "RAT"
            pow_ = "-" if w.pow is None else str(w.pow)
            count = w.attacks if a.power_weapon is None or w is a.power_weapon else 0  # a power attack's action
            desc = f"{w.name} x{count} ({w.type}, {skill} {w.skill}, POW {pow_}"
            extras = [f"{w.power_attack} power attack"] if w.power_attack else []
            if w.boosted_attack:
                extras.append("boosted attack")
            if w.boosted_damage:
                extras.append("boosted damage")
            if w.damage_type:
                extras.append("/".join(sorted(w.damage_type)))
            extras.extend(sorted(w.rules))
            if w.crippled:
                extras.append("crippled")
            if w.targets:
                extras.append("at " + ", then ".join(w.targets))
            if extras:
                desc += ", " + ", ".join(extras)
            weapons.append(desc + ")")
        lines.append(f"{head}{i + 1}. {a.name}: " + "; ".join(weapons))
        notes = []
        # points the card has that a crippled system takes away: said, not dropped silently
        if a.model == "warjack" and "C" in a.crippled and a.focus:
            notes.append(f"focus {a.focus}, none usable: its Cortex is crippled")
        if a.model == "warbeast" and "S" in a.crippled and a.force:
            notes.append(f"force {a.force}, none usable: its Spirit is crippled (it cannot be forced)")
        if a.points:
            policy = {"optimize": "optimized", "best": "best play"}.get(a.policy, a.spend.label)
            if a.keep_points:
                policy += ", keeping points before damage"
            paid = f", 1 more paid for the {a.power_weapon.power_attack}" if a.power_cost else ""
            notes.append(f"{a.resource} {a.points} ({policy}{paid})")
        if a.charge or a.cavalry:  # a cavalry model's charge attack roll is boosted too
            notes.append(("charging" + " (cavalry: its charge attack roll boosted too)" * a.cavalry) if a.charge else "cavalry")
        if a.targets:
            notes.append("attacks " + ", then ".join(a.targets))
        if a.models > 1:
            sizes = sorted(set(a.groups), reverse=True)
            notes.append(f"unit of {a.models}" + (
                "" if sizes == [1] else ": combined attacks of " + " and ".join(map(str, sizes))))
        elif a.combined_bonus:
            notes.append(f"combined attack of {a.combined} (+{a.combined_bonus})")
        if a.crippled:
            notes.append(f"{a.model} with crippled {', '.join(sorted(a.crippled))}")
        if notes:
            lines.append("              " + "; ".join(notes))
    return lines


def _unit_lines(result: Result) -> list[str]:
    """A unit as the target (or several targets): every model destroyed, models destroyed on
    average, and the table of k models destroyed."""
    n = result.models
    mean = result.models_destroyed_mean
    every = "Every target destroyed" if result.several else f"All {n} destroyed"
    if result.exact:
        lines = [f"{every}: {_pct(result.kill)}",
                 f"Models destroyed: {mean:.3f} of {n} on average (sd {result.models_destroyed_sd:.3f})"]
    else:
        lo, hi = result.kill_ci95
        mlo, mhi = result.models_destroyed_ci95
        lines = [f"{every}: {_pct(result.kill)}  (95% CI {_pct(lo)} - {_pct(hi)})",
                 f"Models destroyed: {mean:.3f} of {n} on average  (95% CI {mlo:.3f} - {mhi:.3f}; "
                 f"sd {result.models_destroyed_sd:.3f})"]
    if result.several:
        lines += ["", "Each target:"] + _table(
            ["target", "destroyed", "" if result.exact else "95% CI", "models destroyed", "damage"],
            [[name, _pct(f["kill"]), "" if result.exact else f"{_pct(f['kill_ci95'][0])} - "
              f"{_pct(f['kill_ci95'][1])}", f"{f['models_destroyed_mean']:.3f} of {f['models']}",
              f"{f['damage_mean']:.3f}"] for name, f in result.targets.items()], "lrrrr")
    lines += ["", f"Models destroyed (of {n}{' in all' if result.several else ''}):"]
    pmf, at_least = result.models_destroyed_pmf, result.models_destroyed_at_least
    rows = [[str(k) + (" (all)" if k == n else ""), _pct(float(pmf[k])), _pct(float(at_least[k]))]
            for k in range(n + 1)]
    lines += _table(["models k", "P(=k)", "P(>=k)"], rows, "lrr")
    lines.append("")
    return lines


def _card_lines(scenario: Scenario, result: Result) -> list[str]:
    """Cripple odds per system or aspect, and the card drawn with each box's mark odds."""
    t = scenario.card_target
    names = GRID_SYSTEM_NAMES if t.capacity == "grid" else SPIRAL_ASPECT_NAMES
    kind = "system" if t.capacity == "grid" else "aspect"
    lines = [f"Crippled at the end ({kind}s on the card):" if t.models == 1 else
             f"Crippled at the end, share of the {t.models} models ({kind}s on each card; a "
             "destroyed model counts as crippled):"]
    rows = []
    ci = result.cripple_ci95
    for x, p in result.cripple.items():
        lo, hi = ci[x]
        rows.append([x, names[x], _pct(p), "" if result.exact else f"{_pct(lo)} - {_pct(hi)}"])
    if rows:
        lines += _table(["", kind, "P", "" if result.exact else "95% CI"], rows, "llrr") + [""]
    else:  # a grid of hull boxes only
        lines = [f"No {kind} on the card: nothing to cripple.", ""]
    what = "column" if t.capacity == "grid" else "branch"
    lines.append(f"{'Probability' if t.models == 1 else 'Share of the models with'} each box "
                 f"{'is ' if t.models == 1 else ''}marked ({what}{'es' if what == 'branch' else 's'} 1-6 left to "
                 f"right, {'top' if t.capacity == 'grid' else 'outermost'} box first"
                 + ("; the left grid, then the right):" if t.colossal else "):"))
    lines += card_table(t, lambda c, r, x: f"{x} {100 * result.box_marked[c][r]:3.0f}%")
    return lines


def _round_lines(scenario: Scenario, result: Result) -> list[str]:
    """Kill by the end of each round, and what each continuous effect or hazard did."""
    lines = []
    if result.turns > 1:
        what = "every round" if scenario.attack_turns == "all" else "the first round only"
        lines.append(f"Rounds: {result.turns} (attacks in {what}); kill by the end of each round:")
        rows = []
        for r in result.turn_rows:
            lo, hi = r["kill_ci95"]
            rows.append([str(r["turn"]), _pct(r["kill"]),
                         "" if result.exact else f"{_pct(lo)} - {_pct(hi)}"])
        lines += _table(["round", "kill", "" if result.exact else "95% CI"], rows, "rrr")
        lines.append("")
    effects = result.effects
    if effects:
        unit = result.models > 1  # a unit: how many of its models carry the effect
        lines.append("Continuous effects and hazards (damage points: mean over all rounds; "
                     + ("models with it: mean, at the end of each round):" if unit
                        else "on the target: at the end of each round):"))
        rows = []
        for name, e in effects.items():
            on = ("-" if name == "quicksand"
                  else ", ".join(f"{p:.2f}" if unit else _pct(p, 1) for p in e["burning_after"]))
            rows.append([name, f"{e['damage_mean']:.3f}", _pct(sum(e["kill_by_turn"]), 2), on])
        lines += _table(["effect", "damage", "killed", "models with it by round" if unit
                         else "on the target by round"], rows, "lrrl")
        lines.append("")
    return lines


def _optimizer_lines(info: OptimizerReport) -> list[str]:
    objective = info.objective
    what = {"kill": "kill probability", "damage": "expected damage",
            "destroyed": "expected models destroyed"}.get(
        objective, f"the probability {objective.split(':')[-1]} ends crippled")
    lines = [f"Spending policy optimized for {what} ({info.policies_tried} policies tried, "
             f"{info.distinct_policies} behaving differently; attackers: "
             f"{', '.join(info.attackers)}):"]
    for tag, c in (("chosen", info.chosen), ("runner_up", info.runner_up)):
        if c is None:
            continue
        lo, hi = c.score_ci95
        pct = objective not in ("damage", "destroyed")
        fig = _pct(c.score) if pct else f"{c.score:.3f}"
        if hi > lo:  # Monte Carlo: an interval; exact: a point
            fig += f" (95% CI {_pct(lo)} - {_pct(hi)})" if pct else f" (95% CI {lo:.3f} - {hi:.3f})"
        lines.append(f"  {'chosen' if tag == 'chosen' else 'runner-up'}: {c.label}: {fig}")
    if info.adaptive_best is not None:
        best = info.adaptive_best
        fig = f"{best:.3f}" if objective in ("damage", "destroyed") else _pct(best)
        lines.append(f"  best adaptive play (backward induction, every decision on the state): {fig}")
    return lines


def _made_note(scenario: Scenario, result: Result) -> list[str]:
    """What the "made" column counts, for the kinds of attack the sequence has."""
    attackers = scenario.attackers
    standing = "while one of its targets stood" if result.several else "while the target stood"
    kinds = [(any(a.max_bought or any(n for _, n in a.reloads) for a in attackers), "a bought attack when it was bought"),
             (any(n for a in attackers for _, n in a.casts), "a spell's cast when it was cast"),
             (any(isinstance(w.attacks, str) for a in attackers for w in a.weapons),
              "a shot of a random rate of fire when the roll gave it")]
    when = [f"made: how often the attack was made: {standing}"] + [words for has, words in kinds if has]
    text = ", ".join(when) + ("; made against: how often it was made against each target;" if result.several
                              else ";")
    return textwrap.wrap(text, 92)


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
    if result.models > 1:
        lines += _unit_lines(result)
    elif result.exact:
        lines.append(f"Kill probability: {_pct(kill)}")
        lines.append(f"Expected damage:  {dmean:.3f} points (sd {result.damage_sd:.3f})")
    else:
        lines.append(f"Kill probability: {_pct(kill)}  (95% CI {_pct(lo)} - {_pct(hi)})")
        lines.append(
            f"Expected damage:  {dmean:.3f} points  (95% CI {dlo:.3f} - {dhi:.3f}; sd {result.damage_sd:.3f})"
        )
    lines.append("")

    if result.models == 1:
        lines.append(f"Damage marked (target has {result.boxes} box{'es' if result.boxes != 1 else ''}):")
    if result.models == 1 or result.boxes > result.models:  # one-box models: the table above
        if result.models > 1:
            where = "every target" if result.several else "the unit"
            lines.append(f"Damage marked on {where} ({result.boxes} boxes in all):")
        lines += _table(["damage k", "P(=k)", "P(>=k)"], _distribution_rows(result), "lrr")
        lines.append("")

    if result.card is not None or scenario.card_target.card is not None:
        lines += _card_lines(scenario, result)
        lines.append("")

    lines += _round_lines(scenario, result)

    if result.optimizer is not None:
        lines += _optimizer_lines(result.optimizer)
        lines.append("")

    lines += play_lines(result)

    spends = any(a.points for a in scenario.attackers)
    defends = bool(scenario.target.power_points)
    tough = bool(scenario.target.rules & {"tough", "tough_steady"})
    lines.append("Attacks, in order:")
    headers = ["#", "attack", "made", "hit", "crit", "mean dmg", "kill after"]
    if spends:
        headers += ["boost att", "boost dmg", "spent"]
    if defends:
        headers += ["target spent"]
    if tough:
        headers += ["tough saves"]
    shreds = bool(result.shred_mean.any())
    headers += ["shred attacks"] if shreds else []  # Shred's (their damage is in "mean dmg")
    unit = result.models > 1
    if unit:
        headers += ["destroyed after"]
    if result.several:
        headers += ["made against"]
    rows = []
    for a in result.attacks:
        row = [
            str(a["attack"]),
            a["label"],
            _pct(a["made"], 1),
            _pct(a["hit"], 1),
            _pct(a["crit"], 1),
            f"{a['damage_mean']:.3f}",
            _pct(a["kill_after"], 1),
        ]
        if spends:
            row += [_pct(a["boost_attack"], 1), _pct(a["boost_damage"], 1), f"{a['spent_mean']:.3f}"]
        if defends:
            row += [f"{a['target_spent_mean']:.3f}"]
        if tough:
            row += [_pct(a["tough_saves"], 1)]
        row += [f"{a['shred_mean']:.3f}"] if shreds else []
        if unit:
            row += [f"{a['destroyed_mean_after']:.3f}"]
        if result.several:
            row += [", ".join(f"{name} {_pct(p, 0)}" for name, p in a["made_against"].items()
                              if p >= 0.005) or "-"]
        rows.append(row)
    align = "ll" + "r" * (len(headers) - 2)
    lines += _table(headers, rows, align[:-1] + "l" if result.several else align)
    lines.append("")
    lines += _made_note(scenario, result)
    lines.append("hit and crit count attacks made and hitting;")
    lines.append("mean dmg: damage points the attack marked, averaged over all trials.")
    lines += ["shred attacks: the Shred attacks it led to (their damage is in mean dmg)."] if shreds else []
    if unit:
        lines.append("kill after: every model destroyed once it is resolved; destroyed after: models")
        lines.append("destroyed on average by then.")
    if spends:
        lines.append("boost att / boost dmg: how often a point paid for that boost; spent: mean points")
        lines.append("paid for the attack (buying it and its boosts).")
        lines.append("")
        lines.append("Points spent on average: " + "; ".join(
            f"{name} {v:.3f}" for name, v in result.spent_by_attacker.items()
            if any(a.name == name and a.points for a in scenario.attackers)))
    away = " ({:.3f} of it against fire, corrosion or quicksand)"
    if defends:
        lines.append(f"Target {scenario.target.power_kind} spent on average: {result.target_spent_total:.3f}"
                     + (away.format(result.effects_target_spent) if result.effects_target_spent else ""))
    if tough:
        lines.append(f"Tough saves on average: {result.tough_saves_total:.3f}"
                     + (away.format(result.effects_tough_saves) if result.effects_tough_saves else ""))
    return "\n".join(lines) + "\n"

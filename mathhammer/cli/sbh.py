"""``mathhammer sbh ...``: Song of Blades and Heroes odds (docs/sbh.md).

Subcommands: ``activation`` (one roll), ``shoot`` (concentrated shooting), ``group`` (a group
order against one-at-a-time activation), ``turn`` (a whole turn, exact or Monte Carlo) and
``best-dice`` (dice per model maximising a one-at-a-time turn). ``--json`` prints one JSON
object; for ``activation`` and ``shoot`` its keys are a contract:

- ``activation --json``: ``{"actions": [p0, ..., pD], "turnover": p}``;
- ``shoot --json``: ``{"nothing": p, "beaten": p, "killed": p, "gruesome": p,
  "lose_shooter": p}``.

Import-light: the SBH modules are imported by the handlers, and only ``turn`` with the Monte
Carlo method loads the Numba kernel.
"""

from __future__ import annotations

import argparse
import json
import math
import re

from .._core.numbers import INTEGER_TEXT, read_int
from ..errors import cut, shown
from ._common import EXIT_OK, UsageError, add_trials_seed, int_arg, write

_STEP_HELP = ("a solo activation Q:D (Quality, dice; e.g. 4:2) or a Leader's group order "
              "LQ:LD>Q,Q,...:D (Leader's Quality and dice, then the members' Qualities and "
              "the group's dice; e.g. 3:1>4,4,5:3)")
# a number of a step is an integer as every number typed is (numbers.read_int: a sign, "_"
# between digits), so that "4_0:2" is refused as a Quality of 40, not as a bad shape
_N = f"({INTEGER_TEXT})"
_SOLO = re.compile(rf"^\s*{_N}\s*:\s*{_N}\s*$", re.ASCII)
_GROUP = re.compile(rf"^\s*{_N}\s*:\s*{_N}\s*>\s*([0-9_+\-,\s]+?)\s*:\s*{_N}\s*$", re.ASCII)


def _qualities(text: str) -> list[int]:
    """argparse type: a comma-separated list of Qualities (2..6)."""
    parse = int_arg("quality", 2, 6)
    parts = text.split(",")
    if any(not t.strip() for t in parts):
        raise argparse.ArgumentTypeError(f"must be Qualities separated by commas (got {shown(text)})")
    try:
        return [parse(t) for t in parts]
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"{exc} in {shown(text)}") from None


def add_parsers(sub) -> None:
    sbh = sub.add_parser("sbh", help="Song of Blades and Heroes: activation, groups, shooting",
                         description="Song of Blades and Heroes odds (docs/rules.md section 8, "
                         "docs/sbh.md).")
    cmds = sbh.add_subparsers(dest="sbh_command", metavar="SBH_COMMAND", title="subcommands")
    cmds.required = True

    act = cmds.add_parser("activation", help="odds of one activation roll",
                          description="Distribution of actions and turnover risk of one "
                          "activation roll: DICE d6 against Quality Q+.")
    act.add_argument("--quality", type=int_arg("quality", 2, 6), required=True, metavar="Q",
                     help="Quality, 2 to 6 (Q+)")
    act.add_argument("--dice", type=int_arg("dice", 1, 3), required=True, metavar="D",
                     help="dice rolled, 1 to 3")
    act.add_argument("--bonus", type=int_arg("bonus", -3, 3), default=0, metavar="B",
                     help="added to each die, -3 to 3 (e.g. a Leader's +1)")
    _natural_flags(act)
    _json_flag(act)
    act.set_defaults(handler=activation_command)

    sh = cmds.add_parser("shoot", help="odds of a concentrated shot",
                         description="Concentrated shooting: one opposed roll, 1d6 + the "
                         "lowest combat score (+ modifier) against 1d6 + the target's combat "
                         "score - (shooters - 1).")
    sh.add_argument("--shooters", type=int_arg("shooters", 1, 5), required=True, metavar="N",
                    help="shooters, 1 to 5")
    sh.add_argument("--combat", type=int_arg("combat", 0, 12), required=True, metavar="C",
                    help="lowest combat score among the shooters, 0 to 12")
    sh.add_argument("--target-combat", type=int_arg("target-combat", 0, 12), required=True,
                    metavar="T", help="the target's combat score, 0 to 12")
    sh.add_argument("--modifier", type=int_arg("modifier", -10, 10), default=0, metavar="M",
                    help="added to the shooters' total, e.g. +1 against a Big target")
    sh.add_argument("--ordinary", action="store_true",
                    help="an ordinary shot of one model, not a concentrated shot: no "
                    "1-then-1 check (needs --shooters 1)")
    floor = sh.add_mutually_exclusive_group()
    # default None (read as 1): a given value equal to the default would let argparse take
    # --total-floor 1 --raw-totals together
    floor.add_argument("--total-floor", type=int_arg("total-floor", -10, 10), default=None,
                       metavar="F", help="totals below F count as F (default 1)")
    floor.add_argument("--raw-totals", action="store_true", help="compare raw totals")
    _json_flag(sh)
    sh.set_defaults(handler=shoot_command)

    grp = cmds.add_parser("group", help="a group order against one-at-a-time activation",
                          description="Exact comparison of a Leader's group order with the "
                          "same models activated one at a time.")
    grp.add_argument("--leader-quality", type=int_arg("leader-quality", 2, 6), required=True,
                     metavar="Q", help="the Leader's Quality")
    grp.add_argument("--leader-dice", type=int_arg("leader-dice", 1, 3), default=1,
                     metavar="D", help="dice of the Leader's own roll (default 1)")
    grp.add_argument("--qualities", type=_qualities, required=True, metavar="Q,Q,...",
                     help="the members' Qualities (2-5 members, 10 with --large-groups)")
    grp.add_argument("--dice", type=int_arg("dice", 1, 3), required=True, metavar="D",
                     help="dice of the group's roll (and of each member on its own)")
    _settings_flags(grp)
    _json_flag(grp)
    grp.set_defaults(handler=group_command)

    turn = cmds.add_parser("turn", help="a whole turn, until the first turnover",
                           description="Distribution of a whole turn: the steps in order, "
                           "until the first turnover.")
    turn.add_argument("steps", nargs="+", metavar="STEP", help=_STEP_HELP)
    turn.add_argument("--method", choices=("exact", "monte_carlo", "mc"), default="exact",
                      help="exact (default) or monte_carlo")
    add_trials_seed(turn, "Monte Carlo sample size (default 1,000,000)",
                    "Monte Carlo seed (default: drawn and reported)")
    _settings_flags(turn)
    _json_flag(turn)
    turn.set_defaults(handler=turn_command)

    best = cmds.add_parser("best-dice", help="dice per model maximising a one-at-a-time turn",
                           description="Dice per model (in activation order) maximising the "
                           "expected actions (or models acting) of a one-at-a-time turn.")
    best.add_argument("--qualities", type=_qualities, required=True, metavar="Q,Q,...",
                      help="the models' Qualities in activation order")
    best.add_argument("--objective", choices=("actions", "acted"), default="actions",
                      help="expected actions (default) or expected models acting")
    _json_flag(best)
    best.set_defaults(handler=best_dice_command)


def _json_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _natural_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-natural-one", action="store_true",
                   help="a die showing 1 may succeed with a bonus (default: 1 always fails)")
    p.add_argument("--no-natural-six", action="store_true",
                   help="a die showing 6 may fail with a penalty (default: 6 always succeeds)")


def _settings_flags(p: argparse.ArgumentParser) -> None:
    # default None (read as 1): a --leader-bonus given where no group order is is refused
    p.add_argument("--leader-bonus", type=int_arg("leader-bonus", -3, 3), default=None,
                   metavar="B", help="added to each die of a group's roll (default 1)")
    p.add_argument("--large-groups", action="store_true",
                   help="optional rule: groups of up to 10 models")
    _natural_flags(p)


def _settings(args: argparse.Namespace):
    from ..sbh import Settings

    kw = {}
    if hasattr(args, "leader_bonus"):
        kw["leader_bonus"] = 1 if args.leader_bonus is None else args.leader_bonus
        kw["large_groups"] = args.large_groups
    if hasattr(args, "no_natural_one"):
        kw["natural_one_fails"] = not args.no_natural_one
        kw["natural_six_succeeds"] = not args.no_natural_six
    if hasattr(args, "raw_totals"):
        kw["total_floor"] = None if args.raw_totals else (1 if args.total_floor is None else args.total_floor)
    return Settings(**kw)


# --------------------------------------------------------------- flags that cannot act
#: The natural 1 / 6 flags: what each does, when it can change a roll of Quality Q, bonus B.
_NATURALS = (("no_natural_one", "--no-natural-one", "lets a die showing 1 succeed with a bonus",
              lambda q, b: q - b <= 1, "Quality minus bonus of 1 or less (e.g. Q2+ with +1)"),
             ("no_natural_six", "--no-natural-six", "lets a die showing 6 fail with a penalty",
              lambda q, b: q - b >= 7, "Quality minus bonus of 7 or more (e.g. Q6+ with -1)"))


def _rolls_text(rolls) -> str:
    return ", ".join(f"Q{q}+ {b:+d}" for q, b in sorted(set(rolls)))


def _check_naturals(args: argparse.Namespace, rolls) -> None:
    """Refuse ``--no-natural-one`` / ``--no-natural-six`` where no roll of the command
    (``(Quality, bonus)`` pairs) is one they can change, rather than print the same odds."""
    for dest, flag, does, acts, when in _NATURALS:
        if getattr(args, dest, False) and not any(acts(q, b) for q, b in rolls):
            raise UsageError(f"{flag}: {does}, which matters only on a roll of {when}; the "
                             f"rolls here are {_rolls_text(rolls)}: it would change nothing")


def _check_group_flags(args: argparse.Namespace, groups: list[int], where: str) -> None:
    """Refuse ``--leader-bonus`` without a group order (``groups``: the members of each
    group order of the command) and ``--large-groups`` without a group of over 5 members."""
    from ..sbh.rules import MAX_GROUP, MAX_LARGE_GROUP

    if args.leader_bonus is not None and not groups:
        raise UsageError(f"--leader-bonus: adds to the dice of a Leader's group order; {where} "
                         "has none (a group step is LQ:LD>Q,Q,...:D): it would change nothing")
    if args.large_groups and not any(n > MAX_GROUP for n in groups):
        most = f"the largest group here has {max(groups)}" if groups else f"{where} has no group order"
        raise UsageError(f"--large-groups: allows groups of {MAX_GROUP + 1} to {MAX_LARGE_GROUP} members; "
                         f"{most}: it would change nothing")


def _check_floor(args: argparse.Namespace) -> None:
    """Refuse ``--raw-totals`` / ``--total-floor F`` where no total of the shot can be below
    the floor they change (1, or F), rather than print the same odds."""
    if not args.raw_totals and args.total_floor is None:
        return
    shooters = 1 + args.combat + args.modifier  # the lowest totals: a die showing 1
    target = 1 + args.target_combat - (args.shooters - 1)
    below = 1 if args.raw_totals else max(args.total_floor, 1)
    if min(shooters, target) < below:
        return
    flag, does = (("--raw-totals", "compares the totals without raising those below 1 to 1")
                  if args.raw_totals else
                  ("--total-floor", f"raises totals below {args.total_floor} to "
                   f"{args.total_floor} (instead of below 1 to 1)"))
    raise UsageError(f"{flag}: {does}; the lowest totals here are {shooters} (shooters) and "
                     f"{target} (target), none below {below}: it would change nothing")


def _pct(p) -> str:
    return f"{float(p):7.2%}"


def activation_command(args: argparse.Namespace) -> int:
    from ..sbh import activation

    _check_naturals(args, [(args.quality, args.bonus)])
    odds = activation(args.quality, args.dice, args.bonus, _settings(args))
    if args.json:
        write(json.dumps(odds.to_dict()))
        return EXIT_OK
    lines = [(f"Activation: {args.dice} {'die' if args.dice == 1 else 'dice'} against "
              f"Q{args.quality}+ (bonus {args.bonus:+d})"), "actions  probability  turnover"]
    for k, p in enumerate(odds.actions):
        lines.append(f"{k:7d}  {_pct(p):>11}  {'yes' if args.dice - k >= 2 else 'no'}")
    lines.append(f"expected actions {float(odds.expected_actions):.3f}; at least one action "
                 f"{_pct(odds.at_least_one).strip()}; turnover {_pct(odds.turnover).strip()}")
    write("\n".join(lines))
    return EXIT_OK


def shoot_command(args: argparse.Namespace) -> int:
    from ..sbh import shoot

    if args.ordinary and args.shooters != 1:
        raise UsageError(f"argument --ordinary: an ordinary shot has 1 shooter "
                         f"(got --shooters {args.shooters})")
    _check_floor(args)
    odds = shoot(args.shooters, args.combat, args.target_combat, args.modifier,
                 _settings(args), concentrated=not args.ordinary)
    if args.json:
        write(json.dumps(odds.to_dict()))
        return EXIT_OK
    n = args.shooters
    lines = [
        (f"{'Ordinary shot' if args.ordinary else 'Concentrated shooting'}: {n} "
        f"shooter{'s' if n > 1 else ''}, 1d6 + {args.combat} {args.modifier:+d} against "
        f"1d6 + {args.target_combat} - {n - 1}"),
        f"nothing   {_pct(odds.nothing)}",
        f"beaten    {_pct(odds.beaten)}",
        f"killed    {_pct(odds.killed)}",
        f"gruesome  {_pct(odds.gruesome)}",
        (f"killed or gruesome {_pct(odds.kill_or_better).strip()}; a shooter loses its "
        f"ability to shoot {_pct(odds.lose_shooter).strip()}"),
    ]
    write("\n".join(lines))
    return EXIT_OK


def group_command(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..sbh import Group, Model, Solo, Turn, turn_odds

    settings = _settings(args)
    leader = Model(args.leader_quality, name="Leader", leader=True)
    members = [Model(q) for q in args.qualities]
    if not 2 <= len(members) <= settings.max_group:
        hint = "" if settings.large_groups else " (10 with --large-groups)"
        raise InputError("--qualities", ",".join(map(str, args.qualities)),
                         f"must give 2 to {settings.max_group} members{hint}")
    _check_group_flags(args, [len(members)], "this command")
    q = max(args.qualities)
    _check_naturals(args, [(args.leader_quality, 0), (q, settings.leader_bonus)]
                    + [(m, 0) for m in args.qualities])
    plans = {
        "individual": Turn([Solo(leader, args.leader_dice)]
                           + [Solo(m, args.dice) for m in members], settings),
        "group": Turn([Group(leader, members, args.dice, args.leader_dice)], settings),
    }
    out = {}
    for name, plan in plans.items():
        res = turn_odds(plan)
        fig = {"expected_actions": res.expected_actions, "expected_acted": res.expected_acted,
               "all_act": res.all_act, "turnover": res.turnover}
        if name == "group":
            fig["order"] = float(res.order[0])
        out[name] = fig
    if args.json:
        write(json.dumps(out))
        return EXIT_OK
    lines = [(f"Leader Q{args.leader_quality}+ ({args.leader_dice}d) and {len(members)} members "
             f"({','.join(map(str, args.qualities))}), {args.dice} dice each; the group rolls "
             f"at Q{q}+ with {settings.leader_bonus:+d}"),
             (f"{'':12}{'expected actions':>17}{'models acting':>15}{'all act':>10}"
             f"{'turnover':>10}{'order':>10}")]
    for name, fig in out.items():
        order = _pct(fig["order"]) if "order" in fig else "-"
        lines.append(f"{name:12}{fig['expected_actions']:17.3f}{fig['expected_acted']:15.3f}"
                     f"{_pct(fig['all_act']):>10}{_pct(fig['turnover']):>10}{order:>10}")
    write("\n".join(lines))
    return EXIT_OK


def parse_step(text: str, index: int):
    """A STEP argument of ``sbh turn`` as a Solo or Group step (InputError naming it)."""
    from ..errors import InputError
    from ..sbh import Group, Model, Solo

    key = f"STEP {index + 1}"
    try:
        m = _SOLO.match(text)
        if m:
            return Solo(Model(read_int("quality", m.group(1))), read_int("dice", m.group(2)))
        m = _GROUP.match(text)
        if m:
            qualities = [t.strip() for t in m.group(3).split(",")]
            if any(not t for t in qualities):
                raise InputError("members", m.group(3), "must be Qualities separated by commas")
            return Group(Model(read_int("leader quality", m.group(1)), name="Leader", leader=True),
                         [Model(read_int("quality", q)) for q in qualities], read_int("dice", m.group(4)),
                         read_int("leader dice", m.group(2)))
    except InputError as exc:
        raise InputError(f"{key} ({cut(text.strip())})", exc.value, f"{exc.key} {exc.reason}") from None
    raise InputError(key, text, "must look like Q:D or LQ:LD>Q,Q,...:D")


def turn_command(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..sbh import Group, Solo, Turn, simulate_turn

    settings = _settings(args)
    steps = [parse_step(t, i) for i, t in enumerate(args.steps)]
    try:
        plan = Turn(steps, settings)
    except InputError as exc:
        m = re.match(r"steps\[(\d+)\](.*)", exc.key)
        if m:
            i = int(m.group(1))
            raise InputError(f"STEP {i + 1} ({cut(args.steps[i].strip())})", exc.value,
                             f"{m.group(2).lstrip('.')} {exc.reason}") from None
        raise
    groups = [s for s in steps if isinstance(s, Group)]
    _check_group_flags(args, [len(s.members) for s in groups], "this turn")
    _check_naturals(args, [(s.model.quality, s.bonus) for s in steps if isinstance(s, Solo)]
                    + [(s.leader.quality, 0) for s in groups]
                    + [(s.quality, settings.leader_bonus) for s in groups])
    method = "monte_carlo" if args.method == "mc" else args.method
    if method == "exact" and (args.trials is not None or args.seed is not None):
        raise UsageError("argument --trials/--seed: only with --method monte_carlo")
    res = simulate_turn(plan, trials=args.trials, seed=args.seed, method=method)
    if args.json:
        write(json.dumps(res.to_dict()))
        return EXIT_OK
    head = "exact" if res.exact else f"Monte Carlo, {res.trials:,} trials, seed {res.seed}"
    lines = [f"Turn of {len(plan.steps)} steps, {res.n_models} models ({head})"]
    lines.append(f"expected actions {res.expected_actions:.3f}; models acting "
                 f"{res.expected_acted:.3f} of {res.n_models}; all act {_pct(res.all_act).strip()};"
                 f" turnover {_pct(res.turnover).strip()}")
    lines.append(f"{'step':48}{'reached':>9}{'order':>9}")
    for label, r, o in zip(res.step_labels, res.reached, res.order):
        order = "-" if math.isnan(o) else _pct(o)
        lines.append(f"{label[:47]:48}{_pct(r):>9}{order:>9}")
    lines.append("actions  probability")
    for a, p in enumerate(res.actions_pmf):
        if p > 0:
            lines.append(f"{a:7d}  {_pct(p):>11}")
    write("\n".join(lines))
    return EXIT_OK


def best_dice_command(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..sbh import best_dice

    try:
        best = best_dice(args.qualities, args.objective)
    except InputError as exc:  # the models are the --qualities given
        if exc.key != "models":
            raise
        raise InputError("--qualities", ",".join(map(str, args.qualities)), exc.reason) from None
    if args.json:
        write(json.dumps({"dice": list(best.dice), "value": best.value,
                          "objective": best.objective}))
        return EXIT_OK
    what = "expected actions" if best.objective == "actions" else "expected models acting"
    pairs = " ".join(f"Q{q}+:{d}" for q, d in zip(args.qualities, best.dice))
    write(f"dice per model: {pairs}\n{what}: {best.value:.3f}")
    return EXIT_OK

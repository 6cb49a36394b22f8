"""Best play in a player's words: each decision table summed up as one rule.

For each attack and decision (buy it, boost its attack roll, boost the damage roll of a hit
or of a critical hit, the target's power field), the table entries the game meets are
weighed by how often it meets them (the reach of :func:`~mathhammer.play.solve.solve`), and
the simplest rule that says the same is looked for: always, never, or a threshold on one
figure the player sees at the table (boxes left on the target, points left, the target's
points left; for the power field, the damage rolled and how far it goes past the boxes
left), or two such thresholds together. The rule's agreement with the table, weighted the same way, is reported with it; a
decision no such rule captures says "mostly", gives the closest one and how often it agrees.
"""

from __future__ import annotations

import numpy as np

from . import codes as K

__all__ = ["decisions", "paid_by", "threshold_rule", "AGREEMENT", "BUY_WORDS"]

#: A rule is reported as the decision when it agrees with the table this often (weighted).
AGREEMENT = 0.995
#: Two-threshold rules are looked for among the best this many single thresholds.
PAIRED = 24

#: What a player does to make an attack that is paid for, by what pays: a warbeast is forced,
#: a spell cast, a ranged weapon reloaded, a warjack's (or a warcaster's) attack bought.
BUY_WORDS = {"spell": "cast it", "reload": "reload for this attack", "force": "force this additional attack",
             "buy": "buy this attack"}

_ATTACKER = (
    ("buy", None, K.BUY, K.KNOWN_BUY),
    ("boost_attack", "boost the attack roll", K.BOOST_ATTACK, K.KNOWN_ATTACK),
    ("boost_damage_hit", "boost the damage roll of a hit", K.BOOST_DAMAGE_HIT, K.KNOWN_DAMAGE_HIT),
    ("boost_damage_crit", "boost the damage roll of a critical hit", K.BOOST_DAMAGE_CRIT,
     K.KNOWN_DAMAGE_CRIT),
)


def _rule(features: dict, decision: np.ndarray, weight: np.ndarray) -> tuple[str, float]:
    """The simplest rule for ``decision`` (0/1 per entry) weighed by ``weight``: always,
    never, one threshold, or two joined by "and"; its words and its weighted agreement."""
    share = float(weight[decision == 1].sum() / weight.sum())
    if share >= AGREEMENT:
        return "always", share
    if share <= 1 - AGREEMENT:
        return "never", 1 - share
    best = threshold_rule(features, decision, weight)
    if best[0] is None:
        return f"mostly {'always' if share >= 0.5 else 'never'} ({best[1]:.0%})", best[1]
    words = "when " + " and ".join(_words(*rule) for rule in best[0])
    if best[1] >= AGREEMENT:
        return words, best[1]
    return f"mostly {words} ({best[1]:.0%})", best[1]


def threshold_rule(features: dict, decision: np.ndarray, weight: np.ndarray) -> tuple[tuple | None, float]:
    """The threshold rule that agrees best with ``decision`` (0/1 per entry) weighed by
    ``weight``: one threshold ``(feature, "<=" or ">=", value)`` on a feature's values (the
    first 40 distinct), or where none agrees with :data:`AGREEMENT`, two on different
    features that must both hold (among the :data:`PAIRED` best single ones), and its
    weighted agreement; ``(None, agreement)`` where none beats the plain majority (the
    share of the commoner decision). A rule that holds everywhere or nowhere says nothing
    and is not offered. Rules that agree alike (within 1e-12, float noise) are taken in
    the order they are listed: features in order, thresholds rising, "<=" before ">=".

    >>> import numpy as np
    >>> boxes = np.array([1, 2, 3, 4, 5, 6])
    >>> threshold_rule({"boxes": boxes}, (boxes <= 3).astype(int), np.ones(6))
    ((('boxes', '<=', 3),), 1.0)
    """
    total = weight.sum()
    yes = decision == 1
    share = weight[yes].sum() / total
    rules, preds, feature = [], [], []
    for f, (name, values) in enumerate(features.items()):
        t = _distinct(values)[:40]
        # per threshold, "<=" then ">=": [thresholds, 2, entries]
        pred = np.empty((t.size, 2, values.size), dtype=bool)
        np.less_equal(values, t[:, None], out=pred[:, 0])
        np.greater_equal(values, t[:, None], out=pred[:, 1])
        preds.append(pred.reshape(2 * t.size, -1))
        rules += [(name, op, v) for v in t.tolist() for op in ("<=", ">=")]
        feature += [f] * (2 * t.size)
    # every threshold at once: it agrees where it holds on a "yes" and fails on a "no", so its
    # agreement is the weight of the "no"s plus, where it holds, the weight signed by the
    # decision; it says something where it holds somewhere, not everywhere
    held = np.concatenate(preds).astype(np.float64)
    signed = np.where(yes, weight, -weight)
    no = weight[~yes].sum()
    n = yes.size
    scores = (no + held @ signed) / total
    counts = held.sum(axis=1)
    # no threshold beats the plain "mostly always" / "mostly never" unless it says more
    best = (None, float(max(share, 1 - share)))
    at = _first_best(scores, (counts > 0) & (counts < n), best[1])
    if at is not None:
        best = ((rules[at],), float(scores[at]))
    if best[1] < AGREEMENT:
        # pairs of the best single thresholds only (the pairs of all of them grow as a square);
        # thresholds that agree alike (to float noise) in the order they were listed
        top = np.argsort(-np.round(scores, 12), kind="stable")[:PAIRED]
        both = held[top]
        # a pair holds where both do: the same sums over the entries where both hold
        agrees = ((no + (both * signed) @ both.T) / total).ravel()
        counts = (both @ both.T).ravel()
        on = np.array(feature)[top]
        k = top.size
        later = (np.arange(k)[:, None] < np.arange(k)) & (on[:, None] != on)
        at = _first_best(agrees, later.ravel() & (counts > 0) & (counts < n), best[1])
        if at is not None:
            best = ((rules[top[at // k]], rules[top[at % k]]), float(agrees[at]))
    return best


def _distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values of an integer array, rising (``np.unique``, by a count over the
    span of the values where that is short: the features are small counts).

    >>> _distinct(np.array([3, -2, 3, 7])).tolist()
    [-2, 3, 7]
    """
    if values.size == 0 or values.dtype.kind not in "iu":
        return np.unique(values)
    lo = int(values.min())
    span = int(values.max()) - lo + 1
    if span > 4 * values.size + 64:
        return np.unique(values)
    return np.flatnonzero(np.bincount(values - lo, minlength=span)) + lo


def _first_best(agree: np.ndarray, valid: np.ndarray, floor: float) -> int | None:
    """The first valid rule whose agreement is the best to float noise (within 1e-12), if
    that beats ``floor`` by more than the noise; None otherwise."""
    score = np.where(valid, agree, -np.inf)
    top = score.max(initial=-np.inf)
    if not top > floor + 1e-12:
        return None
    return int(np.argmax((score >= top - 1e-12) & (score > floor + 1e-12)))


def _words(name: str, op: str, t: int) -> str:
    """One threshold in a player's words."""
    if name == "margin":  # damage rolled less the boxes left: >= 0 disables
        if op == ">=":
            return "it would disable the target" if t == 0 else (
                f"it is {t} or more past disabling the target" if t > 0
                else f"it would leave the target {-t} or fewer boxes")
        return "it would not disable the target" if t == -1 else (
            f"it would leave the target {-t} or more boxes" if t < 0 else f"it is at most {t} past disabling")
    if name == "damage":
        return f"the damage rolled is {t} or more" if op == ">=" else f"the damage rolled is {t} or less"
    if name == "critical":  # 0 or 1
        return "it is a critical hit" if op == ">=" else "it is not a critical hit"
    what = {"boxes": "boxes left", "points": "{res} left", "target": "target points left",
            "blocks": "blocks left"}[name]
    if op == "<=":
        amount = "no" if t == 0 else f"{t} or fewer"
    else:
        amount = f"{t} or more"
    if name == "target" and op == "<=" and t == 0:
        return "the target has no points left"
    return f"{amount} {what}"


def decisions(table, scenario, labels, resource_of, paid_by) -> list[dict]:
    """Rows of the "how to play it" table: one per attack and decision met.

    Parameters
    ----------
    table : DecisionTable
        With its ``reach`` (from :func:`~mathhammer.play.solve.solve`).
    scenario : Scenario
    labels : sequence of str
        Label of each attack row.
    resource_of : sequence of str
        Per attack row, the points its attacker spends (``"focus"``, ``"fury"``, ``"force"``).
    paid_by : sequence of str
        Per attack row of a paid attack, how a player makes it (a key of :data:`BUY_WORDS`;
        :func:`paid_by` tells it).

    Returns
    -------
    list of dict
        ``slot`` (row), ``attack`` (label), ``who`` (attacker or target), ``kind`` (``"buy"``,
        ``"weapon"``, ``"boost_attack"``, ``"boost_damage_hit"``, ``"boost_damage_crit"``,
        ``"boost_damage"`` (both alike), ``"field"``, ``"block"``: Shield Guard's), ``decision``
        (in a player's words),
        ``weapon`` (a bought attack's other weapon whose boosts these are, else None),
        ``condition``, ``agreement`` (weighted, 0..1).
    """
    ks = table.keys
    reach = table.reach
    out = []
    if reach is None:
        return out
    keys = np.arange(ks.size)
    points = keys % ks.points
    digit = (keys // ks.points) % ks.target_points  # the target's points, then its blocks
    stride = ks.target_stride or ks.target_points
    tpoints, blocks = digit % stride, digit // stride
    boxes_left = table.boxes_left  # per damage index
    # a bought attack with a choice of weapons: its other weapons' rows (their boosts are
    # reached where best play makes it with that weapon), reported under the slot's row
    n_slots = table.slots
    alt_rows: dict = {}
    slot_of = list(range(n_slots))
    for j, (main, weapon) in enumerate(table.alternatives):
        alt_rows.setdefault(main, []).append((n_slots + j, weapon))
        slot_of.append(main)
    for row in range(table.rows):
        w = reach[row]
        alts = alt_rows.get(row, [])
        # buying is decided before the weapon: met wherever any of them is
        bought_w = w + sum(reach[r] for r, _ in alts) if alts else w
        if not bought_w.any():
            continue
        attacker = scenario.attackers[table.row_attacker[row]]
        dec = table.attack[row]
        res = resource_of[row]
        slot = slot_of[row]
        weapon = None if row < n_slots else table.alternatives[row - n_slots][1]
        solved = int(np.bitwise_or.reduce(dec, axis=None))  # the decisions made on this row
        for name, words, bit, known in _ATTACKER:
            if not solved & known:
                continue
            if name == "buy":
                if row >= n_slots:  # bought with another weapon: "make it with X" says it
                    continue
                words = BUY_WORDS[paid_by[row]]
            weight = bought_w if name == "buy" else w
            offered = ((dec & known) != 0) & (weight > 0)
            if not offered.any():
                continue
            kk, mm = np.nonzero(offered)
            features = {"boxes": boxes_left[mm], "points": points[kk]}
            if ks.target_points > 1:
                features["target"] = tpoints[kk]
            condition, agree = _rule(features, ((dec[kk, mm] & bit) != 0).astype(int), weight[kk, mm])
            condition = condition.replace("{res}", res)
            out.append({"slot": slot, "attack": labels[slot], "who": attacker.name, "kind": name,
                        "decision": words, "weapon": weapon, "condition": condition,
                        "agreement": round(agree, 4)})
            if name == "buy" and alts:
                out += _weapon_choice(table, row, alts, bought_w, features, kk, mm, labels[row],
                                      attacker.name, res)
    out = _merge_damage(out)
    field = table.field
    if field.shape[1] == ks.size:
        # how often each attack meets each damage marked with the target's points at each
        # count (the power field is keyed by the state after the hit, with those points)
        rows, width = table.rows, reach.shape[2]
        cells = ks.target_points * width
        at = np.arange(rows)[:, None, None] * cells + tpoints[:, None] * width + np.arange(width)
        met = np.bincount(at.ravel(), weights=reach[:rows].ravel(), minlength=rows * cells)
        met = met.reshape(rows, ks.target_points, width)[:, tpoints]  # per row, key and damage marked
        # the entries decided (known) and met, of every attack at once (row after row)
        rr, kk, mm, xx = np.nonzero((field[:rows] >= 0) & (met > 0)[..., None])
        weight, spent, left = met[rr, kk, mm], field[rr, kk, mm, xx], boxes_left[mm]
        margin, target, decided = xx - left, tpoints[kk], (spent > 0).astype(int)
        kind = scenario.target.power_kind or "focus"
        bounds = np.searchsorted(rr, np.arange(rows + 1)).tolist()
        for row, lo, hi in zip(range(rows), bounds, bounds[1:]):
            if lo == hi:
                continue
            features = {"margin": margin[lo:hi], "damage": xx[lo:hi], "boxes": left[lo:hi],
                        "target": target[lo:hi]}
            condition, agree = _rule(features, decided[lo:hi], weight[lo:hi])
            words = ("spend focus on its power field" if kind == "focus"
                     else "spend fury to prevent the damage")
            if kind == "focus" and decided[lo:hi].any():
                most = int(spent[lo:hi].max())
                if most > 1:
                    words += f" (up to {most})"
            out.append({"slot": slot_of[row], "attack": labels[slot_of[row]], "who": scenario.target.name,
                        "kind": "field", "decision": words,
                        "weapon": None if row < n_slots else table.alternatives[row - n_slots][1],
                        "condition": condition, "agreement": round(agree, 4)})
        if ks.target_stride:
            out += _blocks(table, reach, labels, slot_of, scenario.target.name, boxes_left, tpoints, blocks)
    return sorted(out, key=lambda d: d["slot"])


def _blocks(table, reach, labels, slot_of, who, boxes_left, tpoints, blocks) -> list[dict]:
    """Rows saying when the target's side blocks an attack's hit with Shield Guard: its
    entries (keyed by the state before the attack, a hit or a critical one, the attack boost
    paid as the attacker decides) weighed by how often the attack meets them."""
    out = []
    for row in range(table.rows):
        f = table.field[table.field_row("block", row)]
        kk, mm, xx = np.nonzero(f[:, :, :4] >= 0)
        dec = table.attack[row, kk, mm]
        # the boost paid on the way: best play's where it decides, else either
        decided = (dec & K.KNOWN_ATTACK) != 0
        keep = ~decided | ((xx // 2) == ((dec & K.BOOST_ATTACK) != 0))
        weight = reach[row][kk, mm] * keep
        if not (weight > 0).any():
            continue
        features = {"boxes": boxes_left[mm], "blocks": blocks[kk], "critical": xx % 2}
        if tpoints.max() > 0:
            features["target"] = tpoints[kk]
        condition, agree = _rule(features, (f[kk, mm, xx] == 1).astype(int), weight)
        out.append({"slot": slot_of[row], "attack": labels[slot_of[row]], "who": who, "kind": "block",
                    "decision": "block the hit with Shield Guard", "weapon": None, "condition": condition,
                    "agreement": round(agree, 4)})
    return out


def paid_by(table, sequence) -> list[str]:
    """Per attack row of ``table``, how a player makes the attack when it is paid for (a key
    of :data:`BUY_WORDS`), from the scenario's attack ``sequence`` (its rows repeat it round
    after round; an alternative weapon's row is its slot's)."""
    def how(slot) -> str:
        if slot.weapon.cost:
            return "spell"
        if slot.weapon.type == "ranged":
            return "reload"
        return "force" if slot.attacker.resource == "force" else "buy"

    rows = [how(sequence[row % len(sequence)]) for row in range(table.slots)]
    return rows + [rows[main] for main, _ in table.alternatives]


def _weapon_choice(table, row, alts, weight, features, kk, mm, label, who, res) -> list[dict]:
    """Rows saying which weapon a bought attack is made with, where best play buys it: one
    per other weapon it is ever made with, "make it with X" and when."""
    bought = (table.attack[row, kk, mm] & K.BUY) != 0
    if not bought.any():
        return []
    kk, mm = kk[bought], mm[bought]
    features = {name: v[bought] for name, v in features.items()}
    out = []
    for r, weapon in alts:
        chosen = ((table.attack[r, kk, mm] & K.BUY) != 0).astype(int)
        if not chosen.any():
            continue
        condition, agree = _rule(features, chosen, weight[kk, mm])
        out.append({"slot": row, "attack": label, "who": who, "kind": "weapon", "decision": f"make it with {weapon}",
                    "weapon": weapon, "condition": condition.replace("{res}", res), "agreement": round(agree, 4)})
    return out


def _merge_damage(rows: list[dict]) -> list[dict]:
    """The damage boosts of a hit and of a critical hit as one row when they read alike."""
    out = []
    for row in rows:
        prev = out[-1] if out else None
        if (prev is not None and prev["slot"] == row["slot"] and prev["weapon"] == row["weapon"]
                and prev["kind"] == "boost_damage_hit" and row["kind"] == "boost_damage_crit"
                and prev["condition"] == row["condition"]):
            out[-1] = dict(prev, kind="boost_damage", decision="boost the damage roll",
                           agreement=min(prev["agreement"], row["agreement"]))
            continue
        out.append(row)
    return out

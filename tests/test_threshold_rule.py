"""Best play in a player's words: the threshold rule that sums up a decision table
(mathhammer/play/describe.py ``threshold_rule``), checked against a brute force written
entry by entry: every threshold's agreement summed in a loop, every pair of the best ones."""

from __future__ import annotations

import numpy as np
import pytest

from mathhammer.play.describe import AGREEMENT, PAIRED, threshold_rule

NOISE = 1e-12


def _holds(rule: tuple, features: dict, i: int) -> bool:
    name, op, t = rule
    v = features[name][i]
    return v <= t if op == "<=" else v >= t


def _agreement(rules: tuple, features: dict, decision, weight) -> tuple[float, int]:
    """The weighted share of entries where "all of ``rules`` hold" equals the decision, and
    on how many entries they hold, one entry at a time."""
    agree, held = 0.0, 0
    for i in range(decision.size):
        holds = all(_holds(r, features, i) for r in rules)
        held += holds
        if holds == (decision[i] == 1):
            agree += weight[i]
    return agree / weight.sum(), held


def _brute(features: dict, decision, weight) -> tuple[tuple | None, float]:
    """The rule as its docstring states it: the best single threshold saying something (the
    first listed of those alike), else the best pair of the best single ones."""
    n = decision.size
    share = weight[decision == 1].sum() / weight.sum()
    singles = []
    for name, values in features.items():
        for t in sorted(set(values.tolist()))[:40]:
            for op in ("<=", ">="):
                rule = (name, op, int(t))
                singles.append((rule, *_agreement((rule,), features, decision, weight)))
    best, floor = None, max(share, 1 - share)
    top = max([a for _, a, held in singles if 0 < held < n], default=-np.inf)
    if top > floor + NOISE:
        best, floor = next(((r,), a) for r, a, held in singles if 0 < held < n and a >= top - NOISE
                           and a > floor + NOISE)
    if floor < AGREEMENT:
        order = sorted(range(len(singles)), key=lambda j: (-round(singles[j][1], 12), j))[:PAIRED]
        pairs = []
        for a in range(len(order)):
            for b in range(a + 1, len(order)):
                ra, rb = singles[order[a]][0], singles[order[b]][0]
                if ra[0] != rb[0]:
                    pairs.append(((ra, rb), *_agreement((ra, rb), features, decision, weight)))
        top = max([a for _, a, held in pairs if 0 < held < n], default=-np.inf)
        if top > floor + NOISE:
            best, floor = next((r, a) for r, a, held in pairs if 0 < held < n and a >= top - NOISE
                               and a > floor + NOISE)
    return best, floor


def _case(seed: int):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 60))
    features = {"boxes": rng.integers(0, 12, n), "points": rng.integers(0, 4, n),
                "margin": rng.integers(-8, 6, n)}
    if seed % 3 == 0:  # a decision a threshold pair explains, with a little noise
        decision = ((features["boxes"] <= 5) & (features["points"] >= 1)).astype(int)
        flip = rng.random(n) < 0.05
        decision[flip] = 1 - decision[flip]
    else:
        decision = (rng.random(n) < rng.random()).astype(int)
    weight = rng.random(n) * (rng.random(n) < 0.9)  # some entries never met
    weight[0] += 0.1
    return features, decision, weight


@pytest.mark.parametrize("seed", range(150))
def test_threshold_rule_equals_a_brute_force(seed):
    features, decision, weight = _case(seed)
    rule, agree = threshold_rule(features, decision, weight)
    expected_rule, expected_agree = _brute(features, decision, weight)
    assert rule == expected_rule
    assert agree == pytest.approx(expected_agree, abs=NOISE)
    if rule is not None:  # the agreement reported is the rule's own, entry by entry
        assert agree == pytest.approx(_agreement(rule, features, decision, weight)[0], abs=NOISE)


def test_a_two_threshold_decision_is_said_as_the_pair():
    """A power field spent with 1 to 5 boxes left and a point to spend: one threshold
    agrees with 83 % of the entries at best, the pair with all of them."""
    boxes = np.repeat(np.arange(1, 11), 4)
    points = np.tile(np.arange(4), 10)
    decision = ((boxes <= 5) & (points >= 1)).astype(int)
    rule, agree = threshold_rule({"boxes": boxes, "points": points}, decision, np.ones(boxes.size))
    assert rule == (("boxes", "<=", 5), ("points", ">=", 1))
    assert agree == 1.0


def test_thresholds_that_agree_alike_are_taken_in_the_order_listed():
    """With the entries of 4 and 5 boxes never met (weight 0), "<= 3", "<= 4" and "<= 5"
    agree alike: the first listed (the lowest) is said."""
    boxes = np.arange(1, 9)
    weight = np.array([1.0, 1, 1, 0, 0, 1, 1, 1])
    rule, agree = threshold_rule({"boxes": boxes}, (boxes <= 3).astype(int), weight)
    assert rule == (("boxes", "<=", 3),) and agree == 1.0
    rule, _ = threshold_rule({"boxes": boxes}, (boxes >= 6).astype(int), weight)
    assert rule == (("boxes", ">=", 4),)

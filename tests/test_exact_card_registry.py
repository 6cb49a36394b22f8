"""The exact engine's bookkeeping on grids and spirals, against straightforward references.

Issue 20, "the exact engine on cards": configurations are numbered without a Python call per
code (``registry.KeyIndex``), their column digits kept, and every move made kept
(``registry.RowTable``) so later attacks read their column rolls off it. Each piece is checked
here against a reference written plainly (a dict, a box-by-box marking, a binary search, a
histogram over the whole vector): the same numbers, the same order, the same sums.
"""

from __future__ import annotations

import numpy as np
import pytest

import mathhammer as mh
from mathhammer._core import ticker
from mathhammer.exact import exact_result
from mathhammer.exact.card import N_COLUMNS, Card
from mathhammer.exact.edges import BySource, groups_by
from mathhammer.exact.registry import KeyIndex, RowTable
from mathhammer.exact.vectors import WHOLE, pad, push
from mathhammer.rules import Attacker, Scenario, Target, Weapon

HEAVY = ["..LLM", "...LLM", "...HCC", "...HCC", "...RRM", "..RRM"]


def heavy(**kw) -> Target:
    return Target(defense=12, arm=18, grid=HEAVY, **kw)


# ------------------------------------------------------------------------------ KeyIndex
@pytest.mark.parametrize("dense", [True, False])
def test_key_index_numbers_keys_as_a_dict_does(dense):
    rng = np.random.default_rng(5)
    index, ref = KeyIndex(5000, dense=dense), {}
    for _ in range(30):
        keys = rng.integers(0, 5000, rng.integers(1, 400))
        got = index.find(keys)
        assert got.tolist() == [ref.get(int(k), -1) for k in keys]
        fresh = np.unique(keys[got < 0])
        index.add(fresh, np.arange(len(ref), len(ref) + fresh.size))
        for k in fresh.tolist():
            ref[k] = len(ref)
    assert index.find(np.array(sorted(ref))).tolist() == [ref[k] for k in sorted(ref)]


def test_key_index_is_dense_up_to_its_limit():
    assert KeyIndex(1000).dense and not KeyIndex(10**9).dense


# ------------------------------------------------------------------------------ RowTable
def test_row_table_gives_each_key_one_row_kept_through_growth_and_widening():
    memo = RowTable(7)
    memo.widen(3)
    first = memo.rows(np.array([40, 3, 40, 9]))
    assert first[0] == first[2] and len(set(first.tolist())) == 3
    memo.table[first[1], 2, 5] = 11
    later = memo.rows(np.arange(500))  # many new keys: the table grows
    assert later[[40, 3, 9]].tolist() == [first[0], first[1], first[3]]
    memo.widen(9)
    assert memo.table.shape[1:] == (9, 7)
    assert memo.table[first[1], 2, 5] == 11 and memo.table[first[1], 8, 5] == -1
    assert len(set(later.tolist())) == 500


# --------------------------------------------------------------------------- the registry
def _columns_after(masks, lengths, start, t, first_bits=None):
    """Box by box (docs/activation.md): the topmost unmarked box of the column (first, the
    topmost unmarked X box), then down, then the next column to the right (6 wraps to 1)."""
    masks, col = list(masks), start
    if first_bits is not None and t > 0:
        free = first_bits & ~masks[col]
        masks[col] |= free & -free
        t -= 1
    for _ in range(t):
        for _ in range(N_COLUMNS):
            full = (1 << lengths[col]) - 1
            if masks[col] != full:
                break
            col = (col + 1) % N_COLUMNS
        else:
            break  # every box marked
        free = ((1 << lengths[col]) - 1) & ~masks[col]
        masks[col] |= free & -free
    return masks


def test_marking_on_digits_is_box_by_box_marking():
    card = Card(heavy(), damage_to=["L"])
    rng = np.random.default_rng(11)
    codes, starts, ts, xs = [], [], [], []
    for _ in range(400):
        code = sum(int(rng.integers(card.n_masks[c])) * int(card.radix[c]) for c in range(N_COLUMNS))
        codes.append(code), starts.append(int(rng.integers(6))), ts.append(int(rng.integers(0, 20)))
        xs.append(bool(rng.integers(2)))
    codes, starts, ts = np.array(codes), np.array(starts), np.array(ts)
    first_x = np.array(xs)
    lbits = [card.letter_bits[c][card.letters.index("L")] for c in range(N_COLUMNS)]
    ok = np.array([not x or lbits[s] & ~card.col_masks[s][int(card.digit(np.array(k), s))] != 0
                   for k, s, x in zip(codes, starts, xs)])  # the caller makes sure of an X box
    digits = card.digits_of(codes[ok])
    card.mark_digits(digits, starts[ok], first_x[ok], 0, ts[ok])
    got = card.codes_of(digits)
    for code, k, s, t, x in zip(got, codes[ok], starts[ok], ts[ok], first_x[ok]):
        masks = [card.col_masks[c][int(card.digit(np.array(k), c))] for c in range(N_COLUMNS)]
        want = _columns_after(masks, card.lengths, int(s), int(t), lbits[s] if x else None)
        have = [card.col_masks[c][int(card.digit(np.array(code), c))] for c in range(N_COLUMNS)]
        assert have == want


def test_codes_are_numbered_in_the_order_they_are_met():
    card = Card(heavy())
    rng = np.random.default_rng(3)
    ref = {0: 0}
    for _ in range(20):
        codes = rng.integers(0, card.n_codes, rng.integers(1, 300))
        codes = np.concatenate([codes, codes[:5]])  # repeats
        want = []
        for k in np.unique(codes).tolist():  # new codes get numbers in the order of their codes
            ref.setdefault(k, len(ref))
        want = [ref[int(k)] for k in codes]
        assert card.register_codes(codes).tolist() == want
    n = card.size
    assert n == len(ref)
    assert (card.digits[:n] == card.digits_of(card.code[:n])).all()
    for i in rng.integers(0, n, 50).tolist():
        masks = card.masks_of(i)
        assert card.count[i] == sum(m.bit_count() for m in masks)
        crippled = {x for j, x in enumerate(card.letters)
                    if all(masks[c] >> r & 1 for c, col in enumerate(HEAVY) for r, ch in enumerate(col) if ch == x)}
        assert {x for j, x in enumerate(card.letters) if card.crip[i] >> j & 1} == crippled


def test_moves_read_back_are_the_moves_made_on_a_fresh_card():
    """Transitions kept between attacks: each query answered from the kept moves gives the
    configurations (by code) a card that has never marked anything computes."""
    warm = Card(heavy(), damage_to=["L"])
    rng = np.random.default_rng(8)
    seen = np.array([0])
    for step in range(12):
        src = rng.choice(seen, size=min(seen.size, 60))
        t = rng.integers(0, 12, src.size)
        heal = np.minimum(rng.integers(0, 2, src.size), t)
        x = "L" if step % 3 == 0 else None
        direct, rolled, dst = warm.land(src, t, heal, x, 0)
        fresh = Card(heavy(), damage_to=["L"])
        idx = fresh.register_codes(warm.code[src])
        d2, r2, dst2 = fresh.land(idx, t, heal, x, 0)
        assert direct.tolist() == d2.tolist() and rolled.tolist() == r2.tolist()
        assert warm.code[dst].tolist() == fresh.code[dst2].tolist()
        again = warm.land(src, t, heal, x, 0)[2]  # read back: the same configurations
        assert again.tolist() == dst.tolist()
        assert dst.size == direct.size + N_COLUMNS * rolled.size
        seen = np.unique(np.concatenate([seen, dst]))


def test_moves_kept_between_attacks_change_no_figure(monkeypatch):
    """The same figures, bit for bit, when no move is ever read back (every column roll
    marked again, as before issue 20); the kept moves are read back indeed (the later
    attacks meet some configurations the earlier ones started from)."""
    fist = Weapon("Fist", "melee", skill=6, pow=17)
    ram = Weapon("Ram", "melee", skill=6, pow=16, damage_to="L")
    twice = Weapon("Fist", "melee", skill=6, pow=17, attacks=2)
    scen = Scenario(heavy(shield=["L"]), [Attacker("A", [ram, fist], policy="fixed", focus=1),
                                          Attacker("B", [twice], policy="fixed")])
    marked = []
    mark = Card.mark_digits

    def counted(self, digits, *args):
        marked.append(digits.shape[0])
        return mark(self, digits, *args)

    monkeypatch.setattr(Card, "mark_digits", counted)
    kept = exact_result(scen).to_dict()
    with_memo = sum(marked)
    rows = RowTable.rows

    def forgetful(self, keys):
        out = rows(self, keys)
        self.table[out] = -1  # nothing kept: every move made again
        return out

    monkeypatch.setattr(RowTable, "rows", forgetful)
    marked.clear()
    assert exact_result(scen).to_dict() == kept
    assert with_memo < sum(marked)  # some column rolls were read back


# ------------------------------------------------------------------------- edges helpers
def test_groups_by_splits_in_ascending_keys_keeping_the_order():
    rng = np.random.default_rng(2)
    for values, p in (([3], None), ([0, 4], None), ([0, 4], [0.97, 0.03]), ([0, 4], [0.02, 0.98]),
                      ([0, 4, 16, 20, 300], None)):
        key = rng.choice(values, size=1000, p=p)
        data = rng.random(1000)
        got = groups_by(key)
        assert [k for k, _ in got] == sorted(set(key.tolist()))
        for k, sel in got:
            assert data[sel].tolist() == data[key == k].tolist()


def test_by_source_is_a_binary_search():
    m = np.array([3, 7, 8, 20, 21])
    src = np.array([8, 3, 21, 21, 7, 20])
    assert BySource(m).of(src).tolist() == np.searchsorted(m, src).tolist()
    identity = np.arange(6)
    assert BySource(identity).of(src[:2] - 3).tolist() == [5, 0]


def test_push_adds_the_histogram_of_its_edges():
    # short vectors take the whole histogram, long ones (past WHOLE) the span of the edges
    rng = np.random.default_rng(4)
    dist, ref = {}, {}
    for size in (50, 50, 80, 120, WHOLE + 1, WHOLE + 1, 3 * WHOLE):
        dst = rng.integers(10, size - 5, 200)
        mass = rng.random(200)
        push(dist, "s", dst, mass, size)
        ref["s"] = pad(ref.get("s", np.zeros(0)), size) + np.bincount(dst, weights=mass, minlength=size)
        assert dist["s"].tolist() == ref["s"].tolist()  # the same sums, bit for bit


# ------------------------------------------------------------------------ the slow notice
def test_a_long_exact_run_says_so_and_suggests_monte_carlo(monkeypatch, capsys):
    from mathhammer import simulation

    fist = Weapon("Fist", "melee", skill=6, pow=17, attacks=2)
    scen = Scenario(heavy(), [Attacker("A", [fist], policy="fixed")])
    mh.simulate(scen, method="exact", progress=False)
    assert capsys.readouterr().err == ""  # quick: nothing said
    monkeypatch.setattr(simulation, "EXACT_NOTICE_AFTER", 0.0)
    mh.simulate(scen, method="exact", progress=False)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "exact engine is still at work" in err and "--method monte_carlo" in err
    monkeypatch.setattr(ticker, "DELAY", 0.0)
    mh.simulate(scen, method="exact", progress=True)  # the line above the counter
    assert "--method monte_carlo" in capsys.readouterr().err

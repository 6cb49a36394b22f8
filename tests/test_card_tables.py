"""The card tables built once per card (mathhammer.montecarlo.card_tables, issue 20): what the
encoder and the assembler read of a grid or spiral, cached by the card's content.

Every table is compared with the loops the encoder and the assembler ran before (written out
here): a cached table must be the fresh one, for every card, and no caller may change what
another one reads.
"""

from __future__ import annotations

import numpy as np
import pytest

from mathhammer.cards import BUNDLED_DIR, scenario_from_cards
from mathhammer.montecarlo._kernels import layout as L
from mathhammer.montecarlo.card_tables import alphabet, box_counts, card_tables, letter_counts
from mathhammer.montecarlo.encode import encode
from mathhammer.rules import Target

CARDS = sorted(p.stem for p in BUNDLED_DIR.glob("*.toml"))
# a small colossal (twelve columns) and a grid whose columns have different lengths
COLOSSAL = ("..", ".L", "L.", "..", "C.", "..", "..", ".C", "..", "R.", ".R", "..")
RAGGED = ("LL", "LLM...", "M", "CC..C.", "RRCHHHAA", "RR")


def fresh_tables(target: Target):
    """The tables as the encoder built them at every point before issue 20."""
    n_cols = L.N_COLUMNS if target.card is None else len(target.card)
    col_full = np.zeros(n_cols, dtype=np.int64)
    letter_mask = np.zeros((L.MAX_LETTERS, n_cols), dtype=np.int64)
    if target.card is None:
        return col_full, letter_mask, np.zeros((n_cols, 1), dtype=np.int64)
    letters = alphabet(target)
    for c, column in enumerate(target.card):
        col_full[c] = (1 << len(column)) - 1
        for r, ch in enumerate(column):
            if ch in letters:
                letter_mask[letters.index(ch), c] |= 1 << r
    masks = np.arange(1 << L.MAX_ROWS, dtype=np.int64)
    letters_done = np.zeros((n_cols, masks.size), dtype=np.int64)
    for c in range(n_cols):
        for x in range(len(letters)):
            done = (letter_mask[x, c] & ~masks) == 0
            letters_done[c] |= done.astype(np.int64) << x
    return col_full, letter_mask, letters_done


def targets():
    out = [scenario_from_cards(["solo"], card).target for card in CARDS]
    out.append(Target(defense=10, arm=18, grid=list(COLOSSAL), base="huge"))
    out.append(Target(defense=10, arm=18, grid=list(RAGGED)))
    return out


@pytest.mark.parametrize("target", targets(), ids=lambda t: t.name or "".join(t.card or ()))
def test_cached_tables_are_the_fresh_ones(target):
    for _ in range(2):  # built, then from the cache
        got = card_tables(target)
        for a, b in zip(got, fresh_tables(target)):
            assert a.dtype == b.dtype == np.int64 and a.shape == b.shape
            np.testing.assert_array_equal(a, b)
            # writable, as the kernels were compiled for (a read-only array is another type)
            assert a.flags.writeable and a.flags.c_contiguous


def test_each_caller_gets_its_own_copy():
    target = scenario_from_cards(["solo"], "heavy_warjack").target
    first = card_tables(target)
    for a in first:
        a[...] = -7  # a caller scribbling on its tables
    again = card_tables(target)
    for a, b in zip(again, fresh_tables(target)):
        np.testing.assert_array_equal(a, b)
    assert all(x is not y for x, y in zip(first, again))


def test_the_cache_is_keyed_by_the_card_itself():
    """Two cards never share tables, whichever was built first; the same card in another
    Target (another ARM, name, state) reads the same ones."""
    heavy = scenario_from_cards(["solo"], "heavy_warjack").target
    light = scenario_from_cards(["solo"], "light_warjack").target
    assert heavy.card != light.card
    for t in (heavy, light, heavy):
        for a, b in zip(card_tables(t), fresh_tables(t)):
            np.testing.assert_array_equal(a, b)
    other = Target(defense=heavy.defense + 2, arm=heavy.arm + 1, grid=list(heavy.card),
                   name="Another heavy")
    for a, b in zip(card_tables(other), card_tables(heavy)):
        np.testing.assert_array_equal(a, b)


def test_encoded_card_tables_are_the_fresh_ones():
    for card in ("heavy_warjack", "light_warjack", "heavy_warbeast", "colossal", "solo"):
        scen = scenario_from_cards(["heavy_warjack"], card)
        enc = encode(scen)
        fresh = fresh_tables(scen.card_target)
        for a, b in zip((enc.tables.col_full, enc.tables.letter_mask, enc.tables.letters_done),
                        fresh):
            np.testing.assert_array_equal(a, b)


# ------------------------------------------------------------------ the assembler's sums
def fresh_letter_counts(hist, letters_in_order, letters):
    sets = np.arange(hist.shape[1])
    if not letters:
        return np.zeros((hist.shape[0], 0), dtype=np.int64)
    return np.stack([hist[:, (sets >> letters_in_order.index(x)) & 1 == 1].sum(axis=1)
                     for x in letters], axis=1)


def fresh_box_counts(mask_hist, card):
    masks = np.arange(mask_hist.shape[1])
    return tuple(np.array([mask_hist[c, (masks >> r) & 1 == 1].sum() for r in range(len(col))])
                 for c, col in enumerate(card))


@pytest.mark.parametrize("letters_in_order, letters", [
    ("ACGHMFLR", ("L", "R", "M", "C")),
    ("ACGHMFLR", tuple("ACGHMFLR")),
    ("ACGHMFLR", ()),
    ("BMS", ("B", "M", "S")),
    ("BMS", ("S", "B")),
])
def test_letter_counts_are_the_exact_sums(letters_in_order, letters):
    rng = np.random.default_rng(1)
    hist = rng.integers(0, 2**40, size=(7, 1 << len(letters_in_order)), dtype=np.int64)
    got = letter_counts(hist, letters_in_order, letters)
    want = fresh_letter_counts(hist, letters_in_order, letters)
    assert got.dtype == np.int64 and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("card", [COLOSSAL, RAGGED, ("L" * 10,) * 6])
@pytest.mark.parametrize("beyond", [False, True])
def test_box_counts_are_the_exact_sums(card, beyond):
    """Sets of rows past the longest column never occur (the sums skip them when they are
    empty); a histogram that had some would still be summed whole."""
    rng = np.random.default_rng(2)
    mask_hist = np.zeros((len(card), 1 << L.MAX_ROWS), dtype=np.int64)
    for c, col in enumerate(card):
        mask_hist[c, : 1 << len(col)] = rng.integers(0, 2**40, size=1 << len(col))
    if beyond:
        mask_hist[:, -1] = 5
    got = box_counts(mask_hist, card)
    want = fresh_box_counts(mask_hist, card)
    assert got.dtype == np.int64 and got.shape == (len(card), max(len(c) for c in card))
    for c, b in enumerate(want):
        np.testing.assert_array_equal(got[c, : len(b)], b)
        assert beyond or not got[c, len(b):].any()  # no box there

"""Live variables on bitsets: Numba's ``compute_live_map`` and ``compute_live_variables``
computed the same way, on Python ints (a bit per variable) instead of Python sets
(:mod:`mathhammer._core.numba_passes`)."""

from __future__ import annotations

from collections import defaultdict

import numpy as np

__all__ = ["live_map", "live_variables"]


def _bit_sets(maps: dict, index: dict, names: list) -> dict:
    """Each set of ``maps`` (block label -> variable names) as a Python int, a bit per
    name (``index`` and ``names`` grow with the names met)."""
    out = {}
    for label, names_in in maps.items():
        bits = 0
        for name in names_in:
            i = index.get(name)
            if i is None:
                i = index[name] = len(names)
                names.append(name)
            bits |= 1 << i
        out[label] = bits
    return out


def live_map(cfg, blocks, var_use_map, var_def_map) -> dict:
    """The variables that must be alive at the entry of each block: what
    ``numba.core.analysis.compute_live_map`` returns (a set of names per block of
    ``blocks``, in its order), computed on bitsets.

    Numba finds, by two fixed points over the blocks in topological order, the definitions
    that reach each block and then the uses that flow back to it; every update merges two
    Python sets, the first of them holding nearly every variable of the function in its
    later blocks (3,000 variables, 1,000 blocks, several rounds, 300 calls a kernel: 10 s of
    a 32 s compile). The same updates on Python ints reach the same least fixed points.
    """
    index: dict = {}
    names: list = []
    defs = _bit_sets(var_def_map, index, names)
    uses = _bit_sets(var_use_map, index, names)
    order = cfg.topo_order()
    # the definitions reaching the entry of each block (Numba's ``def_reach``)
    reach: dict = defaultdict(int)
    changed = True
    while changed:
        changed = False
        for label in order:
            here = reach[label] | defs.get(label, 0) | uses.get(label, 0)
            if here != reach[label]:
                reach[label] = here
                changed = True
            for succ, _ in cfg.successors(label):
                merged = reach[succ] | here
                if merged != reach[succ]:
                    reach[succ] = merged
                    changed = True
    # the uses pushed back to each predecessor that a definition reaches (``liveness``)
    live = {label: uses.get(label, 0) for label in blocks.keys()}
    backward = order[::-1]
    changed = True
    while changed:
        changed = False
        for label in backward:
            here = live[label]
            for pred, _ in cfg.predecessors(label):
                merged = live[pred] | ((here & reach[pred]) & ~defs.get(pred, 0))
                if merged != live[pred]:
                    live[pred] = merged
                    changed = True
    memo: dict = {}
    return {label: _names_of(bits, names, memo) for label, bits in live.items()}


def live_variables(cfg, blocks, var_def_map, var_dead_map) -> defaultdict:
    """The variables available at the entry of each block: what
    ``numba.core.analysis.compute_live_variables`` returns (a ``defaultdict(set)``, its
    keys in the order Numba's first pass meets them), computed on bitsets.

    Numba's fixed point merges Python sets of every variable defined before each block;
    the closure pass calls it once on the whole inlined kernel (2 s of a compile)."""
    index: dict = {}
    names: list = []
    defs = _bit_sets(var_def_map, index, names)
    dead = _bit_sets(var_dead_map, index, names)
    order = cfg.topo_order()
    entry: dict = {}
    changed = True
    while changed:
        changed = False
        for label in order:
            avail = (entry.setdefault(label, 0) | defs[label]) & ~dead[label]
            for succ, _ in cfg.successors(label):
                before = entry.setdefault(succ, 0)
                if before | avail != before:
                    entry[succ] = before | avail
                    changed = True
    out: defaultdict = defaultdict(set)
    memo: dict = {}
    for label, bits in entry.items():
        out[label] = _names_of(bits, names, memo)
    return out


def _names_of(bits: int, names: list, memo: dict) -> set:
    """A new set of the names of the bits set in ``bits`` (``memo``: those met in this
    call, by bitset; blocks in a row often share one)."""
    found = memo.get(bits)
    if found is None:
        if bits.bit_count() < 16:
            found, rest = [], bits
            while rest:
                low = rest & -rest
                found.append(names[low.bit_length() - 1])
                rest ^= low
        else:  # NumPy finds the bits of a big int without a Python step per bit
            raw = np.frombuffer(bits.to_bytes((bits.bit_length() + 7) // 8, "little"),
                                dtype=np.uint8)
            bits_set = np.flatnonzero(np.unpackbits(raw, bitorder="little")).tolist()
            found = [names[i] for i in bits_set]
        found = memo[bits] = frozenset(found)
    return set(found)

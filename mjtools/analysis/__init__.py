"""Hand shapes: decompositions, shanten, effective tiles and waits, with no notion of value.

May import `mjtools.tiles` (and the base modules: errors, cache); never rules, patterns,
scoring or anything above. A ruleset reaches this layer as a `ShapeSpec` (or, for the
wildcard helpers, as a duck-typed ruleset under TYPE_CHECKING only).

    shapes.py       `ShapeSpec`: what a ruleset says about winning shapes, in engine terms
    tables.py       per-suit distance tables (data/suit_tables.bin); tablegen.py rebuilds them
    state.py        `HandState`: a hand as natural counts, wildcards and meld facts
    shanten.py      the general engine: distances per form, shanten, effective tiles, discards
    groupdp.py, forms.py   its per-group dynamic programme and the special forms
    waits.py        waits of a ready hand
    fast.py         the table-driven fast path for the common specs; engine.py picks it or the general one
    arrays.py       the fast path vectorised over (N, 34) count arrays (numpy)
    blocks.py       `Block` and `Decomposition`, the pieces of a reading
    decompose.py    every reading of a complete hand, wildcards placed
    wildcards.py    which kinds are wild, successor cycles, stand-ins
"""

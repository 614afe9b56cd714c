"""The shape configurations of the wildcard variants, for the wildcard tests.

Each entry mirrors the shape, tile and wildcard parts of a variant (rules-reference files and
their "Defaults we choose"): which kinds are wild for a turned indicator, stand-ins, forms,
requirements. Rule files shipped in rules.d with a `wildcards:` section are tested too, from
the files themselves (`shipped`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from mjtools.analysis.shapes import ShapeSpec
from mjtools.analysis.wildcards import successor

ALL = frozenset(range(34))
_SPECS: dict[ShapeSpec, ShapeSpec] = {}


def interned(spec: ShapeSpec) -> ShapeSpec:
    """One instance per distinct spec: the engine's caches are keyed by spec, and an equal spec
    that is another instance costs a field-by-field comparison on every lookup."""
    return _SPECS.setdefault(spec, spec)


@dataclass(frozen=True)
class WildVariant:
    id: str
    forms: tuple[str, ...] = ("standard",)
    hand_size: int = 13
    fixed: tuple[int, ...] = ()  # always wild
    tiers: tuple[int, ...] = ()  # offsets from a turned indicator that are wild
    cycle: str = "dora"
    turned_out: bool = False  # the turned copy stays on the table
    stand_in: int | None = None  # this physical kind plays the wildcard's own kind
    excluded: frozenset[int] = frozenset()  # kinds no shape may hold (bonus, no_win_holding)
    extra: dict = field(default_factory=dict)  # further ShapeSpec fields

    def draw(self, rng: random.Random) -> tuple[ShapeSpec, list[int], int | None]:
        """(spec, copies in play, turned indicator) for a random indicator."""
        wild = set(self.fixed)
        turned = None
        if self.tiers:
            turned = rng.choice(sorted(ALL - self.excluded))
            for t in self.tiers:
                wild.add(successor(turned, self.cycle, t) if t else turned)
        stands: tuple[tuple[int, int], ...] = ()
        kinds = set(ALL - self.excluded)
        if self.stand_in is not None and self.stand_in not in wild:
            stands = ((self.stand_in, min(wild)),)
            kinds.discard(self.stand_in)
        kinds |= wild & ALL
        copies = [4] * 34 + [0] * 16
        if self.turned_out and turned is not None:
            copies[turned] = 3
        spec = ShapeSpec(hand_size=self.hand_size, forms=self.forms, kinds=frozenset(kinds), wild_kinds=frozenset(wild), stand_ins=stands, **self.extra)
        return interned(spec), copies, turned


VARIANTS = {
    v.id: v
    for v in (
        WildVariant("luoshan", tiers=(1,), cycle="reverse_dragons"),
        WildVariant("hangzhou", forms=("standard", "seven_pairs"), fixed=(31,), extra={"quads_as_pairs": True}),
        WildVariant("shanghai-baida", tiers=(1,), cycle="honor_ring"),
        WildVariant("shanghai-baida-floating", tiers=(0,), turned_out=True, stand_in=31),
        WildVariant("wuhan-hongzhong", tiers=(1,), excluded=frozenset({33}), extra={"pair_258": True, "pair_258_exempt": ("all_pungs", "full_flush")}),
        WildVariant("nanchang", forms=("standard", "thirteen_unrelated"), tiers=(0, 1), extra={"honor_chows": True}),
        WildVariant("wenzhou", hand_size=16, tiers=(1,), stand_in=31),
        WildVariant("zuanpai", tiers=(1,), cycle="reverse_dragons", stand_in=33, excluded=frozenset({31, 32})),
        WildVariant("hebei", tiers=(1,)),
        WildVariant("hebei-bazhi", tiers=(1,), extra={"min_tiles_one_suit": 8}),
        WildVariant("tianjin", tiers=(0, 1), turned_out=True),
    )
}


def shipped() -> list[str]:
    """Ids of shipped rule files that declare wildcards."""
    import yaml

    root = Path(__file__).resolve().parent.parent / "rules.d"
    out = []
    for f in sorted(root.glob("*.yaml")):
        data = yaml.safe_load(f.read_text(encoding="utf-8")) or {}
        if data.get("wildcards"):
            out.append(f.stem)
    return out


def shipped_draw(rid: str, rng: random.Random) -> tuple[ShapeSpec, list[int], int | None]:
    """(spec, copies in play, turned indicator) of a shipped variant for a random indicator."""
    from mjtools.analysis.wildcards import copies_in_play, stand_ins, wild_kinds
    from mjtools.rules import load
    from mjtools.tiles.context import WinContext
    from mjtools.tiles.kinds import Tile

    rs = load(rid)
    turned = None
    indicators = {}
    if rs.section("wildcards").get("indicator"):
        turned = rng.choice(sorted(rs.playable_kinds - rs.bonus_kinds))
        indicators = {"wild": (Tile(turned),)}
    ctx = WinContext(indicators=indicators)
    wild = wild_kinds(rs, ctx)
    spec = rs.shape_spec(wild, stand_ins(rs, wild))
    return interned(spec), copies_in_play(rs, ctx), turned

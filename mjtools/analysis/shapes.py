"""What a variant says about winning shapes, in the form the analysis engine needs.

`ShapeSpec` is derived from a ruleset once (`Ruleset.shape_spec`); the engine never reads
rule files. Forms: `standard` (sets + pair), `seven_pairs`, `thirteen_orphans`,
`thirteen_unrelated` (十三烂), `knitted` (全不靠), `all_258` (Changsha 将将和: every tile a 2, 5
or 8, in any arrangement), `knitted_straight` (Chinese Official 组合龙 + a set + a pair, at most
one meld). `kinds` are the kinds a shape may hold: the
tile set without bonus tiles, stand-in tiles (they play another kind) and tiles that may not
stay in a winning hand (Wuhan's 红中).
"""

from __future__ import annotations

from mjtools.tiles.frozen import Record

ALL_PLAYABLE = frozenset(range(34))
FORMS = ("standard", "seven_pairs", "thirteen_orphans", "thirteen_unrelated", "knitted", "all_258", "knitted_straight")
KINDS_258 = frozenset(k for k in range(27) if k % 9 in (1, 4, 7))
SUIT_GROUPS = ("m", "p", "s", "z")


class ShapeSpec(Record):
    """The winning shapes of a variant, as the analysis engines read them.

    Read-only, compared and hashed by its fields; `spec.replace(forms=...)` makes a changed copy.
    A plain class rather than a frozen dataclass: compiling the dataclass's methods cost every
    call start-up time."""

    hand_size: int  # 13 (16 for Taiwan)
    forms: tuple[str, ...]
    quads_as_pairs: bool  # seven pairs: may four of a kind count as two pairs
    kinds: frozenset[int]  # playable kinds in the tile set
    pair_258: bool  # the standard form's pair must be a 2, 5 or 8
    pair_258_exempt: tuple[str, ...]  # shapes that lift it: "all_pungs", "full_flush", "fully_melded"
    max_suits: int | None  # 缺一门: at most 2 of m/p/s in the final hand
    min_tiles_one_suit: int | None  # 八枝: at least N tiles of one suit
    all_three_suits: bool  # 不允许缺门 (Shenyang)
    wild_kinds: frozenset[int]
    stand_ins: tuple[tuple[int, int], ...]  # (physical kind, natural kind it plays)
    wild_fifth_copy: bool  # may a wildcard stand for a fifth copy of a kind (melds count)
    wild_in_pair: bool  # may a wildcard sit in the standard form's pair
    wild_discardable: bool  # may a wildcard be discarded (the discard table leaves it out)
    face_value_forms: tuple[str, ...]  # forms in which wildcards count as their own kind only
    honor_chows: bool  # three different winds, or 中发白, form a chow (南昌 字牌顺)
    chows: bool  # False: sets are pungs and kongs only (the simulator's all-pungs plans)
    _groups: tuple  # group_layout's answer, made on first use (not compared)

    FIELDS = tuple(__annotations__)[:-1]
    # The fields live in the instance dict (copies are made from it); the hash, worked out on
    # first use, in a slot beside it: a spec keys lru caches on every shanten call.
    __slots__ = ("__dict__", "_hash")

    def __init__(
        self,
        hand_size: int = 13,
        forms: tuple[str, ...] = ("standard", "seven_pairs", "thirteen_orphans"),
        quads_as_pairs: bool = False,
        kinds: frozenset[int] = ALL_PLAYABLE,
        pair_258: bool = False,
        pair_258_exempt: tuple[str, ...] = (),
        max_suits: int | None = None,
        min_tiles_one_suit: int | None = None,
        all_three_suits: bool = False,
        wild_kinds: frozenset[int] = frozenset(),
        stand_ins: tuple[tuple[int, int], ...] = (),
        wild_fifth_copy: bool = False,
        wild_in_pair: bool = True,
        wild_discardable: bool = True,
        face_value_forms: tuple[str, ...] = (),
        honor_chows: bool = False,
        chows: bool = True,
        _groups: tuple = (),
    ) -> None:
        self.__dict__.update(
            hand_size=hand_size, forms=forms, quads_as_pairs=quads_as_pairs, kinds=kinds, pair_258=pair_258, pair_258_exempt=pair_258_exempt, max_suits=max_suits,
            min_tiles_one_suit=min_tiles_one_suit, all_three_suits=all_three_suits, wild_kinds=wild_kinds, stand_ins=stand_ins, wild_fifth_copy=wild_fifth_copy,
            wild_in_pair=wild_in_pair, wild_discardable=wild_discardable, face_value_forms=face_value_forms, honor_chows=honor_chows, chows=chows, _groups=_groups,
        )  # fmt: skip

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            h = hash(self._key())
            object.__setattr__(self, "_hash", h)
            return h

    @property
    def sets_needed(self) -> int:
        return (self.hand_size - 1) // 3

    def group_layout(self) -> tuple[tuple[str, tuple[int, ...]] | None, ...]:
        """Per group m/p/s/z: (table family, kinds in table order) or None if absent.

        A suit with all nine kinds uses the suit tables; a partial group (sanma's 1m/9m,
        honors) uses the chow-less tables over the kinds present."""
        if not self._groups:
            out = []
            for g, start in zip(SUIT_GROUPS, (0, 9, 18, 27)):
                size = 7 if g == "z" else 9
                present = tuple(k for k in range(start, start + size) if k in self.kinds)
                if not present:
                    out.append(None)
                elif g != "z" and len(present) == 9:
                    out.append(("suit", present))
                else:
                    out.append(("honor", present))
            object.__setattr__(self, "_groups", tuple(out))
        return self._groups


RIICHI = ShapeSpec()

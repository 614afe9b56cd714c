"""Check a parsed hand against a variant: tile set, copies, red fives, size, meld kinds."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from operator import itemgetter, le
from typing import TYPE_CHECKING, Any

from mjtools.errors import CopiesError, IllegalHandError, NotationError, TileCountError
from mjtools.rules.counted import Counted, counted_entries, counted_kinds
from mjtools.rules.model import Ruleset
from mjtools.tiles.hand import CHOW, KONG_KINDS, PUNG, Aside, Hand, Meld
from mjtools.tiles.kinds import Tile, kind_str, parse_kind
from mjtools.tiles.notation import _find_kind, format_meld, parse_tiles

if TYPE_CHECKING:
    from mjtools.analysis.shapes import ShapeSpec
    from mjtools.tiles.context import WinContext


def _err(msg: str, text: str, kind: int | None = None, cls: type[NotationError] = NotationError) -> NotationError:
    pos = _find_kind(text, kind) if (text and kind is not None) else None
    return cls(msg, text, pos)


class _AsidePlan:
    """What normalize and check_hand read of a ruleset's groups set aside, once per ruleset
    (kept on it, as the fan plan is): the tags kept in the hand (立四), the tags allowed, the
    bonus kinds, and what each group met before holds (parsed groups are shared values)."""

    __slots__ = ("inside", "tags", "bonus", "span", "bonus_held", "mask", "quick", "seen")

    def __init__(self, rs: Ruleset) -> None:
        tiles = rs.section("tiles")
        self.inside = tiles.get("aside_in_hand", {})
        self.tags = tiles.get("aside_tags", ())
        self.bonus = rs.bonus_kinds
        kinds = sorted(self.bonus)
        # The copies of the bonus kinds a hand holds are read from its counts: a slice where
        # they are one run of kinds (the flowers), else a getter (twice each: a tuple even for
        # one kind).
        contiguous = bool(kinds) and kinds == list(range(kinds[0], kinds[-1] + 1))
        self.span = slice(kinds[0], kinds[-1] + 1) if contiguous else None
        self.bonus_held = itemgetter(*kinds, *kinds) if kinds and not contiguous else None
        self.mask = sum(0xFF << 8 * k for k in kinds)  # the bonus kinds' bytes of packed counts
        # The mask where normalize may answer from the concealed tiles' packed counts before
        # anything else (no tag kept in the hand; 0: not so).
        self.quick = 0 if self.inside else self.mask
        # id(group) -> (the group, its bonus tiles, whether check_hand lets it pass, the packed
        # counts of its bonus tiles): by identity, with the group, so that its id is not reused
        # while kept.
        self.seen: dict[int, tuple[Aside, int, bool, int]] = {}

    def group(self, a: Aside) -> tuple[Aside, int, bool, int]:
        got = self.seen.get(id(a))
        if got is None or got[0] is not a:
            bonus = self.bonus
            n = sum(1 for t in a.tiles if t.kind in bonus)
            ok = a.tag in self.tags if a.tag is not None else n == len(a.tiles)
            if len(self.seen) > 4096:
                self.seen.clear()
            got = self.seen[id(a)] = (a, n, ok, sum(1 << 8 * t.kind for t in a.tiles if t.kind in bonus))
        return got


def _aside_plan(rs: Ruleset) -> _AsidePlan:
    got = rs.__dict__.get("_aside_plan")
    if got is None:
        got = rs.__dict__["_aside_plan"] = _AsidePlan(rs)
    return got


def normalize(hand: Hand, rs: Ruleset, wild: frozenset[int] = frozenset()) -> Hand:
    """Move the variant's bonus tiles written among the concealed tiles to a set-aside group."""
    if not rs.bonus_kinds and not hand.aside:
        return hand
    try:
        plan = rs._aside_plan  # type: ignore[attr-defined]  # (kept in the ruleset's dict: an attribute read costs less than rs.__dict__.get)
    except AttributeError:
        plan = _aside_plan(rs)
    quick = plan.quick
    if quick and not wild:
        # (MCR: flowers set aside, none among the concealed tiles, read first from the parser's
        # packed counts of those: the answer of the span test below)
        cpacked = hand._cpacked
        if cpacked >= 0 and not cpacked & quick:
            return hand
    inside = plan.inside
    if inside and any(a.tag in inside for a in hand.aside):
        # 立四: stood tiles are part of the concealed hand, only kept apart.
        back = tuple(t for a in hand.aside if a.tag in inside for t in a.tiles)
        hand = Hand(tuple(sorted(hand.concealed + back, key=Tile.sort_key)), hand.melds, tuple(a for a in hand.aside if a.tag not in inside), hand.last)
    if wild:
        bonus = rs.bonus_kinds - wild
    else:
        bonus = rs.bonus_kinds
        span = plan.span
        if span is not None or bonus:
            # The parser already writes flowers apart: where every bonus tile the hand holds
            # (its counts) is in its groups set aside, none is among the concealed tiles (MCR:
            # the flowers of most hands, 13 tiles not scanned). With the parser's packed counts
            # (a byte per kind) the bonus tiles held are one AND, each group's a subtraction;
            # with its concealed tiles' packed counts, the bonus tiles among them one AND.
            cpacked = hand._cpacked
            if cpacked >= 0:
                n = cpacked & plan.mask
            else:
                packed = hand._packed
                seen = plan.seen
                if packed >= 0:
                    n = packed & plan.mask
                    for a in hand.aside:
                        got = seen.get(id(a))
                        n -= (got if got is not None and got[0] is a else plan.group(a))[3]
                else:
                    n = sum(hand.counts[span]) if span is not None else sum(plan.bonus_held(hand.counts)) // 2
                    for a in hand.aside:
                        got = seen.get(id(a))
                        n -= (got if got is not None and got[0] is a else plan.group(a))[1]
            if not n:
                return hand
    # Most hands hold no bonus tile among the concealed ones, and a plain scan answers that
    # without building anything.
    for t in hand.concealed:
        if t.kind in bonus:
            break
    else:
        return hand
    moved = tuple(t for t in hand.concealed if t.kind in bonus)
    kept = tuple(t for t in hand.concealed if t.kind not in bonus)
    aside = (Aside(moved),) + hand.aside
    return Hand(kept, hand.melds, aside, hand.last)


@lru_cache(maxsize=256)
def _limits(rs: Ruleset, wild: frozenset[int]) -> tuple[int, ...]:
    """Copies allowed of each of the 50 kinds (0: not in the tile set)."""
    allowed = set(rs.playable_kinds) | set(rs.bonus_kinds) | set(rs.joker_kinds) | set(wild)
    return tuple(max(rs.copies[k], 4 if k in wild else 0) if k in allowed else 0 for k in range(50))


@lru_cache(maxsize=256)
def _over(rs: Ruleset, wild: frozenset[int]) -> tuple[int, int]:
    """(per byte 127 less the kind's limit, per byte 128): a count k over its limit makes
    k + 127 - limit reach 128, which no count within it does."""
    limits = _limits(rs, wild)
    if max(limits) > 127:
        return 0, -1  # (no such tile set: every hand takes the loop)
    return sum((127 - n) << 8 * k for k, n in enumerate(limits)), sum(128 << 8 * k for k in range(len(limits)))


def _unclaimable_meld(m: Meld, rs: Ruleset, counted: dict[int, Counted], wild: frozenset[int]) -> str | None:
    """Why meld `m` cannot exist under play.discard_situations (None: it can). A kind whose
    entry is not claimable (Wuhan's 红中杠, 赖子杠) is never called: an open pung or kong of it
    cannot exist. A chow (its called tile unknown) or a concealed kong cannot hold one only if
    the kind is also never kept (win.no_win_holding: 红中 joins no set); a wildcard may be kept."""
    for kind in m.kinds:
        c = counted.get(kind)
        if c is None or c.claimable:
            continue
        if not m.concealed and len(set(m.kinds)) == 1:
            return f"{format_meld(m)} cannot exist in {rs.id}: a {kind_str(kind)} put out is a {c.situation}, which nobody may claim"
        if kind not in wild and kind in {parse_kind(t) for t in rs.section("win").get("no_win_holding", ())}:
            return f"{format_meld(m)} cannot exist in {rs.id}: a {kind_str(kind)} is put out as a {c.situation}, never kept in a set"
    return None


def aside_reason(hand: Hand, rs: Ruleset) -> str | None:
    """tiles.aside_in_hand max_at_win: too many tiles still kept apart for a win (立四)."""
    for tag, spec in rs.section("tiles").get("aside_in_hand", {}).items():
        n = len(hand.aside_tiles(tag))
        most = spec.get("max_at_win")
        if most is not None and n > most:
            return f"{tag}: {n} tiles still stand apart; at most {most} may remain at a win"
    return None


def _red_fives_check(hand: Hand, rs: Ruleset, text: str) -> None:
    """Refuse more red fives of a suit than the tile set has."""
    reds = {"m": 0, "p": 0, "s": 0}
    for t in hand.all_tiles():
        if t.red:
            reds[t.suit] += 1
    for suit, n in reds.items():
        if not n:
            continue
        limit = rs.red_fives.get(suit, 0)
        if n > limit:
            pos = text.find("0") if text else -1
            msg = f"{n} red 5{suit} ({rs.id} allows {limit}" + (")" if limit else "; write 5" + suit + ")")
            raise NotationError(msg, text, pos if pos >= 0 else None)


def check_hand(
    hand: Hand,
    rs: Ruleset,
    text: str = "",
    *,
    wild: frozenset[int] = frozenset(),
    need_last: bool = False,
    sizes: tuple[int, ...] | None = None,
    copies: Sequence[int] | None = None,
    any_size: bool = False,
) -> Hand:
    """Raise NotationError / IllegalHandError if `hand` cannot exist under `rs`; return it normalized.
    `copies`: copies in play per kind where not the tile set's (a turned indicator kept out).
    `any_size`: leave the tile count to the caller (相公 answers a wrong count as a dead hand)."""
    hand = normalize(hand, rs, wild)
    if wild:
        limits = _limits(rs, wild)
        add, top = _over(rs, wild)
    else:
        # (without wildcards, as most hands are: both kept on the ruleset, read as an attribute
        # where the two cached calls cost a key tuple and a hash each)
        try:
            limits, add, top = rs._no_wild_limits  # type: ignore[attr-defined]
        except AttributeError:
            limits, add, top = rs.__dict__["_no_wild_limits"] = (_limits(rs, wild), *_over(rs, wild))
    allowed = limits
    if copies is not None and tuple(copies) != tuple(rs.copies):
        # Fewer copies in play than the tile set has (a turned indicator kept on the table).
        limits = tuple(c if n and c < b else n for n, b, c in zip(limits, rs.copies, copies))
    counts = hand.counts
    if limits is allowed:
        # Every count within its limit, tested on the counts as one integer with a byte per
        # kind: a count above its limit carries into its byte's top bit (counts under 128).
        # The parser gives that integer (Hand._packed); otherwise it is made from the counts.
        packed = hand._packed
        if packed >= 0 and not packed & top:  # (every count under 128)
            fine = not (packed + add) & top
        else:
            try:
                raw = bytes(counts)
            except ValueError:  # a count over 255: the loop below names it
                fine = False
            else:
                fine = raw.isascii() and not (int.from_bytes(raw, "little") + add) & top
    else:
        fine = all(map(le, counts, limits))
    for kind in () if fine else range(50):
        n = counts[kind]
        if n > limits[kind]:
            if not allowed[kind]:
                raise _err(f"{kind_str(kind)} is not in the {rs.id} tile set", text, kind)
            raise _err(f"{n} copies of {kind_str(kind)} ({rs.id} has {limits[kind]})", text, kind, CopiesError)
    nreds = hand.reds
    if nreds:
        red_fives = rs.red_fives
        in_m, in_p, in_s = red_fives.get("m", 0), red_fives.get("p", 0), red_fives.get("s", 0)
        # A suit can hold too many red fives only if the hand holds more red fives than the
        # least a suit may, and that suit more fives than it may have red.
        if nreds > min(in_m, in_p, in_s) and not (counts[4] <= in_m and counts[13] <= in_p and counts[22] <= in_s):
            _red_fives_check(hand, rs, text)
    if need_last and hand.last is None:
        raise IllegalHandError("the winning tile is missing: end the hand with +TILE")
    size = len(hand.concealed) + (hand.last is not None) + 3 * len(hand.melds)  # (Hand.size inlined)
    want = sizes or (rs.hand_size, rs.hand_size + 1)
    if size not in want and not any_size:
        need = " or ".join(str(w) for w in want)
        raise TileCountError(f"hand has {size} tiles; {rs.id} needs {need} (concealed + 3 per meld + the + tile)")
    melds = hand.melds
    if melds and not wild:
        # A meld that passed these checks under this ruleset passes them again (parsed melds
        # are shared values): kept by identity, with the meld, so its id is not reused.
        try:
            ok = rs._melds_ok  # type: ignore[attr-defined]  # (an attribute read costs less than rs.__dict__.get)
        except AttributeError:
            ok = rs.__dict__["_melds_ok"] = {}
        for m in melds:
            if ok.get(id(m)) is not m:
                break
        else:
            melds = ()
    else:
        ok = None
    if melds:  # (melds met before under this ruleset left none to check)
        calls = rs.section("calls")
        kinds_ok = set(calls.get("meld_kinds", {}))
        entries = counted_entries(rs)
        counted = counted_kinds(entries, wild) if entries else None
    for m in melds:
        bonus = next((k for k in m.kinds if k in rs.bonus_kinds and k not in wild), None)
        if bonus is not None:
            raise IllegalHandError(f"{format_meld(m)}: {kind_str(bonus)} is a bonus tile in {rs.id}; bonus tiles are set aside ({{...}}), never part of a meld")
        if m.kind == CHOW and not calls.get("chi", False):
            raise IllegalHandError(f"{rs.id} has no chi: {format_meld(m)}")
        if m.kind == PUNG and not calls.get("pon", True):
            raise IllegalHandError(f"{rs.id} has no pon: {format_meld(m)}")
        if m.kind in KONG_KINDS and not calls.get(m.kind, True):
            raise IllegalHandError(f"{rs.id} has no {m.kind.replace('_', ' ')}: {format_meld(m)}")
        if m.kind == "irregular" and is_honor_chow(m.kinds) and rs.section("win").get("honor_chow"):
            if not calls.get("chi", False):
                raise IllegalHandError(f"{rs.id} has no chi: {format_meld(m)}")
        elif m.kind not in (CHOW, PUNG) + KONG_KINDS and m.kind not in kinds_ok:
            what = f"/{m.tag}" if m.tag else "a chow, pung or kong"
            raise IllegalHandError(f"{format_meld(m)} is not {what} that {rs.id} allows")
        as_set = kinds_ok and calls.get("meld_kinds", {}).get(m.kind, {}).get("counts_as")
        if as_set in ("pung", "kong", "chow") and not _is_set(m.kinds, as_set):
            raise IllegalHandError(f"{format_meld(m)} is not a {m.kind} meld of {rs.id}: it counts as a {as_set}")
        shapes = kinds_ok and calls.get("meld_kinds", {}).get(m.kind, {}).get("shapes")
        if shapes and sorted(m.kinds) not in [sorted(t.kind for t in parse_tiles(s)) for s in shapes]:
            raise IllegalHandError(f"{format_meld(m)} is not a {m.kind} meld of {rs.id} ({', '.join(shapes)})")
        if m.wild and not rs.section("wildcards").get("in_calls", False):
            raise IllegalHandError(f"{rs.id} does not allow wildcards in melds: {format_meld(m)}")
        why = counted and _unclaimable_meld(m, rs, counted, wild)
        if why:
            raise IllegalHandError(why)
        if ok is not None:
            if len(ok) > 4096:
                ok.clear()
            ok[id(m)] = m
    if not hand.aside:
        return hand
    try:
        plan = rs._aside_plan  # type: ignore[attr-defined]  # (as in normalize)
    except AttributeError:
        plan = _aside_plan(rs)
    seen = plan.seen
    for a in hand.aside:
        got = seen.get(id(a))  # (a group met before: found here)
        if (got if got is not None and got[0] is a else plan.group(a))[2]:
            continue  # a tag allowed, or bonus tiles only
        tags = plan.tags
        bonus_kinds = rs.bonus_kinds
        if a.tag is not None and a.tag not in tags:
            allowed_tags = ", ".join(sorted(set(tags))) or "none"
            raise IllegalHandError(f"{rs.id} has no {{{a.tag}=...}} group (tags: {allowed_tags})")
        if a.tag is None:
            for t in a.tiles:
                if t.kind not in bonus_kinds:
                    raise IllegalHandError(f"{t} is not a bonus tile in {rs.id}; only bonus tiles go in {{...}}")
    return hand


def is_honor_chow(kinds: Sequence[int]) -> bool:
    """Three different winds, or White-Green-Red (Nanchang's honor chow)."""
    ks = set(kinds)
    return len(kinds) == 3 and len(ks) == 3 and (ks <= {27, 28, 29, 30} or ks == {31, 32, 33})


def visible_counts(visible: tuple[Tile, ...]) -> list[int]:
    out = [0] * 50
    for t in visible:
        out[t.kind] += 1
    return out


def _is_set(kinds: tuple[int, ...], shape: str) -> bool:
    """Whether a meld's tiles form the set its kind counts as (meld_kinds counts_as)."""
    ks = sorted(kinds)
    if shape == "pung":
        return len(ks) == 3 and len(set(ks)) == 1
    if shape == "kong":
        return len(ks) == 4 and len(set(ks)) == 1
    return len(ks) == 3 and ks[0] < 27 and ks[0] // 9 == ks[2] // 9 and ks == [ks[0], ks[0] + 1, ks[0] + 2]


def left_of(rs: Ruleset, seat: str) -> str:
    """The player on `seat`'s left: the one who discards just before him."""
    seats = rs.seats
    return seats[(seats.index(seat) - 1) % len(seats)]


class _Facts:
    """What check_context reads from a ruleset, read once per ruleset (it runs for every hand)."""

    def __init__(self, rs: Ruleset):
        calls = rs.section("calls")
        kinds = calls.get("meld_kinds", {})
        self.seats = rs.seats
        self.left = {s: left_of(rs, s) for s in self.seats}
        self.chow_kinds = frozenset(k for k, v in kinds.items() if v.get("counts_as") == "chow") | {CHOW}
        self.honor_chow = bool(rs.section("win").get("honor_chow"))
        self.kong_kinds = frozenset(k for k, v in kinds.items() if v.get("counts_as") == "kong") | set(KONG_KINDS)
        kita = calls.get("kita")
        self.kita = Tile(parse_kind(kita if isinstance(kita, str) else "4z")) if kita else None
        self.riichi = bool(rs.section("play").get("riichi"))
        # A turned wildcard indicator kept on the table (copies_in_play): else the tile set's copies.
        self.turned_copy = bool((rs.section("wildcards").get("indicator") or {}).get("turned_copy_excluded"))
        # One dora indicator, and one more per kong where kongs turn indicators (at most
        # calls.max_kongs of them in a hand).
        kongs = calls.get("max_kongs", 4) if rs.section("wall").get("kong_indicator", "none") != "none" else 0
        self.most_dora = 1 + (4 if kongs is None else kongs)
        # (five kind, suit, red copies, plain copies) where the tile set has red fives.
        self.fives = tuple((SUIT_GROUP[suit] * 9 + 4, suit, red, rs.copies[SUIT_GROUP[suit] * 9 + 4] - red) for suit, red in rs.red_fives.items() if red)


def _facts(rs: Ruleset) -> _Facts:
    got = rs.__dict__.get("_context_facts")
    if got is None:
        got = rs.__dict__["_context_facts"] = _Facts(rs)
    return got


def _is_chow(m: Meld, f: _Facts) -> bool:
    """A chow, a meld kind the file counts as one, or an honour chow (Nanchang)."""
    if m.kind in f.chow_kinds:
        return True
    return m.kind == "irregular" and f.honor_chow and is_honor_chow(m.kinds)


def source_reason(hand: Hand, rs: Ruleset, seat: str) -> str | None:
    """Why a meld's @SEAT cannot have given it to `seat` (None: every source is possible).
    In every variant a meld comes from another seat that plays, and a chow only from the
    player on the left (the one who discards just before)."""
    try:
        f = rs._context_facts  # type: ignore[attr-defined]  # (_facts': an attribute read, no call)
    except AttributeError:
        f = _facts(rs)
    for m in hand.melds:
        src = m.source
        if src is None:
            continue
        if src not in f.seats:
            return f"{format_meld(m)}: {rs.id} has no {src} seat (seats {', '.join(f.seats)})"
        if src == seat:
            return f"{format_meld(m)}: called from {src}, the player's own seat (--seat {seat}); a meld is called from another player's discard"
        if src != f.left[seat] and _is_chow(m, f):
            return f"{format_meld(m)}: a chow is called only from the player on the left ({f.left[seat]} for {seat}), not from {src}"
    return None


def _seen_tiles(f: _Facts, ctx: WinContext) -> dict[str, tuple[Tile, ...]]:
    """Physical tiles outside the hand that the options name, by option: --visible, the dora
    and ura indicators (they lie in the dead wall) and --kita Norths."""
    out = {}
    if ctx.visible:
        out["--visible"] = tuple(ctx.visible)
    if ctx.indicators.get("dora"):
        out["--indicator"] = tuple(ctx.indicators["dora"])
    if ctx.ura:
        out["--ura"] = tuple(ctx.ura)
    if ctx.kita and f.kita is not None:
        out["--kita"] = (f.kita,) * ctx.kita
    return out


_COPIES: list = []


def _copies_in_play() -> Any:
    # analysis.wildcards, imported once on first use (an import statement in a per-hand
    # function runs the import machinery on every call)
    if not _COPIES:
        from mjtools.analysis.wildcards import copies_in_play

        _COPIES.append(copies_in_play)
    return _COPIES[0]


def copies_reason(hand: Hand, rs: Ruleset, ctx: WinContext, wild: frozenset[int] = frozenset(), reds_matter: bool = True) -> str | None:
    """More copies of a kind between the hand and the tiles the options name than the tile set
    has, or (`reds_matter`: where a red five changes the value) fewer red fives than four of a
    five must include."""
    # Every hand passes here and nearly all are fine: the counts are checked first without
    # building anything; a hand with too many copies of a kind, or more fives than the plain
    # ones (which may need a red one), is looked at in full for the message.
    try:
        f = rs._context_facts  # type: ignore[attr-defined]  # (_facts': an attribute read, no call)
    except AttributeError:
        f = _facts(rs)
    counts = hand.counts
    extra: dict[int, int] = {}
    if ctx.visible or ctx.indicators or ctx.ura or ctx.kita:
        for tiles in (ctx.visible, ctx.indicators.get("dora", ()), ctx.ura):
            for t in tiles:
                extra[t.kind] = extra.get(t.kind, 0) + 1
        if ctx.kita and f.kita is not None:
            extra[f.kita.kind] = extra.get(f.kita.kind, 0) + ctx.kita
        limits = _copies_in_play()(rs, ctx) if f.turned_copy else rs.copies
        for k, n in extra.items():
            if counts[k] + n > limits[k] and k not in wild:
                return _copies_reason(hand, rs, ctx, wild, reds_matter)
    if reds_matter:
        for five, _, _, plain in f.fives:
            if counts[five] + extra.get(five, 0) > plain:
                return _copies_reason(hand, rs, ctx, wild, reds_matter)
    return None


def _copies_reason(hand: Hand, rs: Ruleset, ctx: WinContext, wild: frozenset[int], reds_matter: bool) -> str | None:
    f = _facts(rs)
    named = _seen_tiles(f, ctx) if (ctx.visible or ctx.indicators or ctx.ura or ctx.kita) else {}
    fives = f.fives if reds_matter else ()
    counts = hand.counts
    extra: dict[int, int] = {}  # copies the options name, by kind
    if named:
        for tiles in named.values():
            for t in tiles:
                extra[t.kind] = extra.get(t.kind, 0) + 1
        limits = _copies_in_play()(rs, ctx) if f.turned_copy else rs.copies
        for k, n in sorted(extra.items()) if len(extra) > 1 else extra.items():
            if counts[k] + n > limits[k] and k not in wild:
                where = ", ".join(["the hand", *named][:-1]) + " and " + [*named][-1]
                return f"{where} hold {counts[k] + n} copies of {kind_str(k)}; {rs.id} has {limits[k]}"
    for five, suit, red, plain in fives:
        # Of the tile set's copies of a five, `red` are red: holding more than the plain ones
        # means holding a red one (written 0). A turned indicator kept out of play may be the
        # red one, so the tile set's copies count here, not the copies in play.
        total = counts[five] + extra.get(five, 0)
        need = total - plain
        if need <= 0:
            continue
        held = sum(1 for t in hand.all_tiles() if t.red and t.suit == suit) if hand.reds else 0
        held += sum(1 for tiles in named.values() for t in tiles if t.red and t.suit == suit)
        if need > held:
            return f"{total} of the {plain + red} 5{suit} include {need} red five{'s' if need > 1 else ''} in {rs.id}: write {'them' if need > 1 else 'it'} 0{suit}"
    return None


def flags_reason(hand: Hand, rs: Ruleset, ctx: WinContext) -> str | None:
    """Flags that contradict the hand or the variant's rules (read from the rule file)."""
    has = ctx.situations.get
    try:
        f = rs._context_facts  # type: ignore[attr-defined]
    except AttributeError:
        f = _facts(rs)
    if has("kong_bloom"):
        kita = f.kita is not None and (ctx.kita or hand.aside_tiles("kita"))
        if not kita and not any(m.kind in f.kong_kinds for m in hand.melds):
            return "--kong-bloom: a win on a kong's replacement tile needs a kong in the hand" + (" (or a North set aside)" if f.kita is not None else "")
    if has("robbing_kong") and hand.last is not None:
        k = hand.last.kind
        held = hand.counts[k] - 1
        if held > 0:
            return f"--robbing-kong: the robbed kong holds the other three {kind_str(k)}, but the hand holds {held} more"
    if ctx.tsumo and f.riichi and has("first_turn") and (has("riichi") or has("double_riichi")):
        flag = "--riichi" if has("riichi") else "--double-riichi"
        return f"{flag} with --first-turn --tsumo: riichi is declared with a discard, and a first-turn self-draw comes before one's first discard"
    dora = ctx.indicators.get("dora", ())
    if dora:
        if len(dora) > f.most_dora:
            return f"--indicator: {len(dora)} dora indicators; {rs.id} turns at most {f.most_dora} (one, and one per kong)"
        if len(ctx.ura) > len(dora):
            return f"--ura: {len(ctx.ura)} ura indicators under {len(dora)} dora indicator{'s' if len(dora) > 1 else ''}"
    return None


def check_context(hand: Hand, rs: Ruleset, ctx: WinContext, wild: frozenset[int] = frozenset(), reds_matter: bool = True) -> None:
    """Refuse (IllegalHandError, exit 2) a hand and options that cannot occur together: a meld
    from a seat that cannot give it, a fifth copy or a missing red five between the hand and
    the tiles the options name, a flag the hand or the rules contradict. Every command checks
    a hand through here (prepare for wait and shanten, scoring.score for score and simulate).
    Shapes do not see colours: wait and shanten (`reds_matter` false) read a 5 as any five."""
    why = source_reason(hand, rs, ctx.seat) if hand.melds else None
    why = why or copies_reason(hand, rs, ctx, wild, reds_matter)
    if not why and (ctx.situations or ctx.indicators):
        why = flags_reason(hand, rs, ctx)
    if why:
        raise IllegalHandError(why)


SUIT_GROUP = {"m": 0, "p": 1, "s": 2}


def prepare(hand: Hand, rs: Ruleset, ctx: WinContext, text: str = "") -> tuple[Hand, ShapeSpec]:
    """The hand checked against the ruleset with this hand's wildcards, and its shape spec."""
    from mjtools.analysis.wildcards import copies_in_play, stand_ins, wild_kinds

    wild = wild_kinds(rs, ctx)
    spec = rs.shape_spec(wild, stand_ins(rs, wild)) if wild else rs.base_spec
    hand = check_hand(hand, rs, text, wild=wild, copies=copies_in_play(rs, ctx))
    check_context(hand, rs, ctx, wild, reds_matter=False)
    return hand, spec


def unseen(hand: Hand, rs: Ruleset, ctx: WinContext) -> list[int]:
    """Copies of each kind not in the hand (melds, set-aside) nor in --visible."""
    from mjtools.analysis.wildcards import copies_in_play

    vis = visible_counts(ctx.visible)
    copies = copies_in_play(rs, ctx)
    return [max(0, copies[k] - hand.counts[k] - vis[k]) for k in range(50)]

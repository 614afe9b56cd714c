"""The per-hand shortcuts of scoring's common path (issue 14, tenth round), each against the way
it replaced, on seeded Chinese Official wins and on hands built to defeat it:

- `Hand._packed` / `packed_counts`: the counts as one integer, a byte per kind;
- validate.normalize: bonus tiles among the concealed ones ruled out from the counts and the
  groups set aside met before (`_AsidePlan`), and those groups passed by check_hand;
- the hand bits: flowers, fours, the kong counts and 和绝张 (`is_last_of_kind`);
- the settlement memo's shared, read-only ledger entries."""

from __future__ import annotations

import random

import pytest

from mcr_gen import mcr_case
from mjtools.errors import IllegalHandError
from mjtools.output import SharedDict
from mjtools.patterns.features import BIT, hand_features, is_last_of_kind
from mjtools.rules import load
from mjtools.rules.hand_options import build_context, normalize
from mjtools.rules.validate import check_hand
from mjtools.rules.validate import normalize as normalize_hand
from mjtools.scoring import score
from mjtools.scoring.fans import plan_for
from mjtools.tiles.context import WinContext
from mjtools.tiles.hand import Aside, Hand, Meld, packed_counts
from mjtools.tiles.kinds import Tile
from mjtools.tiles.notation import parse_hand, parse_tiles


def _wins(n: int, seed: str = "shortcuts") -> list[tuple[str, dict]]:
    rng = random.Random(seed)
    return [mcr_case(rng)[:2] for _ in range(n)]


def _packed_by_loop(counts: tuple[int, ...]) -> int:
    return sum(n << 8 * k for k, n in enumerate(counts))


def test_packed_counts_are_the_counts():
    texts = [text for text, _ in _wins(300)] + ["1m 9m 1p9p1s9s1234567z +1m", "1f23m456p789s11z{2f}+4m", "123m 456p 789s 11z 23s +4s"]
    for text in texts:
        hand = parse_hand(text)
        assert packed_counts(hand) == _packed_by_loop(hand.counts), text
        built = Hand(hand.concealed, hand.melds, hand.aside, hand.last)  # (no packed given: made on first use)
        assert built._packed == -1
        assert packed_counts(built) == _packed_by_loop(hand.counts) and built._packed >= 0


def _old_is_last_of_kind(hand: Hand, win: WinContext) -> bool:
    """is_last_of_kind as it was before the counts shortcut."""
    if not (win.situations or win.visible or hand.melds):
        return False
    last = hand.last
    if last is None:
        return False
    k = last.kind
    if any(t.kind == k for t in hand.concealed):
        return False
    if win.has("last_of_kind"):
        return True
    return sum(m.kinds.count(k) for m in hand.melds) + sum(1 for t in win.visible if t.kind == k) >= 3


def test_last_of_kind_from_the_counts_as_before():
    rng = random.Random(5)
    seen_true = 0
    for text, _ in _wins(400):
        hand = parse_hand(text)
        k = hand.last.kind
        for visible, situations in (((), {}), ((Tile(k),) * rng.randint(1, 3), {}), ((), {"last_of_kind": 1}), ((), {"kong_bloom": 1})):
            win = WinContext(visible=visible, situations=situations)
            got = is_last_of_kind(hand, win)
            assert got == _old_is_last_of_kind(hand, win), (text, visible, situations)
            seen_true += got
    assert seen_true > 20
    # Three copies shown in a meld: four held in all, found from the melds; not while a copy
    # is among the concealed tiles.
    pung = Meld(parse_tiles("111z"), "pung", source="S")
    shown = Hand(parse_tiles("123m456p789s5z"), (pung,), (), Tile(27))
    assert is_last_of_kind(shown, WinContext()) is True
    kept = Hand(parse_tiles("123m456p789s1z"), (Meld(parse_tiles("555z"), "pung", source="S"),), (), Tile(27))
    assert is_last_of_kind(kept, WinContext(visible=parse_tiles("111z"))) is False
    # A wildcard in a meld shows a kind it is not: three shown with only two held of the kind.
    wild_pung = Meld((Tile(27), Tile(27), Tile(27)), "pung", source="S", wild=(2,), physical=(Tile(42),))
    hand = Hand(parse_tiles("123m456p789s5z"), (wild_pung,), (), Tile(27))
    assert hand.counts[27] == 3
    assert is_last_of_kind(hand, WinContext()) is True == _old_is_last_of_kind(hand, WinContext())


def test_last_of_kind_bit_is_is_last_of_kind():
    """hand_features answers 和绝张 without the call where is_last_of_kind's early answers say
    no: the bit must still be exactly its answer, melded hands and wildcards in melds included."""
    rng = random.Random(6)
    uses = BIT["last_of_kind"]
    wild_pung = Meld((Tile(27), Tile(27), Tile(27)), "pung", source="S", wild=(2,), physical=(Tile(42),))
    hands = [parse_hand(text) for text, _ in _wins(400, "last")]
    hands += [Hand(parse_tiles("123m456p789s5z"), (wild_pung,), (), Tile(27)), Hand(parse_tiles("123m456p789s5z"), (Meld(parse_tiles("111z"), "pung", source="S"),), (), Tile(27))]
    seen = [0, 0]
    for hand in hands:
        k = hand.last.kind
        for visible, situations in (((), {}), ((Tile(k),) * rng.randint(1, 3), {}), ((), {"last_of_kind": 1}), ((), {"kong_bloom": 1})):
            win = WinContext(visible=visible, situations=situations)
            want = is_last_of_kind(hand, win)
            assert bool(hand_features(hand, win, uses=uses) & uses) == want, (str(hand), visible, situations)
            seen[want] += 1
    assert min(seen) > 20


@pytest.mark.parametrize("rid", ("mcr", "riichi", "guangdong-cantonese", "taiwan-16", "sichuan-xuezhan"))
def test_hand_bits_by_the_plans_uses_are_the_full_bits(rid):
    """hand_features reads what to look for from a table by the plan's `uses` (_NEEDS): every
    bit the plan uses must be the one all features give."""
    from test_fan_gates import _cases

    from mjtools.patterns.features import ALL_FEATURES, rank_set_bit

    rs = load(rid)
    uses = plan_for(rs).uses
    n = 0
    for text, opts in _cases(rid, random.Random(rid), 150):
        hand = parse_hand(text)
        win = build_context(normalize(opts, "score"), rs)
        got = hand_features(hand, win, uses=uses)
        assert got & uses == hand_features(hand, win, uses=ALL_FEATURES) & uses, text
        # (each looked-for bit against its own test, not hand_features again)
        assert got & uses & BIT["last_of_kind"] == (uses & BIT["last_of_kind"] if is_last_of_kind(hand, win) else 0), text
        assert got & uses & _COUNT_AND_KONG_BITS == _old_count_bits(hand) & uses, text
        assert got & uses & _tile_set_mask() == _tile_set_reference(hand) & uses, text
        n += 1
    assert n > 100
    # A rank set given out later is looked for under the uses that name it.
    bit = rank_set_bit(0b111)  # (全小's: given out already by the Chinese Official file, or now)
    hand = parse_hand("123m123p123s11m22s+3s")
    assert hand_features(hand, WinContext(), uses=bit) & bit


_COUNT_AND_KONG_BITS = sum(BIT[b] for b in ("flower", "flower4", "four", "kong_open0", "kong_open1", "kong_open2", "kong_hidden0", "kong_hidden1", "kong_hidden2"))


def _tile_set_mask() -> int:
    from mjtools.patterns.features import _RANK_SETS

    return BIT["reversible"] | _RANK_SETS[0]


_REVERSIBLE_KINDS = frozenset((9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31))  # 推不倒


def _tile_set_reference(hand: Hand) -> int:
    """The reversible and rank-set bits by the kinds held, one test per bit."""
    from mjtools.patterns.features import _RANK_SETS, RANK_SET_BIT

    if any(t.kind < 34 for a in hand.aside for t in a.tiles):
        return BIT["reversible"] | _RANK_SETS[0]
    kinds = {k for k in range(34) if hand.counts[k]}
    f = BIT["reversible"] if kinds <= _REVERSIBLE_KINDS else 0
    for ranks, bit in RANK_SET_BIT.items():
        if all(k < 27 and ranks >> (k % 9) & 1 for k in kinds):
            f |= bit
    return f


def _old_count_bits(hand: Hand) -> int:
    raw = bytes(hand.counts)
    f = 0
    flowers = sum(raw[34:42])
    if flowers:
        f |= BIT["flower"] | (BIT["flower4"] if flowers >= 4 else 0)
    if max(raw[:34]) >= 4:
        f |= BIT["four"]
    shown = hidden = 0
    for m in hand.melds:
        if m.is_kong:
            if m.concealed:
                hidden += 1
            else:
                shown += 1
    kong_bits = (("kong_open0", "kong_open1", "kong_open2"), ("kong_hidden0", "kong_hidden1", "kong_hidden2"))
    f |= BIT[kong_bits[0][shown]] if shown < 3 else 0
    f |= BIT[kong_bits[1][hidden]] if hidden < 3 else 0
    return f


def test_count_and_kong_bits_as_before():
    uses = plan_for(load("mcr")).uses
    mask = sum(BIT[b] for b in ("flower", "flower4", "four", "kong_open0", "kong_open1", "kong_open2", "kong_hidden0", "kong_hidden1", "kong_hidden2"))
    kinds = set()
    for text, _ in _wins(400, "bits"):
        for hand in (parse_hand(text), Hand(*parse_hand(text)._key())):  # the parser's packed counts, and none
            got = hand_features(hand, WinContext(), uses=uses) & mask
            assert got == _old_count_bits(hand), text
            kinds.add(got)
    assert len(kinds) > 8  # (flowers, fours and kongs of every count among the wins)
    # A kong written as four alike under another meld kind is still a kong.
    four = Meld(parse_tiles("5555m"), "irregular", source="S")
    hand = Hand(parse_tiles("123p456p789s1z"), (four,), (), Tile(27))
    assert hand_features(hand, WinContext(), uses=uses) & BIT["kong_open1"]


@pytest.fixture(scope="module")
def mcr():
    return load("mcr")


def test_normalize_moves_a_bonus_tile_the_counts_find(mcr):
    flowers = Aside(parse_tiles("12f"))
    plain = Hand(parse_tiles("123m456p789s1122z"), (), (flowers,), Tile(27))
    assert normalize_hand(plain, mcr) is plain  # every flower set aside: nothing to move
    assert normalize_hand(plain, mcr) is plain  # (the group met before)
    # A flower among the concealed tiles (a hand not from the parser): moved, whatever the group.
    mixed = Hand(parse_tiles("123m456p789s1122z3f"), (), (flowers,), Tile(27))
    got = normalize_hand(mixed, mcr)
    assert [t.kind for t in got.concealed] == [t.kind for t in plain.concealed]
    assert sorted(t.kind for a in got.aside for t in a.tiles) == [34, 35, 36]
    # The count of a hand that would be a tile short without the move.
    assert check_hand(mixed, mcr, need_last=True).concealed == got.concealed


def test_a_group_met_before_is_checked_alike(mcr):
    bad = Aside(parse_tiles("5m"))  # not a bonus tile, written as a flower group
    hand = Hand(parse_tiles("123m456p789s1122z"), (), (bad,), Tile(27))
    for _ in range(3):  # (the group is remembered after the first time)
        with pytest.raises(IllegalHandError, match="5m is not a bonus tile"):
            check_hand(hand, mcr, need_last=True)
    good = Aside(parse_tiles("1234f"))
    hand = Hand(parse_tiles("123m456p789s1122z"), (), (good,), Tile(27))
    assert check_hand(hand, mcr, need_last=True) is hand


def test_remembered_ledger_entries_are_shared_and_read_only(mcr):
    records = []
    for text, opts in _wins(200, "ledger"):
        rec = score(parse_hand(text), mcr, build_context(normalize(opts, "score"), mcr), text)
        if rec["valid"]:
            records.append(rec)
    entries = [e for rec in records for e in rec["ledger"]]
    assert entries and all(type(e) is SharedDict for e in entries)
    assert len({id(e) for e in entries}) < len(entries)  # the same entry in several records
    with pytest.raises(TypeError):
        entries[0]["amount"] = 0
    a, b = records[0]["ledger"], records[1]["ledger"]
    assert a is not b  # each record its own list
    assert sum(e["amount"] for e in a if e["to"] == "E") >= 0

"""独听 from per-group tables (`waits._other_wait_tables`) against the search it replaces
(`waits._other_wait_search`), on seeded hands at and near the shapes the answer turns on:
MCR wins and their neighbours one or two tiles away (melds, seven pairs, thirteen orphans,
全不靠, 组合龙, 九莲宝灯), ready hands with a random last tile, melded near-complete hands. Any
13 concealed tiles and a last one ask a fair question, so the hands need not be wins."""

import random
from types import SimpleNamespace

import pytest

from gen import complete_hand, melded_hand, mutate, ready_hand
from mcr_gen import KNIT_ORDERS, mcr_win
from mjtools.analysis import waits
from mjtools.rules import available, load
from mjtools.tiles.kinds import kinds_str
from mjtools.tiles.notation import parse_hand

WITH_PLAN = sorted(rs.id for rs in available() if waits._table_plan(rs.base_spec) is not None)


def _texts(rng: random.Random, n: int, spec):
    """Hand texts (hand-size concealed-or-melded tiles + the last one) of the spec's kinds."""
    kinds = sorted(k for k in spec.kinds if k < 34)
    made = 0
    while made < n:
        r = rng.random()
        if spec.hand_size != 13 or kinds != list(range(34)):
            # other hand sizes and tile sets: complete hands less a tile, a tile or two changed
            base = complete_hand(rng, spec.hand_size // 3, kinds) if r < 0.7 else None
            if base is None:
                text = melded_hand(rng, rng.randint(1, 3), spec.hand_size, kinds, complete=True)
                hand = parse_hand(text)
                if "+" in text or len(hand.concealed) % 3 != 2:
                    continue
                tiles = sorted(t.kind for t in hand.concealed)
                last = tiles.pop(rng.randrange(len(tiles)))
                text = kinds_str(tiles) + text[text.index("(") :] + "+" + kinds_str([last])
            else:
                last = base.pop(rng.randrange(len(base)))
                base = mutate(rng, base, rng.choice((0, 0, 1, 2)))
                if base.count(last) > 3:
                    continue
                text = kinds_str(base) + "+" + kinds_str([last])
            if not {t.kind for t in parse_hand(text).all_tiles()} <= spec.kinds:
                continue
        elif r < 0.1:
            # 组合龙 with its set and pair drawn from the straight's own kinds (eight kinds held)
            order = rng.choice(KNIT_ORDERS)
            straight = [9 * s + start + 3 * i for s, start in zip(order, (0, 1, 2)) for i in range(3)]
            pung, pair = rng.sample(straight, 2)
            tiles = sorted(straight + [pung] * 3 + [pair] * 2)
            tiles.pop(rng.randrange(len(tiles)))
            tiles = mutate(rng, tiles, rng.choice((0, 0, 1)))
            last = rng.choice(straight) if rng.random() < 0.7 else rng.randrange(34)  # (not what it waits on)
            if tiles.count(last) > 3:
                continue
            text = kinds_str(tiles) + "+" + kinds_str([last])
        elif r < 0.5:
            w = mcr_win(rng)
            if w is None:
                continue
            if rng.random() < 0.5:
                # a neighbour: the concealed part changed by a tile or two, the last kept
                rest = list(w.concealed)
                rest.remove(w.win)
                c = mutate(rng, rest, rng.choice((1, 1, 2)))
                held = [c.count(k) + sum(t.count(k) for _, t, _ in w.melds) + (k == w.win) for k in range(34)]
                if max(held) > 4:
                    continue
                w.concealed = sorted(c + [w.win])
            text = w.text()
        elif r < 0.8:
            hand = ready_hand(rng)
            free = [k for k in range(34) if hand.count(k) < 4]
            last = rng.choice(free)
            # a North set aside now and then (a tile of the 34 kinds held but not concealed)
            kita = "{kita=4z}" if rng.random() < 0.2 and hand.count(30) + (last == 30) < 4 else ""
            text = kinds_str(hand) + kita + "+" + kinds_str([last])
        else:
            text = melded_hand(rng, rng.randint(1, 3), complete=True)
            if "+" in text:
                continue
            hand = parse_hand(text)
            if len(hand.concealed) % 3 != 2:
                continue
            last = rng.choice(hand.concealed)
            tiles = [t.kind for t in hand.concealed]
            tiles.remove(last.kind)
            text = kinds_str(sorted(tiles)) + text[text.index("(") :] + "+" + kinds_str([last.kind])
        made += 1
        yield text


@pytest.mark.parametrize("rid", WITH_PLAN)
def test_other_wait_from_tables_matches_the_search(rid):
    spec = load(rid).base_spec
    plan = waits._table_plan(spec)
    n = 3000 if rid == "mcr" else 300
    rng = random.Random(f"sole-wait-tables:{rid}")
    found = {True: 0, False: 0}
    for text in _texts(rng, n, spec):
        hand = parse_hand(text)
        if len(hand.concealed) + 3 * len(hand.melds) != spec.hand_size:
            continue
        ctx = SimpleNamespace(hand=hand, spec=spec)
        win = hand.last.kind
        for cap in (4, 99):
            got = waits._other_wait_tables(ctx, plan, win, hand.counts, cap)
            assert got == waits._other_wait_search(ctx, spec, win, hand.counts, cap), (text, cap)
            found[got] += 1
    # both answers occur, and often (the hands are near the shapes, not random)
    assert min(found.values()) > n // 10, found


@pytest.mark.parametrize("rid", [rid for rid in WITH_PLAN if waits._table_plan(load(rid).base_spec)[5]])
def test_winning_group_alone_on_a_standard_reading(rid):
    """Given a standard reading of the tiles, `_other_wait_tables` looks up the winning tile's
    group alone where that group, less the winning tile, does not split: its two mends or-ed
    are `_standard_waits`' answer (the other groups split as the reading shows), and the
    answer is the search's; on every hand above with a standard reading."""
    from mjtools.analysis.decompose import decompositions
    from mjtools.analysis.group_waits import _standard_waits

    spec = load(rid).base_spec
    plan = waits._table_plan(spec)
    rng = random.Random(f"sole-wait-group:{rid}")
    alone = found = 0
    n = 2000 if rid == "mcr" else 300
    for text in _texts(rng, n, spec):
        hand = parse_hand(text)
        if len(hand.concealed) + 3 * len(hand.melds) != spec.hand_size:
            continue
        if not any(d.form == "standard" for d in decompositions(hand, spec)):
            continue
        win = hand.last.kind
        c = 0
        for t in hand.concealed:
            c += 1 << 8 * t.kind
        g = min(win // 9, 3)
        x = c >> 72 * g & ((1 << 72) - 1)
        f = waits._GROUP_GET[g](x) or waits._facts_of(g, x)
        if f[0] == 1:
            assert f[1] | f[2] == _standard_waits(c), text
            alone += 1
        ctx = SimpleNamespace(hand=hand, spec=spec)
        for cap in (4, 99):
            got = waits._other_wait_tables(ctx, plan, win, hand.counts, cap, "standard")
            assert got == waits._other_wait_search(ctx, spec, win, hand.counts, cap), (text, cap)
            found += got
    # most standard readings take the one look-up; other waits are found on many
    assert alone > n // 10 and found > n // 20, (alone, found)


def test_mcr_uses_the_tables():
    plan = waits._table_plan(load("mcr").base_spec)
    assert plan is not None and plan[4] is not None  # with its irregular forms


def test_role_from_chows_and_pair_matches_wait_role():
    """Ctx's wait role, worked out from the reading's chows and one pair while its features are
    set, against wait_role over every block, on the readings of seeded MCR wins."""
    from mjtools.analysis.blocks import PAIR
    from mjtools.analysis.decompose import decompositions
    from mjtools.patterns.ctx import Ctx, wait_role
    from mjtools.patterns.features import _WANTS_ROLE
    from mjtools.tiles.context import WinContext

    spec = load("mcr").base_spec
    rng = random.Random("role-of")
    roles: dict = {}
    checked = 0
    while checked < 1500:
        w = mcr_win(rng)
        if w is None:
            continue
        hand = parse_hand(w.text())
        for d in decompositions(hand, spec):
            if sum(1 for b in d.blocks if b.shape == PAIR) > 1:
                continue  # (Ctx asks wait_role itself there)
            got = Ctx(hand, d, WinContext(tsumo=w.tsumo), hand_bits=_WANTS_ROLE)._role  # (the role bits wanted: set in __init__)
            assert got == wait_role(hand, d.blocks), w.text()
            roles[got] = roles.get(got, 0) + 1
            checked += 1
    assert set(roles) == {"edge", "closed", "pair", None}, roles

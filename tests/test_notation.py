import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjtools.errors import NotationError
from mjtools.tiles.hand import Hand, Meld  # noqa: F401  (eval(repr(...)) needs them)
from mjtools.tiles.kinds import Tile
from mjtools.tiles.notation import canonical, parse_hand, parse_tile


@pytest.mark.parametrize(
    "text, canon",
    [
        ("123m456p77s+3m", "123m456p77s+3m"),
        ("77s456p123m+3m", "123m456p77s+3m"),
        ("123m(555z)+3m", "123m(555z)+3m"),
        ("123m(555z@W)+3m", "123m(555z@W)+3m"),
        ("(5555z@W/added)[1111p]123m", "123m(5555z@W/added)[1111p]"),
        ("34056m", "34056m"),
        ("1m0m", "1m0m"),
        ("123m .555z@W :1111p +3m", "123m(555z@W)[1111p]+3m"),
        ("15f123m", "123m{15f}"),
        ("{kita=44z}123m", "123m{kita=44z}"),
        ("(55x5z=7z@E)", "(55x5z=7z@E)"),
        ("123m 456p", "123m456p"),
        ("(312m)", "(123m)"),
    ],
)
def test_canonical(text, canon):
    assert canonical(text) == canon
    assert canonical(canon) == canon


@pytest.mark.parametrize(
    "bad, pos",
    [
        ("123x", 3),
        ("m123", 0),
        ("10m", 0),
        ("8z", 0),
        ("9f", 0),
        ("0z", 0),
        ("55555m", 4),
        ("[123m]", 0),
        ("(123m", 0),
        ("123m+", 4),
        ("123m+45m", 5),
        ("1m)", 2),
        ("12", 0),
        ("(12m)", 0),
        ("123m+4m5m", None),
    ],
)
def test_refused_with_position(bad, pos):
    with pytest.raises(NotationError) as e:
        parse_hand(bad)
    if pos is not None:
        assert e.value.position == pos
    assert str(pos + 1 if pos is not None else "") in e.value.one_line()
    assert "\n" not in e.value.one_line()


def test_meld_kinds():
    h = parse_hand("(123m)(555z@W)(6666z@W)(5555p@N/added)[1111s]")
    assert [m.kind for m in h.melds] == ["chow", "pung", "exposed_kong", "added_kong", "concealed_kong"]
    assert h.melds[1].source == "W"
    assert not h.is_concealed
    assert parse_hand("123m[1111s]").is_concealed
    assert parse_hand("(1234z/liang)").melds[0].kind == "liang"


def test_sizes_and_counts():
    h = parse_hand("123m456p789s1122z+3z")
    assert h.size == 14
    assert h.counts[27] == 2
    h = parse_hand("123m(555z)[1111p]+3m")
    assert h.size == 3 + 3 + 3 + 1
    assert parse_hand("15f123m").size == 3


def test_values_are_frozen_and_hashable():
    h = parse_hand("123m456p77s+3m")
    assert hash(h) == hash(parse_hand("77s456p123m+3m"))
    assert eval(repr(h)) == h
    t = Tile.parse("0p")
    assert str(t) == "0p" and t.red and t.kind == 13
    assert eval(repr(t)) == t
    m = Meld.parse("(555z@W)")
    assert eval(repr(m)) == m
    with pytest.raises(AttributeError):
        h.last = None  # type: ignore[misc]


def test_parse_tile():
    assert parse_tile("5m") == Tile(4)
    with pytest.raises(NotationError):
        parse_tile("5m6m")


SUITED = st.sampled_from([f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)])


@st.composite
def hands(draw):
    pool = [k for k in range(34) for _ in range(4)]
    n = draw(st.integers(0, 14))
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n, unique=True))
    kinds = sorted(pool[i] for i in idx)
    from mjtools.tiles.kinds import kind_str

    tiles = [kind_str(k) for k in kinds]
    draw(st.randoms()).shuffle(tiles)
    melds = []
    counts = {k: kinds.count(k) for k in kinds}
    for k in draw(st.lists(st.integers(0, 33), max_size=3, unique=True)):
        if counts.get(k, 0) == 0:
            seat = draw(st.sampled_from(["", "@E", "@S", "@W", "@N"]))
            melds.append(f"({kind_str(k)[0] * 3}{kind_str(k)[1]}{seat})")
            counts[k] = 3
    last = draw(st.sampled_from([""] + ["+" + t for t in tiles[:1]]))
    if last:
        tiles = tiles[1:]
    return "".join(tiles) + "".join(melds) + last


@settings(max_examples=300, deadline=None)
@given(hands())
def test_round_trip(text):
    h = parse_hand(text)
    s = str(h)
    assert parse_hand(s) == h
    assert str(parse_hand(s)) == s


def test_shared_runs_melds_and_groups_read_as_on_first_sight():
    """Runs, bracketed melds and {...} groups are parsed once and then shared: a text read
    again (in any hand, next to anything) gives what a first reading gives, and a broken text
    is still refused with its position after a good one was kept."""
    import mjtools.tiles.notation as nt

    texts = ["123m(456p@W)(7777s@N/added){15f}+1z", "99m(456p@W)[1111z]{kita=44z}+9m", "0m55m(406p@S)(0s55s@E)1s1s+1s", "123m[1111z](456p@W){15f}55s+5s"]
    firsts = []
    for t in texts:
        nt._RUNS.clear(), nt._MELDS.clear(), nt._ASIDES.clear()
        firsts.append(parse_hand(t))
    for _ in range(2):
        for t, first in zip(texts, firsts):
            again = parse_hand(t)
            assert again == first and str(again) == str(first)
            assert [type(m.tiles) for m in again.melds] == [tuple] * len(again.melds)
    for bad, pos in (("123m(456p@W+1z", 11), ("123m(456p@W)(45p)+1z", 12), ("12m{15x}+1z", 6), ("(456p@W)(456p@W)(45p@W+1z", 22)):
        with pytest.raises(NotationError) as e:
            parse_hand(bad)
        assert e.value.position == pos, (bad, e.value.position)

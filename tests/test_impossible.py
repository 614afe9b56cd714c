"""Hands and situations that cannot occur are refused (exit 2, one line naming the conflict) by
every command, in every variant: a meld from a seat that cannot give it, a fifth copy or a
missing red five between the hand and the tiles the options name, a flag the hand or the rules
contradict. A possible hand that is not a legal win is still an answer (valid false, exit 0)."""

import random

import pytest

from gen import winning_case
from mjtools.tiles.hand import CHOW
from mjtools.tiles.kinds import kind_str
from mjtools.tiles.notation import parse_hand

SEATS = "ESWN"


def _args(opts: dict) -> list[str]:
    return [f"--{k}" if v is True else f"--{k}={v}" for k, v in opts.items()]


def _refused(r, *words: str) -> None:
    lines = r.stderr.strip().splitlines()
    assert r.exit_code == 2 and len(lines) == 1 and lines[0].startswith("mjtools: error:"), (r.exit_code, r.stderr, r.stdout)
    assert "Traceback" not in r.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])


# -- the cases and the worked examples that became refusals --------------------------------


@pytest.mark.parametrize("args, words", [
    (["(555z@S)123m456p789s1z+1z", "--seat", "S"], ["(555z@S)", "own seat"]),
    (["555z(234m@W)456p789s1z+1z", "--seat", "S"], ["(234m@W)", "left (E for S)"]),
    (["-r", "guangdong-cantonese", "1p(222p@N)(444p@W)(123p@N)(555p@N)+1p", "--seat", "S", "--tsumo"], ["(123p@N)", "left"]),
    (["[5555m]123p456p78s11z+9s"], ["red five", "0m"]),
    (["123m456p78s11z(555z@S)+9s", "--tsumo", "--kong-bloom"], ["--kong-bloom", "kong"]),
    (["-r", "sichuan-xuezhan", "(2222m@E/added)345m678m999p5p+5p", "--seat", "S", "--from", "W", "--robbing-kong"], ["--robbing-kong", "5p"]),
    (["123m456p789s123s1z+1z", "--riichi", "--first-turn", "--tsumo"], ["--riichi", "--first-turn"]),
    (["123m456p789s123s1z+1z", "--tsumo", *[f"--indicator={t}" for t in ("2m", "3m", "4m", "6m", "7m", "8m")]], ["6 dora indicators", "at most 5"]),
    (["123m456p789s123s1z+1z", "--tsumo", "--riichi", "--indicator=2m", "--ura=3m", "--ura=4m"], ["--ura", "2 ura"]),
    (["-r", "riichi-sanma", "111m999m345p2p(555z@N)+2p", "--seat", "S", "--from", "W"], ["no N seat"]),
    # The worked examples that chi_left_only once answered with valid: false.
    (["-r", "changsha", "456m789p234s5s(123m@W)+5s", "--seat", "S", "--from", "W"], ["(123m@W)", "left"]),
    (["-r", "nanchang", "456p789s124z5z(123m@W)+5z", "--seat", "S", "--from", "W", "--indicator", "wild=9p"], ["(123m@W)", "left"]),
    (["-r", "wenzhou", "456m789p123s45s66z(123m@W)+6s", "--seat", "S", "--from", "W", "--indicator", "wild=3z"], ["(123m@W)", "left"]),
    (["-r", "zuanpai", "456p789s11s23s(123m@N)+4s", "--seat", "S", "--from", "W", "--indicator", "wild=8p"], ["(123m@N)", "left"]),
])
def test_refused_with_one_line(run, args, words):
    _refused(run("score", *args), *words)


def test_visible_fifth_copy_refused_by_every_command(run):
    for cmd, hand in (("wait", "123m456p789s1122z"), ("shanten", "123m456p789s1122z"), ("score", "123m456p789s11z22z+2z")):
        _refused(run(cmd, hand, "--visible", "1z1z1z"), "--visible", "5 copies of 1z")


def test_the_same_hands_from_possible_seats_are_answers(run):
    assert run("score", "(555z@E)123m456p789s1z+1z", "--seat", "S").exit_code == 0
    assert run("score", "555z(234m@E)456p789s1z+1z", "--seat", "S").exit_code == 0
    assert run("score", "[0555m]123p456p78s11z+9s").exit_code == 0
    assert run("score", "123m456p78s11z[5555z]+9s", "--tsumo", "--kong-bloom").exit_code == 0
    assert run("score", "-r", "riichi-sanma", "111m999m345p2p(555z@W){kita=4z}+2p", "--seat", "S", "--tsumo", "--kong-bloom").exit_code == 0
    assert run("score", "123m456p789s123s1z+1z", "--double-riichi", "--tsumo", "--indicator=2m", "--ura=3m").exit_code == 0


# -- the property: random legal hands made impossible ----------------------------------------------

# (variant, sets, kinds, chi, seats)
VARIANTS = [
    ("riichi", 4, range(34), True, SEATS),
    ("guangdong-cantonese", 4, range(34), True, SEATS),
    ("taiwan-16", 5, range(34), True, SEATS),
    ("riichi-sanma", 4, [0, 8] + list(range(9, 34)), False, "ESW"),
]


def _cases(seed: int, n: int):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        rules, sets, kinds, chi, seats = VARIANTS[len(out) % len(VARIANTS)]
        case = winning_case(rng, sets=sets, kinds=kinds, chi=chi)
        if case is None:
            continue
        text, opts = case
        if opts["seat"] not in seats or opts.get("from", "E") not in seats or any(f"@{s}" in text for s in SEATS if s not in seats):
            continue
        out.append((rules, seats, text, opts))
    return out


def _bad_source(text: str, seat: str, seats: str, rng: random.Random) -> str | None:
    """The hand with one meld's source made impossible: the player's own seat, a seat the game
    lacks, or, for a chow, another player than the one on the left."""
    hand = parse_hand(text)
    if not hand.melds:
        return None
    m = rng.choice(hand.melds)
    old = f"@{m.source})"
    left = seats[(seats.index(seat) - 1) % len(seats)]
    choices = [seat] + [s for s in SEATS if s not in seats]
    if m.kind == CHOW:
        choices += [s for s in seats if s not in (seat, left)]
    shown = str(m)
    i = text.index(shown)
    return text[:i] + shown.replace(old, f"@{rng.choice(choices)})") + text[i + len(shown):]


def test_impossible_variations_of_legal_hands_refused(run, rng):
    """For random legal winning hands (melds with possible sources): the hand itself is an
    answer (exit 0); an impossible meld source, a fifth copy through --visible, or --kong-bloom
    on a hand without a kong is refused with exit 2, by score, and the first two by wait and
    shanten on the hand before its winning tile."""
    seen = {"source": 0, "visible": 0, "kong": 0}
    for rules, seats, text, opts in _cases(rng.randrange(10**9), 48):
        args = ["-r", rules, *_args(opts)]
        assert run("score", text, *args).exit_code == 0, (rules, text, opts)
        before = text.split("+")[0]
        seat = {k: v for k, v in opts.items() if k == "seat"}
        bad = _bad_source(text, opts["seat"], seats, rng)
        if bad:
            seen["source"] += 1
            _refused(run("score", bad, *args))
            _refused(run("wait", bad.split("+")[0], "-r", rules, *_args(seat)))
        hand = parse_hand(text)
        kind = rng.choice([t.kind for t in hand.all_tiles()])
        visible = kind_str(kind) * (5 - hand.counts[kind])
        seen["visible"] += 1
        _refused(run("score", text, *args, "--visible", visible), "--visible")
        fifth = kind_str(kind) * (5 - parse_hand(before).counts[kind])
        _refused(run("shanten", before, "-r", rules, *_args(seat), "--visible", fifth), "--visible")
        if not any(m.is_kong for m in hand.melds):
            seen["kong"] += 1
            tsumo = {k: v for k, v in opts.items() if k != "from"} | {"tsumo": True}
            _refused(run("score", text, "-r", rules, *_args(tsumo), "--kong-bloom"), "--kong-bloom")
    assert all(n >= 10 for n in seen.values()), seen


def test_shanten_batch_refuses_a_fifth_copy_through_visible(run, tmp_path):
    """The fast batch path refuses what the per-line path refuses (both numpy and pure Python)."""
    f = tmp_path / "in.txt"
    f.write_text("123m456p789s1122z\n123m456p789s2233z\n123m456p789s1123z+4z\n")
    import json

    r = run("shanten", "--input", str(f), "--visible", "1z1z1z", "-f", "jsonl")
    recs = [json.loads(x) for x in r.stdout.splitlines()]
    assert r.exit_code == 1 and [("error" in x) for x in recs] == [True, False, True]
    assert "5 copies of 1z" in recs[0]["error"]

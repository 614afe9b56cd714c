"""The fast shanten batch (`batch.py`, numpy and pure-Python backends) against the per-line path.

Same bytes out for every format, same exit status, on seeded files that mix plain hands
(canonical or not, hand size or one more) with everything the fast path must hand over:
JSON cases, melds, red fives, blank and comment lines, spaces, CRLF, non-ASCII, errors.
"""

import json
import random

import pytest

from gen import complete_hand, mixed_hand, mutate, orphans_hand, random_hand, ready_hand, seven_pairs_hand
from mjtools.analysis import fast
from mjtools.batch import plain
from mjtools.tiles.kinds import kinds_str

ODD = [
    "", "   ", "# a comment", "#123m", "123m 456p789s1122z", " 123m456p789s1122z", "123m456p789s1122z ", "\t123m456p789s11z22z",
    "123m(555z@W)456p789s9s+9s", "(5555z@W/added)[1111p]123m44s6s+5s", "0m23m456p789s1122z", "1230m456p789s122z",
    "55555m456p789s11z", "123m456p789s1188z", "123m456p789s1100z", "123x", "m12", "123m456p789s1122", "mpsz",
    "123m456p789s112z", "123m456p789s112233z", "10m23m456p789s112z", "１２３m456p789s1122z", "123m456p789s1122z+3z",
    '{"hand": "123m456p789s1122z", "visible": "1z"}', '{"hand": "1289m3457p12368s4z"}', '{"hand": 5}', "{not json",
    '{"hand": "11223344556677p", "rules": "riichi"}', '{"hand": "123m456p789s1122z", "rules": "nosuch"}',
    "1f123m456p789s1122z", "1111m2222m3333m4z", "1111m", "123m456p789s1122zz", "1m1m1m2m3m4m5m6m7m8m9m9m9m",
]


def plain_line(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.35:
        kinds = mixed_hand(rng, 13)
    elif r < 0.55:
        kinds = mixed_hand(rng, 14)
    elif r < 0.7:
        kinds = ready_hand(rng)
    elif r < 0.78:
        kinds = mutate(rng, seven_pairs_hand(rng), rng.randint(0, 2))[:13]
    elif r < 0.83:
        kinds = orphans_hand(rng)[: 13 + rng.randint(0, 1)]
    else:
        kinds = random_hand(rng, 13 + rng.randint(0, 1))
    if rng.random() < 0.15:  # written out of canonical order, or with a suit letter repeated
        rng.shuffle(kinds)
        return "".join(kinds_str([k]) for k in kinds)
    return kinds_str(kinds)


def batch_file(tmp_path, seed: int, n: int) -> str:
    rng = random.Random(seed)
    lines = [plain_line(rng) if rng.random() < 0.8 else rng.choice(ODD) for _ in range(n)]
    data = "".join(line + ("\r\n" if rng.random() < 0.1 else "\n") for line in lines).rstrip("\n")  # no final newline
    f = tmp_path / f"batch{seed}.txt"
    f.write_bytes(data.encode("utf-8"))
    return str(f)


def outputs(run, path: str, fmt: str, *extra: str):
    r = run("shanten", "--input", path, "-f", fmt, *extra)
    assert "Traceback" not in r.stderr
    return r.exit_code, r.stdout


@pytest.fixture
def per_line(monkeypatch):
    """Switch the batch path off (the per-line path answers, fast engine per hand)."""

    def switch():
        monkeypatch.setattr(plain, "run_shanten", lambda *a, **k: None)

    return switch


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "json", "table"])
def test_fast_batch_equals_per_line(run, tmp_path, monkeypatch, per_line, fmt):
    path = batch_file(tmp_path, 7, 400)
    extra = ("--visible", "1z5p5p9s") if fmt in ("jsonl", "csv") else ()
    fed: list[int] = []
    try:
        from mjtools.batch import vectorised
    except ImportError:  # no numpy: both runs below take the pure-Python path
        fed = [1]
    else:
        real_feed = vectorised.Vectorised.feed
        monkeypatch.setattr(vectorised.Vectorised, "feed", lambda self, lines, first: fed.append(first) or real_feed(self, lines, first))
    got_np = outputs(run, path, fmt, *extra)
    assert fed == [1]  # the numpy backend answered
    monkeypatch.setattr(plain, "USE_NUMPY", False)
    got_py = outputs(run, path, fmt, *extra)
    per_line()
    want = outputs(run, path, fmt, *extra)
    assert got_np == want
    assert got_py == want
    if fmt == "jsonl":
        recs = [json.loads(x) for x in want[1].splitlines()]
        assert want[0] == 1 and any("error" in r for r in recs) and any("discards" in r for r in recs)


def test_fast_batch_equals_general_engine(run, tmp_path, monkeypatch, per_line):
    """The per-line path on the general engine (no fast path anywhere) gives the same bytes."""
    path = batch_file(tmp_path, 8, 120)
    got = outputs(run, path, "jsonl")
    per_line()
    monkeypatch.setattr(fast, "engine_for", lambda spec: None)
    assert outputs(run, path, "jsonl") == got


def test_house_rules_and_options(run, tmp_path, per_line, monkeypatch):
    """A user rule file, -o options and --void (the per-line path answers that one) agree too."""
    path = batch_file(tmp_path, 9, 150)
    cases = [("-r", "examples/house-kuitan-off.yaml"), ("-o", "kiriage=true"), ("--void", "m"), ("-r", "nosuch"), ("--wild", "5z")]
    got = [outputs(run, path, "jsonl", *c) for c in cases]
    per_line()
    assert [outputs(run, path, "jsonl", *c) for c in cases] == got


def test_sanma_like_rule_file(run, tmp_path, per_line):
    """Partial suits (1m and 9m only) use the honor tables; tiles outside the set are errors."""
    f = tmp_path / "sanma-test.yaml"
    f.write_text("id: sanma-test\nextends: riichi\nplayers: 3\ntiles:\n  exclude: [2m, 3m, 4m, 5m, 6m, 7m, 8m]\n", encoding="utf-8")
    rng = random.Random(10)
    kinds = sorted(k for k in range(34) if not 1 <= k <= 7)
    lines = [kinds_str(random_hand(rng, 13 + i % 2, kinds)) for i in range(150)]
    lines += [kinds_str(complete_hand(rng, 4, kinds) or [0]) for _ in range(30)] + ["123m456p789s1122z"]
    path = tmp_path / "sanma.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    got = outputs(run, str(path), "jsonl", "-r", str(f))
    assert '"rules": "sanma-test"' in got[1] and "not in the sanma-test tile set" in got[1]
    per_line()
    assert outputs(run, str(path), "jsonl", "-r", str(f)) == got


def test_stdin_and_empty_input(run, per_line):
    text = "123m456p789s1122z\n\n# c\n1289m3457p12368s4z\n"
    got = [run("shanten", "-", "-f", "jsonl", input=text).stdout, run("shanten", "--input", "-", "-f", "csv", input="").stdout]
    per_line()
    assert [run("shanten", "-", "-f", "jsonl", input=text).stdout, run("shanten", "--input", "-", "-f", "csv", input="").stdout] == got


def test_not_utf8_line_is_an_error_record(run, tmp_path):
    f = tmp_path / "bad.txt"
    f.write_bytes(b"123m456p789s1122z\n\xff\xfe123m\n123m456p789s1122z\n")
    r = run("shanten", "--input", str(f), "-f", "jsonl")
    recs = [json.loads(x) for x in r.stdout.splitlines()]
    assert r.exit_code == 1 and [x["line"] for x in recs] == [1, 2, 3]
    assert "UTF-8" in recs[1]["error"] and "shanten" in recs[2]


def test_canonical_of_matches_the_formatter():
    from mjtools.tiles.notation import canonical

    rng = random.Random(11)
    for _ in range(300):
        kinds = random_hand(rng, rng.randint(1, 14))
        counts = [kinds.count(k) for k in range(34)]
        assert plain.canonical_of(counts) == canonical(kinds_str(kinds))


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_all_plain_chunk(run, tmp_path, monkeypatch, per_line, fmt):
    """A file of nothing but plain canonical hands takes the one-comprehension path."""
    rng = random.Random(12)
    f = tmp_path / "plain.txt"
    f.write_text("".join(kinds_str(mixed_hand(rng, 13)) + "\n" for _ in range(300)), encoding="utf-8")
    got = [outputs(run, str(f), fmt, "--visible", "5m5m")]
    monkeypatch.setattr(plain, "USE_NUMPY", False)
    got.append(outputs(run, str(f), fmt, "--visible", "5m5m"))
    per_line()
    want = outputs(run, str(f), fmt, "--visible", "5m5m")
    assert got == [want, want]
    # A hand holding three or four 5m beside the two shown cannot exist: an error record.
    assert want[0] == int("copies of 5m" in want[1])

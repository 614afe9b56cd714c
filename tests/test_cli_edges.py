"""What a new user hits first on the command line: joined hand words, winning tiles shown as
improvements, --tsumo / --ron on wait, help and exit statuses, errors on stderr."""

import json
import random

from gen import ready_hand
from mjtools.tiles.kinds import kinds_str


def _ready_hands(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    return [kinds_str(ready_hand(rng)) for _ in range(n)]


def test_joined_words_error_says_joined(run, rng):
    for _ in range(20):
        a, b = (kinds_str(sorted(rng.sample([k for k in range(34) for _ in range(4)], 13))) for _ in range(2))
        for cmd in ("shanten", "wait"):
            r = run(cmd, a, b)
            assert r.exit_code == 2
            err = r.stderr.strip()
            assert len(err.splitlines()) == 1 and "2 words given were joined" in err and "--input" in err, err


def test_joined_words_of_one_hand_still_work(run):
    r = run("shanten", "123m456p", "789s1122z", "-f", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["hand"] == "123m456p789s1122z"
    # One word: the plain error, no word about joining.
    r = run("shanten", "123m456p789s1122z123m")
    assert r.exit_code == 2 and "joined" not in r.stderr


def test_usage_says_one_hand(run):
    for cmd in ("score", "wait", "shanten"):
        out = run(cmd, "--help").output
        assert "[HAND-PART]..." in out and "--input" in out


def test_improvements_never_list_a_winning_draw(run, rng):
    """A draw that completes the hand as a legal self-draw wins: it is not an improvement."""
    seen = 0
    for hand in _ready_hands(rng.randrange(10**9), 40):
        rec = json.loads(run("wait", hand, "-f", "json").stdout)
        wins = {k for k, w in rec["winning"].items() if w["tsumo"]}
        assert not wins & {i["draw"] for i in rec["improvements"]}, hand
        seen += bool(rec["improvements"])
    assert seen


def test_orphans_wait_improves_on_nothing(run):
    r = run("wait", "19m19p19s1234566z")
    assert "improves on" not in r.stdout
    assert "wins on: 7z" in run("shanten", "19m19p19s1234566z").stdout


def test_tsumo_and_ron_restrict_winning(run, rng):
    for hand in _ready_hands(rng.randrange(10**9), 15):
        both = json.loads(run("wait", hand, "--seat", "S", "-f", "json").stdout)
        for way in ("tsumo", "ron"):
            one = json.loads(run("wait", hand, "--seat", "S", f"--{way}", "-f", "json").stdout)
            assert one["waits"] == both["waits"]
            assert one["winning"] == {k: {way: w[way]} for k, w in both["winning"].items()}


def test_shanten_ignores_win_context(run, rng):
    for hand in _ready_hands(rng.randrange(10**9), 10):
        base = json.loads(run("shanten", hand, "-f", "json").stdout)
        for extra in (["--tsumo"], ["--ron"], ["--seat", "W", "--round", "S"], ["--indicator", "5z"]):
            assert json.loads(run("shanten", hand, *extra, "-f", "json").stdout) == base

"""Fuzzing: any input is answered (exit 0) or refused with one line (exit 2); never a traceback."""

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
ALPHABET = "0123456789mpszfjx()[]{}+.:@/=ESWN kita"
VALID = ["123m456p789s1122z", "1289m3457p12368s+4z", "234567m234p5688s+7s", "123m(555z@W)456p78s+9s", "11223344556677p", "119m19p19s1234567z", "(5555z@W/added)[1111p]123m44s+4s"]


def mutate(rng: random.Random, text: str) -> str:
    t = list(text)
    for _ in range(rng.randint(1, 4)):
        op = rng.random()
        i = rng.randrange(len(t) + 1)
        if op < 0.4 and t:
            t.pop(min(i, len(t) - 1))
        elif op < 0.8:
            t.insert(i, rng.choice(ALPHABET))
        elif t:
            t[min(i, len(t) - 1)] = rng.choice(ALPHABET)
    return "".join(t)


def check_hand_result(r, text):
    assert "Traceback" not in (r.stderr or ""), r.stderr
    if r.exit_code == 0:
        return
    assert r.exit_code == 2, (text, r.exit_code, r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, (text, r.stderr)
    assert re.search(r"position \d+|tiles|tile set|copies|winning tile|has no|not a|allows|missing HAND", lines[0]), (text, lines[0])


hand_text = st.one_of(
    st.text(alphabet=ALPHABET, min_size=0, max_size=30),
    st.builds(lambda seed, base: mutate(random.Random(seed), base), st.integers(0, 2**32), st.sampled_from(VALID)),
)


def _fuzz_hands(run, n):
    @settings(max_examples=n, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(hand_text, st.sampled_from(["shanten", "wait", "score"]))
    def inner(text, command):
        if not text.strip() or text.strip() == "-":
            return
        r = run(command, text, "-f", "json")
        check_hand_result(r, text)

    inner()


def test_fuzz_hands_in_process(run):
    _fuzz_hands(run, 2000)


@pytest.mark.slow
def test_fuzz_hands_in_process_full(run):
    _fuzz_hands(run, 20000)


def test_fuzz_hands_subprocess():
    rng = random.Random(9)
    exe = [sys.executable, "-m", "mjtools"]
    for _ in range(50):
        text = mutate(rng, rng.choice(VALID))
        if not text.strip() or text.strip() == "-":
            continue
        p = subprocess.run(exe + ["shanten", text, "-f", "json"], capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
        assert "Traceback" not in p.stderr, p.stderr
        assert p.returncode in (0, 2), (text, p.stderr)
        if p.returncode == 2:
            assert len(p.stderr.strip().splitlines()) == 1


# -- rule files ---------------------------------------------------------------------------------

BASE = yaml.safe_load((ROOT / "rules.d" / "riichi.yaml").read_text(encoding="utf-8"))
# A handful of worked examples is enough to fuzz their keys; riichi's full set (about 150)
# would make each mutated file several times slower to read without adding kinds of keys.
BASE["examples"] = dict(list(BASE["examples"].items())[:8])
JUNK = [None, 0, -1, 2.5, "x", "", True, [], {}, [1, "a"], {"k": "v"}, "5m", {"option": "nope"}]


def paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, prefix + (i,))


ALL_PATHS = [p for p in paths(BASE) if p]


def mutate_rules(rng: random.Random) -> str:
    import copy

    data = copy.deepcopy(BASE)
    data["id"] = "fuzzed"
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(ALL_PATHS)
        parent = data
        try:
            for k in path[:-1]:
                parent = parent[k]
            op = rng.random()
            if op < 0.45:
                parent[path[-1]] = rng.choice(JUNK)
            elif op < 0.7 and isinstance(parent, dict):
                parent.pop(path[-1], None)
            elif isinstance(parent, dict):
                parent[rng.choice(["bogus", "colour", "fanz", path[-1] + "_x"])] = rng.choice(JUNK)
        except (KeyError, IndexError, TypeError):
            continue
    text = yaml.dump(data, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), allow_unicode=True)
    if rng.random() < 0.1:
        i = rng.randrange(len(text))
        text = text[:i] + rng.choice([":", "[", "{", "\t", "'"]) + text[i:]
    return text


def _fuzz_rules(run, tmp_path, n, seed):
    rng = random.Random(seed)
    for i in range(n):
        f = tmp_path / f"fuzz{i}.yaml"
        f.write_text(mutate_rules(rng), encoding="utf-8")
        r = run("rules", "validate", str(f))
        assert "Traceback" not in r.stderr
        if r.exit_code == 0:
            r2 = run("score", "234567m234p5688s+7s", "--seat", "S", "-r", str(f), "-f", "json")
            assert r2.exit_code in (0, 2), r2.stderr
            continue
        assert r.exit_code == 2
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1, r.stderr
        assert f.name + ": " in lines[0], lines[0]
        rest = lines[0].split(f.name + ": ", 1)[1]
        if re.search(r"expected|unknown key|not a valid value|does not match", rest):
            # A schema error names the key path before the reason.
            path, _, reason = rest.rpartition(": ")
            assert path and reason, lines[0]


def test_fuzz_rule_files(run, tmp_path):
    _fuzz_rules(run, tmp_path, 200, 1)


@pytest.mark.slow
def test_fuzz_rule_files_full(run, tmp_path):
    _fuzz_rules(run, tmp_path, 2000, 2)

"""Fuzzing: any input is answered (exit 0) or refused with one line (exit 2); never a traceback."""

import copy
import json
import os
import pickle
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
_BASE_PICKLE = pickle.dumps(BASE)


_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
_BASE_TEXT: dict[tuple, str] = {}  # (top key,) or (top key, entry) -> its YAML as in BASE


def _dump(node) -> str:
    return yaml.dump(node, Dumper=_DUMPER, allow_unicode=True)


def _entry_text(key: str, entry: str, value, dirty: bool) -> str:
    """One entry of a top-level mapping as yaml.dump writes it inside the whole file: dumped
    alone two columns narrower, then indented (checked equal to the whole dump below)."""
    if dirty or (key, entry) not in _BASE_TEXT:
        text = "".join("  " + line if line.strip() else line for line in yaml.dump({entry: value}, Dumper=_DUMPER, allow_unicode=True, width=78).splitlines(True))
        if dirty:
            return text
        _BASE_TEXT[key, entry] = text
    return _BASE_TEXT[key, entry]


def dump_mutated(data: dict, dirty_keys: set | None, dirty_entries: set) -> str:
    """yaml.dump of a mutated copy of BASE, re-dumping only the parts mutated (all of it when
    `dirty_keys` is None): the rest is BASE's text, kept once (dumping the whole file was most
    of this test's time)."""
    if dirty_keys is None:
        return _dump(data)
    out = []
    for key in sorted(data):
        value = data[key]
        mapping = isinstance(value, dict) and value and isinstance(BASE.get(key), dict)
        if key in dirty_keys or key not in BASE or not mapping and any(k == key for k, _ in dirty_entries):
            out.append(_dump({key: value}))
        elif any(k == key for k, _ in dirty_entries):
            out.append(key + ":\n" + "".join(_entry_text(key, e, value[e], (key, e) in dirty_entries) for e in sorted(value)))
        else:
            if (key,) not in _BASE_TEXT:
                _BASE_TEXT[key,] = _dump({key: value})
            out.append(_BASE_TEXT[key,])
    return "".join(out)


def test_dump_mutated_is_yaml_dump():
    rng = random.Random(2)  # its second file places one junk list twice (a YAML alias)
    for _ in range(60):
        data, dirty_keys, dirty_entries = _mutated_data(rng)
        assert dump_mutated(data, dirty_keys, dirty_entries) == _dump(data)


def _mutated_data(rng: random.Random) -> tuple[dict, set | None, set]:
    data = pickle.loads(_BASE_PICKLE)
    data["id"] = "fuzzed"
    dirty_keys: set = {"id"}
    dirty_entries: set = set()
    inserted: list = []  # junk lists and dicts placed: one placed twice is a YAML alias
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(ALL_PATHS)
        if len(path) <= 2:
            dirty_keys.add(path[0])
        else:
            dirty_entries.add(path[:2])
        parent = data
        try:
            for k in path[:-1]:
                parent = parent[k]
            op = rng.random()
            if op < 0.45:
                parent[path[-1]] = junk = rng.choice(JUNK)
                inserted.append(junk)
            elif op < 0.7 and isinstance(parent, dict):
                parent.pop(path[-1], None)
            elif isinstance(parent, dict):
                parent[rng.choice(["bogus", "colour", "fanz", path[-1] + "_x"])] = junk = rng.choice(JUNK)
                inserted.append(junk)
        except (KeyError, IndexError, TypeError):
            continue
    shared = [id(j) for j in inserted if isinstance(j, (list, dict))]
    if len(shared) != len(set(shared)):
        dirty_keys = None  # the whole file in one dump, which writes the alias
    return data, dirty_keys, dirty_entries


def mutate_rules(rng: random.Random) -> str:
    text = dump_mutated(*_mutated_data(rng))
    if rng.random() < 0.1:
        i = rng.randrange(len(text))
        text = text[:i] + rng.choice([":", "[", "{", "\t", "'"]) + text[i:]
    return text


def _fuzz_rules(run, tmp_path, n, seed):
    """The first n files of the seed's sequence."""
    rng = random.Random(seed)
    for i in range(n):
        text = mutate_rules(rng)
        f = tmp_path / f"fuzz{i}.yaml"
        f.write_text(text, encoding="utf-8")
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
@pytest.mark.parametrize("quarter", range(4))
def test_fuzz_rule_files_full(run, tmp_path, quarter):
    # 2,000 files in four parts of 500, each its own seed (2-5), so that the slow suite's
    # workers share them and no part makes and skips the files of the parts before it
    _fuzz_rules(run, tmp_path, 500, 2 + quarter)


# -- every schema path of every shipped rule file, its type mutated (slow suite) -----------------

SCHEMA = json.loads((ROOT / "mjtools" / "rules" / "schema.json").read_text(encoding="utf-8"))
SHIPPED = sorted(p.stem for p in (ROOT / "rules.d").glob("*.yaml"))
TYPE_JUNK = [None, True, 0, -7, 2.5, "x", "", [], {}, [1, "a"], {"k": "v"}, {"option": "nope"}, 10**12, [[[]]], {"option": ["x"]}, "2024-01-01"]


def _deref(node):
    while isinstance(node, dict) and "$ref" in node:
        node = SCHEMA["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def schema_path(path: tuple) -> tuple:
    """A data path as the schema sees it: keys the schema names kept, map keys as '*', list
    indices as '[]' (fans.pinfu.value and fans.riichi.value are one schema path)."""
    out, nodes = [], [SCHEMA]
    for k in path:
        nxt, named = [], False
        for n in nodes:
            stack = [n]
            while stack:
                x = _deref(stack.pop())
                if not isinstance(x, dict):
                    continue
                if "anyOf" in x:
                    stack += x["anyOf"]
                elif isinstance(k, int):
                    if isinstance(x.get("items"), dict):
                        nxt.append(x["items"])
                elif k in (x.get("properties") or {}):
                    nxt.append(x["properties"][k])
                    named = True
                elif isinstance(x.get("additionalProperties"), dict):
                    nxt.append(x["additionalProperties"])
        out.append("[]" if isinstance(k, int) else k if named else "*")
        nodes = nxt
    return tuple(out)


def type_mutations(fid: str):
    """(data path, mutated file data) for each schema path of shipped file `fid`: the first data
    path there gets a value of another JSON type (the types rotate from one path to the next, so
    every type lands on every kind of key across the shipped files). Three worked examples are
    kept (and the file's deletions of inherited ones): enough for their keys, and the file
    stays quick to validate."""
    data = yaml.load((ROOT / "rules.d" / f"{fid}.yaml").read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    examples = data.get("examples") or {}
    kept = [k for k, v in examples.items() if v is not None][:3]
    data["examples"] = {k: v for k, v in examples.items() if v is None or k in kept}  # (deletions stay)
    first: dict[tuple, tuple] = {}
    for p in paths(data):
        if p:
            first.setdefault(schema_path(p), p)
    for i, (_, p) in enumerate(sorted(first.items(), key=lambda kv: str(kv[0]))):
        mutated = copy.deepcopy(data)
        parent = mutated
        for k in p[:-1]:
            parent = parent[k]
        others = [j for j in TYPE_JUNK if type(j) is not type(parent[p[-1]])]
        parent[p[-1]] = copy.deepcopy(others[(i + len(fid)) % len(others)])
        yield p, mutated


@pytest.mark.slow
@pytest.mark.parametrize("fid", SHIPPED)
def test_type_mutations_of_every_shipped_file(fid, tmp_path, monkeypatch):
    """Every mutated file is refused with a typed error naming a file, or loads and runs its
    worked examples with answers or typed errors: never another exception."""
    from mjtools import rules
    from mjtools.batch.examples import run_example
    from mjtools.errors import MjError, RuleFileError
    from mjtools.rules import load_path, loader

    monkeypatch.setenv("MJTOOLS_NO_CACHE", "1")  # thousands of one-off files: no cache entries
    # An abstract base is loaded through a variant that extends it: the files of that chain
    # between the two are copied next to the mutated base, which their `extends` then finds.
    leaf = fid
    if yaml.safe_load((ROOT / "rules.d" / f"{fid}.yaml").read_text(encoding="utf-8")).get("abstract"):
        from mjtools.rules import available

        chain = next(rs.files for rs in available() if any(Path(f).stem == fid for f in rs.files[1:]))
        names = [Path(f).stem for f in chain]
        for name in names[: names.index(fid)]:
            (tmp_path / f"{name}.yaml").write_bytes((ROOT / "rules.d" / f"{name}.yaml").read_bytes())
        leaf = names[0]
    n = loaded = 0
    for p, data in type_mutations(fid):
        n += 1
        f = tmp_path / f"{fid}.yaml"
        f.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")  # JSON is YAML, and quick to write
        f = tmp_path / f"{leaf}.yaml"
        rules._MEMO.clear()
        loader._RESOLVED.clear()
        try:
            rs = load_path(f)
        except RuleFileError as e:
            assert e.file and "Traceback" not in e.one_line(), (p, e)
            continue
        except MjError:
            continue
        except Exception as e:  # noqa: BLE001 - the point of the test
            raise AssertionError(f"{fid}: {'.'.join(map(str, p))} = {_at(data, p)!r}: {e!r}") from e
        loaded += 1
        for ex in list(rs.examples.values())[:2]:
            try:
                run_example(rs, ex)
            except MjError:
                pass
            except Exception as e:  # noqa: BLE001
                raise AssertionError(f"{fid}: {'.'.join(map(str, p))} = {_at(data, p)!r}: example: {e!r}") from e
    assert n > 20 and loaded > 0, (n, loaded)


def _at(data, path):
    for k in path:
        data = data[k]
    return data

"""Hostile and broken input (issue 18): never a hang, never a traceback, never a stale answer.

One section per class of failure, each with generated cases. Every case checks the exit
status and that stderr is exactly one line without a traceback, under a 10 s guard: a
subprocess timeout where the case needs a real process (signals, /dev/full, FIFOs, encodings,
closed pipes), an alarm in-process otherwise.
"""

import contextlib
import io
import json
import os
import random
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mjtools.batch.reading import MAX_LINE_CHARS, read_chunks, read_lines
from mjtools.tiles.notation import MAX_HAND_CHARS

ROOT = Path(__file__).resolve().parent.parent
GUARD = 10  # seconds: a case that takes longer hangs
HAND = "234567m234p5688s+7s"
READY = "123m456p789s1122z"
ENV = {**os.environ, "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}


@contextlib.contextmanager
def guard(seconds: float = GUARD):
    """In-process hang guard: an alarm that fails the case."""

    def boom(*_):
        raise TimeoutError(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, boom)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def one_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


def refused(r, *needles: str, status: int = 2) -> str:
    """An in-process result refused with exit `status` and one stderr line naming `needles`."""
    assert r.exit_code == status, (r.exit_code, r.stdout[-300:], r.stderr[-500:])
    line = one_line(r.stderr)
    for n in needles:
        assert n in line, (n, line)
    return line


def mj(*args: str, env: dict | None = None, **kw) -> subprocess.CompletedProcess:
    """mjtools in a subprocess under the hang guard (output captured unless redirected)."""
    if "stdout" not in kw and "stderr" not in kw:
        kw["capture_output"] = True
    return subprocess.run([sys.executable, "-m", "mjtools", *args], timeout=GUARD, env=env or ENV, cwd=ROOT, **kw)


@pytest.fixture(scope="module")
def warm():
    """Fill the rules cache first (a cold cache rebuilds every variant: slow, not hostile), so
    that the hang guard times only the case."""
    subprocess.run([sys.executable, "-m", "mjtools", "rules", "list"], capture_output=True, timeout=900, env=ENV)


@pytest.fixture
def hrun(run):
    """`run` under the hang guard, with the per-process memos cleared before each call (as a
    new process would start), so that the on-disk cache is what a second call reads."""
    from mjtools import rules
    from mjtools.rules import loader

    def _run(*args, **kw):
        rules._MEMO.clear()
        loader._RESOLVED.clear()
        loader._READ.clear()
        loader._ALIASES.clear()
        with guard():
            return run(*args, **kw)

    return _run


def house(tmp_path: Path, name: str, body: str, base: str = "lisi") -> Path:
    p = tmp_path / name
    p.write_text(f"id: {p.stem.replace('_', '-')}\nextends: {base}\nnames: {{en: H, zh_hans: H}}\n{body}", encoding="utf-8")
    return p


# -- 1. parse and error paths are linear; over-long hands refused at once --------------------------


def test_find_kind_is_linear():
    from mjtools.tiles.notation import _find_kind

    with guard(5):
        for text in ("1" * 1_000_000 + "m", "1x" * 500_000 + "m", ("1" * 999 + "p") * 1000):
            assert _find_kind(text, 0) is not None or "m" not in text


@pytest.mark.parametrize("seed", range(3))
def test_long_hands_refused_at_once(hrun, seed):
    rng = random.Random(seed)
    for _ in range(4):
        n = rng.choice([MAX_HAND_CHARS + 1, 4_000, 40_000, 300_000])
        text = "".join(rng.choice("123456789") for _ in range(n - 1)) + rng.choice("mpsz")
        cmd = rng.choice(["shanten", "wait", "score"])
        t0 = time.perf_counter()
        r = hrun(cmd, text, "-f", "json")
        refused(r, "characters long", str(len(text)))
        assert time.perf_counter() - t0 < 2
    # at the limit the hand is read (and refused for what it is, with its position)
    r = hrun("shanten", "1" * (MAX_HAND_CHARS - 1) + "m")
    refused(r, "copies of 1m")


def test_fifth_copy_locator_inside_the_limit(hrun):
    for text in ("1" * 200 + "m", "11111m" * 40, "x" * 100 + "1" * 100 + "p"):
        r = hrun("wait", text)
        assert r.exit_code == 2 and "Traceback" not in r.stderr


def test_batch_long_lines_are_error_records(hrun, tmp_path):
    rng = random.Random(5)
    lines, bad = [], set()
    for i in range(1, 41):
        r = rng.random()
        if r < 0.15:
            lines.append("1" * rng.choice([300, 70_000, 200_000]) + "m")
            bad.add(i)
        elif r < 0.25:
            lines.append(json.dumps({"hand": "2" * 50_000 + "p"}))
            bad.add(i)
        else:
            lines.append(READY)
    f = tmp_path / "long.txt"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for cmd in ("shanten", "wait"):
        r = hrun(cmd, "--input", str(f), "-f", "jsonl")
        recs = [json.loads(x) for x in r.stdout.splitlines()]
        assert r.exit_code == 1 and [x["line"] for x in recs] == list(range(1, 41))
        assert {x["line"] for x in recs if "error" in x} == bad
        assert all("characters long" in x["error"] for x in recs if "error" in x)


@pytest.mark.parametrize("size", [7, 64, 1000])
def test_chunked_reader_equals_line_reader(size, monkeypatch):
    """The bulk reader (shanten batches) and the line reader give the same lines, over-long ones
    included, whatever the chunk size."""
    import mjtools.batch.reading as reading

    monkeypatch.setattr(reading, "MAX_LINE_CHARS", 20)
    rng = random.Random(size)
    for _ in range(50):
        text = "".join(rng.choice(["123m\n", "x" * rng.randint(15, 60), "\n", "\r\n", "ab\r", "1" * 25 + "\n"]) for _ in range(rng.randint(0, 12)))
        by_line = [(type(x).__name__, x if not isinstance(x, reading.Overlong) else x.length) for x in reading.read_lines(io.StringIO(text, newline=None))]
        chunked = [(type(x).__name__, x if not isinstance(x, reading.Overlong) else x.length) for c in reading.read_chunks(io.StringIO(text, newline=None), size) for x in c]
        assert [(k, v.rstrip("\n") if isinstance(v, str) else v) for k, v in by_line] == [(k, v.rstrip("\n") if isinstance(v, str) else v) for k, v in chunked], text
    assert read_lines and read_chunks and MAX_LINE_CHARS  # the real limits are imported above


# -- 2. YAML alias bombs, nesting, size ------------------------------------------------------------


def _bomb(levels: int, fan: int, anchor_key: str = "summary") -> str:
    lines = [f"{anchor_key}:", f"  a0: &a0 [{', '.join(['x'] * fan)}]"]
    lines += [f"  a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * fan)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(3))
def test_alias_bombs_refused(hrun, tmp_path, seed):
    rng = random.Random(seed)
    for i in range(3):
        levels, fan = rng.randint(4, 9), rng.randint(9, 12)
        where = rng.choice(["sources", "summary", "examples"])
        body = _bomb(levels, fan, where)
        if rng.random() < 0.5:  # the expansion used where the schema accepts anything
            body += f"options:\n  bomb:\n    default: *a{levels - 1}\n    text: {{en: t}}\n"
        f = house(tmp_path, f"bomb{seed}{i}.yaml", body)
        assert len(f.read_bytes()) < 2000
        t0 = time.perf_counter()
        refused(hrun("rules", "validate", str(f)), f.name, "aliases expand")
        refused(hrun("score", HAND, "-r", str(f)), "aliases expand")
        assert time.perf_counter() - t0 < 4


def test_small_aliases_are_fine(hrun, tmp_path):
    body = "names: &n {en: H, zh_hans: H}\nsummary: *n\n"
    f = tmp_path / "ok.yaml"
    f.write_text("id: ok\nextends: lisi\n" + body, encoding="utf-8")
    r = hrun("rules", "validate", str(f))
    assert r.exit_code == 0, r.stderr


@pytest.mark.parametrize("shape", ["list", "map", "mixed", "recursive", "alias_depth", "nodes", "bytes"])
def test_nesting_size_and_recursion_refused(hrun, tmp_path, shape):
    rng = random.Random(shape)
    n = rng.choice([40, 500, 5000])
    body = {
        "list": "sources: " + "[" * n + "]" * n + "\n",
        "map": "summary: " + "{a: " * n + "1" + "}" * n + "\n",
        "mixed": "summary: " + "".join(rng.choice(["[", "{k: "]) for _ in range(n)) + "\n",
        "recursive": "summary: &r [1, *r]\n",
        "alias_depth": "x: &d " + "[" * 20 + "1" + "]" * 20 + "\nsummary: " + "[" * 20 + "*d" + "]" * 20 + "\n",
        "nodes": "sources: [" + ", ".join(["1"] * 120_000) + "]\n",
        "bytes": "sources: '" + "x" * (1 << 20) + "'\n",
    }[shape]
    f = house(tmp_path, f"{shape}.yaml", body)
    line = refused(hrun("rules", "validate", str(f)), f.name)
    assert any(w in line for w in ("nested deeper", "refers to a node", "YAML nodes", "bytes", "invalid YAML")), line


# -- 3. rule files that ended in a traceback -------------------------------------------------------

JUNK_DEFAULTS = {
    "a date": "2024-01-01",
    "binary": "!!binary aGVsbG8=",
    "a set": "!!set {a, b}",
    "an ordered map": "!!omap [{a: 1}]",
    "a timestamp": "2001-12-14t21:59:43.10-05:00",
    "infinity": ".inf",
    "not a number": ".nan",
    "a long integer": "9" * 5000,
    "a long negative": "-" + "1" * 40,
}


@pytest.mark.parametrize("what", sorted(JUNK_DEFAULTS))
def test_values_json_cannot_hold(hrun, tmp_path, what):
    rng = random.Random(what)
    value = JUNK_DEFAULTS[what]
    where = rng.choice([f"options:\n  odd:\n    default: {value}\n    text: {{en: t}}\n", f"scoring:\n  base: {value}\n", f"sources: [{value}]\n"])
    f = house(tmp_path, "junk.yaml", where)
    line = refused(hrun("rules", "validate", str(f)), "junk.yaml")
    refused(hrun("score", HAND, "-r", str(f)))
    assert "Traceback" not in line


@pytest.mark.parametrize("keys", [("true", "false"), ("3", "5"), ("null", "3"), ("1.5", "2")])
def test_choice_keys_of_any_scalar(hrun, tmp_path, keys):
    default = keys[0]
    f = house(tmp_path, "choices.yaml", f"options:\n  odd:\n    default: {default}\n    choices: {{{keys[0]}: {{en: a}}, {keys[1]}: {{en: b}}}}\n    text: {{en: t}}\n")
    r = hrun("rules", "validate", str(f))
    assert r.exit_code == 0, r.stderr
    r = hrun("explain-rule", str(f), "odd", "-f", "json")
    assert r.exit_code == 0, r.stderr
    r = hrun("score", HAND, "-r", str(f), "-o", f"odd={keys[1]}", "-f", "json")
    assert r.exit_code == 0, r.stderr


def test_extends_oddities(hrun, tmp_path):
    (tmp_path / "loop1.yaml").symlink_to(tmp_path / "loop2.yaml")
    (tmp_path / "loop2.yaml").symlink_to(tmp_path / "loop1.yaml")
    cases = {
        "long": "a" * 300,
        "longpath": "./" + "b" * 300 + ".yaml",
        "loopid": "loop1",
        "looppath": "./loop1.yaml",
        "nul": '"a\\0b"',
        "number": "5",
        "list": "[riichi]",
        "abs": "/etc/hosts.yaml",
    }
    for name, ext in cases.items():
        f = tmp_path / f"e_{name}.yaml"
        f.write_text(f"id: e\nextends: {ext}\n", encoding="utf-8")
        refused(hrun("rules", "validate", str(f)), f.name, "extends")


WRONG = [("'str'", "str"), ("[1, 2]", [1, 2]), ("{a: 1}", {"a": 1}), ("2.5", 2.5), ("7", 7), ("true", True), ("nosuch", "nosuch")]


@pytest.mark.parametrize("seed", range(2))
def test_option_defaults_checked_against_their_type(hrun, tmp_path, seed):
    """A default of the wrong type (for each kind of option) is refused as -o refuses it."""
    from mjtools.errors import UsageError
    from mjtools.rules import load
    from mjtools.rules.model import _coerce

    def fits(rs, name, value, parse):
        try:
            _coerce(rs.id, name, rs.options[name], value, parse=parse)
        except UsageError:
            return False
        return True

    rng = random.Random(seed)
    variants = ["guannan", "hebei", "zhuanzhuan", "taiwan-16", "tianjin", "nanjing", "wenzhou"]
    for base in rng.sample(variants, 3):
        rs = load(base)
        name = rng.choice(sorted(rs.options))
        text, value = rng.choice([w for w in WRONG if not fits(rs, name, w[1], False)])
        f = house(tmp_path, f"opt_{base}.yaml", f"options:\n  {name}: {{default: {text}}}\n", base=base)
        refused(hrun("rules", "validate", str(f)), f.name, f"options.{name}.default")
        if isinstance(value, (str, int, float)) and not fits(rs, name, str(value), True):
            refused(hrun("score", HAND, "-r", base, "-o", f"{name}={value}"), name)


def test_option_value_must_fit_where_it_is_used(hrun, tmp_path):
    body = "options:\n  mine: {default: str, text: {en: t}}\nscoring:\n  base: {option: mine}\n"
    f = house(tmp_path, "fit.yaml", body, base="guannan")
    refused(hrun("rules", "validate", str(f)), "fit.yaml", "scoring.base", "option mine")
    refused(hrun("score", HAND, "-r", str(f)), "scoring.base")


# -- 4 and 5. rule "files" that are not files; extends outside rule files ---------------------------


def test_not_files_on_the_search_path(tmp_path, warm):
    sp = tmp_path / "sp"
    sp.mkdir()
    os.mkfifo(sp / "fifo.yaml")
    (sp / "zero.yaml").symlink_to("/dev/zero")
    (sp / "dir.yaml").mkdir()
    (sp / "dangling.yaml").symlink_to(sp / "nowhere.yaml")
    (sp / "mine.yaml").write_text("id: mine\nextends: lisi\nnames: {en: Mine, zh_hans: M}\naliases: [minealias]\n", encoding="utf-8")
    env = {**ENV, "MJTOOLS_RULES_PATH": str(sp)}
    p = mj("rules", "list", "-f", "json", env=env)
    assert p.returncode == 0 and "mine" in [r["id"] for r in json.loads(p.stdout)], p.stderr
    p = mj("wait", READY, "-r", "minealias", "-f", "json", env=env)
    assert p.returncode == 0 and json.loads(p.stdout)["rules"] == "mine", p.stderr
    for name in ("fifo", "zero", "dir", "dangling"):
        for args in (("rules", "validate", str(sp / f"{name}.yaml")), ("score", HAND, "-r", str(sp / f"{name}.yaml")), ("score", HAND, "-r", name)):
            p = mj(*args, env=env)
            assert p.returncode == 2, (args, p.stderr)
            one_line(p.stderr.decode())


def test_replay_reads_only_bounded_regular_files(hrun, tmp_path):
    import gzip

    os.mkfifo(tmp_path / "fifo.mjlog")
    (tmp_path / "zero.mjlog").symlink_to("/dev/zero")
    (tmp_path / "bomb.mjlog").write_bytes(gzip.compress(b"<" + b" " * (80 << 20), 9))
    (tmp_path / "cut.mjlog").write_bytes(gzip.compress(b"<mjloggm ver=\"2.3\">")[:20])
    for name in ("fifo", "zero", "bomb", "cut"):
        t0 = time.perf_counter()
        refused(hrun("replay", str(tmp_path / f"{name}.mjlog")))
        assert time.perf_counter() - t0 < 3


def test_extends_only_rule_files(hrun, tmp_path):
    """A link named .yaml to another kind of file, a non-.yaml path, a directory: refused,
    and the error never quotes the target's contents."""
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-VALUE: hunter2\nid: x\n", encoding="utf-8")
    (tmp_path / "pw.yaml").symlink_to(secret)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "dir.yaml").mkdir()
    (tmp_path / "etc.yaml").symlink_to("/etc/passwd")
    for ext in ("pw", "./pw.yaml", "../" + tmp_path.name + "/pw.yaml", "secret.txt", "etc", "sub/dir.yaml", "./sub"):
        f = tmp_path / "use.yaml"
        f.write_text(f"id: use\nextends: {ext}\nnames: {{en: U, zh_hans: U}}\n", encoding="utf-8")
        for args in (("rules", "validate", str(f)), ("score", HAND, "-r", str(f))):
            line = refused(hrun(*args), "extends")
            assert "hunter2" not in line and "root:" not in line, line
    for direct in ("pw.yaml", "etc.yaml"):
        line = refused(hrun("score", HAND, "-r", str(tmp_path / direct)), "not a rule file")
        assert "hunter2" not in line and "root:" not in line
        r = hrun("rules", "show", str(tmp_path / direct))
        assert r.exit_code == 2 and "hunter2" not in r.stdout + r.stderr and "root:" not in r.stdout


def test_relative_extends_with_dotdot_still_works(hrun, tmp_path):
    (tmp_path / "bases").mkdir()
    (tmp_path / "bases" / "b.yaml").write_text("id: b\nextends: lisi\nnames: {en: B, zh_hans: B}\n", encoding="utf-8")
    (tmp_path / "house").mkdir()
    f = tmp_path / "house" / "h.yaml"
    f.write_text("id: h\nextends: ../bases/b.yaml\nnames: {en: H, zh_hans: H}\n", encoding="utf-8")
    r = hrun("rules", "validate", str(f))
    assert r.exit_code == 0, r.stderr


# -- 6. batch JSON cases of any type -----------------------------------------------------------------

JSON_VALUES = [None, True, 0, -1, 7, 2.5, 1e308, 10**30, "", "x", "E", "5m", [], [1], ["a"], [[]], {}, {"a": 1}, {"a": [1]}]
RAW_VALUES = ["1e999", "-1e999", "NaN", "1" * 5000, "[" * 5000 + "]" * 5000]


@pytest.mark.parametrize("command", ["score", "wait", "shanten"])
def test_json_case_fields_of_every_type(hrun, command):
    from mjtools.rules.hand_options import OPTIONS

    rng = random.Random(command)
    keys = sorted({o.key for o in OPTIONS if command in o.commands} | {"hand", "rules", "table", "event", "winners", "from", "offender"})
    hand = HAND if command == "score" else READY
    lines = []
    for k in keys:
        for v in rng.sample(JSON_VALUES, 8):
            lines.append(json.dumps({"hand": hand, k: v}))
        lines.append(json.dumps({"hand": hand, k: 0}).replace("0}", rng.choice(RAW_VALUES) + "}"))
    if command == "score":
        for k in ("table", "event", "winners", "from", "offender", "honba", "option", "situation", "active"):
            for v in rng.sample(JSON_VALUES, 6):
                case = {"table": {"E": "123m456p789s1122z+1z", "S": READY}, "event": "win", "winners": ["E"], "from": "S", k: v}
                lines.append(json.dumps(case))
    r = hrun(command, "-", "-f", "jsonl", *(("-r", "sichuan-xuezhan") if command == "score" else ()), input="\n".join(lines) + "\n")
    assert r.exit_code in (0, 1) and "Traceback" not in r.stderr, r.stderr
    recs = [json.loads(x) for x in r.stdout.splitlines()]
    assert [x["line"] for x in recs] == list(range(1, len(lines) + 1))
    for x in recs:
        assert "error" in x or "hand" in x or "results" in x, x


# -- 7. encoding: files and stdin alike, undecodable lines become error records ---------------------


@pytest.mark.parametrize("seed", range(3))
def test_undecodable_lines_are_error_records(hrun, tmp_path, seed):
    rng = random.Random(seed)
    n = 300
    lines = [rng.choice([READY.encode(), b"1289m3457p12368s4z", b'{"hand": "123m456p789s1122z"}', b"# c", b""]) for _ in range(n)]
    bad = sorted(rng.sample([i for i, x in enumerate(lines) if not x.startswith(b"#")], 4))
    for i in bad:
        j = rng.randint(0, len(lines[i]))
        lines[i] = lines[i][:j] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xfe\xfe", b"\x80"]) + lines[i][j:]
    data = (b"\xef\xbb\xbf" if seed % 2 else b"") + b"\n".join(lines) + rng.choice([b"\n", b""])
    f = tmp_path / "in.txt"
    f.write_bytes(data)
    expected = {i + 1 for i, x in enumerate(lines) if x.strip() and not x.startswith(b"#")} | {i + 1 for i in bad}
    for command in ("shanten", "wait"):
        from_file = hrun(command, "--input", str(f), "-f", "jsonl")
        from_stdin = hrun(command, "-", "-f", "jsonl", input=data)
        assert from_file.stdout == from_stdin.stdout and from_file.exit_code == from_stdin.exit_code == 1
        recs = [json.loads(x) for x in from_file.stdout.splitlines()]
        assert {x["line"] for x in recs} == expected
        assert {x["line"] for x in recs if "not UTF-8" in x.get("error", "")} == {i + 1 for i in bad}


def test_bom_is_accepted(hrun, tmp_path):
    for command, hand in (("shanten", READY), ("wait", READY), ("score", HAND)):
        data = b"\xef\xbb\xbf" + hand.encode() + b"\n" + json.dumps({"hand": hand}).encode() + b"\n"
        f = tmp_path / "bom.txt"
        f.write_bytes(data)
        for r in (hrun(command, "--input", str(f), "-f", "jsonl"), hrun(command, "-", "-f", "jsonl", input=data)):
            assert r.exit_code == 0 and len(r.stdout.splitlines()) == 2, r.stdout


# -- 8. the rules cache: keyed by content, never crashing ----------------------------------------


def test_cache_follows_content_not_mtime(hrun, tmp_path, monkeypatch):
    monkeypatch.setenv("MJTOOLS_CACHE_DIR", str(tmp_path / "cache"))
    base = tmp_path / "b.yaml"
    leaf = house(tmp_path, "leaf.yaml", "", base="b")
    for value in ("101", "102", "103"):
        base.write_text(f"id: b\nextends: guannan\nnames: {{en: B, zh_hans: B}}\nscoring:\n  base: {value}\n", encoding="utf-8")
        os.utime(base, ns=(10**18, 10**18))  # same size, same mtime: what `cp -p` or rsync leave
        r = hrun("rules", "show", str(leaf), "--resolved")
        assert r.exit_code == 0 and f"base: {value}" in r.stdout, r.stderr


def test_cache_follows_what_extends_resolves_to(hrun, tmp_path, monkeypatch):
    monkeypatch.setenv("MJTOOLS_CACHE_DIR", str(tmp_path / "cache"))
    for d, value in (("one", 105), ("two", 107)):
        (tmp_path / d).mkdir()
        (tmp_path / d / "base.yaml").write_text(f"id: base\nextends: guannan\nnames: {{en: B, zh_hans: B}}\nscoring:\n  base: {value}\n", encoding="utf-8")
    leaf = house(tmp_path, "leaf.yaml", "", base="base")
    for d, value in (("one", 105), ("two", 107), ("one", 105)):
        monkeypatch.setenv("MJTOOLS_RULES_PATH", str(tmp_path / d))
        r = hrun("rules", "show", str(leaf), "--resolved")
        assert r.exit_code == 0 and f"base: {value}" in r.stdout, r.stderr
    (tmp_path / "base.yaml").write_text("id: base\nextends: guannan\nnames: {en: B, zh_hans: B}\nscoring:\n  base: 109\n", encoding="utf-8")
    r = hrun("rules", "show", str(leaf), "--resolved")  # a sibling now shadows the search path
    assert "base: 109" in r.stdout


CORRUPT = {
    "brackets": lambda head, real: b"[" * 100_000,
    "no data": lambda head, real: head + b'{"origins": {}, "files": ["x"]}',
    "wrong types": lambda head, real: head + b'{"data": [], "origins": 5, "files": "x"}',
    "empty": lambda head, real: b"",
    "binary": lambda head, real: bytes(range(256)) * 10,
    "truncated": lambda head, real: real[: len(real) // 2],
    "other version": lambda head, real: real.replace(b'"mjtools-cache", 2, ', b'"mjtools-cache", 2, "0.0.1", ', 1),
    "deep value": lambda head, real: head + b"[" * 100_000,
    "deep header": lambda head, real: head[:40] + b"[" * 60_000 + b"\n" + real[len(head):],
}


def test_corrupt_cache_entries_are_misses(hrun, tmp_path, monkeypatch):
    """Each kind of damage to a cached ruleset (and, for a few, to the alias index and the
    distance tables) is a miss: the same answer, no traceback."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("MJTOOLS_CACHE_DIR", str(cache))
    args = ("score", HAND, "-r", "guannan-jiangsu", "-f", "json")  # an alias: the index is cached too
    good = hrun(*args)
    assert good.exit_code == 0
    assert hrun("shanten", READY, "-f", "json").exit_code == 0
    for n, kind in enumerate(sorted(CORRUPT)):
        for f in cache.glob("rules-*.json" if n % 3 else "*.json"):
            real = f.read_bytes()
            head = real.split(b"\n")[0] + b"\n"
            f.write_bytes(CORRUPT[kind](head, real))
        again = hrun(*args)
        assert again.exit_code == 0 and again.stdout == good.stdout, (kind, again.stderr)
    for f in cache.glob("table-*.bin"):
        f.write_bytes(f.read_bytes()[:1000])
    r = hrun("shanten", READY, "-f", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["shanten"] == 0


# -- 9. output: a full disk, a closed pipe, an encoding that cannot carry the text ----------------

COMMANDS = [
    ("shanten", READY),
    ("wait", READY),
    ("score", HAND, "--seat", "S"),
    ("rules", "list"),
    ("rules", "show", "riichi"),
    ("explain-rule", "riichi", "--lang", "zh"),
    ("simulate", "--hands", "2", "--bots", "random"),
    ("replay", "examples/game.mjlog"),
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_output_full_disk_and_closed_pipe(args, warm):
    with open("/dev/full", "wb") as full:
        p = mj(*args, stdout=full, stderr=subprocess.PIPE)
    assert p.returncode == 3, p.stderr
    assert "cannot write the output" in one_line(p.stderr.decode())
    r, w = os.pipe()
    os.close(r)  # the reader is gone before anything is written
    try:
        p = mj(*args, stdout=w, stderr=subprocess.PIPE)
    finally:
        os.close(w)
    assert p.returncode == 0 and p.stderr == b"", p.stderr


def test_closed_pipe_in_a_long_batch(tmp_path):
    f = tmp_path / "many.txt"
    f.write_text((READY + "\n") * 50_000, encoding="utf-8")
    for command in ("shanten", "wait"):
        proc = subprocess.Popen([sys.executable, "-m", "mjtools", command, "--input", str(f), "-f", "jsonl"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
        first = proc.stdout.readline()
        proc.stdout.close()
        assert json.loads(first)["line"] == 1
        assert proc.wait(timeout=GUARD) == 0
        assert proc.stderr.read() == b""
        proc.stderr.close()


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
def test_output_encoding_that_cannot_carry_the_text(encoding, warm):
    for args in (("rules", "list"), ("explain-rule", "riichi", "--lang", "zh", "-f", "json"), ("score", HAND, "-r", "sichuan-xuezhan", "--tsumo", "-f", "json", "--lang", "zh")):
        p = mj(*args, env={**ENV, "PYTHONIOENCODING": encoding})
        assert p.returncode == 0 and "Traceback" not in p.stderr.decode(), p.stderr
        if "json" in args:
            utf8 = mj(*args)
            assert json.loads(p.stdout.decode(encoding)) == json.loads(utf8.stdout.decode())


def _limit_file_size(limit: int):
    def pre():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG), as on a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return pre


def test_simulate_out_on_a_full_disk_then_resume(tmp_path):
    out, clean = tmp_path / "run.jsonl", tmp_path / "clean.jsonl"
    args = ["simulate", "--hands", "40", "--seed", "5", "--bots", "random", "-f", "json"]
    mj(*args, "--out", str(clean))  # warms the caches (so that only --out hits the limit)
    p = subprocess.run([sys.executable, "-m", "mjtools", *args, "--out", str(out)], capture_output=True, timeout=GUARD, env=ENV, preexec_fn=_limit_file_size(6000))
    assert p.returncode == 3, p.stderr
    assert str(out) in one_line(p.stderr.decode())
    torn = out.read_bytes()
    assert 0 < len(torn) <= 6000
    p = mj(*args, "--out", str(out), "--resume")
    assert p.returncode == 0, p.stderr
    assert out.read_bytes() == clean.read_bytes()


# -- 10. simulate: orphaned workers, resume with blank lines ---------------------------------------


def test_resume_ignores_blank_lines(tmp_path):
    out, clean = tmp_path / "run.jsonl", tmp_path / "clean.jsonl"
    args = ["simulate", "--hands", "12", "--seed", "2", "--bots", "random", "-f", "json"]
    assert mj(*args, "--out", str(clean)).returncode == 0
    lines = clean.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:5]) + b"\n  \n\n")
    p = mj(*args, "--out", str(out), "--resume")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["resumed_at"] == 4
    assert [x for x in out.read_bytes().splitlines() if x.strip()] == [x.rstrip(b"\n") for x in lines]


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs /proc")
def test_orphaned_workers_exit_quietly(tmp_path):
    err = tmp_path / "stderr.txt"
    out = tmp_path / "run.jsonl"
    with open(err, "wb") as e:
        proc = subprocess.Popen([sys.executable, "-m", "mjtools", "simulate", "--hands", "100000", "--workers", "2", "--bots", "random", "--out", str(out)], stdout=subprocess.DEVNULL, stderr=e, env=ENV)
    try:
        deadline = time.time() + GUARD
        workers: list[int] = []
        while time.time() < deadline and (len(workers) < 2 or not out.exists() or out.stat().st_size < 2000):
            workers = _children(proc.pid)
            time.sleep(0.05)
        assert len(workers) == 2
    finally:
        proc.kill()  # SIGKILL: the parent gets no chance to stop its workers
        proc.wait(timeout=GUARD)
    deadline = time.time() + 5
    while time.time() < deadline and any(os.path.exists(f"/proc/{w}") and _alive(w) for w in workers):
        time.sleep(0.05)
    assert not any(os.path.exists(f"/proc/{w}") and _alive(w) for w in workers)
    assert err.read_bytes() == b""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _sigint_default() -> None:
    # What a terminal's Ctrl-C reaches: a process whose SIGINT is at its default (an ignored
    # SIGINT is inherited across exec, and Python then leaves it ignored).
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_interrupt_is_130_and_one_line(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "mjtools", "simulate", "--hands", "100000", "--bots", "random", "--out", str(tmp_path / "run.jsonl")], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV, preexec_fn=_sigint_default)
    out = tmp_path / "run.jsonl"
    deadline = time.time() + 3 * GUARD
    while time.time() < deadline and not (out.exists() and out.stat().st_size > 1000):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    try:
        # (a generous wait: on a loaded machine the interrupted run still has to be scheduled)
        _, err = proc.communicate(timeout=3 * GUARD)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        raise AssertionError(f"still running {3 * GUARD} s after SIGINT; stderr: {err.decode()[-500:]!r}") from None
    finally:
        proc.kill()
    # 130, or killed by SIGINT (which a shell also shows as 130) when Python re-raises it at exit
    assert proc.returncode in (130, -signal.SIGINT)
    assert "aborted" in one_line(err.decode())


def _batch_with_workers(tmp_path, **popen) -> tuple[subprocess.Popen, Path]:
    """A `score --input --workers 2` batch long enough to be stopped midway, once its workers
    have written some of it."""
    lines = tmp_path / "hands.txt"
    rng = random.Random(31)
    hands = ["234567m234p5688s+7s", "123m456p789s1122z+1z", "22334455m667788p+2m", "111999m111999p1s+1s"]
    lines.write_text("".join(rng.choice(hands) + "\n" for _ in range(400_000)), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "mjtools", "score", "--input", str(lines), "-f", "jsonl", "--workers", "2"], stdout=open(out, "wb"), env=ENV, **popen)
    deadline = time.time() + 3 * GUARD
    while time.time() < deadline and not (out.exists() and out.stat().st_size > 20_000 and len(_children(proc.pid)) == 2):
        time.sleep(0.05)
    return proc, out


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs /proc")
def test_batch_workers_interrupted_is_130_one_line_and_no_worker_left(tmp_path):
    proc, _ = _batch_with_workers(tmp_path, stderr=subprocess.PIPE, preexec_fn=_sigint_default)
    workers = _children(proc.pid)
    assert len(workers) == 2
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=3 * GUARD)
    finally:
        proc.kill()
    assert proc.returncode in (130, -signal.SIGINT)
    assert err.decode().strip() == "mjtools: aborted"  # (no "Exception ignored" from a reader)
    assert not any(_alive(w) for w in workers)


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs /proc")
def test_batch_workers_end_with_a_killed_parent(tmp_path):
    proc, _ = _batch_with_workers(tmp_path, stderr=subprocess.DEVNULL)
    workers = _children(proc.pid)
    assert len(workers) == 2
    proc.kill()  # SIGKILL: the workers see their pipes' ends
    proc.wait(timeout=GUARD)
    deadline = time.time() + 5
    while time.time() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers)

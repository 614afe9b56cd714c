"""`mjtools shanten --input FILE`: plain hand lines in bulk, everything else line by line.

A *plain* line is a concealed hand written as digit runs closed by m/p/s/z (`123m456p11z`),
nothing else: no melds, red fives, spaces, JSON, `+`. Plain lines of hand size or one more
are parsed and analysed together (`arrays.py` with numpy, `fast.py` without) and written
through string templates; every other line, and any plain line the fast path would refuse
(unknown tiles, a fifth copy, a wrong size), goes through the general per-line path, which
produces its record or its error record. The output is the same as the general path's, byte
for byte: same records, same order, same line numbers, N cases -> N records
(tests/test_batch_fast.py compares them).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from mjtools.analysis import fast
from mjtools.analysis.tables import INF
from mjtools.output import Renderer, dumps
from mjtools.tiles.kinds import kind_str

CHUNK_BYTES = 2097152  # lines are read, parsed and analysed about 2 MB at a time
USE_NUMPY = True  # tests switch the numpy backend off to check the pure-Python one
PLAIN = re.compile(r"(?:[1-9]+[mpsz])+")
RUN = re.compile(r"([1-9]+)([mpsz])")
OFFSET = {"m": 0, "p": 9, "s": 18, "z": 27}
NAMES = [kind_str(k) for k in range(34)]
FORMS3 = ("standard", "seven_pairs", "thirteen_orphans")


def canonical_of(counts: Sequence[int]) -> str:
    """The notation of concealed counts (what `str(Hand)` gives for a plain hand)."""
    out = []
    for suit, lo, hi in (("m", 0, 9), ("p", 9, 18), ("s", 18, 27), ("z", 27, 34)):
        digits = "".join(str(k - lo + 1) * counts[k] for k in range(lo, hi) if counts[k])
        if digits:
            out.append(digits + suit)
    return "".join(out)


class Formatter:
    """JSON pieces of shanten records, memoised (the same effective sets recur constantly)."""

    def __init__(self, rules_id: str, unmet: list[str]):
        self.rules = dumps(rules_id)
        self.unmet = unmet
        self.unmet_json = dumps(unmet)
        self._forms: dict[tuple[int, int, int], tuple[str, dict[str, int | None]]] = {}
        # Shanten as JSON by the least distance; effective lists are built from per-suit pieces
        # (`"1m", "3m", `) because whole lists hardly ever repeat across random hands.
        self.sh = [str(d - 1) for d in range(INF)] + ["null"] * 200
        # pieces[g][mask + flag * 2**size]: the JSON items of suit g's kinds in mask, with a
        # leading ", " when flag says an earlier suit already wrote some.
        self.pieces = [_pieces(suit, size, g > 0) for g, (suit, size) in enumerate((("m", 9), ("p", 9), ("s", 9), ("z", 7)))]
        self.sf = _ShantenForms(self)
        self.csv_cells = _CsvCells(self)

    def eff_json(self, mask: int) -> str:
        pm, pp, ps, pz = self.pieces
        a, b, c, d = mask & 511, mask >> 9 & 511, mask >> 18 & 511, mask >> 27 & 127
        return f"[{pm[a]}{pp[b + 512 * (a > 0)]}{ps[c + 512 * (a + b > 0)]}{pz[d + 128 * (a + b + c > 0)]}]"

    @staticmethod
    def eff_list(mask: int) -> list[str]:
        return [NAMES[k] for k in fast.kinds_of(mask)]

    def forms(self, d: tuple[int, int, int]) -> tuple[str, dict[str, int | None]]:
        """(JSON, dict) of the per-form shanten from the three distances (INF: form out)."""
        got = self._forms.get(d)
        if got is None:
            obj = {f: (None if x >= INF else x - 1) for f, x in zip(FORMS3, d)}
            got = self._forms[d] = (dumps(obj), obj)
        return got

    @staticmethod
    def shanten(d: tuple[int, int, int]) -> int | None:
        best = min(d)
        return None if best >= INF else best - 1

    def line13(self, line: int, hand: str, d: tuple[int, int, int], mask: int, count: int) -> str:
        # (batch_np.Vectorised.feed inlines this template for speed: keep the two in step)
        return f'{{"line": {line}, "hand": "{hand}", "rules": {self.rules}, {self.sf[d[0] * 10000 + d[1] * 100 + d[2]]}, "unmet": {self.unmet_json}, "effective": {self.eff_json(mask)}, "effective_count": {count}}}\n'

    def rec13(self, line: int, hand: str, d: tuple[int, int, int], mask: int, count: int, rules_id: str) -> dict[str, Any]:
        return {"line": line, "hand": hand, "rules": rules_id, "shanten": self.shanten(d), "forms": dict(self.forms(d)[1]), "unmet": list(self.unmet), "effective": self.eff_list(mask), "effective_count": count}

    def discards_json(self, rows: list[tuple[int, int, int, int]]) -> str:
        body = ", ".join(f'{{"tile": "{NAMES[k]}", "shanten": {rs}, "effective": {self.eff_json(mask)}, "effective_count": {n}}}' for rs, _, k, mask, n in _sorted(rows))
        return f"[{body}]"

    def line14(self, line: int, hand: str, d: tuple[int, int, int], rows: list[tuple[int, int, int, int]] | str) -> str:
        """`rows`: (kind, shanten, mask, live) per discard, or their JSON already rendered."""
        s = self.shanten(d)
        discards = rows if isinstance(rows, str) else self.discards_json(rows)
        return (
            f'{{"line": {line}, "hand": "{hand}", "rules": {self.rules}, "shanten": {"null" if s is None else s}, '
            f'"forms": {self.forms(d)[0]}, "unmet": {self.unmet_json}, "discards": {discards}}}\n'
        )

    # CSV rows (output.COLUMNS["shanten"]): the same JSON cells the general path writes.
    def row13(self, line: int, hand: str, d: tuple[int, int, int], mask: int, count: int, rules_id: str) -> list[Any]:
        s = self.shanten(d)
        return [line, hand, rules_id, "" if s is None else s, self.forms(d)[0], self.unmet_json, self.eff_json(mask), count, "", ""]

    def row14(self, line: int, hand: str, d: tuple[int, int, int], rows: list[tuple[int, int, int, int]] | str, rules_id: str) -> list[Any]:
        s = self.shanten(d)
        discards = rows if isinstance(rows, str) else self.discards_json(rows)
        return [line, hand, rules_id, "" if s is None else s, self.forms(d)[0], self.unmet_json, "", "", discards, ""]

    def rec14(self, line: int, hand: str, d: tuple[int, int, int], rows: list[tuple[int, int, int, int]], rules_id: str) -> dict[str, Any]:
        discards = [{"tile": NAMES[k], "shanten": rs, "effective": self.eff_list(mask), "effective_count": n} for rs, _, k, mask, n in _sorted(rows)]
        return {"line": line, "hand": hand, "rules": rules_id, "shanten": self.shanten(d), "forms": dict(self.forms(d)[1]), "unmet": list(self.unmet), "discards": discards}


def _pieces(suit: str, size: int, flagged: bool) -> list[str]:
    items = [", ".join(f'"{i + 1}{suit}"' for i in range(size) if mask >> i & 1) for mask in range(1 << size)]
    return items + [", " + x if x else "" for x in items] if flagged else items


class _ShantenForms(dict):
    """forms key (std * 10000 + seven pairs * 100 + orphans distance) -> the JSON text
    `"shanten": S, "forms": {...}` (a handful of keys recur)."""

    def __init__(self, fmt: Formatter):
        super().__init__()
        self.fmt = fmt

    def __missing__(self, key: int) -> str:
        d = (key // 10000, key // 100 % 100, key % 100)
        text = f'"shanten": {self.fmt.sh[min(d)]}, "forms": {self.fmt.forms(d)[0]}'
        self[key] = text
        return text


class _CsvCells(dict):
    """forms key -> (shanten cell, forms JSON cell) for CSV rows."""

    def __init__(self, fmt: Formatter):
        super().__init__()
        self.fmt = fmt

    def __missing__(self, key: int) -> tuple[Any, str]:
        d = (key // 10000, key // 100 % 100, key % 100)
        s = self.fmt.shanten(d)
        cells = self[key] = ("" if s is None else s, self.fmt.forms(d)[0])
        return cells


def _sorted(rows: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int, int]]:
    """Discard rows (kind, shanten, mask, live) in the contract's order: shanten, then live
    effective count descending, then tile."""
    return sorted((s, -n, k, mask, n) for k, s, mask, n in rows)


class ShantenBatch:
    """Streams a shanten batch: plain lines through the fast path, the rest through `general`."""

    def __init__(self, rs: Any, ctx: Any, spec: Any, out: Renderer, general: Callable[[int, str], tuple[dict[str, Any], bool]], use_numpy: bool | None = None):
        from mjtools.batch.records import unmet
        from mjtools.rules.validate import visible_counts
        from mjtools.tiles.hand import Hand
        from mjtools.tiles.kinds import parse_kind

        self.rs, self.spec, self.out, self.general = rs, spec, out, general
        self.eng = fast.engine_for(spec)
        assert self.eng is not None
        self.size = rs.hand_size
        self.copies = list(rs.copies[:34])
        vis = visible_counts(ctx.visible)[:34]
        self.vis = vis
        # The most copies a plain line may hold: the tile set's, less the tiles --visible and
        # the dora indicators show (a line holding more is refused by the general path).
        seen = visible_counts(tuple(ctx.visible) + tuple(ctx.indicators.get("dora", ())))[:34]
        self.cap = [c - v for c, v in zip(self.copies, seen)]
        # unmet() depends on the hand only through concealment (plain lines are concealed) and
        # the no-win kinds held; the rest is fixed for the batch.
        self.unmet = unmet(rs, Hand(), ctx)
        self.no_win = fast.mask_of(parse_kind(t) for t in rs.section("win").get("no_win_holding", ()))
        # Kinds a plain line may hold and still be answered here: playable, not bonus tiles.
        self.plain_ok = self.eng.kinds_mask & ~fast.mask_of(k for k in rs.bonus_kinds if k < 34)
        self.few = [k for k in fast.kinds_of(self.eng.kinds_mask) if self.copies[k] < 4]
        self.capped = [k for k in range(34) if self.cap[k] < 4]
        self.fmt = Formatter(rs.id, self.unmet)
        self.failed = 0
        self.jsonl = out.fmt == "jsonl"
        self.csv = out.fmt == "csv"
        self.np = None
        if USE_NUMPY if use_numpy is None else use_numpy:
            try:
                from mjtools.batch import vectorised
            except ImportError:  # numpy is a dependency; without a working one the pure-Python path answers
                pass
            else:
                self.np = vectorised.Vectorised(self)

    # -- the per-line pieces both backends share ------------------------------------------------

    def emit_general(self, line: int, raw: str) -> str | None:
        from mjtools.batch.reading import Overlong

        text = raw if isinstance(raw, Overlong) else raw.strip()
        if not isinstance(text, Overlong) and (not text or text.startswith("#")):
            return None
        rec, bad = self.general(line, text)
        self.failed += bad
        if self.jsonl:
            return dumps(rec) + "\n"
        self.out.emit(rec)
        return None

    def unmet_for(self, counts: Sequence[int]) -> list[str] | None:
        """None when the batch's unmet list applies; else this hand's list."""
        if self.no_win and any(counts[k] for k in fast.kinds_of(self.no_win)):
            return self.unmet + ["no_win_holding"]
        return None

    def left(self, counts: Sequence[int]) -> list[int]:
        return [max(0, c - h - v) for c, h, v in zip(self.copies, counts, self.vis)]

    def live(self, counts: Sequence[int], mask: int) -> int:
        """Copies left of the kinds in mask (not held, not visible)."""
        copies, vis = self.copies, self.vis
        return sum(max(0, copies[k] - counts[k] - vis[k]) for k in fast.kinds_of(mask))

    def drawable(self, counts: Sequence[int]) -> int:
        # Kinds with four copies are never offered by the engine once four are held; only
        # kinds with fewer copies (a variant's odd tiles) need looking at.
        mask = self.eng.kinds_mask
        for k in self.few:
            if counts[k] >= self.copies[k]:
                mask &= ~(1 << k)
        return mask

    def plain_counts(self, text: str) -> tuple[list[int], bool] | None:
        """(counts, written in canonical form) of a plain line the fast path can answer, else
        None (the general path answers, or reports the error)."""
        if not PLAIN.fullmatch(text):
            return None
        c = [0] * 34
        present = 0
        last = -1
        canonical = True
        for digits, suit in RUN.findall(text):
            base = OFFSET[suit]
            if base <= last - last % 9 and last >= 0:
                canonical = False  # a suit letter again, or out of order
            for d in digits:
                k = base + ord(d) - 49
                if suit == "z" and d > "7":
                    return None
                if k < last:
                    canonical = False
                last = k
                c[k] += 1
                present |= 1 << k
        if present & ~self.plain_ok or max(c) > 4 or sum(c) not in (self.size, self.size + 1):
            return None
        if any(c[k] > self.cap[k] for k in self.capped):
            return None
        return c, canonical

    def record_text(self, line: int, hand: str, counts: list[int], d: tuple[int, int, int], mask: int | None, rows: list | str | None) -> str | None:
        """Write (dict formats) or return (jsonl) the record of a plain line. `rows`: the discard
        rows of a hand with one tile more (their JSON already rendered for jsonl and csv)."""
        fmt = self.fmt
        special = self.unmet_for(counts)
        if special is not None:
            fmt = Formatter(self.rs.id, special)
        if rows is None:
            assert mask is not None
            count = self.live(counts, mask)
            if self.jsonl:
                return fmt.line13(line, hand, d, mask, count)
            if self.csv:
                self.out.csv_values(fmt.row13(line, hand, d, mask, count, self.rs.id))
            else:
                self.out.emit(fmt.rec13(line, hand, d, mask, count, self.rs.id))
        else:
            if self.jsonl:
                return fmt.line14(line, hand, d, rows)
            if self.csv:
                self.out.csv_values(fmt.row14(line, hand, d, rows, self.rs.id))
            else:
                self.out.emit(fmt.rec14(line, hand, d, rows, self.rs.id))
        return None

    def discard_rows(self, counts: list[int]) -> list[tuple[int, int, int, int]]:
        """(kind, shanten, effective mask, live count) per distinct discard (pure Python)."""
        eng, left = self.eng, self.left(counts)
        rows = []
        for k in range(34):
            if not counts[k]:
                continue
            counts[k] -= 1
            d, mask = eng.effective_mask(counts, 0, self.drawable(counts))
            counts[k] += 1
            rows.append((k, d - 1 if d < INF else INF, mask, sum(left[e] for e in fast.kinds_of(mask))))
        return rows

    # -- the pure-Python backend ----------------------------------------------------------------

    def feed_python(self, lines: list[str], first: int) -> list[str]:
        out: list[str] = []
        eng = self.eng
        for i, raw in enumerate(lines):
            line = first + i
            text = raw.rstrip("\n")
            got = self.plain_counts(text)
            if got is None:
                res = self.emit_general(line, raw)
            else:
                c, canonical = got
                hand = text if canonical else canonical_of(c)
                if sum(c) == self.size:
                    d, mask = eng.analyse(c, 0, self.drawable(c))
                    res = self.record_text(line, hand, c, d, mask, None)
                else:
                    res = self.record_text(line, hand, c, eng.distances(c, 0), None, self.discard_rows(c))
            if res is not None:
                out.append(res)
        return out

    def feed(self, lines: list[str], first: int) -> list[str]:
        """The JSON lines of a chunk of lines (other formats are emitted to `out`)."""
        return self.np.feed(lines, first) if self.np is not None else self.feed_python(lines, first)

    def run(self, stream) -> int:
        """Process the whole stream; returns the number of failed cases."""
        for lines, first in _line_chunks(stream, CHUNK_BYTES):
            texts = self.feed(lines, first)
            if texts:
                self.out.out.write("".join(texts))
        return self.failed


def batch_for(base_opts: dict[str, Any], rules_name: str | None, out: Any, use_numpy: bool | None = None) -> ShantenBatch | None:
    """The fast path's batch for these options, or None when it does not apply (a ruleset or
    option set it does not cover, or rules that do not load: the general path then runs and
    reports per-case errors such as an unknown --rules)."""
    from mjtools.analysis.wildcards import stand_ins, wild_kinds
    from mjtools.batch.cases import analysis_compute, batch_record, default_rules, load_rules
    from mjtools.errors import MjError
    from mjtools.rules.hand_options import build_context

    opts = dict(base_opts)
    try:
        rs = load_rules(default_rules(rules_name), opts.pop("option", {}))
        ctx = build_context(opts, rs)
    except MjError:
        return None
    wild = wild_kinds(rs, ctx)
    spec = rs.shape_spec(wild, stand_ins(rs, wild)) if wild else rs.base_spec
    if ctx.void is not None or fast.engine_for(spec) is None or max(rs.copies[:34]) > 4:
        return None
    compute = analysis_compute("shanten")

    def general(line: int, raw: str) -> tuple[dict[str, Any], bool]:
        return batch_record("shanten", line, raw, base_opts, rules_name, compute)

    return ShantenBatch(rs, ctx, spec, out, general, use_numpy)


WORKER_SPLIT = 8  # with --workers, each chunk read goes out in this many parts (the workers share the end)


def run_shanten(hand_words: tuple[str, ...], input_file, fmt: str, cli_opts: dict[str, Any], rules_name: str | None, table: Callable | None, workers: int = 1) -> int | None:
    """Run a shanten batch through the fast path and return the number of failed lines; None
    (nothing done) when it does not apply: not a batch, or a ruleset/option set the fast path
    does not cover (the caller then runs the general path)."""
    from mjtools.batch.cases import batch_stream, rules_memo
    from mjtools.rules.hand_options import normalize

    base_opts = normalize(cli_opts, "shanten")  # (before the stream check, as run_cases does)
    stream = batch_stream(hand_words, input_file)
    if stream is None or stream.isatty():  # typed lines are answered one at a time
        return None
    out = Renderer(fmt, "shanten", batch=True, table=table)
    with rules_memo():
        batch = batch_for(base_opts, rules_name, out)
        if batch is None:
            return None
        if workers > 1:
            from mjtools.batch.parallel import ShantenJob, _shanten_chunk, in_order

            failed = 0
            job = ShantenJob(base_opts, rules_name, fmt, USE_NUMPY)
            for text, items, bad in in_order(_shanten_chunk, (job,), _split(_line_chunks(stream, CHUNK_BYTES)), workers):
                failed += bad
                if text:
                    out.out.write(text)
                for is_row, item in items:
                    if is_row:
                        out.csv_values(item)
                    else:
                        out.emit(item)
        else:
            failed = batch.run(stream)
    out.close()
    return failed


def _split(chunks):
    """Each (lines, first) in WORKER_SPLIT parts (the input is read in the same chunks as with
    one worker)."""
    for lines, first in chunks:
        step = max(1, -(-len(lines) // WORKER_SPLIT))
        for i in range(0, len(lines), step):
            yield lines[i : i + step], first + i


def _line_chunks(stream, size: int):
    """(lines, first line number) about `size` characters at a time (batch/reading.py: an
    undecodable or over-long line is kept, to become an error record)."""
    from mjtools.batch.reading import read_chunks

    first = 1
    for lines in read_chunks(stream, size):
        yield lines, first
        first += len(lines)

"""The numpy backend of `batch.py`: parse and analyse a chunk of plain hand lines at once.

Parsing works on the chunk's bytes: a character class per byte, the suit of each digit from the
next suit letter (a reversed running minimum), counts by one bincount over (line, kind). A
line with anything unexpected is left to the general path, so the parser only has to be right
about the lines it accepts (tests/test_batch_fast.py checks it against the notation parser).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mjtools.analysis import arrays
from mjtools.batch.plain import NAMES, canonical_of

if TYPE_CHECKING:
    from mjtools.batch.plain import ShantenBatch

NL = 10
DIGIT = np.zeros(256, dtype=bool)
DIGIT[ord("1") : ord("9") + 1] = True
LETTER = np.zeros(256, dtype=bool)
SUIT_BASE = np.zeros(256, dtype=np.int16)  # kind of the suit's 1
SUIT_RANK = np.zeros(256, dtype=np.int8)
for _i, _s in enumerate("mpsz"):
    LETTER[ord(_s)] = True
    SUIT_BASE[ord(_s)] = 9 * _i
    SUIT_RANK[ord(_s)] = _i
PLAIN = DIGIT | LETTER
PLAIN[NL] = True


W9 = (1 << np.arange(9)).astype(np.int32)


def _pieces_idx(eff: np.ndarray) -> list[np.ndarray]:
    """Per hand, from effective kinds (34, N): indexes into Formatter.pieces for m, p, s, z
    (the suit's bit mask, plus 2**size when an earlier suit already has items)."""
    gm = [W9 @ eff[0:9], W9 @ eff[9:18], W9 @ eff[18:27], W9[:7] @ eff[27:34]]
    seen = gm[0] > 0
    idx = [gm[0]]
    for g, size in ((1, 512), (2, 512), (3, 128)):
        idx.append(gm[g] + size * seen)
        seen = seen | (gm[g] > 0)
    return idx


def _dists(fk: int) -> tuple[int, int, int]:
    """(standard, seven pairs, thirteen orphans) distances from a forms key."""
    return fk // 10000, fk // 100 % 100, fk % 100


def _masks(eff: np.ndarray) -> list[int]:
    """(N, 34) bool -> N ints with bit k set for kind k."""
    packed = np.zeros((eff.shape[0], 8), dtype=np.uint8)
    packed[:, :5] = np.packbits(eff, axis=1, bitorder="little")
    return packed.view("<u8").ravel().tolist()


class Vectorised:
    def __init__(self, batch: ShantenBatch):
        self.b = batch
        self.ae = arrays.engine_for(batch.spec)
        self.copies = np.array(batch.copies, dtype=np.int16)
        self.cap = np.array(batch.cap, dtype=np.int16)
        self.vis = np.array(batch.vis, dtype=np.int16)
        self.refused = np.array([not batch.plain_ok >> k & 1 for k in range(34)])
        self.no_win = np.array([bool(batch.no_win >> k & 1) for k in range(34)])

    def parse(self, data: bytes, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(counts (n, 34), plain (n,) bool, canonical (n,) bool) for n lines, each ending in NL."""
        b = np.frombuffer(data, dtype=np.uint8)
        nl = b == NL
        line = np.cumsum(nl, dtype=np.int32)
        line -= nl  # a line's NL belongs to it
        digit = DIGIT[b]
        letter = LETTER[b]
        bad = ~PLAIN[b]
        bad[0] |= letter[0]
        bad[1:] |= letter[1:] & ~digit[:-1]  # a suit letter with no digit before it
        bad[:-1] |= digit[:-1] & nl[1:]  # digits with no suit letter after them
        bad_line = np.zeros(n, dtype=bool)
        bad_line[line[bad]] = True
        has_digit = np.zeros(n, dtype=bool)
        has_digit[line[digit]] = True
        bad_line |= ~has_digit  # blank lines
        pos = np.where(letter, np.arange(len(b), dtype=np.int32), np.int32(len(b) - 1))
        suit_at = np.minimum.accumulate(pos[::-1])[::-1]  # the next suit letter (NL at the end)
        dpos = np.flatnonzero(digit)
        dline = line[dpos]
        suit = b[suit_at[dpos]]
        num = b[dpos].astype(np.int16) - ord("1")
        bad_line[dline[(suit == ord("z")) & (num > 6)]] = True
        kind = SUIT_BASE[suit] + num
        keep = ~bad_line[dline]
        counts = np.bincount(dline[keep] * 34 + kind[keep], minlength=n * 34).reshape(n, 34)
        # Canonical as written: kinds never decrease along a line and each suit letter appears
        # once (else the echoed hand is rebuilt from the counts).
        messy = np.zeros(n, dtype=bool)
        same = dline[1:] == dline[:-1]
        messy[dline[1:][same & (kind[1:] < kind[:-1])]] = True
        lpos = np.flatnonzero(letter)
        lline = line[lpos]
        rank = SUIT_RANK[b[lpos]]
        same = lline[1:] == lline[:-1]
        messy[lline[1:][same & (rank[1:] <= rank[:-1])]] = True
        return counts, ~bad_line, ~messy

    def feed(self, lines: list[str], first: int) -> list[str]:
        b = self.b
        n = len(lines)
        if not lines[-1].endswith("\n"):
            lines[-1] += "\n"  # (our own list: the last line of a file may lack its newline)
        counts, plain, canonical = self.parse("".join(lines).encode("utf-8", "replace"), n)
        plain &= counts.max(1) <= 4
        counts = counts.astype(np.uint8)  # (after the check: a wild line may hold 256 copies)
        size = counts.sum(1, dtype=np.int32)
        plain &= ~(counts > self.cap).any(1) & ~counts[:, self.refused].any(1)
        is13 = plain & (size == b.size)
        is14 = plain & (size == b.size + 1)
        if self.no_win.any():  # these hands carry their own unmet list: the slower record path
            is13 &= ~(counts[:, self.no_win] > 0).any(1)
        fmt = b.fmt
        rules, unmet, sf = fmt.rules, fmt.unmet_json, fmt.sf
        pm, pp, ps, pz = fmt.pieces
        idx13 = np.flatnonzero(is13)
        fk, ia, ib, ic, iz, cnt, masks = self._thirteen(counts[idx13], need_masks=not (b.jsonl or b.csv))
        if len(idx13) == n and canonical.all():
            # The common case, a chunk of plain hands as written: one comprehension.
            # (The templates are Formatter.line13's and row13's: keep them in step.)
            if b.jsonl:
                return [
                    f'{{"line": {ln}, "hand": "{raw[:-1]}", "rules": {rules}, {sf[f]}, "unmet": {unmet}, '
                    f'"effective": [{pm[a]}{pp[b_]}{ps[c]}{pz[z]}], "effective_count": {k}}}\n'
                    for ln, raw, f, a, b_, c, z, k in zip(range(first, first + n), lines, fk, ia, ib, ic, iz, cnt)
                ]
            if b.csv:
                cells, rid = fmt.csv_cells, b.rs.id
                for ln, raw, f, a, b_, c, z, k in zip(range(first, first + n), lines, fk, ia, ib, ic, iz, cnt):
                    sh, fj = cells[f]
                    b.out.csv_values([ln, raw[:-1], rid, sh, fj, unmet, f"[{pm[a]}{pp[b_]}{ps[c]}{pz[z]}]", k, "", ""])
                return []
        r14 = self._fourteen(counts[is14], as_json=b.jsonl or b.csv)
        status = (is13.astype(np.int8) + 2 * (is14 & ~is13)).tolist()
        canon = canonical.tolist()
        out: list[str] = []
        i13 = i14 = 0
        for i, st in enumerate(status):
            line = first + i
            if st == 0:
                got = b.emit_general(line, lines[i])
                if got is not None:
                    out.append(got)
                continue
            hand = lines[i][:-1] if canon[i] else canonical_of(counts[i].tolist())
            if st == 1:
                j = i13
                i13 += 1
                if b.jsonl:
                    out.append(
                        f'{{"line": {line}, "hand": "{hand}", "rules": {rules}, {sf[fk[j]]}, "unmet": {unmet}, '
                        f'"effective": [{pm[ia[j]]}{pp[ib[j]]}{ps[ic[j]]}{pz[iz[j]]}], "effective_count": {cnt[j]}}}\n'
                    )
                    continue
                if b.csv:
                    sh, fj = fmt.csv_cells[fk[j]]
                    b.out.csv_values([line, hand, b.rs.id, sh, fj, unmet, f"[{pm[ia[j]]}{pp[ib[j]]}{ps[ic[j]]}{pz[iz[j]]}]", cnt[j], "", ""])
                    continue
                got = b.record_text(line, hand, counts[i].tolist(), _dists(fk[j]), masks[j], None)
            else:
                d, rows = r14[0][i14], r14[1][i14]
                i14 += 1
                got = b.record_text(line, hand, counts[i].tolist(), d, None, rows)
            if got is not None:
                out.append(got)
        return out

    def _drawable(self, c: np.ndarray) -> np.ndarray:
        return (c < self.copies) & self.ae.kinds

    def _left(self, c: np.ndarray) -> np.ndarray:
        return np.maximum(self.copies - c.astype(np.int16) - self.vis, 0)

    def _thirteen(self, c: np.ndarray, need_masks: bool) -> tuple[list[int], ...]:
        """Per hand: the forms key (`_dists`), the four effective-list piece indexes (see
        Formatter.pieces), the live effective count, and (for dict formats) the mask."""
        if not len(c):
            return [], [], [], [], [], [], []
        a = self.ae.analyse(c, 0, True, self._drawable(c))
        assert a.effective is not None
        eff = a.effective.T  # (34, N), contiguous
        count = (eff * self._left(c).T).sum(0)
        fk = (a.standard.astype(np.int32) * 10000 + a.seven_pairs.astype(np.int32) * 100 + a.thirteen_orphans).tolist()
        masks = _masks(a.effective) if need_masks else []
        return (fk, *(x.tolist() for x in _pieces_idx(eff)), count.tolist(), masks)

    def _fourteen(self, c: np.ndarray, as_json: bool) -> tuple[list[tuple[int, int, int]], list]:
        """Per hand: (distances per form, discard rows): the rows' JSON when `as_json`, else
        (kind, shanten, mask, live count) tuples. One row per distinct discard."""
        if not len(c):
            return [], []
        whole = self.ae.analyse(c, 0, False)
        d = list(zip(whole.standard.tolist(), whole.seven_pairs.tolist(), whole.thirteen_orphans.tolist()))
        hand, kind = np.nonzero(c)
        sub = c[hand].astype(np.int16)
        sub[np.arange(len(hand)), kind] -= 1
        a = self.ae.analyse(sub, 0, True, self._drawable(sub))
        assert a.effective is not None
        live = (a.effective * self._left(c)[hand]).sum(1)
        s = a.shanten
        per = np.count_nonzero(c, axis=1).tolist()
        if not as_json:
            masks, kinds, sl, ll = _masks(a.effective), kind.tolist(), s.tolist(), live.tolist()
            rows: list = []
            start = 0
            for p in per:
                rows.append([(kinds[j], sl[j], masks[j], ll[j]) for j in range(start, start + p)])
                start += p
            return d, rows
        # The contract's order (shanten, live effective count descending, tile) within each hand,
        # then every row rendered in one comprehension and joined per hand.
        order = np.lexsort((kind, -live, s, hand))
        eff = a.effective[order].T
        ia, ib, ic, iz = (x.tolist() for x in _pieces_idx(eff))
        pm, pp, ps, pz = self.b.fmt.pieces
        texts = [
            f'{{"tile": "{NAMES[k]}", "shanten": {sh}, "effective": [{pm[w]}{pp[x]}{ps[y]}{pz[z]}], "effective_count": {n}}}'
            for k, sh, n, w, x, y, z in zip(kind[order].tolist(), s[order].tolist(), live[order].tolist(), ia, ib, ic, iz)
        ]
        out: list = []
        start = 0
        for p in per:
            out.append("[" + ", ".join(texts[start : start + p]) + "]")
            start += p
        return d, out

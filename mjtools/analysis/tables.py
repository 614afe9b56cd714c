"""Load the shipped distance tables lazily (pure Python: no numpy on the command path).

`vector(variant, key)` gives a global vector id for a group pattern; `VECTORS[gid]` is the
12-tuple of distances indexed `2 * sets + pairs` (see `tablegen.py` for what they mean).
"""

from __future__ import annotations

import mmap
import os
import zlib
from operator import add

MAX_SETS = 5
WIDTH = 2 * (MAX_SETS + 1)
INF = 99
DATA = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "suit_tables.bin")
POW5 = tuple(5**i for i in range(10))

VECTORS: list[tuple[int, ...]] = []
_INTERN: dict[tuple[int, ...], int] = {}
_raw: dict[str, tuple[int, int]] | None = None
_blob: bytes = b""
_ids: dict[str, tuple[memoryview, list[int]]] = {}


def intern(vec: tuple[int, ...]) -> int:
    gid = _INTERN.get(vec)
    if gid is None:
        gid = len(VECTORS)
        VECTORS.append(vec)
        _INTERN[vec] = gid
    return gid


ZERO = intern((0,) + (INF,) * (WIDTH - 1))  # a group that must stay empty


def _u32(buf: bytes | mmap.mmap, pos: int) -> int:
    """A little-endian uint32 of the file format (int.from_bytes: struct is not worth its import)."""
    return int.from_bytes(buf[pos : pos + 4], "little")


def _index() -> dict[str, tuple[int, int]]:
    global _raw, _blob
    if _raw is None:
        with open(DATA, "rb") as fh:
            _blob = fh.read()
        if _blob[:4] != b"MJT2":
            raise RuntimeError(f"{DATA} is not a distance table file")
        nm, count = _u32(_blob, 4), _u32(_blob, 8)
        assert 2 * nm == WIDTH
        pos = 12 + 20 * count
        _raw = {}
        for i in range(count):
            at = 12 + 20 * i  # a 16-byte name, then the size
            name, size = _blob[at : at + 16], _u32(_blob, at + 16)
            _raw[name.rstrip(b"\0").decode()] = (pos, size)
            pos += size
    return _raw


def table(variant: str) -> tuple[memoryview, list[int]]:
    """(pattern key -> local id, local id -> global vector id) for one table variant."""
    got = _ids.get(variant)
    if got is None:
        pos, size = _index()[variant]
        body = _body(variant, _blob[pos : pos + size])
        nvec, npat = _u32(body, 0), _u32(body, 4)
        vecs = body[8 : 8 + nvec * WIDTH]
        to_global = [intern(tuple(vecs[i * WIDTH : (i + 1) * WIDTH])) for i in range(nvec)]
        ids = memoryview(body)[8 + nvec * WIDTH :].cast("H")
        assert len(ids) == npat
        got = _ids[variant] = (ids, to_global)
    return got


def _body(variant: str, packed: bytes) -> bytes | mmap.mmap:
    """A table's decompressed body. Decompressing the suit table costs more than the rest of a
    single-hand command, so the body is also kept uncompressed in the cache directory (keyed
    by a checksum of the shipped data) and mapped from there; any trouble: decompress."""
    from mjtools.cache import cache_dir

    d = cache_dir()
    if d is None:
        return zlib.decompress(packed)
    name = f"table-{variant}-{zlib.crc32(packed):08x}"
    f = os.path.join(d, name + ".bin")
    try:
        with open(f, "rb") as fh:
            mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        if _whole(mapped):
            return mapped
    except (OSError, ValueError):
        pass
    body = zlib.decompress(packed)
    try:
        os.makedirs(d, exist_ok=True)
        tmp = os.path.join(d, f"{name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            fh.write(body)
        os.replace(tmp, f)
    except OSError:
        pass
    return body


def _whole(body: bytes | mmap.mmap) -> bool:
    """Whether a cached body is as long as its own header says (a truncated or foreign file in
    the cache directory is decompressed again, never read as a table)."""
    return len(body) >= 8 and len(body) == 8 + _u32(body, 0) * WIDTH + 2 * _u32(body, 4)


def vector(variant: str, key: int) -> int:
    ids, to_global = table(variant)
    return to_global[ids[key]]


_COMBINED: dict[int, int] = {}


def combine(a: int, b: int) -> int:
    """Global id of the min-plus combination of two group vectors (sets and pairs add up)."""
    ck = (a << 20) | b if a <= b else (b << 20) | a
    got = _COMBINED.get(ck)
    if got is None:
        va, vb = VECTORS[a], VECTORS[b]
        # entry 2M + P: M sets split M1 + M2 between the two, the pair (P = 1) in either one;
        # read as sums of reversed slices over the even (no pair) and odd (pair) entries
        ea, oa, eb, ob = va[0::2], va[1::2], vb[0::2], vb[1::2]
        out = []
        for m in range(MAX_SETS + 1):
            ra, rb = eb[m::-1], ob[m::-1]
            e = min(map(add, ea, ra))
            o = min(min(map(add, ea, rb)), min(map(add, oa, ra)))
            out.append(e if e < INF else INF)
            out.append(o if o < INF else INF)
        got = _COMBINED[ck] = intern(tuple(out))
    return got

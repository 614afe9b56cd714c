"""The settlement's memo (scoring/settlement.py: a ledger remembered by who pays, the points and,
with dealer entries, the dealer and streak; hands that make someone liable or hold a kong the
section pays for are settled afresh): every record equals the one settled with the memo empty,
on seeded wins of the variants whose settlement takes it."""

import random
import re

import pytest

from gen import winning_case
from mjtools.rules import load
from mjtools.rules.hand_options import build_context, normalize
from mjtools.scoring import score
from mjtools.scoring.settlement import plan
from mjtools.tiles.notation import parse_hand

ROWS = {
    "sichuan-xuezhan": dict(kinds=range(27), chi=False, two_suits=True),
    "guangdong-cantonese": dict(flowers=True),
    "taiwan-16": dict(sets=5, flowers=True),
    "mcr": dict(),
    "changsha": dict(kinds=range(27)),
}


_PUNG = re.compile(r"\((\d)\1\1([mpsz])@([ESWN])\)")
_KONG = re.compile(r"\((\d)\1\1\1")


def _cases(rules: str, n: int) -> list[tuple[str, dict]]:
    rng = random.Random(f"memo:{rules}")
    out = []
    while len(out) < n:
        got = winning_case(rng, **ROWS[rules])
        if got is None:
            continue
        text, opts = got
        if rng.random() < 0.3:  # a shown pung made a kong (kong money where the section pays it)
            text = _PUNG.sub(r"(\1\1\1\1\2@\3)", text, count=1)
        if rng.random() < 0.5:
            opts = {**opts, "streak": rng.randrange(4)}
        out.append((text, opts))
    return out


@pytest.mark.parametrize("rules", sorted(ROWS))
def test_remembered_ledgers_are_the_settled_ones(rules):
    rs = load(rules)
    memo = plan(rs).settled_memo
    cases = _cases(rules, 300)
    first = []
    for text, opts in cases:  # the memo filling and hit as a batch goes
        ctx = build_context(normalize(opts, "score"), rs)
        try:
            first.append(score(parse_hand(text), rs, ctx, text))
        except Exception as e:  # (a case the variant refuses is refused alike both times)
            first.append(type(e).__name__)
    assert memo, "the memo was never used"
    assert sum(bool(_KONG.search(text)) for text, _ in cases) > 20  # (kongs among the cases)
    for (text, opts), got in zip(cases, first):
        memo.clear()
        ctx = build_context(normalize(opts, "score"), rs)
        try:
            again = score(parse_hand(text), rs, ctx, text)
        except Exception as e:
            again = type(e).__name__
        assert again == got, text

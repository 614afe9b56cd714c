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


@pytest.mark.parametrize("rules", sorted(ROWS) + ["riichi"])
def test_settled_without_steps_is_the_same_ledger(rules):
    """settle(..., explained=False) (score without --explain) keeps no replay but settles the
    same; the replay of one settled with steps gives the explain lines."""
    from mjtools.scoring import evaluations
    from mjtools.scoring.settlement import settle

    rs = load(rules)
    rng = random.Random(f"steps:{rules}")
    n = 0
    for _ in range(2000):
        if n >= 60:
            break
        got = winning_case(rng, **ROWS.get(rules, {}))
        if got is None:
            continue
        text, opts = got
        ctx = build_context(normalize(opts, "score"), rs)
        hand = parse_hand(text)
        try:
            readings = evaluations(hand, rs, ctx)
        except Exception:
            continue
        for ev, value in readings:
            if value is None:
                continue
            with_steps = settle(value, rs, ctx, hand, ev)
            without = settle(value, rs, ctx, hand, ev, True, False)
            assert (without.payments, without.pot, without.ledger) == (with_steps.payments, with_steps.pot, with_steps.ledger), text
            assert without.explain_steps() == []
            if with_steps.steps_fn is not None:
                assert with_steps.explain_steps(), text
            n += 1
    assert n > 50

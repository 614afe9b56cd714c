"""`ctx.awarded` (the fans found, read by the `fan` primitive) on every path of the fan plan.

A plan whose fans read no fans leaves the fans found on the reading (`Ctx._found`), made into
the dict on first read; a rule file whose stakes, surcharges or liability read them (the `fan`
primitive outside the fans) must see every fan found, whether the reading's passes ran or came
from Plan.final_memo, and with or without --explain (which prunes no fan)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import mjtools.scoring as scoring
from mcr_gen import mcr_case
from mjtools.errors import MjError
from mjtools.patterns.ctx import Ctx
from mjtools.rules import load, load_path
from mjtools.rules.checks import _pattern_places
from mjtools.rules.hand_options import build_context, normalize
from mjtools.scoring import score
from mjtools.scoring.fan_spec import OTHER_PATTERN_PLACES
from mjtools.scoring.fans import Plan, _evaluate_in_step, plan_for
from mjtools.tiles.notation import parse_hand

# MCR with a discarder surcharge on a fan that a sure fan (all_simples) excludes: without
# --explain the plan would not try no_honors on an all-simples reading (Plan.sure).
HOUSE = """id: mcr-fan-surcharge
extends: mcr
names: {en: MCR with a surcharge on a fan, zh_hans: 无字加倍}
settlement:
  discarder_multipliers:
    - when: {fan: no_honors}
      factor: 2
      names: {en: "No honors: the discarder pays double", zh_hans: 无字放炮加倍}
"""


@pytest.fixture(scope="module")
def house(tmp_path_factory: pytest.TempPathFactory):
    path: Path = tmp_path_factory.mktemp("house") / "mcr-fan-surcharge.yaml"
    path.write_text(HOUSE, encoding="utf-8")
    return load_path(path)


def test_other_pattern_places_are_the_schemas() -> None:
    assert sorted(OTHER_PATTERN_PLACES) == sorted(set(_pattern_places()) - {("fans", "*", "pattern")})


def test_a_fan_read_elsewhere_turns_pruning_off(house) -> None:
    assert not plan_for(load("mcr")).fans_read_elsewhere and plan_for(load("mcr")).sure
    plan = plan_for(house)
    assert plan.fans_read_elsewhere and not plan.sure and not plan.reads_fans


def test_surcharge_on_a_fan_reads_every_fan_found(house) -> None:
    text = "234m345p456s678m5p+5p"  # all_simples excludes no_honors
    ctx = build_context(normalize({"seat": "S", "from": "W"}, "score"), house)
    base = score(parse_hand(text), load("mcr"), ctx, text)
    for explain in (False, True, False):  # (the third from Plan.final_memo)
        rec = score(parse_hand(text), house, ctx, text, explain=explain)
        assert [f["id"] for f in rec["fans"]] == [f["id"] for f in base["fans"]]
        assert rec["payments"]["W"] - 8 == 2 * (base["payments"]["W"] - 8), rec["payments"]


@pytest.mark.parametrize("which", ("house", "mcr --explain"))
def test_awarded_equals_the_fans_found_step_by_step(which: str, house, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every reading's ctx.awarded equals what the step-by-step loop (a plan whose fans read
    the fans found) fills in, on memo misses (first pass) and hits (second pass)."""
    rs = house if which == "house" else load("mcr")
    explain = which != "house"
    plan = plan_for(rs)
    step = Plan(rs)  # (the same plan, read fan by fan)
    step.reads_fans = True
    original = scoring.evaluate_fans
    seen = {"readings": 0, "hits": 0}

    def checking(ctx, rs_, lang="en", plan_=None, opening=False, prune=False):
        before = sum(len(m) for m in plan.final_memo.values())
        ev = original(ctx, rs_, lang, plan_, opening, prune)
        assert not prune or not plan.sure
        direct = Ctx(ctx.hand, ctx.d, ctx.win, ctx.wild_kinds, ctx.dora, ctx.ura, ctx.options, {}, ctx.spec, ctx.hand_bits)
        _evaluate_in_step(direct, lang, step, opening)
        assert dict(ctx.awarded) == dict(direct.awarded) and direct.awarded, f"{ctx.hand} ({ctx.d})"
        assert list(ctx.awarded) == list(direct.awarded)  # (in file order, as the loop finds them)
        seen["readings"] += 1
        seen["hits"] += sum(len(m) for m in plan.final_memo.values()) == before
        return ev

    monkeypatch.setattr(scoring, "evaluate_fans", checking)
    rng = random.Random(f"awarded:{which}")
    cases = []
    for _ in range(150):
        text, opts, _ = mcr_case(rng)
        try:
            cases.append((text, build_context(normalize(opts, "score"), rs)))
        except MjError:
            continue
    for _ in range(2):
        for text, ctx in cases:
            try:
                score(parse_hand(text), rs, ctx, text, explain=explain)
            except MjError:
                continue
    assert seen["readings"] > 200 and seen["hits"] > seen["readings"] // 3, seen

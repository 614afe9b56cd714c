"""Riichi scoring speed: mjtools against `mahjong` 2.1.0 and `riichienv`, in the same run.

    python benchmarks/bench_riichi.py [--hands N] [--seed S] [--repeat R] [--sanma] [--stages]

The same seeded random winning hands (tests/riichi_cases.py: closed and open, kongs, dora,
red fives, flags) are scored by each library from its own prepared input (mjtools: a parsed
Hand and a WinContext; mahjong: 136-tile arrays, Melds and a HandConfig; riichienv: the same
arrays and its Conditions). Each library scores every hand once per round; the least CPU
time of R rounds is reported, per hand, with the ratios. mjtools first scores a different set
of hands (a warm-up, as in a long batch), and the libraries take turns round by round. Parsing
the notation is timed separately.

`--stages` times the stages of mjtools' scoring one at a time on the same hands (each stage's
inputs prepared beforehand, best of R rounds): the per-stage table of benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, ROOT)

from riichi_cases import random_case  # noqa: E402

from mjtools.rules import load  # noqa: E402
from mjtools.rules.hand_options import build_context, normalize  # noqa: E402
from mjtools.scoring import score  # noqa: E402
from mjtools.tiles.notation import parse_hand  # noqa: E402


def best_of(rounds: int, fn: Callable[[], None]) -> float:
    """The least CPU time (process_time: steadier than wall time on a shared machine) of R runs."""
    best = float("inf")
    for _ in range(rounds):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def prepare(n: int, seed: int, sanma: bool):
    rng = random.Random(seed)
    cases = [random_case(rng, sanma=sanma) for _ in range(n)]
    rs = load("riichi-sanma" if sanma else "riichi", {"north_value": False} if sanma else {})
    ours, texts = [], []
    for c in cases:
        opts = c.json_case()
        text = opts.pop("hand")
        texts.append(text)
        ours.append((parse_hand(text), build_context(normalize(opts, "score"), rs), text))
    peer = [c.mahjong_args() for c in cases]
    return cases, rs, ours, texts, peer


def riichienv_inputs(cases, peer, sanma: bool):
    try:
        from riichienv import _riichienv as rc
    except ImportError:
        return None
    kinds = {"chi": rc.MeldType.Chi, "pon": rc.MeldType.Pon, "kan": rc.MeldType.Daiminkan, "shouminkan": rc.MeldType.Kakan}
    winds = [rc.Wind.East, rc.Wind.South, rc.Wind.West, rc.Wind.North]
    out = []
    for c, (tiles, win, melds, dora, ura, cfg) in zip(cases, peer):
        if c.nagashi:
            continue
        rmelds = []
        in_melds = set()
        for m in melds:
            kind = rc.MeldType.Ankan if (m.type == "kan" and not m.opened) else kinds[m.type]
            rmelds.append(rc.Meld(kind, list(m.tiles), m.opened))
            in_melds.update(m.tiles)
        hand = sorted(t for t in tiles if t not in in_melds)
        cond = rc.Conditions(
            tsumo=cfg.is_tsumo, riichi=cfg.is_riichi, double_riichi=cfg.is_daburu_riichi, ippatsu=cfg.is_ippatsu,
            haitei=cfg.is_haitei, houtei=cfg.is_houtei, rinshan=cfg.is_rinshan, chankan=cfg.is_chankan,
            tsumo_first_turn=cfg.is_tenhou or cfg.is_chiihou, player_wind=winds[cfg.player_wind - 27],
            round_wind=winds[cfg.round_wind - 27], riichi_sticks=cfg.kyoutaku_number, honba=cfg.tsumi_number,
            kita_count=cfg.num_nuki_dora, is_sanma=sanma, num_players=3 if sanma else 4,
        )
        cls = rc.HandEvaluator3P if sanma else rc.HandEvaluator
        out.append((cls, hand, rmelds, win, list(dora), list(ura), cond))
    return out


def stages(rs, ours, repeat: int) -> dict[str, float]:
    """CPU µs per hand of each stage of `score`, timed one stage at a time (so the sum runs a
    little over the whole). Only functions whose signatures every version keeps are called, so
    the same code times the engine before and after a change."""
    from mjtools.analysis.decompose import decompositions
    from mjtools.analysis.wildcards import dora_kinds, wild_kinds
    from mjtools.patterns.ctx import Ctx
    from mjtools.patterns.features import hand_features
    from mjtools.rules.validate import aside_reason, check_hand
    from mjtools.scoring.fans import evaluate_fans, plan_for
    from mjtools.scoring.models import get as get_model
    from mjtools.scoring.models import get_pre_score
    from mjtools.scoring.validity import shape_reason, value_reason

    n = len(ours)
    pre, model, fplan, spec = get_pre_score("riichi"), get_model("riichi"), plan_for(rs), rs.base_spec
    plain = [(h, c, t) for h, c, t in ours if not c.has("nagashi")]
    sizes = (rs.hand_size + 1,)
    checked = [(check_hand(h, rs, t, wild=wild_kinds(rs, c), need_last=True, sizes=sizes), c) for h, c, t in plain]

    def facts(h, c):
        dora = dora_kinds(rs, c.indicators.get("dora", ()))
        ura = dora_kinds(rs, c.ura) if c.ura else ()
        return dora, ura, hand_features(h, c, dora, ura, fplan.uses)

    decs = [(h, c, decompositions(h, spec)) for h, c in checked]
    evs = []
    for h, c, ds in decs:
        dora, ura, bits = facts(h, c)
        for d in ds:
            x = Ctx(h, d, c, frozenset(), dora, ura, rs.option_values, {}, spec, bits)
            ev = evaluate_fans(x, rs, "en", fplan)
            ev.reason = shape_reason(x, rs) or value_reason(ev, rs, c, h, 0)
            evs.append((ev, c, h))

    def st_pre() -> None:
        for h, c, t in ours:
            pre(h, rs, c, t, "en")

    def st_valid() -> None:
        for h, c, t in plain:
            w = wild_kinds(rs, c)
            aside_reason(h, rs)
            check_hand(h, rs, t, wild=w, need_last=True, sizes=sizes)

    def st_text() -> None:
        for h, _ in checked:
            str(h)

    def st_dec() -> None:
        for h, _ in checked:
            decompositions(h, spec)

    def st_ctx() -> None:
        for h, c, ds in decs:
            dora, ura, bits = facts(h, c)
            for d in ds:
                Ctx(h, d, c, frozenset(), dora, ura, rs.option_values, {}, spec, bits)

    def st_ctx_fans() -> None:
        for h, c, ds in decs:
            dora, ura, bits = facts(h, c)
            for d in ds:
                x = Ctx(h, d, c, frozenset(), dora, ura, rs.option_values, {}, spec, bits)
                ev = evaluate_fans(x, rs, "en", fplan)
                ev.reason = shape_reason(x, rs) or value_reason(ev, rs, c, h, 0)

    def st_model() -> None:
        for ev, c, h in evs:
            if not ev.reason:
                model(ev, rs, c, h)

    def st_total() -> None:
        for h, c, t in ours:
            score(h, rs, c, t)

    timed = {"context checks (pre-score)": st_pre, "validation": st_valid, "hand text (record)": st_text, "decompositions": st_dec, "reading contexts": st_ctx, "contexts + fans + validity": st_ctx_fans, "riichi model (han, fu, points, payments)": st_model, "score() whole": st_total}
    got = {name: best_of(repeat, fn) / n * 1e6 for name, fn in timed.items()}
    out = {k: got[k] for k in list(timed)[:5]}
    out["fans and validity"] = got["contexts + fans + validity"] - got["reading contexts"]
    out[list(timed)[6]] = got[list(timed)[6]]
    out["the rest (ranking, settlement, record, glue)"] = got["score() whole"] - sum(out.values())
    out["score() whole"] = got["score() whole"]
    return out


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--sanma", action="store_true", help="three-player hands (mahjong is_three_player=True)")
    ap.add_argument("--stages", action="store_true", help="time mjtools' scoring stage by stage instead")
    args = ap.parse_args(argv)
    from mahjong.hand_calculating.hand import HandCalculator

    cases, rs, ours, texts, peer = prepare(args.hands, args.seed, args.sanma)
    n = len(cases)

    def run_ours() -> None:
        for hand, ctx, text in ours:
            score(hand, rs, ctx, text)

    def run_parse() -> None:
        for text in texts:
            parse_hand(text)

    def run_mahjong() -> None:
        est = HandCalculator.estimate_hand_value
        for tiles, win, melds, dora, ura, cfg in peer:
            est(tiles, win, melds=melds, dora_indicators=dora, config=cfg, ura_dora_indicators=ura)

    # Warm up on other hands: rule files, compiled fan plans and the per-suit reading tables
    # are built once per process, as in a long batch; the timed hands are then scored cold.
    _, _, warm, _, _ = prepare(args.hands, args.seed + 1, args.sanma)
    for hand, ctx, text in warm:
        score(hand, rs, ctx, text)
    if args.stages:
        per = stages(rs, ours, args.repeat)
        print(f"{'riichi' if not args.sanma else 'sanma'}: {n} hands, best of {args.repeat} rounds, CPU µs per hand, one stage at a time")
        for name, us in per.items():
            print(f"  {name:45} {us:7.1f}")
        return per
    # The libraries take turns within each round, so that a change in the machine's speed (a
    # shared machine) hits both alike; each keeps its least time.
    best = {"ours": float("inf"), "parse": float("inf"), "peer": float("inf")}
    for _ in range(args.repeat):
        for key, fn in (("ours", run_ours), ("parse", run_parse), ("peer", run_mahjong)):
            best[key] = min(best[key], best_of(1, fn))
    t_ours, t_parse, t_peer = best["ours"] / n, best["parse"] / n, best["peer"] / n
    result = {"mjtools_us": t_ours * 1e6, "parse_us": t_parse * 1e6, "mahjong_us": t_peer * 1e6, "vs_mahjong": t_peer / t_ours}
    rin = riichienv_inputs(cases, peer, args.sanma)
    if rin:

        def run_riichienv() -> None:
            for cls, hand, melds, win, dora, ura, cond in rin:
                cls(hand, melds).calc(win, dora, ura, cond)

        t_rin = best_of(args.repeat, run_riichienv) / len(rin)
        result.update(riichienv_us=t_rin * 1e6, vs_riichienv=t_rin / t_ours)
    what = "sanma" if args.sanma else "riichi"
    print(f"{what}: {n} seeded winning hands, best of {args.repeat} rounds, per hand")
    print(f"  mjtools score      {result['mjtools_us']:9.1f} us   (parsing the notation adds {result['parse_us']:.1f} us)")
    print(f"  mahjong 2.1.0      {result['mahjong_us']:9.1f} us   mjtools is {result['vs_mahjong']:.2f}x as fast")
    if "riichienv_us" in result:
        print(f"  riichienv (Rust)   {result['riichienv_us']:9.1f} us   mjtools is {result['vs_riichienv']:.3f}x as fast")
    return result


if __name__ == "__main__":
    main()

"""Riichi scoring speed: mjtools against `mahjong` 2.1.0 and `riichienv`, in the same run.

    python benchmarks/bench_riichi.py [--hands N] [--seed S] [--repeat R] [--sanma]

The same seeded random winning hands (tests/riichi_cases.py: closed and open, kongs, dora,
red fives, flags) are scored by each library from its own prepared input (mjtools: a parsed
Hand and a WinContext; mahjong: 136-tile arrays, Melds and a HandConfig; riichienv: the same
arrays and its Conditions). Each library scores every hand once per round; the least CPU
time of R rounds is reported, per hand, with the ratios. mjtools first scores a different set
of hands (a warm-up, as in a long batch). Parsing the notation is timed separately.
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


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--sanma", action="store_true", help="three-player hands (mahjong is_three_player=True)")
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
    t_ours = best_of(args.repeat, run_ours) / n
    t_parse = best_of(args.repeat, run_parse) / n
    t_peer = best_of(args.repeat, run_mahjong) / n
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

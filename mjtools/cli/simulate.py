"""`mjtools simulate`: whole hands under a variant's rules, or the rest of a hand from a position."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from mjtools.batch.cases import default_rules, load_rules
from mjtools.cli.common import format_option, rules_option
from mjtools.errors import UsageError


def _options(values: tuple[str, ...]) -> dict[str, Any]:
    from mjtools.rules.hand_options import kv_pairs

    return kv_pairs(list(values), "option")


def _emit(records: list[dict[str, Any]], fmt: str, table: str, single: bool, csv_rows: str | None = None) -> None:
    from mjtools.output import dumps

    if csv_rows:
        from mjtools.sim.batch import summary_rows

        records = [row for r in records for row in summary_rows(r, csv_rows)]
    if fmt == "table":
        click.echo(table, nl=False)
    elif fmt == "json":
        click.echo(dumps(records[0] if single else records))
    elif fmt == "jsonl":
        for r in records:
            click.echo(dumps(r))
    else:
        import csv
        import io

        buf = io.StringIO()
        cols: list[str] = []
        for r in records:
            cols += [c for c in r if c not in cols]
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(cols)
        for r in records:
            w.writerow([dumps(r[c]) if isinstance(r.get(c), (dict, list)) else r.get(c, "") for c in cols])
        click.echo(buf.getvalue(), nl=False)


@click.command()
@click.argument("hand", nargs=-1)
@rules_option
@format_option
@click.option("--hands", type=int, default=100, show_default=True, help="Independent hands to play (East deals each).")
@click.option("--seed", type=int, default=0, show_default=True, help="Hand i plays from a random generator seeded from (SEED, i).")
@click.option("--bots", default=None, metavar="NAME[,NAME...]", help="One bot for every seat or one per seat (E,S,W,N): efficient (default), defensive, random, an `mjtools.bots` entry point, or module:Class.")
@click.option("--workers", type=int, default=1, show_default=True, help="Worker processes on this machine.")
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS", help="Run on a Dask distributed scheduler (needs the dask extra).")
@click.option("--out", default=None, metavar="FILE.jsonl", help="Write a header line, then one record per hand in index order.")
@click.option("--resume", is_flag=True, help="Continue an interrupted --out file at its first missing hand.")
@click.option("--scenarios", default=None, metavar="FILE", help="A YAML list of scenarios (name, rules, options, bots, hands, seed); prints a comparison.")
@click.option("--input", "input_file", default=None, metavar="FILE", help="Scenarios as one JSON object per line.")
@click.option("--plot", default=None, metavar="FILE.png", help="Draw the points per seat and the fan frequencies (needs the plot extra).")
@click.option("-o", "--option", "rule_options", multiple=True, metavar="NAME=VALUE", help="Set a rule option (repeatable).")
@click.option("--csv-rows", type=click.Choice(["seat", "fan"]), default=None, help="With -f csv: flat rows, one per seat or one per fan of each summary (default: one row per summary, lists and maps JSON-encoded).")
@click.option("--force", is_flag=True, help="Overwrite an existing --out file (without it, an existing file needs --resume).")
@click.option("--trials", type=int, default=None, help="With HAND: games played per discard.  [default: 200]")
@click.option("--seat", default=None, metavar="E|S|W|N", help="With HAND: the seat holding it.  [default: E]")
@click.option("--discard", "discards", default=None, metavar="TILES", help="With HAND: only these discards (default: every distinct tile).")
@click.option("--wall-left", type=int, default=None, metavar="N", help="With HAND: live tiles left in the wall (default: as after the deal).")
@click.option("--visible", default=None, metavar="TILES", help="With HAND: tiles already out of play (discards, melds elsewhere).")
@click.option("--progress/--no-progress", default=None, help="Progress bar on stderr (default: when stderr is a terminal).")
@click.option("--games", type=int, default=None, metavar="N", help="Play N whole games (riichi rule files with a `game` section) instead of --hands: dealer rotation, honba, sticks, busting, placement with uma / oka.")
@click.option("--length", type=click.Choice(["east", "south"]), default="south", show_default=True, help="With --games: an east-only game (tonpuu) or east and south (hanchan).")
@click.option("--log-dir", default=None, metavar="DIR", help="Write each hand (or with --games each game) as a game record in DIR, readable by `mjtools replay`.")
@click.option("--log-format", type=click.Choice(["tenhou6", "mjai"]), default="tenhou6", show_default=True, help="The format of --log-dir records.")
def simulate(hand: tuple[str, ...], rules: str | None, fmt: str, hands: int, seed: int, bots: str | None, workers: int, dask_address: str | None, out: str | None, resume: bool,
             scenarios: str | None, input_file: str | None, plot: str | None, rule_options: tuple[str, ...], csv_rows: str | None, force: bool, trials: int | None,
             seat: str | None, discards: str | None, wall_left: int | None, visible: str | None, progress: bool | None, games: int | None, length: str, log_dir: str | None,
             log_format: str) -> None:
    """Play whole hands under a variant's rules with bots, or the rest of a hand from HAND.

    Without HAND: --hands independent hands, each from the seed (S, i), summarised as win
    shares, self-draw / discard wins, draws, turns, fans and points per seat. The same seed
    gives the same records for any --workers or --dask cluster.

    With HAND (hand size + 1 tiles, the player to discard): for each discard, --trials games
    with the other hands drawn from the unseen tiles; the chance to win, to be ready at the
    end, and the mean points, each with a 95% confidence interval.

    \b
    Examples:
      mjtools simulate --rules riichi --hands 200 --seed 1 --workers 2
      mjtools simulate --rules riichi --hands 1000 --out run.jsonl --resume
      mjtools simulate '2345m345p67s1177z+9s' --trials 300
    """
    from mjtools.sim.bots import parse_bots

    name = default_rules(rules)
    opts = _options(rule_options)
    if csv_rows and fmt != "csv":
        raise UsageError("--csv-rows shapes CSV output: give -f csv")
    if hand:
        if scenarios or input_file or out or resume or dask_address or csv_rows:
            raise UsageError("HAND simulates one position; --scenarios, --input, --out, --resume, --dask and --csv-rows are for whole-hand runs")
        from mjtools.sim.position import position_records, position_table

        rs = load_rules(name, opts)
        recs = position_records(" ".join(hand), rs, parse_bots(bots, rs.players), seed, 200 if trials is None else trials, seat or "E", discards, wall_left, visible, workers)
        _emit([recs], fmt, position_table(recs), True)
        return
    # Options of a position run are not silently dropped from a whole-hand run.
    given = [f"--{n}" for n, v in (("trials", trials), ("seat", seat), ("discard", discards), ("wall-left", wall_left), ("visible", visible)) if v is not None]
    if given:
        raise UsageError(f"{', '.join(given)}: only with HAND (the position to play from); a whole-hand run deals its own hands")
    if out and not resume and not force and Path(out).exists() and Path(out).stat().st_size:
        raise UsageError(f"--out {out} exists: --resume continues it, --force overwrites it")
    if scenarios or input_file:
        if scenarios and input_file:
            raise UsageError("give --scenarios or --input, not both")
        if out or resume:
            raise UsageError("--out and --resume are for a single run, not scenarios")
        _run_scenarios(scenarios or input_file, bool(input_file), name, opts, bots, hands, seed, workers, dask_address, fmt, plot, progress, csv_rows)
        return
    rs = load_rules(name, opts)
    from mjtools.sim.batch import run_job, summary_table
    from mjtools.sim.runner import Job

    extra: dict[str, Any] = {}
    if log_dir:
        if rs.section("scoring").get("model") != "riichi":
            raise UsageError(f"--log-dir writes riichi records (tenhou6, mjai); {rs.id} is not riichi")
        extra["log_format"] = log_format
    if games is not None:
        if not rs.section("game"):
            raise UsageError(f"--games plays whole riichi games; {rs.id} has no game section")
        if games < 0:
            raise UsageError("--games cannot be negative")
        extra["length"] = length
        hands = games
    job = Job.from_rules(rs, parse_bots(bots, rs.players), seed, hands, opts)
    job = Job(job.rules_id, job.raw, job.options, job.bots, job.seed, job.hands, job.files, extra)
    summary, _ = run_job(job, workers, dask_address, out, resume, progress, log_dir=log_dir)
    values = summary.pop("_net_values")
    if plot:
        from mjtools.sim.plot import plot_summaries

        plot_summaries([summary], [values], plot)
    _emit([summary], fmt, summary_table(summary), True, csv_rows)


def _run_scenarios(path: str, jsonl: bool, rules: str, opts: dict[str, Any], bots: str | None, hands: int, seed: int, workers: int, dask: str | None, fmt: str, plot: str | None, progress: bool | None, csv_rows: str | None = None) -> None:
    from mjtools.sim.batch import comparison_table, load_scenarios, run_job
    from mjtools.sim.bots import parse_bots
    from mjtools.sim.runner import Job

    summaries = []
    values = []
    jobs = []
    for i, sc in enumerate(load_scenarios(path, jsonl), 1):
        sc_opts = dict(opts)
        extra = sc.get("options") or {}
        if not isinstance(extra, dict):
            raise UsageError(f"{path}: scenario {i}: options is a mapping")
        sc_opts.update(extra)
        rs = load_rules(str(sc.get("rules") or rules), sc_opts)
        names = parse_bots(sc.get("bots", bots), rs.players, allow_path=False)
        n = sc.get("hands", hands)
        s = sc.get("seed", seed)
        if not isinstance(n, int) or isinstance(n, bool) or not isinstance(s, int) or isinstance(s, bool):
            raise UsageError(f"{path}: scenario {i}: hands and seed are integers")
        jobs.append((sc.get("name") or f"scenario {i}", Job.from_rules(rs, names, s, n, sc_opts)))
    for label, job in jobs:  # every scenario is checked before the first one runs
        summary, _ = run_job(job, workers, dask, progress=progress)
        values.append(summary.pop("_net_values"))
        summaries.append({"name": label, **summary})
    if plot:
        from mjtools.sim.plot import plot_summaries

        plot_summaries(summaries, values, plot)
    _emit(summaries, fmt, comparison_table(summaries) + "\n", False, csv_rows)

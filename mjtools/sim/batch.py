"""One simulate run end to end (records, --out / --resume, progress, summary), and several
runs from a scenario file with their comparison table."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mjtools.errors import OutputError, UsageError
from mjtools.output import table
from mjtools.sim.records import OutFile, Summary, read_records
from mjtools.sim.runner import Job, run_lines


class Progress:
    """A one-line progress bar on stderr (only when stderr is a terminal)."""

    def __init__(self, total: int, done: int = 0, enabled: bool | None = None):
        self.total = total
        self.done = done
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.t0 = time.perf_counter()
        self.last = 0.0
        self.start = done

    def __call__(self, n: int) -> None:
        self.done += n
        now = time.perf_counter()
        if self.enabled and (now - self.last > 0.2 or self.done >= self.total):
            self.last = now
            frac = self.done / max(1, self.total)
            bar = "#" * int(30 * frac)
            rate = (self.done - self.start) / max(1e-9, now - self.t0)
            sys.stderr.write(f"\r[{bar:<30}] {self.done}/{self.total} hands  {rate:.0f}/s ")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


def run_job(job: Job, workers: int = 1, dask: str | None = None, out: str | None = None, resume: bool = False, progress: bool | None = None, keep: bool = False, log_dir: str | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play the job (hands, or whole games when job.extra has a length); returns (summary,
    records if `keep`). With `out`, records go to the file (a resumed file's earlier records
    count in the summary too); with `log_dir`, each hand or game is written there as a game
    record in job.extra["log_format"]."""
    from mjtools.sim.records import GameSummary

    games = GameSummary(len(job.bots)) if job.extra.get("length") else None
    logs = _log_dir(log_dir, job)

    def add(rec: dict[str, Any]) -> None:
        if games is None:
            summary.add(rec)
            return
        games.add(rec)
        for h in rec["hand_records"]:
            summary.add(h)

    if resume and not out:
        raise UsageError("--resume needs --out FILE")
    if workers < 1:
        raise UsageError("--workers is at least 1")
    if job.hands < 0:
        raise UsageError("--hands cannot be negative")
    head = job.header()
    seats = "ESWN"[: len(job.bots)]
    summary = Summary(seats)
    kept: list[dict[str, Any]] = []
    outfile = None
    start = 0
    if out:
        path = Path(out)
        try:
            outfile = OutFile(path, head, resume)
        except OSError as e:
            raise UsageError(f"--out {out}: {e.strerror}") from None
        start = outfile.start
        if start:
            _, earlier = read_records(path)
            for rec in earlier[: job.hands]:
                add(rec)
                if keep:
                    kept.append(rec)
    bar = Progress(job.hands, min(start, job.hands), progress)
    t0 = time.perf_counter()
    try:
        pending = 0
        for line in run_lines(job, start, workers, dask, bar):
            rec = json.loads(line)
            text = rec.pop("_log", None)
            if text is not None:
                line = json.dumps(rec, ensure_ascii=False, separators=(",", ":"))
                if logs is not None:
                    _write_log(logs, job, rec["index"], text)
            add(rec)
            if keep:
                kept.append(rec)
            if outfile:
                outfile.write(line)
                pending += 1
                if pending >= 50:
                    outfile.flush()
                    pending = 0
    finally:
        if outfile:
            outfile.flush()
            outfile.close()
        bar.close()
    elapsed = time.perf_counter() - t0
    played = summary.hands - min(start, job.hands)
    rec = summary.record(head, elapsed, workers)
    rec["hands_per_s"] = round(played / elapsed, 2) if elapsed > 0 and played else None
    if games is not None:
        rec["length"] = job.extra["length"]
        rec.update(games.record(list(job.bots)))
    if logs is not None:
        rec["log_dir"] = str(logs)
        rec["log_format"] = job.extra.get("log_format")
    if start:
        rec["resumed_at"] = start
    rec["_net_values"] = summary.net_values  # for --plot; removed before printing
    return rec, kept


def _log_dir(log_dir: str | None, job: Job) -> Path | None:
    if log_dir is None:
        return None
    path = Path(log_dir)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(f"--log-dir {log_dir}: {e.strerror}") from None
    return path


def _write_log(path: Path, job: Job, index: int, text: str) -> None:
    from mjtools.sim.logs import SUFFIX

    unit = "game" if job.extra.get("length") else "hand"
    name = path / f"{unit}-{index:06d}{SUFFIX[job.extra['log_format']]}"
    try:
        name.write_text(text, encoding="utf-8")
    except OSError as e:
        raise OutputError(f"--log-dir: {name}: {e.strerror}") from None


# -- scenarios ------------------------------------------------------------------------------------

SCENARIO_KEYS = {"name", "rules", "options", "bots", "hands", "seed"}


def load_scenarios(path: str, jsonl: bool) -> list[dict[str, Any]]:
    """A YAML list of scenarios, or one JSON object per line."""
    from mjtools.rules.files import load_yaml, read_bytes

    data = read_bytes(path, rule_file=False)  # a regular file, size-capped (errors name the file)
    items: list[Any] = []
    if jsonl:
        for n, raw in enumerate(data.split(b"\n"), 1):
            try:
                line = raw.decode("utf-8").strip()
            except UnicodeDecodeError:
                raise UsageError(f"{path}: line {n}: not UTF-8 text") from None
            if not line or line.startswith("#"):
                continue
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise UsageError(f"{path}: line {n}: invalid JSON ({e.msg})") from None
            except (ValueError, RecursionError):
                raise UsageError(f"{path}: line {n}: invalid JSON (a number too long, or nested too deeply)") from None
    else:
        got = load_yaml(data, path)  # the bounded safe loader of rule files
        if not isinstance(got, list):
            raise UsageError(f"{path}: a scenario file is a YAML list of scenarios")
        items = got
    out = []
    for i, sc in enumerate(items, 1):
        if not isinstance(sc, Mapping):
            raise UsageError(f"{path}: scenario {i} is not a mapping")
        unknown = set(sc) - SCENARIO_KEYS
        if unknown:
            raise UsageError(f"{path}: scenario {i} has unknown key(s) {', '.join(sorted(unknown))} (keys: {', '.join(sorted(SCENARIO_KEYS))})")
        out.append(dict(sc))
    if not out:
        raise UsageError(f"{path}: no scenarios")
    return out


def comparison_table(summaries: list[dict[str, Any]]) -> str:
    rows = []
    for s in summaries:
        seats = list(s["points_by_seat"])
        rows.append(
            [
                s.get("name", ""),
                s["rules"],
                ",".join(sorted(set(s["bots"]), key=s["bots"].index)),
                s["hands"],
                f"{100 * s['win_share']:.1f}%",
                f"{100 * s['self_draw_share']:.1f}%",
                s["exhaustive_draws"],
                s["aborted"],
                s["mean_turns"],
                " ".join(f"{k}:{s['mean_points_by_seat'][k]:g}" for k in seats),
                s["hands_per_s"],
            ]
        )
    head = ["scenario", "rules", "bots", "hands", "win share", "self-draw", "exhaustive", "aborted", "turns", "mean points by seat", "hands/s"]
    return table(rows, head)


def summary_table(s: Mapping[str, Any]) -> str:
    seats = list(s["points_by_seat"])
    lines = [
        f"{s['rules']}: {s['hands']} hands, seed {s['seed']}, bots {', '.join(s['bots'])}" + (f" ({s['hands_per_s']} hands/s)" if s.get("hands_per_s") else ""),
        f"  hands with a win: {s['hands_with_win']} ({100 * s['win_share']:.1f}%), win events {s['win_events']}"
        f" (self-draw {s['self_draw']}, discard {s['discard_wins']})",
        f"  exhaustive draws: {s['exhaustive_draws']}, aborted: {s['aborted']}" + (f" ({', '.join(f'{k} {v}' for k, v in s['aborts'].items())})" if s["aborts"] else ""),
        f"  mean turns (discards) per hand: {s['mean_turns']}",
    ]
    rows = [[k, f"{100 * s['win_share_by_seat'][k]:.1f}%", s["points_by_seat"][k], s["mean_points_by_seat"][k]] for k in seats]
    lines.append(table(rows, ["seat", "win share", "points", "mean points"]))
    if "placements" in s:
        lines.append(f"  {s['games']} {s['length']} games ({s['hands_per_game']} hands each on average, {s['busted_games']} ended by a player below zero)")
        rows = [[p["player"], p["bot"], p["mean_place"], " / ".join(map(str, p["places"])), p["mean_score"], p["mean_final_points"]] for p in s["placements"]]
        lines.append(table(rows, ["player", "bot", "mean place", "places 1st..last", "mean score", "mean points"]))
    fans = list(s["fans"].items())[:15]
    if fans:
        lines.append(table([[k, v] for k, v in fans], ["fan", "wins"]))
    return "\n".join(lines) + "\n"


def summary_rows(s: Mapping[str, Any], by: str) -> list[dict[str, Any]]:
    """A summary as flat rows for CSV (`--csv-rows`): one per seat (its bot, win share and
    points) or one per fan (its count as in the summary's `fans`, and per win event), each
    led by the run's scalars."""
    head = {k: s[k] for k in ("name", "rules", "hands", "seed") if k in s}
    if by == "seat":
        return [
            {**head, "seat": seat, "bot": s["bots"][i], "win_share": s["win_share_by_seat"][seat], "points": s["points_by_seat"][seat], "mean_points": s["mean_points_by_seat"][seat]}
            for i, seat in enumerate(s["points_by_seat"])
        ]
    return [{**head, "fan": fid, "count": n, "per_win": round(n / s["win_events"], 4) if s["win_events"] else 0} for fid, n in s["fans"].items()]


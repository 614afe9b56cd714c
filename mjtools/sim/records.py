"""The `--out` file (a header line, then one record per hand in index order), `--resume`,
and the summary of a run."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mjtools.errors import OutputError, UsageError

# Header fields that must match for --resume to continue a file.
RESUME_KEYS = ("rules", "rules_hash", "options", "bots", "seed", "length")


def resume_point(path: Path, header: dict[str, Any]) -> int:
    """Check an existing --out file against this run, drop a partial last line, and return
    the first missing hand index (records must be 0, 1, 2, ... in order)."""
    if not path.exists() or path.stat().st_size == 0:
        return -1
    with open(path, "rb+") as f:
        data = f.read()
        keep = data.rfind(b"\n") + 1  # a line cut off by a kill or a full disk has no newline: drop it
        if keep < len(data):
            f.truncate(keep)
        lines = [x for x in data[:keep].splitlines() if x.strip()]  # blank lines say nothing
    if not lines:
        return -1
    try:
        head = json.loads(lines[0])
    except ValueError:
        raise UsageError(f"{path}: the first line is not a simulate header; not resuming") from None
    if not isinstance(head, dict) or head.get("header") != "mjtools-simulate":
        raise UsageError(f"{path}: the first line is not a simulate header; not resuming")
    for k in RESUME_KEYS:
        if head.get(k) != header.get(k):
            raise UsageError(f"{path}: was written with {k}={head.get(k)!r}, this run has {header.get(k)!r}; not resuming")
    n = 0
    for raw in lines[1:]:
        try:
            rec = json.loads(raw)
        except ValueError:
            raise UsageError(f"{path}: line {n + 2} is not JSON; not resuming") from None
        if rec.get("index") != n:
            raise UsageError(f"{path}: line {n + 2} holds hand {rec.get('index')}, expected {n}; not resuming")
        n += 1
    return n


def read_records(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    return json.loads(lines[0]), [json.loads(x) for x in lines[1:]]


class OutFile:
    """Appends records and flushes each chunk, so a killed run leaves whole lines behind (and
    --resume drops a torn last one). A write that fails (a full disk) is an OutputError: one
    line, exit status 3; what was flushed before stays and --resume continues from it."""

    def __init__(self, path: Path, header: dict[str, Any], resume: bool):
        self.path = path
        start = resume_point(path, header) if resume else -1
        with self._errors():
            if start < 0:
                self.f = open(path, "w", encoding="utf-8")
                self.f.write(json.dumps(header, ensure_ascii=False, separators=(",", ":")) + "\n")
                self.start = 0
            else:
                self.f = open(path, "a", encoding="utf-8")
                self.start = start
            self.f.flush()

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except OSError as e:
            raise OutputError(f"--out {self.path}: {e.strerror or e}") from None

    def write(self, line: str) -> None:
        with self._errors():
            self.f.write(line + "\n")

    def flush(self) -> None:
        with self._errors():
            self.f.flush()
            os.fsync(self.f.fileno())

    def close(self) -> None:
        try:
            self.f.close()
        except OSError:  # the data that could not be written was reported by flush
            pass


class GameSummary:
    """Placements and final scores per player over whole games (simulate --games)."""

    def __init__(self, players: int):
        self.n = players
        self.games = 0
        self.hands = 0
        self.busted = 0
        self.places = [[0] * players for _ in range(players)]
        self.score = [0.0] * players
        self.points = [0.0] * players

    def add(self, rec: dict[str, Any]) -> None:
        self.games += 1
        self.hands += rec["hands"]
        self.busted += bool(rec.get("busted"))
        for p in range(self.n):
            self.places[p][rec["placement"][p] - 1] += 1
            self.score[p] += rec["score"][p]
            self.points[p] += rec["final_points"][p]

    def record(self, bots: list[str]) -> dict[str, Any]:
        g = max(1, self.games)
        return {
            "games": self.games,
            "hands_per_game": round(self.hands / g, 2),
            "busted_games": self.busted,
            "placements": [
                {
                    "player": p,
                    "bot": bots[p],
                    "mean_place": round(sum((i + 1) * c for i, c in enumerate(self.places[p])) / g, 3),
                    "places": self.places[p],
                    "mean_score": round(self.score[p] / g, 2),
                    "mean_final_points": round(self.points[p] / g, 1),
                }
                for p in range(self.n)
            ],
        }


class Summary:
    """Accumulates hand records into the run summary (the CLI contract's fields and more)."""

    def __init__(self, seats: str):
        self.seats = seats
        self.hands = 0
        self.with_win = 0
        self.win_events = 0
        self.exhaustive = 0
        self.aborted = 0
        self.aborts: Counter[str] = Counter()
        self.turns = 0
        self.fans: Counter[str] = Counter()
        self.points = {s: 0.0 for s in seats}
        self.wins_by_seat: Counter[str] = Counter()
        self.hands_won_by_seat: Counter[str] = Counter()
        self.self_draw = 0
        self.discard = 0
        self.deal_ins: Counter[str] = Counter()
        self.fan_total = 0.0
        self.unsettled = 0
        self.events: Counter[str] = Counter()
        self.net_values: dict[str, list[float]] = {s: [] for s in seats}

    def add(self, rec: dict[str, Any]) -> None:
        self.hands += 1
        wins = rec.get("wins", [])
        if wins:
            self.with_win += 1
        self.win_events += len(wins)
        for s in {w["seat"] for w in wins}:
            self.hands_won_by_seat[s] += 1
        for w in wins:
            self.wins_by_seat[w["seat"]] += 1
            self.fans.update(w.get("fans", {}))
            self.fan_total += w.get("fan_total") or 0
            if w.get("from") is None:
                self.self_draw += 1
            else:
                self.discard += 1
                self.deal_ins[w["from"]] += 1
        if rec.get("end") == "exhaustive_draw":
            self.exhaustive += 1
        if rec.get("end") == "abort":
            self.aborted += 1
            self.aborts[rec.get("abort") or "abort"] += 1
        self.turns += rec.get("turns", 0)
        for s, v in rec.get("net", {}).items():
            self.points[s] = self.points.get(s, 0) + v
            self.net_values.setdefault(s, []).append(v)
        self.events.update(rec.get("event_counts", {}))
        if rec.get("unsettled"):
            self.unsettled += 1

    def record(self, head: dict[str, Any], elapsed: float, workers: int) -> dict[str, Any]:
        n = max(1, self.hands)

        def num(x: float) -> float | int:
            return int(x) if float(x).is_integer() else round(x, 4)

        out: dict[str, Any] = {
            "rules": head["rules"],
            "hands": self.hands,
            "seed": head["seed"],
            "bots": head["bots"],
            "options": head["options"],
            "hands_with_win": self.with_win,
            "win_events": self.win_events,
            "exhaustive_draws": self.exhaustive,
            "aborted": self.aborted,
            "aborts": dict(sorted(self.aborts.items())),
            "win_share": round(self.with_win / n, 4),
            "win_share_by_seat": {s: round(self.hands_won_by_seat[s] / n, 4) for s in self.seats},
            "self_draw": self.self_draw,
            "discard_wins": self.discard,
            "self_draw_share": round(self.self_draw / max(1, self.win_events), 4),
            "deal_ins_by_seat": {s: self.deal_ins[s] for s in self.seats},
            "mean_fan_total": round(self.fan_total / max(1, self.win_events), 3),
            "mean_turns": round(self.turns / n, 3),
            "fans": dict(sorted(self.fans.items(), key=lambda kv: (-kv[1], kv[0]))),
            "points_by_seat": {s: num(v) for s, v in self.points.items()},
            "mean_points_by_seat": {s: round(v / n, 2) for s, v in self.points.items()},
            "event_counts": dict(sorted(self.events.items())),
            "elapsed_s": round(elapsed, 3),
            "hands_per_s": round(self.hands / elapsed, 2) if elapsed > 0 else None,
            "workers": workers,
        }
        if self.unsettled:
            out["unsettled_hands"] = self.unsettled
        return out

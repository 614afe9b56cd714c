"""`simulate --plot FILE.png`: points per seat and fan frequencies of one or more runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mjtools.errors import UsageError


def plot_summaries(summaries: Sequence[Mapping[str, Any]], values: Sequence[Mapping[str, list[float]]], path: str) -> None:
    """One row per run: a box plot of each seat's points per hand, and its most frequent fans."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: never open a window
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--plot needs matplotlib: pip install 'mjtools[plot]'") from None
    n = len(summaries)
    fig, axes = plt.subplots(n, 2, figsize=(12, 3.6 * n), squeeze=False)
    for row, (s, vals) in enumerate(zip(summaries, values)):
        label = s.get("name") or f"{s['rules']} ({', '.join(sorted(set(s['bots'])))})"
        ax = axes[row][0]
        seats = list(vals)
        ax.boxplot([vals[k] or [0.0] for k in seats], showfliers=False)
        ax.set_xticks(range(1, len(seats) + 1), seats)
        ax.axhline(0, color="grey", linewidth=0.5)
        ax.set_title(f"{label}: points per hand by seat ({s['hands']} hands)")
        ax.set_ylabel("points")
        ax = axes[row][1]
        fans = list(s["fans"].items())[:15]
        if fans:
            names = [k for k, _ in fans][::-1]
            counts = [v for _, v in fans][::-1]
            ax.barh(names, [c / max(1, s["hands"]) for c in counts])
            ax.set_xlabel("share of hands")
        else:
            ax.text(0.5, 0.5, "no wins", ha="center", va="center")
            ax.set_axis_off()
        ax.set_title(f"{label}: fan frequencies")
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=100)
    except (OSError, ValueError) as e:
        raise UsageError(f"--plot {path}: {e}") from None
    finally:
        plt.close(fig)

"""The arena's ratings plot: one row per agent, best at the top, with 95% error bars."""
from __future__ import annotations

from pathlib import Path

from .ratings import ELO_MEAN, EloFit

PLOT_FORMATS = ("png", "svg", "pdf")


def plot_format(path: str | Path) -> str:
    """The image format named by ``path``'s extension; ValueError if it is not one we write."""
    ext = Path(path).suffix.lower().lstrip(".")
    if ext not in PLOT_FORMATS:
        raise ValueError(f"{str(path)!r}: the plot file must end in {', '.join('.' + f for f in PLOT_FORMATS)}")
    return ext


def plot_ratings(fit: EloFit, path: str | Path, title: str = "Arena ratings") -> Path:
    """Write the ratings of ``fit`` with their 95% intervals to ``path`` (format from the
    extension, see :data:`PLOT_FORMATS`) and return the path. Creates missing parent folders."""
    fmt = plot_format(path)
    import matplotlib
    matplotlib.use("Agg")  # files only: never needs a display
    import matplotlib.pyplot as plt

    order = list(reversed(fit.ranked()))  # barh draws bottom-up, so the best ends on top
    ratings = [fit.ratings[n] for n in order]
    lows = [fit.ratings[n] - fit.intervals[n][0] for n in order]
    highs = [fit.intervals[n][1] - fit.ratings[n] for n in order]
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.55 * len(order)))
    try:
        ax.errorbar(ratings, range(len(order)), xerr=[lows, highs], fmt="o", color="tab:blue",
                    ecolor="tab:gray", elinewidth=2, capsize=5)
        for y, r in enumerate(ratings):
            ax.annotate(f"{r:.0f}", (r, y), textcoords="offset points", xytext=(0, 7), ha="center",
                        fontsize=8)
        ax.axvline(ELO_MEAN, color="lightgray", linestyle="--", zorder=0)
        ax.set_yticks(range(len(order)), order)
        ax.set_ylim(-0.7, len(order) - 0.3)
        ax.set_xlabel(f"Elo rating (mean {ELO_MEAN:.0f}), 95% interval")
        ax.set_title(title, fontsize=10)
        ax.grid(axis="x", alpha=0.3)
        fig.tight_layout()
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(out, format=fmt, dpi=120)
    finally:
        plt.close(fig)
    return out


__all__ = ["PLOT_FORMATS", "plot_format", "plot_ratings"]

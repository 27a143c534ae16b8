"""matplotlib figures for the chapters. All text on them is ASCII, so no CJK font is
needed. Each function returns a ``matplotlib.figure.Figure``; a notebook cell that ends
with it shows it once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import matplotlib
import matplotlib.pyplot  # noqa: F401  loads Jupyter's inline backend, so a Figure displays

matplotlib.rcParams["svg.hashsalt"] = "bleu-lesson"  # stable SVG ids, should one be saved
from matplotlib.figure import Figure  # noqa: E402

from .bleu import sentence_bleu  # noqa: E402
from .brevity import brevity_penalty  # noqa: E402

__all__ = ["plot_agreement", "plot_brevity_penalty", "plot_means", "plot_reference_ceiling",
           "plot_bars"]


def _figure(width: float = 6.0, height: float = 3.6) -> tuple[Figure, object]:
    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.add_subplot()


def plot_brevity_penalty(r: int = 20, mark: tuple[int, int] | None = (6, 7)) -> Figure:
    """BP = exp(1 - r/c) against the length ratio c/r, for a reference of length r."""
    fig, ax = _figure()
    cs = list(range(1, 2 * r + 1))
    _ = ax.plot([c / r for c in cs], [brevity_penalty(c, r) for c in cs], marker=".",
                label=f"BP for r = {r}")
    if mark is not None:
        c, rr = mark
        _ = ax.scatter([c / rr], [brevity_penalty(c, rr)], color="red", zorder=3,
                       label=f"c = {c}, r = {rr}: BP = {brevity_penalty(c, rr):.4f}")
    _ = ax.axvline(1.0, color="grey", linestyle=":")
    ax.set_xlabel("length ratio c / r")
    ax.set_ylabel("brevity penalty BP")
    ax.set_ylim(0, 1.05)
    ax.legend(loc="lower right")
    return fig


def plot_means(fixed: Sequence[float] = (1.0, 0.8, 0.5), steps: int = 50) -> Figure:
    """Geometric vs arithmetic mean of (fixed..., p) as the last precision p goes to 0."""
    fig, ax = _figure()
    ps = [i / steps for i in range(steps + 1)]
    k = len(fixed) + 1
    geo = [math.exp(sum(math.log(x) for x in (*fixed, p)) / k) if p > 0 else 0.0 for p in ps]
    arith = [(sum(fixed) + p) / k for p in ps]
    _ = ax.plot(ps, geo, label="geometric mean (BLEU)")
    _ = ax.plot(ps, arith, linestyle="--", label="arithmetic mean")
    ax.set_xlabel(f"p{k} (the other precisions: {', '.join(f'{x:g}' for x in fixed)})")
    ax.set_ylabel("mean of the precisions")
    ax.set_ylim(0, 1.05)
    ax.legend(loc="lower right")
    return fig


def plot_reference_ceiling(candidate: str, references: Sequence[str], **options) -> Figure:
    """BLEU of one candidate as references are added one at a time (in the order given)."""
    options = {"tokenizer": "none", "lowercase": True, "smoothing": "none",
               "effective_order": False, **options}
    scores = [sentence_bleu(candidate, list(references[:k]), **options).score
              for k in range(1, len(references) + 1)]
    fig, ax = _figure()
    ks = list(range(1, len(references) + 1))
    _ = ax.plot(ks, scores, marker="o")
    for k, s in zip(ks, scores, strict=True):
        _ = ax.annotate(f"{s:.4f}", (k, s), textcoords="offset points", xytext=(0, 6),
                        ha="center")
    ax.set_xticks(ks)
    ax.set_xlabel("number of references")
    ax.set_ylabel("BLEU")
    ax.set_ylim(0, 1.05)
    return fig


def plot_bars(values: dict[str, float], ylabel: str = "BLEU",
              errors: dict[str, float] | None = None) -> Figure:
    """A bar per name (e.g. per system), optionally with error bars; names must be ASCII."""
    fig, ax = _figure(7.0, 3.8)
    names = list(values)
    _ = ax.bar(range(len(names)), [values[n] for n in names],
               yerr=[errors[n] for n in names] if errors else None, capsize=3)
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
    ax.set_ylabel(ylabel)
    return fig


def plot_agreement(metric: dict[str, float], human: dict[str, float],
                   xlabel: str = "BLEU", ylabel: str = "human z-score",
                   title: str | None = None) -> Figure:
    """One labelled point per system: metric score (x) against the human score (y)."""
    fig, ax = _figure(7.0, 4.6)
    names = list(metric)
    xs, ys = [metric[n] for n in names], [human[n] for n in names]
    _ = ax.scatter(xs, ys, color="tab:blue", zorder=3)
    for name, x, y in zip(names, xs, ys, strict=True):
        _ = ax.annotate(name, (x, y), textcoords="offset points", xytext=(4, 4), fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, fontsize=10)
    ax.grid(True, alpha=0.3)
    return fig

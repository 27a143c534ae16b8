"""matplotlib figures for the chapters. All text on them is ASCII, so no CJK font is
needed. Each function returns a ``matplotlib.figure.Figure``; a notebook cell that ends
with it shows it once.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib
import matplotlib.pyplot  # noqa: F401  loads Jupyter's inline backend, so a Figure displays

matplotlib.rcParams["svg.hashsalt"] = "bleu-lesson"  # stable SVG ids, should one be saved
matplotlib.rcParams["axes.unicode_minus"] = False  # "-" not U+2212 in ticks: text stays ASCII
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from bleu_lesson.core.bleu import geometric_mean, sentence_bleu  # noqa: E402
from bleu_lesson.core.brevity import brevity_penalty  # noqa: E402

__all__ = ["plot_agreement", "plot_brevity_penalty", "plot_means", "plot_reference_ceiling",
           "plot_bars", "plot_dot_whisker", "plot_rank_bump", "ranks"]


def _figure(width: float = 6.0, height: float = 3.6) -> tuple[Figure, Axes]:
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
    geo = [geometric_mean([*fixed, p]) for p in ps]  # the one BLEU uses
    arith = [(sum(fixed) + p) / k for p in ps]
    _ = ax.plot(ps, geo, label="geometric mean (BLEU)")
    _ = ax.plot(ps, arith, linestyle="--", label="arithmetic mean")
    ax.set_xlabel(f"p{k} (the other precisions: {', '.join(f'{x:g}' for x in fixed)})")
    ax.set_ylabel("mean of the precisions")
    ax.set_ylim(0, 1.05)
    ax.legend(loc="lower right")
    return fig


def plot_reference_ceiling(candidate: str, references: Sequence[str], **options) -> Figure:
    """BLEU, BP and the geometric mean of the precisions as references are added one at a
    time (in the order given): one column of dots per reference set, no line between them
    (the sets are categories, not points on a scale)."""
    options = {"tokenizer": "none", "lowercase": True, "smoothing": "none",
               "effective_order": False, **options}
    results = [sentence_bleu(candidate, list(references[:k]), **options)
               for k in range(1, len(references) + 1)]
    labels = ["ref 1"] + [f"refs 1-{k}" for k in range(2, len(references) + 1)]
    fig, ax = _figure()
    xs = list(range(len(results)))
    series = (("BLEU", [r.score for r in results], "o", 0.0),
              ("BP", [r.bp for r in results], "s", -0.18),
              ("geometric mean of p_n", [r.score / r.bp if r.bp else 0.0 for r in results],
               "^", 0.18))
    for name, ys, marker, shift in series:
        _ = ax.plot([x + shift for x in xs], ys, marker=marker, linestyle="none", label=name,
                    markersize=8)
    for x, r in zip(xs, results, strict=True):
        _ = ax.annotate(f"{r.score:.4f}", (x, r.score), textcoords="offset points",
                        xytext=(0, -16), ha="center")
    ax.set_xticks(xs, labels)
    ax.set_xlim(-0.6, len(xs) - 0.4)
    ax.set_ylim(-0.08, 1.08)
    ax.set_ylabel("value")
    _ = ax.legend(loc="lower right")
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


def plot_dot_whisker(values: dict[str, float], errors: dict[str, float],
                     xlabel: str = "BLEU") -> Figure:
    """One row per name: a dot at its score and a whisker of +- its half-width, best at the
    top, on an axis zoomed to the data (not from 0), so that overlaps are visible.
    Names must be ASCII."""
    names = sorted(values, key=lambda n: -values[n])
    fig, ax = _figure(6.5, 0.35 * len(names) + 1.2)
    ys = list(range(len(names)))[::-1]
    _ = ax.errorbar([values[n] for n in names], ys, xerr=[errors[n] for n in names],
                    fmt="o", capsize=3)
    ax.set_yticks(ys, names)
    low = min(values[n] - errors[n] for n in names)
    high = max(values[n] + errors[n] for n in names)
    pad = 0.05 * (high - low or 1.0)
    ax.set_xlim(low - pad, high + pad)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    return fig


def ranks(scores: dict[str, float]) -> dict[str, int]:
    """Rank 1 for the highest score (ties broken by name, so ranks are 1..n).

    >>> ranks({"a": 30.0, "b": 31.5, "c": 29.0})
    {'b': 1, 'a': 2, 'c': 3}
    """
    order = sorted(scores, key=lambda n: (-scores[n], n))
    return {name: k for k, name in enumerate(order, start=1)}


def plot_rank_bump(scores: dict[str, dict[str, float]], ylabel: str = "rank") -> Figure:
    """A rank bump chart: ``scores[setting][system]``; one column per setting (in order),
    one line per system joining its ranks, rank 1 at the top, names at both ends.
    A crossing line is a system that changes rank. Names must be ASCII."""
    settings = list(scores)
    if not settings:
        raise ValueError("scores must name at least one setting")
    systems = list(scores[settings[0]])
    ranked = {s: ranks(scores[s]) for s in settings}
    fig, ax = _figure(7.0, 0.32 * len(systems) + 1.4)
    xs = list(range(len(settings)))
    for name in systems:
        ys = [ranked[s][name] for s in settings]
        _ = ax.plot(xs, ys, marker="o")
        _ = ax.annotate(name, (xs[-1], ys[-1]), textcoords="offset points", xytext=(6, 0),
                        va="center")
        _ = ax.annotate(name, (xs[0], ys[0]), textcoords="offset points", xytext=(-6, 0),
                        va="center", ha="right")
    ax.set_xticks(xs, settings)
    ax.set_xlim(-1.4, len(xs) - 1 + 1.4)
    ax.set_yticks(range(1, len(systems) + 1))
    ax.set_ylim(len(systems) + 0.5, 0.5)
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

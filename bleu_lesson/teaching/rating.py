"""Chapter 10's hands-on human evaluation: rate a few WMT22 zh-en outputs yourself.

A learner rates a small sample of system outputs on a 0-100 slider (direct assessment,
DA-style: source and reference shown), the ratings go to a CSV file the learner owns, and
the same pure functions a class uses on its pooled CSVs compute

- each rater's z-scores (z = (x - mean) / sd over that rater's own ratings, as WMT does),
- how sentence BLEU, chrF and chrF++ agree with the ratings (Pearson r, Kendall tau_b),
- how raters agree with each other (Pearson r on the items both rated).

``RatingPanel`` is the thin ipywidgets class over them. Nothing here overwrites a file
without ``overwrite=True`` (the panel asks with a checkbox).
"""

from __future__ import annotations

import csv
import html
import random
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from bleu_lesson.analysis.agreement import kendall_tau, pearson
from bleu_lesson.core.bleu import sentence_bleu

from .display import message_html, table_html
from .widgets import fit_labels

__all__ = ["RatingItem", "Rating", "rating_sample", "write_ratings", "read_ratings",
           "z_normalise", "item_means", "metric_scores", "metric_agreement",
           "rater_agreement", "render_report", "RatingPanel", "COLUMNS", "DEFAULT_SYSTEMS"]

#: the CSV's header, in order
COLUMNS = ("rater", "item", "segment", "system", "score")
#: three systems from the top, middle and bottom of WMT22's zh-en human ranking
DEFAULT_SYSTEMS = ("JDExploreAcademy", "Online-A", "NiuTrans")


@dataclass(frozen=True)
class RatingItem:
    """One output to rate: segment ``segment`` of the test set, translated by ``system``."""

    item: str
    segment: int
    system: str
    source: str
    reference: str
    output: str


@dataclass(frozen=True)
class Rating:
    """One rater's score (0-100) for one item."""

    rater: str
    item: str
    segment: int
    system: str
    score: float


def rating_sample(corpus: Any, n_segments: int = 4, systems: Sequence[str] = DEFAULT_SYSTEMS,
                  seed: int = 2022, reference: str = "A", min_chars: int = 12,
                  max_chars: int = 40) -> list[RatingItem]:
    """A small, reproducible sample to rate: ``n_segments`` segments x ``systems``.

    Segments are drawn (``random.Random(seed)``) among those whose source has
    ``min_chars``..``max_chars`` characters and whose outputs differ between every chosen
    system, so each segment asks the rater to tell outputs apart. The same seed gives every
    learner the same items.

    >>> from bleu_lesson.data.datasets import TOY_CORPUS
    >>> [i.item for i in rating_sample(TOY_CORPUS, 1, ("good", "weak"), seed=1, min_chars=1)]
    ['2:good', '2:weak']
    """
    if not isinstance(n_segments, int) or n_segments < 1:
        raise ValueError(f"n_segments must be a positive int, got {n_segments!r}")
    missing = [s for s in systems if s not in corpus.systems]
    if not systems or missing:
        raise ValueError(f"systems must name systems of the corpus ({', '.join(corpus.systems)}),"
                         f" got {list(systems)!r}")
    if reference not in corpus.references:
        raise ValueError(f"reference must be one of {list(corpus.references)}, got {reference!r}")
    eligible = [i for i in range(len(corpus))
                if min_chars <= len(corpus.source[i]) <= max_chars
                and len({corpus.systems[s][i] for s in systems}) == len(systems)]
    if len(eligible) < n_segments:
        raise ValueError(f"n_segments: only {len(eligible)} segments qualify, "
                         f"asked for {n_segments}")
    chosen = sorted(random.Random(seed).sample(eligible, n_segments))
    return [RatingItem(f"{i}:{s}", i, s, corpus.source[i], corpus.references[reference][i],
                       corpus.systems[s][i])
            for i in chosen for s in systems]


def write_ratings(path: str | Path, rater: str, scores: Mapping[str, float],
                  items: Sequence[RatingItem], *, overwrite: bool = False) -> Path:
    """Save one rater's scores (item id -> 0..100) as CSV with the header ``COLUMNS``.

    Raises ``FileExistsError`` if ``path`` exists and ``overwrite`` is false: a learner's
    file is never replaced without asking.
    """
    path = Path(path)
    if not isinstance(rater, str) or not rater.strip() or "," in rater:
        raise ValueError(f"rater must be a non-empty name without commas, got {rater!r}")
    by_id = {it.item: it for it in items}
    for item, score in scores.items():
        if item not in by_id:
            raise ValueError(f"scores: unknown item {item!r}")
        if isinstance(score, bool) or not isinstance(score, int | float) or not 0 <= score <= 100:
            raise ValueError(f"scores[{item!r}] must be a number from 0 to 100, got {score!r}")
    if path.exists() and not overwrite:
        raise FileExistsError(f"{path} exists; pass overwrite=True to replace it "
                              "(or choose another file name)")
    with path.open("w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(COLUMNS)
        for item, score in scores.items():
            it = by_id[item]
            out.writerow([rater.strip(), item, it.segment, it.system, score])
    return path


def read_ratings(paths: str | Path | Iterable[str | Path]) -> list[Rating]:
    """All ratings in one CSV or several (a class pooling its files), in file order.

    >>> read_ratings([])
    []
    """
    if isinstance(paths, str | Path):
        paths = [paths]
    found: list[Rating] = []
    for path in paths:
        path = Path(path)
        with path.open(encoding="utf-8", newline="") as f:
            rows = csv.DictReader(f)
            missing = [c for c in COLUMNS if c not in (rows.fieldnames or ())]
            if missing:
                raise ValueError(f"{path}: missing column(s) {', '.join(missing)}; "
                                 f"expected a header {','.join(COLUMNS)}")
            for line, row in enumerate(rows, start=2):
                try:
                    score = float(row["score"])
                    segment = int(row["segment"])
                except ValueError:
                    raise ValueError(f"{path} line {line}: score and segment must be numbers, "
                                     f"got {row['score']!r}, {row['segment']!r}") from None
                if not 0 <= score <= 100:
                    raise ValueError(f"{path} line {line}: score must be 0-100, got {score}")
                found.append(Rating(row["rater"], row["item"], segment, row["system"], score))
    return found


def z_normalise(ratings: Iterable[Rating]) -> dict[str, dict[str, float]]:
    """Each rater's scores standardised by that rater's own mean and sample sd.

    z = (x - mean_r) / sd_r, sd_r = sqrt(Σ (x - mean_r)² / (n_r - 1)), as WMT's scripts do
    (pandas ``std``). A rater with fewer than two ratings, or all ratings equal, cannot be
    standardised and is left out (WMT leaves out zero-sd annotators too).
    Returns rater -> item -> z; a rater who rated an item twice gets the mean of both.

    >>> z = z_normalise([Rating("a", "x", 0, "s", 80), Rating("a", "y", 1, "s", 40)])
    >>> {k: round(v, 4) for k, v in z["a"].items()}
    {'x': 0.7071, 'y': -0.7071}
    """
    per_rater: dict[str, dict[str, list[float]]] = {}
    for r in ratings:
        per_rater.setdefault(r.rater, {}).setdefault(r.item, []).append(r.score)
    out: dict[str, dict[str, float]] = {}
    for rater, items in per_rater.items():
        xs = [x for scores in items.values() for x in scores]
        if len(xs) < 2 or statistics.stdev(xs) == 0:
            continue
        mean, sd = statistics.fmean(xs), statistics.stdev(xs)
        out[rater] = {item: statistics.fmean((x - mean) / sd for x in scores)
                      for item, scores in items.items()}
    return out


def item_means(z: Mapping[str, Mapping[str, float]]) -> dict[str, float]:
    """Per item, the mean z over the raters who rated it (WMT's segment score).

    >>> item_means({"a": {"x": 1.0, "y": -1.0}, "b": {"x": 0.0}})
    {'x': 0.5, 'y': -1.0}
    """
    pooled: dict[str, list[float]] = {}
    for scores in z.values():
        for item, value in scores.items():
            pooled.setdefault(item, []).append(value)
    return {item: statistics.fmean(values) for item, values in pooled.items()}


def metric_scores(items: Sequence[RatingItem]) -> dict[str, dict[str, float]]:
    """Sentence-level BLEU (13a, exp smoothing, as sacrebleu's ``sentence_bleu``), chrF and
    chrF++ (sacrebleu ``CHRF()`` and ``CHRF(word_order=2)``) of each item, 0-100."""
    from sacrebleu.metrics import CHRF  # heavy: only when asked

    chrf, chrf_pp = CHRF(), CHRF(word_order=2)
    return {
        "BLEU": {it.item: 100 * sentence_bleu(it.output, [it.reference]).score for it in items},
        "chrF": {it.item: chrf.sentence_score(it.output, [it.reference]).score for it in items},
        "chrF++": {it.item: chrf_pp.sentence_score(it.output, [it.reference]).score
                   for it in items},
    }


@dataclass(frozen=True)
class Agreement:
    """How one metric agrees with the ratings over ``n`` items."""

    n: int
    pearson: float
    tau_b: float

    def __str__(self) -> str:
        return f"n = {self.n}, Pearson r = {self.pearson:+.3f}, Kendall tau_b = {self.tau_b:+.3f}"


def metric_agreement(metric: Mapping[str, float], human: Mapping[str, float]) -> Agreement:
    """Pearson r and Kendall tau_b between a metric and the human z, on the items both have.

    Raises ``ValueError`` with fewer than three common items or a constant column.
    """
    common = [i for i in human if i in metric]
    if len(common) < 3:
        raise ValueError("human: need ratings of at least 3 items the metric scored, "
                         f"got {len(common)}")
    m = {i: metric[i] for i in common}
    h = {i: human[i] for i in common}
    return Agreement(len(common), pearson(m, h), kendall_tau(m, h, "b"))


def rater_agreement(
        z: Mapping[str, Mapping[str, float]]) -> dict[tuple[str, str], tuple[int, float]]:
    """For each pair of raters: (items both rated, Pearson r of their z on those items).

    Pairs with fewer than three common items, or a constant column, are left out.
    """
    out = {}
    for a, b in combinations(sorted(z), 2):
        common = [i for i in z[a] if i in z[b]]
        if len(common) < 3:
            continue
        try:
            r = pearson({i: z[a][i] for i in common}, {i: z[b][i] for i in common})
        except ValueError:
            continue
        out[a, b] = (len(common), r)
    return out


def render_report(items: Sequence[RatingItem], ratings: Sequence[Rating],
                  metrics: Mapping[str, Mapping[str, float]] | None = None) -> str:
    """HTML: per item the raw and z ratings beside the metrics, then agreement tables."""
    if not ratings:
        return message_html("还没有评分 (no ratings yet)：拖动滑杆给每句打分，填上名字，再点保存。")
    z = z_normalise(ratings)
    if not z:
        return message_html("每位评价者至少要给两句打分，而且分数不能全都一样，才能算 z 分数。")
    human = item_means(z)
    metrics = metric_scores(items) if metrics is None else metrics
    raw: dict[str, list[float]] = {}
    for r in ratings:
        raw.setdefault(r.item, []).append(r.score)
    rows = [(it.item, f"{statistics.fmean(raw[it.item]):.1f}" if it.item in raw else "—",
             f"{human[it.item]:+.2f}" if it.item in human else "—",
             *(f"{metrics[m][it.item]:.1f}" for m in metrics))
            for it in items]
    parts = [f"<div><b>{len(z)} 位评价者 (raters)，{len(ratings)} 条评分</b></div>",
             table_html(("item", "raw mean", "z mean", *metrics), rows)]
    agree: list[tuple[object, ...]] = []
    for name, scores in metrics.items():
        try:
            a = metric_agreement(scores, human)
            agree.append((name, a.n, f"{a.pearson:+.3f}", f"{a.tau_b:+.3f}"))
        except ValueError as exc:
            agree.append((name, "—", str(exc), ""))
    parts += ["<div><b>指标与你们的评分 (metric vs ratings)</b></div>",
              table_html(("metric", "n", "Pearson r", "Kendall tau_b"), agree)]
    pairs = rater_agreement(z)
    if pairs:
        parts += ["<div><b>评价者之间 (rater vs rater)</b></div>",
                  table_html(("rater 1", "rater 2", "common items", "Pearson r"),
                             [(a, b, n, f"{r:+.3f}") for (a, b), (n, r) in pairs.items()])]
    else:
        parts.append(message_html(
            "评价者之间的一致程度要两位以上的评价者：把同学的 CSV 文件名填进 pool。"))
    return "".join(parts)


class RatingPanel(widgets.VBox):
    """Rate each item on a 0-100 slider, save to ``path``, see the agreement report.

    ``pool`` (comma-separated CSV paths) adds classmates' files to the report.
    """

    def __init__(self, items: Sequence[RatingItem], path: str | Path = "my_ratings.csv",
                 metrics: Mapping[str, Mapping[str, float]] | None = None) -> None:
        if not items:
            raise ValueError("items must not be empty (use rating_sample)")
        self.items = list(items)
        self._metrics = metrics
        self.rater = widgets.Text(description="名字 (rater)", placeholder="例如 wang")
        self.path = widgets.Text(value=str(path), description="文件 (CSV)")
        self.pool = widgets.Text(description="同学的文件 (pool)",
                                 placeholder="用逗号隔开，例如 other.csv, third.csv")
        self.overwrite = widgets.Checkbox(value=False, description="覆盖已有文件 (overwrite)",
                                          layout=widgets.Layout(width="320px"))
        self.sliders = {it.item: widgets.IntSlider(value=50, min=0, max=100,
                                                   continuous_update=False,
                                                   description=it.item) for it in self.items}
        self.save = widgets.Button(description="保存并计算 (save)", button_style="primary")
        self.result = widgets.HTML()
        fit_labels([self.rater, self.path, self.pool])
        self.result.add_class("bleu-rating-result")  # not an explorer: e2e drives one per chapter
        rows = []
        for it in self.items:
            text = (f"<div style='margin-top:8px'><b>{html.escape(it.item)}</b><br>"
                    f"原文 (source)：{html.escape(it.source)}<br>"
                    f"参考 (reference)：{html.escape(it.reference)}<br>"
                    f"译文 (output)：<b>{html.escape(it.output)}</b></div>")
            rows += [widgets.HTML(text), self.sliders[it.item]]
        self.save.on_click(lambda _button: self.submit())
        super().__init__([self.rater, self.path, *rows, self.overwrite, self.pool, self.save,
                          self.result])
        self.result.value = render_report(self.items, [], self._metrics)

    def scores(self) -> dict[str, float]:
        return {item: float(s.value) for item, s in self.sliders.items()}

    def submit(self) -> None:
        """Save this rater's sliders, then show the report over the file and the pool."""
        rater = self.rater.value
        if not rater.strip() or "," in rater:
            self.result.value = message_html(
                "请填上你的名字（不能含逗号）(enter your name, without commas)。")
            return
        try:
            saved = write_ratings(self.path.value, self.rater.value, self.scores(), self.items,
                                  overwrite=self.overwrite.value)
        except FileExistsError:
            self.result.value = message_html(
                f"{self.path.value} 已经存在 (exists)：勾选“覆盖已有文件”再保存，或换一个文件名。")
            return
        except (ValueError, OSError) as exc:
            self.result.value = message_html(str(exc))
            return
        paths = [saved, *(p.strip() for p in self.pool.value.split(",") if p.strip())]
        try:
            ratings = read_ratings(paths)
        except (ValueError, OSError) as exc:
            self.result.value = message_html(f"pool: {exc}")
            return
        self.result.value = render_report(self.items, ratings, self._metrics)

"""The numbers chapter 10's prose states, recomputed here from the raw data with sacrebleu
and the csv module (not with bleu_lesson.analysis.agreement), must be the ones the markdown says.

The documented outputs ("预期输出") are compared with the stored outputs by
tests/test_notebooks.py; this file covers the figures written into sentences.
"""

from __future__ import annotations

import csv
import itertools
import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.wmt22

sacrebleu = pytest.importorskip("sacrebleu")

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "10_bleu_and_people.ipynb"


@pytest.fixture(scope="module")
def prose() -> str:
    if not NOTEBOOK.exists():
        pytest.skip("chapter 10 is not written")
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


@pytest.fixture(scope="module")
def figures(wmt22_dir, oracle):
    folder = Path(wmt22_dir)
    with open(folder / "humaneval" / "ad-sys-ranking-zh-en-z-names.csv", encoding="utf-8") as f:
        rows = [[x for x in row if x] for row in csv.reader(f, delimiter=" ")]
    z = {row[5]: float(row[1]) for row in rows}
    with open(folder / "humaneval" / "ad-sys-scores-zh-en.csv", encoding="utf-8") as f:
        rows = [[x for x in row if x] for row in csv.reader(f, delimiter=" ")][1:]
    z_full = {row[3].rsplit(".", 1)[0]: float(row[1]) for row in rows}

    def lines(name):
        path = folder / f"generaltest2022.zh-en.{name}"
        return path.read_text(encoding="utf-8").split("\n")[:-1]

    ref_a, ref_b = lines("ref.A.en"), lines("ref.B.en")
    systems = sorted(p.name.split(".hyp.")[1][:-3]
                     for p in folder.glob("generaltest2022.zh-en.hyp.*"))
    hyps = {s: lines(f"hyp.{s}.en") for s in systems}
    cands = {**hyps, "HUMAN-B": ref_b}

    def compute():
        # sacrebleu.corpus_bleu / corpus_chrf with their defaults, the reference prepared
        # once for every system (sacrebleu's own references= option) instead of once each
        bleu_metric = sacrebleu.BLEU(references=[ref_a])
        chrf_metric = sacrebleu.CHRF(references=[ref_a])
        return ({n: bleu_metric.corpus_score(h, None).score for n, h in cands.items()},
                {n: chrf_metric.corpus_score(h, None).score for n, h in cands.items()})

    bleu, chrf = oracle("sacrebleu", ["BLEU and chrF, reference A", ref_a, cands], compute)
    return dict(z=z, z_full=z_full, systems=systems, bleu=bleu, chrf=chrf, hyps=hyps,
                ref_a=ref_a, ref_b=ref_b)


def counts(metric, human, names):
    c = d = 0
    for a, b in itertools.combinations(names, 2):
        prod = (metric[a] - metric[b]) * (human[a] - human[b])
        c += prod > 0
        d += prod < 0
    return c, d


def test_correlation_figures(prose, figures):
    z, systems = figures["z"], figures["systems"]
    c, d = counts(figures["bleu"], z, systems)
    assert (c, d) == (51, 14)
    assert f"{c - d}/{c + d} = {(c - d) / (c + d):.3f}" in prose      # 37/65 = 0.569
    assert f"{c}/{c + d} = {c / (c + d):.3f}" in prose                  # 51/65 = 0.785
    c, d = counts(figures["bleu"], z, [*systems, "HUMAN-B"])
    assert f"{c - d}/{c + d} = {(c - d) / (c + d):.3f}" in prose      # 49/77 = 0.636
    for names in (systems, [*systems, "HUMAN-B"]):
        c, d = counts(figures["chrf"], z, names)
        assert f"{(c - d) / (c + d):.3f}" in prose                      # 0.446, 0.532
    c, d = counts(figures["bleu"], figures["z_full"], systems)
    assert f"{c - d}/{c + d + 0} = {(c - d) / (c + d):.3f}" in prose  # 38/66 = 0.576
    assert f"DLUT {figures['z_full']['DLUT']:.5f}" in prose.replace("−", "-")
    assert f"Online-A {figures['z_full']['Online-A']:.5f}" in prose.replace("−", "-")


def test_human_b_and_spread(prose, figures):
    bleu, z, systems = figures["bleu"], figures["z"], figures["systems"]
    best = max(systems, key=bleu.get)
    assert best == "JDExploreAcademy"
    assert f"{bleu['HUMAN-B']:.2f}" in prose and f"{bleu[best]:.2f}" in prose
    assert f"高 {bleu['HUMAN-B'] - bleu[best]:.2f} 分" in prose
    low = min(systems, key=bleu.get)
    assert f"{bleu[best] - bleu[low]:.2f} 分（{bleu[best]:.2f} 到 {bleu[low]:.2f}）" in prose
    assert f"{z['HUMAN-B'] - z[best]:.3f}" in prose                     # 0.160
    ranked = sorted(systems, key=lambda s: -z[s])
    assert f"只差 {z[ranked[0]] - z[ranked[7]]:.3f}" in prose           # 2nd..9th overall


def test_failure_examples(prose, figures):
    i = 1342
    out = figures["hyps"]["JDExploreAcademy"][i]
    assert out == figures["ref_b"][i] != figures["ref_a"][i]
    score_a = sacrebleu.sentence_bleu(out, [figures["ref_a"][i]]).score
    assert f"只有 {score_a:.2f} 分" in prose
    assert sacrebleu.sentence_bleu(out, [figures["ref_b"][i]]).score == pytest.approx(100)
    i = 1521
    out = figures["hyps"]["HuaweiTSC"][i]
    stats = sacrebleu.metrics.BLEU(smooth_method="none").sentence_score(out, [figures["ref_a"][i]])
    assert f"$p_1 = {stats.counts[0]}/{stats.totals[0]}$" in prose and stats.counts[3] == 0


def _read_table(path):
    with open(path, encoding="utf-8") as f:
        rows = [[x for x in row if x] for row in csv.reader(f, delimiter=" ")]
    header, body = rows[0], rows[1:]
    return {(row[0], col): float(cell) for row in body for col, cell in zip(header, row[1:])}


def test_human_significance_counts(prose, wmt22_dir):
    """Two-sided at 0.05 from the two one-sided Wilcoxon p-values, then Holm over the 66
    pairs of the 12 systems, done here by hand on the organisers' p-value table."""
    p = _read_table(Path(wmt22_dir) / "humaneval" / "adwilcox-zhen.csv")
    ids = sorted({a for a, _ in p if not a.startswith("HUMAN-B")})
    assert len(ids) == 12
    two_sided = [min(1.0, 2 * min(p[a, b], p[b, a])) for a, b in itertools.combinations(ids, 2)]
    assert len(two_sided) == 66
    plain = sum(q < 0.05 for q in two_sided)
    ordered = sorted(two_sided)
    holm = 0
    while holm < len(ordered) and ordered[holm] <= 0.05 / (len(ordered) - holm):
        holm += 1
    assert (plain, holm) == (27, 12)
    assert f"人只认为 {plain} 对显著" in prose and f"人只剩 {holm} 对" in prose
    # "any direction p < 0.05" (a two-sided test at 0.10) would count more pairs
    assert sum(min(p[a, b], p[b, a]) < 0.05 for a, b in itertools.combinations(ids, 2)) > plain


def test_z_averages_segments_not_ratings(prose, wmt22_dir):
    folder = Path(wmt22_dir) / "humaneval"
    with open(folder / "ad-seg-scores-zh-en.csv", encoding="utf-8") as f:
        rows = [row.split() for row in f][1:]
    mine = [(float(z), int(n)) for sys_, _, _, z, n in rows if sys_ == "JDExploreAcademy.6"]
    per_segment = sum(z for z, _ in mine) / len(mine)
    per_rating = sum(z * n for z, n in mine) / sum(n for _, n in mine)
    with open(folder / "ad-sys-scores-zh-en.csv", encoding="utf-8") as f:
        published = {row.split()[3]: float(row.split()[1]) for row in list(f)[1:]}
    assert per_segment == pytest.approx(published["JDExploreAcademy.6"], abs=1e-9)
    assert abs(per_rating - per_segment) > 0.002
    prose = prose.replace("−", "-")
    assert f"按句平均正是公布的 {per_segment:.3f}" in prose
    assert f"按全部评分平均却约是 {per_rating:.2f}" in prose


def test_tau_b_beside_the_ties_dropped_figure(prose, figures):
    import math
    z, systems = figures["z"], figures["systems"]
    c, d = counts(figures["bleu"], z, systems)
    n0 = len(systems) * (len(systems) - 1) // 2
    human_ties = sum(z[a] == z[b] for a, b in itertools.combinations(systems, 2))
    assert human_ties == 1
    tau_b = (c - d) / math.sqrt(n0 * (n0 - human_ties))
    assert f"是 {tau_b:.3f}，比 {(c - d) / (c + d):.3f} 小一点" in prose        # 0.565 < 0.569

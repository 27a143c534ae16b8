"""Bootstrap intervals and paired tests give sacrebleu's answers for the same seed."""

from __future__ import annotations

import logging
import os
import random

import pytest

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU  # noqa: E402
from sacrebleu.significance import PairedTest  # noqa: E402

from bleu_lesson import BleuScorer, references_from_streams  # noqa: E402
from bleu_lesson.analysis.significance import (  # noqa: E402
    bootstrap_ci,
    paired_approximate_randomization,
    paired_bootstrap,
)

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

WORDS = "the a cat dog sat on mat is was there and of to in it".split()


def noisy(rng: random.Random, lines: list[str], noise: float) -> list[str]:
    """Each word of each line replaced by a random one with probability ``noise``."""
    return [" ".join(w if rng.random() > noise else rng.choice(WORDS) for w in line.split())
            for line in lines]


def corpus(rng: random.Random, n: int, noise: float) -> tuple[list[str], list[str], list[str]]:
    """Two references and a system output that copies reference A with some noise."""
    ref_a, ref_b, hyp = [], [], []
    for _ in range(n):
        a = [rng.choice(WORDS) for _ in range(rng.randint(3, 15))]
        b = [w if rng.random() > 0.3 else rng.choice(WORDS) for w in a]
        h = [w if rng.random() > noise else rng.choice(WORDS) for w in a]
        ref_a.append(" ".join(a))
        ref_b.append(" ".join(b))
        hyp.append(" ".join(h))
    return ref_a, ref_b, hyp


def sacre_ci(hyps, streams, n_samples=1000):
    score = BLEU().corpus_score(hyps, streams, n_bootstrap=n_samples)
    return score.score / 100, score._mean / 100, score._ci / 100


def sacre_paired(base, system, streams, n_samples=1000):
    test = PairedTest([("base", base), ("system", system)], {"BLEU": BLEU()},
                      references=streams, test_type="bs", n_samples=n_samples)
    result = test()[1]["BLEU"][1]
    return result.score / 100, result.p_value, result.mean / 100, result.ci / 100


def sacre_ar(base, systems, streams, n_samples):
    """sacrebleu's approximate randomization of each system against ``base``: (score, p)."""
    named = [("base", base)] + [(f"s{i}", s) for i, s in enumerate(systems)]
    test = PairedTest(named, {"BLEU": BLEU()}, references=streams, test_type="ar",
                      n_samples=n_samples)
    return [(r.score / 100, r.p_value) for r in test()[1]["BLEU"][1:]]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bootstrap_ci_equals_sacrebleu(seed):
    ref_a, ref_b, hyp = corpus(random.Random(seed), 80, 0.3)
    ours = bootstrap_ci(hyp, references_from_streams(ref_a, ref_b), n_samples=200)
    score, mean, ci = sacre_ci(hyp, [ref_a, ref_b], n_samples=200)
    assert ours.score == pytest.approx(score, abs=1e-12)
    # sacrebleu sums resampled statistics in float32: agreement to ~1e-7
    assert ours.mean == pytest.approx(mean, abs=1e-6)
    assert ours.ci == pytest.approx(ci, abs=1e-6)


@pytest.mark.parametrize("seed,noise", [(4, 0.30), (5, 0.32), (6, 0.6)])
def test_paired_bootstrap_equals_sacrebleu(seed, noise):
    rng = random.Random(seed)
    ref_a, ref_b, base = corpus(rng, 60, 0.3)
    system = noisy(rng, ref_a, noise)
    ours = paired_bootstrap(base, system, references_from_streams(ref_a, ref_b),
                            n_samples=300)
    score, p, mean, ci = sacre_paired(base, system, [ref_a, ref_b], n_samples=300)
    assert ours.system == pytest.approx(score, abs=1e-12)
    assert ours.p_value == pytest.approx(p, abs=1e-12)
    assert ours.mean == pytest.approx(mean, abs=1e-6)
    assert ours.ci == pytest.approx(ci, abs=1e-6)


def test_a_system_against_itself_is_not_significant():
    ref_a, ref_b, hyp = corpus(random.Random(7), 40, 0.3)
    r = paired_bootstrap(hyp, hyp, references_from_streams(ref_a, ref_b), n_samples=100)
    # every resampled difference is 0, none exceeds the observed 0: p = (0 + 1) / (100 + 1)
    assert r.p_value == pytest.approx(1 / 101)
    assert r.difference == 0


def test_scorer_can_be_reused_and_options_are_refused_with_it():
    ref_a, ref_b, hyp = corpus(random.Random(8), 30, 0.3)
    scorer = BleuScorer(references_from_streams(ref_a, ref_b))
    assert bootstrap_ci(hyp, scorer, n_samples=50) == bootstrap_ci(
        hyp, references_from_streams(ref_a, ref_b), n_samples=50)
    with pytest.raises(TypeError, match="BleuScorer"):
        bootstrap_ci(hyp, scorer, n_samples=50, tokenizer="none")


@pytest.mark.parametrize("n", [0, -5])
def test_bad_sample_count(n):
    with pytest.raises(ValueError, match="n_samples"):
        bootstrap_ci(["a"], [["a"]], n_samples=n)
    with pytest.raises(TypeError, match="n_samples"):
        bootstrap_ci(["a"], [["a"]], n_samples=2.5)


@pytest.mark.parametrize("seed,noise", [(9, 0.30), (10, 0.33), (11, 0.5)])
def test_approximate_randomization_equals_sacrebleu(seed, noise):
    rng = random.Random(seed)
    ref_a, ref_b, base = corpus(rng, 60, 0.3)
    system = noisy(rng, ref_a, noise)
    ours = paired_approximate_randomization(base, system, references_from_streams(ref_a, ref_b),
                                            n_samples=500)
    [(score, p)] = sacre_ar(base, [system], [ref_a, ref_b], n_samples=500)
    assert ours.system == pytest.approx(score, abs=1e-12)
    assert ours.p_value == p
    assert ours.n_samples == 500 and ours.seed == 12345


def test_approximate_randomization_of_a_system_against_itself():
    ref_a, ref_b, hyp = corpus(random.Random(12), 30, 0.3)
    r = paired_approximate_randomization(hyp, hyp, references_from_streams(ref_a, ref_b),
                                         n_samples=99)
    # swapping identical outputs changes nothing: no trial exceeds 0, p = 1 / (99 + 1)
    assert r.p_value == 1 / 100 and r.difference == 0 and not r.significant(0.001)


@pytest.mark.parametrize("seed,error,fragment", [
    (-1, ValueError, "seed must be a non-negative int or None, got -1"),
    (1.5, TypeError, "seed must be a non-negative int or None, got float"),
    ("42", TypeError, "seed must be a non-negative int or None, got str"),
    (True, TypeError, "seed must be a non-negative int or None, got bool"),
])
def test_bad_seed_is_named(seed, error, fragment):
    for call in (lambda: bootstrap_ci(["a b"], [["a b"]], n_samples=5, seed=seed),
                 lambda: paired_bootstrap(["a"], ["a"], [["a"]], n_samples=5, seed=seed),
                 lambda: paired_approximate_randomization(["a"], ["a"], [["a"]], n_samples=5,
                                                          seed=seed)):
        with pytest.raises(error, match=fragment):
            call()


def test_empty_corpus_is_refused():
    with pytest.raises(ValueError, match="empty"):
        bootstrap_ci([], [], n_samples=5)


def _seed() -> str | None:
    """sacrebleu's resampling seed (its default when unset): part of every memo key."""
    return os.environ.get("SACREBLEU_SEED")


@pytest.mark.wmt22
def test_wmt22_approximate_randomization_equals_sacrebleu(wmt22_dir, oracle):
    from bleu_lesson.data.datasets import load_wmt22

    data = load_wmt22("zh-en", wmt22_dir)
    names = ["AISP-SJTU", "HuaweiTSC", "Online-B", "Online-W"]  # closest pair, far ones
    streams = [list(data.references["A"]), list(data.references["B"])]
    scorer = BleuScorer(data.references_for("both"), tokenizer="13a")
    base, others = list(data.systems[names[0]]), [list(data.systems[n]) for n in names[1:]]
    sacre = oracle("sacrebleu", ["ar", _seed(), base, others, streams, 1000],
                   lambda: sacre_ar(base, others, streams, n_samples=1000))
    for name, (score, p) in zip(names[1:], sacre):
        ours = paired_approximate_randomization(data.systems[names[0]], data.systems[name],
                                                scorer, n_samples=1000)
        assert ours.system == pytest.approx(score, abs=1e-12), name
        assert ours.p_value == p, name


@pytest.mark.wmt22
def test_wmt22_paired_bootstrap_equals_sacrebleu(wmt22_dir, oracle):
    from bleu_lesson.data.datasets import load_wmt22

    data = load_wmt22("zh-en", wmt22_dir)
    # AISP-SJTU and HuaweiTSC: the two closest zh-en systems (34.35 and 34.35)
    base, system = data.systems["AISP-SJTU"], data.systems["HuaweiTSC"]
    streams = [list(data.references["A"]), list(data.references["B"])]
    ours = paired_bootstrap(base, system, data.references_for("both"), tokenizer="13a")
    score, p, mean, ci = oracle(
        "sacrebleu", ["bs", _seed(), list(base), list(system), streams, 1000],
        lambda: sacre_paired(list(base), list(system), streams))
    assert ours.system == pytest.approx(score, abs=1e-12)
    assert ours.p_value == pytest.approx(p, abs=1e-12)
    assert ours.mean == pytest.approx(mean, abs=1e-6)
    assert ours.ci == pytest.approx(ci, abs=1e-6)
    assert not ours.significant()


def test_each_resample_scores_as_sacrebleu_scores_it():
    """Resample by resample (not only the summary): the counts-weighted sums of the segments'
    statistics give sacrebleu's scores of its own resamples, same indices."""
    import numpy as np
    from sacrebleu.significance import _bootstrap_resample

    from bleu_lesson.analysis.significance import bootstrap_indices, resample_scores

    ref_a, ref_b, hyp = corpus(random.Random(13), 70, 0.3)
    scorer = BleuScorer(references_from_streams(ref_a, ref_b))
    ours = resample_scores(scorer.segment_stats(hyp), scorer, bootstrap_indices(70, 150))
    metric = BLEU()
    stats = metric._extract_corpus_statistics(hyp, [ref_a, ref_b])
    _, theirs = _bootstrap_resample(stats, metric, 150)
    assert np.allclose(np.array(ours) * 100, [s.score for s in theirs], atol=1e-4, rtol=0)
    assert len(set(ours)) > 100  # the resamples really differ


def test_resample_indices_are_checked_and_shared_read_only():
    from bleu_lesson.analysis.significance import bootstrap_indices, resample_scores

    scorer = BleuScorer([["a b c"], ["a b"]])
    stats = scorer.segment_stats(["a b c", "a"])
    with pytest.raises(ValueError, match="one row per resample of 2 segments"):
        resample_scores(stats, scorer, bootstrap_indices(3, 5))
    fixed = bootstrap_indices(2, 5, seed=7)
    assert fixed is bootstrap_indices(2, 5, seed=7) and not fixed.flags.writeable
    assert bootstrap_indices(2, 5, seed=None).flags.writeable


def test_holm_by_hand():
    from bleu_lesson.analysis.significance import holm

    # m = 4: 0.005 <= .05/4, 0.01 <= .05/3, then 0.03 > .05/2 stops the procedure
    assert holm({"a": 0.01, "b": 0.04, "c": 0.03, "d": 0.005}) == {
        "a": True, "b": False, "c": False, "d": True}
    # m = 3: Holm rejects all three; Bonferroni (p <= .05/3) only the first
    assert holm({"a": 0.01, "b": 0.02, "c": 0.04}) == {"a": True, "b": True, "c": True}
    with pytest.raises(ValueError, match="alpha"):
        holm({"a": 0.01}, alpha=5)


def test_paired_p_value_by_hand():
    from bleu_lesson.analysis.significance import paired_p_value

    # |Δ| = 0.1, 0.3, 0.2 -> mean 0.2; centred -0.1, 0.1, 0.0; observed 0.05 -> c = 1
    assert paired_p_value([0.5, 0.5, 0.5], [0.6, 0.8, 0.7], 0.05) == pytest.approx(2 / 4)
    with pytest.raises(ValueError, match="base_scores must not be empty"):
        paired_p_value([], [], 0.1)


def test_resample_rows_with_shared_indices_sums_by_hand():
    """The weights of a shared (read-only) index array are kept between calls: a second
    table resampled with the same indices, and fresh indices after it, still sum right."""
    from bleu_lesson.analysis.significance import bootstrap_indices, resample_rows

    indices = bootstrap_indices(7, n_samples=5, seed=11)
    assert not indices.flags.writeable
    for table in ([[j, 10 * j] for j in range(7)], [[1, j * j] for j in range(7)]):
        got = resample_rows(table, indices).tolist()
        want = [[sum(table[j][k] for j in row) for k in range(2)] for row in indices.tolist()]
        assert got == want
    other = bootstrap_indices(7, n_samples=5, seed=12)
    table = [[j, 1] for j in range(7)]
    assert resample_rows(table, other).tolist() == [[sum(row), 7] for row in other.tolist()]
    writable = [[0, 0, 6], [1, 1, 1]]   # a plain list is never cached
    assert resample_rows(table, writable).tolist() == [[6, 3], [3, 3]]


def test_one_row_form_round_trips_and_sums_as_the_statistics_do():
    from bleu_lesson.core.stats import BleuStats

    a = BleuStats(6, 7, (6, 4, 2, 0), (6, 5, 4, 3))
    b = BleuStats(3, 3, (3, 2, 1, 0), (3, 2, 1, 0))
    assert a.to_row() == (6, 7, 6, 4, 2, 0, 6, 5, 4, 3)
    assert BleuStats.from_row(a.to_row()) == a
    summed = [x + y for x, y in zip(a.to_row(), b.to_row())]   # column by column, by hand
    assert BleuStats.from_row([float(v) for v in summed]) == a + b
    with pytest.raises(ValueError, match="2 \\+ 2·N entries"):
        BleuStats.from_row([1, 2, 3])


def test_the_interval_rule_has_one_home():
    """``n // 40`` is written once in the package (significance.percentile_interval); the
    bootstrap, agreement and the chapter 09 exercise's key all call it."""
    from pathlib import Path

    import bleu_lesson
    from bleu_lesson.analysis import agreement, significance
    from bleu_lesson.teaching.chapters import ch09

    root = Path(bleu_lesson.__file__).parent
    homes = [p.relative_to(root).as_posix() for p in sorted(root.rglob("*.py"))
             if "// 40" in p.read_text(encoding="utf-8").replace("n//40", "// 40")
             and "lower = len(ordered) // 40" in p.read_text(encoding="utf-8")]
    assert homes == ["analysis/significance.py"]
    assert agreement.percentile_interval is significance.percentile_interval
    scores = [i / 100 for i in range(100)]  # s[2] = .02, s[97] = .97 by hand
    assert significance.percentile_interval(scores) == (0.02, 0.97)
    assert ch09._ci_half_width(scores) == pytest.approx(0.475)
    assert significance._estimate_ci(scores) == (pytest.approx(0.495), pytest.approx(0.475))

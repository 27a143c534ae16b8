"""``bleu_lesson.analysis.agreement``: correlations checked by hand arithmetic, scipy when
installed, and the issue's figures (measured with sacrebleu) on the WMT22 zh-en human judgments."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from bleu_lesson.analysis.agreement import (
    concordance,
    disagreements,
    kendall_tau,
    pairwise_accuracy,
    pearson,
    percentile_interval,
)

# four systems, worked by hand:
#   pairs (a,b) (a,c) (a,d) (b,c) (b,d) (c,d)
#   metric  +     +     +     +     -     -      (metric: a 30, b 25, c 20, d 28)
#   human   +     +     +     +     +     -      (human: a .1, b 0, c -.2, d -.1)
#   -> C = 5 (all but (b,d)), D = 1, tau = 4/6, accuracy = 5/6
METRIC = {"a": 30.0, "b": 25.0, "c": 20.0, "d": 28.0}
HUMAN = {"a": 0.1, "b": 0.0, "c": -0.2, "d": -0.1}


def test_four_systems_by_hand():
    counts = concordance(METRIC, HUMAN)
    assert (counts.concordant, counts.discordant, counts.ties) == (5, 1, 0)
    assert kendall_tau(METRIC, HUMAN) == pytest.approx(4 / 6)
    assert kendall_tau(METRIC, HUMAN, "a") == pytest.approx(4 / 6)
    assert kendall_tau(METRIC, HUMAN, "b") == pytest.approx(4 / 6)
    assert pairwise_accuracy(METRIC, HUMAN) == pytest.approx(5 / 6)
    assert disagreements(METRIC, HUMAN) == [("b", "d", -3.0, pytest.approx(0.1))]


def test_pearson_by_hand():
    # x = 1, 2, 3 (mean 2); y = 2, 4, 7 (mean 13/3): Sxy = 5, Sxx = 2, Syy = 38/3
    assert pearson({"a": 1, "b": 2, "c": 3}, {"a": 2, "b": 4, "c": 7}) == \
        pytest.approx(5 / math.sqrt(2 * 38 / 3), abs=1e-15)
    assert pearson({"a": 1, "b": 2}, {"a": 5, "b": -5}) == pytest.approx(-1.0)


def test_ties_by_hand():
    # human ties (b, c); the metric ties (a, b)
    metric = {"a": 1.0, "b": 1.0, "c": 3.0, "d": 0.0}
    human = {"a": 2.0, "b": 5.0, "c": 5.0, "d": 9.0}
    # pairs: ab metric tie; ac: m -, h - -> C; ad: m +, h - -> D; bc: human tie;
    #        bd: m +, h - -> D; cd: m +, h - -> D
    counts = concordance(metric, human)
    assert (counts.concordant, counts.discordant, counts.metric_ties, counts.human_ties) == \
        (1, 3, 1, 1)
    assert kendall_tau(metric, human) == pytest.approx((1 - 3) / 4)
    assert kendall_tau(metric, human, "a") == pytest.approx((1 - 3) / 6)
    assert kendall_tau(metric, human, "b") == pytest.approx((1 - 3) / math.sqrt(5 * 5))
    assert pairwise_accuracy(metric, human) == pytest.approx(1 / 5)  # metric tie counts wrong


def test_tau_b_by_hand_with_unequal_ties():
    # metric ties a, b, c (3 pairs); people tie c, d (1 pair); n0 = 6
    metric = {"a": 1.0, "b": 1.0, "c": 1.0, "d": 2.0}
    human = {"a": 1.0, "b": 2.0, "c": 3.0, "d": 3.0}
    # ad: m +, h + -> C; bd: m +, h + -> C; ab, ac, bc metric ties; cd human tie
    # tau_b = (2 - 0) / sqrt((6 - 3)(6 - 1)) = 2 / sqrt(15); tau-like = 2 / 2
    assert kendall_tau(metric, human, "b") == pytest.approx(2 / math.sqrt(15))
    assert kendall_tau(metric, human) == pytest.approx(1.0)
    assert kendall_tau(metric, human, "a") == pytest.approx(2 / 6)


def test_against_scipy_when_installed():
    stats = pytest.importorskip("scipy.stats", reason="scipy is not installed: hand checks only")
    rng = random.Random(7)
    for _ in range(50):
        n = rng.randint(3, 12)
        m = {f"s{i}": float(rng.randint(0, 5)) for i in range(n)}
        h = {f"s{i}": float(rng.randint(0, 5)) for i in range(n)}
        if len(set(m.values())) < 2 or len(set(h.values())) < 2:
            continue
        assert kendall_tau(m, h, "b") == pytest.approx(
            stats.kendalltau(list(m.values()), list(h.values())).statistic)
        assert pearson(m, h) == pytest.approx(stats.pearsonr(list(m.values()),
                                                             list(h.values()))[0])


def test_brute_force_definition_on_random_data():
    """tau-like and accuracy from an independent count over all pairs of ranks."""
    rng = random.Random(3)
    for _ in range(30):
        names = [f"s{i}" for i in range(rng.randint(2, 9))]
        m = {n: rng.random() for n in names}
        h = {n: rng.random() for n in names}
        agree = sum((m[a] > m[b]) == (h[a] > h[b]) for a, b in itertools.combinations(names, 2))
        total = len(names) * (len(names) - 1) // 2
        assert pairwise_accuracy(m, h) == pytest.approx(agree / total)
        assert kendall_tau(m, h) == pytest.approx((2 * agree - total) / total)


def test_percentile_interval():
    assert percentile_interval(list(range(40))) == (1, 38)
    assert percentile_interval([5.0]) == (5.0, 5.0)
    with pytest.raises(ValueError):
        percentile_interval([])


@pytest.mark.parametrize(("call", "error"), [
    (lambda: pearson({"a": 1}, {"a": 1}), ValueError),
    (lambda: pearson({"a": 1, "b": 1}, {"a": 1, "b": 2}), ValueError),
    (lambda: kendall_tau({"a": 1, "b": 2}, {"a": 1, "c": 2}), ValueError),
    (lambda: kendall_tau(METRIC, HUMAN, "c"), ValueError),
    (lambda: kendall_tau([1, 2], [1, 2]), TypeError),
    (lambda: pearson({"a": 1, "b": "2"}, {"a": 1, "b": 2}), TypeError),
    (lambda: pairwise_accuracy({"a": 1, "b": 2}, {"a": 1, "b": 1}), ValueError),
])
def test_bad_input(call, error):
    with pytest.raises(error):
        call()


@pytest.mark.wmt22
def test_reproduces_the_issues_figures(wmt22_dir, oracle):
    """Kendall tau 0.569 / pairwise accuracy 0.785 (BLEU, ref A, 13a, 12 systems), 0.636 with
    HUMAN-B; chrF 0.446 and 0.532: the figures measured with sacrebleu in issue 12."""
    sacrebleu = pytest.importorskip("sacrebleu")
    from bleu_lesson.data.datasets import load_wmt22, load_wmt22_human

    data = load_wmt22("zh-en", wmt22_dir, download=False)
    human = load_wmt22_human("zh-en", wmt22_dir).z()
    ref_a = list(data.references["A"])
    candidates = {n: list(h) for n, h in {**data.systems, "HUMAN-B": data.references["B"]}.items()}

    def compute():
        # sacrebleu.corpus_bleu / corpus_chrf with their defaults, the reference prepared
        # once for every system (sacrebleu's own references= option) instead of once each
        bleu_metric = sacrebleu.BLEU(references=[ref_a])
        chrf_metric = sacrebleu.CHRF(references=[ref_a])
        return ({n: bleu_metric.corpus_score(h, None).score for n, h in candidates.items()},
                {n: chrf_metric.corpus_score(h, None).score for n, h in candidates.items()})

    # the same key as tests/test_ch10_prose.py's figures: one computation serves both
    bleu, chrf = oracle("sacrebleu", ["BLEU and chrF, reference A", ref_a, candidates],
                        compute)
    systems = list(data.systems)

    def only(d, names):
        return {n: d[n] for n in names}

    assert round(kendall_tau(only(bleu, systems), only(human, systems)), 3) == 0.569
    # tau_b keeps the one human tie (DLUT = Online-A at 3 decimals): 37 / sqrt(66 * 65)
    assert kendall_tau(only(bleu, systems), only(human, systems), "b") == \
        pytest.approx(37 / math.sqrt(66 * 65))
    assert round(37 / math.sqrt(66 * 65), 3) == 0.565
    assert round(pairwise_accuracy(only(bleu, systems), only(human, systems)), 3) == 0.785
    assert round(kendall_tau(bleu, human), 3) == 0.636
    assert round(kendall_tau(only(chrf, systems), only(human, systems)), 3) == 0.446
    assert round(kendall_tau(chrf, human), 3) == 0.532

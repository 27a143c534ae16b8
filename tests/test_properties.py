"""Properties BLEU must have whatever the input (hypothesis-generated segments).

These need no reference implementation: each is a fact about the definition (clipped counts,
closest reference length with ties to the shorter, sums of statistics, the geometric mean).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import bleu_lesson
from bleu_lesson import (
    BleuScorer,
    clipped_counts,
    corpus_bleu,
    get_tokenizer,
    sentence_bleu,
    sum_stats,
)

TOKENIZERS = ["none", "13a", "intl", "zh", "char"]
SACREBLEU_SMOOTHING = ["none", "floor", "add-k", "exp"]
NLTK_SMOOTHING = [f"method{i}" for i in range(8)]
ALL_SMOOTHING = SACREBLEU_SMOOTHING + NLTK_SMOOTHING
# NLTK's method 5 (and 7 = 4 then 5) averages each precision with its neighbours, starting
# from p_1 + 1, so it can exceed 1 (NLTK does the same: see test_vs_nltk.py).
BOUNDED_SMOOTHING = [s for s in ALL_SMOOTHING if s not in ("method5", "method7")]

FAST = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                       HealthCheck.data_too_large])

WORDS = ["the", "the", "The", "cat", "Cat", "mat", "mat.", "on", "is", "a", "there", ".", ",",
         "it's", "U.S.", "3.14", "e-mail", "猫", "坐在", "垫子上", "猫坐在垫子上。", "，", "。",
         "“你好”"]
words = st.sampled_from(WORDS)
segments = st.lists(words, max_size=10).map(" ".join)


@st.composite
def candidate_for(draw, refs: list[str]) -> str:
    if draw(st.booleans()):
        return draw(segments)
    base = draw(st.sampled_from(refs)).split()
    i = draw(st.integers(0, len(base)))
    j = draw(st.integers(i, len(base)))
    return " ".join(base[:i] + draw(st.lists(words, max_size=3)) + base[j:])


@st.composite
def sentence_examples(draw, max_refs: int = 4):
    refs = draw(st.lists(segments, min_size=1, max_size=max_refs))
    return draw(candidate_for(refs)), refs


@st.composite
def corpus_examples(draw, max_segments: int = 5, max_refs: int = 4):
    per_segment = draw(st.lists(st.lists(segments, min_size=1, max_size=max_refs),
                                min_size=1, max_size=max_segments))
    return [draw(candidate_for(refs)) for refs in per_segment], per_segment


options = st.fixed_dictionaries({
    "tokenizer": st.sampled_from(TOKENIZERS),
    "lowercase": st.booleans(),
    "smoothing": st.sampled_from(ALL_SMOOTHING),
    "max_n": st.integers(1, 5),
})


def call(fn, *args, **kwargs):
    """Run a scorer, skipping inputs NLTK's method6 refuses (ValueError, tested elsewhere)."""
    try:
        return fn(*args, **kwargs)
    except ValueError as e:
        assume("method6" not in str(e))
        raise


@pytest.mark.parametrize("smoothing", BOUNDED_SMOOTHING)
@FAST
@given(example=sentence_examples(), tokenizer=st.sampled_from(TOKENIZERS),
       max_n=st.integers(1, 5), eff=st.booleans())
def test_score_is_between_0_and_1(smoothing, example, tokenizer, max_n, eff):
    cand, refs = example
    result = call(sentence_bleu, cand, refs, tokenizer=tokenizer, smoothing=smoothing,
                  max_n=max_n, effective_order=eff)
    assert 0.0 <= result.score <= 1.0
    assert 0.0 <= result.bp <= 1.0
    assert all(0.0 <= m <= t for m, t in zip(result.matches, result.totals, strict=True))


@pytest.mark.parametrize("smoothing", BOUNDED_SMOOTHING)
@FAST
@given(refs=st.lists(segments, min_size=1, max_size=4), data=st.data(),
       tokenizer=st.sampled_from(TOKENIZERS), lowercase=st.booleans(),
       max_n=st.integers(1, 5), eff=st.booleans())
def test_candidate_identical_to_a_reference_scores_1(smoothing, refs, data, tokenizer,
                                                     lowercase, max_n, eff):
    cand = data.draw(st.sampled_from(refs))
    # method6 needs a 3rd order (NLTK raises IndexError without one, bleu_lesson ValueError)
    assume(smoothing != "method6" or max_n >= 3)
    assume(len(get_tokenizer(tokenizer, lowercase)(cand)) >= max_n)
    result = sentence_bleu(cand, refs, tokenizer=tokenizer, lowercase=lowercase,
                           smoothing=smoothing, max_n=max_n, effective_order=eff)
    assert result.score == pytest.approx(1.0, abs=1e-12)
    assert result.bp == 1.0
    assert result.matches == result.totals


@FAST
@given(example=sentence_examples(), opts=options, data=st.data())
def test_reference_order_does_not_matter(example, opts, data):
    cand, refs = example
    shuffled = data.draw(st.permutations(refs))
    a = call(sentence_bleu, cand, refs, **opts)   # tie="shorter" (the default)
    b = sentence_bleu(cand, shuffled, **opts)
    assert a == b


@FAST
@given(example=sentence_examples(max_refs=3), extra=segments, opts=options)
def test_adding_a_reference_never_lowers_a_clipped_count(example, extra, opts):
    cand, refs = example
    opts = {**opts, "smoothing": "exp"}      # the counts do not depend on smoothing
    before = sentence_bleu(cand, refs, **opts)
    after = sentence_bleu(cand, refs + [extra], **opts)
    assert all(a >= b for a, b in zip(after.matches, before.matches, strict=True))
    assert after.totals == before.totals


@FAST
@given(example=sentence_examples(), tokenizer=st.sampled_from(TOKENIZERS),
       lowercase=st.booleans(), max_n=st.integers(1, 6))
def test_scorer_counts_are_the_lessons_clipped_counts(example, tokenizer, lowercase, max_n):
    # BleuScorer counts with its own fast path; clipping.clipped_counts is the readable
    # definition a chapter shows (cand & (ref_1 | ref_2 | …)). They must agree.
    cand, refs = example
    tok = get_tokenizer(tokenizer, lowercase)
    result = sentence_bleu(cand, refs, tokenizer=tokenizer, lowercase=lowercase, max_n=max_n)
    expected = [clipped_counts(tok(cand), [tok(r) for r in refs], n) for n in range(1, max_n + 1)]
    assert list(zip(result.matches, result.totals, strict=True)) == expected


@FAST
@given(example=corpus_examples(), opts=options)
def test_corpus_statistics_are_the_sum_of_segment_statistics(example, opts):
    cands, per_segment = example
    max_n = opts["max_n"]
    scorer = BleuScorer(per_segment, **opts)
    segment_stats = scorer.segment_stats(cands)
    total = sum(segment_stats)
    assert total == sum_stats(segment_stats) == bleu_lesson.sum_stats(segment_stats)
    assert scorer.corpus_stats(cands) == total       # the one-pass sum corpus scoring uses
    result = call(corpus_bleu, cands, per_segment, **opts)
    assert result.matches == total.matches[:max_n]
    assert result.totals == total.totals[:max_n]
    assert (result.hyp_len, result.ref_len) == (total.hyp_len, total.ref_len)
    # and each segment's record is the one sentence_bleu uses for that segment alone
    for cand, refs, stats in zip(cands, per_segment, segment_stats, strict=True):
        one = call(sentence_bleu, cand, refs, **opts)
        assert (one.matches, one.totals) == (stats.matches[:max_n], stats.totals[:max_n])
        assert (one.hyp_len, one.ref_len) == (stats.hyp_len, stats.ref_len)


@FAST
@given(example=corpus_examples(), opts=options, data=st.data())
def test_corpus_score_does_not_depend_on_segment_order(example, opts, data):
    cands, per_segment = example
    order = data.draw(st.permutations(range(len(cands))))
    a = call(corpus_bleu, cands, per_segment, **opts)
    b = corpus_bleu([cands[i] for i in order], [per_segment[i] for i in order], **opts)
    assert a.matches == b.matches and a.totals == b.totals
    assert (a.hyp_len, a.ref_len) == (b.hyp_len, b.ref_len)
    assert b.score == pytest.approx(a.score, abs=1e-12)


@pytest.mark.parametrize("smoothing", ALL_SMOOTHING)
@FAST
@given(example=sentence_examples(), tokenizer=st.sampled_from(TOKENIZERS),
       max_n=st.integers(1, 5), eff=st.booleans())
def test_explicit_uniform_weights_equal_weights_none(smoothing, example, tokenizer, max_n, eff):
    cand, refs = example
    kwargs = {"tokenizer": tokenizer, "smoothing": smoothing, "max_n": max_n,
              "effective_order": eff}
    implicit = call(sentence_bleu, cand, refs, **kwargs)
    explicit = sentence_bleu(cand, refs, weights=(1 / max_n,) * max_n, **kwargs)
    assert explicit.precisions == implicit.precisions
    assert explicit.signature == implicit.signature
    # Effective order counts only the orders before the first with no candidate n-gram
    # (add-k gives every order n >= 2 at least k); NLTK's methods have no effective order.
    orders = max_n
    if eff and smoothing in ("none", "floor", "exp") and any(implicit.matches):
        orders = min(max_n, implicit.hyp_len)
    if orders == max_n:
        assert explicit.score == pytest.approx(implicit.score, abs=1e-12)
    else:
        # fewer orders count: weights=None spreads 1/orders over them (sacrebleu), given
        # weights keep their 1/max_n each and the dropped orders' weights are dropped
        used = implicit.precisions[:orders]
        if min(used) == 0:
            assert explicit.score == implicit.score == 0.0
        else:
            log_p = sum(math.log(p) for p in used)
            assert implicit.score == pytest.approx(implicit.bp * math.exp(log_p / orders),
                                                   abs=1e-12)
            assert explicit.score == pytest.approx(implicit.bp * math.exp(log_p / max_n),
                                                   abs=1e-12)


def test_given_weights_of_orders_effective_order_drops_are_dropped():
    # "the the" vs "the", exp smoothing, max_n = 3: p1 = 1/2 (clipped 1 of 2), p2 = 1/(2·1)
    # (no bigram match, first smoothed order), no trigram, so effective order 2.
    uniform = sentence_bleu("the the", ["the"], tokenizer="none", max_n=3)
    assert uniform.score == pytest.approx(0.5, abs=1e-12)        # (1/2 · 1/2) ** (1/2)
    given_ = sentence_bleu("the the", ["the"], tokenizer="none", max_n=3, weights=(1 / 3,) * 3)
    assert given_.score == pytest.approx(0.5 ** (2 / 3), abs=1e-12)  # (1/2 · 1/2) ** (1/3)


@pytest.mark.parametrize("smoothing", ALL_SMOOTHING)
@FAST
@given(example=sentence_examples(), tokenizer=st.sampled_from(TOKENIZERS),
       lowercase=st.booleans(), max_n=st.integers(1, 5))
def test_corpus_of_one_segment_is_sentence_bleu_without_effective_order(
        smoothing, example, tokenizer, lowercase, max_n):
    cand, refs = example
    kwargs = {"tokenizer": tokenizer, "lowercase": lowercase, "smoothing": smoothing,
              "max_n": max_n}
    corpus = call(corpus_bleu, [cand], [refs], **kwargs)
    assert corpus == sentence_bleu(cand, refs, effective_order=False, **kwargs)

"""bleu_lesson's ``method0`` … ``method7`` agree with NLTK's ``SmoothingFunction()``.

Expected values come from ``nltk.translate.bleu_score`` itself on the same token lists. NLTK
takes token lists, so we pass ``" ".join(tokens)`` with ``tokenizer="none"`` (tokens here never
contain whitespace, so the split gives the same lists back). NLTK breaks reference-length ties
towards the shorter reference, as bleu_lesson's default ``tie="shorter"`` does.

What is deliberately *not* compared:

- NLTK's ``corpus_bleu`` with methods 4–7: it calls the smoothing function once, after the loop,
  with the *last* segment's ``references``/``hypothesis`` (method 4's length fallback, method 5's
  5-gram precision, method 6's n-gram counts), which is not a corpus quantity. Those methods
  are compared at sentence level only.
- NLTK's ``corpus_bleu`` when a candidate has fewer than max_n tokens: ``modified_precision``
  returns a denominator of ``max(1, total)`` *per segment*, so a short segment adds a phantom 1
  to the corpus denominator of every order it is too short for; bleu_lesson adds 0, like
  sacrebleu. The corpus comparison below therefore uses candidates of at least max_n tokens, and
  ``test_nltk_corpus_denominators_differ_for_short_segments`` pins the difference by hand.
"""

from __future__ import annotations

import math
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate import bleu_score as nltk_bleu
from strategies import NLTK_SMOOTHING, fast, token_corpus_examples
from strategies import token_sentence_examples as sentence_examples

from bleu_lesson import (
    brevity_penalty,
    clipped_counts,
    closest_ref_length,
    corpus_bleu,
    sentence_bleu,
)

METHODS = list(NLTK_SMOOTHING)
FAST = fast(25)

# (weights for NLTK, weights for bleu_lesson, max_n): NLTK's default is (0.25,)*4.
WEIGHTS = [
    ((0.25, 0.25, 0.25, 0.25), None, 4),
    ((0.5, 0.5), (0.5, 0.5), 2),
    ((1 / 3,) * 3, (1 / 3,) * 3, 3),
    ((0.1, 0.2, 0.3, 0.4), (0.1, 0.2, 0.3, 0.4), 4),
    ((0.4, 0.3, 0.2, 0.1), (0.4, 0.3, 0.2, 0.1), 4),
    ((0.2,) * 5, (0.2,) * 5, 5),
    ((1.0,), (1.0,), 1),
]

def nltk_sentence(cand, refs, method, weights):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # method0 warns about every zero count
        return nltk_bleu.sentence_bleu(refs, cand, weights=weights,
                                       smoothing_function=getattr(nltk_bleu.SmoothingFunction(),
                                                                  method))


def nltk_corpus(cands, refs, method, weights):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nltk_bleu.corpus_bleu(refs, cands, weights=weights,
                                     smoothing_function=getattr(nltk_bleu.SmoothingFunction(),
                                                                method))


def assert_close(ours: float, theirs: float) -> None:
    # abs for ordinary values, rel for method0's tiny "not quite zero" scores (≈ 1e-77)
    assert abs(ours - theirs) <= 1e-12, (ours, theirs)
    assert math.isclose(ours, theirs, rel_tol=1e-9), (ours, theirs)


@pytest.mark.parametrize("nltk_w, our_w, max_n", WEIGHTS, ids=lambda w: str(w))
@pytest.mark.parametrize("method", METHODS)
@FAST
@given(example=sentence_examples())
def test_sentence_bleu_equals_nltk(method, nltk_w, our_w, max_n, example):
    cand, refs = example
    try:
        theirs = nltk_sentence(cand, refs, method, nltk_w)
    except (AssertionError, IndexError):
        # NLTK's method6 asserts p_3 > 0 (IndexError when there is no 3rd order at all)
        assert method == "method6"
        with pytest.raises(ValueError, match="method6"):
            sentence_bleu(" ".join(cand), [" ".join(r) for r in refs], tokenizer="none",
                          smoothing=method, max_n=max_n, weights=our_w)
        return
    ours = sentence_bleu(" ".join(cand), [" ".join(r) for r in refs], tokenizer="none",
                         smoothing=method, max_n=max_n, weights=our_w)
    assert_close(ours.score, theirs)


@pytest.mark.parametrize("method", ["method0", "method6"])
def test_method6_raises_where_nltk_asserts(method):
    cand, refs = "the cat sat".split(), ["a cat sat there".split()]   # no trigram match
    if method == "method6":
        with pytest.raises(AssertionError):
            nltk_sentence(cand, refs, method, (0.25,) * 4)
        with pytest.raises(ValueError, match="method6"):
            sentence_bleu("the cat sat", ["a cat sat there"], tokenizer="none", smoothing=method)
    else:
        assert_close(sentence_bleu("the cat sat", ["a cat sat there"], tokenizer="none",
                                   smoothing=method).score,
                     nltk_sentence(cand, refs, method, (0.25,) * 4))


def test_method5_can_exceed_one_like_nltk():
    # NLTK's method 5 averages p_{n-1}, p_n, p_{n+1} starting from p_1 + 1, so a perfect
    # match scores above 1: p1' = (2 + 1 + 1)/3 = 4/3, p2' = (4/3 + 2)/3 = 10/9, … (NLTK too)
    tokens = "the cat is on the mat today".split()
    theirs = nltk_sentence(tokens, [tokens], "method5", (0.25,) * 4)
    assert theirs > 1
    ours = sentence_bleu(" ".join(tokens), [" ".join(tokens)], tokenizer="none",
                         smoothing="method5")
    assert_close(ours.score, theirs)
    expected = (4 / 3 * 10 / 9 * 28 / 27 * 82 / 81) ** 0.25   # hand arithmetic, all p_n = 1
    assert ours.score == pytest.approx(expected, abs=1e-12)


def corpus_examples(min_tokens: int):
    return token_corpus_examples(min_tokens=min_tokens, max_refs=4)


@pytest.mark.parametrize("nltk_w, our_w, max_n", WEIGHTS, ids=lambda w: str(w))
@pytest.mark.parametrize("method", ["method0", "method1", "method2", "method3"])
@FAST
@given(data=st.data())
def test_corpus_bleu_equals_nltk_methods_0_to_3(method, nltk_w, our_w, max_n, data):
    # every candidate has >= max_n tokens: see the module docstring for why
    cands, refs = data.draw(corpus_examples(min_tokens=max_n))
    assert all(len(c) >= max_n for c in cands)
    theirs = nltk_corpus(cands, refs, method, nltk_w)
    ours = corpus_bleu([" ".join(c) for c in cands], [[" ".join(r) for r in rs] for rs in refs],
                       tokenizer="none", smoothing=method, max_n=max_n, weights=our_w)
    assert_close(ours.score, theirs)


def test_nltk_corpus_denominators_differ_for_short_segments():
    # Segment 2 ("a") has no bigram, trigram or 4-gram. NLTK's per-segment max(1, total)
    # adds 1 to each of those corpus denominators; bleu_lesson (and sacrebleu) add 0.
    cands, refs = ["a b c d".split(), ["a"]], [["a b c d".split()], [["a"]]]
    theirs = nltk_corpus(cands, refs, "method0", (0.25,) * 4)
    # NLTK: p = 5/5, 3/4, 2/3, 1/2
    assert theirs == pytest.approx((1 * 3 / 4 * 2 / 3 * 1 / 2) ** 0.25, abs=1e-12)
    ours = corpus_bleu(["a b c d", "a"], [["a b c d"], ["a"]], tokenizer="none",
                       smoothing="method0")
    assert ours.score == pytest.approx(1.0, abs=1e-12)   # p = 5/5, 3/3, 2/2, 1/1
    assert ours.totals == (5, 3, 2, 1)


# --- the pieces -----------------------------------------------------------------------------

@FAST
@given(example=sentence_examples(), n=st.integers(1, 5))
def test_clipped_counts_equal_nltk_modified_precision(example, n):
    cand, refs = example
    p = nltk_bleu.modified_precision(refs, cand, n)
    matches, total = clipped_counts(cand, refs, n)
    assert matches == p.numerator
    assert max(1, total) == p.denominator   # NLTK's denominator is max(1, total)
    assert total == max(len(cand) - n + 1, 0)


@FAST
@given(hyp_len=st.integers(0, 30), ref_lens=st.lists(st.integers(0, 30), min_size=1, max_size=5))
def test_closest_ref_length_and_brevity_penalty_equal_nltk(hyp_len, ref_lens):
    refs = [["w"] * r for r in ref_lens]
    r = nltk_bleu.closest_ref_length(refs, hyp_len)
    assert closest_ref_length(hyp_len, ref_lens) == r
    if hyp_len == r == 0:
        return  # the one case where the tools differ: see the next test
    assert brevity_penalty(hyp_len, r) == pytest.approx(nltk_bleu.brevity_penalty(r, hyp_len),
                                                        abs=1e-15)


def test_brevity_penalty_of_empty_candidate_and_empty_reference():
    # c = r = 0: NLTK tests "hyp_len == 0" first and returns 0; sacrebleu (and bleu_lesson)
    # apply the penalty only when c < r, so BP = 1. The score is 0 either way (no unigram).
    assert nltk_bleu.brevity_penalty(0, 0) == 0
    assert brevity_penalty(0, 0) == 1.0
    assert nltk_sentence([], [[]], "method1", (0.25,) * 4) == 0
    assert sentence_bleu("", [""], tokenizer="none", smoothing="method1").score == 0.0

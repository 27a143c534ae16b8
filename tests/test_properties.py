"""Properties BLEU must have whatever the input (hypothesis-generated segments).

These need no reference implementation: each is a fact about the definition (clipped counts,
closest reference length with ties to the shorter, sums of statistics, the geometric mean),
or a number worked out by hand. Comparisons of the library with itself (corpus BLEU of one
segment against sentence BLEU, which run the same code) are not here: the numbers are
compared with sacrebleu, NLTK and the seed's own code in test_vs_sacrebleu.py,
test_vs_nltk.py and test_variants.py.
"""

from __future__ import annotations

import importlib
import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import (
    ALL_SMOOTHING,
    BOUNDED_SMOOTHING,
    SACREBLEU_TOKENIZERS,
    fast,
    segments,
    sentence_examples,
)
from strategies import corpus_examples as _corpus_examples

from bleu_lesson import corpus_bleu, get_tokenizer, sentence_bleu

# the module (the package's attribute `ngrams` is the function of that name)
NGRAMS = importlib.import_module("bleu_lesson.core.ngrams")
TOKENIZERS = list(SACREBLEU_TOKENIZERS)
FAST = fast(40)

options = st.fixed_dictionaries({
    "tokenizer": st.sampled_from(TOKENIZERS),
    "lowercase": st.booleans(),
    "smoothing": st.sampled_from(ALL_SMOOTHING),
    "max_n": st.integers(1, 5),
})


def corpus_examples():
    return _corpus_examples(varying=True).map(lambda e: (e[0], e[1]))


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
@given(refs=st.lists(segments(), min_size=1, max_size=4), data=st.data(),
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
@given(example=sentence_examples(max_refs=3), extra=segments(), opts=options)
def test_adding_a_reference_never_lowers_a_clipped_count(example, extra, opts):
    cand, refs = example
    opts = {**opts, "smoothing": "exp"}      # the counts do not depend on smoothing
    before = sentence_bleu(cand, refs, **opts)
    after = sentence_bleu(cand, refs + [extra], **opts)
    assert all(a >= b for a, b in zip(after.matches, before.matches, strict=True))
    assert after.totals == before.totals


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


# --- max_n far above the sentence length ---------------------------------------------------

def test_max_n_of_a_million_on_a_six_token_sentence(monkeypatch):
    # candidate "the cat sat on a mat", reference "the cat sat on the mat" (hand counts):
    # p1 = 5/6, p2 = 3/5 (the cat, cat sat, sat on), p3 = 2/4, p4 = 1/3 (the cat sat on),
    # p5 = 0/2 -> exp smoothing 1/(2·2), p6 = 0/1 -> 1/(4·1); no 7-gram, so with effective
    # order the mean is over 6 orders; BP = 1 (c = r = 6)
    expected = (5 / 6 * 3 / 5 * 2 / 4 * 1 / 3 * 1 / 4 * 1 / 4) ** (1 / 6)
    orders = []
    real = NGRAMS.ngrams

    def spy(tokens, n):
        orders.append(n)
        return real(tokens, n)

    monkeypatch.setattr(NGRAMS, "ngrams", spy)
    result = sentence_bleu("the cat sat on a mat", ["the cat sat on the mat"],
                           tokenizer="none", max_n=10**6, smoothing="exp", effective_order=True)
    assert result.score == pytest.approx(expected, abs=1e-12)
    assert result.matches[:7] == (5, 3, 2, 1, 0, 0, 0)
    # orders with no n-gram are skipped, not enumerated: only orders 1..6 were ever built
    assert orders and max(orders) <= 6


def test_max_n_above_the_sentence_equals_sacrebleus_order_6():
    sacrebleu = pytest.importorskip("sacrebleu")
    cand, ref = "the cat sat on a mat", "the cat sat on the mat"
    theirs = sacrebleu.metrics.BLEU(max_ngram_order=6, effective_order=True, tokenize="none")
    want = theirs.sentence_score(cand, [ref]).score / 100
    for max_n in (6, 50, 10**5):
        ours = sentence_bleu(cand, [ref], tokenizer="none", max_n=max_n)
        assert ours.score == pytest.approx(want, abs=1e-12), max_n

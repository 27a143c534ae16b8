"""Bad input fails early, with the right exception and a message that names the argument.

One table: each row is the call, the exception type, and a regex the message must match.
Conventions §1: ``ValueError`` for a value out of range, ``TypeError`` for a wrong type, and the
message says which argument and what was expected.
"""

from __future__ import annotations

import pytest

from bleu_lesson import (
    BleuScorer,
    closest_ref_length,
    corpus_bleu,
    references_from_streams,
    sentence_bleu,
)

OK = ["the cat is on the mat"]


def bleu(**kwargs):
    """sentence_bleu with one good candidate and reference, and one bad option."""
    return lambda: sentence_bleu("the cat", OK, **kwargs)


def corpus(**kwargs):
    return lambda: corpus_bleu(["the cat"], [OK], **kwargs)


BAD_INPUT = [
    # --- references ---
    ("empty reference list (sentence)", lambda: sentence_bleu("the cat", []),
     ValueError, r"at least one reference is required"),
    ("empty reference list (corpus segment)", lambda: corpus_bleu(["the cat"], [[]]),
     ValueError, r"at least one reference is required.*references\[0\]"),
    ("segment whose references are all None", lambda: corpus_bleu(
        ["the cat"], references_from_streams([None])),
     ValueError, r"at least one reference is required"),
    ("references as str (sentence)", lambda: sentence_bleu("the cat", "the cat"),
     TypeError, r"references must be a list"),
    ("references as str (corpus)", lambda: corpus_bleu(["the cat"], "the cat"),
     TypeError, r"references must be a list"),
    ("references[i] as str", lambda: corpus_bleu(["the cat"], ["the cat"]),
     TypeError, r"references\[0\] must be a list"),
    ("int in references", lambda: sentence_bleu("the cat", ["the cat", 3]),
     TypeError, r"references\[1\] must be a str, got int"),
    ("int in a corpus segment's references", lambda: corpus_bleu(["the cat"], [["a", 3]]),
     TypeError, r"references\[0\]\[1\] must be a str"),
    # --- candidates and corpus shape ---
    ("empty corpus", lambda: corpus_bleu([], []),
     ValueError, r"candidates must not be empty"),
    ("candidates but no references", lambda: corpus_bleu(["the cat"], []),
     ValueError, r"references must not be empty"),
    ("more candidates than references", lambda: corpus_bleu(["a", "b"], [OK]),
     ValueError, r"candidates and references must have the same length"),
    ("more references than candidates", lambda: corpus_bleu(["a"], [OK, OK]),
     ValueError, r"candidates and references must have the same length"),
    ("candidates as str", lambda: corpus_bleu("the cat", [OK]),
     TypeError, r"candidates must be a list"),
    ("candidates as str (BleuScorer)", lambda: BleuScorer([OK]).score("the cat"),
     TypeError, r"candidates must be a list"),
    ("None in candidates", lambda: corpus_bleu([None], [OK]),
     TypeError, r"candidates\[0\] must be a str, got NoneType"),
    ("None as the candidate", lambda: sentence_bleu(None, OK),
     TypeError, r"candidate must be a str"),
    # --- max_n ---
    ("max_n=0", bleu(max_n=0), ValueError, r"max_n must be at least 1"),
    ("max_n=-1", corpus(max_n=-1), ValueError, r"max_n must be at least 1"),
    ("max_n=2.5", bleu(max_n=2.5), TypeError, r"max_n must be an int"),
    ("max_n=True", bleu(max_n=True), TypeError, r"max_n must be an int"),
    # --- weights ---
    ("weights wrong length", bleu(weights=(0.5, 0.5)), ValueError, r"weights.*4"),
    ("weights wrong length for max_n=2", bleu(max_n=2, weights=(1 / 3,) * 3),
     ValueError, r"weights.*2"),
    ("weights negative", bleu(weights=(0.5, 0.5, 0.5, -0.5)), ValueError, r"weights.*negative"),
    ("weights all zero", corpus(weights=(0, 0, 0, 0)), ValueError, r"weights.*zero"),
    ("weights NaN", bleu(weights=(float("nan"),) * 4), ValueError, r"weights"),
    ("weights a string", bleu(weights="0.25"), TypeError, r"weights must be a sequence"),
    ("weights a string of length max_n", bleu(weights="abcd"), TypeError, r"weights"),
    ("weights not numbers", bleu(weights=("a",) * 4), TypeError, r"weights must be numbers"),
    # --- tokenizer and smoothing ---
    ("unknown tokenizer", bleu(tokenizer="moses"), ValueError, r"tokenizer must be one of"),
    ("unknown tokenizer (corpus)", corpus(tokenizer="13A"), ValueError, r"tokenizer"),
    ("tokenizer neither name nor callable", bleu(tokenizer=3), TypeError, r"tokenizer"),
    ("tokenizer callable returning str", bleu(tokenizer=str.strip), TypeError,
     r"tokenizer .*must return a list of str"),
    ("unknown smoothing", bleu(smoothing="add-one"), ValueError, r"smoothing must be one of"),
    ("unknown smoothing (corpus)", corpus(smoothing="method8"), ValueError, r"smoothing"),
    ("unknown smoothing (BleuScorer)", lambda: BleuScorer([OK], smoothing="Exp"),
     ValueError, r"smoothing"),
    ("unknown engine (BleuScorer)", lambda: BleuScorer([OK], engine="cython"),
     ValueError, r"engine must be one of auto, python, numpy; got 'cython'"),
    ("smooth_value for a method without one", bleu(smoothing="exp", smooth_value=1),
     ValueError, r"smooth_value"),
    ("smooth_value negative", bleu(smoothing="floor", smooth_value=-1),
     ValueError, r"smooth_value"),
    ("smooth_value NaN (floor)", bleu(smoothing="floor", smooth_value=float("nan")),
     ValueError, r"smooth_value must be finite, got nan"),
    ("smooth_value inf (add-k)", bleu(smoothing="add-k", smooth_value=float("inf")),
     ValueError, r"smooth_value must be finite, got inf"),
    ("smooth_value -inf (corpus)", corpus(smoothing="floor", smooth_value=float("-inf")),
     ValueError, r"smooth_value must be finite"),
    ("smooth_value a string", bleu(smoothing="floor", smooth_value="0.1"),
     TypeError, r"smooth_value must be a number"),
    # --- flags must be bools, not truthy strings ---
    ("lowercase='yes'", bleu(lowercase="yes"), TypeError,
     r"lowercase must be True or False, got 'yes'"),
    ("lowercase=1 (BleuScorer)", lambda: BleuScorer([OK], lowercase=1), TypeError,
     r"lowercase must be True or False"),
    ("effective_order='no'", bleu(effective_order="no"), TypeError,
     r"effective_order must be True or False, got 'no'"),
    ("effective_order=None (corpus)", corpus(effective_order=None), TypeError,
     r"effective_order must be True or False"),
    # --- the pieces ---
    ("closest_ref_length with no references", lambda: closest_ref_length(3, []),
     ValueError, r"ref_lens must not be empty"),
    ("closest_ref_length unknown tie rule", lambda: closest_ref_length(3, [2], tie="longer"),
     ValueError, r"tie"),
    ("references_from_streams with no stream", lambda: references_from_streams(),
     ValueError, r"at least one reference stream"),
    ("references_from_streams of one str", lambda: references_from_streams("abc"),
     TypeError, r"streams\[0\] must be a list of reference strings .*got str"),
    ("references_from_streams(None)", lambda: references_from_streams(None),
     TypeError, r"streams\[0\] must be a list of reference strings .*got NoneType"),
    ("references_from_streams with an int in a stream",
     lambda: references_from_streams(["a"], [3]),
     TypeError, r"streams\[1\]\[0\] must be a str or None, got int"),
    ("references_from_streams of different lengths",
     lambda: references_from_streams(["a"], ["a", "b"]),
     ValueError, r"reference streams must have the same length"),
]


@pytest.mark.parametrize("call, error, message", [row[1:] for row in BAD_INPUT],
                         ids=[row[0] for row in BAD_INPUT])
def test_bad_input_raises(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_the_table_uses_only_value_and_type_errors():
    # ValueError and TypeError are disjoint, so each row pins exactly one of them
    assert {row[2] for row in BAD_INPUT} == {ValueError, TypeError}


# --- not errors ----------------------------------------------------------------------------

@pytest.mark.parametrize("smoothing", ["none", "floor", "add-k", "exp", "method1", "method3"])
def test_empty_candidate_scores_0_with_bp_0(smoothing):
    # c = 0 < r: BP = 0 and there is no n-gram to match (sacrebleu gives the same)
    result = sentence_bleu("", OK, smoothing=smoothing)
    assert result.score == 0.0
    assert result.bp == 0.0
    assert (result.hyp_len, result.ref_len) == (0, 6)
    assert result.matches == result.totals == (0, 0, 0, 0)


def test_empty_candidates_in_a_corpus_are_not_errors():
    result = corpus_bleu(["", "the cat"], [OK, ["the cat"]], tokenizer="none", max_n=2,
                         smoothing="none")
    # hand arithmetic: p1 = 2/2, p2 = 1/1; c = 2, r = 6 + 2 = 8, BP = exp(1 - 8/2) = e^-3
    assert result.matches == (2, 1) and result.totals == (2, 1)
    assert result.score == pytest.approx(2.718281828459045 ** -3, abs=1e-12)


def test_empty_reference_string_is_a_reference_of_length_0():
    result = sentence_bleu("the cat", [""], tokenizer="none", smoothing="none")
    assert (result.hyp_len, result.ref_len, result.bp, result.score) == (2, 0, 1.0, 0.0)


# --- accepted where sacrebleu or NLTK accept them (issue 14, item 7) -----------------------

CAND = "the cat sat on the mat"
REFS = ["the cat is on the mat", "there is a cat on the mat"]


def test_floor_with_smooth_value_0_is_accepted_and_unsmoothed_as_in_sacrebleu():
    import sacrebleu  # a dependency of the package: never skipped
    # no 4-gram matches: the floor of 0 leaves p4 = 0, so BLEU is 0, as without smoothing
    theirs = sacrebleu.metrics.BLEU(smooth_method="floor", smooth_value=0.0, tokenize="none",
                                    effective_order=True).sentence_score(CAND, REFS)
    ours = sentence_bleu(CAND, REFS, tokenizer="none", smoothing="floor", smooth_value=0.0)
    assert ours.score == pytest.approx(theirs.score / 100, abs=1e-12)
    assert ours.score == 0.0
    # with every order matched, floor 0 changes nothing either: (5/6 · 3/5 · 1/4) ** (1/3)
    three = sentence_bleu(CAND, REFS, tokenizer="none", max_n=3, smoothing="floor",
                          smooth_value=0.0)
    assert three.score == pytest.approx((5 / 6 * 3 / 5 * 1 / 4) ** (1 / 3), abs=1e-12)
    assert "smooth:floor[0.00]" in three.signature


def test_add_k_with_smooth_value_0_is_accepted_as_in_sacrebleu():
    import sacrebleu  # a dependency of the package: never skipped
    theirs = sacrebleu.metrics.BLEU(smooth_method="add-k", smooth_value=0, tokenize="none",
                                    max_ngram_order=3).sentence_score(CAND, REFS)
    ours = sentence_bleu(CAND, REFS, tokenizer="none", max_n=3, smoothing="add-k",
                         smooth_value=0)
    assert ours.score == pytest.approx(theirs.score / 100, abs=1e-12)


@pytest.mark.filterwarnings("ignore::UserWarning")  # NLTK on method0's zero 4-gram count
@pytest.mark.parametrize("method", ["method0", "method1", "method3"])
def test_weights_as_a_numpy_array_are_accepted_as_in_nltk(method):
    import nltk.translate.bleu_score as nltk_bleu
    import numpy as np
    weights = np.array([0.4, 0.3, 0.2, 0.1])
    theirs = nltk_bleu.sentence_bleu([r.split() for r in REFS], CAND.split(), weights=weights,
                                     smoothing_function=getattr(nltk_bleu.SmoothingFunction(),
                                                                method))
    ours = sentence_bleu(CAND, REFS, tokenizer="none", smoothing=method, weights=weights)
    assert ours.score == pytest.approx(theirs, rel=1e-12)
    assert ours.score > 0


def test_integer_numpy_weights_are_numbers_too():
    import numpy as np
    ours = sentence_bleu(CAND, REFS, tokenizer="none", max_n=1, weights=np.array([1]))
    assert ours.score == pytest.approx(5 / 6, abs=1e-12)   # p1 = 5/6, BP = 1

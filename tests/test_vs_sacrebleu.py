"""bleu_lesson agrees with sacrebleu, number for number.

sacrebleu is the reference implementation here: every expected value below is computed by
sacrebleu itself (``sacrebleu.sentence_bleu``, ``sacrebleu.corpus_bleu``, ``sacrebleu.BLEU``)
on the same generated text, never copied from bleu_lesson's output.

Scales: sacrebleu reports score and precisions on 0–100, bleu_lesson on 0–1, so we compare
``ours.score`` with ``theirs.score / 100`` (abs 1e-12).

Layouts: sacrebleu takes references as *streams* (``streams[k][i]`` = reference k of segment
i, ``None`` where segment i has fewer references); bleu_lesson takes them per segment
(``references[i]`` = the list of references of segment i). The generated examples are built
per segment and converted to streams here, independently of ``references_from_streams``.

One representational difference is expected and checked explicitly: with ``add-k``
sacrebleu adds k to its *reported* ``counts`` and ``totals`` of orders n ≥ 2 (it smooths them
in place, see ``BLEU.compute_bleu``), while bleu_lesson reports the raw counts.
"""

from __future__ import annotations

import logging

import pytest
import sacrebleu
from hypothesis import given
from hypothesis import strategies as st
from strategies import (
    SACREBLEU_SMOOTHING,
    SACREBLEU_TOKENIZERS,
    candidate_for,
    corpus_examples,
    fast,
    sentence_examples,
)

import bleu_lesson
from bleu_lesson import BleuScorer, corpus_bleu, references_from_streams, sentence_bleu

# sacrebleu warns ("It is recommended to enable `effective_order`…") on purpose-made calls.
logging.getLogger("sacrebleu").setLevel(logging.CRITICAL)

TOKENIZERS = list(SACREBLEU_TOKENIZERS)
SMOOTHINGS = list(SACREBLEU_SMOOTHING)
TOL = 1e-12

FAST = fast(25)


def assert_same(ours, theirs, smoothing: str, smooth_value: float | None = None) -> None:
    """Every number of a bleu_lesson BleuResult equals sacrebleu's BLEUScore."""
    context = f"\nours:   {ours}\ntheirs: {theirs}"
    assert ours.score == pytest.approx(theirs.score / 100, abs=TOL), context
    assert len(ours.precisions) == len(theirs.precisions), context
    for p, q in zip(ours.precisions, theirs.precisions, strict=True):
        assert p == pytest.approx(q / 100, abs=TOL), context
    assert ours.bp == pytest.approx(theirs.bp, abs=TOL), context
    assert ours.hyp_len == theirs.sys_len, context
    assert ours.ref_len == theirs.ref_len, context
    assert ours.ratio == pytest.approx(theirs.ratio, abs=TOL), context
    counts, totals = list(ours.matches), list(ours.totals)
    if smoothing == "add-k" and any(ours.matches):
        # sacrebleu reports its add-k-smoothed counts for orders n >= 2 (see module docstring)
        k = 1 if smooth_value is None else smooth_value
        counts = counts[:1] + [c + k for c in counts[1:]]
        totals = totals[:1] + [t + k for t in totals[1:]]
    assert counts == pytest.approx(list(theirs.counts), abs=TOL), context
    assert totals == pytest.approx(list(theirs.totals), abs=TOL), context


def signature_fields(signature: str) -> dict[str, str]:
    return dict(part.split(":", 1) for part in signature.split("|"))


# --- sentence level -------------------------------------------------------------------------

@pytest.mark.parametrize("smoothing", SMOOTHINGS)
@pytest.mark.parametrize("tokenizer", TOKENIZERS)
@FAST
@given(example=sentence_examples())
def test_sentence_bleu_equals_sacrebleu(tokenizer, smoothing, example):
    cand, refs = example
    for lowercase in (False, True):
        for eff in (True, False):
            theirs = sacrebleu.sentence_bleu(cand, refs, smooth_method=smoothing,
                                             lowercase=lowercase, tokenize=tokenizer,
                                             use_effective_order=eff)
            ours = sentence_bleu(cand, refs, tokenizer=tokenizer, lowercase=lowercase,
                                 smoothing=smoothing, effective_order=eff)
            assert_same(ours, theirs, smoothing)


@pytest.mark.parametrize("smoothing", ["floor", "add-k"])
@FAST
@given(example=sentence_examples(),
       value=st.sampled_from([0.01, 0.1, 0.5, 1, 2, 3.5]),
       tokenizer=st.sampled_from(TOKENIZERS), eff=st.booleans())
def test_sentence_smooth_value_equals_sacrebleu(smoothing, example, value, tokenizer, eff):
    cand, refs = example
    theirs = sacrebleu.sentence_bleu(cand, refs, smooth_method=smoothing, smooth_value=value,
                                     tokenize=tokenizer, use_effective_order=eff)
    ours = sentence_bleu(cand, refs, tokenizer=tokenizer, smoothing=smoothing,
                         smooth_value=value, effective_order=eff)
    assert_same(ours, theirs, smoothing, value)


@pytest.mark.parametrize("max_n", [1, 2, 3, 5, 6])
@FAST
@given(example=sentence_examples(), smoothing=st.sampled_from(SMOOTHINGS), eff=st.booleans())
def test_max_n_equals_sacrebleu_max_ngram_order(max_n, example, smoothing, eff):
    cand, refs = example
    theirs = sacrebleu.BLEU(smooth_method=smoothing, max_ngram_order=max_n,
                            effective_order=eff).sentence_score(cand, refs)
    ours = sentence_bleu(cand, refs, max_n=max_n, smoothing=smoothing, effective_order=eff)
    assert_same(ours, theirs, smoothing)


# --- corpus level ---------------------------------------------------------------------------

@pytest.mark.parametrize("smoothing", SMOOTHINGS)
@pytest.mark.parametrize("tokenizer", TOKENIZERS)
@FAST
@given(data=st.data())
def test_corpus_bleu_equals_sacrebleu(tokenizer, smoothing, data):
    cands, per_segment, streams = data.draw(corpus_examples(varying=data.draw(st.booleans())))
    for lowercase in (False, True):
        for eff in (False, True):
            theirs = sacrebleu.corpus_bleu(cands, streams, smooth_method=smoothing,
                                           lowercase=lowercase, tokenize=tokenizer,
                                           use_effective_order=eff)
            kwargs = {"effective_order": True} if eff else {}  # corpus default is False
            ours = corpus_bleu(cands, per_segment, tokenizer=tokenizer, lowercase=lowercase,
                               smoothing=smoothing, **kwargs)
            assert_same(ours, theirs, smoothing)


@pytest.mark.parametrize("smoothing", ["floor", "add-k"])
@FAST
@given(data=st.data(), value=st.sampled_from([0.01, 0.1, 0.5, 1, 2, 3.5]),
       tokenizer=st.sampled_from(TOKENIZERS))
def test_corpus_smooth_value_equals_sacrebleu(smoothing, data, value, tokenizer):
    cands, per_segment, streams = data.draw(corpus_examples(varying=True))
    theirs = sacrebleu.corpus_bleu(cands, streams, smooth_method=smoothing, smooth_value=value,
                                   tokenize=tokenizer)
    ours = corpus_bleu(cands, per_segment, tokenizer=tokenizer, smoothing=smoothing,
                       smooth_value=value)
    assert_same(ours, theirs, smoothing, value)


@FAST
@given(data=st.data())
def test_references_from_streams_is_sacrebleus_layout(data):
    cands, per_segment, streams = data.draw(corpus_examples(varying=True))
    assert references_from_streams(*streams) == per_segment
    theirs = sacrebleu.corpus_bleu(cands, streams)
    assert_same(corpus_bleu(cands, references_from_streams(*streams)), theirs, "exp")


@FAST
@given(data=st.data(), tokenizer=st.sampled_from(TOKENIZERS),
       smoothing=st.sampled_from(SMOOTHINGS))
def test_cached_scorer_equals_sacrebleu_cached_references(data, tokenizer, smoothing):
    """Several systems against one cached test set: BleuScorer vs BLEU(references=…)."""
    cands, per_segment, streams = data.draw(corpus_examples(varying=True))
    other = [data.draw(candidate_for(refs)) for refs in per_segment]
    metric = sacrebleu.BLEU(tokenize=tokenizer, smooth_method=smoothing, references=streams)
    scorer = BleuScorer(per_segment, tokenizer=tokenizer, smoothing=smoothing)
    for system in (cands, other, cands):
        assert_same(scorer.score(system), metric.corpus_score(system, None), smoothing)


# --- printing and signature -----------------------------------------------------------------

SEED_REFS = ["The cat is sitting on the mat", "A cat is on the mat", "The cat lies on the mat"]
PAPINENI_REFS = [
    "It is a guide to action that ensures that the military will forever heed Party commands.",
    "It is the guiding principle which guarantees the military forces always being under the "
    "command of the Party.",
    "It is the practical guide for the army always to heed the directions of the party.",
]
PAPINENI_CAND1 = ("It is a guide to action which ensures that the military always obeys the "
                  "commands of the party.")
PAPINENI_CAND2 = ("It is to insure the troops forever hearing the activity guidebook that party "
                  "direct.")

TYPICAL_SENTENCES = [
    ("The cat is on the mat", SEED_REFS, {}),
    ("The cat is on the mat", SEED_REFS, {"lowercase": True, "smoothing": "none"}),
    ("the the the the the the the", ["The cat is on the mat.", "There is a cat on the mat."], {}),
    (PAPINENI_CAND1, PAPINENI_REFS, {}),
    (PAPINENI_CAND2, PAPINENI_REFS, {"smoothing": "floor"}),
    (PAPINENI_CAND2, PAPINENI_REFS, {"smoothing": "add-k"}),
    ("猫坐在垫子上。", ["一只猫坐在垫子上。", "猫在垫子上。"], {"tokenizer": "zh"}),
    ("猫坐在垫子上。", ["一只猫坐在垫子上。"], {"tokenizer": "char"}),
    ("Hello, world!", ["Hello world!"], {"tokenizer": "intl"}),
    ("", ["The cat is on the mat."], {}),
]


def _sacre_kwargs(kwargs: dict) -> dict:
    return {"smooth_method": kwargs.get("smoothing", "exp"),
            "lowercase": kwargs.get("lowercase", False),
            "tokenize": kwargs.get("tokenizer", "13a")}


@pytest.mark.parametrize("cand, refs, kwargs", TYPICAL_SENTENCES)
def test_str_is_sacrebleus_line_for_sentences(cand, refs, kwargs):
    theirs = sacrebleu.sentence_bleu(cand, refs, **_sacre_kwargs(kwargs))
    assert str(sentence_bleu(cand, refs, **kwargs)) == str(theirs)


@pytest.mark.parametrize("smoothing", SMOOTHINGS)
def test_str_is_sacrebleus_line_for_a_corpus(smoothing):
    cands = ["The cat is on the mat", PAPINENI_CAND1, PAPINENI_CAND2, "猫坐在垫子上。"]
    per_segment = [SEED_REFS, PAPINENI_REFS, PAPINENI_REFS[:2], ["一只猫坐在垫子上。"]]
    streams = [[refs[k] if k < len(refs) else None for refs in per_segment] for k in range(3)]
    theirs = sacrebleu.corpus_bleu(cands, streams, smooth_method=smoothing)
    ours = corpus_bleu(cands, per_segment, smoothing=smoothing)
    assert str(ours) == str(theirs)


def test_str_rounds_precisions_like_sacrebleu():
    # 100 * (23 / 80) is 28.749999999999996 in floating point; sacrebleu computes
    # 100. * 23 / 80 == 28.75 and prints 28.8: ours must print the same. 23/80 is the
    # smallest total where the two roundings differed (found by scanning t = 1 … 300).
    cand, ref = "a " * 23 + "x " * 57, "a " * 23
    theirs = sacrebleu.corpus_bleu([cand], [[ref]])
    assert theirs.prec_str.startswith("28.8/")       # 100. * 23 / 80 == 28.75 exactly
    assert str(corpus_bleu([cand], [[ref]])) == str(theirs)


SIGNATURE_CASES = [
    {"tokenizer": t, "lowercase": lc, "smoothing": s, "effective_order": eff}
    for t in TOKENIZERS for s in SMOOTHINGS for lc in (False, True) for eff in (False, True)
] + [
    {"smoothing": "floor", "smooth_value": 0.05},
    {"smoothing": "add-k", "smooth_value": 2},
]


@pytest.mark.parametrize("options", SIGNATURE_CASES,
                         ids=lambda o: "-".join(f"{v}" for v in o.values()))
@pytest.mark.parametrize("layout", ["one-ref", "two-refs", "varying"])
def test_signature_fields_equal_sacrebleus(options, layout):
    cands = ["The cat is on the mat.", "There is a cat."]
    streams = {
        "one-ref": [["The cat sat on the mat.", "A cat is there."]],
        "two-refs": [["The cat sat on the mat.", "A cat is there."],
                     ["The cat is on the mat.", "There is a cat."]],
        "varying": [["The cat sat on the mat.", "A cat is there."],
                    ["The cat is on the mat.", None]],
    }[layout]
    metric = sacrebleu.BLEU(tokenize=options.get("tokenizer", "13a"),
                            lowercase=options.get("lowercase", False),
                            smooth_method=options["smoothing"],
                            smooth_value=options.get("smooth_value"),
                            effective_order=options.get("effective_order", False))
    metric.corpus_score(cands, streams)
    theirs = metric.get_signature().format()
    ours = corpus_bleu(cands, references_from_streams(*streams), **options).signature
    mine, other = signature_fields(ours), signature_fields(theirs)
    assert list(mine) == list(other), (ours, theirs)           # same fields, same order
    assert {k: v for k, v in mine.items() if k != "version"} == \
        {k: v for k, v in other.items() if k != "version"}, (ours, theirs)
    assert mine["version"] == f"bleu_lesson-{bleu_lesson.__version__}"


@pytest.mark.parametrize("eff", [True, False])
def test_sentence_signature_equals_sacrebleus(eff):
    refs = ["The cat sat on the mat.", "A cat is on the mat."]
    metric = sacrebleu.BLEU(effective_order=eff)
    metric.sentence_score("The cat is on the mat.", refs)
    theirs = signature_fields(metric.get_signature().format())
    ours = signature_fields(sentence_bleu("The cat is on the mat.", refs,
                                          effective_order=eff).signature)
    theirs.pop("version")
    ours.pop("version")
    assert ours == theirs

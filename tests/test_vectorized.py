"""The numpy engine counts exactly what the standard-library engine counts.

``bleu_lesson.core.engines.numpy`` (``ReferenceIndex`` behind ``NumpyEngine``) is checked against
``engines.python.PythonEngine`` (which counts with the chapters' ``clipped_counts``) and against
``clipped_counts`` itself on generated corpora with repeats, empty segments, unknown tokens and
1-4 references; ``BleuScorer(engine="numpy")`` against ``engine="python"`` for every tokenizer;
and both engines on every WMT22 system.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import SACREBLEU_TOKENIZERS, engine_corpora, fast

from bleu_lesson import BleuScorer, clipped_counts
from bleu_lesson.core import engines
from bleu_lesson.core.engines.python import PythonEngine
from bleu_lesson.data import datasets

np = pytest.importorskip("numpy")
from bleu_lesson.core.engines.numpy import NumpyEngine, ReferenceIndex  # noqa: E402

SETTINGS = fast(150)


@SETTINGS
@given(engine_corpora(), st.integers(1, 12))
def test_numpy_engine_counts_what_the_python_engine_counts(corpus, order):
    refs, cands = corpus
    assert NumpyEngine(refs, order).count(cands) == PythonEngine(refs, order).count(cands)


@SETTINGS
@given(engine_corpora(), st.integers(1, 4))
def test_reference_index_counts_are_the_chapters_clipped_counts(corpus, max_n):
    refs, cands = corpus
    lengths, matches = ReferenceIndex(refs, max_n).count(cands)
    assert lengths.tolist() == [len(c) for c in cands]
    for i, (segment, cand) in enumerate(zip(refs, cands, strict=True)):
        want = [clipped_counts(cand, segment, n)[0] for n in range(1, max_n + 1)]
        assert matches[i].tolist() == want


def test_hand_counted_example():
    # segment 1: refs "the cat the" and "the the the"; candidate "the the the the cat":
    # the: min(4, 3) = 3, cat: 1 -> 4; "the the": min(3, 2) = 2, "the cat": 1 -> 3;
    # "the the the": min(2, 1) = 1, "the the cat": 0 -> 1; no 4-gram of the refs -> 0
    # segment 2: ref "a b", candidate "b a": b, a -> 2; "b a" -> 0
    index = ReferenceIndex([[["the", "cat", "the"], ["the", "the", "the"]], [["a", "b"]]], 4)
    lengths, matches = index.count([["the"] * 4 + ["cat"], ["b", "a"]])
    assert lengths.tolist() == [5, 2]
    assert matches.tolist() == [[4, 3, 1, 0], [2, 0, 0, 0]]


def test_empty_segments_and_empty_references():
    index = ReferenceIndex([[[]], [["a"]], [[], ["a", "a"]]], 2)
    lengths, matches = index.count([["a"], [], ["a", "a", "a"]])
    assert lengths.tolist() == [1, 0, 3]
    assert matches.tolist() == [[0, 0], [0, 0], [2, 1]]  # a: min(3, 2); "a a": min(2, 1)
    empty = ReferenceIndex([[[]], [[]]], 4)
    assert empty.count([["a"], []])[1].tolist() == [[0] * 4, [0] * 4]


def test_count_needs_one_candidate_per_segment():
    with pytest.raises(ValueError, match="one entry per segment: 1 candidates, 2 segments"):
        ReferenceIndex([[["a"]], [["b"]]], 2).count([["a"]])


@pytest.mark.parametrize("engine", ["python", "numpy"])
@pytest.mark.parametrize("n_given", [1, 3])
def test_both_engines_need_one_candidate_per_segment_even_lazily(engine, n_given):
    counter = engines.make_engine(engine, [[["a"]], [["b"]]], 2)
    lazy = iter([["a"]] * n_given)  # the scorer hands over a map: no len() to check first
    with pytest.raises(ValueError, match=f"one entry per segment: {n_given} candidates, 2 segm"):
        counter.count(lazy)


# --- the scorer's engines --------------------------------------------------------------

TEXT_WORDS = st.sampled_from(["the", "The", "cat", "mat.", "on", ",", "U.S.", "猫", "坐在",
                              "垫子上。", "it's", "3.14"])
texts = st.lists(TEXT_WORDS, max_size=10).map(" ".join)


@st.composite
def text_corpora(draw):
    n_segments = draw(st.integers(1, 5))
    refs = [draw(st.lists(texts, min_size=1, max_size=3)) for _ in range(n_segments)]
    cands = [draw(texts) for _ in range(n_segments)]
    return refs, cands


@fast(40)
@given(text_corpora(), st.sampled_from(SACREBLEU_TOKENIZERS), st.booleans(),
       st.sampled_from(["shorter", "first"]))
def test_both_engines_give_the_same_statistics(corpus, tokenizer, lowercase, tie):
    refs, cands = corpus
    options = dict(tokenizer=tokenizer, lowercase=lowercase, tie=tie)
    python = BleuScorer(refs, engine="python", **options)
    vector = BleuScorer(refs, engine="numpy", **options)
    assert (python.engine, vector.engine) == ("python", "numpy")
    assert vector.segment_stats(cands) == python.segment_stats(cands)
    assert vector.corpus_stats(cands) == python.corpus_stats(cands)
    assert vector.score(cands) == python.score(cands)


def test_auto_engine_vectorizes_test_set_sized_corpora():
    small = [["the cat"]] * (engines.VECTORIZE_FROM - 1)
    assert BleuScorer(small).engine == "python"
    assert BleuScorer(small + [["a dog"]]).engine == "numpy"


def test_auto_engine_without_numpy_uses_the_standard_library(monkeypatch):
    monkeypatch.setattr(engines, "_numpy_available", lambda: False)
    refs = [["the cat"]] * engines.VECTORIZE_FROM
    assert BleuScorer(refs).engine == "python"
    with pytest.raises(ImportError, match='engine="numpy" needs numpy'):
        BleuScorer(refs, engine="numpy")


@pytest.mark.parametrize("engine", ["python", "numpy"])
def test_both_engines_score_a_system_again_from_the_one_memo(engine):
    scorer = BleuScorer([["the cat sat"], ["a dog"]], engine=engine, tokenizer="none")
    first = scorer.score(["the cat", "a dog"])
    calls = []
    real = scorer._engine.count
    scorer._engine.count = lambda cands: calls.append(1) or real(cands)
    assert scorer.score(["the cat", "a dog"]) == first   # from the memo: not counted again
    assert calls == []
    other = scorer.score(["the cat sat", "a dog"])       # another system is counted
    assert calls == [1] and other.matches[0] == 5        # hand count: 3 + 2 unigrams


def test_the_memo_keeps_the_most_recent_systems(monkeypatch):
    from bleu_lesson.core import bleu

    monkeypatch.setattr(bleu, "MEMO_SYSTEMS", 2)
    scorer = BleuScorer([["the cat sat"]], engine="python", tokenizer="none")
    calls = []
    real = scorer._engine.count
    def counting(cands):
        cands = list(cands)  # the scorer may hand over a lazy map of the tokenizer
        calls.append(cands[0])
        return real(cands)

    scorer._engine.count = counting
    for system in (["a"], ["b"], ["a"], ["c"], ["b"], ["a"]):
        scorer.segment_stats(system)
    # a, b counted; a from the memo (now most recent); c evicts b; b evicts a; a again
    assert calls == [["a"], ["b"], ["c"], ["b"], ["a"]]


# --- real data ---------------------------------------------------------------------------

@pytest.mark.wmt22
@pytest.mark.parametrize("pair", datasets.WMT22_PAIRS)
def test_both_engines_agree_on_every_wmt22_system(wmt22_dir, pair):
    data = datasets.load_wmt22(pair, wmt22_dir, download=False)
    refs = data.references_for("both")
    python = BleuScorer(refs, tokenizer=data.tokenizer, engine="python")
    vector = BleuScorer(refs, tokenizer=data.tokenizer, engine="numpy")
    for name, hyps in data.systems.items():
        assert vector.segment_stats(list(hyps)) == python.segment_stats(list(hyps)), name

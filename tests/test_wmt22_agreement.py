"""Corpus BLEU on real data agrees with sacrebleu: WMT22 zh-en and en-zh, every system.

For each pair (tokenizer 13a for English, zh for Chinese) and each choice of references
(A, B, both), ``bleu_lesson.corpus_bleu`` must give sacrebleu's score, precisions, brevity
penalty and lengths: the score to 1e-12 (sacrebleu reports 0–100, we report 0–1), the counts
exactly. The references are tokenized and counted once per (pair, references), by one
``BleuScorer`` and one ``sacrebleu.BLEU``, and reused for every system.
"""

from __future__ import annotations

import pytest

import bleu_lesson
from bleu_lesson.data import datasets

pytestmark = pytest.mark.wmt22

sacrebleu = pytest.importorskip("sacrebleu")

# parametrized from the shipped manifest, so the test ids exist without the data
MANIFEST = datasets._manifest()
CASES = [(pair, which, system)
         for pair in datasets.WMT22_PAIRS
         for which in ("A", "B", "both")
         for system in MANIFEST["pairs"][pair]["systems"]]


@pytest.fixture(scope="module")
def wmt22(wmt22_dir):
    """pair -> WMT22, loaded once (from the folder only: nothing downloads)."""
    return {pair: datasets.load_wmt22(pair, wmt22_dir, download=False)
            for pair in datasets.WMT22_PAIRS}


@pytest.fixture(scope="module")
def scorers(wmt22):
    """(pair, which) -> (our scorer, sacrebleu's BLEU with the references cached).

    The three BLEU objects of a pair share one sacrebleu tokenizer object: its own lru_cache
    (keyed by tokenizer object and line) then tokenizes each system's lines once, not once
    per reference set. The tokenizer is the same class with the same (no) state, so every
    figure is sacrebleu's own."""
    cache = {}
    tokenizers = {}

    def get(pair, which):
        if (pair, which) not in cache:
            data = wmt22[pair]
            ours = bleu_lesson.BleuScorer(data.references_for(which), tokenizer=data.tokenizer)
            theirs = sacrebleu.BLEU(tokenize=data.tokenizer,
                                    references=data.reference_streams(which))
            shared = tokenizers.setdefault(pair, theirs.tokenizer)
            assert type(shared) is type(theirs.tokenizer)
            theirs.tokenizer = shared
            cache[pair, which] = ours, theirs
        return cache[pair, which]

    return get


@pytest.mark.parametrize(("pair", "which", "system"), CASES)
def test_corpus_bleu_equals_sacrebleu(wmt22, scorers, pair, which, system):
    data = wmt22[pair]
    hyps = list(data.systems[system])
    ours, theirs = scorers(pair, which)
    got = ours.score(hyps)
    want = theirs.corpus_score(hyps, None)
    assert got.score == pytest.approx(want.score / 100, abs=1e-12)
    assert list(got.matches) == want.counts
    assert list(got.totals) == want.totals
    assert got.precisions == pytest.approx([p / 100 for p in want.precisions], abs=1e-12)
    assert got.bp == pytest.approx(want.bp, abs=1e-12)
    assert (got.hyp_len, got.ref_len) == (want.sys_len, want.ref_len)
    assert 0 < got.score < 1


@pytest.mark.parametrize("pair", datasets.WMT22_PAIRS)
def test_corpus_bleu_function_equals_sacrebleu_function(wmt22, pair):
    """The plain functions, as a chapter calls them, on one system per pair."""
    data, which = wmt22[pair], "both"
    hyps = list(data.systems["Online-B"])
    got = bleu_lesson.corpus_bleu(hyps, data.references_for(which), tokenizer=data.tokenizer)
    want = sacrebleu.corpus_bleu(hyps, data.reference_streams(which), tokenize=data.tokenizer)
    assert got.score == pytest.approx(want.score / 100, abs=1e-12)
    assert list(got.matches) == want.counts and list(got.totals) == want.totals
    assert (got.hyp_len, got.ref_len) == (want.sys_len, want.ref_len)

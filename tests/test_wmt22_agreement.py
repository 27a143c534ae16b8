"""Corpus BLEU on real data agrees with sacrebleu: WMT22 zh-en and en-zh, every system.

For each pair (tokenizer 13a for English, zh for Chinese) and each choice of references
(A, B, both), ``bleu_lesson.corpus_bleu`` must give sacrebleu's score, precisions, brevity
penalty and lengths: the score to 1e-12 (sacrebleu reports 0–100, we report 0–1), the counts
exactly. The references are tokenized and counted once per (pair, references), by one
``BleuScorer`` and one ``sacrebleu.BLEU``, and reused for every system; sacrebleu's figures
are remembered between runs for the same lines and version (the ``oracle`` fixture).
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
    """pair -> WMT22, each pair loaded once, when first asked for (from the folder only:
    nothing downloads); a worker that runs one pair's tests loads only that pair."""
    loaded = {}

    def get(pair):
        if pair not in loaded:
            loaded[pair] = datasets.load_wmt22(pair, wmt22_dir, download=False)
        return loaded[pair]

    return get


@pytest.fixture(scope="module")
def ours(wmt22):
    """(pair, which) -> our scorer, the references tokenized and counted once."""
    cache = {}

    def get(pair, which):
        if (pair, which) not in cache:
            data = wmt22(pair)
            cache[pair, which] = bleu_lesson.BleuScorer(data.references_for(which),
                                                        tokenizer=data.tokenizer)
        return cache[pair, which]

    return get


@pytest.fixture(scope="module")
def theirs(wmt22, oracle):
    """(pair, which, system) -> sacrebleu's figures for that system, as a dict.

    sacrebleu's BLEU is made with the references cached, once per (pair, which), when a
    figure is first computed; the three BLEU objects of a pair share one sacrebleu tokenizer
    object: its own lru_cache (keyed by tokenizer object and line) then tokenizes each
    system's lines once, not once per reference set. The tokenizer is the same class with
    the same (no) state, so every figure is sacrebleu's own. The figures are remembered by
    the ``oracle`` fixture, keyed by sacrebleu's version and the very lines scored."""
    metrics = {}
    tokenizers = {}

    def metric(pair, which):
        if (pair, which) not in metrics:
            data = wmt22(pair)
            bleu = sacrebleu.BLEU(tokenize=data.tokenizer,
                                  references=data.reference_streams(which))
            shared = tokenizers.setdefault(pair, bleu.tokenizer)
            assert type(shared) is type(bleu.tokenizer)
            bleu.tokenizer = shared
            metrics[pair, which] = bleu
        return metrics[pair, which]

    def get(pair, which, system):
        data = wmt22(pair)
        hyps = list(data.systems[system])

        def compute():
            s = metric(pair, which).corpus_score(hyps, None)
            return {"score": s.score, "counts": s.counts, "totals": s.totals,
                    "precisions": s.precisions, "bp": s.bp, "sys_len": s.sys_len,
                    "ref_len": s.ref_len}

        inputs = ["BLEU", data.tokenizer, data.reference_streams(which), hyps]
        return oracle("sacrebleu", inputs, compute)

    return get


@pytest.mark.parametrize(("pair", "which", "system"), CASES)
def test_corpus_bleu_equals_sacrebleu(wmt22, ours, theirs, pair, which, system):
    hyps = list(wmt22(pair).systems[system])
    got = ours(pair, which).score(hyps)
    want = theirs(pair, which, system)
    assert got.score == pytest.approx(want["score"] / 100, abs=1e-12)
    assert list(got.matches) == want["counts"]
    assert list(got.totals) == want["totals"]
    assert got.precisions == pytest.approx([p / 100 for p in want["precisions"]], abs=1e-12)
    assert got.bp == pytest.approx(want["bp"], abs=1e-12)
    assert (got.hyp_len, got.ref_len) == (want["sys_len"], want["ref_len"])
    assert 0 < got.score < 1


@pytest.mark.parametrize("pair", datasets.WMT22_PAIRS)
def test_corpus_bleu_function_equals_sacrebleu_function(wmt22, pair):
    """The plain functions, as a chapter calls them, on one system per pair."""
    data, which = wmt22(pair), "both"
    hyps = list(data.systems["Online-B"])
    got = bleu_lesson.corpus_bleu(hyps, data.references_for(which), tokenizer=data.tokenizer)
    want = sacrebleu.corpus_bleu(hyps, data.reference_streams(which), tokenize=data.tokenizer)
    assert got.score == pytest.approx(want.score / 100, abs=1e-12)
    assert list(got.matches) == want.counts and list(got.totals) == want.totals
    assert (got.hyp_len, got.ref_len) == (want.sys_len, want.ref_len)

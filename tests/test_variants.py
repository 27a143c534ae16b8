"""Each tool preset against the tool itself where it is installed (sacrebleu, NLTK, the
seed's own code), and against the tool's stated rules otherwise (d2l, Hugging Face)."""

from __future__ import annotations

import collections
import logging
import math
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_lesson.analysis import variants
from bleu_lesson.data.datasets import (
    PAPINENI_GUIDE_1,
    PAPINENI_GUIDE_REFERENCES,
    SEED_CANDIDATE,
    SEED_REFERENCE,
    SEED_REFERENCES,
)

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

WORDS = ["the", "The", "cat", "mat.", "mat", "on", "is", ",", "a", "A", "sat"]
sentences = st.lists(st.sampled_from(WORDS), min_size=0, max_size=9).map(" ".join)
nonempty = st.lists(st.sampled_from(WORDS), min_size=1, max_size=9).map(" ".join)
reference_lists = st.lists(sentences, min_size=1, max_size=4)
EXAMPLES = [(SEED_CANDIDATE, SEED_REFERENCE), (SEED_CANDIDATE, SEED_REFERENCES),
            (PAPINENI_GUIDE_1, PAPINENI_GUIDE_REFERENCES)]


# --- the real tools ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def seed_code():
    from notebook_tools import seed_skip_reason
    from seed_oracle import SeedNotFound, load_seed_namespace

    try:
        return load_seed_namespace()[0]
    except SeedNotFound as exc:
        pytest.skip(seed_skip_reason(exc))


@settings(max_examples=200, deadline=None)
@given(candidate=sentences, references=reference_lists)
def test_seed_preset_is_the_seeds_code(seed_code, candidate, references):
    want = seed_code["compute_bleu"](candidate, references)[0]
    assert variants.score("seed", candidate, references) == pytest.approx(want, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(candidate=sentences, references=reference_lists)
def test_sacrebleu_preset_is_sacrebleu_sentence_bleu(candidate, references):
    sacrebleu = pytest.importorskip("sacrebleu")
    want = sacrebleu.sentence_bleu(candidate, references).score / 100
    assert variants.score("sacrebleu", candidate, references) == pytest.approx(want, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(candidate=sentences, references=reference_lists)
def test_nltk_preset_is_nltk_sentence_bleu(candidate, references):
    bleu_score = pytest.importorskip("nltk.translate.bleu_score")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # method0's "0 counts of n-gram overlaps"
        want = bleu_score.sentence_bleu([r.split() for r in references], candidate.split())
    got = variants.score("nltk", candidate, references)
    assert got == pytest.approx(want, rel=1e-9, abs=1e-300)


# --- the stated rules of the tools that are not installed --------------------------------

def d2l_rules(pred: str, label: str, k: int = 2, book: str = "zh") -> float:
    """d2l's bleu as its published code reads: split on ' ', BP exp(min(0, 1 - r/c)), order n
    weighted 1/2^n, clipped matches against one reference; d2l-zh loops over orders
    1..k (0/0 when c < k), d2l-en over 1..min(k, c)."""
    pred_tokens, label_tokens = pred.split(" "), label.split(" ")
    c, r = len(pred_tokens), len(label_tokens)
    score = math.exp(min(0, 1 - r / c))
    for n in range(1, (k if book == "zh" else min(k, c)) + 1):
        ref = collections.Counter(tuple(label_tokens[i:i + n]) for i in range(r - n + 1))
        hyp = collections.Counter(tuple(pred_tokens[i:i + n]) for i in range(c - n + 1))
        matches = sum((hyp & ref).values())
        score *= (matches / (c - n + 1)) ** (0.5 ** n)  # ZeroDivisionError when c = n - 1
    return score


def hf_rules(candidate: str, references: list[str]) -> float:
    """evaluate's bleu as documented: 13a tokens, clipping against the max over references,
    BP against the shortest reference, no smoothing (any zero precision gives 0)."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tok = Tokenizer13a()
    hyp = tok(candidate).split()
    refs = [tok(r).split() for r in references]
    precisions = []
    for n in range(1, 5):
        h = collections.Counter(tuple(hyp[i:i + n]) for i in range(len(hyp) - n + 1))
        best = collections.Counter()
        for ref in refs:
            best |= collections.Counter(tuple(ref[i:i + n]) for i in range(len(ref) - n + 1))
        total = max(len(hyp) - n + 1, 0)
        precisions.append(sum((h & best).values()) / total if total else 0.0)
    if min(precisions) == 0:
        return 0.0
    ratio = len(hyp) / min(len(r) for r in refs)
    bp = 1.0 if ratio > 1 else math.exp(1 - 1 / ratio)
    return bp * math.exp(sum(math.log(p) for p in precisions) / 4)


@settings(max_examples=200, deadline=None)
@given(candidate=nonempty, references=st.lists(nonempty, min_size=1, max_size=3))
def test_d2l_preset_follows_d2ls_rules(candidate, references):
    try:
        want = d2l_rules(candidate, references[0])
    except ZeroDivisionError:
        with pytest.raises(ZeroDivisionError, match="fewer than k = 2"):
            variants.score("d2l", candidate, references)
    else:
        assert variants.score("d2l", candidate, references) == pytest.approx(want, abs=1e-12)
    want_en = d2l_rules(candidate, references[0], book="en")
    assert variants.score("d2l-en", candidate, references) == pytest.approx(want_en, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(candidate=nonempty, references=st.lists(nonempty, min_size=1, max_size=3))
def test_hf_preset_follows_evaluates_rules(candidate, references):
    want = hf_rules(candidate, references)
    assert variants.score("hf", candidate, references) == pytest.approx(want, abs=1e-12)


def test_hand_computed_values():
    # seed, three references: p = 6/6, 5/5, 4/4, 2/3; BP 1 -> (2/3) ** (1/4)
    assert variants.score("seed", SEED_CANDIDATE, SEED_REFERENCES) == pytest.approx(
        (2 / 3) ** 0.25)
    # d2l (k = 2), first reference "The cat is sitting on the mat" (7 tokens, c = 6):
    # BP exp(1 - 7/6), p1 = 6/6, p2 = 4/5 -> exp(-1/6) * 1 ** (1/2) * 0.8 ** (1/4) = 0.8006
    assert variants.score("d2l", SEED_CANDIDATE, SEED_REFERENCES) == pytest.approx(
        math.exp(-1 / 6) * 0.8 ** 0.25)
    assert round(variants.score("d2l", SEED_CANDIDATE, SEED_REFERENCES), 4) == 0.8006
    # "The" vs "The cat sat", k = 2: d2l-zh computes 0/0 for order 2; d2l-en skips order 2:
    # BP exp(1 - 3/1), p1 = 1
    with pytest.raises(ZeroDivisionError, match="fewer than k = 2"):
        variants.score("d2l", "The", ["The cat sat"])
    assert variants.score("d2l-en", "The", ["The cat sat"]) == pytest.approx(math.exp(-2))
    # hf: "The cat is on the mat" vs refs of 7 and 6 tokens: shortest r = 6 = c, BP 1;
    # p = 6/6, 5/5, 4/4, 2/3 as for the seed -> 0.9036
    assert variants.score("hf", SEED_CANDIDATE, SEED_REFERENCES[:2]) == pytest.approx(
        (2 / 3) ** 0.25)
    # hf uses the shortest reference even when a longer one is as close:
    # c = 6, refs of 7 and 5 tokens -> r = 5 < c, BP 1; sacrebleu also takes 5 (tie)
    long_ref, short_ref = "The cat is sitting on the mat", "The cat on mat ."
    assert variants.result("hf", SEED_CANDIDATE, [long_ref, short_ref]).ref_len == 5


@pytest.mark.parametrize("candidate,references", EXAMPLES)
def test_every_preset_runs_on_the_running_examples(candidate, references):
    for name in variants.VARIANTS:
        assert 0.0 <= variants.score(name, candidate, references) <= 1.0


def test_unknown_preset():
    with pytest.raises(ValueError, match="name must name a variant, one of"):
        variants.score("moses", "a", ["a"])


def test_nltk_smoothing_with_effective_order_ticked_is_no_tools_rules():
    """NLTK has no effective order: with it ticked, the explorer must not say "exactly nltk"
    (chapter 08 used to), even though NLTK's methods ignore the knob and the score agrees."""
    from bleu_lesson.analysis.variants import VARIANTS, knobs_of, matching_tools

    knobs = knobs_of(VARIANTS["nltk"])
    assert "nltk" in matching_tools(knobs)
    assert "nltk" not in matching_tools({**knobs, "effective order": True})

"""The one home of the Hypothesis strategies the test files share.

Two kinds of data:

- *text* (``segments``, ``candidate_for``, ``sentence_examples``, ``corpus_examples``):
  strings with mixed case, attached and detached punctuation, numbers, HTML entities,
  accents, Chinese words and punctuation, and stray whitespace, for tools that tokenize
  (sacrebleu, the library's tokenizers);
- *tokens* (``token_lists``, ``token_candidate_for``, ``token_sentence_examples``,
  ``token_corpus_examples``): lists of whitespace-free tokens, for tools that take token
  lists (NLTK, the engines).

A candidate is either unrelated text or a reference with a slice replaced, so long
n-grams match often. The smoothing methods come from the library's registry, so a new
method is tested without editing the tests.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from bleu_lesson.core.smoothing import SMOOTHING

__all__ = [
    "SACREBLEU_TOKENIZERS", "SACREBLEU_SMOOTHING", "NLTK_SMOOTHING", "ALL_SMOOTHING",
    "BOUNDED_SMOOTHING", "fast", "WORDS", "words", "segments", "candidate_for",
    "sentence_examples", "corpus_examples", "TOKENS", "token_lists", "token_candidate_for",
    "token_sentence_examples", "token_corpus_examples", "engine_corpora",
]

#: The tokenizers sacrebleu has too (the library may have more, e.g. "jieba").
SACREBLEU_TOKENIZERS = ("none", "13a", "intl", "zh", "char")
SACREBLEU_SMOOTHING = tuple(n for n, m in SMOOTHING.items() if m.family == "sacrebleu")
NLTK_SMOOTHING = tuple(n for n, m in SMOOTHING.items() if m.family == "nltk")
ALL_SMOOTHING = tuple(SMOOTHING)
# NLTK's method 5 (and 7 = 4 then 5) averages each precision with its neighbours, starting
# from p_1 + 1, so it can exceed 1 (NLTK does the same: see test_vs_nltk.py).
BOUNDED_SMOOTHING = tuple(s for s in ALL_SMOOTHING if s not in ("method5", "method7"))


def fast(max_examples: int = 25) -> settings:
    """Settings for a quick property test (the suite runs on 2 shared cores)."""
    return settings(max_examples=max_examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


# --- text -----------------------------------------------------------------------------

WORDS = [
    "the", "the", "The", "THE", "cat", "Cat", "cat,", "mat", "mat.", "on", "is", "a", "A",
    "there", "dog", ".", ",", "!", "?", "(it)", "it's", "U.S.", "3.14", "1,000", "e-mail",
    "&amp;", "naïve", "Über", "—",
    "猫", "坐在", "垫子上", "猫坐在垫子上。", "一只猫", "，", "。", "“你好”", "《书》", "！", "、",
]
words = st.sampled_from(WORDS)
padding = st.sampled_from(["", "", "", " ", "  ", "\t"])


@st.composite
def segments(draw, max_words: int = 10) -> str:
    """A segment of 0 … max_words words, sometimes with leading/trailing whitespace."""
    tokens = draw(st.lists(words, max_size=max_words))
    return draw(padding) + " ".join(tokens) + draw(padding)


@st.composite
def candidate_for(draw, refs: list[str]) -> str:
    """Either unrelated text, or a reference with a slice replaced (so long n-grams match)."""
    if draw(st.booleans()):
        return draw(segments())
    base = draw(st.sampled_from(refs)).split()
    i = draw(st.integers(0, len(base)))
    j = draw(st.integers(i, len(base)))
    return " ".join(base[:i] + draw(st.lists(words, max_size=3)) + base[j:])


@st.composite
def sentence_examples(draw, max_refs: int = 4) -> tuple[str, list[str]]:
    """(candidate, its references)."""
    refs = draw(st.lists(segments(), min_size=1, max_size=max_refs))
    return draw(candidate_for(refs)), refs


@st.composite
def corpus_examples(draw, max_segments: int = 5, max_refs: int = 4, varying: bool = False):
    """(candidates, per-segment reference lists, sacrebleu streams with None for gaps)."""
    n_streams = draw(st.integers(1, max_refs))
    cands, per_segment, columns = [], [], []
    for _ in range(draw(st.integers(1, max_segments))):
        k = draw(st.integers(1, n_streams)) if varying else n_streams
        refs = [draw(segments()) for _ in range(k)]
        # which streams hold this segment's references (the others get None), in order
        slots = sorted(draw(st.permutations(range(n_streams)))[:k])
        column: list[str | None] = [None] * n_streams
        for slot, ref in zip(slots, refs, strict=True):
            column[slot] = ref
        cands.append(draw(candidate_for(refs)))
        per_segment.append(refs)
        columns.append(column)
    streams = [[column[k] for column in columns] for k in range(n_streams)]
    return cands, per_segment, streams


# --- tokens ---------------------------------------------------------------------------

TOKENS = ["the", "the", "The", "cat", "mat", "on", "is", "a", "there", "sat", ".", ",",
          "猫", "垫子", "上", "。"]
tokens = st.sampled_from(TOKENS)


@st.composite
def token_lists(draw, min_size: int = 0, max_size: int = 10) -> list[str]:
    return draw(st.lists(tokens, min_size=min_size, max_size=max_size))


@st.composite
def token_candidate_for(draw, refs: list[list[str]], min_size: int = 0) -> list[str]:
    """Unrelated tokens, or a reference with a slice replaced (so long n-grams match)."""
    if draw(st.booleans()):
        return draw(token_lists(min_size=min_size))
    base = draw(st.sampled_from(refs))
    i = draw(st.integers(0, len(base)))
    j = draw(st.integers(i, len(base)))
    cand = base[:i] + draw(token_lists(max_size=3)) + base[j:]
    return cand + draw(token_lists(min_size=max(0, min_size - len(cand)),
                                   max_size=max(0, min_size - len(cand))))


@st.composite
def token_sentence_examples(draw, max_refs: int = 4):
    """(candidate tokens, list of reference token lists)."""
    refs = draw(st.lists(token_lists(), min_size=1, max_size=max_refs))
    return draw(token_candidate_for(refs)), refs


@st.composite
def token_corpus_examples(draw, max_segments: int = 5, max_refs: int = 3, min_tokens: int = 0):
    """(candidate token lists, per-segment lists of reference token lists)."""
    cands, refs = [], []
    for _ in range(draw(st.integers(1, max_segments))):
        seg_refs = draw(st.lists(token_lists(), min_size=1, max_size=max_refs))
        cands.append(draw(token_candidate_for(seg_refs, min_size=min_tokens)))
        refs.append(seg_refs)
    return cands, refs


# few words, so n-grams repeat inside a segment and across references; "zz" and "yy" occur
# only in candidates (unknown tokens), "" never
_REF_WORDS = st.sampled_from(["a", "b", "c", "the", "cat", "猫"])
_CAND_WORDS = st.sampled_from(["a", "b", "c", "the", "cat", "猫", "zz", "yy"])


@st.composite
def engine_corpora(draw, max_segments: int = 6):
    """(per-segment reference token lists, candidate token lists) with many repeats."""
    n_segments = draw(st.integers(1, max_segments))
    refs = [draw(st.lists(st.lists(_REF_WORDS, max_size=9), min_size=1, max_size=4))
            for _ in range(n_segments)]
    cands = [draw(st.lists(_CAND_WORDS, max_size=12)) for _ in range(n_segments)]
    return refs, cands

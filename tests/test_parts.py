"""The pieces, one at a time, on facts a learner can check by hand.

tokenizers (against sacrebleu's tokenizer classes), n-grams, clipping (Papineni et al. 2002),
closest reference length and brevity penalty, BleuStats, BleuResult and its formatting, and the
signature. Every expected number is either hand arithmetic shown next to it, the paper's, or
sacrebleu's. (``import bleu_lesson`` staying light is checked in tests/test_packaging.py.)
"""

from __future__ import annotations

import dataclasses
import math
import re
from importlib import import_module

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

import bleu_lesson
from bleu_lesson import (
    BleuResult,
    BleuStats,
    ClippedNGram,
    all_ngram_counts,
    brevity_penalty,
    clipped_counts,
    clipping_table,
    closest_ref_length,
    corpus_bleu,
    get_tokenizer,
    max_reference_counts,
    ngram_counts,
    ngrams,
    sentence_bleu,
    sum_stats,
)
from bleu_lesson.core.tokenizers import TOKENIZERS, tokenize

# --- tokenizers -----------------------------------------------------------------------------

SACREBLEU_CLASSES = {
    "13a": ("tokenizer_13a", "Tokenizer13a"),
    "intl": ("tokenizer_intl", "TokenizerV14International"),
    "zh": ("tokenizer_zh", "TokenizerZh"),
    "char": ("tokenizer_char", "TokenizerChar"),
    "none": ("tokenizer_none", "NoneTokenizer"),
}

SENTENCES = [
    "The cat sat on the mat.",
    "Hello, world!",
    "U.S. 3.14 1,000 e-mail \"quoted\" (it) &amp; naïve—Über",
    "It's 5$ -- isn't it?",
    "  我说：“你好！”  ",
    "猫坐在垫子上。The CAT sat.",
    "《红楼梦》、《西游记》",
    "trailing spaces   \t",
    "",
]


def sacrebleu_tokens(name: str, text: str, lowercase: bool = False) -> list[str]:
    """What sacrebleu's BLEU counts: lowercase, rstrip, tokenize, split (BLEU._preprocess_segment
    and helpers.extract_all_word_ngrams)."""
    module, cls = SACREBLEU_CLASSES[name]
    tokenizer = getattr(import_module(f"sacrebleu.tokenizers.{module}"), cls)()
    if lowercase:
        text = text.lower()
    return tokenizer(text.rstrip()).split()


def test_tokenizer_names_are_sacrebleus():
    assert TOKENIZERS == ("none", "13a", "intl", "zh", "char")
    assert set(TOKENIZERS) <= set(sacrebleu.BLEU.TOKENIZERS)
    for name in TOKENIZERS:
        module, cls = SACREBLEU_CLASSES[name]
        assert getattr(import_module(f"sacrebleu.tokenizers.{module}"), cls)().signature() == name


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("text", SENTENCES)
@pytest.mark.parametrize("name", TOKENIZERS)
def test_tokenizers_equal_sacrebleus_classes(name, text, lowercase):
    assert tokenize(text, name, lowercase=lowercase) == sacrebleu_tokens(name, text, lowercase)
    assert get_tokenizer(name, lowercase)(text) == sacrebleu_tokens(name, text, lowercase)


@pytest.mark.parametrize("name, text, expected", [
    ("none", "Hello, world!", ["Hello,", "world!"]),              # whitespace only
    ("13a", "The cat sat on the mat.", ["The", "cat", "sat", "on", "the", "mat", "."]),
    ("intl", "Hello, world!", ["Hello", ",", "world", "!"]),
    ("zh", "猫坐在垫子上。", ["猫", "坐", "在", "垫", "子", "上", "。"]),  # one token per hanzi
    ("char", "猫 cat", ["猫", "c", "a", "t"]),                      # spaces dropped
])
def test_tokenizers_on_hand_checked_strings(name, text, expected):
    assert tokenize(text, name) == expected


def test_lowercase_is_applied_before_tokenizing():
    assert tokenize("The CAT.", "13a", lowercase=True) == ["the", "cat", "."]
    assert tokenize("The CAT.", "none", lowercase=True) == ["the", "cat."]


def test_a_callable_is_a_tokenizer():
    split_on_commas = get_tokenizer(lambda s: s.split(","), lowercase=True)
    assert split_on_commas("A,b,C") == ["a", "b", "c"]
    assert split_on_commas.name.startswith("custom:")
    result = sentence_bleu("a,b", ["a,b"], tokenizer=lambda s: s.split(","), max_n=2)
    assert result.score == 1.0 and result.hyp_len == 2


def test_the_seeds_functions_live_only_in_bleu_lesson_seed():
    # bleu_lesson.tokenize (the seed's) vs bleu_lesson.core.tokenizers.tokenize was a known
    # student confusion: the top-level namespace now holds only the course's own API
    from bleu_lesson.core import seed

    for name in ("tokenize", "get_ngrams", "count_clipped_ngrams", "compute_bleu"):
        assert not hasattr(bleu_lesson, name), name
        assert name in seed.__all__
    assert seed.tokenize("The Cat.") == ["the", "cat."]   # lowercase + whitespace split
    assert tokenize("The Cat.", "none") == ["The", "Cat."]


# --- n-grams --------------------------------------------------------------------------------

def test_ngrams_in_order():
    tokens = "the cat is on the mat".split()
    assert ngrams(tokens, 2) == [("the", "cat"), ("cat", "is"), ("is", "on"), ("on", "the"),
                                 ("the", "mat")]
    assert ngrams(tokens, 6) == [tuple(tokens)]
    assert ngrams(tokens, 7) == []
    assert ngram_counts("the the the".split(), 2) == {("the", "the"): 2}


@settings(max_examples=50, deadline=None)
@given(tokens=st.lists(st.sampled_from(["a", "b", "c"]), max_size=12), n=st.integers(1, 6))
def test_a_sentence_of_length_L_has_L_minus_n_plus_1_ngrams(tokens, n):
    assert len(ngrams(tokens, n)) == max(len(tokens) - n + 1, 0)
    assert sum(ngram_counts(tokens, n).values()) == max(len(tokens) - n + 1, 0)
    assert [sum(c.values()) for c in all_ngram_counts(tokens, n)] == \
        [max(len(tokens) - k + 1, 0) for k in range(1, n + 1)]


@pytest.mark.parametrize("n, error", [(0, ValueError), (-1, ValueError), (1.0, TypeError),
                                      (True, TypeError)])
def test_ngram_order_must_be_a_positive_int(n, error):
    with pytest.raises(error, match="n must be"):
        ngrams(["a"], n)


# --- clipping (Papineni et al. 2002, section 2.1) -------------------------------------------

THE_7 = "the the the the the the the".split()
PAPINENI_REFS = ["the cat is on the mat".split(), "there is a cat on the mat".split()]


def test_papineni_modified_unigram_precision_is_2_over_7():
    # "the" occurs 7 times in the candidate, at most twice in one reference (reference 1)
    assert clipped_counts(THE_7, PAPINENI_REFS, 1) == (2, 7)
    assert clipping_table(THE_7, PAPINENI_REFS, 1) == [
        ClippedNGram(ngram=("the",), count=7, max_ref_count=2, best_ref=0, clipped=2)
    ]
    # with the references swapped the best reference is the second one
    (row,) = clipping_table(THE_7, PAPINENI_REFS[::-1], 1)
    assert (row.max_ref_count, row.best_ref, row.clipped, row.text) == (2, 1, 2, "the")
    assert max_reference_counts(PAPINENI_REFS, 1)[("the",)] == 2


def test_clipping_only_bites_on_repeated_ngrams():
    # hand counts; refs: "a b a c" and "b b"; max counts a:2 b:2 c:1
    refs = ["a b a c".split(), "b b".split()]
    # no candidate unigram repeats: every one found counts once (d is in no reference)
    assert clipped_counts("a b c d".split(), refs, 1) == (3, 4)
    # "a" repeats but within its maximum (2 <= 2): nothing is clipped
    assert clipped_counts("a a b".split(), refs, 1) == (3, 3)
    # "c" repeats beyond its maximum (3 > 1): clipped to 1; a and b count once each
    assert clipped_counts("c c c a b".split(), refs, 1) == (3, 5)
    # bigrams: "b a" once in ref 1; the candidate has it twice -> min(2, 1) = 1, "a b" 1
    assert clipped_counts("b a b a".split(), refs, 2) == (2, 3)


def test_clipping_table_rows_follow_the_candidate():
    cand = "the cat the dog".split()
    refs = ["a cat".split(), "the cat and the cat".split()]
    rows = clipping_table(cand, refs, 1)
    # first occurrence order: the, cat, dog
    assert [(r.text, r.count, r.max_ref_count, r.best_ref, r.clipped) for r in rows] == [
        ("the", 2, 2, 1, 2),     # ref 2 has "the" twice
        ("cat", 1, 2, 1, 1),     # ref 1 has it once, ref 2 twice: the first maximum is ref 2
        ("dog", 1, 0, None, 0),  # in no reference
    ]
    assert sum(r.clipped for r in rows) == clipped_counts(cand, refs, 1)[0] == 3
    # reference 2's bigrams: "the cat" (twice), "cat and", "and the"; reference 1's: "a cat"
    bigrams = clipping_table(cand, refs, 2)
    assert [(r.text, r.count, r.max_ref_count, r.best_ref, r.clipped) for r in bigrams] == [
        ("the cat", 1, 2, 1, 1), ("cat the", 1, 0, None, 0), ("the dog", 1, 0, None, 0)]


def test_clipping_ties_between_references_name_the_first():
    (row,) = clipping_table(["cat"], [["cat"], ["cat"]], 1)
    assert row.best_ref == 0


def test_papineni_candidates_precisions():
    # Papineni et al. (2002), Example 1, lowercased, without the final period: candidate 1 has
    # modified unigram precision 17/18 and bigram 10/17; candidate 2 has 8/14 and 1/13.
    refs = [
        "It is a guide to action that ensures that the military will forever heed Party commands",
        "It is the guiding principle which guarantees the military forces always being under "
        "the command of the Party",
        "It is the practical guide for the army always to heed the directions of the party",
    ]
    cand1 = ("It is a guide to action which ensures that the military always obeys the "
             "commands of the party")
    cand2 = "It is to insure the troops forever hearing the activity guidebook that party direct"
    ref_tokens = [r.lower().split() for r in refs]
    assert clipped_counts(cand1.lower().split(), ref_tokens, 1) == (17, 18)
    assert clipped_counts(cand1.lower().split(), ref_tokens, 2) == (10, 17)
    assert clipped_counts(cand2.lower().split(), ref_tokens, 1) == (8, 14)
    assert clipped_counts(cand2.lower().split(), ref_tokens, 2) == (1, 13)
    result = sentence_bleu(cand1, refs, tokenizer="none", lowercase=True, smoothing="none")
    assert result.matches == (17, 10, 7, 4) and result.totals == (18, 17, 16, 15)
    # BP = 1 (c = 18 = length of reference 2); (17/18 · 10/17 · 7/16 · 4/15)^(1/4)
    assert result.score == pytest.approx((17 / 18 * 10 / 17 * 7 / 16 * 4 / 15) ** 0.25,
                                         abs=1e-12)
    assert round(result.score, 4) == 0.5046


# --- brevity --------------------------------------------------------------------------------

@pytest.mark.parametrize("hyp_len, ref_lens, tie, expected", [
    (6, [5, 7], "shorter", 5),       # |6-5| = |6-7|: the shorter wins
    (6, [7, 5], "shorter", 5),
    (6, [7, 5], "first", 7),         # the first listed wins
    (6, [5, 7], "first", 5),
    (6, [9, 6, 5, 7], "shorter", 6),  # an exact length always wins
    (6, [9, 6, 5, 7], "first", 6),
    (10, [8, 12, 12], "shorter", 8),
    (10, [12, 8], "first", 12),
    (3, [10], "shorter", 10),
    (0, [2, 1], "shorter", 1),
])
def test_closest_ref_length_and_its_tie_rules(hyp_len, ref_lens, tie, expected):
    assert closest_ref_length(hyp_len, ref_lens, tie=tie) == expected


def test_closest_ref_length_default_tie_is_shorter():
    assert closest_ref_length(6, [7, 5]) == 5


def test_brevity_penalty():
    assert brevity_penalty(6, 7) == pytest.approx(math.exp(-1 / 6), abs=1e-15)  # exp(1 - 7/6)
    assert brevity_penalty(5, 10) == pytest.approx(math.exp(-1), abs=1e-15)     # exp(1 - 2)
    assert brevity_penalty(7, 6) == brevity_penalty(6, 6) == 1.0
    assert brevity_penalty(0, 6) == 0.0
    with pytest.raises(ValueError, match="non-negative"):
        brevity_penalty(-1, 6)


def test_brevity_penalty_uses_summed_lengths_not_the_mean_of_sentences():
    # segment 1: c = 2, r = 4 (BP 1/e); segment 2: c = 4, r = 2 (BP 1). Corpus: c = r = 6
    result = corpus_bleu(["a b", "a b c d"], [["a b x y"], ["a b"]], tokenizer="none", max_n=1,
                         smoothing="none")
    assert (result.hyp_len, result.ref_len, result.bp) == (6, 6, 1.0)


# --- BleuStats ------------------------------------------------------------------------------

A = BleuStats(6, 7, (6, 4, 2, 0), (6, 5, 4, 3))
B = BleuStats(3, 3, (3, 2, 1, 0), (3, 2, 1, 0))


def test_stats_add_componentwise():
    assert A + B == BleuStats(9, 10, (9, 6, 3, 0), (9, 7, 5, 3))
    assert sum([A, B]) == A + B == sum_stats([A, B])
    assert sum([A]) == A == sum_stats([A])
    assert sum([A, B, A]) == sum_stats([A, B, A]) == BleuStats(15, 17, (15, 10, 5, 0),
                                                                (15, 12, 9, 6))
    assert A.order == 4


def test_stats_of_different_orders_do_not_add():
    short = BleuStats(1, 1, (1,), (1,))
    with pytest.raises(ValueError, match="orders"):
        A + short
    with pytest.raises(ValueError, match="orders"):
        sum_stats([A, short])
    with pytest.raises(ValueError, match="empty"):
        sum_stats([])
    with pytest.raises(ValueError, match="same length"):
        BleuStats(1, 1, (1, 0), (1,))


def test_stats_score_like_the_sentence_they_came_from():
    # "the cat is on the mat" vs "the cat is sitting on the mat": c = 6, r = 7,
    # matches 6/6, 4/5 ("the cat", "cat is", "on the", "the mat"), 2/4, 0/3
    result = sentence_bleu("the cat is on the mat", ["the cat is sitting on the mat"],
                           tokenizer="none", smoothing="none")
    assert (result.hyp_len, result.ref_len, result.matches, result.totals) == \
        (A.hyp_len, A.ref_len, A.matches, A.totals)
    assert result.score == 0.0                  # no 4-gram match, no smoothing
    assert result.bp == pytest.approx(math.exp(-1 / 6), abs=1e-15)


# --- BleuResult -----------------------------------------------------------------------------

SEED_REFS = ["The cat is sitting on the mat", "A cat is on the mat", "The cat lies on the mat"]


@pytest.fixture
def seed_result() -> BleuResult:
    return sentence_bleu("The cat is on the mat", SEED_REFS, tokenizer="none", lowercase=True,
                         smoothing="none")


def test_seed_example_numbers(seed_result):
    # unigrams 6/6, bigrams 5/5, trigrams 4/4, 4-grams 2/3 ("the cat is on" is in no reference)
    assert seed_result.matches == (6, 5, 4, 2) and seed_result.totals == (6, 5, 4, 3)
    assert seed_result.precisions == (1.0, 1.0, 1.0, 2 / 3)
    assert seed_result.score == pytest.approx((2 / 3) ** 0.25, abs=1e-12)   # 0.9036
    assert (seed_result.bp, seed_result.hyp_len, seed_result.ref_len, seed_result.ratio) == \
        (1.0, 6, 6, 1.0)


def test_str_is_sacrebleus_one_line_format(seed_result):
    assert str(seed_result) == ("BLEU = 90.36 100.0/100.0/100.0/66.7 "
                                "(BP = 1.000 ratio = 1.000 hyp_len = 6 ref_len = 6)")
    theirs = sacrebleu.sentence_bleu("The cat is on the mat", SEED_REFS, smooth_method="none",
                                     lowercase=True, tokenize="none")
    assert str(seed_result) == str(theirs)
    for width in (0, 1, 4):
        assert seed_result.format(width=width) == theirs.format(width=width)
    assert seed_result.format(signature=True) == theirs.format(signature=seed_result.signature)
    assert seed_result.format(signature=True).startswith("BLEU|nrefs:3|case:lc|")


def test_result_is_frozen(seed_result):
    with pytest.raises(dataclasses.FrozenInstanceError):
        seed_result.score = 1.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        A.hyp_len = 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        clipping_table(THE_7, PAPINENI_REFS, 1)[0].clipped = 7
    assert isinstance(seed_result.precisions, tuple) and isinstance(seed_result.matches, tuple)
    assert hash(A) == hash(BleuStats(6, 7, (6, 4, 2, 0), (6, 5, 4, 3)))


# --- signature ------------------------------------------------------------------------------

VERSION = f"version:bleu_lesson-{bleu_lesson.__version__}"


@pytest.mark.parametrize("kwargs, expected", [
    ({}, "nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|" + VERSION),
    ({"effective_order": False, "lowercase": True, "tokenizer": "zh"},
     "nrefs:1|case:lc|eff:no|tok:zh|smooth:exp|" + VERSION),
    ({"smoothing": "floor"}, "nrefs:1|case:mixed|eff:yes|tok:13a|smooth:floor[0.10]|" + VERSION),
    ({"smoothing": "add-k", "smooth_value": 2},
     "nrefs:1|case:mixed|eff:yes|tok:13a|smooth:add-k[2.00]|" + VERSION),
    ({"smoothing": "none"}, "nrefs:1|case:mixed|eff:yes|tok:13a|smooth:none|" + VERSION),
    # extensions sacrebleu has no field for: NLTK methods take no effective order
    ({"smoothing": "method3", "tokenizer": "none"},
     "nrefs:1|case:mixed|eff:no|tok:none|smooth:method3|" + VERSION),
    ({"max_n": 2}, "nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|ngram:2|" + VERSION),
    ({"weights": (0.4, 0.3, 0.2, 0.1)},
     "nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|weights:0.4,0.3,0.2,0.1|" + VERSION),
    ({"weights": (0.25,) * 4}, "nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|" + VERSION),
    ({"ref_length": "shortest"},
     "nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|reflen:shortest|" + VERSION),
    ({"tie": "first"},
     "nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|reflen:closest-first|" + VERSION),
])
def test_signature(kwargs, expected):
    assert sentence_bleu("the cat", ["the cat sat"], **kwargs).signature == expected


def test_signature_counts_references():
    two = corpus_bleu(["a", "b"], [["a", "x"], ["b", "y"]])
    var = corpus_bleu(["a", "b"], [["a", "x"], ["b"]])
    assert two.signature.startswith("nrefs:2|") and var.signature.startswith("nrefs:var|")


# --- one home per rule: the smoothing registry, options resolved once -----------------------

def test_every_reader_of_the_smoothing_registry_offers_every_method():
    from bleu_lesson.__main__ import build_parser
    from bleu_lesson.analysis import variants
    from bleu_lesson.core import smoothing

    names = list(smoothing.SMOOTHING)
    # every method of the two tools, read from the tools themselves (sacrebleu 2.x:
    # none/floor/add-k/exp; NLTK 3.8: SmoothingFunction().method0 … method7)
    sacrebleu = pytest.importorskip("sacrebleu")
    nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")
    theirs = list(sacrebleu.metrics.bleu.BLEU.SMOOTH_DEFAULTS) + sorted(
        m for m in dir(nltk_bleu.SmoothingFunction) if re.fullmatch(r"method\d", m))
    assert [n for n in names if n in theirs] == theirs
    assert list(bleu_lesson.SMOOTHING_METHODS) == names
    assert list(variants.TOOL_KNOBS["smoothing"].values()) == names
    subparsers = next(a for a in build_parser()._actions if a.dest == "command")
    score = subparsers.choices["score"]
    cli = next(a for a in score._actions if "--smooth" in a.option_strings)
    assert list(cli.choices) == names
    # defaults are sacrebleu's own (floor 0.1, add-k 1)
    for name, default in sacrebleu.metrics.bleu.BLEU.SMOOTH_DEFAULTS.items():
        assert smoothing.SMOOTHING[name].default == default, name
    # NLTK's method 5 (and 7, which calls it) reads the 5-gram precision
    assert {n for n, m in smoothing.SMOOTHING.items() if m.min_orders > 1} >= {
        "method5", "method7"}


def test_widgets_offer_every_smoothing_method():
    widgets = pytest.importorskip("bleu_lesson.teaching.widgets")
    from bleu_lesson.core import smoothing

    explorer = widgets.BleuExplorer()
    assert list(explorer.smoothing.options) == list(smoothing.SMOOTHING)


def test_options_resolve_the_tokenizer_and_signature_once(monkeypatch):
    import importlib

    bleu = importlib.import_module("bleu_lesson.core.bleu")
    options = bleu.BleuOptions(tokenizer="none", smoothing="floor")
    stats = BleuStats(6, 7, (6, 4, 2, 0), (6, 5, 4, 3))
    calls = []
    monkeypatch.setattr(bleu, "get_tokenizer", lambda *a: calls.append(a))
    monkeypatch.setattr(bleu.BleuOptions, "_make_signature_tail",
                        lambda self: calls.append("signature"))
    results = [bleu.score_stats(stats, options, nrefs=2) for _ in range(1000)]  # a bootstrap
    assert calls == []
    assert results[0].signature.startswith("nrefs:2|case:mixed|eff:no|tok:none|smooth:floor")
    # p4 = 0.1 / 3 (floor); (1 · 4/5 · 2/4 · 0.1/3) ** (1/4) · exp(1 - 7/6)
    assert results[-1].score == pytest.approx(
        (4 / 5 * 2 / 4 * 0.1 / 3) ** 0.25 * math.exp(-1 / 6), abs=1e-12)


def test_options_pickle_as_the_arguments_they_were_made_from():
    import pickle

    from bleu_lesson import BleuOptions

    options = BleuOptions(tokenizer="13a", smoothing="floor", smooth_value=0.2, max_n=2)
    again = pickle.loads(pickle.dumps(options))   # e.g. sent to a worker process
    assert again == options
    assert again.tokenize("a b.") == ["a", "b", "."]    # 13a splits the final period
    assert again.signature(1) == options.signature(1)


def test_the_glossary_names_every_smoothing_method_of_the_registry():
    from pathlib import Path

    from bleu_lesson.core import smoothing

    row = next(line for line in (Path(__file__).resolve().parents[1] / "docs" / "glossary.md")
               .read_text(encoding="utf-8").splitlines() if line.startswith("| 平滑 |"))
    for name, method in smoothing.SMOOTHING.items():
        if method.family == "sacrebleu" and name != "none":
            assert f"`{name}`" in row, name
    nltk = [n for n, m in smoothing.SMOOTHING.items() if m.family == "nltk"]
    assert f"`{nltk[0]}`–`{nltk[-1]}`" in row   # NLTK's methods as a range

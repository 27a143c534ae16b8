"""``bleu_lesson.core.seed`` behaves exactly like the seed chapter's own code.

The oracle is the code printed in the seed text, cut out and executed (``seed_oracle``):
on the seed's two examples, on generated inputs, and on the printed output, which
documents the course's central correction: the chapter's "expected output" (0.6065,
0.7711) is not what its code prints (0.0000, 0.9036).
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from notebook_tools import seed_skip_reason
from seed_oracle import SeedNotFound, load_seed_namespace, seed_dir

import bleu_lesson
from bleu_lesson.core import seed as ours

CANDIDATE = "The cat is on the mat"
SINGLE = ["The cat is sitting on the mat"]
MULTI = ["The cat is sitting on the mat", "A cat is on the mat", "The cat lies on the mat"]

FUNCTIONS = ("tokenize", "get_ngrams", "count_clipped_ngrams", "compute_bleu")


@pytest.fixture(scope="module")
def seed_run() -> tuple[dict, str]:
    try:
        return load_seed_namespace()
    except SeedNotFound as exc:
        pytest.skip(seed_skip_reason(exc))


@pytest.fixture(scope="module")
def seed(seed_run) -> dict:
    """The seed's namespace: its four functions (and its example variables)."""
    return seed_run[0]


# --- the seed's functions live in bleu_lesson.core.seed only --------------------------------

@pytest.mark.parametrize("name", FUNCTIONS)
def test_only_in_bleu_lesson_seed(name):
    assert callable(getattr(ours, name))
    assert not hasattr(bleu_lesson, name)  # the top-level namespace is the course's API


def test_oracle_finds_the_seed_code(seed):
    for name in FUNCTIONS:
        assert callable(seed[name]), name


def test_missing_seed_dir_is_reported(tmp_path, monkeypatch):
    monkeypatch.setenv("BLEU_LESSON_SEED_DIR", str(tmp_path / "nowhere"))
    assert seed_dir() == tmp_path / "nowhere"
    with pytest.raises(SeedNotFound, match="no such directory"):
        load_seed_namespace()


# --- the seed's two examples ----------------------------------------------------------

@pytest.mark.parametrize("refs", [SINGLE, MULTI], ids=["single", "multi"])
def test_examples_identical(seed, refs):
    bleu, details = ours.compute_bleu(CANDIDATE, refs)
    seed_bleu, seed_details = seed["compute_bleu"](CANDIDATE, refs)
    assert bleu == seed_bleu
    assert details.keys() == seed_details.keys()
    for key in seed_details:
        assert details[key] == seed_details[key], key
        assert type(details[key]) is type(seed_details[key]), key


def test_examples_match_the_seeds_own_variables(seed):
    # the seed's script computed them itself at the end of bleu_score.py
    single = ours.compute_bleu(seed["candidate1"], seed["reference1"])
    multi = ours.compute_bleu(seed["candidate2"], seed["references2"])
    assert single == (seed["bleu1"], seed["det1"])
    assert multi == (seed["bleu2"], seed["det2"])


def test_example_values():
    bleu, det = ours.compute_bleu(CANDIDATE, SINGLE)
    assert bleu == 0.0
    assert det["precisions"] == [1.0, 0.8, 0.5, 0.0]
    assert (det["candidate_len"], det["best_ref_len"]) == (6, 7)
    assert f"{det['brevity_penalty']:.4f}" == "0.8465"
    bleu, det = ours.compute_bleu(CANDIDATE, MULTI)
    assert f"{bleu:.4f}" == "0.9036"
    assert [f"{p:.3f}" for p in det["precisions"]] == ["1.000", "1.000", "1.000", "0.667"]
    assert det["brevity_penalty"] == 1.0


# --- the chapter's printed claims are not what its code prints ------------------------

def test_seed_code_prints_the_true_values(seed_run):
    out = seed_run[1]
    assert "单参考BLEU: 0.0000" in out
    assert "多参考BLEU: 0.9036" in out
    assert "  各阶精确率: ['1.000', '0.800', '0.500', '0.000']" in out
    assert "  长度惩罚: 0.8465" in out
    assert "  各阶精确率: ['1.000', '1.000', '1.000', '0.667']" in out
    assert "  长度惩罚: 1.0000" in out


def test_seed_text_claims_are_wrong(seed_run):
    out = seed_run[1]
    for claimed in ("0.6065", "0.7711", "0.7788", "0.833", "0.750"):
        assert claimed not in out, claimed


def test_seed_text_does_print_the_wrong_claims():
    # the chapter text itself states the wrong numbers (so the course must correct them)
    from seed_oracle import find_seed_file

    try:
        text = find_seed_file().read_text(encoding="utf-8")
    except SeedNotFound as exc:
        pytest.skip(seed_skip_reason(exc))
    assert "单参考BLEU: 0.6065" in text
    assert "多参考BLEU: 0.7711" in text


# --- generated inputs -----------------------------------------------------------------

VOCAB = ["the", "The", "THE", "cat", "Cat", "mat", "on", "is", "a", "A", "sat", "猫", "垫子"]
SEPARATORS = [" ", " ", " ", "  ", "\t", "\n", "\u3000"]

words = st.lists(st.sampled_from(VOCAB), max_size=9)
texts = st.builds(
    lambda ws, seps, lead, trail: lead + "".join(
        w + seps[i % len(seps)] for i, w in enumerate(ws)
    ).rstrip() + trail,
    words,
    st.lists(st.sampled_from(SEPARATORS), min_size=1, max_size=3),
    st.sampled_from(["", " ", "\t"]),
    st.sampled_from(["", " ", "\n"]),
) | st.sampled_from(["", " ", "\n\t"])
references = st.lists(texts, min_size=1, max_size=4)
orders = st.integers(min_value=1, max_value=5)

SETTINGS = settings(max_examples=300, deadline=None)


@SETTINGS
@given(text=texts)
def test_tokenize_matches_seed(seed, text):
    assert ours.tokenize(text) == seed["tokenize"](text)


@SETTINGS
@given(tokens=words, n=st.integers(min_value=1, max_value=11))
def test_get_ngrams_matches_seed(seed, tokens, n):
    assert ours.get_ngrams(tokens, n) == seed["get_ngrams"](tokens, n)
    assert ours.get_ngrams(tuple(tokens), n) == seed["get_ngrams"](tuple(tokens), n)


@SETTINGS
@given(candidate=words, refs=st.lists(words, min_size=0, max_size=4), n=orders)
@example(candidate=["the"] * 7, refs=[["the", "cat", "the"]], n=1)   # Papineni: 2/7
def test_count_clipped_ngrams_matches_seed(seed, candidate, refs, n):
    assert ours.count_clipped_ngrams(candidate, refs, n) == seed["count_clipped_ngrams"](
        candidate, refs, n
    )


@SETTINGS
@given(candidate=texts, refs=references, max_n=orders)
@example(candidate="a b c d e f", refs=["a b c d e", "a b c d e f g"], max_n=4)
@example(candidate="a b c d e f", refs=["a b c d e f g", "a b c d e"], max_n=4)
@example(candidate="the the the the the the the", refs=["the cat is on the mat"], max_n=1)
@example(candidate="", refs=[""], max_n=4)
@example(candidate="The cat", refs=["", "the CAT"], max_n=5)
def test_compute_bleu_matches_seed(seed, candidate, refs, max_n):
    bleu, details = ours.compute_bleu(candidate, refs, max_n)
    seed_bleu, seed_details = seed["compute_bleu"](candidate, refs, max_n)
    assert bleu == seed_bleu
    assert details == seed_details
    assert [type(p) for p in details["precisions"]] == [type(p) for p in seed_details["precisions"]]
    # a tuple of references is the same as a list
    assert ours.compute_bleu(candidate, tuple(refs), max_n) == (seed_bleu, seed_details)


@pytest.mark.parametrize(("refs", "best"), [
    (["a b c d e", "a b c d e f g"], 5),
    (["a b c d e f g", "a b c d e"], 7),
    (["x y z", "a b c d e f g", "a b c d e", "a b c d e f g h"], 7),
])
def test_ties_go_to_the_first_listed_reference(seed, refs, best):
    candidate = "a b c d e f"  # 6 words; 5 and 7 are equally close
    _, details = ours.compute_bleu(candidate, refs)
    assert details["best_ref_len"] == best
    assert details == seed["compute_bleu"](candidate, refs)[1]


# --- bad input: the seed crashes or misbehaves, ours names the problem ----------------

def test_empty_reference_list(seed):
    with pytest.raises(ValueError, match="min"):
        seed["compute_bleu"](CANDIDATE, [])
    with pytest.raises(ValueError, match="at least one reference is required"):
        ours.compute_bleu(CANDIDATE, [])


@pytest.mark.parametrize("max_n", [0, -1])
def test_max_n_below_one(seed, max_n):
    with pytest.raises(ValueError, match="min"):  # min(precisions) of an empty list
        seed["compute_bleu"](CANDIDATE, SINGLE, max_n)
    with pytest.raises(ValueError, match=r"max_n must be at least 1, got -?\d"):
        ours.compute_bleu(CANDIDATE, SINGLE, max_n)


@pytest.mark.parametrize("max_n", [2.0, "4", None, True])
def test_max_n_not_an_int(max_n):
    with pytest.raises(TypeError, match="max_n must be an int"):
        ours.compute_bleu(CANDIDATE, SINGLE, max_n)


def test_string_as_reference_list(seed):
    # the seed does not crash: it silently takes every character as a reference
    seed_bleu, seed_details = seed["compute_bleu"](CANDIDATE, SINGLE[0])
    per_char = list(SINGLE[0])
    assert (seed_bleu, seed_details) == seed["compute_bleu"](CANDIDATE, per_char)
    assert seed_details["best_ref_len"] == 1
    with pytest.raises(TypeError, match="must be a list of strings, not a single str"):
        ours.compute_bleu(CANDIDATE, SINGLE[0])


@pytest.mark.parametrize("bad", [None, 3, b"the cat", ["the", "cat"]])
def test_non_str_reference_items(seed, bad):
    refs = ["the cat", bad]
    if not isinstance(bad, bytes):
        with pytest.raises(AttributeError):  # 'NoneType' object has no attribute 'lower'
            seed["compute_bleu"](CANDIDATE, refs)
    with pytest.raises(TypeError, match=r"reference_texts\[1\] must be a str"):
        ours.compute_bleu(CANDIDATE, refs)


@pytest.mark.parametrize("bad", [None, 3, ["the", "cat"]])
def test_non_str_candidate(seed, bad):
    with pytest.raises(AttributeError):
        seed["compute_bleu"](bad, SINGLE)
    with pytest.raises(TypeError, match="candidate_text must be a str"):
        ours.compute_bleu(bad, SINGLE)
    with pytest.raises(TypeError, match="text must be a str"):
        ours.tokenize(bad)


@pytest.mark.parametrize("refs", [None, 42, {"the cat"}])
def test_references_not_a_list(refs):
    with pytest.raises(TypeError, match="reference_texts must be a list of strings"):
        ours.compute_bleu(CANDIDATE, refs)


@pytest.mark.parametrize("n", [0, -2])
def test_get_ngrams_order_below_one(seed, n):
    # the seed returns len - n + 1 empty tuples instead of failing
    assert seed["get_ngrams"](["a", "b"], n) == [()] * (2 - n + 1)
    with pytest.raises(ValueError, match=r"n must be at least 1"):
        ours.get_ngrams(["a", "b"], n)


def test_count_clipped_ngrams_string_references(seed):
    with pytest.raises(TypeError, match="references must be a list of token lists, not a str"):
        ours.count_clipped_ngrams(["the", "cat"], "the cat", 1)

"""Chapters 07-08's construction exercises reject the answers a learner would really give.

7.1 asks for a test set of 2-4 segments (one reference each) on which corpus BLEU ranks
system A above B while the mean of sentence BLEU ranks B above A (sacrebleu's defaults).
8.1 asks for n candidates and n reference streams (2 <= n <= 4) on which handing sacrebleu
the per-segment lists by mistake gives a higher corpus BLEU than the right layout.
Each wrong answer below is what a learner builds under a rule the course also teaches, or
by a slip; each must fail the notebook's ``check`` and every grader draw (as in
tests/test_exercise_variants.py). The numbers that decide each one are recomputed here
with sacrebleu itself, not with the library that judges.
"""

from __future__ import annotations

import random

import pytest
from test_exercise_variants import SEEDS, hidden_rejects
from test_sandbox_judge import _verdict

from bleu_lesson.data.datasets import TOY_CORPUS
from bleu_lesson.teaching import exercises

sacrebleu = pytest.importorskip("sacrebleu")

LONG = "The committee will publish its final report on the new railway next spring."
REFS = ["Thank you!", LONG]
# A translates the long segment perfectly and the short one wrongly; B the other way round
RIGHT = {"references": REFS, "A": ["Hello there.", LONG],
         "B": ["Thank you!", "The board is going to release a report about a railway in spring."]}


def _toy(fixed: int) -> list[str]:
    """`weak` with one segment replaced by `good`'s (the chapter's experiment in 6.2)."""
    hyps = list(TOY_CORPUS.systems["weak"])
    hyps[fixed] = TOY_CORPUS.systems["good"][fixed]
    return hyps


WRONG = {
    # the two numbers confused: B wins corpus BLEU, A wins the mean
    "roles swapped": {**RIGHT, "A": RIGHT["B"], "B": RIGHT["A"]},
    # both numbers rank A first: the same ranking, not opposite ones
    "same ranking": {**RIGHT, "B": ["Hello there.", "A report is coming."]},
    # the same outputs for both systems: equal on both numbers, not strictly ordered
    "a tie": {**RIGHT, "B": list(RIGHT["A"])},
    # segments of equal length weigh the same in both numbers: no reversal possible here
    "segments of equal length": {
        "references": ["the cat sat on the mat", "a dog ran in the park"],
        "A": ["the cat sat on the mat", "a cat ran in a park"],
        "B": ["the cat sat on a mat", "a dog ran in the park"]},
    # the chapter's own experiment copied: ten segments, not a test set of at most four
    "the toy corpus copied": {"references": list(TOY_CORPUS.references["A"]),
                              "A": _toy(8), "B": _toy(7)},
    # one segment: the two numbers are the same kind of thing on it
    "one segment": {"references": [LONG], "A": [LONG], "B": ["A report is coming."]},
    "lists of different lengths": {**RIGHT, "B": RIGHT["B"][:1]},
    "an empty translation": {**RIGHT, "A": ["", LONG]},
    "a string, not a list": {**RIGHT, "A": " ".join(RIGHT["A"])},
    "the numbers, not the test set": {"A": 0.9, "B": 0.1},
}


def _numbers(answer: dict) -> tuple[float, float, float, float]:
    """(corpus A, corpus B, mean sentence A, mean sentence B), by sacrebleu."""
    refs = answer["references"]

    def mean(hyps):
        return sum(sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs)) / len(refs)

    return (sacrebleu.corpus_bleu(answer["A"], [refs]).score,
            sacrebleu.corpus_bleu(answer["B"], [refs]).score, mean(answer["A"]), mean(answer["B"]))


def test_the_right_answer_reverses_the_ranking_by_sacrebleu():
    corpus_a, corpus_b, mean_a, mean_b = _numbers(RIGHT)
    assert corpus_a > corpus_b and mean_b > mean_a
    assert exercises.run("7.1", lambda: RIGHT).status == "pass"
    ex = exercises.EXERCISES["7.1"]
    assert not any(hidden_rejects(ex, lambda: RIGHT, seed) for seed in SEEDS)


@pytest.mark.parametrize("name", ["roles swapped", "same ranking", "a tie",
                                  "segments of equal length"])
def test_each_well_formed_wrong_answer_fails_on_sacrebleus_numbers(name):
    """What makes these wrong is the numbers, so sacrebleu must see no reversal either."""
    corpus_a, corpus_b, mean_a, mean_b = _numbers(WRONG[name])
    assert not (corpus_a > corpus_b and mean_b > mean_a)


def test_the_copied_toy_corpus_does_reverse_but_is_too_long():
    """The chapter's experiment (weak with #9 fixed vs weak with #8 fixed) reverses the
    ranking with both references; copied, it is refused for its length."""
    both = {"references": None, "A": _toy(8), "B": _toy(7)}
    streams = TOY_CORPUS.reference_streams("both")
    corpus = [sacrebleu.corpus_bleu(both[k], streams).score for k in "AB"]
    mean = [sum(sacrebleu.sentence_bleu(h, list(r)).score
                for h, r in zip(both[k], zip(*streams))) for k in "AB"]
    assert corpus[0] > corpus[1] and mean[1] > mean[0]
    answer = WRONG["the toy corpus copied"]
    assert len(answer["references"]) == 10
    result = exercises.run("7.1", lambda: answer)
    assert result.status == "fail" and "2 到 4 句" in result.detail


@pytest.mark.parametrize("name", list(WRONG))
def test_wrong_answer_fails_the_notebook_check(name):
    for seed in range(3):
        result = exercises.run("7.1", lambda: WRONG[name], random.Random(seed))
        assert result.status in ("fail", "error"), (name, seed)


@pytest.mark.parametrize("name", list(WRONG))
def test_wrong_answer_fails_the_grader(name):
    """``bleu-lesson check``'s path: the answer's value crosses from the learner's kernel
    (KERNEL_REPLY) and the trusted judge decides, for every draw of hidden cases."""
    ex = exercises.EXERCISES["7.1"]
    # no input, so no hidden cases: every draw is the same single judgement
    assert all(ex.hidden_cases(random.Random(seed)) == [] for seed in SEEDS)
    assert _verdict("7.1", lambda: WRONG[name]).status in ("fail", "error")


def test_the_right_answer_passes_the_grader():
    assert _verdict("7.1", lambda: RIGHT).status == "pass"


def test_a_failure_does_not_show_a_right_answer():
    """The judge's detail names the learner's own four numbers and what is required,
    never a test set that would pass."""
    result = exercises.run("7.1", lambda: WRONG["roles swapped"])
    assert result.status == "fail"
    assert "Hello there" not in result.detail.split("得到 (got)")[1]
    assert "committee" not in result.detail


# --- 8.1: a square test set whose reference-layout error raises corpus BLEU ---------------

def _transpose(streams):
    return [list(seg) for seg in zip(*streams)]


FLATTERING = {"candidates": ["a dog ran in the park", "the cat sat on the mat"],
              "streams": [["the cat sat on the mat", "a dog ran in the park"],
                          ["the cat lay on the rug", "a dog ran in a park"]]}
# the chapter's own example of section 5: three segments, two streams (the error shows)
LAYOUT_CANDIDATES = ["The cat is on the mat.", "There is a dog in the garden.",
                     "It is raining today."]
LAYOUT_STREAMS = [["The cat is sitting on the mat.", "A dog is in the garden.", "It rains today."],
                  ["A cat is on the mat.", "There is a dog in the yard.", "Today it is raining."]]

WRONG_8_1 = {
    # built in the per-segment layout and returned as if it were streams: the error lowers BLEU
    "layouts swapped": {**FLATTERING, "streams": _transpose(FLATTERING["streams"])},
    # candidates that match their own references: the error can only take matches away
    "honest candidates": {"candidates": ["the cat sat on the mat", "a dog ran in the park"],
                          "streams": FLATTERING["streams"]},
    # every stream the same list: both readings hand each segment the same sentences
    "a tie": {"candidates": ["the cat sat on the mat", "a dog ran in the park"],
              "streams": [["the cat sat on the mat", "a dog ran in the park"]] * 2},
    # the chapter's example: not square (sacrebleu scores 67.13 < 81.50 and the shape shows it)
    "the chapter's example": {"candidates": LAYOUT_CANDIDATES, "streams": LAYOUT_STREAMS},
    # square in the number of streams but not in their length
    "streams of another length": {
        "candidates": FLATTERING["candidates"],
        "streams": [s + ["one more line"] for s in FLATTERING["streams"]]},
    "one segment": {"candidates": ["a b c d"], "streams": [["a b c d"]]},
    "an empty reference": {**FLATTERING, "streams": [["", "a dog ran in the park"],
                                                     FLATTERING["streams"][1]]},
    "per-segment tuples": {**FLATTERING, "streams": [tuple(s) for s in FLATTERING["streams"]]},
    "the two scores, not the test set": {"right": 4.83, "wrong": 61.80},
}


def _sacrebleu_layouts(answer):
    """(right, wrong) corpus BLEU by sacrebleu: streams as given, and the per-segment lists
    handed to it by mistake."""
    cands, streams = answer["candidates"], answer["streams"]
    return (sacrebleu.corpus_bleu(cands, streams).score,
            sacrebleu.corpus_bleu(cands, _transpose(streams)).score)


def test_8_1_right_answer_is_flattered_by_sacrebleus_own_mistake():
    right, wrong = _sacrebleu_layouts(FLATTERING)
    assert wrong > right
    assert exercises.run("8.1", lambda: FLATTERING).status == "pass"
    assert _verdict("8.1", lambda: FLATTERING).status == "pass"


@pytest.mark.parametrize("name", ["layouts swapped", "honest candidates", "a tie",
                                  "the chapter's example"])
def test_8_1_each_well_formed_wrong_answer_is_not_flattered_by_sacrebleu(name):
    right, wrong = _sacrebleu_layouts(WRONG_8_1[name])
    assert not wrong > right


@pytest.mark.parametrize("name", list(WRONG_8_1))
def test_8_1_wrong_answer_fails_the_notebook_check_and_the_grader(name):
    ex = exercises.EXERCISES["8.1"]
    assert all(ex.hidden_cases(random.Random(seed)) == [] for seed in SEEDS)
    assert exercises.run("8.1", lambda: WRONG_8_1[name]).status in ("fail", "error")
    assert _verdict("8.1", lambda: WRONG_8_1[name]).status in ("fail", "error")


def test_8_1_a_failure_does_not_show_a_right_answer():
    result = exercises.run("8.1", lambda: WRONG_8_1["honest candidates"])
    assert result.status == "fail" and "a dog ran" not in result.detail.split("得到 (got)")[1]


# --- 6.2: a reference that lowers BLEU, built by the learner, not scaled from the chapter --

#: the chapter's worked example (section 5): c = 6, r = 4; the extra, 7 tokens, makes r = 7
CHAPTER_6_2 = ("a b c d e f", ["a b c d"], "u v w x y z q")
#: the same example a word or two longer or shorter: the chapter's construction, not one's own
SCALED_6_2 = {
    "one word added to each": ("a b c d e f g", ["a b c d e"], "u v w x y z q r"),
    "one word dropped from each": ("a b c d e", ["a b c"], "u v w x y z"),
    "two words added, other letters in the extra": ("a b c d e f g h", ["a b c d e f"],
                                                    "p q r s t u v w x"),
    "a word changed in each": ("a b c d e k", ["a b c k"], "u v w x y z q"),
    "upper case and full stops": ("A B C D E F G.", ["A B C D E."], "U V W X Y Z Q R."),
    # a fifth hostile review's finds: the example's letters reversed or swapped in pairs,
    # with an extra that shares one of them (so a precision rises, BLEU still falls)
    "letters reversed, a sharing extra": ("f e d c b a", ["f e d c"], "a z y x w v u"),
    "letters swapped in pairs, a sharing extra": ("b a d c f e", ["b a d c"], "e z y x w v u"),
}
#: different constructions a learner makes (each extra matches more of the candidate, and
#: yet lowers BLEU: sacrebleu agrees below)
HONEST_6_2 = {
    "the notebook's solution": ("the cat sat on the mat all day", ["the cat sat on the mat"],
                                "we spent all day at home with the kids"),
    "a bus ride": ("he went to the station by bus yesterday", ["he went to the station"],
                   "my sister took the bus to school yesterday too"),
    "two references, the extra in between": (
        "we will meet again next week at noon", ["we will meet", "see you"],
        "the weather is cold at noon in winter here today"),
    "three letters, one reference": ("a b c", ["a"], "x c z w"),
    "a morning paper": ("she reads the news on her phone every morning",
                        ["she reads the news on her phone"],
                        "every morning i drink coffee and then go to work"),
}
#: the chapter's construction in other words: an unrelated extra moves only BP (BLEU falls,
#: but no precision rises), which this exercise asks to go beyond
UNRELATED_6_2 = {
    "the old notebook solution": ("the cat sat on mats", ["the cat sat"],
                                  "dogs never sleep in the rain"),
    "renamed letters": ("u v w x y z q", ["u v w x y"], "k l m n o p r s"),
    "digits": ("1 2 3 4 5 6 7", ["1 2 3 4 5"], "8 9 10 11 12 13 14 15"),
    "own words, the chapter's lengths": ("the cat sat on the mat", ["the cat sat on"],
                                         "dogs never sleep in the cold rain"),
}
#: the chapter's example in look-alike letters (Cyrillic а с е), one word shared by the
#: extra: a third hostile review's pass, now a near copy once the letters are folded
#: and in Lisu letters (ꓮ ꓐ ꓚ ...), which only Unicode's confusables table folds
LOOKALIKE_6_2 = {
    "Cyrillic": ("\u0430 b \u0441 d \u0435 f", ["\u0430 b \u0441 d"], "u v w x y z \u0435"),
    "Lisu": ("\ua4ee \ua4d0 \ua4da \ua4d3 \ua4f0 \ua4dd", ["\ua4ee \ua4d0 \ua4da \ua4d3"],
             "u v w x y z \ua4f0"),
}


@pytest.mark.parametrize("script", list(LOOKALIKE_6_2))
def test_6_2_the_chapters_example_in_look_alike_letters_fails(script):
    answer = LOOKALIKE_6_2[script]
    assert _sacrebleu_lowers(answer)
    result = exercises.run("6.2", lambda: answer)
    assert result.status == "fail" and "chapter's own example" in result.detail, result
    assert _verdict("6.2", lambda: answer).status == "fail"


def _sacrebleu_lowers(answer) -> bool:
    candidate, references, extra = answer
    before = sacrebleu.sentence_bleu(candidate, references).score
    return sacrebleu.sentence_bleu(candidate, [*references, extra]).score < before


@pytest.mark.parametrize("name", list(SCALED_6_2))
def test_6_2_the_chapters_example_scaled_fails(name):
    answer = SCALED_6_2[name]
    assert _sacrebleu_lowers(answer), name   # it does what 6.2 asks: only the copy fails it
    result = exercises.run("6.2", lambda: answer)
    assert result.status == "fail" and "chapter's own example" in \
        result.detail, (name, result)
    assert _verdict("6.2", lambda: answer).status == "fail"


@pytest.mark.parametrize("name", list(HONEST_6_2))
def test_6_2_an_honest_construction_passes(name):
    candidate, references, extra = answer = HONEST_6_2[name]
    assert _sacrebleu_lowers(answer), name
    before = sacrebleu.sentence_bleu(candidate, references).counts
    after = sacrebleu.sentence_bleu(candidate, [*references, extra]).counts
    assert any(a > b for a, b in zip(after, before, strict=True)), name
    assert exercises.run("6.2", lambda: answer).status == "pass", name
    assert _verdict("6.2", lambda: answer).status == "pass", name


@pytest.mark.parametrize("name", list(UNRELATED_6_2))
def test_6_2_an_unrelated_extra_fails(name):
    """A third hostile review passed the chapter's example with letters renamed or digits;
    a learner's own words with the chapter's lengths were refused as 'the example'. Now
    the construction is judged: the extra must match more of the candidate (some m_n rises,
    here by sacrebleu's counts) and BLEU must still fall."""
    candidate, references, extra = answer = UNRELATED_6_2[name]
    assert _sacrebleu_lowers(answer), name
    before = sacrebleu.sentence_bleu(candidate, references).counts
    after = sacrebleu.sentence_bleu(candidate, [*references, extra]).counts
    assert before == after, name    # no precision rises: only BP moved
    result = exercises.run("6.2", lambda: answer)
    assert result.status == "fail" and "raises no precision" in result.detail, (name, result)
    assert _verdict("6.2", lambda: answer).status == "fail"


def test_6_2_the_chapters_example_itself_fails():
    assert _sacrebleu_lowers(CHAPTER_6_2)
    assert exercises.run("6.2", lambda: CHAPTER_6_2).status == "fail"

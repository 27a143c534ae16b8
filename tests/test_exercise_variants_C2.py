"""Chapters 03 and 05: the construct exercises reject the answers a wrong rule leads to.

3.1 asks for a candidate whose every token occurs in a reference (unclipped unigram
precision 1) while its clipped unigram precision is exactly 2/7; 5.1 for two sets of
four precisions in (0, 1] that the arithmetic and the geometric mean rank oppositely.
A learner who holds one of the alternative rules the chapters present (references' counts
summed, their minimum, the first reference only, no clipping; another weighting of the
orders, a zero precision, a precision above 1) builds an answer that has the property
*under that rule*. Each such answer is listed here with the rule it was built by; the
test first checks, with its own counting (``collections.Counter`` by hand, ``math``),
that the answer has the property under the wrong rule and not under BLEU's, and then
that it fails both the notebook's ``check`` and the judging ``bleu-lesson check`` does
(the child's code of ``grading.judge`` run here, its reply judged by the parent).

Chapter 04 keeps its function exercises (4.1, 4.2); their variants stay in
tests/test_exercise_variants.py, which every function exercise shares.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from notebook_tools import KERNEL_REPLY

from bleu_lesson.grading import judge
from bleu_lesson.teaching.chapters.ch03 import PUZZLE_REFERENCES
from bleu_lesson.teaching.exercises import EXERCISES, run

ROOT = Path(__file__).resolve().parent.parent
MARKER = "BLEU-LESSON-UNAVAILABLE-test: "


def graded(exercise_id, value):
    """The status ``bleu-lesson check`` gives an answer returning ``value``: the child's
    code calls it and sends the value back, the parent judges it."""
    ex = EXERCISES[exercise_id]
    ns = {ex.answer_name: lambda: value}
    exec(KERNEL_REPLY, ns)
    cases = [tuple(c) for c in ex.cases]
    payload = json.dumps([judge.encode(list(c)) for c in cases])
    reply = json.loads(ns["__bleu_lesson_judge__"](ex.answer_name, ex.kind,
                                                   list(ex.forbidden), payload, MARKER))
    return judge.judge_exercise(ex, reply, cases, 0).status


# --- 3.1: counting by hand ---------------------------------------------------------------

REFS = [r.split() for r in PUZZLE_REFERENCES]


def clipped_p1(candidate, cap):
    """Clipped unigram precision of ``candidate`` when word ``w`` may count ``cap(w)`` times."""
    tokens = candidate.lower().split()
    counts = Counter(tokens)
    return Fraction(sum(min(k, cap(w)) for w, k in counts.items()), len(tokens))


def plain_p1(candidate):
    tokens = candidate.lower().split()
    return Fraction(sum(any(t in ref for ref in REFS) for t in tokens), len(tokens))


CAPS = {  # how many times a word may count, under each rule the chapter presents
    "max (BLEU)": lambda w: max(ref.count(w) for ref in REFS),
    "sum over references": lambda w: sum(ref.count(w) for ref in REFS),
    "min over references": lambda w: min(ref.count(w) for ref in REFS),
    "first reference only": lambda w: REFS[0].count(w),
    "no clipping": lambda w: 10 ** 6 if any(w in ref for ref in REFS) else 0,
}


def has_property(candidate, rule):
    return plain_p1(candidate) == 1 and clipped_p1(candidate, CAPS[rule]) == Fraction(2, 7)


def test_the_references_tell_the_rules_apart():
    # by hand: "a" occurs once in reference 1 and twice in reference 2
    assert [CAPS[rule]("a") for rule in CAPS if rule != "no clipping"] == [2, 3, 1, 1]
    assert CAPS["max (BLEU)"]("the") == 1 and CAPS["min over references"]("the") == 0


RIGHT_31 = ["the the the cat cat cat cat", "a a a a a a a", "A A A A A A A",
            "cat cat cat cat on on on", "mat on mat on mat on mat"]

WRONG_31 = {  # built by the rule named: it has the property under that rule
    "sum over references": "cat cat cat cat cat cat cat",
    "min over references": "a a a a cat cat cat",
    "first reference only": "a a a a the the the",
}
WRONG_31_OTHER = {
    "Papineni's example copied": "the the the the the the the",
    "no clipping (no candidate exists, two unmatched words)": "a cat dog dog dog dog dog",
    "one token too many": "a a a a a a a a",
    "a list of tokens, not a string": ["the", "the", "the", "cat", "cat", "cat", "cat"],
    "an empty string": "",
}


@pytest.mark.parametrize("candidate", RIGHT_31)
def test_3_1_right_candidates_pass(candidate):
    assert has_property(candidate, "max (BLEU)")
    assert run("3.1", lambda: candidate).status == "pass"
    assert graded("3.1", candidate) == "pass"


@pytest.mark.parametrize("rule", sorted(WRONG_31))
def test_3_1_a_candidate_built_by_a_wrong_rule_fails(rule):
    candidate = WRONG_31[rule]
    assert has_property(candidate, rule) and not has_property(candidate, "max (BLEU)")
    assert run("3.1", lambda: candidate).status == "fail"
    assert graded("3.1", candidate) == "fail"


@pytest.mark.parametrize("name", sorted(WRONG_31_OTHER))
def test_3_1_other_wrong_answers_fail(name):
    value = WRONG_31_OTHER[name]
    assert run("3.1", lambda: value).status == "fail"
    assert graded("3.1", value) == "fail"


def test_3_1_failure_names_the_learners_numbers_not_an_answer():
    result = run("3.1", lambda: "a a a a the the the")
    assert result.status == "fail"
    assert "p_1 = 3/7" in result.detail and "7/7" in result.detail  # their own counts
    for answer in RIGHT_31:
        assert answer not in result.detail + result.hint


# --- 5.1: the two means by hand ----------------------------------------------------------

def arithmetic(ps):
    return sum(ps) / len(ps)


def geometric(ps, ws=(0.25, 0.25, 0.25, 0.25)):
    return math.exp(sum(w * math.log(p) for p, w in zip(ps, ws)))


D2L = (1 / 2, 1 / 4, 1 / 8, 1 / 16)

RIGHT_51 = [([1.0, 1.0, 1.0, 0.01], [0.6, 0.6, 0.6, 0.6]),
            ((0.9, 0.9, 0.9, 0.05), (0.5, 0.5, 0.5, 0.5)),
            ([1, 1, 0.2, 0.2], [0.55, 0.55, 0.55, 0.55])]

WRONG_51 = {
    # A first by the arithmetic mean, B first by a mean weighted 1/2^n (d2l's): by hand
    # d2l gives A 0.5 ** 0.5 = 0.7071 < B 0.8 ** (15/16) = 0.8112, uniform A 0.8409 > B 0.8
    "weights 1/2^n (d2l)": ([0.5, 1.0, 1.0, 1.0], [0.8, 0.8, 0.8, 0.8]),
    "A and B swapped": ([0.6, 0.6, 0.6, 0.6], [1.0, 1.0, 1.0, 0.01]),
    "equal arithmetic means": ([1.0, 1.0, 0.5, 0.1], [0.65, 0.65, 0.65, 0.65]),
    "the same order under both means": ([0.9, 0.9, 0.9, 0.9], [0.8, 0.8, 0.8, 0.8]),
    "a zero precision": ([1.0, 1.0, 1.0, 0.0], [0.5, 0.5, 0.5, 0.5]),
    "a precision above 1 (NLTK method5's p_1)": ([1.2667, 1.0, 1.0, 0.05], [0.6] * 4),
    "three orders": ([1.0, 1.0, 0.01], [0.6, 0.6, 0.6]),
    "percentages, not fractions": ([100, 100, 100, 1], [60, 60, 60, 60]),
    "one list": [1.0, 1.0, 1.0, 0.01],
}


def test_5_1_the_d2l_variant_is_what_d2l_weights_give():
    a, b = WRONG_51["weights 1/2^n (d2l)"]
    assert arithmetic(a) > arithmetic(b) and geometric(b, D2L) > geometric(a, D2L)
    assert geometric(a) > geometric(b)  # BLEU's uniform weights do not flip the order


@pytest.mark.parametrize("answer", RIGHT_51, ids=str)
def test_5_1_right_answers_pass(answer):
    a, b = answer
    assert arithmetic(a) > arithmetic(b) and geometric(b) > geometric(a)
    assert run("5.1", lambda: answer).status == "pass"
    assert graded("5.1", answer) == "pass"


@pytest.mark.parametrize("name", sorted(WRONG_51))
def test_5_1_wrong_answers_fail(name):
    value = WRONG_51[name]
    assert run("5.1", lambda: value).status == "fail"
    assert graded("5.1", value) == "fail"


# --- the notebooks' own solutions ----------------------------------------------------------

def _solution(notebook, name):
    nb = json.loads((ROOT / "notebooks" / notebook).read_text(encoding="utf-8"))
    ns: dict = {}
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and "### BEGIN SOLUTION" in source:
            exec(source, ns)
    return ns[name]


@pytest.mark.parametrize("ex_id,notebook", [("3.1", "03_clipped_counts.ipynb"),
                                            ("5.1", "05_geometric_mean.ipynb")])
def test_the_notebooks_solutions_pass(ex_id, notebook):
    answer = _solution(notebook, EXERCISES[ex_id].answer_name)
    assert run(ex_id, answer).status == "pass"
    assert graded(ex_id, answer()) == "pass"

"""Every exercise is either judged by a program that rejects the wrong answers a learner
really gives, or self-assessed against a rubric and never ``pass`` (issue 20, class 2).

The function exercises with inputs keep their wrong variants in
``tests/test_exercise_variants.py`` (``WRONG``). The exercises without input (the answer
is a function of no arguments returning what the learner built or found) keep theirs here:
each variant fails the notebook's ``check`` and the verdict ``bleu-lesson check`` gives on
the same value as the judging world sends it back. The values come from the chapters and
from hand arithmetic, not from the library. 10.1 (people: JDExploreAcademy > HuaweiTSC >
Online-A > Online-G): the real BLEU has 5 concordant pairs and 1 discordant; "tau = 0 with
another system first" (H > G > J > A) agrees on H-J, H-A, J-A and disagrees on H-G, G-J,
G-A: C = D = 3, but JDExploreAcademy is not first.
"""

from __future__ import annotations

import os

import pytest
import test_exercise_variants_C1 as C1
import test_exercise_variants_C2 as C2
import test_exercise_variants_C3 as C3
from test_exercise_variants import RIGHT, WRONG

from bleu_lesson.grading import judge, wire
from bleu_lesson.teaching import exercises

V = "version:2.4.0"
WRONG_NO_INPUT: dict[str, dict[str, object]] = {
    "6.2": {
        "the chapter's example, renamed": ("w1 w2 w3 w4 w5 w6", ["w1 w2 w3 w4"],
                                           "v1 v2 v3 v4 v5 v6 v7"),
        # a hostile review's find: the chapter's example with its reference listed twice
        "the chapter's example, reference listed twice": ("a b c d e f", ["a b c d", "a b c d"],
                                                          "p q r s t u v"),
        "the chapter's example, a far reference added": (
            "a b c d e f", ["a b c d", "x y z w q r s t u v w"], "p q r s t u v"),
        # the second review: punctuation hid the copy from a whitespace count
        "the chapter's example, its last word a comma": ("a b c d e,", ["a b c d"],
                                                        "u v w x y z q"),
        "the chapter's example, a hyphen-newline": ("a b c d e f-\ng", ["a b c d"],
                                                   "u v w x y z q"),
        # the chapter's example scaled by a word or two (each lowers BLEU by sacrebleu)
        "the chapter's example, one word added to candidate and reference": (
            "a b c d e f g", ["a b c d e"], "u v w x y z q r"),
        "the chapter's example, one word dropped from candidate and reference": (
            "a b c d e", ["a b c"], "u v w x y z"),
        "the chapter's example, two words added, capitals and commas": (
            "A, b, c, d, e, f, g, h", ["A b c d e f"], "p q r s t u v w x"),
        "the chapter's example, one word added, a far reference too": (
            "a b c d e f g", ["a b c d e", "k l m n o p q r s t u v w"], "u v w x y z q r"),
        "the extra is the candidate (raises BLEU)": ("the cat sat on mats", ["the cat sat"],
                                                     "the cat sat on mats"),
        "an extra farther than the reference (no change)": (
            "the cat sat on mats", ["the cat sat"], "dogs run"),
        "longest-reference rule (no change under closest)": (
            "the cat sat on mats", ["the cat sat"],
            "one two three four five six seven eight nine ten eleven twelve"),
        "references as a string": ("the cat sat on mats", "the cat sat",
                                   "dogs never sleep in the rain"),
        "another order": (["the cat sat"], "the cat sat on mats",
                          "dogs never sleep in the rain"),
    },
    "8.2": {
        "the default signature": {"knob": "case",
                                  "signature": f"nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|{V}"},
        "right signature, another knob named": {
            "knob": "tok", "signature": f"nrefs:1|case:lc|eff:no|tok:13a|smooth:exp|{V}"},
        "another knob's signature": {
            "knob": "smooth", "signature": f"nrefs:1|case:mixed|eff:no|tok:13a|smooth:none|{V}"},
        "two knobs changed": {
            "knob": "case", "signature": f"nrefs:1|case:lc|eff:no|tok:intl|smooth:exp|{V}"},
        "no signature": {"knob": "case"},
    },
    "10.1": {
        "the real BLEU (C = 5, D = 1)": {"JDExploreAcademy": 33.51, "HuaweiTSC": 29.81,
                                         "Online-G": 29.63, "Online-A": 27.31},
        "people's own order (tau = 1)": {"JDExploreAcademy": 4, "HuaweiTSC": 3,
                                         "Online-A": 2, "Online-G": 1},
        "the full reverse (tau = -1, JD last)": {"JDExploreAcademy": 1, "HuaweiTSC": 2,
                                                 "Online-A": 3, "Online-G": 4},
        "z read in the table's row order (tau = 1/3)": {"JDExploreAcademy": 4, "Online-A": 3,
                                                        "Online-G": 2, "HuaweiTSC": 1},
        "tau = 0 with another system first": {"HuaweiTSC": 4, "Online-G": 3,
                                              "JDExploreAcademy": 2, "Online-A": 1},
        "ties (all equal)": {"JDExploreAcademy": 30, "HuaweiTSC": 30, "Online-A": 30,
                             "Online-G": 30},
        "a system missing": {"JDExploreAcademy": 40, "Online-G": 30, "Online-A": 20},
        "strings for scores": {"JDExploreAcademy": "40", "Online-G": "30", "Online-A": "20",
                               "HuaweiTSC": "10"},
        # the reasoned order (C = D = 3, JDExploreAcademy first) in values that are no BLEU
        "a negative score": {"JDExploreAcademy": 40.0, "Online-G": 30.0, "Online-A": 20.0,
                             "HuaweiTSC": -10.0},
        "above 100": {"JDExploreAcademy": 140.0, "Online-G": 30.0, "Online-A": 20.0,
                      "HuaweiTSC": 10.0},
        "NaN": {"JDExploreAcademy": 40.0, "Online-G": 30.0, "Online-A": 20.0,
                "HuaweiTSC": float("nan")},
        "a bool": {"JDExploreAcademy": 40.0, "Online-G": 30.0, "Online-A": 20.0,
                   "HuaweiTSC": False},
        "the tau itself": 0.0,
        "a list in the right order": ["JDExploreAcademy", "Online-G", "Online-A", "HuaweiTSC"],
    },
}
RIGHT_NO_INPUT: dict[str, object] = {
    "6.2": ("the cat sat on the mat all day", ["the cat sat on the mat"],
            "we spent all day at home with the kids"),
    "8.2": {"knob": "case", "signature": f"nrefs:1|case:lc|eff:no|tok:13a|smooth:exp|{V}"},
    "10.1": {"JDExploreAcademy": 40.0, "Online-G": 30.0, "Online-A": 20.0, "HuaweiTSC": 10.0},
}
#: right answers of the self-assessed exercises (the notebooks' solutions)
RIGHT_RUBRIC: dict[str, object] = {
    "6.3": {"reference": "The meeting was postponed because the chairman fell ill.",
            "fluent": "They delayed the session since the president got sick.",
            "garbage": "The meeting was postponed because the chairman the chairman fell ill."},
    "9.2": {"AISP-SJTU", "Online-G"},
}
NO_INPUT = [(ex_id, name) for ex_id, variants in WRONG_NO_INPUT.items() for name in variants]


def _checker_verdict(ex_id: str, value: object) -> judge.Verdict:
    """What ``bleu-lesson check`` says when the world sends ``value`` back for ``()``."""
    ex = exercises.EXERCISES[ex_id]
    reply = {"status": "done", "results": [{"value": wire.encode(value), "after": []}]}
    return judge.judge_exercise(ex, reply, [()], 0)


#: the construct exercises whose wrong variants live in their chapters' own variant files
#: (each variant there fails the notebook check and the checker's verdict)
ELSEWHERE = {**{ex_id: len(v) for ex_id, v in C1.WRONG.items()},
             "3.1": len(C2.WRONG_31) + len(C2.WRONG_31_OTHER), "5.1": len(C2.WRONG_51),
             "7.1": len(C3.WRONG), "8.1": len(C3.WRONG_8_1)}


def test_every_exercise_is_judged_with_variants_or_has_a_rubric():
    assert all(n >= 3 for n in ELSEWHERE.values()), ELSEWHERE
    for ex in exercises.EXERCISES.values():
        judged = ex.id in WRONG or ex.id in WRONG_NO_INPUT or ex.id in ELSEWHERE
        if ex.id in ELSEWHERE:
            continue
        assert judged != bool(ex.rubric), (ex.id, "needs wrong variants or a rubric, not both")
        if judged:
            assert ex.id in RIGHT or ex.id in RIGHT_NO_INPUT, ex.id
        else:
            assert ex.id in RIGHT_RUBRIC, ex.id


@pytest.mark.parametrize("ex_id,name", NO_INPUT)
def test_a_wrong_answer_without_input_fails_the_notebook_and_the_checker(ex_id, name):
    value = WRONG_NO_INPUT[ex_id][name]
    assert exercises.run(ex_id, lambda: value).status in ("fail", "error"), (ex_id, name)
    assert _checker_verdict(ex_id, value).status in ("fail", "error"), (ex_id, name)


@pytest.mark.parametrize("ex_id", sorted(RIGHT_NO_INPUT))
def test_a_right_answer_without_input_passes_both(ex_id):
    value = RIGHT_NO_INPUT[ex_id]
    assert exercises.run(ex_id, lambda: value).status == "pass", ex_id
    assert _checker_verdict(ex_id, value).status == "pass", ex_id


@pytest.mark.parametrize("ex_id", sorted(RIGHT_RUBRIC))
def test_a_rubric_exercise_is_never_pass(ex_id):
    if ex_id == "9.2" and not os.environ.get("BLEU_LESSON_WMT22_DIR"):
        pytest.skip("9.2 is judged on the WMT22 data")
    value = RIGHT_RUBRIC[ex_id]
    assert exercises.run(ex_id, lambda: value).status == "self-assessed", ex_id
    verdict = _checker_verdict(ex_id, value)
    assert verdict.status == "self-assessed", (ex_id, verdict)
    assert exercises.EXERCISES[ex_id].rubric[:20] in verdict.detail

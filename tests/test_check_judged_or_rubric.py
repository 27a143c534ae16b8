"""Every exercise is either judged by a program that rejects the wrong answers a learner
really gives, or self-assessed against a rubric and never ``pass`` (issue 20, class 2).

The function exercises with inputs keep their wrong variants in
``tests/test_exercise_variants.py`` (``WRONG``). The exercises without input (the answer
is a function of no arguments returning what the learner built or found) keep theirs here:
each variant fails the notebook's ``check`` and the verdict ``bleu-lesson check`` gives on
the same value as the judging world sends it back. The values come from the chapters and
from hand arithmetic, not from the library: 10.1's four systems have 5 concordant pairs
and 1 discordant (Online-G / Online-A), so tau = (5 - 1) / 6; their Spearman rho is
1 - 6 * 2 / (4 * 15) = 0.8; chapter 10's quiz gives 51 and 14 pairs for twelve systems.
"""

from __future__ import annotations

import os

import pytest
from test_exercise_variants import RIGHT, WRONG

from bleu_lesson.grading import judge, wire
from bleu_lesson.teaching import exercises

V = "version:2.4.0"
WRONG_NO_INPUT: dict[str, dict[str, object]] = {
    "6.2": {
        "the chapter's example, renamed": ("w1 w2 w3 w4 w5 w6", ["w1 w2 w3 w4"],
                                           "v1 v2 v3 v4 v5 v6 v7"),
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
        "C / (C + D), pairwise accuracy": 5 / 6,
        "sign flipped": -4 / 6,
        "C - D, not divided": 4,
        "Spearman rho": 0.8,
        "the twelve systems' tau": (51 - 14) / 65,
        "two decimals too few": 0.7,
        "a string": "0.667",
    },
}
RIGHT_NO_INPUT: dict[str, object] = {
    "6.2": ("the cat sat on mats", ["the cat sat"], "dogs never sleep in the rain"),
    "8.2": {"knob": "case", "signature": f"nrefs:1|case:lc|eff:no|tok:13a|smooth:exp|{V}"},
    "10.1": 4 / 6,
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


def test_every_exercise_is_judged_with_variants_or_has_a_rubric():
    for ex in exercises.EXERCISES.values():
        judged = ex.id in WRONG or ex.id in WRONG_NO_INPUT
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

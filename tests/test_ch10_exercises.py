"""Chapter 10's exercises (bleu_lesson/teaching/chapters/ch10.py): a right, a wrong, a crashing
and an unfinished answer for each; the reference values are checked by hand arithmetic."""

from __future__ import annotations

from itertools import permutations

import pytest

from bleu_lesson.teaching import exercises
from bleu_lesson.teaching.chapters import ch10

#: 10.1's answer, reasoned by hand: JDExploreAcademy first (3 concordant pairs), the other
#: three in the reverse of people's order (3 discordant pairs)
TAU_ZERO = {"JDExploreAcademy": 40.0, "Online-G": 30.0, "Online-A": 20.0, "HuaweiTSC": 10.0}


def right_accuracy(metric, human):   # written as a learner would, not with the library
    names = list(metric)
    right = judged = 0
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            dh = human[a] - human[b]
            if dh:
                judged += 1
                right += (metric[a] - metric[b]) * dh > 0
    return right / judged


def right_strongest(metric, human):
    best, gap = None, 0
    names = list(metric)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            dm, dh = metric[a] - metric[b], human[a] - human[b]
            if dm * dh < 0 and abs(dh) > gap:
                best, gap = ((a, b) if dh > 0 else (b, a)), abs(dh)
    return best


def test_the_exercises_are_registered():
    assert [ex.id for ex in ch10.EXERCISES] == ["10.1", "10.2", "10.3"]
    for ex in ch10.EXERCISES:
        assert exercises.EXERCISES[ex.id] is ex and ex.chapter == "10"


def test_reference_values_by_hand():
    acc = exercises.EXERCISES["10.2"].reference
    # case 4: metric a 1, b 2, c 2, d 0; people a 2, b 5, c 5, d 9 (b, c tied: left out)
    #   ab (-1, -3) right, ac (-1, -3) right, ad (+1, -7) wrong, bd (+2, -4) wrong,
    #   cd (+2, -4) wrong -> 2/5
    # case 5: metric a 1, b 1, c 5; people .1 .2 .3: ab tied by the metric (wrong),
    #   ac (-4, -.2) right, bc (-4, -.1) right -> 2/3
    # case 6: metric a 1, b 1, c 0; people .3 .2 .1: ab tied by the metric (wrong), people
    #   prefer a, the name that sorts first; ac (+1, +.2) right, bc (+1, +.1) right -> 2/3
    # case 7: metric a 2, b 3, c 4, d 0, e 1; people .3 .2 .1 0 -.9: ab, ac, bc and de
    #   discordant, the six pairs across (a, b, c) x (d, e) concordant -> 6/10
    expected = [1.0, 0.0, 5 / 6, 2 / 5, 2 / 3, 2 / 3, 6 / 10]
    assert [acc(*case) for case in ch10._PAIRS_CASES] == pytest.approx(expected)
    strongest = exercises.EXERCISES["10.3"].reference
    assert strongest(*ch10._PAIRS_CASES[0]) is None
    assert strongest(*ch10._PAIRS_CASES[1]) == ("a", "c")   # people: a .3 vs c .1
    assert strongest(*ch10._PAIRS_CASES[2]) == ("Online-A", "Online-G")
    assert strongest(*ch10._PAIRS_CASES[5]) is None   # a metric tie is not a disagreement
    # case 7: human gaps of the discordant pairs: ab .1, ac .2, bc .1, de .9 -> (d, e),
    # neighbours in people's ranking, while a and c are two places apart in both rankings
    assert strongest(*ch10._PAIRS_CASES[6]) == ("d", "e")


@pytest.mark.parametrize(("exercise", "right", "wrong"), [
    ("10.1", lambda: dict(TAU_ZERO), lambda: dict(ch10.TAU_BLEU)),
    ("10.2", right_accuracy, lambda m, h: 1.0),
    ("10.3", right_strongest, lambda m, h: None),
])
def test_right_wrong_stub(exercise, right, wrong):
    assert exercises.run(exercise, right).status == "pass"
    assert exercises.run(exercise, wrong).status == "fail"
    assert exercises.run(exercise, ...).status == "not-done"
    if exercise != "10.1":
        def stub(metric, human):
            raise NotImplementedError

        def crash(metric, human):
            return metric["no such system"]

        assert exercises.run(exercise, stub).status == "not-done"
        assert exercises.run(exercise, crash).status == "error"


def _hand_tau(bleu: dict) -> tuple[int, int]:
    """(C, D) of ``bleu`` against people's order, counted pair by pair by hand rules."""
    # people's order by the published z: -0.026, -0.034, -0.083, -0.098
    people = ["JDExploreAcademy", "HuaweiTSC", "Online-A", "Online-G"]
    c = d = 0
    for i, a in enumerate(people):
        for b in people[i + 1:]:          # people prefer a to b
            if bleu[a] > bleu[b]:
                c += 1
            else:
                d += 1
    return c, d


def test_exactly_the_reasoned_order_passes_10_1():
    """Of the 24 orders of four BLEU scores, 10.1 passes exactly those with C = D by hand and
    JDExploreAcademy first: one order, the reasoned one (G > A > H below JD)."""
    systems = sorted(ch10.TAU_HUMAN)
    passed, by_hand = [], []
    for order in permutations(systems):
        bleu = {name: float(40 - 10 * k) for k, name in enumerate(order)}
        if exercises.run("10.1", lambda b=bleu: b).status == "pass":
            passed.append(order)
        c, d = _hand_tau(bleu)
        if c == d and order[0] == "JDExploreAcademy":
            by_hand.append(order)
    assert passed == by_hand == [("JDExploreAcademy", "Online-G", "Online-A", "HuaweiTSC")]


#: 10.1 answers in the reasoned order (C = D = 3 by hand, JDExploreAcademy first) whose
#: values are not BLEU scores: each must fail, in the notebook and in the grader
NOT_BLEU = {
    "a negative score": {**TAU_ZERO, "HuaweiTSC": -3.0},
    "above 100": {**TAU_ZERO, "JDExploreAcademy": 140.0},
    "infinity on top": {**TAU_ZERO, "JDExploreAcademy": float("inf")},
    "NaN": {**TAU_ZERO, "HuaweiTSC": float("nan")},
    "a bool": {**TAU_ZERO, "HuaweiTSC": False},
    "a string": {**TAU_ZERO, "HuaweiTSC": "10"},
}


@pytest.mark.parametrize("name", list(NOT_BLEU))
def test_values_that_are_not_bleu_scores_fail_10_1(name):
    from test_sandbox_judge import _verdict

    answer = NOT_BLEU[name]
    if name in ("a negative score", "above 100", "infinity on top"):
        assert _hand_tau(answer) == (3, 3)  # the order alone would pass: the range decides
    result = exercises.run("10.1", lambda: answer)
    assert result.status == "fail", result
    said = result.detail.split("得到 (got)")[1]  # the judge's own words, not the task's
    assert ("0 到 100" in said) == (name in ("a negative score", "above 100",
                                                       "infinity on top"))
    assert _verdict("10.1", lambda: answer).status == "fail"


def test_the_ends_of_the_range_pass_10_1():
    """0 and 100 are BLEU scores (an empty match, a copy of the reference)."""
    from test_sandbox_judge import _verdict

    answer = {**TAU_ZERO, "JDExploreAcademy": 100, "HuaweiTSC": 0.0}
    assert exercises.run("10.1", lambda: answer).status == "pass"
    assert _verdict("10.1", lambda: answer).status == "pass"


def test_scores_as_fractions_pass_10_1():
    """A twenty-third hostile review: Fractions (as chapter 1 writes precisions) were refused
    with "must be a finite number", in the notebook and where answers are judged."""
    from fractions import Fraction

    from test_sandbox_judge import _verdict

    answer = {k: Fraction(v).limit_denominator(1000) for k, v in TAU_ZERO.items()}
    assert exercises.run("10.1", lambda: answer).status == "pass"
    assert _verdict("10.1", lambda: answer).status == "pass"


def test_any_scale_passes_and_a_wrong_answer_learns_only_its_own_counts(capsys):
    assert exercises.run("10.1", lambda: {"JDExploreAcademy": 0.9, "Online-G": 0.5,
                                          "Online-A": 0.2, "HuaweiTSC": 0}).status == "pass"
    exercises.check("10.1", lambda: dict(ch10.TAU_BLEU))
    out = capsys.readouterr().out
    assert "C = 5, D = 1" in out and "Online-G > Online-A" not in out and "40" not in out
    exercises.check("10.1", lambda: 0.0)
    assert "dict" in capsys.readouterr().out


def test_quiz_is_registered():
    from bleu_lesson.teaching import quiz

    assert len(quiz.QUIZZES["10"]) == 3
    right = [q.choices[q.correct_index].text for q in quiz.QUIZZES["10"]]
    assert right[0].startswith("(51 − 14) / 65")

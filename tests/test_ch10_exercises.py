"""Chapter 10's exercises (bleu_lesson/teaching/chapters/ch10.py): a right, a wrong, a crashing
and an unfinished answer for each; the reference values are checked by hand arithmetic."""

from __future__ import annotations

import pytest

from bleu_lesson.teaching import exercises
from bleu_lesson.teaching.chapters import ch10


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
    # JD > Huawei > Online-G > Online-A by BLEU; people put Online-A (-0.083) above Online-G
    # (-0.098): one discordant pair of six -> tau = (5 - 1) / 6, accuracy 5/6
    ex = exercises.EXERCISES["10.1"]
    assert ex.reference() == pytest.approx(4 / 6)
    acc = exercises.EXERCISES["10.2"].reference
    # case 4: metric a 1, b 2, c 2, d 0; people a 2, b 5, c 5, d 9 (b, c tied: left out)
    #   ab (-1, -3) right, ac (-1, -3) right, ad (+1, -7) wrong, bd (+2, -4) wrong,
    #   cd (+2, -4) wrong -> 2/5
    # case 5: metric a 1, b 1, c 5; people .1 .2 .3: ab tied by the metric (wrong),
    #   ac (-4, -.2) right, bc (-4, -.1) right -> 2/3
    expected = [1.0, 0.0, 5 / 6, 2 / 5, 2 / 3]
    assert [acc(*case) for case in ch10._PAIRS_CASES] == pytest.approx(expected)
    strongest = exercises.EXERCISES["10.3"].reference
    assert strongest(*ch10._PAIRS_CASES[0]) is None
    assert strongest(*ch10._PAIRS_CASES[1]) == ("a", "c")   # people: a .3 vs c .1
    assert strongest(*ch10._PAIRS_CASES[2]) == ("Online-A", "Online-G")


@pytest.mark.parametrize(("exercise", "right", "wrong"), [
    ("10.1", lambda: 2 / 3, lambda: 0.5),
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


def test_rounded_hand_answer_passes():
    assert exercises.run("10.1", lambda: 0.667).status == "pass"
    assert exercises.run("10.1", lambda: 0.67).status == "fail"


def test_a_string_is_told_to_be_a_number(capsys):
    """A learner who writes "0.6667" (quoted) is told to write a number, not only the tau hint."""
    assert exercises.run("10.1", lambda: "0.6667").status == "fail"
    exercises.check("10.1", lambda: "0.6667")
    out = capsys.readouterr().out
    assert "请填数字，不是字符串" in out
    exercises.check("10.1", lambda: None)
    assert "请填数字" in capsys.readouterr().out
    exercises.check("10.1", lambda: 0.5)  # a wrong number is told it is wrong, not the answer
    out = capsys.readouterr().out
    assert "请填数字" not in out and "不对" in out and "0.666" not in out


def test_quiz_is_registered():
    from bleu_lesson.teaching import quiz

    assert len(quiz.QUIZZES["10"]) == 3
    right = [q.choices[q.correct_index].text for q in quiz.QUIZZES["10"]]
    assert right[0].startswith("(51 − 14) / 65")

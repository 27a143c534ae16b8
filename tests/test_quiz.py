"""The chapter quizzes: their data is well formed, and the widget works headlessly."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from notebook_tools import chapters

quiz = pytest.importorskip("bleu_lesson.teaching.quiz")

CHAPTERS = [p.name[:2] for p in chapters()]  # every notebook has its quiz
ALL_QUESTIONS = [(ch, i, q) for ch in CHAPTERS for i, q in enumerate(quiz.QUIZZES.get(ch, ()))]
IDS = [f"{ch}-q{i + 1}" for ch, i, _ in ALL_QUESTIONS]


@pytest.fixture(autouse=True)
def _clean_answers():
    quiz.reset()
    yield
    quiz.reset()


def test_every_chapter_has_two_or_three_questions():
    assert sorted(quiz.QUIZZES) == CHAPTERS
    for chapter, questions in quiz.QUIZZES.items():
        assert isinstance(questions, tuple)
        assert 2 <= len(questions) <= 3, chapter


@pytest.mark.parametrize(("chapter", "index", "question"), ALL_QUESTIONS, ids=IDS)
def test_question_is_well_formed(chapter, index, question):
    assert isinstance(question, quiz.Question)
    assert question.prompt.strip()
    assert isinstance(question.choices, tuple) and len(question.choices) >= 2
    assert sum(c.correct for c in question.choices) == 1
    texts = [c.text.strip() for c in question.choices]
    assert len(set(texts)) == len(texts), f"duplicate choices in {chapter} question {index + 1}"
    for choice in question.choices:
        assert isinstance(choice, quiz.Choice)
        assert choice.text.strip()
        assert isinstance(choice.correct, bool)
        assert choice.explanation.strip(), f"{chapter} q{index + 1}: {choice.text!r} unexplained"
        assert choice.explanation.strip() != choice.text.strip()


def test_dataclasses_are_frozen_and_validated():
    q = quiz.QUIZZES["03"][0]
    with pytest.raises(AttributeError):
        q.prompt = "changed"
    with pytest.raises(AttributeError):
        q.choices[0].correct = not q.choices[0].correct
    two_right = (quiz.Choice("a", True, "why a"), quiz.Choice("b", True, "why b"))
    with pytest.raises(ValueError, match="exactly one correct"):
        quiz.Question("?", two_right)


def test_correct_answer_is_not_always_in_the_same_place():
    positions = {q.correct_index for _, _, q in ALL_QUESTIONS}
    assert len(positions) >= 3
    for chapter, questions in quiz.QUIZZES.items():
        assert len({q.correct_index for q in questions}) > 1, chapter


def _longest(question) -> bool | None:
    """Whether the correct choice is strictly the longest (None: all choices equally long)."""
    lengths = [len(c.text) for c in question.choices]
    if len(set(lengths)) == 1:
        return None
    right = lengths[question.correct_index]
    return right > max(n for i, n in enumerate(lengths) if i != question.correct_index)


def longest_share(questions) -> tuple[int, int]:
    """``(right choice strictly longest, choices differ in length)`` over ``questions``.

    >>> q = quiz.Question("?", (quiz.Choice("long and right", True, "a"),
    ...                         quiz.Choice("short", False, "b")))
    >>> longest_share([q])
    (1, 1)
    """
    verdicts = [_longest(q) for q in questions]
    return sum(v is True for v in verdicts), sum(v is not None for v in verdicts)


def test_the_right_choice_is_not_given_away_by_its_length():
    """Over every question of every chapter (the registry): the right choice is the strictly
    longest in at most 40% of the questions whose choices differ in length."""
    from bleu_lesson.teaching.chapters import registry

    questions = [q for ch in registry().values() for q in ch.questions]
    longest, differ = longest_share(questions)
    assert differ >= 10, "most questions have choices of different lengths"
    assert longest <= 0.4 * differ, (
        f"the right choice is the longest in {longest} of {differ} questions: "
        + "; ".join(q.prompt[:30] for q in questions if _longest(q)))


def test_the_length_rule_catches_a_quiz_written_the_easy_way():
    """The same count on the questions rewritten so the right choice carries every detail:
    it must exceed the bound."""
    from bleu_lesson.teaching.chapters import registry

    padded = []
    for q in (q for ch in registry().values() for q in ch.questions):
        longest = max(len(c.text) for c in q.choices)
        choices = tuple(quiz.Choice(c.text + "（因为" + "详" * longest + "）" if c.correct
                                    else c.text, c.correct, c.explanation)
                        for c in q.choices)
        padded.append(quiz.Question(q.prompt, choices))
    longest, differ = longest_share(padded)
    assert longest > 0.4 * differ


def test_the_right_choice_moves_around():
    """As shown (QUIZZES): no position holds more than 40% of the right answers, every
    position holds some, and no chapter puts all its right answers in one place."""
    from collections import Counter

    shown = [q for qs in quiz.QUIZZES.values() for q in qs]
    four = [q.correct_index for q in shown if len(q.choices) == 4]
    counts = Counter(four)
    assert set(counts) == {0, 1, 2, 3}
    assert max(counts.values()) <= 0.4 * len(four), counts


def test_the_seed_numbers_are_taught_right():
    # chapter 0 asks for the seed's single-reference BLEU: the code gives 0.0000, not 0.6065
    q = next(q for q in quiz.QUIZZES["00"] if "单参考例子" in q.prompt)
    right = q.choices[q.correct_index]
    assert right.text == "0.0000"
    assert any(c.text == "0.6065" and not c.correct for c in q.choices)


def test_render_feedback_verdicts():
    q = quiz.QUIZZES["05"][0]
    assert quiz.render_feedback(q, None) == ""
    for k, choice in enumerate(q.choices):
        html = quiz.render_feedback(q, k)
        assert (quiz.CORRECT in html) is choice.correct
        assert (quiz.WRONG in html) is (not choice.correct)
    with pytest.raises(ValueError, match="choice_index"):
        quiz.render_feedback(q, len(q.choices))


def test_render_feedback_escapes_html():
    q = quiz.Question("<b>?</b>", (quiz.Choice("<x>", True, "a < b & `c`"),
                                    quiz.Choice("y", False, "no")))
    html = quiz.render_feedback(q, 0)
    assert "<x>" not in html and "&lt;x&gt;" in html
    assert "a &lt; b &amp; <code>c</code>" in html


def _plain(html: str) -> str:
    text = re.sub(r"<[^>]+>", "", html)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"') \
        .replace("&#x27;", "'").replace("&amp;", "&")


def _plain_markup(text: str) -> str:
    return text.replace("`", "")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_widget_headless(chapter):
    widget = quiz.Quiz(chapter)
    questions = quiz.QUIZZES[chapter]
    assert len(widget.radios) == len(widget.feedback) == len(questions)
    for radio, feedback in zip(widget.radios, widget.feedback, strict=True):
        assert radio.value is None
        assert feedback.value == ""
        assert "bleu-quiz-feedback" in feedback._dom_classes
    assert widget.summary.value == f"测验 (quiz): 0/{len(questions)} 答对"

    for i, (radio, feedback, question) in enumerate(
            zip(widget.radios, widget.feedback, questions, strict=True)):
        assert [value for _, value in radio.options] == list(range(len(question.choices)))
        for k, choice in enumerate(question.choices):
            radio.value = k
            shown = _plain(feedback.value)
            verdict = quiz.CORRECT if choice.correct else quiz.WRONG
            assert verdict in shown
            other = quiz.WRONG if choice.correct else quiz.CORRECT
            assert other not in shown
            assert _plain_markup(choice.explanation) in shown
            assert quiz.answers[chapter, i] is choice.correct
        # leave each question answered right, one after the other
        radio.value = question.correct_index
        assert widget.summary.value == f"测验 (quiz): {i + 1}/{len(questions)} 答对"
    assert quiz.progress_line(chapter) == f"测验 (quiz): {len(questions)}/{len(questions)} 答对"


def test_choices_show_no_literal_markdown_backticks():
    """A learner's review: the options read "`BleuStats`" (ch06 Q1), "`method1`" (ch08 Q1):
    a RadioButtons label is plain text, so a code span's backticks showed as typed."""
    seen = 0
    for chapter in CHAPTERS:
        widget = quiz.Quiz(chapter)
        for radio, question in zip(widget.radios, widget.questions, strict=True):
            for (label, _), choice in zip(radio.options, question.choices, strict=True):
                assert "`" not in label, (chapter, label)
                assert label.endswith(_plain_markup(choice.text)), (chapter, label)
                seen += "`" in choice.text
    assert seen, "no choice has a code span: this test tests nothing"
    ch06 = [label for radio in quiz.Quiz("06").radios for label, _ in radio.options]
    assert any("BleuStats" in label for label in ch06)


def test_the_saved_quizzes_show_no_literal_backticks_either():
    """What a learner sees before running anything (and the web edition) is the widget
    state saved in the chapter: its option labels hold no backticks either."""
    import json

    from notebook_tools import chapters

    state_key = "application/vnd.jupyter.widget-state+json"
    for path in chapters():
        nb = json.loads(path.read_text(encoding="utf-8"))
        state = nb["metadata"].get("widgets", {}).get(state_key, {}).get("state", {})
        labels = [label for model in state.values()
                  for label in model.get("state", {}).get("_options_labels", [])]
        assert not [label for label in labels if "`" in label], path.name


def test_answers_keep_the_latest_pick_and_progress_counts_right_ones():
    widget = quiz.Quiz(3)  # an int works too
    q0 = widget.questions[0]
    wrong = next(k for k, c in enumerate(q0.choices) if not c.correct)
    widget.radios[0].value = q0.correct_index
    widget.radios[0].value = wrong
    assert quiz.answers == {("03", 0): False}
    assert quiz.progress_line("03") == "测验 (quiz): 0/3 答对"
    widget.radios[0].value = q0.correct_index
    widget.radios[1].value = widget.questions[1].correct_index
    assert quiz.progress_line("3") == "测验 (quiz): 2/3 答对"
    assert quiz.progress_line("04").startswith("测验 (quiz): 0/")  # other chapters untouched
    quiz.reset("03")
    assert quiz.answers == {}


def test_unknown_chapter():
    for bad in ("99", "xx", None):
        with pytest.raises(ValueError, match="no quiz for chapter"):
            quiz.Quiz(bad)
        with pytest.raises(ValueError, match="no quiz for chapter"):
            quiz.progress_line(bad)


def test_show_prints_questions_and_choices_without_answers(capsys):
    quiz.show("07")
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "第 7 章测验 (quiz)：3 题"
    for i, question in enumerate(quiz.QUIZZES["07"], start=1):
        assert f"{i}. {question.prompt}" in lines
        for letter, choice in zip("ABCD", question.choices, strict=False):
            assert f"   {letter}. {choice.text}" in lines
            assert choice.explanation not in out
    assert quiz.CORRECT not in out and quiz.WRONG not in out


def test_show_is_stable_across_processes():
    # a handout printed twice is the same handout: no dependence on hash seeds
    code = "from bleu_lesson.teaching import quiz; quiz.show('01')"
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}, check=True).stdout
            for seed in ("1", "2")}
    assert len(outs) == 1


def test_import_bleu_lesson_does_not_import_the_quiz():
    code = "import sys, bleu_lesson; print('bleu_lesson.teaching.quiz' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


def test_questions_and_exercises_import_without_ipywidgets():
    # a chapter module needs Exercise, Question and Choice, never the widget library
    code = ("import sys; sys.modules['ipywidgets'] = None\n"
            "from bleu_lesson.teaching.exercises import Exercise, EXERCISES\n"
            "from bleu_lesson.teaching.quiz import Question, Choice, QUIZZES\n"
            "from bleu_lesson.teaching.chapters import registry\n"
            "print(len(registry()), len(EXERCISES), len(QUIZZES))\n"
            "try:\n"
            "    from bleu_lesson.teaching.quiz import Quiz\n"
            "except ImportError:\n"
            "    print('widget needs ipywidgets')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    n_chapters, n_exercises, n_quizzes = map(int, out[0].split())
    assert n_chapters == n_quizzes >= 10 and n_exercises >= 10
    assert out[1] == "widget needs ipywidgets"


def test_quiz_questions_come_from_the_chapter_modules():
    from bleu_lesson.teaching.chapters import registry

    for chapter_id, questions in quiz.QUIZZES.items():
        written = registry()[chapter_id].questions
        assert sorted(q.prompt for q in questions) == sorted(q.prompt for q in written)


def _right(chapter_id, text):
    """The right choice of the chapter module's question whose prompt contains ``text``."""
    from bleu_lesson.teaching.chapters import chapter

    q = next(q for q in chapter(chapter_id).questions if text in q.prompt)
    return q.choices[q.correct_index]


def _wrong(chapter_id, text, choice_text):
    from bleu_lesson.teaching.chapters import chapter

    q = next(q for q in chapter(chapter_id).questions if text in q.prompt)
    return next(c for c in q.choices if c.text.startswith(choice_text))


def test_transfer_questions_state_true_numbers():
    """The issue-13 questions: their right answers' numbers, from hand arithmetic/sacrebleu."""
    import math

    assert round(math.exp(1 - 2000 / 1800), 3) == 0.895
    assert "0.89" in _right("04", "c = 1800").text
    assert "7/8" in _right("05", "(1/2, 1/4, 1/8, 0)").text and 1 / 2 + 1 / 4 + 1 / 8 == 7 / 8
    sacrebleu = pytest.importorskip("sacrebleu")
    before = sacrebleu.sentence_bleu("a b c d e f", ["a b c d"]).score
    after = sacrebleu.sentence_bleu("a b c d e f", ["a b c d", "u v w x y z q"]).score
    explanation = _right("06", "再加一条参考译文").explanation
    assert f"{before:.2f}" in explanation and f"{after:.2f}" in explanation and after < before
    assert math.comb(12, 2) == 66 and round(0.05 / 66, 5) == 0.00076
    assert "66" in _right("09", "p = 0.03").text


def test_more_transfer_questions_state_true_numbers():
    from collections import Counter

    def grams(tokens, n):
        return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))

    cand, ref = "the cat the cat".split(), "the cat sat on the mat".split()
    p = [(sum((grams(cand, n) & grams(ref, n)).values()), sum(grams(cand, n).values()))
         for n in (1, 2)]
    assert p == [(3, 4), (1, 3)]
    assert _right("03", "the cat the cat").text.startswith("p_1 = 3/4，p_2 = 1/3")

    sacrebleu = pytest.importorskip("sacrebleu")
    from bleu_lesson.data.datasets import TOY_CORPUS

    streams = TOY_CORPUS.reference_streams("both")
    weak, good = list(TOY_CORPUS.systems["weak"]), list(TOY_CORPUS.systems["good"])
    fixed = weak[:8] + [good[8]] + weak[9:]
    before = sacrebleu.corpus_bleu(weak, streams).score / 100
    after = sacrebleu.corpus_bleu(fixed, streams).score / 100
    explanation = _right("07", "30%").explanation
    assert f"{before:.4f}" in explanation and f"{after:.4f}" in explanation


def test_plausible_distractors_are_wrong_for_the_reason_they_give():
    """Issue 13's replaced distractors, each checked against an independent source."""
    # 08: NLTK's default is method0, not method1 (method1 gives a different, larger score)
    bleu_score = pytest.importorskip("nltk.translate.bleu_score")
    hyp, ref = "the cat is on the mat".split(), "the cat is sitting on the mat".split()
    default = bleu_score.sentence_bleu([ref], hyp)
    method0 = bleu_score.sentence_bleu([ref], hyp,
                                       smoothing_function=bleu_score.SmoothingFunction().method0)
    method1 = bleu_score.sentence_bleu([ref], hyp,
                                       smoothing_function=bleu_score.SmoothingFunction().method1)
    assert default == method0 < 1e-70 and method1 > 0.1
    nltk_choice = _wrong("08", "NLTK 的 `sentence_bleu`", "NLTK 默认用 `method1`")
    assert not nltk_choice.correct and "method0" in nltk_choice.explanation
    # 06: score_stats takes one record with one ref_len, chosen when the counts were made
    import inspect

    from bleu_lesson.core.bleu import score_stats

    assert "references" not in inspect.signature(score_stats).parameters
    assert not _wrong("06", "`score_stats`", "候选的计数和每条参考的长度列表").correct
    # 01: one token, p_1 = 1/1, yet the seed's score is 0 (no 2-4-grams), not a rounding
    # error; last, as it needs the seed text, which a fresh clone does not have
    from notebook_tools import seed_skip_reason
    from seed_oracle import SeedNotFound, load_seed_namespace

    try:
        seed, _ = load_seed_namespace()
    except SeedNotFound as exc:
        pytest.skip(seed_skip_reason(exc))
    score, info = seed["compute_bleu"]("猫坐在垫子上", ["猫坐在垫子上"])
    assert score == 0.0 and info["precisions"] == [1.0, 0.0, 0.0, 0.0]
    assert not _wrong("01", "猫坐在垫子上", "整句一个词元").correct


def test_ch00_question_3_does_not_give_away_question_2():
    """Question 2's answer for one reference is BLEU 0 (p_4 = 0/3); question 3 must not say it."""
    from bleu_lesson.teaching.chapters.ch00 import QUESTIONS
    prompt = QUESTIONS[2].prompt
    assert "0.0000" not in prompt and "从 0" not in prompt, prompt


def test_the_right_choice_follows_no_fixed_step():
    """Read in course order, the right answers' positions do not move by one fixed step
    (e.g. one letter earlier each time), and the shown order is the order the chapter
    modules write."""
    from bleu_lesson.teaching.chapters import registry

    shown = [q for ch in sorted(quiz.QUIZZES) for q in quiz.QUIZZES[ch]]
    written = [q for ch in registry().values() for q in ch.questions]
    assert [q.choices for q in shown] == [q.choices for q in written]
    positions = [q.correct_index for q in shown if len(q.choices) == 4]
    steps = {(b - a) % 4 for a, b in zip(positions, positions[1:])}
    assert len(steps) > 1, positions


def test_zero_precision_question_states_true_numbers():
    """ch05: p = (0.9, 0.8, 0.7, 0) unsmoothed is 0 (sacrebleu); distractors by hand."""
    pytest.importorskip("sacrebleu")
    from sacrebleu.metrics import BLEU

    # counts giving p = 9/10, 8/10, 7/10, 0/10 with c = r = 10 (BP = 1)
    score = BLEU.compute_bleu([9, 8, 7, 0], [10, 10, 10, 10], 10, 10, smooth_method="none").score
    assert score == 0.0
    assert "0" == _right("05", "(0.9, 0.8, 0.7, 0)").text
    arith = _wrong("05", "(0.9, 0.8, 0.7, 0)", "0.6000")
    assert not arith.correct and round((0.9 + 0.8 + 0.7 + 0) / 4, 4) == 0.6
    skipped = _wrong("05", "(0.9, 0.8, 0.7, 0)", "约 0.7958")
    assert not skipped.correct and round((0.9 * 0.8 * 0.7) ** (1 / 3), 4) == 0.7958

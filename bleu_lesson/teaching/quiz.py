"""Short multiple-choice quizzes (测验), two or three questions per chapter.

``QUIZZES["03"]`` holds chapter 3's questions. Each ``Question`` has its choices, and every
``Choice``, right or wrong, carries an explanation that says why. The numbers in the
questions are the ones the chapter's code computes.

- ``show(chapter)`` prints the questions and choices as plain text, for a terminal or a
  printed handout (the chapters show each quiz once, as the widget);
- ``Quiz(chapter)`` is the widget: per question a prompt, ``RadioButtons`` (nothing picked
  at first) and a feedback ``HTML`` (CSS class ``bleu-quiz-feedback``) that shows the
  verdict and the picked choice's explanation;
- ``render_feedback(question, index)`` is the pure function behind the feedback;
- ``answers[(chapter, q_index)]`` is ``True`` or ``False`` for the latest pick of each
  question, and ``progress_line(chapter)`` sums it up.

The questions live with their chapter in ``bleu_lesson/teaching/chapters/``, written with
``Question`` and ``Choice`` from ``bleu_lesson.teaching.questions`` (plain data below the
chapters; this module names them too). Only ``Quiz`` imports ipywidgets.

>>> from bleu_lesson.teaching.quiz import QUIZZES
>>> q = QUIZZES["03"][0]
>>> [c.correct for c in q.choices].count(True)
1
>>> "✔ 正确 (correct)" in render_feedback(q, q.correct_index)
True
>>> reset("03")
>>> progress_line("03")
'测验 (quiz): 0/3 答对'
"""

# The questions are Chinese prose; ruff measures CJK characters at double width, so
# the data lines below are allowed to run past 100 columns.
# ruff: noqa: E501

from __future__ import annotations

import html
import re

from .chapters import chapter_id, registry
from .questions import Choice, Question, question

__all__ = [  # noqa: F822 (EXERCISES, QUIZZES, Quiz: module __getattr__)
    "Choice", "Question", "QUIZZES", "answers", "question",
    "render_feedback", "progress_line", "show", "reset", "Quiz",
]

CORRECT = "✔ 正确 (correct)"
WRONG = "✘ 不对 (not quite)"
FEEDBACK_CLASS = "bleu-quiz-feedback"
LETTERS = "ABCDEFGH"


def _quizzes() -> dict[str, tuple[Question, ...]]:
    """Every chapter's questions, in the order ``bleu_lesson/teaching/chapters/chNN.py``
    writes them: each question places its right choice itself, so its position follows no
    rule a learner could spot ("always A", or one letter earlier each time)."""
    global _QUIZZES
    if _QUIZZES is None:
        _QUIZZES = {
            ch.id: tuple(ch.questions)
            for ch in registry().values() if ch.questions
        }
    return _QUIZZES


_QUIZZES: dict[str, tuple[Question, ...]] | None = None


def __getattr__(name: str):
    if name == "QUIZZES":  # built on first use: it loads every chapter module
        return _quizzes()
    if name == "Quiz":  # the widget needs ipywidgets; Question and Choice do not
        return _quiz_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: ``answers[(chapter, q_index)]``: whether the latest pick for that question was right.
answers: dict[tuple[str, int], bool] = {}


def _chapter(chapter: str | int) -> str:
    try:
        key = chapter_id(chapter)
    except (TypeError, ValueError):
        key = str(chapter)
    if key not in _quizzes():
        raise ValueError(f"no quiz for chapter {chapter!r}; known: {', '.join(_quizzes())}")
    return key


#: A Markdown code span, `like this`
_CODE_SPAN = re.compile(r"`([^`]+)`")


def _inline(text: str) -> str:
    """Escape text for HTML and show `code` spans as <code>."""
    return _CODE_SPAN.sub(r"<code>\1</code>", html.escape(text))


def _label(text: str) -> str:
    """A choice as a ``RadioButtons`` label, which is plain text: a `code` span loses its
    backticks (they showed as typed: "`BleuStats`").

    >>> _label("`BleuStats` 相加")
    'BleuStats 相加'
    """
    return _CODE_SPAN.sub(r"\1", text)


def render_feedback(question: Question, choice_index: int | None) -> str:
    """HTML feedback for one pick: the verdict, then that choice's explanation.

    ``None`` (nothing picked yet) gives an empty string.
    """
    if choice_index is None:
        return ""
    if not isinstance(choice_index, int) or not 0 <= choice_index < len(question.choices):
        raise ValueError(f"choice_index must be 0..{len(question.choices) - 1}, "
                         f"got {choice_index!r}")
    choice = question.choices[choice_index]
    verdict, colour = (CORRECT, "#1a7f37") if choice.correct else (WRONG, "#b42318")
    return (f'<div><b style="color:{colour}">{verdict}</b> '
            f"{LETTERS[choice_index]}. {_inline(choice.text)}</div>"
            f"<div>{_inline(choice.explanation)}</div>")


def progress_line(chapter: str | int) -> str:
    """``"测验 (quiz): 2/3 答对"``: the chapter's questions answered right (latest pick)."""
    key = _chapter(chapter)
    total = len(_quizzes()[key])
    right = sum(1 for i in range(total) if answers.get((key, i)) is True)
    return f"测验 (quiz): {right}/{total} 答对"


def reset(chapter: str | int | None = None) -> None:
    """Forget the recorded answers of one chapter (or of all chapters)."""
    if chapter is None:
        answers.clear()
        return
    key = _chapter(chapter)
    for k in [k for k in answers if k[0] == key]:
        del answers[k]


def show(chapter: str | int) -> None:
    """Print the chapter's questions and choices as plain text (no answers)."""
    key = _chapter(chapter)
    questions = _quizzes()[key]
    print(f"第 {int(key)} 章测验 (quiz)：{len(questions)} 题")
    for q_index, item in enumerate(questions, start=1):
        print(f"{q_index}. {item.prompt}")
        for letter, choice in zip(LETTERS, item.choices, strict=False):
            print(f"   {letter}. {choice.text}")


_QUIZ_CLASS = None


def _quiz_class():
    global _QUIZ_CLASS
    if _QUIZ_CLASS is not None:
        return _QUIZ_CLASS
    import ipywidgets as widgets

    class Quiz(widgets.VBox):
        """The chapter's questions; picking a choice shows its verdict and explanation.

        ``.radios[i]`` is question i's ``RadioButtons`` (value: the choice's index, or
        ``None``), ``.feedback[i]`` its ``HTML`` (class ``bleu-quiz-feedback``), and
        ``.summary`` shows ``progress_line``.
        """

        def __init__(self, chapter: str | int) -> None:
            self.chapter = _chapter(chapter)
            self.questions = _quizzes()[self.chapter]
            self.radios: list[widgets.RadioButtons] = []
            self.feedback: list[widgets.HTML] = []
            children: list[widgets.Widget] = []
            for q_index, item in enumerate(self.questions):
                prompt = widgets.HTML(f"<b>{q_index + 1}.</b> {_inline(item.prompt)}")
                radio = widgets.RadioButtons(
                    options=[(f"{LETTERS[i]}. {_label(c.text)}", i)
                             for i, c in enumerate(item.choices)],
                    value=None, layout=widgets.Layout(width="95%"))
                feedback = widgets.HTML()
                feedback.add_class(FEEDBACK_CLASS)
                radio.observe(lambda change, i=q_index: self._picked(i, change["new"]),
                              names="value")
                self.radios.append(radio)
                self.feedback.append(feedback)
                children += [prompt, radio, feedback]
            self.summary = widgets.HTML(progress_line(self.chapter))
            self.summary.add_class("bleu-quiz-summary")
            super().__init__(children=[*children, self.summary])

        def _picked(self, q_index: int, choice_index: int | None) -> None:
            question = self.questions[q_index]
            self.feedback[q_index].value = render_feedback(question, choice_index)
            if choice_index is not None:
                answers[self.chapter, q_index] = question.choices[choice_index].correct
            self.summary.value = progress_line(self.chapter)

    _QUIZ_CLASS = Quiz
    return Quiz

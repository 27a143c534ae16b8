"""Checks for the learners' exercises (练习): how a check runs and how it reports.

Each exercise (an :class:`~bleu_lesson.teaching.checking.Exercise`, defined with its cases
in ``bleu_lesson/teaching/chapters/``) is in ``EXERCISES`` by id (``"3.1"``: chapter 3,
exercise 1). ``check(id, answer)`` runs the learner's answer on every input (the fixed
cases, then random ones) and prints one of:

- 通过 (pass): every input gave the expected value;
- 未通过 (fail): the first input that did not, with what was expected and what came back
  (also when the answer changed its input);
- 运行出错 (error): the answer raised, with the input and the exception;
- 还没有完成 (not done): the answer is still the stub (``...`` or ``NotImplementedError``);
- 自评 (self-assessed): the numbers hold, and what a program cannot judge is the learner's.

It never shows the solution's code, only values. Results are kept per kernel in
``results`` so a chapter can end with ``progress("03")``. This check runs in the
learner's own kernel: it is feedback for self-study. Marking a class is done by
``bleu-lesson check`` (``bleu_lesson.grading.course``), which judges in its own process.

>>> import math
>>> check("4.1", lambda c, r: 1.0 if c > r else (0.0 if c == 0 else math.exp(1 - r / c)))
✔ 练习 4.1 通过 (passed): 7/7 个测试用例
>>> check("4.1", ...)
… 练习 4.1 还没有完成 (not done yet): 在标记处写代码，然后重新运行这个单元格。
"""

from __future__ import annotations

import copy
import os
import random
from typing import Any

from . import quiz
from .chapters import all_exercises, chapter_id, registry
from .checking import (
    STATUSES,
    CheckResult,
    Exercise,
    run_exercise,
    same,
    shown_input,
    verdict,
)
from .display import show_source

__all__ = ["Exercise", "CheckResult", "EXERCISES", "STATUSES", "RAISE_ENV", "check",
           "check_hidden", "passed", "progress", "results", "run", "show_source_after",
           "verdict", "same", "shown_input"]

#: Every exercise of the course by id, in course order (built once, from the chapters).
EXERCISES: dict[str, Exercise] = all_exercises()


def run(exercise_id: str, answer: Any, rng: random.Random | None = None) -> CheckResult:
    """Check ``answer`` on exercise ``exercise_id`` without printing (see ``run_exercise``)."""
    if exercise_id not in EXERCISES:
        raise ValueError(f"unknown exercise {exercise_id!r}; known: {', '.join(EXERCISES)}")
    return run_exercise(EXERCISES[exercise_id], answer, rng)


#: The latest result of every exercise checked in this kernel.
results: dict[str, CheckResult] = {}


#: Set (to anything but "" or "0") in the environment of a grader that counts a cell that
#: raises as a failed test, such as nbgrader's autograde: then ``check`` also raises
#: AssertionError when the answer does not pass. A learner's own kernel never sets it.
RAISE_ENV = "BLEU_LESSON_CHECK_RAISES"


def check(exercise_id: str, answer: Any) -> None:
    """Check a learner's answer, print the verdict, and remember it for ``progress``;
    under ``BLEU_LESSON_CHECK_RAISES`` (nbgrader), raise AssertionError unless it passed."""
    result = run(exercise_id, answer)
    results[exercise_id] = result
    print(result.message())
    if result.status not in ("pass", "self-assessed") and \
            os.environ.get(RAISE_ENV, "") not in ("", "0"):
        raise AssertionError(f"exercise {exercise_id}: {result.status}")


def passed(exercise_id: str) -> bool:
    """Whether exercise ``exercise_id`` passed its latest ``check`` in this kernel."""
    result = results.get(exercise_id)
    return result is not None and result.status == "pass"


def show_source_after(exercise_id: str, obj: Any) -> None:
    """``show_source(obj)`` once exercise ``exercise_id`` has passed in this kernel; before,
    a one-line note instead. For the library code that *is* an exercise's answer (4.1's
    ``brevity_penalty``): on Run All of an untouched exercise copy it must not appear right
    under the exercise.

    >>> results.pop("4.1", None) and None
    >>> show_source_after("4.1", len)
    … 先通过练习 4.1 再看 len 的源码：让上面的 check("4.1", ...) 通过，再运行这一格。
      (Pass exercise 4.1 first, then run this cell again to see the library's code.)
    """
    if exercise_id not in EXERCISES:
        raise ValueError(f"unknown exercise {exercise_id!r}; known: {', '.join(EXERCISES)}")
    if passed(exercise_id):
        show_source(obj)
        return
    name = getattr(obj, "__name__", repr(obj))
    print(f"… 先通过练习 {exercise_id} 再看 {name} 的源码：让上面的 "
          f"check(\"{exercise_id}\", ...) 通过，再运行这一格。\n"
          f"  (Pass exercise {exercise_id} first, then run this cell again to see the "
          "library's code.)")


def check_hidden(exercise_id: str, answer: Any, seed: int, draws: int = 3) -> None:
    """nbgrader's hidden test of an exercise: judge ``answer`` on ``draws`` draws of the
    exercise's hidden cases from ``seed`` (a number only the instructor's source copy
    holds; ``nbgrader generate_assignment`` removes it from the released copy). Prints
    nothing; raises AssertionError on the first case that fails, or when the answer is
    still the stub.

    >>> check_hidden("4.1", lambda c, r: 1.0 if c > r else 0.0 if c == 0 else
    ...              __import__("math").exp(1 - r / c), 7)
    >>> check_hidden("4.1", lambda c, r: 1.0, 7)
    Traceback (most recent call last):
    ...
    AssertionError: exercise 4.1: a hidden case fails
    """
    if exercise_id not in EXERCISES:
        raise ValueError(f"unknown exercise {exercise_id!r}; known: {', '.join(EXERCISES)}")
    ex = EXERCISES[exercise_id]
    if answer is ... or answer is NotImplemented:
        raise AssertionError(f"exercise {exercise_id}: not done")
    rng = random.Random(seed)
    for _ in range(draws):
        for case in ex.hidden_cases(rng):
            args = copy.deepcopy(case)
            try:
                got = answer(*args) if ex.kind == "function" else answer
            except Exception as exc:
                raise AssertionError(f"exercise {exercise_id}: a hidden case raised "
                                     f"{type(exc).__name__}") from None
            after = tuple(args) if ex.kind == "function" else None
            if not verdict(ex, case, got, after)[0]:
                raise AssertionError(f"exercise {exercise_id}: a hidden case fails")


def progress(chapter: str | int) -> None:
    """Print the status of every exercise of a chapter checked in this kernel, and the
    chapter's quiz score."""
    chapter = chapter_id(chapter)
    info = registry().get(chapter)
    mine = list(info.exercises) if info else []
    labels = {"pass": "✔ 通过", "self-assessed": "◎ 自评", "fail": "✘ 未通过", "error": "✘ 出错",
              "not-done": "… 还没有完成", None: "· 还没有检查"}
    done = sum(1 for ex in mine if ex.id in results and results[ex.id].status == "pass")
    selfs = sum(1 for ex in mine if ex.id in results and
                results[ex.id].status == "self-assessed")
    more = f"，{selfs} 个自评 (self-assessed)" if selfs else ""
    if mine:
        print(f"第 {int(chapter)} 章练习进度 (progress): {done}/{len(mine)} 通过{more}")
    else:
        print(f"第 {int(chapter)} 章没有编程练习 (no exercises in this chapter)")
    for ex in mine:
        status = results[ex.id].status if ex.id in results else None
        print(f"  练习 {ex.id} {ex.title}: {labels[status]}")
    if info and info.questions:
        print(f"  {quiz.progress_line(chapter)}")

"""Checks for the learners' exercises (练习).

Each exercise has an id (``"3.1"``: chapter 3, exercise 1), a few test inputs and the
library function that is the reference answer. ``check(id, answer)`` runs the learner's
answer on every input and prints one of:

- 通过 (pass): every input gave the expected value;
- 未通过 (fail): the first input that did not, with what was expected and what came back;
- 运行出错 (error): the answer raised, with the input and the exception;
- 还没有完成 (not done): the answer is still the stub (``...`` or ``NotImplementedError``).

It never shows the solution's code, only values. Results are kept per kernel in
``results`` so a chapter can end with ``progress("03")``.

>>> check("2.1", lambda tokens, n: [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)])
✔ 练习 2.1 通过 (passed): 5/5 个测试用例
>>> check("2.1", ...)
… 练习 2.1 还没有完成 (not done yet): 在标记处写代码，然后重新运行这个单元格。
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .bleu import BleuOptions, geometric_mean, score_stats, sentence_bleu
from .brevity import brevity_penalty, closest_ref_length
from .clipping import clipped_counts
from .ngrams import ngrams
from .seed import tokenize as seed_tokenize
from .stats import BleuStats

__all__ = ["Exercise", "CheckResult", "EXERCISES", "check", "progress", "results"]

STATUSES = ("pass", "fail", "not-done", "error")


@dataclass(frozen=True)
class CheckResult:
    exercise: str
    status: str
    detail: str = ""

    def message(self) -> str:
        ex = EXERCISES.get(self.exercise)
        title = f"练习 {self.exercise}"
        if self.status == "pass":
            return f"✔ {title} 通过 (passed): {self.detail}"
        if self.status == "not-done":
            return f"… {title} 还没有完成 (not done yet): 在标记处写代码，然后重新运行这个单元格。"
        head = "未通过 (failed)" if self.status == "fail" else "运行出错 (error)"
        hint = f"\n  提示 (hint): {ex.hint}" if ex and ex.hint and self.status == "fail" else ""
        return f"✘ {title} {head}\n{self.detail}{hint}"


@dataclass(frozen=True)
class Exercise:
    """One exercise: inputs, the reference answer, and how to compare values."""

    id: str
    title: str
    reference: Callable[..., Any]
    cases: tuple[tuple, ...]
    kind: str = "function"          # "function": answer(*case); "value": answer itself
    tolerance: float | None = None  # compare floats with this absolute tolerance
    hint: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def chapter(self) -> str:
        return f"{int(self.id.split('.')[0]):02d}"

    @property
    def answer_name(self) -> str:
        """The name the learner's answer has in the notebook (``my_…``, last in the title)."""
        return self.title.split()[-1]


def _same(expected: Any, got: Any, tolerance: float | None) -> bool:
    if tolerance is not None and isinstance(expected, int | float):
        return isinstance(got, int | float) and not isinstance(got, bool) and \
            math.isclose(got, expected, rel_tol=0, abs_tol=tolerance)
    if isinstance(expected, tuple) and isinstance(got, list | tuple):
        return len(expected) == len(got) and all(
            _same(e, g, tolerance) for e, g in zip(expected, got, strict=True))
    if isinstance(expected, list) and isinstance(got, list):
        return len(expected) == len(got) and all(
            _same(e, g, tolerance) for e, g in zip(expected, got, strict=True))
    return type(got) is not bool and got == expected if not isinstance(expected, bool) \
        else got is expected


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 300 else text[:297] + "..."


def _not_done(value: Any) -> bool:
    return value is ... or value is NotImplemented


def run(exercise_id: str, answer: Any) -> CheckResult:
    """Check ``answer`` without printing; returns the ``CheckResult``."""
    if exercise_id not in EXERCISES:
        raise ValueError(f"unknown exercise {exercise_id!r}; known: {', '.join(EXERCISES)}")
    ex = EXERCISES[exercise_id]
    if _not_done(answer):
        return CheckResult(ex.id, "not-done")
    if ex.kind == "function" and not callable(answer):
        return CheckResult(ex.id, "fail", f"  需要一个函数 (expected a function), 得到 (got): "
                                          f"{_show(answer)}")
    for case in ex.cases:
        expected = ex.reference(*case)
        shown_input = ", ".join(_show(a) for a in case)
        if ex.kind == "function":
            try:
                got = answer(*case)
            except NotImplementedError:
                return CheckResult(ex.id, "not-done")
            except Exception as exc:  # the learner's code: report it, never crash
                return CheckResult(ex.id, "error", f"  输入 (input): {shown_input}\n"
                                                   f"  {type(exc).__name__}: {exc}")
        else:
            got = answer
        if _not_done(got):
            return CheckResult(ex.id, "not-done")
        if not _same(expected, got, ex.tolerance):
            where = f"  输入 (input): {shown_input}\n" if ex.kind == "function" else ""
            return CheckResult(ex.id, "fail", f"{where}  期望 (expected): {_show(expected)}\n"
                                              f"  得到 (got): {_show(got)}")
    n = len(ex.cases)
    detail = f"{n}/{n} 个测试用例" if ex.kind == "function" else "答案正确"
    return CheckResult(ex.id, "pass", detail)


#: The latest result of every exercise checked in this kernel.
results: dict[str, CheckResult] = {}


def check(exercise_id: str, answer: Any) -> None:
    """Check a learner's answer, print the verdict, and remember it for ``progress``."""
    result = run(exercise_id, answer)
    results[exercise_id] = result
    print(result.message())


def progress(chapter: str | int) -> None:
    """Print the status of every exercise of a chapter checked in this kernel."""
    chapter = f"{int(chapter):02d}"
    mine = [ex for ex in EXERCISES.values() if ex.chapter == chapter]
    labels = {"pass": "✔ 通过", "fail": "✘ 未通过", "error": "✘ 出错",
              "not-done": "… 还没有完成", None: "· 还没有检查"}
    done = sum(1 for ex in mine if ex.id in results and results[ex.id].status == "pass")
    if mine:
        print(f"第 {int(chapter)} 章练习进度 (progress): {done}/{len(mine)} 通过")
    else:
        print(f"第 {int(chapter)} 章没有编程练习 (no exercises in this chapter)")
    for ex in mine:
        status = results[ex.id].status if ex.id in results else None
        print(f"  练习 {ex.id} {ex.title}: {labels[status]}")
    quiz = sys.modules.get("bleu_lesson.quiz")  # only if the chapter showed its quiz
    if quiz is not None and chapter in quiz.QUIZZES:
        print(f"  {quiz.progress_line(chapter)}")


# --- the exercises ---------------------------------------------------------------------

def _my_bleu_reference(candidate: str, references: list[str]) -> float:
    return sentence_bleu(candidate, references, tokenizer="none", lowercase=True,
                         smoothing="none", effective_order=False).score


def _corpus_from_stats(stats: list[BleuStats]) -> float:
    return score_stats(sum(stats), BleuOptions(smoothing="none")).score


def _per_segment(streams: list[list[str]]) -> list[list[str]]:
    return [list(segment) for segment in zip(*streams, strict=True)]


def _ci_half_width(scores: list[float]) -> float:
    ordered = sorted(scores)
    lower = len(ordered) // 40
    return 0.5 * (ordered[len(ordered) - lower - 1] - ordered[lower])


_SEED_REFS = ["The cat is sitting on the mat", "A cat is on the mat", "The cat lies on the mat"]

EXERCISES: dict[str, Exercise] = {ex.id: ex for ex in [
    Exercise("1.1", "种子分词器 my_tokenize", seed_tokenize, (
        ("The cat is on the mat",), ("  Hello,   World!  ",), ("",), ("猫 在 垫子 上",),
        ("A\tB\nc",),
    ), hint="先转小写，再按任意空白切分 (lowercase, then split on any whitespace)."),
    Exercise("2.1", "n 元组 my_ngrams", ngrams, (
        (["the", "cat", "is", "on"], 2), (["the", "cat", "is", "on"], 1),
        (["the", "cat", "is", "on"], 4), (["the", "cat"], 3), ([], 1),
    ), hint="长度为 L 的句子有 max(L - n + 1, 0) 个 n 元组。"),
    Exercise("3.1", "截断计数 my_clipped_count", clipped_counts, (
        ("the the the the the the the".split(),
         ["the cat is on the mat".split(), "there is a cat on the mat".split()], 1),
        ("the cat is on the mat".split(), ["the cat is sitting on the mat".split()], 2),
        ("the cat is on the mat".split(), [r.lower().split() for r in _SEED_REFS], 4),
        ("a a b".split(), [["a", "b"], ["a", "a"]], 1),
        (["a"], [["b"]], 2),
    ), hint="每个 n 元组的计数不能超过它在任何一条参考译文中出现的最大次数。"),
    Exercise("4.1", "长度惩罚 my_brevity_penalty", brevity_penalty, (
        (6, 7), (7, 6), (6, 6), (5, 10), (0, 6), (1, 3),
    ), tolerance=1e-9, hint="c > r 时为 1；c = 0 时为 0；否则 exp(1 - r/c)。"),
    Exercise("4.2", "最接近的参考长度 my_closest_ref_length", closest_ref_length, (
        (6, [7]), (6, [5, 7]), (6, [7, 5]), (10, [8, 12, 12]), (3, [10, 20, 4]),
    ), hint="距离相同时取较短的那个 (ties go to the shorter reference), 与 sacrebleu 一致。"),
    Exercise("5.1", "加权几何平均 my_geometric_mean", geometric_mean, (
        ([1.0, 0.8, 0.5, 0.25], [0.25] * 4), ([1.0, 1.0, 1.0, 2 / 3], [0.25] * 4),
        ([0.5, 0.5], [0.5, 0.5]), ([0.9, 0.0, 0.5, 0.5], [0.25] * 4),
        ([0.9, 0.0, 0.5], [0.5, 0.0, 0.5]),
    ), tolerance=1e-9, hint="exp(Σ w_n · log p_n)；权重为正的某个 p_n 为 0 时结果为 0。"),
    Exercise("6.1", "组装 BLEU my_bleu", _my_bleu_reference, (
        ("The cat is on the mat", _SEED_REFS), ("The cat is on the mat", _SEED_REFS[:1]),
        ("the cat is sitting on the mat", _SEED_REFS), ("a cat", _SEED_REFS),
        ("It is a guide to action which ensures that the military always obeys the "
         "commands of the party", [
             "It is a guide to action that ensures that the military will forever heed "
             "Party commands",
             "It is the guiding principle which guarantees the military forces always being "
             "under the command of the Party",
             "It is the practical guide for the army always to heed the directions of the "
             "party"]),
    ), tolerance=1e-9,
        hint="小写 + 空格分词；截断计数；最接近的参考长度 (取较短)；不平滑；4 阶等权。"),
    Exercise("7.1", "由统计量算语料级 BLEU my_corpus_bleu", _corpus_from_stats, (
        ([BleuStats(6, 7, (6, 4, 2, 0), (6, 5, 4, 3))],),
        ([BleuStats(6, 7, (6, 4, 2, 0), (6, 5, 4, 3)), BleuStats(6, 6, (6, 5, 4, 2),
                                                                 (6, 5, 4, 3))],),
        ([BleuStats(4, 4, (4, 3, 2, 1), (4, 3, 2, 1)), BleuStats(2, 5, (2, 1, 0, 0),
                                                                 (2, 1, 0, 0))],),
        ([BleuStats(3, 2, (1, 0, 0, 0), (3, 2, 1, 0)), BleuStats(9, 9, (9, 8, 7, 6),
                                                                 (9, 8, 7, 6))],),
    ), tolerance=1e-9,
        hint="先把各句的 matches、totals、hyp_len、ref_len 分别相加，再算一次 BLEU "
             "(不平滑)；不要平均句子分数。"),
    Exercise("8.1", "参考译文的两种排列 my_per_segment", _per_segment, (
        ([["a1", "b1", "c1"], ["a2", "b2", "c2"]],), ([["only"]],),
        ([["x1", "y1"], ["x2", "y2"], ["x3", "y3"]],),
    ), hint="sacrebleu 的 refs[k][i] 是第 k 套参考的第 i 句；要得到 out[i][k]。"),
    Exercise("9.1", "自助法置信区间半宽 my_ci_half_width", _ci_half_width, (
        ([0.30, 0.31, 0.29, 0.32, 0.28] * 8,), ([i / 100 for i in range(100)],),
        ([0.5] * 40,), ([i / 1000 for i in range(1000, 0, -1)],),
    ), tolerance=1e-12,
        hint="排序后取下标 n//40 和 n - n//40 - 1 两个分数，半宽是它们差的一半。"),
]}


# --- branch ch10: chapter 10's exercises from bleu_lesson/chapters/ch10.py --------------
# (until the chapters/ registry of branch sandbox is merged; then delete these lines)
from .chapters import ch10 as _ch10  # noqa: E402, F401  (it adds 10.1-10.3 to EXERCISES)

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
import os
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
    #: for tasks with no single right answer: a trusted ``judge(case, got) -> (ok, detail)``
    #: decides instead of comparing with ``reference(*case)``; ``extra["expect"]`` says
    #: what it requires
    judge: Callable[[tuple, Any], tuple[bool, str]] | None = None

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
        expected = ex.reference(*case) if ex.judge is None else None
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
        if ex.judge is not None:
            try:
                ok, detail = ex.judge(case, got)
            except Exception as exc:  # a malformed answer must not crash the judge
                ok, detail = False, f"{_show(got)} ({type(exc).__name__}: {exc})"
            if not ok:
                expect = ex.extra.get("expect", "")
                return CheckResult(ex.id, "fail", f"  输入 (input): {shown_input or '(无)'}\n"
                                                  f"  期望 (expected): {expect}\n"
                                                  f"  得到 (got): {detail}")
            continue
        if not _same(expected, got, ex.tolerance):
            where = f"  输入 (input): {shown_input}\n" if ex.kind == "function" else ""
            return CheckResult(ex.id, "fail", f"{where}  期望 (expected): {_show(expected)}\n"
                                              f"  得到 (got): {_show(got)}")
    n = len(ex.cases)
    detail = f"{n}/{n} 个测试用例" if ex.kind == "function" else "答案正确"
    return CheckResult(ex.id, "pass", detail)


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
    if result.status != "pass" and os.environ.get(RAISE_ENV, "") not in ("", "0"):
        raise AssertionError(f"exercise {exercise_id}: {result.status}")


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
    Exercise("2.1", "n 元语法 my_ngrams", ngrams, (
        (["the", "cat", "is", "on"], 2), (["the", "cat", "is", "on"], 1),
        (["the", "cat", "is", "on"], 4), (["the", "cat"], 3), ([], 1),
    ), hint="长度为 L 的句子有 max(L - n + 1, 0) 个 n 元语法。"),
    Exercise("3.1", "截断计数 my_clipped_count", clipped_counts, (
        ("the the the the the the the".split(),
         ["the cat is on the mat".split(), "there is a cat on the mat".split()], 1),
        ("the cat is on the mat".split(), ["the cat is sitting on the mat".split()], 2),
        ("the cat is on the mat".split(), [r.lower().split() for r in _SEED_REFS], 4),
        ("a a b".split(), [["a", "b"], ["a", "a"]], 1),
        (["a"], [["b"]], 2),
    ), hint="每个 n 元语法的计数不能超过它在任何一条参考译文中出现的最大次数。"),
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
    ), hint="sacrebleu 的 refs[k][i] 是第 k 个参考流的第 i 句；要得到 out[i][k]。"),
    Exercise("9.1", "自助法置信区间半宽 my_ci_half_width", _ci_half_width, (
        ([0.30, 0.31, 0.29, 0.32, 0.28] * 8,), ([i / 100 for i in range(100)],),
        ([0.5] * 40,), ([i / 1000 for i in range(1000, 0, -1)],),
    ), tolerance=1e-12,
        hint="排序后取下标 n//40 和 n - n//40 - 1 两个分数，半宽是它们差的一半。"),
]}


# --- issue 13: analytic and adversarial tasks, judged (no single reference answer) --------
# To be moved to bleu_lesson/chapters/ch06.py, ch08.py, ch09.py when the chapters registry
# lands. Each answer is a function of no arguments that returns what the learner built, so
# a student copy's stub reports "not done" instead of failing the cell.

def _is_text(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _judge_lowering(case: tuple, got: Any) -> tuple[bool, str]:
    """Adding ``extra`` to ``references`` must lower sacrebleu-default sentence BLEU."""
    if not (isinstance(got, tuple) and len(got) == 3):
        return False, f"{_show(got)}：要返回 (candidate, references, extra) 三项"
    candidate, references, extra = got
    if not (_is_text(candidate) and isinstance(references, list) and references
            and all(_is_text(r) for r in references) and _is_text(extra)):
        return False, f"{_show(got)}：candidate、extra 是非空字符串，references 是非空的字符串列表"
    before = sentence_bleu(candidate, references).score
    after = sentence_bleu(candidate, [*references, extra]).score
    return after < before - 1e-12, f"BLEU {before:.4f} -> {after:.4f}（加上 extra 之后）"


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def _judge_extremes(case: tuple, got: Any) -> tuple[bool, str]:
    """A fluent, correct translation under 0.2 and a garbage one over 0.5 (sentence BLEU)."""
    if not (isinstance(got, dict) and set(got) == {"reference", "fluent", "garbage"}
            and all(_is_text(v) for v in got.values())):
        return False, f"{_show(got)}：要返回含 reference、fluent、garbage 三个非空字符串的 dict"
    if _norm(got["garbage"]) == _norm(got["reference"]) or \
            _norm(got["fluent"]) == _norm(got["reference"]):
        return False, "fluent 和 garbage 都不能就是参考译文本身"
    fluent = sentence_bleu(got["fluent"], [got["reference"]]).score
    garbage = sentence_bleu(got["garbage"], [got["reference"]]).score
    return fluent < 0.2 and garbage > 0.5, f"fluent {fluent:.4f}, garbage {garbage:.4f}"


#: chapter 08's forensics lab: a system output, its references and the score "a paper
#: reported"; which knob explains the gap to sacrebleu's default score?
FORENSICS_HYPS = ("the cat sat on a mat.", "there is a dog in the yard.",
                  "it rained all day long in paris.", "we will meet again next week.")
FORENSICS_REFS = ("The cat sat on the mat.", "There is a dog in the garden.",
                  "It rained all day in Paris.", "We will meet again next week.")
_DEFAULT_SIGNATURE = {"nrefs": "1", "case": "mixed", "eff": "no", "tok": "13a",
                      "smooth": "exp"}
_KNOB_NAMES = {"case": {"case", "lowercase", "大小写"}, "tok": {"tok", "tokenize", "tokenizer",
                                                             "分词"},
               "smooth": {"smooth", "smoothing", "平滑"}, "eff": {"eff", "effective order",
                                                              "有效阶数"}}


def _sacrebleu_score(hyps, refs, fields: dict) -> float:
    import sacrebleu  # only when a forensics answer is judged

    return sacrebleu.corpus_bleu(list(hyps), [list(refs)], lowercase=fields["case"] == "lc",
                                 tokenize=fields["tok"], smooth_method=fields["smooth"],
                                 use_effective_order=fields["eff"] == "yes").score


def forensics_reported() -> float:
    """The score the paper reported for FORENSICS_HYPS (0-100): lowercased sacrebleu."""
    return round(_sacrebleu_score(FORENSICS_HYPS, FORENSICS_REFS,
                                  {**_DEFAULT_SIGNATURE, "case": "lc"}), 2)


def _parse_signature(text: str) -> dict:
    fields = dict(_DEFAULT_SIGNATURE)
    for part in text.strip().split("|"):
        key, sep, value = part.partition(":")
        if not sep or key not in fields and key != "version":
            raise ValueError(f"not a sacrebleu signature field: {part!r}")
        if key != "version":
            fields[key] = value
    if fields["nrefs"] != "1":
        raise ValueError("this corpus has one reference: nrefs:1")
    return fields


def _judge_forensics(case: tuple, got: Any) -> tuple[bool, str]:
    """The signature must reproduce the reported score, and the knob be the field in which it
    differs from sacrebleu's default signature."""
    if not (isinstance(got, dict) and _is_text(got.get("knob")) and
            _is_text(got.get("signature"))):
        return False, f"{_show(got)}：要返回含 knob 和 signature 两个字符串的 dict"
    try:
        fields = _parse_signature(got["signature"])
        score = _sacrebleu_score(FORENSICS_HYPS, FORENSICS_REFS, fields)
    except (ValueError, KeyError, TypeError) as exc:
        return False, f"签名无法使用 (unusable signature): {exc}"
    reported = forensics_reported()
    changed = [k for k in fields if fields[k] != _DEFAULT_SIGNATURE[k]]
    knob = got["knob"].strip().lower()
    named = [k for k, names in _KNOB_NAMES.items() if knob in names]
    ok = abs(score - reported) < 0.005 and named == changed
    return ok, (f"这个签名给出 {score:.2f}（报告的是 {reported:.2f}）；它改动的旋钮: "
                f"{changed or '没有'}；你说的旋钮: {got['knob']!r}")


def _rank_changes() -> set[str]:
    """zh-en systems whose rank differs between reference A and reference B (corpus BLEU)."""
    from .bleu import BleuScorer
    from .datasets import load_wmt22

    data = load_wmt22("zh-en", download=False)
    scores = {}
    for which in ("A", "B"):
        scorer = BleuScorer(data.references_for(which), tokenizer=data.tokenizer)
        ranked = sorted(data.systems, key=lambda n: -scorer.score(data.systems[n]).score)
        scores[which] = {name: k for k, name in enumerate(ranked)}
    return {n for n in data.systems if scores["A"][n] != scores["B"][n]}


_RANK_CHANGES: list[set[str]] = []


def _judge_rank_prediction(case: tuple, got: Any) -> tuple[bool, str]:
    if not (isinstance(got, set | frozenset | list | tuple) and
            all(isinstance(n, str) for n in got)):
        return False, f"{_show(got)}：要返回系统名的集合，例如 {{'DLUT'}}"
    if not _RANK_CHANGES:
        _RANK_CHANGES.append(_rank_changes())
    truth = _RANK_CHANGES[0]
    guess = set(got)
    return guess == truth, (f"你预测 {sorted(guess)}；名次变了的是 {sorted(truth)}"
                            if guess != truth else f"{sorted(truth)}")


for _ex in [
    Exercise("6.2", "加一条参考反而降分 my_lowering_case", None, ((),), judge=_judge_lowering,
             extra={"expect": "返回 (candidate, references, extra)：加上 extra 这条参考后，"
                              "sentence_bleu（sacrebleu 的默认设置）严格变小"},
             hint="精确率只会不降；想办法让新参考改变 r，使 BP 变小。"),
    Exercise("6.3", "流利正确却低分、乱码却高分 my_bleu_extremes", None, ((),),
             judge=_judge_extremes,
             extra={"expect": "fluent 的 sentence_bleu < 0.2，garbage 的 sentence_bleu > 0.5"},
             hint="fluent 换一套说法（同义词、换词序）；garbage 保留参考的长词串，再把句子弄坏。"),
    Exercise("8.2", "BLEU 取证 my_forensics", None, ((),), judge=_judge_forensics,
             extra={"expect": "signature 用 sacrebleu 重算正好得到报告的分数，knob 是它与"
                              "默认签名不同的那个旋钮"},
             hint="先算 sacrebleu 默认设置的分数，再一次只改一个旋钮，看哪一个正好得到报告的数。"),
    Exercise("9.2", "参考 B 下谁换了名次 my_rank_prediction", None, ((),),
             judge=_judge_rank_prediction,
             extra={"expect": "只用参考 B 时，zh-en 名次与只用参考 A 时不同的那些系统"},
             hint="看只用参考 A 时分数挨得很近的几对系统。"),
]:
    EXERCISES[_ex.id] = _ex

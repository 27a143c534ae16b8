"""Chapter 3: 截断计数与多参考 (Clipped counts and multiple references): its exercise cases and its quiz questions."""

# The quiz is Chinese prose; ruff counts CJK characters double.
# ruff: noqa: E501

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bleu_lesson.core.clipping import clipped_counts
from bleu_lesson.teaching.checking import Exercise, _show
from bleu_lesson.teaching.questions import Question, question

__all__ = ["NOTEBOOK", "TITLE", "NEEDS_DATA", "EXPLORERS", "EXERCISES", "QUESTIONS",
           "PUZZLE_REFERENCES"]

NOTEBOOK = "03_clipped_counts.ipynb"
TITLE = "截断计数与多参考 (Clipped counts and multiple references)"
NEEDS_DATA = False
EXPLORERS: tuple[str, ...] = ('ClippingExplorer',)


#: the references of exercise 3.1 (lowercase, split on spaces): "a" occurs once in the
#: first and twice in the second, so the maximum (2), the sum (3), the minimum and the first
#: reference (1) each give it another cap; "the" is only in the first
PUZZLE_REFERENCES = ("a cat is on the mat", "there is a cat on a mat")


def _judge_two_sevenths(case: tuple, got: Any) -> tuple[bool, str]:
    """Every token of the candidate occurs in some reference (unclipped unigram precision
    1), and its clipped unigram precision is exactly 2/7."""
    if not (isinstance(got, str) and got.split()):
        return False, f"{_show(got)}：不是非空的字符串 (not a non-empty string)"
    cand = got.lower().split()
    refs = [r.split() for r in PUZZLE_REFERENCES]
    seen = {token for ref in refs for token in ref}
    plain = sum(token in seen for token in cand)
    matches, total = clipped_counts(cand, refs, 1)
    ok = plain == total and Fraction(matches, total) == Fraction(2, 7)
    return ok, f"{_show(got)}：朴素精确率 {plain}/{total}，截断后 p_1 = {matches}/{total}"


EXERCISES = (
    Exercise("3.1", "构造截断的例子 my_two_sevenths", None, ((),), judge=_judge_two_sevenths,
             extra={"expect": "返回一条候选（字符串）：每个词元都在某条参考里出现过（朴素精确率 = 1），"
                              "截断后的 1 元语法精确率恰好是 2/7"},
             hint="先数一数：每个词在哪一条参考里出现得最多、最多几次？截断上限取各参考中的最大值，"
                  "不是求和，也不只看第一条参考。",
             building_blocks=("ngrams", "clipping")),
)

QUESTIONS: tuple[Question, ...] = (
    question("Papineni 等人的例子：候选 “the the the the the the the”，两条参考（参考 1 含 2 个 the，参考 2 含 1 个 the）。1 元语法的修正精确率是多少？",
       ("2/7", True,
        "the 在某一条参考中最多出现 2 次，所以 min(7, max(2, 1)) = 2，p_1 = 2/7 ≈ 0.2857。"),
       ("7/7", False,
        "这是朴素精确率：只问“出现过没有”，七个 the 都出现过，于是被重复词骗过。"),
       ("3/7", False,
        "这是把两条参考的次数相加（2 + 1）；BLEU 取的是最大值，不是求和。"),
       ("1/7", False,
        "截断上限是 the 在参考中的最多次数 2，不是最少次数 1。")),
    question("有多条参考时，n 元语法的截断上限为什么取各参考中次数的最大值，而不是求和？",
       ("求和更准确，BLEU 只是为了计算方便才取最大值", False,
        "取最大值是有意的设计：它防止重复的词靠多条参考累积分数。"),
       ("应当取最小值，这样匹配才可靠", False,
        "最小值会让多加一条参考反而降低上限；最小值（`&`）用在候选与参考之间的截断上。"),
       ("求和会让参考越多，重复的词越占便宜", True,
        "求和时 the 能算 2 + 1 = 3 次。`Counter` 的 `|` 取最大值，正好实现这一点。"),
       ("取平均值，让每条参考一样重要", False,
        "BLEU 不对参考求平均；平均还可能得到非整数的计数。")),
    question("候选 “the cat the cat”，参考 “the cat sat on the mat”（小写、按空白切分）。修正精确率 p_1 和 p_2 各是多少？",
       ("p_1 = 4/4，p_2 = 2/3", False,
        "这是不截断的朴素精确率：cat 和 “the cat” 各多算了一次。"),
       ("p_1 = 3/4，p_2 = 1/3", True,
        "1 元语法：the 2 次（参考里 2 次）、cat 2 次（参考里 1 次，截断成 1），共 3/4；2 元语法：“the cat” 2 次截断成 1，“cat the” 不在参考里，共 1/3。"),
       ("p_1 = 3/4，p_2 = 2/3", False,
        "2 元语法也要截断：“the cat” 在参考里只出现 1 次。"),
       ("p_1 = 2/4，p_2 = 1/3", False,
        "the 在参考里出现 2 次，候选的两个 the 都算数。")),
)

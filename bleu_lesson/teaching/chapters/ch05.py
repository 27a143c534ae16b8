"""Chapter 5: 加权几何平均与平滑 (Weighted geometric mean and smoothing): its exercise cases and its quiz questions."""

# The quiz is Chinese prose; ruff counts CJK characters double.
# ruff: noqa: E501

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from bleu_lesson.core.bleu import geometric_mean
from bleu_lesson.teaching.checking import Exercise, _show
from bleu_lesson.teaching.questions import Question, question

__all__ = ["NOTEBOOK", "TITLE", "NEEDS_DATA", "EXPLORERS", "EXERCISES", "QUESTIONS"]

NOTEBOOK = "05_geometric_mean.ipynb"
TITLE = "加权几何平均与平滑 (Weighted geometric mean and smoothing)"
NEEDS_DATA = False
EXPLORERS: tuple[str, ...] = ('GeometricMeanExplorer',)


def _means(ps: Any) -> tuple[float, float]:
    """(arithmetic mean, geometric mean with uniform weights) of four precisions."""
    return math.fsum(ps) / 4, geometric_mean(list(ps), [0.25] * 4)


def _four_precisions(value: Any) -> bool:
    """Four precisions in (0, 1]: ints, floats or Fractions (chapter 1 writes a precision
    as a Fraction; issue 20, round 22: Fractions were refused here), not bools."""
    return (isinstance(value, (list, tuple)) and len(value) == 4
            and all(type(p) in (int, float, Fraction) and 0 < p <= 1 for p in value))


def _judge_flip(case: tuple, got: Any) -> tuple[bool, str]:
    """Two lists of four precisions in (0, 1]: A's arithmetic mean is higher, B's geometric
    mean (BLEU's, uniform weights) is higher, both by more than rounding noise."""
    if not (isinstance(got, (list, tuple)) and len(got) == 2
            and all(_four_precisions(x) for x in got)):
        return False, (f"{_show(got)}：不是 (A, B) 两组精确率，每组 4 个数，每个数都在 (0, 1] 内 "
                       "(two lists of four precisions in (0, 1])")
    (arith_a, geo_a), (arith_b, geo_b) = _means(got[0]), _means(got[1])
    ok = arith_a > arith_b + 1e-9 and geo_b > geo_a + 1e-9
    return ok, (f"A: 算术平均 {arith_a:.4f}，几何平均 {geo_a:.4f}；"
                f"B: 算术平均 {arith_b:.4f}，几何平均 {geo_b:.4f}")


EXERCISES = (
    Exercise("5.1", "两种平均排序相反 my_flip", None, ((),), judge=_judge_flip,
             extra={"expect": "返回 (A, B)：两组 p_1..p_4（每个数在 (0, 1] 内，不许为 0），"
                              "A 的算术平均更高，B 的几何平均（4 阶均匀权重）更高"},
             hint="几何平均对哪一种精确率最敏感？让 A 在某一阶很弱（但不为 0），让 B 各阶平均。",
             building_blocks=("ngrams", "clipping", "brevity", "means")),
)

QUESTIONS: tuple[Question, ...] = (
    question("有人把权重设成 (1/2, 1/4, 1/8, 0)，报告“几何平均 = 0.80”，并拿它和标准 BLEU 比较。问题在哪里？",
       ("w₄ = 0 时 log p₄ 没有定义，这个 0.80 算错了，结果应当是 0", False,
        "权重为 0 的阶不参加计算，p₄ 是多少都没关系。"),
       ("权重之和是 7/8，不是 1：这不是平均，也不能和标准 BLEU 比", True,
        "只有 Σw = 1（或先把权重除以 Σw）时它才是加权几何平均；第 5 章探索器里的 Σw 就是为此显示的。"),
       ("几何平均与权重无关，0.80 一定是对的", False,
        "权重决定每一阶的指数：换一组权重，结果就变。"),
       ("应当用算术平均，几何平均不能带权重", False,
        "BLEU 用的正是加权几何平均 exp(Σ w_n log p_n)；问题是这组权重之和不是 1。")),
    question("种子单参考例子的计数是 matches = (6, 4, 2, 0)，totals = (6, 5, 4, 3)。用 sacrebleu 的 `exp` 平滑，p_4 变成多少？",
       ("0.0333", False,
        "这是 `floor` 平滑（ε = 0.1），BLEU 是 0.2876。"),
       ("0.2500", False,
        "这是 `add-k`（k = 1）：(0 + 1)/(3 + 1)，而且它还改变了 p_2 和 p_3。"),
       ("0.0000", False,
        "这是不平滑（`none`）时的值，BLEU 因此是 0。"),
       ("0.1667", True,
        "`exp` 给第 1 个匹配数为 0 的阶 1/(2^1 · t_n)，t_4 = 3；BLEU 变成 0.4301。")),
    question("某候选的精确率是 p = (0.9, 0.8, 0.7, 0)，不平滑、4 阶均匀权重、BP = 1。它的 BLEU 是多少？",
       ("0.6000", False,
        "这是算术平均 (0.9 + 0.8 + 0.7 + 0)/4；BLEU 用的是几何平均。"),
       ("约 0.7958：把为 0 的那一阶去掉，对其余三阶取几何平均", False,
        "(0.9 · 0.8 · 0.7)^(1/3) ≈ 0.7958 是把一阶整个丢掉后的平均；BLEU 的定义里每一阶都要参加。"),
       ("0", True,
        "几何平均是 p₁p₂p₃p₄ 开 4 次方，有一个因子为 0，乘积就是 0；这正是句子级 BLEU 需要平滑的原因。"),
       ("算不出来：log 0 没有定义，程序会报错", False,
        "exp(Σ w_n log p_n) 只是写法；有一阶为 0 时几何平均就是 0，sacrebleu 直接返回 0，不报错。")),
)

"""Chapter 9: 真实评测：WMT22 中英翻译 (Real evaluation: WMT22 Chinese-English): its exercise cases and its quiz questions."""

# The quiz is Chinese prose; ruff counts CJK characters double.
# ruff: noqa: E501

from __future__ import annotations

import random

from ..exercises import Exercise
from ..quiz import Question, question

__all__ = ["NOTEBOOK", "TITLE", "NEEDS_DATA", "EXPLORERS", "EXERCISES", "QUESTIONS"]

NOTEBOOK = "09_wmt22_case_study.ipynb"
TITLE = "真实评测：WMT22 中英翻译 (Real evaluation: WMT22 Chinese-English)"
NEEDS_DATA = True
EXPLORERS: tuple[str, ...] = ('SystemsExplorer',)


def _ci_half_width(scores: list[float]) -> float:
    ordered = sorted(scores)
    lower = len(ordered) // 40
    return 0.5 * (ordered[len(ordered) - lower - 1] - ordered[lower])


def _hidden(rng: random.Random) -> list[tuple]:
    return [([round(rng.gauss(0.3, 0.05), 6) for _ in range(rng.randint(40, 400))],)
            for _ in range(4)]


EXERCISES = (
    Exercise("9.1", "自助法置信区间半宽 my_ci_half_width", _ci_half_width, (
        ([0.30, 0.31, 0.29, 0.32, 0.28] * 8,), ([i / 100 for i in range(100)],),
        ([0.5] * 40,), ([i / 1000 for i in range(1000, 0, -1)],),
    ), tolerance=1e-12,
        hint="排序后取下标 n//40 和 n - n//40 - 1 两个分数，半宽是它们差的一半；"
             "用 sorted(scores)，不要改动传入的列表 (do not sort it in place)。",
        forbidden=("bleu_lesson.significance._estimate_ci",), generate=_hidden),
)

QUESTIONS: tuple[Question, ...] = (
    question("zh-en、两条参考：AISP-SJTU（基线）和 HuaweiTSC 都是 34.35，配对自助检验 p = 0.4096。结论是什么？",
       ("差别不显著：两个系统一样好时，仅仅因为抽到哪些句子就常常出现这样的差值", True,
        "p ≥ 0.05，不能说哪个更好；HuaweiTSC 在 1000 次重抽里只赢了 439 次。"),
       ("HuaweiTSC 显著更差", False, "p 值大，说明差别（−0.005 分）在噪声范围内，谈不上显著。"),
       ("p < 0.05，差别显著", False, "0.4096 远大于 0.05。"),
       ("0.4096 是两个系统的分数差", False, "分数差是 −0.005；0.4096 是 p 值。")),
    question("en-zh 用 `none` 分词（只按空格切分）时，HuaweiTSC 从 73.33（`zh`）跌到 4.05。为什么？",
       ("中文句子常常没有空格，整句就是一个词元：只有和参考一字不差才算匹配，2–4 元组几乎不存在", True,
        "Online-B 的 2037 句里有 1450 句在 `none` 下只有一个词元；WMT 对中文用 `zh` 分词。"),
       ("`none` 会把所有字母转成小写", False, "`none` 只按空白切分，不改大小写；中文也没有大小写。"),
       ("参考译文在 `none` 下被丢掉了", False, "参考没有丢，只是整句成了一个很难匹配的长词元。"),
       ("`none` 和 `char` 一样，把每个字切开", False, "`char` 下 HuaweiTSC 是 73.76，和 `zh` 接近；`none` 不切开汉字。")),
    question("sacrebleu 的 95% 置信区间半宽（B = 1000 次重抽）是怎么得到的？",
       ("把 1000 个重抽分数排序，取下标 25 和 974 的两个分数，差的一半", True,
        "两头各去掉 2.5%；第 9 章对 HuaweiTSC 手算出 (35.28 − 33.38) / 2 = 0.95。"),
       ("1000 个分数的标准差乘以 1.96", False, "sacrebleu 用排好序的分数的分位点，不假设正态分布。"),
       ("下标 974 和 25 的两个分数之差（不取一半）", False, "那是整个区间的宽度；报告的 ± 是半宽。"),
       ("最大的重抽分数减去最小的", False, "那样会包含全部 100% 的分数，也不是半宽。")),
)

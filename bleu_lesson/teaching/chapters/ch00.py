"""Chapter 0: 导读：BLEU 分数计算与多参考译文评估: its exercise cases and its quiz questions."""

# The quiz is Chinese prose; ruff counts CJK characters double.
# ruff: noqa: E501

from __future__ import annotations

from bleu_lesson.teaching.checking import Exercise
from bleu_lesson.teaching.quiz import Question, question

__all__ = ["NOTEBOOK", "TITLE", "NEEDS_DATA", "EXPLORERS", "EXERCISES", "QUESTIONS"]

NOTEBOOK = "00_introduction.ipynb"
TITLE = "导读：BLEU 分数计算与多参考译文评估"
NEEDS_DATA = False
EXPLORERS: tuple[str, ...] = ()


EXERCISES: tuple[Exercise, ...] = ()  # chapter 0 reads the seed; its only task is the quiz

QUESTIONS: tuple[Question, ...] = (
    question("种子章节的单参考例子（候选 “The cat is on the mat”，参考 “The cat is sitting on the mat”），种子代码真正算出的 BLEU 是多少？",
       ("0.6065", False,
        "这是原文印出的“预期输出”，代码并不打印它：原文数错了词数，精确率和长度惩罚也都写错了。"),
       ("0.0000", True,
        "没有一个 4 元语法能匹配（参考里没有 “is on”），p_4 = 0/3；种子代码只要有一阶精确率为 0 就返回 0。sacrebleu 用同样的设置也给出 0.00。"),
       ("0.8465", False,
        "0.8465 是长度惩罚 exp(1 − 7/6)，不是 BLEU。BP 还要乘上各阶精确率的几何平均，而 p_4 = 0。"),
       ("0.9036", False,
        "0.9036 是三条参考时的分数；只有一条参考时 p_4 = 0/3，分数是 0。")),
    question("原文写长度惩罚是 “exp(1-6/5) ≈ 0.7788”。错在哪里？",
       ("候选有 6 个词、参考有 7 个词，BP 应为 exp(1 − 7/6) ≈ 0.8465；而且 exp(1 − 6/5) 本身约为 0.8187，不是 0.7788", True,
        "两处错误：词数各少数了一个（“the” 出现两次），算术也不成立——0.7788 其实是 exp(−0.25)。"),
       ("只是四舍五入的误差，代码给出的也是 0.7788", False,
        "代码给出的是 0.8465，相差太大，不是舍入误差。"),
       ("公式应当是 exp(1 − c/r)，原文把 r 和 c 写反了", False,
        "BLEU 的公式就是 exp(1 − r/c)（c 为候选长度）；错的是代进去的长度和算出的数，不是公式。"),
       ("原文是对的，是种子代码把词数数错了", False,
        "代码数出 6 和 7（第 0 章逐个打印了词元），sacrebleu 也报告 hyp_len = 6 ref_len = 7。")),
    question("为什么换成三条参考后，BLEU 从 0.0000 变成了 0.9036？",
       ("参考 2 “A cat is on the mat” 含有 “is on”，p_4 变成 2/3；最接近 6 的参考长度是 6，BP = 1；BLEU = (2/3)^(1/4) ≈ 0.9036", True,
        "每个 n 元语法只要在任意一条参考里出现就能得分（取各参考中的最大次数），而 r 取最接近 c 的参考长度。"),
       ("三条参考各算一个 BLEU，再取平均", False,
        "BLEU 不对参考求平均：截断上限取各参考中的最大次数，r 取最接近的参考长度，只算一个分数。"),
       ("种子代码在多参考时自动做了平滑", False,
        "种子代码从不平滑；分数变高是因为 p_4 不再是 0。"),
       ("参考越多，长度惩罚越大，所以分数越高", False,
        "BP 最大是 1；这里 BP 从 0.8465 变成 1，是因为有一条参考正好 6 个词，但 p_4 从 0 变成 2/3 才是关键。")),
)

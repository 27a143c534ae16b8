"""Chapter 0: 导读：BLEU 分数计算与多参考译文评估: its exercise cases and its quiz questions."""

# The quiz is Chinese prose; ruff counts CJK characters double.
# ruff: noqa: E501

from __future__ import annotations

from bleu_lesson.teaching.checking import Exercise
from bleu_lesson.teaching.questions import Question, question

__all__ = ["NOTEBOOK", "TITLE", "NEEDS_DATA", "EXPLORERS", "EXERCISES", "QUESTIONS"]

NOTEBOOK = "00_introduction.ipynb"
TITLE = "导读：BLEU 分数计算与多参考译文评估 (Introduction: computing BLEU with several references)"
NEEDS_DATA = False
EXPLORERS: tuple[str, ...] = ()


EXERCISES: tuple[Exercise, ...] = ()  # chapter 0 reads the seed; its only task is the quiz

QUESTIONS: tuple[Question, ...] = (
    question("BLEU 凭什么能在研发中代替人工评价，用来比较两个版本的系统？",
       ("它和人的判断在每一个句子上都高度一致，所以可以直接代替人", False,
        "句子级 BLEU 很不稳定，与人工评价的相关性较弱；它是在同一测试集上比较整个系统时才有用（第 10 章）。"),
       ("它能看出译文是否忠实、是否通顺，只是比人快", False,
        "BLEU 只数 n 元语法的字面重合：同义词、换一种说法都得不到分，它并不理解意思。"),
       ("参考译文只请人译一次，此后每次打分都自动、便宜、可复现", True,
        "这正是 BLEU 要解决的问题：人工评价又慢又贵、难以复现。代价是它只数字面上的重合，单句分数很不稳定，正式的排名仍靠人工评价。"),
       ("它不需要参考译文，只看机器译文本身", False,
        "BLEU 离不开参考译文：它数的正是候选译文与参考译文共有的 n 元语法。")),
    question("种子章节的单参考例子（候选 “The cat is on the mat”，参考 “The cat is sitting on the mat”），运行种子代码，打印的 BLEU 是多少？",
       ("0.0000", True,
        "没有一个 4 元语法能匹配（参考里没有 “is on”），p_4 = 0/3；种子代码只要有一阶精确率为 0 就返回 0。sacrebleu 用同样的设置也给出 0.00。"),
       ("0.6065", False,
        "这是原文印出的数，代码并不打印它：原文数错了词元数，精确率和长度惩罚也都写错了。"),
       ("0.8465", False,
        "0.8465 是长度惩罚 exp(1 − 7/6)，不是 BLEU。BP 还要乘上各阶精确率的几何平均，而 p_4 = 0。"),
       ("0.9036", False,
        "0.9036 是三条参考时的分数；只有一条参考时 p_4 = 0/3，分数是 0。")),
    question("为什么换成三条参考后，BLEU 升到了 0.9036？",
       ("三条参考各算一个 BLEU，再取三个分数的平均值", False,
        "BLEU 不对参考求平均：截断上限取各参考中的最大次数，r 取最接近的参考长度，只算一个分数。"),
       ("种子代码在多参考时自动做了平滑，p_4 不再是 0", False,
        "种子代码从不平滑；p_4 不再是 0，是因为参考 2 里有候选的两个 4 元语法。"),
       ("参考越多，长度惩罚越大，所以分数越高", False,
        "BP 最大是 1；这里 BP 从 0.8465 变成 1，是因为有一条参考正好 6 个词元，但 p_4 从 0 变成 2/3 才是关键。"),
       ("参考 2 含有 “is on”：p_4 = 2/3，r = 6", True,
        "每个 n 元语法只要在任意一条参考里出现就能得分（取各参考中的最大次数），r 取最接近 c = 6 的参考长度 6，BP = 1，BLEU = (2/3)^(1/4) ≈ 0.9036。")),
)

"""Short multiple-choice quizzes (测验), two or three questions per chapter.

``QUIZZES["03"]`` holds chapter 3's questions. Each ``Question`` has its choices, and every
``Choice``, right or wrong, carries an explanation that says why. The numbers in the
questions are the ones the chapter's code computes.

- ``show(chapter)`` prints the questions and choices as plain text (a notebook prints
  them in a tested cell before the widget cell);
- ``Quiz(chapter)`` is the widget: per question a prompt, ``RadioButtons`` (nothing picked
  at first) and a feedback ``HTML`` (CSS class ``bleu-quiz-feedback``) that shows the
  verdict and the picked choice's explanation;
- ``render_feedback(question, index)`` is the pure function behind the feedback;
- ``answers[(chapter, q_index)]`` is ``True`` or ``False`` for the latest pick of each
  question, and ``progress_line(chapter)`` sums it up.

``import bleu_lesson`` does not import this module (it needs ipywidgets).

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
from dataclasses import dataclass

import ipywidgets as widgets

__all__ = [
    "Choice", "Question", "QUIZZES", "answers",
    "render_feedback", "progress_line", "show", "reset", "Quiz",
]

CORRECT = "✔ 正确 (correct)"
WRONG = "✘ 不对 (not quite)"
FEEDBACK_CLASS = "bleu-quiz-feedback"
LETTERS = "ABCDEFGH"


@dataclass(frozen=True)
class Choice:
    """One answer to pick: its text, whether it is right, and why (or why not)."""

    text: str
    correct: bool
    explanation: str


@dataclass(frozen=True)
class Question:
    """A prompt and its choices; exactly one choice is correct."""

    prompt: str
    choices: tuple[Choice, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.choices, tuple) or len(self.choices) < 2:
            raise ValueError("a question needs a tuple of at least two choices")
        right = sum(1 for c in self.choices if c.correct)
        if right != 1:
            raise ValueError(f"a question needs exactly one correct choice, got {right}: "
                             f"{self.prompt[:40]!r}")

    @property
    def correct_index(self) -> int:
        return next(i for i, c in enumerate(self.choices) if c.correct)


def _q(prompt: str, *choices: tuple[str, bool, str]) -> Question:
    return Question(prompt, tuple(Choice(*c) for c in choices))


def _place(question: Question, position: int) -> Question:
    """The same question with its correct choice moved to ``position`` (others keep order)."""
    right = question.choices[question.correct_index]
    others = [c for c in question.choices if not c.correct]
    others.insert(position % len(question.choices), right)
    return Question(question.prompt, tuple(others))


# Written with the right answer anywhere (mostly first); QUIZZES below moves it to a
# position that changes from question to question, so "always A" is never the answer.
_WRITTEN: dict[str, tuple[Question, ...]] = {
    "00": (
        _q("种子章节的单参考例子（候选 “The cat is on the mat”，参考 “The cat is sitting on "
           "the mat”），种子代码真正算出的 BLEU 是多少？",
           ("0.6065", False,
            "这是原文印出的“预期输出”，代码并不打印它：原文数错了词数，精确率和长度惩罚也都写错了。"),
           ("0.0000", True,
            "没有一个 4 元组能匹配（参考里没有 “is on”），p_4 = 0/3；种子代码只要有一阶精确率为 0 "
            "就返回 0。sacrebleu 用同样的设置也给出 0.00。"),
           ("0.8465", False,
            "0.8465 是长度惩罚 exp(1 − 7/6)，不是 BLEU。BP 还要乘上各阶精确率的几何平均，而 p_4 = 0。"),
           ("0.9036", False,
            "0.9036 是三条参考时的分数；只有一条参考时 p_4 = 0/3，分数是 0。")),
        _q("原文写长度惩罚是 “exp(1-6/5) ≈ 0.7788”。错在哪里？",
           ("候选有 6 个词、参考有 7 个词，BP 应为 exp(1 − 7/6) ≈ 0.8465；而且 exp(1 − 6/5) 本身约为 "
            "0.8187，不是 0.7788", True,
            "两处错误：词数各少数了一个（“the” 出现两次），算术也不成立——0.7788 其实是 exp(−0.25)。"),
           ("只是四舍五入的误差，代码给出的也是 0.7788", False,
            "代码给出的是 0.8465，相差太大，不是舍入误差。"),
           ("公式应当是 exp(1 − c/r)，原文把 r 和 c 写反了", False,
            "BLEU 的公式就是 exp(1 − r/c)（c 为候选长度）；错的是代进去的长度和算出的数，不是公式。"),
           ("原文是对的，是种子代码把词数数错了", False,
            "代码数出 6 和 7（第 0 章逐个打印了词元），sacrebleu 也报告 hyp_len = 6 ref_len = 7。")),
        _q("为什么换成三条参考后，BLEU 从 0.0000 变成了 0.9036？",
           ("参考 2 “A cat is on the mat” 含有 “is on”，p_4 变成 2/3；最接近 6 的参考长度是 6，BP = 1；"
            "BLEU = (2/3)^(1/4) ≈ 0.9036", True,
            "每个 n 元组只要在任意一条参考里出现就能得分（取各参考中的最大次数），而 r 取最接近 c 的参考长度。"),
           ("三条参考各算一个 BLEU，再取平均", False,
            "BLEU 不对参考求平均：截断上限取各参考中的最大次数，r 取最接近的参考长度，只算一个分数。"),
           ("种子代码在多参考时自动做了平滑", False,
            "种子代码从不平滑；分数变高是因为 p_4 不再是 0。"),
           ("参考越多，长度惩罚越大，所以分数越高", False,
            "BP 最大是 1；这里 BP 从 0.8465 变成 1，是因为有一条参考正好 6 个词，但 p_4 从 0 变成 2/3 才是关键。")),
    ),
    "01": (
        _q("用种子的分词器（转小写 + 按空白切分），候选 “The cat is on the mat” 与参考 "
           "“The cat is on the mat.” 的一元组匹配是多少？",
           ("6/6", False,
            "这是 13a 分词器的结果：它把句号切成单独的词元，“mat” 才能匹配。"),
           ("5/6", True,
            "句号粘在 “mat” 上成了词元 “mat.”，而 “mat.” ≠ “mat”，候选的 “mat” 找不到对应的词。"),
           ("5/7", False,
            "分母是候选的一元组个数，候选只有 6 个词元；7 是 13a 下参考的长度。"),
           ("0/6", False,
            "转小写后 “the”、“cat”、“is”、“on”、“the” 都能匹配，只有 “mat” 不行。")),
        _q("用种子的分词器给中文 “猫坐在垫子上” 和一模一样的参考打分，BLEU 是 0.0000。为什么？",
           ("中文没有空格，整句成了一个词元，没有 2、3、4 元组，这几阶的精确率被记为 0", True,
            "只有一个词元的句子放不下任何 2 元组，种子代码把这些阶记为 0，几何平均就是 0。"),
           ("汉字不能转小写，分词器报错后返回了 0", False,
            "分词没有报错：“tokenize” 返回了 ['猫坐在垫子上']，只有一个词元。"),
           ("两句话里有一个字不同", False,
            "两句完全相同；p_1 = 1.000，只是 p_2 到 p_4 都是 0。"),
           ("BLEU 只能用于英文", False,
            "BLEU 可以用于中文，只要先用 “char” 或 “zh” 分词器把句子切成词元。")),
        _q("对 “我在2022年读了BLEU论文。”，`char` 和 `zh` 分词器有什么区别？",
           ("`char` 把每个字符都切开（“2022” 成了 4 个词元，共 16 个），`zh` 切开汉字但保留 “2022”、"
            "“BLEU” 完整（共 10 个）", True,
            "所以把年份译错成 2021 时，`char` 下 “2”“0”“2” 仍算匹配（15/16），`zh` 下整个 “2022” 都不匹配（9/10）。"),
           ("两者完全相同，只是名字不同", False,
            "这句话在 `char` 下有 16 个词元，在 `zh` 下有 10 个。"),
           ("`zh` 会把中文分成词语（如 “论文”），`char` 切成单字", False,
            "sacrebleu 的 `zh` 不做词语切分：每个汉字单独成一个词元，只有非中文片段保持完整。"),
           ("`13a` 也能这样切开汉字，`char` 和 `zh` 只是更快", False,
            "`13a` 只切 ASCII 标点，“BLEU在2002年提出。” 在 `13a` 下仍是 1 个词元。")),
    ),
    "02": (
        _q("“the cat is on the mat” 有 L = 6 个词元。它有几个 4 元组？",
           ("3 个", True, "个数是 max(L − n + 1, 0) = 6 − 4 + 1 = 3：the cat is on、cat is on the、is on the mat。"),
           ("4 个", False, "4 个是 3 元组的个数（6 − 3 + 1）。"),
           ("6 个", False, "6 个是一元组的个数；每长一阶，个数少 1。"),
           ("2 个", False, "最后一个 4 元组从第 3 个词开始、在第 6 个词结束，起点有 1、2、3 三种。")),
        _q("`get_ngrams(tokens, n)` 在 n 大于句子长度 L 时返回什么？",
           ("空列表 []", True,
            "`range(len(tokens) - n + 1)` 的参数 ≤ 0，循环一次也不执行，这就是公式里的 max(·, 0)。"),
           ("L − n + 1 个（一个负数）", False, "个数不会是负数：n > L 时句子里放不下任何 n 元组，个数是 0。"),
           ("整句话作为一个 n 元组", False, "n 元组必须恰好有 n 个连续词元，整句只有 L < n 个。"),
           ("抛出 ValueError", False, "只有 n 不是正整数时才报错；n > L 是合法的，结果是空列表。")),
        _q("用 `ngram_counts` 数 “the cat is on the mat” 的一元组：总次数和不同的一元组各有多少？",
           ("总次数 6，不同的 5 种", True, "“the” 出现两次（位置 1 和 5），要数两次；总次数仍是 L − n + 1 = 6。"),
           ("总次数 5，不同的 5 种", False, "重复出现的 n 元组要按出现次数计数，“the” 算 2 次。"),
           ("总次数 6，不同的 6 种", False, "“the” 出现了两次，所以不同的一元组只有 5 种。"),
           ("总次数 5，不同的 6 种", False, "不同的种数不可能多于总次数。")),
    ),
    "03": (
        _q("Papineni 等人的例子：候选 “the the the the the the the”，两条参考（参考 1 含 2 个 the，"
           "参考 2 含 1 个 the）。修正的一元组精确率是多少？",
           ("2/7", True, "the 在某一条参考中最多出现 2 次，所以 min(7, max(2, 1)) = 2，p_1 = 2/7 ≈ 0.2857。"),
           ("7/7", False, "这是朴素精确率：只问“出现过没有”，七个 the 都出现过，于是被重复词骗过。"),
           ("3/7", False, "这是把两条参考的次数相加（2 + 1）；BLEU 取的是最大值，不是求和。"),
           ("1/7", False, "截断上限是 the 在参考中的最多次数 2，不是最少次数 1。")),
        _q("有多条参考时，n 元组的截断上限为什么取各参考中次数的最大值，而不是求和？",
           ("每个 n 元组最多按它出现最多的那一条参考来计分；求和会让参考越多，重复词就越占便宜", True,
            "求和时 the 能算 2 + 1 = 3 次。`Counter` 的 `|` 取最大值，正好实现这一点。"),
           ("求和更准确，BLEU 只是为了计算方便才取最大值", False,
            "取最大值是有意的设计：它防止重复的词靠多条参考累积分数。"),
           ("应当取最小值，这样匹配才可靠", False,
            "最小值会让多加一条参考反而降低上限；最小值（`&`）用在候选与参考之间的截断上。"),
           ("取平均值，让每条参考一样重要", False,
            "BLEU 不对参考求平均；平均还可能得到非整数的计数。")),
        _q("种子例子（候选 “the cat is on the mat”）用三条参考时，4 元组的修正精确率 p_4 是多少？",
           ("2/3", True, "cat is on the 和 is on the mat 在参考 2 里；the cat is on 哪条参考都没有。"),
           ("0/3", False, "这是只用参考 1 时的结果：参考 1 里没有 “is on”。"),
           ("3/3", False, "the cat is on 在三条参考里都不出现（参考 2 以 “a cat” 开头）。"),
           ("1/3", False, "有两个 4 元组能在参考 2 中找到，不是一个。")),
    ),
    "04": (
        _q("候选只写 “the cat”，参考是 “The cat is sitting on the mat”（r = 7），用有效阶数、不平滑，"
           "BLEU = 0.0821。这个数是怎么来的？",
           ("p_1 = p_2 = 1，几何平均是 1，分数就等于长度惩罚 exp(1 − 7/2) ≈ 0.0821", True,
            "两个词都对，精确率满分；是 BP 把这个过短的“译文”罚到了 0.0821。"),
           ("精确率很低：参考的 7 个词里只对了 2 个", False,
            "精确率的分母是候选自己的 n 元组个数，这里 2/2 和 1/1 都是满分。漏译由 BP 惩罚。"),
           ("没有 3 元组和 4 元组，所以这两阶算 0", False,
            "用有效阶数时，候选里根本没有的阶不参与平均；否则分数会是 0，而不是 0.0821。"),
           ("候选比参考短，BP = 1", False, "候选比参考短才要罚：c ≤ r 时 BP = exp(1 − r/c) < 1。")),
        _q("候选 c = 6，两条参考的长度依次是 7 和 5（平局）。种子代码和 sacrebleu 各取哪个 r？",
           ("种子取先列出的 7（BP ≈ 0.8465），sacrebleu 和 NLTK 取较短的 5（BP = 1）", True,
            "种子用 `min(..., key=abs diff)`，相等时留下先出现的；库里的 `tie=\"shorter\"` 用（距离，长度）作键，较短的胜出，与 sacrebleu、NLTK 一致。"),
           ("两者都取 5", False, "种子代码不看长度大小，只保留先列出的那条，也就是 7。"),
           ("两者都取 7", False, "sacrebleu 和 NLTK 在平局时取较短的 5。"),
           ("两者都取平均值 6，BP = 1", False, "r 总是某一条参考的真实长度，不会取平均。")),
        _q("候选比最接近的参考还长（c > r）时，长度惩罚是多少？",
           ("1，不惩罚", True, "多写的词大多匹配不上，已经让精确率变低了，不需要再罚一次。"),
           ("exp(1 − c/r)，小于 1", False, "BLEU 只惩罚过短的译文；c > r 时 BP 就是 1。"),
           ("大于 1 的奖励", False, "BP 不会超过 1。"),
           ("0", False, "只有空译文（c = 0）的 BP 才是 0。")),
    ),
    "05": (
        _q("四个精确率 p = (1, 0.8, 0.5, 0.25)、均匀权重 1/4，几何平均是多少？",
           ("0.5623", True, "连乘得 0.1，再开 4 次方：0.1^(1/4) ≈ 0.5623。"),
           ("0.6375", False, "这是算术平均 2.55/4；几何平均被最小的 p_4 往下拉得更多。"),
           ("0.1000", False, "这是四个数的乘积，还要开 4 次方。"),
           ("0.2500", False, "这是最小的那个精确率；几何平均不等于最小值（除非四个数都一样）。")),
        _q("种子单参考例子的计数是 matches = (6, 4, 2, 0)，totals = (6, 5, 4, 3)。"
           "用 sacrebleu 的 `exp` 平滑，p_4 变成多少？",
           ("1/(2 × 3) ≈ 0.1667", True,
            "`exp` 给第 1 个匹配数为 0 的阶 1/(2^1 · t_n)，t_4 = 3；BLEU 变成 0.4301。"),
           ("0.1/3 ≈ 0.0333", False, "这是 `floor` 平滑（ε = 0.1），BLEU 是 0.2876。"),
           ("1/4 = 0.25", False, "这是 `add-k`（k = 1）：(0 + 1)/(3 + 1)，而且它还改变了 p_2 和 p_3。"),
           ("0", False, "这是不平滑（`none`）时的值，BLEU 因此是 0。")),
        _q("NLTK 默认的 `method0` 给种子单参考例子打分，结果是什么？",
           ("约 8.222e-78：一个极小的正数，不是 0", True,
            "`method0` 把为 0 的精确率换成最小的正浮点数，并发出警告；印到 4 位小数看起来是 0.0000。"),
           ("恰好是 0", False, "NLTK 避开了 log 0，结果是 10^-78 量级的正数。"),
           ("0.4301", False, "0.4301 是 `exp` 平滑（NLTK 的 `method3`）的结果。"),
           ("抛出 ZeroDivisionError", False, "NLTK 不报错，只发一条警告。")),
    ),
    "06": (
        _q("`score_stats` 给一句话打分时，需要什么输入？",
           ("只要一条计数记录 `BleuStats`（c、r、各阶的 m_n 和 t_n）和选项，不需要原文", True,
            "这就是充分统计量：分数是这条记录的纯函数，随手写一条 BleuStats(6, 6, (6, 5, 4, 2), (6, 5, 4, 3)) 也得 0.9036。"),
           ("候选译文和参考译文的原文，它要重新分词", False,
            "分词和计数在提取 (extract) 那一步已经做完，`score_stats` 的参数里没有任何文本。"),
           ("每条参考的全部 n 元组列表", False, "截断后的匹配数已经在 m_n 里，不需要再看 n 元组。"),
           ("一个随机种子", False, "BLEU 的计算没有随机性；随机种子只在第 9 章的自助法里用到。")),
        _q("把种子的三条参考一条一条加进去（参考 1；1–2；1–3），分数是 0.0000、0.9036、0.9036。"
           "为什么加上参考 3 分数不变？",
           ("参考 3 的 n 元组早已被前两条覆盖，长度 6 也已经有了", True,
            "多参考只抬高上限：新参考只有带来候选里有、其他参考里没有的说法，才会提高分数。"),
           ("BLEU 最多只使用两条参考", False, "参考条数没有上限；截断上限取所有参考中的最大次数。"),
           ("参考 3 让 p_n 下降，又让 BP 上升，正好抵消", False,
            "加参考只会让每个 p_n 不降；这里 p_n 和 BP 都没有变化。"),
           ("分数已经是 1，不能再高了", False, "分数是 0.9036，不是 1：the cat is on 仍然没有匹配。")),
        _q("参考 “The cat is sitting on the mat”（7 个词）和 “The cat is on mat”（5 个词）与 6 个词的"
           "候选平局。交换两条参考的顺序，哪个分数会变？",
           ("种子代码的（平局取先列出的）：0.5986 变成 0.7071；`tie=\"shorter\"` 两种顺序都是 0.7071", True,
            "先列出 7 时种子取 r = 7，BP ≈ 0.8465；先列出 5 时取 r = 5，BP = 1。较短规则总是取 5。"),
           ("两者都会变", False, "“平局取较短的”与顺序无关，所以 sacrebleu、NLTK 的分数不随顺序变。"),
           ("两者都不变", False, "种子代码的 r 取决于哪条参考先列出，分数 0.5986 和 0.7071 不同。"),
           ("只有 sacrebleu 的会变", False, "正相反：随顺序变化的是种子代码的规则。")),
    ),
    "07": (
        _q("两句的小测试集（max_n = 2），两句的句子 BLEU 是 1.0000 和 0.4137。语料级 BLEU 是多少，怎么算？",
           ("0.7811：先把两句的计数相加（c = 9，r = 10，m = (8, 6)，t = (9, 7)），再算一次分数", True,
            "语料级 BLEU 对加总后的记录只打一次分；BP 用总长度 exp(1 − 10/9)。"),
           ("0.7068：两句 BLEU 的平均", False, "0.7068 是句子 BLEU 的平均，是另一个数，不是语料级 BLEU。"),
           ("0.4137：取较差的一句", False, "语料级 BLEU 不取最小值，它把所有句段的计数加在一起。"),
           ("1.0000：只要有一句完全正确", False, "第 2 句有漏译和错词，加总后 p_1 = 8/9，BP < 1。")),
        _q("#8 的 `good` 译文 “Thank you!” 和参考 A 一模一样，可是不平滑、不用有效阶数时句子 BLEU 是 0。为什么？",
           ("它只有 3 个词元，没有 4 元组（t_4 = 0），这一阶按 0 算，几何平均就是 0", True,
            "有效阶数让候选里根本没有的阶不参加平均，这时 “Thank you!” 得 1。"),
           ("“Thank” 的大小写和参考不同", False, "两句大小写完全相同，一元组到三元组都全部匹配。"),
           ("长度惩罚把它罚成了 0", False, "c = r = 3，BP = 1。"),
           ("`13a` 分词把 “!” 删掉了", False, "`13a` 把 “!” 切成单独的词元，它也能匹配。")),
        _q("`weak` 系统里，把最长的句段 #9 换成 `good` 的译文，哪个数涨得多？",
           ("语料级 BLEU：从 0.1144 涨到 0.2825；句子平均只涨 0.0473", True,
            "#9 有 30 个 n 元组，占语料的 21.4%，在语料级 BLEU 里分量大；在句子平均里它只占 1/10。"),
           ("句子 BLEU 的平均涨得多", False, "修好短句 #8 时才是句子平均涨得多（+0.0653 对 +0.0142）。"),
           ("两个数涨得一样多", False, "语料级 +0.1680，句子平均 +0.0473，相差很大。"),
           ("两个数都不变", False, "#9 的译文变好了，两个数都上升。")),
    ),
    "08": (
        _q("种子的单参考例子：sacrebleu 的 `sentence_bleu`（默认设置）给 0.4301，NLTK 的 `sentence_bleu` "
           "（默认设置）印出来是 0.0000。为什么不同？",
           ("平滑的默认值不同：sacrebleu 用 `exp` 平滑，NLTK 的 `method0` 只把 0 换成极小的正数（约 8.2e-78）", True,
            "p_4 = 0/3：`exp` 把它换成 1/6，得 0.4301；`method0` 换成最小的正浮点数，分数极小但不是 0。"),
           ("NLTK 算错了", False, "两个工具都按自己的规则算对了；BLEU 是一族公式，旋钮不同分数就不同。"),
           ("分词不同：sacrebleu 用 13a", False, "这个例子没有标点，13a 和按空白切分的结果相同。"),
           ("参考长度的平局规则不同", False, "只有一条参考，谈不上平局；两者都用 r = 7。")),
        _q("把按句子排的参考列表（`refs[i][k]`）直接交给 sacrebleu 的 `corpus_bleu`，会发生什么？",
           ("不报错，给出另一个分数：81.50 变成 67.13，签名里是 `nrefs:3`", True,
            "sacrebleu 要的是一套一套的参考 (`refs[k][i]`)；排错时它把行列对调着读，还悄悄丢掉了第 3 句。"),
           ("抛出 ValueError", False, "sacrebleu 不检查这一点；报错的是本库的 `corpus_bleu`（收到 sacrebleu 的排法时）。"),
           ("分数不变，两种排法等价", False, "两种排法只是类型相同，行列是对调的，分数从 81.50 变成 67.13。"),
           ("sacrebleu 会自动转换排法", False, "它不会转换；要自己用 `references_from_streams` 转。")),
        _q("候选 “The cat  is on the mat”（cat 后面两个空格），参考 “The cat is on the mat”。"
           "用 d2l 的 `split(' ')` 分词，分数从 1 掉到 0.6841。为什么？",
           ("`split(' ')` 按一个空格切，两个空格之间多出一个空字符串词元 ''：c 变成 7，跨过它的 n 元组都不匹配", True,
            "`split()`（不给参数）把连续空白当成一处，就没有这个问题。"),
           ("d2l 区分大小写", False, "候选和参考的大小写一样，大小写不是原因。"),
           ("d2l 的权重 1/2^n 加起来不是 1", False, "权重相同的情况下，`split()` 给 1，`split(' ')` 给 0.6841，差别来自分词。"),
           ("d2l 只用第一条参考", False, "这个例子本来就只有一条参考。")),
    ),
    "09": (
        _q("zh-en、两条参考：AISP-SJTU（基线）和 HuaweiTSC 都是 34.35，配对自助检验 p = 0.4096。结论是什么？",
           ("差别不显著：两个系统一样好时，仅仅因为抽到哪些句子就常常出现这样的差值", True,
            "p ≥ 0.05，不能说哪个更好；HuaweiTSC 在 1000 次重抽里只赢了 439 次。"),
           ("HuaweiTSC 显著更差", False, "p 值大，说明差别（−0.005 分）在噪声范围内，谈不上显著。"),
           ("p < 0.05，差别显著", False, "0.4096 远大于 0.05。"),
           ("0.4096 是两个系统的分数差", False, "分数差是 −0.005；0.4096 是 p 值。")),
        _q("en-zh 用 `none` 分词（只按空格切分）时，HuaweiTSC 从 73.33（`zh`）跌到 4.05。为什么？",
           ("中文句子常常没有空格，整句就是一个词元：只有和参考一字不差才算匹配，2–4 元组几乎不存在", True,
            "Online-B 的 2037 句里有 1450 句在 `none` 下只有一个词元；WMT 对中文用 `zh` 分词。"),
           ("`none` 会把所有字母转成小写", False, "`none` 只按空白切分，不改大小写；中文也没有大小写。"),
           ("参考译文在 `none` 下被丢掉了", False, "参考没有丢，只是整句成了一个很难匹配的长词元。"),
           ("`none` 和 `char` 一样，把每个字切开", False, "`char` 下 HuaweiTSC 是 73.76，和 `zh` 接近；`none` 不切开汉字。")),
        _q("sacrebleu 的 95% 置信区间半宽（B = 1000 次重抽）是怎么得到的？",
           ("把 1000 个重抽分数排序，取下标 25 和 974 的两个分数，差的一半", True,
            "两头各去掉 2.5%；第 9 章对 HuaweiTSC 手算出 (35.28 − 33.38) / 2 = 0.95。"),
           ("1000 个分数的标准差乘以 1.96", False, "sacrebleu 用排好序的分数的分位点，不假设正态分布。"),
           ("下标 974 和 25 的两个分数之差（不取一半）", False, "那是整个区间的宽度；报告的 ± 是半宽。"),
           ("最大的重抽分数减去最小的", False, "那样会包含全部 100% 的分数，也不是半宽。")),
    ),
}

QUIZZES: dict[str, tuple[Question, ...]] = {
    chapter: tuple(_place(q, int(chapter) + 3 * i + 1) for i, q in enumerate(questions))
    for chapter, questions in _WRITTEN.items()
}

#: ``answers[(chapter, q_index)]``: whether the latest pick for that question was right.
answers: dict[tuple[str, int], bool] = {}


def _chapter(chapter: str | int) -> str:
    try:
        key = f"{int(chapter):02d}"
    except (TypeError, ValueError):
        key = str(chapter)
    if key not in QUIZZES:
        raise ValueError(f"no quiz for chapter {chapter!r}; known: {', '.join(QUIZZES)}")
    return key


def _inline(text: str) -> str:
    """Escape text for HTML and show `code` spans as <code>."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


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
    total = len(QUIZZES[key])
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
    questions = QUIZZES[key]
    print(f"第 {int(key)} 章测验 (quiz)：{len(questions)} 题")
    for q_index, question in enumerate(questions, start=1):
        print(f"{q_index}. {question.prompt}")
        for letter, choice in zip(LETTERS, question.choices, strict=False):
            print(f"   {letter}. {choice.text}")


class Quiz(widgets.VBox):
    """The chapter's questions; picking a choice shows its verdict and explanation.

    ``.radios[i]`` is question i's ``RadioButtons`` (value: the choice's index, or
    ``None``), ``.feedback[i]`` its ``HTML`` (class ``bleu-quiz-feedback``), and
    ``.summary`` shows ``progress_line``.
    """

    def __init__(self, chapter: str | int) -> None:
        self.chapter = _chapter(chapter)
        self.questions = QUIZZES[self.chapter]
        self.radios: list[widgets.RadioButtons] = []
        self.feedback: list[widgets.HTML] = []
        children: list[widgets.Widget] = []
        for q_index, question in enumerate(self.questions):
            prompt = widgets.HTML(f"<b>{q_index + 1}.</b> {_inline(question.prompt)}")
            radio = widgets.RadioButtons(
                options=[(f"{LETTERS[i]}. {c.text}", i) for i, c in enumerate(question.choices)],
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


# --- branch ch10: chapter 10's quiz from bleu_lesson/chapters/ch10.py -------------------
# (until the chapters/ registry of branch sandbox is merged; then delete these lines)
from .chapters import ch10 as _ch10  # noqa: E402, F401  (it adds QUIZZES["10"])

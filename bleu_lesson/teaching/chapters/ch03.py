"""Chapter 3: 截断计数与多参考 (Clipped counts and multiple references): its exercise cases and its quiz questions."""

# The quiz is Chinese prose; ruff counts CJK characters double.
# ruff: noqa: E501

from __future__ import annotations

import random

from bleu_lesson.core.clipping import clipped_counts
from bleu_lesson.teaching.checking import Exercise
from bleu_lesson.teaching.questions import Question, question

__all__ = ["NOTEBOOK", "TITLE", "NEEDS_DATA", "EXPLORERS", "EXERCISES", "QUESTIONS"]

NOTEBOOK = "03_clipped_counts.ipynb"
TITLE = "截断计数与多参考 (Clipped counts and multiple references)"
NEEDS_DATA = False
EXPLORERS: tuple[str, ...] = ('ClippingExplorer',)


_SEED_REFS = ["The cat is sitting on the mat", "A cat is on the mat", "The cat lies on the mat"]


def _hidden(rng: random.Random) -> list[tuple]:
    """Every draw holds: a word the candidate repeats 7 times while three references hold it
    1, 3 and 2 times (max 3, sum 6, min 1, first 1, last 2: each rule gives its own count),
    the same for a repeated bigram, n-grams no reference has, an empty candidate, a
    candidate shorter than n, and a candidate of a few hundred tokens."""
    def sentence(k: int) -> list[str]:
        return [rng.choice("abcd") for _ in range(k)]
    w = rng.choice(("the", "猫", "x"))
    def with_w(k: int, others: int) -> list[str]:
        out = [w] * k + sentence(others)
        rng.shuffle(out)
        return out
    refs = [with_w(1, rng.randint(1, 4)), with_w(3, rng.randint(0, 4)), with_w(2, 2)]
    pair = ["x", "y"]
    bigram_refs = [pair + sentence(2), pair * 3 + ["z"], pair * 2]
    cases: list[tuple] = [
        (with_w(7, rng.randint(0, 5)), refs, 1),
        (pair * 7 + sentence(rng.randint(0, 3)), bigram_refs, 2),
        (["q"] + sentence(rng.randint(3, 6)) + ["q", "r"], [sentence(5), sentence(4)], 1),
        ([], [sentence(rng.randint(1, 5))], rng.randint(1, 4)),
        (sentence(2), [sentence(4)], 3),
        (sentence(rng.randint(200, 400)), [sentence(rng.randint(150, 300)) for _ in range(3)],
         rng.randint(1, 4)),
    ]
    cases += [(sentence(rng.randint(1, 9)), [sentence(rng.randint(1, 9))
                                             for _ in range(rng.randint(1, 3))],
               rng.randint(1, 4)) for _ in range(3)]
    return cases


EXERCISES = (
    Exercise("3.1", "截断计数 my_clipped_count", clipped_counts, (
        ("the the the the the the the".split(),
         ["the cat is on the mat".split(), "there is a cat on the mat".split()], 1),
        ("the cat is on the mat".split(), ["the cat is sitting on the mat".split()], 2),
        ("the cat is on the mat".split(), [r.lower().split() for r in _SEED_REFS], 4),
        ("a a b".split(), [["a", "b"], ["a", "a"]], 1),
        (["a"], [["b"]], 2),
    ), hint="每个 n 元语法的计数不能超过它在任何一条参考译文中出现的最大次数。",
        forbidden=("bleu_lesson.core.clipping.clipped_counts", "bleu_lesson.core.seed.count_clipped_ngrams"),
        generate=_hidden, building_blocks=("ngrams",)),
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
       ("求和会让参考越多，重复的词越占便宜", True,
        "求和时 the 能算 2 + 1 = 3 次。`Counter` 的 `|` 取最大值，正好实现这一点。"),
       ("求和更准确，BLEU 只是为了计算方便才取最大值", False,
        "取最大值是有意的设计：它防止重复的词靠多条参考累积分数。"),
       ("应当取最小值，这样匹配才可靠", False,
        "最小值会让多加一条参考反而降低上限；最小值（`&`）用在候选与参考之间的截断上。"),
       ("取平均值，让每条参考一样重要", False,
        "BLEU 不对参考求平均；平均还可能得到非整数的计数。")),
    question("候选 “the cat the cat”，参考 “the cat sat on the mat”（小写、按空白切分）。修正精确率 p_1 和 p_2 各是多少？",
       ("p_1 = 3/4，p_2 = 1/3", True,
        "1 元语法：the 2 次（参考里 2 次）、cat 2 次（参考里 1 次，截断成 1），共 3/4；2 元语法：“the cat” 2 次截断成 1，“cat the” 不在参考里，共 1/3。"),
       ("p_1 = 4/4，p_2 = 2/3", False,
        "这是不截断的朴素精确率：cat 和 “the cat” 各多算了一次。"),
       ("p_1 = 3/4，p_2 = 2/3", False,
        "2 元语法也要截断：“the cat” 在参考里只出现 1 次。"),
       ("p_1 = 2/4，p_2 = 1/3", False,
        "the 在参考里出现 2 次，候选的两个 the 都算数。")),
)

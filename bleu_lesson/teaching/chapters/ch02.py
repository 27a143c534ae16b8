"""Chapter 2: n 元语法 (N-grams): its exercise cases and its quiz questions."""

# The quiz is Chinese prose; ruff counts CJK characters double.
# ruff: noqa: E501

from __future__ import annotations

import random

from bleu_lesson.core.ngrams import ngrams
from bleu_lesson.teaching.checking import Exercise
from bleu_lesson.teaching.questions import Question, question

__all__ = ["NOTEBOOK", "TITLE", "NEEDS_DATA", "EXPLORERS", "EXERCISES", "QUESTIONS"]

NOTEBOOK = "02_ngrams.ipynb"
TITLE = "n 元语法 (N-grams)"
NEEDS_DATA = False
EXPLORERS: tuple[str, ...] = ('NgramExplorer',)


_VOCAB = ("the", "cat", "is", "on", "mat", "a", "猫", "The")


def _hidden(rng: random.Random) -> list[tuple]:
    """Every draw holds: no tokens, one token (n = 1 and n = 2), n equal to the length and
    one more, repeated n-grams (for n = 1 and n = 2), and a few hundred tokens."""
    def tokens(k: int) -> list[str]:
        return [rng.choice(_VOCAB) for _ in range(k)]
    word = rng.choice(_VOCAB)
    k = rng.randint(2, 6)
    cases: list[tuple] = [
        ([], rng.randint(1, 4)), ([word], 1), ([word], 2), (tokens(k), k), (tokens(k), k + 1),
        ([word, word, word] + tokens(2) + [word, word], 1),
        ([word, "cat"] * rng.randint(2, 4) + tokens(1), 2),
        (tokens(rng.randint(200, 400)), rng.randint(1, 6)),
    ]
    cases += [(tokens(rng.randint(0, 9)), rng.randint(1, 5)) for _ in range(2)]
    return cases


EXERCISES = (
    Exercise("2.1", "n 元语法 my_ngrams", ngrams, (
        (["the", "cat", "is", "on"], 2), (["the", "cat", "is", "on"], 1),
        (["the", "cat", "is", "on"], 4), (["the", "cat"], 3), ([], 1),
    ), hint="长度为 L 的句子有 max(L - n + 1, 0) 个 n 元语法；每个 n 元语法是一个 tuple "
            "(元组)，不是 list：tuple(tokens[i:i + n])。",
        forbidden=("bleu_lesson.core.ngrams.ngrams", "bleu_lesson.core.seed.get_ngrams"),
        generate=_hidden),
)

QUESTIONS: tuple[Question, ...] = (
    question("“the cat is on the mat” 有 L = 6 个词元。它有几个 4 元语法？",
       ("3 个", True,
        "个数是 max(L − n + 1, 0) = 6 − 4 + 1 = 3：the cat is on、cat is on the、is on the mat。"),
       ("4 个", False,
        "4 个是 3 元语法的个数（6 − 3 + 1）。"),
       ("6 个", False,
        "6 个是 1 元语法的个数；每长一阶，个数少 1。"),
       ("2 个", False,
        "最后一个 4 元语法从第 3 个词元开始、在第 6 个词元结束，起点有 1、2、3 三种。")),
    question("`get_ngrams(tokens, n)` 在 n 大于句子长度 L 时返回什么？",
       ("空列表 []", True,
        "`range(len(tokens) - n + 1)` 的参数 ≤ 0，循环一次也不执行，这就是公式里的 max(·, 0)。"),
       ("L − n + 1 个（一个负数）", False,
        "个数不会是负数：n > L 时句子里放不下任何 n 元语法，个数是 0。"),
       ("整句话作为一个 n 元语法", False,
        "n 元语法必须恰好有 n 个连续词元，整句只有 L < n 个。"),
       ("抛出 ValueError", False,
        "只有 n 不是正整数时才报错；n > L 是合法的，结果是空列表。")),
    question("用 `ngram_counts` 数 “the cat is on the mat” 的 1 元语法：总次数和不同的 1 元语法各有多少？",
       ("总次数 6，不同的 5 种", True,
        "“the” 出现两次（位置 1 和 5），要数两次；总次数仍是 L − n + 1 = 6。"),
       ("总次数 5，不同的 5 种", False,
        "重复出现的 n 元语法要按出现次数计数，“the” 算 2 次。"),
       ("总次数 6，不同的 6 种", False,
        "“the” 出现了两次，所以不同的 1 元语法只有 5 种。"),
       ("总次数 5，不同的 6 种", False,
        "不同的种数不可能多于总次数。")),
)

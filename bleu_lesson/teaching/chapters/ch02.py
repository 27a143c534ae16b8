"""Chapter 2: n 元语法 (N-grams): its exercise cases and its quiz questions."""

# The quiz is Chinese prose; ruff counts CJK characters double.
# ruff: noqa: E501

from __future__ import annotations

from typing import Any

from bleu_lesson.core.ngrams import ngrams
from bleu_lesson.core.seed import tokenize as seed_tokenize
from bleu_lesson.teaching.checking import Exercise, _show
from bleu_lesson.teaching.questions import Question, question

__all__ = ["NOTEBOOK", "TITLE", "NEEDS_DATA", "EXPLORERS", "EXERCISES", "QUESTIONS"]

NOTEBOOK = "02_ngrams.ipynb"
TITLE = "n 元语法 (N-grams)"
NEEDS_DATA = False
EXPLORERS: tuple[str, ...] = ('NgramExplorer',)


# 2.1 is a construction: a sentence whose n-gram counts match a table. A function of no
# arguments returning a string, so a student copy's stub is "not done"; the judge is trusted.

#: n -> (total n-grams, distinct n-grams) the learner's sentence must have (seed tokenizer)
TARGET = {1: (8, 3), 2: (7, 3), 3: (6, 3), 4: (5, 3)}


def counts_table(text: str) -> dict[int, tuple[int, int]]:
    """n -> (total, distinct) n-grams of ``text`` under the seed tokenizer, n = 1..4.

    >>> counts_table("the cat the cat")
    {1: (4, 2), 2: (3, 2), 3: (2, 2), 4: (1, 1)}
    """
    tokens = seed_tokenize(text)
    return {n: (len(grams), len(set(grams))) for n in TARGET
            for grams in [ngrams(tokens, n)]}


def _judge_sentence(case: tuple, got: Any) -> tuple[bool, str]:
    """The sentence's (total, distinct) n-gram counts are TARGET's for n = 1..4."""
    if not (isinstance(got, str) and got.strip()):
        return False, f"{_show(got)}：不是一个非空字符串 (a non-empty string)"
    table = counts_table(got)
    shown = "; ".join(f"n = {n}: {t} 个, {d} 种" for n, (t, d) in table.items())
    return table == TARGET, f"{len(seed_tokenize(got))} 个词元 (tokens); {shown}"


EXERCISES = (
    Exercise("2.1", "由计数反推句子 my_sentence", None, ((),), judge=_judge_sentence,
             extra={"expect": "返回一个字符串：按种子的方式分词后，n = 1, 2, 3, 4 时 n 元语法"
                              "的总个数是 8, 7, 6, 5，不同的种数都是 3"},
             hint="总个数只取决于句子长度 L；要让每一阶都只有 3 种，后面的词就要重复"
                  "前面出现过的词串。",
             building_blocks=("ngrams",)),  # the chapter's own n-grams, to try sentences with
)

QUESTIONS: tuple[Question, ...] = (
    question("“the cat is on the mat” 有 L = 6 个词元。它有几个 4 元语法？",
       ("4 个", False,
        "4 个是 3 元语法的个数（6 − 3 + 1）。"),
       ("6 个", False,
        "6 个是 1 元语法的个数；每长一阶，个数少 1。"),
       ("2 个", False,
        "最后一个 4 元语法从第 3 个词元开始、在第 6 个词元结束，起点有 1、2、3 三种。"),
       ("3 个", True,
        "个数是 max(L − n + 1, 0) = 6 − 4 + 1 = 3：the cat is on、cat is on the、is on the mat。")),
    question("`get_ngrams(tokens, n)` 在 n 大于句子长度 L 时返回什么？",
       ("L − n + 1 个（一个负数）", False,
        "个数不会是负数：n > L 时句子里放不下任何 n 元语法，个数是 0。"),
       ("空列表 []", True,
        "`range(len(tokens) - n + 1)` 的参数 ≤ 0，循环一次也不执行，这就是公式里的 max(·, 0)。"),
       ("整句话作为一个 n 元语法", False,
        "n 元语法必须恰好有 n 个连续词元，整句只有 L < n 个。"),
       ("抛出 ValueError", False,
        "只有 n 不是正整数时才报错；n > L 是合法的，结果是空列表。")),
    question("用 `ngram_counts` 数 “the cat is on the mat” 的 1 元语法：总次数和不同的 1 元语法各有多少？",
       ("总次数 5，不同的 5 种", False,
        "重复出现的 n 元语法要按出现次数计数，“the” 算 2 次。"),
       ("总次数 6，不同的 6 种", False,
        "“the” 出现了两次，所以不同的 1 元语法只有 5 种。"),
       ("总次数 6，不同的 5 种", True,
        "“the” 出现两次（位置 1 和 5），要数两次；总次数仍是 L − n + 1 = 6。"),
       ("总次数 5，不同的 6 种", False,
        "不同的种数不可能多于总次数。")),
)

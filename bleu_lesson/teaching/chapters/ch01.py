"""Chapter 1: 分词 (Tokenization): its exercise cases and its quiz questions."""

# The quiz is Chinese prose; ruff counts CJK characters double.
# ruff: noqa: E501

from __future__ import annotations

import random

from bleu_lesson.core.seed import tokenize as seed_tokenize
from bleu_lesson.teaching.checking import Exercise
from bleu_lesson.teaching.questions import Question, question

__all__ = ["NOTEBOOK", "TITLE", "NEEDS_DATA", "EXPLORERS", "EXERCISES", "QUESTIONS"]

NOTEBOOK = "01_tokenization.ipynb"
TITLE = "分词 (Tokenization)"
NEEDS_DATA = False
EXPLORERS: tuple[str, ...] = ('TokenizerExplorer',)


_WORDS = ("The", "cat", "MAT", "is", "on", "猫", "垫子", "Hello,", "world!", "a", "Straße",
          "ÉTÉ", "ΣΟΦΙΑ", "mat.")
_ASCII_SPACES = (" ", "  ", "\t", "\n", " \t ", "\r\n", "\x0b", "\x0c")
# whitespace to str.split() (and to Chinese text) that an ASCII-only split keeps inside a token
_UNICODE_SPACES = ("\u3000", "\u00a0", "\u2003", "\u2009", "\u202f", "\x85", "\u2028", "\x1c")


def _text(rng: random.Random, words: list[str], spaces: tuple[str, ...]) -> str:
    return "".join(w + rng.choice(spaces) for w in words[:-1]) + (words[-1] if words else "")


def _hidden(rng: random.Random) -> list[tuple]:
    """Every draw holds each kind of input a wrong rule gets wrong: empty or blank text,
    one token, words split by the full-width space U+3000 and by other Unicode whitespace,
    upper case outside ASCII (and ß, which casefold() changes), leading and trailing
    whitespace, repeated words, and a few hundred tokens."""
    def words(k: int) -> list[str]:
        return [rng.choice(_WORDS) for _ in range(k)]
    both = _ASCII_SPACES + _UNICODE_SPACES
    cases = [
        (rng.choice(("", " ", "\u3000", "\t\n")),),
        (rng.choice(both) + rng.choice(("Cat", "ÉTÉ", "Straße")) + rng.choice(both),),
        ("\u3000".join(words(rng.randint(3, 6)) + ["猫"]),),
        (_text(rng, words(rng.randint(2, 5)) + ["Straße", "ΣΟΦΙΑ"], _UNICODE_SPACES),),
        ("  " + _text(rng, words(rng.randint(2, 5)) + ["The", "the"], (" ", "  ")) + " \t",),
        (_text(rng, words(rng.randint(200, 400)), both),),
    ]
    for _ in range(2):
        cases.append((rng.choice(("", " ")) + _text(rng, words(rng.randint(0, 9)), both)
                      + rng.choice(("", " ", "\u3000")),))
    return cases


EXERCISES = (
    Exercise("1.1", "种子分词器 my_tokenize", seed_tokenize, (
        ("The cat is on the mat",), ("  Hello,   World!  ",), ("",), ("猫 在 垫子 上",),
        ("A\tB\nc",),
    ), hint="先转小写，再按任意空白切分 (lowercase, then split on any whitespace).",
        forbidden=("bleu_lesson.core.seed.tokenize",), generate=_hidden),
)

QUESTIONS: tuple[Question, ...] = (
    question("用种子的分词器（转小写 + 按空白切分），候选 “The cat is on the mat” 与参考 “The cat is on the mat.” 的 1 元语法匹配是多少？",
       ("6/6", False,
        "这是 13a 分词器的结果：它把句号切成单独的词元，“mat” 才能匹配。"),
       ("5/6", True,
        "句号粘在 “mat” 上成了词元 “mat.”，而 “mat.” ≠ “mat”，候选的 “mat” 找不到对应的词。"),
       ("5/7", False,
        "分母是候选的 1 元语法个数，候选只有 6 个词元；7 是 13a 下参考的长度。"),
       ("0/6", False,
        "转小写后 “the”、“cat”、“is”、“on”、“the” 都能匹配，只有 “mat” 不行。")),
    question("用种子的分词器给中文 “猫坐在垫子上” 和一模一样的参考打分，BLEU 是 0.0000。为什么？",
       ("整句成了一个词元，没有 2–4 元语法，这几阶记为 0", True,
        "只有一个词元的句子放不下任何 2 元语法，种子代码把这些阶记为 0，几何平均就是 0。"),
       ("汉字不能转小写，种子的分词器在中文上出错，于是返回了 0", False,
        "分词没有报错：“tokenize” 返回了 ['猫坐在垫子上']，只有一个词元。"),
       ("两句话看着一样，其实有一个字的编码不同", False,
        "两句完全相同；p_1 = 1.000，只是 p_2 到 p_4 都是 0。"),
       ("整句一个词元，p_1 = 1/1，所以分数本应是 1；0 只是浮点误差", False,
        "p_1 确实是 1/1，但 2–4 阶没有 n 元语法，种子代码把它们记为 0，几何平均就是 0，不是误差。")),
    question("对 “我在2022年读了BLEU论文。”，`char` 和 `zh` 分词器有什么区别？",
       ("`char` 把 “2022” 切成 4 个词元，`zh` 保留它", True,
        "所以把年份译错成 2021 时，`char` 下 “2”“0”“2” 仍算匹配（15/16），`zh` 下整个 “2022” 都不匹配（9/10）。"),
       ("两者完全相同，都把每个字符切成一个词元，只是名字不同", False,
        "这句话在 `char` 下有 16 个词元，在 `zh` 下有 10 个。"),
       ("`zh` 会把中文分成词语（如 “论文”），`char` 切成单字", False,
        "sacrebleu 的 `zh` 不做中文分词：每个汉字单独成一个词元，只有非中文片段保持完整。"),
       ("`13a` 也能这样切开汉字，`char` 和 `zh` 只是更快", False,
        "`13a` 只切 ASCII 标点，“BLEU在2002年提出。” 在 `13a` 下仍是 1 个词元。")),
)

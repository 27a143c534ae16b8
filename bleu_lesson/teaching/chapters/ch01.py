"""Chapter 1: 分词 (Tokenization): its exercise cases and its quiz questions."""

# The quiz is Chinese prose; ruff counts CJK characters double.
# ruff: noqa: E501

from __future__ import annotations

import re
from difflib import SequenceMatcher
from fractions import Fraction
from typing import Any

from bleu_lesson.core.seed import count_clipped_ngrams
from bleu_lesson.core.seed import tokenize as seed_tokenize
from bleu_lesson.core.tokenizers import tokenize
from bleu_lesson.teaching.checking import Exercise, _show, fold_lookalikes, overlap
from bleu_lesson.teaching.questions import Question, question

__all__ = ["NOTEBOOK", "TITLE", "NEEDS_DATA", "EXPLORERS", "EXERCISES", "QUESTIONS"]

NOTEBOOK = "01_tokenization.ipynb"
TITLE = "分词 (Tokenization)"
NEEDS_DATA = False
EXPLORERS: tuple[str, ...] = ('TokenizerExplorer',)


# 1.1 is a construction: the learner builds three (candidate, reference) pairs whose
# unigram precision orders two tokenizers one way; a function of no arguments returning
# plain data, so a student copy's stub is "not done". The judge is trusted code.

#: part of the answer -> (the tokenizer that must score higher, the other one)
PAIRS = {"seed_beats_13a": ("seed", "13a"), "13a_beats_seed": ("13a", "seed"),
         "char_beats_zh": ("char", "zh")}

#: the pairs the chapter itself works through, per part (either order, any spacing/case)
_SHOWN = {
    "seed_beats_13a": ("The cat is on the mat", "the cat is on the mat"),
    "13a_beats_seed": ("The cat is on the mat", "The cat is on the mat."),
    "char_beats_zh": ("我在2022年读了BLEU论文。", "我在2021年读了BLEU论文。"),
}


#: Every sentence the chapter's notebook quotes in its text or holds in its code (its
#: solution left out): the task says not to use them, so no part of 1.1 may be one of them
#: or a near copy (``_same_text``). tests/test_exercise_11_sentences.py extracts them from
#: the notebook again and compares, so this list cannot go stale. It is the chapter's own
#: text, not an answer: any process may hold it.
CHAPTER_SENTENCES: tuple[str, ...] = (
    "The cat is on the mat.",
    "It's 3.5 dollars, isn't it?",
    "the cat is on the mat",
    "猫坐在垫子上",
    "我在2022年读了BLEU论文。",
    "我在2021年读了BLEU论文。",
    "猫坐在垫子上了",
    "和 13a 完全一样",
    "我们明天去北京开会。",
    "我们明天到北京开会。",
    "ＢＬＥＵ在２０２２年提出，",
    "BLEU在2022年提出，",
    "BLEU在2002年提出。",
    "The cat sat on the mat.",
)


def _tokens(name: str, text: str) -> list[str]:
    return seed_tokenize(text) if name == "seed" else tokenize(text, name)


def unigram_precision(name: str, candidate: str, reference: str) -> Fraction:
    """Clipped unigram matches over candidate tokens under tokenizer ``name``
    (``"seed"`` or a name in ``TOKENIZERS``), as an exact fraction.

    >>> str(unigram_precision("seed", "The cat sat.", "the cat sat"))
    '2/3'
    """
    cand, ref = _tokens(name, candidate), _tokens(name, reference)
    matched, total = count_clipped_ngrams(cand, [ref], 1)
    return Fraction(matched, total) if total else Fraction(0)


def _units(text: str) -> list[str]:
    """Lowercased words and numbers (runs of letters and digits), with each CJK character a
    unit of its own, after look-alike letters are folded (``fold_lookalikes``). A number is one
    unit: a learner's "公司在2023年建成。" shares 在 and 年 with the chapter's "ＢＬＥＵ在２０２２年提出，",
    not five units (issue 20, round 23: digit by digit, 18 of 64 such sentences were taken
    for near copies).

    >>> _units("ＢＬＥＵ在２０２２年提出，")  # look-alikes folded: 0 reads as o
    ['bleu', '在', '2o22', '年', '提', '出']
    """
    return re.findall(r"[\u3400-\u4dbf\u4e00-\u9fff]|[^\W_\u3400-\u4dbf\u4e00-\u9fff]+",
                      fold_lookalikes(text).lower())


def _trigrams(text: str) -> list[str]:
    """Every run of three characters of ``text`` once look-alikes are folded and every
    space and punctuation mark is taken out.

    >>> _trigrams("The cat!") == _trigrams("Th ecat")
    True
    >>> _trigrams("The cat")
    ['the', 'hec', 'eca', 'cat']
    """
    letters = "".join(_units(text))
    return [letters[i:i + 3] for i in range(len(letters) - 2)]


def _same_text(a: str, b: str) -> bool:
    """Whether ``a`` is ``b`` or a near copy of it: more than half of their words (or
    characters, in Chinese) in common, in any order (``overlap``), so a word changed,
    added or removed, or the words reversed or shuffled, still leave the chapter's pair;
    or all of ``b`` but one unit inside ``a``, whatever else ``a`` holds: in order with
    filler between them, or side by side in any order before or after a long tail; or
    the same letters with the spaces taken out or moved (runs of three characters).

    >>> _same_text("The cat is on the rug", "The cat is on the mat"), _same_text("A dog", "a cat")
    (True, False)
    >>> _same_text("mat the on is cat The", "the cat is on the mat")
    True
    >>> _same_text("The cat is on the mat and we all went home after a long day", "the cat is on the mat")
    True
    >>> _same_text("The x x cat x x is x x on x x the x x mat", "the cat is on the mat")
    True
    >>> _same_text("mat the on is cat the and we all went home after a long day", "the cat is on the mat")
    True
    >>> _same_text("The dog sleeps on the sofa all day", "the cat is on the mat")
    False
    >>> _same_text("Thecat is onthe mat", "the cat is on the mat"), _same_text("Thecatisonthemat", "the cat is on the mat")
    (True, True)
    """
    ua, ub = _units(a), _units(b)
    if ua == ub or 2 * overlap(ua, ub) / (len(ua) + len(ub)) > 0.5:
        return True
    # the same letters with the spaces taken out or moved ("Thecat is onthe mat"): their
    # runs of three characters, spaces and punctuation left out
    ta, tb = _trigrams(a), _trigrams(b)
    if ta and tb and (2 * overlap(ta, tb) / (len(ta) + len(tb)) > 0.5
                      or overlap(ta, tb) >= len(tb) - 2 >= 3):
        return True
    # the chapter's text kept (all but one unit) inside a longer answer: a long tail, or
    # filler between its words, lowers the ratio but leaves the chapter's pair
    enough = max(len(ub) - 1, 3)
    matcher = SequenceMatcher(None, ua, ub, autojunk=False)  # in order, filler between
    if sum(block.size for block in matcher.get_matching_blocks()) >= enough:
        return True
    k = len(ub)  # side by side, in any order
    return any(overlap(ua[i:i + k], ub) >= enough for i in range(len(ua) - k + 1))


def _judge_pairs(case: tuple, got: Any) -> tuple[bool, str]:
    """Each part's pair scores strictly higher unigram precision under its first tokenizer."""
    if not (isinstance(got, dict) and set(got) == set(PAIRS)):
        return False, f"{_show(got)}：不是以 {', '.join(PAIRS)} 为键的 dict"
    for part, pair in got.items():
        if not (isinstance(pair, tuple | list) and len(pair) == 2
                and all(isinstance(t, str) and t.strip() for t in pair)):
            return False, f"{part}: {_show(pair)}：不是 (candidate, reference) 两个非空字符串"
    lines, ok = [], True
    for part, (better, other) in PAIRS.items():
        cand, ref = got[part]
        shown = _SHOWN[part]
        if {(_same_text(cand, shown[0]) and _same_text(ref, shown[1])),
                (_same_text(cand, shown[1]) and _same_text(ref, shown[0]))} != {False}:
            lines.append(f"{part}: 这是本章正文里的例子，或只改了一两个词 (the chapter's own "
                         "example, or a near copy)，请自己构造一个 (build your own)")
            ok = False
            continue
        quoted = next((s for s in CHAPTER_SENTENCES
                       if _same_text(cand, s) or _same_text(ref, s)), None)
        if quoted is not None:
            lines.append(f"{part}: 用了本章正文里的句子 “{quoted}”，或只改了一两个词 (a "
                         "sentence of the chapter's own text, or a near copy)，请自己构造一个 "
                         "(build your own)")
            ok = False
            continue
        hi, lo = unigram_precision(better, cand, ref), unigram_precision(other, cand, ref)
        lines.append(f"{part}: {better} p_1 = {hi}, {other} p_1 = {lo}"
                     + ("" if hi > lo else f"（{better} 没有更高 / not higher）"))
        ok = ok and hi > lo
    return ok, "\n  ".join(lines)


EXERCISES = (
    Exercise("1.1", "造句比较分词器 my_tokenizer_pairs", None, ((),), judge=_judge_pairs,
             extra={"expect": "返回 dict：seed_beats_13a、13a_beats_seed、char_beats_zh 各是一对 "
                              "(candidate, reference)，在前一个分词器下的 1 元语法精确率"
                              "严格高于后一个；不能是正文里的例子"},
             hint="想想每个分词器的两条规则：种子 = 转小写 + 按空白切分；13a 切开 ASCII 标点、"
                  "区分大小写；char 切开每个字符，zh 切开每个汉字和中文标点，其余片段按 13a 切分。",
             # the chapter's tokenizers, to try sentences with (the judge scores the pairs
             # themselves; issue 20, round 23: a search with them was refused); char and intl
             # are sacrebleu's own, so sacrebleu is there too
             building_blocks=("tokenizers", "tok13a", "tokzh"), libraries=("sacrebleu",),
             ),
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
       ("汉字不能转小写，种子的分词器在中文上出错，于是返回了 0", False,
        "分词没有报错：“tokenize” 返回了 ['猫坐在垫子上']，只有一个词元。"),
       ("两句话看着一样，其实有一个字的编码不同", False,
        "两句完全相同；p_1 = 1.000，只是 p_2 到 p_4 都是 0。"),
       ("整句一个词元，p_1 = 1/1，所以分数本应是 1；0 只是浮点误差", False,
        "p_1 确实是 1/1，但 2–4 阶没有 n 元语法，种子代码把它们记为 0，几何平均就是 0，不是误差。"),
       ("整句成了一个词元，没有 2–4 元语法，这几阶记为 0", True,
        "只有一个词元的句子放不下任何 2 元语法，种子代码把这些阶记为 0，几何平均就是 0。")),
    question("对 “我在2022年读了BLEU论文。”，`char` 和 `zh` 分词器有什么区别？",
       ("`char` 把 “2022” 切成 4 个词元，`zh` 保留它", True,
        "所以把年份译错成 2021 时，`char` 下 “2”“0”“2” 仍算匹配（15/16），`zh` 下整个 “2022” 都不匹配（9/10）。"),
       ("两者完全相同，都把每个字符切成一个词元，只是名字不同", False,
        "这句话在 `char` 下有 16 个词元，在 `zh` 下有 10 个。"),
       ("`zh` 会把中文分成词语（如 “论文”），`char` 切成单字", False,
        "sacrebleu 的 `zh` 不做中文分词：每个汉字单独成一个词元，非中文片段按 13a 切分。"),
       ("`13a` 也能这样切开汉字，`char` 和 `zh` 只是更快", False,
        "`13a` 只切 ASCII 标点，“BLEU在2002年提出。” 在 `13a` 下仍是 1 个词元。")),
)

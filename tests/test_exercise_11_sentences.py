"""1.1 refuses every sentence its chapter shows, not only its three worked pairs.

The task says "不要用本章正文里的句子" (do not use the chapter's sentences); a tenth
hostile review passed 1.1 with other sentences chapter 1 prints ("It's 3.5 dollars,
isn't it?", "BLEU在2002年提出。", the full-width "ＢＬＥＵ在２０２２年提出"). The judge
now refuses any sentence of ``ch01.CHAPTER_SENTENCES``, and this module extracts that
list from the notebook again, so it cannot go stale.
"""

from __future__ import annotations

import ast
import json
import re

import pytest
from notebook_tools import ROOT
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from bleu_lesson.teaching import exercises
from bleu_lesson.teaching.chapters import ch01

NOTEBOOK = ROOT / "notebooks" / ch01.NOTEBOOK
QUOTED = re.compile(r'"([^"\n]+)"|“([^”\n]+)”')


def chapter_sentences() -> list[str]:
    """The quoted text of the notebook's markdown (outside code blocks) and the string
    literals of its code (not f-string pieces, not the solution cell): those of five units
    or more (``_units``: words, CJK characters, digits) that are not a bare name or a label."""
    found: list[str] = []
    for cell in json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            text = re.sub(r"```.*?```", "", source, flags=re.S)
            found += [a or b for a, b in QUOTED.findall(text)]
        elif cell["cell_type"] == "code" and "### BEGIN SOLUTION" not in source:
            tree = ast.parse(source)
            pieces = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)
                      for v in n.values}
            found += [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
                      and isinstance(n.value, str) and id(n) not in pieces]
    out: list[str] = []
    for s in (s.strip() for s in found):
        if (len(ch01._units(s)) >= 5 and not re.fullmatch(r"[A-Za-z0-9_]+", s)
                and not s.endswith(":") and s not in out):
            out.append(s)
    return out


def test_the_packaged_list_is_the_notebooks_sentences():
    assert list(ch01.CHAPTER_SENTENCES) == chapter_sentences()


def test_the_review_sentences_are_in_the_list():
    for s in ("It's 3.5 dollars, isn't it?", "BLEU在2002年提出。", "ＢＬＥＵ在２０２２年提出，"):
        assert s in ch01.CHAPTER_SENTENCES


# seed = lower + whitespace split; 13a, char and zh are sacrebleu's own tokenizers
TOKENIZE = {"seed": lambda s: s.lower().split(), "13a": Tokenizer13a(),
            "char": TokenizerChar(), "zh": TokenizerZh()}


def p1(name: str, cand: str, ref: str) -> float:
    c, r = TOKENIZE[name](cand), TOKENIZE[name](ref)
    if isinstance(c, str):
        c, r = c.split(), r.split()
    left = list(r)
    hits = 0
    for t in c:
        if t in left:
            left.remove(t)
            hits += 1
    return hits / len(c)


HONEST = {"seed_beats_13a": ("The dog barked", "the dog barked"),
          "13a_beats_seed": ("the dog barked.", "the dog barked"),
          "char_beats_zh": ("猫有13只", "猫有14只")}

COPIES = [  # (part, pair): the tenth review's pairs and the full-width variants
    ("seed_beats_13a", ("It's 3.5 dollars, isn't it?", "it's 3.5 dollars, isn't it?")),
    ("13a_beats_seed", ("It's 3.5 dollars, isn't it?", "It's 3.5 dollars , isn't it ?")),
    ("char_beats_zh", ("BLEU在2002年提出。", "BLEU在2020年提出。")),
    ("char_beats_zh", ("ＢＬＥＵ在2022年提出", "ＢＬＥＵ在2021年提出")),
    ("char_beats_zh", ("BLEU在２０２２年提出。", "BLEU在２０１２年提出。")),
    ("char_beats_zh", ("BLEU在2022年提出，", "BLEU在2012年提出，")),
    ("seed_beats_13a", ("The cat sat on the mat.", "the cat sat on the mat.")),
    ("char_beats_zh", ("我们明天去北京开会2022", "我们明天去北京开会2021")),
]


@pytest.mark.parametrize("part,pair", COPIES)
def test_a_sentence_of_the_chapter_fails_1_1(part, pair):
    better, other = ch01.PAIRS[part]
    # it would pass on the numbers: the first tokenizer scores strictly higher (sacrebleu)
    assert p1(better, *pair) > p1(other, *pair), (part, pair)
    result = exercises.run("1.1", lambda: {**HONEST, part: pair})
    assert result.status == "fail", (part, pair)
    line = next(x for x in result.detail.splitlines() if f"{part}: " in x)
    assert "本章正文里的" in line, line


def test_honest_pairs_still_pass():
    assert exercises.run("1.1", lambda: dict(HONEST)).status == "pass"
    other = {"seed_beats_13a": ("Bob plays chess", "bob plays chess"),
             "13a_beats_seed": ("we won!", "we won"),
             "char_beats_zh": ("我有13本书", "我有15本书")}
    assert exercises.run("1.1", lambda: other).status == "pass"

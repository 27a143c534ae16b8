"""Exercises 1.1 and 2.1 ask the learner to construct, and reject the wrong constructions a
learner would really give (issue 21; the style of test_exercise_variants.py).

1.1: three (candidate, reference) pairs on which one tokenizer gives a strictly higher
unigram precision than another (seed over 13a, 13a over seed, char over zh). 2.1: a sentence
whose n-gram counts, orders 1-4, are 8, 7, 6, 5 in total and 3 distinct each.

Each wrong answer below is what a learner holding one of the wrong beliefs the course
corrects would construct (13a lowercases, the seed tokenizer cuts punctuation, 13a cuts the
full-width 。, zh segments words, an order has L - n n-grams, ...), or an answer right only
on the chapter's own example. Each must fail the notebook's ``check`` and every draw of
``bleu-lesson check`` (the fixed case plus whatever hidden cases an exercise draws), and a
failure must not show a right answer. The right answers were worked out by hand (their
precisions are in the comments), independently of the judge.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from bleu_lesson.teaching import exercises

ROOT = Path(__file__).resolve().parent.parent
SEEDS = range(20)

# --- right answers, by hand -------------------------------------------------------------

# seed: it/rained vs it/rained 2/2; 13a: "It" != "it", 1/2
# 13a: it/rained/. vs it/rained 2/3; seed: "rained." != "rained", 1/2
# char: 第/2/0/页 vs 第/2/1/页 3/4; zh: 第/20/页 vs 第/21/页 2/3
RIGHT_PAIRS = {"seed_beats_13a": ("It rained", "it rained"),
               "13a_beats_seed": ("it rained.", "it rained"),
               "char_beats_zh": ("第20页", "第21页")}
# 8 tokens: 8, 7, 6, 5 n-grams; a cycle of three words: 3 kinds of every order
RIGHT_SENTENCES = ("x y z x y z x y", "a a a a a a b c", "One two three one two three one two")

#: a twenty-third hostile review: a learner's own sentence with a year in it was taken for
#: a near copy of the chapter's "ＢＬＥＵ在２０２２年提出，" (digits counted one by one)
YEAR_PAIRS = [{**RIGHT_PAIRS, "char_beats_zh": pair} for pair in (
    ("公司在2023年建成。", "公司在2024年建成。"), ("他在2020年毕业。", "他在2021年毕业。"))]

RIGHT = {"1.1": [lambda: RIGHT_PAIRS, lambda: {k: list(v) for k, v in RIGHT_PAIRS.items()},
                 *[lambda p=p: p for p in YEAR_PAIRS]],
         "2.1": [lambda s=s: s for s in RIGHT_SENTENCES]}


def pairs_with(**part):
    return lambda: {**RIGHT_PAIRS, **part}


WRONG = {
    "1.1": {
        # a hostile review's find: the chapter's own pairs with one word or digit changed
        "the chapter's pairs, one word changed": {
            "seed_beats_13a": ("The cat is on the mat !", "the cat is on the mat !"),
            "13a_beats_seed": ("The cat is on the rug", "The cat is on the rug."),
            "char_beats_zh": ("我在2022年读了BLEU论文", "我在2021年读了BLEU论文")},
        # a second hostile review's finds: a word added in front, or the first word dropped
        "the chapter's pairs, a word put in front": {
            "seed_beats_13a": ("So The cat is on the mat", "so the cat is on the mat"),
            "13a_beats_seed": ("Yes The cat is on the mat", "Yes The cat is on the mat."),
            "char_beats_zh": ("昨天我在2022年读了BLEU论文。", "昨天我在2021年读了BLEU论文。")},
        "the chapter's pairs, the first word dropped": {
            "seed_beats_13a": ("Cat is on the mat", "cat is on the mat"),
            "13a_beats_seed": ("cat is on the mat", "cat is on the mat."),
            "char_beats_zh": ("在2022年读了BLEU论文。", "在2021年读了BLEU论文。")},
        # a third hostile review's find: the chapter's pairs with one long tail added to both
        # sides (the tail dilutes difflib's ratio below one half)
        "the chapter's pairs, a long tail on both sides": lambda t=(
                " and we all went home to sleep after a long day at work",
                "，然后我们大家都高高兴兴地回家睡觉了，因为今天的工作实在是太累了。"): {
            "seed_beats_13a": ("The cat is on the mat" + t[0], "the cat is on the mat" + t[0]),
            "13a_beats_seed": ("The cat is on the mat" + t[0],
                               "The cat is on the mat" + t[0] + "."),
            "char_beats_zh": ("我在2022年读了BLEU论文" + t[1], "我在2021年读了BLEU论文" + t[1])},
        # and a fourth: filler put between the chapter's words
        "the chapter's pairs, filler between the words": lambda f=" x x x ": {
            "seed_beats_13a": (f.join("The cat is on the mat".split()),
                               f.join("the cat is on the mat".split())),
            "13a_beats_seed": (f.join("The cat is on the mat".split()),
                               f.join("The cat is on the mat".split()) + "."),
            "char_beats_zh": ("我在2022年今天上午在图书馆里读了BLEU论文",
                              "我在2021年今天上午在图书馆里读了BLEU论文")},
        # a fifth: the chapter's pairs in look-alike letters (Cyrillic е а о, compatibility
        # ideographs, Kangxi radicals, invisible Hangul fillers)
        "the chapter's pairs in look-alike letters": lambda: {
            "seed_beats_13a": ("Th\u0435 c\u0430t is \u043en th\u0435 m\u0430t",
                               "th\u0435 c\u0430t is \u043en th\u0435 m\u0430t"),
            "13a_beats_seed": ("Th\u0435 c\u0430t is \u043en th\u0435 m\u0430t",
                               "Th\u0435 c\u0430t is \u043en th\u0435 m\u0430t."),
            "char_beats_zh": ("\u6211\u115f\u5728\u115f2O2\u115f2\uf98e\u8b80\uf9ba"
                              "\u0412L\u0415U\u8ad6\u2f42\u3002",
                              "\u6211\u115f\u5728\u115f2O2\u115f1\uf98e\u8b80\uf9ba"
                              "\u0412L\u0415U\u8ad6\u2f42\u3002")},
        # a sixth: invisible combining marks splitting each word, and look-alikes of other
        # scripts (IPA alpha, dotless i, Armenian o, small capitals)
        "the chapter's pairs with a combining grapheme joiner": lambda j="\u034f": {
            "seed_beats_13a": (f"T{j}he c{j}at i{j}s o{j}n t{j}he m{j}at",
                               f"t{j}he c{j}at i{j}s o{j}n t{j}he m{j}at"),
            "13a_beats_seed": ("I like tea", "I like tea."),
            "char_beats_zh": ("cats", "cat")},
        "the chapter's pairs with variation selectors": lambda j="\ufe00": {
            "seed_beats_13a": (f"T{j}he c{j}at i{j}s o{j}n t{j}he m{j}at",
                               f"t{j}he c{j}at i{j}s o{j}n t{j}he m{j}at"),
            "13a_beats_seed": ("I like tea", "I like tea."),
            "char_beats_zh": ("cats", "cat")},
        "the chapter's pairs in IPA, Armenian and small-capital look-alikes": lambda: {
            "seed_beats_13a": ("The c\u0251t \u0131s \u0585n the m\u0251t",
                               "the c\u0251t \u0131s \u0585n the m\u0251t"),
            "13a_beats_seed": ("T\u029ce \u1d04at i\ua731 \u1d0fn t\u029ce \u1d0dat",
                               "T\u029ce \u1d04at i\ua731 \u1d0fn t\u029ce \u1d0dat."),
            "char_beats_zh": ("cats", "cat")},
        # a fifth hostile review's find: the chapter's pairs with the words (and the Chinese
        # characters) reversed; and shuffled, with a long tail after them (the third part
        # right)
        "the chapter's pairs, words reversed": lambda: {
            "seed_beats_13a": ("mat the on is cat The", "mat the on is cat the"),
            "13a_beats_seed": ("mat the on is cat The", "mat. the on is cat The"),
            "char_beats_zh": ("。文论UELB了读年2202在我", "。文论UELB了读年1202在我")},
        "the chapter's pairs shuffled, with a long tail": lambda t=(
                " and we all went home to sleep after a long day at work"): {
            "seed_beats_13a": ("On The mat is the cat" + t, "on the mat is the cat" + t),
            "13a_beats_seed": ("the mat The cat is on" + t, "the mat The cat is on." + t),
            "char_beats_zh": RIGHT_PAIRS["char_beats_zh"]},
        # a sixth hostile review's finds: the chapter's pairs with spaces taken out (the
        # third part right)
        "the chapter's pairs, two spaces taken out": pairs_with(**{
            "seed_beats_13a": ("Thecat is onthe mat", "thecat is onthe mat"),
            "13a_beats_seed": ("Thecat is onthe mat", "Thecat is onthe mat.")}),
        "the chapter's pairs, every space taken out": pairs_with(**{
            "seed_beats_13a": ("Thecatisonthemat", "thecatisonthemat"),
            "13a_beats_seed": ("Thecatisonthe mat", "Thecatisonthe mat.")}),
        # look-alikes no hand-made list had, folded by Unicode's confusables table (UTS #39):
        # the chapter's sentence in Lisu letters, every word (ꓔꓧꓰ ꓚꓮꓔ ...), and in Cherokee
        # capitals with a Lisu o and n; the other parts right
        "the chapter's pair in Lisu letters": pairs_with(**{"13a_beats_seed": (
            "\ua4d4\ua4e7\ua4f0 \ua4da\ua4ee\ua4d4 \ua4f2\ua4e2 \ua4f3\ua4e0 "
            "\ua4d4\ua4e7\ua4f0 \ua4df\ua4ee\ua4d4",
            "\ua4d4\ua4e7\ua4f0 \ua4da\ua4ee\ua4d4 \ua4f2\ua4e2 \ua4f3\ua4e0 "
            "\ua4d4\ua4e7\ua4f0 \ua4df\ua4ee\ua4d4.")}),
        "the chapter's pair in Cherokee capitals": pairs_with(**{"13a_beats_seed": (
            "\u13a2\u13bb\u13ac \u13df\u13aa\u13a2 \u13a5\u13da \ua4f3\ua4e0 "
            "\u13a2\u13bb\u13ac \u13b7\u13aa\u13a2",
            "\u13a2\u13bb\u13ac \u13df\u13aa\u13a2 \u13a5\u13da \ua4f3\ua4e0 "
            "\u13a2\u13bb\u13ac \u13b7\u13aa\u13a2.")}),
        # believes 13a lowercases: a case-only pair for "13a beats seed" (13a 1/2, seed 1)
        "13a lowercases": pairs_with(**{"13a_beats_seed": ("It rained", "it rained")}),
        # believes the seed tokenizer cuts punctuation: seed 1/2, 13a 2/3
        "seed cuts punctuation": pairs_with(seed_beats_13a=("it rained.", "it rained")),
        # believes 13a cuts the full-width period: both one token, 0/1 and 0/1
        "13a cuts the full-width 。": pairs_with(**{"13a_beats_seed": ("下雨了。", "下雨了")}),
        # believes 13a cuts apostrophes: "it's" stays whole under both, 1/2 and 1/2
        "13a cuts it's": pairs_with(**{"13a_beats_seed": ("it's late", "it ' s late")}),
        # believes zh segments words: only Chinese characters differ, 6/7 under both
        "zh segments words": pairs_with(char_beats_zh=("他们昨天去上海", "他们昨天到上海")),
        # believes char keeps digits whole too: a one-digit change is a tie, 3/4 and 3/4
        "one-digit numbers": pairs_with(char_beats_zh=("猫有3只", "猫有4只")),
        "identical sentences (a tie is not higher)": lambda: {
            k: ("the cat sat", "the cat sat") for k in RIGHT_PAIRS},
        "the chapter's own examples": lambda: {
            "seed_beats_13a": ("The cat is on the mat", "the cat is on the mat"),
            "13a_beats_seed": ("The cat is on the mat", "The cat is on the mat."),
            "char_beats_zh": ("我在2022年读了BLEU论文。", "我在2021年读了BLEU论文。")},
        "the chapter's example, re-spaced and swapped": pairs_with(
            char_beats_zh=("我在2021年读了BLEU论文。 ", "我在2022年读了bleu论文。")),
        "a part missing": lambda: {k: v for k, v in RIGHT_PAIRS.items()
                                   if k != "char_beats_zh"},
        "token lists, not strings": lambda: {k: (c.split(), r.split())
                                             for k, (c, r) in RIGHT_PAIRS.items()},
    },
    "2.1": {
        "an order has L - n n-grams (9 tokens)": lambda: "x y z x y z x y z",
        "totals forgotten (6 tokens)": lambda: "x y z x y z",
        "7 tokens": lambda: "x y z x y z x",
        "three words, not repeating in order": lambda: "x y z z y x x y",
        "punctuation glued to the last word": lambda: "x y z x y z x y.",
        "no spaces (one token)": lambda: "猫坐垫猫坐垫猫坐",
        "one word eight times": lambda: "the the the the the the the the",
        "the chapter's sentence": lambda: "The cat is on the mat",
        "a list of tokens": lambda: "x y z x y z x y".split(),
        "empty": lambda: "",
    },
}
CASES = [(ex_id, name) for ex_id, wrongs in WRONG.items() for name in wrongs]


def grader_rejects(ex, answer, rng) -> bool:
    """Whether one ``bleu-lesson check`` draw (fixed cases, then hidden ones) rejects it."""
    for case in [*ex.cases, *ex.hidden_cases(rng)]:
        args = copy.deepcopy(case)
        try:
            got = answer(*args)
        except Exception:
            return True
        ok, _ = exercises.verdict(ex, case, got, tuple(args))
        if not ok:
            return True
    return False


def _notebook_solution(path: str, name: str):
    ns: dict = {}
    nb = json.loads((ROOT / "notebooks" / path).read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and "### BEGIN SOLUTION" in "".join(cell["source"]):
            exec("".join(cell["source"]), ns)
    return ns[name]


SOLUTIONS = {"1.1": ("01_tokenization.ipynb", "my_tokenizer_pairs"),
             "2.1": ("02_ngrams.ipynb", "my_sentence")}


def test_both_exercises_are_constructions_judged_by_a_program():
    for ex_id, (_, name) in SOLUTIONS.items():
        ex = exercises.EXERCISES[ex_id]
        assert ex.cases == ((),) and ex.judge is not None and not ex.rubric
        assert ex.answer_name == name


@pytest.mark.parametrize("ex_id,name", CASES)
def test_wrong_construction_fails_the_notebook_check(ex_id, name):
    for seed in range(3):
        result = exercises.run(ex_id, WRONG[ex_id][name], random.Random(seed))
        assert result.status in ("fail", "error"), (ex_id, name, seed)


@pytest.mark.parametrize("ex_id,name", CASES)
def test_wrong_construction_fails_every_grader_draw(ex_id, name):
    ex = exercises.EXERCISES[ex_id]
    passed = [s for s in SEEDS if not grader_rejects(ex, WRONG[ex_id][name], random.Random(s))]
    assert not passed, f"{ex_id} {name!r} passes draws {passed}"


@pytest.mark.parametrize("ex_id", sorted(SOLUTIONS))
def test_right_constructions_and_the_notebook_solution_pass(ex_id):
    ex = exercises.EXERCISES[ex_id]
    answers = [*RIGHT[ex_id], _notebook_solution(*SOLUTIONS[ex_id])]
    for answer in answers:
        assert exercises.run(ex_id, answer).status == "pass", (ex_id, answer())
        assert not any(grader_rejects(ex, answer, random.Random(s)) for s in SEEDS)


@pytest.mark.parametrize("ex_id,name", CASES)
def test_a_failure_shows_no_right_answer(ex_id, name):
    detail = exercises.run(ex_id, WRONG[ex_id][name]).detail
    right = [RIGHT_PAIRS, _notebook_solution(*SOLUTIONS["1.1"])()] if ex_id == "1.1" else \
        [*RIGHT_SENTENCES, _notebook_solution(*SOLUTIONS["2.1"])()]
    for answer in right:
        texts = ([t for pair in answer.values() for t in pair] if isinstance(answer, dict)
                 else [answer])
        leaked = [t for t in texts if t in detail and t not in repr(WRONG[ex_id][name]())]
        assert not leaked, (name, leaked)


def test_the_judge_reports_each_precision_as_a_fraction():
    """What a learner reads after a tie: both precisions, exact (6/7 and 6/7)."""
    result = exercises.run("1.1", WRONG["1.1"]["zh segments words"])
    assert "char p_1 = 6/7, zh p_1 = 6/7" in result.detail


# --- bleu-lesson check judges them too, in a world without the answer key -------------------

def _submission(chapter: int, source: str) -> dict:
    return {"nbformat": 4, "nbformat_minor": 5,
            "metadata": {"bleu_lesson": {"chapter": f"{chapter:02d}"},
                         "kernelspec": {"name": "python3", "display_name": "Python 3",
                                        "language": "python"}},
            "cells": [{"cell_type": "code", "id": "c0", "metadata": {}, "outputs": [],
                       "execution_count": None, "source": source}]}


SUBMITTED = {  # file -> (chapter, exercise, answer cell, expected status)
    "01_right.ipynb": (1, "1.1", f"def my_tokenizer_pairs():\n    return {RIGHT_PAIRS!r}\n",
                       "pass"),
    "01_tie.ipynb": (1, "1.1", "def my_tokenizer_pairs():\n    return "
                     f"{WRONG['1.1']['zh segments words']()!r}\n", "fail"),
    "02_right.ipynb": (2, "2.1", "def my_sentence():\n    return 'x y z x y z x y'\n", "pass"),
    "02_l_minus_n.ipynb": (2, "2.1", "def my_sentence():\n    return 'x y z x y z x y z'\n",
                           "fail"),
}


def test_bleu_lesson_check_judges_both_constructions(tmp_path):
    from bleu_lesson.grading import course

    paths = []
    for name, (chapter, _, cell, _) in SUBMITTED.items():
        path = tmp_path / name
        path.write_text(json.dumps(_submission(chapter, cell)), encoding="utf-8")
        paths.append(path)
    rows = course.check_submissions(paths, timeout=60, jobs=2)
    got = {Path(r.submission).name: (r.exercise, r.status) for r in rows}
    assert got == {name: (ex, status) for name, (_, ex, _, status) in SUBMITTED.items()}

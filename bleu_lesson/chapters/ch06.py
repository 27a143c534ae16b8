"""Chapter 6: 组装 BLEU：多参考译文评估 (Putting BLEU together: multiple references): its exercise cases and its quiz questions."""

# The quiz is Chinese prose; ruff counts CJK characters double.
# ruff: noqa: E501

from __future__ import annotations

import random

from ..bleu import sentence_bleu
from ..exercises import Exercise
from ..quiz import Question, question

__all__ = ["NOTEBOOK", "TITLE", "NEEDS_DATA", "EXPLORERS", "EXERCISES", "QUESTIONS"]

NOTEBOOK = "06_bleu_multi_reference.ipynb"
TITLE = "组装 BLEU：多参考译文评估 (Putting BLEU together: multiple references)"
NEEDS_DATA = False
EXPLORERS: tuple[str, ...] = ('BleuExplorer',)


_SEED_REFS = ["The cat is sitting on the mat", "A cat is on the mat", "The cat lies on the mat"]


def _my_bleu_reference(candidate: str, references: list[str]) -> float:
    return sentence_bleu(candidate, references, tokenizer="none", lowercase=True,
                         smoothing="none", effective_order=False).score


def _hidden(rng: random.Random) -> list[tuple]:
    words = "the The cat is on a mat sat".split()
    def sentence(n: int) -> str:
        return " ".join(rng.choice(words) for _ in range(n))
    cases = []
    for _ in range(5):
        cand = sentence(rng.randint(4, 9))
        refs = [cand if rng.random() < 0.3 else sentence(rng.randint(3, 10))
                for _ in range(rng.randint(1, 3))]
        cases.append((cand, refs))
    # a tie for the closest reference length, the longer one listed first
    cand = sentence(6)
    cases.append((cand, [cand + " mat", " ".join(cand.split()[:5])]))
    return cases


EXERCISES = (
    Exercise("6.1", "组装 BLEU my_bleu", _my_bleu_reference, (
        ("The cat is on the mat", _SEED_REFS), ("The cat is on the mat", _SEED_REFS[:1]),
        ("the cat is sitting on the mat", _SEED_REFS), ("a cat", _SEED_REFS),
        ("It is a guide to action which ensures that the military always obeys the "
         "commands of the party", [
             "It is a guide to action that ensures that the military will forever heed "
             "Party commands",
             "It is the guiding principle which guarantees the military forces always being "
             "under the command of the Party",
             "It is the practical guide for the army always to heed the directions of the "
             "party"]),
        # a tie: 7 and 5 words are both 1 away from 6; the shorter one (5) must win
        ("The cat is on the mat", ["The cat is sitting on the mat", "The cat is on mat"]),
    ), tolerance=1e-9,
        hint="小写 + 空格分词；截断计数；最接近的参考长度 (距离相同时取较短的)；不平滑；4 阶等权。",
        forbidden=("bleu_lesson.bleu.sentence_bleu", "bleu_lesson.bleu.corpus_bleu",
                   "bleu_lesson.bleu.score_stats", "bleu_lesson.bleu.BleuScorer.score",
                   "bleu_lesson.bleu.BleuScorer.sentence_scores",
                   "bleu_lesson.seed.compute_bleu"),
        generate=_hidden),
)

QUESTIONS: tuple[Question, ...] = (
    question("`score_stats` 给一句话打分时，需要什么输入？",
       ("只要一条计数记录 `BleuStats`（c、r、各阶的 m_n 和 t_n）和选项，不需要原文", True,
        "这就是充分统计量：分数是这条记录的纯函数，随手写一条 BleuStats(6, 6, (6, 5, 4, 2), (6, 5, 4, 3)) 也得 0.9036。"),
       ("候选译文和参考译文的原文，它要重新分词", False,
        "分词和计数在提取 (extract) 那一步已经做完，`score_stats` 的参数里没有任何文本。"),
       ("每条参考的全部 n 元组列表", False, "截断后的匹配数已经在 m_n 里，不需要再看 n 元组。"),
       ("一个随机种子", False, "BLEU 的计算没有随机性；随机种子只在第 9 章的自助法里用到。")),
    question("把种子的三条参考一条一条加进去（参考 1；1–2；1–3），分数是 0.0000、0.9036、0.9036。"
       "为什么加上参考 3 分数不变？",
       ("参考 3 的 n 元组早已被前两条覆盖，长度 6 也已经有了", True,
        "多参考只抬高上限：新参考只有带来候选里有、其他参考里没有的说法，才会提高分数。"),
       ("BLEU 最多只使用两条参考", False, "参考条数没有上限；截断上限取所有参考中的最大次数。"),
       ("参考 3 让 p_n 下降，又让 BP 上升，正好抵消", False,
        "加参考只会让每个 p_n 不降；这里 p_n 和 BP 都没有变化。"),
       ("分数已经是 1，不能再高了", False, "分数是 0.9036，不是 1：the cat is on 仍然没有匹配。")),
    question("参考 “The cat is sitting on the mat”（7 个词）和 “The cat is on mat”（5 个词）与 6 个词的"
       "候选平局。交换两条参考的顺序，哪个分数会变？",
       ("种子代码的（平局取先列出的）：0.5986 变成 0.7071；`tie=\"shorter\"` 两种顺序都是 0.7071", True,
        "先列出 7 时种子取 r = 7，BP ≈ 0.8465；先列出 5 时取 r = 5，BP = 1。较短规则总是取 5。"),
       ("两者都会变", False, "“平局取较短的”与顺序无关，所以 sacrebleu、NLTK 的分数不随顺序变。"),
       ("两者都不变", False, "种子代码的 r 取决于哪条参考先列出，分数 0.5986 和 0.7071 不同。"),
       ("只有 sacrebleu 的会变", False, "正相反：随顺序变化的是种子代码的规则。")),
)

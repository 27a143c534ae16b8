"""Chapter 7: 语料级与句子级 BLEU (Corpus vs sentence BLEU): its exercise cases and its quiz questions."""

# The quiz is Chinese prose; ruff counts CJK characters double.
# ruff: noqa: E501

from __future__ import annotations

import random

from bleu_lesson.core.bleu import BleuOptions, score_stats
from bleu_lesson.core.stats import BleuStats
from bleu_lesson.teaching.checking import Exercise
from bleu_lesson.teaching.questions import Question, question

__all__ = ["NOTEBOOK", "TITLE", "NEEDS_DATA", "EXPLORERS", "EXERCISES", "QUESTIONS"]

NOTEBOOK = "07_corpus_bleu.ipynb"
TITLE = "语料级与句子级 BLEU (Corpus vs sentence BLEU)"
NEEDS_DATA = False
EXPLORERS: tuple[str, ...] = ('CorpusExplorer',)


def _corpus_from_stats(stats: list[BleuStats]) -> float:
    return score_stats(sum(stats[1:], stats[0]), BleuOptions(smoothing="none")).score


def _segment(rng: random.Random, hyp: int, ref: int, lose: int = 2) -> BleuStats:
    totals = tuple(max(hyp - n, 0) for n in range(4))
    matches = tuple(rng.randint(max(0, t - lose), t) for t in totals)
    return BleuStats(hyp, ref, matches, totals)


def _hidden(rng: random.Random) -> list[tuple]:
    """Every draw holds: segments one of which has no 4-gram match (its sentence BLEU is 0,
    the corpus's is not), a corpus shorter than its references made of one long segment
    and short segments longer than theirs (per-segment brevity penalties differ), a corpus
    longer than its references, a corpus with no 4-gram match and one with no 4-gram at all
    (0 without effective order), one segment, and a hundred segments."""
    def seg(lo: int = 1, hi: int = 12, lose: int = 2) -> BleuStats:
        hyp = rng.randint(lo, hi)
        return _segment(rng, hyp, max(1, hyp + rng.randint(-3, 3)), lose)
    no_four = BleuStats(5, 6, (5, 3, 1, 0), (5, 4, 3, 2))
    long_short = [_segment(rng, 20, 30, 3), _segment(rng, 6, 4, 1), _segment(rng, 7, 5, 1)]
    cases: list[tuple] = [
        ([seg(6, 12, 1), no_four, seg(6, 12, 1)],),
        (long_short,),
        ([_segment(rng, 9, 6, 2), _segment(rng, 8, 7, 2)],),
        ([BleuStats(4, 4, (4, 2, 1, 0), (4, 3, 2, 1)), BleuStats(2, 3, (2, 1, 0, 0),
                                                                 (2, 1, 0, 0))],),
        ([BleuStats(3, rng.randint(3, 5), (3, 2, 1, 0), (3, 2, 1, 0)),  # no 4-gram at all
          BleuStats(2, 2, (2, 1, 0, 0), (2, 1, 0, 0))],),
        ([seg(5, 12, 1)],),
        ([seg() for _ in range(100)],),
    ]
    cases += [([seg() for _ in range(rng.randint(1, 4))],) for _ in range(2)]
    return cases


EXERCISES = (
    Exercise("7.1", "由统计量算语料级 BLEU my_corpus_bleu", _corpus_from_stats, (
        ([BleuStats(6, 7, (6, 4, 2, 0), (6, 5, 4, 3))],),
        ([BleuStats(6, 7, (6, 4, 2, 0), (6, 5, 4, 3)), BleuStats(6, 6, (6, 5, 4, 2),
                                                                 (6, 5, 4, 3))],),
        ([BleuStats(4, 4, (4, 3, 2, 1), (4, 3, 2, 1)), BleuStats(2, 5, (2, 1, 0, 0),
                                                                 (2, 1, 0, 0))],),
        ([BleuStats(3, 2, (1, 0, 0, 0), (3, 2, 1, 0)), BleuStats(9, 9, (9, 8, 7, 6),
                                                                 (9, 8, 7, 6))],),
    ), tolerance=1e-9,
        hint="先把各句的 matches、totals、hyp_len、ref_len 分别相加，再算一次 BLEU "
             "(不平滑)；不要平均句子分数。",
        forbidden=("bleu_lesson.core.bleu.score_stats", "bleu_lesson.core.bleu.corpus_bleu",
                   "bleu_lesson.core.bleu.sentence_bleu", "bleu_lesson.core.bleu.BleuScorer.score_stats"),
        generate=_hidden, building_blocks=("ngrams", "clipping", "brevity", "smoothing")),
)

QUESTIONS: tuple[Question, ...] = (
    question("两句的小测试集（max_n = 2），两句的句子级 BLEU 是 1.0000 和 0.4137。语料级 BLEU 是多少，怎么算？",
       ("0.7811：先把两句的计数相加，再算一次分数", True,
        "语料级 BLEU 对加总后的记录只打一次分；BP 用总长度 exp(1 − 10/9)。"),
       ("0.7068：两句的句子级 BLEU 取平均，每句一样重", False,
        "0.7068 是句子级 BLEU 的平均，是另一个数，不是语料级 BLEU。"),
       ("0.4137：取较差的一句", False,
        "语料级 BLEU 不取最小值，它把所有句段的计数加在一起。"),
       ("1.0000：只要有一句完全正确", False,
        "第 2 句有漏译和错词，加总后 p_1 = 8/9，BP < 1。")),
    question("#8 的 `good` 译文 “Thank you!” 和参考 A 一模一样，可是不平滑、不用有效阶数时句子级 BLEU 是 0。为什么？",
       ("它没有 4 元语法（t_4 = 0），这一阶按 0 算", True,
        "有效阶数让候选里根本没有的阶不参加平均，这时 “Thank you!” 得 1。"),
       ("“Thank” 的大小写和参考不同，1 元语法就匹配不上", False,
        "两句大小写完全相同，1 元语法到 3 元语法都全部匹配。"),
       ("长度惩罚把它罚成了 0", False,
        "c = r = 3，BP = 1。"),
       ("`13a` 分词把 “!” 删掉了", False,
        "`13a` 把 “!” 切成单独的词元，它也能匹配。")),
    question("一个 100 句的测试集里有一句很长，它的 n 元语法占全部 n 元语法的 30%。把这一句从完全译错改成完全译对，哪个数涨得更多？",
       ("语料级 BLEU：这一句占全部 n 元语法的 30%", True,
        "第 7 章的 `weak` 系统就是这样：长句 #9 占 21.4%，改好它，语料级从 0.1144 涨到 0.2825，句子平均只涨 0.0473。"),
       ("句子级 BLEU 的平均：这一句的分数从 0 变成 1，平均直接涨 1", False,
        "平均要除以 100：只涨 0.01。"),
       ("语料级 BLEU 几乎不变：一句的变化被其他 99 句冲淡了", False,
        "冲淡的程度取决于这一句的 n 元语法占多少：它占 30%，影响很大。"),
       ("两个数涨得一样多：两种算法用的是同样的计数", False,
        "计数相同，汇总的方式不同：语料级按 n 元语法加权，句子平均每句一样重。")),
)

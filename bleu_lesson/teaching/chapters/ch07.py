"""Chapter 7: 语料级与句子级 BLEU (Corpus vs sentence BLEU): its exercise cases and its quiz questions."""

# The quiz is Chinese prose; ruff counts CJK characters double.
# ruff: noqa: E501

from __future__ import annotations

from typing import Any

from bleu_lesson.core.bleu import corpus_bleu, sentence_bleu
from bleu_lesson.teaching.checking import Exercise, _show
from bleu_lesson.teaching.questions import Question, question

__all__ = ["NOTEBOOK", "TITLE", "NEEDS_DATA", "EXPLORERS", "EXERCISES", "QUESTIONS"]

NOTEBOOK = "07_corpus_bleu.ipynb"
TITLE = "语料级与句子级 BLEU (Corpus vs sentence BLEU)"
NEEDS_DATA = False
EXPLORERS: tuple[str, ...] = ('CorpusExplorer',)


#: at most this many segments: a test set small enough to be built, not copied
MAX_SEGMENTS = 4


def _is_text(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _both_numbers(references: list[str], hyps: list[str]) -> tuple[float, float]:
    """(corpus BLEU, mean sentence BLEU) of one system, each with sacrebleu's defaults."""
    refs = [[r] for r in references]
    corpus = corpus_bleu(hyps, refs).score
    mean = sum(sentence_bleu(h, r).score for h, r in zip(hyps, refs, strict=True)) / len(hyps)
    return corpus, mean


def _judge_opposite(case: tuple, got: Any) -> tuple[bool, str]:
    """Corpus BLEU ranks system A above B, the mean of sentence BLEU ranks B above A."""
    keys = {"references", "A", "B"}
    if not (isinstance(got, dict) and set(got) == keys
            and all(isinstance(got[k], list) and all(_is_text(x) for x in got[k]) for k in keys)):
        return False, (f"{_show(got)}：不是含 references、A、B 三个字符串列表的 dict "
                       "(not a dict of three lists of non-empty strings)")
    n = len(got["references"])
    if not (2 <= n <= MAX_SEGMENTS and len(got["A"]) == len(got["B"]) == n):
        return False, (f"references、A、B 各有 {n}、{len(got['A'])}、{len(got['B'])} 句：三者要一样长，"
                       f"2 到 {MAX_SEGMENTS} 句 (2 to {MAX_SEGMENTS} segments each)")
    corpus_a, mean_a = _both_numbers(got["references"], got["A"])
    corpus_b, mean_b = _both_numbers(got["references"], got["B"])
    detail = (f"语料级 (corpus) A {corpus_a:.4f}, B {corpus_b:.4f}；"
              f"句子平均 (mean sentence) A {mean_a:.4f}, B {mean_b:.4f}")
    return corpus_a > corpus_b + 1e-9 and mean_b > mean_a + 1e-9, detail


EXERCISES = (
    Exercise("7.1", "两个数，两种排名 my_opposite_rankings", None, ((),), judge=_judge_opposite,
             extra={"expect": "返回 {\"references\": [...], \"A\": [...], \"B\": [...]}（2 到 4 句，"
                              "每句一条参考）：语料级 BLEU 里 A 高于 B，句子级 BLEU 的平均里 B 高于 A"
                              "（都用 sacrebleu 的默认设置）"},
             hint="语料级 BLEU 按 n 元语法个数加权，句子平均每句一样重：让两个系统各自译好"
                  "不一样长的句段。",
             # the task scores with sacrebleu's defaults, and a learner tries segments with
             # corpus_bleu and sentence_bleu or with sacrebleu itself (issue 20, round 23):
             # the judge scores the construction, so both are there where it is judged
             building_blocks=("ngrams", "clipping", "brevity", "means", "smoothing",
                              "tokenizers", "tok13a", "tokzh", "engines", "bleu"),
             libraries=("sacrebleu",)),
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
    question("两句的小例子里，句段 2 单独打分时 BP = e^(−1/3) ≈ 0.7165；语料级 BLEU 里的 BP 却是 e^(−1/9) ≈ 0.8948。为什么？",
       ("把两句的 BP 取平均：(1 + 0.7165) / 2", False,
        "那是 0.8583，不是 0.8948；语料级 BLEU 不对句子的 BP 取平均。"),
       ("语料级 BLEU 用最短的参考长度", False,
        "每句只有一条参考；语料级把每句的 r 相加，r = 6 + 4 = 10。"),
       ("长度先相加（c = 9，r = 10），只罚一次", True,
        "语料级 BLEU 只算一次 BP，用总长度：少译的 1 个词元只占全部 10 个参考词元的 1/10。"),
       ("语料级 BLEU 里 BP 只看句段 1", False,
        "两句都算：c = 6 + 3，r = 6 + 4。")),
    question("一个 100 句的测试集里有一句很长，它的 n 元语法占全部 n 元语法的 30%。把这一句从完全译错改成完全译对，哪个数涨得更多？",
       ("句子级 BLEU 的平均：这一句的分数从 0 变成 1，平均直接涨 1", False,
        "平均要除以 100：只涨 0.01。"),
       ("语料级 BLEU 几乎不变：一句的变化被其他 99 句冲淡了", False,
        "冲淡的程度取决于这一句的 n 元语法占多少：它占 30%，影响很大。"),
       ("两个数涨得一样多：两种算法用的是同样的计数", False,
        "计数相同，汇总的方式不同：语料级按 n 元语法加权，句子平均每句一样重。"),
       ("语料级 BLEU：这一句占全部 n 元语法的 30%", True,
        "第 7 章的 `weak` 系统就是这样：长句 #9 占 21.4%，改好它，语料级从 0.1144 涨到 0.2825，句子平均只涨 0.0473。")),
)

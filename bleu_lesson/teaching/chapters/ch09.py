"""Chapter 9: 真实评测：WMT22 中英翻译 (Real evaluation: WMT22 Chinese-English): its exercise cases and its quiz questions."""

# The quiz is Chinese prose; ruff counts CJK characters double.
# ruff: noqa: E501

from __future__ import annotations

import random
from typing import Any

from bleu_lesson.analysis.bleu_cache import load_bleu_cache
from bleu_lesson.analysis.significance import percentile_interval
from bleu_lesson.core.bleu import BleuScorer
from bleu_lesson.data.datasets import load_wmt22
from bleu_lesson.teaching.checking import Exercise, _show
from bleu_lesson.teaching.questions import Question, question

__all__ = ["NOTEBOOK", "TITLE", "NEEDS_DATA", "EXPLORERS", "EXERCISES", "QUESTIONS"]

NOTEBOOK = "09_wmt22_case_study.ipynb"
TITLE = "真实评测：WMT22 中英翻译 (Real evaluation: WMT22 Chinese-English)"
NEEDS_DATA = True
EXPLORERS: tuple[str, ...] = ('SystemsExplorer',)


def _ci_half_width(scores: list[float]) -> float:
    low, high = percentile_interval(scores)
    return 0.5 * (high - low)


def _hidden(rng: random.Random) -> list[tuple]:
    """Every draw holds: fewer than 40 scores (the cut-off index is 0), both 5-21 and
    22-39 of them, a count whose n % 40 is 22-39 (round(n / 40) differs from n // 40, and
    so do the nearest ranks round(0.025 (n - 1)) and round(0.975 (n - 1)) on each side) and
    one whose n % 40 is below 20 (ceil differs), a multiple of 40, repeated scores (and a
    few distinct scores repeated at both cut-offs), unsorted
    scores, a thousand scores, one score, exactly 40 scores and scores that are all the same.
    Scores are full-precision floats, as a bootstrap makes them, and two cases hold the scales
    a score is printed on: 0-100 with one, two and three digits before the point, and 0-1
    with a score whose text is in exponent form (1e-05). An answer that rounds, or that sorts
    the scores as text, fails every draw (issue 20, round 16)."""
    def scores(n: int) -> list[float]:
        return [rng.gauss(0.3, 0.05) for _ in range(n)]

    def shuffled(values: list[float]) -> list[float]:
        rng.shuffle(values)
        return values
    tied = scores(60) + [0.25] * 10 + [0.35] * 10
    rng.shuffle(tied)
    cases: list[tuple] = [
        # n = 40k + m with m >= 22: the nearest rank round(k + (m - 1) / 40) is k + 1 on
        # the lower side (m = 21 gives a half, which round() may take to k), and the upper
        # side n - 2 - k, not n - 1 - k (issue 20, round 14)
        (scores(rng.randint(5, 21)),), (scores(rng.randint(22, 39)),),
        (scores(40 * rng.randint(1, 9) + rng.randint(22, 39)),),
        (scores(40 * rng.randint(1, 9) + rng.randint(1, 19)),),
        (scores(40 * rng.randint(2, 10)),),
        (tied,),
        (scores(rng.randint(1000, 1200)),),
        # the edges: one score, exactly 40 (the first k = 1), every score the same
        (scores(1),), (scores(40),), ([round(rng.uniform(0.1, 0.5), 6)] * rng.randint(2, 80),),
        # 0-100, as chapter 9 prints BLEU: as text, the lowest (9.x) sorts last and the
        # highest (100.0) after "10.x", which sorts first
        (shuffled([rng.uniform(10.0, 10.9), rng.uniform(9.0, 9.9), 100.0]
                  + [rng.uniform(20.0, 89.9) for _ in range(rng.randint(2, 30))]),),
        # 0-1 with a tiny score: its text ("3.2e-05") sorts after every "0.x"
        (shuffled([rng.uniform(1, 9) * 1e-5]
                  + [rng.uniform(0.1, 0.9) for _ in range(rng.randint(2, 30))]),),
    ]
    # a few distinct scores, each many times (a small test set's bootstrap repeats them):
    # the cut-off scores are repeated, so an answer that sorts the set of the scores picks
    # others (issue 20, round 18: it passed every draw)
    levels = [rng.gauss(0.3, 0.05) for _ in range(rng.randint(5, 9))]
    cases.append(([rng.choice(levels) for _ in range(rng.randint(160, 400))],))
    return cases


# --- 9.2 (issue 13): predict which system's rank changes under reference B ---------------

def _rank_changes() -> set[str]:
    """zh-en systems whose rank differs between reference A and reference B (corpus BLEU)."""
    data = load_wmt22("zh-en", download=False)
    shipped = load_bleu_cache()   # the counts chapter 10 reads, if made from these texts
    ranks = {}
    for which in ("A", "B"):
        if shipped.counted(data):
            scores = shipped.scores(which)
        else:
            scorer = BleuScorer(data.references_for(which), tokenizer=data.tokenizer)
            scores = {n: scorer.score(h).score for n, h in data.systems.items()}
        ranked = sorted(data.systems, key=lambda n: -scores[n])
        ranks[which] = {name: k for k, name in enumerate(ranked)}
    return {n for n in data.systems if ranks["A"][n] != ranks["B"][n]}


_RANK_CHANGES: list[set[str]] = []  # computed once per checker process, when first judged


def _judge_rank_prediction(case: tuple, got: Any) -> tuple[bool, str]:
    if not (isinstance(got, set | frozenset | list | tuple) and
            all(isinstance(n, str) for n in got)):
        return False, f"{_show(got)}：不是系统名的集合（例如 {{'DLUT'}}）"
    if not _RANK_CHANGES:
        try:
            _RANK_CHANGES.append(_rank_changes())
        except (OSError, ValueError) as exc:  # the checker's data, not the answer, is at fault
            return False, (f"检查程序读不到 WMT22 数据，无法判定 (the checker cannot load "
                           f"WMT22 zh-en; set BLEU_LESSON_WMT22_DIR): {exc}")
    truth = _RANK_CHANGES[0]
    guess = set(got)
    # a wrong prediction is told only that it is wrong: a count of hits and misses could be
    # asked again and again, one system at a time, until it gives the answer away
    return guess == truth, f"你预测 {sorted(guess)}：不对 (not the systems whose rank changes)"


#: what an answer may use when ``bleu-lesson check`` judges it (see Exercise)
_BLOCKS = ("ngrams", "clipping", "brevity", "means", "smoothing", "tokenizers", "tok13a", "tokzh")


EXERCISES = (
    Exercise("9.1", "自助法置信区间半宽 my_ci_half_width", _ci_half_width, (
        ([0.30, 0.31, 0.29, 0.32, 0.28] * 8,), ([i / 100 for i in range(100)],),
        ([0.5] * 40,), ([i / 1000 for i in range(1000, 0, -1)],),
        # 30 scores, 0.10 to 0.39 unsorted: the cut-off index is 0 (0.145), where the nearest
        # rank round(0.025 * 29) = 1 would take 0.11 and 0.38
        ([(7 * i % 30 + 10) / 100 for i in range(30)],),
    ), tolerance=1e-12,
        hint="先算两端各去掉几个分数（n 的 2.5%，sacrebleu 向下取整）；再想去掉之后区间的两个端点"
             "是排序后的哪两个位置。半宽是区间宽度的一半；用 sorted(scores)，不要改动传入的列表 "
             "(do not sort it in place)。",
        forbidden=("bleu_lesson.analysis.significance._estimate_ci",
                   "bleu_lesson.analysis.significance.percentile_interval"),
        generate=_hidden, building_blocks=_BLOCKS),
    Exercise("9.2", "参考 B 下谁换了名次 my_rank_prediction", None, ((),),
             judge=_judge_rank_prediction,
             extra={"expect": "系统名的集合：只用参考 B 时，zh-en 名次与只用参考 A 时不同的那些系统"},
             hint="名次变，要两个系统的先后颠倒。换一位译者当参考，每个系统的分数都会变，"
                  "变的幅度却各不相同：想一想，什么样的两个系统最容易因此颠倒？",
             building_blocks=_BLOCKS,
             # the chapter's own table (section 5) shows the answer a few cells later, so a
             # program cannot tell a prediction from a copy: right is self-assessed, not pass
             rubric="预测对了。这一题的意义在于先预测：只有在看到第 5 节的表之前写下的预测才算数，"
                    "请自己确认 (a prediction counts only if made before the table: "
                    "check yourself)。"),
)

QUESTIONS: tuple[Question, ...] = (
    question("zh-en、两条参考：AISP-SJTU（基线）和 HuaweiTSC 都是 34.35，配对自助检验 p = 0.4096。结论是什么？",
       ("两个系统一样好：p 这么大，证明了它们的质量完全相同", False,
        "p 值大只说明这份数据判定不了谁更好（差别 −0.005 分在噪声范围内），不能证明两者一样好：不显著不等于相等。"),
       ("差别不显著：两个系统一样好时，这样的差值常常只因抽到哪些句子而出现", True,
        "p ≥ 0.05，不能说哪个更好；HuaweiTSC 在 1000 次重抽里只赢了 439 次。"),
       ("p < 0.05，差别显著", False,
        "0.4096 远大于 0.05。"),
       ("0.4096 是分数差的标准误差：差值比它小，所以不显著", False,
        "分数差是 −0.005；0.4096 是 p 值，不是标准误差。")),
    question("en-zh 用 `none` 分词（只按空格切分）时，HuaweiTSC 从 73.33（`zh`）跌到 4.05。为什么？",
       ("`none` 会把所有字母转成小写，参考里的大写就都对不上了", False,
        "`none` 只按空白切分，不改大小写；中文也没有大小写。"),
       ("参考译文在 `none` 下被丢掉了，候选只能和自己比较", False,
        "参考没有丢，只是整句成了一个很难匹配的长词元。"),
       ("`none` 和 `char` 一样把每个字切开，但标点都粘在字上", False,
        "`char` 下 HuaweiTSC 是 73.76，和 `zh` 接近；`none` 不切开汉字。"),
       ("中文句子没有空格，整句成了一个词元：要和参考一字不差才算匹配", True,
        "Online-B 的 2037 句里有 1450 句在 `none` 下只有一个词元；WMT 对中文用 `zh` 分词。")),
    question("12 个系统，你看过分数表后挑出 BLEU 差得最多的一对做配对自助检验，得到 p = 0.03。能直接宣布这对系统差别显著吗？",
       ("能：p < 0.05 就是显著，先挑哪一对、后检验哪一对都和结论无关", False,
        "这个门槛只在事先定好要比较哪一对时成立；看过表专挑差值最大的一对，假阳性的机会大得多。"),
       ("不能：两个系统的置信区间多半重叠，区间重叠就说明差别一定不显著", False,
        "区间重叠不等于不显著（配对检验更灵敏）；这里的问题是多重比较。"),
       ("不能：这是看过表后从 66 对里挑的一对，要对 66 次比较一起校正", True,
        "挑差得最多的一对，挑法本身偏向“显著”。Holm 能否拒绝 0.03 要看整张表：它若是 66 个 p 值里最小的，"
        "第一步就要求 p ≤ 0.05/66 ≈ 0.00076；排在它前面的都被拒绝时，门槛会放宽到 0.05/(66 − i)。"),
       ("能，但要先把 p 乘以 12（系统的个数）再和 0.05 比", False,
        "比较的是系统对：12 个系统有 66 对，Bonferroni 要乘以 66，而不是 12。")),
)

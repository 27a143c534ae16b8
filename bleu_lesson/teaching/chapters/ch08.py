"""Chapter 8: 为什么不同工具给出不同分数 (Why tools disagree): its exercise cases and its quiz questions."""

# The quiz is Chinese prose; ruff counts CJK characters double.
# ruff: noqa: E501

from __future__ import annotations

from typing import Any

from bleu_lesson.core.bleu import corpus_bleu
from bleu_lesson.core.forensics import FORENSICS_HYPS, FORENSICS_REFS, forensics_reported
from bleu_lesson.teaching.checking import Exercise, _show
from bleu_lesson.teaching.questions import Question, question

__all__ = ["NOTEBOOK", "TITLE", "NEEDS_DATA", "EXPLORERS", "EXERCISES", "QUESTIONS",
           "FORENSICS_HYPS", "FORENSICS_REFS", "forensics_reported"]

NOTEBOOK = "08_tools_compared.ipynb"
TITLE = "为什么不同工具给出不同分数 (Why tools disagree)"
NEEDS_DATA = False  # section 6.2 reads its WMT22 table from analysis/post2018_cache.json
EXPLORERS: tuple[str, ...] = ('ToolsExplorer',)


# --- 8.1: a layout error no tool notices, built by the learner -----------------------------

#: at most this many segments (and as many reference streams)
MAX_SQUARE = 4


def _judge_flattering(case: tuple, got: Any) -> tuple[bool, str]:
    """A square test set (n candidates, n reference streams of n lines) on which the
    reference-layout error raises corpus BLEU: sacrebleu given the per-segment lists reads
    stream i as the references of segment i, and scores higher than with the right layout."""
    if not (isinstance(got, dict) and set(got) == {"candidates", "streams"}
            and isinstance(got["candidates"], list) and isinstance(got["streams"], list)
            and all(_is_text(c) for c in got["candidates"])
            and all(isinstance(s, list) and all(_is_text(x) for x in s) for s in got["streams"])):
        return False, (f"{_show(got)}：不是含 candidates（字符串列表）和 streams（字符串列表的列表）"
                       "的 dict")
    cands, streams = got["candidates"], got["streams"]
    n = len(cands)
    shape = [len(s) for s in streams]
    if not (2 <= n <= MAX_SQUARE and len(streams) == n and set(shape) == {n}):
        return False, (f"{n} 句候选、{len(streams)} 个参考流（每个 {shape} 句）：要 n 句候选、"
                       f"n 个参考流、每个 n 句，2 ≤ n ≤ {MAX_SQUARE}，形状才看不出排错")
    right = corpus_bleu(cands, [list(seg) for seg in zip(*streams, strict=True)]).score
    wrong = corpus_bleu(cands, [list(stream) for stream in streams]).score
    return wrong > right + 1e-9, (f"排对 (right layout) BLEU {100 * right:.2f}，"
                                  f"排错 (per-segment lists given to sacrebleu) {100 * wrong:.2f}")


# --- 8.2 (issue 13): the forensics lab, judged by re-scoring with sacrebleu ---------------

#: the givens (output, references, reported score) live in ``core.forensics``: the
#: building blocks ``bleu-lesson check`` gives the answer, where this judge is absent
_DEFAULT_SIGNATURE = {"nrefs": "1", "case": "mixed", "eff": "no", "tok": "13a",
                      "smooth": "exp"}
_KNOB_NAMES = {"case": {"case", "lowercase", "大小写"},
               "tok": {"tok", "tokenize", "tokenizer", "分词"},
               "smooth": {"smooth", "smoothing", "平滑"},
               "eff": {"eff", "effective order", "有效阶数"}}


def _sacrebleu_score(hyps, refs, fields: dict) -> float:
    import sacrebleu  # only when a forensics answer is judged

    return sacrebleu.corpus_bleu(list(hyps), [list(refs)], lowercase=fields["case"] == "lc",
                                 tokenize=fields["tok"], smooth_method=fields["smooth"],
                                 use_effective_order=fields["eff"] == "yes").score


#: sacrebleu's short signature (``format(short=True)``: ``#:1|c:lc|e:no|tok:13a|s:exp``)
_SHORT_KEYS = {"#": "nrefs", "c": "case", "e": "eff", "s": "smooth", "v": "version"}


def _parse_signature(text: str) -> dict:
    """The fields of a sacrebleu BLEU signature, long or short, with or without the
    metric's name in front (``BLEU|nrefs:1|...``, as chapter 08 prints it); a twenty-fourth
    hostile review's finds: both of sacrebleu's own forms were refused.

    >>> _parse_signature("#:1|c:lc|e:no|tok:13a|s:exp|v:2.6.0")["case"]
    'lc'
    >>> _parse_signature("BLEU|nrefs:1|case:mixed|eff:no|tok:intl|smooth:exp")["tok"]
    'intl'
    """
    fields = dict(_DEFAULT_SIGNATURE)
    parts = text.strip().split("|")
    if parts and parts[0].strip().upper() == "BLEU":
        parts = parts[1:]
    for part in parts:
        key, sep, value = part.partition(":")
        key = _SHORT_KEYS.get(key, key)
        if not sep or key not in fields and key != "version":
            raise ValueError(f"not a sacrebleu signature field: {part!r}")
        if key != "version":
            fields[key] = value
    if fields["nrefs"] != "1":
        raise ValueError("this corpus has one reference: nrefs:1")
    return fields


def _judge_forensics(case: tuple, got: Any) -> tuple[bool, str]:
    """The signature must reproduce the reported score, and the knob be the field in which it
    differs from sacrebleu's default signature."""
    if not (isinstance(got, dict) and _is_text(got.get("knob")) and
            _is_text(got.get("signature"))):
        return False, f"{_show(got)}：不是含 knob 和 signature 两个字符串的 dict"
    try:
        fields = _parse_signature(got["signature"])
        score = _sacrebleu_score(FORENSICS_HYPS, FORENSICS_REFS, fields)
    except (ValueError, KeyError, TypeError) as exc:
        return False, f"签名无法使用 (unusable signature): {exc}"
    reported = forensics_reported()
    changed = [k for k in fields if fields[k] != _DEFAULT_SIGNATURE[k]]
    knob = got["knob"].strip().lower()
    named = [k for k, names in _KNOB_NAMES.items() if knob in names]
    ok = abs(score - reported) < 0.005 and named == changed
    return ok, (f"这个签名给出 {score:.2f}（报告的是 {reported:.2f}）；它改动的旋钮: "
                f"{changed or '没有'}；你说的旋钮: {got['knob']!r}")


def _is_text(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


EXERCISES = (
    Exercise("8.1", "看不出来的排错 my_flattering_layout", None, ((),), judge=_judge_flattering,
             extra={"expect": "返回 {\"candidates\": [...], \"streams\": [[...], ...]}：n 句候选、"
                              "n 个参考流（2 ≤ n ≤ 4），把按句子排的列表交给 sacrebleu 时分数比排对时"
                              "严格更高"},
             hint="排错时，第 i 句拿到的参考是第 i 个参考流里的所有句子；让候选去匹配它们。",
             # a search for a flattering layout with sacrebleu inside the answer is honest
             # work (issue 20, round 21: refused where it was judged); sacrebleu computes
             # no answer to 8.1, it only scores what the learner builds
             libraries=("sacrebleu",)),
    Exercise("8.2", "BLEU 取证 my_forensics", None, ((),), judge=_judge_forensics,
             extra={"expect": "返回 {'knob': …, 'signature': …}：signature 用 sacrebleu 重算正好"
                              "得到报告的分数，knob 是它与默认签名不同的那个旋钮"},
             hint="先算 sacrebleu 默认设置的分数，再一次只改一个旋钮，看哪一个正好得到报告的数。",
             building_blocks=("forensics",), libraries=("sacrebleu",)),
)

QUESTIONS: tuple[Question, ...] = (
    question("种子的单参考例子：sacrebleu 的 `sentence_bleu`（默认设置）给 0.4301，NLTK 的 `sentence_bleu` （默认设置）印出来是 0.0000。为什么不同？",
       ("NLTK 默认用 `method1` 平滑，把 0 换成了 0.1，所以分数很小", False,
        "NLTK 的默认是 `method0`（不平滑，只把 0 换成极小的正数）；`method1` 要自己指定，给的分数也不是 0。"),
       ("分词不同：sacrebleu 用 13a，NLTK 按空白切分", False,
        "这个例子没有标点，13a 和按空白切分的结果相同。"),
       ("默认的平滑不同：`exp` 对 `method0`", True,
        "p_4 = 0/3：`exp` 把它换成 1/6，得 0.4301；`method0` 换成最小的正浮点数，分数极小但不是 0。"),
       ("参考长度的平局规则不同", False,
        "只有一条参考，谈不上平局；两者都用 r = 7。")),
    question("把按句子排的参考列表（`refs[i][k]`）直接交给 sacrebleu 的 `corpus_bleu`，会发生什么？",
       ("抛出 ValueError：参考的排法不对", False,
        "sacrebleu 不检查这一点；报错的是本库的 `corpus_bleu`（收到 sacrebleu 的排法时）。"),
       ("不报错，悄悄给出另一个分数", True,
        "sacrebleu 要的是一个个参考流 (`refs[k][i]`)；排错时它把行列对调着读，还悄悄丢掉了第 3 句。"),
       ("分数不变，两种排法等价", False,
        "两种排法只是类型相同，行列是对调的，分数从 81.50 变成 67.13。"),
       ("sacrebleu 会自动识别并转换排法", False,
        "它不会转换；要自己用 `references_from_streams` 转。")),
    question("同一测试集，论文甲写 “BLEU 36.1（multi-bleu.perl，分词后，-lc）”，论文乙写 “BLEU 34.6（sacrebleu，nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp）”。能说甲的系统更好吗？",
       ("不能：两个数不是同一种算法算出来的", True,
        "Post (2018)：参考的分词和规范化不同，分数就不能比；要在同一个签名下重算。"),
       ("能：高了 1.5 分，超过了通常的置信区间半宽", False,
        "置信区间只说明抽样波动；算法不同带来的差别可能比它还大，而且不会被区间覆盖。"),
       ("不能：sacrebleu 总是比 multi-bleu.perl 高，所以乙其实更好", False,
        "方向也不能这样推：差别因系统而异，只能在同一个算法下比较。"),
       ("能：只要两篇论文用的是同一个测试集", False,
        "同一个测试集是必要条件，不是充分条件；还要同样的分词、大小写、平滑和参考条数。")),
)

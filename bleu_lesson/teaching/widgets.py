"""One explorer (动手实验) per chapter: a pure render function plus thin ipywidgets wiring.

Each ``render_*`` function maps plain inputs to an HTML string and never raises on bad
input: it returns a friendly message instead. Each explorer class is an ``ipywidgets.VBox``
whose controls call the render function and put its HTML into ``.result`` (an ``HTML``
widget with the CSS class ``bleu-result``). Tests set ``.value`` on the controls and read
``.result.value``; no browser is needed.

>>> refs = "The cat is sitting on the mat\\nA cat is on the mat\\nThe cat lies on the mat"
>>> html = render_bleu("The cat is on the mat", refs)
>>> "0.9036" in html
True
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable, Sequence

import ipywidgets as widgets

from bleu_lesson.analysis.agreement import (
    concordance,
    disagreements,
    kendall_tau,
    pairwise_accuracy,
    pearson,
)
from bleu_lesson.analysis.variants import (
    TOOL_KNOBS,
    VARIANTS,
    knobs_of,
    matching_tools,
    tool_options,
)
from bleu_lesson.analysis.variants import score as variant_score
from bleu_lesson.core.bleu import (
    BleuOptions,
    BleuScorer,
    geometric_mean,
    score_stats,
    sentence_bleu,
)
from bleu_lesson.core.brevity import brevity_penalty, closest_ref_length
from bleu_lesson.core.clipping import clipping_table
from bleu_lesson.core.ngrams import ngram_counts
from bleu_lesson.core.seed import tokenize as seed_tokenize
from bleu_lesson.core.smoothing import SMOOTHING, SMOOTHING_METHODS
from bleu_lesson.core.stats import sum_stats
from bleu_lesson.core.tokenizers import TOKENIZERS, get_tokenizer
from bleu_lesson.data.datasets import TOY_CORPUS

from .display import message_html, table_html, tokens_html

__all__ = [
    "parse_references",
    "render_tokens", "TokenizerExplorer",
    "render_ngrams", "NgramExplorer",
    "render_clipping", "ClippingExplorer",
    "render_brevity_experiment", "BrevityExplorer",
    "render_geometric_mean", "GeometricMeanExplorer",
    "render_bleu", "BleuExplorer",
    "render_corpus", "CorpusExplorer",
    "render_tools", "matching_tools", "tool_options", "knobs_of", "ToolsExplorer",
    "render_systems", "SystemsExplorer",
]

_TEXT_LAYOUT = widgets.Layout(width="95%")
_NO_REFS = "请至少输入一条参考译文，每行一条 (at least one reference is required, one per line)."
_NO_CAND = "请输入候选译文 (enter a candidate translation)."
_NO_LENGTHS = "请输入参考译文的长度，例如 7, 5 (enter the references' lengths, e.g. 7, 5)."


#: What separates numbers typed into a box: spaces (U+3000 too), ASCII and full-width commas
#: and semicolons, and the enumeration comma a Chinese IME types (、).
_SEPARATORS = re.compile(r"[\s,，、;；]+")


def split_numbers(text: str) -> list[str]:
    """The numbers typed into a box, as strings, whatever separator a keyboard or a Chinese
    input method gives.

    >>> split_numbers("7，5"), split_numbers(" 7, 5 "), split_numbers("7、5；6")
    (['7', '5'], ['7', '5'], ['7', '5', '6'])
    """
    return [part for part in _SEPARATORS.split(text) if part]


def parse_references(text: str) -> list[str]:
    """References typed one per line; blank lines are ignored.

    >>> parse_references("a cat\\n\\n  the cat  \\n")
    ['a cat', '  the cat  ']
    """
    return [line for line in text.split("\n") if line.strip()]


def _tokenizer_for(name: str, lowercase: bool):
    if name == "seed":  # the seed's tokenize: always lowercase + whitespace split
        return seed_tokenize
    return get_tokenizer(name, lowercase)


# --- 01 tokenization -------------------------------------------------------------------

TOKENIZER_CHOICES: tuple[str, ...] = ("seed",) + TOKENIZERS


def render_tokens(text: str, tokenizer: str | None = None, lowercase: bool = False) -> str:
    """The tokens of ``text`` under every tokenizer side by side (or one, if named), as chips,
    with their counts: the same sentence, different tokens, different n-grams.

    >>> "6 个词元" in render_tokens("The cat is on the mat", "none")
    True
    >>> html = render_tokens("猫坐在垫子上。")
    >>> "<td" in html and "char" in html and "zh" in html
    True
    """
    if not text.strip():
        return message_html("请输入一段文本 (enter some text).")
    names = TOKENIZER_CHOICES if tokenizer is None else (tokenizer,)
    rows = []
    for name in names:
        try:
            tokens = _tokenizer_for(name, lowercase)(text)
        except (ValueError, TypeError) as exc:
            return message_html(str(exc))
        rows.append((name, len(tokens), tokens))
    if tokenizer is not None:
        name, count, tokens = rows[0]
        return (f"<div><b>{count} 个词元 (tokens)</b> · tokenizer = {html.escape(name)}"
                f"{' + lowercase' if lowercase and name != 'seed' else ''}"
                f"{' (seed always lowercases)' if name == 'seed' else ''}</div>"
                f"<div>{tokens_html(tokens)}</div>")
    body = "".join(f"<tr><td style='padding:2px 8px'>{html.escape(name)}</td>"
                   f"<td style='padding:2px 8px'>{count} 个词元</td>"
                   f"<td style='padding:2px 8px'>{tokens_html(tokens)}</td></tr>"
                   for name, count, tokens in rows)
    note = " · lowercase" if lowercase else ""
    note += " · seed 总是转小写 (seed always lowercases)"
    return (f"<div><b>同一句话，{len(rows)} 种分词器 (tokenizers)</b>{note}</div>"
            "<table><thead><tr><th>tokenizer</th><th>个数</th><th>词元 tokens</th></tr>"
            f"</thead><tbody>{body}</tbody></table>")


#: What a slow explorer shows while it computes: a notice above the old result, greyed out
#: (the kernel sends it to the page before the computation starts).
BUSY_HTML = ("<div class='bleu-busy' style='color:#36c;padding:2px'>⏳ 正在计算… (computing)"
             "</div>")


class _Explorer(widgets.VBox):
    """Controls above, ``.result`` below; any control change re-renders. An explorer
    whose render takes a while (``slow = True``) first shows ``BUSY_HTML`` over the old
    result, so that a change is seen to be taken."""

    slow = False

    def __init__(self, controls: Sequence[widgets.Widget], render: Callable[[], str],
                 **kwargs) -> None:
        self.result = widgets.HTML()
        self.result.add_class("bleu-result")
        self._render = render
        super().__init__(children=[*controls, self.result], **kwargs)
        fit_labels(controls)
        for control in controls:
            control.observe(self.update, names="value")
        self.update()

    def update(self, change: object = None) -> None:
        if self.slow and change is not None and self.result.value:
            self.result.value = (BUSY_HTML + "<div style='opacity:0.4'>"
                                 f"{self.result.value}</div>")
        try:
            self.result.value = self._render()
        except Exception as exc:  # never a traceback in the page
            self.result.value = message_html(f"{type(exc).__name__}: {exc}")


def _text(value: str, description: str, rows: int = 1) -> widgets.Widget:
    if rows > 1:
        return widgets.Textarea(value=value, description=description, rows=rows,
                                continuous_update=False, layout=_TEXT_LAYOUT)
    return widgets.Text(value=value, description=description, continuous_update=False,
                        layout=_TEXT_LAYOUT)


_CJK_WIDE = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")


def _label_px(text: str) -> int:
    """About how wide a label is drawn: a CJK character 14 px, any other 7.5 px."""
    wide = len(_CJK_WIDE.findall(text))
    return round(14 * wide + 7.5 * (len(text) - wide)) + 12


#: The track a slider keeps beside its label and its readout (a learner's find: a slider
#: sharing a long label width had no track left to drag in ipywidgets' 300 px default)
SLIDER_TRACK_PX = 260


def fit_labels(controls: Sequence[widgets.Widget]) -> None:
    """Give the labelled controls (not check boxes, whose label is beside the box) one label
    width, that of the longest description: ipywidgets cuts a longer label to "…". A
    slider grows by that width, so its track stays ``SLIDER_TRACK_PX`` long."""
    labelled = [c for c in controls if getattr(c, "description", "")
                and not isinstance(c, widgets.Checkbox)
                and hasattr(getattr(c, "style", None), "description_width")]
    if labelled:
        width = max(max(_label_px(c.description) for c in labelled), 80)
        for control in labelled:
            control.style.description_width = f"{width}px"
            if hasattr(control, "readout") and not control.layout.width:
                control.layout.width = f"{width + SLIDER_TRACK_PX + 60}px"
            labels = getattr(control, "_options_labels", None)
            if labels and not control.layout.width:  # a menu shows its longest choice whole
                control.layout.width = f"{width + max(map(_label_px, labels)) + 40}px"
    for box in controls:  # a check box's label, right of the box (a learner's find: cut)
        if isinstance(box, widgets.Checkbox) and box.description and not box.layout.width:
            box.layout.width = f"{_label_px(box.description) + 120}px"


class TokenizerExplorer(_Explorer):
    """Chapter 01: a text box and a lowercase box → the tokens under every tokenizer."""

    def __init__(self, text: str = "The cat sat on the mat.", lowercase: bool = False) -> None:
        self.text = _text(text, "文本 (text)")
        self.lowercase = widgets.Checkbox(value=lowercase, description="转小写 (lowercase)")
        super().__init__([self.text, self.lowercase],
                         lambda: render_tokens(self.text.value, None, self.lowercase.value))


# --- 02 n-grams ------------------------------------------------------------------------

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_CJK_SPACED = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]\s+\S|\S\s+[\u3400-\u9fff\uf900-\ufaff]")


def unspaced_chinese(texts: Sequence[str]) -> bool:
    """Whether some text has Chinese characters and no space next to any of them, so a
    whitespace tokenizer keeps each run of Chinese as one token.

    >>> unspaced_chinese(["猫坐在垫子上"]), unspaced_chinese(["猫 坐 在 垫子 上"])
    (True, False)
    """
    return any(_CJK.search(t) and not _CJK_SPACED.search(t.strip()) for t in texts)


def chinese_hint(how: str) -> str:
    """The hint shown under a result computed on unspaced Chinese; ``how`` says what to do."""
    return ("<div class='bleu-hint'>提示 (hint)：这里按空格切分词元，中文句子没有空格，"
            f"一整句只算一个词元，几乎什么也匹配不上。{how}</div>")


_SPACE_OR_ZH = "先分词（第 1 章的 zh 分词器把汉字逐个切开），或在词之间加空格再试。"


def render_ngrams(text: str, n: int = 2, lowercase: bool = True) -> str:
    """The n-grams of a whitespace-tokenized text with their counts; L − n + 1 of them, and
    for every order 1…4 how many there are, how many distinct, and which repeat.

    >>> "5 − 2 + 1 = 4" in render_ngrams("a b a b c", 2)
    True
    >>> "a b ×2" in render_ngrams("a b a b c", 2)
    True
    """
    tokens = text.lower().split() if lowercase else text.split()
    if not tokens:
        return message_html("请输入一段文本 (enter some text).")
    counts = ngram_counts(tokens, n)
    total = sum(counts.values())
    summary = (f"<div><b>L = {len(tokens)}, n = {n}: {len(tokens)} − {n} + 1 = "
               f"{len(tokens) - n + 1}</b>" if len(tokens) >= n else
               f"<div><b>L = {len(tokens)} &lt; n = {n}: 0</b>")
    summary += f" · {total} 个 {n} 元语法 (n-grams), {len(counts)} 个不同 (distinct)</div>"
    if len(tokens) < n and _CJK.search(text):
        summary += chinese_hint(_SPACE_OR_ZH)
    rows = [(" ".join(g), c) for g, c in counts.items()]
    orders = []
    for k in range(1, 5):
        ck = ngram_counts(tokens, k)
        repeated = ", ".join(f"{' '.join(g)} ×{c}" for g, c in ck.items() if c > 1) or "—"
        orders.append((k, max(len(tokens) - k + 1, 0), len(ck), repeated))
    return (summary + (table_html([f"{n}-gram", "次数 count"], rows) if rows else "")
            + "<div style='margin-top:6px'>各阶一览 (all orders)：</div>"
            + table_html(["n", "L − n + 1", "不同 distinct", "重复的 repeated"], orders))


class NgramExplorer(_Explorer):
    """Chapter 02: text + an n slider → the n-grams and their counts."""

    def __init__(self, text: str = "the cat is on the mat", n: int = 2) -> None:
        self.text = _text(text, "文本 (text)")
        self.n = widgets.IntSlider(value=n, min=1, max=6, description="阶数 n",
                                   continuous_update=False)
        super().__init__([self.text, self.n],
                         lambda: render_ngrams(self.text.value, self.n.value))


# --- 03 clipped counts -----------------------------------------------------------------

def render_clipping(candidate: str, references: str | Sequence[str], n: int = 1) -> str:
    """The clipping table of order n (lowercase + whitespace tokens) and the highlighted
    candidate; ``references`` one per line or as a list.

    >>> "2/7" in render_clipping("the the the the the the the",
    ...                          "the cat is on the mat\\nthere is a cat on the mat", 1)
    True
    """
    refs = parse_references(references) if isinstance(references, str) else list(references)
    cand = candidate.lower().split()
    if not cand:
        return message_html(_NO_CAND)
    if not refs:
        return message_html(_NO_REFS)
    ref_tokens = [r.lower().split() for r in refs]
    rows = clipping_table(cand, ref_tokens, n)
    clipped = sum(r.clipped for r in rows)
    total = sum(r.count for r in rows)
    # a candidate token is green if it lies in a credited n-gram occurrence (the first
    # `clipped` occurrences of each n-gram, left to right)
    credit = {r.ngram: r.clipped for r in rows}
    marks = [False] * len(cand)
    for i in range(len(cand) - n + 1):
        gram = tuple(cand[i:i + n])
        if credit.get(gram, 0) > 0:
            credit[gram] -= 1
            marks[i:i + n] = [True] * n
    table = table_html(
        [f"{n}-gram", "候选中次数 count", "参考中最大次数 max ref count", "来自参考 ref #",
         "截断后 clipped"],
        [(r.text, r.count, r.max_ref_count, "—" if r.best_ref is None else r.best_ref + 1,
          r.clipped) for r in rows],
    )
    if total == 0:
        head = f"<div><b>候选译文没有 {n} 元语法 (no {n}-grams): p_{n} 无定义</b></div>"
    else:
        head = (f"<div><b>p_{n} = {clipped}/{total} = {clipped / total:.4f}</b> "
                f"(截断后匹配数 / 候选 {n} 元语法总数)</div>")
    hint = chinese_hint(_SPACE_OR_ZH) if unspaced_chinese([candidate, *refs]) else ""
    return head + hint + f"<div>{tokens_html(cand, marks)}</div>" + table


class ClippingExplorer(_Explorer):
    """Chapter 03: candidate + references (one per line) + n → the clipping table."""

    def __init__(self, candidate: str = "the the the the the the the",
                 references: Sequence[str] = ("the cat is on the mat",
                                              "there is a cat on the mat"),
                 n: int = 1) -> None:
        self.candidate = _text(candidate, "候选译文 (candidate)")
        self.references = _text("\n".join(references), "参考译文 (references)", rows=4)
        self.n = widgets.IntSlider(value=n, min=1, max=4, description="阶数 n",
                                   continuous_update=False)
        super().__init__([self.candidate, self.references, self.n],
                         lambda: render_clipping(self.candidate.value, self.references.value,
                                                 self.n.value))


# --- 04 brevity penalty ----------------------------------------------------------------

def render_brevity_experiment(c: int, ref_lens: str | Sequence[int]) -> str:
    """One experiment: a candidate of length c and the references' lengths → the effective
    reference length r under each tie rule, and BP = exp(1 − r/c) worked out for each.

    >>> html = render_brevity_experiment(6, "7, 5")
    >>> "exp(1 − 7/6)" in html and "0.8465" in html and "r = 5" in html
    True
    """
    if isinstance(ref_lens, str):
        try:
            lens = [int(x) for x in split_numbers(ref_lens)]
        except ValueError:
            return message_html("参考长度要写成整数，用逗号分隔 (integers, comma-separated).")
    else:
        lens = list(ref_lens)
    if not lens:
        return message_html(_NO_LENGTHS)
    if any(x < 0 for x in lens) or c < 0:
        return message_html("长度不能为负 (lengths must be non-negative).")
    rows = []
    for label, tie in (("sacrebleu / NLTK: 平局取较短 (shorter)", "shorter"),
                       ("种子 seed: 平局取先列出的 (first listed)", "first")):
        r = closest_ref_length(c, lens, tie=tie)
        bp = brevity_penalty(c, r)
        if c > r:
            how = f"c = {c} > r = {r}：不惩罚"  # table_html escapes the cell
        elif c == 0:
            how = "c = 0：空译文"
        else:
            how = f"exp(1 − {r}/{c}) = exp({1 - r / c:.4f})"
        rows.append((label, f"r = {r}", how, f"{bp:.4f}"))
    return (f"<div>候选长度 c = {c} · 参考长度 (reference lengths) = {lens}</div>"
            + table_html(["规则 tie rule", "有效参考长度", "算式", "BP"], rows))


class BrevityExplorer(_Explorer):
    """Chapter 04: one experiment: a slider for the candidate length c and the references'
    lengths typed as a list; r is chosen from them (both tie rules) and BP worked out."""

    def __init__(self, c: int = 6, ref_lens: str = "7, 5") -> None:
        self.c = widgets.IntSlider(value=c, min=0, max=40, description="候选长度 c",
                                   continuous_update=False)
        self.ref_lens = _text(ref_lens, "各参考长度 (reference lengths)")
        super().__init__([self.c, self.ref_lens],
                         lambda: render_brevity_experiment(self.c.value, self.ref_lens.value))


# --- 05 geometric mean -----------------------------------------------------------------

def render_geometric_mean(precisions: Sequence[float], weights: Sequence[float],
                          renormalise: bool = False) -> str:
    """exp(Σ w_n log p_n) next to the arithmetic Σ w_n p_n, with each log term and Σw.

    Only when Σw = 1 (or with ``renormalise``, which divides every weight by Σw) is the first
    a weighted geometric *mean*; BLEU uses the weights as given.

    >>> "0.5623" in render_geometric_mean([1.0, 0.8, 0.5, 0.25], [0.25] * 4)
    True
    >>> "Σw = 0.7500" in render_geometric_mean([1.0, 0.8, 0.5, 0.25], [0.25, 0.25, 0.25, 0])
    True
    """
    if len(precisions) != len(weights):
        return message_html("精确率和权重的个数要相同 (as many weights as precisions).")
    if any(p < 0 or p > 1 for p in precisions) or any(w < 0 for w in weights):
        return message_html("精确率在 0 到 1 之间，权重不能为负 (0 ≤ p ≤ 1, w ≥ 0).")
    total = sum(weights)
    if not total:
        return message_html("权重不能全为 0 (weights must not all be zero).")
    used = [w / total for w in weights] if renormalise else list(weights)
    rows, zero = [], False
    for n, (p, w) in enumerate(zip(precisions, used, strict=True), start=1):
        if w == 0:
            term = "0 (权重为 0)"
        elif p == 0:
            term = "−∞"
            zero = True
        else:
            term = f"{w * math.log(p):.4f}"
        rows.append((f"p{n}", f"{p:.4f}", f"{w:.4f}", term))
    geo = geometric_mean(precisions, used)  # the function score_stats calls
    arith = sum(p * w for p, w in zip(precisions, used, strict=True))
    note = " · 有一个精确率为 0，结果为 0 (one zero precision zeroes it)" if zero else ""
    if renormalise:
        name = f"加权几何平均 (weighted geometric mean，权重已除以 Σw = {total:.4f})"
    elif abs(total - 1) < 1e-9:
        name = "加权几何平均 (weighted geometric mean)"
    else:
        name = (f"exp(Σ w·log p)：Σw = {total:.4f} ≠ 1，这不是平均 (not a mean；"
                "勾选 renormalise 看真正的平均)")
    return (f"<div><b>{name} = {geo:.4f}</b> · "
            f"算术 (arithmetic) Σ w·p = {arith:.4f}{note}</div>"
            f"<div>Σw = {total:.4f}</div>"
            + table_html(["n", "p_n", "w_n", "w_n · log p_n"], rows))


class GeometricMeanExplorer(_Explorer):
    """Chapter 05: sliders for p1…p4 and w1…w4, and a renormalise box (Σw shown)."""

    def __init__(self, precisions: Sequence[float] = (1.0, 0.8, 0.5, 0.25),
                 weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
                 renormalise: bool = False) -> None:
        self.precisions = [widgets.FloatSlider(value=p, min=0, max=1, step=0.01,
                                               description=f"p{i}", continuous_update=False)
                           for i, p in enumerate(precisions, start=1)]
        # step 0.0125 reaches d2l's weights 1/2, 1/4, 1/8, 1/16 exactly
        self.weights = [widgets.FloatSlider(value=w, min=0, max=1, step=0.0125,
                                            description=f"w{i}", continuous_update=False)
                        for i, w in enumerate(weights, start=1)]
        self.renormalise = widgets.Checkbox(value=renormalise,
                                            description="权重归一化 w / Σw (renormalise)")
        super().__init__(
            [*self.precisions, *self.weights, self.renormalise],
            lambda: render_geometric_mean([s.value for s in self.precisions],
                                          [s.value for s in self.weights],
                                          self.renormalise.value))


# --- 06 the whole score ----------------------------------------------------------------

def parse_weights(text: str, max_n: int) -> tuple[float, ...] | None:
    """``"uniform"`` (or empty) → None; otherwise max_n numbers separated by spaces/commas.

    >>> parse_weights("0.5, 0.25", 2), parse_weights("0.5，0.25", 2), parse_weights("uniform", 4)
    ((0.5, 0.25), (0.5, 0.25), None)
    """
    text = text.strip()
    if not text or text.lower() == "uniform":
        return None
    try:
        weights = tuple(float(x) for x in split_numbers(text))
    except ValueError:
        raise ValueError(f"weights must be 'uniform' or {max_n} numbers, got {text!r}") from None
    if len(weights) != max_n:
        raise ValueError(f"weights must have max_n = {max_n} numbers, got {len(weights)}")
    return weights


def render_bleu(candidate: str, references: str | Sequence[str], tokenizer: str = "none",
                lowercase: bool = True, smoothing: str = "none", max_n: int = 4,
                weights: str | Sequence[float] | None = None,
                effective_order: bool = False) -> str:
    """BLEU with its precisions, BP and lengths (4 decimals), or a friendly message."""
    refs = parse_references(references) if isinstance(references, str) else list(references)
    if not candidate.strip():
        return message_html(_NO_CAND)
    if not refs:
        return message_html(_NO_REFS)
    if isinstance(weights, str):
        try:
            weights = parse_weights(weights, max_n)
        except ValueError as exc:
            return message_html(f"权重要写 uniform 或 max_n 个数（max_n = {max_n}）({exc}).")
    try:
        r = sentence_bleu(candidate, refs, tokenizer=tokenizer, lowercase=lowercase,
                          smoothing=smoothing, effective_order=effective_order, max_n=max_n,
                          weights=weights)
    except (ValueError, TypeError) as exc:
        return message_html(str(exc))
    effective = effective_order and SMOOTHING[smoothing].family == "sacrebleu"
    rows = [(f"p{n}", f"{m}/{t}",
             "—（不参加平均）" if effective and t == 0 else f"{p:.4f}")
            for n, (m, t, p) in enumerate(zip(r.matches, r.totals, r.precisions, strict=True),
                                          start=1)]
    counted = [n for n, t in enumerate(r.totals, start=1) if t > 0]
    if effective:
        orders = (f"有效阶数 (effective order)：只平均候选里有的 {len(counted)} 阶"
                  f"（n = {', '.join(map(str, counted)) or '无'}）")
    else:
        orders = f"{max_n} 阶都参加平均 (all {max_n} orders count)"
    shown = "uniform" if weights is None else ", ".join(f"{w:g}" for w in weights)
    tokens = _tokenizer_for(tokenizer, lowercase)(candidate)
    hint = ""
    if tokenizer not in ("zh", "char") and unspaced_chinese([candidate, *refs]):
        hint = chinese_hint(f"分词器 (tokenizer) {html.escape(str(tokenizer))} 不切分汉字："
                            "把分词器换成 zh（sacrebleu 的中文分词器，汉字逐个切开），"
                            "或在词之间加空格再试。")
    return (f"<div style='font-size:120%'><b>BLEU = {r.score:.4f}</b></div>{hint}"
            f"<div>BP = {r.bp:.4f} · 候选长度 c = {r.hyp_len} · 参考长度 r = {r.ref_len} · "
            f"{len(refs)} 条参考 (references)</div>"
            f"<div>max_n = {max_n} · 权重 (weights) = {html.escape(shown)} · "
            f"{html.escape(orders)}</div>"
            f"<div>候选词元 (candidate tokens): {tokens_html(tokens)}</div>"
            + table_html(["n", "截断匹配/总数 matches/total", "精确率 precision"], rows)
            + f"<div style='font-family:monospace;color:#555'>{html.escape(str(r))}</div>")


class BleuExplorer(_Explorer):
    """Chapter 06: the full explorer. ``.candidate``, ``.references`` (one per line), and
    menus for the tokenizer, lowercasing, smoothing, max_n, weights ("uniform" or numbers)
    and effective order; ``.result`` shows the score."""

    def __init__(self, candidate: str = "The cat is on the mat",
                 references: Sequence[str] = ("The cat is sitting on the mat",
                                              "A cat is on the mat", "The cat lies on the mat"),
                 tokenizer: str = "none", lowercase: bool = True,
                 smoothing: str = "none", max_n: int = 4, weights: str = "uniform",
                 effective_order: bool = False) -> None:
        if isinstance(references, str):
            references = [references]
        self.candidate = _text(candidate, "候选译文 (candidate)")
        self.references = _text("\n".join(references), "参考译文 (references)", rows=4)
        self.tokenizer = widgets.Dropdown(options=TOKENIZERS, value=tokenizer,
                                          description="分词器 (tokenizer)")
        self.lowercase = widgets.Checkbox(value=lowercase, description="转小写 (lowercase)")
        self.smoothing = widgets.Dropdown(options=SMOOTHING_METHODS, value=smoothing,
                                          description="平滑 (smoothing)")
        self.max_n = widgets.IntSlider(value=max_n, min=1, max=4, description="最高阶数 max_n",
                                       continuous_update=False)
        self.weights = _text(weights, "权重 (weights)")
        self.effective_order = widgets.Checkbox(value=effective_order,
                                                description="有效阶数 (effective order)")
        super().__init__(
            [self.candidate, self.references, self.tokenizer, self.lowercase, self.smoothing,
             self.max_n, self.weights, self.effective_order],
            lambda: render_bleu(self.candidate.value, self.references.value,
                                self.tokenizer.value, self.lowercase.value,
                                self.smoothing.value, self.max_n.value, self.weights.value,
                                self.effective_order.value))


# --- 07 corpus vs sentence BLEU -------------------------------------------------------

def render_corpus(corpus, system: str, selected: Sequence[int] | None = None,
                  tokenizer: str = "13a", scorer=None) -> str:
    """Corpus BLEU (sum the statistics, score once) next to the mean of sentence BLEUs
    (smoothed ``exp``, effective order) over the selected segments of one system.

    ``scorer``, a ``BleuScorer`` on all of the corpus's references, is reused when given
    (an explorer passes its own, so a change only re-sums counts it already has).
    """
    chosen = sorted(set(range(len(corpus)) if selected is None else selected))
    if not chosen:
        return message_html("请至少选择一个句段 (select at least one segment).")
    if system not in corpus.systems:
        return message_html(f"没有这个系统 (no such system): {system}")
    hyps = corpus.systems[system]
    if scorer is None:
        scorer = BleuScorer(corpus.references_for("both"), tokenizer=tokenizer)
    every = scorer.segment_stats(hyps)  # counted once per system: the scorer memoizes
    stats = [every[i] for i in chosen]
    total = scorer.score_stats(sum_stats(stats))
    # sentence BLEU: the same counts, scored with effective order (sacrebleu's sentence rule)
    sentence_options = BleuOptions(tokenizer=scorer.options.tokenizer, effective_order=True)
    sentence = [score_stats(s, sentence_options).score for s in stats]
    mean = sum(sentence) / len(sentence)
    rows = [(i + 1, hyps[i], f"{s:.4f}") for i, s in zip(chosen, sentence, strict=True)]
    return (f"<div><b>语料级 corpus BLEU = {total.score:.4f}</b> · "
            f"句子级平均 mean sentence BLEU = {mean:.4f} · {len(chosen)} 个句段 (segments) · "
            f"system = {html.escape(system)}</div>"
            f"<div style='font-family:monospace;color:#555'>{html.escape(str(total))}</div>"
            + table_html(["#", "译文 output", "sentence BLEU (exp)"], rows))


class CorpusExplorer(_Explorer):
    """Chapter 07: tick segments in or out and watch corpus BLEU and the sentence mean."""

    def __init__(self, corpus=None, system: str = "weak") -> None:
        self.corpus = corpus if corpus is not None else TOY_CORPUS
        self._scorer = BleuScorer(self.corpus.references_for("both"), tokenizer="13a")
        self.system = widgets.Dropdown(options=list(self.corpus.systems), value=system,
                                       description="系统 (system)")
        self.segments = [widgets.Checkbox(value=True, description=f"#{i + 1}", indent=False,
                                          layout=widgets.Layout(width="70px"))
                         for i in range(len(self.corpus))]
        box = widgets.HBox(self.segments, layout=widgets.Layout(flex_flow="row wrap"))
        self._controls = [self.system, *self.segments]
        super().__init__(self._controls, self._render_now)
        self.children = (self.system, box, self.result)

    def _render_now(self) -> str:
        chosen = [i for i, box in enumerate(self.segments) if box.value]
        return render_corpus(self.corpus, self.system.value, chosen, scorer=self._scorer)


# --- 08 tools compared -----------------------------------------------------------------

def render_tools(candidate: str, references: str | Sequence[str],
                 knobs: dict[str, object]) -> str:
    """The score for one choice of every knob, and which tool's rules those are."""
    refs = parse_references(references) if isinstance(references, str) else list(references)
    if not candidate.strip():
        return message_html(_NO_CAND)
    if not refs:
        return message_html(_NO_REFS)
    options, first_only = tool_options(knobs)
    try:
        r = sentence_bleu(candidate, refs[:1] if first_only else refs, **options)
    except (ValueError, TypeError, ZeroDivisionError) as exc:
        return message_html(str(exc))
    tools = matching_tools(knobs)
    if knobs.get("tokenizer") == "zh" and "sacrebleu" in matching_tools({**knobs,
                                                                         "tokenizer": "13a"}):
        tools = ["sacrebleu --tokenize zh"]
    # a tool is named only where its own code gives this very score: d2l's loop divides by
    # len_pred - n + 1, which is 0 for a one-token candidate at k = 2 (ZeroDivisionError),
    # and d2l-en skips that order (a learner's find: "exactly d2l's rule" beside a 0 that
    # chapter 08 says d2l never prints)
    differ: dict[str, str] = {}
    for tool in [t for t in tools if t in VARIANTS]:
        try:
            own = f"{variant_score(tool, candidate, refs):.4f}"
        except ZeroDivisionError:
            own = "ZeroDivisionError"
        if own != f"{r.score:.4f}":
            differ[tool] = own
    tools = [t for t in tools if t not in differ]
    which = ("这正是 (exactly) " + ", ".join(tools) + " 的规则") if tools else \
        "没有哪个工具恰好用这一组设置 (no tool uses exactly this combination)"
    if differ:
        which += ("；用这组旋钮的工具在这个例子上自己给出的是 (the tools' own code gives) "
                  + "; ".join(f"{t}: {own}" for t, own in differ.items()) + "（见第 4.3 节）")
    hint = ""
    if knobs.get("tokenizer") != "zh" and unspaced_chinese([candidate, *refs]):
        hint = chinese_hint("把分词器 (tokenizer) 换成 zh（sacrebleu 的中文分词器，汉字逐个切开），"
                            "或在词之间加空格再试。")
    return (f"<div style='font-size:120%'><b>BLEU = {r.score:.4f}</b></div>{hint}"
            f"<div>{html.escape(which)}</div>"
            f"<div style='font-family:monospace;color:#555'>{html.escape(str(r))}</div>")


#: The explorer's knobs: the tools' own, plus sacrebleu's Chinese tokenizer (``zh``), without
#: which a Chinese sentence is one token and scores 0.
EXPLORER_KNOBS: dict[str, dict[str, str]] = {
    **TOOL_KNOBS,
    "tokenizer": {**TOOL_KNOBS["tokenizer"], "zh (sacrebleu --tokenize zh)": "zh"},
}
#: The preset menu's entry when the knobs are no tool's rules.
CUSTOM_PRESET = "(自定义 custom)"
#: What each knob's menu is called, and what its choices are shown as (the values stay the
#: knob names and choices of ``EXPLORER_KNOBS``, which the tests and ``knob_values`` use).
KNOB_LABELS: dict[str, str] = {
    "tokenizer": "分词器 (tokenizer)", "reference length": "有效参考长度 r",
    "weights": "权重 (weights)", "smoothing": "平滑 (smoothing)",
    "lowercase": "转小写 (lowercase)", "effective order": "有效阶数 (effective order)",
}
CHOICE_LABELS: dict[str, str] = {
    "whitespace split": "按空白切分 (whitespace split)",
    "split(' ') (d2l)": "按单个空格切分 split(' ') (d2l)",
    "zh (sacrebleu --tokenize zh)": "zh：汉字逐个切开 (sacrebleu --tokenize zh)",
    "closest, ties: shorter": "最接近 c，平局取短的 (closest)",
    "closest, ties: first": "最接近 c，平局取先列出的",
    "shortest": "最短的参考 (shortest)",
    "first reference only": "只看第一条参考",
    "uniform": "均匀 (uniform)",
    "1/2, 1/4; k = 2 (d2l)": "减半 1/2, 1/4；k = 2 (d2l)",
}


class ToolsExplorer(_Explorer):
    """Chapter 08: pick every knob; see the score and which tool those knobs are. The
    preset menu follows the knobs: it names the tool they are, or says "custom"."""

    def __init__(self, candidate: str = "The cat is on the mat.",
                 references: Sequence[str] = ("The cat is sitting on the mat.",
                                              "A cat is on the mat."),
                 preset: str = "sacrebleu") -> None:
        start = knobs_of(VARIANTS[preset])
        self.preset = widgets.Dropdown(options=[*VARIANTS, CUSTOM_PRESET], value=preset,
                                       description="预设 (preset)")
        self.candidate = _text(candidate, "候选译文 (candidate)")
        self.references = _text("\n".join(references), "参考译文 (references)", rows=3)
        self.knobs = {}
        for knob, choices in EXPLORER_KNOBS.items():
            label = next(k for k, v in choices.items() if v == start[knob])
            self.knobs[knob] = widgets.Dropdown(
                options=[(CHOICE_LABELS.get(c, c), c) for c in choices], value=label,
                description=KNOB_LABELS[knob])
        self.knobs["lowercase"] = widgets.Checkbox(value=start["lowercase"],
                                                   description=KNOB_LABELS["lowercase"])
        self.knobs["effective order"] = widgets.Checkbox(
            value=start["effective order"], description=KNOB_LABELS["effective order"])
        super().__init__([self.candidate, self.references, *self.knobs.values()],
                         lambda: render_tools(self.candidate.value, self.references.value,
                                              self.knob_values()))
        self.children: tuple[widgets.Widget, ...] = (self.preset, *self.children)
        fit_labels([self.preset, self.candidate, self.references, *self.knobs.values()])
        self.preset.observe(self._apply_preset, names="value")
        for control in self.knobs.values():
            control.observe(self._follow_knobs, names="value")

    def _follow_knobs(self, change: object = None) -> None:
        """Point the preset menu at the tool whose rules the knobs now are (the chosen one
        if it still fits), or at ``CUSTOM_PRESET``, without moving any knob."""
        tools = matching_tools(self.knob_values())
        if self.preset.value in tools:
            return
        self.preset.unobserve(self._apply_preset, names="value")
        try:
            self.preset.value = tools[0] if tools else CUSTOM_PRESET
        finally:
            self.preset.observe(self._apply_preset, names="value")

    def _apply_preset(self, change: object = None) -> None:
        """Set every knob to the chosen tool's rules (one re-render at the end)."""
        if self.preset.value == CUSTOM_PRESET:
            return
        knobs = knobs_of(VARIANTS[self.preset.value])
        for knob, control in self.knobs.items():
            value: object
            if knob in EXPLORER_KNOBS:
                value = next(k for k, v in EXPLORER_KNOBS[knob].items() if v == knobs[knob])
            else:
                value = knobs[knob]
            with control.hold_trait_notifications():
                control.unobserve(self.update, names="value")
                control.unobserve(self._follow_knobs, names="value")
                control.value = value
                control.observe(self.update, names="value")
                control.observe(self._follow_knobs, names="value")
        self.update()

    def knob_values(self) -> dict[str, object]:
        values = {}
        for knob, control in self.knobs.items():
            values[knob] = (EXPLORER_KNOBS[knob][control.value] if knob in EXPLORER_KNOBS
                            else control.value)
        return values


# --- 09 WMT22 --------------------------------------------------------------------------

def render_systems(corpus, which: str = "both", tokenizer: str | None = None,
                   scorers: dict | None = None) -> str:
    """Every system's corpus BLEU for one reference choice and tokenizer, best first."""
    tokenizer = tokenizer or corpus.tokenizer
    key = (which, tokenizer)
    scorer = scorers.get(key) if scorers is not None else None
    if scorer is None:
        try:
            scorer = BleuScorer(corpus.references_for(which), tokenizer=tokenizer)
        except ValueError as exc:
            return message_html(str(exc))
        if scorers is not None:
            scorers[key] = scorer
    results = {name: scorer.score(hyps) for name, hyps in corpus.systems.items()}
    ranked = sorted(results, key=lambda n: -results[n].score)
    rows = [(rank, name, f"{100 * results[name].score:.2f}", f"{results[name].bp:.3f}")
            for rank, name in enumerate(ranked, start=1)]
    return (f"<div><b>{html.escape(corpus.pair)}</b> · references = {html.escape(which)} · "
            f"tokenizer = {html.escape(tokenizer)}</div>"
            + table_html(["rank", "system", "BLEU", "BP"], rows))


class SystemsExplorer(_Explorer):
    """Chapter 09: choose references and tokenizer; see every system's score and rank
    (a new tokenizer counts every system again: busy notice first).

    ``scorers`` maps ``(which, tokenizer)`` to a ``BleuScorer`` already built on
    ``corpus.references_for(which)`` with that tokenizer (a chapter's own), so a view it
    covers is not counted again; the explorer builds and keeps the others.
    """

    slow = True

    def __init__(self, corpus, which: str = "both", tokenizer: str | None = None,
                 scorers: dict | None = None) -> None:
        self.corpus = corpus
        self._scorers: dict = dict(scorers or {})
        for (which_refs, name), scorer in self._scorers.items():
            if which_refs not in ("both", *corpus.references):
                raise ValueError(f"scorers[{which_refs!r}, {name!r}]: the references must be "
                                 f"one of {', '.join(map(repr, ('both', *corpus.references)))}")
            if scorer.options.tokenizer != name or len(scorer) != len(corpus):
                raise ValueError(f"scorers[..., {name!r}] must be a BleuScorer with tokenizer "
                                 f"{name!r} on the corpus's {len(corpus)} segments, got "
                                 f"tokenizer {scorer.options.tokenizer!r}, {len(scorer)} segments")
            if not scorer.built_on(corpus.references_for(which_refs)):
                raise ValueError(f"scorers[{which_refs!r}, {name!r}] was not built on "
                                 f"corpus.references_for({which_refs!r}): its references' "
                                 f"lengths differ (is it another reference set's scorer?)")
        self.which = widgets.Dropdown(
            options=[("两条参考 (both)", "both"), *((f"参考 {r}", r) for r in corpus.references)],
            value=which, description="参考译文 (references)")
        self.tokenizer = widgets.Dropdown(options=TOKENIZERS,
                                          value=tokenizer or corpus.tokenizer,
                                          description="分词器 (tokenizer)")
        super().__init__([self.which, self.tokenizer],
                         lambda: render_systems(self.corpus, self.which.value,
                                                self.tokenizer.value, self._scorers))


# --- 10 BLEU and people -----------------------------------------------------------------

AGREEMENT_METRICS: dict[str, bool] = {"BLEU": True, "chrF": True, "TER": False}  # higher better?
AGREEMENT_REFSETS: tuple[str, ...] = ("A", "B", "A+B")


def _figure_svg(fig) -> str:
    """The figure as inline SVG, its labels kept as text (so a page can be searched)."""
    import io

    import matplotlib

    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    return text[text.index("<svg"):]


#: The explorer's name for ``agreement.kendall_tau``'s default statistic, as the glossary
#: (row 相关系数) and chapter 10 write it: ties dropped, not the textbook Kendall τ_b.
TAU_LABEL = "τ = (C − D)/(C + D)"
_UNSCORED_WHY = ("：HUMAN-B 就是参考译文 B，用参考 B 给它打分等于自己和自己比 "
                 "(HUMAN-B is reference B: scoring it against B compares it with itself)")


def render_agreement(tables: dict, human: dict[str, float], metric: str = "BLEU",
                     refset: str = "A", dropped: Sequence[str] = (), plot: bool = True) -> str:
    """How one metric's system scores agree with the human z-scores: τ = (C − D)/(C + D)
    (ties dropped, as ``docs/glossary.md`` names it: not the textbook Kendall τ_b), pairwise
    accuracy and Pearson's r, the pairs ranked the other way, and a labelled scatter plot.

    ``tables[(metric, refset)]`` maps systems to scores (``metric_cache.system_tables``);
    systems in ``dropped`` are left out. TER (lower is better) is negated first, so that
    for every metric, as on the plot's axis, higher is better.

    >>> tables = {("BLEU", "A"): {"a": 30.0, "b": 25.0, "c": 20.0, "d": 28.0}}
    >>> human = {"a": 0.1, "b": 0.0, "c": -0.2, "d": -0.1}
    >>> html = render_agreement(tables, human, plot=False)
    >>> "τ = (C − D)/(C + D) = 0.667" in html and "pairwise accuracy = 0.833 (5/6)" in html
    True
    """
    if metric not in AGREEMENT_METRICS:
        return message_html(f"没有这个指标 (unknown metric): {metric}")
    if (metric, refset) not in tables:
        return message_html(f"没有 {metric} / 参考 {refset} 的分数 (no scores for this choice).")
    scores = {n: s for n, s in tables[metric, refset].items() if n not in set(dropped)}
    scores = {n: s for n, s in scores.items() if n in human}
    unscored = sorted(set(human) - set(tables[metric, refset]) - set(dropped))
    if len(scores) < 3:
        return message_html("至少要留下 3 个系统 (keep at least 3 systems).")
    sign = 1.0 if AGREEMENT_METRICS[metric] else -1.0
    oriented = {n: sign * s for n, s in scores.items()}
    people = {n: human[n] for n in scores}
    counts = concordance(oriented, people)
    judged = counts.pairs - counts.human_ties
    def shown(statistic) -> str:
        try:
            return f"{statistic(oriented, people):.3f}"
        except ValueError:  # every pair tied, or a constant column
            return "—"

    r = shown(pearson)
    head = (f"<div><b>{html.escape(metric)}</b> · 参考 (references) {html.escape(refset)} · "
            f"{len(scores)} 个系统 (systems)"
            f"{' · TER 取负号：−TER 越高越好 (negated, higher is better)' if sign < 0 else ''}"
            "</div>"
            + (f"<div class='bleu-hint'>未计入 (not scored with references "
               f"{html.escape(refset)}): {html.escape(', '.join(unscored))}"
               f"{_UNSCORED_WHY if 'HUMAN-B' in unscored else ''}</div>" if unscored else "")
            + f"<div style='font-size:115%'><b>{TAU_LABEL} = {shown(kendall_tau)}"
            f"</b> · pairwise accuracy = {shown(pairwise_accuracy)} "
            f"({counts.concordant}/{judged}) · Pearson r = {r}</div>")
    rows = [(a, b, f"{sign * dm:+.2f}", f"{dh:+.3f}")
            for a, b, dm, dh in disagreements(oriented, people)[:5]]
    table = (table_html(["人更喜欢 (people prefer)", "另一个 (other)", f"Δ {metric}", "Δ z"],
                        rows) if rows else "<div>没有排反的系统对 (no pair ranked the other way)"
                                           "</div>")
    figure = ""
    if plot:
        from .plots import plot_agreement  # imports matplotlib: only when a plot is asked for

        xlabel = (f"-{metric} (ref {refset}; negated, higher is better)" if sign < 0
                  else f"{metric} (ref {refset})")
        figure = _figure_svg(plot_agreement(oriented, people, xlabel=xlabel,
                                            ylabel="human z-score (WMT22 DA)"))
    return head + f"<div>{figure}</div>" + "<div>排反的系统对 (pairs ranked the other way), " \
        "人的分差最大的在前：</div>" + table


class AgreementExplorer(_Explorer):
    """Chapter 10: pick a metric and a reference set, drop systems; see the agreement.

    The plot takes a moment: after a change the numbers come first (a few milliseconds),
    under the busy notice, then the plot; a view seen before comes back at once (kept).
    """

    slow = True

    def __init__(self, tables: dict, human: dict[str, float], metric: str = "BLEU",
                 refset: str = "A") -> None:
        self.tables, self.human = tables, dict(human)
        self.metric = widgets.Dropdown(options=list(AGREEMENT_METRICS), value=metric,
                                       description="指标 (metric)")
        self.refset = widgets.Dropdown(options=[(f"参考 {r}", r) for r in AGREEMENT_REFSETS],
                                       value=refset, description="参考译文 (references)")
        self.dropped = widgets.SelectMultiple(options=self._droppable(), value=(), rows=6,
                                              description="去掉的系统 (drop)")
        self._seen: dict[tuple[str, str, tuple[str, ...]], str] = {}
        self._syncing = False
        super().__init__([self.metric, self.refset, self.dropped], self._full)

    def _droppable(self) -> list[str]:
        """The systems this metric and reference set score (HUMAN-B is reference B: not
        scored with B), the only ones worth offering to drop."""
        table = self.tables.get((self.metric.value, self.refset.value), {})
        return sorted(n for n in table if n in self.human)

    def _sync_drop_list(self) -> None:
        """Offer only what ``_droppable`` says; a system dropped before stays dropped."""
        options = self._droppable()
        if list(self.dropped.options) == options:
            return
        kept = tuple(n for n in self.dropped.value if n in options)
        self._syncing = True
        try:
            self.dropped.options = options
            self.dropped.value = kept
        finally:
            self._syncing = False

    def _key(self) -> tuple[str, str, tuple[str, ...]]:
        return self.metric.value, self.refset.value, tuple(sorted(self.dropped.value))

    def _full(self) -> str:
        key = self._key()
        if key not in self._seen:
            self._seen[key] = render_agreement(self.tables, self.human, *key)
        return self._seen[key]

    def update(self, change: object = None) -> None:
        if self._syncing:  # the drop list is being redrawn: one render, after it
            return
        if isinstance(change, dict) and change.get("owner") is not self.dropped:
            self._sync_drop_list()  # a new metric or reference set: its own drop list
        if change is not None and self._key() not in self._seen:
            try:  # the numbers now, the plot next
                metric, refset, dropped = self._key()
                quick = render_agreement(self.tables, self.human, metric, refset, dropped,
                                         plot=False)
                self.result.value = BUSY_HTML + quick
            except Exception:  # the full render below says what is wrong
                pass
        try:
            self.result.value = self._full()
        except Exception as exc:  # never a traceback in the page
            self.result.value = message_html(f"{type(exc).__name__}: {exc}")


__all__ += ["render_agreement", "AgreementExplorer"]  # chapter 10

"""The explorers, driven headlessly: each control changes the result as it should.

Expected numbers come from an independent source: sacrebleu, NLTK, the seed's own
functions (``bleu_lesson.core.seed``, checked against the seed text in test_seed.py) or hand
arithmetic in a comment; never from the library function the widget itself calls.
"""

from __future__ import annotations

import math
import re

import pytest

widgets = pytest.importorskip("bleu_lesson.teaching.widgets")

import sacrebleu  # noqa: E402
from nltk.translate import bleu_score as nltk_bleu  # noqa: E402

from bleu_lesson.data.datasets import SEED_CANDIDATE, SEED_REFERENCES, TOY_CORPUS  # noqa: E402


def _bleu_value(html: str) -> float:
    return float(re.search(r"BLEU = (\d\.\d{4})", html).group(1))


class TestBleuExplorer:
    def test_seed_three_reference_example(self):
        ex = widgets.BleuExplorer(SEED_CANDIDATE, SEED_REFERENCES)
        assert "0.9036" in ex.result.value  # (2/3) ** (1/4) = 0.9036
        assert "bleu-result" in ex.result._dom_classes
        assert ex.references.value == "\n".join(SEED_REFERENCES)

    def test_editing_the_candidate_updates(self):
        ex = widgets.BleuExplorer(SEED_CANDIDATE, SEED_REFERENCES)
        ex.candidate.value = "the cat is sitting on the mat"
        assert _bleu_value(ex.result.value) == 1.0  # identical to the first reference

    def test_editing_references_updates(self):
        ex = widgets.BleuExplorer(SEED_CANDIDATE, SEED_REFERENCES)
        ex.references.value = SEED_REFERENCES[0]
        assert _bleu_value(ex.result.value) == 0.0  # no 4-gram match with one reference
        assert "0.8465" in ex.result.value          # BP = exp(1 - 7/6)

    @pytest.mark.parametrize("refs", ["", "\n  \n"])
    def test_no_references_is_a_message(self, refs):
        ex = widgets.BleuExplorer(SEED_CANDIDATE, SEED_REFERENCES)
        ex.references.value = refs
        assert "bleu-message" in ex.result.value
        assert "Traceback" not in ex.result.value
        assert "at least one reference" in ex.result.value

    def test_empty_candidate_is_a_message(self):
        ex = widgets.BleuExplorer(SEED_CANDIDATE, SEED_REFERENCES)
        ex.candidate.value = "   "
        assert "bleu-message" in ex.result.value

    def test_menus(self):
        cand, ref = "The cat is on the mat.", "The cat is sitting on the mat."
        ex = widgets.BleuExplorer(cand, [ref])
        for tok in ("13a", "char", "none"):
            ex.tokenizer.value = tok
            for smooth in ("exp", "floor", "none"):
                ex.smoothing.value = smooth
                want = sacrebleu.metrics.BLEU(tokenize=tok, lowercase=True, smooth_method=smooth,
                                              effective_order=False).sentence_score(cand, [ref])
                assert _bleu_value(ex.result.value) == pytest.approx(want.score / 100, abs=5e-5)
        ex.tokenizer.value = "none"
        ex.smoothing.value = "method1"
        want = nltk_bleu.sentence_bleu([ref.lower().split()], cand.lower().split(),
                                       smoothing_function=nltk_bleu.SmoothingFunction().method1)
        assert _bleu_value(ex.result.value) == pytest.approx(want, abs=5e-5)
        ex.lowercase.value = False
        ex.candidate.value = "THE CAT"
        assert _bleu_value(ex.result.value) == 0.0

    def test_max_n_weights_and_effective_order(self):
        ex = widgets.BleuExplorer("the cat", ["the cat sat"], smoothing="none")
        assert _bleu_value(ex.result.value) == 0.0  # no 3-grams: p3 = 0/0 counts as 0
        ex.effective_order.value = True  # only orders 1, 2: BP exp(1 - 3/2) = 0.6065
        assert _bleu_value(ex.result.value) == pytest.approx(math.exp(-0.5), abs=5e-5)
        assert "2 阶" in ex.result.value
        # p3, p4 are 0/0: left out of the mean, so not shown as a precision of 0
        assert ex.result.value.count("—（不参加平均）") == 2 and "0.0000" not in ex.result.value
        ex.effective_order.value = False
        assert "—（不参加平均）" not in ex.result.value and "0.0000" in ex.result.value
        ex.max_n.value = 2  # the same two orders, by max_n
        assert _bleu_value(ex.result.value) == pytest.approx(math.exp(-0.5), abs=5e-5)
        ex.candidate.value = "the cat is on the mat"
        ex.references.value = "the cat is sitting on the mat"
        ex.weights.value = "0.5, 0.25"  # d2l's k = 2: BP exp(1 - 7/6), p1 = 1, p2 = 4/5
        want = math.exp(1 - 7 / 6) * 0.8 ** 0.25
        assert _bleu_value(ex.result.value) == pytest.approx(want, abs=5e-5)
        ex.weights.value = "0.5"
        assert "bleu-message" in ex.result.value and "max_n = 2" in ex.result.value
        assert "权重要写 uniform 或 max_n 个数" in ex.result.value
        ex.weights.value = "half"
        assert "权重要写 uniform 或 max_n 个数" in ex.result.value

    def test_method6_on_short_input_is_a_message(self):
        ex = widgets.BleuExplorer("a b", ["a b"])
        ex.smoothing.value = "method6"
        assert "bleu-message" in ex.result.value


def test_tokenizer_explorer():
    from bleu_lesson.teaching.widgets import TOKENIZER_CHOICES

    ex = widgets.TokenizerExplorer("Hello, World!")
    for name in TOKENIZER_CHOICES:  # every tokenizer, side by side
        want = len(widgets._tokenizer_for(name, False)("Hello, World!"))
        assert f">{name}</td><td style='padding:2px 8px'>{want} 个词元" in ex.result.value
    assert ">13a</td><td style='padding:2px 8px'>4 个词元" in ex.result.value  # Hello , World !
    assert ">seed</td><td style='padding:2px 8px'>2 个词元" in ex.result.value  # hello, world!
    ex.text.value = "猫坐在垫子上"
    n_char = 6  # 猫 坐 在 垫 子 上: one token per character
    assert f">char</td><td style='padding:2px 8px'>{n_char} 个词元" in ex.result.value
    ex.lowercase.value = True
    ex.text.value = "A B"
    assert "&gt;a&lt;" not in ex.result.value and ">a<" in ex.result.value
    assert ">A<" not in ex.result.value  # every tokenizer lowercased
    ex.text.value = ""
    assert "bleu-message" in ex.result.value


def test_ngram_explorer():
    ex = widgets.NgramExplorer("the cat is on the mat", 2)
    assert "6 − 2 + 1 = 5" in ex.result.value
    ex.n.value = 6
    assert "6 − 6 + 1 = 1" in ex.result.value
    ex.text.value = "a b"
    assert "0 个 6 元语法" in ex.result.value  # L = 2 < n
    ex.text.value, ex.n.value = "the cat and the cat", 2
    assert "the cat ×2" in ex.result.value           # a repeated 2-gram: clipping's business
    assert "<td style='padding:2px 8px'>3</td><td style='padding:2px 8px'>3</td>" in \
        ex.result.value                                # n = 3: 5 - 3 + 1 = 3, all distinct


def test_clipping_explorer():
    ex = widgets.ClippingExplorer()
    assert "p_1 = 2/7" in ex.result.value  # Papineni et al.: modified unigram precision 2/7
    ex.n.value = 2
    assert "p_2 = 0/6" in ex.result.value  # six "the the", in neither reference
    ex.references.value = ""
    assert "bleu-message" in ex.result.value


def test_brevity_explorer():
    ex = widgets.BrevityExplorer(6, "7, 5")
    # one experiment: c = 6 against lengths 7 and 5; ties go to 5 (shorter) or 7 (first)
    assert "r = 5" in ex.result.value and "r = 7" in ex.result.value
    assert "exp(1 − 7/6)" in ex.result.value and f"{math.exp(1 - 7 / 6):.4f}" in ex.result.value
    ex.c.value = 8
    assert ex.result.value.count("1.0000") == 2  # longer than both: no penalty either way
    ex.c.value, ex.ref_lens.value = 5, "10"
    assert f"{math.exp(1 - 10 / 5):.4f}" == "0.3679" and "0.3679" in ex.result.value
    ex.ref_lens.value = "seven"
    assert "bleu-message" in ex.result.value
    assert not hasattr(ex, "r")  # no second, separate r slider


def test_geometric_mean_explorer():
    ex = widgets.GeometricMeanExplorer((1.0, 0.8, 0.5, 0.25), (0.25,) * 4)
    assert "0.5623" in ex.result.value  # (1 * 0.8 * 0.5 * 0.25) ** 0.25 = 0.1 ** 0.25
    assert "Σw = 1.0000" in ex.result.value
    ex.precisions[3].value = 0.0
    assert "(weighted geometric mean) = 0.0000" in ex.result.value
    ex.weights[3].value = 0.0  # a zero weight ignores the zero precision
    # exp(0.25 log 0.8 + 0.25 log 0.5) = 0.4 ** 0.25 = 0.7953, but Σw = 0.75: no mean
    assert f"{0.4 ** 0.25:.4f}" == "0.7953" and "= 0.7953" in ex.result.value
    assert "Σw = 0.7500" in ex.result.value and "不是平均" in ex.result.value
    ex.renormalise.value = True  # weights 1/3 each: (1 * 0.8 * 0.5) ** (1/3) = 0.7368
    assert f"{0.4 ** (1 / 3):.4f}" == "0.7368" and "= 0.7368" in ex.result.value
    assert "不是平均" not in ex.result.value
    for w in ex.weights:
        w.value = 0.0
    assert "bleu-message" in ex.result.value


def test_render_functions_never_raise_on_odd_input():
    assert "bleu-message" in widgets.render_bleu("x", [])
    assert "bleu-message" in widgets.render_bleu("", "a")
    assert "bleu-message" in widgets.render_clipping("", "a", 1)
    assert "bleu-message" in widgets.render_brevity_experiment(3, "")
    assert "bleu-message" in widgets.render_brevity_experiment(-1, "3")
    assert "bleu-message" in widgets.render_brevity_experiment(3, "3, x")
    assert "bleu-message" in widgets.render_geometric_mean([0.5], [0.5, 0.5])
    assert "bleu-message" in widgets.render_tokens("  ")


def test_corpus_explorer_equals_sacrebleu():
    ex = widgets.CorpusExplorer(TOY_CORPUS, "weak")
    streams = TOY_CORPUS.reference_streams("both")
    hyps = list(TOY_CORPUS.systems["weak"])
    want = sacrebleu.corpus_bleu(hyps, streams).score / 100
    assert f"corpus BLEU = {want:.4f}" in ex.result.value
    ex.segments[9].value = False  # drop the segment translated from the wrong sentence
    want = sacrebleu.corpus_bleu(hyps[:9], [s[:9] for s in streams]).score / 100
    assert f"corpus BLEU = {want:.4f}" in ex.result.value
    sentence = [sacrebleu.sentence_bleu(h, [s[i] for s in streams]).score / 100
                for i, h in enumerate(hyps[:9])]
    assert f"mean sentence BLEU = {sum(sentence) / 9:.4f}" in ex.result.value
    for box in ex.segments:
        box.value = False
    assert "bleu-message" in ex.result.value


CAND = "The cat is on the mat."
REFS = ["The cat is sitting on the mat.", "A cat is on the mat."]


def _tool_score(name: str) -> float:
    """Each preset's score from the tool itself, or from its stated rule by hand."""
    from bleu_lesson.core import seed

    if name == "sacrebleu":
        return sacrebleu.sentence_bleu(CAND, REFS).score / 100
    if name == "nltk":
        return nltk_bleu.sentence_bleu([r.split() for r in REFS], CAND.split())
    if name == "seed":
        return seed.compute_bleu(CAND, REFS)[0]
    if name == "hf":
        # 13a: 7 candidate tokens, shortest reference 7 (BP 1); p = 7/7, 6/6, 5/5, 3/4
        return (3 / 4) ** 0.25
    assert name in ("d2l", "d2l-en")
    # split(' '), first reference only, k = 2 with weights 1/2, 1/4 (both books; 6 tokens >= k,
    # so d2l-zh and d2l-en agree): p1 = 6/6, p2 = 4/5 ("is on" is not in the reference),
    # BP = exp(1 - 7/6)
    return math.exp(1 - 7 / 6) * (6 / 6) ** (1 / 2) * (4 / 5) ** (1 / 4)


def test_tools_explorer_names_the_tool_and_its_score():
    from bleu_lesson.analysis import variants

    for name in variants.VARIANTS:
        ex = widgets.ToolsExplorer(CAND, REFS, preset=name)
        assert widgets.matching_tools(ex.knob_values()) == [name]
        assert f"BLEU = {_tool_score(name):.4f}" in ex.result.value, name
    ex = widgets.ToolsExplorer(CAND, REFS, preset="sacrebleu")
    ex.knobs["smoothing"].value = "none"
    assert "no tool uses exactly this combination" in ex.result.value
    ex.knobs["reference length"].value = "shortest"
    ex.knobs["effective order"].value = False
    assert "hf" in ex.result.value  # 13a, shortest, no smoothing: evaluate's rules


def test_systems_explorer_ranks_like_sacrebleu():
    ex = widgets.SystemsExplorer(TOY_CORPUS)
    good = sacrebleu.corpus_bleu(list(TOY_CORPUS.systems["good"]),
                                 TOY_CORPUS.reference_streams("both"))
    assert f"{good.score:.2f}" in ex.result.value
    ex.which.value = "A"
    good_a = sacrebleu.corpus_bleu(list(TOY_CORPUS.systems["good"]),
                                   TOY_CORPUS.reference_streams("A"))
    assert f"{good_a.score:.2f}" in ex.result.value
    assert ex.result.value.index("good") < ex.result.value.index("weak")


def test_tools_explorer_preset_menu_sets_every_knob():
    ex = widgets.ToolsExplorer(CAND, REFS, preset="sacrebleu")
    for name in ("seed", "nltk", "d2l", "hf", "sacrebleu"):
        ex.preset.value = name
        assert widgets.matching_tools(ex.knob_values()) == [name]
        assert f"BLEU = {_tool_score(name):.4f}" in ex.result.value, name


def test_bleu_explorer_shows_the_candidate_tokens():
    ex = widgets.BleuExplorer("The cat is on the mat.", ["The cat sat."], tokenizer="13a")
    assert ">.</span>" in ex.result.value  # 13a splits the final period off
    ex.tokenizer.value = "none"
    assert ">mat.</span>" in ex.result.value


# --- defects a learner met (issue 22): each test failed before its fix --------------------

def test_brevity_explorer_shows_a_plain_greater_than_sign():
    ex = widgets.BrevityExplorer(6, "7, 5")
    # ties go to the shorter reference, 5: c = 6 > r = 5, shown as ">" (escaped once)
    assert "c = 6 &gt; r = 5" in ex.result.value
    assert "&amp;gt;" not in ex.result.value


@pytest.mark.parametrize("typed", ["7，5", "7、5", "7\u30005", " 7 ，5 "])
def test_brevity_explorer_takes_what_a_chinese_ime_types(typed):
    ex = widgets.BrevityExplorer(6, "7, 5")
    ex.ref_lens.value = typed
    assert "bleu-message" not in ex.result.value
    assert "[7, 5]" in ex.result.value and f"{math.exp(1 - 7 / 6):.4f}" in ex.result.value


def test_brevity_explorer_empty_lengths_get_their_own_message():
    ex = widgets.BrevityExplorer(6, "7, 5")
    ex.ref_lens.value = "  "
    assert "bleu-message" in ex.result.value
    assert "lengths" in ex.result.value and "at least one reference" not in ex.result.value


def test_bleu_explorer_weights_with_a_full_width_comma():
    ex = widgets.BleuExplorer(SEED_CANDIDATE, SEED_REFERENCES)
    ex.max_n.value = 2
    ex.weights.value = "0.5，0.5"
    assert "bleu-message" not in ex.result.value
    # sacrebleu has no weights; NLTK does: the seed example with weights (0.5, 0.5)
    refs = [r.lower().split() for r in SEED_REFERENCES]
    expected = nltk_bleu.sentence_bleu(refs, SEED_CANDIDATE.lower().split(), weights=(0.5, 0.5))
    assert f"BLEU = {expected:.4f}" in ex.result.value


def test_ngram_explorer_explains_unspaced_chinese():
    ex = widgets.NgramExplorer("猫坐在垫子上", 4)
    assert "L = 1 &lt; n = 4" in ex.result.value
    assert "bleu-hint" in ex.result.value and "空格" in ex.result.value
    ex.text.value = "猫 坐 在 垫子 上"
    assert "bleu-hint" not in ex.result.value  # five tokens: 5 - 4 + 1 = 2 four-grams
    assert "5 − 4 + 1 = 2" in ex.result.value


def test_clipping_explorer_explains_unspaced_chinese():
    """Chapter 03: an unspaced Chinese candidate is one whitespace token, so p_1 is 0/1
    (by hand: the whole sentence matches no reference token); the hint names the zh
    tokenizer, and goes away once the words are spaced."""
    ex = widgets.ClippingExplorer("猫坐在垫子上", ("猫 在 垫子 上",), 1)
    assert "p_1 = 0/1" in ex.result.value
    assert "bleu-hint" in ex.result.value and "空格" in ex.result.value
    assert "zh" in ex.result.value
    ex.candidate.value = "猫 坐 在 垫子 上"
    assert "p_1 = 4/5" in ex.result.value   # 猫, 在, 垫子, 上 found; 坐 not
    assert "bleu-hint" not in ex.result.value
    ex.candidate.value, ex.references.value = "the cat", "the cat sat"
    assert "bleu-hint" not in ex.result.value


def test_bleu_explorer_explains_unspaced_chinese():
    """Chapter 06: with the whitespace tokenizer an unspaced Chinese pair is one token each;
    the hint says to choose the zh tokenizer, which then counts characters (no hint)."""
    ex = widgets.BleuExplorer("猫坐在垫子上", ["猫坐在垫子上了"])
    assert "bleu-hint" in ex.result.value and "zh" in ex.result.value
    ex.tokenizer.value = "zh"
    assert "bleu-hint" not in ex.result.value
    assert "c = 6" in ex.result.value   # six characters, six tokens
    ex.tokenizer.value = "none"
    ex.candidate.value, ex.references.value = "猫 坐 在 垫子 上", "猫 坐 在 垫子 上 了"
    assert "bleu-hint" not in ex.result.value


def test_tools_explorer_preset_follows_the_knobs():
    ex = widgets.ToolsExplorer(CAND, REFS, preset="sacrebleu")
    ex.knobs["smoothing"].value = "none"
    assert ex.preset.value == widgets.CUSTOM_PRESET  # no tool: the menu says so
    ex.knobs["reference length"].value = "shortest"
    ex.knobs["effective order"].value = False
    assert ex.preset.value == "hf"  # 13a, shortest, no smoothing: evaluate's rules
    ex.preset.value = "seed"  # and choosing a preset still sets every knob
    assert widgets.matching_tools(ex.knob_values()) == ["seed"]
    assert f"BLEU = {_tool_score('seed'):.4f}" in ex.result.value


def test_tools_explorer_scores_chinese_with_the_zh_tokenizer():
    hyp, ref = "猫坐在垫子上。", "猫在垫子上坐着。"
    ex = widgets.ToolsExplorer(hyp, [ref], preset="sacrebleu")
    label = next(k for k, v in widgets.EXPLORER_KNOBS["tokenizer"].items() if v == "zh")
    ex.knobs["tokenizer"].value = label
    expected = sacrebleu.sentence_bleu(hyp, [ref], tokenize="zh").score / 100
    assert expected > 0
    assert f"BLEU = {expected:.4f}" in ex.result.value
    assert "sacrebleu --tokenize zh" in ex.result.value


@pytest.mark.parametrize("make", ["systems", "agreement"])
def test_slow_explorers_show_a_busy_notice_before_the_new_result(make):
    if make == "systems":
        ex = widgets.SystemsExplorer(TOY_CORPUS)
        control, value = ex.tokenizer, "char"
    else:
        tables = {("BLEU", r): {"a": 30.0, "b": 25.0, "c": 20.0} for r in ("A", "B")}
        ex = widgets.AgreementExplorer(tables, {"a": 0.1, "b": 0.0, "c": -0.2})
        control, value = ex.refset, "B"
    seen: list[str] = []
    ex.result.observe(lambda change: seen.append(change["new"]), names="value")
    control.value = value
    assert len(seen) == 2, seen
    assert "bleu-busy" in seen[0] and "bleu-busy" not in seen[1]


def test_tools_explorer_explains_unspaced_chinese():
    """A learner's find: chapter 08's explorer gave BLEU 0.0000 on unspaced Chinese under 13a
    with no hint, unlike chapters 02, 03 and 06. Under zh the hint goes away and the score is
    sacrebleu's (zh tokenizer, the same knobs)."""
    from bleu_lesson.analysis.variants import VARIANTS
    from bleu_lesson.teaching.widgets import knobs_of, render_tools

    knobs = knobs_of(VARIANTS["sacrebleu"])
    out = render_tools("猫坐在垫子上", ["一只猫坐在垫子上"], knobs)
    assert "bleu-hint" in out and "zh" in out and "BLEU = 0.0000" in out
    zh = render_tools("猫坐在垫子上", ["一只猫坐在垫子上"], {**knobs, "tokenizer": "zh"})
    assert "bleu-hint" not in zh
    sacrebleu = pytest.importorskip("sacrebleu")
    expected = sacrebleu.sentence_bleu("猫坐在垫子上", ["一只猫坐在垫子上"], tokenize="zh").score
    assert f"BLEU = {expected / 100:.4f}" in zh


def test_tools_explorer_names_a_tool_only_where_its_own_code_gives_the_score():
    """A learner's find: with d2l's knobs and a one-token candidate the explorer said "这正是
    d2l 的规则" beside BLEU 0, where chapter 08 (section 4.3) shows d2l's own code raising
    ZeroDivisionError (its loop divides by len_pred - n + 1 = 0 at k = 2)."""
    knobs = widgets.knobs_of(widgets.VARIANTS["d2l"])
    short = widgets.render_tools("Thanks", ["Thanks everyone"], knobs)
    assert "这正是 (exactly) d2l" not in short and "d2l: ZeroDivisionError" in short
    with pytest.raises(ZeroDivisionError):  # d2l-zh's bleu(..., k=2), as the chapter prints
        d2l_bleu_k2("Thanks", "Thanks everyone")
    long = widgets.render_tools("The cat is on the mat.", ["The cat is sitting on the mat."],
                                knobs)
    assert "这正是 (exactly) d2l" in long


def d2l_bleu_k2(pred_seq, label_seq, k=2):
    """d2l-zh's bleu (chapter 9.7), as published: the independent source."""
    pred_tokens, label_tokens = pred_seq.split(' '), label_seq.split(' ')
    len_pred, len_label = len(pred_tokens), len(label_tokens)
    score = math.exp(min(0, 1 - len_label / len_pred))
    for n in range(1, k + 1):
        num_matches, label_subs = 0, {}
        for i in range(len_label - n + 1):
            key = ' '.join(label_tokens[i: i + n])
            label_subs[key] = label_subs.get(key, 0) + 1
        for i in range(len_pred - n + 1):
            key = ' '.join(pred_tokens[i: i + n])
            if label_subs.get(key, 0) > 0:
                num_matches += 1
                label_subs[key] -= 1
        score *= math.pow(num_matches / (len_pred - n + 1), math.pow(0.5, n))
    return score

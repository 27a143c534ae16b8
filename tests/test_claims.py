"""Claims chapters 00-05 and docs/smoothing.md make about NLTK, sacrebleu, the seed text and
the WMT22 data, each computed with the tool itself (issue 21, items 1 and 2).

Each test computes the fact with an independent source (NLTK, sacrebleu, the seed's code as
the chapter quotes it) and checks that the text says it, and no longer says the false version
it replaced.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"


def _markdown(name: str) -> str:
    cells = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def _flat(text: str) -> str:
    """Text with line breaks and runs of spaces folded, so a wrapped sentence still matches."""
    return re.sub(r"\s+", " ", text)


# --- NLTK method1/method3 versus sacrebleu floor/exp ---------------------------------------

SHORT, REF = "the cat sat", "the cat sat on the mat"


def _nltk(method: str, hyp: str, ref: str) -> float:
    bleu_score = pytest.importorskip("nltk.translate.bleu_score")
    return bleu_score.sentence_bleu([ref.split()], hyp.split(),
                                    smoothing_function=getattr(bleu_score.SmoothingFunction(),
                                                               method))


def _sacre(method: str, hyp: str, ref: str) -> float:
    sacrebleu = pytest.importorskip("sacrebleu")
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    return sacrebleu.sentence_bleu(hyp, [ref], tokenize="none", smooth_method=method,
                                   use_effective_order=False).score / 100


@pytest.mark.parametrize(("nltk_method", "sacre_method", "nltk_value"),
                         [("method1", "floor", "0.2069"), ("method3", "exp", "0.3093")])
def test_nltk_and_sacrebleu_smoothing_differ_below_four_tokens(nltk_method, sacre_method,
                                                                nltk_value):
    short_nltk, short_sacre = _nltk(nltk_method, SHORT, REF), _sacre(sacre_method, SHORT, REF)
    assert (f"{short_nltk:.4f}", short_sacre) == (nltk_value, 0.0)
    # with n-grams of every order (the seed's 6-token candidate) the two agree
    hyp, ref = "the cat is on the mat", "the cat is sitting on the mat"
    assert _nltk(nltk_method, hyp, ref) == pytest.approx(_sacre(sacre_method, hyp, ref), abs=1e-12)
    # the library's NLTK methods reproduce NLTK on the short candidate too
    from bleu_lesson import sentence_bleu

    ours = sentence_bleu(SHORT, [REF], tokenizer="none", smoothing=nltk_method,
                         effective_order=False).score
    assert ours == pytest.approx(short_nltk, abs=1e-12)
    # and the chapter and the smoothing page say so
    for text in (_flat(_markdown("05_geometric_mean.ipynb")),
                 _flat((ROOT / "docs" / "smoothing.md").read_text(encoding="utf-8"))):
        assert nltk_value in text and "the cat sat" in text
    ch05 = _markdown("05_geometric_mean.ipynb")
    assert "$\\varepsilon = 0.1$，与 sacrebleu 的 `floor` 相同" not in ch05
    assert "- `method3`：与 `exp` 相同；" not in ch05
    assert "method1（= floor）" not in ch05 and "method3（= exp）" not in ch05


# --- chapter 01: what sacrebleu's zh tokenizer counts as Chinese --------------------------

def test_zh_splits_full_width_letters_because_its_ranges_include_ff00_ffef():
    zh_mod = pytest.importorskip("sacrebleu.tokenizers.tokenizer_zh")
    assert ("\uff00", "\uffef") in zh_mod._UCODE_RANGES
    assert zh_mod.TokenizerZh()("ＢＬＥＵ") == "Ｂ Ｌ Ｅ Ｕ"
    assert zh_mod.TokenizerZh()("BLEU") == "BLEU"
    prose = _markdown("01_tokenization.ipynb")
    assert "U+FF00–U+FFEF" in prose
    assert "不在 ASCII 范围内" not in prose


@pytest.mark.wmt22
def test_zh_is_not_13a_on_english_text(wmt22_dir):
    """Chapter 01 says how many lines of WMT22 zh-en English (reference A and
    JDExploreAcademy's output) the two tokenizers split differently."""
    pytest.importorskip("sacrebleu")
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    def lines(name: str) -> list[str]:
        path = Path(wmt22_dir) / f"generaltest2022.zh-en.{name}"
        return path.read_text(encoding="utf-8").split("\n")[:-1]

    english = lines("ref.A.en") + lines("hyp.JDExploreAcademy.en")
    zh, t13a = TokenizerZh(), Tokenizer13a()
    differ = sum(zh(x) != t13a(x) for x in english)
    assert (len(english), differ) == (3750, 512)
    prose = _markdown("01_tokenization.ipynb")
    assert f"共 {len(english):,} 行英文），有 {differ} 行两种分词器切得不同" in prose
    assert "非中文的连续片段则像 13a 那样处理" not in prose

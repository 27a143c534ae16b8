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


def test_zh_is_not_13a_on_english_text_for_the_reasons_chapter_01_gives():
    """No 13a preprocessing (``&quot;`` stays), and curly quotes and dashes count as Chinese."""
    pytest.importorskip("sacrebleu")
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    zh, t13a = TokenizerZh(), Tokenizer13a()
    assert t13a("said &quot;hi&quot;") == 'said " hi "'
    assert zh("said &quot;hi&quot;") == "said & quot ; hi & quot ;"
    assert (zh("won\u2019t \u2014 yes"), t13a("won\u2019t \u2014 yes")) == \
        ("won \u2019 t \u2014 yes", "won\u2019t \u2014 yes")
    prose = _markdown("01_tokenization.ipynb")
    assert "`&quot;`" in prose and "弯引号 ’" in prose and "破折号 —" in prose


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


# --- chapter 00: the seed's worked example, quoted in full, and its true values -----------

def _fences(text: str, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", text, re.S)


def test_chapter_00_quotes_the_seed_code_whose_true_output_is_0_and_0_9036():
    """Run the code chapter 00 quotes (the seed's bleu_score.py, examples included): it prints
    0.0000 with one reference and 0.9036 with three, as sacrebleu computes with the seed's
    settings; the chapter states those values and quotes the text's printed ones."""
    import contextlib
    import io

    prose = _markdown("00_introduction.ipynb")
    quoted = _fences(prose, "python")
    assert len(quoted) == 1, "chapter 00 quotes the seed's code once, in a python block"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(quoted[0], "bleu_score.py", "exec"), {"__name__": "__main__"})
    printed = out.getvalue()
    assert "单参考BLEU: 0.0000" in printed and "多参考BLEU: 0.9036" in printed

    sacrebleu = pytest.importorskip("sacrebleu")
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    cand = "The cat is on the mat"
    one = ["The cat is sitting on the mat"]
    three = one + ["A cat is on the mat", "The cat lies on the mat"]
    scores = [sacrebleu.sentence_bleu(cand, refs, tokenize="none", lowercase=True,
                                      smooth_method="none", use_effective_order=False).score
              for refs in (one, three)]
    assert [f"{s / 100:.4f}" for s in scores] == ["0.0000", "0.9036"]
    assert "单参考时输出 0.0000，三条参考时输出 0.9036" in prose
    # what the seed text printed, quoted as printed
    shown = _fences(prose, "text")
    assert any("单参考BLEU: 0.6065" in s and "多参考BLEU: 0.7711" in s for s in shown)


def test_chapter_00_quotes_the_seed_text_verbatim():
    """With the seed text beside the repository: the quoted code and printed output are the
    text's own, character for character."""
    from notebook_tools import seed_skip_reason
    from seed_oracle import SeedNotFound, extract_seed_code, find_seed_file

    try:
        text = find_seed_file().read_text(encoding="utf-8")
    except SeedNotFound as exc:
        pytest.skip(seed_skip_reason(exc))
    prose = _markdown("00_introduction.ipynb")
    assert _fences(prose, "python")[0].strip("\n") == extract_seed_code(text).strip("\n")
    printed = text[text.index("单参考BLEU: 0.6065"):text.index("判定标准")].strip("\n")
    assert printed in [s.strip("\n") for s in _fences(prose, "text")]


def test_later_chapters_refer_back_to_chapter_00_in_one_line_at_most():
    """The seed text's printed values are discussed in chapter 00 only."""
    for name in ("03_clipped_counts.ipynb", "04_brevity_penalty.ipynb",
                 "05_geometric_mean.ipynb"):
        lines = [line for line in _markdown(name).splitlines()
                 if "原文" in line and "Papineni" not in line]
        assert len(lines) <= 1, (name, lines)
        assert "### " not in "".join(lines), f"{name}: a section about the seed text's errors"

"""The ``jieba`` word segmenter as a tokenizer: jieba's own segmentation, loaded lazily,
silent on stderr, with the signature ``tok:jieba``."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bleu_lesson import corpus_bleu
from bleu_lesson.tokenizers import SEGMENTERS, TOKENIZERS, get_tokenizer, tokenize

jieba = pytest.importorskip("jieba")

SENTENCES = ["猫坐在垫子上。", "我在2022年读了BLEU论文。", "机器翻译的质量在过去十年里提高了很多。",
             "  前后有空格  ", "ＢＬＥＵ在２０２２年提出，", ""]


@pytest.mark.parametrize("text", SENTENCES)
def test_tokens_are_jiebas_own(text):
    want = [w for w in jieba.lcut(text.rstrip()) if w.strip()]
    assert tokenize(text, "jieba") == want


def test_a_known_segmentation():
    # jieba 0.42 with its shipped dictionary
    assert tokenize("猫坐在垫子上。", "jieba") == ["猫", "坐在", "垫子", "上", "。"]


def test_names_and_signature():
    assert "jieba" in SEGMENTERS and "jieba" not in TOKENIZERS
    assert get_tokenizer("jieba").name == "jieba"
    result = corpus_bleu(["猫坐在垫子上。"], [["猫坐在垫子上。"]], tokenizer="jieba")
    assert "tok:jieba" in result.signature
    assert result.hyp_len == 5 and result.score == pytest.approx(1.0)
    with pytest.raises(ValueError, match="'jieba'"):
        get_tokenizer("jeiba")


def test_lazy_and_silent():
    code = ("import sys, bleu_lesson\n"
            "assert 'jieba' not in sys.modules, 'import bleu_lesson imported jieba'\n"
            "from bleu_lesson.tokenizers import tokenize\n"
            "print(tokenize('猫坐在垫子上。', 'jieba'))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['猫', '坐在', '垫子', '上', '。']"
    assert done.stderr == "", f"jieba wrote to stderr: {done.stderr!r}"

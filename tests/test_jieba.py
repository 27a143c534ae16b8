"""The ``jieba`` word segmenter as a tokenizer: jieba's own segmentation, loaded lazily,
silent on stderr, with the signature ``tok:jieba``."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import fast

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


# --- the cached runs give jieba's own words ---------------------------------------------------
# The tokenizer segments each run of jieba's ``re_han_default`` on its own and remembers it;
# the oracle is a separate ``jieba.Tokenizer`` cutting the whole line, no cache involved.

@pytest.fixture(scope="module")
def jieba_oracle():
    import logging

    jieba.setLogLevel(logging.WARNING)
    segmenter = jieba.Tokenizer()
    segmenter.initialize()
    return lambda text: " ".join(segmenter.lcut(text.rstrip())).split()


RUN_CHARACTERS = st.sampled_from(
    list("猫坐在垫子上的一只我们机器翻译质量提高了很多北京大学生活动中心")
    + list("abcXYZ0129+#&._%-") + list("，。！？、“”《》（）：；…—")
    + ["ＢＬＥＵ", "２０２２", " ", "  ", "\t", "\n", "\r\n", "\u3000", "\xa0", "é", "'", "/"])


@fast(200)
@given(st.lists(RUN_CHARACTERS, max_size=40).map("".join))
def test_generated_text_is_cut_like_jieba(jieba_oracle, text):
    assert tokenize(text, "jieba") == jieba_oracle(text)


@pytest.mark.wmt22
def test_every_wmt22_chinese_line_is_cut_like_jieba(wmt22_dir, jieba_oracle):
    from bleu_lesson.datasets import load_wmt22

    en_zh = load_wmt22("en-zh", wmt22_dir, download=False)
    zh_en = load_wmt22("zh-en", wmt22_dir, download=False)
    lines = {*zh_en.source, *(line for refs in en_zh.references.values() for line in refs),
             *(line for hyps in en_zh.systems.values() for line in hyps)}
    assert len(lines) > 20_000
    split = get_tokenizer("jieba")
    differ = [line for line in sorted(lines) if split(line) != jieba_oracle(line)]
    assert not differ, f"{len(differ)} lines cut unlike jieba, e.g. {differ[:3]}"


def test_another_jieba_version_is_cut_by_jieba_itself(monkeypatch, jieba_oracle):
    # _cut_run repeats jieba 0.42's steps; with any other version the runs go to jieba's lcut
    from bleu_lesson import tokenizers

    def not_called(*args):
        raise AssertionError("_cut_run used with an unfollowed jieba version")

    monkeypatch.setattr(jieba, "__version__", "0.43", raising=False)
    monkeypatch.setattr(tokenizers, "_cut_run", not_called)
    split = tokenizers._jieba_split()
    for text in SENTENCES:
        assert split(text) == jieba_oracle(text)

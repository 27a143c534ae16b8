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
from bleu_lesson.core.tokenizers import SEGMENTERS, TOKENIZERS, get_tokenizer, tokenize

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
            "from bleu_lesson.core.tokenizers import tokenize\n"
            "print(tokenize('猫坐在垫子上。', 'jieba'))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['猫', '坐在', '垫子', '上', '。']"
    assert done.stderr == "", f"jieba wrote to stderr: {done.stderr!r}"


def _fresh_python(code: str) -> str:
    """What ``code`` prints in a new interpreter (imports there are first imports)."""
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", code], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_jieba_is_imported_without_pkg_resources():
    # jieba's import of pkg_resources is hidden (tokenizers._import_jieba); its package files
    # are then opened with open(): the bytes pkg_resources itself gives, and the import of
    # pkg_resources works as before once jieba is in
    pytest.importorskip("pkg_resources")
    code = ("import sys\n"
            "from bleu_lesson.core.tokenizers import tokenize\n"
            "print(tokenize('猫坐在垫子上。', 'jieba'))\n"
            "print('pkg_resources' in sys.modules)\n"
            "import jieba, pkg_resources\n"
            "ours = jieba.get_module_res('dict.txt').read()\n"
            "theirs = pkg_resources.resource_stream('jieba._compat', 'dict.txt').read()\n"
            "print(ours == theirs, len(ours) > 1_000_000)\n")
    assert _fresh_python(code).split("\n") == ["['猫', '坐在', '垫子', '上', '。']", "False",
                                                "True True", ""]


def test_an_imported_pkg_resources_is_left_alone():
    pytest.importorskip("pkg_resources")
    code = ("import sys, pkg_resources\n"
            "from bleu_lesson.core.tokenizers import tokenize\n"
            "tokenize('猫坐在垫子上。', 'jieba')\n"
            "print(sys.modules['pkg_resources'] is pkg_resources)\n")
    assert _fresh_python(code) == "True\n"


def _with_stand_in(folder, files: dict[str, str], line: str) -> str:
    """What ``line`` prints in a new interpreter where ``import jieba`` finds a stand-in
    package made of ``files`` (in ``folder``) and ``_import_jieba`` is imported."""
    (folder / "jieba").mkdir()
    for name, text in files.items():
        (folder / "jieba" / name).write_text(text)
    return _fresh_python(f"import sys\nsys.path.insert(0, {str(folder)!r})\n"
                         f"from bleu_lesson.core.tokenizers import _import_jieba\n{line}\n")


def test_a_jieba_that_needs_pkg_resources_still_imports(tmp_path):
    # a stand-in package named jieba whose import fails without pkg_resources
    pytest.importorskip("pkg_resources")
    printed = _with_stand_in(tmp_path, {"__init__.py": "import pkg_resources\nSTAND_IN = 1\n"},
                             "print(_import_jieba().STAND_IN, "
                             "sys.modules['pkg_resources'] is not None)")
    assert printed == "1 True\n"


def test_the_retry_imports_again_what_the_first_try_imported(tmp_path):
    # a stand-in whose submodule guards its pkg_resources import (so it loads without it)
    # and whose __init__ then needs pkg_resources: the retry must run the submodule again
    pytest.importorskip("pkg_resources")
    printed = _with_stand_in(tmp_path, {
        "_compat.py": "try:\n    import pkg_resources\n    SAW = True\n"
                      "except ImportError:\n    SAW = False\n",
        "__init__.py": "from . import _compat\nimport pkg_resources\n",
    }, "print(_import_jieba()._compat.SAW)")
    assert printed == "True\n"


# --- the cached runs give jieba's own words ---------------------------------------------------
# The tokenizer segments each run of jieba's ``re_han_default`` on its own and remembers it;
# the oracle is a separate ``jieba.Tokenizer`` cutting the whole line, no cache involved.

@pytest.fixture(scope="module")
def jieba_segmenter():
    import logging

    jieba.setLogLevel(logging.WARNING)
    segmenter = jieba.Tokenizer()
    segmenter.initialize()  # jieba's own load of its dictionary
    return segmenter


@pytest.fixture(scope="module")
def jieba_oracle(jieba_segmenter):
    return lambda text: " ".join(jieba_segmenter.lcut(text.rstrip())).split()


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
    from bleu_lesson.data.datasets import load_wmt22

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
    from bleu_lesson.core import tokenizers

    def not_called(*args):
        raise AssertionError("_cut_run used with an unfollowed jieba version")

    monkeypatch.setattr(jieba, "__version__", "0.43", raising=False)
    monkeypatch.setattr(tokenizers, "_cut_run", not_called)
    monkeypatch.setattr(tokenizers, "_load_dictionary", not_called)
    split = tokenizers._jieba_split()
    for text in SENTENCES:
        assert split(text) == jieba_oracle(text)


# --- the HMM's words, remembered per buffer ---------------------------------------------------
# The route leaves buffers of single characters to jieba's HMM (finalseg.cut); the tokenizer
# asks it once per buffer. These runs share buffers in different company (from WMT22 en-zh):
# "不多了" (the HMM joins "不多"), "奥密克戎" (the HMM finds the word), "在您的" (three single
# characters), "请让我"; "不多了", "在您的" and "请让我" have the same length.
SHARED_BUFFERS = ["时间不多了", "留给我们的时间不多了，", "隐形奥密克戎", "奥密克戎",
                  "隐匿奥密克戎。", "在您的账户中", "在您的电脑上", "请让我知道", "请让我验证您的"]


def test_buffers_shared_by_runs_go_to_the_hmm_once(monkeypatch, jieba_oracle):
    from jieba import finalseg

    from bleu_lesson.core import tokenizers

    asked: list[str] = []
    hmm = finalseg.cut

    def counted(buf):
        asked.append(buf)
        return hmm(buf)

    monkeypatch.setattr(finalseg, "cut", counted)
    split = tokenizers._jieba_split()
    ours = [split(text) for text in SHARED_BUFFERS]
    monkeypatch.undo()  # the oracle, jieba itself, asks the HMM every time
    assert ours == [jieba_oracle(text) for text in SHARED_BUFFERS]
    assert {"不多了", "奥密克戎", "在您的", "请让我"} <= set(asked)
    assert len(asked) == len(set(asked)), f"a buffer went to the HMM twice: {sorted(asked)}"


def test_a_wrong_hmm_memory_is_caught(monkeypatch, jieba_oracle):
    # plant a bug: remember the HMM's words by the buffer's length, not the buffer
    from bleu_lesson.core import tokenizers

    def by_length(hmm):
        remembered: dict[int, tuple[str, ...]] = {}
        return lambda buf: remembered.setdefault(len(buf), tuple(hmm(buf)))

    monkeypatch.setattr(tokenizers, "_remember_hmm", by_length)
    split = tokenizers._jieba_split()
    assert [split(t) for t in SHARED_BUFFERS] != [jieba_oracle(t) for t in SHARED_BUFFERS]


# --- the dictionary, read from jieba's cache file --------------------------------------------

def not_built(self):
    raise AssertionError("jieba's initialize() ran: the cache file was not read")


def test_the_dictionary_is_the_one_jieba_loads(monkeypatch, jieba_segmenter):
    import os
    import tempfile

    from bleu_lesson.core.tokenizers import _load_dictionary

    if not os.path.isfile(os.path.join(tempfile.gettempdir(), "jieba.cache")):
        pytest.skip("jieba could not write its cache file in the temp folder")
    ours = jieba.Tokenizer()
    monkeypatch.setattr(jieba.Tokenizer, "initialize", not_built)
    _load_dictionary(ours)
    assert ours.initialized and ours.total == jieba_segmenter.total
    assert ours.FREQ == jieba_segmenter.FREQ


def test_the_cache_file_read_is_jiebas(monkeypatch, tmp_path):
    # a cache file of our own making in a temp folder of our own: jieba's initialize() and
    # _load_dictionary must both read it, and give the same dictionary
    import marshal
    import tempfile

    from bleu_lesson.core.tokenizers import _load_dictionary

    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path))
    planted = ({"猫": 3, "垫子": 2, "垫": 0}, 5)
    (tmp_path / "jieba.cache").write_bytes(marshal.dumps(planted))
    theirs, ours = jieba.Tokenizer(), jieba.Tokenizer()
    theirs.initialize()
    monkeypatch.setattr(jieba.Tokenizer, "initialize", not_built)
    _load_dictionary(ours)
    assert (ours.FREQ, ours.total) == (theirs.FREQ, theirs.total) == planted
    assert ours.initialized
    assert [p.name for p in tmp_path.iterdir()] == ["jieba.cache"]  # nothing written


@pytest.mark.parametrize("case", ["missing", "garbage", "wrong shape", "own dictionary"])
def test_without_a_readable_cache_file_jieba_builds_the_dictionary(monkeypatch, tmp_path, case):
    import marshal
    import tempfile

    from bleu_lesson.core.tokenizers import _load_dictionary

    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path))
    good = marshal.dumps(({"猫": 3}, 3))
    content = {"missing": None, "garbage": good[:-3], "wrong shape": marshal.dumps([1, 2, 3]),
               "own dictionary": good}[case]
    if content is not None:
        (tmp_path / "jieba.cache").write_bytes(content)
    built = []
    monkeypatch.setattr(jieba.Tokenizer, "initialize", lambda self: built.append(self))
    segmenter = jieba.Tokenizer(str(tmp_path / "dict.txt") if case == "own dictionary" else None)
    _load_dictionary(segmenter)
    assert built == [segmenter]  # jieba's own initialize() ran, once

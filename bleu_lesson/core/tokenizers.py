"""Tokenizers: how a sentence becomes the list of tokens BLEU counts.

BLEU is only comparable when everyone splits text the same way, so the standard
tokenizers here are sacrebleu's own: ``intl`` and ``char`` wrapped, not re-implemented;
``13a`` (the default) and ``zh`` are ``tok13a.tokenize_13a`` and ``tokzh.tokenize_zh``,
sacrebleu's rules rewritten for speed and tested token for token against sacrebleu on
every WMT22 line (``tests/test_tok13a.py``).
``none`` is a plain whitespace split and needs nothing else.

A tokenizer is anything that maps ``str -> list[str]``. The pipeline applied to every
candidate and reference is the one sacrebleu uses: optional lowercasing, strip trailing
whitespace, tokenize, then split on whitespace.

>>> tokenize("The cat sat on the mat.", "13a")
['The', 'cat', 'sat', 'on', 'the', 'mat', '.']
>>> tokenize("The cat sat on the mat.", "none", lowercase=True)
['the', 'cat', 'sat', 'on', 'the', 'mat.']
>>> tokenize("猫坐在垫子上", "char")
['猫', '坐', '在', '垫', '子', '上']

``jieba`` is different in kind: not one of sacrebleu's tokenizers but a Chinese word
segmenter (the ``jieba`` package, its own dictionary, loaded on first use), so it is
listed in ``SEGMENTERS``, not ``TOKENIZERS``; its signature is ``tok:jieba``.

>>> tokenize("猫坐在垫子上。", "jieba")
['猫', '坐在', '垫子', '上', '。']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache, lru_cache
from math import log
from typing import Any

from .tok13a import tokenize_13a

__all__ = ["SEGMENTERS", "TOKENIZERS", "Tokenizer", "get_tokenizer", "tokenize"]

#: The names accepted by ``tokenizer=`` everywhere in the library.
TOKENIZERS: tuple[str, ...] = ("none", "13a", "intl", "zh", "char")
#: Word segmenters for Chinese, accepted by ``tokenizer=`` too (not sacrebleu tokenizers).
SEGMENTERS: tuple[str, ...] = ("jieba",)

# name -> (sacrebleu module, class); imported only when first used, because importing
# sacrebleu costs a few hundred milliseconds and ``import bleu_lesson`` must stay light.
_SACREBLEU_TOKENIZERS = {
    "intl": ("tokenizer_intl", "TokenizerV14International"),
    "char": ("tokenizer_char", "TokenizerChar"),
}


class Tokenizer:
    """A named ``str -> list[str]`` function with the signature sacrebleu would print.

    ``lowercase`` is applied before tokenizing, exactly as sacrebleu does.
    """

    __slots__ = ("name", "lowercase", "_split")

    def __init__(self, name: str, split: Callable[[str], list[str]], lowercase: bool = False):
        self.name = name
        self.lowercase = lowercase
        self._split = split

    def __call__(self, text: str) -> list[str]:
        if not isinstance(text, str):
            raise TypeError(f"text to tokenize must be a str, got {type(text).__name__}")
        if self.lowercase:
            text = text.lower()
        return self._split(text)

    def __repr__(self) -> str:
        return f"Tokenizer({self.name!r}, lowercase={self.lowercase})"


def _whitespace(text: str) -> list[str]:
    return text.split()


# Like sacrebleu, every tokenizer but "none" remembers the last 2**16 lines it tokenized:
# a test set's systems are scored against several reference sets, by widgets and again by
# resampling. The cache holds tuples (of the split tokens, so no string is split twice),
# and every call gets its own list.
_LINES_CACHED = 1 << 16


@lru_cache(maxsize=_LINES_CACHED)
def _tokens_13a(text: str) -> tuple[str, ...]:
    # sacrebleu's 13a, token for token (tests/test_tok13a.py); the same rstrip as sacrebleu
    return tuple(tokenize_13a(text.rstrip()))


def _split_13a(text: str) -> list[str]:
    return list(_tokens_13a(text))


def _zh_split() -> Callable[[str], list[str]]:
    from .tokzh import tokenize_zh  # its table is built on import: only when zh is used

    @lru_cache(maxsize=_LINES_CACHED)
    def tokens(text: str) -> tuple[str, ...]:
        return tuple(tokenize_zh(text.rstrip()))

    def split(text: str) -> list[str]:
        return list(tokens(text))

    return split


def _sacrebleu_split(name: str) -> Callable[[str], list[str]]:
    from importlib import import_module

    module_name, class_name = _SACREBLEU_TOKENIZERS[name]
    module = import_module(f"sacrebleu.tokenizers.{module_name}")
    sacre = getattr(module, class_name)()

    @lru_cache(maxsize=_LINES_CACHED)
    def tokens(text: str) -> tuple[str, ...]:
        return tuple(sacre(text.rstrip()).split())

    def split(text: str) -> list[str]:
        return list(tokens(text))

    return split


#: jieba versions whose segmentation ``_cut_run`` repeats step for step (tests/test_jieba.py)
_JIEBA_FOLLOWED = ("0.42", "0.42.1")


def _jieba_split() -> Callable[[str], list[str]]:
    """jieba's default segmentation (dictionary + HMM), then sacrebleu's whitespace split.

    jieba is imported here, on first use (``_import_jieba``); its start-up log (stderr) is
    silenced, and its dictionary comes from the cache file jieba keeps in the temp folder
    (built on the very first use only; ``_load_dictionary``).

    jieba's ``cut`` first splits a line with its pattern ``re_han_default`` into runs of
    "Chinese" characters (which it segments) and the rest (which it yields character by
    character), and segments each run on its own, so cutting the runs one by one gives the
    same words as cutting the line. The same clause recurs across systems and references far
    more often than a whole line does, so each run is segmented once and remembered, and so
    is each line, as for 13a. A run is cut by ``_cut_run`` (jieba's own steps with jieba's
    dictionary and HMM, in one pass; each word's score computed once, and the HMM asked
    once per buffer, ``_remember_hmm``); the rest by jieba's ``lcut``. Like every cache
    here, these assume jieba is not changed after first use (``jieba.del_word`` changes its
    HMM's forced splits for the whole process). ``tests/test_jieba.py`` compares the words
    with jieba's own ``lcut`` on every Chinese line of WMT22 and on generated text.
    """
    import logging

    jieba = _import_jieba()
    from jieba import finalseg

    jieba.setLogLevel(logging.WARNING)
    segmenter = jieba.Tokenizer()
    # _cut_run follows jieba 0.42's steps; any other version cuts with jieba's own lcut
    own_cut = getattr(jieba, "__version__", None) in _JIEBA_FOLLOWED
    if own_cut:
        _load_dictionary(segmenter)
    else:
        segmenter.initialize()
    runs = jieba.re_han_default  # the pattern jieba.Tokenizer.cut splits a line with
    freq, log_total = segmenter.FREQ, log(segmenter.total)
    # log(freq) - log_total of each dictionary word met so far (None: a prefix, not a word)
    word_scores: dict[str, float | None] = {}
    hmm = _remember_hmm(finalseg.cut)

    @lru_cache(maxsize=_LINES_CACHED)
    def segment(piece: str) -> tuple[str, ...]:
        if own_cut and runs.match(piece):  # jieba's own test: a run of Chinese characters
            return tuple(_cut_run(piece, freq, log_total, hmm, word_scores))
        return tuple(segmenter.lcut(piece))

    @lru_cache(maxsize=_LINES_CACHED)
    def tokens(text: str) -> tuple[str, ...]:
        words = [word for piece in runs.split(text.rstrip()) if piece for word in segment(piece)]
        return tuple(" ".join(words).split())

    def split(text: str) -> list[str]:
        return list(tokens(text))

    return split


def _import_jieba() -> Any:
    """``import jieba``, without the ``pkg_resources`` it would import for nothing.

    jieba 0.42 tries ``import pkg_resources`` (about 80 ms, and a deprecation warning with a
    recent setuptools) only to open its own package files (``dict.txt``, read when its cache
    file is missing), and opens them with ``open()`` when that import fails: the same files,
    the same bytes. So, when neither is imported yet, ``pkg_resources`` is hidden for the
    time of the import and restored at once; anyone may import it afterwards. (While jieba
    is being imported, about 20 ms, another thread's ``import pkg_resources`` would fail:
    a kernel's own threads import nothing.) If that jieba cannot be imported without it,
    whatever of it was imported is dropped and jieba is imported again, plainly.
    """
    import sys

    if "jieba" in sys.modules or "pkg_resources" in sys.modules:
        import jieba
        return jieba
    sys.modules["pkg_resources"] = None  # type: ignore[assignment]  # "import" raises
    try:
        import jieba
    except ImportError:  # a jieba that cannot do without it (or no jieba): import it plainly
        jieba = None
    finally:
        if "pkg_resources" in sys.modules and sys.modules["pkg_resources"] is None:
            del sys.modules["pkg_resources"]
    if jieba is None:
        for name in [m for m in sys.modules if m == "jieba" or m.startswith("jieba.")]:
            del sys.modules[name]  # parts imported without pkg_resources: import them again
        import jieba
    return jieba


def _load_dictionary(segmenter: Any) -> None:
    """jieba 0.42's ``initialize()`` of a new default ``Tokenizer``, its cache file read at once.

    jieba unmarshals ``(FREQ, total)`` from ``jieba.cache`` in the temp folder with
    ``marshal.load(file)``, which reads the 9 MB file a few bytes per object; the same bytes
    read whole and given to ``marshal.loads`` are the same objects, in about a third of the
    time. Nothing is written: when the file is missing or unreadable, jieba's own
    ``initialize()`` runs (it builds the dictionary and writes its cache file, as always).
    """
    import marshal
    import os
    import tempfile

    if segmenter.dictionary is None and not segmenter.cache_file:  # jieba's default dictionary
        path = os.path.join(segmenter.tmp_dir or tempfile.gettempdir(), "jieba.cache")
        try:
            with open(path, "rb") as file:
                segmenter.FREQ, segmenter.total = marshal.loads(file.read())
        except Exception:  # as jieba: whatever fails, the dictionary is built instead
            pass
        else:
            segmenter.initialized = True
            return
    segmenter.initialize()


def _remember_hmm(hmm: Callable[[str], Iterable[str]]) -> Callable[[str], tuple[str, ...]]:
    """``hmm`` (jieba's ``finalseg.cut``), each buffer's words remembered.

    The HMM's words depend on the buffer of characters alone, and the same unknown names
    and characters recur in many different runs.
    """
    @lru_cache(maxsize=_LINES_CACHED)
    def words(buf: str) -> tuple[str, ...]:
        return tuple(hmm(buf))

    return words


#: no word's score is above 0 (log(freq) <= log(total)): the mark of a fragment not seen yet
_UNSEEN = 1.0


def _cut_run(run: str, freq: dict[str, int], log_total: float,
             hmm: Callable[[str], Iterable[str]],
             word_scores: dict[str, float | None]) -> list[str]:
    """The words of one run, as jieba's ``Tokenizer.cut(run)`` (dictionary and HMM) gives them.

    jieba 0.42's steps, in one pass and without its generators: for each start k, the
    dictionary words ``run[k:i + 1]`` (``freq`` holds every prefix of a word, with count 0
    when the prefix is not a word itself); the best route from the end backwards, each word
    scoring ``log(freq) - log_total`` (no word: the single character, ``log(1)``), a tie
    going to the longer word as jieba's ``max`` over ``(score, end)`` does; then runs of
    single characters that are not a dictionary word go to the ``hmm`` (``finalseg.cut``).
    The same floating-point sums in the same order, so the same route. ``word_scores``
    remembers ``log(freq) - log_total`` of each fragment met (None for a prefix that is not
    a word), so that each is computed once; pass the same dict for the same dictionary.
    """
    known = word_scores.get
    n = len(run)
    score: list[float] = [0.0] * (n + 1)
    end = list(range(n))
    for k in range(n - 1, -1, -1):
        best = None
        i, frag = k, run[k]
        while i < n:
            word = known(frag, _UNSEEN)
            if word == _UNSEEN:
                count = freq.get(frag)
                if count is None:  # no dictionary word starts with frag
                    break
                word = word_scores[frag] = log(count) - log_total if count else None
            if word is not None:
                value = word + score[i + 1]
                if best is None or value >= best:
                    best, end[k] = value, i
            i += 1
            frag = run[k:i + 1]
        if best is None:  # not even run[k] is a word: it stands alone, log(1) - log_total
            best = 0.0 - log_total + score[k + 1]
        score[k] = best
    words: list[str] = []

    def singles(buf: str) -> None:  # characters the route left alone, one after another
        if len(buf) == 1:
            words.append(buf)
        elif not freq.get(buf):
            words.extend(hmm(buf))
        else:
            words.extend(buf)

    buf, x = "", 0
    while x < n:
        y = end[x] + 1
        if y - x == 1:
            buf += run[x]
        else:
            if buf:
                singles(buf)
                buf = ""
            words.append(run[x:y])
        x = y
    if buf:
        singles(buf)
    return words


@cache
def _named(name: str, lowercase: bool) -> Tokenizer:
    split: Callable[[str], list[str]]
    if name == "none":
        split = _whitespace
    elif name == "13a":
        split = _split_13a
    elif name == "zh":
        split = _zh_split()
    elif name == "jieba":
        split = _jieba_split()
    else:
        split = _sacrebleu_split(name)
    return Tokenizer(name, split, lowercase)


def get_tokenizer(tokenizer: str | Callable[[str], list[str]] = "13a",
                  lowercase: bool = False) -> Tokenizer:
    """Return the tokenizer called ``tokenizer``, or wrap a callable ``str -> list[str]``.

    Raises ``ValueError`` for an unknown name and ``TypeError`` for anything that is
    neither a name nor a callable.

    >>> get_tokenizer("none")("a  b c")
    ['a', 'b', 'c']
    """
    if isinstance(tokenizer, Tokenizer):
        if tokenizer.lowercase == lowercase:
            return tokenizer
        return Tokenizer(tokenizer.name, tokenizer._split, lowercase)
    if isinstance(tokenizer, str):
        if tokenizer not in TOKENIZERS + SEGMENTERS:
            raise ValueError(
                f"tokenizer must be one of {', '.join(repr(t) for t in TOKENIZERS + SEGMENTERS)} "
                f"or a callable, got {tokenizer!r}"
            )
        return _named(tokenizer, bool(lowercase))
    if callable(tokenizer):
        name = getattr(tokenizer, "__name__", type(tokenizer).__name__)

        def split(text: str) -> list[str]:
            tokens = tokenizer(text)
            if not isinstance(tokens, list | tuple) or not all(isinstance(t, str) for t in tokens):
                raise TypeError(f"tokenizer {name!r} must return a list of str")
            return list(tokens)

        return Tokenizer(f"custom:{name}", split, bool(lowercase))
    raise TypeError(
        f"tokenizer must be a tokenizer name or a callable, got {type(tokenizer).__name__}"
    )


def tokenize(text: str, tokenizer: str | Callable[[str], list[str]] = "13a",
             lowercase: bool = False) -> list[str]:
    """Tokenize one sentence: ``get_tokenizer(tokenizer, lowercase)(text)``."""
    return get_tokenizer(tokenizer, lowercase)(text)

"""The ``zh`` tokenizer (WMT's for Chinese targets), token for token sacrebleu's, faster.

sacrebleu's ``TokenizerZh`` strips the line, puts spaces around every "Chinese character"
(any character in its table of code-point ranges), then runs the same punctuation rules as
13a (``tok13a.split_punctuation``) without 13a's entity handling and padding. It tests
each character against the ranges in a Python loop; here the ranges are one
``str.translate`` table (built once, about 32,000 entries), and the rest is
``split_punctuation``.

The table is taken as sacrebleu's code compares it, not as its comments read: two of its
range bounds are written ``'\\u20000'`` and ``'\\u2f800'``, which Python reads as a
four-digit escape followed by a ``0``, so those ranges are U+2001–U+2A6D and U+2F81–U+2FA1
(general punctuation such as “ ” — …, arrows and mathematical symbols are therefore
split off one by one too). ``tests/test_tok13a.py`` checks the class against sacrebleu's
own test on every code point of the Basic Multilingual Plane, and the tokens on every
WMT22 line and on generated text.

>>> tokenize_zh("猫坐在垫子上。The cat, 3.5 kg.")
['猫', '坐', '在', '垫', '子', '上', '。', 'The', 'cat', ',', '3.5', 'kg', '.']
"""

from __future__ import annotations

from .tok13a import split_punctuation

__all__ = ["CHINESE_RANGES", "tokenize_zh"]

#: sacrebleu's ranges, inclusive, as its string comparisons read them
CHINESE_RANGES: tuple[tuple[int, int], ...] = (
    (0x3400, 0x4DB5),  # CJK Unified Ideographs Extension A
    (0x4E00, 0x9FA5),  # CJK Unified Ideographs
    (0x9FA6, 0x9FBB),
    (0xF900, 0xFA2D),  # CJK Compatibility Ideographs
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0x2001, 0x2A6D),  # written '\u20000'..'\u2a6d6' (meant: Extension B)
    (0x2F81, 0x2FA1),  # written '\u2f800'..'\u2fa1d' (meant: Compatibility Supplement)
    (0xFF00, 0xFFEF),  # full-width ASCII and punctuation, half-width kana, Hangul
    (0x2E80, 0x2EFF),  # CJK Radicals Supplement
    (0x3000, 0x303F),  # CJK punctuation
    (0x31C0, 0x31EF),  # CJK strokes
    (0x2F00, 0x2FDF),  # Kangxi radicals
    (0x2FF0, 0x2FFF),  # ideographic description characters
    (0x3100, 0x312F),  # Bopomofo
    (0x31A0, 0x31BF),  # Bopomofo extended
    (0xFE10, 0xFE1F),  # vertical forms
    (0xFE30, 0xFE4F),  # CJK compatibility forms
    (0x2600, 0x26FF),  # miscellaneous symbols
    (0x2700, 0x27BF),  # dingbats
    (0x3200, 0x32FF),  # enclosed CJK letters and months
    (0x3300, 0x33FF),  # CJK compatibility
)

# every Chinese character -> the same character with a space on each side
_SPACED = {c: f" {chr(c)} " for first, last in CHINESE_RANGES for c in range(first, last + 1)}


def tokenize_zh(line: str) -> list[str]:
    """The tokens of ``sacrebleu.tokenizers.tokenizer_zh.TokenizerZh()(line).split()``.

    >>> tokenize_zh("“你好！”他说")
    ['“', '你', '好', '！', '”', '他', '说']
    """
    return split_punctuation(line.strip().translate(_SPACED))

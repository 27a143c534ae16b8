"""The 13a tokenizer (mteval-v13a, sacrebleu's default), token for token sacrebleu's, faster.

sacrebleu's ``Tokenizer13a`` unescapes four entities, pads the line with spaces and runs
four regular expressions, then joins the tokens with single spaces:

1. put spaces around ASCII punctuation and symbols: ``{|}~ [\\]^_` !"#$%& ()*+ :;<=>?@ /``
   (its character class also holds the space itself, which only multiplies spaces);
2. split off ``.`` and ``,`` unless a digit precedes them: ``([^0-9])([.,])`` → ``\\1 \\2 ``;
3. split off ``.`` and ``,`` unless a digit follows them: ``([.,])([^0-9])`` → `` \\1 \\2``;
4. split off ``-`` after a digit: ``([0-9])(-)`` → ``\\1 \\2 ``.

This module does the same steps with the same expressions, and differs only where the
result cannot change:

- step 1 leaves spaces alone (sacrebleu turns each space into three): a space is never a
  digit, a ``.`` or a ``,``, so steps 2–4 match the same characters either way, and the
  final split on whitespace forgets how many spaces there were;
- replacements are small functions instead of ``\\1``-templates (Python 3.11 expands a
  template in Python for every match), steps 2–4 run only when their characters occur,
  and the tokens are returned as a list instead of being joined and split again.

``tests/test_tok13a.py`` checks that the tokens equal sacrebleu's on every line of every
WMT22 file here (sources, references and all systems of zh-en and en-zh) and on generated
text (Unicode punctuation and digits, entities, ``-`` between digits, ``<skipped>``, …).
Standard library only: scoring with 13a does not import sacrebleu.

>>> tokenize_13a("The cat (a big one) sat on the mat.")
['The', 'cat', '(', 'a', 'big', 'one', ')', 'sat', 'on', 'the', 'mat', '.']
>>> tokenize_13a("In 2021-2022, 3.5% &quot;grew&quot;, 1,000 x.")
['In', '2021', '-', '2022', ',', '3.5', '%', '"', 'grew', '"', ',', '1,000', 'x', '.']
"""

from __future__ import annotations

import re

__all__ = ["split_punctuation", "tokenize_13a"]

# step 1: sacrebleu's class [\{-\~\[-\` -\&\(-\+\:-\@\/] without the space (" -\&" → "!-\&")
_SYMBOL = re.compile(r"[\{-\~\[-\`!-\&\(-\+\:-\@\/]")
_NOT_DIGIT_THEN_POINT = re.compile(r"([^0-9])([\.,])")  # step 2
_POINT_THEN_NOT_DIGIT = re.compile(r"([\.,])([^0-9])")  # step 3
_DIGIT_THEN_DASH = re.compile(r"([0-9])(-)")  # step 4


def _around(match: re.Match) -> str:  # " c "
    return f" {match[0]} "


def _between_and_after(match: re.Match) -> str:  # "\1 \2 " (steps 2 and 4)
    pair = match[0]
    return f"{pair[0]} {pair[1]} "


def _before_and_between(match: re.Match) -> str:  # " \1 \2" (step 3)
    pair = match[0]
    return f" {pair[0]} {pair[1]}"


def tokenize_13a(line: str) -> list[str]:
    """The tokens of ``sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a()(line).split()``.

    >>> tokenize_13a("Mr. Smith's 3-D model costs $4.50 -- isn't it?")
    ['Mr', '.', "Smith's", '3', '-', 'D', 'model', 'costs', '$', '4.50', '--', "isn't", 'it', '?']
    """
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = (line.replace("&quot;", '"').replace("&amp;", "&")
                .replace("&lt;", "<").replace("&gt;", ">"))
    return split_punctuation(f" {line} ")


def split_punctuation(line: str) -> list[str]:
    """Steps 1–4 above, then split: sacrebleu's ``TokenizerRegexp`` (13a's and zh's last step).

    >>> split_punctuation("(a) 1.5, b.")
    ['(', 'a', ')', '1.5', ',', 'b', '.']
    """
    line = _SYMBOL.sub(_around, line)
    if "." in line or "," in line:
        line = _NOT_DIGIT_THEN_POINT.sub(_between_and_after, line)
        line = _POINT_THEN_NOT_DIGIT.sub(_before_and_between, line)
    if "-" in line:
        line = _DIGIT_THEN_DASH.sub(_between_and_after, line)
    return line.split()

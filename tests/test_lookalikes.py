"""Exercises 1.1 and 6.2 refuse the chapter's own example also when it is retyped in letters
a reader cannot tell apart from it (issue 20: four hostile reviews hid the chapter's pairs in
Cyrillic, Greek, IPA, Armenian and small-capital look-alikes, combining marks and invisible
characters). ``fold_lookalikes`` folds every character that Unicode's security data (UTS #39,
confusables.txt) calls confusable with another; its table is generated from that data by
``tools/make_lookalikes.py``, which also joins the Latin look-alikes those reviews used (its
``LATIN_LOOKALIKES``) to their Latin letters.

The independent source here is the ``confusable_homoglyphs`` package (Unicode's data as
JSON, and its own ``is_confusable``): every pair of letters or digits it lists must fold to
the same text, and texts it does not call confusable must stay apart. The chapter's pairs
in such look-alikes are among 1.1's wrong answers (tests/test_exercise_variants_C1.py).
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

import pytest

from bleu_lesson.teaching.checking import fold_lookalikes

confusables = pytest.importorskip(
    "confusable_homoglyphs.confusables",
    reason="confusable_homoglyphs (the test extra) is not installed: pip install -e '.[test]'")

ROOT = Path(__file__).resolve().parent.parent


def _letter_or_digit(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LN"


def _tool():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import make_lookalikes
    finally:
        sys.path.remove(str(ROOT / "tools"))
    return make_lookalikes


def test_the_table_is_what_unicodes_data_gives():
    assert _tool().main(["--check"]) == 0, "run python tools/make_lookalikes.py"


def test_each_hand_joined_letter_reads_as_its_latin_letter():
    # the reviews' letters are in the table itself (the fold only reads the file): each reads
    # as its Latin letter, and the chapter's sentence retyped in them reads as the sentence
    by_hand = _tool().LATIN_LOOKALIKES
    assert len(by_hand) > 80
    apart = [(ch, latin, unicodedata.name(ch)) for ch, latin in by_hand.items()
             if fold_lookalikes(ch) != fold_lookalikes(latin)]
    assert apart == []
    # Cyrillic е, с; Latin alpha ɑ, dotless ı; Greek ο, α; Armenian ո; small capital ᴍ
    retyped = "Th\u0435 \u0441\u0251t \u0131s \u03bf\u0578 th\u0435 \u1d0d\u03b1t"
    assert fold_lookalikes(retyped) == "the cat is on the mat"


def test_every_confusable_pair_of_letters_or_digits_folds_alike():
    pairs = [(ch, alike["c"]) for ch, alikes in confusables.confusables_data.items()
             for alike in alikes
             if len(ch) == 1 and len(alike["c"]) == 1
             and _letter_or_digit(ch) and _letter_or_digit(alike["c"])]
    assert len(pairs) > 5000  # the whole table, not a sample
    apart = [(a, b, unicodedata.name(a, "?"), unicodedata.name(b, "?")) for a, b in pairs
             if fold_lookalikes(a) != fold_lookalikes(b)]
    assert apart == []


@pytest.mark.parametrize("text", [
    "\u13a2he cat is on the mat",                      # Cherokee Ꭲ
    "\ua4d4he cat is on the mat",                      # Lisu ꓔ
    "The c\U0001d41at is on the m\U0001d41at",         # mathematical bold a
    "The cat \u0456s \u03bfn the mat",                 # Cyrillic і, Greek ο
    "Th\u0435 \u217dat is on th\u0435 \u217fat",       # Cyrillic е, Roman numerals c and m
])
def test_a_sentence_unicode_calls_confusable_folds_like_the_chapters(text):
    chapter = "The cat is on the mat"
    # the package's own verdict, character by character: each one is the chapter's, its
    # compatibility form (NFKC), or a character the package lists as confusable with it
    for ch, want in zip(text, chapter, strict=True):
        assert ch == want or unicodedata.normalize("NFKC", ch) == want or any(
            alike["c"] == want for alike in confusables.confusables_data.get(ch, [])), ch
    assert fold_lookalikes(text) == fold_lookalikes(chapter)


@pytest.mark.parametrize("text", ["The cat is on the rnat", "The cut is on the mat",
                                  "The bat is on the mat", "The cat is in the mat"])
def test_another_word_is_another_text(text):
    assert fold_lookalikes(text) != fold_lookalikes("The cat is on the mat")


def test_different_letters_stay_different():
    # no two ASCII letters fold together except those Unicode lists as confusable
    # (l with I, o with O); case is folded on purpose, the comparison ignores it
    folded = {}
    for ch in "abcdefghijklmnopqrstuvwxyz0123456789":
        folded.setdefault(fold_lookalikes(ch), []).append(ch)
    assert sorted(sorted(v) for v in folded.values() if len(v) > 1) == [["0", "o"], ["1", "l"]]
    for a, b in [("cat", "cut"), ("mat", "rnat"), ("我在", "我再"), ("2021", "2022")]:
        assert fold_lookalikes(a) != fold_lookalikes(b), (a, b)

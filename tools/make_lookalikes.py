"""The look-alike table of ``bleu_lesson/teaching/lookalikes.txt``, from Unicode's confusables.

    python tools/make_lookalikes.py            # rewrite the table
    python tools/make_lookalikes.py --check    # exit 1 if the table is stale

Exercises 1.1 and 6.2 refuse the chapter's own example, also when it is retyped in letters
that look the same (Cyrillic а for Latin a, Cherokee Ꭲ for T, mathematical 𝐚 ...). Which
characters look the same is what Unicode's security data says (UTS #39, confusables.txt);
the ``confusable_homoglyphs`` package (a test dependency) ships that data as JSON, listing for
each character the characters it is confusable with. This script joins every pair of single
characters it lists into groups (a character confusable with another one belongs to its
group), and each listed character with what ``fold_lookalikes`` reads it as before the table
(NFKD, no combining marks, NFKC: the circled ① with 1, the lunate sigma ϲ with ς), so that
the fold treats both alike (unless that would join ASCII characters Unicode keeps apart:
the long s ſ is s to NFKC but confusable with f); then each letter of ``LATIN_LOOKALIKES``
below with its Latin letter (letters of other scripts that hostile reviews used, joined by
hand whatever groups Unicode's data puts them in); then it picks one member of each group
to stand for it, and writes one line per other member: ``<code point> <code point of the
one standing for its group>``, both in hex.

The one standing for a group is a lowercase ASCII letter if the group has one, else an
uppercase ASCII letter (lowercased, since the comparison lowercases), else an ASCII
character, else a letter that NFKC leaves as it is (a Chinese character first), else the
group's lowest code point; so the groups of ``I``, ``l`` and ``1`` fold to ``l``, and ``0``
with ``O`` to ``o``. Only the comparison with the chapter's text uses the table
(``bleu_lesson.teaching.checking.fold_lookalikes``, which only reads it); the learner's text
itself is never changed. ``tests/test_lookalikes.py`` checks the table against the package's
own ``is_confusable``, checks that it is fresh and that each hand-joined letter folds to its
Latin letter.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from collections.abc import Mapping
from importlib.metadata import version
from importlib.resources import files
from pathlib import Path
from types import MappingProxyType

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "bleu_lesson" / "teaching" / "lookalikes.txt"

#: Letters of other scripts drawn like Latin ones (Cyrillic, Greek, Armenian, IPA, small
#: capitals), each with its Latin letter: the look-alikes hostile reviews used (issue 20).
#: Each is joined to its Latin letter's group whatever group Unicode's data gives it.
LATIN_LOOKALIKES = {
    **dict(zip("асеһіјорѕухԁԛԝаАВСЕНІЈКМОРЅТХУҮ",
               "acehijopsyxdqwaABCEHIJKMOPSTXYY", strict=True)),
    **dict(zip("αονριυκχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "aovpiukxABEZHIKMNOPTYX", strict=True)),
    **dict(zip("ıɑɡɩʋᴀʙᴄᴅᴇɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢօսոհցՕՍ",
               "iagiuabcdeghijklmnoprstuvwyzounhgOU", strict=True)),
}


def groups(confusables: dict[str, list[dict[str, str]]],
           by_hand: Mapping[str, str] = MappingProxyType({})) -> list[set[str]]:
    """The characters joined by confusable pairs of single characters, one set per group,
    and each key of ``by_hand`` with its value.

    >>> sorted(map(sorted, groups({"a": [{"c": "\u0430"}], "b": [{"c": "rn"}]})))
    [['a', 'а']]
    >>> sorted(map(sorted, groups({"a": [{"c": "\u0430"}]}, by_hand={"\u0251": "a"})))
    [['a', 'ɑ', 'а']]
    """
    parent: dict[str, str] = {}

    def root(ch: str) -> str:
        while parent.setdefault(ch, ch) != ch:
            ch = parent[ch]
        return ch

    letters: dict[str, set[str]] = {}  # root -> the ASCII characters (not spaces) of its group

    def join(a: str, b: str, keep_letters_apart: bool = False) -> None:
        a, b = root(a), root(b)
        if a == b:
            return
        la, lb = letters.get(a, set()), letters.get(b, set())
        if keep_letters_apart and la and lb and la != lb:
            return  # ſ is s to NFKC and f to the eye: s and f stay apart
        parent[max(a, b)] = min(a, b)
        letters[min(a, b)] = la | lb

    for ch, alikes in confusables.items():
        for alike in alikes:
            if len(ch) == 1 and len(alike["c"]) == 1:
                for c in (ch, alike["c"]):
                    if c.isascii() and not c.isspace():
                        letters.setdefault(root(c), set()).add(c.lower())
                join(ch, alike["c"])
    for ch in list(parent):
        plain = _plain(ch)
        # not a space: NFKD leaves a space of a spacing mark (the Greek ͺ, confusable with i)
        if len(plain) == 1 and plain != ch and not plain.isspace():
            if plain.isascii() and not plain.isspace():
                letters.setdefault(root(plain), set()).add(plain.lower())
            join(ch, plain, keep_letters_apart=True)
    for ch, latin in by_hand.items():  # last and always: these are the letters reviews used
        join(ch, latin)
    found: dict[str, set[str]] = {}
    for ch in parent:
        found.setdefault(root(ch), set()).add(ch)
    return list(found.values())


def _plain(ch: str) -> str:
    """``ch`` decomposed (NFKD), without combining marks, recomposed (NFKC): what
    ``fold_lookalikes`` reads before it looks a character up.

    >>> _plain("\u2460"), _plain("\u00e9"), _plain("\u03f2")
    ('1', 'e', 'ς')
    """
    bare = "".join(c for c in unicodedata.normalize("NFKD", ch)
                   if unicodedata.category(c) not in ("Mn", "Me", "Cf"))
    return unicodedata.normalize("NFKC", bare)


def standing_for(group: set[str]) -> str:
    """The member that stands for ``group``: see the module's docstring.

    >>> standing_for({"1", "I", "l", "|"}), standing_for({"0", "O"})
    ('l', 'o')
    >>> standing_for({"\u2f1d", "\u53e3", "\u30ed"})  # Kangxi radical, CJK 口, katakana ロ
    '口'

    """
    ascii_ = sorted(ch for ch in group if ch.isascii())
    for pick in ([c for c in ascii_ if c.islower()], [c for c in ascii_ if c.isupper()], ascii_):
        if pick:
            return pick[0].lower()
    # a letter NFKC keeps, a Chinese character first (口 rather than the Kangxi radical ⼝,
    # a symbol, or the katakana ロ): the comparison counts each Chinese character as a unit
    return min(group, key=lambda c: (unicodedata.normalize("NFKC", c) != c,
                                     not unicodedata.category(c).startswith("L"),
                                     not ("\u3400" <= c <= "\u4dbf" or "\u4e00" <= c <= "\u9fff"),
                                     c))


def table_text() -> str:
    """The file's text: a header naming the source and its version, then the lines."""
    data = json.loads(files("confusable_homoglyphs").joinpath("confusables.json")
                      .read_text(encoding="utf-8"))
    lines = []
    for group in groups(data, LATIN_LOOKALIKES):
        target = standing_for(group)
        lines += [f"{ord(ch):04X} {ord(target):04X}" for ch in group if ch != target]
    header = ("# Look-alike characters, each with the one its group folds to (hex code points).\n"
              "# Generated by tools/make_lookalikes.py from Unicode's confusables.txt (UTS #39)\n"
              f"# as confusable_homoglyphs {version('confusable_homoglyphs')} ships it, "
              "and the tool's LATIN_LOOKALIKES; do not edit.\n")
    return header + "\n".join(sorted(lines, key=lambda line: int(line.split()[0], 16))) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the table is stale")
    args = parser.parse_args(argv)
    text = table_text()
    if args.check:
        if TABLE.read_text(encoding="utf-8") != text:
            print(f"{TABLE.relative_to(ROOT)} is stale: run python tools/make_lookalikes.py",
                  file=sys.stderr)
            return 1
        return 0
    TABLE.write_text(text, encoding="utf-8")
    print(f"wrote {TABLE.relative_to(ROOT)}: {text.count(chr(10)) - 3} characters")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

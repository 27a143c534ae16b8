"""Chapter 6: 组装 BLEU：多参考译文评估 (Putting BLEU together: multiple references): its exercise cases and its quiz questions."""

# The quiz is Chinese prose; ruff counts CJK characters double.
# ruff: noqa: E501

from __future__ import annotations

import functools
import random
import string
from typing import Any

from bleu_lesson.core.bleu import sentence_bleu
from bleu_lesson.core.tokenizers import get_tokenizer
from bleu_lesson.teaching.checking import (
    Exercise,
    _show,
    float_ratio_ties,
    fold_lookalikes,
    overlap,
    set_order_puts_first,
)
from bleu_lesson.teaching.questions import Question, question

__all__ = ["NOTEBOOK", "TITLE", "NEEDS_DATA", "EXPLORERS", "EXERCISES", "QUESTIONS"]

NOTEBOOK = "06_bleu_multi_reference.ipynb"
TITLE = "组装 BLEU：多参考译文评估 (Putting BLEU together: multiple references)"
NEEDS_DATA = False
EXPLORERS: tuple[str, ...] = ('BleuExplorer',)

#: The input domain exercise 6.1 states in its task: the candidate and every reference have
#: at most MAX_TOKENS tokens. A rule exact on every input of that domain is right; the hidden
#: cases hold its edge (the nearest reference lengths c + g and c - g - 1 with c + g close
#: to MAX_TOKENS).
MAX_TOKENS = 2000

#: Characters an answer may join an n-gram's tokens with to make one key (instead of a
#: tuple, or a space, which no token holds): every ASCII punctuation mark, a few control
#: and invisible characters and common symbols; hidden cases hold tokens made with each.
JOINERS = tuple(string.punctuation) + ("\x00", "\x01", "\u2063", "\u00b7", "\u2022",
                                       "\u2192", "\u241f", "\u00a6", "\uff5c", "\u3001")


_SEED_REFS = ["The cat is sitting on the mat", "A cat is on the mat", "The cat lies on the mat"]


def _my_bleu_reference(candidate: str, references: list[str]) -> float:
    return sentence_bleu(candidate, references, tokenizer="none", lowercase=True,
                         smoothing="none", effective_order=False).score


#: U+200B, U+200C, U+200D, U+2060 and U+FEFF: characters with no width that are no space
ZERO_WIDTH = ("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff")


@functools.cache
def unicode_spaces() -> tuple[str, ...]:
    r"""Every character for which ``str.isspace()`` is true (``str.split`` splits on each).

    >>> len(unicode_spaces()), unicode_spaces()[:2], "\u3000" in unicode_spaces()
    (29, ('\t', '\n'), True)
    """
    return tuple(ch for ch in map(chr, range(0x110000)) if ch.isspace())


_WORDS = ("the", "cat", "is", "on", "a", "mat", "sat", "dog", "red", "big", "猫", "垫子")


def _hidden(rng: random.Random) -> list[tuple]:
    """Every draw holds a case for each rule a wrong answer may use, with all four orders
    matching so that the score is not 0:

    - a tie for the closest length, the longer listed first (tie rules, first listed);
    - the closest length above c, the first and shortest below it and a longest one
      (closest, shortest, first, closest-from-below, longest, mean length, no brevity
      penalty), and the closest above c among four longer lengths (the median lengths);
    - a word the candidate repeats 3 times, held 1, 2 and 1 times by three references
      (max, sum, first-only and no clipping);
    - a set of the lengths that lists the longer of a tie first;
    - an empty (or blank) reference that is the closest length (r = 0);
    - upper case, the full-width space U+3000, punctuation glued to a word; ß against SS
      and the ligature ﬁ against fi (str.lower, not casefold, upper or NFKC); É against é,
      a decomposed é against a precomposed one, an unaccented word, a number, leading and
      trailing spaces, double spaces, an em space and a no-break space
      (str.lower().split(), nothing more), each in the candidate and in a reference;
    - 3 matching tokens (no 4-grams: 0 without effective order or smoothing) and a
      candidate with every 3-gram but no 4-gram matched;
    - words joined by each of the 29 characters ``str.isspace()`` accepts, and a
      zero-width character (U+200B, U+200C, U+200D, U+2060, U+FEFF) inside a word, each in
      the candidate and in a reference;
    - a reference of 1, 2 and 3 tokens that supplies clipped matches while BLEU > 0;
    - the nearest reference length c + g above c and c - g - 1 below, g at least 50,
      g of 500 to 990, and g of 970 to 990 with c + g at most MAX_TOKENS (the domain's edge);
    - a capital sigma at a word's end (str.lower gives the final sigma);
    - an empty candidate and a candidate of a few hundred tokens.
    """
    def words(k: int) -> list[str]:
        return [rng.choice(_WORDS) for _ in range(k)]

    def join(tokens: list[str]) -> str:
        return " ".join(tokens)

    def edited(tokens: list[str], k: int) -> list[str]:
        out = list(tokens)  # k single-word substitutions: long runs still match
        for _ in range(k):
            out[rng.randrange(len(out))] = rng.choice(("dog", "red", "big"))
        return out

    base = words(rng.randint(7, 10))
    c = len(base)
    cases: list[tuple] = []
    # ties: c + 1 listed before c - 1
    cases.append((join(base), [join(base + words(1)), join(base[:-1])]))
    # closest c + 1 (second), shortest and first c - 3, longest c + 9: the mean length,
    # c + 7/3, is c + 2 rounded or floored, not the closest c + 1
    cases.append((join(base), [join(base[:c - 3]), join(edited(base, 1) + words(1)),
                               join(base + words(9))]))
    # lowercasing is str.lower: not casefold (ß -> ss), not upper case (both STRASSE), not
    # NFKC first (the ligature ﬁ -> fi)
    cases.append((join(base[:4] + ["straße"] + base[4:] + ["\ufb01sh"]),
                  [join(base[:4] + ["STRASSE"] + base[4:] + ["fish"])]))
    # and the rest of Unicode: an accented capital (É lowers to é), a decomposed é against
    # a precomposed one (no normalisation), an unaccented word against an accented one, a
    # number, leading and trailing spaces, an em space and a no-break space between words
    # (str.split: every Unicode space, nothing at the ends)
    mid = base[:4] + ["\u00c9COLE", "2022"] + base[4:]
    cases.append((" " + "\u2003".join(mid[:3]) + " " + " ".join(mid[3:]) + " e\u0301te\u0301"
                  + "\u00a0cafe ",
                  [join(base[:4] + ["\u00e9cole", "2022"] + base[4:] + ["\u00e9t\u00e9",
                                                                       "caf\u00e9"])]))
    # a double space inside the text too (split(" ") keeps an empty token there)
    cases.append(("  ".join(mid[:5]) + "\u3000" + join(mid[5:]) + " cafe",
                  [join(base[:4] + ["\u00e9cole", "2022"] + base[4:] + ["caf\u00e9"])]))
    # closest c + 1 among four longer ones: the lower median (c + 5) and the upper (c + 9)
    # are not it
    cases.append((join(base), [join(base + words(5)), join(edited(base, 1) + words(1)),
                               join(base + words(12)), join(base + words(9))]))
    # clipping: "w" three times in the candidate; the references hold it 1, 2 and 1 times
    w = "the"
    body = [x for x in words(8) if x != w] or ["cat"] * 8
    cand = [w] + body[:4] + [w] + body[4:] + [w]
    cases.append((join(cand), [join([w] + body[:4] + ["dog"] + body[4:]),
                               join([w] + body[:4] + [w] + body[4:]),
                               join(["a"] + body[:4] + [w] + body[4:])]))
    # case, U+3000 and glued punctuation (the references are lower case, space-separated)
    upper = [t.capitalize() for t in base]
    cases.append(("\u3000".join(upper[:4]) + " " + join(upper[4:]),
                  [join(base), join(edited(base, 2))]))
    cases.append((join(base) + " .", [join(base) + ".", join(edited(base, 1))]))
    # no 4-grams at all; every 3-gram but no 4-gram matched
    short = words(3)
    cases.append((join(short), [join(short + words(2))]))
    cases.append((join(base[:3] + ["dog", "big"] + base[1:4]), [join(base[:3]),
                                                                 join(base[1:4])]))
    # a tie that the ratio r / c in floats breaks the wrong way (abs(1 - (c + t) / c) comes
    # out below abs(1 - (c - t) / c)): c + t listed first and c - t, and every n-gram
    # matched, so BLEU is 1 with r = c - t and below 1 with r = c + t
    t = rng.randint(1, 3)
    tc = rng.choice(float_ratio_ties(t, range(max(t + 1, 4), 60)))
    tied = words(tc)
    cases.append((join(tied), [join(tied + words(t)), join(tied[:tc - t])]))
    # a capital sigma at the end of a word lowers to the final sigma (ΟΔΟΣ -> οδος): a
    # rule that lowers letter by letter gets σ (issue 20, round 19)
    cases.append((join(base[:4] + ["\u039f\u0394\u039f\u03a3"] + base[4:]),
                  [join(base[:4] + ["\u03bf\u03b4\u03bf\u03c2"] + base[4:])]))
    # two tokens that join to the same letters as two others ("a bc" and "ab c"): a 4-gram
    # keyed by "".join(...) matches, the tokens do not (BLEU 0, not 0.64)
    x, y, z = (rng.choice(("ab", "cat", "on", "mat", "red", "dog")) for _ in range(3))
    tail = [rng.choice(_WORDS), rng.choice(_WORDS)]
    cases.append((join([x, y + z] + tail), [join([x + y, z] + tail)]))
    # and the same with every other character a key may join tokens with (a token may hold
    # any character but a space): "_".join, "-".join, "|".join ... (issue 20, round 21:
    # "well_known cat" and "well known_cat" gave one 2-gram key, 200 of 200 draws)
    for glue in JOINERS:
        cases.append((join([x, y + glue + z] + tail), [join([x + glue + y, z] + tail)]))
    # the same edges on the reference side (issue 20, round 11: a rule that treats the
    # references otherwise, casefold or NFKC or split(" ") on them only, passed): every
    # case above with one reference, and the case and U+3000 case, again with candidate
    # and reference swapped
    cases += [(refs[0], [cand]) for cand, refs in list(cases) if len(refs) == 1 and cand]
    cases.append((join(base), ["\u3000".join(upper[:4]) + " " + join(upper[4:]),
                               join(edited(base, 2))]))
    # an empty reference (and a blank one) that is the closest length: r = 0 < c, BP 1 and
    # BLEU 1, not the BP of the long one (a rule that skips blank references)
    k = rng.randint(4, 5)
    long_one = join(base + words(rng.randint(2 * k - c + 1, 2 * k - c + 4) if 2 * k > c
                                 else rng.randint(1, 3)))
    for blank in ("", rng.choice((" ", "  ", "\u3000"))):
        cases.append((join(base[:k]), rng.choice(([long_one, blank], [blank, long_one]))))
    # a blank reference is 0 tokens, not 1 (re.split(r"\s+", text.strip()) gives [""]): the
    # candidate's c tokens lie c - 1 from a reference of 2c - 1 tokens and c from the blank
    # one, so r = 2c - 1 (BP < 1); a blank read as 1 token ties and wins as the shorter
    # (BP 1), in both orders (issue 20, round 21: 200 of 200 draws)
    k = rng.randint(4, min(8, c))
    two = join(base[:k] + words(k - 1))
    for blank in ("", rng.choice((" ", "\u3000"))):
        cases.append((join(base[:k]), rng.choice(([two, blank], [blank, two]))))
    # a tie that a set of the lengths lists longer first: the closest of set(lengths)
    # keeps c + t where the shorter c - t wins
    st = rng.randint(1, 3)
    sc = rng.choice([n for n in range(max(st + 1, 4), 60)
                     if set_order_puts_first([n - st, n + st], n + st, n - st)])
    tied = words(sc)
    cases.append((join(tied), [join(tied[:sc - st]), join(tied + words(st))]))
    # every character str.isspace() calls a space separates two words (str.split), in the
    # candidate and in a reference: a hand-made class of spaces (ASCII and the few Unicode
    # spaces an example showed, or Unicode's Zs) glues two words into one (issue 20, round 12)
    seps = list(unicode_spaces())
    rng.shuffle(seps)
    spaced = words(len(seps) + 1)
    glued = spaced[0] + "".join(sep + w for sep, w in zip(seps, spaced[1:], strict=True))
    cases += [(glued, [join(spaced)]), (join(spaced), [glued])]
    # a zero-width character is no space: it stays inside its word ("ca\u200bt" is not
    # "cat"), in the last word of the candidate and of a reference, so BLEU is not 0
    for zw in ZERO_WIDTH:
        plain = words(rng.randint(6, 8))
        marked = plain[:-1] + [plain[-1][:1] + zw + plain[-1][1:]]
        cases += [(join(marked), [join(plain)]), (join(plain), [join(marked)])]
    # a reference of 1, 2 or 3 tokens (no 4-gram) still clips: its words match the
    # candidate's, beside a reference of 4 or more tokens that gives BLEU > 0 and r
    for k in (1, 2, 3):
        toks = rng.sample(_WORDS, rng.randint(4, 6) + k)
        pair = [join(toks[:-k]), join(toks[-k:])]
        rng.shuffle(pair)
        cases.append((join(toks), pair))
    # the nearest reference c + g tokens long, c - g - 1 on the other side, g at least 50: a
    # tie-break that adds 1 % of the length to the distance takes the shorter one
    # (and g of 500-990: the distance times 1000 plus the length as one key, or 0.1 % of
    # the length added, takes the shorter one too; issue 20, round 19)
    # and at the domain's edge, sentences of up to MAX_TOKENS tokens: g of 970-990 with
    # c + g <= MAX_TOKENS, so a key |r - c| * K + r is wrong for every K below 1941 and
    # right on the domain from K = MAX_TOKENS on (issue 20, round 20 passed K = 10**4 and 1e-5
    # of the length: both are exact on every input the task allows, so they are right)
    for lo, hi in ((50, 80), (500, 990), (970, 990)):
        g = rng.randint(lo, hi)
        gc = (rng.randint(150, 250) if lo == 50 else
              rng.randint(g + 20, min(g + 100, MAX_TOKENS - g)))
        spread = words(gc)
        pair = [join(spread + words(g)), join(spread[:gc - g - 1])]
        if lo == 50:  # the farther, shorter one first: c shifted down by half a token ties
            pair.reverse()  # them and keeps the first (issue 20, round 22: 4 of 200 draws)
        else:
            rng.shuffle(pair)
        cases.append((join(spread), pair))
    # empty, and long
    cases.append(("", [join(base)]))
    long_ref = words(rng.randint(200, 400))
    cases.append((join(edited(long_ref, len(long_ref) // 10)), [join(long_ref),
                                                                join(edited(long_ref, 30))]))
    for _ in range(2):
        ref = words(rng.randint(3, 12))
        cases.append((join(edited(ref, rng.randint(0, 2)) + words(rng.randint(0, 2))),
                      [join(ref) for _ in range(1)] + [join(words(rng.randint(3, 12)))
                                                       for _ in range(rng.randint(0, 2))]))
    return cases


# --- 6.2 and 6.3 (issue 13): analytic tasks with no single right answer, judged ----------
# Each answer is a function of no arguments returning what the learner built (plain data:
# a tuple, a list and strings; a dict of strings), so a student copy's stub is "not done".

def _is_text(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


#: that example's candidate and reference (section 5 and the quiz's explanation)
_EXAMPLE_PAIR = ("a b c d e f", "a b c d")


def _near_copy(text: str, example: str) -> bool:
    """Whether ``text`` is ``example`` up to a few words added, removed or changed, in any
    order: more than half of their words in common (2 · overlap / (len + len), difflib's
    ratio without the order, on the words ``_norm`` keeps), as 1.1 tells a near copy of
    its chapter's pair.

    >>> _near_copy("a b c d e f g", "a b c d e f"), _near_copy("A b, c d.", "a b c d")
    (True, True)
    >>> _near_copy("a b c", "a b c d e f"), _near_copy("the cat sat", "a b c d")
    (True, False)
    >>> _near_copy("f e d c b a", "a b c d e f"), _near_copy("b a d c", "a b c d")
    (True, True)
    """
    a, b = _norm(text).split(), _norm(example).split()
    return a == b or 2 * overlap(a, b) / (len(a) + len(b)) > 0.5


def _judge_lowering(case: tuple, got: Any) -> tuple[bool, str]:
    """Adding ``extra`` to ``references`` must lower sentence BLEU (sacrebleu's defaults)."""
    if not (isinstance(got, tuple) and len(got) == 3):
        return False, f"{_show(got)}：不是 (candidate, references, extra) 三项的 tuple"
    candidate, references, extra = got
    if not (_is_text(candidate) and isinstance(references, list) and references
            and all(_is_text(r) for r in references) and _is_text(extra)):
        return False, (f"{_show(got)}：candidate、extra 要是非空字符串，references 要是非空的"
                       "字符串列表")
    # the same example scaled: a word or two added to (or dropped from) its candidate and
    # its reference, or its letters reversed or swapped (the reference then shares the
    # candidate's letters rather than the example reference's order), leaves the
    # chapter's construction, not the learner's own
    if _near_copy(candidate, _EXAMPLE_PAIR[0]) and any(
            _near_copy(r, _EXAMPLE_PAIR[1]) or _near_copy(r, _EXAMPLE_PAIR[0])
            for r in references):
        return False, ("候选和参考只比本章正文里的例子（候选 a b c d e f、参考 a b c d）多或少几个"
                       "词 (a near copy of the chapter's own example, a few words added or "
                       "removed): 请用自己的句子构造 (build your own with other words)")
    before = sentence_bleu(candidate, references)
    after = sentence_bleu(candidate, [*references, extra])
    scores = f"BLEU {before.score:.4f} -> {after.score:.4f}（加上 extra 之后）"
    # the chapter's construction adds an unrelated reference (no precision changes, only BP):
    # here the extra must also match more of the candidate, and BLEU must still fall
    if not any(a > b for a, b in zip(after.matches, before.matches, strict=True)):
        return False, (f"{scores}；但 extra 没有让任何一阶的匹配数增加 (the extra raises no "
                       f"precision: matches {list(before.matches)} -> {list(after.matches)})"
                       "：本题要的新参考要和候选有新的重合")
    return after.score < before.score - 1e-12, (
        f"{scores}；匹配数 (matches) {list(before.matches)} -> {list(after.matches)}")


def _norm(text: str) -> str:
    """The words of ``text`` as sentence BLEU tokenizes them (13a), lowercased, punctuation
    left out: "The cat sat ." and "the cat sat!" are the same sentence here."""
    return " ".join(t for t in get_tokenizer("13a")(fold_lookalikes(text).lower())
                    if any(c.isalnum() for c in t))


def _judge_extremes(case: tuple, got: Any) -> tuple[bool, str]:
    """A fluent, correct translation under 0.2 and a garbage one over 0.5 (sentence BLEU)."""
    if not (isinstance(got, dict) and set(got) == {"reference", "fluent", "garbage"}
            and all(_is_text(v) for v in got.values())):
        return False, f"{_show(got)}：不是含 reference、fluent、garbage 三个非空字符串的 dict"
    if _norm(got["garbage"]) == _norm(got["reference"]) or \
            _norm(got["fluent"]) == _norm(got["reference"]):
        return False, "fluent 或 garbage 就是参考译文本身"
    fluent = sentence_bleu(got["fluent"], [got["reference"]]).score
    garbage = sentence_bleu(got["garbage"], [got["reference"]]).score
    return fluent < 0.2 and garbage > 0.5, f"fluent {fluent:.4f}, garbage {garbage:.4f}"


#: what an answer may use when ``bleu-lesson check`` judges it (see Exercise)
_BLOCKS = ("ngrams", "clipping", "brevity", "means", "tokenizers", "tok13a", "tokzh")
#: 6.2 and 6.3 are judged on what the learner builds, with sentence_bleu (their tasks name
#: it, and a learner tries candidates with it): their world holds the BLEU code too, and
#: 6.1's (whose answer sentence_bleu is) does not (issue 20, round 23)
_SCORING = (*_BLOCKS, "smoothing", "engines", "bleu")


EXERCISES = (
    Exercise("6.1", "组装 BLEU my_bleu", _my_bleu_reference, (
        ("The cat is on the mat", _SEED_REFS), ("The cat is on the mat", _SEED_REFS[:1]),
        ("the cat is sitting on the mat", _SEED_REFS), ("a cat", _SEED_REFS),
        ("It is a guide to action which ensures that the military always obeys the "
         "commands of the party", [
             "It is a guide to action that ensures that the military will forever heed "
             "Party commands",
             "It is the guiding principle which guarantees the military forces always being "
             "under the command of the Party",
             "It is the practical guide for the army always to heed the directions of the "
             "party"]),
        # a tie: 7 and 5 words are both 1 away from 6; the shorter one (5) must win
        ("The cat is on the mat", ["The cat is sitting on the mat", "The cat is on mat"]),
        # clipping matters and the score is not 0: "the" 3 times and "mat" twice against one
        # reference with 2 and 1; clipped p = 6/8, 5/7, 4/6, 3/5 (unclipped 8/8, 6/7, ...)
        ("the cat is on the mat the mat", ["The cat is on the mat"]),
        # Papineni et al. (2002): clipped p_1 = 2/7, no bigram matches, BLEU 0
        ("the the the the the the the", ["The cat is on the mat", "There is a cat on the mat"]),
        # a tie again, 8 and 6 words around 7: abs(1 - 8/7) < abs(1 - 6/7) in floats, yet the
        # shorter (6) wins and BP = 1 (BLEU 1, not exp(1 - 8/7) = 0.8669)
        ("the cat sat on the red mat", ["the cat sat on the red mat today",
                                        "the cat sat on the mat"]),
        # the references' own edges: ß and a full-width space inside a reference (split and
        # lower the references exactly as the candidate: "strasse" is not "straße", so
        # BLEU (5/6 * 3/5 * 2/4 * 1/3) ** 0.25 = 0.5373, not 1), and an empty reference
        # that is the closest length
        # (|0 - 4| < |9 - 4|: r = 0, BP 1, BLEU 1, not exp(1 - 9/4) = 0.2865)
        ("die strasse ist so lang heute", ["Die Straße ist\u3000so  lang heute"]),
        ("a b c d", ["a b c d e f g h i", ""]),
        # a reference of 2 tokens still clips: "the" and "mat" match only there; r = 4
        # (|4 - 6| < |2 - 6|), BP 1, p = 6/6, 4/5, 2/4, 1/3: BLEU (0.8 / 6) ** 0.25 = 0.6043
        ("a cat sat on the mat", ["a cat sat on", "the mat"]),
    ), tolerance=1e-9,
        hint="逐项对照前几章问自己：怎样分词、大小写怎么办？截断时一个 n 元语法最多算几次，"
             "看哪条参考？r 取哪条参考的长度，距离相同时取哪条？4 个精确率怎样平均（几何平均，不是算术平均）？"
             "最后用本章的两个例子（0.0000 和 0.9036）检查。",
        forbidden=("bleu_lesson.core.bleu.sentence_bleu", "bleu_lesson.core.bleu.corpus_bleu",
                   "bleu_lesson.core.bleu.score_stats", "bleu_lesson.core.bleu.BleuScorer.score",
                   "bleu_lesson.core.bleu.BleuScorer.sentence_scores",
                   "bleu_lesson.core.seed.compute_bleu"),
        generate=_hidden, building_blocks=_BLOCKS),
    Exercise("6.2", "加一条参考反而降分 my_lowering_case", None, ((),), judge=_judge_lowering,
             extra={"expect": "返回 (candidate, references, extra)：加上 extra 这条参考后，"
                              "至少一阶的匹配数增加，sentence_bleu（sacrebleu 的默认设置）"
                              "却严格变小"},
             hint="新参考让某一阶精确率升高，分数却要降：BP 要降得比精确率升得多。"
                  "先算 BP 从 1 降到多少，再看多匹配一两个词元能补回多少。",
             building_blocks=_SCORING, libraries=("sacrebleu",)),
    Exercise("6.3", "流利正确却低分、乱码却高分 my_bleu_extremes", None, ((),),
             judge=_judge_extremes,
             extra={"expect": "返回含 reference、fluent、garbage 的 dict：fluent 的 sentence_bleu "
                              "< 0.2，garbage 的 sentence_bleu > 0.5，两者都不是参考译文本身"},
             hint="fluent 换一套说法（同义词、换词序）；garbage 保留参考的长词串，再把句子弄坏。", building_blocks=_SCORING, libraries=("sacrebleu",),
             rubric="程序只量了 BLEU，判断不了句子本身。请自己检查 (check yourself)：\n"
                    "  1. fluent 是通顺的一句话，意思与 reference 完全相同（请一位读者看看）；\n"
                    "  2. garbage 读起来确实不通或意思错了，不只是换了标点；\n"
                    "  3. 用一句话写下：为什么 BLEU 给 fluent 低分、给 garbage 高分。"),
)

QUESTIONS: tuple[Question, ...] = (
    question("`score_stats` 给一句话打分时，需要什么输入？",
       ("候选译文和参考译文的原文：它要先分词、再数 n 元语法", False,
        "分词和计数在提取 (extract) 那一步已经做完，`score_stats` 的参数里没有任何文本。"),
       ("每条参考的全部 n 元语法列表", False,
        "截断后的匹配数已经在 m_n 里，不需要再看 n 元语法。"),
       ("候选的计数和每条参考的长度列表：它在打分时才选 r", False,
        "r 在提取统计量时就选好了，`BleuStats` 只存一个 `ref_len`；`score_stats` 不再看参考。"),
       ("只要一条计数记录 `BleuStats` 和选项", True,
        "这就是充分统计量：分数是这条记录的纯函数，随手写一条 BleuStats(6, 6, (6, 5, 4, 2), (6, 5, 4, 3)) 也得 0.9036。")),
    question("给一句候选再加一条参考译文（其他都不变），句子级 BLEU 会怎样？",
       ("可能升、不变，也可能降：新参考可能改变 r，使 BP 变小", True,
        "例如候选 “a b c d e f”、参考 “a b c d”：50.81；再加一条无关的 7 个词元的参考，r 变成 7，BP 变成 0.8465，分数降到 43.01（sacrebleu 同样如此）。"),
       ("只会升或不变：参考越多，能匹配的 n 元语法越多，精确率只会不降", False,
        "精确率确实只会不降，但 BP 取决于最接近 c 的参考长度，新参考可能让它变差。"),
       ("只会降：参考越多，分母越大", False,
        "分母 t_n 只由候选决定，和参考条数无关。"),
       ("不变：BLEU 只用与候选最接近的那一条参考", False,
        "截断上限取所有参考中的最大次数；只有 r 取最接近的那一条的长度。")),
    question("参考 “The cat is sitting on the mat”（7 个词元）和 “The cat is on mat”（5 个词元）与 6 个词元的候选平局。交换两条参考的顺序，哪个分数会变？",
       ("两者都会变：两个规则都要看参考的顺序", False,
        "“平局取较短的”与顺序无关，所以 sacrebleu、NLTK 的分数不随顺序变。"),
       ("两者都不变", False,
        "种子代码的 r 取决于哪条参考先列出，分数 0.5986 和 0.7071 不同。"),
       ("只有种子代码的：0.5986 变成 0.7071", True,
        "先列出 7 时种子取 r = 7，BP ≈ 0.8465；先列出 5 时取 r = 5，BP = 1。较短规则总是取 5。"),
       ("只有 sacrebleu 的会变：它取较短的那条", False,
        "正相反：随顺序变化的是种子代码的规则。")),
)

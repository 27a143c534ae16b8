"""The exercise machinery: what an exercise is, and how one answer is judged.

An :class:`Exercise` (defined with its cases in ``bleu_lesson/teaching/chapters/``) has an
id (``"3.1"``: chapter 3, exercise 1), a few test inputs and the library function that is
the reference answer (or a ``judge`` for questions with no single answer). ``run_exercise``
runs a learner's answer on every input and returns a :class:`CheckResult`; ``verdict``
judges one value, ``same`` compares two. This module sits below the chapters (they build
their exercises with it); the registry and the learner's ``check`` and ``progress`` live
above them, in ``bleu_lesson.teaching.exercises``.

>>> ex = Exercise("9.9", "double my_double", lambda x: 2 * x, ((1,), (2,)))
>>> run_exercise(ex, lambda x: x + x).status, run_exercise(ex, lambda x: x * x).status
('pass', 'fail')
"""

from __future__ import annotations

import copy
import functools
import math
import numbers
import random
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

__all__ = ["STATUSES", "CheckResult", "Exercise", "same", "overlap", "shown_input", "verdict",
           "run_exercise", "float_ratio_ties", "set_order_puts_first"]

STATUSES = ("pass", "self-assessed", "fail", "not-done", "error")


@dataclass(frozen=True)
class CheckResult:
    exercise: str
    status: str
    detail: str = ""
    hint: str = ""  # the exercise's hint, shown under a failure

    def message(self) -> str:
        title = f"练习 {self.exercise}"
        if self.status == "pass":
            return f"✔ {title} 通过 (passed): {self.detail}"
        if self.status == "self-assessed":
            return (f"◎ {title} 数值条件满足，程序判不了的部分请自评 (the numbers hold; "
                    f"assess the rest yourself):\n{self.detail}")
        if self.status == "not-done":
            return f"… {title} 还没有完成 (not done yet): 在标记处写代码，然后重新运行这个单元格。"
        head = "未通过 (failed)" if self.status == "fail" else "运行出错 (error)"
        hint = f"\n  提示 (hint): {self.hint}" if self.hint and self.status == "fail" else ""
        return f"✘ {title} {head}\n{self.detail}{hint}"


@dataclass(frozen=True)
class Exercise:
    """One exercise: inputs, the reference answer, and how to compare values.

    ``judge(case, got) -> (ok, detail)``, when given, decides instead of comparing with
    ``reference(*case)``: for analytic exercises with no single right value. It is
    trusted code and runs outside the learner's kernel when a class is marked. Its
    ``detail`` describes the value that came back; ``extra["expect"]`` says what is
    required, and a failure shows both (期望 / 得到).
    ``forbidden`` names the library functions (``"bleu_lesson.core.brevity.brevity_penalty"``)
    the exercise asks the learner to write: they are unavailable while the answer is
    judged by ``bleu-lesson check``. ``generate(rng)`` draws extra hidden cases.
    ``building_blocks`` names the ``bleu_lesson.core`` modules the answer may use there:
    the check runs it in a world where nothing else of the library exists.
    """

    id: str
    title: str
    reference: Callable[..., Any] | None
    cases: tuple[tuple, ...]
    kind: str = "function"          # "function": answer(*case); "value": answer itself
    tolerance: float | None = None  # compare floats with this relative tolerance (same)
    hint: str = ""
    extra: dict = field(default_factory=dict)
    judge: Callable[[tuple, Any], tuple[bool, str]] | None = None
    forbidden: tuple[str, ...] = ()
    generate: Callable[[random.Random], Sequence[tuple]] | None = None
    #: the modules of ``bleu_lesson.core`` the answer may use when ``bleu-lesson check``
    #: judges it (earlier chapters' functions); everything else is absent there
    building_blocks: tuple[str, ...] = ()
    #: the third-party libraries the exercise gives the learner (8.2: ``"sacrebleu"``,
    #: which its answer runs to re-score): importable there too, in this exercise's world only
    libraries: tuple[str, ...] = ()
    #: what a program cannot judge (fluency, correctness): when given, an answer whose
    #: numbers hold is "self-assessed" against this rubric, never "pass"
    rubric: str = ""

    def __post_init__(self) -> None:
        if self.reference is None and self.judge is None:
            raise ValueError(f"exercise {self.id}: give a reference or a judge")
        if self.kind not in ("function", "value"):
            raise ValueError(f"exercise {self.id}: kind must be 'function' or 'value'")

    @property
    def chapter(self) -> str:
        return f"{int(self.id.split('.')[0]):02d}"

    @property
    def answer_name(self) -> str:
        """The name the learner's answer has in the notebook (``my_…``, last in the title)."""
        return self.title.split()[-1]

    def hidden_cases(self, rng: random.Random) -> list[tuple]:
        """Extra cases drawn with ``rng`` (none without ``generate``)."""
        return [tuple(c) for c in self.generate(rng)] if self.generate else []


#: Fillers that show as nothing (Hangul fillers, the Mongolian vowel separator).
_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u180e")


@functools.cache
def _lookalike_table() -> dict[int, str]:
    """Each look-alike character -> the character its group folds to, as
    ``tools/make_lookalikes.py`` wrote them into ``lookalikes.txt``: Unicode's confusables
    (UTS #39) and the tool's hand-joined Latin look-alikes. Read on first use:
    ``import bleu_lesson`` does not read the file."""
    text = (resources.files("bleu_lesson.teaching") / "lookalikes.txt").read_text("utf-8")
    return {int(code, 16): chr(int(target, 16))
            for code, target in (line.split() for line in text.splitlines()
                                 if line and not line.startswith("#"))}


def fold_lookalikes(text: str) -> str:
    """``text`` as a reader sees it, lowercased, for telling a copy of the chapter's text:
    the same for two texts a reader cannot tell apart. NFKC (full-width letters,
    compatibility ideographs such as U+F98E for 年, Kangxi radicals, mathematical letters),
    no marks or invisible characters (combining marks, variation selectors, format
    characters, Hangul fillers), each character that Unicode lists as confusable with
    another (UTS #39: Cyrillic а, Cherokee Ꭲ, Lisu ꓔ, the digit 0 and the letter O ...) as
    the one its group folds to (before NFKC and after it, since NFKC takes some look-alikes
    elsewhere: the lunate sigma ϲ to ς), then lowercase.

    >>> fold_lookalikes("Th\u0435 c\u0430t \uff49s")
    'the cat is'
    >>> hidden = fold_lookalikes("\u6211\u115f\u5728\u200b2022\uf98e\u2f42")
    >>> hidden == fold_lookalikes("我在2022年文")
    True
    >>> fold_lookalikes("T\u034fhe c\u0251t \u0131s \u0585n t\u029ce \u1d0dat\ufe00")
    'the cat is on the mat'
    >>> fold_lookalikes("\u13a2he c\u0430t \U0001d422s \ua4d4he")  # Cherokee T, bold i, Lisu T
    'the cat is the'
    >>> fold_lookalikes("BLEU 2021") == fold_lookalikes("B\u216cEU 2O2l")  # Roman fifty, O, l
    True
    """
    # decomposed, so every mark stands alone; then no marks (Mn, Me: combining marks, the
    # grapheme joiner, variation selectors), no format characters, no fillers
    table = _lookalike_table()
    text = unicodedata.normalize("NFKD", text.translate(table))
    text = "".join(ch for ch in text if ch not in _FILLERS
                   and unicodedata.category(ch) not in ("Mn", "Me", "Cf"))
    return unicodedata.normalize("NFKC", text).translate(table).lower()


def overlap(a: Sequence[str], b: Sequence[str]) -> int:
    """How many words ``a`` and ``b`` have in common, in any order, each counted as often as
    both hold it: the size of the multiset intersection. Telling a copy of the chapter's
    text, 2 · overlap / (len(a) + len(b)) is difflib's ratio without the order, so the
    chapter's words reversed or shuffled are as near as the words themselves.

    >>> overlap("the cat is on the mat".split(), "mat the on is cat the".split())
    6
    >>> overlap("a a b".split(), "a b b c".split())
    2
    """
    return sum((Counter(a) & Counter(b)).values())


def float_ratio_ties(d: int, lengths: range) -> list[int]:
    """The lengths c in ``lengths`` where c - d and c + d, equally close to c, are not
    equally close in float arithmetic measured as a ratio: ``abs(1 - (c + d) / c)`` comes
    out below ``abs(1 - (c - d) / c)``, so "closest by ratio" picks the longer one.

    >>> float_ratio_ties(1, range(2, 20))
    [3, 7, 11, 12, 19]
    """
    return [c for c in lengths if c > d and abs(1 - (c + d) / c) < abs(1 - (c - d) / c)]


def set_order_puts_first(values: list[int], first: int, second: int) -> bool:
    """Whether ``set(values)``, iterated, meets ``first`` before ``second``: "the closest
    of ``set(lengths)``" keeps whichever tied length the set lists first, and a small
    int's place in a set is its value modulo the table size, not its size or its place
    in ``values``.

    >>> set_order_puts_first([3940, 3933, 3927, 3650], 3933, 3927)
    True
    >>> set_order_puts_first([6, 8], 8, 6), set_order_puts_first([8, 10], 10, 8)
    (True, False)
    """
    order = list(set(values))
    return order.index(first) < order.index(second)


def _real(value: Any) -> bool:
    """A real number that is not a bool: int, float, and numpy's scalars (np.float64, np.int64)
    or a Fraction, which a learner's code may return as well (a Python float always counts,
    inf and nan included; other kinds only when finite)."""
    if type(value) is float:
        return True
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        return False
    try:  # an int past float's range (10**400) is no float: simply not equal
        return math.isfinite(float(value))
    except (ArithmeticError, ValueError, TypeError):
        return False


def as_sent(x: Any, depth: int = 0) -> Any:
    """A value as ``bleu-lesson check`` receives it from a judging world: a subclass of a
    plain type as its base value (numpy's ``str_`` as a ``str``, a ``frozenset`` or a set
    subclass as a ``set``), another integer type as its ``int``, another real type as its
    ``float``; anything else unchanged (it fails there as here). The notebook's check judges
    this, so an answer passes in the notebook exactly when it passes ``check``.

    >>> as_sent((frozenset({"a"}), [True, 2.5]))
    ({'a'}, [True, 2.5])
    """
    t = type(x)
    if x is None or t in (bool, int, float, str) or depth > 100:
        return x
    if isinstance(x, bool):
        return bool(x)
    if isinstance(x, int):
        return int.__int__(x)
    if isinstance(x, float):
        return float.__float__(x)
    if isinstance(x, str):
        return str.__str__(x)
    if isinstance(x, list):
        return [as_sent(v, depth + 1) for v in list.__iter__(x)]
    if isinstance(x, tuple):
        return tuple(as_sent(v, depth + 1) for v in tuple.__iter__(x))
    if isinstance(x, dict):
        return {as_sent(k, depth + 1): as_sent(v, depth + 1) for k, v in dict.items(x)}
    if isinstance(x, set | frozenset):
        items = set.__iter__(x) if isinstance(x, set) else frozenset.__iter__(x)
        return {as_sent(v, depth + 1) for v in items}
    if isinstance(x, numbers.Rational) and not isinstance(x, numbers.Integral):
        return x  # a Fraction stays exact
    try:
        if isinstance(x, numbers.Integral):
            return int.__int__(int(x))
        if isinstance(x, numbers.Real):
            return float.__float__(float(x))
    except Exception:  # noqa: BLE001 - a number type that cannot say its value: unchanged
        return x
    return x


#: Below this, two numbers are alike whatever ``tolerance`` says: 0 and exp(1 - 710) are
#: the same brevity penalty computed two ways (``exp(1) / exp(r / c)`` overflows to 0)
TINY = 1e-300


def same(expected: Any, got: Any, tolerance: float | None) -> bool:
    """Whether ``got`` equals ``expected``: same container types (a tuple is not a list),
    numbers within ``tolerance`` of ``expected``'s size when given (``TINY`` at least; an
    expected 0 exactly), never a bool for a number.

    >>> same([("a", "b")], [["a", "b"]], None)
    False
    >>> same(0.5, 0.5 + 1e-12, 1e-9), same(1, True, None), same(0.0, 1e-77, 1e-9)
    (True, False, False)
    >>> from fractions import Fraction
    >>> same(0.5, Fraction(1, 2), 1e-9), same(2, Fraction(4, 2), None)
    (True, True)
    >>> same(1.0, 10**400, 1e-9), same(0.5, -10**4000, None), same(3, 3, None)
    (False, False, True)
    >>> same(8.3e-07, 0.0, 1e-9), same(8.3e-07, 8.3e-07 * (1 + 1e-12), 1e-9)
    (False, True)
    """
    if isinstance(expected, bool) or isinstance(got, bool):
        return type(got) is type(expected) and got == expected
    if tolerance is not None and type(expected) in (int, float):
        if expected == 0:  # a zero is exact: 8e-78 (NLTK's method0) is not "no match"
            return _real(got) and float(got) == 0
        # relative: a brevity penalty of exp(-14) = 8e-7 flushed to 0 is wrong, though
        # within 1e-9 of it (issue 20, round 18); below 1e-300 only the float's underflow
        return _real(got) and math.isclose(float(got), expected, rel_tol=tolerance,
                                           abs_tol=TINY)
    if type(expected) in (tuple, list):
        return type(got) is type(expected) and len(expected) == len(got) and all(
            same(e, g, tolerance) for e, g in zip(expected, got, strict=True))
    if type(expected) is dict:
        return type(got) is dict and expected.keys() == got.keys() and all(
            same(v, got[k], tolerance) for k, v in expected.items())
    if type(expected) in (int, float, str, type(None)):
        if type(expected) in (int, float) and _real(got):
            return float(got) == expected
        return type(got) is type(expected) and got == expected
    return type(got) is type(expected) and got == expected


def _show(value: Any) -> str:
    try:
        text = repr(value)
    except Exception as exc:  # a learner's object whose repr raises
        text = f"<{type(value).__name__}: repr raised {type(exc).__name__}>"
    return text if len(text) <= 300 else text[:297] + "..."


def shown_input(case: tuple) -> str:
    return ", ".join(_show(a) for a in case)


#: A constructed answer (the exercises with a ``judge``) is a few sentences: no string in it
#: may be longer than this, nor all of them together longer than ``MAX_JUDGED_TOTAL``, so
#: no answer can keep a judge (tokenizing, aligning) busy for long.
MAX_JUDGED_TEXT = 2_000
MAX_JUDGED_TOTAL = 20_000


def _texts(value: Any, depth: int = 0) -> list[int]:
    """The lengths of the strings in a plain value (lists, tuples, dicts, sets)."""
    if isinstance(value, str):
        return [len(value)]
    if depth > 50:
        return []
    if isinstance(value, dict):
        return [n for k, v in value.items() for x in (k, v) for n in _texts(x, depth + 1)]
    if isinstance(value, list | tuple | set | frozenset):
        return [n for x in value for n in _texts(x, depth + 1)]
    return []


def verdict(ex: Exercise, case: tuple, got: Any, after: tuple | None = None) -> tuple[bool, str]:
    """Judge one value: ``(ok, detail)``. ``after`` is the input as it was after the call:
    an answer that changed its input fails."""
    where = (f"  输入 (input): {shown_input(case) or '(无 / none)'}\n"
             if ex.kind == "function" else "")
    try:  # judged as check judges it: a str subclass as its str, a frozenset as a set...
        got = as_sent(got)
    except Exception:  # noqa: BLE001 - an unhashable member of a set or key (a dict
        pass  # subclass's odd key): judged as it is, and fails as in check
    if after is not None and not same(list(case), list(after), None):
        return False, (f"{where}  你的答案改动了它的输入 (your answer changed its input); "
                       f"之后 (after): {shown_input(after)}")
    if ex.judge is not None:
        sizes = _texts(got)
        if sizes and (max(sizes) > MAX_JUDGED_TEXT or sum(sizes) > MAX_JUDGED_TOTAL):
            return False, (f"{where}  答案太长 (answer too long): 每个字符串最多 "
                           f"{MAX_JUDGED_TEXT} 个字符，合计最多 {MAX_JUDGED_TOTAL} 个 "
                           f"(got a string of {max(sizes)}, {sum(sizes)} in all)")
        try:
            ok, detail = ex.judge(case, got)
        except Exception as exc:  # a malformed value must not crash the judge (or checker)
            ok, detail = False, f"{_show(got)} ({type(exc).__name__}: {exc})"
        if ok:
            return True, ""
        expect = ex.extra.get("expect", "")
        if expect:  # the judge's detail says what came back; ``expect`` what was wanted
            return False, f"{where}  期望 (expected): {expect}\n  得到 (got): {detail}"
        return False, f"{where}  {detail}"
    assert ex.reference is not None
    expected = ex.reference(*case)
    if same(expected, got, ex.tolerance):
        return True, ""
    if not case:  # no input (10.1): the expected value IS the answer, so it is not shown
        return False, f"{where}  得到 (got): {_show(got)}：不对 (not the right value)"
    return False, (f"{where}  期望 (expected): {_show(expected)}\n  得到 (got): {_show(got)}"
                   + _type_note(expected, got))


def _type_note(expected: Any, got: Any) -> str:
    """A line naming both types when they differ and the values alone may not show it (a
    list for a tuple, "1" for 1); none between numbers, where a value is what counts."""
    if type(got) is type(expected) or (_real(got) and type(expected) in (int, float)):
        return ""
    return (f"\n  类型不同 (type differs): 期望 (expected) {type(expected).__name__}，"
            f"得到 (got) {type(got).__name__}")


def _not_done(value: Any) -> bool:
    return value is ... or value is NotImplemented


def run_exercise(ex: Exercise, answer: Any, rng: random.Random | None = None) -> CheckResult:
    """Check ``answer`` on exercise ``ex``'s fixed cases, then on random cases drawn with
    ``rng`` (a fresh one by default), without printing. The random cases are the kind
    ``bleu-lesson check`` draws, so an answer right only on the inputs shown fails here
    too, and a right answer passes both the first time."""
    if _not_done(answer):
        return CheckResult(ex.id, "not-done")
    if ex.kind == "function" and not callable(answer):
        return CheckResult(ex.id, "fail", f"  需要一个函数 (expected a function), 得到 (got): "
                                          f"{_show(answer)}", ex.hint)
    fixed = len(ex.cases)
    cases = list(ex.cases)
    if ex.kind == "function":
        cases += ex.hidden_cases(rng or random.Random())
    for k, case in enumerate(cases):
        label = "\n  (一个随机用例 / a random case)" if k >= fixed else ""
        if ex.kind == "function":
            args = copy.deepcopy(case)
            try:
                got = answer(*args)
            except NotImplementedError:
                return CheckResult(ex.id, "not-done")
            except Exception as exc:  # the learner's code: report it, never crash
                return CheckResult(ex.id, "error", f"  输入 (input): {shown_input(case)}\n"
                                                   f"  {type(exc).__name__}: {exc}{label}")
            after: tuple | None = tuple(args)
        else:
            got, after = answer, None
        if _not_done(got):
            return CheckResult(ex.id, "not-done")
        ok, detail = verdict(ex, case, got, after)
        if not ok:
            return CheckResult(ex.id, "fail", detail + label, ex.hint)
    if ex.rubric:
        return CheckResult(ex.id, "self-assessed", ex.rubric)
    detail = (f"{fixed}/{fixed} 个测试用例" if ex.kind == "function" and ex.cases != ((),)
              else "答案正确")
    return CheckResult(ex.id, "pass", detail)

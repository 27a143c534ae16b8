"""What a chapter shows is the plain taught code.

Every ``show_source(X)`` in the notebooks (found by parsing them, as test_taught_code
does) is parsed with ``ast``; its body must hold no validation boilerplate and no other
tool's quirk: no ``raise``, no ``assert``, no ``isinstance``/``issubclass``/``type(...)``
check, no call to a ``_check*``/``_validate*`` helper, no parameter that only serves
another tool (``zeros``: NLTK's zero-skipping). What a function refuses is said in one
line above it, ``@checks(...)`` (bleu_lesson/core/_validate.py), and the second half of
this file proves that every public entry still refuses bad input with a message that
names the argument.
"""

from __future__ import annotations

import ast
import inspect
import math
import re
import textwrap

import pytest
from test_taught_code import TARGETS, qualified

# a parameter whose only job is to mimic another tool
FOREIGN_PARAMETERS = {"zeros"}
# decorators a shown definition may carry (each must fit on one line)
DECORATORS = {"checks", "dataclass", "property", "staticmethod", "classmethod"}
# shown code whose raise IS the lesson: none today
ALLOWED: dict[str, str] = {}


def _definition(source: str) -> ast.FunctionDef | ast.ClassDef:
    tree = ast.parse(textwrap.dedent(source))
    node = tree.body[0]
    assert isinstance(node, ast.FunctionDef | ast.ClassDef)
    return node


def _body(node: ast.FunctionDef | ast.ClassDef) -> list[ast.stmt]:
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    return body


def _called_name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def noise(source: str) -> list[str]:
    """What in the shown definition is not the taught computation."""
    node = _definition(source)
    found = []
    for deco in node.decorator_list:
        name = _called_name(deco) if isinstance(deco, ast.Call) else getattr(deco, "id", "")
        if name not in DECORATORS:
            found.append(f"decorator @{ast.unparse(deco)}")
        if deco.lineno != deco.end_lineno:
            found.append(f"decorator @{name} spans several lines")
    functions = [node] if isinstance(node, ast.FunctionDef) else [
        n for n in node.body if isinstance(n, ast.FunctionDef)]
    for fn in functions:
        args = fn.args
        for arg in args.posonlyargs + args.args + args.kwonlyargs:
            if arg.arg in FOREIGN_PARAMETERS:
                found.append(f"parameter {arg.arg!r} of {fn.name} serves another tool")
    for stmt in _body(node):
        for sub in ast.walk(stmt):
            if isinstance(sub, ast.Raise):
                found.append(f"line {sub.lineno}: raise")
            elif isinstance(sub, ast.Assert):
                found.append(f"line {sub.lineno}: assert")
            elif isinstance(sub, ast.Call):
                name = _called_name(sub)
                if name in ("isinstance", "issubclass"):
                    found.append(f"line {sub.lineno}: {name} check")
                elif name == "type" and len(sub.args) == 1:
                    found.append(f"line {sub.lineno}: type(...) check")
                elif name.startswith(("_check", "_validate", "check_", "validate_")):
                    found.append(f"line {sub.lineno}: call to {name}")
            elif isinstance(sub, ast.Name) and sub.id in FOREIGN_PARAMETERS:
                found.append(f"line {sub.lineno}: uses {sub.id}")
    return found


# --- the detector can fail --------------------------------------------------------------

@pytest.mark.parametrize(("source", "expected"), [
    ("def f(n):\n    if n < 1:\n        raise ValueError('n')\n    return n\n", "raise"),
    ("def f(x):\n    assert x\n    return x\n", "assert"),
    ("def f(x):\n    return isinstance(x, int) and x\n", "isinstance"),
    ("def f(x):\n    if type(x) is str:\n        return x\n", "type(...)"),
    ("def f(n):\n    _check_n(n)\n    return n\n", "_check_n"),
    ("def f(s):\n    s = core._validate_stats(s)\n    return s\n", "_validate_stats"),
    ("def mean(p, *, zeros='zero'):\n    return p\n", "zeros"),
    ("@functools.lru_cache\ndef f(x):\n    return x\n", "decorator"),
    ("@checks(n=positive_int,\n        m=positive_int)\ndef f(n, m):\n    return n\n",
     "spans several lines"),
    ("class C:\n    def m(self, x):\n        raise TypeError(x)\n", "raise"),
])
def test_the_detector_finds_boilerplate(source, expected):
    assert any(expected in item for item in noise(source)), noise(source)


def test_the_detector_passes_plain_code_and_a_one_line_checks():
    source = ('@checks(n=positive_int)\ndef ngrams(tokens, n):\n    """Doc."""\n'
              "    return [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]\n")
    assert noise(source) == []


# --- every shown definition is plain ------------------------------------------------------

UNIQUE = {qualified(obj): obj for _, _, obj in TARGETS}


def test_the_notebooks_show_code():
    assert len(UNIQUE) >= 20   # 26 show_source calls over chapters 01-10 when this was written


@pytest.mark.parametrize("name", sorted(UNIQUE))
def test_shown_code_is_plain(name):
    found = noise(inspect.getsource(UNIQUE[name]))
    if name in ALLOWED:
        assert found, f"{name} is allowlisted ({ALLOWED[name]}) but is plain: drop it"
        return
    assert not found, f"{name}, as a chapter shows it: {found}"


# --- and every public entry still refuses bad input, naming the argument -------------------

def _bad_calls():
    from bleu_lesson.analysis import variants
    from bleu_lesson.analysis.agreement import concordance, kendall_tau, pairwise_accuracy
    from bleu_lesson.analysis.significance import (
        bootstrap_ci,
        holm,
        paired_bootstrap,
        paired_p_value,
    )
    from bleu_lesson.core import seed
    from bleu_lesson.core.bleu import BleuOptions, BleuScorer, geometric_mean, score_stats
    from bleu_lesson.core.brevity import brevity_penalty, closest_ref_length
    from bleu_lesson.core.clipping import clipped_counts, clipping_table, max_reference_counts
    from bleu_lesson.core.ngrams import ngram_counts, ngrams
    from bleu_lesson.core.stats import BleuStats

    four = BleuStats(6, 7, (6, 4, 2, 0), (6, 5, 4, 3))
    m3 = {"a": 1.0, "b": 2.0, "c": 3.0}
    return [
        ("ngrams n=0", lambda: ngrams(["a"], 0), ValueError, r"^n must be at least 1"),
        ("ngrams n=1.0", lambda: ngrams(["a"], 1.0), TypeError, r"^n must be an int"),
        ("ngram_counts n=-1", lambda: ngram_counts(["a"], -1), ValueError, r"^n must be"),
        ("max_reference_counts n=0", lambda: max_reference_counts([["a"]], 0), ValueError,
         r"^n must be"),
        ("clipped_counts n=0", lambda: clipped_counts(["a"], [["a"]], 0), ValueError,
         r"^n must be"),
        ("clipping_table n=True", lambda: clipping_table(["a"], [["a"]], True), TypeError,
         r"^n must be an int"),
        ("brevity_penalty hyp_len<0", lambda: brevity_penalty(-1, 6), ValueError,
         r"^hyp_len must be non-negative"),
        ("brevity_penalty ref_len<0", lambda: brevity_penalty(1, ref_len=-2), ValueError,
         r"^ref_len must be non-negative"),
        ("brevity_penalty hyp_len str", lambda: brevity_penalty("3", 4), TypeError,
         r"^hyp_len must be a non-negative number"),
        ("closest_ref_length no lengths", lambda: closest_ref_length(3, []), ValueError,
         r"^ref_lens must not be empty"),
        ("closest_ref_length tie", lambda: closest_ref_length(3, [3], tie="last"), ValueError,
         r"^tie must be one of 'shorter', 'first', got 'last'"),
        ("geometric_mean nothing", lambda: geometric_mean([]), ValueError,
         r"^precisions must not be empty"),
        ("geometric_mean orders=0", lambda: geometric_mean([0.5], orders=0), ValueError,
         r"^orders must be at least 1"),
        ("score_stats not stats", lambda: score_stats((6, 7)), TypeError,
         r"^stats must be a BleuStats"),
        ("score_stats too few orders",
         lambda: score_stats(four, BleuOptions(smoothing="method5")), ValueError,
         r"^stats count 4 orders, the options need 5"),
        ("score_stats options", lambda: score_stats(four, {"smoothing": "exp"}), TypeError,
         r"^options must be a BleuOptions"),
        ("BleuScorer.score one str", lambda: BleuScorer([["a"]]).score("a"), TypeError,
         r"^candidates must be a list of strings"),
        ("seed.tokenize", lambda: seed.tokenize(b"the cat"), TypeError,
         r"^text must be a str"),
        ("seed.compute_bleu refs", lambda: seed.compute_bleu("a", []), ValueError,
         r"at least one reference"),
        ("seed.compute_bleu max_n", lambda: seed.compute_bleu("a", ["a"], 0), ValueError,
         r"^max_n must be at least 1"),
        ("variants.score name", lambda: variants.score("bleu", "a", ["a"]), ValueError,
         r"^name must name a variant"),
        ("holm alpha", lambda: holm({"a": 0.01}, alpha=5), ValueError,
         r"^alpha must be between 0 and 1"),
        ("paired_p_value none", lambda: paired_p_value([], [], 0.1), ValueError,
         r"^base_scores must not be empty"),
        ("bootstrap_ci empty", lambda: bootstrap_ci([], [], n_samples=5), ValueError,
         r"^candidates must not be empty"),
        ("bootstrap_ci n_samples", lambda: bootstrap_ci(["a"], [["a"]], n_samples=0),
         ValueError, r"^n_samples must be at least 1"),
        ("bootstrap_ci seed", lambda: bootstrap_ci(["a"], [["a"]], n_samples=5, seed=-1),
         ValueError, r"^seed must be a non-negative int or None"),
        ("paired_bootstrap n_samples",
         lambda: paired_bootstrap(["a"], ["a"], [["a"]], n_samples=2.5), TypeError,
         r"^n_samples must be an int"),
        ("concordance one system", lambda: concordance({"a": 1}, {"a": 1}), ValueError,
         r"^metric and human must score at least two systems"),
        ("kendall_tau variant", lambda: kendall_tau(m3, m3, "c"), ValueError,
         r"^variant must be one of 'like', 'a', 'b', got 'c'"),
        ("kendall_tau not a dict", lambda: kendall_tau([1, 2], [1, 2]), TypeError,
         r"^metric must be a dict"),
        ("kendall_tau b constant",
         lambda: kendall_tau(m3, dict.fromkeys(m3, 0.0), "b"), ValueError,
         r"metric and human scores that are not all equal"),
        ("kendall_tau like all tied",
         lambda: kendall_tau({"a": 1, "b": 1, "c": 1}, m3), ValueError,
         r"every pair of metric and human scores is tied"),
        ("pairwise_accuracy people tie",
         lambda: pairwise_accuracy(m3, dict.fromkeys(m3, 0.0)), ValueError,
         r"human scores tie every pair"),
    ]


BAD = _bad_calls()


@pytest.mark.parametrize(("call", "error", "message"), [row[1:] for row in BAD],
                         ids=[row[0] for row in BAD])
def test_public_entry_refuses_bad_input_naming_the_argument(call, error, message):
    with pytest.raises(error) as caught:
        call()
    assert re.search(message, str(caught.value)), str(caught.value)


def test_the_checks_line_keeps_the_taught_numbers():
    """The decorator only looks: what the checked functions return is what the formulas
    give by hand (the seed's example: BP = exp(1 - 7/6), (1·1·1·2/3) ** (1/4))."""
    from bleu_lesson.core.bleu import geometric_mean, nltk_geometric_mean
    from bleu_lesson.core.brevity import brevity_penalty, closest_ref_length
    from bleu_lesson.core.ngrams import ngrams

    assert brevity_penalty(6, 7) == pytest.approx(math.exp(1 - 7 / 6), abs=1e-15)
    assert closest_ref_length(10, [12, 8]) == 8
    assert closest_ref_length(10, [12, 8], tie="first") == 12
    assert geometric_mean([1.0, 1.0, 1.0, 2 / 3]) == pytest.approx((2 / 3) ** 0.25, abs=1e-15)
    assert geometric_mean([1.0, 0.8, 0.5, 0.0]) == 0.0
    # NLTK sums w·log p only over p > 0: (0.8 · 0.5) ** (1/4), the weights kept at 1/4
    assert nltk_geometric_mean([1.0, 0.8, 0.5, 0.0]) == pytest.approx(0.4 ** 0.25, abs=1e-15)
    assert ngrams(["a", "b", "c"], n=2) == [("a", "b"), ("b", "c")]


def test_the_judging_world_imports_the_checked_building_blocks(tmp_path):
    """An exercise's answer runs in a world holding copies of its building blocks only; a
    block's ``@checks`` line imports ``core/_validate.py``, so the world must hold it too
    (else every answer there fails at import, right or wrong)."""
    import subprocess
    import sys

    from bleu_lesson.grading.world import build_world
    from bleu_lesson.teaching.exercises import EXERCISES

    blocks = sorted({b for ex in EXERCISES.values() for b in ex.building_blocks})
    assert {"ngrams", "brevity", "clipping"} <= set(blocks)
    world = build_world(blocks, tmp_path)
    code = ("import sys; sys.path.insert(0, '.'); import bleu_lesson as b; "
            "print(b.brevity_penalty(4, 5), b.ngrams(['a', 'b'], 2))\n"
            "try:\n    b.ngrams(['a'], 0)\nexcept ValueError as e:\n    print(e)")
    out = subprocess.run([sys.executable, "-I", "-c", code], cwd=world, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [f"{math.exp(1 - 5 / 4)!r} [('a', 'b')]",
                                       "n must be at least 1, got 0"]

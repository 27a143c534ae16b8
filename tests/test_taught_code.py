"""The code a chapter shows is the code that scores.

Every ``show_source(X)`` in the notebooks is found by parsing them (not from a list kept
here), and ``X`` is resolved with the notebook's own ``bleu_lesson`` imports. For each
target two things are checked, with the standard-library engine:

1. *on the path*: while the course computes scores (``sentence_bleu``, ``corpus_bleu``,
   ``BleuScorer(engine="python").score``, the tool presets), a profiler sees the target's
   code run;
2. *a planted bug shows*: the target is replaced, in every module and class that refers
   to it, by a wrapper that perturbs its result (one token dropped, a count off by one,
   a float halved…), and at least one of those scores changes.

The seed's functions are checked the same way against the seed's ``compute_bleu`` (they
are the seed's own copy, on purpose); targets from the data and significance modules
against the course computations that use them (scoring a corpus loaded from a
``Corpus``, bootstrap intervals). The pure display helpers (``clipping_table`` and its
row type) must be built from the same functions as the score: a bug planted in those
functions shows in the table too.
"""

from __future__ import annotations

import ast
import collections
import dataclasses
import importlib
import inspect
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))

# the pure display helpers: not on the scoring path, but built from its functions
DISPLAY = {"bleu_lesson.core.clipping.clipping_table", "bleu_lesson.core.clipping.ClippedNGram"}
# the modules whose shown code must be on the path of sentence_bleu / corpus_bleu / score
SCORING_MODULES = {
    "bleu_lesson.core.bleu", "bleu_lesson.core.brevity", "bleu_lesson.core.clipping",
    "bleu_lesson.core.ngrams", "bleu_lesson.core.smoothing", "bleu_lesson.core.stats",
    "bleu_lesson.core.tokenizers", "bleu_lesson.analysis.variants",
    "bleu_lesson.core.engines.python",
}


def _mod(name: str):
    return importlib.import_module(name)


# --- finding the targets --------------------------------------------------------------

def _code_cells(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    out = []
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        src = "".join(cell["source"])
        out.append("\n".join(line for line in src.splitlines()
                             if not line.lstrip().startswith(("%", "!"))))
    return out


def show_source_targets() -> list[tuple[str, str, object]]:
    """``(notebook, expression, object)`` for every ``show_source(expression)``."""
    found = []
    for path in NOTEBOOKS:
        namespace: dict = {}
        for src in _code_cells(path):
            try:
                tree = ast.parse(src)
            except SyntaxError:
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                        "bleu_lesson"):
                    exec(compile(ast.Module([node], []), str(path), "exec"), namespace)
                elif isinstance(node, ast.Import) and any(
                        a.name.startswith("bleu_lesson") for a in node.names):
                    exec(compile(ast.Module([node], []), str(path), "exec"), namespace)
            for node in ast.walk(tree):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id == "show_source" and node.args):
                    expr = ast.unparse(node.args[0])
                    found.append((path.stem, expr, eval(expr, namespace)))
    return found


TARGETS = show_source_targets()


def qualified(obj: object) -> str:
    return f"{obj.__module__}.{obj.__qualname__}"  # type: ignore[attr-defined]


def code_of(obj: object):
    if inspect.isclass(obj):
        return obj.__init__.__code__  # type: ignore[misc]
    return obj.__code__  # type: ignore[attr-defined]


def unique_targets() -> list[object]:
    seen: dict[str, object] = {}
    for _, _, obj in TARGETS:
        seen.setdefault(qualified(obj), obj)
    return list(seen.values())


# --- the computations that must reach them --------------------------------------------

SEED_CAND = "The cat is on the mat"
SEED_REFS = ["The cat is sitting on the mat", "A cat is on the mat", "The cat lies on the mat"]
SHORT_CAND = "the cat sat on mat"   # shorter than every reference: BP < 1, r matters
CORPUS = (["the cat is on the mat", "a dog runs in the park", "it is a guide to action"],
          [["the cat sat on the mat", "there is a cat on the mat"],
           ["the dog runs in a park today", "a dog is running in the park"],
           ["it is a guide to action that ensures", "it is the guiding principle"]])


def _numbers(r) -> tuple:
    """Everything a result reports (sacrebleu's line holds score, precisions, BP, lengths)."""
    return (r.score, r.precisions, r.matches, r.totals, r.bp, r.hyp_len, r.ref_len, str(r))


def scoring_probes() -> list[float | tuple]:
    bleu = _mod("bleu_lesson.core.bleu")
    variants = _mod("bleu_lesson.analysis.variants")
    from bleu_lesson.data.datasets import PAPINENI_THE, PAPINENI_THE_REFERENCES

    out: list[float | tuple] = []
    for smoothing in ("none", "exp", "method1"):
        for cand in (SEED_CAND, SHORT_CAND):
            out.append(_numbers(bleu.sentence_bleu(cand, SEED_REFS, tokenizer="none",
                                                   lowercase=True, smoothing=smoothing)))
    # a repeated word: clipping at the references' maximum count matters (2 of 7)
    out.append(_numbers(bleu.sentence_bleu(PAPINENI_THE, PAPINENI_THE_REFERENCES,
                                           tokenizer="none")))
    out.append(_numbers(bleu.sentence_bleu("The cat sat on the mat.",
                                           ["The cat is on the mat."])))  # 13a
    out.append(_numbers(bleu.corpus_bleu(*CORPUS, tokenizer="none", smoothing="none")))
    scorer = bleu.BleuScorer(CORPUS[1], engine="python", tokenizer="13a")
    out.append(_numbers(scorer.score(CORPUS[0])))
    for name in variants.VARIANTS:
        out.append(variants.score(name, SHORT_CAND, SEED_REFS))
    return out


def seed_probes() -> list[float | tuple]:
    seed = _mod("bleu_lesson.core.seed")
    out: list[float | tuple] = []
    for cand in (SEED_CAND, SHORT_CAND):
        score, details = seed.compute_bleu(cand, SEED_REFS)
        out.append((score, tuple(details["precisions"]), details["best_ref_len"]))
    return out


def course_probes() -> list[float | tuple]:
    bleu = _mod("bleu_lesson.core.bleu")
    datasets = _mod("bleu_lesson.data.datasets")
    corpus = datasets.TOY_CORPUS
    out: list[float | tuple] = []
    for which in ("both", *corpus.references):
        refs = corpus.references_for(which)
        streams = bleu.references_from_streams(*corpus.reference_streams(which))
        for hyps in corpus.systems.values():
            out.append(bleu.BleuScorer(refs, engine="python").score(list(hyps)).score)
            out.append(bleu.corpus_bleu(list(hyps), streams).score)
    if importlib.util.find_spec("numpy") is not None:
        significance = _mod("bleu_lesson.analysis.significance")
        systems = list(corpus.systems.values())
        refs = corpus.references_for("both")
        ci = significance.bootstrap_ci(list(systems[0]), refs, n_samples=30)
        out.append(dataclasses.astuple(ci))
        paired = significance.paired_bootstrap(list(systems[0]), list(systems[-1]), refs,
                                               n_samples=30)
        out.append(dataclasses.astuple(paired))
    return out


def agreement_probes() -> list[float | tuple]:
    """Chapter 10's computations: metric-human agreement and the human significance calls."""
    agreement = _mod("bleu_lesson.analysis.agreement")
    significance = _mod("bleu_lesson.analysis.significance")
    datasets = _mod("bleu_lesson.data.datasets")
    metric = {"a": 30.0, "b": 28.0, "c": 25.0, "d": 26.0}
    human = {"a": 0.30, "b": 0.10, "c": 0.20, "d": -0.10}
    out: list[float | tuple] = [agreement.kendall_tau(metric, human),
                                agreement.pairwise_accuracy(metric, human),
                                dataclasses.astuple(agreement.concordance(metric, human))]
    out.append(tuple(sorted(significance.holm({"x": 0.001, "y": 0.02, "z": 0.04}).items())))
    scores = {name: datasets.HumanScore(name, f"{name}.1", 70.0, z, z, 10, 20)
              for name, z in human.items()}
    p = {(x, y): (0.01 if human[x] > human[y] else 0.5) for x in human for y in human}
    judgments = datasets.HumanJudgments("zh-en", scores, p, {}, {}, {})
    out.append(tuple(judgments.better(x, y) for x in human for y in human))
    return out


def probes_for(obj: object) -> Callable[[], list]:
    module = obj.__module__
    if module == "bleu_lesson.core.seed":
        return seed_probes
    if module in SCORING_MODULES:
        return scoring_probes
    return lambda: scoring_probes() + course_probes() + agreement_probes()


# --- spying and planting --------------------------------------------------------------

def codes_run(fn: Callable[[], object]) -> set:
    seen = set()

    def profile(frame, event, arg):
        if event == "call":
            seen.add(frame.f_code)

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return seen


def perturb(value):
    """The same kind of value, slightly wrong."""
    from bleu_lesson.core.tokenizers import Tokenizer

    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value * 0.5 + 0.01
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, collections.Counter):
        return collections.Counter({k: c + 1 for k, c in value.items()})
    if isinstance(value, list):
        if value and all(isinstance(v, float) for v in value):
            return [perturb(v) for v in value]
        return value[:-1]
    if isinstance(value, tuple):
        return (perturb(value[0]), *value[1:]) if value else value
    if isinstance(value, Tokenizer):
        return Tokenizer(value.name, lambda text: value(text)[:-1], False)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            if isinstance(v, int | float) and not isinstance(v, bool):
                return dataclasses.replace(value, **{f.name: perturb(v)})
    raise AssertionError(f"test_taught_code cannot plant a bug in a {type(value).__name__}: "
                         "teach perturb() this type")


def plant(monkeypatch, obj: object) -> None:
    """Replace ``obj`` by a perturbing wrapper wherever bleu_lesson refers to it."""
    def wrapper(*args, **kwargs):
        return perturb(obj(*args, **kwargs))  # type: ignore[operator]

    owner_name, _, attr = obj.__qualname__.rpartition(".")  # type: ignore[attr-defined]
    if owner_name:  # a method: patch the class
        owner = _mod(obj.__module__)
        for part in owner_name.split("."):
            owner = getattr(owner, part)
        monkeypatch.setattr(owner, attr, wrapper)
        return
    for name, module in list(sys.modules.items()):
        if name == "bleu_lesson" or name.startswith("bleu_lesson."):
            for key, value in list(vars(module).items()):
                if value is obj:
                    monkeypatch.setattr(module, key, wrapper)


def outcome(fn: Callable[[], list]) -> object:
    try:
        return fn()
    except Exception as exc:  # a planted bug that crashes scoring does reach it
        return f"raised {type(exc).__name__}"


# --- the tests ------------------------------------------------------------------------

def test_the_notebooks_show_the_scoring_code():
    names = {qualified(obj) for _, _, obj in TARGETS}
    # a parser that finds nothing would make every test below vacuous
    for expected in ("bleu_lesson.core.ngrams.ngrams", "bleu_lesson.core.clipping.clipped_counts",
                     "bleu_lesson.core.brevity.closest_ref_length",
                     "bleu_lesson.core.stats.BleuStats.__add__",
                     "bleu_lesson.core.bleu.BleuScorer.score"):
        assert expected in names, sorted(names)


SCORED = [obj for obj in unique_targets() if qualified(obj) not in DISPLAY]


@pytest.mark.parametrize("target", SCORED, ids=qualified)
def test_shown_code_runs_when_a_score_is_computed(target):
    assert code_of(target) in codes_run(probes_for(target)), (
        f"{qualified(target)} is shown by a chapter but not called when scoring")


@pytest.mark.parametrize("target", SCORED, ids=qualified)
def test_a_bug_planted_in_shown_code_changes_a_score(monkeypatch, target):
    probes = probes_for(target)
    before = outcome(probes)
    assert not isinstance(before, str), before
    plant(monkeypatch, target)
    assert outcome(probes) != before, f"a bug in {qualified(target)} changes no score"


def test_every_display_helper_is_shown_by_a_chapter():
    assert DISPLAY <= {qualified(obj) for _, _, obj in TARGETS}


def _table():
    from bleu_lesson.core.seed import tokenize
    from bleu_lesson.data.datasets import PAPINENI_THE, PAPINENI_THE_REFERENCES

    clipping = _mod("bleu_lesson.core.clipping")
    cand = tokenize(PAPINENI_THE)
    refs = [tokenize(r) for r in PAPINENI_THE_REFERENCES]
    return [(r.text, r.count, r.max_ref_count, r.clipped)
            for n in (1, 2) for r in clipping.clipping_table(cand, refs, n)]


def test_the_clipping_table_is_built_from_the_scoring_functions(monkeypatch):
    clipping = _mod("bleu_lesson.core.clipping")
    ngrams = _mod("bleu_lesson.core.ngrams")
    run = codes_run(_table)
    for fn in (clipping.max_reference_counts, ngrams.ngram_counts, ngrams.ngrams,
               clipping.ClippedNGram):
        assert code_of(fn) in run, qualified(fn)
    # Papineni et al.: "the" x 7 against two references -> clipped 2 of 7
    assert sum(r[3] for r in _table() if " " not in r[0]) == 2
    before_table, before_scores = _table(), scoring_probes()
    plant(monkeypatch, clipping.max_reference_counts)
    assert _table() != before_table
    assert scoring_probes() != before_scores


def test_chapter_07_quotes_corpus_stats_as_it_is():
    """Chapter 07 quotes ``corpus_stats``'s one line in its prose (it is not a show_source,
    so nothing else would notice the quote going stale)."""
    from bleu_lesson import BleuScorer

    path = next(p for p in NOTEBOOKS if p.name.startswith("07_"))
    prose = "".join("".join(c["source"]) for c in json.loads(path.read_text("utf-8"))["cells"]
                    if c["cell_type"] == "markdown")
    quoted = prose.split("`corpus_stats` 只有一行：`", 1)[1].split("`", 1)[0]
    body = [line.strip().split("  #")[0]  # the code, without a trailing comment
            for line in inspect.getsource(BleuScorer.corpus_stats).splitlines()
            if line.strip() and not line.strip().startswith(("def ", '"""', "#"))]
    assert body == [quoted]  # one line, and the one the chapter quotes

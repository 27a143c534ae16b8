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

3. *per order, on every path*: each shown function of the scoring core gets a bug for ONE
   order n at a time (n = 1 … 4: by its ``n`` argument, or in the order-n entry of the
   precisions or statistics it handles), and every path it serves must show it:
   ``sentence_bleu``, ``corpus_bleu``, ``BleuScorer``, ``bleu-lesson score`` (``main([...])``),
   the widgets' render functions and the plots' data. Which path must reach which function
   is stated (``MUST_SERVE``), so a path that bypasses a shown function for some orders fails.
   The functions chapters 08-10 show (tool presets, bootstrap, agreement, human calls) get
   one planted bug each, checked on every path that reaches them (their widgets, the CLI's
   paired test, the chapters' computations on a corpus where every order counts).
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
    """``(notebook, expression, object)`` for every ``show_source(expression)`` and
    ``show_source_after(exercise, expression)``."""
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
                # show_source(X), or show_source_after("4.1", X) after an exercise passed
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id in ("show_source", "show_source_after")
                        and node.args):
                    expr = ast.unparse(node.args[-1])
                    found.append((path.stem, expr, eval(expr, namespace)))
    return found


TARGETS = show_source_targets()


def qualified(obj: object) -> str:
    return f"{obj.__module__}.{obj.__qualname__}"  # type: ignore[attr-defined]


def code_of(obj: object):
    """The code of the shown body itself: a function under ``@checks`` is unwrapped, since
    the checking wrapper's code is shared by every checked function."""
    if inspect.isclass(obj):
        return obj.__init__.__code__  # type: ignore[misc]
    return inspect.unwrap(obj).__code__  # type: ignore[arg-type]


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


def post2018_probes() -> list:
    """Chapter 08's Post (2018) table comes from a cache that ``post2018_scores`` made (and
    tests/test_post2018_cache.py remakes): the shown code is the code that makes it."""
    from bleu_lesson.analysis.post2018 import post2018_scores

    hyps = ["The cat -- it's on the mat.", "A dog's bone, 3-4 days old."]
    refs = ["The cat -- it is on the mat.", "A dog's bone, three-four days old."]
    return sorted(post2018_scores({"toy": hyps}, refs).items())


def probes_for(obj: object) -> Callable[[], list]:
    module = obj.__module__
    if module == "bleu_lesson.analysis.post2018":
        return post2018_probes
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


# --- per-order mutants on every path a shown function serves ---------------------------
#
# A planted bug that misbehaves for ONE order n only (n = 1 … 4) must change what every
# path shows: the library calls, the CLI, the widgets' pure render functions and the
# plots' data. A shown function that one path bypasses for some orders (a private copy
# used from n = 2 on, say) fails here for that path and that order.

# clipping binds at every order: "a"^n occurs 6 - n + 1 times in the candidate and
# 4 - n + 1 times in the first reference, and "a … a b" once in each, so
# m = (5, 4, 3, 2) of t = (7, 6, 5, 4), every order matched and every order clipped;
# c = 7 < r = 8 (the closest), so BP = exp(1 - 8/7) < 1 and r shows in every score
ORDER_CAND = "a a a a a a b"
ORDER_REFS = ["a a a a b c d e", "b a a"]
ORDER_CORPUS = ([ORDER_CAND, "b a a a b"], [ORDER_REFS, ["b a a a b a", "a a"]])
SECOND_SYSTEM = ["a a a a b c d", "b a a b a"]


def _figure_data(fig) -> list:
    import matplotlib.pyplot as plt

    data = []
    for ax in fig.axes:
        data += [tuple(map(float, line.get_ydata())) for line in ax.lines]
        data += [text.get_text() for text in ax.texts]
    plt.close(fig)
    return data


def _cli(*args: str, second: bool = False) -> str:
    import contextlib
    import io
    import tempfile

    from bleu_lesson.__main__ import main

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        hyps, refs = ORDER_CORPUS
        (folder / "hyp.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
        (folder / "hyp2.txt").write_text("\n".join(SECOND_SYSTEM) + "\n", encoding="utf-8")
        inputs = [str(folder / "hyp.txt")] + ([str(folder / "hyp2.txt")] if second else [])
        files = []
        for k in range(2):
            path = folder / f"ref{k}.txt"
            path.write_text("\n".join(r[k] for r in refs) + "\n", encoding="utf-8")
            files.append(str(path))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["score", *files, "-i", *inputs, "-tok", "none", "-s", "none", *args])
    return f"{code}\n{out.getvalue()}"


def _order_corpus():
    from bleu_lesson.data.datasets import Corpus

    hyps, refs = ORDER_CORPUS
    return Corpus("en-en", tuple(hyps), {"A": tuple(r[0] for r in refs),
                                         "B": tuple(r[1] for r in refs)},
                  {"sys": tuple(hyps), "other": tuple(SECOND_SYSTEM)})


def _render_corpus() -> str:
    from bleu_lesson.teaching.widgets import render_corpus

    return render_corpus(_order_corpus(), "sys", tokenizer="none")


def _significance_calls() -> list:
    """Chapter 09's computations on a corpus where every order is matched and clipped."""
    significance = _mod("bleu_lesson.analysis.significance")
    corpus = _order_corpus()
    options = dict(tokenizer="none", smoothing="none")
    refs = corpus.references_for("both")
    streams = corpus.reference_streams("both")
    system, other = list(corpus.systems["sys"]), list(corpus.systems["other"])
    ci = significance.bootstrap_ci(system, refs, n_samples=40, **options)
    paired = significance.paired_bootstrap(other, system, refs, n_samples=40, **options)
    return [dataclasses.astuple(ci), dataclasses.astuple(paired), streams,
            significance.holm({"x": paired.p_value, "y": 0.02, "z": 0.04})]


def _render_agreement() -> str:
    from bleu_lesson.teaching.widgets import render_agreement

    metric = {"a": 30.0, "b": 28.0, "c": 25.0, "d": 26.0}
    human = {"a": 0.30, "b": 0.10, "c": 0.20, "d": -0.10}
    return render_agreement({("BLEU", "A"): metric}, human)


def _paths() -> dict[str, Callable[[], object]]:
    import matplotlib

    matplotlib.use("Agg")
    from bleu_lesson.teaching import plots, widgets

    bl = _mod("bleu_lesson")  # looked up when called, so a planted bug is seen
    options = dict(tokenizer="none", smoothing="none")
    return {
        "sentence_bleu": lambda: _numbers(bl.sentence_bleu(ORDER_CAND, ORDER_REFS, **options)),
        "corpus_bleu": lambda: _numbers(bl.corpus_bleu(*ORDER_CORPUS, **options)),
        "BleuScorer": lambda: _numbers(bl.BleuScorer(ORDER_CORPUS[1], **options)
                                       .score(ORDER_CORPUS[0])),
        "cli": lambda: _cli(),
        "cli --sentence-level": lambda: _cli("--sentence-level"),
        "widget render_ngrams": lambda: [widgets.render_ngrams(ORDER_CAND, n)
                                         for n in range(1, 5)],
        "widget render_clipping": lambda: [widgets.render_clipping(ORDER_CAND, ORDER_REFS, n)
                                           for n in range(1, 5)],
        "widget render_geometric_mean": lambda: widgets.render_geometric_mean(
            [0.9, 0.8, 0.5, 0.25], [0.25] * 4),
        "widget render_bleu": lambda: widgets.render_bleu(ORDER_CAND, ORDER_REFS),
        "widget render_corpus": _render_corpus,
        "widget render_systems": lambda: [widgets.render_systems(_order_corpus(), which, "none")
                                          for which in ("both", "A", "B")],
        "widget render_agreement": _render_agreement,
        "cli --paired-bs": lambda: _cli("--paired-bs", "-pbsn", "40", second=True),
        "chapter 08's tool presets": lambda: [
            (_numbers(_mod("bleu_lesson.analysis.variants").result(name, ORDER_CAND, ORDER_REFS)),
             _mod("bleu_lesson.analysis.variants").score(name, ORDER_CAND, ORDER_REFS))
            for name in _mod("bleu_lesson.analysis.variants").VARIANTS],
        "chapter 09's library calls": _significance_calls,
        "chapter 10's library calls": agreement_probes,
        "chapter 08's Post (2018) table": post2018_probes,
        "widget render_tools": lambda: [
            widgets.render_tools(ORDER_CAND, ORDER_REFS,
                                 _mod("bleu_lesson.analysis.variants").knobs_of(v))
            for v in _mod("bleu_lesson.analysis.variants").VARIANTS.values()],
        "plot_reference_ceiling": lambda: _figure_data(
            plots.plot_reference_ceiling(ORDER_CAND, ORDER_REFS)),
        "plot_means": lambda: _figure_data(plots.plot_means()),
        "plot_brevity_penalty": lambda: _figure_data(plots.plot_brevity_penalty()),
    }


PATHS = _paths()
_CORE = "bleu_lesson.core."
# shown functions of the scoring core (the seed's own copy is checked against the seed above)
PATH_TARGETS = [obj for obj in SCORED if obj.__module__ != "bleu_lesson.core.seed"]
_SCORES = ("sentence_bleu", "corpus_bleu", "BleuScorer", "cli", "cli --sentence-level",
           "widget render_bleu", "widget render_corpus", "plot_reference_ceiling")
_COUNTING = ("ngrams.ngrams", "ngrams.ngram_counts", "clipping.max_reference_counts")
# Which path must reach which shown function: so a path that bypasses one fails
MUST_SERVE = {
    **{path: ("ngrams.ngrams", "ngrams.ngram_counts", "clipping.max_reference_counts",
              "clipping.clipped_counts", "brevity.brevity_penalty",
              "brevity.closest_ref_length", "means.geometric_mean",
              "smoothing.sacrebleu_precisions", "bleu.score_stats")
       for path in _SCORES},
    "widget render_ngrams": ("ngrams.ngrams", "ngrams.ngram_counts"),
    "widget render_clipping": _COUNTING,
    "widget render_tools": _COUNTING + ("clipping.clipped_counts", "bleu.score_stats"),
    "widget render_geometric_mean": ("means.geometric_mean",),
    "widget render_systems": ("bleu_lesson.data.datasets.Corpus.references_for",
                              "bleu.BleuScorer.score", "clipping.clipped_counts"),
    "widget render_agreement": ("bleu_lesson.analysis.agreement.kendall_tau",
                                "bleu_lesson.analysis.agreement.pairwise_accuracy",
                                "bleu_lesson.analysis.agreement.concordance"),
    "cli --paired-bs": ("clipping.clipped_counts", "bleu.score_stats",
                        "bleu_lesson.analysis.significance.paired_p_value"),
    "plot_means": ("means.geometric_mean",),
    "plot_brevity_penalty": ("brevity.brevity_penalty",),
}
for _path in ("corpus_bleu", "BleuScorer", "cli", "widget render_corpus"):
    MUST_SERVE[_path] += ("stats.BleuStats.__add__",)   # two segments are summed


def _served(target: object) -> list[str]:
    return [name for name, path in PATHS.items() if code_of(target) in codes_run(path)]


@pytest.mark.parametrize("path", list(MUST_SERVE))
def test_every_path_reaches_the_shown_functions_it_should(path):
    run = codes_run(PATHS[path])
    missed = [name for name in MUST_SERVE[path] if code_of(_resolve(name)) not in run]
    assert not missed, f"{path} bypasses {missed}"


def _resolve(name: str) -> object:
    """``"clipping.clipped_counts"`` (in core) or a full dotted name -> the object."""
    dotted = name if name.startswith("bleu_lesson.") else _CORE + name
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
            break
        except ImportError:
            continue
    for attr in parts[cut:]:
        obj = getattr(obj, attr)
    return obj


def _with_order(value, k: int):
    """``value`` with its order-k entry changed (matches of a BleuStats, a precision)."""
    stats_type = _mod("bleu_lesson.core.stats").BleuStats
    if isinstance(value, stats_type):
        if value.order < k:
            return value
        matches = list(value.matches)
        matches[k - 1] += 1
        return dataclasses.replace(value, matches=tuple(matches))
    if isinstance(value, list) and len(value) >= k:  # precisions
        return [perturb(p) if i == k - 1 else p for i, p in enumerate(value)]
    return value


def order_mutant(obj: Callable, k: int) -> Callable:
    """``obj``, wrong for order k only: by its ``n`` argument, or in the order-k entry of the
    precisions or statistics it takes or returns."""
    params = inspect.signature(obj).parameters

    def wrapper(*args, **kwargs):
        bound = inspect.signature(obj).bind(*args, **kwargs)
        if "n" in params:
            result = obj(*args, **kwargs)
            return perturb(result) if bound.arguments["n"] == k else result
        for name in ("precisions", "stats"):
            if name in bound.arguments:
                bound.arguments[name] = _with_order(bound.arguments[name], k)
                return obj(*bound.args, **bound.kwargs)
        result = obj(*args, **kwargs)
        if isinstance(result, tuple) and result and isinstance(result[0], list):
            return (_with_order(result[0], k), *result[1:])  # (precisions, orders)
        return _with_order(result, k)

    return wrapper


def _is_ordered(obj: object) -> bool:
    params = inspect.signature(obj).parameters  # type: ignore[arg-type]
    return bool({"n", "precisions", "stats"} & set(params)) or qualified(obj) in {
        "bleu_lesson.core.stats.BleuStats.__add__", "bleu_lesson.core.stats.BleuStats.__radd__",
        "bleu_lesson.core.smoothing.sacrebleu_precisions"}


def plant_wrapper(monkeypatch, obj: object, wrapper: Callable) -> None:
    owner_name, _, attr = obj.__qualname__.rpartition(".")  # type: ignore[attr-defined]
    if owner_name:
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


@pytest.mark.parametrize("target", PATH_TARGETS, ids=qualified)
def test_a_per_order_bug_changes_every_path_the_function_serves(monkeypatch, target):
    served = _served(target)
    assert served, f"{qualified(target)} is shown by a chapter but no path reaches it"
    before = {name: outcome(PATHS[name]) for name in served}
    orders = range(1, 5) if _is_ordered(target) else [None]
    unchanged = []
    for k in orders:
        with monkeypatch.context() as m:
            if k is None:
                plant(m, target)
            else:
                plant_wrapper(m, target, order_mutant(target, k))  # type: ignore[arg-type]
            unchanged += [(name, k) for name in served if outcome(PATHS[name]) == before[name]]
    assert not unchanged, f"a bug in {qualified(target)} shows nowhere on (path, order) {unchanged}"

"""``SystemsExplorer(scorers=...)``: chapter 09 hands the panel the scorers it has built.

The panel must show the same scores with them as sacrebleu gives, build no scorer for a
view they cover, and refuse a scorer that does not fit the view it is given for.
"""

from __future__ import annotations

import pytest

widgets = pytest.importorskip("bleu_lesson.teaching.widgets")
import sacrebleu  # noqa: E402

from bleu_lesson.core import bleu  # noqa: E402
from bleu_lesson.data.datasets import TOY_CORPUS  # noqa: E402


def _built(monkeypatch) -> list:
    """Every BleuScorer the widgets make from now on (the module imports it at its top)."""
    made = []

    class Counting(bleu.BleuScorer):
        def __init__(self, *args, **kwargs):
            made.append(args)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(widgets, "BleuScorer", Counting)
    return made


def test_given_scorers_are_used_and_score_like_sacrebleu(monkeypatch):
    given = {(which, "13a"): bleu.BleuScorer(TOY_CORPUS.references_for(which), tokenizer="13a")
             for which in ("both", "A")}
    made = _built(monkeypatch)
    ex = widgets.SystemsExplorer(TOY_CORPUS, scorers=given)
    ex.which.value = "A"
    assert made == []
    for name, hyps in TOY_CORPUS.systems.items():
        want = sacrebleu.corpus_bleu(list(hyps), TOY_CORPUS.reference_streams("A"))
        assert f"{want.score:.2f}" in ex.result.value, name
    ex.tokenizer.value = "none"  # a view the given scorers do not cover
    assert len(made) == 1


@pytest.mark.parametrize("bad", [
    bleu.BleuScorer(TOY_CORPUS.references_for("both"), tokenizer="none"),     # other tokenizer
    bleu.BleuScorer(TOY_CORPUS.references_for("both")[:-1], tokenizer="13a"),  # other corpus
])
def test_a_scorer_that_does_not_fit_is_refused(bad):
    with pytest.raises(ValueError, match="scorers"):
        widgets.SystemsExplorer(TOY_CORPUS, scorers={("both", "13a"): bad})


def test_a_scorer_of_another_reference_set_is_refused():
    # reference B's scorer handed in as reference A's: same tokenizer, same segments
    swapped = bleu.BleuScorer(TOY_CORPUS.references_for("B"), tokenizer="13a")
    with pytest.raises(ValueError, match=r"scorers\['A', '13a'\] was not built on"):
        widgets.SystemsExplorer(TOY_CORPUS, scorers={("A", "13a"): swapped})
    both = bleu.BleuScorer(TOY_CORPUS.references_for("both"), tokenizer="13a")
    with pytest.raises(ValueError, match="not built on"):  # two references per segment, not one
        widgets.SystemsExplorer(TOY_CORPUS, scorers={("B", "13a"): both})


def test_a_scorer_under_an_unknown_reference_set_names_scorers():
    given = bleu.BleuScorer(TOY_CORPUS.references_for("A"), tokenizer="13a")
    with pytest.raises(ValueError, match=r"scorers\['C', '13a'\]: the references must be one"):
        widgets.SystemsExplorer(TOY_CORPUS, scorers={("C", "13a"): given})


@pytest.mark.parametrize("bad, message", [
    ((r for r in [["a"]]), "references must be a list"),   # a generator has no length
    ([[1], [2]], r"references\[0\]\[0\] must be a str"),
    (["the cat", "a dog"], "not a single str"),             # one reference per segment, unwrapped
])
def test_built_on_checks_its_argument(bad, message):
    scorer = bleu.BleuScorer([["the cat"], ["a dog"]], tokenizer="none")
    with pytest.raises(TypeError, match=message):
        scorer.built_on(bad)

"""How each tool chooses BLEU's knobs, as named presets of this library's options.

The same candidate and references get different BLEU scores from different tools, not
because any of them is wrong but because each chooses its knobs differently:

========== ============= ======== ===================== ======== ========== =====
preset     tokenizer     case     reference length (BP) weights  smoothing  refs
========== ============= ======== ===================== ======== ========== =====
seed       lower + split lowered  closest, ties: first  uniform  none       all
sacrebleu  13a           as given closest, ties: shorter uniform exp + eff. all
nltk       split         as given closest, ties: shorter uniform method0    all
d2l        split(' ')    as given the one reference     1/2^n    none       first
d2l-en     split(' ')    as given the one reference     1/2^n    none       first
hf         13a           as given shortest              uniform  none       all
========== ============= ======== ===================== ======== ========== =====

Each preset is only a set of options for ``sentence_bleu`` (plus, for d2l, keeping the
first reference); none copies another tool's code. Both d2l presets are d2l's
``bleu(pred_seq, label_seq, k)`` as the books call it, with ``k=2`` (orders 1 and 2,
weights 1/2 and 1/4). ``d2l`` is d2l-zh (《动手学深度学习》, the book our learners read): its
loop ``for n in range(1, k + 1)`` divides by zero when the prediction has fewer than k
tokens, and ``result`` raises that ``ZeroDivisionError``. ``d2l-en`` is the English book's
current code, which loops to ``min(k, len_pred)`` and so skips those orders instead.
``tests/test_variants.py`` checks the presets against sacrebleu and NLTK themselves and against
the other tools' stated rules.

>>> from bleu_lesson.data.datasets import SEED_CANDIDATE, SEED_REFERENCES
>>> round(score("seed", SEED_CANDIDATE, SEED_REFERENCES), 4)
0.9036
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bleu_lesson.core.bleu import BleuResult, sentence_bleu
from bleu_lesson.core.smoothing import SMOOTHING, SMOOTHING_METHODS

__all__ = ["Variant", "VARIANTS", "score", "result", "space_split",
           "TOOL_KNOBS", "knobs_of", "tool_options", "matching_tools"]


def space_split(text: str) -> list[str]:
    """d2l's tokenizer: ``text.split(' ')``, so two spaces make an empty token."""
    return text.split(" ")


@dataclass(frozen=True)
class Variant:
    name: str
    tool: str
    options: dict = field(default_factory=dict)
    first_reference_only: bool = False
    note: str = ""
    #: d2l-zh's bleu() divides by zero when the candidate has fewer tokens than max_n
    short_candidate_fails: bool = False


VARIANTS: dict[str, Variant] = {v.name: v for v in [
    Variant("seed", "the seed chapter's compute_bleu",
            dict(tokenizer="none", lowercase=True, smoothing="none", effective_order=False,
                 tie="first"),
            note="lowercase + whitespace split; ties in reference length go to the first"),
    Variant("sacrebleu", "sacrebleu.sentence_bleu (defaults)",
            dict(tokenizer="13a", lowercase=False, smoothing="exp", effective_order=True),
            note="13a tokens, exp smoothing, effective order"),
    Variant("nltk", "nltk.translate.bleu_score.sentence_bleu (defaults)",
            dict(tokenizer="none", lowercase=False, smoothing="method0"),
            note="tokens as given; no smoothing, a zero precision counts as the tiniest float"),
    Variant("d2l", "d2l-zh's bleu(pred_seq, label_seq, k=2)",
            dict(tokenizer=space_split, lowercase=False, smoothing="none",
                 effective_order=False, max_n=2, weights=(1 / 2, 1 / 4)),
            first_reference_only=True, short_candidate_fails=True,
            note="one reference; k = 2 orders weighted 1/2, 1/4; a candidate shorter than k "
                 "raises ZeroDivisionError, as d2l-zh's loop range(1, k + 1) does"),
    Variant("d2l-en", "d2l-en's bleu(pred_seq, label_seq, k=2)",
            dict(tokenizer=space_split, lowercase=False, smoothing="none",
                 effective_order=True, max_n=2, weights=(1 / 2, 1 / 4)),
            first_reference_only=True,
            note="as d2l, but orders longer than the candidate are skipped "
                 "(d2l-en loops to min(k, len_pred))"),
    Variant("hf", "Hugging Face evaluate's bleu (defaults)",
            dict(tokenizer="13a", lowercase=False, smoothing="none", effective_order=False,
                 ref_length="shortest"),
            note="13a tokens; BP against the shortest reference; no smoothing"),
]}


def _variant(name: str) -> Variant:
    if name not in VARIANTS:
        raise ValueError(f"name must name a variant, one of {', '.join(VARIANTS)}, got {name!r}")
    return VARIANTS[name]


def result(name: str, candidate: str, references: Sequence[str]) -> BleuResult:
    """The full ``BleuResult`` of one tool's rules.

    >>> result("d2l", "The", ["The cat sat"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ZeroDivisionError: d2l-zh's bleu(pred_seq, label_seq, k=2) divides by zero: ...
    """
    variant = _variant(name)
    refs = list(references) if not isinstance(references, str) else references
    if variant.first_reference_only and isinstance(refs, list):
        refs = refs[:1]
    if variant.short_candidate_fails and isinstance(candidate, str):
        k = variant.options["max_n"]
        length = len(variant.options["tokenizer"](candidate))
        if length < k:
            raise ZeroDivisionError(
                f"d2l-zh's bleu(pred_seq, label_seq, k={k}) divides by zero: the candidate "
                f"has {length} token(s), fewer than k = {k} (its loop range(1, k + 1) reaches "
                f"order {length + 1}, which has no n-grams); d2l-en skips those orders instead"
            )
    return sentence_bleu(candidate, refs, **variant.options)


def score(name: str, candidate: str, references: Sequence[str]) -> float:
    """BLEU (0–1) of ``candidate`` under the rules of ``name``: seed, sacrebleu, nltk, d2l,
    d2l-en, hf."""
    return result(name, candidate, references).score


# --- the knobs, as chapter 08's explorer offers them ----------------------------------

#: The knobs of chapter 08's explorer: label -> the value it stands for.
TOOL_KNOBS: dict[str, dict[str, str]] = {
    "tokenizer": {"whitespace split": "none", "13a": "13a", "split(' ') (d2l)": "space"},
    "reference length": {"closest, ties: shorter": "closest-shorter",
                         "closest, ties: first": "closest-first",
                         "shortest": "shortest", "first reference only": "first-only"},
    "weights": {"uniform": "uniform", "1/2, 1/4; k = 2 (d2l)": "halving"},
    "smoothing": {s: s for s in SMOOTHING_METHODS},
}

def _has_effective_order(smoothing: object) -> bool:
    return SMOOTHING[str(smoothing)].family == "sacrebleu"


def knobs_of(variant: Variant) -> dict[str, object]:
    """A preset as the explorer's knob values.

    >>> knobs_of(VARIANTS["seed"])["reference length"]
    'closest-first'
    """
    o = variant.options
    tok = o.get("tokenizer", "13a")
    if variant.first_reference_only:
        ref = "first-only"
    elif o.get("ref_length", "closest") == "shortest":
        ref = "shortest"
    else:
        ref = "closest-first" if o.get("tie", "shorter") == "first" else "closest-shorter"
    smoothing = o.get("smoothing", "exp")
    return {"tokenizer": "space" if tok is space_split else tok,
            "lowercase": bool(o.get("lowercase", False)),
            "reference length": ref,
            "weights": "halving" if o.get("weights") else "uniform",
            "smoothing": smoothing,
            "effective order": bool(o.get("effective_order", True))
            and _has_effective_order(smoothing)}


def tool_options(knobs: dict[str, object]) -> tuple[dict, bool]:
    """The ``sentence_bleu`` options (and whether to keep only the first reference).

    >>> options, first_only = tool_options(knobs_of(VARIANTS["d2l"]))
    >>> options["weights"], options["max_n"], first_only
    ((0.5, 0.25), 2, True)
    """
    tok = space_split if knobs["tokenizer"] == "space" else knobs["tokenizer"]
    ref = knobs["reference length"]
    options = {"tokenizer": tok, "lowercase": bool(knobs["lowercase"]),
               "smoothing": knobs["smoothing"], "effective_order": bool(knobs["effective order"]),
               "ref_length": "shortest" if ref == "shortest" else "closest",
               "tie": "first" if ref == "closest-first" else "shorter"}
    if knobs["weights"] == "halving":  # d2l's rule as the books call it: k = 2, 1/2 and 1/4
        d2l = VARIANTS["d2l"].options
        options["weights"], options["max_n"] = d2l["weights"], d2l["max_n"]
    return options, ref == "first-only"


def matching_tools(knobs: dict[str, object]) -> list[str]:
    """The presets whose rules are exactly these knobs.

    >>> matching_tools(knobs_of(VARIANTS["hf"]))
    ['hf']
    """
    def norm(k: dict[str, object]) -> dict[str, object]:
        k = dict(k)
        if not _has_effective_order(k["smoothing"]):
            k["effective order"] = False  # NLTK's methods have no effective order
        return k

    # only the presets are normalised: with an NLTK method and effective order ticked, the
    # knobs are no tool's rules (NLTK has no effective order), even where the score agrees
    return [name for name, v in VARIANTS.items() if norm(knobs_of(v)) == dict(knobs)]

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
hf         13a           as given shortest              uniform  none       all
========== ============= ======== ===================== ======== ========== =====

Each preset is only a set of options for ``sentence_bleu`` (plus, for d2l, keeping the
first reference); none copies another tool's code. ``tests/test_variants.py`` checks the
presets against sacrebleu and NLTK themselves and against the other tools' stated rules.

>>> from bleu_lesson.datasets import SEED_CANDIDATE, SEED_REFERENCES
>>> round(score("seed", SEED_CANDIDATE, SEED_REFERENCES), 4)
0.9036
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .bleu import BleuResult, sentence_bleu
from .smoothing import SMOOTHING, SMOOTHING_METHODS

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
    Variant("d2l", "d2l's bleu(pred, label, k=4)",
            dict(tokenizer=space_split, lowercase=False, smoothing="none",
                 effective_order=True, weights=(1 / 2, 1 / 4, 1 / 8, 1 / 16)),
            first_reference_only=True,
            note="one reference; order n weighted 1/2^n; orders longer than the candidate "
                 "are skipped"),
    Variant("hf", "Hugging Face evaluate's bleu (defaults)",
            dict(tokenizer="13a", lowercase=False, smoothing="none", effective_order=False,
                 ref_length="shortest"),
            note="13a tokens; BP against the shortest reference; no smoothing"),
]}


def _variant(name: str) -> Variant:
    if name not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, got {name!r}")
    return VARIANTS[name]


def result(name: str, candidate: str, references: Sequence[str]) -> BleuResult:
    """The full ``BleuResult`` of one tool's rules."""
    variant = _variant(name)
    refs = list(references) if not isinstance(references, str) else references
    if variant.first_reference_only and isinstance(refs, list):
        refs = refs[:1]
    return sentence_bleu(candidate, refs, **variant.options)


def score(name: str, candidate: str, references: Sequence[str]) -> float:
    """BLEU (0–1) of ``candidate`` under the rules of ``name``: seed, sacrebleu, nltk, d2l, hf."""
    return result(name, candidate, references).score


# --- the knobs, as chapter 08's explorer offers them ----------------------------------

#: The knobs of chapter 08's explorer: label -> the value it stands for.
TOOL_KNOBS: dict[str, dict[str, str]] = {
    "tokenizer": {"whitespace split": "none", "13a": "13a", "split(' ') (d2l)": "space"},
    "reference length": {"closest, ties: shorter": "closest-shorter",
                         "closest, ties: first": "closest-first",
                         "shortest": "shortest", "first reference only": "first-only"},
    "weights": {"uniform": "uniform", "1/2^n (d2l)": "halving"},
    "smoothing": {s: s for s in SMOOTHING_METHODS},
}

_HALVING = (1 / 2, 1 / 4, 1 / 8, 1 / 16)


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
    >>> options["weights"], first_only
    ((0.5, 0.25, 0.125, 0.0625), True)
    """
    tok = space_split if knobs["tokenizer"] == "space" else knobs["tokenizer"]
    ref = knobs["reference length"]
    options = {"tokenizer": tok, "lowercase": bool(knobs["lowercase"]),
               "smoothing": knobs["smoothing"], "effective_order": bool(knobs["effective order"]),
               "ref_length": "shortest" if ref == "shortest" else "closest",
               "tie": "first" if ref == "closest-first" else "shorter"}
    if knobs["weights"] == "halving":
        options["weights"] = _HALVING
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

    return [name for name, v in VARIANTS.items() if norm(knobs_of(v)) == norm(knobs)]

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

__all__ = ["Variant", "VARIANTS", "score", "result", "space_split"]


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

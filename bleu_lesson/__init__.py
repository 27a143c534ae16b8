"""bleu_lesson: BLEU built step by step, for the course "BLEU分数计算与多参考译文评估".

The course's own API, the names a chapter imports. The seed chapter's four functions
(``tokenize``, ``get_ngrams``, ``count_clipped_ngrams``, ``compute_bleu``) live only in
``bleu_lesson.core.seed``; the tokenizers by name are ``bleu_lesson.core.tokenizers.tokenize``.

Everything here is standard library only; sacrebleu is loaded when a standard tokenizer
is first used, matplotlib and ipywidgets only by ``bleu_lesson.teaching.plots`` and
``bleu_lesson.teaching.widgets``.
"""

from bleu_lesson._version import __version__
from bleu_lesson.core.bleu import (
    BleuOptions,
    BleuResult,
    BleuScorer,
    corpus_bleu,
    geometric_mean,
    references_from_streams,
    score_stats,
    sentence_bleu,
)
from bleu_lesson.core.brevity import brevity_penalty, closest_ref_length
from bleu_lesson.core.clipping import (
    ClippedNGram,
    clipped_counts,
    clipping_table,
    max_reference_counts,
)
from bleu_lesson.core.ngrams import all_ngram_counts, ngram_counts, ngrams
from bleu_lesson.core.smoothing import SMOOTHING_METHODS
from bleu_lesson.core.stats import BleuStats, sum_stats
from bleu_lesson.core.tokenizers import TOKENIZERS, get_tokenizer
from bleu_lesson.data.doctor import doctor
from bleu_lesson.teaching.display import show_source

__all__ = [
    "__version__",
    "BleuOptions",
    "BleuResult",
    "BleuScorer",
    "BleuStats",
    "ClippedNGram",
    "SMOOTHING_METHODS",
    "TOKENIZERS",
    "all_ngram_counts",
    "brevity_penalty",
    "clipped_counts",
    "clipping_table",
    "closest_ref_length",
    "corpus_bleu",
    "doctor",
    "geometric_mean",
    "get_tokenizer",
    "max_reference_counts",
    "ngram_counts",
    "ngrams",
    "references_from_streams",
    "score_stats",
    "sentence_bleu",
    "show_source",
    "sum_stats",
]

"""Chapter 09 §7.1's jieba column: corpus BLEU of every WMT22 en-zh system with jieba's word
segmentation (both references), read from ``jieba_cache.json``.

Segmenting 15 x 2037 lines with jieba (and loading its dictionary) takes seconds, so the
chapter reads the scores, which record how they were made (jieba's version, the data);
``tests/test_jieba_cache.py`` recomputes every score. To rewrite the cache:

    python -m bleu_lesson.analysis.jieba_table
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bleu_lesson.core.bleu import BleuScorer
from bleu_lesson.data.datasets import load_wmt22

__all__ = ["CACHE_FILE", "JiebaScores", "jieba_scores", "load_jieba_scores"]

CACHE_FILE = Path(__file__).with_name("jieba_cache.json")


def jieba_scores(corpus: Any) -> dict[str, float]:
    """Corpus BLEU (0-1) of each system of ``corpus`` against both references, tokenizer jieba."""
    scorer = BleuScorer(corpus.references_for("both"), tokenizer="jieba")
    return {name: scorer.score(hyps).score for name, hyps in corpus.systems.items()}


@dataclass(frozen=True)
class JiebaScores:
    """The cached column and how it was made."""

    scores: dict[str, float]
    provenance: dict[str, Any]

    def __str__(self) -> str:
        p = self.provenance
        return (f"jieba column: cached, computed with jieba {p['jieba']} on {p['segments']} "
                f"segments of WMT22 {p['pair']} (references {p['references']})")


def load_jieba_scores(path: Path = CACHE_FILE) -> JiebaScores:
    """Read the cached column.

    >>> table = load_jieba_scores()
    >>> len(table.scores), table.provenance["pair"]
    (13, 'en-zh')
    """
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return JiebaScores({k: float(v) for k, v in data["scores"].items()}, data["provenance"])


def _write_cache(path: Path = CACHE_FILE) -> None:  # pragma: no cover - a maintainer's step
    import jieba

    data = load_wmt22("en-zh")
    payload = {"provenance": {"jieba": jieba.__version__, "pair": "en-zh", "references": "A+B",
                              "segments": len(data),
                              "made_by": "python -m bleu_lesson.analysis.jieba_table"},
               "scores": jieba_scores(data)}
    path.write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    _write_cache()
    print(load_jieba_scores())

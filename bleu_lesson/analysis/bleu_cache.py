"""Chapter 10's BLEU statistics of the WMT22 zh-en systems, counted once and shipped.

Counting 13 systems against references A, B and A+B (13a tokens, 3 x 1875 segments each)
takes seconds in a fresh kernel, and chapter 10 is about BLEU against people, not about
counting. So ``bleu_cache.json.gz`` keeps, for the 12 systems and HUMAN-B (reference B as a
system), the summed ``BleuStats`` against each reference set and the per-segment
``BleuStats`` against reference A (what a bootstrap over segments resamples), with the
options' signature and the SHA-256 of every text file counted; and, for chapter 09, every
system's summed ``BleuStats`` of both pairs against A, B and both, and of en-zh under the
``char`` and ``none`` tokenizers against both (``results``). Scores are
made from the statistics by ``core.bleu.score_stats``, the one scoring function.
``tests/test_bleu_cache.py`` recounts every statistic with sacrebleu.

    python -m bleu_lesson.analysis.bleu_cache    # recount and rewrite the cache
"""

from __future__ import annotations

import gzip
import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from bleu_lesson.analysis.significance import resample_rows
from bleu_lesson.core.bleu import BleuOptions, BleuResult, BleuScorer, score_stats
from bleu_lesson.core.stats import BleuStats
from bleu_lesson.data.datasets import load_wmt22

__all__ = ["CACHE_FILE", "REFERENCE_SETS", "BleuCache", "load_bleu_cache", "make_bleu_cache"]

CACHE_FILE = Path(__file__).with_name("bleu_cache.json.gz")
#: Reference sets of the cached corpus statistics; HUMAN-B only against A (B is its text).
REFERENCE_SETS: tuple[str, ...] = ("A", "B", "A+B")
#: Tokenizers besides WMT22's ``zh`` whose en-zh counts (both references) are shipped.
OTHER_TOKENIZERS: tuple[str, ...] = ("char", "none")


@dataclass(frozen=True)
class BleuCache:
    """The shipped BLEU statistics (``load_bleu_cache``)."""

    signature: str          # the options' sacrebleu-style signature, e.g. ``nrefs:1|...``
    files: dict             # "ref.A", "hyp.<system>" ... -> SHA-256 of the text counted
    corpus: dict            # refset -> system -> summed stats row
    segments: dict          # system -> per-segment stats rows, reference A
    pairs: dict             # pair -> {"files", "corpus": which -> system -> summed row}

    def scores(self, refset: str = "A") -> dict[str, float]:
        """System -> corpus BLEU (0-100) against one reference set."""
        if refset not in self.corpus:
            raise ValueError(f"refset must be one of {', '.join(map(repr, self.corpus))}, "
                             f"got {refset!r}")
        nrefs = len(refset.split("+"))
        return {name: 100 * score_stats(BleuStats.from_row(row), nrefs=nrefs).score
                for name, row in self.corpus[refset].items()}

    def counted(self, corpus) -> bool:
        """Whether these counts were made from ``corpus``'s very texts (zh-en, same SHA-256s)."""
        return getattr(corpus, "pair", None) == "zh-en" and self.files == _digests(corpus)

    def results(self, corpus, which: str, scorer: BleuScorer) -> dict[str, BleuResult] | None:
        """Every system's corpus ``BleuResult`` against references ``which`` ("A", "B",
        "both"), scored by ``scorer`` from the shipped counts; ``None`` unless they were
        counted from ``corpus``'s very texts with ``scorer``'s options (then count live):
        WMT22's tokenizer for the pair, or for en-zh and both references also ``char``
        and ``none``.
        """
        entry = self.pairs.get(getattr(corpus, "pair", None))
        if entry is None:
            return None
        if scorer.options == BleuOptions(tokenizer=corpus.tokenizer):
            table = entry["corpus"].get(which)
        else:   # chapter 09's other tokenizers, both references only
            table = next((rows for name, rows in entry.get("tokenizers", {}).items()
                          if which == "both" and scorer.options == BleuOptions(tokenizer=name)),
                         None)
        if table is None or entry["files"] != _digests(corpus):
            return None
        return {name: scorer.score_stats(BleuStats.from_row(row)) for name, row in table.items()}

    def segment_stats(self, system: str) -> list[BleuStats]:
        """One system's per-segment statistics against reference A."""
        if system not in self.segments:
            raise ValueError(f"system must be one of the cached {len(self.segments)}, "
                             f"got {system!r}")
        return [BleuStats.from_row(row) for row in self.segments[system]]

    def resampled(self, system: str, indices) -> list[float]:
        """Corpus BLEU (0-100) on each bootstrap resample (row i of ``indices``), reference A:
        a resample's statistics are the sum of its segments' rows, scored by ``score_stats``.
        """
        if system not in self.segments:
            raise ValueError(f"system must be one of the cached {len(self.segments)}, "
                             f"got {system!r}")
        rows = resample_rows(self.segments[system], indices)
        options = BleuOptions()   # the defaults the cache was counted with (its signature)
        return [100 * score_stats(BleuStats.from_row(row), options).score
                for row in rows.tolist()]


@lru_cache(maxsize=1)
def load_bleu_cache() -> BleuCache:
    """Read the shipped statistics."""
    data = json.loads(gzip.decompress(CACHE_FILE.read_bytes()).decode("utf-8"))
    return BleuCache(data["signature"], data["files"], data["corpus"], data["segments"],
                     data["pairs"])


def make_bleu_cache(folder: str | Path | None = None) -> dict:
    """Count the statistics the cache holds from the WMT22 zh-en files (seconds)."""
    corpus = load_wmt22("zh-en", folder) if folder else load_wmt22("zh-en")
    candidates = {**corpus.systems, "HUMAN-B": corpus.references["B"]}
    out: dict = {"corpus": {}, "segments": {}}
    for refset in REFERENCE_SETS:
        names = refset.split("+")
        scorer = BleuScorer(corpus.references_for("both" if len(names) > 1 else names[0]),
                            tokenizer=corpus.tokenizer)
        if refset == "A":
            out["signature"] = scorer.options.signature(1)
        out["corpus"][refset] = {}
        for name, hyps in candidates.items():
            if name == "HUMAN-B" and "B" in names:
                continue
            rows = [list(s.to_row()) for s in scorer.segment_stats(hyps)]
            out["corpus"][refset][name] = [sum(col) for col in zip(*rows, strict=True)]
            if refset == "A":
                out["segments"][name] = rows
    out["files"] = _digests(corpus)
    out["pairs"] = {}
    for pair in ("zh-en", "en-zh"):
        data = corpus if pair == "zh-en" else (
            load_wmt22(pair, folder) if folder else load_wmt22(pair))
        tables = {}
        for which in ("A", "B", "both"):
            scorer = BleuScorer(data.references_for(which), tokenizer=data.tokenizer)
            tables[which] = {name: list(scorer.corpus_stats(hyps).to_row())
                             for name, hyps in data.systems.items()}
        out["pairs"][pair] = {"files": _digests(data), "corpus": tables}
    # chapter 09 section 7: en-zh under the tokenizers it compares with zh, both references
    out["pairs"]["en-zh"]["tokenizers"] = {}
    for tokenizer in OTHER_TOKENIZERS:
        scorer = BleuScorer(data.references_for("both"), tokenizer=tokenizer)
        out["pairs"]["en-zh"]["tokenizers"][tokenizer] = {
            name: list(scorer.corpus_stats(hyps).to_row()) for name, hyps in data.systems.items()}
    return out


def _digests(corpus) -> dict[str, str]:
    texts = {f"ref.{k}": v for k, v in corpus.references.items()} | {
        f"hyp.{k}": v for k, v in corpus.systems.items()}
    return {name: _sha256(lines) for name, lines in texts.items()}


def _sha256(lines) -> str:
    """SHA-256 of a text's lines, each ended by a newline (the file as WMT22 ships it)."""
    return hashlib.sha256("".join(f"{line}\n" for line in lines).encode("utf-8")).hexdigest()


if __name__ == "__main__":
    CACHE_FILE.write_bytes(gzip.compress(
        json.dumps(make_bleu_cache(), separators=(",", ":")).encode("utf-8"), mtime=0))
    print(f"wrote {CACHE_FILE}")

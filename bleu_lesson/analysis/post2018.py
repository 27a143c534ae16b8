"""Chapter 08 §6.1's table: Post (2018)'s comparison, redone on WMT22 zh-en (reference A).

The same outputs scored the sacrebleu way (raw text, its own ``13a`` tokenizer, mixed case,
exp smoothing) and the way ``multi-bleu.perl`` users scored them (Moses ``tokenizer.perl -a``
on hypotheses and reference first, ``-lc``, whitespace split, no smoothing), with the two
knobs taken apart in between. Moses-tokenizing 5 x 1875 lines takes seconds, so the chapter
reads the scores from ``post2018_cache.json``, which records how they were made;
``tests/test_post2018_cache.py`` recomputes every score with sacrebleu and sacremoses.

    python -m bleu_lesson.analysis.post2018    # recompute and rewrite the cache
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bleu_lesson.data.datasets import load_wmt22

__all__ = ["POST_SYSTEMS", "KNOBS", "CACHE_FILE", "Post2018", "post2018_scores",
           "load_post2018", "moses_tokenizer"]

#: the four zh-en systems whose sacrebleu scores lie within 4 points of each other
POST_SYSTEMS = ("JDExploreAcademy", "HuaweiTSC", "AISP-SJTU", "Online-G")
#: column -> (Moses-tokenize first?, sacrebleu options)
KNOBS: dict[str, tuple[bool, dict[str, Any]]] = {
    "sacrebleu": (False, {}),
    "-lc only": (False, {"lowercase": True}),
    "moses tok": (True, {"tokenize": "none", "smooth_method": "none", "force": True}),
    "moses+lc": (True, {"tokenize": "none", "smooth_method": "none", "force": True,
                        "lowercase": True}),
}
CACHE_FILE = Path(__file__).with_name("post2018_cache.json")


def moses_tokenizer() -> Callable[[str], str]:
    """What multi-bleu.perl users ran first: ``tokenizer.perl -a -no-escape`` (sacremoses)."""
    from sacremoses import MosesTokenizer  # type: ignore[import-untyped]  # heavy: when asked

    moses = MosesTokenizer(lang="en")
    return lambda text: moses.tokenize(text, aggressive_dash_splits=True, escape=False,
                                       return_str=True)


def post2018_scores(systems: Mapping[str, Sequence[str]], reference: Sequence[str],
                    knobs: Mapping[str, tuple[bool, dict[str, Any]]] = KNOBS,
                    ) -> dict[tuple[str, str], float]:
    """Corpus BLEU of each system under each knob: (system, knob) -> score (0-100)."""
    import sacrebleu

    tok = moses_tokenizer()
    ref_moses = [tok(r) for r in reference]
    scores = {}
    for system, hyps in systems.items():
        moses_hyps = [tok(h) for h in hyps]
        for knob, (moses_first, options) in knobs.items():
            refs, out = (ref_moses, moses_hyps) if moses_first else (list(reference), list(hyps))
            scores[system, knob] = sacrebleu.corpus_bleu(out, [refs], **options).score
    return scores


@dataclass(frozen=True)
class Post2018:
    """The cached table and how it was made."""

    scores: dict[tuple[str, str], float]
    provenance: dict[str, Any]

    def __str__(self) -> str:
        p = self.provenance
        return (f"computed with sacrebleu {p['sacrebleu']} and sacremoses {p['sacremoses']} "
                f"on {p['segments']} segments of WMT22 {p['pair']} (reference {p['reference']})")


def load_post2018(path: Path = CACHE_FILE) -> Post2018:
    """Read the cached table.

    >>> table = load_post2018()
    >>> sorted({knob for _, knob in table.scores}) == sorted(KNOBS)
    True
    """
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    scores = {(row["system"], row["knob"]): float(row["score"]) for row in data["scores"]}
    return Post2018(scores, data["provenance"])


def _write_cache(path: Path = CACHE_FILE) -> None:  # pragma: no cover - a maintainer's step
    import sacrebleu
    import sacremoses

    data = load_wmt22("zh-en")
    systems = {s: data.systems[s] for s in POST_SYSTEMS}
    scores = post2018_scores(systems, data.references["A"])
    payload = {
        "provenance": {"sacrebleu": sacrebleu.__version__, "sacremoses": sacremoses.__version__,
                       "pair": "zh-en", "reference": "A", "segments": len(data),
                       "made_by": "python -m bleu_lesson.analysis.post2018"},
        "scores": [{"system": s, "knob": k, "score": round(v, 6)}
                   for (s, k), v in scores.items()],
    }
    path.write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    _write_cache()
    print(load_post2018())

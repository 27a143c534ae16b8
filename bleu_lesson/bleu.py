"""BLEU: clipped n-gram precisions, their weighted geometric mean, and the brevity penalty.

    BLEU = BP · exp( Σ_n w_n · log p_n ),    p_n = Σ clipped matches_n / Σ candidate n-grams_n

The work is split the way sacrebleu splits it, with each step a named piece:

1. *extract*: a segment's text becomes a ``BleuStats`` record
   (``BleuScorer`` tokenizes and counts the references once, then each candidate);
2. *aggregate*: a corpus is ``sum`` of its segments' records;
3. *score*: ``score_stats`` is a pure function of one record and the options.

>>> refs = ["The cat is sitting on the mat", "A cat is on the mat", "The cat lies on the mat"]
>>> result = sentence_bleu("The cat is on the mat", refs, tokenizer="none", lowercase=True,
...                        smoothing="none")
>>> round(result.score, 4)                    # (1 · 1 · 1 · 2/3) ** (1/4) · BP 1
0.9036
>>> print(result)
BLEU = 90.36 100.0/100.0/100.0/66.7 (BP = 1.000 ratio = 1.000 hyp_len = 6 ref_len = 6)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import add

from ._version import __version__
from .brevity import TIE_RULES, brevity_penalty
from .clipping import count_matches, reference_counts
from .ngrams import _check_n
from .smoothing import (
    NLTK_METHODS,
    SACREBLEU_METHODS,
    check_smoothing,
    needs_order,
    nltk_precisions,
    sacrebleu_precisions,
)
from .stats import BleuStats
from .tokenizers import Tokenizer, get_tokenizer

__all__ = [
    "BleuOptions",
    "BleuResult",
    "BleuScorer",
    "REF_LENGTHS",
    "corpus_bleu",
    "geometric_mean",
    "references_from_streams",
    "score_stats",
    "sentence_bleu",
]

#: How the reference length of a segment is chosen for the brevity penalty.
REF_LENGTHS: tuple[str, ...] = ("closest", "shortest")


@dataclass(frozen=True)
class BleuOptions:
    """Every knob of a BLEU computation, checked once.

    ``weights=None`` means uniform weights over the orders that count; given weights are
    used as they are (with ``effective_order``, those of the orders dropped are dropped).
    ``ref_length``: ``"closest"`` (Papineni, sacrebleu, NLTK; ties decided by ``tie``)
    or ``"shortest"`` (Hugging Face ``evaluate``). ``effective_order`` applies to
    sacrebleu's smoothing methods only; NLTK has no such option.
    """

    max_n: int = 4
    weights: tuple[float, ...] | None = None
    tokenizer: str | Callable[[str], list[str]] = "13a"
    lowercase: bool = False
    smoothing: str = "exp"
    smooth_value: float | None = None
    effective_order: bool = False
    ref_length: str = "closest"
    tie: str = "shorter"

    def __post_init__(self) -> None:
        max_n = _check_n(self.max_n, "max_n")
        check_smoothing(self.smoothing)
        if self.weights is not None:
            if isinstance(self.weights, str) or not isinstance(self.weights, Sequence):
                raise TypeError(
                    f"weights must be a sequence of {max_n} numbers, "
                    f"got {type(self.weights).__name__}"
                )
            weights = tuple(self.weights)
            if len(weights) != max_n:
                raise ValueError(
                    f"weights must have max_n = {max_n} entries, got {len(weights)}"
                )
            for w in weights:
                if isinstance(w, bool) or not isinstance(w, int | float):
                    raise TypeError(f"weights must be numbers, got {w!r}")
                if not math.isfinite(w) or w < 0:
                    raise ValueError(f"weights must be non-negative and finite, got {w!r}")
            if not any(weights):
                raise ValueError("weights must not all be zero")
            object.__setattr__(self, "weights", tuple(float(w) for w in weights))
        if self.smooth_value is not None:
            if self.smoothing not in ("floor", "add-k"):
                raise ValueError(
                    f"smooth_value applies to 'floor' and 'add-k' only, not {self.smoothing!r}"
                )
            if isinstance(self.smooth_value, bool) or not isinstance(self.smooth_value,
                                                                     int | float):
                raise TypeError(f"smooth_value must be a number, got {self.smooth_value!r}")
            if self.smooth_value <= 0:
                raise ValueError(f"smooth_value must be positive, got {self.smooth_value}")
        if self.ref_length not in REF_LENGTHS:
            raise ValueError(f"ref_length must be one of {REF_LENGTHS}, got {self.ref_length!r}")
        if self.tie not in TIE_RULES:
            raise ValueError(f"tie must be one of {TIE_RULES}, got {self.tie!r}")
        # resolves the name now, so an unknown tokenizer fails here and not mid-corpus
        get_tokenizer(self.tokenizer, self.lowercase)

    @property
    def order(self) -> int:
        """How many n-gram orders the statistics count (NLTK's method 5 reads 5-grams)."""
        return needs_order(self.smoothing, self.max_n)

    @property
    def uses_effective_order(self) -> bool:
        return self.effective_order and self.smoothing in SACREBLEU_METHODS

    def get_tokenizer(self) -> Tokenizer:
        return get_tokenizer(self.tokenizer, self.lowercase)

    def signature(self, nrefs: int | str) -> str:
        """sacrebleu-style signature, e.g. ``nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|…``."""
        smooth = self.smoothing
        default = SACREBLEU_METHODS.get(smooth)
        if default is not None:
            value = self.smooth_value if self.smooth_value is not None else default
            smooth += f"[{value:.2f}]"
        parts = [
            f"nrefs:{nrefs}",
            f"case:{'lc' if self.lowercase else 'mixed'}",
            f"eff:{'yes' if self.uses_effective_order else 'no'}",
            f"tok:{self.get_tokenizer().name}",
            f"smooth:{smooth}",
        ]
        if self.max_n != 4:
            parts.append(f"ngram:{self.max_n}")
        if self.weights is not None and len(set(self.weights)) > 1:
            parts.append("weights:" + ",".join(f"{w:g}" for w in self.weights))
        if self.ref_length != "closest" or self.tie != "shorter":
            parts.append(f"reflen:{self.ref_length}" + ("-first" if self.tie == "first" else ""))
        parts.append(f"version:bleu_lesson-{__version__}")
        return "|".join(parts)


@dataclass(frozen=True)
class BleuResult:
    """A BLEU score with everything that produced it.

    ``score`` and ``precisions`` are on the 0–1 scale; ``str()`` prints sacrebleu's
    one-line format on the 0–100 scale.
    """

    score: float
    precisions: tuple[float, ...]
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    bp: float
    hyp_len: int
    ref_len: int
    ratio: float
    signature: str

    @property
    def stats(self) -> BleuStats:
        """The sufficient statistics this score was computed from (its ``max_n`` orders)."""
        return BleuStats(self.hyp_len, self.ref_len, self.matches, self.totals)

    def format(self, width: int = 2, signature: bool = False) -> str:
        """sacrebleu's line: ``BLEU = 90.36 100.0/…/66.7 (BP = 1.000 ratio = …)``."""
        name = f"BLEU|{self.signature}" if signature else "BLEU"
        # round(…, 9) first drops the float noise of the rescaling to 0–100, so that a
        # precision of 23/80 prints 28.8 like sacrebleu's 100 * 23 / 80 = 28.75, not 28.7
        prec = "/".join(f"{round(100 * p, 9):.1f}" for p in self.precisions)
        return (
            f"{name} = {round(100 * self.score, 9):.{width}f} {prec} (BP = {self.bp:.3f} "
            f"ratio = {self.ratio:.3f} hyp_len = {self.hyp_len:d} ref_len = {self.ref_len:d})"
        )

    def __str__(self) -> str:
        return self.format()


def geometric_mean(precisions: Sequence[float], weights: Sequence[float] | None = None,
                   orders: int | None = None) -> float:
    """The weighted geometric mean of the precisions: exp(Σ w_n · log p_n).

    It is 0 as soon as a precision with a positive weight is 0. Only the first ``orders``
    precisions count (all by default). Without weights each counted order gets
    1/orders (sacrebleu); given weights are used as they are for the orders that count,
    and those of the others are dropped (d2l's rule).

    >>> round(geometric_mean([1.0, 0.8, 0.5, 0.25]), 4)      # (1 · 0.8 · 0.5 · 0.25) ** (1/4)
    0.5623
    >>> geometric_mean([1.0, 0.8, 0.5, 0.0])
    0.0
    """
    orders = len(precisions) if orders is None else orders
    used = [1.0 / orders] * orders if weights is None else list(weights[:orders])
    log_sum = 0.0
    for w, p in zip(used, precisions, strict=False):
        if w == 0:
            continue
        if p <= 0:
            return 0.0
        log_sum += w * math.log(p)
    return math.exp(log_sum)


def score_stats(stats: BleuStats, options: BleuOptions | None = None, *,
                nrefs: int | str = 1) -> BleuResult:
    """Score one record of sufficient statistics: a pure function of stats and options.

    >>> r = score_stats(BleuStats(6, 7, (6, 4, 2, 0), (6, 5, 4, 3)), BleuOptions(smoothing="none"))
    >>> round(r.bp, 4), r.score                   # the seed's one-reference example
    (0.8465, 0.0)
    """
    options = options or BleuOptions()
    max_n = options.max_n
    if stats.order < options.order:
        raise ValueError(
            f"these statistics count {stats.order} orders, the options need {options.order}"
        )
    matches, totals = stats.matches[:max_n], stats.totals[:max_n]
    bp = brevity_penalty(stats.hyp_len, stats.ref_len)
    smoothing = options.smoothing
    if smoothing in NLTK_METHODS:
        if matches[0] == 0:  # NLTK: no unigram match, score 0 whatever the smoothing
            precisions = [m / max(1, t) for m, t in zip(matches, totals, strict=True)]
            mean = 0.0
        else:
            fifth = (stats.matches[4], stats.totals[4]) if stats.order >= 5 else None
            precisions = nltk_precisions(matches, totals, smoothing, stats.hyp_len, fifth)
            weights = options.weights or (1.0 / max_n,) * max_n
            mean = math.exp(math.fsum(w * math.log(p)
                                      for w, p in zip(weights, precisions, strict=True)
                                      if p > 0))
    else:
        precisions, orders = sacrebleu_precisions(
            matches, totals, smoothing, options.smooth_value, options.uses_effective_order
        )
        mean = geometric_mean(precisions, options.weights, orders) if any(matches) else 0.0
    ratio = stats.hyp_len / stats.ref_len if stats.ref_len else 0.0
    return BleuResult(
        score=bp * mean,
        precisions=tuple(precisions),
        matches=tuple(matches),
        totals=tuple(totals),
        bp=bp,
        hyp_len=stats.hyp_len,
        ref_len=stats.ref_len,
        ratio=ratio,
        signature=options.signature(nrefs),
    )


# --- input checking -------------------------------------------------------------------

def _check_reference_list(refs: object, where: str) -> list[str]:
    if isinstance(refs, str):
        raise TypeError(
            f"{where} must be a list of reference strings, not a single str "
            f"(wrap it: [{refs[:30]!r}])"
        )
    if not isinstance(refs, Sequence):
        raise TypeError(f"{where} must be a list of reference strings, got {type(refs).__name__}")
    if len(refs) == 0:
        raise ValueError(f"at least one reference is required ({where} is empty)")
    for k, ref in enumerate(refs):
        if not isinstance(ref, str):
            raise TypeError(f"{where}[{k}] must be a str, got {type(ref).__name__}")
    return list(refs)


def _check_candidates(candidates: object) -> list[str]:
    if isinstance(candidates, str):
        raise TypeError("candidates must be a list of strings, not a single str")
    if not isinstance(candidates, Sequence):
        raise TypeError(f"candidates must be a list of strings, got {type(candidates).__name__}")
    if len(candidates) == 0:
        raise ValueError("candidates must not be empty: the corpus has no segment")
    for i, cand in enumerate(candidates):
        if not isinstance(cand, str):
            raise TypeError(f"candidates[{i}] must be a str, got {type(cand).__name__}")
    return list(candidates)


def _check_corpus_references(references: object) -> list[list[str]]:
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError(
            "references must be a list with, for each candidate, a list of its references; "
            f"got {type(references).__name__}"
        )
    if len(references) == 0:
        raise ValueError("references must not be empty: the corpus has no segment")
    return [_check_reference_list(refs, f"references[{i}]") for i, refs in enumerate(references)]


def references_from_streams(*streams: Sequence[str | None]) -> list[list[str]]:
    """Turn sacrebleu's layout (one stream per reference set) into per-segment lists.

    ``refs[k][i]`` (reference k of segment i) becomes ``out[i][k]``; ``None`` entries
    are dropped, so segments may have different numbers of references.

    >>> references_from_streams(["a1", "b1"], ["a2", None])
    [['a1', 'a2'], ['b1']]
    """
    if not streams:
        raise ValueError("at least one reference stream is required")
    lengths = {len(s) for s in streams}
    if len(lengths) != 1:
        raise ValueError(f"reference streams must have the same length, got {sorted(lengths)}")
    return [[r for r in segment if r is not None] for segment in zip(*streams, strict=True)]


# --- the scorer -----------------------------------------------------------------------

_MEMO_LIMIT = 1 << 17  # entries; about 40 systems x 3000 segments
_CORPUS_MEMO_LIMIT = 64  # whole systems

#: How ``BleuScorer`` counts: "python" is the standard-library path the chapters show
#: (``clipping.count_matches``); "numpy" counts the whole corpus at once
#: (``vectorized.ReferenceIndex``, same numbers); "auto" takes numpy from
#: ``VECTORIZE_FROM`` segments on when numpy is installed.
ENGINES: tuple[str, ...] = ("auto", "python", "numpy")
VECTORIZE_FROM = 200


def _numpy_available() -> bool:
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


class BleuScorer:
    """Score any number of systems against one test set, counting its references once.

    ``references[i]`` is the list of references of segment i (one or more each).
    Options are those of ``BleuOptions`` (or pass ``options=BleuOptions(...)``).
    ``engine`` chooses how counts are made (see ``ENGINES``); it never changes a result.

    >>> scorer = BleuScorer([["the cat is on the mat"], ["there is a cat"]], tokenizer="none")
    >>> round(scorer.score(["the cat is on the mat", "there is a cat"]).score, 4)
    1.0
    """

    def __init__(self, references: Sequence[Sequence[str]], options: BleuOptions | None = None,
                 *, engine: str = "auto", **kwargs) -> None:
        if options is not None and kwargs:
            raise TypeError("give either options=BleuOptions(...) or keyword options, not both")
        if options is not None and not isinstance(options, BleuOptions):
            raise TypeError(f"options must be a BleuOptions, got {type(options).__name__}")
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {', '.join(ENGINES)}; got {engine!r}")
        self.options = options or BleuOptions(**kwargs)
        refs = _check_corpus_references(references)
        if engine == "auto":
            engine = ("numpy" if len(refs) >= VECTORIZE_FROM and _numpy_available()
                      else "python")
        elif engine == "numpy" and not _numpy_available():
            raise ImportError('engine="numpy" needs numpy: pip install numpy')
        #: the engine in use: "python" or "numpy"
        self.engine = engine
        self._tokenize = self.options.get_tokenizer()
        order = self.options.order
        self._counts = [len(r) for r in refs]
        counts = set(self._counts)
        self.nrefs: int | str = counts.pop() if len(counts) == 1 else "var"
        tokenize = self._tokenize
        tokens = [[tokenize(r) for r in segment] for segment in refs]
        self._ref_lens = [tuple(map(len, segment)) for segment in tokens]
        if engine == "numpy":
            from .vectorized import ReferenceIndex

            self._index = ReferenceIndex(tokens, order)
        else:
            self._refs = [reference_counts(segment, order) for segment in tokens]
        # the same system is scored again by widgets and resampling, and systems often
        # agree on a segment: python memoizes (segment, text) -> counts, numpy
        # (every text) -> every segment's counts
        self._memo: dict = {}

    def __len__(self) -> int:
        return len(self._ref_lens)

    def _ref_length(self, hyp_len: int, ref_lens: tuple[int, ...]) -> int:
        if len(ref_lens) == 1:
            return ref_lens[0]
        if self.options.ref_length == "shortest":
            return min(ref_lens)
        best = ref_lens[0]
        gap = abs(best - hyp_len)
        shorter = self.options.tie == "shorter"
        for r in ref_lens[1:]:  # closest; ties: the shorter (or the first listed)
            d = abs(r - hyp_len)
            if d < gap or (d == gap and shorter and r < best):
                best, gap = r, d
        return best

    def _segments(self, candidates: Sequence[str]):
        """Yield ``(hyp_len, ref_len, matches)`` for each candidate."""
        cands = _check_candidates(candidates)
        if len(cands) != len(self):
            raise ValueError(
                f"candidates and references must have the same length: {len(cands)} "
                f"candidates, {len(self)} segment{'s' if len(self) != 1 else ''} "
                "of references"
                + (" (sacrebleu's layout refs[k][i]? convert it with references_from_streams)"
                   if self._counts and all(n == len(cands) for n in self._counts) else "")
            )
        order = self.options.order
        tokenize, ref_length = self._tokenize, self._ref_length
        memo = self._memo
        if len(memo) > (_MEMO_LIMIT if self.engine == "python" else _CORPUS_MEMO_LIMIT):
            memo.clear()
        if self.engine == "numpy":  # the whole corpus at once, same numbers
            key = tuple(cands)
            counts = memo.get(key)
            if counts is None:
                lengths, matches = self._index.count([tokenize(c) for c in cands])
                counts = memo[key] = [
                    (hyp_len, ref_length(hyp_len, ref_lens), seg)
                    for hyp_len, ref_lens, seg in zip(lengths.tolist(), self._ref_lens,
                                                      matches.tolist(), strict=True)
                ]
            yield from counts
            return
        for i, (cand, (maxima, keys, _), ref_lens) in enumerate(
                zip(cands, self._refs, self._ref_lens, strict=True)):
            counts = memo.get((i, cand))
            if counts is None:
                tokens = tokenize(cand)
                hyp_len = len(tokens)
                counts = memo[i, cand] = (hyp_len, ref_length(hyp_len, ref_lens),
                                          count_matches(tokens, maxima, keys, order))
            yield counts

    def segment_stats(self, candidates: Sequence[str]) -> list[BleuStats]:
        """One ``BleuStats`` per candidate (what a bootstrap resamples)."""
        order = self.options.order
        return [
            BleuStats(hyp_len, ref_len, tuple(matches),
                      tuple(max(hyp_len - n, 0) for n in range(order)))
            for hyp_len, ref_len, matches in self._segments(candidates)
        ]

    def corpus_stats(self, candidates: Sequence[str]) -> BleuStats:
        """The corpus's statistics: the sum of ``segment_stats(candidates)``, in one pass."""
        order = self.options.order
        hyp_total = ref_total = 0
        matches = [0] * order
        lengths: Counter[int] = Counter()  # totals follow from the candidate lengths
        for hyp_len, ref_len, seg in self._segments(candidates):
            hyp_total += hyp_len
            ref_total += ref_len
            lengths[hyp_len] += 1
            matches = list(map(add, matches, seg))
        totals = [sum(k * max(length - i, 0) for length, k in lengths.items())
                  for i in range(order)]
        return BleuStats(hyp_total, ref_total, tuple(matches), tuple(totals))

    def score_stats(self, stats: BleuStats) -> BleuResult:
        """Score statistics (one segment's, a sum, a resample) with this scorer's options."""
        return score_stats(stats, self.options, nrefs=self.nrefs)

    def score(self, candidates: Sequence[str]) -> BleuResult:
        """Corpus BLEU of one system: the score of the sum of its segments' statistics."""
        return self.score_stats(self.corpus_stats(candidates))

    def sentence_scores(self, candidates: Sequence[str]) -> list[BleuResult]:
        """Each segment scored on its own (use smoothing and ``effective_order=True``)."""
        return [self.score_stats(s) for s in self.segment_stats(candidates)]


def sentence_bleu(candidate: str, references: Sequence[str], *, max_n: int = 4,
                  weights: Sequence[float] | None = None,
                  tokenizer: str | Callable[[str], list[str]] = "13a",
                  lowercase: bool = False, smoothing: str = "exp",
                  effective_order: bool = True, smooth_value: float | None = None,
                  ref_length: str = "closest", tie: str = "shorter") -> BleuResult:
    """BLEU of one candidate against its references (sacrebleu's ``sentence_bleu`` defaults).

    >>> r = sentence_bleu("the cat sat on the mat", ["the cat sat on a mat"], tokenizer="none")
    >>> r.matches, r.totals, round(r.score, 4)    # (5/6 · 3/5 · 2/4 · 1/3) ** (1/4), BP 1
    ((5, 3, 2, 1), (6, 5, 4, 3), 0.5373)
    """
    if not isinstance(candidate, str):
        raise TypeError(f"candidate must be a str, got {type(candidate).__name__}")
    refs = _check_reference_list(references, "references")
    scorer = BleuScorer([refs], max_n=max_n, weights=weights, tokenizer=tokenizer,
                        lowercase=lowercase, smoothing=smoothing, smooth_value=smooth_value,
                        effective_order=effective_order, ref_length=ref_length, tie=tie)
    return scorer.score([candidate])


def corpus_bleu(candidates: Sequence[str], references: Sequence[Sequence[str]], *,
                max_n: int = 4, weights: Sequence[float] | None = None,
                tokenizer: str | Callable[[str], list[str]] = "13a",
                lowercase: bool = False, smoothing: str = "exp",
                effective_order: bool = False, smooth_value: float | None = None,
                ref_length: str = "closest", tie: str = "shorter") -> BleuResult:
    """Corpus BLEU: sum every segment's statistics, then score once.

    ``references[i]`` lists the references of ``candidates[i]``; for sacrebleu's
    stream layout use ``references_from_streams``.

    >>> round(corpus_bleu(["the cat", "a dog"], [["the cat sat"], ["a dog"]], max_n=2,
    ...                   tokenizer="none", smoothing="none").score, 4)  # p 4/4, 2/2; BP e^(1-5/4)
    0.7788
    """
    cands = _check_candidates(candidates)
    scorer = BleuScorer(references, max_n=max_n, weights=weights, tokenizer=tokenizer,
                        lowercase=lowercase, smoothing=smoothing, smooth_value=smooth_value,
                        effective_order=effective_order, ref_length=ref_length, tie=tie)
    return scorer.score(cands)

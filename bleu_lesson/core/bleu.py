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
import numbers
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from itertools import starmap

from bleu_lesson._version import __version__

from ._validate import checks
from .brevity import REF_LENGTHS, TIE_RULES, brevity_penalty, effective_ref_length
from .engines import ENGINES, VECTORIZE_FROM, Engine, choose_engine, make_engine
from .means import geometric_mean, nltk_geometric_mean
from .ngrams import _check_n
from .smoothing import SMOOTHING, check_smoothing, needs_order, smoothed_precisions
from .stats import BleuStats
from .tokenizers import Tokenizer, get_tokenizer

__all__ = [
    "BleuOptions",
    "BleuResult",
    "BleuScorer",
    "ENGINES",
    "REF_LENGTHS",
    "VECTORIZE_FROM",
    "corpus_bleu",
    "geometric_mean",
    "references_from_streams",
    "score_stats",
    "sentence_bleu",
]


def _check_bool(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return value


def _check_weights(weights: object, max_n: int) -> tuple[float, ...]:
    if isinstance(weights, str | bytes) or not isinstance(weights, Iterable):
        raise TypeError(
            f"weights must be a sequence of {max_n} numbers, got {type(weights).__name__}"
        )
    values = tuple(weights)  # a list, a tuple, a numpy array (as NLTK accepts)
    if len(values) != max_n:
        raise ValueError(f"weights must have max_n = {max_n} entries, got {len(values)}")
    for w in values:
        if isinstance(w, bool) or not isinstance(w, numbers.Real):
            raise TypeError(f"weights must be numbers, got {w!r}")
        if not math.isfinite(w) or w < 0:
            raise ValueError(f"weights must be non-negative and finite, got {w!r}")
    if not any(values):
        raise ValueError("weights must not all be zero")
    return tuple(float(w) for w in values)


@dataclass(frozen=True)
class BleuOptions:
    """Every knob of a BLEU computation, checked and resolved once.

    ``weights=None`` means uniform weights over the orders that count; given weights are
    used as they are (with ``effective_order``, those of the orders dropped are dropped).
    ``ref_length``: ``"closest"`` (Papineni, sacrebleu, NLTK; ties decided by ``tie``)
    or ``"shortest"`` (Hugging Face ``evaluate``). ``effective_order`` applies to
    sacrebleu's smoothing methods only; NLTK has no such option. The tokenizer object
    and the signature are made here, once, not each time a score is computed.
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
    #: the resolved tokenizer (``get_tokenizer(tokenizer, lowercase)``)
    tokenize: Tokenizer = field(init=False, repr=False, compare=False)
    #: the geometric mean of the precisions: ``geometric_mean``, or for NLTK's methods
    #: ``nltk_geometric_mean`` (a zero precision is left out, as NLTK does)
    mean: Callable[..., float] = field(init=False, repr=False, compare=False)
    _signature_tail: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        max_n = _check_n(self.max_n, "max_n")
        method = SMOOTHING[check_smoothing(self.smoothing)]
        _check_bool(self.lowercase, "lowercase")
        _check_bool(self.effective_order, "effective_order")
        if self.weights is not None:
            object.__setattr__(self, "weights", _check_weights(self.weights, max_n))
        if self.smooth_value is not None:
            if not method.takes_value:
                takes = [m.name for m in SMOOTHING.values() if m.takes_value]
                raise ValueError(
                    f"smooth_value applies to {' and '.join(map(repr, takes))} only, "
                    f"not {self.smoothing!r}"
                )
            value = self.smooth_value
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise TypeError(f"smooth_value must be a number, got {value!r}")
            if not math.isfinite(value):
                raise ValueError(f"smooth_value must be finite, got {value}")
            if value < 0:
                raise ValueError(f"smooth_value must be non-negative, got {value}")
        if self.ref_length not in REF_LENGTHS:
            raise ValueError(f"ref_length must be one of {REF_LENGTHS}, got {self.ref_length!r}")
        if self.tie not in TIE_RULES:
            raise ValueError(f"tie must be one of {TIE_RULES}, got {self.tie!r}")
        # resolved now: an unknown tokenizer fails here and not mid-corpus, and a
        # bootstrap of 1,000 resamples does not build it (or the signature) 1,000 times
        object.__setattr__(self, "tokenize", get_tokenizer(self.tokenizer, self.lowercase))
        object.__setattr__(self, "mean",
                           nltk_geometric_mean if method.zeros == "skip" else geometric_mean)
        object.__setattr__(self, "_signature_tail", self._make_signature_tail())

    def __reduce__(self) -> tuple:
        # pickled as the arguments it was made from; the tokenizer is resolved again
        init = [f.name for f in fields(self) if f.init]
        return (type(self), tuple(getattr(self, name) for name in init))

    @property
    def order(self) -> int:
        """How many n-gram orders the statistics count (NLTK's method 5 reads 5-grams)."""
        return needs_order(self.smoothing, self.max_n)

    @property
    def uses_effective_order(self) -> bool:
        return self.effective_order and SMOOTHING[self.smoothing].family == "sacrebleu"

    def get_tokenizer(self) -> Tokenizer:
        """The tokenizer these options resolved to when they were made."""
        return self.tokenize

    def ref_length_of(self, hyp_len: int, ref_lens: Sequence[int]) -> int:
        """The reference length the brevity penalty uses, by these options' rule."""
        return effective_ref_length(hyp_len, ref_lens, self.ref_length, self.tie)

    def _make_signature_tail(self) -> str:
        method = SMOOTHING[self.smoothing]
        smooth = self.smoothing
        if method.takes_value:
            value = self.smooth_value if self.smooth_value is not None else method.default
            smooth += f"[{value:.2f}]"
        parts = [
            f"case:{'lc' if self.lowercase else 'mixed'}",
            f"eff:{'yes' if self.uses_effective_order else 'no'}",
            f"tok:{self.tokenize.name}",
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

    def signature(self, nrefs: int | str) -> str:
        """sacrebleu-style signature, e.g. ``nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|…``."""
        return f"nrefs:{nrefs}|{self._signature_tail}"


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


# --- NLTK compatibility ---------------------------------------------------------------

def stats_fit_options(args: Mapping[str, object]) -> None:
    """score_stats' check: the statistics count every order the options need."""
    stats, options = args["stats"], args["options"]
    if not isinstance(stats, BleuStats):
        raise TypeError(f"stats must be a BleuStats, got {type(stats).__name__}")
    if options is not None and not isinstance(options, BleuOptions):
        raise TypeError(f"options must be a BleuOptions or None, got {type(options).__name__}")
    if options is not None and stats.order < options.order:
        raise ValueError(
            f"stats count {stats.order} orders, the options need {options.order}"
        )


@checks(stats_fit_options)
def score_stats(stats: BleuStats, options: BleuOptions | None = None, *,
                nrefs: int | str = 1) -> BleuResult:
    """Score one record of sufficient statistics: a pure function of stats and options.

        BLEU = BP(c, r) · exp(Σ w_n · log p_n)

    >>> r = score_stats(BleuStats(6, 7, (6, 4, 2, 0), (6, 5, 4, 3)), BleuOptions(smoothing="none"))
    >>> round(r.bp, 4), r.score                   # the seed's one-reference example
    (0.8465, 0.0)
    """
    options = options or BleuOptions()
    matches, totals = stats.matches[:options.max_n], stats.totals[:options.max_n]
    bp = brevity_penalty(stats.hyp_len, stats.ref_len)
    if not any(matches):
        # no n-gram matches: BLEU is 0 whatever the smoothing (sacrebleu and NLTK agree)
        precisions, mean = [0.0] * options.max_n, 0.0
    else:
        precisions, orders = smoothed_precisions(
            stats, options.max_n, options.smoothing, value=options.smooth_value,
            effective_order=options.uses_effective_order)
        # options.mean is geometric_mean (for NLTK's methods: nltk_geometric_mean)
        mean = options.mean(precisions, options.weights, orders)
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
    for k, stream in enumerate(streams):
        if isinstance(stream, str) or not isinstance(stream, Sequence):
            raise TypeError(
                f"streams[{k}] must be a list of reference strings (one per segment), "
                f"got {type(stream).__name__}"
                + (" (pass each stream as a list: references_from_streams(['ref 1', ...]))"
                   if isinstance(stream, str) else "")
            )
        for i, ref in enumerate(stream):
            if ref is not None and not isinstance(ref, str):
                raise TypeError(f"streams[{k}][{i}] must be a str or None, "
                                f"got {type(ref).__name__}")
    lengths = {len(s) for s in streams}
    if len(lengths) != 1:
        raise ValueError(f"reference streams must have the same length, got {sorted(lengths)}")
    return [[r for r in segment if r is not None] for segment in zip(*streams, strict=True)]


# --- the scorer -----------------------------------------------------------------------

#: How many systems a scorer remembers (their per-segment statistics); the same system
#: is scored again by widgets and by resampling.
MEMO_SYSTEMS = 64

#: A remembered segment: BleuStats' fields (hyp_len, ref_len, matches, totals).
_Row = tuple[int, int, tuple[int, ...], tuple[int, ...]]


class BleuScorer:
    """Score any number of systems against one test set, counting its references once.

    ``references[i]`` is the list of references of segment i (one or more each).
    Options are those of ``BleuOptions`` (or pass ``options=BleuOptions(...)``).
    ``engine`` chooses how counts are made (see ``engines.ENGINES``); it never changes
    a result.

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
        self.options = options or BleuOptions(**kwargs)
        refs = _check_corpus_references(references)
        #: the engine in use: "python" or "numpy"
        self.engine: str = choose_engine(engine, len(refs))
        self._counts = [len(r) for r in refs]
        counts = set(self._counts)
        self.nrefs: int | str = counts.pop() if len(counts) == 1 else "var"
        tokenize = self.options.tokenize
        # tuples, which Python's garbage collector stops tracking at its next pass: a test
        # set's references are not carried into the older generations it scans less often
        tokens = [tuple([tuple(tokenize(r)) for r in segment]) for segment in refs]
        self._ref_lens = tuple(tuple(map(len, segment)) for segment in tokens)
        self._engine: Engine = make_engine(self.engine, tokens, self.options.order)
        # one cache policy for every engine: whole systems, the most recent MEMO_SYSTEMS
        self._memo: OrderedDict[tuple[str, ...], tuple[_Row, ...]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._ref_lens)

    def built_on(self, references: Sequence[Sequence[str]]) -> bool:
        """Whether ``references`` tokenize to this scorer's reference lengths, segment by
        segment (a cheap test that a scorer belongs to a reference set; lines the
        tokenizer has seen come from its cache).

        >>> scorer = BleuScorer([["a b c"], ["d"]], tokenizer="none")
        >>> scorer.built_on([["x y z"], ["w"]]), scorer.built_on([["a b"], ["d"]])
        (True, False)
        """
        refs = _check_corpus_references(references)
        tokenize = self.options.tokenize
        return len(refs) == len(self) and all(
            tuple(len(tokenize(r)) for r in segment) == lengths
            for segment, lengths in zip(refs, self._ref_lens, strict=True))

    def _check(self, candidates: Sequence[str]) -> list[str]:
        cands = _check_candidates(candidates)
        if len(cands) != len(self):
            raise ValueError(
                f"candidates and references must have the same length: {len(cands)} "
                f"candidates, {len(self)} segment{'s' if len(self) != 1 else ''} "
                "of references"
                + (" (sacrebleu's layout refs[k][i]? convert it with references_from_streams)"
                   if self._counts and all(n == len(cands) for n in self._counts) else "")
            )
        return cands

    def _rows(self, candidates: Sequence[str]) -> tuple[_Row, ...]:
        """Each candidate's BleuStats fields, counted once and remembered (the one cache)."""
        cands = self._check(candidates)
        key = tuple(cands)
        rows = self._memo.get(key)
        if rows is None:
            tokenize, ref_length_of = self.options.tokenize, self.options.ref_length_of
            # The engine takes the tokenizer's output lazily, one candidate at a time, so
            # no corpus of token lists piles up. A candidate's length c is its number of
            # unigrams, totals[0]. Remembered as a tuple of tuples of numbers, which
            # Python's garbage collector stops tracking: 64 systems of a test set would
            # otherwise be scanned by every full collection while the scorer lives.
            rows = tuple(
                (totals[0], ref_length_of(totals[0], ref_lens), matches, totals)
                for ref_lens, (matches, totals) in zip(
                    self._ref_lens, self._engine.count(map(tokenize, cands)), strict=True)
            )
            self._memo[key] = rows
            if len(self._memo) > MEMO_SYSTEMS:
                self._memo.popitem(last=False)
        else:
            self._memo.move_to_end(key)
        return rows

    def iter_segment_stats(self, candidates: Sequence[str]) -> Iterator[BleuStats]:
        """One ``BleuStats`` per candidate, each made when it is asked for."""
        return starmap(BleuStats, self._rows(candidates))

    def segment_stats(self, candidates: Sequence[str]) -> list[BleuStats]:
        """One ``BleuStats`` per candidate (what a bootstrap resamples)."""
        return list(self.iter_segment_stats(candidates))

    def corpus_stats(self, candidates: Sequence[str]) -> BleuStats:
        """The corpus's statistics: literally the sum of its segments' statistics."""
        return sum(self.iter_segment_stats(candidates))  # type: ignore[return-value]

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
    """BLEU of one candidate: corpus BLEU of a corpus of one segment (sacrebleu's defaults
    for a sentence, so ``effective_order=True``).

    >>> r = sentence_bleu("the cat sat on the mat", ["the cat sat on a mat"], tokenizer="none")
    >>> r.matches, r.totals, round(r.score, 4)    # (5/6 · 3/5 · 2/4 · 1/3) ** (1/4), BP 1
    ((5, 3, 2, 1), (6, 5, 4, 3), 0.5373)
    """
    if not isinstance(candidate, str):
        raise TypeError(f"candidate must be a str, got {type(candidate).__name__}")
    refs = _check_reference_list(references, "references")
    return corpus_bleu([candidate], [refs], max_n=max_n, weights=weights, tokenizer=tokenizer,
                       lowercase=lowercase, smoothing=smoothing, smooth_value=smooth_value,
                       effective_order=effective_order, ref_length=ref_length, tie=tie)


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
    options = BleuOptions(max_n=max_n, weights=weights, tokenizer=tokenizer,  # type: ignore[arg-type]
                          lowercase=lowercase, smoothing=smoothing, smooth_value=smooth_value,
                          effective_order=effective_order, ref_length=ref_length, tie=tie)
    return BleuScorer(references, options).score(cands)

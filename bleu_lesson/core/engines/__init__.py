"""Counting engines: how a test set's clipped n-gram counts are made, never what they are.

An engine is made once from a test set's tokenized references and the number of orders
to count; ``count(candidates)`` returns, for each segment, the clipped matches and the
candidate n-grams of orders 1 … order. ``BleuScorer`` turns those into ``BleuStats``
(adding the lengths and the reference-length rule, which live in ``brevity``) and keeps
the one cache (whole systems), so an engine does no bookkeeping of its own.

- ``python``: exactly the functions the chapters show (``ngrams``, ``ngram_counts``,
  ``max_reference_counts``, ``clipped_counts``); standard library only.
- ``numpy``: the same counts for the whole corpus at once, with array operations.

The one choice policy: ``engine="auto"`` takes numpy from ``VECTORIZE_FROM`` segments
on when numpy is installed, else python. ``tests/test_vectorized.py`` checks that both
give identical statistics on generated corpora and on every WMT22 system.

>>> choose_engine("auto", 3), choose_engine("python", 10_000)
('python', 'python')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

__all__ = ["ENGINES", "VECTORIZE_FROM", "Counts", "Engine", "choose_engine", "make_engine"]

#: The names ``BleuScorer(engine=...)`` accepts.
ENGINES: tuple[str, ...] = ("auto", "python", "numpy")
#: From this many segments on, "auto" counts with numpy (when it is installed).
VECTORIZE_FROM = 200

#: One segment's counts: (clipped matches of orders 1 … N, candidate n-grams of each order).
Counts = tuple[tuple[int, ...], tuple[int, ...]]


class Engine(Protocol):
    """What every engine provides."""

    #: "python" or "numpy"
    name: str
    #: how many orders ``count`` returns
    order: int

    def count(self, candidates: Iterable[Sequence[str]]) -> list[Counts]:
        """For each tokenized candidate (one per segment, in order), its ``Counts``.

        ``candidates`` may be any iterable, such as a lazy ``map`` of the tokenizer."""
        ...


def _numpy_available() -> bool:
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


def choose_engine(engine: str, n_segments: int) -> str:
    """The engine to use: ``engine`` itself, or for "auto" the choice policy above."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}; got {engine!r}")
    if engine == "auto":
        return "numpy" if n_segments >= VECTORIZE_FROM and _numpy_available() else "python"
    if engine == "numpy" and not _numpy_available():
        raise ImportError('engine="numpy" needs numpy: pip install numpy')
    return engine


def make_engine(name: str, references: Sequence[Sequence[Sequence[str]]], order: int) -> Engine:
    """Build engine ``name`` ("python" or "numpy") on tokenized references."""
    if name == "python":
        from .python import PythonEngine  # it imports Counts from here: a cycle at the top

        return PythonEngine(references, order)
    if name == "numpy":
        from .numpy import NumpyEngine  # imports numpy: only when asked for, so import stays light

        return NumpyEngine(references, order)
    raise ValueError(f"engine must be 'python' or 'numpy', got {name!r}")

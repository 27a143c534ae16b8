"""Sufficient statistics: everything BLEU needs to know about a sentence, as data.

A segment is reduced to its candidate length c, its effective reference length r, and
for each order n the clipped matches m_n and candidate n-grams t_n. These numbers add:
corpus BLEU is the score of ``sum(segment_stats)``, never an average of sentence scores.

>>> a = BleuStats(6, 7, (6, 4, 2, 0), (6, 5, 4, 3))
>>> b = BleuStats(3, 3, (3, 2, 1, 0), (3, 2, 1, 0))
>>> a + b
BleuStats(hyp_len=9, ref_len=10, matches=(9, 6, 3, 0), totals=(9, 7, 5, 3))
>>> sum([a, b]) == a + b
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import add

__all__ = ["BleuStats", "sum_stats"]


@dataclass(frozen=True, slots=True)
class BleuStats:
    """Additive BLEU statistics of one segment or of a whole corpus.

    ``matches[n-1]`` and ``totals[n-1]`` are the clipped matches and the candidate
    n-grams of order n.
    """

    hyp_len: int
    ref_len: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.matches) != len(self.totals):
            raise ValueError(
                f"matches and totals must have the same length, "
                f"got {len(self.matches)} and {len(self.totals)}"
            )

    @property
    def order(self) -> int:
        """The number of n-gram orders counted."""
        return len(self.matches)

    def to_row(self) -> tuple[int, ...]:
        """The statistics as one flat row, ``(c, r, m_1 … m_N, t_1 … t_N)``: the form a
        table of segments takes (rows add column by column, as the statistics do).

        >>> BleuStats(6, 7, (6, 4), (6, 5)).to_row()
        (6, 7, 6, 4, 6, 5)
        """
        return (self.hyp_len, self.ref_len, *self.matches, *self.totals)

    @classmethod
    def from_row(cls, row: Sequence[float]) -> BleuStats:
        """The statistics a row of ``to_row``'s form holds (a sum of rows, a resample).

        Whole numbers stored as floats (a matrix product of counts) become ints again.

        >>> BleuStats.from_row([6.0, 7, 6, 4, 6, 5])
        BleuStats(hyp_len=6, ref_len=7, matches=(6, 4), totals=(6, 5))
        """
        if len(row) < 4 or len(row) % 2:
            raise ValueError(f"a row of BleuStats has 2 + 2·N entries (N >= 1 orders), "
                             f"got {len(row)}")
        values = [int(round(v)) for v in row]
        order = (len(values) - 2) // 2
        return cls(values[0], values[1], tuple(values[2:2 + order]), tuple(values[2 + order:]))

    def __add__(self, other: BleuStats) -> BleuStats:
        if not isinstance(other, BleuStats):
            return NotImplemented
        if len(other.matches) != len(self.matches):
            raise ValueError(f"cannot add statistics of {self.order} and {other.order} orders")
        return BleuStats(
            self.hyp_len + other.hyp_len,
            self.ref_len + other.ref_len,
            tuple(map(add, self.matches, other.matches)),  # order by order: m_1 + m_1', …
            tuple(map(add, self.totals, other.totals)),
        )

    def __radd__(self, other: object) -> BleuStats:
        # lets the built-in sum() start from 0
        if other == 0:
            return self
        return NotImplemented


def sum_stats(stats: Iterable[BleuStats]) -> BleuStats:
    """Add many statistics: ``sum(stats)``, with a clear error for an empty sequence.

    >>> sum_stats([BleuStats(1, 2, (1,), (1,)), BleuStats(2, 2, (0,), (2,))])
    BleuStats(hyp_len=3, ref_len=4, matches=(1,), totals=(3,))
    """
    it = iter(stats)
    try:
        first = next(it)
    except StopIteration:
        raise ValueError("cannot sum an empty sequence of BleuStats") from None
    return sum(it, first)

"""How a benchmark says what it found: each figure with its goal and whether it is met.

Every line that carries a goal ends with ``-> met`` or ``-> MISSED`` (``verdict``), so a
reader sees it at the end of the row and ``tools/run_benchmarks.py`` counts it in its
summary. In a script::

    from _goals import verdict

    print(f"ratio {ratio:.2f}x (goal >= 1.5x) {verdict(ratio >= 1.5)}")

(The name starts with ``_`` so that ``make bench``, which runs ``benchmarks/bench_*.py``,
does not run it.)
"""

from __future__ import annotations

MET = "-> met"
MISSED = "-> MISSED"


def verdict(met: bool) -> str:
    """The end of a row with a goal: ``-> met`` or ``-> MISSED``.

    >>> verdict(2.1 >= 1.5), verdict(0.9 <= 0.7)
    ('-> met', '-> MISSED')
    """
    return MET if met else MISSED

"""How long ``import bleu_lesson`` takes in a fresh interpreter, and what it pulls in.

    python benchmarks/bench_import.py [--repeat 7]

Prints the median wall time of ``python -c "import bleu_lesson"`` minus that of
``python -c "pass"`` (the interpreter's own start-up), and checks that matplotlib,
ipywidgets and sacrebleu were not imported.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from _goals import verdict

HEAVY = ("matplotlib", "ipywidgets", "sacrebleu")
PROBE = (
    "import sys, bleu_lesson; "
    f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
)


def timed(code: str) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    return time.perf_counter() - start, out.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    base = statistics.median(timed("pass")[0] for _ in range(args.repeat))
    runs = [timed(PROBE) for _ in range(args.repeat)]
    cost = statistics.median(t for t, _ in runs) - base
    heavy = runs[0][1]
    print(f"import bleu_lesson: {1000 * cost:.1f} ms (median of {args.repeat}, "
          f"interpreter start-up {1000 * base:.1f} ms subtracted)")
    print(f"heavy modules imported: {heavy or 'none'} (goal: none of "
          f"{', '.join(HEAVY)}) {verdict(not heavy)}")
    return 1 if heavy else 0


if __name__ == "__main__":
    sys.exit(main())

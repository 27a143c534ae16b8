"""Checking a class: 30 submissions of one chapter with ``bleu-lesson check --jobs N``.

    python benchmarks/bench_check.py [--jobs N] [--students 30]

Builds the submissions from chapter 02 (a third right, a third wrong, a third the
student copy left unfinished) in a temporary folder, checks them, and prints the wall
time and the statuses.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from collections import Counter
from pathlib import Path

from bleu_lesson.course import check_submissions, make_student_copy

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--students", type=int, default=30)
    args = parser.parse_args()
    source = ROOT / "notebooks" / "02_ngrams.ipynb"
    nb = json.loads(source.read_text(encoding="utf-8"))
    student = make_student_copy(nb, source.name)
    wrong = json.loads(json.dumps(nb).replace("range(len(tokens) - n + 1)",
                                              "range(len(tokens) - n)"))
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for k in range(args.students):
            version = (nb, wrong, student)[k % 3]
            path = Path(tmp) / f"student{k:02d}_02_ngrams.ipynb"
            path.write_text(json.dumps(version, ensure_ascii=False), encoding="utf-8")
            paths.append(path)
        start = time.perf_counter()
        rows = check_submissions(paths, timeout=120, jobs=args.jobs)
        wall = time.perf_counter() - start
    statuses = Counter(r.status for r in rows)
    print(f"{args.students} submissions, --jobs {args.jobs}: {wall:.1f} s wall "
          f"({wall / args.students:.2f} s per submission); statuses {dict(statuses)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

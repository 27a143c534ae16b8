"""Checking a class: 30 submissions of one chapter, sandboxed and not, in one run.

    python benchmarks/bench_check.py [--jobs 2] [--students 30] [--chapter 02]

Builds the submissions from a chapter (a third right, a third wrong, a third the
student copy left unfinished) in a temporary folder and checks them three ways, one
after the other, with the same ``--jobs``:

- ``unsandboxed (before #11)``: the previous checker, re-created here: each notebook
  executed by nbclient in a plain kernel, graded by a cell in that same kernel;
- ``sandbox none``: today's checker (values judged in this process) without namespaces;
- ``sandbox <backend>``: today's checker as ``bleu-lesson check`` runs it (bubblewrap
  where available).

It prints the wall time of each, the statuses (which must agree), and the ratio of the
sandboxed run to the unsandboxed one (the goal: at most 1.3).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bleu_lesson.grading.course import check_submissions, make_student_copy
from bleu_lesson.grading.sandbox import backend

ROOT = Path(__file__).resolve().parents[1]

_GRADER = '''
import json as _json
from bleu_lesson.teaching import exercises as _ex
_out = {{}}
for _id in {ids!r}:
    _name = _ex.EXERCISES[_id].answer_name
    if _name not in globals():
        _out[_id] = "not-done"
        continue
    _out[_id] = _ex.run(_id, globals()[_name]).status
print("BLEU_LESSON_RESULTS=" + _json.dumps(_out))
'''


def _unsandboxed_one(path: Path, ids: list[str], timeout: float) -> list[str]:
    """The checker before #11: run the notebook and grade it inside its own kernel."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(_GRADER.format(ids=ids)))
    NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    text = "".join("".join(o.get("text", "")) for o in nb.cells[-1].outputs
                   if o.get("output_type") == "stream")
    m = re.search(r"^BLEU_LESSON_RESULTS=(.*)$", text, re.M)
    return list(json.loads(m.group(1)).values()) if m else ["error"] * len(ids)


def _unsandboxed(paths: list[Path], ids: list[str], jobs: int) -> list[str]:
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = pool.map(lambda p: _unsandboxed_one(p, ids, 120), paths)
    return [s for statuses in results for s in statuses]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--chapter", default="02")
    args = parser.parse_args()
    source = next((ROOT / "notebooks").glob(f"{args.chapter}_*.ipynb"))
    nb = json.loads(source.read_text(encoding="utf-8"))
    student = make_student_copy(nb, source.name)
    wrong = json.loads(json.dumps(nb).replace("range(len(tokens) - n + 1)",
                                              "range(len(tokens) - n)"))
    from bleu_lesson.teaching.exercises import EXERCISES

    ids = [ex.id for ex in EXERCISES.values() if ex.chapter == args.chapter]
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for k in range(args.students):
            version = (nb, wrong, student)[k % 3]
            path = Path(tmp) / f"student{k:02d}_{source.name}"
            path.write_text(json.dumps(version, ensure_ascii=False), encoding="utf-8")
            paths.append(path)
        runs: list[tuple[str, float, Counter]] = []
        start = time.perf_counter()
        statuses = _unsandboxed(paths, ids, args.jobs)
        runs.append(("unsandboxed (before #11)", time.perf_counter() - start,
                     Counter(statuses)))
        for kind in ("none", backend()):
            start = time.perf_counter()
            rows = check_submissions(paths, timeout=120, jobs=args.jobs, sandbox=kind)
            runs.append((f"sandbox {kind}", time.perf_counter() - start,
                         Counter(r.status for r in rows)))
            if kind == "none" and backend() == "none":
                break
    print(f"{args.students} submissions of chapter {args.chapter}, --jobs {args.jobs}:")
    for name, wall, counts in runs:
        print(f"  {name:26s} {wall:6.1f} s wall ({wall / args.students:.2f} s per "
              f"submission); statuses {dict(sorted(counts.items()))}")
    base, last = runs[0][1], runs[-1][1]
    print(f"  sandboxed / unsandboxed: {last / base:.2f}x (goal <= 1.30x)")
    if any(counts != runs[0][2] for _, _, counts in runs):
        print("  the statuses differ between the runs: the timing compares different work")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

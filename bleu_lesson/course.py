"""Instructor tools: student copies of the chapters, and checking submissions.

``make_student_copy`` turns a chapter into the version students get: each block between
``### BEGIN SOLUTION`` and ``### END SOLUTION`` becomes a stub (``# 在这里写代码`` and, inside
a function, ``raise NotImplementedError``; at the top of a cell, each assigned name set to
``...``), so the chapter still runs top to bottom and its checks say "还没有完成". The
outputs of exercise cells are cleared; everything else stays as tested.

``check_submissions`` executes each submitted notebook in its own fresh kernel inside a
sandbox (``bleu_lesson.sandbox``: own PID and network namespaces, read-only files,
resource limits, an unprivileged user), with a hard time limit, and judges every
exercise of its chapter by name *in this process*, from the plain values the kernel
sends back (``bleu_lesson.judge``), so a deleted check cell does not hide an answer, a
deleted answer is reported, and nothing the notebook does inside its kernel can make a
verdict. It never modifies a submission (the kernel sees a copy in a temporary folder).
"""

from __future__ import annotations

import copy
import csv
import json
import math
import re
import shutil
import tempfile
import warnings
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "BEGIN", "END", "STUB", "Row",
    "make_student_copy", "write_student_copies", "execute_copy", "check_submission",
    "check_submissions", "write_report", "summary_table",
]

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
STUB = "# 在这里写代码"
STATUSES = ("pass", "fail", "not-done", "error", "timeout", "no-exercises")
_ASSIGNED = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?::[^=]+)?=(?!=)")


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def stub_solutions(source: str) -> str:
    """Replace every solution block of one cell's source by its stub.

    >>> cell = "def f(x):\\n    ### BEGIN SOLUTION\\n    return x\\n    ### END SOLUTION"
    >>> print(stub_solutions(cell))
    def f(x):
        # 在这里写代码
        raise NotImplementedError
    >>> print(stub_solutions("### BEGIN SOLUTION\\nanswer = 42\\n### END SOLUTION"))
    # 在这里写代码
    answer = ...
    """
    out: list[str] = []
    block: list[str] | None = None
    indent = ""
    for line in source.split("\n"):
        stripped = line.strip()
        if stripped == BEGIN:
            if block is not None:
                raise ValueError(f"nested {BEGIN}")
            block, indent = [], line[: len(line) - len(line.lstrip())]
        elif stripped == END:
            if block is None:
                raise ValueError(f"{END} without {BEGIN}")
            out.append(indent + STUB)
            if indent:
                out.append(indent + "raise NotImplementedError")
            else:
                names = [m.group(1) for m in map(_ASSIGNED.match, block) if m]
                out.extend(f"{name} = ..." for name in dict.fromkeys(names))
            block = None
        elif block is not None:
            block.append(line)
        else:
            out.append(line)
    if block is not None:
        raise ValueError(f"{BEGIN} is never closed")
    return "\n".join(out)


def _is_exercise_cell(source: str) -> bool:
    return BEGIN in source or re.search(r"\b(check|progress)\(", source) is not None


def _chapter_of(nb: dict, name: str) -> str | None:
    meta = nb.get("metadata", {}).get("bleu_lesson", {})
    if "chapter" in meta:
        return str(meta["chapter"])
    m = re.match(r"(\d\d)_", Path(name).name)
    return m.group(1) if m else None


def make_student_copy(nb: dict, name: str = "") -> dict:
    """The student version of a chapter notebook (a new dict; ``nb`` is not changed)."""
    student = copy.deepcopy(nb)
    for cell in student.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        src = _source(cell)
        if _is_exercise_cell(src):
            cell["source"] = stub_solutions(src)
            cell["outputs"] = []
            cell["execution_count"] = None
    meta = student.setdefault("metadata", {}).setdefault("bleu_lesson", {})
    meta["student_copy"] = True
    chapter = _chapter_of(nb, name)
    if chapter:
        meta["chapter"] = chapter
    return student


def write_student_copies(out_dir: str | Path, notebooks: Iterable[str | Path]) -> list[Path]:
    """Write the student copy of each notebook into ``out_dir``; returns the paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for path in map(Path, notebooks):
        nb = json.loads(path.read_text(encoding="utf-8"))
        target = out / path.name
        target.write_text(json.dumps(make_student_copy(nb, path.name), ensure_ascii=False,
                                     indent=1) + "\n", encoding="utf-8")
        written.append(target)
    return written


# --- checking submissions ---------------------------------------------------------------

@dataclass(frozen=True)
class Row:
    """One line of the report: a submission's result on one exercise."""

    submission: str
    exercise: str
    status: str
    detail: str = ""


def _exercise_ids(chapter: str | None, nb: dict) -> list[str]:
    """The chapter's exercises; without a known chapter, those the code names (a ``check``
    call or the answer's name), so a submission that lost its check cells still counts."""
    from .exercises import EXERCISES

    if chapter is not None:
        ids = [ex.id for ex in EXERCISES.values() if ex.chapter == chapter]
        if ids:
            return ids
    text = "\n".join(_source(c) for c in nb.get("cells", []) if c.get("cell_type") == "code")
    found = set(re.findall(r"""\bcheck\(\s*["'](\d+\.\d+)["']""", text))
    found |= {ex.id for ex in EXERCISES.values()
              if re.search(rf"\b{re.escape(ex.answer_name)}\b", text)}
    return sorted((i for i in found if i in EXERCISES),
                  key=lambda i: tuple(map(int, i.split("."))))


def _first_error(nb) -> str:
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                return f"{out.get('ename')}: {out.get('evalue')}"
    return ""


def execute_copy(path: str | Path, timeout: float = 120, kernel_name: str = "python3",
                 extra_cell: str | None = None):
    """Execute a notebook from a temporary copy of it, errors allowed; returns the nbformat
    notebook with its outputs (the file itself is not touched). Raises nbclient's timeout
    and dead-kernel errors."""
    import nbformat
    from nbclient import NotebookClient

    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    if extra_cell is not None:
        nb.cells.append(nbformat.v4.new_code_cell(extra_cell))
    with tempfile.TemporaryDirectory(prefix="bleu-lesson-check-") as tmp:
        shutil.copyfile(path, Path(tmp) / path.name)  # relative paths behave as in place
        NotebookClient(nb, timeout=timeout, kernel_name=kernel_name, allow_errors=True,
                       resources={"metadata": {"path": tmp}}).execute()
    return nb


def _checked_timeout(timeout: object) -> float:
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) \
            or not math.isfinite(timeout) or timeout <= 0:
        raise ValueError(f"timeout must be a finite number of seconds > 0, got {timeout!r}")
    return float(timeout)


def check_submission(path: str | Path, timeout: float = 120, kernel_name: str = "python3",
                     *, limits=None, sandbox: str | None = None) -> list[Row]:
    """Check one submission: run it in a sandboxed kernel (``bleu_lesson.sandbox``),
    killed with everything it started once it has run for ``timeout`` seconds (the
    limit is per notebook, kernel start-up not counted), and judge each exercise of its
    chapter here, from the plain values the kernel sends back (``bleu_lesson.judge``).

    ``limits`` is a ``bleu_lesson.sandbox.Limits``; ``sandbox`` forces a backend.
    """
    import nbformat

    from .chapters import registry
    from .exercises import EXERCISES
    from .judge import check_notebook
    from .sandbox import Limits

    timeout = _checked_timeout(timeout)
    if kernel_name != "python3":
        raise ValueError(f"kernel_name must be 'python3' (this Python), got {kernel_name!r}")
    path = Path(path)
    label = str(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        with warnings.catch_warnings():  # cells without ids are fine here
            warnings.simplefilter("ignore")
            nb = nbformat.reads(json.dumps(raw), as_version=4)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError,
            nbformat.reader.NotJSONError) as exc:
        return [Row(label, "-", "error", f"not a readable notebook: {exc}")]
    except Exception as exc:  # nbformat validation and the like
        return [Row(label, "-", "error", f"not a valid notebook: {type(exc).__name__}: {exc}")]
    if not isinstance(raw, dict):
        return [Row(label, "-", "error", "not a valid notebook: not a JSON object")]
    chapter = _chapter_of(raw, path.name)
    ids = _exercise_ids(chapter, raw)
    if not ids:
        if chapter in registry():
            return [Row(label, "-", "no-exercises",
                        f"chapter {chapter} has no exercises to check")]
        return [Row(label, "-", "error", "no exercise of the course found in this notebook")]
    from dataclasses import replace

    # CPU time: the wall-clock limit plus start-up and judging, whatever ``limits`` says
    limits = replace(limits or Limits(), cpu_seconds=int(math.ceil(timeout)) + 120)
    verdicts = check_notebook(path, nb, [EXERCISES[i] for i in ids], timeout, limits,
                              kind=sandbox)
    return [Row(label, v.exercise, v.status, " ".join(v.detail.split())) for v in verdicts]


def check_submissions(paths: Sequence[str | Path], *, timeout: float = 120, jobs: int = 1,
                      progress: Callable[[str], None] | None = None,
                      on_row: Callable[[Row], None] | None = None,
                      limits=None, sandbox: str | None = None) -> list[Row]:
    """Check many submissions, ``jobs`` at a time; rows come back in the order given.

    ``on_row(row)`` is called for each row as soon as its submission is done (in the
    order submissions finish), so a caller can keep a partial report; ``progress`` gets
    one line per finished submission. On ``KeyboardInterrupt`` the running kernels are
    killed at once, the waiting submissions dropped, and the interrupt raised again.
    """
    timeout = _checked_timeout(timeout)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be an int >= 1, got {jobs!r}")
    paths = [Path(p) for p in paths]
    results: dict[int, list[Row]] = {}
    pool = ThreadPoolExecutor(max_workers=jobs)
    try:
        futures = {pool.submit(check_submission, p, timeout, limits=limits,
                               sandbox=sandbox): k for k, p in enumerate(paths)}
        for done, future in enumerate(as_completed(futures), start=1):
            k = futures[future]
            try:
                results[k] = future.result()
            except Exception as exc:  # never let one submission stop the others
                results[k] = [Row(str(paths[k]), "-", "error",
                                  f"checker failed: {type(exc).__name__}: {exc}")]
            if on_row is not None:
                for row in results[k]:
                    on_row(row)
            if progress is not None:
                counts = {s: sum(r.status == s for r in results[k]) for s in STATUSES}
                summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
                progress(f"[{done}/{len(paths)}] {paths[k]}: {summary}")
    except BaseException:  # Ctrl-C: kill the running kernels now, drop the rest
        from .judge import kill_all

        pool.shutdown(wait=False, cancel_futures=True)
        kill_all()
        raise
    pool.shutdown()
    return [row for k in range(len(paths)) for row in results[k]]


def write_report(rows: Sequence[Row], path: str | Path) -> None:
    """CSV with the header ``submission,exercise,status,detail``."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["submission", "exercise", "status", "detail"])
        for row in rows:
            writer.writerow([row.submission, row.exercise, row.status, row.detail])


def summary_table(rows: Sequence[Row]) -> str:
    """One line per submission: the status of each exercise."""
    by_sub: dict[str, list[Row]] = {}
    for row in rows:
        by_sub.setdefault(row.submission, []).append(row)
    width = max((len(s) for s in by_sub), default=10)
    lines = [f"{'submission':{width}}  results"]
    for sub, sub_rows in by_sub.items():
        cells = "  ".join(f"{r.exercise}:{r.status}" for r in sub_rows)
        lines.append(f"{sub:{width}}  {cells}")
    return "\n".join(lines)

"""Instructor tools: student copies of the chapters, and checking submissions.

``make_student_copy`` turns a chapter into the version students get: each block between
``### BEGIN SOLUTION`` and ``### END SOLUTION`` becomes a stub (``# 在这里写代码`` and, inside
a function, ``raise NotImplementedError``; at the top of a cell, each assigned name set to
``...``), so the chapter still runs top to bottom and its checks say "还没有完成". The
outputs of exercise cells are cleared; everything else stays as tested.

``check_submissions`` executes each submitted notebook in its own fresh kernel, with a
time limit, and then checks every exercise of its chapter by name in that kernel, so a
deleted check cell does not hide an answer and a deleted answer is reported. It never
modifies a submission (it works on a copy in a temporary folder).

**It runs the students' code.** Run it in a sandbox (a container or a throwaway account)
for work you do not trust.
"""

from __future__ import annotations

import copy
import csv
import json
import re
import shutil
import sys
import tempfile
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
STATUSES = ("pass", "fail", "not-done", "error", "timeout")
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


_GRADER = '''
import json as _json
from bleu_lesson import exercises as _ex
_out = {{}}
for _id in {ids!r}:
    _name = _ex.EXERCISES[_id].answer_name
    if _name not in globals():
        _out[_id] = ["not-done", _name + " is not defined"]
        continue
    _r = _ex.run(_id, globals()[_name])
    _out[_id] = [_r.status, _r.detail]
print("BLEU_LESSON_RESULTS=" + _json.dumps(_out, ensure_ascii=False))
'''


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


def check_submission(path: str | Path, timeout: float = 120,
                     kernel_name: str = "python3") -> list[Row]:
    """Check one submission in a child process that is killed, kernel and all, once it
    has run for ``timeout`` seconds: the limit is per notebook, not per cell."""
    import os
    import signal
    import subprocess

    label = str(path)
    ids_hint = ["-"]
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
        ids_hint = _exercise_ids(_chapter_of(raw, Path(path).name), raw) or ["-"]
    except Exception:
        pass  # the child reports unreadable files itself
    cmd = [sys.executable, "-m", "bleu_lesson.course", "--check-one", str(path),
           str(timeout), kernel_name]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return [Row(label, i, "timeout", f"did not finish within {timeout:g} s")
                for i in ids_hint]
    try:
        return [Row(*r) for r in json.loads(out.strip().splitlines()[-1])]
    except (IndexError, ValueError, TypeError):
        last = (err.strip().splitlines() or ["no output"])[-1]
        return [Row(label, i, "error", f"checker failed: {last}") for i in ids_hint]


def _check_in_process(path: str | Path, timeout: float = 120,
                      kernel_name: str = "python3") -> list[Row]:
    """Execute one submission on a copy, in a fresh kernel, and check its exercises."""
    import nbformat
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    path = Path(path)
    label = str(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        nbformat.reads(json.dumps(raw), as_version=4)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError,
            nbformat.reader.NotJSONError) as exc:
        return [Row(label, "-", "error", f"not a readable notebook: {exc}")]
    except Exception as exc:  # nbformat validation and the like
        return [Row(label, "-", "error", f"not a valid notebook: {type(exc).__name__}: {exc}")]
    ids = _exercise_ids(_chapter_of(raw, path.name), raw)
    if not ids:
        return [Row(label, "-", "error", "no exercise of the course found in this notebook")]
    try:
        nb = execute_copy(path, timeout, kernel_name, _GRADER.format(ids=ids))
    except (CellTimeoutError, TimeoutError):
        return [Row(label, i, "timeout", f"did not finish within {timeout:g} s") for i in ids]
    except DeadKernelError as exc:
        return [Row(label, i, "error", f"the kernel died: {exc}") for i in ids]
    except Exception as exc:
        return [Row(label, i, "error", f"could not execute: {type(exc).__name__}: {exc}")
                for i in ids]
    text = "".join("".join(o.get("text", "")) for o in nb.cells[-1].get("outputs", [])
                   if o.get("output_type") == "stream")
    m = re.search(r"^BLEU_LESSON_RESULTS=(.*)$", text, re.M)
    if not m:
        why = _first_error(nb) or "the grading cell printed nothing"
        return [Row(label, i, "error", why) for i in ids]
    results = json.loads(m.group(1))
    error = _first_error(nb)
    rows = []
    for i in ids:
        status, detail = results[i]
        if error and status != "pass":
            detail = (detail + "; " if detail else "") + f"a cell raised {error}"
        rows.append(Row(label, i, status, " ".join(detail.split())))
    return rows


def check_submissions(paths: Sequence[str | Path], *, timeout: float = 120, jobs: int = 1,
                      progress: Callable[[str], None] | None = None) -> list[Row]:
    """Check many submissions, ``jobs`` at a time; rows come back in the order given."""
    paths = [Path(p) for p in paths]
    results: dict[int, list[Row]] = {}
    jobs = max(1, int(jobs))
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(check_submission, p, timeout): k for k, p in enumerate(paths)}
        for done, future in enumerate(as_completed(futures), start=1):
            k = futures[future]
            try:
                results[k] = future.result()
            except Exception as exc:  # never let one submission stop the others
                results[k] = [Row(str(paths[k]), "-", "error",
                                  f"checker failed: {type(exc).__name__}: {exc}")]
            if progress is not None:
                counts = {s: sum(r.status == s for r in results[k]) for s in STATUSES}
                summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
                progress(f"[{done}/{len(paths)}] {paths[k]}: {summary}")
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


if __name__ == "__main__":  # pragma: no cover - the child of check_submission
    if len(sys.argv) == 5 and sys.argv[1] == "--check-one":
        rows = _check_in_process(sys.argv[2], float(sys.argv[3]), sys.argv[4])
        print(json.dumps([[r.submission, r.exercise, r.status, r.detail] for r in rows],
                         ensure_ascii=False))
        sys.exit(0)
    sys.exit("use: bleu-lesson student / bleu-lesson check")

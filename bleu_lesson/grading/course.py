"""Instructor tools: student copies of the chapters, and checking submissions.

``make_student_copy`` turns a chapter into the version students get: each block between
``### BEGIN SOLUTION`` and ``### END SOLUTION`` becomes a stub (``# 在这里写代码`` and, inside
a function, ``raise NotImplementedError``; at the top of a cell, each assigned name set to
``...``), so the chapter still runs top to bottom and its checks say "还没有完成". The
outputs of exercise cells, and of every cell computed from an answer, are cleared;
everything else stays as tested.

Nothing an instructor owns is overwritten: ``write_student_copies`` refuses the originals'
folder however it is spelled and files that are not student copies (unless ``force``);
``check_report_path`` refuses a report path that is a submission, a notebook or a file that
is not an earlier report; ``write_report`` writes atomically and escapes formula-like cells.
The solution markers are parsed here and nowhere else (``solution_blocks``), and
``nbgrader_cell_metadata`` derives nbgrader's cell metadata from them.

``check_submissions`` executes each submitted notebook in its own fresh kernel inside a
sandbox (``bleu_lesson.grading.sandbox``: own PID and network namespaces, read-only files,
resource limits, an unprivileged user), with a hard time limit, and judges every
exercise of its chapter by name *in this process*, from the plain values the kernel
sends back (``bleu_lesson.grading.judge``), so a deleted check cell does not hide an answer, a
deleted answer is reported, and nothing the notebook does inside its kernel can make a
verdict. It never modifies a submission (the kernel sees a copy in a temporary folder).
"""

from __future__ import annotations

import ast
import contextlib
import copy
import csv
import json
import math
import os
import re
import shutil
import stat
import tempfile
import warnings
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from bleu_lesson.data.datasets import WMT22_ENV_VAR, data_root, default_cache_dir, get_data_hint
from bleu_lesson.teaching.chapters import chapter_id, registry
from bleu_lesson.teaching.exercises import EXERCISES

from .judge import check_notebook, kill_all
from .sandbox import BACKENDS, Limits, allow_new, backend, close_all, refusal
from .world import numpy_copy
from .world_child import runnable

__all__ = [
    "BEGIN", "END", "STUB", "Row", "SolutionBlock", "solution_blocks", "stub_for",
    "stub_solutions", "is_student_copy", "check_report_path", "REPORT_HEADER",
    "nbgrader_cell_metadata", "with_nbgrader_metadata",
    "make_student_copy", "write_student_copies", "PREDICT_TAG", "is_predict_cell",
    "WIDGET_PLACEHOLDER", "execute_copy", "check_submission",
    "check_submissions", "write_report", "summary_table", "read_submission",
    "MAX_SUBMISSION_BYTES", "shown", "NO_DATA",
]

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
STUB = "# 在这里写代码"
STATUSES = ("pass", "self-assessed", "fail", "not-done", "error", "timeout", "no-exercises",
            "not-checked")  # not-checked: the check was interrupted (Ctrl-C)
# self-assessed: the numbers a program can judge hold; the rest (fluency, correctness of
# a sentence) is the learner's or the instructor's to judge: never counted as pass
_ASSIGNED = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?::[^=]+)?=(?!=)")


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


@dataclass(frozen=True)
class SolutionBlock:
    """One ``### BEGIN SOLUTION`` … ``### END SOLUTION`` block of a cell's source: the
    0-based line numbers of its two markers, the BEGIN line's indentation, the lines between."""

    begin: int
    end: int
    indent: str
    body: tuple[str, ...]


def solution_blocks(source: str) -> list[SolutionBlock]:
    """The solution blocks of one cell's source, in order: THE parser of the markers.

    A marker is a line that is exactly ``### BEGIN SOLUTION`` or ``### END SOLUTION``
    (indentation aside); a line that holds a marker's text with anything else on it is an
    error, as are nested, unopened and unclosed blocks (ValueError naming the line), so
    that nbgrader, which matches the text anywhere in a line, reads the same blocks.

    >>> [b.body for b in solution_blocks("def f(x):\\n    ### BEGIN SOLUTION\\n"
    ...                                  "    return x\\n    ### END SOLUTION")]
    [('    return x',)]
    """
    blocks: list[SolutionBlock] = []
    start: int | None = None
    indent = ""
    lines = source.split("\n")
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped == BEGIN:
            if start is not None:
                raise ValueError(f"line {i + 1}: nested {BEGIN} (the block of line "
                                 f"{start + 1} is not closed)")
            start, indent = i, line[: len(line) - len(line.lstrip())]
        elif stripped == END:
            if start is None:
                raise ValueError(f"line {i + 1}: {END} without {BEGIN}")
            blocks.append(SolutionBlock(start, i, indent, tuple(lines[start + 1:i])))
            start = None
        elif BEGIN[4:] in line or END[4:] in line:
            raise ValueError(f"line {i + 1}: a solution marker must be a line of its own "
                             f"({BEGIN!r} or {END!r}), got {line.strip()!r}")
    if start is not None:
        raise ValueError(f"line {start + 1}: {BEGIN} is never closed")
    return blocks


def stub_for(block: SolutionBlock) -> list[str]:
    """The lines that replace one solution block in the student copy: ``# 在这里写代码``,
    then ``raise NotImplementedError`` inside a function, or, at the top of a cell, each
    name the block assigns set to ``...``."""
    if block.indent:
        return [block.indent + STUB, block.indent + "raise NotImplementedError"]
    names = [m.group(1) for m in map(_ASSIGNED.match, block.body) if m]
    return [STUB, *(f"{name} = ..." for name in dict.fromkeys(names))]


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
    lines = source.split("\n")
    out: list[str] = []
    done = 0
    for block in solution_blocks(source):
        out.extend(lines[done:block.begin])
        out.extend(stub_for(block))
        done = block.end + 1
    out.extend(lines[done:])
    return "\n".join(out)


def _is_exercise_cell(source: str) -> bool:
    return BEGIN in source or re.search(r"\b(check|progress)\(", source) is not None


def _chapter_id(value: object) -> str:
    """``4``, ``"4"``, ``"04"``, ``"ch04"`` -> ``"04"`` (``chapter_id``); anything else as text."""
    try:
        return chapter_id(value)
    except (TypeError, ValueError):
        return str(value).strip()


def _metadata_chapter(nb: dict) -> str | None:
    meta = nb.get("metadata", {})
    meta = meta.get("bleu_lesson", {}) if isinstance(meta, dict) else {}
    if isinstance(meta, dict) and meta.get("chapter") is not None:
        return _chapter_id(meta["chapter"])
    return None


def _file_chapter(name: str) -> str | None:
    """The chapter a file name says: its first ``NN_`` that starts the name or follows a
    separator and precedes a letter (``04_brevity_penalty``, ``alice_04_brevity_penalty``;
    a later one is a version or a date: ``04_alice_v2_12_final``), else a two-digit ``NN``,
    ``chNN`` or ``hwNN`` standing alone between separators (``alice_06``, ``alice_ch06``,
    ``hw06``).

    >>> [_file_chapter(n) for n in ("alice_04_brevity.ipynb", "hw06.ipynb", "bob-ch10.ipynb",
    ...                             "alice_06.ipynb", "report_2024.ipynb", "notes.ipynb")]
    ['04', '06', '10', '06', None, None]

    A number that is no chapter of the course (``42``) names none: a name without a chapter
    number is judged by its content.

    >>> _file_chapter("04_honest_alice_v2_12_final.ipynb")
    '04'
    >>> _file_chapter("homework_a_evade_no_meta_42_cell_deleted.ipynb") is None
    True
    """
    stem = Path(name).stem
    chapters = registry()
    found = [n for n in re.findall(r"(?:^|[_\-\s.])(\d\d)_(?=[^\W\d_])", stem)
             if n in chapters]
    if found:
        return found[0]
    alone = [n for n in re.findall(r"(?:^|[_\-\s.])(?:ch|hw|chapter)?(\d\d)(?=$|[_\-\s.])",
                                   stem, re.I) if n in chapters]
    return alone[-1] if alone else None


def _chapter_of(nb: dict, name: str) -> str | None:
    meta = _metadata_chapter(nb)
    return meta if meta is not None else _file_chapter(name)


#: The cell tag of a code cell whose output the text asks the learner to predict: its
#: stored outputs are not in the student copy (the chapter's ``<details>`` after it, or
#: running it, gives the answer).
PREDICT_TAG = "predict"
#: The cell tag of a code cell whose stored output answers an exercise (the library code
#: that answers it, ``show_source_after("4.1", brevity_penalty)``; chapter 09's tables after
#: 9.2): the student copy keeps the cell but not its stored output, so the answer shows only
#: when the learner runs it.
REVEAL_TAG = "reveal"
#: The MIME type of a widget's view in a stored output.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: What a student copy shows, instead of the widget's Python repr
#: (``ClippingExplorer(children=(Text(...``), where the saved widget state cannot be drawn.
WIDGET_PLACEHOLDER = "（交互实验：运行这个单元格后出现 / run this cell to use the explorer）"


def is_predict_cell(cell: dict) -> bool:
    """Whether ``cell`` is a code cell tagged ``predict`` (its output is the answer).

    >>> is_predict_cell({"cell_type": "code", "metadata": {"tags": ["predict"]}})
    True
    >>> is_predict_cell({"cell_type": "markdown", "metadata": {"tags": ["predict"]}})
    False
    """
    tags = cell.get("metadata", {}).get("tags", [])
    return cell.get("cell_type") == "code" and isinstance(tags, list) and PREDICT_TAG in tags


def _tags(cell: dict) -> list:
    tags = cell.get("metadata", {}).get("tags", [])
    return tags if isinstance(tags, list) else []


def _quiet_widget_reprs(outputs: list) -> None:
    """Replace the plain-text fallback of each widget view by ``WIDGET_PLACEHOLDER``."""
    for output in outputs:
        data = output.get("data") if isinstance(output, dict) else None
        if isinstance(data, dict) and WIDGET_VIEW in data and "text/plain" in data:
            data["text/plain"] = WIDGET_PLACEHOLDER


def _names(source: str, aliases: dict | None = None) -> tuple[set[str], set[str]]:
    """``(names read, names bound)`` by one cell's code, its IPython lines read as the
    judging world reads them (``world_child.runnable``, with the ``%alias_magic`` names of
    the cells before it in ``aliases``). A cell that does not parse reads every identifier
    in it and binds none."""
    code = runnable(source, aliases)
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", code)), set()
    read: set[str] = set()
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
    return read, bound


def answer_dependent_cells(nb: dict) -> list[int]:
    """The indices of the code cells whose output may be computed from an exercise's
    answer: each cell holding a solution block, and, in notebook order, every cell that
    reads a name one of those bound (``my_strongest_disagreement``), or a name bound by
    such a cell in turn. Their stored outputs came from the model answer, so a student
    copy must not keep them (10.3's "disagree most on: ('DLUT', 'NiuTrans')").

    >>> answer_dependent_cells({"cells": [
    ...     {"cell_type": "code", "source": "def f():\\n    ### BEGIN SOLUTION\\n"
    ...      "    return 2\\n    ### END SOLUTION"},
    ...     {"cell_type": "code", "source": "x = f() + 1"},
    ...     {"cell_type": "code", "source": "print(len('f'))"},
    ...     {"cell_type": "code", "source": "print(x)"}]})
    [0, 1, 3]
    """
    tainted: set[str] = set()
    found = []
    aliases: dict = {}
    for i, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        src = _source(cell)
        read, bound = _names(src, aliases)
        if BEGIN in src or read & tainted:
            found.append(i)
            tainted |= bound
    return found


def make_student_copy(nb: dict, name: str = "") -> dict:
    """The student version of a chapter notebook (a new dict; ``nb`` is not changed).

    Solution blocks become stubs and nbgrader hidden tests are removed (see
    ``with_hidden_tests``); exercise cells lose their outputs; cells tagged
    ``predict`` lose their outputs too (the output is the answer to the prediction), and
    so do cells tagged ``reveal`` (the library code answering an exercise) and every
    cell whose output was computed from a model answer (``answer_dependent_cells``); a
    widget's stored plain-text fallback becomes a short note instead of its Python repr.
    """
    student = copy.deepcopy(nb)
    from_answers = set(answer_dependent_cells(nb))
    for i, cell in enumerate(student.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        src = _source(cell)
        if HIDDEN_BEGIN in src:
            src = cell["source"] = strip_hidden_tests(src)
        if _is_exercise_cell(src):
            cell["source"] = stub_solutions(src)
            cell["outputs"] = []
            cell["execution_count"] = None
        elif is_predict_cell(cell) or REVEAL_TAG in _tags(cell) or i in from_answers:
            cell["outputs"] = []
        cell["execution_count"] = None  # the learner has run nothing yet
        for out in cell.get("outputs", []):
            if isinstance(out, dict) and "execution_count" in out:
                out["execution_count"] = None  # an output shown as [11]: under a [ ]: cell
        _quiet_widget_reprs(cell.get("outputs", []))
    meta = student.setdefault("metadata", {}).setdefault("bleu_lesson", {})
    meta["student_copy"] = True
    chapter = _chapter_of(nb, name)
    if chapter:
        meta["chapter"] = chapter
    return student


HIDDEN_BEGIN, HIDDEN_END = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"


def strip_hidden_tests(source: str) -> str:
    """``source`` without its nbgrader hidden-test regions (markers included).

    >>> strip_hidden_tests("check('4.1', f)\\n### BEGIN HIDDEN TESTS\\nx = 1\\n"
    ...                    "### END HIDDEN TESTS")
    "check('4.1', f)"
    """
    out, inside = [], False
    for line in source.split("\n"):
        if HIDDEN_BEGIN in line:
            inside = True
        elif HIDDEN_END in line:
            inside = False
        elif not inside:
            out.append(line)
    return "\n".join(out)


def with_hidden_tests(nb: dict, seed: Callable[[], int]) -> dict:
    """A copy of ``nb`` for nbgrader's ``source/`` folder: nbgrader's cell metadata, and in
    each cell that checks a program-judged exercise with hidden cases (``generate``, no
    rubric), a hidden test (``### BEGIN HIDDEN TESTS`` ... ``### END HIDDEN TESTS``) that
    judges the answer on hidden cases drawn from ``seed()``. ``nbgrader
    generate_assignment`` removes the region from the released copy, ``autograde`` puts
    it back. Existing hidden regions are replaced; nothing else changes."""
    out = with_nbgrader_metadata(nb)
    for cell in out.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        src = strip_hidden_tests(_source(cell))
        ids = [i for i in dict.fromkeys(_CHECK_CALL.findall(src)) if i in EXERCISES
               and EXERCISES[i].generate is not None and not EXERCISES[i].rubric]
        if ids:
            lines = [HIDDEN_BEGIN, "from bleu_lesson.teaching.exercises import check_hidden"]
            lines += [f"check_hidden({i!r}, {EXERCISES[i].answer_name}, seed={seed()})"
                      for i in ids]
            # the region's lines go; the text before it comes back exactly (nbgrader too)
            src = src + "\n" + "\n".join([*lines, HIDDEN_END])
        cell["source"] = src
    return out


def _atomic_write(path: Path, write: Callable[[Any], None], *, newline: str | None = None) -> None:
    """Write a text file all at once or not at all: into a temporary file in the same
    folder, flushed to disk, then ``os.replace``d over ``path`` (which replaces a symlink
    itself, never the file it points to). On any error the temporary file is removed and
    ``path`` is as it was."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with open(fd, "w", encoding="utf-8", newline=newline) as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _write_text(f: Any, text: str) -> None:
    f.write(text)


def _read_notebook(path: Path) -> dict | None:
    """The notebook's JSON, or None when ``path`` is not a readable notebook."""
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return nb if isinstance(nb, dict) and isinstance(nb.get("cells"), list) else None


def is_student_copy(path: str | Path) -> bool:
    """Whether ``path`` is a notebook that ``make_student_copy`` wrote (its metadata holds
    ``bleu_lesson.student_copy``): the only kind of file ``student`` overwrites."""
    nb = _read_notebook(Path(path))
    meta = (nb or {}).get("metadata", {})
    return isinstance(meta, dict) and isinstance(meta.get("bleu_lesson"), dict) and \
        meta["bleu_lesson"].get("student_copy") is True


def _is_source_notebook(path: Path) -> bool:
    """An instructor's chapter: a notebook with solution markers that is no student copy."""
    nb = _read_notebook(path)
    if nb is None or is_student_copy(path):
        return False
    return any(c.get("cell_type") == "code" and BEGIN in _source(c) for c in nb["cells"])


def _plan_student_copies(out_dir: str | Path, notebooks: Iterable[str | Path],
                         force: bool) -> tuple[Path, list[tuple[Path, Path, dict]]]:
    """Check everything before anything is written: the folder, each input, each target.
    Raises ValueError naming the file at fault."""
    if not str(out_dir).strip():
        raise ValueError("--out is empty: give the folder to write the student copies into")
    out = Path(out_dir)
    real_out = out.resolve()  # symlinks and '..' included
    if real_out.exists() and not real_out.is_dir():
        raise ValueError(f"--out {str(out)!r} is not a folder")
    plan: list[tuple[Path, Path, dict]] = []
    names: dict[str, Path] = {}
    for path in map(Path, notebooks):
        if not path.exists():
            raise ValueError(f"{path} does not exist")
        nb = _read_notebook(path) if path.suffix == ".ipynb" and path.is_file() else None
        if nb is None:
            raise ValueError(f"{path} is not a notebook")
        if path.resolve().parent == real_out:
            raise ValueError(f"--out {str(out)!r} is the folder of {path}: the student "
                             "copies would overwrite the instructor's notebooks")
        if path.name in names:
            raise ValueError(f"{names[path.name]} and {path} have the same name: their "
                             f"student copies would both be {out / path.name}")
        names[path.name] = path
        plan.append((path, out / path.name, nb))
    if real_out.is_dir():
        for other in sorted(real_out.glob("*.ipynb")):
            if _is_source_notebook(other):
                raise ValueError(f"--out {str(out)!r} holds an instructor's notebook, "
                                 f"{out / other.name} (it has the solutions): choose "
                                 "another folder")
    sources = {src.resolve() for src, _, _ in plan}
    for _, target, _ in plan:
        if target.is_symlink() or target.exists():
            if target.resolve() in sources:
                raise ValueError(f"{target} is one of the notebooks being copied")
            if target.is_dir():
                raise ValueError(f"{target} is a folder")
            if not force and not is_student_copy(target):
                raise ValueError(f"{target} exists and is not a student copy: move it "
                                 "away, or give --force to overwrite it")
    return out, plan


def write_student_copies(out_dir: str | Path, notebooks: Iterable[str | Path], *,
                         force: bool = False) -> list[Path]:
    """Write the student copy of each notebook into ``out_dir``; returns the paths.

    Nothing an instructor owns is overwritten: ``out_dir`` may not be (or resolve to) the
    folder of a notebook being copied, nor hold an instructor's notebook; an existing file
    is replaced only if it is itself a student copy, or with ``force``. Everything is
    checked before the first file is written (ValueError naming the file), and each file
    is written atomically."""
    out, plan = _plan_student_copies(out_dir, notebooks, force)
    copies = [(target, make_student_copy(nb, src.name)) for src, target, nb in plan]
    out.mkdir(parents=True, exist_ok=True)
    for target, student in copies:
        text = json.dumps(student, ensure_ascii=False, indent=1) + "\n"
        _atomic_write(target, partial(_write_text, text=text))
    return [target for target, _ in copies]


# --- nbgrader -------------------------------------------------------------------------

#: nbgrader's ClearSolutions settings that make ``nbgrader generate_assignment`` write the
#: same student version as ``make_student_copy`` (tools/nbgrader_config.py sets them).
NBGRADER_BEGIN, NBGRADER_END = BEGIN, END
NBGRADER_CODE_STUB = STUB + "\nraise NotImplementedError"
NBGRADER_POINTS = 1  # per check("X.Y", ...) call
_CHECK_CALL = re.compile(r"""\bcheck\(\s*["'](\d+\.\d+)["']""")


def _grade_key(exercise_id: str) -> str:
    return exercise_id.replace(".", "_")


def nbgrader_cell_metadata(nb: dict) -> list[dict | None]:
    """The ``nbgrader`` metadata (schema 3) each cell of a chapter should carry, in order:
    a solution cell (one with solution blocks) is an unlocked, ungraded answer; a cell that
    calls ``check("X.Y", ...)`` is a locked test worth ``NBGRADER_POINTS`` per check; any
    other cell carries none (None). Raises ValueError naming the cell when a cell is both."""
    by_answer = {ex.answer_name: ex.id for ex in EXERCISES.values()}
    found: list[dict | None] = []
    used: set[str] = set()

    def unique(grade_id: str) -> str:
        base, n = grade_id, 1
        while grade_id in used:
            n += 1
            grade_id = f"{base}_{n}"
        used.add(grade_id)
        return grade_id

    for i, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            found.append(None)
            continue
        src = _source(cell)
        try:
            blocks = solution_blocks(src)
        except ValueError as exc:
            raise ValueError(f"cell {i}: {exc}") from None
        checks = _CHECK_CALL.findall(src)
        if blocks and checks:
            raise ValueError(f"cell {i} holds both a solution and check(): nbgrader needs "
                             "the answer and its test in separate cells")
        if blocks:
            defined = re.findall(r"^\s*def\s+([A-Za-z_]\w*)", src, re.M)
            ids = [by_answer[name] for name in defined if name in by_answer]
            grade_id = f"answer_{_grade_key(ids[0])}" if ids else f"answer_cell{i}"
            found.append({"grade": False, "grade_id": unique(grade_id), "locked": False,
                          "schema_version": 3, "solution": True})
        elif checks:
            found.append({"grade": True, "grade_id": unique(f"check_{_grade_key(checks[0])}"),
                          "locked": True, "points": NBGRADER_POINTS * len(checks),
                          "schema_version": 3, "solution": False})
        else:
            found.append(None)
    return found


def with_nbgrader_metadata(nb: dict) -> dict:
    """A copy of ``nb`` with each cell's ``nbgrader`` metadata set as
    ``nbgrader_cell_metadata`` says (and removed where it says none); every other key of
    the metadata, and every source and output, is kept. Applying it twice changes nothing."""
    out = copy.deepcopy(nb)
    for cell, meta in zip(out.get("cells", []), nbgrader_cell_metadata(nb), strict=True):
        cell_meta = cell.setdefault("metadata", {})
        if meta is None:
            cell_meta.pop("nbgrader", None)
        else:
            cell_meta["nbgrader"] = meta
    return out


# --- checking submissions ---------------------------------------------------------------

@dataclass(frozen=True)
class Row:
    """One line of the report: a submission's result on one exercise."""

    submission: str
    exercise: str
    status: str
    detail: str = ""
    #: the sandbox backend of the run that produced the row: "bwrap", "unshare" or "none"
    sandbox: str = ""


def _exercise_ids(chapter: str | None, nb: dict) -> list[str]:
    """The chapter's exercises; without a known chapter, those the code names (a ``check``
    call or the answer's name), so a submission that lost its check cells still counts."""
    if chapter is not None:  # "06", or "04,06" when the content names two chapters
        ids = [ex.id for ex in EXERCISES.values() if ex.chapter in chapter.split(",")]
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


#: the largest submission ``check`` reads (a chapter with its outputs is well under 5 MB)
MAX_SUBMISSION_BYTES = 50 * 1024 ** 2

_FILE_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
               (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
               (stat.S_ISBLK, "a block device"))


def read_submission(path: str | Path, limit: int = MAX_SUBMISSION_BYTES) -> bytes:
    """The bytes of a submission, read only if it is a regular file of at most ``limit``
    bytes: ``lstat`` first (a symbolic link, a FIFO, a device, a folder is refused, so a
    submission cannot be another student's file or the instructor's solution, nor hang the
    check), then ``open`` with ``O_NOFOLLOW | O_NONBLOCK`` and the same checks on the open
    file (it may have been swapped in between). Raises ValueError saying why."""
    path = os.fspath(path)
    try:
        st = os.lstat(path)
    except OSError as exc:
        raise ValueError(f"cannot read the file: {exc.strerror or exc}") from None
    if stat.S_ISLNK(st.st_mode):
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        raise ValueError(f"refused: the submission is a symbolic link (to {target!r}), not "
                         "a file of its own; a link can point at another student's file or "
                         "the instructor's solution")
    for test, kind in _FILE_KINDS:
        if test(st.st_mode):
            raise ValueError(f"refused: the submission is {kind}, not a regular file")
    if not stat.S_ISREG(st.st_mode):
        raise ValueError("refused: the submission is not a regular file")
    if st.st_size > limit:
        raise ValueError(f"refused: the submission is {st.st_size} bytes, over the "
                         f"{limit // 1024 ** 2} MB limit of a submission")
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise ValueError(f"cannot read the file: {exc.strerror or exc}") from None
    try:
        now = os.fstat(fd)
        if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):
            raise ValueError("refused: the submission was replaced while it was being read")
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, min(1024 ** 2, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise ValueError(f"refused: the submission is over the {limit // 1024 ** 2} "
                                 "MB limit of a submission")
        return b"".join(chunks)
    except OSError as exc:
        raise ValueError(f"cannot read the file: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


#: Code cells longer than this (characters) are not parsed in the checker's process.
MAX_PARSED_CELL = 20_000


def _check_calls(source: str) -> set[str]:
    """The exercise ids of the ``check("N.M", …)`` calls in one code cell: calls only, so a
    comment or a string that merely looks like one names nothing. A cell Python cannot
    parse (an IPython magic, a syntax error) is read line by line without its comments."""
    import ast

    lines = [ln.lstrip().lstrip("%").partition(" ")[2] if ln.lstrip().startswith("%") else ln
             for ln in source.splitlines() if not ln.lstrip().startswith("!")]

    def by_lines() -> set[str]:
        text = "\n".join(re.sub(r"#.*", "", ln) for ln in lines)
        return set(re.findall(r"""\bcheck\(\s*["'](\d+\.\d+)["']""", text))

    if len(source) > MAX_PARSED_CELL:
        # parsing runs in the checker's own process: a huge cell (megabytes of code) would
        # hold it for a minute and gigabytes; read such a cell line by line instead
        return by_lines()
    try:
        tree = ast.parse("\n".join(lines))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return by_lines()
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args \
                and getattr(node.func, "id", getattr(node.func, "attr", None)) == "check" \
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            ids.add(node.args[0].value)
    return ids


def _check_chapters(nb: dict) -> list[str]:
    """The chapters of the exercises the notebook's own ``check("N.M")`` calls name."""
    ids = set().union(*(_check_calls(_source(c)) for c in nb.get("cells", [])
                        if isinstance(c, dict) and c.get("cell_type") == "code"))
    return sorted({EXERCISES[i].chapter for i in ids if i in EXERCISES})


def _judged_chapter(nb: dict, name: str, given: str | None) -> tuple[str | None, str, str]:
    """(chapter, note, refusal): the chapter to judge ``nb`` as. ``given`` (``--chapter``)
    wins, a disagreement noted; without it the metadata chapter is used only if the file
    name and the notebook's check() cells agree with it, else ``refusal`` says why."""
    meta, from_name, checks = _metadata_chapter(nb), _file_chapter(name), _check_chapters(nb)
    if given is not None:
        others = [f"its metadata says {meta}" if meta not in (None, given) else "",
                  f"its file name says {from_name}" if from_name not in (None, given) else "",
                  f"its check() cells are chapter {', '.join(checks)}"
                  if checks and given not in checks else ""]
        others = [o for o in others if o]
        note = (f"judged as chapter {given} (--chapter), but " + " and ".join(others)) \
            if others else ""
        return given, note, ""
    if meta is None and from_name is None:
        found = _content_chapters(nb)
        if not found:
            return None, "", ("no chapter metadata, no NN_ in the file name, and no exercise "
                              "of the course in its code: cannot tell which chapter this is; "
                              "give --chapter NN to judge it as chapter NN")
        if len(found) > 1:
            return None, "", (f"no chapter metadata and no NN_ in the file name, and its "
                              f"content names chapters {', '.join(found)}: cannot tell which "
                              "chapter this is; give --chapter NN to judge it as chapter NN")
        return found[0], (f"no chapter metadata and no NN_ in the file name: judged as "
                          f"chapter {found[0]} from its content"), ""
    content = _content_chapters(nb)  # its check() cells, answer names and title
    if len(content) > 1:
        # a chapter's own notebook names one chapter; more is another chapter's answers
        # brought in (judged under a metadata or file name of the student's choosing)
        return None, "", (f"its content (check() cells, answer names) names chapters "
                          f"{', '.join(content)}: cannot tell which chapter this is; give "
                          "--chapter NN to judge it as chapter NN")
    if meta is None:
        if content and from_name not in content:
            return None, "", (f"no chapter metadata; its file name says chapter {from_name}, "
                              f"but its content (check() cells, answer names) is chapter "
                              f"{', '.join(content)}: not judged; give --chapter NN to judge "
                              "it as chapter NN")
        return from_name, "", ""
    problems = []
    if from_name is not None and from_name != meta:
        problems.append(f"its file name says chapter {from_name}")
    if checks and meta not in checks:
        problems.append(f"its check() cells are chapter {', '.join(checks)}")
    elif content and meta not in content:
        problems.append(f"its content (answer names) is chapter {', '.join(content)}")
    if problems:
        return None, "", (f"the notebook's metadata says chapter {meta}, but "
                          + " and ".join(problems) + ": not judged (the metadata is the "
                          "student's to edit); give --chapter NN to judge it as chapter NN")
    return meta, "", ""


def _content_chapters(nb: dict) -> list[str]:
    """The chapters a notebook's content names: its ``check("N.M")`` calls, the answer
    names it defines or uses (``my_…``), and a ``第 N 章`` title: the first markdown
    heading that holds one (``# 第 4 章 …``), not a mention in the text, such as a link
    to another chapter ("[第 1 章](01_tokenization.ipynb)")."""
    cells = [c for c in nb.get("cells", []) if isinstance(c, dict)]
    code = "\n".join(_source(c) for c in cells if c.get("cell_type") == "code")
    found = set(_check_chapters(nb))
    found |= {ex.chapter for ex in EXERCISES.values()
              if re.search(rf"\b{re.escape(ex.answer_name)}\b", code)}
    for cell in cells:
        if cell.get("cell_type") == "markdown":
            m = re.search(r"^#{1,6}[^\n\[]*?第\s*(\d{1,2})\s*章", _source(cell), re.M)
            if m and chapter_id(m.group(1)) in registry():
                found.add(chapter_id(m.group(1)))
                break
    return sorted(found)


def _checked_timeout(timeout: object) -> float:
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) \
            or not math.isfinite(timeout) or timeout <= 0:
        raise ValueError(f"timeout must be a finite number of seconds > 0, got {timeout!r}")
    return float(timeout)


def check_submission(path: str | Path, timeout: float = 120, kernel_name: str = "python3",
                     *, limits=None, sandbox: str | None = None,
                     chapter: str | None = None) -> list[Row]:
    """Check one submission: run it in a sandboxed kernel (``bleu_lesson.grading.sandbox``),
    killed with everything it started once it has run for ``timeout`` seconds (the
    limit is per notebook, kernel start-up not counted), and judge each exercise of its
    chapter here, from the plain values the kernel sends back (``bleu_lesson.grading.judge``).

    ``limits`` is a ``bleu_lesson.grading.sandbox.Limits``; ``sandbox`` forces a backend;
    ``chapter`` (``"04"``) judges it as that chapter whatever its metadata says. The file
    is read once, with ``read_submission`` (no symlinks, FIFOs or huge files). Every row
    records the backend in its ``sandbox`` field.
    """
    allow_new()
    return _check_submission(path, timeout, kernel_name, limits=limits, sandbox=sandbox,
                             chapter=chapter)


def _check_submission(path: str | Path, timeout: float = 120, kernel_name: str = "python3",
                      *, limits=None, sandbox: str | None = None,
                      chapter: str | None = None) -> list[Row]:
    """``check_submission`` within a run of ``check_submissions`` (which an interrupt ends)."""
    timeout = _checked_timeout(timeout)
    kind = _sandbox_kind(sandbox)
    if kernel_name != "python3":
        raise ValueError(f"kernel_name must be 'python3' (this Python), got {kernel_name!r}")
    if chapter is not None:
        chapter = _chapter_id(chapter)
        if chapter not in registry():
            raise ValueError(f"chapter must be one of {', '.join(registry())}, got {chapter!r}")
    return [replace(row, sandbox=kind) for row in
            _check_one(Path(path), timeout, limits, kind, chapter)]


def _sandbox_kind(sandbox: str | None) -> str:
    """The backend a check uses: ``sandbox`` if given (checked), else ``backend()``."""
    if sandbox is not None and sandbox not in BACKENDS:
        raise ValueError(f"sandbox must be one of {', '.join(BACKENDS)}, got {sandbox!r}")
    kind = backend() if sandbox is None else sandbox
    why = refusal(kind)
    if why:
        raise ValueError(why)
    return kind


def _check_one(path: Path, timeout: float, limits, kind: str,
               chapter: str | None) -> list[Row]:
    """``check_submission`` once its arguments are checked."""
    import nbformat

    label = str(path)
    try:
        data = read_submission(path)
    except ValueError as exc:
        return [Row(label, "-", "error", str(exc))]
    try:
        raw = json.loads(data.decode("utf-8"))
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
    chapter, note, refusal = _judged_chapter(raw, path.name, chapter)
    if refusal:
        return [Row(label, "-", "error", refusal)]
    ids = _exercise_ids(chapter, raw)
    if not ids:
        if chapter in registry():
            return [Row(label, "-", "no-exercises",
                        f"chapter {chapter} has no exercises to check")]
        return [Row(label, "-", "error", "no exercise of the course found in this notebook")]
    data_chapters = sorted({EXERCISES[i].chapter for i in ids
                            if registry()[EXERCISES[i].chapter].needs_data})
    no_data = _no_data(data_chapters) if data_chapters else ""
    if no_data:  # the instructor's machine lacks the data: not the student's fault
        return _noted([Row(label, i, "error", no_data) for i in ids], note)
    # CPU time: the wall-clock limit plus start-up and judging, whatever ``limits`` says
    limits = replace(limits or Limits(), cpu_seconds=int(math.ceil(timeout)) + 120)
    try:
        verdicts = check_notebook(path, nb, [EXERCISES[i] for i in ids], timeout, limits,
                                  kind=kind, data=data)
    except Exception as exc:  # noqa: BLE001 - still one row per exercise, saying what happened
        return _noted([Row(label, i, "error", f"checker failed: {type(exc).__name__}: "
                                              f"{' '.join(str(exc).split())[:200]}")
                       for i in ids], note)
    rows = [Row(label, v.exercise, v.status, " ".join(v.detail.split())) for v in verdicts]
    return _noted(rows, note)


#: How the detail of a row starts when its chapter needs the WMT22 data and this machine
#: has none: the submission was not run (``bleu-lesson check`` then exits with status 2).
NO_DATA = "not judged: no WMT22 data here"


def _no_data(chapters: list[str]) -> str:
    """Why a submission of data ``chapters`` cannot be judged here, or ``""`` when the
    sandbox gets every dataset (``bleu_lesson.grading.sandbox.wmt22_folder``), as ``make
    notebooks`` needs every dataset to run them."""
    if data_root(complete=True) is not None:  # then it is the one the sandbox is given
        return ""
    env = os.environ.get(WMT22_ENV_VAR)
    where = (f"${WMT22_ENV_VAR} ({env})" if env else f"${WMT22_ENV_VAR} (not set)")
    return (f"{NO_DATA} (chapter {', '.join(chapters)} needs it; the test set and the human "
            f"judgments are complete neither in {where} nor in the cache "
            f"{default_cache_dir()}): {get_data_hint()}, then check this submission again")


def _noted(rows: list[Row], note: str) -> list[Row]:
    if not note:
        return rows
    return [replace(r, detail=f"{r.detail}; {note}" if r.detail else note) for r in rows]


def _duplicates(paths: Sequence[Path]) -> dict[int, str]:
    """For each submission whose bytes (SHA-256) are those of another one in this run, a
    note naming the others; the status is not changed (copying is the instructor's call)."""
    import hashlib

    by_hash: dict[str, list[int]] = {}
    for k, path in enumerate(paths):
        try:
            digest = hashlib.sha256(read_submission(path)).hexdigest()
        except ValueError:
            continue
        by_hash.setdefault(digest, []).append(k)
    notes = {}
    for digest, ks in by_hash.items():
        for k in ks if len(ks) > 1 else ():
            others = ", ".join(shown(paths[j]) for j in ks if j != k)
            notes[k] = f"identical (SHA-256 {digest[:12]}) to {others}"
    return notes


def shown(text: object) -> str:
    """``text`` as one printable line: with a control character (a newline in a file
    name could forge a line of the summary), its ``repr``; else as it is.

    >>> shown("alice_04.ipynb"), shown("a\\nb.ipynb")
    ('alice_04.ipynb', "'a\\\\nb.ipynb'")
    """
    text = str(text)
    return text if text.isprintable() else repr(text)


def _in_pool_thread(path: str | Path, timeout: float, **options: Any) -> list[Row]:
    """``_check_submission`` in a worker thread, closing the asyncio loop that
    jupyter_client's blocking calls leave in the thread: left open, it is collected later
    in a cycle with its own sockets, and may print "Exception ignored in
    BaseEventLoop.__del__ ... Invalid file descriptor: -1" to a run that went well."""
    try:
        return _check_submission(path, timeout, **options)
    finally:
        import asyncio

        try:
            loop = asyncio.get_event_loop_policy().get_event_loop()
        except RuntimeError:  # none in this thread
            loop = None
        if loop is not None and not loop.is_running() and not loop.is_closed():
            loop.close()
            asyncio.set_event_loop(None)


def check_submissions(paths: Sequence[str | Path], *, timeout: float = 120, jobs: int = 1,
                      progress: Callable[[str], None] | None = None,
                      on_row: Callable[[Row], None] | None = None,
                      on_result: Callable[[int, list[Row]], None] | None = None,
                      limits=None, sandbox: str | None = None,
                      chapter: str | None = None) -> list[Row]:
    """Check many submissions, ``jobs`` at a time; rows come back in the order given.

    ``on_row(row)`` is called for each row as soon as its submission is done (in the
    order submissions finish), and ``on_result(k, rows)`` once per submission with its
    index in ``paths``, so a caller can keep a partial report; ``progress`` gets
    one line per finished submission. On ``KeyboardInterrupt`` the running kernels are
    killed at once, the waiting submissions dropped, and the interrupt raised again.
    Submissions with identical bytes get a note in their ``detail`` (status unchanged);
    ``chapter`` is passed to ``check_submission``.
    """
    timeout = _checked_timeout(timeout)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be an int >= 1, got {jobs!r}")
    allow_new()
    paths = [Path(p) for p in paths]
    kind = _sandbox_kind(sandbox)  # once: every submission of the run uses the same one
    numpy_copy()  # before any kernel starts: an unshare kernel gets it covered (WORLD_ONLY)
    results: dict[int, list[Row]] = {}
    twins = _duplicates([Path(p) for p in paths])
    pool = ThreadPoolExecutor(max_workers=jobs)
    try:
        futures = {pool.submit(_in_pool_thread, p, timeout, limits=limits,
                               sandbox=kind, chapter=chapter): k
                   for k, p in enumerate(paths)}
        for done, future in enumerate(as_completed(futures), start=1):
            k = futures[future]
            try:
                results[k] = future.result()
            except Exception as exc:  # never let one submission stop the others
                results[k] = [Row(str(paths[k]), "-", "error",
                                  f"checker failed: {type(exc).__name__}: {exc}", kind)]
            results[k] = _noted(results[k], twins.get(k, ""))
            if on_row is not None:
                for row in results[k]:
                    on_row(row)
            if on_result is not None:
                on_result(k, results[k])
            if progress is not None:
                counts = {s: sum(r.status == s for r in results[k]) for s in STATUSES}
                summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
                progress(f"[{done}/{len(paths)}] {shown(paths[k])}: {summary}")
    except BaseException:  # Ctrl-C: kill the running kernels now, drop the rest
        pool.shutdown(wait=False, cancel_futures=True)
        kill_all()
        close_all()  # and remove their work folders: no copy of a submission survives
        raise
    pool.shutdown()
    return [row for k in range(len(paths)) for row in results[k]]


#: The report's columns. ``sandbox`` is the backend that ran the check (bwrap, unshare or
#: none), the same on every row of one run, so that a spreadsheet shows it beside each result.
REPORT_HEADER = ("submission", "exercise", "status", "detail", "sandbox")
#: The header of reports written before the sandbox column: still recognised as a report.
_OLD_REPORT_HEADERS = (("submission", "exercise", "status", "detail"),)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _csv_cell(value: object) -> str:
    """A cell as a spreadsheet will not run it: text beginning with ``=``, ``+``, ``-``,
    ``@``, a tab or a carriage return gets a leading ``'`` (OWASP's CSV-injection rule).

    >>> [_csv_cell(v) for v in ("=HYPERLINK(1)", "-", "+1", "@x", "6/6", "")]
    ["'=HYPERLINK(1)", "'-", "'+1", "'@x", '6/6', '']
    """
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def _is_report(path: Path) -> bool:
    """Whether ``path`` is an earlier report: its first line is exactly the header (this
    one, or that of an earlier version)."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            first = f.readline(200)
    except (OSError, UnicodeDecodeError):
        return False
    return first.rstrip("\r\n") in {",".join(h) for h in (REPORT_HEADER, *_OLD_REPORT_HEADERS)}


def check_report_path(path: str | Path, inputs: Iterable[str | Path] = (), *,
                      force: bool = False) -> Path:
    """Refuse a report path that would destroy something, before any grading starts.

    Refused always: an empty path, any ``.ipynb``, one of ``inputs`` (symlinks and ``..``
    resolved), a folder, a folder that does not exist or cannot be written into. Refused
    unless ``force``: an existing file that is not an earlier report (recognised by its
    exact header). Raises ValueError naming the file; returns the path.
    """
    if not str(path).strip():
        raise ValueError("--report is empty: give the CSV file to write")
    report = Path(path)
    if report.suffix.lower() == ".ipynb":
        raise ValueError(f"--report {report} is a notebook, not a CSV file (did a glob "
                         "after --report expand to the submissions? put --report FILE.csv "
                         "first)")
    real = report.resolve()
    for item in map(Path, inputs):
        if item.resolve() == real:
            raise ValueError(f"--report {report} is one of the submissions")
    if real.is_dir():
        raise ValueError(f"--report {report} is a folder")
    folder = real.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise ValueError(f"--report {report}: {report.parent} {what}")
    if report.exists() and not force and not _is_report(report):
        raise ValueError(f"--report {report} exists and is not an earlier report (its first "
                         f"line is not {','.join(REPORT_HEADER)!r}): give --force to "
                         "overwrite it")
    try:  # the only honest test of "can I write here": write something (root ignores modes)
        fd, tmp = tempfile.mkstemp(prefix=f".{report.name}.", suffix=".tmp", dir=folder)
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        raise ValueError(f"--report {report} cannot be written: "
                         f"{exc.strerror or exc}") from None
    return report


def write_report(rows: Iterable[Row], path: str | Path) -> None:
    """CSV with the header ``submission,exercise,status,detail,sandbox``, written
    atomically (a temporary file in the same folder, then ``os.replace``); cells that a
    spreadsheet would read as a formula are escaped (see ``_csv_cell``)."""

    def write(f) -> None:
        writer = csv.writer(f)
        writer.writerow(REPORT_HEADER)
        for row in rows:
            writer.writerow([_csv_cell(row.submission), _csv_cell(row.exercise),
                             _csv_cell(row.status), _csv_cell(row.detail),
                             _csv_cell(row.sandbox)])

    _atomic_write(Path(path), write, newline="")


def summary_table(rows: Sequence[Row]) -> str:
    """One line per submission: the status of each exercise (names with control
    characters shown escaped, see ``shown``, so no name can forge a line)."""
    by_sub: dict[str, list[Row]] = {}
    for row in rows:
        by_sub.setdefault(shown(row.submission), []).append(row)
    width = max((len(s) for s in by_sub), default=10)
    lines = [f"{'submission':{width}}  results"]
    for sub, sub_rows in by_sub.items():
        cells = "  ".join(f"{shown(r.exercise)}:{shown(r.status)}" for r in sub_rows)
        lines.append(f"{sub:{width}}  {cells}")
    return "\n".join(lines)

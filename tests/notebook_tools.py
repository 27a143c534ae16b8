"""Reading chapter notebooks for the tests: cells, documented outputs, solution blocks."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path

# The solution markers are parsed in one place, bleu_lesson.grading.course; the tests use it too.
from bleu_lesson.grading.course import BEGIN, END, solution_blocks, stub_solutions  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"
#: the judging cell earlier versions sent to the learner's kernel: a stand-in for the world
#: that makes one reply in the protocol ``judge.judge_exercise`` reads (kernel_reply.py)
KERNEL_REPLY = (Path(__file__).resolve().parent / "kernel_reply.py").read_text(encoding="utf-8")
#: The one bold label that asks the learner to predict the output of the code cell right
#: after it (docs/glossary.md): that cell is tagged ``predict``, its answer folded after it.
PREDICT_LABEL = "**先预测，再运行 (Predict, then run)**"
# "预期输出 / Expected output" (either half is enough), then a fenced block
_EXPECTED = re.compile(r"(预期输出|Expected output)[^\n]*\n+```[^\n]*\n(.*?)```", re.S)


# Chapters that need the real WMT22 data, which is never downloaded during tests.
def _needs_data() -> tuple[str, ...]:
    from bleu_lesson.teaching.chapters import registry

    return tuple(ch.notebook for ch in registry().values() if ch.needs_data)


NEEDS_WMT22 = _needs_data()  # from the chapter registry (NEEDS_DATA in chapters/chNN.py)


# --- skip reasons: one short actionable line each, made here and nowhere else -----------

def data_skip_reason(problem: str = "WMT22 data not found") -> str:
    """The skip reason of every test that needs the WMT22 data: what is wrong, then what
    to do (``bleu_lesson.data.datasets.get_data_hint``, the line ``make notebooks`` prints too).

    >>> data_skip_reason().startswith("WMT22 data not found: run `make data`")
    True
    """
    from bleu_lesson.data.datasets import get_data_hint

    return f"{problem}: {get_data_hint()}"


@functools.cache
def find_dataset(name: str) -> Path | str:
    """The folder of dataset ``name`` ("wmt22", "wmt22-human"), found as the library finds
    it (``BLEU_LESSON_WMT22_DIR``, then the user cache; never downloaded), or the skip
    reason of the tests that need it. Found once per session (cached): later tests that
    point the environment elsewhere do not change the answer."""
    from bleu_lesson.data.datasets import data_missing, fetch_dataset

    problem = data_missing([name])  # the library's one answer
    if problem:
        what = "WMT22 human judgments" if name == "wmt22-human" else "WMT22 data"
        return data_skip_reason(f"{what} not found" if problem.startswith(f"{name}:")
                                else problem)
    return fetch_dataset(name, download=False)


def wmt22_unavailable() -> str | None:
    """Why the WMT22 chapters cannot run here (one line), or None when all their data is
    local or cached: the test set and chapter 10's human judgments."""
    for name in ("wmt22", "wmt22-human"):
        found = find_dataset(name)
        if isinstance(found, str):
            return found
    return None


def seed_skip_reason(exc: BaseException) -> str:
    """The skip reason of a test that needs the seed chapter text (``exc`` says where it
    looked): it is not distributed, the README says what the tests compare."""
    where = getattr(exc, "path", None)
    return (f"seed chapter text not found{f' at {where}' if where else ''}: put it in "
            "../shared/seed or set BLEU_LESSON_SEED_DIR (not distributed; see the README)")


def chapters() -> list[Path]:
    return sorted(NOTEBOOK_DIR.glob("[0-9][0-9]_*.ipynb"))


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def code_cells(nb: dict) -> list[dict]:
    return [c for c in nb["cells"] if c["cell_type"] == "code" and source(c).strip()]


def output_text(cell: dict) -> str:
    """What a reader sees as text: stdout streams and text/plain results, in order."""
    parts = []
    for out in cell.get("outputs", []):
        if out["output_type"] == "stream" and out.get("name") == "stdout":
            parts.append("".join(out["text"]))
        elif out["output_type"] in ("execute_result", "display_data"):
            data = out.get("data", {})
            if "text/plain" in data and not any(k.startswith("image/") or
                                                 k.startswith("application/vnd.jupyter.widget")
                                                 for k in data):
                parts.append("".join(data["text/plain"]) + "\n")
    return "".join(parts)


@dataclass
class Documented:
    notebook: str
    index: int          # index of the markdown cell
    expected: str
    actual: str | None  # stored output text of the code cell it documents
    prose: str          # the text before the run: the question and the hand calculation
    folded: bool = False  # inside <details> after the run (True) or before the run (False)


_DETAILS = re.compile(r"<details\b.*?</details>", re.S | re.I)


def _markdown_before(cells: list, j: int) -> str:
    """The markdown cells right before cell ``j`` (back to the previous code cell)."""
    parts = []
    k = j - 1
    while k >= 0 and cells[k]["cell_type"] == "markdown":
        parts.append(source(cells[k]))
        k -= 1
    return "\n".join(reversed(parts))


def documented_outputs(path: Path) -> list[Documented]:
    """Every "预期输出 / Expected output" block, with the output of the code cell it documents.

    The learner predicts first (the hand calculation stands before the run). A block folded
    in ``<details>`` follows its run cell and documents the code cell BEFORE it; an open
    block documents the NEXT code cell."""
    nb = load(path)
    cells = nb["cells"]
    found = []
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        text = source(cell)
        folds = [m.span() for m in _DETAILS.finditer(text)]
        for m in _EXPECTED.finditer(text):
            if any(a <= m.start() < b for a, b in folds):
                before = [j for j in range(i) if cells[j]["cell_type"] == "code"]
                actual = output_text(cells[before[-1]]) if before else None
                prose = _markdown_before(cells, before[-1]) if before else ""
                found.append(Documented(path.name, i, m.group(2), actual, prose, True))
                continue
            after = [c for c in cells[i + 1:] if c["cell_type"] == "code"]
            actual = output_text(after[0]) if after else None
            prose = text[:m.start()]
            if i > 0 and cells[i - 1]["cell_type"] == "markdown":
                prose = source(cells[i - 1]) + "\n" + prose
            found.append(Documented(path.name, i, m.group(2), actual, prose))
    return found


#: a number with three or more decimals, as the chapters print them (0.8465, 90.361)
PROSE_NUMBER = re.compile(r"(?<![\d.])\d+\.\d{3,}(?!\d)")


def prose_numbers(path: Path) -> list[tuple[int, str]]:
    """``(markdown cell index, number)`` for every number with 3+ decimals in a chapter's
    prose (fenced blocks aside): the numbers a worked example states."""
    found = []
    for i, cell in enumerate(load(path)["cells"]):
        if cell["cell_type"] == "markdown":
            text = re.sub(r"```.*?```", "", source(cell), flags=re.S)
            found += [(i, m.group(0)) for m in PROSE_NUMBER.finditer(text)]
    return found





def strip_solutions(text: str) -> str:
    """The cell's source as a student copy holds it (each solution block replaced by its
    stub), so the result still parses."""
    return stub_solutions(text)


def replace_solutions(text: str, body: str) -> str:
    """The cell's source with the lines inside each solution block replaced by ``body``
    (indented like the block's BEGIN line), the markers kept: a student's answer."""
    lines = text.split("\n")
    for block in reversed(solution_blocks(text)):
        lines[block.begin + 1:block.end] = [block.indent + line for line in body.split("\n")]
    return "\n".join(lines)


def code_notebook(cells: list[str], chapter: str = "04") -> dict:
    """A minimal submission: one code cell per source, chapter metadata set (the check tests'
    hand-made notebooks)."""
    return {"nbformat": 4, "nbformat_minor": 5,
            "metadata": {"bleu_lesson": {"chapter": chapter},
                         "kernelspec": {"name": "python3", "display_name": "Python 3",
                                        "language": "python"}},
            "cells": [{"cell_type": "code", "id": f"c{k}", "metadata": {}, "outputs": [],
                       "execution_count": None, "source": s} for k, s in enumerate(cells)]}

"""A learner's copy never shows, in a stored output, the library code an exercise asks for.

An exercise whose answer is a library function (4.1 ``brevity_penalty``, 10.2
``pairwise_accuracy`` ...) may reveal that function's source after its check, for the
learner to compare once done (a code cell tagged ``reveal``). The learner's copy keeps the
cell, so running it shows the source, but not its stored output: the answer is not in plain
view before the learner has tried.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bleu_lesson.grading.course import make_student_copy
from bleu_lesson.teaching.chapters import registry
from bleu_lesson.teaching.exercises import EXERCISES

ROOT = Path(__file__).resolve().parent.parent


def answer_functions(chapter: str) -> set[str]:
    """Names of the library functions that are, themselves, the answer to one of the
    chapter's exercises (the exercise's reference). A function an exercise only may not
    call (6.1 may not call ``score_stats``, which the chapter shows as its idea) is not one."""
    names = set()
    for ex in EXERCISES.values():
        if ex.chapter != chapter:
            continue
        ref = ex.reference
        if ref is not None and getattr(ref, "__module__", "").startswith("bleu_lesson.") \
                and not ref.__name__.startswith("_"):
            names.add(ref.__name__)
    return names


def shown_text(cell: dict) -> str:
    parts = []
    for out in cell.get("outputs", []):
        parts.append("".join(out.get("text", "")))
        for value in (out.get("data") or {}).values():
            parts.append(value if isinstance(value, str) else "".join(value)
                         if isinstance(value, list) else "")
    return "\n".join(parts)


CHAPTERS = sorted(registry().values(), key=lambda ch: ch.id)


@pytest.mark.parametrize("ch", CHAPTERS, ids=lambda ch: ch.id)
def test_the_learners_copy_shows_no_answer_source(ch):
    nb = json.loads((ROOT / "notebooks" / ch.notebook).read_text(encoding="utf-8"))
    student = make_student_copy(nb, ch.notebook)
    leaks = [(i, name) for name in sorted(answer_functions(ch.id))
             for i, cell in enumerate(student["cells"]) if cell["cell_type"] == "code"
             and f"def {name}(" in shown_text(cell)]
    assert not leaks, f"stored outputs show an exercise's answer source: {leaks}"


def test_a_reveal_cell_keeps_its_output_in_the_authoring_copy_only():
    cell = {"cell_type": "code", "metadata": {"tags": ["reveal"]}, "source": "show_source(f)",
            "execution_count": 3,
            "outputs": [{"output_type": "stream", "name": "stdout", "text": "def f(x):\n"}]}
    nb = {"cells": [cell], "metadata": {}}
    student = make_student_copy(nb, "04_brevity_penalty.ipynb")
    assert student["cells"][0]["outputs"] == [] and student["cells"][0]["source"] == cell["source"]
    assert nb["cells"][0]["outputs"], "the authoring copy is not changed"


def test_the_tables_that_answer_9_2_are_not_stored_in_the_learners_copy():
    """A learner's review: right under check("9.2") the stored table of every system's
    BLEU under references A and B gave the prediction away before any run."""
    ch = next(c for c in CHAPTERS if c.id == "09")
    nb = json.loads((ROOT / "notebooks" / ch.notebook).read_text(encoding="utf-8"))
    student = make_student_copy(nb, ch.notebook)
    cells = student["cells"]
    at = next(i for i, c in enumerate(cells) if 'check("9.2"' in "".join(c["source"]))
    tables = [c for c in cells[at + 1:] if c["cell_type"] == "code"
              and "".join(c["source"]).startswith(("BLEU_SCORES = ", "RANKS = "))]
    assert tables, "the score and rank tables after 9.2 are not found"
    for cell in tables:
        assert "HuaweiTSC" not in shown_text(cell), "".join(cell["source"])[:60]
    assert all(c.get("execution_count") is None for c in cells if c["cell_type"] == "code")
    # a learner's find: an output stored as [11]: under a cell shown as [ ]:
    assert all(out.get("execution_count") is None for c in cells if c["cell_type"] == "code"
               for out in c.get("outputs", []))

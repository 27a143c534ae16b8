"""A learner's copy never shows, in a stored output, the library code an exercise asks for.

An exercise whose answer is a library function (4.1 ``brevity_penalty``, 10.2
``pairwise_accuracy`` ...) may reveal that function's source after its check, for the
learner to compare once done (a code cell tagged ``reveal``). The learner's copy keeps the
cell, so running it shows the source, but not its stored output: the answer is not in plain
view before the learner has tried.
"""

from __future__ import annotations

import ast
import json
import re
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


# --- Run All of an untouched copy: the answer's source only after the exercise passed ------

def _calls(src: str) -> list[ast.Call]:
    code = "\n".join(line for line in src.split("\n") if not line.lstrip().startswith(("%", "!")))
    return [node for node in ast.walk(ast.parse(code)) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)]


def answer_exercises() -> dict[str, str]:
    """Each library function that is an exercise's answer -> that exercise's id."""
    return {name: ex.id for ex in EXERCISES.values() for name in answer_functions(ex.chapter)
            if getattr(ex.reference, "__name__", None) == name}


@pytest.mark.parametrize("ch", CHAPTERS, ids=lambda ch: ch.id)
def test_an_answers_source_is_shown_only_after_its_exercise_passed(ch):
    """A learner's review: on Run All of the exercise copy, ``show_source(brevity_penalty)``
    printed 4.1's answer right under the untouched exercise (also 4.2, 10.2). The source of
    an answer is shown with ``show_source_after(id, fn)``, which waits for that exercise."""
    answers = answer_exercises()
    nb = json.loads((ROOT / "notebooks" / ch.notebook).read_text(encoding="utf-8"))
    wrong = []
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        for call in _calls("".join(cell["source"])):
            args = [ast.unparse(a).rpartition(".")[2] for a in call.args]
            if call.func.id == "show_source" and args and args[0] in answers:
                wrong.append((i, f"show_source({args[0]}) before {answers[args[0]]} passed"))
            if call.func.id == "show_source_after" and len(args) == 2 and args[1] in answers:
                if ast.literal_eval(call.args[0]) != answers[args[1]]:
                    wrong.append((i, f"{args[1]} waits for the wrong exercise"))
    assert not wrong, wrong


def test_show_source_after_waits_for_its_exercise(capsys):
    from bleu_lesson.core.brevity import brevity_penalty
    from bleu_lesson.teaching import exercises

    saved = dict(exercises.results)
    try:
        exercises.results.clear()
        exercises.show_source_after("4.1", brevity_penalty)
        out = capsys.readouterr().out
        assert "先通过练习 4.1" in out and "def brevity_penalty" not in out
        exercises.check("4.1", lambda c, r: 1.0)  # a wrong answer shows nothing either
        capsys.readouterr()
        exercises.show_source_after("4.1", brevity_penalty)
        assert "def brevity_penalty" not in capsys.readouterr().out
        exercises.check("4.1", brevity_penalty)
        capsys.readouterr()
        exercises.show_source_after("4.1", brevity_penalty)
        assert "def brevity_penalty(" in capsys.readouterr().out
        with pytest.raises(ValueError, match="unknown exercise"):
            exercises.show_source_after("4.9", brevity_penalty)
    finally:
        exercises.results.clear()
        exercises.results.update(saved)


# --- outputs computed from a model answer ----------------------------------------------------

@pytest.mark.parametrize("ch", CHAPTERS, ids=lambda ch: ch.id)
def test_no_learner_copy_keeps_an_output_computed_from_an_answer(ch):
    """A learner's review: chapter 10's copy showed "BLEU (ref A) and people disagree most
    on: ('DLUT', 'NiuTrans')", 10.3's answer, computed by the model answer under the check.
    No stored output of a learner copy comes from a cell that uses an exercise's answer
    (its name, or a name computed from it), or reads the kernel's exercise results."""
    nb = json.loads((ROOT / "notebooks" / ch.notebook).read_text(encoding="utf-8"))
    student = make_student_copy(nb, ch.notebook)
    names = {ex.answer_name for ex in EXERCISES.values()}
    kept = []
    for i, cell in enumerate(student["cells"]):
        src = "".join(cell["source"])
        if cell["cell_type"] != "code" or not cell.get("outputs"):
            continue
        used = sorted(n for n in names if re.search(rf"\b{re.escape(n)}\b", src))
        if used or re.search(r"\bresults\b", src) and "exercises" in src:
            kept.append((i, used or "results"))
    assert not kept, f"stored outputs computed from an answer: {kept}"

"""Predict, then run: what a learner opens never answers a prediction before its run.

The rule (docs/authoring.md, "Predict, then run"): a code cell right after the label
``**先预测，再运行 (Predict, then run)**`` is tagged ``predict``; the learner's copy
(``make_student_copy``) keeps no stored output under it; and no markdown before it shows
its expected output (the expected value may follow the run, inside a collapsed
``<details>``). The chapters are checked as they are, and the checker itself is checked
on a chapter cell tagged here in a temporary copy, and on the ways of getting it wrong.
"""

from __future__ import annotations

import copy
import re

import pytest
from notebook_tools import PREDICT_LABEL, chapters, load, output_text, source

from bleu_lesson.grading.course import PREDICT_TAG, _is_exercise_cell, make_student_copy

CHAPTERS = chapters()
IDS = [p.stem for p in CHAPTERS]
pytestmark = pytest.mark.skipif(not CHAPTERS, reason="no chapter notebooks yet")

#: How the chapters ask for a prediction right before the cell that answers it (the one
#: wording: tests/test_predict_folds.py).
ASKS = re.compile(re.escape(PREDICT_LABEL))
_DETAILS = re.compile(r"<details\b.*?</details>", re.S | re.I)
_FENCE = re.compile(r"```[^\n]*\n(.*?)```", re.S)
_EXPECTED = re.compile(r"预期输出|Expected output")


def _markdown_before(cells: list, i: int) -> list[tuple[int, str]]:
    """The markdown cells between the code cell before ``i`` and cell ``i``."""
    found = []
    j = i - 1
    while j >= 0 and cells[j]["cell_type"] != "code":
        if cells[j]["cell_type"] == "markdown":
            found.append((j, source(cells[j])))
        j -= 1
    return found[::-1]


def _tagged(cell: dict) -> bool:
    return PREDICT_TAG in cell.get("metadata", {}).get("tags", [])


def untagged_predictions(nb: dict) -> list[int]:
    """Code cells the markdown right before them asks to predict, not tagged ``predict``
    (exercise cells aside: their outputs are cleared anyway)."""
    cells = nb["cells"]
    return [i for i, cell in enumerate(cells)
            if cell["cell_type"] == "code" and not _tagged(cell)
            and not _is_exercise_cell(source(cell))
            and i > 0 and cells[i - 1]["cell_type"] == "markdown"
            and ASKS.search(source(cells[i - 1]))]


def answered_before(authoring: dict, student: dict) -> list[str]:
    """The problems of ``student`` (the learner's copy of ``authoring``): a predict cell
    with stored outputs, or markdown before it (outside ``<details>``) that shows its
    expected output (a fenced block the authoring run printed, or an "expected output")."""
    problems = []
    for i, cell in enumerate(student["cells"]):
        if cell["cell_type"] != "code" or not _tagged(cell):
            continue
        if cell.get("outputs"):
            problems.append(f"cell {i}: predict cell has stored outputs")
        printed = " ".join(output_text(authoring["cells"][i]).split())
        for j, text in _markdown_before(student["cells"], i):
            visible = _DETAILS.sub("", text)
            if _EXPECTED.search(visible):
                problems.append(f"cell {j}: an expected output above predict cell {i}")
            for block in _FENCE.findall(visible):
                shown = " ".join(block.split())
                if shown and printed and shown in printed:
                    problems.append(f"cell {j}: shows what predict cell {i} prints: "
                                    f"{shown[:60]!r}")
    return problems


# --- the chapters --------------------------------------------------------------------------

@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_every_cell_the_text_asks_to_predict_is_tagged(path):
    nb = load(path)
    missing = untagged_predictions(nb)
    assert not missing, (f"{path.name}: cells {missing} follow a 'Predict, then run' "
                         f"paragraph but are not tagged {PREDICT_TAG!r}")


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_no_prediction_is_answered_before_its_run_in_the_learner_copy(path):
    nb = load(path)
    problems = answered_before(nb, make_student_copy(nb, path.name))
    assert not problems, f"{path.name}: " + "; ".join(problems)


# --- the checker, on a chapter cell tagged here -------------------------------------------

def _first_ask(nb: dict) -> int:
    cells = nb["cells"]
    for i, cell in enumerate(cells):
        if cell["cell_type"] == "code" and i and ASKS.search(source(cells[i - 1])):
            return i
    raise AssertionError("no 'Predict, then run' paragraph before a code cell")


@pytest.fixture
def chapter04():
    path = next((p for p in CHAPTERS if p.name.startswith("04_")), None)
    if path is None:
        pytest.skip("chapter 04 is not here")
    nb = load(path)
    i = _first_ask(nb)
    assert output_text(nb["cells"][i]).strip(), "the cell to predict prints something"
    return nb, i


def _as_authored(nb: dict, i: int) -> dict:
    """Chapter 04 as the rule wants it: cell i tagged, its expected output moved from above
    the run into a ``<details>`` after it."""
    nb = copy.deepcopy(nb)
    cell = nb["cells"][i]
    cell.setdefault("metadata", {}).setdefault("tags", []).append(PREDICT_TAG)
    for j, text in _markdown_before(nb["cells"], i):
        nb["cells"][j]["source"] = _EXPECTED.split(text)[0]
    details = ("<details><summary>对照答案 (check your prediction)</summary>\n\n```\n"
               + output_text(cell) + "```\n</details>")
    nb["cells"].insert(i + 1, {"cell_type": "markdown", "id": "x-details", "metadata": {},
                               "source": details})
    return nb


def test_a_cell_tagged_as_the_rule_says_passes(chapter04):
    nb, i = _as_authored(*chapter04), chapter04[1]
    student = make_student_copy(nb, "04_brevity_penalty.ipynb")
    assert i not in untagged_predictions(nb)
    assert answered_before(nb, student) == []
    assert student["cells"][i]["outputs"] == [] and student["cells"][i]["execution_count"] is None
    assert nb["cells"][i]["outputs"], "the authoring copy keeps its output (nbval checks it)"


def test_an_untagged_cell_is_found(chapter04):
    nb, i = chapter04
    nb = copy.deepcopy(nb)  # chapter 04 is tagged as the rule says: take the tag off
    tags = nb["cells"][i].setdefault("metadata", {}).setdefault("tags", [])
    nb["cells"][i]["metadata"]["tags"] = [t for t in tags if t != PREDICT_TAG]
    assert i in untagged_predictions(nb)


def test_an_expected_output_left_above_the_run_is_found(chapter04):
    nb, i = chapter04
    nb = copy.deepcopy(nb)
    nb["cells"][i].setdefault("metadata", {}).setdefault("tags", []).append(PREDICT_TAG)
    block = "预期输出 / Expected output:\n\n```\n" + output_text(nb["cells"][i]) + "```\n"
    nb["cells"].insert(i, {"cell_type": "markdown", "id": "x-above", "metadata": {},
                           "source": block})
    problems = answered_before(nb, make_student_copy(nb, "04_brevity_penalty.ipynb"))
    assert any("expected output above" in p for p in problems), problems
    assert any("shows what predict cell" in p for p in problems), problems


def test_a_stored_output_under_a_predict_cell_is_found(chapter04):
    nb = _as_authored(*chapter04)
    assert any("stored outputs" in p for p in answered_before(nb, nb))

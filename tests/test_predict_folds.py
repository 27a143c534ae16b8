"""Predictions wait for the learner, in every chapter (issue 22): one label, one meaning.

``**先预测，再运行 (Predict, then run)**`` is the one bold label that asks the learner to
meet a code cell's output with a prediction (docs/glossary.md, docs/authoring.md). It ends
the markdown cell right before that code cell; the code cell, and no other, is tagged
``predict`` (the learner's copy drops its output); the text before the run does not give
the answer; the answer follows the run, folded in ``<details>``. A worked example whose text
gives every number, a table the learner reads in order to predict something else, and an
exercise's check are not predictions: their cells are not tagged, and nothing before them
is an "expected output". What a passing check prints may be said before it (通过时打印),
as long as it is what the check prints.
"""

from __future__ import annotations

import re

import pytest
from notebook_tools import (
    PREDICT_LABEL,
    chapters,
    documented_outputs,
    load,
    output_text,
    source,
)

from bleu_lesson.grading.course import _is_exercise_cell, is_predict_cell

CHAPTERS = chapters()
IDS = [p.stem for p in CHAPTERS]

#: a bold label about running a cell: only PREDICT_LABEL may be one
_RUN_LABEL = re.compile(
    r"\*\*([^*\n]*(?:再运行|运行核对|Predict|then run|run to check)[^*\n]*)\*\*")
_DETAILS = re.compile(r"<details\b.*?</details>", re.S | re.I)
_EXPECTED = re.compile(r"预期输出|Expected output")
_FENCE = re.compile(r"```[^\n]*\n(.*?)```", re.S)
#: a result as the chapters print it: two or more decimals (65.80, 0.3333)
_RESULT = re.compile(r"(?<![\d.])\d+\.\d{2,}(?!\d)")
_CHECK = re.compile(r"\s*(check|progress)\(")


def _prompt(cells: list, i: int) -> str:
    """The markdown between the code cell before ``i`` and cell ``i``, folds removed: what
    the learner reads before running cell ``i``."""
    parts, k = [], i - 1
    while k >= 0 and cells[k]["cell_type"] != "code":
        if cells[k]["cell_type"] == "markdown":
            parts.append(source(cells[k]))
        k -= 1
    return _DETAILS.sub("", "\n".join(reversed(parts)))


def _labelled(cells: list, i: int) -> bool:
    """Whether code cell ``i`` comes right after a markdown cell holding the label."""
    return i > 0 and cells[i - 1]["cell_type"] == "markdown" \
        and PREDICT_LABEL in source(cells[i - 1])


def _given_away(prompt: str, printed: str) -> list[str]:
    """The results the cell prints, when the prompt states every one of them (empty when
    the cell prints none, or when some are left for the learner)."""
    results = sorted(set(_RESULT.findall(printed)))
    return results if results and all(r in prompt for r in results) else []


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_the_label_has_one_wording(path):
    """Not 先算，再运行, not 手算，再运行核对 (Worked by hand, then run to check)."""
    for i, cell in enumerate(load(path)["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        for label in _RUN_LABEL.findall(source(cell)):
            assert f"**{label}**" == PREDICT_LABEL, (
                f"{path.name} cell {i}: label {label!r}; the one label is {PREDICT_LABEL}")


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_the_label_asks_about_the_next_cell_which_is_tagged(path):
    cells = load(path)["cells"]
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "markdown" or PREDICT_LABEL not in source(cell):
            continue
        assert i + 1 < len(cells) and cells[i + 1]["cell_type"] == "code", (
            f"{path.name} cell {i}: the label stands right before the cell it asks about")
        run = source(cells[i + 1])
        assert not _is_exercise_cell(run) and not _CHECK.match(run), (
            f"{path.name} cell {i}: an exercise or its check is not a prediction")
        assert is_predict_cell(cells[i + 1]), f"{path.name} cell {i + 1}: tag it 'predict'"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_only_a_labelled_cell_is_tagged_predict(path):
    """A worked example, or a table read in order to predict something else, keeps its
    output in the learner's copy: its cell is not tagged."""
    cells = load(path)["cells"]
    wrong = [i for i, c in enumerate(cells) if is_predict_cell(c) and not _labelled(cells, i)]
    assert not wrong, (f"{path.name}: cells {wrong} are tagged 'predict' without "
                       f"{PREDICT_LABEL} right before them")


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_the_prompt_does_not_answer(path):
    """Before the run: no expected output, no fenced block, and not every result the cell
    prints (a worked example that gives them all is not a prediction)."""
    cells = load(path)["cells"]
    for i, cell in enumerate(cells):
        if not is_predict_cell(cell):
            continue
        prompt = _prompt(cells, i)
        assert not _EXPECTED.search(prompt) and "```" not in prompt, (
            f"{path.name} cell {i}: the text before it shows an expected output")
        given = _given_away(prompt, output_text(cell))
        assert not given, f"{path.name} cell {i}: the text before the run gives {given}"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_the_answer_is_folded_right_after_the_run(path):
    """Each prediction's expected output is folded in the cell after it. A fold after a
    cell that asks no prediction (chapters 09-10 keep a few, to compare a run on one's own
    data) is labelled 对照 (Check), never "check your prediction"."""
    cells = load(path)["cells"]
    docs = documented_outputs(path)
    open_ = [d.index for d in docs if not d.folded]
    assert not open_, f"{path.name}: expected outputs in plain view in cells {open_}"
    folds = {d.index for d in docs}
    for i, cell in enumerate(cells):
        if is_predict_cell(cell):
            after = source(cells[i + 1]) if i + 1 < len(cells) else ""
            assert i + 1 in folds and after.lstrip().startswith("<details>"), (
                f"{path.name} cell {i}: fold the expected output in <details> right after it")
    for d in docs:
        run = max(j for j in range(d.index) if cells[j]["cell_type"] == "code")
        summary = re.search(r"<summary>(.*?)</summary>", source(cells[d.index]), re.S)
        assert is_predict_cell(cells[run]) or not (
            summary and re.search(r"预测|prediction", summary.group(1), re.I)), (
            f"{path.name} cell {d.index}: 'check your prediction' after cell {run}, which "
            "asks no prediction")


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_a_check_is_announced_not_predicted(path):
    """The text before ``check(...)`` or ``progress(...)`` is no prediction: no label, no
    "expected output"; a fenced block there is exactly what the (passing) check prints."""
    cells = load(path)["cells"]
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "code" or not _CHECK.match(source(cell)):
            continue
        prompt = _prompt(cells, i)
        assert PREDICT_LABEL not in prompt and not _EXPECTED.search(prompt), (
            f"{path.name} cell {i}: a check's pass line is not a prediction")
        for block in _FENCE.findall(prompt):
            assert block.rstrip() == output_text(cell).rstrip(), (
                f"{path.name} cell {i}: the text says it prints {block!r}")


# --- the checks themselves ------------------------------------------------------------------

def test_a_worked_example_that_gives_every_result_is_found():
    prompt = "$C = 4$，$D = 2$，$\\tau = 0.3333$，成对准确率 $= 0.6667$。"
    assert _given_away(prompt, "tau = 0.3333, pairwise accuracy = 0.6667\n") == [
        "0.3333", "0.6667"]
    # the inputs may be given, as long as a result is left to the learner
    assert _given_away("Online-B 用简体时是 79.99。", "BLEU = 79.99\nBLEU = 32.07\n") == []
    assert _given_away("哪一阶少了匹配？", "p_1 = 6/6\n") == []


def test_the_label_pattern_finds_the_old_wordings():
    for old in ("**先算，再运行 (Predict, then run)**",
                "**手算，再运行核对 (Worked by hand, then run to check)**"):
        assert _RUN_LABEL.findall(old) and f"**{_RUN_LABEL.findall(old)[0]}**" != PREDICT_LABEL
    assert _RUN_LABEL.findall(PREDICT_LABEL) == [PREDICT_LABEL.strip("*")]

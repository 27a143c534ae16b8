"""Predictions wait in chapters 00-05: every documented "预期输出 / Expected output" is folded
in ``<details>`` after the cell it documents, that cell is tagged ``predict`` when the text
right before it asks for a prediction, and no prompt shows an expected output."""

from __future__ import annotations

import re

import pytest
from notebook_tools import chapters, documented_outputs, load, source

OURS = [p for p in chapters() if p.name[:2] <= "05"]
ASKS = re.compile(r"Predict, then run|先算，再运行")


@pytest.mark.parametrize("path", OURS, ids=[p.stem for p in OURS])
def test_expected_outputs_are_folded_after_the_run(path):
    docs = documented_outputs(path)
    assert docs and all(d.folded for d in docs), (
        f"{path.name}: open expected outputs in cells {[d.index for d in docs if not d.folded]}")
    cells = load(path)["cells"]
    for doc in docs:
        run = max(j for j in range(doc.index) if cells[j]["cell_type"] == "code")
        asked = ASKS.search(source(cells[run - 1])) if cells[run - 1]["cell_type"] == "markdown" \
            else None
        tags = cells[run].get("metadata", {}).get("tags", [])
        assert not asked or "predict" in tags, f"{path.name} cell {run}: tag it 'predict'"


@pytest.mark.parametrize("path", OURS, ids=[p.stem for p in OURS])
def test_prompts_do_not_answer(path):
    """The paragraph that asks for a prediction shows no fenced block and no expected output."""
    cells = load(path)["cells"]
    for i, cell in enumerate(cells[:-1]):
        text = source(cell)
        if cell["cell_type"] == "markdown" and ASKS.search(text):
            assert cells[i + 1]["cell_type"] == "code", f"{path.name} cell {i}: run cell next"
            assert "```" not in text and not re.search(r"预期输出|Expected output", text), (
                f"{path.name} cell {i}: the prompt answers itself")
            assert "predict" in cells[i + 1].get("metadata", {}).get("tags", [])

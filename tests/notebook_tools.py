"""Reading chapter notebooks for the tests: cells, documented outputs, solution blocks."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
# "预期输出 / Expected output" (either half is enough), then a fenced block
_EXPECTED = re.compile(r"(预期输出|Expected output)[^\n]*\n+```[^\n]*\n(.*?)```", re.S)


# Chapters that need the real WMT22 data, which is never downloaded during tests.
NEEDS_WMT22 = ("09_wmt22_case_study.ipynb", "10_bleu_and_people.ipynb")
# Chapters whose "预期输出" blocks stand BEFORE the code cell they document (predict, then
# run; CONVENTIONS.md §2): the block is compared with the next code cell's output.
EXPECTED_BEFORE = ("10_bleu_and_people.ipynb",)
WMT22_README = "the WMT22 test data lives in ../shared/data/wmt22 (see its README)"


def wmt22_unavailable() -> str | None:
    """Why the WMT22 chapters cannot run here, or None when the data is local or cached."""
    from bleu_lesson.datasets import DatasetNotFoundError, load_wmt22, load_wmt22_human

    try:
        for pair in ("zh-en", "en-zh"):
            load_wmt22(pair, download=False)
        load_wmt22_human("zh-en", download=False)  # chapter 10's human judgments
    except DatasetNotFoundError as exc:
        first = str(exc).splitlines()[0]
        return f"WMT22 data not available ({first}); {WMT22_README}"
    return None


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
    actual: str | None  # stored output text of the code cell before it


def documented_outputs(path: Path) -> list[Documented]:
    nb = load(path)
    if path.name in EXPECTED_BEFORE:
        return _documented_before(path.name, nb)
    found = []
    last_code = None
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code" and source(cell).strip():
            last_code = cell
        elif cell["cell_type"] == "markdown":
            for m in _EXPECTED.finditer(source(cell)):
                actual = output_text(last_code) if last_code is not None else None
                found.append(Documented(path.name, i, m.group(2), actual))
    return found


def _documented_before(name: str, nb: dict) -> list[Documented]:
    """Blocks that document the next code cell (``Documented.actual``: that cell's output)."""
    found = []
    cells = nb["cells"]
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        following = next((c for c in cells[i + 1:]
                          if c["cell_type"] == "code" and source(c).strip()), None)
        for m in _EXPECTED.finditer(source(cell)):
            actual = output_text(following) if following is not None else None
            found.append(Documented(name, i, m.group(2), actual))
    return found


def strip_solutions(text: str) -> str:
    """The cell's source with each solution block replaced by a stub at its indentation
    (what a student copy holds), so the result still parses."""
    out, inside = [], False
    for line in text.splitlines():
        if line.strip() == BEGIN:
            inside = True
            out.append(line[: len(line) - len(line.lstrip())] + "raise NotImplementedError")
        elif line.strip() == END:
            inside = False
        elif not inside:
            out.append(line)
    return "\n".join(out)

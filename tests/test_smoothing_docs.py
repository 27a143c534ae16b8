"""docs/smoothing.md reads the smoothing registry: its table is what
``bleu_lesson.core.smoothing.SMOOTHING`` says, cell by cell, so a method added to the registry
without updating the page fails here (``python tools/smoothing_table.py --write`` fixes it).

The page is parsed here on its own (Markdown rows split on ``|``), not through the script
that writes it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bleu_lesson.core.smoothing import SMOOTHING, SmoothingMethod

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "smoothing.md"
TOOL = ROOT / "tools" / "smoothing_table.py"


def page_rows(text: str) -> list[dict[str, str]]:
    """The rows of the table between the generated-table markers, by column position:
    method, family, default, orders, zeros, description.

    >>> page_rows("<!-- BEGIN x -->\\n| a | b | c | d | e | f |\\n|---|\\n"
    ...           "| `m` | nltk | — | 5 | z | d |\\n<!-- END x -->")[0]["orders"]
    '5'
    """
    start = text.index("<!-- BEGIN")
    body = text[start:text.index("<!-- END", start)].splitlines()[1:]
    keys = ("method", "family", "default", "orders", "zeros", "description")
    rows = []
    for line in body[2:]:  # after the header and the |---| line
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        assert len(cells) == len(keys), line
        rows.append(dict(zip(keys, cells)))
    return rows


def expected_default(m: SmoothingMethod) -> str:
    return "—" if m.default is None else f"{m.default:g}"


def test_the_page_lists_every_method_in_the_registry_order():
    rows = page_rows(PAGE.read_text(encoding="utf-8"))
    assert [r["method"] for r in rows] == [f"`{name}`" for name in SMOOTHING]


@pytest.mark.parametrize("name", list(SMOOTHING))
def test_each_row_says_what_the_registry_says(name):
    row = {r["method"].strip("`"): r for r in page_rows(PAGE.read_text(encoding="utf-8"))}[name]
    m = SMOOTHING[name]
    assert row["family"] == m.family
    assert row["default"] == expected_default(m)
    assert int(row["orders"]) == m.min_orders
    assert ("sacrebleu" in row["zeros"]) == (m.zeros == "zero")
    assert row["description"] == m.description


def test_known_values_by_hand():
    """What sacrebleu and NLTK document, independent of the registry: floor's epsilon 0.1,
    add-k's k 1, exp takes no value; NLTK's method5 averages with the 5-gram neighbour."""
    rows = {r["method"].strip("`"): r for r in page_rows(PAGE.read_text(encoding="utf-8"))}
    assert (rows["floor"]["default"], rows["add-k"]["default"], rows["exp"]["default"]) == \
        ("0.1", "1", "—")
    assert rows["method5"]["orders"] == "5" and rows["method1"]["family"] == "nltk"


def test_a_method_added_without_the_docs_is_caught(monkeypatch):
    """The same comparison, with one more registry entry: it must fail, and the script's
    --check must call the page stale (in a process that has the new entry)."""
    extra = SmoothingMethod("add-half", "sacrebleu", 0.5, 1, "zero", "k = 0.5")
    monkeypatch.setitem(SMOOTHING, "add-half", extra)
    rows = page_rows(PAGE.read_text(encoding="utf-8"))
    assert [r["method"] for r in rows] != [f"`{name}`" for name in SMOOTHING]
    code = ("import runpy, sys; from bleu_lesson.core import smoothing; "
            "from bleu_lesson.core.smoothing import SmoothingMethod as M; "
            "smoothing.SMOOTHING['add-half'] = "
            "M('add-half', 'sacrebleu', 0.5, 1, 'zero', 'k = 0.5'); "
            f"sys.argv = ['x', '--check']; runpy.run_path({str(TOOL)!r}, run_name='__main__')")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 1 and "stale" in proc.stderr, proc.stderr


def test_the_page_is_current():
    proc = subprocess.run([sys.executable, str(TOOL), "--check"], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr


def test_contributing_says_to_regenerate_the_page():
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("## Adding a smoothing method", 1)[1].split("\n## ", 1)[0]
    assert "tools/smoothing_table.py --write" in section and "docs/smoothing.md" in section

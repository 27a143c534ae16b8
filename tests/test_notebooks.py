"""The chapters' hygiene, and every documented "预期输出 / Expected output".

nbval (run by the same ``pytest``) re-executes each notebook and compares the outputs
with the stored ones; these tests check what nbval cannot: that the stored outputs exist
and come from one top-to-bottom run, that the markdown's documented outputs equal them,
and that a chapter follows the course's rhythm and uses the library's code.
"""

from __future__ import annotations

import ast
import re

import pytest
from notebook_tools import (
    BEGIN,
    END,
    ROOT,
    chapters,
    code_cells,
    documented_outputs,
    load,
    output_text,
    prose_numbers,
    solution_blocks,
    source,
    strip_solutions,
)

CHAPTERS = chapters()
IDS = [p.stem for p in CHAPTERS]
pytestmark = pytest.mark.skipif(not CHAPTERS, reason="no chapter notebooks yet")


def _library_names() -> set[str]:
    """Every function and class defined at the top of a bleu_lesson module."""
    names = set()
    for path in (ROOT / "bleu_lesson").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names |= {n.name for n in tree.body
                  if isinstance(n, ast.FunctionDef | ast.ClassDef) and not n.name.startswith("_")}
    return names


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_executed_top_to_bottom_in_one_kernel(path):
    cells = code_cells(load(path))
    counts = [c.get("execution_count") for c in cells]
    assert counts == list(range(1, len(cells) + 1)), (
        f"{path.name}: execution counts {counts} are not 1..N: run `make notebooks`")


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_no_merge_tool_leftovers(path):
    """A notebook merge tool parks unresolved conflicts in cell metadata (nbdime-conflicts);
    seven chapters carried 135 such blocks unnoticed, so none may be stored."""
    nb = load(path)
    for i, cell in enumerate(nb["cells"]):
        assert not any(k.startswith("nbdime") for k in cell.get("metadata", {})), (
            f"{path.name} cell {i}: nbdime merge metadata left in the notebook")
    assert not any(k.startswith("nbdime") for k in nb.get("metadata", {}))


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_no_errors_or_warnings_stored(path):
    for i, cell in enumerate(code_cells(load(path))):
        for out in cell.get("outputs", []):
            assert out["output_type"] != "error", f"{path.name} code cell {i}: stored error"
            assert not (out["output_type"] == "stream" and out.get("name") == "stderr"), (
                f"{path.name} code cell {i}: stderr output (a warning?): "
                f"{''.join(out['text'])[:200]}")


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_cells_that_print_have_outputs(path):
    """A notebook with outputs stripped would pass nbval while comparing nothing."""
    printing = re.compile(r"\b(print|show_source|show_source_after|check|progress|display)\(")
    for i, cell in enumerate(code_cells(load(path))):
        if printing.search(strip_solutions(source(cell))):
            assert cell.get("outputs"), f"{path.name} code cell {i} prints but stores nothing"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_kernel_is_python3(path):
    assert load(path)["metadata"]["kernelspec"]["name"] == "python3"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_solution_markers_balanced(path):
    for i, cell in enumerate(load(path)["cells"]):
        if cell["cell_type"] != "code":
            assert not any(line.strip() in (BEGIN, END) for line in source(cell).splitlines()), \
                f"{path.name} cell {i}: marker in markdown"
            continue
        try:
            solution_blocks(source(cell))  # THE parser: nested, unopened, unclosed raise
        except ValueError as exc:
            pytest.fail(f"{path.name} cell {i}: {exc}")


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_no_library_code_redefined(path):
    """A chapter shows and runs the library's code; it never carries its own copy."""
    library = _library_names()
    for i, cell in enumerate(code_cells(load(path))):
        code = strip_solutions(source(cell))
        try:
            tree = ast.parse("\n".join(line for line in code.splitlines()
                                       if not line.lstrip().startswith(("%", "!"))))
        except SyntaxError as exc:  # pragma: no cover - a broken cell fails nbval anyway
            pytest.fail(f"{path.name} code cell {i}: {exc}")
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                assert node.name not in library, (
                    f"{path.name} code cell {i} defines {node.name!r}, which bleu_lesson has: "
                    "use bleu_lesson's (show it with bleu_lesson.show_source)")


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_documented_outputs_match_stored_outputs(path):
    """Predict, then run: each block follows the hand calculation, folded in ``<details>``
    after the code cell it documents (or, open, before it), and equals that cell's output."""
    docs = documented_outputs(path)
    assert docs, f"{path.name}: no '预期输出 / Expected output' block to predict"
    for doc in docs:
        assert doc.actual is not None, f"{path.name} cell {doc.index}: no code cell to document"
        assert re.search(r"\d", doc.prose) and len(doc.prose.strip()) > 40, (
            f"{path.name} cell {doc.index}: a documented output needs the hand calculation "
            "before it (predict first, then run)")
        assert doc.expected.rstrip() == doc.actual.rstrip(), (
            f"{path.name} markdown cell {doc.index}: documented output differs from what "
            f"the next code cell prints.\n--- documented\n{doc.expected}\n--- printed\n"
            f"{doc.actual}")


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_no_output_shown_twice(path):
    """An open documented block is a prediction, never a copy of the output just above it
    (a folded one is, on purpose: it is opened after the run)."""
    nb = load(path)
    for doc in documented_outputs(path):
        if doc.folded:
            continue
        before = [c for c in nb["cells"][:doc.index] if c["cell_type"] == "code"]
        if before and output_text(before[-1]).strip():
            assert output_text(before[-1]).rstrip() != doc.expected.rstrip(), (
                f"{path.name} cell {doc.index} repeats the output of the cell above it")


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_prose_numbers_are_printed_by_the_code(path):
    """A number a worked example states (3+ decimals) is one the chapter's code printed."""
    printed = "\n".join(output_text(c) for c in code_cells(load(path)))
    missing = [(i, x) for i, x in prose_numbers(path) if x not in printed]
    if path.name.startswith("00_") and missing:
        # chapter 00 quotes the seed text's wrong numbers in order to debunk them: those
        # must be in the seed text itself (../shared/seed, as CI has it)
        seed = sorted((ROOT.parent / "shared" / "seed").glob("*.txt"))
        if not seed:
            pytest.skip("the seed text (../shared/seed) is not here to check the quotes")
        quoted = "\n".join(p.read_text(encoding="utf-8") for p in seed)
        missing = [(i, x) for i, x in missing if x not in quoted]
    assert not missing, (f"{path.name}: numbers in the prose that no code cell prints "
                         f"(markdown cell, number): {missing}")


RHYTHM = ["学习目标", "核心思想", "动手实验", "练习", "小结"]


@pytest.mark.parametrize("path", [p for p in CHAPTERS if p.name[:2] != "00"],
                         ids=[p.stem for p in CHAPTERS if p.name[:2] != "00"])
def test_chapter_rhythm(path):
    nb = load(path)
    markdown = "\n".join(source(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    code = "\n".join(source(c) for c in code_cells(nb))
    headings = [line for line in markdown.splitlines() if line.startswith("#")]
    for part in RHYTHM:
        assert any(part in h for h in headings), f"{path.name}: no heading with {part!r}"
    assert re.search(r"^# ", markdown, re.M), f"{path.name}: no title"
    assert re.search(r"\bshow_source(_after)?\(", code), f"{path.name}: shows no library code"
    assert "Explorer(" in code, f"{path.name}: has no explorer widget"
    assert re.search(r"\bcheck\(", code), f"{path.name}: has no exercise check"
    assert BEGIN in code, f"{path.name}: exercise without a solution block"
    later = [p for p in CHAPTERS if p.name > path.name]
    if later:
        assert later[0].name in markdown, f"{path.name}: no link to {later[0].name}"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_widget_cells_are_tagged(path):
    """nbval skips widget output; tests/test_widgets.py checks each explorer's default view,
    so no plain cell repeats it just before the widget."""
    cells = code_cells(load(path))
    for i, cell in enumerate(cells):
        if re.search(r"\w+Explorer\(", strip_solutions(source(cell))):
            tags = cell.get("metadata", {}).get("tags", [])
            assert "nbval-ignore-output" in tags, (
                f"{path.name} code cell {i}: tag widget cells 'nbval-ignore-output'")


def test_headings_bilingual():
    for path in CHAPTERS:
        nb = load(path)
        for cell in nb["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            for line in source(cell).splitlines():
                if line.startswith("## "):
                    assert re.search(r"\([A-Za-z][^)]*\)", line), (
                        f"{path.name}: heading {line!r} needs its English term in parentheses")

"""docs/self-study.md's core path: each chapter's time without the sections marked 选读
(optional), measured at tools/chapter_load.py's rates, must be the "核心" column; the core
total is the sum of the unrounded model minutes (rounded once), and it stays within 8 hours."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import chapter_load  # noqa: E402

ROW = re.compile(r"^\| \d+ \| \[(\d\d) [^]]*\]\([^)]*\) \| \d+ 分钟 \| (\d+) 分钟 \|", re.M)


def core_parts(cells: list[dict]) -> tuple[int, int]:
    """(prose units, code cells) outside the sections whose heading says 选读."""
    load = chapter_load.count(cells, "99", "x.ipynb", [], 0, [], core=True)
    return load.prose, load.code_cells


def core_minutes() -> dict[str, int]:
    return {load.chapter: load.rounded for load in chapter_load.measure(core=True)}


def _guide() -> dict[str, int]:
    text = (ROOT / "docs" / "self-study.md").read_text(encoding="utf-8")
    return {ch: int(m) for ch, m in ROW.findall(text)}


def test_core_parts_skip_an_optional_section_until_the_next_heading():
    first = "## 1. 核心\n\n一二三\n### 1.1 细节【选读】\n四五六"
    cells = [{"cell_type": "markdown", "source": first},
             {"cell_type": "code", "source": "x = 1"},
             {"cell_type": "markdown", "source": "### 1.2 回来\n七八"},
             {"cell_type": "code", "source": "y = 2"}]
    # kept: "1." heading (核心 = 2) + 一二三 (3) + "1.2 回来" (2) + 七八 (2); one code cell
    assert core_parts(cells) == (9, 1)


def _md(text: str) -> dict:
    return {"cell_type": "markdown", "source": text}


def _code(text: str) -> dict:
    return {"cell_type": "code", "source": text}


def test_exercises_quiz_and_explorers_in_an_optional_section_leave_the_core():
    cells = [_md("## 7. 实验"), _code("BleuExplorer()"),
             _md("## 8. 练习\n### 练习 9.1"), _code("### BEGIN SOLUTION\n### END SOLUTION"),
             _code('check("9.1", f)'),
             _md("### 练习 9.2【选读】"), _code("### BEGIN SOLUTION\n### END SOLUTION"),
             _code('check("9.2", g)'), _code("ToolsExplorer()"),
             # solved in the core, checked in an optional part: still a core exercise
             _md("## 9. 回到核心"), _code("### BEGIN SOLUTION\n### END SOLUTION"),
             _md("## 10. 附录【选读】"), _code('check("9.3", h)'),
             # checked nowhere: counted (the measurement is an upper bound)
             _md("## 11. 小测验【选读】"), _code('quiz.Quiz("99")')]
    ids, explorers = ["9.1", "9.2", "9.3", "9.4"], ["BleuExplorer", "ToolsExplorer"]
    whole = chapter_load.count(cells, "99", "x.ipynb", ids, 3, explorers)
    core = chapter_load.count(cells, "99", "x.ipynb", ids, 3, explorers, core=True)
    assert (whole.exercises, whole.questions, whole.explorers) == (4, 3, 2)
    assert (core.exercises, core.questions, core.explorers) == (3, 0, 1)
    # left out: 5 code cells (9.2's two, ToolsExplorer, 9.3's check, the quiz)
    assert (whole.code_cells, core.code_cells) == (9, 4)
    # 10 minutes per exercise, 1 per question, 5 per explorer, 1 per code cell
    assert whole.minutes - core.minutes == pytest.approx(10 + 3 + 5 + 5 + (
        whole.prose - core.prose) / chapter_load.CHARS_PER_MINUTE)


def test_every_exercise_quiz_and_explorer_is_found_in_its_notebook():
    """The location rules see every chapter's material (none falls back to 'counted')."""
    for ch in chapter_load.registry().values():
        nb = json.loads((ROOT / "notebooks" / ch.notebook).read_text(encoding="utf-8"))
        code = [chapter_load._text(c) for c in nb["cells"] if c["cell_type"] == "code"]
        for ex in ch.exercises:
            assert any(ex.id in chapter_load._CHECK.findall(t) for t in code), ex.id
        if ch.questions:
            assert any(chapter_load._QUIZ.search(t) for t in code), ch.id
        for name in ch.explorers:
            assert any(re.search(rf"\b{name}\(", t) for t in code), (ch.id, name)


def test_the_total_sums_unrounded_minutes():
    # three chapters of 62.4 model minutes each (8112 prose units = 62.4 min at 130 a minute):
    # the rows say 60 each (180), the honest total is 187.2, which rounds to 185
    loads = [chapter_load.Load(f"0{i}", "x.ipynb", 8112, 0, 0, 0) for i in range(3)]
    assert [x.rounded for x in loads] == [60, 60, 60]
    assert chapter_load.total_minutes(loads) == pytest.approx(187.2)
    assert chapter_load.round5(chapter_load.total_minutes(loads)) == 185


def test_core_column_is_the_measurement():
    guide, measured = _guide(), core_minutes()
    assert sorted(guide) == sorted(measured)
    assert guide == measured, f"update the 核心 column of docs/self-study.md: {measured}"
    text = (ROOT / "docs" / "self-study.md").read_text(encoding="utf-8")
    total = int(re.search(r"核心路线合计约 (\d+) 分钟", text).group(1))
    honest = chapter_load.total_minutes(chapter_load.measure(core=True))
    assert total == chapter_load.round5(honest), f"core total is {honest:.1f} min"


def test_core_path_is_at_most_eight_hours():
    """The unrounded model minutes of the core path, summed: at most 480."""
    honest = chapter_load.total_minutes(chapter_load.measure(core=True))
    assert honest <= 480, f"the core path is {honest:.1f} model minutes ({honest / 60:.2f} h)"


def _instructor_plan() -> str:
    return (ROOT / "docs" / "instructor.md").read_text(encoding="utf-8")


def test_instructor_chapter_minutes_are_the_core_figures():
    rows = re.findall(r"^\| (\d\d) \| \[\d\d_\w+\]\([^)]*\) \| (\d+) \|", _instructor_plan(), re.M)
    assert {ch: int(m) for ch, m in rows} == core_minutes()
    total = int(re.search(r"合计约 (\d+) 分钟（核心部分", _instructor_plan()).group(1))
    assert total == chapter_load.round5(chapter_load.total_minutes(
        chapter_load.measure(core=True)))


def test_instructor_sessions_are_at_most_90_minutes():
    """Each session's first figure is its chapters' core minutes; every chapter is taught once."""
    plan = _instructor_plan().split("| 次 | 内容 | 分钟 |", 1)[1].split("\n\n", 1)[0]
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \| (?:约 )?([\d +]+) \|$", plan, re.M)
    assert [int(n) for n, _, _ in rows] == list(range(1, len(rows) + 1)) and len(rows) >= 5
    core, taught = core_minutes(), []
    for n, content, minutes in rows:
        parts = [int(x) for x in minutes.split("+")]
        assert sum(parts) <= 90, f"session {n}: {minutes}"
        first = re.match(r"(\d\d)(?:–(\d\d))?", content.strip())
        assert first, f"session {n} should start with its chapters: {content}"
        lo, hi = int(first.group(1)), int(first.group(2) or first.group(1))
        chapters = [f"{c:02d}" for c in range(lo, hi + 1)]
        taught += chapters
        assert parts[0] == sum(core[c] for c in chapters), f"session {n}: {minutes}"
    assert taught == sorted(core)


def _names(source: str) -> tuple[set[str], set[str]]:
    """(names a code cell binds, names it reads), IPython magics left out."""
    import ast

    code = "\n".join(line for line in source.splitlines()
                     if not line.lstrip().startswith(("%", "!")))
    tree = ast.parse(code)
    bound, read = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
    return bound, read


def core_needs(cells: list[dict]) -> set[str]:
    """Names that a core code cell reads and only an optional code cell before it binds."""
    core_bound: set[str] = set()
    optional_bound: set[str] = set()
    needed: set[str] = set()
    for cell, (kind, core_text) in zip(cells, chapter_load.core_view(cells), strict=True):
        if kind != "code" or not chapter_load._text(cell).strip():
            continue
        bound, read = _names(chapter_load._text(cell))
        if core_text.strip():
            needed |= (read & optional_bound) - core_bound - bound
            core_bound |= bound
        else:
            optional_bound |= bound
    return needed


def test_no_core_cell_needs_an_optional_cell():
    """A learner who skips every 【选读】 section can run the core cells: no core code cell
    reads a name that only an optional code cell before it binds."""
    for path in sorted((ROOT / "notebooks").glob("[01][0-9]_*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        assert not core_needs(cells), f"{path.name}: core cells need {sorted(core_needs(cells))}"


def test_the_optional_cell_check_catches_a_dependency():
    cells = [_md("## 1. A【选读】"), _code("x = 1\ny = 2"), _md("## 2. B"), _code("y = 3"),
             _code("print(x, y)")]
    assert core_needs(cells) == {"x"}          # y is bound again in the core
    assert core_needs([_md("## 1. A"), *cells[1:]]) == set()

"""docs/self-study.md's core path: each chapter's time without the sections marked 选读
(optional), measured at tools/chapter_load.py's rates, must be the "核心" column, and the
core total its stated sum."""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import chapter_load  # noqa: E402

ROW = re.compile(r"^\| \d+ \| \[(\d\d) [^]]*\]\([^)]*\) \| \d+ 分钟 \| (\d+) 分钟 \|", re.M)
HEADING = re.compile(r"^(#+) ")
OPTIONAL = "选读"


def core_parts(cells: list[dict]) -> tuple[int, int]:
    """(prose units, code cells) outside the sections whose heading says 选读; such a
    section ends at the next heading of the same or a higher level."""
    prose = code = 0
    skip_level = None          # the level of the optional section we are in, if any
    for cell in cells:
        src = cell.get("source", "")
        text = "".join(src) if isinstance(src, list) else src
        if cell["cell_type"] == "code":
            code += skip_level is None and bool(text.strip())
            continue
        kept = []
        for line in chapter_load._FENCE.sub("", text).split("\n"):
            m = HEADING.match(line)
            if m:
                level = len(m.group(1))
                if skip_level is not None and level <= skip_level:
                    skip_level = None
                if skip_level is None and OPTIONAL in line:
                    skip_level = level
            if skip_level is None:
                kept.append(line)
        prose += chapter_load.prose_units("\n".join(kept))
    return prose, code


def core_minutes() -> dict[str, int]:
    out = {}
    for load in chapter_load.measure():
        nb = json.loads((ROOT / "notebooks" / load.notebook).read_text(encoding="utf-8"))
        prose, code = core_parts(nb["cells"])
        out[load.chapter] = dataclasses.replace(load, prose=prose, code_cells=code).rounded
    return out


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


def test_core_column_is_the_measurement():
    guide, measured = _guide(), core_minutes()
    assert sorted(guide) == sorted(measured)
    assert guide == measured, f"update the 核心 column of docs/self-study.md: {measured}"
    text = (ROOT / "docs" / "self-study.md").read_text(encoding="utf-8")
    total = int(re.search(r"核心路线合计约 (\d+) 分钟", text).group(1))
    assert total == sum(guide.values())


def test_instructor_sessions_are_at_most_90_minutes():
    text = (ROOT / "docs" / "instructor.md").read_text(encoding="utf-8")
    plan = text.split("| 次 | 内容 | 分钟 |", 1)[1].split("\n\n", 1)[0]
    rows = re.findall(r"^\| (\d+) \| [^|]+ \| (?:约 )?([\d +]+) \|$", plan, re.M)
    assert [int(n) for n, _ in rows] == list(range(1, len(rows) + 1)) and len(rows) >= 5
    for n, minutes in rows:
        assert sum(int(x) for x in minutes.split("+")) <= 90, f"session {n}: {minutes}"

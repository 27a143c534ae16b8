"""How much each chapter asks of a self-study reader: measured length, and the minutes it implies.

    python tools/chapter_load.py            # one row per chapter, and the total
    python tools/chapter_load.py --markdown # the same as a Markdown table
    python tools/chapter_load.py --core     # the core path: sections marked 选读 left out

Measured in each notebook: the characters of prose (Chinese characters, plus Latin words
counted as one each) in its Markdown cells, outside code fences; its code cells; the
exercises and quiz questions of its chapter module (the registry). The minutes are a model
of those counts, with the rates below; ``docs/self-study.md`` takes its time column from
this script (rounded to 5 minutes), so a chapter that grows shows up there. The total is
the sum of the unrounded model minutes, rounded once (summing the rounded rows would hide up to
2.5 minutes a chapter).

The rates: study reading of technical Chinese at 130 characters a minute (about half the
~255 characters a minute of reading aloud that Trauzettel-Klosinski et al. 2012 measured
for Chinese, since a learner stops to follow formulas and hand calculations), one minute per code
cell (read, run, look at the output), ten minutes per exercise, five minutes per explorer
(each chapter's "experiment" section asks for a few tries with it), one minute per quiz
question.

The core path (``--core``, and the 核心 column of ``docs/self-study.md``) leaves out every
section whose heading says 选读 (optional): its prose, its code cells, and the exercises,
quiz questions and explorers located there. An exercise is located at the cell that calls
``check("N.M", ...)`` and at the cell holding its ``BEGIN SOLUTION`` (the one before that
check); it leaves the core only when all of these lie in optional sections. One that no
cell checks stays in the core (an upper bound). The quiz is where ``quiz.Quiz("NN")`` is
made, an explorer where it is called.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bleu_lesson.teaching.chapters import registry  # noqa: E402

CHARS_PER_MINUTE = 130
MINUTES_PER_CODE_CELL = 1.0
MINUTES_PER_EXERCISE = 10.0
MINUTES_PER_EXPLORER = 5.0
MINUTES_PER_QUESTION = 1.0

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?")
_FENCE = re.compile(r"```.*?```", re.S)
_HEADING = re.compile(r"^(#+) ")
_CHECK = re.compile(r"""\bcheck\(\s*["'](\d+\.\d+)["']""")
_QUIZ = re.compile(r"""\bquiz\.(?:Quiz|show)\(""")
OPTIONAL = "选读"


@dataclass(frozen=True)
class Load:
    chapter: str
    notebook: str
    prose: int        # Chinese characters + Latin words of the Markdown cells
    code_cells: int
    exercises: int
    questions: int
    explorers: int = 0

    @property
    def minutes(self) -> float:
        return (self.prose / CHARS_PER_MINUTE + self.code_cells * MINUTES_PER_CODE_CELL
                + self.exercises * MINUTES_PER_EXERCISE + self.questions * MINUTES_PER_QUESTION
                + self.explorers * MINUTES_PER_EXPLORER)

    @property
    def rounded(self) -> int:
        """Minutes to the nearest 5 (at least 5)."""
        return round5(self.minutes)


def round5(minutes: float) -> int:
    """Minutes to the nearest 5 (at least 5).

    >>> round5(62.4), round5(491.7), round5(1.0)
    (60, 490, 5)
    """
    return max(5, int(5 * round(minutes / 5)))


def total_minutes(loads: list[Load]) -> float:
    """The model minutes of all chapters: the sum of the unrounded figures.

    total = sum(minutes of each chapter), not the sum of the rows rounded to 5

    >>> total_minutes([Load("01", "a", 130, 2, 0, 0), Load("02", "b", 260, 0, 0, 0)])
    5.0
    """
    return sum(x.minutes for x in loads)


def prose_units(text: str) -> int:
    """Chinese characters plus Latin words, code fences left out.

    >>> prose_units("BLEU 分数 (BLEU score)\\n```\\nprint(1)\\n```")
    5
    """
    text = _FENCE.sub("", text)
    return len(_CJK.findall(text)) + len(_WORD.findall(text))


def _text(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def core_view(cells: list[dict]) -> list[tuple[str, str]]:
    """Each cell as (cell type, its text on the core path): the lines of a Markdown cell
    outside sections whose heading says 选读, code fences left out; a code cell's source, or
    "" when it sits in such a section. An optional section ends at the next heading of the
    same or a higher level.

    >>> core_view([{"cell_type": "markdown", "source": "## 1. A\\n一\\n### 1.1 B【选读】\\n二"},
    ...            {"cell_type": "code", "source": "x = 1"},
    ...            {"cell_type": "markdown", "source": "## 2. C"}])
    [('markdown', '## 1. A\\n一'), ('code', ''), ('markdown', '## 2. C')]
    """
    out = []
    skip_level = None          # the level of the optional section we are in, if any
    for cell in cells:
        text = _text(cell)
        if cell["cell_type"] != "markdown":
            out.append((cell["cell_type"], text if skip_level is None else ""))
            continue
        kept = []
        for line in _FENCE.sub("", text).split("\n"):
            m = _HEADING.match(line)
            if m:
                level = len(m.group(1))
                if skip_level is not None and level <= skip_level:
                    skip_level = None
                if skip_level is None and OPTIONAL in line:
                    skip_level = level
            if skip_level is None:
                kept.append(line)
        out.append(("markdown", "\n".join(kept)))
    return out


def count(cells: list[dict], chapter: str, notebook: str, exercise_ids: list[str],
          questions: int, explorers: list[str], core: bool = False) -> Load:
    """The load of one notebook: the whole of it, or (``core=True``) its core path only."""
    if not core:
        prose = sum(prose_units(_text(c)) for c in cells if c["cell_type"] == "markdown")
        code = sum(1 for c in cells if c["cell_type"] == "code" and _text(c).strip())
        return Load(chapter, notebook, prose, code, len(exercise_ids), questions,
                    len(explorers))
    view = core_view(cells)
    prose = sum(prose_units(t) for kind, t in view if kind == "markdown")
    code = sum(1 for kind, t in view if kind == "code" and t.strip())
    # where each exercise is: its check cells, and the solution cells before each of them
    places: dict[str, list[bool]] = {}
    pending: list[bool] = []   # solution cells since the last check cell: in the core?
    quiz_places: list[bool] = []
    explorer_places: dict[str, list[bool]] = {name: [] for name in explorers}
    for cell, (kind, core_text) in zip(cells, view, strict=True):
        if kind != "code":
            continue
        text, in_core = _text(cell), bool(core_text.strip())
        if "BEGIN SOLUTION" in text:
            pending.append(in_core)
        ids = _CHECK.findall(text)
        for ex_id in ids:
            places.setdefault(ex_id, []).extend([in_core, *pending])
        if ids:
            pending = []
        if _QUIZ.search(text):
            quiz_places.append(in_core)
        for name in explorers:
            if re.search(rf"\b{re.escape(name)}\(", text):
                explorer_places[name].append(in_core)

    def kept(where: list[bool]) -> bool:   # found nowhere: counted (an upper bound)
        return not where or any(where)

    return Load(chapter, notebook, prose, code,
                sum(kept(places.get(ex_id, [])) for ex_id in exercise_ids),
                questions if kept(quiz_places) else 0,
                sum(kept(w) for w in explorer_places.values()))


def measure(notebook_dir: Path = ROOT / "notebooks", core: bool = False) -> list[Load]:
    """Every chapter's load: the whole notebook, or (``core=True``) its core path."""
    loads = []
    for ch in registry().values():
        nb = json.loads((notebook_dir / ch.notebook).read_text(encoding="utf-8"))
        loads.append(count(nb["cells"], ch.id, ch.notebook, [ex.id for ex in ch.exercises],
                           len(ch.questions), list(ch.explorers), core=core))
    return loads


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--core", action="store_true",
                        help="the core path only: sections marked 选读 left out")
    args = parser.parse_args(argv)
    loads = measure(core=args.core)
    if args.markdown:
        print("| 章 | 正文字数 | 代码单元格 | 练习 | 测验题 | 分钟 |")
        print("|---|---|---|---|---|---|")
        for x in loads:
            print(f"| {x.chapter} | {x.prose} | {x.code_cells} | {x.exercises} | "
                  f"{x.questions} | {x.rounded} |")
    else:
        print(f"{'chapter':8} {'prose':>6} {'code':>5} {'ex':>3} {'quiz':>4} {'model':>6} "
              f"{'minutes':>7}")
        for x in loads:
            print(f"{x.chapter:8} {x.prose:6d} {x.code_cells:5d} {x.exercises:3d} "
                  f"{x.questions:4d} {x.minutes:6.1f} {x.rounded:7d}")
    total = total_minutes(loads)
    print(f"total: {round5(total)} minutes (model {total:.1f} = {total / 60:.2f} h; "
          f"the sum of the unrounded rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

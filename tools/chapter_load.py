"""How much each chapter asks of a self-study reader: measured length, and the minutes it implies.

    python tools/chapter_load.py            # one row per chapter, and the total
    python tools/chapter_load.py --markdown # the same as a Markdown table

Measured in each notebook: the characters of prose (Chinese characters, plus Latin words
counted as one each) in its Markdown cells, outside code fences; its code cells; the
exercises and quiz questions of its chapter module (the registry). The minutes are a model
of those counts, with the rates below; ``docs/self-study.md`` takes its time column from
this script (rounded to 5 minutes), so a chapter that grows shows up there.

The rates: study reading of technical Chinese at 130 characters a minute (about half the
~255 characters a minute of reading aloud that Trauzettel-Klosinski et al. 2012 measured
for Chinese, since a learner stops to follow formulas and hand calculations), one minute per code
cell (read, run, look at the output), ten minutes per exercise, five minutes per explorer
(each chapter's "experiment" section asks for a few tries with it), one minute per quiz
question.
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
        return max(5, int(5 * round(self.minutes / 5)))


def prose_units(text: str) -> int:
    """Chinese characters plus Latin words, code fences left out.

    >>> prose_units("BLEU 分数 (BLEU score)\\n```\\nprint(1)\\n```")
    5
    """
    text = _FENCE.sub("", text)
    return len(_CJK.findall(text)) + len(_WORD.findall(text))


def measure(notebook_dir: Path = ROOT / "notebooks") -> list[Load]:
    loads = []
    for ch in registry().values():
        nb = json.loads((notebook_dir / ch.notebook).read_text(encoding="utf-8"))
        cells = nb["cells"]

        def text(cell: dict) -> str:
            src = cell.get("source", "")
            return "".join(src) if isinstance(src, list) else src

        prose = sum(prose_units(text(c)) for c in cells if c["cell_type"] == "markdown")
        code = sum(1 for c in cells if c["cell_type"] == "code" and text(c).strip())
        loads.append(Load(ch.id, ch.notebook, prose, code, len(ch.exercises),
                          len(ch.questions), len(ch.explorers)))
    return loads


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args(argv)
    loads = measure()
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
    total = sum(x.rounded for x in loads)
    print(f"total: {total} minutes ({total / 60:.1f} h)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

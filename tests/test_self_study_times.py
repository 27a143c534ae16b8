"""docs/self-study.md's time per chapter comes from the measurement that
``tools/chapter_load.py`` prints (each chapter's length, at stated rates), so a chapter that
grows or shrinks a lot shows up as a failing test until the guide is updated."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import chapter_load  # noqa: E402

ROW = re.compile(r"^\| \d+ \| \[(\d\d) [^]]*\]\([^)]*\) \| (\d+) 分钟 \|", re.M)


def _guide() -> dict[str, int]:
    return {ch: int(m) for ch, m in ROW.findall(
        (ROOT / "docs" / "self-study.md").read_text(encoding="utf-8"))}


def test_every_chapter_has_a_time_within_the_measurement():
    """Within 5 minutes or 10 % of the model (prose edits elsewhere may move it a little)."""
    measured = {x.chapter: x.minutes for x in chapter_load.measure()}
    guide = _guide()
    assert sorted(guide) == sorted(measured)
    off = {ch: (guide[ch], round(m, 1)) for ch, m in measured.items()
           if abs(guide[ch] - m) > max(5.0, 0.1 * m)}
    assert not off, f"update docs/self-study.md from tools/chapter_load.py: {off}"


def test_the_total_is_the_unrounded_sum():
    """The stated total is the model minutes of all chapters summed, then rounded once
    (within 10 minutes, as prose edits elsewhere may move it a little)."""
    text = (ROOT / "docs" / "self-study.md").read_text(encoding="utf-8")
    total = int(re.search(r"合计约 (\d+) 分钟", text).group(1))
    honest = chapter_load.total_minutes(chapter_load.measure())
    assert abs(total - honest) <= 10, f"the whole course is {honest:.1f} model minutes"


def test_prose_units_by_hand():
    # 4 Chinese characters + 3 Latin words; the fenced code is not prose
    assert chapter_load.prose_units("计算 BLEU 分数 (the score)\n```\nx = 1\n```") == 7

"""Chapter 10's τ is named as the glossary fixes it, in the explorer and in the guides.

``docs/glossary.md`` (row 相关系数) names the statistic ``kendall_tau`` computes by default
"τ = (C − D)/(C + D)（平局不计…）" and keeps "Kendall τ_b" for the textbook one. The
explorer and the guides used to call the first one plain "Kendall τ". Plot text stays ASCII.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
GUIDES = ["docs/instructor.md", "docs/self-study.md", "README.md"]
BARE_KENDALL = re.compile(r"Kendall (τ|tau)(?!_b|\s*b\b)")


def _glossary_tau() -> str:
    row = next(line for line in GLOSSARY.splitlines() if line.startswith("| 相关系数 |"))
    return re.search(r"τ = \(C − D\)/\(C \+ D\)", row).group(0)


def test_the_glossary_names_both_statistics():
    row = next(line for line in GLOSSARY.splitlines() if line.startswith("| 相关系数 |"))
    assert "τ = (C − D)/(C + D)" in row and "Kendall τ_b" in row


def test_the_explorer_uses_the_glossary_name():
    widgets = pytest.importorskip("bleu_lesson.teaching.widgets")
    tables = {("BLEU", "A"): {"a": 30.0, "b": 25.0, "c": 20.0, "d": 28.0}}
    human = {"a": 0.1, "b": 0.0, "c": -0.2, "d": -0.1}
    html = widgets.render_agreement(tables, human, plot=True)
    # C = 5, D = 1 (only b/d are ranked the other way): (5 - 1) / (5 + 1)
    assert f"{_glossary_tau()} = 0.667" in html
    assert not BARE_KENDALL.search(html), BARE_KENDALL.search(html).group(0)
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", html[html.index("<svg"):])
    # the authored text: axis labels and point labels (matplotlib's tick numbers use its
    # Unicode minus, U+2212, a glyph every font has: not text anyone wrote)
    words = [t for t in texts if not re.fullmatch(r"[−\-]?\d+(\.\d+)?", t)]
    assert "human z-score (WMT22 DA)" in words
    assert all(t.isascii() for t in words), [t for t in words if not t.isascii()]


@pytest.mark.parametrize("name", GUIDES)
def test_the_guides_do_not_call_it_plain_kendall_tau(name):
    text = (ROOT / name).read_text(encoding="utf-8")
    found = [m.group(0) for m in BARE_KENDALL.finditer(text)]
    assert not found, f"{name}: {found} (the glossary says τ = (C − D)/(C + D) or Kendall τ_b)"

"""One term per idea: the forbidden variants listed in docs/glossary.md appear nowhere in the
chapters' Markdown or in the quiz and exercise texts, and each chapter's "next chapter" link
says the next chapter's title."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from notebook_tools import chapters, load, source

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "docs" / "glossary.md"
HEADING = "## 统一用语 (One term per idea)"
TEXT_MODULES = [ROOT / "bleu_lesson" / "teaching" / "quiz.py",
                ROOT / "bleu_lesson" / "teaching" / "exercises.py",
                *sorted((ROOT / "bleu_lesson" / "teaching" / "chapters").glob("ch*.py"))]


def term_table(text: str) -> list[tuple[str, list[str]]]:
    """``(preferred, [forbidden, ...])`` from the table under the 统一用语 heading.

    >>> term_table("## 统一用语 (One term per idea)\\n\\n| a | b | c |\\n|---|---|---|\\n"
    ...            "| 参考流 | `一套参考`、`参考套` | why |\\n")
    [('参考流', ['一套参考', '参考套'])]
    """
    if HEADING not in text:
        raise ValueError(f"the glossary has no section {HEADING!r}")
    rows, started = [], False
    for line in text.split(HEADING, 1)[1].splitlines():
        if line.strip().startswith("|"):
            started = True
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) != 3:
                raise ValueError(f"a term row needs 3 cells, got {len(cells)}: {line}")
            rows.append((cells[0], re.findall(r"`([^`]+)`", cells[1])))
        elif started and line.strip():
            break
    return rows[2:] if rows and not rows[1][1] and set(rows[1][0]) <= set("-: ") else rows[1:]


TERMS = term_table(GLOSSARY.read_text(encoding="utf-8"))
CHAPTERS = chapters()


def registry_texts() -> dict[str, str]:
    """What the learner reads of each chapter module: its title, its exercises' titles,
    hints and expectations, and its quiz questions with every choice and explanation."""
    from bleu_lesson.teaching.chapters import registry

    out = {}
    for chapter_id, info in registry().items():
        parts = [info.title]
        for ex in info.exercises:
            parts += [ex.title, ex.hint, *(str(v) for v in ex.extra.values())]
        for q in info.questions:
            parts.append(q.prompt)
            parts += [f"{c.text}\n{c.explanation}" for c in q.choices]
        out[f"registry chapter {chapter_id}"] = "\n".join(parts)
    return out


def chapter_markdown(path: Path) -> str:
    return "\n".join(source(c) for c in load(path)["cells"] if c["cell_type"] == "markdown")


def unquote(text: str, variant: str) -> str:
    """``text`` without the quoted mentions of ``variant`` (a chapter may say which word it
    does not use, in quotation marks, when it explains its choice).

    >>> unquote('不用"n 元组"，用 n 元语法', "n 元组")
    '不用，用 n 元语法'
    """
    for left, right in (('"', '"'), ("“", "”")):
        text = text.replace(left + variant + right, "")
    return text


def test_term_table_is_there():
    assert len(TERMS) >= 5
    for preferred, forbidden in TERMS:
        assert preferred and forbidden, f"{preferred!r}: no forbidden variants listed"
        assert not any(preferred in variant for variant in forbidden if variant != preferred)


@pytest.mark.parametrize(("preferred", "forbidden"), TERMS, ids=[t[0] for t in TERMS])
def test_one_term_per_idea(preferred, forbidden):
    texts = {p.name: chapter_markdown(p) for p in CHAPTERS}
    texts.update({p.name: p.read_text(encoding="utf-8") for p in TEXT_MODULES})
    texts.update(registry_texts())
    found = [f"{name}: {variant!r}" for name, text in texts.items() for variant in forbidden
             if variant in unquote(text, variant)]
    assert not found, f"use {preferred!r} instead of: {found}"
    assert any(preferred in text for text in texts.values()), f"{preferred!r} is never used"


def test_brevity_penalty_is_not_beam_search_length_penalty():
    text = chapter_markdown(next(p for p in CHAPTERS if p.name.startswith("04_")))
    assert "束搜索" in text and "length penalty" in text


def title(path: Path) -> str:
    m = re.search(r"^# (.+)$", chapter_markdown(path), re.M)
    assert m, f"{path.name} has no title"
    return m.group(1).strip()


@pytest.mark.parametrize("index", range(len(CHAPTERS) - 1),
                         ids=[p.stem for p in CHAPTERS[:-1]])
def test_next_chapter_link_says_its_title(index):
    here, nxt = CHAPTERS[index], CHAPTERS[index + 1]
    links = re.findall(r"\[(下一章[^\]]*)\]\(" + re.escape(nxt.name) + r"\)",
                       chapter_markdown(here))
    assert links, f"{here.name}: no [下一章：…]({nxt.name}) link"
    want = f"下一章：{title(nxt)}"
    assert all(text == want for text in links), f"{here.name}: {links} should read {want!r}"

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
TEACHING = ROOT / "bleu_lesson" / "teaching"
TEXT_MODULES = [TEACHING / "quiz.py", TEACHING / "exercises.py",
                *sorted((TEACHING / "chapters").glob("ch*.py"))]


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


#: "N 个词" where N is a number, a $...$ or a Chinese numeral above one: a count of tokens,
#: which the course calls 词元 (docs/glossary.md); "一个词" may be a word (jieba's), so it is
#: not matched. "词数" is a token count too ("词元数").
TOKEN_COUNT_AS_WORDS = re.compile(r"(?:\d|\$|[两三四五六七八九十])\s*个词(?![元语典])|(?<!元)词数")



def token_counts_as_words(text: str) -> list[str]:
    """Each "N 个词" or "词数" in ``text`` that counts tokens.

    >>> token_counts_as_words("候选有 6 个词，参考 $r = 7$ 个词元；词数 2；jieba 切成了一个词")
    ['6 个词', '词数']
    """
    return [m.group(0) for m in TOKEN_COUNT_AS_WORDS.finditer(text)]


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_token_counts_say_词元(path):
    """One term per idea for the unit BLEU counts: 词元 (token), never "6 个词" or "词数"."""
    found = token_counts_as_words(chapter_markdown(path))
    chapter_id = path.name[:2]
    found += token_counts_as_words(registry_texts().get(f"registry chapter {chapter_id}", ""))
    assert not found, f"{path.name}: say 词元 for tokens, found {found}"


def test_tokenization_and_word_segmentation_are_two_terms():
    """分词 alone is tokenization (any tokenizer); dictionary-based splitting of Chinese is
    中文分词, in the glossary and in chapter 01, where both are defined."""
    rows: dict[str, str] = {}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():  # the first table's rows
        if line.startswith("| "):
            rows.setdefault(line.split("|")[1].strip(), line)
    assert "tokenization" in rows["分词"] and "word segmentation" in rows["中文分词"]
    assert "不指中文分词" in rows["分词"]
    ch01 = chapter_markdown(next(p for p in CHAPTERS if p.name.startswith("01_")))
    assert "分词 (Tokenization)" in ch01 and "中文分词 (word segmentation)" in ch01
    assert not re.search(r"(?<!中文)分词工具", ch01)


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

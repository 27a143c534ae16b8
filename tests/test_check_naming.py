"""Which chapter a submission is judged as, when its metadata is gone (issue 20, class 5).

A hostile review renamed a chapter-06 notebook ``04_mallory.ipynb`` and deleted its metadata:
it was judged as chapter 04 (its 4.x rows ``not-done``, no 6.x rows). And a notebook whose
content named two chapters was "judged as chapter 01, 06". Both are refusals now: the row is
an ``error`` that says why and how to judge it (``--chapter``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bleu_lesson.grading import course
from bleu_lesson.grading.course import _judged_chapter


def code(src: str) -> dict:
    return {"cell_type": "code", "source": src, "metadata": {}, "outputs": []}


def nb(*cells: dict, chapter: str | None = None) -> dict:
    meta = {"bleu_lesson": {"chapter": chapter}} if chapter else {}
    return {"cells": list(cells), "metadata": meta}


CH06 = nb(code("def my_bleu(c, refs):\n    return 0.5\n"), code('check("6.1", my_bleu)'))


def test_a_renamed_notebook_without_metadata_whose_checks_disagree_is_refused():
    chapter, _, refusal = _judged_chapter(CH06, "04_mallory.ipynb", None)
    assert chapter is None
    assert "file name says chapter 04" in refusal and "is chapter 06" in refusal
    assert "--chapter" in refusal


def test_a_file_name_that_agrees_with_the_checks_is_used():
    assert _judged_chapter(CH06, "06_alice.ipynb", None)[0] == "06"


def test_content_that_names_two_chapters_is_refused():
    both = nb(code("def my_tokenizer_pairs():\n    return {}\n"), code('check("6.1", my_bleu)'))
    chapter, _, refusal = _judged_chapter(both, "homework.ipynb", None)
    assert chapter is None and "01, 06" in refusal and "--chapter" in refusal


def test_content_that_names_one_chapter_is_judged_as_it_with_a_note():
    chapter, note, refusal = _judged_chapter(CH06, "homework.ipynb", None)
    assert (chapter, refusal) == ("06", "") and "from its content" in note


def test_the_chapter_option_still_wins():
    chapter, note, _ = _judged_chapter(CH06, "04_mallory.ipynb", "04")
    assert chapter == "04" and "check() cells are chapter 06" in note


NO_CHECKS_06 = nb(code("def my_bleu(c, refs):\n    return 0.5\n"),
                  code("def my_lowering_case():\n    return ...\n"))


def test_a_renamed_notebook_whose_answer_names_disagree_is_refused():
    """The second review: the chapter-06 notebook with its check() cells removed, named
    04_…, was judged as 04; a chapter with no exercises (00_…) or an unknown metadata
    chapter (99) left the unsolved exercises without a row."""
    for name in ("04_n1.ipynb", "00_n2.ipynb"):
        chapter, _, refusal = _judged_chapter(NO_CHECKS_06, name, None)
        assert chapter is None and "content" in refusal and "06" in refusal, name
    chapter, _, refusal = _judged_chapter(nb(*NO_CHECKS_06["cells"], chapter="99"), "n3.ipynb",
                                          None)
    assert chapter is None and "06" in refusal


def test_another_chapters_answers_appended_under_its_metadata_are_refused():
    """The third review: a chapter-06 notebook whose metadata says 04 (or whose file name is
    04_…), with correct 4.x answers and check() cells appended, was judged as chapter 04 (two
    passes, no 6.x row). A notebook whose content names two chapters is refused, whatever
    its metadata or file name says."""
    carol = nb(*CH06["cells"], code("def my_brevity_penalty(c, r):\n    return 1.0\n"),
               code('check("4.1", my_brevity_penalty)'), chapter="04")
    for name in ("carol_hw.ipynb", "04_bleu_bob.ipynb"):
        chapter, _, refusal = _judged_chapter(carol, name, None)
        assert chapter is None and "04, 06" in refusal and "--chapter" in refusal, name
    assert _judged_chapter(carol, "carol_hw.ipynb", "06")[0] == "06"


def test_a_check_call_in_a_comment_or_a_string_names_no_chapter():
    """`# check("4.1", …)` in a comment cell made a chapter-06 notebook look like chapter 04."""
    from bleu_lesson.grading.course import _check_calls

    assert _check_calls('# check("4.1", f)\ns = "check(\'4.2\', g)"\n') == set()
    assert _check_calls('check("6.1", my_bleu)\n%time check("6.2", f)\n!ls') == {"6.1", "6.2"}
    ch06_with_comment = nb(code("def my_bleu(c, refs):\n    return 0.5\n"),
                           code('# check("4.1", my_brevity_penalty)'), chapter="04")
    chapter, _, refusal = _judged_chapter(ch06_with_comment, "hw.ipynb", None)
    assert chapter is None and "answer names" in refusal


def test_a_huge_or_deeply_nested_cell_is_not_parsed_in_the_checker(monkeypatch):
    """A third hostile review: one 12 MB cell made the checker's ast.parse hold the process
    for about a minute and 7.5 GB (an honest submission beside it timed out), and a deeply
    nested expression raised RecursionError ("checker failed"). A cell over MAX_PARSED_CELL
    characters is read line by line, never parsed; a parse that fails in any way falls back
    to the same reading."""
    import ast

    from bleu_lesson.grading import course

    big = "a = 1\n" * (course.MAX_PARSED_CELL // 6 + 1) + 'check("6.1", my_bleu)  # check("4.1")\n'
    assert len(big) > course.MAX_PARSED_CELL

    def refuse(*args, **kwargs):
        raise AssertionError("a huge cell was parsed")

    monkeypatch.setattr(ast, "parse", refuse)
    assert course._check_calls(big) == {"6.1"}
    monkeypatch.undo()
    deep = "x = " + "-" * 100_000 + "1\ncheck('6.2', f)\n"
    assert course._check_calls(deep[:course.MAX_PARSED_CELL - 1]) <= {"6.2"}  # no exception
    nested = "x = (" * 300 + "1" + ")" * 300 + "\ncheck('6.2', f)\n"
    assert course._check_calls(nested) == {"6.2"}


def test_a_file_name_with_a_bare_chapter_number_names_it():
    """`alice_ch06.ipynb`, `hw06.ipynb`, `alice_06.ipynb` named no chapter, so a chapter-06
    notebook under metadata 04 was judged as 04."""
    carol = nb(code("def my_bleu(c, refs):\n    return 0.5\n"), chapter="04")
    for name in ("alice_ch06.ipynb", "hw06.ipynb", "alice_06.ipynb"):
        chapter, _, refusal = _judged_chapter(carol, name, None)
        assert chapter is None and "file name says chapter 06" in refusal, name


def test_a_link_to_another_chapter_does_not_name_it():
    """A ninth hostile review deleted chapter 06's title cell (with the cells of 6.2 and 6.3):
    the first "第 N 章" left was a link to chapter 1 in the text, and an honest submission got
    an error row, "content names chapters 01, 06". Only a heading names a chapter."""
    nb = json.loads((Path(__file__).resolve().parent.parent / "notebooks"
                     / "06_bleu_multi_reference.ipynb").read_text(encoding="utf-8"))
    text = ["".join(c["source"]) for c in nb["cells"]]
    assert "# 第 6 章" in text[0]
    assert any(re.search(r"\[第 \d+ 章\]\(0[0-5]_", t) for t in text[1:])  # links do occur
    nb["cells"] = nb["cells"][1:]
    assert course._content_chapters(nb) == ["06"]


def test_a_number_that_is_no_chapter_names_none():
    """A twelfth hostile review: `homework_a_evade_no_meta_42_cell_deleted` (metadata deleted)
    got a refusal saying "its file name says chapter 42"; the course has no chapter 42, so
    the name says nothing and the content (chapter 04) decides. A chapter number before it
    or alone still counts (`04_alice_v2_12_final`, `alice_42_06`)."""
    ch04 = nb(code("def my_closest_ref_length(c, lens):\n    return lens[0]\n"),
              code('check("4.1", my_brevity_penalty)'))
    chapter, note, refusal = _judged_chapter(ch04, "homework_a_evade_no_meta_42_cell_deleted"
                                             ".ipynb", None)
    assert (chapter, refusal) == ("04", "") and "42" not in note and "from its content" in note
    assert course._file_chapter("04_alice_v2_12_final.ipynb") == "04"
    assert course._file_chapter("alice_42_06.ipynb") == "06"
    chapter, _, refusal = _judged_chapter(CH06, "hw_42_notes.ipynb", None)
    assert chapter == "06" and "42" not in refusal

"""Which chapter a submission is judged as, when its metadata is gone (issue 20, class 5).

A hostile review renamed a chapter-06 notebook ``04_mallory.ipynb`` and deleted its metadata:
it was judged as chapter 04 (its 4.x rows ``not-done``, no 6.x rows). And a notebook whose
content named two chapters was "judged as chapter 01, 06". Both are refusals now: the row is
an ``error`` that says why and how to judge it (``--chapter``)."""

from __future__ import annotations

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

"""`bleu-lesson check` judges exercises of kind "value" (a construct or predict answer that
is a value, with a ``judge``) where the answer key is absent, like function exercises.

The exercise here is made up for the test (no chapter has it yet): "how many bigrams does
``"a b c d"`` have?" The right value is 3 by hand; the wrong values are the ones a learner
gives (the token count, one too few, a string); the value computed with the
library's ``ngrams`` is absent where it is judged, so it gets no number.
"""

from __future__ import annotations

import json
from typing import Any

import nbformat
import pytest

from bleu_lesson.grading import judge, sandbox
from bleu_lesson.teaching.checking import Exercise

pytestmark = pytest.mark.skipif(sandbox.backend() != "bwrap",
                                reason="only bubblewrap hides the host's copy of the library")


def _judge_bigrams(case: tuple, got: Any) -> tuple[bool, str]:
    ok = type(got) is int and got == 3  # "a b c d": (a b), (b c), (c d)
    return ok, f"得到 (got): {got!r}"


EXERCISE = Exercise("4.9", "数二元组 my_bigram_count", None, ((),), kind="value",
                    judge=_judge_bigrams)

CASES = {
    "right": ("my_bigram_count = 3\n", "pass"),
    "token count": ("my_bigram_count = 4\n", "fail"),
    "one too few": ("my_bigram_count = len('a b c d'.split()) - 2\n", "fail"),
    "a string": ("my_bigram_count = '3'\n", "fail"),
    "an object": ("my_bigram_count = object()\n", "fail"),
    "the stub": ("my_bigram_count = ...\n", "not-done"),
    "not defined": ("x = 1\n", "not-done"),
    "the library": ("from bleu_lesson import ngrams\n"
                    "my_bigram_count = len(ngrams('a b c d'.split(), 2))\n", "fail"),
}


def _notebook(source: str) -> Any:
    return nbformat.from_dict({
        "nbformat": 4, "nbformat_minor": 5,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                    "language": "python"}},
        "cells": [{"cell_type": "code", "id": "c0", "metadata": {}, "outputs": [],
                   "execution_count": None, "source": source}]})


@pytest.mark.parametrize("name", CASES)
def test_a_value_exercise_is_judged_where_the_key_is_absent(tmp_path, name):
    source, expected = CASES[name]
    nb = _notebook(source)
    path = tmp_path / "04_x.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    verdict, = judge.check_notebook(path, nb, [EXERCISE], timeout=60)
    assert verdict.status == expected, (name, verdict)

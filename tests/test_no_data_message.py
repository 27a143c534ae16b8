"""Without the WMT22 data, chapters 09 and 10 still stop at their first data cell, but what
the learner sees first is a Chinese note saying what to run (``make data``, or
``BLEU_LESSON_WMT22_DIR``), and the error under it is one line, not a red English
``DatasetNotFoundError`` traceback (a learner's review)."""

from __future__ import annotations

import json

import pytest
from notebook_tools import NEEDS_WMT22, NOTEBOOK_DIR, load

from bleu_lesson.grading.course import make_student_copy


@pytest.fixture
def no_data(tmp_path, monkeypatch):
    """An empty data folder, an empty cache and a download address that refuses at once."""
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("BLEU_LESSON_WMT22_DIR", str(tmp_path / "empty"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("BLEU_LESSON_DATA_URL", "http://127.0.0.1:9")
    return tmp_path


@pytest.mark.parametrize("name", NEEDS_WMT22)
def test_the_first_data_cell_says_in_chinese_what_to_run(name, no_data):
    import nbclient
    import nbformat

    student = make_student_copy(load(NOTEBOOK_DIR / name), name)
    nb = nbformat.reads(json.dumps(student), as_version=4)
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(no_data)}})
    with pytest.raises(nbclient.exceptions.CellExecutionError):
        client.execute()
    failed = [c for c in nb.cells if c.cell_type == "code"
              and any(o.get("output_type") == "error" for o in c.get("outputs", []))]
    assert len(failed) == 1, "Run All did not stop at one cell"
    outputs = failed[0].outputs
    first = outputs[0]
    assert first.output_type == "stream" and first.name == "stdout", outputs
    assert first.text.startswith("⚠ 这一章要用 WMT22 数据"), first.text
    assert "make data" in first.text and "BLEU_LESSON_WMT22_DIR" in first.text
    (error,) = [o for o in outputs if o.output_type == "error"]
    assert error.ename == "WMT22DataMissing", error.ename
    assert "make data" in error.evalue
    # IPython shows the error's one line, not the loader's frames
    assert len(error.traceback) == 1 and "DatasetNotFoundError" not in error.traceback[0]
    assert "load_wmt22" in failed[0].source  # the chapter's first data cell

"""Run All completes in every learner copy with its exercises untouched.

Each chapter's learner copy (what ``make lab`` puts into the workspace) is executed top to
bottom with nbclient in a fresh kernel, in a folder of its own (as the workspace is), and
no cell may end in an error: a stub the learner has not filled in must make its check say
"还没有完成", never stop the chapter. Chapters that need the WMT22 data are skipped, with
how to get it, when it is not on this machine.
"""

from __future__ import annotations

import json

import pytest
from notebook_tools import NEEDS_WMT22, chapters, load, source, wmt22_unavailable

from bleu_lesson.grading.course import STUB, make_student_copy

CHAPTERS = chapters()
pytestmark = pytest.mark.skipif(not CHAPTERS, reason="no chapter notebooks yet")


def _errors(nb) -> list[str]:
    found = []
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                found.append(f"cell {i}: {out.get('ename')}: {out.get('evalue')} "
                             f"in {source(cell)[:80]!r}")
    return found


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_run_all_completes_in_the_learner_copy(path, tmp_path):
    import nbclient
    import nbformat

    if path.name in NEEDS_WMT22:
        reason = wmt22_unavailable()
        if reason:
            pytest.skip(reason)
    student = make_student_copy(load(path), path.name)
    has_stubs = any(STUB in source(c) for c in student["cells"])
    nb = nbformat.reads(json.dumps(student), as_version=4)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     allow_errors=True,
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    errors = _errors(nb)
    assert not errors, f"{path.name}: Run All stops: " + "; ".join(errors)
    ran = [c for c in nb.cells if c.cell_type == "code" and source(c).strip()]
    assert all(c.get("execution_count") for c in ran), "a code cell did not run"
    if has_stubs:  # the checks ran on the stubs and said so, in Chinese
        printed = json.dumps([c.get("outputs", []) for c in ran], ensure_ascii=False)
        assert "还没有完成" in printed

"""Every writable mount of the sandbox has a size: the work folder (home, TMPDIR and the
notebook's folder) is one tmpfs of ``Limits.work_size`` bytes under bubblewrap, so a
submission that writes past it gets ENOSPC (errno 28) and a row that says so, and the
host's disk is not filled (issue 20, class 6)."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from bleu_lesson.grading import course, sandbox

pytestmark = pytest.mark.skipif(sandbox.backend() != "bwrap",
                                reason="the sized work folder is bubblewrap's tmpfs")

MiB = 1024 ** 2
# 2 MiB files (the judging world allows files of at most 4 MiB), up to 400 MiB per folder
FILL = """import os
def _fill(folder):
    n = 0
    try:
        for k in range(200):
            with open(os.path.join(folder, f'fill{k}.bin'), 'wb') as f:
                f.write(b'x' * 2 * 1024 ** 2)
            n += 2
    except OSError as exc:
        return n, exc.errno
    return n, None
"""
PROBE = FILL + """
FILLED = [_fill('.'), _fill(os.path.expanduser('~')), _fill(os.environ['TMPDIR'])]
def my_brevity_penalty(c, r):
    return FILLED
"""
UNCAUGHT = """import os
for k in range(200):
    with open(f'fill{k}.bin', 'wb') as f:
        f.write(b'x' * 2 * 1024 ** 2)
"""


def _notebook(cells: list[str]) -> dict:
    return {"nbformat": 4, "nbformat_minor": 5,
            "metadata": {"bleu_lesson": {"chapter": "04"},
                         "kernelspec": {"name": "python3", "display_name": "Python 3",
                                        "language": "python"}},
            "cells": [{"cell_type": "code", "id": f"c{k}", "metadata": {}, "outputs": [],
                       "execution_count": None, "source": s} for k, s in enumerate(cells)]}


@pytest.fixture(scope="module")
def rows(tmp_path_factory) -> dict[str, course.Row]:
    folder = tmp_path_factory.mktemp("work-size")
    paths = []
    for name, cells in (("probe", [PROBE]), ("uncaught", [UNCAUGHT])):
        path = folder / f"04_{name}.ipynb"
        path.write_text(json.dumps(_notebook(cells)), encoding="utf-8")
        paths.append(path)
    found = course.check_submissions(paths, timeout=60, jobs=2)
    return {f"{Path(r.submission).stem[3:]} {r.exercise}": r for r in found}


def test_the_work_folder_holds_work_size_bytes_in_all(rows):
    """The three writable folders share one tmpfs: 256 MiB fit, then ENOSPC in each."""
    size = sandbox.Limits().work_size
    assert size == 256 * MiB
    row = rows["probe 4.1"]
    assert row.status == "fail"
    filled = f"[({size // MiB}, {errno.ENOSPC}), (0, {errno.ENOSPC}), (0, {errno.ENOSPC})]"
    assert filled in row.detail, row.detail


def test_writing_past_it_is_a_clear_row(rows):
    row = rows["uncaught 4.1"]
    assert row.status == "not-done"
    assert "OSError" in row.detail and "No space left on device" in row.detail

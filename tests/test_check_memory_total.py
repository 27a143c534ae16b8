"""``--memory`` holds for a whole submission, not per process (issue 20, class 6).

RLIMIT_AS bounds each process's address space; a submission that forks could hold the
limit in every process (measured before: 4.23 GiB under ``--memory 2G`` with two children).
The checker now sums the resident memory of the sandbox's processes while a cell runs and
stops the submission past the limit, with a row that says so; an honest submission checked
in the same run under the same limit still passes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from notebook_tools import code_notebook

from bleu_lesson.grading import course, sandbox

pytestmark = pytest.mark.skipif(sandbox.refusal(sandbox.backend()) is not None,
                                reason="no sandbox backend can run a kernel here")

MiB = 1024 ** 2
LIMIT = 1536 * MiB
#: the kernel and two children each touch 600 MiB (each under RLIMIT_AS; 1.8 GiB in all)
SWELL = """import os, time
def _hold(mib):
    block = bytearray(mib * 1024 ** 2)
    for i in range(0, len(block), 4096):
        block[i] = 1
    time.sleep(8)
_pids = []
for _ in range(2):
    _pid = os.fork()
    if _pid == 0:
        _hold(600)
        os._exit(0)
    _pids.append(_pid)
_hold(600)
"""
RIGHT = """import math
def my_brevity_penalty(c, r):
    return 1.0 if c > r else (0.0 if c == 0 else math.exp(1 - r / c))
"""


def _notebook(cells: list[str]) -> dict:
    return code_notebook(cells)


def test_a_submission_that_swells_in_several_processes_is_stopped(tmp_path):
    paths = []
    for name, cells in (("swell", [SWELL, RIGHT]), ("right", [RIGHT])):
        path = tmp_path / f"04_{name}.ipynb"
        path.write_text(json.dumps(_notebook(cells)), encoding="utf-8")
        paths.append(path)
    limits = sandbox.Limits(memory=LIMIT)
    found = course.check_submissions(paths, timeout=60, jobs=2, limits=limits)
    rows = {f"{Path(r.submission).stem[3:]} {r.exercise}": r for r in found}
    swell = rows["swell 4.1"]
    assert swell.status == "error", swell
    assert "in all, more than --memory (1536 MiB)" in swell.detail, swell
    assert rows["right 4.1"].status == "pass", rows["right 4.1"]

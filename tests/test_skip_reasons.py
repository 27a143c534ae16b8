"""Without the WMT22 data, every data-dependent test is skipped with one short line that
says what to do, and the same line wherever the skip comes from (a fixture, a ``skipif``
mark, the root conftest's hook on notebooks, a test's own check): made in one place,
``notebook_tools.data_skip_reason``.

Runs pytest in a subprocess on a sample of each kind of skip, with the data hidden
(no ``BLEU_LESSON_WMT22_DIR``, an empty user cache); nothing is executed but the skips.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# one of each route a data skip takes
SAMPLE = [
    "tests/test_human.py",                                     # wmt22_dir fixture, then its own
    "tests/test_tok13a.py::test_every_wmt22_line_is_tokenized_like_sacrebleu",  # skipif mark
    "tests/test_sandbox_judge.py::test_rank_prediction_is_judged_from_a_set",   # own check
    "tests/test_run_notebooks.py::test_with_the_variable_nothing_is_skipped",   # fixture
    "notebooks/09_wmt22_case_study.ipynb",                     # the root conftest's hook
]
SKIPPED = re.compile(r"^SKIPPED \[(\d+)\] [^:]+:\d+: (.*)$")
LONGEST = 140  # characters: one line a reader takes in at a glance


def test_every_data_skip_is_one_short_line_from_one_place(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "BLEU_LESSON_WMT22_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "empty-cache")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
         "-o", "addopts=", "--nbval", "--nbval-current-env", *SAMPLE],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    lines = [m for m in map(SKIPPED.match, proc.stdout.splitlines()) if m]
    assert proc.returncode == 0, proc.stdout  # nothing failed for want of data
    assert sum(int(m.group(1)) for m in lines) >= 10, proc.stdout
    reasons = {m.group(2) for m in lines}
    assert reasons, proc.stdout
    for reason in reasons:
        assert len(reason) <= LONGEST, reason
        assert "`make data`" in reason and "BLEU_LESSON_WMT22_DIR" in reason, reason
    # one hint after the colon, whatever the problem before it
    assert len({r.split(": ", 1)[1] for r in reasons}) == 1, reasons
    assert not (tmp_path / "empty-cache").exists()  # skipping downloads and creates nothing

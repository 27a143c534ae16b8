"""`bleu-lesson check` on the command line: submissions that do not exist, and the sandbox
column of the report.

A submission path that does not exist is a mistake of the command line (a typo, a glob
that matched nothing), not a student's result: one line on stderr naming the argument and
the path, exit status 2, no row for it. When only some are missing the others are still
checked (as ``ls`` and ``cp`` treat their operands), and the exit status is still 2.

Most cases here use submissions that are refused before any kernel starts (not JSON), so
they run in well under a second; one case runs a real kernel to see a judged row.
"""

from __future__ import annotations

import csv
import gc
import shutil
import warnings
from pathlib import Path

import pytest
from notebook_tools import NOTEBOOK_DIR

from bleu_lesson.__main__ import build_parser, main
from bleu_lesson.grading import course, sandbox


def _table(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


@pytest.fixture
def room(tmp_path, monkeypatch):
    """cwd = a scratch folder with one unreadable submission (refused without a kernel)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.ipynb").write_text("{ not json", encoding="utf-8")
    return tmp_path


def test_one_missing_submission_is_one_line_exit_2_and_no_report(room, capsys):
    code = main(["check", "nope.ipynb", "--report", "r.csv"])
    out, err = capsys.readouterr()
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "SUBMISSION" in err and "'nope.ipynb'" in err and "does not exist" in err, err
    assert out == ""  # no summary table of nothing
    assert not (room / "r.csv").exists()  # nothing was checked: no report is written


def test_a_missing_submission_leaves_an_earlier_report_alone(room, capsys):
    earlier = "submission,exercise,status,detail,sandbox\nold.ipynb,2.1,pass,5/5,bwrap\n"
    (room / "r.csv").write_text(earlier, encoding="utf-8")
    assert main(["check", "--report", "r.csv", "a/b/nope.ipynb"]) == 2
    assert "'a/b/nope.ipynb'" in capsys.readouterr().err
    assert (room / "r.csv").read_text(encoding="utf-8") == earlier


def test_some_missing_the_others_are_checked_and_the_exit_status_is_2(room, capsys):
    code = main(["check", "gone_1.ipynb", "broken.ipynb", "gone_2.ipynb",
                 "--report", "r.csv", "--jobs", "1"])
    out, err = capsys.readouterr()
    assert code == 2, err
    lines = err.strip().splitlines()
    assert lines[0].endswith("SUBMISSION 'gone_1.ipynb' does not exist"), err
    assert lines[1].endswith("SUBMISSION 'gone_2.ipynb' does not exist"), err
    assert "2 of 3" in lines[-1] and "'gone_1.ipynb' 'gone_2.ipynb'" in lines[-1], err
    table = _table(room / "r.csv")
    assert [row[0] for row in table[1:]] == ["broken.ipynb"]  # no row for a missing one
    assert table[1][2] == "error"
    assert "broken.ipynb" in out and "gone_" not in out  # the summary: only what was checked


def test_a_dangling_symlink_is_a_submission_that_is_refused_not_missing(room, capsys):
    """A link exists (lstat) even when its target does not: `check` refuses it with a row,
    as it refuses every symlink, rather than calling it missing."""
    (room / "link.ipynb").symlink_to(room / "nowhere.ipynb")
    assert main(["check", "link.ipynb", "--report", "r.csv"]) == 2  # unreadable: exit 2
    table = _table(room / "r.csv")
    assert table[1][0] == "link.ipynb" and table[1][2] == "error"
    assert "symbolic link" in table[1][3]
    capsys.readouterr()


def test_the_help_says_what_a_missing_submission_does(capsys):
    check = build_parser()._subparsers._group_actions[0].choices["check"]
    text = " ".join(check.format_help().split())
    assert "does not exist" in text and "exit status is 2" in text
    assert "submission,exercise,status,detail,sandbox" in text


# --- the sandbox column -----------------------------------------------------------------

@pytest.fixture
def forced(monkeypatch):
    """Force a backend with BLEU_LESSON_SANDBOX (``backend()`` is cached per process)."""
    def force(kind: str) -> None:
        monkeypatch.setenv("BLEU_LESSON_SANDBOX", kind)
        sandbox.backend.cache_clear()

    yield force
    monkeypatch.undo()
    sandbox.backend.cache_clear()


@pytest.mark.parametrize("kind", ["unshare", "none"])
def test_every_row_records_the_backend_that_ran_the_check(room, capsys, forced, kind):
    """The backend is forced with BLEU_LESSON_SANDBOX (the oracle): the report names it on
    every row, and the first stderr line (what the instructor reads) agrees."""
    if sandbox.refusal(kind):
        pytest.skip(sandbox.refusal(kind))
    forced(kind)
    (room / "also.ipynb").write_text("[]", encoding="utf-8")
    assert main(["check", "broken.ipynb", "also.ipynb", "--report", "r.csv"]) == 2
    err = capsys.readouterr().err
    table = _table(room / "r.csv")
    assert table[0] == ["submission", "exercise", "status", "detail", "sandbox"]
    assert [row[4] for row in table[1:]] == [kind, kind]
    first = err.splitlines()[0].lower()
    assert f"sandbox: {kind}" in first, err


def test_a_judged_row_records_the_backend(tmp_path, forced):
    """A real kernel, without namespaces (runs on any machine): the judged row says none."""
    forced("none")
    sub = tmp_path / "alice_02.ipynb"
    shutil.copyfile(NOTEBOOK_DIR / "02_ngrams.ipynb", sub)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rows = course.check_submissions([sub], timeout=60)
        gc.collect()
    assert [(r.exercise, r.status, r.sandbox) for r in rows] == [("2.1", "pass", "none")]
    # a CI run's find: the asyncio loop jupyter_client left in the worker thread, collected
    # later with its sockets, printed "Exception ignored in BaseEventLoop.__del__" to stderr
    unclosed = [str(w.message) for w in caught if "unclosed event loop" in str(w.message)]
    assert not unclosed, unclosed


def test_an_earlier_report_without_the_sandbox_column_is_still_a_report(room, capsys):
    """Reports written before the column existed are replaced without --force."""
    (room / "r.csv").write_text("submission,exercise,status,detail\nold.ipynb,2.1,fail,\n",
                                encoding="utf-8")
    assert main(["check", "--report", "r.csv", "broken.ipynb"]) == 2
    table = _table(room / "r.csv")
    assert table[0][-1] == "sandbox" and [r[0] for r in table[1:]] == ["broken.ipynb"]
    capsys.readouterr()


def test_a_report_like_file_with_other_columns_is_not_a_report(room, capsys):
    (room / "r.csv").write_text("submission,exercise,status\n", encoding="utf-8")
    assert main(["check", "--report", "r.csv", "broken.ipynb"]) == 2
    assert "--force" in capsys.readouterr().err


def test_a_backend_chosen_by_the_variable_is_said_to_be_chosen(room, capsys, forced,
                                                               monkeypatch):
    """BLEU_LESSON_SANDBOX=none is the instructor's choice: not "namespaces unavailable"."""
    forced("none")
    assert main(["check", "broken.ipynb"]) == 2
    first = capsys.readouterr().err.splitlines()[0]
    assert "chosen by BLEU_LESSON_SANDBOX=none" in first, first
    assert "unavailable" not in first and "WARNING" in first
    monkeypatch.delenv("BLEU_LESSON_SANDBOX")
    assert "(namespaces unavailable)" in sandbox.describe("none")


def test_a_missing_submission_comes_before_the_sandbox_line_and_again_at_the_end(room,
                                                                                 capsys):
    """What README and docs/instructor.md say: one error line per missing submission, then
    the sandbox line, the progress, and the missing ones again in the last line."""
    assert main(["check", "nope.ipynb", "broken.ipynb"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines[0].endswith("SUBMISSION 'nope.ipynb' does not exist"), lines
    assert lines[1].startswith("bleu-lesson check: sandbox: "), lines
    assert "1 of 2 SUBMISSION" in lines[-1] and "'nope.ipynb'" in lines[-1], lines


def test_unshare_as_root_with_an_unreadable_python_is_refused(room, capsys, forced):
    """Before: the kernel kept uid 0 there, overwrote a later submission's copy and took
    over other students' live kernels through their connection files."""
    why = sandbox.refusal("unshare")
    if not why:
        pytest.skip("here unshare runs student code as an unprivileged uid")
    with pytest.raises(ValueError, match="as root"):
        sandbox.Sandbox(kind="unshare")
    forced("unshare")
    assert main(["check", "broken.ipynb"]) == 2
    assert "run student code as root" in capsys.readouterr().err

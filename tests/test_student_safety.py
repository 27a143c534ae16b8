"""Nothing an instructor owns is overwritten (issue 11, "Data loss").

Each scenario runs in a throwaway copy of a course folder (two real chapters, the authoring
notes, two submissions): the command must exit 2 with one line that names the file at
fault, and every original and every submission must keep its SHA-256.
"""

from __future__ import annotations

import csv
import hashlib
import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from notebook_tools import NOTEBOOK_DIR, load, replace_solutions, solution_blocks, source

from bleu_lesson.__main__ import main
from bleu_lesson.grading import course

FAST = ["02_ngrams.ipynb", "04_brevity_penalty.ipynb"]


def _sha(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}


@pytest.fixture
def room(tmp_path, monkeypatch):
    """tmp/notebooks (originals), tmp/subs (submissions); cwd = tmp."""
    nbs = tmp_path / "notebooks"
    nbs.mkdir()
    for name in FAST:
        shutil.copyfile(NOTEBOOK_DIR / name, nbs / name)
    (nbs / "AUTHORING.md").write_text("# Notes for authors\n", encoding="utf-8")  # not a notebook
    subs = tmp_path / "subs"
    subs.mkdir()
    shutil.copyfile(NOTEBOOK_DIR / FAST[0], subs / "alice_02.ipynb")
    shutil.copyfile(NOTEBOOK_DIR / FAST[0], subs / "bob_02.ipynb")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _refused(capsys, argv, names: str) -> str:
    """Run the command: exit 2, one line on stderr naming ``names``, no traceback."""
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert names in err, err
    return err


@pytest.fixture
def unchanged(room):
    before = _sha(room)
    yield room
    assert _sha(room) == before, "an original or a submission changed"


def _no_new_files(room: Path, before: set[str]) -> None:
    assert {str(p.relative_to(room)) for p in room.rglob("*")} == before


# --- student --out ---------------------------------------------------------------------

def test_student_out_is_the_originals_folder(unchanged, capsys):
    err = _refused(capsys, ["student", "--out", "notebooks"], "notebooks")
    assert "02_ngrams.ipynb" in err or "04_brevity_penalty.ipynb" in err


def test_student_out_dot_inside_the_originals_folder(unchanged, capsys, monkeypatch):
    monkeypatch.chdir(unchanged / "notebooks")
    _refused(capsys, ["student", *FAST, "--out", "."], "'.'")


def test_student_out_symlink_to_the_originals_folder(unchanged, capsys):
    (unchanged / "link").symlink_to(unchanged / "notebooks", target_is_directory=True)
    _refused(capsys, ["student", "--out", "link"], "link")


def test_student_out_dotdot_back_into_the_originals_folder(unchanged, capsys):
    _refused(capsys, ["student", "--out", "notebooks/../notebooks"], "notebooks/../notebooks")


def test_student_out_holding_an_instructor_notebook(room, capsys):
    """A folder that holds an original (with solutions) is refused even for other chapters."""
    other = room / "other"
    other.mkdir()
    shutil.copyfile(NOTEBOOK_DIR / "03_clipped_counts.ipynb", other / "03_clipped_counts.ipynb")
    before = _sha(room)
    _refused(capsys, ["student", "notebooks/02_ngrams.ipynb", "--out", "other"],
             "03_clipped_counts.ipynb")
    assert _sha(room) == before


def test_student_out_empty(unchanged, capsys):
    before = {str(p.relative_to(unchanged)) for p in unchanged.rglob("*")}
    _refused(capsys, ["student", "notebooks/02_ngrams.ipynb", "--out", ""], "--out")
    _no_new_files(unchanged, before)


def test_student_input_that_is_not_a_notebook(unchanged, capsys):
    err = _refused(capsys, ["student", "notebooks/AUTHORING.md", "--out", "student"],
                   "student: notebooks/AUTHORING.md is not a notebook")
    assert not (unchanged / "student").exists(), err


def test_student_keeps_a_same_named_file_that_is_not_a_student_copy(room, capsys):
    out = room / "student"
    out.mkdir()
    mine = out / "02_ngrams.ipynb"
    mine.write_text('{"cells": [], "metadata": {}}', encoding="utf-8")  # the teacher's own
    before = _sha(room)
    _refused(capsys, ["student", *(f"notebooks/{n}" for n in FAST), "--out", "student"],
             "student/02_ngrams.ipynb")
    assert _sha(room) == before
    assert not (out / FAST[1]).exists()  # nothing is written when one target is refused
    # --force overwrites it, and the copies are student copies
    assert main(["student", *(f"notebooks/{n}" for n in FAST), "--out", "student",
                 "--force"]) == 0
    assert course.is_student_copy(mine) and course.is_student_copy(out / FAST[1])
    originals = {k: v for k, v in before.items() if not k.startswith("student/")}
    assert {k: v for k, v in _sha(room).items() if not k.startswith("student/")} == originals


def test_student_overwrites_its_own_earlier_copies(room, capsys):
    assert main(["student", "notebooks/02_ngrams.ipynb", "--out", "student"]) == 0
    copy_ = room / "student" / "02_ngrams.ipynb"
    copy_.write_text(copy_.read_text(encoding="utf-8").replace("my_sentence", "my_sentencz"),
                     encoding="utf-8")
    assert main(["student", "notebooks/02_ngrams.ipynb", "--out", "student"]) == 0
    assert "my_sentencz" not in copy_.read_text(encoding="utf-8")
    capsys.readouterr()


def test_student_target_symlinked_to_an_original(unchanged, capsys):
    out = unchanged / "student"
    out.mkdir()
    (out / "02_ngrams.ipynb").symlink_to(unchanged / "notebooks" / "02_ngrams.ipynb")
    _refused(capsys, ["student", "notebooks/02_ngrams.ipynb", "--out", "student", "--force"],
             "student/02_ngrams.ipynb")


# --- check --report --------------------------------------------------------------------

@pytest.fixture
def no_grading(monkeypatch):
    """Replace the grading path: a refused report must be refused before any grading."""
    calls: list = []

    def fake(paths, **kwargs):
        calls.append(list(paths))
        return [course.Row(str(p), "2.1", "pass", "5/5") for p in paths]

    monkeypatch.setattr(course, "check_submissions", fake)
    return calls


def test_check_report_glob_expanded_onto_a_submission(unchanged, capsys, no_grading):
    """`check --timeout 60 --report subs/*.ipynb` took the first submission as the report."""
    _refused(capsys, ["check", "--timeout", "60", "--report", "subs/alice_02.ipynb",
                      "subs/bob_02.ipynb"], "subs/alice_02.ipynb")
    assert no_grading == []


def test_check_report_is_an_input_through_a_symlink(unchanged, capsys, no_grading):
    (unchanged / "r.csv").symlink_to(unchanged / "subs" / "bob_02.ipynb")
    _refused(capsys, ["check", "--report", "r.csv", "subs/bob_02.ipynb"], "r.csv")
    assert no_grading == []


def test_check_report_over_a_file_that_is_not_a_report(room, capsys, no_grading):
    target = room / "notebooks" / "AUTHORING.md"
    before = _sha(room)
    _refused(capsys, ["check", "--report", "notebooks/AUTHORING.md", "subs/bob_02.ipynb"],
             "notebooks/AUTHORING.md")
    assert no_grading == [] and _sha(room) == before
    assert main(["check", "--report", str(target), "subs/bob_02.ipynb", "--force"]) == 0
    assert target.read_text(encoding="utf-8").startswith("submission,exercise,status,detail")
    capsys.readouterr()


def test_check_report_replaces_an_earlier_report(room, capsys, no_grading):
    report = room / "r.csv"
    report.write_text("submission,exercise,status,detail\nold.ipynb,2.1,fail,\n",
                      encoding="utf-8")
    assert main(["check", "--report", "r.csv", "subs/bob_02.ipynb"]) == 0
    assert "old.ipynb" not in report.read_text(encoding="utf-8")
    capsys.readouterr()


@pytest.mark.parametrize("where", ["missing/r.csv", "subs/bob_02.ipynb/r.csv", "subs", ""])
def test_unwritable_report_is_refused_before_grading(unchanged, capsys, no_grading, where):
    _refused(capsys, ["check", "--report", where, "subs/bob_02.ipynb"], "--report")
    assert no_grading == []


def test_report_in_a_folder_that_cannot_be_written(room, capsys, no_grading, monkeypatch):
    """Writability is probed by creating a file (modes do not stop root): make that fail."""
    real = course.tempfile.mkstemp

    def refuse(*args, dir=None, **kwargs):
        if dir is not None and Path(dir) == room / "ro":
            raise PermissionError(13, "Permission denied")
        return real(*args, dir=dir, **kwargs)

    (room / "ro").mkdir()
    monkeypatch.setattr(course.tempfile, "mkstemp", refuse)
    err = _refused(capsys, ["check", "--report", "ro/r.csv", "subs/bob_02.ipynb"], "ro/r.csv")
    assert "Permission denied" in err
    assert no_grading == []


# --- the report file --------------------------------------------------------------------

def test_csv_cells_that_look_like_formulas_are_escaped(tmp_path):
    report = tmp_path / "r.csv"
    rows = [course.Row("=HYPERLINK(\"http://x\",\"a\").ipynb", "2.1", "fail",
                       "-2+3 expected"),
            course.Row("+cmd.ipynb", "@SUM(A1)", "pass", "5/5 个测试用例"),
            course.Row("\tx.ipynb", "2.1", "pass", "plain, with comma")]
    course.write_report(rows, report)
    with open(report, newline="", encoding="utf-8") as f:
        table = list(csv.reader(f))
    assert table == [
        ["submission", "exercise", "status", "detail", "sandbox"],
        ["'=HYPERLINK(\"http://x\",\"a\").ipynb", "2.1", "fail", "'-2+3 expected", ""],
        ["'+cmd.ipynb", "'@SUM(A1)", "pass", "5/5 个测试用例", ""],
        ["'\tx.ipynb", "2.1", "pass", "plain, with comma", ""],
    ]


def test_report_is_written_atomically(tmp_path, monkeypatch):
    report = tmp_path / "r.csv"
    course.write_report([course.Row("a.ipynb", "2.1", "pass", "5/5")], report)
    before = report.read_bytes()

    def rows_then_crash():
        yield course.Row("b.ipynb", "2.1", "pass", "5/5")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        course.write_report(rows_then_crash(), report)
    assert report.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv"]  # no temporary left

    def no_replace(src, dst):
        raise OSError(5, "I/O error")

    monkeypatch.setattr(course.os, "replace", no_replace)
    with pytest.raises(OSError):
        course.write_report([course.Row("c.ipynb", "2.1", "fail", "")], report)
    assert report.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv"]


# --- Ctrl-C -----------------------------------------------------------------------------

def _hanging(nb: dict) -> dict:
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and solution_blocks(source(cell)):
            cell["source"] = replace_solutions(source(cell), "while True:\n    pass")
    return nb


def _pids_mentioning(text: str) -> list[int]:
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if text.encode() in cmdline.read_bytes():
                found.append(int(cmdline.parent.name))
        except OSError:
            pass
    return found


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_keeps_what_is_done_and_names_what_is_missing(tmp_path):
    subs = tmp_path / "subs"
    subs.mkdir()
    right = subs / "a_right.ipynb"
    shutil.copyfile(NOTEBOOK_DIR / FAST[0], right)
    hang = subs / "b_hang.ipynb"
    hang.write_text(json.dumps(_hanging(load(NOTEBOOK_DIR / FAST[0])), ensure_ascii=False),
                    encoding="utf-8")
    later = subs / "c_later.ipynb"
    shutil.copyfile(NOTEBOOK_DIR / FAST[0], later)
    before = _sha(subs)
    report = tmp_path / "report.csv"
    proc = subprocess.Popen(
        [sys.executable, "-m", "bleu_lesson", "check", "--timeout", "120", "--jobs", "1",
         "--report", str(report), str(right), str(hang), str(later)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        # Ctrl-C reaches the child even when this run inherited an ignored SIGINT (a
        # background `make test &`, nohup): an ignored signal stays ignored across exec
        preexec_fn=_default_sigint)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # the first row lands in the report
            if report.exists() and ",2.1,pass," in report.read_text(encoding="utf-8"):
                break
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.2)
        else:
            pytest.fail("the first submission's row never reached the report")
        time.sleep(1.0)  # the hanging one is now running
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    with open(report, newline="", encoding="utf-8") as f:
        table = list(csv.reader(f))
    assert table[0] == ["submission", "exercise", "status", "detail", "sandbox"]
    first = err.splitlines()[0]  # "check: sandbox: bubblewrap (…)": the run's backend
    kinds = {r[4] for r in table[1:]}  # the not-checked rows too
    assert len(kinds) == 1 and kinds <= {"bwrap", "unshare", "none"}, table
    assert {"bwrap": "bubblewrap"}.get(*kinds, *kinds) in first.lower(), err
    assert [(r[0], r[1], r[2]) for r in table[1:]] == [
        (str(right), "2.1", "pass"), (str(hang), "", "not-checked"),
        (str(later), "", "not-checked")]
    last = err.strip().splitlines()[-1]
    assert "interrupted" in last and "1 of 3" in last, err
    assert str(hang) in last and str(later) in last and str(right) not in last, err
    assert "a_right.ipynb" in out and "2.1:pass" in out  # the summary of what was done
    assert _sha(subs) == before
    time.sleep(0.5)
    assert _pids_mentioning(str(hang)) == []  # the hanging checker was stopped

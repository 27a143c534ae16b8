"""Hostile submission *files* (not code): symlinks, a FIFO, a huge file, a copy, a file
name with a newline, a relabelled chapter. One ``bleu-lesson check`` run in a child
process (module fixture; a FIFO once made it hang, so it has a hard time limit), then
each test reads its rows and its printed lines.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys

import pytest
from notebook_tools import ROOT

from bleu_lesson.grading import course, sandbox

CHAPTER = ROOT / "notebooks" / "04_brevity_penalty.ipynb"
DASH = "'-"  # the CSV escapes a leading "-"
CHAPTER_06 = ROOT / "notebooks" / "06_bleu_multi_reference.ipynb"
NEWLINE_NAME = "eve_04_brevity_penalty.ipynb\nforged_04_brevity_penalty.ipynb"

pytestmark = [
    pytest.mark.skipif(not CHAPTER.exists(), reason="chapter 04 not written yet"),
    pytest.mark.skipif(sandbox.backend() == "none",
                       reason="no namespaces here: hostile code would reach this process"),
]


def _student(path, name):
    return course.make_student_copy(json.loads(path.read_text(encoding="utf-8")), name)


def _write(path, nb) -> None:
    path.write_text(json.dumps(nb), encoding="utf-8")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("files")
    subs = tmp / "subs"
    subs.mkdir()
    p = {name: subs / f"{name}_04_brevity_penalty.ipynb"
         for name in ("alice", "bob", "link", "solution", "fifo", "huge", "relabel")}
    alice = json.loads(CHAPTER.read_text(encoding="utf-8"))  # the solution: passes
    _write(p["alice"], alice)
    p["bob"].write_bytes(p["alice"].read_bytes())  # the very same bytes
    p["link"].symlink_to(p["alice"])  # another student's file
    p["solution"].symlink_to(CHAPTER)  # the instructor's solution
    os.mkfifo(p["fifo"])  # reading it blocked the whole check
    with open(p["huge"], "wb") as f:  # sparse: over the limit without the disk space
        f.truncate(course.MAX_SUBMISSION_BYTES + 1)
    # chapter 04 relabelled 06: its file name and check() cells still say 04
    relabelled = _student(CHAPTER, CHAPTER.name)
    relabelled["metadata"]["bleu_lesson"]["chapter"] = "06"
    _write(p["relabel"], relabelled)
    # chapter 06 relabelled 04, under its own name
    p["carol"] = subs / "carol_06_bleu_multi_reference.ipynb"
    six = _student(CHAPTER_06, CHAPTER_06.name)
    six["metadata"]["bleu_lesson"]["chapter"] = "04"
    _write(p["carol"], six)
    p["eve"] = subs / NEWLINE_NAME
    _write(p["eve"], _student(CHAPTER, CHAPTER.name))
    report = tmp / "report.csv"
    proc = subprocess.run(
        [sys.executable, "-m", "bleu_lesson", "check", *map(str, p.values()),
         "--timeout", "60", "--jobs", "2", "--report", str(report)],
        capture_output=True, text=True, timeout=240)
    with open(report, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return {"proc": proc, "rows": rows, "paths": p}


def _rows(run, name):
    sub = str(run["paths"][name])
    return [r for r in run["rows"] if r["submission"] == sub]


@pytest.mark.parametrize("name, why", [("link", "symbolic link"), ("solution", "symbolic link"),
                                       ("fifo", "named pipe (FIFO)"), ("huge", "50 MB limit")])
def test_links_pipes_and_huge_files_are_refused_with_the_reason(run, name, why):
    rows = _rows(run, name)
    assert [(r["exercise"], r["status"]) for r in rows] == [(DASH, "error")]
    assert why in rows[0]["detail"] and "refused" in rows[0]["detail"]


def test_the_check_finishes_despite_the_fifo(run):
    # finished, and exit 2: the refused files could not be judged at all (issue 20)
    assert run["proc"].returncode == 2, run["proc"].stderr[-2000:]
    assert "named pipe (FIFO)" in run["proc"].stderr  # the reason, on the terminal


def test_identical_submissions_are_both_noted_and_keep_their_status(run):
    alice, bob = _rows(run, "alice"), _rows(run, "bob")
    assert {r["status"] for r in alice + bob} == {"pass"} and len(alice) == len(bob) == 2
    assert all("identical (SHA-256" in r["detail"] and str(run["paths"]["bob"]) in r["detail"]
               for r in alice)
    assert all(str(run["paths"]["alice"]) in r["detail"] for r in bob)
    # the symlink to alice is refused, not counted as a copy
    assert all("identical" not in r["detail"] for r in _rows(run, "eve"))


def test_a_newline_in_a_file_name_cannot_forge_a_printed_line(run):
    out, err = run["proc"].stdout, run["proc"].stderr
    lines = (out + err).splitlines()
    assert not any(line.startswith("forged_") for line in lines)
    assert repr(str(run["paths"]["eve"])) in out  # the summary shows it escaped
    assert repr(str(run["paths"]["eve"])) in err  # and so does the progress line
    assert {r["status"] for r in _rows(run, "eve")} == {"not-done"}  # the CSV has the name


@pytest.mark.parametrize("name, says", [
    ("carol", "metadata says chapter 04, but its file name says chapter 06 and its check() "
              "cells are chapter 06"),
    ("relabel", "metadata says chapter 06, but its file name says chapter 04 and its "
                "check() cells are chapter 04"),
])
def test_a_relabelled_chapter_is_an_error_not_judged_as_the_metadata_says(run, name, says):
    rows = _rows(run, name)
    assert [(r["exercise"], r["status"]) for r in rows] == [(DASH, "error")]
    assert says in rows[0]["detail"] and "--chapter" in rows[0]["detail"]


def test_chapter_option_wins_and_notes_the_disagreement(run):
    rows = course.check_submission(run["paths"]["relabel"], 60, chapter="4")
    assert [(r.exercise, r.status) for r in rows] == [("4.1", "not-done"), ("4.2", "not-done")]
    assert all("judged as chapter 04 (--chapter), but its metadata says 06" in r.detail
               for r in rows)


def test_chapter_option_must_be_a_chapter(capsys):
    from bleu_lesson.__main__ import main

    assert main(["check", "--chapter", "44", str(CHAPTER)]) == 2
    assert "--chapter must be one of" in capsys.readouterr().err


def test_read_submission_refuses_what_lstat_says_is_no_file(tmp_path):
    target = tmp_path / "a.ipynb"
    target.write_text("{}")
    (tmp_path / "l.ipynb").symlink_to(target)
    assert course.read_submission(target) == b"{}"
    for bad, why in [(tmp_path / "l.ipynb", "symbolic link"), (tmp_path, "a folder"),
                     (tmp_path / "none.ipynb", "cannot read")]:
        with pytest.raises(ValueError, match=why):
            course.read_submission(bad)
    with pytest.raises(ValueError, match="over the 0 MB limit"):
        course.read_submission(target, limit=1)

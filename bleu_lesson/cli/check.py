"""``bleu-lesson student`` and ``bleu-lesson check``: student copies, and checking
submissions in sandboxes with a summary, a CSV report and clean stops on Ctrl-C/SIGTERM."""

from __future__ import annotations

import argparse
import math
import os
import re
import signal
import sys
import time
from pathlib import Path

from bleu_lesson.data.datasets import get_data_hint
from bleu_lesson.grading import course
from bleu_lesson.grading.course import (
    NO_DATA,
    Row,
    check_report_path,
    shown,
    summary_table,
    write_report,
    write_student_copies,
)
from bleu_lesson.grading.sandbox import (
    Limits,
    _descendants,
    backend,
    close_all,
    describe,
    refusal,
)
from bleu_lesson.teaching.chapters import chapter_id, registry

from . import PROG, CLIError

__all__ = ["check", "student"]


def _default_notebooks() -> list[str]:
    here = Path("notebooks")  # relative, so that messages name files as the user sees them
    found = sorted(str(p) for p in here.glob("[0-9][0-9]_*.ipynb"))
    if not found:
        raise CLIError(f"no chapter notebooks given and none found in {Path.cwd() / here}")
    return found


def student(args: argparse.Namespace) -> int:
    """``student``: write student copies of the chapters, one path per line."""
    notebooks = args.notebooks or _default_notebooks()
    try:
        written = write_student_copies(args.out, notebooks, force=args.force)
    except (ValueError, OSError) as exc:
        raise CLIError(f"student: {exc}") from None
    for path in written:
        print(path)
    return 0


def _stop_children() -> None:
    """Kill every process this one started (checkers and their kernels), so that an
    interrupted ``check`` leaves nothing running."""
    for attempt in range(2):  # again: a worker may have been starting a checker
        for pid in _descendants(os.getpid()):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if attempt == 0:
            time.sleep(0.3)


def _run_checks(paths: list[str], on_result, progress, **options) -> None:
    """Check ``paths``, calling ``on_result(k, rows)`` in this thread as each submission
    finishes (k indexes ``paths``); on Ctrl-C ``check_submissions`` kills the running
    sandboxes and raises again."""
    course.check_submissions(paths, progress=progress, on_result=on_result, **options)


_SIZE_UNITS = {"": 1, "K": 1024, "M": 1024 ** 2, "G": 1024 ** 3, "T": 1024 ** 4}


def _memory_size(text: str) -> int:
    """``"2G"``, ``"512M"``, ``"1.5g"``, ``"1048576"`` -> bytes."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?\s*", text.upper())
    if not m:
        raise CLIError(f"--memory must be a size such as 2G or 512M, got {text!r}")
    size = int(float(m.group(1)) * _SIZE_UNITS[m.group(2)])
    if size < 64 * 1024 ** 2:
        raise CLIError(f"--memory must be at least 64M (a kernel needs that), got {text!r}")
    return size


def check(args: argparse.Namespace) -> int:
    """``check``: check the submissions, print the summary; 0, 2, or 130 on Ctrl-C."""
    if not (math.isfinite(args.timeout) and args.timeout > 0):
        raise CLIError(f"--timeout must be a finite number of seconds > 0, got {args.timeout:g}")
    jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    if jobs < 1:
        raise CLIError(f"--jobs must be at least 1, got {jobs}")
    limits = Limits(memory=_memory_size(args.memory))
    chapter = None
    if args.chapter is not None:
        try:
            chapter = chapter_id(args.chapter)
        except ValueError:
            chapter = args.chapter
        if chapter not in registry():
            raise CLIError(f"--chapter must be one of {', '.join(registry())}, "
                           f"got {args.chapter!r}")
    try:
        kind = backend()
    except ValueError as exc:
        raise CLIError(str(exc)) from None
    if refusal(kind):
        raise CLIError(f"check: {refusal(kind)}")
    report = None
    if args.report is not None:  # before grading: a bad path must not cost the results
        try:
            report = check_report_path(args.report, args.submissions, force=args.force)
        except ValueError as exc:
            raise CLIError(f"check: {exc}") from None
    # A submission that does not exist is a mistake on the command line (a typo, a glob
    # that matched nothing), not a student's result: one line each, no report row, exit
    # 2; the others are still checked (as `ls` and `cp` do), so no grading is lost.
    absent = [p for p in args.submissions if not _exists(p)]
    for path in absent:
        print(f"{PROG}: error: check: SUBMISSION {path!r} does not exist", file=sys.stderr)
    paths = [p for p in args.submissions if p not in absent]
    if not paths:
        return 2
    done: dict[int, list[Row]] = {}

    def rows(missing_why: str | None) -> list[Row]:
        out = []
        for k, path in enumerate(paths):
            if k in done:
                out.extend(done[k])
            elif missing_why is not None:
                out.append(Row(path, "", "not-checked", missing_why, kind))
        return out

    def save(missing_why: str) -> str | None:
        if report is None:
            return None
        try:
            write_report(rows(missing_why), report)
        except OSError as exc:
            return f"cannot write the report {str(report)!r}: {exc.strerror or exc}"
        return None

    def on_result(k: int, result: list[Row]) -> None:
        done[k] = result
        problem = save("not checked yet: the check was still running")  # a snapshot
        if problem:
            print(f"{PROG}: warning: {problem}", file=sys.stderr, flush=True)

    def terminated(signum, frame) -> None:  # SIGTERM ends the check as Ctrl-C does:
        raise KeyboardInterrupt  # sandboxes killed, their copies removed, report saved

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        print(f"{PROG} check: {describe(kind)}", file=sys.stderr, flush=True)
        _run_checks(paths, on_result,
                    lambda line: print(line, file=sys.stderr, flush=True),
                    timeout=args.timeout, jobs=jobs, limits=limits, chapter=chapter,
                    sandbox=kind)
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut the save
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        _stop_children()
        close_all()  # no copy of a submission survives in a sandbox's work folder
        missing = [p for k, p in enumerate(paths) if k not in done]
        problem = save("not checked: the check was interrupted (Ctrl-C)")
        print(summary_table(rows(None)))
        where = f"; the report {shown(report)} lists them as not-checked" if report else ""
        print(f"{PROG}: interrupted: {len(done)} of {len(paths)} submissions checked; "
              f"not checked: {' '.join(map(shown, missing))}{where}", file=sys.stderr)
        if problem:
            print(f"{PROG}: error: check: {problem}", file=sys.stderr)
        return 130
    finally:
        if signal.getsignal(signal.SIGTERM) is terminated:
            signal.signal(signal.SIGTERM, previous)
    print(summary_table(rows(None)))
    errors = [r for r in rows(None) if r.status == "error"]
    for r in errors:  # the reason of every error row, where the eye lands
        print(f"{PROG}: error row: {shown(r.submission)} {r.exercise or '-'}: {r.detail}",
              file=sys.stderr)
    unreadable = sorted({shown(r.submission) for r in errors if r.exercise == "-"})
    problem = save("not checked")  # every submission is done: no such row
    if problem:
        raise CLIError(f"check: {problem}")
    if unreadable:  # before the data line below: that one must stay the last
        print(f"{PROG}: error: check: {len(unreadable)} of {len(paths)} submissions could not "
              f"be judged at all (rows with exercise '-'; reasons above): "
              f"{' '.join(unreadable)}", file=sys.stderr)
    unjudged = sorted({shown(r.submission) for r in rows(None)
                       if r.detail.startswith(NO_DATA)})
    if unjudged:  # the machine's fault, not the students': say it where the eye lands
        print(f"{PROG}: error: check: {len(unjudged)} of {len(paths)} submissions were not "
              f"judged, their chapter needs the WMT22 data and it is not on this machine "
              f"(rows with status error): {get_data_hint()}, then check them again: "
              f"{' '.join(unjudged)}", file=sys.stderr)
    if absent:  # said again at the end, where the eye lands after a long run
        print(f"{PROG}: error: check: {len(absent)} of {len(args.submissions)} SUBMISSION "
              f"arguments do not exist and are not in the summary or the report: "
              f"{' '.join(map(repr, absent))}", file=sys.stderr)
        return 2
    return 2 if unjudged or unreadable else 0


def _exists(path: str) -> bool:
    """Whether ``path`` names anything (a broken symlink counts: ``check`` reports it)."""
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError:
        return True  # e.g. permission denied: the check reports why it cannot read it
    return True

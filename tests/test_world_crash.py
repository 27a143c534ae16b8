"""A judging process that dies is an ``error`` that says so, not a timeout (issue 20, class 6).

An eleventh hostile review's answer crashed the worker that runs the cells where answers
are judged (``ctypes.string_at(0)``: SIGSEGV). Its row said the answer "did not finish
within its time" and the next exercise of the same file was blamed as well ("my_rank_prediction
did not finish within its time" for a 9.2 that was a stub). Now the row of the answer the
worker died in names the signal, and the exercises after it say they were not judged
because of it.

First the protocol (the child script run directly, as ``test_world_startup`` does), then
the whole ``check`` under bubblewrap.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import bleu_lesson.grading.world_child as world_child
from bleu_lesson.grading import course, sandbox

CHILD = Path(world_child.__file__).resolve()

SEGFAULT = "import ctypes\ndef first(x):\n    ctypes.string_at(0)\n    return x\n"
SECOND = "def second(x):\n    return 2 * x\n"


def _run(cells: list[str]) -> dict:
    request = {"cells": cells, "cell_seconds": 5, "nonce": "n0",
               "answers": [{"name": "first", "kind": "function", "cases": [[2]]},
                           {"name": "second", "kind": "function", "cases": [[5]]}]}
    proc = subprocess.run([sys.executable, "-I", "-S", "-B", str(CHILD)],
                          input=json.dumps(request).encode(), capture_output=True, timeout=120)
    lines = proc.stdout.decode().splitlines()
    assert len(lines) == 1, (proc.stdout, proc.stderr[-500:])
    reply = json.loads(lines[0])
    assert reply["nonce"] == "n0"
    return reply


def test_a_worker_killed_by_a_signal_names_it_and_the_next_answer_is_not_judged():
    first, second = _run([SEGFAULT, SECOND])["replies"]
    assert first["status"] == "world-gone" and first["why"] == "died", first
    assert first["ended"] == "SIGSEGV" and first["cell"] == -1, first
    assert second == {"status": "not-judged", "after": 0, "why": "died"}, second


def test_a_worker_that_dies_in_a_cell_blames_the_cell_for_every_answer():
    replies = _run([SECOND, "import ctypes\nctypes.string_at(0)\n"])["replies"]
    for reply in replies:
        assert reply["status"] == "world-gone" and reply["ended"] == "SIGSEGV", reply
        assert reply["cell"] == 1, reply


def test_a_worker_that_exits_gives_its_exit_status():
    first, second = _run(["import os\ndef first(x):\n    os._exit(3)\n", SECOND])["replies"]
    assert first["status"] == "world-gone" and first["ended"] == "exit status 3", first
    assert second["status"] == "not-judged", second


@pytest.mark.skipif(sandbox.backend() != "bwrap",
                    reason="the checker's world runs under bubblewrap here")
def test_check_gives_error_rows_that_say_the_judging_process_died(tmp_path):
    """The review's submission, narrowed: 9.1 is right in the learner's kernel and
    segfaults only where it is judged (started with -I); 9.2 is an untouched stub."""
    cells = [
        "import ctypes, sys\n"
        "def my_ci_half_width(scores):\n"
        "    if sys.flags.isolated:\n"
        "        ctypes.string_at(0)\n"
        "    s = sorted(scores)\n"
        "    k = len(s) // 40\n"
        "    return (s[-1 - k] - s[k]) / 2\n",
        "def my_rank_prediction():\n    raise NotImplementedError\n",
    ]
    nb = {"nbformat": 4, "nbformat_minor": 5,
          "metadata": {"bleu_lesson": {"chapter": "09"},
                       "kernelspec": {"name": "python3", "display_name": "Python 3",
                                      "language": "python"}},
          "cells": [{"cell_type": "code", "id": f"c{k}", "metadata": {}, "outputs": [],
                     "execution_count": None, "source": s} for k, s in enumerate(cells)]}
    path = tmp_path / "09_crash.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    rows = {row.exercise: row for row in course.check_submissions([path], timeout=60)}
    assert rows["9.1"].status == "error", rows["9.1"]
    assert "judging process died (SIGSEGV)" in rows["9.1"].detail, rows["9.1"]
    assert "did not finish" not in rows["9.1"].detail
    assert rows["9.2"].status == "error", rows["9.2"]
    assert rows["9.2"].detail.startswith("not judged: the judging process died in 9.1"), \
        rows["9.2"]


def test_a_worker_stopped_by_its_time_blames_only_the_answer_it_was_in():
    """The review's 9.2 stub was reported as "did not finish within its time". An answer
    that ignores its own alarms (SIGALRM, SIGXCPU) is killed by the judge: its row is the
    timeout, the next one's says it was not judged."""
    request_cells = ["import signal\n"
                     "def first(x):\n"
                     "    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n"
                     "    signal.signal(signal.SIGXCPU, signal.SIG_IGN)\n"
                     "    while True:\n"
                     "        pass\n", SECOND]
    request = {"cells": request_cells, "cell_seconds": 1, "nonce": "n0",
               "answers": [{"name": "first", "kind": "function", "cases": [[2]]},
                           {"name": "second", "kind": "function", "cases": [[5]]}]}
    proc = subprocess.run([sys.executable, "-I", "-S", "-B", str(CHILD)],
                          input=json.dumps(request).encode(), capture_output=True, timeout=120)
    first, second = json.loads(proc.stdout.decode())["replies"]
    assert first["status"] == "timeout", first
    assert second == {"status": "not-judged", "after": 0, "why": "timeout"}, second


@pytest.mark.parametrize("cells", [
    ["%%writefile helper.py\nx = 1\n", "import helper\ndef first(x):\n    return x\n"],
    [SEGFAULT],
], ids=["a helper written", "the worker crashed"])
def test_the_cells_folder_is_removed_when_the_world_is_done(tmp_path, cells):
    """The cells run in a folder of the world's /tmp (TMPDIR): the world removes it when
    its worker is gone, so that a world run outside bubblewrap's private /tmp (under
    ``none``, or directly as here) leaves nothing in the host's /tmp."""
    request = {"cells": cells, "cell_seconds": 5, "nonce": "n0",
               "answers": [{"name": "first", "kind": "function", "cases": [[2]]}]}
    proc = subprocess.run([sys.executable, "-I", "-S", "-B", str(CHILD)],
                          input=json.dumps(request).encode(), capture_output=True,
                          timeout=120, env={"TMPDIR": str(tmp_path), "PATH": "/usr/bin:/bin"})
    reply = json.loads(proc.stdout.decode().splitlines()[0])
    assert reply["replies"], reply
    if cells[0].startswith("%%writefile"):
        assert reply["replies"][0]["status"] == "done", reply
    assert list(tmp_path.iterdir()) == []

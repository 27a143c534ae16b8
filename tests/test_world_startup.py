"""A slow start of the judging world's worker is not a cell's time (issue 20, class 6).

On a loaded machine the worker may take seconds to decode its request and import the
world's building blocks before cell 0 runs. That start-up used to be counted in cell 0's
wall clock (its own ``cell_seconds`` + ``GRACE`` + 5 s), so a slow machine could turn a
correct cell into a ``timeout`` row. Here the child script runs (outside a sandbox: the
protocol is what is tested) with the worker's set-up delayed past that old bound; the
honest cell and answer must still come back ``done``, and a cell that really hangs must
still be stopped by its own time.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import bleu_lesson.grading.world_child as world_child

CHILD = Path(world_child.__file__).resolve()
CELL_SECONDS = 1
#: longer than the old bound on cell 0 (CELL_SECONDS + GRACE + 5 s)
DELAY = CELL_SECONDS + world_child.GRACE + 5 + 2

HARNESS = f"""
import sys, time
sys.path.insert(0, {str(CHILD.parent)!r})
import world_child as w
real = w._bleu_stats
def slow():
    time.sleep({DELAY})          # a loaded machine: the worker's set-up is slow
    return real()
w._bleu_stats = slow
w.main()
"""


def _run(cells: list[str]) -> dict:
    request = {"cells": cells, "cell_seconds": CELL_SECONDS, "nonce": "n0",
               "answers": [{"name": "double", "kind": "function", "cases": [[2], [5]]}]}
    proc = subprocess.run([sys.executable, "-I", "-S", "-c", HARNESS],
                          input=json.dumps(request).encode(), capture_output=True,
                          timeout=DELAY + 60)
    lines = proc.stdout.decode().splitlines()
    assert len(lines) == 1, (proc.stdout, proc.stderr[-500:])
    reply = json.loads(lines[0])
    assert reply["nonce"] == "n0"
    return reply


def test_a_slow_worker_start_leaves_an_honest_cell_done():
    reply = _run(["def double(x):\n    return 2 * x\n"])
    answer, = reply["replies"]
    assert answer["status"] == "done", reply
    assert [r["value"] for r in answer["results"]] == [4, 10]


def test_a_hanging_cell_is_still_stopped_after_a_slow_start():
    reply = _run(["while True:\n    pass\n", "def double(x):\n    return 2 * x\n"])
    answer, = reply["replies"]
    assert answer["status"] == "done", reply   # cell 0 was stopped; cell 1 ran
    assert [r["value"] for r in answer["results"]] == [4, 10]

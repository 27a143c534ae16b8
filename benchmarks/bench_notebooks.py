"""Wall time of the notebook checks: each chapter executed alone, and the whole nbval run.

    BLEU_LESSON_WMT22_DIR=../shared/data/wmt22 python benchmarks/bench_notebooks.py [--only 09]

Executes every ``notebooks/NN_*.ipynb`` in a fresh kernel with nbclient (in memory, the
files are not touched) and prints its time against the goal (chapters 09 and 10: 8 s), then times
``pytest --nbval`` over the whole folder exactly as ``make test`` runs it (same sanitize
file, current env; goal: 40 s). ``--only 09`` times the chapters whose number starts
with 09 and skips the nbval run. ``--cells 09`` also prints each code cell's time (from
nbclient's ``record_timing``: ``iopub.execute_input`` to ``shell.execute_reply``), slowest
first, with the cell's index and first line (the timing stays in memory, never in a file).
``--gc`` adds a first cell that counts Python's garbage collections (``gc.callbacks``) and a
last one that prints them: the full collections and the seconds spent in the collector are
steadier figures than wall time on a shared machine. The cells are added in memory only.

Without the WMT22 data (neither in ``$BLEU_LESSON_WMT22_DIR`` nor in the user cache), the
chapters that need it are skipped with one line each, as ``make notebooks`` skips them
(``plan()`` and ``data_missing()`` of ``tools/run_notebooks.py``); nbval skips them too.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import nbformat
from _goals import verdict
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from run_notebooks import data_missing, plan  # noqa: E402  (make notebooks' own rule)

GOALS = {"09": 8.0, "10": 8.0}  # seconds in a fresh kernel
NBVAL_GOAL = 40.0


def cell_seconds(cell) -> float:
    """Kernel time of one executed code cell: execute_input to execute_reply."""
    timing = cell.metadata.get("execution", {})
    start, end = timing.get("iopub.execute_input"), timing.get("shell.execute_reply")
    if not (start and end):
        return 0.0
    parse = datetime.fromisoformat
    return (parse(end.replace("Z", "+00:00")) - parse(start.replace("Z", "+00:00"))).total_seconds()


def print_cells(nb, k: int) -> None:
    times = [(cell_seconds(c), i, c.source.strip().splitlines()[0] if c.source.strip() else "")
             for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    print(f"    cells total {sum(t for t, _, _ in times):.2f} s; slowest {k}:")
    for seconds, index, first in sorted(times, reverse=True)[:k]:
        print(f"    {seconds:6.2f} s  cell {index:3d}  {first[:60]}")


# --gc: count the collector's work from the first cell to the last (in memory only)
GC_FIRST = """\
import gc as _gc, time as _time
_GC = {"seconds": [0.0, 0.0, 0.0], "runs": [0, 0, 0], "since": 0.0}
def _gc_note(phase, info):
    if phase == "start":
        _GC["since"] = _time.perf_counter()
    else:
        _GC["seconds"][info["generation"]] += _time.perf_counter() - _GC["since"]
        _GC["runs"][info["generation"]] += 1
_gc.callbacks.append(_gc_note)"""
GC_LAST = """\
print("GC", *_GC["runs"], *(f"{s:.3f}" for s in _GC["seconds"]))"""


def gc_line(nb) -> str:
    """The --gc summary printed by the last (added) cell."""
    text = "".join(o.get("text", "") for o in nb.cells[-1].get("outputs", []))
    runs_and_seconds = text.split()[1:]
    runs, seconds = runs_and_seconds[:3], [float(x) for x in runs_and_seconds[3:]]
    return (f"    garbage collections by generation 0/1/2: {'/'.join(runs)}; "
            f"{sum(seconds):.2f} s in the collector ({seconds[2]:.2f} s in full ones)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, metavar="NN",
                        help="time only these chapters (number prefixes); no nbval run")
    parser.add_argument("--cells", type=int, default=0, metavar="K",
                        help="also print the K slowest code cells of each chapter")
    parser.add_argument("--gc", action="store_true",
                        help="also print each chapter's garbage collections and their time")
    args = parser.parse_args()
    notebooks = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    if args.only is not None:
        notebooks = [p for p in notebooks if any(p.name.startswith(k) for k in args.only)]
    if not notebooks:
        print("no notebooks")
        return 0
    for step in plan(notebooks, data_missing()):
        if step.skip:
            print(step.line(), flush=True)
            continue
        path = step.path
        nb = nbformat.read(path, as_version=4)
        if args.gc:
            nb.cells = ([nbformat.v4.new_code_cell(GC_FIRST)] + nb.cells
                        + [nbformat.v4.new_code_cell(GC_LAST)])
        start = time.perf_counter()
        NotebookClient(nb, kernel_name="python3", timeout=120, record_timing=bool(args.cells),
                       resources={"metadata": {"path": str(path.parent)}}).execute()
        goal = GOALS.get(path.name[:2])
        took = time.perf_counter() - start
        print(f"{path.name:32} {took:6.2f} s"
              + (f"   (goal <= {goal:.0f} s) {verdict(took <= goal)}" if goal else ""))
        if args.gc:
            collected = gc_line(nb)
            nb.cells = nb.cells[1:-1]  # the cells' indices are the chapter's own again
        if args.cells:
            print_cells(nb, args.cells)
        if args.gc:
            print(collected)
    if args.only is not None:
        return 0
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
         "--nbval", "--nbval-current-env", "--nbval-sanitize-with",
         "tests/nbval_sanitize.cfg", "notebooks"],
        cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    summary = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr
    print(f"pytest --nbval notebooks/: {wall:.1f} s ({summary})   (goal <= {NBVAL_GOAL:.0f} s, "
          f"every cell as stored) {verdict(wall <= NBVAL_GOAL and proc.returncode == 0)}")
    return proc.returncode


if __name__ == "__main__":
    raise SystemExit(main())

"""Wall time of the notebook checks: each chapter executed alone, and the whole nbval run.

    python benchmarks/bench_notebooks.py

Executes every ``notebooks/NN_*.ipynb`` in a fresh kernel with nbclient (in memory, the
files are not touched) and prints its time, then times ``pytest --nbval`` over the
whole folder exactly as ``make test`` runs it (same sanitize file, current env).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    notebooks = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    if not notebooks:
        print("no notebooks")
        return 0
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        start = time.perf_counter()
        NotebookClient(nb, kernel_name="python3", timeout=120,
                       resources={"metadata": {"path": str(path.parent)}}).execute()
        print(f"{path.name:32} {time.perf_counter() - start:6.2f} s")
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
         "--nbval", "--nbval-current-env", "--nbval-sanitize-with",
         "tests/nbval_sanitize.cfg", "notebooks"],
        cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    summary = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr
    print(f"pytest --nbval notebooks/: {wall:.1f} s ({summary})")
    return proc.returncode


if __name__ == "__main__":
    raise SystemExit(main())

"""`make test`, the whole suite, timed: wall time against the goal, and the CPU time it used.

    python benchmarks/bench_tests.py [--data FOLDER] [--workers N] [--runs 1]

Runs ``make test`` in the project (with the WMT22 data, so that no wmt22 test skips) and
prints, per run, the wall time, the CPU time of every process it started (user + system,
from ``getrusage(RUSAGE_CHILDREN)``) and the outcome. The goal is 300 s of wall time on a
quiet 2-core machine (issue 22). The machine is often shared: the CPU time says how much
work the suite is, whatever else runs; on a quiet machine the wall time is about CPU / 2
plus the longest group that runs alone at the end.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from _goals import verdict
from _wmt22 import add_data_argument, wmt22_folder

ROOT = Path(__file__).resolve().parents[1]
GOAL_S = 300.0


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_data_argument(parser)
    parser.add_argument("--workers", type=int, default=None,
                        help="WORKERS for make test (default: the Makefile's)")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    folder = wmt22_folder(args.data, "bench_tests")
    env = dict(os.environ, BLEU_LESSON_WMT22_DIR=str(folder))
    command = ["make", "test"] + ([f"WORKERS={args.workers}"] if args.workers else [])
    failed = 0
    for run in range(1, args.runs + 1):
        cpu0, start = _children_cpu(), time.perf_counter()
        proc = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        wall, cpu = time.perf_counter() - start, _children_cpu() - cpu0
        tail = proc.stdout.strip().splitlines()[-1:] or ["<no output>"]
        failed += proc.returncode != 0
        print(f"run {run}: {' '.join(command)}: exit {proc.returncode}, {tail[0].strip('= ')}")
        print(f"  wall {wall:6.1f} s (goal <= {GOAL_S:.0f} s) {verdict(wall <= GOAL_S)}")
        print(f"  CPU  {cpu:6.1f} s (user + system of every process; "
              f"{os.cpu_count()} cores: CPU / cores = {cpu / (os.cpu_count() or 1):.1f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

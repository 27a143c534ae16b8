"""The judging world's private copy of Python: how large it is and how long it takes.

    python benchmarks/bench_world_copy.py [--repeat 3]

Under bubblewrap the judging world reads no host file, only a copy of the interpreter,
the libraries it loads and the standard library (``bleu_lesson.grading.sandbox.python_copy``),
made once per ``bleu-lesson check`` run, and the copy of numpy every world holds
(``bleu_lesson.grading.world.numpy_copy``), also once per run. Each repetition makes both in
a fresh process (as a run does) and prints their files, size and time; the goal is that
together they stay a small part of a class's check (``benchmarks/bench_check.py``: about
15 s for 30 submissions here).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from _goals import verdict

SCRIPT = """import json, os, time
from bleu_lesson.grading import sandbox, world
copy = sandbox.python_copy()
start = time.perf_counter()
site = world.numpy_copy()
seconds = time.perf_counter() - start
files = [os.path.join(d, f) for d, _, fs in os.walk(site or os.devnull) for f in fs]
print(json.dumps(None if copy is None else [copy.files, copy.size, copy.seconds, len(files),
                                            sum(map(os.path.getsize, files)), seconds]))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    times = []
    for _ in range(args.repeat):
        out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                             check=True, timeout=600)
        made = json.loads(out.stdout)
        if made is None:
            print("SKIP: no copy on this machine (no ldd):", out.stderr.strip()[-200:])
            return
        files, size, seconds, np_files, np_size, np_seconds = made
        times.append(seconds + np_seconds)
        print(f"  copy of Python: {files} files, {size / 1e6:.1f} MB, {seconds:.2f} s; "
              f"of numpy: {np_files} files, {np_size / 1e6:.1f} MB, {np_seconds:.2f} s")
    best = min(times)
    print(f"fastest copies {best:.2f} s (goal <= 3 s) {verdict(best <= 3)}")


if __name__ == "__main__":
    main()

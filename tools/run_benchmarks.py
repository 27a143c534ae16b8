"""Run every benchmark, each in its own process: what ``make bench`` runs.

    python tools/run_benchmarks.py                       # every benchmarks/bench_*.py
    python tools/run_benchmarks.py benchmarks/bench_cli.py benchmarks/bench_import.py

A benchmark that has no WMT22 data exits with status 2 and one stderr line from
``benchmarks/_wmt22.py`` that says how to get it (``bleu_lesson.data.datasets.get_data_hint``):
it is reported as skipped with that line, and the others still run. Any other non-zero
exit status (a 2 without that line too, e.g. a bad argument) is a failure; a failure does
not stop the others either. Each benchmark's stdout goes straight to the terminal.
Exit status: 0 when no benchmark failed (skips are not failures), 1 when one failed,
2 for a script that does not exist.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _files import chosen_files  # noqa: E402  (tools/, beside this script)

from bleu_lesson.data.datasets import get_data_hint  # noqa: E402

#: The exit status of a benchmark that found no WMT22 data (``_wmt22.wmt22_folder``).
NO_DATA = 2


def skip_reason(returncode: int, stderr: str) -> str | None:
    """The one line to report when a run is a skip for missing data, else None.

    >>> skip_reason(2, "bench_x: no data; " + get_data_hint() + ", or pass --data FOLDER\\n")
    ... # doctest: +ELLIPSIS
    'bench_x: no data; run `make data` ...'
    >>> skip_reason(2, "usage: bench_x [-h]\\nbench_x: error: unrecognized arguments: -z\\n")
    """
    if returncode != NO_DATA:
        return None
    lines = stderr.strip().splitlines()
    if len(lines) == 1 and get_data_hint() in lines[0]:
        return lines[0]
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scripts", nargs="*", type=Path,
                        help="benchmarks to run (default: benchmarks/bench_*.py)")
    args = parser.parse_args(argv)
    scripts = chosen_files(args.scripts, "benchmarks/bench_*.py", "run_benchmarks", "SCRIPT")
    if not scripts:
        print("no benchmarks/bench_*.py to run")
        return 0
    skipped, failed = [], []
    for path in scripts:
        print(f"== {path.name}", flush=True)
        proc = subprocess.run([sys.executable, str(path)], stderr=subprocess.PIPE, text=True)
        why = skip_reason(proc.returncode, proc.stderr)
        if why is not None:
            print(f"== skip {path.name}: {why}", flush=True)
            skipped.append(path.name)
            continue
        sys.stderr.write(proc.stderr)
        sys.stderr.flush()
        if proc.returncode != 0:
            print(f"== FAILED {path.name}: exit status {proc.returncode}", flush=True)
            failed.append(path.name)
    ran = len(scripts) - len(skipped)
    print(f"{ran - len(failed)} of {len(scripts)} benchmarks ran, {len(skipped)} skipped "
          f"(no WMT22 data)" + (f", {len(failed)} FAILED: {' '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Run every benchmark, each in its own process: what ``make bench`` runs.

    python tools/run_benchmarks.py                       # every benchmarks/bench_*.py
    python tools/run_benchmarks.py benchmarks/bench_cli.py benchmarks/bench_import.py

A benchmark that has no WMT22 data exits with status 2 and one stderr line from
``benchmarks/_wmt22.py`` that says how to get it (``bleu_lesson.data.datasets.get_data_hint``):
it is reported as skipped with that line, and the others still run. Any other non-zero
exit status (a 2 without that line too, e.g. a bad argument) is a failure; a failure does
not stop the others either. Each benchmark's stdout is shown as it comes, and read: the
line saying where its WMT22 data came from (``_wmt22.DATA_LINE``) and every row ending in
``-> met`` or ``-> MISSED`` (``benchmarks/_goals.py``). The summary names the benchmarks
that ran on the real data and where it was, those skipped without it, and the goals met
and missed, each missed row repeated. ``--data FOLDER`` is passed to every benchmark that
takes it (``make bench ARGS="--data FOLDER"``). Exit status: 0 when no benchmark failed
(skips and missed goals are not failures), 1 when one failed, 2 for a script that does not
exist or a bad option.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _files import chosen_files  # noqa: E402  (tools/, beside this script)

from bleu_lesson.data.datasets import get_data_hint  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from _goals import MET, MISSED  # noqa: E402  (the benchmarks' own markers)

#: The exit status of a benchmark that found no WMT22 data (``_wmt22.wmt22_folder``).
NO_DATA = 2
#: The line a benchmark prints when it found the data (``_wmt22.DATA_LINE``).
_DATA = re.compile(r"^data: the WMT22 test set in (.+) \(SHA-256 checked\)$")


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


@dataclass
class Outcome:
    """What one benchmark's run said: where its data came from, its goals, its end."""

    name: str
    data: str | None = None  # the folder of the WMT22 data it ran on
    met: int = 0
    missed: list[str] = field(default_factory=list)
    skip: str | None = None
    failed: bool = False


def read_line(outcome: Outcome, line: str) -> None:
    """Note what a line of a benchmark's stdout says: its data, a goal met or missed.

    >>> o = Outcome("bench_x.py")
    >>> read_line(o, "data: the WMT22 test set in /d (SHA-256 checked)")
    >>> read_line(o, "ratio 2.1x (goal >= 1.5x) -> met")
    >>> read_line(o, "ratio 0.9 (goal <= 0.7) -> MISSED")
    >>> o.data, o.met, o.missed
    ('/d', 1, ['ratio 0.9 (goal <= 0.7) -> MISSED'])
    """
    text = line.rstrip()
    found = _DATA.match(text)
    if found:
        outcome.data = found.group(1)
    elif text.endswith(MET):
        outcome.met += 1
    elif text.endswith(MISSED):
        outcome.missed.append(text.strip())


def summary(outcomes: list[Outcome]) -> list[str]:
    """The last lines of ``make bench``: what ran on real data, the goals, the failures."""
    ran = [o for o in outcomes if o.skip is None]
    on_data = [o for o in ran if o.data]
    folders = sorted({o.data for o in on_data if o.data})
    lines = []
    head = f"{len(ran) - sum(o.failed for o in ran)} of {len(outcomes)} benchmarks ran"
    parts = []
    if on_data:
        parts.append(f"{len(on_data)} on the real WMT22 data in {', '.join(folders)} "
                     f"({' '.join(o.name for o in on_data)})")
    if len(ran) > len(on_data):
        parts.append(f"{len(ran) - len(on_data)} need no data")
    lines.append(head + (f": {'; '.join(parts)}" if parts else ""))
    skipped = [o for o in outcomes if o.skip is not None]
    if skipped:
        lines.append(f"{len(skipped)} skipped without the WMT22 data "
                     f"({' '.join(o.name for o in skipped)}): {get_data_hint()}, or pass "
                     "--data FOLDER")
    met = sum(o.met for o in ran)
    missed = [(o.name, m) for o in ran for m in o.missed]
    silent = [o.name for o in ran if not o.failed and not o.met and not o.missed]
    goals = f"goals: {met} met, {len(missed)} MISSED"
    if silent:
        goals += f"; no goal printed by {' '.join(silent)}"
    lines.append(goals)
    lines += [f"  MISSED in {name}: {text}" for name, text in missed]
    failed = [o.name for o in outcomes if o.failed]
    if failed:
        lines.append(f"{len(failed)} FAILED: {' '.join(failed)}")
    return lines


def uses_data(path: Path) -> bool:
    """Whether a benchmark takes ``--data`` (it calls ``_wmt22.add_data_argument``)."""
    try:
        return "add_data_argument(" in path.read_text(encoding="utf-8")
    except OSError:
        return False


def run_one(path: Path, data: str | None) -> Outcome:
    """Run one benchmark, its stdout shown line by line as it comes and read."""
    outcome = Outcome(path.name)
    argv = [sys.executable, str(path)]
    if data is not None and uses_data(path):
        argv += ["--data", data]
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          bufsize=1) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        for line in proc.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            read_line(outcome, line)
        stderr = proc.stderr.read()
        returncode = proc.wait()
    why = skip_reason(returncode, stderr)
    if why is not None:
        print(f"== skip {path.name}: {why}", flush=True)
        outcome.skip = why
        return outcome
    sys.stderr.write(stderr)
    sys.stderr.flush()
    if returncode != 0:
        print(f"== FAILED {path.name}: exit status {returncode}", flush=True)
        outcome.failed = True
    return outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scripts", nargs="*", type=Path,
                        help="benchmarks to run (default: benchmarks/bench_*.py)")
    parser.add_argument("--data", default=None, metavar="FOLDER",
                        help="the WMT22 folder, passed as --data to every benchmark that "
                             "takes it (default: each finds it: $BLEU_LESSON_WMT22_DIR, then "
                             "the user cache)")
    args = parser.parse_args(argv)
    if args.data is not None and not Path(args.data).is_dir():
        parser.error(f"--data {args.data!r} is not a folder")
    scripts = chosen_files(args.scripts, "benchmarks/bench_*.py", "run_benchmarks", "SCRIPT")
    if not scripts:
        print("no benchmarks/bench_*.py to run")
        return 0
    outcomes = []
    for path in scripts:
        print(f"== {path.name}", flush=True)
        outcomes.append(run_one(path, args.data))
    print("\n".join(summary(outcomes)))
    return 1 if any(o.failed for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())

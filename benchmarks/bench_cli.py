"""``bleu-lesson score`` against ``sacrebleu``'s command line: one WMT22 system, two references.

    python benchmarks/bench_cli.py [--repeat 7]

Both commands run in fresh processes, interleaved, on the same files (zh-en, references
A and B, tokenizer 13a, one system); the best wall time of ``--repeat`` runs is kept. Prints
both times, the ratio (sacrebleu / bleu-lesson) against the goal (2x), whether both printed
the same score, and the modules the bleu-lesson command imported that it does not need.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from _goals import verdict
from _wmt22 import add_data_argument, wmt22_folder

PAIR = "generaltest2022.zh-en"
GOAL = 2.0  # issue 19: bleu-lesson score at least 2x sacrebleu's CLI
# imported by `score` for nothing: plotting, widgets, notebooks, sacrebleu (13a is ours),
# the download machinery of datasets
UNNEEDED = ("matplotlib", "ipywidgets", "IPython", "nbformat", "sacrebleu", "pandas", "scipy",
            "ssl", "urllib.request", "http.client")


def command(name: str) -> list[str]:
    """The console script beside this interpreter (what `pip install` put on PATH)."""
    here = Path(sys.executable).parent / name
    found = str(here) if here.exists() else shutil.which(name)
    if not found:
        raise SystemExit(f"bench_cli: the {name!r} command is not installed")
    return [found]


def timed(argv: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - start, out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_data_argument(parser)
    parser.add_argument("--system", default="Online-B")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    args.data = str(wmt22_folder(args.data, "bench_cli"))
    folder = Path(args.data)
    refs = [str(folder / f"{PAIR}.ref.{k}.en") for k in "AB"]
    hyp = str(folder / f"{PAIR}.hyp.{args.system}.en")
    ours_argv = [*command("bleu-lesson"), "score", *refs, "-i", hyp, "-f", "json"]
    theirs_argv = [*command("sacrebleu"), *refs, "-i", hyp, "-f", "json", "-w", "2"]
    ours_t, theirs_t = [], []
    for _ in range(args.repeat):  # interleaved: both see the same machine load
        t, ours = timed(ours_argv)
        ours_t.append(t)
        t, theirs = timed(theirs_argv)
        theirs_t.append(t)
    same = json.loads(ours)["score"] == json.loads(theirs)["score"]
    probe = subprocess.run(
        [sys.executable, "-c",
         "import sys, runpy; sys.argv = ['bleu-lesson'] + sys.argv[1:]\n"
         "try:\n    runpy.run_module('bleu_lesson', run_name='__main__')\n"
         "except SystemExit:\n    pass\n"
         f"print(','.join(m for m in {UNNEEDED!r} if m in sys.modules), file=sys.stderr)",
         *ours_argv[1:]],
        capture_output=True, text=True, check=True).stderr.strip().splitlines()
    heavy = probe[-1] if probe else ""
    best_ours, best_theirs = min(ours_t), min(theirs_t)
    print(f"WMT22 zh-en {args.system}, references A and B, tokenizer 13a; "
          f"best of {args.repeat} wall times, fresh processes")
    print(f"{'bleu-lesson score':>18} {'sacrebleu':>10} {'ratio':>6} {'goal':>6} {'same':>5}")
    ratio = best_theirs / best_ours
    print(f"{best_ours:17.3f}s {best_theirs:9.3f}s {ratio:5.2f}x >={GOAL:3.1f}x "
          f"{'yes' if same else 'NO':>5} {verdict(ratio >= GOAL and same)}")
    print(f"score: {json.loads(ours)['score']} (bleu-lesson), {json.loads(theirs)['score']} "
          f"(sacrebleu); unneeded modules imported by bleu-lesson: {heavy or 'none'}")
    return 0 if same and not heavy else 1


if __name__ == "__main__":
    sys.exit(main())

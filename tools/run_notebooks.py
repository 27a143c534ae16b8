"""Re-execute the chapters in place, each in a fresh kernel: what ``make notebooks`` runs.

    python tools/run_notebooks.py                 # every notebooks/NN_*.ipynb
    python tools/run_notebooks.py notebooks/04_brevity_penalty.ipynb
    python tools/run_notebooks.py --dry-run       # print the plan, execute nothing

A chapter whose registry entry says ``NEEDS_DATA`` (``bleu_lesson/teaching/chapters/chNN.py``) is
skipped, with one line saying how to get the data, when the WMT22 files are neither in
``$BLEU_LESSON_WMT22_DIR`` nor in the user cache (looked for as the library looks, nothing
downloaded); every other chapter is executed. A chapter that fails does not stop the
others. Exit status: 0 when every executed chapter ran (skips are not failures), 1 when one
failed, 2 for a bad argument. Executed with
``jupyter nbconvert --execute --inplace --ExecutePreprocessor.record_timing=False``, so a
re-run does not rewrite every cell's timing metadata.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _files import chosen_files  # noqa: E402  (tools/, beside this script)

from bleu_lesson.data import datasets  # noqa: E402
from bleu_lesson.data.datasets import get_data_hint  # noqa: E402
from bleu_lesson.teaching.chapters import registry  # noqa: E402

NBCONVERT = ["-m", "nbconvert", "--to", "notebook", "--execute", "--inplace",
             "--ExecutePreprocessor.kernel_name=python3",
             "--ExecutePreprocessor.record_timing=False"]


@dataclass(frozen=True)
class Step:
    """One notebook of the plan: executed, or skipped with the reason."""

    path: Path
    skip: str | None = None

    def line(self) -> str:
        name = self.path.name
        return f"== skip {name}: {self.skip}" if self.skip else f"== execute {name}"


def data_missing() -> str | None:
    """Why the chapters that need data cannot run here (one line), or None."""
    problem = datasets.data_missing()  # the library's one answer
    return f"needs the WMT22 data ({problem}); {get_data_hint()}" if problem else None


def plan(notebooks: list[Path], missing: str | None) -> list[Step]:
    """Each notebook with what to do with it: chapters that need data are skipped while
    ``missing`` says the data is absent; notebooks the registry does not know run."""
    needs = {ch.notebook for ch in registry().values() if ch.needs_data}
    return [Step(p, missing if missing and p.name in needs else None) for p in notebooks]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path,
                        help="notebooks to execute (default: notebooks/[0-9]*.ipynb)")
    parser.add_argument("--dry-run", action="store_true",
                        help="print what would be executed and skipped, execute nothing")
    args = parser.parse_args(argv)
    notebooks = chosen_files(args.notebooks, "notebooks/[0-9]*.ipynb", "run_notebooks",
                             "NOTEBOOK")
    if not notebooks:
        print("no notebooks/[0-9]*.ipynb to execute")
        return 0
    steps = plan(notebooks, data_missing())
    failed = []
    for step in steps:
        print(step.line(), flush=True)
        if step.skip or args.dry_run:
            continue
        if subprocess.run([sys.executable, *NBCONVERT, str(step.path)]).returncode != 0:
            failed.append(step.path.name)
    ran = [s for s in steps if not s.skip]
    skipped = len(steps) - len(ran)
    verb = "to execute" if args.dry_run else "executed"
    print(f"{len(ran) - len(failed)} of {len(steps)} notebooks {verb}, {skipped} skipped"
          + (f", {len(failed)} FAILED: {' '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

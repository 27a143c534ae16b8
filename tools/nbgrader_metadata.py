"""Give the chapters nbgrader's cell metadata, from their solution markers and check calls.

    python tools/nbgrader_metadata.py            # every notebooks/NN_*.ipynb, in place
    python tools/nbgrader_metadata.py --check    # exit 1 if a chapter's metadata is stale

Solution cells (``### BEGIN SOLUTION`` … ``### END SOLUTION``) become nbgrader answer
cells; cells that call ``check("X.Y", ...)`` become locked, graded test cells; every other
cell loses any ``nbgrader`` metadata. Only cell metadata changes: sources, outputs and all
other metadata stay as they are, and running it again changes nothing (the rules live in
``bleu_lesson.grading.course.nbgrader_cell_metadata``). Re-run it after editing a chapter.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bleu_lesson.grading.course import _atomic_write, with_nbgrader_metadata  # noqa: E402


def dumps(nb: dict) -> str:
    """The notebook as nbformat writes it (so that an unchanged chapter stays byte-equal)."""
    return json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path,
                        help="chapters (default: notebooks/NN_*.ipynb)")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if some chapter would change")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    stale = []
    for path in paths:
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        text = path.read_text(encoding="utf-8")
        try:
            new = dumps(with_nbgrader_metadata(json.loads(text)))
        except ValueError as exc:
            print(f"nbgrader_metadata: {shown}: {exc}", file=sys.stderr)
            return 2
        if new == text:
            print(f"unchanged {shown}")
            continue
        stale.append(path)
        if args.check:
            print(f"stale     {shown}")
        else:
            _atomic_write(path, lambda f, new=new: f.write(new))
            print(f"updated   {shown}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())

"""Write chapters into an nbgrader course's ``source/<assignment>/`` with hidden tests.

    python tools/nbgrader_source.py COURSE/source/ch04 notebooks/04_brevity_penalty.ipynb
    python tools/nbgrader_source.py COURSE/source/ch04 notebooks/04_*.ipynb --force

Each chapter is written with nbgrader's cell metadata (as ``tools/nbgrader_metadata.py``
gives it) and, in every cell that checks a program-judged exercise with hidden cases, an
nbgrader hidden test (``### BEGIN HIDDEN TESTS`` ... ``### END HIDDEN TESTS``): it judges
the answer on hidden cases drawn from a seed made here, at random, for this copy.
``nbgrader generate_assignment`` removes the region from the released copy (the learner
sees only the visible ``check``), and ``nbgrader autograde`` puts it back before grading
(``bleu_lesson.grading.course.with_hidden_tests``). The repository's chapters are not
changed. An existing file in the folder is kept unless ``--force`` is given.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bleu_lesson.grading.course import _atomic_write, with_hidden_tests  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the assignment's folder under source/")
    parser.add_argument("notebooks", nargs="+", type=Path, help="chapter notebooks")
    parser.add_argument("--force", action="store_true", help="overwrite existing files")
    args = parser.parse_args(argv)
    missing = [p for p in args.notebooks if not p.is_file()]
    if missing:
        print(f"nbgrader_source: error: no such notebook: {missing[0]}", file=sys.stderr)
        return 2
    targets = [args.folder / p.name for p in args.notebooks]
    kept = [t for t in targets if t.exists() and not args.force]
    if kept:
        print(f"nbgrader_source: error: {kept[0]} exists (use --force to overwrite)",
              file=sys.stderr)
        return 2
    args.folder.mkdir(parents=True, exist_ok=True)
    for path, target in zip(args.notebooks, targets, strict=True):
        try:
            nb = with_hidden_tests(json.loads(path.read_text(encoding="utf-8")),
                                   lambda: secrets.randbelow(2 ** 31))
        except ValueError as exc:  # not JSON, or a cell nbgrader cannot take
            print(f"nbgrader_source: error: {path}: {exc}", file=sys.stderr)
            return 2
        text = json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
        _atomic_write(target, lambda f, text=text: f.write(text))
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

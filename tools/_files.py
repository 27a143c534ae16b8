"""The one way the ``tools/`` scripts take their file arguments (run_notebooks, run_benchmarks).

The files named on the command line, else the project's default glob, sorted. A named path
that is not a file ends the tool with one line on stderr and exit status 2.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def chosen_files(given: list[Path], default_glob: str, tool: str, metavar: str) -> list[Path]:
    """``given`` if any (each must be a file), else ``ROOT.glob(default_glob)`` sorted."""
    for path in given:
        if not path.is_file():
            print(f"{tool}: {metavar} {str(path)!r} does not exist", file=sys.stderr)
            raise SystemExit(2)
    return list(given) or sorted(ROOT.glob(default_glob))

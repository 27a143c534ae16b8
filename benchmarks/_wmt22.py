"""Where the benchmarks find the WMT22 test set: the one rule every ``benchmarks/*.py`` uses.

The library's own lookup (``bleu_lesson.data.datasets.fetch_dataset``), never a download:
``--data FOLDER`` if given, else ``$BLEU_LESSON_WMT22_DIR``, else the user cache that
``make data`` fills (``bleu_lesson.data.datasets.default_cache_dir()``). Every file is checked
against its SHA-256, so a figure is always measured on the published data. In a script::

    from _wmt22 import add_data_argument, wmt22_folder

    add_data_argument(parser)                      # --data FOLDER
    folder = wmt22_folder(args.data, "bench_x")    # a Path, or exit 2 with one line

When the data is found, one line on stdout says where (``DATA_LINE``): ``make bench``'s
summary names the benchmarks that ran on the real data from it.

(``python benchmarks/bench_x.py`` puts ``benchmarks/`` first on ``sys.path``, so the import
works from any working directory. The name starts with ``_`` so that ``make bench``, which
runs ``benchmarks/bench_*.py``, does not run it.)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bleu_lesson.data.datasets import (
    WMT22_ENV_VAR,
    DatasetNotFoundError,
    dataset,
    default_cache_dir,
    fetch_dataset,
    get_data_hint,
)

#: What to do when the data is nowhere: the library's one line (the tests' skips and
#: ``make notebooks`` say the same), and this script's own option.
HINT = f"{get_data_hint()}, or pass --data FOLDER"
#: What a benchmark prints first when it found the data (``tools/run_benchmarks.py`` reads it).
DATA_LINE = "data: the WMT22 test set in {folder} (SHA-256 checked)"


def add_data_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--data FOLDER`` (default: ``$BLEU_LESSON_WMT22_DIR``, then the user cache)."""
    parser.add_argument("--data", default=None, metavar="FOLDER",
                        help=f"folder with the WMT22 files (default: ${WMT22_ENV_VAR}, then "
                             f"the user cache that `make data` fills: {default_cache_dir()})")


def find_wmt22(data: str | None = None) -> Path:
    """The folder holding every WMT22 test-set file, found as the library finds it.

    ``data`` (``--data``), when given, must hold them all: a folder the user named is never
    passed over for another one. Raises ``DatasetNotFoundError`` or ``ValueError`` (a
    corrupted file) with a one-line first line.
    """
    if data is not None:
        folder = Path(data)
        if not folder.is_dir():
            raise DatasetNotFoundError(f"--data {data} is not a folder")
        missing = [n for n in dataset("wmt22").files if not (folder / n).is_file()]
        if missing:
            raise DatasetNotFoundError(
                f"--data {data} lacks {len(missing)} of the WMT22 files "
                f"(e.g. {missing[0]})")
    return fetch_dataset("wmt22", data, download=False)


def wmt22_folder(data: str | None, prog: str) -> Path:
    """``find_wmt22(data)``, or one line on stderr (what is wrong, how to get the data) and
    exit status 2: what every benchmark does when it has no data."""
    try:
        folder = find_wmt22(data)
    except DatasetNotFoundError as exc:
        why = str(exc).splitlines()[0] if data is not None else (
            f"the WMT22 test set is neither in ${WMT22_ENV_VAR} nor in the cache "
            f"{default_cache_dir()}")
    except ValueError as exc:  # a corrupted or different file: its name and the hashes
        why = str(exc).splitlines()[0].rstrip(".")
    else:
        print(DATA_LINE.format(folder=folder), flush=True)
        return folder
    print(f"{prog}: {why}; {HINT}", file=sys.stderr)
    raise SystemExit(2)

"""``bleu-lesson data``: download the pinned WMT22 files, or say which are missing and where
each comes from."""

from __future__ import annotations

import argparse

from bleu_lesson.data.datasets import (
    DATASETS,
    DatasetNotFoundError,
    dataset,
    fetch_dataset,
    looked_in,
    missing_files,
)

from . import CLIError

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """``data``: fetch each named data set (or all), one line per set; the exit code."""
    names = list(DATASETS) if args.dataset == "all" else [args.dataset]
    for k, name in enumerate(names):
        try:
            spec = dataset(name)
            folder = fetch_dataset(name, download=True, progressbar=not args.quiet)
        except DatasetNotFoundError as exc:
            line = f"{str(exc).splitlines()[0].rstrip('.')}; {looked_in(name)}."
            for later in names[k + 1:]:  # not tried: the network is not there
                left = missing_files(later)  # in none of the folders looked in
                if left:
                    total, sub = len(dataset(later).files), dataset(later).folder
                    notes = [] if len(left) == total else [", ".join(left)]
                    if sub:
                        it = "it goes" if len(left) == 1 else "they go"
                        notes.append(f"{it} in the {sub}/ subfolder")
                    what = (f"its {total} files are missing too" if len(left) == total else
                            f"{len(left)} of its {total} files "
                            f"{'is' if len(left) == 1 else 'are'} missing too")
                    line += (f" {later} was not tried: {what}"
                             + (f" ({'; '.join(notes)})" if notes else "") + ".")
            # the error stays one line on stderr; on stdout, every file still missing, where
            # it goes and where it comes from, to fetch them elsewhere and copy them here
            print("The missing files (each goes into the folder the error names; a subfolder "
                  "is part of the name) and where each comes from:")
            for later in names[k:]:
                sub = dataset(later).folder
                for filename in missing_files(later):
                    where = f"{sub}/{filename}" if sub else filename
                    print(f"  {where}  <-  {dataset(later).url(filename)}")
            raise CLIError(line) from None
        except ValueError as exc:
            raise CLIError(str(exc)) from None
        print(f"{name}: {len(spec.files)} files in {folder} (SHA-256 verified, "
              f"{spec.size / 1e6:.1f} MB)")
    return 0

"""Repository-wide pytest hooks: they apply to every item, whichever path pytest is given
(``pytest notebooks/10_bleu_and_people.ipynb`` as well as ``make test``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "tests"))  # notebook_tools


def pytest_sessionstart(session):
    """Find the WMT22 data once, before any test monkeypatches the environment
    (test_datasets points the cache at a temporary folder): ``find_dataset`` caches it."""
    from notebook_tools import find_dataset

    for name in ("wmt22", "wmt22-human"):
        find_dataset(name)


# Chapters that need the real WMT22 data: nbval would fail on them without it, so their
# notebook items are skipped, with one short reason in pytest's summary (-ra), when the
# data is neither in BLEU_LESSON_WMT22_DIR nor in the user cache. Every data skip's reason
# is made by notebook_tools.data_skip_reason; nothing is downloaded in tests.

def pytest_collection_modifyitems(config, items):
    from notebook_tools import NEEDS_WMT22, wmt22_unavailable

    targets = [item for item in items if Path(str(item.fspath)).name in NEEDS_WMT22]
    if not targets:
        return
    reason = wmt22_unavailable()
    if reason is None:
        return
    for item in targets:
        item.add_marker(pytest.mark.skip(reason=reason))

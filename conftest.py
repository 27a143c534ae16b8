"""Repository-wide pytest hooks: they apply to every item, whichever path pytest is given
(``pytest notebooks/10_bleu_and_people.ipynb`` as well as ``make test``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "tests"))  # notebook_tools


# Chapters that need the real WMT22 data: nbval would fail on them without it, so their
# notebook items are skipped, with the reason in pytest's summary (-ra), when the data is
# neither in BLEU_LESSON_WMT22_DIR nor in the user cache. Nothing is downloaded in tests.

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

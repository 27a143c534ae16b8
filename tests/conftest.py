"""Shared fixtures of the test suite."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from notebook_tools import WMT22_README


@pytest.fixture(scope="session")
def wmt22_dir() -> Path:
    """The folder of WMT22 text files named by ``BLEU_LESSON_WMT22_DIR``; skips without it."""
    value = os.environ.get("BLEU_LESSON_WMT22_DIR")
    if not value:
        pytest.skip(f"BLEU_LESSON_WMT22_DIR is not set: {WMT22_README}")
    folder = Path(value)
    if not folder.is_dir():
        pytest.skip(f"BLEU_LESSON_WMT22_DIR={value} is not a folder: {WMT22_README}")
    return folder


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

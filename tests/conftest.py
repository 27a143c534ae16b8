"""Shared fixtures of the test suite."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

WMT22_README = "the WMT22 test data lives in ../shared/data/wmt22 (see its README)"


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

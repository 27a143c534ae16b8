"""Shared fixtures of the test suite."""

from __future__ import annotations

from pathlib import Path

import pytest
from notebook_tools import find_dataset


@pytest.fixture(scope="session")
def wmt22_dir() -> Path:
    """The folder holding every file of the WMT22 test set (SHA-256 checked):
    ``BLEU_LESSON_WMT22_DIR``, else the user cache that ``make data`` fills; skips without."""
    return _dataset_folder("wmt22")


@pytest.fixture(scope="session")
def wmt22_human_dir() -> Path:
    """The folder of the WMT22 zh-en human judgments (``humaneval/``), found like ``wmt22_dir``."""
    return _dataset_folder("wmt22-human")


def _dataset_folder(name: str) -> Path:
    found = find_dataset(name)
    if isinstance(found, str):
        pytest.skip(found)
    return found


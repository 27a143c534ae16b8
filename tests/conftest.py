"""Shared fixtures of the test suite."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from notebook_tools import WMT22_HINT


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
    found = _FOUND.get(name) or _locate(name)
    if isinstance(found, str):
        pytest.skip(found)
    return found


# Where each dataset is, found once at the start of the session: before any test
# monkeypatches the environment (test_datasets points the cache at a temporary folder).
_FOUND: dict[str, Path | str] = {}


def _locate(name: str) -> Path | str:
    """The dataset's folder, or why the tests that need it are skipped."""
    from bleu_lesson.datasets import DatasetNotFoundError, fetch_dataset

    value = os.environ.get("BLEU_LESSON_WMT22_DIR")
    if value and not Path(value).is_dir():
        return f"BLEU_LESSON_WMT22_DIR={value} is not a folder: {WMT22_HINT}"
    try:
        return fetch_dataset(name, download=False)
    except (DatasetNotFoundError, ValueError) as exc:
        return f"{str(exc).splitlines()[0]} To run these tests: {WMT22_HINT}"


def pytest_sessionstart(session):
    for name in ("wmt22", "wmt22-human"):
        _FOUND[name] = _locate(name)

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



# --- running on two workers (make test: pytest-xdist) -----------------------------------
#
# A group of tests runs on one worker from start to end, in file order: a file's tests share
# its module and session fixtures, and nbval runs a notebook's cells in order in one kernel
# (--dist loadfile gives that much without this file). The browser tests share one
# JupyterLab server and one Chromium (tests/e2e/conftest.py), so tests/e2e is one group.
# The groups that take longest are sent first (make test passes --no-loadscope-reorder), so
# that no long file starts last while the other worker idles; the order was measured (the
# slowest files of a whole run, longest first). A file missing from it runs after these.
SLOWEST_FIRST = (
    "tests/e2e",
    "tests/test_sandbox.py",
    "tests/test_wmt22_agreement.py",
    "tests/test_vs_sacrebleu.py",
    "tests/test_taught_code.py",
    "tests/test_vectorized.py",
    "tests/test_claims_06_10.py",
    "tests/test_vs_nltk.py",
    "tests/test_run_notebooks.py",
    "tests/test_tok13a.py",
    "tests/test_workspace.py",
    "tests/test_sandbox_files.py",
    "notebooks/09_wmt22_case_study.ipynb",
    "tests/test_course.py",
    "tests/test_nbgrader.py",
    "tests/test_learner_run_all.py",
    "notebooks/10_bleu_and_people.ipynb",
    "tests/test_check_bounds.py",
    "tests/test_significance.py",
    "tests/test_readme_commands.py",
    "tests/test_skip_reasons.py",
    "tests/test_student_safety.py",
    "tests/test_contributing_counts.py",
    "tests/test_exercise_variants.py",
)


def worker_group(nodeid: str) -> str:
    """The group a test id runs in: ``tests/e2e`` for the browser tests, else its file.

    >>> worker_group("notebooks/02_ngrams.ipynb::Cell 3")
    'notebooks/02_ngrams.ipynb'
    >>> worker_group("tests/e2e/test_book.py::test_x[a::b]")
    'tests/e2e'
    """
    path = nodeid.split("::", 1)[0]
    return "tests/e2e" if path.startswith("tests/e2e/") else path


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):  # noqa: ANN001, ANN201
    """--dist loadfile, with tests/e2e as one group (a file's tests stay together)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return worker_group(nodeid)

    return GroupScheduling(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On an xdist worker: the slowest groups first (a stable sort: each keeps its order)."""
    if not hasattr(config, "workerinput"):  # the workers collect; the controller schedules
        return
    rank = {name: i for i, name in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(worker_group(item.nodeid), len(rank)))

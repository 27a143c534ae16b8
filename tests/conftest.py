"""Shared fixtures of the test suite."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


@pytest.fixture(scope="session")
def oracle(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """``oracle(tool, inputs, compute)``: ``compute()``, an independent source's result (a
    JSON value), remembered under the tool's name and version and a SHA-256 of ``inputs``.

    The memo lives in pytest's cache folder (``.pytest_cache``; ``--cache-clear`` empties
    it, ``-p no:cacheprovider`` turns it off), so a second run reads what sacrebleu, NLTK or
    scipy computed for the very same inputs instead of computing it again. Any change to an
    input, or another version of the tool, is another key: the figure is computed afresh.
    The library under test is never memoized: its side of each comparison always runs."""
    cache = getattr(request.config, "cache", None)
    memo: dict[str, Any] = {}

    def lookup(tool: str, inputs: object, compute: Callable[[], Any]) -> Any:
        from importlib.metadata import version

        text = json.dumps([tool, version(tool), inputs], ensure_ascii=False, sort_keys=True)
        key = f"bleu_lesson/oracle/{tool}/{hashlib.sha256(text.encode()).hexdigest()}"
        if key in memo:
            return memo[key]
        found = cache.get(key, None) if cache is not None else None
        if found is None:
            found = compute()
            if cache is not None:
                cache.set(key, found)
        memo[key] = found
        return found

    return lookup


def _dataset_folder(name: str) -> Path:
    found = find_dataset(name)
    if isinstance(found, str):
        pytest.skip(found)
    return found



# --- running on several workers (make test: pytest-xdist) --------------------------------
#
# A group of tests runs on one worker from start to end, in file order: a file's tests share
# its module and session fixtures, and nbval runs a notebook's cells in order in one kernel
# (--dist loadfile gives that much without this file). The browser tests share one
# JupyterLab server and one Chromium per worker (session fixtures of tests/e2e/conftest.py),
# so they form a few groups (E2E_GROUPS), each long enough to pay for its own server: the
# book (its own build and web server), the lab as `make lab` starts it, the chapters' Run
# All in two halves. A few long files are split (SPLIT) where their parts share no costly
# fixture, so that they spread over the workers. The groups that take longest are sent
# first (make test passes --no-loadscope-reorder), so that no long group starts last while
# the other workers idle; the order was measured (the slowest groups of a whole run,
# longest first; two whole runs on a loaded machine). A group missing from it runs after
# these.
SLOWEST_FIRST = (
    "tests/e2e::lab",
    "tests/test_nbgrader.py",
    "tests/e2e::book",
    "tests/e2e::lab-2",
    "tests/test_learner_run_all.py",
    "tests/test_course.py",
    "tests/test_bleu_cache.py",
    "tests/test_readme_commands.py",
    "tests/test_exercise_variants.py",
    "tests/test_exercise_variants.py::6.1",
    "tests/test_sandbox.py",
    "tests/test_taught_code.py",
    "tests/test_jieba.py",
    "tests/test_tok13a.py",
    "tests/test_workspace.py",
    "tests/test_check_bounds.py",
    "tests/test_vs_sacrebleu.py",
    "tests/test_vs_nltk.py",
    "tests/test_check_attacks.py",
    "tests/test_cli.py",
    "tests/e2e::make-lab",
    "tests/test_sandbox_files.py",
    "tests/test_wmt22_agreement.py::en-zh",
    "tests/test_world_startup.py",
    "tests/test_run_notebooks.py",
    "tests/test_post2018_cache.py",
    "tests/test_sandbox.py::alone",
    "tests/test_contributing_counts.py",
    "tests/test_metric_cache.py",
    "tests/test_ch10_prose.py",
    "tests/test_agreement.py",
    "tests/test_jieba_cache.py",
    "tests/test_check_data.py",
    "tests/test_exercises.py",
    "tests/test_wmt22_agreement.py::zh-en",
    "tests/test_nbschema.py",
    "notebooks/09_wmt22_case_study.ipynb",
    "tests/test_skip_reasons.py",
    "tests/test_properties.py",
    "tests/test_vectorized.py::en-zh",
    "tests/test_agreement_widget.py",
    "tests/test_vectorized.py::zh-en",
    "tests/test_datasets.py",
    "tests/test_significance.py",
    "tests/test_claims_06_10.py",
    "tests/test_run_benchmarks.py",
    "tests/test_check_value_kind.py",
    "tests/test_bootstrap_cache.py",
    "notebooks/10_bleu_and_people.ipynb",
)

# file -> {group suffix: the test-id fragments whose tests form that group}; a test of the
# file that matches none stays in the file's own group. Each part below needs none of the
# others' module fixtures (test_sandbox.py's "alone" tests do not use its `run` fixture).
SPLIT = {
    "tests/test_exercise_variants.py": {"6.1": ("[6.1-",)},
    "tests/test_wmt22_agreement.py": {"zh-en": ("[zh-en",), "en-zh": ("[en-zh",)},
    "tests/test_vectorized.py": {"zh-en": ("wmt22_system[zh-en]",),
                                 "en-zh": ("wmt22_system[en-zh]",)},
    "tests/test_sandbox.py": {"alone": (
        "::test_fallback_without_namespaces", "::test_unshare_backend", "::test_ctrl_c_kills",
        "::test_limits_are_validated", "::test_sandbox_hides_the_host", "::test_sealed_socket",
        "::test_resource_limits_hold", "::test_one_sandbox_using_up", "::test_fake_rows_on")},
}


#: e2e file -> its group; the chapters' Run All (test_chapters_in_browser.py) goes to
#: ``tests/e2e::lab`` with the other tests of the `lab` fixture, except the chapters of
#: E2E_SECOND_LAB, which run on a second server so that the two halves spread over the workers.
E2E_GROUPS = {
    "tests/e2e/test_book.py": "tests/e2e::book",
    "tests/e2e/test_lab_start_url.py": "tests/e2e::make-lab",
    "tests/e2e/test_no_disconnected_icon.py": "tests/e2e::make-lab",
}
E2E_SECOND_LAB = ("[07_", "[08_", "[09_", "[10_")


def e2e_group(nodeid: str) -> str:
    """The group of a browser test (one of E2E_GROUPS, else ``tests/e2e::lab``).

    >>> e2e_group("tests/e2e/test_book.py::test_x[a::b]")
    'tests/e2e::book'
    >>> e2e_group("tests/e2e/test_chapters_in_browser.py::test_chapter_runs[09_wmt22]")
    'tests/e2e::lab-2'
    >>> e2e_group("tests/e2e/test_first_view.py::test_the_start_page_lists_every_chapter")
    'tests/e2e::lab'
    """
    path = nodeid.split("::", 1)[0]
    if path == "tests/e2e/test_chapters_in_browser.py" and any(
            chapter in nodeid for chapter in E2E_SECOND_LAB):
        return "tests/e2e::lab-2"
    return E2E_GROUPS.get(path, "tests/e2e::lab")


def worker_group(nodeid: str) -> str:
    """The group a test id runs in: ``e2e_group`` for the browser tests, a part of a file
    that SPLIT names, else its file.

    >>> worker_group("notebooks/02_ngrams.ipynb::Cell 3")
    'notebooks/02_ngrams.ipynb'
    >>> worker_group("tests/e2e/test_book.py::test_x[a::b]")
    'tests/e2e::book'
    >>> worker_group("tests/test_wmt22_agreement.py::test_corpus_bleu_equals_sacrebleu[en-zh-A-x]")
    'tests/test_wmt22_agreement.py::en-zh'
    >>> worker_group("tests/test_vectorized.py::test_hand_counted_example")
    'tests/test_vectorized.py'
    """
    path = nodeid.split("::", 1)[0]
    if path.startswith("tests/e2e/"):
        return e2e_group(nodeid)
    for part, fragments in SPLIT.get(path, {}).items():
        if any(fragment in nodeid for fragment in fragments):
            return f"{path}::{part}"
    return path


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):  # noqa: ANN001, ANN201
    """--dist loadfile, with the groups of worker_group (a group's tests stay together)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return worker_group(nodeid)

    return GroupScheduling(config, log)


#: A learner copy's Run All is tested twice over if both run: with nbclient (LEARNER_RUN_ALL,
#: which needs no browser) and in Chromium (BROWSER_RUN_ALL, the same copy, the same
#: assertions: no error, every code cell run, the stubs' checks say 还没有完成, and more).
LEARNER_RUN_ALL = "tests/test_learner_run_all.py::test_run_all_completes_in_the_learner_copy["
BROWSER_RUN_ALL = ("tests/e2e/test_chapters_in_browser.py::"
                   "test_chapter_runs_and_its_explorer_answers[")


def _skipped(item: pytest.Item) -> bool:
    return any(m.name == "skip" or (m.name == "skipif" and m.args and m.args[0])
               for m in item.iter_markers())


@pytest.hookimpl(trylast=True)  # after tests/e2e/conftest.py has marked what it cannot run
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A chapter whose learner copy runs in the browser in this session does not run it
    again with nbclient; on an xdist worker, the slowest groups first (a stable sort)."""
    in_browser = {item.nodeid[len(BROWSER_RUN_ALL):] for item in items
                  if item.nodeid.startswith(BROWSER_RUN_ALL) and not _skipped(item)}
    for item in items:
        if item.nodeid.startswith(LEARNER_RUN_ALL) and \
                item.nodeid[len(LEARNER_RUN_ALL):] in in_browser:
            item.add_marker(pytest.mark.skip(
                reason="this learner copy's Run All is tested in Chromium in this run "
                       "(tests/e2e/test_chapters_in_browser.py)"))
    if not hasattr(config, "workerinput"):  # the workers collect; the controller schedules
        return
    rank = {name: i for i, name in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(worker_group(item.nodeid), len(rank)))

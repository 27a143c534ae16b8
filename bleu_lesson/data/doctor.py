"""Environment check for a learner or a lab room: ``bleu_lesson.doctor()``.

Prints the versions that matter (Python, sacrebleu, ipywidgets and jupyterlab_widgets,
matplotlib, NLTK, JupyterLab) and, for each problem, the command that fixes it. Every
package the chapters need is one: NLTK runs live in chapters 04–08 beside sacrebleu, and
without JupyterLab there is no lab to open the chapters in. The most common problem:
ipywidgets 8 needs jupyterlab_widgets 3 in the same environment, or the browser shows
"Error displaying widget: model not found".
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from bleu_lesson._version import __version__

__all__ = ["MIN_PYTHON", "Problem", "check_environment", "doctor"]

#: The oldest Python the package runs on: pyproject.toml's requires-python.
MIN_PYTHON = (3, 11)

_FIX = ('python -m pip install -e ".[test]"   '
        "(或 make venv; conda: conda env update -f environment.yml)")


#: Each package a learner needs, and what needs it (said in the problem's line).
_NEEDED_BY = {
    "sacrebleu": "the tokenizers and every comparison",
    "ipywidgets": "the explorer widgets",
    "matplotlib": "the plots",
    "nltk": "chapters 04-08 compare with NLTK",
    "jupyterlab": "the lab the chapters open in",
}
_CHECKED = ("sacrebleu", "ipywidgets", "jupyterlab_widgets", "matplotlib", "jupyterlab", "nltk")


@dataclass(frozen=True)
class Problem:
    what: str
    fix: str


def _version(dist: str) -> str | None:
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _major(version: str | None) -> int | None:
    try:
        return int(version.split(".")[0]) if version else None
    except ValueError:
        return None


def check_environment(versions: dict[str, str | None] | None = None,
                      python: tuple[int, int] | None = None) -> list[Problem]:
    """The problems found (empty when all is well). Arguments are for tests.

    >>> ok = dict(sacrebleu="2.6.0", ipywidgets="8.1.0", jupyterlab_widgets="3.0.9",
    ...           matplotlib="3.9.0", jupyterlab="4.2.0", nltk="3.9")
    >>> check_environment(ok, (3, 11))
    []
    >>> [p.what for p in check_environment({**ok, "nltk": None}, (3, 11))]
    ['nltk is not installed (chapters 04-08 compare with NLTK)']
    """
    python = python or sys.version_info[:2]
    if versions is None:
        versions = {d: _version(d) for d in _CHECKED}
    problems = []
    if python < MIN_PYTHON:
        need = ".".join(map(str, MIN_PYTHON))
        problems.append(Problem(f"Python {python[0]}.{python[1]} is too old (need ≥ {need})",
                                f"install Python {need} or newer and recreate the environment"))
    for dist, needed_by in _NEEDED_BY.items():
        if versions.get(dist) is None:
            problems.append(Problem(f"{dist} is not installed ({needed_by})", _FIX))
    widgets, lab = _major(versions.get("ipywidgets")), _major(versions.get("jupyterlab_widgets"))
    if widgets is not None:
        want = {8: 3, 7: 1}.get(widgets)
        if lab is None:
            problems.append(Problem(
                "jupyterlab_widgets is missing: JupyterLab cannot show the explorers",
                f'python -m pip install "jupyterlab_widgets>={want or 3}"'))
        elif want is not None and lab != want:
            problems.append(Problem(
                f"ipywidgets {versions['ipywidgets']} needs jupyterlab_widgets {want}.x, found "
                f"{versions['jupyterlab_widgets']} (the browser would say 'Error displaying "
                "widget: model not found')",
                f'python -m pip install "ipywidgets>={widgets}" "jupyterlab_widgets=={want}.*"'))
    if versions.get("sacrebleu") and _major(versions["sacrebleu"]) != 2:
        problems.append(Problem(f"sacrebleu {versions['sacrebleu']}: the course expects 2.x",
                                'python -m pip install "sacrebleu>=2.3,<3"'))
    return problems


def _interpreter() -> str:
    """``sys.executable``, relative to the working folder when it is at most one folder up
    (``../.venv/bin/python`` from notebooks/), so a stored output holds no machine path."""
    exe = os.path.abspath(sys.executable)
    try:
        rel = os.path.relpath(exe)
    except ValueError:  # another drive (Windows)
        return exe
    return rel if rel.split(os.sep)[:2].count(os.pardir) < 2 else exe


def doctor() -> None:
    """Print the environment's versions and what to fix, if anything."""

    print(f"Python {sys.version.split()[0]}  ({_interpreter()})")
    print(f"bleu_lesson {__version__}")
    for dist in _CHECKED:
        print(f"{dist:20} {_version(dist) or '— not installed'}")
    problems = check_environment()
    if not problems:
        print("✔ 环境正常 (environment OK)")
        return
    for p in problems:
        print(f"✘ {p.what}\n  修复 (fix): {p.fix}")

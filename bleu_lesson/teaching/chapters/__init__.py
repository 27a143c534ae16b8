"""The chapters of the course: one module per chapter, and the registry that lists them.

Each ``chNN.py`` holds what belongs to chapter NN beside each other: the notebook's file
name, its title, whether it needs the WMT22 data, the explorers it shows, its exercises
(``EXERCISES``, a tuple of :class:`bleu_lesson.teaching.checking.Exercise`) and its quiz
questions (``QUESTIONS``, a tuple of :class:`bleu_lesson.teaching.questions.Question`). The registry
finds every ``chNN`` module of this package by itself: adding chapter 10 means writing
``notebooks/10_….ipynb`` and ``chapters/ch10.py``, nothing else.

>>> chapter("04").notebook
'04_brevity_penalty.ipynb'
>>> [ex.id for ex in chapter(4).exercises]
['4.1', '4.2']
>>> chapter("00").exercises
()
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from dataclasses import dataclass
from types import ModuleType
from typing import Any

__all__ = ["Chapter", "chapter", "chapter_id", "registry", "all_exercises"]


@dataclass(frozen=True)
class Chapter:
    """One chapter: its notebook, its title, and the material that goes with it."""

    id: str                  # "04"
    notebook: str            # "04_brevity_penalty.ipynb" (in notebooks/)
    title: str               # the notebook's title without "第 N 章"
    needs_data: bool         # True when it reads the WMT22 data
    explorers: tuple[str, ...]  # names in bleu_lesson.teaching.widgets
    exercises: tuple[Any, ...]  # Exercise
    questions: tuple[Any, ...]  # Question, in the order the module writes them

    @property
    def number(self) -> int:
        return int(self.id)


def chapter_id(value: object) -> str:
    """A chapter's id, two digits, however it is written: ``4``, ``"4"``, ``"04"``, ``"ch04"``.

    The one rule every caller (the registry, the quiz, the exercises, the CLI, the course
    checker) uses; a value that is no chapter number raises an error naming it.

    >>> [chapter_id(v) for v in (4, "4", "04", "ch04", " CH4 ", 10)]
    ['04', '04', '04', '04', '04', '10']
    """
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TypeError(f"chapter must be an int or a str such as '04', "
                        f"got {type(value).__name__}")
    match = re.fullmatch(r"(?:ch)?(\d{1,2})", str(value).strip(), re.IGNORECASE)
    if match is None:
        raise ValueError(f"chapter must be a chapter number such as 4, '04' or 'ch04', "
                         f"got {value!r}")
    return f"{int(match.group(1)):02d}"


_REGISTRY: dict[str, Chapter] | None = None
_NAME = re.compile(r"ch(\d\d)$")


def _from_module(chapter_id: str, module: ModuleType) -> Chapter:
    missing = [n for n in ("NOTEBOOK", "TITLE") if not hasattr(module, n)]
    if missing:
        raise ValueError(f"chapter module {module.__name__} lacks {', '.join(missing)}")
    exercises = tuple(getattr(module, "EXERCISES", ()))
    for ex in exercises:
        if ex.chapter != chapter_id:
            raise ValueError(f"{module.__name__}: exercise {ex.id} belongs to chapter "
                             f"{ex.chapter}, not {chapter_id}")
    return Chapter(chapter_id, module.NOTEBOOK, module.TITLE,
                   bool(getattr(module, "NEEDS_DATA", False)),
                   tuple(getattr(module, "EXPLORERS", ())), exercises,
                   tuple(getattr(module, "QUESTIONS", ())))


def registry() -> dict[str, Chapter]:
    """Every chapter, by id (``"00"`` …), found as the ``chNN`` modules of this package."""
    global _REGISTRY
    if _REGISTRY is None:
        found = {}
        for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
            m = _NAME.match(info.name)
            if m:
                module = importlib.import_module(f"{__name__}.{info.name}")
                found[m.group(1)] = _from_module(m.group(1), module)
        _REGISTRY = found
    return _REGISTRY


def chapter(which: str | int) -> Chapter:
    """The chapter with this id (``"04"``, ``"4"``, ``4`` or ``"ch04"``)."""
    try:
        key = chapter_id(which)
    except (TypeError, ValueError):
        key = str(which)
    chapters = registry()
    if key not in chapters:
        raise ValueError(f"no chapter {which!r}; known: {', '.join(chapters)}")
    return chapters[key]


def all_exercises() -> dict[str, Any]:
    """Every exercise of every chapter, by id, in course order."""
    out: dict[str, Any] = {}
    for ch in registry().values():
        for ex in ch.exercises:
            if ex.id in out:
                raise ValueError(f"exercise {ex.id} is defined twice")
            out[ex.id] = ex
    return out

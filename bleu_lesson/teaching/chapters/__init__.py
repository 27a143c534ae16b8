"""The chapters of the course: one module per chapter, and the registry that lists them.

Each ``chNN.py`` holds what belongs to chapter NN beside each other: the notebook's file
name, its title, whether it needs the WMT22 data, the explorers it shows, its exercises
(``EXERCISES``, a tuple of :class:`bleu_lesson.teaching.checking.Exercise`) and its quiz
questions (``QUESTIONS``, a tuple of :class:`bleu_lesson.teaching.quiz.Question`). The registry
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

__all__ = ["Chapter", "chapter", "registry", "all_exercises"]


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


def chapter(chapter_id: str | int) -> Chapter:
    """The chapter with this id (``"04"``, ``"4"`` or ``4``)."""
    try:
        key = f"{int(chapter_id):02d}"
    except (TypeError, ValueError):
        key = str(chapter_id)
    chapters = registry()
    if key not in chapters:
        raise ValueError(f"no chapter {chapter_id!r}; known: {', '.join(chapters)}")
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

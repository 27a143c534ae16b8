"""The plain data of a quiz: a ``Question`` and its choices (standard library only).

The chapter modules write their questions with these; ``bleu_lesson.teaching.quiz`` (the
registry, the text and the widget) sits above the chapters and imports both.

>>> q = question("1 + 1?", ("2", True, "one and one"), ("3", False, "one too many"))
>>> q.correct_index, q.choices[1].text
(0, '3')
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Choice", "Question", "question"]


@dataclass(frozen=True)
class Choice:
    """One answer to pick: its text, whether it is right, and why (or why not)."""

    text: str
    correct: bool
    explanation: str


@dataclass(frozen=True)
class Question:
    """A prompt and its choices; exactly one choice is correct."""

    prompt: str
    choices: tuple[Choice, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.choices, tuple) or len(self.choices) < 2:
            raise ValueError("a question needs a tuple of at least two choices")
        right = sum(1 for c in self.choices if c.correct)
        if right != 1:
            raise ValueError(f"a question needs exactly one correct choice, got {right}: "
                             f"{self.prompt[:40]!r}")

    @property
    def correct_index(self) -> int:
        return next(i for i, c in enumerate(self.choices) if c.correct)


def question(prompt: str, *choices: tuple[str, bool, str]) -> Question:
    """A ``Question`` from ``(text, correct, explanation)`` triples."""
    return Question(prompt, tuple(Choice(*c) for c in choices))

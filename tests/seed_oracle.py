"""The seed chapter's own code, run as an independent oracle for the tests.

The seed text (``../shared/seed/*.txt`` next to the repository, or the directory in
``BLEU_LESSON_SEED_DIR``) prints ``bleu_score.py`` between the lines "代码实现" and
"代码说明". ``load_seed_namespace()`` cuts that code out, runs it with ``exec`` while
capturing what it prints, and returns the resulting namespace and the printed text.
This is a helper module, not a test file; test files wrap it in a fixture that skips
when the seed text is absent.
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

__all__ = [
    "SEED_FILE_NAME",
    "SeedNotFound",
    "extract_seed_code",
    "find_seed_file",
    "load_seed_namespace",
    "seed_dir",
]

SEED_FILE_NAME = "001_b50083e241813349.txt"
CODE_START = "代码实现"
CODE_END = "代码说明"


class SeedNotFound(FileNotFoundError):
    """The seed chapter text (or its code block) is not where we looked."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(reason)
        self.path = path
        self.reason = reason

    def __str__(self) -> str:
        return self.reason


def seed_dir() -> Path:
    """``$BLEU_LESSON_SEED_DIR`` if set, else ``<repo>/../shared/seed``."""
    env = os.environ.get("BLEU_LESSON_SEED_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[1].parent / "shared" / "seed"


def find_seed_file(directory: Path | None = None) -> Path:
    """The seed text: ``SEED_FILE_NAME`` if present, else the first ``*.txt`` with the code."""
    directory = seed_dir() if directory is None else Path(directory)
    if not directory.is_dir():
        raise SeedNotFound(directory, "no such directory")
    preferred = directory / SEED_FILE_NAME
    if preferred.is_file():
        return preferred
    for candidate in sorted(directory.glob("*.txt")):
        text = candidate.read_text(encoding="utf-8", errors="replace")
        if CODE_START in text and CODE_END in text:
            return candidate
    raise SeedNotFound(directory, f"no {SEED_FILE_NAME} and no *.txt holding the seed's code")


def extract_seed_code(text: str) -> str:
    """The lines strictly between the line "代码实现" and the line "代码说明"."""
    lines = text.splitlines()
    stripped = [line.strip() for line in lines]
    try:
        start = stripped.index(CODE_START)
        end = stripped.index(CODE_END, start + 1)
    except ValueError:
        raise ValueError(
            f"the seed text has no code block between lines {CODE_START!r} and {CODE_END!r}"
        ) from None
    return "\n".join(lines[start + 1:end]).strip("\n") + "\n"


def load_seed_namespace(directory: Path | None = None) -> tuple[dict, str]:
    """Run the seed's ``bleu_score.py``; return ``(namespace, captured stdout)``.

    Raises ``SeedNotFound`` when the seed text or its code block is missing.
    """
    path = find_seed_file(directory)
    try:
        code = extract_seed_code(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise SeedNotFound(path, str(exc)) from None
    namespace: dict = {"__name__": "bleu_score", "__file__": str(path)}
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(compile(code, f"{path}:bleu_score.py", "exec"), namespace)
    return namespace, buffer.getvalue()

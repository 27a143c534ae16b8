"""The handlers of ``bleu-lesson``'s commands; ``bleu_lesson.__main__`` holds the parser.

``demo`` prints the seed's examples (no command), ``score`` scores files like sacrebleu's
CLI, ``data`` downloads the WMT22 data, ``check`` writes student copies and checks
submissions. Each handler takes the parsed arguments and returns the exit code; a user
error is raised as :class:`CLIError` and printed by ``main`` as one line (exit code 2).
"""

from __future__ import annotations

PROG = "bleu-lesson"


class CLIError(Exception):
    """A user error: reported as one line on stderr, exit code 2."""

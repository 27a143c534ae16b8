"""HTML for the chapters: tokens as chips, highlighted matches, small tables.

Pure functions from data to an HTML string; widgets and notebooks display the string.
Everything user-supplied is escaped.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence
from typing import Any

__all__ = ["show_source", "tokens_html", "table_html", "message_html"]

_CHIP = ("display:inline-block;margin:2px;padding:1px 6px;border-radius:4px;"
         "font-family:monospace;background:{bg};border:1px solid #bbb")


def show_source(obj: Callable[..., Any]) -> None:
    """Print the source of a library function or class, with the module it lives in.

    The chapters show the code they run this way, so the text on the page is always
    the code that produced the numbers below it. A shown function holds only the taught
    computation; what it refuses is its one ``@checks(...)`` line (the checks themselves
    live in ``bleu_lesson.core._validate``), printed as part of its source.
    """
    import inspect  # only when a chapter asks: it is slow to import

    module = inspect.getmodule(obj)
    name = getattr(obj, "__qualname__", getattr(obj, "__name__", repr(obj)))
    print(f"# {module.__name__ if module else '?'}.{name}")
    print(inspect.getsource(obj).rstrip())


def tokens_html(tokens: Sequence[str], marks: Sequence[bool] | None = None) -> str:
    """Tokens as chips; ``marks[i]`` colours token i green (matched) or red (not), which is
    how the chapters highlight a candidate's matches."""
    chips = []
    for i, tok in enumerate(tokens):
        if marks is None:
            bg = "#eef"
        else:
            bg = "#cfc" if marks[i] else "#fcc"
        chips.append(f'<span style="{_CHIP.format(bg=bg)}">{html.escape(tok)}</span>')
    return "".join(chips) if chips else "<i>(no tokens)</i>"


def table_html(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A plain HTML table; cells are escaped ``str(cell)``."""
    head = "".join(f"<th style='padding:2px 8px'>{html.escape(str(h))}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td style='padding:2px 8px'>{html.escape(str(c))}</td>" for c in row)
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def message_html(text: str) -> str:
    """A friendly notice in place of a result (bad input, nothing to show yet)."""
    return (f"<div class='bleu-message' style='color:#a60;padding:4px'>⚠ "
            f"{html.escape(text)}</div>")

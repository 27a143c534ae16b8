"""Keep notebook validation from loading an IRI grammar it never uses.

``import nbformat`` imports ``jsonschema``, whose format checkers import
``rfc3987_syntax`` when it is installed; that module builds a Lark grammar on import,
about one second of CPU in every process that reads a notebook (``bleu-lesson student``,
``check``, ``workspace``, ``tools/run_notebooks.py``, each test worker). It serves only the
``"iri"`` and ``"iri-reference"`` string formats, and nbformat's schemas use no string
format at all, so a notebook is validated exactly as before: jsonschema simply does not
register those two format checkers (as when ``rfc3987_syntax`` is not installed).

Call :func:`skip_iri_grammar` before anything imports ``jsonschema``::

    >>> import subprocess, sys
    >>> code = ("from bleu_lesson.cli.nbschema import skip_iri_grammar as s; s(); "
    ...         "import nbformat, sys; print(sys.modules['rfc3987_syntax'], 'lark' in sys.modules)")
    >>> subprocess.run([sys.executable, "-c", code], capture_output=True,
    ...                text=True).stdout.strip()
    'None False'
"""

from __future__ import annotations

import sys

#: The module jsonschema imports, only for its IRI format checkers.
IRI_GRAMMAR = "rfc3987_syntax"


def skip_iri_grammar() -> bool:
    """Make a later ``import rfc3987_syntax`` fail (jsonschema then skips the IRI formats).

    Returns True if it took effect, False when ``jsonschema`` (or the grammar) was already
    imported, where it changes nothing. Calling it twice is harmless.
    """
    if "jsonschema" in sys.modules or sys.modules.get(IRI_GRAMMAR) is not None:
        return False
    sys.modules[IRI_GRAMMAR] = None  # type: ignore[assignment]  # import -> ImportError
    return True


def python_m(module: str) -> list[str]:
    """The command ``python -m module``, with :func:`skip_iri_grammar` applied first.

    For tools that read notebooks in a child process (nbconvert, nbgrader, JupyterLab)::

        >>> import subprocess, sys
        >>> cmd = python_m("json.tool")
        >>> cmd[0] == sys.executable and cmd[1] == "-c"
        True
        >>> subprocess.run([*cmd, "--compact"], input='{"a": [1, 2]}', capture_output=True,
        ...                text=True).stdout.strip()
        '{"a":[1,2]}'
    """
    return [sys.executable, "-c",
            "from bleu_lesson.cli.nbschema import skip_iri_grammar; skip_iri_grammar(); "
            f"import runpy; runpy.run_module({module!r}, run_name='__main__', alter_sys=True)"]

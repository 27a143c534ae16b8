"""bleu_lesson.cli.nbschema: notebook reading skips jsonschema's IRI grammar, validation stays."""

from __future__ import annotations

import subprocess
import sys

import pytest

PRELUDE = "from bleu_lesson.cli.nbschema import skip_iri_grammar; print(skip_iri_grammar()); "


def _run(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return done.stdout.split()


def test_skipped_grammar_is_not_imported_but_jsonschema_is() -> None:
    """After the call nbformat and jsonschema load; the grammar module and Lark do not."""
    out = _run(PRELUDE + "import nbformat, sys; "
               "print('jsonschema' in sys.modules, sys.modules['rfc3987_syntax'], "
               "'lark' in sys.modules)")
    assert out == ["True", "True", "None", "False"]


def test_too_late_changes_nothing() -> None:
    """Once jsonschema is imported the call reports False and leaves sys.modules alone."""
    out = _run("import jsonschema, sys; had = sys.modules.get('rfc3987_syntax'); "
               + PRELUDE + "print(sys.modules.get('rfc3987_syntax') is had)")
    assert out == ["False", "True"]


@pytest.mark.parametrize("skip", [False, True])
def test_notebook_validation_unchanged(skip: bool) -> None:
    """A valid notebook passes and a broken one (a code cell without outputs, a bad
    nbformat_minor type) is rejected with the same messages, with or without the skip."""
    code = ((PRELUDE if skip else "print(None); ") +
            "import json, nbformat\n"
            "from nbformat.v4 import new_notebook, new_code_cell\n"
            "nb = new_notebook(cells=[new_code_cell('1')]); nbformat.validate(nb)\n"
            "bad = json.loads(nbformat.writes(nb)); del bad['cells'][0]['outputs']\n"
            "try:\n"
            "    nbformat.validate(nbformat.from_dict(bad)); print('accepted')\n"
            "except nbformat.ValidationError as e:\n"
            "    print('rejected:' + str(e.message).replace(' ', '_'))\n")
    out = _run(code)
    assert out[1] == "rejected:'outputs'_is_a_required_property"


def test_pytest_processes_skip_the_grammar() -> None:
    """pyproject's ``-p bleu_lesson.cli._pytest_nbschema`` ran before nbval imported
    nbformat in this (worker) process."""
    import nbformat  # noqa: F401  (loaded by nbval already)

    assert "jsonschema" in sys.modules
    assert sys.modules.get("rfc3987_syntax", None) is None

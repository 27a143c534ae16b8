"""Re-execute the chapters in place, each in a fresh kernel: what ``make notebooks`` runs.

    python tools/run_notebooks.py                 # every notebooks/NN_*.ipynb
    python tools/run_notebooks.py notebooks/04_brevity_penalty.ipynb
    python tools/run_notebooks.py --dry-run       # print the plan, execute nothing

A chapter whose registry entry says ``NEEDS_DATA`` (``bleu_lesson/teaching/chapters/chNN.py``) is
skipped, with one line saying how to get the data, when the WMT22 files are neither in
``$BLEU_LESSON_WMT22_DIR`` nor in the user cache (looked for as the library looks, nothing
downloaded); every other chapter is executed. A chapter that fails does not stop the
others. Exit status: 0 when every executed chapter ran (skips are not failures), 1 when one
failed, 2 for a bad argument. Executed with
``jupyter nbconvert --execute --inplace --ExecutePreprocessor.record_timing=False``, so a
re-run does not rewrite every cell's timing metadata. Then each widget model id (a random
UUID the kernel made) is replaced by one derived from the notebook's name and the model's
place in the saved widget state, so that a second run writes the same bytes
(``stable_widget_ids``): the saved state stays, because the learner's first view and the
web edition show the explorers from it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _files import chosen_files  # noqa: E402  (tools/, beside this script)

from bleu_lesson.cli.nbschema import python_m, skip_iri_grammar  # noqa: E402
from bleu_lesson.data import datasets  # noqa: E402
from bleu_lesson.data.datasets import get_data_hint  # noqa: E402
from bleu_lesson.teaching.chapters import registry  # noqa: E402

#: ``python -m nbconvert`` (without nbformat's unused IRI grammar: bleu_lesson/cli/nbschema.py)
NBCONVERT = [*python_m("nbconvert"), "--to", "notebook", "--execute", "--inplace",
             "--ExecutePreprocessor.kernel_name=python3",
             "--ExecutePreprocessor.record_timing=False"]


@dataclass(frozen=True)
class Step:
    """One notebook of the plan: executed, or skipped with the reason."""

    path: Path
    skip: str | None = None

    def line(self) -> str:
        name = self.path.name
        return f"== skip {name}: {self.skip}" if self.skip else f"== execute {name}"


WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
_MODEL_REF = re.compile(r"IPY_MODEL_([0-9a-f]{32})")


def _model_order(nb: dict) -> list[str]:
    """The saved widget models in an order a re-run repeats: the displayed ones in the
    order of the outputs, each followed by the models it refers to (depth first); then
    the others, sorted by their state with the ids masked out."""
    state = nb.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    order: list[str] = []

    def visit(model: str) -> None:
        if model in state and model not in order:
            order.append(model)
            for ref in _MODEL_REF.findall(json.dumps(state[model], sort_keys=True)):
                visit(ref)

    for cell in nb.get("cells", []):
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get("application/vnd.jupyter.widget-view+json")
            if isinstance(view, dict) and "model_id" in view:
                visit(view["model_id"])
    rest = [m for m in state if m not in order]
    masked = {m: _MODEL_REF.sub("IPY_MODEL_", json.dumps(state[m], sort_keys=True))
              for m in rest}
    for model in sorted(rest, key=lambda m: masked[m]):
        visit(model)
    return order


def _coalesce_streams(nb: dict) -> None:
    """Join consecutive stream outputs of one stream, as a reader sees them: how a
    kernel's prints were cut into messages depends on timing, not on the chapter."""
    for cell in nb.get("cells", []):
        outputs = cell.get("outputs")
        if not outputs:
            continue
        joined: list[dict] = []
        for output in outputs:
            previous = joined[-1] if joined else None
            if (output.get("output_type") == "stream" and previous is not None
                    and previous.get("output_type") == "stream"
                    and previous.get("name") == output.get("name")):
                previous["text"] = _text(previous["text"]) + _text(output["text"])
            else:
                joined.append(output)
        cell["outputs"] = joined


def _text(text: str | list[str]) -> str:
    return text if isinstance(text, str) else "".join(text)


def stable_widget_ids(text: str, name: str) -> str:
    """The notebook ``text`` written again with every widget model id replaced by a
    stable one, and consecutive prints to one stream joined (``_coalesce_streams``).

    The k-th model (``_model_order``) gets ``sha1(f"{name}:{k}")[:32]``; every occurrence
    of an old id (state keys, ``IPY_MODEL_`` references, outputs' ``model_id``) is
    replaced, and the notebook is written as nbformat writes it (keys sorted).

    >>> from nbformat.v4 import new_code_cell, new_notebook, new_output
    >>> view = {"application/vnd.jupyter.widget-view+json": {"model_id": "a" * 32}}
    >>> nb = new_notebook(cells=[new_code_cell(outputs=[new_output("display_data", view)])],
    ...                   metadata={"widgets": {WIDGET_STATE: {"state": {"a" * 32: {}}}}})
    >>> out = json.loads(stable_widget_ids(json.dumps(nb), "x.ipynb"))
    >>> out["cells"][0]["outputs"][0]["data"][
    ...     "application/vnd.jupyter.widget-view+json"]["model_id"] == hashlib.sha1(
    ...     b"x.ipynb:0").hexdigest()[:32]
    True
    """
    import nbformat

    nb = json.loads(text)
    new = {old: hashlib.sha1(f"{name}:{k}".encode()).hexdigest()[:32]
           for k, old in enumerate(_model_order(nb))}
    if new:
        pattern = re.compile("|".join(map(re.escape, new)))
        nb = json.loads(pattern.sub(lambda m: new[m.group(0)], text))
    _coalesce_streams(nb)
    return nbformat.writes(nbformat.from_dict(nb))


def execute(path: Path) -> bool:
    """Execute one notebook in place, then make its widget ids stable; whether it ran."""
    if subprocess.run([*NBCONVERT, str(path)]).returncode != 0:
        return False
    text = path.read_text(encoding="utf-8")
    stable = stable_widget_ids(text, path.name)
    if stable != text:
        path.write_text(stable, encoding="utf-8")
    return True


def data_missing() -> str | None:
    """Why the chapters that need data cannot run here (one line), or None."""
    problem = datasets.data_missing()  # the library's one answer
    return f"needs the WMT22 data ({problem}); {get_data_hint()}" if problem else None


def plan(notebooks: list[Path], missing: str | None) -> list[Step]:
    """Each notebook with what to do with it: chapters that need data are skipped while
    ``missing`` says the data is absent; notebooks the registry does not know run."""
    needs = {ch.notebook for ch in registry().values() if ch.needs_data}
    return [Step(p, missing if missing and p.name in needs else None) for p in notebooks]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path,
                        help="notebooks to execute (default: notebooks/[0-9]*.ipynb)")
    parser.add_argument("--dry-run", action="store_true",
                        help="print what would be executed and skipped, execute nothing")
    args = parser.parse_args(argv)
    notebooks = chosen_files(args.notebooks, "notebooks/[0-9]*.ipynb", "run_notebooks",
                             "NOTEBOOK")
    if not notebooks:
        print("no notebooks/[0-9]*.ipynb to execute")
        return 0
    steps = plan(notebooks, data_missing())
    failed = []
    for step in steps:
        print(step.line(), flush=True)
        if step.skip or args.dry_run:
            continue
        if not execute(step.path):
            failed.append(step.path.name)
    ran = [s for s in steps if not s.skip]
    skipped = len(steps) - len(ran)
    verb = "to execute" if args.dry_run else "executed"
    print(f"{len(ran) - len(failed)} of {len(steps)} notebooks {verb}, {skipped} skipped"
          + (f", {len(failed)} FAILED: {' '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    skip_iri_grammar()
    sys.exit(main())

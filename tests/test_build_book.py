"""tools/build_book.py's page rules, without building: each chapter's student copy with its
predictions folded and its explorers drawn from their saved state (the browser test,
tests/e2e/test_book.py, builds the site and opens it)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import build_book  # noqa: E402

CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
VIEW = "application/vnd.jupyter.widget-view+json"
STATE = "application/vnd.jupyter.widget-state+json"


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_every_prediction_is_folded_with_the_output_it_predicts(path):
    nb = _load(path)
    cells = nb["cells"]
    # the oracle: the markdown cells that show an expected output, found here by their text
    asked = [k for k, c in enumerate(cells) if c["cell_type"] == "markdown"
             and "Expected output" in "".join(c["source"]) and "```" in "".join(c["source"])]
    build_book.fold_predictions(nb)
    for k in asked:
        source = "".join(nb["cells"][k]["source"])
        folds = [m.span() for m in re.finditer(r"<details\b.*?</details>", source, re.S)]
        if "::::{dropdown}" in source:  # an answer that stood in plain view, folded here
            folds.append((source.index("::::{dropdown}"), source.rindex("::::")))
            after = next(c for c in nb["cells"][k + 1:] if c["cell_type"] == "code")
            assert "hide-output" in after["metadata"]["tags"]
        else:  # already folded after its run by the chapter: a <details> is a closed fold
            assert "::::" not in source
        for fence in [m.start() for m in re.finditer("```", source)]:
            assert any(a < fence < b for a, b in folds), (path.name, k)  # none outside a fold


def test_an_answer_the_chapter_already_folds_is_not_nested_in_a_second_fold():
    """The CI run found chapter 06-10 pages whose dropdown sat inside the chapter's own closed
    <details>: no reader could open it. Such an answer stays one fold, and the next cell's
    output stays in view."""
    block = ("<details><summary>对照</summary>\n\n预期输出 / Expected output:\n\n"
             "```\nBLEU = 0.9036\n```\n</details>")
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": "print(1)", "outputs": []},
                    {"cell_type": "markdown", "metadata": {}, "source": block},
                    {"cell_type": "code", "metadata": {}, "source": "print(2)", "outputs": []}]}
    assert build_book.fold_predictions(nb) == 0
    assert nb["cells"][1]["source"] == block
    assert "hide-output" not in nb["cells"][2]["metadata"].get("tags", [])


@pytest.mark.parametrize("path", [p for p in CHAPTERS if VIEW in p.read_text("utf-8")],
                         ids=lambda p: p.stem)
def test_explorers_are_drawn_from_their_saved_state(path):
    nb = _load(path)
    state = nb["metadata"]["widgets"][STATE]["state"]
    views = sum(VIEW in o.get("data", {}) for c in nb["cells"] for o in c.get("outputs", []))
    # the oracle: values that the saved state holds, read here without the tool
    sliders = [str(m["state"]["value"]) for m in state.values()
               if m["model_name"] == "IntSliderModel"]
    assert build_book.static_explorers(nb) == views > 0
    assert "widgets" not in nb["metadata"]  # no widget JavaScript will be asked for
    drawn = [o["data"]["text/html"] for c in nb["cells"] for o in c.get("outputs", [])
             if "bl-explorer" in o.get("data", {}).get("text/html", "")]
    assert len(drawn) == views
    assert all(build_book.LIVE_NOTE in html for html in drawn)
    for value in sliders:
        assert any(f'value="{value}" disabled' in html for html in drawn), value
    assert not any(VIEW in o.get("data", {}) for c in nb["cells"] for o in c.get("outputs", []))


def test_the_course_map_names_every_chapter_and_binder():
    chapters = [(p.name, build_book.chapter_title(_load(p), p.stem), False) for p in CHAPTERS]
    page = build_book.course_map(chapters, "https://mybinder.org/v2/gh/o/r/HEAD")
    for name, title, _ in chapters:
        assert f"[{title}]({name})" in page
    assert "(https://mybinder.org/v2/gh/o/r/HEAD)" in page
    assert "<owner>/<repo>" in build_book.course_map(chapters)  # without it: how


def test_out_may_not_be_the_repository(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        build_book.main(["--out", str(ROOT)])
    assert stop.value.code == 2 and "would replace the repository" in capsys.readouterr().err

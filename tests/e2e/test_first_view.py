"""The first view of a learner's chapter, before anything runs, in Chromium.

The workspace ``make lab`` makes (``prepare_workspace``) is served, and each chapter with an
explorer is opened *without running it*: every explorer and quiz is drawn from the saved
widget state (sliders, text boxes, the result), and no widget's Python repr
(``BrevityExplorer(children=(IntSlider(...``) is visible.
"""

from __future__ import annotations

import re

import pytest
from test_chapters_in_browser import _open_notebook, _wait_for_widgets

from bleu_lesson.grading import workspace as ws
from bleu_lesson.grading.course import WIDGET_PLACEHOLDER

pytestmark = pytest.mark.e2e

_REPR = re.compile(r"\b[A-Z]\w*\(children=\(")
UNRUN = ["04_brevity_penalty.ipynb", "06_bleu_multi_reference.ipynb"]  # explorers and quizzes


@pytest.fixture(scope="module")
def room(lab):
    """The learner's workspace inside the served folder, its copies trusted by the server's
    own signature store (the lab's JUPYTER_DATA_DIR), as ``make lab`` trusts them."""
    import os

    folder = lab.root_dir / "workspace"
    before = os.environ.get("JUPYTER_DATA_DIR")
    os.environ["JUPYTER_DATA_DIR"] = str(lab.root_dir.parent / "data")
    try:
        ws.prepare_workspace(folder, lab.root_dir)
    finally:
        if before is None:
            os.environ.pop("JUPYTER_DATA_DIR", None)
        else:
            os.environ["JUPYTER_DATA_DIR"] = before
    return folder


@pytest.mark.parametrize("name", UNRUN)
def test_an_unrun_chapter_shows_its_explorers_not_their_repr(name, room, lab, page):
    _open_notebook(page, lab, f"workspace/{name}")
    # drawn from the notebook's saved widget state once the kernel is up (nothing runs)
    page.locator(".jp-Notebook .bleu-result").first.wait_for(state="attached")
    _wait_for_widgets(page)
    outputs = "\n".join(page.locator(".jp-Notebook .jp-OutputArea-output").all_text_contents())
    assert not _REPR.search(outputs), f"a widget's repr is visible: {_REPR.search(outputs)}"
    assert WIDGET_PLACEHOLDER not in outputs, "the explorer was not drawn from saved state"
    assert page.locator(".jp-Notebook .widget-slider, .jp-Notebook .widget-text").count() >= 1, \
        "no explorer control drawn before the run"
    model = page.evaluate("() => window.jupyterapp.shell.currentWidget.content.model.cells"
                          ".get(0).executionCount")
    assert model is None, "the chapter was run"


def test_the_start_page_lists_every_chapter(room, lab, page):
    from urllib.parse import quote

    page.goto(f"{lab.url}/lab/workspaces/e2e-start/tree/workspace/{quote(ws.START_PAGE)}"
              f"?reset&token={lab.token}", wait_until="domcontentloaded")
    page.locator(".jp-Notebook .jp-RenderedMarkdown").filter(
        has_text="课程地图").first.wait_for(state="attached")  # the markdown renders late
    page.locator(".jp-Notebook .jp-RenderedMarkdown").filter(
        has_text="solution(").first.wait_for(state="attached")
    assert page.locator(".jp-Dialog").count() == 0, "a dialog (kernel choice?) covers it"
    text = "\n".join(page.locator(".jp-Notebook .jp-RenderedMarkdown").all_text_contents())
    assert "课程地图" in text and "solution(" in text
    links = page.locator(".jp-Notebook .jp-RenderedMarkdown table a")
    assert links.count() >= 11


def test_the_file_browser_shows_whole_chapter_names(room, lab, page):
    page.goto(f"{lab.url}/lab/workspaces/e2e-names/tree/workspace?reset&token={lab.token}",
              wait_until="domcontentloaded")
    items = page.locator(".jp-DirListing-item .jp-DirListing-itemText")
    items.filter(has_text="03_clipped_counts").first.wait_for(state="visible")
    cut = page.evaluate("""() => [...document.querySelectorAll(
        '.jp-DirListing-item .jp-DirListing-itemText')]
        .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)""")
    assert not cut, f"file names cut off in the file browser: {cut}"


def test_opening_the_start_page_leaves_it_saved(room, lab, page):
    """Opening the start page must not mark it modified (JupyterLab's dirty dot): once its
    kernel is up, nothing the lab writes into the notebook (the kernel's language_info)
    differs from what is saved."""
    from urllib.parse import quote

    page.goto(f"{lab.url}/lab/workspaces/e2e-dirty/tree/workspace/{quote(ws.START_PAGE)}"
              f"?reset&token={lab.token}", wait_until="domcontentloaded")
    page.locator(".jp-Notebook .jp-RenderedMarkdown").filter(
        has_text="课程地图").first.wait_for(state="attached")
    page.wait_for_function(
        "() => { const w = window.jupyterapp.shell.currentWidget;"
        " const k = w && w.sessionContext && w.sessionContext.session"
        " && w.sessionContext.session.kernel;"
        " return k && k.status === 'idle' && k.info !== undefined; }", timeout=90_000,
        polling=250)
    page.wait_for_timeout(1500)  # the lab copies the kernel's info into the model then
    dirty = page.evaluate("() => window.jupyterapp.shell.currentWidget.context.model.dirty")
    assert dirty is False, "the start page is marked modified just by opening it"
    assert page.locator(".lm-TabBar-tab.jp-mod-current.jp-mod-dirty").count() == 0

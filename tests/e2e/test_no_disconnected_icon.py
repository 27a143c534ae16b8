"""An unrun chapter in the learner's lab shows no red broken-chain icon on its explorers.

A widget drawn from the notebook's saved state has no kernel-side model, so ipywidgets marks
it ``jupyter-widgets-disconnected`` and draws a red broken-chain icon in its ``::before``:
on every explorer of a chapter not yet run, where nothing is wrong. The lab ``make lab``
starts (``python -m bleu_lesson.grading.workspace --lab``, the ``started`` fixture) loads
``workspace.LEARNER_CSS``, which hides it; the widgets themselves stay drawn.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from test_chapters_in_browser import _wait_for_widgets

pytestmark = pytest.mark.e2e

# each disconnected widget: is its ::before drawn (content and box) and on screen?
_ICONS = """() => [...document.querySelectorAll('.jp-Notebook .jupyter-widgets-disconnected')]
    .map(el => { const s = getComputedStyle(el, '::before');
                 return {drawn: s.display !== 'none' && s.content !== 'none'
                                && s.content !== 'normal' && s.content !== '""',
                         visible: el.getClientRects().length > 0}; })"""


@pytest.mark.parametrize("name", ["04_brevity_penalty.ipynb", "06_bleu_multi_reference.ipynb"])
def test_an_unrun_chapter_shows_no_disconnected_icon(name, started, browser):
    port, printed = started
    token = parse_qs(urlsplit(printed).query)["token"][0]
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/lab/tree/{name}?token={token}",
                  wait_until="domcontentloaded")
        page.locator(".jp-Notebook .widget-slider, .jp-Notebook .widget-text").first.wait_for(
            state="attached", timeout=120_000)
        _wait_for_widgets(page)
        # JupyterLab hides cells outside the window: bring the first explorer into view
        page.evaluate("""() => document.querySelector(
            '.jp-Notebook .jupyter-widgets-disconnected')?.scrollIntoView()""")
        page.wait_for_function(f"() => ({_ICONS})().some(icon => icon.visible)",
                               timeout=30_000, polling=250)
        icons = page.evaluate(_ICONS)
        # the explorers are drawn from saved state, with no kernel behind them
        assert any(icon["visible"] for icon in icons), "no disconnected widget on the page"
        shown = [icon for icon in icons if icon["visible"] and icon["drawn"]]
        assert not shown, f"{len(shown)} of {len(icons)} widgets show the broken-chain icon"
    finally:
        context.close()

"""Every chapter, as a learner sees it: its learner copy (exercise stubs, no solutions) in
JupyterLab in headless Chromium, Run All, then look.

nbval compares the outputs a kernel produces, but a widget is only a model id there: it
cannot tell whether the explorer shows up in the page or reacts to its controls. Here each
chapter is opened in JupyterLab, its outputs cleared and all cells run; then the page must
show no error and no "Error displaying widget", every code cell must have run (an untouched
exercise stops nothing: its check says "还没有完成"), and the chapter's explorer (its result has
the CSS class ``bleu-result``) must be visible and answer one interaction (a text typed,
a slider moved with the keyboard, a box ticked, a menu choice) with the value that
bleu_lesson computes, in the test process, for the new input.

The default inputs assumed below are those of the notebooks' explorer cells; each test
first checks them in the page, so an edited notebook fails with a clear message.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from notebook_tools import NEEDS_WMT22, wmt22_unavailable

from bleu_lesson import (
    BleuScorer,
    brevity_penalty,
    clipped_counts,
    closest_ref_length,
    corpus_bleu,
    ngram_counts,
    sentence_bleu,
)
from bleu_lesson.core.bleu import geometric_mean
from bleu_lesson.core.seed import tokenize
from bleu_lesson.core.tokenizers import tokenize as tokenize_with
from bleu_lesson.data.datasets import SEED_CANDIDATE, SEED_REFERENCES, TOY_CORPUS
from bleu_lesson.grading.course import STUB

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))

KERNEL_READY_TIMEOUT = 60_000  # ms: the kernel starts when the notebook opens
RUN_ALL_TIMEOUT = 120_000  # ms: chapter 09 scores twelve systems a few times over
RESULT_TIMEOUT = 15_000  # ms: an explorer re-renders after one change
WIDGET_TIMEOUT = 30_000  # ms: the widget views render after Run All

WIDGET_ERRORS = ("Error displaying widget", "Error creating widget", "Error rendering widget")


def _params():
    unavailable = None
    for path in CHAPTERS:
        marks = []
        if path.name in NEEDS_WMT22:
            unavailable = unavailable or wmt22_unavailable()
            if unavailable:
                marks.append(pytest.mark.skip(reason=unavailable))
        yield pytest.param(path.name, id=path.stem, marks=marks)


def expect(locator):
    """Playwright's auto-waiting assertions (imported late: without playwright, conftest.py
    skips every test here with the reason)."""
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


# --- driving JupyterLab --------------------------------------------------------------

# the status bar's kernel state, in the lab's default language (Chinese) or in English
_KERNEL_IDLE = re.compile(r"\|\s*(?:Idle\b|空闲)")

# Resolves to {ok, error}: run-all's promise settles when the last cell has finished.
_RUN_ALL_JS = """async () => {
  const app = window.jupyterapp;
  window.__e2eRunAll = undefined;
  await app.commands.execute('notebook:clear-all-cell-outputs');
  app.commands.execute('notebook:run-all-cells').then(
    ok => { window.__e2eRunAll = {ok: ok === undefined ? true : ok}; },
    err => { window.__e2eRunAll = {ok: false, error: String(err)}; });
}"""

# What the notebook's model says after the run: code cells without a count, error outputs.
_MODEL_JS = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const cells = panel.content.model.cells;
  const notRun = [], errors = [], notDone = [];
  for (let i = 0; i < cells.length; i++) {
    const cell = cells.get(i);
    if (cell.type !== 'code' || !cell.sharedModel.getSource().trim()) continue;
    if (cell.executionCount === null) notRun.push(i);
    const outputs = cell.outputs;
    for (let k = 0; k < outputs.length; k++) {
      const out = outputs.get(k).toJSON();
      if (out.output_type === 'error') errors.push(`cell ${i}: ${out.ename}: ${out.evalue}`);
      if (JSON.stringify(out).includes('还没有完成')) notDone.push(i);
    }
  }
  return {notRun, errors, notDone,
          kernel: panel.sessionContext.session?.kernel?.name ?? null};
}"""


# Closes every document in the main area without asking (a chapter that ran is "modified":
# closing it the usual way would open a save dialog), so the next chapter is the only one.
_CLOSE_ALL_JS = """() => {
  const app = window.jupyterapp;
  for (const widget of [...app.shell.widgets('main')]) {
    if (widget.context?.model) widget.context.model.dirty = false;
    widget.dispose();
  }
}"""


def _open_notebook(page, lab, name: str) -> None:
    """Open chapter ``name`` alone: in a fresh page, by loading the lab on it; in the page
    an earlier chapter used, by closing that chapter and opening this one from the lab's
    file browser command (a JupyterLab page load costs ~7 s of the browser's CPU)."""
    if page.url.startswith(lab.url) and page.evaluate("() => !!window.jupyterapp"):
        page.evaluate(_CLOSE_ALL_JS)
        lab.shutdown_sessions()
        page.evaluate("(path) => window.jupyterapp.commands.execute('docmanager:open', "
                      "{path, factory: 'Notebook'})", name)
    else:
        page.goto(lab.notebook_url(name), wait_until="domcontentloaded")
    # window.jupyterapp exists thanks to --LabApp.expose_app_in_browser
    page.wait_for_function(
        """() => { const panel = window.jupyterapp?.shell?.currentWidget;
                   return !!(panel && panel.content && panel.content.model
                             && panel.context?.isReady && panel.sessionContext?.isReady); }""",
        timeout=KERNEL_READY_TIMEOUT, polling=250)
    page.locator(".jp-Notebook").first.wait_for(state="visible")
    status_bar = page.locator("#jp-main-statusbar")
    status_bar.get_by_text(_KERNEL_IDLE).wait_for(state="visible", timeout=KERNEL_READY_TIMEOUT)


def _run_all(page) -> dict:
    """Clear the outputs, Run All, wait until the last cell has run; how run-all ended."""
    page.evaluate(_RUN_ALL_JS)
    page.wait_for_function("() => window.__e2eRunAll !== undefined", timeout=RUN_ALL_TIMEOUT,
                           polling=250)
    # the page, too: no cell still waiting "[*]" and the kernel idle in the status bar
    page.wait_for_function(
        """() => ![...document.querySelectorAll('.jp-Notebook .jp-InputPrompt')]
                  .some(p => p.textContent.includes('*'))""", timeout=RUN_ALL_TIMEOUT,
        polling=250)
    page.locator("#jp-main-statusbar").get_by_text(_KERNEL_IDLE).wait_for(
        state="visible", timeout=RUN_ALL_TIMEOUT)
    return page.evaluate("() => window.__e2eRunAll")


def _wait_for_widgets(page) -> None:
    """Every widget output has settled: its view rendered, or an error shows instead.

    A widget output says "Loading widget..." until the manager has the model; then the view
    replaces the text, or "Error displaying widget: model not found" does (after a while).
    """
    page.wait_for_function(
        """() => ![...document.querySelectorAll('.jp-Notebook .jp-OutputArea-output')]
                  .some(o => o.childElementCount === 0
                             && o.textContent.trim().startsWith('Loading widget'))""",
        timeout=WIDGET_TIMEOUT, polling=250)


def _check_page_has_no_errors(page) -> None:
    # in outputs only: a chapter's markdown may quote the message to explain it
    text = "\n".join(page.locator(".jp-Notebook .jp-OutputArea-output").all_text_contents())
    for message in WIDGET_ERRORS:
        assert message not in text, f"an output shows {message!r}"
    stderr = page.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')
    shown = [t.strip()[:500] for t in stderr.all_text_contents()]
    tracebacks = [t for t in shown if "Traceback" in t or "Error" in t]
    assert not tracebacks, "error output in the page:\n" + "\n---\n".join(tracebacks)
    assert not shown, "stderr output (a warning?) in the page:\n" + "\n---\n".join(shown)
    errors = page.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"]')
    assert errors.count() == 0, "error output in the page:\n" + "\n".join(
        errors.all_text_contents())
    model = page.evaluate(_MODEL_JS)
    assert not model["errors"], f"error outputs: {model['errors']}"
    assert not model["notRun"], f"code cells without an execution count: {model['notRun']}"
    assert model["kernel"] == "python3", f"the notebook ran on kernel {model['kernel']!r}"


# --- the explorers' controls ---------------------------------------------------------

def _labelled(explorer, kind: str, description: str):
    """The control of CSS class ``widget-<kind>`` whose description is ``description``."""
    label = explorer.page.locator(".widget-label", has_text=re.compile(
        rf"^\s*{re.escape(description)}\s*$"))
    control = explorer.locator(f".widget-{kind}").filter(has=label)
    assert control.count() == 1, f"{control.count()} {kind} controls labelled {description!r}"
    return control


def _text_box(explorer, description: str):
    return _labelled(explorer, "text", description).locator("input")


def _textarea(explorer, description: str):
    return _labelled(explorer, "textarea", description).locator("textarea")


def _type(box, text: str) -> None:
    """Type into a text box and commit (continuous_update=False: Enter or leaving it)."""
    box.click()
    box.fill(text)
    box.press("Enter")


def _slider(explorer, description: str):
    return _labelled(explorer, "slider", description)


def _slider_value(slider) -> str:
    return slider.locator(".widget-readout").text_content().strip()


def _expect_slider(slider, value: str) -> None:
    """The slider's readout shows ``value`` (it follows the handle)."""
    expect(slider.locator(".widget-readout")).to_have_text(value, timeout=RESULT_TIMEOUT)


def _assume(what: str, shown: object, assumed: object) -> None:
    """The explorer starts from the inputs this test assumes (read off the notebook)."""
    assert shown == assumed, (
        f"the explorer's {what} starts as {shown!r}, the test assumes {assumed!r}: "
        "the notebook's explorer cell changed; update INTERACTIONS in this file")


def _move_slider(slider, key: str) -> None:
    """Focus the slider's handle and press an arrow key, as a keyboard user does."""
    handle = slider.locator(".noUi-handle")
    handle.focus()
    handle.press(key)


def _dropdown(explorer, description: str):
    return _labelled(explorer, "dropdown", description).locator("select")


def _expect_result(result, *parts: str) -> None:
    for part in parts:
        expect(result).to_contain_text(part, timeout=RESULT_TIMEOUT)


def _table(result) -> list[list[str]]:
    return result.evaluate("""r => [...r.querySelectorAll('tbody tr')].map(
        tr => [...tr.cells].map(c => c.textContent.trim()))""")


# --- one interaction per chapter -----------------------------------------------------
# Each takes the explorer (the box holding the controls and .bleu-result) and its result.

def _ch01_tokenization(explorer, result):
    box = _text_box(explorer, "文本 (text)")
    _assume("text", box.input_value(), "The cat sat on the mat.")
    text = "Hello, World! Isn't BLEU fun?"
    _type(box, text)
    tokens = tokenize_with(text, "13a", lowercase=False)
    _expect_result(result, "种分词器 (tokenizers)")
    # wait for the 13a row itself: "18 个词元" of the old text's char row contains "8 个词元"
    row_13a = result.locator("tr", has=result.page.locator("td", has_text=re.compile(r"^13a$")))
    expect(row_13a.first).to_contain_text(re.compile(rf"(^|\D){len(tokens)} 个词元"),
                                          timeout=RESULT_TIMEOUT)
    rows = {row[0]: row for row in _table(result)}  # every tokenizer, side by side
    assert rows["13a"][1] == f"{len(tokens)} 个词元", rows["13a"]
    chips = result.locator("tr", has_text="13a").first.locator("span").all_text_contents()
    assert chips == tokens, f"tokens shown {chips}, the library's {tokens}"


def _ch02_ngrams(explorer, result):
    text = "the cat is on the mat"
    _assume("text", _text_box(explorer, "文本 (text)").input_value(), text)
    slider = _slider(explorer, "阶数 n")
    _assume("n", _slider_value(slider), "2")
    _move_slider(slider, "ArrowRight")
    _expect_slider(slider, "3")
    words = tokenize(text)
    counts = ngram_counts(words, 3)
    L = len(words)
    _expect_result(result, f"L = {L}, n = 3: {L} − 3 + 1 = {L - 3 + 1}",
                   f"{sum(counts.values())} 个 3 元语法 (n-grams), {len(counts)} 个不同")
    shown = {row[0]: int(row[1]) for row in _table(result) if len(row) == 2}
    assert shown == {" ".join(g): c for g, c in counts.items()}


def _ch03_clipped_counts(explorer, result):
    _assume("candidate", _text_box(explorer, "候选译文 (candidate)").input_value(), SEED_CANDIDATE)
    _assume("references", _textarea(explorer, "参考译文 (references)").input_value(),
            "\n".join(SEED_REFERENCES))
    slider = _slider(explorer, "阶数 n")
    _assume("n", _slider_value(slider), "4")  # the slider's maximum: move it down
    _move_slider(slider, "ArrowLeft")
    _expect_slider(slider, "3")
    m, t = clipped_counts(tokenize(SEED_CANDIDATE), [tokenize(r) for r in SEED_REFERENCES], 3)
    _expect_result(result, f"p_3 = {m}/{t} = {m / t:.4f}")


def _ch04_brevity_penalty(explorer, result):
    slider = _slider(explorer, "候选长度 c")
    _assume("c", _slider_value(slider), "6")
    _assume("reference lengths",
            _text_box(explorer, "各参考长度 (reference lengths)").input_value(), "7, 5")
    _move_slider(slider, "ArrowLeft")
    _expect_slider(slider, "5")
    c, lens = 5, [7, 5]
    _expect_result(result, f"候选长度 c = {c}")
    want = []
    for tie in ("shorter", "first"):
        best = closest_ref_length(c, lens, tie=tie)
        want.append([f"r = {best}", f"{brevity_penalty(c, best):.4f}"])
    assert [[row[1], row[3]] for row in _table(result)] == want


def _ch05_geometric_mean(explorer, result):
    precisions, weights = [1.0, 0.8, 0.5, 0.25], [0.25] * 4
    for i, (p, w) in enumerate(zip(precisions, weights, strict=True), start=1):
        _assume(f"p{i}", float(_slider_value(_slider(explorer, f"p{i}"))), p)
        _assume(f"w{i}", float(_slider_value(_slider(explorer, f"w{i}"))), w)
    slider = _slider(explorer, "p4")
    _move_slider(slider, "ArrowRight")  # one step: 0.01
    _expect_slider(slider, "0.26")
    before = geometric_mean(precisions, weights)
    precisions[3] = 0.26
    geo = geometric_mean(precisions, weights)
    arith = sum(p * w for p, w in zip(precisions, weights, strict=True))
    assert f"{geo:.4f}" != f"{before:.4f}"  # the change shows in 4 decimals
    _expect_result(result, f"(weighted geometric mean) = {geo:.4f}",
                   f"算术 (arithmetic) Σ w·p = {arith:.4f}", "Σw = 1.0000")


def _ch06_bleu_multi_reference(explorer, result):
    box = _text_box(explorer, "候选译文 (candidate)")
    _assume("candidate", box.input_value(), SEED_CANDIDATE)
    _assume("references", _textarea(explorer, "参考译文 (references)").input_value(),
            "\n".join(SEED_REFERENCES))
    options = dict(tokenizer="none", lowercase=True, smoothing="none", effective_order=False)
    before = sentence_bleu(SEED_CANDIDATE, SEED_REFERENCES, **options)
    _expect_result(result, f"BLEU = {before.score:.4f}")  # 0.9036 = (2/3) ** (1/4)
    candidate = "the cat is sitting on the mat"
    _type(box, candidate)
    want = sentence_bleu(candidate, SEED_REFERENCES, **options)
    assert f"{want.score:.4f}" == "1.0000"  # the first reference, lowercased
    _expect_result(result, f"BLEU = {want.score:.4f}", f"候选长度 c = {want.hyp_len}")


def _ch07_corpus_bleu(explorer, result):
    _assume("system", _dropdown(explorer, "系统 (system)").input_value(), "weak")
    _assume("number of segment boxes", explorer.get_by_role("checkbox").count(),
            len(TOY_CORPUS))
    box = explorer.get_by_role("checkbox", name="#1", exact=True)
    expect(box).to_be_checked()
    box.click()  # segment 1 out
    expect(box).not_to_be_checked()
    hyps, refs = TOY_CORPUS.systems["weak"], TOY_CORPUS.references_for("both")
    chosen = range(1, len(TOY_CORPUS))
    total = corpus_bleu([hyps[i] for i in chosen], [refs[i] for i in chosen], tokenizer="13a")
    mean = sum(sentence_bleu(hyps[i], refs[i], tokenizer="13a").score
               for i in chosen) / len(chosen)
    _expect_result(result, f"语料级 corpus BLEU = {total.score:.4f}",
                   f"句子级平均 mean sentence BLEU = {mean:.4f}",
                   f"{len(chosen)} 个句段 (segments)")


def _ch08_tools_compared(explorer, result):
    from bleu_lesson.analysis import variants

    references = ["The cat sat on the mat.", "A cat was sitting on the mat."]
    box = _text_box(explorer, "候选译文 (candidate)")
    _assume("candidate", box.input_value(), "the cat sat on the mat.")
    _assume("references", _textarea(explorer, "参考译文 (references)").input_value(),
            "\n".join(references))
    candidate = "The cat was on the mat."
    _type(box, candidate)
    want = variants.score("sacrebleu", candidate, references)
    _expect_result(result, f"BLEU = {want:.4f}", "sacrebleu")


def _ch09_wmt22_case_study(explorer, result):
    from bleu_lesson.data.datasets import load_wmt22

    corpus = load_wmt22("zh-en", download=False)
    menu = _dropdown(explorer, "参考译文 (references)")
    _assume("references", menu.input_value(), "两条参考 (both)")
    _assume("tokenizer", _dropdown(explorer, "分词器 (tokenizer)").input_value(), corpus.tokenizer)
    which = next(iter(corpus.references))  # "A"
    menu.select_option(f"参考 {which}")  # the menu shows 参考 A, its value is "A"
    scorer = BleuScorer(corpus.references_for(which), tokenizer=corpus.tokenizer)
    scores = {name: scorer.score(hyps) for name, hyps in corpus.systems.items()}
    ranked = sorted(scores, key=lambda n: -scores[n].score)
    want = [[str(rank), name, f"{100 * scores[name].score:.2f}", f"{scores[name].bp:.3f}"]
            for rank, name in enumerate(ranked, start=1)]
    _expect_result(result, f"references = {which}")
    assert _table(result) == want


def _ch10_bleu_and_people(explorer, result):
    # the figures of issue 12, measured with sacrebleu: Kendall tau against the human
    # z-scores over the 12 systems and HUMAN-B, reference A: BLEU 0.636, chrF 0.532
    metric = _dropdown(explorer, "指标 (metric)")
    _assume("metric", metric.input_value(), "BLEU")
    _assume("references", _dropdown(explorer, "参考译文 (references)").input_value(),
            "参考 A")
    _expect_result(result, "τ = (C − D)/(C + D) = 0.636", "HUMAN-B")
    metric.select_option("chrF")
    _expect_result(result, "chrF", "τ = (C − D)/(C + D) = 0.532")


INTERACTIONS = {
    "01": _ch01_tokenization,
    "02": _ch02_ngrams,
    "03": _ch03_clipped_counts,
    "04": _ch04_brevity_penalty,
    "05": _ch05_geometric_mean,
    "06": _ch06_bleu_multi_reference,
    "07": _ch07_corpus_bleu,
    "08": _ch08_tools_compared,
    "09": _ch09_wmt22_case_study,
    "10": _ch10_bleu_and_people,
}


@pytest.fixture(scope="session")
def _chapter_pages(browser, lab):
    """The page the chapters share on this worker (``held``), made by ``page`` below."""
    held: dict = {}
    yield held
    if held.get("context") is not None:
        held["context"].close()


@pytest.fixture
def page(request, _chapter_pages, browser, lab):
    """One page for the chapters of this worker, each opened in it after the last (a fresh
    page after a failed chapter, so that no failure carries over)."""
    held = _chapter_pages
    if held.get("page") is None or held["page"].is_closed():
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        held.update(context=context, page=context.new_page(), messages=[])
        held["page"].set_default_timeout(30_000)
        held["page"].on("console", lambda msg: held["messages"].append(
            f"[console.{msg.type}] {msg.text}"))
        held["page"].on("pageerror", lambda exc: held["messages"].append(f"[pageerror] {exc}"))
    held["messages"].clear()
    request.node.e2e_console = held["messages"]  # saved by conftest.py's failure hook
    yield held["page"]
    if getattr(request.node, "e2e_failed", False):
        held.pop("page")
        held.pop("context").close()
    else:  # the chapter closed before its kernel stops: no "kernel died" dialog is left
        try:
            held["page"].evaluate(_CLOSE_ALL_JS)
        except Exception:  # noqa: BLE001 - a page in a bad state is not used again
            held.pop("page")
            held.pop("context").close()
    lab.shutdown_sessions()


@pytest.mark.parametrize("name", list(_params()))
def test_chapter_runs_and_its_explorer_answers(name, lab, page):
    _open_notebook(page, lab, name)
    outcome = _run_all(page)
    _wait_for_widgets(page)
    _check_page_has_no_errors(page)
    assert outcome["ok"], f"Run All did not finish cleanly: {outcome}"
    if STUB in (lab.root_dir / name).read_text(encoding="utf-8"):
        # the exercises are untouched stubs: their checks ran and said so, in Chinese
        assert page.evaluate(_MODEL_JS)["notDone"], f"{name}: no check said 还没有完成"

    results = page.locator(".bleu-result")
    interact = INTERACTIONS.get(name[:2])
    if interact is None:
        assert results.count() == 0, (
            f"{name} shows an explorer but INTERACTIONS has no test for chapter {name[:2]}")
        return
    result = results.first
    result.wait_for(state="attached", timeout=RESULT_TIMEOUT)
    assert results.count() == 1, f"{results.count()} .bleu-result elements in {name}"
    result.scroll_into_view_if_needed()
    expect(result).to_be_visible(timeout=RESULT_TIMEOUT)
    expect(result).to_have_text(re.compile(r"\S"), timeout=RESULT_TIMEOUT)  # not empty
    interact(result.locator("xpath=.."), result)
    _check_page_has_no_errors(page)

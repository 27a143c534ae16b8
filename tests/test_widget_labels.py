"""Every visible label of every explorer is Chinese: no half-translated control.

Each explorer (and chapter 10's rating panel) is built headlessly and its widget tree walked:
every description, placeholder, button and menu option a learner sees must contain Chinese,
unless it is a name the course keeps in code form (a tokenizer, a smoothing method, a tool,
a metric, a system or rated item of the data, a symbol such as ``p1`` or ``#3``). An English
term in parentheses, the convention for a term's first use, appears at most once per explorer.
"""

from __future__ import annotations

import re

import pytest

ipywidgets = pytest.importorskip("ipywidgets")

from bleu_lesson.analysis.variants import VARIANTS  # noqa: E402
from bleu_lesson.core.smoothing import SMOOTHING_METHODS  # noqa: E402
from bleu_lesson.core.tokenizers import TOKENIZERS  # noqa: E402
from bleu_lesson.data.datasets import TOY_CORPUS  # noqa: E402
from bleu_lesson.teaching import widgets  # noqa: E402
from bleu_lesson.teaching.rating import RatingItem, RatingPanel  # noqa: E402

CJK = re.compile(r"[\u3400-\u9fff]")
SYMBOL = re.compile(r"^(?:[pw]\d|#\d+)$")  # p1 … p4, w1 … w4, segment #1 …
IN_PARENTHESES = re.compile(r"\(([A-Za-z][A-Za-z -]*)\)")

TABLES = {("BLEU", "A"): {"sys-a": 30.0, "sys-b": 25.0},
          ("chrF", "A"): {"sys-a": 60.0, "sys-b": 55.0},
          ("TER", "A"): {"sys-a": 50.0, "sys-b": 55.0}}
HUMAN = {"sys-a": 0.1, "sys-b": -0.1}
ITEMS = [RatingItem("0:sys-a", 0, "sys-a", "源", "the reference", "the output")]
CODE_NAMES = {*TOKENIZERS, *SMOOTHING_METHODS, *VARIANTS, *widgets.AGREEMENT_METRICS,
              *TOY_CORPUS.systems, *HUMAN, *(item.item for item in ITEMS)}


def explorers():
    return {
        "TokenizerExplorer": widgets.TokenizerExplorer(),
        "NgramExplorer": widgets.NgramExplorer(),
        "ClippingExplorer": widgets.ClippingExplorer(),
        "BrevityExplorer": widgets.BrevityExplorer(),
        "GeometricMeanExplorer": widgets.GeometricMeanExplorer(),
        "BleuExplorer": widgets.BleuExplorer(),
        "CorpusExplorer": widgets.CorpusExplorer(),
        "ToolsExplorer": widgets.ToolsExplorer(),
        "SystemsExplorer": widgets.SystemsExplorer(TOY_CORPUS),
        "AgreementExplorer": widgets.AgreementExplorer(TABLES, HUMAN),
        "RatingPanel": RatingPanel(ITEMS),
    }


def visible_texts(widget) -> list[str]:
    """Descriptions, placeholders, tooltips and menu options of a widget and its children."""
    texts = []
    for name in ("description", "placeholder", "tooltip"):
        value = getattr(widget, name, None)
        if isinstance(value, str) and value.strip("\u200b "):
            texts.append(value)
    texts += list(getattr(widget, "_options_labels", ()) or ())
    for child in getattr(widget, "children", ()) or ():
        texts += visible_texts(child)
    return texts


def test_every_explorer_class_is_walked():
    built = {type(e).__name__ for e in explorers().values()}
    defined = {name for name in dir(widgets) if name.endswith("Explorer")
               and not name.startswith("_") and isinstance(getattr(widgets, name), type)}
    assert defined <= built


@pytest.mark.parametrize("name", list(explorers()))
def test_every_label_is_chinese_or_a_code_name(name):
    texts = visible_texts(explorers()[name])
    assert texts, name
    english = [t for t in texts
               if not CJK.search(t) and t not in CODE_NAMES and not SYMBOL.match(t)]
    assert not english, f"{name}: labels with no Chinese: {english}"


@pytest.mark.parametrize("name", list(explorers()))
def test_an_english_term_in_parentheses_at_most_once_per_explorer(name):
    terms = [term.strip() for text in visible_texts(explorers()[name])
             for term in IN_PARENTHESES.findall(text) if term.strip() not in CODE_NAMES]
    repeated = sorted({t for t in terms if terms.count(t) > 1})
    assert not repeated, f"{name}: repeated English terms: {repeated}"


def test_a_long_chinese_label_gets_room_instead_of_an_ellipsis():
    # ipywidgets draws a description in 80 px unless told otherwise (then cuts it to "…");
    # the longest label here, "参考译文 (references)", needs 4 x 14 + 13 x 7.5 + 12 = 165.5 px
    explorer = widgets.ClippingExplorer()
    assert explorer.references.style.description_width == "166px"
    assert explorer.candidate.style.description_width == "166px"  # one width per explorer
    assert explorer.n.style.description_width == "166px"


def _sliders(widget) -> list:
    found = [widget] if hasattr(widget, "readout") and hasattr(widget, "step") else []
    for child in getattr(widget, "children", ()) or ():
        found += _sliders(child)
    return found


@pytest.mark.parametrize("name", list(explorers()))
def test_every_slider_keeps_a_track_beside_its_label(name):
    """A learner's find: chapter 04's slider shared the long label width of its text box
    ("各参考长度 (reference lengths)") inside ipywidgets' 300 px default and had no track
    left to drag. Each slider is wide enough for its label, a track and its readout."""
    for slider in _sliders(explorers()[name]):
        label = int(str(slider.style.description_width or "0px").removesuffix("px") or 0)
        width = str(slider.layout.width or "300px")
        assert width.endswith("px"), (name, slider.description, width)
        track = int(width.removesuffix("px")) - label - 60  # the readout
        assert track >= 200, (name, slider.description, label, width)


def _walk(widget) -> list:
    return [widget] + [w for child in getattr(widget, "children", ()) or () for w in _walk(child)]


@pytest.mark.parametrize("name", list(explorers()))
def test_every_check_box_label_and_menu_choice_is_shown_whole(name):
    """A learner's find: chapter 05's "权重归一化 w / Σw (renormalise)" and chapter 08's menu
    choices ("最接近 c，平局取短的 (closest)") were cut to "…". Each check box is as wide as
    its label and each menu as wide as its label and its longest choice (the label widths
    ``fit_labels`` estimates)."""
    def px(w):
        return int(str(w.layout.width or "0px").removesuffix("px") or 0)

    for w in _walk(explorers()[name]):
        if isinstance(w, ipywidgets.Checkbox) and w.description:  # an indented box: 80 px
            room = widgets._label_px(w.description) + (100 if w.indent else 20)
            assert px(w) >= room, (name, w.description)
        labels = getattr(w, "_options_labels", None)
        if labels and isinstance(w, ipywidgets.Dropdown) and w.description:
            label = int(str(w.style.description_width or "0px").removesuffix("px") or 0)
            assert px(w) >= label + max(map(widgets._label_px, labels)), (name, w.description)

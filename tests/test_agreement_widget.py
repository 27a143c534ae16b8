"""Chapter 10's AgreementExplorer, driven headlessly (as tests/test_widgets.py does).

The small tables are worked by hand in the comments; the real-data test expects the figures
of issue 12 (measured with sacrebleu): Kendall tau 0.636 for BLEU with reference A over the
12 systems and HUMAN-B, 0.569 without HUMAN-B, and chrF's 0.532.
"""

from __future__ import annotations

import re

import pytest

widgets = pytest.importorskip("bleu_lesson.teaching.widgets")

# metric scores: a 30, b 25, c 20, d 28; people: a .1 > b 0 > d -.1 > c -.2
# pairs: (a,b) (a,c) (a,d) (b,c) agree, (b,d) disagrees [BLEU d > b, people b > d], (c,d) agree
# -> C = 5, D = 1: tau = 4/6 = 0.667, accuracy = 5/6 = 0.833
# TER (lower is better) 10, 30, 40, 20: negated -10, -30, -40, -20 -> the same order as
# BLEU above except (b,d): -30 < -20 -> d ahead of b again: C = 5, D = 1
TABLES = {
    ("BLEU", "A"): {"a": 30.0, "b": 25.0, "c": 20.0, "d": 28.0},
    ("BLEU", "B"): {"a": 20.0, "b": 25.0, "c": 30.0, "d": 28.0},   # reversed-ish
    ("chrF", "A"): {"a": 60.0, "b": 55.0, "c": 50.0, "d": 52.0},   # all agree: tau 1
    ("TER", "A"): {"a": 10.0, "b": 30.0, "c": 40.0, "d": 20.0},
}
HUMAN = {"a": 0.1, "b": 0.0, "c": -0.2, "d": -0.1}


def _tau(html: str) -> float:
    return float(re.search(r"τ = \(C − D\)/\(C \+ D\) = (-?\d\.\d{3})", html).group(1))


def _accuracy(html: str) -> str:
    return re.search(r"pairwise accuracy = (\d\.\d{3} \(\d+/\d+\))", html).group(1)


def test_default_view():
    ex = widgets.AgreementExplorer(TABLES, HUMAN)
    html = ex.result.value
    assert "bleu-result" in ex.result._dom_classes
    assert _tau(html) == 0.667 and _accuracy(html) == "0.833 (5/6)"
    assert "<svg" in html and re.search(r"<text[^>]*>d</text>", html)  # labelled points
    # the one discordant pair, people's favourite first: b over d, BLEU -3.00
    assert re.search(r"<td[^>]*>b</td><td[^>]*>d</td><td[^>]*>-3.00</td>", html)


def test_metric_and_reference_choices():
    ex = widgets.AgreementExplorer(TABLES, HUMAN)
    ex.metric.value = "chrF"
    assert _tau(ex.result.value) == 1.0
    assert "没有排反的系统对" in ex.result.value
    ex.metric.value = "TER"
    assert "TER 取负号" in ex.result.value and _tau(ex.result.value) == 0.667
    ex.metric.value = "BLEU"
    ex.refset.value = "B"
    # BLEU B: a 20 < d 28 < b 25? no: a 20, b 25, d 28, c 30 -> against people every pair
    # but none agrees: (a,b) -, (a,c) -, (a,d) -, (b,c) -, (b,d) +? b 25 < d 28, people b > d -> D
    # (c,d) c 30 > d 28, people d > c -> D: C = 0, D = 6, tau = -1
    assert _tau(ex.result.value) == -1.0
    ex.refset.value = "A+B"
    assert "没有" in ex.result.value and "τ =" not in ex.result.value  # no such table


def test_dropping_systems():
    ex = widgets.AgreementExplorer(TABLES, HUMAN)
    ex.dropped.value = ("d",)
    assert _tau(ex.result.value) == 1.0 and _accuracy(ex.result.value) == "1.000 (3/3)"
    ex.dropped.value = ("c", "d")
    assert "至少要留下 3 个系统" in ex.result.value


def test_render_never_raises():
    assert "unknown metric" in widgets.render_agreement(TABLES, HUMAN, "METEOR")
    flat = {("BLEU", "A"): {"a": 1.0, "b": 1.0, "c": 1.0}}
    html = widgets.render_agreement(flat, HUMAN, plot=False)  # every pair tied by the metric
    assert "τ = (C − D)/(C + D) = —" in html and "Pearson r = —" in html


@pytest.mark.wmt22
def test_real_data_default_view(wmt22_dir):
    from bleu_lesson.analysis.metric_cache import system_tables
    from bleu_lesson.data.datasets import load_wmt22, load_wmt22_human

    tables = system_tables(load_wmt22("zh-en", wmt22_dir, download=False))
    human = load_wmt22_human("zh-en", wmt22_dir).z()
    ex = widgets.AgreementExplorer(tables, human)
    assert _tau(ex.result.value) == 0.636          # 12 systems + HUMAN-B
    assert re.search(r"<text[^>]*>HUMAN-B</text>", ex.result.value)  # a scatter label
    ex.dropped.value = ("HUMAN-B",)
    assert _tau(ex.result.value) == 0.569 and _accuracy(ex.result.value) == "0.785 (51/65)"
    ex.dropped.value = ()
    ex.metric.value = "chrF"
    assert _tau(ex.result.value) == 0.532


@pytest.mark.wmt22
def test_real_data_ter_against_reference_b_is_shown(wmt22_dir):
    """The cache now holds TER against B and A+B: the explorer scores them (12 systems,
    HUMAN-B left out because it is reference B) instead of saying they are missing."""
    from bleu_lesson.analysis.metric_cache import system_tables
    from bleu_lesson.data.datasets import load_wmt22, load_wmt22_human

    tables = system_tables(load_wmt22("zh-en", wmt22_dir, download=False))
    human = load_wmt22_human("zh-en", wmt22_dir).z()
    ex = widgets.AgreementExplorer(tables, human)
    ex.metric.value = "TER"
    for refset, systems in (("B", 12), ("A+B", 12), ("A", 13)):
        ex.refset.value = refset
        html = ex.result.value
        assert f"{systems} systems" in html or f"{systems} 个系统" in html, html[:300]
        assert -1 <= _tau(html) <= 1 and "TER 取负号" in html


# --- defects a learner met (issue 22): each test failed before its fix --------------------

def test_a_system_without_scores_for_these_references_is_named():
    # HUMAN-B is reference B: it has scores against A only (as in chapter 10's tables)
    tables = {("BLEU", "A"): {**TABLES["BLEU", "A"], "HUMAN-B": 35.0},
              ("BLEU", "A+B"): dict(TABLES["BLEU", "A"])}
    human = {**HUMAN, "HUMAN-B": 0.3}
    ex = widgets.AgreementExplorer(tables, human)
    assert "未计入" not in ex.result.value  # with A, HUMAN-B is scored and counted
    assert "5 个系统" in ex.result.value
    ex.refset.value = "A+B"
    html = ex.result.value
    assert "4 个系统" in html and "未计入" in html and "HUMAN-B" in html.split("<svg")[0]
    assert "HUMAN-B" not in ex.dropped.options  # left out already: not offered to drop


def test_the_drop_list_offers_only_the_systems_scored_with_these_references():
    """A learner's review: with references A+B the drop list still offered HUMAN-B, which
    is left out (it is reference B); a system dropped before stays dropped where it can."""
    tables = {("BLEU", "A"): {**TABLES["BLEU", "A"], "HUMAN-B": 35.0},
              ("BLEU", "A+B"): dict(TABLES["BLEU", "A"])}
    human = {**HUMAN, "HUMAN-B": 0.3}
    ex = widgets.AgreementExplorer(tables, human)
    assert ex.dropped.options == ("HUMAN-B", "a", "b", "c", "d")
    ex.dropped.value = ("HUMAN-B", "d")
    ex.refset.value = "A+B"
    assert ex.dropped.options == ("a", "b", "c", "d")
    assert ex.dropped.value == ("d",)
    html = ex.result.value
    assert "3 个系统" in html and "未计入" in html  # d dropped, HUMAN-B not scored
    ex.refset.value = "A"
    assert "HUMAN-B" in ex.dropped.options and ex.dropped.value == ("d",)
    assert "5 个系统" not in ex.result.value and "4 个系统" in ex.result.value


def test_ter_is_plotted_negated_as_the_header_says():
    html = widgets.render_agreement(TABLES, HUMAN, "TER", "A")
    head, svg = html[:html.index("<svg")], html[html.index("<svg"):]
    assert "TER 取负号" in head
    assert "-TER (ref A; negated, higher is better)" in svg
    # a learner's review: the header said "(lower is better)" over an axis saying "higher
    # is better": both now speak of the plotted, negated -TER
    assert "lower is better" not in head and "higher is better" in head
    # TER 10..40 negated: the x axis runs over -40..-10, so its tick labels are negative
    ticks = re.findall(r">(−?-?\d+)</text>", svg)
    assert ticks and all(t.startswith(("−", "-")) for t in ticks if t not in ("0",)), ticks


def test_the_numbers_come_before_the_plot_and_a_view_seen_before_at_once():
    ex = widgets.AgreementExplorer(TABLES, HUMAN)
    seen: list[str] = []
    ex.result.observe(lambda change: seen.append(change["new"]), names="value")
    ex.metric.value = "chrF"
    assert len(seen) == 2
    quick, full = seen
    assert "bleu-busy" in quick and "<svg" not in quick
    assert _tau(quick) == _tau(full) == 1.0  # chrF agrees with people on every pair
    assert "<svg" in full and "bleu-busy" not in full
    ex.metric.value = "BLEU"
    seen.clear()
    ex.metric.value = "chrF"  # seen before: the full view at once, no busy notice
    assert seen == [full]

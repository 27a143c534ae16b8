"""The figures draw the numbers they are given: dots where the scores are, whiskers as wide
as the half-widths, ranks in the right order, an axis zoomed to the data, ASCII text."""

from __future__ import annotations

import pytest

plots = pytest.importorskip("bleu_lesson.teaching.plots")


def _texts(fig):
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
    return labels + [t.get_text() for t in ax.texts] + [ax.get_xlabel(), ax.get_ylabel()]


def test_dot_whisker_zooms_and_sorts():
    values = {"a": 30.0, "b": 34.0, "c": 33.5}
    errors = {"a": 1.0, "b": 0.5, "c": 0.9}
    fig = plots.plot_dot_whisker(values, errors)
    ax = fig.axes[0]
    low, high = ax.get_xlim()
    assert 28.0 < low < 29.0 and 34.5 < high < 35.5  # not from 0: 29 - pad .. 34.5 + pad
    by_height = sorted(zip(ax.get_yticks(), (t.get_text() for t in ax.get_yticklabels())),
                       reverse=True)
    assert [name for _, name in by_height] == ["b", "c", "a"]  # best on top
    xs = list(ax.lines[0].get_xdata())
    assert xs == [34.0, 33.5, 30.0]
    assert all(text.isascii() for text in _texts(fig))


def test_ranks_and_bump_chart():
    scores = {"ref A": {"x": 30.0, "y": 29.0, "z": 20.0},
              "ref B": {"x": 22.0, "y": 23.0, "z": 21.0}}
    assert plots.ranks(scores["ref B"]) == {"y": 1, "x": 2, "z": 3}
    fig = plots.plot_rank_bump(scores)
    ax = fig.axes[0]
    lines = {line.get_ydata()[0]: list(line.get_ydata()) for line in ax.lines}
    assert sorted(lines.values()) == [[1, 2], [2, 1], [3, 3]]  # x and y swap, z stays
    assert ax.get_ylim()[0] > ax.get_ylim()[1]  # rank 1 at the top
    assert all(text.isascii() for text in _texts(fig))
    with pytest.raises(ValueError, match="at least one setting"):
        plots.plot_rank_bump({})


def test_reference_ceiling_has_no_line_between_categories():
    fig = plots.plot_reference_ceiling("a b c d e f", ["a b c d", "u v w x y z q"])
    ax = fig.axes[0]
    assert all(line.get_linestyle() == "None" for line in ax.lines)
    bleu = ax.lines[0]
    # sacrebleu: 50.81 with the first reference, 43.01 with both (measured)
    assert [round(y, 4) for y in bleu.get_ydata()] == [0.5081, 0.4301]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["ref 1", "refs 1-2"]


def test_negative_ticks_are_ascii():
    # z-scores below 0: matplotlib's default tick minus is U+2212, not ASCII "-"
    fig = plots.plot_agreement({"a": 20.0, "b": 25.0, "c": 30.0}, {"a": -0.4, "b": -0.1, "c": 0.2})
    fig.canvas.draw()  # tick labels get their text when drawn
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert any(label.startswith("-") for label in labels), labels
    assert all(label.isascii() for label in labels), labels

"""The hands-on human evaluation (bleu_lesson.teaching.rating): z-normalisation and agreement
checked against scipy, sentence BLEU against sacrebleu, the CSV never overwritten without
asking, and the panel driven headlessly (set .value, click, read the rendered result)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from bleu_lesson.data.datasets import TOY_CORPUS
from bleu_lesson.teaching import rating
from bleu_lesson.teaching.rating import Rating, RatingPanel

stats = pytest.importorskip("scipy.stats")
sacrebleu = pytest.importorskip("sacrebleu")

ITEMS = rating.rating_sample(TOY_CORPUS, 3, ("good", "weak"), seed=7, min_chars=1)
SCORES = [90, 35, 70, 20, 85, 55]


def _ratings(rater, scores, items=ITEMS):
    return [Rating(rater, it.item, it.segment, it.system, s) for it, s in zip(items, scores,
                                                                               strict=True)]


def test_sample_is_reproducible_and_read_from_the_corpus():
    again = rating.rating_sample(TOY_CORPUS, 3, ("good", "weak"), seed=7, min_chars=1)
    assert again == ITEMS and len(ITEMS) == 6
    for it in ITEMS:
        assert it.source == TOY_CORPUS.source[it.segment]
        assert it.reference == TOY_CORPUS.references["A"][it.segment]
        assert it.output == TOY_CORPUS.systems[it.system][it.segment]
    assert rating.rating_sample(TOY_CORPUS, 3, ("good", "weak"), seed=8, min_chars=1) != ITEMS


@pytest.mark.parametrize("bad, arg", [({"n_segments": 0}, "n_segments"),
                                      ({"systems": ("nope",)}, "systems"),
                                      ({"reference": "C"}, "reference"),
                                      ({"n_segments": 99}, "n_segments")])
def test_sample_bad_input_names_the_argument(bad, arg):
    kwargs = {"n_segments": 2, "systems": ("good", "weak"), "min_chars": 1, **bad}
    with pytest.raises(ValueError, match=arg):
        rating.rating_sample(TOY_CORPUS, **kwargs)


def test_z_scores_match_scipy_per_rater():
    other = [100, 0, 60, 10, 95, 40]
    z = rating.z_normalise(_ratings("wang", SCORES) + _ratings("li", other))
    for rater, raw in (("wang", SCORES), ("li", other)):
        want = stats.zscore(raw, ddof=1)
        got = [z[rater][it.item] for it in ITEMS]
        assert got == pytest.approx(list(want), abs=1e-12)


def test_a_rater_who_cannot_be_standardised_is_left_out():
    flat = _ratings("flat", [50] * 6)
    one = [Rating("one", ITEMS[0].item, ITEMS[0].segment, "good", 80)]
    z = rating.z_normalise(flat + one + _ratings("wang", SCORES))
    assert set(z) == {"wang"}


def test_metric_agreement_matches_scipy():
    z = rating.item_means(rating.z_normalise(_ratings("wang", SCORES)))
    metric = rating.metric_scores(ITEMS)["chrF"]
    got = rating.metric_agreement(metric, z)
    xs = [metric[it.item] for it in ITEMS]
    ys = [z[it.item] for it in ITEMS]
    assert got.n == 6
    assert got.pearson == pytest.approx(stats.pearsonr(xs, ys).statistic, abs=1e-12)
    assert got.tau_b == pytest.approx(stats.kendalltau(xs, ys).statistic, abs=1e-12)


def test_metric_scores_bleu_is_sacrebleus_sentence_bleu_and_chrf_pp_has_word_order_2():
    got = rating.metric_scores(ITEMS)
    for it in ITEMS:
        want = sacrebleu.sentence_bleu(it.output, [it.reference]).score
        assert got["BLEU"][it.item] == pytest.approx(want, abs=1e-9)
        chrf_pp = sacrebleu.metrics.CHRF(word_order=2).sentence_score(it.output, [it.reference])
        assert got["chrF++"][it.item] == pytest.approx(chrf_pp.score, abs=1e-9)
    assert got["chrF"] != got["chrF++"]


def test_rater_agreement_matches_scipy_on_common_items():
    other = [100, 0, 60, 10, 95, 40]
    third = [10, 20, 30]                                   # rated only the first 3 items
    z = rating.z_normalise(_ratings("wang", SCORES) + _ratings("li", other)
                           + _ratings("zhao", third, ITEMS[:3]))
    pairs = rating.rater_agreement(z)
    n, r = pairs["li", "wang"]
    assert n == 6
    assert r == pytest.approx(stats.pearsonr(stats.zscore(other, ddof=1),
                                             stats.zscore(SCORES, ddof=1)).statistic, abs=1e-12)
    n, r = pairs["wang", "zhao"]
    assert n == 3
    assert r == pytest.approx(stats.pearsonr([z["wang"][it.item] for it in ITEMS[:3]],
                                             stats.zscore(third, ddof=1)).statistic, abs=1e-12)


def test_csv_round_trip_and_pooling(tmp_path):
    a = rating.write_ratings(tmp_path / "a.csv", "wang", dict(zip([i.item for i in ITEMS],
                                                                  SCORES, strict=True)), ITEMS)
    b = rating.write_ratings(tmp_path / "b.csv", "li", {ITEMS[0].item: 10, ITEMS[1].item: 99},
                             ITEMS)
    with a.open(encoding="utf-8") as f:
        assert next(csv.reader(f)) == list(rating.COLUMNS)
    pooled = rating.read_ratings([a, b])
    assert len(pooled) == 8 and {r.rater for r in pooled} == {"wang", "li"}
    assert [r.score for r in pooled[:6]] == SCORES


def test_a_learners_file_is_never_overwritten_without_asking(tmp_path):
    path = tmp_path / "mine.csv"
    path.write_text("precious\n", encoding="utf-8")
    with pytest.raises(FileExistsError, match="overwrite=True"):
        rating.write_ratings(path, "wang", {ITEMS[0].item: 50}, ITEMS)
    assert path.read_text(encoding="utf-8") == "precious\n"
    rating.write_ratings(path, "wang", {ITEMS[0].item: 50}, ITEMS, overwrite=True)
    assert rating.read_ratings(path)[0].score == 50


@pytest.mark.parametrize("kwargs, arg", [({"rater": ""}, "rater"), ({"rater": "a,b"}, "rater"),
                                         ({"scores": {"nope": 5}}, "scores"),
                                         ({"scores": {ITEMS[0].item: 101}}, "scores")])
def test_write_bad_input_names_the_argument(tmp_path, kwargs, arg):
    args = {"rater": "wang", "scores": {ITEMS[0].item: 5}, **kwargs}
    with pytest.raises(ValueError, match=arg):
        rating.write_ratings(tmp_path / "x.csv", args["rater"], args["scores"], ITEMS)
    assert not (tmp_path / "x.csv").exists()


def test_read_bad_file_names_the_column(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("rater,item,score\nwang,1:good,50\n", encoding="utf-8")
    with pytest.raises(ValueError, match="segment"):
        rating.read_ratings(path)


# --- the panel, headless --------------------------------------------------------------------

def test_panel_saves_and_reports(tmp_path):
    panel = RatingPanel(ITEMS, path=tmp_path / "me.csv")
    assert "还没有评分" in panel.result.value
    panel.rater.value = "wang"
    for it, s in zip(ITEMS, SCORES, strict=True):
        panel.sliders[it.item].value = s
    panel.save.click()
    saved = rating.read_ratings(tmp_path / "me.csv")
    assert [r.score for r in saved] == SCORES
    html = panel.result.value
    z = rating.item_means(rating.z_normalise(saved))
    metric = rating.metric_scores(ITEMS)["BLEU"]
    want = stats.pearsonr([metric[i.item] for i in ITEMS], [z[i.item] for i in ITEMS]).statistic
    assert f"{want:+.3f}" in html
    assert "chrF++" in html and "两位以上的评价者" in html


@pytest.mark.parametrize("name", ["", "   ", "wang, li"])
def test_panel_asks_for_a_name_in_chinese_and_writes_nothing(tmp_path, name):
    """A learner's find: an empty name showed the library's raw English ValueError."""
    panel = RatingPanel(ITEMS, path=tmp_path / "me.csv")
    panel.rater.value = name
    panel.save.click()
    assert "请填上你的名字" in panel.result.value and "rater must be" not in panel.result.value
    assert not (tmp_path / "me.csv").exists()


def test_panel_asks_before_overwriting_and_pools_a_classmate(tmp_path):
    mate = rating.write_ratings(tmp_path / "mate.csv", "li",
                                dict(zip([i.item for i in ITEMS], [100, 0, 60, 10, 95, 40],
                                         strict=True)), ITEMS)
    mine = tmp_path / "me.csv"
    mine.write_text("keep me\n", encoding="utf-8")
    panel = RatingPanel(ITEMS, path=mine)
    panel.rater.value = "wang"
    for it, s in zip(ITEMS, SCORES, strict=True):
        panel.sliders[it.item].value = s
    panel.save.click()
    assert "已经存在" in panel.result.value and mine.read_text(encoding="utf-8") == "keep me\n"
    panel.overwrite.value = True
    panel.pool.value = str(mate)
    panel.save.click()
    z = rating.z_normalise(rating.read_ratings([mine, mate]))
    r = stats.pearsonr([z["li"][i.item] for i in ITEMS], [z["wang"][i.item] for i in ITEMS])
    assert "2 位评价者" in panel.result.value
    assert f"{r.statistic:+.3f}" in panel.result.value


def test_panel_bad_input_is_a_message_not_a_traceback(tmp_path):
    panel = RatingPanel(ITEMS, path=tmp_path / "me.csv")
    panel.save.click()                      # no name
    assert "bleu-message" in panel.result.value and "请填上你的名字" in panel.result.value
    panel.rater.value = "wang"
    panel.pool.value = str(tmp_path / "missing.csv")
    panel.save.click()
    assert "pool" in panel.result.value and "bleu-message" in panel.result.value
    with pytest.raises(ValueError, match="items"):
        RatingPanel([])


@pytest.mark.wmt22
def test_default_sample_on_wmt22(wmt22_dir):
    from bleu_lesson.data.datasets import load_wmt22

    zh_en = load_wmt22("zh-en", data_dir=Path(wmt22_dir))
    items = rating.rating_sample(zh_en)
    assert len(items) == 12 and {i.system for i in items} == set(rating.DEFAULT_SYSTEMS)
    folder = Path(wmt22_dir)
    src = (folder / "generaltest2022.zh-en.src.zh").read_text(encoding="utf-8").split("\n")
    for it in items:
        assert it.source == src[it.segment]
        assert 12 <= len(it.source) <= 40

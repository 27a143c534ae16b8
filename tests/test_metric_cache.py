"""The shipped chrF/TER tables (bleu_lesson/metric_cache*.json*) against sacrebleu itself.

sacrebleu recomputes, on a slice of segments of a sample of systems, the statistics the cache
stores; the checksum and signatures are read with hashlib/json here, not through the loader.
TER against A+B is stored as combined from A and B by sacrebleu's multi-reference rule: the
rule is checked against sacrebleu's own two-reference TER on a slice.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest

from bleu_lesson.analysis import metric_cache

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import CHRF, TER  # noqa: E402

PACKAGE = Path(metric_cache.__file__).parent
META = json.loads((PACKAGE / "metric_cache.json").read_text(encoding="utf-8"))
SLICE = slice(0, 30)   # TER is slow: 30 segments per system keep the test to seconds
SAMPLE = ["Online-B", "NiuTrans", "HUMAN-B"]


def test_checksum_and_shape():
    packed = (PACKAGE / META["segments_file"]).read_bytes()
    assert hashlib.sha256(packed).hexdigest() == META["segments_sha256"]
    segments = json.loads(gzip.decompress(packed))
    assert META["n_segments"] == 1875
    for metric in ("chrF", "TER"):
        assert sorted(segments[metric]) == sorted(META["systems"][metric]["A"])
        assert len(segments[metric]) == 13
        for stats in segments[metric].values():
            assert len(stats) == 1875
        refsets = [r for r in ("B", "A+B") if r in META["systems"][metric]]
        assert metric == "TER" or refsets == ["B", "A+B"]  # TER may be cached for A only
        for refset in refsets:
            assert "HUMAN-B" not in META["systems"][metric][refset]
            assert len(META["systems"][metric][refset]) == 12


def test_a_changed_segment_file_is_refused(tmp_path, monkeypatch):
    copy = tmp_path / "bleu_lesson"
    copy.mkdir()
    (copy / "metric_cache.json").write_text(json.dumps(META), encoding="utf-8")
    data = bytearray((PACKAGE / META["segments_file"]).read_bytes())
    data[-1] ^= 1
    (copy / META["segments_file"]).write_bytes(bytes(data))
    monkeypatch.setattr(metric_cache.resources, "files", lambda package: copy)
    metric_cache.load_metric_cache.cache_clear()
    try:
        with pytest.raises(ValueError, match="corrupted"):
            metric_cache.load_metric_cache()
    finally:
        metric_cache.load_metric_cache.cache_clear()


def test_signatures_are_sacrebleus_defaults():
    for key, signature in META["signatures"].items():
        metric, refset = key.split("|")
        nrefs = 2 if refset == "A+B" else 1
        cls = CHRF if metric == "chrF" else TER
        want = str(cls(references=[["x"]] * nrefs).get_signature())
        strip = lambda s: "|".join(p for p in s.split("|") if not p.startswith("version:"))  # noqa: E731
        assert strip(signature) == strip(want), key
    assert META["sacrebleu_version"].split(".")[0] == "2"


def test_system_totals_are_the_sums_of_the_segments():
    cache = metric_cache.load_metric_cache()
    for metric in ("chrF", "TER"):
        for name, entry in META["systems"][metric]["A"].items():
            total = [sum(col) for col in zip(*cache.segment_stats(metric, name))]
            assert total == pytest.approx(entry["stats"])
            scorer = CHRF() if metric == "chrF" else TER()
            assert scorer._compute_score_from_stats(total).score == pytest.approx(entry["score"])


def test_ter_a_plus_b_rule_is_sacrebleus():
    """min edits over the references, mean reference length: as sacrebleu's TER does it."""
    terms = META["systems"]["TER"]
    if "A+B" not in terms:
        pytest.skip("TER is cached against reference A only")
    for name in terms["A+B"]:
        a, b = terms["A"][name]["stats"], terms["B"][name]["stats"]
        both = terms["A+B"][name]["stats"]
        assert both[1] == pytest.approx((a[1] + b[1]) / 2)
        assert both[0] <= min(a[0], b[0])


@pytest.mark.wmt22
def test_ter_two_references_on_a_slice(wmt22_dir):
    from bleu_lesson.data.datasets import load_wmt22

    data = load_wmt22("zh-en", wmt22_dir, download=False)
    refs = {k: list(v[SLICE]) for k, v in data.references.items()}
    hyps = list(data.systems["Online-W"][SLICE])
    one = {k: TER(references=[refs[k]])._extract_corpus_statistics(hyps, None) for k in "AB"}
    both = TER(references=[refs["A"], refs["B"]])._extract_corpus_statistics(hyps, None)
    for a, b, ab in zip(one["A"], one["B"], both):
        assert ab == [min(a[0], b[0]), (a[1] + b[1]) / 2]


@pytest.mark.wmt22
@pytest.mark.parametrize("name", SAMPLE)
def test_cached_segments_equal_sacrebleu_on_a_slice(wmt22_dir, name):
    from bleu_lesson.data.datasets import load_wmt22

    data = load_wmt22("zh-en", wmt22_dir, download=False)
    cache = metric_cache.load_metric_cache()
    source = data.references["B"] if name == "HUMAN-B" else data.systems[name]
    hyps, refs = list(source[SLICE]), [list(data.references["A"][SLICE])]
    for metric, cls in (("chrF", CHRF), ("TER", TER)):
        live = cls(references=refs)._extract_corpus_statistics(hyps, None)
        assert live == cache.segment_stats(metric, name)[SLICE], (metric, name)
        assert cls().corpus_score(hyps, refs).score == pytest.approx(
            cls()._compute_score_from_stats(
                [sum(c) for c in zip(*cache.segment_stats(metric, name)[SLICE])]).score)


@pytest.mark.wmt22
def test_chrf_system_level_on_all_reference_sets(wmt22_dir):
    """chrF is fast: the full corpus score of one system, every reference set."""
    from bleu_lesson.data.datasets import load_wmt22

    data = load_wmt22("zh-en", wmt22_dir, download=False)
    hyps = list(data.systems["LanguageX"])
    for refset, names in (("A", "A"), ("B", "B"), ("A+B", "AB")):
        refs = [list(data.references[n]) for n in names]
        assert META["systems"]["chrF"][refset]["LanguageX"]["score"] == pytest.approx(
            sacrebleu.corpus_chrf(hyps, refs).score, abs=1e-9)


def test_the_metric_tables_have_no_resampler_of_their_own():
    """chrF, TER and BLEU resamples are summed by significance.resample_rows (one resampler):
    metric_cache counts no resample weights itself, and a chrF resample is sacrebleu's score
    of the segment rows summed by hand."""
    import inspect

    from bleu_lesson.analysis.significance import bootstrap_indices

    source = inspect.getsource(metric_cache)
    assert "bincount" not in source and " @ " not in source  # no weights, no matrix product
    rows = [[3, 5, 2, 4, 1, 3, 0, 2] * 3 + [2, 2, 1, 1, 0, 0] for _ in range(2)]
    rows += [[1, 2, 1, 1, 0, 1, 0, 0] * 3 + [3, 3, 2, 2, 1, 1]]
    indices = bootstrap_indices(3, n_samples=4, seed=7)
    cache = metric_cache.MetricCache("x", {}, 3, {}, {"chrF": {"sys": rows}})
    scorer = metric_cache.sacrebleu_metric("chrF")
    want = [scorer._compute_score_from_stats([sum(rows[j][k] for j in row)
                                              for k in range(len(rows[0]))]).score
            for row in indices.tolist()]
    assert cache.resampled("chrF", "sys", indices) == pytest.approx(want, abs=1e-12)

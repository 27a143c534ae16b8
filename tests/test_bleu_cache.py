"""Chapter 10 reads its BLEU counts from bleu_lesson/analysis/bleu_cache.json.gz: recount
every segment of every zh-en system with sacrebleu on the WMT22 files and compare."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import pytest

from bleu_lesson.analysis import bleu_cache

pytestmark = pytest.mark.wmt22

STEM = "generaltest2022.zh-en"


def _lines(folder: Path, name: str) -> list[str]:
    return (folder / f"{STEM}.{name}").read_text(encoding="utf-8").split("\n")[:-1]


def _file_lines(folder: Path, name: str) -> list[str]:
    return (folder / name).read_text(encoding="utf-8").split("\n")[:-1]


@functools.cache
def _sacrebleu_with_references(folder: Path, tokenize: str, refs: tuple[str, ...]):
    """sacrebleu's BLEU holding the reference files ``refs`` (in ``folder``), which it
    tokenizes and counts once (its ``references=`` cache) for every system scored against
    them; one per module and set of references."""
    import sacrebleu

    return sacrebleu.metrics.BLEU(tokenize=tokenize,
                                  references=[_file_lines(folder, r) for r in refs])


@functools.cache
def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


_ROWS: dict = {}


def _sacrebleu_rows(oracle, folder: Path, tokenize: str, hyp: str,
                    refs: tuple[str, ...]) -> list:
    """sacrebleu's statistics of each segment of the file ``hyp`` against the reference
    files ``refs`` (in ``folder``): counted by sacrebleu once per test module (two tests
    compare the shipped counts of zh-en under 13a with these same counts), and remembered
    by the ``oracle`` under the SHA-256 of each file, so a later run reads sacrebleu's
    counts of the very same texts."""
    key = (folder, tokenize, hyp, refs)
    if key not in _ROWS:
        inputs = ["segment statistics", tokenize, _digest(folder / hyp),
                  [_digest(folder / r) for r in refs]]
        _ROWS[key] = oracle("sacrebleu", inputs, lambda: _sacrebleu_with_references(
            folder, tokenize, refs)._extract_corpus_statistics(_file_lines(folder, hyp), None))
    return _ROWS[key]


@pytest.fixture(scope="module")
def texts(wmt22_dir):
    folder = Path(wmt22_dir)
    refs = {k: _lines(folder, f"ref.{k}.en") for k in ("A", "B")}
    systems = {p.name[len(STEM) + 5:-3]: _lines(folder, p.name[len(STEM) + 1:])
               for p in sorted(folder.glob(f"{STEM}.hyp.*.en"))}
    return folder, refs, {**systems, "HUMAN-B": refs["B"]}


def test_every_count_equals_sacrebleu(texts, oracle):
    sacrebleu = pytest.importorskip("sacrebleu")
    folder, _, candidates = texts
    cached = bleu_cache.load_bleu_cache()
    bleu = sacrebleu.metrics.BLEU()   # 13a, exp smoothing: WMT22's BLEU for English
    assert bleu.tokenizer.signature() == "13a"
    for refset, streams in (("A", ("ref.A.en",)), ("B", ("ref.B.en",)),
                            ("A+B", ("ref.A.en", "ref.B.en"))):
        expected_names = {n for n in candidates if not (n == "HUMAN-B" and "B" in refset)}
        assert set(cached.corpus[refset]) == expected_names, refset
        for name in expected_names:
            hyp = "ref.B.en" if name == "HUMAN-B" else f"hyp.{name}.en"
            rows = _sacrebleu_rows(oracle, folder, "13a", f"{STEM}.{hyp}",
                                   tuple(f"{STEM}.{r}" for r in streams))
            total = [sum(col) for col in zip(*rows, strict=True)]
            assert cached.corpus[refset][name] == total, (refset, name)
            if refset == "A":
                assert cached.segments[name] == rows, name
            # sacrebleu's corpus_score is _aggregate_and_compute of these same rows
            score = bleu._aggregate_and_compute(rows).score
            assert cached.scores(refset)[name] == pytest.approx(score, abs=1e-9), (refset, name)


def test_the_cache_names_the_files_it_counted(texts):
    folder, _, candidates = texts
    cached = bleu_cache.load_bleu_cache()
    for key, name in (("ref.A", "ref.A.en"), ("ref.B", "ref.B.en"),
                      ("hyp.Online-B", "hyp.Online-B.en")):
        digest = hashlib.sha256((folder / f"{STEM}.{name}").read_bytes()).hexdigest()
        assert cached.files[key] == digest, key
    assert cached.signature.startswith("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp")


def test_a_resample_is_scored_from_its_summed_rows():
    """Resample 0 draws segments 0, 0, 2 ...: sacrebleu scores the summed rows by hand."""
    sacrebleu = pytest.importorskip("sacrebleu")
    np = pytest.importorskip("numpy")
    cached = bleu_cache.load_bleu_cache()
    rows = cached.segments["Online-B"]
    n = len(rows)
    indices = np.array([[0, 0, 2] + [3] * (n - 3), list(range(n))])
    got = cached.resampled("Online-B", indices)
    first = [2 * rows[0][k] + rows[2][k] + (n - 3) * rows[3][k] for k in range(len(rows[0]))]
    expected = sacrebleu.metrics.BLEU()._compute_score_from_stats(first).score
    assert got[0] == pytest.approx(expected, abs=1e-9)
    whole = [sum(col) for col in zip(*rows, strict=True)]
    assert got[1] == pytest.approx(
        sacrebleu.metrics.BLEU()._compute_score_from_stats(whole).score, abs=1e-9)


def test_a_wrong_name_is_refused_by_name():
    cached = bleu_cache.load_bleu_cache()
    with pytest.raises(ValueError, match="system"):
        cached.segment_stats("Online-Q")
    with pytest.raises(ValueError, match="refset"):
        cached.scores("C")


def test_counted_knows_the_texts_it_counted(wmt22_dir):
    """Exercise 9.2's judge reads these counts only for the very texts they were made from."""
    import dataclasses

    from bleu_lesson.data.datasets import load_wmt22

    cached = bleu_cache.load_bleu_cache()
    data = load_wmt22("zh-en", wmt22_dir, download=False)
    assert cached.counted(data)
    systems = dict(data.systems)
    systems["DLUT"] = ("a changed line",) + tuple(systems["DLUT"][1:])
    assert not cached.counted(dataclasses.replace(data, systems=systems))
    assert not cached.counted(load_wmt22("en-zh", wmt22_dir, download=False))


@pytest.mark.parametrize("pair, tokenize", [("zh-en", "13a"), ("en-zh", "zh")])
def test_chapter_09_tables_equal_sacrebleu(wmt22_dir, pair, tokenize, oracle):
    """Chapter 09's 75 corpus scores (12 + 13 systems x 3 reference choices): each system's
    summed statistics as sacrebleu counts them with WMT22's tokenizer for the target."""
    sacrebleu = pytest.importorskip("sacrebleu")
    folder = Path(wmt22_dir)
    stem, target = f"generaltest2022.{pair}", pair.split("-")[1]
    refs = {k: f"{stem}.ref.{k}.{target}" for k in ("A", "B")}
    entry = bleu_cache.load_bleu_cache().pairs[pair]
    assert sacrebleu.metrics.BLEU(tokenize=tokenize).tokenizer.signature() == tokenize
    for which, streams in (("A", (refs["A"],)), ("B", (refs["B"],)),
                           ("both", (refs["A"], refs["B"]))):
        systems = entry["corpus"][which]
        files = sorted(folder.glob(f"{stem}.hyp.*.{target}"))
        assert sorted(systems) == sorted(p.name[len(stem) + 5:-3] for p in files)
        for name, row in systems.items():
            rows = _sacrebleu_rows(oracle, folder, tokenize, f"{stem}.hyp.{name}.{target}",
                                   streams)
            assert row == [sum(col) for col in zip(*rows, strict=True)], (pair, which, name)


def test_results_only_for_the_counted_texts_and_options(wmt22_dir):
    from bleu_lesson.core.bleu import BleuScorer
    from bleu_lesson.data.datasets import load_wmt22

    cached = bleu_cache.load_bleu_cache()
    data = load_wmt22("en-zh", wmt22_dir, download=False)
    refs = data.references_for("A")
    plain = BleuScorer(refs, tokenizer="zh")
    results = cached.results(data, "A", plain)
    assert results is not None and set(results) == set(data.systems)
    assert results["Online-B"].signature.startswith("nrefs:1|case:mixed|eff:no|tok:zh")
    assert cached.results(data, "A", BleuScorer(refs, tokenizer="zh", lowercase=True)) is None
    assert cached.results(data, "A", BleuScorer(refs, tokenizer="char")) is None


@pytest.mark.parametrize("tokenize", ["char", "none"])
def test_chapter_09_tokenizer_tables_equal_sacrebleu_and_the_taught_code(wmt22_dir, tokenize):
    """Chapter 09's en-zh scores under ``char`` and ``none`` (both references): each
    system's summed statistics as sacrebleu counts them, and the result ``results`` gives
    equals what the taught ``BleuScorer`` counts from the texts."""
    sacrebleu = pytest.importorskip("sacrebleu")
    from bleu_lesson.core.bleu import BleuScorer
    from bleu_lesson.data.datasets import load_wmt22

    data = load_wmt22("en-zh", wmt22_dir, download=False)
    table = bleu_cache.load_bleu_cache().pairs["en-zh"]["tokenizers"][tokenize]
    assert sorted(table) == sorted(data.systems)
    bleu = sacrebleu.metrics.BLEU(tokenize=tokenize,
                                  references=[list(data.references["A"]),
                                              list(data.references["B"])])
    for name, hyps in data.systems.items():
        rows = bleu._extract_corpus_statistics(list(hyps), None)  # the references it holds
        assert table[name] == [sum(col) for col in zip(*rows, strict=True)], (tokenize, name)
    scorer = BleuScorer(data.references_for("both"), tokenizer=tokenize)
    results = bleu_cache.load_bleu_cache().results(data, "both", scorer)
    assert results is not None
    for name in ("Online-B", "HuaweiTSC"):
        assert results[name] == scorer.score(data.systems[name]), name
    # other reference choices under these tokenizers are not shipped: count live
    assert bleu_cache.load_bleu_cache().results(data, "A", scorer) is None


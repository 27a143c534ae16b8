"""Chapter 09 §7.1 reads its jieba column from bleu_lesson/analysis/jieba_cache.json:
recompute it with jieba itself (``jieba.lcut``, dictionary + HMM) and sacrebleu on the
segmented text (``tokenize="none"``), not with the library's own jieba tokenizer."""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_lesson.analysis import jieba_table

pytestmark = pytest.mark.wmt22


def test_cache_equals_jieba_plus_sacrebleu(wmt22_dir):
    sacrebleu = pytest.importorskip("sacrebleu")
    jieba = pytest.importorskip("jieba")
    folder = Path(wmt22_dir)

    def segmented(name):
        text = (folder / f"generaltest2022.en-zh.{name}").read_text(encoding="utf-8")
        return [" ".join(jieba.lcut(line)) for line in text.split("\n")[:-1]]

    refs = [segmented("ref.A.zh"), segmented("ref.B.zh")]
    cached = jieba_table.load_jieba_scores()
    systems = sorted(p.name.split(".hyp.")[1][:-3]
                     for p in folder.glob("generaltest2022.en-zh.hyp.*"))
    assert sorted(cached.scores) == systems
    for system in systems:
        want = sacrebleu.corpus_bleu(segmented(f"hyp.{system}.zh"), refs, tokenize="none").score
        assert 100 * cached.scores[system] == pytest.approx(want, abs=1e-6), system
    assert cached.provenance["segments"] == len(refs[0]) == 2037
    assert cached.provenance["jieba"] == jieba.__version__

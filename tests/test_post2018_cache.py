"""Chapter 08 §6.1 reads its table from bleu_lesson/analysis/post2018_cache.json: recompute
every score with sacrebleu and sacremoses on the WMT22 files and compare (to 1e-4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_lesson.analysis import post2018

pytestmark = pytest.mark.wmt22


def _lines(folder: Path, name: str) -> list[str]:
    return (folder / f"generaltest2022.zh-en.{name}").read_text(encoding="utf-8").split("\n")[:-1]


def test_cache_equals_a_fresh_computation(wmt22_dir):
    sacrebleu = pytest.importorskip("sacrebleu")
    sacremoses = pytest.importorskip("sacremoses")
    folder = Path(wmt22_dir)
    cached = post2018.load_post2018()
    ref = _lines(folder, "ref.A.en")
    tok = sacremoses.MosesTokenizer(lang="en")

    def moses(text):   # tokenizer.perl -a -no-escape, written out here, not the module's
        return tok.tokenize(text, aggressive_dash_splits=True, escape=False, return_str=True)

    ref_m = [moses(r) for r in ref]
    for system in post2018.POST_SYSTEMS:
        hyps = _lines(folder, f"hyp.{system}.en")
        hyps_m = [moses(h) for h in hyps]
        fresh = {
            "sacrebleu": sacrebleu.corpus_bleu(hyps, [ref]).score,
            "-lc only": sacrebleu.corpus_bleu(hyps, [ref], lowercase=True).score,
            "moses tok": sacrebleu.corpus_bleu(hyps_m, [ref_m], tokenize="none",
                                               smooth_method="none", force=True).score,
            "moses+lc": sacrebleu.corpus_bleu(hyps_m, [ref_m], tokenize="none",
                                              smooth_method="none", force=True,
                                              lowercase=True).score,
        }
        for knob, score in fresh.items():
            assert cached.scores[system, knob] == pytest.approx(score, abs=1e-4), (system, knob)
    assert set(cached.scores) == {(s, k) for s in post2018.POST_SYSTEMS for k in post2018.KNOBS}
    assert cached.provenance["segments"] == len(ref) == 1875
    assert "sacrebleu 2." in str(cached) and "sacremoses" in str(cached)

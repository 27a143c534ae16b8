"""What chapter 09's prose says, recomputed from the data; and the sacrebleu check §5.1
leaves to the test suite (``tests/test_wmt22_agreement.py`` covers every system of both pairs
under each of the three reference choices).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.wmt22

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "09_wmt22_case_study.ipynb"


def _systems(folder: Path, pair: str) -> set[str]:
    """System names from the data folder's file names (generaltest2022.<pair>.hyp.<name>.<lang>)."""
    return {p.name.split(".hyp.", 1)[1].rsplit(".", 1)[0]
            for p in folder.glob(f"generaltest2022.{pair}.hyp.*")}


def _markdown(text: str) -> str:
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    found = ["".join(c["source"]) for c in cells
             if c["cell_type"] == "markdown" and text in "".join(c["source"])]
    assert len(found) == 1, f"one markdown cell of chapter 09 should say {text!r}"
    return found[0]


def test_why_online_b_survives_the_none_tokenizer(wmt22_dir):
    """§6.2's account of `none` on en-zh, every figure recomputed with sacrebleu from the data:
    Online-B keeps 37.58 mostly without its outputs identical to a reference (27.62 without
    them); spaces decide how many tokens line up; HuaweiTSC's loss is mostly its BP."""
    sacrebleu = pytest.importorskip("sacrebleu")
    prose = _markdown("主要不是靠一字不差的句子")
    folder = Path(wmt22_dir)

    def lines(name):
        text = (folder / f"generaltest2022.en-zh.{name}.zh").read_text(encoding="utf-8")
        return text.split("\n")[:-1]

    ref_a, ref_b = lines("ref.A"), lines("ref.B")
    online_b, huawei = lines("hyp.Online-B"), lines("hyp.HuaweiTSC")
    whole = sacrebleu.corpus_bleu(online_b, [ref_a, ref_b], tokenize="none")
    keep = [i for i, h in enumerate(online_b) if h not in (ref_a[i], ref_b[i])]
    rest = sacrebleu.corpus_bleu([online_b[i] for i in keep],
                                 [[ref_a[i] for i in keep], [ref_b[i] for i in keep]],
                                 tokenize="none")
    huawei_bleu = sacrebleu.corpus_bleu(huawei, [ref_a, ref_b], tokenize="none")

    def spaced(texts):
        return sum(" " in t.strip() for t in texts)

    assert f"Online-B 还剩 {whole.score:.2f}" in prose
    assert f"一字不差的 {len(online_b) - len(keep)} 句，剩下的仍有 {rest.score:.2f}" in prose
    assert rest.score > whole.score / 2  # "mostly not from the identical outputs"
    assert f"Online-B 有 {spaced(online_b)} 句" in prose
    assert f"分别有 {spaced(ref_a)} 句和 {spaced(ref_b)} 句" in prose
    assert f"(BP = {whole.bp:.3f})".replace("(", "（").replace(")", "）") in prose
    assert f"HuaweiTSC 只有 {spaced(huawei)} 句有空格" in prose
    assert f"只剩 {huawei_bleu.bp:.3f}" in prose
    assert f"HuaweiTSC 从 73.33 跌到 {huawei_bleu.score:.2f}" in _markdown("让 BLEU 崩溃")


def test_the_multiple_comparison_sentence_counts_pairs_right(wmt22_dir):
    """§8.2: 12 zh-en systems make 66 pairs, and 5% of 66 is about 3 chance 'significant' pairs."""
    import math

    prose = _markdown("一张表里有 66 对系统")
    n = len(_systems(Path(wmt22_dir), "zh-en"))
    assert math.comb(n, 2) == 66 and round(0.05 * 66) == 3 and "平均约有 3 对" in prose


def test_the_named_test_covers_every_system_and_reference_choice(wmt22_dir):
    pytest.importorskip("sacrebleu")
    from test_wmt22_agreement import CASES, test_corpus_bleu_equals_sacrebleu

    want = {(pair, which, system) for pair in ("zh-en", "en-zh")
            for which in ("A", "B", "both") for system in _systems(Path(wmt22_dir), pair)}
    assert set(CASES) == want and len(CASES) == len(want)
    marks = [m for m in getattr(test_corpus_bleu_equals_sacrebleu, "pytestmark", [])
             if m.name == "parametrize"]
    assert marks and list(marks[0].args[1]) == CASES, "the agreement test is parametrized by CASES"

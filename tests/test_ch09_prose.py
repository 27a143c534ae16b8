"""What chapter 09's prose says about the sacrebleu check it leaves to the test suite.

Section 5.1 compares two systems with sacrebleu in the notebook and says that the course's
tests check every system of both pairs, under each of the three reference choices; the
counts it states (systems per pair, combinations) must be those of the system files in the
data folder, and ``tests/test_wmt22_agreement.py`` must cover each of them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.wmt22

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "09_wmt22_case_study.ipynb"


@pytest.fixture(scope="module")
def claim() -> str:
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    found = ["".join(c["source"]) for c in cells
             if c["cell_type"] == "markdown" and "种组合" in "".join(c["source"])]
    assert len(found) == 1, "one markdown cell of chapter 09 should state the combinations"
    return found[0]


def _systems(folder: Path, pair: str) -> set[str]:
    """System names from the data folder's file names (generaltest2022.<pair>.hyp.<name>.<lang>)."""
    return {p.name.split(".hyp.", 1)[1].rsplit(".", 1)[0]
            for p in folder.glob(f"generaltest2022.{pair}.hyp.*")}


def test_the_stated_counts_are_the_data_folders(claim, wmt22_dir):
    stated = re.search(r"zh-en (\d+) 个、en-zh (\d+) 个", claim)
    combos = re.search(r"共 (\d+) 种组合", claim)
    assert stated and combos, claim
    zh_en, en_zh = len(_systems(Path(wmt22_dir), "zh-en")), len(_systems(Path(wmt22_dir), "en-zh"))
    assert (int(stated[1]), int(stated[2])) == (zh_en, en_zh)
    assert "参考 A、参考 B、两条参考" in claim
    assert int(combos[1]) == 3 * (zh_en + en_zh)


def test_the_named_test_covers_every_system_and_reference_choice(wmt22_dir):
    pytest.importorskip("sacrebleu")
    from test_wmt22_agreement import CASES, test_corpus_bleu_equals_sacrebleu

    want = {(pair, which, system) for pair in ("zh-en", "en-zh")
            for which in ("A", "B", "both") for system in _systems(Path(wmt22_dir), pair)}
    assert set(CASES) == want and len(CASES) == len(want)
    marks = [m for m in getattr(test_corpus_bleu_equals_sacrebleu, "pytestmark", [])
             if m.name == "parametrize"]
    assert marks and list(marks[0].args[1]) == CASES, "the agreement test is parametrized by CASES"

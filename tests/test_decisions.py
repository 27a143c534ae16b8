"""Each decision has one home, and every caller asks it.

- a chapter's id, however written (4, "4", "04", "ch04"), is ``chapters.chapter_id``'s;
- "is the WMT22 data here?" is ``datasets.data_missing``'s (the tests' skips and
  ``make notebooks`` ask it);
- the CLI's smoothing value follows the library (0 is a value, as in sacrebleu) and its
  method lists, like the widgets', are the registry's.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import shutil
import sys

import pytest

from bleu_lesson.data import datasets
from bleu_lesson.teaching.chapters import chapter, chapter_id


@pytest.mark.parametrize("written", [4, "4", "04", "ch04", "CH4", " 04 "])
def test_every_way_of_writing_a_chapter_is_one_id(written):
    from bleu_lesson.grading.course import _chapter_id
    from bleu_lesson.teaching import quiz
    from bleu_lesson.teaching.exercises import Exercise

    assert chapter_id(written) == "04"
    assert chapter(written).id == "04"
    assert _chapter_id(written) == "04"
    assert quiz._chapter(written) == "04"
    assert Exercise("4.1", "x", lambda: 0, ((),)).chapter == "04"


@pytest.mark.parametrize("bad, error", [(True, TypeError), (4.0, TypeError), ("four", ValueError),
                                        ("ch", ValueError), ("100", ValueError)])
def test_a_value_that_is_no_chapter_is_named(bad, error):
    with pytest.raises(error, match="chapter must be"):
        chapter_id(bad)


def test_the_cli_reads_chapter_ids_by_the_same_rule(tmp_path):
    from bleu_lesson.__main__ import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["check", str(tmp_path / "none.ipynb"), "--chapter", "ch99"])
    assert code != 0 and "--chapter must be one of" in err.getvalue()


def _copy_wmt22(tmp_path, wmt22_dir):
    folder = tmp_path / "wmt22"
    shutil.copytree(wmt22_dir, folder)
    return folder


def test_data_missing_is_the_one_answer(tmp_path, monkeypatch, wmt22_dir):
    monkeypatch.delenv(datasets.WMT22_ENV_VAR, raising=False)
    empty = tmp_path / "cache"
    assert datasets.data_missing(["wmt22"], cache_dir=empty).startswith(
        f"wmt22: {len(datasets.dataset('wmt22').files)} of ")
    folder = _copy_wmt22(tmp_path, wmt22_dir)
    assert datasets.data_missing(["wmt22"], folder, cache_dir=empty) is None
    # a file changed by one byte: found, but not the published data (its SHA-256 says so)
    name = next(iter(datasets.dataset("wmt22").files))
    data = bytearray((folder / name).read_bytes())
    data[0] ^= 1
    (folder / name).write_bytes(bytes(data))
    assert hashlib.sha256(bytes(data)).hexdigest() != datasets.dataset("wmt22").files[name].sha256
    assert datasets.data_missing(["wmt22"], folder, cache_dir=empty) == \
        f"WMT22 file {name} is corrupted"
    monkeypatch.setenv(datasets.WMT22_ENV_VAR, str(tmp_path / "nowhere"))
    assert "is not a folder" in datasets.data_missing(["wmt22"], folder, cache_dir=empty)


def test_make_notebooks_and_the_test_skips_ask_data_missing(monkeypatch):
    import importlib.util
    from pathlib import Path

    import notebook_tools

    calls = []
    monkeypatch.setattr(datasets, "data_missing",
                        lambda *a, **k: calls.append(a) or "wmt22: 1 of 31 files missing, e.g. x")
    root = Path(__file__).resolve().parents[1]
    monkeypatch.syspath_prepend(str(root / "tools"))
    spec = importlib.util.spec_from_file_location("run_notebooks_probe",
                                                  root / "tools" / "run_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "run_notebooks_probe", module)  # its dataclasses need it
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    assert module.data_missing().startswith("needs the WMT22 data (wmt22: 1 of 31")
    notebook_tools.find_dataset.cache_clear()
    try:
        assert notebook_tools.find_dataset("wmt22").startswith("WMT22 data not found: ")
    finally:
        notebook_tools.find_dataset.cache_clear()
    assert len(calls) == 2


def _cli_score(tmp_path, *args):
    from bleu_lesson.__main__ import main

    (tmp_path / "ref.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("the cat is on a rug\n", encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["score", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"),
                     "-b", "-w", "6", *args])
    return code, out.getvalue().strip()


def test_the_cli_takes_smooth_value_0_as_the_library_and_sacrebleu_do(tmp_path):
    sacrebleu = pytest.importorskip("sacrebleu")

    # no trigram or 4-gram matches: floor's value decides the score
    for value in ("0", "0.1"):
        code, printed = _cli_score(tmp_path, "-s", "floor", "-sv", value)
        assert code == 0
        theirs = sacrebleu.corpus_bleu(["the cat is on a rug"], [["the cat sat on the mat"]],
                                       smooth_method="floor", smooth_value=float(value)).score
        assert float(printed) == pytest.approx(theirs, abs=1e-6)
        assert (theirs == 0.0) == (value == "0")


def test_the_cli_and_the_widgets_list_the_registrys_methods(monkeypatch):
    from bleu_lesson.__main__ import build_parser
    from bleu_lesson.core import smoothing

    parser = build_parser()
    score = next(a for a in parser._subparsers._group_actions[0].choices["score"]._actions
                 if "--smooth" in a.option_strings)
    assert tuple(score.choices) == tuple(smoothing.SMOOTHING)
    sv = next(a for a in parser._subparsers._group_actions[0].choices["score"]._actions
              if "--smooth-value" in a.option_strings)
    for name, method in smoothing.SMOOTHING.items():
        assert (f"'{name}'" in sv.help) == method.takes_value


def test_the_minimum_python_is_one_number():
    """requires-python, ruff's and mypy's targets and the doctor's check say the same."""
    import tomllib
    from pathlib import Path

    from bleu_lesson.data import doctor

    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml")
                            .read_text(encoding="utf-8"))
    major, minor = doctor.MIN_PYTHON
    assert project["project"]["requires-python"] == f">={major}.{minor}"
    assert project["tool"]["ruff"]["target-version"] == f"py{major}{minor}"
    assert project["tool"]["mypy"]["python_version"] == f"{major}.{minor}"
    assert doctor.check_environment(None, (major, minor - 1))[0].what.startswith(
        f"Python {major}.{minor - 1} is too old (need ≥ {major}.{minor})")

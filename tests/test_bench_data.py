"""The benchmarks find the WMT22 data as the library does: ``--data``, then
``$BLEU_LESSON_WMT22_DIR``, then the user cache that ``make data`` fills; one helper
(``benchmarks/_wmt22.py``) for all of them."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bleu_lesson.data.datasets import dataset

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"
SCRIPTS = sorted(BENCH.glob("bench_*.py"))


def _helper():
    spec = importlib.util.spec_from_file_location("_wmt22", BENCH / "_wmt22.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def cache_only(wmt22_dir, tmp_path, monkeypatch):
    """A learner after `make data`: the files in the user cache, no environment variable."""
    cache = tmp_path / "xdg" / "bleu_lesson" / "wmt22"
    cache.mkdir(parents=True)
    for name in dataset("wmt22").files:
        (cache / name).symlink_to(wmt22_dir / name)
    monkeypatch.delenv("BLEU_LESSON_WMT22_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return cache


def test_the_cache_is_found_without_the_variable(cache_only):
    assert _helper().find_wmt22(None) == cache_only


def test_the_variable_comes_before_the_cache(cache_only, wmt22_dir, monkeypatch):
    monkeypatch.setenv("BLEU_LESSON_WMT22_DIR", str(wmt22_dir))
    assert _helper().find_wmt22(None) == wmt22_dir


def test_data_option_comes_first_and_is_never_passed_over(cache_only, tmp_path, capsys):
    helper = _helper()
    assert helper.find_wmt22(str(cache_only)) == cache_only
    half = tmp_path / "half"
    half.mkdir()
    (half / "generaltest2022.zh-en.src.zh").write_text("x\n", encoding="utf-8")
    with pytest.raises(SystemExit) as stop:  # not silently the cache instead
        helper.wmt22_folder(str(half), "bench_x")
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--data {half} lacks" in err, err


def test_no_data_anywhere_is_one_line_with_the_way_to_get_it(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("BLEU_LESSON_WMT22_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty"))
    with pytest.raises(SystemExit) as stop:
        _helper().wmt22_folder(None, "bench_x")
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1, err
    assert err.startswith("bench_x: ") and "make data" in err
    assert "BLEU_LESSON_WMT22_DIR" in err and "--data" in err
    assert not (tmp_path / "empty").exists()  # looking downloads nothing, creates nothing


def test_a_benchmark_script_finds_the_cache(cache_only, tmp_path):
    """In a fresh process from another working directory, with ``benchmarks/`` first on
    ``sys.path`` as ``python benchmarks/bench_x.py`` has it: the scripts' import line works
    and the lookup lands in the cache."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from _wmt22 import wmt22_folder; "
            "print(wmt22_folder(None, 'bench_cli'))")
    out = subprocess.run([sys.executable, "-c", code, str(BENCH)], cwd=tmp_path,
                         capture_output=True, text=True, check=True).stdout
    data_line, folder = out.strip().splitlines()
    assert folder == str(cache_only)
    assert data_line == f"data: the WMT22 test set in {cache_only} (SHA-256 checked)"


_READS_VARIABLE = re.compile(r"environ(\.get\(|\[)\s*[\"']BLEU_LESSON_WMT22_DIR")


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_every_benchmark_uses_the_one_helper(script):
    """One rule, one home: no benchmark reads the variable itself, and every one that takes
    --data gets it (and the lookup) from benchmarks/_wmt22.py."""
    text = script.read_text(encoding="utf-8")
    assert not _READS_VARIABLE.search(text), "reads BLEU_LESSON_WMT22_DIR itself"
    if "--data" in text or "load_wmt22" in text:
        assert re.search(r"^from _wmt22 import .*(wmt22_folder|find_wmt22)", text, re.M), \
            "takes WMT22 data without benchmarks/_wmt22.py"


def test_bench_jieba_without_data_is_the_helpers_one_line(tmp_path):
    """Before it used the helper it printed "set BLEU_LESSON_WMT22_DIR" on stdout and never
    looked in the cache."""
    env = {k: v for k, v in os.environ.items() if k != "BLEU_LESSON_WMT22_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "empty")
    proc = subprocess.run([sys.executable, str(BENCH / "bench_jieba.py"), "--repeat", "1"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == "", proc
    assert proc.stderr.startswith("bench_jieba: ") and proc.stderr.count("\n") == 1
    assert "make data" in proc.stderr and "--data" in proc.stderr

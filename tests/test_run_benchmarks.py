"""`make bench` (tools/run_benchmarks.py) runs every benchmark: one without the WMT22 data
is a skip with its one line, not the end of the run; only a real failure fails it. And
`benchmarks/bench_notebooks.py` skips the data chapters as `make notebooks` does.

The benchmarks run here are small scripts written for the test (the real ones take
minutes), except the data lookup, which is the real ``benchmarks/_wmt22.py``; the data is
made absent with an empty ``XDG_CACHE_HOME`` and no ``BLEU_LESSON_WMT22_DIR``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "run_benchmarks.py"

NEEDS_DATA = f"""
import sys
sys.path.insert(0, {str(ROOT / "benchmarks")!r})
from _wmt22 import wmt22_folder
wmt22_folder(None, "bench_data")
print("MEASURED data")
"""


@pytest.fixture
def no_data_env(tmp_path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "BLEU_LESSON_WMT22_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "empty")
    return env


def _run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_a_benchmark_without_data_is_skipped_and_the_rest_still_run(tmp_path, no_data_env):
    scripts = {"bench_a.py": NEEDS_DATA, "bench_b.py": "print('MEASURED b')\n",
               "bench_c.py": "print('MEASURED c')\n"}
    for name, text in scripts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    proc = _run([str(TOOL), *map(str, sorted(tmp_path.glob("bench_*.py")))], no_data_env,
                tmp_path)
    assert proc.returncode == 0, proc
    assert "MEASURED b" in proc.stdout and "MEASURED c" in proc.stdout
    assert "MEASURED data" not in proc.stdout
    skip = [line for line in proc.stdout.splitlines() if line.startswith("== skip")]
    assert len(skip) == 1 and skip[0].startswith("== skip bench_a.py: bench_data: "), proc
    assert "make data" in skip[0]
    last = proc.stdout.strip().splitlines()[-3:]
    assert last[0] == "2 of 3 benchmarks ran: 2 need no data"
    assert last[1].startswith("1 skipped without the WMT22 data (bench_a.py): run `make data`")
    assert last[2] == "goals: 0 met, 0 MISSED; no goal printed by bench_b.py bench_c.py"


def test_a_real_failure_fails_the_run_but_not_the_others(tmp_path, no_data_env):
    (tmp_path / "bench_a.py").write_text("raise SystemExit('broken')\n", encoding="utf-8")
    (tmp_path / "bench_b.py").write_text(  # exit 2 that is not a data skip: a failure
        "import argparse; argparse.ArgumentParser().parse_args(['--nope'])\n",
        encoding="utf-8")
    (tmp_path / "bench_c.py").write_text("print('MEASURED c')\n", encoding="utf-8")
    proc = _run([str(TOOL), *map(str, sorted(tmp_path.glob("bench_*.py")))], no_data_env,
                tmp_path)
    assert proc.returncode == 1, proc
    assert "MEASURED c" in proc.stdout and "broken" in proc.stderr
    assert "unrecognized arguments: --nope" in proc.stderr  # its stderr is shown
    assert proc.stdout.strip().splitlines()[-1] == "2 FAILED: bench_a.py bench_b.py"


GOALS = f"""
import sys
sys.path.insert(0, {str(ROOT / "benchmarks")!r})
from _goals import verdict
from _wmt22 import add_data_argument, wmt22_folder
import argparse
parser = argparse.ArgumentParser()
add_data_argument(parser)
args = parser.parse_args()
wmt22_folder(args.data, "bench_goals")
print(f"speed 2.0x (goal >= 1.5x) {{verdict(2.0 >= 1.5)}}")
print(f"memory 0.9 (goal <= 0.7) {{verdict(0.9 <= 0.7)}}")
"""


def test_the_summary_names_the_real_data_and_every_missed_goal(tmp_path, no_data_env,
                                                                wmt22_dir):
    (tmp_path / "bench_goals.py").write_text(GOALS, encoding="utf-8")
    (tmp_path / "bench_plain.py").write_text("print('MEASURED plain')\n", encoding="utf-8")
    # no variable, no cache: the data comes only from make bench ARGS="--data FOLDER"
    proc = _run([str(TOOL), "--data", str(wmt22_dir),
                 *map(str, sorted(tmp_path.glob("bench_*.py")))], no_data_env, tmp_path)
    assert proc.returncode == 0, proc  # a missed goal is reported, not a failure
    lines = proc.stdout.strip().splitlines()
    assert lines[-3:] == [
        f"2 of 2 benchmarks ran: 1 on the real WMT22 data in {wmt22_dir} (bench_goals.py); "
        "1 need no data",
        "goals: 1 met, 1 MISSED; no goal printed by bench_plain.py",
        "  MISSED in bench_goals.py: memory 0.9 (goal <= 0.7) -> MISSED"]
    assert "skipped" not in proc.stdout  # nothing reads as if the data were missing
    assert "MEASURED plain" in proc.stdout


def test_a_bad_data_option_is_a_usage_error(tmp_path):
    proc = _run([str(TOOL), "--data", str(tmp_path / "nope")], dict(os.environ), tmp_path)
    assert proc.returncode == 2 and "--data" in proc.stderr and "not a folder" in proc.stderr


def test_make_bench_passes_args():
    # --no-print-directory: under CI's own `make test` a nested make prints "Entering/Leaving
    # directory" lines around its recipe
    proc = subprocess.run(["make", "-n", "--no-print-directory", "bench",
                           "ARGS=--data /somewhere"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip().splitlines()[-1].endswith(
        "tools/run_benchmarks.py --data /somewhere"), proc.stdout


# bench_check, bench_corpus and bench_widgets are held to this by their own tests
OWN = sorted(p for p in (ROOT / "benchmarks").glob("bench_*.py")
             if p.name not in ("bench_check.py", "bench_corpus.py", "bench_widgets.py"))


@pytest.mark.parametrize("script", OWN, ids=lambda p: p.name)
def test_every_goal_a_benchmark_states_has_a_verdict(script):
    """A benchmark that names a goal prints, on the same row, whether it was met (a
    table's header, {'goal':>5}, is not a row)."""
    text = script.read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), start=1):
        if "print(" in line and "goal" in line.lower() and "{'goal" not in line:
            window = "\n".join(text.splitlines()[number - 1:number + 4])
            assert "verdict(" in window, f"{script.name}:{number}: {line.strip()}"


def test_make_bench_runs_the_tool():
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = text.split("\nbench:", 1)[1].split("\n\n", 1)[0]
    assert "tools/run_benchmarks.py" in recipe and "exit 1" not in recipe


def test_bench_notebooks_skips_the_data_chapters_with_one_line_each(tmp_path, no_data_env):
    """Before: nbclient raised a CellExecutionError traceback at chapter 08 (which now reads
    a cached table and runs without the data; 09 and 10 still need it)."""
    proc = _run([str(ROOT / "benchmarks" / "bench_notebooks.py"), "--only", "09", "10"],
                no_data_env, tmp_path)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc
    lines = proc.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "== skip 09_wmt22_case_study.ipynb", "== skip 10_bleu_and_people.ipynb"], proc.stdout
    assert all("make data" in line for line in lines)


def test_bench_notebooks_gc_cells_count_collections_in_a_kernel_like_run():
    """--gc's two added cells, run here as a kernel would run them one after the other:
    the first records every collection, the last prints them, and gc_line reads that."""
    import contextlib
    import gc
    import io

    import nbformat

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_notebooks

    namespace: dict = {}
    exec(bench_notebooks.GC_FIRST, namespace)
    try:
        for _ in range(3):
            gc.collect()  # three full collections, at least
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(bench_notebooks.GC_LAST, namespace)
    finally:
        gc.callbacks.remove(namespace["_gc_note"])
    words = printed.getvalue().split()
    assert words[0] == "GC" and int(words[3]) >= 3  # generation 2: the three collect() calls
    cell = nbformat.v4.new_code_cell()
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout",
                                           text="GC 10 2 1 0.010 0.020 0.300\n")]
    line = bench_notebooks.gc_line(nbformat.v4.new_notebook(cells=[cell]))
    # 0.010 + 0.020 + 0.300 = 0.33 s in all, 0.30 s in the one full collection
    assert "0/1/2: 10/2/1; 0.33 s in the collector (0.30 s in full ones)" in line

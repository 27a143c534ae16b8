"""`make notebooks` (tools/run_notebooks.py): every chapter that needs no data is executed;
those that need the WMT22 data are skipped with one line saying how to get it when it is
absent; only a real failure makes the exit status non-zero.

The plan is tested with ``--dry-run`` (no kernel); two small notebooks in a temporary
folder test the execution itself (a failing one must not stop the others)."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bleu_lesson.data.datasets import dataset

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "run_notebooks.py"
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _needs_data_from_the_modules() -> set[str]:
    """Read ``NEEDS_DATA = True`` and ``NOTEBOOK`` from each chapters/chNN.py as text:
    an oracle apart from the registry the tool uses."""
    found = set()
    chapters = ROOT / "bleu_lesson" / "teaching" / "chapters"
    for module in sorted(chapters.glob("ch[0-9][0-9].py")):
        text = module.read_text(encoding="utf-8")
        if re.search(r"^NEEDS_DATA\s*=\s*True\b", text, re.M):
            found.add(re.search(r"^NOTEBOOK\s*=\s*[\"']([^\"']+)", text, re.M).group(1))
    return found


NEEDS = _needs_data_from_the_modules()


def _run(env_over: dict, *args: str, tmp_path: Path) -> subprocess.CompletedProcess:
    import os

    env = {k: v for k, v in os.environ.items() if k != "BLEU_LESSON_WMT22_DIR"}
    env.setdefault("XDG_CACHE_HOME", str(tmp_path / "no-cache"))
    env.update(env_over)
    return subprocess.run([sys.executable, str(TOOL), *args], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)


def _plan(out: str) -> dict[str, str]:
    """notebook -> the plan's line for it"""
    lines = [line for line in out.splitlines() if line.startswith("== ")]
    return {re.match(r"== (?:execute|skip) (\S+?)(?::|$)", line).group(1): line for line in lines}


def test_without_data_the_data_chapters_are_skipped_and_the_rest_run(tmp_path):
    assert NEEDS, "no chapter says NEEDS_DATA = True"
    proc = _run({"XDG_CACHE_HOME": str(tmp_path / "empty")}, "--dry-run", tmp_path=tmp_path)
    assert proc.returncode == 0, proc.stderr  # a skip is not a failure
    plan = _plan(proc.stdout)
    assert sorted(plan) == [p.name for p in CHAPTERS]
    for name, line in plan.items():
        if name in NEEDS:
            assert line.startswith(f"== skip {name}: needs the WMT22 data"), line
            assert "`make data`" in line and "BLEU_LESSON_WMT22_DIR" in line, line
        else:
            assert line == f"== execute {name}", line
    assert proc.stdout.splitlines()[-1] == (
        f"{len(CHAPTERS) - len(NEEDS)} of {len(CHAPTERS)} notebooks to execute, "
        f"{len(NEEDS)} skipped")
    assert not (tmp_path / "empty").exists()  # looking downloads and creates nothing


def test_with_the_variable_nothing_is_skipped(tmp_path, wmt22_dir):
    proc = _run({"BLEU_LESSON_WMT22_DIR": str(wmt22_dir)}, "--dry-run", tmp_path=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert all(line.startswith("== execute") for line in _plan(proc.stdout).values())


def test_with_the_cache_only_nothing_is_skipped(tmp_path, wmt22_dir):
    """A learner after `make data`: the files in the user cache, no variable."""
    cache = tmp_path / "xdg" / "bleu_lesson" / "wmt22"
    (cache / "humaneval").mkdir(parents=True)
    for name in ("wmt22", "wmt22-human"):
        spec = dataset(name)
        for file in spec.files:
            target = cache / spec.folder / file if spec.folder else cache / file
            target.symlink_to(wmt22_dir / spec.folder / file if spec.folder
                              else wmt22_dir / file)
    proc = _run({"XDG_CACHE_HOME": str(tmp_path / "xdg")}, "--dry-run", tmp_path=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert all(line.startswith("== execute") for line in _plan(proc.stdout).values())


def test_without_the_human_judgments_the_data_chapters_are_skipped(tmp_path, wmt22_dir):
    """Half the data (the test set, not humaneval/): chapter 10 cannot run, so skip."""
    folder = tmp_path / "half"
    folder.mkdir()
    for file in dataset("wmt22").files:
        (folder / file).symlink_to(wmt22_dir / file)
    proc = _run({"BLEU_LESSON_WMT22_DIR": str(folder)}, "--dry-run", tmp_path=tmp_path)
    plan = _plan(proc.stdout)
    assert all(plan[n].startswith(f"== skip {n}: needs the WMT22 data (wmt22-human")
               for n in NEEDS), plan


def test_one_file_missing_is_counted_as_one_and_named(tmp_path, wmt22_dir):
    """The variable's folder lacks one test-set file, the cache is empty: the count is over
    every folder looked in (before: "31 files missing", the cache's count)."""
    folder = tmp_path / "part"
    folder.mkdir()
    files = list(dataset("wmt22").files)
    for file in files[1:]:
        (folder / file).symlink_to(wmt22_dir / file)
    proc = _run({"BLEU_LESSON_WMT22_DIR": str(folder)}, "--dry-run", tmp_path=tmp_path)
    plan = _plan(proc.stdout)
    want = f"(wmt22: 1 of {len(files)} files missing, e.g. {files[0]})"
    assert all(want in plan[n] for n in NEEDS), plan


def _notebook(path: Path, source: str) -> Path:
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": "c1",
                     "metadata": {}, "outputs": [], "source": source}],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                      "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


def _outputs(path: Path) -> list:
    return json.loads(path.read_text(encoding="utf-8"))["cells"][0]["outputs"]


@pytest.mark.parametrize("broken", [False, True], ids=["all-run", "one-fails"])
def test_only_a_real_failure_fails_and_it_stops_nothing(tmp_path, broken):
    needs = sorted(NEEDS)[0]  # a data chapter, by name: skipped, never executed
    skipped = _notebook(tmp_path / needs, "raise SystemExit('must not run')")
    before = hashlib.sha256(skipped.read_bytes()).hexdigest()
    first = _notebook(tmp_path / "98_first.ipynb",
                      "raise RuntimeError('boom')" if broken else "print(6 * 7)")
    second = _notebook(tmp_path / "99_second.ipynb", "print(2 + 3)")
    proc = _run({"XDG_CACHE_HOME": str(tmp_path / "empty")},
                str(first), str(skipped), str(second), tmp_path=tmp_path)
    assert proc.returncode == (1 if broken else 0), proc.stdout + proc.stderr
    last = proc.stdout.splitlines()[-1]
    assert f"{1 if broken else 2} of 3 notebooks executed, 1 skipped" in last, last
    assert ("FAILED: 98_first.ipynb" in last) == broken, last
    assert _outputs(second)[0]["text"] in ("5\n", ["5\n"])  # ran after the failure
    if not broken:
        assert _outputs(first)[0]["text"] in ("42\n", ["42\n"])
    assert hashlib.sha256(skipped.read_bytes()).hexdigest() == before
    # no per-cell timing metadata (--ExecutePreprocessor.record_timing=False)
    cell = json.loads(second.read_text(encoding="utf-8"))["cells"][0]
    assert "execution" not in cell["metadata"], cell["metadata"]


def test_a_notebook_that_does_not_exist_is_a_usage_error(tmp_path):
    proc = _run({}, "nope.ipynb", tmp_path=tmp_path)
    assert proc.returncode == 2 and "'nope.ipynb' does not exist" in proc.stderr


def test_the_makefile_runs_the_tool():
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = text.split("\nnotebooks: venv\n", 1)[1].split("\n\n", 1)[0]
    assert "tools/run_notebooks.py" in target


# --- `make notebooks` twice leaves `git diff` empty ------------------------------------

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def _model_ids(nb: dict) -> tuple[list[str], set[str]]:
    """(the model ids the outputs show, the ids of the saved widget state)"""
    shown = [out["data"][WIDGET_VIEW]["model_id"] for cell in nb["cells"]
             for out in cell.get("outputs", []) if WIDGET_VIEW in out.get("data", {})]
    return shown, set(nb["metadata"]["widgets"][WIDGET_STATE]["state"])


def test_a_chapter_executed_twice_is_written_byte_for_byte_the_same(tmp_path):
    # chapter 02: small, and it shows two explorers (widget state, random model ids)
    chapter = tmp_path / "02_ngrams.ipynb"
    chapter.write_bytes((ROOT / "notebooks" / "02_ngrams.ipynb").read_bytes())
    runs = []
    for _ in range(2):
        proc = _run({}, str(chapter), tmp_path=tmp_path)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        runs.append(chapter.read_bytes())
    assert runs[0] == runs[1]
    nb = json.loads(runs[1])
    shown, saved = _model_ids(nb)
    # the saved state stays (the learner's first view and the web edition need it), and
    # every view the outputs show has its model in it
    assert shown and set(shown) <= saved
    for cell in nb["cells"]:  # one print is one stream output, however the kernel cut it
        kinds = [(o["output_type"], o.get("name")) for o in cell.get("outputs", [])]
        assert all(a != b or a[0] != "stream" for a, b in zip(kinds, kinds[1:])), kinds


def test_the_doctor_shows_the_projects_interpreter_without_a_machine_path():
    exe = Path(sys.executable).absolute()
    if ROOT not in exe.parents:
        pytest.skip("the test runs outside the project's .venv: run it as "
                    ".venv/bin/pytest (make venv) to see what `make notebooks` stores")
    proc = subprocess.run([sys.executable, "-c", "import bleu_lesson; bleu_lesson.doctor()"],
                          cwd=ROOT / "notebooks", capture_output=True, text=True, timeout=120)
    first = proc.stdout.splitlines()[0]
    assert str(ROOT) not in proc.stdout
    assert first.endswith(f"({Path('..') / exe.relative_to(ROOT)})"), first

"""`bleu-lesson check` and the WMT22 data: the kernels get the folder the library finds.

`make data` fills the user cache (``$XDG_CACHE_HOME/bleu_lesson/wmt22``); a sandboxed kernel
has a home of its own, so the checker must hand that folder over (read-only, as
``BLEU_LESSON_WMT22_DIR``), or chapters 08-10 fail with DatasetNotFoundError inside. With
no data anywhere, a submission of a data chapter is not run: error rows and a last line
that names `make data`, exit status 2.

Here the cache is a temporary ``XDG_CACHE_HOME`` holding copies of the real files, and
``BLEU_LESSON_WMT22_DIR`` is unset.
"""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from notebook_tools import NOTEBOOK_DIR

from bleu_lesson.__main__ import main
from bleu_lesson.data import datasets
from bleu_lesson.grading import course, sandbox

CH09 = NOTEBOOK_DIR / "09_wmt22_case_study.ipynb"


def _copy(spec_name: str, source: Path, root: Path) -> None:
    spec = datasets.dataset(spec_name)
    target = root / spec.folder if spec.folder else root
    target.mkdir(parents=True, exist_ok=True)
    for name in spec.files:
        shutil.copyfile(source / name, target / name)


@pytest.fixture
def cache_only(tmp_path, monkeypatch, wmt22_dir, wmt22_human_dir) -> Path:
    """The WMT22 files only in the user cache of a temporary XDG_CACHE_HOME."""
    cache = tmp_path / "xdg" / "bleu_lesson" / "wmt22"
    _copy("wmt22", wmt22_dir, cache)
    _copy("wmt22-human", wmt22_human_dir, cache)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv(datasets.WMT22_ENV_VAR, raising=False)
    monkeypatch.chdir(tmp_path)
    return cache


@pytest.fixture
def no_data(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty-xdg"))
    monkeypatch.delenv(datasets.WMT22_ENV_VAR, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _table(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))[1:]


def test_the_kernel_environment_names_the_cache_folder(cache_only):
    with sandbox.Sandbox(kind="none") as box:
        env = box.environment()
    assert env[datasets.WMT22_ENV_VAR] == str(cache_only.resolve())


def test_inside_the_sandbox_the_test_set_and_the_judgments_load_read_only(cache_only):
    """The real backend of this machine: the kernel's library finds both datasets without
    a download (counts from the raw files), and cannot write into the folder (bubblewrap)."""
    src = cache_only / "generaltest2022.zh-en.src.zh"
    lines = len(src.read_text(encoding="utf-8").split("\n")) - 1  # final newline
    ranked = len([x for x in (cache_only / "humaneval" / "ad-sys-ranking-zh-en-z-names.csv")
                  .read_text(encoding="utf-8").splitlines() if x.strip()])
    code = ("import os\n"
            "from bleu_lesson.data.datasets import load_wmt22, load_wmt22_human\n"
            "d = load_wmt22('zh-en', download=False)\n"
            "h = load_wmt22_human('zh-en', download=False)\n"
            "try:\n"
            "    open(os.path.join(os.environ['BLEU_LESSON_WMT22_DIR'], 'x'), 'w')\n"
            "    w = 'writable'\n"
            "except OSError:\n"
            "    w = 'read-only'\n"
            "print(len(d), len(h.scores), w)\n")
    with sandbox.Sandbox() as box:
        proc = box.start([sys.executable, "-c", code], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
        out, err = proc.communicate(timeout=120)
        kind = box.kind
    assert proc.returncode == 0, err
    n, systems, writable = out.split()
    assert (int(n), int(systems)) == (lines, ranked)
    if kind == "bwrap":
        assert writable == "read-only"


def test_a_student_copy_checked_with_data_only_in_the_cache_is_not_done(cache_only, capsys):
    """Before: every row said 'cell 3 raised DatasetNotFoundError ... cannot reach'."""
    course.write_student_copies(cache_only.parents[2] / "student", [CH09])
    sub = cache_only.parents[2] / "student" / CH09.name
    assert main(["check", str(sub), "--report", "r.csv"]) == 0
    rows = _table(Path("r.csv"))
    assert [(r[1], r[2]) for r in rows] == [("9.1", "not-done"), ("9.2", "not-done")]
    assert not any("DatasetNotFound" in r[3] or "cannot reach" in r[3] for r in rows), rows
    capsys.readouterr()


def test_without_data_a_data_chapter_is_not_run_and_the_last_line_names_make_data(
        no_data, capsys):
    shutil.copyfile(CH09, no_data / "alice_09.ipynb")  # the solutions: it would pass
    (no_data / "broken.ipynb").write_text("{ not json", encoding="utf-8")
    code = main(["check", "alice_09.ipynb", "broken.ipynb", "--report", "r.csv"])
    err = capsys.readouterr().err
    assert code == 2, err
    rows = _table(no_data / "r.csv")
    alice = [r for r in rows if r[0] == "alice_09.ipynb"]
    assert [(r[1], r[2]) for r in alice] == [("9.1", "error"), ("9.2", "error")]
    assert all(r[3].startswith("not judged") and "make data" in r[3] for r in alice), alice
    assert [r[2] for r in rows if r[0] == "broken.ipynb"] == ["error"]  # still checked
    last = err.strip().splitlines()[-1]
    assert "make data" in last and "1 of 2 submissions" in last and "alice_09" in last, err
    assert "broken.ipynb" not in last


def test_without_the_human_judgments_a_data_chapter_is_not_run(no_data, monkeypatch,
                                                                wmt22_dir):
    """The test set alone (no humaneval/): chapter 10 cannot run, as `make notebooks`
    skips it; the sandbox still gets the test set."""
    _copy("wmt22", wmt22_dir, no_data / "testset")
    monkeypatch.setenv(datasets.WMT22_ENV_VAR, str(no_data / "testset"))
    shutil.copyfile(CH09, no_data / "alice_09.ipynb")
    rows = course.check_submissions([no_data / "alice_09.ipynb"], timeout=60)
    assert {r.status for r in rows} == {"error"}
    assert all(r.detail.startswith(course.NO_DATA) and str(no_data / "testset") in r.detail
               for r in rows), rows
    with sandbox.Sandbox(kind="none") as box:
        assert box.environment()[datasets.WMT22_ENV_VAR] == str((no_data / "testset").resolve())


def test_without_data_a_chapter_without_data_is_still_judged(no_data):
    shutil.copyfile(NOTEBOOK_DIR / "02_ngrams.ipynb", no_data / "bob_02.ipynb")
    rows = course.check_submissions([no_data / "bob_02.ipynb"], timeout=60, sandbox="none")
    assert [(r.exercise, r.status) for r in rows] == [("2.1", "pass")]


def test_data_root_prefers_a_folder_with_every_dataset(tmp_path, monkeypatch, wmt22_dir,
                                                       wmt22_human_dir):
    """$BLEU_LESSON_WMT22_DIR with the test set only, the cache with both: the cache, so
    that the kernel also finds the human judgments; the variable's folder once complete."""
    env, cache = tmp_path / "env", tmp_path / "xdg" / "bleu_lesson" / "wmt22"
    _copy("wmt22", wmt22_dir, env)
    _copy("wmt22", wmt22_dir, cache)
    _copy("wmt22-human", wmt22_human_dir, cache)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv(datasets.WMT22_ENV_VAR, str(env))
    assert datasets.data_root() == cache
    _copy("wmt22-human", wmt22_human_dir, env)
    assert datasets.data_root() == env
    shutil.rmtree(cache)
    (env / "generaltest2022.zh-en.src.zh").unlink()
    assert datasets.data_root() is None


@pytest.fixture
def linked_cache(tmp_path, monkeypatch, wmt22_dir, wmt22_human_dir) -> Path:
    """A cache made of symbolic links to the real files (and a linked humaneval/)."""
    cache = tmp_path / "xdg" / "bleu_lesson" / "wmt22"
    cache.mkdir(parents=True)
    for name in datasets.dataset("wmt22").files:
        (cache / name).symlink_to(wmt22_dir / name)
    (cache / "humaneval").symlink_to(wmt22_human_dir, target_is_directory=True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv(datasets.WMT22_ENV_VAR, raising=False)
    return cache


def _in_sandbox(kind: str | None, code: str) -> str:
    with (sandbox.Sandbox(kind=kind) if kind else sandbox.Sandbox()) as box:
        proc = box.start([sys.executable, "-c", code], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    return out


_KINDS = ["bwrap", "unshare"]


@pytest.mark.parametrize("kind", _KINDS)
def test_a_cache_of_links_is_readable_inside(linked_cache, kind):
    """Before: the folder was mounted but the links' targets were not, so every link dangled
    inside while the checker (outside) judged the data present."""
    if kind == "bwrap" and not shutil.which("bwrap"):
        pytest.skip("no bwrap here")
    if kind == "unshare" and not sandbox._probe(["unshare", "--pid", "--fork", "--mount",
                                                   "true"]):
        pytest.skip("unshare cannot make namespaces here")
    if sandbox.refusal(kind):
        pytest.skip(sandbox.refusal(kind))
    first = (linked_cache / "generaltest2022.zh-en.ref.A.en").read_text(
        encoding="utf-8").split("\n")[0]
    code = ("from bleu_lesson.data.datasets import load_wmt22, load_wmt22_human\n"
            "d = load_wmt22('zh-en', download=False)\n"
            "h = load_wmt22_human('zh-en', download=False)\n"
            "print(repr(d.references['A'][0]), len(h.scores) > 10)\n")
    assert _in_sandbox(kind, code).strip() == f"{first!r} True"


@pytest.mark.skipif(not sandbox._probe(["unshare", "--pid", "--fork", "--mount", "true"]),
                    reason="unshare cannot make namespaces here")
@pytest.mark.skipif(bool(sandbox.refusal("unshare")),
                    reason="unshare would run student code as root here: refused")
def test_unshare_kernel_cannot_undo_its_mounts(cache_only):
    """Before: a kernel that stays uid 0 (its Python is not readable by other users) kept
    every capability, so it could unmount the tmpfs over notebooks/ and read the solutions,
    or remount the package read-write; and the data folder was not read-only at all."""
    package = Path(course.__file__).resolve().parents[1]  # bleu_lesson, not grading/
    notebooks = package.parent / "notebooks"
    code = ("import os, subprocess, json\n"
            f"u = subprocess.run(['umount', {str(notebooks)!r}], capture_output=True)\n"
            f"r = subprocess.run(['mount', '-o', 'remount,bind,rw', {str(package)!r}],"
            " capture_output=True)\n"
            "data = os.environ['BLEU_LESSON_WMT22_DIR']\n"
            "print(json.dumps([u.returncode != 0, r.returncode != 0,"
            f" os.listdir({str(notebooks)!r}), os.access({str(package)!r}, os.W_OK),"
            " os.access(data, os.W_OK)]))\n")
    import json

    assert json.loads(_in_sandbox("unshare", code)) == [True, True, [], False, False]

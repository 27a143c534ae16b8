"""Every writable mount of the sandbox has a size: the work folder (home, TMPDIR and the
notebook's folder) is one tmpfs of ``Limits.work_size`` bytes under bubblewrap and under
unshare, so a submission that writes past it gets ENOSPC (errno 28) and a row that says
so, and the host's disk is not filled (issue 20, class 6). The ``none`` backend has no
mount namespace: docs/instructor.md gives what bounds it there (one file's size only)."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from notebook_tools import code_notebook

from bleu_lesson.grading import course, sandbox

bwrap_only = pytest.mark.skipif(sandbox.backend() != "bwrap",
                                reason="bubblewrap cannot run here")

MiB = 1024 ** 2
# 2 MiB files (the judging world allows files of at most 4 MiB), up to 400 MiB per folder
FILL = """import os
def _fill(folder):
    n = 0
    try:
        for k in range(200):
            with open(os.path.join(folder, f'fill{k}.bin'), 'wb') as f:
                f.write(b'x' * 2 * 1024 ** 2)
            n += 2
    except OSError as exc:
        return n, exc.errno
    return n, None
"""
PROBE = FILL + """
FILLED = [_fill('.'), _fill(os.path.expanduser('~')), _fill(os.environ['TMPDIR'])]
def my_brevity_penalty(c, r):
    return FILLED
"""
UNCAUGHT = """import os
for k in range(200):
    with open(f'fill{k}.bin', 'wb') as f:
        f.write(b'x' * 2 * 1024 ** 2)
"""


def _notebook(cells: list[str]) -> dict:
    return code_notebook(cells)


@pytest.fixture(scope="module")
def rows(tmp_path_factory) -> dict[str, course.Row]:
    folder = tmp_path_factory.mktemp("work-size")
    paths = []
    for name, cells in (("probe", [PROBE]), ("uncaught", [UNCAUGHT])):
        path = folder / f"04_{name}.ipynb"
        path.write_text(json.dumps(_notebook(cells)), encoding="utf-8")
        paths.append(path)
    found = course.check_submissions(paths, timeout=60, jobs=2)
    return {f"{Path(r.submission).stem[3:]} {r.exercise}": r for r in found}


@bwrap_only
def test_the_work_folder_holds_work_size_bytes_in_all(rows):
    """The three writable folders share one tmpfs: 256 MiB fit, then ENOSPC in each."""
    size = sandbox.Limits().work_size
    assert size == 256 * MiB
    assert "probe 4.1" in rows, "\n".join(map(str, rows.values()))  # every row, whole
    row = rows["probe 4.1"]
    assert row.status == "fail"
    filled = f"[({size // MiB}, {errno.ENOSPC}), (0, {errno.ENOSPC}), (0, {errno.ENOSPC})]"
    assert filled in row.detail, row.detail


@bwrap_only
def test_writing_past_it_is_a_clear_row(rows):
    assert "uncaught 4.1" in rows, "\n".join(map(str, rows.values()))
    row = rows["uncaught 4.1"]
    assert row.status == "not-done"
    assert "OSError" in row.detail and "No space left on device" in row.detail


# --- unshare ------------------------------------------------------------------------------
# As root with a Python other users cannot run (this machine's pyenv, for one), ``refusal``
# keeps ``check`` from using unshare at all: the kernel would be uid 0. The code run here is
# the test's own, so the test lifts the refusal to measure the mounts.

unshare_only = pytest.mark.skipif(
    os.geteuid() != 0 or not sandbox._probe(["unshare", "--pid", "--fork", "--mount",
                                             "--net", "true"]),
    reason="the unshare backend needs root and namespaces (it has no user namespace)")

WRITE = r"""
import os
MiB = 1024 ** 2
def fill(folder):
    n = 0
    try:
        for k in range(64):
            with open(os.path.join(folder, f"f{k}"), "wb") as f:
                f.write(b"x" * MiB)
            n += 1
    except OSError as exc:
        return [n, exc.errno]
    return [n, None]
out = {"home": fill(os.environ["HOME"]), "tmp": fill(os.environ["TMPDIR"]), "nb": fill(".")}
def attempt(what):
    try:
        what()
        return None
    except OSError as exc:
        return exc.errno
work = os.path.dirname(os.environ["HOME"])
out["work root"] = attempt(lambda: open(os.path.join(work, "x.bin"), "wb").write(b"x"))
out["notebook copy"] = attempt(lambda: open("04_x.ipynb", "a").write("x"))
out["notebook text"] = open("04_x.ipynb").read()
out["sockets"] = attempt(lambda: open(os.path.join(work, "ipc", "s"), "w").write("x"))
out["shared"] = [os.statvfs(p).f_blocks * os.statvfs(p).f_frsize // MiB
                 for p in ("/dev/shm", "/var/tmp")]
print(json.dumps(out))
""".replace("import os", "import os, json", 1)


@unshare_only
def test_unshare_work_folder_holds_work_size_bytes_in_all(monkeypatch):
    """8 MiB in all for home, TMPDIR and the notebook's folder (1 MiB files: 8, then ENOSPC
    everywhere); the host's folder around them is read-only (EROFS, errno 30), so is the
    checker's copy of the notebook; the sockets' folder stays writable; /dev/shm and
    /var/tmp are tmpfs of ``TMPFS_SIZE``. Nothing is written to the host's disk."""
    monkeypatch.setattr(sandbox, "refusal", lambda kind: None)
    monkeypatch.setattr(course, "refusal", lambda kind: None)
    limits = sandbox.Limits(work_size=8 * MiB, file_size=4 * MiB)
    with sandbox.Sandbox(limits, kind="unshare") as box:
        (box.nbdir / "04_x.ipynb").write_text("{}", encoding="utf-8")
        proc = box.start([sys.executable, "-I", "-c", WRITE], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err.decode()[-500:]
        got = json.loads(out)
        host = [p for p in box.workdir.rglob("*") if p.is_file() and box.ipcdir not in
                p.parents]
        assert sorted(p.name for p in host) == ["04_x.ipynb"]  # no byte reached the host
    assert got["home"] == [8, errno.ENOSPC]
    assert got["tmp"] == got["nb"] == [0, errno.ENOSPC]
    assert got["work root"] == got["notebook copy"] == errno.EROFS
    assert got["notebook text"] == "{}" and got["sockets"] is None
    assert got["shared"] == [sandbox.TMPFS_SIZE // MiB] * 2


@unshare_only
def test_unshare_still_judges_a_submission(monkeypatch, tmp_path):
    """The sized folders leave the kernel and the judging world working under unshare: the
    notebook's own answer passes, one that fills its folder gets the ENOSPC row."""
    monkeypatch.setattr(sandbox, "refusal", lambda kind: None)
    monkeypatch.setattr(course, "refusal", lambda kind: None)
    right = "import math\ndef my_brevity_penalty(c, r):\n    " \
            "return 1.0 if c > r else (0.0 if c == 0 else math.exp(1 - r / c))\n"
    paths = []
    for name, cells in (("right", [right]), ("uncaught", [UNCAUGHT])):
        path = tmp_path / f"04_{name}.ipynb"
        path.write_text(json.dumps(_notebook(cells)), encoding="utf-8")
        paths.append(path)
    found = course.check_submissions(paths, timeout=60, jobs=1, sandbox="unshare")
    rows = {f"{Path(r.submission).stem[3:]} {r.exercise}": r for r in found}
    assert rows["right 4.1"].status == "pass", rows["right 4.1"]
    assert "uncaught 4.1" in rows, "\n".join(map(str, rows.values()))
    row = rows["uncaught 4.1"]
    assert row.status == "not-done" and "No space left on device" in row.detail, row


# --- none ---------------------------------------------------------------------------------
# No mount namespace, so no tmpfs can be given without privileges: the work folder is the
# host's. What bounds it is RLIMIT_FSIZE per file (EFBIG, errno 27), not the number of
# files; docs/instructor.md says so. This test holds that statement to the facts.

NONE_WRITE = r"""
import os, json
MiB = 1024 ** 2
n = 0
for k in range(12):
    with open(f"f{k}.bin", "wb") as f:
        f.write(b"x" * MiB)
    n += 1
try:
    with open("big.bin", "wb") as f:
        f.write(b"x" * 5 * MiB)
    big = None
except OSError as exc:
    big = exc.errno
print(json.dumps([n, big]))
"""


def test_none_bounds_each_file_but_not_the_folder():
    limits = sandbox.Limits(work_size=8 * MiB, file_size=4 * MiB)
    with sandbox.Sandbox(limits, kind="none") as box:
        proc = box.start([sys.executable, "-I", "-c", NONE_WRITE], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err.decode()[-500:]
        written = sum(p.stat().st_size for p in box.nbdir.iterdir())
    assert json.loads(out) == [12, errno.EFBIG]
    assert written >= 12 * MiB > limits.work_size  # past work_size: the documented gap

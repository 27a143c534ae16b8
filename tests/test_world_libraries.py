"""What a judging world holds: a library only where the exercise gives it, no package folder.

8.2's answer re-scores with sacrebleu, so its world holds a copy of sacrebleu (and what its
import needs) beside the exercise's givens (``core/forensics.py``); no other exercise's
world does, and neither holds the judge (``chapters/ch08.py``), NLTK or another part of the
library. Under bubblewrap, no ``site-packages`` or ``dist-packages`` folder a bare
sandbox can see holds anything (the world's copy of Python has none; without a copy, each
is covered), found here by walking what it sees (not from the list the sandbox uses),
whatever Python owns it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bleu_lesson.grading import sandbox, world
from bleu_lesson.teaching.exercises import EXERCISES


def _files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}


def test_only_constructions_are_given_a_library():
    """8.2 re-scores with sacrebleu; 1.1, 6.2, 6.3, 7.1 and 8.1 may search for what they build with
    it (sacrebleu computes no answer to a construction: its judge scores what was built).
    No exercise whose answer sacrebleu computes (a function exercise) has it."""
    given = {ex.id: ex.libraries for ex in EXERCISES.values() if ex.libraries}
    assert given == {k: ("sacrebleu",) for k in ("1.1", "6.2", "6.3", "7.1", "8.1", "8.2")}
    assert all(EXERCISES[k].reference is None for k in given)
    # and the library's BLEU code is only where a construction is judged, never in the
    # world of an exercise whose answer it computes (6.1: sentence_bleu)
    assert {ex.id for ex in EXERCISES.values() if "bleu" in ex.building_blocks} == {
        "6.2", "6.3", "7.1"}
    assert all(EXERCISES[k].reference is None for k in ("6.2", "6.3", "7.1"))
    assert EXERCISES["8.2"].building_blocks == ("forensics",)
    assert EXERCISES["8.1"].building_blocks == ()


def test_the_world_of_8_2_holds_sacrebleu_and_the_givens_but_not_the_judge(tmp_path):
    ex = EXERCISES["8.2"]
    folder = world.build_world(ex.building_blocks, tmp_path / "w", ex.libraries)
    files = _files(folder)
    assert "sacrebleu/__init__.py" in files and "sacrebleu/metrics/bleu.py" in files
    assert any(f.startswith("regex/") for f in files)  # sacrebleu's "intl" tokenizer
    assert sorted(f for f in files if f.startswith("bleu_lesson/")) == [
        "bleu_lesson/__init__.py", "bleu_lesson/_version.py", "bleu_lesson/core/__init__.py",
        "bleu_lesson/core/_validate.py", "bleu_lesson/core/forensics.py",
        "bleu_lesson/core/stats.py"]
    for absent in ("nltk", "numpy", "scipy", "teaching", "ch08", "analysis"):
        assert not any(absent in f.split("/")[:-1] or f.startswith(absent) for f in files), \
            absent
    # the givens in the world state no setting: the answer is found by re-scoring
    text = (folder / "bleu_lesson" / "core" / "forensics.py").read_text(encoding="utf-8")
    assert "lower" not in text and "case:lc" not in text
    assert "import" not in text.replace("from __future__ import annotations", "")


def test_a_world_without_the_library_has_none_of_it(tmp_path):
    folder = world.build_world(EXERCISES["6.1"].building_blocks, tmp_path / "w",
                               EXERCISES["6.1"].libraries)
    assert not any(f.startswith(("sacrebleu", "regex", "tabulate", "portalocker"))
                   for f in _files(folder))
    with pytest.raises(ValueError, match="library 'nltk'"):
        world.build_world([], tmp_path / "x", ["nltk"])


def test_sacrebleu_runs_in_the_copied_world_under_minus_I_minus_S(tmp_path):
    """The copy is complete: with no site-packages, sacrebleu scores the givens, and its
    lowercased score is the one the exercise reports (sacrebleu computes it here)."""
    ex = EXERCISES["8.2"]
    folder = world.build_world(ex.building_blocks, tmp_path / "w", ex.libraries)
    script = (f"import sys; sys.path.insert(0, {str(folder)!r})\n"
              "import world_child as w\nsys.meta_path.append(w.AbsentFinder())\n"
              "import sacrebleu, json\n"
              "from bleu_lesson.core.forensics import FORENSICS_HYPS as H, FORENSICS_REFS as R\n"
              "from bleu_lesson.core.forensics import forensics_reported\n"
              "s = sacrebleu.BLEU(lowercase=True).corpus_score(list(H), [list(R)]).score\n"
              "t = sacrebleu.BLEU(tokenize='intl').corpus_score(list(H), [list(R)]).score\n"
              "print(json.dumps([sacrebleu.__file__, round(s, 2), forensics_reported(), t]))\n")
    out = subprocess.run([sys.executable, "-I", "-S", "-c", script], capture_output=True,
                         text=True, timeout=60, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-800:]
    where, lowercased, reported, intl = json.loads(out.stdout)
    assert where.startswith(str(folder))
    assert lowercased == reported == 68.51
    assert intl > 0


@pytest.mark.skipif(sandbox.backend() != "bwrap", reason="only bubblewrap hides the host")
def test_every_package_folder_a_bare_sandbox_sees_is_empty():
    """Walks, inside a bare sandbox, where the host keeps Python's packages (``/usr``,
    ``/etc``, the system folders, the Python installation) for package folders; any one
    found must be empty. The host has such folders there, with packages in them (else the
    test proves nothing), and the walk inside reaches the standard library."""
    roots = ["/usr", "/etc", "/bin", "/lib", "/lib64", "/sbin",
             str(Path(sys.base_prefix).resolve())]
    names = ("site-packages", "dist-packages")
    walk = (
        "import json, os, sys\n"
        "found = {}\n"
        f"for root in {roots!r}:\n"
        "    for folder, subs, _ in os.walk(root):\n"
        f"        for name in [s for s in subs if s in {names!r}]:\n"
        "            path = os.path.join(folder, name)\n"
        "            try:\n"
        "                found[path] = len(os.listdir(path))\n"
        "            except OSError:\n"
        "                found[path] = 0\n"
        f"        subs[:] = [s for s in subs if s not in {names!r}]\n"
        "print(json.dumps([found, os.path.isfile(os.__file__)]))\n")
    host = {}
    for root in roots:
        for folder, subs, _ in os.walk(root):
            for name in [s for s in subs if s in names]:
                host[os.path.join(folder, name)] = len(os.listdir(os.path.join(folder, name)))
            subs[:] = [s for s in subs if s not in names]
    assert any(host.values()), host  # there is something to hide
    with sandbox.Sandbox(bare=True) as box:
        proc = box.start([os.path.realpath(sys.executable), "-I", "-S", "-c", walk],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = proc.communicate(timeout=120)
    seen, has_stdlib = json.loads(out.decode() or "[{}, false]")
    assert has_stdlib, err[-500:]
    assert {path: n for path, n in seen.items() if n} == {}


def test_every_world_has_its_own_copy_of_numpy():
    """numpy comes into a world as a copy made for this run (new files: no page a kernel
    sandbox reads), without its tests; the copy is the installed numpy's."""
    import numpy

    site = world.numpy_copy()
    assert site is not None
    assert sorted(p.name for p in site.iterdir()) == ["numpy", "numpy.libs"]
    copied, installed = site / "numpy" / "__init__.py", Path(numpy.__file__)
    assert copied.read_bytes() == installed.read_bytes()
    assert copied.stat().st_ino != installed.stat().st_ino
    assert not (site / "numpy" / "tests").exists()
    assert site not in Path(numpy.__file__).parents


def test_the_numpy_copy_is_made_once_and_removed_when_the_process_exits(tmp_path):
    """One copy per process (a second call gives the same folder), gone after its exit."""
    script = ("import json\nfrom bleu_lesson.grading import world\n"
              "site = world.numpy_copy()\n"
              "assert site is not None and site == world.numpy_copy()\n"
              "print(json.dumps(str(site)))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=300, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert out.returncode == 0, out.stderr[-800:]
    assert Path(json.loads(out.stdout)).parent == tmp_path
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(sandbox.backend() != "bwrap", reason="the world's copy of Python: bwrap")
def test_numpy_computes_in_a_bare_sandbox_with_one_thread_and_one_process():
    """Where answers are judged (a bare sandbox, its seccomp filter, RLIMIT_NPROC of 1),
    numpy imports from the copy and computes, and its BLAS started no thread: the
    environment says one thread (sandbox.BLAS_THREADS)."""
    site = world.numpy_copy()
    assert site is not None
    script = ("import json, os, resource, sys\n"
              "resource.setrlimit(resource.RLIMIT_NPROC, (1, 1))\n"
              f"sys.path.insert(0, {str(site)!r})\n"
              "import numpy as np\n"
              "a = np.arange(1, 65, dtype=float).reshape(8, 8)\n"
              "print(json.dumps([np.__file__, float((a @ a).trace()), float(np.sort([3, 1, 2])[0]),"
              " len(os.listdir('/proc/self/task')), os.environ.get('OPENBLAS_NUM_THREADS')]))\n")
    with sandbox.Sandbox(bare=True, readable=(site,)) as box:
        proc = box.start([os.path.realpath(sys.executable), "-I", "-S", "-c", script],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()[-800:]
    where, trace, smallest, threads, blas = json.loads(out.decode())
    a = [[8 * i + j + 1 for j in range(8)] for i in range(8)]  # the trace of a @ a, by hand
    assert trace == sum(a[i][k] * a[k][i] for i in range(8) for k in range(8))
    assert where.startswith(str(site)) and smallest == 1.0
    assert threads == 1 and blas == "1"


def test_numpy_scalars_are_sent_as_the_notebook_compares_them():
    """np.float64 and np.int64 answers are plain numbers where they are judged, as the
    notebook's ``same`` takes them; np.bool_ is no Python bool in either place (the
    notebook's check fails it, and the world names its type)."""
    import numpy as np

    from bleu_lesson.grading import world_child
    from bleu_lesson.teaching.checking import same

    assert world_child.encode(np.float64(0.5), None) == 0.5
    assert world_child.encode(np.int64(7), None) == 7 and type(
        world_child.encode(np.int64(7), None)) is int
    assert same(0.5, np.float64(0.5), 1e-9) and same(7, np.int64(7), None)
    assert not same(True, np.True_, None)
    with pytest.raises(world_child.Unserialisable, match=r"^numpy\.bool"):
        world_child.encode(np.True_, None)
    with pytest.raises(world_child.Unserialisable, match=r"^numpy\.ndarray$"):
        world_child.encode(np.array([1.0]), None)


def test_a_world_without_numpy_says_so_in_the_row():
    """Where the copy could not be made, numpy imports as a stand-in: an answer built on
    it gets a row that says, in Chinese and English, what exists where answers are
    judged (not a wrong number blamed on the learner's logic)."""
    from bleu_lesson.grading import judge, world_child

    cells = ["import numpy as np\ndef my_brevity_penalty(c, r):\n    return np.exp(1 - r / c)\n"]
    request = {"cells": cells, "cell_seconds": 5, "nonce": "n0",
               "answers": [{"name": "my_brevity_penalty", "kind": "function",
                            "cases": [[6, 7]]}]}
    proc = subprocess.run([sys.executable, "-I", "-S", "-B", world_child.__file__],
                          input=json.dumps(request).encode(), capture_output=True, timeout=120)
    reply = json.loads(proc.stdout.decode())["replies"][0]
    assert reply["status"] == "unserialisable" and reply["type"] == "Absent"
    v = judge.judge_exercise(EXERCISES["4.1"], reply, [(6, 7)], 0)
    assert v.status == "fail"
    assert "不是普通的值 (not a plain value)" in v.detail
    assert "only the standard library, numpy and the" in v.detail and "判分环境中没有" in v.detail
    assert "an object" not in v.detail


def test_a_kernel_under_unshare_cannot_reach_the_worlds_numpy():
    """Under ``unshare`` a kernel sees the host's /tmp (as the checker's uid when that is
    not root): the numpy copy every world imports is covered in a kernel's mount
    namespace, so no submission can change it for another; the world itself keeps it."""
    import shlex

    site = world.numpy_copy()
    assert site is not None and site in sandbox.WORLD_ONLY
    cover = f"mount -t tmpfs -o size=1m,mode=0755 none {shlex.quote(str(site))}"
    with sandbox.Sandbox(kind="none") as kernel, sandbox.Sandbox(kind="none", bare=True,
                                                                 readable=(site,)) as judged:
        assert cover in kernel._unshare_script().splitlines()
        assert cover not in judged._unshare_script().splitlines()

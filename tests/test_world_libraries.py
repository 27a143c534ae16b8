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


def test_only_8_2_is_given_a_library():
    given = {ex.id: ex.libraries for ex in EXERCISES.values() if ex.libraries}
    assert given == {"8.2": ("sacrebleu",)}
    assert EXERCISES["8.2"].building_blocks == ("forensics",)


def test_the_world_of_8_2_holds_sacrebleu_and_the_givens_but_not_the_judge(tmp_path):
    ex = EXERCISES["8.2"]
    folder = world.build_world(ex.building_blocks, tmp_path / "w", ex.libraries)
    files = _files(folder)
    assert "sacrebleu/__init__.py" in files and "sacrebleu/metrics/bleu.py" in files
    assert any(f.startswith("regex/") for f in files)  # sacrebleu's "intl" tokenizer
    assert sorted(f for f in files if f.startswith("bleu_lesson/")) == [
        "bleu_lesson/__init__.py", "bleu_lesson/core/__init__.py",
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
    folder = world.build_world(EXERCISES["8.1"].building_blocks, tmp_path / "w",
                               EXERCISES["8.1"].libraries)
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

"""The nbgrader route: chapter metadata, generate_assignment and autograde (issue 11.5).

The chapters carry nbgrader cell metadata (tools/nbgrader_metadata.py writes it); with
tools/nbgrader_config.py, ``nbgrader generate_assignment`` writes the same student version
as ``bleu-lesson student`` and ``nbgrader autograde`` gives a correct answer its points and
an untouched or wrong one none. nbgrader runs here for real, offline, in a temporary course
folder with its own sqlite gradebook.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from notebook_tools import ROOT, chapters, load, solution_blocks, source

from bleu_lesson.cli.nbschema import python_m
from bleu_lesson.grading import course
from bleu_lesson.teaching import exercises

CHAPTERS = chapters()
IDS = [p.stem for p in CHAPTERS]
TOOLS = ROOT / "tools"
CHECK_CALL = re.compile(r"""\bcheck\(\s*["'](\d+\.\d+)["']""")


def _script(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(TOOLS / "nbgrader_metadata.py"), *args],
                          capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_chapter_metadata_matches_its_markers_and_checks(path):
    """Every solution cell is an nbgrader answer cell, every check cell a locked graded
    test, nothing else is either; re-running the script would change nothing."""
    nb = load(path)
    seen: set[str] = set()
    for i, cell in enumerate(nb["cells"]):
        meta = cell.get("metadata", {}).get("nbgrader")
        where = f"{path.name} cell {i}"
        if cell["cell_type"] != "code":
            assert meta is None, f"{where}: markdown with nbgrader metadata"
            continue
        blocks = solution_blocks(source(cell))
        checks = CHECK_CALL.findall(source(cell))
        if blocks:
            assert meta is not None and meta["solution"] is True and meta["grade"] is False \
                and meta["locked"] is False, f"{where}: solution cell without answer metadata"
            # nbgrader's stub is one fixed text: ours equals it only inside a function
            assert all(b.indent for b in blocks), (
                f"{where}: a top-level solution block; nbgrader would stub it differently")
        elif checks:
            assert meta is not None and meta["grade"] is True and meta["solution"] is False \
                and meta["locked"] is True and meta["points"] == len(checks) > 0, (
                f"{where}: check cell is not a locked graded test")
        else:
            assert meta is None, f"{where}: nbgrader metadata on a plain cell"
        if meta is not None:
            assert meta["schema_version"] == 3
            assert re.fullmatch(r"[A-Za-z0-9_-]+", meta["grade_id"]), meta["grade_id"]
            assert meta["grade_id"] not in seen, f"{where}: grade_id used twice"
            seen.add(meta["grade_id"])
    assert course.with_nbgrader_metadata(nb) == nb, (
        f"{path.name}: stale nbgrader metadata: run python tools/nbgrader_metadata.py")


def test_metadata_script_is_idempotent_and_keeps_everything_else(tmp_path):
    original = ROOT / "notebooks" / "04_brevity_penalty.ipynb"
    nb = load(original)
    bare = copy.deepcopy(nb)
    for cell in bare["cells"]:
        cell.get("metadata", {}).pop("nbgrader", None)
    bare["cells"][0]["metadata"]["nbgrader"] = {"grade": True, "grade_id": "stale"}  # markdown
    solution = next(c for c in bare["cells"] if solution_blocks(source(c)))
    solution["metadata"]["tags"] = ["mine"]
    bare["metadata"]["extra"] = {"keep": 1}
    target = tmp_path / original.name
    target.write_text(json.dumps(bare, sort_keys=True, indent=1, ensure_ascii=False) + "\n",
                      encoding="utf-8")
    assert _script("--check", str(target)).returncode == 1  # stale
    assert _script(str(target)).returncode == 0
    once = target.read_bytes()
    done = _script(str(target))
    assert done.returncode == 0 and "unchanged" in done.stdout
    assert target.read_bytes() == once  # idempotent
    assert _script("--check", str(target)).returncode == 0
    after = json.loads(once)
    assert after["metadata"]["extra"] == {"keep": 1}
    assert "nbgrader" not in after["cells"][0]["metadata"]
    for before_cell, after_cell, repo_cell in zip(bare["cells"], after["cells"], nb["cells"]):
        assert before_cell["source"] == after_cell["source"]
        assert before_cell.get("outputs") == after_cell.get("outputs")
        assert after_cell["metadata"].get("nbgrader") == repo_cell["metadata"].get("nbgrader")
    changed = next(c for c in after["cells"] if solution_blocks(source(c)))
    assert changed["metadata"]["tags"] == ["mine"]


def test_check_raises_only_where_a_grader_asks(monkeypatch, capsys):
    monkeypatch.delenv(exercises.RAISE_ENV, raising=False)
    exercises.check("2.1", ...)  # a learner's kernel: a message, no exception
    assert "还没有完成" in capsys.readouterr().out
    monkeypatch.setenv(exercises.RAISE_ENV, "1")
    with pytest.raises(AssertionError, match="2.1"):
        exercises.check("2.1", ...)
    with pytest.raises(AssertionError, match="fail"):
        exercises.check("2.1", lambda: "x y z")
    exercises.check("2.1", lambda: "x y z x y z x y")
    assert "通过" in capsys.readouterr().out


# --- nbgrader itself ---------------------------------------------------------------------

CHAPTER = ROOT / "notebooks" / "04_brevity_penalty.ipynb"  # two exercises, runs in seconds
RIGHT_BP = """if c > r:
    return 1.0
if c == 0:
    return 0.0
return math.exp(1 - r / c)"""
WRONG_CLOSEST = "return ref_lens[-1]"  # (6, [5, 7]): 7, not 5
#: answers that get points from autograde, which runs them in the learner's kernel: the
#: library's own function, and a patched judge: (body of my_brevity_penalty, code the
#: student adds at the top level of that answer cell)
BORROW_CLOSEST = ("from bleu_lesson.core.brevity import closest_ref_length\n"
                  "return closest_ref_length(c, ref_lens)")
PATCH_RUN = ("import bleu_lesson.teaching.exercises as _e\n"
             "_e.run = lambda i, a, rng=None: _e.CheckResult(i, 'pass', '')\n")
IN_KERNEL = {
    # the reference itself, imported: visible and hidden tests pass (2 of 2)
    "borrow": ("from bleu_lesson import brevity_penalty\nreturn brevity_penalty(c, r)", ""),
    # the visible check's run() replaced: the hidden test (its own verdict) still fails it
    "patch_run": ("return 0.5", PATCH_RUN),
    # run() and verdict() replaced: both pass, though both answers are wrong
    "patch_both": ("return 0.5", PATCH_RUN + "_e.verdict = lambda *a, **k: (True, '')\n"),
}


def _nbgrader(course_dir: Path, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != exercises.RAISE_ENV}
    env["JUPYTER_CONFIG_DIR"] = str(course_dir / ".jupyter")  # no user-wide nbgrader config
    # nbgrader runs the `alembic` command to create its gradebook: it must be on PATH
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    done = subprocess.run([*python_m("nbgrader"), *args], cwd=course_dir, env=env,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]


def _answer(nb: dict, name: str, body: str) -> None:
    """What a student does: write ``body`` in place of the stub of ``name``."""
    stub = "    " + course.STUB + "\n    raise NotImplementedError"
    for cell in nb["cells"]:
        if re.search(rf"^def {name}\(", source(cell), re.M):
            assert stub in source(cell), source(cell)
            cell["source"] = source(cell).replace(
                stub, "\n".join("    " + line for line in body.split("\n")))
            return
    raise AssertionError(f"no cell defines {name}")


def _submit(course_dir: Path, student: str, nb: dict) -> None:
    folder = course_dir / "submitted" / student / "ch04"
    folder.mkdir(parents=True)
    (folder / CHAPTER.name).write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    pytest.importorskip("nbgrader")
    course_dir = tmp_path_factory.mktemp("nbgrader_course")
    shutil.copyfile(TOOLS / "nbgrader_config.py", course_dir / "nbgrader_config.py")
    # the source copies carry hidden tests (tools/nbgrader_source.py writes them)
    for folder, paths in (("ch04", [CHAPTER]), ("all", CHAPTERS)):  # all: for comparison
        done = subprocess.run([sys.executable, str(TOOLS / "nbgrader_source.py"),
                               str(course_dir / "source" / folder), *map(str, paths)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
    # "all" is only compared with our student copies: not recorded in the gradebook
    _nbgrader(course_dir, "generate_assignment", "all", "--force", "--no-db")
    _nbgrader(course_dir, "generate_assignment", "ch04", "--force")
    release = load(course_dir / "release" / "ch04" / CHAPTER.name)

    _submit(course_dir, "right", load(CHAPTER))  # the instructor's answers
    _submit(course_dir, "untouched", release)
    half = copy.deepcopy(release)
    _answer(half, "my_brevity_penalty", RIGHT_BP)
    _answer(half, "my_closest_ref_length", WRONG_CLOSEST)
    _submit(course_dir, "half", half)
    cheat = copy.deepcopy(release)  # stubs left, the checks replaced by prints
    for cell in cheat["cells"]:
        if CHECK_CALL.search(source(cell)):
            cell["source"] = "print('✔ 通过')"
    _submit(course_dir, "cheat", cheat)
    for name, (body, top) in IN_KERNEL.items():  # what the in-kernel route cannot protect
        nb = copy.deepcopy(release)
        _answer(nb, "my_brevity_penalty", body)
        cell = next(c for c in nb["cells"] if "def my_brevity_penalty(" in source(c))
        cell["source"] = source(cell) + "\n" + top
        _answer(nb, "my_closest_ref_length", BORROW_CLOSEST if name == "borrow" else
                WRONG_CLOSEST)
        _submit(course_dir, name, nb)
    _nbgrader(course_dir, "autograde", "ch04", "--create")

    from nbgrader.api import Gradebook

    scores = {}
    with Gradebook(f"sqlite:///{course_dir / 'gradebook.db'}") as gb:
        for student in ("right", "untouched", "half", "cheat", *IN_KERNEL):
            sub = gb.find_submission_notebook(CHAPTER.stem, "ch04", student)
            scores[student] = (sub.score, sub.max_score,
                               {g.name: g.score for g in sub.grades})
    return course_dir, release, scores


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_generate_assignment_gives_our_student_version(graded, path):
    course_dir, _, _ = graded
    theirs_nb = load(course_dir / "release" / "all" / path.name)
    ours = course.make_student_copy(load(path), path.name)
    assert len(theirs_nb["cells"]) == len(ours["cells"])
    for i, (theirs, mine) in enumerate(zip(theirs_nb["cells"], ours["cells"])):
        assert theirs["cell_type"] == mine["cell_type"], f"{path.name} cell {i}"
        assert source(theirs) == source(mine), f"{path.name} cell {i} differs"
    text = "\n".join(source(c) for c in theirs_nb["cells"] if c["cell_type"] == "code")
    assert course.BEGIN not in text and course.END not in text


def test_the_released_chapter_has_no_solution(graded):
    _, release, _ = graded
    text = "\n".join(source(c) for c in release["cells"])
    assert "return math.exp(1 - r / c)" not in text and course.STUB in text


def test_autograde_gives_points_only_for_right_answers(graded):
    _, _, scores = graded
    assert scores["right"] == (2.0, 2.0, {"check_4_1": 1.0, "check_4_2": 1.0})
    assert scores["untouched"] == (0.0, 2.0, {"check_4_1": 0.0, "check_4_2": 0.0})
    assert scores["half"] == (1.0, 2.0, {"check_4_1": 1.0, "check_4_2": 0.0})
    assert scores["cheat"][0] == 0.0  # locked check cells are put back before grading


def test_the_release_has_no_hidden_test_and_autograde_runs_it(graded):
    course_dir, release, _ = graded
    text = "\n".join(source(c) for c in release["cells"])
    assert course.HIDDEN_BEGIN not in text and "check_hidden" not in text
    source_nb = load(course_dir / "source" / "ch04" / CHAPTER.name)
    hidden = [c for c in source_nb["cells"] if course.HIDDEN_BEGIN in source(c)]
    assert len(hidden) == 2  # 4.1 and 4.2 both have hidden cases
    graded_nb = load(course_dir / "autograded" / "half" / "ch04" / CHAPTER.name)
    assert sum("check_hidden" in source(c) for c in graded_nb["cells"]) == 2


def test_what_the_in_kernel_route_cannot_protect(graded):
    """Measured: autograde runs the answer and its tests in the learner's kernel. The
    library's own function gets full points; a patched judge gets points; hidden tests
    catch only a patch of the visible check (docs/instructor.md lists these)."""
    _, _, scores = graded
    assert scores["borrow"][0] == 2.0
    assert scores["patch_run"][2] == {"check_4_1": 0.0, "check_4_2": 0.0}
    assert scores["patch_both"][2] == {"check_4_1": 1.0, "check_4_2": 1.0}


def test_nbgrader_source_keeps_an_existing_file_without_force(tmp_path):
    tool = [sys.executable, str(TOOLS / "nbgrader_source.py"), str(tmp_path)]
    assert subprocess.run([*tool, str(CHAPTER)], capture_output=True, timeout=120).returncode == 0
    target = tmp_path / CHAPTER.name
    first = target.read_bytes()
    again = subprocess.run([*tool, str(CHAPTER)], capture_output=True, text=True, timeout=120)
    assert again.returncode == 2 and "--force" in again.stderr
    assert target.read_bytes() == first  # not overwritten (and its seeds not redrawn)
    forced = subprocess.run([*tool, str(CHAPTER), "--force"], capture_output=True, timeout=120)
    assert forced.returncode == 0 and target.read_bytes() != first  # new seeds
    missing = subprocess.run([*tool, str(tmp_path / "nope.ipynb")], capture_output=True,
                             text=True, timeout=120)
    assert missing.returncode == 2 and "no such notebook" in missing.stderr
